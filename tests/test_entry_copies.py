"""Too many copies of a piece across the hands (RULES.md §1): the judge names every player
holding it (``holders``) and the round entry marks each of their fields, not only the line
under the form."""

from __future__ import annotations

import json
from typing import Any

from app.ui.shell import App
from rules.judge import answer
from tests.test_views import open_entry, start_game


def judge(variant: str, **round_: Any) -> dict[str, Any]:
    got: dict[str, Any] = answer({"check": "round", "variant": variant, **round_})
    return json.loads(json.dumps(got))


def test_rummy101_jokers_typed_and_tapped_name_both_holders() -> None:
    # Ola taps R5 JK, Ela types 17 points with 2 jokers: 3 jokers, the set holds 2; Iza
    # holds no joker and Ala won (no rest)
    a = judge(
        "rummy101",
        finish="normal",
        players=[
            {"name": "Ala", "winner": True},
            {"name": "Ola", "opened": "melds", "hand": ["R5", "JK"]},
            {"name": "Ela", "opened": "melds", "hand_value": 17, "jokers": 2},
            {"name": "Iza", "opened": "melds", "hand": ["R5"]},
        ],
    )
    assert (a["valid"], a["reason"]) == (False, "too_many_copies")
    assert a["holders"] == ["Ola", "Ela"]
    assert a["params"]["piece"] == "JK" and a["params"]["n"] == 3


def test_tile_rummy_and_carousel_name_every_holder_of_the_piece() -> None:
    t = judge(
        "tile_rummy",
        players=[
            {"name": "A", "winner": True},
            {"name": "B", "hand": ["R5", "B1", "R5"]},
            {"name": "C", "hand": ["B2"]},
            {"name": "D", "hand": ["R5"]},
        ],
    )
    assert (t["reason"], t["holders"]) == ("too_many_copies", ["B", "D"])
    c = judge(
        "carousel",
        knocker="C",
        players=[
            {"name": "A", "hand": ["5H", "2C"]},
            {"name": "B", "hand": ["5H", "5H"]},
            {"name": "C", "hand": ["3C"]},
        ],
    )
    assert (c["reason"], c["holders"]) == ("too_many_copies", ["A", "B"])
    # the set is named as a set that holds: "the set of two 53-card decks holds only 2"
    assert "the set of two 53-card decks holds only 2" in c["message"]


def test_rummy101_entry_marks_each_holder_of_the_third_joker(app: App) -> None:
    sheet = start_game(app, "rummy101", ["Ala", "Ola", "Ela", "Iza"])
    entry = open_entry(app, sheet)
    f: Any = entry.form
    f.winner.pick("Ala")
    f.opened["Ola"].pick("melds")
    f.rests["Ola"].mode.pick("tiles")
    f.rests["Ola"].tiles.field.value = "R5 JK"
    f.changed()
    f.opened["Ela"].pick("melds")
    f.rests["Ela"].value.value = "17"
    f.rests["Ela"].jokers.set(2, notify=True)
    f.opened["Iza"].pick("melds")
    f.rests["Iza"].value.value = "5"
    f.changed()
    assert not entry.check()
    ola = f.rests["Ola"].tiles.field.error
    ela = f.rests["Ela"].value.error
    assert ola and "3 × JK" in ola and ola == ela  # the same line at both holders
    assert not f.rests["Iza"].value.error  # no joker: nothing to fix there
    assert entry.error.visible  # and the line under the form stays
    # one joker fewer: the round scores
    f.rests["Ela"].jokers.set(1, notify=True)
    assert entry.check()


def test_tile_rummy_entry_marks_both_racks_with_the_third_copy(app: App) -> None:
    sheet = start_game(app, "tile_rummy", ["Ala", "Bob", "Cyd"])
    entry = open_entry(app, sheet)
    f: Any = entry.form
    f.outcome.pick("Ala")
    for name, tiles in (("Bob", "R5 R5 B1"), ("Cyd", "R5 K2")):
        f.rests[name].mode.pick("tiles")
        f.rests[name].tiles.field.value = tiles
    f.changed()
    assert not entry.check()
    for name in ("Bob", "Cyd"):
        err = f.rests[name].tiles.field.error
        assert err and "3 × R5" in err, (name, err)
