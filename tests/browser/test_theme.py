"""The theme in the browser at 360×740 (issue 12, item 3): with no choice stored anywhere the
app follows the device (``prefers-color-scheme``, set here through playwright's
``color_scheme``): true black behind a dark phone's screens, white behind a light one's, and
the text readable on both.

Every main screen is opened in both schemes and photographed
(test-artifacts/screenshots/theme-<scheme>-*.png); on each, the pixels under some texts named
on that screen are read from the screenshot and the contrast between the text's ink and what is
behind it is measured (WCAG contrast ratio of the darkest and the lightest pixel of the text's
box; glyph edges are smoothed, so the ink is the extreme pixel, not the average).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app import games as g
from app.store import Store
from tests.browser.conftest import PHONE, Phone, Server
from tests.browser.test_checkers import press, shown, tiles
from tests.test_stats import build

pytestmark = pytest.mark.browser

MIN_CONTRAST = 4.0
"""Least contrast ratio between a text's ink and its background (WCAG asks 4.5 for body text;
anti-aliased glyph pixels of thin text seldom reach the full ink, hence a little less)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The app on the stats fixture's games plus a Tile Rummy game with a turn timer; no
    theme stored."""
    data = tmp_path_factory.mktemp("theme") / "games.json"
    with Store(data) as s:
        ids = build(s)
        timed = g.new_game("tile_rummy", ["Ewa", "Iza"], {"preset": "rummikub", "turn_time": 60})
        ids["timed"] = s.create_game(timed).id
        assert s.get_setting("theme", None) is None
    (data.parent / "ids.txt").write_text(" ".join(f"{k}={v}" for k, v in ids.items()))
    srv = Server(data).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def ids(server: Server) -> dict[str, str]:
    text = (server.data.parent / "ids.txt").read_text()
    return dict(pair.split("=") for pair in text.split())


def tab(chromium: Any, server: Server, scheme: str) -> tuple[Any, Phone]:
    context = chromium.new_context(viewport=PHONE, device_scale_factor=1, color_scheme=scheme)
    page = context.new_page()
    page.set_default_timeout(20_000)
    return context, Phone(page, server.url)


# -- reading colours off a screenshot ---------------------------------------------------------
def luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG relative luminance of an sRGB colour."""

    def lin(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g_, b = (lin(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g_ + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_contrast(path: Path, box: dict[str, float]) -> tuple[float, Any, Any]:
    """(contrast, background, ink) of the text drawn in ``box`` (px) of the screenshot: the
    background is the commonest colour in the box, the ink the pixel farthest from it in
    luminance."""
    from PIL import Image

    with Image.open(path) as im:
        x0, y0 = max(0, int(box["x"])), max(0, int(box["y"]))
        x1 = min(im.width, int(box["x"] + box["width"]))
        y1 = min(im.height, int(box["y"] + box["height"]))
        crop = im.convert("RGB").crop((x0, y0, x1, y1))
        counts = crop.getcolors(crop.width * crop.height) or []
    bg = max(counts)[1]
    lb = luminance(bg)
    ink = max((c for _, c in counts), key=lambda c: abs(luminance(c) - lb))
    return contrast(bg, ink), bg, ink


def pixel(path: Path, xy: tuple[int, int]) -> tuple[int, int, int]:
    from PIL import Image

    with Image.open(path) as im:
        rgb: tuple[int, int, int] = im.convert("RGB").getpixel(xy)
        return rgb


def node_box(phone: Phone, pattern: str) -> dict[str, float] | None:
    """The on-screen box of the smallest accessibility node whose name (or text) matches
    ``pattern`` (a regular expression) and that lies inside the screen."""
    box: dict[str, float] | None = phone.page.evaluate(
        """(pattern) => {
             const re = new RegExp(pattern);
             let best = null;
             for (const e of document.querySelectorAll('flt-semantics')) {
               const name = (e.getAttribute('aria-label') || e.innerText || '').trim();
               if (!re.test(name)) continue;
               const r = e.getBoundingClientRect();
               if (r.width < 4 || r.height < 4 || r.top < 0 || r.bottom > innerHeight) continue;
               if (best === null || r.width * r.height < best.width * best.height)
                 best = {x: r.left, y: r.top, width: r.width, height: r.height};
             }
             return best;
           }""",
        pattern,
    )
    return box


def check(
    phone: Phone,
    scheme: str,
    name: str,
    texts: list[str],
    problems: list[str],
    panels: tuple[str, ...] = (),
) -> Path:
    """Photograph the screen, check its background (the left edge, mid-height) is the scheme's
    and every text of ``texts`` (regular expressions) reads with enough contrast; in the dark
    scheme the texts of ``panels`` (cards, verdicts: not filled buttons, which are light in
    Material's dark scheme) must be light ink on a dark ground (no glaring light box on the
    black screen). What is wrong goes to ``problems`` (so one run shows every screen)."""
    found: list[str] = []
    for _attempt in range(10):  # a busy server: Flet's "Working..." overlay comes and goes
        time.sleep(0.6)
        path = phone.shot(f"theme-{scheme}-{name}")
        found = []
        edge = pixel(path, (1, PHONE["height"] // 2))
        if scheme == "dark" and edge != (0, 0, 0):  # true black
            found.append(f"{name}: background {edge}, not black")
        if scheme == "light" and min(edge) < 235:  # white or nearly
            found.append(f"{name}: background {edge}, not light")
        for pattern in (*texts, *panels):
            box = node_box(phone, pattern)
            if box is None:
                found.append(f"{name}: no text {pattern!r} on screen: {phone.labels()[:12]}")
                continue
            ratio, bg, ink = text_contrast(path, box)
            if ratio < MIN_CONTRAST:
                found.append(f"{name}: {pattern!r} contrast {ratio:.2f} ({ink} on {bg})")
            if scheme == "dark" and pattern in panels and luminance(bg) >= luminance(ink):
                found.append(f"{name}: {pattern!r} dark ink {ink} on {bg}")
        if not found:
            break
    problems.extend(found)
    return path


def tour(phone: Phone, scheme: str, ids: dict[str, str]) -> list[str]:
    """Every main screen of the app, checked in ``scheme``; returns the problems found."""
    problems: list[str] = []
    phone.open("/")
    phone.wait_text(re.compile("^Resume"))
    check(phone, scheme, "01-games", ["^Resume Tile Rummy: Ala, Ola", "^New game"], problems)

    phone.open(f"/game/{ids['g5']}")
    phone.wait_text(re.compile("Enter round 2"))
    check(phone, scheme, "02-sheet", ["^Enter round 2"], problems, ("^Ola: 9 points, leader",))

    phone.open(f"/game/{ids['g1']}")  # finished: the winner's card, the rounds' rows
    phone.wait_text(re.compile("^Round 2:"))
    check(phone, scheme, "02-sheet-finished", [], problems, ("^Ala: 32 points",))
    phone.page.mouse.move(PHONE["width"] / 2, PHONE["height"] / 2)
    phone.page.mouse.wheel(0, 700)
    check(phone, scheme, "02-sheet-rounds", ["^Round 2:"], problems)

    phone.open(f"/game/{ids['g5']}/round")
    phone.wait_text(re.compile("(started|dealt) this round"))
    check(phone, scheme, "03-entry", [], problems, ("(started|dealt) this round",))
    phone.chip(re.compile("^Ola"))
    phone.fill("Ala: points left", "12")
    phone.tap("Show the scores")
    phone.wait_text("Who gets what, and why")
    check(phone, scheme, "04-breakdown", [], problems, ("^Who gets what, and why",))
    phone.open(f"/game/{ids['g5']}/round")
    phone.chip(re.compile("^Ola"))
    phone.chip("Tiles")
    phone.role("button", re.compile("^red 5")).first.wait_for(timeout=15_000)
    press(phone, re.compile("^red 5"))
    press(phone, re.compile("^joker"))
    check(phone, scheme, "04-entry-keyboard", ["^red 5"], problems)

    phone.open("/check/meld?variant=tile_rummy")
    tiles(phone, "R10", "B10", "K10", "JK")
    shown(phone, "Valid group", "40 points")
    check(phone, scheme, "05-checker-valid", [], problems, ("^Valid group",))
    press(phone, "Backspace")
    tiles(phone, "R11")
    shown(phone, "Not valid")
    check(phone, scheme, "06-checker-invalid", [], problems, ("^Not valid",))

    phone.open("/rules")
    time.sleep(1.0)
    check(phone, scheme, "07-rulebook", ["^Contents"], problems)

    phone.open(f"/game/{ids['timed']}/rules/melds")  # the game's rules marked in force
    time.sleep(1.5)
    check(phone, scheme, "07-rulebook-game", [], problems, ("Run: 3 or more",))

    phone.open(f"/game/{ids['timed']}/timer")
    phone.wait_text(re.compile("1:00"))
    check(phone, scheme, "08-timer", ["^Next player"], problems, ("^Time left",))

    phone.open(f"/game/{ids['g5']}/table")
    phone.wait_text(re.compile("leads"))
    check(phone, scheme, "09-table", [], problems, ("leads",))

    phone.open("/settings")
    phone.wait_text("Theme")
    check(phone, scheme, "12-settings", ["^Theme$", "^Like the device"], problems)

    phone.open("/history")
    phone.wait_text(re.compile("finished games"))
    check(phone, scheme, "13-history", [], problems, ("finished games",))

    phone.open("/players/ala")
    phone.wait_text("Head to head")
    check(phone, scheme, "10-player", [], problems, ("^Finished games",))
    phone.page.mouse.move(PHONE["width"] / 2, PHONE["height"] / 2)
    phone.page.mouse.wheel(0, 2000)
    check(phone, scheme, "11-player-chart", ["^Head to head"], problems)
    return problems


def test_follows_the_device_while_open(chromium: Any, server: Server) -> None:
    """The device switching between dark and light (its night mode) changes the open screen
    at once, without a reload."""
    context, phone = tab(chromium, server, "dark")
    problems: list[str] = []
    try:
        phone.open("/")
        phone.wait_text(re.compile("^Resume"))
        check(phone, "dark", "20-switch-dark", ["^New game"], problems)
        phone.page.emulate_media(color_scheme="light")
        check(phone, "light", "21-switch-light", ["^New game"], problems)
    finally:
        context.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_follows_the_device(
    chromium: Any, server: Server, ids: dict[str, str], scheme: str
) -> None:
    context, phone = tab(chromium, server, scheme)
    try:
        problems = tour(phone, scheme, ids)
    finally:
        context.close()
    assert not problems, "\n".join(problems)
