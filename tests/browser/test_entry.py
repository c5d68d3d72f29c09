"""Round entry and the new-game names in headless Chromium at 360×740 (issue 10, points
2–4). Screenshots go to test-artifacts/screenshots/entry-*.png for people to look at."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.browser.conftest import Phone
from tests.browser.test_play import enter_round, new_game, nth_chip

pytestmark = pytest.mark.browser

LONG = "Aleksandra Konstantynopolitańczykiewicz."  # 40 characters, the limit


def test_a_40_character_name_fits_at_360px(phone: Phone) -> None:
    assert len(LONG) == 40
    new_game(phone, "Rummy 101", [LONG, "van Dijk", "z Wielkopolski"], shot="entry-01-new-game")
    enter_round(phone, 1)
    phone.chip(LONG)
    time.sleep(0.3)
    phone.shot("entry-02-round-long-name-winner")
    phone.chip("van Dijk")
    nth_chip(phone, "Melds", 0)
    phone.fill(f"{LONG}: points left", "12")  # the one-line label still names the field
    phone.shot("entry-03-round-long-name-block")
    labels = " ".join(phone.labels())
    assert "van Dijk" in labels and "z Wielkopolski" in labels  # kept as typed


def test_a_name_over_the_limit_is_refused_not_cut(phone: Phone) -> None:
    phone.open("/")
    phone.tap("New game")
    phone.wait_text("Variant")
    phone.fill("Player 1", LONG + "xy")
    phone.wait_text(re.compile("at most 40 characters; this one has 42"))
    phone.fill("Player 2", "Ola 😀")
    phone.wait_text(re.compile("emoji or a symbol"))
    phone.shot("entry-04-name-refused")


def _draft_keys(phone: Phone) -> list[str]:
    keys: list[str] = phone.page.evaluate(
        "() => Object.keys(localStorage).filter(k => k.includes('rummy_referee.draft.'))"
    )
    return keys


def _scores_show(phone: Phone, *wanted: str) -> None:
    """Tap "Show the scores" and find each of ``wanted`` in the breakdown (what the form
    holds, read the way the app reads it: Flutter's inputs do not carry their value)."""
    phone.tap("Show the scores")
    phone.wait_text("Who gets what, and why")
    time.sleep(0.6)
    text = " ".join(phone.labels())
    for w in wanted:
        assert w in text, (w, text[:2000])


def _checked(phone: Phone, name: str, i: int = 0) -> bool:
    box = phone.role("checkbox", name).nth(i)
    box.wait_for(timeout=15_000)
    return box.get_attribute("aria-checked") == "true"


def test_a_half_entered_round_survives_a_reload_and_back(
    phone: Phone, chromium: Any, server: Any
) -> None:
    new_game(phone, "Rummy 101", ["Ada", "Iga", "Oda"])
    enter_round(phone, 1)
    phone.chip("Ada")
    nth_chip(phone, "Melds", 0)
    phone.fill("Iga: points left", "23")
    nth_chip(phone, "Not opened", 1)  # Oda
    for _ in range(40):  # the draft is written to the browser's storage after each edit
        if _draft_keys(phone):
            break
        time.sleep(0.1)
    assert len(_draft_keys(phone)) == 1
    # a reload: Flet brings the same session back, with the form as it was
    phone.reload()
    assert _checked(phone, "Ada")
    _scores_show(phone, "\u221223", "\u2212202")  # §3: Iga melds −23, Oda not opened −202
    # a new session on this device (a closed tab, a restarted server): the draft is read back
    # from the browser's storage
    tab = Phone(phone.page.context.new_page(), server.url)
    tab.open("/" + "/".join(phone.page.url.split("/")[3:]))
    tab.wait_text("Your draft of this round is back.")
    assert _checked(tab, "Ada")
    tab.page.bring_to_front()  # a tab behind draws nothing for the screenshot
    tab.shot("entry-05-draft-restored")
    tab.page.bring_to_front()
    _scores_show(tab, "\u221223", "\u2212202")
    tab.page.close()
    phone.page.bring_to_front()
    # ← asks; "Keep this draft" goes back to the sheet, "Enter round 1" brings it back
    phone.tap("Back")
    phone.dialog("Leave round 1?")
    phone.shot("entry-06-leave-draft")
    phone.tap("Keep this draft")
    phone.wait_text(re.compile("Enter round 1"))
    enter_round(phone, 1)
    phone.wait_text("Your draft of this round is back.")
    assert _checked(phone, "Ada")
    # another phone saves round 1: this phone's draft for round 1 is dropped
    other_ctx = chromium.new_context(viewport={"width": 360, "height": 740})
    try:
        other = Phone(other_ctx.new_page(), server.url)
        other.open("/" + "/".join(phone.page.url.split("/")[3:5]))  # /game/<id>
        other.wait_text(re.compile("Enter round 1"))
        enter_round(other, 1)
        other.chip("Oda")
        nth_chip(other, "Not opened", 0)
        nth_chip(other, "Not opened", 1)
        other.tap("Show the scores")
        other.wait_text("Who gets what, and why")
        time.sleep(0.6)
        other.tap(re.compile("^Save round 1"))
        other.wait_text(re.compile("Enter round 2"))
    finally:
        other_ctx.close()
    phone.page.go_back()  # the browser's Back: no question, the draft stays until reopened
    phone.wait_text(re.compile("Enter round 2"))
    enter_round(phone, 2)
    time.sleep(1.0)
    assert not phone.labels().count("Your draft of this round is back.")
    assert not _checked(phone, "Ada") and not _checked(phone, "Oda")  # a fresh form
    for _ in range(40):
        if not _draft_keys(phone):
            break
        time.sleep(0.1)
    assert _draft_keys(phone) == []
    phone.shot("entry-07-draft-dropped")


def _drafts(phone: Phone) -> dict[str, Any]:
    """The round drafts in the browser's storage, by key (Flutter keeps each value as JSON
    text of our JSON text)."""
    got: dict[str, Any] = phone.page.evaluate(
        """() => Object.fromEntries(Object.entries(localStorage)
             .filter(([k]) => k.includes('rummy_referee.draft.'))
             .map(([k, v]) => { let x = JSON.parse(v);
                                return [k, typeof x === 'string' ? JSON.parse(x) : x]; }))"""
    )
    return got


def _wait_drafts(phone: Phone, ok: Any, what: str) -> dict[str, Any]:
    """Wait (10 s at most) for the stored drafts to satisfy ``ok``: they are written a moment
    after each edit."""
    for _ in range(100):
        got = _drafts(phone)
        if ok(got):
            return got
        time.sleep(0.1)
    raise AssertionError(f"{what}: {got}")


def _holds(drafts: dict[str, Any], path: str, value: Any) -> bool:
    return any(d.get("state", {}).get(path) == value for d in drafts.values())


def test_two_tabs_of_one_browser_lose_none_of_each_others_fields(phone: Phone, server: Any) -> None:
    """A tester's wipe (session 10): two tabs shared one draft, each rewriting it whole, and
    a tab reads the browser's storage as it was when the tab loaded: tab A, not knowing tab
    B's points, wrote over them. Now each tab keeps its own draft and a tab opened later
    merges them field by field; "Discard" in one tab hides everything entered before it."""
    new_game(phone, "Rummy 101", ["Ada", "Iga", "Oda"])
    enter_round(phone, 1)
    path = "/" + "/".join(phone.page.url.split("/")[3:])
    phone.chip("Ada")  # tab A: Ada won, Iga opened with melds
    nth_chip(phone, "Melds", 0)
    _wait_drafts(phone, lambda d: _holds(d, "opened/Iga", "melds"), "tab A's draft")
    b = Phone(phone.page.context.new_page(), server.url)  # tab B reads A's draft
    b.open(path)
    b.wait_text("Your draft of this round is back.")
    b.page.bring_to_front()
    b.fill("Iga: points left", "23")
    _wait_drafts(b, lambda d: _holds(d, "rests/Iga/value", "23"), "tab B's draft")
    phone.page.bring_to_front()  # tab A goes on: Oda did not open (A never saw the 23)
    nth_chip(phone, "Not opened", 1)
    both = _wait_drafts(phone, lambda d: _holds(d, "opened/Oda", "none"), "tab A's 2nd edit")
    assert len(both) == 2, both  # one draft per tab
    assert _holds(both, "rests/Iga/value", "23")  # B's points are still stored
    c = Phone(phone.page.context.new_page(), server.url)  # a tab opened later has all three
    c.open(path)
    c.wait_text("Your draft of this round is back.")
    c.page.bring_to_front()
    assert _checked(c, "Ada")
    c.shot("entry-08-two-tabs-merged")
    c.page.bring_to_front()
    _scores_show(c, "\u221223", "\u2212202")  # §3: Iga melds −23, Oda not opened −202
    # "Discard" in tab C: a tab opened after it starts empty, though A and B keep drafts
    c.tap("Back")
    c.dialog("Leave round 1?")
    c.tap("Discard")
    c.wait_text(re.compile("Enter round 1"))
    _wait_drafts(c, lambda d: any(x.get("cleared") for x in d.values()), "the discard")
    c.page.close()
    b.page.close()
    d = Phone(phone.page.context.new_page(), server.url)
    d.open(path)
    d.wait_text(re.compile("(started|dealt) this round"))
    time.sleep(1.5)  # the drafts are read a moment after the screen shows
    assert not d.labels().count("Your draft of this round is back.")
    assert not _checked(d, "Ada")
    d.page.bring_to_front()
    d.shot("entry-09-after-discard")


def test_every_bad_field_is_flagged_in_one_press(phone: Phone) -> None:
    new_game(phone, "Rummy 101", ["Ewa", "Jan", "Ola", "Iza"])
    enter_round(phone, 1)
    phone.shot("entry-08-fresh-form-no-red")
    labels = " ".join(phone.labels())
    assert "Enter a number" not in labels and "Tap:" not in labels  # nothing red yet
    phone.chip("Ewa")
    nth_chip(phone, "Melds", 0)  # Jan: points left empty
    nth_chip(phone, "Pairs", 1)
    phone.fill("Ola: points left", "1x")  # a typed mistake shows at once, before any press
    phone.wait_text(re.compile("“1x” is not a whole number"))
    # Iza: opening not tapped
    phone.tap("Show the scores")
    phone.wait_text("Enter a number")
    phone.wait_text("Tap: not opened, melds or pairs")
    phone.wait_text(re.compile("“1x” is not a whole number"))
    phone.shot("entry-09-all-flagged")
    # a one-turn finish: the opening choice goes, and the block says why
    phone.chip("In one turn")
    phone.wait_text(re.compile("^Not opened: the round was finished in one turn"))
    assert phone.role("checkbox", "Pairs").count() == 0
    phone.shot("entry-10-one-turn")
