"""Logic tests of the tile/card keyboard and the checkers, without a browser: build melds by
calling the keyboard's handlers (as taps would), ask for the verdict, read the controls.

Every expected verdict is worked out by hand from RULES.md (the section is named at each) and
JUDGE.md; the screens only draw what :func:`rules.judge.answer` says.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import flet as ft
import pytest

from app import games
from app.store import Store
from app.ui.common import labels
from app.ui.common.frame import MessageScreen
from app.ui.common.keyboard import MeldsEditor, PieceKeyboard
from app.ui.common.pieces import face, meld_label, meld_view, piece_name, piece_view
from app.ui.home.games_list import GamesList
from app.ui.referee import checkers
from app.ui.referee.checkers import (
    CheckHome,
    HandChecker,
    MeldChecker,
    OpeningChecker,
    TurnChecker,
    check_route,
    fault_refs,
    human_message,
    kinds_for,
    rule_route,
)
from app.ui.referee.turn_table import TableModel, place
from app.ui.sheet.score_sheet import ScoreSheet
from app.ui.shell import App
from rules import judge
from rules.options import JOKER_RULES
from tests import conftest


# -- helpers -------------------------------------------------------------------------------------
def walk(c: Any, visible_only: bool = True) -> Iterator[Any]:
    """``c`` and the controls under it (tests.conftest.walk), by default the visible ones only."""
    return conftest.walk(c, visible_only)


def texts(c: Any) -> list[str]:
    """Visible texts under ``c``."""
    return conftest.visible_texts(c)


def text(c: Any) -> str:
    return "\n".join(texts(c))


def spoken(c: Any) -> list[str]:
    """Accessible names under ``c``: Semantics labels and semantics_label of Text/Icon."""
    out = []
    for x in walk(c):
        if isinstance(x, ft.Semantics) and x.label:
            out.append(x.label)
        elif isinstance(x, ft.Text | ft.Icon) and x.semantics_label:
            out.append(x.semantics_label)
    return out


def tap(kb: PieceKeyboard, *pieces: str) -> None:
    """Enter ``pieces`` (notation) with the keys: family key when it changes, then the number
    key (joker key for JK)."""
    for p in pieces:
        if p == "JK":
            assert kb.press_joker(), kb.error.value
            continue
        if kb.material == "tiles":
            family, number = p[0], int(p[1:])
        else:
            rank, family = p[:-1], p[-1]
            number = {"A": 1, "J": 11, "Q": 12, "K": 13}.get(rank) or int(rank)
        if kb.family != family:
            kb.pick_family(family)
        assert kb.press_number(number), kb.error.value


def tap_melds(editor: MeldsEditor, melds: list[str]) -> None:
    """Enter melds given as notation strings, one after the other."""
    for i, m in enumerate(melds):
        if i or editor.keyboard.value:
            editor.new_meld()
        tap(editor.keyboard, *m.split())


def verdict_text(screen: checkers.Checker) -> str:
    return text(screen.verdict)


def make_game(store: Store, variant: str, players: list[str], **options: Any) -> games.Game:
    game = games.new_game(variant, players, options or None)
    return store.create_game(game)


# -- pieces --------------------------------------------------------------------------------------
def test_piece_names_are_what_a_screen_reader_says() -> None:
    assert piece_name("R7", "tiles") == "red 7"
    assert piece_name("Y13", "tiles") == "yellow 13"
    assert piece_name("JK", "tiles") == "joker"
    assert piece_name("7H", "cards") == "7 of hearts"
    assert piece_name("QS", "cards") == "queen of spades"
    assert piece_name("AD", "cards") == "ace of diamonds"
    assert piece_name("10C", "cards") == "10 of clubs"
    assert piece_name("?7", "tiles") == "any 7"
    assert piece_name("?Q", "cards") == "any queen"
    assert face("10H", "cards").number == "10" and face("10H", "cards").family == "H"
    with pytest.raises(ValueError):
        face("Z9", "tiles")


def test_a_meld_is_drawn_as_pieces_with_the_jokers_stand_in() -> None:
    view = meld_view(["R11", "R12", "JK"], "tiles", ["R13"])
    assert spoken(view) == ["red 11", "red 12", "joker as red 13"]
    # the numbers are drawn in the tile's colour, not as bare text
    numbers = [t for t in walk(view) if isinstance(t, ft.Text) and t.value in ("11", "12", "13")]
    assert {t.color for t in numbers} == {ft.Colors.RED_700}
    assert meld_label(["JK", "JK", "R10"], "tiles", ["?10", "?10"]) == (
        "joker as any 10, joker as any 10, red 10"
    )
    # a card shows its suit as a drawn symbol (the offline font has no suit characters)
    card = piece_view("7H", "cards")
    icons = [i for i in walk(card) if isinstance(i, ft.Icon)]
    assert icons and icons[0].icon == ft.CupertinoIcons.SUIT_HEART_FILL
    assert icons[0].color == ft.Colors.RED_700
    spade = [i for i in walk(piece_view("QS", "cards")) if isinstance(i, ft.Icon)]
    assert spade[0].color == ft.Colors.GREY_900


# -- keyboard ------------------------------------------------------------------------------------
def test_keys_are_named_by_the_piece_they_add() -> None:
    kb = PieceKeyboard("rummy101", "Meld")
    assert [spoken(k)[0] if spoken(k) else text(k) for k in kb.family_keys.values()] == [
        "red",
        "blue",
        "black",
        "yellow",
    ]
    assert kb.number_texts[7].semantics_label == "red 7"
    kb.pick_family("B")
    assert kb.number_texts[7].semantics_label == "blue 7"
    assert kb.number_texts[7].color == ft.Colors.BLUE_700
    assert kb.joker_key is not None and "joker" in spoken(kb.joker_key)
    cards = PieceKeyboard("carousel", "Meld")
    cards.pick_family("H")
    assert cards.number_texts[7].semantics_label == "7 of hearts"
    assert cards.number_texts[1].semantics_label == "ace of hearts"
    assert cards.number_texts[13].semantics_label == "king of hearts"
    assert [k.content.semantics_label for k in cards.family_keys.values()] == [  # type: ignore[union-attr]
        "spades",
        "hearts",
        "diamonds",
        "clubs",
    ]
    assert spoken(cards.back_key) == ["Backspace"]
    # gin has no joker key, and a joker cannot be added (RULES.md §2: gin plays without jokers)
    gin = PieceKeyboard("gin", "Hand")
    assert gin.joker_key is None
    assert not gin.press_joker()
    assert "without jokers" in gin.error.value


def test_taps_and_typing_stay_in_step() -> None:
    changes: list[int] = []
    kb = PieceKeyboard("tile_rummy", "Meld", on_change=lambda: changes.append(1))
    tap(kb, "R11", "R12", "JK")
    assert kb.value == ["R11", "R12", "JK"]
    assert kb.field.value == "R11 R12 JK"
    assert spoken(kb.pieces_box) == ["red 11", "red 12", "joker"]
    kb.backspace()
    assert kb.value == ["R11", "R12"] and kb.field.value == "R11 R12"
    kb.type_text("r1, r2 *")  # lower case, commas, * for the joker (RULES.md §1)
    assert kb.value == ["R1", "R2", "JK"]
    assert kb.field.error is None
    kb.type_text("R1 R2 X9 R4")  # a bad token: the pieces before it stay, the field says why
    assert kb.value == ["R1", "R2"]
    assert kb.field.error and "X9" in kb.field.error
    tap(kb, "R3")  # tapping writes the canonical text back
    assert kb.field.value == "R1 R2 R3" and kb.field.error is None
    kb.clear()
    assert kb.value == [] and kb.field.value == ""
    assert len(changes) == 8  # 3 taps, backspace, 2 typings, 1 tap, clear


def test_the_set_holds_two_of_each_tile() -> None:
    kb = PieceKeyboard("rummy101", "Meld")
    tap(kb, "R7", "R7")
    assert not kb.press_number(7)  # a third red 7 is not in the 106-tile set (RULES.md §1)
    assert kb.error.visible and "only 2" in kb.error.value
    assert kb.value == ["R7", "R7"]
    tap(kb, "JK", "JK")
    assert not kb.press_joker()
    gin = PieceKeyboard("gin", "Hand")
    tap(gin, "7H")
    assert not gin.press_number(7)  # one deck: one 7 of hearts
    limited = PieceKeyboard("rummy101", "Taken discard", max_pieces=1)
    tap(limited, "B5")
    assert limited.press_number(6)  # one piece only: the new one replaces it
    assert limited.value == ["B6"]
    hand = PieceKeyboard("gin", "Hand", max_pieces=11)
    hand.type_text("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS")
    assert not hand.press_number(12)
    assert "At most 11 pieces" in hand.error.value


def test_melds_editor_builds_several_melds_and_counts_copies_across_them() -> None:
    ed = MeldsEditor("tile_rummy", "Table")
    tap_melds(ed, ["R5 R6 R7", "B7 K7 Y7"])
    assert ed.value == [["R5", "R6", "R7"], ["B7", "K7", "Y7"]]
    assert ed.active == 1
    tap(ed.keyboard, "R7")
    assert not ed.keyboard.press_number(7)  # two red 7s already laid: a third is refused
    assert ed.value[1] == ["B7", "K7", "Y7", "R7"]
    ed.select(0)
    assert ed.keyboard.value == ["R5", "R6", "R7"]
    assert ed.keyboard.field.label == "Table: meld 1"
    ed.new_meld()
    ed.new_meld()  # an empty meld is not doubled
    assert len(ed.melds) == 3 and ed.melds[2] == []
    ed.select(1)  # the empty meld is dropped when another is chosen
    assert len(ed.melds) == 2 and ed.active == 1
    ed.remove_meld()
    assert ed.value == [["R5", "R6", "R7"]]
    ed.set_faults({0})
    assert ed.faults == {0}
    assert "Meld 1" in text(ed.control)


@pytest.mark.parametrize(
    ("variant", "pieces", "kind", "value", "jokers"),
    [
        # RULES.md §2: R11 R12 JK is a run, the joker is R13 (its place fixes it): 36
        ("rummy101", "R11 R12 JK", "run", 36, "Joker = red 13"),
        # a group of 10s with the joker as the missing colour: 40
        ("tile_rummy", "R10 B10 K10 JK", "group", 40, "The joker is a 10 of a missing colour"),
        ("my_rummy", "Y3 Y4 Y5", "run", 12, None),
        # gin: a group of three 7s, no jokers: 21
        ("gin", "7S 7H 7D", "group", 21, None),
        # Carousel: Q-K-A with the ace high is a run: 10 + 10 + 1 = 21
        ("carousel", "QH KH AH", "run", 21, None),
    ],
)
def test_build_a_valid_meld_by_tapping_in_every_variant(
    app: App, variant: str, pieces: str, kind: str, value: int, jokers: str | None
) -> None:
    screen = MeldChecker(app, variant=variant)
    assert screen.variant == variant
    tap(screen.keyboard, *pieces.split())
    assert screen.answer is not None and screen.answer["valid"] is True
    shown = verdict_text(screen)
    assert f"Valid {kind}" in shown
    assert f"{value} points" in shown
    if jokers:
        assert jokers in shown
    assert screen.rule_link is not None and screen.rule_link.route
    assert screen.rule_link.route.startswith(f"/rules/{variant}/")


@pytest.mark.parametrize(
    ("variant", "pieces", "reason", "headline"),
    [
        # RULES.md §2: 12-13-1 is no run in Rummy 101
        ("rummy101", "R12 R13 R1", "ace_after_king", "1 does not follow 13 here"),
        # same number, other colour: not a pair (§2)
        ("rummy101", "R10 B10", "not_a_pair", "Not a pair"),
        ("tile_rummy", "R5 B6 K7", "not_a_meld", "Neither a run nor a group"),
        ("my_rummy", "R5 R5 B5", "group_repeated_colour", "A colour repeats in the group"),
        # gin: the ace is low only, Q-K-A is no run (§2)
        ("gin", "QS KS AS", "ace_after_king", "The ace does not follow the king here"),
        # Carousel: K-A-2 wraps (§2)
        ("carousel", "KS AS 2S", "run_wraps", "A run may not go round the corner"),
    ],
)
def test_an_invalid_meld_shows_reason_message_and_rule(
    app: App, variant: str, pieces: str, reason: str, headline: str
) -> None:
    screen = MeldChecker(app, variant=variant)
    tap(screen.keyboard, *pieces.split())
    assert screen.answer is not None
    assert screen.answer["valid"] is False and screen.answer["reason"] == reason
    shown = verdict_text(screen)
    assert "Not valid" in shown
    assert f"Reason: {headline}" in shown
    assert "RULES.md" not in shown  # the rule is the rule book's section, not a developer §
    assert "› Melds" in shown and "Rules: " in shown  # "Rules: Tile Rummy › Melds"
    assert screen.rule_link is not None
    assert screen.rule_link.route == f"/rules/{variant}/melds"
    assert screen.rule_box.controls  # the rule's text, under the keys
    # the meld is drawn in a red frame
    assert any(
        isinstance(c, ft.Container) and c.border is not None and c.bgcolor == ft.Colors.RED_50
        for c in walk(screen.verdict)
    )
    screen.keyboard.clear()
    assert not screen.rule_box.controls


def test_meld_other_readings_and_pinning_one(app: App) -> None:
    screen = MeldChecker(app, variant="rummy101")
    tap(screen.keyboard, "JK", "JK", "R10")
    # RULES.md §1: group of 10s worth 30 stands, the run 8-9-10 worth 27 is shown beside it
    shown = verdict_text(screen)
    assert "Valid group" in shown and "30 points" in shown
    assert "Other reading: run worth 27" in shown
    assert "Jokers = red 8, red 9" in shown
    screen.read_as.pick("run")
    shown = verdict_text(screen)
    assert "Valid run" in shown and "27 points" in shown
    screen.keyboard.clear()
    assert screen.answer is None
    assert "Tap a colour" in verdict_text(screen)


def test_meld_checker_switches_variant_and_preset(app: App) -> None:
    screen = MeldChecker(app)
    assert screen.variant == "rummy101"
    assert screen.variant_chips is not None and screen.preset_chips is not None
    screen.variant_chips.pick("gin")
    assert screen.variant == "gin" and screen.keyboard.material == "cards"
    assert screen.keyboard.joker_key is None
    screen.preset_chips.pick("modern")
    assert screen.rules.typed.knock_max == 10
    assert "Modern" in screen.summary.value


# -- opening -------------------------------------------------------------------------------------
def opening(app: App, variant: str, melds: list[str], **kw: Any) -> OpeningChecker:
    screen = OpeningChecker(app, variant=variant, **kw)
    tap_melds(screen.melds, melds)
    return screen


def test_rummy101_opening_by_melds(app: App) -> None:
    # RULES.md §3: 10+11+12+13 = 46, 13×3 = 39, 9+10+11 = 30: 115 ≥ 101 opens
    screen = opening(app, "rummy101", ["R10 R11 R12 R13", "B13 K13 Y13", "B9 B10 B11"])
    a = screen.check()
    assert a["valid"] is True and a["by"] == "melds" and a["value"] == 115
    shown = verdict_text(screen)
    assert "Valid opening" in shown and "115 points (needs 101)" in shown
    assert "Meld 1: run, 46 points" in shown and "Meld 2: group, 39 points" in shown


def test_rummy101_opening_below_the_threshold(app: App) -> None:
    # 33 + 39 = 72 < 101 (RULES.md §3)
    screen = opening(app, "rummy101", ["R10 R11 R12", "B13 K13 Y13"])
    a = screen.check()
    assert a["valid"] is False and a["reason"] == "below_threshold"
    shown = verdict_text(screen)
    assert "Not valid" in shown and "72 points (needs 101)" in shown
    assert "Reason: Not enough points to open" in shown
    assert "these melds make 72" in shown
    assert screen.rule_link is not None and screen.rule_link.route.startswith("/rules/rummy101/")


def test_rummy101_opening_by_pairs_and_too_few(app: App) -> None:
    # five pairs open, no point minimum; a joker may stand in one pair (RULES.md §2, §3)
    screen = opening(app, "rummy101", ["R1 R1", "B2 B2", "K3 K3", "Y4 Y4", "R5 JK"])
    a = screen.check()
    assert a["valid"] is True and a["by"] == "pairs" and a["pairs"] == 5
    assert "5 pairs (needs 5; no point minimum)" in verdict_text(screen)
    screen.melds.remove_meld()
    a = screen.check()
    assert a["valid"] is False and a["reason"] == "too_few_pairs"
    assert "Reason: Not enough pairs" in verdict_text(screen)


def test_rummy101_opening_mixes_pairs_and_melds_or_has_a_bad_meld(app: App) -> None:
    screen = opening(app, "rummy101", ["R10 R11 R12 R13", "B13 B13"])
    a = screen.check()
    assert a["reason"] == "mixed_pairs_and_melds"
    screen = opening(app, "rummy101", ["R10 R11 R12 R13", "B13 K13 Y13", "B9 K10 B11"])
    a = screen.check()
    assert a["reason"] == "invalid_meld"
    assert screen.melds.faults == {2}  # the bad meld is framed in the editor
    assert "Meld 3: not valid" in verdict_text(screen)


def test_rummy101_opening_with_the_taken_discard(app: App) -> None:
    screen = opening(app, "rummy101", ["R10 R11 R12 R13", "B13 K13 Y13", "B9 B10 B11"])
    assert screen.took is not None and screen.discard is not None
    screen.took.pick("yes")
    assert screen.discard_box.visible
    tap(screen.discard, "R6")
    a = screen.check()
    # RULES.md §3: the taken discard must be used in the opening
    assert a["reason"] == "discard_not_used"
    assert "Reason: The taken discard is not used" in verdict_text(screen)
    screen.discard.clear()
    tap(screen.discard, "B11")
    assert screen.check()["valid"] is True


def test_rummy101_rising_threshold_from_the_round_so_far(app: App, store: Store) -> None:
    game = make_game(store, "rummy101", ["Ala", "Ola"], preset="rising")
    screen = OpeningChecker(app, game)
    assert screen.rising_box.visible
    tap_melds(screen.melds, ["R10 R11 R12 R13", "B13 K13 Y13", "B9 B10 B11"])
    assert screen.highest is not None
    screen.highest.value = "116"  # after an opening of 116 the next needs 117 (RULES.md §3)
    a = screen.check()
    assert a["valid"] is False and a["needed"] == 117
    assert "115 points (needs 117)" in verdict_text(screen)
    screen.highest.value = ""
    assert screen.check()["valid"] is True


@pytest.mark.parametrize("variant", ["tile_rummy", "my_rummy"])
def test_initial_meld(app: App, variant: str) -> None:
    # RULES.md §4: 30 in new melds of one's own tiles; R10 R11 R12 = 33 opens, R1 R2 R3 = 6 not
    screen = opening(app, variant, ["R10 R11 R12"])
    assert "initial meld needs 30" in text(screen.body)
    assert screen.check()["valid"] is True
    assert "Valid initial meld" in verdict_text(screen)
    screen = opening(app, variant, ["R1 R2 R3"])
    a = screen.check()
    assert a["valid"] is False and a["reason"] == "below_threshold"
    assert "6 points (needs 30)" in verdict_text(screen)


def test_initial_meld_of_the_tiles50_preset(app: App) -> None:
    screen = opening(app, "tile_rummy", ["R10 R11 R12 R13"])
    screen.preset_chips.pick("tiles50")  # type: ignore[union-attr]
    assert "initial meld needs 50" in text(screen.body)
    assert screen.check()["valid"] is False  # 46 < 50 (RULES.md §4, Tiles 50)
    screen.preset_chips.pick("rummikub")  # type: ignore[union-attr]
    assert screen.check()["valid"] is True  # back to 30


# -- turn ----------------------------------------------------------------------------------------
LEVEL_TURNS: dict[int, tuple[str, list[str], list[str], bool, str]] = {
    # level: rack, table before, table after, valid at this level, words of the message.
    # RULES.md §4 (seed 001): each level adds to the one before.
    # 0 (free): the joker of R5 R6 R7 JK moves to a black run: allowed.
    0: ("K9 K10", ["R5 R6 R7 JK"], ["R5 R6 R7", "JK K9 K10"], True, "valid turn"),
    # 1 (match): the same move: the joker (R8) left without R8 taking its place.
    1: ("K9 K10", ["R5 R6 R7 JK"], ["R5 R6 R7", "JK K9 K10"], False, "stood for R8"),
    # 2 (match from rack): R7 that replaced the joker came from the table's group.
    2: (
        "B2 B3",
        ["R5 R6 JK", "R7 B7 K7 Y7"],
        ["R5 R6 R7", "B7 K7 Y7", "JK B2 B3"],
        False,
        "came from the table",
    ),
    # 3 (no split with a joker): R3 taken from a run that holds a joker.
    3: ("B3 K3", ["R3 R4 R5 JK"], ["R4 R5 JK", "R3 B3 K3"], False, "taken from"),
    # 4 (freed joker into a new meld only): the freed joker goes onto an existing meld.
    4: ("R7", ["R5 R6 JK", "K3 K4 K5"], ["R5 R6 R7", "K3 K4 K5 JK"], False, "went onto"),
}


def enter_turn(screen: TurnChecker, rack: str, before: list[str], after: list[str]) -> None:
    screen.before.focus()
    tap_melds(screen.before, before)
    screen.rack.focus()
    assert not screen.before.keys_box.visible  # one keyboard at a time
    tap(screen.rack, *rack.split())
    screen.copy_before()
    assert screen.after.value == screen.before.value
    screen.after.set_melds([[]])
    tap_melds(screen.after, after)


@pytest.mark.parametrize("level", [0, 1, 2, 3, 4])
def test_turn_per_joker_level(app: App, level: int) -> None:
    rack, before, after, valid, words = LEVEL_TURNS[level]
    screen = TurnChecker(app, variant="tile_rummy")
    screen.set_joker_rule(level)
    assert screen.rules.typed.joker_rule == JOKER_RULES[level]
    enter_turn(screen, rack, before, after)
    a = screen.check()
    assert a["valid"] is valid, a
    shown = verdict_text(screen)
    if valid:
        assert "Valid turn" in shown
        assert "Played:" in shown
    else:
        assert a["reason"] == "joker_rule" and a["level"] == level
        assert "Not valid" in shown and "Reason: The joker rule was broken" in shown
        assert words in shown
        assert "table_before[" not in shown  # the message names melds the way people do
        assert "table before, meld 1" in shown
        assert 0 in screen.before.faults  # the meld at fault is framed red
        assert screen.rule_link is not None
        assert screen.rule_link.route.startswith("/rules/tile_rummy/")


def test_turn_with_the_game_presets_joker_rule(app: App, store: Store) -> None:
    # RRRummy is level 3 (RULES.md §4): the level-3 case is refused, the level-2 one is fine
    game = make_game(store, "tile_rummy", ["Ala", "Ola"], preset="rrrummy")
    screen = TurnChecker(app, game)
    assert screen.level is None  # the game's rules are fixed
    # the level named as the options form names it, never a bare number (28-checker.png)
    assert "Joker rule: level 3 (no split with a joker)" in screen.summary.value
    assert "joker rule 3" not in screen.summary.value
    rack, before, after, _valid, _w = LEVEL_TURNS[3]
    enter_turn(screen, rack, before, after)
    assert screen.check()["reason"] == "joker_rule"


def test_turn_table_after_as_a_heap(app: App) -> None:
    screen = TurnChecker(app, variant="tile_rummy")
    screen.set_joker_rule(3)
    tap_melds(screen.before, ["K1 K2 JK", "R1 R2 R3"])
    tap(screen.rack, "R4")
    screen.after_mode.pick("heap")
    assert screen.heap_box.visible and not screen.after.control.visible
    screen.copy_before()
    assert screen.heap.value == ["K1", "K2", "JK", "R1", "R2", "R3"]
    tap(screen.heap, "R4")
    a = screen.check()
    # JUDGE.md: the heap is split into valid melds, R4 extends R1 R2 R3
    assert a["valid"] is True, a
    shown = verdict_text(screen)
    assert "Valid turn" in shown and "The heap read as melds:" in shown
    tap(screen.heap, "B9")  # B9 was never on the rack
    a = screen.check()
    assert a["valid"] is False and a["reason"] == "tile_not_on_rack"
    assert "At fault:" in verdict_text(screen)


def test_a_heap_turn_names_what_each_joker_stands_for(app: App) -> None:
    """Session 11: the heap's split drew a bare joker; the judge's ``jokers`` are drawn under
    it now (RULES.md §4: R5 R6 R7 JK R9 is a run with the joker as R8)."""
    import flet as ft

    screen = TurnChecker(app, variant="tile_rummy")
    tap_melds(screen.before, ["R5 R6 R7"])
    tap(screen.rack, "JK", "R9")
    screen.after_mode.pick("heap")
    screen.copy_before()
    tap(screen.heap, "JK", "R9")
    a = screen.check()
    assert a["valid"] is True and a["jokers"] == [["R8"]], a
    names = [c.label for c in walk(screen.verdict) if isinstance(c, ft.Semantics)]
    assert "joker as red 8" in names, names


def test_turn_initial_meld_and_nothing_played(app: App) -> None:
    screen = TurnChecker(app, variant="tile_rummy")
    assert screen.opened is not None
    screen.opened.pick("no")
    tap(screen.rack, "R1", "R2", "R3")
    tap_melds(screen.after, ["R1 R2 R3"])
    a = screen.check()
    # RULES.md §4: 1+2+3 = 6 < 30
    assert a["reason"] == "below_initial_meld"
    assert "Reason: The initial meld is too low" in verdict_text(screen)
    assert "Initial meld worth 6" in verdict_text(screen)
    screen.after.set_melds([[]])
    screen.rack.clear()
    tap_melds(screen.before, ["B4 B5 B6"])
    screen.copy_before()
    tap(screen.rack, "B7")
    a = screen.check()
    assert a["reason"] == "nothing_played"


def test_turn_carousel_and_my_rummy(app: App) -> None:
    screen = TurnChecker(app, variant="carousel")
    assert screen.opened is None and screen.level is None
    tap(screen.rack, "5S", "6S", "7S")
    tap_melds(screen.after, ["5S 6S 7S"])
    assert screen.check()["valid"] is True
    screen.after.set_melds([[]])
    tap_melds(screen.after, ["5S 6S"])
    a = screen.check()
    assert a["reason"] == "invalid_meld"
    assert screen.after.faults == {0}
    assert "table after, meld 1" in verdict_text(screen)
    my = TurnChecker(app, variant="my_rummy")
    # My Rummy: the replacing tile must come from the rack (RULES.md §4)
    rack, before, after, _v, _w = LEVEL_TURNS[2]
    enter_turn(my, rack, before, after)
    assert my.check()["reason"] == "joker_rule"


def test_turn_too_many_copies_is_an_input_error(app: App) -> None:
    screen = TurnChecker(app, variant="tile_rummy")
    tap_melds(screen.before, ["R1 R2 R3"])
    tap(screen.rack, "R1", "R1")  # three R1 across rack and table (JUDGE.md: ok false)
    a = screen.check()
    assert a["ok"] is False and a["error"] == "too_many_copies"
    assert "Cannot check this yet" in verdict_text(screen)


# -- hand ----------------------------------------------------------------------------------------
GIN_HAND = "AS 2S 3S 7H 7D 7C 9C 10C JC 4D"


def test_gin_hand_of_10_cards(app: App) -> None:
    screen = HandChecker(app, variant="gin")
    tap(screen.keyboard, *GIN_HAND.split()[:9])
    assert screen.answer is None
    assert "9 cards: a gin hand has 10" in verdict_text(screen)
    tap(screen.keyboard, "4D")
    a = screen.answer
    # RULES.md §5: A-2-3 of spades, three 7s, 9-10-J of clubs; 4D left: deadwood 4 ≤ 9
    assert a is not None and a["deadwood"] == 4 and a["can_knock"] is True
    shown = verdict_text(screen)
    assert "May knock" in shown and "Deadwood 4 (knock at 9 or less)" in shown
    assert "Melds" in shown and "Deadwood cards" in shown
    names = spoken(screen.verdict)
    assert "4 of diamonds" in names and "jack of clubs" in names


def test_gin_hand_of_11_cards_finds_the_discard(app: App) -> None:
    screen = HandChecker(app, variant="gin")
    tap(screen.keyboard, *GIN_HAND.split(), "KH")
    a = screen.answer
    assert a is not None and a["discard"] == "KH" and a["deadwood"] == 4
    assert "Best discard:" in verdict_text(screen)
    assert "king of hearts" in spoken(screen.verdict)
    assert not screen.keyboard.press_number(5)  # 11 cards at most


def test_gin_and_no_knock(app: App) -> None:
    screen = HandChecker(app, variant="gin")
    screen.keyboard.type_text("AS 2S 3S 7H 7D 7C 9C 10C JC QC")
    assert screen.answer is not None and screen.answer["gin"] is True
    assert "Gin!" in verdict_text(screen)
    screen.keyboard.type_text("AS 2S 3S 7H 7D 7C 9C 10C KD QH")
    assert screen.answer is not None and screen.answer["can_knock"] is False
    assert "Cannot knock yet" in verdict_text(screen)


def test_big_gin_only_where_the_preset_has_its_bonus(app: App) -> None:
    eleven = "AS 2S 3S 4H 5H 6H 7D 8D 9D 10D JD"  # all 11 melded (the run of diamonds: 5)
    screen = HandChecker(app, variant="gin")
    assert screen.preset_chips is not None
    screen.preset_chips.pick("modern")  # big_gin_bonus 31
    screen.keyboard.type_text(eleven)
    shown = verdict_text(screen)
    assert shown.startswith("Big gin!\nDeadwood 0 (knock at 10 or less)")
    assert "Best discard:" not in shown  # a big gin keeps all 11
    # §5 seed: no big gin bonus, so the same hand is gin after discarding the jack
    screen = HandChecker(app, variant="gin")
    screen.keyboard.type_text(eleven)
    shown = verdict_text(screen)
    assert shown.startswith("Gin!\nDeadwood 0 (knock at 9 or less)") and "Best discard:" in shown
    assert "Big gin!" not in shown


def test_carousel_hand_value(app: App) -> None:
    screen = HandChecker(app, variant="carousel")
    # RULES.md §6: A + 2 + 3 + joker 25 = 31 > 5: no knock (no meld counts in the hand)
    tap(screen.keyboard, "AS", "2S", "3S", "JK")
    a = screen.answer
    assert a is not None and a["deadwood"] == 31
    shown = verdict_text(screen)
    assert "Cannot knock yet" in shown and "Hand worth 31 (knock at 5 or less)" in shown
    screen.keyboard.clear()
    tap(screen.keyboard, "AS", "2H", "2D")
    assert screen.answer is not None and screen.answer["can_knock"] is True
    assert "May knock" in verdict_text(screen)


# -- routes and entry points ---------------------------------------------------------------------
def test_routes(app: App, store: Store) -> None:
    app.go("/check")
    assert isinstance(app.screen, CheckHome)
    assert set(app.screen.buttons) == {"meld", "opening", "turn"}  # Rummy 101
    app.screen.chips.pick("carousel")  # type: ignore[union-attr]
    assert set(app.screen.buttons) == {"meld", "turn", "hand"}
    for kind, cls in (
        ("meld", MeldChecker),
        ("opening", OpeningChecker),
        ("turn", TurnChecker),
        ("hand", HandChecker),
    ):
        app.go(f"/check/{kind}")
        assert isinstance(app.screen, cls), kind
    app.go("/check/nothing")
    assert isinstance(app.screen, MessageScreen)
    assert kinds_for("gin") == ["meld", "hand"]
    assert check_route("turn", game_id="abc") == "/check/turn?game=abc"
    assert check_route("meld", variant="gin") == "/check/meld?variant=gin"


def test_a_game_gives_its_variant_and_options(app: App, store: Store) -> None:
    game = make_game(store, "gin", ["Ala", "Bob"], preset="modern")
    app.go(f"/check?game={game.id}")
    home = app.screen
    assert isinstance(home, CheckHome) and home.chips is None
    assert set(home.buttons) == {"meld", "hand"}
    app.go(f"/check/hand?game={game.id}")
    screen = app.screen
    assert isinstance(screen, HandChecker)
    assert screen.variant == "gin" and screen.rules.typed.knock_max == 10
    assert screen.variant_chips is None
    assert "This game's rules" in screen.summary.value
    app.go(f"/check/turn?game={game.id}")  # gin has no turn check
    assert isinstance(app.screen, MessageScreen)
    app.go("/check/meld?game=" + "0" * 32)
    assert isinstance(app.screen, MessageScreen)
    app.go("/check/hand?variant=carousel")
    assert isinstance(app.screen, HandChecker) and app.screen.variant == "carousel"


def test_check_buttons_on_the_games_list_and_score_sheet(app: App, store: Store) -> None:
    def find_check(screen: Any) -> Any:
        for c in walk(screen.view):
            if isinstance(c, ft.OutlinedButton) and "Referee" in str(c.content):
                return c
        raise AssertionError("no Check button")

    assert isinstance(app.screen, GamesList)
    find_check(app.screen).on_click(None)
    assert isinstance(app.screen, CheckHome)
    game = make_game(store, "tile_rummy", ["Ala", "Ola"])
    app.go(f"/game/{game.id}")
    assert isinstance(app.screen, ScoreSheet)
    find_check(app.screen).on_click(None)
    assert app.route == "/check" and app.query == {"game": game.id}
    home = app.screen
    assert isinstance(home, CheckHome) and home.game is not None and home.game.id == game.id
    home.open("turn")
    assert isinstance(app.screen, TurnChecker) and app.screen.game is not None


def test_helpers() -> None:
    knock = {"check": "round", "variant": "gin", "knocker": "A", "players": [
        {"name": "A", "hand": ["AS", "2S", "3S", "4H", "5H", "6H", "7C", "8C", "KD", "QD"]},
        {"name": "B", "hand": ["AH", "2H", "3H", "4S", "5S", "6S", "7D", "8D", "9D", "KC"]},
    ]}  # fmt: skip
    assert rule_route("gin", judge.answer(knock), "round") == "/rules/gin/knock"
    stored = {"valid": True, "result": "undercut", "rule": "RULES.md §5, seed 002"}
    assert rule_route("gin", stored, "round") == "/rules/gin/undercut"  # before rule_ref
    assert rule_route("rummy101", {"rule": "RULES.md §1"}, "meld") == "/rules/rummy101/melds"
    assert rule_route("carousel", {"error": "bad_token"}, "turn") == "/rules/carousel/reading"
    msg = "joker level 4: table_before[0] (R5 R6 JK) went onto table_after[1] (K3 K4 K5 JK)"
    level4 = judge.answer(
        {
            "check": "turn",
            "variant": "tile_rummy",
            "opened": True,
            "options": {"joker_rule": 4},
            "rack": ["R7"],
            "table_before": [["R5", "R6", "JK"], ["K3", "K4", "K5"]],
            "table_after": [["R5", "R6", "R7"], ["K3", "K4", "K5", "JK"]],
        }
    )
    assert level4["stage"] == "new_meld", level4
    assert fault_refs(level4) == ({0}, {1})  # from the line's data, not its English
    assert human_message(msg) == (
        "joker level 4: table before, meld 1 (R5 R6 JK) went onto table after, meld 2 (K3 K4 K5 JK)"
    )


def test_every_tap_target_has_a_name(app: App) -> None:
    """Every clickable container (keys, meld rows) names itself for screen readers."""
    screens = [
        MeldChecker(app, variant="rummy101"),
        MeldChecker(app, variant="carousel"),
        HandChecker(app, variant="gin"),
        TurnChecker(app, variant="tile_rummy"),
        OpeningChecker(app, variant="rummy101"),
        CheckHome(app),
    ]
    for screen in screens:
        named: set[int] = set()
        for c in walk(screen.view, visible_only=False):
            if isinstance(c, ft.Semantics) and c.label:
                named.update(id(x) for x in walk(c.content, visible_only=False))
        for c in walk(screen.view, visible_only=False):
            if isinstance(c, ft.Container) and c.on_click is not None:
                assert id(c) in named or spoken(c) or texts(c), type(screen).__name__
            if isinstance(c, ft.TextField):
                assert c.label, type(screen).__name__


def test_typed_text_with_too_many_copies_gives_no_verdict(app: App) -> None:
    # typing B7 B7 B7: the third copy is refused (RULES.md §1: two of each tile), so the
    # checker must not judge the two good tiles as a "valid pair"
    screen = MeldChecker(app, variant="rummy101")
    screen.keyboard.type_text("B7 B7 B7")
    assert screen.keyboard.problem
    assert screen.answer is None
    assert "Valid" not in verdict_text(screen)
    screen.keyboard.type_text("B7 B7")
    assert screen.keyboard.problem is None
    assert "Valid pair" in verdict_text(screen)


def test_opening_with_a_bad_typed_meld_is_not_judged(app: App) -> None:
    screen = OpeningChecker(app, variant="rummy101")
    screen.melds.keyboard.type_text("R10 R11 R14")
    answer = screen.check()
    assert answer["ok"] is False and answer["error"] == "bad_token"


# -- the table edited by tapping (issue 10, point 8) ----------------------------------------------
def test_table_model_moves_a_piece_to_a_new_meld_and_onto_another() -> None:
    m = TableModel("tiles")
    m.set_melds([["R3", "R4", "R5", "R6"], ["B9", "B10", "B11"]])
    m.pick(0, 3)
    assert m.held_piece() == "R6" and m.active == 0
    assert m.drop(None) == 2  # a new meld at the end, selected
    assert m.value == [["R3", "R4", "R5"], ["B9", "B10", "B11"], ["R6"]]
    # B8 onto B9 B10 B11 goes in front (the number below the first), B12 at the end
    m.set_melds([["B8", "R1"], ["B9", "B10", "B11"], ["B12", "K1"]])
    m.pick(0, 0)
    assert m.drop(1) == 1
    m.pick(2, 0)
    m.drop(1)
    assert m.value == [["R1"], ["B8", "B9", "B10", "B11", "B12"], ["K1"]]


def test_table_model_a_meld_left_empty_goes_and_indexes_follow() -> None:
    m = TableModel("tiles")
    m.set_melds([["R6"], ["R3", "R4", "R5"], ["K1", "K2", "K3"]])
    m.pick(0, 0)
    assert m.drop(1) == 0  # meld 0 emptied and removed: R3-R5 is now meld 0
    assert m.value == [["R3", "R4", "R5", "R6"], ["K1", "K2", "K3"]]
    assert m.active == 0 and m.held is None
    m.pick(0, 3)
    m.pick(0, 3)  # the same piece again: put back
    assert m.held is None and m.value[0] == ["R3", "R4", "R5", "R6"]
    m.pick(1, 0)
    assert m.drop(1) == 1  # onto its own meld: nothing moves
    assert m.value == [["R3", "R4", "R5", "R6"], ["K1", "K2", "K3"]]
    with pytest.raises(ValueError):
        m.drop(0)
    # the last piece of a meld into a new meld: the old one goes, the new one is last
    m.set_melds([["R9"], ["K1", "K2", "K3"]])
    m.pick(0, 0)
    assert m.drop(None) == 1 and m.value == [["K1", "K2", "K3"], ["R9"]]


def test_table_model_an_empty_new_meld_can_take_a_piece() -> None:
    m = TableModel("cards")
    m.set_melds([["5H", "6H", "7H", "8H"]])
    m.new_meld()
    assert m.melds == [["5H", "6H", "7H", "8H"], []] and m.active == 1
    m.pick(0, 3)
    assert m.drop(1) == 1 and m.value == [["5H", "6H", "7H"], ["8H"]]
    # cards: 4H goes in front of 5H (ranks A 2 … K)
    m.set_melds([["4H"], ["5H", "6H", "7H"]])
    m.pick(0, 0)
    m.drop(1)
    assert m.value == [["4H", "5H", "6H", "7H"]]


def test_table_model_jokers_keep_their_declaration_when_moved_or_edited() -> None:
    m = TableModel("cards")
    m.set_melds([["5H", "JK", "7H", "JK"], ["9S", "9D", "9C"]], [["6H", "8H"], None])
    assert m.declarations() == [["6H", "8H"], None]
    m.pick(0, 3)  # the second joker (8H) goes onto the nines: it keeps its card
    m.drop(1)
    assert m.value == [["5H", "JK", "7H"], ["9S", "9D", "9C", "JK"]]
    assert m.declarations() == [["6H"], ["8H"]]
    m.select(0)
    m.set_pieces(["5H", "JK", "7H", "8H"])  # typed: the first joker keeps 6H
    assert m.declarations() == [["6H"], ["8H"]]
    m.set_pieces(["5H", "6H", "7H"])  # no joker left in the meld: nothing declared there
    assert m.declarations() == [None, ["8H"]]
    m.select(1)
    m.declare([])
    assert m.declarations() is None
    m.set_melds([["JK", "JK", "KS"]], [[None, "KD"]])
    assert m.declarations() == [[None, "KD"]]  # the first joker open, the second a K of diamonds
    m.remove_meld()
    assert m.melds == [[]] and m.declarations() is None


def test_place_in_front_only_below_the_first_piece() -> None:
    assert place(["R3", "R4"], "R2", "tiles") == 0
    assert place(["R3", "R4"], "B2", "tiles") == 2
    assert place(["R3", "R4"], "JK", "tiles") == 2
    assert place(["JK", "R4"], "R3", "tiles") == 2
    assert place([], "R3", "tiles") == 0
    assert place(["2S", "3S"], "AS", "cards") == 0


def test_the_table_after_follows_the_table_before_until_changed(app: App) -> None:
    screen = TurnChecker(app, variant="tile_rummy")
    tap_melds(screen.before, ["R3 R4 R5 R6", "B9 B10 B11"])
    assert screen.after.value == [["R3", "R4", "R5", "R6"], ["B9", "B10", "B11"]]
    tap(screen.rack, "R7", "R8", "K2")
    # took R6 off R3-R6 into a new meld, added R7 R8 from the rack: 2 taps + 2 keys
    screen.after.pick(0, 3)
    assert "Red 6 picked up" in text(screen.after.control)
    assert "Put red 6 back" in spoken(screen.after.control)
    screen.after.new_meld()  # "New meld with red 6"
    assert screen.after.active == 2 and screen.after.keys_box.visible
    tap(screen.after.keyboard, "R7", "R8")
    assert screen.after.value == [["R3", "R4", "R5"], ["B9", "B10", "B11"], ["R6", "R7", "R8"]]
    a = screen.check()
    # RULES.md §4: R3 R4 R5, B9 B10 B11 and R6 R7 R8 are valid; R7 R8 came from the rack
    assert a["valid"] is True and a["played"] == ["R7", "R8"], a
    # now changed by hand: a change of the table before leaves it alone
    screen.before.select(1)
    tap(screen.before.keyboard, "B12")
    assert screen.after.value[1] == ["B9", "B10", "B11"]
    screen.copy_before()  # one tap starts again from the table before
    assert screen.after.value == screen.before.value
    # heap mode, one tap: the heap holds the table after's pieces
    screen.after_mode.pick("heap")
    assert sorted(screen.heap.value) == sorted(p for m in screen.after.value for p in m)
    screen.after_mode.pick("melds")
    assert screen.after.control.visible


def test_moving_pieces_by_tapping_them_in_the_row(app: App) -> None:
    """The handlers of the drawn pieces and melds (what a tap calls)."""
    screen = TurnChecker(app, variant="tile_rummy")
    screen.before.set_melds([["R5", "R6", "R7", "JK"]])
    screen._before_changed()
    screen.after.focus()
    screen.after._piece_handler(0, 3)()  # the joker picked up
    assert screen.after.model.held == (0, 3)
    assert screen.after.new_button.content == "New meld with joker"
    screen.after._new_clicked()
    tap(screen.after.keyboard, "K9", "K10")
    assert screen.after.value == [["R5", "R6", "R7"], ["JK", "K9", "K10"]]
    screen.after._piece_handler(1, 2)()  # K10 picked up, then the first meld tapped
    screen.after._meld_handler(0)()
    assert screen.after.value == [["R5", "R6", "R7", "K10"], ["JK", "K9"]]
    labels = spoken(screen.after.control)
    assert "Move red 5 (meld 1)" in labels
    assert any(x.startswith("Table after, meld 2: joker, black 9") for x in labels)


def test_rummy101_lay_off_after_opening(app: App) -> None:
    screen = TurnChecker(app, variant="rummy101")
    tap_melds(screen.before, ["R3 R4 R5", "B10 B11 B12"])
    tap(screen.rack, "R6", "K2")
    screen.after.select(0)
    tap(screen.after.keyboard, "R6")
    a = screen.check()
    # RULES.md §3: after one's own opening, tiles may be laid off onto any meld
    assert a["valid"] is True and a["played"] == ["R6"], a
    assert screen.opened is not None
    screen.opened.pick("none")
    a = screen.check()
    assert a["reason"] == "lay_off_before_opening"
    assert "table before, meld 1" in verdict_text(screen)


def test_carousel_joker_declaration_entered_in_the_checker(app: App) -> None:
    screen = TurnChecker(app, variant="carousel")
    tap_melds(screen.before, ["7S 7D JK", "9H 10H JH"])
    assert screen.before.declare is not None
    screen.before.select(0)
    assert screen.before.declare_box.visible  # the meld has a joker
    screen.before.declare.focus()
    assert not screen.before.keyboard.keys_box.visible  # one keyboard at a time
    tap(screen.before.declare, "7H")
    assert screen.before.declarations() == [["7H"], None]
    # the table after follows, the declaration with it
    assert screen.after.declarations() == [["7H"], None]
    tap(screen.rack, "7C", "2C")
    screen.after.select(0)
    screen.after.keyboard.type_text("7S 7D 7C")
    screen.after.pick(0, 0)
    screen.after.put_back()
    screen.after.select(1)
    tap(screen.after.keyboard, "JK")
    assert screen.after.value == [["7S", "7D", "7C"], ["9H", "10H", "JH", "JK"]]
    a = screen.check()
    # RULES.md §6: the joker stood for 7H; the 7C is not that very card
    assert a["reason"] == "joker_rule" and a["joker"] == "7H", a
    assert screen.request is not None and screen.request["declared_before"] == [["7H"], None]
    screen.before.select(0)
    screen.before.declare.clear()
    # undeclared, the joker of 7S 7D JK could be the 7C: valid
    assert screen.check()["valid"] is True


def test_table_model_take_a_piece_off_the_table() -> None:
    m = TableModel("tiles")
    m.set_melds([["R3", "JK", "R5"], ["K9"]], [[None], None])
    with pytest.raises(ValueError):
        m.take_off()
    m.pick(0, 1)
    assert m.take_off() == "JK"
    assert m.value == [["R3", "R5"], ["K9"]] and m.declared == [[], []] and m.active == 0
    m.pick(1, 0)
    assert m.take_off() == "K9"  # its meld, left empty, goes
    assert m.value == [["R3", "R5"]] and m.active == 0


def test_rummy101_joker_retrieved_with_the_exact_tile_by_tapping(app: App) -> None:
    screen = TurnChecker(app, variant="rummy101")
    tap_melds(screen.before, ["R3 R4 JK", "B10 B11 B12"])
    tap(screen.rack, "R5", "K2")
    screen.after.pick(0, 2)  # the joker …
    assert any(
        getattr(x, "content", None) == "Take it off the table" for x in walk(screen.after.control)
    )
    screen.after.take_off()  # … back to the rack
    tap(screen.after.keyboard, "R5")  # and the R5 from the rack in its place
    assert screen.after.value == [["R3", "R4", "R5"], ["B10", "B11", "B12"]]
    a = screen.check()
    # RULES.md §3: after one's own opening a joker may be taken for the exact tile it stands for
    assert a["valid"] is True and a["played"] == ["R5"], a


@pytest.mark.parametrize("level", [0, 1, 2, 3, 4])
def test_turn_joker_level_caption_is_a_whole_sentence(app: App, level: int) -> None:
    # the caption under the 0–4 chips is the rule book's own wording of the level in force,
    # a sentence of its own ("2 · … with a tile from the rack" needs the whole list beside it)
    from app import rulebook

    screen = TurnChecker(app, variant="tile_rummy")
    screen.set_joker_rule(level)
    caption = screen.level_text.value
    assert isinstance(caption, str)
    words = rulebook.JOKER_LEVEL_WORDS[JOKER_RULES[level]]
    assert caption == f"Joker level {level}: {words}."
    assert "…" not in caption


@pytest.mark.parametrize("kind", ["meld", "opening", "turn"])
def test_a_checker_left_with_back_keeps_its_pieces(app: App, kind: str) -> None:
    # the tester's way: tap R3 R4 R5, ← to the referee menu, open the same check again
    app.go(f"/check/{kind}?variant=tile_rummy")
    screen = app.screen
    assert isinstance(screen, checkers.Checker)
    if isinstance(screen, TurnChecker):
        tap(screen.rack, "R3", "R4", "R5")
        entered = lambda s: s.rack.value  # noqa: E731
    elif isinstance(screen, MeldChecker):
        tap(screen.keyboard, "R3", "R4", "R5")
        entered = lambda s: s.keyboard.value  # noqa: E731
    else:
        assert isinstance(screen, OpeningChecker)
        tap_melds(screen.melds, ["R3 R4 R5"])
        entered = lambda s: s.melds.value[0]  # noqa: E731
    assert entered(screen) == ["R3", "R4", "R5"]
    app.go("/check?variant=tile_rummy")  # the app bar's ←
    assert isinstance(app.screen, CheckHome)
    app.go(f"/check/{kind}?variant=tile_rummy")
    back = app.screen
    assert back is screen and entered(back) == ["R3", "R4", "R5"]
    assert "Check" in text(back.view)  # its screen is drawn again, not a blank one
    # "Clear all" in the app bar starts over
    clear = [
        c.content
        for c in walk(back.view)
        if isinstance(c, ft.Semantics) and c.label == "Clear all" and c.button
    ]
    assert len(clear) == 1 and isinstance(clear[0], ft.IconButton)
    clear[0].on_click(None)
    assert entered(back) == [] if kind != "opening" else back.melds.value == []
    # another variant asked for from the menu: a checker of its own
    app.go("/check?variant=rummy101")
    app.go(f"/check/{kind}?variant=rummy101")
    assert app.screen is not back and app.screen.variant == "rummy101"  # type: ignore[union-attr]


def test_the_turn_checker_keeps_table_rack_and_options_past_settings(app: App) -> None:
    # new-user tester: a turn filled in, Settings opened, back: all of it is still there
    # (table before and after, rack, the joker level), as the other checkers keep theirs
    app.go("/check/turn?variant=tile_rummy")
    screen = app.screen
    assert isinstance(screen, TurnChecker)
    screen.set_joker_rule(3)
    tap_melds(screen.before, ["R3 R4 R5"])
    tap(screen.rack, "R6", "B9")
    after = screen.after.value
    app.go("/settings")
    app.go("/")
    app.go("/check?variant=tile_rummy")
    app.go("/check/turn?variant=tile_rummy")
    back = app.screen
    assert back is screen
    assert back.before.value == [["R3", "R4", "R5"]] and back.rack.value == ["R6", "B9"]
    assert back.after.value == after
    assert back.rules.options.get("joker_rule") == JOKER_RULES[3]
    assert "Joker level 3" in " ".join(conftest.visible_texts(back.view))


def test_checker_header_names_the_joker_rule_in_words(app: App) -> None:
    """35-pl-turn: "poziom jokera 2" was a number players cannot read; the header names the
    level as the options form does, in the player's language; My Rummy's own rule by name."""
    from app import i18n

    with i18n.use_language("pl"):
        screen = TurnChecker(app, variant="tile_rummy")
        shown = screen.summary.value or ""
        level = screen.rules.typed.joker_rule
        assert labels.choice_phrase(level) in shown
        assert f"{labels.option_label('joker_rule')[0]}: " in shown
        assert "poziom jokera" not in shown
        my = TurnChecker(app, variant="my_rummy")
        mine = my.summary.value or ""
        assert labels.choice_name("my_rummy") in mine
        assert labels.option_label("joker_rule")[0] + ":" not in mine  # no choice: its name only
    screen = TurnChecker(app, variant="tile_rummy")
    assert "Joker rule: level 2 (match from the rack)" in (screen.summary.value or "")


@pytest.mark.parametrize("size", ["xs", "s", "m", "l"])
@pytest.mark.parametrize(
    ("material", "codes"),
    [("cards", ["8S", "10H", "?8", "?10", "JK"]), ("tiles", ["R8", "B13", "?7", "JK"])],
)
def test_what_is_printed_fits_the_piece(size: Any, material: Any, codes: list[str]) -> None:
    """51-sk-meld-joker: the "= 8 ?" card under a joker (size xs) was cut off: its rank and
    "?" lines were taller than the card. Every line has a fixed height (size × LINE)."""
    import flet as ft

    from app.ui.common import pieces

    for code in codes:
        drawn = pieces.piece_face(code, material, size)
        assert drawn.height is not None and drawn.border is not None
        inner = drawn.height - 2 * (drawn.border.top.width or 0)
        body = drawn.content
        lines = body.controls if isinstance(body, ft.Column) else [body]
        tall = 0.0
        for line in lines:
            if isinstance(line, ft.Text):
                assert line.style is not None and line.style.height == pieces.LINE, code
                assert line.size is not None
                tall += line.size * pieces.LINE
            else:
                assert isinstance(line, ft.Icon) and line.size is not None
                tall += line.size
        assert tall <= inner, (code, size, tall, inner)


def test_a_checker_kept_from_before_a_language_change_is_built_anew(app: App) -> None:
    # new-user tester (session 12): a checker opened in Slovak stayed Slovak (title, keys,
    # "Čítať ako") after Settings → Polski, with Polish verdicts inside it, even after a reload
    app.set_language("sk")
    app.go("/check/meld?variant=tile_rummy")
    slovak = app.screen
    assert isinstance(slovak, MeldChecker)
    assert "Skontrolovať zostavu" in text(slovak.view)
    app.go("/")
    app.set_language("pl")
    app.go("/check/meld?variant=tile_rummy")
    polish = app.screen
    assert isinstance(polish, MeldChecker) and polish is not slovak
    shown = text(polish.view)
    assert "Sprawdź układ" in shown and "Skontrolovať" not in shown
    # back in the same language, the one kept is shown again (its pieces with it)
    app.go("/")
    app.go("/check/meld?variant=tile_rummy")
    assert app.screen is polish
