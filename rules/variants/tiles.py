"""Tile Rummy and My Rummy: initial meld, round and game scoring (RULES.md §4; seeds ``001_…``,
``004_…``).

Typed API:

- :func:`check_initial_meld` — new melds of one's own tiles worth ≥ ``initial_meld`` (30; 50 in
  the ``tiles50`` preset) in one turn, jokers counting as the tile they replace.
- :func:`score_round` — the winner empties the rack; each loser scores minus the tiles left
  (a joker ``joker_penalty``, 30); the winner scores the sum of the losers' racks where
  ``winner_collects`` (Tile Rummy) and 0 where not (My Rummy). With no winner (pool exhausted) the
  lowest rack wins: each loser scores −(own − lowest) and the winner, where ``winner_collects``,
  the total of those differences. Penalty draws (3 tiles for an invalid turn or a timeout) are
  recorded and echoed; they change no score.
- :func:`score_game` — totals over rounds; the game ends after ``games`` rounds or when a total
  reaches ``target`` (options, or the call's arguments), or when the players say it ended.

Decisions where RULES.md is silent (documented in the functions):

- Ties for the lowest rack when the pool is exhausted: every tied player is a winner and scores
  as the single winner would (the total of the losers' differences, where ``winner_collects``);
  each loser scores −(own − lowest) once. With one winner the round sums to zero (Tile Rummy);
  with k tied winners it sums to (k − 1) × that total.
- A player whose rack is empty is the one who went out: a second empty rack, or an empty rack
  beside a different marked winner, is an impossible round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, get_args

from rules.errors import RequestError, TooManyCopiesError
from rules.options import TileRummyOptions, VariantName
from rules.pieces import JOKER, TILE_SET, Piece
from rules.request import Request
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

RULE: Final = "RULES.md §4"
SEEDS: Final[dict[str, str]] = {"tile_rummy": "seed 001", "my_rummy": "seed 004"}
PENALTY_TILES: Final = 3
"""Tiles drawn for an invalid turn or a timeout (RULES.md §4)."""

PenaltyReason = Literal["invalid_turn", "timeout"]
PENALTY_REASONS: Final[tuple[PenaltyReason, ...]] = get_args(PenaltyReason)
TileVariant = Literal["tile_rummy", "my_rummy"]


def _rule(variant: str) -> str:
    return f"{RULE}, {SEEDS.get(variant, 'seed 001')}"


def _options(variant: TileVariant, options: TileRummyOptions | None) -> TileRummyOptions:
    if options is not None:
        return options
    if variant == "my_rummy":
        return TileRummyOptions(
            preset="my_rummy", joker_rule="my_rummy", turn_time=120, winner_collects=False
        )
    return TileRummyOptions()


# ---------------------------------------------------------------------------------------------
# Initial meld
# ---------------------------------------------------------------------------------------------


def check_initial_meld(
    melds: Sequence[Sequence[Piece]],
    options: TileRummyOptions | None = None,
    *,
    variant: TileVariant = "tile_rummy",
    needed: int | None = None,
    rack: Sequence[Piece] | None = None,
) -> OpeningVerdict:
    """Judge a Tile Rummy / My Rummy initial meld (RULES.md §4).

    New melds (runs and groups of ≥ 3 tiles) made only of the player's own tiles, worth at least
    ``needed`` (default ``options.initial_meld``: 30, 50 in ``tiles50``) in one turn; a joker
    counts as the tile it replaces; exactly the threshold is enough. Laying every tile is allowed.

    Args:
        melds: the new melds, each in table order.
        options: Tile Rummy / My Rummy options (default: the variant's default preset).
        variant: ``tile_rummy`` or ``my_rummy``.
        needed: points needed, overriding ``options.initial_meld``.
        rack: optional: the rack before the turn; every tile laid must come from it.

    Returns:
        An :class:`~rules.variants.rummy101.OpeningVerdict` with ``by = "melds"`` and
        ``pairs_needed = None``. Reasons: ``no_melds``, ``too_many_copies`` (across the melds),
        ``tile_not_on_rack``, ``invalid_meld`` (``params["meld_index"]``), ``below_threshold``.
    """
    opts = _options(variant, options)
    need = opts.initial_meld if needed is None else needed
    rule = _rule(variant)
    counts = tuple(count_meld(i, m, variant) for i, m in enumerate(melds))
    value = sum(c.value for c in counts)

    def bad(reason: str, message: str, **extra: Any) -> OpeningVerdict:
        return OpeningVerdict(
            False, "melds", value, 0, need, None, reason, f"{message} ({RULE})", rule, counts, extra
        )

    if not melds:
        return bad("no_melds", "the initial meld lays at least one new meld")
    laid = [p for m in melds for p in m]
    try:
        TILE_SET.check_copies(laid, "in the initial meld")
    except TooManyCopiesError as e:
        return bad("too_many_copies", e.message)
    if rack is not None:
        missing = multiset_missing(laid, rack)
        if missing:
            return bad(
                "tile_not_on_rack",
                f"the initial meld uses only the player's own tiles; {tiles_text(missing)} "
                "is not on the rack",
                tiles=[str(p) for p in missing],
            )
    for c in counts:
        if not c.valid:
            return bad(
                "invalid_meld",
                f"meld {c.index + 1} ({' '.join(c.tiles)}) is not valid: {c.message}",
                meld_index=c.index,
                meld_reason=c.reason,
            )
    if value < need:
        return bad(
            "below_threshold",
            f"the initial meld needs {need} in new melds of one's own tiles; these make {value}",
        )
    return OpeningVerdict(
        True,
        "melds",
        value,
        0,
        need,
        None,
        None,
        f"initial meld worth {value} (needs {need}) ({RULE})",
        rule,
        counts,
    )


# ---------------------------------------------------------------------------------------------
# Round
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TilePlayer:
    """One player at the end of a Tile Rummy / My Rummy round.

    Attributes:
        name: the player.
        winner: emptied the rack.
        hand: tiles left on the rack, or ``None`` when given as ``hand_value`` + ``jokers``.
        hand_value: points of the numbered tiles left (when ``hand`` is not given).
        jokers: jokers left (when ``hand`` is not given).
    """

    name: str
    winner: bool = False
    hand: tuple[Piece, ...] | None = None
    hand_value: int | None = None
    jokers: int = 0

    def rest(self) -> tuple[int, int] | None:
        """(points of numbered tiles, jokers) on the rack, or ``None`` when not given."""
        if self.hand is not None:
            return numbered_value(self.hand)
        if self.hand_value is None:
            return None
        return self.hand_value, self.jokers


@dataclass(frozen=True)
class PenaltyDraw:
    """A penalty recorded during the round: the player drew ``tiles`` (3) for an invalid turn
    or a timeout (RULES.md §4). It changes no score; it is kept with the round.

    Attributes:
        name: the player.
        tiles: tiles drawn, 0–3 (fewer than 3 only when the pool ran low).
        reason: ``invalid_turn`` or ``timeout``.
    """

    name: str
    tiles: int = PENALTY_TILES
    reason: PenaltyReason = "invalid_turn"

    def to_json(self) -> dict[str, Any]:
        """``{"name", "tiles", "reason"}``."""
        return {"name": self.name, "tiles": self.tiles, "reason": self.reason}


def rack_points(player: TilePlayer, joker_penalty: int) -> int:
    """Points left on a rack: numbered tiles at face value, a joker ``joker_penalty``."""
    rest = player.rest()
    if rest is None:
        raise RequestError(
            f"{player.name}: give the rack (hand), or hand_value and jokers", "missing_field"
        )
    return rest[0] + joker_penalty * rest[1]


def _rack_text(player: TilePlayer, joker_penalty: int) -> str:
    rest = player.rest()
    assert rest is not None
    value, jokers = rest
    total = value + joker_penalty * jokers
    if player.hand is not None:
        shown = f"rack {tiles_text(player.hand)}" if player.hand else "empty rack"
    else:
        shown = "rack"
    if jokers:
        j = f"{jokers} joker{'s' if jokers > 1 else ''} × {joker_penalty}"
        return f"{shown}: {value} + {j} = {total}"
    return f"{shown} = {total}"


def _check_round(
    variant: TileVariant,
    players: Sequence[TilePlayer],
    penalties: Sequence[PenaltyDraw],
) -> RoundResult | None:
    rule = _rule(variant)
    problem = player_count_problem(variant, len(players), RULE)
    if problem is not None:
        return problem
    names = [p.name for p in players]
    check_names(names)
    for d in penalties:
        if d.name not in names:
            raise RequestError(f"penalty names {d.name!r}, not a player", "bad_field")
        if not 0 <= d.tiles <= PENALTY_TILES:
            raise RequestError(
                f"a penalty draw is {PENALTY_TILES} tiles (fewer only when the pool runs low); "
                f"{d.name} drew {d.tiles}",
                "bad_field",
            )
        if d.reason not in PENALTY_REASONS:
            raise RequestError(
                f"penalty reason {d.reason!r} is not one of: {', '.join(PENALTY_REASONS)}",
                "bad_field",
            )
    winners = [p for p in players if p.winner]
    if len(winners) > 1:
        return impossible_round(
            "two_winners",
            f"only one player can empty the rack first; {', '.join(p.name for p in winners)} "
            f"are all marked winner ({RULE})",
            rule,
        )
    empty: list[str] = []
    for p in players:
        rest = p.rest()
        if p.winner:
            if rest is not None and (rest[0] or rest[1]):
                return impossible_round(
                    "winner_has_tiles",
                    f"the winner {p.name} emptied the rack, so no tiles are left ({RULE})",
                    rule,
                    player=p.name,
                )
            continue
        if rest is None:
            raise RequestError(
                f"{p.name}: give the rack (hand), or hand_value and jokers", "missing_field"
            )
        value, jokers = rest
        if value < 0 or jokers < 0:
            return impossible_round(
                "negative_hand_value",
                f"{p.name}'s rack value cannot be negative ({RULE})",
                rule,
                player=p.name,
            )
        if jokers > TILE_SET.jokers:
            return impossible_round(
                "too_many_copies",
                f"{p.name} holds {jokers} jokers; the set has {TILE_SET.jokers} ({RULE})",
                rule,
                player=p.name,
            )
        if value == 0 and jokers == 0:
            empty.append(p.name)
    if winners and empty:
        return impossible_round(
            "empty_rack_not_winner",
            f"{empty[0]}'s rack is empty, so {empty[0]} went out too, but {winners[0].name} "
            f"is the winner; only one player goes out ({RULE})",
            rule,
            player=empty[0],
        )
    if len(empty) > 1:
        return impossible_round(
            "two_winners",
            f"{' and '.join(empty)} both have empty racks; only one player goes out ({RULE})",
            rule,
        )
    too_much = racks_value_problem([(p.name, p.hand, p.hand_value) for p in players], rule)
    if too_much is not None:
        return too_much
    everything: list[Piece] = []
    for p in players:
        if p.hand is not None:
            everything.extend(p.hand)
        elif p.hand_value is not None:
            everything.extend([JOKER] * max(0, p.jokers))
    try:
        TILE_SET.check_copies(everything, "across the racks")
    except TooManyCopiesError as e:
        return impossible_round("too_many_copies", f"{e.message} ({RULE})", rule)
    return None


def score_round(
    players: Sequence[TilePlayer],
    options: TileRummyOptions | None = None,
    *,
    variant: TileVariant = "tile_rummy",
    penalties: Sequence[PenaltyDraw] = (),
) -> RoundResult:
    """Score one Tile Rummy / My Rummy round (RULES.md §4).

    With a winner (emptied the rack): each loser scores −(tiles left, a joker
    ``joker_penalty``); the winner scores the sum of those where ``winner_collects`` (Tile
    Rummy), else 0 (My Rummy). With no winner (the pool ran out): the lowest rack wins, each
    loser scores −(own − lowest), the winner the total of those differences where
    ``winner_collects``; ties for lowest: every tied player scores as the winner (gap filled).

    Args:
        players: every player; at most one ``winner``; losers' racks as ``hand`` or
            ``hand_value`` + ``jokers``.
        options: Tile Rummy / My Rummy options (``joker_penalty``, ``winner_collects``).
        variant: ``tile_rummy`` or ``my_rummy`` (rule names and default options).
        penalties: penalty draws during the round (echoed in ``detail["penalties"]``).

    Returns:
        A :class:`~rules.variants.rummy101.RoundResult`; ``valid=False`` with ``player_count``,
        ``two_winners``, ``winner_has_tiles``, ``empty_rack_not_winner``,
        ``negative_hand_value`` or ``too_many_copies`` for a round that cannot have happened.

    Raises:
        RequestError: a repeated name, a loser's rack missing, a malformed penalty.
    """
    opts = _options(variant, options)
    rule = _rule(variant)
    problem = _check_round(variant, players, penalties)
    if problem is not None:
        return problem
    jp = opts.joker_penalty
    collects = opts.winner_collects
    racks = {p.name: 0 if p.winner else rack_points(p, jp) for p in players}
    marked = [p.name for p in players if p.winner]
    pool_out = not marked
    low = 0 if marked else min(racks.values())
    winners = marked if marked else [n for n, v in racks.items() if v == low]
    losers = [p for p in players if p.name not in winners]
    diffs = {p.name: racks[p.name] - low for p in losers}
    total = sum(diffs.values())
    gain = total if collects else 0
    scores: dict[str, int] = {}
    lines: list[ScoreLine] = []
    collect_text = "My Rummy scoring: losers' penalties only" if variant == "my_rummy" else ""
    for p in players:
        if p.name in winners:
            scores[p.name] = gain
            if not pool_out:
                head = "emptied the rack"
            else:
                head = f"the pool ran out: lowest rack ({low}) wins"
                if len(winners) > 1:
                    others = ", ".join(n for n in winners if n != p.name)
                    head += f", tied with {others}: each scores as the winner (gap filled)"
            if collects:
                parts = " + ".join(str(d) for d in diffs.values()) or "0"
                what = "the losers' racks" if not pool_out else "the losers' differences"
                why = f"{head}: collects {what} {parts} = {sign(gain)}"
            else:
                off = collect_text or "winner_collects off"
                why = f"{head}: the winner collects nothing ({off}) → 0"
            lines.append(
                ScoreLine(
                    p.name,
                    gain,
                    f"{why} ({RULE})",
                    rule,
                    "winner",
                    {"rack": racks[p.name]},
                )
            )
            continue
        loss = diffs[p.name]
        scores[p.name] = -loss
        rack = _rack_text(p, jp)
        if pool_out:
            why = f"{rack}; lowest rack {low} → −({racks[p.name]} − {low}) = {sign(-loss)}"
        else:
            why = f"{rack} → {sign(-loss)}"
        lines.append(
            ScoreLine(p.name, -loss, f"{why} ({RULE})", rule, "loser", {"rack": racks[p.name]})
        )
    if pool_out:
        message = f"the pool ran out: the lowest rack ({low}) wins"
    else:
        message = f"{winners[0]} emptied the rack"
    message += "; the winner collects" if collects else "; the winner collects nothing"
    return RoundResult(
        True,
        None,
        f"{message} ({RULE})",
        rule,
        scores,
        tuple(lines),
        tuple(winners),
        {
            "pool_exhausted": pool_out,
            "racks": racks,
            "winner_collects": collects,
            "joker_penalty": jp,
            "penalties": [d.to_json() for d in penalties],
        },
    )


# ---------------------------------------------------------------------------------------------
# Game
# ---------------------------------------------------------------------------------------------


def score_game(
    players: Sequence[str],
    rounds: Sequence[Mapping[str, int]],
    options: TileRummyOptions | None = None,
    *,
    variant: TileVariant = "tile_rummy",
    games: int | None = None,
    target: int | None = None,
    ended: bool = False,
) -> GameResult:
    """Totals of a Tile Rummy / My Rummy series; the highest total wins (RULES.md §4).

    The players agree on a number of games (``games``), a target score (``target``) or a time.
    The series is finished after ``games`` rounds, or after the first round in which a total
    reaches ``target``, or when ``ended`` (time ran out, the players stopped). Rounds scored
    after that end make the game ``valid=False`` (``rounds_after_end``). No bonuses.

    Args:
        players: the player names.
        rounds: each round's scores by name (a missing name scored 0).
        options: ``games`` and ``target`` defaults.
        variant: ``tile_rummy`` or ``my_rummy``.
        games: rounds agreed, overriding ``options.games``.
        target: target score, overriding ``options.target``.
        ended: the players declare the series over.
    """
    opts = _options(variant, options)
    rule = _rule(variant)
    check_names(players)
    games = opts.games if games is None else games
    target = opts.target if target is None else target
    totals = {n: 0 for n in players}
    end: int | None = None
    why = ""
    for i, r in enumerate(rounds):
        if end is not None:
            return GameResult(
                False,
                reason="rounds_after_end",
                message=f"the game ended after round {end + 1} ({why}); round {i + 1} "
                f"cannot count ({RULE})",
                rule=rule,
                detail={"ended_after": end + 1},
            )
        for n in players:
            totals[n] += r.get(n, 0)
        if target is not None and any(v >= target for v in totals.values()):
            end, why = i, f"a total reached the target {target}"
        elif games is not None and i + 1 >= games:
            end, why = i, f"the {games} agreed games were played"
    finished = end is not None or ended
    if end is None and ended:
        why = "the players ended the series"
    leaders = top_names(totals)
    winners = leaders if finished else ()
    winner = winners[0] if len(winners) == 1 else None
    message = f"{why}: the highest total wins" if finished else "the series goes on"
    return GameResult(
        True,
        totals,
        finished,
        winner,
        winners,
        leaders,
        {n: 0 for n in players},
        len(rounds),
        message=f"{message} ({RULE})",
        rule=rule,
        detail={
            "games": games,
            "target": target,
            "ended_after": None if end is None else end + 1,
        },
    )


# ---------------------------------------------------------------------------------------------
# Judge wrappers
# ---------------------------------------------------------------------------------------------


def _variant(req: Request) -> TileVariant:
    v: VariantName = req.variant
    assert v in ("tile_rummy", "my_rummy")
    return v


def opening_answer(req: Request) -> dict[str, Any]:
    """Judge ``opening`` for tile_rummy / my_rummy (JUDGE.md): ``melds``, optional ``needed``
    (overrides ``initial_meld``) and ``rack`` (the player's rack; ``hand`` is accepted too)."""
    assert isinstance(req.options, TileRummyOptions)
    for name in ("taken_discard", "pairs_needed", "previous_openings"):
        if req.has(name):
            raise RequestError(f"field {name!r} applies to rummy101 only", "bad_field")
    melds = req.melds("melds")
    needed = req.integer("needed", lo=0, hi=10_000) if req.has("needed") else None
    rack: list[Piece] | None = None
    for name in ("rack", "hand"):
        if req.has(name):
            rack = req.pieces(name)
    verdict = check_initial_meld(
        melds, req.options, variant=_variant(req), needed=needed, rack=rack
    )
    return verdict.to_json()


def _penalties(req: Request) -> list[PenaltyDraw]:
    out: list[PenaltyDraw] = []
    for i, d in enumerate(req.items("penalties", default=[], limit=500)):
        where = f"penalties[{i}]"
        if not isinstance(d, Mapping):
            raise RequestError(f"{where} must be an object", "bad_field")
        name = obj_str(d, "name", where)
        tiles = obj_int(d, "tiles", where)
        reason = obj_str(d, "reason", where, "invalid_turn")
        if reason not in PENALTY_REASONS:
            raise RequestError(
                f"{where}.reason {reason!r} is not one of: {', '.join(PENALTY_REASONS)}",
                "bad_field",
            )
        out.append(PenaltyDraw(name, PENALTY_TILES if tiles is None else tiles, reason))
    return out


def round_answer(req: Request) -> dict[str, Any]:
    """Judge ``round`` for tile_rummy / my_rummy (JUDGE.md): ``players`` [{name, winner?,
    hand | hand_value + jokers}] (no winner: the pool ran out) and optional ``penalties``
    [{name, tiles: 3, reason: invalid_turn | timeout}] (echoed; no score change)."""
    assert isinstance(req.options, TileRummyOptions)
    players: list[TilePlayer] = []
    for i, p in enumerate(request_players(req)):
        where = f"players[{i}]"
        hand: tuple[Piece, ...] | None = None
        if p.get("hand") is not None:
            if p.get("hand_value") is not None:
                raise RequestError(f"{where}: give hand or hand_value, not both", "bad_field")
            hand = tuple(req.pieces(f"{where}.hand", p["hand"]))
        players.append(
            TilePlayer(
                p["name"],
                obj_bool(p, "winner", where, False),
                hand,
                obj_int(p, "hand_value", where),
                obj_int(p, "jokers", where) or 0,
            )
        )
    result = score_round(players, req.options, variant=_variant(req), penalties=_penalties(req))
    return result.to_json()


def game_answer(req: Request) -> dict[str, Any]:
    """Judge ``game`` for tile_rummy / my_rummy: ``players``, ``rounds`` [{scores}], optional
    ``games`` / ``target`` (override the options) and ``ended`` (the players stopped)."""
    assert isinstance(req.options, TileRummyOptions)
    names, rounds = request_game(req)
    games = req.integer("games", lo=1, hi=1000) if req.has("games") else None
    target = req.integer("target", lo=1, hi=100_000) if req.has("target") else None
    ended = req.boolean("ended", False)
    result = score_game(
        names,
        [r[0] for r in rounds],
        req.options,
        variant=_variant(req),
        games=games,
        target=target,
        ended=ended,
    )
    return result.to_json()


__all__ = [
    "PENALTY_TILES",
    "PenaltyDraw",
    "TilePlayer",
    "check_initial_meld",
    "game_answer",
    "opening_answer",
    "rack_points",
    "round_answer",
    "score_game",
    "score_round",
]
