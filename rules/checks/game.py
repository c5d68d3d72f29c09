"""The ``game`` check (JUDGE.md): totals and game-end bonuses over scored rounds, by variant."""

from __future__ import annotations

from typing import Any

from rules.request import Request
from rules.variant import find_variant


def answer(req: Request) -> dict[str, Any]:
    """Answer a ``game`` request with the variant's :meth:`~rules.variant.Variant.score_game`."""
    return find_variant(req.variant).score_game(req)
