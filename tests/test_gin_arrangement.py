"""Gin: the :class:`~rules.search.deadwood.Arrangement` of the Card-level calls (session 10 speed
work: the unmatched cards are laid out on first reading) is the named triple it was, and what it
lays out is the rest of the hand, hand by hand, whatever was asked before or after.

RULES.md §5: deadwood is the value of the cards in no meld (A 1, 2–10 face value, J Q K 10); a
run is ≥3 cards of one suit in consecutive ranks (ace low), a group 3–4 cards of one rank.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import notation
from rules.pieces import Card, Suit
from rules.search import deadwood as dw
from rules.search.deadwood import Arrangement

SUITS = list(Suit)
POOLS = [
    list(range(52)),
    [i for i in range(52) if i % 13 < 7 and i // 13 < 3],  # A-7 in three suits
    [i for i in range(52) if i % 13 < 5],  # A-5 in all suits
    [i for i in range(52) if 4 <= i % 13 < 9],  # 5-9 in all suits
    [i for i in range(52) if i % 13 in (0, 1, 2, 6, 7, 8, 12)],  # fours beside runs
]


def cards(text: str) -> list[Card]:
    """Fresh card objects (never encoded before) from tokens such as ``"10S JS"``."""
    return [Card(c.rank, c.suit) for c in notation.parse_pieces(text.split(), "cards", None, False)]


def names(cs: tuple[Card, ...] | list[Card]) -> list[str]:
    return [str(c) for c in cs]


def canonical(cs: list[Card]) -> tuple[Card, ...]:
    """The cards by rank, then suit S H D C."""
    return tuple(sorted(cs, key=lambda c: (c.rank, SUITS.index(c.suit))))


def value(cs: tuple[Card, ...] | list[Card]) -> int:
    return sum(min(c.rank, 10) for c in cs)


def check(hand: list[Card], arr: Arrangement) -> None:
    """``arr`` lays out exactly ``hand``: melds that are gin melds, the rest as its unmatched
    cards in canonical order, worth its deadwood."""
    melded = [c for m in arr.melds for c in m]
    assert all(dw.meld_kind(m) is not None for m in arr.melds)
    rest = [c for c in hand if c not in melded]
    assert sorted(names(melded + rest)) == sorted(names(hand))
    assert arr.unmatched == canonical(rest)
    assert arr.deadwood == value(arr.unmatched)


# -- by hand ----------------------------------------------------------------------------------


def test_unmatched_by_hand() -> None:
    # runs AS-3S and 9C-JC, the group of 7s (H D C); 4D alone: deadwood 4
    hand = cards("AS 2S 3S 7H 7D 7C 9C 10C JC 4D")
    for _ in range(2):  # new cards, then the packed values cached on them
        arr = dw.best_arrangement(hand)
        assert arr.deadwood == 4
        assert [names(m) for m in arr.melds] == [
            ["AS", "2S", "3S"],
            ["7H", "7D", "7C"],
            [
                "9C",
                "10C",
                "JC",
            ],
        ]
        assert names(arr.unmatched) == ["4D"]
    # no meld: every card, by rank then suit S H D C: A + 2 + 4 + 5 + 6 + 8 + 9 + 10 + 10 + 10
    hand = cards("KD 2C AS 9H 4H 5S 8D 6C JS QS")
    for _ in range(2):
        arr = dw.best_arrangement(hand)
        assert (arr.deadwood, arr.melds) == (65, ())
        assert names(arr.unmatched) == ["AS", "2C", "4H", "5S", "6C", "8D", "9H", "JS", "QS", "KD"]
    # 11 cards: the 4 of spades in no meld is the discard; the rest is gin
    hand = cards("AH 2H 3H 5C 6C 7C 8C QS QH QD 4S")
    for _ in range(2):
        d = dw.best_discard(hand)
        assert str(d.discard) == "4S" and d.arrangement.deadwood == 0
        assert d.arrangement.unmatched == ()
    # big gin: AS-4S, the 7s (H D C), 9C-QC; the discard of highest value is the queen of clubs
    hand = cards("AS 2S 3S 4S 7H 7D 7C 9C 10C JC QC")
    for _ in range(2):
        d = dw.best_discard(hand)
        assert d.big_gin and str(d.discard) == "QC" and d.arrangement.deadwood == 0
        assert d.eleven is d.eleven and (d.eleven.deadwood, d.eleven.unmatched) == (0, ())
        assert [names(m) for m in d.eleven.melds] == [
            ["AS", "2S", "3S", "4S"],
            ["7H", "7D", "7C"],
            ["9C", "10C", "JC", "QC"],
        ]
    # 11 cards, runs and a group of 4: the 9 of clubs and the king of diamonds stay (19)
    hand = cards("AS 2S 3S 4S 7S 7H 7D 7C 9C KD KH")
    for _ in range(2):
        d = dw.best_discard(hand)
        assert str(d.discard) == "KH" and d.arrangement.deadwood == 19
        assert names(d.arrangement.unmatched) == ["9C", "KD"]


# -- the named triple --------------------------------------------------------------------------


def test_reads_as_the_named_triple() -> None:
    hand = cards("AS 2S 3S 7H 7D 7C 9C 10C JC 4D")
    arr = dw.best_arrangement(hand)
    triple = (arr.deadwood, arr.melds, arr.unmatched)
    deadwood, melds, unmatched = dw.best_arrangement(hand)  # unpacked before any reading
    assert (deadwood, melds, unmatched) == triple
    assert len(arr) == 3 and tuple(arr) == triple and list(arr) == list(triple)
    assert (arr[0], arr[1], arr[2], arr[-1]) == (4, arr.melds, arr.unmatched, arr.unmatched)
    assert arr[:2] == triple[:2]
    with pytest.raises(IndexError):
        arr[3]
    assert arr._fields == ("deadwood", "melds", "unmatched")
    assert arr._asdict() == {"deadwood": 4, "melds": arr.melds, "unmatched": arr.unmatched}
    # equal to the tuple of its fields both ways, and to an Arrangement built from them
    built = Arrangement(*triple)
    for other in (triple, built):
        assert arr == other and other == arr
        assert (arr != other) is False and (other != arr) is False
    assert hash(arr) == hash(triple) == hash(built)
    assert arr != (5, arr.melds, arr.unmatched) and arr != list(triple) and arr != "x"
    assert len({arr, built, dw.best_arrangement(hand)}) == 1
    assert repr(arr) == (
        f"Arrangement(deadwood=4, melds={arr.melds!r}, unmatched={arr.unmatched!r})"
    )
    match arr:
        case Arrangement(deadwood=dwd, melds=m, unmatched=u):
            assert (dwd, m, u) == triple
        case _:
            raise AssertionError("no match")


def test_immutable_copies_and_pickles() -> None:
    hand = cards("KD 2C AS 9H 4H 5S 8D 6C JS QS")
    arr = dw.best_arrangement(hand)
    for field in ("deadwood", "melds", "unmatched"):
        with pytest.raises(AttributeError):
            setattr(arr, field, 0)
    with pytest.raises(AttributeError):
        arr.other = 1  # type: ignore[attr-defined]
    assert copy.copy(arr) == arr and copy.deepcopy(arr) == arr
    again = pickle.loads(pickle.dumps(dw.best_arrangement(hand)))  # pickled before any reading
    assert isinstance(again, Arrangement) and again == arr
    assert names(again.unmatched) == names(arr.unmatched)
    fewer = arr._replace(deadwood=0, unmatched=())
    assert (fewer.deadwood, fewer.melds, fewer.unmatched) == (0, arr.melds, ())
    assert arr.deadwood == 65  # unchanged
    with pytest.raises(ValueError):
        arr._replace(other=1)
    # the best discard too: its fields are read-only (the arrangement is made from them later)
    d = dw.best_discard(cards("AS 2S 3S 4S 7S 7H 7D 7C 9C KD KH"))
    for field in ("discard", "arrangement", "big_gin", "eleven"):
        with pytest.raises(AttributeError):
            setattr(d, field, None)
    assert str(d.discard) == "KH" and names(d.arrangement.unmatched) == ["9C", "KD"]
    made = dw.Discard(d.discard, d.arrangement, d.big_gin, dw.encode(d.arrangement.unmatched))
    assert (made.discard, made.arrangement, made.big_gin) == (d.discard, d.arrangement, False)


# -- laid out later, hand by hand -----------------------------------------------------------------


def test_laid_out_later_is_the_hand_of_that_call() -> None:
    """Many answers kept unread while other hands are answered (their melds are shared tuples
    from the same tables), then read: each lays out its own hand; reading one changes no other;
    changing the list given afterwards changes nothing."""
    rng = random.Random(13)
    kept: list[tuple[list[Card], Arrangement, list[Card], dw.Discard]] = []
    judge_cards = {}
    for k in range(3000):
        pool = POOLS[k % len(POOLS)]
        ix = rng.sample(pool, 11)
        # the judge's cards: one object per token (k even), or new objects (k odd)
        if k % 2:
            eleven = [Card(i % 13 + 1, SUITS[i // 13]) for i in ix]
        else:
            eleven = [judge_cards.setdefault(i, Card(i % 13 + 1, SUITS[i // 13])) for i in ix]
        ten = eleven[:10]
        given_ten = list(ten)
        kept.append((ten, dw.best_arrangement(given_ten), eleven, dw.best_discard(eleven)))
        given_ten.reverse()  # the list given, changed after the call
        given_ten.pop()
    rng.shuffle(kept)
    for ten, arr, eleven, d in kept:
        check(ten, arr)
        assert arr == dw.arrangement_mask(dw.encode(ten))  # the melds and cards laid out at once
        rest = [c for c in eleven if c != d.discard]
        check(rest, d.arrangement)
        assert d.arrangement is d.arrangement  # made once, on the first reading
        assert d.arrangement == dw.best_arrangement(rest)
        assert d.arrangement == dw.discard_of_mask(dw.encode(eleven)).arrangement
        if d.big_gin:
            assert d.eleven is d.eleven and d.eleven.deadwood == 0
            assert d.eleven == dw.best_arrangement(eleven)
    for ten, arr, eleven, d in kept[:150]:  # brute force: slow, on a sample
        assert arr.deadwood == dw.brute_force_deadwood(ten)
        assert d.arrangement.deadwood == dw.brute_force_deadwood(eleven, discards=1)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(POOLS).flatmap(lambda p: st.permutations(p)),
    st.integers(min_value=10, max_value=11),
    st.booleans(),
)
def test_prop_unmatched_is_the_rest_of_the_hand(order: list[int], n: int, fresh: bool) -> None:
    ix = order[:n]
    hand = [Card(i % 13 + 1, SUITS[i // 13]) for i in ix]
    if not fresh:
        dw.best_arrangement(hand[:10])  # the packed values cached on the cards first
    deadwood, melds, unmatched, laid = dw.laid_out(hand)  # the judge's call: all at once
    if n == 10:
        arr = dw.best_arrangement(hand)
        check(hand, arr)
        assert arr.deadwood == dw.brute_force_deadwood(hand)
        assert arr == dw.arrangement_mask(dw.encode(hand))
        assert laid is None
    else:
        d = dw.best_discard(hand)
        rest = [c for c in hand if c != d.discard]
        check(rest, d.arrangement)
        assert d.arrangement.deadwood == dw.brute_force_deadwood(hand, discards=1)
        assert d.arrangement == dw.discard_of_mask(dw.encode(hand)).arrangement
        assert laid is not None and (laid.discard, laid.big_gin) == (d.discard, d.big_gin)
        assert laid.arrangement == (deadwood, melds, unmatched)
        arr = d.arrangement
    assert (deadwood, melds, unmatched) == arr


# -- the best discard's searched paths (runs in several suits; groups of three ranks) ----------
_RICH = [i for i in range(52) if i % 13 < 5]  # A-5 of every suit: runs and groups everywhere


def _hand_indexes(n: int) -> st.SearchStrategy[list[int]]:
    """``n`` distinct card indexes, from the whole deck or from the aces to fives."""
    return st.one_of(
        st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True),
        st.lists(st.sampled_from(_RICH), min_size=n, max_size=n, unique=True),
    )


def test_best_discard_with_runs_in_two_suits_and_no_group() -> None:
    # runs A-4 of spades and 5-7 of hearts; loose 9D JC QD KC (39). Discarding the end of the
    # 4-card run saves nothing; a 10-point card saves 10, and of J Q K the highest rank goes:
    # KC. Kept: 9 + 10 + 10 = 29
    d = dw.best_discard(cards("AS 2S 3S 4S 5H 6H 7H 9D JC QD KC"))
    assert str(d.discard) == "KC" and d.arrangement.deadwood == 29 and not d.big_gin
    assert [names(m) for m in d.arrangement.melds] == [["AS", "2S", "3S", "4S"], ["5H", "6H", "7H"]]
    assert names(d.arrangement.unmatched) == ["9D", "JC", "QD"]
    # every card in runs of two suits (AS-5S, 5H-10H): big gin; the ends of both runs can go
    # without breaking them (AS, 5S, 5H, 10H), and of those the highest value goes: 10H
    g = dw.best_discard(cards("AS 2S 3S 4S 5S 5H 6H 7H 8H 9H 10H"))
    assert g.big_gin and g.arrangement.deadwood == 0 and str(g.discard) == "10H"
    assert [names(m) for m in g.arrangement.melds] == [
        ["AS", "2S", "3S", "4S", "5S"],
        ["5H", "6H", "7H", "8H", "9H"],
    ]


def test_best_discard_with_groups_of_three_ranks_and_no_run() -> None:
    # groups of 5s, 9s and kings; loose 2C and 7D: the 7 goes, 2 points kept
    d = dw.best_discard(cards("5S 5H 5D 9S 9H 9C KS KH KD 2C 7D"))
    assert str(d.discard) == "7D" and d.arrangement.deadwood == 2 and not d.big_gin
    assert [names(m) for m in d.arrangement.melds] == [
        ["5S", "5H", "5D"],
        ["9S", "9H", "9C"],
        ["KS", "KH", "KD"],
    ]


@settings(max_examples=300, deadline=None)
@given(_hand_indexes(11))
def test_best_discard_is_the_mask_paths_answer(indexes: list[int]) -> None:
    hand = [dw.decode(1 << (16 * (i // 13) + i % 13))[0] for i in indexes]
    d = dw.best_discard(hand)
    m = dw.discard_of_mask(dw.encode(hand))
    assert (d.discard, d.arrangement, d.big_gin, d.eleven) == (
        m.discard,
        m.arrangement,
        m.big_gin,
        m.eleven,
    )


def test_best_arrangement_with_runs_in_two_suits_or_groups_of_three_ranks() -> None:
    # runs A-4 of spades and 5-7 of hearts; 9D KC QD deadwood: 29
    a = dw.best_arrangement(cards("AS 2S 3S 4S 5H 6H 7H 9D QD KC"))
    assert a.deadwood == 29
    assert [names(m) for m in a.melds] == [["AS", "2S", "3S", "4S"], ["5H", "6H", "7H"]]
    assert names(a.unmatched) == ["9D", "QD", "KC"]
    # groups of 5s, 9s and kings, the 2 of clubs left: 2
    g = dw.best_arrangement(cards("5S 5H 5D 9S 9H 9C KS KH KD 2C"))
    assert g.deadwood == 2 and names(g.unmatched) == ["2C"]
    assert [names(m) for m in g.melds] == [
        ["5S", "5H", "5D"],
        ["9S", "9H", "9C"],
        ["KS", "KH", "KD"],
    ]


@settings(max_examples=300, deadline=None)
@given(_hand_indexes(10))
def test_best_arrangement_is_the_mask_paths_answer(indexes: list[int]) -> None:
    hand = [dw.decode(1 << (16 * (i // 13) + i % 13))[0] for i in indexes]
    got = dw.best_arrangement(hand)
    assert (got.deadwood, got.melds, got.unmatched) == tuple(dw.arrangement_mask(dw.encode(hand)))
