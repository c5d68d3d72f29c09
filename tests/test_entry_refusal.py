"""A refused tap's reason goes away (new-user tester, session 10): at once with the next valid
tap, Backspace or Clear, and by itself after ``REFUSAL_SECONDS`` when the player taps nothing
else; a screen reader hears it when it appears (a live region). Without a browser: the
keyboard's and the pad's state, and the timer run on a stand-in page.

The refusal itself is RULES.md §1: the 106-tile set holds 2 of each tile, so a third R5 is
refused."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import flet as ft
import pytest

from app.ui.common import keyboard
from app.ui.common.keyboard import KeyPad, PieceKeyboard


def three_red_fives(kb: PieceKeyboard) -> None:
    kb.pick_family("R")
    assert kb.press_number(5) and kb.press_number(5)
    assert not kb.press_number(5)  # §1: only 2 of each tile
    assert kb.error.visible and "R5" in str(kb.error.value)


def test_a_valid_tap_takes_the_refusal_away() -> None:
    kb = PieceKeyboard("tile_rummy", "Rack")
    three_red_fives(kb)
    assert kb.said.live_region and kb.said.content is kb.error  # said when it appears
    kb.pick_family("B")
    assert kb.press_number(7)
    assert not kb.error.visible
    # Backspace and Clear too
    for undo in ("backspace", "clear"):
        kb = PieceKeyboard("tile_rummy", "Rack")
        three_red_fives(kb)
        getattr(kb, undo)()
        assert not kb.error.visible, undo


def test_only_the_refusal_still_shown_goes_by_itself() -> None:
    kb = PieceKeyboard("tile_rummy", "Rack")
    gone: list[bool] = []
    kb.on_quiet = lambda: gone.append(True)
    three_red_fives(kb)
    first = kb._refusal
    assert not kb.press_number(5)  # refused again: a new refusal, shown its full time
    assert not kb.quiet(first) and kb.error.visible and gone == []
    assert kb.quiet(kb._refusal) and not kb.error.visible and gone == [True]
    assert not kb.quiet()  # nothing left to take away
    assert kb.pieces == ["R5", "R5"]  # the tiles stay


def test_the_pad_line_says_the_refusal_then_goes_back_to_the_row() -> None:
    pad = KeyPad("tile_rummy", players=2)
    row = PieceKeyboard("tile_rummy", "Bob", grid=True, keys_at="elsewhere")
    pad.bind(row, "Bob", "2 tiles", None)
    for _ in range(2):
        assert pad.board.press("R5")
        pad.bind(row, "Bob", "2 tiles", None)
    assert not pad.board.press("R5")  # the pad shows the row's refusal
    assert pad.line.value == row.error.value
    assert row.said.live_region  # said once, by the row's line (the pad's is no live region)
    assert row.quiet()
    assert pad.line.value == "2 tiles"
    other = PieceKeyboard("tile_rummy", "Ala", grid=True, keys_at="elsewhere")
    pad.bind(other, "Ala", "", None)
    assert row.on_quiet is None and other.on_quiet is not None  # the pad follows its row


class StandInPage:
    """What the keyboard's timer needs of a page: run a task, draw again."""

    def __init__(self) -> None:
        self.tasks: list[Callable[[], Awaitable[None]]] = []
        self.drawn = 0

    def run_task(self, handler: Callable[[], Awaitable[None]]) -> None:
        self.tasks.append(handler)

    def update(self) -> None:
        self.drawn += 1


def test_the_refusal_goes_after_a_while_on_a_page(monkeypatch: pytest.MonkeyPatch) -> None:
    page = StandInPage()
    monkeypatch.setattr(ft.Text, "page", property(lambda _self: page))
    monkeypatch.setattr(keyboard, "REFUSAL_SECONDS", 0.0)
    kb = PieceKeyboard("tile_rummy", "Rack")
    three_red_fives(kb)
    assert len(page.tasks) == 1
    asyncio.run(page.tasks[0]())  # the time is up
    assert not kb.error.visible and page.drawn == 1
    # a refusal replaced by a valid tap meanwhile: its timer changes nothing
    kb = PieceKeyboard("tile_rummy", "Rack")
    page.tasks.clear()
    three_red_fives(kb)
    kb.pick_family("B")
    assert kb.press_number(7)
    asyncio.run(page.tasks[0]())
    assert not kb.error.visible and page.drawn == 1  # nothing to draw again


def test_the_live_region_is_never_an_empty_semantics() -> None:
    """Flet draws a red "Semantics.content must be provided and visible" box over the keys
    when a visible Semantics holds an invisible control (seen on the photo review's keys in
    Polish): the live region shows exactly while its refusal does."""
    kb = PieceKeyboard("tile_rummy", "Rack")
    assert not kb.said.visible and not kb.error.visible
    three_red_fives(kb)
    assert kb.said.visible and kb.error.visible
    assert kb.quiet(kb._refusal)
    assert not kb.said.visible and not kb.error.visible
    kb = PieceKeyboard("tile_rummy", "Rack")
    three_red_fives(kb)
    kb.set_pieces(["B7"])
    assert not kb.said.visible and not kb.error.visible
    for undo in ("backspace", "clear"):
        kb = PieceKeyboard("tile_rummy", "Rack")
        three_red_fives(kb)
        getattr(kb, undo)()
        assert not kb.said.visible, undo
