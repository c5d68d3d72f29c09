"""One browser tab's session (:class:`App`): the object every screen is given.

It navigates (:meth:`App.go`), gives feedback (messages, dialogs) and reaches the browser
(clipboard, downloads). Which screen a route shows is not known here: the shell
(:mod:`app.ui.shell`) installs its router with :func:`install`, so screens, which import this
module, never import the shell or each other to navigate — they call ``app.go(route)``.

Routes (built by :mod:`app.ui.router`)::

    /                        games list (unfinished to resume, history, import)
    /new                     new game
    /game/<id>               score sheet
    /game/<id>/round         enter the next round
    /game/<id>/round/<n>     round n (1-based): its breakdown, edit, delete
    /game/<id>/round/<n>/edit
    /game/<id>/timer         turn timer (Tile Rummy / My Rummy)
    /game/<id>/table         the table display: names and totals, big (ui/table/table_display.py)
    /settings                this phone's settings (language)
    /players                 everyone who played (app/ui/home/players.py)
    /players/<name>          one person's record (name: app.people.person_key, URL-quoted)
    /history                 finished games: search, filters (app/ui/home/history.py)
    /history/<id>            a finished game, read-only (export, delete with undo)
    /season                  players ranked per variant over a range of days

A dialog belongs to the screen that opened it: a route change the browser makes by itself (Back,
Forward, an address typed) closes it; one a screen asks for with ``app.go`` leaves it to the
handler (it closes its dialog first, or keeps it on purpose, as the live table's conflict
dialog over the sheet). A round's address, come back to after its round was saved, shows the
score sheet again (:meth:`App.done_with`): Flet can only push an address, not replace one.

A screen is an object with ``.view`` (an ``ft.View``) built from the store; its handlers only
change controls and call ``app.go(route)``, so screens can be driven in tests with
``App(store)`` and no page at all (``page=None``: navigation renders at once, dialogs and
messages are recorded in :attr:`App.dialog` and :attr:`App.messages`).

Flet sends a handler's changes by itself when the handler returns, unless something called
``update()`` during it — and showing a dialog or a snack bar does. So the few App methods that
touch the page (:meth:`App.show`, :meth:`App.notify`, dialogs) send the whole page themselves;
screens never call ``update()``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any, Final, Protocol
from urllib.parse import parse_qsl, unquote

import flet as ft

from app import i18n
from app.i18n import _

if TYPE_CHECKING:
    from app.games import Game, GameSummary

log = logging.getLogger("app")

CLIENT_TIMEOUT: Final = 10.0
"""Seconds to wait for the browser's answer to a call (its storage) before going on without."""


async def ask_client(call: Awaitable[Any], timeout: float | None = None) -> Any:
    """Await a call the browser answers (``ft.SharedPreferences().get(…)`` …) for at most
    ``timeout`` seconds (default :data:`CLIENT_TIMEOUT`) and return its answer.

    A browser that left never answers; a task left waiting for it forever is dropped with its
    session and asyncio logs it as destroyed while pending (a flood of closed connections
    filled the log that way). Raises:
        TimeoutError: no answer in time; any error of the call itself.
    """
    return await asyncio.wait_for(call, CLIENT_TIMEOUT if timeout is None else timeout)


class StoreLike(Protocol):
    """What the UI uses of :class:`app.store.Store`."""

    notices: list[Any]

    def dismiss_notices(self) -> None: ...

    def list_games(self) -> list[GameSummary]: ...
    def load_game(self, game_id: str) -> Game: ...
    def create_game(self, game: Game) -> Game: ...
    def save_game(self, game: Game, expected_version: int) -> Game: ...
    def delete_game(self, game_id: str) -> None: ...
    def known_players(self) -> list[str]: ...
    def forget_players(self, names: Iterable[str]) -> None: ...
    def get_setting(self, key: str, default: Any = None) -> Any: ...
    def set_setting(self, key: str, value: Any) -> None: ...


class Screen(Protocol):
    """A built screen."""

    view: ft.View


class Routes(Protocol):
    """What the shell gives every session (:func:`install`, done by :mod:`app.ui.shell`)."""

    def build(self, app: App, route: str) -> Screen:
        """The screen for ``route`` (a path without its query)."""
        ...

    def error(self, app: App, route: str, message: str) -> Screen:
        """A screen saying ``message``, with a way home."""
        ...

    def prepare(self, app: App) -> None:
        """Set up a session with a page before its first screen (the theme)."""
        ...


_ROUTES: list[Routes] = []


def install(routes: Routes) -> None:
    """Make ``routes`` build the screens of every session (the shell calls this once)."""
    _ROUTES[:] = [routes]


def routes() -> Routes:
    """The installed :class:`Routes`. Raises RuntimeError when no shell was imported."""
    if not _ROUTES:
        raise RuntimeError("no routes installed: import app.ui.shell first")
    return _ROUTES[0]


VIEW_FIELDS: tuple[str, ...] = (
    "route",
    "appbar",
    "controls",
    "scroll",
    "padding",
    "spacing",
    "horizontal_alignment",
    "vertical_alignment",
    "bgcolor",
)
"""The fields of the page's one View that a screen sets (kept and restored whole)."""


def _quiet(task: asyncio.Task[Any]) -> None:
    """Read a finished navigation's outcome (a closed session's error is expected)."""
    if not task.cancelled() and task.exception() is not None:
        log.debug("navigation not sent: %s", task.exception())


def push_route(page: Any, route: str) -> None:
    """Send the browser to ``route``: ``page.navigate``, but a phone that left meanwhile
    ("Session closed") leaves no "Task exception was never retrieved" in the log. Off the
    session's loop (a test's page) it is Flet's own ``navigate``."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        page.navigate(route)
        return
    loop.create_task(page.push_route(route)).add_done_callback(_quiet)


def _shown(page: Any) -> list[Any] | None:
    """The dialogs, bottom sheets and snack bars on ``page`` (Flet keeps them in
    ``page._dialogs.controls``), or None without a page or such a list."""
    shown = getattr(getattr(page, "_dialogs", None), "controls", None)
    return shown if isinstance(shown, list) else None


class App:
    """One session's UI state.

    Args:
        store: the process's store (shared by every session).
        page: the Flet page, or None in logic tests.
        language: this session's language (a code of :data:`app.i18n.LANGUAGES`); default:
            the language in force where the App is made. Screens are built in it and, with a
            page, every handler Flet runs for this session speaks it (:mod:`app.i18n`).
    """

    def __init__(
        self, store: StoreLike, page: ft.Page | None = None, language: str | None = None
    ) -> None:
        self.store = store
        self.page = page
        self.language = language if language in i18n.LANGUAGES else i18n.language()
        """This session's language (see :meth:`set_language`)."""
        if page is not None:
            i18n.bind_page(page, self.language)
        self.route = "/"
        self.query: dict[str, str] = {}
        """The query of the route shown (``?game=…``), for screens that take one."""
        self.screen: Screen | None = None
        self.messages: list[str] = []
        self.dialog: ft.AlertDialog | None = None
        self.downloads: list[tuple[str, str]] = []
        self.copied: list[str] = []
        self.on_rendered: Callable[[], None] | None = None
        self.device: dict[str, Any] = {}
        """This device's settings as read from its browser's storage this session (e.g. the
        referee's variant, app/ui/referee/checkers.py), by ``ft.SharedPreferences`` key."""
        self._asked: list[str] = []
        """The paths :meth:`go` sent the browser to whose route change has not come back
        yet: a route change to any other path is the browser's own (Back, Forward, an
        address typed)."""
        self._done: set[str] = set()
        """Paths whose screen finished its job (:meth:`done_with`)."""
        self._address = "/"
        """The path in the browser's address bar, as its last route change said."""
        self.tab = secrets.token_hex(6)
        """A random name for this session (one browser tab; a reload keeps its session) under
        which it keeps its own round drafts in the browser's storage, so two tabs of one
        browser never write over each other's (app/ui/entry/round_entry.py)."""

    # -- navigation ---------------------------------------------------------------------------
    def start(self) -> None:
        """Wire the page and show the route the browser asked for."""
        page = self.page
        assert page is not None
        with i18n.use_language(self.language):
            page.title = _("Rummy referee")
        routes().prepare(self)  # light, dark or the device's theme
        page.on_route_change = self._route_changed
        page.on_view_pop = self._view_popped
        was_connect: Any = page.on_connect  # sharing.attach catches up on reconnect too

        def connected(e: Any = None) -> None:
            self.drop_messages()
            if callable(was_connect):
                was_connect(e)

        page.on_connect = connected
        self._address = _path(page.route or "/")
        self.show(page.route or "/")

    def _route_changed(self, e: ft.RouteChangeEvent) -> None:
        path, before = _path(e.route), self._address
        self._address = path
        if path in self._asked:  # where a screen sent us: its handler closed (or kept, as
            # the live table's conflict dialog over the sheet) its dialog itself
            del self._asked[: self._asked.index(path) + 1]  # and any pushes skipped before
        else:  # the browser's Back / Forward or an address typed
            self._asked.clear()
            if path != before:  # the dialogs of the screen left (the export of another
                self.close_dialogs()  # game's sheet …) must not stay over the new one
        self.show(e.route)

    def _view_popped(self, _e: Any = None) -> None:
        self.go(parent_route(self.route))

    def go(self, route: str) -> None:
        """Open ``route`` (through the browser history when there is a page)."""
        self._done.discard(_path(route))  # opened on purpose: the screen itself again
        if self.page is None:
            self.show(route)
            return
        if route == self.route or _path(self.route) != self._address == _path(route):
            # the address is there already (the sheet shown at a saved round's address,
            # :meth:`done_with`): a push of it would change nothing, not even the screen
            self.show(route)
            return
        self._asked = [*self._asked[-7:], _path(route)]
        push_route(self.page, route)

    def done_with(self, route: str) -> None:
        """Say that the screen of ``route`` finished its job (its round was saved): coming back
        to it by the browser's Back or Forward shows the screen of :func:`parent_route` of it
        instead (the score sheet, not an empty form for the next round), under the same
        address; :attr:`route` is then the parent's (the sheet's refreshes, live updates and
        ← are the sheet's). Opening ``route`` with :meth:`go` shows the screen itself again."""
        self._done.add(_path(route))

    def refresh(self) -> None:
        """Rebuild the current screen from the store."""
        self.show(self.route)

    def set_language(self, lang: str) -> str:
        """Show this session in ``lang`` from now on (other sessions keep theirs) and rebuild
        the screen. Returns the code in force (``"en"`` for an unknown one)."""
        self.language = lang if lang in i18n.LANGUAGES else "en"
        if self.page is not None:
            i18n.bind_page(self.page, self.language)
            with i18n.use_language(self.language):
                self.page.title = _("Rummy referee")
        self.refresh()
        return self.language

    def show(self, route: str) -> None:
        """Build the screen for ``route`` and put it on the page (for a path :meth:`done_with`,
        the screen of its parent)."""
        path, _sep, qs = route.partition("?")
        self.query = dict(parse_qsl(qs))
        route = path.rstrip("/") or "/"
        if route in self._done:
            route, self.query = parent_route(route), {}
        with i18n.use_language(self.language):  # the screen in this session's language
            try:
                screen = routes().build(self, route)
            except Exception:  # noqa: BLE001 - a broken screen must not leave a blank page
                log.exception("cannot show %s", route)
                screen = routes().error(self, route, _("This page could not be shown."))
        moved = route != self.route
        self.route = route
        self.screen = screen
        if self.page is not None:
            self._mount(screen)
            self.page_update()
            if moved:
                self.scroll_to(None)  # the kept View would keep the last screen's offset
        if self.on_rendered is not None:
            self.on_rendered()

    _VIEW_FIELDS = VIEW_FIELDS

    def _mount(self, screen: Screen) -> None:
        """Show ``screen`` in the page's one View. The View object is kept and its content
        swapped: replacing the View itself makes Flutter rebuild its navigator, and a dialog
        closing at that moment can stay on screen."""
        assert self.page is not None
        views = self.page.views
        if len(views) == 1 and isinstance(views[0], ft.View):
            view = views[0]
            for name in self._VIEW_FIELDS:
                setattr(view, name, getattr(screen.view, name))
            screen.view = view
        else:
            views.clear()
            views.append(screen.view)

    # -- feedback -----------------------------------------------------------------------------
    def notify(self, text: str, error: bool = False) -> None:
        """A short message at the bottom of the screen, for :data:`NOTICE_SECONDS`."""
        self.messages.append(text)
        if self.page is not None:
            self.page.show_dialog(
                ft.SnackBar(
                    ft.Text(text, size=15),
                    bgcolor=ft.Colors.ERROR if error else None,
                    duration=ft.Duration(seconds=NOTICE_SECONDS),
                )
            )
            self.page_update()

    def drop_messages(self) -> None:
        """Take the short messages still on the page away. A browser reload brings the same
        session back (``page.on_connect``) and Flet would show its snack bars again, e.g.
        "Round 2 deleted" long after; they no longer apply."""
        controls = _shown(self.page)
        if controls is None:
            return
        stale = [d for d in controls if isinstance(d, ft.SnackBar)]
        if not stale:
            return
        for snack in stale:  # closed first: a snack bar merely removed stays on the screen
            snack.open = False
        self.page_update()
        for snack in stale:
            controls.remove(snack)
        self.page_update()

    def confirm(
        self, title: str, text: str, yes: str, on_yes: Callable[[], None], danger: bool = True
    ) -> ft.AlertDialog:
        """Ask before doing something that cannot be taken back (the "no" button is safe)."""

        def close(_e: Any = None) -> None:
            self.close_dialog()

        def accept(_e: Any = None) -> None:
            self.close_dialog()
            on_yes()

        dialog = ft.AlertDialog(
            modal=True,
            title=ft.Text(title),
            content=ft.Text(text),
            actions=[
                ft.TextButton(_("Cancel"), on_click=close),
                ft.FilledButton(
                    yes,
                    on_click=accept,
                    style=ft.ButtonStyle(bgcolor=ft.Colors.RED_700, color=ft.Colors.WHITE)
                    if danger
                    else None,
                ),
            ],
        )
        self.open_dialog(dialog)
        return dialog

    def open_dialog(self, dialog: ft.AlertDialog) -> None:
        """Show a dialog (recorded in :attr:`dialog` for tests)."""
        self.dialog = dialog
        if self.page is not None:
            self.page.show_dialog(dialog)
            self.page_update()

    def close_dialog(self) -> None:
        """Close the open dialog: the top one that is not a short message. (Flet's
        ``pop_dialog`` closes whatever opened last, so "Close" tapped while "Copied" still
        showed closed the message and left the export dialog open.)"""
        self.dialog = None
        page = self.page
        if page is None:
            return
        shown = _shown(page)
        if shown is None:
            page.pop_dialog()
        else:
            top = next(
                (d for d in reversed(shown) if d.open and not isinstance(d, ft.SnackBar)), None
            )
            if top is not None:
                top.open = False
                top.update()
        self.page_update()

    def close_dialogs(self) -> None:
        """Close every dialog and bottom sheet on the page (not the short messages): the
        screen they belonged to is gone."""
        self.dialog = None
        for d in _shown(self.page) or []:
            if getattr(d, "open", False) and not isinstance(d, ft.SnackBar):
                d.open = False

    # -- services (clipboard, download) -------------------------------------------------------
    def run(self, make: Callable[[], Awaitable[Any]]) -> None:
        """Run a coroutine for the page (no-op without a page)."""
        if self.page is None:
            return
        self.page.run_task(make)

    def copy(self, text: str) -> None:
        """Put ``text`` on the clipboard."""
        self.copied.append(text)
        if self.page is None:
            return

        async def do() -> None:
            try:
                await ft.Clipboard().set(text)
                self.notify(_("Copied"))
            except Exception:  # noqa: BLE001 - clipboard refused (e.g. plain http on a phone)
                self.notify(_("The browser refused the clipboard; select the text instead"))
            self.page_update()

        self.run(do)

    def download(self, file_name: str, text: str) -> None:
        """Offer ``text`` as a file download named ``file_name``."""
        self.downloads.append((file_name, text))
        if self.page is None:
            return

        async def do() -> None:
            try:
                await ft.FilePicker().save_file(file_name=file_name, src_bytes=text.encode("utf-8"))
            except Exception:  # noqa: BLE001
                log.exception("download failed")
                self.notify(_("The download failed; copy the text instead"), error=True)
                self.page_update()

        self.run(do)

    def scroll_to(self, key: str | None) -> None:
        """Scroll the screen so the control with ``ft.ScrollKey(key)`` is at the top (None:
        to the top of the screen)."""
        page = self.page
        if page is None or not page.views:
            return
        view = page.views[-1]

        async def do() -> None:
            self.page_update()
            # under a time limit: a phone that stopped reading never answers, and a task
            # waiting for it forever is destroyed pending when its session goes (an
            # "ERROR asyncio" line per such phone); the limit's timer keeps it alive till then
            try:
                if key is None:
                    await asyncio.wait_for(view.scroll_to(offset=0, duration=0), SCROLL_WAIT)
                    return
                await asyncio.sleep(0.15)  # let the client lay the new content out first
                await asyncio.wait_for(
                    view.scroll_to(scroll_key=ft.ScrollKey(key), duration=250),  # type: ignore[call-arg]
                    SCROLL_WAIT,
                )
            except Exception:  # noqa: BLE001 - scrolling is a nicety
                log.debug("scroll failed", exc_info=True)

        self.run(do)

    def page_update(self) -> None:
        """Send changes made outside an event handler (background tasks only)."""
        if self.page is not None:
            try:
                self.page.update()
            except Exception:  # noqa: BLE001 - session already closed
                log.debug("update after close", exc_info=True)


SCROLL_WAIT: Final = 10.0
"""Seconds a scroll waits for the browser's answer (:meth:`App.scroll_to`)."""
DEVICE_KEY: Final = "rummy_referee.language"
"""Browser storage key of this device's language choice (read by :mod:`app.main`, written by
Settings)."""

NOTICE_SECONDS: Final = 4
"""How long a short message (:meth:`App.notify`) stays on the screen."""


def _path(route: str) -> str:
    """``route`` without its query and trailing slash, unquoted (``/game/x/?a=b`` →
    ``/game/x``; ``/players/Ala%20B`` → ``/players/Ala B``): a route as pushed and as the
    browser reports it back compare equal."""
    return unquote(route.partition("?")[0]).rstrip("/") or "/"


def parent_route(route: str) -> str:
    """Where the back arrow leads from ``route``."""
    parts = [p for p in route.split("/") if p]
    if len(parts) <= 1 or parts[0] != "game":
        return "/"
    if len(parts) == 2:
        return "/"
    if len(parts) in (3, 4):
        return f"/game/{parts[1]}"
    return "/" + "/".join(parts[:-1])


__all__ = [
    "DEVICE_KEY",
    "NOTICE_SECONDS",
    "App",
    "Routes",
    "Screen",
    "StoreLike",
    "install",
    "parent_route",
    "routes",
]
