"""The session boundary: what a browser may send to the server, and who it is.

Flet 1.0.5 trusts its web client: it applies a client's ``UPDATE_CONTROL_PROPS`` to any
declared field of any control (``page.client_ip`` included), walks the whole control tree for
an event sent to an unknown control id, keeps a disconnected session an hour and sends Python
tracebacks to the client (``/work/shared/FLET_NOTES.md``). :func:`install` (called by
``python -m app`` before the server starts) replaces Flet's per-connection class with
:class:`GuardedConnection`, which sits between the WebSocket and Flet's session:

- **Who it is** comes from the server side only: the peer address of the WebSocket (the ASGI
  scope, read before any client message; uvicorn replaces it with ``X-Forwarded-For`` only for
  connections from ``127.0.0.1``, its ``forwarded_allow_ips``, pinned here), kept as a
  :class:`Peer` for the session (:func:`peer_of`); loopback counts as this computer only
  under an address or the computer's own name (:func:`host_name_trusted`: DNS rebinding).
  ``app.main`` adds the host key (:func:`mark_host`). No page field the client sends is used
  for rights.
- **Property updates** are taken only for input controls and only the fields a person changes
  (:data:`INPUT_PROPS`: a text field's ``value`` and ``selection``, a switch's ``value``, a
  chip's ``selected`` …) with a type and size check (a text field's ``max_length``, else
  :data:`TEXT_MAX`); a dialog may only be closed. Everything else — page fields included — is
  dropped. The page fields of the first message (``REGISTER_CLIENT``) are filtered the same
  way (:data:`REGISTER_PAGE_FIELDS`; never ``client_ip``), the route capped at
  :data:`ROUTE_MAX`.
- **Events** go only to a control id the session's index holds (one dictionary look-up, no
  tree walk), only to a handler the control has (a page event without one, such as the
  resize a browser sends freely, is dropped before Flet re-draws the page for it) and only
  to a control a person could reach (:func:`usable`: not hidden, not disabled, not in a
  closed dialog; nor typed values for one, or for a read-only field);
  ``connect``/``disconnect``/``close`` are the server's own and are refused from a client.
  A visitor's handlers are charged the time they hold the loop (:class:`Blocking`) to its
  address's budget and to a pool, the players' (a session whose join the server verified:
  :func:`mark_joined`) or the watchers' (:func:`visitor_budgets`); waiting handlers are let
  in first come first served, one per address at a time in a pool's line (:func:`admit`),
  and a player's step goes before a watcher's (:func:`visitors_turn`).
- **Limits** per connection (:class:`Limits`): frame size, frames and bytes per second
  (token buckets), wrong messages (a bucket too: a few dropped fields do not add up over an
  evening); a bigger message only as the answer to a pending photo picker
  (:data:`PHOTO_METHODS`, a few a minute); one ``REGISTER_CLIENT`` per connection; at most
  :data:`MAX_TASKS` handlers running for a visitor (the host's own phone has no such cap; a
  text field's change waiting to run is not queued again: it reads the newest value when it
  runs). A connection over a limit is closed (WebSocket code
  1008) and its socket with it (nothing more of the flood is read), its session deleted, and
  a visitor's address refused for :data:`BAN_SECONDS`. A visitor's socket is read
  :data:`READ_CHUNK` bytes at a time, so a burst of tiny frames is parsed a few at a time.
  Per address: at most :data:`MAX_SESSIONS_PER_ADDRESS` sessions and
  :data:`MAX_CONNECTIONS_PER_ADDRESS` open connections (this computer is not limited, nor a
  connection showing the host pass: the key URL's cookie, :class:`HostKeyCookie`, checked
  before any limit of the address). A re-attach to a session that lost its connection is
  counted per address (:func:`reattach_ok`) and its work charged as a handler's.
  A visitor's session is kept :data:`VISITOR_TIMEOUT` seconds after it disconnects
  (the host's :data:`HOST_TIMEOUT`).
- **No traceback** reaches a client: ``SESSION_CRASHED`` carries a plain sentence; the
  traceback stays in the server's log (masked by :func:`app.log_hygiene.install_log_hygiene`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import gc
import logging
import math
import os
import re
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Generator
from dataclasses import dataclass, field
from typing import Any, Final

import rules.checks
import rules.variants
from app import guard_names, i18n, live

log = logging.getLogger("app.guard")

# -- limits ---------------------------------------------------------------------------------------
VISITOR_FRAME_MAX: Final = 64 * 1024
"""Bytes in one WebSocket message from a visitor (a typed value is a few hundred)."""
HOST_FRAME_MAX: Final = 8 * 1024 * 1024
"""Bytes in one message from the host (a pasted game export); also uvicorn's ``ws_max_size``,
so a bigger message is refused before it is read whole."""
PHOTO_METHODS: Final = frozenset({"pick_files"})
"""Client calls whose answer may be big (a photo picked ``with_data``): while one is pending, a
visitor may send :data:`BIG_FRAMES_PER_MINUTE` messages up to :data:`HOST_FRAME_MAX`."""
BIG_FRAMES_PER_MINUTE: Final = 3
BIG_BYTES_PER_ADDRESS: Final = BIG_FRAMES_PER_MINUTE * HOST_FRAME_MAX
"""Bytes of big messages one visitor address may send a minute over all its connections
(refilled evenly, burst the same): 16 connections do not make 48 photos."""
BIG_REFUSED_PER_MINUTE: Final = 3 * BIG_FRAMES_PER_MINUTE
"""Big messages over those caps one visitor address may send a minute: each is dropped and the
photo picker told :data:`TOO_MANY_PHOTOS` (a player taking a fourth photo is not banned); past
this many, the connection is closed and the address banned (:class:`Flood`)."""
TOO_MANY_PHOTOS: Final = "guard: too many photos in a minute"
"""The error a refused photo's picker call gets (``app/ui/camera/photo.py`` tells the phone)."""
BIG_REST_MAX: Final = 64 * 1024
"""Bytes of a big message outside its one big ``bin``/``str`` object (the photo or the picked
file): the rest of a picker's answer (ids, the file's name) is small (:func:`unpack_big`)."""
BIG_CANDIDATES: Final = 4
"""Headers :func:`unpack_big` tries before refusing a big message."""
ROUTE_MAX: Final = 512
"""Characters in a route (``/game/<32 hex>/round/12/edit?code=…`` is about 70)."""
TEXT_MAX: Final = 2_000
"""Characters of a visitor's text field without its own ``max_length``."""
HOST_TEXT_MAX: Final = 4_000_000
"""Characters of the host's text field without its own ``max_length`` (a pasted export)."""
MAX_TASKS: Final = 32
"""Event handlers of one visitor's connection running or waiting at once."""
MAX_SESSIONS_PER_ADDRESS: Final = 12
MAX_CONNECTIONS_PER_ADDRESS: Final = 16
BAN_SECONDS: Final = 60.0
VISITOR_TIMEOUT: Final = int(os.environ.get("RUMMY_REFEREE_VISITOR_TIMEOUT") or 120)
"""Seconds a disconnected visitor's session is kept (a phone whose screen went dark; it comes
back in a new session with its join tokens). ``RUMMY_REFEREE_VISITOR_TIMEOUT`` for tests."""
HOST_TIMEOUT: Final = 3600
VISITOR_CPU_RATE: Final = 0.2
"""Seconds of the event loop's time one visitor address may use per second in its handlers
(building screens: the rule book takes ~150 ms); its burst is :data:`VISITOR_CPU_BURST`. A
player's and a watcher's sessions at one address share it (an IPv6 address counts by its
/64)."""
VISITOR_CPU_BURST: Final = 1.5
ALL_VISITORS_CPU_RATE: Final = 0.4
"""Seconds of loop time per second for every watcher together (visitors that have not joined a
game with its code; many addresses), burst :data:`ALL_VISITORS_CPU_BURST`."""
ALL_VISITORS_CPU_BURST: Final = 1.0
ALL_PLAYERS_CPU_RATE: Final = 0.3
"""Seconds of loop time per second for every player together (a session whose join the server
verified: :func:`mark_joined`), burst :data:`ALL_PLAYERS_CPU_BURST`: a pool of its own, so
watchers cannot use up the players' share; each player's address still has its
:data:`VISITOR_CPU_RATE`, so one joined phone cannot use up the others'. The host is not
budgeted (its handlers go first: :func:`visitors_turn`)."""
ALL_PLAYERS_CPU_BURST: Final = 1.5
GUESS_SECONDS: Final = 0.02
"""A handler's loop time reserved from its budgets when it is let in, before its first
measurement (:attr:`LoopBudget.guess` follows what the group's handlers take)."""
REATTACH_PER_SESSION: Final = 0.5
"""Re-attaches one session may make per second (:func:`reattach_ok`), burst
:data:`REATTACH_SESSION_BURST`: the web client retries after 0.5, 1, 2, 4 … s, so a phone coming
back re-attaches a few times at most."""
REATTACH_SESSION_BURST: Final = 4.0
REATTACH_REFUSED: Final = 30
CLOSE_POLICY: Final = 1008
SERVER_EVENTS: Final = frozenset({"connect", "disconnect", "close"})
PAGE_EVENTS: Final = frozenset(
    {
        "route_change",
        "view_pop",
        "app_lifecycle_state_change",
        "platform_brightness_change",
        "locale_change",
        "media_change",
        "resize",
        "keyboard_event",
    }
)
REGISTER_PAGE_FIELDS: Final[dict[str, Any]] = {
    "route": str,
    "width": (int, float),
    "height": (int, float),
    "media": dict,
    "window": dict,
    "platform": str,
    "platform_brightness": str,
    "pwa": bool,
    "web": bool,
    "debug": bool,
    "test": bool,
    "wasm": bool,
    "pyodide": bool,
    "multi_view": bool,
}
"""Page fields the client may give when it registers (what Flutter reports about the screen).
``client_ip``, ``client_user_agent`` and the rest are the server's."""


@dataclass
class Limits:
    """One connection's budget.

    Attributes:
        frame_max: bytes per message.
        rate: messages per second (refill) and ``burst`` (bucket size).
        bytes_rate: bytes per second (refill) and ``bytes_burst``.
        strikes: wrong messages (bogus ids, refused fields) allowed in a burst before
            closing (one more is allowed every second).
        text_max: characters of a text field without its own ``max_length``.
    """

    frame_max: int
    rate: float
    burst: float
    bytes_rate: float
    bytes_burst: float
    strikes: int
    text_max: int


VISITOR_LIMITS: Final = Limits(VISITOR_FRAME_MAX, 50.0, 300.0, 128e3, 1e6, 100, TEXT_MAX)
HOST_LIMITS: Final = Limits(HOST_FRAME_MAX, 500.0, 3000.0, 8e6, 32e6, 2000, HOST_TEXT_MAX)


class Flood(Exception):
    """The connection went over a limit: close it (and refuse its address a while)."""


class Refused(Exception):
    """The connection may not go on (too many sessions from its address): close it."""


@dataclass
class Bucket:
    """A token bucket (``take`` fails when empty)."""

    rate: float
    size: float
    level: float = math.inf
    at: float = field(default_factory=time.monotonic)

    def take(self, n: float, now: float) -> bool:
        self.level = min(self.size, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level < n:
            return False
        self.level -= n
        return True


_clock: Callable[[], float] = time.monotonic
"""The loop budgets' clock (seconds; tests stop it to count charges exactly)."""
_sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
"""How a handler first in line for a budget waits for it (tests move :data:`_clock` on)."""


@dataclass
class LoopBudget:
    """Loop time a group of sessions may use: spent after the fact, waited for in line before.

    ``level`` goes negative when handlers took more than was left; the next handler of the
    group waits (:func:`admit`) until it is positive again, so an expensive but well-formed
    stream of events (route changes to a big screen) slows only its group. Handlers waiting
    are let in one at a time in the order they came (:attr:`line`), each reserving
    :attr:`guess` seconds when let in (settled against what it took, :func:`settle`): a
    refill is not taken by all the waiting handlers at once."""

    rate: float
    size: float
    level: float = 0.0
    at: float = field(default_factory=lambda: _clock())
    guess: float = GUESS_SECONDS
    """Loop time one handler of the group took lately (a moving average, seconds)."""
    line: collections.deque[asyncio.Future[None]] = field(default_factory=collections.deque)
    """Handlers waiting for this budget, first come first; the first's future is done."""

    def __post_init__(self) -> None:
        self.level = self.size

    def wait(self, now: float) -> float:
        """Seconds to wait before the next handler may run (0: now)."""
        self.level = min(self.size, self.level + (now - self.at) * self.rate)
        self.at = now
        return 0.0 if self.level > 0 else -self.level / self.rate + 0.005

    def spend(self, seconds: float) -> None:
        self.level -= seconds

    def learn(self, seconds: float) -> None:
        """One handler of the group took ``seconds``: the next ones reserve about that."""
        self.guess = max(0.001, min(self.size, 0.7 * self.guess + 0.3 * seconds))


_ADDRESS_BUDGETS: dict[str, LoopBudget] = {}
_ALL_VISITORS = LoopBudget(ALL_VISITORS_CPU_RATE, ALL_VISITORS_CPU_BURST)
"""The watchers' pool."""
_ALL_PLAYERS = LoopBudget(ALL_PLAYERS_CPU_RATE, ALL_PLAYERS_CPU_BURST)
"""The players' pool."""


def visitor_budgets(ip: str, player: bool = False) -> list[LoopBudget]:
    """The budgets a visitor's handler is charged to: its address's (an IPv6 address by its
    /64) and the watchers' pool, or the players' for a ``player`` (a session whose join the
    server verified, :attr:`Peer.joined`)."""
    if len(_ADDRESS_BUDGETS) > 4096:  # forget the full ones (bounded memory)
        now = _clock()
        for k in [
            k
            for k, b in _ADDRESS_BUDGETS.items()
            if not b.line and b.wait(now) == 0 and b.level >= b.size
        ]:
            _ADDRESS_BUDGETS.pop(k, None)
    key = live.address_key(ip)
    budget = _ADDRESS_BUDGETS.get(key)
    if budget is None:
        budget = _ADDRESS_BUDGETS[key] = LoopBudget(VISITOR_CPU_RATE, VISITOR_CPU_BURST)
    return [budget, _ALL_PLAYERS if player else _ALL_VISITORS]


def peer_budgets(peer: Peer | None) -> list[LoopBudget]:
    """The budgets of a session's handlers: none for the host or an unknown peer (a logic
    test's page), else :func:`visitor_budgets` of its address and rank."""
    if peer is None or peer.host:
        return []
    return visitor_budgets(peer.ip, peer.player())


Reserved = list[tuple[LoopBudget, float]]
"""What :func:`admit` reserved from each budget (settled by :func:`settle`)."""


async def admit(
    budgets: list[LoopBudget], gone: Callable[[], bool] = lambda: False
) -> Reserved | None:
    """Wait in line for each of ``budgets`` in turn (first come first served) until it has
    loop time left, and reserve its :attr:`LoopBudget.guess` there. The place in each line is
    kept until the last budget let the handler in: the next handler of the same address
    waits behind it, so the line of a pool holds one handler per address at most (one
    address with many sessions does not fill it). None when ``gone()`` turned true while
    waiting (nothing reserved)."""
    loop = asyncio.get_running_loop()
    reserved: Reserved = []
    places: list[tuple[LoopBudget, asyncio.Future[None]]] = []
    try:
        for b in budgets:
            place: asyncio.Future[None] = loop.create_future()
            b.line.append(place)
            places.append((b, place))
            if b.line[0] is place:
                place.set_result(None)
            while True:
                if place.done():  # first in line: wait for the budget itself
                    delay = b.wait(_clock())
                    if delay <= 0:
                        break
                    await _sleep(min(delay, 0.5))
                else:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(asyncio.shield(place), 0.5)
                if gone():
                    settle(reserved, None)
                    return None
            b.spend(b.guess)
            reserved.append((b, b.guess))
        return reserved
    except BaseException:
        settle(reserved, None)
        raise
    finally:
        for b, place in places:
            with contextlib.suppress(ValueError):
                b.line.remove(place)
            if b.line and not b.line[0].done():
                b.line[0].set_result(None)  # the next in line


def settle(reserved: Reserved, spent: float | None) -> None:
    """Charge ``spent`` seconds of loop time to the budgets :func:`admit` reserved from (the
    reservation given back first); None: nothing ran, the reservation is given back."""
    for b, guess in reserved:
        b.spend(-guess)
        if spent is not None:
            b.spend(spent)
            b.learn(spent)


class _Turn:
    """The visitors' turn on one loop: one holder; the next is the first waiting player's
    step, else the first waiting watcher's (:func:`visitors_turn`)."""

    def __init__(self) -> None:
        self.held = False
        self.lines: tuple[collections.deque[asyncio.Future[None]], ...] = (
            collections.deque(),
            collections.deque(),
        )

    async def acquire(self, rank: int) -> None:
        if not self.held and not any(self.lines):
            self.held = True
            return
        place: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        line = self.lines[min(max(rank, 0), len(self.lines) - 1)]
        line.append(place)
        try:
            await place
        except BaseException:
            if place.done() and not place.cancelled():
                self.release()  # handed the turn as it was cancelled: hand it on
            else:
                with contextlib.suppress(ValueError):
                    line.remove(place)
            raise

    def release(self) -> None:
        for line in self.lines:
            while line:
                place = line.popleft()
                if not place.done():
                    place.set_result(None)  # handed on: still held
                    return
        self.held = False


_TURNS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Turn] = weakref.WeakKeyDictionary()


async def visitors_turn(rank: int = 1) -> None:
    """Wait for the visitors' turn on the loop: one synchronous step of one visitor's handler
    (or session start) at a time, and none again before the loop has polled its sockets
    (:func:`_end_turn` gives the turn back on the loop's next round). The host's messages are
    read and handled between any two visitors' steps, however many visitors are waiting, and
    go first; then a player's step (``rank`` 0: a session whose join the server verified)
    before any watcher's (``rank`` 1), each rank first come first served."""
    loop = asyncio.get_running_loop()
    turn = _TURNS.get(loop)
    if turn is None:
        turn = _TURNS[loop] = _Turn()
    await turn.acquire(rank)
    hosts = _HOSTS.get(loop)
    try:
        while hosts is not None and hosts.busy:  # the host's message first
            await hosts.idle.wait()
    except BaseException:
        turn.release()
        raise


class _HostsBusy:
    """The host's handlers running on a loop (visitors' steps wait for them to end)."""

    def __init__(self) -> None:
        self.busy = 0
        self.idle = asyncio.Event()

    def enter(self) -> None:
        self.busy += 1
        self.idle.clear()

    def leave(self) -> None:
        self.busy -= 1
        if self.busy <= 0:
            self.busy = 0
            self.idle.set()


_HOSTS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _HostsBusy] = (
    weakref.WeakKeyDictionary()
)
HOST_GRACE: Final = 0.05
"""Seconds visitors' steps still wait after a host's handler ended (its screen update is
being sent)."""
HOST_FIRST_SECONDS: Final = 0.5
"""At most this long after a host's handler started visitors' steps wait for it (a handler
that awaits something long, a photo read, does not stop the phones)."""


def _hosts() -> _HostsBusy:
    loop = asyncio.get_running_loop()
    hosts = _HOSTS.get(loop)
    if hosts is None:
        hosts = _HOSTS[loop] = _HostsBusy()
    return hosts


def _end_turn() -> None:
    loop = asyncio.get_running_loop()
    turn = _TURNS.get(loop)
    if turn is not None and turn.held:
        loop.call_soon(turn.release)  # after this round: the sockets are polled first


@contextlib.asynccontextmanager
async def visitor_start(page: Any) -> AsyncIterator[None]:
    """Around a visitor's session start (building its first screen): wait for its loop
    budgets and the visitors' turn, then charge the time it held the loop. The host's
    sessions start at once."""
    session = _page_session(page)
    peer = _PEERS.get(session) if session is not None else None
    if peer is None or peer.host:
        yield
        return
    reserved = await admit(peer_budgets(peer), lambda: getattr(session, "connection", True) is None)
    if reserved is None:  # the phone left while it waited: its start ends at once
        yield
        return
    await visitors_turn(rank_of(peer))
    started = time.perf_counter()
    try:
        yield
    finally:
        _end_turn()
        settle(reserved, time.perf_counter() - started)


class Blocking:
    """Await ``coro`` and add up the wall-clock time of its synchronous steps
    (:attr:`blocked`, seconds): how long it held the event loop, which is what the other
    sessions wait for. Time it spends awaiting (a client's answer, a sleep) is not counted,
    so a visitor that answers slowly cannot spend the visitors' loop budget; preemption of
    the process by a busy machine is counted (the loop is held all the same), which CPU
    time would not show.
    """

    def __init__(
        self,
        coro: Coroutine[Any, Any, Any],
        turn: bool = False,
        ready: Callable[[], bool] | None = None,
        rank: int = 1,
    ) -> None:
        self.coro = coro
        self.rank = rank
        """The turn's rank (:func:`visitors_turn`: 0 a player, 1 a watcher)."""
        self.blocked = 0.0
        self.turn = turn
        """Take the visitors' turn (:func:`visitors_turn`) for each synchronous step."""
        self.ready = ready
        """Asked once the first step's turn is granted: False drops the coroutine unstarted
        (:attr:`dropped`; its session left, its control left the page, while it waited)."""
        self.dropped = False

    def __await__(self) -> Generator[Any, None, Any]:
        step = self.coro.__await__()
        value: Any = None
        error: BaseException | None = None
        first = True
        while True:
            held = False
            if self.turn:
                try:
                    yield from visitors_turn(self.rank).__await__()
                    held = True
                except BaseException as e:  # noqa: BLE001 - a cancel while waiting: handed on
                    error = error or e
            if first and error is None and self.ready is not None and not self.ready():
                if held:
                    _end_turn()
                self.coro.close()
                self.dropped = True
                return None
            first = False
            started = time.perf_counter()
            try:
                yielded = step.send(value) if error is None else step.throw(error)
            except StopIteration as done:
                self.blocked += time.perf_counter() - started
                return done.value
            except BaseException:
                self.blocked += time.perf_counter() - started
                raise
            finally:
                if held:
                    _end_turn()
            self.blocked += time.perf_counter() - started
            value, error = None, None
            try:
                value = yield yielded
            except BaseException as e:  # noqa: BLE001 - a cancel: handed to the coroutine
                error = e


# -- who it is ------------------------------------------------------------------------------------
@dataclass
class Peer:
    """The server's knowledge of a session's browser.

    Attributes:
        ip: the WebSocket's peer address from the ASGI scope ("" when unknown).
        loopback: the peer is this computer (see :func:`app.live.is_loopback`).
        host: the session has the host's rights (loopback, or the host key: :func:`mark_host`).
        joined: the session gave a game's join code (:func:`mark_joined`): its photos are
            read before watchers' (:func:`reader_of`).
    """

    ip: str
    loopback: bool
    host: bool
    joined: bool = False
    still: Callable[[], bool] | None = None
    """Does the join still hold (the code it gave is still the game's)? None: never asked."""

    def player(self) -> bool:
        """Is this a player now: joined, with a code that still holds (a phone whose code the
        host replaced is a watcher again, for the loop's pools and turns too)? ``still`` is
        asked each time (a cached code look-up)."""
        if not self.joined:
            return False
        still = self.still
        if still is None:
            return True
        try:
            return bool(still())
        except Exception:  # noqa: BLE001 - store unreadable: a watcher until it is back
            return False


_PEERS: weakref.WeakKeyDictionary[Any, Peer] = weakref.WeakKeyDictionary()
_SESSIONS: dict[str, weakref.WeakSet[Any]] = {}
_CONNECTIONS: dict[str, int] = {}
_BANNED: dict[str, float] = {}


def peer_of(page: Any) -> Peer | None:
    """The :class:`Peer` of the session ``page`` belongs to (None: not served by the guard,
    e.g. a logic test's page; treat as a visitor with no address)."""
    session = _page_session(page)
    return _PEERS.get(session) if session is not None else None


def _page_session(page: Any) -> Any:
    try:
        return page.session
    except Exception:  # noqa: BLE001 - not a Flet page
        return None


def mark_host(page: Any) -> None:
    """Give the session of ``page`` the host's limits (it showed the host key)."""
    session = _page_session(page)
    peer = _PEERS.get(session) if session is not None else None
    if peer is None:
        return
    peer.host = True
    conn = getattr(session, "connection", None)
    if isinstance(conn, GuardedConnection):
        conn.host_limits()


def mark_joined(page: Any, still: Callable[[], bool] | None = None) -> None:
    """The session of ``page`` joined a game with its code (it keeps score there); ``still``
    says whether a code it gave still holds (:meth:`Peer.player`)."""
    session = _page_session(page)
    peer = _PEERS.get(session) if session is not None else None
    if peer is not None:
        peer.joined = True
        if still is not None:
            peer.still = still


def rank_of(peer: Peer | None) -> int:
    """A visitor's rank for the visitors' turn (:func:`visitors_turn`): 0 for a session whose
    join the server verified (:attr:`Peer.joined`), 1 for a watcher."""
    return 0 if peer is not None and peer.player() else 1


def reader_of(session_id: object) -> tuple[str | None, int]:
    """Whose photo this is, for the photo reader's turns (``app.ui.camera.photo_worker``):
    ``(address, rank)`` of the served session with id ``session_id``, rank 0 for the host,
    1 for a phone that joined with a code, 2 for a watcher. ``(None, 0)`` for a session not
    served by the guard (an in-process test): no per-address limits."""
    if isinstance(session_id, str):
        for session, peer in list(_PEERS.items()):
            if getattr(session, "id", None) == session_id:
                if peer.host:
                    return None, 0
                return live.address_key(peer.ip), 1 if peer.player() else 2
    return None, 0


def _live_sessions(ip: str) -> int:
    held = _SESSIONS.get(ip)
    if not held:
        return 0
    return sum(
        1
        for s in held
        if not getattr(s, "_Session__closed", False) and not getattr(_PEERS.get(s), "host", False)
    )  # the host's sessions (loopback or the host key) are not limited


def _banned(ip: str, now: float) -> bool:
    ip = live.address_key(ip)
    until = _BANNED.get(ip)
    if until is None:
        return False
    if now >= until:
        _BANNED.pop(ip, None)
        return False
    return True


def _ban(ip: str) -> None:
    now = time.monotonic()
    for k in [k for k, v in _BANNED.items() if v <= now]:
        _BANNED.pop(k, None)
    _BANNED[live.address_key(ip)] = now + BAN_SECONDS  # IPv6: its /64


# -- field checks ---------------------------------------------------------------------------------
def _text_ok(control: Any, value: Any, limits: Limits) -> bool:
    if value is None:
        return True
    if not isinstance(value, str):
        return False
    ml = getattr(control, "max_length", None)
    cap = ml if isinstance(ml, int) and ml > 0 else limits.text_max
    return len(value) <= cap


def _selection_ok(_c: Any, value: Any, _l: Limits) -> bool:
    return value is None or (
        isinstance(value, dict)
        and len(value) <= 6
        and all(isinstance(v, (int, bool, str)) and len(str(v)) <= 16 for v in value.values())
    )


def _bool_ok(_c: Any, value: Any, _l: Limits) -> bool:
    return value is None or isinstance(value, bool)


def _choice_ok(_c: Any, value: Any, _l: Limits) -> bool:
    return value is None or (isinstance(value, str) and len(value) <= 200)


def _number_ok(_c: Any, value: Any, _l: Limits) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _closed_ok(_c: Any, value: Any, _l: Limits) -> bool:
    return value is False


def _dismissed_ok(_c: Any, value: Any, _l: Limits) -> bool:
    return value is True


def _dialog_closing(control: Any, props: dict[str, Any]) -> bool:
    """A dialog's own "closed"/"dismissed" report (taken also when the dialog is already
    closed on the server: the two may cross)."""
    from flet.controls.dialog_control import DialogControl

    return isinstance(control, DialogControl) and set(props) <= {"open", "_dismissed"}


def _input_props() -> list[tuple[type, dict[str, Any]]]:
    import flet as ft
    from flet.controls.dialog_control import DialogControl

    return [
        (ft.TextField, {"value": _text_ok, "selection": _selection_ok}),
        (ft.Switch, {"value": _bool_ok}),
        (ft.Checkbox, {"value": _bool_ok}),
        (ft.Chip, {"selected": _bool_ok}),
        (ft.RadioGroup, {"value": _choice_ok}),
        (ft.Dropdown, {"value": _choice_ok}),
        (ft.Slider, {"value": _number_ok}),
        (ft.ExpansionTile, {"expanded": _bool_ok}),
        (DialogControl, {"open": _closed_ok, "_dismissed": _dismissed_ok}),
    ]


INPUT_PROPS: list[tuple[type, dict[str, Any]]] = []
"""(control class, {field: check}) — what a client may set (filled by :func:`install`)."""


def allowed_props(control: Any) -> dict[str, Any] | None:
    """The fields a client may set on ``control`` and their checks (None: none)."""
    for cls, fields in INPUT_PROPS:
        if isinstance(control, cls):
            return fields
    return None


def usable(control: Any, page: Any = None) -> bool:
    """Could a person reach ``control`` on the screen? Not when it or a control around it is
    hidden (``visible`` False) or ``disabled``, or sits in a closed dialog; a read-only text
    field takes no typing either (:func:`_props`). Flutter sends nothing for such a control,
    so an event or value for one is a made-up message (a button hidden from visitors,
    clicked by its id). The walk goes up the parents (a screen is a few dozen deep; capped
    at 100)."""
    from flet.controls.dialog_control import DialogControl

    c = control
    for _ in range(100):
        if c is None or c is page:
            return True
        if getattr(c, "visible", True) is False or getattr(c, "disabled", False) is True:
            return False
        if c is not control and isinstance(c, DialogControl) and not getattr(c, "open", False):
            return False
        try:
            c = c.parent
        except Exception:  # noqa: BLE001 - a control whose parent is gone
            return False
    return False


def clean_route(route: Any) -> str:
    """A client's route as the app takes it: text starting with ``/``, at most
    :data:`ROUTE_MAX` characters, else ``/``."""
    if not isinstance(route, str) or len(route) > ROUTE_MAX or not route.startswith("/"):
        return "/"
    if any(ord(c) < 32 or ord(c) == 127 for c in route):
        return "/"
    return route


LOCALES_MAX: Final = 32
"""Locales taken from a ``locale_change`` event (a browser lists a handful)."""
LOCALE_FIELDS: Final = frozenset({"language_code", "country_code", "script_code"})


def clean_page_event(name: str, data: Any) -> dict[str, Any] | None:
    """The data of the page event ``name`` with only what the web client sends (None:
    malformed, the event is dropped): ``view_pop`` ``{"route": …}`` (a route as
    :func:`clean_route` keeps it), ``locale_change`` ``{"locales": [{"language_code": …,
    "country_code": …, "script_code": …}, …]}`` (at most :data:`LOCALES_MAX`, each field text
    of at most 35 characters or None; other fields dropped), ``resize`` ``{"width": …,
    "height": …}`` (numbers from 0 to 100,000). Other page events are returned as they came.
    (Before, a forged ``locale_change`` or ``view_pop`` made Flet's event parser fail in the
    handler's task: a traceback in the log per session.)"""
    if not isinstance(data, dict):
        return None
    if name == "view_pop":
        route = data.get("route")
        return {"route": route} if isinstance(route, str) and clean_route(route) == route else None
    if name == "locale_change":
        locales = data.get("locales")
        if not isinstance(locales, list) or len(locales) > LOCALES_MAX:
            return None
        kept = []
        for loc in locales:
            if not isinstance(loc, dict):
                return None
            one = {k: v for k, v in loc.items() if k in LOCALE_FIELDS}
            if not all(v is None or (isinstance(v, str) and len(v) <= 35) for v in one.values()):
                return None
            kept.append(one)
        return {"locales": kept}
    if name == "resize":
        size = [data.get("width"), data.get("height")]
        numbers = [
            float(v)
            for v in size
            if isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 100_000
        ]  # (NaN fails the comparison too)
        return {"width": numbers[0], "height": numbers[1]} if len(numbers) == 2 else None
    return data


_MALFORMED: Final = object()
""":func:`build_event`'s answer for data Flet's event parser cannot read."""


def build_event(control: Any, name: str, data: Any) -> Any:
    """The event object Flet would build for ``control``'s ``on_<name>`` from the client's
    ``data`` (None: a plain event, built by Flet itself; :data:`_MALFORMED`: the parser
    failed). Built before the handler's task, so that a forged event is dropped with one
    debug line instead of a traceback; the client's data cannot replace the event's
    ``control`` (Flet's own order lets it)."""
    from flet.controls.control_event import ControlEvent, get_event_field_type
    from flet.utils.from_dict import from_dict

    if not isinstance(data, dict):
        return None
    try:
        event_type = get_event_field_type(control, f"on_{name}")
        if event_type is None or event_type == ControlEvent:
            return None
        fields = {k: v for k, v in data.items() if k != "control"}
        return from_dict(event_type, {"control": control, "name": name, **fields})
    except Exception:  # noqa: BLE001 - whatever the parser makes of forged data
        return _MALFORMED


def clean_register(body: Any) -> dict[str, Any] | None:
    """A ``REGISTER_CLIENT`` body with only the fields allowed (None: malformed)."""
    if not isinstance(body, dict):
        return None
    sid = body.get("session_id") or ""
    name = body.get("page_name") or ""
    raw = body.get("page")
    page: dict[str, Any] = raw if isinstance(raw, dict) else {}
    if not isinstance(sid, str) or len(sid) > 64 or not isinstance(name, str) or len(name) > 64:
        return None
    kept: dict[str, Any] = {}
    for key, kind in REGISTER_PAGE_FIELDS.items():
        if (
            key in page
            and isinstance(page[key], kind)
            and not (kind is not bool and isinstance(page[key], bool))
        ):
            kept[key] = page[key]
    kept["route"] = clean_route(page.get("route", "/"))
    return {"session_id": sid, "page_name": name, "page": kept}


# -- big messages ---------------------------------------------------------------------------------
_BIG_HEADERS: Final = {0xC5: (3, False), 0xC6: (5, False), 0xDA: (3, True), 0xDB: (5, True)}
"""msgpack bin16, bin32, str16, str32: header bytes (marker + length) and whether it is text."""
_BIG_HEADER_RE: Final = re.compile(rb"[\xc5\xc6\xda\xdb]")


class NotAPhoto(ValueError):
    """A big message that is not one big ``bin``/``str`` object and a small rest."""


def unpack_big(payload: bytes, ext_hook: Any = None) -> Any:
    """Unpack a big msgpack message (a photo picker's answer) for the cost of its small part.

    A real answer is one big ``bin`` (or ``str``) object — the photo — and at most
    :data:`BIG_REST_MAX` bytes else, so its header starts within the first
    :data:`BIG_REST_MAX` bytes. The first :data:`BIG_CANDIDATES` headers there that would
    cover all but :data:`BIG_REST_MAX` bytes are tried: the message with that object cut out
    (a 16-byte marker in its place) is unpacked — at most ~64 KiB, the size of any visitor's
    message — and the object's bytes put back for the marker. Millions of tiny objects
    (8 MB of them held the loop ~8 s) are never unpacked.

    Raises:
        NotAPhoto: no such object (nothing of the message is unpacked beyond 64 KiB).
    """
    n = len(payload)
    tried = 0
    for hit in _BIG_HEADER_RE.finditer(payload, 0, min(n, BIG_REST_MAX)):
        pos = hit.start()
        size_bytes, text = _BIG_HEADERS[payload[pos]]
        size = int.from_bytes(payload[pos + 1 : pos + size_bytes], "big")
        end = pos + size_bytes + size
        if end > n or n - size > BIG_REST_MAX:
            continue
        tried += 1
        token = os.urandom(16)
        small = payload[:pos] + b"\xc4\x10" + token + payload[end:]
        try:
            msg = msgpack_unpack(small, ext_hook)
            blob: Any = bytes(payload[pos + size_bytes : end])
            if text:
                blob = blob.decode("utf-8")
            found, out = _put_back(msg, token, blob)
        except Exception:  # noqa: BLE001 - not msgpack, or not this header: try the next
            found = 0
        if found == 1:
            return out
        if tried >= BIG_CANDIDATES:
            break
    raise NotAPhoto("a big message that is not one big object")


def msgpack_unpack(data: bytes, ext_hook: Any = None) -> Any:
    """``msgpack.unpackb`` with limits fit for a message of at most :data:`BIG_REST_MAX`
    bytes plus a marker (no container or ext longer than the message could hold)."""
    import msgpack  # type: ignore[import-untyped]

    cap = len(data)
    return msgpack.unpackb(
        data,
        ext_hook=ext_hook or msgpack.ExtType,
        max_str_len=cap,
        max_bin_len=cap,
        max_array_len=cap,
        max_map_len=cap // 2,
        max_ext_len=cap,
    )


def _put_back(msg: Any, token: bytes, blob: Any) -> tuple[int, Any]:
    """``msg`` with the marker ``token`` (a ``bytes`` value) replaced by ``blob``, and how
    many markers there were (a walk of the small part only)."""
    found = 0

    def walk(x: Any, depth: int) -> Any:
        nonlocal found
        if depth > 64:
            raise NotAPhoto("too deep")
        if isinstance(x, bytes) and x == token:
            found += 1
            return blob
        if isinstance(x, list):
            return [walk(v, depth + 1) for v in x]
        if isinstance(x, dict):
            return {k: walk(v, depth + 1) for k, v in x.items()}
        return x

    out = walk(msg, 0)
    return found, out


_BIG_BYTES: dict[str, Bucket] = {}


def big_bytes_ok(ip: str, size: int, now: float) -> bool:
    """May visitor address ``ip`` send a big message of ``size`` bytes now
    (:data:`BIG_BYTES_PER_ADDRESS` a minute over all its connections; an IPv6 address
    counts by its /64, :func:`app.live.address_key`)?"""
    if len(_BIG_BYTES) > 4096:  # forget the full ones (bounded memory)
        for k in [k for k, b in _BIG_BYTES.items() if b.take(0, now) and b.level >= b.size]:
            _BIG_BYTES.pop(k, None)
    ip = live.address_key(ip)  # IPv6: its /64
    bucket = _BIG_BYTES.get(ip)
    if bucket is None:
        bucket = _BIG_BYTES[ip] = Bucket(BIG_BYTES_PER_ADDRESS / 60.0, BIG_BYTES_PER_ADDRESS)
    return bucket.take(size, now)


_BIG_REFUSED: dict[str, Bucket] = {}


def big_refusal_ok(ip: str, now: float) -> bool:
    """May visitor address ``ip`` have one more photo refused quietly now (at most
    :data:`BIG_REFUSED_PER_MINUTE` a minute), rather than be banned?"""
    if len(_BIG_REFUSED) > 4096:  # forget the full ones (bounded memory)
        for k in [k for k, b in _BIG_REFUSED.items() if b.take(0, now) and b.level >= b.size]:
            _BIG_REFUSED.pop(k, None)
    ip = live.address_key(ip)
    bucket = _BIG_REFUSED.get(ip)
    if bucket is None:
        rate = BIG_REFUSED_PER_MINUTE / 60.0
        bucket = _BIG_REFUSED[ip] = Bucket(rate, BIG_REFUSED_PER_MINUTE)
    return bucket.take(1, now)


_REATTACH: dict[str, Bucket] = {}
_REATTACH_REFUSED: dict[str, Bucket] = {}


def _take(buckets: dict[str, Bucket], key: str, rate: float, size: float, now: float) -> bool:
    """Take one token of ``key``'s bucket in ``buckets`` (made full on first use)."""
    if len(buckets) > 4096:  # forget the full ones (bounded memory)
        for k in [k for k, b in buckets.items() if b.take(0, now) and b.level >= b.size]:
            buckets.pop(k, None)
    bucket = buckets.get(key)
    if bucket is None:
        bucket = buckets[key] = Bucket(rate, size, size, now)
    return bucket.take(1, now)


def reattach_ok(ip: str, now: float, session: str = "") -> bool:
    """May visitor address ``ip`` re-attach to its session ``session`` (its id) now? Each
    session may re-attach :data:`REATTACH_PER_SESSION` times a second, burst
    :data:`REATTACH_SESSION_BURST`: a Wi-Fi blip re-attaches every phone once, however many
    share an address (or an IPv6 /64), and is never refused (session 12's retest: 26 phones
    of one /64 counted together got the /64 banned). False: the connection is refused (closed,
    no ban).

    Raises:
        Flood: more than :data:`REATTACH_REFUSED` refused a minute from the address (its
            /64) (the address is banned).
    """
    address = live.address_key(ip)  # IPv6: its /64
    if _take(_REATTACH, f"{address} {session}", REATTACH_PER_SESSION, REATTACH_SESSION_BURST, now):
        return True
    if _take(_REATTACH_REFUSED, address, REATTACH_REFUSED / 60.0, REATTACH_REFUSED, now):
        return False
    raise Flood("too many re-attaches")


# -- the connection -------------------------------------------------------------------------------
READ_CHUNK: Final = 16 * 1024
"""Bytes read from a visitor's socket at a time (asyncio's default is 256 KiB). uvicorn parses
every WebSocket frame of a read at once, before the guard sees the first: 256 KiB of tiny
bogus frames are ~4,000 frames, ~50 ms of the loop in one go; 16 KiB are a few ms."""


def _transport(websocket: Any) -> Any:
    """The asyncio transport under a Starlette WebSocket served by uvicorn (None: another
    server, or a test double): its ``receive`` is the uvicorn protocol's bound method."""
    proto = getattr(getattr(websocket, "_receive", None), "__self__", None)
    return getattr(proto, "transport", None)


def _small_reads(websocket: Any) -> None:
    """Read a visitor's socket :data:`READ_CHUNK` bytes at a time (see there)."""
    transport = _transport(websocket)
    if transport is not None and isinstance(getattr(transport, "max_size", None), int):
        transport.max_size = READ_CHUNK


def _stop_reading(websocket: Any) -> None:
    """After the close frame of a flood: close the socket now (the close frame still goes
    out), instead of reading and parsing what the flooder sent meanwhile until its close
    reply comes (uvicorn waits for it up to 10 s, parsing every frame on the way)."""
    transport = _transport(websocket)
    if transport is not None:
        with contextlib.suppress(Exception):
            transport.close()


def _plain_error_text(page: Any) -> str:
    with i18n.use_language(i18n.page_language(page)):
        return i18n._("Something went wrong on the server. Reload the page to go on.")


def same_origin(headers: Any) -> bool:
    """May a websocket upgrade with these request headers be served?

    A browser sends ``Origin`` with every websocket upgrade. A page of another site opened in
    the host's browser (cross-site websocket hijacking) sends its own origin, so an ``Origin``,
    when present, must name the host and port the request was sent to (its ``Host``). A client
    that is not a browser sends no ``Origin`` and is judged by its address alone. Any host name
    is allowed (a phone may reach the app by a name the Wi-Fi's router gives it); under a name
    :func:`host_name_trusted` does not know, a loopback connection is served as a visitor.

    Args:
        headers: the upgrade request's headers (a mapping, case-insensitive keys).

    Returns:
        ``True`` when the upgrade may go on.
    """
    from urllib.parse import urlsplit

    host = str(headers.get("host", "") or "").strip().lower()
    if not host:
        return False
    origin = headers.get("origin")
    if origin is None:
        return True
    parts = urlsplit(str(origin).strip().lower())
    return parts.scheme in ("http", "https") and parts.netloc == host


def own_names() -> frozenset[str]:
    """This computer's own names (lower case, no trailing dot): ``socket.gethostname()``, its
    first label and the fully qualified name, but no ``.local`` name (mDNS: any device on
    the Wi-Fi may answer for it, so a page served under it can be rebound to this computer;
    also when the computer's own name is one, as on a Mac). Looked up once
    (:func:`socket.getfqdn` may ask the resolver)."""
    global _OWN_NAMES
    if _OWN_NAMES is None:
        import socket

        names: set[str] = set()
        with contextlib.suppress(OSError):
            name = socket.gethostname().strip().rstrip(".").lower()
            if name:
                names |= {name, name.split(".")[0]}
        with contextlib.suppress(OSError):
            fqdn = socket.getfqdn().strip().rstrip(".").lower()
            if fqdn:
                names.add(fqdn)
        _OWN_NAMES = frozenset(n for n in names if n and not mdns_name(n))
    return _OWN_NAMES


def mdns_name(name: str) -> bool:
    """Is ``name`` (lower case, no trailing dot) a multicast DNS name (``*.local``,
    RFC 6762), which devices on the local network answer for themselves, unauthenticated?"""
    return name == "local" or name.endswith(".local")


_OWN_NAMES: frozenset[str] | None = None


def host_name_of(host: object) -> str | None:
    """The name or address of a ``Host`` header, without its port, lower case, without a
    trailing dot; an IPv6 literal without its brackets (``[::1]:8550`` → ``::1``). None for
    an absent, empty or malformed header."""
    import ipaddress

    if not isinstance(host, str):
        return None
    text = host.strip().lower()
    if not text or len(text) > 300:
        return None
    if text.startswith("["):
        inside, bracket, rest = text[1:].partition("]")
        if not bracket or (rest and not re.fullmatch(r":[0-9]{1,5}", rest)):
            return None
        try:  # brackets hold an IPv6 address, nothing else
            ipaddress.IPv6Address(inside.split("%")[0])
        except ValueError:
            return None
        return inside
    name, colon, port = text.rpartition(":")
    if colon:
        if ":" in name or not re.fullmatch(r"[0-9]{1,5}", port):
            return None  # a bare IPv6 address, or a port that is not a number
        text = name
    return text.rstrip(".") or None


def host_name_trusted(host: object) -> bool:
    """May a connection from this computer (a loopback peer) with this ``Host`` header have
    the host's rights?

    Yes when the browser was sent to an address (an IP literal: ``127.0.0.1``, ``[::1]``, the
    computer's LAN address), to ``localhost`` or a ``*.localhost`` name (browsers resolve those
    to loopback themselves), or to this computer's own name (:func:`own_names`; not its
    ``.local`` name, which a device on the Wi-Fi can claim by mDNS). Any other name may be
    a site that re-points its own name at 127.0.0.1 (DNS rebinding): its page, opened in the
    host's browser, would connect from loopback with its own name as ``Host``
    and ``Origin``. Such a connection is served as a phone without rights (never refused: a
    phone may reach the app by a router's name); the host key still gives the host's rights
    under any name. Case, a port and a trailing dot do not matter; an absent or malformed
    header is not trusted.
    """
    import ipaddress

    name = host_name_of(host)
    if name is None:
        return False
    try:
        ipaddress.ip_address(name.split("%")[0])
        return True
    except ValueError:
        pass
    if name == "localhost" or name.endswith(".localhost"):
        return True
    return not mdns_name(name) and name in own_names()


def _make_connection_class() -> type:
    import msgpack
    from fastapi import WebSocketDisconnect
    from flet.controls.base_control import BaseControl
    from flet.controls.context import _context_page
    from flet.messaging.protocol import (
        MessageAction,
        configure_encode_object_for_msgpack,
        decode_ext_from_msgpack,
    )
    from flet_web.fastapi.flet_app import FletApp, app_manager  # type: ignore[import-untyped]

    transport_log = logging.getLogger("flet_transport")
    encode_control = configure_encode_object_for_msgpack(BaseControl)  # type: ignore[no-untyped-call]

    class Guarded(FletApp):  # type: ignore[misc]
        """Flet's ``FletApp`` with the checks of the module docstring."""

        limits: Limits = VISITOR_LIMITS
        # Flet's private fields this class sets (FletApp assigns them untyped in __init__)
        _FletApp__upload_endpoint_path: str | None
        _FletApp__send_queue: asyncio.Queue[Any] | None

        async def handle(self, websocket: Any) -> None:
            client = websocket.client
            ip = client.host if client is not None and client.host else ""
            # this computer, opened at an address or its own name; another name on loopback
            # may be a rebinding site's page in the host's browser: a phone without rights
            loopback = live.is_loopback(ip) and host_name_trusted(websocket.headers.get("host"))
            if live.is_loopback(ip) and not loopback:
                log.debug("a loopback connection under another name: served as a visitor")
            # the host pass (the key URL's cookie, HostKeyCookie) before any limit of the
            # address: a host's device is not refused for another's use of its address; a
            # wrong pass is a wrong message, and the address's limits and bans apply as
            # without one. The pass gives no rights, nor the host's limits: the key does
            cookie = websocket.headers.get("cookie")
            presented = presented_pass(cookie, scope_port(websocket.scope))
            self.keyed = presented is True
            self.peer_ip = ip
            self.loopback = loopback
            exempt = loopback or self.keyed
            self.limits = HOST_LIMITS if loopback else VISITOR_LIMITS
            self.flooded = False
            self.registered = False
            self.tasks: set[asyncio.Task[Any]] = set()
            self.typing: set[tuple[int, str]] = set()
            """Text fields whose change handler is waiting to run (:meth:`_event`)."""
            self.strikes = 0
            now = time.monotonic()
            if not same_origin(websocket.headers):
                # a page of another site opened this socket from a browser: on the host's
                # computer it would get the host's rights
                await websocket.close(code=CLOSE_POLICY)
                return
            if not exempt and (
                _banned(ip, now) or _CONNECTIONS.get(ip, 0) >= MAX_CONNECTIONS_PER_ADDRESS
            ):
                await websocket.close(code=CLOSE_POLICY)
                return
            self.frames = Bucket(self.limits.rate, self.limits.burst)
            self.bytes = Bucket(self.limits.bytes_rate, self.limits.bytes_burst)
            self.wrong = Bucket(1.0, self.limits.strikes)
            self.big = Bucket(BIG_FRAMES_PER_MINUTE / 60.0, BIG_FRAMES_PER_MINUTE)
            if presented is False:
                self._strike()  # a wrong or stale pass (a full bucket: never closes here)
            if not exempt:
                _small_reads(websocket)
            if exempt:  # this computer and the host pass are not counted
                await self._serve(websocket, ip)
                return
            _CONNECTIONS[ip] = _CONNECTIONS.get(ip, 0) + 1
            try:
                await self._serve(websocket, ip)
            finally:
                left = _CONNECTIONS.get(ip, 1) - 1
                if left > 0:
                    _CONNECTIONS[ip] = left
                else:
                    _CONNECTIONS.pop(ip, None)

        async def _serve(self, websocket: Any, ip: str) -> None:
            self._FletApp__websocket = websocket
            self._FletApp__client_ip = ip
            self._FletApp__client_user_agent = websocket.headers.get("user-agent", "")[:400]
            self._FletApp__oauth_state_id = None  # this app has no sign-in
            self.pubsubhub = app_manager.get_pubsubhub(self._FletApp__main, loop=self.loop)
            self.page_url = str(websocket.url).rsplit("/", 1)[0]
            self.page_name = websocket.url.path.rsplit("/", 1)[0].lstrip("/")
            if not self._FletApp__upload_endpoint_path:
                self._FletApp__upload_endpoint_path = (
                    f"{'' if self.page_name == '' else '/'}{self.page_name}/upload"
                )
            await websocket.accept()
            self._FletApp__send_queue = asyncio.Queue()
            sender = asyncio.create_task(self._FletApp__send_loop())
            await self._receive(websocket)
            self.gone = True  # handlers still waiting for loop time are dropped (_dispatch)
            queue = self._FletApp__send_queue
            if queue is not None:
                queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await sender
            session = self._FletApp__session
            if session is None:
                return
            unique = self._FletApp__get_unique_session_id(session.id)
            if self.flooded:
                await app_manager.delete_session(unique)
                return
            peer = _PEERS.get(session)
            timeout = HOST_TIMEOUT if peer is not None and peer.host else VISITOR_TIMEOUT
            await app_manager.disconnect_session(unique, timeout)

        async def _receive(self, websocket: Any) -> None:
            try:
                while True:
                    data = await websocket.receive_bytes()
                    self._budget(len(data))
                    if not data:
                        continue
                    if data[0] == 0x00:
                        if getattr(self, "big_frame", False):
                            msg = self._unpack_big(data)
                            if getattr(self, "big_refused", False):
                                self._refuse_photo(msg)
                                continue
                        else:
                            try:
                                msg = msgpack.unpackb(data[1:], ext_hook=decode_ext_from_msgpack)
                            except Exception:  # noqa: BLE001 - not msgpack
                                self._strike()
                                continue
                        await self._on_message(msg)
                    elif data[0] == 0x01 and len(data) >= 5:
                        channel = self._data_channels.get(int.from_bytes(data[1:5], "little"))
                        if channel is not None:
                            channel._deliver(data[5:])
                        else:
                            self._strike()
                    else:
                        self._strike()
            except Flood as e:
                self.flooded = True
                if not self.loopback:
                    _ban(self.peer_ip)
                log.warning("closed a connection that went over its limits (%s)", e)
                with contextlib.suppress(Exception):
                    await websocket.close(code=CLOSE_POLICY)
                _stop_reading(websocket)
            except Refused:
                with contextlib.suppress(Exception):
                    await websocket.close(code=CLOSE_POLICY)
            except WebSocketDisconnect:
                pass
            except Exception:  # noqa: BLE001 - a text frame, a broken socket
                log.debug("receive loop ended", exc_info=True)
                with contextlib.suppress(Exception):
                    await websocket.close(code=CLOSE_POLICY)

        def send_message(self, message: Any) -> None:
            queue = self._FletApp__send_queue
            if queue is None:
                # the connection is gone (a closed flood, a tab shut while its session
                # closes): nothing to encode, and no AttributeError traceback in the log
                return
            if transport_log.isEnabledFor(logging.DEBUG):
                transport_log.debug("send_message: %s", message)
            # as Flet's, less its ``debug(f"... {message}")``: the repr of every patch sent
            # (a whole screen for a new session, ~15 ms) made even with debug logging off
            body = msgpack.packb([message.action, message.body], default=encode_control)
            # the queue read once: a sync handler runs in a worker thread, and the send loop
            # may end (setting the field to None) while this thread encodes a whole screen
            queue.put_nowait(b"\x00" + body)

        def host_limits(self) -> None:
            self.limits = HOST_LIMITS
            self.frames = Bucket(HOST_LIMITS.rate, HOST_LIMITS.burst)
            self.bytes = Bucket(HOST_LIMITS.bytes_rate, HOST_LIMITS.bytes_burst)
            self.wrong = Bucket(1.0, HOST_LIMITS.strikes)

        def _budget(self, size: int) -> None:
            now = time.monotonic()
            self.big_refused = False
            if size > self.limits.frame_max:
                if size <= HOST_FRAME_MAX and self._photo_pending():
                    self.big_frame = True  # the answer to a photo picker (checked when read)
                    if self.big.take(1, now) and big_bytes_ok(self.peer_ip, size, now):
                        return
                    if self.loopback or big_refusal_ok(self.peer_ip, now):
                        self.big_refused = True  # over the caps: dropped, the phone told
                        return
                    raise Flood("too many photos")
                raise Flood("frame too big")
            self.big_frame = False
            if not self.frames.take(1, now) or not self.bytes.take(size, now):
                raise Flood("too many messages")

        def _unpack_big(self, data: bytes) -> Any:
            """A visitor's big message (:func:`unpack_big`), its loop time charged to the
            visitor's budgets like a handler's; not a photo's shape: :class:`Flood`."""
            started = time.perf_counter()
            try:
                return unpack_big(data[1:], decode_ext_from_msgpack)
            except NotAPhoto:
                raise Flood("a big message that is not a photo") from None
            finally:
                spent = time.perf_counter() - started
                session = self._FletApp__session
                peer = _PEERS.get(session) if session is not None else None
                budgets = peer_budgets(peer) if peer is not None else None
                for b in visitor_budgets(self.peer_ip) if budgets is None else budgets:
                    b.spend(spent)

        def _refuse_photo(self, msg: Any) -> None:
            """Drop a photo over the per-minute caps: its picker call ends with
            :data:`TOO_MANY_PHOTOS` (the photo screen says so), the connection goes on."""
            session = self._FletApp__session
            if (
                session is None
                or not isinstance(msg, (list, tuple))
                or len(msg) != 2
                or msg[0] != MessageAction.INVOKE_METHOD.value
                or not isinstance(msg[1], dict)
            ):
                raise Flood("a big message that is not a photo")
            log.info("refused a photo over the per-minute limit from %s", self.peer_ip)
            body = dict(msg[1])
            body["result"], body["error"] = None, TOO_MANY_PHOTOS
            self._method_result(session, body)

        def _photo_pending(self) -> bool:
            session = self._FletApp__session
            pending = getattr(session, "_guard_pending", None) if session is not None else None
            if not isinstance(pending, dict):
                return False
            return any(pending.get(m) for m in PHOTO_METHODS)

        def _strike(self) -> None:
            self.strikes += 1
            if not self.wrong.take(1, time.monotonic()):
                raise Flood("too many wrong messages")

        async def _on_message(self, msg: Any) -> None:
            if not isinstance(msg, (list, tuple)) or len(msg) != 2 or not isinstance(msg[1], dict):
                self._strike()
                return
            try:
                action = MessageAction(msg[0])
            except (ValueError, TypeError):
                self._strike()
                return
            body = msg[1]
            session = self._FletApp__session
            if getattr(self, "big_frame", False) and action != MessageAction.INVOKE_METHOD:
                raise Flood("a big message that is not a photo")
            if action == MessageAction.REGISTER_CLIENT:
                await self._register(body)
            elif session is None:
                self._strike()
            elif action == MessageAction.CONTROL_EVENT:
                self._event(session, body)
            elif action == MessageAction.UPDATE_CONTROL_PROPS:
                self._props(session, body)
            elif action == MessageAction.INVOKE_METHOD:
                self._method_result(session, body)
            else:
                self._strike()

        async def _register(self, body: Any) -> None:
            clean = clean_register(body)
            if self.registered or clean is None:
                self._strike()
                return
            self.registered = True
            given = route_key(clean["page"]["route"])  # the key URL's first session
            key_ok = given is not None and live.host_key_ok(given)
            if given is not None and not key_ok:
                self._strike()  # a wrong key: the address's limits apply
            sid = clean["session_id"]
            again = False
            if sid:
                known = await app_manager.get_session(self._FletApp__get_unique_session_id(sid))
                again = known is not None and known.connection is None
            ip = self.peer_ip
            exempt = self.loopback or self.keyed or key_ok
            if not again and not exempt and _live_sessions(ip) >= MAX_SESSIONS_PER_ADDRESS:
                raise Refused("too many sessions from one address")
            if not again:
                await super()._FletApp__on_message([MessageAction.REGISTER_CLIENT, clean])
            else:
                await self._reattach(known, clean, exempt)
            session = self._FletApp__session
            if session is not None and session not in _PEERS:
                _PEERS[session] = Peer(ip, self.loopback, self.loopback or key_ok)
                _SESSIONS.setdefault(ip, weakref.WeakSet()).add(session)
                for k in [k for k, v in _SESSIONS.items() if not v and k != ip]:
                    _SESSIONS.pop(k, None)
            elif session is not None and key_ok:
                _PEERS[session].host = True  # a watcher's session given the key later
            if session is not None and _PEERS[session].host and not self.loopback:
                self.host_limits()

        async def _reattach(self, known: Any, clean: dict[str, Any], exempt: bool) -> None:
            """Re-attach this connection to ``known``, a session that lost its connection
            (the whole screen is sent again). A visitor's re-attaches are counted per address
            (:func:`reattach_ok`) and their loop time charged to its budgets, in line and in
            its turn as a handler's (:func:`admit`, :class:`Blocking`); a route other than the
            session's goes to the route handler as a route change of its own, charged the
            same way (:meth:`_event`; Flet's own start of it is charged to nobody)."""
            peer = _PEERS.get(known)
            visitor = not exempt and not (peer is not None and peer.host)
            if visitor and not reattach_ok(self.peer_ip, _clock(), str(known.id)):
                raise Refused("re-attaching too fast")
            route = clean["page"].pop("route", None)
            player = peer is not None and peer.player()
            budgets = visitor_budgets(self.peer_ip, player) if visitor else []
            reserved = await admit(budgets)
            timed = Blocking(
                super()._FletApp__on_message([MessageAction.REGISTER_CLIENT, clean]),
                turn=bool(budgets),
                rank=0 if player else 1,
            )
            try:
                await timed
            finally:
                settle(reserved or [], timed.blocked)
            session = self._FletApp__session
            if session is None or not isinstance(route, str):
                return
            page = session.page
            if route != page.route:  # (taken as the page's route even without a handler)
                body = {"target": page._i, "name": "route_change", "data": {"route": route}}
                self._event(session, body)

        def _event(self, session: Any, body: dict[str, Any]) -> None:
            target, name, data = body.get("target"), body.get("name"), body.get("data")
            if not isinstance(target, int) or not isinstance(name, str) or len(name) > 64:
                self._strike()
                return
            control = session.index.get(target)  # O(1): no search of the control tree
            if control is None or name in SERVER_EVENTS:
                self._strike()
                return
            if control is session.page:
                if name not in PAGE_EVENTS:
                    self._strike()
                    return
                if name == "route_change":
                    route = data.get("route") if isinstance(data, dict) else None
                    if clean_route(route) != route:
                        self._strike()
                        return
                    # the page's route follows the browser's (as Flet's own client patch
                    # would set it): a later reload of another address then shows that one
                    session.apply_patch(session.page._i, {"route": route})
                else:
                    clean = clean_page_event(name, data)
                    if clean is None:
                        log.debug("dropped a malformed on_%s event", name)
                        self._strike()
                        return
                    data = clean
                if getattr(control, f"on_{name}", None) is None:
                    # no handler (a resize, say, which browsers send freely): Flet would
                    # still re-draw the whole page after it (auto-update), for nothing
                    return
            elif getattr(control, f"on_{name}", None) is None and not (
                name == "dismiss" and allowed_props(control) is not None
            ):
                self._strike()
                return
            elif name != "dismiss" and not usable(control, session.page):
                # hidden or disabled on the screen: nobody clicked it (or the click crossed
                # the update that hid it: dropped without a strike)
                return
            from flet import TextField

            typed = (target, name) if name == "change" and isinstance(control, TextField) else None
            if typed is not None and typed in self.typing:
                # this field's last change has not run yet: it reads the field's value as it
                # is then (set by the client's update just before), so the last value wins
                return
            event = build_event(control, name, data)
            if event is _MALFORMED:
                log.debug("dropped an on_%s event its parser cannot read", name)
                self._strike()
                return
            peer = _PEERS.get(session)
            if len(self.tasks) >= MAX_TASKS and (peer is None or not peer.host):
                raise Flood("too many events at once")  # the host's own phone is not limited
            if typed is not None:
                self.typing.add(typed)
            task = asyncio.create_task(
                _dispatch(session, control, name, data, self, typed, event=event)
            )
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

        def _props(self, session: Any, body: dict[str, Any]) -> None:
            target, props = body.get("id"), body.get("props")
            if not isinstance(target, int) or not isinstance(props, dict):
                self._strike()
                return
            control = session.index.get(target)
            if control is None:
                self._strike()
                return
            if control is session.page:
                return  # the screen's size, the route …: Flutter reports them; never taken
            checks = allowed_props(control)
            if checks is not None and (
                getattr(control, "read_only", False) is True
                or not (_dialog_closing(control, props) or usable(control, session.page))
            ):
                return  # hidden, disabled, read-only: nobody typed into it (dropped quietly)
            kept = {
                k: v
                for k, v in props.items()
                if checks is not None and k in checks and checks[k](control, v, self.limits)
            }
            if len(kept) != len(props):
                self._strike()
            if kept:
                session.apply_patch(target, kept)

        def _method_result(self, session: Any, body: dict[str, Any]) -> None:
            cid, call = body.get("control_id"), body.get("call_id")
            err = body.get("error")
            if (
                not isinstance(cid, int)
                or not isinstance(call, str)
                or cid not in session.index
                or not (err is None or isinstance(err, str))
            ):
                self._strike()
                return
            session.handle_invoke_method_results(cid, call, body.get("result"), err)

    async def _dispatch(
        session: Any,
        control: Any,
        name: str,
        data: Any,
        conn: Any,
        typed: Any = None,
        event: Any = None,
    ) -> None:
        _context_page.set(session.page)
        peer = _PEERS.get(session)
        budgets = peer_budgets(peer)
        # a visitor over its loop time waits in line (its other events queue behind it)
        reserved = await admit(budgets, lambda: bool(getattr(conn, "gone", False)))
        if reserved is None:
            return  # its connection closed while it waited: nobody to show it to
        if typed is not None:  # from now on a new change of the field gets a run of its own
            conn.typing.discard(typed)

        def ready() -> bool:
            if getattr(conn, "gone", False) or getattr(session, "connection", True) is None:
                return False  # the session left while the event waited for its turn
            try:
                control.page  # noqa: B018 - raises when the control is no longer on the page
            except RuntimeError:
                return False
            return True

        run = (
            control._trigger_event(name, data)
            if event is None
            else control._trigger_event(name, data, event)
        )
        timed = Blocking(run, turn=bool(budgets), ready=ready, rank=rank_of(peer))
        hosts = _hosts() if not budgets else None
        left = [False]

        def leave() -> None:
            if hosts is not None and not left[0]:
                left[0] = True
                hosts.leave()

        if hosts is not None:
            hosts.enter()
            asyncio.get_running_loop().call_later(HOST_FIRST_SECONDS, leave)
        try:
            await timed
        except Exception:  # noqa: BLE001 - a handler failed: log it, tell the person plainly
            # the traceback once per session: a visitor repeating a bad event cannot fill the log
            first = not session.__dict__.get("_guard_logged")
            session.__dict__["_guard_logged"] = True
            log.error("unhandled error in an on_%s handler", name, exc_info=first)
            session.error("handler failed")
        finally:
            if hosts is not None:
                asyncio.get_running_loop().call_later(HOST_GRACE, leave)
            settle(reserved, None if timed.dropped else timed.blocked)
            if timed.dropped:
                log.debug("dropped an on_%s event: its session or control is gone", name)

    Guarded.dispatch = staticmethod(_dispatch)  # one event's run (a test hook)
    return Guarded


SCREEN_MODULES: Final = (
    "app.ui.home.games_list",
    "app.ui.table.sharing",
    "app.ui.home.new_game",
    "app.ui.home.settings",
    "app.ui.home.players",
    "app.ui.home.history",
    "app.ui.referee.checkers",
    "app.ui.home.rulebook_view",
    "app.ui.sheet.score_sheet",
    "app.ui.sheet.chart",
    "app.ui.entry.round_entry",
    "app.ui.table.timer",
    "app.ui.table.table_display",
)
"""The screens (``app.ui.router`` imports them all). Imported by :func:`install`, before
the server starts: else the first visitor to open a game (any visitor: the screen is built
before it sends anything) holds every session's loop ~200 ms while Python imports the score
sheet and the charts."""


def warm_screens() -> None:
    """Import :data:`SCREEN_MODULES` and the rule checks and variants ``rules.judge`` imports
    on its first answer (the score sheet's first standings: ~200 ms more); one that fails is
    left to fail when it is used."""
    import importlib
    import pkgutil

    names = list(SCREEN_MODULES)
    for package in (rules.checks, rules.variants):
        names += [m.name for m in pkgutil.iter_modules(package.__path__, package.__name__ + ".")]
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - the screen reports it when it is opened
            log.debug("cannot import %s ahead of time", name, exc_info=True)


# -- HTTP connections -----------------------------------------------------------------------------
HTTP_CONNECTIONS_PER_ADDRESS: Final = 32
"""Open HTTP connections one visitor address may hold (a browser opens about 6 to load the
page; this computer is not limited). One more is closed at once."""
HEADER_SECONDS: Final = 5.0
"""Seconds a visitor's connection may take to send a request's header (the first, or the
next on a kept-alive connection): a slow-loris that sends a header line every few seconds
is closed. A request being answered (a download) is not timed."""
HTTP_WAITING_PER_ADDRESS: Final = 32
"""Connections over :data:`HTTP_CONNECTIONS_PER_ADDRESS` one visitor address may have waiting
for their request header: each is served only if that header shows this run's host pass (its
cookie, :class:`HostKeyCookie`) or key (``?key=`` in the address), else answered 503 and closed;
one more closes the oldest waiting (so sockets held idle cannot keep a host's device at that
address out: it sends its header at once)."""
_HTTP_OPEN: dict[str, int] = {}
_HTTP_WAITING: dict[str, dict[int, Any]] = {}
"""Visitor address → its connections over the cap waiting for a header (oldest first)."""


def http_open(ip: str) -> int:
    """Open HTTP connections of visitor address ``ip`` (not counting WebSockets)."""
    return _HTTP_OPEN.get(ip, 0)


def http_waiting(ip: str) -> int:
    """Connections of visitor address ``ip`` over the cap, waiting for a request header."""
    return len(_HTTP_WAITING.get(ip, ()))


def keyed_request(scope: Any) -> bool:
    """Does an HTTP request (its ASGI scope, as uvicorn builds it) show this run's host pass
    in its cookie (:func:`presented_pass`) or the host key in its query (``?key=…``)?"""
    headers = scope.get("headers") or []
    cookie = b"; ".join(v for k, v in headers if k.lower() == b"cookie").decode("latin-1")
    if presented_pass(cookie, scope_port(scope)):
        return True
    raw = scope.get("query_string", b"")
    query = raw.decode("latin-1") if isinstance(raw, (bytes, bytearray)) else ""
    given = query_key(query)
    return given is not None and live.host_key_ok(given)


_OVER_CAP_ANSWER: Final = (
    {
        "type": "http.response.start",
        "status": 503,
        "headers": [(b"connection", b"close"), (b"content-length", b"0")],
    },
    {"type": "http.response.body", "body": b""},
)


def guarded_http(base: type) -> type:
    """uvicorn's HTTP protocol class ``base`` with :data:`HTTP_CONNECTIONS_PER_ADDRESS`,
    :data:`HTTP_WAITING_PER_ADDRESS` and :data:`HEADER_SECONDS` for visitors (the peer
    address of the socket itself)."""

    class GuardedHTTP(base):  # type: ignore[misc]
        app: Any  # uvicorn's: the ASGI app each request is run with
        _guard_ip: str | None = None
        _guard_waiting: str | None = None
        _guard_timer: Any = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            client = getattr(self, "client", None)
            ip = str(client[0]) if client else ""
            if live.is_loopback(ip):
                return
            self._guard_last: Any = None
            if _HTTP_OPEN.get(ip, 0) >= HTTP_CONNECTIONS_PER_ADDRESS:
                self._guard_wait(ip)  # served only with the host pass or key
                return
            _HTTP_OPEN[ip] = _HTTP_OPEN.get(ip, 0) + 1
            self._guard_ip = ip
            self._guard_timer = self.loop.call_later(HEADER_SECONDS, self._guard_tick)

        def _guard_wait(self, ip: str) -> None:
            waiting = _HTTP_WAITING.setdefault(ip, {})
            while len(waiting) >= HTTP_WAITING_PER_ADDRESS:
                oldest = waiting.pop(next(iter(waiting)))
                oldest._guard_waiting = None
                _refusals.note(ip)
                oldest.transport.abort()
            waiting[id(self)] = self
            self._guard_waiting = ip
            self._guard_app = self.app
            self.app = self._guard_gate  # uvicorn runs ``self.app`` for each request
            self._guard_timer = self.loop.call_later(HEADER_SECONDS, self._guard_tick)

        def _guard_unwait(self) -> str | None:
            ip, self._guard_waiting = self._guard_waiting, None
            if ip is not None:
                waiting = _HTTP_WAITING.get(ip, {})
                waiting.pop(id(self), None)
                if not waiting:
                    _HTTP_WAITING.pop(ip, None)
            return ip

        def _guard_keyed(self) -> None:
            """A waiting connection showed the host pass or key: served, not counted (still
            timed: a leaked pass holds no socket idle)."""
            self._guard_unwait()
            self.app = self._guard_app

        async def _guard_gate(self, scope: Any, receive: Any, send: Any) -> None:
            """A request on a connection over the cap: served with the host pass or key, else
            answered 503 (and closed)."""
            if keyed_request(scope):
                self._guard_keyed()
                await self._guard_app(scope, receive, send)
                return
            _refusals.note(self._guard_unwait() or "")
            for message in _OVER_CAP_ANSWER:
                await send(message)

        def _guard_tick(self) -> None:
            """Every :data:`HEADER_SECONDS`: a connection that waited for a request header
            since the last tick (no request, or the same answered one) is closed."""
            self._guard_timer = None
            if self.transport.is_closing():
                return
            cycle = getattr(self, "cycle", None)
            waiting = cycle is None or getattr(cycle, "response_complete", False)
            if waiting and cycle is self._guard_last:
                self.transport.close()
                return
            self._guard_last = cycle if waiting else _BUSY
            self._guard_timer = self.loop.call_later(HEADER_SECONDS, self._guard_tick)

        def _guard_release(self) -> None:
            if self._guard_timer is not None:
                self._guard_timer.cancel()
                self._guard_timer = None
            self._guard_unwait()
            ip, self._guard_ip = self._guard_ip, None
            if ip is None:
                return
            left = _HTTP_OPEN.get(ip, 1) - 1
            if left > 0:
                _HTTP_OPEN[ip] = left
            else:
                _HTTP_OPEN.pop(ip, None)

        def connection_lost(self, exc: Exception | None) -> None:
            self._guard_release()
            super().connection_lost(exc)

        def handle_websocket_upgrade(self, *args: Any) -> None:
            if self._guard_waiting is not None and not keyed_request(self.scope):
                _refusals.note(self._guard_unwait() or "")  # over the cap, without the pass
                self.transport.abort()
                return
            # the socket is the WebSocket protocol's now (its own per-address cap, after
            # the host pass: Guarded.handle)
            self._guard_release()
            super().handle_websocket_upgrade(*args)

    GuardedHTTP.__name__ = GuardedHTTP.__qualname__ = f"Guarded{base.__name__}"
    return GuardedHTTP


_BUSY: Final = object()
""":meth:`GuardedHTTP._guard_tick`'s mark for "a request was being answered"."""


class _Refusals:
    """One warning line a minute for connections refused over the per-address cap."""

    def __init__(self) -> None:
        self.count = 0
        self.at = -math.inf

    def note(self, ip: str) -> None:
        self.count += 1
        now = time.monotonic()
        if now - self.at >= 60.0:
            log.warning(
                "refused %d HTTP connection(s) over the limit per address (%s)", self.count, ip
            )
            self.count, self.at = 0, now


_refusals = _Refusals()


class OncePerInterval(logging.Filter):
    """Let a log message starting with ``prefix`` through once per ``seconds`` (the first
    with its traceback, later ones as one line with the count of those dropped)."""

    def __init__(self, prefix: str, seconds: float = 10.0) -> None:
        super().__init__()
        self.prefix = prefix
        self.seconds = seconds
        self.at = -math.inf
        self.dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith(self.prefix):
            return True
        now = time.monotonic()
        if now - self.at < self.seconds:
            self.dropped += 1
            return False
        if self.at > -math.inf:
            record.msg = f"{record.msg} ({self.dropped} more like it dropped)"
            record.exc_info = None
            record.exc_text = None
        self.at, self.dropped = now, 0
        return True


ACCEPT_FAILED: Final = "socket.accept() out of system resource"
"""asyncio's log line when the process is out of file descriptors (rate-limited: a flood of
connections wrote 54 MB of it in 15 s)."""


def raise_open_files_limit() -> tuple[int, int]:
    """Raise the soft limit of open files to the hard one (Linux's default soft 1024 is ~1000
    sockets); returns (before, after). Nothing happens where the ``resource`` module or the
    call is not available."""
    try:
        import resource
    except ImportError:  # not on this system
        return (0, 0)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
    if soft != resource.RLIM_INFINITY and soft < target:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return soft, resource.getrlimit(resource.RLIMIT_NOFILE)[0]


GuardedConnection: Any = object
"""The guarded connection class (made by :func:`install`)."""


class NoFraming:
    """ASGI middleware: every HTTP answer says it may not be shown inside another site's
    frame (``X-Frame-Options: DENY``, ``Content-Security-Policy: frame-ancestors 'none'``).
    In a frame the app's websocket would carry the app's own ``Origin`` and so pass
    :func:`same_origin`: a page could lay its own buttons over the host's screen
    (clickjacking)."""

    @staticmethod
    def framed(headers: Any) -> list[tuple[bytes, bytes]]:
        """``headers`` (ASGI: pairs of bytes) with ``X-Frame-Options: DENY`` and
        ``frame-ancestors 'none'`` added to the page's own policy (one header, not two)."""
        out: list[tuple[bytes, bytes]] = []
        policy = False
        for k, v in headers:
            name = k.lower()
            if name == b"x-frame-options":
                continue
            if name == b"content-security-policy" and not policy:
                v = v.rstrip(b"; ") + b"; frame-ancestors 'none'"
                policy = True
            out.append((k, v))
        out.append((b"x-frame-options", b"DENY"))
        if not policy:
            out.append((b"content-security-policy", b"frame-ancestors 'none'"))
        return out

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        framed = self.framed
        if scope.get("type") != "http" or scope.get("app.guard.framed"):
            await self.app(scope, receive, send)  # (Flet mounts its app in another: once)
            return
        scope["app.guard.framed"] = True

        async def send_framed(message: Any) -> None:
            if message.get("type") == "http.response.start":
                message = {**message, "headers": framed(message.get("headers", []))}
            await send(message)

        await self.app(scope, receive, send_framed)


# -- the host key before the address limits -------------------------------------------------------
PASS_COOKIE: Final = "rummy_referee_pass"
"""Name (before ``_<port>``) of the cookie holding the host pass (:class:`HostKeyCookie`)."""
PASS_COOKIE_SECONDS: Final = 30 * 24 * 3600
"""How long a browser keeps the pass's cookie (the key, and so the pass, change every run)."""
KEY_QUERY_MAX: Final = 4096
"""Characters of a query string read for the host key (a longer one is not parsed)."""


def pass_cookie_name(port: object) -> str:
    """The pass cookie's name for the server on ``port`` (two runs on two ports keep two)."""
    ok = isinstance(port, int) and not isinstance(port, bool)
    return f"{PASS_COOKIE}_{port}" if ok else PASS_COOKIE


def scope_port(scope: Any) -> int | None:
    """The port the server took a request on (the ASGI scope's ``server``), or None."""
    server = scope.get("server") if isinstance(scope, dict) else None
    if isinstance(server, (list, tuple)) and len(server) == 2 and isinstance(server[1], int):
        return server[1]
    return None


def cookie_values(header: object, name: str) -> list[str]:
    """Every value a ``Cookie`` request header gives the cookie ``name`` (a browser may send
    two of one name, for two paths); none for a header that is not text."""
    if not isinstance(header, str):
        return []
    out = []
    for chunk in header.split(";"):
        key, eq, value = chunk.partition("=")
        if eq and key.strip() == name:
            out.append(value.strip().strip('"'))
    return out


def presented_pass(header: object, port: object) -> bool | None:
    """The host pass (:func:`app.live.host_pass`) in a request's ``Cookie`` header
    (:data:`PASS_COOKIE`): True when one value of the cookie is this run's pass, False when
    the cookie is there with another value (a wrong or stale pass), None when there is none."""
    values = cookie_values(header, pass_cookie_name(port))
    if not values:
        return None
    return any(live.host_pass_ok(v) for v in values)


def query_key(query: object) -> str | None:
    """The host key parameter of a query string (``a=1&key=K`` → ``K``), or None (no such
    parameter, or a query longer than :data:`KEY_QUERY_MAX`)."""
    from urllib.parse import parse_qsl

    if not isinstance(query, str) or not query or len(query) > KEY_QUERY_MAX:
        return None
    return next((v for k, v in parse_qsl(query) if k == live.HOST_KEY_PARAM), None)


def route_key(route: object) -> str | None:
    """The host key parameter of a route (``/game/x?key=K`` → ``K``), or None."""
    return query_key(route.partition("?")[2]) if isinstance(route, str) else None


class HostKeyCookie:
    """ASGI middleware: a page opened with this run's host key (``?key=…``) is answered with
    the host pass (:func:`app.live.host_pass`, derived from the key; not the key) as an
    HttpOnly, SameSite=Strict cookie of that name and address (:func:`pass_cookie_name`), so
    that every later WebSocket of that browser shows it in its upgrade request, before any
    message, and the guard checks it before the address limits (:meth:`Guarded.handle`): a
    host's device at a shared address is not locked out by another's use of it (16
    connections, 12 sessions, the 60-s ban, 32 HTTP connections). The pass gives no rights
    (the key, from the address or the browser's storage, does). A pass cookie that is not this
    run's is deleted. The page's script cannot read the cookie; a page of another name (DNS
    rebinding) or site does not get it sent."""

    def __init__(self, app: Any) -> None:
        self.app = app

    @staticmethod
    def cookie_header(scope: Any) -> bytes | None:
        """The ``Set-Cookie`` value for a request (its ASGI scope), or None for none."""
        name = pass_cookie_name(scope_port(scope))
        raw = scope.get("query_string", b"")
        query = raw.decode("latin-1") if isinstance(raw, (bytes, bytearray)) else ""
        given = query_key(query)
        pass_ = live.host_pass()
        if given is not None and live.host_key_ok(given) and pass_ is not None:
            flags = f"Path=/; Max-Age={PASS_COOKIE_SECONDS}; HttpOnly; SameSite=Strict"
            return f"{name}={pass_}; {flags}".encode()
        header = next(
            (v for k, v in scope.get("headers", []) if k.lower() == b"cookie"), b""
        ).decode("latin-1")
        if presented_pass(header, scope_port(scope)) is False:
            return f"{name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict".encode()
        return None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope.get("type") != "http" or scope.get("app.guard.key_cookie"):
            await self.app(scope, receive, send)  # (Flet mounts its app in another: once)
            return
        scope["app.guard.key_cookie"] = True
        cookie = self.cookie_header(scope)
        if cookie is None:
            await self.app(scope, receive, send)
            return

        async def send_cookie(message: Any) -> None:
            if message.get("type") == "http.response.start":
                headers = [*message.get("headers", []), (b"set-cookie", cookie)]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_cookie)


_installed = False


def install() -> None:
    """Put the guard between Flet's WebSocket endpoint and its sessions (idempotent).

    Replaces ``flet_web.fastapi.app.FletApp`` (looked up at every connection) with
    :class:`GuardedConnection`, makes the FastAPI app Flet builds serve no ``/docs``,
    ``/redoc`` or ``/openapi.json``, makes ``Session.error`` send a plain sentence, and makes the
    uvicorn server Flet starts refuse messages over :data:`HOST_FRAME_MAX` and trust
    ``X-Forwarded-For`` from ``127.0.0.1`` only. Then imports the screens ahead of time
    (:func:`warm_screens`) and freezes what is in memory (``gc.freeze``), so that no session
    pays for the first import of a screen or for a collection that walks every module.
    """
    global GuardedConnection, _installed
    if _installed:
        return
    import importlib

    import uvicorn
    from flet.messaging.protocol import Message, MessageAction, SessionCrashedBody
    from flet.messaging.session import Session
    from uvicorn.config import HTTP_PROTOCOLS
    from uvicorn.importer import import_from_string

    INPUT_PROPS[:] = _input_props()
    GuardedConnection = _make_connection_class()
    # the module, not the function ``flet_web.fastapi.app`` that its package exports
    flet_app_module = importlib.import_module("flet_web.fastapi.app")
    flet_app_module.FletApp = GuardedConnection  # type: ignore[attr-defined]
    from flet_web.fastapi.flet_fastapi import FastAPI  # type: ignore[import-untyped]

    fastapi_init = FastAPI.__init__

    def without_api_pages(self: Any, *args: Any, **kwargs: Any) -> None:
        # FastAPI's own pages (/docs, /redoc, /openapi.json): nothing to show a phone, and
        # /docs loads scripts from a CDN; the addresses fall through to the app's page
        for name in ("docs_url", "redoc_url", "openapi_url"):
            kwargs.setdefault(name, None)
        fastapi_init(self, *args, **kwargs)
        self.add_middleware(NoFraming)
        self.add_middleware(HostKeyCookie)

    FastAPI.__init__ = without_api_pages

    def error(self: Any, message: str) -> None:
        log.debug("session error (not sent to the client): %s", str(message)[:2000])
        self._Session__send_message(
            Message(MessageAction.SESSION_CRASHED, SessionCrashedBody(_plain_error_text(self.page)))
        )

    Session.error = error  # type: ignore[method-assign]
    invoke = Session.invoke_method

    async def invoke_method(
        self: Any, control_id: int, method_name: str, args: Any, timeout: float | None = None
    ) -> Any:
        # which client calls are pending: a photo picker's answer may be big (_budget)
        pending = self.__dict__.setdefault("_guard_pending", {})
        pending[method_name] = pending.get(method_name, 0) + 1
        try:
            return await invoke(self, control_id, method_name, args, timeout)
        finally:
            pending[method_name] -= 1

    Session.invoke_method = invoke_method  # type: ignore[method-assign]

    base = uvicorn.Config

    class Config(base):  # type: ignore[misc,valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs.setdefault("ws_max_size", HOST_FRAME_MAX)
            kwargs["forwarded_allow_ips"] = "127.0.0.1"
            http = kwargs.get("http", "auto")
            if isinstance(http, str) and http in HTTP_PROTOCOLS:
                http = import_from_string(HTTP_PROTOCOLS[http])
            if isinstance(http, type):
                kwargs["http"] = guarded_http(http)
            super().__init__(*args, **kwargs)

    uvicorn.Config = Config  # type: ignore[misc]
    logging.getLogger("asyncio").addFilter(OncePerInterval(ACCEPT_FAILED))
    warm_screens()
    own_names()  # (may ask the resolver: not on the loop, at a phone's first connection)
    guard_names.warm()  # the look-alike table for joined names, before any session waits
    # Everything imported so far lives as long as the server: out of the collector's sight,
    # else a full collection walks it all (~70 ms of the loop, at a random moment of some
    # session's screen build) every time enough new objects pile up
    gc.collect()
    gc.freeze()
    _installed = True


__all__ = [
    "BAN_SECONDS",
    "HOST_LIMITS",
    "INPUT_PROPS",
    "MAX_SESSIONS_PER_ADDRESS",
    "ROUTE_MAX",
    "VISITOR_LIMITS",
    "VISITOR_TIMEOUT",
    "SCREEN_MODULES",
    "Limits",
    "Peer",
    "allowed_props",
    "clean_register",
    "clean_route",
    "install",
    "mark_host",
    "peer_of",
    "warm_screens",
]
