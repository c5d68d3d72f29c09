"""Rummy 101 opening, round and game scoring (RULES.md §3, seed 000).

Every expected value is worked out by hand from the rule text: an opening by melds needs runs and
groups worth ≥ 101 in one turn (a joker counts as the tile it replaces); by pairs ≥ 5 pairs, no
point minimum; never both. Rising thresholds: more than the highest opening so far, melds and
pairs separately. Round: winner +101 × m, opponent −penalty × m with m = normal 1, joker 2,
one_turn 2, one_turn_joker 4, stock_out 1; penalty = 202 not opened (flat), tiles left opened
with melds, 2 × tiles left opened with pairs; a joker left in hand counts 101.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.judge import answer
from rules.notation import parse_pieces
from rules.options import Rummy101Options
from rules.pieces import Joker, Piece
from rules.variants.rummy101 import (
    OPENED,
    Finish,
    Opened,
    OpeningRecord,
    PreviousOpening,
    Rummy101Player,
    check_opening,
    max_hand_value,
    next_thresholds,
    score_game,
    score_round,
)

RISING = Rummy101Options(preset="rising", threshold_mode="rising")


def T(text: str) -> tuple[Piece, ...]:
    return tuple(parse_pieces(text, "tiles"))


def M(*melds: str) -> list[tuple[Piece, ...]]:
    return [T(m) for m in melds]


def judge(**req: Any) -> dict[str, Any]:
    return answer({"variant": "rummy101", **req})


# 30 (group of 10s) + 36 (Y11-13) + 35 (K5-K9) = 101
AT_101 = ("R10 B10 Y10", "Y11 Y12 Y13", "K5 K6 K7 K8 K9")
# 30 + 36 + 34 (K7-K10) = 100
AT_100 = ("R10 B10 Y10", "Y11 Y12 Y13", "K7 K8 K9 K10")
# 36 + 36 + 45 (K7-K11) = 117; 36 + 36 + 44 (R2-R9) = 116
AT_117 = ("Y11 Y12 Y13", "B11 B12 B13", "K7 K8 K9 K10 K11")
AT_116 = ("Y11 Y12 Y13", "B11 B12 B13", "R2 R3 R4 R5 R6 R7 R8 R9")
FIVE_PAIRS = ("R1 R1", "B2 B2", "K3 K3", "Y4 Y4", "R5 R5")
FOUR_PAIRS = FIVE_PAIRS[:4]
SIX_PAIRS = (*FIVE_PAIRS, "B6 B6")


# ---------------------------------------------------------------------------------------------
# Opening by melds
# ---------------------------------------------------------------------------------------------


def test_seed_example_102_opens_and_first_two_melds_69_do_not() -> None:
    ok = check_opening(M("R10 R11 R12", "B11 B12 B13", "K11 Y11 B11"))
    assert (ok.valid, ok.by, ok.value, ok.needed) == (True, "melds", 102, 101)
    low = check_opening(M("R10 R11 R12", "B11 B12 B13"))
    assert (low.valid, low.reason, low.value) == (False, "below_threshold", 69)
    assert "101" in low.message and "69" in low.message and "§3" in low.message


def test_exactly_at_threshold_opens_one_below_does_not() -> None:
    at = check_opening(M(*AT_101))
    assert (at.valid, at.value) == (True, 101)
    below = check_opening(M(*AT_100))
    assert (below.valid, below.reason, below.value) == (False, "below_threshold", 100)


def test_joker_counts_as_the_tile_it_replaces() -> None:
    # R11 R12 JK: JK = R13 → 36; + B11 B12 B13 36 + K10 B10 Y10 30 = 102
    v = check_opening(M("R11 R12 JK", "B11 B12 B13", "K10 B10 Y10"))
    assert (v.valid, v.value) == (True, 102)
    assert v.melds[0].jokers == ("R13",)


def test_needed_overrides_the_option() -> None:
    v = check_opening(M("R10 R11 R12", "B11 B12 B13"), needed=69)
    assert (v.valid, v.needed) == (True, 69)
    v = check_opening(M(*AT_101), Rummy101Options(threshold=120))
    assert (v.valid, v.reason, v.needed) == (False, "below_threshold", 120)


def test_invalid_meld_is_named() -> None:
    v = check_opening(M("R10 R11 R12", "B1 B2 B4", "K11 Y11 B11"))
    assert (v.valid, v.reason) == (False, "invalid_meld")
    assert v.params["meld_index"] == 1
    assert "meld 2" in v.message and "B1 B2 B4" in v.message
    assert v.value == 66  # only the valid melds counted


def test_same_number_other_colour_is_not_a_pair() -> None:
    v = check_opening(M("R5 B5", *FOUR_PAIRS))
    assert (v.valid, v.reason, v.params["meld_index"]) == (False, "invalid_meld", 0)


def test_two_tile_meld_beside_runs_is_mixing() -> None:
    v = check_opening(M(*AT_101, "R1 R1"))
    assert (v.valid, v.reason, v.by) == (False, "mixed_pairs_and_melds", None)
    assert v.pairs == 1


def test_too_many_copies_across_melds() -> None:
    v = check_opening(M("R5 R6 R7", "R5 B5 K5", "R5 R4 R3"))
    assert (v.valid, v.reason) == (False, "too_many_copies")


def test_no_melds() -> None:
    assert check_opening([]).reason == "no_melds"


# ---------------------------------------------------------------------------------------------
# Opening by pairs
# ---------------------------------------------------------------------------------------------


def test_five_pairs_open_without_points_four_do_not() -> None:
    five = check_opening(M(*FIVE_PAIRS))
    # 2 + 4 + 6 + 8 + 10 = 30 points, far below 101: pairs need no minimum
    assert (five.valid, five.by, five.pairs, five.value, five.pairs_needed) == (
        True,
        "pairs",
        5,
        30,
        5,
    )
    four = check_opening(M(*FOUR_PAIRS))
    assert (four.valid, four.reason, four.pairs) == (False, "too_few_pairs", 4)


def test_pair_with_a_joker() -> None:
    v = check_opening(M("B9 JK", *FOUR_PAIRS))
    assert (v.valid, v.pairs) == (True, 5)
    assert v.melds[0].kind == "pair" and v.melds[0].jokers == ("B9",) and v.melds[0].value == 18


def test_two_jokers_are_not_a_pair() -> None:
    v = check_opening(M("JK JK", *FOUR_PAIRS))
    assert (v.valid, v.reason) == (False, "invalid_meld")


def test_pairs_needed_override() -> None:
    assert check_opening(M(*FOUR_PAIRS), pairs_needed=4).valid
    v = check_opening(M(*FIVE_PAIRS), Rummy101Options(pairs_needed=6))
    assert (v.valid, v.reason) == (False, "too_few_pairs")


# ---------------------------------------------------------------------------------------------
# Taken discard and hand
# ---------------------------------------------------------------------------------------------


def test_taken_discard_used_counts_toward_the_opening() -> None:
    # the discarded R6 is in the run R4 R5 R6 (15) and counts: 15 + 36 + 36 = 87
    melds = M("R4 R5 R6", "Y11 Y12 Y13", "B11 B12 B13")
    v = check_opening(melds, needed=87, taken_discard=T("R6")[0])
    assert (v.valid, v.value) == (True, 87)  # 15 + 36 + 36


def test_taken_discard_not_used() -> None:
    v = check_opening(M(*AT_101), taken_discard=T("R6")[0])
    assert (v.valid, v.reason, v.value) == (False, "discard_not_used", 101)
    assert v.params["taken_discard"] == "R6"


def test_taken_discard_in_a_pairs_opening() -> None:
    assert check_opening(M(*FIVE_PAIRS), taken_discard=T("Y4")[0]).valid
    v = check_opening(M(*FIVE_PAIRS), taken_discard=T("Y9")[0])
    assert v.reason == "discard_not_used"


def test_hand_must_hold_the_tiles_and_keep_one_to_discard() -> None:
    melds = M(*AT_101)
    laid = " ".join(AT_101)
    assert check_opening(melds, hand=T(laid + " R1")).valid
    v = check_opening(melds, hand=T(laid))
    assert (v.valid, v.reason) == (False, "no_tile_to_discard")
    v = check_opening(melds, hand=T(laid.replace("K9", "K13") + " R1"))
    assert (v.valid, v.reason, v.params["tiles"]) == (False, "tile_not_in_hand", ["K9"])
    # the taken discard counts as held even when the hand leaves it out
    v = check_opening(melds, hand=T(laid.replace("K9", "") + " R1"), taken_discard=T("K9")[0])
    assert v.valid


# ---------------------------------------------------------------------------------------------
# Rising thresholds
# ---------------------------------------------------------------------------------------------


def test_next_thresholds_rise_separately() -> None:
    t = next_thresholds([], RISING)
    assert (t.needed, t.pairs_needed, t.rising) == (101, 5, True)
    t = next_thresholds([PreviousOpening("melds", value=116)], RISING)
    assert (t.needed, t.pairs_needed) == (117, 5)
    t = next_thresholds([PreviousOpening("pairs", pairs=5)], RISING)
    assert (t.needed, t.pairs_needed) == (101, 6)
    t = next_thresholds(
        [
            PreviousOpening("melds", value=104),
            PreviousOpening("pairs", pairs=5),
            PreviousOpening("melds", value=116),
            PreviousOpening("pairs", pairs=7),
        ],
        RISING,
    )
    assert (t.needed, t.pairs_needed) == (117, 8)
    # an opening exactly at 101 makes the next need 102
    assert next_thresholds([PreviousOpening("melds", value=101)], RISING).needed == 102


def test_fixed_mode_ignores_previous_openings() -> None:
    t = next_thresholds([PreviousOpening("melds", value=116)], Rummy101Options())
    assert (t.needed, t.pairs_needed, t.rising) == (101, 5, False)


def test_record_accumulates_verdicts() -> None:
    first = check_opening(M(*AT_116), RISING)
    assert first.valid and first.value == 116
    record = OpeningRecord().add(first)
    assert record.thresholds(RISING).needed == 117
    second = check_opening(M(*AT_116), RISING, previous=[first])
    assert (second.valid, second.reason, second.needed) == (False, "below_threshold", 117)
    third = check_opening(M(*AT_117), RISING, previous=[first])
    assert third.valid
    # an invalid opening changes nothing
    assert record.add(second) == record
    pairs = check_opening(M(*FIVE_PAIRS), RISING, previous=[first])
    assert pairs.valid  # melds and pairs rise separately
    after = record.add(pairs)
    assert check_opening(M(*FIVE_PAIRS), RISING, previous=[first, pairs]).reason == (
        "too_few_pairs"
    )
    assert check_opening(M(*SIX_PAIRS), RISING, previous=[first, pairs]).valid
    assert after.thresholds(RISING).pairs_needed == 6


def test_judge_previous_openings() -> None:
    melds = [m.split() for m in AT_116]
    r = judge(
        check="opening",
        options={"preset": "rising"},
        melds=melds,
        previous_openings=[{"by": "melds", "value": 116}],
    )
    assert r["ok"] and not r["valid"] and r["needed"] == 117 and r["value"] == 116
    r = judge(
        check="opening",
        options={"preset": "rising"},
        melds=[m.split() for m in FIVE_PAIRS],
        previous_openings=[{"by": "pairs", "pairs": 5}],
    )
    assert (r["valid"], r["reason"], r["pairs_needed"]) == (False, "too_few_pairs", 6)
    # explicit needed still overrides
    r = judge(
        check="opening",
        options={"preset": "rising"},
        melds=melds,
        needed=116,
        previous_openings=[{"by": "melds", "value": 116}],
    )
    assert r["valid"]
    bad = judge(check="opening", melds=melds, previous_openings=[{"by": "runs", "value": 1}])
    assert (bad["ok"], bad["error"]) == (False, "bad_field")


def test_judge_opening_examples() -> None:
    r = judge(check="opening", melds=[["R10", "R11", "R12"], ["B11", "B12", "B13"]])
    assert r == r | {"ok": True, "valid": False, "value": 69, "reason": "below_threshold"}
    r = judge(
        check="opening",
        melds=[["R4", "R5", "R6"], ["Y11", "Y12", "Y13"], ["B11", "B12", "B13"]],
        needed=87,
        pairs_needed=5,
        taken_discard="R6",
    )
    assert (r["valid"], r["by"], r["value"], r["pairs"], r["needed"]) == (
        True,
        "melds",
        87,
        0,
        87,
    )
    r = judge(check="opening", melds=[["R1", "R1"]], taken_discard=["R1", "R2"])
    assert (r["ok"], r["error"]) == (False, "bad_field")


# ---------------------------------------------------------------------------------------------
# Round scoring: every finish × every opening state
# ---------------------------------------------------------------------------------------------

# rest = R5 B7 → 12; with a joker R5 JK → 5 + 101 = 106
CASES: list[tuple[Opened, str, int]] = [
    # (opened, hand, penalty before the multiplier)
    ("none", "R5 B7", 202),
    ("none", "R5 JK", 202),  # a joker in an unopened hand adds nothing: 202 is flat
    ("melds", "R5 B7", 12),
    ("melds", "R5 JK", 106),
    ("pairs", "R5 B7", 24),
    ("pairs", "R5 JK", 212),
]
FINISH_M: dict[Finish, tuple[int, int]] = {
    "normal": (101, 1),
    "joker": (202, 2),
    "stock_out": (0, 1),
}
PROPERTY_FINISHES: tuple[Finish, ...] = ("normal", "joker", "stock_out")


@pytest.mark.parametrize("finish", ["normal", "joker", "stock_out"])
@pytest.mark.parametrize(("opened", "hand", "pen"), CASES)
def test_finish_table(finish: Finish, opened: Opened, hand: str, pen: int) -> None:
    gain, m = FINISH_M[finish]
    players = [
        Rummy101Player("W", winner=finish != "stock_out", opened="melds", hand=()),
        Rummy101Player("L", opened=opened, hand=T(hand)),
    ]
    if finish == "stock_out":
        players[0] = Rummy101Player("W", opened="melds", hand=T("K1"))
    r = score_round(finish, players)
    assert r.valid, r.message
    assert r.scores["L"] == -pen * m
    line = r.breakdown[1]
    assert (line.points, line.detail["penalty"], line.detail["multiplier"]) == (-pen * m, pen, m)
    if finish == "stock_out":
        assert r.scores["W"] == -1 and r.winners == ()
    else:
        assert r.scores["W"] == gain and r.winners == ("W",)


def test_hand_worked_joker_finish_values() -> None:
    # joker finish: 404 to an unopened opponent, 2 × the sum to a melds opener, 4 × to pairs
    r = score_round(
        "joker",
        [
            Rummy101Player("W", winner=True),
            Rummy101Player("A", opened="none", hand=T("R5 B7")),
            Rummy101Player("B", opened="melds", hand=T("K5 Y7")),
            Rummy101Player("C", opened="pairs", hand=T("R5 B7")),
        ],
    )
    assert r.scores == {"W": 202, "A": -404, "B": -24, "C": -48}


@pytest.mark.parametrize(
    ("finish", "gain", "loss"), [("one_turn", 202, 404), ("one_turn_joker", 404, 808)]
)
def test_one_turn_finishes(finish: Finish, gain: int, loss: int) -> None:
    r = score_round(
        finish,
        [
            Rummy101Player("W", winner=True, opened="melds"),
            Rummy101Player("A", opened="none", hand=T("R5 B7")),
            Rummy101Player("B", opened="none", hand=T("R5 JK")),
            Rummy101Player("C", opened="none"),
        ],
    )
    assert r.scores == {"W": gain, "A": -loss, "B": -loss, "C": -loss}
    assert all(line.detail["multiplier"] == gain // 101 for line in r.breakdown)


def test_hand_value_and_jokers_form() -> None:
    r = score_round(
        "normal",
        [
            Rummy101Player("W", winner=True),
            Rummy101Player("A", opened="melds", hand_value=17, jokers=0),
            Rummy101Player("B", opened="melds", hand_value=17, jokers=1),
            Rummy101Player("C", opened="pairs", hand_value=17, jokers=1),
        ],
    )
    assert r.scores == {"W": 101, "A": -17, "B": -118, "C": -236}
    assert "101" in r.breakdown[2].why and "§3" in r.breakdown[2].why


def test_judge_round_example() -> None:
    r = judge(
        check="round",
        finish="normal",
        players=[
            {"name": "Ala", "winner": True},
            {"name": "Ola", "opened": "melds", "hand": ["R5", "B7"]},
            {"name": "Ela", "opened": "none", "hand": ["K1"]},
        ],
    )
    assert r["ok"] and r["valid"]
    assert r["scores"] == {"Ala": 101, "Ola": -12, "Ela": -202}
    assert [b["name"] for b in r["breakdown"]] == ["Ala", "Ola", "Ela"]
    assert r["breakdown"][2]["penalty"] == 202 and r["breakdown"][2]["multiplier"] == 1
    r = judge(
        check="round",
        finish="stock_out",
        players=[
            {"name": "A", "opened": "melds", "hand_value": 17, "jokers": 0},
            {"name": "B", "opened": "pairs", "hand": ["JK"]},
        ],
    )
    assert r["scores"] == {"A": -17, "B": -202} and r["winners"] == []


# ---------------------------------------------------------------------------------------------
# Impossible rounds
# ---------------------------------------------------------------------------------------------


def _impossible(finish: Finish, *players: Rummy101Player) -> str | None:
    r = score_round(finish, players)
    assert not r.valid and not r.scores
    return r.reason


W = Rummy101Player("W", winner=True)
L = Rummy101Player("L", opened="melds", hand=T("R5"))


def test_impossible_rounds() -> None:
    assert _impossible("normal", W, Rummy101Player("X", winner=True)) == "two_winners"
    assert _impossible("normal", L, Rummy101Player("M", opened="none")) == "no_winner"
    assert _impossible("stock_out", W, L) == "winner_in_stock_out"
    assert _impossible("one_turn", W, L) == "opened_in_one_turn"
    assert _impossible("one_turn_joker", W, Rummy101Player("P", opened="pairs")) == (
        "opened_in_one_turn"
    )
    assert _impossible("normal", Rummy101Player("W", winner=True, hand=T("R1")), L) == (
        "winner_has_tiles"
    )
    assert _impossible("normal", W) == "player_count"
    five = [Rummy101Player(f"P{i}", opened="none") for i in range(4)]
    assert _impossible("normal", W, *five) == "player_count"


def test_impossible_hands() -> None:
    big = T("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 B1 B2 B3 B4 B5 B6 B7 B8 B9 B10")
    assert len(big) == 23
    assert _impossible("normal", W, Rummy101Player("L", opened="melds", hand=big)) == (
        "hand_too_large"
    )
    assert score_round("normal", [W, Rummy101Player("L", opened="melds", hand=big[:22])]).valid
    assert _impossible("normal", W, Rummy101Player("L", opened="melds", hand_value=-1)) == (
        "negative_hand_value"
    )
    assert _impossible(
        "normal", W, Rummy101Player("L", opened="melds", hand_value=5, jokers=-1)
    ) == ("negative_hand_value")
    assert max_hand_value(22) == 8 * 13 + 8 * 12 + 6 * 11 == 266
    assert score_round("normal", [W, Rummy101Player("L", opened="melds", hand_value=266)]).valid
    assert _impossible("normal", W, Rummy101Player("L", opened="melds", hand_value=267)) == (
        "impossible_hand_value"
    )
    # with 2 jokers only 20 numbered tiles fit: 8×13 + 8×12 + 4×11 = 244
    assert _impossible(
        "normal", W, Rummy101Player("L", opened="melds", hand_value=245, jokers=2)
    ) == ("impossible_hand_value")
    assert _impossible(
        "normal", W, Rummy101Player("L", opened="melds", hand_value=5, jokers=3)
    ) == ("too_many_copies")
    assert _impossible("normal", W, Rummy101Player("L", opened="melds", hand=())) == "empty_hand"
    assert (
        _impossible("normal", W, Rummy101Player("L", opened="melds", hand_value=0, jokers=0))
        == "empty_hand"
    )


def test_tiles_across_hands_beyond_the_set() -> None:
    assert (
        _impossible(
            "normal",
            W,
            Rummy101Player("A", opened="melds", hand=T("R5 R5")),
            Rummy101Player("B", opened="none", hand=T("R5")),
        )
        == "too_many_copies"
    )
    assert (
        _impossible(
            "normal",
            W,
            Rummy101Player("A", opened="melds", hand=T("JK R1")),
            Rummy101Player("B", opened="melds", hand_value=3, jokers=2),
        )
        == "too_many_copies"
    )


def test_judge_impossible_round_has_no_scores() -> None:
    r = judge(
        check="round",
        finish="normal",
        players=[{"name": "A", "winner": True}, {"name": "B", "winner": True}],
    )
    assert r["ok"] and not r["valid"] and r["reason"] == "two_winners" and "scores" not in r
    assert r["message"]


def test_judge_request_errors() -> None:
    base = {"name": "A", "winner": True}
    r = judge(check="round", players=[base, {"name": "B", "hand": ["R1"]}])
    assert (r["ok"], r["error"]) == (False, "missing_field")  # opened is required
    r = judge(check="round", finish="one_turn", players=[base, {"name": "B"}])
    assert r["ok"] and r["scores"] == {"A": 202, "B": -404}  # opened implied: none
    r = judge(check="round", finish="odd", players=[base, {"name": "B", "opened": "none"}])
    assert (r["ok"], r["error"]) == (False, "bad_field")
    r = judge(check="round", players=[base, {"name": "A", "opened": "none"}])
    assert (r["ok"], r["error"]) == (False, "bad_field")
    r = judge(check="round", players=[base, {"name": "B", "opened": "melds"}])
    assert (r["ok"], r["error"]) == (False, "missing_field")  # an opened loser needs a hand
    r = judge(
        check="round",
        players=[base, {"name": "B", "opened": "melds", "hand": ["R1"], "hand_value": 1}],
    )
    assert (r["ok"], r["error"]) == (False, "bad_field")
    r = judge(check="round", players=[base, {"name": "B", "opened": "melds", "hand": "R1 R1 R1"}])
    assert (r["ok"], r["error"]) == (False, "too_many_copies")  # within one hand: input error


# ---------------------------------------------------------------------------------------------
# Game
# ---------------------------------------------------------------------------------------------


def test_game_totals_and_planned_rounds() -> None:
    rounds = [{"A": 101, "B": -12}, {"A": -5, "B": 101}]
    g = score_game(["A", "B"], rounds)
    assert (g.totals, g.finished, g.winner, g.leaders) == ({"A": 96, "B": 89}, False, None, ("A",))
    g = score_game(["A", "B"], rounds, rounds_planned=2)
    assert (g.finished, g.winner, g.winners) == (True, "A", ("A",))
    g = score_game(["A", "B"], rounds, rounds_planned=3)
    assert not g.finished
    g = score_game(["A", "B"], rounds, rounds_planned=1)
    assert (g.valid, g.reason) == (False, "too_many_rounds")


def test_game_tie_and_judge() -> None:
    g = score_game(["A", "B", "C"], [{"A": 101, "B": -12}, {"B": 113, "A": 0, "C": -202}], 2)
    assert g.totals == {"A": 101, "B": 101, "C": -202}
    assert (g.winner, g.winners) == (None, ("A", "B"))
    r = judge(
        check="game",
        players=["A", "B"],
        rounds=[{"scores": {"A": 101, "B": -12}}],
        rounds_planned=1,
    )
    assert r == r | {"ok": True, "totals": {"A": 101, "B": -12}, "finished": True, "winner": "A"}
    assert r["bonuses"] == {"A": 0, "B": 0}
    r = judge(check="game", players=["A", "B"], rounds=[{"scores": {"Z": 1}}])
    assert (r["ok"], r["error"]) == (False, "bad_field")


# ---------------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------------

_TILE_TEXT = st.sampled_from([f"{c}{n}" for c in "RBKY" for n in range(1, 14)] + ["JK"])


@st.composite
def _rounds(draw: st.DrawFn) -> tuple[Finish, list[Rummy101Player]]:
    finish = draw(st.sampled_from(PROPERTY_FINISHES))
    n = draw(st.integers(2, 4))
    players: list[Rummy101Player] = []
    used: list[str] = []
    for i in range(n):
        if i == 0 and finish != "stock_out":
            players.append(Rummy101Player("P0", winner=True))
            continue
        k = draw(st.integers(1, 6))
        hand: list[str] = []
        for _ in range(k):
            t = draw(_TILE_TEXT)
            limit = 2
            if used.count(t) + hand.count(t) < limit:
                hand.append(t)
        if not hand:
            hand = ["R1"] if used.count("R1") < 2 else ["Y13"]
        used += hand
        opened = draw(st.sampled_from(OPENED))
        players.append(Rummy101Player(f"P{i}", opened=opened, hand=T(" ".join(hand))))
    return finish, players


@given(_rounds())
def test_round_sums_as_the_table_says(case: tuple[Finish, list[Rummy101Player]]) -> None:
    finish, players = case
    r = score_round(finish, players)
    if not r.valid:
        assert r.reason == "too_many_copies"
        return
    m = FINISH_M[finish][1]
    expected = 0
    for p in players:
        if p.winner:
            expected += 101 * m
            continue
        assert p.hand is not None
        rest = sum(101 if isinstance(t, Joker) else t.number for t in p.hand)
        pen = {"none": 202, "melds": rest, "pairs": 2 * rest}[p.opened]
        assert r.scores[p.name] == -pen * m
        expected -= pen * m
    assert sum(r.scores.values()) == expected
