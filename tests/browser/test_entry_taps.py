"""Taps per round at the table (issue 10, point 1 and "Tests and figures"), in headless Chromium
at 360×740: the gin knock round (both hands tapped on the card keys, ≤ 25 taps) and a
Rummy 101 round of 4 players. Every click is a tap, every typed character a tap (tapping a text
box too). The counts go to test-artifacts/taps.json, which ``benchmarks/bench_app.py --taps``
prints. Screenshots: test-artifacts/screenshots/entry-taps-*.png.

Totals worked out by hand from RULES.md (section named at each)."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from tests.browser.conftest import SHOTS, Phone
from tests.browser.test_play import enter_round, new_game, nth_chip, totals

pytestmark = pytest.mark.browser

TAPS_FILE = SHOTS.parent / "taps.json"

ALA = ["ace of spades", "2 of spades", "3 of spades", "7 of hearts", "7 of diamonds"]
ALA += ["7 of clubs", "9 of clubs", "10 of clubs", "jack of clubs", "4 of diamonds"]
BOB = ["king of spades", "king of hearts", "king of diamonds", "8 of hearts", "9 of hearts"]
BOB += ["2 of diamonds", "3 of clubs", "6 of clubs", "5 of hearts", "queen of clubs"]


class Counter:
    """Taps on one phone."""

    def __init__(self, phone: Phone) -> None:
        self.phone = phone
        self.taps = 0

    def key(self, name: str) -> None:
        """Tap the key named ``name`` (its name may go on: "ace of spades, 1 left")."""
        loc = self.phone.role("button", re.compile(rf"^{re.escape(name)}(,|$)")).first
        loc.wait_for(timeout=15_000)
        self.phone.into_view(loc)
        loc.click()
        self.taps += 1
        time.sleep(0.2)

    def button(self, name: str | re.Pattern[str]) -> None:
        self.phone.tap(name)
        self.taps += 1

    def chip(self, name: str, i: int = 0) -> None:
        """Tap a choice chip; a tap lost while the screen was still laying itself out (the
        harness clicking faster than a person) is repeated, not counted."""
        for _attempt in range(3):
            nth_chip(self.phone, name, i)
            time.sleep(0.3)
            box = self.phone.role("checkbox", name).nth(i)
            if box.get_attribute("aria-checked") == "true":
                break
        self.taps += 1

    def type(self, field: str, text: str) -> None:
        self.phone.fill(field, text)
        self.taps += 1 + len(text)


def record(name: str, taps: int) -> None:
    TAPS_FILE.parent.mkdir(parents=True, exist_ok=True)
    got: dict[str, Any] = json.loads(TAPS_FILE.read_text()) if TAPS_FILE.exists() else {}
    got[name] = taps
    TAPS_FILE.write_text(json.dumps(got, indent=1))


def test_gin_knock_round_in_at_most_25_taps(phone: Phone) -> None:
    new_game(phone, "Gin Rummy", ["Ala", "Bob"])
    enter_round(phone, 1)
    t = Counter(phone)
    t.chip("Ala knocked")
    phone.shot("entry-taps-01-gin-keys")
    for card in ALA:
        t.key(card)
    # the tenth card handed the keys to Bob; Ala's cards are marked taken there
    phone.role("button", "ace of spades, none left").first.wait_for(timeout=10_000)
    t.key(BOB[0])
    phone.shot("entry-taps-02-gin-second-hand")
    for card in BOB[1:]:
        t.key(card)
    t.button("Show the scores")
    phone.wait_text("Who gets what, and why")
    time.sleep(0.6)
    phone.shot("entry-taps-03-gin-breakdown")
    t.button(re.compile("^Save round 1"))
    phone.wait_text(re.compile("Enter round 2"))
    # RULES.md §5: Ala knocks with 4 (4♦); Bob 43, Q♣ laid off onto 9-10-J♣: 33 → Ala 29
    assert totals(phone, ["Ala", "Bob"]) == {"Ala": "29", "Bob": "0"}
    record("gin_knock_round", t.taps)
    assert t.taps <= 25, t.taps


def test_rummy101_round_of_four_players_taps(phone: Phone) -> None:
    new_game(phone, "Rummy 101", ["Ewa", "Jan", "Ola", "Iza"])
    enter_round(phone, 1)
    t = Counter(phone)
    t.chip("Ewa")  # finished, normally (the default)
    t.chip("Melds", 0)  # Jan: 12 points left, typed
    t.type("Jan: points left", "12")
    t.chip("Pairs", 1)  # Ola: her tiles tapped, red 5 and a joker
    t.chip("Tiles", 1)
    t.key("red 5")
    t.key("joker")
    phone.shot("entry-taps-04-rummy101-tiles")
    t.chip("Not opened", 2)  # Iza
    t.button("Show the scores")
    phone.wait_text("Who gets what, and why")
    time.sleep(0.6)
    t.button(re.compile("^Save round 1"))
    phone.wait_text(re.compile("Enter round 2"))
    # RULES.md §3: Ewa +101; Jan melds −12; Ola pairs: (5 + 101 for the joker) × 2 = −212;
    # Iza not opened −202
    assert totals(phone, ["Ewa", "Jan", "Ola", "Iza"]) == {
        "Ewa": "101",
        "Jan": "\u221212",
        "Ola": "\u2212212",
        "Iza": "\u2212202",
    }
    record("rummy101_round_4_players", t.taps)


def test_gin_solo_round_against_the_joker(phone: Phone) -> None:
    phone.open("/")
    phone.tap("New game")
    phone.wait_text("Variant")
    phone.chip("Gin Rummy")
    phone.tap("Show all options")
    phone.chip("Solo")
    time.sleep(0.4)
    assert phone.role("textbox", re.compile("^Player 2")).count() == 0  # one name: the joker
    phone.fill("Player 1", "Ala")
    phone.shot("entry-taps-05-solo-new-game")
    phone.tap("Start the game")
    phone.wait_text(re.compile("Enter round 1"))
    phone.tap(re.compile("^Enter round 1"))
    phone.wait_text("Ala against the joker.")
    t = Counter(phone)
    t.chip("Ala knocked")
    t.type("Cards turned, the stopping joker included", "7")
    for card in ALA:
        t.key(card)
    t.button("Show the scores")
    phone.wait_text("Who gets what, and why")
    time.sleep(0.6)
    phone.shot("entry-taps-06-solo-breakdown")
    t.button(re.compile("^Save round 1"))
    phone.wait_text(re.compile("Enter round 2"))
    # RULES.md §5 solo mode: a knock scores the 7 cards turned to Ala, her deadwood 4 (4♦) to
    # the joker
    assert totals(phone, ["Ala", "joker"]) == {"Ala": "7", "joker": "4"}
    record("gin_solo_round", t.taps)
