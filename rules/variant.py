"""The variants, one description each: what a variant plays with and how it is judged.

A :class:`Variant` says everything the judge, the command line and the app need to know about
one variant (python-chess's variant classes are the model): its pieces and their copy limits,
its meld rules (RULES.md §2), player counts, options and presets, which judge checks it
answers and the functions answering them (one signature for all: :class:`VariantRules`), how a
game ends, its penalty draws, whether the first player deals or starts, where its rules
stand (RULES.md section, seed) and its rule-book sections: the section every answer's
``rule_ref`` names (:meth:`Variant.section_for` where the check names none).
:data:`REGISTRY` holds the five and any variant a module of ``rules/variants/`` describes;
:func:`find_variant` looks one up by name.

>>> find_variant("carousel").meld_rules.ace_high
True
>>> find_variant("rummy101").piece_set().size
106
>>> find_variant("gin").players
(2, 2)
>>> find_variant("tile_rummy").default_preset
'rummikub'
>>> [v.name for v in REGISTRY if v.answers("hand")]
['gin', 'carousel']

The variant's functions are imported on first use (the judge starts fast): a variant module is
loaded only when a request of that variant asks for it.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol, runtime_checkable

import rules.options as _options
from rules.errors import OptionError, RequestError
from rules.options import (
    JOKER_RULES,
    CarouselOptions,
    GinOptions,
    Options,
    OptionsType,
    Rummy101Options,
    TileRummyOptions,
    VariantName,
    check_variant,
    coerce_option,
    option_choices,
    option_range,
)
from rules.pieces import GIN_DECK, TILE_SET, Material, PieceSet, carousel_set
from rules.verdict import RuleRef
from rules.verdict import rule_ref as _make_ref

if TYPE_CHECKING:
    from rules.request import Request

CheckName = Literal["meld", "opening", "turn", "split", "hand", "round", "game"]
CHECK_NAMES: Final[tuple[CheckName, ...]] = (
    "meld",
    "opening",
    "turn",
    "split",
    "hand",
    "round",
    "game",
)
"""The judge's checks (JUDGE.md), in the order its answers list them."""


@dataclass(frozen=True, slots=True)
class MeldRules:
    """The meld rules of one variant (RULES.md §2).

    Attributes:
        variant: the variant name.
        material: ``"tiles"`` or ``"cards"``.
        pairs: pairs are melds (Rummy 101 only).
        ace_high: an ace may also follow the king in a run (Carousel: Q-K-A), never wrap.
        jokers: the variant plays with wild jokers (all but gin).
        max_run: longest run (13).
        max_group: largest group (4).
    """

    variant: VariantName
    material: Material
    pairs: bool
    ace_high: bool
    jokers: bool
    max_run: int = 13
    max_group: int = 4


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How a game of one variant ends (RULES.md §3–§6). Higher totals are better in every
    variant: whoever has the highest total when the game ends wins.

    Attributes:
        target: the variant's own target score (its ``target`` option's default: gin 100,
            Carousel 150), ``None`` when the game has no end of its own.
        agreed: where an agreed end is kept. ``"options"``: the ``games`` (rounds) and
            ``target`` options, judged by the ``game`` check (Tile Rummy, My Rummy);
            ``"game"``: with the game itself, the rounds sent to the judge as
            ``rounds_planned`` and a target applied by whoever keeps the score, the judge
            having no field for it (Rummy 101); ``None``: no agreed end, only the target
            option may be changed (Gin, Carousel).
        by_agreement: the players may stop the game when they like (time is up): the
            judge's ``ended`` field (Tile Rummy, My Rummy) or the rounds played becoming
            the agreed number (Rummy 101).
    """

    target: int | None
    agreed: Literal["options", "game"] | None
    by_agreement: bool

    @property
    def agreed_rounds(self) -> bool:
        """Players may agree on a number of rounds."""
        return self.agreed is not None


@dataclass(frozen=True, slots=True)
class PenaltyDraws:
    """What a fault costs (RULES.md §4): an invalid turn, or the turn's time running out.

    Attributes:
        tiles: tiles the player draws from the pool (3).
        take_back: the player takes back the tiles that could not be placed (My Rummy);
            else the table goes back as it was before the turn (Tile Rummy).
    """

    tiles: int
    take_back: bool


@runtime_checkable
class VariantRules(Protocol):
    """What a variant does, one signature for every variant: a judge request in
    (:class:`rules.request.Request`, its ``variant`` this one), the answer's fields out (the
    JSON object of JUDGE.md without ``ok``).

    Each raises :class:`~rules.errors.RulesError` for a request it cannot judge (a bad field,
    a bad token, too many copies; ``unsupported_check`` for a check the variant does not
    answer).
    """

    def read_meld(self, req: Request) -> dict[str, Any]:
        """Read one meld (``meld`` check, RULES.md §2)."""
        ...

    def judge_opening(self, req: Request) -> dict[str, Any]:
        """Judge an opening / initial meld (``opening`` check)."""
        ...

    def judge_turn(self, req: Request) -> dict[str, Any]:
        """Judge one turn on the table (``turn`` check)."""
        ...

    def judge_split(self, req: Request) -> dict[str, Any]:
        """Say whether a heap of pieces splits into melds (``split`` check)."""
        ...

    def judge_hand(self, req: Request) -> dict[str, Any]:
        """Judge a hand: deadwood, hand value, may it knock (``hand`` check)."""
        ...

    def score_round(self, req: Request) -> dict[str, Any]:
        """Score one finished round (``round`` check)."""
        ...

    def score_game(self, req: Request) -> dict[str, Any]:
        """Total a game: bonuses, its end and winner (``game`` check)."""
        ...


Answer = Callable[["Request"], dict[str, Any]]
"""One check's function: a request in, the answer's fields out."""

_NO_SECTIONS: Final[Mapping[str, str]] = MappingProxyType({})

CHECK_SECTIONS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "meld": "melds",
        "split": "melds",
        "opening": "opening",
        "turn": "turn",
        "hand": "scoring",
        "round": "scoring",
        "game": "scoring",
    }
)
"""The rule-book section a check's verdict opens when nothing more precise is known (a
variant's :attr:`Variant.check_sections` say where it differs)."""

_MELD_REASONS: Final = (
    "empty_meld",
    "too_short",
    "run_mixed_colours",
    "run_too_long",
    "run_repeated_number",
    "run_wraps",
    "ace_after_king",
    "run_gap",
    "group_mixed_numbers",
    "group_too_big",
    "group_repeated_colour",
    "not_a_pair",
    "not_a_meld",
    "invalid_meld",
    "no_split",
)

REASON_SECTIONS: Final[Mapping[str, str]] = MappingProxyType(
    {
        **{r: "melds" for r in _MELD_REASONS},
        # reading a meld, the notation (RULES.md §1)
        "no_real_tile": "reading",
        "bad_token": "reading",
        "bad_declaration": "reading",
        # the set and the deal
        "too_many_copies": "players",
        "player_count": "players",
        "wrong_player_count": "players",
        "bad_hand_size": "players",
        "wrong_hand_size": "players",
        "hand_too_large": "players",
        # openings
        "no_melds": "opening",
        "tile_not_in_hand": "opening",
        "no_tile_to_discard": "opening",
        "below_threshold": "opening",
        "mixed_pairs_and_melds": "pairs",
        "too_few_pairs": "pairs",
        "discard_not_used": "discard",
        "below_initial_meld": "opening",
        "manipulated_before_initial_meld": "opening",
        # a turn on a shared table
        "tile_not_on_rack": "turn",
        "tile_taken_from_table": "turn",
        "nothing_played": "turn",
        "joker_rule": "jokers",
        # a Rummy 101 turn
        "table_rearranged": "after_opening",
        "joker_wrong_tile": "jokers",
        "lay_off_onto_pair": "after_opening",
        "joker_before_opening": "jokers",
        "lay_off_before_opening": "after_opening",
        "pairs_opener_run": "after_opening",
        "pairs_not_allowed": "after_opening",
        # rounds
        "two_winners": "scoring",
        "winner_in_stock_out": "finishing",
        "no_winner": "finishing",
        "opened_in_one_turn": "finishing",
        "winner_has_tiles": "scoring",
        "empty_hand": "finishing",
        "negative_hand_value": "scoring",
        "impossible_hand_value": "scoring",
        "empty_rack_not_winner": "scoring",
        "knock_above_limit": "knock",
        "out_in_knocked_round": "scoring",
        "knocker_not_a_player": "knock",
        "gin_with_deadwood": "gin",
        # games
        "too_many_rounds": "scoring",
        "rounds_after_end": "scoring",
        "round_after_game_end": "game",
        # option errors
        "unknown_option": "options",
        "bad_option": "options",
    }
)
"""The rule-book section of each reason code (verdicts) and of each input error a player can
cause (``bad_token``, ``too_many_copies``, option errors), where the variant does not say
otherwise (:attr:`Variant.reason_sections`)."""

_CHECK_REASON_SECTIONS: Final[Mapping[tuple[str, str], str]] = MappingProxyType(
    {("opening", "tile_not_on_rack"): "opening", ("opening", "invalid_meld"): "melds"}
)
"""Where a code means something else in one check (a rack tile of an opening)."""


def _paragraphs(rule: str) -> list[int]:
    """The ``§N`` numbers of a ``rule`` text, in order."""
    return [int(n) for n in _PARAGRAPH.findall(rule)]


_PARAGRAPH: Final = re.compile(r"§\s*(\d+)")


@dataclass(frozen=True, slots=True, eq=False)
class Variant:
    """One variant: everything about it that is not a rule's own logic.

    Attributes:
        name: the variant's name in requests and storage (``rummy101`` …).
        display_name: its English name (the app translates it).
        meld_rules: the meld rules (material, pairs, ace high, jokers).
        pieces: the set it is played with by player count (copy limits: ``copies`` of each
            numbered piece, ``jokers`` in all); see :meth:`piece_set`.
        players: fewest and most players.
        options_type: the dataclass of its options.
        presets: the named presets, the default first.
        functions: check name -> ``"module:function"`` answering it (imported on first use).
        end: how a game ends.
        penalty: the penalty draws for a fault (Tile/My Rummy), ``None``: none.
        first_player: ``"deals"`` (card games: the dealer deals, the other player starts)
            or ``"starts"`` (tiles: the first player takes the first turn).
        section: its section of RULES.md (``"§3"``).
        seed: the seed it comes from (``"seed 000"``).
        joker_rules: the values its ``joker_rule`` option may take (``()``: no such option).
        solo_opponent: the name playing against one person in solo mode (gin: ``"joker"``),
            ``None`` where there is no solo mode.
        hand_sizes: the cards a hand holds when a round is scored (gin: 10, or 11 for a
            knocker who melds them all), ``()`` where it varies.
        typed_deadwood: the range of deadwood (points) a round may give instead of the cards
            (gin: 0–100), ``None`` where it is always counted from the pieces.
        solo_turned: the cards a solo round may turn from the stock after a knock or gin,
            the joker that stops the turning counted (gin: 1–45), ``None`` without solo mode.
        sections: its rule-book section ids in reading order (the ``{#id}`` headings of the
            app's ``rulebook/<lang>/<name>.md``, the same in every language): what a
            verdict's ``rule_ref.section`` names. The first one opens for a rule not known.
        check_sections: the section a check's verdict opens where it is not the shared one
            of :data:`CHECK_SECTIONS` (gin: ``hand`` -> ``deadwood``).
        reason_sections: the section of a reason code where it is not the shared one of
            :data:`REASON_SECTIONS` (Carousel: ``rounds_after_end`` -> ``game``).
        result_sections: the section a valid round verdict opens by its ``result`` (gin:
            ``undercut`` -> ``undercut``).
    """

    name: VariantName
    display_name: str
    meld_rules: MeldRules
    pieces: Callable[[int | None], PieceSet]
    players: tuple[int, int]
    options_type: OptionsType
    presets: Mapping[str, Options]
    functions: Mapping[str, str]
    end: GameEnd
    penalty: PenaltyDraws | None
    first_player: Literal["deals", "starts"]
    section: str
    seed: str
    joker_rules: tuple[str, ...] = ()
    solo_opponent: str | None = None
    hand_sizes: tuple[int, ...] = ()
    typed_deadwood: tuple[int, int] | None = None
    solo_turned: tuple[int, int] | None = None
    sections: tuple[str, ...] = ()
    check_sections: Mapping[str, str] = dataclasses.field(default_factory=lambda: _NO_SECTIONS)
    reason_sections: Mapping[str, str] = dataclasses.field(default_factory=lambda: _NO_SECTIONS)
    result_sections: Mapping[str, str] = dataclasses.field(default_factory=lambda: _NO_SECTIONS)
    _loaded: dict[str, Answer] = dataclasses.field(default_factory=dict, init=False, repr=False)
    _refs: dict[tuple[str, str | None, str | None, str], RuleRef] = dataclasses.field(
        default_factory=dict, init=False, repr=False
    )

    @property
    def penalty_tiles(self) -> int | None:
        """Tiles a penalty draw takes (3), ``None`` where there are no penalty draws."""
        return None if self.penalty is None else self.penalty.tiles

    @property
    def turn_times(self) -> tuple[int, int] | None:
        """Seconds a turn may be given (``turn_time``: 20–120), ``None``: no turn timer."""
        return self.option_range("turn_time")

    # -- what it plays with ----------------------------------------------------------------
    @property
    def material(self) -> Material:
        """``"tiles"`` or ``"cards"``."""
        return self.meld_rules.material

    def piece_set(self, players: int | None = None) -> PieceSet:
        """The set for ``players`` players (Carousel: one deck for 2, two for 3–5 or when not
        given; the others: one set whatever the count)."""
        return self.pieces(players)

    @property
    def set_by_players(self) -> bool:
        """Does the set depend on the player count (Carousel: one deck for two players)."""
        return self.pieces(min(self.players)) != self.pieces(None)

    def seats(self, options: Mapping[str, Any] | Options | None = None) -> tuple[int, int]:
        """Fewest and most people at the table with ``options`` (a solo game: one)."""
        return (1, 1) if self.is_solo(options) else self.players

    def is_solo(self, options: Mapping[str, Any] | Options | None) -> bool:
        """Is a game with ``options`` one person against :attr:`solo_opponent`."""
        if self.solo_opponent is None or options is None:
            return False
        mode = (
            options.get("mode") if isinstance(options, Mapping) else getattr(options, "mode", None)
        )
        return mode == "solo"

    @property
    def judges_table_turns(self) -> bool:
        """Are its turns judged on a shared table by :func:`rules.table.judge_turn` (Tile
        Rummy, My Rummy, Carousel; Rummy 101 has its own turn rules)."""
        return self.functions.get("turn") == _TABLE_TURN

    @property
    def declares_jokers(self) -> bool:
        """May a player declare the card a joker stands for (cards with jokers: Carousel)."""
        return self.meld_rules.material == "cards" and self.meld_rules.jokers

    # -- where its rules stand ---------------------------------------------------------------
    @property
    def rule(self) -> str:
        """Its section of RULES.md: ``"RULES.md §4"``."""
        return f"RULES.md {self.section}"

    @property
    def rule_seed(self) -> str:
        """Its section and seed: ``"RULES.md §4, seed 001"``."""
        return f"{self.rule}, {self.seed}"

    @property
    def table_rule(self) -> str:
        """The meld rules and its own table rule: ``"RULES.md §2, §4"``."""
        return f"RULES.md §2, {self.section}"

    @property
    def chapter(self) -> int:
        """The number of its own RULES.md chapter (3 for ``"§3"``)."""
        return int(self.section.removeprefix("§"))

    def paragraph_section(self, paragraph: int) -> str | None:
        """The rule-book section a bare ``RULES.md §N`` opens (§1 and §7: ``reading``, §2:
        ``melds``, its own chapter: its first section), ``None`` for another variant's
        chapter."""
        return {1: "reading", 2: "melds", self.chapter: self.sections[0], 7: "reading"}.get(
            paragraph
        )

    def section_for(
        self,
        check: str | None = None,
        reason: str | None = None,
        result: str | None = None,
        rule: str = "",
    ) -> str:
        """The rule-book section (one of :attr:`sections`) behind a verdict or an input
        error: by the reason code (``reason``: a verdict's ``reason`` or an error's code),
        else a round's ``result``, else the check, else the paragraphs of the ``rule`` text
        (``"RULES.md §5 solo mode; seed 002"``), else the first section.

        The judge names this section in the ``rule_ref`` of every answer whose check does not
        name a more precise one; answers stored before ``rule_ref`` existed are linked with it.

        >>> find_variant("gin").section_for("round", result="undercut")
        'undercut'
        >>> find_variant("carousel").section_for("turn", "tile_not_on_rack")
        'melding'
        >>> find_variant("rummy101").section_for(None, None, None, "RULES.md §1")
        'reading'
        """
        solo = self.solo_opponent is not None and "solo" in rule.lower() and "solo" in self.sections
        got: str | None = None
        if reason:
            got = _CHECK_REASON_SECTIONS.get((check or "", reason))
            if got is None and solo and reason == "wrong_player_count":
                got = "solo"
            if got is None:
                got = self.reason_sections.get(reason) or REASON_SECTIONS.get(reason)
        elif self.result_sections:
            got = self.result_sections.get(result) if isinstance(result, str) else None
            if got is None and solo:
                got = "solo"
        if got is None and check:
            got = self.check_sections.get(check) or CHECK_SECTIONS.get(check)
        if got is None:  # nothing else to go by: the legacy "RULES.md §N" text
            for p in _paragraphs(rule):
                got = self.paragraph_section(p)
                if got is not None:
                    break
        return got if got is not None and got in self.sections else self.sections[0]

    # -- options -----------------------------------------------------------------------------
    @property
    def default_preset(self) -> str:
        """The name of the default preset."""
        return next(iter(self.presets))

    @property
    def option_names(self) -> tuple[str, ...]:
        """Its options (RULES.md names), ``preset`` not counted."""
        return tuple(f.name for f in dataclasses.fields(self.options_type) if f.name != "preset")

    def has_option(self, name: str) -> bool:
        """Does the variant have option ``name``."""
        return name in self.option_names

    def option_range(self, name: str) -> tuple[int, int] | None:
        """``(lowest, highest)`` of a whole-number option (``turn_time``: ``(20, 120)``
        seconds), ``None`` for another or unknown option."""
        return option_range(self.options_type, name)

    def option_choices(self, name: str) -> tuple[str, ...] | None:
        """The values a choice option may take here (``joker_rule``: :attr:`joker_rules`)."""
        if name == "joker_rule":
            return self.joker_rules if self.has_option(name) else None
        return option_choices(self.options_type, name)

    def preset(self, name: str | None = None) -> Options:
        """Preset ``name`` (the default when ``None``).

        Raises:
            OptionError: ``unknown_option`` for a name the variant has no preset of.
        """
        return self.options({"preset": name} if name else None)

    def options(self, given: Mapping[str, Any] | None = None) -> Options:
        """Options from ``{"preset": NAME, ...overrides}`` (RULES.md names; ``joker_rule`` may
        be a level 0–4), every name and value checked.

        Raises:
            OptionError: an unknown preset or option (``unknown_option``), a bad value
                (``bad_option``).
        """
        if not given:  # the common case: the default preset, a shared frozen value
            return next(iter(self.presets.values()))
        try:  # the same options again (a program sends its settings with every line)
            key = (self.name, tuple((n, type(value), value) for n, value in given.items()))
            known = _MADE.get(key)
        except (TypeError, AttributeError):  # a list or an object among the values
            key, known = None, None
        if known is not None:
            return known
        made = self._options(given)
        if key is not None and len(_MADE) < _MADE_MAX:
            _MADE[key] = made
        return made

    def _options(self, given: Mapping[str, Any]) -> Options:
        given = dict(given)
        preset_name = given.pop("preset", None) or self.default_preset
        if not isinstance(preset_name, str):
            raise OptionError.keyed(
                "option.preset_not_name", "unknown_option", value=repr(preset_name)
            )
        if preset_name not in self.presets:
            raise OptionError.keyed(
                "option.unknown_preset",
                "unknown_option",
                preset=repr(preset_name),
                variant=self.name,
                presets=", ".join(self.presets),
            )
        base = self.presets[preset_name]
        fields = {f.name: f for f in dataclasses.fields(base) if f.name != "preset"}
        changes: dict[str, Any] = {}
        for name, value in given.items():
            f = fields.get(name)
            if f is None:
                raise OptionError.keyed(
                    "option.unknown",
                    "unknown_option",
                    name=repr(name),
                    variant=self.name,
                    options=", ".join(sorted(fields)),
                )
            got = coerce_option(f, value, getattr(base, name))
            if name == "joker_rule" and got not in self.joker_rules:
                raise OptionError.keyed(
                    "option.joker_rule_variant", "bad_option", value=repr(got), variant=self.name
                )
            changes[name] = got
        return dataclasses.replace(base, **changes)

    # -- checks ------------------------------------------------------------------------------
    def answers(self, check: str) -> bool:
        """Does the judge answer ``check`` for this variant."""
        return check in self.functions

    def function(self, check: str) -> Answer:
        """The function answering ``check`` (imported on first use).

        Raises:
            RequestError: ``unsupported_check`` when the variant does not answer it.
        """
        got = self._loaded.get(check)
        if got is None:
            where = self.functions.get(check)
            if where is None:
                raise RequestError.keyed(
                    "judge.check_not_for_variant",
                    "unsupported_check",
                    check=check,
                    variant=self.name,
                    variants=", ".join(variants_answering(check)),
                )
            module, _, attr = where.partition(":")
            got = getattr(importlib.import_module(module), attr)
            self._loaded[check] = got
        return got

    def answer(self, check: str, req: Request) -> dict[str, Any]:
        """The answer to ``check`` (the judge's fields without ``ok``), its ``rule_ref``
        naming this variant and a rule-book section always: the check's own where it names
        one, else :meth:`rule_ref`.

        Raises:
            RulesError: a request the check cannot judge (``unsupported_check`` for a check
                the variant does not answer).
        """
        result = self.function(check)(req)
        ref = result.get("rule_ref")
        if ref is None or ref.get("section") not in self.sections:
            result["rule_ref"] = self.rule_ref(check, result.get("reason"), result)
        elif ref.get("variant") != self.name:
            # a check shared by every variant (a meld, a split: no variant named), or another
            # variant's functions serving this one (Rummy 101's name its own book)
            result["rule_ref"] = {**ref, "variant": self.name}
        return result

    def rule_ref(
        self, check: str, reason: object = None, result: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """The ``rule_ref`` (JSON) of an answer or an input error whose check named no
        section: :meth:`section_for` its reason (or error code), its ``result`` and the check,
        the paragraphs and seed of its ``rule`` text.

        >>> find_variant("gin").rule_ref("meld", "bad_token")["section"]
        'reading'
        """
        result = result or {}
        rule, outcome = result.get("rule"), result.get("result")
        text = rule if isinstance(rule, str) else ""
        why = reason if isinstance(reason, str) else None
        got = outcome if isinstance(outcome, str) else None
        key = (check, why, got, text)
        ref = self._refs.get(key)
        if ref is None:
            ref = _make_ref(text, self.name, self.section_for(check, why, got, text))
            if len(self._refs) < _MADE_MAX:
                self._refs[key] = ref
        return ref.to_json()

    def read_meld(self, req: Request) -> dict[str, Any]:
        """:meth:`VariantRules.read_meld`."""
        return self.answer("meld", req)

    def judge_opening(self, req: Request) -> dict[str, Any]:
        """:meth:`VariantRules.judge_opening`."""
        return self.answer("opening", req)

    def judge_turn(self, req: Request) -> dict[str, Any]:
        """:meth:`VariantRules.judge_turn`."""
        return self.answer("turn", req)

    def judge_split(self, req: Request) -> dict[str, Any]:
        """:meth:`VariantRules.judge_split`."""
        return self.answer("split", req)

    def judge_hand(self, req: Request) -> dict[str, Any]:
        """:meth:`VariantRules.judge_hand`."""
        return self.answer("hand", req)

    def score_round(self, req: Request) -> dict[str, Any]:
        """:meth:`VariantRules.score_round`."""
        return self.answer("round", req)

    def score_game(self, req: Request) -> dict[str, Any]:
        """:meth:`VariantRules.score_game`."""
        return self.answer("game", req)


_MADE: Final[dict[tuple[str, tuple[tuple[str, type, Any], ...]], Options]] = {}
"""Options built before, by variant and the given names, value types and values (frozen
values, safe to share; a request that fails is not remembered)."""
_MADE_MAX: Final = 512


def _presets(*presets: Options) -> Mapping[str, Options]:
    return MappingProxyType({p.preset: p for p in presets})


def _one_set(players: int | None) -> PieceSet:
    return TILE_SET


def _gin_deck(players: int | None) -> PieceSet:
    return GIN_DECK


_MELD: Final = "rules.checks.meld:answer"
_SPLIT: Final = "rules.checks.split:answer"
_TABLE_TURN: Final = "rules.checks.turn:table_turn"
_TILE_FUNCTIONS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "meld": _MELD,
        "opening": "rules.variants.tiles:opening_answer",
        "turn": _TABLE_TURN,
        "split": _SPLIT,
        "round": "rules.variants.tiles:round_answer",
        "game": "rules.variants.tiles:game_answer",
    }
)
_TILE_END: Final = GameEnd(target=None, agreed="options", by_agreement=True)

RUMMY101: Final = Variant(
    name="rummy101",
    display_name="Rummy 101",
    meld_rules=MeldRules("rummy101", "tiles", pairs=True, ace_high=False, jokers=True),
    pieces=_one_set,
    players=(2, 4),
    options_type=Rummy101Options,
    presets=_presets(Rummy101Options(), Rummy101Options(preset="rising", threshold_mode="rising")),
    functions=MappingProxyType(
        {
            "meld": _MELD,
            "opening": "rules.variants.rummy101:opening_answer",
            "turn": "rules.variants.rummy101:turn_answer",
            "split": _SPLIT,
            "round": "rules.variants.rummy101:round_answer",
            "game": "rules.variants.rummy101:game_answer",
        }
    ),
    end=GameEnd(target=None, agreed="game", by_agreement=True),
    penalty=None,
    first_player="starts",
    section="§3",
    seed="seed 000",
    sections=(
        "players",
        "turn",
        "discard",
        "melds",
        "reading",
        "values",
        "opening",
        "pairs",
        "threshold",
        "after_opening",
        "jokers",
        "finishing",
        "scoring",
        "options",
    ),
    reason_sections=MappingProxyType({"two_winners": "finishing", "winner_has_tiles": "finishing"}),
)
_TILE_SECTIONS: Final = (
    "players",
    "turn",
    "melds",
    "reading",
    "opening",
    "rearranging",
    "jokers",
    "faults",
    "scoring",
    "options",
)
"""The rule-book sections of Tile Rummy and My Rummy (one book layout, ``{#id}`` in order)."""
TILE_RUMMY: Final = Variant(
    name="tile_rummy",
    display_name="Tile Rummy",
    meld_rules=MeldRules("tile_rummy", "tiles", pairs=False, ace_high=False, jokers=True),
    pieces=_one_set,
    players=(2, 4),
    options_type=TileRummyOptions,
    presets=_presets(
        TileRummyOptions(),
        TileRummyOptions(preset="rrrummy", joker_rule="no_split_with_joker"),
        TileRummyOptions(preset="tiles50", initial_meld=50, joker_rule="freed_joker_new_meld"),
        TileRummyOptions(preset="dutch", joker_rule="match_from_rack"),
        TileRummyOptions(preset="easy", joker_rule="free"),
    ),
    functions=_TILE_FUNCTIONS,
    end=_TILE_END,
    penalty=PenaltyDraws(tiles=3, take_back=False),
    first_player="starts",
    section="§4",
    seed="seed 001",
    joker_rules=JOKER_RULES,
    sections=_TILE_SECTIONS,
)
MY_RUMMY: Final = Variant(
    name="my_rummy",
    display_name="My Rummy",
    meld_rules=MeldRules("my_rummy", "tiles", pairs=False, ace_high=False, jokers=True),
    pieces=_one_set,
    players=(2, 4),
    options_type=TileRummyOptions,
    presets=_presets(
        TileRummyOptions(
            preset="my_rummy", joker_rule="my_rummy", turn_time=120, winner_collects=False
        ),
    ),
    functions=_TILE_FUNCTIONS,
    end=_TILE_END,
    penalty=PenaltyDraws(tiles=3, take_back=True),
    first_player="starts",
    section="§4",
    seed="seed 004",
    joker_rules=("my_rummy",),
    sections=_TILE_SECTIONS,
)
GIN: Final = Variant(
    name="gin",
    display_name="Gin Rummy",
    meld_rules=MeldRules("gin", "cards", pairs=False, ace_high=False, jokers=False),
    pieces=_gin_deck,
    players=(2, 2),
    options_type=GinOptions,
    presets=_presets(
        GinOptions(),
        GinOptions(
            preset="modern",
            knock_max=10,
            undercut_on_tie=True,
            undercut_bonus=25,
            big_gin_bonus=31,
            shutout="double",
        ),
        GinOptions(
            preset="classic", knock_max=10, undercut_on_tie=True, gin_bonus=20, box_bonus=20
        ),
    ),
    functions=MappingProxyType(
        {
            "meld": _MELD,
            "hand": "rules.variants.gin:hand_answer",
            "round": "rules.variants.gin:round_answer",
            "game": "rules.variants.gin:game_answer",
        }
    ),
    end=GameEnd(target=GinOptions.target, agreed=None, by_agreement=False),
    penalty=None,
    first_player="deals",
    section="§5",
    seed="seed 002",
    solo_opponent="joker",
    hand_sizes=(10, 11),
    typed_deadwood=(0, 100),
    solo_turned=(1, 45),
    sections=(
        "players",
        "turn",
        "melds",
        "reading",
        "deadwood",
        "knock",
        "layoffs",
        "undercut",
        "gin",
        "void",
        "game",
        "solo",
        "options",
    ),
    check_sections=MappingProxyType({"hand": "deadwood", "round": "knock", "game": "game"}),
    reason_sections=MappingProxyType({"impossible_hand_value": "deadwood"}),
    result_sections=MappingProxyType(
        {
            "knock": "knock",
            "gin": "gin",
            "big_gin": "gin",
            "undercut": "undercut",
            "void": "void",
            "second_joker": "solo",
        }
    ),
)
CAROUSEL: Final = Variant(
    name="carousel",
    display_name="Carousel rummy",
    meld_rules=MeldRules("carousel", "cards", pairs=False, ace_high=True, jokers=True),
    pieces=carousel_set,
    players=(2, 5),
    options_type=CarouselOptions,
    presets=_presets(CarouselOptions()),
    functions=MappingProxyType(
        {
            "meld": _MELD,
            "turn": _TABLE_TURN,
            "split": _SPLIT,
            "hand": "rules.variants.carousel:hand_answer",
            "round": "rules.variants.carousel:round_answer",
            "game": "rules.variants.carousel:game_answer",
        }
    ),
    end=GameEnd(target=CarouselOptions.target, agreed=None, by_agreement=False),
    penalty=None,
    first_player="deals",
    section="§6",
    seed="seed 003",
    sections=(
        "players",
        "turn",
        "melds",
        "reading",
        "melding",
        "jokers",
        "values",
        "knock",
        "scoring",
        "game",
        "options",
    ),
    check_sections=MappingProxyType(
        {"opening": "melding", "turn": "melding", "hand": "knock", "game": "game"}
    ),
    reason_sections=MappingProxyType(
        {
            "bad_declaration": "jokers",
            "below_initial_meld": "melding",
            "manipulated_before_initial_meld": "melding",
            "tile_not_on_rack": "melding",
            "tile_taken_from_table": "melding",
            "nothing_played": "melding",
            "rounds_after_end": "game",
        }
    ),
)

BUILT_IN: Final[tuple[Variant, ...]] = (RUMMY101, TILE_RUMMY, MY_RUMMY, GIN, CAROUSEL)
"""The five variants of the rule book (RULES.md §3–§6), described here."""


def _described_in_modules(known: tuple[Variant, ...]) -> tuple[Variant, ...]:
    """The variants described by modules of their own: every module of ``rules/variants/``
    that defines ``VARIANT`` (a :class:`Variant`), in the order of the modules' names. The
    modules holding the functions of ``known`` are not imported here (they load on first
    use, so the judge starts fast); nor are modules whose name starts with ``_``.

    A module found here imports this one while it is being built: every name of this module
    is there (the five, :class:`Variant`, :func:`find_variant`, ...) but :data:`REGISTRY` and
    :data:`BY_NAME`; other engine modules may be half built too, so such a module imports
    :mod:`rules.variant` and :mod:`rules.options` at its top and the rest inside its
    functions (or under ``TYPE_CHECKING``, as ``Request``).

    Raises:
        ValueError: a described variant takes a name already registered.
    """
    import pkgutil

    import rules.variants as package

    loaded = {where.partition(":")[0] for v in known for where in v.functions.values()}
    names = {v.name for v in known}
    found: list[Variant] = []
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        module = f"{package.__name__}.{info.name}"
        if module in loaded or info.name.startswith("_"):
            continue
        got = getattr(importlib.import_module(module), "VARIANT", None)
        if not isinstance(got, Variant):
            continue
        if got.name in names:
            raise ValueError(f"{module}: a variant named {got.name!r} is registered already")
        names.add(got.name)
        found.append(got)
    return tuple(found)


_LISTED_AS_BEFORE: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        "turn": ("tile_rummy", "my_rummy", "carousel", "rummy101"),
        "split": ("tile_rummy", "my_rummy", "rummy101", "carousel"),
    }
)
"""The order the judge's ``unsupported_check`` answer has always named the variants of these
two checks in (public answers stay as they were); a variant not named here follows them, and
every other check lists them in the registry's order."""


def find_variant(name: object) -> Variant:
    """The variant called ``name``.

    Raises:
        OptionError: code ``unknown_variant``.
    """
    got = BY_NAME.get(name) if isinstance(name, str) else None
    if got is None:
        check_variant(name)  # raises, naming the variants
        raise AssertionError(name)  # pragma: no cover - a name in VARIANTS is registered
    return got


def variants_answering(check: str) -> tuple[VariantName, ...]:
    """The variants the judge answers ``check`` for, in the order its answers name them."""
    got = [v.name for v in REGISTRY if v.answers(check)]
    before = _LISTED_AS_BEFORE.get(check, ())
    got.sort(key=lambda n: before.index(n) if n in before else len(before))
    return tuple(got)


def meld_rules(variant: str) -> MeldRules:
    """The meld rules of ``variant``.

    Raises:
        OptionError: unknown variant (code ``unknown_variant``).
    """
    return find_variant(variant).meld_rules


def piece_set(variant: str, players: int | None = None) -> PieceSet:
    """The set a variant is played with: 106 tiles, a 52-card deck (gin), or Carousel's one or
    two 53-card decks by ``players`` (two decks when not given).

    Raises:
        OptionError: unknown variant.
    """
    return find_variant(variant).piece_set(players)


REGISTRY: Final[tuple[Variant, ...]] = (*BUILT_IN, *_described_in_modules(BUILT_IN))
"""Every variant, in the order the judge and the app list them: the five, then any variant a
module of ``rules/variants/`` describes (its ``VARIANT``): adding a variant is adding one
module there (with its rule book, translations and round-entry form in the app)."""
BY_NAME: Final[Mapping[str, Variant]] = MappingProxyType({v.name: v for v in REGISTRY})
"""name -> variant."""

_options.VARIANTS = tuple(BY_NAME)

__all__ = [
    "CAROUSEL",
    "CHECK_NAMES",
    "CHECK_SECTIONS",
    "GIN",
    "MY_RUMMY",
    "REASON_SECTIONS",
    "BUILT_IN",
    "REGISTRY",
    "RUMMY101",
    "TILE_RUMMY",
    "Answer",
    "CheckName",
    "GameEnd",
    "MeldRules",
    "PenaltyDraws",
    "Variant",
    "VariantRules",
    "find_variant",
    "meld_rules",
    "piece_set",
    "variants_answering",
]
