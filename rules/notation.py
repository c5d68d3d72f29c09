"""Text ⇄ pieces (RULES.md §1).

Tiles: colour letter ``R B K Y`` + number 1–13 (``R11``, ``y3``); the joker ``JK``, ``*`` or
``J``. Cards: rank ``A 2 … 10 J Q K`` (``T`` = 10) + suit ``S H D C`` or ``♠ ♥ ♦ ♣``
(``10H``, ``qs``, ``A♠``); the joker ``JK`` or ``*``. Case-insensitive; tokens are separated by
spaces or commas. The canonical printed form is upper case: ``R13``, ``JK``, ``10H``, ``QS``.

Errors are :class:`~rules.errors.NotationError` (code ``bad_token``) naming the token, its
position and why it is not a piece.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

from rules.errors import NotationError
from rules.pieces import (
    JOKER,
    RANK_NAMES,
    Card,
    Colour,
    Material,
    Piece,
    PieceSet,
    Suit,
    Tile,
)
from rules.verdict import Line

_SPLIT: Final = re.compile(r"[\s,;]+")
_TILE: Final = re.compile(r"^([A-Z])(\d+)$|^(\d+)([A-Z])$")
_TILE_JOKERS: Final = frozenset({"JK", "*", "J", "JOKER"})
_CARD_JOKERS: Final = frozenset({"JK", "*", "JOKER"})
_COLOURS: Final = {c.value: c for c in Colour}
_SUITS: Final = {s.value: s for s in Suit} | {
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
}
_RANKS: Final = {"A": 1, "1": 1, "T": 10, "J": 11, "Q": 12, "K": 13} | {
    str(n): n for n in range(2, 11)
}


def tokens_of(text: str | Iterable[str]) -> list[str]:
    """Split notation text on spaces, commas or semicolons; a list is taken token by token.

    Args:
        text: ``"R11 R12, JK"`` or ``["R11", "R12", "JK"]``.

    Returns:
        The tokens, stripped; an empty entry of a list is kept as ``""`` (a bad token).
    """
    if isinstance(text, str):
        return [t for t in _SPLIT.split(text.strip()) if t]
    out: list[str] = []
    for item in text:
        one = str(item).strip()
        if one and not any(c.isspace() or c in ",;" for c in one):
            out.append(one)  # the common case, one token per entry: no regex split
            continue
        parts = [t for t in _SPLIT.split(one) if t]
        out.extend(parts or [""])  # an empty entry stays, to be reported as a bad token
    return out


def parse_piece(
    token: str,
    material: Material,
    position: int | None = None,
    jokers_allowed: bool = True,
    variant_name: str = "",
) -> Piece:
    """Read one token as a tile or card.

    Args:
        token: one token, e.g. ``"R11"``, ``"10h"``, ``"JK"``.
        material: ``"tiles"`` or ``"cards"``.
        position: 0-based position of the token in its list, for the error message.
        jokers_allowed: ``False`` where the variant's set has no jokers (gin).
        variant_name: used in the message when a joker is not allowed, e.g. ``"gin"``.

    Returns:
        The :class:`~rules.pieces.Tile`, :class:`~rules.pieces.Card` or ``JOKER``.

    Raises:
        NotationError: the token is not a piece of that material, with the reason.
    """
    raw = token
    t = token.strip().upper().replace("\ufe0f", "")
    if not t:
        raise NotationError(raw, Line("token.empty", {}), position)
    joker_words = _TILE_JOKERS if material == "tiles" else _CARD_JOKERS
    if t in joker_words:
        if not jokers_allowed:
            who = variant_name or "this variant"
            raise NotationError(raw, Line("token.no_jokers", {"variant": who}), position)
        return JOKER
    if material == "tiles":
        return _parse_tile(raw, t, position)
    return _parse_card(raw, t, position)


def _parse_tile(raw: str, t: str, position: int | None) -> Tile:
    m = _TILE.match(t)
    if m is None:
        if t and t[0] in _SUITS and len(t) > 1:
            raise NotationError(raw, Line("token.card_not_tile", {}), position)
        raise NotationError(raw, Line("token.not_a_tile", {}), position)
    letter, digits = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
    colour = _COLOURS.get(letter)
    if colour is None:
        raise NotationError(raw, Line("token.unknown_colour", {"letter": letter}), position)
    number = int(digits)
    if not 1 <= number <= 13:
        raise NotationError(raw, Line("token.number_out_of_range", {"number": number}), position)
    return Tile(colour, number)


def _parse_card(raw: str, t: str, position: int | None) -> Card:
    suit = _SUITS.get(t[-1])
    rank_text = t[:-1]
    if suit is None or rank_text not in _RANKS:
        # also accept suit first: "S10", "♠A"
        alt_suit = _SUITS.get(t[0])
        if alt_suit is not None and t[1:] in _RANKS:
            return Card(_RANKS[t[1:]], alt_suit)
        if suit is None:
            raise NotationError(raw, Line("token.not_a_card", {}), position)
        raise NotationError(raw, Line("token.unknown_rank", {"rank": rank_text}), position)
    return Card(_RANKS[rank_text], suit)


_KNOWN_LONGEST: Final = 16
"""Longest token remembered: the longest a list entry may be (:func:`rules.request.read_pieces`)."""
_KNOWN_MAX: Final = 4096
"""Most tokens remembered per (material, jokers allowed) by :func:`known_pieces`."""
_KNOWN: Final[dict[tuple[str, bool], dict[str, tuple[Piece, int]]]] = {
    (m, j): {} for m in ("tiles", "cards") for j in (True, False)
}
"""Tokens read before, exactly as written (one token, no spaces): piece and its index (0–51
by family and number; -1 for the joker)."""


def _remember(tokens: list[str], pieces: list[Piece], material: Material, jokers: bool) -> None:
    known = _KNOWN[(material, jokers)]
    if len(known) >= _KNOWN_MAX:
        return
    for tok, piece in zip(tokens, pieces, strict=True):
        if tok in known or len(tok) > _KNOWN_LONGEST or tokens_of([tok]) != [tok]:
            continue  # a list entry that long is refused (rules.request), whatever it reads as
        if isinstance(piece, Tile | Card):
            known[tok] = (piece, piece.family_index * 13 + piece.number - 1)
        else:
            known[tok] = (piece, -1)


def known_pieces(
    tokens: Sequence[object],
    material: Material,
    piece_set: PieceSet | None = None,
    jokers_allowed: bool = True,
    where: str = "",
) -> list[Piece] | None:
    """The fast path of :func:`parse_pieces` for a list of tokens each read before.

    Returns:
        The pieces (copy limits checked against ``piece_set`` when given), or ``None`` when a
        token was not read before (or is not a string): then call :func:`parse_pieces`, which
        reports a bad token with its position.

    Raises:
        TooManyCopiesError: more copies of a piece than ``piece_set`` holds.
    """
    known = _KNOWN[(material, jokers_allowed)]
    try:
        found = [known[t] for t in tokens]  # type: ignore[index]
    except (KeyError, TypeError):
        return None
    pieces = [p for p, _ in found]
    if piece_set is not None:
        indexes = {i for _, i in found}
        if len(indexes) != len(found) or -1 in indexes:  # a repeat or a joker: count them
            piece_set.check_copies(pieces, where)
    return pieces


def parse_pieces(
    text: str | Iterable[str],
    material: Material,
    piece_set: PieceSet | None = None,
    jokers_allowed: bool = True,
    variant_name: str = "",
    where: str = "",
) -> list[Piece]:
    """Read a list of pieces from notation text or tokens, keeping their order.

    Args:
        text: ``"R11 R12 JK"`` or ``["R11", "R12", "JK"]``.
        material: ``"tiles"`` or ``"cards"``.
        piece_set: if given, copy limits are checked against it.
        jokers_allowed: ``False`` to refuse jokers (gin).
        variant_name: for messages.
        where: context for copy-limit messages (e.g. ``"in the meld"``).

    Returns:
        The pieces in the given order.

    Raises:
        NotationError: a token is not a piece (names the token and position).
        TooManyCopiesError: more copies of a piece than ``piece_set`` holds.
    """
    tokens = tokens_of(text)
    pieces = [
        parse_piece(tok, material, i, jokers_allowed, variant_name) for i, tok in enumerate(tokens)
    ]
    _remember(tokens, pieces, material, jokers_allowed)
    if piece_set is not None:
        piece_set.check_copies(pieces, where)
    return pieces


def format_piece(piece: Piece) -> str:
    """Canonical text of one piece: ``R13``, ``JK``, ``10H``, ``QS``."""
    return str(piece)


def format_pieces(pieces: Sequence[Piece]) -> list[str]:
    """Canonical text of each piece, in order."""
    return [str(p) for p in pieces]


def format_open_joker(number: int, material: Material) -> str:
    """A joker whose colour/suit is open (in a group): ``?7`` for tiles, ``?Q`` for cards."""
    if material == "cards":
        return "?" + RANK_NAMES.get(number, str(number))
    return f"?{number}"


__all__ = [
    "format_open_joker",
    "format_piece",
    "format_pieces",
    "known_pieces",
    "parse_piece",
    "parse_pieces",
    "tokens_of",
]
