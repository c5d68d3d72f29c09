"""The tile reader: a photo's bytes → the tiles on it, each with a box and a confidence, and the
rows they lie in. No Flet here; :func:`read_photo` is safe to call from a worker thread."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from app.vision import classifier
from app.vision.features import features, upright
from app.vision.find import (
    Group,
    Mark,
    Planes,
    find_marks,
    ink_colour,
    ink_rgb,
    orient,
    pair_digits,
    planes,
    rows_of,
    smooth_axes,
    split_joined,
    tidy,
    tile_quad,
    warm_split,
)
from app.vision.imageio import VisionError, decode

LOW_CONFIDENCE = 0.6
"""Tiles read with less confidence than this are marked for the player to check."""

_DIG = {c: i for i, c in enumerate(classifier.CLASSES)}


@dataclass
class TileRead:
    """One tile read: token (``"R5"``, ``"JK"``), box (x, y, w, h in the photo's pixels),
    confidence 0–1 and the four corners of the tile (photo pixels)."""

    tile: str
    box: tuple[int, int, int, int]
    confidence: float
    corners: list[tuple[float, float]] = field(default_factory=list)


@dataclass
class Reading:
    """What a photo shows: the tiles (in row order) and the rows as indexes into ``tiles``."""

    tiles: list[TileRead]
    rows: list[list[int]]
    seconds: float
    size: tuple[int, int]

    def as_json(self) -> dict[str, Any]:
        """The command line's JSON shape: ``{"ok": true, "tiles": [...], "rows": [[...]]}``."""
        return {
            "ok": True,
            "tiles": [
                {"tile": t.tile, "box": list(t.box), "confidence": round(t.confidence, 3)}
                for t in self.tiles
            ],
            "rows": [[self.tiles[i].tile for i in r] for r in self.rows],
            "seconds": round(self.seconds, 3),
            "size": list(self.size),
        }


def _crops(g_marks: list[Mark], up: tuple[float, float]) -> np.ndarray:
    return np.stack([features(upright(m.mask, up)) for m in g_marks])


def _decode(probs: np.ndarray) -> tuple[str, float]:
    """(number text or "JK" or "", score) from per-digit probabilities in reading order."""
    if len(probs) == 1:
        p = probs[0]
        digits = p[1:10]
        k = int(np.argmax(digits))
        best_d = float(digits[k])
        jk = float(p[_DIG["JK"]])
        if jk > best_d:
            return "JK", jk
        return str(k + 1), best_d
    p1, p2 = probs
    second = p2[0:4]
    k = int(np.argmax(second))
    return str(10 + k), float(p1[1] * second[k])


def _classify(g: Group, flip_allowed: bool, typical: float = 0.0) -> tuple[str, float, bool]:
    """(number or JK or "", score, flipped) for a group, trying it upside down when allowed."""
    ups = [g.up] if not flip_allowed else [g.up, (-g.up[0], -g.up[1])]
    best = ("", 0.0, False)
    best_w = 0.0
    for k, up in enumerate(ups):
        reading = (-up[1], up[0])
        ms = sorted(g.marks, key=lambda m: m.cx * reading[0] + m.cy * reading[1])
        probs = classifier.predict(_crops(ms, up)).copy()
        for i, m in enumerate(ms):
            # a bare bar (no foot) is a 1 whatever the font's flag looks like
            if (
                2.5 * m.short <= m.long <= 4.8 * m.short
                and m.area >= 0.5 * m.long * m.short
                and m.ring_face >= 0.6
                and 0.7 * typical <= m.long <= 1.4 * typical
            ):
                probs[i, _DIG["1"]] = max(float(probs[i, _DIG["1"]]), 0.8)
        text, score = _decode(probs)
        # priors: the tile face's hint, and photos are more often taken upright
        w = score * (1.0 - 0.12 * up[1]) * (1.25 if k == 0 and g.up_sure else 1.0)
        if w > best_w:
            best, best_w = (text, score, k == 1), w
    return best


def read_image(img: np.ndarray, scale: float = 1.0) -> tuple[list[Group], Planes]:
    """Find and read the tiles of a BGR picture; boxes are scaled by ``scale``."""
    pl = planes(img)
    marks = tidy(find_marks(pl), pl)
    groups: list[Group] = []
    typical = float(np.median([m.long for m in marks])) if marks else 0.0
    paired = pair_digits(marks)
    for members, axis in zip(paired, smooth_axes(paired), strict=True):
        g = orient(pl, members, axis)
        text, score, flipped = _classify(g, flip_allowed=True, typical=typical)
        if len(members) == 1 and not members[0].members:
            # two digits whose ink ran together: read the halves as a two-digit number. A
            # mark wider than tall is no single digit (digits are narrower; a joker's face is
            # the exception, read as such)
            m0 = members[0]
            best_w = score
            for parts, wide, own in split_joined(pl, m0, axis or m0.axis):
                g2 = orient(pl, parts)
                t2, s2, f2 = _classify(g2, flip_allowed=True, typical=typical)
                w2 = s2 * (3.0 if own and wide > 0.95 and text != "JK" else 1.0)
                if w2 > best_w:
                    g, text, score, flipped, best_w = g2, t2, s2, f2, w2
        if len(members) == 2 and score < 0.02:
            # not a two-digit number after all: two single marks
            for m in members:
                g1 = orient(pl, [m])
                t1, s1, f1 = _classify(g1, flip_allowed=True, typical=typical)
                if f1:
                    g1.up = (-g1.up[0], -g1.up[1])
                    g1.marks.sort(key=lambda k: k.cx * -g1.up[1] + k.cy * g1.up[0])
                g1.token, g1.confidence = t1, s1
                groups.append(g1)
            continue
        if flipped:
            g.up = (-g.up[0], -g.up[1])
            g.marks.sort(key=lambda k: k.cx * -g.up[1] + k.cy * g.up[0])
        g.token, g.confidence = text, score
        groups.append(g)
    junk = sum(1 for g in groups if not g.token or g.confidence < 0.25)
    groups = [g for g in groups if g.token and g.confidence >= 0.25]
    pl.junk = junk
    _settle_turns(pl, groups)
    inks = {id(g): ink_rgb(pl, g) for g in groups if g.token != "JK"}
    split = warm_split(list(inks.values()))
    for g in groups:
        if g.token != "JK":
            colour, cc = ink_colour(pl, g, split, inks[id(g)])
            if not colour:
                g.token = ""
                continue
            g.token = colour + g.token
            g.colour_conf = cc
            g.confidence = g.confidence * (0.6 + 0.4 * cc)
        q = tile_quad(pl, g)
        g.quad = q * scale
        x0, y0 = q.min(axis=0) * scale
        x1, y1 = q.max(axis=0) * scale
        g.box = (int(x0), int(y0), int(math.ceil(x1 - x0)), int(math.ceil(y1 - y0)))
    return [g for g in groups if g.token], pl


def _settle_turns(pl: Planes, groups: list[Group]) -> None:
    """A 6 or 9 whose tile face did not tell up from down follows its neighbours' turn."""
    sure = [g for g in groups if g.up_sure and g.token not in ("6", "9")]
    for g in groups:
        if g.up_sure or g.token not in ("6", "9") or not sure:
            continue
        near = sorted(sure, key=lambda s: math.hypot(s.cx - g.cx, s.cy - g.cy))[:5]
        vote = sum(s.up[0] * g.up[0] + s.up[1] * g.up[1] for s in near)
        if vote < 0:
            g.up = (-g.up[0], -g.up[1])
            g.marks.sort(key=lambda k: k.cx * -g.up[1] + k.cy * g.up[0])
            g.token = "9" if g.token == "6" else "6"


def read_photo(data: bytes) -> Reading:
    """Read the tiles on a photo (JPEG, PNG, WebP or BMP bytes).

    Returns:
        A :class:`Reading`: tiles in row order (boxes in the photo's own pixels), rows of
        indexes into them, the seconds taken.

    Raises:
        VisionError: ``not_image``, ``truncated``, ``too_big``, ``too_small`` (see
        :mod:`app.vision.imageio`), ``no_tiles`` (nothing like a tile found) or ``cards``
        (playing cards, not tiles).
    """
    t0 = time.perf_counter()
    img, scale, size = decode(data)
    groups, _pl = read_image(img, scale)
    if not groups:
        raise VisionError("no_tiles", "No tiles were found on this photo.")
    if _pl.junk >= 6 and _pl.junk > 1.4 * len(groups):
        # suit signs and letters everywhere and few numbers: playing cards
        raise VisionError("cards", "This looks like playing cards, not tiles.")
    rows = rows_of(groups)
    order = [i for r in rows for i in r]
    tiles = [
        TileRead(
            groups[i].token,
            groups[i].box,
            float(groups[i].confidence),
            [
                (float(x), float(y))
                for x, y in (groups[i].quad if groups[i].quad is not None else [])
            ],
        )
        for i in order
    ]
    pos = {g: k for k, g in enumerate(order)}
    return Reading(tiles, [[pos[i] for i in r] for r in rows], time.perf_counter() - t0, size)


__all__ = ["LOW_CONFIDENCE", "Reading", "TileRead", "VisionError", "read_image", "read_photo"]
