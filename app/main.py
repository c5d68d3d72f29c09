"""The Flet entry point: one :class:`app.ui.shell.App` per browser tab, all sharing one Store.

``python -m app`` (see :mod:`app.__main__`) serves :func:`make_main` with ``ft.run``.

Each session (browser tab, phone) gets its own language (:mod:`app.i18n`), the first of:

1. the choice made on this device in Settings (kept in the browser's storage,
   ``ft.SharedPreferences`` key :data:`DEVICE_KEY`);
2. the browser's preferred languages (``page.get_device_info().locales``), the first the app
   offers;
3. the last choice made in Settings on any device (``Store`` setting ``"language"``);
4. the server's system locale (``LC_ALL`` / ``LC_MESSAGES`` / ``LANG``), else English.

Each session's rights (:func:`session_visitor`) come from the server's side only: the real
address of its connection (:func:`app.guard.peer_of`: loopback is this computer, the host,
when opened at an address or the computer's own name: :func:`app.guard.host_name_trusted`)
or this run's host key (``?key=`` in the address ``python -m app`` opens and prints; the
browser keeps it, ``live.HOST_KEY_PREF``; a pass derived from it, kept as a cookie, lets that
device past its address's limits and gives no rights, :class:`app.guard.HostKeyCookie`), and
a phone's join tokens kept in its browser (``live.JOINS_PREF``, checked by
:meth:`app.live.Access.redeem`). Nothing the browser says
about itself (``page.client_ip``, the platform …) counts.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode

import flet as ft

from app import guard, i18n, live
from app.ui.common.session import ask_client, push_route
from app.ui.shell import DEVICE_KEY, App
from app.ui.table import sharing

if TYPE_CHECKING:
    from app.ui.shell import StoreLike

log = logging.getLogger("app")

SETTING_KEY = "language"
"""Store setting: the language last chosen in Settings (default for devices with no choice)."""
ASK_TIMEOUT = 3.0
"""Seconds to wait for the browser's answer (storage, languages) before going on without."""


async def _ask(make: Callable[[], Awaitable[Any]]) -> Any:
    """A client call that may fail or never answer: its result, or None."""
    try:
        return await ask_client(make(), ASK_TIMEOUT)
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


def split_key(route: str) -> tuple[str, str | None]:
    """``/game/x?key=K&a=1`` → ``("/game/x?a=1", "K")``: the route without the host key."""
    path, _sep, qs = route.partition("?")
    pairs = parse_qsl(qs, keep_blank_values=True)
    key = next((v for k, v in pairs if k == live.HOST_KEY_PARAM), None)
    rest = [(k, v) for k, v in pairs if k != live.HOST_KEY_PARAM]
    return (path + ("?" + urlencode(rest) if rest else "")), key


async def session_visitor(page: ft.Page, store: Any) -> live.Visitor:
    """Who this session is (see the module docstring). A valid host key in the address is
    kept in the browser and taken out of the address; join tokens are taken back."""
    peer = guard.peer_of(page)
    route, url_key = split_key(page.route or "/")
    prefs = ft.SharedPreferences()
    stored_key, stored_joins = await asyncio.gather(
        _ask(lambda: prefs.get(live.HOST_KEY_PREF)), _ask(lambda: prefs.get(live.JOINS_PREF))
    )
    ip = peer.ip if peer is not None else None
    # the connection's own: loopback (or the key in the first message's route, as url_ok)
    by_connection = peer is not None and peer.host
    url_ok = live.host_key_ok(url_key)
    visitor = live.Visitor(ip=ip, host=by_connection or url_ok or live.host_key_ok(stored_key))
    if url_key is not None:
        page.route = route  # the key does not stay in the address bar
    if url_ok and url_key is not None and stored_key != url_key:
        key = url_key
        await _ask(lambda: prefs.set(live.HOST_KEY_PREF, key))
    if visitor.host:
        guard.mark_host(page)
    else:
        access = sharing.access_for(store)
        if visitor.restore(access, stored_tokens(stored_joins)):
            guard.mark_joined(page, lambda: visitor.still_joined(access))  # a player
    return visitor


JOINS_MAX_CHARS = live.MAX_TOKENS * (live.TOKEN_MAX + 3) + 2
"""The longest stored list of join tokens read (``live.MAX_TOKENS`` tokens of at most
``live.TOKEN_MAX`` characters fit, as a JSON list: 20,062); a longer one is not parsed at all."""


def stored_tokens(stored: object) -> object:
    """The join tokens kept in the browser's storage (``live.JOINS_PREF``), parsed: anything
    unreadable (not a string, longer than :data:`JOINS_MAX_CHARS`, not JSON, nested too deep
    for the parser) is None, i.e. no tokens."""
    if not isinstance(stored, str) or len(stored) > JOINS_MAX_CHARS:
        return None
    try:
        return json.loads(stored)
    except (ValueError, RecursionError):  # the phone's storage is the phone's to forge
        return None


def _gone(page: ft.Page) -> bool:
    """Whether this session's connection has closed (it may while ``main`` awaits)."""
    session = getattr(page, "session", None)
    return session is not None and getattr(session, "connection", True) is None


def make_main(store: StoreLike) -> Callable[[ft.Page], Awaitable[None]]:
    """The ``main`` that Flet calls for each new session (browser tab)."""
    i18n.set_language(i18n.system_language())

    async def main(page: ft.Page) -> None:
        had_key = split_key(page.route or "/")[1] is not None
        lang, visitor = await asyncio.gather(
            session_language(page, store), session_visitor(page, store)
        )
        async with guard.visitor_start(page):  # a visitor's first screen: in its turn
            if _gone(page):  # the phone left while its session was starting: end quietly
                log.debug("a session left while starting")
                # Flet ends a session handler on this quietly (an info line), while a plain
                # return makes it update the page of a session it has already dropped
                raise BrokenPipeError("the browser left")
            _start(page, visitor, lang)
        if had_key:  # show the address without the host key (browser history)
            push_route(page, page.route or "/")

    def _start(page: ft.Page, visitor: live.Visitor, lang: str) -> App:
        # this session's rights, and live updates from the others
        app = App(sharing.session_store(store, visitor), page, language=lang)
        sharing.attach(app)

        async def locale_changed(_e: Any = None) -> None:
            # the browser's languages changed: follow them unless this device chose one
            if await device_choice(page) is None:
                new = await browser_language(page)
                if new is not None and new != app.language:
                    app.set_language(new)

        page.on_locale_change = locale_changed
        app.start()
        return app

    return main
