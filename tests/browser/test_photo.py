""" "From a photo" in round entry, in headless Chromium: upload a rendered photo of a rack, fix
one tile in the review, confirm, and the points appear on the score sheet."""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import pytest

from app.vision.render import TEST_FONTS, available, render_scene
from tests.browser.conftest import Phone
from tests.browser.test_checkers import press, shown, tiles
from tests.browser.test_play import enter_round, new_game, show_and_save, totals

pytestmark = pytest.mark.browser


def test_round_entry_from_a_photo(phone: Phone, tmp_path: Path) -> None:
    if not available(TEST_FONTS):
        pytest.skip("test fonts not installed")
    sc = render_scene(
        11,
        fonts=available(TEST_FONTS),
        size=(900, 700),
        tokens_rows=[["R5", "R6", "R7"]],
        rotation=0,
        perspective=0.0,
        tile_width=90,
    )
    photo = tmp_path / "rack.jpg"
    cv2.imwrite(str(photo), sc.image)
    new_game(phone, "Tile Rummy", ["Ala", "Bob"])
    enter_round(phone, 1)
    phone.chip("Ala")
    with phone.page.expect_file_chooser(timeout=20_000) as chooser:
        press(phone, "From a photo")
    chooser.value.set_files(str(photo))
    phone.dialog("Tiles on the photo")
    shown(phone, "Tiles read, meld 1", "red 5", "red 6", "red 7", timeout=60)
    phone.shot("photo-01-review")
    # the player corrects the last tile: R7 was really B9
    press(phone, "Backspace")
    tiles(phone, "B9")
    shown(phone, "Tiles read, meld 1", "blue 9")
    press(phone, "Use these tiles")
    time.sleep(0.8)  # the dialog closes; "Bob: tiles left" now reads R5 R6 B9
    phone.shot("photo-02-filled")
    # §4: Ala empties the rack; Bob holds 5 + 6 + 9 = 20: Ala +20, Bob −20
    show_and_save(phone, 1)
    assert totals(phone, ["Ala", "Bob"]) == {"Ala": "20", "Bob": "−20"}
