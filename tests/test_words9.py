"""Small wording leftovers (session 9), without a browser: the tiles field's label without the
player's name, the knock limit 0 in the round entry's hint and on the score sheet, and the
jokers of a rack entered as points in their plural forms. Expected words are worked out from
RULES.md §4–§6 and the catalogues."""

from __future__ import annotations

from typing import Any

import flet as ft
import pytest

from app.i18n import use_language
from app.ui.common import labels
from app.ui.entry.entry_forms import CarouselForm, GinForm, RestInput
from app.ui.entry.round_entry import entry_summary
from app.ui.shell import App
from tests.conftest import visible_texts, walk
from tests.test_views import open_entry, start_game

KNOCK_4 = "AS 2S 3S 7H 7D 7C 9C 10C JC 4D"
"""§5: A-2-3 of spades, three 7s, 9-10-J of clubs and the 4 of diamonds: deadwood 4."""


@pytest.mark.parametrize(
    ("lang", "shown", "named"),
    [
        ("en", "Tiles left", "Zosia: tiles left"),
        ("pl", "Pozostałe płytki", "Zosia: pozostałe płytki"),
        ("sk", "Zostávajúce kamene", "Zosia: zostávajúce kamene"),
    ],
)
def test_the_tiles_field_is_labelled_without_the_name(lang: str, shown: str, named: str) -> None:
    """As "Points left" beside it: the name heads the player's card; a screen reader (and a
    browser test) still hears the field with the name."""
    with use_language(lang):
        rest = RestInput("tile_rummy", 2, "Zosia", lambda: None)
    label = rest.tiles.field.label
    assert isinstance(label, ft.Text)
    assert (label.value, label.semantics_label) == (shown, named)
    points = rest.value.label
    assert isinstance(points, ft.Text) and points.value != label.value  # two fields, two names


@pytest.mark.parametrize(
    ("lang", "shown", "named"),
    [
        ("en", "Hand", "Zosia: hand"),
        ("pl", "Ręka", "Zosia: ręka"),
        ("sk", "Ruka", "Zosia: ruka"),
    ],
)
def test_the_hand_field_is_labelled_without_the_name(lang: str, shown: str, named: str) -> None:
    """Gin and Carousel hands as the racks: the card is headed by the name already."""
    with use_language(lang):
        for form in (
            GinForm("gin", {}, ["Zosia", "Bob"], lambda: None),
            CarouselForm("carousel", {}, ["Zosia", "Bob", "Cel"], lambda: None),
        ):
            label = form.hands["Zosia"].pieces.field.label
            assert isinstance(label, ft.Text)
            assert (label.value, label.semantics_label) == (shown, named)


def knocker_hint(form: Any, who: str, hand: str) -> str:
    form.knocker.pick(who)
    for card in hand.split():  # tapped on the keys
        assert form.hands[who].pieces.keyboard.press(card)
    return str(form.hands[who].info.value)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "may not knock: only gin goes down, and the deadwood is 4"),
        ("pl", "nie można stukać: rundę kończy tylko gin, a w martwych kartach jest 4 pkt"),
        ("sk", "nemôže klopať: kolo ukončí len gin a mŕtve karty majú 4"),
    ],
)
def test_the_gin_knockers_hint_under_knock_limit_0(lang: str, said: str) -> None:
    """§5 with the house option knock_max 0: the knocker's deadwood 4 is not "over the limit
    0": only gin goes down."""
    with use_language(lang):
        form = GinForm("gin", {"preset": "seed", "knock_max": 0}, ["Ala", "Bob"], lambda: None)
        shown = knocker_hint(form, "Ala", KNOCK_4)
        assert shown.endswith(said), shown
        assert " 0" not in shown.split("·")[-1]  # no limit of 0 read out
        seed = GinForm("gin", {"preset": "seed", "knock_max": 3}, ["Ala", "Bob"], lambda: None)
        over = knocker_hint(seed, "Ala", KNOCK_4)  # any other limit: the number stands
    assert over.endswith({"en": "over the limit 3", "pl": "limit 3", "sk": "limitom 3"}[lang])


def test_the_carousel_knockers_hint_under_knock_limit_0() -> None:
    """§6 with knock_max 0: a hand worth 3 (ace 1 + 2) cannot knock; the line says a knock
    needs a hand worth 0."""
    form = CarouselForm("carousel", {"knock_max": 0}, ["Ala", "Bob", "Cel"], lambda: None)
    shown = knocker_hint(form, "Ala", "AS 2S")
    assert shown.endswith("may not knock: a knock needs a hand worth 0, this one is 3"), shown
    with use_language("pl"):
        form = CarouselForm("carousel", {"knock_max": 0}, ["Ala", "Bob", "Cel"], lambda: None)
        shown = knocker_hint(form, "Ala", "AS 2S")
    assert shown.endswith("stukać można tylko z ręką wartą 0, a ta jest warta 3"), shown


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", "Rules: Original (default) · gin only, no knocking"),
        ("pl", "Zasady: Z opisu gry (domyślne) · tylko gin, bez stukania"),
        ("sk", "Pravidlá: Pôvodné (predvolené) · len gin, bez klopania"),
    ],
)
def test_the_score_sheet_says_knock_limit_0_in_words(app: App, lang: str, line: str) -> None:
    """Was "Knock with at most (points): 0", which reads as no limit at all (§5)."""
    with use_language(lang):
        app.language = lang
        sheet = start_game(app, "gin", ["Ala", "Bob"], knock_max=0)
        shown = [t for t in visible_texts(sheet.view) if t.startswith(line.split(":")[0])]
    assert shown and shown[0].startswith(line), shown


def test_a_changed_option_is_named_in_words() -> None:
    """The rules line's changed options: on/off and choices by their names, never True or an
    option's id; any knock limit but 0 as its number."""
    assert labels.changed_option("gin", "knock_max", 5) == "Knock with at most (points): 5"
    assert labels.changed_option("gin", "knock_max", 0) == "gin only, no knocking"
    assert labels.changed_option("carousel", "knock_max", 0) == "knock only with a hand worth 0"
    assert labels.changed_option("gin", "undercut_on_tie", True) == (
        "A tie undercuts the knocker: on"
    )
    assert labels.changed_option("gin", "undercut_on_tie", False).endswith(": off")
    rule = labels.changed_option("tile_rummy", "joker_rule", "match")
    assert rule == "Joker rule: level 1 (match)", rule
    with use_language("pl"):
        assert labels.changed_option("gin", "knock_max", 5) == "Limit stukania (punkty): 5"
        assert labels.changed_option("gin", "undercut_on_tie", True).endswith(": tak")


@pytest.mark.parametrize(
    ("lang", "forms"),
    [
        ("en", ("1 joker", "2 jokers", "5 jokers")),
        ("pl", ("1 joker", "2 jokery", "5 jokerów")),
        ("sk", ("1 žolík", "2 žolíky", "5 žolíkov")),
    ],
)
def test_the_jokers_of_a_rack_in_points_have_their_plurals(
    lang: str, forms: tuple[str, ...]
) -> None:
    """A round's summary of a rack entered as points (§4: 10 points and jokers), was
    "{n} joker(s)"."""
    said = []
    with use_language(lang):
        for n in (1, 2, 5):
            entry = {"players": [{"name": "Ola", "hand_value": 10, "jokers": n}]}
            said.append(entry_summary(entry, "tiles")[-1].split(", ")[-1])
    assert tuple(said) == forms


def test_a_penalty_draw_is_a_line_of_its_own_under_the_rack(app: App) -> None:
    """§4: Ala empties the rack; Bob holds R5 JK (5 + 30 = 35) and drew 3 penalty tiles. The
    sentence about the draw was run on after "» −35" ("» −35 Drew 3 …")."""
    sheet = start_game(app, "tile_rummy", ["Ala", "Bob"])
    entry = open_entry(app, sheet)
    f: Any = entry.form
    f.outcome.pick("Ala")
    f.rests["Bob"].mode.pick("tiles")
    f.rests["Bob"].tiles.field.value = "R5 JK"
    f.penalties["Bob"].set(1, notify=True)
    assert entry.check()
    bob = [t for t in visible_texts(entry.preview) if "Drew 3" in t]
    assert len(bob) == 1, bob
    rack, drew = bob[0].split("\n")
    assert rack.endswith("35 » \u221235"), rack
    assert drew == (
        "Drew 3 penalty tiles this round: they went onto the rack, so they are in the sum above."
    )
    spoken = [
        str(c.label)
        for c in walk(entry.preview)
        if isinstance(c, ft.Semantics) and str(c.label or "").startswith("Bob: ")
    ]
    assert spoken == [f"Bob: \u221235. {rack}. {drew}"], spoken
