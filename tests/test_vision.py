"""Reading tiles from photos (app/vision): rendered tiles, the real dev photos, bad input, the
command line and the review screen's logic."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from app.vision import VisionError, read_photo
from app.vision.find import find_marks, planes, tidy
from app.vision.imageio import decode, sniff
from app.vision.reader import Reading
from app.vision.render import (
    TEST_BACKGROUNDS,
    TEST_FONTS,
    Style,
    available,
    glyph,
    render_cards,
    render_scene,
)
from tests.photo_helpers import meld_scene

ROOT = Path(__file__).resolve().parents[1]
DEV = ROOT.parent / "shared" / "photos-dev"

pytestmark = pytest.mark.skipif(not available(TEST_FONTS), reason="test fonts not installed")


def jpeg(img: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    return buf.tobytes()


def read_rows(rows: list[list[str]], rotation: float, seed: int = 3) -> list[list[str]]:
    sc = render_scene(
        seed,
        fonts=available(TEST_FONTS),
        backgrounds=("wood", "dark"),
        size=(1100, 900),
        tokens_rows=rows,
        rotation=rotation,
        perspective=0.0,
        tile_width=80,
    )
    r = read_photo(jpeg(sc.image))
    return [[r.tiles[i].tile for i in row] for row in r.rows]


def flat(rows: list[list[str]]) -> Counter[str]:
    return Counter(t for r in rows for t in r)


# -- rendered tiles -------------------------------------------------------------------------
EVERY = [
    [f"R{n}" for n in range(1, 8)],
    [f"B{n}" for n in range(7, 14)],
    [f"K{n}" for n in (1, 2, 3, 4, 5)],
    [f"Y{n}" for n in (8, 10, 11, 12, 13)],
]


@pytest.mark.slow
@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_every_colour_and_number_at_each_quarter_turn(rotation: int) -> None:
    got = read_rows(EVERY, rotation)
    want = flat(EVERY)
    right = sum((flat(got) & want).values())
    # measured 19–21 of the 24 read right at each turn (fonts unseen in training)
    assert right >= 18, got


@pytest.mark.slow
def test_rows_read_left_to_right() -> None:
    rows = [["R3", "R4", "R5", "R6"], ["B7", "K7", "Y7"]]
    got = read_rows(rows, 0, seed=11)
    assert sorted(got) == sorted(rows)


@pytest.mark.slow
def test_rows_of_an_upside_down_meld_read_in_the_tiles_own_frame() -> None:
    # turned 180°: the meld reads right to left in the picture, R3 R4 R5 in its own frame
    got = read_rows([["R3", "R4", "R5", "R6"], ["B7", "K7", "Y7"]], 180, seed=11)
    assert ["B7", "K7", "Y7"] in got
    assert any(r[:3] == ["R3", "R4", "R5"] for r in got), got


@pytest.mark.slow
@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_six_and_nine_told_apart_by_the_turn(rotation: int) -> None:
    rows = [["B6", "B7", "B8", "B9"], ["R9", "K9", "Y9"], ["R6", "K6", "Y6"]]
    got = read_rows(rows, rotation, seed=5)
    sixes = sum(t.endswith("6") for r in got for t in r)
    nines = sum(t.endswith("9") for r in got for t in r)
    assert sixes >= 3 and nines >= 3, got
    assert abs(sixes - 4) + abs(nines - 4) <= 2, got


def _joined_tiles(tokens: list[str]) -> np.ndarray:
    """Plain tiles on a dark table, each number's digits drawn 1 px into each other (a narrow
    font printed tight): their ink runs together into one mark."""
    font = available(TEST_FONTS)[0]
    img = np.full((400, 120 + 130 * len(tokens), 3), (60, 50, 40), np.uint8)
    inks = {"R": (45, 35, 205), "K": (35, 30, 30), "B": (185, 95, 25), "Y": (30, 130, 235)}
    for k, tok in enumerate(tokens):
        x0 = 60 + 130 * k
        cv2.rectangle(img, (x0, 100), (x0 + 110, 260), (225, 232, 238), -1)
        ms = [glyph(font, c) for c in tok[1:]]
        s = 64 / max(m.shape[0] for m in ms)
        ms = [
            cv2.resize(m, (max(1, int(m.shape[1] * s)), 64), interpolation=cv2.INTER_AREA)
            for m in ms
        ]
        x = x0 + (110 - sum(m.shape[1] for m in ms) + len(ms) - 1) // 2
        for m in ms:
            roi = img[120:184, x : x + m.shape[1]]
            a = (m.astype(np.float32) / 255)[:, :, None]
            roi[:] = (roi * (1 - a) + np.array(inks[tok[0]], np.float32) * a).astype(np.uint8)
            x += m.shape[1] - 1
    return img


def test_two_digits_whose_ink_ran_together_are_cut_apart() -> None:
    tokens = ["K13", "R11", "Y12", "K5"]
    img = _joined_tiles(tokens)
    assert len(tidy(find_marks(planes(img)))) == 4  # each number is one joined mark
    r = read_photo(jpeg(img))
    assert [t.tile for t in r.tiles] == tokens


@pytest.mark.slow
def test_held_out_synthetic_photos_floor() -> None:
    # photos rendered with seeds, fonts and backgrounds unseen in training, as in the benchmark
    fonts = available(TEST_FONTS)
    tiles = right = 0
    for k in range(12):
        sc = render_scene(5_000_000 + k, fonts=fonts, backgrounds=TEST_BACKGROUNDS)
        try:
            reads = [(t.tile, t.box) for t in read_photo(jpeg(sc.image)).tiles]
        except VisionError:
            reads = []
        used: set[int] = set()
        for tt in sc.tiles:
            tiles += 1
            q = tt.tile_quad.astype(np.float32)
            for j, (tok, (x, y, w, h)) in enumerate(reads):
                if j not in used and cv2.pointPolygonTest(q, (x + w / 2, y + h / 2), False) >= 0:
                    used.add(j)
                    right += tok == tt.token
                    break
    # measured 137 of these 152 tiles read right (90.1 %); floor well below
    assert right / tiles >= 0.8, (right, tiles)


def _read_styled(
    rows: list[list[str]], style: Style, seed: int, perspective: float = 0.0
) -> Reading:
    sc = render_scene(
        seed,
        fonts=available(TEST_FONTS),
        backgrounds=("wood", "cloth"),
        size=(1100, 900),
        tokens_rows=rows,
        rotation=0,
        perspective=perspective,
        tile_width=80,
        style=style,
    )
    return read_photo(jpeg(sc.image))


OKEY = [["R7", "B7", "K7", "Y7"], ["Y5", "K5", "R9", "B10"]]


@pytest.mark.parametrize("suit", ["♠", "♥"])
def test_okey_tiles_on_cream_faces_with_suit_signs(suit: str) -> None:
    # cream faces (not colourless), a suit sign sunk under each number, pale inks: the numbers
    # are read, the suit signs are no tiles
    r = _read_styled(OKEY, Style(cream=True, suit=suit, light_inks=True), seed=31)
    got = [t.tile for t in r.tiles]
    assert sum((Counter(got) & flat(OKEY)).values()) >= 7, got
    assert len(got) <= 8, got


def test_a_steep_view_of_a_rack() -> None:
    # one side of the picture much further from the camera: digits slanted and narrowed
    rows = [["R1", "R2", "R3", "R4", "R5"], ["B7", "B8", "B9", "B10", "B11"]]
    r = _read_styled(rows, Style(keystone=0.2), seed=41, perspective=0.06)
    got = [t.tile for t in r.tiles]
    # measured 8 of the 10 (the far side's 9 and 10, squashed to half their height, are not)
    assert sum((Counter(got) & flat(rows)).values()) >= 7, got


def test_jokers_are_read() -> None:
    got = read_rows([["R5", "JK", "R7"], ["K8", "B8", "JK"]], 0, seed=21)
    assert flat(got)["JK"] == 2, got


def test_boxes_cover_their_tiles_in_photo_pixels() -> None:
    sc = render_scene(
        7,
        fonts=available(TEST_FONTS),
        size=(1000, 800),
        tokens_rows=[["R1", "R2", "R3"]],
        rotation=0,
        perspective=0.0,
        tile_width=90,
    )
    big = cv2.resize(sc.image, None, fx=2, fy=2)  # read at half size: boxes come back doubled
    r = read_photo(jpeg(big))
    assert len(r.tiles) == 3
    for t in r.tiles:
        x, y, w, h = t.box
        centre = (x + w / 2, y + h / 2)
        assert any(
            cv2.pointPolygonTest((tt.tile_quad * 2).astype(np.float32), centre, False) >= 0
            for tt in sc.tiles
        )
        assert 0 < t.confidence <= 1


# -- real photos (measured in benchmarks/bench_photos.py; floors well below) ---------------
def _dev_labels() -> list[dict[str, object]]:
    if not (DEV / "labels.json").is_file():
        return []
    labels: list[dict[str, object]] = json.loads((DEV / "labels.json").read_text())
    return labels


@pytest.mark.slow
@pytest.mark.skipif(not (DEV / "labels.json").is_file(), reason="../shared/photos-dev absent")
def test_dev_photos_floor() -> None:
    labelled = known = right = wrong = rows_ok = rows = found = 0
    for entry in _dev_labels():
        data = (DEV / str(entry["file"])).read_bytes()
        try:
            r = read_photo(data)
            got = [t.tile for t in r.tiles]
            got_rows = [[r.tiles[i].tile for i in row] for row in r.rows]
        except VisionError:
            got, got_rows = [], []
        lab = [str(t) for t in entry["tiles"]]  # type: ignore[attr-defined]
        kn = [t for t in lab if t != "?"]
        labelled += len(lab)
        found += min(len(got), len(lab))
        known += len(kn)
        right += sum((Counter(got) & Counter(kn)).values())
        wrong += sum((Counter(got) - Counter(kn)).values())
        for m in entry.get("melds") or []:  # type: ignore[attr-defined]
            rows += 1
            rows_ok += any(
                len(m) == len(g) and all(a in ("?", b) for a, b in zip(m, g, strict=True))
                for g in got_rows
            )
    # measured (benchmarks/bench_photos.py): 98.4 % read right (180 of the 183 readable
    # tiles: the far K10 and R12 of christophrus-4 found at their neighbours' size), 34 of
    # 40 rows, 92.8 % found with no tile reported that is not there (12 of the 194 tiles
    # show no number: at most 93.8 %); floors just below
    assert right / known >= 0.98
    # tiles reported that the photos do not show: measured none (3 before: a blurred Y10 read
    # as R4, a leaned R11 as R1, a tile's edge as Y1)
    assert wrong <= 1
    assert rows_ok >= 34
    assert found / labelled >= 0.92


@pytest.mark.skipif(not (DEV / "jnsbhlr-2.jpg").is_file(), reason="../shared/photos-dev absent")
def test_dev_table_photo_reads_most_tiles() -> None:
    r = read_photo((DEV / "jnsbhlr-2.jpg").read_bytes())
    assert 33 <= len(r.tiles) <= 40
    assert r.size == (1000, 750)


# -- bad input --------------------------------------------------------------------------------
def test_not_an_image() -> None:
    with pytest.raises(VisionError) as e:
        read_photo(b"This is a note, not a photo of tiles. " * 10)
    assert e.value.code == "not_image"


def test_truncated_jpeg() -> None:
    sc = render_scene(3, fonts=available(TEST_FONTS), size=(800, 600))
    data = jpeg(sc.image)
    with pytest.raises(VisionError) as e:
        read_photo(data[: len(data) // 2])
    assert e.value.code == "truncated"


def _png_header(w: int, h: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (
        b"\x89PNG\r\n\x1a\n"
        + struct.pack(">I", len(ihdr))
        + chunk
        + struct.pack(">I", zlib.crc32(chunk))
    )


def test_hundred_megapixels_refused_from_the_header() -> None:
    # a decompression bomb: a tiny file claiming 10000 × 10000 pixels, never decoded
    data = _png_header(10_000, 10_000) + b"\x00" * 200
    assert sniff(data) == ("png", 10_000, 10_000)
    with pytest.raises(VisionError) as e:
        read_photo(data)
    assert e.value.code == "too_big"


def test_a_big_png_is_refused_below_the_jpeg_limit() -> None:
    # 7700 × 7700 (59 MP) passes the JPEG limit, but a PNG is decoded whole: refused
    data = _png_header(7_700, 7_700) + b"\x00" * 200
    with pytest.raises(VisionError) as e:
        read_photo(data)
    assert e.value.code == "too_big"


def test_real_bomb_png_refused() -> None:
    # a real PNG of 9000 × 8000 black pixels compresses to a few hundred kB
    img = np.zeros((8000, 9000), np.uint8)
    ok, buf = cv2.imencode(".png", img, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    del img
    assert ok and len(buf) < 2_000_000
    with pytest.raises(VisionError) as e:
        read_photo(buf.tobytes())
    assert e.value.code == "too_big"


def test_big_jpeg_is_decoded_scaled_down() -> None:
    img = np.full((3000, 4000, 3), 200, np.uint8)
    small, scale, size = decode(jpeg(img))
    assert max(small.shape[:2]) <= 1400 and size == (4000, 3000)
    assert scale == pytest.approx(4000 / small.shape[1])


def test_no_tiles_on_an_empty_table() -> None:
    rng = np.random.default_rng(1)
    wood = np.zeros((700, 900, 3), np.uint8)
    wood[:] = (70, 120, 170)
    wood = np.clip(wood + rng.normal(0, 8, wood.shape), 0, 255).astype(np.uint8)
    with pytest.raises(VisionError) as e:
        read_photo(jpeg(wood))
    assert e.value.code == "no_tiles"


@pytest.mark.slow
def test_playing_cards_are_not_tiles() -> None:
    # a heuristic (many marks that are no number, few numbers): 9 of these 10 are refused
    refused = 0
    for seed in range(1, 11):
        try:
            read_photo(jpeg(render_cards(seed)))
        except VisionError as e:
            assert e.code in ("cards", "no_tiles")
            refused += 1
    assert refused >= 8


# -- command line -----------------------------------------------------------------------------
def test_cli_json(tmp_path: Path) -> None:
    p = tmp_path / "rack.jpg"
    p.write_bytes(jpeg(meld_scene(["R5", "R6", "R7"])))
    out = subprocess.run(
        [sys.executable, "-m", "app.vision", str(p), "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    res = json.loads(out.stdout)
    assert out.returncode == 0 and res["ok"] is True
    assert res["rows"] == [["R5", "R6", "R7"]]
    assert [t["tile"] for t in res["tiles"]] == ["R5", "R6", "R7"]
    assert all(len(t["box"]) == 4 and 0 < t["confidence"] <= 1 for t in res["tiles"])
    assert res["seconds"] > 0


def test_cli_bad_input(tmp_path: Path) -> None:
    p = tmp_path / "notes.txt"
    p.write_text("not a photo")
    out = subprocess.run(
        [sys.executable, "-m", "app.vision", str(p), "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    res = json.loads(out.stdout)
    assert out.returncode == 2
    assert res == {
        "ok": False,
        "error": "not_image",
        "message": res["message"],
        "seconds": res["seconds"],
    }
    missing = subprocess.run(
        [sys.executable, "-m", "app.vision", str(tmp_path / "none.jpg"), "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert json.loads(missing.stdout)["error"] == "unreadable_file"


# -- the review screen (logic, no page) ------------------------------------------------------
def _read_meld_safely(meld: list[str]) -> dict[str, Any]:
    """One upright meld of big tiles rendered flat and read as the review screen reads it."""
    from app.ui.camera.photo import read_safely

    return read_safely(jpeg(meld_scene(meld)))


def test_review_edits_and_confirms_only_on_request() -> None:
    from app.ui.camera.photo import PhotoReview

    res = _read_meld_safely(["R5", "R6", "R7"])
    assert res["ok"] and res["preview"][:4] == b"\x89PNG"
    got: list[list[list[str]]] = []
    closed: list[bool] = []
    review = PhotoReview(
        "tile_rummy",
        res["reading"],
        res["preview"],
        got.append,
        on_close=lambda: closed.append(True),
    )
    assert review.value() == [["R5", "R6", "R7"]]
    assert got == []  # nothing used before the player confirms
    kb = review.editor.keyboard
    kb.backspace()
    kb.pick_family("R")
    kb.press_number(8)
    review.confirm()
    assert got == [[["R5", "R6", "R8"]]] and closed == [True]


def test_review_cancel_uses_nothing() -> None:
    from app.ui.camera.photo import PhotoReview

    res = _read_meld_safely(["B1", "B2", "B3"])
    got: list[object] = []
    review = PhotoReview("rummy101", res["reading"], res["preview"], got.append)
    review.cancel()
    assert got == []


def test_read_safely_reports_bad_input() -> None:
    from app.ui.camera.photo import error_text, read_safely

    res = read_safely(b"GIF89a not really")
    assert res == {"ok": False, "error": "not_image"}
    assert "picture" in error_text("not_image")


def test_round_entry_rest_filled_from_a_photo() -> None:
    from app.ui.entry.entry_forms import RestInput

    changed: list[bool] = []
    rest = RestInput("rummy101", 4, "Ann", lambda: changed.append(True))
    assert rest.photo is not None
    rest.photo.on_confirm([["R5", "R6"], ["JK"]])
    assert rest.mode.value == "tiles"
    assert rest.read() == {"hand": ["R5", "R6", "JK"]}
    assert changed


# -- colour, cuts and 6/9 decisions, on constructed inputs ---------------------------------


@pytest.mark.parametrize(
    ("ink", "colour"),
    [
        ((0.30, 0.16, 0.12), "K"),  # a dark ink with a blue cast in its few bright pixels
        ((0.23, 0.01, 0.19), "K"),  # dark, a magenta fringe
        ((0.08, 0.14, 0.28), "K"),  # dark, warm light
        ((0.75, 0.45, 0.20), "B"),  # printed blue, face-balanced (B, G, R)
        ((0.55, 0.40, 0.25), "B"),  # a dull blue under warm light
        ((0.20, 0.18, 0.80), "R"),
        ((0.10, 0.55, 0.95), "Y"),
    ],
)
def test_black_is_told_from_colours_by_strength_not_tint(
    ink: tuple[float, float, float], colour: str
) -> None:
    from app.vision.find import ink_colour

    got, conf = ink_colour(None, None, n=ink)  # type: ignore[arg-type]
    assert got == colour and 0.5 <= conf <= 1.0


def test_a_shallow_waist_is_cut_only_when_asked() -> None:
    from app.vision.find import SHALLOW, split_joined

    # on a tile face, two upright bars 40 px high joined by a bridge half as high: a waist of
    # 0.5 of the bars' ink
    img = np.full((400, 400, 3), (60, 50, 40), np.uint8)
    img[100:300, 120:280] = (225, 232, 238)
    img[130:170, 170:178] = 30
    img[130:170, 202:210] = 30
    img[130:150, 178:202] = 30
    pl = planes(img)
    (m,) = tidy(find_marks(pl))
    assert split_joined(pl, m, (0.0, -1.0)) == []
    cuts = [c for c in split_joined(pl, m, (0.0, -1.0), SHALLOW) if c[2]]
    assert cuts and all(len(parts) == 2 for parts, _w, _own in cuts)


def test_a_narrow_eleven_whose_bars_a_blur_joined_is_cut_at_its_gap() -> None:
    from app.vision.find import split_joined

    # a "11" in a narrow font: two bars 4 px wide and 40 high, 6 px apart, joined at the top
    # by a blur's bridge; the whole is narrower than one digit (14 of 40 px)
    img = np.full((400, 400, 3), (60, 50, 40), np.uint8)
    img[100:300, 120:280] = (225, 232, 238)
    img[130:170, 180:184] = 30
    img[130:170, 190:194] = 30
    img[130:132, 184:190] = 30
    pl = planes(img)
    (m,) = tidy(find_marks(pl))
    cuts = [c for c in split_joined(pl, m, (0.0, -1.0)) if c[2]]
    assert cuts
    for parts, _wide, _own in cuts:
        assert len(parts) == 2 and min(k.long for k in parts) >= 38
    # a "0" as narrow: its loop's top and bottom leave ink across its middle, no cut there
    img[100:300, 120:280] = (225, 232, 238)
    cv2.rectangle(img, (180, 130), (193, 169), (30, 30, 30), 4)
    pl = planes(img)
    (m,) = tidy(find_marks(pl))
    assert [c for c in split_joined(pl, m, (0.0, -1.0)) if c[2]] == []


LYING = [(-30, 0), (-14, -8), (14, -8), (30, 0), (14, 8), (-14, 8)]


@pytest.mark.parametrize("lying", [True, False])
def test_only_a_bar_standing_along_the_up_is_taken_for_a_one(lying: bool) -> None:
    from app.vision.find import orient
    from app.vision.reader import _classify

    # a bar as long as the photo's numbers (60 px): standing, a 1 whatever the font's flag;
    # lying across the up it is read in (a tile's edge, the shadow in a gap), no 1
    img = np.full((300, 400, 3), (60, 50, 40), np.uint8)
    img[40:260, 60:340] = (225, 232, 238)
    pts = [(200 + x, 150 + y) if lying else (200 + y, 150 + x) for x, y in LYING]
    cv2.fillPoly(img, [np.array(pts, np.int32)], (30, 30, 30))
    pl = planes(img)
    (m,) = tidy(find_marks(pl), pl)
    g = orient(pl, [m], (0.0, -1.0))
    g.up = (0.0, -1.0)
    text, score, _f, _up = _classify(g, False, 60.0)
    if lying:
        assert not (text == "1" and score >= 0.5), (text, score)
    else:
        assert text == "1" and score >= 0.8, (text, score)


def _blurred(ink: tuple[float, float, float], a: float) -> tuple[float, float, float]:
    """``ink`` mixed with the white face around it, ``a`` of it left (a blur, glare)."""
    b, g, r = (a * c + (1 - a) for c in ink)
    return (b, g, r)


def test_a_blurred_orange_keeps_its_hue_and_stays_orange() -> None:
    from app.vision.find import _warmth, ink_colour, warm_split

    red, orange = (0.12, 0.19, 0.85), (0.1, 0.41, 0.92)  # face-balanced (B, G, R)
    for a in (0.8, 0.5):
        assert _warmth(_blurred(orange, a)) == pytest.approx(_warmth(orange))
        assert _warmth(_blurred(red, a)) == pytest.approx(_warmth(red))
    # a photo's sharp reds and oranges, and a red and an orange tile out of focus behind
    # them: (G - B) / R put the blurred orange nearer the reds
    inks = [red] * 5 + [orange] * 5 + [_blurred(orange, 0.5), _blurred(red, 0.5)]
    split = warm_split(inks)
    got = [ink_colour(None, None, split, n)[0] for n in inks]  # type: ignore[arg-type]
    assert got == ["R"] * 5 + ["Y"] * 5 + ["Y", "R"]


def test_a_pinkish_red_is_still_red_beside_another_red() -> None:
    from app.vision.find import _warmth, ink_colour, warm_split

    # a red with more blue than green in it (a pale, pinkish print): its hue stays within a
    # sixth of a turn of red, so it does not pull the red/orange boundary past the other red
    pink, red = (0.61, 0.27, 0.94), (0.36, 0.34, 0.88)
    oranges = [(0.24, 0.75, 1.08), (0.35, 0.93, 1.11)]
    w = _warmth(pink)
    assert w is not None and -1.0 <= w < 0
    inks = [pink, red, *oranges]
    split = warm_split(inks)
    got = [ink_colour(None, None, split, n)[0] for n in inks]  # type: ignore[arg-type]
    assert got == ["R", "R", "Y", "Y"]


def test_a_six_nobody_can_orient_is_marked() -> None:
    from app.vision.find import Group, Planes
    from app.vision.reader import LOW_CONFIDENCE, _settle_turns

    lone = Group([], (0.0, -1.0), False, 100.0, 100.0, 30.0, 20.0, token="6", confidence=0.97)
    sure_six = Group([], (0.0, -1.0), True, 300.0, 100.0, 30.0, 20.0, token="9", confidence=0.9)
    pl = Planes(
        np.zeros((1, 1, 3), np.uint8), np.zeros((1, 1), bool), np.zeros((1, 1)), np.zeros(1)
    )
    _settle_turns(pl, [lone, sure_six])
    assert lone.token == "6" and lone.confidence < LOW_CONFIDENCE
    # a neighbour whose number tells its up (a 7 is no number upside down) settles it
    seven = Group([], (0.0, 1.0), False, 200.0, 100.0, 30.0, 20.0, token="7", confidence=0.95)
    six = Group([], (0.0, -1.0), False, 100.0, 100.0, 30.0, 20.0, token="6", confidence=0.97)
    _settle_turns(pl, [six, seven])
    assert six.token == "9" and six.up == (-0.0, 1.0) and six.confidence == 0.97


# -- rows: tiles lying in one line are one row ----------------------------------------------
def test_a_meld_with_an_eleven_is_one_row_read_left_to_right() -> None:
    # an "11" reads the same upside down: read best half turned, it faced against its meld and
    # was put in a row of its own (R12 R13 | R11)
    from tests.photo_helpers import meld_jpeg

    for meld in (["R11", "R12", "R13"], ["B10", "B11", "B12", "B13"], ["K1", "K2", "K3"]):
        r = read_photo(meld_jpeg(meld))
        assert [[r.tiles[i].tile for i in row] for row in r.rows] == [meld]


def test_a_number_that_reads_both_ways_follows_its_neighbours_up() -> None:
    from app.vision.find import Group, Planes
    from app.vision.reader import _settle_turns

    pl = Planes(
        np.zeros((1, 1, 3), np.uint8), np.zeros((1, 1), bool), np.zeros((1, 1)), np.zeros(1)
    )
    # face-sure, yet read half turned and slanted: it takes the neighbours' up, keeps its number
    eleven = Group([], (0.298, 0.955), True, 400.0, 290.0, 41.0, 52.0, token="11", confidence=0.99)
    twelve = Group([], (0.0, -1.0), True, 486.0, 295.0, 41.0, 52.0, token="12", confidence=0.99)
    three = Group([], (0.0, -1.0), True, 580.0, 297.0, 39.0, 48.0, token="3", confidence=0.99)
    _settle_turns(pl, [eleven, twelve, three])
    assert eleven.token == "11" and eleven.up == (0.0, -1.0)
    # a far tile's reading says nothing of this one's up
    one = Group([], (0.0, 1.0), True, 100.0, 100.0, 40.0, 20.0, token="1", confidence=0.99)
    seven = Group([], (0.0, -1.0), True, 700.0, 100.0, 40.0, 50.0, token="7", confidence=0.99)
    _settle_turns(pl, [one, seven])
    assert one.up == (0.0, 1.0)


def _tile(cx: float, cy: float, h: float, up: tuple[float, float] = (0.0, -1.0)) -> Any:
    from app.vision.find import Group

    return Group([], up, True, cx, cy, h, 0.8 * h, token="R5", confidence=0.99)


@pytest.mark.parametrize(
    "line",
    [
        # (cx, cy, height): 3–5 tiles side by side, a little off the line, sizes a little apart
        [(400, 290, 41.6), (486, 296, 41.0), (581, 298, 38.6)],
        [(100, 300, 40), (190, 292, 44), (280, 306, 37), (370, 298, 42)],
        [(100, 300, 36), (185, 310, 40), (275, 318, 44), (368, 326, 47), (465, 335, 50)],
        [(100, 300, 40), (190, 300, 40), (280, 300, 40)],
    ],
)
def test_tiles_in_one_line_are_one_row_left_to_right(
    line: list[tuple[float, float, float]],
) -> None:
    from app.vision.find import rows_of

    order = [2, 0, 1, 4, 3][: len(line)] if len(line) == 5 else list(reversed(range(len(line))))
    groups = [_tile(*line[k]) for k in order]
    want = sorted(range(len(groups)), key=lambda i: groups[i].cx)
    assert rows_of(groups) == [want]
    # slanted a few degrees off each other (the turn that read each best)
    for i, g in enumerate(groups):
        g.up = (0.07 * (-1) ** i, -0.9975)
    assert rows_of(groups) == [want]


def test_separate_rows_stay_separate() -> None:
    from app.vision.find import rows_of

    # two rack tiers, tiles a tile's height and a half apart: two rows, top first
    top = [_tile(100 + 90 * k, 200, 40) for k in range(4)]
    bottom = [_tile(100 + 90 * k, 330, 40) for k in range(4)]
    assert rows_of(top + bottom) == [[0, 1, 2, 3], [4, 5, 6, 7]]
    # melds on a table, one a little above the other's line and far off
    a = [_tile(100 + 90 * k, 200, 40) for k in range(3)]
    b = [_tile(700 + 90 * k, 215, 40) for k in range(3)]
    assert rows_of(a + b) == [[0, 1, 2], [3, 4, 5]]


def test_a_rack_tier_with_an_empty_slot_stays_one_row() -> None:
    from app.vision.find import rows_of

    # two tiers a tile's height apart; the top one has a tile's width empty in it
    top = [_tile(100 + 90 * k, 200, 40) for k in range(4)] + [
        _tile(550 + 90 * k, 200, 40) for k in range(3)
    ]
    bottom = [_tile(100 + 90 * k, 330, 40) for k in range(5)]
    assert rows_of(top + bottom) == [[0, 1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11]]
    # the same gap between two melds on a table (no tier above or below): two melds
    assert rows_of(top) == [[0, 1, 2, 3], [4, 5, 6]]
    # melds far apart on the table, one under the other: each row still splits at its gap
    far = [_tile(100 + 90 * k, 500, 40) for k in range(5)]
    assert rows_of(top + far) == [[0, 1, 2, 3], [4, 5, 6], [7, 8, 9, 10, 11]]
    # two slots empty on a tier: two parts of the tier, each read left to right
    wide = top[:4] + [_tile(640 + 90 * k, 200, 40) for k in range(3)]
    assert rows_of(wide + bottom) == [[0, 1, 2, 3], [4, 5, 6], [7, 8, 9, 10, 11]]


def _tile_picture(faint: tuple[int, int, int] | None) -> np.ndarray:
    """Two white tiles on a dark table: a sharp black 3 and a 5 in ``faint`` (None: black),
    the 5's tile out of focus (blurred) when faint."""
    img = np.full((400, 600, 3), 40, np.uint8)
    for x0, text, colour in ((100, "3", (20, 20, 20)), (330, "5", faint or (20, 20, 20))):
        cv2.rectangle(img, (x0, 100), (x0 + 120, 300), (235, 238, 240), -1)
        cv2.putText(img, text, (x0 + 25, 210), cv2.FONT_HERSHEY_SIMPLEX, 3.0, colour, 7)
    if faint:
        img[:, 300:] = cv2.GaussianBlur(img, (0, 0), 2)[:, 300:]
    return img


def test_an_out_of_focus_grey_number_is_found() -> None:
    from app.vision import find

    # a blurred mid-grey number is neither ink (not dark enough, no colour) nor tile face:
    # only the hole it leaves in the face shows it, about the size of the photo's numbers
    pl = find.planes(_tile_picture((125, 125, 125)))
    marks = sorted(find.find_marks(pl), key=lambda m: m.cx)
    assert len(marks) == 2 and abs(marks[1].long - marks[0].long) < 0.15 * marks[0].long
    assert 370 < marks[1].cx < 410 and 140 < marks[1].cy < 220
    # the fixed thresholds see no ink of it; the faint pass finds it beside the sharp one
    assert int(pl.ink[120:240, 345:435].sum()) == 0
    assert len(find.faint_marks(pl, marks[:1])) == 2
    assert len(find.faint_marks(pl, [])) == 0


def test_a_sharp_number_is_not_found_twice() -> None:
    from app.vision import find

    pl = find.planes(_tile_picture(None))
    assert len(find.find_marks(pl)) == 2


def test_ink_cut_by_the_frame_has_less_face_around_it() -> None:
    from app.vision import find

    img = np.full((300, 400, 3), 235, np.uint8)
    cv2.rectangle(img, (50, 120), (72, 170), (20, 20, 20), 6)  # a "0" inside
    cv2.rectangle(img, (200, -20), (222, 30), (20, 20, 20), 6)  # one cut by the top edge
    marks = sorted(find.find_marks(find.planes(img)), key=lambda m: m.cx)
    assert len(marks) == 2
    assert marks[0].ring_face > 0.95
    assert marks[1].ring_face < 0.9  # its ring runs off the picture on one side of four


def test_the_number_size_is_the_numbers_not_the_specks() -> None:
    from app.vision.find import Mark, number_size

    def mark(long: float) -> Mark:
        return Mark(0, 0, np.zeros((1, 1), np.uint8), 1, 0, 0, long, long / 2, (0, 1), 1.0)

    # four numbers of about 95 px among eight suit signs and specks
    marks = [mark(v) for v in (92, 95, 97, 98)] + [
        mark(v) for v in (30, 35, 36, 38, 40, 24, 13, 12)
    ]
    assert number_size(marks) == pytest.approx(96, abs=2)
    assert number_size([]) == 0.0


def test_a_photo_decoded_again_smaller_is_not_decoded_twice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from app.vision import imageio

    data = jpeg(np.full((1500, 2000, 3), 180, np.uint8))
    first, scale, size = decode(data)
    calls = []
    real = cv2.imdecode
    monkeypatch.setattr(
        imageio.cv2,
        "imdecode",
        lambda *a: calls.append(1) or real(*a),  # type: ignore[func-returns-value]
    )
    small, s2, size2 = decode(data, work_side=900)
    assert calls == [] and max(small.shape[:2]) == 900 and size2 == size == (2000, 1500)
    assert s2 == pytest.approx(2000 / small.shape[1])
    small[:] = 0  # the caller's copy: the remembered picture is untouched
    again, _s, _z = decode(data)
    assert calls == [] and int(again.min()) > 150 and again.shape == first.shape
    decode(jpeg(np.full((1500, 2000, 3), 90, np.uint8)))  # other bytes are decoded
    assert calls == [1]
