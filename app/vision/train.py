"""Train the mark classifier from synthetic photos and write ``app/vision/marks.npz``.

    python -m app.vision.train [--scenes 400] [--seed 1] [--any-cpu]

Deterministic for a given seed (numpy's generator, OpenCV on one thread, OpenBLAS pinned: see
below). Photos are rendered by :mod:`app.vision.render` with the *training* fonts and
backgrounds and seeds from 1_000_000 up; the benchmark and tests use other seeds, fonts and
backgrounds. The marks the reader itself finds on each photo are labelled from the photo's
truth (the digit whose box holds the mark's centre, a joker, or ``X`` for anything else) and
cut upright by the tile's true "up", a little turned at random; digits 2, 3, 4, 5 and 7 upside
down are added as ``X``, so the reader can tell a wrong turn. Two digits whose ink ran together
are cut where the reader cuts them (:func:`app.vision.find.split_joined`) and each half is
labelled by its own digit. Playing-card photos add suit signs and letters as ``X``. Half the
photos are varied (:class:`app.vision.render.Style`: cream faces, Okey suit signs, pale inks,
steep views); a digit is also cut slanted and narrowed as a steep view shows it
(:func:`slant`), and as the reader first sees it, turned by its own long axis (a slanted 7
along its diagonal).

Every third photo is also read degraded (:func:`degrade`: out of focus, shaken or soft, at a
lower resolution, hard JPEG; in proportion to its digits' height). Two perceptrons are
trained, one on the sharp photos' marks, one on all; the reader averages them
(:mod:`app.vision.classifier`). A tenth of the marks is held out to report each accuracy.

Byte for byte the same model on every machine needs the same photos and the same arithmetic:
every training font (:data:`app.vision.render.TRAIN_FONTS`, from :data:`FONT_PACKAGES`) must be
installed (the script refuses to train without one: a missing font silently gave other photos),
and numpy's OpenBLAS runs pinned to the kernels and threads the committed model was trained
with (:data:`BLAS_ENV`; the script runs itself again with them when they are not so, and
refuses on a CPU without AVX-512 unless ``--any-cpu``). A matrix product's rounding depends on
the OpenBLAS kernel and on how many threads share it, and 40 epochs carry a last-bit difference
into another model, which reads a tile or two of the real dev photos otherwise.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from app.vision import classifier
from app.vision.features import DIM, features, upright
from app.vision.find import Mark, find_marks, planes, split_joined, tidy
from app.vision.render import (
    TRAIN_BACKGROUNDS,
    TRAIN_FONTS,
    Scene,
    available,
    render_cards,
    render_scene,
)

TRAIN_SEED_BASE = 1_000_000

FONT_PACKAGES: Final = (
    "fonts-dejavu-core",
    "fonts-liberation",
    "fonts-freefont-ttf",
    "fonts-roboto-unhinted",
    "fonts-open-sans",
    "fonts-urw-base35",
)
"""The Debian packages of :data:`app.vision.render.TRAIN_FONTS` (``apt-get install``)."""

BLAS_ENV: Final = {"OPENBLAS_CORETYPE": "SkylakeX", "OPENBLAS_NUM_THREADS": "2"}
"""How numpy's OpenBLAS runs the training's matrix products: with its AVX-512 kernels
(``SkylakeX``; ``Cooperlake`` and ``SapphireRapids`` give the same model, the AVX2 ones,
``Haswell`` or ``Zen``, another) on two threads (the project machines' two cores; one thread
splits the products otherwise and rounds otherwise), as the committed model was trained. OpenBLAS
reads these when numpy loads it, so ``python -m app.vision.train`` runs itself again with them
set (:func:`blas_env`). On a machine with one core, or another BLAS, the model differs."""

AVX512: Final = ("avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl")
"""The CPU flags OpenBLAS's SkylakeX kernels use (:data:`BLAS_ENV`), which a CPU without
them cannot run."""


def has_avx512(cpuinfo: str | None = None) -> bool:
    """Whether the CPU has :data:`AVX512` (by ``/proc/cpuinfo``'s flags, or ``cpuinfo``'s)."""
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text()
        except OSError:
            return False
    flags = next(
        (ln.split(":", 1)[1].split() for ln in cpuinfo.splitlines() if ln.startswith("flags")), []
    )
    return all(f in flags for f in AVX512)


ROOT: Final = Path(__file__).resolve().parents[2]


def missing_fonts() -> list[str]:
    """The training fonts (:data:`app.vision.render.TRAIN_FONTS`) not installed here."""
    return [f for f in TRAIN_FONTS if not available((f,))]


def blas_env(environ: Mapping[str, str]) -> dict[str, str] | None:
    """The environment to run the training again in so that OpenBLAS is pinned
    (:data:`BLAS_ENV`, the project root on ``PYTHONPATH``), or None when ``environ`` pins it
    already."""
    if all(environ.get(k) == v for k, v in BLAS_ENV.items()):
        return None
    path = [str(ROOT)] + [p for p in environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return {**environ, **BLAS_ENV, "PYTHONPATH": os.pathsep.join(path)}


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


DEGRADED = 3
"""Of every this many training photos one is also read degraded (:func:`degrade`)."""


def degrade(img: np.ndarray, seed: int, height: float) -> np.ndarray:
    """A photo as a poor phone camera takes it: out of focus (a disc blur), shaken (a line
    blur) or soft, taken at a lower resolution and scaled back, and JPEG-compressed hard;
    each in proportion to ``height``, the digits' height (px), so that a small digit stays
    legible as on a real photo, where a digit too blurred to read is not asked for. The size
    (and so the truth's geometry) is kept. Deterministic for ``seed``."""
    rng = np.random.default_rng(TRAIN_SEED_BASE + 7_919 * seed)
    h, w = img.shape[:2]
    out = img
    kind = int(rng.integers(0, 3))
    blur = max(0.8, float(rng.uniform(0.03, 0.075)) * height)  # px
    if kind == 0:  # defocus: a disc
        k = int(math.ceil(blur)) * 2 + 1
        disc = np.zeros((k, k), np.float32)
        cv2.circle(disc, (k // 2, k // 2), int(round(blur)), 1.0, -1, cv2.LINE_AA)
        out = cv2.filter2D(out, -1, disc / disc.sum(), borderType=cv2.BORDER_REPLICATE)
    elif kind == 1:  # shake: a short line
        n = max(3, int(round(2 * blur)) + 1)
        line = np.zeros((n, n), np.float32)
        a = float(rng.uniform(0, math.pi))
        c = (n - 1) / 2
        dx, dy = math.cos(a) * c, math.sin(a) * c
        cv2.line(line, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1)
        out = cv2.filter2D(out, -1, line / line.sum(), borderType=cv2.BORDER_REPLICATE)
    else:  # a soft lens
        out = cv2.GaussianBlur(out, (0, 0), 0.6 * blur)
    f = float(rng.uniform(0.4, 0.8))
    if rng.random() < 0.5 and f * height >= 16:  # taken smaller, scaled up
        small = cv2.resize(
            out, (max(1, int(w * f)), max(1, int(h * f))), interpolation=cv2.INTER_AREA
        )
        out = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 65))])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return decoded if decoded is not None else out


def digit_height(sc: Scene) -> float:
    """The median height (px) of a scene's digits, by their quads' longer side pairs."""
    hs = [
        float(np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2
        for t in sc.tiles
        for q in t.digits
    ]
    return float(np.median(hs)) if hs else 0.0


def training_scene(seed: int) -> Scene:
    """The training photo of ``seed`` (the training fonts and backgrounds; every other one
    varied, :class:`app.vision.render.Style`; the others' numbers of varied sizes)."""
    return render_scene(
        TRAIN_SEED_BASE + seed,
        fonts=available(TRAIN_FONTS),
        backgrounds=TRAIN_BACKGROUNDS,
        vary_numbers=seed % 2 == 0,
        varied=seed % 2 == 1,
    )


def samples_from_scene(sc: Scene, rng: np.random.Generator) -> tuple[list[np.ndarray], list[int]]:
    """Feature rows and class indexes for the marks found on one training photo."""
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
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    ap.add_argument("--scenes", type=int, default=400)
    ap.add_argument("--cards", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--out", default=str(classifier.MODEL_PATH))
    ap.add_argument(
        "--any-cpu",
        action="store_true",
        help="train with OpenBLAS as it is (no AVX-512 needed; the model then differs)",
    )
    a = ap.parse_args(argv)
    missing = missing_fonts()
    if missing:
        print(
            "training fonts missing: "
            + ", ".join(missing)
            + "\n(install the Debian packages "
            + " ".join(FONT_PACKAGES)
            + "; without them the photos, and so the model, differ)",
            file=sys.stderr,
        )
        return 2
    if not a.any_cpu and not has_avx512():
        print(
            "this CPU has no AVX-512, whose OpenBLAS kernels the committed model was trained "
            "with; --any-cpu trains with OpenBLAS as it is (a model that differs)",
            file=sys.stderr,
        )
        return 2
    if not a.any_cpu and blas_env(os.environ) is not None:
        print(
            "OpenBLAS is not pinned ("
            + " ".join(f"{k}={v}" for k, v in BLAS_ENV.items())
            + "): run the training as `python -m app.vision.train`",
            file=sys.stderr,
        )
        return 2
    cv2.setNumThreads(1)
    rng = np.random.default_rng(a.seed)
    t0 = time.perf_counter()
    xs: list[np.ndarray] = []
    ys: list[int] = []
    soft: list[bool] = []  # from a degraded copy
    for s in range(a.scenes):
        sc = training_scene(s)
        x, y = samples_from_scene(sc, rng)
        xs, ys, soft = xs + x, ys + y, soft + [False] * len(y)
        if s % DEGRADED == DEGRADED - 1:
            sc.image = degrade(sc.image, s, digit_height(sc))
            x, y = samples_from_scene(sc, rng)
            xs, ys, soft = xs + x, ys + y, soft + [True] * len(y)
    for s in range(a.cards):
        x, y = samples_from_cards(s)
        xs, ys, soft = xs + x, ys + y, soft + [False] * len(y)
    x_arr = np.stack(xs).astype(np.float32)
    y_arr = np.array(ys, np.int64)
    soft_arr = np.array(soft, bool)
    assert x_arr.shape[1] == DIM
    print("OpenBLAS:", " ".join(f"{k}={os.environ.get(k, '')}" for k in BLAS_ENV))
    print(
        f"{len(y_arr)} marks ({int(soft_arr.sum())} degraded) from {a.scenes} photos in "
        f"{time.perf_counter() - t0:.0f} s; per class",
        dict(zip(classifier.CLASSES, np.bincount(y_arr, minlength=12).tolist(), strict=True)),
    )
    # hold out a tenth to report
    perm = np.random.default_rng(a.seed).permutation(len(y_arr))
    cut = len(perm) // 10
    test, learn = perm[:cut], perm[cut:]
    nets = [
        train_mlp(x_arr[idx], y_arr[idx], a.seed, epochs=a.epochs)
        for idx in (learn[~soft_arr[learn]], learn)
    ]
    for name, sel in (("sharp", ~soft_arr[test]), ("degraded", soft_arr[test])):
        p = classifier.predict_with(nets, x_arr[test[sel]])
        acc = float((p.argmax(1) == y_arr[test[sel]]).mean())
        print(f"held-out mark accuracy, {name}: {acc:.4f}")
    print(f"{time.perf_counter() - t0:.0f} s")
    out = {
        prefix + k: v.astype(np.float16) if k.startswith("w") else v
        for prefix, net in zip(classifier.NETS, nets, strict=True)
        for k, v in net.items()
    }
    np.savez_compressed(a.out, allow_pickle=True, **out)
    print("wrote", a.out)
    return 0


if __name__ == "__main__":
    pinned = blas_env(os.environ)
    if pinned is not None and "--any-cpu" not in sys.argv[1:] and has_avx512():
        # numpy has loaded OpenBLAS already: run again with it pinned
        os.execve(sys.executable, [sys.executable, "-m", "app.vision.train", *sys.argv[1:]], pinned)
    sys.exit(main())
