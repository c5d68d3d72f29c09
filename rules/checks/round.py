"""The ``round`` check (JUDGE.md): score one finished round, by variant."""

from __future__ import annotations

from typing import Any

from rules.request import Request
from rules.variant import find_variant


def answer(req: Request) -> dict[str, Any]:
    """Answer a ``round`` request with the variant's
    :meth:`~rules.variant.Variant.score_round`."""
    return find_variant(req.variant).score_round(req)
