"""Gin: the Card-level layout paths (session 9 speed work) worked by hand, and cross-checked
against the mask-level layout (a separate implementation) on random hands.

RULES.md §2, §5: melds are runs (≥3 consecutive ranks of a suit, ace low) and groups (3–4 of a
rank); cards are worth A 1, 2–10 face value, J Q K 10. The engine lists the melds by their
lowest card (rank, then suit S H D C) and the deadwood cards in canonical order.
"""

from __future__ import annotations

import dataclasses
import inspect

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import notation
from rules.pieces import Card, Suit
from rules.search import deadwood as dw
from rules.variants.gin import HandAnalysis, analyse_hand

SUITS = list(Suit)


def cards(text: str) -> list[Card]:
    """Fresh card objects (never encoded before) from tokens such as ``"10S JS"``."""
    return [Card(c.rank, c.suit) for c in notation.parse_pieces(text.split(), "cards", None, False)]


def names(melds: tuple[tuple[Card, ...], ...]) -> list[list[str]]:
    return [[str(c) for c in m] for m in melds]


# -- three melds, searched (a run and a group in the hand), listed by their lowest card ----------


def test_three_melds_out_of_suit_order() -> None:
    # spades run 9-J, diamonds run A-3, the 4s of S H C: the search keeps the group (the 4S is in
    # no spade run), KH is the deadwood (10). By lowest card: AD (rank 1), 4S (4), 9S (9).
    hand = cards("9S 10S JS AD 2D 3D 4S 4H 4C KH")
    for _ in range(2):  # the first call packs the cards, the second reads them cached
        got = dw.best_arrangement(hand)
        assert got.deadwood == 10
        assert names(got.melds) == [["AD", "2D", "3D"], ["4S", "4H", "4C"], ["9S", "10S", "JS"]]
        assert [str(c) for c in got.unmatched] == ["KH"]


def test_three_melds_group_between_runs() -> None:
    # spades run 2-4, diamonds run 9-J, the 5s of H D C (5D is in no diamond run); KS deadwood.
    hand = cards("2S 3S 4S 9D 10D JD 5H 5D 5C KS")
    got = dw.best_arrangement(hand)
    assert got.deadwood == 10
    assert names(got.melds) == [["2S", "3S", "4S"], ["5H", "5D", "5C"], ["9D", "10D", "JD"]]
    assert [str(c) for c in got.unmatched] == ["KS"]


def test_eleven_cards_three_melds_and_the_tie_break_discard() -> None:
    # the first hand with QC: KH and QC leave 10 each; the tie-break discards the higher rank (KH)
    hand = cards("9S 10S JS AD 2D 3D 4S 4H 4C KH QC")
    got = dw.best_discard(hand)
    assert str(got.discard) == "KH"
    assert got.arrangement.deadwood == 10
    assert names(got.arrangement.melds) == [
        ["AD", "2D", "3D"],
        ["4S", "4H", "4C"],
        ["9S", "10S", "JS"],
    ]
    assert [str(c) for c in got.arrangement.unmatched] == ["QC"]
    assert not got.big_gin


def test_eleven_cards_no_meld_discard_and_rest_in_order() -> None:
    # no meld: discard the highest value, then rank (KD); the rest in rank, then suit order
    hand = cards("KD 2S 4H 6C 8S 10H QC AD 3C 5S 7H")
    got = dw.best_discard(hand)
    assert str(got.discard) == "KD"
    assert got.arrangement.melds == ()
    assert [str(c) for c in got.arrangement.unmatched] == [
        "AD", "2S", "3C", "4H", "5S", "6C", "7H", "8S", "10H", "QC",
    ]  # fmt: skip
    assert got.arrangement.deadwood == 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 10 + 10


# -- hand value ------------------------------------------------------------------------------------


def test_hand_value_by_hand() -> None:
    hand = cards("AS 5H 10D JC QS KH 2D 3C 7S 9H")
    assert dw.hand_value(hand) == 1 + 5 + 10 + 10 + 10 + 10 + 2 + 3 + 7 + 9  # new cards: 67
    dw.best_arrangement(hand)  # caches the packed values on the cards
    assert dw.hand_value(hand) == 67
    assert dw.hand_value(hand + cards("KS")) == 77
    assert dw.hand_value([]) == 0


def test_hand_value_refuses_a_new_card_twice() -> None:
    with pytest.raises(ValueError):
        dw.hand_value(cards("AS AS"))


# -- HandAnalysis keeps the frozen dataclass's behaviour ------------------------------------------


def test_hand_analysis_init_takes_every_field_in_order() -> None:
    params = list(inspect.signature(HandAnalysis.__init__).parameters)[1:]
    assert params == [f.name for f in dataclasses.fields(HandAnalysis)]


def test_hand_analysis_is_frozen_and_compares_by_fields() -> None:
    got = analyse_hand(cards("9S 10S JS AD 2D 3D 4S 4H 4C KH"))
    # value: 9 + 10 + 10 (run) + 1 + 2 + 3 (run) + 3 * 4 (group) + 10 (KH) = 57
    assert (got.deadwood, got.can_knock, got.gin, got.hand_value) == (10, False, False, 57)
    assert got.knock_max == 9 and got.discard is None and got.eleven is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        got.deadwood = 0  # type: ignore[misc]
    copy = dataclasses.replace(got)
    assert copy == got and hash(copy) == hash(got) and copy is not got
    assert dataclasses.replace(got, deadwood=3) != got
    assert got.arrangement == dw.best_arrangement(cards("9S 10S JS AD 2D 3D 4S 4H 4C KH"))


# -- the Card-level paths agree with the mask-level layout ----------------------------------------

DENSE = [
    [i for i in range(52) if i % 13 < 7 and i // 13 < 3],
    [i for i in range(52) if i % 13 < 5],
    [i for i in range(52) if 4 <= i % 13 < 9],
    list(range(52)),
]


def _mask(ix: list[int]) -> int:
    return sum(1 << (16 * (i // 13) + i % 13) for i in ix)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(DENSE).flatmap(lambda p: st.permutations(p)),
    st.sampled_from([10, 11]),
)
def test_prop_card_level_matches_the_mask_layout(perm: list[int], n: int) -> None:
    ix = perm[:n]
    hand = [Card(i % 13 + 1, SUITS[i // 13]) for i in ix]
    h = _mask(ix)
    for _ in range(2):  # new cards, then the cached packed values
        if n == 10:
            assert dw.best_arrangement(hand) == dw.arrangement_mask(h)
        else:
            got, want = dw.best_discard(hand), dw.discard_of_mask(h)
            assert (got.discard, got.arrangement, got.big_gin) == (
                want.discard,
                want.arrangement,
                want.big_gin,
            )
    assert dw.hand_value(hand) == dw.value_mask(h)


def test_hand_value_refuses_a_cached_card_twice() -> None:
    hand = cards("AS 2S 3S 4H 5H 6H 7D 8D 9D KC")
    dw.best_arrangement(hand)  # the packed values are cached now
    for twice in ([hand[0], hand[0]], hand + [hand[9]], [hand[9]] * 9):
        with pytest.raises(ValueError):
            dw.hand_value(twice)


_DECK = [Card(i % 13 + 1, SUITS[i // 13]) for i in range(52)]
for _first in (0, 10, 20, 30, 40, 42):  # packs (and caches) the value of every card of _DECK
    dw.best_arrangement(_DECK[_first : _first + 10])


@given(st.lists(st.integers(0, 51), max_size=60))
def test_prop_hand_value_of_cached_cards_with_repeats(ix: list[int]) -> None:
    picked = [_DECK[i] for i in ix]
    if len(set(ix)) != len(ix):
        with pytest.raises(ValueError):
            dw.hand_value(picked)
    else:
        assert dw.hand_value(picked) == sum(min(c.rank, 10) for c in picked)
