"""The ``hand`` check (JUDGE.md): gin deadwood and Carousel hand value, by variant."""

from __future__ import annotations

from typing import Any

from rules.request import Request
from rules.variant import find_variant


def answer(req: Request) -> dict[str, Any]:
    """Answer a ``hand`` request with the variant's :meth:`~rules.variant.Variant.judge_hand`
    (gin and Carousel; see the variant modules)."""
    return find_variant(req.variant).judge_hand(req)
