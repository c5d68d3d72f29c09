"""Command line: ``python -m app.vision PHOTO [--json]``.

Prints the tiles read, row by row (or, with ``--json``, ``{"ok": true, "tiles": [{"tile",
"box", "confidence"}], "rows": [[...]], "seconds": ...}``). A photo that cannot be read gives
``{"ok": false, "error": CODE, "message": ...}`` and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from app.vision.imageio import VisionError
from app.vision.reader import LOW_CONFIDENCE, read_photo


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m app.vision", description="Read tiles from a photo."
    )
    ap.add_argument("photo", help="a JPEG, PNG, WebP or BMP file ('-' for standard input)")
    ap.add_argument("--json", action="store_true", help="print JSON")
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    try:
        if a.photo == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(a.photo, "rb") as f:
                data = f.read(64 * 1024 * 1024 + 1)
        reading = read_photo(data)
    except OSError as e:
        out: dict[str, Any] = {
            "ok": False,
            "error": "unreadable_file",
            "message": f"Cannot open the file: {e.strerror}",
        }
    except VisionError as e:
        out = {"ok": False, "error": e.code, "message": e.message}
    except Exception as e:  # noqa: BLE001 - a bad photo must never crash the caller
        out = {
            "ok": False,
            "error": "internal",
            "message": f"The photo could not be read ({type(e).__name__}).",
        }
    else:
        out = reading.as_json()
    out["seconds"] = round(time.perf_counter() - t0, 3)
    if a.json:
        print(json.dumps(out, ensure_ascii=False))
    elif out["ok"]:
        for row in out["rows"]:
            print(" ".join(row))
        low = [t["tile"] for t in out["tiles"] if t["confidence"] < LOW_CONFIDENCE]
        if low:
            print("check:", " ".join(low))
        print(f"{len(out['tiles'])} tiles, {out['seconds']} s")
    else:
        print(f"error ({out['error']}): {out['message']}", file=sys.stderr)
    return 0 if out["ok"] else 2


if __name__ == "__main__":
    sys.exit(main())
