"""A refused "Show the scores" brings the first marked field into view (new-user tester,
session 10: "Please correct the marked fields." stood by the button while the field it meant
was scrolled off above). Rummy 101 of four at 360×740: Ola's points left typed "12a" (§3:
points are a number), the others filled in; after the refusal Ola's field is on the screen,
and typing the right number there works at once (the field keeps the focus while the message
goes). Screenshots: test-artifacts/screenshots/marked-*.png."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.browser.conftest import PHONE, Phone
from tests.browser.test_checkers import shown
from tests.browser.test_play import enter_round, new_game, nth_chip

pytestmark = pytest.mark.browser


def on_screen(phone: Phone, loc: Any, timeout: float = 15.0) -> dict[str, float]:
    """Wait until ``loc`` is drawn inside the screen, below the top bar; its box."""
    deadline = time.monotonic() + timeout
    box = None
    while time.monotonic() < deadline:
        box = loc.bounding_box()
        if box is not None and box["y"] >= 56 and box["y"] + box["height"] <= PHONE["height"]:
            return box
        time.sleep(0.2)
    raise AssertionError(f"not on the screen: {box}")


def test_a_refused_round_shows_the_marked_field(phone: Phone) -> None:
    new_game(phone, "Rummy 101", ["Ala", "Ola", "Ela", "Iza"])
    enter_round(phone, 1)
    # nobody picked as the one who finished, so Ala's card asks too (the first card, at the
    # top); Ola's points typed wrong; Ela and Iza not opened
    nth_chip(phone, "Melds", 1)
    phone.fill("Ola: points left", "12a")
    nth_chip(phone, "Not opened", 2)
    nth_chip(phone, "Not opened", 3)
    ala = phone.role("checkbox", "Not opened").first  # Ala's card: nothing answered there
    phone.tap("Show the scores")  # at the foot of the form
    shown(phone, "Please correct the marked fields.")
    box = on_screen(phone, ala)  # the first marked part (Ala's card) is back in view
    phone.shot("marked-01-field-in-view")
    assert box["y"] < PHONE["height"] - 80, box  # not where the snack bar sits
    # the player answers it and corrects Ola's number: typing works at once (the field keeps
    # the focus while the refusal goes); §3: Ala finishes, Ola melds with 12 left
    phone.chip("Ala")
    phone.fill("Ola: points left", "12")
    phone.tap_to("Show the scores", "Who gets what, and why")
    shown(phone, "Ola", "12")
    phone.shot("marked-02-corrected")
