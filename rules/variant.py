"""What each variant plays with: tiles or cards, the meld rules of RULES.md §2, the set.

>>> meld_rules("carousel").ace_high
True
>>> piece_set("rummy101").size
106
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rules.options import VariantName, check_variant
from rules.pieces import GIN_DECK, TILE_SET, Material, PieceSet, carousel_set


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


MELD_RULES: Final[dict[VariantName, MeldRules]] = {
    "rummy101": MeldRules("rummy101", "tiles", pairs=True, ace_high=False, jokers=True),
    "tile_rummy": MeldRules("tile_rummy", "tiles", pairs=False, ace_high=False, jokers=True),
    "my_rummy": MeldRules("my_rummy", "tiles", pairs=False, ace_high=False, jokers=True),
    "gin": MeldRules("gin", "cards", pairs=False, ace_high=False, jokers=False),
    "carousel": MeldRules("carousel", "cards", pairs=False, ace_high=True, jokers=True),
}

DISPLAY_NAMES: Final[dict[VariantName, str]] = {
    "rummy101": "Rummy 101",
    "tile_rummy": "Tile Rummy",
    "my_rummy": "My Rummy",
    "gin": "Gin Rummy",
    "carousel": "Carousel rummy",
}

PLAYER_COUNTS: Final[dict[VariantName, tuple[int, int]]] = {
    "rummy101": (2, 4),
    "tile_rummy": (2, 4),
    "my_rummy": (2, 4),
    "gin": (2, 2),
    "carousel": (2, 5),
}
"""Fewest and most players per variant (RULES.md §3–§6; Tile/My Rummy 2–4 as the 106-tile
set is dealt)."""


def meld_rules(variant: str) -> MeldRules:
    """The meld rules of ``variant``.

    Raises:
        OptionError: unknown variant (code ``unknown_variant``).
    """
    return MELD_RULES[check_variant(variant)]


def piece_set(variant: str, players: int | None = None) -> PieceSet:
    """The set a variant is played with: 106 tiles, a 52-card deck (gin), or Carousel's one or
    two 53-card decks by ``players`` (two decks when not given).

    Raises:
        OptionError: unknown variant.
    """
    v = check_variant(variant)
    if v == "gin":
        return GIN_DECK
    if v == "carousel":
        return carousel_set(players)
    return TILE_SET
