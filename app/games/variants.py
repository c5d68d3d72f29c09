"""What the app asks of a variant: the one place where it reads a variant's description.

Screens and the game record never compare a variant's name (``variant == "gin"``) nor restate
a rule's limit (2–4 players, 20–120 s a turn, 3 penalty tiles, gin's 100): they ask
:func:`about` (or :func:`about_game`), which answers from the rules engine's description of
the variant (:class:`rules.variant.Variant`). A new variant is described once, in ``rules/``.

>>> about("gin").deals, about("tile_rummy").penalty_tiles, about("my_rummy").turn_times
(True, 3, (20, 120))
>>> about("rummy101").agreed_end, about("tile_rummy").agreed_end, about("carousel").agreed_end
('game', 'options', None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Final, Literal, TypeGuard

from rules.options import Options
from rules.variant import REGISTRY, Variant, find_variant

if TYPE_CHECKING:
    from app.games.records import Game

VARIANT_KEYS: Final[tuple[str, ...]] = tuple(v.name for v in REGISTRY)
"""Every variant's name, in the order the app lists them."""
DEFAULT_VARIANT: Final = VARIANT_KEYS[0]
"""The variant the new-game form shows first."""
MAX_SEATS: Final = max(v.players[1] for v in REGISTRY)
"""The most players any variant seats."""
_TIMED: Final = [t for v in REGISTRY if (t := v.turn_times) is not None]
TURN_TIMES: Final[tuple[int, int]] = (min(lo for lo, _ in _TIMED), max(hi for _, hi in _TIMED))
"""Shortest and longest turn (seconds) of the variants with a turn timer (20–120)."""
TIMED_VARIANTS: Final[tuple[str, ...]] = tuple(v.name for v in REGISTRY if v.turn_times)
"""The variants with a turn timer (a ``turn_time`` option): Tile Rummy, My Rummy."""


@dataclass(frozen=True, eq=False)
class VariantInfo:
    """One variant as the screens need it.

    Attributes:
        key: the variant's name (``rummy101`` …), as stored with a game.
        rules: the engine's description (:class:`rules.variant.Variant`).
    """

    key: str
    rules: Variant

    # -- names ------------------------------------------------------------------------------
    @property
    def display_name(self) -> str:
        """The English name (``Gin Rummy``; screens translate it through ``labels``)."""
        return self.rules.display_name

    # -- seats ------------------------------------------------------------------------------
    @property
    def players(self) -> tuple[int, int]:
        """Fewest and most players."""
        return self.rules.players

    def seats(self, options: Mapping[str, Any] | None = None) -> tuple[int, int]:
        """Fewest and most names typed in for a game with ``options`` (gin solo: one)."""
        return self.rules.seats(options)

    def is_solo(self, options: Mapping[str, Any] | None) -> bool:
        """One person against :attr:`solo_opponent` (gin's ``mode: solo``)."""
        return self.rules.is_solo(options)

    @property
    def solo_opponent(self) -> str | None:
        """The name the other side plays under in solo mode (gin: ``joker``), else ``None``."""
        return self.rules.solo_opponent

    @property
    def deals(self) -> bool:
        """The first player of a round deals (cards); else they take the first turn (tiles)."""
        return self.rules.first_player == "deals"

    # -- options ----------------------------------------------------------------------------
    @property
    def presets(self) -> tuple[str, ...]:
        """The preset names, the default first."""
        return tuple(self.rules.presets)

    @property
    def default_preset(self) -> str:
        """The default preset's name."""
        return self.rules.default_preset

    def preset(self, name: str) -> Options:
        """Preset ``name``'s options (``KeyError`` for a name the variant has no preset of)."""
        return self.rules.presets[name]

    def find_preset(self, name: str | None) -> Options | None:
        """Preset ``name``'s options, ``None`` for a name the variant has no preset of."""
        return self.rules.presets.get(name) if name is not None else None

    def option_choices(self, name: str) -> tuple[str, ...] | None:
        """The values option ``name`` may take here (``joker_rule``: My Rummy's own only)."""
        return self.rules.option_choices(name)

    def option_range(self, name: str) -> tuple[int, int] | None:
        """``(lowest, highest)`` of a whole-number option."""
        return self.rules.option_range(name)

    # -- the end of a game --------------------------------------------------------------------
    @property
    def agreed_end(self) -> Literal["options", "game"] | None:
        """Where an agreed number of rounds / target score is kept: ``"options"`` (the
        ``games`` / ``target`` options: Tile Rummy, My Rummy), ``"game"`` (with the game,
        the new-game form asks for them: Rummy 101), ``None`` (the variant ends at its own
        target: Gin, Carousel)."""
        return self.rules.end.agreed

    @property
    def endable(self) -> bool:
        """The players may end the game by agreement (time is up)."""
        return self.rules.end.by_agreement

    @property
    def own_target(self) -> int | None:
        """The score the game ends at by its own rule (gin 100, Carousel 150), else ``None``."""
        return self.rules.end.target

    def limits(self, game: Game) -> tuple[int | None, int | None]:
        """``game``'s agreed end as (number of rounds, target score), ``None`` where none is
        agreed (Gin, Carousel: always ``None``: their own target is an option, judged)."""
        if self.agreed_end == "game":
            return game.agreed_rounds, game.agreed_target
        if self.agreed_end == "options":
            g, t = game.options.get("games"), game.options.get("target")
            return (g if isinstance(g, int) else None, t if isinstance(t, int) else None)
        return None, None

    # -- penalties and the turn timer ----------------------------------------------------------
    @property
    def penalty_tiles(self) -> int | None:
        """Tiles a penalty draw takes (3), ``None`` where there are none."""
        return self.rules.penalty_tiles

    @property
    def penalty_takes_back(self) -> bool:
        """A fault: the player takes back the tiles that could not be placed (My Rummy), not
        the whole table going back."""
        return self.rules.penalty is not None and self.rules.penalty.take_back

    @property
    def turn_times(self) -> tuple[int, int] | None:
        """Seconds a turn may be given (20–120); ``None``: the variant has no turn timer."""
        return self.rules.turn_times

    # -- entering a round ------------------------------------------------------------------------
    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """Cards a hand holds when entered (gin: 10, the knocker 11), ``()`` where it varies."""
        return self.rules.hand_sizes

    @property
    def typed_deadwood(self) -> tuple[int, int] | None:
        """The deadwood (points) a player may type instead of the cards (gin: 0–100)."""
        return self.rules.typed_deadwood

    @property
    def solo_turned(self) -> tuple[int, int] | None:
        """The cards a solo round may turn after a knock or gin (gin: 1–45), else ``None``."""
        return self.rules.solo_turned

    # -- the judge ------------------------------------------------------------------------------
    def answers(self, check: str) -> bool:
        """Does the judge answer ``check`` (``hand``, ``turn`` …) for this variant."""
        return self.rules.answers(check)


@cache
def _info(key: str) -> VariantInfo:
    return VariantInfo(key, find_variant(key))


def about(variant: str) -> VariantInfo:
    """What the app needs to know about ``variant``.

    Raises:
        rules.errors.OptionError: not a variant's name (code ``unknown_variant``).
    """
    if variant not in VARIANT_KEYS:
        find_variant(variant)  # raises, naming the variants
    return _info(variant)


def about_game(game: Game) -> VariantInfo:
    """:func:`about` the variant of ``game``."""
    return about(game.variant)


def is_variant(name: object) -> TypeGuard[str]:
    """Is ``name`` a variant's name (a type guard: ``name`` is a ``str`` after it)."""
    return isinstance(name, str) and name in VARIANT_KEYS


__all__ = [
    "DEFAULT_VARIANT",
    "MAX_SEATS",
    "TIMED_VARIANTS",
    "TURN_TIMES",
    "VARIANT_KEYS",
    "VariantInfo",
    "about",
    "about_game",
    "is_variant",
]
