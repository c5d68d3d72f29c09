"""The ``opening`` check (JUDGE.md): Rummy 101 opening, Tile/My Rummy initial meld."""

from __future__ import annotations

from typing import Any

from rules.request import Request
from rules.variant import find_variant


def answer(req: Request) -> dict[str, Any]:
    """Answer an ``opening`` request with the variant's
    :meth:`~rules.variant.Variant.judge_opening`."""
    return find_variant(req.variant).judge_opening(req)
