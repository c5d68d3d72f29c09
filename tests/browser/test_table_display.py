"""The table display fits every player on one phone screen (tester's report: with 4 players the
4th name was drawn over the "… starts" line and her total was off the screen).

Games of 4 and 5 players (no variant seats 6: the 6-player layout is checked in
tests/test_history_table.py) at 360×740 and turned to 740×360: every player's row (name and
total) lies inside the viewport, no two rows overlap, and the dealer line is below them all.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from app import games as g
from app.store import Store
from tests.browser.conftest import PHONE, Phone, Server
from tests.test_stats import tile

pytestmark = pytest.mark.browser

GAMES: dict[str, tuple[str, list[str], dict[str, Any]]] = {
    "r101-4": ("rummy101", ["Ala", "Ola", "Jan", "Babcia"], {}),
    "tiles-4-timer": ("tile_rummy", ["Ala", "Ola", "Jan", "Babcia"], {"turn_time": 60}),
    "carousel-5": ("carousel", ["Ala", "Ola", "Jan", "Babcia", "Dziadek"], {}),
}


@pytest.fixture(scope="module")
def ids(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    data = tmp_path_factory.mktemp("table") / "games.json"
    out: dict[str, str] = {}
    with Store(data) as s:
        for key, (variant, players, options) in GAMES.items():
            game = g.new_game(variant, players, options)
            if variant == "tile_rummy":  # a leader: the "leads" line under her name
                game = g.add_round(
                    game, tile("Ola", {"Ala": ["R9"], "Jan": ["R1"], "Babcia": ["R13", "B12"]})
                )
            out[key] = s.create_game(game).id
    out["data"] = str(data)
    return out


@pytest.fixture(scope="module")
def server(ids: dict[str, str]) -> Iterator[Server]:
    from pathlib import Path

    srv = Server(Path(ids["data"])).start()
    yield srv
    srv.stop()


def rows(phone: Phone) -> list[dict[str, Any]]:
    """Every player's row (the "Name: total" node) and the dealer line, with their boxes."""
    out: list[dict[str, Any]] = phone.page.evaluate(
        """() => Array.from(document.querySelectorAll('flt-semantics'))
             .map(e => {
                 const label = ((e.getAttribute('aria-label') || '') + ' '
                     + (e.querySelector(':scope > span')?.innerText || '')).trim();
                 const r = e.getBoundingClientRect();
                 return {label, top: r.top, bottom: r.bottom, left: r.left, right: r.right};
             })"""
    )
    return out


def check(phone: Phone, players: list[str], width: int, height: int) -> None:
    found = rows(phone)
    boxes = []
    for p in players:
        mine = [r for r in found if re.match(rf"^{p}: -?[\d\u2212]+", r["label"])]
        assert mine, f"{p}'s row is missing: {[r['label'] for r in found]}"
        boxes.append(mine[0])
    who = [r for r in found if re.search(r"(starts|deals)$", r["label"])]
    assert who, "the dealer line is missing"
    for b in boxes:
        assert b["top"] >= 0 and b["bottom"] <= height + 0.5, b
        assert b["left"] >= 0 and b["right"] <= width + 0.5, b
        assert b["bottom"] - b["top"] >= 60, b  # a name and a big total
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = (
                a["bottom"] <= b["top"] + 0.5
                or b["bottom"] <= a["top"] + 0.5
                or a["right"] <= b["left"] + 0.5
                or b["right"] <= a["left"] + 0.5
            )
            assert apart, (a, b)
        assert a["bottom"] <= who[0]["top"] + 0.5, (a, who[0])


@pytest.mark.parametrize("key", list(GAMES))
def test_every_player_fits_portrait_and_landscape(
    phone: Phone, ids: dict[str, str], key: str
) -> None:
    players = GAMES[key][1]
    phone.open(f"/game/{ids[key]}/table")
    phone.wait_text(re.compile("(starts|deals)$"))
    check(phone, players, PHONE["width"], PHONE["height"])
    phone.shot(f"table-fit-{key}-portrait")
    # the phone turned on its side: laid out again without a reload
    phone.page.set_viewport_size({"width": PHONE["height"], "height": PHONE["width"]})
    time.sleep(1.5)
    phone.wait_text(re.compile("(starts|deals)$"))
    check(phone, players, PHONE["height"], PHONE["width"])
    phone.shot(f"table-fit-{key}-landscape")


def test_long_title_is_readable_on_the_score_sheet(phone: Phone, ids: dict[str, str]) -> None:
    # "Carousel r…" was cut next to the sheet's four actions: the title takes two lines
    phone.open(f"/game/{ids['carousel-5']}")
    phone.wait_text(re.compile("Enter round 1"))
    from PIL import Image

    rows: list[int] = []
    gaps: list[int] = []
    for _ in range(20):  # the canvas may be painted a moment after the text is there
        path = phone.shot("table-fit-carousel-sheet-title")
        with Image.open(path) as im:  # the bar's text: two lines of ink, not one cut line
            bar = im.convert("L").crop((60, 0, 200, 56))
            rows = [
                y
                for y in range(bar.height)
                if min(bar.crop((0, y, bar.width, y + 1)).getdata()) < 90
            ]
        gaps = [b - a for a, b in zip(rows, rows[1:], strict=False) if b - a > 1]
        if gaps:
            break
        time.sleep(0.5)
    assert rows, "no title drawn"
    assert gaps, f"the title is one line: ink rows {rows}"
