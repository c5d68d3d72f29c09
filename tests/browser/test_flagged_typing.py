"""Typing into a field the referee flagged (new-user tester, session 12): the correction goes in
whole, key after key, and the score is the one typed."""

from __future__ import annotations

import re
import time

from tests.browser.conftest import Phone
from tests.browser.test_play import enter_round, new_game, nth_chip, totals


def focused(phone: Phone) -> list[str]:
    """The focused element's accessible name and value."""
    got: list[str] = phone.page.evaluate(
        "() => [document.activeElement?.getAttribute('aria-label') ?? '',"
        " document.activeElement?.value ?? '']"
    )
    return got


def type_keys(phone: Phone, name: str, text: str) -> None:
    """Tap the field ``name`` once, then type ``text`` key by key as a person does (no retry)."""
    box = phone.role("textbox", re.compile(rf"^{re.escape(name)}(\s|$)")).first
    phone.into_view(box)
    box.click()
    time.sleep(0.5)
    assert name in focused(phone)[0], focused(phone)
    for key in text:
        phone.page.keyboard.type(key)
        time.sleep(0.4)  # a person's pace: each key's change reaches the server


def test_a_correction_typed_into_a_flagged_points_field_goes_in_whole(phone: Phone) -> None:
    new_game(phone, "Rummy 101", ["Ala", "Ola"])
    enter_round(phone, 1)
    phone.chip("Ala")
    nth_chip(phone, "Melds", 0)
    phone.tap("Show the scores")  # Ola's points left empty: flagged
    phone.wait_text(re.compile("Please complete the marked fields"))
    type_keys(phone, "Ola: points left", "15")
    time.sleep(0.8)
    name, value = focused(phone)
    phone.shot("flagged-1-points-typed")
    assert value == "15" and "Ola: points left" in name, (name, value)
    phone.tap("Show the scores")
    phone.wait_text(re.compile("Save round 1"))
    phone.tap("Save round 1")
    phone.wait_text(re.compile("Enter round 2"))
    assert totals(phone, ["Ala", "Ola"]) == {"Ala": "101", "Ola": "−15"}


def test_a_correction_typed_into_a_flagged_hand_goes_in_whole(phone: Phone) -> None:
    new_game(phone, "Gin Rummy", ["Ala", "Bob"])
    enter_round(phone, 1)
    phone.chip("Ala knocked")
    phone.fill("Ala: hand", "AS 2S 3S 7H 7D 7C 9C 10C JC JK")
    phone.tap("Show the scores")
    phone.wait_text(re.compile("joker", re.I))
    box = phone.role("textbox", re.compile(r"^Ala: hand(\s|$)")).first
    phone.into_view(box)
    box.click()
    time.sleep(0.5)
    phone.page.keyboard.press("End")
    for _ in range(2):
        phone.page.keyboard.press("Backspace")
        time.sleep(0.4)
    for key in "4D":
        phone.page.keyboard.type(key)
        time.sleep(0.4)
    time.sleep(0.8)
    name, value = focused(phone)
    phone.shot("flagged-2-hand-typed")
    assert value.split() == ["AS", "2S", "3S", "7H", "7D", "7C", "9C", "10C", "JC", "4D"], (
        name,
        value,
    )


def test_typing_after_the_scores_were_shown_goes_in_whole(phone: Phone) -> None:
    # the breakdown shown goes away at the first key ("Save round" with it): the keys typed after
    # it still reach the field
    new_game(phone, "Rummy 101", ["Ala", "Ola"])
    enter_round(phone, 1)
    phone.chip("Ala")
    nth_chip(phone, "Melds", 0)
    phone.fill("Ola: points left", "1")
    phone.tap("Show the scores")
    phone.wait_text(re.compile("Save round 1"))
    time.sleep(0.5)
    assert phone.button("Show the scores").count() == 0  # folded away, not only drawn so
    box = phone.role("textbox", re.compile(r"^Ola: points left(\s|$)")).first
    phone.into_view(box)
    box.click()
    time.sleep(0.5)
    phone.page.keyboard.press("End")
    for key in "52":
        phone.page.keyboard.type(key)
        time.sleep(0.4)
    time.sleep(0.8)
    name, value = focused(phone)
    phone.shot("flagged-3-typed-after-the-scores")
    assert value == "152" and "Ola: points left" in name, (name, value)
    # the out-of-date round is folded away: nothing to save until checked again
    assert not any(label.startswith("Save round") for label in phone.labels()), phone.labels()
    assert phone.button("Show the scores").count() == 1
    phone.tap("Show the scores")
    phone.wait_text(re.compile("Save round 1"))
    phone.tap("Save round 1")
    phone.wait_text(re.compile("Enter round 2"))
    assert totals(phone, ["Ala", "Ola"]) == {"Ala": "101", "Ola": "−152"}
