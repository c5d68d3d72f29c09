"""The ``hand`` check (JUDGE.md): gin deadwood and Carousel hand value, by variant."""

from __future__ import annotations

from typing import Any

from rules.request import Request


def answer(req: Request) -> dict[str, Any]:
    """Answer a ``hand`` request for gin or Carousel (see the variant modules)."""
    if req.variant == "gin":
        from rules.variants.gin import hand_answer

        return hand_answer(req)
    from rules.variants.carousel import hand_answer as carousel_hand

    return carousel_hand(req)
