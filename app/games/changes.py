"""The undo log and the agreed end: taking back the last change, ending a game by agreement,
changing its agreed number of rounds or target score."""

from __future__ import annotations

import dataclasses
from typing import Any

import app.games as _games  # standings() through the package (see app.games)
from app.games.records import UNDO_DEPTH, Game, GameError, UndoStep, _is_int, now_iso
from app.games.rounds import _check_limit, _check_options
from app.games.variants import about_game


def can_undo(game: Game) -> bool:
    """True when :func:`undo` has a change to take back."""
    return bool(game.undo_log)


def last_change(game: Game) -> UndoStep | None:
    """The change :func:`undo` would take back (for a label such as "Undo: round 5 added")."""
    return game.undo_log[-1] if game.undo_log else None


def undo(game: Game) -> Game:
    """A copy of ``game`` with its last change (add, replace or delete of a round, or a change
    of the agreed end) taken back.

    Raises:
        GameError: ``nothing_to_undo``; ``undo_mismatch`` if the rounds no longer fit the log.
    """
    if not game.undo_log:
        raise GameError("there is nothing to undo", "nothing_to_undo")
    step = game.undo_log[-1]
    if step.action in ("end", "limits"):
        st = step.state or {}
        options = st.get("options")
        ar, at = st.get("agreed_rounds"), st.get("agreed_target")
        return dataclasses.replace(
            game,
            agreed_rounds=ar if _is_int(ar) else None,
            agreed_target=at if _is_int(at) else None,
            ended=st.get("ended") is True,
            options=dict(options) if isinstance(options, dict) else game.options,
            undo_log=game.undo_log[:-1],
            updated=now_iso(),
        )
    rounds = list(game.rounds)
    if step.action == "add":
        if step.index != len(rounds) - 1:
            raise GameError("the last change can no longer be undone", "undo_mismatch")
        rounds.pop()
    elif step.action == "replace":
        if step.before is None or not 0 <= step.index < len(rounds):
            raise GameError("the last change can no longer be undone", "undo_mismatch")
        rounds[step.index] = step.before
    else:
        if step.before is None or not 0 <= step.index <= len(rounds):
            raise GameError("the last change can no longer be undone", "undo_mismatch")
        rounds.insert(step.index, step.before)
    return dataclasses.replace(game, rounds=rounds, undo_log=game.undo_log[:-1], updated=now_iso())


def _limit_state(game: Game) -> dict[str, Any]:
    return {
        "agreed_rounds": game.agreed_rounds,
        "agreed_target": game.agreed_target,
        "ended": game.ended,
        "options": dict(game.options),
    }


def end_game(game: Game) -> Game:
    """A copy of ``game`` ended now by agreement (time is up, the players stop).

    Rummy 101: the agreed number of rounds becomes the rounds played. Tile Rummy / My Rummy:
    the series is marked ``ended`` (the judge's ``ended``). The highest total wins (the judge
    ``game`` check). Undo takes it back.

    Raises:
        GameError: ``not_endable`` (Gin and Carousel end by their own rules), ``no_rounds``,
            ``game_finished``.
    """
    info = about_game(game)
    if not info.endable:
        raise GameError(
            f"{game.display_name} ends by its own rule (its target), not by agreement",
            "not_endable",
            {"variant": game.variant},
        )
    if not game.rounds:
        raise GameError("a game with no rounds cannot be ended; delete it instead", "no_rounds")
    if _games.standings(game).finished:
        raise GameError("the game is over already", "game_finished")
    step = UndoStep("end", len(game.rounds), None, now_iso(), _limit_state(game))
    log = [*game.undo_log, step][-UNDO_DEPTH:]
    if info.agreed_end == "game":
        return dataclasses.replace(
            game, agreed_rounds=len(game.rounds), undo_log=log, updated=now_iso()
        )
    return dataclasses.replace(game, ended=True, undo_log=log, updated=now_iso())


def set_limits(game: Game, agreed_rounds: int | None, agreed_target: int | None = None) -> Game:
    """A copy of ``game`` with a new agreed end (``None``: no limit); an ``ended`` series is
    opened again. Rummy 101: :attr:`Game.agreed_rounds` / :attr:`Game.agreed_target`; Tile
    Rummy / My Rummy: the ``games`` / ``target`` options. Undo takes it back.

    Raises:
        GameError: ``not_endable`` (Gin, Carousel), ``bad_option`` (out of range, or fewer
            rounds than already played).
    """
    info = about_game(game)
    if info.agreed_end is None:
        raise GameError(
            f"{game.display_name} ends by its own rule (its target)",
            "not_endable",
            {"variant": game.variant},
        )
    rounds_limit = _check_limit(agreed_rounds, "rounds")
    target = _check_limit(agreed_target, "target")
    if rounds_limit is not None and rounds_limit < len(game.rounds):
        raise GameError(
            f"{len(game.rounds)} rounds are played already; agree on at least that many",
            "bad_option",
            {"played": len(game.rounds)},
        )
    step = UndoStep("limits", len(game.rounds), None, now_iso(), _limit_state(game))
    log = [*game.undo_log, step][-UNDO_DEPTH:]
    if info.agreed_end == "game":
        return dataclasses.replace(
            game,
            agreed_rounds=rounds_limit,
            agreed_target=target,
            ended=False,
            undo_log=log,
            updated=now_iso(),
        )
    options = _check_options(
        game.variant, {**game.options, "games": rounds_limit, "target": target}
    )
    return dataclasses.replace(game, options=options, ended=False, undo_log=log, updated=now_iso())
