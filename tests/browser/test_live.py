"""The live table in real browsers: several phones on one game
(app/live.py, app/ui/table/sharing.py).

The app is served shared (``--host 0.0.0.0``). Each phone is its own Chromium context (own
cookies and storage, so its own Flet session), at 360×740:

- the *host's* phones open ``http://127.0.0.1:<port>/`` — a loopback connection, so they are
  the host; a browser that opens the network address is the host only with the host key
  that ``python -m app`` prints and opens (``?key=…``, kept in the browser afterwards);
- a *visitor's* phone must come from another device, which one machine cannot be. It opens
  ``http://127.0.0.1:<port>/`` with the header ``X-Forwarded-For: 198.51.100.7``: uvicorn (the
  server under Flet) takes the client address from that header when — and only when — the
  connection comes from loopback (its default ``forwarded_allow_ips``), so Flet's
  ``page.client_ip`` is 198.51.100.7 and everything after that is what a phone on the Wi-Fi
  gets. (A real phone cannot use the header: its connection is not from loopback, so uvicorn
  ignores it; ``app/guard.py`` pins ``forwarded_allow_ips`` to ``127.0.0.1``. The identity is
  read from the connection, never from ``page.client_ip``: tests/test_attack.py.)

Rummy 101 scores (RULES.md §3): the finisher +101, an opened player minus the points left.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import PHONE, Phone, Server
from tests.browser.test_play import enter_round, new_game, nth_chip, show_and_save

pytestmark = pytest.mark.browser

SEEN_WITHIN = 10.0
"""Seconds a change may take to show on another phone (it takes well under one)."""


class SharedServer(Server):
    """``python -m app --host 0.0.0.0`` (phones on the network may join)."""

    EXTRA_ARGS = ("--host", "0.0.0.0")
    READY = "Press Ctrl+C"


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SharedServer]:
    data = tmp_path_factory.mktemp("live") / "games.json"
    srv = SharedServer(data).start()
    yield srv
    srv.stop()


VISITOR = {"X-Forwarded-For": "198.51.100.7"}
"""What makes a browser context a phone on the network (see the module docstring)."""


@pytest.fixture
def phones(chromium: Any, shared: SharedServer) -> Iterator[Callable[..., Phone]]:
    """Make phones: ``phones()`` is one of the host's, ``phones(visitor=True)`` a phone on the
    network."""
    contexts: list[Any] = []

    def make(visitor: bool = False, url: str | None = None) -> Phone:
        context = chromium.new_context(
            viewport=PHONE, device_scale_factor=1, extra_http_headers=VISITOR if visitor else None
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)
        return Phone(page, url or shared.url)

    yield make
    for c in contexts:
        c.close()


def total_now(phone: Phone, name: str) -> str | None:
    pattern = re.compile(rf"^{re.escape(name)}: (\S+) points")
    for label in phone.labels():
        m = pattern.match(label)
        if m:
            return m.group(1)
    return None


def wait_totals(phone: Phone, want: dict[str, str], within: float = SEEN_WITHIN) -> None:
    """Wait (no reload) until ``phone`` shows these totals."""
    deadline = time.monotonic() + within
    got: dict[str, str | None] = {}
    while time.monotonic() < deadline:
        got = {n: total_now(phone, n) for n in want}
        if got == want:
            return
        time.sleep(0.2)
    raise AssertionError(f"the phone shows {got}, not {want}")


def game_id(phone: Phone) -> str:
    m = re.search(r"/game/([0-9a-f]{32})", phone.page.url)
    assert m, phone.page.url
    return m.group(1)


def rummy101_round(phone: Phone, n: int, winner: str, other: str, rest: int) -> None:
    enter_round(phone, n)
    phone.chip(winner)
    nth_chip(phone, "Melds", 0)
    phone.fill(f"{other}: points left", str(rest))
    show_and_save(phone, n)


def open_edit(phone: Phone, n: int) -> None:
    phone.tap(re.compile(f"^Round {n}: "))
    phone.wait_text(f"Edit round {n}")
    phone.tap(f"Edit round {n}")
    phone.wait_text(re.compile("(started|dealt) this round"))


def show_then_save_changes(phone: Phone) -> None:
    phone.tap("Show the scores")
    phone.wait_text("Who gets what, and why")
    time.sleep(0.6)
    phone.tap("Save the changes")


def test_two_phones_see_each_others_rounds(phones: Callable[..., Phone]) -> None:
    ala = phones()
    new_game(ala, "Rummy 101", ["Ala", "Ola"])
    gid = game_id(ala)
    ola = phones().open(f"/game/{gid}")
    ola.wait_text(re.compile("Enter round 1"))
    rummy101_round(ala, 1, "Ala", "Ola", 12)
    wait_totals(ola, {"Ala": "101", "Ola": "\u221212"})  # appeared without a reload
    ola.wait_text(re.compile("Enter round 2"))
    ola.shot("40-live-round-appeared")
    rummy101_round(ola, 2, "Ola", "Ala", 30)
    wait_totals(ala, {"Ala": "71", "Ola": "89"})
    ala.shot("41-live-other-way")
    # both enter round 3 at the same time: both rounds land, the later as round 4
    enter_round(ala, 3)
    enter_round(ola, 3)
    for phone, winner, other, rest in ((ala, "Ala", "Ola", 5), (ola, "Ola", "Ala", 7)):
        phone.chip(winner)
        nth_chip(phone, "Melds", 0)
        phone.fill(f"{other}: points left", str(rest))
        phone.tap("Show the scores")
        phone.wait_text("Who gets what, and why")
        time.sleep(0.6)
    ala.tap(re.compile("^Save round 3"))
    ola.tap(re.compile("^Save round 3"))
    ola.wait_text(re.compile("Round 4 saved"))
    ola.shot("42-live-both-appends-land")
    # Ala 71 + 101 − 7 = 165; Ola 89 − 5 + 101 = 185
    for phone in (ala, ola):
        wait_totals(phone, {"Ala": "165", "Ola": "185"})


def test_the_same_round_edited_on_two_phones_is_a_conflict(phones: Callable[..., Phone]) -> None:
    ala = phones()
    new_game(ala, "Rummy 101", ["Ala", "Ola"])
    gid = game_id(ala)
    rummy101_round(ala, 1, "Ala", "Ola", 12)
    ola = phones().open(f"/game/{gid}")
    wait_totals(ola, {"Ala": "101", "Ola": "\u221212"})
    open_edit(ala, 1)
    open_edit(ola, 1)
    ala.fill("Ola: points left", "20")
    ola.fill("Ola: points left", "25")
    show_then_save_changes(ala)
    ala.wait_text(re.compile("Enter round 2"))
    show_then_save_changes(ola)
    ola.dialog("Not saved: changed on another screen")
    ola.wait_text(re.compile("edited round 1"))
    ola.wait_text(re.compile("Round 1 now: Ala \\+101, Ola \u221220"))
    ola.wait_text(re.compile("Yours: Ala \\+101, Ola \u221225"))
    ola.shot("43-live-conflict")
    wait_totals(ala, {"Ala": "101", "Ola": "\u221220"})  # nothing of Ola's phone got in
    # Ola's phone chooses: its edit, as a new round (nothing of either is lost)
    ola.tap("Save mine as a new round")
    for phone in (ala, ola):
        wait_totals(phone, {"Ala": "202", "Ola": "\u221245"})
    ola.shot("44-live-conflict-resolved")


def test_a_phone_on_the_network_needs_the_join_code(
    phones: Callable[..., Phone], shared: SharedServer
) -> None:
    host = phones()
    new_game(host, "Rummy 101", ["Zofia", "Jadwiga"])
    gid = game_id(host)
    rummy101_round(host, 1, "Zofia", "Jadwiga", 12)
    # the share screen: the code as text and as a QR code
    host.tap_to("Share this table", "Visitors without the code can")
    label = next(x for x in host.labels() if x.startswith("Join code: "))
    code = label.removeprefix("Join code: ").replace(" ", "").split("\n")[0][:8]
    assert re.fullmatch(r"[A-Z2-9]{8}", code), label
    host.shot("45-live-share-qr")
    # the visitor's phone watches: no "Enter round", no way to edit
    phone = phones(visitor=True).open(f"/game/{gid}")
    phone.wait_text(re.compile("You are watching"))
    assert not phone.button(re.compile("^Enter round")).count()
    phone.shot("46-live-visitor-watching")
    phone.open(f"/game/{gid}/round")  # typing the address of the round entry does not help
    phone.wait_text("Join a table")
    # a wrong code, then the right one
    phone.fill("Join code", "WRONG234")
    phone.tap("Join")
    phone.wait_text(re.compile("That join code is not right"))
    phone.fill("Join code", f"{code[:4]} {code[4:]}")  # as the host reads it out
    phone.fill("Your name (optional)", "Bartek")
    phone.shot("47-live-join")
    phone.tap("Join")
    phone.wait_text(re.compile("(started|dealt) this round"))  # back to the round entry
    phone.chip("Jadwiga")
    nth_chip(phone, "Melds", 0)
    phone.fill("Zofia: points left", "9")
    show_and_save(phone, 2)
    host.tap("Back")
    wait_totals(host, {"Zofia": "92", "Jadwiga": "89"})
    # the host lets visitors see nothing: a second visitor without the code sees no game
    host.tap_to("Share this table", "Visitors without the code can")
    host.chip("See nothing")
    other = phones(visitor=True).open("/")
    other.wait_text("Join a table with its code")
    assert not [x for x in other.labels() if "Zofia" in x]
    other.open(f"/game/{gid}")
    other.wait_text("Join a table")
    other.shot("48-live-visitor-nothing")
    # no join code and no player name in the server's log
    log = shared.log.read_text(errors="replace")
    for secret in (code, "Zofia", "Jadwiga", "Bartek"):
        assert secret not in log, secret


def test_the_qr_address_joins_at_once(phones: Callable[..., Phone], shared: SharedServer) -> None:
    host = phones()
    new_game(host, "Gin Rummy", ["Ewa", "Jan"])
    gid = game_id(host)
    host.tap_to("Share this table", "Visitors without the code can")
    host.chip("Watch every game")
    label = next(x for x in host.labels() if x.startswith("Join code: "))
    code = label.removeprefix("Join code: ").replace(" ", "").split("\n")[0][:8]
    phone = phones(visitor=True).open(f"/game/{gid}?code={code}")  # what the QR code holds
    phone.wait_text(re.compile("Enter round 1"))
    assert not [x for x in phone.labels() if "You are watching" in x]
    assert Path(shared.log).exists()


def test_the_host_key_address_makes_a_browser_the_host_and_it_keeps_the_key(
    phones: Callable[..., Phone], shared: SharedServer
) -> None:
    log = shared.log.read_text(errors="replace")
    m = re.search(r"host's address.*?: (http://\S+\?key=(\S+))", log)
    assert m, log[-1000:]
    url, key = m.group(1), m.group(2)
    # a phone (visitor address) given the host's address is the host ...
    phone = phones(visitor=True, url=url.split("?")[0])
    phone.open("/?key=" + key)
    phone.wait_text("New game")
    assert phone.button("Share this table").count() == 1
    assert "key=" not in phone.page.url  # taken out of the address bar
    # ... and stays the host on a later visit without the key (kept in its storage)
    phone.open("/")
    phone.wait_text("New game")
    assert phone.button("Share this table").count() == 1
    # a wrong key gives nothing
    other = phones(visitor=True).open("/?key=" + key[:-1] + ("A" if key[-1] != "A" else "B"))
    other.wait_text("Join a table with its code")
    assert other.button("Share this table").count() == 0
