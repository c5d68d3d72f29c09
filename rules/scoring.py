"""Result types and request helpers shared by the variant modules.

:class:`ScoreLine`, :class:`RoundResult`, :class:`GameResult`, :class:`MeldCount` and
:class:`OpeningVerdict` are what the scoring functions of ``rules.variants.*`` return (and what
the app shows); the helpers read player lists and game requests of JUDGE.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from rules.errors import RequestError, TooManyCopiesError
from rules.melds import read_meld
from rules.options import VariantName
from rules.pieces import Card, Piece, Tile, piece_value
from rules.request import MAX_PLAYERS, Request, as_int
from rules.variant import find_variant, meld_rules
from rules.verdict import Line, RuleRef, add_line

# ---------------------------------------------------------------------------------------------
# Result types shared by the variant modules
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreLine:
    """Who gets what in a round, and why.

    Attributes:
        name: the player.
        points: the round score (positive gains, negative losses, 0).
        why: one English line naming the rule, e.g. "not opened: penalty 202 × 1 = −202
            (RULES.md §3)".
        rule: the rule applied (RULES.md § and seed).
        role: ``winner``, ``loser`` or ``other`` (scores nothing, e.g. a Carousel non-winner).
        detail: variant figures behind the points (JSON-ready): Rummy 101 ``opened``, ``rest``,
            ``penalty``, ``multiplier``; Tile Rummy ``rack``; Carousel ``hand``,
            ``differences``, ``bonuses``.
    """

    name: str
    points: int
    why: str
    rule: str
    role: Literal["winner", "loser", "other"]
    detail: dict[str, Any] = field(default_factory=dict)
    line: Line | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"name", "points", "why", "rule", "role", ...detail}`` plus ``key``/``params``
        (the ``why`` line as data) where known."""
        out = {
            "name": self.name,
            "points": self.points,
            "why": self.why,
            "rule": self.rule,
            "role": self.role,
            **self.detail,
        }
        return add_line(out, self.line)


@dataclass(frozen=True)
class RoundResult:
    """A scored round, or the verdict that it cannot have happened.

    Attributes:
        valid: the round is possible under the rules; ``scores`` are set only then.
        reason: stable snake_case code when not valid (``two_winners``, ``knock_above_limit``…).
        message: one English line naming the rule.
        rule: the rule applied.
        scores: points per player, every player listed (0 where nothing is gained or lost).
        breakdown: one :class:`ScoreLine` per player, in the order given.
        winners: the round's winner(s), empty when none (Rummy 101 stock out).
        detail: variant fields for the judge answer (``finish``, ``values``, ``penalties``…).
    """

    valid: bool
    reason: str | None = None
    message: str = ""
    rule: str = ""
    scores: dict[str, int] = field(default_factory=dict)
    breakdown: tuple[ScoreLine, ...] = ()
    winners: tuple[str, ...] = ()
    detail: dict[str, Any] = field(default_factory=dict)
    line: Line | None = None
    ref: RuleRef | None = None

    def to_json(self) -> dict[str, Any]:
        """The judge's ``round`` answer fields (JUDGE.md); no scores when not valid."""
        if not self.valid:
            out: dict[str, Any] = {
                "valid": False,
                "reason": self.reason,
                "message": self.message,
                "rule": self.rule,
            }
            out.update(self.detail)
            return add_line(out, self.line, self.ref)
        out = {
            "valid": True,
            "scores": dict(self.scores),
            "winners": list(self.winners),
            "breakdown": [sl.to_json() for sl in self.breakdown],
            "message": self.message,
            "rule": self.rule,
            **self.detail,
        }
        return add_line(out, self.line, self.ref)


def impossible_round(
    reason: str, message: str | Line, rule: str, *, cite: str | None = None, **detail: Any
) -> RoundResult:
    """A round that cannot have happened: ``valid=False``, no scores.

    ``message`` is the English line, or the line as data (:mod:`rules.messages`); then the
    English message is that line with ``cite`` (default: ``rule``) in brackets after it.
    """
    ln = None
    if isinstance(message, Line):
        ln = message
        message = f"{ln.english()} ({rule if cite is None else cite})"
    return RoundResult(False, reason, message, rule, detail=dict(detail), line=ln)


def copies_across(
    error: TooManyCopiesError, rule: str, hands: Sequence[tuple[str, Iterable[Piece]]], **kw: Any
) -> RoundResult:
    """The impossible round (``too_many_copies``) for ``error``, raised on the pieces of all
    the hands together (RULES.md §1): the detail ``holders`` names, in the order of ``hands``,
    the players whose pieces hold the piece there are too many copies of (for a screen to mark
    each of them; empty when the error names no piece).

    Args:
        error: what :meth:`rules.pieces.PieceSet.check_copies` raised.
        rule: the variant's rule section (and ``cite``, passed on, as for
            :func:`impossible_round`).
        hands: ``(name, pieces)`` per player, the pieces as checked (a typed joker count as
            that many jokers).
    """
    piece = error.line.params.get("piece") if error.line is not None else None
    holders = [name for name, pieces in hands if any(str(x) == piece for x in pieces)]
    return impossible_round(
        "too_many_copies", error.line or error.message, rule, holders=holders, **kw
    )


@dataclass(frozen=True)
class GameResult:
    """Totals and the end of a game over scored rounds.

    Attributes:
        valid: the rounds make a possible game (no round after the game ended, …).
        totals: points per player, game-end bonuses included.
        finished: the game has ended (target reached, planned rounds played, …).
        winner: the player with the highest total once finished; ``None`` when not finished or
            when several share the highest total (they are in ``winners``).
        winners: everyone with the highest total once finished (one name unless tied).
        leaders: the highest total so far, whether finished or not.
        bonuses: game-end bonuses per player (already in ``totals``).
        rounds: rounds counted.
        reason, message, rule: as in a verdict.
        detail: variant fields (``round_wins``, ``ended_after``, ``rounds_planned``…).
    """

    valid: bool
    totals: dict[str, int] = field(default_factory=dict)
    finished: bool = False
    winner: str | None = None
    winners: tuple[str, ...] = ()
    leaders: tuple[str, ...] = ()
    bonuses: dict[str, int] = field(default_factory=dict)
    rounds: int = 0
    reason: str | None = None
    message: str = ""
    rule: str = ""
    detail: dict[str, Any] = field(default_factory=dict)
    line: Line | None = None

    def to_json(self) -> dict[str, Any]:
        """The judge's ``game`` answer (JUDGE.md): totals, finished, winner, bonuses, …;
        ``key``/``params`` of the message where known."""
        if not self.valid:
            return add_line(
                {
                    "valid": False,
                    "reason": self.reason,
                    "message": self.message,
                    "rule": self.rule,
                    **self.detail,
                },
                self.line,
            )
        return add_line(
            {
                "valid": True,
                "totals": dict(self.totals),
                "finished": self.finished,
                "winner": self.winner,
                "winners": list(self.winners),
                "leaders": list(self.leaders),
                "bonuses": dict(self.bonuses),
                "rounds": self.rounds,
                "message": self.message,
                "rule": self.rule,
                **self.detail,
            },
            self.line,
        )


@dataclass(frozen=True)
class MeldCount:
    """How one meld of an opening was read and counted.

    Attributes:
        index: 0-based position of the meld in the opening.
        tiles: the meld in normalised order (canonical text), or as given when invalid.
        valid: the meld is legal.
        kind: ``run``, ``group``, ``pair`` or ``None``.
        value: points (jokers as the tile they stand for); 0 when invalid.
        jokers: what each joker stands for.
        reason, message: why the meld is not valid.
    """

    index: int
    tiles: tuple[str, ...]
    valid: bool
    kind: str | None
    value: int
    jokers: tuple[str, ...] = ()
    reason: str | None = None
    message: str = ""
    line: Line | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON form; ``reason``/``message`` (and ``key``/``params``) only when invalid."""
        out: dict[str, Any] = {
            "valid": self.valid,
            "kind": self.kind,
            "value": self.value,
            "tiles": list(self.tiles),
            "jokers": list(self.jokers),
        }
        if not self.valid:
            out["reason"] = self.reason
            out["message"] = self.message
            add_line(out, self.line)
        return out


@dataclass(frozen=True)
class OpeningVerdict:
    """The verdict on an opening (Rummy 101) or initial meld (Tile Rummy, My Rummy).

    Attributes:
        valid: the opening is legal.
        by: ``"melds"`` or ``"pairs"``; ``None`` when the melds mix both or none is readable.
        value: points of the valid melds laid (pairs included), jokers as what they stand for.
        pairs: number of valid pairs laid.
        needed: points a melds opening needs.
        pairs_needed: pairs a pairs opening needs (``None`` for Tile/My Rummy).
        reason: stable code when not valid: ``no_melds``, ``too_many_copies``,
            ``tile_not_in_hand``, ``no_tile_to_discard``, ``invalid_meld``,
            ``mixed_pairs_and_melds``, ``discard_not_used``, ``below_threshold``,
            ``too_few_pairs``.
        message: one English line naming the rule.
        rule: the rule applied.
        melds: each meld as read (:class:`MeldCount`).
        params: extra figures (``meld_index`` of an invalid meld, ``threshold_mode``…).
    """

    valid: bool
    by: Literal["melds", "pairs"] | None
    value: int
    pairs: int
    needed: int
    pairs_needed: int | None
    reason: str | None = None
    message: str = ""
    rule: str = "RULES.md §3"
    melds: tuple[MeldCount, ...] = ()
    params: dict[str, Any] = field(default_factory=dict)
    line: Line | None = None
    ref: RuleRef | None = None

    def to_json(self) -> dict[str, Any]:
        """The judge's ``opening`` answer (JUDGE.md)."""
        out: dict[str, Any] = {"valid": self.valid}
        if not self.valid:
            out["reason"] = self.reason
        out["by"] = self.by
        out["value"] = self.value
        if self.pairs_needed is not None:
            out["pairs"] = self.pairs
        out["needed"] = self.needed
        if self.pairs_needed is not None:
            out["pairs_needed"] = self.pairs_needed
        out["message"] = self.message
        out["rule"] = self.rule
        out["melds"] = [m.to_json() for m in self.melds]
        out.update(self.params)
        return add_line(out, self.line, self.ref)


# ---------------------------------------------------------------------------------------------
# Small shared helpers
# ---------------------------------------------------------------------------------------------


def tiles_text(pieces: Iterable[Piece]) -> str:
    """Pieces as canonical text separated by spaces: ``"R5 JK"``."""
    return " ".join(str(p) for p in pieces)


def numbered_value(pieces: Iterable[Piece]) -> tuple[int, int]:
    """(points of the numbered pieces, number of jokers) of a hand or rack."""
    total = 0
    jokers = 0
    for p in pieces:
        if isinstance(p, Tile | Card):
            total += piece_value(p)
        else:
            jokers += 1
    return total, jokers


def count_meld(index: int, pieces: Sequence[Piece], variant: str) -> MeldCount:
    """Read one meld of an opening with :func:`rules.melds.read_meld` and count it."""
    reading = read_meld(pieces, meld_rules(variant))
    if not reading.valid:
        return MeldCount(
            index,
            tuple(str(p) for p in pieces),
            False,
            None,
            0,
            reason=reading.reason,
            message=reading.message,
            line=reading.line,
        )
    return MeldCount(
        index,
        tuple(str(p) for p in reading.pieces),
        True,
        reading.kind,
        reading.value,
        reading.jokers,
    )


def multiset_missing(laid: Iterable[Piece], held: Iterable[Piece]) -> list[Piece]:
    """Pieces of ``laid`` that ``held`` does not hold (as a multiset)."""
    have = Counter(held)
    missing: list[Piece] = []
    for p in laid:
        if have[p] > 0:
            have[p] -= 1
        else:
            missing.append(p)
    return missing


def check_names(names: Sequence[str]) -> None:
    """Raise :class:`RequestError` (``bad_field``) on a missing or repeated player name."""
    seen: set[str] = set()
    for n in names:
        if not n:
            raise RequestError.keyed("players.no_name", "bad_field")
        if n in seen:
            raise RequestError.keyed("players.appears_twice", "bad_field", player=n)
        seen.add(n)


def player_count_problem(variant: VariantName, count: int, rule: str) -> RoundResult | None:
    """An impossible round (``player_count``) when ``count`` is outside the variant's range."""
    lo, hi = find_variant(variant).players
    if lo <= count <= hi:
        return None
    return impossible_round(
        "player_count",
        Line("round.player_count", {"n": count, "lo": lo, "hi": hi}),
        rule,
        players=count,
    )


def top_names(totals: Mapping[str, int]) -> tuple[str, ...]:
    """Names with the highest total, in the order of ``totals``; empty when no players."""
    if not totals:
        return ()
    best = max(totals.values())
    return tuple(n for n, v in totals.items() if v == best)


def sign(points: int) -> str:
    """Points with their sign, minus as U+2212: ``+101``, ``−12``, ``0``."""
    if points > 0:
        return f"+{points}"
    if points < 0:
        return f"\u2212{-points}"
    return "0"


# -- reading request sub-objects --------------------------------------------------------------


def obj_str(obj: Mapping[str, Any], key: str, where: str, default: str | None = None) -> str:
    """A string field of a sub-object (required unless ``default``)."""
    value = obj.get(key, default)
    if value is None:
        raise RequestError.keyed("req.missing_in", "missing_field", field=where, sub=key)
    if not isinstance(value, str):
        raise RequestError.keyed("req.sub_not_string", "bad_field", field=where, sub=key)
    return value


def obj_bool(obj: Mapping[str, Any], key: str, where: str, default: bool) -> bool:
    """A true/false field of a sub-object."""
    value = obj.get(key, default)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise RequestError.keyed("req.sub_not_bool", "bad_field", field=where, sub=key)
    return value


def obj_int(obj: Mapping[str, Any], key: str, where: str) -> int | None:
    """A whole-number field of a sub-object, or ``None`` when absent."""
    value = obj.get(key)
    if value is None:
        return None
    return as_int(value, f"{where}.{key}")


def request_players(req: Request) -> list[Mapping[str, Any]]:
    """The ``players`` list of a round request: objects with a unique ``name``."""
    raw = req.items("players", limit=MAX_PLAYERS)
    out: list[Mapping[str, Any]] = []
    for i, p in enumerate(raw):
        if not isinstance(p, Mapping):
            raise RequestError.keyed("req.player_not_object", "bad_field", field=f"players[{i}]")
        obj_str(p, "name", f"players[{i}]")
        out.append(p)
    check_names([p["name"] for p in out])
    return out


def request_game(
    req: Request,
) -> tuple[list[str], list[tuple[dict[str, int], tuple[str, ...] | None]]]:
    """The ``players`` (names) and ``rounds`` (scores, optional winners) of a game request.

    Every name in a round must be one of the players; a player missing from a round's scores
    scored 0 in it.

    Raises:
        RequestError: missing or malformed fields, unknown names.
    """
    names = req.items("players", limit=MAX_PLAYERS)
    if not all(isinstance(n, str) for n in names):
        raise RequestError.keyed("req.players_not_names", "bad_field")
    check_names(names)
    known = set(names)
    rounds: list[tuple[dict[str, int], tuple[str, ...] | None]] = []
    for i, r in enumerate(req.items("rounds", limit=1000)):
        where = f"rounds[{i}]"
        if not isinstance(r, Mapping):
            raise RequestError.keyed("req.round_not_object", "bad_field", field=where)
        scores = r.get("scores")
        if not isinstance(scores, Mapping):
            raise RequestError.keyed(
                "req.scores_not_map",
                "missing_field" if scores is None else "bad_field",
                field=where,
            )
        parsed: dict[str, int] = {}
        for name, pts in scores.items():
            if name not in known:
                raise RequestError.keyed(
                    "req.scores_not_player", "bad_field", field=where, player=name
                )
            parsed[name] = as_int(pts, f"{where}.scores.{name}")
        winners: tuple[str, ...] | None = None
        if r.get("winners") is not None:
            w = r["winners"]
            if not isinstance(w, list) or not all(isinstance(n, str) for n in w):
                raise RequestError.keyed("req.winners_not_names", "bad_field", field=where)
            for n in w:
                if n not in known:
                    raise RequestError.keyed(
                        "req.winners_not_player", "bad_field", field=where, player=n
                    )
            winners = tuple(w)
        rounds.append(({n: parsed.get(n, 0) for n in names}, winners))
    return list(names), rounds


SET_NUMBERED_VALUE = 2 * 4 * sum(range(1, 14))
"""Points of all 104 numbered tiles of the 106-tile set together (728)."""


def racks_value_problem(
    racks: Sequence[tuple[str, Sequence[Piece] | None, int | None]], rule: str
) -> RoundResult | None:
    """An impossible round when the racks together hold more numbered points than the set.

    Args:
        racks: ``(name, tiles or None, hand_value or None)`` per player; tiles count by number,
            a typed ``hand_value`` as given (jokers are counted elsewhere).
        rule: the rule reference for the message.

    Returns:
        ``impossible_hand_value`` when the numbered tiles left add up to more than the 104
        numbered tiles of the 106-tile set hold (728 points, RULES.md §1), else ``None``.
    """
    total = 0
    for _name, tiles, value in racks:
        if tiles is not None:
            total += sum(p.number for p in tiles if isinstance(p, Tile))
        elif value is not None:
            total += value
    if total > SET_NUMBERED_VALUE:
        names = [n for n, t, v in racks if t or v]
        said = {"total": total, "most": SET_NUMBERED_VALUE}
        if len(names) == 1:
            ln = Line("round.racks_value_one", {"name": names[0], **said})
        else:
            ln = Line("round.racks_value_all", said)
        return impossible_round("impossible_hand_value", ln, rule, cite="RULES.md §1", total=total)
    return None


__all__ = [
    "SET_NUMBERED_VALUE",
    "GameResult",
    "MeldCount",
    "OpeningVerdict",
    "RoundResult",
    "ScoreLine",
    "check_names",
    "copies_across",
    "count_meld",
    "impossible_round",
    "multiset_missing",
    "numbered_value",
    "obj_bool",
    "obj_int",
    "obj_str",
    "player_count_problem",
    "racks_value_problem",
    "request_game",
    "request_players",
    "sign",
    "tiles_text",
    "top_names",
]
