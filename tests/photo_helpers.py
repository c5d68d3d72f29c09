"""Photos for the tests of "From a photo": one upright meld of big tiles, rendered flat.

Shared by tests/test_vision.py (the reader, its command line, the review screen) and
tests/browser/test_photo.py (the screen in a browser). The photo is synthetic (app/vision/render),
drawn with the held-out test fonts; real photos are read from ../shared/photos-dev/ where a test
needs them, never copied here.
"""

from __future__ import annotations

import cv2
import numpy as np

from app.vision.render import TEST_FONTS, available, render_scene


def meld_scene(meld: list[str], seed: int = 11) -> np.ndarray:
    """A 900×700 picture (BGR) of ``meld`` lying left to right, upright, no perspective,
    tiles 90 px wide: the reader finds and reads these with certainty."""
    sc = render_scene(
        seed,
        fonts=available(TEST_FONTS),
        size=(900, 700),
        tokens_rows=[meld],
        rotation=0,
        perspective=0.0,
        tile_width=90,
    )
    return sc.image


def meld_jpeg(meld: list[str], seed: int = 11, quality: int = 92) -> bytes:
    """:func:`meld_scene` as JPEG bytes, as a phone's camera hands it over."""
    ok, buf = cv2.imencode(".jpg", meld_scene(meld, seed), [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return bytes(buf.tobytes())
