"""Words a new user found (session 10), in headless Chromium at 360 px, in Polish and Slovak.

2. The referee's checker titles ("Sprawdź otwarcie", "Skontrolovať vyloženie") took two lines
   beside the app bar's "Wyczyść wszystko" / "Vymazať všetko": the action is now an icon
   named "Clear all" (its tooltip, read out), and every title fits one line at 360 px.
3. No gender spelled with a bracket: Rummy 101's turn checker says "Wzięto odrzuconą płytkę"
   (impersonal, as "Dobrano z puli") under "W tej turze:", not "Wziął(-ęła)".

Screenshots: test-artifacts/screenshots/words10-*.png.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import cv2
import numpy as np
import pytest

from tests.browser.conftest import PHONE, Phone, Server
from tests.browser.test_checkers import press, shown

pytestmark = pytest.mark.browser

TITLES = {
    "pl": {
        "meld": "Sprawdź układ",
        "opening": "Sprawdź otwarcie",
        "turn": "Sprawdź turę",
        "hand": "Sprawdź rękę",
    },
    "sk": {
        "meld": "Skontrolovať zostavu",
        "opening": "Skontrolovať vyloženie",
        "turn": "Skontrolovať ťah",
        "hand": "Skontrolovať ruku",
    },
}
CLEAR = {"pl": "Wyczyść wszystko", "sk": "Vymazať všetko"}
VARIANT = {"meld": "tile_rummy", "opening": "tile_rummy", "turn": "tile_rummy", "hand": "gin"}


def speaking(chromium: Any, server: Server, locale: str) -> Iterator[Phone]:
    """A 360 px wide phone whose browser prefers ``locale`` (the app starts in it)."""
    context = chromium.new_context(viewport=PHONE, device_scale_factor=1, locale=locale)
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield Phone(page, server.url)
    context.close()


@pytest.fixture
def phone(chromium: Any, server: Server, request: pytest.FixtureRequest) -> Iterator[Phone]:
    """Named ``phone`` so the failure hook of conftest saves its screen; the language is the
    test's ``lang`` parameter."""
    yield from speaking(chromium, server, {"pl": "pl-PL", "sk": "sk-SK"}[request.param])


def box_of(phone: Phone, role: str, name: str) -> dict[str, float]:
    """Where the control of ``role`` named exactly ``name`` is drawn."""
    loc = phone.role(role, name).first
    loc.wait_for(timeout=15_000, state="attached")
    box = loc.bounding_box()
    assert box is not None and box["width"] > 0, name
    return dict(box)


def ink(phone: Phone, left: float, right: float) -> tuple[int, int]:
    """(height, width) in px of the title's ink in the app bar between ``left`` and ``right``:
    the dark pixels of the bar (its screen reader node spans the whole bar, so the picture is
    read). One line of 20 px type is about 20 px high; two lines are over 36."""
    png = phone.page.screenshot(clip={"x": left, "y": 0, "width": right - left, "height": 56})
    img = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)
    assert img is not None
    rows, cols = np.nonzero(img < 110)
    if not len(rows):
        return 0, 0
    return int(rows.max() - rows.min() + 1), int(cols.max() - cols.min() + 1)


def text_width(phone: Phone, text: str, size: int) -> float:
    """Width (px) of ``text`` in Roboto 600 at ``size`` px, as the app's web client draws the
    title (its own copy of the font, assets/fonts/roboto.woff2)."""
    width: float = phone.page.evaluate(
        """async ([text, size]) => {
             const face = new FontFace('RobotoApp', 'url(assets/fonts/roboto.woff2)');
             document.fonts.add(await face.load());
             const ctx = document.createElement('canvas').getContext('2d');
             ctx.font = `600 ${size}px RobotoApp`;
             return ctx.measureText(text).width;
           }""",
        [text, size],
    )
    return width


@pytest.mark.parametrize(("phone", "lang"), [("pl", "pl"), ("sk", "sk")], indirect=["phone"])
def test_the_checker_titles_fit_one_line_beside_clear_all(phone: Phone, lang: str) -> None:
    for kind, title in TITLES[lang].items():
        phone.open(f"/check/{kind}?variant={VARIANT[kind]}")
        phone.wait_text(title)
        time.sleep(0.8)
        clear = box_of(phone, "button", CLEAR[lang])  # the icon, named for screen readers
        back = box_of(phone, "button", {"pl": "Wstecz", "sk": "Späť"}[lang])
        assert clear["width"] <= 56 and clear["x"] + clear["width"] <= PHONE["width"], clear
        path = phone.shot(f"words10-{lang}-{kind}-title")
        height, width = ink(phone, back["x"] + back["width"], clear["x"])
        # one line, whole (no "…": as wide as the words drawn at 20 px, within 10 %)
        assert 10 < height < 30, (kind, title, height, path)
        assert width > 0.9 * text_width(phone, title, 20), (kind, title, width, path)
    # the icon still starts over: a tile tapped in the meld checker goes
    phone.open(f"/check/meld?variant={VARIANT['meld']}")
    phone.wait_text(TITLES[lang]["meld"])
    red = {"pl": "czerwony", "sk": "červený"}[lang]
    before = set(phone.labels())
    press(phone, f"{red} 5")
    shown(phone, f"{red} 5")
    deadline = time.monotonic() + 10
    while not (entered := {x for x in set(phone.labels()) - before if f"{red} 5" in x}):
        assert time.monotonic() < deadline, "the tile tapped is not shown"
        time.sleep(0.2)
    phone.tap(CLEAR[lang])
    deadline = time.monotonic() + 10
    while entered & set(phone.labels()):
        assert time.monotonic() < deadline, f"Clear all left {entered}"
        time.sleep(0.2)


@pytest.mark.parametrize(("phone", "lang"), [("pl", "pl"), ("sk", "sk")], indirect=["phone"])
def test_the_turn_checker_says_who_took_the_discard_without_a_gender(
    phone: Phone, lang: str
) -> None:
    heading, drew, took = {
        "pl": ("W tej turze:", "Dobrano z puli", "Wzięto odrzuconą płytkę"),
        "sk": ("V tomto ťahu:", "Ťahanie z kôpky", "Vzatý odhodený kameň"),
    }[lang]
    phone.open("/check/turn?variant=rummy101")
    phone.wait_text(heading)
    phone.chip(took)
    shown(phone, {"pl": "Wzięta odrzucona płytka", "sk": "Zobratý odhodený kameň"}[lang])
    assert not any("(-" in label or "(a)" in label for label in phone.labels())
    assert any(label.startswith(drew) for label in phone.labels())
    phone.into_view(phone.text(heading))
    phone.shot(f"words10-{lang}-took-the-discard")
