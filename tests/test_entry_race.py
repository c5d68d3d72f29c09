"""Round entry keeps the card keys where the finger is (without a browser): a tap of a choice
does not move open keys, and nothing above open keys changes height as cards are tapped or
taken back. The timing itself (a tap 0.2 s after another) is in
tests/browser/test_entry_race.py."""

from __future__ import annotations

from typing import Any

from app.ui.entry.entry_forms import (
    INFO_HEIGHT,
    INFO_LINES,
    CarouselForm,
    GinForm,
    GinSoloForm,
    HandInput,
)

# melds A-2-3♠, 7-7-7, 9-10-J♣; deadwood 4♦ (RULES.md §5)
ALA = ["AS", "2S", "3S", "7H", "7D", "7C", "9C", "10C", "JC", "4D"]


def steady(hand: HandInput) -> bool:
    """What lies above the hand's keys keeps one height: the line about the hand in a box of
    fixed height, at most INFO_LINES lines, the text field two lines high."""
    return (
        hand.info_box.height == INFO_HEIGHT
        and hand.info.max_lines == INFO_LINES
        and hand.pieces.field.min_lines == 2
    )


def loose(hand: HandInput) -> bool:
    """Keys closed: the line takes what it needs (all of it shows)."""
    return hand.info_box.height is None and hand.info.max_lines is None


def test_gin_the_line_over_open_keys_keeps_its_height_through_taps_and_backspace() -> None:
    f = GinForm("gin", {}, ["Ala", "Bob"], lambda: None)
    ala, bob = f.hands["Ala"], f.hands["Bob"]
    assert ala.pieces.keyboard.keys_box.visible and steady(ala)
    assert not bob.pieces.keyboard.keys_box.visible and loose(bob)
    assert bob.pieces.field.min_lines == 2  # a gin hand is always two lines high
    f.knocker.pick("Ala")
    for c in ALA:
        assert ala.pieces.keyboard.press(c)
        if c != ALA[-1]:
            assert steady(ala)
    # the tenth card hands the keys to Bob: Ala's line shows all of its melds again
    assert loose(ala) and steady(bob)
    assert "deadwood 4" in ala.info.value and "may knock" in ala.info.value
    ala.pieces.keyboard.focus()  # back to Ala's hand (a wrong card to take back)
    assert steady(ala) and loose(bob)
    ala.pieces.keyboard.backspace()  # ten cards to nine: the line shrinks, its box does not
    assert steady(ala) and ala.info.value == "9 cards"
    ala.pieces.keyboard.clear()
    assert steady(ala) and ala.info.value == ""


def test_carousel_the_knockers_growing_line_does_not_push_the_keys() -> None:
    f = CarouselForm("carousel", {}, ["Ala", "Bob", "Cel"], lambda: None)
    ala, bob = f.hands["Ala"], f.hands["Bob"]
    f.knocker.pick("Ala")
    assert steady(ala) and loose(bob)
    assert bob.pieces.field.min_lines == 1  # closed, an empty Carousel hand is one line
    assert ala.pieces.keyboard.press("KS")
    # RULES.md §6: 10 is over the knock limit 5; the line is two lines long at 360 px
    assert "may not knock" in ala.info.value and steady(ala)
    bob.pieces.keyboard.focus()
    assert loose(ala) and ala.pieces.field.min_lines == 1 and steady(bob)


def test_solo_cards_turned_is_there_before_knocked_is_tapped() -> None:
    f = GinSoloForm("gin", {"mode": "solo"}, ["Ala"], lambda: None)
    ala = f.hands["Ala"]
    assert ala.pieces.keyboard.keys_box.visible and steady(ala)
    assert f.turned.visible and not f.turned.disabled
    f.result.pick("knock")  # nothing appears above the keys
    assert f.turned.visible and not f.turned.disabled
    f.turned.value = "99"
    f.turned.error = "Enter a number from 1 to 45"
    f.result.pick("second_joker")  # not asked for: switched off where it is
    assert f.turned.visible and f.turned.disabled and f.turned.error is None
    f.mode.pick("deadwood")
    f.deadwood.value = "12"
    entry: dict[str, Any] = f.entry()
    assert entry["result"] == "second_joker" and "turned" not in entry
