"""A new game and its rounds: creating a game, who deals, the agreed end, and each round
scored by the judge and added, replaced or deleted (recorded in the undo log)."""

from __future__ import annotations

import dataclasses
import json
import uuid
from collections.abc import Mapping, Sequence
from typing import Any, Final

import app.games as _games  # standings() through the package (see app.games)
from app.games.names import _check_players
from app.games.records import (
    _RESERVED,
    MAX_ENTRY_CHARS,
    MAX_NOTES,
    MAX_ROUNDS,
    UNDO_DEPTH,
    Game,
    GameError,
    Round,
    RoundError,
    RoundResult,
    UndoStep,
    _is_int,
    _is_unicode,
    _names,
    now_iso,
)
from app.games.variants import VARIANT_KEYS, about, about_game
from rules import judge
from rules.errors import RulesError
from rules.options import TileRummyOptions, option_range, options_dict, options_for


def _check_options(variant: str, options: Any) -> dict[str, Any]:
    if options is not None and not isinstance(options, Mapping):
        raise GameError("options must be an object", "bad_option")
    try:
        return options_dict(options_for(variant, options or {}))
    except RulesError as e:
        raise GameError(
            e.message, e.code, {"line": e.line} if e.line is not None else None
        ) from None


_AGREED: Final[dict[str, tuple[str, tuple[int, int]]]] = {
    "rounds": ("agreed number of rounds", option_range(TileRummyOptions, "games") or (1, 1)),
    "target": ("agreed target score", option_range(TileRummyOptions, "target") or (1, 1)),
}
"""An agreed end's words and range: the same as the options that hold one (``games``,
``target``), also where the game keeps it (Rummy 101)."""


def _check_limit(value: Any, limit: str) -> int | None:
    """``value`` as an agreed number of rounds (``limit`` ``"rounds"``) or target score
    (``"target"``), ``None`` for no limit; else :class:`GameError` ``bad_option``."""
    if value is None:
        return None
    name, (lo, hi) = _AGREED[limit]
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise GameError(
            f"{name} must be a whole number {lo}–{hi}, not {value!r}",
            "bad_option",
            {"limit": limit, "max": hi},
        )
    return value


def new_game(
    variant: str,
    players: Sequence[str],
    options: Mapping[str, Any] | None = None,
    *,
    first_dealer: int = 0,
    notes: str = "",
    agreed_rounds: int | None = None,
    agreed_target: int | None = None,
) -> Game:
    """A new game with no rounds (version 0: not stored yet; see ``Store.create_game``).

    Args:
        variant: one of :data:`app.games.variants.VARIANT_KEYS`.
        players: names in seat order; the variant's player count (``about(variant).players``).
        options: ``{"preset": NAME, ...overrides}`` with the option names of RULES.md; the
            game keeps the complete resulting option set.
        first_dealer: index of the player who deals/starts the first round.
        notes: free text (at most :data:`MAX_NOTES` characters).
        agreed_rounds, agreed_target: an agreed end. Rummy 101: kept in the game. Tile Rummy /
            My Rummy: stored as the ``games`` / ``target`` options (unless given there). Gin and
            Carousel end by their own rules (their ``target`` option, which ``agreed_target``
            sets); ``agreed_rounds`` is refused there.

    Gin solo mode (options ``"mode": "solo"``) takes one name; the players become
    ``[name, "joker"]``.

    Raises:
        GameError: codes ``unknown_variant``, ``bad_players``, ``bad_player_name``,
            ``bad_player_count``, ``duplicate_player``, ``unknown_option``, ``bad_option``,
            ``bad_dealer``, ``bad_notes``.
    """
    if variant not in VARIANT_KEYS:
        raise GameError(
            f"unknown variant {variant!r} (variants: {', '.join(VARIANT_KEYS)})", "unknown_variant"
        )
    info = about(variant)
    if options is not None and not isinstance(options, Mapping):
        raise GameError("options must be an object", "bad_option")
    opts = dict(options or {})
    rounds_limit = _check_limit(agreed_rounds, "rounds")
    target = _check_limit(agreed_target, "target")
    if info.agreed_end == "options":
        if rounds_limit is not None:
            opts.setdefault("games", rounds_limit)
        if target is not None:
            opts.setdefault("target", target)
        rounds_limit = target = None
    elif info.agreed_end is None:
        if rounds_limit is not None:
            raise GameError(
                f"{info.display_name} ends by its own rule, not after agreed rounds",
                "bad_option",
                {"variant": variant, "own_end": True},
            )
        if target is not None:
            opts.setdefault("target", target)
        target = None
    full = _check_options(variant, opts)
    names = _check_players(variant, players, solo=info.is_solo(full))
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, int):
        raise GameError("first dealer must be a seat number", "bad_dealer")
    if not 0 <= first_dealer < len(names):
        raise GameError(
            f"first dealer {first_dealer} is not a seat 0–{len(names) - 1}",
            "bad_dealer",
            {"seats": len(names)},
        )
    if not isinstance(notes, str) or len(notes) > MAX_NOTES or not _is_unicode(notes):
        raise GameError(
            f"notes must be text of at most {MAX_NOTES} characters", "bad_notes", {"max": MAX_NOTES}
        )
    now = now_iso()
    return Game(
        id=uuid.uuid4().hex,
        variant=variant,
        options=full,
        players=names,
        first_dealer=first_dealer,
        created=now,
        updated=now,
        notes=notes,
        agreed_rounds=rounds_limit,
        agreed_target=target,
    )


def dealer_for_round(game: Game, n: int) -> int:
    """Seat index of who deals (starts) round ``n`` (0-based): the first dealer, then each
    next seat in turn."""
    return (game.first_dealer + n) % len(game.players)


def next_dealer(game: Game) -> int:
    """Seat index of who deals the next round to be entered."""
    return dealer_for_round(game, len(game.rounds))


def game_limits(game: Game) -> tuple[int | None, int | None]:
    """The agreed end of a game as (number of rounds, target score); ``None`` where not agreed.

    Rummy 101: :attr:`Game.agreed_rounds` / :attr:`Game.agreed_target`; Tile Rummy / My
    Rummy: the ``games`` / ``target`` options; Gin and Carousel: none (the judge decides).
    """
    return about_game(game).limits(game)


def _round_winners(
    answer: Mapping[str, Any], entry: Mapping[str, Any], scores: Mapping[str, int]
) -> tuple[str, ...]:
    if "winners" in answer and _names(answer["winners"]):
        return tuple(_names(answer["winners"]))
    if "winner" in answer and _names(answer["winner"]):
        return tuple(_names(answer["winner"]))
    players = entry.get("players")
    if isinstance(players, list):
        flagged = [
            p["name"]
            for p in players
            if isinstance(p, Mapping) and p.get("winner") is True and isinstance(p.get("name"), str)
        ]
        if flagged:
            return tuple(flagged)
    return tuple(n for n, s in scores.items() if s > 0)


def _clean_entry(entry: Any) -> dict[str, Any]:
    if not isinstance(entry, Mapping):
        raise GameError("a round entry must be an object", "bad_entry")
    try:
        text = json.dumps(
            {k: v for k, v in entry.items() if k not in _RESERVED},
            ensure_ascii=False,
            allow_nan=False,
        )
    except (TypeError, ValueError, RecursionError):
        raise GameError("a round entry must be plain JSON data", "bad_entry") from None
    if not _is_unicode(text):
        raise GameError("a round entry holds broken text (a lone surrogate)", "bad_entry")
    if len(text) > MAX_ENTRY_CHARS:
        raise GameError("the round entry is too large", "bad_entry")
    cleaned: dict[str, Any] = json.loads(text)
    return cleaned


def _solo(game: Game) -> bool:
    return about_game(game).is_solo(game.options)


def _check_entry_players(game: Game, entry: Mapping[str, Any]) -> tuple[str, str] | None:
    players = entry.get("players")
    if not isinstance(players, list):
        return None  # the judge names the missing/bad field
    raw = [p.get("name") for p in players if isinstance(p, Mapping)]
    if not all(isinstance(n, str) for n in raw):
        return None
    names = [str(n) for n in raw]
    seen: set[str] = set()
    for n in names:
        if n in seen:
            return "duplicate_player", f"player {n!r} appears twice in the round"
        seen.add(n)
        if n not in game.players:
            return "unknown_player", f"{n!r} does not play in this game"
    missing = [p for p in game.players if p not in seen]
    if missing and not _solo(game):
        return "missing_player", f"the round has no entry for {', '.join(missing)}"
    return None


def score_round(game: Game, entry: Mapping[str, Any]) -> RoundResult:
    """Score one round entry with the judge, without changing the game.

    Args:
        game: the game (its variant and options are sent).
        entry: the round request fields of JUDGE.md without ``check``/``variant``/``options``
            (those keys are ignored if present), e.g. gin ``{"knocker": "A", "players":
            [{"name": "A", "hand": [...]}, {"name": "B", "hand": [...]}]}``.

    Returns:
        A :class:`RoundResult`; never raises for bad input (an unusable entry is a result with
        ``valid=False`` and ``input_error=True``).
    """
    try:
        cleaned = _clean_entry(entry)
    except GameError as e:
        return RoundResult(False, {}, reason=e.code, message=e.message, input_error=True)
    problem = _check_entry_players(game, cleaned)
    if problem is not None:
        return RoundResult(False, cleaned, reason=problem[0], message=problem[1], input_error=True)
    request = {"check": "round", "variant": game.variant, "options": game.options, **cleaned}
    answer = judge.answer(request)
    breakdown = {k: v for k, v in answer.items() if k != "ok"}
    if not answer.get("ok"):
        return RoundResult(
            False,
            cleaned,
            breakdown=breakdown,
            reason=str(answer.get("error", "bad_request")),
            message=str(answer.get("message", "the judge refused the round")),
            input_error=True,
        )
    if answer.get("valid") is False:
        return RoundResult(
            False,
            cleaned,
            breakdown=breakdown,
            reason=str(answer.get("reason", "invalid")),
            message=str(answer.get("message", "the round is not valid")),
        )
    scores = answer.get("scores")
    if not isinstance(scores, dict) or not all(
        isinstance(k, str) and _is_int(v) for k, v in scores.items()
    ):
        return RoundResult(
            False,
            cleaned,
            breakdown=breakdown,
            reason="bad_judge_answer",
            message="the judge gave no scores for this round",
        )
    missing = [p for p in game.players if p not in scores]
    if missing and not _solo(game):
        return RoundResult(
            False,
            cleaned,
            breakdown=breakdown,
            reason="bad_judge_answer",
            message=f"the judge gave no score for {', '.join(missing)}",
        )
    return RoundResult(
        True, cleaned, dict(scores), _round_winners(answer, cleaned, scores), breakdown
    )


def _scored(game: Game, entry: Mapping[str, Any], result: RoundResult | None) -> RoundResult:
    if result is not None and result.valid:
        try:
            cleaned = _clean_entry(entry)
        except GameError:
            cleaned = None
        if cleaned == result.entry:
            return result
    result = score_round(game, entry)
    if not result.valid:
        raise RoundError(result)
    return result


def _with_change(game: Game, rounds: list[Round], step: UndoStep | None) -> Game:
    log = list(game.undo_log)
    if step is not None:
        log.append(step)
        del log[:-UNDO_DEPTH]
    return dataclasses.replace(game, rounds=rounds, undo_log=log, updated=now_iso())


def _round_from(result: RoundResult, time: str, edited: str | None = None) -> Round:
    return Round(result.entry, dict(result.breakdown), result.winners, time, edited)


def add_round(game: Game, entry: Mapping[str, Any], result: RoundResult | None = None) -> Game:
    """A copy of ``game`` with one more round at the end.

    Args:
        game: the game.
        entry: the round entry (see :func:`score_round`).
        result: the :class:`RoundResult` already shown for this very entry, to save asking the
            judge again (ignored unless valid and made from an equal entry).

    Raises:
        RoundError: the judge found the round invalid or unusable (``.result`` says why).
        GameError: ``game_finished`` when the game is over; ``too_many_rounds``.
    """
    if _games.standings(game).finished:
        raise GameError("the game is over; no more rounds can be added", "game_finished")
    if len(game.rounds) >= MAX_ROUNDS:
        raise GameError(
            f"a game holds at most {MAX_ROUNDS} rounds", "too_many_rounds", {"max": MAX_ROUNDS}
        )
    scored = _scored(game, entry, result)
    now = now_iso()
    rounds = [*game.rounds, _round_from(scored, now)]
    added = _with_change(game, rounds, UndoStep("add", len(game.rounds), None, now))
    added.pending_penalties = []  # the round is entered: its penalties are in its entry
    return added


def _check_index(game: Game, i: int) -> None:
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(game.rounds):
        raise GameError(
            f"there is no round {i!r} (rounds 0–{len(game.rounds) - 1})", "no_such_round"
        )


def replace_round(
    game: Game, i: int, entry: Mapping[str, Any], result: RoundResult | None = None
) -> Game:
    """A copy of ``game`` with round ``i`` (0-based) entered anew and scored by the judge.

    Raises:
        GameError: ``no_such_round``.
        RoundError: the new entry is invalid; the game is unchanged.
    """
    _check_index(game, i)
    scored = _scored(game, entry, result)
    old = game.rounds[i]
    rounds = list(game.rounds)
    rounds[i] = _round_from(scored, old.time, now_iso())
    return _with_change(game, rounds, UndoStep("replace", i, old, now_iso()))


def delete_round(game: Game, i: int) -> Game:
    """A copy of ``game`` without round ``i`` (0-based). Raises :class:`GameError`
    (``no_such_round``)."""
    _check_index(game, i)
    rounds = list(game.rounds)
    old = rounds.pop(i)
    return _with_change(game, rounds, UndoStep("delete", i, old, now_iso()))
