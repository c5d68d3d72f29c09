"""Gin Rummy: least deadwood, best discard, lay-offs, round and game scoring (RULES.md §5).

Every expected value below is worked out by hand from RULES.md §5 / seed ``002_…``; values:
A = 1, 2–10 face, J Q K = 10. The hypothesis properties compare the search with plain
enumeration of disjoint melds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.errors import RequestError, TooManyCopiesError
from rules.judge import answer
from rules.notation import parse_pieces
from rules.options import GinOptions, options_for
from rules.pieces import Card, Suit
from rules.search.deadwood import (
    arrangement_mask,
    best_arrangement,
    best_arrangements,
    best_discard,
    best_discards,
    best_layoffs,
    brute_force_deadwood,
    deadwood_mask,
    decode,
    discard_mask,
    discard_melds_mask,
    discard_of_mask,
    encode,
    index_discard,
    index_melds,
    meld_kind,
    melds_mask,
)
from rules.variants.gin import (
    GameRound,
    PlayerHand,
    SoloResult,
    analyse_hand,
    score_game,
    score_round,
    score_solo_round,
)


def cards(text: str) -> list[Card]:
    out = parse_pieces(text, "cards", jokers_allowed=False)
    assert all(isinstance(c, Card) for c in out)
    return out  # type: ignore[return-value]


def names(cs: Sequence[Card]) -> list[str]:
    return [str(c) for c in cs]


def opts(preset: str, **over: Any) -> GinOptions:
    o = options_for("gin", {"preset": preset, **over})
    assert isinstance(o, GinOptions)
    return o


def value(cs: Sequence[Card]) -> int:
    return sum(min(c.rank, 10) for c in cs)


# -- least deadwood ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "deadwood", "melds"),
    [
        # the public example: A23 spades, three 7s, 9-10-J clubs; 4D is deadwood
        (
            "AS 2S 3S 7H 7D 7C 9C 10C JC 4D",
            4,
            [["AS", "2S", "3S"], ["7H", "7D", "7C"], ["9C", "10C", "JC"]],
        ),
        # 7C fits the 7s and 5C-6C-…-8C: the run leaves 7H 7D KS KH 2D 3H = 39, the group 44
        ("7H 7D 7C 5C 6C 8C KS KH 2D 3H", 39, [["5C", "6C", "7C", "8C"]]),
        # 7C fits the 7s and 5C 6C: the group leaves 5C 6C 10H 10S = 31, the run 7H 7D … = 34
        ("7H 7D 7C 5C 6C 2S 3S 4S 10H 10S", 31, [["2S", "3S", "4S"], ["7H", "7D", "7C"]]),
        # four 7s, 5C 6C, 8S 9S: 7H7D7C + 7S8S9S leaves 5C 6C KD QH = 31 (4-group: 48,
        # 5C6C7C + 7S8S9S: 34, 7S7H7D + 5C6C7C: 37)
        ("7S 7H 7D 7C 5C 6C 8S 9S KD QH", 31, [["7S", "8S", "9S"], ["7H", "7D", "7C"]]),
        # 5H is wanted by 3H-7H and by 5S 5D: keeping the run leaves 5S 5D 9C JC KS = 39 (49)
        ("3H 4H 5H 6H 7H 5S 5D 9C JC KS", 39, [["3H", "4H", "5H", "6H", "7H"]]),
        # a run of 6 gives its top card to the 8s: 3H-7H + 8S8H8D, KC QS = 20
        ("3H 4H 5H 6H 7H 8H 8S 8D KC QS", 20, [["3H", "4H", "5H", "6H", "7H"], ["8S", "8H", "8D"]]),
        # gin
        (
            "AS 2S 3S 4S 5H 5D 5C KH KD KC",
            0,
            [["AS", "2S", "3S", "4S"], ["5H", "5D", "5C"], ["KH", "KD", "KC"]],
        ),
        # no meld at all: 10+10+10+10+9+8+6+4+2+1
        ("KS QH JD 10C 9S 8H 6D 4C 2S AH", 70, []),
        # ace low only: Q-K-A is no run, A-2-3 is; QS KS 5D 6H 8C 9D JH = 58
        ("QS KS AS 2S 3S 5D 6H 8C 9D JH", 58, [["AS", "2S", "3S"]]),
    ],
)
def test_best_arrangement(hand: str, deadwood: int, melds: list[list[str]]) -> None:
    arr = best_arrangement(cards(hand))
    assert arr.deadwood == deadwood
    assert [names(m) for m in arr.melds] == melds
    assert value(arr.unmatched) == deadwood
    assert brute_force_deadwood(cards(hand)) == deadwood


def test_all_least_arrangements() -> None:
    # 4H-7H with 7S 7D 7C: either the four 7s + 4H5H6H or 4H-7H + 7S7D7C; 2C 3C AD = 6
    arrs = best_arrangements(cards("4H 5H 6H 7H 7S 7D 7C 2C 3C AD"))
    assert {a.deadwood for a in arrs} == {6}
    assert sorted(sorted(len(m) for m in a.melds) for a in arrs) == [[3, 4], [3, 4]]
    assert len(arrs) == 2


def test_duplicate_card_rejected() -> None:
    with pytest.raises(ValueError):
        best_arrangement(cards("AS AS 2S"))


# -- best discard from 11 -----------------------------------------------------------------------


def test_discard_makes_gin() -> None:
    d = best_discard(cards("AS 2S 3S 7H 7D 7C 9C 10C JC 4D 4S"))
    assert str(d.discard) == "4D"
    assert d.arrangement.deadwood == 0
    assert not d.big_gin


def test_big_gin_and_discard_tie_break() -> None:
    # all 11 melded: A-4 spades, four 7s, 9-10-J clubs. Discards leaving 0: AS, 4S or a 7;
    # highest value is a 7, then the first suit S → 7S.
    d = best_discard(cards("AS 2S 3S 4S 7H 7D 7C 7S 9C 10C JC"))
    assert d.big_gin
    assert d.eleven.deadwood == 0
    assert str(d.discard) == "7S"
    assert d.arrangement.deadwood == 0


def test_discard_tie_same_value() -> None:
    # A-5 spades, three 7s, 9C KD KH: discarding KD or KH leaves 19, 9C leaves 20;
    # same value and rank → first suit in S H D C order: KH
    d = best_discard(cards("AS 2S 3S 4S 5S 7H 7D 7C 9C KD KH"))
    assert str(d.discard) == "KH"
    assert d.arrangement.deadwood == 19
    assert names(d.arrangement.unmatched) == ["9C", "KD"]


def test_discard_from_groups_only() -> None:
    # four 7s, four 8s, three 9s: big gin; discarding any 7 or 8 leaves 0 → highest: an 8, 8S
    d = best_discard(cards("7S 7H 7D 7C 8S 8H 8D 8C 9S 9H 9D"))
    assert d.big_gin
    assert str(d.discard) == "8S"
    assert d.arrangement.deadwood == 0


def test_discard_from_a_group_of_four_no_run_can_use() -> None:
    # four kings (no queen: no run can take one), 2-5 spades, 7-9 hearts: big gin. Leaving 0:
    # any king (the group of 3 stays), 2S or 5S (the run of 3 stays); 3S/4S/7H-9H break a run.
    # Highest value: a king, first suit → KS; the tie list in tie-break order.
    hand = cards("KS KH KD KC 2S 3S 4S 5S 7H 8H 9H")
    d = best_discard(hand)
    assert d.big_gin and str(d.discard) == "KS" and d.arrangement.deadwood == 0
    assert names(best_discards(hand)) == ["KS", "KH", "KD", "KC", "5S", "2S"]
    assert discard_melds_mask(encode(hand))[:2] == (0, encode(cards("KS")))


def test_discard_keeps_the_group_of_three_beside_a_run() -> None:
    # four 9s, 10H JH, A-3 spades, KC QD. Best: group 9S 9D 9C, run 9H 10H JH, run A-3S;
    # KC and QD unmatched (20) → discard KC (value 10 like QD, higher rank): 10 left (QD).
    # The group of 4 would leave 10H JH too: 40, 30 after a discard.
    d = best_discard(cards("9S 9H 9D 9C 10H JH AS 2S 3S KC QD"))
    assert str(d.discard) == "KC" and not d.big_gin
    assert d.arrangement.deadwood == 10
    assert [names(m) for m in d.arrangement.melds] == [
        ["AS", "2S", "3S"],
        ["9S", "9D", "9C"],
        ["9H", "10H", "JH"],
    ]
    assert names(d.arrangement.unmatched) == ["QD"]
    assert d.eleven.deadwood == 20


def test_discard_of_no_card() -> None:
    with pytest.raises(ValueError):
        best_discard([])
    with pytest.raises(ValueError):
        discard_mask(0)
    with pytest.raises(ValueError):
        discard_melds_mask(0)


def test_discard_prefers_high_deadwood() -> None:
    # 9D and KS both deadwood beside three melds: discard KS, keep 9
    d = best_discard(cards("AS 2S 3S 7H 7D 7C 9C 10C JC 9D KS"))
    assert str(d.discard) == "KS"
    assert d.arrangement.deadwood == 9


# -- hand analysis / hand check -----------------------------------------------------------------


def test_analyse_hand_knock_limits() -> None:
    nine = cards("AS 2S 3S 7H 7D 7C 9C 10C JC 9D")
    ten = cards("AS 2S 3S 7H 7D 7C 9C 10C JC 10D")
    assert analyse_hand(nine).can_knock  # seed: knock_max 9
    assert not analyse_hand(ten).can_knock
    assert analyse_hand(ten, opts("modern")).can_knock
    assert analyse_hand(ten, opts("classic")).can_knock
    assert not analyse_hand(cards("AS 2S 3S 4S 7H 7D 7C 2D 4D 5C"), opts("modern")).can_knock


def test_analyse_hand_sizes() -> None:
    with pytest.raises(RequestError) as e:
        analyse_hand(cards("AS 2S 3S"))
    assert e.value.code == "bad_hand_size"
    with pytest.raises(TooManyCopiesError):
        analyse_hand(cards("AS AS 2S 3S 4S 5S 6S 7S 8S 9S"))


def test_analyse_hand_repeat_named_whatever_the_objects() -> None:
    # a card given twice is refused with the card named, whether the two are one object (its
    # bit cached), two equal objects (one cached, one new) or two new objects; 11 cards too
    first = cards("AS 2S 3S 4S 5S 6S 7S 8S 9S")
    fresh = [Card(1, Suit.SPADES), Card(1, Suit.SPADES)]
    for hand in (first + first[:1], first + [Card(1, Suit.SPADES)], fresh + first[1:]):
        with pytest.raises(TooManyCopiesError) as e:
            analyse_hand(hand)
        assert "AS" in str(e.value)
        with pytest.raises(ValueError):
            encode(hand)
        with pytest.raises(TooManyCopiesError):
            analyse_hand([*hand, Card(13, Suit.CLUBS)])


def test_card_bit_cache_is_invisible() -> None:
    """Encoding stores each card's bit on the card object: equality, hashing, order, repr and
    pickling are the same as for a card never encoded, and the masks agree."""
    import copy
    import pickle

    used = Card(12, Suit.DIAMONDS)
    assert encode([used]) == 1 << (32 + 11) == encode([used])  # the second read is cached
    new = Card(12, Suit.DIAMONDS)
    assert used == new and hash(used) == hash(new) and not used < new and repr(used) == repr(new)
    for back in (pickle.loads(pickle.dumps(used)), copy.deepcopy(used), copy.copy(used)):
        assert back == used and encode([back]) == encode([used])
    hand = cards("AS 2S 3S 7H 7D 7C 9C 10C JC 4D")
    remade = [Card(c.rank, c.suit) for c in hand]
    assert encode(hand) == encode(remade) == encode(iter(remade)) == encode(tuple(hand))
    assert best_arrangement(hand) == best_arrangement(remade) == arrangement_mask(encode(hand))
    eleven = cards("AS 2S 3S 7H 7D 7C 9C 10C JC 4D KS")
    d, e = best_discard(eleven), discard_of_mask(encode(eleven))
    assert (d.discard, d.arrangement, d.big_gin) == (e.discard, e.arrangement, e.big_gin)
    assert str(d.discard) == "KS" and d.arrangement.deadwood == 4


def test_hand_check_json() -> None:
    r = answer(
        {
            "check": "hand",
            "variant": "gin",
            "hand": ["AS", "2S", "3S", "7H", "7D", "7C", "9C", "TC", "JC", "4D"],
        }
    )
    assert r == {
        "ok": True,
        "deadwood": 4,
        "melds": [["AS", "2S", "3S"], ["7H", "7D", "7C"], ["9C", "10C", "JC"]],
        "unmatched": ["4D"],
        "can_knock": True,
        "gin": False,
        "discard": None,
        "big_gin": False,
        "knock_max": 9,
        "hand_value": 60,
        "key": "gin.hand.can_knock",
        "params": {"deadwood": 4, "max": 9},
        "rule_ref": {
            "variant": "gin",
            "paragraphs": [],
            "seed": None,
            "section": "deadwood",
            "options": {},
        },
    }
    r = answer(
        {
            "check": "hand",
            "variant": "gin",
            "options": {"preset": "modern"},
            "hand": "AS 2S 3S 4S 7H 7D 7C 7S 9C 10C JC",
        }
    )
    assert r["ok"] and r["big_gin"] and r["gin"] and r["discard"] == "7S"
    assert r["big_gin_melds"] == [
        ["AS", "2S", "3S", "4S"],
        ["7S", "7H", "7D", "7C"],
        ["9C", "10C", "JC"],
    ]
    assert (
        answer({"check": "hand", "variant": "gin", "hand": ["AS", "2S"]})["error"]
        == "bad_hand_size"
    )
    assert answer({"check": "hand", "variant": "gin", "hand": ["AS", "JK"]})["error"] == "bad_token"
    assert (
        answer({"check": "hand", "variant": "gin", "hand": "AS AS 2S"})["error"]
        == "too_many_copies"
    )


# -- lay-offs -----------------------------------------------------------------------------------

# knocker: 2C-4C, 5H-7H, three queens; AD = 1. Lay-off spots: AC/5C, 4H/8H, QH.
KL = "5H 6H 7H QS QD QC 2C 3C 4C AD"


def test_layoff_chain_onto_run() -> None:
    knocker = best_arrangement(cards(KL))
    # 8H 9H KS KD 2S 3D 9S 6D JS 10D: no meld, 77; 8H then 9H onto 5H-7H → 60
    lo = best_layoffs(cards("8H 9H KS KD 2S 3D 9S 6D JS 10D"), knocker.melds)
    assert lo.deadwood_before == 77
    assert lo.deadwood == 60
    assert [(str(x.card), names(knocker.melds[x.meld])) for x in lo.layoffs] == [
        ("8H", ["5H", "6H", "7H"]),
        ("9H", ["5H", "6H", "7H"]),
    ]


def test_layoff_onto_group() -> None:
    knocker = best_arrangement(cards(KL))
    # QH onto the queens: 78 → 68
    lo = best_layoffs(cards("QH KS KD 2S 3D 9S 6D JS 10D 8C"), knocker.melds)
    assert (lo.deadwood_before, lo.deadwood) == (78, 68)
    assert [str(x.card) for x in lo.layoffs] == ["QH"]


def test_layoff_breaks_a_set() -> None:
    # knocker 4S-6S; defender four 7s + 8S: without lay-offs 8S KH KD 2H 3D 9D = 42;
    # 7S and 8S onto 4S-6S, 7H7D7C kept → 34
    knocker = best_arrangement(cards("4S 5S 6S QS QD QC 2C 3C 4C AD"))
    lo = best_layoffs(cards("7S 7H 7D 7C 8S KH KD 2H 3D 9D"), knocker.melds)
    assert (lo.deadwood_before, lo.deadwood) == (42, 34)
    assert [str(x.card) for x in lo.layoffs] == ["7S", "8S"]
    assert [names(m) for m in lo.melds] == [["7H", "7D", "7C"]]


def test_layoff_keeps_own_meld() -> None:
    # 8H could go onto 5H-7H, but 8S 8D would then be deadwood: keep the 8s, 50
    knocker = best_arrangement(cards(KL))
    lo = best_layoffs(cards("8H 8S 8D KS KD 2S 3D 9S 6D JS"), knocker.melds)
    assert (lo.deadwood_before, lo.deadwood) == (50, 50)
    assert lo.layoffs == ()


def test_layoff_bad_knocker_meld() -> None:
    with pytest.raises(ValueError):
        best_layoffs(cards("8H 9H"), [cards("QS KS AS")])


# -- rounds ---------------------------------------------------------------------------------------

K9 = "AS 2S 3S 7H 7D 7C 9C 10C JC 9D"  # 9D: deadwood 9; spots 4S, 7S, 8C, QC
K10 = "AS 2S 3S 7H 7D 7C 9C 10C JC 10D"  # 10
K11 = "AS 2S 3S 4S 7H 7D 7C 2D 4D 5C"  # 2 + 4 + 5 = 11
D29 = "KS KH KD 2H 3H 4H 5D 6D 8H 10H"  # 5 + 6 + 8 + 10 = 29, nothing to lay off
D9 = "KS KH KD 2H 3H 4H 4D 5D 6D 9H"  # 9H = 9
D8 = "KS KH KD 2H 3H 4H 4D 5D 6D 8H"  # 8H = 8
GIN = "AS 2S 3S 4S 5H 5D 5C KH KD KC"
DG = "QS QH QD 2H 3H 4H 6D 7D 8H KS"  # 6 + 7 + 8 + 10 = 31 (KS would lay off on a knock)
BIG = "AS 2S 3S 4S 7H 7D 7C 7S 9C 10C JC"


def duel(knocker: str, defender: str, preset: str = "seed", **over: Any) -> Any:
    return score_round(
        [PlayerHand("A", tuple(cards(knocker))), PlayerHand("B", tuple(cards(defender)))],
        "A",
        opts(preset, **over),
    )


@pytest.mark.parametrize("preset", ["seed", "modern", "classic"])
def test_knock(preset: str) -> None:
    r = duel(K9, D29, preset)
    assert r.verdict.valid
    assert (r.result, r.scores, r.winner) == ("knock", {"A": 20, "B": 0}, "A")
    assert r.deadwood == {"A": 9, "B": 29}


def test_knock_at_limit_and_above() -> None:
    r = duel(K10, D29, "seed")
    assert not r.verdict.valid and r.verdict.reason == "knock_above_limit"
    assert r.scores == {}
    for preset in ("modern", "classic"):
        r = duel(K10, D29, preset)
        assert r.verdict.valid and r.scores == {"A": 19, "B": 0}
        r = duel(K11, D29, preset)
        assert not r.verdict.valid and r.verdict.reason == "knock_above_limit"


@pytest.mark.parametrize(
    ("preset", "tie", "under"),
    [
        # tie 9 v 9: seed "lower than" → a knock worth 0, won by nobody (RULES.md §5 gap
        # filled); modern/classic: undercut + bonus
        ("seed", ("knock", {"A": 0, "B": 0}, None), {"A": 0, "B": 11}),
        ("modern", ("undercut", {"A": 0, "B": 25}, "B"), {"A": 0, "B": 26}),
        ("classic", ("undercut", {"A": 0, "B": 10}, "B"), {"A": 0, "B": 11}),
    ],
)
def test_undercut(preset: str, tie: tuple[str, dict[str, int], str], under: dict[str, int]) -> None:
    r = duel(K9, D9, preset)
    assert (r.result, r.scores, r.winner) == tie
    r = duel(K9, D8, preset)  # 8 < 9: undercut everywhere, 1 + bonus
    assert (r.result, r.scores, r.winner) == ("undercut", under, "B")


def test_undercut_after_layoffs() -> None:
    # defender KKK, 2S-6S, 8H 9H (17) lays 8H 9H onto 5H-7H → 0 < 1: 1 + 10
    r = duel(KL, "8H 9H KS KH KD 2S 3S 4S 5S 6S")
    assert r.deadwood_before_layoffs == {"A": 1, "B": 17}
    assert (r.result, r.scores, r.deadwood) == ("undercut", {"A": 0, "B": 11}, {"A": 1, "B": 0})


@pytest.mark.parametrize(("preset", "score"), [("seed", 56), ("modern", 56), ("classic", 51)])
def test_gin(preset: str, score: int) -> None:
    # gin bonus + 31; KS is not laid off onto KH KD KC after gin
    r = duel(GIN, DG, preset)
    assert (r.result, r.scores, r.layoffs) == ("gin", {"A": score, "B": 0}, ())


@pytest.mark.parametrize(
    ("preset", "result", "score"),
    [("seed", "gin", 25 + 29), ("modern", "big_gin", 31 + 29), ("classic", "gin", 20 + 29)],
)
def test_big_gin(preset: str, result: str, score: int) -> None:
    r = duel(BIG, D29, preset)
    assert (r.result, r.scores["A"]) == (result, score)
    assert r.discard == (None if result == "big_gin" else cards("7S")[0])


def test_round_layoffs_and_arrangement_choice() -> None:
    # knocker 4H-7H + 7S 7D 7C or four 7s + 4H-6H (2C 3C AD = 6 either way). With 4H-7H the
    # defender would lay off 8H 9H (77 → 60); the knocker lays the four 7s: 77 − 6 = 71.
    r = duel("4H 5H 6H 7H 7S 7D 7C 2C 3C AD", "8H 9H KS KD 2S 3D 9S 6D JS 10D")
    assert r.scores == {"A": 71, "B": 0}
    assert r.layoffs == ()
    # the chained lay-off in a round: KL v 8H 9H …: 60 − 1 = 59
    r = duel(KL, "8H 9H KS KD 2S 3D 9S 6D JS 10D")
    assert r.scores == {"A": 59, "B": 0}
    assert [(str(x.card), names(x.onto)) for x in r.layoffs] == [
        ("8H", ["5H", "6H", "7H"]),
        ("9H", ["5H", "6H", "7H", "8H"]),
    ]
    # lay-offs off: 77 − 1
    r = duel(KL, "8H 9H KS KD 2S 3D 9S 6D JS 10D", layoffs=False)
    assert r.scores == {"A": 76, "B": 0} and r.layoffs == ()


def test_round_knocker_11_cards() -> None:
    # K9 + KS: discard KS, knock with 9 v 29
    r = duel(K9 + " QS", D29)
    assert r.discard == cards("QS")[0] and r.scores == {"A": 20, "B": 0}


# RULES.md §5: with 11 cards the knocker chooses over every discard reaching the least deadwood
# and every arrangement of the 10 kept, together: the layout that leaves the defender most
# deadwood after lay-offs.
TIED_UNDERCUT = (
    # 3C-7C, 6S 6H, 3H 3S, AS 2D. Discarding 7C, 6S or 6H all leave 9:
    # - 7C: 6C 6S 6H + 3C 4C 5C, deadwood 3H 3S AS 2D = 9 (the card tie-break's first choice);
    #   B lays 6D on the 6s and 2C under 3C: 2S 3D = 5 < 9, undercut 4 + 10 = 14.
    # - 6S: 3C 3S 3H + 4C-7C, deadwood 6H AS 2D = 9; B lays off only 3D: 6D 2C 2S = 10,
    #   knock 10 − 9 = 1.
    "6C 6S 7C 6H 3H AS 2D 4C 3S 5C 3C",
    "6D 2C 2S 7D 7H 7S AD AH AC 3D",  # 7s, aces; 6D 2C 2S 3D = 13
)
TIED_TIE = (
    # 6s, 3s or 2H-4H, 2S 2H 4H 4C AD. Discarding 4H or 4C leaves 9:
    # - 4H: 6s + 3s, 2S 2H 4C AD = 9; B lays 3D on the 3s: AH 2D 4S = 7, undercut 2 + 10 = 12.
    # - 4C: 6s + 2H 3H 4H, 2S 3C 3S AD = 9; B lays AH under 2H: 3D 2D 4S = 9, a tie: no
    #   undercut in the seed preset, 0 for both, won by nobody.
    "6H 6D 4H 2S 2H 4C 6S 3C AD 3S 3H",
    "3D 5H AH 5D 7H 7D 2D 4S 5S 7C",  # 7s, 5s; 3D AH 2D 4S = 10
)
TIED_MORE = (
    # four 7s, four 8s, 9C 9D 3H: discarding 9D or 9C leaves 3:
    # - 9D: 7S 7H 7D + 7C 8C 9C + 8S 8H 8D; B lays 10C and 6C on the clubs: 52 − 16 = 36,
    #   knock 36 − 3 = 33.
    # - 9C: 7S 7H 7C + 7D 8D 9D + 8S 8H 8C; B lays nothing off: 52, knock 52 − 3 = 49.
    "7H 8D 8C 8S 9C 7D 9D 8H 7S 7C 3H",
    "10C 3S AH 4C 2H 5H JD KH 6C AD",  # no meld: 52
)


@pytest.mark.parametrize(
    ("hands", "discards", "kept_discard", "first", "chosen"),
    [
        (TIED_UNDERCUT, ["7C", "6S", "6H"], "6S", ("undercut", {"A": 0, "B": 14}), ("knock", 1)),
        (TIED_TIE, ["4H", "4C"], "4C", ("undercut", {"A": 0, "B": 12}), ("knock", 0)),
        (TIED_MORE, ["9D", "9C"], "9C", ("knock", {"A": 33, "B": 0}), ("knock", 49)),
    ],
)
def test_knocker_11_cards_chooses_over_tied_discards(
    hands: tuple[str, str],
    discards: list[str],
    kept_discard: str,
    first: tuple[str, dict[str, int]],
    chosen: tuple[str, int],
) -> None:
    knocker, defender = hands
    assert names(best_discards(cards(knocker))) == discards
    assert str(best_discard(cards(knocker)).discard) == discards[0]
    # the card tie-break's discard made first, alone: what the engine used to score
    kept = " ".join(c for c in knocker.split() if c != discards[0])
    r = duel(kept, defender)
    assert (r.result, r.scores) == first
    r = duel(knocker, defender)
    assert str(r.discard) == kept_discard
    assert (r.result, r.scores["A"], r.scores["B"]) == (*chosen, 0)
    assert r.winners == ([] if chosen[1] == 0 else ["A"])
    assert f"A discards {kept_discard}." in r.breakdown
    # the same as the 10 cards with that discard already made
    same = duel(" ".join(c for c in knocker.split() if c != kept_discard), defender)
    assert (same.result, same.scores, same.deadwood) == (r.result, r.scores, r.deadwood)


def test_void_and_invalid_rounds() -> None:
    players = [PlayerHand("A", tuple(cards(K9))), PlayerHand("B", tuple(cards(D29)))]
    r = score_round(players, None)
    assert (r.result, r.scores, r.winner, r.winners) == ("void", {"A": 0, "B": 0}, None, [])
    assert score_round(players, "C").verdict.reason == "knocker_not_a_player"
    assert score_round(players[:1], "A").verdict.reason == "wrong_player_count"
    dup = [
        PlayerHand("A", tuple(cards(K9))),
        PlayerHand("B", tuple(cards(D29.replace("10H", "9D")))),
    ]
    assert score_round(dup, "A").verdict.reason == "too_many_copies"
    short = [PlayerHand("A", tuple(cards(K9))), PlayerHand("B", tuple(cards(D29 + " QH")))]
    assert score_round(short, "A").verdict.reason == "wrong_hand_size"


def test_typed_deadwood() -> None:
    def typed(a: PlayerHand, b: PlayerHand, preset: str = "seed") -> Any:
        return score_round([a, b], "A", opts(preset))

    r = typed(PlayerHand("A", deadwood=5), PlayerHand("B", deadwood=20))
    assert r.scores == {"A": 15, "B": 0} and not r.layoffs_computed
    r = typed(PlayerHand("A", gin=True), PlayerHand("B", deadwood=30))
    assert (r.result, r.scores) == ("gin", {"A": 55, "B": 0})
    r = typed(PlayerHand("A", big_gin=True), PlayerHand("B", deadwood=30))
    assert (r.result, r.scores["A"]) == ("gin", 55)  # no big gin in the seed preset
    r = typed(PlayerHand("A", big_gin=True), PlayerHand("B", deadwood=30), "modern")
    assert (r.result, r.scores["A"]) == ("big_gin", 61)
    r = typed(PlayerHand("A", deadwood=3, gin=True), PlayerHand("B", deadwood=30))
    assert r.verdict.reason == "gin_with_deadwood"
    r = typed(PlayerHand("A", deadwood=12), PlayerHand("B", deadwood=30))
    assert r.verdict.reason == "knock_above_limit"


def test_round_json() -> None:
    r = answer(
        {
            "check": "round",
            "variant": "gin",
            "knocker": "A",
            "players": [
                {"name": "A", "hand": KL},
                {"name": "B", "hand": "8H 9H KS KD 2S 3D 9S 6D JS 10D"},
            ],
        }
    )
    assert r["ok"] and r["valid"]
    assert r["scores"] == {"A": 59, "B": 0}
    assert r["result"] == "knock" and r["winner"] == "A" and r["winners"] == ["A"]
    assert r["deadwood"] == {"A": 1, "B": 60}
    assert r["deadwood_before_layoffs"] == {"A": 1, "B": 77}
    assert r["layoffs"] == [
        {"player": "B", "card": "8H", "onto": ["5H", "6H", "7H"], "meld": 1},
        {"player": "B", "card": "9H", "onto": ["5H", "6H", "7H", "8H"], "meld": 1},
    ]
    assert r["melds"]["A"][1] == ["5H", "6H", "7H"]
    assert r["breakdown"][-1] == "A scores 60 − 1 = 59."
    bad = answer(
        {
            "check": "round",
            "variant": "gin",
            "knocker": "A",
            "players": [{"name": "A", "hand": K10}, {"name": "B", "hand": D29}],
        }
    )
    assert bad["ok"] and not bad["valid"] and bad["reason"] == "knock_above_limit"
    assert "scores" not in bad and bad["message"]
    void = answer(
        {
            "check": "round",
            "variant": "gin",
            "knocker": None,
            "players": [{"name": "A", "deadwood": 5}, {"name": "B", "deadwood": 7}],
        }
    )
    assert void["result"] == "void" and void["scores"] == {"A": 0, "B": 0}
    void2 = answer(
        {
            "check": "round",
            "variant": "gin",
            "void": True,
            "players": [{"name": "A", "deadwood": 5}, {"name": "B", "deadwood": 7}],
        }
    )
    assert void2["result"] == "void"
    missing = answer(
        {
            "check": "round",
            "variant": "gin",
            "players": [{"name": "A", "deadwood": 5}, {"name": "B", "deadwood": 7}],
        }
    )
    assert missing["error"] == "missing_field"
    three = answer(
        {
            "check": "round",
            "variant": "gin",
            "knocker": "A",
            "players": [{"name": n, "deadwood": 5} for n in "ABC"],
        }
    )
    assert three["valid"] is False and three["reason"] == "wrong_player_count"
    both = answer(
        {
            "check": "round",
            "variant": "gin",
            "knocker": "A",
            "players": [{"name": "A", "hand": K9}, {"name": "B", "hand": D29.replace("10H", "9D")}],
        }
    )
    assert both["ok"] and both["reason"] == "too_many_copies"


# -- solo mode ------------------------------------------------------------------------------------


def solo(hand: str, result: SoloResult, turned: int | None) -> Any:
    return score_solo_round(
        PlayerHand("Ala", tuple(cards(hand))), result, turned, opts("seed", mode="solo")
    )


def test_solo_rounds() -> None:
    r = solo(KL, "knock", 12)  # the player scores the 12 cards turned, the joker the deadwood 1
    assert (r.result, r.scores) == ("knock", {"Ala": 12, "joker": 1})
    r = solo(GIN, "gin", 7)
    assert (r.result, r.scores) == ("gin", {"Ala": 7, "joker": 0})
    r = solo(D29, "second_joker", None)  # second joker before a knock: the joker scores 29
    assert (r.result, r.scores, r.winner) == ("second_joker", {"Ala": 0, "joker": 29}, "joker")
    assert solo(D29, "knock", 5).verdict.reason == "knock_above_limit"
    assert solo(KL, "gin", 5).verdict.reason == "gin_with_deadwood"
    r = answer(
        {
            "check": "round",
            "variant": "gin",
            "options": {"mode": "solo"},
            "players": [{"name": "Ala", "hand": KL}],
            "result": "knock",
            "turned": 12,
        }
    )
    assert r["scores"] == {"Ala": 12, "joker": 1} and r["turned"] == 12
    r = answer(
        {
            "check": "round",
            "variant": "gin",
            "options": {"mode": "solo"},
            "players": [{"name": "Ala", "hand": KL}],
            "result": "knock",
        }
    )
    assert r["error"] == "missing_field"


def test_solo_game() -> None:
    o = opts("seed", mode="solo")
    g = score_game(
        ["Ala", "joker"],
        [
            GameRound({"Ala": 60, "joker": 5}, ("Ala",)),
            GameRound({"Ala": 45, "joker": 1}, ("Ala",)),
        ],
        o,
    )
    assert g.finished and g.winner == "Ala"
    assert g.totals == {"Ala": 105, "joker": 6} and g.bonuses == {"Ala": 0, "joker": 0}


# -- games ----------------------------------------------------------------------------------------


def rounds(*won: tuple[str, int]) -> list[GameRound]:
    return [GameRound({w: pts}, (w,)) if w else GameRound({}, ()) for w, pts in won]


@pytest.mark.parametrize(
    ("preset", "totals", "bonuses"),
    [
        # A 60 + 45 = 105, +100 game, +2 boxes; B 20 + 1 box
        ("seed", {"A": 255, "B": 45}, {"A": 150, "B": 25}),
        ("modern", {"A": 255, "B": 45}, {"A": 150, "B": 25}),
        ("classic", {"A": 245, "B": 40}, {"A": 140, "B": 20}),
    ],
)
def test_game(preset: str, totals: dict[str, int], bonuses: dict[str, int]) -> None:
    g = score_game(["A", "B"], rounds(("A", 60), ("B", 20), ("A", 45)), opts(preset))
    assert (g.totals, g.bonuses, g.finished, g.winner, g.shutout) == (
        totals,
        bonuses,
        True,
        "A",
        False,
    )


@pytest.mark.parametrize(
    ("preset", "over", "total"),
    [
        ("seed", {}, 105 + 100 + 50 + 100),  # shutout +100
        ("modern", {}, (105 + 100 + 50) * 2),  # shutout: whole total doubled
        ("classic", {}, 105 + 100 + 40 + 100),
        ("seed", {"shutout": "none"}, 105 + 100 + 50),
        ("seed", {"shutout_bonus": 50}, 105 + 100 + 50 + 50),
    ],
)
def test_shutout(preset: str, over: dict[str, Any], total: int) -> None:
    # a void hand between the two wins does not break the shutout
    g = score_game(["A", "B"], rounds(("A", 60), ("", 0), ("A", 45)), opts(preset, **over))
    assert g.shutout and g.totals == {"A": total, "B": 0}


def test_game_running_and_past_end() -> None:
    g = score_game(["A", "B"], rounds(("A", 60), ("B", 20)))
    assert not g.finished and g.winner is None
    assert g.totals == {"A": 60, "B": 20} and g.bonuses == {"A": 0, "B": 0}
    g = score_game(["A", "B"], rounds(("A", 60), ("A", 45), ("B", 10)))
    assert not g.verdict.valid and g.verdict.reason == "round_after_game_end"
    assert g.ended_at_round == 2
    # a round scoring 0 for both is won by nobody (RULES.md §5 gap filled): even passed with a
    # winner (as stored by older versions) it earns no box, and B's win still breaks no shutout
    g = score_game(
        ["A", "B"], [*rounds(("A", 60)), GameRound({"A": 0}, ("A",)), *rounds(("A", 40))]
    )
    assert g.boxes == {"A": 2, "B": 0} and g.totals["A"] == 100 + 100 + 50 + 100
    assert g.shutout


def test_round_scoring_zero_is_won_by_nobody() -> None:
    """RULES.md §5 (gap filled): a round scoring 0 for both is won by nobody."""
    r = duel(K9, D9, "seed")  # 9 v 9, no undercut on a tie: 0 for both
    assert (r.result, r.scores, r.winner, r.winners) == ("knock", {"A": 0, "B": 0}, None, [])
    assert r.to_json()["winners"] == [] and r.to_json()["winner"] is None
    assert "nobody wins it" in r.breakdown[-1]
    # an undercut on a tie with the bonus set to 0 also scores 0 for both
    r = duel(K9, D9, "modern", undercut_bonus=0)
    assert (r.result, r.scores, r.winners) == ("undercut", {"A": 0, "B": 0}, [])
    r = duel(K9, D29)
    assert r.winners == ["A"]
    # the judge's game check: the tie round gives no box and does not break B's shutout
    req = {
        "check": "game",
        "variant": "gin",
        "players": ["A", "B"],
        "rounds": [
            {"scores": {"A": 0, "B": 60}},
            answer(
                {
                    "check": "round",
                    "variant": "gin",
                    "knocker": "A",
                    "players": [{"name": "A", "hand": K9}, {"name": "B", "hand": D9}],
                }
            ),
            {"scores": {"A": 0, "B": 45}, "winners": ["B"]},
        ],
    }
    g = answer(req)
    assert g["boxes"] == {"A": 0, "B": 2} and g["shutout"]
    assert g["totals"] == {"A": 0, "B": 105 + 100 + 50 + 100}


def test_box_bonuses_do_not_count_towards_the_target() -> None:
    # A 95 points in 4 won rounds (100 in boxes): the game goes on, no bonus yet
    g = score_game(["A", "B"], rounds(("A", 20), ("A", 25), ("A", 25), ("A", 25)))
    assert not g.finished and g.boxes == {"A": 4, "B": 0}
    assert g.totals == {"A": 95, "B": 0} and g.bonuses == {"A": 0, "B": 0}
    # 5 more: 100 reached; then 100 game + 5 boxes × 25 + 100 shutout
    g = score_game(["A", "B"], rounds(("A", 20), ("A", 25), ("A", 25), ("A", 25), ("A", 5)))
    assert g.finished and g.totals["A"] == 100 + 100 + 125 + 100


def test_solo_turned_counts_the_joker() -> None:
    # the joker that stops the turning is counted: a joker on top of the stock scores 1
    r = solo(KL, "knock", 1)
    assert r.verdict.valid and r.scores == {"Ala": 1, "joker": 1}
    assert any("the joker included" in line for line in r.breakdown)
    with pytest.raises(RequestError):
        solo(KL, "knock", 0)
    # the second joker shows while the player's deadwood is 0: 0 for both, won by nobody
    r = solo(GIN, "second_joker", None)
    assert (r.scores, r.winner, r.winners) == ({"Ala": 0, "joker": 0}, None, [])


def test_game_json() -> None:
    req = {
        "check": "game",
        "variant": "gin",
        "players": ["A", "B"],
        "rounds": [
            {"scores": {"A": 60, "B": 0}, "winners": ["A"]},
            {"scores": {"A": 0, "B": 20}, "winners": ["B"]},
            {"scores": {"A": 45, "B": 0}, "winners": ["A"]},
        ],
    }
    r = answer(req)
    assert r["ok"] and r["finished"] and r["winner"] == "A"
    assert r["totals"] == {"A": 255, "B": 45} and r["bonuses"] == {"A": 150, "B": 25}
    # void rounds and missing winners
    req["rounds"] = [{"scores": {"A": 0, "B": 0}, "result": "void"}, {"scores": {"A": 30}}]
    r = answer(req)
    assert r["boxes"] == {"A": 1, "B": 0} and not r["finished"]
    req["rounds"] = [{"scores": {"C": 10}}]
    assert answer(req)["error"] == "bad_field"
    # a round answer can be passed back as it is
    rnd = answer(
        {
            "check": "round",
            "variant": "gin",
            "knocker": "A",
            "players": [{"name": "A", "hand": K9}, {"name": "B", "hand": D29}],
        }
    )
    req["rounds"] = [rnd]
    assert answer(req)["totals"] == {"A": 20, "B": 0}
    req["rounds"] = [{"scores": {"A": 100}}, {"scores": {"B": 5}}]
    r = answer(req)
    assert r["valid"] is False and r["reason"] == "round_after_game_end"


# -- properties ---------------------------------------------------------------------------------

DENSE_POOLS = [
    list(range(52)),
    [i for i in range(52) if i % 13 < 7 and i // 13 < 3],  # A-7 in three suits: many conflicts
    [i for i in range(52) if i % 13 < 5],  # A-5 in all suits: groups and runs everywhere
    [i for i in range(52) if 4 <= i % 13 < 9],  # 5-9 in all suits
    # A-3, 7-9, K in all suits: fours of a kind, some in no run (kings), some in runs
    [i for i in range(52) if i % 13 in (0, 1, 2, 6, 7, 8, 12)],
    # A-3, 6, 9, J, K in all suits: threes of a kind in no run (6, 9, J, K) beside runs
    [i for i in range(52) if i % 13 in (0, 1, 2, 5, 8, 10, 12)],
]


def to_card(i: int) -> Card:
    return Card(i % 13 + 1, list(Suit)[i // 13])


@st.composite
def hands(draw: st.DrawFn, n: int) -> list[Card]:
    pool = draw(st.sampled_from(DENSE_POOLS))
    picked = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n, unique=True))
    return [to_card(i) for i in picked]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(hands(10))
def test_prop_least_deadwood_matches_brute_force(hand: list[Card]) -> None:
    arr = best_arrangement(hand)
    assert arr.deadwood == brute_force_deadwood(hand)
    laid = [c for m in arr.melds for c in m] + list(arr.unmatched)
    assert sorted(laid, key=Card.sort_key) == sorted(hand, key=Card.sort_key)
    assert all(meld_kind(m) for m in arr.melds)
    assert value(arr.unmatched) == arr.deadwood
    assert deadwood_mask(encode(hand)) == arr.deadwood
    assert decode(encode(hand)) == sorted(hand, key=Card.sort_key)
    # the mask-level call with melds lays out the same arrangement
    h = encode(hand)
    dw, groups, runs = melds_mask(h)
    assert dw == arr.deadwood and not groups & runs and (groups | runs) & ~h == 0
    assert sorted(decode(groups | runs), key=Card.sort_key) == sorted(
        (c for m in arr.melds for c in m), key=Card.sort_key
    )
    assert value(decode(h & ~(groups | runs))) == dw


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(hands(11))
def test_prop_best_discard_matches_brute_force(hand: list[Card]) -> None:
    d = best_discard(hand)
    assert d.arrangement.deadwood == brute_force_deadwood(hand, discards=1)
    assert d.big_gin == (brute_force_deadwood(hand) == 0)
    kept = [c for c in hand if c != d.discard]
    assert len(kept) == 10 and brute_force_deadwood(kept) == d.arrangement.deadwood
    dw5, bit, groups, runs, full = discard_melds_mask(encode(hand))
    assert (dw5, decode(bit), full == 0) == (d.arrangement.deadwood, [d.discard], d.big_gin)
    assert value(decode(encode(kept) & ~(groups | runs))) == dw5 and not (groups | runs) & bit
    # every tied discard reaches the same least deadwood, and no other card does
    tied = set(best_discards(hand))
    for c in hand:
        rest = [x for x in hand if x != c]
        assert (brute_force_deadwood(rest) == dw5) == (c in tied)
    # the tie-break over every discard brute force finds tied: highest value, then highest
    # rank, then the first suit (S H D C)
    assert d.discard == max(tied, key=lambda c: (min(c.rank, 10), c.rank, -c.suit.index))
    assert best_discards(hand)[0] == d.discard
    # the one-pass search lays out the arrangement a second search of the 10 kept finds
    assert (groups, runs) == melds_mask(encode(kept))[1:]
    assert d.arrangement == best_arrangement(kept)
    assert discard_mask(encode(hand)) == (dw5, bit, full)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=1, max_value=13).flatmap(hands))
def test_prop_discard_any_count(hand: list[Card]) -> None:
    """The mask-level calls take any number of cards but a hand holding more than 3 ranks in
    ≥3 suits (12 cards or more: refused): the pruned group options of the one-pass discard
    search hold for every count, not only 11."""
    h = encode(hand)
    if sum(len({c.suit for c in hand if c.rank == r}) >= 3 for r in range(1, 14)) > 3:
        with pytest.raises(ValueError, match="at most 11 cards"):
            discard_melds_mask(h)
        return
    dw, bit, groups, runs, full = discard_melds_mask(h)
    left = {c: brute_force_deadwood([x for x in hand if x != c]) for c in hand}  # one discarded
    assert dw == min(left.values()) and full == brute_force_deadwood(hand)
    assert bit & h and (groups, runs) == melds_mask(h ^ bit)[1:]
    tied = [c for c in hand if left[c] == dw]
    assert decode(bit) == [max(tied, key=lambda c: (min(c.rank, 10), c.rank, -c.suit.index))]


def _lone_three(hand: list[Card]) -> bool:
    """Some rank holds exactly 3 cards, none of them in a run of 3 of its suit in the hand."""
    held = set(hand)

    def in_run(c: Card) -> bool:
        def has(r: int) -> bool:
            return 1 <= r <= 13 and Card(r, c.suit) in held

        r = c.rank
        return (
            (has(r - 2) and has(r - 1))
            or (has(r - 1) and has(r + 1))
            or (has(r + 1) and has(r + 2))
        )

    for rank in range(1, 14):
        same = [c for c in hand if c.rank == rank]
        if len(same) == 3 and not any(in_run(c) for c in same):
            return True
    return False


def test_discard_search_with_lone_threes_matches_brute_force() -> None:
    """The 11-card search always groups a rank of exactly 3 cards no run can use (when some
    card lies outside the ranks of 3+): cross-checked by brute force on hands where that
    happens, with a pool rich in such ranks beside runs; the deadwood of the 10 kept, the full
    hand's, the tie-break's discard and the arrangement of the kept all agree."""
    import random

    rng = random.Random(13)
    pool = [i for i in range(52) if i % 13 in (0, 1, 2, 3, 5, 8, 10, 12)]
    checked = 0
    while checked < 60:
        hand = [to_card(i) for i in rng.sample(pool, 11)]
        if not _lone_three(hand):
            continue
        checked += 1
        h = encode(hand)
        dw, bit, groups, runs, full = discard_melds_mask(h)
        left = {c: brute_force_deadwood([x for x in hand if x != c]) for c in hand}
        assert dw == min(left.values()) and full == brute_force_deadwood(hand)
        tied = [c for c in hand if left[c] == dw]
        assert decode(bit) == [max(tied, key=lambda c: (min(c.rank, 10), c.rank, -c.suit.index))]
        assert (groups, runs) == melds_mask(h ^ bit)[1:]


def test_discard_lone_three_of_kings() -> None:
    # KS KH KD (no queen: only a group melds them), 2-5 spades, 7-9 hearts, 4D: group the kings,
    # discard 4D → gin (0); not big gin (4D is in no meld). Without the group, 20 at best.
    hand = cards("KS KH KD 2S 3S 4S 5S 7H 8H 9H 4D")
    d = best_discard(hand)
    assert str(d.discard) == "4D" and d.arrangement.deadwood == 0 and not d.big_gin
    assert [names(m) for m in d.arrangement.melds] == [
        ["2S", "3S", "4S", "5S"],
        ["7H", "8H", "9H"],
        ["KS", "KH", "KD"],
    ]
    assert d.eleven.deadwood == 4


def brute_layoff(defender: list[Card], melds: Sequence[Sequence[Card]]) -> int:
    """Every assignment of defender cards to knocker melds (or keep), checked at the end."""
    best = brute_force_deadwood(defender)

    def go(i: int, assigned: list[list[Card]], kept: list[Card]) -> None:
        nonlocal best
        if i == len(defender):
            if all(meld_kind([*m, *a]) for m, a in zip(melds, assigned, strict=True) if a):
                best = min(best, brute_force_deadwood(kept))
            return
        c = defender[i]
        go(i + 1, assigned, [*kept, c])
        for j, m in enumerate(melds):
            if (
                meld_kind(m) == "run"
                and c.suit == m[0].suit
                or meld_kind(m) == "group"
                and c.rank == m[0].rank
            ):
                assigned[j].append(c)
                go(i + 1, assigned, kept)
                assigned[j].pop()

    go(0, [[] for _ in melds], [])
    return best


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(20))
def test_prop_layoffs(twenty: list[Card]) -> None:
    knocker = best_arrangement(twenty[:10])
    defender = twenty[10:]
    lo = best_layoffs(defender, knocker.melds)
    assert 0 <= lo.deadwood <= lo.deadwood_before == best_arrangement(defender).deadwood
    assert lo.deadwood == brute_layoff(defender, knocker.melds)
    # replaying the lay-offs in order keeps every knocker meld a meld
    lying = [list(m) for m in knocker.melds]
    for x in lo.layoffs:
        lying[x.meld].append(x.card)
        assert meld_kind(lying[x.meld])
    left = [c for c in defender if c not in {x.card for x in lo.layoffs}]
    assert best_arrangement(left).deadwood == lo.deadwood


ROUND_POOLS = [
    list(range(52)),
    [i for i in range(52) if i % 13 < 7 and i // 13 < 3],  # A-7 in three suits: 21 cards
    [i for i in range(52) if i % 13 < 6],  # A-6 in all suits
    [i for i in range(52) if 3 <= i % 13 < 10],  # 4-10 in all suits
]


@st.composite
def round_hands(draw: st.DrawFn) -> list[Card]:
    """21 distinct cards (11 for the knocker, 10 for the defender), often meld-rich."""
    pool = draw(st.sampled_from(ROUND_POOLS))
    picked = draw(st.permutations(pool))[:21]
    return [to_card(i) for i in picked]


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(round_hands(), st.sampled_from(["seed", "modern"]))
def test_prop_eleven_card_knock_is_the_best_ten_card_answer(hand: list[Card], preset: str) -> None:
    """An 11-card knock scores as the best, for the knocker, of the 10-card rounds over every
    discard leaving the least deadwood (brute force: every one of the 11 discards tried)."""
    o = opts(preset, knock_max=100)  # every hand may knock: the choice is what is tested
    knocker, defender = hand[:11], tuple(hand[11:])
    least = brute_force_deadwood(knocker, discards=1)
    tens = []
    for c in knocker:
        kept = tuple(x for x in knocker if x != c)
        if brute_force_deadwood(kept) == least:
            tens.append(
                (c, score_round([PlayerHand("A", kept), PlayerHand("B", defender)], "A", o))
            )
    assert tens
    r = score_round([PlayerHand("A", tuple(knocker)), PlayerHand("B", defender)], "A", o)
    assert r.verdict.valid
    if r.result in ("gin", "big_gin"):
        return
    best = max(t.scores["A"] - t.scores["B"] for _, t in tens)
    assert r.scores["A"] - r.scores["B"] == best
    assert r.discard in {c for c, t in tens if t.scores["A"] - t.scores["B"] == best}
    assert r.deadwood["B"] == max(t.deadwood["B"] for _, t in tens)


# -- the card-index calls ------------------------------------------------------------------------


def ix(text: str) -> list[int]:
    """Card indexes ``13 * suit + rank - 1`` (S H D C) of a hand in the notation."""
    return [13 * c.suit.index + c.rank - 1 for c in cards(text)]


def test_index_melds_by_hand() -> None:
    # the public example: A23 spades (0 1 2), three 7s (19 32 45), 9-10-J clubs (47 48 49);
    # 4D (29) is deadwood: 4; runs by suit first, then the groups
    assert index_melds(ix("AS 2S 3S 7H 7D 7C 9C 10C JC 4D")) == (
        4,
        ((0, 1, 2), (47, 48, 49), (19, 32, 45)),
    )
    # four 7s, 5C 6C, 8S 9S: 7S-8S-9S (6 7 8) and 7H 7D 7C (19 32 45); 5C 6C KD QH = 31
    assert index_melds(ix("7S 7H 7D 7C 5C 6C 8S 9S KD QH")) == (31, ((6, 7, 8), (19, 32, 45)))
    # no meld: 70, nothing laid out
    assert index_melds(ix("KS QH JD 10C 9S 8H 6D 4C 2S AH")) == (70, ())
    # three kings and three 5s, no run: both groups by rank (5s first), 2C 9H 8D JS = 29
    assert index_melds(ix("KS KH KD 5S 5H 5C 2C 9H 8D JS")) == (
        29,
        ((4, 17, 43), (12, 25, 38)),
    )
    assert index_melds([]) == (0, ())


def test_index_discard_by_hand() -> None:
    # KS KH KD, 2-5 spades, 7-9 hearts, 4D (29): discard 4D, gin on the 10 kept; all 11: 4
    assert index_discard(ix("KS KH KD 2S 3S 4S 5S 7H 8H 9H 4D")) == (
        0,
        29,
        ((1, 2, 3, 4), (19, 20, 21), (12, 25, 38)),
        4,
    )
    # no meld: the highest value, then highest rank, then S H D C: KH (25) of KH KD; the 10
    # kept hold 10+9+8+6+4+2+1+10+7+3 = 60; all 11: 70
    assert index_discard(ix("KH KD 10C 9S 8H 6D 4C 2S AH 7D 3C")) == (60, 25, (), 70)
    # one card: it is the discard
    assert index_discard([51]) == (0, 51, (), 10)


def test_index_calls_reject_bad_input() -> None:
    for bad in ([0, 0, 5], [52], [-1, 3], [1.5], ["0"]):
        with pytest.raises(ValueError):
            index_melds(bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            index_discard(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        index_discard([])


def _index_tuple(melds: Sequence[Sequence[Card]]) -> set[tuple[int, ...]]:
    return {tuple(sorted(13 * c.suit.index + c.rank - 1 for c in m)) for m in melds}


def _check_index_melds(picked: list[int]) -> None:
    hand = [to_card(i) for i in picked]
    got, melds = index_melds(picked)
    assert got == brute_force_deadwood(hand)
    arr = best_arrangement(hand)  # the same arrangement, in the index call's order
    assert got == arr.deadwood and _index_tuple(arr.melds) == {tuple(sorted(m)) for m in melds}
    runs = [m for m in melds if len({i // 13 for i in m}) == 1 and len(m) >= 3]
    groups = melds[len(runs) :]
    assert [m[0] // 13 for m in runs] == sorted(m[0] // 13 for m in runs)  # runs by suit
    assert all(len({i % 13 for i in g}) == 1 for g in groups)
    assert [g[0] % 13 for g in groups] == sorted(g[0] % 13 for g in groups)  # groups by rank


def _check_index_discard(picked: list[int]) -> None:
    hand = [to_card(i) for i in picked]
    got, discard, melds, full = index_discard(picked)
    d = best_discard(hand)
    # exactly one card is discarded (brute force's ``discards=1`` may keep them all)
    assert got == min(brute_force_deadwood([c for c in hand if c != x]) for x in hand)
    assert full == brute_force_deadwood(hand)
    assert (got, to_card(discard), full == 0) == (d.arrangement.deadwood, d.discard, d.big_gin)
    assert _index_tuple(d.arrangement.melds) == {tuple(sorted(m)) for m in melds}


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(DENSE_POOLS).flatmap(lambda p: st.permutations(p)), st.integers(1, 11))
def test_prop_index_calls_match_brute_force(order: list[int], n: int) -> None:
    """The card-index calls give brute force's least deadwood and the Card-level calls' own
    arrangement and discard, for any count of cards up to 11."""
    _check_index_melds(order[:n])
    _check_index_discard(order[:n])


@pytest.mark.slow
def test_index_calls_match_brute_force_seeded() -> None:
    """A fixed cross-check on 10- and 11-card hands of every pool (the benchmark's is 100,000
    hands: ``benchmarks/bench_gin.py``)."""
    import random

    rng = random.Random(1113)
    for k in range(600):
        pool = DENSE_POOLS[k % len(DENSE_POOLS)]
        _check_index_melds(rng.sample(pool, 10))
        _check_index_discard(rng.sample(pool, 11))


def test_index_calls_reject_bad_input_of_a_full_hand() -> None:
    # 10 and 11 cards are read from a list: every kind of bad index, in every position, is
    # still refused (-1 would be the king of clubs in a list of 52)
    hand = ix("AS 2S 3S 7H 7D 7C 9C 10C JC 4D 5H")
    for n, call in ((10, index_melds), (11, index_discard)):
        for pos in range(n):
            for bad in (52, 103, 104, -1, -52, -53, -104, 1.5, "0", None, [1]):
                picked: list[Any] = hand[:n]
                picked[pos] = bad
                with pytest.raises(ValueError):
                    call(picked)
            picked = hand[:n]
            picked[pos] = picked[(pos + 1) % n]  # one card twice
            with pytest.raises(ValueError):
                call(picked)
        for same in ([51] * n, [12] * n, [0] * (n - 1) + [1], [48, 49, 50, 51] * 3):
            with pytest.raises(ValueError):
                call(same[:n])
    for many in ([0] * 60, list(range(52)) + [0], [51] * 53):  # other counts: sum() and a set
        with pytest.raises(ValueError):
            index_melds(many)
        with pytest.raises(ValueError):
            index_discard(many)
    assert index_melds(list(range(9))) == (0, ((0, 1, 2, 3, 4, 5, 6, 7, 8),))  # other counts
    assert index_discard(list(range(9))) == (0, 8, ((0, 1, 2, 3, 4, 5, 6, 7),), 0)


def test_index_calls_refuse_more_cards_than_a_gin_hand() -> None:
    # 12 cards or more are no gin hand: refused by their count, before any search (all 52
    # cards, 13 ranks in 4 suits, once ran out of memory listing every choice of groups)
    groups12 = [r + 13 * s for r in range(4) for s in range(3)]  # four ranks in 3 suits
    for many in (list(range(52)), groups12, ix("AS 2S 3S 7H 7D 7C 9C 10C JC 4D 5H KC")):
        for call in (index_melds, index_discard):
            with pytest.raises(ValueError, match="at most 11 cards"):
                call(many)  # type: ignore[operator]
    full = [r + 13 * s for r in range(3) for s in range(3)] + [10, 11]  # 3 groups, 11 cards
    _check_index_melds(full)
    _check_index_discard(full)


def test_index_calls_of_groups_without_runs_by_hand() -> None:
    # no run: the groups whole, the rest deadwood; 11 cards discard the rest's highest card
    assert index_melds(ix("KS KH KD 5S 5H 5C 9D 2C 7H JS")) == (28, ((4, 17, 43), (12, 25, 38)))
    assert index_discard(ix("KS KH KD 5S 5H 5C 9D 2C 7H JS QC")) == (
        28,
        50,  # QC before JS: the highest rank of the 10-point cards
        ((4, 17, 43), (12, 25, 38)),
        38,
    )
    # ties of rank: the first suit S H D C (9D before 9C), a group of four kept whole
    assert index_discard(ix("7S 7H 7D 7C 9C 9D 2S 4H JH JD JC")) == (
        15,
        34,
        ((6, 19, 32, 45), (23, 36, 49)),
        24,
    )
    # every card in a group (4 + 4 + 3): the discard breaks a four, the one whose card is worth
    # most (5S: a five before an ace, spades first), and the hand is big gin
    allg = ix("AS AH AD AC 5S 5H 5D 5C 9S 9H 9D")
    assert index_discard(allg) == (0, 4, ((0, 13, 26, 39), (17, 30, 43), (8, 21, 34)), 0)
    for hand in (allg, allg[:10], ix("KS KH KD 5S 5H 5C 9D 2C 7H JS QC")):
        _check_index_melds(hand)
        _check_index_discard(hand)


@settings(max_examples=300, deadline=None)
@given(
    st.integers(10, 11).flatmap(lambda n: st.lists(st.integers(-60, 110), min_size=n, max_size=n))
)
def test_prop_index_calls_refuse_what_is_no_hand(picked: list[int]) -> None:
    """Any 10 or 11 whole numbers: a hand of distinct card indexes is answered as brute force
    says, anything else is refused."""
    if len(set(picked)) == len(picked) and all(0 <= i < 52 for i in picked):
        _check_index_melds(picked)
        _check_index_discard(picked)
        return
    with pytest.raises(ValueError):
        index_melds(picked)
    with pytest.raises(ValueError):
        index_discard(picked)


def test_index_tables_pack_each_card() -> None:
    from rules.search import deadwood as dw

    dw._index_tables()
    cards_ = dw._index_cards
    # 57 lanes of 3 bits from bit 9: 13 ranks, then 11 windows (A-2-3 … J-Q-K) per suit
    assert dw._LANES == 57 and dw._HAND_AT == 9 + 3 * 57
    assert sum(1 << (9 + 3 * j) for j in range(57)) == dw._LANE_ONES
    assert dw._LANE_FOURS == dw._LANE_ONES << 2
    assert sum(4 << (9 + 3 * r) for r in range(13)) == dw._GROUP_FOURS
    assert sorted(cards_) == list(range(52))  # no other key
    for i in range(52):
        suit, rank0 = divmod(i, 13)
        packed = cards_[i]
        assert packed >> 180 == 1 << (16 * suit + rank0)
        assert packed & 511 == min(rank0 + 1, 10)
        lanes = (packed >> 9) & (2 ** (3 * 57) - 1)
        windows = [w for w in (rank0 - 2, rank0 - 1, rank0) if 0 <= w <= 10]  # holding it
        assert lanes == sum(1 << 3 * j for j in [rank0] + [13 + 11 * suit + w for w in windows])
    # a run of 3 fills its window's lane: the sum says "a meld" (AS 2S 3S), a gap does not
    for hand, meld in (([0, 1, 2], True), ([0, 1, 3], False), ([10, 11, 12], True)):
        x = sum(cards_[i] for i in hand)
        assert bool((x + dw._LANE_ONES) & dw._LANE_FOURS) is meld
        assert not (x + dw._LANE_ONES) & dw._GROUP_FOURS
    x = sum(cards_[i] for i in (5, 18, 44))  # 6S 6H 6C: a group, in a rank lane
    assert (x + dw._LANE_ONES) & dw._LANE_FOURS == 4 << (9 + 3 * 5)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.sampled_from(DENSE_POOLS).flatmap(lambda p: st.permutations(p)), st.integers(10, 11))
def test_prop_index_calls_of_full_hands_match_brute_force(order: list[int], n: int) -> None:
    """10 and 11 cards (the pairwise sums, the no-meld answers, the run-only discard)."""
    _check_index_melds(order[:n])
    _check_index_discard(order[:n])


@pytest.mark.slow
def test_index_calls_of_uniform_hands_match_brute_force_seeded() -> None:
    """Uniform hands, most of them with no meld or runs only: the card-index calls' short cuts."""
    import random

    rng = random.Random(2026)
    for _ in range(400):
        _check_index_melds(rng.sample(range(52), 10))
        _check_index_discard(rng.sample(range(52), 11))


def test_index_calls_build_their_tables_on_first_use() -> None:
    """The first call of a fresh process (empty tables) answers, or refuses, as any other."""
    import subprocess
    import sys

    code = (
        "from rules.search.deadwood import index_discard, index_melds\n"
        "import sys\n"
        "call = index_melds if sys.argv[1] == 'melds' else index_discard\n"
        "hand = [int(i) for i in sys.argv[2].split(',')]\n"
        "try:\n"
        "    print(call(hand))\n"
        "except ValueError:\n"
        "    print('refused')\n"
    )
    ten = "0,1,2,19,32,45,47,48,49,29"
    eleven = "12,25,38,1,2,3,4,19,20,21,29"
    for what, hand, want in (
        ("melds", ten, "(4, ((0, 1, 2), (47, 48, 49), (19, 32, 45)))"),
        ("discard", eleven, "(0, 29, ((1, 2, 3, 4), (19, 20, 21), (12, 25, 38)), 4)"),
        ("melds", "-1" + ten[1:], "refused"),
        ("discard", "52" + eleven[2:], "refused"),
        ("melds", "5,6,7,20", "(8, ((5, 6, 7),))"),  # 8H: 8
    ):
        got = subprocess.run(
            [sys.executable, "-c", code, what, hand], capture_output=True, text=True, check=True
        )
        assert got.stdout.strip() == want


def test_card_calls_refuse_more_cards_than_a_gin_hand() -> None:
    # the Card-level calls refuse 12 cards or more by their count, as the card-index calls do
    # (a whole deck, 13 ranks in 4 suits, once ran out of memory listing every choice of groups)
    from rules.search.deadwood import hand_deadwood

    deck = [Card(r, s) for s in Suit for r in range(1, 14)]
    twelve = cards("AS 2S 3S 7H 7D 7C 9C 10C JC 4D 5H KC")  # no rank in 4 suits: still refused
    for many in (deck, twelve, deck[:12]):
        with pytest.raises(ValueError, match="at most 11 cards"):
            best_arrangement(many)
        with pytest.raises(ValueError, match="at most 11 cards"):
            best_arrangements(many)
        with pytest.raises(ValueError, match="at most 11 cards"):
            best_discard(many)
        with pytest.raises(ValueError, match="at most 11 cards"):
            best_discards(many)
        with pytest.raises(ValueError, match="at most 11 cards"):
            hand_deadwood(many)
        with pytest.raises(ValueError, match="at most 11 cards"):
            best_layoffs(many, [cards("QH QD QS")])
    # 11 cards are a hand (three groups and 2 cards): answered
    eleven = cards("AS AH AD 2S 2H 2D 3S 3H 3D 9C KC")
    assert best_arrangement(eleven[:10]).deadwood == 9
    kept = best_discard(eleven)  # KC goes, 9C is the deadwood of the 10 kept
    assert (kept.discard, kept.arrangement.deadwood) == (cards("KC")[0], 9)
    assert best_discards(eleven) == cards("KC")
    # the mask-level calls refuse a hand their group search could not hold: more than three
    # ranks in three or more suits (12 cards or more), the whole deck among them
    for call in (deadwood_mask, melds_mask, discard_mask, discard_melds_mask, discard_of_mask):
        with pytest.raises(ValueError, match="at most 11 cards"):
            call(encode(deck))
        with pytest.raises(ValueError, match="at most 11 cards"):
            call(encode(cards("AS AH AD 2S 2H 2D 3S 3H 3D 4S 4H 4D")))


RUN_POOLS = [
    [i for i in range(52) if i // 13 < 2],  # spades and hearts: no rank in 3 suits, runs
    [i for i in range(52) if i // 13 in (1, 3) and i % 13 > 3],  # hearts, clubs 5-K
    [i for i in range(52) if i // 13 == 2 or (i // 13 == 0 and i % 13 < 6)],  # a long suit
]
"""Pools of 2 suits: no rank held in 3 suits, so the card-index calls take their runs-only
paths (runs in one suit: one look-up; in two: the suit tables; every card in runs)."""


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(RUN_POOLS).flatmap(lambda p: st.permutations(p)), st.integers(1, 11))
def test_prop_index_calls_of_runs_only_match_brute_force(order: list[int], n: int) -> None:
    """Hands of runs and no group: brute force's least deadwood and the Card-level calls'
    arrangement and discard (the discard of highest value among the cards in no run)."""
    _check_index_melds(order[:n])
    _check_index_discard(order[:n])


def test_index_calls_of_runs_only_by_hand() -> None:
    # one run (4S 5S 6S 7S), no group: 4S-7S melded; 9H KD QC 2H 3C AD = 10+10+9+2+3+1 = 35
    ten = ix("4S 5S 6S 7S 9H KD QC 2H 3C AD")
    assert index_melds(ten) == (35, ((3, 4, 5, 6),))
    # the 11th card JH: the discard is KD (10 points, the highest rank of the 10-point cards
    # in no run; KD before QC), the run kept; all 11: 35 + 10 = 45
    assert index_discard([*ten, 23]) == (35, 38, ((3, 4, 5, 6),), 45)
    # every card in runs (A-6 spades, 8-Q hearts): any end of a run goes for free; QH is
    # worth most (10), so it goes and 8H-JH is left; big gin on all 11
    eleven = ix("AS 2S 3S 4S 5S 6S 8H 9H 10H JH QH")
    assert index_discard(eleven) == (0, 24, ((0, 1, 2, 3, 4, 5), (20, 21, 22, 23)), 0)
    # runs in two suits (AS-3S and 9H-JH): the suit tables, not the one-suit look-up
    assert index_melds(ix("AS 2S 3S 9H 10H JH KD QC 5C 7D")) == (
        32,
        ((0, 1, 2), (21, 22, 23)),
    )


def test_index_tables_pack_each_card_for_eleven() -> None:
    from rules.search import deadwood as dw

    dw._index_tables()
    cards11 = dw._index_cards11
    assert sorted(cards11) == list(range(52))
    assert dw._LANE_ONES11 == dw._LANE_ONES << 52 and dw._LANE_FOURS11 == dw._LANE_FOURS << 52
    for i in range(52):
        suit, rank0 = divmod(i, 13)
        packed = cards11[i]
        assert packed >> 232 == 1 << (16 * suit + rank0)
        assert packed & 511 == min(rank0 + 1, 10)
        assert (packed >> 9) & (2**52 - 1) == 1 << (4 * rank0 + 3 - suit)
        assert (packed >> 61) << 9 == dw._index_cards[i] & ~511  # the lanes and the hand
        top = (packed & (2**61 - 1)).bit_length()
        assert (dw._top_card[top], dw._top_value[top]) == (i, min(rank0 + 1, 10))
    # the run look-ups: one entry per pattern of runs in one suit (294 per suit)
    assert len(dw._runs10) == len(dw._runs11) == 4 * 294
    for key, (value, runs) in dw._runs10.items():
        cards_in_runs = [i for run in runs for i in run]
        h = sum(1 << (16 * (i // 13) + i % 13) for i in cards_in_runs)
        assert key == h & h >> 1 & h >> 2 and len({i // 13 for i in cards_in_runs}) == 1
        assert value == sum(min(i % 13 + 1, 10) for i in cards_in_runs)
        assert dw._runs11[key] == (sum(cards11[i] for i in cards_in_runs), runs)
    # the group look-ups: every group of one rank, and of two ranks (lower rank first)
    assert len(dw._groups10) == len(dw._groups11) == 65 + 78 * 25
    for col, (value, groups) in dw._groups10.items():
        cards_in_groups = [i for g in groups for i in g]
        assert col == sum(1 << (16 * (i // 13) + i % 13) for i in cards_in_groups)
        assert [g[0] % 13 for g in groups] == sorted({i % 13 for i in cards_in_groups})
        assert value == sum(min(i % 13 + 1, 10) for i in cards_in_groups)
        assert dw._groups11[col] == (sum(cards11[i] for i in cards_in_groups), groups)


def test_index_calls_of_groups_of_three_ranks_without_runs() -> None:
    # three ranks in ≥3 suits and no run (the groups one at a time, not the one look-up)
    ten = ix("KS KH KD 5S 5H 5C 9S 9H 9D 2C")
    assert index_melds(ten) == (2, ((4, 17, 43), (8, 21, 34), (12, 25, 38)))
    assert index_discard([*ten, 46]) == (2, 46, ((4, 17, 43), (8, 21, 34), (12, 25, 38)), 10)
