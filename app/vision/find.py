"""Finding tiles in a picture by their printed numbers (classical image processing).

A tile is found by its ink: a number (one or two digits) or a joker's face printed dark or in
colour on a light face. The steps:

1. **Ink and face.** ``min(B, G, R)`` is high on a white or cream tile face and low on every
   ink (black, blue, red, orange all have one dark channel). Compared with the brightest
   ``min`` nearby (a local maximum over about 1/14 of the picture), a pixel is *face* when it
   is almost as bright and colourless, *ink* when it is much darker and either coloured or
   nearly black (grey shadows between tiles are neither). Where the locally brightest
   surface is warm but may be a tile face (ivory, cream: an Okey set), pixels of about its
   colour are face too, and pixels of a clearly other hue on it (a pale periwinkle ink) ink.
2. **Marks.** Connected ink regions of a plausible size that are mostly surrounded by face
   (where the ring around a region runs off the picture, that part is no face: background
   cut by the frame is no printed ink); a region that fails (ink joined to a neighbour
   through a shadow) is opened step by step and its parts are tried again. A number out of
   focus or printed in thin lines (a joker's outline) may be no ink at all by the fixed
   thresholds, or only fragments: the holes it leaves in the tile face, of about the size of
   the photo's other numbers, are marks too (:func:`faint_marks`); the reader also tries
   smaller holes about the size of the numbers read around them (:func:`local_faint`: far
   tiles in a steep view).
3. **Numbers.** Marks inside another (a joker's eyes and mouth) join it; small marks beside a
   much larger one on the same tile (logos, an Okey tile's suit sign, also when it sits in a
   hollow that breaks the face around it) are dropped; two marks
   of the same size side by side across their height are a two-digit number. One mark wider
   than a digit may be two digits whose ink ran together: the reader cuts it at its waist
   (:func:`split_joined`) and keeps the cut where the classifier reads a number better.
4. **Up or down.** A number's axis comes from its marks' shape (or from the line joining two
   digits); which end is up is decided by the tile face: a tile's number sits in its upper
   part, so the face runs further below the number than above it (a run ends at a gap
   between tiles, and coloured background such as wood is no printed ink). Where the face does not
   tell, the classifier (an upside-down 2, 3, 4, 5 or 7 is not a digit) and then the
   picture's other numbers decide.
5. **Colour** from the ink's core, white-balanced by the face around it: black unless the ink
   is both saturated and not too dark (:data:`COLOURED`); the red/orange boundary moves
   between the photo's own two clusters of warm inks when it shows both.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np


@dataclass
class Mark:
    """One ink region: its mask (cropped, uint8 0/255) at (x, y) in the picture."""

    x: int
    y: int
    mask: np.ndarray
    area: int
    cx: float
    cy: float
    long: float  # length of the long side of its turned bounding box, px
    short: float
    axis: tuple[float, float]  # unit vector along its long side (sign arbitrary)
    ring_face: float  # share of face pixels around it
    dropped: bool = False
    members: list[Mark] = field(default_factory=list)


@dataclass
class Group:
    """A number or joker candidate: one or two digit marks (reading order) with its up vector."""

    marks: list[Mark]
    up: tuple[float, float]
    up_sure: bool
    cx: float
    cy: float
    height: float  # the digit height along `up`, px
    width: float  # the number's width across `up`, px
    token: str = ""
    confidence: float = 0.0
    colour_conf: float = 0.0
    box: tuple[int, int, int, int] = (0, 0, 0, 0)
    quad: np.ndarray | None = None


@dataclass
class Planes:
    """The working picture and its derived planes."""

    img: np.ndarray
    face: np.ndarray  # bool
    ink: np.ndarray  # uint8 0/1
    lm: np.ndarray  # local maximum of min(B,G,R)
    junk: int = 0  # marks read as no tile (set by the reader)
    marked: np.ndarray | None = None  # uint8 0/1: the ink of found marks (set by find_marks)


def white_balance(img: np.ndarray) -> np.ndarray:
    """Scale the channels so the brightest (tile-face) pixels come out grey."""
    q = img[::4, ::4]
    sub = q.min(axis=2)
    t = np.percentile(sub, 97)
    sel = q[sub >= t]
    if len(sel) < 20:
        return img
    ref = sel.reshape(-1, 3).astype(np.float32).mean(axis=0)
    gains = np.clip(ref.max() / np.maximum(ref, 1), 1.0, 1.6)
    if float(gains.max()) < 1.03:
        return img
    lut = [np.clip(np.arange(256) * g, 0, 255).astype(np.uint8) for g in gains]
    return cv2.merge([cv2.LUT(img[:, :, c], lut[c]) for c in range(3)])


TINT_WARM = 0.37
"""The warmest tile face taken for one, as ``(R − B) ÷ R``: ivory and cream faces (an Okey set)
reach about 0.33; wood and pink or tan racks start about 0.42."""


def _near_tint(
    img: np.ndarray, small: np.ndarray, lm_s: np.ndarray, k: int
) -> tuple[np.ndarray, np.ndarray]:
    """(near, far): pixels of about the colour of the locally brightest surface, and pixels
    of a clearly other hue, where that colour may be a tile face (:data:`TINT_WARM`, not
    strongly coloured): a cream or ivory face lit warm, which the fixed colourless test
    misses, and a pale ink on it (an Okey set's periwinkle blue), which the fixed test takes
    for face. ``small`` is ``min(B, G, R)`` at a quarter scale, ``lm_s`` its local maximum,
    ``k`` the neighbourhood's side there."""
    h, w = img.shape[:2]
    sw, sh = small.shape[1], small.shape[0]
    col = cv2.resize(img, (sw, sh), interpolation=cv2.INTER_AREA).astype(np.float32)
    cand = ((small.astype(np.int16) * 100 >= lm_s.astype(np.int16) * 85) & (lm_s > 95)).astype(
        np.float32
    )
    cnt = cv2.blur(cand, (k, k))
    tint = [cv2.blur(col[:, :, c] * cand, (k, k)) / np.maximum(cnt, 1e-3) for c in range(3)]
    tmx = np.maximum(np.maximum(tint[0], tint[1]), tint[2])
    tmn = np.minimum(np.minimum(tint[0], tint[1]), tint[2])
    ok = (
        (cnt > 0.02)
        & ((tint[2] - tint[0]) < TINT_WARM * tmx)
        & (tmx - tmn < 0.45 * tmx)
        & (tint[2] >= tint[0])  # a warm tint; a cold one passes the fixed test
    )
    if not ok.any():
        return np.zeros((h, w), bool), np.zeros((h, w), bool)
    n = []
    for c in range(3):
        t = np.where(ok, 1.0 / np.maximum(tint[c], 1.0), 0.0).astype(np.float32)
        n.append(cv2.multiply(img[:, :, c], cv2.resize(t, (w, h)), dtype=cv2.CV_32F))
    nmx = cv2.max(cv2.max(n[0], n[1]), n[2])
    nmn = cv2.min(cv2.min(n[0], n[1]), n[2])
    return (nmn > 0.84 * nmx) & (nmx > 0), (nmn < 0.6 * nmx) & (nmx > 0)


def planes(img: np.ndarray) -> Planes:
    """Compute the face and ink planes of a BGR picture (see the module text)."""
    h, w = img.shape[:2]
    img = white_balance(img)
    b, g, r = cv2.split(img)
    mn = cv2.min(cv2.min(b, g), r)
    mx = cv2.max(cv2.max(b, g), r)
    k = max(9, int(max(h, w) / 14 / 4)) | 1
    small = cv2.resize(mn, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    lm_s = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    lm_s = cv2.blur(lm_s, (k // 2 | 1, k // 2 | 1))
    lm = cv2.resize(lm_s, (w, h), interpolation=cv2.INTER_LINEAR)
    mni = mn.astype(np.int16)
    lmi = lm.astype(np.int16)
    chroma = mx.astype(np.int16) - mni
    bright = lm > 95
    mxi = mx.astype(np.int16)
    warm = r.astype(np.int16) - b.astype(np.int16)
    near, far = _near_tint(img, small, lm_s, k)
    face = bright & (mni * 100 > lmi * 62) & (chroma * 100 < mxi * 35) & (warm * 100 < mxi * 30)
    face = (face | (bright & (mni * 100 > lmi * 62) & near)) & ~far
    dark = mx.astype(np.int16) * 100 < lmi * 45
    coloured = (mni * 100 < lmi * 60) & (chroma > 45)
    ink = (bright & (dark | coloured | (far & (mni * 100 < lmi * 85)))).astype(np.uint8)
    return Planes(img, face, ink, lm)


def _make_mark(pl: Planes, comp: np.ndarray, x0: int, y0: int) -> Mark | None:
    """A Mark from a component mask (uint8 0/1) at (x0, y0), or None when it is no mark."""
    ys, xs = np.nonzero(comp)
    if len(ys) < 20:
        return None
    x1, y1 = xs.min(), ys.min()
    sub = comp[y1 : ys.max() + 1, x1 : xs.max() + 1]
    H, W = pl.face.shape
    bh, bw = sub.shape
    big = max(bh, bw)
    if big < 8 or big > max(H, W) / 4:
        return None
    # the turned box of the pixels is that of their outer outline (fewer points, same hull)
    cont, _h = cv2.findContours(comp, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    pts = np.vstack([c.reshape(-1, 2) for c in cont]).astype(np.float32)
    (cx, cy), (rw, rh), ang = cv2.minAreaRect(pts)
    a = math.radians(ang)
    if rw >= rh:
        axis = (math.cos(a), math.sin(a))
        long_, short = rw, rh
    else:
        axis = (-math.sin(a), math.cos(a))
        long_, short = rh, rw
    long_ += 1
    short += 1
    gx, gy = x0 + x1, y0 + y1
    d = max(2, int(0.22 * big))
    # the ring is laid out whole, also where it runs off the picture: that share counts as
    # not face (a piece of background cut by the frame is not ink surrounded by a tile face)
    full = np.zeros((bh + 2 * d, bw + 2 * d), np.uint8)
    full[d : d + bh, d : d + bw] = sub
    dil = cv2.dilate(full, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * d + 1, 2 * d + 1)))
    around = (dil > 0) & (full == 0)
    xa, ya = max(0, gx - d), max(0, gy - d)
    xb, yb = min(W, gx + bw + d), min(H, gy + bh + d)
    inside = around[ya - gy + d : yb - gy + d, xa - gx + d : xb - gx + d]
    ring = inside & (pl.ink[ya:yb, xa:xb] == 0)
    off = int(around.sum()) - int(inside.sum())
    n = int(ring.sum()) + off
    if n == 0:
        return None
    rf = float(pl.face[ya:yb, xa:xb][ring].sum()) / n
    return Mark(
        gx,
        gy,
        (sub * 255).astype(np.uint8),
        int(len(ys)),
        float(cx + x0),
        float(cy + y0),
        float(long_),
        float(short),
        axis,
        rf,
    )


def _ok(m: Mark) -> bool:
    return (
        m.ring_face >= 0.45
        and m.short >= 3
        and m.long / max(m.short, 1) < 7
        and 0.12 * m.long * m.short <= m.area <= 0.8 * m.long * m.short
    )


def find_marks(pl: Planes) -> list[Mark]:
    """Every ink mark surrounded by tile face (see the module text)."""
    n, lab, st, _c = cv2.connectedComponentsWithStats(pl.ink, connectivity=8)
    H, W = pl.ink.shape
    out: list[Mark] = []
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in st[i])
        if area < 20 or max(bw, bh) < 8:
            continue
        if max(bw, bh) > max(H, W) / 2.5:
            continue
        comp = (lab[y : y + bh, x : x + bw] == i).astype(np.uint8)
        m = _make_mark(pl, comp, x, y) if max(bw, bh) <= max(H, W) / 4 else None
        if m is not None and _ok(m):
            out.append(m)
            continue
        if area < 150:
            continue
        # joined to something through a thin bridge: open step by step and retry the parts
        for k in (3, 5, 7, 9):
            ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
            opened = cv2.morphologyEx(comp, cv2.MORPH_OPEN, ker)
            nn, lab2, st2, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
            found = []
            for j in range(1, nn):
                if st2[j, 4] < 20:
                    continue
                part = (lab2 == j).astype(np.uint8)
                part = cv2.dilate(part, ker) & comp  # give back the opened-off edge
                mm = _make_mark(pl, part, x, y)
                if mm is not None and _ok(mm):
                    found.append(mm)
            if found:
                out.extend(found)
                break
    out = faint_marks(pl, out)
    # printed ink, as opposed to coloured background between tiles (wood, cloth)
    marked = np.zeros_like(pl.ink)
    for m in out:
        h, w = m.mask.shape
        marked[m.y : m.y + h, m.x : m.x + w] |= (m.mask > 0).astype(np.uint8)
    pl.marked = marked
    return out


FAINT = 0.75
"""The darkest pixel of a faint mark (:func:`faint_marks`) is at most this share of the face's
brightness around it: a blurred digit's core reaches about 0.6, the embossed logo and the
shading of a tile's face stay above 0.85."""


def _holes(pl: Planes) -> list[tuple[int, int, int, int, np.ndarray]]:
    """The holes in the tile face (regions of no face that face surrounds) inside the picture
    and at least 3 px across: (x, y, w, h, contour)."""
    H, W = pl.face.shape
    cont, hier = cv2.findContours(pl.face.astype(np.uint8), cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hier is None:
        return []
    out = []
    for c, hi in zip(cont, hier[0], strict=True):
        if hi[3] < 0:  # an outer outline, not a hole
            continue
        x, y, w, h = cv2.boundingRect(c)
        if min(w, h) < 3 or x == 0 or y == 0 or x + w >= W or y + h >= H:
            continue
        out.append((x, y, w, h, c))
    return out


def _owners(pl: Planes, marks: list[Mark]) -> np.ndarray:
    """Per pixel, the index of the mark whose ink it is, else -1."""
    owner = np.full(pl.face.shape, -1, np.int32)
    for k, m in enumerate(marks):
        h, w = m.mask.shape
        owner[m.y : m.y + h, m.x : m.x + w][m.mask > 0] = k
    return owner


def _hole_mark(
    pl: Planes,
    hole: tuple[int, int, int, int, np.ndarray],
    marks: list[Mark],
    owner: np.ndarray,
    bar: bool = False,
) -> tuple[Mark, set[int]] | None:
    """The faint mark in a hole (its pixels darker than halfway from the face's brightness to
    the hole's darkest, :data:`FAINT`) and the indexes of the marks inside the hole it
    replaces; None when the hole is a mark already found, not dark enough, no mark, or a long
    bar (the gap between two tiles that touch at both ends) unless ``bar`` allows one."""
    x, y, w, h, c = hole
    inside = np.zeros((h, w), np.uint8)
    cv2.drawContours(inside, [c - np.array([x, y])], -1, 1, cv2.FILLED)
    held = owner[y : y + h, x : x + w][inside > 0]
    ks = set(np.unique(held[held >= 0]).tolist())
    if any(marks[k].long >= 0.75 * max(w, h) for k in ks):
        return None  # the hole is a mark already found (maybe with its halo)
    sub = pl.img[y : y + h, x : x + w].min(axis=2).astype(np.float32)
    lm = pl.lm[y : y + h, x : x + w].astype(np.float32)
    rel = np.where(inside > 0, sub / np.maximum(lm, 1.0), 2.0)
    darkest = float(rel.min())
    if darkest > FAINT:
        return None
    comp = ((rel < (1.0 + darkest) / 2) & (inside > 0)).astype(np.uint8)
    mk = _make_mark(pl, comp, x, y)
    if mk is None or not _ok(mk):
        return None
    if mk.long > 3.2 * mk.short and not bar:
        return None  # a long bar: the gap between two tiles that touch at both ends
    if any(marks[k].long >= 0.7 * mk.long for k in ks):
        return None
    return mk, ks


def faint_marks(pl: Planes, marks: list[Mark]) -> list[Mark]:
    """``marks`` with the faint ones the fixed ink thresholds missed or broke up: a number out
    of focus (its thin strokes blurred to grey) or printed in a thin line (a joker's outline).
    Each hole in the tile face (a region of no face that face surrounds: not the background
    around the tiles; the gap between two tiles that touch at both ends is a long bar, left
    out) of about a number's size and inside the picture is a candidate; its ink is the pixels
    darker than halfway from the face's brightness to the hole's darkest (:data:`FAINT`). It
    replaces the marks inside it when each of those is much smaller than it (fragments of the
    same faint number); a hole holding a mark about its own size is that mark."""
    size = number_size(marks)
    if size <= 0:
        return marks
    owner = _owners(pl, marks)
    drop: set[int] = set()
    added: list[Mark] = []
    for hole in _holes(pl):
        if not (0.55 * size <= max(hole[2], hole[3]) <= 1.6 * size):
            continue
        found = _hole_mark(pl, hole, marks, owner)
        if found is not None:
            drop |= found[1]
            added.append(found[0])
    if not added:
        return marks
    return [m for k, m in enumerate(marks) if k not in drop] + added


def local_faint(
    pl: Planes, marks: list[Mark], size_at: Callable[[float, float, float], float]
) -> list[tuple[Mark, set[int]]]:
    """Faint marks (:func:`faint_marks`) in the holes smaller than the photo's number size
    (``marks``' :func:`number_size`; at least :data:`LOCAL_FAINT` of it, below the 0.55 that
    :func:`faint_marks` tries) that are about the size of the numbers around them: a far
    tile's number in a steep view, blurred. ``size_at(x, y, s)`` gives the usual number
    height (px) around (x, y) for a hole of size ``s`` (0: none known); a hole is tried when
    its size is 0.75–1.35 of that, and there it may be a bar up to 1.3 of it (a "1"). Each
    with the indexes of the marks it replaces (fragments of it)."""
    size = number_size(marks)
    if size <= 0:
        return []
    owner = _owners(pl, marks)
    out = []
    for hole in _holes(pl):
        x, y, w, h, _c = hole
        s = max(w, h)
        if not LOCAL_FAINT * size <= s < 0.55 * size:
            continue
        here = size_at(x + w / 2, y + h / 2, s)
        if here <= 0 or not 0.75 * here <= s <= 1.35 * here:
            continue
        found = _hole_mark(pl, hole, marks, owner, bar=s <= 1.3 * here)
        if found is not None:
            out.append(found)
    return out


LOCAL_FAINT = 0.3
"""The smallest hole :func:`local_faint` tries, as a share of the photo's number size."""


def _merge(a: Mark, b: Mark) -> Mark:
    x0, y0 = min(a.x, b.x), min(a.y, b.y)
    x1 = max(a.x + a.mask.shape[1], b.x + b.mask.shape[1])
    y1 = max(a.y + a.mask.shape[0], b.y + b.mask.shape[0])
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for k in (a, b):
        h, w = k.mask.shape
        m[k.y - y0 : k.y - y0 + h, k.x - x0 : k.x - x0 + w] |= k.mask
    return Mark(
        x0,
        y0,
        m,
        a.area + b.area,
        a.cx,
        a.cy,
        a.long,
        a.short,
        a.axis,
        a.ring_face,
        members=a.members + [b],
    )


def _same_face(pl: Planes, a: Mark, b: Mark) -> bool:
    """Whether the tile face runs unbroken from mark ``a`` to mark ``b`` (the same tile), not
    across the gap or shadow between two tiles."""
    ink = pl.marked if pl.marked is not None else pl.ink
    H, W = pl.face.shape
    n = int(math.hypot(b.cx - a.cx, b.cy - a.cy)) + 1
    off = 0
    for k in range(n + 1):
        x = int(a.cx + (b.cx - a.cx) * k / n)
        y = int(a.cy + (b.cy - a.cy) * k / n)
        if 0 <= x < W and 0 <= y < H and not pl.face[y, x] and not ink[y, x]:
            off += 1
            if off >= 2:
                return False
        else:
            off = 0
    return True


def _below(m: Mark, k: Mark) -> bool:
    """Whether small mark ``m`` lies just above or below mark ``k`` along ``k``'s long axis,
    as an Okey tile's suit sign lies under its number (sunk in a hollow, so the face between
    them is broken). The next tile up or down a rack lies further than this."""
    dx, dy = m.cx - k.cx, m.cy - k.cy
    d = math.hypot(dx, dy) or 1.0
    return (
        abs(k.long - k.short) > 0.25 * k.long
        and abs(dx * k.axis[0] + dy * k.axis[1]) > 0.9 * d
        and d < 1.25 * k.long
    )


def number_size(marks: list[Mark]) -> float:
    """The photo's usual digit height (px, a mark's long side): the median of the larger
    marks (at least half the 80th percentile). Suit signs, logo letters and specks are many
    and small, so the median of all marks may be theirs (then a tile's number would pass for
    a giant beside them); 0 for no marks."""
    if not marks:
        return 0.0
    longs = np.array([m.long for m in marks])
    big = longs[longs >= 0.5 * float(np.percentile(longs, 80))]
    return float(np.median(big))


def tidy(marks: list[Mark], pl: Planes | None = None) -> list[Mark]:
    """Join marks lying inside a larger one (a joker's features); drop small ones beside a much
    larger one on the same tile (logo letters, an Okey tile's suit sign). Without the planes
    ``pl`` a small mark near a larger one is dropped even on the next tile."""
    marks = sorted(marks, key=lambda m: -m.long)
    typical = number_size(marks)
    kept: list[Mark] = []
    for m in marks:
        host = None
        for k in kept:
            hh, ww = k.mask.shape
            if (
                k.x <= m.cx <= k.x + ww
                and k.y <= m.cy <= k.y + hh
                and m.long < 0.75 * k.long
                and abs(k.long - k.short) < 0.35 * k.long  # only a round host (a joker's face)
            ):
                host = k
                break
        if host is not None:
            kept[kept.index(host)] = _merge(host, m)
            continue
        small = False
        for k in kept:
            if (
                m.long < 0.62 * k.long
                and k.short >= m.short  # not beside a thin bar (a rack's edge, a shadow)
                and (
                    (
                        m.long > 0.4 * k.long
                        and math.hypot(m.cx - k.cx, m.cy - k.cy) < 1.6 * k.long
                        and (pl is None or _same_face(pl, m, k))
                    )
                    or (m.long > 0.2 * k.long and k.long < 2 * typical and _below(m, k))
                )
            ):
                small = True
                break
        if not small:
            kept.append(m)
    return kept


def pair_digits(marks: list[Mark]) -> list[list[Mark]]:
    """Marks grouped into numbers: two digits side by side (across their height), or one."""
    cand: list[tuple[float, int, int]] = []
    for i, a in enumerate(marks):
        for j in range(i + 1, len(marks)):
            b = marks[j]
            if not (0.72 < a.long / b.long < 1.39):
                continue
            dx, dy = b.cx - a.cx, b.cy - a.cy
            d = math.hypot(dx, dy)
            h = max(a.long, b.long)
            if d > 0.98 * h or d < 0.2 * h:
                continue
            # the offset must run across the digits' height: compare with the pair's axis
            ax = a.axis if a.short / a.long < b.short / b.long else b.axis
            along = abs(dx * ax[0] + dy * ax[1]) / d
            if along > 0.42:
                continue
            # and the edge-to-edge gap must be small
            gap = d - (a.short + b.short) / 2
            if gap > 0.38 * h:
                continue
            cand.append((d / h, i, j))
    cand.sort()
    used: set[int] = set()
    groups: list[list[Mark]] = []
    for _s, i, j in cand:
        if i in used or j in used:
            continue
        used.update((i, j))
        groups.append([marks[i], marks[j]])
    groups += [[m] for k, m in enumerate(marks) if k not in used]
    return groups


def face_run(
    pl: Planes,
    x: float,
    y: float,
    dx: float,
    dy: float,
    start: float,
    limit: float,
    ink_max: float | None = None,
) -> float:
    """How far (px) the tile face runs from (x, y) along (dx, dy), beyond ``start`` px of ink.

    Printed ink crossed on the way (a suit sign, another digit: the found marks, where
    :func:`find_marks` has run) does not end the run, unless the face stops for more than
    ``ink_max`` px; other ink (a coloured background between this tile and the next) counts
    as a gap."""
    H, W = pl.face.shape
    ink = pl.marked if pl.marked is not None else pl.ink
    gap = 0.0
    inked = 0.0
    last = start
    t = start
    step = max(1.0, limit / 120)
    while t < limit:
        px, py = int(x + dx * t), int(y + dy * t)
        if not (0 <= px < W and 0 <= py < H):
            break
        if pl.face[py, px]:
            last = t
            gap = inked = 0.0
        else:
            inked += step
            if ink_max is not None and inked > ink_max:
                break
            if not ink[py, px]:
                gap += step
                if gap > max(3.0, 0.08 * limit):
                    break
        t += step
    return last - start


def axis_of(members: list[Mark]) -> tuple[float, float] | None:
    """The up axis (sign arbitrary) of a number's marks; None for a round mark (a joker)."""
    if len(members) == 2:
        a, b = members
        dx, dy = b.cx - a.cx, b.cy - a.cy
        d = math.hypot(dx, dy) or 1.0
        return (dy / d, -dx / d)
    m = members[0]
    if abs(m.long - m.short) < 0.15 * m.long:
        return None
    return m.axis


def smooth_axes(groups: list[list[Mark]]) -> list[tuple[float, float] | None]:
    """Each number's axis, replaced by its neighbours' common axis when it strays more than
    12° from it (a 4 or 7's slant, a joker's round face)."""
    axes = [axis_of(g) for g in groups]
    cs = [
        (sum(m.cx for m in g) / len(g), sum(m.cy for m in g) / len(g), max(m.long for m in g))
        for g in groups
    ]
    out: list[tuple[float, float] | None] = []
    for i, (x, y, h) in enumerate(cs):
        near = sorted(
            (math.hypot(x2 - x, y2 - y), j)
            for j, (x2, y2, _h) in enumerate(cs)
            if j != i and axes[j] is not None and math.hypot(x2 - x, y2 - y) < 4 * h
        )[:6]
        if len(near) < 2:
            out.append(axes[i])
            continue
        # mean of doubled angles (axes have no sign)
        near_axes = [ax for _d, j in near if (ax := axes[j]) is not None]
        sx = sum(math.cos(2 * math.atan2(ax[1], ax[0])) for ax in near_axes)
        sy = sum(math.sin(2 * math.atan2(ax[1], ax[0])) for ax in near_axes)
        if math.hypot(sx, sy) < 0.7 * len(near):  # neighbours disagree: keep its own
            out.append(axes[i])
            continue
        t = math.atan2(sy, sx) / 2
        common = (math.cos(t), math.sin(t))
        own = axes[i]
        if own is None or abs(own[0] * common[0] + own[1] * common[1]) < math.cos(math.radians(12)):
            out.append(common)
        else:
            out.append(own)
    return out


def orient(pl: Planes, members: list[Mark], axis: tuple[float, float] | None = None) -> Group:
    """A Group for a number's marks: axis, up direction (by the tile face), reading order."""
    if len(members) == 2:
        a, b = members
        dx, dy = b.cx - a.cx, b.cy - a.cy
        d = math.hypot(dx, dy) or 1.0
        up = (dy / d, -dx / d)  # perpendicular to the digits' line
        height = (a.long + b.long) / 2
        cx, cy = (a.cx + b.cx) / 2, (a.cy + b.cy) / 2
    else:
        m = members[0]
        up = m.axis
        height = m.long
        cx, cy = m.cx, m.cy
        if abs(m.long - m.short) < 0.15 * m.long:  # round (a joker): no axis; take image-up
            up = (0.0, -1.0)
    if axis is not None:
        up = axis
    # which end is up: the face runs further below the number
    lim = 3.2 * height
    fwd = face_run(pl, cx, cy, up[0], up[1], height / 2, lim, 0.6 * height)
    back = face_run(pl, cx, cy, -up[0], -up[1], height / 2, lim, 0.6 * height)
    sure = max(fwd, back) > 1.3 * min(fwd, back) + 0.05 * height
    if back < fwd:  # more face ahead: that side is down
        up = (-up[0], -up[1])
    reading = (-up[1], up[0])
    ms = sorted(members, key=lambda k: k.cx * reading[0] + k.cy * reading[1])
    width = sum(k.short for k in ms) if len(ms) == 2 else members[0].short
    return Group(ms, up, sure, cx, cy, height, width)


WARM_SPLIT = 0.15
"""Where red ends and orange begins on the hue scale ``(G − B) ÷ (R − min(G, B))`` of
face-balanced ink (:func:`_warmth`), when a photo's warm inks do not show two clusters of
their own (see :func:`warm_split`): the rendered inks lie at about −0.06 (red) and 0.5
(orange); cameras shift both warmer, real reds reaching about 0.13 and real oranges starting
about 0.17."""


def ink_rgb(pl: Planes, g: Group) -> tuple[float, float, float]:
    """A group's ink colour (B, G, R), each divided by the tile face's around it (0–1.3)."""
    img = pl.img
    H, W = pl.face.shape
    vals = []
    for m in g.marks:
        mk = m.mask
        core = cv2.erode(mk, np.ones((3, 3), np.uint8)) if min(mk.shape) > 8 else mk
        if core.sum() < 255 * 6:
            core = mk
        ys, xs = np.nonzero(core)
        vals.append(img[ys + m.y, xs + m.x])
    px = np.vstack(vals).astype(np.float32)
    ink = np.median(px, axis=0)
    r = int(1.2 * g.height)
    x0, y0 = max(0, int(g.cx) - r), max(0, int(g.cy) - r)
    x1, y1 = min(W, int(g.cx) + r), min(H, int(g.cy) + r)
    fm = pl.face[y0:y1, x0:x1]
    facec = (
        np.median(img[y0:y1, x0:x1][fm], axis=0).astype(np.float32)
        if fm.sum() > 10
        else np.array([230, 235, 240], np.float32)
    )
    n = np.clip(ink / np.maximum(facec, 1), 0, 1.3)
    return float(n[0]), float(n[1]), float(n[2])


def _warmth(n: tuple[float, float, float]) -> float | None:
    """The hue of a red or orange ink, ``(G − B) ÷ (R − min(G, B))`` (HSV's hue over 60°: 0
    for pure red, 1 for yellow, down to −1 for magenta); None for black, blue or no ink. Ink
    mixed with the white face around it (a blurred or glared number: ``a × ink + (1 − a) ×
    face``) keeps its hue, while ``(G − B) ÷ R`` falls with the mix, so a blurred orange
    would pass for red."""
    b, gg, rr = n
    chroma = max(b, gg, rr) - min(b, gg, rr)
    if ((b + gg + rr) / 3 > 0.58 and chroma < 0.3) or chroma < 0.16 or b >= rr:
        return None
    return (gg - b) / max(rr - min(gg, b), 1e-3)


def warm_split(inks: list[tuple[float, float, float]]) -> float:
    """The red/orange boundary for one photo. The light and the camera shift both inks alike,
    so when the photo's warm inks fall into two clear clusters (far apart for their spread and
    at least 0.18 apart, the upper one orange by the fixed boundary too) the boundary lies
    between them; otherwise :data:`WARM_SPLIT`. (Printed red and orange differ by about 0.3
    to 0.5 on this scale; ink jitter among reds alone stays well under 0.18.)"""
    w = sorted(x for x in (_warmth(n) for n in inks) if x is not None)
    if len(w) < 2:
        return WARM_SPLIT
    a = np.array(w)
    best, cut = -1.0, WARM_SPLIT
    for k in range(1, len(a)):
        lo, hi = a[:k], a[k:]
        between = len(lo) * len(hi) * (hi.mean() - lo.mean()) ** 2
        if between > best:
            best, cut = between, float((lo.max() + hi.min()) / 2)
            spread = max(float(lo.std()), float(hi.std()), 0.02)
            gap = float(hi.mean() - lo.mean())
            sep = gap / spread
            top = float(hi.mean())
    if sep < 4 or gap < 0.18 or top < WARM_SPLIT + 0.1:
        return WARM_SPLIT
    return cut


COLOURED = 0.5
"""The least ``chroma + ½ × value`` of a face-balanced coloured ink (see :func:`ink_colour`).
On renders under every light, black inks reach about 0.48 (a dark ink's ratio to the face
magnifies the noise of its few bright pixels) and blue, red or orange start near 0.6."""


def ink_colour(
    pl: Planes, g: Group, split: float = WARM_SPLIT, n: tuple[float, float, float] | None = None
) -> tuple[str, float]:
    """The colour letter (R, B, K, Y) of a group's ink and a confidence 0–1; ``split`` is the
    red/orange boundary (:func:`warm_split`), ``n`` the ink from :func:`ink_rgb` if known."""
    b, gg, rr = n if n is not None else ink_rgb(pl, g)
    chroma = max(b, gg, rr) - min(b, gg, rr)
    if (b + gg + rr) / 3 > 0.58 and chroma < 0.3:
        return "", 0.0  # too light for printed ink: a shadow or the embossed logo
    if chroma < 0.16:
        return "K", min(1.0, (0.16 - chroma) / 0.08 + 0.5)
    strength = chroma + 0.5 * (b + gg + rr) / 3
    if strength < COLOURED:
        # a dark ink with some colour in its few bright pixels (noise, a colour fringe,
        # warm light) is black: a printed colour is both saturated and not that dark
        return "K", min(1.0, 0.5 + (COLOURED - strength) / 0.2)
    if b >= rr:
        return "B", min(1.0, 0.5 + (b - rr) / 0.2)
    # orange has much more green than blue; red about as much (or less)
    ratio = (gg - b) / max(rr - min(gg, b), 1e-3)
    if ratio < split:
        return "R", min(1.0, 0.5 + (split - ratio) / 0.1)
    return "Y", min(1.0, 0.5 + (ratio - split) / 0.1)


def tile_quad(pl: Planes, g: Group) -> np.ndarray:
    """Four corners of the tile around a number: found along the face, bounded by the number."""
    up = np.array(g.up)
    rd = np.array((-g.up[1], g.up[0]))
    h = g.height
    half_w = max(g.width / 2 + 0.25 * h, 0.55 * h)
    lim_r = max(half_w * 1.6, 1.0 * h)
    right = half_w + min(face_run(pl, g.cx, g.cy, rd[0], rd[1], half_w, lim_r), 0.35 * h)
    left = half_w + min(face_run(pl, g.cx, g.cy, -rd[0], -rd[1], half_w, lim_r), 0.35 * h)
    top = h / 2 + min(face_run(pl, g.cx, g.cy, up[0], up[1], h / 2, 1.5 * h), 0.5 * h)
    bot = h / 2 + min(face_run(pl, g.cx, g.cy, -up[0], -up[1], h / 2, 3.0 * h), 1.6 * h)
    c = np.array((g.cx, g.cy))
    return np.array(
        [
            c + up * top - rd * left,
            c + up * top + rd * right,
            c - up * bot + rd * right,
            c - up * bot - rd * left,
        ],
        np.float32,
    )


MELD_GAP = 1.45
"""A gap in a row where it is split into melds: a step from one tile's number to the next of
more than this many times the photo's usual step (tiles of a meld on the table touch)."""

RACK_GAP = 2.5
"""The same on a rack's tier (:func:`_tier`): a player leaves a slot empty between the tiles
of one tier (a step of twice the usual), which stays one row; only a gap of about two empty
slots or more splits it (tiles on a table packed as tightly as a rack's tiers, melds a tile
and a half apart or more)."""


def _line(groups: list[Group], row: list[int]) -> tuple[float, float, float, float, float]:
    """(up x, up y, centre x, centre y, mean number height) of a row of tiles."""
    ux = sum(groups[i].up[0] for i in row)
    uy = sum(groups[i].up[1] for i in row)
    un = math.hypot(ux, uy) or 1.0
    cx = sum(groups[i].cx for i in row) / len(row)
    cy = sum(groups[i].cy for i in row) / len(row)
    return ux / un, uy / un, cx, cy, sum(groups[i].height for i in row) / len(row)


def _tier(groups: list[Group], row: list[int], rows: list[list[int]]) -> bool:
    """Whether a row of tiles is a tier of a rack: another row of at least two tiles facing
    the same way lies right above or below it (its numbers 1.5–4.2 number heights away
    across the row: a tile's height and a little more) and beside it along the row. Melds on
    a table lie further apart; a rack's tiers are stacked a tile's height apart."""
    if len(row) < 2:
        return False
    ux, uy, cx, cy, h = _line(groups, row)
    rd = (-uy, ux)
    along = [groups[i].cx * rd[0] + groups[i].cy * rd[1] for i in row]
    for other in rows:
        if other is row or len(other) < 2:
            continue
        vx, vy, ox, oy, oh = _line(groups, other)
        if ux * vx + uy * vy < 0.9:
            continue
        across = abs((ox - cx) * ux + (oy - cy) * uy) / ((h + oh) / 2)
        if not 1.5 < across < 4.2:
            continue
        o_along = [groups[i].cx * rd[0] + groups[i].cy * rd[1] for i in other]
        if max(min(along), min(o_along)) < min(max(along), max(o_along)) + h:
            return True
    return False


def rows_of(groups: list[Group]) -> list[list[int]]:
    """Tiles grouped into rows as they lie, each read left to right in its tiles' own frame.

    Each tile links to its nearest neighbour to the right (same turn, on the same line); the
    chains are rows. A row with wide gaps (:data:`MELD_GAP`; on a rack's tier
    :data:`RACK_GAP`) is split into melds where every part keeps at least three tiles, or at
    least two parts do (melds on the table, one maybe missing a tile); otherwise it stays
    whole (a rack row with gaps).
    """
    n = len(groups)
    right: dict[int, int] = {}
    left: dict[int, int] = {}
    best: list[tuple[float, int, int]] = []
    for i, a in enumerate(groups):
        for j, b in enumerate(groups):
            if i == j:
                continue
            if a.up[0] * b.up[0] + a.up[1] * b.up[1] < 0.85:
                continue
            # the pair's frame: the mean of the two ups (each may be off its tile's by a few
            # degrees, which over a wide gap would put the next tile off the line)
            ux, uy = a.up[0] + b.up[0], a.up[1] + b.up[1]
            un = math.hypot(ux, uy)
            ux, uy = ux / un, uy / un
            rd = (-uy, ux)
            dx, dy = b.cx - a.cx, b.cy - a.cy
            along = dx * rd[0] + dy * rd[1]
            across = dx * ux + dy * uy
            h = (a.height + b.height) / 2
            if along <= 0.3 * h or along > 9 * h:
                continue
            if abs(across) > 0.55 * h + 0.12 * along:
                continue
            best.append((along / h + 2 * abs(across) / h, i, j))
    best.sort()
    for _s, i, j in best:
        if i in right or j in left:
            continue
        # no cycles
        k = i
        while k in left:
            k = left[k]
        if k == j:
            continue
        right[i] = j
        left[j] = i
    rows: list[list[int]] = []
    for i in range(n):
        if i in left:
            continue
        row = [i]
        while row[-1] in right:
            row.append(right[row[-1]])
        rows.append(row)
    # split rows at wide gaps when every part is a possible meld
    steps = []
    for row in rows:
        for ia, ib in zip(row, row[1:], strict=False):
            ga, gb = groups[ia], groups[ib]
            steps.append(math.hypot(gb.cx - ga.cx, gb.cy - ga.cy) / ((ga.height + gb.height) / 2))
    pitch = float(np.median(steps)) if steps else 1.0
    out: list[list[int]] = []
    for row in rows:
        # a rack's tier keeps its gaps (a tile moved away)
        wide = (RACK_GAP if _tier(groups, row, rows) else MELD_GAP) * pitch
        parts = [[row[0]]]
        for ia, ib in zip(row, row[1:], strict=False):
            ga, gb = groups[ia], groups[ib]
            s = math.hypot(gb.cx - ga.cx, gb.cy - ga.cy) / ((ga.height + gb.height) / 2)
            if s > wide:
                parts.append([ib])
            else:
                parts[-1].append(ib)
        melds = sum(len(p) >= 3 for p in parts)
        if len(parts) > 1 and (melds == len(parts) or melds >= 2):
            out.extend(parts)
        else:
            out.append(row)
    # order rows top to bottom in the picture's dominant frame
    if groups:
        ux = float(np.mean([g.up[0] for g in groups]))
        uy = float(np.mean([g.up[1] for g in groups]))
        norm = math.hypot(ux, uy) or 1.0
        ux, uy = ux / norm, uy / norm
        out.sort(
            key=lambda r: (
                -round(
                    float(np.mean([groups[i].cx * ux + groups[i].cy * uy for i in r]))
                    / max(1.0, float(np.mean([groups[i].height for i in r])) * 1.2)
                ),
                np.mean([groups[i].cx * -uy + groups[i].cy * ux for i in r]),
            )
        )
    return out


def ink_strength(pl: Planes, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """How strongly each pixel (xs, ys) is inked, 0.05–1: its darkest channel's drop below
    the local face brightness, or its colourfulness, whichever is larger (0.35 or less: a
    pale blur; 0.8 or more: full ink)."""
    px = pl.img[ys, xs].astype(np.float32)
    mn, mx = px.min(axis=1), px.max(axis=1)
    lm = np.maximum(pl.lm[ys, xs].astype(np.float32), 1.0)
    s = np.maximum((lm - mn) / lm, (mx - mn) / np.maximum(mx, 1.0))
    return np.asarray(np.clip((s - 0.35) / 0.45, 0.05, 1.0))


SHALLOW = 0.6
"""A shallower waist than :func:`split_joined` cuts by default (ink across the reading
direction, against the thinner of the two digits' peaks; default 0.4): a "1" whose flag ran
into the next digit's top leaves one. Whether a cut is a number is for the classifier to say,
and the reader trusts such cuts less."""


EMPTY_GAP = 0.08
"""The waist at which :func:`split_joined` cuts a mark no wider than one digit: next to no ink
across the reading direction, as a share of the lower peak on either side (the gap between a
"11"'s two bars, which a blur joined at one end)."""


def cut_mark(
    pl: Planes, m: Mark, xs: np.ndarray, ys: np.ndarray, t: np.ndarray, cut: float
) -> list[Mark] | None:
    """The two marks of ``m``'s ink pixels (``xs``, ``ys``: in the mark's box) on either side
    of ``cut`` along ``t`` (each pixel's place across the cut, px), or None when a side is no
    mark or thinner than 3 px."""
    parts = []
    for sel in (t < cut, t >= cut):
        comp = np.zeros(m.mask.shape, np.uint8)
        comp[ys[sel], xs[sel]] = 1
        mk = _make_mark(pl, comp, m.x, m.y)
        if mk is None or mk.short < 3:
            return None
        parts.append(mk)
    return parts


def split_joined(
    pl: Planes, m: Mark, axis: tuple[float, float], valley: float = 0.4
) -> list[tuple[list[Mark], float, bool]]:
    """Two digits printed so close that their ink joined (a narrow font, blur) → ways to cut the
    mark into two, each with the mark's width ÷ height in that frame and whether the frame is
    ``axis``'s own (False: the axis across it); empty when the mark has
    no waist. The cuts are at the thinnest places across the reading direction, for ``axis``
    (the number's up axis, sign arbitrary) and for the axis across it (a joined pair's own
    shape gives no reliable axis). Whether a cut really is a two-digit number is for the
    classifier to say. ``valley``: the deepest waist cut, as a share of the lower peak on
    either side (:data:`SHALLOW`); a mark no wider than one digit (narrower than 0.6 of its
    height: a "11" in a narrow font, whose bars a blur joined at one end) is cut only at an
    empty gap (:data:`EMPTY_GAP`)."""
    ys, xs = np.nonzero(m.mask)
    if len(ys) < 40 or m.members:
        return []
    strength = ink_strength(pl, xs + m.x, ys + m.y)
    out: list[tuple[list[Mark], float, bool]] = []
    for own, ax in ((True, axis), (False, (-axis[1], axis[0]))):
        rd = (-ax[1], ax[0])
        t = xs * rd[0] + ys * rd[1]
        u = xs * ax[0] + ys * ax[1]
        height = float(u.max() - u.min()) + 1
        t0 = float(t.min())
        length = float(t.max()) - t0 + 1
        # no wider than one digit: cut only at an empty gap (two bars, a "11" whose strokes
        # a blur joined at one end; one digit's loop or bars always have ink between them)
        narrow = length < 0.6 * height
        if length < 0.25 * height:
            continue  # one bar
        deepest = EMPTY_GAP if narrow else valley
        nb = int(math.ceil(length))
        # each ink pixel counts by its strength: where two digits' ink ran together through
        # a blur, the bridge is paler than the strokes
        hist: np.ndarray = np.bincount(
            np.clip((t - t0).astype(np.int32), 0, nb - 1), weights=strength, minlength=nb
        ).astype(np.float32)
        if nb >= 30:  # smoothed only where one column is a small share of a digit
            hist = np.convolve(hist, np.ones(3, np.float32) / 3, mode="same")
        lo, hi = max(1, int(0.2 * nb)), min(nb - 1, int(math.ceil(0.8 * nb)))
        valleys = [
            k
            for k in range(lo, hi)
            if hist[k] <= hist[k - 1]
            and hist[k] <= hist[k + 1]
            and hist[k] <= deepest * min(hist[:k].max(), hist[k + 1 :].max())
        ]
        valleys.sort(key=lambda k: hist[k])
        tried: list[int] = []
        for k in valleys:
            if any(abs(k - j) < 0.1 * nb for j in tried) or len(tried) >= 3:
                continue
            tried.append(k)
            parts = cut_mark(pl, m, xs, ys, t, t0 + k + 0.5)
            if parts is not None:
                out.append((parts, length / height, own))
    return out
