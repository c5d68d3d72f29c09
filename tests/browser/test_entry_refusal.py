"""A refused tap's reason in the browser (new-user tester, session 10): the meld checker's
third red 5 is refused (RULES.md §1: the 106-tile set holds 2 of each), the reason appears in
a live region (``aria-live``: a screen reader says it), and it goes away by itself once the
player taps nothing else for ``REFUSAL_SECONDS``; a refusal followed by a valid tap goes at
once. Headless Chromium at 360×740; screenshots test-artifacts/screenshots/refusal-*.png."""

from __future__ import annotations

import re
import time

import pytest

from app.ui.common.keyboard import REFUSAL_SECONDS
from tests.browser.conftest import Phone
from tests.browser.test_checkers import press, shown, tiles

pytestmark = pytest.mark.browser

REFUSED = "No more R5"


def refusal_shown(phone: Phone) -> bool:
    return any(REFUSED in label for label in phone.labels())


def wait_gone(phone: Phone, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while refusal_shown(phone):
        assert time.monotonic() < deadline, "the refusal stayed"
        time.sleep(0.3)


def listen(phone: Phone) -> None:
    """Record from now on every text the page announces to screen readers (Flutter's live
    regions write it into an ``aria-live`` element, then empty it again)."""
    phone.page.evaluate(
        """() => {
             window.__said = [];
             const note = () => document.querySelectorAll('[aria-live]').forEach(e => {
               const t = (e.textContent || '').trim();
               if (t) window.__said.push(t);
             });
             new MutationObserver(note).observe(document.body,
               {subtree: true, childList: true, characterData: true});
           }"""
    )


def said(phone: Phone, text: str, timeout: float = 10.0) -> bool:
    """Was ``text`` announced since :func:`listen`?"""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if phone.page.evaluate("(t) => window.__said.some(s => s.includes(t))", text):
            return True
        time.sleep(0.1)
    return False


def test_a_refusal_is_said_then_goes(phone: Phone) -> None:
    phone.open("/check/meld?variant=tile_rummy")
    shown(phone, "Tap a colour")
    tiles(phone, "R5", "R5")
    listen(phone)
    press(phone, "red 5")  # the third: refused
    label = shown(phone, REFUSED)
    phone.shot("refusal-01-shown")
    assert said(phone, REFUSED), label  # a screen reader says it as it appears
    # the player taps nothing else: it goes by itself (a generous wait under load)
    wait_gone(phone, REFUSAL_SECONDS + 30)
    phone.shot("refusal-02-gone")
    assert shown(phone, re.compile("Meld").pattern)  # the checker is still there
    # refused again, then a valid tap: gone at once, the valid tile is in
    press(phone, "red 5")
    shown(phone, REFUSED)
    press(phone, "red 6")
    wait_gone(phone, REFUSAL_SECONDS - 1)
    shown(phone, "red 6")
