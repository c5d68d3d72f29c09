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

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations
from typing import Any, Final, Literal, get_args

from rules.errors import RequestError, TooManyCopiesError
from rules.melds import read_meld
from rules.notation import parse_pieces
from rules.options import Rummy101Options
from rules.pieces import JOKER, TILE_SET, Piece, Tile, make_piece, sort_pieces
from rules.request import Request, as_int
from rules.scoring import (
    GameResult,
    OpeningVerdict,
    RoundResult,
    ScoreLine,
    check_names,
    copies_across,
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
from rules.table import TurnVerdict
from rules.variant import RUMMY101, meld_rules
from rules.verdict import Line, line, rule_ref

RULE: Final = RUMMY101.rule
RULE_SEED: Final = RUMMY101.rule_seed
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
        reason: str,
        key: str | Line,
        english_text: str | None = None,
        section: str | None = None,
        **extra: Any,
    ) -> OpeningVerdict:
        ln = key if isinstance(key, Line) else line(key, **extra.pop("line_params", {}))
        message = english_text if english_text is not None else ln.english()
        where = ref if section is None else ref.at(section)
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
            where,
        )

    if not melds:
        return bad("no_melds", "opening.no_melds")
    laid = [p for m in melds for p in m]
    try:
        TILE_SET.check_copies(laid, "in the opening")
    except TooManyCopiesError as e:
        assert e.line is not None
        return bad("too_many_copies", e.line, section="players")
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
                "melds",
                meld_index=c.index,
                meld_reason=c.reason,
            )
    if has_pairs and has_melds:
        return bad("mixed_pairs_and_melds", "opening.mixed_pairs_and_melds", section="pairs")
    if taken_discard is not None and taken_discard not in laid:
        return bad(
            "discard_not_used",
            "opening.discard_not_used",
            section="discard",
            taken_discard=str(taken_discard),
            line_params={"tile": str(taken_discard)},
        )
    if by == "pairs":
        if pairs < need_pairs:
            return bad(
                "too_few_pairs",
                "opening.too_few_pairs",
                section="pairs",
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
    hands: list[tuple[str, list[Piece]]] = []
    for p in players:
        if p.hand is not None:
            hands.append((p.name, list(p.hand)))
        elif p.hand_value is not None:
            hands.append((p.name, [JOKER] * max(0, p.jokers)))
    try:
        TILE_SET.check_copies([x for _name, held in hands for x in held], "across the hands")
    except TooManyCopiesError as e:
        return copies_across(e, RULE, hands)
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
        raise RequestError.keyed(
            "req.finish_not_choice", "bad_field", finish=finish, choices=", ".join(FINISHES)
        )
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
        raise RequestError.keyed("req.one_tile", "bad_field", field=name)
    return got[0]


def _previous(req: Request) -> list[PreviousOpening]:
    out: list[PreviousOpening] = []
    for i, o in enumerate(req.items("previous_openings", default=[], limit=8)):
        where = f"previous_openings[{i}]"
        if not isinstance(o, Mapping):
            raise RequestError.keyed("req.not_object", "bad_field", field=where)
        by = obj_str(o, "by", where)
        if by == "melds":
            v = obj_int(o, "value", where)
            if v is None:
                raise RequestError.keyed(
                    "req.missing_in", "missing_field", field=where, sub="value"
                )
            out.append(PreviousOpening("melds", value=as_int(v, f"{where}.value", 0, 10_000)))
        elif by == "pairs":
            n = obj_int(o, "pairs", where)
            if n is None:
                raise RequestError.keyed(
                    "req.missing_in", "missing_field", field=where, sub="pairs"
                )
            out.append(PreviousOpening("pairs", pairs=as_int(n, f"{where}.pairs", 0, 53)))
        else:
            raise RequestError.keyed("req.by_not_choice", "bad_field", field=where)
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
        raise RequestError.keyed("req.no_opened", "missing_field", field=where)
    opened = obj_str(p, "opened", where, "none")
    if opened not in OPENED:
        raise RequestError.keyed("req.opened_not_choice", "bad_field", field=where, value=opened)
    hand: tuple[Piece, ...] | None = None
    if p.get("hand") is not None:
        if p.get("hand_value") is not None:
            raise RequestError.keyed("req.hand_or_value", "bad_field", field=where)
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


# ---------------------------------------------------------------------------------------------
# One turn (RULES.md §3 "Taking the discard", "After opening", joker retrieval)
# ---------------------------------------------------------------------------------------------

TURN_RULE: Final = "RULES.md §3"
_MATCHINGS_MOST: Final = 64
"""Most before → after meld matchings tried (identical melds make several)."""


@dataclass(frozen=True)
class _Change:
    """What happened to one table meld: ``table_before[b]`` lies now as ``table_after[a]``."""

    b: int
    a: int
    retrieved: int  # jokers taken back, each replaced by its exact tile
    replaced: tuple[Piece, ...]  # the tiles that replaced them
    laid_off: tuple[Piece, ...]  # pieces added beyond those replacements


def _identities(pieces: Sequence[Piece], joker_texts: Sequence[str]) -> list[frozenset[Piece]]:
    """What each joker of a meld stands for: one tile (``R11``), or for an open group joker
    (``?7``) any 7 of a colour the group lacks."""
    out: list[frozenset[Piece]] = []
    reals = [p for p in pieces if isinstance(p, Tile)]
    for text in joker_texts:
        if text.startswith("?"):
            n = int(text[1:])
            have = {p.family_index for p in reals if p.number == n}
            out.append(frozenset(make_piece("tiles", n, f) for f in range(4) if f not in have))
        else:
            out.append(frozenset(parse_pieces(text, "tiles")))
    return out


def _retrieval(
    before: Sequence[Piece], added: Counter[Piece], removed: int
) -> tuple[Piece, ...] | None:
    """The tiles (from ``added``) that replaced ``removed`` jokers of ``before``, each exactly
    the tile its joker stood for in some valid reading of ``before``; ``None`` when no choice
    works."""
    reading = read_meld(before, meld_rules("rummy101"))
    for r in (reading, *reading.alternatives):
        idents = _identities(before, r.jokers)
        for chosen in combinations(range(len(idents)), removed):
            for order in permutations(chosen):
                pool = Counter(added)
                used: list[Piece] = []
                for k in order:
                    hit = next((t for t in sort_pieces(idents[k]) if pool[t] > 0), None)
                    if hit is None:
                        break
                    pool[hit] -= 1
                    used.append(hit)
                else:
                    return tuple(used)
    return None


def _jokers_kept(before: Sequence[Piece], after: Sequence[Piece]) -> bool:
    """Every joker of ``before`` that no real tile of ``after`` replaced still stands, in
    ``after``, for a tile it stood for before (a joker is never moved to another place: it
    leaves its place only when that tile takes it). True when ``after`` is no valid meld (that
    is judged as ``invalid_meld``)."""
    rules = meld_rules("rummy101")
    rb, ra = read_meld(before, rules), read_meld(after, rules)
    if not ra.valid:
        return True
    reals_a = {p for p in after if p is not JOKER}
    for r in (rb, *rb.alternatives):
        kept = [i for i in _identities(before, r.jokers) if not i & reals_a]
        if not kept:
            return True
        for s in (ra, *ra.alternatives):
            now = _identities(after, s.jokers)
            for perm in permutations(range(len(now)), len(kept)):
                if all(kept[k] & now[perm[k]] for k in range(len(kept))):
                    return True
    return False


def _stood_line(before: Sequence[Piece]) -> str | Line:
    """What the jokers of ``before`` stand for, as a line param: ``R11``, or ``pieces.or``
    ("K7 or Y7")."""
    names = _joker_stood_for(before).split(", ")
    if len(names) < 2:
        return names[0]
    return Line("pieces.or", {"first": ", ".join(names[:-1]), "last": names[-1]})


def _joker_stood_for(before: Sequence[Piece]) -> str:
    reading = read_meld(before, meld_rules("rummy101"))
    names: list[str] = []
    for ident in _identities(before, reading.jokers):
        for t in sort_pieces(ident):
            if str(t) not in names:
                names.append(str(t))
    return ", ".join(names) if names else "?"


def _matchings(
    before: Sequence[Sequence[Piece]], after: Sequence[Sequence[Piece]]
) -> tuple[list[tuple[int, ...]], int | None]:
    """Ways to place every before-meld in a distinct after-meld that holds all its real tiles
    (a meld is only added to, never split or rearranged). Returns the matchings (``m[b]`` = the
    after index; the same index first) and, when there is none, the first before-meld that
    cannot be placed."""
    reals_a = [Counter(p for p in m if p is not JOKER) for m in after]
    cands: list[list[int]] = []
    for m in before:
        rb = Counter(p for p in m if p is not JOKER)
        cands.append([j for j, ra in enumerate(reals_a) if all(ra[p] >= k for p, k in rb.items())])
    for i, c in enumerate(cands):
        if i in c:  # the meld where it was given first
            c.remove(i)
            c.insert(0, i)
    out: list[tuple[int, ...]] = []
    deepest = [0]

    def dfs(i: int, taken: tuple[int, ...]) -> None:
        if len(out) >= _MATCHINGS_MOST:
            return
        deepest[0] = max(deepest[0], i)
        if i == len(before):
            out.append(taken)
            return
        for j in cands[i]:
            if j not in taken:
                dfs(i + 1, (*taken, j))

    dfs(0, ())
    return out, (None if out else deepest[0])


def judge_turn_101(
    rack: Sequence[Piece],
    table_before: Sequence[Sequence[Piece]],
    table_after: Sequence[Sequence[Piece]],
    *,
    opened: Opened,
    options: Rummy101Options | None = None,
    taken_discard: Piece | None = None,
    pairs_opened: bool | None = None,
    needed: int | None = None,
    pairs_needed: int | None = None,
    previous: Iterable[PreviousOpening] = (),
) -> TurnVerdict:
    """Judge one Rummy 101 turn: what a player laid between the draw and the discard
    (RULES.md §3; seed ``000_…``).

    Table melds are only added to: each meld of ``table_before`` must lie whole in its own meld
    of ``table_after`` (extended by lay-offs, or with a joker replaced); the after-melds left
    over are new melds. Checks, in order (the first that fails is the ``reason``):

    1. ``tile_taken_from_table`` (a real tile fewer on the table), ``table_rearranged`` (a meld
       split, merged or rearranged);
    2. joker retrieval: ``joker_wrong_tile`` unless every joker taken back is replaced, in its
       meld, by exactly the tile it stood for (a group joker: a tile of a missing colour), and
       every joker left in a meld still stands for what it stood for (never moved);
    3. ``lay_off_onto_pair`` (a pair gets nothing but the tile replacing its joker);
    4. ``invalid_meld`` (an after-meld, naming ``table_after[j]``);
    5. ``tile_not_on_rack`` (the rack, the taken discard and the jokers taken back this turn
       supply every piece laid), ``no_tile_to_discard`` (one tile must stay to discard);
    6. opening: not opened before — no new melds: ``joker_before_opening``,
       ``lay_off_before_opening``, ``discard_not_used``; new melds: :func:`check_opening`
       (its reasons), and a joker taken back this turn may not be part of the opening
       (``joker_before_opening``); lay-offs and retrievals after the opening in the same turn
       are allowed and do not count;
    7. ``pairs_opener_run`` (a pairs opener laying a run or group);
       ``pairs_not_allowed`` (a melds opener laying pairs while nobody opened with pairs);
    8. ``discard_not_used`` (already opened: the taken discard must be laid this turn, in a
       meld, a lay-off or as a joker's replacement).

    Identical melds (two copies) can be matched to the table after in more than one way; the
    reading most favourable to the player is judged (the verdict of the first reading when
    none is legal).

    Args:
        rack: the player's tiles after the draw (the taken discard included; added when
            absent).
        table_before: the melds on the table before the turn (all players'), each as it lies.
        table_after: the melds after the turn.
        opened: the player's opening before this turn: ``"none"``, ``"melds"`` or ``"pairs"``.
        options: Rummy 101 options (thresholds).
        taken_discard: the previous player's discard taken this turn, if any.
        pairs_opened: another player has opened with pairs (a melds opener may then lay pairs);
            default: a pair lies in ``table_before``.
        needed, pairs_needed, previous: as :func:`check_opening` (the opening this turn).

    Returns:
        A :class:`rules.table.TurnVerdict`: ``played``, ``initial_meld`` (the points of an
        opening by melds made this turn) and params ``opening`` (``"melds"``/``"pairs"``/
        ``None``: opened this turn), ``jokers_retrieved``, ``lay_offs`` (``[{"meld": b,
        "tiles": […]}]``), ``new_melds`` (indexes of ``table_after``).

    Raises:
        RequestError: a meld of ``table_before`` is not valid (``bad_field``).
    """
    opts = options or Rummy101Options()
    rules = meld_rules("rummy101")
    held = list(rack)
    if taken_discard is not None and taken_discard not in held:
        held.append(taken_discard)
    for i, m in enumerate(table_before):
        r = read_meld(m, rules)
        if not r.valid:
            name = f"table_before[{i}]"
            meld = Line("turn.meld", {"field": name, "tiles": tiles_text(m)})
            ln = Line("turn.before_invalid", {"meld": meld, "why": r.line}) if r.line else None
            raise RequestError(
                f"{name} ({tiles_text(m)}) is not a valid meld, so it cannot have been on the "
                f"table: {r.message}",
                "bad_field",
                ln,
            )
    if pairs_opened is None:
        pairs_opened = any(read_meld(m, rules).kind == "pair" for m in table_before)

    def bad(
        reason: str, ln: Line, section: str, played: Sequence[Piece] = (), **params: Any
    ) -> TurnVerdict:
        ref = rule_ref(TURN_RULE, "rummy101", section)
        return TurnVerdict(
            False,
            tuple(sort_pieces(played)),
            None,
            reason,
            f"{ln.english()} ({TURN_RULE})",
            TURN_RULE,
            params,
            None,
            ln,
            ref,
        )

    cb = Counter(p for m in table_before for p in m if p is not JOKER)
    ca = Counter(p for m in table_after for p in m if p is not JOKER)
    taken = sort_pieces(p for p in cb if ca[p] < cb[p])
    if taken:
        first = taken[0]
        return bad(
            "tile_taken_from_table",
            Line(
                "turn.left_table.tiles",
                {"tile": str(first), "n_before": cb[first], "n_after": ca[first]},
            ),
            "after_opening",
            tile=str(first),
            tiles=[str(p) for p in taken for _ in range(cb[p] - ca[p])],
        )
    matchings, lost = _matchings(table_before, table_after)
    if not matchings:
        assert lost is not None
        m = table_before[lost]
        meld = Line("turn.meld", {"field": f"table_before[{lost}]", "tiles": tiles_text(m)})
        return bad(
            "table_rearranged",
            Line("r101.turn.rearranged", {"meld": meld}),
            "after_opening",
            meld=lost,
            tiles=[str(p) for p in m],
        )
    first_verdict: TurnVerdict | None = None
    for matching in matchings:
        v = _judge_matching(
            held,
            table_before,
            table_after,
            matching,
            bad,
            opened=opened,
            opts=opts,
            taken_discard=taken_discard,
            pairs_opened=pairs_opened,
            needed=needed,
            pairs_needed=pairs_needed,
            previous=tuple(previous),
        )
        if v.valid:
            return v
        if first_verdict is None:
            first_verdict = v
    assert first_verdict is not None
    return first_verdict


def _judge_matching(
    held: Sequence[Piece],
    table_before: Sequence[Sequence[Piece]],
    table_after: Sequence[Sequence[Piece]],
    matching: tuple[int, ...],
    bad: Callable[..., TurnVerdict],
    *,
    opened: Opened,
    opts: Rummy101Options,
    taken_discard: Piece | None,
    pairs_opened: bool,
    needed: int | None,
    pairs_needed: int | None,
    previous: tuple[PreviousOpening, ...],
) -> TurnVerdict:
    rules = meld_rules("rummy101")
    discard_text = None if taken_discard is None else str(taken_discard)

    def ref_b(b: int) -> Line:
        return Line(
            "turn.meld", {"field": f"table_before[{b}]", "tiles": tiles_text(table_before[b])}
        )

    def ref_a(a: int) -> Line:
        return Line(
            "turn.meld", {"field": f"table_after[{a}]", "tiles": tiles_text(table_after[a])}
        )

    def wrong_tile(b: int, a: int) -> TurnVerdict:
        """A joker of meld ``b`` taken back, or moved, without its exact tile in its place."""
        mb = table_before[b]
        return bad(
            "joker_wrong_tile",
            Line(
                "r101.turn.joker_wrong_tile",
                {"before": ref_b(b), "tile": _stood_line(mb), "after": ref_a(a)},
            ),
            "jokers",
            meld=b,
            after=a,
            tile=_joker_stood_for(mb),
        )

    def at_meld(
        reason: str, section: str, played: Sequence[Piece], *, before: int = -1, after: int = -1
    ) -> TurnVerdict:
        """A turn refused for one meld (message ``r101.turn.<reason>``), named as it lay
        ``before`` the turn or ``after`` it."""
        where = {"before": ref_b(before)} if before >= 0 else {"after": ref_a(after)}
        ln = Line(f"r101.turn.{reason}", where)
        return bad(reason, ln, section, played, meld=before if before >= 0 else after)

    def discard_unused(key: str, played: Sequence[Piece]) -> TurnVerdict:
        """The taken discard was not laid this turn."""
        return bad(
            "discard_not_used",
            Line(key, {"tile": discard_text}),
            "discard",
            played,
            taken_discard=discard_text,
        )

    # 2. jokers taken back, and lay-offs
    changes: list[_Change] = []
    for b, a in enumerate(matching):
        mb, ma = table_before[b], table_after[a]
        if JOKER in mb and not _jokers_kept(mb, ma):
            return wrong_tile(b, a)
        if Counter(mb) == Counter(ma):
            continue
        added: Counter[Piece] = Counter(p for p in ma if p is not JOKER)
        added.subtract(p for p in mb if p is not JOKER)
        added = +added
        dj = sum(1 for p in ma if p is JOKER) - sum(1 for p in mb if p is JOKER)
        removed = max(0, -dj)
        used: tuple[Piece, ...] = ()
        if removed:
            got = _retrieval(mb, added, removed)
            if got is None:
                return wrong_tile(b, a)
            used = got
            added.subtract(used)
            added = +added
        laid = (*sort_pieces(added.elements()), *[JOKER] * max(0, dj))
        changes.append(_Change(b, a, removed, used, laid))
    # 3. nothing is laid off onto a pair
    for c in changes:
        if c.laid_off and read_meld(table_before[c.b], rules).kind == "pair":
            return bad(
                "lay_off_onto_pair",
                Line("r101.turn.lay_off_onto_pair", {"before": ref_b(c.b)}),
                "after_opening",
                meld=c.b,
                tiles=[str(p) for p in c.laid_off],
            )
    # 4. every meld after is valid
    readings = [read_meld(m, rules) for m in table_after]
    for j, r in enumerate(readings):
        if not r.valid:
            assert r.line is not None
            return bad(
                "invalid_meld",
                Line("turn.invalid_meld", {"meld": ref_a(j), "why": r.line}),
                "melds",
                meld=j,
                tiles=[str(p) for p in table_after[j]],
                meld_reason=r.reason,
            )
    # 5. the pieces laid came from the rack
    matched = set(matching)
    new = [j for j in range(len(table_after)) if j not in matched]
    played_list: list[Piece] = [p for j in new for p in table_after[j]]
    for c in changes:
        played_list.extend(c.laid_off)
        played_list.extend(c.replaced)
    played = tuple(sort_pieces(played_list))
    retrieved = sum(c.retrieved for c in changes)
    supply = Counter(held)
    supply[JOKER] += retrieved
    need = Counter(played)
    missing = sort_pieces(p for p in need if need[p] > supply[p])
    if missing:
        first = missing[0]
        return bad(
            "tile_not_on_rack",
            Line(
                "turn.not_on_rack.tiles",
                {"tile": str(first), "played": need[first], "held": supply[first]},
            ),
            "turn",
            played,
            tile=str(first),
            tiles=[str(p) for p in missing for _ in range(need[p] - supply[p])],
        )
    if len(played) >= sum(supply.values()):
        return bad(
            "no_tile_to_discard",
            Line("opening.no_tile_to_discard", {}),
            "finishing",
            played,
        )
    lay_offs = [{"meld": c.b, "tiles": [str(p) for p in c.laid_off]} for c in changes if c.laid_off]
    params: dict[str, Any] = {
        "jokers_retrieved": retrieved,
        "lay_offs": lay_offs,
        "new_melds": new,
    }
    # 6. the opening
    state: Opened = opened
    opening: OpeningVerdict | None = None
    if opened == "none":
        if not new:
            if retrieved:
                c = next(c for c in changes if c.retrieved)
                return at_meld("joker_before_opening", "jokers", played, before=c.b)
            if lay_offs:
                c = next(c for c in changes if c.laid_off)
                return at_meld("lay_off_before_opening", "after_opening", played, before=c.b)
            if taken_discard is not None:
                return discard_unused("opening.discard_not_used", played)
        else:
            opening = check_opening(
                [table_after[j] for j in new],
                opts,
                needed=needed,
                pairs_needed=pairs_needed,
                taken_discard=taken_discard,
                previous=previous,
            )
            if not opening.valid:
                assert opening.line is not None
                return TurnVerdict(
                    False,
                    played,
                    None,
                    opening.reason,
                    opening.message,
                    opening.rule,
                    {
                        **params,
                        **opening.params,
                        "value": opening.value,
                        "pairs": opening.pairs,
                        "needed": opening.needed,
                        "pairs_needed": opening.pairs_needed,
                    },
                    None,
                    opening.line,
                    opening.ref,
                )
            rack_jokers = Counter(held)[JOKER]
            if sum(1 for j in new for p in table_after[j] if p is JOKER) > rack_jokers:
                return bad(
                    "joker_before_opening",
                    Line("r101.turn.retrieved_joker_in_opening", {}),
                    "jokers",
                    played,
                )
            assert opening.by is not None
            state = opening.by
    # 7. what each kind of opener may lay
    if opening is None:
        for j in new:
            kind = readings[j].kind
            if state == "pairs" and kind != "pair":
                return at_meld("pairs_opener_run", "after_opening", played, after=j)
            if state == "melds" and kind == "pair" and not pairs_opened:
                return at_meld("pairs_not_allowed", "after_opening", played, after=j)
    # 8. the taken discard is used at once
    if opening is None and taken_discard is not None and taken_discard not in played:
        return discard_unused("r101.turn.discard_not_used", played)
    if opening is not None:
        params["opening"] = opening.by
        if opening.by == "pairs":
            ok = Line("r101.turn.valid_pairs", {"n": len(played), "pairs": opening.pairs})
        else:
            ok = Line("turn.valid_initial", {"n": len(played), "value": opening.value})
        section = "pairs" if opening.by == "pairs" else "opening"
    else:
        params["opening"] = None
        if played:
            ok = Line("turn.valid.tiles", {"n": len(played)})
        else:
            ok = Line("r101.turn.nothing_laid", {})
        section = "after_opening" if played else "turn"
    initial = opening.value if opening is not None and opening.by == "melds" else None
    return TurnVerdict(
        True,
        played,
        initial,
        None,
        f"{ok.english()} ({TURN_RULE})",
        TURN_RULE,
        params,
        None,
        ok,
        rule_ref(TURN_RULE, "rummy101", section),
    )


def turn_answer(req: Request) -> dict[str, Any]:
    """Judge ``turn`` for rummy101 (JUDGE.md; :func:`judge_turn_101`).

    Request fields: ``rack`` (the player's tiles after the draw; the taken discard included or
    not), ``table_before`` and ``table_after`` (lists of melds, every player's; no heap form),
    ``opened`` (required: ``"none"``, ``"melds"`` or ``"pairs"`` — the player's opening before
    this turn), ``taken_discard`` (one tile, when the previous player's discard was taken),
    ``pairs_opened`` (true/false: another player has opened with pairs; default: a pair lies in
    ``table_before``), and for an opening this turn ``needed``, ``pairs_needed``,
    ``previous_openings`` as in ``opening``.

    Copy limits are checked on the rack, the taken discard and the table before together, and
    on the table after.
    """
    assert isinstance(req.options, Rummy101Options)
    opened = req.string("opened", choices=OPENED)
    assert opened in OPENED
    rack = req.pieces("rack")
    before = req.melds("table_before")
    if not isinstance(req.raw.get("table_after"), list):
        raise RequestError.keyed("field.not_melds", "bad_field", name="table_after")
    after = req.melds("table_after")
    taken = _one_piece(req, "taken_discard") if req.has("taken_discard") else None
    pset = req.piece_set()
    own = list(rack)
    if taken is not None and taken not in own:
        own.append(taken)
    pset.check_copies([*own, *(p for m in before for p in m)], "in the rack and table_before")
    pset.check_copies([p for m in after for p in m], "in table_after")
    pairs_opened = req.boolean("pairs_opened") if req.has("pairs_opened") else None
    needed = req.integer("needed", lo=0, hi=10_000) if req.has("needed") else None
    pairs_needed = req.integer("pairs_needed", lo=0, hi=53) if req.has("pairs_needed") else None
    verdict = judge_turn_101(
        rack,
        before,
        after,
        opened=opened,
        options=req.options,
        taken_discard=taken,
        pairs_opened=pairs_opened,
        needed=needed,
        pairs_needed=pairs_needed,
        previous=_previous(req),
    )
    return verdict.to_json()


__all__ = [
    "FINISHES",
    "JOKER_IN_HAND",
    "MAX_HAND",
    "MULTIPLIER",
    "NOT_OPENED_PENALTY",
    "OPENED",
    "REF_OPENING",
    "RULE",
    "RULE_SEED",
    "TURN_RULE",
    "WINNER_GAIN",
    "Finish",
    "Opened",
    "OpeningRecord",
    "PreviousOpening",
    "Rummy101Player",
    "Thresholds",
    "check_opening",
    "game_answer",
    "judge_turn_101",
    "max_hand_value",
    "next_thresholds",
    "opening_answer",
    "penalty",
    "penalty_line",
    "round_answer",
    "score_game",
    "score_round",
    "turn_answer",
]
