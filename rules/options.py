"""Options of every variant, as immutable values (RULES.md §3–§6).

Each variant has a frozen dataclass of options, every field with the default of RULES.md and,
for a number, its allowed range (for a choice, its allowed values) in the field's metadata
(:func:`option_range`, :func:`option_choices`). The presets of a variant belong to its
description in :mod:`rules.variant`; :func:`options_for` builds options from a preset name and
overrides, validating every name and value::

    >>> options_for("gin", {"preset": "modern"}).knock_max
    10
    >>> options_for("tile_rummy", {"joker_rule": 1}).joker_rule
    'match'
    >>> option_range(TileRummyOptions, "turn_time")
    (20, 120)

An unknown option or preset raises :class:`~rules.errors.OptionError` (code
``unknown_option``); a value of the wrong type or out of range raises it with code
``bad_option``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeAlias, TypeVar

from rules.errors import OptionError

VariantName: TypeAlias = str
"""The name of a registered variant (``rummy101``, ``tile_rummy``, ``my_rummy``, ``gin``,
``carousel``, and any variant a module of ``rules/variants/`` describes:
:data:`rules.variant.REGISTRY`)."""
VARIANTS: tuple[VariantName, ...] = ()
"""The variant names, in the registry's order (:data:`rules.variant.REGISTRY` is the
description of each; set by :mod:`rules.variant` once the registry is built)."""

JOKER_RULES: Final = (
    "free",
    "match",
    "match_from_rack",
    "no_split_with_joker",
    "freed_joker_new_meld",
)
"""Tile Rummy joker levels 0–4 (RULES.md §4, seed ``001_…``), each adding to the one before."""

_T = TypeVar("_T")


def _ranged(default: _T, lo: int, hi: int) -> _T:
    """A whole-number option field whose values run ``lo..hi``."""
    return field(default=default, metadata={"range": (lo, hi)})


def _chosen(default: _T, choices: tuple[str, ...]) -> _T:
    """An option field whose value is one of ``choices``."""
    return field(default=default, metadata={"choices": choices})


@dataclass(frozen=True)
class Rummy101Options:
    """Rummy 101 options (RULES.md §3, seed ``000_…``).

    Attributes:
        preset: the preset these options started from.
        threshold: points needed to open by melds (101).
        pairs_needed: pairs needed to open by pairs (5).
        threshold_mode: ``fixed`` or ``rising`` (each later opening must beat the highest so far).
    """

    preset: str = "standard"
    threshold: int = _ranged(101, 1, 1000)
    pairs_needed: int = _ranged(5, 1, 11)
    threshold_mode: Literal["fixed", "rising"] = _chosen("fixed", ("fixed", "rising"))


@dataclass(frozen=True)
class TileRummyOptions:
    """Tile Rummy and My Rummy options (RULES.md §4, seeds ``001_…`` and ``004_…``).

    Attributes:
        preset: the preset these options started from.
        initial_meld: points the initial meld needs, own tiles only, one turn (30; 50 in tiles50).
        joker_rule: Tile Rummy joker level ``free`` (0) … ``freed_joker_new_meld`` (4), or
            ``my_rummy`` (My Rummy's own rule: level 2, exact place, freed joker used at once).
        manipulate_on_initial_turn: may a player rearrange the table in the initial-meld turn.
        turn_time: seconds per turn (20–120) or ``None`` for no timer.
        joker_penalty: points a joker left on a rack costs (30; My Rummy editions 25 or 30).
        winner_collects: the winner scores the sum of the losers' racks (Tile Rummy) or
            nothing (My Rummy).
        target: optional target score that ends a game of several rounds.
        games: optional number of rounds agreed for a game.
    """

    preset: str = "rummikub"
    initial_meld: int = _ranged(30, 0, 500)
    joker_rule: str = _chosen("match_from_rack", (*JOKER_RULES, "my_rummy"))
    manipulate_on_initial_turn: bool = False
    turn_time: int | None = _ranged(None, 20, 120)
    joker_penalty: int = _ranged(30, 0, 1000)
    winner_collects: bool = True
    target: int | None = _ranged(None, 1, 100000)
    games: int | None = _ranged(None, 1, 1000)

    @property
    def joker_level(self) -> int:
        """The joker level 0–4; My Rummy's rule is level 2 plus its own restrictions."""
        if self.joker_rule == "my_rummy":
            return 2
        return JOKER_RULES.index(self.joker_rule)


@dataclass(frozen=True)
class GinOptions:
    """Gin Rummy options (RULES.md §5, seed ``002_…``).

    Attributes:
        preset: ``seed`` (default), ``modern`` or ``classic``.
        knock_max: highest deadwood (points) that may knock.
        undercut_on_tie: does an equal deadwood undercut the knocker.
        undercut_bonus: points added to an undercut.
        gin_bonus: points for gin, plus the defender's deadwood.
        big_gin_bonus: points for big gin (11 cards melded), or ``None`` where not played.
        box_bonus: points per round won, added at the end of the game.
        target: points that end the game (100).
        game_bonus: bonus to the player who reaches the target (100).
        shutout: ``bonus`` (+``shutout_bonus`` to the only round winner), ``double`` (the
            winner's game total doubled) or ``none``.
        shutout_bonus: the shutout bonus in points where ``shutout`` is ``bonus``.
        layoffs: may the defender lay off onto the knocker's melds (gap filled: on).
        mode: ``duel`` (two players) or ``solo`` (against "the joker").
    """

    preset: str = "seed"
    knock_max: int = _ranged(9, 0, 100)
    undercut_on_tie: bool = False
    undercut_bonus: int = _ranged(10, 0, 1000)
    gin_bonus: int = _ranged(25, 0, 1000)
    big_gin_bonus: int | None = _ranged(None, 0, 1000)
    box_bonus: int = _ranged(25, 0, 1000)
    target: int = _ranged(100, 1, 100000)
    game_bonus: int = _ranged(100, 0, 10000)
    shutout: Literal["bonus", "double", "none"] = _chosen("bonus", ("bonus", "double", "none"))
    shutout_bonus: int = _ranged(100, 0, 10000)
    layoffs: bool = True
    mode: Literal["duel", "solo"] = _chosen("duel", ("duel", "solo"))


@dataclass(frozen=True)
class CarouselOptions:
    """Carousel rummy options (RULES.md §6, seed ``003_…``).

    Attributes:
        preset: ``seed``.
        knock_max: highest hand value (points) that may knock (5).
        joker_value: points a joker in hand counts (25).
        undercut_bonus: bonus to a winner who is not the knocker, or who ties the knocker (10).
        going_out_bonus: bonus for going out with no cards left (25).
        target: points that end the game (150).
        game_bonus: bonus to each player reaching the target (100).
        round_bonus: points per round won, at the end of the game (25).
        round_bonus_all: give ``round_bonus`` to every player, not only the ones who did not reach
            the target (the seed's literal wording gives it to the others only).
    """

    preset: str = "seed"
    knock_max: int = _ranged(5, 0, 100)
    joker_value: int = _ranged(25, 0, 1000)
    undercut_bonus: int = _ranged(10, 0, 1000)
    going_out_bonus: int = _ranged(25, 0, 1000)
    target: int = _ranged(150, 1, 100000)
    game_bonus: int = _ranged(100, 0, 10000)
    round_bonus: int = _ranged(25, 0, 1000)
    round_bonus_all: bool = False


Options = Rummy101Options | TileRummyOptions | GinOptions | CarouselOptions
OptionsType = (
    type[Rummy101Options] | type[TileRummyOptions] | type[GinOptions] | type[CarouselOptions]
)


def _field(options: OptionsType | Options, name: str) -> dataclasses.Field[Any] | None:
    for f in dataclasses.fields(options):
        if f.name == name:
            return f
    return None


def option_range(options: OptionsType | Options, name: str) -> tuple[int, int] | None:
    """The allowed ``(lowest, highest)`` of a whole-number option, ``None`` for another option
    (or a name the options do not have)."""
    f = _field(options, name)
    got = None if f is None else f.metadata.get("range")
    return None if got is None else (int(got[0]), int(got[1]))


def option_choices(options: OptionsType | Options, name: str) -> tuple[str, ...] | None:
    """The allowed values of a choice option (``joker_rule``: every level's name and
    ``my_rummy``), ``None`` for another option."""
    f = _field(options, name)
    got = None if f is None else f.metadata.get("choices")
    return None if got is None else tuple(got)


def check_variant(variant: object) -> VariantName:
    """Return ``variant`` if it names a registered variant, else raise.

    Raises:
        OptionError: code ``unknown_variant``.
    """
    if not isinstance(variant, str) or variant not in _registry.BY_NAME:
        raise OptionError.keyed(
            "option.unknown_variant",
            "unknown_variant",
            variant=repr(variant),
            variants=", ".join(VARIANTS),
        )
    return variant


def coerce_option(f: dataclasses.Field[Any], value: Any, default: Any) -> Any:
    """``value`` checked (and a joker level 0–4 read as its name) for option field ``f``.

    Args:
        f: the option's dataclass field (its metadata gives a range or the choices).
        value: the value given.
        default: the value of the preset, which gives the option's type.

    Raises:
        OptionError: code ``bad_option``.
    """
    name = f.name
    if value is None and "None" in str(f.type):
        return None
    if name == "joker_rule" and isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value < len(JOKER_RULES):
            raise OptionError.keyed("option.joker_level_range", "bad_option", value=value)
        value = JOKER_RULES[value]
    choices = f.metadata.get("choices")
    if choices is not None:
        if value not in choices:
            allowed = ", ".join(choices)
            raise OptionError.keyed(
                "option.not_choice", "bad_option", name=name, value=repr(value), choices=allowed
            )
        return value
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise OptionError.keyed("option.not_bool", "bad_option", name=name, value=repr(value))
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError.keyed("option.not_int", "bad_option", name=name, value=repr(value))
    lo, hi = f.metadata["range"]
    if not lo <= value <= hi:
        raise OptionError.keyed(
            "option.out_of_range", "bad_option", name=name, value=value, lo=lo, hi=hi
        )
    return value


def options_dict(options: Options) -> dict[str, Any]:
    """The options as a plain dict (JSON-ready), preset included."""
    return dataclasses.asdict(options)


def presets(variant: VariantName) -> dict[str, Options]:
    """The named presets of a variant, the default first."""
    return dict(_registry.find_variant(variant).presets)


def options_for(variant: str, given: Mapping[str, Any] | None = None) -> Options:
    """Build a variant's options from ``{"preset": NAME, ...overrides}``
    (:meth:`rules.variant.Variant.options`).

    Args:
        variant: one of ``rummy101``, ``tile_rummy``, ``my_rummy``, ``gin``, ``carousel``.
        given: optional preset name and option overrides, names as in RULES.md. ``joker_rule``
            may be given as a level 0–4.

    Returns:
        A frozen options object (:class:`Rummy101Options`, :class:`TileRummyOptions`,
        :class:`GinOptions` or :class:`CarouselOptions`).

    Raises:
        OptionError: unknown variant, preset or option (``unknown_option``), or a bad value
            (``bad_option``).
    """
    return _registry.find_variant(variant).options(given)


import rules.variant as _registry  # noqa: E402 - the registry describes the variants with the types above

__all__ = [
    "JOKER_RULES",
    "VARIANTS",
    "CarouselOptions",
    "GinOptions",
    "Options",
    "OptionsType",
    "Rummy101Options",
    "TileRummyOptions",
    "VariantName",
    "check_variant",
    "coerce_option",
    "option_choices",
    "option_range",
    "options_dict",
    "options_for",
    "presets",
]
