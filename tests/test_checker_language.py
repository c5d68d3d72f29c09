"""A checker left with pieces in it, the language switched in Settings, the checker opened
again: everything entered is still there, and the screen reads as one built in the new
language with the same taps (the retest of session 12 lost every tapped tile on the switch).

Each scenario is played twice: in Slovak, then carried over to Polish; and straight in Polish
on a second session. The two Polish screens must show the same words, pieces and verdict.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from app import i18n
from app.store import Store
from app.ui.common.keyboard import PieceKeyboard
from app.ui.referee import checkers
from app.ui.referee.checkers import (
    Checker,
    HandChecker,
    MeldChecker,
    OpeningChecker,
    TurnChecker,
    check_route,
)
from app.ui.shell import App
from tests.test_checkers import make_game, tap, tap_melds, text

Act = Callable[[Any], None]


def typed(kb: PieceKeyboard, text: str) -> None:
    """``text`` typed into the keyboard's field, as the browser sends it."""
    kb.field.value = text
    kb.type_text(text)


def meld_typed_wrong(s: MeldChecker) -> None:
    typed(s.keyboard, "R5 R6 Q7 R8")  # "Q7" is no tile: named under the field


def meld_as_run(s: MeldChecker) -> None:
    tap(s.keyboard, "R5", "JK", "R7")
    s.read_as.pick("run")


def meld_other_preset(s: MeldChecker) -> None:
    assert s.preset_chips is not None
    s.change_button.on_click(None)  # type: ignore[misc]
    s.preset_chips.pick("tiles50")
    tap(s.keyboard, "B9", "B10", "B11")


def opening_with_discard(s: OpeningChecker) -> None:
    tap_melds(s.melds, ["R10 R11 R12 R13", "B13 K13 Y13", "B9 B10"])  # the last one unfinished
    assert s.took is not None and s.discard is not None
    s.took.pick("yes")
    tap(s.discard, "B11")
    s.check()


def opening_rising(s: OpeningChecker) -> None:
    tap_melds(s.melds, ["R10 R11 R12 R13", "B13 K13 Y13", "B9 B10 B11"])
    assert s.highest is not None
    s.highest.value = "116"
    s.check()


def opening_not_checked(s: OpeningChecker) -> None:
    tap_melds(s.melds, ["R1 R2 R3"])
    s.melds.new_meld()
    typed(s.melds.keyboard, "K5 K5 K5 K5 K5")  # too many copies: named under the field


def turn_heap(s: TurnChecker) -> None:
    s.set_joker_rule(3)
    tap_melds(s.before, ["K1 K2 JK", "R1 R2 R3"])
    s.rack.focus()
    tap(s.rack, "R4")
    s.after_mode.pick("heap")
    s.copy_before()
    tap(s.heap, "R4")
    s.check()


def turn_melds(s: TurnChecker) -> None:
    tap_melds(s.before, ["R5 R6 R7"])
    s.rack.focus()
    tap(s.rack, "R8", "B2")
    s.copy_before()
    assert s.opened is not None
    s.opened.pick("no")
    s.after.select(0)
    tap(s.after.keyboard, "R8")
    s.check()


def turn_carousel_declared(s: TurnChecker) -> None:
    tap_melds(s.before, ["5H 6H JK"])
    s.after.focus()
    s.after.set_melds([[]])
    tap_melds(s.after, ["5H 6H JK 8H"])
    assert s.after.declare is not None
    s.after.declare.focus()
    typed(s.after.declare, "7H 9X")  # a bad declared card


def hand_gin(s: HandChecker) -> None:
    tap(s.keyboard, "AS", "2S", "3S", "4H", "4D", "4C", "9H", "10H", "JH", "KD", "QC")


def hand_short(s: HandChecker) -> None:
    tap(s.keyboard, "AS", "2S", "3S")


SCENARIOS: list[tuple[str, str, str, Act]] = [
    ("meld", "tile_rummy", "typed wrong", meld_typed_wrong),
    ("meld", "tile_rummy", "read as a run", meld_as_run),
    ("meld", "tile_rummy", "another preset", meld_other_preset),
    ("opening", "rummy101", "with the taken discard", opening_with_discard),
    ("opening", "tile_rummy", "not checked, typed wrong", opening_not_checked),
    ("turn", "tile_rummy", "as a heap, joker rule 3", turn_heap),
    ("turn", "tile_rummy", "initial meld, meld by meld", turn_melds),
    ("turn", "carousel", "declared jokers typed wrong", turn_carousel_declared),
    ("hand", "gin", "11 cards", hand_gin),
    ("hand", "gin", "too few", hand_short),
]


def played(app: App, route: str, act: Act) -> Checker:
    app.go(route)
    screen = app.screen
    assert isinstance(screen, Checker)
    with i18n.use_language(app.language):  # as the session's handlers run (i18n.bind_page)
        act(screen)
    return screen


def carried(app: App, route: str, act: Act, after: str = "pl") -> tuple[Checker, Checker]:
    """Played in Slovak, Settings → ``after``, the checker opened again."""
    app.set_language("sk")
    slovak = played(app, route, act)
    app.go("/")
    app.set_language(after)
    app.go(route)
    screen = app.screen
    assert isinstance(screen, Checker) and screen is not slovak
    return slovak, screen


def fresh(store: Store, route: str, act: Act, lang: str = "pl") -> Checker:
    other = App(store)
    other.show("/")
    other.set_language(lang)
    return played(other, route, act)


@pytest.mark.parametrize(
    ("kind", "variant", "act"),
    [pytest.param(k, v, a, id=f"{k}-{v}-{n}") for k, v, n, a in SCENARIOS],
)
def test_what_was_entered_survives_a_language_switch(
    app: App, store: Store, kind: str, variant: str, act: Act
) -> None:
    route = f"/check/{kind}?variant={variant}"
    slovak, polish = carried(app, route, act)
    straight = fresh(store, route, act)
    assert polish.rules.options == slovak.rules.options == straight.rules.options
    assert polish.inputs().keys() == slovak.inputs().keys()
    for name, mine in polish.inputs().items():
        theirs = slovak.inputs()[name]
        if mine is not None:
            assert getattr(mine, "value", None) == getattr(theirs, "value", None), name
    assert text(polish.view) == text(straight.view)
    # and it is Polish, not the Slovak words kept
    assert text(polish.view) != text(slovak.view)
    assert bool(polish.verdict.controls) == bool(straight.verdict.controls)


def test_a_typed_problem_is_named_again_in_the_new_language(app: App) -> None:
    slovak, polish = carried(app, "/check/meld?variant=tile_rummy", meld_typed_wrong)
    assert isinstance(slovak, MeldChecker) and isinstance(polish, MeldChecker)
    assert slovak.keyboard.problem and polish.keyboard.problem
    assert polish.keyboard.problem != slovak.keyboard.problem
    assert polish.keyboard.field.value == "R5 R6 Q7 R8"
    assert polish.keyboard.value == ["R5", "R6"]


def test_the_opening_keeps_its_unfinished_meld_and_discard(app: App) -> None:
    slovak, polish = carried(app, "/check/opening?variant=rummy101", opening_with_discard)
    assert isinstance(polish, OpeningChecker)
    assert polish.melds.value == [
        ["R10", "R11", "R12", "R13"],
        ["B13", "K13", "Y13"],
        ["B9", "B10"],
    ]
    assert polish.melds.active == 2
    assert polish.took is not None and polish.took.value == "yes"
    assert polish.discard is not None and polish.discard.value == ["B11"]
    assert polish.discard_box.visible
    assert polish.answer is not None and polish.answer == slovak.answer


def test_back_in_english_after_two_switches(app: App, store: Store) -> None:
    route = "/check/turn?variant=tile_rummy"
    _slovak, polish = carried(app, route, turn_heap)
    app.go("/")
    app.set_language("en")
    app.go(route)
    english = app.screen
    assert isinstance(english, TurnChecker) and english is not polish
    assert english.heap.value == ["K1", "K2", "JK", "R1", "R2", "R3", "R4"]
    assert english.heap_box.visible and not english.after.control.visible
    assert english.rules.typed.joker_rule == english.described.joker_rules[3]
    assert text(english.view) == text(fresh(store, route, turn_heap, "en").view)


def test_a_game_checker_keeps_its_rising_threshold(app: App, store: Store) -> None:
    game = make_game(store, "rummy101", ["Ala", "Ola"], preset="rising")
    route = check_route("opening", game_id=game.id)
    slovak, polish = carried(app, route, opening_rising)
    assert isinstance(polish, OpeningChecker) and polish.game is not None
    assert polish.highest is not None and polish.highest.value == "116"
    assert polish.answer is not None and polish.answer["needed"] == 117
    assert text(polish.view) == text(fresh(store, route, opening_rising).view)


def test_coming_back_from_the_rule_book_in_another_language(app: App) -> None:
    """The checker kept for the way back from its rule (keep_checker) is carried over too."""
    app.set_language("sk")
    slovak = played(app, "/check/meld?variant=tile_rummy", meld_as_run)
    checkers.keep_checker(app)
    app.go("/rules/tile_rummy")
    app.set_language("pl")
    app.go("/check/meld?variant=tile_rummy")
    polish = app.screen
    assert isinstance(polish, MeldChecker) and polish is not slovak
    assert polish.keyboard.value == ["R5", "JK", "R7"] and polish.read_as.value == "run"
    assert polish.answer is not None and polish.answer == slovak.answer
