"""Tiles and cards drawn as people see them on the table, for every screen that shows pieces.

A piece is given in the notation of RULES.md §1 as the judge writes it (``R13``, ``JK``,
``10H``, ``QS``) or as an open group joker (``?7``: a 7 of any colour/suit). Tiles are ivory
blocks with a coloured number (red, blue, black, yellow); cards are white with the rank and the
suit symbol in red or black; a joker is a joker face (tiles) or a star (cards). The offline web
font has no card-suit characters, so suits are drawn with the bundled Cupertino suit icons.

Every drawn piece carries its spoken name ("red 7", "7 of hearts", "joker") for screen
readers and the browser tests; a meld's jokers show the piece they stand for underneath.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import flet as ft

from app.i18n import N_, _
from rules.variant import meld_rules

Material = Literal["tiles", "cards"]
Size = Literal["xs", "s", "m", "l"]

TILE_COLOURS: dict[str, str] = {
    "R": ft.Colors.RED_700,
    "B": ft.Colors.BLUE_700,
    "K": ft.Colors.GREY_900,
    "Y": ft.Colors.AMBER_800,
}
"""Ink of the tile colours (yellow is printed orange-amber in most sets, readable on ivory)."""

COLOUR_NAMES: dict[str, str] = {
    "R": N_("red"),
    "B": N_("blue"),
    "K": N_("black"),
    "Y": N_("yellow"),
}
SUIT_NAMES: dict[str, str] = {
    "S": N_("spades"),
    "H": N_("hearts"),
    "D": N_("diamonds"),
    "C": N_("clubs"),
}
RANK_NAMES: dict[str, str] = {
    "A": N_("ace"),
    "J": N_("jack"),
    "Q": N_("queen"),
    "K": N_("king"),
}
SUIT_ICONS: dict[str, ft.IconData] = {
    "S": ft.CupertinoIcons.SUIT_SPADE_FILL,
    "H": ft.CupertinoIcons.SUIT_HEART_FILL,
    "D": ft.CupertinoIcons.SUIT_DIAMOND_FILL,
    "C": ft.CupertinoIcons.SUIT_CLUB_FILL,
}
SUIT_COLOURS: dict[str, str] = {
    "S": ft.Colors.GREY_900,
    "H": ft.Colors.RED_700,
    "D": ft.Colors.RED_700,
    "C": ft.Colors.GREY_900,
}
FAMILIES: dict[Material, tuple[str, ...]] = {
    "tiles": ("R", "B", "K", "Y"),
    "cards": ("S", "H", "D", "C"),
}
RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER = "JK"
TILE_FACE = "#FFF8E7"
CARD_FACE = ft.Colors.WHITE
JOKER_INK = ft.Colors.PURPLE_700
FAULT = ft.Colors.RED_700
OPEN_INK = ft.Colors.BLUE_GREY_500


@dataclass(frozen=True)
class Dim:
    """Measures of one piece size (px)."""

    width: int
    height: int
    font: int
    icon: int
    radius: int


SIZES: dict[Size, Dim] = {
    "xs": Dim(22, 32, 13, 11, 4),  # a card's rank and "?" fit in 30 px inside its border
    "s": Dim(30, 42, 17, 14, 5),
    "m": Dim(38, 54, 22, 18, 6),
    "l": Dim(46, 64, 27, 22, 7),
}


def material_of(variant: str) -> Material:
    """``"tiles"`` or ``"cards"``: what ``variant`` is played with."""
    return meld_rules(variant).material


@dataclass(frozen=True)
class Face:
    """A piece code taken apart: ``family`` is the colour/suit letter ("" for a joker or an open
    joker), ``number`` the printed number or rank ("" for a joker)."""

    code: str
    family: str
    number: str
    joker: bool = False
    open: bool = False


_TILE_RE = re.compile(r"^([RBKY])(\d{1,2})$")
_CARD_RE = re.compile(r"^(A|[2-9]|10|J|Q|K)([SHDC])$")


def face(code: str, material: Material) -> Face:
    """Take a canonical piece code apart (``R13``, ``10H``, ``JK``, ``?7``, ``?Q``).

    Raises:
        ValueError: not a canonical code of that material.
    """
    c = code.strip().upper()
    if c in ("JK", "*", "J") and (material == "tiles" or c != "J"):
        return Face(JOKER, "", "", joker=True)
    if c.startswith("?"):
        return Face(c, "", c[1:], open=True)
    m = (_TILE_RE if material == "tiles" else _CARD_RE).match(c)
    if m is None:
        raise ValueError(f"not a {material[:-1]} code: {code!r}")
    return (
        Face(c, m.group(1), m.group(2)) if material == "tiles" else Face(c, m.group(2), m.group(1))
    )


def number_word(number: str, material: Material) -> str:
    """The spoken rank: "7", "ace", "queen" (cards) or the number (tiles)."""
    if material == "cards" and number in RANK_NAMES:
        return _(RANK_NAMES[number])
    return number


def family_name(letter: str, material: Material) -> str:
    """ "red" / "hearts"."""
    table = COLOUR_NAMES if material == "tiles" else SUIT_NAMES
    return _(table[letter])


def piece_name(code: str, material: Material) -> str:
    """What a screen reader says for a piece: "red 7", "7 of hearts", "queen of spades",
    "joker", "any 7" (an open group joker)."""
    f = face(code, material)
    if f.joker:
        return _("joker")
    if f.open:
        return _("any {number}").format(number=number_word(f.number, material))
    return number_name(f.family, f.number, material)


def number_name(family: str, number: str, material: Material) -> str:
    """The name of the piece ``family`` + ``number``: "red 7" / "7 of hearts"."""
    if material == "tiles":
        return _("{colour} {number}").format(colour=family_name(family, material), number=number)
    return _("{rank} of {suit}").format(
        rank=number_word(number, material), suit=family_name(family, material)
    )


def pieces_names(codes: Iterable[str], material: Material) -> str:
    """ "red 5, red 6, joker"."""
    return ", ".join(piece_name(c, material) for c in codes)


def ink(code: str, material: Material) -> str:
    """The colour a piece's number is printed in."""
    f = face(code, material)
    if f.joker:
        return JOKER_INK
    if f.open:
        return OPEN_INK
    return TILE_COLOURS[f.family] if material == "tiles" else SUIT_COLOURS[f.family]


LINE = 1.15
"""Line height of the text printed on a piece (times its size): fixed, so that a piece's
lines always fit its height (the joker's small "= 8?" card was cut off, 51-sk-meld-joker)."""


def _line() -> ft.TextStyle:
    return ft.TextStyle(height=LINE)  # one per Text: Flet diffs each control's own values


def _body(f: Face, material: Material, d: Dim) -> ft.Control:
    """What is printed on the piece."""
    if f.joker:
        icon = ft.Icons.SENTIMENT_VERY_SATISFIED if material == "tiles" else ft.Icons.STAR
        return ft.Icon(icon, color=JOKER_INK, size=d.font + 4)
    colour = OPEN_INK if f.open else None
    if material == "tiles":
        text = ft.Text(
            f.number,
            size=d.font,
            weight=ft.FontWeight.W_800,
            color=colour or TILE_COLOURS[f.family],
            no_wrap=True,
            style=_line(),
        )
        lines: list[ft.Control] = [text]
        if f.open:
            lines.append(ft.Text("?", size=d.icon - 2, color=OPEN_INK, style=_line()))
        return ft.Column(
            lines,
            spacing=0,
            tight=True,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        )
    font = d.font - 3 if len(f.number) > 1 else d.font
    rank = ft.Text(
        f.number,
        size=font,
        weight=ft.FontWeight.W_700,
        color=colour or SUIT_COLOURS[f.family],
        no_wrap=True,
        style=_line(),
    )
    suit: ft.Control
    if f.open:
        suit = ft.Text("?", size=d.icon, color=OPEN_INK, weight=ft.FontWeight.W_700, style=_line())
    else:
        suit = ft.Icon(SUIT_ICONS[f.family], color=SUIT_COLOURS[f.family], size=d.icon)
    return ft.Column(
        [rank, suit], spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER
    )


def piece_face(
    code: str, material: Material, size: Size = "m", fault: bool = False, dim: bool = False
) -> ft.Container:
    """The piece itself, without a spoken name (see :func:`piece_view`)."""
    d = SIZES[size]
    f = face(code, material)
    return ft.Container(
        content=_body(f, material, d),
        width=d.width,
        height=d.height,
        alignment=ft.Alignment.CENTER,
        bgcolor=TILE_FACE if material == "tiles" else CARD_FACE,
        border=ft.Border.all(2 if fault else 1, FAULT if fault else ft.Colors.BLUE_GREY_200),
        border_radius=d.radius,
        opacity=0.45 if dim else 1.0,
        shadow=None
        if size == "xs"
        else ft.BoxShadow(
            blur_radius=2,
            spread_radius=0,
            offset=ft.Offset(0, 1),
            color=ft.Colors.with_opacity(0.25, ft.Colors.BLACK),
        ),
    )


def piece_view(
    code: str,
    material: Material,
    size: Size = "m",
    stands_for: str | None = None,
    fault: bool = False,
) -> ft.Control:
    """One drawn piece named for screen readers; a joker with ``stands_for`` (``R13``, ``?7``)
    shows that piece small underneath ("= red 13")."""
    name = piece_name(code, material)
    drawn: ft.Control = piece_face(code, material, size, fault)
    if stands_for:
        try:
            small = piece_face(stands_for, material, "xs")
            name = _("joker as {piece}").format(piece=piece_name(stands_for, material))
        except ValueError:
            small = None
        if small is not None:
            drawn = ft.Column(
                [
                    drawn,
                    ft.Row(
                        [ft.Text("=", size=12, color=JOKER_INK), small],
                        spacing=1,
                        tight=True,
                    ),
                ],
                spacing=2,
                tight=True,
                horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            )
    return ft.Semantics(label=name, exclude_semantics=True, content=drawn)


def joker_stand_ins(codes: Sequence[str], jokers: Sequence[str] | None) -> list[str | None]:
    """For each piece of ``codes``: what it stands for when it is a joker (the judge's
    ``jokers`` list gives them in the order the jokers appear), else None."""
    out: list[str | None] = []
    it = iter(jokers or ())
    for c in codes:
        out.append(next(it, None) if c.strip().upper() == JOKER else None)
    return out


def meld_label(codes: Sequence[str], material: Material, jokers: Sequence[str] | None) -> str:
    """ "red 11, red 12, joker as red 13"."""
    names = []
    for c, s in zip(codes, joker_stand_ins(codes, jokers), strict=True):
        if s is not None:
            try:
                names.append(_("joker as {piece}").format(piece=piece_name(s, material)))
                continue
            except ValueError:
                pass
        names.append(piece_name(c, material))
    return ", ".join(names)


def meld_view(
    codes: Sequence[str],
    material: Material,
    jokers: Sequence[str] | None = None,
    size: Size = "m",
    fault: bool = False,
    caption: str | None = None,
) -> ft.Control:
    """A meld as it lies: its pieces in a wrapping row, each joker with the piece it stands
    for underneath; ``fault`` draws it with a red frame; ``caption`` is a small line above."""
    row = ft.Row(
        [
            piece_view(c, material, size, s)
            for c, s in zip(codes, joker_stand_ins(codes, jokers), strict=True)
        ],
        wrap=True,
        spacing=4,
        run_spacing=6,
        vertical_alignment=ft.CrossAxisAlignment.START,
    )
    items: list[ft.Control] = []
    if caption:
        items.append(
            ft.Text(
                caption,
                size=13,
                color=FAULT if fault else ft.Colors.ON_SURFACE_VARIANT,
                weight=ft.FontWeight.W_600 if fault else None,
            )
        )
    items.append(row)
    return ft.Container(
        content=ft.Column(items, spacing=3, tight=True),
        padding=ft.Padding.symmetric(horizontal=6, vertical=5),
        border=ft.Border.all(2, FAULT) if fault else None,
        bgcolor=ft.Colors.RED_50 if fault else None,
        border_radius=8,
    )


def melds_view(
    melds: Sequence[Sequence[str]],
    material: Material,
    jokers: Sequence[Sequence[str] | None] | None = None,
    faults: Iterable[int] = (),
    size: Size = "m",
    captions: Sequence[str] | None = None,
) -> ft.Column:
    """Several melds one under another (``faults``: indexes drawn with a red frame)."""
    bad = set(faults)
    return ft.Column(
        [
            meld_view(
                m,
                material,
                jokers[i] if jokers is not None and i < len(jokers) else None,
                size,
                fault=i in bad,
                caption=captions[i] if captions is not None and i < len(captions) else None,
            )
            for i, m in enumerate(melds)
        ],
        spacing=6,
        tight=True,
    )


__all__ = [
    "FAMILIES",
    "RANKS",
    "Face",
    "face",
    "family_name",
    "ink",
    "material_of",
    "meld_label",
    "meld_view",
    "melds_view",
    "number_name",
    "piece_face",
    "piece_name",
    "piece_view",
    "pieces_names",
]
