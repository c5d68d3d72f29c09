"""Holes shut in session 9, attacked as a hostile page or phone would, at the protocol level
(the served app and the raw client of ``tests/test_attack.py``):

- **DNS rebinding**: a site that re-points its own name at 127.0.0.1 has its page, opened in
  the host's browser, connect from loopback with its own name as ``Host`` and ``Origin``. It
  used to get the host's rights; now a loopback connection has them only under an address,
  ``localhost`` or this computer's own name (``guard.host_name_trusted``), else it is a phone
  without rights (not refused), and the host key still makes it the host.
- **The join code in the address bar** after a QR join: replaced by the address without it.
- **Forged page events** (``locale_change``, ``view_pop``, ``resize`` with data Flet's parser
  cannot read) used to leave a traceback in the log per session: dropped with a debug line.
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest
import websockets

from app import guard
from app.guard import clean_page_event, host_name_of, host_name_trusted
from tests.test_attack import CODE, Raw, Served, attack, is_host, phone_address, served

__all__ = ["served"]  # the module's served app (a fixture of tests/test_attack.py)

REBIND = "rebind-attacker.example"


class Named(Raw):
    """A raw client whose WebSocket is sent to this computer under the ``Host`` name
    ``name`` (with the port, or without: ``port=False``) and the matching ``Origin``, as a
    browser's page at that name would; it also keeps the client calls it was asked for."""

    def __init__(self, srv: Served, name: str, port: bool = True) -> None:
        super().__init__(srv)
        self.name = name
        self.with_port = port
        self.calls: list[tuple[str, Any]] = []

    async def _open(self) -> Any:
        netloc = f"{self.name}:{self.srv.port}" if self.with_port else self.name
        return await websockets.connect(
            f"ws://{netloc}/ws",
            host="127.0.0.1",
            port=self.srv.port,
            origin=websockets.Origin(f"http://{netloc}"),
            proxy=None,
            max_size=None,
            open_timeout=20,
        )

    async def _answer(self, body: dict[str, Any]) -> None:
        self.calls.append((str(body.get("name")), body.get("args")))
        await super()._answer(body)


class Recording(Raw):
    """A phone (raw client) that keeps the client calls it was asked for."""

    def __init__(self, srv: Served, address: str | None = None) -> None:
        super().__init__(srv, address)
        self.calls: list[tuple[str, Any]] = []

    async def _answer(self, body: dict[str, Any]) -> None:
        self.calls.append((str(body.get("name")), body.get("args")))
        await super()._answer(body)


# -- DNS rebinding -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("host", "trusted"),
    [
        ("127.0.0.1:8550", True),
        ("127.0.0.1", True),  # no port
        ("[::1]:8550", True),
        ("[::1]", True),
        ("192.168.1.10:8550", True),  # the computer's own LAN address
        ("localhost:8550", True),
        ("LOCALHOST:8550", True),  # upper case
        ("localhost.:8550", True),  # a trailing dot
        ("localhost", True),
        ("table.localhost:8550", True),  # browsers resolve *.localhost to loopback
        (f"{REBIND}:8550", False),
        (REBIND.upper(), False),
        (f"{REBIND}.:8550", False),
        ("rummy-table.test:8550", False),
        ("localhost.rebind-attacker.example", False),
        ("evillocalhost:8550", False),
        ("2130706433:8550", False),  # not an address a browser sends (it writes 127.0.0.1)
        ("", False),
        (None, False),  # no Host at all
        ("::1", False),  # an IPv6 address must be in brackets
        ("[::1", False),
        ("[::1]:x", False),
        ("[localhost]:8550", False),  # brackets hold an IPv6 address only
        ("[::ffff:127.0.0.1]:8550", True),
        ("localhost:", False),
        ("localhost:port", False),
    ],
)
def test_host_rights_from_loopback_only_under_an_address_or_this_computers_name(
    host: str | None, trusted: bool
) -> None:
    assert host_name_trusted(host) is trusted


def test_this_computers_own_name_in_every_spelling_is_trusted() -> None:
    short = socket.gethostname().split(".")[0]
    # (a Mac's own name is a .local one, not trusted: its first label is)
    name = socket.gethostname() if not guard.mdns_name(socket.gethostname().lower()) else short
    for spelling in (name, name.upper(), f"{name}.", f"{short}:8550", f"{short.upper()}.:8550"):
        assert host_name_trusted(spelling), spelling
    # not its mDNS name (session 10: tests/test_attack_host_key.py)
    assert not host_name_trusted(f"{short}.local")
    assert host_name_of("[::1]:8550") == "::1"
    assert host_name_of("Localhost.:80") == "localhost"


def test_a_rebinding_sites_page_in_the_hosts_browser_gets_no_host_rights(served: Served) -> None:
    async def body(witness: Raw) -> None:
        assert is_host(witness)
        evil = await Named(served, REBIND).connect(route=f"/share?game={served.game_id}")
        await evil.go("/new")
        assert await evil.wait(lambda: evil.saw("Only the host's computer can start"))
        for route in (f"/share?game={served.game_id}", "/share"):
            await evil.go(route)
            assert await evil.wait(lambda: evil.saw("^Join a table$"))
        await evil.go(f"/game/{served.game_id}/round")
        await asyncio.sleep(0.3)
        assert not is_host(evil)
        assert not evil.saw(CODE) and not evil.saw(CODE[:4] + " " + CODE[4:])
        assert not evil.closed.is_set()  # served as a phone, not refused
        await evil.alive()
        # the same without a port, in capitals
        bare = await Named(served, REBIND.upper(), port=False).connect(route="/share")
        assert await bare.wait(lambda: bare.saw("^Join a table$"))
        assert not is_host(bare)
        await evil.close()
        await bare.close()

    attack(served, body)


def test_the_host_key_gives_the_host_rights_under_any_name(served: Served) -> None:
    async def body(_w: Raw) -> None:
        keyed = await Named(served, "rummy-table.test").connect(route=f"/?key={served.host_key}")
        assert await keyed.wait(lambda: is_host(keyed))
        await keyed.close()

    attack(served, body)


@pytest.mark.parametrize(
    ("name", "port"),
    [
        ("localhost", True),
        ("LOCALHOST.", True),
        ("localhost", False),
        ("[::1]", True),
        ("127.0.0.1", False),
        (socket.gethostname().split(".")[0].upper(), True),  # its own name (not .local)
    ],
)
def test_this_computer_under_its_own_names_is_the_host(
    served: Served, name: str, port: bool
) -> None:
    async def body(_w: Raw) -> None:
        host = await Named(served, name, port).connect()
        assert await host.wait(lambda: is_host(host))
        await host.close()

    attack(served, body)


# -- the join code leaves the address bar --------------------------------------------------------
def test_a_qr_join_takes_the_code_out_of_the_address(served: Served) -> None:
    async def body(_w: Raw) -> None:
        phone = Recording(served, phone_address())
        await phone.connect(route=f"/game/{served.game_id}/round?code={CODE}&n=2")
        want = ("push_route", {"route": f"/game/{served.game_id}/round?n=2"})
        assert await phone.wait(lambda: want in phone.calls), phone.calls
        assert not any(CODE in str(args) for name, args in phone.calls if name == "push_route")
        await asyncio.sleep(0.3)
        assert not phone.saw("^Join a table$")  # joined: the round entry, not the join screen
        # a wrong code is not joined and stays where it was (nothing to hide)
        wrong = Recording(served, phone_address())
        await wrong.connect(route=f"/game/{served.game_id}?code=ZZZZZZZZ")
        assert await wrong.wait(lambda: wrong.saw("That join code is not right"))
        assert not [c for c in wrong.calls if c[0] == "push_route"]
        await phone.close()
        await wrong.close()

    attack(served, body)


# -- forged page events --------------------------------------------------------------------------
FORGED_PAGE_EVENTS: list[tuple[str, Any]] = [
    ("locale_change", {"locales": "xx"}),
    ("locale_change", {"locales": [1, 2]}),
    ("locale_change", {"locales": [{"language_code": ["pl"]}]}),
    ("locale_change", {"locales": [{"language_code": "x" * 100}]}),
    ("locale_change", {"locales": [{}] * 1000}),
    ("locale_change", "pl"),
    ("locale_change", None),
    ("view_pop", {"route": 5}),
    ("view_pop", {"view": 1}),
    ("view_pop", {}),
    ("view_pop", "x"),
    ("resize", {"width": "wide", "height": 1}),
    ("resize", {"width": [1], "height": 1}),
    ("resize", {"width": 1e308 * 10, "height": 1}),
]


@pytest.mark.parametrize(("name", "data"), FORGED_PAGE_EVENTS)
def test_forged_page_event_data_is_malformed(name: str, data: Any) -> None:
    assert clean_page_event(name, data) is None


def test_the_web_clients_own_page_events_are_kept() -> None:
    locales = {"locales": [{"language_code": "pl", "country_code": "PL", "script_code": None}]}
    assert clean_page_event("locale_change", locales) == locales
    assert clean_page_event("locale_change", {"locales": []}) == {"locales": []}
    assert clean_page_event("view_pop", {"route": "/game/x"}) == {"route": "/game/x"}
    # a view sent along is dropped (Flet would build a View control from the phone's data)
    forged = {"route": "/", "view": {"controls": [{"_c": "Text"}]}, "control": 1}
    assert clean_page_event("view_pop", forged) == {"route": "/"}
    assert clean_page_event("resize", {"width": 360, "height": 740.5}) == {
        "width": 360.0,
        "height": 740.5,
    }


def test_forged_page_events_leave_no_traceback_and_the_session_goes_on(served: Served) -> None:
    before = served.log.read_text(errors="replace")
    assert guard.VISITOR_LIMITS.strikes > len(FORGED_PAGE_EVENTS)  # each a wrong message

    async def body(witness: Raw) -> None:
        phone = await Raw(served, phone_address()).connect(route=f"/game/{served.game_id}")
        for client in (phone, witness):  # a phone, and the host's own browser
            for name, data in FORGED_PAGE_EVENTS:
                await client.event(1, name, data)
            await client.event(1, "view_pop", {"route": "/", "view": {"controls": [1]}})
            await client.alive()  # still served
            assert not client.crashes and not client.closed.is_set()
        await phone.close()

    attack(served, body)
    added = served.log.read_text(errors="replace")[len(before) :]
    assert "Traceback" not in added and "unhandled error" not in added, added[-3000:]


# -- FastAPI's own pages -------------------------------------------------------------------------
def test_no_api_pages_are_served(served: Served) -> None:
    """``/docs``, ``/redoc`` and ``/openapi.json`` (FastAPI's, loading scripts from a CDN) are
    not served: the addresses get the app's page or nothing."""
    import urllib.error
    import urllib.request

    for path in ("/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect"):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{served.port}{path}", timeout=20) as r:
                body = r.read().decode(errors="replace")
        except urllib.error.HTTPError as e:
            assert e.code == 404, path
            continue
        assert "swagger" not in body.lower() and "redoc" not in body.lower(), path
        assert '"openapi"' not in body, path


def test_no_page_may_be_shown_in_another_sites_frame(served: Served) -> None:
    """Every answer forbids framing (the hostile tester's finding: in a frame the app's
    websocket carries the app's own Origin, so a site could lay buttons over the host's
    screen)."""
    import urllib.request

    for path in ("/", "/game/x/round", "/manifest.json"):
        with urllib.request.urlopen(f"http://127.0.0.1:{served.port}{path}", timeout=20) as r:
            assert r.headers.get("X-Frame-Options") == "DENY", path
            [policy] = r.headers.get_all("Content-Security-Policy")  # one policy, not two
            assert "frame-ancestors 'none'" in policy, path
