"""The tile and card keyboard: build a meld, a rack or a hand by tapping, the way it lies.

Tiles: tap a colour (red, blue, black, yellow), then numbers 1–13; the colour stays chosen,
so a run is one colour tap and its numbers. Cards: a suit, then ranks A 2–10 J Q K. The joker
key adds a joker where the variant has them (not in gin). Backspace takes the last piece back,
Clear empties the row. A text field shows the same pieces in RULES.md §1 notation and typing in
it works too (both stay in step). The pieces built are drawn as tiles or cards
(:mod:`app.ui.common.pieces`), and every key has a spoken name: "red", "red 7", "7 of hearts",
"joker", "Backspace".

:class:`PieceKeyboard` edits one row of pieces; :class:`MeldsEditor` edits a list of melds
(a table, an opening) with one keyboard working on the chosen meld; :class:`KeyPad` is one set
of one-key-per-piece keys shared by several rows (the hands of a round entry), kept in one
place while the row it edits changes. Handlers only change
control values, so both work in logic tests without a page (call ``pick_family``,
``press_number``, ``press_joker``, ``backspace``, ``clear``, ``type_text``).
"""

from __future__ import annotations

import asyncio
import copy
import logging
import re
from collections.abc import Callable, Sequence
from typing import Any

import flet as ft

from app import verdict_render
from app.i18n import _, ngettext, npgettext
from app.ui.common import labels
from app.ui.common.pieces import (
    FAMILIES,
    JOKER,
    JOKER_INK,
    RANKS,
    SIZES,
    SUIT_COLOURS,
    SUIT_ICONS,
    TILE_COLOURS,
    TILE_FACE,
    family_name,
    material_of,
    meld_view,
    number_name,
    piece_name,
    piece_view,
    pieces_names,
)
from app.ui.common.widgets import ERROR_COLOUR, MUTED, readable
from rules.errors import RulesError
from rules.notation import format_pieces, parse_pieces
from rules.variant import meld_rules, piece_set

KEY_HEIGHT = 48
"""Height of a key (px): a thumb's width."""
GRID_KEY_HEIGHT = 40
CHOSEN_ROW_HEIGHT = SIZES["s"].height + 10
"""Grid mode: the height (px) of the row of chosen pieces above the keys, the same empty
(its hint) as full (one row of small pieces, scrolled sideways when longer), so the keys never
move under a finger when a tap adds a piece."""
"""Height of a key of the one-key-per-piece grid (8 rows of them fit a phone screen)."""

Changed = Callable[[], None]

REFUSAL_SECONDS = 6.0
"""How long a refused tap's reason stays on screen (s) when the player taps nothing else: a
valid tap, Backspace or Clear takes it away at once. Screen readers hear it when it appears
(a live region)."""

log = logging.getLogger(__name__)


def family_text_size(name: str) -> int:
    """Font size (px, bold) of a colour's name on its key: 14, or 12 for a name longer than
    7 letters ("czerwony", "niebieski" fit a chosen key, inside its 4 px frame, from 58 px)."""
    return 14 if len(name) <= 7 else 12


def _key(
    content: ft.Control,
    on_click: Callable[[Any], None],
    bgcolor: str = ft.Colors.WHITE,
    border: str = ft.Colors.BLUE_GREY_200,
    width: int | None = None,
) -> ft.Container:
    """One key: a rounded, inked tap target that takes its share of the row."""
    return ft.Container(
        content=content,
        on_click=on_click,
        ink=True,
        height=KEY_HEIGHT,
        width=width,
        expand=width is None,
        alignment=ft.Alignment.CENTER,
        bgcolor=bgcolor,
        border=ft.Border.all(1, border),
        border_radius=8,
    )


def _named(
    key: ft.Container, label: str, on_tap: Callable[[Any], None], expand: bool = True
) -> ft.Semantics:
    """A key as one button for screen readers (and the browser tests): "red 7, 1 left"."""
    key.expand = False
    return ft.Semantics(
        label=label,
        button=True,
        exclude_semantics=True,
        on_tap=on_tap,
        content=key,
        expand=expand,
    )


class PieceKeyboard:
    """A row of pieces built by tapping or typing.

    Args:
        variant: the variant (sets tiles or cards, jokers or not, copy limits).
        label: what is being entered ("Meld", "Rack"); names the text field.
        on_change: called after every change of the pieces.
        players: player count (Carousel: one deck for two players, else two).
        max_pieces: most pieces the row may hold (None: no limit).
        show_pieces: draw the pieces above the keys (off where the owner draws them).
        others: pieces entered elsewhere that count against the same copy limits.
        on_focus: called when the user taps the drawn pieces to edit them (the screen may then
            hide other keyboards); see :meth:`show_keys`.
        grid: one key per piece (every colour/suit × 1–13, and the joker) instead of a
            colour/suit row and number keys: one tap per piece. Each key shows how many copies
            of it are left (dots: filled = still free, hollow = taken here or in
            :attr:`others`); a piece with none left is drawn faded. The text field stays out
            of the hidden part, so typing works with the keys closed.
        keys_at: grid mode only. ``"own"``: the row with its keys under it; ``"elsewhere"``: the
            row (drawn pieces, text field, refusal line) without keys, which are a
            :class:`KeyPad` shared by several rows (:attr:`keys_box` ``.visible`` then says
            whether the pad edits this row: the row is drawn highlighted); ``"only"``: the keys
            alone, editing :attr:`target` (the pad itself).

    Attributes:
        pieces: the pieces in canonical notation, in the order entered.
        family: the colour/suit letter the number keys add.
        control: the whole keyboard.
    """

    def __init__(
        self,
        variant: str,
        label: str,
        on_change: Changed | None = None,
        players: int | None = None,
        max_pieces: int | None = None,
        show_pieces: bool = True,
        others: Callable[[], Sequence[str]] | None = None,
        on_focus: Callable[[PieceKeyboard], None] | None = None,
        grid: bool = False,
        keys_at: str = "own",
    ) -> None:
        if keys_at not in ("own", "elsewhere", "only") or (keys_at != "own" and not grid):
            raise ValueError(f"keys_at={keys_at!r} (grid {grid})")
        self.variant = variant
        self.label = label
        self.grid = grid
        self.keys_at = keys_at
        self.target: PieceKeyboard | None = None
        """``keys_at="only"``: the row the keys edit (None: a tap does nothing)."""
        self.on_refused: Callable[[], None] | None = None
        """``keys_at="only"``: called after a tap :attr:`target` refused (it changed nothing,
        so its owner hears nothing; the pad shows the refusal)."""
        self.on_focus = on_focus
        self.material = material_of(variant)
        self.rules = meld_rules(variant)
        self.set = piece_set(variant, players)
        self.on_change = on_change
        self.max_pieces = max_pieces
        self.others = others
        self.pieces: list[str] = []
        self.tapped = False
        """True while :attr:`on_change` runs for a piece added by a key (not typed)."""
        self.families = FAMILIES[self.material]
        self.family = self.families[0]
        self.error = ft.Text("", color=ERROR_COLOUR, size=14, visible=False)
        self.said = ft.Semantics(live_region=True, content=self.error, visible=False)
        """:attr:`error` as a live region: a screen reader says a refusal when it appears."""
        self._refusal: object | None = None
        """The refusal now shown (a token: a later one, or a change, replaces it)."""
        self.on_quiet: Callable[[], None] | None = None
        """Called after a refusal went away by itself (:data:`REFUSAL_SECONDS`), before the
        page is drawn again: the pad showing it brings its line up to date."""
        self.drawn = (
            ft.Row(spacing=4, scroll=ft.ScrollMode.HIDDEN, auto_scroll=True)
            if grid
            else ft.Row(wrap=True, spacing=4, run_spacing=6)
        )
        self.placeholder = ft.Text(
            _("Tap a colour, then the numbers")
            if self.material == "tiles"
            else _("Tap a suit, then the ranks"),
            size=14,
            color=MUTED,
            italic=True,
        )
        self.show_pieces = show_pieces
        self.pieces_box = ft.Container(
            content=ft.Column([self.placeholder, self.drawn], spacing=0, tight=True)
            if not grid
            else ft.Stack(  # one height, empty or full: the keys below stay put
                [
                    ft.Container(self.placeholder, alignment=ft.Alignment.CENTER_LEFT),
                    ft.Container(self.drawn, alignment=ft.Alignment.CENTER_LEFT),
                ],
                height=CHOSEN_ROW_HEIGHT,
            ),
            padding=ft.Padding.symmetric(horizontal=4, vertical=4),
            visible=show_pieces,
            on_click=self._pieces_clicked if on_focus is not None else None,
            border_radius=8,
        )
        self.pieces_tap: ft.Semantics | None = None
        if on_focus is not None:  # the drawn pieces are a button: "Rack: red 5, blue 7"
            self.pieces_tap = ft.Semantics(
                label=label,
                button=True,
                exclude_semantics=True,
                on_tap=self._pieces_clicked,
                content=self.pieces_box,
            )
        example = "R11 R12 JK" if self.material == "tiles" else "10H JH QH"
        if not self.rules.jokers:
            example = "7S 7H 7D"
        self.field = ft.TextField(
            label=label,
            hint_text=example,
            capitalization=ft.TextCapitalization.CHARACTERS,
            autocorrect=False,
            enable_suggestions=False,
            dense=True,
            text_size=17,
            expand=True,
            on_change=self._typed,
            error_max_lines=3,
        )
        self.family_keys: dict[str, ft.Container] = {}
        for letter in self.families:
            self.family_keys[letter] = self._family_key(letter)
        self.joker_key: ft.Container | None = None
        if self.rules.jokers:
            self.joker_key = _key(
                ft.Row(
                    [
                        ft.Icon(
                            ft.Icons.SENTIMENT_VERY_SATISFIED
                            if self.material == "tiles"
                            else ft.Icons.STAR,
                            color=JOKER_INK,
                            size=20,
                        ),
                        ft.Text(
                            "JK",
                            size=15,
                            weight=ft.FontWeight.W_700,
                            color=JOKER_INK,
                            semantics_label=_("joker"),
                        ),
                    ],
                    spacing=2,
                    tight=True,
                    alignment=ft.MainAxisAlignment.CENTER,
                ),
                self._joker_clicked,
                bgcolor=ft.Colors.PURPLE_50,
                border=ft.Colors.PURPLE_200,
            )
        numbers = [str(n) for n in range(1, 14)] if self.material == "tiles" else list(RANKS)
        self.number_texts: dict[int, ft.Text] = {}
        self.number_suits: dict[int, ft.Icon] = {}
        self.number_keys: dict[int, ft.Container] = {}
        for n, text in enumerate(numbers, 1):
            t = ft.Text(text, size=20, weight=ft.FontWeight.W_800, no_wrap=True)
            self.number_texts[n] = t
            body: ft.Control = t
            if self.material == "cards":  # the suit the rank key adds, small under it
                icon = ft.Icon(SUIT_ICONS[self.family], size=11)
                self.number_suits[n] = icon
                body = ft.Column(
                    [t, icon],
                    spacing=0,
                    tight=True,
                    horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                    alignment=ft.MainAxisAlignment.CENTER,
                )
            self.number_keys[n] = _key(body, self._number_handler(n))
        self.back_key = _key(
            ft.Icon(ft.Icons.BACKSPACE_OUTLINED, size=22, semantics_label=_("Backspace")),
            self._back_clicked,
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
        )
        self.clear_key = ft.Container(
            content=ft.Text(_("Clear"), size=15, weight=ft.FontWeight.W_600),
            on_click=self._clear_clicked,
            ink=True,
            height=KEY_HEIGHT,
            padding=ft.Padding.symmetric(horizontal=12),
            alignment=ft.Alignment.CENTER,
            border_radius=8,
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
        )
        family_row: list[ft.Control] = list(self.family_keys.values())
        if self.joker_key is not None:
            family_row.append(self.joker_key)
        keys: list[ft.Control] = list(self.number_keys.values())
        self.grid_keys: dict[str, ft.Container] = {}
        """Grid mode: the key of each piece code (``R7``, ``7H``, ``JK``)."""
        self.grid_names: dict[str, ft.Text] = {}
        self.grid_dots: dict[str, ft.Row] = {}
        self.grid_spoken: dict[str, ft.Semantics] = {}
        field_row = ft.Row(
            [self.field, self.clear_key],
            spacing=6,
            vertical_alignment=ft.CrossAxisAlignment.START,
        )
        if grid:
            field_row.controls[1] = _named(
                self.clear_key, _("Clear"), self._clear_clicked, expand=False
            )
            self.keys = ft.Column(spacing=3)  # built when first shown (:meth:`_build_grid`)
            self.keys_box = ft.Column([self.keys], spacing=6)
            self.control = ft.Column(
                [self.pieces_tap or self.pieces_box, field_row, self.said, self.keys_box],
                spacing=6,
            )
            if keys_at == "elsewhere":  # the pad holds the keys; the flag says it edits this row
                self.control.controls = [self.pieces_tap or self.pieces_box, field_row, self.said]
            elif keys_at == "only":
                self._build_grid()
                self.control = ft.Column([self.keys_box], spacing=0)
        else:
            self.keys = ft.Column(
                [
                    ft.Row(family_row, spacing=5),
                    ft.Row(keys[:7], spacing=4),
                    ft.Row([*keys[7:], self.back_key], spacing=4),
                ],
                spacing=6,
            )
            self.keys_box = ft.Column([field_row, self.said, self.keys], spacing=6)
            self.control = ft.Column([self.pieces_tap or self.pieces_box, self.keys_box], spacing=6)
        self._paint()

    # -- the grid (one key per piece) -----------------------------------------------------------
    def _code(self, family: str, n: int) -> str:
        rank = str(n) if self.material == "tiles" else RANKS[n - 1]
        return f"{family}{rank}" if self.material == "tiles" else f"{rank}{family}"

    def _build_grid(self) -> None:
        """Two rows per colour/suit (1–7, 8–13) and, in the free seventh place, the joker
        (first colour/suit) and Backspace (last). Built the first time the keys are shown, so
        a form with a keyboard per player sends the keys of the open one only."""
        if self.keys.controls:
            return
        rows: list[ft.Control] = []
        last = self.families[-1]
        for family in self.families:
            codes = [self._code(family, n) for n in range(1, 14)]
            first: list[ft.Control] = [self._grid_key(c, family) for c in codes[:7]]
            second: list[ft.Control] = [self._grid_key(c, family) for c in codes[7:]]
            if family == self.families[0] and self.rules.jokers:
                second.append(self._grid_key(JOKER, ""))
            elif family == last:
                grid_back = _key(
                    ft.Icon(ft.Icons.BACKSPACE_OUTLINED, size=20, semantics_label=_("Backspace")),
                    self._back_clicked,
                    bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
                )
                grid_back.height = GRID_KEY_HEIGHT
                second.append(_named(grid_back, _("Backspace"), self._back_clicked))
            else:
                second.append(ft.Container(expand=True, height=GRID_KEY_HEIGHT))
            rows.append(ft.Row(first, spacing=3))
            rows.append(
                ft.Container(
                    ft.Row(second, spacing=3),
                    margin=ft.Margin.only(bottom=5) if family != last else None,
                )
            )
        self.keys.controls = rows

    def _grid_key(self, code: str, family: str) -> ft.Semantics:
        joker = code == JOKER
        colour: str
        if joker:
            colour = JOKER_INK
            text = "JK"
        else:
            colour = TILE_COLOURS[family] if self.material == "tiles" else SUIT_COLOURS[family]
            text = code[1:] if self.material == "tiles" else code[:-1]
        name = ft.Text(
            text,
            size=17 if len(text) < 2 else 15,
            weight=ft.FontWeight.W_800,
            color=colour,
            no_wrap=True,
            semantics_label=_("joker") if joker else number_name(family, text, self.material),
        )
        top: list[ft.Control] = [name]
        if self.material == "cards" and not joker:
            top.append(ft.Icon(SUIT_ICONS[family], size=12, color=colour))
        dots = ft.Row(spacing=2, tight=True, alignment=ft.MainAxisAlignment.CENTER)
        self.grid_names[code] = name
        self.grid_dots[code] = dots
        body = ft.Column(
            [
                ft.Row(top, spacing=1, tight=True, alignment=ft.MainAxisAlignment.CENTER),
                dots,
            ],
            spacing=1,
            tight=True,
            alignment=ft.MainAxisAlignment.CENTER,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        )

        def tapped(_e: Any = None) -> None:
            self.press(code)

        key = _key(
            body,
            tapped,
            bgcolor=TILE_FACE if self.material == "tiles" else ft.Colors.WHITE,
            border=ft.Colors.BLUE_GREY_200,
        )
        key.height = GRID_KEY_HEIGHT
        key.padding = 0
        self.grid_keys[code] = key
        spoken = _named(key, name.semantics_label or code, tapped)
        self.grid_spoken[code] = spoken
        return spoken

    def press(self, code: str) -> bool:
        """Grid mode: add the piece ``code`` (canonical notation); False, with the reason
        shown, when none is left (the pad: to :attr:`target`; False without one)."""
        if self.keys_at == "only":
            if self.target is None:
                return False
            ok = self.target.press(code)
            if not ok and self.on_refused is not None:
                self.on_refused()
            return ok
        if code == JOKER:
            return self.press_joker()
        return self.add(code)

    def copies_left(self) -> dict[str, int]:
        """For each piece code of the set: copies not yet taken here or in :attr:`others`."""
        taken: dict[str, int] = {}
        extra = list(self.others()) if self.others is not None else []
        for c in [*self.pieces, *extra]:
            taken[c] = taken.get(c, 0) + 1
        out = {}
        for family in self.families:
            for n in range(1, 14):
                code = self._code(family, n)
                out[code] = self.set.copies - taken.get(code, 0)
        if self.rules.jokers:
            out[JOKER] = self.set.jokers - taken.get(JOKER, 0)
        return out

    def _paint_grid(self) -> None:
        src = self.target if self.keys_at == "only" and self.target is not None else self
        left = src.copies_left()
        here: dict[str, int] = {}
        for c in src.pieces:
            here[c] = here.get(c, 0) + 1
        for code, key in self.grid_keys.items():
            n_left = left.get(code, 0)
            limit = self.set.jokers if code == JOKER else self.set.copies
            mine = here.get(code, 0)
            key.opacity = 1.0 if n_left > 0 or mine else 0.35
            key.bgcolor = (
                ft.Colors.AMBER_100
                if mine
                else (TILE_FACE if self.material == "tiles" else ft.Colors.WHITE)
            )
            key.border = ft.Border.all(
                2 if mine else 1, ft.Colors.AMBER_700 if mine else ft.Colors.BLUE_GREY_200
            )
            self.grid_dots[code].controls = [
                ft.Container(
                    width=6,
                    height=6,
                    border_radius=3,
                    bgcolor=ft.Colors.BLUE_GREY_600 if i < n_left else None,
                    border=ft.Border.all(1, ft.Colors.BLUE_GREY_400),
                )
                for i in range(max(limit, 0))
            ]
            name = self.grid_names[code]
            base = _("joker") if code == JOKER else piece_name(code, self.material)
            if n_left <= 0 and limit == 1 and mine:
                state = _("in this hand")
            elif n_left <= 0:
                state = _("none left")
            elif n_left < limit:
                state = ngettext("{n} left", "{n} left", n_left).format(n=n_left)
            else:
                state = ""
            name.semantics_label = f"{base}, {state}" if state else base
            self.grid_spoken[code].label = name.semantics_label

    # -- building the keys ----------------------------------------------------------------------
    def _family_key(self, letter: str) -> ft.Container:
        name = family_name(letter, self.material)
        if self.material == "tiles":
            colour = TILE_COLOURS[letter]
            body: ft.Control = ft.Text(
                name,
                size=family_text_size(name),
                weight=ft.FontWeight.W_700,
                color=ft.Colors.WHITE,
                max_lines=1,
                overflow=ft.TextOverflow.ELLIPSIS,
            )
            key = _key(body, self._family_handler(letter), bgcolor=colour, border=colour)
        else:
            body = ft.Icon(
                SUIT_ICONS[letter], color=SUIT_COLOURS[letter], size=26, semantics_label=name
            )
            key = _key(body, self._family_handler(letter))
        return key

    def _family_handler(self, letter: str) -> Callable[[Any], None]:
        def handler(_e: Any = None) -> None:
            self.pick_family(letter)

        return handler

    def _number_handler(self, n: int) -> Callable[[Any], None]:
        def handler(_e: Any = None) -> None:
            self.press_number(n)

        return handler

    def _joker_clicked(self, _e: Any = None) -> None:
        self.press_joker()

    def _back_clicked(self, _e: Any = None) -> None:
        self.backspace()

    def _clear_clicked(self, _e: Any = None) -> None:
        self.clear()

    def _pieces_clicked(self, _e: Any = None) -> None:
        self.focus()

    def focus(self) -> None:
        """Show the keys (and tell the screen, which may hide other keyboards)."""
        self.show_keys(True)
        if self.on_focus is not None:
            self.on_focus(self)

    def show_keys(self, visible: bool) -> None:
        """Show or hide the keys and the text field (the drawn pieces stay). Grid mode builds
        its keys the first time they are shown."""
        self.keys_box.visible = visible
        if visible and self.grid and self.keys_at == "own":
            self._build_grid()
        self._paint()

    def _typed(self, e: Any = None) -> None:
        value = getattr(getattr(e, "control", None), "value", None)
        self.type_text(self.field.value if value is None else str(value))

    # -- actions (the handlers; callable from tests) -------------------------------------------
    def pick_family(self, letter: str) -> None:
        """Choose the colour/suit the number keys add (``R``/``B``/``K``/``Y`` or
        ``S``/``H``/``D``/``C``)."""
        if letter not in self.families:
            raise KeyError(letter)
        self.family = letter
        self._paint()

    def press_number(self, n: int) -> bool:
        """Add the chosen colour/suit with number ``n`` (1–13; cards: 1 ace … 13 king).
        Returns False (and says why) when the set holds no more of it."""
        if not 1 <= n <= 13:
            raise ValueError(n)
        rank = str(n) if self.material == "tiles" else RANKS[n - 1]
        code = f"{self.family}{rank}" if self.material == "tiles" else f"{rank}{self.family}"
        return self.add(code)

    def press_joker(self) -> bool:
        """Add a joker (only where the variant plays with jokers)."""
        if not self.rules.jokers:
            self._say(
                _("{variant} is played without jokers").format(
                    variant=labels.variant_name(self.variant)
                )
            )
            return False
        return self.add("JK")

    def add(self, code: str) -> bool:
        """Add one piece in notation; False (with the reason shown) when it cannot be. Where
        the row holds one piece only (a taken discard), the new piece replaces the old."""
        if self.max_pieces == 1 and self.pieces:
            self.pieces = []
        if self.max_pieces is not None and len(self.pieces) >= self.max_pieces:
            self._say(self._at_most())
            return False
        try:
            self._check([*self.pieces, code])
        except RulesError as e:  # the refusal says what the row holds, not what was refused
            self._say(readable(verdict_render.refusal_text(e, variant=self.variant)))
            return False
        self.pieces.append(code)
        self.field.value = " ".join(self.pieces)
        self.field.error = None
        self.tapped = True
        self._changed()
        self.tapped = False
        return True

    def backspace(self) -> None:
        """Take the last piece back (the pad: of :attr:`target`)."""
        if self.keys_at == "only":
            if self.target is not None:
                self.target.backspace()
            return
        if self.pieces:
            self.pieces.pop()
        self.field.value = " ".join(self.pieces)
        self.field.error = None
        self._changed()

    def clear(self) -> None:
        """Empty the row."""
        self.pieces = []
        self.field.value = ""
        self.field.error = None
        self._changed()

    def type_text(self, text: str, notify: bool = True) -> None:
        """The text field changed to ``text``: read it as notation. Good tokens become the
        pieces; a bad token is named under the field (the pieces before it stay).
        ``notify=False``: no :attr:`on_change` (the owner set the text itself)."""
        tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
        good: list[str] = []
        problem: str | None = None
        for i, tok in enumerate(tokens):
            try:
                piece = parse_pieces(
                    [tok],
                    self.material,
                    jokers_allowed=self.rules.jokers,
                    variant_name=labels.variant_name(self.variant),
                )[0]
            except RulesError as e:
                problem = readable(
                    verdict_render.error_text(e, position=i + 1, variant=self.variant)
                )
                break
            code = format_pieces([piece])[0]
            try:
                self._check([*good, code])
            except RulesError as e:
                problem = readable(verdict_render.error_text(e, variant=self.variant))
                break
            good.append(code)
        if self.max_pieces is not None and len(good) > self.max_pieces:
            good = good[: self.max_pieces]
            problem = self._at_most()
        self.field.error = problem
        self.pieces = good
        if notify:
            self._changed(echo=False)
        else:
            self._paint()

    def mirror(self, codes: Sequence[str]) -> None:
        """Draw ``codes`` as the pieces (and mark the keys) without touching the text field
        or notifying: the owner read the field itself."""
        self.pieces = [str(c) for c in codes]
        self._paint()

    def set_pieces(self, codes: Sequence[str]) -> None:
        """Show ``codes`` (canonical notation) without notifying."""
        self.pieces = [str(c) for c in codes]
        self.field.value = " ".join(self.pieces)
        self.field.error = None
        self.error.visible = False
        self.said.visible = self.error.visible  # Flet refuses an empty Semantics
        self._paint()

    def take_from(self, other: PieceKeyboard) -> None:
        """Hold what ``other`` holds (the same row built before the session's language
        changed): its pieces, its colour/suit, its typed text (a problem in it named again, in
        the language now in force) and whether its keys show. Does not notify."""
        self.family = other.family if other.family in self.families else self.family
        if other.problem:
            self.field.value = other.field.value
            self.type_text(other.field.value or "", notify=False)
        else:
            self.set_pieces(other.pieces)
        self.show_keys(bool(other.keys_box.visible))

    @property
    def value(self) -> list[str]:
        """The pieces in canonical notation."""
        return list(self.pieces)

    @property
    def problem(self) -> str | None:
        """What is wrong with the typed text (a bad token, too many copies), else ``None``.

        While there is a problem the pieces shown are only the good ones before it, so no
        verdict should be given on them.
        """
        error = self.field.error
        return error if isinstance(error, str) and error else None

    # -- inside ---------------------------------------------------------------------------------
    def _check(self, codes: Sequence[str]) -> None:
        """Raise a RulesError when ``codes`` (with :attr:`others`) exceed the set's copies."""
        extra = list(self.others()) if self.others is not None else []
        pieces = parse_pieces(
            [*codes, *extra],
            self.material,
            jokers_allowed=self.rules.jokers,
            variant_name=labels.variant_name(self.variant),
        )
        self.set.check_copies(pieces, "")

    def _at_most(self) -> str:
        """ "At most 1 tile here" / "… card here" (the row's limit)."""
        n = self.max_pieces or 0
        if self.material == "tiles":
            text = npgettext("tiles", "At most {n} piece here", "At most {n} pieces here", n)
        else:
            text = npgettext("cards", "At most {n} piece here", "At most {n} pieces here", n)
        return text.format(n=n)

    def _say(self, message: str) -> None:
        self.error.value = message
        self.error.visible = True
        self.said.visible = self.error.visible  # Flet refuses an empty Semantics
        refusal = self._refusal = object()
        try:
            page = self.error.page
        except RuntimeError:  # not on a page (logic tests): it stays until the next change
            return

        async def later() -> None:
            await asyncio.sleep(REFUSAL_SECONDS)
            if self.quiet(refusal):
                try:
                    page.update()
                except Exception:  # noqa: BLE001 - the phone left meanwhile
                    log.debug("refusal not cleared on the screen", exc_info=True)

        try:
            page.run_task(later)
        except Exception:  # noqa: BLE001 - a page closing: nothing to clear on it
            log.debug("no timer for the refusal", exc_info=True)

    def quiet(self, refusal: object | None = None) -> bool:
        """Take the refusal shown away (``refusal``: only if it is still that one, not a later
        one); True when one went."""
        if not self.error.visible or (refusal is not None and refusal is not self._refusal):
            return False
        self.error.visible = False
        self.said.visible = self.error.visible  # Flet refuses an empty Semantics
        self._refusal = None
        if self.on_quiet is not None:
            self.on_quiet()
        return True

    def _changed(self, echo: bool = True) -> None:
        if echo:
            self.error.visible = False
            self.said.visible = self.error.visible  # Flet refuses an empty Semantics
            self._refusal = None
        self._paint()
        if self.on_change is not None:
            self.on_change()

    def _paint(self) -> None:
        """Bring the keys and the drawn row in line with the state."""
        for letter, key in self.family_keys.items():
            chosen = letter == self.family
            if self.material == "tiles":
                key.border = ft.Border.all(
                    4 if chosen else 1, ft.Colors.AMBER_300 if chosen else TILE_COLOURS[letter]
                )
            else:
                key.bgcolor = ft.Colors.AMBER_100 if chosen else ft.Colors.WHITE
                key.border = ft.Border.all(
                    3 if chosen else 1, ft.Colors.AMBER_700 if chosen else ft.Colors.BLUE_GREY_200
                )
        colour = (
            TILE_COLOURS[self.family] if self.material == "tiles" else SUIT_COLOURS[self.family]
        )
        for n, text in self.number_texts.items():
            rank = str(n) if self.material == "tiles" else RANKS[n - 1]
            text.color = colour
            text.semantics_label = number_name(self.family, rank, self.material)
            if n in self.number_suits:
                self.number_suits[n].icon = SUIT_ICONS[self.family]
                self.number_suits[n].color = colour
        self.placeholder.visible = not self.pieces
        if self.pieces_tap is not None:
            self.pieces_tap.label = _("{name}: {pieces}").format(
                name=self.label,
                pieces=pieces_names(self.pieces, self.material)
                if self.pieces
                else _("none yet, tap to enter them"),
            )
        if self.keys_box.visible and self.grid:
            self.placeholder.value = (
                _("Tap the tiles below, or type them")
                if self.material == "tiles"
                else _("Tap the cards below, or type them")
            )
        elif self.keys_box.visible:
            self.placeholder.value = (
                _("Tap a colour, then the numbers")
                if self.material == "tiles"
                else _("Tap a suit, then the ranks")
            )
        else:
            self.placeholder.value = _("None yet: tap here to enter them")
        if self.keys_at == "elsewhere":  # the row the pad edits stands out
            chosen = bool(self.keys_box.visible)
            self.pieces_box.border = ft.Border.all(
                2 if chosen else 1, ft.Colors.PRIMARY if chosen else ft.Colors.OUTLINE_VARIANT
            )
            self.pieces_box.bgcolor = ft.Colors.PRIMARY_CONTAINER if chosen else None
            if self.pieces_tap is not None:
                self.pieces_tap.selected = chosen
        if self.show_pieces and self.grid:
            self.drawn.controls = [piece_view(c, self.material, "s") for c in self.pieces]
        elif self.show_pieces:
            self.drawn.controls = (
                [meld_view(self.pieces, self.material, size="m")] if self.pieces else []
            )
        if self.grid and self.keys_box.visible and self.keys.controls:
            self._paint_grid()

    def spoken(self) -> str:
        """The pieces as a screen reader says them."""
        return pieces_names(self.pieces, self.material)


class MeldList:
    """The melds of a list being edited and the one chosen (pure logic, no Flet).

    Subclasses keeping more lists parallel to :attr:`melds` (the turn checker's jokers'
    declarations) extend :meth:`_keep` and :meth:`_append`, through which every meld is
    dropped, reordered or added here.

    Attributes:
        melds: the melds in notation; the chosen one may be empty while it is being built.
        active: index of the meld chosen (the keys edit it).
        faults: indexes of :attr:`melds` drawn with a red frame; they follow their melds when
            empty ones are dropped.
    """

    def __init__(self) -> None:
        self.melds: list[list[str]] = [[]]
        self.active = 0
        self.faults: set[int] = set()

    @property
    def value(self) -> list[list[str]]:
        """The melds (empty ones left out)."""
        return [list(m) for m in self.melds if m]

    def set_melds(self, melds: Sequence[Sequence[str]]) -> None:
        """Show ``melds`` (each in notation); the last one is chosen, no faults."""
        self.melds = [list(m) for m in melds] or [[]]
        self.active = len(self.melds) - 1
        self.faults = set()

    def set_pieces(self, pieces: Sequence[str]) -> None:
        """The chosen meld is now ``pieces``."""
        self.melds[self.active] = list(pieces)

    def select(self, i: int) -> None:
        """Choose meld ``i`` (empty melds other than it are forgotten).

        Raises:
            IndexError: there is no meld ``i``.
        """
        if not 0 <= i < len(self.melds):
            raise IndexError(i)
        self.active = self._drop_empty(keep=i)

    def new_meld(self) -> None:
        """Start a new, empty meld at the end and choose it."""
        self._drop_empty()
        if self.melds[-1]:
            self._append()
        self.active = len(self.melds) - 1

    def remove_meld(self) -> None:
        """Remove the chosen meld (the last one left is emptied instead)."""
        self._delete(self.active)
        if not self.melds:
            self._append()
        self.active = min(self.active, len(self.melds) - 1)

    def _drop_empty(self, keep: int | None = None) -> int:
        """Forget empty melds other than ``keep`` (a meld left empty is not a meld).

        Returns:
            The new index of meld ``keep`` (0 when None).
        """
        kept = [i for i, m in enumerate(self.melds) if m or i == keep] or [0]
        self._keep(kept)
        return kept.index(keep) if keep is not None and keep in kept else 0

    def _delete(self, i: int) -> None:
        """Remove meld ``i``."""
        self._keep([k for k in range(len(self.melds)) if k != i])

    def _keep(self, kept: list[int]) -> None:
        """Keep only the melds at ``kept`` (old indexes, in order)."""
        self.melds = [self.melds[i] for i in kept]
        self.faults = {kept.index(i) for i in self.faults if i in kept}

    def _append(self) -> None:
        """Add an empty meld at the end."""
        self.melds.append([])


class MeldsEditor:
    """A list of melds (a table, an opening) with one keyboard editing the chosen meld.

    Each meld is drawn as it lies; tap one to edit it, "New meld" starts another, "Remove meld"
    takes the chosen one away. Copy limits count every meld of the list. The meld list itself
    is :attr:`model` (a :class:`MeldList`); the turn checker's table editor
    (:class:`app.ui.referee.turn_table.TableEditor`) builds on this class with a richer model.

    Args:
        variant: the variant.
        title: the list's name ("Table before"); names its melds for screen readers.
        on_change: called after any change.
        players: player count (Carousel decks).
        on_focus: called when the user starts editing this list (the screen may then hide the
            other keyboards).
        rows: name the lines "Row 1", "New row"… instead of melds (the rows of tiles on a
            photo of a rack, which are no melds).

    Attributes:
        model: the melds, the one chosen, the faults.
        changed: True once the user changed the melds.
    """

    def __init__(
        self,
        variant: str,
        title: str,
        on_change: Changed | None = None,
        players: int | None = None,
        on_focus: Callable[[Any], None] | None = None,
        rows: bool = False,
    ) -> None:
        self.variant = variant
        self.title = title
        self.in_rows = rows
        self.material = material_of(variant)
        self.on_change = on_change
        self.on_focus = on_focus
        self.model = self._new_model()
        self.changed = False
        self.keyboard = PieceKeyboard(
            variant,
            self._meld_label(),
            on_change=self._keyboard_changed,
            players=players,
            show_pieces=False,
            others=self._other_pieces,
        )
        self.rows = ft.Column(spacing=6)
        self.new_button = ft.OutlinedButton(
            content=_("New row") if rows else _("New meld"),
            icon=ft.Icons.ADD,
            on_click=self._new_clicked,
            height=44,
        )
        self.remove_button = ft.TextButton(
            content=_("Remove row") if rows else _("Remove meld"),
            icon=ft.Icons.DELETE_OUTLINE,
            on_click=self._remove_clicked,
            height=44,
        )
        self.control = self._layout(players)
        self._paint()

    def _new_model(self) -> MeldList:
        return MeldList()

    def _layout(self, players: int | None) -> ft.Column:
        """Build :attr:`keys_box` and return the whole control (``players``: for the keys a
        subclass adds)."""
        self.keys_box = ft.Column(
            [
                ft.Row([self.new_button, self.remove_button], wrap=True, spacing=8),
                self.keyboard.control,
            ],
            spacing=8,
            visible=True,
        )
        return ft.Column([self.rows, self.keys_box], spacing=8)

    # -- reading --------------------------------------------------------------------------------
    @property
    def melds(self) -> list[list[str]]:
        """The melds in notation (the chosen one may be empty while being built)."""
        return self.model.melds

    @property
    def active(self) -> int:
        """Index of the meld the keyboard edits."""
        return self.model.active

    @property
    def faults(self) -> set[int]:
        """Indexes of :attr:`melds` drawn with a red frame (set by the screen after a verdict)."""
        return self.model.faults

    @faults.setter
    def faults(self, faults: set[int]) -> None:
        self.model.faults = faults

    @property
    def value(self) -> list[list[str]]:
        """The melds entered (empty ones left out)."""
        return self.model.value

    @property
    def problem(self) -> str | None:
        """What is wrong with the text typed into the meld being edited, else ``None``."""
        return self.keyboard.problem

    # -- changing -------------------------------------------------------------------------------
    def select(self, i: int) -> None:
        """Edit meld ``i`` with the keyboard."""
        self.model.select(i)
        self._load_active()
        self.focus()

    def new_meld(self) -> None:
        """Start a new, empty meld at the end and edit it."""
        self.model.new_meld()
        self._load_active()
        self.focus()
        self._notify()

    def remove_meld(self) -> None:
        """Remove the meld being edited."""
        self.model.remove_meld()
        self.faults = set()
        self._load_active()
        self._notify()

    def set_melds(self, melds: Sequence[Sequence[str]]) -> None:
        """Show ``melds`` (each in notation); the last one is then edited."""
        self.model.set_melds(melds)
        self._load_active()

    def take_from(self, other: MeldsEditor) -> None:
        """Hold what ``other`` holds (the same list built before the session's language
        changed): its melds and the one chosen, the text typed into it (a problem named again
        in the language now in force) and whether its keys show. Does not notify."""
        self.model = copy.deepcopy(other.model)
        self.changed = other.changed
        self._load_active()
        if other.keyboard.problem:
            self.keyboard.field.value = other.keyboard.field.value
            self.keyboard.type_text(other.keyboard.field.value or "", notify=False)
        self.show_keys(bool(other.keys_box.visible))

    def focus(self) -> None:
        """Show this list's keyboard (and tell the screen)."""
        self.show_keys(True)
        if self.on_focus is not None:
            self.on_focus(self)

    def show_keys(self, visible: bool) -> None:
        """Show or hide the keyboard (the melds stay)."""
        self.keys_box.visible = visible
        self._paint()

    def set_faults(self, faults: set[int]) -> None:
        """Frame the melds at ``faults`` (indexes into :attr:`value`) in red."""
        # map indexes of value (non-empty melds) onto indexes of self.melds
        full = [i for i, m in enumerate(self.melds) if m]
        self.faults = {full[j] for j in faults if 0 <= j < len(full)}
        self._paint()

    # -- handlers -------------------------------------------------------------------------------
    def _notify(self) -> None:
        self.changed = True
        if self.on_change is not None:
            self.on_change()

    def _keyboard_changed(self) -> None:
        self.model.set_pieces(self.keyboard.value)
        self.faults.discard(self.active)
        self._meld_loaded()
        self._paint()
        self._notify()

    def _other_pieces(self) -> list[str]:
        return [p for i, m in enumerate(self.melds) if i != self.active for p in m]

    def _new_clicked(self, _e: Any = None) -> None:
        self.new_meld()

    def _remove_clicked(self, _e: Any = None) -> None:
        self.remove_meld()

    def _meld_tapped(self, i: int) -> None:
        self.select(i)

    def _meld_handler(self, i: int) -> Callable[[Any], None]:
        def handler(_e: Any = None) -> None:
            self._meld_tapped(i)

        return handler

    # -- inside ---------------------------------------------------------------------------------
    def _meld_label(self) -> str:
        if self.in_rows:
            return _("{title}: row {n}").format(title=self.title, n=self.active + 1)
        return _("{title}: meld {n}").format(title=self.title, n=self.active + 1)

    def _load_active(self) -> None:
        """Put the chosen meld into the keyboard and draw."""
        self.keyboard.label = self._meld_label()
        self.keyboard.field.label = self.keyboard.label
        self.keyboard.set_pieces(self.melds[self.active])
        self._meld_loaded()
        self._paint()

    def _meld_loaded(self) -> None:
        """Called when the chosen meld was loaded into the keys or changed by them (before
        drawing): for what a subclass keeps in step with it."""

    @staticmethod
    def _editing_notes(chosen: bool) -> tuple[str | None, str | None]:
        """What a meld's caption and spoken name add when it is the one being edited."""
        return (_("editing"), _("(editing)")) if chosen else (None, None)

    def _caption(self, i: int, note: str | None, fault: bool) -> ft.Text:
        """The small line above meld ``i``: "Meld 2 · editing" (red when at fault)."""
        caption = (_("Row {n}") if self.in_rows else _("Meld {n}")).format(n=i + 1)
        if note:
            caption += " · " + note
        return ft.Text(
            caption, size=13, weight=ft.FontWeight.W_600, color=ERROR_COLOUR if fault else MUTED
        )

    def _row_label(self, i: int, said: str, note: str | None, fault: bool) -> str:
        """Meld ``i`` as a screen reader says it ("Table before, meld 1: red 5, red 6
        (editing)"; ``said``: its pieces' names, empty for an empty meld)."""
        name = (_("{title}, row {n}") if self.in_rows else _("{title}, meld {n}")).format(
            title=self.title, n=i + 1
        )
        spoken = _("{name}: {pieces}").format(name=name, pieces=said or _("empty"))
        if note:
            spoken += " " + note
        if fault:
            spoken += " " + _("(at fault)")
        return spoken

    @staticmethod
    def _empty_text(chosen: bool) -> ft.Text:
        """What an empty meld shows instead of pieces."""
        return ft.Text(
            _("empty: tap the keys below") if chosen else _("empty: tap to enter it"),
            size=14,
            italic=True,
            color=MUTED,
        )

    def _paint(self) -> None:
        rows: list[ft.Control] = []
        editing = bool(self.keys_box.visible)
        for i, meld in enumerate(self.melds):
            chosen = i == self.active and editing
            fault = i in self.faults
            caption, note = self._editing_notes(chosen)
            body: ft.Control
            if meld:
                body = meld_view(meld, self.material, size="m", fault=fault)
            else:
                body = self._empty_text(chosen)
            spoken = self._row_label(i, pieces_names(meld, self.material), note, fault)
            tap = self._meld_handler(i)
            rows.append(
                ft.Semantics(  # one name for the row: "Table before, meld 1: red 5, red 6"
                    label=spoken,
                    button=True,
                    exclude_semantics=True,
                    on_tap=tap,
                    content=ft.Container(
                        content=ft.Column(
                            [self._caption(i, caption, fault), body], spacing=2, tight=True
                        ),
                        on_click=tap,
                        padding=6,
                        border_radius=10,
                        border=ft.Border.all(
                            2 if chosen else 1,
                            ft.Colors.PRIMARY if chosen else ft.Colors.OUTLINE_VARIANT,
                        ),
                        bgcolor=ft.Colors.PRIMARY_CONTAINER if chosen else None,
                    ),
                )
            )
        self.rows.controls = rows
        self.remove_button.disabled = len(self.melds) <= 1 and not self.melds[0]


PAD_ID = "pinned-keys"
"""The pad's semantics identifier (the web page's ``flt-semantics-identifier`` attribute):
where the screen's part that does not scroll begins, for browser tests."""
PAD_LINE_HEIGHT = 36
"""Height (px) of the pad's line about the row it edits: two lines of 14 px text, the same
for none as for two (a longer one is cut with "…"; all of it shows at the row itself)."""


class KeyPad:
    """One set of piece keys for several rows (the hands of a round), kept in one place: the
    keys edit the row chosen with :meth:`bind`. Choosing another row, a row filling up or a
    refusal moves no key: above the keys, in boxes of one height each, the row's name, its
    pieces (one line, scrolled sideways when longer) and one line about it (a refusal of the
    last tap in red).

    Args:
        variant: the variant (tiles or cards, jokers, copies).
        players: player count (Carousel decks).
        on_hide: called when the "Hide the keys" button is tapped (None: no button).

    Attributes:
        board: the keys (a :class:`PieceKeyboard` with ``keys_at="only"``).
        target: the row the keys edit, or None.
        control: the pad, to be placed outside the screen's scrolling part.
    """

    def __init__(
        self, variant: str, players: int | None = None, on_hide: Callable[[], None] | None = None
    ) -> None:
        self.material = material_of(variant)
        self.board = PieceKeyboard(
            variant, "", players=players, show_pieces=False, grid=True, keys_at="only"
        )
        self.board.on_refused = self.refresh
        self._quiet_row: PieceKeyboard | None = None
        self.target: PieceKeyboard | None = None
        self._shown: tuple[str, str, str | None, str | None] = ("", "", None, None)
        self._drawn: tuple[Any, ...] | None = None
        """What the keys and the drawn row show now (drawn again only when it changes: an
        edit elsewhere in the form sends no 52 new keys to the screen)."""
        self.mark = ft.Container(width=10, height=20, border_radius=3)
        self.title = ft.Text(
            "",
            size=16,
            weight=ft.FontWeight.W_700,
            max_lines=1,
            overflow=ft.TextOverflow.ELLIPSIS,
            expand=True,
        )
        self.count = ft.Text("", size=14, color=MUTED, no_wrap=True)
        head: list[ft.Control] = [self.mark, self.title, self.count]
        if on_hide is not None:

            def hide(_e: Any = None) -> None:
                on_hide()

            head.append(
                ft.Semantics(
                    label=_("Hide the keys"),
                    button=True,
                    exclude_semantics=True,
                    on_tap=hide,
                    content=ft.IconButton(ft.Icons.KEYBOARD_HIDE, on_click=hide, height=36),
                )
            )
        self.drawn = ft.Row(spacing=4, scroll=ft.ScrollMode.HIDDEN, auto_scroll=True)
        self.hint = ft.Text(
            _("Tap the tiles below") if self.material == "tiles" else _("Tap the cards below"),
            size=14,
            color=MUTED,
            italic=True,
        )
        self.pieces = ft.Semantics(
            label="",
            exclude_semantics=True,
            content=ft.Stack(
                [
                    ft.Container(self.hint, alignment=ft.Alignment.CENTER_LEFT),
                    ft.Container(self.drawn, alignment=ft.Alignment.CENTER_LEFT),
                ],
                height=CHOSEN_ROW_HEIGHT,
            ),
        )
        self.line = ft.Text(
            "", size=14, color=MUTED, max_lines=2, overflow=ft.TextOverflow.ELLIPSIS
        )
        self.frame = ft.Container(
            content=ft.Column(
                [
                    ft.Row(
                        head,
                        spacing=6,
                        height=36,
                        vertical_alignment=ft.CrossAxisAlignment.CENTER,
                    ),
                    self.pieces,
                    ft.Container(self.line, height=PAD_LINE_HEIGHT),
                    self.board.control,
                ],
                spacing=2,
            ),
            padding=ft.Padding.only(left=4, top=2, right=4, bottom=4),
            border=ft.Border.only(top=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)),
        )
        self.control = ft.Semantics(
            identifier=PAD_ID, container=True, content=self.frame, visible=False
        )

    def bind(
        self,
        row: PieceKeyboard | None,
        title: str = "",
        line: str = "",
        line_colour: str | None = None,
        mark: str | None = None,
    ) -> None:
        """Edit ``row`` with the keys (None: none; the pad hides) and show ``title`` (the
        row's owner), ``line`` (what the screen says about the row) and the ``mark`` colour.
        A refusal of the row's last tap shows in place of ``line``."""
        self._shown = (title, line, line_colour, mark)
        if self._quiet_row is not None and self._quiet_row is not row:
            self._quiet_row.on_quiet = None
        self._quiet_row = row
        if row is not None:  # its refusal going by itself clears this line too
            row.on_quiet = self.refresh
        self.target = row
        self.board.target = row
        self.control.visible = row is not None
        if row is None:
            return
        self.title.value = title
        self.mark.bgcolor = mark
        n = len(row.pieces)
        self.count.value = (
            ngettext("{n} tile", "{n} tiles", n)
            if self.material == "tiles"
            else ngettext("{n} card", "{n} cards", n)
        ).format(n=n)
        self.count.visible = line != self.count.value  # said once
        self.hint.visible = not row.pieces
        self.pieces.label = _("Now entering: {name}: {pieces}").format(
            name=row.label,
            pieces=pieces_names(row.pieces, self.material) if row.pieces else _("none yet"),
        )
        if row.error.visible and row.error.value:
            # a refusal (a screen reader hears it from the row's own line, a live region)
            self.line.value, self.line.color = str(row.error.value), ERROR_COLOUR
        else:
            self.line.value, self.line.color = line, line_colour or MUTED
        others = sorted(row.others()) if row.others is not None else []
        drawn = (id(row), tuple(row.pieces), tuple(others))
        if drawn != self._drawn:
            self._drawn = drawn
            self.drawn.controls = [piece_view(c, self.material, "s") for c in row.pieces]
            self.board._paint_grid()

    def refresh(self) -> None:
        """Show the row the keys edit as it is now (after a refused tap)."""
        self.bind(self.target, *self._shown)


__all__ = [
    "KEY_HEIGHT",
    "PAD_ID",
    "PAD_LINE_HEIGHT",
    "KeyPad",
    "MeldList",
    "MeldsEditor",
    "PieceKeyboard",
    "family_text_size",
]
