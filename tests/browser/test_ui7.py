"""Round entry's narrow number fields at 360 px (session 7, item 1): the label says what the
field holds without the player's name (the name heads the card), so it is never cut — in
English, Polish and Slovak — and the field is still called "<name>: points left" by a screen
reader. Screenshots: test-artifacts/screenshots/ui7-*.png (look at them)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from app.i18n import _, use_language
from tests.browser.conftest import PHONE, Phone, Server

pytestmark = pytest.mark.browser


@pytest.fixture(params=["en", "pl", "sk"])
def speaker(request: Any, chromium: Any, server: Server) -> Iterator[tuple[str, Phone]]:
    """A phone whose browser prefers the language ``request.param``."""
    context = chromium.new_context(viewport=PHONE, device_scale_factor=1, locale=request.param)
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield request.param, Phone(page, server.url)
    context.close()


def test_tile_rummy_points_field_label_is_whole(speaker: tuple[str, Phone]) -> None:
    lang, phone = speaker
    with use_language(lang):
        t = {k: _(k) for k in ["New game", "Variant", "Tile Rummy", "Start the game"]}
        player = _("Player {n}")
        enter = _("Enter round {n}").format(n=1)
        named = _("{name}: points left").format(name="Zosia")
    phone.open("/")
    phone.tap(t["New game"])
    phone.wait_text(t["Variant"])
    phone.chip(t["Tile Rummy"])
    for i, name in enumerate(["Ala", "Zosia", "Kuba"], 1):  # Tile Rummy opens with 3 seats
        phone.fill(player.format(n=i), name)
    phone.tap(t["Start the game"])
    phone.wait_text(re.compile(re.escape(enter)))
    phone.tap(re.compile(f"^{re.escape(enter)}"))
    phone.role("textbox", re.compile(f"^{re.escape(named)}")).first.wait_for()
    phone.fill(named, "12")  # the screen reader's name keeps the player's name
    phone.shot(f"ui7-{lang}-tile-points-left")
    shown = phone.page.evaluate(
        "() => Array.from(document.querySelectorAll('input'))"
        ".map(e => e.getAttribute('aria-label') || '')"
    )
    assert any(str(s).startswith(named) for s in shown), shown
