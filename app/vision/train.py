"""Train the mark classifier from synthetic photos and write ``app/vision/marks.npz``.

    python -m app.vision.train [--scenes 700] [--seed 1]

Deterministic for a given seed (numpy's generator, single-threaded arithmetic). Photos are
rendered by :mod:`app.vision.render` with the *training* fonts and backgrounds and seeds from
1_000_000 up; the benchmark and tests use other seeds, fonts and backgrounds. The marks the
reader itself finds on each photo are labelled from the photo's truth (the digit whose box
holds the mark's centre, a joker, or ``X`` for anything else) and cut upright by the tile's
true "up", a little turned at random; digits 2, 3, 4, 5 and 7 upside down are added as ``X``,
so the reader can tell a wrong turn. Two digits whose ink ran together are cut where the reader
cuts them (:func:`app.vision.find.split_joined`) and each half is labelled by its own digit.
Playing-card photos add suit signs and letters as ``X``. Half the photos are varied
(:class:`app.vision.render.Style`: cream faces, Okey suit signs, pale inks, steep views); a
digit is also cut slanted and narrowed as a steep view shows it (:func:`slant`), and as the
reader first sees it, turned by its own long axis (a slanted 7 along its diagonal).
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import cv2
import numpy as np

from app.vision import classifier
from app.vision.features import DIM, features, upright
from app.vision.find import Mark, find_marks, planes, split_joined, tidy
from app.vision.render import TRAIN_BACKGROUNDS, TRAIN_FONTS, available, render_cards, render_scene

TRAIN_SEED_BASE = 1_000_000


def _turn(up: tuple[float, float], deg: float) -> tuple[float, float]:
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    return (c * up[0] - s * up[1], s * up[0] + c * up[1])


def slant(crop: np.ndarray, shear: float, squash: float) -> np.ndarray:
    """An upright mark as a steep perspective shows it: slanted (the top moved ``shear`` × its
    height to the right) and narrowed to ``squash`` of its width; cropped to its ink."""
    h, w = crop.shape
    M = np.array([[squash, -shear, max(0.0, shear * h) + 2], [0, 1, 2]], np.float32)
    ow = int(math.ceil(squash * w + abs(shear) * h)) + 4
    r = cv2.warpAffine(crop, M, (ow, h + 4), flags=cv2.INTER_LINEAR)
    ys, xs = np.nonzero(r > 100)
    if len(ys) == 0:
        return crop
    return np.ascontiguousarray(r[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


def long_axis(crop: np.ndarray) -> tuple[float, float] | None:
    """The long side's direction of a mask's turned bounding box, pointing up (y < 0); None
    for a mask about as wide as high."""
    pts = cv2.findNonZero((crop > 100).astype(np.uint8))
    if pts is None:
        return None
    (_cx, _cy), (rw, rh), ang = cv2.minAreaRect(pts)
    if abs(rw - rh) < 0.15 * max(rw, rh):
        return None
    a = math.radians(ang)
    ax = (math.cos(a), math.sin(a)) if rw >= rh else (-math.sin(a), math.cos(a))
    return ax if ax[1] <= 0 else (-ax[0], -ax[1])


def samples_from_scene(seed: int, rng: np.random.Generator) -> tuple[list[np.ndarray], list[int]]:
    """Feature rows and class indexes for the marks found on one training photo."""
    sc = render_scene(
        TRAIN_SEED_BASE + seed,
        fonts=available(TRAIN_FONTS),
        backgrounds=TRAIN_BACKGROUNDS,
        vary_numbers=seed % 2 == 0,
        varied=seed % 2 == 1,
    )
    pl = planes(sc.image)
    found = tidy(find_marks(pl))
    marks: list[Mark] = []
    for m in found:
        # two digits whose ink ran together are cut as the reader cuts them, each half
        # labelled by its own digit
        t = next(
            (
                t
                for t in sc.tiles
                if len(t.digits) == 2
                and cv2.pointPolygonTest(t.tile_quad.astype(np.float32), (m.cx, m.cy), False) >= 0
            ),
            None,
        )
        if t is not None:
            inside = [
                q
                for q in t.digits
                if m.x <= q[:, 0].mean() <= m.x + m.mask.shape[1]
                and m.y <= q[:, 1].mean() <= m.y + m.mask.shape[0]
            ]
            cuts = [p for p, _w, own in split_joined(pl, m, t.up) if own]
            if len(inside) == 2 and cuts:
                marks += cuts[0]
                continue
        marks.append(m)
    xs: list[np.ndarray] = []
    ys: list[int] = []
    for m in marks:
        label = classifier.CLASSES.index("X")
        up: tuple[float, float] = (0.0, -1.0)
        for t in sc.tiles:
            for k, q in enumerate(t.digits):
                if cv2.pointPolygonTest(q.astype(np.float32), (m.cx, m.cy), False) >= 0:
                    ch = "JK" if t.token == "JK" else t.token[1:][k]
                    label = classifier.CLASSES.index(ch)
                    up = t.up
        for rep in range(2):
            u = _turn(up, float(rng.normal(0, 8)))
            crop = upright(m.mask, u)
            if rep == 1 and rng.random() < 0.75:
                crop = slant(crop, float(rng.uniform(-0.5, 0.5)), float(rng.uniform(0.55, 1.25)))
                if label != classifier.CLASSES.index("X"):
                    # and as the reader first sees a slanted digit: along its own long axis
                    ax = long_axis(crop)
                    if ax is not None and -ax[1] < 0.985:
                        xs.append(features(upright(crop, ax)))
                        ys.append(label)
            xs.append(features(crop))
            ys.append(label)
        # as the reader first sees it: turned by the mark's own long axis (a slanted 7 or 4
        # along its diagonal), that axis's sign taken from the truth
        ax = m.axis if m.axis[0] * up[0] + m.axis[1] * up[1] >= 0 else (-m.axis[0], -m.axis[1])
        if label != classifier.CLASSES.index("X") and ax[0] * up[0] + ax[1] * up[1] < 0.985:
            xs.append(features(upright(m.mask, ax)))
            ys.append(label)
        ch = classifier.CLASSES[label]
        if ch in "23457" and len(ch) == 1:
            xs.append(features(upright(m.mask, _turn(up, 180 + float(rng.normal(0, 5))))))
            ys.append(classifier.CLASSES.index("X"))
    return xs, ys


def samples_from_cards(seed: int) -> tuple[list[np.ndarray], list[int]]:
    img = render_cards(TRAIN_SEED_BASE + seed)
    marks = tidy(find_marks(planes(img)))
    xs = [features(upright(m.mask, (0.0, -1.0))) for m in marks]
    return xs, [classifier.CLASSES.index("X")] * len(xs)


def train_mlp(
    x: np.ndarray, y: np.ndarray, seed: int, hidden: int = 96, epochs: int = 40
) -> dict[str, np.ndarray]:
    """A ReLU perceptron trained with Adam on softmax cross-entropy (class-balanced)."""
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    scale = 1.0 / (x.std(axis=0) + 1e-3)
    z = (x - mean) * scale
    n, d = z.shape
    c = len(classifier.CLASSES)
    w1 = rng.normal(0, math.sqrt(2 / d), (d, hidden)).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    w2 = rng.normal(0, math.sqrt(2 / hidden), (hidden, c)).astype(np.float32)
    b2 = np.zeros(c, np.float32)
    params = [w1, b1, w2, b2]
    mom = [np.zeros_like(p) for p in params]
    vel = [np.zeros_like(p) for p in params]
    counts = np.bincount(y, minlength=c).astype(np.float32)
    cw = (counts.sum() / np.maximum(counts, 1) / c) ** 0.5
    lr, b1m, b2m, eps, wd = 2e-3, 0.9, 0.999, 1e-8, 1e-4
    step = 0
    for ep in range(epochs):
        order = rng.permutation(n)
        for s in range(0, n, 128):
            idx = order[s : s + 128]
            xb, yb = z[idx], y[idx]
            h = np.maximum(xb @ w1 + b1, 0)
            logits = h @ w2 + b2
            logits -= logits.max(axis=1, keepdims=True)
            p = np.exp(logits)
            p /= p.sum(axis=1, keepdims=True)
            g = p.copy()
            g[np.arange(len(yb)), yb] -= 1
            g *= cw[yb][:, None] / len(yb)
            gw2 = h.T @ g + wd * w2
            gb2 = g.sum(axis=0)
            gh = (g @ w2.T) * (h > 0)
            gw1 = xb.T @ gh + wd * w1
            gb1 = gh.sum(axis=0)
            step += 1
            for i, gr in enumerate((gw1, gb1, gw2, gb2)):
                mom[i] = b1m * mom[i] + (1 - b1m) * gr
                vel[i] = b2m * vel[i] + (1 - b2m) * gr * gr
                mh = mom[i] / (1 - b1m**step)
                vh = vel[i] / (1 - b2m**step)
                params[i] -= (lr * mh / (np.sqrt(vh) + eps)).astype(np.float32)
        if ep == int(epochs * 0.7):
            lr /= 4
        w1, b1, w2, b2 = params
    return {
        "mean": mean.astype(np.float32),
        "scale": scale.astype(np.float32),
        "w1": w1,
        "b1": b1,
        "w2": w2,
        "b2": b2,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=400)
    ap.add_argument("--cards", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--out", default=str(classifier.MODEL_PATH))
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    rng = np.random.default_rng(a.seed)
    t0 = time.perf_counter()
    xs: list[np.ndarray] = []
    ys: list[int] = []
    for s in range(a.scenes):
        x, y = samples_from_scene(s, rng)
        xs += x
        ys += y
    for s in range(a.cards):
        x, y = samples_from_cards(s)
        xs += x
        ys += y
    x_arr = np.stack(xs).astype(np.float32)
    y_arr = np.array(ys, np.int64)
    assert x_arr.shape[1] == DIM
    print(
        f"{len(y_arr)} marks from {a.scenes} photos in {time.perf_counter() - t0:.0f} s;",
        "per class",
        dict(zip(classifier.CLASSES, np.bincount(y_arr, minlength=12).tolist(), strict=True)),
    )
    # hold out a tenth to report
    perm = np.random.default_rng(a.seed).permutation(len(y_arr))
    cut = len(perm) // 10
    model = train_mlp(x_arr[perm[cut:]], y_arr[perm[cut:]], a.seed, epochs=a.epochs)
    _h, p = classifier.forward(model, x_arr[perm[:cut]])
    acc = float((p.argmax(1) == y_arr[perm[:cut]]).mean())
    print(f"held-out mark accuracy {acc:.4f}; {time.perf_counter() - t0:.0f} s")
    model = {k: v.astype(np.float16) if k.startswith("w") else v for k, v in model.items()}
    np.savez_compressed(a.out, allow_pickle=True, **model)
    print("wrote", a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
