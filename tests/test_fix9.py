"""Session 9 fixes a new user found (fixB), without a browser.

1. A refused tap (a third Y1; RULES.md §1: the 106-tile set holds two of each tile) is said
   as what the rack holds ("No more Y1: … holds only 2, all entered already"), never as
   "3 × Y1", which the rack does not hold.
2. A run valid only with the joker moved (RULES.md §1: "R12 R13 JK" cannot be a run as laid,
   after 13 no tile follows; the engine normalises it to JK R12 R13 with JK = R11) has a
   headline saying so, in orange with swap arrows, not the plain green "Valid run".
"""

from __future__ import annotations

from typing import Any

import flet as ft

from app.i18n import use_language
from app.ui.common.keyboard import PieceKeyboard
from app.ui.referee import checkers
from app.ui.referee.checkers import MeldChecker, moved_title
from app.ui.shell import App
from rules import judge
from tests import conftest
from tests.test_entry_keys import tap_all
from tests.test_views import open_entry, start_game


def verdict(screen: checkers.Checker) -> str:
    return "\n".join(conftest.visible_texts(screen.verdict))


def meld(variant: str, pieces: list[str]) -> dict[str, Any]:
    return judge.answer({"check": "meld", "variant": variant, "meld": pieces})


# -- 1. the refusal describes the rack --------------------------------------------------------
def test_third_y1_tapped_is_refused_in_words_of_what_the_rack_holds() -> None:
    kb = PieceKeyboard("tile_rummy", "Rack", grid=True)
    assert kb.press("Y1") and kb.press("Y1")
    assert not kb.press("Y1")  # two copies of each tile (§1)
    assert kb.pieces == ["Y1", "Y1"] and kb.field.value == "Y1 Y1"
    assert kb.error.visible
    assert kb.error.value == "No more Y1: the 106-tile set holds only 2, all entered already"
    assert "3 ×" not in str(kb.error.value)
    assert kb.problem is None  # the field's text (Y1 Y1) has nothing wrong
    kb.backspace()  # the refusal is gone with the next change
    assert not kb.error.visible and kb.pieces == ["Y1"]


def test_one_copy_deck_refusal_and_typed_text_keeps_its_own_message() -> None:
    kb = PieceKeyboard("gin", "Hand", grid=True)
    assert kb.press("7H") and not kb.press("7H")  # a 52-card deck holds each card once (§1)
    assert kb.error.value == "No more 7H: a 52-card deck holds only 1, entered already"
    # typed text that does hold 2 × 7H is named as typed (the field's own check)
    kb.type_text("7H 7H")
    assert kb.problem == "2 × 7H, but a 52-card deck holds only 1"


def test_round_entry_pad_line_after_a_refused_y1(app: App) -> None:
    sheet = start_game(app, "tile_rummy", ["Ala", "Ola"])
    entry = open_entry(app, sheet)
    f: Any = entry.form
    f.outcome.pick("Ala")
    f.rests["Ola"].mode.pick("tiles")
    pad = f.pad
    assert pad.target is f.rests["Ola"].tiles.keyboard
    tap_all(pad.board, ["R5", "Y1", "Y1"])
    assert not pad.board.press("Y1")
    assert pad.target.pieces == ["R5", "Y1", "Y1"]
    assert pad.line.value == "No more Y1: the 106-tile set holds only 2, all entered already"


def test_refusal_in_polish_and_slovak() -> None:
    for lang, expected in (
        ("pl", "Więcej Y1 nie ma: komplet 106 płytek ma tylko 2, wszystkie już wpisano"),
        ("sk", "Ďalší kus Y1 už nie je: súprava 106 kameňov má len 2, všetky sú už zadané"),
    ):
        with use_language(lang):
            kb = PieceKeyboard("tile_rummy", "Rack", grid=True)
            assert kb.press("Y1") and kb.press("Y1") and not kb.press("Y1")
            assert kb.error.value == expected, kb.error.value


# -- 2. the headline of a run valid only with the joker moved ---------------------------------
def test_moved_title_from_the_engines_answer() -> None:
    # R12 R13 JK: no run as laid (§1); normalised JK R12 R13, JK = R11
    a = meld("tile_rummy", ["R12", "R13", "JK"])
    assert a["tiles"] == ["JK", "R12", "R13"] and a["jokers"] == ["R11"]
    assert moved_title(a, ["R12", "R13", "JK"], "tiles") == (
        "Valid run with the joker moved to the front (as red 11)"
    )
    # two jokers after the 13: JK JK R12 R13, jokers R10 R11 (36 + 10 = 46)
    a = meld("tile_rummy", ["R12", "R13", "JK", "JK"])
    assert a["value"] == 46
    assert moved_title(a, ["R12", "R13", "JK", "JK"], "tiles") == (
        "Valid run with the jokers moved to the front (as red 10, red 11)"
    )
    # JK R1 R2: nothing below 1, the joker goes up to 3
    a = meld("tile_rummy", ["JK", "R1", "R2"])
    assert a["tiles"] == ["R1", "R2", "JK"]
    assert moved_title(a, ["JK", "R1", "R2"], "tiles") == (
        "Valid run with the joker moved to the end (as red 3)"
    )
    # R11 R13 JK: the joker fills the inner gap first (§1): R11 JK R13, JK = R12
    a = meld("tile_rummy", ["R11", "R13", "JK"])
    assert a["tiles"] == ["R11", "JK", "R13"]
    assert moved_title(a, ["R11", "R13", "JK"], "tiles") == (
        "Valid run with the joker moved (as red 12)"
    )
    # no joker moved, the tiles were out of order: R12 R11 R13 is 11-12-13 once sorted
    a = meld("tile_rummy", ["R12", "R11", "R13"])
    assert moved_title(a, ["R12", "R11", "R13"], "tiles") == (
        "Valid run once the tiles are put in order"
    )
    a = meld("gin", ["KS", "QS", "JS", "9S", "10S"])  # 9-10-J-Q-K of spades, laid mixed
    assert moved_title(a, ["KS", "QS", "JS", "9S", "10S"], "cards") == (
        "Valid run once the cards are put in order"
    )
    # Carousel K♥ A♥ JK: nothing after a high ace, the joker goes below: Q-K-A (§2)
    a = meld("carousel", ["KH", "AH", "JK"])
    assert a["tiles"] == ["JK", "KH", "AH"] and a["jokers"] == ["QH"]
    assert moved_title(a, ["KH", "AH", "JK"], "cards") == (
        "Valid run with the joker moved to the front (as queen of hearts)"
    )
    # valid as laid: the plain headline (no title of its own)
    for laid in (["R11", "R12", "JK"], ["JK", "R12", "R13"], ["R13", "R12", "R11"]):
        assert moved_title(meld("tile_rummy", laid), laid, "tiles") is None, laid


def test_meld_checker_headline_for_r12_r13_jk(app: App) -> None:
    screen = MeldChecker(app, variant="tile_rummy")
    screen.keyboard.type_text("R12 R13 JK")
    shown = verdict(screen)
    assert "Valid run with the joker moved to the front (as red 11)" in shown
    assert "\nValid run\n" not in f"\n{shown}\n"
    assert "36 points" in shown and "As laid (R12 R13 JK) this is not a run" in shown
    heads = [
        c
        for c in conftest.walk(screen.verdict, True)
        if isinstance(c, ft.Text) and str(c.value).startswith("Valid run with")
    ]
    assert len(heads) == 1 and heads[0].color == ft.Colors.ON_SURFACE  # not the green
    assert any(
        isinstance(c, ft.Icon)
        and c.icon == ft.Icons.SWAP_HORIZONTAL_CIRCLE
        and c.color == checkers.MOVED_COLOUR
        for c in conftest.walk(screen.verdict, True)
    )
    assert not any(
        isinstance(c, ft.Icon) and c.icon == ft.Icons.CHECK_CIRCLE
        for c in conftest.walk(screen.verdict, True)
    )
    assert any(
        isinstance(c, ft.Container) and c.bgcolor == checkers.MOVED_BACKGROUND
        for c in conftest.walk(screen.verdict, True)
    )
    # laid as a run: the plain green headline
    screen.keyboard.type_text("R11 R12 JK")
    shown = verdict(screen)
    assert "Valid run" in shown.split("\n") and "moved" not in shown
    assert any(
        isinstance(c, ft.Icon) and c.icon == ft.Icons.CHECK_CIRCLE
        for c in conftest.walk(screen.verdict, True)
    )


def test_moved_headline_in_polish_and_slovak(app: App) -> None:
    a = meld("tile_rummy", ["R12", "R13", "JK"])
    with use_language("pl"):
        assert moved_title(a, ["R12", "R13", "JK"], "tiles") == (
            "Prawidłowa seria po przełożeniu jokera na początek (jako czerwony 11)"
        )
    with use_language("sk"):
        title = moved_title(a, ["R12", "R13", "JK"], "tiles")
        assert title is not None
        assert title.startswith("Platná postupnosť po presunutí žolíka na začiatok (ako ")
