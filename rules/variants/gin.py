"""Gin Rummy: hand analysis, round scoring and game totals (RULES.md §5, seed ``002_…``).

Typed API (the app calls these; the judge answers wrap them):

- :func:`analyse_hand` — least deadwood of 10 cards, or of the 10 kept after the best discard
  from 11 (:class:`HandAnalysis`).
- :func:`score_round` — one duel round: knock, gin, big gin, undercut or void
  (:class:`RoundResult`).
- :func:`score_solo_round` — one round of solo mode against "the joker".
- :func:`score_game` — totals with the game-end bonuses (:class:`GameResult`).

Judge requests (JUDGE.md), the ``options`` field giving :class:`~rules.options.GinOptions`:

``hand``: ``{"hand": [10 or 11 cards]}`` → ``deadwood``, ``melds``, ``unmatched``, ``can_knock``,
``gin``, ``discard`` (the best discard from 11, else null), ``big_gin`` (all 11 melded),
``big_gin_melds`` (when big gin), ``knock_max``, ``hand_value`` (all cards, points). Another card
count is a request error, code ``bad_hand_size``.

``round`` (duel, the default mode)::

    {"knocker": "A" | null, "void": false,
     "players": [{"name": "A", "hand": [10 or 11 cards]},
                 {"name": "B", "hand": [10 cards]}]}

``knocker: null`` or ``"void": true`` is a void hand (RULES.md §5 gap filled: stock down to 2
cards, nobody knocked): nobody scores. A player may give ``"deadwood": N`` (points, 0–100)
instead of ``hand``, the knocker also ``"gin": true`` or ``"big_gin": true``: the referee then
cannot compute lay-offs (a typed defender deadwood is taken as counted after lay-offs at the
table) and says so in ``layoffs_computed: false`` and the ``breakdown``. The knocker may hold 11
cards (the best discard is made for them; all 11 melded is big gin where the preset has a
``big_gin_bonus``, else gin). Answer: ``valid``, ``result`` (``knock``, ``gin``, ``big_gin``,
``undercut``, ``void``), ``scores``, ``winner`` (null when nobody wins: a void hand, or 0 for
both), ``winners``, ``knocker``,
``deadwood`` (the defender's after lay-offs), ``deadwood_before_layoffs``, ``layoffs``
(``[{"player", "card", "onto", "meld"}]``: card laid off onto the knocker's meld ``onto``, index
``meld`` in ``melds[knocker]``, in playing order), ``melds``/``unmatched`` per player with a
hand, ``discard`` (the knocker's discard from 11 cards, else null), ``layoffs_computed``,
``breakdown`` (the arithmetic, one English line each), ``message``, ``rule``. A round that cannot
have happened is ``{"valid": false, "reason", "message"}`` with no scores; reasons
``knock_above_limit``, ``wrong_hand_size``, ``too_many_copies`` (a card in both hands),
``knocker_not_a_player``, ``wrong_player_count``, ``gin_with_deadwood``.

``round`` in solo mode (``"options": {"mode": "solo"}``, seed ``002_…`` last paragraph)::

    {"players": [{"name": "Ala", "hand": [10 or 11 cards]}],      # or "deadwood": N
     "result": "knock" | "gin" | "second_joker",
     "turned": 12}                                                  # knock / gin only

``turned`` is the number of cards turned from the stock after the knock or gin until a joker
showed, the joker included (the seed: "the number of cards turned is your score"), 1–45. Scores:
knock — the player ``turned``, the joker the player's deadwood; gin — the player ``turned``, the
joker 0; second joker before any knock or gin — the player 0, the joker the player's deadwood.
The joker's score is keyed ``"joker"`` (a player may not be called that).

``game``: ``{"players": ["A", "B"], "rounds": [{"scores": {...}, "winners": [...]}, ...]}``
(a round answer can be passed as it is; ``"result": "void"`` rounds have no winners; a missing
``winners`` is the player(s) with a positive score) → ``valid``, ``totals`` (with bonuses),
``points`` (round scores only), ``bonuses`` (included in totals), ``boxes`` (rounds won),
``finished``, ``winner``, ``shutout``, ``ended_at_round``, ``breakdown``. The game ends after the
round in which a player reaches ``target``; rounds listed after that round make the answer
``valid: false``, reason ``round_after_game_end`` (a round scored past the end is not part of the
game; the app should start a new game). Bonuses, at the end only: ``game_bonus`` to the player
reaching the target (the higher total if both did in the same round; an exact tie gets no
bonus and no winner), ``box_bonus`` × rounds won to every player, and the shutout (only one
player won any round, and that player won the game): ``bonus`` +``shutout_bonus``; ``double`` the
winner's whole total (points, game bonus and boxes) doubled; ``none``. Solo mode: no bonuses,
the first to ``target`` wins (seed ``002_…``).

Decisions where the rules are silent (each also in the docstring where it applies):

- The knocker lays down the least-deadwood arrangement that leaves the defender the most
  deadwood after lay-offs (several exist when a card fits both a group and a run); with 11
  cards the choice is over every discard reaching the least deadwood and every arrangement of
  the 10 kept, together (RULES.md §5). Among equals: the discard tie-break of
  :mod:`rules.search.deadwood`, then the first arrangement.
- A knock with deadwood 0 is gin.
- A round that scores 0 for both (a tie where ``undercut_on_tie`` is off, a void hand, a 0
  undercut bonus on a tie) is won by nobody (RULES.md §5 gap filled): ``winner`` null,
  ``winners`` empty; the ``game`` check gives no box for a round whose scores are all 0, even if
  its ``winners`` name someone (as older versions stored), so it neither breaks nor makes a
  shutout. Box bonuses are added at the end and never count towards ``target``.
- Solo mode: ``turned`` counts the joker that stops the turning (RULES.md §5 gap filled).
- Gin and big gin: the defender lays nothing off (RULES.md §5).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from rules.errors import RequestError
from rules.options import GinOptions
from rules.pieces import GIN_DECK, Card, Piece
from rules.request import Request, as_int
from rules.search.deadwood import (
    Arrangement,
    Layoffs,
    best_arrangement,
    best_arrangements,
    best_discard,
    best_discards,
    best_layoffs,
    encode,
    hand_value,
    laid_out,
)
from rules.verdict import Line, Verdict, line

RULE: Final = "RULES.md §5; seed 002_…"
SOLO_RULE: Final = "RULES.md §5 solo mode; seed 002_… (last paragraph)"
SOLO_JOKER: Final = "joker"
"""The name the joker scores under in solo mode."""
MAX_TYPED_DEADWOOD: Final = 100
MAX_TURNED: Final = 45
NOBODY_WINS: Final = line("gin.nobody_wins")
_SEED_OPTIONS: Final = GinOptions()
"""The options when none are given (the seed preset; options are immutable, so one value
serves every call)."""
_new_object: Final = object.__new__
"""Makes a :class:`HandAnalysis` without its ``__init__`` (speed only: :func:`analyse_hand`)."""

RoundKind = Literal["knock", "gin", "big_gin", "undercut", "void", "second_joker"]


def _names(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def _melds_json(melds: Sequence[Sequence[Card]]) -> list[list[str]]:
    return [_names(m) for m in melds]


def _sorted(cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: c.sort_key()))


# -- hand ---------------------------------------------------------------------------------------


@dataclass(frozen=True, init=False)
class HandAnalysis:
    """A gin hand laid out with least deadwood (RULES.md §5).

    Attributes:
        deadwood: points in no meld (of the 10 kept, for 11 cards).
        melds: the melds (runs by rank, groups by suit).
        unmatched: the deadwood cards.
        can_knock: ``deadwood <= knock_max``.
        gin: deadwood 0.
        big_gin: 11 cards given and all 11 melded (scored as big gin only where the options
            have ``big_gin_bonus``; otherwise it is gin after the discard).
        discard: the best discard from 11 cards (tie: highest value, then rank, then suit
            S H D C), else ``None``.
        eleven: the arrangement of all 11 cards, when 11 were given and all are melded (big
            gin); else ``None``.
        knock_max: the limit applied (points).
        hand_value: value of every card given (points).
    """

    deadwood: int
    melds: tuple[tuple[Card, ...], ...]
    unmatched: tuple[Card, ...]
    can_knock: bool
    gin: bool
    big_gin: bool
    discard: Card | None
    eleven: Arrangement | None
    knock_max: int
    hand_value: int

    def __init__(
        self,
        deadwood: int,
        melds: tuple[tuple[Card, ...], ...],
        unmatched: tuple[Card, ...],
        can_knock: bool,
        gin: bool,
        big_gin: bool,
        discard: Card | None,
        eleven: Arrangement | None,
        knock_max: int,
        hand_value: int,
    ) -> None:
        # the fields at once (speed only: the frozen dataclass's own __init__ sets each one
        # through object.__setattr__, about 1 µs for the ten); the same state, still frozen
        self.__dict__.update(
            deadwood=deadwood,
            melds=melds,
            unmatched=unmatched,
            can_knock=can_knock,
            gin=gin,
            big_gin=big_gin,
            discard=discard,
            eleven=eleven,
            knock_max=knock_max,
            hand_value=hand_value,
        )

    @property
    def arrangement(self) -> Arrangement:
        """The 10-card arrangement as an :class:`~rules.search.deadwood.Arrangement`."""
        return Arrangement(self.deadwood, self.melds, self.unmatched)

    def to_json(self) -> dict[str, Any]:
        """The JUDGE.md ``hand`` fields."""
        out: dict[str, Any] = {
            "deadwood": self.deadwood,
            "melds": _melds_json(self.melds),
            "unmatched": _names(self.unmatched),
            "can_knock": self.can_knock,
            "gin": self.gin,
            "discard": str(self.discard) if self.discard is not None else None,
            "big_gin": self.big_gin,
            "knock_max": self.knock_max,
            "hand_value": self.hand_value,
        }
        if self.big_gin and self.eleven is not None:
            out["big_gin_melds"] = _melds_json(self.eleven.melds)
        return out


def _cards_only(pieces: Sequence[Piece], where: str) -> list[Card]:
    cards: list[Card] = []
    for p in pieces:
        if not isinstance(p, Card):
            raise RequestError.keyed("gin.not_a_card", "bad_token", field=where, piece=str(p))
        cards.append(p)
    return cards


def analyse_hand(cards: Sequence[Card], options: GinOptions | None = None) -> HandAnalysis:
    """Least-deadwood analysis of a gin hand (RULES.md §5).

    Args:
        cards: 10 cards, or 11 (the best discard is made; the result describes the 10 kept).
        options: gin options (``knock_max``); the seed preset when ``None``.

    Returns:
        :class:`HandAnalysis`.

    Raises:
        RequestError: not 10 or 11 cards (code ``bad_hand_size``).
        TooManyCopiesError: a card given twice.
    """
    opts = options or _SEED_OPTIONS
    n = len(cards)
    try:  # the Card-level calls (each card's packed value is cached on it: the fast path)
        if n == 10 or n == 11:
            deadwood, melds, unmatched, d = laid_out(cards)  # every field at once
        else:
            encode(cards)  # a card given twice is said before the hand's size
    except ValueError:
        GIN_DECK.check_copies(cards, "in the hand")  # names the card given twice
        raise
    if n != 10 and n != 11:
        said = Line("gin.bad_hand_size", {"n": len(cards)})
        raise RequestError(f"{said.english()} (RULES.md §5)", "bad_hand_size", said)
    if d is None:
        discard: Card | None = None
        big_gin = False
        eleven: Arrangement | None = None
    else:
        discard, big_gin = d.discard, d.big_gin
        eleven = d.eleven if big_gin else None
    # HandAnalysis(...) with its fields set at once (speed only: the call with ten keywords
    # and its __init__ take about twice as long); the same state, still frozen
    got = _new_object(HandAnalysis)
    knock_max = opts.knock_max
    got.__dict__.update(
        {
            "deadwood": deadwood,
            "melds": melds,
            "unmatched": unmatched,
            "can_knock": deadwood <= knock_max,
            "gin": deadwood == 0,
            "big_gin": big_gin,
            "discard": discard,
            "eleven": eleven,
            "knock_max": knock_max,
            "hand_value": hand_value(cards),
        }
    )
    return got


def _gin_options(req: Request) -> GinOptions:
    opts = req.options
    assert isinstance(opts, GinOptions)
    return opts


def hand_answer(req: Request) -> dict[str, Any]:
    """Answer a gin ``hand`` request: ``{"hand": [10 or 11 cards]}`` (module docstring).

    Raises:
        RulesError: bad tokens, a card twice, or not 10/11 cards (``bad_hand_size``).
    """
    cards = _cards_only(req.pieces("hand"), "hand")
    out = analyse_hand(cards, _gin_options(req)).to_json()
    if out["gin"]:  # the line the app shows (issue 15): key and params, no English message
        ln = line("gin.hand.gin")
    else:
        kind = "can_knock" if out["can_knock"] else "cannot_knock"
        ln = line(f"gin.hand.{kind}", deadwood=out["deadwood"], max=out["knock_max"])
    out["key"], out["params"] = ln.key, dict(ln.params)
    return out


# -- round --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerHand:
    """One player's part of a round request.

    Attributes:
        name: the player's name.
        hand: the cards held at the end (10; the knocker may give 11), or ``None`` when the
            deadwood is typed in.
        deadwood: typed-in deadwood (points) when ``hand`` is ``None``.
        gin: typed-in: the knocker went gin.
        big_gin: typed-in: the knocker went big gin.
    """

    name: str
    hand: tuple[Card, ...] | None = None
    deadwood: int | None = None
    gin: bool = False
    big_gin: bool = False


@dataclass(frozen=True)
class LaidOff:
    """One lay-off in a scored round: ``player`` laid ``card`` onto the knocker's meld number
    ``meld`` (0-based in the knocker's melds), which lay as ``onto`` at that moment (earlier
    lay-offs included)."""

    player: str
    card: Card
    onto: tuple[Card, ...]
    meld: int

    def to_json(self) -> dict[str, Any]:
        """``{"player", "card", "onto", "meld"}``."""
        return {
            "player": self.player,
            "card": str(self.card),
            "onto": _names(self.onto),
            "meld": self.meld,
        }


@dataclass(frozen=True)
class RoundResult:
    """A scored gin round, or why it cannot have happened.

    Attributes:
        verdict: valid, or the reason (``knock_above_limit``, ``wrong_hand_size``, …).
        result: ``knock``, ``gin``, ``big_gin``, ``undercut``, ``void`` (solo: also
            ``second_joker``); ``None`` when not valid.
        scores: points per player this round (0 for the others); solo mode adds ``"joker"``.
        winner: the player who scored the round; ``None`` when nobody did (a void hand, or 0 for
            both).
        knocker: the knocker (``None`` when void; the player in solo mode).
        deadwood: each player's deadwood as scored (the defender's after lay-offs).
        deadwood_before_layoffs: each player's least deadwood before lay-offs.
        melds: the melds of each player with a hand (the knocker's as laid down; the
            defender's own melds after lay-offs).
        unmatched: each such player's deadwood cards.
        layoffs: the defender's lay-offs, in playing order.
        discard: the knocker's discard when 11 cards were given.
        layoffs_computed: both hands were given (or no lay-offs apply), so lay-offs were found by
            the referee.
        breakdown: the arithmetic, one English line per step.
        params: JSON-ready numbers for messages (``turned`` in solo mode, …).
    """

    verdict: Verdict
    result: RoundKind | None = None
    scores: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    knocker: str | None = None
    deadwood: dict[str, int] = field(default_factory=dict)
    deadwood_before_layoffs: dict[str, int] = field(default_factory=dict)
    melds: dict[str, tuple[tuple[Card, ...], ...]] = field(default_factory=dict)
    unmatched: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    layoffs: tuple[LaidOff, ...] = ()
    discard: Card | None = None
    layoffs_computed: bool = True
    breakdown: tuple[str, ...] = ()
    params: dict[str, Any] = field(default_factory=dict)
    lines: tuple[Line, ...] = ()

    def __post_init__(self) -> None:
        if self.lines and not self.breakdown:  # English rendered once, from the templates
            object.__setattr__(self, "breakdown", tuple(ln.english() for ln in self.lines))

    @property
    def winners(self) -> list[str]:
        """The round's winner as a list (empty when nobody won it), as the game check takes it."""
        return [self.winner] if self.winner is not None else []

    def to_json(self) -> dict[str, Any]:
        """The JUDGE.md ``round`` answer (without ``ok``)."""
        out = self.verdict.to_json()
        if not self.verdict.valid:
            out.update(self.verdict.params)
            return out
        out.update(
            {
                "result": self.result,
                "scores": dict(self.scores),
                "winner": self.winner,
                "winners": self.winners,
                "knocker": self.knocker,
                "deadwood": dict(self.deadwood),
                "deadwood_before_layoffs": dict(self.deadwood_before_layoffs),
                "layoffs": [lo.to_json() for lo in self.layoffs],
                "melds": {n: _melds_json(m) for n, m in self.melds.items()},
                "unmatched": {n: _names(u) for n, u in self.unmatched.items()},
                "discard": str(self.discard) if self.discard is not None else None,
                "layoffs_computed": self.layoffs_computed,
                "breakdown": list(self.breakdown),
                "breakdown_lines": [ln.to_json() for ln in self.lines],
                **self.params,
            }
        )
        return out


VOID: Final = Line("gin.round.void", {})
"""The message of a void hand."""


def _bad(reason: str, ln: Line, rule: str = RULE, **params: Any) -> RoundResult:
    message = f"{ln.english()} ({rule.split(';')[0]})"
    return RoundResult(Verdict(False, reason, message, rule, dict(params), ln))


def _check_hands(
    players: Sequence[PlayerHand], knocker: str | None, solo: bool
) -> RoundResult | None:
    """Hand sizes and cards across hands; ``None`` when fine."""
    seen: dict[Card, str] = {}
    for p in players:
        if p.hand is None:
            continue
        n = len(p.hand)
        allowed = (10, 11) if (p.name == knocker or solo) else (10,)
        if n not in allowed:
            key = "gin.wrong_hand_size_knocker" if len(allowed) == 2 else "gin.wrong_hand_size"
            return _bad(
                "wrong_hand_size",
                Line(key, {"name": p.name, "n": n}),
                player=p.name,
                cards=n,
            )
        for c in p.hand:
            other = seen.get(c)
            if other is not None:
                return _bad(
                    "too_many_copies",
                    Line(
                        "gin.card_in_both_hands", {"card": str(c), "other": other, "name": p.name}
                    ),
                    card=str(c),
                )
            seen[c] = p.name
    return None


def _typed_or_hand(p: PlayerHand) -> tuple[int, HandAnalysis | None]:
    if p.hand is None:
        return (p.deadwood or 0), None
    a = analyse_hand(p.hand)
    return a.deadwood, a


def score_round(
    players: Sequence[PlayerHand],
    knocker: str | None,
    options: GinOptions | None = None,
    void: bool = False,
) -> RoundResult:
    """Score one two-player gin round (RULES.md §5, seed ``002_…``).

    Knock (knocker's deadwood ≤ ``knock_max``): the defender lays off onto the knocker's melds
    (``layoffs`` option; exact search, chains allowed); the knocker scores defender − knocker.
    Undercut (defender lower, or equal where ``undercut_on_tie``): the defender scores the
    difference + ``undercut_bonus``. Gin (deadwood 0): ``gin_bonus`` + the defender's full
    deadwood, no lay-offs. Big gin (the knocker's 11 cards all melded, where ``big_gin_bonus`` is
    set): ``big_gin_bonus`` + the defender's deadwood. Void (``knocker`` ``None`` or ``void``):
    nobody scores.

    Args:
        players: exactly two players, each with a hand (10 cards; the knocker may give 11) or
            a typed-in deadwood.
        knocker: the knocker's name, or ``None`` for a void hand.
        options: gin options; the seed preset when ``None``.
        void: the hand is void (the stock ran down to 2 cards without a knock).

    Returns:
        :class:`RoundResult`; ``verdict.valid`` is false for a round that cannot have happened
        (reasons in the module docstring).
    """
    opts = options or GinOptions()
    if opts.mode == "solo":
        raise ValueError("score_round scores duel rounds; use score_solo_round in solo mode")
    names = [p.name for p in players]
    if len(players) != 2:
        return _bad(
            "wrong_player_count",
            Line("gin.wrong_player_count", {"n": len(players)}),
            players=len(players),
        )
    if void or knocker is None:
        bad = _check_hands(players, None, False)
        if bad is not None:
            return bad
        return RoundResult(
            Verdict(
                True,
                None,
                f"{VOID.english()} (RULES.md §5)",
                RULE,
                line=VOID,
            ),
            result="void",
            scores={n: 0 for n in names},
            lines=(line("gin.void"),),
        )
    if knocker not in names:
        return _bad(
            "knocker_not_a_player",
            Line("gin.knocker_not_a_player", {"knocker": knocker, "names": ", ".join(names)}),
            knocker=knocker,
        )
    bad = _check_hands(players, knocker, False)
    if bad is not None:
        return bad
    kp = next(p for p in players if p.name == knocker)
    dp = next(p for p in players if p.name != knocker)
    lines: list[Line] = []
    melds: dict[str, tuple[tuple[Card, ...], ...]] = {}
    unmatched: dict[str, tuple[Card, ...]] = {}

    # the knocker
    discard: Card | None = None
    knocker_arrangements: list[Arrangement] = []
    knocker_discards: list[Card | None] = []  # the discard made for each arrangement
    big_gin = False
    if kp.hand is not None:
        kh = kp.hand
        if len(kh) == 11:
            d = best_discard(kh)
            discard = d.discard
            big_gin = d.big_gin and opts.big_gin_bonus is not None
            if big_gin:
                discard = None
                knocker_arrangements = [d.eleven]
                knocker_discards = [None]
                lines.append(line("gin.big_gin_melds", knocker=knocker))
            else:
                # every discard reaching the least deadwood, with every arrangement of the 10
                # kept: the knocker chooses over all of them together (RULES.md §5)
                for card in best_discards(kh):
                    kept = [c for c in kh if c != card]
                    for arr in best_arrangements(kept):
                        knocker_arrangements.append(arr)
                        knocker_discards.append(card)
        else:
            knocker_arrangements = best_arrangements(kh)
            knocker_discards = [None] * len(knocker_arrangements)
        k_dw = knocker_arrangements[0].deadwood
    else:
        if (kp.gin or kp.big_gin) and kp.deadwood not in (None, 0):
            return _bad(
                "gin_with_deadwood",
                Line("gin.gin_with_deadwood", {"name": knocker, "deadwood": kp.deadwood}),
                deadwood=kp.deadwood,
            )
        k_dw = kp.deadwood or 0
        if kp.big_gin:
            if opts.big_gin_bonus is not None:
                big_gin = True
            else:
                lines.append(line("gin.big_gin_not_played", preset=opts.preset))
    if k_dw > opts.knock_max:
        return _bad(
            "knock_above_limit",
            Line(
                "gin.knock_above_limit",
                {"name": knocker, "deadwood": k_dw, "max": opts.knock_max, "preset": opts.preset},
            ),
            deadwood=k_dw,
            knock_max=opts.knock_max,
        )

    # the defender before lay-offs
    d_arr: Arrangement | None = None
    if dp.hand is not None:
        d_arr = best_arrangement(dp.hand)
        d_before = d_arr.deadwood
    else:
        d_before = dp.deadwood or 0
    deadwood_before = {knocker: k_dw, dp.name: d_before}
    scores = {n: 0 for n in names}
    computed = kp.hand is not None and dp.hand is not None

    if k_dw == 0:
        kind: RoundKind = "big_gin" if big_gin else "gin"
        bonus = (opts.big_gin_bonus or 0) if big_gin else opts.gin_bonus
        scores[knocker] = bonus + d_before
        if knocker_arrangements:
            melds[knocker] = knocker_arrangements[0].melds
            unmatched[knocker] = ()
        if d_arr is not None:
            melds[dp.name] = d_arr.melds
            unmatched[dp.name] = d_arr.unmatched
        if discard is not None:
            lines.append(line("gin.discards", knocker=knocker, card=str(discard)))
        what = "big_gin" if big_gin else "gin"
        lines.append(line(f"gin.goes_{what}", knocker=knocker))
        lines.append(
            line(
                f"gin.{what}_score",
                knocker=knocker,
                bonus=bonus,
                deadwood=d_before,
                defender=dp.name,
                total=scores[knocker],
            )
        )
        said = line(
            "gin.round.big_gin" if big_gin else "gin.round.gin",
            name=knocker,
            points=scores[knocker],
        )
        message = f"{said.english()} (RULES.md §5)"
        if not scores[knocker]:
            lines.append(NOBODY_WINS)
        return RoundResult(
            Verdict(True, None, message, RULE, line=said),
            result=kind,
            scores=scores,
            winner=knocker if scores[knocker] else None,
            knocker=knocker,
            deadwood={knocker: 0, dp.name: d_before},
            deadwood_before_layoffs=deadwood_before,
            melds=melds,
            unmatched=unmatched,
            discard=discard,
            layoffs_computed=True,
            lines=tuple(lines),
        )

    # a knock: lay-offs
    layoffs: tuple[LaidOff, ...] = ()
    d_after = d_before
    if opts.layoffs and computed and dp.hand is not None:
        # the knocker lays what leaves the defender most deadwood, over every tied discard and
        # arrangement together; among equals the first (discard tie-break order)
        best: tuple[Arrangement, Layoffs, Card | None] | None = None
        for arr, made in zip(knocker_arrangements, knocker_discards, strict=True):
            lo = best_layoffs(dp.hand, arr.melds)
            if best is None or lo.deadwood > best[1].deadwood:
                best = (arr, lo, made)
        assert best is not None
        k_arr, lo, discard = best
        if discard is not None:
            lines.append(line("gin.discards", knocker=knocker, card=str(discard)))
        lines.append(line("gin.knocks", knocker=knocker, deadwood=k_dw))
        d_after = lo.deadwood
        lying = [list(m) for m in k_arr.melds]
        laid: list[LaidOff] = []
        for one in lo.layoffs:
            laid.append(LaidOff(dp.name, one.card, _sorted(lying[one.meld]), one.meld))
            lying[one.meld].append(one.card)
        layoffs = tuple(laid)
        melds[knocker] = k_arr.melds
        unmatched[knocker] = k_arr.unmatched
        melds[dp.name] = lo.melds
        unmatched[dp.name] = lo.unmatched
        if len(knocker_arrangements) > 1:
            choice = "discard" if len(set(knocker_discards)) > 1 else "arrangement"
            lines.append(line(f"gin.lays_down_{choice}", knocker=knocker, defender=dp.name))
        lines.append(line("gin.before_layoffs", defender=dp.name, deadwood=d_before))
        if layoffs:
            for x in layoffs:
                lines.append(
                    line(
                        "gin.lays_off",
                        defender=dp.name,
                        card=str(x.card),
                        meld=" ".join(_names(x.onto)),
                    )
                )
            lines.append(line("gin.after_layoffs", defender=dp.name, deadwood=d_after))
        else:
            lines.append(line("gin.nothing_to_lay_off", defender=dp.name))
    else:
        if discard is not None:
            lines.append(line("gin.discards", knocker=knocker, card=str(discard)))
        lines.append(line("gin.knocks", knocker=knocker, deadwood=k_dw))
        if knocker_arrangements:
            melds[knocker] = knocker_arrangements[0].melds
            unmatched[knocker] = knocker_arrangements[0].unmatched
        if d_arr is not None:
            melds[dp.name] = d_arr.melds
            unmatched[dp.name] = d_arr.unmatched
        if not opts.layoffs:
            lines.append(line("gin.layoffs_off", defender=dp.name, deadwood=d_before))
        elif dp.hand is None:
            lines.append(line("gin.typed_defender", defender=dp.name, deadwood=d_before))
        else:
            lines.append(
                line("gin.typed_knocker", defender=dp.name, deadwood=d_before, knocker=knocker)
            )
    deadwood = {knocker: k_dw, dp.name: d_after}
    undercut = d_after < k_dw or (d_after == k_dw and opts.undercut_on_tie)
    if undercut:
        diff = k_dw - d_after
        scores[dp.name] = diff + opts.undercut_bonus
        winner: str | None = dp.name
        lines.append(
            line(
                "gin.undercut_tie" if diff == 0 else "gin.undercut",
                defender=dp.name,
                knocker_deadwood=k_dw,
                deadwood=d_after,
                diff=diff,
                bonus=opts.undercut_bonus,
                total=scores[dp.name],
            )
        )
        said = line("gin.round.undercut", name=dp.name, points=scores[dp.name])
        message = f"{said.english()} (RULES.md §5)"
        kind = "undercut"
    else:
        scores[knocker] = d_after - k_dw
        winner = knocker
        lines.append(
            line(
                "gin.knock_score",
                knocker=knocker,
                deadwood=d_after,
                knocker_deadwood=k_dw,
                total=scores[knocker],
            )
        )
        if d_after == k_dw:
            lines.append(line("gin.tie_not_undercut"))
        said = line("gin.round.knock", name=knocker, points=scores[knocker])
        message = f"{said.english()} (RULES.md §5)"
        kind = "knock"
    if not any(scores.values()):
        # RULES.md §5 (gap filled): a round scoring 0 for both is won by nobody
        winner = None
        lines.append(NOBODY_WINS)
    return RoundResult(
        Verdict(True, None, message, RULE, line=said),
        result=kind,
        scores=scores,
        winner=winner,
        knocker=knocker,
        deadwood=deadwood,
        deadwood_before_layoffs=deadwood_before,
        melds=melds,
        unmatched=unmatched,
        layoffs=layoffs,
        discard=discard,
        layoffs_computed=computed or not opts.layoffs,
        lines=tuple(lines),
    )


SoloResult = Literal["knock", "gin", "second_joker"]


def score_solo_round(
    player: PlayerHand,
    result: SoloResult,
    turned: int | None,
    options: GinOptions | None = None,
) -> RoundResult:
    """Score one solo-mode round against "the joker" (RULES.md §5 solo mode, seed ``002_…``).

    Args:
        player: the player, with a hand (10 or 11 cards) or typed-in ``deadwood``.
        result: ``knock``, ``gin`` or ``second_joker`` (the second joker showed before any
            knock or gin).
        turned: cards turned from the stock after the knock or gin until a joker showed, the
            joker included (1–45); ignored for ``second_joker``.
        options: gin options (``knock_max``).

    Returns:
        :class:`RoundResult` with scores ``{player: turned or 0, "joker": deadwood or 0}``.
        Not valid: ``knock_above_limit``, ``gin_with_deadwood``, ``wrong_hand_size``.

    Raises:
        RequestError: ``turned`` missing or out of range for a knock or gin (``bad_field``).
    """
    opts = options or GinOptions()
    name = player.name
    if name.casefold() == SOLO_JOKER:
        raise RequestError.keyed("gin.solo_joker_name", "bad_field", joker=SOLO_JOKER)
    bad = _check_hands([player], name, True)
    if bad is not None:
        return bad
    dw, analysis = _typed_or_hand(player)
    melds: dict[str, tuple[tuple[Card, ...], ...]] = {}
    unmatched: dict[str, tuple[Card, ...]] = {}
    if analysis is not None:
        melds[name] = analysis.melds
        unmatched[name] = analysis.unmatched
    lines: list[Line] = []
    winner_or_none: str | None
    if result in ("knock", "gin"):
        if turned is None:
            raise RequestError.keyed("req.no_turned", "missing_field")
        if not 1 <= turned <= MAX_TURNED:
            raise RequestError.keyed("gin.turned_range", "bad_field", n=turned, most=MAX_TURNED)
        if result == "gin" and dw > 0:
            return _bad(
                "gin_with_deadwood",
                Line("gin.gin_with_deadwood", {"name": name, "deadwood": dw}),
                SOLO_RULE,
                deadwood=dw,
            )
        if dw > opts.knock_max:
            return _bad(
                "knock_above_limit",
                Line(
                    "gin.knock_above_limit",
                    {"name": name, "deadwood": dw, "max": opts.knock_max, "preset": opts.preset},
                ),
                SOLO_RULE,
                deadwood=dw,
                knock_max=opts.knock_max,
            )
        kind: RoundKind = "gin" if dw == 0 else "knock"
        scores = {name: turned, SOLO_JOKER: dw}
        if dw == 0:
            lines.append(line("gin.solo_goes_gin", name=name))
        else:
            lines.append(line("gin.solo_knocks", name=name, deadwood=dw))
        lines.append(line("gin.solo_turned", name=name, turned=turned))
        lines.append(line("gin.solo_joker_scores", name=name, deadwood=dw))
        winner_or_none = name
        said = line(f"gin.round.solo_{kind}", name=name, turned=turned, deadwood=dw)
        message = f"{said.english()} (RULES.md §5)"
    else:
        kind = "second_joker"
        scores = {name: 0, SOLO_JOKER: dw}
        lines.append(line("gin.solo_second_joker", name=name, deadwood=dw))
        winner_or_none = SOLO_JOKER
        if not dw:
            winner_or_none = None
            lines.append(NOBODY_WINS)
        said = line("gin.round.second_joker", deadwood=dw)
        message = f"{said.english()} (RULES.md §5)"
    return RoundResult(
        Verdict(True, None, message, SOLO_RULE, line=said),
        result=kind,
        scores=scores,
        winner=winner_or_none,
        knocker=name if kind != "second_joker" else None,
        deadwood={name: dw},
        deadwood_before_layoffs={name: dw},
        melds=melds,
        unmatched=unmatched,
        discard=analysis.discard if analysis is not None else None,
        layoffs_computed=True,
        lines=tuple(lines),
        params={"turned": turned if kind != "second_joker" else None},
    )


def _read_players(req: Request, limit: int) -> list[PlayerHand]:
    raw = req.items("players", limit=limit + 1)
    out: list[PlayerHand] = []
    seen: set[str] = set()
    for i, entry in enumerate(raw):
        where = f"players[{i}]"
        if not isinstance(entry, Mapping):
            raise RequestError.keyed("req.player_not_object", "bad_field", field=where)
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            raise RequestError.keyed("req.player_no_name", "bad_field", field=where)
        if name in seen:
            raise RequestError.keyed("players.twice", "bad_field", player=name)
        seen.add(name)
        has_hand = entry.get("hand") is not None
        has_dw = entry.get("deadwood") is not None
        if has_hand and has_dw:
            raise RequestError.keyed("gin.hand_or_deadwood", "bad_field", field=where)
        if not has_hand and not has_dw:
            raise RequestError.keyed("gin.no_hand", "missing_field", field=where)
        gin = entry.get("gin", False)
        big = entry.get("big_gin", False)
        if not isinstance(gin, bool) or not isinstance(big, bool):
            raise RequestError.keyed("req.gin_flags_not_bool", "bad_field", field=where)
        if has_hand:
            if gin or big:
                raise RequestError.keyed("req.gin_flags_with_hand", "bad_field", field=where)
            hand = tuple(_cards_only(req.pieces(f"{where}.hand", entry["hand"]), where))
            out.append(PlayerHand(name, hand))
        else:
            dw = as_int(entry["deadwood"], f"{where}.deadwood", 0, MAX_TYPED_DEADWOOD)
            out.append(PlayerHand(name, None, dw, gin, big))
    return out


def round_answer(req: Request) -> dict[str, Any]:
    """Answer a gin ``round`` request, duel or solo (request shapes in the module docstring).

    Raises:
        RulesError: unusable request (bad tokens, a card twice in one hand, missing fields).
    """
    opts = _gin_options(req)
    if opts.mode == "solo":
        players = _read_players(req, 1)
        if len(players) != 1:
            return _bad(
                "wrong_player_count",
                Line("gin.solo_wrong_player_count", {"n": len(players)}),
                SOLO_RULE,
                players=len(players),
            ).to_json()
        text = req.string("result", choices=("knock", "gin", "second_joker"))
        result: SoloResult = (
            "knock" if text == "knock" else "gin" if text == "gin" else "second_joker"
        )
        turned = req.integer("turned") if req.has("turned") else None
        return score_solo_round(players[0], result, turned, opts).to_json()
    players = _read_players(req, 2)
    void = req.boolean("void", False)
    if "knocker" not in req.raw and not void:
        raise RequestError.keyed("req.no_knocker.gin", "missing_field")
    knocker = None if req.raw.get("knocker") is None else req.string("knocker")
    return score_round(players, knocker, opts, void).to_json()


# -- game ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRound:
    """One scored round as the game totals need it.

    Attributes:
        scores: points per player (missing players 0).
        winners: who won the round (box bonus); empty for a void hand.
    """

    scores: Mapping[str, int]
    winners: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameResult:
    """Game totals (RULES.md §5 Game).

    Attributes:
        verdict: valid, or ``round_after_game_end`` / ``wrong_player_count``.
        totals: points + bonuses per player.
        points: round scores summed, per player.
        bonuses: the game-end bonuses per player (included in ``totals``).
        boxes: rounds won per player.
        finished: a player reached the target.
        winner: the game's winner (``None`` while running, or on an exact tie).
        shutout: only the winner won any round.
        ended_at_round: 1-based round in which the target was reached.
        breakdown: one English line per bonus.
    """

    verdict: Verdict
    totals: dict[str, int] = field(default_factory=dict)
    points: dict[str, int] = field(default_factory=dict)
    bonuses: dict[str, int] = field(default_factory=dict)
    boxes: dict[str, int] = field(default_factory=dict)
    finished: bool = False
    winner: str | None = None
    shutout: bool = False
    ended_at_round: int | None = None
    breakdown: tuple[str, ...] = ()
    lines: tuple[Line, ...] = ()

    def __post_init__(self) -> None:
        if self.lines and not self.breakdown:  # English rendered once, from the templates
            object.__setattr__(self, "breakdown", tuple(ln.english() for ln in self.lines))

    def to_json(self) -> dict[str, Any]:
        """The JUDGE.md ``game`` answer (without ``ok``)."""
        out = self.verdict.to_json()
        if self.verdict.reason == "round_after_game_end":
            out["ended_at_round"] = self.ended_at_round
        if not self.verdict.valid:
            return out
        out.update(
            {
                "totals": dict(self.totals),
                "points": dict(self.points),
                "bonuses": dict(self.bonuses),
                "boxes": dict(self.boxes),
                "finished": self.finished,
                "winner": self.winner,
                "shutout": self.shutout,
                "ended_at_round": self.ended_at_round,
                "breakdown": list(self.breakdown),
                "breakdown_lines": [ln.to_json() for ln in self.lines],
            }
        )
        return out


def score_game(
    players: Sequence[str], rounds: Sequence[GameRound], options: GinOptions | None = None
) -> GameResult:
    """Totals of a gin game with the end-of-game bonuses (RULES.md §5 Game, seed ``002_…``).

    The game ends after the round in which a player's points reach ``target``. Then: the
    ``game_bonus`` to that player (the higher total if both did; an exact tie: no winner, no
    game bonus); ``box_bonus`` for every round won, to every player; shutout (only the winner
    won any round): ``bonus`` adds ``shutout_bonus``, ``double`` doubles the winner's whole
    total (points + game bonus + boxes). Solo mode: no bonuses; the first to ``target`` wins.
    No bonuses while the game runs, and they never count towards ``target``. A round whose
    scores are all 0 is won by nobody (no box, whatever its ``winners``; RULES.md §5 gap filled).

    Args:
        players: the two names (solo mode: the player and ``"joker"``).
        rounds: the scored rounds in order.
        options: gin options; the seed preset when ``None``.

    Returns:
        :class:`GameResult`; not valid when rounds follow the round that ended the game
        (``round_after_game_end``) or there are not two players (``wrong_player_count``).
    """
    opts = options or GinOptions()
    if len(players) != 2:
        said = line("gin.game_wrong_player_count", n=len(players))
        return GameResult(
            Verdict(
                False,
                "wrong_player_count",
                f"{said.english()} (RULES.md §5)",
                RULE,
                {"players": len(players)},
                said,
            )
        )
    points = {p: 0 for p in players}
    boxes = {p: 0 for p in players}
    for rnd in rounds:
        strangers = (set(rnd.scores) | set(rnd.winners)) - set(players)
        if strangers:
            raise ValueError(f"not players of this game: {', '.join(sorted(strangers))}")
    ended: int | None = None
    for i, rnd in enumerate(rounds, 1):
        if ended is not None:
            said = line("gin.round_after_game_end", n=i, end=ended, target=opts.target)
            return GameResult(
                Verdict(
                    False,
                    "round_after_game_end",
                    f"{said.english()} (RULES.md §5)",
                    RULE,
                    {"round": i},
                    said,
                ),
                ended_at_round=ended,
            )
        for p, v in rnd.scores.items():
            points[p] += v
        if any(rnd.scores.values()):  # a round scoring 0 for both is won by nobody
            for w in rnd.winners:
                boxes[w] += 1
        if any(points[p] >= opts.target for p in players):
            ended = i
    bonuses = {p: 0 for p in players}
    lines: list[Line] = []
    winner: str | None = None
    shutout = False
    if ended is not None:
        reached = sorted((p for p in players if points[p] >= opts.target), key=lambda p: -points[p])
        if len(reached) == 1 or points[reached[0]] > points[reached[1]]:
            winner = reached[0]
        lines.append(
            line("gin.game_winner", name=winner, target=opts.target)
            if winner is not None
            else line("gin.game_tie", target=opts.target, points=points[reached[0]])
        )
        if opts.mode == "duel":
            if winner is not None and opts.game_bonus:
                bonuses[winner] += opts.game_bonus
                lines.append(line("gin.game_bonus", name=winner, bonus=opts.game_bonus))
            for p in players:
                if boxes[p] and opts.box_bonus:
                    bonuses[p] += boxes[p] * opts.box_bonus
                    lines.append(
                        line(
                            "gin.box_bonus",
                            name=p,
                            rounds=boxes[p],
                            bonus=opts.box_bonus,
                            total=boxes[p] * opts.box_bonus,
                        )
                    )
            shutout = winner is not None and all(boxes[p] == 0 for p in players if p != winner)
            if shutout and winner is not None:
                if opts.shutout == "bonus":
                    bonuses[winner] += opts.shutout_bonus
                    lines.append(line("gin.shutout_bonus", name=winner, bonus=opts.shutout_bonus))
                elif opts.shutout == "double":
                    whole = points[winner] + bonuses[winner]
                    bonuses[winner] += whole
                    lines.append(
                        line("gin.shutout_double", name=winner, total=whole, doubled=2 * whole)
                    )
        else:
            lines.append(line("gin.solo_no_bonuses"))
    totals = {p: points[p] + bonuses[p] for p in players}
    if ended is None:
        said = line("gin.game.running")
    elif winner is not None:
        said = line("gin.game.over", name=winner)
    else:
        said = line("gin.game.over_tie")
    return GameResult(
        Verdict(True, None, f"{said.english()} (RULES.md §5)", RULE, line=said),
        totals=totals,
        points=points,
        bonuses=bonuses,
        boxes=boxes,
        finished=ended is not None,
        winner=winner,
        shutout=shutout,
        ended_at_round=ended,
        lines=tuple(lines),
    )


def game_answer(req: Request) -> dict[str, Any]:
    """Answer a gin ``game`` request (module docstring).

    Raises:
        RulesError: unknown player names in scores or winners, bad types (``bad_field``).
    """
    raw_players = req.items("players", limit=12)
    players: list[str] = []
    for i, p in enumerate(raw_players):
        name = p.get("name") if isinstance(p, Mapping) else p
        if not isinstance(name, str) or not name:
            raise RequestError.keyed("req.player_not_name", "bad_field", field=f"players[{i}]")
        if name in players:
            raise RequestError.keyed("players.twice", "bad_field", player=name)
        players.append(name)
    rounds: list[GameRound] = []
    for i, r in enumerate(req.items("rounds", limit=10_000)):
        where = f"rounds[{i}]"
        if not isinstance(r, Mapping):
            raise RequestError.keyed("req.not_object", "bad_field", field=where)
        if r.get("valid") is False:
            raise RequestError.keyed("req.round_not_valid", "bad_field", field=where)
        raw_scores = r.get("scores", {})
        if not isinstance(raw_scores, Mapping):
            raise RequestError.keyed("req.scores_not_object", "bad_field", field=where)
        scores: dict[str, int] = {}
        for name, v in raw_scores.items():
            if name not in players:
                raise RequestError.keyed(
                    "req.scores_not_player.gin", "bad_field", field=where, player=name
                )
            scores[name] = as_int(v, f"{where}.scores.{name}", -100_000, 100_000)
        void = r.get("result") == "void"
        raw_winners = r.get("winners")
        if void:
            winners: tuple[str, ...] = ()
        elif raw_winners is None:
            winners = tuple(p for p in players if scores.get(p, 0) > 0)
        else:
            if not isinstance(raw_winners, list) or not all(
                isinstance(w, str) and w in players for w in raw_winners
            ):
                raise RequestError.keyed("req.winners_not_players", "bad_field", field=where)
            winners = tuple(dict.fromkeys(raw_winners))
        rounds.append(GameRound(scores, winners))
    return score_game(players, rounds, _gin_options(req)).to_json()


__all__ = [
    "GameResult",
    "GameRound",
    "HandAnalysis",
    "LaidOff",
    "PlayerHand",
    "RoundResult",
    "SoloResult",
    "analyse_hand",
    "game_answer",
    "hand_answer",
    "round_answer",
    "score_game",
    "score_round",
    "score_solo_round",
]
