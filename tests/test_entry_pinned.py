"""Round entry's one set of piece keys, pinned below the scrolling part of the screen (without
a browser): every variant's form has one pad whose keys are the same controls, in the same
places, whatever is entered; a full hand, another hand chosen or a refused tap changes what
the keys edit, never the pad's controls; refusals show in the hand and on the pad's one line
of fixed height; people who type get the screen to themselves. The taps a finger makes in a
browser are in tests/browser/test_entry_pinned.py.

Values worked out by hand from RULES.md (section named at each)."""

from __future__ import annotations

from typing import Any

import flet as ft
import pytest

from app.ui.common.keyboard import PAD_ID, PAD_LINE_HEIGHT, KeyPad
from app.ui.entry.entry_forms import (
    CarouselForm,
    GinForm,
    GinSoloForm,
    Rummy101Form,
    TilesForm,
    make_form,
)
from app.ui.entry.round_entry import RoundEntry
from app.ui.shell import App
from tests.test_views import open_entry, save, start_game, totals

# melds A-2-3♠, 7-7-7, 9-10-J♣; deadwood 4♦ (RULES.md §5)
ALA = ["AS", "2S", "3S", "7H", "7D", "7C", "9C", "10C", "JC", "4D"]
# K-K-K; 43, Q♣ lays off onto 9-10-J♣: 33
BOB = ["KS", "KH", "KD", "8H", "9H", "2D", "3C", "6C", "5H", "QC"]


def layout(pad: KeyPad) -> list[int]:
    """The ids of the pad's controls from its top down to every key (not inside a key, nor
    the pieces drawn in their row of fixed height): the same list means nothing was put in
    above a key or taken out."""
    out: list[int] = []
    stop = {id(pad.drawn), *(id(k) for k in pad.board.grid_keys.values())}

    def walk(c: Any) -> None:
        out.append(id(c))
        if id(c) in stop:
            return
        content = getattr(c, "content", None)
        if isinstance(content, ft.Control):
            walk(content)
        for child in getattr(c, "controls", None) or []:
            walk(child)

    walk(pad.control)
    return out


def heights(pad: KeyPad) -> tuple[Any, ...]:
    """The fixed heights above the keys (name line, pieces, the line about them)."""
    column = pad.frame.content
    assert isinstance(column, ft.Column)
    head, pieces, line = column.controls[:3]
    assert isinstance(pieces, ft.Semantics) and isinstance(pieces.content, ft.Stack)
    return head.height, pieces.content.height, line.height, pad.line.max_lines


FORMS = [
    ("gin", {}, ["Ala", "Bob"]),
    ("carousel", {}, ["Ala", "Bob", "Cel"]),
    ("rummy101", {}, ["Ala", "Bob", "Cel"]),
    ("tile_rummy", {}, ["Ala", "Bob"]),
    ("my_rummy", {}, ["Ala", "Bob"]),
    ("gin", {"mode": "solo"}, ["Ala", "joker"]),
]


@pytest.mark.parametrize(("variant", "options", "names"), FORMS)
def test_every_round_entry_form_has_one_pad_of_53_or_52_keys(
    variant: str, options: dict[str, Any], names: list[str]
) -> None:
    f = make_form(variant, options, names, lambda: None)
    pad = f.pad
    assert pad is not None and pad.control.visible is not None
    # cards: 52 (gin has no jokers; Carousel 52 + the joker key), tiles 52 + the joker
    assert len(pad.board.grid_keys) == (52 if variant == "gin" else 53)
    inputs = f.keys.inputs  # type: ignore[attr-defined]
    assert inputs and all(not i.keyboard.grid_keys for i in inputs)  # no keys of their own
    assert pad.control.identifier == PAD_ID == "pinned-keys"  # tests/browser find it so
    assert heights(pad) == (36, pad.pieces.content.height, PAD_LINE_HEIGHT, 2)  # type: ignore[union-attr]


def test_gin_a_full_hand_another_hand_and_a_refusal_leave_every_key_in_place() -> None:
    f = GinForm("gin", {}, ["Ala", "Bob"], lambda: None)
    pad = f.pad
    assert pad is not None
    ala, bob = f.hands["Ala"].pieces.keyboard, f.hands["Bob"].pieces.keyboard
    assert pad.target is ala and pad.control.visible and pad.title.value == "Ala"
    before, high = layout(pad), heights(pad)
    f.knocker.pick("Ala")
    for c in ALA:
        assert pad.board.press(c)
        assert layout(pad) == before and heights(pad) == high
    # (a) the tenth card: the keys now enter Bob's hand, the pad did not change
    assert pad.target is bob and pad.title.value == "Bob" and layout(pad) == before
    assert bob.keys_box.visible and not ala.keys_box.visible  # Bob's hand drawn as chosen
    assert ala.pieces_tap is not None and bob.pieces_tap is not None
    assert bob.pieces_tap.selected and not ala.pieces_tap.selected
    # (c) a refused tap: said in Bob's hand and on the pad's line, nothing put in above
    assert not pad.board.press("AS")
    assert bob.error.visible and bob.said in bob.control.controls and bob.said.content is bob.error
    assert pad.line.value == bob.error.value and layout(pad) == before
    assert heights(pad) == high
    assert pad.board.press("KS") and pad.line.value == "1 card"  # the line is the hand's again
    # (b) another hand tapped: the keys enter Ala's hand again
    ala.focus()
    assert pad.target is ala and layout(pad) == before
    assert "deadwood 4" in pad.line.value and "may knock" in pad.line.value
    assert pad.count.value == "10 cards" and pad.count.visible
    assert pad.pieces.label.startswith("Now entering: Ala: hand: ace of spades, 2 of spades")
    bob.focus()
    for c in BOB[1:]:
        assert pad.board.press(c)
    # every hand full: nothing is chosen, the keys go (the screen is the form's again)
    assert pad.target is None and not pad.control.visible


def test_typing_hides_the_keys_and_a_tap_on_the_pieces_brings_them_back() -> None:
    f = CarouselForm("carousel", {}, ["Ala", "Bob", "Cel"], lambda: None)
    pad = f.pad
    assert pad is not None and pad.control.visible
    bob = f.hands["Bob"].pieces
    assert bob.field.on_focus is not None
    bob.field.on_focus(None)  # the phone's own keyboard comes up: the keys go
    assert not pad.control.visible and pad.target is None
    bob.field.value = "KS QS"
    bob.keyboard.type_text("KS QS")
    assert bob.keyboard.pieces == ["KS", "QS"]
    bob.keyboard.focus()  # the drawn pieces tapped: the keys enter Bob's hand
    assert pad.control.visible and pad.target is bob.keyboard
    assert pad.board.grid_spoken["KS"].label.startswith("king of spades")
    assert f.hands["Ala"].pieces.keyboard.copies_left()["KS"] == 1  # two decks for 3 (§6)


def test_the_hide_button_and_points_mode_close_the_keys() -> None:
    f = Rummy101Form("rummy101", {}, ["Ala", "Ola", "Ela"], lambda: None)
    pad = f.pad
    assert pad is not None and not pad.control.visible  # points first: no keys
    f.winner.pick("Ala")
    f.opened["Ola"].pick("melds")
    f.rests["Ola"].mode.pick("tiles")
    assert pad.control.visible and pad.title.value == "Ola" and pad.count.value == "0 tiles"
    assert pad.board.press("R5") and pad.count.value == "1 tile"
    hide = pad.frame.content.controls[0].controls[-1]  # type: ignore[union-attr]
    assert isinstance(hide, ft.Semantics) and hide.label == "Hide the keys"
    assert hide.on_tap is not None
    hide.on_tap(None)  # type: ignore[call-arg]
    assert not pad.control.visible
    f.rests["Ola"].tiles.keyboard.focus()
    assert pad.control.visible and pad.target is f.rests["Ola"].tiles.keyboard


def test_the_round_entry_screen_pins_the_pad_below_its_scrolling_part(app: App) -> None:
    sheet = start_game(app, "gin", ["Ala", "Bob"])
    entry = open_entry(app, sheet)
    pad = entry.form.pad
    assert pad is not None and entry.body is not None
    assert entry.view.scroll is None and entry.body.scroll == ft.ScrollMode.AUTO
    assert entry.body.expand
    assert entry.view.controls[0] is entry.body  # the form scrolls …
    bottom = entry.view.controls[-1]
    assert isinstance(bottom, ft.ResponsiveRow)  # … the keys below it do not
    column = bottom.controls[0]
    assert isinstance(column, ft.Column) and column.controls == [pad.control]
    f: Any = entry.form
    f.knocker.pick("Ala")
    for c in [*ALA, *BOB]:
        assert pad.board.press(c)
    assert entry.check() and not pad.control.visible  # the breakdown gets the screen
    # RULES.md §5: Ala knocks with 4; Bob 43 − Q♣ laid off = 33: Ala 29
    sheet = save(app, entry)
    assert totals(sheet) == {"Ala": "29", "Bob": "0"}
    # editing the round: the pad shows the hand it enters with its cards loaded
    app.go(f"/game/{sheet.game.id}/round/1/edit")
    again = app.screen
    assert isinstance(again, RoundEntry) and again.form.pad is not None
    assert again.form.pad.target is again.form.hands["Ala"].pieces.keyboard  # type: ignore[attr-defined]
    assert again.form.pad.count.value == "10 cards"
    assert again.form.pad.board.grid_spoken["AS"].label == "ace of spades, in this hand"


def test_a_pieces_input_on_its_own_keeps_its_keys_under_it() -> None:
    from app.ui.entry.entry_forms import PiecesInput

    box = PiecesInput("tile_rummy", 2, "Rack", "R5", lambda: None)
    assert box.keyboard.keys_at == "own" and box.keyboard.keys_box in box.control.controls
    assert box.keyboard.press("R5") and box.keyboard.pieces == ["R5"]
    assert len(box.keyboard.grid_keys) == 53


def test_tiles_form_entered_on_the_pad_scores(app: App) -> None:
    sheet = start_game(app, "tile_rummy", ["Ala", "Ola"])
    entry = open_entry(app, sheet)
    f: Any = entry.form
    assert isinstance(f, TilesForm)
    f.outcome.pick("Ala")
    f.rests["Ola"].mode.pick("tiles")
    for c in ["R5", "B7", "JK"]:
        assert f.pad.board.press(c)
    assert f.rests["Ola"].tiles.field.value == "R5 B7 JK"
    sheet = save(app, entry)
    # RULES.md §4: Ola's rack 5 + 7 + a joker (30) = 42: Ola −42, Ala +42
    assert totals(sheet) == {"Ala": "42", "Ola": "\u221242"}


def test_gin_solo_hand_on_the_pad() -> None:
    f = GinSoloForm("gin", {"mode": "solo"}, ["Ala", "joker"], lambda: None)
    assert f.pad is not None and f.pad.control.visible and f.pad.title.value == "Ala"
    for c in ALA:
        assert f.pad.board.press(c)
    assert f.hands["Ala"].pieces.keyboard.pieces == ALA
