"""Reading a photo safely: the size from the file's header before any decoding, then a decode
that is already scaled down (JPEG's own 1/2, 1/4, 1/8 decoding), so memory stays bounded.

Accepted: JPEG, PNG, WebP, BMP. Refused with a :class:`VisionError`: anything else, a file
over :data:`MAX_BYTES`, a picture over :data:`MAX_PIXELS` (a 100-megapixel or decompression-
bomb image is refused before it is decoded), a truncated or broken file.
"""

from __future__ import annotations

import hashlib
import re
import struct
import threading
from typing import Final

import cv2
import numpy as np

MAX_BYTES: Final = 40 * 1024 * 1024
MAX_PIXELS: Final = 60_000_000
MAX_SIDE: Final = 20_000
MAX_FULL_PIXELS: Final = 24_000_000
"""Pixels of a picture that has no scaled-down decoding (PNG, WebP, BMP: decoded whole, a
16-bit PNG with buffers of twice that). A camera's JPEG may have :data:`MAX_PIXELS`."""
MAX_SCANS: Final = 64
"""Scans of a JPEG (SOS markers up to its end): a camera's progressive JPEG has about 10, and
the decoder goes over the whole picture again for every scan (a 49-megapixel file of 290,000
tiny scans would take hours), so a file with more is refused before decoding."""
MAX_PROGRESSIVE_PIXELS: Final = MAX_FULL_PIXELS
"""Pixels of a progressive JPEG: it is decoded through buffers of the whole picture, whatever
the scale asked for (a camera writes baseline JPEGs, which may have :data:`MAX_PIXELS`)."""
WORK_SIDE: Final = 1400
"""The long side (px) the reader works at: a 12-megapixel photo is read at about 1400×1050."""


_last_lock = threading.Lock()
_last: tuple[bytes, np.ndarray, tuple[int, int]] | None = None
"""The last photo decoded: (digest of its bytes, its picture, its (w, h)). The photo worker
reads a photo at :data:`WORK_SIDE` and then draws its preview at a smaller side: that second
:func:`decode` of the same bytes scales the first picture down instead of decoding again."""


class VisionError(Exception):
    """A photo that cannot be read: ``code`` (a stable id) and a plain-English ``message``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def sniff(data: bytes) -> tuple[str, int, int]:
    """(format, width, height) from the header alone.

    Raises:
        VisionError: ``not_image`` for an unknown or broken header.
    """
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24 and data[12:16] == b"IHDR":
        w, h = struct.unpack(">II", data[16:24])
        return "png", w, h
    if data[:3] == b"\xff\xd8\xff":
        return ("jpeg", *_jpeg_size(data))
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP" and len(data) >= 30:
        chunk = data[12:16]
        if chunk == b"VP8X":
            w = 1 + int.from_bytes(data[24:27], "little")
            h = 1 + int.from_bytes(data[27:30], "little")
            return "webp", w, h
        if chunk == b"VP8 " and data[23:26] == b"\x9d\x01\x2a":
            w, h = struct.unpack("<HH", data[26:30])
            return "webp", w & 0x3FFF, h & 0x3FFF
        if chunk == b"VP8L" and data[20] == 0x2F:
            b = int.from_bytes(data[21:25], "little")
            return "webp", (b & 0x3FFF) + 1, ((b >> 14) & 0x3FFF) + 1
        raise VisionError("not_image", "This file is not a picture that can be read.")
    if data[:2] == b"BM" and len(data) >= 26:
        w, h = struct.unpack("<ii", data[18:26])
        return "bmp", abs(w), abs(h)
    raise VisionError("not_image", "This file is not a picture (JPEG, PNG or WebP).")


def _jpeg_size(data: bytes) -> tuple[int, int]:
    i = 2
    n = len(data)
    while i + 9 < n:
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            i += 1 if marker == 0xFF else 2
            continue
        seg = struct.unpack(">H", data[i + 2 : i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            h, w = struct.unpack(">HH", data[i + 5 : i + 9])
            return w, h
        i += 2 + seg
    raise VisionError("truncated", "The picture file is cut short or broken.")


_NEXT_MARKER: Final = re.compile(rb"\xff[^\x00\xd0-\xd7\xff]")
"""A marker after a scan's data (not a stuffed 0xFF00, a restart marker or a fill byte)."""


def jpeg_cost(data: bytes, limit: int = MAX_SCANS) -> tuple[int, bool]:
    """(scans, progressive) of a JPEG, walking its markers up to its end (EOI) without
    decoding: segments are skipped by their length, a scan's data up to the next marker. Stops
    counting at ``limit + 1`` scans; a broken structure ends the walk (the decoder judges)."""
    scans = 0
    progressive = False
    i = 2
    n = len(data)
    while i + 3 < n and scans <= limit:
        if data[i] != 0xFF:
            break
        marker = data[i + 1]
        if marker == 0xFF:
            i += 1
            continue
        if marker == 0xD9:
            break
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        seg = struct.unpack(">H", data[i + 2 : i + 4])[0]
        if marker in (0xC2, 0xC6, 0xCA, 0xCE):
            progressive = True
        i += 2 + seg
        if marker == 0xDA:
            scans += 1
            m = _NEXT_MARKER.search(data, i)
            if m is None:
                break
            i = m.start()
    return scans, progressive


def _orientation(data: bytes) -> int:
    """The EXIF orientation (1–8) of a JPEG, 1 when absent."""
    i = data.find(b"Exif\x00\x00", 0, 65536)
    if i < 0:
        return 1
    t = i + 6
    if data[t : t + 2] == b"II":
        e = "<"
    elif data[t : t + 2] == b"MM":
        e = ">"
    else:
        return 1
    try:
        off = struct.unpack(e + "I", data[t + 4 : t + 8])[0]
        cnt = struct.unpack(e + "H", data[t + off : t + off + 2])[0]
        for k in range(min(cnt, 64)):
            p = t + off + 2 + 12 * k
            tag = struct.unpack(e + "H", data[p : p + 2])[0]
            if tag == 0x0112:
                v = struct.unpack(e + "H", data[p + 8 : p + 10])[0]
                return v if 1 <= v <= 8 else 1
    except struct.error:
        return 1
    return 1


def decode(
    data: bytes, work_side: int = WORK_SIDE, keep: bool = True
) -> tuple[np.ndarray, float, tuple[int, int]]:
    """Decode a photo at about ``work_side`` px on its long side. The same bytes asked again
    at the same or a smaller side are not decoded again (see :data:`_last`); ``keep=False``
    leaves :data:`_last` as it was (a one-off larger decode: the same photo read again gets
    the same working picture).

    Returns:
        (BGR picture, scale from the working picture to the original, original (w, h) as shown
        after the EXIF turn).

    Raises:
        VisionError: ``too_big`` (file or pixels), ``not_image``, ``truncated``, ``too_small``.
    """
    global _last
    if len(data) > MAX_BYTES:
        raise VisionError("too_big", "The picture file is too large (over 40 MB).")
    if len(data) < 32:
        raise VisionError("not_image", "This file is not a picture (JPEG, PNG or WebP).")
    fmt, w, h = sniff(data)
    if w <= 0 or h <= 0:
        raise VisionError("not_image", "This file is not a picture that can be read.")
    if w * h > MAX_PIXELS or max(w, h) > MAX_SIDE:
        raise VisionError(
            "too_big",
            f"The picture is too large ({w}×{h} pixels); take one of 60 megapixels or less.",
        )
    if fmt != "jpeg" and w * h > MAX_FULL_PIXELS:
        raise VisionError(
            "too_big",
            f"The picture is too large ({w}×{h} pixels); a PNG, WebP or BMP may have 24 "
            "megapixels at most (a camera's JPEG photo up to 60).",
        )
    if min(w, h) < 64:
        raise VisionError("too_small", "The picture is too small to read tiles from.")
    if fmt == "jpeg":
        scans, progressive = jpeg_cost(data)
        if scans > MAX_SCANS:
            raise VisionError(
                "too_many_scans",
                f"The picture is stored in over {MAX_SCANS} passes, which would take too long "
                "to read; take a photo with the camera or save it again as an ordinary JPEG.",
            )
        if progressive and w * h > MAX_PROGRESSIVE_PIXELS:
            raise VisionError(
                "too_big",
                f"The picture is too large ({w}×{h} pixels); a progressive JPEG may have 24 "
                "megapixels at most (a camera's ordinary JPEG photo up to 60).",
            )
    key = hashlib.blake2b(data, digest_size=16).digest()
    with _last_lock:
        last = _last
    if last is not None and last[0] == key and max(last[1].shape[:2]) >= work_side:
        return _scaled(last[1].copy(), work_side, last[2])
    flags = cv2.IMREAD_COLOR
    if fmt == "jpeg":
        for f, r in (
            (cv2.IMREAD_REDUCED_COLOR_8, 8),
            (cv2.IMREAD_REDUCED_COLOR_4, 4),
            (cv2.IMREAD_REDUCED_COLOR_2, 2),
        ):
            if max(w, h) / r >= work_side:
                flags, _red = f, r
                break
    buf = np.frombuffer(data, np.uint8)
    img = cv2.imdecode(buf, flags | cv2.IMREAD_IGNORE_ORIENTATION)
    if img is None:
        raise VisionError("truncated", "The picture file is cut short or broken.")
    if fmt == "jpeg" and data.find(b"\xff\xd9", max(0, data.rfind(b"\xff\xda"))) < 0:
        raise VisionError("truncated", "The picture file is cut short or broken.")
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    elif img.shape[2] == 4:
        img = cv2.cvtColor(img, cv2.COLOR_BGRA2BGR)
    if img.dtype != np.uint8:
        img = (img / 256).astype(np.uint8)
    if fmt == "jpeg":
        o = _orientation(data)
        turn = {3: cv2.ROTATE_180, 6: cv2.ROTATE_90_CLOCKWISE, 8: cv2.ROTATE_90_COUNTERCLOCKWISE}
        if o in turn:
            img = cv2.rotate(img, turn[o])
            if o in (6, 8):
                w, h = h, w
    out = _scaled(img, work_side, (w, h))
    if keep:
        kept = out[0].copy()
        kept.flags.writeable = False
        with _last_lock:
            _last = (key, kept, (w, h))
    return out


def _scaled(
    img: np.ndarray, work_side: int, size: tuple[int, int]
) -> tuple[np.ndarray, float, tuple[int, int]]:
    """``decode``'s answer for a decoded picture: scaled down to ``work_side`` on its long
    side (if larger), the scale from it to the photo of ``size`` (w, h), that size."""
    hh, ww = img.shape[:2]
    s = work_side / max(hh, ww)
    if s < 1:
        img = cv2.resize(
            img, (max(1, int(ww * s)), max(1, int(hh * s))), interpolation=cv2.INTER_AREA
        )
    return img, size[0] / img.shape[1], size
