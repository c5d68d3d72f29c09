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
from typing import Any, Final, Literal, TypeAlias, get_args

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
from rules.variant import TILE_RUMMY, find_variant
from rules.verdict import Line, line, rule_ref

RULE: Final = TILE_RUMMY.rule
PENALTY_TILES: Final[int] = TILE_RUMMY.penalty_tiles or 0
"""Tiles drawn for an invalid turn or a timeout (RULES.md §4: 3; :attr:`Variant.penalty_tiles`)."""

PenaltyReason = Literal["invalid_turn", "timeout"]
PENALTY_REASONS: Final[tuple[PenaltyReason, ...]] = get_args(PenaltyReason)
TileVariant: TypeAlias = str
"""A variant played by Tile Rummy's rules (``tile_rummy``, ``my_rummy``, or one a module of
``rules/variants/`` builds on them): its options and rule text are looked up by this name."""


def _rule(variant: str) -> str:
    return find_variant(variant).rule_seed


def _options(variant: TileVariant, options: TileRummyOptions | None) -> TileRummyOptions:
    if options is not None:
        return options
    got = find_variant(variant).preset()  # the variant's default preset
    assert isinstance(got, TileRummyOptions)
    return got


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

    ref = rule_ref(rule, variant, "opening", initial_meld=opts.initial_meld)

    def bad(
        reason: str,
        ln: Line,
        english_text: str | None = None,
        section: str | None = None,
        **extra: Any,
    ) -> OpeningVerdict:
        message = english_text if english_text is not None else ln.english()
        return OpeningVerdict(
            False,
            "melds",
            value,
            0,
            need,
            None,
            reason,
            f"{message} ({RULE})",
            rule,
            counts,
            extra,
            ln,
            ref if section is None else ref.at(section),
        )

    if not melds:
        return bad("no_melds", line("initial.no_melds"))
    laid = [p for m in melds for p in m]
    try:
        TILE_SET.check_copies(laid, "in the initial meld")
    except TooManyCopiesError as e:
        assert e.line is not None
        return bad("too_many_copies", e.line, section="players")
    if rack is not None:
        missing = multiset_missing(laid, rack)
        if missing:
            return bad(
                "tile_not_on_rack",
                line("initial.tile_not_on_rack", tiles=tiles_text(missing)),
                tiles=[str(p) for p in missing],
            )
    for c in counts:
        if not c.valid:
            assert c.line is not None
            tiles = " ".join(c.tiles)
            return bad(
                "invalid_meld",
                line("opening.invalid_meld", n=c.index + 1, tiles=tiles, why=c.line),
                f"meld {c.index + 1} ({tiles}) is not valid: {c.message}",
                "melds",
                meld_index=c.index,
                meld_reason=c.reason,
            )
    if value < need:
        return bad("below_threshold", line("initial.below_threshold", need=need, value=value))
    ok = line("initial.valid", value=value, need=need)
    return OpeningVerdict(
        True,
        "melds",
        value,
        0,
        need,
        None,
        None,
        f"{ok.english()} ({RULE})",
        rule,
        counts,
        line=ok,
        ref=ref,
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
        raise RequestError.keyed("tiles.no_rack", "missing_field", player=player.name)
    return rest[0] + joker_penalty * rest[1]


def _rack_line(player: TilePlayer, joker_penalty: int) -> Line:
    rest = player.rest()
    assert rest is not None
    value, jokers = rest
    total = value + joker_penalty * jokers
    if player.hand is not None:
        if player.hand:
            shown = line("tiles.rack_of", tiles=tiles_text(player.hand))
        else:
            shown = line("tiles.empty_rack")
    else:
        shown = line("tiles.rack")
    if jokers:
        return line(
            "tiles.rack_jokers",
            rack=shown,
            value=value,
            jokers=jokers,
            each=joker_penalty,
            total=total,
        )
    return line("tiles.rack_total", rack=shown, total=total)


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
            raise RequestError.keyed("req.penalty_not_player", "bad_field", player=d.name)
        if not 0 <= d.tiles <= PENALTY_TILES:
            raise RequestError.keyed(
                "tiles.penalty_tiles", "bad_field", most=PENALTY_TILES, player=d.name, n=d.tiles
            )
        if d.reason not in PENALTY_REASONS:
            raise RequestError.keyed(
                "req.penalty_reason",
                "bad_field",
                value=d.reason,
                choices=", ".join(PENALTY_REASONS),
            )
    winners = [p for p in players if p.winner]
    if len(winners) > 1:
        return impossible_round(
            "two_winners",
            Line("tiles.two_winners", {"names": ", ".join(p.name for p in winners)}),
            rule,
            cite=RULE,
        )
    empty: list[str] = []
    for p in players:
        rest = p.rest()
        if p.winner:
            if rest is not None and (rest[0] or rest[1]):
                return impossible_round(
                    "winner_has_tiles",
                    Line("tiles.winner_has_tiles", {"name": p.name}),
                    rule,
                    cite=RULE,
                    player=p.name,
                )
            continue
        if rest is None:
            raise RequestError.keyed("tiles.no_rack", "missing_field", player=p.name)
        value, jokers = rest
        if value < 0 or jokers < 0:
            return impossible_round(
                "negative_hand_value",
                Line("tiles.negative_hand_value", {"name": p.name}),
                rule,
                cite=RULE,
                player=p.name,
            )
        if jokers > TILE_SET.jokers:
            return impossible_round(
                "too_many_copies",
                Line(
                    "round.too_many_jokers", {"name": p.name, "n": jokers, "most": TILE_SET.jokers}
                ),
                rule,
                cite=RULE,
                player=p.name,
            )
        if value == 0 and jokers == 0:
            empty.append(p.name)
    if winners and empty:
        return impossible_round(
            "empty_rack_not_winner",
            Line("tiles.empty_rack_not_winner", {"name": empty[0], "winner": winners[0].name}),
            rule,
            cite=RULE,
            player=empty[0],
        )
    if len(empty) > 1:
        return impossible_round(
            "two_winners",
            Line("tiles.two_empty_racks", {"names": " and ".join(empty)}),
            rule,
            cite=RULE,
        )
    too_much = racks_value_problem([(p.name, p.hand, p.hand_value) for p in players], rule)
    if too_much is not None:
        return too_much
    hands: list[tuple[str, list[Piece]]] = []
    for p in players:
        if p.hand is not None:
            hands.append((p.name, list(p.hand)))
        elif p.hand_value is not None:
            hands.append((p.name, [JOKER] * max(0, p.jokers)))
    try:
        TILE_SET.check_copies([x for _name, held in hands for x in held], "across the racks")
    except TooManyCopiesError as e:
        return copies_across(e, rule, hands, cite=RULE)
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
    for p in players:
        if p.name in winners:
            scores[p.name] = gain
            if not pool_out:
                head = line("tiles.emptied")
            elif len(winners) > 1:
                others = ", ".join(n for n in winners if n != p.name)
                head = line("tiles.pool_out_tied", low=low, names=others)
            else:
                head = line("tiles.pool_out_low", low=low)
            if collects:
                parts = " + ".join(str(d) for d in diffs.values()) or "0"
                key = "tiles.collects_racks" if not pool_out else "tiles.collects_differences"
                why = line(key, head=head, parts=parts, points=sign(gain))
            elif not _options(variant, None).winner_collects:  # the variant's own rule
                why = line("tiles.collects_nothing_my_rummy", head=head)
            else:
                why = line("tiles.collects_nothing", head=head)
            lines.append(
                ScoreLine(
                    p.name,
                    gain,
                    f"{why.english()} ({RULE})",
                    rule,
                    "winner",
                    {"rack": racks[p.name]},
                    why,
                )
            )
            continue
        loss = diffs[p.name]
        scores[p.name] = -loss
        rack = _rack_line(p, jp)
        if pool_out:
            why = line(
                "tiles.loser_pool_out", rack=rack, low=low, own=racks[p.name], points=sign(-loss)
            )
        else:
            why = line("tiles.loser", rack=rack, points=sign(-loss))
        lines.append(
            ScoreLine(
                p.name,
                -loss,
                f"{why.english()} ({RULE})",
                rule,
                "loser",
                {"rack": racks[p.name]},
                why,
            )
        )
    if pool_out:
        key = "tiles.round_pool_out" if collects else "tiles.round_pool_out_nothing"
        said = line(key, low=low)
    else:
        key = "tiles.round_emptied" if collects else "tiles.round_emptied_nothing"
        said = line(key, name=winners[0])
    return RoundResult(
        True,
        None,
        f"{said.english()} ({RULE})",
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
        said,
        rule_ref(rule, variant, "scoring", winner_collects=collects, joker_penalty=jp),
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
    why = line("tiles.game.why.ended")
    for i, r in enumerate(rounds):
        if end is not None:
            said = line("tiles.game.rounds_after_end", end=end + 1, why=why, n=i + 1)
            return GameResult(
                False,
                reason="rounds_after_end",
                message=f"{said.english()} ({RULE})",
                rule=rule,
                detail={"ended_after": end + 1},
                line=said,
            )
        for n in players:
            totals[n] += r.get(n, 0)
        if target is not None and any(v >= target for v in totals.values()):
            end, why = i, line("tiles.game.why.target", target=target)
        elif games is not None and i + 1 >= games:
            end, why = i, line("tiles.game.why.games", games=games)
    finished = end is not None or ended
    leaders = top_names(totals)
    winners = leaders if finished else ()
    winner = winners[0] if len(winners) == 1 else None
    said = line("tiles.game.finished", why=why) if finished else line("tiles.game.ongoing")
    message = said.english()
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
        line=said,
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
    assert req.about.meld_rules.material == "tiles", v
    return v


def opening_answer(req: Request) -> dict[str, Any]:
    """Judge ``opening`` for tile_rummy / my_rummy (JUDGE.md): ``melds``, optional ``needed``
    (overrides ``initial_meld``) and ``rack`` (the player's rack; ``hand`` is accepted too)."""
    assert isinstance(req.options, TileRummyOptions)
    for name in ("taken_discard", "pairs_needed", "previous_openings"):
        if req.has(name):
            raise RequestError.keyed("req.rummy101_only", "bad_field", field=name)
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
            raise RequestError.keyed("req.not_object", "bad_field", field=where)
        name = obj_str(d, "name", where)
        tiles = obj_int(d, "tiles", where)
        reason = obj_str(d, "reason", where, "invalid_turn")
        if reason not in PENALTY_REASONS:
            raise RequestError.keyed(
                "req.penalty_reason_at",
                "bad_field",
                field=where,
                value=reason,
                choices=", ".join(PENALTY_REASONS),
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
                raise RequestError.keyed("req.hand_or_value", "bad_field", field=where)
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
