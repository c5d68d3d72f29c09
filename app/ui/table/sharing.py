"""Sharing the table: the live score sheet on every phone, join codes, and clashing saves.

- :func:`session_store` gives each browser session its own view of the store
  (:class:`app.live.SessionStore`: access checks in every read and write; a change published
  after every write) and :func:`attach` subscribes the session to the process's hub: when
  another session changes a game, this session's games list, score sheet or round screen of
  that game is rebuilt from the store at once. A session entering or editing a round is not
  disturbed (a short message says what changed; its save then meets the conflict handling).
- :func:`save` is how screens save (through :func:`save_game`): a save that
  meets someone else's change is re-applied on top of it when the two do not clash (a new
  round: it becomes the next round), and otherwise :class:`ConflictDialog` says who changed
  what and lets the person reload, add their entry as a new round, use theirs, or discard it.
- ``/share`` (:class:`ShareScreen`, the host) shows a game's join code as text and as a QR
  code of the game's address with the code, and what visitors without the code may do;
  ``/join`` (:class:`JoinScreen`, other devices) takes the code.
- :func:`gate` (called by the router) sends a visitor who may not see or change a game to
  the join screen; :func:`share_button` and :func:`access_banner` go on the screens.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import weakref
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final, Protocol, runtime_checkable
from urllib.parse import urlencode

import flet as ft
import flet.canvas as cv

from app import games, guard, i18n, live
from app.error_text import describe
from app.games import Game
from app.i18n import _, ngettext
from app.lan import lan_address
from app.live import AccessError, Change, Merge, SessionStore
from app.store import StoreError
from app.ui.common.frame import MessageScreen, frame
from app.ui.common.session import ask_client
from app.ui.common.titles import game_title
from app.ui.common.widgets import (
    MUTED,
    ChoiceChips,
    card,
    error_box,
    heading,
    icon_button,
    muted,
    primary_button,
    readable,
    secondary_button,
    show_error,
    signed,
)
from app.ui.table.shared_games import latest_shared, shared_game

if TYPE_CHECKING:
    from app.ui.common.session import App, Screen

log = logging.getLogger("app")

NEXT_GAME_KEY: Final = "next_game"
""":attr:`Game.extra` key of a finished game: the id of the game the host started after it
with the same players ("Play again", :mod:`app.ui.sheet.game_end`); watching phones follow it."""


@runtime_checkable
class LiveSheet(Protocol):
    """A screen brought up to date in place after a save (the score sheet,
    :meth:`app.ui.sheet.score_sheet.ScoreSheet.update_from`) instead of being rebuilt."""

    game: Game

    def update_from(self, game: Game) -> list[ft.Control]:
        """Show ``game`` (a later version of :attr:`game`); returns the controls changed."""
        ...


_ACCESS: dict[int, tuple[Any, live.Access]] = {}
_CONFLICTS: weakref.WeakKeyDictionary[App, ConflictDialog] = weakref.WeakKeyDictionary()
_SAVED: weakref.WeakKeyDictionary[App, Game] = weakref.WeakKeyDictionary()
"""The game each session saved last (:func:`current_game`)."""


# -- sessions ------------------------------------------------------------------------------------
def access_for(store: Any) -> live.Access:
    """The process's :class:`app.live.Access` over ``store`` (one per store)."""
    held = _ACCESS.get(id(store))
    if held is None or held[0] is not store:
        held = (store, live.Access(store))
        _ACCESS[id(store)] = held
    return held[1]


def session_store(store: Any, visitor: live.Visitor, hub: live.Hub | None = None) -> SessionStore:
    """The store as the session of ``visitor`` may use it. The visitor is made by
    :func:`app.main.make_main` from the server's side only (the connection's real address,
    the host key): never from a page field the browser can set."""
    return SessionStore(store, access_for(store), visitor, hub)


def remember_joins(app: App) -> None:
    """Keep this session's join tokens in the browser's storage (``live.JOINS_PREF``), so a
    later session of this phone (the screen went dark, the page was reloaded) keeps keeping
    score without the code."""
    ss = session_of(app)
    page = app.page
    if ss is None or page is None or ss.is_host:
        return
    if ss.visitor.joined:
        visitor, access = ss.visitor, ss.access
        guard.mark_joined(page, lambda: visitor.still_joined(access))  # a player
    import json

    tokens = json.dumps(ss.tokens())

    async def keep() -> None:
        with contextlib.suppress(Exception):  # a browser that refuses storage: code again
            await ask_client(ft.SharedPreferences().set(live.JOINS_PREF, tokens))

    with contextlib.suppress(Exception):
        page.run_task(keep)


def session_of(app: App) -> SessionStore | None:
    """The session's :class:`SessionStore` (None when the app runs on a bare store, as in
    logic tests of other screens: then everything is allowed)."""
    store = app.store
    return store if isinstance(store, SessionStore) else None


def is_host(app: App) -> bool:
    """Is this session on the host's computer?"""
    ss = session_of(app)
    return ss is None or ss.is_host


def can_edit(app: App, game_id: str) -> bool:
    """May this session change the game?"""
    ss = session_of(app)
    return ss is None or ss.can_edit(game_id)


def _connected(page: Any) -> bool:
    """Whether ``page.run_task`` can start a task: its session has a connection with a loop
    (Flet's ``run_task`` makes the coroutine first and fails on a missing connection after)."""
    try:
        session = page.session
    except AttributeError:
        return True  # not Flet's page (tests' stand-ins): ``run_task`` tells
    except Exception:  # noqa: BLE001 - Flet's "destroyed session"
        return False
    connection = getattr(session, "connection", None)
    return connection is not None and getattr(connection, "loop", None) is not None


def attach(app: App, hub: live.Hub | None = None) -> int:
    """Subscribe the session to the hub: others' changes refresh what it shows
    (:func:`on_change`). Returns the subscription id.

    With a page, a change is applied in a task of that session (``page.run_task``, so in its
    language, on the one event loop). A session whose connection dropped (a phone's screen
    went dark) keeps its subscription and is brought up to date when it reconnects
    (``page.on_connect``); a session that expires (``page.on_close``) unsubscribes.
    """
    ss = session_of(app)
    hub = hub or (ss.hub if ss is not None else live.HUB)
    page = app.page
    stale = [False]

    def deliver(change: Change) -> None:
        if page is None:
            on_change(app, change)
            return

        async def apply() -> None:
            async with _turn():  # one session at a time: others' taps wait one update only
                if on_change(app, change) != "ignored":
                    await asyncio.sleep(_BREATHE)  # the next session's turn: after the rest

        if not _connected(page):
            # disconnected: catch up when it comes back (and make no coroutine that
            # ``run_task`` would then drop unawaited: a RuntimeWarning in the log)
            stale[0] = True
            return
        try:
            page.run_task(apply)
        except Exception:  # noqa: BLE001 - disconnected meanwhile: catch up when it comes back
            stale[0] = True

    sid = hub.subscribe(deliver)
    if ss is not None:
        ss.visitor.sub = sid
    if page is not None:
        was_connect: Any = page.on_connect
        was_close: Any = page.on_close

        def connected(e: Any = None) -> None:
            if stale[0]:
                stale[0] = False
                _refresh(app)
            if callable(was_connect):
                was_connect(e)

        def closed(e: Any = None) -> None:
            hub.unsubscribe(sid)
            if callable(was_close):
                was_close(e)
            # the session is gone: no screen update after this handler (Flet's auto-update
            # would send to a closed connection and log an error)
            ft.context.disable_auto_update()

        page.on_connect = connected
        page.on_close = closed
    return sid


_BREATHE = 0.001
"""Seconds the loop is left to everyone else between two sessions' updates (:func:`_turn`)."""
_TURNS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
    weakref.WeakKeyDictionary()
)


def _turn() -> asyncio.Lock:
    """The lock the sessions brought up to date after a change take in turn (one per event
    loop). A save makes every watching session update its screen; each runs in its own task,
    and tasks started together would all run in one turn of the loop, one after the other,
    before anything else (a tap, a message of another phone) is looked at. Taking turns, each
    update is a turn of its own and the loop serves everyone else between two of them: the
    lock is held for :data:`_BREATHE` seconds after an update, so that a session starting in
    the same turn waits and whatever became ready meanwhile (a phone's message, the steps of
    its handler) runs before the next update."""
    loop = asyncio.get_running_loop()
    lock = _TURNS.get(loop)
    if lock is None:
        lock = _TURNS[loop] = asyncio.Lock()
    return lock


def _entry_route(parts: list[str]) -> bool:
    """``/game/<id>/round`` or ``/game/<id>/round/<n>/edit``: a round being entered."""
    return parts[2:] == ["round"] or (len(parts) == 5 and parts[4] == "edit")


def _changing_route(parts: list[str]) -> bool:
    """A screen of a game that changes it: round entry, the turn timer (records penalties)."""
    return _entry_route(parts) or parts[2:] == ["timer"]


def _live_route(parts: list[str]) -> bool:
    """``/game/<id>`` or ``/game/<id>/round/<n>``: shows the stored game, rebuilt at once."""
    return len(parts) == 2 or (len(parts) == 4 and parts[2] == "round" and parts[3].isdigit())


def on_change(app: App, change: Change) -> str:
    """Bring the session's screen up to date after ``change`` (made by another session).

    Returns:
        ``refreshed`` (the screen was rebuilt from the store), ``noted`` (a round is being
        entered here: only a short message), ``followed`` (the game is over and the host
        started the next one with the same players, "Play again": the score sheet or the
        table display of that game is shown instead, :func:`_follow_next`), or ``ignored``
        (the screen does not show it).
    """
    parts = [p for p in app.route.split("/") if p]
    if not parts:
        _refresh(app)
        return "refreshed"
    if parts[0] == "share":
        if change.kind == "access":
            _refresh(app)
            return "refreshed"
        return "ignored"
    if parts[0] != "game" or len(parts) < 2:
        return "ignored"
    if change.game_id != parts[1] and not (change.kind == "access" and change.game_id is None):
        return "ignored"
    if parts[2:] == ["table"] and change.kind == "game":  # the table display: follow only
        return "followed" if _follow_next(app, change, "/table") else "ignored"
    if not _live_route(parts) and not _entry_route(parts):
        return "ignored"  # the timer, the checkers, the rule book: nothing to redraw
    if _entry_route(parts):
        if change.kind == "game":
            with contextlib.suppress(StoreError):
                game = _changed_game(app, change)
                text = _("{who} {did}.").format(who=who(change), did=describe_last(game))
                if parts[2:] == ["round"] and not games.standings(game).finished:
                    text += " " + _("Yours will be round {n}.").format(n=len(game.rounds) + 1)
                app.notify(text)
        return "noted"
    if change.kind == "game" and len(parts) == 2 and _follow_next(app, change):
        return "followed"
    if change.kind == "game" and len(parts) == 2 and _update_sheet(app, change):
        return "refreshed"
    _refresh(app)
    return "refreshed"


def next_game(app: App, game: Game) -> str | None:
    """The game the host started after ``game`` with the same players ("Play again",
    :data:`NEXT_GAME_KEY`), when ``game`` is over and that game is still stored and this
    session may see it; else None."""
    gid = game.extra.get(NEXT_GAME_KEY)
    if not isinstance(gid, str) or not gid or gid == game.id:
        return None
    if not games.standings(game).finished:
        return None  # opened again by undo: these players are still at it
    ss = session_of(app)
    if ss is not None and ss.access.holds(gid, ss.visitor.joined.get(game.id)):
        return gid  # the code this phone joined with moved there: it may go on there
    try:
        here = any(s.id == gid for s in app.store.list_games())
        return gid if here and (ss is None or ss.can_view(gid)) else None
    except StoreError:
        return None


def point_to_next(app: App, old: Game, new_id: str) -> bool:
    """Store in the finished game ``old`` that its players go on in ``new_id``
    (:data:`NEXT_GAME_KEY`): the phones watching ``old`` follow (:func:`_follow_next`), and
    its sheet links there. Not an undo step; a save that fails (someone changed the game
    meanwhile, the disk) only loses the pointer. Returns whether it was stored."""
    pointer = dataclasses.replace(old, extra={**old.extra, NEXT_GAME_KEY: new_id})
    pointer._cache = old._cache  # the same rounds: the same standings
    try:
        stored = app.store.save_game(pointer, old.version)
    except StoreError:
        log.info("the next game's pointer was not saved", exc_info=True)
        return False
    _remember(app, stored)
    return True


def carry_join(app: App, old_id: str, new_id: str) -> None:
    """A phone that joined ``old_id`` joins ``new_id`` too when the table's join code moved
    there ("Play again": app/live.py, SessionStore.play_again): it keeps keeping score
    without typing the code again. Nothing happens for the host, a phone that only watched,
    or a code changed since."""
    ss = session_of(app)
    if ss is None or ss.is_host or ss.can_edit(new_id):
        return
    code = ss.visitor.joined.get(old_id)
    if not code or not ss.access.holds(new_id, code):
        return  # (checked first: a join with a wrong code would count as a wrong try)
    with contextlib.suppress(AccessError, StoreError):
        if ss.join(new_id, code, ss.visitor.name) is not None:
            remember_joins(app)


def _follow_next(app: App, change: Change, suffix: str = "") -> bool:
    """When ``change`` made the game shown point to the next game with the same players
    (:func:`next_game`), show that game (its sheet, or ``suffix``: ``/table``) with a short
    message, carrying this phone's join over (:func:`carry_join`). False otherwise."""
    parts = [p for p in app.route.split("/") if p]
    try:
        game = _changed_game(app, change)
    except StoreError:
        return False
    nxt = next_game(app, game)
    if nxt is None or parts[1:2] != [game.id]:
        return False
    carry_join(app, game.id, nxt)
    app.notify(_("The same players started a new game: here it is."))
    app.go(f"/game/{nxt}{suffix}")
    return True


def _changed_game(app: App, change: Change) -> Game:
    """The game ``change`` made: the copy the saving session left for the watchers
    (:func:`app.ui.table.shared_games.latest_shared`) when this session may see it, else read from
    the store. Raises StoreError."""
    gid = change.game_id or ""
    ss = session_of(app)
    held = latest_shared(gid, change.version)
    if held is not None and (ss is None or ss.can_view(gid)):
        return held
    return app.store.load_game(gid)


def _refresh(app: App) -> None:
    """Rebuild the screen shown, query included (``App.refresh`` drops it)."""
    query = urlencode(app.query)
    app.show(app.route + (f"?{query}" if query else ""))


def _update_sheet(app: App, change: Change) -> bool:
    """Bring the score sheet a phone shows up to date in place after a save (a new row, new
    totals, the chart's new point: :meth:`app.ui.sheet.score_sheet.ScoreSheet.update_from`) and send
    only what changed. Watching phones share the game loaded once per change
    (:func:`app.ui.table.shared_games.shared_game`). False when the sheet must be rebuilt instead:
    no page (logic tests: the rebuild is what the update is checked against), another
    screen, a game this session may no longer see, or one gone from the store."""
    screen = app.screen
    gid = change.game_id
    if app.page is None or gid is None or not isinstance(screen, LiveSheet):
        return False
    if screen.game.id != gid:
        return False
    if screen.game.version >= change.version:
        return True  # shown already (or a late message about an older version)
    ss = session_of(app)
    if ss is not None and not ss.can_view(gid):
        return False
    game = latest_shared(gid, change.version)  # the saved game, or a watcher's
    if game is not None and is_host(app):  # the host's sheet keeps the game's join code
        kept = game
        game = dataclasses.replace(kept, join_code=screen.game.join_code)
        game._cache = kept._cache
    if game is None:
        try:
            game = app.store.load_game(gid)
        except StoreError:
            return False
    with i18n.use_language(app.language):
        changed = screen.update_from(game)
    try:
        app.page.update(*changed)
    except Exception:  # noqa: BLE001 - the session closed meanwhile
        log.debug("update after close", exc_info=True)
    return True


# -- words -----------------------------------------------------------------------------------------
def who(change: Change | None) -> str:
    """Who made ``change``, for people: the name given when joining, else where it came from."""
    if change is None:
        return _("Someone")
    if change.by:
        return change.by
    return _("The host's computer") if change.by_host else _("A phone on the network")


def describe_last(game: Game) -> str:
    """The game's last change: "saved round 4", "edited round 2", "deleted round 3"."""
    step = games.last_change(game)
    if step is None:
        return _("changed the game")
    n = step.index + 1
    if step.action == "add":
        return _("saved round {n}").format(n=n)
    if step.action == "replace":
        return _("edited round {n}").format(n=n)
    if step.action == "delete":
        return _("deleted round {n}").format(n=n)
    return _("changed the game")


def ago(iso: str | None) -> str:
    """``a moment ago`` / ``5 minutes ago`` since an ISO time."""
    try:
        then = datetime.fromisoformat(iso or "")
        if then.tzinfo is None:
            then = then.replace(tzinfo=UTC)
        seconds = (datetime.now(UTC) - then).total_seconds()
    except (TypeError, ValueError):
        return _("a moment ago")
    if seconds < 90:
        return _("a moment ago")
    minutes = int(seconds // 60)
    return ngettext("{n} minute ago", "{n} minutes ago", minutes).format(n=minutes)


def scores_text(game: Game, scores: dict[str, int]) -> str:
    """``Ala +101, Ola −12`` in seat order."""
    return ", ".join(f"{p} {signed(scores.get(p, 0))}" for p in game.players)


def group_code(code: str) -> str:
    """``ABCD2345`` → ``ABCD 2345`` (easier to read out; spaces are ignored when typed)."""
    half = len(code) // 2
    return f"{code[:half]} {code[half:]}" if len(code) in (6, 8) else code


# -- saving ----------------------------------------------------------------------------------------
def save(app: App, game: Game, expected_version: int, base: Game | None) -> Game | None:
    """Save ``game`` (changed from ``base``, which was stored at ``expected_version``).

    A clash-free change is re-applied on whatever was saved meanwhile (see
    :func:`app.live.merge`); a real conflict opens :class:`ConflictDialog` and returns None.

    Raises:
        AccessError: this session may not change the game. StoreError: a write failed.
    """
    stored, merged, current = live.save_merging(app.store, base, game, expected_version)
    if stored is not None:
        _remember(app, stored)
        return stored
    assert merged is not None and current is not None
    ConflictDialog(app, base, game, merged, current).open()
    return None


def save_game(
    app: App,
    game: Game,
    expected_version: int,
    base: Game | None = None,
    on_error: Callable[[str], None] | None = None,
) -> Game | None:
    """Store ``game`` if nobody saved it since ``expected_version`` — or re-apply the change on
    top of what they saved, when the two do not clash.

    Args:
        base: the game the change was made from (default: the game of the screen shown, if it
            is the one at ``expected_version``); it tells what the change was.
        on_error: also called with the message when the change was refused (no right to
            change the game, or the disk refused: full, read-only), so that a screen can keep
            what was typed and show why; not called for a clash (its dialog is shown).

    Returns:
        The stored game (possibly saved on top of someone else's change: its ``version`` is
        then more than ``expected_version + 1``), or None after telling the user why it was
        not saved (a clash with someone else's change — a dialog offers the choices —, no
        right to change the game, or the disk refused). Nothing already saved is lost.
    """
    if base is None:
        shown = getattr(app.screen, "game", None)
        if isinstance(shown, Game) and shown.id == game.id and shown.version == expected_version:
            base = shown
    try:
        return save(app, game, expected_version, base)
    except AccessError as e:
        message = access_message(e)
    except StoreError as e:
        log.exception("save failed")
        message = _("Could not save. {reason}").format(reason=describe(e))
    app.notify(message, error=True)
    if on_error is not None:
        on_error(message)
    return None


def _remember(app: App, stored: Game) -> None:
    """Keep the game just saved: for the sheet this session shows next
    (:func:`current_game`) and for the watching sessions (:func:`app.ui.table.shared_games.
    shared_game`), so that nobody reads back and totals again what was just written. The
    stored game carries its standings (the store totalled it for the games list)."""
    _SAVED[app] = stored
    shared_game(stored)


def current_game(app: App, game_id: str, own: bool = False) -> Game:
    """The stored game ``game_id`` as this session may see it: the one it saved last, when
    that is still the stored version (no read of the file, standings already counted), else
    read from the store.

    Args:
        own: a Game object of the caller's own (its own list of rounds, the same rounds and
            standings), for a screen that changes the game it is given.

    Raises:
        What ``app.store.load_game`` raises (``AccessError``, ``StoreError``).
    """
    held = _SAVED.get(app)
    if held is not None and held.id == game_id:
        now = next((s.version for s in app.store.list_games() if s.id == game_id), None)
        if now == held.version:
            if not own:
                return held
            mine = dataclasses.replace(held, rounds=list(held.rounds))
            mine._cache = held._cache  # the same rounds: the same standings
            return mine
        del _SAVED[app]
    return app.store.load_game(game_id)


def open_conflict(app: App) -> ConflictDialog | None:
    """The conflict dialog the session shows now, if any (for tests and the shell)."""
    dlg = _CONFLICTS.get(app)
    return dlg if dlg is not None and app.dialog is dlg.dialog else None


def rebase_note(app: App, base: Game, stored: Game) -> str:
    """`` (… saved round 4 just before)`` when ``stored`` was saved on top of someone else's
    change, else ``""``."""
    if stored.version <= base.version + 1:
        return ""
    ss = session_of(app)
    recent = ss.hub.recent(stored.id) if ss is not None else []
    others = [c for c in recent if base.version < c.version < stored.version]
    return " " + _("({who} saved a change just before)").format(
        who=who(others[-1] if others else None)
    )


class ConflictDialog:
    """ "Not saved: … changed this a moment ago", with the choices that fit.

    Buttons (``data`` names them, for tests): ``show`` (their version of the round: reload),
    ``mine`` (use mine for that round instead of theirs), ``as_new`` (add my entry as a new
    round), ``discard`` (keep theirs). ``text`` holds the explanation.
    """

    def __init__(
        self, app: App, base: Game | None, new: Game, merged: Merge, current: Game
    ) -> None:
        self.app = app
        self.base = base
        self.new = new
        self.merged = merged
        self.current = current
        edit = merged.edit
        ss = session_of(app)
        last = ss.hub.last(current.id) if ss is not None else None
        if last is not None and last.version != current.version:
            last = None
        step = games.last_change(current)
        lines: list[str] = []
        j = merged.their_index
        theirs = current.rounds[j] if j is not None and j < len(current.rounds) else None
        mine_round = (
            new.rounds[edit.index]
            if edit.action in ("add", "replace")
            and edit.index is not None
            and edit.index < len(new.rounds)
            else None
        )
        if merged.outcome == "duplicate" and theirs is not None:
            title = _("Already saved")
            lines.append(
                _("{who} saved the same round as round {n} {when}: {scores}.").format(
                    who=who(last),
                    n=(j or 0) + 1,
                    when=ago(step.time if step else None),
                    scores=scores_text(current, theirs.scores),
                )
            )
            lines.append(_("Yours was not added a second time."))
        else:
            title = _("Not saved: changed on another screen")
            lines.append(
                _("{who} {did} {when}.").format(
                    who=who(last), did=describe_last(current), when=ago(step.time if step else None)
                )
            )
            if theirs is not None and edit.action in ("replace", "delete"):
                lines.append(
                    _("Round {n} now: {scores}").format(
                        n=(j or 0) + 1, scores=scores_text(current, theirs.scores)
                    )
                )
            if mine_round is not None:
                lines.append(
                    _("Yours: {scores}").format(scores=scores_text(new, mine_round.scores))
                )
            lines.append(_("Nothing was overwritten. What now?"))
        self.text = "\n".join(lines)
        finished = games.standings(current).finished
        self.buttons: dict[str, ft.Control] = {}
        if edit.action == "replace" and theirs is not None and j is not None:
            self._button("show", _("Show round {n} as it is now").format(n=j + 1), self.show)
            self._button("mine", _("Use mine for round {n}").format(n=j + 1), self.use_mine)
        if edit.entry is not None and not finished:
            self._button(
                "as_new",
                _("Add mine as another round")
                if merged.outcome == "duplicate"
                else _("Save mine as a new round"),
                self.as_new,
            )
        self._button(
            "discard",
            _("Keep theirs") if edit.action != "other" else _("Show the game as it is now"),
            self.discard,
            primary=True,
        )
        self.dialog = ft.AlertDialog(
            modal=True,
            title=ft.Text(title),
            content=ft.Column(
                [ft.Text(readable(line), size=15) for line in lines], tight=True, spacing=8
            ),
            actions=list(self.buttons.values()),
            actions_alignment=ft.MainAxisAlignment.END,
            data="conflict",
        )

    def _button(
        self, key: str, text: str, handler: Callable[[], None], primary: bool = False
    ) -> None:
        def click(_e: Any = None) -> None:
            handler()

        make = ft.FilledButton if primary else ft.TextButton
        self.buttons[key] = make(content=text, on_click=click, data=key)

    def open(self) -> None:
        """Show the dialog."""
        _CONFLICTS[self.app] = self
        self.app.open_dialog(self.dialog)

    @property
    def _sheet(self) -> str:
        return f"/game/{self.current.id}"

    def _latest(self) -> Game | None:
        try:
            return self.app.store.load_game(self.current.id)
        except StoreError as e:
            self.app.close_dialog()
            self.app.notify(describe(e), error=True)
            self.app.go("/")
            return None

    def discard(self) -> None:
        """Keep what is stored; show it."""
        self.app.close_dialog()
        self.app.go(self._sheet)

    def show(self) -> None:
        """Show their version of the round (to edit it again from there)."""
        j = self.merged.their_index or 0
        self.app.close_dialog()
        self.app.go(f"{self._sheet}/round/{j + 1}")

    def use_mine(self) -> None:
        """Enter my version of the round over theirs (asked for, so not silent)."""
        entry, j = self.merged.edit.entry, self.merged.their_index
        latest = self._latest()
        if latest is None or entry is None or j is None:
            return
        self.app.close_dialog()
        theirs = self.current.rounds[j]
        now = [i for i, r in enumerate(latest.rounds) if r == theirs]
        if len(now) == 1:
            self._apply(latest, lambda g: games.replace_round(g, now[0], entry))
        elif any(r.time == theirs.time for r in latest.rounds):
            # changed again meanwhile: ask again, about the newest version
            ConflictDialog(
                self.app, self.base, self.new, live.merge(self.base, self.new, latest), latest
            ).open()
        else:
            self.app.notify(_("That round is gone; nothing was changed."), error=True)
            self.app.go(self._sheet)

    def as_new(self) -> None:
        """Add my entry as a new round at the end."""
        entry = self.merged.edit.entry
        latest = self._latest()
        if latest is None or entry is None:
            return
        self.app.close_dialog()
        self._apply(latest, lambda g: games.add_round(g, entry))

    def _apply(self, latest: Game, change: Callable[[Game], Game]) -> None:
        try:
            new = change(latest)
        except games.GameError as e:
            self.app.notify(describe(e, latest.variant), error=True)
            self.app.go(self._sheet)
            return
        stored = save_game(self.app, new, latest.version, base=latest)
        if stored is not None:
            step = games.last_change(stored)
            n = step.index + 1 if step is not None else len(stored.rounds)
            self.app.notify(_("Round {n} saved").format(n=n))
        self.app.go(self._sheet)


# -- screens -------------------------------------------------------------------------------------
def share_button(app: App, game_id: str | None = None) -> ft.Control | None:
    """The top-bar button: "Share this table" (the host), "Join with a code" (a visitor who
    may not change the game), or None (a visitor who joined)."""
    query = f"?game={game_id}" if game_id else ""

    def share(_e: Any = None) -> None:
        app.go(f"/share{query}")

    def join(_e: Any = None) -> None:
        app.go(f"/join{query}")

    if is_host(app):
        return icon_button(ft.Icons.QR_CODE_2, _("Share this table"), share)
    if game_id is not None and can_edit(app, game_id):
        return None
    return icon_button(ft.Icons.KEY, _("Join with a code"), join)


def next_game_banner(app: App, game: Game) -> ft.Control | None:
    """On a finished game whose players started a new one ("Play again"): say so, with the
    way there (:func:`next_game`). None otherwise."""
    nxt = next_game(app, game)
    if nxt is None:
        return None

    def open_next(_e: Any = None) -> None:
        carry_join(app, game.id, nxt)
        app.go(f"/game/{nxt}")

    return card(
        ft.Column(
            [
                ft.Row(
                    [
                        ft.Icon(ft.Icons.REPLAY, color=MUTED),
                        ft.Text(_("The same players started a new game."), size=15, expand=True),
                    ]
                ),
                primary_button(_("Open the new game"), open_next, ft.Icons.ARROW_FORWARD),
            ],
            spacing=8,
        ),
        bgcolor=ft.Colors.PRIMARY_CONTAINER,
    )


def access_banner(app: App, game: Game) -> ft.Control | None:
    """On a game a visitor may only look at: say so, and offer the join code."""
    if can_edit(app, game.id):
        return None

    def join(_e: Any = None) -> None:
        app.go(f"/join?game={game.id}")

    return card(
        ft.Column(
            [
                ft.Row(
                    [
                        ft.Icon(ft.Icons.VISIBILITY, color=MUTED),
                        ft.Text(
                            _("You are watching. To keep score, enter the table's join code."),
                            size=15,
                            expand=True,
                        ),
                    ]
                ),
                secondary_button(_("Enter the join code"), join, ft.Icons.KEY),
            ],
            spacing=8,
        ),
        bgcolor=ft.Colors.PRIMARY_CONTAINER,
    )


def gate(app: App, route: str, parts: list[str]) -> Screen | None:
    """What a visitor sees instead of ``route`` (None: the route itself).

    A ``?code=`` in the address (the QR code) joins the game first; a game the visitor may
    not see, or a round entry it may not make, shows the join screen; ``/new`` is the host's.
    """
    ss = session_of(app)
    if ss is None or ss.is_host:
        return None
    if parts == ["new"]:
        return MessageScreen(app, route, _("Only the host's computer can start a game."))
    if len(parts) < 2 or parts[0] != "game":
        return None
    gid = parts[1]
    code = app.query.get("code")
    error = None
    if code and not ss.can_edit(gid):
        try:
            if ss.join(gid, code) is None:
                error = _("That join code is not right. Ask the host for the code on their screen.")
            else:
                remember_joins(app)
                drop_code(app, route)  # joined: the code leaves the address bar
        except AccessError as e:
            error = access_message(e)
        except StoreError:
            return None  # no such game: the router says so
    if error is not None or (_changing_route(parts) and not ss.can_edit(gid)):
        return JoinScreen(app, gid, then=route, error=error)
    try:
        visible = ss.can_view(gid)
    except StoreError:
        return None
    if not visible:
        return JoinScreen(app, gid, then=route)
    return None


def drop_code(app: App, route: str) -> None:
    """Show ``route`` (its other query fields kept) in the browser's address bar instead of
    the QR code's address with ``?code=``: once the phone has joined, the code need not stay
    on its screen (a later visit comes back with the join token). Flet can only push a
    route, so the QR code's address stays one entry back in the browser's history (Back
    shows it; the phone is joined, so it is not pushed again). The browser's route change
    shows the same screen again."""
    page = app.page
    if page is None:
        return
    rest = {k: v for k, v in app.query.items() if k != "code"}
    target = route + (f"?{urlencode(rest)}" if rest else "")
    app.query = rest

    async def push() -> None:
        with contextlib.suppress(Exception):  # the phone left meanwhile
            await page.push_route(target)

    with contextlib.suppress(Exception):
        page.run_task(push)


def too_many(e: AccessError) -> str:
    """The message for too many wrong codes."""
    wait = max(1, int(e.wait + 0.999))
    return ngettext(
        "Too many wrong codes. Try again in {n} second.",
        "Too many wrong codes. Try again in {n} seconds.",
        wait,
    ).format(n=wait)


class JoinScreen:
    """``/join`` (``?game=<id>``): a visitor gives the table's join code (and a name the
    others see when this phone saves) and may then keep score in that game.

    Without ``?game=`` the code is looked up among the unfinished games, then the games
    that ended last (:func:`app.live.lookup_order`): an ended game's code opens it to look at.

    Attributes (for tests): ``code``, ``name`` (text fields), ``join_button``, ``error``.
    """

    def __init__(
        self,
        app: App,
        game_id: str | None = None,
        then: str | None = None,
        error: str | None = None,
    ) -> None:
        self.app = app
        self.game_id = game_id if game_id is not None else app.query.get("game")
        self.then = then
        self.code = ft.TextField(
            label=_("Join code"),
            hint_text=_("8 letters and digits"),
            capitalization=ft.TextCapitalization.CHARACTERS,
            max_length=16,
            counter="",
            on_submit=self.join,
            text_size=24,
        )
        self.name = ft.TextField(
            label=_("Your name (optional)"),
            hint_text=_("shown to the others when you save"),
            max_length=40,
            counter="",
            on_submit=self.join,
            capitalization=ft.TextCapitalization.WORDS,
        )
        self.error = error_box()
        show_error(self.error, error)
        self.join_button = primary_button(_("Join"), self.join, ft.Icons.LOGIN)
        intro = _(
            "The host's screen shows the table's join code (Share this table). With it, this "
            "phone can enter and edit rounds of that game."
        )
        controls: list[ft.Control] = [
            ft.Text(intro, size=16),
            self.code,
            self.name,
            self.error,
            self.join_button,
        ]
        back = f"/game/{self.game_id}" if self.game_id else "/"
        ss = session_of(app)
        if ss is not None and ss.is_host:
            controls = [ft.Text(_("This is the host's computer: it can change every game."))]
        elif ss is not None and self.game_id and not ss.can_view(self.game_id):
            back = "/"
        self.view = frame(app, "/join", _("Join a table"), controls, back=back)

    def join(self, _e: Any = None) -> None:
        """Check the code; on success open the game (or the page asked for)."""
        ss = session_of(self.app)
        code = live.normalize_code(self.code.value)
        if ss is None or ss.is_host:
            self.app.go(self.then or (f"/game/{self.game_id}" if self.game_id else "/"))
            return
        if len(code) != live.CODE_LENGTH:
            show_error(self.error, _("The join code has 8 letters and digits."))
            return
        try:
            gid = ss.join(self.game_id, code, self.name.value or "")
        except AccessError as e:
            show_error(self.error, access_message(e))
            return
        except StoreError:
            gid = None
        if gid is None:
            show_error(
                self.error,
                _("That join code is not right. Ask the host for the code on their screen."),
            )
            return
        show_error(self.error, None)
        remember_joins(self.app)
        if self.game_id is None and _ended(ss, gid):
            self.app.notify(
                _("That game has ended. You can see its scores, or start one more round.")
            )
            self.app.go(f"/game/{gid}")
            return
        self.app.notify(_("Joined: you can keep score in this game."))
        self.app.go(self.then or f"/game/{gid}")


def _ended(ss: SessionStore, game_id: str) -> bool:
    """Has the game ended (a code typed without a game may open an ended one)?"""
    try:
        return games.standings(ss.load_game(game_id)).finished
    except (AccessError, StoreError):
        return False


QR_SIZE = 240
"""Side of the share screen's QR code, logical pixels."""


def qr_matrix(text: str, border: int = 3) -> list[list[bool]]:
    """The QR code of ``text`` as rows of modules (``True`` = dark), quiet zone included.

    Error correction M, the smallest version that fits, ``border`` light modules around it.
    """
    import qrcode

    qr = qrcode.QRCode(border=border, error_correction=qrcode.constants.ERROR_CORRECT_M)
    qr.add_data(text)
    qr.make(fit=True)
    return [[bool(dark) for dark in row] for row in qr.get_matrix()]


def qr_canvas(text: str, size: int = QR_SIZE) -> cv.Canvas:
    """A ``size`` x ``size`` canvas drawing the QR code of ``text``, dark on white.

    Drawn as rectangles, not as an image: the web client cannot decode images outside a secure
    context (a phone opening ``http://<LAN address>``), where an image would stay blank. Each
    row's horizontal run of dark modules is one rectangle; a module is a whole number of
    pixels (the largest that fits), the code centred, the rest quiet zone on white.
    """
    matrix = qr_matrix(text)
    n = len(matrix)
    scale = max(1, size // n)
    offset = (size - n * scale) // 2
    paint = ft.Paint(color=ft.Colors.BLACK, anti_alias=False)
    shapes: list[cv.Shape] = [
        cv.Rect(0, 0, size, size, paint=ft.Paint(color=ft.Colors.WHITE, anti_alias=False))
    ]
    for y, row in enumerate(matrix):
        x = 0
        while x < n:
            if not row[x]:
                x += 1
                continue
            start = x
            while x < n and row[x]:
                x += 1
            shapes.append(
                cv.Rect(
                    offset + start * scale,
                    offset + y * scale,
                    (x - start) * scale,
                    scale,
                    paint=paint,
                )
            )
    return cv.Canvas(shapes=shapes, width=size, height=size)


class ShareScreen:
    """``/share`` (``?game=<id>``): the host's sharing page.

    Shows whether phones can reach the app at all, what visitors without a code may do
    (``visitors`` chips: see the games / see nothing), and for the game its join code as
    text and as a QR code of the game's address with the code (``code_text``, ``qr``,
    ``url``), with a button for a new code. On another device it shows the join form.
    """

    def __init__(self, app: App) -> None:
        self.app = app
        self.game_id = app.query.get("game")
        ss = session_of(app)
        if ss is not None and not ss.is_host:
            join = JoinScreen(app, self.game_id)
            self.view = join.view
            self.join = join
            return
        self.code_text: ft.Text | None = None
        self.qr: cv.Canvas | None = None
        self.url: str | None = None
        controls: list[ft.Control] = []
        server = live.SERVER
        if not server.shared:
            controls.append(
                card(
                    ft.Column(
                        [
                            ft.Text(
                                _("Phones cannot reach the app now"),
                                size=16,
                                weight=ft.FontWeight.BOLD,
                            ),
                            ft.Text(
                                _(
                                    "It listens on this computer only. To share the table on "
                                    "the Wi-Fi, start it with: ./run.sh --host 0.0.0.0"
                                ),
                                size=15,
                                selectable=True,
                            ),
                        ],
                        spacing=4,
                    ),
                    bgcolor=ft.Colors.with_opacity(0.3, ft.Colors.AMBER),
                )
            )
        game: Game | None = None
        if self.game_id:
            try:
                game = app.store.load_game(self.game_id)
            except StoreError:
                game = None
        if game is not None:
            controls += self._game_part(game)
        else:
            controls += self._pick_game()
        controls.append(heading(_("Visitors without the code can")))
        mode = ss.access.visitors() if ss is not None else live.VIEW
        self.visitors = ChoiceChips(
            [(live.VIEW, _("Watch every game")), (live.NOTHING, _("See nothing"))],
            mode,
            on_change=self._visitors_changed,
        )
        controls.append(self.visitors.control)
        controls.append(
            muted(
                _(
                    "Only this computer and phones with a game's join code can change that "
                    "game. Starting and deleting games is for this computer only."
                )
            )
        )
        back = f"/game/{self.game_id}" if game is not None else "/"
        self.view = frame(app, "/share", _("Share this table"), controls, back=back)

    def _base_url(self) -> str:
        server = live.SERVER
        host = server.host
        if host in ("0.0.0.0", "::", ""):
            host = lan_address() or "127.0.0.1"
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{server.port}"

    def _game_part(self, game: Game) -> list[ft.Control]:
        ss = session_of(self.app)
        code = ss.join_code(game.id) if ss is not None else (game.join_code or "")
        self.url = f"{self._base_url()}/game/{game.id}?code={code}"
        self.code_text = ft.Text(
            group_code(code),
            size=44,
            weight=ft.FontWeight.BOLD,
            style=ft.TextStyle(letter_spacing=4),
            selectable=True,
        )
        self.qr = qr_canvas(self.url)
        return [
            heading(game_title(games.summarize(game))),
            ft.Text(_("Join code"), size=15, color=MUTED),
            ft.Semantics(
                label=_("Join code: {code}").format(code=" ".join(code)),
                content=self.code_text,
            ),
            muted(
                _(
                    "Phones scan the code below, or open the address and type the join code. "
                    "Without it they can only watch."
                ),
                size=14,
            ),
            ft.Row(
                [ft.Semantics(label=_("QR code of the game's address"), content=self.qr)],
                alignment=ft.MainAxisAlignment.CENTER,
            ),
            ft.Text(self.url.split("?")[0], size=13, color=MUTED, selectable=True),
            secondary_button(_("New join code"), self._new_code, ft.Icons.REFRESH),
        ]

    def _pick_game(self) -> list[ft.Control]:
        summaries = [s for s in self.app.store.list_games() if not s.finished]
        if not summaries:
            return [muted(_("Start a game to get its join code."), size=15)]
        out: list[ft.Control] = [heading(_("Which game?"))]
        for s in summaries[:10]:

            def pick(_e: Any = None, gid: str = s.id) -> None:
                self.app.go(f"/share?game={gid}")

            out.append(secondary_button(game_title(s), pick, ft.Icons.QR_CODE_2))
        return out

    def _visitors_changed(self, mode: str | None) -> None:
        ss = session_of(self.app)
        if mode is None or ss is None:
            return
        try:
            ss.set_visitors(mode)
        except StoreError as e:
            self.app.notify(describe(e), error=True)
            return
        self.app.notify(
            _("Visitors can now watch every game.")
            if mode == live.VIEW
            else _("Visitors now see only games they joined with the code.")
        )

    def _new_code(self, _e: Any = None) -> None:
        def really() -> None:
            ss = session_of(self.app)
            if ss is None or self.game_id is None:
                return
            try:
                ss.new_join_code(self.game_id)
            except StoreError as e:
                self.app.notify(describe(e), error=True)
                return
            _refresh(self.app)

        self.app.confirm(
            _("Make a new join code?"),
            _(
                "Phones that joined with the old code can then only watch, until they enter "
                "the new one."
            ),
            _("New code"),
            really,
            danger=False,
        )


def access_message(e: AccessError) -> str:
    """What a refused write tells the person."""
    if e.reason == "host_only":
        return _("Only the host's computer can do that.")
    if e.reason == "too_many_tries":
        return too_many(e)
    if e.reason == "bad_name":
        if e.detail == "reserved":
            return _("That name is what the app calls the host or a phone. Choose another one.")
        if e.detail == "taken":
            return _("Another phone at this table already uses that name. Choose another one.")
        if e.detail == "invisible":
            return _("That name has an invisible character. Choose another one.")
        if e.detail == "marks":
            return _("That name has too many accents on one letter. Choose another one.")
        if e.detail == "blank":
            return _("That name has no letter or digit that can be seen. Choose another one.")
        if e.detail == "long":
            return _("That name is too long (at most 40 letters). Choose another one.")
        return _("That name has a character that cannot be shown. Choose another one.")
    return _("This phone can only watch this game: enter the table's join code to keep score.")


__all__ = [
    "ConflictDialog",
    "JoinScreen",
    "ShareScreen",
    "access_banner",
    "access_for",
    "access_message",
    "attach",
    "can_edit",
    "gate",
    "is_host",
    "on_change",
    "open_conflict",
    "rebase_note",
    "save",
    "session_of",
    "session_store",
    "remember_joins",
    "share_button",
]
