"""Small building blocks shared by the screens: labelled buttons, choice chips, a stepper,
big numbers and the colours of the players.

Every interactive control here carries an accessible name (what screen readers say and what
the browser tests look for). Handlers change control values only; the page is refreshed by
Flet after the handler returns, so the blocks work in logic tests without a page.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from typing import Any

import flet as ft

from app.i18n import _
from rules import scoring

log = logging.getLogger("app")

PLAYER_COLOURS: tuple[str, ...] = (
    ft.Colors.BLUE_700,
    ft.Colors.RED_700,
    ft.Colors.GREEN_700,
    ft.Colors.PURPLE_700,
    ft.Colors.ORANGE_800,
)
"""Colour of player i (seat order) in the chart, the legend and the totals."""

LEADER_BG = ft.Colors.with_opacity(0.3, ft.Colors.AMBER)
ERROR_COLOUR = ft.Colors.ERROR
GOOD_COLOUR = ft.Colors.TERTIARY
MUTED = ft.Colors.ON_SURFACE_VARIANT
AMBER_TINT = ft.Colors.with_opacity(0.28, ft.Colors.AMBER)
"""Background of unfinished games and notices: a see-through amber reads like AMBER_100 on the
light theme and stays dark under the light text of the dark one."""
TAP_HEIGHT = 52
"""Height of the main buttons (px): big enough for a thumb."""

Handler = Callable[[Any], None]


_GLYPHS = str.maketrans(
    {
        "\u2192": "\u00bb",  # → becomes »
        "\u21d2": "\u00bb",  # ⇒
        "\u2660": "S",  # ♠
        "\u2665": "H",  # ♥
        "\u2666": "D",  # ♦
        "\u2663": "C",  # ♣
        "\u2605": "*",  # ★
    }
)


_SEED_FILE = re.compile(r"\b(seed \d+)_(?:\u2026|\.\.\.|\w+(?:\.\w+)?)")
"""``seed 002_…`` (a seed file named in a verdict's ``rule``): people read ``seed 002``."""


def readable(text: str) -> str:
    """Text the offline web client can draw: its bundled font (Roboto, no CDN fallback) has no
    arrows, card suits or stars, so those are spelled with plain characters. A seed file
    named in a rule (``seed 002_…``) is shown by its number (``seed 002``)."""
    return _SEED_FILE.sub(r"\1", text.translate(_GLYPHS))


def player_colour(i: int) -> str:
    """Colour of the player in seat ``i``."""
    return PLAYER_COLOURS[i % len(PLAYER_COLOURS)]


def signed(n: int) -> str:
    """``+12``, ``−5`` (true minus sign), ``0`` (:func:`rules.scoring.sign`)."""
    return scoring.sign(n)


def number(n: int) -> str:
    """A total as people read it: ``−5`` with a true minus sign."""
    return f"\u2212{-n}" if n < 0 else str(n)


def icon_button(
    icon: ft.IconData, label: str, on_click: Handler | None, disabled: bool = False
) -> ft.Semantics:
    """An icon button whose accessible name is ``label`` (a tooltip alone names nothing, and
    beside a label it would be read twice)."""
    btn = ft.IconButton(icon, on_click=on_click, disabled=disabled)
    return ft.Semantics(label=label, button=True, content=btn)


def primary_button(
    text: str, on_click: Handler | None, icon: ft.IconData | None = None, expand: bool = True
) -> ft.FilledButton:
    """The one big action of a screen."""
    return ft.FilledButton(
        content=ft.Text(text, size=18, weight=ft.FontWeight.W_600),
        icon=icon,
        on_click=on_click,
        height=TAP_HEIGHT,
        expand=expand,
    )


def secondary_button(
    text: str, on_click: Handler | None, icon: ft.IconData | None = None
) -> ft.OutlinedButton:
    """A plain action."""
    return ft.OutlinedButton(content=text, icon=icon, on_click=on_click, height=44)


def heading(text: str, size: int = 18) -> ft.Text:
    """A section title (a heading for screen readers too)."""
    return ft.Text(text, size=size, weight=ft.FontWeight.BOLD)


def muted(text: str, size: int = 14) -> ft.Text:
    """Secondary text."""
    return ft.Text(text, size=size, color=MUTED)


ERROR_BOX_PADDING = 10
"""Pixels around the words of an :func:`error_box` (none while folded: :func:`fold_error`)."""


def error_box() -> ft.Container:
    """A hidden box for a form-level error; show it with :func:`show_error`."""
    return ft.Container(
        content=ft.Text("", color=ERROR_COLOUR, size=15, weight=ft.FontWeight.W_500),
        bgcolor=ft.Colors.ERROR_CONTAINER,
        padding=ERROR_BOX_PADDING,
        border_radius=8,
        visible=False,
    )


def show_error(box: ft.Container, message: str | None) -> None:
    """Show ``message`` in an :func:`error_box`, or hide the box for None."""
    text = box.content
    assert isinstance(text, ft.Text)
    text.value = readable(message or "")
    box.visible = bool(message)
    box.height, box.padding = None, ERROR_BOX_PADDING  # unfolded (:func:`fold_error`)


def fold_error(box: ft.Container) -> None:
    """Empty an :func:`error_box` shown and fold it to no height, while a field is being typed
    in: hiding it (``visible``) took the focus from the field being typed in, in the browser,
    after its first key (new-user tester, session 12: "15" went in as "1"); a fold keeps the
    page's controls as they are. :func:`show_error` unfolds it."""
    text = box.content
    assert isinstance(text, ft.Text)
    text.value = ""
    box.height, box.padding = 0, 0


def fold(area: ft.Container, shown: bool) -> None:
    """Show an area (a clipping :class:`ft.Container`) at its height, or fold it to none
    without hiding it: a control hidden or shown (``visible``) while a field is being typed in
    takes the focus from that field in the browser (:func:`fold_error`)."""
    area.height = None if shown else 0


class ChoiceChips:
    """One choice out of a few, as a wrapping row of chips (each a checkbox for screen
    readers, named by its text).

    Args:
        choices: ``(key, text)`` pairs.
        value: the key selected at first (None: nothing yet).
        on_change: called with the new key after the user picks one.
        allow_none: tapping the selected chip clears the choice.
    """

    def __init__(
        self,
        choices: Sequence[tuple[str, str]],
        value: str | None = None,
        on_change: Callable[[str | None], None] | None = None,
        allow_none: bool = False,
    ) -> None:
        self.on_change = on_change
        self.allow_none = allow_none
        self.value: str | None = None
        self.chips: dict[str, ft.Chip] = {}
        self.control = ft.Row(wrap=True, spacing=8, run_spacing=8)
        self.set_choices(choices, value)

    def set_choices(self, choices: Sequence[tuple[str, str]], value: str | None) -> None:
        """Replace the chips (e.g. when player names change), keeping ``value`` if present."""
        self.chips = {}
        for key, text in choices:
            chip = ft.Chip(
                label=ft.Text(text, size=16, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS),
                selected=False,
                on_select=self._handler(key),
                show_checkmark=True,
            )
            self.chips[key] = chip
        self.control.controls = list(self.chips.values())
        self.value = value if value in self.chips else None
        self._paint()

    def _handler(self, key: str) -> Handler:
        def handler(_e: Any = None) -> None:
            self.pick(key)

        return handler

    def pick(self, key: str | None) -> None:
        """Select ``key`` as if tapped (tapping the selected one again keeps it, or clears it
        where ``allow_none``), then notify."""
        if key is not None and key == self.value and self.allow_none:
            key = None
        elif key is not None and key not in self.chips:
            raise KeyError(key)
        self.value = key
        self._paint()
        if self.on_change is not None:
            self.on_change(key)

    def set(self, key: str | None) -> None:
        """Select ``key`` without notifying."""
        self.value = key if key in self.chips else None
        self._paint()

    def _paint(self) -> None:
        for key, chip in self.chips.items():
            chip.selected = key == self.value


class Stepper:
    """A whole number changed with − and + buttons (big targets), within ``lo``–``hi``.

    Args:
        label: what the number is ("Players"); the buttons are named "<label>: fewer"/"more".
    """

    def __init__(
        self,
        label: str,
        value: int,
        lo: int,
        hi: int,
        on_change: Callable[[int], None] | None = None,
    ) -> None:
        self.label = label
        self.lo, self.hi = lo, hi
        self.value = value
        self.on_change = on_change
        self.text = ft.Text(
            str(value), size=22, weight=ft.FontWeight.BOLD, width=36, text_align=ft.TextAlign.CENTER
        )
        self.minus = ft.IconButton(ft.Icons.REMOVE, on_click=self._dec)
        self.plus = ft.IconButton(ft.Icons.ADD, on_click=self._inc)
        self.control = ft.Row(
            [
                ft.Text(label, size=16, expand=True),
                ft.Semantics(
                    label=_("{label}: fewer").format(label=label), button=True, content=self.minus
                ),
                ft.Semantics(
                    label=_("{label}: {n}").format(label=label, n=value), content=self.text
                ),
                ft.Semantics(
                    label=_("{label}: more").format(label=label), button=True, content=self.plus
                ),
            ],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
        self._paint()

    def _dec(self, _e: Any = None) -> None:
        self.set(self.value - 1, notify=True)

    def _inc(self, _e: Any = None) -> None:
        self.set(self.value + 1, notify=True)

    def set(self, value: int, notify: bool = False) -> None:
        """Set the number (clamped to the range)."""
        value = max(self.lo, min(self.hi, value))
        changed = value != self.value
        self.value = value
        self._paint()
        if notify and changed and self.on_change is not None:
            self.on_change(value)

    def _paint(self) -> None:
        self.text.value = str(self.value)
        sem = self.control.controls[2]
        assert isinstance(sem, ft.Semantics)
        sem.label = _("{label}: {n}").format(label=self.label, n=self.value)
        self.minus.disabled = self.value <= self.lo
        self.plus.disabled = self.value >= self.hi


async def pick_json_file(dialog_title: str, no_picker: Callable[[], None]) -> bytes | None:
    """The bytes of one JSON file the player picks on this device (a backup, an exported
    game), or None when none is picked; where the device has no file picker, ``no_picker`` is
    called (to say so) and None returned."""
    try:
        files = await ft.FilePicker().pick_files(
            dialog_title=dialog_title,
            allowed_extensions=["json"],
            allow_multiple=False,
            with_data=True,
        )
    except Exception:  # noqa: BLE001 - a picker the device lacks
        log.debug("no file picker", exc_info=True)
        no_picker()
        return None
    return files[0].bytes if files else None


def card(content: ft.Control, bgcolor: str | None = None, padding: int = 12) -> ft.Container:
    """A rounded panel."""
    return ft.Container(
        content=content,
        bgcolor=bgcolor or ft.Colors.SURFACE_CONTAINER_LOW,
        border_radius=12,
        padding=padding,
    )


def centered(controls: list[ft.Control]) -> ft.ResponsiveRow:
    """Lay a screen's content out full width on a phone, centred and narrower when wide."""
    column = ft.Column(
        controls,
        spacing=14,
        col={"xs": 12, "md": 9, "lg": 7, "xl": 6},
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
    )
    return ft.ResponsiveRow([column], alignment=ft.MainAxisAlignment.CENTER)
