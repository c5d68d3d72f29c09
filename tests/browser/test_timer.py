"""The turn timer in headless Chromium at phone size (RULES.md §4): a Tile Rummy game with a
20-second timer, the countdown on screen, the alarm at zero, a penalty recorded, kept over a
reload and filled into the next round entry.

The test waits for the 20 seconds of a real turn to run out (the shortest the rules allow); it
asserts on what is shown, never on how long anything took.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.browser.conftest import Phone, Server
from tests.browser.test_play import enter_round, show_and_save, total

pytestmark = pytest.mark.browser

# Count the <audio> plays the page makes (the alarm), and how each ended.
AUDIO_PROBE = """
window.__plays = [];
const play = HTMLMediaElement.prototype.play;
HTMLMediaElement.prototype.play = function () {
  const rec = { src: String(this.currentSrc || this.src).slice(0, 30), ok: null };
  window.__plays.push(rec);
  const p = play.apply(this, arguments);
  if (p && p.then) p.then(() => { rec.ok = true; }, (e) => { rec.ok = String(e); });
  return p;
};
"""

TIME_LEFT = re.compile(r"Time left: (\d+:\d\d)")


def time_left(phone: Phone) -> str | None:
    """The countdown shown ("0:17"), read from its accessible name."""
    for label in phone.labels():
        m = TIME_LEFT.search(label)
        if m:
            return m.group(1)
    return None


def wait_for(phone: Phone, test: Any, timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = test()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"not seen in {timeout} s; on screen: {phone.labels()[:30]}")


def has_label(phone: Phone, pattern: str) -> bool:
    rx = re.compile(pattern)
    return any(rx.search(label) for label in phone.labels())


def switch_on(phone: Phone, name: str) -> None:
    """Turn a switch on (a tap while the options are still being laid out can be lost)."""
    switch = phone.role("switch", name).first
    switch.wait_for(state="attached")
    for _ in range(5):
        if switch.get_attribute("aria-checked") == "true":
            return
        time.sleep(0.5)
        switch.click()
        time.sleep(0.5)
    raise AssertionError(f"the switch {name!r} did not turn on")


def test_turn_timer_penalty_goes_into_the_round(phone: Phone, server: Server) -> None:
    phone.page.add_init_script(AUDIO_PROBE)
    phone.open("/new")
    phone.chip("Tile Rummy")
    phone.tap("Show all options")
    switch_on(phone, "Turn timer (seconds)")
    # bring the field into view first: a tap that scrolls can land on the switch above it
    phone.role("textbox", re.compile(r"^Turn timer \(seconds\)")).first.scroll_into_view_if_needed()
    time.sleep(0.6)
    phone.fill("Turn timer (seconds)", "20")
    assert phone.role("switch", "Turn timer (seconds)").first.get_attribute("aria-checked")
    shown = [m for m in map(re.compile(r"^Number of players: (\d)").match, phone.labels()) if m]
    for _ in range(int(shown[0].group(1)) - 2):
        phone.tap("Number of players: fewer")
    phone.fill("Player 1", "Ala")
    phone.fill("Player 2", "Ola")
    phone.tap("Start the game")
    phone.wait_text(re.compile("Enter round 1"))
    phone.wait_text(re.compile(r"Turn timer \(seconds\): 20"))
    phone.shot("60-timer-button-on-score-sheet")

    # the timer: Ala starts round 1 (the first seat); 20 s, ready
    phone.tap("Turn timer")
    wait_for(phone, lambda: time_left(phone) == "0:20")
    assert has_label(phone, "Ala's turn")
    phone.shot("61-timer-ready")
    phone.tap("Start")
    shown = wait_for(phone, lambda: (t := time_left(phone)) not in (None, "0:20") and t)
    assert re.fullmatch(r"0:1\d", shown), shown
    phone.shot("62-timer-running")
    # the last seconds in the warning colour, then time is up
    wait_for(phone, lambda: re.fullmatch(r"0:0[1-7]", time_left(phone) or ""), timeout=25)
    phone.shot("63-timer-last-seconds")
    phone.wait_text("TIME IS UP", timeout=20_000)
    assert time_left(phone) == "0:00"
    phone.wait_text(
        "Time is up: the table goes back as it was and Ala draws 3 tiles.", timeout=5_000
    )
    phone.shot("64-timer-time-is-up")
    plays = wait_for(
        phone,
        lambda: [p for p in phone.page.evaluate("() => window.__plays") if p["ok"] is not None],
        timeout=10,
    )
    print("alarm plays:", plays)
    assert any(p["ok"] is True for p in plays), f"the alarm did not play: {plays}"

    # record the penalty: stored at once, shown, kept over a reload
    phone.tap("Record penalty: Ala draws 3")
    phone.wait_text("Ala: 3 tiles (time ran out)")
    phone.wait_text("Penalty recorded for Ala")
    phone.shot("65-timer-penalty-recorded")
    phone.tap("Next player")
    wait_for(phone, lambda: has_label(phone, "Ola's turn"))
    wait_for(phone, lambda: (time_left(phone) or "").startswith("0:1"))
    phone.shot("66-timer-next-player")
    phone.reload()
    phone.wait_text("Ala: 3 tiles (time ran out)")

    # back on the score sheet, then the round entry starts with the penalty draw
    phone.tap("Back")
    phone.wait_text(re.compile("Penalties waiting for the round entry: Ala: 3 tiles"))
    enter_round(phone, 1)
    phone.wait_text("The penalty draws recorded with the turn timer are filled in.")
    wait_for(phone, lambda: has_label(phone, "^Ala: penalty draws: 1"))
    assert has_label(phone, "^Ola: penalty draws: 0")
    phone.shot("67-round-entry-penalty-filled-in")
    # Ola empties the rack; Ala keeps 10 points (§4): Ola +10, Ala −10
    phone.chip("Ola")
    phone.fill("Ala: points left", "10")
    show_and_save(phone, 1)
    assert total(phone, "Ola") == "10" and total(phone, "Ala") == "\u221210"
    assert not has_label(phone, "Penalties waiting")
    phone.tap(re.compile("^Round 1: "))
    phone.wait_text(re.compile("Penalty draws: Ala ×1"))
    phone.shot("68-round-with-timer-penalty")
    log = server.log.read_text(errors="replace")
    # a reload drops the old websocket; Flet's web server may log that disconnect with a
    # traceback (WebSocketDisconnect), which is not an error of the app
    tracebacks = [
        chunk for chunk in log.split("Traceback")[1:] if "WebSocketDisconnect" not in chunk
    ]
    assert not tracebacks and "turn timer stopped" not in log, log[-3000:]
