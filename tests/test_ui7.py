"""Session 7 screen fixes a fresh tester tripped over: the gin's deadwood 0 filled in, each
variant's own player count on a new game, no empty "Rules" heading, and round-entry labels
that are never cut (the name heads the player's card, the field says what it holds)."""

from __future__ import annotations

from typing import Any

import pytest

from app.ui.entry.entry_forms import GinForm, RestInput
from app.ui.home.new_game import NewGame
from app.ui.shell import App
from tests.conftest import visible_texts, walk
from tests.test_views import new_game_form, open_entry, save, start_game, totals

TYPED = object()  # a field's change event (the user typed): the form only checks it is not None


# -- 2. gin by deadwood: a gin is deadwood 0, filled in ------------------------------------------
def gin_form(app: App) -> tuple[Any, Any]:
    sheet = start_game(app, "gin", ["Ala", "Bob"])
    entry = open_entry(app, sheet)
    f: Any = entry.form
    f.knocker.pick("Ala")
    f.mode.pick("deadwood")
    return entry, f


def test_gin_fills_the_ginners_deadwood_with_0(app: App) -> None:
    entry, f = gin_form(app)
    assert f.deadwood["Ala"].value in (None, "")  # a plain knock: the deadwood is typed
    f.gin_kind["Ala"].pick("gin")
    assert f.deadwood["Ala"].value == "0"
    f.deadwood["Bob"].value = "20"
    sheet = save(app, entry)  # nothing else to type: §5 gin 25 + 20
    assert totals(sheet) == {"Ala": "45", "Bob": "0"}


def test_big_gin_fills_0_too_and_a_typed_number_stays(app: App) -> None:
    sheet = start_game(app, "gin", ["Ala", "Bob"], big_gin_bonus=31)
    entry = open_entry(app, sheet)
    f: Any = entry.form
    f.knocker.pick("Bob")
    f.mode.pick("deadwood")
    f.deadwood["Bob"].value = "7"  # typed before the gin: not overwritten
    f.gin_kind["Bob"].pick("big_gin")
    assert f.deadwood["Bob"].value == "7"
    f.deadwood["Ala"].value = "10"
    assert not entry.check()  # still refused: gin is deadwood 0
    assert "deadwood 0" in (entry.error.content.value or "")  # type: ignore[union-attr]


def test_a_changed_gin_deadwood_is_still_refused(app: App) -> None:
    entry, f = gin_form(app)
    f.gin_kind["Ala"].pick("gin")
    f.deadwood["Ala"].value = "5"
    f.deadwood["Bob"].value = "20"
    assert not entry.check()
    assert "gin is deadwood 0" in (entry.error.content.value or "")  # type: ignore[union-attr]


def test_the_filled_0_goes_with_the_gin(app: App) -> None:
    entry, f = gin_form(app)
    f.gin_kind["Ala"].pick("gin")
    f.gin_kind["Ala"].pick("knock")  # changed her mind: a knock's deadwood is typed again
    assert f.deadwood["Ala"].value == ""
    f.gin_kind["Ala"].pick("gin")
    f.knocker.pick("Bob")  # Bob knocked after all: Ala's 0 was the form's, not hers
    assert f.deadwood["Ala"].value == ""
    assert f.deadwood["Bob"].value in (None, "")
    f.knocker.pick("Ala")  # back to Ala, her gin still chosen
    assert f.deadwood["Ala"].value == "0"


def test_a_0_typed_by_hand_is_kept(app: App) -> None:
    entry, f = gin_form(app)
    f.deadwood["Ala"].value = "0"
    f.gin_kind["Ala"].pick("gin")
    f.gin_kind["Ala"].pick("knock")
    assert f.deadwood["Ala"].value == "0"  # a knock with deadwood 0 is a knock too


# -- 3. each variant opens with its own player count --------------------------------------------
def seats(ng: NewGame) -> int:
    return sum(1 for f in ng.names if f.visible)


def test_each_variant_opens_with_its_own_count(app: App) -> None:
    ng = new_game_form(app)
    for variant, n in [
        ("gin", 2),
        ("rummy101", 3),
        ("gin", 2),
        ("tile_rummy", 3),
        ("my_rummy", 3),
        ("carousel", 3),
    ]:
        ng.variant.pick(variant)
        assert (ng.count.value, seats(ng)) == (n, n), variant


def test_first_visit_after_a_gin_game_opens_rummy_with_3(app: App) -> None:
    app.store.set_setting("last_variant", "gin")
    ng = new_game_form(app)
    assert ng.count.value == 2
    ng.variant.pick("tile_rummy")
    assert ng.count.value == 3


def test_the_users_count_and_names_are_kept_as_far_as_the_variant_allows(app: App) -> None:
    ng = new_game_form(app, "rummy101")
    ng.count.set(4, notify=True)  # the + button
    for field, name in zip(ng.names, ["Ala", "Ola", "Ela", "Iza"], strict=False):
        field.value = name
    ng.variant.pick("gin")
    assert ng.count.value == 2 and ng.seat_names() == ["Ala", "Ola"]
    ng.variant.pick("carousel")
    assert ng.count.value == 4 and ng.seat_names() == ["Ala", "Ola", "Ela", "Iza"]


def test_typed_names_keep_their_seats(app: App) -> None:
    ng = new_game_form(app, "tile_rummy")
    ng.names[0].value = "Ala"
    ng._names_changed(TYPED)
    ng.variant.pick("gin")
    ng.variant.pick("rummy101")
    assert ng.count.value == 3  # the seats he was typing into, not the gin's two


def test_a_name_chip_adding_a_seat_keeps_the_seats(app: App) -> None:
    ng = new_game_form(app, "my_rummy")
    for name in ["Ala", "Ola", "Ela", "Iza"]:
        ng.add_known(name)
    assert ng.count.value == 4
    ng.variant.pick("gin")
    ng.variant.pick("tile_rummy")
    assert ng.count.value == 4 and ng.seat_names() == ["Ala", "Ola", "Ela", "Iza"]


# -- 4. no empty "Rules" heading ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("variant", "shown"),
    [("my_rummy", False), ("carousel", False), ("tile_rummy", True), ("gin", True)],
)
def test_rules_heading_only_over_presets(app: App, variant: str, shown: bool) -> None:
    ng = new_game_form(app, variant)
    assert ("Rules" in visible_texts(ng.view)) is shown
    assert ng.preset.control.visible is shown
    assert "Show all options" in visible_texts(ng.view, labels=True) or ng.options_toggle.visible


# -- 1. narrow number fields: the label is never cut --------------------------------------------
# The points and deadwood fields are 170 px wide; a dense field's 16 px label fits about 18
# characters there (the browser test's screenshots at 360 px: "Zostávajúce body", 16, fits with
# room to spare). The player's name, which heads the card already, is left to the screen reader.
FITS = 18
LONG = "Aleksandra Konstantynopolitańczykiewicz."  # 40 characters, the longest name allowed


@pytest.mark.parametrize("lang", ["en", "pl", "sk"])
def test_points_left_label_is_short_and_the_name_is_spoken(lang: str) -> None:
    from app.i18n import _, use_language

    with use_language(lang):
        rest = RestInput("tile_rummy", 3, LONG, lambda: None)
        shown, named = _("Points left"), _("{name}: points left").format(name=LONG)
    label: Any = rest.value.label
    assert label.value == shown and LONG not in shown
    assert len(shown) <= FITS, shown
    assert label.semantics_label == named
    assert label.max_lines is None  # one line or more: nothing is cut with "…"


@pytest.mark.parametrize("lang", ["en", "pl", "sk"])
def test_gin_deadwood_label_is_short_and_the_name_is_spoken(app: App, lang: str) -> None:
    from app.i18n import _, use_language

    sheet = start_game(app, "gin", [LONG, "Bob"])
    with use_language(lang):
        f = GinForm("gin", sheet.game.options, [LONG, "Bob"], lambda: None)
        shown, named = _("Deadwood"), _("{name}: deadwood").format(name=LONG)
    label: Any = f.deadwood[LONG].label
    assert (label.value, label.semantics_label) == (shown, named)
    assert len(shown) <= FITS, shown
    texts = [c.value for c in walk(f.deadwood[LONG]) if hasattr(c, "value")]
    assert not any(isinstance(t, str) and t.startswith(LONG) for t in texts)
