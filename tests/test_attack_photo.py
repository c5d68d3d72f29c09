"""A hostile phone's photos.

(app/ui/camera/photo_worker.py, app/vision/imageio.py, app/ui/camera/photo.py).

- a progressive JPEG repeating one tiny scan (the decoder goes over the whole picture for
  every scan: 49 megapixels × 290,000 scans took hours) is refused from its markers, before
  anything is decoded; so is a progressive JPEG over 24 megapixels; a real one still reads;
- a read that takes too long ends with its worker process; the next read gets a new one;
- a session that leaves (disconnects) drops its read, waiting or running, and another
  session's read then completes;
- one read at a time per session and a few waiting in all: the others are refused at once
  (holding no photo), and the waiting ones complete;
- the worker process ends with the server: at its exit, on Ctrl+C, and by itself when the
  server is killed outright.

Time limits below only guard against a hang; nothing asserts how long anything took.
"""

from __future__ import annotations

import asyncio
import os
import select
import signal
import struct
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from app.ui.camera import photo, photo_worker
from app.ui.camera.photo import PhotoButton
from app.vision import imageio
from app.vision.render import TEST_FONTS, available
from tests.photo_helpers import meld_jpeg

ROOT = Path(__file__).resolve().parent.parent
HANG = 120.0
"""Seconds after which a test gives up waiting (a hang guard, never a measurement)."""

pytestmark = pytest.mark.skipif(not available(TEST_FONTS), reason="test fonts not installed")


# -- pictures ------------------------------------------------------------------------------------
def _segments(data: bytes) -> list[tuple[int, int, int]]:
    """(marker, start, end) of every segment of a JPEG, a scan with its data."""
    i, out = 2, []
    while i < len(data):
        m = data[i + 1]
        if m == 0xD9:
            out.append((m, i, i + 2))
            break
        end = i + 2 + struct.unpack(">H", data[i + 2 : i + 4])[0]
        if m == 0xDA:
            while True:
                end = data.index(b"\xff", end)
                if data[end + 1] == 0 or 0xD0 <= data[end + 1] <= 0xD7:
                    end += 2
                    continue
                break
        out.append((m, i, end))
        i = end
    return out


def progressive(w: int = 900, h: int = 700, noise: bool = True) -> bytes:
    rng = np.random.default_rng(3)
    img = (
        rng.integers(0, 255, (h, w, 3), dtype=np.uint8)
        if noise
        else np.full((h, w, 3), 128, np.uint8)
    )
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    assert ok
    return bytes(buf.tobytes())


def scan_bomb(scans: int) -> bytes:
    """A progressive JPEG (900×700, one grey) whose smallest scan is repeated until it has
    ``scans`` scans: the tester's bomb, small."""
    data = progressive(noise=False)
    segs = [(s, e) for m, s, e in _segments(data) if m == 0xDA]
    s, e = min(segs, key=lambda se: se[1] - se[0])
    return data[: segs[-1][1]] + data[s:e] * (scans - len(segs)) + b"\xff\xd9"


def _count_decodes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = cv2.imdecode

    def imdecode(buf: Any, flags: int) -> Any:
        calls.append(flags)
        return real(buf, flags)

    monkeypatch.setattr(imageio.cv2, "imdecode", imdecode)
    return calls


def test_a_scan_bomb_is_refused_before_it_is_decoded(monkeypatch: pytest.MonkeyPatch) -> None:
    decodes = _count_decodes(monkeypatch)
    bomb = scan_bomb(5000)
    assert imageio.jpeg_cost(bomb) == (imageio.MAX_SCANS + 1, True)  # counting stops there
    res = photo_worker.read_safely(bomb)
    assert res == {"ok": False, "error": "too_many_scans"}
    assert decodes == []
    just = scan_bomb(imageio.MAX_SCANS)  # as many scans as allowed: read (as a picture)
    assert imageio.jpeg_cost(just) == (imageio.MAX_SCANS, True)
    imageio.decode(just)
    assert len(decodes) == 1


def test_a_real_progressive_jpeg_is_read() -> None:
    scans, prog = imageio.jpeg_cost(progressive())
    assert prog and 2 <= scans <= 16
    baseline = meld_jpeg(["R5", "R6", "R7"])
    assert imageio.jpeg_cost(baseline) == (1, False)
    img = cv2.imdecode(np.frombuffer(baseline, np.uint8), cv2.IMREAD_COLOR)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    res = photo_worker.read_safely(bytes(buf.tobytes()))
    assert res["ok"], res
    assert [res["reading"].tiles[i].tile for i in res["reading"].rows[0]] == ["R5", "R6", "R7"]


def test_a_big_progressive_jpeg_is_refused_from_its_header(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A progressive JPEG is decoded through buffers of the whole picture: 25 megapixels
    (6000×4200 written into the frame header) are refused; a baseline one of that size is
    not refused for its size."""
    decodes = _count_decodes(monkeypatch)
    data = bytearray(progressive())
    sof = next(s for m, s, _e in _segments(bytes(data)) if m == 0xC2)
    data[sof + 5 : sof + 9] = struct.pack(">HH", 4200, 6000)
    with pytest.raises(imageio.VisionError) as e:
        imageio.decode(bytes(data))
    assert e.value.code == "too_big" and decodes == []


# -- the worker ----------------------------------------------------------------------------------
def slow_read(data: bytes, preview: str = ".jpg") -> dict[str, Any]:
    """In the worker: a photo ``b"SLOW:" + path`` makes the read touch ``path`` and then never
    finish (a decoder-cost bomb); any other photo is read as usual."""
    if data.startswith(b"SLOW:"):
        Path(data[5:].decode()).touch()
        time.sleep(3600)
    return photo_worker.read_safely(data, preview)


async def until(cond: Any, what: str) -> None:
    deadline = time.monotonic() + HANG
    while not cond():
        assert time.monotonic() < deadline, f"hang: {what}"
        await asyncio.sleep(0.05)


def _dead(proc: Any) -> bool:
    """The worker process ended within :data:`HANG` seconds. Polled: the worker's feeder
    thread reaps the process too (``join`` in ``Worker._feed``), and when its ``waitpid``
    wins, ours returns at once (ECHILD) before the shared exit code is set."""
    deadline = time.monotonic() + HANG
    while True:
        proc.join(0.2)
        if proc.exitcode is not None or not proc.is_alive():
            return True
        if time.monotonic() > deadline:
            return False


@pytest.mark.slow
def test_a_read_that_takes_too_long_ends_its_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    worker = photo_worker.pool()
    monkeypatch.setattr(photo_worker, "READ_SECONDS", 1.0)
    res = asyncio.run(photo_worker.run_in_worker(time.sleep, 3600))
    assert res == {"ok": False, "error": "too_slow"}
    assert worker.broken and _dead(worker.process)
    monkeypatch.setattr(photo_worker, "READ_SECONDS", HANG)
    again = asyncio.run(photo_worker.read_in_worker(meld_jpeg(["R1", "R2", "R3"])))
    assert again["ok"], again
    assert photo_worker.pool() is not worker


class Session:
    def __init__(self, sid: str) -> None:
        self.id = sid


class FakePage:
    """A page of one session: the handlers the photo button chains onto."""

    def __init__(self, sid: str) -> None:
        self.session = Session(sid)
        self.on_connect: Any = None
        self.on_disconnect: Any = None
        self.on_close: Any = None
        self.dialogs: list[Any] = []
        self.updates = 0

    def update(self) -> None:
        self.updates += 1

    def show_dialog(self, d: Any) -> None:
        self.dialogs.append(d)

    def pop_dialog(self) -> None:
        self.dialogs.pop()


@pytest.mark.slow
def test_a_session_that_leaves_drops_its_read_and_the_next_phone_is_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The tester's attack: an unjoined visitor sends a photo that never finishes reading and
    disconnects; another phone's photo, waiting behind it, is then read."""
    monkeypatch.setattr(photo_worker, "read_safely", slow_read)
    started = tmp_path / "started"
    earlier: list[Any] = []

    async def scene() -> tuple[dict[str, Any], dict[str, Any], Any]:
        visitor, phone = FakePage("visitor"), FakePage("phone")
        visitor.on_disconnect = earlier.append  # the shell's own handler stays in the chain
        a = PhotoButton("tile_rummy", lambda rows: None)
        b = PhotoButton("tile_rummy", lambda rows: None)
        bomb = asyncio.ensure_future(a.read(b"SLOW:" + str(started).encode(), visitor))
        await until(started.exists, "the slow read to start")
        worker = photo_worker.pool()
        good = asyncio.ensure_future(b.read(meld_jpeg(["B4", "B5", "B6"]), phone))
        await until(lambda: photo_worker.pending() == 2, "the phone's read to wait")
        visitor.on_disconnect("gone")  # Flet's page event when the socket closes
        return await bomb, await good, worker

    left, read, worker = asyncio.run(scene())
    assert left == {"ok": False, "error": "cancelled"}
    assert read["ok"], read
    assert [read["reading"].tiles[i].tile for i in read["reading"].rows[0]] == ["B4", "B5", "B6"]
    assert earlier == ["gone"]
    assert _dead(worker.process)


def test_a_waiting_read_of_a_session_that_leaves_never_starts(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(photo_worker, "read_safely", slow_read)
    started = tmp_path / "started"
    never = tmp_path / "never"

    async def scene() -> tuple[dict[str, Any], dict[str, Any], Any]:
        first = asyncio.ensure_future(
            photo_worker.read_in_worker(b"SLOW:" + str(started).encode(), session="a")
        )
        await until(started.exists, "the slow read to start")
        worker = photo_worker.pool()
        waiting = asyncio.ensure_future(
            photo_worker.read_in_worker(b"SLOW:" + str(never).encode(), session="b")
        )
        await until(lambda: photo_worker.pending() == 2, "the second read to wait")
        assert photo_worker.cancel("b")
        second = await waiting
        assert photo_worker.cancel("a")
        return await first, second, worker

    first, second, worker = asyncio.run(scene())
    assert first == second == {"ok": False, "error": "cancelled"}
    assert not never.exists()
    assert _dead(worker.process)
    assert not photo_worker.cancel("a")  # nothing left to drop


@pytest.mark.slow
def test_one_read_per_session_and_a_few_waiting_in_all(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The tester's queue attack: sessions each sending photos while the worker is busy. A
    session's second photo and any photo beyond the waiting places are refused at once (so at
    most 1 + WAITING_MAX photos are held); the waiting ones are read once the slow one goes."""
    monkeypatch.setattr(photo_worker, "read_safely", slow_read)
    started = tmp_path / "started"
    good = meld_jpeg(["K9", "K10", "K11"])
    n = photo_worker.WAITING_MAX

    async def scene() -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
        slow = asyncio.ensure_future(
            photo_worker.read_in_worker(b"SLOW:" + str(started).encode(), session="s0")
        )
        await until(started.exists, "the slow read to start")
        again = await photo_worker.read_in_worker(good, session="s0")
        waiting = [
            asyncio.ensure_future(photo_worker.read_in_worker(good, session=f"s{k}"))
            for k in range(1, n + 1)
        ]
        await until(lambda: photo_worker.pending() == n + 1, "the reads to wait")
        refused = [await photo_worker.read_in_worker(good, session=f"late{k}") for k in range(3)]
        refused += [
            await photo_worker.read_in_worker(good, session=f"s{k}") for k in range(1, n + 1)
        ]
        held = photo_worker.pending()
        photo_worker.cancel("s0")
        done = [await w for w in waiting]
        assert await slow == {"ok": False, "error": "cancelled"}
        return [again, *refused], done, held

    refused, done, held = asyncio.run(scene())
    codes = [r["error"] for r in refused]
    assert codes == ["busy_session"] + ["busy"] * 3 + ["busy_session"] * n
    assert held == 1 + n
    assert all(r["ok"] for r in done), done
    assert len(done) == n


def test_busy_and_cancelled_have_a_message_in_each_language() -> None:
    from app import i18n

    codes = ["too_many_scans", "too_slow", "busy", "busy_session", "cancelled"]
    for lang in ("en", "pl", "sk"):
        with i18n.use_language(lang):
            fallback = photo.error_text("internal")
            texts = [photo.error_text(c) for c in codes]
            assert fallback not in texts and len(set(texts)) == len(codes), lang
            if lang != "en":
                with i18n.use_language("en"):
                    english = [photo.error_text(c) for c in codes]
                assert not set(texts) & set(english), lang  # translated


# -- the worker ends with the server -------------------------------------------------------------
SERVER = textwrap.dedent(
    """
    import os, signal, sys, time
    # Ctrl+C as at a terminal, even when the tests run in a background job (which starts
    # every child with SIGINT ignored: no KeyboardInterrupt would ever come)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    from app.ui.camera import photo_worker
    w = photo_worker.pool()
    w.submit(time.sleep, 3600)  # a read that never finishes
    print(w.process.pid, flush=True)
    time.sleep(3600)
    """
)


def _server_with_busy_worker() -> tuple[subprocess.Popen[str], int]:
    p = subprocess.Popen(
        [sys.executable, "-c", SERVER], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert p.stdout is not None
    ready, _w, _x = select.select([p.stdout], [], [], HANG)
    assert ready, "hang: the server did not start its worker"
    return p, int(p.stdout.readline())


def _gone(pid: int) -> bool:
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        try:  # a zombie child of nobody we can wait for counts as gone once reaped by init
            with open(f"/proc/{pid}/stat") as f:
                if f.read().split(") ")[-1].startswith("Z"):
                    return True
        except OSError:
            return True
        time.sleep(0.1)
    return False


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_the_worker_ends_with_the_server(how: signal.Signals) -> None:
    """Ctrl+C (the exit handlers run), SIGTERM and SIGKILL (they do not: the worker notices
    its server is gone): no reader process is left behind."""
    server, worker = _server_with_busy_worker()
    try:
        server.send_signal(how)
        server.wait(HANG)
        assert _gone(worker), f"the worker {worker} outlived its server"
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(HANG)
        if not _gone(worker):
            os.kill(worker, signal.SIGKILL)
