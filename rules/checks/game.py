"""The ``game`` check (JUDGE.md): totals and game-end bonuses over scored rounds, by variant."""

from __future__ import annotations

import importlib
from typing import Any

from rules.checks.round import MODULES
from rules.request import Request


def answer(req: Request) -> dict[str, Any]:
    """Answer a ``game`` request with the variant module's ``game_answer``."""
    result: dict[str, Any] = importlib.import_module(MODULES[req.variant]).game_answer(req)
    return result
