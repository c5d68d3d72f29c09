"""The hostile-phone tester's findings, session 12 (``app/guard.py``), fed in process as the
guard's receive loop and dispatcher get them, the budgets' clock stopped or moved by the test.

1. Watchers (visitors without a join code) at two addresses used up the loop budget shared by
   every visitor; a joined phone (a player) was charged to the same budget and slept and
   retried behind them: its taps took 4-52 s. Players now draw from a pool of their own
   (``guard._ALL_PLAYERS``), still with their address's budget; their steps go before
   watchers' in the visitors' turn; and waiting handlers are let in first come first served,
   one per address at a time in a pool's line.
2. A re-attach (``REGISTER_CLIENT`` naming a known session that lost its connection) sent the
   whole screen again charged to no budget, as often as an address liked (63 a second, half a
   core). It is now charged to the address's budgets, in line and in turn, and counted per
   session (``guard.REATTACH_PER_SESSION``): one over is refused, many over ban the address.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import msgpack
import pytest

from app import guard
from tests.test_attack import REGISTER, _bare_connection, _Socket

NOW = 5000.0


@pytest.fixture
def budgets(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """Fresh budgets on a stopped clock (the list's one value: the clock, seconds)."""
    guard.install()
    clock = [NOW]
    monkeypatch.setattr(guard, "_clock", lambda: clock[0], raising=False)
    monkeypatch.setattr(guard, "_ADDRESS_BUDGETS", {})
    monkeypatch.setattr(guard, "_REATTACH", {}, raising=False)
    monkeypatch.setattr(guard, "_REATTACH_REFUSED", {}, raising=False)
    visitors = guard.LoopBudget(guard.ALL_VISITORS_CPU_RATE, guard.ALL_VISITORS_CPU_BURST)
    monkeypatch.setattr(guard, "_ALL_VISITORS", visitors)
    players_rate = getattr(guard, "ALL_PLAYERS_CPU_RATE", guard.ALL_VISITORS_CPU_RATE)
    players_burst = getattr(guard, "ALL_PLAYERS_CPU_BURST", guard.ALL_VISITORS_CPU_BURST)
    players = guard.LoopBudget(players_rate, players_burst)
    monkeypatch.setattr(guard, "_ALL_PLAYERS", players, raising=False)
    yield clock


def moving(monkeypatch: pytest.MonkeyPatch, clock: list[float]) -> None:
    """A handler waiting for a budget moves the stopped clock on by its wait, at once."""

    async def sleep(seconds: float) -> None:
        clock[0] += seconds
        await asyncio.sleep(0)

    monkeypatch.setattr(guard, "_sleep", sleep, raising=False)


# -- 1. players and watchers -----------------------------------------------------------------------
class _Session:
    page = None
    connection = object()

    def error(self, message: str) -> None:
        pass


class _Control:
    """A button whose click handler notes its name in ``ran``."""

    def __init__(self, name: str, ran: list[str]) -> None:
        self.name, self.ran = name, ran

    @property
    def page(self) -> Any:
        return self

    async def _trigger_event(self, name: str, data: Any) -> None:
        self.ran.append(self.name)


class _Conn:
    gone = False


def _visitor(ip: str, joined: bool) -> Any:
    session = _Session()
    guard._PEERS[session] = guard.Peer(ip, False, False, joined=joined)
    return session


def _tap(session: Any, name: str, ran: list[str]) -> asyncio.Task[None]:
    run = guard.GuardedConnection.dispatch(session, _Control(name, ran), "click", None, _Conn())
    return asyncio.ensure_future(run)


async def _rounds(n: int = 200) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


def test_a_player_is_not_held_by_watchers_that_used_up_their_budget(
    budgets: list[float],
) -> None:
    guard._ALL_VISITORS.spend(10.0)  # two watcher addresses' rule-book flood
    ran: list[str] = []

    async def scene() -> None:
        watcher = _tap(_visitor("198.51.100.201", joined=False), "watcher", ran)
        player = _tap(_visitor("198.51.100.202", joined=True), "player", ran)
        await _rounds()  # the clock is stopped: nothing refills
        assert ran == ["player"]  # the player's tap ran; the watcher's waits for its pool
        await player
        watcher.cancel()
        await asyncio.gather(watcher, return_exceptions=True)

    asyncio.run(scene())
    # charged to the players' pool, not the watchers' (left where the flood put it)
    assert guard._ALL_VISITORS.level == guard.ALL_VISITORS_CPU_BURST - 10.0
    assert guard._ALL_PLAYERS.level < guard.ALL_PLAYERS_CPU_BURST
    assert guard._ALL_PLAYERS.line == guard._ALL_VISITORS.line == type(guard._ALL_PLAYERS.line)()


def test_a_player_over_its_own_address_budget_waits_and_another_player_does_not(
    budgets: list[float],
) -> None:
    greedy_ip = "198.51.100.203"
    guard.visitor_budgets(greedy_ip)[0].spend(10.0)  # one joined phone's own flood (its address)
    ran: list[str] = []

    async def scene() -> None:
        greedy = _tap(_visitor(greedy_ip, joined=True), "greedy", ran)
        other = _tap(_visitor("198.51.100.204", joined=True), "other", ran)
        await _rounds()
        assert ran == ["other"]
        await other
        greedy.cancel()
        await asyncio.gather(greedy, return_exceptions=True)

    asyncio.run(scene())


def test_a_players_step_takes_the_visitors_turn_before_a_watchers(
    budgets: list[float],
) -> None:
    ran: list[str] = []

    async def scene() -> None:
        await guard.visitors_turn()  # a third visitor's step holds the turn
        watcher = _tap(_visitor("198.51.100.205", joined=False), "watcher", ran)
        await _rounds(20)
        player = _tap(_visitor("198.51.100.206", joined=True), "player", ran)
        await _rounds(20)
        assert ran == []  # both wait for the turn, the watcher first
        guard._end_turn()
        await asyncio.gather(watcher, player)

    asyncio.run(scene())
    assert ran == ["player", "watcher"]


def test_waiting_watchers_are_let_in_in_order_one_per_address_at_a_time(
    budgets: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Address A has four taps waiting when address B's one comes: B's goes second, not fifth
    (before: every waiting handler slept and retried, and a refill let them all in at once)."""
    moving(monkeypatch, budgets)
    guard._ALL_VISITORS.spend(guard.ALL_VISITORS_CPU_BURST + 0.004)  # just over: a short wait
    ran: list[str] = []

    async def scene() -> None:
        a = _visitor("198.51.100.207", joined=False)
        b = _visitor("198.51.100.208", joined=False)
        taps = [_tap(a, f"a{i}", ran) for i in range(4)]
        await asyncio.sleep(0)
        taps.append(_tap(b, "b0", ran))
        await asyncio.gather(*taps)

    asyncio.run(scene())
    assert ran == ["a0", "b0", "a1", "a2", "a3"]
    assert budgets[0] > NOW  # they waited for the pool (the clock moved by their waits)


# -- 2. re-attaches --------------------------------------------------------------------------------
class _Page:
    """A session's page: its route, and a route handler noting the routes it was given."""

    _i = 1

    def __init__(self, routes: list[str]) -> None:
        self.route = "/game/g1"
        self.routes = routes
        self.on_route_change = object()

    @property
    def page(self) -> Any:
        return self

    async def _trigger_event(self, name: str, data: Any, event: Any = None) -> None:
        self.routes.append(data["route"])


class _Known:
    """A session that lost its connection (a phone whose screen went dark)."""

    def __init__(self) -> None:
        self.connection = None
        self.id = "s1"
        self.routes: list[str] = []
        self.page = _Page(self.routes)
        self.index = {1: self.page}

    def apply_patch(self, target: int, props: dict[str, Any]) -> None:
        self.page.route = props.get("route", self.page.route)

    def error(self, message: str) -> None:
        pass


SCREEN_SECONDS = 0.002
"""Loop time the stand-in for Flet's re-attach holds (sending the whole screen again)."""


@pytest.fixture
def flet_reattach(monkeypatch: pytest.MonkeyPatch) -> tuple[_Known, list[dict[str, Any]]]:
    """One known disconnected session, and the page fields Flet's own re-attach was given
    (each re-attach holds the loop :data:`SCREEN_SECONDS`)."""
    from flet_web.fastapi.flet_app import FletApp, app_manager

    known = _Known()
    given: list[dict[str, Any]] = []

    async def get_session(unique: str) -> Any:
        return known

    async def on_message(self: Any, msg: Any) -> None:
        given.append(dict(msg[1]["page"]))
        self._FletApp__session = known
        known.connection = self
        until = time.perf_counter() + SCREEN_SECONDS
        while time.perf_counter() < until:
            pass

    monkeypatch.setattr(app_manager, "get_session", get_session)
    monkeypatch.setattr(FletApp, "_FletApp__on_message", on_message)
    monkeypatch.setattr(guard, "build_event", lambda control, name, data: None)
    return known, given


def _frame(route: str = "/game/g1") -> bytes:
    page = {"route": route, "width": 360.0, "height": 740.0, "web": True}
    body = {"session_id": "s1", "page_name": "", "page": page}
    return b"\x00" + msgpack.packb([REGISTER, body])


def _reattach(ip: str, frame: bytes) -> tuple[Any, _Socket]:
    """One new connection from ``ip`` that sends ``frame``, and its socket; its handlers run
    to their end, then it loses its session again."""
    conn = _bare_connection(None, ip)
    conn.registered, conn.keyed, conn.typing = False, False, set()
    conn._FletApp__client_ip, conn._FletApp__client_user_agent = ip, "phone"
    conn.page_name = ""
    socket = _Socket([frame])

    async def run() -> None:
        await conn._receive(socket)
        await asyncio.gather(*list(conn.tasks))

    asyncio.run(run())
    if conn._FletApp__session is not None:
        conn._FletApp__session.connection = None  # the phone's screen went dark again
    return conn, socket


def test_a_reattach_is_charged_to_its_address_and_the_watchers(
    budgets: list[float], flet_reattach: tuple[_Known, list[dict[str, Any]]]
) -> None:
    known, given = flet_reattach
    ip = "198.51.100.210"
    guard._PEERS[known] = guard.Peer(ip, False, False)
    _conn, socket = _reattach(ip, _frame())
    assert len(given) == 1 and socket.close_codes == []
    address, pool = guard.visitor_budgets(ip)
    assert address.level <= guard.VISITOR_CPU_BURST - SCREEN_SECONDS  # charged its screen
    assert pool.level <= guard.ALL_VISITORS_CPU_BURST - SCREEN_SECONDS
    assert guard._ALL_PLAYERS.level == guard.ALL_PLAYERS_CPU_BURST


def test_a_players_reattach_is_charged_to_the_players_pool(
    budgets: list[float], flet_reattach: tuple[_Known, list[dict[str, Any]]]
) -> None:
    known, _given = flet_reattach
    ip = "198.51.100.211"
    guard._PEERS[known] = guard.Peer(ip, False, False, joined=True)
    _reattach(ip, _frame())
    assert guard.visitor_budgets(ip)[0].level <= guard.VISITOR_CPU_BURST - SCREEN_SECONDS
    assert guard._ALL_PLAYERS.level <= guard.ALL_PLAYERS_CPU_BURST - SCREEN_SECONDS
    assert guard._ALL_VISITORS.level == guard.ALL_VISITORS_CPU_BURST


def test_reattaches_are_counted_per_session_then_refused_then_banned(
    budgets: list[float], flet_reattach: tuple[_Known, list[dict[str, Any]]]
) -> None:
    known, given = flet_reattach
    ip = "198.51.100.212"
    guard._PEERS[known] = guard.Peer(ip, False, False)
    burst = int(guard.REATTACH_SESSION_BURST)
    refused = int(getattr(guard, "REATTACH_REFUSED", 30))
    closes = []
    for _ in range(burst + refused + 1):  # the clock stopped: nothing refills
        conn, socket = _reattach(ip, _frame())
        closes.append((tuple(socket.close_codes), conn.flooded))
    ok, no, ban = ((), False), ((guard.CLOSE_POLICY,), False), ((guard.CLOSE_POLICY,), True)
    assert closes == [ok] * burst + [no] * refused + [ban]
    assert len(given) == burst  # the refused were never attached
    assert guard._banned(ip, time.monotonic())
    guard._BANNED.pop(guard.live.address_key(ip), None)
    budgets[0] += 1 / guard.REATTACH_PER_SESSION  # a moment later: one more
    _conn, socket = _reattach(ip, _frame())
    assert socket.close_codes == [] and len(given) == burst + 1


def test_another_route_on_reattach_is_a_route_change_the_guard_dispatches(
    budgets: list[float], flet_reattach: tuple[_Known, list[dict[str, Any]]]
) -> None:
    """Flet's own re-attach started the route handler for a new route itself, charged to
    nobody: now Flet is not given the route; the guard dispatches the route change, charged."""
    known, given = flet_reattach
    ip = "198.51.100.213"
    guard._PEERS[known] = guard.Peer(ip, False, False)
    _reattach(ip, _frame("/rules/rummy101"))
    assert [("route" in g) for g in given] == [False]
    assert known.routes == ["/rules/rummy101"] and known.page.route == "/rules/rummy101"
    _reattach(ip, _frame("/rules/rummy101"))  # the same route again: no route change
    assert known.routes == ["/rules/rummy101"]


def test_a_wifi_blip_of_many_phones_of_one_ipv6_network_is_never_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # retest (session 12): 26 phones of one /64 coming back at once were counted together and
    # the whole /64 was banned; each session now has its own count (one re-attach each)
    monkeypatch.setattr(guard, "_REATTACH", {})
    monkeypatch.setattr(guard, "_REATTACH_REFUSED", {})
    now = 1000.0
    for phone in range(40):
        ip = f"fd00:1::{phone + 16:x}"
        for session in range(3):  # three tabs each
            assert guard.reattach_ok(ip, now, f"s{phone}-{session}")
    # one session re-attaching over and over is refused, then its address banned
    said = [guard.reattach_ok("fd00:1::99", now, "again") for _ in range(4)]
    assert said == [True] * 4
    refused = 0
    with pytest.raises(guard.Flood):
        while not guard.reattach_ok("fd00:1::99", now, "again"):
            refused += 1
    assert refused == guard.REATTACH_REFUSED


def test_a_player_whose_code_was_replaced_is_a_watcher_again() -> None:
    # retest (session 12): a phone the host shut out by a new code kept the players' pool
    # and turn; the rank now asks whether its code still holds
    holds = [True]
    peer = guard.Peer("198.51.100.230", False, False, joined=True, still=lambda: holds[0])
    assert peer.player() and guard.rank_of(peer) == 0
    assert guard.peer_budgets(peer)[1] is guard._ALL_PLAYERS
    holds[0] = False  # the host made a new code
    assert not peer.player() and guard.rank_of(peer) == 1
    assert guard.peer_budgets(peer)[1] is guard._ALL_VISITORS
    broken = guard.Peer("198.51.100.231", False, False, joined=True, still=lambda: 1 / 0 > 0)
    assert not broken.player()  # the store unreadable: a watcher until it is back
