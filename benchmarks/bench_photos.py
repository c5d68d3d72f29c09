"""Photo reading: how many tiles are found and read right, on synthetic and real photos; time
and memory. Prints figures, asserts nothing.

    .venv/bin/python benchmarks/bench_photos.py [--synthetic 60] [--varied 40] [--steep 40]
        [--hard 0] [--no-real] [--no-time]

* Synthetic: photos rendered with seeds, fonts and backgrounds the model was not trained on
  (:data:`app.vision.render.TEST_FONTS`, :data:`~app.vision.render.TEST_BACKGROUNDS`, seeds
  from 5_000_000). A tile is found when a reading's box centre lies on it; read right when its
  colour and number (or joker) are right. Two sets: the plain renders, and the varied ones
  (:class:`app.vision.render.Style`: ivory and cream faces, Okey suit signs, pale inks, steep
  camera angles), with the same unseen fonts and backgrounds. A third set (``--steep``,
  :func:`steep_scene`, seeds from 7_000_000): only two-digit tiles (10–13), one side of the
  picture narrowed by 0.2–0.32 so the tiles lean and their digits crowd together.
  ``--hard N`` (:func:`hard_scene`, seeds from 8_000_000): N photos of each hard kind: far
  tiles on a 12-megapixel photo, out of focus past the training's blur, and cut by the frame
  through one tile (a number the cut leaves whole must be found; a report on a tile as
  another one, a cut number included, counts as wrong).
* Real: the labelled photos in ``../shared/photos-dev/`` (read from there, never copied).
  Their labels have no positions, so per photo: *found* = tiles reported ÷ tiles labelled
  (capped at 1; ``extra`` counts reports beyond the labelled tiles), *read right* = the
  multiset of tiles reported ∩ the labelled tiles, ÷ the labelled tiles that are not ``?``,
  *rows right* = labelled rows reported exactly (``?`` matches any tile) ÷ labelled rows;
  *rows of the readable tiles* = labelled rows with their ``?`` tiles left out (rows of only
  ``?`` not counted) reported exactly, as the reader leaves out what nobody can read.
  With ``?`` tiles as "don't care" (the labels' README), the share of the readable tiles found
  is printed as a range: at least the tiles read right (each is surely found), at most the
  tiles reported, capped at the readable ones.
* Time: per real photo, wall-clock seconds (``s``: on a machine shared with other work, the
  wait for a core counts in) and the process's CPU seconds (``cpu s``, summed over OpenCV's
  threads); the christophrus photos are 12-megapixel phone photos (4624×2604). Then one
  synthetic 12-megapixel (4000×3000) and one 640×640 JPEG, median of 3 reads each; peak
  memory: the resident-set peak (VmHWM) of a fresh process reading the 12-megapixel photo,
  minus that of one that only imports the reader.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.vision import VisionError, read_photo  # noqa: E402
from app.vision.render import (  # noqa: E402
    TEST_BACKGROUNDS,
    TEST_FONTS,
    Scene,
    Style,
    available,
    render_scene,
)

REAL = ROOT.parent / "shared" / "photos-dev"
TEST_SEED_BASE = 5_000_000


def jpeg(img: np.ndarray, q: int = 90) -> bytes:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
    assert ok
    return buf.tobytes()


STEEP_SEED_BASE = 7_000_000


def steep_scene(k: int, fonts: list[str]) -> Scene:
    """A held-out photo of two-digit tiles (10–13) seen steeply: one or two rows of four to
    seven tiles, one side of the picture narrowed by 0.2–0.32 of its length (so the tiles
    there lean and narrow), a strong random perspective; fonts, backgrounds and seeds unseen
    in training."""
    rng = np.random.default_rng(STEEP_SEED_BASE + k)
    rows = [
        [str(rng.choice(list("RBKY"))) + str(int(rng.integers(10, 14))) for _ in range(n)]
        for n in rng.integers(4, 8, int(rng.integers(1, 3)))
    ]
    return render_scene(
        STEEP_SEED_BASE + k,
        fonts=fonts,
        backgrounds=TEST_BACKGROUNDS,
        tokens_rows=rows,
        perspective=0.1,
        style=Style(keystone=float(rng.uniform(0.2, 0.32))),
    )


HARD_SEED_BASE = 8_000_000
HARD_KINDS = ("far", "blur", "edge")


def _disc_blur(img: np.ndarray, radius: float) -> np.ndarray:
    k = int(math.ceil(radius)) * 2 + 1
    disc = np.zeros((k, k), np.float32)
    cv2.circle(disc, (k // 2, k // 2), int(round(radius)), 1.0, -1, cv2.LINE_AA)
    return cv2.filter2D(img, -1, disc / disc.sum(), borderType=cv2.BORDER_REPLICATE)


def _digit_height(sc: Scene) -> float:
    hs = [
        float(np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2
        for t in sc.tiles
        for q in t.digits
    ]
    return float(np.median(hs)) if hs else 0.0


def hard_scene(kind: str, k: int, fonts: list[str]) -> tuple[np.ndarray, Scene, list[bool]]:
    """A held-out hard photo (seeds from 8_000_000, the unseen fonts and backgrounds): the
    picture, its scene (truth in the picture's pixels) and per tile whether it must be found.

    * ``far``: a 12-megapixel photo (4000×3000) of small tiles (18–32 px wide after the
      reader's downscale: a rack across the room).
    * ``blur``: out of focus, a disc blur of radius 0.09–0.16 of the digits' height (training
      goes to 0.075).
    * ``edge``: the picture cut through one tile by the frame (a random side); a tile whose
      number the cut leaves whole must be found, one whose number it cuts must not be read
      as another tile (a report on it counts as wrong unless it reads the whole tile right).
    """
    rng = np.random.default_rng(HARD_SEED_BASE + 1000 * HARD_KINDS.index(kind) + k)
    seed = HARD_SEED_BASE + 1000 * HARD_KINDS.index(kind) + k
    if kind == "far":
        sc = render_scene(
            seed,
            fonts=fonts,
            backgrounds=TEST_BACKGROUNDS,
            size=(4000, 3000),
            tile_width=int(rng.integers(52, 92)),
        )
        return sc.image, sc, [True] * len(sc.tiles)
    sc = render_scene(seed, fonts=fonts, backgrounds=TEST_BACKGROUNDS)
    if kind == "blur":
        radius = float(rng.uniform(0.09, 0.16)) * _digit_height(sc)
        return _disc_blur(sc.image, max(1.0, radius)), sc, [True] * len(sc.tiles)
    # edge: cut the frame through a tile's quad, at a random depth into it
    img = sc.image
    H, W = img.shape[:2]
    t = sc.tiles[int(rng.integers(0, len(sc.tiles)))]
    q = t.tile_quad
    side = int(rng.integers(0, 4))
    f = float(rng.uniform(0.15, 0.85))
    x0, y0, x1, y1 = 0, 0, W, H
    if side == 0:
        x0 = int(q[:, 0].min() + f * np.ptp(q[:, 0]))
    elif side == 1:
        x1 = int(q[:, 0].min() + f * np.ptp(q[:, 0]))
    elif side == 2:
        y0 = int(q[:, 1].min() + f * np.ptp(q[:, 1]))
    else:
        y1 = int(q[:, 1].min() + f * np.ptp(q[:, 1]))
    crop = img[y0:y1, x0:x1].copy()
    tiles, need = [], []
    for tt in sc.tiles:
        off = np.array([x0, y0], np.float32)
        tq, nq = tt.tile_quad - off, tt.number_quad - off
        ch, cw = crop.shape[:2]
        if tq[:, 0].max() < 0 or tq[:, 1].max() < 0 or tq[:, 0].min() > cw or tq[:, 1].min() > ch:
            continue  # off the picture
        inside = nq[:, 0].min() >= 1 and nq[:, 1].min() >= 1
        inside = inside and nq[:, 0].max() <= cw - 2 and nq[:, 1].max() <= ch - 2
        tiles.append(replace(tt, tile_quad=tq, number_quad=nq))
        need.append(bool(inside))
    return crop, Scene(crop, tiles, [], sc.kind), need


def hard(n: int, kinds: tuple[str, ...] = HARD_KINDS) -> None:
    """Found and read right on the hard sets (:func:`hard_scene`); ``wrong``: reports off
    every tile or reading a tile as another one (a cut number included)."""
    fonts = available(TEST_FONTS)
    for kind in kinds:
        need_n = found = right = wrong = 0
        confusions: Counter[tuple[str, str]] = Counter()
        for k in range(n):
            img, sc, need = hard_scene(kind, k, fonts)
            try:
                reads = [(t.tile, t.box) for t in read_photo(jpeg(img)).tiles]
            except VisionError:
                reads = []
            hits: dict[int, int] = {}
            for j, (_tok, (x, y, w, h)) in enumerate(reads):
                for i, tt in enumerate(sc.tiles):
                    q = tt.tile_quad.astype(np.float32)
                    if (
                        i not in hits
                        and cv2.pointPolygonTest(q, (x + w / 2, y + h / 2), False) >= 0
                    ):
                        hits[i] = j
                        break
                else:
                    wrong += 1
            for i, tt in enumerate(sc.tiles):
                need_n += need[i]
                if i not in hits:
                    continue
                tok = reads[hits[i]][0]
                found += need[i]
                if tok == tt.token:
                    right += need[i]
                else:
                    wrong += 1
                    confusions[(tt.token, tok)] += 1
        print(
            f"hard, {kind} ({n} photos, {need_n} tiles to find): found {found / need_n:.1%}  "
            f"read right {right / need_n:.1%}  wrong reports {wrong}"
        )
        if confusions:
            print(
                "  most common misreadings:",
                ", ".join(f"{a}->{b}×{c}" for (a, b), c in confusions.most_common(8)),
            )


def synthetic(n: int, varied: bool = False, steep: bool = False) -> None:
    fonts = available(TEST_FONTS)
    tiles = found = right = photos_right = rows_right = 0
    confusions: Counter[tuple[str, str]] = Counter()
    for k in range(n):
        sc = (
            steep_scene(k, fonts)
            if steep
            else render_scene(
                TEST_SEED_BASE + k, fonts=fonts, backgrounds=TEST_BACKGROUNDS, varied=varied
            )
        )
        try:
            r = read_photo(jpeg(sc.image))
            reads = [(t.tile, t.box) for t in r.tiles]
            rows = [[r.tiles[i].tile for i in row] for row in r.rows]
        except VisionError:
            reads, rows = [], []
        used: set[int] = set()
        ok = True
        for tt in sc.tiles:
            tiles += 1
            q = tt.tile_quad.astype(np.float32)
            hit = None
            for j, (_tok, (x, y, w, h)) in enumerate(reads):
                if j not in used and cv2.pointPolygonTest(q, (x + w / 2, y + h / 2), False) >= 0:
                    hit = j
                    break
            if hit is None:
                ok = False
                continue
            used.add(hit)
            found += 1
            if reads[hit][0] == tt.token:
                right += 1
            else:
                ok = False
                confusions[(tt.token, reads[hit][0])] += 1
        if len(used) != len(reads):
            ok = False
        photos_right += ok
        truth_rows = sorted(tuple(sc.tiles[i].token for i in row) for row in sc.rows)
        rows_right += truth_rows == sorted(tuple(x) for x in rows)
    kind = "varied: cream faces, Okey suits, pale inks, steep views" if varied else "plain"
    if steep:
        kind = "steep views of two-digit tiles 10-13"
    print(
        f"synthetic, {kind} ({n} photos, {tiles} tiles; fonts and backgrounds unseen in training)"
    )
    print(
        f"  found {found / tiles:.1%}  read right {right / tiles:.1%} "
        f"(of found {right / max(found, 1):.1%})  photos entirely right {photos_right / n:.1%}  "
        f"rows right {rows_right / n:.1%}"
    )
    if confusions:
        print(
            "  most common misreadings:",
            ", ".join(f"{a}->{b}×{c}" for (a, b), c in confusions.most_common(8)),
        )


def _row_match(label: list[str], row: list[str]) -> bool:
    return len(label) == len(row) and all(
        a == "?" or a == b for a, b in zip(label, row, strict=True)
    )


def _readable_row(label: list[str]) -> list[str]:
    """A labelled row with its ``?`` tiles left out: the row a reader that leaves out what
    nobody can read reports (empty when no tile of the row can be read)."""
    return [t for t in label if t != "?"]


def real() -> None:
    if not (REAL / "labels.json").is_file():
        print(f"real photos: {REAL} absent, skipped")
        return
    labels = json.loads((REAL / "labels.json").read_text())
    tot_lab = tot_known = tot_found = tot_right = tot_rows = tot_rows_ok = tot_cap = 0
    tot_readable_rows = tot_readable_ok = 0
    print("real photos (../shared/photos-dev)")
    print(
        f"  {'photo':22} {'tiles':>5} {'found':>7} {'right':>7} {'extra':>5} {'rows':>7} {'s':>6}"
        f" {'cpu s':>6}"
    )
    for entry in labels:
        data = (REAL / entry["file"]).read_bytes()
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            r = read_photo(data)
            got = [t.tile for t in r.tiles]
            rows = [[r.tiles[i].tile for i in row] for row in r.rows]
        except VisionError as e:
            got, rows = [], []
            print(f"  {entry['file']}: {e.code}")
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        lab = entry["tiles"]
        known = [t for t in lab if t != "?"]
        inter = sum((Counter(got) & Counter(known)).values())
        found = min(len(got), len(lab))
        melds = entry.get("melds") or []
        rows_ok = sum(any(_row_match(m, row) for row in rows) for m in melds)
        readable = [r for r in map(_readable_row, melds) if r]
        tot_readable_rows += len(readable)
        tot_readable_ok += sum(r in rows for r in readable)
        tot_lab += len(lab)
        tot_known += len(known)
        tot_found += found
        tot_cap += min(len(got), len(known))
        tot_right += inter
        tot_rows += len(melds)
        tot_rows_ok += rows_ok
        print(
            f"  {entry['file']:22} {len(lab):5d} {found / len(lab):7.1%} "
            f"{inter / max(len(known), 1):7.1%} {max(0, len(got) - len(lab)):5d} "
            f"{rows_ok:3d}/{len(melds):<3d} {dt:6.2f} {cpu:6.2f}"
        )
        missing = Counter(known) - Counter(got)
        wrong = Counter(got) - Counter(known)
        if missing or wrong:
            print(
                f"      missing/misread {' '.join(sorted(missing.elements()))}"
                f"  reported instead {' '.join(sorted(wrong.elements()))}"
            )
    print(
        f"  all: found {tot_found / tot_lab:.1%}  read right {tot_right / tot_known:.1%}  "
        f"rows right {tot_rows_ok}/{tot_rows}"
    )
    print(
        f"  rows of the readable tiles (? left out, rows of only ? not counted): "
        f"{tot_readable_ok}/{tot_readable_rows}"
    )
    print(
        f"  readable tiles (? don't care): found {tot_right / tot_known:.1%}–"
        f"{tot_cap / tot_known:.1%} of {tot_known}"
    )


def timing() -> None:
    big = render_scene(TEST_SEED_BASE + 999, size=(4000, 3000), fonts=available(TEST_FONTS))
    small = render_scene(TEST_SEED_BASE + 998, size=(640, 640), fonts=available(TEST_FONTS))
    for name, sc in (("12 MP (4000×3000)", big), ("640×640", small)):
        data = jpeg(sc.image)
        ts = []
        for _ in range(3):
            t0 = time.perf_counter()
            with contextlib.suppress(VisionError):
                read_photo(data)
            ts.append(time.perf_counter() - t0)
        print(f"time {name}: median {statistics.median(ts):.2f} s (min {min(ts):.2f})")
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "big.jpg"
        p.write_bytes(jpeg(big.image))
        code = (
            f"import sys; sys.path.insert(0, {str(ROOT)!r});"
            "from app.vision import read_photo;"
            "import app.vision.classifier as c; c.load();"
            f"d = open({str(p)!r}, 'rb').read() if len(sys.argv) > 1 else b'';"
            "d and read_photo(d);"
            "print([int(x.split()[1]) for x in open('/proc/self/status')"
            " if x.startswith('VmHWM')][0])"
        )
        env = dict(os.environ, OMP_NUM_THREADS="2")
        base = int(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, env=env
            ).stdout
        )
        peak = int(
            subprocess.run(
                [sys.executable, "-c", code, "x"], capture_output=True, text=True, env=env
            ).stdout
        )
        print(
            f"peak memory reading 12 MP: {(peak - base) / 1024:.0f} MB above the "
            f"{base / 1024:.0f} MB of the loaded reader"
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--synthetic", type=int, default=60)
    ap.add_argument("--varied", type=int, default=40, help="varied synthetic photos")
    ap.add_argument("--steep", type=int, default=40, help="steep photos of tiles 10-13")
    ap.add_argument("--hard", type=int, default=0, help="hard photos of each kind: far, blur, edge")
    ap.add_argument("--no-real", action="store_true")
    ap.add_argument("--no-time", action="store_true")
    a = ap.parse_args()
    model = ROOT / "app" / "vision" / "marks.npz"
    print(f"model {model.name}: {model.stat().st_size / 1024:.0f} KB")
    if a.synthetic:
        synthetic(a.synthetic)
    if a.varied:
        synthetic(a.varied, varied=True)
    if a.steep:
        synthetic(a.steep, steep=True)
    if a.hard:
        hard(a.hard)
    if not a.no_real:
        real()
    if not a.no_time:
        timing()


if __name__ == "__main__":
    main()
