"""Play a short game of every variant through the UI in headless Chromium at 360×740: enter
rounds, read the totals on screen, reload, find the game still there. Screenshots of the main
screens go to test-artifacts/screenshots/.

Expected scores are worked out by hand from RULES.md (the section is named at each one).
"""

from __future__ import annotations

import re
import time

import pytest

from tests.browser.conftest import Phone

pytestmark = pytest.mark.browser


def total(phone: Phone, name: str) -> str:
    """The big total shown for ``name`` on the score sheet ("−12" with a true minus)."""
    pattern = re.compile(rf"^{re.escape(name)}: (\S+) points")
    for _ in range(50):
        for label in phone.labels():
            m = pattern.match(label)
            if m:
                return m.group(1)
        time.sleep(0.1)
    raise AssertionError(f"no total for {name} on screen: {phone.labels()[:20]}")


def totals(phone: Phone, names: list[str]) -> dict[str, str]:
    return {n: total(phone, n) for n in names}


def new_game(phone: Phone, variant: str, names: list[str], shot: str | None = None) -> None:
    phone.open("/")
    phone.tap("New game")
    phone.wait_text("Variant")
    phone.chip(variant)
    count = re.compile(r"^Number of players: (\d)")

    def players() -> int | None:
        shown = [m for m in map(count.match, phone.labels()) if m]
        return int(shown[0].group(1)) if shown else None

    now = players()
    for _ in range(3 * len(names)):  # a tap lost under load is tapped again
        if now is None or now == len(names):
            break
        phone.tap("Number of players: " + ("more" if now < len(names) else "fewer"))
        before, deadline = now, time.monotonic() + 5
        while (now := players()) == before and time.monotonic() < deadline:
            time.sleep(0.1)
    for i, n in enumerate(names, 1):
        phone.fill(f"Player {i}", n)
    if shot:
        phone.shot(shot)
    phone.tap("Start the game")
    phone.wait_text(re.compile("Enter round 1"))


def enter_round(phone: Phone, n: int) -> None:
    phone.tap(re.compile(f"^Enter round {n}"))
    phone.wait_text(re.compile("(started|dealt) this round"))


def show_and_save(phone: Phone, n: int, shot: str | None = None) -> None:
    phone.tap_to("Show the scores", "Who gets what, and why")
    time.sleep(0.6)  # the screen scrolls the breakdown into view; a tap meanwhile misses
    if shot:
        phone.shot(shot)
    # under load a tap can be lost (a CI run missed the sheet after "Save round 1"); the
    # entry saves a round once however often Save is tapped
    phone.tap_to(re.compile(f"^Save round {n}"), re.compile(f"Enter round {n + 1}|wins"))


def nth_chip(phone: Phone, name: str, i: int) -> None:
    loc = phone.role("checkbox", name).nth(i)
    phone.into_view(loc)
    loc.click()
    time.sleep(0.25)


def test_rummy101(phone: Phone) -> None:
    new_game(phone, "Rummy 101", ["Ala", "Ola", "Ela"], shot="02-new-game")
    phone.shot("03-score-sheet-empty")
    # Round 1 (RULES.md §3): Ala finishes normally; Ola opened with melds, 12 left; Ela not
    # opened: Ala +101, Ola −12, Ela −202.
    enter_round(phone, 1)
    phone.chip("Ala")
    nth_chip(phone, "Melds", 0)
    phone.fill("Ola: points left", "12")
    nth_chip(phone, "Not opened", 1)
    phone.shot("04-round-rummy101")
    show_and_save(phone, 1, shot="05-breakdown-rummy101")
    assert totals(phone, ["Ala", "Ola", "Ela"]) == {"Ala": "101", "Ola": "−12", "Ela": "−202"}
    # Round 2: Ola finishes by discarding a joker (×2); Ala opened with pairs and holds R5 B7
    # (12 → 2 × 12 = 24 → ×2 = −48); Ela opened with melds, 10 points + 1 joker (111 → −222).
    enter_round(phone, 2)
    phone.chip("Ola")
    phone.chip("Discarding a joker")
    nth_chip(phone, "Pairs", 0)
    nth_chip(phone, "Tiles", 0)
    phone.fill("Ala: tiles left", "R5 B7")
    nth_chip(phone, "Melds", 1)
    phone.fill("Ela: points left", "10")
    phone.tap("Ela: jokers left: more")
    show_and_save(phone, 2)
    want = {"Ala": "53", "Ola": "190", "Ela": "−424"}
    assert totals(phone, ["Ala", "Ola", "Ela"]) == want
    phone.shot("06-score-sheet-rummy101")
    phone.reload()
    assert totals(phone, ["Ala", "Ola", "Ela"]) == want
    phone.open("/")
    phone.wait_text("Unfinished games")
    assert phone.button(re.compile("^Resume Rummy 101: Ala, Ola, Ela")).count() == 1


def test_bad_input_is_flagged_and_nothing_changes(phone: Phone) -> None:
    new_game(phone, "Rummy 101", ["Jan", "Ewa"])
    enter_round(phone, 1)
    phone.chip("Jan")
    nth_chip(phone, "Melds", 0)
    phone.fill("Ewa: points left", "7")
    show_and_save(phone, 1)
    assert totals(phone, ["Jan", "Ewa"]) == {"Jan": "101", "Ewa": "−7"}
    enter_round(phone, 2)
    phone.chip("Ewa")
    nth_chip(phone, "Melds", 0)
    nth_chip(phone, "Tiles", 0)
    phone.fill("Jan: tiles left", "R5 R14")
    phone.tap("Show the scores")
    phone.wait_text(re.compile("tiles are numbered 1 to 13, not 14"))
    phone.shot("07-bad-tile")
    assert phone.page.get_by_role("button", name=re.compile("^Save round")).count() == 0
    # an impossible value: 900 points cannot fit in a hand of at most 22 tiles
    nth_chip(phone, "Points", 0)
    phone.fill("Jan: points left", "900")
    phone.tap("Show the scores")
    phone.wait_text(re.compile("cannot fit"))
    phone.tap("Cancel")
    phone.dialog("Leave round 2?")  # something was entered: keep it as a draft, or not
    phone.tap("Discard")
    phone.wait_text(re.compile("Enter round 2"))
    assert totals(phone, ["Jan", "Ewa"]) == {"Jan": "101", "Ewa": "−7"}


def test_tile_rummy(phone: Phone) -> None:
    new_game(phone, "Tile Rummy", ["Ala", "Bob"])
    # Round 1 (§4): Ala empties the rack; Bob holds R5 JK = 5 + 30 = 35: Ala +35, Bob −35.
    enter_round(phone, 1)
    phone.chip("Ala")
    nth_chip(phone, "Tiles", 0)
    phone.fill("Bob: tiles left", "R5 JK")
    phone.tap("Bob: penalty draws: more")
    phone.shot("08-round-tile-rummy")
    show_and_save(phone, 1, shot="09-breakdown-tile-rummy")
    assert totals(phone, ["Ala", "Bob"]) == {"Ala": "35", "Bob": "−35"}
    # Round 2: the pool runs out; Ala 3, Bob 10 + 1 joker = 40: Ala +37, Bob −37.
    enter_round(phone, 2)
    phone.chip("Pool ran out")
    phone.fill("Ala: points left", "3")
    phone.fill("Bob: points left", "10")
    phone.tap("Bob: jokers left: more")
    show_and_save(phone, 2)
    assert totals(phone, ["Ala", "Bob"]) == {"Ala": "72", "Bob": "−72"}
    phone.reload()
    assert totals(phone, ["Ala", "Bob"]) == {"Ala": "72", "Bob": "−72"}


def test_my_rummy(phone: Phone) -> None:
    new_game(phone, "My Rummy", ["Ola", "Iza", "Ada"])
    # §4 My Rummy: losers' penalties only (winner_collects off): Ola 0, Iza −12, Ada −30.
    enter_round(phone, 1)
    phone.chip("Ola")
    phone.fill("Iza: points left", "12")
    phone.fill("Ada: points left", "0")
    phone.tap("Ada: jokers left: more")
    show_and_save(phone, 1)
    assert totals(phone, ["Ola", "Iza", "Ada"]) == {"Ola": "0", "Iza": "−12", "Ada": "−30"}
    phone.reload()
    assert totals(phone, ["Ola", "Iza", "Ada"]) == {"Ola": "0", "Iza": "−12", "Ada": "−30"}


GIN_A = "AS 2S 3S 7H 7D 7C 9C 10C JC 4D"
GIN_B = "4S 5S 8H 8D KC KD QH 2D 3H 6C"


def test_gin(phone: Phone) -> None:
    new_game(phone, "Gin Rummy", ["Ala", "Bob"])
    # Round 1 (§5): Ala knocks with deadwood 4 (4D); Bob lays off 4S 5S on AS 2S 3S and keeps
    # 57: Ala scores 57 − 4 = 53.
    enter_round(phone, 1)
    phone.chip("Ala knocked")
    phone.fill("Ala: hand", GIN_A)
    phone.wait_text(re.compile("deadwood 4"))
    phone.fill("Bob: hand", GIN_B)
    phone.shot("10-round-gin")
    phone.tap("Show the scores")
    phone.wait_text(re.compile("lays off 4S"))
    time.sleep(0.6)
    phone.shot("11-breakdown-gin")
    phone.tap("Save round 1")
    phone.wait_text(re.compile("Enter round 2"))
    assert totals(phone, ["Ala", "Bob"]) == {"Ala": "53", "Bob": "0"}
    # Round 2: deadwood typed in; Bob goes gin, Ala 20: 25 + 20 = 45 to Bob.
    enter_round(phone, 2)
    phone.chip("Bob knocked")
    phone.chip("Deadwood only")
    phone.fill("Ala: deadwood", "20")
    phone.fill("Bob: deadwood", "0")
    phone.chip("Gin")
    show_and_save(phone, 2)
    assert totals(phone, ["Ala", "Bob"]) == {"Ala": "53", "Bob": "45"}
    # A card typed wrong is flagged at its field.
    enter_round(phone, 3)
    phone.chip("Ala knocked")
    phone.fill("Ala: hand", "AS 2S 3S 7H 7D 7C 9C 10C JC 4X")
    phone.fill("Bob: hand", GIN_B)
    phone.tap("Show the scores")
    phone.wait_text(re.compile("a card is a rank"))
    phone.tap("Cancel")
    phone.dialog("Leave round 3?")
    phone.tap("Discard")
    # back on the sheet before reloading: a reload still on the round entry (under load) would
    # rightly bring the draft back (the stop's CI run failed so once)
    phone.wait_text(re.compile("Enter round 3"))
    deadline = time.monotonic() + 15
    while any("Who knocked?" in x for x in phone.labels()) and time.monotonic() < deadline:
        time.sleep(0.2)
    phone.reload()
    assert totals(phone, ["Ala", "Bob"]) == {"Ala": "53", "Bob": "45"}


def test_carousel(phone: Phone) -> None:
    new_game(phone, "Carousel rummy", ["Ala", "Bob", "Cel"])
    # Round 1 (§6): going out ends the round at once, so Ala cannot have knocked while Cel
    # holds no cards: refused at Cel's hand. The stock ran out instead: Ala 3S (3), Bob 9D (9),
    # Cel went out (0): Cel wins with the differences 3 + 9 = 12, +25 going out = 37.
    enter_round(phone, 1)
    phone.chip("Ala knocked")
    phone.fill("Ala: hand", "3S")
    phone.fill("Bob: hand", "9D")
    phone.tap("Show the scores")
    phone.wait_text(re.compile("Cel holds no cards, but Ala knocked"))
    phone.chip("Stock ran out")
    phone.shot("12-round-carousel")
    show_and_save(phone, 1, shot="13-breakdown-carousel")
    assert totals(phone, ["Ala", "Bob", "Cel"]) == {"Ala": "0", "Bob": "0", "Cel": "37"}
    # Round 2: Bob knocks with AS 2H (3), lowest; Ala KD (10), Cel 5C 5D (10): Bob scores
    # 7 + 7 = 14.
    enter_round(phone, 2)
    phone.chip("Bob knocked")
    phone.fill("Ala: hand", "KD")
    phone.fill("Bob: hand", "AS 2H")
    phone.fill("Cel: hand", "5C 5D")
    show_and_save(phone, 2)
    want = {"Ala": "0", "Bob": "14", "Cel": "37"}
    assert totals(phone, ["Ala", "Bob", "Cel"]) == want
    phone.reload()
    assert totals(phone, ["Ala", "Bob", "Cel"]) == want
    phone.open("/")
    phone.wait_text("Unfinished games")
    phone.shot("01-games-list")
