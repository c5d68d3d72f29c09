"""The spot sweep of the Carousel heap split (rules/search/split.py: ``_spot_sweep_steps``;
issue 13, "Speed: the Carousel heap split").

The spot sweep lays only the numbers 2..13 and gives every run that starts at 2 a spot below
it and every run still open after 13 a spot above it, for an ace or a joker standing for one
(a run 2-3 that stops there must have its spot filled); the aces not in spots are in groups of
aces. It must answer exactly like the brute-force oracle of tests/test_split.py, both ways
(from 2 up and from 13 down), and every split it returns must be valid meld by meld. Awkward
cases first: the ace needed at both ends, a run 2-3 that only an ace or a joker completes, a
run from the low ace to the high one, aces in a group.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.notation import parse_pieces
from rules.pieces import Piece
from rules.search.split import (
    Deadline,
    TooComplexError,
    _Heap,
    _OutOfBudget,
    _spot_one_way,
    _SpotRunner,
    find_split,
)
from rules.variant import meld_rules
from tests.test_split import _bench, assert_valid_split, oracle, small_heaps, texts
from tests.test_split_sweep import ace_region_heaps

CAR = meld_rules("carousel")


def heap(text: str) -> list[Piece]:
    return parse_pieces(text, CAR.material)


def spot_answers(pieces: list[Piece]) -> set[bool]:
    """Whether the spot sweep and its depth-first search split the heap, each way; every
    split found is checked."""
    answers: set[bool] = set()
    for mirror in (False, True):
        for depth_first in (False, True):
            got = _spot_one_way(pieces, CAR, mirror, depth_first)
            answers.add(got is not None)
            if got is not None:
                assert_valid_split(pieces, [m.pieces for m in got], CAR)
    return answers


@pytest.mark.parametrize(
    ("text", "splits"),
    [
        ("AS QS KS", True),  # Q-K-A: the ace's spot above a run ending at 13
        ("AS 2S 3S", True),  # A-2-3: a run 2-3 stops, its spot below filled
        ("KS AS 2S", False),  # never K-A-2
        ("AS 2S JK", True),  # A-2 and a joker for 3
        ("AS KS JK", True),  # a joker for Q, then K-A
        ("2S 3S JK", True),  # a joker below 2-3 (or above it)
        ("AS AS 2S 3S QS KS", True),  # one ace low, the other high
        ("AS AS 2S 3S", False),  # the second ace has no place
        ("AS 2S 3S 4S QS KS", True),  # the only ace must go high: 2-3-4 and Q-K-A
        ("AS AH AD 2S 3S", False),  # the ace of spades: in the group or below 2-3, not both
        ("AS AH AD 2S 3S JK", True),  # A-H-D with a joker, A-2-3 of spades
        ("AS AH AD AC 2S 3S 4S", True),  # AH AD AC and A-2-3-4 (or AS in the group, 2-3-4)
        (
            "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
            True,  # A to K and the other ace high: cut in two runs
        ),
        ("2S 3S", False),  # a run 2-3 with nothing for its spot
        ("QS KS AS AS", False),  # two aces, one run Q-K
        ("QS QS KS KS AS AS 2H 3H 4H", True),  # two runs Q-K-A, and 2-3-4
        ("AS 2S 3S 3S 4S 5S", True),  # A-2-3 and 3-4-5 (a run stops at 3 and one starts)
        ("JK JK AS", True),  # A and two jokers: A-2-3 or Q-K-A
    ],
)
def test_hand_worked_heaps(text: str, splits: bool) -> None:
    pieces = heap(text)
    assert oracle(pieces, CAR) == splits, text
    assert spot_answers(pieces) == {splits}, text
    got = find_split(pieces, CAR)
    assert (got is not None) == splits, text
    if got is not None:
        assert_valid_split(pieces, [m.pieces for m in got], CAR)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces=ace_region_heaps())
def test_ace_region_heaps_agree_with_brute_force(pieces: list[Piece]) -> None:
    assert spot_answers(pieces) == {oracle(pieces, CAR)}, texts([pieces])


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces=ace_region_heaps())
def test_more_ace_region_heaps_agree_with_brute_force(pieces: list[Piece]) -> None:
    assert spot_answers(pieces) == {oracle(pieces, CAR)}, texts([pieces])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_small_heaps_agree_with_brute_force(data: st.DataObject) -> None:
    pieces = data.draw(small_heaps(CAR))
    assert spot_answers(pieces) == {oracle(pieces, CAR)}, texts([pieces])


def test_stored_adversarial_heaps_agree_with_the_other_searches() -> None:
    """The hill-climbed Carousel heaps of benchmarks/bench_split.py: the spot sweep (both
    ways) answers like the race and the depth-first searches."""
    from rules.search.split import _split_one_way

    for text in _bench().ADVERSARIAL["carousel"]:
        pieces = heap(text)
        want = _split_one_way(pieces, CAR, False, 1) is not None
        assert spot_answers(pieces) == {want}, text
        assert (find_split(pieces, CAR) is not None) == want, text


@pytest.mark.parametrize("depth_first", [False, True])
def test_spot_sweep_stops_at_its_budget(depth_first: bool) -> None:
    pieces = heap(_bench().ADVERSARIAL["carousel"][0])
    runner = _SpotRunner(_Heap(pieces, CAR), Deadline(0.0), depth_first)
    with pytest.raises(TooComplexError) as err:
        runner(10**9)
    assert err.value.budget_s == 0.0


def test_spot_depth_first_finds_a_quick_split_within_its_race_cap() -> None:
    """Stored heap 22 (the worst for the race before the spot depth-first search: 1,452
    state expansions): from 13 down, the depth-first search finds a valid split within the
    race's cap for it, where the spot sweeps need hundreds of states either way."""
    from rules.search.split import _DFS_BUDGET_CAP

    pieces = heap(_bench().ADVERSARIAL["carousel"][21])
    got = _SpotRunner(_Heap(pieces, CAR, mirror=True), None, depth_first=True)(_DFS_BUDGET_CAP)
    assert not isinstance(got, str)
    assert_valid_split(pieces, [m.pieces for m in got], CAR)
    with pytest.raises(_OutOfBudget):
        _SpotRunner(_Heap(pieces, CAR, mirror=True), None)(_DFS_BUDGET_CAP)
