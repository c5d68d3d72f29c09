"""Options and presets of every variant, as immutable values (RULES.md §3–§6).

Each variant has a frozen dataclass of options, every field with the default of RULES.md, and
named presets. :func:`options_for` builds one from a preset name and overrides, validating
every name and value::

    >>> options_for("gin", {"preset": "modern"}).knock_max
    10
    >>> options_for("tile_rummy", {"joker_rule": 1}).joker_rule
    'match'

An unknown option or preset raises :class:`~rules.errors.OptionError` (code
``unknown_option``); a value of the wrong type or out of range raises it with code
``bad_option``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from rules.errors import OptionError

VariantName = Literal["rummy101", "tile_rummy", "my_rummy", "gin", "carousel"]
VARIANTS: Final[tuple[VariantName, ...]] = (
    "rummy101",
    "tile_rummy",
    "my_rummy",
    "gin",
    "carousel",
)

JOKER_RULES: Final = (
    "free",
    "match",
    "match_from_rack",
    "no_split_with_joker",
    "freed_joker_new_meld",
)
"""Tile Rummy joker levels 0–4 (RULES.md §4, seed ``001_…``), each adding to the one before."""


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
    threshold: int = 101
    pairs_needed: int = 5
    threshold_mode: Literal["fixed", "rising"] = "fixed"


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
    initial_meld: int = 30
    joker_rule: str = "match_from_rack"
    manipulate_on_initial_turn: bool = False
    turn_time: int | None = None
    joker_penalty: int = 30
    winner_collects: bool = True
    target: int | None = None
    games: int | None = None

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
    knock_max: int = 9
    undercut_on_tie: bool = False
    undercut_bonus: int = 10
    gin_bonus: int = 25
    big_gin_bonus: int | None = None
    box_bonus: int = 25
    target: int = 100
    game_bonus: int = 100
    shutout: Literal["bonus", "double", "none"] = "bonus"
    shutout_bonus: int = 100
    layoffs: bool = True
    mode: Literal["duel", "solo"] = "duel"


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
    knock_max: int = 5
    joker_value: int = 25
    undercut_bonus: int = 10
    going_out_bonus: int = 25
    target: int = 150
    game_bonus: int = 100
    round_bonus: int = 25
    round_bonus_all: bool = False


Options = Rummy101Options | TileRummyOptions | GinOptions | CarouselOptions

PRESETS: Final[dict[VariantName, dict[str, Options]]] = {
    "rummy101": {
        "standard": Rummy101Options(),
        "rising": Rummy101Options(preset="rising", threshold_mode="rising"),
    },
    "tile_rummy": {
        "rummikub": TileRummyOptions(),
        "rrrummy": TileRummyOptions(preset="rrrummy", joker_rule="no_split_with_joker"),
        "tiles50": TileRummyOptions(
            preset="tiles50", initial_meld=50, joker_rule="freed_joker_new_meld"
        ),
        "dutch": TileRummyOptions(preset="dutch", joker_rule="match_from_rack"),
        "easy": TileRummyOptions(preset="easy", joker_rule="free"),
    },
    "my_rummy": {
        "my_rummy": TileRummyOptions(
            preset="my_rummy", joker_rule="my_rummy", turn_time=120, winner_collects=False
        ),
    },
    "gin": {
        "seed": GinOptions(),
        "modern": GinOptions(
            preset="modern",
            knock_max=10,
            undercut_on_tie=True,
            undercut_bonus=25,
            big_gin_bonus=31,
            shutout="double",
        ),
        "classic": GinOptions(
            preset="classic", knock_max=10, undercut_on_tie=True, gin_bonus=20, box_bonus=20
        ),
    },
    "carousel": {"seed": CarouselOptions()},
}

DEFAULT_PRESET: Final[dict[VariantName, str]] = {
    "rummy101": "standard",
    "tile_rummy": "rummikub",
    "my_rummy": "my_rummy",
    "gin": "seed",
    "carousel": "seed",
}

# name -> ("bool" | "int" | "int?" | choices tuple, (min, max) or None)
_INT_RANGES: Final[dict[str, tuple[int, int]]] = {
    "threshold": (1, 1000),
    "pairs_needed": (1, 11),
    "initial_meld": (0, 500),
    "turn_time": (20, 120),
    "joker_penalty": (0, 1000),
    "knock_max": (0, 100),
    "undercut_bonus": (0, 1000),
    "gin_bonus": (0, 1000),
    "big_gin_bonus": (0, 1000),
    "box_bonus": (0, 1000),
    "target": (1, 100000),
    "games": (1, 1000),
    "game_bonus": (0, 10000),
    "shutout_bonus": (0, 10000),
    "joker_value": (0, 1000),
    "going_out_bonus": (0, 1000),
    "round_bonus": (0, 1000),
}
_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "threshold_mode": ("fixed", "rising"),
    "joker_rule": (*JOKER_RULES, "my_rummy"),
    "shutout": ("bonus", "double", "none"),
    "mode": ("duel", "solo"),
}


def check_variant(variant: object) -> VariantName:
    """Return ``variant`` if it names one of the five variants, else raise.

    Raises:
        OptionError: code ``unknown_variant``.
    """
    if variant not in VARIANTS:
        raise OptionError.keyed(
            "option.unknown_variant",
            "unknown_variant",
            variant=repr(variant),
            variants=", ".join(VARIANTS),
        )
    return variant


def presets(variant: VariantName) -> dict[str, Options]:
    """The named presets of a variant, the default first."""
    return dict(PRESETS[check_variant(variant)])


def _coerce(variant: str, name: str, value: Any, default: Any, nullable: bool) -> Any:
    if value is None and nullable:
        return None
    if name == "joker_rule" and isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value < len(JOKER_RULES):
            raise OptionError.keyed("option.joker_level_range", "bad_option", value=value)
        value = JOKER_RULES[value]
    if name in _CHOICES:
        if value not in _CHOICES[name]:
            allowed = ", ".join(_CHOICES[name])
            raise OptionError.keyed(
                "option.not_choice", "bad_option", name=name, value=repr(value), choices=allowed
            )
        if name == "joker_rule" and (value == "my_rummy") != (variant == "my_rummy"):
            raise OptionError.keyed(
                "option.joker_rule_variant", "bad_option", value=repr(value), variant=variant
            )
        return value
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise OptionError.keyed("option.not_bool", "bad_option", name=name, value=repr(value))
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError.keyed("option.not_int", "bad_option", name=name, value=repr(value))
    lo, hi = _INT_RANGES[name]
    if not lo <= value <= hi:
        raise OptionError.keyed(
            "option.out_of_range", "bad_option", name=name, value=value, lo=lo, hi=hi
        )
    return value


def options_for(variant: str, given: Mapping[str, Any] | None = None) -> Options:
    """Build a variant's options from ``{"preset": NAME, ...overrides}``.

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
    v = check_variant(variant)
    if not given:  # the common case: the default preset, a shared frozen value
        return PRESETS[v][DEFAULT_PRESET[v]]
    try:  # the same options again (a program sends its settings with every line)
        key = (v, tuple((name, type(value), value) for name, value in given.items()))
        known = _MADE.get(key)
    except (TypeError, AttributeError):  # a list or an object among the values: not remembered
        key, known = None, None
    if known is not None:
        return known
    made = _options_for(v, given)
    if key is not None and len(_MADE) < _MADE_MAX:
        _MADE[key] = made
    return made


_MADE: Final[dict[tuple[str, tuple[tuple[str, type, Any], ...]], Options]] = {}
"""Options built before, by variant and the given names, value types and values (frozen
values, safe to share; a request that fails is not remembered)."""
_MADE_MAX: Final = 512


def _options_for(v: VariantName, given: Mapping[str, Any]) -> Options:
    given = dict(given)
    if not isinstance(given, dict):
        raise OptionError.keyed("request.options_not_object", "bad_option")
    preset_name = given.pop("preset", None) or DEFAULT_PRESET[v]
    if not isinstance(preset_name, str):
        raise OptionError.keyed("option.preset_not_name", "unknown_option", value=repr(preset_name))
    table = PRESETS[v]
    if preset_name not in table:
        raise OptionError.keyed(
            "option.unknown_preset",
            "unknown_option",
            preset=repr(preset_name),
            variant=v,
            presets=", ".join(table),
        )
    base = table[preset_name]
    types = {f.name: str(f.type) for f in dataclasses.fields(base) if f.name != "preset"}
    names = set(types)
    changes: dict[str, Any] = {}
    for name, value in given.items():
        if name not in names:
            raise OptionError.keyed(
                "option.unknown",
                "unknown_option",
                name=repr(name),
                variant=v,
                options=", ".join(sorted(names)),
            )
        changes[name] = _coerce(v, name, value, getattr(base, name), "None" in types[name])
    return dataclasses.replace(base, **changes)


def options_dict(options: Options) -> dict[str, Any]:
    """The options as a plain dict (JSON-ready), preset included."""
    return dataclasses.asdict(options)
