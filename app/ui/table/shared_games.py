"""The one copy of a game that every watching session shows (live score sheets on phones).

Phones watching a game each load it from the store after every save; keeping one copy (and so
one :func:`app.games.standings`, cached on it) makes a long game cost the server once, not once
per phone. The saving session leaves its game here (:mod:`app.ui.table.sharing`) and the watching
score sheets (:mod:`app.ui.sheet.score_sheet`) take it.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict

from app.games import Game

__all__ = ["SHARED_GAMES", "forget_shared", "latest_shared", "shared_game"]

SHARED_GAMES = 8
"""Games whose latest version the watching sessions share (:func:`shared_game`)."""

_shared: OrderedDict[str, Game] = OrderedDict()
_shared_lock = threading.Lock()


def _same_game(a: Game, b: Game) -> bool:
    """The same stored version: id, version and write times, and all a sheet and the
    standings read (players, options, agreed end, undo log, every round's scores, winners
    and times). The round entries and judge details are not compared (a full comparison of a
    1,000-round game took ~20 ms): two loads of one stored version can only differ there if
    the game was deleted and imported again under its id and version within the second."""
    if a is b:
        return True
    if (a.id, a.version, a.created, a.updated, len(a.rounds)) != (
        b.id,
        b.version,
        b.created,
        b.updated,
        len(b.rounds),
    ):
        return False
    if (a.variant, a.players, a.options, a.first_dealer, a.agreed_rounds, a.agreed_target) != (
        b.variant,
        b.players,
        b.options,
        b.first_dealer,
        b.agreed_rounds,
        b.agreed_target,
    ):
        return False
    if (a.ended, a.notes, a.undo_log, a.pending_penalties) != (
        b.ended,
        b.notes,
        b.undo_log,
        b.pending_penalties,
    ):
        return False
    return all(
        x is y or (x.time, x.edited, x.winners, x.scores) == (y.time, y.edited, y.winners, y.scores)
        for x, y in zip(a.rounds, b.rounds, strict=True)
    )


def shared_game(game: Game) -> Game:
    """One Game object for every watching session that shows this stored version of a game.

    Phones watching a game each load it from the store; keeping one copy (and so one
    :func:`app.games.standings`, cached on it) makes a long game cost the server once, not
    once per phone. The copy kept has no join code. At most :data:`SHARED_GAMES` games are
    kept (the last used).

    Returns:
        The kept Game equal to ``game`` (same id, version and content), else ``game``'s copy
        kept from now on when it is at least as new as the kept one, else ``game`` itself.
    """
    with _shared_lock:
        held = _shared.get(game.id)
        if held is not None and _same_game(held, game):
            _shared.move_to_end(game.id)
            return held
        if held is not None and held.version > game.version:
            return game
        copy = dataclasses.replace(game, join_code=None)
        copy._cache = game._cache  # same rounds and options objects: the standings still hold
        _shared[game.id] = copy
        _shared.move_to_end(game.id)
        while len(_shared) > SHARED_GAMES:
            _shared.popitem(last=False)
        return copy


def latest_shared(game_id: str, version: int) -> Game | None:
    """The shared Game (:func:`shared_game`) of ``game_id`` at ``version``, if one is kept."""
    with _shared_lock:
        held = _shared.get(game_id)
        return held if held is not None and held.version == version else None


def forget_shared(game_id: str | None = None) -> None:
    """Drop the shared copy of a game (None: of every game)."""
    with _shared_lock:
        if game_id is None:
            _shared.clear()
        else:
            _shared.pop(game_id, None)
