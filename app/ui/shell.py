"""The app shell: wires the router into every session (:class:`app.ui.common.session.App`).

The layers import one way only (checked by ``tests/test_layers.py``)::

    shell    app.__main__, app.main, app.ui.shell, app.ui.router
    screens  app.ui.<screen> (games list, score sheet, round entry, checkers, …)
    widgets  app.ui.common (session, frame, widgets, keyboard, pieces, labels, …)
    core     app.games, app.i18n, app.store, app.live, …, rules

Screens navigate with ``app.go(route)``; :mod:`app.ui.router` says which screen a route
shows, and this module installs it (:func:`app.ui.common.session.install`). The session's names are
kept here too (``from app.ui.shell import App`` is how the entry point and the tests make
sessions; importing this module is what makes a session able to show screens).
"""

from __future__ import annotations

from app.ui import router
from app.ui.common.session import (
    DEVICE_KEY,
    NOTICE_SECONDS,
    App,
    Routes,
    Screen,
    StoreLike,
    parent_route,
)
from app.ui.common.session import install as _install
from app.ui.home import settings


class _Shell:
    """The :class:`app.ui.common.session.Routes` of the app: the router's screens, the theme."""

    def build(self, app: App, route: str) -> Screen:
        return router.build_screen(app, route)

    def error(self, app: App, route: str, message: str) -> Screen:
        return router.error_screen(app, route, message)

    def prepare(self, app: App) -> None:
        settings.apply_theme(app)  # light, dark or the device's
        settings.restore_theme(app)


_install(_Shell())

__all__ = [
    "DEVICE_KEY",
    "NOTICE_SECONDS",
    "App",
    "Routes",
    "Screen",
    "StoreLike",
    "parent_route",
]
