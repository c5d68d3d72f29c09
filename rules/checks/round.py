"""The ``round`` check (JUDGE.md): score one finished round, by variant."""

from __future__ import annotations

import importlib
from typing import Any

from rules.request import Request

MODULES = {
    "rummy101": "rules.variants.rummy101",
    "tile_rummy": "rules.variants.tiles",
    "my_rummy": "rules.variants.tiles",
    "gin": "rules.variants.gin",
    "carousel": "rules.variants.carousel",
}


def answer(req: Request) -> dict[str, Any]:
    """Answer a ``round`` request with the variant module's ``round_answer``."""
    result: dict[str, Any] = importlib.import_module(MODULES[req.variant]).round_answer(req)
    return result
