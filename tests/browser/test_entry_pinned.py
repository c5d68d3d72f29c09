"""The round entry's one set of card keys stays put, in headless Chromium at 360×740: a tap
lands where a key *was* a moment before (a finger does not look the key up again), after each
of the three things that used to move the keys:

(a) a full hand (the 10th gin card) hands the keys to the next hand;
(b) another player's hand is tapped to enter it;
(c) a refused tap (a card already in the other hand) puts a line up.

The taps are mouse clicks at a key's place on the screen, found before the move; each must
land in the hand being entered. Also: the browser helpers scroll a text box behind the keys up
above them before tapping it. Screenshots: test-artifacts/screenshots/entry-pinned-*.png."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from app import games
from app.store import Store
from tests.browser.conftest import PHONE, Phone, Server
from tests.browser.test_play import enter_round, new_game

pytestmark = pytest.mark.browser

PAD_ID = "pinned-keys"
"""The pinned keys' semantics identifier (app.ui.common.keyboard.PAD_ID; written out so this
module also runs against a tree without them: each test then fails at its taps)."""

# melds A-2-3♠, 7-7-7, 9-10-J♣; deadwood 4♦ (RULES.md §5)
ALA = ["ace of spades", "2 of spades", "3 of spades", "7 of hearts", "7 of diamonds"]
ALA += ["7 of clubs", "9 of clubs", "10 of clubs", "jack of clubs", "4 of diamonds"]


def hand_of(phone: Phone, name: str) -> str:
    """What ``name``'s hand holds, as its drawn cards are named ("ace of spades"), or ""."""
    prefix = f"{name}: hand: "
    for label in phone.labels():
        first = label.split("\n")[0]
        if first.startswith(prefix):
            held = first[len(prefix) :]
            return "" if held.startswith("none yet") else held
    return ""


def wait_for(check: Any, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.2)
    return False


def key(phone: Phone, name: str) -> Any:
    """The key named ``name`` ("king of spades", its name may go on: ", 1 left")."""
    loc = phone.role("button", re.compile(rf"^{re.escape(name)}(,|$)")).first
    loc.wait_for(timeout=15_000)
    return loc


def keys_top(phone: Phone) -> float:
    """Where the part of the screen that does not scroll begins (:meth:`Phone.keys_top`)."""
    return phone.keys_top()


def on_screen(phone: Phone, loc: Any, pinned: bool = False) -> None:
    """Scroll the form (the mouse wheel over its scrolling part) until ``loc`` is on the
    screen: above the pinned keys, or among them (``pinned``: one of the keys, which do not
    scroll; where there are none, the keys are in the scrolling part)."""
    for _ in range(10):
        box = loc.bounding_box()
        assert box is not None
        limit = keys_top(phone)
        if box["y"] >= 70 and box["y"] + box["height"] <= limit:
            return
        if pinned and box["y"] >= limit and box["y"] + box["height"] <= PHONE["height"]:
            return
        phone.page.mouse.move(PHONE["width"] / 2, 120)
        phone.page.mouse.wheel(0, box["y"] + box["height"] / 2 - (70 + limit) / 2)
        time.sleep(0.5)
    raise AssertionError("could not bring the control onto the screen")


def place(phone: Phone, loc: Any) -> tuple[float, float]:
    """A point on the key's upper part: moved down by a line above it, the finger misses."""
    box = loc.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    return box["x"] + box["width"] / 2, box["y"] + 10


def tap_at(phone: Phone, where: tuple[float, float], held: Any, tries: int = 2) -> None:
    """Click at ``where`` until ``held()`` is true: a tap the browser lost under load is
    tapped again (at the same place: a tap that landed elsewhere stays wrong)."""
    for _ in range(tries):
        phone.page.mouse.click(*where)
        if wait_for(held, timeout=8.0):
            return


def start(phone: Phone) -> None:
    new_game(phone, "Gin Rummy", ["Ala", "Bob"])
    enter_round(phone, 1)
    phone.chip("Ala knocked")
    time.sleep(0.5)


def test_a_card_tapped_just_after_a_full_hand_goes_to_the_next_hand(phone: Phone) -> None:
    start(phone)
    on_screen(phone, key(phone, "queen of clubs"), pinned=True)  # the last row of keys …
    on_screen(phone, key(phone, "ace of spades"), pinned=True)  # … and the first, together
    places = {name: place(phone, key(phone, name)) for name in [*ALA, "king of spades"]}
    for i, name in enumerate(ALA[:-1]):
        tap_at(phone, places[name], lambda n=i + 1: len(hand_of(phone, "Ala").split(", ")) >= n)
    phone.shot("entry-pinned-01-nine-cards")
    phone.page.mouse.click(*places[ALA[-1]])  # the tenth card: the next hand gets the keys
    time.sleep(0.2)  # the next tap, before the screen has the answer, or just after it
    phone.page.mouse.click(*places["king of spades"])
    if not wait_for(lambda: "king of spades" in hand_of(phone, "Bob")):
        if len(hand_of(phone, "Ala").split(", ")) < 10:  # the tenth tap was lost
            tap_at(phone, places[ALA[-1]], lambda: len(hand_of(phone, "Ala").split(", ")) == 10)
        tap_at(phone, places["king of spades"], lambda: "king of spades" in hand_of(phone, "Bob"))
    phone.shot("entry-pinned-02-king-in-the-next-hand")
    assert hand_of(phone, "Ala") == ", ".join(ALA), phone.labels()[:12]
    assert hand_of(phone, "Bob") == "king of spades", phone.labels()[:12]


def test_a_card_tapped_just_after_another_hand_is_chosen_goes_there(phone: Phone) -> None:
    start(phone)
    tap_at(phone, place(phone, key(phone, "ace of spades")), lambda: hand_of(phone, "Ala") != "")
    bob = phone.role("button", re.compile("^Bob: hand: none yet")).first
    bob.wait_for(timeout=15_000)
    on_screen(phone, bob)
    queen = key(phone, "queen of clubs")
    on_screen(phone, queen, pinned=True)
    on_screen(phone, bob)
    row, at = place(phone, bob), place(phone, queen)
    phone.shot("entry-pinned-03-before-choosing-bob")
    phone.page.mouse.click(*row)  # Bob's hand chosen …
    time.sleep(0.2)
    phone.page.mouse.click(*at)  # … and, at once, where the queen of clubs was
    landed = wait_for(lambda: "queen of clubs" in hand_of(phone, "Bob"))
    if not landed and hand_of(phone, "Ala") + hand_of(phone, "Bob") == "ace of spades":
        tap_at(phone, at, lambda: "queen of clubs" in hand_of(phone, "Bob"))  # a lost tap
    phone.shot("entry-pinned-04-queen-in-bobs-hand")
    assert hand_of(phone, "Bob") == "queen of clubs", phone.labels()[:12]
    assert hand_of(phone, "Ala") == "ace of spades", phone.labels()[:12]


def test_a_card_tapped_just_after_a_refused_one_is_the_one_aimed_at(phone: Phone) -> None:
    start(phone)
    tap_at(phone, place(phone, key(phone, "ace of spades")), lambda: hand_of(phone, "Ala") != "")
    bob = phone.role("button", re.compile("^Bob: hand: none yet")).first
    bob.wait_for(timeout=15_000)
    on_screen(phone, bob)
    bob.click()  # Bob's hand is entered now
    phone.role("button", "ace of spades, none left").first.wait_for(timeout=10_000)
    time.sleep(0.5)
    ace, king = key(phone, "ace of spades"), key(phone, "king of spades")
    on_screen(phone, king, pinned=True)
    on_screen(phone, ace, pinned=True)
    first, then = place(phone, ace), place(phone, king)
    phone.shot("entry-pinned-05-bob-chosen")
    phone.page.mouse.click(*first)  # the ace is in Ala's hand: refused, a line says why
    time.sleep(0.2)
    phone.page.mouse.click(*then)
    if not wait_for(lambda: hand_of(phone, "Bob") != ""):  # a tap the browser lost
        tap_at(phone, then, lambda: hand_of(phone, "Bob") != "")
    phone.shot("entry-pinned-06-refused-then-king")
    assert hand_of(phone, "Bob") == "king of spades", phone.labels()[:12]
    assert hand_of(phone, "Ala") == "ace of spades", phone.labels()[:12]
    phone.page.mouse.click(*first)  # the refusal, in the hand's place above the keys
    phone.wait_text(re.compile("a 52-card deck holds only 1"))
    assert place(phone, key(phone, "king of spades")) == then
    phone.shot("entry-pinned-07-refusal-line")


LONG = "Zofia Babcia Kowalska-Wiśniewska Ździebł"  # 40 characters


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, str]]]:
    """A gin game (Ala and a 40-character name) and a Rummy 101 game of three, no rounds."""
    data = tmp_path_factory.mktemp("pinned") / "games.json"
    store = Store(data)
    ids = {
        "gin": store.create_game(games.new_game("gin", [LONG, "Ala"])).id,
        "rummy101": store.create_game(games.new_game("rummy101", ["Ala", "Ola", "Ela"])).id,
    }
    store.close()
    server = Server(data).start()
    yield server, ids
    server.stop()


@pytest.mark.parametrize("locale", ["en-GB", "pl-PL", "sk-SK"])
def test_the_pinned_keys_at_360px_and_wide(
    chromium: Any, seeded: tuple[Server, dict[str, str]], locale: str
) -> None:
    server, ids = seeded
    lang = locale[:2]
    sizes = [("phone", PHONE)] + (
        [("wide", {"width": 1280, "height": 800})] if lang == "en" else []
    )
    for size, viewport in sizes:
        context = chromium.new_context(viewport=viewport, device_scale_factor=1, locale=locale)
        page = context.new_page()
        page.set_default_timeout(20_000)
        phone = Phone(page, server.url)
        try:
            phone.open(f"/game/{ids['gin']}/round")
            pad = page.locator(f'[flt-semantics-identifier="{PAD_ID}"]').first
            pad.wait_for(timeout=20_000)
            time.sleep(0.5)
            box = pad.bounding_box()
            assert box is not None
            # the keys end at the screen's bottom, whatever the width
            assert abs(box["y"] + box["height"] - viewport["height"]) < 12, box
            phone.shot(f"entry-pinned-10-{lang}-{size}-empty")
            # the bottom-left key (8 of clubs), then the one above it (the ace of clubs)
            x = box["x"] + 24
            for y in (box["y"] + box["height"] - 24, box["y"] + box["height"] - 70):
                page.mouse.click(x, y)
                time.sleep(0.6)
            two = {"en": "2 cards", "pl": "2 karty", "sk": "2 karty"}[lang]
            assert wait_for(lambda p=phone, t=two: t in " ".join(p.labels())), phone.labels()
            phone.shot(f"entry-pinned-11-{lang}-{size}-two-cards")
            after = pad.bounding_box()
            assert after == box, (box, after)  # two cards in: the keys did not move
        finally:
            context.close()


def test_a_field_behind_the_pinned_keys_is_scrolled_above_them_before_a_tap(phone: Phone) -> None:
    """The browser helpers (Phone.into_view) bring a control into the part above the keys: a
    text box scrolled behind them still reports a place on the screen, and a click there
    landed on a key (Tile Rummy: the blue 3), then on the "Bob" chip, so Bob "won"."""
    new_game(phone, "Tile Rummy", ["Ala", "Bob"])
    enter_round(phone, 1)
    phone.chip("Ala")
    tiles = phone.role("checkbox", "Tiles").first  # Bob's rack as tiles: the keys come up
    phone.into_view(tiles)
    tiles.click()
    phone.page.locator(f'[flt-semantics-identifier="{PAD_ID}"]').first.wait_for(timeout=15_000)
    time.sleep(0.5)
    field = phone.role("textbox", re.compile(r"^Bob: tiles left")).first
    box = field.bounding_box()
    assert box is not None and box["y"] + box["height"] > keys_top(phone), box  # behind them
    phone.into_view(field)
    box = field.bounding_box()
    assert box is not None and box["y"] >= 70 and box["y"] + box["height"] <= keys_top(phone)
    phone.fill("Bob: tiles left", "R5 JK")
    phone.shot("entry-pinned-12-tiles-typed")
    assert phone.role("checkbox", "Ala").first.get_attribute("aria-checked") == "true"
    assert phone.role("checkbox", "Bob").first.get_attribute("aria-checked") == "false"
