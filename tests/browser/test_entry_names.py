"""A 40-character player name in round entry, in headless Chromium at 360×740 (tester,
session 5): the jokers stepper beside a player's points says "Jokers left" on one line, not
the whole name again over four lines (the name heads the player's card). Screenshot:
test-artifacts/screenshots/names-01-long-name-jokers.png.

The game is written to the data file before the app starts: Tile Rummy, Ala and the long
name, no rounds.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from app import games
from app.store import Store
from tests.browser.conftest import PHONE, Phone, Server

pytestmark = pytest.mark.browser

LONG = "Zofia Babcia Kowalska-Wiśniewska Ździebł"  # 40 characters


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    data = tmp_path_factory.mktemp("names") / "games.json"
    store = Store(data)
    gid = store.create_game(games.new_game("tile_rummy", ["Ala", LONG])).id
    store.close()
    server = Server(data).start()
    yield server, gid
    server.stop()


def test_the_jokers_stepper_does_not_repeat_a_long_name(
    chromium: Any, seeded: tuple[Server, str]
) -> None:
    server, gid = seeded
    context = chromium.new_context(viewport=PHONE, device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(20_000)
    phone = Phone(page, server.url)
    try:
        phone.open(f"/game/{gid}/round")
        phone.wait_text(re.compile("Show the scores"))
        phone.chip(re.compile("^Ala"))  # Ala emptied the rack: the long name's rack is left
        phone.fill(re.compile(f"^{re.escape(LONG)}: points left"), "abc")
        more = phone.button(f"{LONG}: jokers left: more")  # the name stays for a screen reader
        phone.into_view(more)
        label = phone.wait_text("Jokers left")
        box, plus = label.bounding_box(), more.bounding_box()
        assert box is not None and plus is not None
        assert box["height"] < 30  # one line (16 px text), not four
        assert abs((box["y"] + box["height"] / 2) - (plus["y"] + plus["height"] / 2)) < 12
        assert not [x for x in phone.labels() if x.endswith(f"{LONG}: jokers left")]
        phone.shot("names-01-long-name-jokers")
    finally:
        context.close()
