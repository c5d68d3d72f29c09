"""Carousel rummy: hand value, round and game scoring (RULES.md §6, seed ``003_…``).

Typed API:

- :func:`hand_value` / :func:`assess_hand` — a hand's penalty value: joker ``joker_value`` (25),
  J Q K 10, 2–10 face, ace 1; a player may knock at ``knock_max`` (5) or less.
- :func:`score_round` — the lowest hand wins the round. Two players: the winner scores the
  difference; 3–5: the sum of the differences to every other player; the others score 0.
  Winner ≠ knocker: +``undercut_bonus`` (10). The knocker tied with one player: that player wins,
  +10; tied with two: both score as winners, +10 each; tied with three or more, likewise every
  tied player (gap filled). Going out (no cards left): +``going_out_bonus`` (25); going out
  ends the round at once, so in a knocked round no player but the knocker can hold 0 cards
  (``out_in_knocked_round``). No knocker (stock exhausted): several players may end with no
  cards; the lowest hand wins, no undercut bonus. *(Gap filled:)* players tied for the lowest
  who are not the knocker each score as a winner (differences to the others, 0 between
  themselves).
- :func:`score_game` — ends after the round in which one or more players reach ``target``
  (150); they get +``game_bonus`` (100); every *other* player gets +``round_bonus`` (25) per
  round won (``round_bonus_all``: every player); the highest total wins, players tied for it
  share the win.

The deck: two players play one 53-card deck (one joker), three to five two decks; copies across
all hands are checked against it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from rules.errors import RequestError, TooManyCopiesError
from rules.options import CarouselOptions
from rules.pieces import Card, Piece, carousel_set, piece_value
from rules.request import Request
from rules.scoring import (
    GameResult,
    RoundResult,
    ScoreLine,
    check_names,
    copies_across,
    impossible_round,
    player_count_problem,
    request_game,
    request_players,
    sign,
    top_names,
)
from rules.variant import CAROUSEL
from rules.verdict import Line, add_line, line, rule_ref

RULE: Final = CAROUSEL.rule
RULE_SEED: Final = CAROUSEL.rule_seed


# ---------------------------------------------------------------------------------------------
# Hand
# ---------------------------------------------------------------------------------------------


def hand_value(hand: Sequence[Piece], options: CarouselOptions | None = None) -> int:
    """Penalty value of a hand in points: joker ``joker_value`` (25), J Q K 10, 2–10 face,
    ace 1 (RULES.md §6)."""
    opts = options or CarouselOptions()
    return sum(piece_value(p) if isinstance(p, Card) else opts.joker_value for p in hand)


@dataclass(frozen=True)
class HandAssessment:
    """A Carousel hand as the ``hand`` check reports it.

    Attributes:
        deadwood: the hand's value in points (every card counts; Carousel melds on the table).
        can_knock: ``deadwood <= knock_max``.
        went_out: no cards left.
        unmatched: the cards, canonical text, in the order given.
        knock_max: the limit applied.
    """

    deadwood: int
    can_knock: bool
    went_out: bool
    unmatched: tuple[str, ...]
    knock_max: int

    def to_json(self) -> dict[str, Any]:
        """The judge's ``hand`` answer (JUDGE.md): melds ``[]``, gin false, discard null;
        ``key``/``params`` of the message."""
        said = line("car.hand", value=self.deadwood, max=self.knock_max)
        out = {
            "deadwood": self.deadwood,
            "melds": [],
            "unmatched": list(self.unmatched),
            "can_knock": self.can_knock,
            "gin": False,
            "discard": None,
            "went_out": self.went_out,
            "knock_max": self.knock_max,
            "message": f"{said.english()} ({RULE})",
            "rule": RULE,
        }
        return add_line(out, said)


def assess_hand(hand: Sequence[Piece], options: CarouselOptions | None = None) -> HandAssessment:
    """Value a hand and say whether it may knock (RULES.md §6)."""
    opts = options or CarouselOptions()
    value = hand_value(hand, opts)
    return HandAssessment(
        value, value <= opts.knock_max, not hand, tuple(str(p) for p in hand), opts.knock_max
    )


# ---------------------------------------------------------------------------------------------
# Round
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CarouselPlayer:
    """One player at the end of a Carousel round: the cards left in hand (empty: went out)."""

    name: str
    hand: tuple[Piece, ...] = ()


def round_winners(values: Mapping[str, int], knocker: str | None) -> tuple[tuple[str, ...], bool]:
    """Who wins a round, and whether they get the undercut bonus.

    Args:
        values: hand value per player.
        knocker: the player who knocked, or ``None`` (stock exhausted).

    Returns:
        (winners in the order of ``values``, undercut bonus applies). The lowest hand wins; a
        knocker tied for lowest gives the win to the tied player(s), +undercut each; several
        non-knockers tied for lowest all win (gap filled); no undercut without a knocker.
    """
    low = min(values.values())
    tied = [n for n, v in values.items() if v == low]
    if knocker is None:
        return tuple(tied), False
    if tied == [knocker]:
        return (knocker,), False
    return tuple(n for n in tied if n != knocker), True


def score_round(
    players: Sequence[CarouselPlayer],
    knocker: str | None,
    options: CarouselOptions | None = None,
) -> RoundResult:
    """Score one Carousel round (RULES.md §6, seed 003).

    Each winner (see :func:`round_winners`) scores the sum of the differences between every
    non-winner's hand and the lowest hand (2 players: the difference), +``undercut_bonus`` when
    the winner is not the knocker (a knocker is present), +``going_out_bonus`` with no cards
    left; everyone else scores 0.

    Args:
        players: every player (2–5) with the cards left.
        knocker: who knocked, or ``None`` when the stock ran out (``detail["winners"]``).
        options: Carousel options.

    Returns:
        A :class:`~rules.variants.rummy101.RoundResult`; ``valid=False`` with
        ``player_count``, ``too_many_copies`` (across the hands, by the deck for this many
        players), ``knock_above_limit`` or ``out_in_knocked_round`` (a player other than the
        knocker holds no cards: going out would have ended the round before the knock; the
        detail names ``player``).

    Raises:
        RequestError: a repeated name, or a knocker who is not a player (``bad_field``).
    """
    opts = options or CarouselOptions()
    problem = player_count_problem("carousel", len(players), RULE)
    if problem is not None:
        return problem
    names = [p.name for p in players]
    check_names(names)
    if knocker is not None and knocker not in names:
        raise RequestError.keyed("round.knocker_not_a_player", "bad_field", knocker=knocker)
    deck = carousel_set(len(players))
    try:
        deck.check_copies([c for p in players for c in p.hand], "across the hands")
    except TooManyCopiesError as e:
        return copies_across(e, RULE, [(p.name, p.hand) for p in players])
    values = {p.name: hand_value(p.hand, opts) for p in players}
    if knocker is not None and values[knocker] > opts.knock_max:
        return impossible_round(
            "knock_above_limit",
            Line(
                "car.knock_above_limit",
                {"knocker": knocker, "value": values[knocker], "max": opts.knock_max},
            ),
            RULE,
            knocker=knocker,
            value=values[knocker],
            knock_max=opts.knock_max,
        )
    if knocker is not None:
        out = [p.name for p in players if not p.hand and p.name != knocker]
        if out:
            return impossible_round(
                "out_in_knocked_round",
                Line("car.out_in_knocked_round", {"name": out[0], "knocker": knocker}),
                RULE_SEED,
                cite=RULE,
                player=out[0],
                knocker=knocker,
            )
    winners, undercut = round_winners(values, knocker)
    low = min(values.values())
    diffs = {n: v - low for n, v in values.items() if n not in winners}
    base = sum(diffs.values())
    tied_knocker = knocker is not None and undercut and values[knocker] == low
    scores: dict[str, int] = {}
    lines: list[ScoreLine] = []
    for p in players:
        n = p.name
        if n in winners:
            bonuses: dict[str, int] = {}
            parts = [f"{o} {d}" for o, d in diffs.items()]
            if knocker is None:
                head = line("car.head.stock", low=low)
            elif tied_knocker:
                head = line("car.head.tied_knocker", low=low, knocker=knocker)
            elif undercut:
                head = line("car.head.undercut", low=low, knocker=knocker, value=values[knocker])
            else:
                head = line("car.head.low", low=low)
            co = [w for w in winners if w != n]
            tie: list[Line] = []
            if co:
                key = "car.tie" if tied_knocker else "car.tie_gap_filled"
                tie.append(line(key, names=", ".join(co)))
            if len(players) == 2:
                score = line("car.difference", base=base)
            else:
                score = line("car.differences", parts=" + ".join(parts) or "0", base=base)
            extra: list[Line] = []
            if undercut:
                bonuses["undercut"] = opts.undercut_bonus
                extra.append(line("car.bonus.undercut", bonus=opts.undercut_bonus))
            if not p.hand:
                bonuses["going_out"] = opts.going_out_bonus
                extra.append(line("car.bonus.went_out", bonus=opts.going_out_bonus))
            pts = base + sum(bonuses.values())
            scores[n] = pts
            why = line("car.winner", head=head, tie=tie, score=score, extra=extra, points=sign(pts))
            lines.append(
                ScoreLine(
                    n,
                    pts,
                    f"{why.english()} ({RULE})",
                    RULE_SEED,
                    "winner",
                    {
                        "hand": values[n],
                        "differences": dict(diffs),
                        "bonuses": bonuses,
                    },
                    why,
                )
            )
            continue
        scores[n] = 0
        if n == knocker and values[n] == low:
            why = line("car.other.tied_knocker", value=values[n])
        elif n == knocker:
            why = line("car.other.undercut", value=values[n])
        else:
            why = line("car.other.not_lowest", value=values[n])
        lines.append(
            ScoreLine(
                n, 0, f"{why.english()} ({RULE})", RULE_SEED, "other", {"hand": values[n]}, why
            )
        )
    if knocker is None:
        said = line("car.round.stock", low=low)
    elif undercut:
        said = line(
            "car.round.undercut", knocker=knocker, names=", ".join(winners), count=len(winners)
        )
    else:
        said = line("car.round.knocker_wins", knocker=knocker)
    return RoundResult(
        True,
        None,
        f"{said.english()} ({RULE})",
        RULE_SEED,
        scores,
        tuple(lines),
        winners,
        {
            "knocker": knocker,
            "values": values,
            "lowest": low,
            "undercut": undercut,
            "stock_exhausted": knocker is None,
        },
        said,
        rule_ref(RULE_SEED, "carousel", "scoring"),
    )


# ---------------------------------------------------------------------------------------------
# Game
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRound:
    """A scored Carousel round as the game sees it.

    Attributes:
        scores: points per player (a missing player scored 0).
        winners: the round's winner(s); ``None``: the players who scored more than 0.
    """

    scores: Mapping[str, int]
    winners: tuple[str, ...] | None = None

    def won_by(self) -> tuple[str, ...]:
        """The winners given, or the players with a positive score."""
        if self.winners is not None:
            return self.winners
        return tuple(n for n, v in self.scores.items() if v > 0)


@dataclass(frozen=True)
class _Tally:
    totals: dict[str, int] = field(default_factory=dict)
    wins: dict[str, int] = field(default_factory=dict)


def score_game(
    players: Sequence[str],
    rounds: Sequence[GameRound],
    options: CarouselOptions | None = None,
) -> GameResult:
    """Totals and game-end bonuses of a Carousel game (RULES.md §6, seed 003).

    The game ends after the round in which one or more players reach ``target`` (150). Each of
    them gets +``game_bonus`` (100); every other player gets +``round_bonus`` (25) for each
    round won (with ``round_bonus_all`` every player does). The highest total, bonuses
    included, wins; a tie gives ``winner = None`` and the tied names in ``winners``. A round
    scored after the end makes the game ``valid=False`` (``rounds_after_end``). Before the end
    there are no bonuses and ``finished`` is false.

    Args:
        players: the player names.
        rounds: the rounds, in order.
        options: Carousel options (``target``, ``game_bonus``, ``round_bonus``,
            ``round_bonus_all``).
    """
    opts = options or CarouselOptions()
    check_names(players)
    tally = _Tally({n: 0 for n in players}, {n: 0 for n in players})
    end: int | None = None
    for i, r in enumerate(rounds):
        if end is not None:
            said = line("car.game.rounds_after_end", end=end + 1, target=opts.target, n=i + 1)
            return GameResult(
                False,
                reason="rounds_after_end",
                message=f"{said.english()} ({RULE})",
                rule=RULE_SEED,
                detail={"ended_after": end + 1},
                line=said,
            )
        for n in players:
            tally.totals[n] += r.scores.get(n, 0)
        for n in r.won_by():
            if n in tally.wins:
                tally.wins[n] += 1
        if any(v >= opts.target for v in tally.totals.values()):
            end = i
    finished = end is not None
    bonuses = {n: 0 for n in players}
    why: dict[str, str] = {}
    why_lines: dict[str, Line] = {}
    if finished:
        for n in players:
            parts: list[Line] = []
            reached = tally.totals[n] >= opts.target
            if reached:
                bonuses[n] += opts.game_bonus
                parts.append(line("car.bonus.reached", target=opts.target, bonus=opts.game_bonus))
            if (not reached or opts.round_bonus_all) and tally.wins[n]:
                b = opts.round_bonus * tally.wins[n]
                bonuses[n] += b
                parts.append(
                    line("car.bonus.rounds", n=tally.wins[n], each=opts.round_bonus, bonus=b)
                )
            if len(parts) == 2:
                said_why = line("car.bonus.both", first=parts[0], second=parts[1])
            else:
                said_why = parts[0] if parts else line("car.bonus.none")
            why_lines[n] = said_why
            why[n] = said_why.english()
    totals = {n: tally.totals[n] + bonuses[n] for n in players}
    leaders = top_names(totals)
    winners = leaders if finished else ()
    winner = winners[0] if len(winners) == 1 else None
    if finished:
        said = line("car.game.finished", target=opts.target)
    else:
        said = line("car.game.ongoing", target=opts.target)
    message = said.english()
    return GameResult(
        True,
        totals,
        finished,
        winner,
        winners,
        leaders,
        bonuses,
        len(rounds),
        message=f"{message} ({RULE})",
        rule=RULE_SEED,
        line=said,
        detail={
            "round_wins": dict(tally.wins),
            "before_bonuses": dict(tally.totals),
            "bonus_why": why,
            "bonus_why_lines": {n: ln.to_json() for n, ln in why_lines.items()},
            "ended_after": None if end is None else end + 1,
            "target": opts.target,
        },
    )


# ---------------------------------------------------------------------------------------------
# Judge wrappers
# ---------------------------------------------------------------------------------------------


def hand_answer(req: Request) -> dict[str, Any]:
    """Judge ``hand`` for carousel (JUDGE.md): ``hand`` (cards; ``players`` N picks the deck,
    two decks when not given). ``deadwood`` is the hand value, ``melds`` [], ``unmatched`` the
    hand, ``can_knock`` by ``knock_max``, ``gin`` false, ``discard`` null."""
    assert isinstance(req.options, CarouselOptions)
    players = None
    if req.has("players"):
        lo, hi = CAROUSEL.players
        players = req.integer("players", lo=lo, hi=hi)
    return assess_hand(req.pieces("hand", players=players), req.options).to_json()


def round_answer(req: Request) -> dict[str, Any]:
    """Judge ``round`` for carousel (JUDGE.md): ``knocker`` (a name, or null when the stock ran
    out; the field must be present) and ``players`` [{name, hand}] (an empty hand went out)."""
    assert isinstance(req.options, CarouselOptions)
    if "knocker" not in req.raw:
        raise RequestError.keyed("req.no_knocker.carousel", "missing_field")
    knocker = req.string("knocker") if req.has("knocker") else None
    raw = request_players(req)
    n = len(raw)
    players = [
        CarouselPlayer(
            p["name"],
            tuple(req.pieces(f"players[{i}].hand", p.get("hand"), players=n)),
        )
        for i, p in enumerate(raw)
    ]
    return score_round(players, knocker, req.options).to_json()


def game_answer(req: Request) -> dict[str, Any]:
    """Judge ``game`` for carousel (JUDGE.md): ``players``, ``rounds`` [{scores, winners?}]."""
    assert isinstance(req.options, CarouselOptions)
    names, rounds = request_game(req)
    return score_game(names, [GameRound(s, w) for s, w in rounds], req.options).to_json()


__all__ = [
    "RULE",
    "RULE_SEED",
    "CarouselPlayer",
    "GameRound",
    "HandAssessment",
    "assess_hand",
    "game_answer",
    "hand_answer",
    "hand_value",
    "round_answer",
    "round_winners",
    "score_game",
    "score_round",
]
