"""Big messages from a visitor: only a photo's shape is unpacked, and per address they are few.

A visitor with a photo picker pending may send a few messages up to ``guard.HOST_FRAME_MAX``
(the photo). Found by a hostile-phone tester: 8 MB of tiny msgpack objects instead of a photo
held every session's loop ~8 s while they were unpacked. These tests feed frames, as the
WebSocket hands them over, into the guard's receive loop in process (``_bare_connection``
of ``tests/test_attack.py``) and count what was unpacked and what was refused.
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgpack
import pytest

from app import guard
from tests.test_attack import INVOKE, _bare_connection, _Socket

SMALL = guard.BIG_REST_MAX + 64
"""The most bytes one ``msgpack.unpackb`` of a big message's handling may be given."""


class _Session:
    """A session with a photo picker pending, recording what the picker got back."""

    def __init__(self) -> None:
        self._guard_pending = {"pick_files": 1}
        self.index = {12: object()}
        self.results: list[Any] = []

    def handle_invoke_method_results(self, cid: int, call: str, result: Any, err: Any) -> None:
        self.results.append((cid, call, result, err))


def _answer(result: Any) -> bytes:
    body = {"control_id": 12, "call_id": "c1", "result": result, "error": None}
    return b"\x00" + msgpack.packb([INVOKE, body])


def _photo(data: bytes) -> list[dict[str, Any]]:
    return [{"id": 0, "name": "rack.jpg", "size": len(data), "path": None, "bytes": data}]


def _tiny_objects(n_bytes: int) -> bytes:
    """An answer whose result is ``n_bytes`` of tiny fixext objects (the tester's frame)."""
    one = msgpack.packb(msgpack.ExtType(9, b"x"))  # 3 bytes
    count = n_bytes // len(one)
    body = {"control_id": 12, "call_id": "c1", "error": None, "result": None}
    packed = msgpack.packb([INVOKE, body])
    assert packed.endswith(b"\xc0")  # the result, last: an array of ``count`` tiny objects
    body = packed[:-1] + b"\xdd" + count.to_bytes(4, "big") + one * count
    return b"\x00" + body


@pytest.fixture
def unpacked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Sizes of every payload ``msgpack.unpackb`` is given."""
    sizes: list[int] = []
    real = msgpack.unpackb

    def counting(data: Any, *args: Any, **kwargs: Any) -> Any:
        sizes.append(len(data))
        return real(data, *args, **kwargs)

    monkeypatch.setattr(msgpack, "unpackb", counting)
    return sizes


def _run(conn: Any, frames: list[bytes]) -> _Socket:
    socket = _Socket(frames)
    asyncio.run(conn._receive(socket))
    return socket


def test_the_frame_builder_makes_what_it_says() -> None:
    frame = _tiny_objects(3000)
    msg = msgpack.unpackb(frame[1:])
    assert msg[0] == INVOKE and len(msg[1]["result"]) == 1000


def test_a_big_frame_of_tiny_objects_is_refused_unread(unpacked: list[int]) -> None:
    session = _Session()
    conn = _bare_connection(session, "203.0.113.71")
    frame = _tiny_objects(1 << 20)
    assert len(frame) > guard.VISITOR_FRAME_MAX
    socket = _run(conn, [frame])
    assert conn.flooded and socket.close_codes == [guard.CLOSE_POLICY]
    assert socket.proto.transport.closed
    assert session.results == []
    assert all(n <= SMALL for n in unpacked), unpacked  # the 1 MB was never unpacked


def test_a_fake_header_in_front_of_tiny_objects_gets_nothing_unpacked(
    unpacked: list[int],
) -> None:
    session = _Session()
    conn = _bare_connection(session, "203.0.113.72")
    tiny = _tiny_objects(1 << 20)
    # bin32 headers claiming the rest of the frame, inside the small part
    fake = b"\x00" + b"\xc6" + (len(tiny) - 10).to_bytes(4, "big") + tiny[1:]
    socket = _run(conn, [fake])
    assert conn.flooded and socket.close_codes == [guard.CLOSE_POLICY]
    assert all(n <= SMALL for n in unpacked), unpacked


def test_a_real_photo_gets_through_and_costs_the_visitors_loop_budget(
    unpacked: list[int],
) -> None:
    ip = "203.0.113.73"
    session = _Session()
    conn = _bare_connection(session, ip)
    data = bytes(range(256)) * 4096  # 1 MiB
    socket = _run(conn, [_answer(_photo(data))])
    assert not conn.flooded and socket.close_codes == []
    assert session.results == [(12, "c1", _photo(data), None)]
    assert all(n <= SMALL for n in unpacked), unpacked
    assert guard.visitor_budgets(ip)[0].level < guard.VISITOR_CPU_BURST  # charged


def test_a_big_text_answer_gets_through() -> None:
    session = _Session()
    conn = _bare_connection(session, "203.0.113.74")
    text = "ą" * 100_000 + "x" * 200_000
    _run(conn, [_answer(text)])
    assert session.results == [(12, "c1", text, None)]


def test_a_big_frame_without_a_pending_picker_is_refused() -> None:
    session = _Session()
    session._guard_pending = {"pick_files": 0}
    conn = _bare_connection(session, "203.0.113.75")
    socket = _run(conn, [_answer(_photo(b"\xff" * 100_000))])
    assert conn.flooded and socket.close_codes == [guard.CLOSE_POLICY]
    assert session.results == []


def test_big_bytes_are_counted_per_address_not_per_connection() -> None:
    ip = "203.0.113.76"
    frame = _answer(_photo(b"\xff" * (guard.HOST_FRAME_MAX - 1024)))
    allowed = guard.BIG_BYTES_PER_ADDRESS // len(frame)
    assert allowed < guard.MAX_CONNECTIONS_PER_ADDRESS * guard.BIG_FRAMES_PER_MINUTE
    got = []
    for _ in range(allowed + 1):  # a fresh connection each time, its own per-connection bucket
        session = _Session()
        conn = _bare_connection(session, ip)
        conn.big = guard.Bucket(guard.BIG_FRAMES_PER_MINUTE / 60.0, guard.BIG_FRAMES_PER_MINUTE)
        _run(conn, [frame])
        got.append(bool(session.results) and session.results[0][3] is None and not conn.flooded)
    assert got == [True] * allowed + [False]  # the last one refused (its picker told), no ban
    assert session.results == [(12, "c1", None, guard.TOO_MANY_PHOTOS)] and not conn.flooded
    guard._BANNED.pop(ip, None)


def test_unpack_big_on_its_own() -> None:
    photo = b"\x01\x02" * 50_000
    msg = [INVOKE, {"control_id": 1, "call_id": "x", "result": _photo(photo), "error": None}]
    assert guard.unpack_big(msgpack.packb(msg)) == msg
    with pytest.raises(guard.NotAPhoto):
        guard.unpack_big(msgpack.packb([INVOKE, {"result": [photo[:40_000]] * 3}]))
    with pytest.raises(guard.NotAPhoto):  # a big object but a big rest too
        guard.unpack_big(msgpack.packb([photo, "y" * 70_000]))
