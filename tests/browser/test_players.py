"""Players, history and the table display in the browser at 360×740 (issue 12).

The app is served on a store prepared with the five games of ``tests/test_stats.py`` (worked
out by hand there): Ala (also written "ala", "ALA") played 3 finished games and won 2.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from app.store import Store
from tests.browser.conftest import PHONE, Phone, Server
from tests.test_stats import build

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The app on the stats fixture's games."""
    data = tmp_path_factory.mktemp("players") / "games.json"
    with Store(data) as s:
        build(s)
    srv = Server(data).start()
    yield srv
    srv.stop()


@pytest.fixture
def phone(chromium: Any, server: Server) -> Iterator[Phone]:
    # a light device: with no theme chosen the app follows it (tests/browser/test_theme.py)
    context = chromium.new_context(viewport=PHONE, device_scale_factor=1, color_scheme="light")
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield Phone(page, server.url)
    context.close()


def has(phone: Phone, text: str) -> bool:
    return any(text in label for label in phone.labels())


def test_player_page_and_rename(phone: Phone) -> None:
    phone.open("/")
    phone.tap("Players and their records")
    phone.tap(re.compile("^Ala, 4 games"))
    phone.wait_text("Head to head")
    for text in (
        "Finished games: 3",
        "Won: 2",
        "Win rate: 67 %",
        "Current streak: won 1 in a row",
        "Best round: 35",
        "Ola: 3 together, 2 won, 0 lost",
    ):
        assert has(phone, text), text
    phone.shot("players-01-page")
    phone.page.mouse.wheel(0, 2000)
    phone.shot("players-02-page-chart")
    # merge Elka into Ela from Elka's page
    phone.open("/players/elka")
    phone.tap("Rename or merge")
    phone.dialog("Rename Elka")
    phone.fill("New name", "Ela")
    phone.tap("Rename")
    phone.wait_text("1 game changed")
    # the page shows Ela's records once the merge is saved (Elka's may show for a moment)
    deadline = time.monotonic() + 15
    while not (has(phone, "Finished games: 2") and has(phone, "Won: 1")):
        assert time.monotonic() < deadline, phone.labels()[:8]
        time.sleep(0.2)


def test_history_filters_read_only_delete_undo(phone: Phone) -> None:
    phone.open("/")
    phone.tap("Search the history")
    phone.wait_text("4 finished games")
    phone.chip("Rummy 101")
    phone.wait_text("1 finished game")
    phone.chip("All variants")
    phone.wait_text("4 finished games")
    phone.fill("Search by player or note", "bob")
    phone.wait_text("1 finished game")
    phone.shot("players-03-history-search")
    phone.fill("Search by player or note", "")
    phone.fill("From", "2026-01-02")
    phone.fill("To", "2026-01-03")
    phone.wait_text("2 finished games")
    phone.tap(re.compile("^Open Rummy 101: ALA, Ola, Elk?a"))
    phone.wait_text("Winner: ALA")
    assert has(phone, "\u2212202")
    phone.shot("players-04-finished-game")
    phone.tap("Delete this game")
    phone.dialog("Delete this game?")
    phone.tap("Delete")
    phone.wait_text(re.compile("^Deleted: Rummy 101"))
    phone.wait_text("3 finished games")
    phone.tap("Undo the deletion")
    phone.wait_text("4 finished games")
    phone.tap("Season: rank the players")
    phone.wait_text(re.compile("^1\\. Ala: 1 won of 1, 101 points"))
    phone.shot("players-05-season")


def test_table_display_light_and_dark(phone: Phone) -> None:
    phone.open("/")
    phone.tap(re.compile("^Resume Tile Rummy: Ala, Ola"))
    phone.tap("Show on the table")
    phone.wait_text(re.compile("^Ola: 9, leads"))
    height = phone.page.evaluate(
        """() => Array.from(document.querySelectorAll('flt-semantics'))
             .filter(e => e.querySelector(':scope > span')?.innerText.startsWith('Ola: 9, leads'))
             .map(e => e.getBoundingClientRect().height)[0] ?? 0"""
    )
    assert height >= 48 + 22  # the total ≥ 48 px high, its name above it
    assert has(phone, "Ala starts") or has(phone, "Ola starts")
    phone.shot("players-06-table-light")
    # http://127.0.0.1 is a secure context: the wake lock is granted, so no note
    assert not has(phone, "This browser cannot keep the screen on")
    phone.tap("Back to the score sheet")
    phone.wait_text(re.compile("Enter round 2"))
    phone.open("/settings")
    phone.chip("Dark (black)")
    phone.open("/")  # the theme is kept in this browser and in the store
    phone.tap(re.compile("^Resume Tile Rummy: Ala, Ola"))
    phone.tap("Show on the table")
    phone.wait_text(re.compile("starts$"))
    path = phone.shot("players-07-table-dark")
    from PIL import Image

    with Image.open(path) as im:
        assert im.convert("RGB").getpixel((5, 400)) == (0, 0, 0)  # true black
    phone.tap("Back to the score sheet")
    phone.shot("players-08-sheet-dark")
    phone.open("/settings")
    phone.chip("Light")


def test_share_text_and_picture(phone: Phone) -> None:
    phone.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    phone.open("/history")
    phone.chip("Rummy 101")
    phone.tap(re.compile("^Open Rummy 101: ALA, Ola, Elk?a"))
    phone.tap("Share the result")
    # headless Chromium on Linux has no Web Share API: the text goes to the clipboard
    phone.wait_text("This browser has no share sheet: the result is copied instead")
    copied = phone.page.evaluate("() => navigator.clipboard.readText()")
    lines = copied.splitlines()
    assert lines[:3] == ["Rummy 101 · 1 round", "ALA 101", "Ola \u221212"]
    assert lines[3] in ("Ela \u2212202", "Elka \u2212202") and lines[4] == "Winner: ALA"
    with phone.page.expect_download(timeout=20_000) as info:
        phone.tap("Picture of the score sheet (PNG)")
    path = info.value.path()
    with open(path, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    assert info.value.suggested_filename.endswith(".png")


def test_backup_round_trip(phone: Phone, chromium: Any, tmp_path: Any) -> None:
    phone.open("/")
    with phone.page.expect_download(timeout=20_000) as info:
        phone.tap("Back up all games (one file)")
    path = tmp_path / info.value.suggested_filename
    info.value.save_as(str(path))
    assert path.name.startswith("rummy-backup-") and path.read_text().startswith(
        '{"format":"rummy-referee-backup","format_version":1,'
    )
    # another device: an empty app of its own
    other = Server(tmp_path / "other" / "games.json")
    other.data.parent.mkdir()
    other.start()
    try:
        context = chromium.new_context(viewport=PHONE, device_scale_factor=1)
        there = Phone(context.new_page(), other.url).open("/")
        for expected in (
            "5 added, 0 updated, 0 already here, 0 kept twice",
            "0 added, 0 updated, 5 already here, 0 kept twice",
        ):
            with there.page.expect_file_chooser(timeout=20_000) as chooser:
                there.tap("Restore a backup (merge its games)")
            chooser.value.set_files(str(path))
            there.wait_text(expected, timeout=60_000)
        there.wait_text(re.compile("^Resume Tile Rummy: Ala, Ola"))
        there.shot("players-09-restored")
        context.close()
    finally:
        other.stop()
