"""Photo reading: how many tiles are found and read right, on synthetic and real photos; time
and memory. Prints figures, asserts nothing.

    .venv/bin/python benchmarks/bench_photos.py [--synthetic 60] [--varied 40] [--steep 40]
        [--no-real] [--no-time]

* Synthetic: photos rendered with seeds, fonts and backgrounds the model was not trained on
  (:data:`app.vision.render.TEST_FONTS`, :data:`~app.vision.render.TEST_BACKGROUNDS`, seeds
  from 5_000_000). A tile is found when a reading's box centre lies on it; read right when its
  colour and number (or joker) are right. Two sets: the plain renders, and the varied ones
  (:class:`app.vision.render.Style`: ivory and cream faces, Okey suit signs, pale inks, steep
  camera angles), with the same unseen fonts and backgrounds. A third set (``--steep``,
  :func:`steep_scene`, seeds from 7_000_000): only two-digit tiles (10–13), one side of the
  picture narrowed by 0.2–0.32 so the tiles lean and their digits crowd together.
* Real: the labelled photos in ``../shared/photos-dev/`` (read from there, never copied).
  Their labels have no positions, so per photo: *found* = tiles reported ÷ tiles labelled
  (capped at 1; ``extra`` counts reports beyond the labelled tiles), *read right* = the
  multiset of tiles reported ∩ the labelled tiles, ÷ the labelled tiles that are not ``?``,
  *rows right* = labelled rows reported exactly (``?`` matches any tile) ÷ labelled rows.
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
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
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


def real() -> None:
    if not (REAL / "labels.json").is_file():
        print(f"real photos: {REAL} absent, skipped")
        return
    labels = json.loads((REAL / "labels.json").read_text())
    tot_lab = tot_known = tot_found = tot_right = tot_rows = tot_rows_ok = tot_cap = 0
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
    if not a.no_real:
        real()
    if not a.no_time:
        timing()


if __name__ == "__main__":
    main()
