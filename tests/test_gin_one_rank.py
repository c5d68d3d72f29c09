"""Gin best discard for hands with exactly one rank held in ≥3 suits (the unrolled one-rank
search), and the card-index call's ranks of ≥3 suits taken from the suit masks: cross-checked
against plain enumeration of disjoint melds (``brute_force_deadwood``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.pieces import Card, Suit
from rules.search.deadwood import (
    brute_force_deadwood,
    decode,
    discard_mask,
    discard_melds_mask,
    encode,
    index_discard,
    index_melds,
    melds_mask,
)

SUITS = list(Suit)


def to_card(i: int) -> Card:
    """Card index ``13 * suit + rank - 1`` (suits S H D C) → the card."""
    return Card(i % 13 + 1, SUITS[i // 13])


def tie_break(c: Card) -> tuple[int, int, int]:
    """Greater is discarded first: highest value, then highest rank, then suit S H D C."""
    return (min(c.rank, 10), c.rank, -c.suit.index)


@st.composite
def one_rank_hands(draw: st.DrawFn) -> list[int]:
    """Card indexes: 3 or 4 cards of one rank, the rest (up to 11 cards in all) from ranks near
    it, each of those ranks in at most 2 suits (so runs through the rank are likely)."""
    rank0 = draw(st.integers(min_value=0, max_value=12))
    suits = draw(st.sampled_from([(0, 1, 2, 3), (0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]))
    picked = [13 * s + rank0 for s in suits]
    near = [
        13 * s + r
        for s in range(4)
        for r in range(max(0, rank0 - 4), min(13, rank0 + 5))
        if r != rank0
    ]
    rest = draw(st.lists(st.sampled_from(near), max_size=11 - len(picked), unique=True))
    for r in range(13):  # no other rank in 3 suits: keep the first 2 of it
        same = [i for i in rest if i % 13 == r]
        for extra in same[2:]:
            rest.remove(extra)
    return picked + rest


def check_discard(ix: list[int]) -> None:
    hand = [to_card(i) for i in ix]
    h = encode(hand)
    dw, bit, groups, runs, full = discard_melds_mask(h)
    left = {c: brute_force_deadwood([x for x in hand if x != c]) for c in hand}
    assert dw == min(left.values())
    assert full == brute_force_deadwood(hand)
    tied = [c for c in hand if left[c] == dw]
    assert decode(bit) == [max(tied, key=tie_break)]
    assert (groups, runs) == melds_mask(h ^ bit)[1:]
    assert discard_mask(h) == (dw, bit, full)
    # the card-index call: the same deadwood, discard and full deadwood, and its melds are
    # the groups and runs of the mask-level call
    got_dw, got_discard, melds, got_full = index_discard(ix)
    assert (got_dw, [to_card(got_discard)], got_full) == (dw, decode(bit), full)
    assert encode([to_card(i) for m in melds for i in m]) == groups | runs
    assert all(len(m) >= 3 for m in melds)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(one_rank_hands())
def test_prop_discard_one_rank_matches_brute_force(ix: list[int]) -> None:
    check_discard(ix)


@pytest.mark.parametrize(
    "ix",
    [
        # four 5s beside 3-4 spades and 6-7 hearts: the group of 3 without 5S (5S in a run)
        # or without 5H; 11 cards
        [4, 17, 30, 43, 2, 3, 18, 19, 33, 34, 47],
        # four kings in no run, a run of spades, loose low cards
        [12, 25, 38, 51, 0, 1, 2, 3, 14, 28, 42],
        # three queens (S H D), J-Q-K hearts and spades: the queens grouped or in runs
        [11, 24, 37, 10, 12, 23, 25, 5, 20, 35, 6],
        # four 7s, 5-6 of every suit but clubs: a choice in every suit
        [6, 19, 32, 45, 4, 5, 17, 18, 30, 31, 48],
    ],
)
def test_discard_one_rank_spots(ix: list[int]) -> None:
    check_discard(ix)


def check_melds(ix: list[int]) -> None:
    """Up to 10 of the cards: the card-index call's least deadwood and melds are brute force's
    and the mask-level call's (the groups and runs of ``melds_mask``), runs by suit first, then
    the group."""
    ix = ix[:10]
    hand = [to_card(i) for i in ix]
    h = encode(hand)
    least, groups, runs = melds_mask(h)
    got, melds = index_melds(ix)
    assert got == least == brute_force_deadwood(hand)
    assert encode([to_card(i) for m in melds for i in m]) == groups | runs
    kinds = ["group" if len({i % 13 for i in m}) == 1 else "run" for m in melds]
    assert kinds == sorted(kinds, key=lambda k: k == "group")
    run_suits = [m[0] // 13 for m, k in zip(melds, kinds, strict=True) if k == "run"]
    assert run_suits == sorted(run_suits) and all(len(m) >= 3 for m in melds)


@settings(max_examples=200, deadline=None)
@given(one_rank_hands())
def test_prop_melds_one_rank_matches_brute_force(ix: list[int]) -> None:
    check_melds(ix)


@pytest.mark.parametrize(
    "ix",
    [
        # four 5s, 3-4 spades and 6-7 hearts: the group of 3 without 5S or 5H, or all four
        [4, 17, 30, 43, 2, 3, 18, 19, 33, 34],
        # three queens (S H D), J-Q-K hearts and spades: the queens grouped or in runs
        [11, 24, 37, 10, 12, 23, 25, 5, 20, 35],
        # four 7s, 5-6 of every suit but clubs: a choice in every suit
        [6, 19, 32, 45, 4, 5, 17, 18, 30, 31],
        # four 5s, the 3 and 4 of one suit (S, H, D, C in turn), 9H JD KC 8S: the group of 3
        # leaves that suit's 5 to its run (deadwood 37 against 44 for the group of 4)
        [4, 17, 30, 43, 2, 3, 21, 36, 51, 7],
        [4, 17, 30, 43, 15, 16, 21, 36, 51, 7],
        [4, 17, 30, 43, 28, 29, 21, 36, 51, 7],
        [4, 17, 30, 43, 41, 42, 21, 36, 51, 7],
    ],
)
def test_melds_one_rank_spots(ix: list[int]) -> None:
    check_melds(ix)
