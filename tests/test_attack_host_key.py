"""Session 10: the host key before the address limits, and ``.local`` names, attacked at the
protocol level (the served app and the raw client of ``tests/test_attack.py``).

- A host who opened the key URL on a device at a shared address (``192.168.1.5``, a phone
  behind one NAT) used to be locked out by anything else using that address: its 16
  WebSockets, 12 sessions or a 60-s ban were checked before the key. Now the page opened with
  ``?key=`` sets a pass derived from the key as a cookie (``guard.HostKeyCookie``), every
  WebSocket of that browser shows it in its upgrade, and the guard checks it first; the key in
  the route of the first message counts for the session limit too. A wrong pass or key is a
  wrong message and gets nothing; the pass alone gives no rights (the key does).
- ``<this computer>.local`` is an mDNS name any device on the Wi-Fi may answer for (then
  rebind to this computer): a loopback connection under it is a watcher, like any other name.
"""

from __future__ import annotations

import asyncio
import functools
import math
import socket
import urllib.request
from typing import Any

import pytest
import websockets

from app import guard, live
from app.guard import (
    HostKeyCookie,
    cookie_values,
    host_name_trusted,
    pass_cookie_name,
    presented_pass,
    route_key,
)
from tests.test_attack import CODE, EVENT, Raw, Served, attack, is_host, phone_address, served
from tests.test_attack_session9 import Named

__all__ = ["served"]  # the module's served app (a fixture of tests/test_attack.py)


class Keyed(Raw):
    """A raw client from ``address`` whose WebSocket upgrade carries ``cookie`` (the
    ``Cookie`` header a browser sends with it) and, with ``stored``, whose storage holds the
    host key (a browser that opened the key URL keeps both)."""

    def __init__(
        self, srv: Served, address: str | None, cookie: str | None, stored: bool = True
    ) -> None:
        super().__init__(srv, address)
        self.cookie = cookie
        if stored:
            self.answers[live.HOST_KEY_PREF] = srv.host_key

    async def _open(self) -> Any:
        headers = {"X-Forwarded-For": self.address} if self.address else {}
        if self.cookie is not None:
            headers["Cookie"] = self.cookie
        return await websockets.connect(
            self.srv.ws, additional_headers=headers, max_size=None, open_timeout=20
        )


def pass_cookie(srv: Served, value: str | None = None) -> str:
    """The ``Cookie`` header of a browser that opened the key URL of ``srv`` (its pass)."""
    return f"{pass_cookie_name(srv.port)}={live.pass_for(srv.host_key) if value is None else value}"


async def refused(client: Raw, route: str = "/") -> bool:
    """Is ``client`` refused (no screen: closed before or at its first message)?"""
    try:
        await client.connect(route=route)
    except Exception:  # noqa: BLE001 - refused at the handshake, or closed with no screen
        return True
    await client.close()
    return False


async def ban(srv: Served, address: str) -> None:
    """Make ``address`` banned (a flood of bogus events closes its connection)."""
    flooder = await Raw(srv, address).connect()
    for n in range(5_000):
        await flooder.send(EVENT, {"target": 10_000_000 + n, "name": "click", "data": None})
        if flooder.closed.is_set():
            break
    assert await flooder.wait(lambda: flooder.closed.is_set(), 20)


# -- the key before the limits -------------------------------------------------------------------
def test_the_host_is_served_at_an_address_whose_connections_are_used_up(served: Served) -> None:
    async def body(_w: Raw) -> None:
        address = phone_address()
        held = [
            await websockets.connect(served.ws, additional_headers={"X-Forwarded-For": address})
            for _ in range(guard.MAX_CONNECTIONS_PER_ADDRESS)
        ]  # sockets that never register: the address's 16 connections
        assert await refused(Raw(served, address))
        assert await refused(Keyed(served, address, pass_cookie(served, "x" * 43)))  # wrong
        # the key itself is not the pass (a cookie holding the key is a wrong pass)
        assert await refused(Keyed(served, address, pass_cookie(served, served.host_key)))
        host = await Keyed(served, address, pass_cookie(served)).connect()
        assert await host.wait(lambda: is_host(host))
        # the pass's own connections are not counted: a second tab of the host is served too
        tab = await Keyed(served, address, pass_cookie(served)).connect()
        assert await tab.wait(lambda: is_host(tab))
        await host.alive()
        for ws in held:
            await ws.close()
        await host.close()
        await tab.close()

    attack(served, body)


def test_the_host_is_served_at_a_banned_address(served: Served) -> None:
    async def body(_w: Raw) -> None:
        address = phone_address()
        await ban(served, address)
        assert await refused(Raw(served, address))  # the ban holds without the pass
        wrong = live.pass_for(served.host_key)[:-1]
        assert await refused(Keyed(served, address, pass_cookie(served, wrong)))
        assert await refused(Keyed(served, address, f"other=1; {pass_cookie(served, '')}"))
        # the key in the route alone comes after the handshake: the ban is checked before
        assert await refused(Raw(served, address), route=f"/?key={served.host_key}")
        host = await Keyed(served, address, f"a=1; {pass_cookie(served)}; b=2").connect()
        assert await host.wait(lambda: is_host(host))
        await host.alive()
        await host.close()

    attack(served, body)


def test_the_pass_alone_gives_no_rights(served: Served) -> None:
    """The pass lets a device past its address's limits; the rights come from the key (in
    the address or the browser's storage), so a pass sent where it should not go (a cookie
    goes to every port of a name) gives nothing more."""

    async def body(_w: Raw) -> None:
        address = phone_address()
        await ban(served, address)
        bare = await Keyed(served, address, pass_cookie(served), stored=False).connect("/share")
        assert await bare.wait(functools.partial(bare.saw, "^Join a table$"))  # served ...
        assert not is_host(bare)  # ... as a phone
        await bare.go("/new")
        assert await bare.wait(functools.partial(bare.saw, "Only the host's computer can start"))
        assert not bare.saw(CODE) and not bare.saw(CODE[:4] + " " + CODE[4:])
        await bare.close()

    attack(served, body)


def test_the_host_is_served_at_an_address_whose_sessions_are_used_up(served: Served) -> None:
    async def body(_w: Raw) -> None:
        address = phone_address()
        held = [await Raw(served, address).connect() for _ in range(guard.MAX_SESSIONS_PER_ADDRESS)]
        assert await refused(Raw(served, address))
        assert await refused(Raw(served, address), route="/?key=" + "x" * 32)  # a wrong key
        # the key URL's first session (no cookie yet) and a later one (the pass cookie)
        first = Raw(served, address)
        await first.connect(route=f"/?key={served.host_key}")
        assert await first.wait(lambda: is_host(first))
        later = await Keyed(served, address, pass_cookie(served)).connect()
        assert await later.wait(lambda: is_host(later))
        assert not any(is_host(c) for c in held)
        await later.alive()
        for c in (*held, first, later):
            await c.close()

    attack(served, body)


def test_a_cookie_of_another_port_or_a_wrong_pass_gives_nothing(served: Served) -> None:
    good = live.pass_for(served.host_key)

    async def body(_w: Raw) -> None:
        for cookie in (
            f"{pass_cookie_name(served.port + 1)}={good}",  # another run's port
            f"{guard.PASS_COOKIE}={good}",  # no port
            pass_cookie(served, good.swapcase()),
            pass_cookie(served, served.host_key),  # the key is not the pass
            pass_cookie(served, "x" * 5000),
        ):
            phone = Keyed(served, phone_address(), cookie, stored=False)
            await phone.connect(route="/share")
            assert await phone.wait(functools.partial(phone.saw, "^Join a table$")), cookie[:40]
            assert not is_host(phone), cookie[:40]
            await phone.close()

    attack(served, body)


def test_the_page_opened_with_the_key_sets_the_pass_cookie(served: Served) -> None:
    def get(path: str, cookie: str | None = None) -> list[str]:
        req = urllib.request.Request(f"http://127.0.0.1:{served.port}{path}")
        req.add_header("X-Forwarded-For", phone_address())
        if cookie is not None:
            req.add_header("Cookie", cookie)
        with urllib.request.urlopen(req, timeout=30) as answer:
            return answer.headers.get_all("set-cookie") or []

    name = pass_cookie_name(served.port)
    good = live.pass_for(served.host_key)
    for path in (f"/?key={served.host_key}", f"/game/{served.game_id}?a=1&key={served.host_key}"):
        (cookie,) = get(path)  # one header (Flet mounts its app in another)
        assert cookie.startswith(f"{name}={good};"), cookie
        assert served.host_key not in cookie  # the pass, not the key
        assert {"HttpOnly", "SameSite=Strict", "Path=/"} <= {p.strip() for p in cookie.split(";")}
    assert get("/?key=" + served.host_key[:-1]) == []
    assert get("/") == []
    assert get("/", pass_cookie(served)) == []  # a good cookie is left as it is
    (gone,) = get("/", pass_cookie(served, "stale-pass-of-a-run-before"))
    assert gone.startswith(f"{name}=;") and "Max-Age=0" in gone


# -- the pieces, in process ----------------------------------------------------------------------
def test_the_pass_cookie_and_route_key_are_read_strictly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(live, "_host_key", "K" * 32)
    good = live.host_pass()
    assert good == live.pass_for("K" * 32) and len(good) == 43 and "K" * 8 not in good
    assert live.host_pass_ok(good) and not live.host_pass_ok("K" * 32)
    assert not live.host_pass_ok(good[:-1]) and not live.host_pass_ok(None)
    name = pass_cookie_name(8550)
    assert name == "rummy_referee_pass_8550" and pass_cookie_name(None) == "rummy_referee_pass"
    assert pass_cookie_name(True) == "rummy_referee_pass"
    assert cookie_values(f'a=1; {name}=x; {name}="y"', name) == ["x", "y"]
    assert cookie_values(None, name) == [] and cookie_values(f"{name}x=1", name) == []
    assert presented_pass(f"{name}={good}", 8550) is True
    assert presented_pass(f"{name}=old; {name}={good}", 8550) is True  # two paths
    assert presented_pass(f"{name}={good[:-1]}", 8550) is False
    assert presented_pass(f"{name}={'K' * 32}", 8550) is False  # the key is not the pass
    assert presented_pass(f"{name}=", 8550) is False
    assert presented_pass(f"{pass_cookie_name(8551)}={good}", 8550) is None
    assert presented_pass(None, 8550) is None
    monkeypatch.setattr(live, "_host_key", "")  # no key made: no pass either
    assert live.host_pass() is None and not live.host_pass_ok("")
    assert route_key(f"/game/x?a=1&key={'K' * 32}") == "K" * 32
    assert route_key("/game/x?a=1") is None and route_key("/key=K") is None
    assert route_key("/?a=" + "x" * 5000 + "&key=K") is None  # too long to read
    assert route_key(5) is None


def test_the_cookie_header_for_a_request(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "_host_key", "K" * 32)
    good = live.pass_for("K" * 32).encode()

    def scope(query: bytes, cookie: bytes | None = None) -> dict[str, Any]:
        headers = [(b"host", b"192.168.1.5:8550")] + ([(b"Cookie", cookie)] if cookie else [])
        return {"type": "http", "server": ("192.168.1.5", 8550), "query_string": query,
                "headers": headers}  # fmt: skip

    got = HostKeyCookie.cookie_header(scope(b"key=" + b"K" * 32))
    assert got == (
        b"rummy_referee_pass_8550=" + good + b"; Path=/; Max-Age=2592000; HttpOnly; SameSite=Strict"
    )
    assert HostKeyCookie.cookie_header(scope(b"key=nope")) is None
    assert HostKeyCookie.cookie_header(scope(b"")) is None
    stale = HostKeyCookie.cookie_header(scope(b"", b"rummy_referee_pass_8550=old"))
    assert stale is not None and b"Max-Age=0" in stale
    kept = HostKeyCookie.cookie_header(scope(b"", b"rummy_referee_pass_8550=" + good))
    assert kept is None


# -- .local names ---------------------------------------------------------------------------------
def test_mdns_names_of_this_computer_are_not_trusted(monkeypatch: pytest.MonkeyPatch) -> None:
    name = socket.gethostname()
    short = name.split(".")[0]
    for spelling in (f"{short}.local", f"{short.upper()}.LOCAL.:8550", f"{name}.local"):
        assert not host_name_trusted(spelling), spelling
    assert host_name_trusted(f"{short}:8550")  # its plain name stays trusted
    # a computer whose own name is an mDNS one (a Mac: "Alas-MacBook.local")
    monkeypatch.setattr(guard, "_OWN_NAMES", None)
    monkeypatch.setattr(socket, "gethostname", lambda: "Alas-MacBook.local")
    monkeypatch.setattr(socket, "getfqdn", lambda: "alas-macbook.local")
    assert guard.own_names() == frozenset({"alas-macbook"})
    assert not host_name_trusted("alas-macbook.local:8550")
    assert host_name_trusted("Alas-MacBook:8550")
    monkeypatch.setattr(guard, "_OWN_NAMES", None)  # looked up again by the next caller


def test_a_page_under_this_computers_local_name_is_a_watcher(served: Served) -> None:
    local = socket.gethostname().split(".")[0] + ".local"

    async def body(_w: Raw) -> None:
        page = await Named(served, local).connect(route="/share")
        assert await page.wait(lambda: page.saw("^Join a table$"))  # served, as a phone
        await page.go("/new")
        assert await page.wait(lambda: page.saw("Only the host's computer can start"))
        assert not is_host(page) and not page.closed.is_set()
        await page.close()
        # the host key still makes it the host
        keyed = await Named(served, local).connect(route=f"/?key={served.host_key}")
        assert await keyed.wait(lambda: is_host(keyed))
        await keyed.close()

    attack(served, body)


# -- another round on what changed since session 9 (navigation, the table's name sizes) -----------
def test_odd_routes_back_steps_and_screen_sizes_leave_no_error(served: Served) -> None:
    """Routes a browser never sends (bad escapes, huge numbers, a round that is not there),
    each followed by a Back (``view_pop``), from a phone that joined with the code, and a
    table display registered with sizes no screen has (NaN, infinite, negative): every
    session still answers, the log holds no error (the navigation of session 9 closes
    dialogs and compares unquoted paths; the table sizes each name by its own length)."""
    logged = len(served.log.read_bytes())
    g = served.game_id
    routes = [
        "/%",
        "/%ff",
        "//",
        "/game/%00",
        f"/game/{g}/round/%2e%2e",
        f"/game/{g}/round/999999999999999999999",
        f"/game/{g}/round/-1/edit",
        f"/game/{g}/round/0/edit",
        f"/game/{g}/round/1/edit/",
        f"/game/{g}//round",
        f"/history/{g}?x=%ff",
        "/players/%00%ff",
        "/players/" + "a" * 400,
        f"/game/{g}/table?key=x",
        "/season?from=9999-99-99&to=x",
        "/rules/%2e%2e",
        "/share?game=%00",
        "/join?code=" + "Z" * 400,
    ]

    async def body(_w: Raw) -> None:
        phone = Raw(served, phone_address())
        await phone.connect(route=f"/game/{g}/round?code={CODE}")
        for route in routes:
            await phone.go(route)
            await phone.event(1, "view_pop", {"route": route})
            await asyncio.sleep(0.1)
        await phone.alive()
        sizes = [(math.nan, math.inf), (-1e308, 1e308), (0, 0), (math.inf, math.nan)]
        for width, height in sizes:
            table = Raw(served, phone_address())
            await table.connect(route=f"/game/{g}/table", page={"width": width, "height": height})
            await table.event(1, "resize", {"width": width, "height": height})
            await table.alive()
            await table.close()
        assert not phone.closed.is_set() and not phone.crashes
        await phone.close()

    attack(served, body)
    log = served.log.read_bytes()[logged:].decode(errors="replace")
    assert "Traceback" not in log and "ERROR" not in log, log[-3000:]
