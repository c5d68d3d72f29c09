"""How a game and a time are named on the screens (lists, buttons, messages)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from app.i18n import _, language
from app.ui.common import labels

if TYPE_CHECKING:
    from app.games import GameSummary

__all__ = ["game_title", "when"]


def when(iso: str) -> str:
    """A timestamp as people read it, in the server's time zone."""
    try:
        dt = datetime.fromisoformat(iso).astimezone()
    except (ValueError, TypeError):
        return iso
    try:
        from babel.dates import format_datetime

        return str(format_datetime(dt, format="medium", locale=language()))
    except Exception:  # noqa: BLE001 - babel without locale data: plain format
        return dt.strftime("%Y-%m-%d %H:%M")


def game_title(s: GameSummary) -> str:
    """``Gin Rummy: Ala, Ola`` — the game's name in lists and on its buttons."""
    return _("{variant}: {players}").format(
        variant=labels.variant_name(s.variant), players=", ".join(s.players)
    )
