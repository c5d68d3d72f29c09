"""Slow-loris at the HTTP layer: open HTTP connections per visitor address are capped and a
request header must come within ``guard.HEADER_SECONDS`` (hostile-phone findings: 1,100
sockets from one address, each sending an unfinished header slowly, were all held 50 s and,
under ``ulimit -n 1024``, locked the host out; the log took 54 MB of accept errors).

uvicorn's own HTTP protocols (h11 and httptools) with the guard's class around them, as
``python -m app`` builds them (``guard.install`` patches ``uvicorn.Config``), fed bytes over a
stand-in transport whose peer address is a phone's; the header clock is ticked by hand (no
waiting, no timed assertion).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from app import guard


class _Transport:
    """An asyncio transport from ``peer``: records close/abort and what was written."""

    def __init__(self, peer: str) -> None:
        self.peer = (peer, 40000)
        self.closed = False
        self.aborted = False
        self.written = b""

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": self.peer, "sockname": ("192.0.2.2", 8550)}.get(name, default)

    def is_closing(self) -> bool:
        return self.closed or self.aborted

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.aborted = True

    def write(self, data: bytes) -> None:
        self.written += data

    def set_protocol(self, _p: Any) -> None: ...
    def pause_reading(self) -> None: ...
    def resume_reading(self) -> None: ...


async def _never_answers(scope: Any, receive: Any, send: Any) -> None:
    await asyncio.sleep(3600)


def _protocol_class(http: str, app: Any = _never_answers) -> Any:
    guard.install()
    import uvicorn
    from uvicorn.server import ServerState

    config = uvicorn.Config(app, http=http, log_level="critical", lifespan="off")
    config.load()
    state = ServerState()

    def make() -> Any:
        return config.http_protocol_class(config=config, server_state=state, app_state={})  # type: ignore[call-arg]

    return make


def _open(make: Any, peer: str) -> tuple[Any, _Transport]:
    proto, transport = make(), _Transport(peer)
    proto.connection_made(transport)
    return proto, transport


@pytest.mark.parametrize("http", ["h11", "httptools"])
def test_open_http_connections_per_visitor_address_are_capped(http: str) -> None:
    async def run() -> None:
        make = _protocol_class(http)
        phone = f"203.0.113.{10 if http == 'h11' else 11}"
        held = [_open(make, phone) for _ in range(guard.HTTP_CONNECTIONS_PER_ADDRESS)]
        assert not any(t.is_closing() for _, t in held)
        assert guard.http_open(phone) == guard.HTTP_CONNECTIONS_PER_ADDRESS
        extra = [_open(make, phone) for _ in range(50)]
        # over the cap: at most HTTP_WAITING_PER_ADDRESS wait for a header (served only with
        # the host key); each one more closes the oldest waiting, so the socket is freed
        waiting = guard.HTTP_WAITING_PER_ADDRESS
        assert all(t.aborted for _, t in extra[: 50 - waiting])
        assert not any(t.is_closing() for _, t in extra[50 - waiting :])
        assert guard.http_open(phone) == guard.HTTP_CONNECTIONS_PER_ADDRESS
        assert guard.http_waiting(phone) == waiting
        for p, _t in extra:
            p.connection_lost(None)
        assert guard.http_waiting(phone) == 0
        other = _open(make, "203.0.113.99")[1]  # another phone is not affected
        assert not other.is_closing()
        host = [_open(make, "127.0.0.1")[1] for _ in range(100)]  # the host always gets in
        assert not any(t.is_closing() for t in host)
        held[0][0].connection_lost(None)
        assert not _open(make, phone)[1].is_closing()  # a freed place can be taken again
        for p, _t in held[1:]:
            p.connection_lost(None)

    asyncio.run(run())


@pytest.mark.parametrize("http", ["h11", "httptools"])
def test_an_unfinished_request_header_is_closed_at_the_next_tick(http: str) -> None:
    async def run() -> None:
        make = _protocol_class(http)
        phone = "203.0.113.20"
        slow, slow_t = _open(make, phone)
        slow.data_received(b"GET / HTTP/1.1\r\nHost: 192.0.2.2\r\n")
        slow.data_received(b"X-a: b\r\n")  # one more line now and then
        slow._guard_tick()
        assert slow_t.closed
        slow.connection_lost(None)
        # a whole header: its request is being answered (however long) and stays open
        busy, busy_t = _open(make, phone)
        busy.data_received(b"GET / HTTP/1.1\r\nHost: 192.0.2.2\r\n\r\n")
        await asyncio.sleep(0)
        for _ in range(3):
            busy._guard_tick()
        assert not busy_t.is_closing()
        busy.connection_lost(None)
        assert guard.http_open(phone) == 0
        # the host's own connections are not timed
        host, host_t = _open(make, "127.0.0.1")
        host.data_received(b"GET / HTTP/1.1\r\n")
        assert host._guard_timer is None and not host_t.is_closing()

    asyncio.run(run())


KEY = "K" * 32


async def _answers(scope: Any, receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"the page"})


@pytest.mark.parametrize("http", ["h11", "httptools"])
def test_over_the_cap_only_the_host_pass_or_key_is_served(
    http: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Session 10: sockets held from a shared address (the 32 HTTP connections) used to keep
    a host's device at that address out, the host key's page and WebSocket included."""
    from app import live

    monkeypatch.setattr(live, "_host_key", KEY)
    name = guard.pass_cookie_name(8550)
    cookie = f"Cookie: a=1; {name}={live.pass_for(KEY)}\r\n".encode()

    async def run() -> None:
        make = _protocol_class(http, _answers)
        phone = f"203.0.113.{30 if http == 'h11' else 31}"
        held = [_open(make, phone) for _ in range(guard.HTTP_CONNECTIONS_PER_ADDRESS)]

        async def ask(request: bytes) -> tuple[Any, _Transport]:
            proto, transport = _open(make, phone)
            assert not transport.is_closing()  # waiting for its header
            proto.data_received(request)
            for _ in range(5):
                await asyncio.sleep(0)
            return proto, transport

        # no pass, a wrong pass, another port's cookie: 503, closed
        for head in (
            b"",
            f"Cookie: {name}={'x' * 43}\r\n".encode(),
            f"Cookie: {name}={KEY}\r\n".encode(),  # the key is not the pass
            f"Cookie: {guard.pass_cookie_name(8551)}={live.pass_for(KEY)}\r\n".encode(),
        ):
            _p, t = await ask(b"GET / HTTP/1.1\r\nHost: 192.0.2.2:8550\r\n" + head + b"\r\n")
            assert t.written.startswith(b"HTTP/1.1 503"), t.written[:40]
            assert t.is_closing() and guard.http_waiting(phone) == 0
        # the pass cookie, or the key URL itself: served
        for target, head in ((b"/", cookie), (f"/?a=1&key={KEY}".encode(), b"")):
            p, t = await ask(
                b"GET " + target + b" HTTP/1.1\r\nHost: 192.0.2.2:8550\r\n" + head + b"\r\n"
            )
            assert t.written.startswith(b"HTTP/1.1 200") and b"the page" in t.written
            assert not t.is_closing() and p._guard_timer is not None  # still timed
            assert guard.http_waiting(phone) == 0
            assert guard.http_open(phone) == guard.HTTP_CONNECTIONS_PER_ADDRESS  # not counted
            p.connection_lost(None)
        # a WebSocket upgrade: with the pass cookie handed on, without it closed
        upgraded: list[Any] = []
        monkeypatch.setattr(
            type(held[0][0]).__mro__[1],
            "handle_websocket_upgrade",
            lambda s, *a: upgraded.append(s),
        )
        ws = (
            b"GET /ws HTTP/1.1\r\nHost: 192.0.2.2:8550\r\nConnection: Upgrade\r\n"
            b"Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
            b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        )
        bare, bare_t = await ask(ws + b"\r\n")
        assert bare_t.aborted and not upgraded
        keyed, keyed_t = await ask(ws + cookie + b"\r\n")
        assert upgraded == [keyed] and not keyed_t.is_closing()
        assert guard.http_waiting(phone) == 0
        for p, _t in held:
            p.connection_lost(None)
        bare.connection_lost(None)
        keyed.connection_lost(None)
        assert guard.http_open(phone) == 0

    asyncio.run(run())


def test_accept_errors_are_logged_once_per_interval(caplog: pytest.LogCaptureFixture) -> None:
    guard.install()
    logger = logging.getLogger("asyncio")
    assert any(isinstance(f, guard.OncePerInterval) for f in logger.filters)
    with caplog.at_level(logging.ERROR, logger="asyncio"):
        for _ in range(1000):
            try:
                raise OSError(24, "Too many open files")
            except OSError:
                logger.error(guard.ACCEPT_FAILED, exc_info=True)
        logger.error("something else")
    lines = [r for r in caplog.records if r.name == "asyncio"]
    assert len(lines) <= 2 and lines[-1].getMessage() == "something else"


def test_the_open_files_limit_is_raised_to_the_hard_one() -> None:
    resource = pytest.importorskip("resource")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(256, hard), hard))
        before, after = guard.raise_open_files_limit()
        assert before == min(256, hard)
        assert after == (hard if hard != resource.RLIM_INFINITY else max(before, 1 << 16))
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
