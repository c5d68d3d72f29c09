"""Typing into a field the referee flagged (new-user tester, session 12): the correction goes in
whole, key after key, and the score is the one typed."""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from typing import Any

from tests.browser.conftest import Phone
from tests.browser.test_play import enter_round, new_game, nth_chip, show_and_save, totals


def focused(phone: Phone) -> list[str]:
    """The focused element's accessible name and value."""
    got: list[str] = phone.page.evaluate(
        "() => [document.activeElement?.getAttribute('aria-label') ?? '',"
        " document.activeElement?.value ?? '']"
    )
    return got


def settled(box: Any, timeout: float = 10.0) -> None:
    """Wait until ``box`` stops moving: a refused "Show the scores" scrolls the first marked
    field into view, and on a loaded machine that scroll can come after the test scrolled
    the field itself; a tap during it reached the browser's input but not the field drawn
    (CI, two runs side by side: "15" typed, the field drawn empty)."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        now = box.bounding_box()
        if now is not None and now == last:
            return
        last = now
        time.sleep(0.4)


KEYS = ("End", "Backspace")
"""Keys :func:`type_keys` presses by name (any other item is typed as text)."""


def type_keys(phone: Phone, name: str, keys: Iterable[str]) -> None:
    """Tap the field ``name`` once, then type ``keys`` one by one as a person does (no retry):
    characters, or the key names of :data:`KEYS` (``End`` moves to the end, no change)."""
    box = phone.role("textbox", re.compile(rf"^{re.escape(name)}(\s|$)")).first
    phone.into_view(box)
    settled(box)
    box.click()
    time.sleep(0.5)
    assert name in focused(phone)[0], focused(phone)
    for key in keys:
        if key in KEYS:
            phone.page.keyboard.press(key)
        else:
            phone.page.keyboard.type(key)
        if key != "End":
            time.sleep(0.4)  # a person's pace: each key's change reaches the server
    time.sleep(0.8)


def test_a_correction_typed_into_a_flagged_points_field_goes_in_whole(phone: Phone) -> None:
    new_game(phone, "Rummy 101", ["Ala", "Ola"])
    enter_round(phone, 1)
    phone.chip("Ala")
    nth_chip(phone, "Melds", 0)
    phone.tap("Show the scores")  # Ola's points left empty: flagged
    phone.wait_text(re.compile("Please complete the marked fields"))
    type_keys(phone, "Ola: points left", "15")
    name, value = focused(phone)
    phone.shot("flagged-1-points-typed")
    assert value == "15" and "Ola: points left" in name, (name, value)
    show_and_save(phone, 1)
    assert totals(phone, ["Ala", "Ola"]) == {"Ala": "101", "Ola": "−15"}


def test_a_correction_typed_into_a_flagged_hand_goes_in_whole(phone: Phone) -> None:
    new_game(phone, "Gin Rummy", ["Ala", "Bob"])
    enter_round(phone, 1)
    phone.chip("Ala knocked")
    phone.fill("Ala: hand", "AS 2S 3S 7H 7D 7C 9C 10C JC JK")
    phone.tap("Show the scores")
    phone.wait_text(re.compile("joker", re.I))
    type_keys(phone, "Ala: hand", ["End", "Backspace", "Backspace", "4", "D"])
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
    type_keys(phone, "Ola: points left", ["End", "5", "2"])
    name, value = focused(phone)
    phone.shot("flagged-3-typed-after-the-scores")
    assert value == "152" and "Ola: points left" in name, (name, value)
    # the out-of-date round is folded away: nothing to save until checked again
    assert not any(label.startswith("Save round") for label in phone.labels()), phone.labels()
    assert phone.button("Show the scores").count() == 1
    show_and_save(phone, 1)
    assert totals(phone, ["Ala", "Ola"]) == {"Ala": "101", "Ola": "−152"}
