"""Small things players saw (session 8), in headless Chromium at 360×740.

1. A checker's verdict is still on the screen after its rule link and the way back: the
   opening and turn checkers show their verdict under the inputs, and the way back used to
   land at the top of the screen, the verdict out of sight under the keys ("it is gone").
2. The gin preset reads "Original (default)": the score sheet said "Rules: Original rules
   (default)".
5. Plain gin with the house option knock limit 0: the form, the score sheet, the referee's
   header and its hand verdict say "only gin", never "knock at 0 or less".

Screenshots: test-artifacts/screenshots/words8-*.png.
"""

from __future__ import annotations

import re
import time

import pytest

from tests.browser.conftest import PHONE, Phone
from tests.browser.test_checkers import cards, press, shown, tiles

pytestmark = pytest.mark.browser


def on_screen(phone: Phone, *words: str, timeout: float = 10.0) -> bool:
    """Whether the smallest control whose name holds every one of ``words`` is drawn inside
    the phone's screen (below the app bar) within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        boxes: list[dict[str, float]] = phone.page.evaluate(
            """(words) => Array.from(document.querySelectorAll('flt-semantics'))
                 .filter(e => {
                   const s = (e.getAttribute('aria-label') || '') + ' ' + (e.innerText || '');
                   return words.every(w => s.includes(w));
                 })
                 .map(e => e.getBoundingClientRect())
                 .map(r => ({y: r.y, height: r.height}))""",
            list(words),
        )
        if boxes:
            box = min(boxes, key=lambda b: b["height"])
            if box["y"] >= 56 and box["y"] + min(box["height"], 40) <= PHONE["height"]:
                return True
        time.sleep(0.3)
    return False


def test_opening_verdict_is_on_screen_after_its_rule(phone: Phone) -> None:
    phone.open("/check/opening?variant=rummy101")
    shown(phone, "Opening needs 101 points")
    tiles(phone, "R10", "R11", "R12")
    press(phone, "New meld")
    tiles(phone, "B13", "K13", "Y13")
    press(phone, "Check the opening")
    # RULES.md §3: 33 + 39 = 72 < 101
    shown(phone, "Not valid", "72 points (needs 101)")
    assert on_screen(phone, "72 points (needs 101)")
    phone.shot("words8-01-opening-verdict")
    press(phone, re.compile("^Rules: Rummy 101 › "))
    phone.page.wait_for_url(re.compile(r"/rules/rummy101/\w+"), timeout=15_000)
    phone.wait_text(re.compile("101"))
    phone.shot("words8-02-opening-rule")
    press(phone, "Back")  # the app's ←
    phone.page.wait_for_url(re.compile(r"/check/opening"), timeout=15_000)
    assert on_screen(phone, "72 points (needs 101)"), "the verdict is out of sight"
    shown(phone, "Opening, meld 1", "red 10, red 11, red 12")
    phone.shot("words8-03-opening-back")
    press(phone, re.compile("^Rules: Rummy 101 › "))
    phone.page.wait_for_url(re.compile(r"/rules/rummy101/\w+"), timeout=15_000)
    phone.page.go_back()  # the browser's Back
    phone.page.wait_for_url(re.compile(r"/check/opening"), timeout=15_000)
    assert on_screen(phone, "72 points (needs 101)"), "the verdict is out of sight"
    phone.shot("words8-04-opening-browser-back")


def test_gin_with_knock_limit_0_reads_only_gin(phone: Phone) -> None:
    phone.open("/new")
    phone.chip("Gin Rummy")
    shown(phone, "Original (default)")  # under "Rules", beside "Modern" and "Classic"
    phone.tap("Show all options")
    phone.fill("Knock with at most (points)", "0")
    shown(phone, "0: only gin goes down; nobody may knock with deadwood.")
    phone.shot("words8-05-new-game-knock-0")
    phone.fill("Player 1", "Ala")
    phone.fill("Player 2", "Bob")
    phone.tap("Start the game")
    phone.wait_text(re.compile("Enter round 1"))
    line = shown(phone, "Rules: Original (default)")
    assert "Original rules" not in line and line.count("Rules") == 1
    phone.shot("words8-06-score-sheet-rules")
    press(phone, "Referee: check a meld, turn or hand")
    shown(phone, "Check a hand", "is it gin? (only gin goes down in this game)")
    press(phone, re.compile("^Check a hand"))
    shown(phone, "This game's rules", "gin only, no knocking")
    # RULES.md §5: A-2-3 of spades, three 7s, 9-10-J of clubs, the 4 of diamonds: deadwood 4
    cards(phone, "AS", "2S", "3S", "7H", "7D", "7C", "9C", "10C", "JC", "4D")
    shown(phone, "Not gin: cannot go down yet", "Deadwood 4 (only gin goes down in this game)")
    assert not any("0 or less" in label for label in phone.labels())
    phone.shot("words8-07-hand-knock-0")
