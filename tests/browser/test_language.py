"""The language switch in the browser (issue 5, item 5), headless Chromium at 360×740.

One phone switches to Polish in Settings, plays a Rummy 101 round and checks a meld in Polish;
a second phone (another browser context: another session of the same server) stays in English
on the same game; a phone whose browser prefers Slovak starts in Slovak. Screenshots go to
test-artifacts/screenshots/language-*.png.

Expected scores and verdicts are worked out by hand from RULES.md (§2 melds, §3 Rummy 101).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import PHONE, Phone, Server
from tests.browser.test_checkers import family, press, shown
from tests.browser.test_play import nth_chip

pytestmark = pytest.mark.browser


def total(phone: Phone, name: str, unit: str) -> str:
    """The big total shown for ``name`` on the score sheet (``unit``: "points" / "punktów" …)."""
    pattern = re.compile(rf"^{re.escape(name)}: (\S+) {unit}")
    for _ in range(80):
        for label in phone.labels():
            m = pattern.match(label)
            if m:
                return m.group(1)
        time.sleep(0.1)
    raise AssertionError(f"no total for {name} on screen: {phone.labels()[:20]}")


def tiles(phone: Phone, colour: str, *numbers: str) -> None:
    """Tap tiles of one colour in (Polish key names: "czerwony", "czerwony 7")."""
    family(phone, colour, f"{colour} 1")
    for n in numbers:
        if n == "JK":
            press(phone, "joker")
        else:
            press(phone, f"{colour} {n}")


@pytest.fixture
def second(chromium: Any, server: Server) -> Iterator[Phone]:
    """Another phone: a fresh browser context (its own session and storage), English."""
    context = chromium.new_context(viewport=PHONE, device_scale_factor=1, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield Phone(page, server.url)
    context.close()


@pytest.fixture
def slovak(chromium: Any, server: Server) -> Iterator[Phone]:
    """A phone whose browser prefers Slovak."""
    context = chromium.new_context(viewport=PHONE, device_scale_factor=1, locale="sk-SK")
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield Phone(page, server.url)
    context.close()


def test_switch_to_polish_while_another_phone_stays_english(phone: Phone, second: Phone) -> None:
    # the first phone starts in the browser's language (English) and switches in Settings
    phone.open("/")
    phone.wait_text("New game")
    phone.tap("Settings")
    phone.wait_text("Language")
    phone.chip("Polski")
    phone.wait_text("Język")
    shown(phone, "Każdy telefon przy stole ma swój własny język.")
    phone.shot("language-01-settings-polish")
    phone.tap("Wstecz")
    phone.wait_text("Nowa gra")
    phone.shot("language-02-games-list-polish")

    # a new game, in Polish
    phone.tap("Nowa gra")
    phone.wait_text("Wariant")
    phone.chip("Rummy 101")
    now = [m for m in map(re.compile(r"^Liczba graczy: (\d)").match, phone.labels()) if m]
    for _ in range(int(now[0].group(1)) if now else 3, 3):
        phone.tap("Liczba graczy: więcej")
    for i, name in enumerate(["Ala", "Ola", "Ela"], 1):
        phone.fill(f"Gracz {i}", name)
    phone.tap("Zacznij grę")
    phone.wait_text(re.compile("Wpisz rundę 1"))

    # round 1 (RULES.md §3): Ala finishes; Ola opened with melds, 12 left; Ela not opened:
    # Ala +101, Ola −12, Ela −202
    phone.tap(re.compile("^Wpisz rundę 1"))
    phone.wait_text(re.compile("(zaczyna|rozdaje) w tej rundzie"))
    phone.chip("Ala")
    nth_chip(phone, "Układy", 0)
    phone.fill("Ola: pozostałe punkty", "12")
    nth_chip(phone, "Bez otwarcia", 1)
    phone.tap("Pokaż punkty")
    phone.wait_text("Kto ile dostaje i dlaczego")
    shown(phone, "Bez otwarcia: kara 202")
    time.sleep(0.6)
    phone.shot("language-03-breakdown-polish")
    phone.tap(re.compile("^Zapisz rundę 1"))
    phone.wait_text(re.compile("Wpisz rundę 2"))
    # the spoken total in the Polish plural form of its number (101, 12: punktów; 202: punkty)
    assert total(phone, "Ala", "punktów") == "101"
    assert total(phone, "Ola", "punktów") == "−12"
    assert total(phone, "Ela", "punkty") == "−202"
    phone.shot("language-04-score-sheet-polish")
    game_url = phone.page.url

    # the referee, in Polish (RULES.md §2): R1 R2 R5 has a gap of two and no joker
    press(phone, "Sędzia: sprawdź układ, turę lub rękę")
    phone.wait_text("Sędzia")
    press(phone, re.compile("^Sprawdź układ"))
    phone.wait_text("Czytaj jako")
    tiles(phone, "czerwony", "1", "2", "5")
    shown(phone, "Powód: W serii jest przerwa")
    shown(phone, "między 1 a 5 brakuje 2")
    phone.shot("language-05-meld-not-valid-polish")
    press(phone, "Wyczyść")
    tiles(phone, "czerwony", "11", "12", "JK")
    shown(phone, "Prawidłowa seria")
    shown(phone, "36 punktów")
    shown(phone, "Joker = czerwony 13")
    phone.shot("language-06-meld-valid-polish")

    # the other phone, same server, same game: English all along
    second.open("/")
    second.wait_text("New game")
    second.wait_text("Unfinished games")
    second.tap(re.compile("^Resume Rummy 101: Ala, Ola, Ela"))
    second.wait_text(re.compile("Enter round 2"))
    assert total(second, "Ala", "points") == "101"
    second.shot("language-07-score-sheet-other-phone-english")
    assert not any("Wpisz rundę" in label for label in second.labels())

    # the first phone keeps Polish after a reload (kept in its browser)
    phone.page.goto(game_url)
    phone.ready()
    phone.wait_text(re.compile("Wpisz rundę 2"))
    phone.page.bring_to_front()
    second.reload()
    second.wait_text(re.compile("Enter round 2"))


def test_a_slovak_browser_starts_in_slovak(slovak: Phone) -> None:
    slovak.open("/")
    slovak.wait_text("Nová hra")
    slovak.shot("language-08-games-list-slovak")
    slovak.open("/rules/carousel")
    slovak.wait_text(re.compile("Pravidlá: Kolotoč"))
    slovak.shot("language-09-carousel-rules-slovak")


def test_tiles_tapped_in_a_checker_stay_after_switching_language(phone: Phone) -> None:
    """Retest of session 12: the meld checker came back empty after Settings → Polski. The
    tapped tiles, the "Read as" chip and the verdict (now in Polish) are kept."""
    phone.open("/check/meld?variant=rummy101")
    phone.wait_text("Read as")
    tiles(phone, "red", "11", "12", "JK")
    phone.chip("Run")
    shown(phone, "Valid run")
    shown(phone, "36 points")
    phone.shot("language-10-meld-before-switch")
    # ← to the referee menu, ← home, Settings → Polski, ← home, the referee, the meld check
    phone.tap("Back")
    phone.wait_text(re.compile("^Check a meld"))
    phone.tap("Back")
    phone.wait_text("New game")
    phone.tap("Settings")
    phone.wait_text("Language")
    phone.chip("Polski")
    phone.wait_text("Język")
    phone.tap("Wstecz")
    phone.wait_text("Nowa gra")
    press(phone, re.compile("^Sędzia"))
    press(phone, re.compile("^Sprawdź układ"))
    phone.wait_text("Czytaj jako")
    shown(phone, "Prawidłowa seria")
    shown(phone, "36 punktów")
    shown(phone, "Joker = czerwony 13")
    assert not any("Valid run" in label for label in phone.labels())
    phone.shot("language-11-meld-after-switch-polish")
