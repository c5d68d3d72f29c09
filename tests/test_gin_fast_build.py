"""Gin: results built without their ``__init__`` (session 10 speed work) are the objects the
constructors build, and the 10/11-card ``hand_value`` path adds up what the cards are worth.

RULES.md §5: cards are worth A 1, 2–10 face value, J Q K 10; deadwood is the value of the cards
in no meld; the knock limit of the seed preset is 9 points.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules import notation
from rules.pieces import Card, Suit
from rules.search import deadwood as dw
from rules.variants.gin import HandAnalysis, analyse_hand

SUITS = list(Suit)


def cards(text: str) -> list[Card]:
    """Fresh card objects (never encoded before) from tokens such as ``"10S JS"``."""
    return [Card(c.rank, c.suit) for c in notation.parse_pieces(text.split(), "cards", None, False)]


def through_init(got: HandAnalysis) -> HandAnalysis:
    """The same analysis built by the dataclass's constructor."""
    return HandAnalysis(*(getattr(got, f.name) for f in dataclasses.fields(HandAnalysis)))


# -- analyse_hand ---------------------------------------------------------------------------------


def test_analyse_ten_cards_by_hand() -> None:
    # runs AS-3S and 9C-JC, group of 7s (H D C); 4D alone: deadwood 4, value 1+2+3+21+29+4 = 60
    hand = cards("AS 2S 3S 7H 7D 7C 9C 10C JC 4D")
    for _ in range(2):  # new cards, then the packed values cached on them
        got = analyse_hand(hand)
        assert (got.deadwood, got.can_knock, got.gin, got.big_gin) == (4, True, False, False)
        assert (got.discard, got.eleven, got.knock_max, got.hand_value) == (None, None, 9, 60)
        assert [[str(c) for c in m] for m in got.melds] == [
            ["AS", "2S", "3S"],
            ["7H", "7D", "7C"],
            ["9C", "10C", "JC"],
        ]
        assert [str(c) for c in got.unmatched] == ["4D"]
        assert set(vars(got)) == {f.name for f in dataclasses.fields(HandAnalysis)}
        same = through_init(got)
        assert same == got and hash(same) == hash(got) and repr(same) == repr(got)
        assert same.to_json() == got.to_json()
        with pytest.raises(dataclasses.FrozenInstanceError):
            got.gin = True  # type: ignore[misc]


def test_analyse_eleven_cards_big_gin_by_hand() -> None:
    # AS-4S, 5H-7H, the 9s of S H D C: all 11 melded (big gin); the discard is 9S (highest
    # value 9, then suit S first); the 10 kept: AS-4S, 5H-7H, 9H 9D 9C: gin. Value 10+18+36 = 64
    hand = cards("AS 2S 3S 4S 5H 6H 7H 9S 9H 9D 9C")
    got = analyse_hand(hand)
    assert (got.deadwood, got.gin, got.big_gin, str(got.discard)) == (0, True, True, "9S")
    assert got.hand_value == 64 and got.eleven is not None and got.eleven.deadwood == 0
    assert [[str(c) for c in m] for m in got.eleven.melds] == [
        ["AS", "2S", "3S", "4S"],
        ["5H", "6H", "7H"],
        ["9S", "9H", "9D", "9C"],
    ]
    same = through_init(got)
    assert same == got and hash(same) == hash(got) and repr(same) == repr(got)
    assert same.to_json() == got.to_json() and "big_gin_melds" in got.to_json()


def test_analyse_matches_the_constructor_on_random_hands() -> None:
    rng = random.Random(13)
    for k in range(400):
        pool = range(52) if k % 2 else [i for i in range(52) if i % 13 < 6]
        ix = rng.sample(list(pool), 10 + k % 2)
        hand = [Card(i % 13 + 1, SUITS[i // 13]) for i in ix]
        got = analyse_hand(hand)
        assert got == through_init(got) and set(vars(got)) == set(vars(through_init(got)))
        assert got.hand_value == sum(min(i % 13 + 1, 10) for i in ix)


# -- hand_value, 10 and 11 cards ----------------------------------------------------------------


def test_hand_value_ten_and_eleven_cached_cards() -> None:
    hand = cards("KS QH JD 10C 9S 8H 7D 6C 5S 4H 3D")
    dw.best_discard(hand)  # caches the packed values on all 11
    assert dw.hand_value(hand) == 10 + 10 + 10 + 10 + 9 + 8 + 7 + 6 + 5 + 4 + 3  # 82
    assert dw.hand_value(hand[:10]) == 79
    assert dw.hand_value(tuple(hand[1:])) == 72
    assert dw.hand_value(hand[:10] + cards("2C")) == 81  # one new card among cached ones


def test_hand_value_ten_and_eleven_with_a_card_twice() -> None:
    hand = cards("AS 2S 3S 4H 5H 6H 7D 8D 9D KC")
    dw.best_arrangement(hand)
    with pytest.raises(ValueError):
        dw.hand_value(hand[:9] + [hand[0]])  # 10 cards, AS twice
    with pytest.raises(ValueError):
        dw.hand_value(hand + [hand[5]])  # 11 cards, 6H twice


def test_hand_value_of_an_iterator_still_needs_a_sequence() -> None:
    hand = cards("AS 2S 3S 4H 5H 6H 7D 8D 9D KC")
    dw.best_arrangement(hand)
    with pytest.raises(TypeError):
        dw.hand_value(iter(hand))  # type: ignore[arg-type]


# -- Discard --------------------------------------------------------------------------------------


def test_discard_built_without_init_is_the_constructed_one() -> None:
    for text in (
        "AS 2S 3S 4S 5H 6H 7H 9S 9H 9D 9C",  # big gin
        "AS 5H 10D JC QS KH 2D 3C 7S 9H 4C",  # no meld: KH is the discard (10, K, H before C)
        "AS 2S 3S 7H 7D 7C 9C 10C JC 4D KD",  # runs and a group: the search path
    ):
        hand = cards(text)
        for _ in range(2):
            got = dw.best_discard(hand)
            same = dw.Discard(got.discard, got.arrangement, got.big_gin, dw.encode(hand))
            assert repr(got) == repr(same)
            assert got.eleven == same.eleven and got.eleven is got.eleven
            assert got.arrangement == dw.best_arrangement([c for c in hand if c != got.discard])
    assert str(dw.best_discard(cards("AS 5H 10D JC QS KH 2D 3C 7S 9H 4C")).discard) == "KH"
