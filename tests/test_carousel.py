"""Carousel rummy hand, round and game scoring (RULES.md §6, seed 003).

Values worked out by hand from the rule text: a hand is worth joker 25, J Q K 10, 2–10 face,
ace 1; a knock needs ≤ 5. The lowest hand wins: two players, the difference; 3–5 players, the
sum of the differences to every other player; others 0. Winner ≠ knocker: +10. Knocker tied with
one player: that player wins, +10; tied with two: both, +10 each. Going out: +25. No knocker:
lowest wins, no undercut bonus. Game: ends when a total reaches 150; +100 to those; +25 per round
won to every other player; highest total wins.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.judge import answer
from rules.notation import parse_pieces
from rules.options import CarouselOptions
from rules.pieces import Piece
from rules.variants.carousel import (
    CarouselPlayer,
    GameRound,
    assess_hand,
    hand_value,
    round_winners,
    score_game,
    score_round,
)


def C(text: str) -> tuple[Piece, ...]:
    return tuple(parse_pieces(text, "cards"))


def hands(**given: str) -> list[CarouselPlayer]:
    return [CarouselPlayer(n, C(h)) for n, h in given.items()]


def judge(**req: Any) -> dict[str, Any]:
    return answer({"variant": "carousel", **req})


# ---------------------------------------------------------------------------------------------
# Hand
# ---------------------------------------------------------------------------------------------


def test_hand_values() -> None:
    assert hand_value(C("JK 2S")) == 27
    assert hand_value(C("AS KH QD JC 10S 9H")) == 1 + 10 + 10 + 10 + 10 + 9
    assert hand_value(()) == 0
    assert hand_value(C("JK"), CarouselOptions(joker_value=30)) == 30


def test_can_knock_at_five_not_six() -> None:
    assert assess_hand(C("2S 3H")).can_knock  # 5
    assert assess_hand(C("AS AH AD 2C")).can_knock  # 5
    assert not assess_hand(C("3S 3H")).can_knock  # 6
    assert assess_hand(C("3S 3H"), CarouselOptions(knock_max=6)).can_knock
    out = assess_hand(())
    assert (out.deadwood, out.can_knock, out.went_out) == (0, True, True)


def test_judge_hand() -> None:
    r = judge(check="hand", hand=["JK", "2S"])
    assert r == r | {
        "ok": True,
        "deadwood": 27,
        "can_knock": False,
        "melds": [],
        "unmatched": ["JK", "2S"],
        "gin": False,
        "discard": None,
    }
    r = judge(check="hand", hand=["as", "4♥"])
    assert (r["deadwood"], r["can_knock"], r["unmatched"]) == (5, True, ["AS", "4H"])
    r = judge(check="hand", hand=["AS", "AS", "AS"])
    assert (r["ok"], r["error"]) == (False, "too_many_copies")  # two decks hold 2
    r = judge(check="hand", hand=["AS", "AS"], players=2)
    assert (r["ok"], r["error"]) == (False, "too_many_copies")  # one deck for 2 players
    assert judge(check="hand", hand=["AS", "AS"])["deadwood"] == 2


# ---------------------------------------------------------------------------------------------
# Round
# ---------------------------------------------------------------------------------------------


def test_public_example() -> None:
    r = score_round(hands(A="3S", B="9D"), "A")
    assert r.valid and r.scores == {"A": 6, "B": 0} and r.winners == ("A",)
    assert r.breakdown[0].detail["bonuses"] == {}
    j = judge(
        check="round",
        knocker="A",
        players=[{"name": "A", "hand": ["3S"]}, {"name": "B", "hand": ["9D"]}],
    )
    assert j == j | {"ok": True, "valid": True, "scores": {"A": 6, "B": 0}}


def test_knocker_lowest_with_three_players_sums_differences() -> None:
    r = score_round(hands(A="2S", B="9D", C="KD 5S"), "A")
    assert r.scores == {"A": 7 + 13, "B": 0, "C": 0}


def test_undercut_two_players() -> None:
    r = score_round(hands(A="4S", B="2D"), "A")
    assert r.scores == {"A": 0, "B": 2 + 10} and r.winners == ("B",)
    assert r.breakdown[1].detail["bonuses"] == {"undercut": 10}
    assert "undercut" in r.breakdown[0].why


def test_undercut_three_players() -> None:
    r = score_round(hands(A="3S", B="2D", C="KD 5S"), "A")
    assert r.scores == {"A": 0, "B": 1 + 13 + 10, "C": 0}


def test_knocker_tied_with_one_player() -> None:
    r = score_round(hands(A="3S", B="3D"), "A")
    assert r.scores == {"A": 0, "B": 10} and r.winners == ("B",)
    r = score_round(hands(A="3S", B="3D", C="9C"), "A")
    assert r.scores == {"A": 0, "B": 0 + 6 + 10, "C": 0}


def test_knocker_tied_with_two_players() -> None:
    r = score_round(hands(A="3S", B="3D", C="2C AS", D="9C"), "A")
    assert r.scores == {"A": 0, "B": 16, "C": 16, "D": 0}
    assert r.winners == ("B", "C")


def test_knocker_tied_with_three_players_gap_filled() -> None:
    # A knocks with 3; B, C, D hold 3 as well; E holds 9C: each tied player wins 6 + 10
    r = score_round(hands(A="3S", B="3D", C="2C AS", D="3H", E="9C"), "A")
    assert r.winners == ("B", "C", "D")
    assert r.scores == {"A": 0, "B": 16, "C": 16, "D": 16, "E": 0}
    assert "gap filled" not in r.breakdown[1].why  # a knocker tie: the seed's rule, extended
    # four players all tied with the knocker: nothing to win from the others, +10 each
    r = score_round(hands(A="3S", B="3D", C="3C", D="3H"), "A")
    assert r.scores == {"A": 0, "B": 10, "C": 10, "D": 10}


def test_non_knockers_tied_for_lowest_each_win_gap_filled() -> None:
    r = score_round(hands(A="5S", B="2D", C="AS AH", D="QC 2C"), "A")
    # each winner: (5 − 2) + (12 − 2) = 13, 0 between themselves, + 10 undercut
    assert r.scores == {"A": 0, "B": 23, "C": 23, "D": 0}
    assert "gap filled" in r.breakdown[1].why


def test_going_out_bonus() -> None:
    r = score_round(hands(A="", B="9D"), "A")
    assert r.scores == {"A": 9 + 25, "B": 0}
    assert r.breakdown[0].detail["bonuses"] == {"going_out": 25}
    r = score_round(hands(A="", B="9D"), "A", CarouselOptions(going_out_bonus=50))
    assert r.scores["A"] == 59
    # stock ran out: B went out in the last turns, B wins: 4 + 8 + 25, no undercut
    r = score_round(hands(A="4S", B="", C="8D"), None)
    assert r.scores == {"A": 0, "B": 4 + 8 + 25, "C": 0}


def test_nobody_else_holds_no_cards_after_a_knock() -> None:
    # going out ends the round at once: B with no cards means A could not have knocked after
    r = score_round(hands(A="4S", B="", C="8D"), "A")
    assert (r.valid, r.reason, r.scores) == (False, "out_in_knocked_round", {})
    assert r.detail["player"] == "B" and "B holds no cards" in r.message
    # the knocker went out too: still two players with no cards
    r = score_round(hands(A="", B="", C="8D"), "A")
    assert (r.valid, r.reason, r.detail["player"]) == (False, "out_in_knocked_round", "B")
    # the limit is checked first: a knock at 6 is wrong whatever else
    r = score_round(hands(A="6S", B=""), "A")
    assert r.reason == "knock_above_limit"
    j = judge(
        check="round",
        knocker="A",
        players=[{"name": "A", "hand": ["2S"]}, {"name": "B", "hand": []}],
    )
    assert j == j | {"ok": True, "valid": False, "reason": "out_in_knocked_round", "player": "B"}


def test_several_players_out_after_the_stock_ran_out() -> None:
    # A and B both played their last cards in the extra turns; C holds 9D KS = 19
    r = score_round(hands(A="", B="", C="9D KS"), None)
    assert r.valid and r.winners == ("A", "B")
    # each: difference to C 19, 0 between themselves, + 25 going out, no undercut
    assert r.scores == {"A": 19 + 25, "B": 19 + 25, "C": 0}


def test_stock_exhausted() -> None:
    r = score_round(hands(A="7S", B="QS 2S"), None)
    assert r.scores == {"A": 5, "B": 0} and r.winners == ("A",)
    assert r.detail["stock_exhausted"] and not r.detail["undercut"]
    r = score_round(hands(A="7S", B="7H", C="KS QS"), None)
    assert r.scores == {"A": 13, "B": 13, "C": 0} and r.winners == ("A", "B")
    j = judge(
        check="round",
        knocker=None,
        players=[{"name": "A", "hand": ["7S"]}, {"name": "B", "hand": ["QS", "2S"]}],
    )
    assert (j["scores"], j["winners"]) == ({"A": 5, "B": 0}, ["A"])


def test_round_winners_table() -> None:
    assert round_winners({"A": 3, "B": 9}, "A") == (("A",), False)
    assert round_winners({"A": 4, "B": 2}, "A") == (("B",), True)
    assert round_winners({"A": 3, "B": 3}, "A") == (("B",), True)
    assert round_winners({"A": 3, "B": 3, "C": 3}, "A") == (("B", "C"), True)
    assert round_winners({"A": 5, "B": 2, "C": 2}, "A") == (("B", "C"), True)
    assert round_winners({"A": 5, "B": 2, "C": 2}, None) == (("B", "C"), False)


def test_options_change_bonus_and_limit() -> None:
    r = score_round(hands(A="4S", B="2D"), "A", CarouselOptions(undercut_bonus=25))
    assert r.scores["B"] == 27
    r = score_round(hands(A="3S 4S", B="9D"), "A", CarouselOptions(knock_max=7))
    assert r.scores == {"A": 2, "B": 0}


def test_impossible_rounds() -> None:
    r = score_round(hands(A="3S 3H", B="9D"), "A")
    assert (r.valid, r.reason, r.scores) == (False, "knock_above_limit", {})
    assert "6" in r.message and "5" in r.message
    assert score_round(hands(A="5S", B="9D"), "A").valid  # exactly 5 may knock
    # two players play one 53-card deck: AS twice, or two jokers, is impossible
    assert score_round(hands(A="AS", B="AS 9D"), "A").reason == "too_many_copies"
    assert score_round(hands(A="JK", B="JK"), None).reason == "too_many_copies"
    # three players play two decks: twice is fine, three times is not
    assert score_round(hands(A="AS", B="AS", C="9D"), "A").valid
    assert score_round(hands(A="AS", B="AS", C="AS"), "A").reason == "too_many_copies"
    assert score_round(hands(A="AS"), "A").reason == "player_count"
    six = [CarouselPlayer(f"P{i}", C("9D")) for i in range(5)]
    assert score_round([CarouselPlayer("A", C("AS")), *six], "A").reason == "player_count"


def test_judge_round_errors() -> None:
    players = [{"name": "A", "hand": ["3S"]}, {"name": "B", "hand": ["9D"]}]
    r = judge(check="round", players=players)
    assert (r["ok"], r["error"]) == (False, "missing_field")
    r = judge(check="round", knocker="Z", players=players)
    assert (r["ok"], r["error"]) == (False, "bad_field")
    r = judge(check="round", knocker="A", players=[players[0], {"name": "B"}])
    assert (r["ok"], r["error"]) == (False, "missing_field")
    r = judge(
        check="round",
        knocker="A",
        players=[players[0], {"name": "B", "hand": ["9D", "9D"]}],
    )
    assert (r["ok"], r["error"]) == (False, "too_many_copies")  # within one hand, one deck
    r = judge(
        check="round",
        knocker="A",
        players=[{"name": "A", "hand": ["3S", "3H"]}, {"name": "B", "hand": ["9D"]}],
    )
    assert r["ok"] and not r["valid"] and r["reason"] == "knock_above_limit"
    assert "scores" not in r


# ---------------------------------------------------------------------------------------------
# Game
# ---------------------------------------------------------------------------------------------

THREE = ["A", "B", "C"]


def test_game_ends_at_target_with_bonuses() -> None:
    rounds = [
        GameRound({"A": 100}, ("A",)),
        GameRound({"B": 30}, ("B",)),
        GameRound({"C": 20}, ("C",)),
        GameRound({"A": 60}, ("A",)),
    ]
    g = score_game(THREE, rounds)
    # A reached 160: +100; B and C: +25 for their one round each
    assert (g.finished, g.winner) == (True, "A")
    assert g.bonuses == {"A": 100, "B": 25, "C": 25}
    assert g.totals == {"A": 260, "B": 55, "C": 45}
    g = score_game(THREE, rounds, CarouselOptions(round_bonus_all=True))
    assert g.bonuses == {"A": 150, "B": 25, "C": 25}
    assert g.totals["A"] == 310


def test_game_not_finished_has_no_bonuses() -> None:
    g = score_game(THREE, [GameRound({"A": 149}, ("A",))])
    assert (g.finished, g.winner, g.leaders, g.totals["A"]) == (False, None, ("A",), 149)
    assert g.bonuses == {"A": 0, "B": 0, "C": 0}


def test_two_reach_the_target_and_tie() -> None:
    rounds = [
        GameRound({"A": 140}, ("A",)),
        GameRound({"B": 140}, ("B",)),
        GameRound({"A": 10, "B": 10}, ("A", "B")),
    ]
    g = score_game(["A", "B"], rounds)
    assert g.bonuses == {"A": 100, "B": 100}
    assert (g.totals, g.winner, g.winners) == ({"A": 250, "B": 250}, None, ("A", "B"))


def test_three_tied_for_the_highest_total_share_the_win() -> None:
    rounds = [
        GameRound({"B": 100, "C": 100}, ("B", "C")),
        GameRound({"A": 150, "B": 100, "C": 100}, ("A", "B", "C")),
    ]
    g = score_game(THREE, rounds)
    # all three reached 150 (A 150, B 200, C 200): +100 each, no round bonus for them
    assert g.bonuses == {"A": 100, "B": 100, "C": 100}
    assert g.totals == {"A": 250, "B": 300, "C": 300}
    assert (g.winner, g.winners) == (None, ("B", "C"))
    rounds = [GameRound({"A": 50, "B": 50, "C": 50}, ("A", "B", "C"))] * 3
    g = score_game(THREE, rounds)
    assert g.totals == {"A": 250, "B": 250, "C": 250}
    assert (g.winner, g.winners) == (None, ("A", "B", "C"))


def test_highest_total_wins_even_below_the_target() -> None:
    rounds = [GameRound({"B": 28}, ("B",)) for _ in range(5)] + [GameRound({"A": 150}, ("A",))]
    g = score_game(["A", "B"], rounds)
    # A 150 + 100 = 250; B 140 + 5 × 25 = 265
    assert g.totals == {"A": 250, "B": 265} and g.winner == "B"


def test_rounds_after_the_end_and_derived_winners() -> None:
    g = score_game(["A", "B"], [GameRound({"A": 150}), GameRound({"B": 5})])
    assert (g.valid, g.reason) == (False, "rounds_after_end")
    g = score_game(["A", "B"], [GameRound({"B": 5}), GameRound({"A": 150})])
    assert g.detail["round_wins"] == {"A": 1, "B": 1}  # winners derived from positive scores
    assert g.bonuses == {"A": 100, "B": 25}


def test_judge_game() -> None:
    r = judge(
        check="game",
        players=["A", "B"],
        rounds=[{"scores": {"A": 30, "B": 0}, "winners": ["A"]}, {"scores": {"A": 125}}],
    )
    assert r == r | {
        "ok": True,
        "totals": {"A": 255, "B": 0},
        "finished": True,
        "winner": "A",
        "bonuses": {"A": 100, "B": 0},
    }
    r = judge(
        check="game", options={"target": 200}, players=["A", "B"], rounds=[{"scores": {"A": 155}}]
    )
    assert r["finished"] is False
    r = judge(check="game", players=["A", "B"], rounds=[{"scores": {"A": 1}, "winners": ["Z"]}])
    assert (r["ok"], r["error"]) == (False, "bad_field")


# ---------------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------------

_CARD = st.sampled_from(
    [
        f"{r}{s}"
        for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
        for s in "SHDC"
    ]
    + ["JK"]
)


@st.composite
def _rounds(draw: st.DrawFn) -> tuple[list[CarouselPlayer], str | None]:
    n = draw(st.integers(3, 5))
    players = []
    used: list[str] = []
    for i in range(n):
        cards = [c for c in draw(st.lists(_CARD, max_size=4)) if used.count(c) < 2]
        cards = [c for j, c in enumerate(cards) if used.count(c) + cards[:j].count(c) < 2]
        used += cards
        players.append(CarouselPlayer(f"P{i}", C(" ".join(cards))))
    can = [p.name for p in players if hand_value(p.hand) <= 5]
    knocker = draw(st.sampled_from([None, *can]))
    return players, knocker


@pytest.mark.slow
@given(_rounds())
def test_winners_gain_the_sum_of_differences(case: tuple[list[CarouselPlayer], str | None]) -> None:
    players, knocker = case
    r = score_round(players, knocker)
    if knocker is not None and any(not p.hand and p.name != knocker for p in players):
        assert (r.valid, r.reason) == (False, "out_in_knocked_round")
        return
    assert r.valid, r.message
    values = {p.name: hand_value(p.hand) for p in players}
    low = min(values.values())
    diffs = sum(v - low for n, v in values.items() if n not in r.winners)
    for p in players:
        if p.name in r.winners:
            assert values[p.name] == low
            bonus = (10 if knocker is not None and p.name != knocker else 0) + (
                25 if not p.hand else 0
            )
            assert r.scores[p.name] == diffs + bonus
        else:
            assert r.scores[p.name] == 0
    if knocker is not None and knocker not in r.winners:
        assert values[knocker] == low or all(values[w] < values[knocker] for w in r.winners)


@pytest.mark.parametrize("players", [1, 6, "two", True])
def test_judge_hand_refuses_an_impossible_player_count(players: object) -> None:
    r = judge(check="hand", hand=["AS"], players=players)
    assert (r["ok"], r["error"]) == (False, "bad_field")


# ---------------------------------------------------------------------------------------------
# The app's round entry (app/ui/entry/round_entry.py): the impossible round is flagged at the hand
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "pl", "sk"])
def test_round_entry_flags_a_player_out_after_a_knock(tmp_path: Any, language: str) -> None:
    from app import games as g
    from app.i18n import use_language
    from app.store import Store
    from app.ui.entry.round_entry import RoundEntry
    from app.ui.shell import App

    store = Store(tmp_path / "games.json")
    try:
        game = store.create_game(g.new_game("carousel", ["Ala", "Bob", "Cy"]))
        with use_language(language):
            screen = RoundEntry(App(store), game)
            screen.form.load(
                {
                    "knocker": "Ala",
                    "players": [
                        {"name": "Ala", "hand": ["2S"]},
                        {"name": "Bob", "hand": []},
                        {"name": "Cy", "hand": ["9D"]},
                    ],
                }
            )
            assert screen.check() is False
            form = screen.form
            bob = form.hands["Bob"].pieces.field.error  # type: ignore[attr-defined]
            assert bob and "Bob" in bob and "Ala" in bob
            assert form.hands["Ala"].pieces.field.error is None  # type: ignore[attr-defined]
            assert form.hands["Cy"].pieces.field.error is None  # type: ignore[attr-defined]
            words = {"en": "holds no cards", "pl": "nie ma już kart", "sk": "už nemá karty"}
            assert words[language] in bob
            assert store.load_game(game.id).rounds == []
    finally:
        store.close()
