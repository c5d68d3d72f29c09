"""Reading a photo for the "From a photo" screens, in a separate worker process (no Flet here).

All sessions share one asyncio loop in one process. The reader (:mod:`app.vision`) is partly
pure Python: in a thread it takes the interpreter lock from the loop for its Python stretches;
in a process it only shares the CPU with it, like any other program. A picture that crashes the
decoder ends that worker, not the server with every player's session (the next read starts a
new worker).
Measured on the 2-core build machine under heavy load from other jobs (load 15), a
12-megapixel read beside a 5 ms ticker on the loop: p99 tick gap 31–44 ms in a process, 55–77 ms
in a thread (idle loop: 20 ms); too noisy there to say more.

:func:`read_in_worker` is what the screen awaits; :func:`read_safely` is the work itself (also
callable in-process, e.g. by tests); :func:`warm_up` starts the worker while the player is still
choosing a photo (a new process imports OpenCV, numpy and the reader first: 0.3 s measured).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import heapq
import itertools
import multiprocessing
import os
import queue
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Collection
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from typing import Any, Final

import cv2
import numpy as np

READ_SECONDS: float = 20.0
"""Wall-clock seconds one read may take in the worker (a camera's 12-megapixel photo takes
1–3 s on a busy 2-core laptop); a read still running then ends with its worker, and the phone
is told the photo took too long (``"too_slow"``)."""
WAITING_MAX: int = 4
"""Reads that may wait while the worker is busy (one per session): a phone beyond them is told
to try again in a moment (``"busy"``). Each waiting read holds its photo (up to 8 MB)."""
DECODE_BUDGET: int = 1_600_000_000
"""Decoding work one address (not the host's computer) may ask of the reader in
:data:`BUDGET_SECONDS`, in pixels × scans estimated from the photo's header
(:func:`decode_work`): about one of the worst photos accepted (24 megapixels, progressive
with 64 scans: 1.5·10⁹, ~2–5 s of reading); a camera's photo (12 MP, ~10 scans) is 1.2·10⁸.
An address's first read in the window always goes; past the budget the phone is told to try
again in a moment (``"busy"``)."""
BUDGET_SECONDS: float = 60.0
"""The window of :data:`DECODE_BUDGET` and :data:`CPU_BUDGET`."""
CPU_BUDGET: float = 12.0
"""Reading seconds (the worker's CPU time, measured by each read; a read ended for taking too
long counts :data:`READ_SECONDS`) one address (not the host's computer) may have spent in the
last :data:`BUDGET_SECONDS` and still have a read started: a player's photos, a few a minute of
0.5–2 s each, stay well under it; repeated expensive photos wait, told so (``"spent"``). An
address's first read in the window always goes."""
WORKERS: Final = 1
"""Reads at once: one (two reads take turns; the machine may have two cores and the server,
with every player's screen, needs one)."""
_PARENT_CHECK = 1.0
"""Seconds between the worker's checks that the server that started it is still there."""


_Call = tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]


class Worker:
    """One reader process, started with ``spawn`` (never ``fork`` a server that runs threads),
    fed one call at a time through a pipe by a thread of the server.

    ``submit(fn, *args)`` gives a :class:`concurrent.futures.Future`; a worker that died (or
    was killed) fails its calls with :class:`BrokenProcessPool`. The process is a daemon
    (ended when the server exits), is killed by :meth:`kill` and at the server's exit, and
    leaves by itself when the server is gone (its parent changed, or the pipe closed)."""

    def __init__(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self.process = ctx.Process(
            target=_serve, args=(child, os.getpid()), daemon=True, name="photo-reader"
        )
        self.process.start()
        child.close()
        self.broken = False
        self._calls: queue.SimpleQueue[_Call | None] = queue.SimpleQueue()
        self._feeder = threading.Thread(target=self._feed, daemon=True, name="photo-feeder")
        self._feeder.start()
        _started.add(self)

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        f: Future[Any] = Future()
        if self.broken:
            f.set_exception(BrokenProcessPool("the photo reader stopped"))
        else:
            self._calls.put((f, fn, args))
        return f

    def _feed(self) -> None:
        while not self.broken:
            call = self._calls.get()
            if call is None:
                break
            f, fn, args = call
            if not f.set_running_or_notify_cancel():
                continue
            try:
                self._conn.send((fn, args))
                ok, value = self._conn.recv()
            except (EOFError, OSError):
                self.broken = True
                f.set_exception(BrokenProcessPool("the photo reader stopped"))
                break
            except Exception as e:  # noqa: BLE001 - e.g. an argument that cannot be pickled
                f.set_exception(e)
                continue
            if ok:
                f.set_result(value)
            else:
                f.set_exception(value)
        self.kill()
        with contextlib.suppress(Exception):
            self.process.join(10)  # reaped here, not on the event loop
        while True:
            try:
                call = self._calls.get_nowait()
            except queue.Empty:
                break
            if call is not None and call[0].set_running_or_notify_cancel():
                f = call[0]
                f.set_exception(BrokenProcessPool("the photo reader stopped"))

    def kill(self) -> None:
        """End the process now (the call it was running fails); does not wait."""
        self.broken = True
        with contextlib.suppress(Exception):
            self.process.kill()
        self._calls.put(None)  # an idle feeder wakes up and ends
        _started.discard(self)

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        """As :meth:`concurrent.futures.Executor.shutdown`, but the running call is ended."""
        self.kill()


def _serve(conn: Connection, parent: int) -> None:
    """The worker process: run each call received on ``conn`` and send back ``(True,
    result)`` or ``(False, exception)``; leave when the pipe closes or ``parent`` is gone."""

    def watch() -> None:
        while True:
            time.sleep(_PARENT_CHECK)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, daemon=True).start()
    with contextlib.suppress(Exception):
        import app.vision.reader  # noqa: F401 - lazy: loaded in the photo worker process only
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[bool, Any] = (True, fn(*args))
        except Exception as e:  # noqa: BLE001 - handed back to the caller
            answer = (False, e)
        try:
            conn.send(answer)
        except (EOFError, OSError):
            return
        except Exception as e:  # noqa: BLE001 - a result that cannot be pickled
            conn.send((False, RuntimeError(f"unpicklable result: {e!r}")))


_pool: Worker | None = None
_lock = threading.Lock()
_started: set[Worker] = set()


@atexit.register
def _end_all() -> None:
    """At the server's exit: end every reader process (a read may be running)."""
    for w in list(_started):
        w.kill()
        with contextlib.suppress(Exception):
            w.process.join(2)


def pool() -> Worker:
    """The reader's worker (started on first use)."""
    global _pool
    with _lock:
        if _pool is None or _pool.broken:
            _pool = Worker()
        return _pool


def _discard(broken: Any) -> None:
    """Forget the worker ``broken`` and end its process (the next read starts a new one)."""
    global _pool
    with _lock:
        if _pool is broken:
            _pool = None
    if isinstance(broken, Worker):
        broken.kill()


def warm_up() -> None:
    """Start the worker, which loads the reader first, without waiting."""
    try:
        pool()
    except Exception:  # noqa: BLE001 - a read starts it anyway
        return


class _Reads:
    """The reads of one event loop: who has one waiting or running, the worker's turn.

    Turns go by rank (0 the host, 1 a joined phone, 2 a watcher: :func:`app.guard.reader_of`),
    then by arrival; a read whose turn came is ``running``."""

    def __init__(self) -> None:
        self.running = False
        self.waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self.order = itertools.count()
        self.jobs: dict[object, asyncio.Task[dict[str, Any]]] = {}
        self.ranks: dict[object, tuple[int, int]] = {}  # key → (rank, arrival)
        self.started: set[object] = set()
        self.addresses: dict[str, object] = {}  # address → the key of its read
        self.spent = _Window()  # decoding work charged to each address
        self.bumped: set[object] = set()
        self.cpu = _Window()  # reading seconds charged to each address

    def cpu_left(self, address: str, now: float) -> bool:
        """May ``address`` start a read: its reading seconds in the window under
        :data:`CPU_BUDGET`?"""
        spent = self.cpu.recent(address, now)
        return not spent or sum(spent) < CPU_BUDGET

    def charge_cpu(self, address: str, seconds: float, now: float) -> None:
        """Charge a read's ``seconds`` of reading to ``address``."""
        self.cpu.add(address, max(0.0, seconds), now)

    async def turn(self, rank: int) -> None:
        """Wait for the worker (the best rank first)."""
        if not self.running and not self.waiting:
            self.running = True
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self.waiting, (rank, next(self.order), fut))
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():  # given the turn, then cancelled
                self.done()
            raise

    def done(self) -> None:
        """The running read ended: the next waiting one goes."""
        self.running = False
        while self.waiting:
            _rank, _n, fut = heapq.heappop(self.waiting)
            if not fut.done():
                self.running = True
                fut.set_result(None)
                return

    def spend(self, address: str, work: int, now: float) -> bool:
        """Charge ``work`` to ``address``; False (nothing charged) when over its budget."""
        spent = self.spent.recent(address, now)
        if spent and sum(spent) + work > DECODE_BUDGET:
            return False
        self.spent.add(address, work, now)
        return True


class _Window:
    """Amounts (decoding work, reading seconds) charged to each address in the last
    :data:`BUDGET_SECONDS`; an address with nothing left in the window is forgotten."""

    def __init__(self) -> None:
        self.charged: dict[str, deque[tuple[float, float]]] = {}  # address → (when, amount)

    def recent(self, address: str, now: float) -> list[float]:
        """The amounts charged to ``address`` within the window (oldest first)."""
        self._forget(now)
        return [amount for _t, amount in self.charged.get(address, ())]

    def add(self, address: str, amount: float, now: float) -> None:
        """Charge ``amount`` to ``address`` at ``now`` (monotonic seconds)."""
        self.charged.setdefault(address, deque()).append((now, amount))

    def _forget(self, now: float) -> None:
        for address, charged in list(self.charged.items()):
            while charged and now - charged[0][0] > BUDGET_SECONDS:
                charged.popleft()
            if not charged:
                del self.charged[address]


_READS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Reads] = weakref.WeakKeyDictionary()


def _reads() -> _Reads:
    loop = asyncio.get_running_loop()
    r = _READS.get(loop)
    if r is None:
        r = _READS[loop] = _Reads()
    return r


def pending() -> int:
    """Reads waiting or running on this event loop (those holding a photo)."""
    return len(_reads().jobs)


def cancel(session: object) -> bool:
    """``session`` left: drop its read (waiting: it never starts; running: its worker is ended
    and a new one started for the next). Its caller gets ``"cancelled"``. True when there was
    one. Safe from any thread."""
    for reads in list(_READS.values()):
        job = reads.jobs.get(session)
        if job is not None and not job.done():
            job.get_loop().call_soon_threadsafe(job.cancel)
            return True
    return False


def decode_work(data: bytes) -> int:
    """The decoding work of a photo, estimated from its header: pixels × scans (a JPEG's
    scans counted by :func:`app.vision.imageio.jpeg_cost`; 1 for other formats); 0 when the
    header is not a picture's (the reader refuses it at once)."""
    from app.vision import imageio  # lazy: the server needs it only when a photo comes

    try:
        kind, width, height = imageio.sniff(data)
        scans = imageio.jpeg_cost(data)[0] if kind == "jpeg" else 1
    except Exception:  # noqa: BLE001 - a broken header: the reader says so
        return 0
    return max(0, width) * max(0, height) * max(1, scans)


def _who(session: object) -> tuple[str | None, int]:
    from app import guard  # lazy: the worker process (which imports this module) needs none

    return guard.reader_of(session)


async def _run(
    reads: _Reads, fn: Callable[..., dict[str, Any]], args: tuple[Any, ...], key: object
) -> Any:
    await reads.turn(reads.ranks[key][0])
    reads.started.add(key)
    try:
        p = pool()
        cf = p.submit(_timed, fn, *args)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(cf), READ_SECONDS)
        except TimeoutError:
            _discard(p)
            return {"ok": False, "error": "too_slow", "cpu": READ_SECONDS}
        except asyncio.CancelledError:
            if not cf.cancel():  # running: only ending the process stops it
                _discard(p)
            raise
        except BrokenProcessPool:
            _discard(p)
            return {"ok": False, "error": "internal"}
    finally:
        reads.started.discard(key)
        reads.done()


def _timed(fn: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    """``fn(*args)`` in the worker, its answer with ``"cpu"``: the CPU seconds it took there
    (:func:`run_in_worker` charges them to the sender and takes the key out)."""
    t0 = time.process_time()
    out = fn(*args)
    if isinstance(out, dict):
        out = {**out, "cpu": time.process_time() - t0}
    return out


def _make_room(reads: _Reads, rank: int) -> bool:
    """All places taken: bump the last-come waiting read of a worse rank than ``rank`` (its
    phone is told ``"busy"``). Whether a place was freed."""
    waiting = [
        (reads.ranks[k], k)
        for k, job in reads.jobs.items()
        if k not in reads.started and not job.done() and reads.ranks[k][0] > rank
    ]
    if not waiting:
        return False
    victim = max(waiting, key=lambda w: w[0])[1]
    reads.bumped.add(victim)
    reads.jobs.pop(victim).cancel()
    return True


async def run_in_worker(
    fn: Callable[..., dict[str, Any]], *args: Any, session: object = None, work: int = 0
) -> dict[str, Any]:
    """``fn(*args)`` in the worker process, in turn with the other reads; never more than one
    read per ``session`` (a key: the page's session id; ``None``: this call alone) and per
    visitor's address (:func:`app.guard.reader_of`), and :data:`WAITING_MAX` waiting, the
    host's and joined phones' before watchers' (a watcher's waiting read makes room for
    theirs). ``work`` (pixels × scans, :func:`decode_work`) is charged to the address's
    :data:`DECODE_BUDGET`. Errors as ``{"ok": false, "error": code}``: ``"internal"`` (the
    worker died meanwhile; the next call starts a new one), ``"too_slow"`` (over
    :data:`READ_SECONDS`), ``"busy"`` (too many reads waiting, the address's budget spent,
    or made room for a player's read), ``"spent"`` (the address's reading seconds in the
    window over :data:`CPU_BUDGET`: each read's worker CPU time is charged), ``"busy_session"``
    (this session's or this address's earlier read is not finished), ``"cancelled"``
    (:func:`cancel`)."""
    reads = _reads()
    key = object() if session is None else session
    address, rank = _who(session) if session is not None else (None, 0)
    if key in reads.jobs or (address is not None and address in reads.addresses):
        return {"ok": False, "error": "busy_session"}
    if len(reads.jobs) >= WORKERS + WAITING_MAX and not _make_room(reads, rank):
        return {"ok": False, "error": "busy"}
    if address is not None and not reads.cpu_left(address, time.monotonic()):
        return {"ok": False, "error": "spent"}
    if address is not None and not reads.spend(address, work, time.monotonic()):
        return {"ok": False, "error": "busy"}
    reads.ranks[key] = (rank, next(reads.order))
    job = asyncio.ensure_future(_run(reads, fn, args, key))
    reads.jobs[key] = job
    if address is not None:
        reads.addresses[address] = key
    try:
        await asyncio.wait({job})
    except asyncio.CancelledError:
        job.cancel()
        raise
    finally:
        if reads.jobs.get(key) is job:
            del reads.jobs[key]
        reads.ranks.pop(key, None)
        if address is not None and reads.addresses.get(address) is key:
            del reads.addresses[address]
    if job.cancelled():
        bumped = key in reads.bumped
        reads.bumped.discard(key)
        return {"ok": False, "error": "busy" if bumped else "cancelled"}
    result: dict[str, Any] = job.result()
    cpu = result.pop("cpu", None) if isinstance(result, dict) else None
    if address is not None and isinstance(cpu, (int, float)):
        reads.charge_cpu(address, float(cpu), time.monotonic())
    return result


async def read_in_worker(
    data: bytes, preview: str = ".jpg", session: object = None
) -> dict[str, Any]:
    """:func:`read_safely` in the worker process (see :func:`run_in_worker`)."""
    work = decode_work(data)
    return await run_in_worker(read_safely, data, preview, session=session, work=work)


def read_safely(data: bytes, preview: str = ".png") -> dict[str, Any]:
    """Read a photo; never raises: ``{"ok": true, "reading": Reading, "preview": bytes,
    "photo": bytes, "scale": float}`` (the preview: the photo with its boxes, encoded as
    ``preview``: ``".png"`` or ``".jpg"``, the latter about a tenth of the size, which is what
    the screen sends to a phone; ``photo``: the same picture without boxes, as JPEG, and
    ``scale`` from it to the photo's pixels, for :func:`draw_preview` to draw the boxes again
    as the player checks the tiles) or ``{"ok": false,
    "error": code}`` (codes of :class:`app.vision.VisionError`, or ``"internal"``)."""
    from app.vision import VisionError, read_photo  # lazy: photo worker process
    from app.vision.imageio import decode  # lazy: photo worker process

    try:
        reading = read_photo(data)
        img, scale, _size = decode(data, work_side=900)
    except VisionError as e:
        return {"ok": False, "error": e.code}
    except Exception:  # noqa: BLE001 - a bad photo must not break the screen
        return {"ok": False, "error": "internal"}
    ok, clean = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return {
        "ok": True,
        "reading": reading,
        "preview": draw_preview(img, scale, reading, preview),
        "photo": clean.tobytes() if ok else b"",
        "scale": scale,
    }


def draw_preview(
    img: np.ndarray,
    scale: float,
    reading: Any,
    ext: str = ".png",
    unsure: Collection[int] | None = None,
) -> bytes:
    """The photo (``img``: the 900 px working copy, already turned upright as its EXIF
    orientation says, ``scale`` from it to the photo's pixels) with a box on every tile of
    ``reading``, green or orange where the reading is unsure, encoded as ``ext``
    (``".png"``, ``".jpg"``). ``unsure``: the indexes (into ``reading.tiles``) boxed orange
    (the review's redraw once the player checked some); ``None``: those read with low
    confidence."""
    from app.vision import LOW_CONFIDENCE  # lazy: photo worker process

    if unsure is None:
        unsure = [i for i, t in enumerate(reading.tiles) if t.confidence < LOW_CONFIDENCE]
    orange = set(unsure)
    out = img.copy()
    th = max(2, out.shape[1] // 300)
    for i, t in enumerate(reading.tiles):
        pts = np.array(t.corners, np.float32) / scale if t.corners else None
        colour = (0, 140, 255) if i in orange else (0, 200, 0)
        if pts is not None and len(pts) == 4:
            cv2.polylines(out, [pts.astype(np.int32)], True, colour, th, cv2.LINE_AA)
        else:
            x, y, w, h = (int(v / scale) for v in t.box)
            cv2.rectangle(out, (x, y), (x + w, y + h), colour, th)
    params = [cv2.IMWRITE_JPEG_QUALITY, 82] if ext == ".jpg" else []
    ok, buf = cv2.imencode(ext, out, params)
    return buf.tobytes() if ok else b""
