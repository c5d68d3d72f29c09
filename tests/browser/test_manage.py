"""Managing a game in the browser: options, edit and delete a round, undo, export, the end of
a game with its bonuses, and the games list after a reload."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.browser.conftest import Phone, Server
from tests.browser.test_play import enter_round, new_game, nth_chip, show_and_save, totals

pytestmark = pytest.mark.browser


def test_options_edit_delete_undo_export(phone: Phone) -> None:
    phone.open("/new")
    phone.chip("Gin Rummy")
    phone.chip("Modern")
    phone.tap("Show all options")
    phone.fill("Knock with at most (points)", "8")
    phone.shot("14-new-game-options")
    phone.fill("Player 1", "Ala")
    phone.fill("Player 2", "Bob")
    phone.tap("Start the game")
    phone.wait_text(re.compile("Enter round 1"))
    phone.wait_text(re.compile("Knock with at most \\(points\\): 8"))
    # two rounds with typed deadwood (§5 modern: knock 8 max here)
    for n, (knocker, a, b) in enumerate([("Ala", "5", "25"), ("Bob", "30", "2")], 1):
        enter_round(phone, n)
        phone.chip(f"{knocker} knocked")
        phone.chip("Deadwood only")
        phone.fill("Ala: deadwood", a)
        phone.fill("Bob: deadwood", b)
        show_and_save(phone, n)
    assert totals(phone, ["Ala", "Bob"]) == {"Ala": "20", "Bob": "28"}
    # open round 1, edit it: Bob had 35, not 25 → Ala 30
    phone.tap(re.compile("^Round 1: "))
    phone.wait_text("Edit round 1")
    phone.shot("15-round-detail")
    phone.tap("Edit round 1")
    phone.fill("Bob: deadwood", "35")
    phone.tap("Show the scores")
    phone.wait_text("Who gets what, and why")
    time.sleep(0.6)
    phone.tap("Save the changes")
    phone.wait_text(re.compile("Enter round 3"))
    assert totals(phone, ["Ala", "Bob"]) == {"Ala": "30", "Bob": "28"}
    # delete round 2, then undo the deletion
    phone.tap(re.compile("^Round 2: "))
    phone.tap("Delete round 2")
    phone.dialog("Delete round 2?")
    phone.shot("16-confirm-delete")
    phone.tap("Delete")
    phone.wait_text(re.compile("Enter round 2"))
    assert totals(phone, ["Ala", "Bob"]) == {"Ala": "30", "Bob": "0"}
    phone.tap("Undo last change")
    phone.dialog("Undo the last change?")
    phone.tap("Undo")
    phone.wait_text(re.compile("Enter round 3"))
    assert totals(phone, ["Ala", "Bob"]) == {"Ala": "30", "Bob": "28"}
    phone.reload()
    assert totals(phone, ["Ala", "Bob"]) == {"Ala": "30", "Bob": "28"}
    # export shows the score sheet as CSV text
    phone.tap("Export this game")
    phone.dialog("Export the game")
    box = phone.page.get_by_role("textbox", name=re.compile("^Exported text"))
    box.first.wait_for(state="attached")
    box.first.click()  # a Flutter field shows its text to the DOM while focused
    time.sleep(0.3)
    assert box.first.input_value().startswith("round,dealer,Ala,Bob")
    phone.shot("17-export")
    phone.tap("Close")


def test_game_over_shows_winner_and_bonuses(phone: Phone) -> None:
    new_game(phone, "Gin Rummy", ["Ewa", "Jan"])
    for n in (1, 2):
        enter_round(phone, n)
        phone.chip("Ewa knocked")
        phone.chip("Deadwood only")
        phone.fill("Ewa: deadwood", "0")
        phone.chip("Gin")
        phone.fill("Jan: deadwood", "30")
        show_and_save(phone, n)
    # §5 seed: 2 × (25 + 30) = 110; +100 game, 2 × 25 boxes, +100 shutout = 360
    phone.wait_text(re.compile("Ewa wins!"))
    assert totals(phone, ["Ewa", "Jan"]) == {"Ewa": "360", "Jan": "0"}
    assert phone.page.get_by_role("button", name=re.compile("^Enter round")).count() == 0
    phone.shot("18-game-over")
    phone.open("/")  # typing the address: the page's route follows the browser (app/guard.py)
    phone.wait_text("History")
    assert phone.button(re.compile("^Open Gin Rummy: Ewa, Jan")).count() == 1


def test_a_long_rummy101_sheet(phone: Phone) -> None:
    new_game(phone, "Rummy 101", ["Ala", "Ola", "Ela", "Iza"])
    rests = {"Ola": "12", "Ela": "30", "Iza": "7"}
    for n in range(1, 5):
        enter_round(phone, n)
        players = ["Ala", "Ola", "Ela", "Iza"]
        winner = players[n % 4]
        phone.chip(winner)
        others = [p for p in players if p != winner]
        for i, p in enumerate(others):
            nth_chip(phone, "Melds", i)
            phone.fill(f"{p}: points left", rests.get(p, "9"))
        show_and_save(phone, n)
    phone.page.mouse.wheel(0, 500)
    phone.shot("19-score-sheet-4-rounds")


def test_wide_screen_layout(chromium: Any, server: Server) -> None:
    """On a laptop the content stays a readable column in the middle."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    try:
        wide = Phone(context.new_page(), server.url)
        new_game(wide, "Carousel rummy", ["Ala", "Bob", "Cel", "Dan", "Eva"])
        enter_round(wide, 1)
        wide.chip("Dan knocked")
        for name, hand in {
            "Ala": "KD",
            "Bob": "9S 9H",
            "Cel": "JK",
            "Dan": "2S 3C",
            "Eva": "4D",
        }.items():
            wide.fill(f"{name}: hand", hand)
        show_and_save(wide, 1)
        wide.shot("20-wide-score-sheet")
        box = wide.page.get_by_role("button", name="Enter round 2", exact=True).bounding_box()
        assert box is not None and box["x"] > 200 and box["width"] < 900
    finally:
        context.close()
