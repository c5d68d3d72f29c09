"""The sweep and the window proofs of the heap split (rules/search/split.py: ``_sweep_steps``,
``_window_proof``; issue 13, "Speed: the Carousel heap split").

Both must be exact: the sweep answers yes/no like the brute-force oracle of tests/test_split.py
(and like the depth-first searches), and a window proof ("this stretch of numbers cannot be
laid whatever arrives from below it") is never claimed for a heap that splits. Awkward cases
first: an obstruction in the middle of a heap that no single piece shows, aces low and high.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules.search.split as search
from rules.notation import parse_pieces
from rules.pieces import JOKER, Piece, make_piece
from rules.search.split import (
    _Heap,
    _split_one_way,
    _sweep,
    _sweep_one_way,
    _SweepRunner,
    _tail_says_no,
    _window_says_no,
    find_split,
    isolated_piece,
)
from rules.variant import MeldRules, meld_rules
from tests.test_split import (
    SPLIT_VARIANTS,
    _bench,
    assert_valid_split,
    oracle,
    small_heaps,
    texts,
    valid_tables,
)

TILE = meld_rules("tile_rummy")
CAR = meld_rules("carousel")

RED_BLUE_RUNS = " ".join(f"R{n} B{n}" for n in range(1, 14))


def heap(text: str, rules: MeldRules) -> list[Piece]:
    return parse_pieces(text, rules.material)


@contextmanager
def without_vector_filter() -> Iterator[None]:
    """The searches without the per-vector joker filter (``Heap.vector_filter``, ace high)."""
    old = search._VECTOR_FILTER
    search._VECTOR_FILTER = False  # type: ignore[misc]
    try:
        yield
    finally:
        search._VECTOR_FILTER = old  # type: ignore[misc]


def every_answer(pieces: list[Piece], rules: MeldRules) -> set[bool]:
    """Whether each search splits the heap: the engine, the sweeps and the depth-first
    searches over all kept-back vectors (both ways, with and without the per-vector joker
    filter); every split found is checked."""
    answers: set[bool] = set()
    got = find_split(pieces, rules)
    answers.add(got is not None)
    if got is not None:
        assert_valid_split(pieces, [m.pieces for m in got], rules)
    for mirror in (False, True):
        for filtered in (True, False) if rules.ace_high else (True,):
            with contextlib.nullcontext() if filtered else without_vector_filter():
                one = _sweep_one_way(pieces, rules, mirror)
                dfs = _split_one_way(pieces, rules, mirror, 1)
            for got_one in (one, dfs):
                answers.add(got_one is not None)
                if got_one is not None:
                    assert_valid_split(pieces, [m.pieces for m in got_one], rules)
    return answers


# --------------------------------------------------------------------------------------------
# Hand-worked heaps


def test_second_black_seven_has_no_meld() -> None:
    """The red and blue runs 1-13 and two black 7s: the first black 7 takes the red and blue
    7s into a group (the runs become 1-6 and 8-13); the second has no group partner left and
    no black 6 or 8 for a run. No piece is alone (each 7 sees three colours), so only the
    window around the 7s shows it."""
    pieces = heap(f"{RED_BLUE_RUNS} K7 K7", TILE)
    assert isolated_piece(pieces, TILE) is None
    assert _window_says_no(pieces, TILE)
    assert every_answer(pieces, TILE) == {False}
    # one black 7: R1-R6, R8-R13, B1-B6, B8-B13 and the group R7 B7 K7
    one = heap(f"{RED_BLUE_RUNS} K7", TILE)
    assert not _window_says_no(one, TILE)
    assert every_answer(one, TILE) == {True}
    got = find_split(one, TILE)
    assert got is not None and sorted(len(m.pieces) for m in got) == [3, 6, 6, 6, 6]
    # two jokers: the second black 7 makes a meld with them (K7 JK JK)
    two = heap(f"{RED_BLUE_RUNS} K7 K7 JK JK", TILE)
    assert not _window_says_no(two, TILE)
    assert every_answer(two, TILE) == {True}


@pytest.mark.parametrize(
    ("text", "splits"),
    [
        ("QS KS AS AS 2S 3S", True),  # Q-K-A and A-2-3: one ace high, one low
        ("QS KS AS 2S 3S", False),  # one ace cannot stand at both ends
        ("KS AS 2S", False),  # K-A-2 wraps
        ("QS KS AS JK 2S 3S", True),  # the joker stands for the second ace (or 4S)
        ("QS KS AS AH AD", False),  # Q-K-A leaves AH AD; the group AS AH AD leaves Q-K
        ("QS KS AS AH AD AC", True),  # Q-K-A and the group AH AD AC
        ("QS QS KS KS AS AS", True),  # two Q-K-A runs
        ("QS QS KS KS AS AS 2S 3S", False),  # the low run needs a third ace
        ("QS QS KS KS AS AS 2S 3S JK", True),  # ... or the joker as an ace or a 4
        ("JS QS KS AS 2S 3S 4S", True),  # J-Q-K-A and 2-3-4 (the ace high)
        ("JS QS KS AS 2S 3S", True),  # J-Q-K and A-2-3 (the ace low)
        ("JS QS KS AS 2S", False),  # J-Q-K-A leaves 2; J-Q-K leaves A-2
    ],
)
def test_carousel_aces_at_either_end(text: str, splits: bool) -> None:
    """RULES.md §2 (Carousel): an ace is low (A-2-3) or high (Q-K-A) in a run, never both,
    never in the middle (K-A-2). Worked by hand; the oracle and every search agree."""
    pieces = heap(text, CAR)
    assert oracle(pieces, CAR) is splits
    assert every_answer(pieces, CAR) == {splits}
    if splits:
        assert not _window_says_no(pieces, CAR)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(7))
def test_adversarial_carousel_heaps_sweep_agrees(index: int) -> None:
    """The slowest Carousel heaps found by hill-climbing (benchmarks/bench_split.py): the
    sweeps agree with the engine and the depth-first searches; a window proof only where no
    split exists."""
    pieces = heap(_bench().ADVERSARIAL["carousel"][index], CAR)
    answers = every_answer(pieces, CAR)
    assert len(answers) == 1
    if answers == {True}:
        assert not _window_says_no(pieces, CAR)
        assert not _tail_says_no(pieces, CAR)


@pytest.mark.slow
def test_hard_heaps_of_the_judge_fuzz_answered_by_a_window() -> None:
    """The heaps that took 0.9–2 s before the sweep (tests/test_judge_fuzz.py HARD_HEAPS):
    no split, proved by a window (a stretch of numbers that cannot be laid)."""
    from tests.test_judge_fuzz import HARD_HEAPS

    for name in ("carousel_b", "carousel", "tile_rummy_b"):
        rules = meld_rules(name.removesuffix("_b"))
        pieces = heap(HARD_HEAPS[name], rules)
        assert _window_says_no(pieces, rules), name
        assert every_answer(pieces, rules) == {False}, name


@pytest.mark.slow
def test_sweep_runner_resumes_to_the_same_answer() -> None:
    """Run a step at a time (the race gives it growing budgets), the sweep reaches the answer
    the sweep run at once gives."""
    for text, rules in (
        (_bench().ADVERSARIAL["carousel"][2], CAR),
        (_bench().ADVERSARIAL["carousel"][0], CAR),
        (f"{RED_BLUE_RUNS} K7 JK", TILE),
    ):
        pieces = heap(text, rules)
        h = _Heap(pieces, rules, mirror=True)
        whole = _sweep(h)
        runner = _SweepRunner(_Heap(pieces, rules, mirror=True), None)
        steps = 0
        while True:
            try:
                got = runner(1)
            except search._OutOfBudget:
                steps += 1
                continue
            break
        assert steps > 1
        assert (got == search._NO_SPLIT) == (whole is None)


# --------------------------------------------------------------------------------------------
# Properties


@pytest.mark.slow
@pytest.mark.parametrize("variant", SPLIT_VARIANTS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_small_heaps_sweep_agrees_with_brute_force(variant: str, data: st.DataObject) -> None:
    rules = meld_rules(variant)
    pieces = data.draw(small_heaps(rules))
    want = oracle(pieces, rules)
    assert every_answer(pieces, rules) == {want}, texts([pieces])
    if want:
        assert not _window_says_no(pieces, rules), texts([pieces])
        assert not _tail_says_no(pieces, rules), texts([pieces])


@st.composite
def ace_region_heaps(draw: st.DrawFn) -> list[Piece]:
    """Carousel heaps of up to 12 cards from A 2 3 4 J Q K of one or two suits (two decks)
    with 0-2 jokers: where the ace stands low or high."""
    suits = draw(st.integers(1, 2))
    pool = [
        make_piece("cards", n, f)
        for f in range(suits)
        for n in (1, 2, 3, 4, 11, 12, 13)
        for _ in range(2)
    ]
    idx = draw(st.lists(st.integers(0, len(pool) - 1), max_size=12, unique=True))
    return [pool[i] for i in idx] + [JOKER] * draw(st.integers(0, 2))


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces=ace_region_heaps())
def test_carousel_ace_heaps_agree_with_brute_force(pieces: list[Piece]) -> None:
    want = oracle(pieces, CAR)
    assert every_answer(pieces, CAR) == {want}, texts([pieces])
    if want:
        assert not _window_says_no(pieces, CAR), texts([pieces])
        assert not _tail_says_no(pieces, CAR), texts([pieces])


@pytest.mark.slow
@pytest.mark.parametrize("variant", SPLIT_VARIANTS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_valid_tables_never_get_a_window_proof(variant: str, data: st.DataObject) -> None:
    """Random valid tables up to the whole set: no window says "no" (nor a window from 2 to
    the top), and the sweeps split them."""
    rules = meld_rules(variant)
    pieces = data.draw(valid_tables(rules))
    assert not _window_says_no(pieces, rules)
    assert not _tail_says_no(pieces, rules)
    for mirror in (False, True):
        one = _sweep_one_way(pieces, rules, mirror)
        assert one is not None
        assert_valid_split(pieces, [m.pieces for m in one], rules)


@pytest.mark.slow
@pytest.mark.parametrize("variant", SPLIT_VARIANTS)
def test_near_tables_sweep_agrees_with_depth_first(variant: str) -> None:
    """Seeded heaps of 30–60 pieces, a valid table with a piece swapped (both answers occur),
    too big for the oracle: the sweeps agree with the depth-first searches, which share only
    the move tables with them."""
    import random

    bench = _bench()
    rules = meld_rules(variant)
    rng = random.Random(f"sweep-{variant}")
    seen = set()
    for _ in range(12):
        size = rng.randint(30, 60)
        pieces = bench.near_heap(rng, rules, size, rng.randint(0, 2))
        answers = every_answer(pieces, rules)
        assert len(answers) == 1, texts([pieces])
        seen |= answers
        if answers == {True}:
            assert not _window_says_no(pieces, rules)
    assert seen == {True, False}


def per_vector_answers(pieces: list[Piece], rules: MeldRules) -> set[bool]:
    """Ace high: whether some kept-back vector's own depth-first search (the one-vector
    searches, once in the race) splits the heap, each way; every split found is checked."""
    answers: set[bool] = set()
    for mirror in (False, True):
        h = _Heap(pieces, rules, mirror=mirror)
        found = False
        for v in search._kept_vectors(h):
            got = search._searcher(h, keep=v, start_phase=1)(10**9)
            if not isinstance(got, str):
                melds = search._build(h, got)
                search.check_split(pieces, melds, rules)
                assert_valid_split(pieces, [m.pieces for m in melds], rules)
                found = True
        answers.add(found)
    return answers


@contextmanager
def tiny_budgets() -> Iterator[None]:
    """The race with budgets of one state expansion at first (doubling; with the ace high:
    the first search and the spot depth-first searches one each, the provers in chunks of
    one), so that every one of its searches takes turns before one answers, even on small
    heaps (the tails that can be laid filtering the spot sweeps)."""
    names = ("_FIRST_BUDGET", "_FIRST_BUDGET_KEPT", "_DFS_CHUNK", "_SWEEP_CHUNK")
    old = {name: getattr(search, name) for name in names}
    for name in names:
        setattr(search, name, 1)
    try:
        yield
    finally:
        for name, value in old.items():
            setattr(search, name, value)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces=ace_region_heaps())
def test_carousel_one_vector_searches_and_race_agree_with_brute_force(
    pieces: list[Piece],
) -> None:
    """The one-vector searches (some vector splits the heap exactly when it splits) and the
    race run from budgets of one expansion (every search of it taking turns: the whole-heap
    and spot depth-first searches, then the spot sweeps and the tails, the tails that can be
    laid filtering the spot sweeps the other way; the answer of whichever finishes first)
    agree with the brute-force oracle."""
    want = oracle(pieces, CAR)
    assert per_vector_answers(pieces, CAR) == {want}, texts([pieces])
    with tiny_budgets():
        got = find_split(pieces, CAR)
    assert (got is not None) == want, texts([pieces])
    if got is not None:
        assert_valid_split(pieces, [m.pieces for m in got], CAR)


@pytest.mark.slow
@pytest.mark.parametrize("variant", SPLIT_VARIANTS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_race_from_tiny_budgets_agrees_with_brute_force(variant: str, data: st.DataObject) -> None:
    rules = meld_rules(variant)
    pieces = data.draw(small_heaps(rules))
    want = oracle(pieces, rules)
    with tiny_budgets():
        got = find_split(pieces, rules)
    assert (got is not None) == want, texts([pieces])
    if got is not None:
        assert_valid_split(pieces, [m.pieces for m in got], rules)


@pytest.mark.parametrize(
    ("index", "splits"),
    [
        (13, False),
        (14, False),
        (15, True),
        (16, True),
        (17, True),
        (18, False),
        (19, True),
        (20, False),
    ],
)
def test_heaps_climbed_against_the_race_agree(index: int, splits: bool) -> None:
    """The heaps climbed against the race of round 3 (benchmarks/bench_split.py; the last two
    in round 4, the slowest found): the engine and the sweeps both ways agree; the two that
    needed the most work without the windows from 2 to the top are proved by one, and no such
    window claims "no" for a heap that splits."""
    pieces = heap(_bench().ADVERSARIAL["carousel"][index], CAR)
    got = find_split(pieces, CAR)
    assert (got is not None) is splits
    if got is not None:
        assert_valid_split(pieces, [m.pieces for m in got], CAR)
    for mirror in (False, True):
        one = _sweep_one_way(pieces, CAR, mirror)
        assert (one is not None) is splits
        if one is not None:
            assert_valid_split(pieces, [m.pieces for m in one], CAR)
    assert _tail_says_no(pieces, CAR) is (index in (13, 14))
