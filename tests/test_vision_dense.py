"""A photo crowded with tile-like rectangles (a hostile watcher's denial of service) is refused
before its tiles are read; repeated expensive reads from one address are charged their CPU."""

from __future__ import annotations

import asyncio
from typing import Any

import cv2
import numpy as np
import pytest

from app.ui.camera import photo_worker
from app.vision import reader
from app.vision.imageio import VisionError


def _grid(side: int, tw: int, th: int, gx: int, gy: int) -> bytes:
    """Light tiles with coloured numbers on green baize, in a grid (the tester's mkimg2.py)."""
    img = np.full((side, side, 3), (40, 90, 40), np.uint8)
    cols = [(20, 20, 200), (200, 60, 20), (20, 20, 20), (0, 160, 230)]
    k = 0
    for y in range(10, side - th, th + gy):
        for x in range(10, side - tw, tw + gx):
            k += 1
            cv2.rectangle(img, (x, y), (x + tw, y + th), (235, 235, 235), -1)
            cv2.putText(
                img,
                str(k % 13 + 1),
                (x + tw // 8, y + th * 2 // 3),
                cv2.FONT_HERSHEY_SIMPLEX,
                tw / 45,
                cols[k % 4],
                max(1, tw // 20),
            )
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    return buf.tobytes()


@pytest.fixture
def stages(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    monkeypatch.setattr(reader, "stage_hook", seen.append)
    return seen


def test_dense_photo_refused_before_any_tile_is_read(stages: list[str]) -> None:
    data = _grid(1400, 30, 45, 6, 8)  # 988 small tiles
    with pytest.raises(VisionError) as e:
        reader.read_photo(data)
    assert e.value.code == "too_many_tiles"
    assert stages == []  # refused before the per-tile stage


def test_crowded_candidates_refused_after_pairing(
    stages: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _grid(1000, 90, 130, 30, 30)  # 48 tiles: an ordinary photo
    monkeypatch.setattr(reader, "MAX_CANDIDATES", 20)
    with pytest.raises(VisionError) as e:
        reader.read_photo(data)
    assert e.value.code == "too_many_tiles"
    assert stages == []


def test_ordinary_photo_still_read(stages: list[str]) -> None:
    r = reader.read_photo(_grid(1000, 90, 130, 30, 30))
    assert 40 <= len(r.tiles) <= 48
    assert "tiles" in stages


def test_read_safely_gives_the_code() -> None:
    out = photo_worker.read_safely(_grid(1400, 30, 45, 6, 8))
    assert out == {"ok": False, "error": "too_many_tiles"}


def test_error_text_in_plain_words() -> None:
    from app.ui.camera.photo import error_text

    assert "too many tiles" in error_text("too_many_tiles")
    assert "Wait a minute" in error_text("spent")


def _expensive(seconds: float) -> dict[str, Any]:
    """Burns ``seconds`` of CPU in the worker (measured there, charged to the sender)."""
    import time

    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        pass
    return {"ok": False, "error": "no_tiles"}


def test_cpu_charged_to_the_address(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a 0.3 s budget, a watcher's reads burning 0.2 s of CPU each: the 3rd in the window
    is refused ("spent"); another address's cheap reads all go."""
    who = {"w": ("10.0.0.9", 2), "p": ("10.0.0.5", 1)}
    monkeypatch.setattr(photo_worker, "_who", lambda s: who[s[0]])
    monkeypatch.setattr(photo_worker, "CPU_BUDGET", 0.3)

    async def go() -> list[str]:
        out = []
        for k in range(3):
            r = await photo_worker.run_in_worker(_expensive, 0.2, session=("w", k))
            out.append(r["error"])
        for k in range(5):
            r = await photo_worker.run_in_worker(_expensive, 0.02, session=("p", k))
            out.append(r["error"])
        return out

    errors = asyncio.run(go())
    assert errors[:2] == ["no_tiles"] * 2
    assert errors[2] == "spent"
    assert errors[3:] == ["no_tiles"] * 5


def test_dense_photo_builds_no_review() -> None:
    """The "From a photo" button (as the meld checker's, which needs no join code) is told
    the plain refusal and opens no review."""
    from app.ui.camera.photo import PhotoButton, error_text

    button = PhotoButton("tile_rummy", lambda rows: None)
    result = asyncio.run(button.read(_grid(1400, 30, 45, 6, 8)))
    assert result == {"ok": False, "error": "too_many_tiles"}
    assert button.review is None
    assert button.status.value == error_text("too_many_tiles") and button.status.visible
