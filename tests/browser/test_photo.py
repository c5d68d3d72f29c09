""" "From a photo" in headless Chromium at 360×740, on a page that is *not* a secure context.

A phone joins the table at ``http://<LAN address>:8550`` — plain http at an address that is not
``localhost``, so the browser treats the page as not secure (no ``ImageDecoder``, no service
worker, no browser camera). ``http://127.0.0.1`` is a secure context and would hide what goes
wrong there (an ``ft.Image`` from raw bytes stays blank:
app/ui/camera/photo.py ``image_source``). So
this module's Chromium maps the made-up name ``rummy-table.test`` to 127.0.0.1
(``--host-resolver-rules``): the page is ``http://rummy-table.test:<port>/``, not secure, on
any machine (no LAN needed). Its connection still comes from this computer, but under a name
that is neither an address nor this computer's own (``app.guard.host_name_trusted``: it might be
a DNS-rebinding site), so it is opened once with this run's host key (``?key=…``, as the host
would on another name) and is then the host's browser, which may enter rounds. Each test
checks ``window.isSecureContext`` is false.

The photos are rendered (tests/photo_helpers.py); the dev photos are not needed here.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from app.vision.render import TEST_FONTS, available
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, Phone, Server
from tests.browser.test_checkers import press, shown, tiles
from tests.browser.test_play import enter_round, new_game, show_and_save, totals
from tests.photo_helpers import meld_jpeg

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not available(TEST_FONTS), reason="test fonts not installed"),
]

NAME = "rummy-table.test"
PHOTO_LABEL = "The photo with a box on every tile found"


@pytest.fixture(scope="module")
def insecure_chromium(playwright_driver: Any) -> Iterator[Any]:
    """A Chromium that reaches 127.0.0.1 under a name that is not a secure origin (launched
    by the run's one Playwright driver)."""
    browser = playwright_driver.chromium.launch(
        executable_path=CHROMIUM,
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {NAME} 127.0.0.1"],
    )
    yield browser
    browser.close()


@pytest.fixture
def phone(insecure_chromium: Any, server: Server) -> Iterator[Phone]:
    """A fresh tab at 360×740 on ``http://rummy-table.test:<port>/`` (named ``phone`` so the
    failure hook of conftest saves its screen)."""
    context = insecure_chromium.new_context(viewport=PHONE, device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(20_000)
    tab = Phone(page, f"http://{NAME}:{server.port}/")
    tab.open(f"/?key={host_key(server)}")  # kept by the browser: the host from now on
    tab.wait_text("New game")
    yield tab
    context.close()


def host_key(server: Server) -> str:
    """This run's host key, from the line of the server's log that gives the host's address."""
    deadline = time.monotonic() + 30
    while True:
        m = re.search(r"\?key=([A-Za-z0-9_\-]+)", server.log.read_text(errors="replace"))
        if m:
            return m.group(1)
        assert time.monotonic() < deadline, "the server printed no host key"
        time.sleep(0.1)


def not_secure(phone: Phone) -> None:
    assert phone.page.evaluate("() => window.isSecureContext") is False
    assert phone.page.evaluate("() => typeof ImageDecoder") == "undefined"


def choose_photo(phone: Phone, path: Path) -> None:
    """Tap "From a photo" and pick ``path`` in the file chooser, which must ask for one
    picture: ``accept="image/*"`` and no ``capture``, so a phone's browser offers the camera
    and the gallery both."""
    with phone.page.expect_file_chooser(timeout=20_000) as chooser:
        press(phone, "From a photo")
    element = chooser.value.element
    assert element.get_attribute("accept") == "image/*"
    assert element.get_attribute("capture") is None
    assert not chooser.value.is_multiple()
    chooser.value.set_files(str(path))


def photo_drawn(phone: Phone) -> tuple[int, float]:
    """(green box pixels, spread of the grey levels) inside the photo on the screen: a photo
    that is not drawn leaves the dialog's plain background there (0 and ~0)."""
    loc = phone.page.locator(f'[aria-label="{PHOTO_LABEL}"]').first
    loc.wait_for(timeout=15_000, state="attached")
    time.sleep(0.5)
    box = loc.bounding_box()
    assert box is not None and box["width"] > 100 and box["height"] > 60, box
    png = phone.page.screenshot(clip=box)
    shot = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    assert shot is not None
    img = shot.astype(int)
    b, g, r = img[..., 0], img[..., 1], img[..., 2]
    green = int(((g > 140) & (r < 110) & (b < 110)).sum())
    return green, float(cv2.cvtColor(img.astype(np.uint8), cv2.COLOR_BGR2GRAY).std())


def test_round_entry_from_a_photo(phone: Phone, tmp_path: Path) -> None:
    photo = tmp_path / "rack.jpg"
    photo.write_bytes(meld_jpeg(["R5", "R6", "R7"]))
    new_game(phone, "Tile Rummy", ["Ala", "Bob"])
    not_secure(phone)
    enter_round(phone, 1)
    phone.chip("Ala")
    choose_photo(phone, photo)
    phone.dialog("Tiles on the photo", timeout=90_000)  # a photo is sent, then read
    # a rack's rows are rows, not melds
    shown(phone, "Tiles read, row 1", "red 5", "red 6", "red 7", timeout=60)
    green, spread = photo_drawn(phone)
    phone.shot("photo-01-review")
    assert green > 200 and spread > 15, (green, spread)  # the photo and its boxes are drawn
    # the player corrects the last tile: R7 was really B9
    press(phone, "Backspace")
    tiles(phone, "B9")
    shown(phone, "Tiles read, row 1", "blue 9")
    press(phone, "Use these tiles")
    shown(phone, "Bob: tiles left: red 5, red 6, blue 9")
    phone.shot("photo-02-filled")
    # §4: Ala empties the rack; Bob holds 5 + 6 + 9 = 20: Ala +20, Bob −20
    show_and_save(phone, 1, shot="photo-03-scores")
    assert totals(phone, ["Ala", "Bob"]) == {"Ala": "20", "Bob": "−20"}


def review_gone(phone: Phone) -> None:
    """Wait until the review dialog has closed (its closing animation)."""
    gone_by = time.monotonic() + 10
    while any("Tiles on the photo" in label for label in phone.labels()):
        assert time.monotonic() < gone_by, "the review stayed open"
        time.sleep(0.2)


def test_browser_back_closes_the_review_and_stays_on_the_entry(
    phone: Phone, tmp_path: Path
) -> None:
    # the new-user tester (session 10) pressed the browser's Back in the review: the app left
    # the round entry for the score sheet. Back now closes the review, as "Cancel" does: the
    # entry stays, at its address, with what was entered on it; the next Back leaves it.
    photo = tmp_path / "rack.jpg"
    photo.write_bytes(meld_jpeg(["R5", "R6", "R7"]))
    new_game(phone, "Tile Rummy", ["Ala", "Bob"])
    enter_round(phone, 1)
    entry_url = phone.page.url
    assert entry_url.rstrip("/").endswith("/round"), entry_url
    phone.chip("Ala")
    choose_photo(phone, photo)
    phone.dialog("Tiles on the photo", timeout=90_000)
    shown(phone, "Tiles read, row 1", "red 5", "red 6", "red 7", timeout=60)
    phone.page.go_back()  # the browser's Back (a phone's back gesture in its browser)
    review_gone(phone)
    time.sleep(1.0)  # a screen change would come now
    shown(phone, "started this round")
    assert phone.page.url == entry_url
    assert phone.role("checkbox", "Ala").first.get_attribute("aria-checked") == "true"
    assert not any("Enter round 1" in label for label in phone.labels())
    phone.shot("photo-12-back-closed-review")
    # the entry works on: a photo again, used this time
    choose_photo(phone, photo)
    phone.dialog("Tiles on the photo", timeout=90_000)
    shown(phone, "Tiles read, row 1", "red 5", "red 6", "red 7", timeout=60)
    press(phone, "Use these tiles")
    shown(phone, "Bob: tiles left: red 5, red 6, red 7")
    review_gone(phone)
    assert phone.page.url == entry_url
    # and the next Back leaves the entry for the score sheet, as before
    phone.page.go_back()
    phone.wait_text(re.compile("Enter round 1"))


def test_meld_checker_from_a_photo_and_a_file_that_is_no_picture(
    phone: Phone, tmp_path: Path
) -> None:
    phone.open("/check")
    not_secure(phone)
    press(phone, re.compile("^Check a meld"))
    shown(phone, "Tap a colour")
    # a text file given a picture's name: the player's message, nothing filled in
    notes = tmp_path / "notes.jpg"
    notes.write_text("my shopping list")
    choose_photo(phone, notes)
    shown(phone, "This file is not a picture")
    phone.shot("photo-04-not-a-picture")
    assert not any("Tiles on the photo" in label for label in phone.labels())
    # a photo bigger than one message may be (8 MB, app/guard.py): the server closes the
    # connection, the page connects again and says why nothing came
    big = tmp_path / "big.jpg"
    noise = np.random.default_rng(0).integers(0, 255, (2800, 3800, 3), dtype=np.uint8)
    big.write_bytes(cv2.imencode(".jpg", noise, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes())
    assert big.stat().st_size > 9 * 1024 * 1024
    choose_photo(phone, big)
    shown(phone, "too large to send (over 8 MB)", timeout=60)
    phone.shot("photo-05-too-large-to-send")
    # then a real photo of a run (the same session goes on): the verdict once confirmed
    photo = tmp_path / "run.jpg"
    photo.write_bytes(meld_jpeg(["B11", "B12", "B13"], seed=5))
    choose_photo(phone, photo)
    phone.dialog("Tiles on the photo", timeout=90_000)  # a photo is sent, then read
    shown(phone, "Tiles read, row 1", "blue 11", "blue 12", "blue 13", timeout=60)
    assert not any("Valid run" in label for label in phone.labels())  # nothing used yet
    green, spread = photo_drawn(phone)
    assert green > 200 and spread > 15, (green, spread)
    press(phone, "Use these tiles")
    shown(phone, "Valid run", "36 points")
    phone.shot("photo-06-meld-verdict")


DEV = Path(__file__).resolve().parents[3] / "shared" / "photos-dev"


@pytest.mark.skipif(not (DEV / "christophrus-1.jpg").is_file(), reason="no dev photos here")
def test_a_real_phone_photo_in_the_opening_checker_then_cancel(phone: Phone) -> None:
    # a 12-megapixel phone photo (3.4 MB, read from ../shared/photos-dev, never copied): it
    # gets through the connection, is read, drawn with its boxes, and Cancel uses nothing
    phone.open("/check")
    not_secure(phone)
    press(phone, re.compile("^Check an opening"))
    choose_photo(phone, DEV / "christophrus-1.jpg")
    phone.dialog("Tiles on the photo", timeout=90_000)  # a photo is sent, then read
    shown(phone, "Tiles read, meld 3", timeout=90)
    green, spread = photo_drawn(phone)
    phone.shot("photo-07-real-photo-review")
    assert green > 200 and spread > 15, (green, spread)
    press(phone, "Cancel")
    gone_by = time.monotonic() + 10  # the dialog's closing animation
    while any("Tiles on the photo" in label for label in phone.labels()):
        assert time.monotonic() < gone_by, "the review stayed open"
        time.sleep(0.2)
    labels = phone.labels()
    assert not any(re.search(r"meld 1: \w+ \d", label) for label in labels), labels
    phone.shot("photo-08-cancelled")


@pytest.mark.skipif(not (DEV / "christophrus-1.jpg").is_file(), reason="no dev photos here")
def test_meld_checker_asks_which_row_of_a_table_photo(phone: Phone) -> None:
    # the tester's photo of a whole table (18 tiles in 4 rows): the meld checker checks one
    # meld, so the review asks which row to check; the rows are never joined into one meld
    phone.open("/check/meld?variant=tile_rummy")
    not_secure(phone)
    choose_photo(phone, DEV / "christophrus-1.jpg")
    phone.dialog("Tiles on the photo", timeout=90_000)  # a photo is sent, then read
    shown(phone, "The photo shows 4 rows of tiles.", "choose the row to check", timeout=90)
    shown(phone, "Tiles read, row 2:")
    (row2,) = {
        label.split("\n")[0].strip()
        for label in phone.labels()
        if label.startswith("Tiles read, row 2:")
    }
    assert not any(label == "Use these tiles" for label in phone.labels())
    phone.shot("photo-09-table-rows")
    press(phone, "Check row 2")
    pieces = row2.split(":", 1)[1].strip()
    assert 1 < len(pieces.split(",")) < 18, row2
    tiles_read = [p.strip() for p in pieces.split(",")]
    verdict = shown(phone, "Meld:", timeout=30)
    phone.shot("photo-10-row-checked")
    # the verdict is on row 2 alone (a joker is named "joker as black 8" there)
    assert len(verdict.split(":", 1)[1].split(",")) == len(tiles_read), (verdict, row2)
    assert not any("Neither a run nor a group" in label for label in phone.labels())


# -- the review fits a phone (new-user tester, session 10): 390×844, in Polish ---------------------

TALL_PHONE = {"width": 390, "height": 844}
ROWS = [["R10", "R11", "R12", "R13"], ["K10", "K11", "K12"], ["Y10", "Y11", "Y12", "Y13"]]


def rows_jpeg(rows: list[list[str]], seed: int = 7) -> bytes:
    """A flat, upright photo of ``rows`` (one row of tiles under the other)."""
    from app.vision.render import render_scene

    sc = render_scene(
        seed,
        fonts=available(TEST_FONTS),
        size=(900, 900),
        tokens_rows=rows,
        rotation=0,
        perspective=0.0,
        tile_width=80,
    )
    ok, buf = cv2.imencode(".jpg", sc.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    return bytes(buf.tobytes())


@pytest.fixture
def polish(chromium: Any, server: Server) -> Iterator[Phone]:
    """A 390×844 phone whose browser prefers Polish (the app starts in Polish)."""
    context = chromium.new_context(viewport=TALL_PHONE, device_scale_factor=1, locale="pl-PL")
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield Phone(page, server.url)
    context.close()


def boxes(phone: Phone, names: list[str]) -> dict[str, dict[str, float]]:
    """The bounding box of the button named each of ``names`` (exactly), as drawn."""
    out = {}
    for name in names:
        loc = phone.role("button", name).last  # the dialog's, over the screen's own keys
        loc.wait_for(timeout=15_000)
        box = loc.bounding_box()
        assert box is not None, name
        out[name] = box
    return out


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"] - 0.5
        and b["x"] < a["x"] + a["width"] - 0.5
        and a["y"] < b["y"] + b["height"] - 0.5
        and b["y"] < a["y"] + a["height"] - 0.5
    )


def text_width(phone: Phone, text: str, size: int) -> float:
    """Width (px) of ``text`` in bold Roboto at ``size`` px: the font the app's web client draws
    with (its own copy, assets/fonts/roboto.woff2)."""
    width: float = phone.page.evaluate(
        """async ([text, size]) => {
             const face = new FontFace('RobotoApp', 'url(assets/fonts/roboto.woff2)');
             document.fonts.add(await face.load());
             const ctx = document.createElement('canvas').getContext('2d');
             ctx.font = `700 ${size}px RobotoApp`;
             return ctx.measureText(text).width;
           }""",
        [text, size],
    )
    return width


def test_the_review_keys_fit_a_phone_in_polish(polish: Phone, tmp_path: Path) -> None:
    # the tester's phone: the colour keys were cut ("czer…", "niebie…"), the 8–13 row sat
    # under "Anuluj" / "Użyj tych płytek", the photo was 262 px wide. Now every key is whole,
    # inside the screen, clear of the buttons and of the other keys, and the photo is wider;
    # with more rows than fit, the rows scroll and the keys stay put.
    from app.i18n import use_language
    from app.ui.common.keyboard import family_text_size
    from app.ui.common.pieces import family_name

    photo = tmp_path / "table.jpg"
    photo.write_bytes(rows_jpeg(ROWS))
    phone = polish
    phone.open("/check/opening?variant=tile_rummy")
    phone.wait_text("Sprawdź otwarcie")
    with phone.page.expect_file_chooser(timeout=20_000) as chooser:
        press(phone, "Ze zdjęcia")
    chooser.value.set_files(str(photo))
    phone.dialog("Płytki na zdjęciu", timeout=90_000)
    shown(phone, "Odczytane płytki, układ 3", timeout=90)
    phone.shot("photo-11-review-pl-390")
    with use_language("pl"):
        colours = [family_name(c, "tiles") for c in "RBKY"]
    numbers = [f"czerwony {n}" for n in range(1, 14)]
    keys = boxes(phone, [*colours, "joker", *numbers, "Cofnij", "Wyczyść"])
    actions = boxes(phone, ["Anuluj", "Użyj tych płytek"])
    field = phone.role("textbox", re.compile("^Odczytane płytki")).last.bounding_box()
    assert field is not None
    for name, box in keys.items():
        assert box["x"] >= 0 and box["x"] + box["width"] <= TALL_PHONE["width"], (name, box)
        assert box["y"] >= 0 and box["y"] + box["height"] <= TALL_PHONE["height"], (name, box)
        assert box["height"] >= 40, (name, box)  # a whole key, not a sliver
        near = [*actions.items(), *keys.items()]
        if name != "Wyczyść":  # beside the field (whose box reaches 2 px under it)
            near.append(("field", field))
        for other, obox in near:
            if other != name:
                assert not overlap(box, obox), (name, box, other, obox)
    for button, box in actions.items():  # the buttons are on the screen, under the keys
        assert box["y"] + box["height"] <= TALL_PHONE["height"], (button, box)
        assert box["y"] >= keys["czerwony 13"]["y"] + keys["czerwony 13"]["height"], button
    # each name fits its key inside a chosen key's 4 px frame (the chosen key reports only
    # the inside of its frame, the others their whole width)
    room = max(keys[c]["width"] for c in colours) - 8
    for name in colours:
        need = text_width(phone, name, family_text_size(name))
        assert room >= need, (name, keys[name], need)
    for lang in ("en", "sk"):  # the keys are as wide in every language: their names fit too
        with use_language(lang):
            names = [family_name(c, "tiles") for c in "RBKY"]
        for name in names:
            need = text_width(phone, name, family_text_size(name))
            assert room >= need, (lang, name, room, need)
    for n in numbers:  # a thumb's width at least
        assert keys[n]["width"] >= 40, (n, keys[n])
    photo_box = phone.page.locator(
        '[aria-label="Zdjęcie z ramką wokół każdej znalezionej płytki"]'
    ).first.bounding_box()
    assert photo_box is not None and photo_box["width"] >= 330, photo_box
    # the rows scroll under a fixed set of keys: wheel over the photo, the keys stay
    before = boxes(phone, ["czerwony 8"])["czerwony 8"]
    phone.page.mouse.move(TALL_PHONE["width"] / 2, photo_box["y"] + 40)
    phone.page.mouse.wheel(0, 400)
    time.sleep(0.6)
    assert boxes(phone, ["czerwony 8"])["czerwony 8"] == before
    after = phone.page.locator(
        '[aria-label="Zdjęcie z ramką wokół każdej znalezionej płytki"]'
    ).first.bounding_box()
    # scrolled up: gone, or only its lower part is left in view
    assert after is None or after["y"] + after["height"] < photo_box["y"] + photo_box["height"], (
        photo_box,
        after,
    )
    phone.shot("photo-12-review-pl-390-scrolled")
    press(phone, "Anuluj")
