"""The browser's Back after saving a round, with the export dialog open (session 9, a new
user's findings): the dialog closes with its screen, and Back from the sheet never opens an
empty form for the next round."""

from __future__ import annotations

import re
import time

import pytest

from tests.browser.conftest import Phone
from tests.browser.test_play import enter_round, new_game, show_and_save

pytestmark = pytest.mark.browser


def wait_url(phone: Phone, ending: str, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while not phone.page.url.rstrip("/").endswith(ending):
        assert time.monotonic() < deadline, phone.page.url
        time.sleep(0.1)


def test_back_from_the_sheet_after_a_save_with_the_export_open(phone: Phone) -> None:
    new_game(phone, "Gin Rummy", ["Ala", "Bob"])
    phone.wait_text(re.compile("Enter round 1"))
    gid = phone.page.url.rstrip("/").rsplit("/", 1)[-1]
    phone.open("/")  # from the games list, as a player comes back to a game
    phone.tap_to(re.compile("^Resume Gin Rummy: Ala, Bob"), re.compile("Enter round 1"))
    enter_round(phone, 1)
    phone.chip("Ala knocked")
    phone.chip("Deadwood only")
    phone.fill("Ala: deadwood", "5")
    phone.fill("Bob: deadwood", "25")
    show_and_save(phone, 1)
    wait_url(phone, f"/game/{gid}")
    phone.tap("Export this game")
    phone.dialog("Export the game")
    phone.page.go_back()  # the browser's Back, the dialog still open
    wait_url(phone, f"/game/{gid}/round")
    phone.page.get_by_text("Export the game").first.wait_for(state="detached", timeout=15_000)
    # the sheet, round 1 in it: not an empty form for round 2
    phone.wait_text(re.compile("Enter round 2"))
    time.sleep(1.5)
    assert phone.page.get_by_role("button", name="Show the scores").count() == 0
    assert phone.page.get_by_text(re.compile("(started|dealt) this round")).count() == 0
    phone.shot("nav9-back-after-save")
    phone.page.go_back()
    wait_url(phone, f"/game/{gid}")
    phone.wait_text(re.compile("Enter round 2"))
    phone.page.go_back()  # where the sheet was opened from: the games list
    wait_url(phone, phone.url.rstrip("/"))
    phone.button(re.compile("^Resume Gin Rummy: Ala, Bob")).wait_for(timeout=15_000)
    # the sheet's own button still opens round 2's form
    phone.tap_to(re.compile("^Resume Gin Rummy: Ala, Bob"), re.compile("Enter round 2"))
    enter_round(phone, 2)
    assert phone.button("Show the scores").count() == 1
