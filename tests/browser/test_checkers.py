"""The referee in the browser: build melds with the tile/card keyboard for every variant in
headless Chromium at 360×740 and read the verdict on screen; one turn per joker level; an
opening, a gin hand from a game's score sheet. Screenshots go to
test-artifacts/screenshots/checkers-*.png.

Expected verdicts are worked out by hand from RULES.md (the section is named at each one).
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.browser.conftest import PHONE, Phone
from tests.browser.test_play import new_game

pytestmark = pytest.mark.browser


def shown(phone: Phone, *words: str, timeout: float = 15.0) -> str:
    """Wait until one accessible label/text on screen holds every one of ``words``; return
    it."""
    deadline = time.monotonic() + timeout
    labels: list[str] = []
    while time.monotonic() < deadline:
        labels = phone.labels()
        for label in labels:
            if all(w in label for w in words):
                return label
        time.sleep(0.15)
    raise AssertionError(f"{words} not on screen: {labels[-5:]}")


def reach(phone: Phone, loc: Any) -> Any:
    """Scroll the Flutter view with the mouse wheel until ``loc`` is on screen (a click on an
    element below the fold scrolls the accessibility tree but not what Flutter draws)."""
    loc.wait_for(timeout=15_000)
    for _ in range(30):
        box = loc.bounding_box()
        if box is None:
            break
        top, bottom = box["y"], box["y"] + box["height"]
        if top >= 64 and bottom <= PHONE["height"] - 8:
            break
        phone.page.mouse.move(PHONE["width"] / 2, PHONE["height"] / 2)
        delta = top - PHONE["height"] / 2 if top > 64 else top - 200
        phone.page.mouse.wheel(0, max(-600, min(600, delta)))
        time.sleep(0.3)
    return loc


def press(phone: Phone, name: str | re.Pattern[str], role: str = "button") -> None:
    """Tap the control named ``name`` after scrolling it into view."""
    loc = reach(phone, phone.role(role, name).first)
    loc.click()
    time.sleep(0.25)


def type_in(phone: Phone, name: str, text: str) -> None:
    """Type into the text box ``name`` after scrolling it into view."""
    reach(phone, phone.role("textbox", re.compile(rf"^{re.escape(name)}(\s|$)")).first)
    phone.fill(name, text)


def absent(phone: Phone, word: str) -> bool:
    return not any(word in label for label in phone.labels())


def family(phone: Phone, name: str, first_key: str) -> None:
    """Tap the colour/suit key ``name`` until the number keys say so (a tap that lands while
    the keyboard is still being laid out can be lost)."""
    for _attempt in range(4):
        press(phone, name)
        try:
            phone.role("button", first_key).first.wait_for(timeout=2_000)
            return
        except Exception:  # noqa: BLE001 - not yet: tap again
            time.sleep(0.3)
    raise AssertionError(f"the {name} key did not take")


def tiles(phone: Phone, *pieces: str) -> None:
    """Tap tiles in: the colour key when it changes, then the number (or the joker key)."""
    colours = {"R": "red", "B": "blue", "K": "black", "Y": "yellow"}
    current = None
    for p in pieces:
        if p == "JK":
            press(phone, "joker")
            continue
        colour = colours[p[0]]
        if colour != current:
            family(phone, colour, f"{colour} 1")
            current = colour
        press(phone, f"{colour} {p[1:]}")


def cards(phone: Phone, *pieces: str) -> None:
    """Tap cards in: the suit key when it changes, then the rank."""
    suits = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    ranks = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
    current = None
    for p in pieces:
        if p == "JK":
            press(phone, "joker")
            continue
        suit = suits[p[-1]]
        if suit != current:
            family(phone, suit, f"ace of {suit}")
            current = suit
        press(phone, f"{ranks.get(p[:-1], p[:-1])} of {suit}")


# -- meld, every variant -------------------------------------------------------------------------
def test_meld_rummy101(phone: Phone) -> None:
    phone.open("/check")
    phone.shot("checkers-01-home")
    press(phone, re.compile("^Check a meld"))
    shown(phone, "Tap a colour")
    # RULES.md §2: R11 R12 JK is a run, the joker stands for R13: 36
    tiles(phone, "R11", "R12", "JK")
    shown(phone, "Valid run", "36 points", "Joker = red 13")
    phone.shot("checkers-02-meld-rummy101-valid")
    # Backspace, then 12-13-1: not a run in Rummy 101 (§2)
    press(phone, "Backspace")
    press(phone, "Backspace")
    press(phone, "Backspace")
    tiles(phone, "R12", "R13", "R1")
    shown(phone, "Not valid", "Reason: 1 does not follow 13 here", "12-13-1")
    phone.shot("checkers-03-meld-rummy101-invalid")


def test_meld_tile_rummy_group(phone: Phone) -> None:
    phone.open("/check/meld?variant=tile_rummy")
    # a group of 10s, the joker as the missing colour: 40 (§2)
    tiles(phone, "R10", "B10", "K10", "JK")
    shown(phone, "Valid group", "40 points", "The joker is a 10 of a missing colour")
    phone.shot("checkers-04-meld-tile-rummy")


def test_meld_my_rummy_typed(phone: Phone) -> None:
    phone.open("/check/meld?variant=my_rummy")
    # typing the notation works too, and the tiles are drawn from it (§1)
    type_in(phone, "Meld", "Y3 Y4 *")
    shown(phone, "Valid run", "12 points", "Joker = yellow 5")
    shown(phone, "yellow 3", "yellow 4", "joker as yellow 5")
    # tapping after typing continues the same meld
    tiles(phone, "Y6")
    shown(phone, "Valid run", "18 points")
    phone.shot("checkers-05-meld-my-rummy")


def test_meld_gin(phone: Phone) -> None:
    phone.open("/check/meld?variant=gin")
    assert phone.role("button", "joker").count() == 0  # gin plays without jokers (§2)
    cards(phone, "7S", "7H", "7D")
    shown(phone, "Valid group", "21 points")
    phone.shot("checkers-06-meld-gin-valid")
    press(phone, "Clear")
    cards(phone, "QS", "KS", "AS")  # the ace is low only in gin (§2)
    shown(phone, "Not valid", "Reason: The ace does not follow the king here")
    phone.shot("checkers-07-meld-gin-invalid")


def test_meld_carousel(phone: Phone) -> None:
    phone.open("/check/meld?variant=carousel")
    cards(phone, "QH", "KH", "AH")  # Carousel: the ace may be high, Q-K-A (§2): 21
    shown(phone, "Valid run", "21 points")
    phone.shot("checkers-08-meld-carousel")
    press(phone, "Clear")
    cards(phone, "KS", "AS", "2S")  # K-A-2 wraps (§2)
    shown(phone, "Not valid", "Reason: A run may not go round the corner")


# -- opening -------------------------------------------------------------------------------------
def test_opening_rummy101_below_then_enough(phone: Phone) -> None:
    phone.open("/check/opening?variant=rummy101")
    shown(phone, "Opening needs 101 points")
    tiles(phone, "R10", "R11", "R12")
    press(phone, "New meld")
    tiles(phone, "B13", "K13", "Y13")
    press(phone, "Check the opening")
    # §3: 33 + 39 = 72 < 101
    shown(phone, "Not valid", "72 points (needs 101)", "Reason: Not enough points to open")
    phone.shot("checkers-09-opening-below")
    press(phone, "New meld")
    tiles(phone, "B9", "B10", "B11")
    press(phone, re.compile("^Opening, meld 1"))
    tiles(phone, "R13")
    press(phone, "Check the opening")
    # 46 + 39 + 30 = 115 ≥ 101
    shown(phone, "Valid opening", "115 points (needs 101)")
    phone.shot("checkers-10-opening-valid")


# -- turn, one per joker level -------------------------------------------------------------------
Step = tuple[str, ...]
LEVELS: dict[int, tuple[list[str], str, list[Step], list[str], str]] = {
    # level: table before (typed), rack (tapped), the moves on the table after (it starts as
    # the table before), the table after they give, verdict. RULES.md §4, seed 001.
    # 0 free: the joker leaves R5 R6 R7 JK for a black run: allowed.
    0: (
        ["R5 R6 R7 JK"],
        "K9 K10",
        [("move", "joker", "1", "new"), ("tiles", "K9 K10")],
        ["R5 R6 R7", "JK K9 K10"],
        "Valid turn",
    ),
    # 1 match: the same move; the joker (R8) left without R8 taking its place.
    1: (
        ["R5 R6 R7 JK"],
        "K9 K10",
        [("move", "joker", "1", "new"), ("tiles", "K9 K10")],
        ["R5 R6 R7", "JK K9 K10"],
        "stood for R8",
    ),
    # 2 match from the rack: the R7 that freed the joker came from the table's group.
    2: (
        ["R5 R6 JK", "R7 B7 K7 Y7"],
        "B2 B3",
        [
            ("move", "joker", "1", "new"),
            ("move", "red 7", "2", "1"),
            ("select", "3"),
            ("tiles", "B2 B3"),
        ],
        ["R5 R6 R7", "B7 K7 Y7", "JK B2 B3"],
        "came from the table",
    ),
    # 3 no split with a joker: R3 taken from a run that holds a joker.
    3: (
        ["R3 R4 R5 JK"],
        "B3 K3",
        [("move", "red 3", "1", "new"), ("tiles", "B3 K3")],
        ["R4 R5 JK", "R3 B3 K3"],
        "taken from",
    ),
    # 4 the freed joker only into a new meld: it went onto K3 K4 K5.
    4: (
        ["R5 R6 JK", "K3 K4 K5"],
        "R7",
        [("move", "joker", "1", "2"), ("select", "1"), ("tiles", "R7")],
        ["R5 R6 R7", "K3 K4 K5 JK"],
        "went onto",
    ),
}


def do_moves(phone: Phone, steps: list[Step]) -> None:
    """Rearrange the table after by tapping: pick a piece up and put it into a meld (or a new
    one), select a meld, tap tiles into it."""
    for step in steps:
        if step[0] == "move":
            _kind, piece, meld, target = step
            press(phone, f"Move {piece} (meld {meld})")
            shown(phone, f"{piece[:1].upper()}{piece[1:]} picked up")
            if target == "new":
                press(phone, f"New meld with {piece}")
            else:
                press(phone, re.compile(f"^Table after, meld {target}: .*put {piece} here"))
        elif step[0] == "select":
            press(phone, re.compile(f"^Table after, meld {step[1]}:"))
        else:
            tiles(phone, *step[1].split())


@pytest.mark.parametrize(
    "level", [0, 2, *(pytest.param(n, marks=pytest.mark.slow) for n in (1, 3, 4))]
)
def test_turn_per_joker_level(phone: Phone, level: int) -> None:
    before, rack, steps, after, verdict = LEVELS[level]
    phone.open("/check/turn?variant=tile_rummy")
    press(phone, f"Joker rule {level}", role="checkbox")
    shown(phone, f"Joker rule: level {level}")  # the header names the rule in force
    for i, meld in enumerate(before):  # typed: the text field reads the notation
        if i:
            press(phone, "New meld")
        type_in(phone, f"Table before: meld {i + 1}", meld)
    press(phone, re.compile("^Rack before the turn: none yet"))  # the rack's keyboard
    tiles(phone, *rack.split())
    do_moves(phone, steps)
    for i, meld in enumerate(after):
        shown(phone, f"Table after, meld {i + 1}: {spoken_tiles(meld)}")
    phone.shot(f"checkers-11-turn-level{level}-entered")
    press(phone, "Check the turn")
    if verdict == "Valid turn":
        shown(phone, "Valid turn", "Played:")
    else:
        shown(phone, "Not valid", "Reason: The joker rule was broken", verdict)
        shown(phone, f"Joker level {level}")
        assert absent(phone, "table_before[")  # melds are named the way people do
    phone.shot(f"checkers-12-turn-level{level}-verdict")


def spoken_tiles(meld: str) -> str:
    """ "R5 JK" -> "red 5, joker" (how a meld row names its tiles)."""
    colours = {"R": "red", "B": "blue", "K": "black", "Y": "yellow"}
    return ", ".join("joker" if p == "JK" else f"{colours[p[0]]} {p[1:]}" for p in meld.split())


def test_turn_heap(phone: Phone) -> None:
    phone.open("/check/turn?variant=tile_rummy")
    type_in(phone, "Table before: meld 1", "K1 K2 JK")
    press(phone, "New meld")
    type_in(phone, "Table before: meld 2", "R1 R2 R3")
    press(phone, re.compile("^Rack before the turn: none yet"))
    tiles(phone, "R4")
    press(phone, "As a heap", role="checkbox")
    press(phone, "Start from the table before")  # the heap gets every tile of the table
    tiles(phone, "R4")
    press(phone, "Check the turn")
    # JUDGE.md: the heap is split into valid melds: K1 K2 JK and R1 R2 R3 R4
    shown(phone, "Valid turn", "The heap read as melds:")
    phone.shot("checkers-13-turn-heap")


# -- from a game ---------------------------------------------------------------------------------
def test_hand_from_a_gin_game(phone: Phone) -> None:
    new_game(phone, "Gin Rummy", ["Ala", "Bob"])
    press(phone, "Referee: check a meld, turn or hand")
    shown(phone, "This game's rules", "Gin Rummy")
    phone.shot("checkers-14-home-from-game")
    press(phone, re.compile("^Check a hand"))
    shown(phone, "This game's rules", "knock at 9 or less")
    # RULES.md §5: A-2-3 of spades, three 7s, 9-10-J of clubs, 4D and KH left over: with 11
    # cards the best discard is KH, deadwood 4 ≤ 9: may knock
    cards(phone, "AS", "2S", "3S", "7H", "7D", "7C", "9C", "10C", "JC", "4D")
    shown(phone, "May knock", "Deadwood 4")
    cards(phone, "KH")
    shown(phone, "Best discard", "king of hearts")
    phone.shot("checkers-15-hand-gin")
    press(phone, "Back")
    phone.wait_text(re.compile("Check a hand"))
    press(phone, "Back")
    phone.wait_text(re.compile("Enter round 1"))


def test_hand_carousel(phone: Phone) -> None:
    phone.open("/check/hand?variant=carousel")
    # RULES.md §6: ace 1 + 2 + 2 = 5: may knock
    cards(phone, "AS", "2H", "2D")
    shown(phone, "May knock", "Hand worth 5")
    cards(phone, "JK")  # + joker 25 = 30
    shown(phone, "Cannot knock yet", "Hand worth 30")
    phone.shot("checkers-16-hand-carousel")


def test_turn_checker_keeps_its_tiles_after_back(phone: Phone) -> None:
    # the tester's way: tap R3 R4 R5, ← to the referee menu, "Check a turn" again: the tiles
    # are still there; "Clear all" starts over. The joker rule's caption is a sentence.
    phone.open("/check/turn?variant=tile_rummy")
    shown(phone, "Joker level 2: a joker is replaced only by that tile, from the rack.")
    press(phone, re.compile("^Rack before the turn: none yet"))
    for key in ("red 3", "red 4", "red 5"):
        press(phone, re.compile(rf"^{key}(,|$)"))
    shown(phone, "Rack before the turn", "red 3, red 4, red 5")
    phone.tap("Back")
    phone.wait_text("Referee")
    press(phone, re.compile("^Check a turn"))
    shown(phone, "Rack before the turn", "red 3, red 4, red 5")
    phone.shot("turn-kept-after-back")
    phone.tap(re.compile("^Clear all"))
    shown(phone, "Rack before the turn: none yet")
    assert absent(phone, "red 3, red 4, red 5")
    phone.shot("turn-cleared")
