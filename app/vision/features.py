"""One ink mark (a digit, a joker's face, something else) → a fixed-length feature vector.

Shared by the training script and the reader, so both see marks the same way: the mark's mask
is turned upright (its tile's "up" pointing to the top of the picture), cropped to its ink, set
in a 32×32 square by its height (keeping its width to height ratio), and described by a HOG of
the square, the square itself at 8×8 and its aspect ratio and ink fill.
"""

from __future__ import annotations

import math
from typing import Final

import cv2
import numpy as np

SIDE: Final = 32
CELL: Final = 8
BINS: Final = 9
DIM: Final = (SIDE // CELL) ** 2 * BINS + (SIDE // CELL - 1) ** 2 * BINS + 64 + 3


def hog(sq: np.ndarray) -> np.ndarray:
    """Histograms of gradient direction (unsigned, 9 bins) over 8×8 cells and over 16×16 blocks
    straddling them, each normalised."""
    f = sq.astype(np.float32) / 255.0
    gx = cv2.Sobel(f, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(f, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.sqrt(gx * gx + gy * gy)
    ang = np.mod(np.arctan2(gy, gx), math.pi)
    b = np.minimum((ang / math.pi * BINS).astype(np.int32), BINS - 1)
    n = SIDE // CELL
    onehot = np.zeros((SIDE, SIDE, BINS), np.float32)
    np.put_along_axis(onehot, b[:, :, None], mag[:, :, None], axis=2)
    cells = onehot.reshape(n, CELL, n, CELL, BINS).sum(axis=(1, 3))
    blocks = cells[:-1, :-1] + cells[1:, :-1] + cells[:-1, 1:] + cells[1:, 1:]
    c = cells.reshape(-1, BINS)
    c = c / (np.linalg.norm(c, axis=1, keepdims=True) + 0.5)
    bl = blocks.reshape(-1, BINS)
    bl = bl / (np.linalg.norm(bl, axis=1, keepdims=True) + 1.0)
    return np.concatenate([c.ravel(), bl.ravel()])


def upright(mask: np.ndarray, up: tuple[float, float]) -> np.ndarray:
    """Turn a uint8 mask so that the unit vector ``up`` (image x, y; y down) points to the top.

    Returns the turned mask cropped to its ink (an empty mask stays 1×1).
    """
    h, w = mask.shape
    # angle of `up` from straight up (0, -1), counter-clockwise positive in image terms
    ang = math.degrees(math.atan2(up[0], -up[1]))
    diag = int(math.ceil(math.hypot(h, w))) + 2
    M = cv2.getRotationMatrix2D((w / 2, h / 2), ang, 1.0)
    M[0, 2] += diag / 2 - w / 2
    M[1, 2] += diag / 2 - h / 2
    r = cv2.warpAffine(mask, M, (diag, diag), flags=cv2.INTER_LINEAR)
    ys, xs = np.nonzero(r > 100)
    if len(ys) == 0:
        return np.zeros((1, 1), np.uint8)
    return np.ascontiguousarray(r[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


def upright_frame(
    mask: np.ndarray, up: tuple[float, float], right: tuple[float, float]
) -> np.ndarray:
    """Map a uint8 mask so that ``up`` points to the top and ``right`` to the right (unit
    vectors, image x, y; y down): a mark seen slanted (a steep view leans a tile's sides but
    not its rows) is unslanted. Where ``right`` is square to ``up`` this is :func:`upright`.

    Returns the mapped mask cropped to its ink (an empty mask stays 1×1).
    """
    h, w = mask.shape
    basis = np.array([[right[0], up[0]], [right[1], up[1]]], np.float64)
    det = float(np.linalg.det(basis))
    if abs(det) < 0.3 or (det < 0 and right[0] * -up[1] + right[1] * up[0] > 1 - 1e-9):
        return upright(mask, up)  # nearly parallel (no frame), or square (a plain turn)
    a = np.array([[1.0, 0.0], [0.0, -1.0]]) @ np.linalg.inv(basis)
    corners = a @ np.array([[0, w, w, 0], [0, 0, h, h]], np.float64)
    lo, hi = corners.min(axis=1), corners.max(axis=1)
    m = np.hstack([a, (2 - lo)[:, None]]).astype(np.float32)
    size = (int(math.ceil(hi[0] - lo[0])) + 4, int(math.ceil(hi[1] - lo[1])) + 4)
    r = cv2.warpAffine(mask, m, size, flags=cv2.INTER_LINEAR)
    ys, xs = np.nonzero(r > 100)
    if len(ys) == 0:
        return np.zeros((1, 1), np.uint8)
    return np.ascontiguousarray(r[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


def square(crop: np.ndarray) -> np.ndarray:
    """Set an upright crop into the SIDE×SIDE square, scaled by its height (width capped)."""
    h, w = crop.shape
    inner = SIDE - 4
    s = inner / max(h, 1)
    nw = min(inner, max(1, int(round(w * s))))
    nh = inner if w * s <= inner else max(1, int(round(h * inner / w)))
    r = cv2.resize(crop, (nw, nh), interpolation=cv2.INTER_AREA)
    out = np.zeros((SIDE, SIDE), np.uint8)
    y0, x0 = (SIDE - nh) // 2, (SIDE - nw) // 2
    out[y0 : y0 + nh, x0 : x0 + nw] = r
    return out


def features(crop: np.ndarray) -> np.ndarray:
    """The feature vector (float32, length :data:`DIM`) of an upright crop (uint8 mask)."""
    ch, cw = crop.shape
    sq = square(crop)
    h = hog(sq)
    small = cv2.resize(sq, (8, 8), interpolation=cv2.INTER_AREA).astype(np.float32).ravel() / 255
    fill = float((crop > 100).mean())
    aspect = cw / max(ch, 1)
    extra = np.array([aspect, fill, min(aspect, 1.5) * fill], np.float32)
    return np.concatenate([h.astype(np.float32), small, extra])
