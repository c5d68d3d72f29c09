"""One module per judge check (``../shared/JUDGE.md``), each with ``answer(req) -> dict``."""
