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
import multiprocessing
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import cv2
import numpy as np

_pool: ProcessPoolExecutor | None = None
_lock = threading.Lock()


def pool() -> ProcessPoolExecutor:
    """The reader's worker pool: one process (two reads at once take turns; the machine may
    have two cores and the server needs one), started with ``spawn`` (never ``fork`` a server
    that runs threads)."""
    global _pool
    with _lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn")
            )
        return _pool


def _discard(broken: ProcessPoolExecutor) -> None:
    global _pool
    with _lock:
        if _pool is broken:
            _pool = None
    broken.shutdown(wait=False, cancel_futures=True)


def warm() -> bool:
    """Import the reader (run in the worker)."""
    import app.vision.reader  # noqa: F401

    return True


def warm_up() -> None:
    """Start the worker and load the reader into it, without waiting."""
    try:
        pool().submit(warm)
    except Exception:  # noqa: BLE001 - a read starts it anyway
        return


async def run_in_worker(fn: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    """``fn(*args)`` in the worker process; ``{"ok": false, "error": "internal"}`` when the
    worker died meanwhile (the next call starts a new one)."""
    loop = asyncio.get_running_loop()
    p = pool()
    try:
        result: dict[str, Any] = await loop.run_in_executor(p, fn, *args)
    except BrokenProcessPool:
        _discard(p)
        return {"ok": False, "error": "internal"}
    return result


async def read_in_worker(data: bytes, preview: str = ".jpg") -> dict[str, Any]:
    """:func:`read_safely` in the worker process."""
    return await run_in_worker(read_safely, data, preview)


def read_safely(data: bytes, preview: str = ".png") -> dict[str, Any]:
    """Read a photo; never raises: ``{"ok": true, "reading": Reading, "preview": bytes}`` (the
    photo with its boxes, encoded as ``preview``: ``".png"`` or ``".jpg"``, the latter about
    a tenth of the size, which is what the screen sends to a phone) or ``{"ok": false,
    "error": code}`` (codes of :class:`app.vision.VisionError`, or ``"internal"``)."""
    from app.vision import VisionError, read_photo
    from app.vision.imageio import decode

    try:
        reading = read_photo(data)
        img, scale, _size = decode(data, work_side=900)
    except VisionError as e:
        return {"ok": False, "error": e.code}
    except Exception:  # noqa: BLE001 - a bad photo must not break the screen
        return {"ok": False, "error": "internal"}
    return {"ok": True, "reading": reading, "preview": draw_preview(img, scale, reading, preview)}


def draw_preview(img: np.ndarray, scale: float, reading: Any, ext: str = ".png") -> bytes:
    """The photo (``img``: the 900 px working copy, already turned upright as its EXIF
    orientation says, ``scale`` from it to the photo's pixels) with a box on every tile of
    ``reading``, green or orange where the reading is unsure, encoded as ``ext``
    (``".png"``, ``".jpg"``)."""
    from app.vision import LOW_CONFIDENCE

    out = img.copy()
    th = max(2, out.shape[1] // 300)
    for t in reading.tiles:
        pts = np.array(t.corners, np.float32) / scale if t.corners else None
        colour = (0, 200, 0) if t.confidence >= LOW_CONFIDENCE else (0, 140, 255)
        if pts is not None and len(pts) == 4:
            cv2.polylines(out, [pts.astype(np.int32)], True, colour, th, cv2.LINE_AA)
        else:
            x, y, w, h = (int(v / scale) for v in t.box)
            cv2.rectangle(out, (x, y), (x + w, y + h), colour, th)
    params = [cv2.IMWRITE_JPEG_QUALITY, 82] if ext == ".jpg" else []
    ok, buf = cv2.imencode(ext, out, params)
    return buf.tobytes() if ok else b""
