"""Pieces: tiles, cards and the joker, and the sets they come in (RULES.md §1).

A :class:`Tile` is a colour and a number 1–13 (Rummy 101, Tile Rummy, My Rummy); a
:class:`Card` is a rank 1–13 (ace = 1, jack = 11, queen = 12, king = 13) and a suit (Gin,
Carousel). :data:`JOKER` is the one joker value: jokers are interchangeable, so a list of pieces
may hold it several times. Both tiles and cards expose ``number`` (1–13) and ``family`` (the
colour or suit), which is all the meld logic needs.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal

from rules.errors import TooManyCopiesError


class Colour(enum.Enum):
    """Tile colours, in canonical order. The value is the notation letter."""

    RED = "R"
    BLUE = "B"
    BLACK = "K"
    YELLOW = "Y"

    @property
    def index(self) -> int:
        """0–3, the canonical order (R, B, K, Y)."""
        return _FAMILY_INDEX[self._value_]


class Suit(enum.Enum):
    """Card suits, in canonical order. The value is the notation letter."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def index(self) -> int:
        """0–3, the canonical order (S, H, D, C)."""
        return _FAMILY_INDEX[self._value_]


_FAMILY_INDEX: Final[dict[str, int]] = {c.value: i for i, c in enumerate(Colour)} | {
    s.value: i for i, s in enumerate(Suit)
}
"""0–3 by notation letter (R B K Y, S H D C: no letter is both): a str key hashes in C, an
Enum member in Python."""
COLOURS: Final = tuple(Colour)
SUITS: Final = tuple(Suit)

RANK_NAMES: Final = {1: "A", 11: "J", 12: "Q", 13: "K"}
_NUMBER_TEXT: Final = {n: str(n) for n in range(1, 14)}
_RANK_TEXT: Final = _NUMBER_TEXT | RANK_NAMES


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """A numbered tile: ``Tile(Colour.RED, 11)`` is written ``R11``."""

    colour: Colour
    number: int

    @property
    def family(self) -> Colour:
        """The tile's colour (the attribute a run must keep)."""
        return self.colour

    @property
    def family_index(self) -> int:
        """0–3: the colour's place in R, B, K, Y."""
        return _FAMILY_INDEX[self.colour._value_]

    def __hash__(self) -> int:
        # the value the dataclass would give, hash((colour, number)), without Enum.__hash__
        return hash((self.colour._name_, self.number))

    def __str__(self) -> str:
        return self.colour._value_ + (_NUMBER_TEXT.get(self.number) or str(self.number))

    def sort_key(self) -> tuple[int, int]:
        """Canonical order: by number, then colour R, B, K, Y."""
        return (self.number, self.colour.index)


class _CardCache:
    """Base of :class:`Card` holding two spare slots, ``_bit`` and ``_pack``, that no comparison,
    hash, repr or pickle sees: :mod:`rules.search.deadwood` stores there, on first use, the
    card's hand-mask bit and the card packed for its Card-level calls (speed only; a card without
    them behaves the same)."""

    __slots__ = ("_bit", "_pack")
    _bit: int
    _pack: int


@dataclass(frozen=True, order=True, slots=True)
class Card(_CardCache):
    """A playing card: ``Card(12, Suit.SPADES)`` is written ``QS``; 10 is written ``10``."""

    rank: int
    suit: Suit

    @property
    def number(self) -> int:
        """The rank as a number, ace 1 … king 13."""
        return self.rank

    @property
    def family(self) -> Suit:
        """The card's suit (the attribute a run must keep)."""
        return self.suit

    @property
    def family_index(self) -> int:
        """0–3: the suit's place in S, H, D, C."""
        return _FAMILY_INDEX[self.suit._value_]

    def __hash__(self) -> int:
        # the value the dataclass would give, hash((rank, suit)), without Enum.__hash__
        return hash((self.rank, self.suit._name_))

    def __str__(self) -> str:
        return (_RANK_TEXT.get(self.rank) or str(self.rank)) + self.suit._value_

    def sort_key(self) -> tuple[int, int]:
        """Canonical order: by rank, then suit S, H, D, C."""
        return (self.rank, self.suit.index)


class Joker:
    """The joker. There is one value, :data:`JOKER`; every joker in a list is that value."""

    _instance: Joker | None = None
    __slots__ = ()

    def __new__(cls) -> Joker:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __str__(self) -> str:
        return "JK"

    def __repr__(self) -> str:
        return "JOKER"

    def __reduce__(self) -> str:
        return "JOKER"

    def sort_key(self) -> tuple[int, int]:
        """Jokers sort after every numbered piece."""
        return (99, 0)


JOKER: Final = Joker()

Piece = Tile | Card | Joker
"""Any piece: a tile, a card or the joker."""

Family = Colour | Suit
Material = Literal["tiles", "cards"]


def is_joker(piece: Piece) -> bool:
    """True for the joker."""
    return piece is JOKER


def tile_value(piece: Tile) -> int:
    """Face value of a tile in points (1–13)."""
    return piece.number


def card_value(card: Card) -> int:
    """Card value in points: ace 1, 2–10 face, J Q K 10 (RULES.md §5, §6)."""
    return 10 if card.rank > 10 else card.rank


def piece_value(piece: Tile | Card) -> int:
    """Value in points of a numbered piece: a tile's number, or a card's value."""
    if isinstance(piece, Card):
        return card_value(piece)
    return piece.number


def make_piece(material: Material, number: int, family_index: int) -> Tile | Card:
    """Build a tile (``material='tiles'``) or card from a number 1–13 and a family index 0–3."""
    if material == "tiles":
        return Tile(COLOURS[family_index], number)
    return Card(number, SUITS[family_index])


@dataclass(frozen=True, slots=True)
class PieceSet:
    """What one variant's set holds: ``copies`` of each numbered piece and ``jokers`` jokers.

    Attributes:
        material: ``"tiles"`` or ``"cards"``.
        copies: copies of each numbered tile/card (2 for tiles, 1 per card deck).
        jokers: jokers in the whole set (2 in the 106-tile set; 0 in gin; 1 per Carousel deck).
        name: a short description used in error messages, e.g. ``"the 106-tile set"``.
    """

    material: Material
    copies: int
    jokers: int
    name: str

    @property
    def size(self) -> int:
        """Number of pieces in the whole set (106 tiles, 52 or 53/106 cards)."""
        return 52 * self.copies + self.jokers

    def check_copies(self, pieces: Iterable[Piece], where: str = "") -> None:
        """Raise :class:`TooManyCopiesError` if ``pieces`` hold more copies than the set has.

        Args:
            pieces: any pieces of this set's material.
            where: optional context for the message, e.g. ``"in Ola's hand"``.
        """
        if not isinstance(pieces, list | tuple):
            pieces = list(pieces)
        distinct = set(pieces)
        if len(distinct) == len(pieces) and (self.jokers or JOKER not in distinct):
            return  # no piece twice (every set holds each piece at least once)
        counts = Counter(pieces)
        for piece, n in counts.items():
            limit = self.jokers if piece is JOKER else self.copies
            if n > limit:
                raise TooManyCopiesError.of(str(piece), n, limit, self.name, where)


TILE_SET: Final = PieceSet("tiles", 2, 2, "the 106-tile set")
GIN_DECK: Final = PieceSet("cards", 1, 0, "a 52-card deck")
CAROUSEL_ONE_DECK: Final = PieceSet("cards", 1, 1, "one 53-card deck")
CAROUSEL_TWO_DECKS: Final = PieceSet("cards", 2, 2, "two 53-card decks")


def carousel_set(players: int | None) -> PieceSet:
    """Carousel's deck by player count: one 53-card deck for 2 players, two for 3–5.

    ``None`` (player count not given) assumes two decks (RULES.md §1).
    """
    return CAROUSEL_ONE_DECK if players == 2 else CAROUSEL_TWO_DECKS


def sort_pieces(pieces: Iterable[Piece]) -> list[Piece]:
    """Pieces in canonical order: by number, then colour/suit, jokers last."""
    return sorted(pieces, key=lambda p: p.sort_key())


__all__ = [
    "CAROUSEL_ONE_DECK",
    "CAROUSEL_TWO_DECKS",
    "COLOURS",
    "GIN_DECK",
    "JOKER",
    "RANK_NAMES",
    "SUITS",
    "TILE_SET",
    "Card",
    "Colour",
    "Family",
    "Joker",
    "Material",
    "Piece",
    "PieceSet",
    "Suit",
    "Tile",
    "card_value",
    "carousel_set",
    "is_joker",
    "make_piece",
    "piece_value",
    "sort_pieces",
    "tile_value",
]
