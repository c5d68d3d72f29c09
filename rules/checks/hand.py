"""The ``hand`` check (JUDGE.md): gin deadwood and Carousel hand value, by variant."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.request import Request

_BY_VARIANT: dict[str, Callable[[Request], dict[str, Any]]] = {}
"""variant -> its ``hand_answer``, imported on first use (and looked up once, not per line)."""


def answer(req: Request) -> dict[str, Any]:
    """Answer a ``hand`` request for gin or Carousel (see the variant modules)."""
    handler = _BY_VARIANT.get(req.variant)
    if handler is None:
        if req.variant == "gin":
            from rules.variants.gin import hand_answer as gin_hand

            handler = gin_hand
        else:
            from rules.variants.carousel import hand_answer as carousel_hand

            handler = carousel_hand
        _BY_VARIANT[req.variant] = handler
    return handler(req)
