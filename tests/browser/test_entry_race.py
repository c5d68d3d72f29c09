"""A tap right after another tap in round entry, in headless Chromium at 360×740: the second
tap lands where the finger is, on the keys the player sees, a fraction of a second before the
server's answer to the first tap reaches the screen. It must show in a hand, never vanish.

The taps are mouse clicks at a key's place on the screen, found before the first tap (a finger
does not look the key up again): a click through a locator would follow the key wherever it
moved. Screenshots: test-artifacts/screenshots/entry-race-*.png."""

from __future__ import annotations

import re
import time

import pytest

from tests.browser.conftest import Phone
from tests.browser.test_entry_pinned import hand_of, wait_for
from tests.browser.test_play import enter_round, new_game

pytestmark = pytest.mark.browser


def centre(
    phone: Phone, role: str, name: str | re.Pattern[str], scroll: bool = True
) -> tuple[float, float]:
    """Where the control is on the screen now (scrolled into view first unless not
    ``scroll``)."""
    loc = phone.role(role, name).first
    loc.wait_for(timeout=15_000)
    if scroll:
        phone.into_view(loc)
        time.sleep(0.4)
    box = loc.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_card_tapped_just_after_the_knocker_shows_in_a_hand(phone: Phone) -> None:
    new_game(phone, "Gin Rummy", ["Ala", "Bob"])
    enter_round(phone, 1)
    # the chips and the first hand's keys are on the screen together (360×740)
    chip = centre(phone, "checkbox", "Bob knocked")
    ace = centre(phone, "button", re.compile(r"^ace of spades(,|$)"))
    assert ace[1] < 740 - 80, ace  # the key is on the screen with the chip
    phone.shot("entry-race-01-before")
    phone.page.mouse.click(*chip)
    time.sleep(0.2)  # a player's next tap: the screen may already have the answer
    phone.page.mouse.click(*ace)

    def somewhere() -> bool:
        return "ace of spades" in hand_of(phone, "Ala") + hand_of(phone, "Bob")

    if not wait_for(somewhere):  # a tap the browser lost under load is tapped again
        phone.page.mouse.click(*ace)
        wait_for(somewhere)
    box = phone.role("checkbox", "Bob knocked").first
    assert box.get_attribute("aria-checked") == "true"
    # the card is in the hand above the keys that were tapped, and nowhere else
    assert hand_of(phone, "Ala") == "ace of spades", (hand_of(phone, "Ala"), phone.labels()[:8])
    assert hand_of(phone, "Bob") == ""
    phone.shot("entry-race-02-after")


def test_the_carousel_keys_stay_put_as_the_knockers_line_grows(phone: Phone) -> None:
    # the knocker's first card brings the line "1 card, value 10 · may not knock: deadwood 10
    # is over the limit 5" (two lines at 360 px) over the keys: they must not move down
    new_game(phone, "Carousel rummy", ["Ala", "Bob"])
    enter_round(phone, 1)
    chip = centre(phone, "checkbox", "Ala knocked")
    phone.page.mouse.click(*chip)
    wait_for(lambda: phone.role("checkbox", "Ala knocked").first.get_attribute("aria-checked"))
    king = centre(phone, "button", re.compile(r"^king of spades(,|$)"))
    queen = phone.role("button", re.compile(r"^queen of spades(,|$)")).first.bounding_box()
    assert queen is not None and king[1] < 740 - 80
    phone.shot("entry-race-03-carousel-before")
    phone.page.mouse.click(*king)
    time.sleep(0.2)
    # the finger on the queen's upper part, where it was before the first card went in
    phone.page.mouse.click(queen["x"] + queen["width"] / 2, queen["y"] + 8)
    both = "king of spades, queen of spades"
    if not wait_for(lambda: hand_of(phone, "Ala") == both):  # a tap lost by the browser
        if "king of spades" not in hand_of(phone, "Ala"):
            phone.page.mouse.click(*king)
            wait_for(lambda: "king of spades" in hand_of(phone, "Ala"))
        if "queen of spades" not in hand_of(phone, "Ala"):
            phone.page.mouse.click(queen["x"] + queen["width"] / 2, queen["y"] + 8)
            wait_for(lambda: hand_of(phone, "Ala") == both)
    assert hand_of(phone, "Ala") == both, phone.labels()[:10]
    assert hand_of(phone, "Bob") == ""
    after = phone.role("button", re.compile(r"^queen of spades(,|$)")).first.bounding_box()
    assert after is not None and after["y"] == queen["y"], (queen, after)
    assert any("may not knock" in label for label in phone.labels())
    phone.shot("entry-race-04-carousel-after")


def test_a_card_tapped_just_after_knocked_in_solo_is_the_one_aimed_at(phone: Phone) -> None:
    # solo (RULES.md §5): "Cards turned" is there before the tap of "knocked", not put in
    # above the keys by it
    phone.open("/")
    phone.tap("New game")
    phone.wait_text("Variant")
    phone.chip("Gin Rummy")
    phone.tap("Show all options")
    phone.chip("Solo")
    phone.fill("Player 1", "Ala")
    phone.tap("Start the game")
    phone.wait_text(re.compile("Enter round 1"))
    phone.tap(re.compile("^Enter round 1"))
    phone.wait_text("Ala against the joker.")
    chip = centre(phone, "checkbox", "Ala knocked")
    nine = centre(phone, "button", re.compile(r"^9 of spades(,|$)"), scroll=False)
    assert nine[1] < 740 - 30, nine  # on the screen with the chip
    phone.shot("entry-race-05-solo-before")
    phone.page.mouse.click(*chip)
    time.sleep(0.2)
    phone.page.mouse.click(*nine)
    if not wait_for(lambda: hand_of(phone, "Ala") != ""):  # a tap lost by the browser
        phone.page.mouse.click(*nine)
        wait_for(lambda: hand_of(phone, "Ala") != "")
    box = phone.role("checkbox", "Ala knocked").first
    assert box.get_attribute("aria-checked") == "true"
    assert hand_of(phone, "Ala") == "9 of spades", phone.labels()[:10]
    assert centre(phone, "button", re.compile(r"^9 of spades(,|$)"), scroll=False) == nine
    phone.shot("entry-race-06-solo-after")
