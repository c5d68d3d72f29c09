"""``python -m rules``: the judge (``python -m rules judge``) and a command line for people."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["judge"] and len(args) == 1:
        from rules.judge import serve

        return int(serve())
    from rules.cli import main as cli_main

    return int(cli_main(args))


if __name__ == "__main__":
    sys.exit(main())
