""" "From a photo" on the screens, without a browser (app/ui/camera/photo.py and its hook-ups).

- every tile screen has the button: round entry's "tiles left" (Rummy 101, Tile Rummy, My
  Rummy) and the checkers' meld, opening, turn's "table after" and heap; card games have none;
- confirmed rows fill the field and the checker gives its verdict; nothing before confirming;
- bad input (not a picture, cut short, 100 megapixels, no tiles, playing cards) shows the
  player's message in the player's language and fills nothing in;
- the photo is read in a worker thread: another session's handler runs meanwhile;
- the preview is handed to the web client as base64 text (raw bytes are not drawn on a page
  that is not a secure context: tests/browser/test_photo.py).

Hand-worked values: Rummy 101 opening R10 R11 R12 + B11 B12 B13 + K11 Y11 B11 = 33 + 36 + 33 =
102 points >= 101 (RULES.md §3); Tile Rummy run R11 R12 R13 = 36 points.
"""

from __future__ import annotations

import asyncio
import base64
import os
import struct
import threading
import zlib
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import cv2
import flet as ft
import numpy as np
import pytest

import app.vision
from app import i18n
from app.ui.camera import photo, photo_worker
from app.ui.camera.photo import PhotoButton, PhotoReview, image_source, read_safely
from app.ui.common.widgets import ERROR_COLOUR
from app.ui.entry.entry_forms import RestInput
from app.ui.referee.checkers import MeldChecker, OpeningChecker, TurnChecker
from app.ui.shell import App
from app.vision.render import TEST_FONTS, available, render_cards
from tests.conftest import walk
from tests.photo_helpers import meld_jpeg

pytestmark = pytest.mark.skipif(not available(TEST_FONTS), reason="test fonts not installed")

TILE_VARIANTS = ["rummy101", "tile_rummy", "my_rummy"]


def photo_buttons(c: Any) -> list[PhotoButton]:
    """The "From a photo" buttons under ``c``, as their :class:`PhotoButton`."""
    out = []
    for x in walk(c):
        if isinstance(x, ft.OutlinedButton) and x.content == "From a photo":
            owner = getattr(x.on_click, "__self__", None)
            assert isinstance(owner, PhotoButton)
            out.append(owner)
    return out


def texts(c: Any) -> str:
    return "\n".join(x.value for x in walk(c) if isinstance(x, ft.Text) and x.value)


# -- where the button is -------------------------------------------------------------------------
@pytest.mark.parametrize("variant", TILE_VARIANTS)
def test_every_tile_checker_and_rack_has_the_button(app: App, variant: str) -> None:
    assert len(photo_buttons(MeldChecker(app, variant=variant).view)) == 1
    assert len(photo_buttons(OpeningChecker(app, variant=variant).view)) == 1
    turn = TurnChecker(app, variant=variant)
    after = photo_buttons(turn.after.control)
    heap = photo_buttons(turn.heap_box)
    assert len(after) == 1 and len(heap) == 1
    rest = RestInput(variant, 4, "Ann", lambda: None)
    assert rest.photo is not None and photo_buttons(rest.control) == [rest.photo]


@pytest.mark.parametrize("variant", ["gin", "carousel"])
def test_card_games_have_no_photo_button(app: App, variant: str) -> None:
    assert photo_buttons(MeldChecker(app, variant=variant).view) == []
    if variant == "carousel":
        assert photo_buttons(TurnChecker(app, variant=variant).view) == []


# -- confirmed rows fill the field ---------------------------------------------------------------
def test_meld_checker_gives_its_verdict_once_confirmed(app: App) -> None:
    screen = MeldChecker(app, variant="tile_rummy")
    (button,) = photo_buttons(screen.view)
    res = read_safely(meld_jpeg(["R11", "R12", "R13"]), ".jpg")
    review = PhotoReview(
        "tile_rummy", res["reading"], res["preview"], button.on_confirm, unit=button.unit
    )
    assert screen.keyboard.value == [] and "Valid run" not in texts(screen.verdict)
    assert res["reading"].rows == [[0, 1, 2]]  # one meld lying in a line is one row
    review.confirm()
    assert screen.keyboard.value == ["R11", "R12", "R13"]
    shown = texts(screen.verdict)
    assert "Valid run" in shown and "36 points" in shown


def test_opening_checker_filled_meld_by_meld(app: App) -> None:
    screen = OpeningChecker(app, variant="rummy101")
    (button,) = photo_buttons(screen.view)
    button.on_confirm([["R10", "R11", "R12"], ["B11", "B12", "B13"], ["K11", "Y11", "B11"]])
    assert screen.melds.value == [
        ["R10", "R11", "R12"],
        ["B11", "B12", "B13"],
        ["K11", "Y11", "B11"],
    ]
    answer = screen.check()
    assert answer["valid"] is True and answer["value"] == 102, answer


def test_turn_table_after_and_heap_from_a_photo(app: App) -> None:
    screen = TurnChecker(app, variant="tile_rummy")
    screen.set_joker_rule(0)
    assert screen.opened is not None
    screen.opened.pick("yes")
    screen.before.set_melds([["R1", "R2", "R3"]])
    screen.rack.set_pieces(["R4", "B9"])
    (after,) = photo_buttons(screen.after.control)
    after.on_confirm([["R1", "R2", "R3", "R4"]])
    assert screen.after.value == [["R1", "R2", "R3", "R4"]]
    assert screen.check()["valid"] is True
    screen.after_mode.pick("heap")
    (heap,) = photo_buttons(screen.heap_box)
    heap.on_confirm([["R1", "R2"], ["R3", "R4"]])  # a heap: the rows' order does not matter
    assert screen.heap.value == ["R1", "R2", "R3", "R4"]
    assert screen.check()["valid"] is True


@pytest.mark.parametrize("variant", TILE_VARIANTS)
def test_rack_filled_from_a_photo(variant: str) -> None:
    changed: list[bool] = []
    rest = RestInput(variant, 4, "Ann", lambda: changed.append(True))
    assert rest.photo is not None
    res = read_safely(meld_jpeg(["K3", "K4", "K5"]))
    review = PhotoReview(variant, res["reading"], res["preview"], rest.photo.on_confirm)
    assert not changed and rest.mode.value == "value"  # nothing used before confirming
    review.editor.keyboard.press_joker()  # a joker the photo missed
    review.confirm()
    assert rest.mode.value == "tiles" and changed
    assert rest.read() == {"hand": ["K3", "K4", "K5", "JK"]}


# -- the preview ---------------------------------------------------------------------------------
def test_preview_is_base64_text_of_a_small_jpeg() -> None:
    res = read_safely(meld_jpeg(["Y1", "Y2", "Y3"]), ".jpg")
    assert res["ok"] and res["preview"][:3] == b"\xff\xd8\xff"
    review = PhotoReview("tile_rummy", res["reading"], res["preview"], lambda rows: None)
    src = review.image.src
    # base64 text, never taken for a URL or an asset path (the client reads a "." as a path)
    assert isinstance(src, str) and "." not in src and ":" not in src
    assert base64.b64decode(src) == res["preview"]
    img = cv2.imdecode(np.frombuffer(res["preview"], np.uint8), cv2.IMREAD_COLOR)
    assert img is not None and max(img.shape[:2]) == 900
    # a box on every tile: the boxes are green (sure) or orange (unsure), the photo has neither
    g = (img[..., 1] > 150) & (img[..., 0] < 90) & (img[..., 2] < 90)
    orange = (img[..., 2] > 200) & (img[..., 1] > 100) & (img[..., 0] < 60)
    assert (g | orange).sum() > 300
    assert image_source(b"\x00\xff") == "AP8="


# -- bad input -----------------------------------------------------------------------------------
def png_header(w: int, h: int) -> bytes:
    """A PNG that claims ``w`` x ``h`` pixels (a decompression bomb's header)."""
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    idat = b"IDAT" + zlib.compress(b"\x00" * 1000)
    return (
        b"\x89PNG\r\n\x1a\n"
        + struct.pack(">I", len(ihdr))
        + chunk
        + struct.pack(">I", zlib.crc32(chunk))
        + struct.pack(">I", len(idat) - 4)
        + idat
        + struct.pack(">I", zlib.crc32(idat))
    )


def jpeg(img: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return bytes(buf.tobytes())


def empty_table() -> bytes:
    rng = np.random.default_rng(4)
    wood = np.full((700, 900, 3), (70, 120, 170), np.float64)
    return jpeg(np.clip(wood + rng.normal(0, 8, wood.shape), 0, 255).astype(np.uint8))


BAD = {
    "not a picture": (lambda: b"GIF89a? no: my shopping list, " * 20, {"not_image"}),
    "cut short": (lambda: meld_jpeg(["R5", "R6", "R7"])[:20_000], {"truncated"}),
    "100 megapixels": (lambda: png_header(10_000, 10_000), {"too_big"}),
    "no tiles": (empty_table, {"no_tiles"}),
    "playing cards": (lambda: jpeg(render_cards(1)), {"cards"}),
}
POLISH = {
    "not_image": "Ten plik nie jest obrazem",
    "truncated": "Plik zdjęcia jest ucięty",
    "too_big": "Zdjęcie jest za duże",
    "no_tiles": "nie znaleziono płytek",
    "cards": "karty do gry",
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_says_why_in_the_players_language_and_fills_nothing(case: str) -> None:
    make, codes = BAD[case]
    got: list[object] = []
    with i18n.use_language("pl"):
        button = PhotoButton("tile_rummy", got.append)
        result = asyncio.run(button.read(make()))
    assert not result["ok"] and result["error"] in codes, result
    assert button.review is None and got == []
    assert button.status.visible and button.status.value
    assert POLISH[result["error"]] in button.status.value, button.status.value


def test_every_reader_error_has_a_message_in_each_language() -> None:
    codes = ["not_image", "truncated", "too_big", "too_small", "no_tiles", "cards"]
    for lang in ("en", "pl", "sk"):
        with i18n.use_language(lang):
            fallback = photo.error_text("internal")
            for code in codes:
                assert photo.error_text(code) != fallback, (lang, code)


# -- a worker process ----------------------------------------------------------------------------
def test_reading_does_not_run_on_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """The read waits until another session's handler has run on the event loop: were it read
    on the loop itself, that handler could not run and the read would give up (an error).
    (The worker is a thread here, so that the test can hold the read back.)"""
    real = app.vision.read_photo
    other_ran = threading.Event()
    threads: list[int] = []

    def read_photo(data: bytes) -> Any:
        threads.append(threading.get_ident())
        if not other_ran.wait(60):
            raise RuntimeError("the event loop was blocked by the read")
        return real(data)

    monkeypatch.setattr(app.vision, "read_photo", read_photo)
    with ThreadPoolExecutor(1) as in_process:
        monkeypatch.setattr(photo_worker, "pool", lambda: in_process)

        async def both() -> tuple[dict[str, Any], int]:
            loop_thread = threading.get_ident()
            button = PhotoButton("tile_rummy", lambda rows: None)

            async def other_session() -> None:
                await asyncio.sleep(0)  # the photo's read has started by now
                other_ran.set()  # e.g. another phone's tap handled meanwhile

            result, _none = await asyncio.gather(
                button.read(meld_jpeg(["R5", "R6", "R7"])), other_session()
            )
            return result, loop_thread

        result, loop_thread = asyncio.run(both())
    assert result["ok"], result
    assert threads and threads[0] != loop_thread


class Recording:
    """A pool that notes what it is given and hands it to the real one."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.calls: list[Any] = []

    def submit(self, fn: Any, *args: Any) -> Any:
        # the read goes through photo_worker._timed (its CPU time charged to the sender)
        self.calls.append(args[0] if fn is photo_worker._timed else fn)
        return self.real.submit(fn, *args)


def test_the_photo_is_read_in_another_process(monkeypatch: pytest.MonkeyPatch) -> None:
    real = photo_worker.pool()
    assert real.submit(os.getpid).result(120) != os.getpid()
    rec = Recording(real)
    monkeypatch.setattr(photo_worker, "pool", lambda: rec)
    button = PhotoButton("tile_rummy", lambda rows: None)
    result = asyncio.run(button.read(meld_jpeg(["R5", "R6", "R7"])))
    assert result["ok"] and rec.calls == [photo_worker.read_safely]
    assert [[result["reading"].tiles[i].tile for i in r] for r in result["reading"].rows] == [
        ["R5", "R6", "R7"]
    ]


def test_a_worker_that_dies_is_replaced() -> None:
    """A picture that crashed the decoder ends the worker, not the server (here the worker
    simply exits): that read says "could not be read", the next one gets a new worker."""
    died = asyncio.run(photo_worker.run_in_worker(os._exit, 3))
    assert died == {"ok": False, "error": "internal"}
    again = asyncio.run(photo_worker.read_in_worker(meld_jpeg(["R1", "R2", "R3"])))
    assert again["ok"], again


# -- the picker ----------------------------------------------------------------------------------
class FakePage:
    def __init__(self) -> None:
        self.on_connect: Any = None
        self.updates = 0
        self.dialogs: list[Any] = []

    def update(self) -> None:
        self.updates += 1

    def show_dialog(self, d: Any) -> None:
        self.dialogs.append(d)

    def pop_dialog(self) -> None:
        self.dialogs.pop()


class FakeFile:
    def __init__(self, data: bytes) -> None:
        self.bytes = data


def test_picker_asks_for_one_picture_and_a_reconnect_meanwhile_is_explained(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A photo bigger than one message closes the connection and never arrives: when the page
    connects again while the picker is open, the player reads why (app/ui/camera/photo.py)."""
    asked: list[dict[str, Any]] = []
    release = asyncio.Event

    class Picker:
        gate: asyncio.Event

        async def pick_files(self, **kw: Any) -> list[FakeFile]:
            asked.append(kw)
            Picker.gate = release()
            await Picker.gate.wait()
            return [FakeFile(meld_jpeg(["B4", "B5", "B6"]))]

    monkeypatch.setattr(ft, "FilePicker", Picker)
    page = FakePage()
    earlier: list[object] = []
    page.on_connect = earlier.append  # the shell's own reconnect handler stays in the chain
    got: list[list[list[str]]] = []
    button = PhotoButton("tile_rummy", got.append)

    class Event:
        pass

    e = Event()
    e.page = page  # type: ignore[attr-defined]

    async def run() -> None:
        task = asyncio.create_task(button._clicked(e))
        while not asked:
            await asyncio.sleep(0)
        page.on_connect("again")  # the connection started again meanwhile
        assert earlier == ["again"]
        assert button.status.visible and "too large to send (over 8 MB)" in str(button.status.value)
        Picker.gate.set()  # ... and this time the answer comes after all
        await task

    asyncio.run(run())
    assert asked[0]["with_data"] is True and asked[0]["allow_multiple"] is False
    assert asked[0]["file_type"] == ft.FilePickerFileType.IMAGE
    assert button.review is not None and not button.status.visible and len(page.dialogs) == 1
    assert got == []  # the review is open: nothing used yet
    page.on_connect("later")  # a reconnect after the pick says nothing
    assert not button.status.visible and earlier == ["again", "later"]
    button.review.confirm()
    assert got == [[["B4", "B5", "B6"]]] and page.dialogs == []


# -- low confidence ------------------------------------------------------------------------------
def test_unsure_tiles_are_named_and_boxed_orange() -> None:
    from app.vision import LOW_CONFIDENCE, Reading, TileRead

    sure, unsure = LOW_CONFIDENCE + 0.3, LOW_CONFIDENCE - 0.2
    tiles = [
        TileRead("R5", (100, 100, 80, 110), sure),
        TileRead("R6", (200, 100, 80, 110), sure),
        TileRead("R7", (300, 100, 80, 110), unsure),
        TileRead("B2", (100, 400, 80, 110), unsure),
    ]
    reading = Reading(tiles, [[0, 1, 2], [3]], 0.1, (900, 700))
    wood = np.full((700, 900, 3), (60, 110, 160), np.uint8)
    preview = photo_worker.draw_preview(wood, 1.0, reading, ".png")
    img = cv2.imdecode(np.frombuffer(preview, np.uint8), cv2.IMREAD_COLOR)
    assert img is not None
    assert tuple(img[100, 140]) == (0, 200, 0)  # R5's box, top edge: sure, green
    assert tuple(img[100, 340]) == (0, 140, 255)  # R7's box: unsure, orange (BGR)
    assert tuple(img[400, 140]) == (0, 140, 255)  # B2's box
    review = PhotoReview("tile_rummy", reading, preview, lambda rows: None)
    assert review.unsure == [(1, 3, "R7"), (2, 1, "B2")]
    assert review.summary.value == (
        "4 tiles found. Check these: red 7 (meld 1, tile 3), blue 2 (meld 2, tile 1)"
    )
    assert review.summary.color == ERROR_COLOUR
    with i18n.use_language("pl"):
        pl = PhotoReview("tile_rummy", reading, preview, lambda rows: None).summary.value
    assert "(układ 1, płytka 3)" in str(pl), pl


# -- a phone's portrait photo --------------------------------------------------------------------
def with_orientation(jpeg_bytes: bytes, value: int, little_endian: bool = False) -> bytes:
    """``jpeg_bytes`` with an EXIF segment whose orientation tag is ``value`` (as a phone
    writes a portrait photo: landscape pixels, orientation 6)."""
    e = "<" if little_endian else ">"
    tiff = (
        (b"II" if little_endian else b"MM")
        + struct.pack(e + "HI", 42, 8)
        + struct.pack(e + "H", 1)
        + struct.pack(e + "HHIHH", 0x0112, 3, 1, value, 0)
        + struct.pack(e + "I", 0)
    )
    app1 = b"Exif\0\0" + tiff
    return jpeg_bytes[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + jpeg_bytes[2:]


def test_a_portrait_photo_is_shown_upright() -> None:
    # the reader turns the pixels upright (app/vision/imageio.py), so do the preview's boxes
    flat_ = meld_jpeg(["R5", "R6", "R7"])
    res = read_safely(with_orientation(flat_, 6), ".jpg")
    assert res["ok"]
    assert [[res["reading"].tiles[i].tile for i in r] for r in res["reading"].rows] == [
        ["R5", "R6", "R7"]
    ]
    img = cv2.imdecode(np.frombuffer(res["preview"], np.uint8), cv2.IMREAD_COLOR)
    assert img is not None and img.shape[:2] == (900, 700)  # 900×700 pixels, shown upright
    boxes = (img[..., 1] > 150) & (img[..., 0] < 90) & (img[..., 2] < 90)
    rows, cols = np.nonzero(boxes)
    assert len(rows) > 300 and np.ptp(rows) > 2 * np.ptp(cols)  # the meld stands upright too
    review = PhotoReview("tile_rummy", res["reading"], res["preview"], lambda rows: None)
    assert review.image.height == 300  # a portrait photo: limited in height
    landscape = read_safely(flat_, ".jpg")
    wide = PhotoReview("tile_rummy", landscape["reading"], landscape["preview"], lambda r: None)
    assert wide.image.height is None  # as wide as the dialog


# -- a photo of several rows ----------------------------------------------------------------------
def table_reading(rows: list[list[str]]) -> Any:
    """A reading of ``rows`` (the reader's answer as the review gets it; boxes made up)."""
    from app.vision.reader import Reading, TileRead

    tiles, index = [], []
    for r, row in enumerate(rows):
        index.append([])
        for k, t in enumerate(row):
            index[-1].append(len(tiles))
            tiles.append(TileRead(t, (10 + 60 * k, 10 + 90 * r, 50, 80), 0.99))
    return Reading(tiles, index, 0.1, (900, 400))


TABLE = [["R10", "R11", "R12", "R13"], ["K10", "K11", "K12"], ["B10", "B11", "B12", "B13"]]


def test_meld_checker_picks_one_row_of_a_table_photo(app: App) -> None:
    # the tester's photo of a whole table: the meld checker checks one meld, so the review asks
    # which row, and never joins the rows into one 11-tile "meld"
    screen = MeldChecker(app, variant="tile_rummy")
    (button,) = photo_buttons(screen.view)
    preview = meld_jpeg(["R1"])
    review = PhotoReview(
        "tile_rummy", table_reading(TABLE), preview, button.on_confirm, unit=button.unit
    )
    assert review.choosing() and review.confirm_button.visible is False
    shown = texts(review.control)
    assert "The photo shows 3 rows of tiles." in shown and "choose the row to check" in shown
    choices = [c for c in walk(review.control) if isinstance(c, ft.Button)]
    assert [c.content for c in choices] == ["Check row 1", "Check row 2", "Check row 3"]
    assert "Row 2" in shown and "Meld 2" not in shown
    with pytest.raises(ValueError):
        review.confirm()  # no way to take all rows at once
    choices[1].on_click(None)
    assert screen.keyboard.value == ["K10", "K11", "K12"]
    assert "Valid run" in texts(screen.verdict)


def test_meld_checker_row_choice_follows_the_corrections(app: App) -> None:
    screen = MeldChecker(app, variant="tile_rummy")
    (button,) = photo_buttons(screen.view)
    review = PhotoReview(
        "tile_rummy", table_reading(TABLE[:2]), meld_jpeg(["R1"]), button.on_confirm, unit="one"
    )
    assert review.choosing()
    review.editor.select(1)
    review.editor.remove_meld()  # the player deletes the second row: one row left
    assert not review.choosing() and review.confirm_button.visible is not False
    assert not review.choice.visible
    review.confirm()
    assert screen.keyboard.value == ["R10", "R11", "R12", "R13"]


def test_opening_checker_takes_every_row_as_a_meld(app: App) -> None:
    screen = OpeningChecker(app, variant="tile_rummy")
    (button,) = photo_buttons(screen.view)
    review = PhotoReview(
        "tile_rummy", table_reading(TABLE), meld_jpeg(["R1"]), button.on_confirm, unit=button.unit
    )
    assert not review.choosing()
    assert "Meld 2" in texts(review.control)
    review.confirm()
    assert screen.melds.value == TABLE


def test_rack_photo_calls_its_rows_rows(app: App) -> None:
    rest = RestInput("tile_rummy", 4, "Ann", lambda: None)
    assert rest.photo is not None
    review = PhotoReview(
        "tile_rummy",
        table_reading([["R5", "B7"], ["JK"]]),
        meld_jpeg(["R1"]),
        rest.photo.on_confirm,
        unit=rest.photo.unit,
    )
    shown = texts(review.control)
    assert "Row 1" in shown and "Row 2" in shown and "Meld 1" not in shown
    assert "New row" in [
        c.content for c in walk(review.control) if isinstance(c, ft.OutlinedButton)
    ]
    review.confirm()
    assert rest.read() == {"hand": ["R5", "B7", "JK"]}


# -- checking the unsure tiles -------------------------------------------------------------------
ORANGE, GREEN = (0, 140, 255), (0, 200, 0)


def box_colour(src: Any, y: int, x: int) -> tuple[int, int, int]:
    """The colour (BGR) of the preview ``src`` (base64 text of a JPEG) at ``y``, ``x``: the
    nearest of orange, green or neither (the photo's wood)."""
    img = cv2.imdecode(np.frombuffer(base64.b64decode(src), np.uint8), cv2.IMREAD_COLOR)
    assert img is not None
    px = img[y, x].astype(int)
    best = min((ORANGE, GREEN), key=lambda c: int(np.abs(px - np.array(c)).sum()))
    assert int(np.abs(px - np.array(best)).sum()) < 90, (tuple(px), y, x)
    return best


def unsure_review(unit: str = "meld") -> tuple[PhotoReview, list[list[list[str]]]]:
    """A review of R5 R6 R7? / B2? / K9 K10? (``?``: read unsure), drawn on plain wood."""
    from app.vision import LOW_CONFIDENCE, Reading, TileRead

    sure, unsure = LOW_CONFIDENCE + 0.3, LOW_CONFIDENCE - 0.2
    tiles = [
        TileRead("R5", (100, 100, 80, 110), sure),
        TileRead("R6", (200, 100, 80, 110), sure),
        TileRead("R7", (300, 100, 80, 110), unsure),
        TileRead("B2", (100, 300, 80, 110), unsure),
        TileRead("K9", (100, 500, 80, 110), sure),
        TileRead("K10", (200, 500, 80, 110), unsure),
    ]
    reading = Reading(tiles, [[0, 1, 2], [3], [4, 5]], 0.1, (900, 700))
    wood = np.full((700, 900, 3), (60, 110, 160), np.uint8)
    preview = photo_worker.draw_preview(wood, 1.0, reading, ".jpg")
    clean = cv2.imencode(".png", wood)[1].tobytes()
    got: list[list[list[str]]] = []
    review = PhotoReview("tile_rummy", reading, preview, got.append, unit=unit, photo=clean)
    return review, got


def test_a_corrected_unsure_tile_is_no_longer_named_nor_boxed_orange() -> None:
    review, got = unsure_review()
    first = review.image.src
    assert review.summary.value == (
        "6 tiles found. Check these: red 7 (meld 1, tile 3), blue 2 (meld 2, tile 1),"
        " black 10 (meld 3, tile 2)"
    )
    assert box_colour(first, 100, 340) == ORANGE and box_colour(first, 100, 140) == GREEN
    review.editor.select(0)
    review.editor.keyboard.backspace()  # R7 was really a B9
    review.editor.keyboard.add("B9")
    assert review.unsure == [(2, 1, "B2"), (3, 2, "K10")]
    assert review.summary.value == (
        "6 tiles found. Check these: blue 2 (meld 2, tile 1), black 10 (meld 3, tile 2)"
    )
    assert review.summary.color == ERROR_COLOUR
    now = review.image.src
    assert now != first  # drawn again: R7's box is green now, the others as they were
    assert box_colour(now, 100, 340) == GREEN and box_colour(now, 300, 140) == ORANGE
    assert box_colour(now, 500, 240) == ORANGE and box_colour(now, 100, 140) == GREEN
    review.confirm()  # one tap: the player has seen the marks
    assert got == [[["R5", "R6", "B9"], ["B2"], ["K9", "K10"]]]


def test_a_tile_tapped_again_or_deleted_is_checked_and_then_the_line_goes() -> None:
    review, got = unsure_review(unit="row")
    review.editor.select(2)
    review.editor.keyboard.backspace()  # K10 taken back ...
    assert review.unsure == [(1, 3, "R7"), (2, 1, "B2")]
    review.editor.keyboard.add("K10")  # ... and tapped again: the player says it is K10
    assert review.unsure == [(1, 3, "R7"), (2, 1, "B2")]
    assert "black 10" not in str(review.summary.value)
    review.editor.select(1)
    review.editor.remove_meld()  # B2 was no tile at all: its row deleted
    # the rows below move up, and the line names them where they are now
    assert review.unsure == [(1, 3, "R7")]
    assert review.summary.value == "6 tiles found. Check these: red 7 (row 1, tile 3)"
    review.editor.select(0)
    review.editor.keyboard.type_text("R5 R6 R7")  # typed as it was: nothing changed
    assert review.unsure == [(1, 3, "R7")]
    review.editor.keyboard.type_text("R5 R6")
    review.editor.keyboard.type_text("R5 R6 R7")  # R7 typed again
    assert review.unsure == [] and review.summary.value == "6 tiles found."
    assert review.summary.color != ERROR_COLOUR
    src = review.image.src
    for y, x in ((100, 340), (300, 140), (500, 240), (100, 140)):
        assert box_colour(src, y, x) == GREEN, (y, x)
    review.confirm()
    assert got == [[["R5", "R6", "R7"], ["K9", "K10"]]]


def test_a_tile_beside_a_typed_correction_stays_unsure() -> None:
    # the text field: the player types over the middle of a row; the tiles before and after
    # the change are still the photo's (an unsure one there is still named)
    from app.vision import LOW_CONFIDENCE, Reading, TileRead

    low = LOW_CONFIDENCE - 0.1
    tiles = [
        TileRead("Y3", (100, 100, 80, 110), 0.99),
        TileRead("Y4", (200, 100, 80, 110), low),
        TileRead("Y8", (300, 100, 80, 110), 0.99),
        TileRead("Y6", (400, 100, 80, 110), low),
    ]
    review = PhotoReview(
        "tile_rummy", Reading(tiles, [[0, 1, 2, 3]], 0.1, (900, 700)), b"", lambda r: None
    )
    assert review.unsure == [(1, 2, "Y4"), (1, 4, "Y6")]
    review.editor.select(0)
    review.editor.keyboard.type_text("Y3 Y4 Y5 Y6")  # Y8 was a Y5
    assert review.unsure == [(1, 2, "Y4"), (1, 4, "Y6")]
    review.editor.keyboard.type_text("Y3 Y4 Y5 JK Y6")  # a joker the photo missed
    assert review.unsure == [(1, 2, "Y4"), (1, 5, "Y6")]
    assert review.image.src == image_source(b"")  # no photo without boxes: nothing redrawn


def test_the_reading_carries_the_photo_without_boxes() -> None:
    res = read_safely(meld_jpeg(["R5", "R6", "R7"]), ".jpg")
    assert res["ok"] and res["photo"][:3] == b"\xff\xd8\xff" and res["scale"] >= 1
    clean = cv2.imdecode(np.frombuffer(res["photo"], np.uint8), cv2.IMREAD_COLOR)
    boxed = cv2.imdecode(np.frombuffer(res["preview"], np.uint8), cv2.IMREAD_COLOR)
    assert clean is not None and boxed is not None and clean.shape == boxed.shape
    green = (clean[..., 1] > 150) & (clean[..., 0] < 90) & (clean[..., 2] < 90)
    assert green.sum() < 20  # no boxes on it
    # drawn again from it with no tile unsure: the same boxes as the worker's preview
    again = photo_worker.draw_preview(clean, res["scale"], res["reading"], ".png", unsure=[])
    redrawn = cv2.imdecode(np.frombuffer(again, np.uint8), cv2.IMREAD_COLOR)
    assert redrawn is not None
    g1 = (boxed[..., 1] > 150) & (boxed[..., 0] < 90) & (boxed[..., 2] < 90)
    g2 = (redrawn[..., 1] > 150) & (redrawn[..., 0] < 90) & (redrawn[..., 2] < 90)
    assert g2.sum() > 300 and (g1 & g2).sum() > 0.8 * (g1 | g2).sum()


def test_the_review_keeps_its_keys_below_the_scrolling_photo() -> None:
    """Session 10 (a phone at 390×844 in Polish): the photo and rows scroll, the text field
    and keys stay below them, right above the dialog's buttons; a dialog with narrow margins
    (the keys' row had 262 px). A screen too low for that scrolls everything together."""
    res = read_safely(meld_jpeg(["R5", "R6", "R7"]), ".jpg")
    review = PhotoReview("tile_rummy", res["reading"], res["preview"], lambda rows: None)
    scroller, keys = review.control.controls
    assert scroller is review.scroller and scroller.scroll == ft.ScrollMode.AUTO
    assert review.image in scroller.controls and review.editor.control in scroller.controls
    assert any(c is review.editor.keys_box for c in walk(keys))  # pinned, not scrolled
    assert any(c is review.editor.keyboard.field for c in walk(keys))
    assert not any(c is review.editor.keyboard.field for c in walk(scroller))
    dialog = photo.review_dialog(review)
    assert dialog.scrollable is False and dialog.actions == review.actions
    inset = dialog.inset_padding
    assert isinstance(inset, ft.Padding) and inset.left + inset.right <= 16
    review.scroll_all()  # a phone held sideways
    assert review.control.controls == [scroller]
    assert any(c is review.editor.keyboard.field for c in walk(scroller))
    review.scroll_all()  # once is enough
    assert scroller.controls.count(keys) == 1


# -- the browser's Back while the review is open -------------------------------------------------
class RoutedPage:
    """A page that records the addresses pushed (``navigate``) and the route handler's calls."""

    def __init__(self, route: str, owner: Any) -> None:
        self.route = route
        self.on_route_change: Any = owner.changed
        self.pushed: list[str] = []

    def navigate(self, route: str) -> None:
        self.pushed.append(route)


class Session:
    """Stands for app/ui/common/session.py's App: its handler and the paths it asked for."""

    def __init__(self) -> None:
        self._asked: list[str] = []
        self.seen: list[str] = []

    def changed(self, e: Any) -> None:
        self.seen.append(e.route)


class Route:
    def __init__(self, route: str) -> None:
        self.route = route


def test_browser_back_closes_the_review_and_keeps_the_screen() -> None:
    from app.ui.camera.photo import _hold_back

    session = Session()
    page = RoutedPage("/check/meld?variant=tile_rummy", session)
    closed: list[int] = []
    unwatch: Any = None

    def close() -> None:  # as the review's Cancel: the owner's close puts the handler back
        closed.append(1)
        unwatch()

    unwatch = _hold_back(page, close)
    page.on_route_change(Route("/check"))  # the browser's Back
    assert closed == [1] and page.pushed == ["/check/meld?variant=tile_rummy"]
    assert session.seen == []  # the session never left the screen
    page.on_route_change(Route("/check/meld?variant=tile_rummy"))  # the push comes back
    assert session.seen == [] and page.on_route_change == session.changed
    page.on_route_change(Route("/check"))  # the next Back is the session's again
    assert session.seen == ["/check"] and closed == [1]


def test_a_move_the_session_asked_for_closes_the_review_and_goes_on() -> None:
    from app.ui.camera.photo import _hold_back

    session = Session()
    page = RoutedPage("/game/g1/round", session)
    closed: list[int] = []
    unwatch = _hold_back(page, lambda: closed.append(1))
    session._asked.append("/game/g1")  # App.go: the round was saved on another phone
    page.on_route_change(Route("/game/g1"))
    assert closed == [1] and page.pushed == [] and session.seen == ["/game/g1"]
    assert page.on_route_change == session.changed
    unwatch()  # the owner's close after that changes nothing
    assert page.on_route_change == session.changed


def test_closing_the_review_puts_the_route_handler_back() -> None:
    from app.ui.camera.photo import _hold_back

    session = Session()
    page = RoutedPage("/game/g1/round", session)
    unwatch = _hold_back(page, lambda: None)
    assert page.on_route_change != session.changed
    unwatch()  # "Use these tiles" or "Cancel"
    assert page.on_route_change == session.changed
    page.on_route_change(Route("/game/g1"))
    assert session.seen == ["/game/g1"]
