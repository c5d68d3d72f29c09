"""Leftovers of issue 10 in headless Chromium at 360×740: a long complaint under a round entry
field wraps (no "…"), "correct" versus "complete" the marked fields, the neutral winner
words in Polish, and the import dialog (its label clear of the other lines; pasted text that
is no export called pasted text). Screenshots: test-artifacts/screenshots/left-*.png.

The games are written to the data file before the app starts: a Tile Rummy game Ala, Ola
(no rounds) and a finished Rummy 101 game won by Ala (one agreed round; RULES.md §3: Ola had
opened with melds and keeps 20 points).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from app import games
from app.store import Store
from tests.browser.conftest import PHONE, Phone, Server

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, str]]]:
    data = tmp_path_factory.mktemp("leftovers") / "games.json"
    store = Store(data)
    ids = {"tiles": store.create_game(games.new_game("tile_rummy", ["Ala", "Ola"])).id}
    won = games.new_game("rummy101", ["Ala", "Ola"], agreed_rounds=1)
    won = games.add_round(
        won,
        {
            "finish": "normal",
            "players": [
                {"name": "Ala", "winner": True},
                {"name": "Ola", "opened": "melds", "hand_value": 20, "jokers": 0},
            ],
        },
    )
    ids["won"] = store.create_game(won).id
    store.close()
    server = Server(data).start()
    yield server, ids
    server.stop()


def open_phone(chromium: Any, url: str, locale: str) -> tuple[Any, Phone]:
    context = chromium.new_context(viewport=PHONE, device_scale_factor=1, locale=locale)
    page = context.new_page()
    page.set_default_timeout(20_000)
    return context, Phone(page, url)


def test_a_long_complaint_wraps_and_filled_wrong_says_correct(
    chromium: Any, seeded: tuple[Server, dict[str, str]]
) -> None:
    server, ids = seeded
    context, phone = open_phone(chromium, server.url, "pl-PL")
    try:
        phone.open(f"/game/{ids['tiles']}/round")
        phone.wait_text(re.compile("Pokaż punkty"))
        phone.chip("Ala")  # Ala emptied the rack
        # Ola's rack: a token that is no tile gets the longest complaint (135 characters)
        phone.tap(re.compile("^Płytki"), role="checkbox")
        phone.fill(re.compile("Ola: pozostałe płytki"), "XYZ123")
        phone.tap(re.compile("Pokaż punkty"))
        phone.wait_text("Popraw zaznaczone pola.")
        labels = " ".join(phone.labels())
        assert "Uzupełnij zaznaczone pola." not in labels
        assert (
            "(R czerwony, B niebieski, K czarny, Y żółty) i liczba 1–13 albo JK (joker)" in labels
        )
        phone.into_view(phone.text(re.compile("^„XYZ123”")))
        phone.shot("left-01-pl-long-error-wraps")
    finally:
        context.close()


def test_the_winner_words_in_polish(chromium: Any, seeded: tuple[Server, dict[str, str]]) -> None:
    server, ids = seeded
    context, phone = open_phone(chromium, server.url, "pl-PL")
    try:
        phone.open("/")
        phone.wait_text(re.compile("Zwycięstwo: Ala"))
        assert "Zwycięzca" not in " ".join(phone.labels())  # a word fit for anyone
        phone.shot("left-02-pl-home-winner")
        phone.open(f"/game/{ids['won']}")
        phone.wait_text("Zwycięstwo: Ala!")
        time.sleep(0.5)
        labels = " ".join(phone.labels())
        assert "1. MIEJSCE" in labels and "ZWYCIĘZCA" not in labels
        time.sleep(3)
        phone.shot("left-03-pl-sheet-winner")
    finally:
        context.close()


def test_the_import_dialog_and_pasted_text(
    chromium: Any, seeded: tuple[Server, dict[str, str]]
) -> None:
    server, _ids = seeded
    context, phone = open_phone(chromium, server.url, "pl-PL")
    try:
        phone.open("/")
        phone.tap(re.compile("^Importuj grę"))
        phone.dialog("Importuj grę")
        phone.shot("left-04-pl-import-dialog")
        paste = phone.role("textbox", re.compile("^Wyeksportowany tekst")).first
        choose = phone.button(re.compile("Wybierz plik"))
        a, b = choose.bounding_box(), paste.bounding_box()
        assert a is not None and b is not None
        assert a["y"] + a["height"] <= b["y"] + 1  # the paste box (and its label) below
        phone.fill(re.compile("^Wyeksportowany tekst"), "to nie jest kopia")
        phone.tap("Importuj")
        phone.wait_text(re.compile("Wklejony tekst nie jest poprawnym eksportem gry"))
        assert "Plik jest uszkodzony" not in " ".join(phone.labels())
        phone.shot("left-05-pl-import-pasted-error")
    finally:
        context.close()


def waits_until(phone: Phone, gone: str, within: float = 12.0) -> bool:
    """Whether no accessible text on the screen holds ``gone`` within ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not [x for x in phone.labels() if gone in x]:
            return True
        time.sleep(0.3)
    return False


def test_close_right_after_copy_closes_the_export_dialog(
    chromium: Any, seeded: tuple[Server, dict[str, str]]
) -> None:
    server, ids = seeded
    context = chromium.new_context(viewport=PHONE, device_scale_factor=1)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url.rstrip("/"))
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        phone = Phone(page, server.url).open(f"/game/{ids['tiles']}")
        phone.wait_text(re.compile("Enter round 1"))
        phone.tap("Export this game")
        phone.dialog("Export the game")
        phone.tap("Copy")
        text = page.evaluate("() => navigator.clipboard.readText()")
        assert text.startswith("round,dealer,Ala,Ola")
        phone.tap("Close")  # while "Copied" still shows: it closed the message, not the dialog
        assert waits_until(phone, "Export the game", within=5.0)
        phone.shot("left-06-closed-after-copy")
        assert waits_until(phone, "Copied")  # and the message goes by itself
        phone.shot("left-07-copied-gone")
    finally:
        context.close()
