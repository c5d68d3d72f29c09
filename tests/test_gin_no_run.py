"""Gin mask calls for hands with groups and no run (``melds_mask``, ``discard_melds_mask``): the
short cut that takes every rank held in ≥3 suits as its whole group, cross-checked against the
full search of the same module and against plain enumeration of disjoint melds
(``brute_force_deadwood``). Values by hand: A = 1, 2–10 face, J Q K = 10 (RULES.md §5)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.notation import parse_pieces
from rules.pieces import Card, Suit
from rules.search import deadwood as dw
from rules.search.deadwood import (
    brute_force_deadwood,
    decode,
    discard_melds_mask,
    encode,
    melds_mask,
)

SUITS = list(Suit)


def cards(text: str) -> list[Card]:
    out = parse_pieces(text, "cards", jokers_allowed=False)
    assert all(isinstance(c, Card) for c in out)
    return out  # type: ignore[return-value]


def mask(text: str) -> int:
    return encode(cards(text))


def names(h: int) -> list[str]:
    return [str(c) for c in decode(h)]


def tie_break(c: Card) -> tuple[int, int, int]:
    """Greater is discarded first: highest value, then highest rank, then suit S H D C."""
    return (min(c.rank, 10), c.rank, -c.suit.index)


def test_ten_cards_of_groups_and_no_run_by_hand() -> None:
    # kings and fives are groups; 9D 2C 7H JS are deadwood: 9 + 2 + 7 + 10 = 28
    h = mask("KS KH KD 5S 5H 5C 9D 2C 7H JS")
    deadwood, groups, runs = melds_mask(h)
    assert deadwood == 28 and runs == 0
    assert names(groups) == ["5S", "5H", "5C", "KS", "KH", "KD"]
    # four of a rank is one group of 4; the rest: 2S 4H 6D 8C 10S JH = 2+4+6+8+10+10 = 40
    deadwood, groups, runs = melds_mask(mask("3S 3H 3D 3C 2S 4H 6D 8C 10S JH"))
    assert (deadwood, names(groups), runs) == (40, ["3S", "3H", "3D", "3C"], 0)
    # three groups, one card left: AS
    deadwood, groups, runs = melds_mask(mask("2S 2H 2D 6S 6H 6C 9H 9D 9C AS"))
    assert deadwood == 1 and groups.bit_count() == 9 and runs == 0


def test_eleven_cards_of_groups_and_no_run_by_hand() -> None:
    # + QC: the rest 9D 2C 7H JS QC = 38; discard a 10-point card of highest rank: QC
    h = mask("KS KH KD 5S 5H 5C 9D 2C 7H JS QC")
    deadwood, bit, groups, runs, full = discard_melds_mask(h)
    assert (deadwood, names(bit), runs, full) == (28, ["QC"], 0, 38)
    assert names(groups) == ["5S", "5H", "5C", "KS", "KH", "KD"]
    # same rank twice outside the groups: JS before JH (suit order S H D C); the rest
    # JH JS 2D AC 6S = 10 + 10 + 2 + 1 + 6 = 29, less JS
    deadwood, bit, groups, runs, full = discard_melds_mask(mask("4S 4H 4D 8S 8H 8C JH JS 2D AC 6S"))
    assert (deadwood, names(bit), full) == (19, ["JS"], 29)
    # every card in a group (4 + 4 + 3): big gin, a card of a group of 4 is discarded
    deadwood, bit, groups, runs, full = discard_melds_mask(mask("AS AH AD AC 7S 7H 7D 7C QS QH QD"))
    assert (deadwood, full, runs) == (0, 0, 0)
    assert names(bit) == ["7S"]  # value 7 beats 1; spades first


def test_twelve_cards_of_four_ranks_in_three_suits_are_refused() -> None:
    h = mask("AS AH AD 3S 3H 3D 5S 5H 5D 7S 7H 7D")  # no run, 4 ranks held in 3 suits
    with pytest.raises(ValueError, match="at most 11 cards"):
        melds_mask(h)
    with pytest.raises(ValueError, match="at most 11 cards"):
        discard_melds_mask(h)


@st.composite
def no_run_hands(draw: st.DrawFn) -> list[Card]:
    """10 or 11 cards with no 3 consecutive ranks in a suit and at least one rank in ≥3 suits
    (ranks 1-3 in 4 suits, 0-1 in 3 suits: at most 11 cards)."""
    n = draw(st.integers(min_value=10, max_value=11))
    for _ in range(50):
        ranks = draw(st.permutations(range(1, 14)))
        picked: list[Card] = []
        for r in ranks:
            suits = draw(st.sets(st.sampled_from(SUITS), max_size=4))
            picked.extend(Card(r, s) for s in suits)
        picked = picked[:n]
        h = encode(picked)
        a, b, c, d = h & 0x1FFF, (h >> 16) & 0x1FFF, (h >> 32) & 0x1FFF, h >> 48
        tri = (a & b & (c | d)) | (c & d & (a | b))
        if len(picked) == n and tri and not h & (h >> 1) & (h >> 2):
            return picked
    # a fallback of the same kind: two groups and scattered cards
    return cards("KS KH KD 5S 5H 5C 9D 2C 7H JS QC")[:n]


@settings(max_examples=200, deadline=None)
@given(no_run_hands())
def test_prop_no_run_masks_match_the_search_and_brute_force(hand: list[Card]) -> None:
    h = encode(hand)
    a, b, c, d = h & 0x1FFF, (h >> 16) & 0x1FFF, (h >> 32) & 0x1FFF, h >> 48
    tri = (a & b & (c | d)) | (c & d & (a | b))
    whole = h & dw._COLUMN * tri  # every rank in ≥3 suits, all its cards
    if len(hand) == 10:
        deadwood, groups, runs = melds_mask(h)
        assert deadwood == brute_force_deadwood(hand)
        assert (groups, runs) == (whole, 0)
        # the full search of the module finds the same first arrangement
        assert dw._best10(h, tri, a, b, c, d)[:2] == (deadwood, groups)
        return
    deadwood, bit, groups, runs, full = discard_melds_mask(h)
    assert deadwood == brute_force_deadwood(hand, 1) and full == brute_force_deadwood(hand)
    kept = [x for x in hand if dw.card_bit(x) != bit]
    assert len(kept) == 10 and brute_force_deadwood(kept) == deadwood
    # the tie-break: of the discards leaving the least deadwood, the greatest
    tied = [x for x in hand if brute_force_deadwood([y for y in hand if y != x]) == deadwood]
    assert dw.card_bit(max(tied, key=tie_break)) == bit
    assert runs == 0 and (groups == whole or whole == h)
    # the full search of the module: the same discard, groups and deadwood of all 11
    key, groups2, full2 = dw._discard_groups(h, tri, a, b, c, d)[:3]
    assert ((key >> 8) - 64, dw._discard_bits[key & 255], full2) == (deadwood, bit, full)
    assert groups2 == groups


def test_eleven_cards_of_no_meld_by_hand() -> None:
    # no meld: discard the card of highest rank, spades first among equals; the hand is worth
    # 1 + 3 + 5 + 7 + 9 + 10 + 10 + 10 + 10 + 2 + 4 = 71, the kings are highest: KS before KD
    h = mask("AS 3H 5D 7C 9S JH QC KD KS 2C 4D")
    assert discard_melds_mask(h) == (61, encode(cards("KS")), 0, 0, 71)
    # one card: it is the discard
    assert discard_melds_mask(mask("7D")) == (0, encode(cards("7D")), 0, 0, 7)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=51), min_size=1, max_size=11, unique=True))
def test_prop_no_meld_discard_matches_the_search_and_brute_force(picked: list[int]) -> None:
    """Any hand of 1 to 11 cards; those with no meld take the short cut, the others the search:
    both agree with the search of the other mask call and with brute force."""
    hand = [Card(i % 13 + 1, SUITS[i // 13]) for i in picked]
    h = encode(hand)
    deadwood, bit, _, _, full = discard_melds_mask(h)
    assert (deadwood, bit, full) == dw.discard_mask(h)  # the search of _discard_search
    left = {x: brute_force_deadwood([y for y in hand if y != x]) for x in hand}  # one discarded
    assert deadwood == min(left.values()) and full == brute_force_deadwood(hand)
    tied = [x for x in hand if left[x] == deadwood]
    assert dw.card_bit(max(tied, key=tie_break)) == bit
