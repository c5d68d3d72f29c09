"""A Rummy 101 turn: :func:`rules.variants.rummy101.judge_turn_101` and the judge's ``turn``
check for ``rummy101`` (RULES.md §3; seed ``000_…``). Every expected verdict is worked out by
hand from the rule text, the awkward cases first; each runs through ``rules.judge.answer``."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import messages
from rules.judge import answer
from rules.notation import parse_pieces
from rules.variants.rummy101 import judge_turn_101


def turn(
    rack: str,
    before: list[str],
    after: list[str],
    opened: str = "melds",
    **extra: Any,
) -> dict[str, Any]:
    """The judge's answer for one rummy101 turn (melds written as tile text)."""
    req = {
        "check": "turn",
        "variant": "rummy101",
        "rack": rack,
        "table_before": [m.split() for m in before],
        "table_after": [m.split() for m in after],
        "opened": opened,
        **extra,
    }
    a = answer(req)
    assert a["ok"], a
    if not a["valid"]:
        assert a["reason"] in messages.REASONS
        assert a["key"] in messages.MESSAGES
        assert a["rule_ref"]["variant"] == "rummy101"
        assert a["rule_ref"]["paragraphs"] == ["3"]
    return a


# -- joker retrieval (RULES.md §3: after one's own opening, exactly the tile it represents) ------


def test_retrieving_a_joker_with_the_wrong_colour_is_refused() -> None:
    # R10 JK R12: the joker stands for R11; B11 is the right number in the wrong colour
    a = turn("B11 K2 K9", ["R10 JK R12"], ["R10 B11 R12"])
    assert a["valid"] is False
    assert a["reason"] == "joker_wrong_tile"
    assert a["tile"] == "R11"
    assert a["rule_ref"]["section"] == "jokers"
    assert "R11" in a["message"]


def test_retrieving_a_joker_before_ones_own_opening_is_refused() -> None:
    a = turn("R11 K2 K9", ["R10 JK R12"], ["R10 R11 R12"], opened="none")
    assert a["valid"] is False
    assert a["reason"] == "joker_before_opening"
    assert a["meld"] == 0


def test_retrieving_a_joker_with_the_exact_tile_after_opening() -> None:
    a = turn("R11 K2 K9", ["R10 JK R12", "B3 B4 B5"], ["R10 R11 R12", "B3 B4 B5"])
    assert a["valid"] is True
    assert a["played"] == ["R11"]
    assert a["jokers_retrieved"] == 1
    assert a["lay_offs"] == []


def test_a_joker_taken_back_without_its_tile_is_refused() -> None:
    # R3 R4 R5 JK: the joker stands for R6; taking it away leaves no R6 in its place
    a = turn("K2 K9", ["R3 R4 R5 JK"], ["R3 R4 R5"])
    assert a["reason"] == "joker_wrong_tile"
    assert a["tile"] == "R6"


def test_a_group_joker_is_replaced_by_a_missing_colour() -> None:
    # R7 B7 JK: the joker is the black or the yellow 7
    assert turn("Y7 K2", ["R7 B7 JK"], ["R7 B7 Y7"])["valid"] is True
    a = turn("R7 K2", ["B7 K7 JK"], ["B7 K7 R7"])
    assert a["valid"] is True  # red is missing from B7 K7: R7 is a tile the joker stood for
    bad = turn("K2 B1", ["R7 B7 JK"], ["R7 B7 K2"])
    assert bad["reason"] == "joker_wrong_tile"
    assert bad["tile"] == "K7, Y7"


def test_the_retrieved_joker_may_be_laid_again_in_the_same_turn() -> None:
    # R11 frees the joker of R10 JK R12; the joker then makes B5 B6 JK with two rack tiles
    a = turn("R11 B5 B6 K9", ["R10 JK R12"], ["R10 R11 R12", "B5 B6 JK"])
    assert a["valid"] is True
    assert a["played"] == ["B5", "B6", "R11", "JK"]
    assert a["new_melds"] == [1]


def test_a_joker_from_a_pair_is_retrieved_with_the_matching_tile() -> None:
    a = turn("R5 K9 B1", ["R5 JK"], ["R5 R5"])
    assert a["valid"] is True
    assert a["jokers_retrieved"] == 1


# -- lay-offs (only after one's own opening; never onto a pair) -------------------------------


def test_laying_off_onto_a_pairs_meld_is_refused() -> None:
    a = turn("R5 K2 K9", ["R5 JK"], ["R5 R5 JK"])
    assert a["valid"] is False
    assert a["reason"] == "lay_off_onto_pair"
    assert a["tiles"] == ["R5"]
    b = turn("R4 K2 K9", ["R5 R5"], ["R4 R5 R5"])
    assert b["reason"] == "lay_off_onto_pair"


def test_laying_off_before_ones_own_opening_is_refused() -> None:
    a = turn("R6 K2 K9", ["R3 R4 R5"], ["R3 R4 R5 R6"], opened="none")
    assert a["reason"] == "lay_off_before_opening"
    assert a["rule_ref"]["section"] == "after_opening"


def test_laying_off_onto_anothers_meld_after_opening() -> None:
    # the seed's examples: R2 before R3-R4-R5 or R6 after it; a fourth 8 of the missing colour
    a = turn("R2 R6 Y8 B1", ["R3 R4 R5", "R8 B8 K8"], ["R2 R3 R4 R5 R6", "R8 B8 K8 Y8"])
    assert a["valid"] is True
    assert a["played"] == ["R2", "R6", "Y8"]
    assert a["lay_offs"] == [{"meld": 0, "tiles": ["R2", "R6"]}, {"meld": 1, "tiles": ["Y8"]}]
    # a 6 of another colour does not fit the red run
    b = turn("B6 B1", ["R3 R4 R5"], ["R3 R4 R5 B6"])
    assert b["reason"] == "invalid_meld"


def test_a_pairs_opener_may_lay_off_onto_others_melds() -> None:
    a = turn("R6 B1", ["R3 R4 R5", "K2 K2"], ["R3 R4 R5 R6", "K2 K2"], opened="pairs")
    assert a["valid"] is True


def test_a_table_meld_is_never_split_or_rearranged() -> None:
    a = turn("R9 B1", ["R3 R4 R5 R6 R7 R8"], ["R3 R4 R5", "R6 R7 R8 R9"])
    assert a["reason"] == "table_rearranged"
    assert a["meld"] == 0
    b = turn("B1 B2", ["R3 R4 R5"], ["R3 R4"])
    assert b["reason"] == "tile_taken_from_table"
    assert b["tile"] == "R5"


# -- pairs and runs by the kind of opening ----------------------------------------------------


def test_a_pairs_opener_laying_a_run_is_refused() -> None:
    a = turn("R5 R6 R7 B1", ["K2 K2"], ["K2 K2", "R5 R6 R7"], opened="pairs")
    assert a["valid"] is False
    assert a["reason"] == "pairs_opener_run"
    assert a["meld"] == 1
    # a group is refused the same way; a new pair is fine
    assert turn("R5 B5 K5 B1", [], ["R5 B5 K5"], opened="pairs")["reason"] == "pairs_opener_run"
    assert turn("R5 R5 B1", [], ["R5 R5"], opened="pairs")["valid"] is True


def test_a_melds_opener_lays_pairs_only_after_someone_opened_with_pairs() -> None:
    a = turn("R5 R5 B1", ["K3 K4 K5"], ["K3 K4 K5", "R5 R5"])
    assert a["reason"] == "pairs_not_allowed"
    assert a["meld"] == 1
    # a pair on the table means another player has opened with pairs
    assert turn("R5 R5 B1", ["K2 K2"], ["K2 K2", "R5 R5"])["valid"] is True
    # or the request says so
    assert turn("R5 R5 B1", [], ["R5 R5"], pairs_opened=True)["valid"] is True
    assert turn("R5 R5 B1", ["K2 K2"], ["K2 K2", "R5 R5"], pairs_opened=False)["reason"] == (
        "pairs_not_allowed"
    )


# -- the taken discard (used at once, in the same turn) ---------------------------------------


def test_a_discard_taken_and_not_used_is_refused() -> None:
    # already opened: the R6 must go into a meld or a lay-off this turn
    a = turn("B2 K9", ["R3 R4 R5"], ["R3 R4 R5"], taken_discard="R6")
    assert a["valid"] is False
    assert a["reason"] == "discard_not_used"
    assert a["taken_discard"] == "R6"
    assert a["rule_ref"]["section"] == "discard"
    # laying other tiles does not use it
    b = turn("B2 B3 B4 K9", ["R3 R4 R5"], ["R3 R4 R5", "B2 B3 B4"], taken_discard="R6")
    assert b["reason"] == "discard_not_used"
    # not opened and nothing laid: it must be used in an opening this turn
    c = turn("B2 K9", [], [], opened="none", taken_discard="R6")
    assert c["reason"] == "discard_not_used"


def test_the_seed_example_red_6_onto_red_3_4_5() -> None:
    a = turn("B2 K9", ["R3 R4 R5"], ["R3 R4 R5 R6"], taken_discard="R6")
    assert a["valid"] is True
    assert a["played"] == ["R6"]


# -- opening turns (not opened before: RULES.md §3 opening; the table goes in as text) --------
OPENING_TURNS: dict[str, tuple[str, str, str, dict[str, Any], dict[str, Any]]] = {
    # id: (rack, table before, table after (melds between "|"), request extras, answer fields)
    # Y9 frees the joker of Y8 JK Y10; the opening 36 + 33 + 36 = 105 would need that joker
    # (B11 K11 JK): the joker comes back only after the opening, so it is not an opening
    "retrieved joker not in the opening": (
        "R11 R12 R13 B11 K11 Y9 K12 B12 Y12 B1",
        "Y8 JK Y10",
        "Y8 Y9 Y10 | R11 R12 R13 | B11 K11 JK | Y12 K12 B12",
        {},
        {
            "valid": False,
            "reason": "joker_before_opening",
            "key": "r101.turn.retrieved_joker_in_opening",
        },
    ),
    # the replacing tile must come from the rack: no Y9 there
    "joker replaced by a tile not on the rack": (
        "R11 R12 R13 B11 K11 Y11 K12 B12 Y12 B1",
        "Y8 JK Y10",
        "Y8 Y9 Y10 | R11 R12 R13 | B11 K11 Y11 | Y12 K12 B12",
        {},
        {"reason": "tile_not_on_rack", "tile": "Y9"},
    ),
    # opening 36 + 36 + 36 = 108 from the rack, then Y9 takes back the joker of Y8 JK Y10; but
    # K12 twice: the rack holds one K12 only
    "retrieval after the opening, one K12 short": (
        "R11 R12 R13 B12 K12 Y12 K11 K13 Y9 B1",
        "Y8 JK Y10",
        "Y8 Y9 Y10 | R11 R12 R13 | B12 K12 Y12 | K11 K12 K13",
        {},
        {"reason": "tile_not_on_rack"},
    ),
    "retrieval after the opening in the opening turn": (
        "R11 R12 R13 B12 K12 Y12 K10 K11 K9 Y9 B1",
        "Y8 JK Y10",
        "Y8 Y9 Y10 | R11 R12 R13 | B12 K12 Y12 | K9 K10 K11",
        {},
        # the Y9 replacement does not count
        {"valid": True, "opening": "melds", "initial_meld": 36 + 36 + 30, "jokers_retrieved": 1},
    ),
    # opening R11-R13 + B11 K11 Y11 + B12 K12 Y12 = 36 + 33 + 36 = 105, then R6 onto R3-R5
    "lay-off after the opening in the opening turn": (
        "R11 R12 R13 B11 K11 Y11 B12 K12 Y12 R6 B1",
        "R3 R4 R5",
        "R3 R4 R5 R6 | R11 R12 R13 | B11 K11 Y11 | B12 K12 Y12",
        {},
        {"valid": True, "initial_meld": 105},  # the lay-off does not count
    ),
    # without the lay-off counting, 36 + 33 = 69 is no opening even with R6 laid off
    "a lay-off does not count towards the opening": (
        "R11 R12 R13 B11 K11 Y11 R6 B1",
        "R3 R4 R5",
        "R3 R4 R5 R6 | R11 R12 R13 | B11 K11 Y11",
        {},
        {"reason": "below_threshold", "value": 69},
    ),
    "pairs and melds mixed": (
        "R11 R12 R13 B11 K11 Y11 B12 K12 Y12 R5 R5 B1",
        "K2 K2",
        "K2 K2 | R11 R12 R13 | B11 K11 Y11 | B12 K12 Y12 | R5 R5",
        {},
        {"reason": "mixed_pairs_and_melds"},
    ),
    "five pairs": (
        "R5 R5 B6 B6 K7 K7 Y8 Y8 R1 JK B2",
        "",
        "R5 R5 | B6 B6 | K7 K7 | Y8 Y8 | R1 JK",
        {},
        {"valid": True, "opening": "pairs", "initial_meld": None, "key": "r101.turn.valid_pairs"},
    ),
    "four pairs": (
        "R5 R5 B6 B6 K7 K7 Y8 Y8 B2",
        "",
        "R5 R5 | B6 B6 | K7 K7 | Y8 Y8",
        {},
        {"reason": "too_few_pairs"},
    ),
    # the taken R11 makes R11 R12 R13 (36); + B11 K11 Y11 (33) + B12 K12 Y12 (36) = 105
    "a taken discard used in the opening": (
        "R12 R13 B11 K11 Y11 B12 K12 Y12 B1",
        "",
        "R11 R12 R13 | B11 K11 Y11 | B12 K12 Y12",
        {"taken_discard": "R11"},
        {"valid": True, "opening": "melds", "initial_meld": 105},
    ),
    # the R6 only laid off after the opening: not used in the opening itself
    "a taken discard laid off after the opening": (
        "R12 R13 R11 B11 K11 Y11 B12 K12 Y12 B1",
        "R3 R4 R5",
        "R3 R4 R5 R6 | R11 R12 R13 | B11 K11 Y11 | B12 K12 Y12",
        {"taken_discard": "R6"},
        {"reason": "discard_not_used"},
    ),
    # an opening short of 101 with the discard in it is still short: 36 + 33 = 69
    "a taken discard in an opening short of 101": (
        "R12 R13 B11 K11 Y11 B1",
        "",
        "R11 R12 R13 | B11 K11 Y11",
        {"taken_discard": "R11"},
        {"reason": "below_threshold"},
    ),
}


def melds_of(table: str) -> list[str]:
    """``"R5 R5 | B6 B6"`` -> ``["R5 R5", "B6 B6"]`` (``""``: an empty table)."""
    return [m.strip() for m in table.split("|") if m.strip()]


@pytest.mark.parametrize(
    ("rack", "before", "after", "extra", "expected"),
    list(OPENING_TURNS.values()),
    ids=list(OPENING_TURNS),
)
def test_opening_turns(
    rack: str, before: str, after: str, extra: dict[str, Any], expected: dict[str, Any]
) -> None:
    a = turn(rack, melds_of(before), melds_of(after), opened="none", **extra)
    assert {k: a[k] for k in expected} == expected
    if extra.get("taken_discard") and a["valid"]:
        assert extra["taken_discard"] in a["played"]


# -- the rest of the turn ---------------------------------------------------------------------


def test_one_tile_must_stay_to_discard() -> None:
    # only 7-8-9 on the rack: laying all three leaves nothing to discard (seed 000)
    a = turn("R7 R8 R9", [], ["R7 R8 R9"])
    assert a["reason"] == "no_tile_to_discard"
    assert turn("R7 R8 R9 B1", [], ["R7 R8 R9"])["valid"] is True


def test_a_tile_not_on_the_rack_is_refused() -> None:
    a = turn("B1 B2", ["R3 R4 R5"], ["R3 R4 R5 R6"])
    assert a["reason"] == "tile_not_on_rack"
    assert a["tile"] == "R6"


def test_a_turn_that_lays_nothing_is_valid() -> None:
    a = turn("B1 B2", ["R3 R4 R5"], ["R3 R4 R5"], opened="none")
    assert a["valid"] is True
    assert a["played"] == []
    assert a["key"] == "r101.turn.nothing_laid"


def test_identical_melds_are_matched_the_favourable_way() -> None:
    # two R3 R4 R5 on the table; R6 extends the second, given first in the after list
    a = turn("R6 B1", ["R3 R4 R5", "R3 R4 R5"], ["R3 R4 R5 R6", "R3 R4 R5"])
    assert a["valid"] is True
    assert a["lay_offs"] == [{"meld": 0, "tiles": ["R6"]}]


def test_request_errors() -> None:
    base = {
        "check": "turn",
        "variant": "rummy101",
        "rack": "B1",
        "table_before": [],
        "table_after": [],
    }
    assert answer(base)["error"] == "missing_field"  # opened
    assert answer({**base, "opened": True})["error"] == "bad_field"
    assert answer({**base, "opened": "yes"})["error"] == "bad_field"
    assert answer({**base, "opened": "melds", "table_after": {"heap": ["B1"]}})["error"] == (
        "bad_field"
    )
    assert answer({**base, "opened": "melds", "taken_discard": "R1 R2"})["error"] == "bad_field"
    bad_before = {**base, "opened": "melds", "table_before": [["R1", "B2", "K3"]]}
    assert answer(bad_before)["error"] == "bad_field"
    # three R5: more copies than the set holds
    three = {**base, "opened": "melds", "rack": "R5 R5", "table_before": [["R5", "B5", "K5"]]}
    assert answer(three)["error"] == "too_many_copies"


# -- properties -------------------------------------------------------------------------------

_RUNS = [(c, lo, n) for c in "RBKY" for n in (3, 4) for lo in range(1, 15 - n)]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(_RUNS), min_size=1, max_size=3),
    st.sampled_from(["melds", "pairs"]),
)
def test_laying_whole_new_runs_from_the_rack_after_opening(
    runs: list[tuple[str, int, int]], opened: str
) -> None:
    """A melds opener laying whole new runs (tiles from the rack, one tile kept) is valid; a
    pairs opener doing the same is refused with ``pairs_opener_run``."""
    melds = [[f"{c}{k}" for k in range(lo, lo + n)] for c, lo, n in runs]
    tiles = [t for m in melds for t in m]
    rack = [*tiles, "JK"]
    req = {
        "check": "turn",
        "variant": "rummy101",
        "rack": rack,
        "table_before": [["B1", "B1"]],
        "table_after": [["B1", "B1"], *melds],
        "opened": opened,
    }
    a = answer(req)
    if a.get("error") == "too_many_copies":  # the same run drawn three times
        return
    assert a["ok"], a
    if opened == "melds":
        assert a["valid"] is True, a
        assert sorted(a["played"]) == sorted(tiles)
        assert a["new_melds"] == list(range(1, len(melds) + 1))
    else:
        assert a["reason"] == "pairs_opener_run"


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(_RUNS), st.integers(0, 3), st.sampled_from("RBKY"))
def test_a_run_joker_is_retrieved_only_with_its_own_tile(
    run: tuple[str, int, int], at: int, colour: str
) -> None:
    """A joker standing inside a run is freed by exactly one tile: that number in the run's
    colour; the same number in another colour is ``joker_wrong_tile``."""
    c, lo, n = run
    at = at % n
    before = [f"{c}{k}" for k in range(lo, lo + n)]
    stood = before[at]
    before[at] = "JK"
    tile = f"{colour}{lo + at}"
    after = [*before]
    after[at] = tile
    v = judge_turn_101(
        parse_pieces([tile, "B13" if c != "B" else "K13"], "tiles"),
        [parse_pieces(before, "tiles")],
        [parse_pieces(after, "tiles")],
        opened="melds",
    )
    if colour == c:
        assert v.valid, v
        assert v.params["jokers_retrieved"] == 1
    else:
        assert v.reason == "joker_wrong_tile", v
        assert v.params["tile"] == stood


@pytest.mark.parametrize("opened", ["none", "melds", "pairs"])
def test_every_answer_names_a_rule_book_section(opened: str) -> None:
    a = turn("R6 B1", ["R3 R4 R5"], ["R3 R4 R5 R6"], opened=opened)
    assert a["rule_ref"]["section"] in (
        "turn",
        "discard",
        "melds",
        "opening",
        "pairs",
        "after_opening",
        "jokers",
        "finishing",
    )


# -- the app's turn checker (issue 10 point 7) -------------------------------------------------


def test_the_app_turn_checker_asks_rummy101_fields(tmp_path: Any) -> None:
    from app.store import Store
    from app.ui.referee.checkers import TurnChecker, kinds_variants
    from app.ui.shell import App
    from tests.test_checkers import enter_turn, tap, verdict_text

    assert "rummy101" in kinds_variants("turn")
    store = Store(tmp_path / "games.json")
    try:
        app = App(store)
        app.show("/")
        screen = TurnChecker(app, variant="rummy101")
        assert screen.after_mode.control.visible is False  # no heap: melds are only added to
        assert screen.opened is not None and screen.took is not None
        assert screen.discard is not None
        enter_turn(screen, "B2 K9", ["R3 R4 R5"], ["R3 R4 R5"])
        screen.took.pick("yes")
        tap(screen.discard, "R6")
        a = screen.check()
        assert screen.request["opened"] == "melds"
        assert screen.request["taken_discard"] == "R6"
        assert a["reason"] == "discard_not_used"
        shown = verdict_text(screen)
        assert "Not valid" in shown and "The taken discard is not used" in shown
        assert "r101." not in shown and "table_before[" not in shown
        screen.opened.pick("none")
        screen.took.pick("no")
        screen.rack.set_pieces(["R6", "B2", "K9"])
        screen.after.set_melds([["R3", "R4", "R5", "R6"]])
        a = screen.check()
        assert screen.request["opened"] == "none"
        assert "taken_discard" not in screen.request
        assert a["reason"] == "lay_off_before_opening"
        assert 0 in screen.before.faults  # the meld laid off onto is framed red
        assert "Tiles were laid off before opening" in verdict_text(screen)
    finally:
        store.close()


def test_a_joker_is_never_moved_to_another_place() -> None:
    # R3 R4 JK: the joker is R5; JK R2 R3 R4 moves it to R1 without an R5 in its place
    a = turn("R2 B1", ["R3 R4 JK"], ["JK R2 R3 R4"])
    assert a["reason"] == "joker_wrong_tile"
    assert a["tile"] == "R5"
    # the same pieces with the joker slid over: R5 R6 JK (R7) laid as JK R5 R6 (R4)
    assert turn("B1 B2", ["R5 R6 JK"], ["JK R5 R6"])["reason"] == "joker_wrong_tile"
    # a run entered descending keeps its joker: R7 JK R5 is R5 R6 R7 either way
    assert turn("B1 B2", ["R5 JK R7"], ["R7 JK R5"])["valid"] is True
    # R5 takes the joker's place and the joker goes on at the end (now R6): both allowed
    b = turn("R5 B1", ["R3 R4 JK"], ["R3 R4 R5 JK"])
    assert b["valid"] is True
    # a group joker stays open: R7 B7 JK + K7 makes the joker the yellow 7
    assert turn("K7 B1", ["R7 B7 JK"], ["R7 B7 K7 JK"])["valid"] is True


def test_a_taken_discard_may_replace_a_joker() -> None:
    # opened; the taken R11 takes the place of the joker of R10 JK R12: used at once
    a = turn("B2 K9", ["R10 JK R12"], ["R10 R11 R12"], taken_discard="R11")
    assert a["valid"] is True
    assert a["played"] == ["R11"]
    assert a["jokers_retrieved"] == 1
