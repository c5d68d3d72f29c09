"""The Flet entry point: one :class:`app.ui.shell.App` per browser tab, all sharing one Store.

``python -m app`` (see :mod:`app.__main__`) serves :func:`make_main` with ``ft.run``.

Each session (browser tab, phone) gets its own language (:mod:`app.i18n`), the first of:

1. the choice made on this device in Settings (kept in the browser's storage,
   ``ft.SharedPreferences`` key :data:`DEVICE_KEY`);
2. the browser's preferred languages (``page.get_device_info().locales``), the first the app
   offers;
3. the last choice made in Settings on any device (``Store`` setting ``"language"``);
4. the server's system locale (``LC_ALL`` / ``LC_MESSAGES`` / ``LANG``), else English.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from app import i18n
from app.ui.shell import App

if TYPE_CHECKING:
    from app.ui.shell import StoreLike

log = logging.getLogger("app")

DEVICE_KEY = "rummy_referee.language"
"""Browser storage key of this device's language choice."""
SETTING_KEY = "language"
"""Store setting: the language last chosen in Settings (default for devices with no choice)."""
ASK_TIMEOUT = 3.0
"""Seconds to wait for the browser's answer (storage, languages) before going on without."""


async def _ask(make: Callable[[], Awaitable[Any]]) -> Any:
    """A client call that may fail or never answer: its result, or None."""
    try:
        return await asyncio.wait_for(make(), ASK_TIMEOUT)
    except Exception:  # noqa: BLE001 - an old client, a closed tab, a refused storage
        log.debug("client call failed", exc_info=True)
        return None


async def device_choice(page: ft.Page) -> str | None:
    """The language chosen on this device in Settings, if any."""
    got = await _ask(lambda: ft.SharedPreferences().get(DEVICE_KEY))
    return i18n.known(got) if isinstance(got, str) else None


async def browser_language(page: ft.Page) -> str | None:
    """The first of the browser's preferred languages the app offers, if any."""
    info = await _ask(page.get_device_info)
    locales = getattr(info, "locales", None) or []
    return i18n.first_known(getattr(loc, "language_code", None) for loc in locales)


def store_choice(store: StoreLike) -> str | None:
    """The language last chosen in Settings on any device, if any."""
    try:
        return i18n.known(store.get_setting(SETTING_KEY, None))
    except Exception:  # noqa: BLE001 - a broken settings table must not stop the app
        log.debug("cannot read the language setting", exc_info=True)
        return None


async def session_language(page: ft.Page, store: StoreLike) -> str:
    """The language a new session starts in (order in the module docstring)."""
    device, browser = await asyncio.gather(device_choice(page), browser_language(page))
    return device or browser or store_choice(store) or i18n.default_language()


def make_main(store: StoreLike) -> Callable[[ft.Page], Awaitable[None]]:
    """The ``main`` that Flet calls for each new session (browser tab)."""
    i18n.set_language(i18n.system_language())

    async def main(page: ft.Page) -> None:
        lang = await session_language(page, store)
        from app.ui import sharing  # this session's rights, and live updates from the others

        app = App(sharing.session_store(store, page), page, language=lang)
        sharing.attach(app)

        async def locale_changed(_e: Any = None) -> None:
            # the browser's languages changed: follow them unless this device chose one
            if await device_choice(page) is None:
                new = await browser_language(page)
                if new is not None and new != app.language:
                    app.set_language(new)

        page.on_locale_change = locale_changed
        app.start()

    return main
