"""New game: variant, preset, every option, the players and who deals first."""

from __future__ import annotations

import contextlib
import threading
from typing import TYPE_CHECKING, Any

import flet as ft

from app import games
from app.error_text import describe
from app.games import variants
from app.i18n import _
from app.ui.common import labels
from app.ui.common.frame import frame
from app.ui.common.widgets import (
    ChoiceChips,
    Stepper,
    error_box,
    heading,
    muted,
    primary_button,
    show_error,
)
from app.ui.home.options_form import OptionsForm

if TYPE_CHECKING:
    from app.ui.common.session import App

MAX_SEATS = variants.MAX_SEATS
SUGGESTED_PLAYERS = 3


def name_problem(name: str) -> str | None:
    """Why a typed (trimmed) player name cannot be used, or None: longer than
    :data:`app.games.MAX_NAME` characters (refused, never cut), or characters the app's
    offline font cannot draw (emoji, symbols: :func:`app.games.unshowable`)."""
    if len(name) > games.MAX_NAME:
        return _("A name can have at most {max} characters; this one has {n}.").format(
            max=games.MAX_NAME, n=len(name)
        )
    bad = games.unshowable(name)
    if bad:
        return _(  # the characters are not quoted: they would show as the empty boxes
            "This name has an emoji or a symbol: the app's font has none, so it would show as "
            "an empty box. Please use letters and digits."
        )
    return None


def usual_players(variant: str) -> int:
    """The number of players ``variant`` opens with on a new game: :data:`SUGGESTED_PLAYERS`
    within the variant's range (Gin 2, the others 3), whatever another variant showed before."""
    lo, hi = variants.about(variant).players
    return max(lo, min(hi, SUGGESTED_PLAYERS))


class NewGame:
    """The new-game form.

    Attributes (for tests): ``variant`` and ``preset`` (:class:`ChoiceChips`), ``count``
    (:class:`Stepper`), ``names`` (one text field per seat), ``dealer`` (chips of the seats),
    ``options`` (:class:`OptionsForm`), ``start_button``.
    """

    def __init__(self, app: App) -> None:
        self.app = app
        self.known: list[str] = list(app.store.known_players())
        last_variant = app.store.get_setting("last_variant", variants.DEFAULT_VARIANT)
        if not variants.is_variant(last_variant):
            last_variant = variants.DEFAULT_VARIANT
        self.variant = ChoiceChips(
            [(v, labels.variant_name(v)) for v in variants.VARIANT_KEYS],
            last_variant,
            on_change=self._variant_changed,
        )
        self.variant_blurb = muted("")
        self.preset = ChoiceChips([], None, on_change=self._preset_changed)
        self.options_box = ft.Column([], spacing=8)
        self.options: OptionsForm | None = None
        self.options_toggle = ft.TextButton(
            _("Show all options"), icon=ft.Icons.TUNE, on_click=self._toggle_options
        )
        self.options_visible = False
        self.wanted_players: int | None = None
        """The number of players the user chose for this game (the stepper, a seat added by a
        name chip, or names typed at the seats shown), or None: each variant then opens with
        its own usual count (:func:`usual_players`)."""

        lo, hi = variants.about(last_variant).players
        self.count = Stepper(
            _("Number of players"),
            usual_players(last_variant),
            lo,
            hi,
            on_change=self._count_picked,
        )
        self.names = [
            ft.TextField(
                error_max_lines=3,
                label=_("Player {n}").format(n=i + 1),
                on_change=self._names_changed,
                # names as typed: "van Dijk", "z Wielkopolski" (no capitals forced, and no
                # max_length, which would cut a long name silently: name_problem says why)
                capitalization=ft.TextCapitalization.NONE,
                autocorrect=False,
                dense=True,
            )
            for i in range(MAX_SEATS)
        ]
        self.known_chips = ft.Row(wrap=True, spacing=6, run_spacing=6)
        self.dealer = ChoiceChips([], "0")
        self.dealer_label = ft.Text("", size=15, weight=ft.FontWeight.W_500)
        self.end_rounds = ft.TextField(
            error_max_lines=3,
            label=_("Rounds agreed (empty: no limit)"),
            keyboard_type=ft.KeyboardType.NUMBER,
            dense=True,
        )
        self.end_target = ft.TextField(
            error_max_lines=3,
            label=_("Target score agreed (empty: none)"),
            keyboard_type=ft.KeyboardType.NUMBER,
            dense=True,
        )
        self.end_box = ft.Column(
            [
                muted(_("Rummy 101 has no end of its own: agree on one if you like.")),
                self.end_rounds,
                self.end_target,
            ],
            spacing=6,
        )
        self.error = error_box()
        self.error_from_options = False
        """The form-level message is about the options (cleared once they are all fine)."""
        self.start_button = primary_button(_("Start the game"), self.start, ft.Icons.PLAY_ARROW)
        self.started: str | None = None
        """The id of the game this form created: a second tap (a double tap, a tap while the
        first is handled) creates no second game."""
        self._starting = threading.Lock()  # Flet runs each tap's handler in its own thread

        self.rules_heading = heading(_("Rules"))
        controls: list[ft.Control] = [
            heading(_("Variant")),
            self.variant.control,
            self.variant_blurb,
            self.rules_heading,
            self.preset.control,
            self.options_toggle,
            self.options_box,
            heading(_("Players")),
            self.count.control,
            *self.names,
            self.known_chips,
            self.dealer_label,
            self.dealer.control,
            self.end_box,
            self.error,
            self.start_button,
        ]
        self.view = frame(app, "/new", _("New game"), controls, back="/")
        self._variant_changed(last_variant)
        self._names_changed()

    # -- variant, preset, options -------------------------------------------------------------
    @property
    def variant_key(self) -> str:
        """The chosen variant."""
        return self.variant.value or variants.DEFAULT_VARIANT

    def _variant_changed(self, key: str | None) -> None:
        v = key or variants.DEFAULT_VARIANT
        info = variants.about(v)
        if self.variant.value != v:
            self.variant.set(v)
        self.variant_blurb.value = labels.variant_blurb(v)
        presets = info.presets
        self.preset.set_choices([(p, labels.preset_name(p)) for p in presets], info.default_preset)
        self.preset.control.visible = len(presets) > 1
        self.rules_heading.visible = len(presets) > 1  # one preset: no heading over nothing
        self.options = OptionsForm(v, info.default_preset)
        self.options.on_change = self._options_changed
        self._options_changed()
        self.options_box.controls = [self.options.summary, self.options.control]
        self.options.control.visible = self.options_visible
        lo, hi = info.players
        self.count.lo, self.count.hi = lo, hi
        if self.wanted_players is None:
            self.count.set(usual_players(v))
        else:  # the user's own count, as far as the variant seats it (his names stay typed)
            self.count.set(self.wanted_players)
        self.count.control.visible = lo != hi
        self.end_box.visible = info.agreed_end == "game"  # kept with the game: asked here
        self.dealer_label.value = (
            _("Who deals first (then in turn)")
            if info.deals
            else _("Who starts first (then in turn)")
        )
        self._count_changed(self.count.value)

    def _preset_changed(self, key: str | None) -> None:
        if key is None or self.options is None:
            return
        self.options.set_preset(key)

    def _options_changed(self) -> None:
        """An option changed: drop the form-level message about the options once none is
        flagged and they go together (what :meth:`start` checks). Gin solo mode takes one
        name (the player against "the joker"): the second seat goes."""
        if hasattr(self, "names"):
            self._count_changed(self.count.value)
        if not self.error_from_options or self.options is None:
            return
        if any(f.error.visible for f in self.options.fields.values()):
            return
        try:
            self.options.values()
        except ValueError:
            return
        self.error_from_options = False
        show_error(self.error, None)

    def _toggle_options(self, _e: Any = None) -> None:
        self.options_visible = not self.options_visible
        if self.options is not None:
            self.options.control.visible = self.options_visible
        self.options_toggle.content = (
            _("Hide the options") if self.options_visible else _("Show all options")
        )

    # -- players ------------------------------------------------------------------------------
    def _count_picked(self, n: int) -> None:
        """The user changed the number of players: it is his for this game."""
        self.wanted_players = n
        self._count_changed(n)

    def _count_changed(self, n: int) -> None:
        n = 1 if self.solo() else n
        for i, field in enumerate(self.names):
            field.visible = i < n
        self._names_changed()

    def solo(self) -> bool:
        """A solo mode is chosen (gin: one player against "the joker", RULES.md §5)."""
        field = self.options.fields.get("mode") if self.options is not None else None
        info = variants.about(self.variant_key)
        return field is not None and info.is_solo({"mode": field.read()})

    def seat_names(self) -> list[str]:
        """The names typed, trimmed, one per seat in play."""
        seats = 1 if self.solo() else self.count.value
        return [" ".join((f.value or "").split()) for f in self.names[:seats]]

    def _names_changed(self, _e: Any = None) -> None:
        names = self.seat_names()
        if self.wanted_players is None and _e is not None and any(names):
            self.wanted_players = self.count.value  # names typed at these seats: keep them
        shown = [n or _("Player {n}").format(n=i + 1) for i, n in enumerate(names)]
        current = self.dealer.value if self.dealer.value is not None else "0"
        if int(current) >= len(names):
            current = "0"
        self.dealer.set_choices([(str(i), n) for i, n in enumerate(shown)], current)
        taken = {n.casefold() for n in names if n}
        chips: list[ft.Control] = [
            ft.Chip(
                label=ft.Text(name),
                leading=ft.Icon(ft.Icons.PERSON_ADD_ALT, size=18),
                on_click=self._add_known(name),
            )
            for name in self.known
            if name.casefold() not in taken
        ]
        self.known_chips.controls = chips[:12]
        self.known_chips.visible = bool(self.known_chips.controls)
        for name, f in zip(names, self.names, strict=False):
            f.error = name_problem(name)  # at once: too long, or characters it cannot show

    def _add_known(self, name: str) -> Any:
        def add(_e: Any = None) -> None:
            self.add_known(name)

        return add

    def add_known(self, name: str) -> None:
        """Put an earlier player's name in the first empty seat (adding a seat if needed)."""
        if self.wanted_players is None:
            self.wanted_players = self.count.value
        seats = self.names[: self.count.value]
        for f in seats:
            if not (f.value or "").strip():
                f.value = name
                self._names_changed()
                return
        if self.count.value < self.count.hi:
            self.count.set(self.count.value + 1)
            self.wanted_players = self.count.value
            self._count_changed(self.count.value)
            self.names[self.count.value - 1].value = name
            self._names_changed()

    # -- start --------------------------------------------------------------------------------
    def _int_or_none(self, field: ft.TextField) -> int | None:
        raw = (field.value or "").strip()
        if not raw:
            field.error = None
            return None
        try:
            value = int(raw)
        except ValueError:
            field.error = _("Enter a whole number, or leave it empty")
            raise
        if value < 1:
            field.error = _("Enter a number above 0, or leave it empty")
            raise ValueError(raw)
        field.error = None
        return value

    def start(self, _e: Any = None) -> None:
        """Check the form; create and open the game, or flag what is wrong. Once a game is
        created, further taps on this form do nothing (:attr:`started`)."""
        with self._starting:
            if self.started is None:
                self._start()

    def _start(self) -> None:
        show_error(self.error, None)
        self.error_from_options = False
        ok = True
        names = self.seat_names()
        seen: dict[str, int] = {}
        for i, (name, field) in enumerate(zip(names, self.names, strict=False)):
            field.error = None
            if not name:
                field.error = _("Enter a name")
                ok = False
            elif name_problem(name) is not None:
                field.error = name_problem(name)
                ok = False
            elif name.casefold() in seen:
                seat = seen[name.casefold()] + 1
                field.error = _("This name is already at seat {n}").format(n=seat)
                ok = False
            else:
                seen[name.casefold()] = i
        assert self.options is not None
        # Every field is checked in the same press, so each bad one is flagged at once.
        agreed_rounds = agreed_target = None
        if variants.about(self.variant_key).agreed_end == "game":
            try:
                agreed_rounds = self._int_or_none(self.end_rounds)
            except ValueError:
                ok = False
            try:
                agreed_target = self._int_or_none(self.end_target)
            except ValueError:
                ok = False
        try:
            options = self.options.values()
        except ValueError as e:
            if not self.options_visible:
                self._toggle_options()
            show_error(self.error, str(e))
            self.error_from_options = True
            return
        if not ok:
            show_error(self.error, _("Please correct the marked fields."))
            return
        try:
            game = games.new_game(
                self.variant_key,
                names,
                options,
                first_dealer=int(self.dealer.value or "0"),
                agreed_rounds=agreed_rounds,
                agreed_target=agreed_target,
            )
        except games.GameError as e:
            show_error(self.error, describe(e, self.variant_key))
            return
        stored = self.app.store.create_game(game)
        self.started = stored.id
        with contextlib.suppress(Exception):  # a setting is not worth failing the game for
            self.app.store.set_setting("last_variant", self.variant_key)
        self.app.go(f"/game/{stored.id}")
