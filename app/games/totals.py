"""Where a game stands: round scores, running totals, the totals with the game-end bonuses
from the judge's ``game`` check, the end and the winners; the games list's summary."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

import app.games as _games  # standings() through the package (see app.games)
from app.games.records import Game, GameSummary, Standings, _int_or_0, _is_int, _names
from app.games.rounds import game_limits
from app.games.variants import about_game
from rules import judge


def _top(totals: Mapping[str, int], players: Sequence[str]) -> tuple[str, ...]:
    if not players:
        return ()
    best = max(totals.get(p, 0) for p in players)
    return tuple(p for p in players if totals.get(p, 0) == best)


_ENDED_EARLIER: Final = ("too_many_rounds", "rounds_after_end", "round_after_game_end")
"""Judge ``game`` reasons saying the game ended before its last round."""


def standings(game: Game) -> Standings:
    """Where the game stands, asking the judge ``game`` check for totals, bonuses and the end.

    The result is cached on the Game object (keyed on its rounds, players and options), so
    calling it again for the same Game costs nothing.

    Returns:
        A :class:`Standings`. When the judge cannot answer (e.g. the variant's game scoring is
        not built) or finds the rounds impossible as a game (e.g. ``rounds_after_end``: rounds
        scored after the agreed end), ``error``/``message`` say so and ``totals`` are the plain
        round sums.
    """
    key = (
        tuple(map(id, game.rounds)),
        tuple(game.players),
        id(game.options),
        json.dumps(game.options, sort_keys=True),
        game.agreed_rounds,
        game.agreed_target,
        game.ended,
    )
    if game._cache is not None and game._cache[0] == key:
        return game._cache[1]
    players = tuple(game.players)
    current = dict.fromkeys(players, 0)
    round_scores: list[dict[str, int]] = []
    running: list[dict[str, int]] = []
    for r in game.rounds:
        sc = {p: _int_or_0(r.scores.get(p)) for p in players}
        for p in players:
            current[p] += sc[p]
        round_scores.append(sc)
        running.append(dict(current))
    totals, bonuses = dict(current), dict.fromkeys(players, 0)
    finished, finished_by = False, None
    winners: tuple[str, ...] = ()
    error = message = None
    answer: dict[str, Any] = {}
    if game.rounds:
        request: dict[str, Any] = {
            "check": "game",
            "variant": game.variant,
            "options": game.options,
            "players": list(players),
            "rounds": [{"scores": r.scores, "winners": list(r.winners)} for r in game.rounds],
        }
        agreed = about_game(game).agreed_end
        if agreed == "game" and game.agreed_rounds is not None:
            request["rounds_planned"] = game.agreed_rounds
        if agreed == "options" and game.ended:
            request["ended"] = True
        raw = judge.answer(request)
        answer = {k: v for k, v in raw.items() if k != "ok"}
        got = raw.get("totals")
        if raw.get("ok") and raw.get("valid") is False:
            error = str(raw.get("reason", "invalid"))
            message = str(raw.get("message", "the rounds do not make a valid game"))
            if error in _ENDED_EARLIER:
                finished, finished_by = True, "judge"
        elif raw.get("ok") and isinstance(got, dict) and all(_is_int(got.get(p)) for p in players):
            totals = {p: int(got[p]) for p in players}
            b = raw.get("bonuses")
            if isinstance(b, dict):
                bonuses = {p: int(b[p]) if _is_int(b.get(p)) else 0 for p in players}
            finished = bool(raw.get("finished"))
            if finished:
                finished_by = "judge"
                winners = tuple(_names(raw.get("winners")) or _names(raw.get("winner")))
        else:
            error = str(raw.get("error", "bad_judge_answer"))
            message = str(raw.get("message", "the judge gave no totals for this game"))
        if not finished:
            limit, target = game_limits(game)
            if error is not None and limit is not None and len(game.rounds) >= limit:
                finished, finished_by = True, "rounds"
            elif (
                (error is not None or agreed == "game")  # Rummy 101's target: no judge field
                and target is not None
                and any(totals[p] >= target for p in players)
            ):
                finished, finished_by = True, "target"
        if finished and not winners:
            winners = _top(totals, players)
    result = Standings(
        players=players,
        round_scores=tuple(round_scores),
        running=tuple(running),
        totals=totals,
        bonuses=bonuses,
        finished=finished,
        finished_by=finished_by,
        winners=winners,
        leaders=_top(totals, players) if game.rounds else (),
        judge=answer,
        error=error,
        message=message,
    )
    game._cache = (key, result)
    return result


ENDED_KEY: Final = "ended_after"
""":attr:`Game.extra` key: the number of rounds played when the players ended the game from
its sheet ("End the game now"), so that it is said to be ended early (:func:`ended_early`),
not that that many rounds were agreed."""


def ended_early(game: Game) -> bool:
    """Did the players end ``game`` from its sheet ("End the game now") rather than play the
    agreed rounds or reach a target? A variant keeping its agreed end in the options (Tile
    Rummy, My Rummy): the series is ``ended``. One keeping it with the game (Rummy 101, whose
    end sets the agreed rounds to the rounds played): the game is over with the agreed rounds
    being the rounds played when it was ended (:data:`ENDED_KEY`) — not after undo or "one
    more round", which change the agreed number. Gin, Carousel: never (no agreed end)."""
    agreed = about_game(game).agreed_end
    if agreed == "options":
        return game.ended and _games.standings(game).finished
    if agreed != "game":
        return False
    n = game.extra.get(ENDED_KEY)
    return (
        isinstance(n, int)
        and n == len(game.rounds) == game.agreed_rounds
        and _games.standings(game).finished
    )


def summarize(game: Game) -> GameSummary:
    """The games-list line for ``game`` (uses :func:`standings`)."""
    st = _games.standings(game)
    return GameSummary(
        id=game.id,
        variant=game.variant,
        preset=game.preset,
        players=tuple(game.players),
        round_count=len(game.rounds),
        created=game.created,
        updated=game.updated,
        version=game.version,
        finished=st.finished,
        winners=st.winners,
        leaders=st.leaders,
        totals=dict(st.totals),
        notes=game.notes,
        ended_early=ended_early(game),
    )
