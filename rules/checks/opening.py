"""The ``opening`` check (JUDGE.md): Rummy 101 opening, Tile/My Rummy initial meld."""

from __future__ import annotations

from typing import Any

from rules.request import Request


def answer(req: Request) -> dict[str, Any]:
    """Answer an ``opening`` request with the variant module's ``opening_answer``."""
    if req.variant == "rummy101":
        from rules.variants.rummy101 import opening_answer

        return opening_answer(req)
    from rules.variants.tiles import opening_answer as tiles_opening

    return tiles_opening(req)
