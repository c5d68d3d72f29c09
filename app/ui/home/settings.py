"""``/settings``: this phone's settings — the language (issue 5, item 5) and the theme (issue
12: light, dark — true black — or following the device).

The theme is per session like the language: chosen here it changes this phone at once, is
kept in this browser (``ft.SharedPreferences`` key :data:`THEME_KEY`, read again when a page
starts, :func:`restore_theme`) and as the store's ``theme`` setting, the default for devices
that have made no choice (:data:`DEFAULT_THEME` when nobody chose).

The language is per session: choosing one here changes this phone's screens at once and no
other phone's. The choice is kept in this browser's storage (``ft.SharedPreferences``, read
again when the phone comes back, see :mod:`app.main`) and as the store's ``language`` setting,
the default for devices that have made no choice and whose browser language the app does not
offer. Language names are written in their own language, so anyone can find theirs.
"""

from __future__ import annotations

import logging
import weakref
from typing import TYPE_CHECKING, Any

import flet as ft

from app import i18n
from app.i18n import _
from app.ui.common.frame import frame
from app.ui.common.session import DEVICE_KEY, ask_client
from app.ui.common.widgets import ChoiceChips, heading, icon_button, muted

if TYPE_CHECKING:
    from app.ui.common.session import App

log = logging.getLogger("app")

ROUTE = "/settings"
THEME_KEY = "rummy.theme"
"""Where this browser keeps its theme choice."""
THEMES = ("system", "light", "dark")
DEFAULT_THEME = "system"
"""The theme of a device that chose none (in this browser and in the store): ``system``, the
device decides — Flet's ``ThemeMode.SYSTEM`` follows the browser's ``prefers-color-scheme``
in the web client, and changes with it while the app is open. The screens draw with the
theme's colour roles (``ft.Colors.SURFACE_CONTAINER_*``, ``ON_SURFACE_VARIANT``,
``OUTLINE_VARIANT``, …), so both themes read well; tile and card faces stay light like the
real ones (tests/browser/test_theme.py)."""
_MODES = {"system": ft.ThemeMode.SYSTEM, "light": ft.ThemeMode.LIGHT, "dark": ft.ThemeMode.DARK}
_theme_of: weakref.WeakKeyDictionary[App, str] = weakref.WeakKeyDictionary()
"""Per session: the theme chosen in it."""


def light_theme() -> ft.Theme:
    """The light theme (indigo; the app bar as before).

    Both themes give the colour roles the screens use a fixed meaning: ``tertiary`` is "good"
    (a valid meld, a rule in force: green), ``error`` "wrong" (red); the ``…_container``
    roles are their pale (light) or deep (dark) backgrounds."""
    return ft.Theme(
        color_scheme_seed=ft.Colors.INDIGO,
        color_scheme=ft.ColorScheme(
            tertiary=ft.Colors.GREEN_800,
            on_tertiary=ft.Colors.WHITE,
            tertiary_container=ft.Colors.GREEN_50,
            on_tertiary_container=ft.Colors.GREEN_900,
            error=ft.Colors.RED_800,
            on_error=ft.Colors.WHITE,
            error_container=ft.Colors.RED_50,
            on_error_container=ft.Colors.RED_900,
        ),
        appbar_theme=ft.AppBarTheme(bgcolor=ft.Colors.INDIGO_50),
    )


def dark_theme() -> ft.Theme:
    """The dark theme: true black behind everything (an OLED phone in the middle of the table
    uses the least power and glares the least), light text, indigo accents."""
    return ft.Theme(
        color_scheme_seed=ft.Colors.INDIGO,
        color_scheme=ft.ColorScheme(
            surface=ft.Colors.BLACK,
            on_surface=ft.Colors.WHITE,
            surface_container_lowest=ft.Colors.BLACK,
            surface_container_low="#121212",
            surface_container="#1a1a1a",
            surface_container_high="#222222",
            surface_container_highest="#2a2a2a",
            tertiary=ft.Colors.GREEN_300,
            on_tertiary=ft.Colors.BLACK,
            tertiary_container="#0f2a14",
            on_tertiary_container=ft.Colors.GREEN_100,
            error="#ff8a80",
            on_error=ft.Colors.BLACK,
            error_container="#3b0e0e",
            on_error_container=ft.Colors.RED_100,
        ),
        scaffold_bgcolor=ft.Colors.BLACK,
        canvas_color=ft.Colors.BLACK,
        appbar_theme=ft.AppBarTheme(bgcolor=ft.Colors.BLACK, color=ft.Colors.WHITE),
    )


def theme_choice(app: App) -> str:
    """The theme in force for this session: its choice, else the store's ``theme`` setting,
    else :data:`DEFAULT_THEME`."""
    chosen = _theme_of.get(app)
    if chosen in THEMES:
        return chosen
    try:
        stored = app.store.get_setting("theme", DEFAULT_THEME)
    except Exception:  # noqa: BLE001 - a store that cannot answer
        stored = DEFAULT_THEME
    return stored if stored in THEMES else DEFAULT_THEME


def apply_theme(app: App, choice: str | None = None) -> str:
    """Set the page's themes and mode (``choice`` or :func:`theme_choice`); returns it."""
    if choice in THEMES:
        _theme_of[app] = choice
    choice = theme_choice(app)
    page = app.page
    if page is not None:
        page.theme = light_theme()
        page.dark_theme = dark_theme()
        page.theme_mode = _MODES[choice]
    return choice


def restore_theme(app: App) -> None:
    """Apply the theme this browser chose earlier (read asynchronously from its storage)."""

    async def read() -> None:
        try:
            kept = await ask_client(ft.SharedPreferences().get(THEME_KEY))
        except Exception:  # noqa: BLE001 - a browser that refuses storage
            return
        if kept in THEMES and kept != theme_choice(app):
            apply_theme(app, str(kept))
            app.page_update()

    if not callable(getattr(app.page, "run_task", None)):  # tests use stand-ins
        return
    session = getattr(app.page, "session", None)
    if session is not None and getattr(session, "connection", True) is None:
        return  # the browser left while its session was starting: nothing to read
    app.run(read)


class SettingsScreen:
    """The settings screen.

    Attributes:
        languages: the language chips (keys: codes of :data:`app.i18n.LANGUAGES`).
        themes: the theme chips (keys: :data:`THEMES`).
    """

    def __init__(self, app: App) -> None:
        self.app = app
        self.languages = ChoiceChips(
            list(i18n.LANGUAGES.items()), app.language, on_change=self._language_picked
        )
        self.themes = ChoiceChips(
            [
                ("system", _("Like the device")),
                ("light", _("Light")),
                ("dark", _("Dark (black)")),
            ],
            theme_choice(app),
            on_change=self._theme_picked,
        )
        controls: list[ft.Control] = [
            heading(_("Language")),
            muted(_("Each phone at the table keeps its own language.")),
            self.languages.control,
            heading(_("Theme")),
            self.themes.control,
        ]
        self.view = frame(app, ROUTE, _("Settings"), controls, back="/")

    def _theme_picked(self, choice: str | None) -> None:
        if choice is None:
            self.themes.set(theme_choice(self.app))
            return
        self.choose_theme(choice)

    def choose_theme(self, choice: str) -> None:
        """Use the theme ``choice`` (:data:`THEMES`) on this phone and remember it (this
        browser; the store's default)."""
        self._keep("theme", THEME_KEY, apply_theme(self.app, choice))

    def _language_picked(self, code: str | None) -> None:
        if code is None or code == self.app.language:
            self.languages.set(self.app.language)
            return
        self.choose(code)

    def choose(self, code: str) -> None:
        """Use ``code`` on this phone from now on and remember it (this browser; the store's
        default)."""
        self._keep("language", DEVICE_KEY, self.app.set_language(code))

    def _keep(self, setting: str, browser_key: str, value: str) -> None:
        """Remember ``value`` (already in force for this session) as the store's default
        ``setting`` and in this browser's storage under ``browser_key``; a refusal of either
        is only logged (the session keeps it)."""
        try:
            self.app.store.set_setting(setting, value)
        except Exception:  # noqa: BLE001 - the session's choice is set; the default can wait
            log.warning("cannot store the %s setting", setting, exc_info=True)

        async def remember() -> None:
            try:
                await ask_client(ft.SharedPreferences().set(browser_key, value))
            except Exception:  # noqa: BLE001 - a browser that refuses storage
                log.debug("cannot keep the %s in the browser", setting, exc_info=True)

        self.app.run(remember)


def settings_button(app: App) -> ft.Control:
    """The top bar's way to :data:`ROUTE` (a gear, named "Settings")."""

    def go(_e: Any = None) -> None:
        app.go(ROUTE)

    return icon_button(ft.Icons.SETTINGS, _("Settings"), go)


__all__ = [
    "ROUTE",
    "THEMES",
    "SettingsScreen",
    "apply_theme",
    "dark_theme",
    "light_theme",
    "restore_theme",
    "settings_button",
    "theme_choice",
]
