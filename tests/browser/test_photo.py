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
