"""``/settings``: this phone's settings — the language (issue 5, item 5).

The language is per session: choosing one here changes this phone's screens at once and no
other phone's. The choice is kept in this browser's storage (``ft.SharedPreferences``, read
again when the phone comes back, see :mod:`app.main`) and as the store's ``language`` setting,
the default for devices that have made no choice and whose browser language the app does not
offer. Language names are written in their own language, so anyone can find theirs.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import flet as ft

from app import i18n
from app.i18n import _
from app.ui.frame import frame
from app.ui.widgets import ChoiceChips, card, heading, icon_button, muted

if TYPE_CHECKING:
    from app.ui.shell import App

log = logging.getLogger("app")

ROUTE = "/settings"


class SettingsScreen:
    """The settings screen.

    Attributes:
        languages: the language chips (keys: codes of :data:`app.i18n.LANGUAGES`).
    """

    def __init__(self, app: App) -> None:
        self.app = app
        self.languages = ChoiceChips(
            list(i18n.LANGUAGES.items()), app.language, on_change=self._language_picked
        )
        controls: list[ft.Control] = [
            heading(_("Language")),
            muted(_("Each phone at the table keeps its own language.")),
            self.languages.control,
        ]
        if app.language == "sk":
            controls.append(
                card(
                    ft.Text(
                        _(
                            "The rule book is written in Slovak for Carousel rummy; the other "
                            "variants' rules are shown in English."
                        ),
                        size=15,
                    ),
                    bgcolor=ft.Colors.AMBER_50,
                )
            )
        self.view = frame(app, ROUTE, _("Settings"), controls, back="/")

    def _language_picked(self, code: str | None) -> None:
        if code is None or code == self.app.language:
            self.languages.set(self.app.language)
            return
        self.choose(code)

    def choose(self, code: str) -> None:
        """Use ``code`` on this phone from now on and remember it (this browser; the store's
        default)."""
        code = self.app.set_language(code)
        try:
            self.app.store.set_setting("language", code)
        except Exception:  # noqa: BLE001 - the session's language is set; the default can wait
            log.warning("cannot store the language setting", exc_info=True)

        async def remember() -> None:
            from app.main import DEVICE_KEY

            try:
                await ft.SharedPreferences().set(DEVICE_KEY, code)
            except Exception:  # noqa: BLE001 - a browser that refuses storage
                log.debug("cannot keep the language in the browser", exc_info=True)

        self.app.run(remember)


def settings_button(app: App) -> ft.Control:
    """The top bar's way to :data:`ROUTE` (a gear, named "Settings")."""

    def go(_e: Any = None) -> None:
        app.go(ROUTE)

    return icon_button(ft.Icons.SETTINGS, _("Settings"), go)


__all__ = ["ROUTE", "SettingsScreen", "settings_button"]
