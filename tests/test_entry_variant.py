"""The round-entry forms ask the variant (app/games/variants.py), not its name (issue 14,
point 2): gin's hand sizes (10, the knocker 11) and typed deadwood (0–100, RULES.md §5), solo
mode, the penalty draw's 3 tiles (§4). A variant described with other limits gets a form with
those limits: the numbers are not restated in the view.
"""

from __future__ import annotations

import dataclasses

import pytest

from app.games import VariantInfo, about
from app.i18n import use_language
from app.ui.entry import entry_forms
from app.ui.entry.entry_forms import FormError, GinForm, GinSoloForm, TilesForm, make_form
from rules.variant import GIN, TILE_RUMMY, PenaltyDraws, Variant

GIN_HAND = ["AS", "2S", "3S", "7H", "7D", "7C", "9C", "10C", "JC", "4D"]  # deadwood: 4D (§5)


def texts(form: entry_forms.EntryForm) -> str:
    import flet as ft

    return "\n".join(str(c.value) for c in form.controls if isinstance(c, ft.Text))


def described(monkeypatch: pytest.MonkeyPatch, rules: Variant) -> None:
    """The forms see ``rules`` as their variant's description."""
    monkeypatch.setattr(entry_forms, "about", lambda _name: VariantInfo(rules.name, rules))


def test_gin_typed_deadwood_is_the_variants_range() -> None:
    form = make_form("gin", {}, ["Ala", "Bob"], lambda: None)
    assert isinstance(form, GinForm)
    form.knocker.set("Ala")
    form.mode.set("deadwood")
    form.deadwood["Ala"].value, form.deadwood["Bob"].value = "100", "0"
    assert [p["deadwood"] for p in form.entry()["players"]] == [100, 0]
    form.deadwood["Ala"].value = "101"
    with pytest.raises(FormError):
        form.entry()
    assert form.deadwood["Ala"].error == "Enter a number from 0 to 100"


def test_a_variant_with_another_deadwood_range_gets_it(monkeypatch: pytest.MonkeyPatch) -> None:
    described(monkeypatch, dataclasses.replace(GIN, typed_deadwood=(0, 50)))
    form = make_form("gin", {}, ["Ala", "Bob"], lambda: None)
    assert isinstance(form, GinForm)
    form.knocker.set("Ala")
    form.mode.set("deadwood")
    form.deadwood["Ala"].value, form.deadwood["Bob"].value = "51", "3"
    with pytest.raises(FormError):
        form.entry()
    assert form.deadwood["Ala"].error == "Enter a number from 0 to 50"
    solo = make_form("gin", {"mode": "solo"}, ["Ala"], lambda: None)
    assert isinstance(solo, GinSoloForm) and solo.typed_deadwood == (0, 50)


def test_the_hand_is_analysed_at_the_variants_hand_sizes(monkeypatch: pytest.MonkeyPatch) -> None:
    form = make_form("gin", {}, ["Ala", "Bob"], lambda: None)
    assert isinstance(form, GinForm)
    hand = form.hands["Ala"]
    assert hand.sizes == about("gin").hand_sizes == (10, 11)
    hand.pieces.set_pieces(GIN_HAND[:9])
    hand.analyse()
    assert hand.info.value == "9 cards"
    hand.pieces.set_pieces(GIN_HAND)
    hand.analyse()
    assert "deadwood 4" in str(hand.info.value)
    described(monkeypatch, dataclasses.replace(GIN, hand_sizes=(9,)))
    nine = make_form("gin", {}, ["Ala", "Bob"], lambda: None)
    assert isinstance(nine, GinForm)
    nine.hands["Ala"].pieces.set_pieces(GIN_HAND)
    nine.hands["Ala"].analyse()
    assert nine.hands["Ala"].info.value == "10 cards"  # not a hand of this variant's size


def test_solo_mode_is_the_variants_own() -> None:
    assert isinstance(make_form("gin", {"mode": "solo"}, ["Ala"], lambda: None), GinSoloForm)
    assert isinstance(make_form("gin", {"mode": "pair"}, ["Ala", "Bob"], lambda: None), GinForm)
    assert not isinstance(
        make_form("carousel", {"mode": "solo"}, ["A", "B"], lambda: None), GinSoloForm
    )


@pytest.mark.parametrize("variant", ["tile_rummy", "my_rummy"])
def test_the_penalty_note_gives_the_variants_tiles(variant: str) -> None:
    form = make_form(variant, {}, ["Ala", "Bob"], lambda: None)
    assert isinstance(form, TilesForm)
    assert "Penalty draws (3 tiles each, for an invalid turn or the timer)" in texts(form)


@pytest.mark.parametrize(
    ("tiles", "lang", "words"),
    [
        (3, "en", "(3 tiles each,"),
        (1, "en", "(1 tile each,"),
        (3, "pl", "(po 3 płytki,"),
        (5, "pl", "(po 5 płytek,"),
        (1, "sk", "(po 1 kameni,"),
        (5, "sk", "(po 5 kameňov,"),
    ],
)
def test_another_penalty_draw_is_said_in_every_language(
    monkeypatch: pytest.MonkeyPatch, tiles: int, lang: str, words: str
) -> None:
    penalty = PenaltyDraws(tiles=tiles, take_back=False)
    described(monkeypatch, dataclasses.replace(TILE_RUMMY, penalty=penalty))
    with use_language(lang):
        form = make_form("tile_rummy", {}, ["Ala", "Bob"], lambda: None)
        assert words in texts(form)


def test_solo_cards_turned_are_the_variants_range(monkeypatch: pytest.MonkeyPatch) -> None:
    form = make_form("gin", {"mode": "solo"}, ["Ala"], lambda: None)
    assert isinstance(form, GinSoloForm)
    form.result.set("knock")
    form.mode.set("deadwood")
    form.deadwood.value, form.turned.value = "3", "45"
    assert form.entry()["turned"] == 45
    form.turned.value = "46"
    with pytest.raises(FormError):
        form.entry()
    assert form.turned.error == "Enter a number from 1 to 45"
    described(monkeypatch, dataclasses.replace(GIN, solo_turned=(1, 30)))
    other = make_form("gin", {"mode": "solo"}, ["Ala"], lambda: None)
    assert isinstance(other, GinSoloForm)
    other.result.set("knock")
    other.mode.set("deadwood")
    other.deadwood.value, other.turned.value = "3", "31"
    with pytest.raises(FormError):
        other.entry()
    assert other.turned.error == "Enter a number from 1 to 30"
