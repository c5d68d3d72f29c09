"""Tile Rummy / My Rummy initial meld, round and game scoring (RULES.md §4; seeds 001, 004).

Values worked out by hand from the rule text: the initial meld is new melds of one's own tiles
worth ≥ 30 (50 in tiles50), a joker counting as the tile it replaces. The winner empties the
rack; each loser scores minus the tiles left (a joker 30); the winner scores the sum of the
losers' racks where winner_collects (Tile Rummy), 0 where not (My Rummy). Pool exhausted: the
lowest rack wins, each loser −(own − lowest), the winner the total of those differences.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.judge import answer
from rules.notation import parse_pieces
from rules.options import TileRummyOptions, options_for
from rules.pieces import Piece
from rules.variants.tiles import (
    PenaltyDraw,
    TilePlayer,
    check_initial_meld,
    score_game,
    score_round,
)


def _options(variant: str, given: dict[str, Any] | None = None) -> TileRummyOptions:
    opts = options_for(variant, given)
    assert isinstance(opts, TileRummyOptions)
    return opts


TILE = TileRummyOptions()
MY = _options("my_rummy")
TILES50 = _options("tile_rummy", {"preset": "tiles50"})


def T(text: str) -> tuple[Piece, ...]:
    return tuple(parse_pieces(text, "tiles"))


def M(*melds: str) -> list[tuple[Piece, ...]]:
    return [T(m) for m in melds]


def judge(variant: str = "tile_rummy", **req: Any) -> dict[str, Any]:
    return answer({"variant": variant, **req})


# ---------------------------------------------------------------------------------------------
# Initial meld
# ---------------------------------------------------------------------------------------------


def test_initial_meld_at_and_below_30() -> None:
    v = check_initial_meld(M("R9 R10 R11"))
    assert (v.valid, v.by, v.value, v.needed) == (True, "melds", 30, 30)
    v = check_initial_meld(M("R8 R9 R10", "B1 B2 B3"))  # 27 + 6 = 33
    assert (v.valid, v.value) == (True, 33)
    v = check_initial_meld(M("R8 R9 R10"))  # 27
    assert (v.valid, v.reason, v.value) == (False, "below_threshold", 27)
    assert "30" in v.message and "27" in v.message and "§4" in v.message


def test_seed_examples_count_jokers_as_replaced_tiles() -> None:
    # seed 001: "3333 56*" — group of 3s (12) + run 5 6 JK (JK = 7: 18) = 30
    v = check_initial_meld(M("R3 B3 K3 Y3", "R5 R6 JK"))
    assert (v.valid, v.value) == (True, 30)
    assert v.melds[1].jokers == ("R7",)
    # 4 JK 6: the joker is the 5 → 15
    assert check_initial_meld(M("R4 JK R6")).value == 15


def test_tiles50_at_50_and_one_below() -> None:
    # R11 R12 R13 (36) + B2 B3 B4 B5 (14) = 50 exactly
    at = check_initial_meld(M("R11 R12 R13", "B2 B3 B4 B5"), TILES50)
    assert (at.valid, at.value, at.needed) == (True, 50, 50)
    # R12 R13 JK: the joker can only extend downward (R11) → 36; + 14 = 50
    assert check_initial_meld(M("R12 R13 JK", "B2 B3 B4 B5"), TILES50).value == 50
    # R11 JK R13 (36) + B2 B3 B4 (9) + K1 Y1 R1 B1 (4) = 49
    below = check_initial_meld(M("R11 JK R13", "B2 B3 B4", "K1 Y1 R1 B1"), TILES50)
    assert (below.valid, below.reason, below.value) == (False, "below_threshold", 49)
    assert below.melds[0].jokers == ("R12",)
    # the same melds pass the default 30
    assert check_initial_meld(M("R11 JK R13", "B2 B3 B4", "K1 Y1 R1 B1")).valid


def test_a_two_tile_meld_is_not_a_tile_rummy_meld() -> None:
    v = check_initial_meld(M("R11 R12 R13", "B2 B2"))
    assert (v.valid, v.reason, v.params["meld_index"]) == (False, "invalid_meld", 1)


def test_invalid_and_other_reasons() -> None:
    v = check_initial_meld(M("R9 R10 R11", "B7 B7 K7"))
    assert (v.valid, v.reason, v.params["meld_index"]) == (False, "invalid_meld", 1)
    assert check_initial_meld([]).reason == "no_melds"
    v = check_initial_meld(M("R9 R10 R11", "R9 B9 K9", "R9 R8 R7"))
    assert v.reason == "too_many_copies"
    v = check_initial_meld(M("R9 R10 R11"), rack=T("R9 R10 B11"))
    assert (v.reason, v.params["tiles"]) == ("tile_not_on_rack", ["R11"])
    v = check_initial_meld(M("R9 R10 R11"), rack=T("R9 R10 R11"))
    assert v.valid  # laying every tile is allowed in Tile Rummy


def test_my_rummy_initial_meld() -> None:
    v = check_initial_meld(M("K10 B10 Y10"), MY, variant="my_rummy")
    assert (v.valid, v.value, v.needed) == (True, 30, 30)
    assert "004" in v.rule


def test_judge_opening() -> None:
    r = judge(check="opening", melds=[["R9", "R10", "R11"]])
    assert r == r | {"ok": True, "valid": True, "by": "melds", "value": 30, "needed": 30}
    assert "pairs" not in r
    r = judge(check="opening", options={"preset": "tiles50"}, melds=[["R9", "R10", "R11"]])
    assert (r["valid"], r["reason"], r["needed"]) == (False, "below_threshold", 50)
    r = judge(check="opening", melds=[["R9", "R10", "R11"]], needed=31)
    assert (r["valid"], r["needed"]) == (False, 31)
    r = judge("my_rummy", check="opening", melds=[["R9", "R10"]])
    assert (r["valid"], r["reason"]) == (False, "invalid_meld")
    r = judge(check="opening", melds=[["R9", "R10", "R11"]], taken_discard="R9")
    assert (r["ok"], r["error"]) == (False, "bad_field")
    r = judge(check="opening", melds=[["R9", "R10", "R11"]], rack=["R9", "R10", "R12"])
    assert r["reason"] == "tile_not_on_rack"


# ---------------------------------------------------------------------------------------------
# Round
# ---------------------------------------------------------------------------------------------


def test_winner_collects_on_and_off() -> None:
    players = [
        TilePlayer("A", winner=True),
        TilePlayer("B", hand=T("R5 JK")),  # 5 + 30 = 35
        TilePlayer("C", hand=T("K13 Y1")),  # 14
    ]
    r = score_round(players, TILE)
    assert r.scores == {"A": 49, "B": -35, "C": -14}
    assert r.winners == ("A",) and r.breakdown[0].role == "winner"
    m = score_round(players, MY, variant="my_rummy")
    assert m.scores == {"A": 0, "B": -35, "C": -14}
    assert "nothing" in m.breakdown[0].why


def test_joker_penalty_option() -> None:
    r = score_round(
        [TilePlayer("A", winner=True), TilePlayer("B", hand=T("R5 JK"))],
        TileRummyOptions(joker_penalty=25),
    )
    assert r.scores == {"A": 30, "B": -30}


def test_hand_value_and_jokers_form() -> None:
    r = score_round([TilePlayer("A", winner=True), TilePlayer("B", hand_value=12, jokers=2)], TILE)
    assert r.scores == {"A": 72, "B": -72}


def test_pool_exhausted_lowest_rack_wins() -> None:
    players = [
        TilePlayer("A", hand=T("R7 B8")),  # 15
        TilePlayer("B", hand=T("K8")),  # 8
        TilePlayer("C", hand=T("Y10 Y12")),  # 22
        TilePlayer("D", hand=T("R9 B10")),  # 19
    ]
    r = score_round(players, TILE)
    # losers −(own − 8): A −7, C −14, D −11; B +32
    assert r.scores == {"A": -7, "B": 32, "C": -14, "D": -11}
    assert r.winners == ("B",) and r.detail["pool_exhausted"]
    m = score_round(players, MY, variant="my_rummy")
    assert m.scores == {"A": -7, "B": 0, "C": -14, "D": -11}


def test_pool_exhausted_tie_for_lowest() -> None:
    players = [
        TilePlayer("A", hand=T("R1 B7")),  # 8
        TilePlayer("B", hand=T("R5 B3")),  # 8
        TilePlayer("C", hand_value=22),
    ]
    r = score_round(players, TILE)
    # both tied players score as the winner (14); C pays its difference once
    assert r.scores == {"A": 14, "B": 14, "C": -14}
    assert r.winners == ("A", "B")
    assert "gap filled" in r.breakdown[0].why
    everyone = score_round([TilePlayer("A", hand_value=5), TilePlayer("B", hand_value=5)], TILE)
    assert everyone.scores == {"A": 0, "B": 0} and everyone.winners == ("A", "B")


def test_penalty_draws_are_echoed_and_change_nothing() -> None:
    players = [TilePlayer("A", winner=True), TilePlayer("B", hand=T("R5"))]
    plain = score_round(players, TILE)
    with_pen = score_round(
        players,
        TILE,
        penalties=[PenaltyDraw("B", 3, "timeout"), PenaltyDraw("A", reason="invalid_turn")],
    )
    assert plain.scores == with_pen.scores == {"A": 5, "B": -5}
    assert with_pen.detail["penalties"] == [
        {"name": "B", "tiles": 3, "reason": "timeout"},
        {"name": "A", "tiles": 3, "reason": "invalid_turn"},
    ]


def test_impossible_rounds() -> None:
    def reason(*players: TilePlayer) -> str | None:
        r = score_round(players, TILE)
        assert not r.valid and not r.scores
        return r.reason

    assert reason(TilePlayer("A", winner=True), TilePlayer("B", winner=True)) == "two_winners"
    assert reason(TilePlayer("A", winner=True, hand=T("R1")), TilePlayer("B", hand=T("R2"))) == (
        "winner_has_tiles"
    )
    assert reason(TilePlayer("A", winner=True), TilePlayer("B", hand=())) == (
        "empty_rack_not_winner"
    )
    assert reason(TilePlayer("A", hand=()), TilePlayer("B", hand_value=0)) == "two_winners"
    assert reason(TilePlayer("A", winner=True), TilePlayer("B", hand_value=-3)) == (
        "negative_hand_value"
    )
    assert reason(TilePlayer("A", winner=True), TilePlayer("B", hand_value=3, jokers=3)) == (
        "too_many_copies"
    )
    assert (
        reason(
            TilePlayer("A", winner=True),
            TilePlayer("B", hand=T("R1 R1")),
            TilePlayer("C", hand=T("R1")),
        )
        == "too_many_copies"
    )
    assert reason(TilePlayer("A", winner=True)) == "player_count"
    five = [TilePlayer(f"P{i}", hand=T("R1")) for i in range(2)] + [
        TilePlayer(f"Q{i}", hand=T("B2")) for i in range(2)
    ]
    assert reason(TilePlayer("A", winner=True), *five) == "player_count"


def test_judge_round() -> None:
    r = judge(
        check="round", players=[{"name": "A", "winner": True}, {"name": "B", "hand": ["R5", "JK"]}]
    )
    assert r == r | {"ok": True, "valid": True, "scores": {"A": 35, "B": -35}}
    r = judge(
        "my_rummy",
        check="round",
        players=[{"name": "A", "winner": True}, {"name": "B", "hand": ["R5", "JK"]}],
        penalties=[{"name": "B", "reason": "timeout"}],
    )
    assert r["scores"] == {"A": 0, "B": -35}
    assert r["penalties"] == [{"name": "B", "tiles": 3, "reason": "timeout"}]
    r = judge(
        "my_rummy",
        check="round",
        options={"joker_penalty": 25},
        players=[{"name": "A", "winner": True}, {"name": "B", "hand": ["JK"]}],
    )
    assert r["scores"] == {"A": 0, "B": -25}
    r = judge(
        check="round",
        players=[{"name": "A", "hand": ["R3"]}, {"name": "B", "hand": ["R5", "JK"]}],
    )
    assert (r["scores"], r["winners"]) == ({"A": 32, "B": -32}, ["A"])
    r = judge(
        check="round",
        players=[{"name": "A", "winner": True}, {"name": "B"}],
    )
    assert (r["ok"], r["error"]) == (False, "missing_field")
    r = judge(
        check="round",
        players=[{"name": "A", "winner": True}, {"name": "B", "hand": ["R1"]}],
        penalties=[{"name": "Z"}],
    )
    assert (r["ok"], r["error"]) == (False, "bad_field")
    r = judge(
        check="round",
        players=[{"name": "A", "winner": True}, {"name": "B", "hand": ["R1"]}],
        penalties=[{"name": "B", "reason": "slow"}],
    )
    assert (r["ok"], r["error"]) == (False, "bad_field")
    r = judge(
        check="round",
        players=[{"name": "A", "winner": True}, {"name": "B", "hand": ["R1"]}],
        penalties=[{"name": "B", "tiles": 4}],
    )
    assert (r["ok"], r["error"]) == (False, "bad_field")


# ---------------------------------------------------------------------------------------------
# Game
# ---------------------------------------------------------------------------------------------


def test_game_by_games_and_target() -> None:
    rounds = [{"A": 35, "B": -35}, {"A": -20, "B": 20}, {"A": 10, "B": -10}]
    g = score_game(["A", "B"], rounds)
    assert (g.totals, g.finished, g.winner, g.leaders) == ({"A": 25, "B": -25}, False, None, ("A",))
    g = score_game(["A", "B"], rounds, games=3)
    assert (g.finished, g.winner) == (True, "A")
    g = score_game(["A", "B"], rounds, TileRummyOptions(games=2))
    assert (g.valid, g.reason) == (False, "rounds_after_end")
    g = score_game(["A", "B"], rounds[:2], TileRummyOptions(games=2))
    assert (g.totals, g.finished, g.winner) == ({"A": 15, "B": -15}, True, "A")
    tie = score_game(["A", "B"], [{"A": 35, "B": -35}, {"A": -35, "B": 35}], games=2)
    assert (tie.finished, tie.winner, tie.winners) == (True, None, ("A", "B"))
    g = score_game(["A", "B"], rounds[:1], target=30)
    assert (g.finished, g.winner) == (True, "A")
    g = score_game(["A", "B"], rounds, target=30)
    assert g.reason == "rounds_after_end"
    g = score_game(["A", "B"], rounds, ended=True)
    assert (g.finished, g.winner) == (True, "A")


def test_judge_game() -> None:
    r = judge(
        check="game",
        options={"target": 50},
        players=["A", "B"],
        rounds=[{"scores": {"A": 35, "B": -35}}, {"scores": {"A": 20, "B": -20}}],
    )
    assert r == r | {"ok": True, "totals": {"A": 55, "B": -55}, "finished": True, "winner": "A"}
    r = judge(
        "my_rummy",
        check="game",
        players=["A", "B"],
        games=1,
        rounds=[{"scores": {"A": 0, "B": -35}}],
    )
    assert (r["finished"], r["winner"], r["bonuses"]) == (True, "A", {"A": 0, "B": 0})


# ---------------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------------


@st.composite
def _racks(draw: st.DrawFn) -> list[TilePlayer]:
    n = draw(st.integers(2, 4))
    winner = draw(st.one_of(st.none(), st.integers(0, n - 1)))
    jokers_left = 2
    players = []
    for i in range(n):
        if i == winner:
            players.append(TilePlayer(f"P{i}", winner=True))
            continue
        j = draw(st.integers(0, jokers_left))
        jokers_left -= j
        value = draw(st.integers(0 if j else 1, 150))
        players.append(TilePlayer(f"P{i}", hand_value=value, jokers=j))
    return players


@pytest.mark.slow
@given(_racks())
def test_tile_rummy_rounds_sum_to_zero_with_one_winner(players: list[TilePlayer]) -> None:
    r = score_round(players, TILE)
    assert r.valid, r.message
    racks = r.detail["racks"]
    low = min(racks.values())
    losers = [n for n in racks if n not in r.winners]
    total = sum(racks[n] - low for n in losers)
    for w in r.winners:
        assert r.scores[w] == total
    assert sum(r.scores.values()) == (len(r.winners) - 1) * total
    if len(r.winners) == 1:
        assert sum(r.scores.values()) == 0


@given(_racks())
def test_my_rummy_winner_scores_nothing(players: list[TilePlayer]) -> None:
    r = score_round(players, MY, variant="my_rummy")
    assert r.valid
    racks = r.detail["racks"]
    low = min(racks.values())
    assert all(r.scores[w] == 0 for w in r.winners)
    assert sum(r.scores.values()) == -sum(racks[n] - low for n in racks if n not in r.winners)


@pytest.mark.parametrize("variant", ["tile_rummy", "my_rummy"])
def test_every_breakdown_names_the_rule(variant: str) -> None:
    r = judge(
        variant,
        check="round",
        players=[{"name": "A", "winner": True}, {"name": "B", "hand": ["R5"]}],
    )
    assert all("§4" in b["why"] for b in r["breakdown"])
