"""The ``opening`` check (JUDGE.md): Rummy 101 opening, Tile/My Rummy initial meld."""

from __future__ import annotations

from typing import Any

from rules.request import Request


def answer(req: Request) -> dict[str, Any]:
    """Answer an ``opening`` request with the variant module's ``opening_answer``."""
    if req.variant == "rummy101":
        from rules.variants import rummy101

        return rummy101.opening_answer(req)
    from rules.variants import tiles

    return tiles.opening_answer(req)
