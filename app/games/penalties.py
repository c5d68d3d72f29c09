"""Pending penalty draws (Tile Rummy / My Rummy, RULES.md §4) recorded during a round that is
not entered yet (see :mod:`app.games`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import app.games as _games  # standings() through the package (see app.games)
from app.games.records import MAX_PENDING_PENALTIES, Game, GameError, _is_int, now_iso
from app.games.variants import about_game
from rules.variants.tiles import PENALTY_REASONS, PENALTY_TILES


def _is_penalty(p: Any, players: Sequence[str]) -> bool:
    """A well-formed pending penalty of a game with ``players``."""
    return (
        isinstance(p, dict)
        and set(p) == {"name", "tiles", "reason"}
        and p["name"] in players
        and _is_int(p["tiles"])
        and 0 <= p["tiles"] <= PENALTY_TILES
        and p["reason"] in PENALTY_REASONS
    )


def record_penalty(
    game: Game, name: str, reason: str = "timeout", tiles: int = PENALTY_TILES
) -> Game:
    """A copy of ``game`` with one more pending penalty draw (RULES.md §4: an invalid turn or
    time running out: the table goes back and the player draws 3 tiles).

    The penalty belongs to the round being played (not entered yet); :func:`pending_penalties`
    gives the next round entry its penalty draws, and :func:`add_round` clears them. Store the
    result at once (``Store.save_game``) so it survives a reload.

    Args:
        game: a Tile Rummy or My Rummy game that is not over.
        name: the player who draws.
        reason: ``timeout`` (the turn timer ran out) or ``invalid_turn``.
        tiles: tiles drawn, 0–3 (fewer than 3 only when the pool ran low).

    Raises:
        GameError: ``no_penalties`` (another variant), ``unknown_player``, ``bad_penalty``
            (reason or tiles), ``game_finished``, ``too_many_penalties`` (more than
            :data:`MAX_PENDING_PENALTIES`).
    """
    if about_game(game).penalty_tiles is None:
        raise GameError(
            f"{game.display_name} has no penalty draws (Tile Rummy and My Rummy only, RULES.md §4)",
            "no_penalties",
            {"variant": game.variant},
        )
    if name not in game.players:
        raise GameError(f"{name!r} does not play in this game", "unknown_player", {"name": name})
    if reason not in PENALTY_REASONS:
        raise GameError(
            f"penalty reason {reason!r} is not one of: {', '.join(PENALTY_REASONS)}",
            "bad_penalty",
        )
    if not _is_int(tiles) or not 0 <= tiles <= PENALTY_TILES:
        raise GameError(
            f"a penalty draw is 0–{PENALTY_TILES} tiles, not {tiles!r}",
            "bad_penalty",
            {"max": PENALTY_TILES},
        )
    if len(game.pending_penalties) >= MAX_PENDING_PENALTIES:
        raise GameError(
            f"at most {MAX_PENDING_PENALTIES} penalties wait for one round",
            "too_many_penalties",
            {"max": MAX_PENDING_PENALTIES},
        )
    if _games.standings(game).finished:
        raise GameError("the game is over; no more penalties can be recorded", "game_finished")
    item = {"name": name, "tiles": tiles, "reason": reason}
    return dataclasses.replace(
        game, pending_penalties=[*game.pending_penalties, item], updated=now_iso()
    )


def remove_penalty(game: Game, index: int) -> Game:
    """A copy of ``game`` without pending penalty ``index`` (0-based; recorded by mistake).

    Raises:
        GameError: ``no_such_penalty``.
    """
    n = len(game.pending_penalties)
    if not _is_int(index) or not 0 <= index < n:
        raise GameError(f"there is no pending penalty {index!r} ({n} recorded)", "no_such_penalty")
    pending = [p for i, p in enumerate(game.pending_penalties) if i != index]
    return dataclasses.replace(game, pending_penalties=pending, updated=now_iso())


def pending_penalties(game: Game) -> list[dict[str, Any]]:
    """The penalty draws recorded for the round being played, oldest first, as a round entry's
    ``penalties`` (``[{"name", "tiles", "reason"}]``; copies)."""
    return [dict(p) for p in game.pending_penalties]
