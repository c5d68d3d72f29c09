"""Rummy 101: opening, round and game scoring (RULES.md §3, seed ``000_…``).

Typed API (the app calls these; the judge wrappers at the bottom only read requests):

- :func:`check_opening` — an opening by melds (runs and groups worth ≥ the threshold, 101) or by
  pairs (≥ 5 pairs, no point minimum), with the taken discard and rising thresholds.
- :func:`next_thresholds` / :class:`OpeningRecord` — rising thresholds: after an opening worth
  116 the next needs ≥ 117; after 5 pairs the next pairs opening needs ≥ 6; melds and pairs rise
  separately. Only in ``threshold_mode = "rising"``.
- :func:`score_round` — one finished round: finishes ``normal`` / ``joker`` / ``one_turn`` /
  ``one_turn_joker`` / ``stock_out``; penalties by opening; a breakdown naming the rule per
  player; impossible rounds get ``valid=False`` with a reason and no scores.
- :func:`score_game` — totals over rounds; Rummy 101 has no game end in the seed, so the game is
  finished only after ``rounds_planned`` rounds (when given).

Scoring (RULES.md §3): a uniform finish multiplier ``m`` — normal 1, joker 2, one_turn 2,
one_turn_joker 4, stock_out 1. The winner gains 101 × m; each opponent loses penalty × m, where
penalty = 202 not opened (flat: a joker in an unopened hand adds nothing — the seed's "404
without opening" for a joker finish is 2 × 202), the tiles left (joker 101) opened with melds,
2 × the tiles left opened with pairs. A one-turn finish means nobody had opened, so each opponent
loses 202 × 2 = 404 (× 4 = 808 with a joker).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, get_args

from rules.errors import RequestError, TooManyCopiesError
from rules.options import Rummy101Options
from rules.pieces import JOKER, TILE_SET, Piece
from rules.request import Request, as_int
from rules.scoring import (
    GameResult,
    OpeningVerdict,
    RoundResult,
    ScoreLine,
    check_names,
    count_meld,
    impossible_round,
    multiset_missing,
    numbered_value,
    obj_bool,
    obj_int,
    obj_str,
    player_count_problem,
    racks_value_problem,
    request_game,
    request_players,
    sign,
    tiles_text,
    top_names,
)
from rules.verdict import Line, line, rule_ref

RULE: Final = "RULES.md §3"
RULE_SEED: Final = "RULES.md §3, seed 000"
REF_OPENING: Final = rule_ref(RULE, "rummy101", "opening")

Opened = Literal["none", "melds", "pairs"]
Finish = Literal["normal", "joker", "one_turn", "one_turn_joker", "stock_out"]
OPENED: Final[tuple[Opened, ...]] = get_args(Opened)
FINISHES: Final[tuple[Finish, ...]] = get_args(Finish)

WINNER_GAIN: Final = 101
"""Points the winner gains on a normal finish (× the finish multiplier)."""
NOT_OPENED_PENALTY: Final = 202
"""Penalty of a player who had not opened (flat, whatever the hand holds)."""
JOKER_IN_HAND: Final = 101
"""A joker left in hand counts 101 (seed 000, table of tile values)."""
MAX_HAND: Final = 22
"""Most tiles a Rummy 101 hand can hold (the starting player's 22)."""

MULTIPLIER: Final[dict[Finish, int]] = {
    "normal": 1,
    "joker": 2,
    "one_turn": 2,
    "one_turn_joker": 4,
    "stock_out": 1,
}

# ---------------------------------------------------------------------------------------------
# Opening and rising thresholds
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PreviousOpening:
    """An opening already made in this round (for rising thresholds).

    Attributes:
        by: ``"melds"`` or ``"pairs"``.
        value: points of a melds opening.
        pairs: pairs of a pairs opening.
    """

    by: Literal["melds", "pairs"]
    value: int = 0
    pairs: int = 0


@dataclass(frozen=True)
class Thresholds:
    """What the next opening needs.

    Attributes:
        needed: points for an opening by melds.
        pairs_needed: pairs for an opening by pairs.
        rising: thresholds rise in this round (``threshold_mode = "rising"``).
    """

    needed: int
    pairs_needed: int
    rising: bool


@dataclass(frozen=True)
class OpeningRecord:
    """The highest openings so far in a round; melds and pairs are recorded separately.

    Immutable: :meth:`add` returns a new record.

        >>> r = OpeningRecord().add(PreviousOpening("melds", value=116))
        >>> r.thresholds(Rummy101Options(threshold_mode="rising")).needed
        117
    """

    highest_value: int = 0
    most_pairs: int = 0

    def add(self, opening: PreviousOpening | OpeningVerdict) -> OpeningRecord:
        """The record after ``opening`` (an invalid :class:`OpeningVerdict` changes nothing)."""
        if isinstance(opening, OpeningVerdict) and not opening.valid:
            return self
        if opening.by == "melds":
            return OpeningRecord(max(self.highest_value, opening.value), self.most_pairs)
        if opening.by == "pairs":
            return OpeningRecord(self.highest_value, max(self.most_pairs, opening.pairs))
        return self

    def thresholds(self, options: Rummy101Options | None = None) -> Thresholds:
        """What the next opening needs under ``options``.

        Fixed mode: the option thresholds (101 points / 5 pairs). Rising mode: more than the
        highest so far — ``max(threshold, highest + 1)`` points and ``max(pairs_needed,
        most + 1)`` pairs (RULES.md §3; seed 000 "Rosnące progi otwarcia").
        """
        opts = options or Rummy101Options()
        if opts.threshold_mode != "rising":
            return Thresholds(opts.threshold, opts.pairs_needed, False)
        needed = opts.threshold
        if self.highest_value:
            needed = max(needed, self.highest_value + 1)
        pairs = opts.pairs_needed
        if self.most_pairs:
            pairs = max(pairs, self.most_pairs + 1)
        return Thresholds(needed, pairs, True)


def next_thresholds(
    previous: Iterable[PreviousOpening | OpeningVerdict],
    options: Rummy101Options | None = None,
) -> Thresholds:
    """What the next opening in a round needs, given the openings made so far.

    Args:
        previous: the round's openings so far (any order).
        options: Rummy 101 options; rising only when ``threshold_mode == "rising"``.

    Returns:
        :class:`Thresholds`. E.g. rising, after 116: needed 117; after 5 pairs: pairs_needed 6.
    """
    record = OpeningRecord()
    for o in previous:
        record = record.add(o)
    return record.thresholds(options)


def check_opening(
    melds: Sequence[Sequence[Piece]],
    options: Rummy101Options | None = None,
    *,
    needed: int | None = None,
    pairs_needed: int | None = None,
    taken_discard: Piece | None = None,
    previous: Iterable[PreviousOpening | OpeningVerdict] = (),
    hand: Sequence[Piece] | None = None,
) -> OpeningVerdict:
    """Judge a Rummy 101 opening: all new melds laid in one turn (RULES.md §3).

    By melds: runs and groups worth at least ``needed`` points (a meld exactly at the threshold
    opens). By pairs: at least ``pairs_needed`` pairs, no point minimum. Pairs and runs/groups
    are never mixed in one opening (a 2-tile meld beside runs/groups is mixing). A taken
    discard must be in one of the melds; its value counts.

    Args:
        melds: the melds laid, each in table order.
        options: Rummy 101 options (threshold, pairs_needed, threshold_mode).
        needed: points needed, overriding options and rising thresholds.
        pairs_needed: pairs needed, overriding options and rising thresholds.
        taken_discard: the previous player's discard taken this turn, if any.
        previous: openings already made this round (rising thresholds; ignored when fixed).
        hand: optional: the player's tiles when laying down (after the draw, the taken discard
            included — added when absent). Then every laid tile must come from it and at least
            one tile must stay to discard.

    Returns:
        An :class:`OpeningVerdict`. Reasons, in the order checked: ``no_melds``,
        ``too_many_copies`` (across the melds), ``tile_not_in_hand``, ``no_tile_to_discard``,
        ``invalid_meld`` (``params["meld_index"]`` names it), ``mixed_pairs_and_melds``,
        ``discard_not_used``, ``too_few_pairs`` / ``below_threshold``.
    """
    opts = options or Rummy101Options()
    th = next_thresholds(previous, opts)
    need = th.needed if needed is None else needed
    need_pairs = th.pairs_needed if pairs_needed is None else pairs_needed
    params: dict[str, Any] = {"threshold_mode": opts.threshold_mode}
    counts = tuple(count_meld(i, m, "rummy101") for i, m in enumerate(melds))
    value = sum(c.value for c in counts)
    pairs = sum(1 for c in counts if c.kind == "pair")
    has_pairs = pairs > 0
    has_melds = any(c.kind in ("run", "group") for c in counts)
    by: Literal["melds", "pairs"] | None = None
    if has_pairs and not has_melds:
        by = "pairs"
    elif has_melds and not has_pairs:
        by = "melds"

    ref = REF_OPENING.with_options(threshold=opts.threshold, threshold_mode=opts.threshold_mode)

    def bad(
        reason: str, key: str | Line, english_text: str | None = None, **extra: Any
    ) -> OpeningVerdict:
        ln = key if isinstance(key, Line) else line(key, **extra.pop("line_params", {}))
        message = english_text if english_text is not None else ln.english()
        return OpeningVerdict(
            False,
            by,
            value,
            pairs,
            need,
            need_pairs,
            reason,
            f"{message} ({RULE})",
            RULE,
            counts,
            {**params, **extra},
            ln,
            ref,
        )

    if not melds:
        return bad("no_melds", "opening.no_melds")
    laid = [p for m in melds for p in m]
    try:
        TILE_SET.check_copies(laid, "in the opening")
    except TooManyCopiesError as e:
        assert e.line is not None
        return bad("too_many_copies", e.line)
    if hand is not None:
        held = list(hand)
        if taken_discard is not None and taken_discard not in held:
            held.append(taken_discard)
        missing = multiset_missing(laid, held)
        if missing:
            return bad(
                "tile_not_in_hand",
                "opening.tile_not_in_hand",
                tiles=[str(p) for p in missing],
                line_params={"tiles": tiles_text(missing)},
            )
        if len(laid) >= len(held):
            return bad("no_tile_to_discard", "opening.no_tile_to_discard")
    for c in counts:
        if not c.valid:
            assert c.line is not None
            tiles = " ".join(c.tiles)
            why = f"meld {c.index + 1} ({tiles}) is not valid: {c.message}"
            return bad(
                "invalid_meld",
                line("opening.invalid_meld", n=c.index + 1, tiles=tiles, why=c.line),
                why,
                meld_index=c.index,
                meld_reason=c.reason,
            )
    if has_pairs and has_melds:
        return bad("mixed_pairs_and_melds", "opening.mixed_pairs_and_melds")
    if taken_discard is not None and taken_discard not in laid:
        return bad(
            "discard_not_used",
            "opening.discard_not_used",
            taken_discard=str(taken_discard),
            line_params={"tile": str(taken_discard)},
        )
    if by == "pairs":
        if pairs < need_pairs:
            return bad(
                "too_few_pairs",
                "opening.too_few_pairs",
                line_params={"need": need_pairs, "pairs": pairs},
            )
        ok = line("opening.by_pairs", pairs=pairs, need=need_pairs)
    else:
        if value < need:
            return bad(
                "below_threshold",
                "opening.below_threshold",
                line_params={"need": need, "value": value},
            )
        ok = line("opening.by_melds", value=value, need=need)
    return OpeningVerdict(
        True,
        by,
        value,
        pairs,
        need,
        need_pairs,
        None,
        f"{ok.english()} ({RULE})",
        RULE,
        counts,
        params,
        ok,
        ref,
    )


# ---------------------------------------------------------------------------------------------
# Round scoring
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rummy101Player:
    """One player at the end of a Rummy 101 round.

    Attributes:
        name: the player.
        winner: this player finished (discarded the last tile).
        opened: ``none``, ``melds`` or ``pairs`` — how the player had opened.
        hand: tiles left in hand, or ``None`` when given as ``hand_value`` + ``jokers``.
        hand_value: points of the numbered tiles left (when ``hand`` is not given).
        jokers: jokers left (when ``hand`` is not given).
    """

    name: str
    winner: bool = False
    opened: Opened = "none"
    hand: tuple[Piece, ...] | None = None
    hand_value: int | None = None
    jokers: int = 0

    def rest(self) -> tuple[int, int] | None:
        """(points of numbered tiles, jokers) left, or ``None`` when not given."""
        if self.hand is not None:
            return numbered_value(self.hand)
        if self.hand_value is None:
            return None
        return self.hand_value, self.jokers


_TOP_VALUES: Final = sorted((n for n in range(1, 14) for _ in range(8)), reverse=True)


def max_hand_value(tiles: int) -> int:
    """Most points ``tiles`` numbered tiles of the 106-tile set can be worth (8 of each number)."""
    return sum(_TOP_VALUES[: max(0, tiles)])


def _check_round(finish: Finish, players: Sequence[Rummy101Player]) -> RoundResult | None:
    problem = player_count_problem("rummy101", len(players), RULE)
    if problem is not None:
        return problem
    check_names([p.name for p in players])
    winners = [p for p in players if p.winner]
    if len(winners) > 1:
        return impossible_round(
            "two_winners",
            Line("round.two_winners", {"names": ", ".join(p.name for p in winners)}),
            RULE,
        )
    if finish == "stock_out" and winners:
        return impossible_round(
            "winner_in_stock_out",
            Line("round.winner_in_stock_out", {"name": winners[0].name}),
            RULE,
        )
    if finish != "stock_out" and not winners:
        return impossible_round(
            "no_winner",
            Line("r101.no_winner", {"finish": Line(f"r101.finish.{finish}", {})}),
            RULE,
        )
    if finish in ("one_turn", "one_turn_joker"):
        opened = [p.name for p in players if not p.winner and p.opened != "none"]
        if opened:
            return impossible_round(
                "opened_in_one_turn",
                Line("r101.opened_in_one_turn", {"names": ", ".join(opened)}),
                RULE,
            )
    for p in players:
        rest = p.rest()
        if p.winner:
            if rest is not None and (rest[0] or rest[1]):
                return impossible_round(
                    "winner_has_tiles",
                    Line("r101.winner_has_tiles", {"name": p.name}),
                    RULE,
                    player=p.name,
                )
            continue
        if p.hand is not None and len(p.hand) > MAX_HAND:
            return impossible_round(
                "hand_too_large",
                Line("r101.hand_too_large", {"name": p.name, "n": len(p.hand), "max": MAX_HAND}),
                RULE,
                player=p.name,
            )
        if rest is None:
            if p.opened == "none" or finish in ("one_turn", "one_turn_joker"):
                continue
            raise RequestError.keyed(f"r101.no_rest.{p.opened}", "missing_field", player=p.name)
        value, jokers = rest
        if value < 0 or jokers < 0:
            return impossible_round(
                "negative_hand_value",
                Line("r101.negative_hand_value", {"name": p.name}),
                RULE,
                player=p.name,
            )
        if jokers > TILE_SET.jokers:
            return impossible_round(
                "too_many_copies",
                Line(
                    "round.too_many_jokers", {"name": p.name, "n": jokers, "most": TILE_SET.jokers}
                ),
                RULE,
                player=p.name,
            )
        if value > max_hand_value(MAX_HAND - jokers):
            return impossible_round(
                "impossible_hand_value",
                Line(
                    "r101.impossible_hand_value", {"name": p.name, "value": value, "max": MAX_HAND}
                ),
                RULE,
                player=p.name,
            )
        if value == 0 and jokers == 0:
            return impossible_round(
                "empty_hand",
                Line("r101.empty_hand", {"name": p.name}),
                RULE,
                player=p.name,
            )
    too_much = racks_value_problem(
        [(p.name, p.hand, p.hand_value) for p in players if not p.winner], RULE
    )
    if too_much is not None:
        return too_much
    everything: list[Piece] = []
    for p in players:
        if p.hand is not None:
            everything.extend(p.hand)
        elif p.hand_value is not None:
            everything.extend([JOKER] * max(0, p.jokers))
    try:
        TILE_SET.check_copies(everything, "across the hands")
    except TooManyCopiesError as e:
        return impossible_round("too_many_copies", e.line or e.message, RULE)
    return None


def penalty(player: Rummy101Player) -> tuple[int, str]:
    """A losing player's penalty before the finish multiplier, and how it was counted.

    Not opened: 202 (flat). Opened with melds: the tiles left, a joker 101. Opened with pairs:
    2 × the tiles left (RULES.md §3; seed 000 "Punktacja i kary").
    """
    pen, ln = penalty_line(player)
    return pen, ln.english()


def penalty_line(player: Rummy101Player) -> tuple[int, Line]:
    """:func:`penalty` with the explanation as a :class:`~rules.verdict.Line`."""
    if player.opened == "none":
        return NOT_OPENED_PENALTY, line("r101.not_opened", penalty=NOT_OPENED_PENALTY)
    rest = player.rest()
    assert rest is not None
    value, jokers = rest
    left = value + JOKER_IN_HAND * jokers
    if player.hand is not None:
        tiles = tiles_text(player.hand)
        if jokers:
            shown = line("r101.left.hand_joker", tiles=tiles, left=left, each=JOKER_IN_HAND)
        else:
            shown = line("r101.left.hand", tiles=tiles, left=left)
    elif jokers:
        shown = line(
            "r101.left.typed_jokers", value=value, jokers=jokers, each=JOKER_IN_HAND, left=left
        )
    else:
        shown = line("r101.left.typed", left=left)
    if player.opened == "melds":
        return left, line("r101.opened_melds", left=shown)
    return 2 * left, line("r101.opened_pairs", left=shown, penalty=2 * left)


def score_round(
    finish: Finish,
    players: Sequence[Rummy101Player],
    options: Rummy101Options | None = None,
) -> RoundResult:
    """Score one finished Rummy 101 round (RULES.md §3, seed 000).

    Args:
        finish: how the round ended.
        players: every player; exactly one ``winner`` unless ``finish == "stock_out"``.
        options: unused today (the scoring table has no options); kept for symmetry.

    Returns:
        A :class:`RoundResult`: winner +101 × m, each other player −penalty × m (m: normal 1,
        joker 2, one_turn 2, one_turn_joker 4, stock_out 1). ``valid=False`` with reason
        ``player_count``, ``two_winners``, ``no_winner``, ``winner_in_stock_out``,
        ``opened_in_one_turn``, ``winner_has_tiles``, ``hand_too_large``,
        ``negative_hand_value``, ``impossible_hand_value``, ``empty_hand`` or
        ``too_many_copies`` for a round that cannot have happened.

    Raises:
        RequestError: a repeated name (``bad_field``); an opened loser with no hand given
            (``missing_field``).
    """
    del options
    if finish not in FINISHES:
        raise RequestError(f"finish {finish!r} is not one of: {', '.join(FINISHES)}", "bad_field")
    problem = _check_round(finish, players)
    if problem is not None:
        return problem
    m = MULTIPLIER[finish]
    how = line(f"r101.finish.{finish}")
    scores: dict[str, int] = {}
    lines: list[ScoreLine] = []
    for p in players:
        if p.winner:
            gain = WINNER_GAIN * m
            scores[p.name] = gain
            why = line("r101.winner_gains", finish=how, gain=gain)
            lines.append(
                ScoreLine(
                    p.name,
                    gain,
                    f"{why.english()} ({RULE})",
                    RULE_SEED,
                    "winner",
                    {"multiplier": m, "penalty": None, "opened": None, "rest": None},
                    why,
                )
            )
            continue
        if finish in ("one_turn", "one_turn_joker"):
            pen = NOT_OPENED_PENALTY
            text = line("r101.nobody_opened", penalty=NOT_OPENED_PENALTY)
        else:
            pen, text = penalty_line(p)
        loss = pen * m
        rest = p.rest()
        rest_points = None
        if rest is not None and p.opened != "none":
            rest_points = rest[0] + JOKER_IN_HAND * rest[1]
        scores[p.name] = -loss
        if m != 1:
            why = line("r101.loss_times", why=text, m=m, finish=how, points=sign(-loss))
        else:
            why = line("r101.loss", why=text, points=sign(-loss))
        lines.append(
            ScoreLine(
                p.name,
                -loss,
                f"{why.english()} ({RULE})",
                RULE_SEED,
                "loser",
                {"multiplier": m, "penalty": pen, "opened": p.opened, "rest": rest_points},
                why,
            )
        )
    winner = tuple(p.name for p in players if p.winner)
    if winner:
        said = line("r101.round", finish=how, gain=sign(WINNER_GAIN * m), m=m)
    else:
        said = line("r101.round_no_winner", finish=how, m=m)
    return RoundResult(
        True,
        None,
        f"{said.english()} ({RULE})",
        RULE_SEED,
        scores,
        tuple(lines),
        winner,
        {"finish": finish, "multiplier": m},
        said,
        rule_ref(RULE_SEED, "rummy101", "scoring"),
    )


# ---------------------------------------------------------------------------------------------
# Game
# ---------------------------------------------------------------------------------------------


def score_game(
    players: Sequence[str],
    rounds: Sequence[Mapping[str, int]],
    rounds_planned: int | None = None,
) -> GameResult:
    """Totals of a Rummy 101 game (higher is better; RULES.md §3).

    The seed sets no game end: players agree on a number of rounds. With ``rounds_planned``
    the game is finished once that many rounds are scored (more is ``too_many_rounds``);
    without it the game is never finished and ``leaders`` says who is ahead. There are no
    game-end bonuses.

    Args:
        players: the player names.
        rounds: each round's scores by name (a missing name scored 0).
        rounds_planned: the number of rounds agreed, if any.
    """
    check_names(players)
    if rounds_planned is not None and len(rounds) > rounds_planned:
        said = line("r101.game.too_many_rounds", n=len(rounds), planned=rounds_planned)
        return GameResult(
            False,
            reason="too_many_rounds",
            message=f"{said.english()} ({RULE})",
            rule=RULE,
            line=said,
        )
    totals = {n: sum(r.get(n, 0) for r in rounds) for n in players}
    leaders = top_names(totals)
    finished = rounds_planned is not None and len(rounds) == rounds_planned
    winners = leaders if finished else ()
    winner = winners[0] if len(winners) == 1 else None
    if finished:
        said = line("r101.game.finished", planned=rounds_planned)
    else:
        said = line("r101.game.ongoing")
    message = f"{said.english()} ({RULE})"
    return GameResult(
        True,
        totals,
        finished,
        winner,
        winners,
        leaders,
        {n: 0 for n in players},
        len(rounds),
        message=message,
        rule=RULE,
        detail={"rounds_planned": rounds_planned},
        line=said,
    )


# ---------------------------------------------------------------------------------------------
# Judge wrappers
# ---------------------------------------------------------------------------------------------


def _one_piece(req: Request, name: str) -> Piece:
    got = req.pieces(name, check_copies=False)
    if len(got) != 1:
        raise RequestError(f"field {name!r} must be one tile", "bad_field")
    return got[0]


def _previous(req: Request) -> list[PreviousOpening]:
    out: list[PreviousOpening] = []
    for i, o in enumerate(req.items("previous_openings", default=[], limit=8)):
        where = f"previous_openings[{i}]"
        if not isinstance(o, Mapping):
            raise RequestError(f"{where} must be an object", "bad_field")
        by = obj_str(o, "by", where)
        if by == "melds":
            v = obj_int(o, "value", where)
            if v is None:
                raise RequestError(f"missing field {where}.value", "missing_field")
            out.append(PreviousOpening("melds", value=as_int(v, f"{where}.value", 0, 10_000)))
        elif by == "pairs":
            n = obj_int(o, "pairs", where)
            if n is None:
                raise RequestError(f"missing field {where}.pairs", "missing_field")
            out.append(PreviousOpening("pairs", pairs=as_int(n, f"{where}.pairs", 0, 53)))
        else:
            raise RequestError(f"{where}.by must be 'melds' or 'pairs'", "bad_field")
    return out


def opening_answer(req: Request) -> dict[str, Any]:
    """Judge ``opening`` for rummy101 (JUDGE.md).

    Request fields: ``melds`` (required), ``needed``, ``pairs_needed``, ``taken_discard``
    (one tile), ``hand`` (optional, see :func:`check_opening`) and ``previous_openings``:
    ``[{"by": "melds", "value": 116}, {"by": "pairs", "pairs": 5}, …]`` — the openings already
    made this round, which raise the thresholds when ``threshold_mode`` is ``rising``
    (``needed``/``pairs_needed`` still override).
    """
    assert isinstance(req.options, Rummy101Options)
    melds = req.melds("melds")
    needed = req.integer("needed", lo=0, hi=10_000) if req.has("needed") else None
    pairs_needed = req.integer("pairs_needed", lo=0, hi=53) if req.has("pairs_needed") else None
    taken = _one_piece(req, "taken_discard") if req.has("taken_discard") else None
    hand = req.pieces("hand") if req.has("hand") else None
    verdict = check_opening(
        melds,
        req.options,
        needed=needed,
        pairs_needed=pairs_needed,
        taken_discard=taken,
        previous=_previous(req),
        hand=hand,
    )
    return verdict.to_json()


def _player(req: Request, i: int, p: Mapping[str, Any], finish: Finish) -> Rummy101Player:
    where = f"players[{i}]"
    winner = obj_bool(p, "winner", where, False)
    if p.get("opened") is None and not winner and finish not in ("one_turn", "one_turn_joker"):
        raise RequestError(f"missing field {where}.opened (none, melds or pairs)", "missing_field")
    opened = obj_str(p, "opened", where, "none")
    if opened not in OPENED:
        raise RequestError(
            f"{where}.opened {opened!r} is not one of: none, melds, pairs", "bad_field"
        )
    hand: tuple[Piece, ...] | None = None
    if p.get("hand") is not None:
        if p.get("hand_value") is not None:
            raise RequestError(f"{where}: give hand or hand_value, not both", "bad_field")
        hand = tuple(req.pieces(f"{where}.hand", p["hand"]))
    hand_value = obj_int(p, "hand_value", where)
    jokers = obj_int(p, "jokers", where) or 0
    return Rummy101Player(p["name"], winner, opened, hand, hand_value, jokers)


def round_answer(req: Request) -> dict[str, Any]:
    """Judge ``round`` for rummy101 (JUDGE.md): ``finish`` (default ``normal``) and
    ``players`` [{name, winner?, opened, hand | hand_value + jokers}]."""
    assert isinstance(req.options, Rummy101Options)
    finish: Finish = req.string("finish", "normal", FINISHES)  # type: ignore[assignment]
    players = [_player(req, i, p, finish) for i, p in enumerate(request_players(req))]
    return score_round(finish, players, req.options).to_json()


def game_answer(req: Request) -> dict[str, Any]:
    """Judge ``game`` for rummy101: ``players``, ``rounds`` [{scores}], optional
    ``rounds_planned`` (the number of rounds agreed)."""
    names, rounds = request_game(req)
    planned = req.integer("rounds_planned", lo=1, hi=1000) if req.has("rounds_planned") else None
    return score_game(names, [r[0] for r in rounds], planned).to_json()
