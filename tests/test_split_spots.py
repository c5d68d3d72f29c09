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

from contextlib import suppress
from itertools import product
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.notation import parse_pieces
from rules.pieces import JOKER, Piece, make_piece
from rules.search import split as search
from rules.search.split import (
    _DFS_CHUNK,
    _GROUP_JG,
    Deadline,
    TooComplexError,
    _DfsFailed,
    _DfsMeets,
    _half_charge,
    _Heap,
    _OutOfBudget,
    _spot_children,
    _spot_dfs_restarts,
    _spot_dfs_steps,
    _spot_one_way,
    _SpotRunner,
    _Spots,
    find_split,
)
from rules.variant import meld_rules
from tests.test_split import _bench, assert_valid_split, oracle, small_heaps, texts
from tests.test_split_sweep import ace_region_heaps

CAR = meld_rules("carousel")


def root_half_bound(pieces: list[Piece], mirror: bool = False) -> int:
    """The suits' bounds in half-jokers summed at the spot sweep's first state (before 2,
    no run open; ``_Spots.lb_half``)."""
    sp = _Spots(_Heap(pieces, CAR, mirror=mirror))
    return sum(sp.lb_half(f, 2, 0, 0) for f in range(4))


def heap(text: str) -> list[Piece]:
    return parse_pieces(text, CAR.material)


def restarting_depth_first(pieces: list[Piece], unit: int) -> bool:
    """Whether the spot depth-first searches of the race, both ways, restarting in a new
    order after ``unit`` times the Luby sequence's state expansions and sharing the states
    found to fail (``_spot_dfs_restarts``), split the heap (a split found is checked)."""
    dirs = (_Heap(pieces, CAR), _Heap(pieces, CAR, mirror=True))
    with patch.object(search, "_DFS_UNIT", unit):
        got = _SpotRunner(dirs[0], None, steps=_spot_dfs_restarts(dirs))(10**9)
    if isinstance(got, str):
        return False
    assert_valid_split(pieces, [m.pieces for m in got], CAR)
    return True


def meeting_run(pieces: list[Piece], turns: tuple[int, int]) -> tuple[bool, list[_SpotRunner]]:
    """The spot sweeps from 2 up and from 13 down, meeting in the middle (each joins its
    states with the other's wherever that one has got to), in turns of ``turns`` state
    expansions (from 2 up, from 13 down, so that they meet at different cuts) until one
    answers: whether the heap splits (a split found is checked), and the two sweeps."""
    dirs = (_Heap(pieces, CAR), _Heap(pieces, CAR, mirror=True))
    sweeps = [_SpotRunner(h, None) for h in dirs]
    sweeps[0].meet(sweeps[1])
    sweeps[1].meet(sweeps[0])
    while True:
        for way in (0, 1):
            try:
                got = sweeps[way](turns[way])
            except _OutOfBudget:
                continue
            if isinstance(got, str):
                return False, sweeps
            assert_valid_split(pieces, [m.pieces for m in got], CAR)
            return True, sweeps


def depth_first_meeting(pieces: list[Piece], sweep_budget: int, order: int = 0) -> bool:
    """Whether the spot depth-first search (one way, in ``order``, each way in turn) meeting
    the spot sweep the other way splits the heap, that sweep having run ``sweep_budget`` state
    expansions first (its states up to where it got; all of them if it answered): each state
    at a cut the sweep has laid whole must join one of its states there (``_DfsMeets``).
    Both ways must agree; a split found is checked."""
    answers = set()
    for mirror in (False, True):
        sweep = _SpotRunner(_Heap(pieces, CAR, mirror=not mirror), None)
        with suppress(_OutOfBudget):
            sweep(sweep_budget)
        steps = _spot_dfs_steps(
            _Heap(pieces, CAR, mirror=mirror), None, order, None, _DfsMeets(sweep.view)
        )
        got = _SpotRunner(_Heap(pieces, CAR), None, steps=steps)(10**9)
        if not isinstance(got, str):
            assert_valid_split(pieces, [m.pieces for m in got], CAR)
        answers.add(not isinstance(got, str))
    assert len(answers) == 1, texts([pieces])
    return answers.pop()


def meeting_sweeps(pieces: list[Piece], turns: tuple[int, int]) -> bool:
    """Whether the spot sweeps meeting in the middle split the heap (see :func:`meeting_run`)."""
    return meeting_run(pieces, turns)[0]


def spot_answers(
    pieces: list[Piece],
    orders: tuple[int, ...] = (0, 1, 2),
    units: tuple[int, ...] = (1, 3),
    turns: tuple[tuple[int, int], ...] = ((1, 1), (1, 4), (5, 1)),
    meets: tuple[int, ...] = (4, 10**9),
) -> set[bool]:
    """Whether the spot sweep, its depth-first search (alone in each of ``orders``, and
    restarting after each of ``units`` times the Luby sequence, sharing what fails; and
    meeting the spot sweep the other way after each of ``meets`` state expansions of it), the
    spot sweep filtered by the tail the other way (from 2 on) and the spot sweeps meeting in
    the middle (in each of ``turns``) split the heap, each way; every split found is
    checked."""
    answers: set[bool] = {meeting_sweeps(pieces, t) for t in turns}
    answers |= {depth_first_meeting(pieces, b) for b in meets}
    ways = [(False, False, 0), (False, True, 0)] + [(True, False, o) for o in orders]
    for mirror in (False, True):
        for depth_first, filtered, order in ways:
            got = _spot_one_way(pieces, CAR, mirror, depth_first, filtered, order)
            answers.add(got is not None)
            if got is not None:
                assert_valid_split(pieces, [m.pieces for m in got], CAR)
    for unit in units:
        answers.add(restarting_depth_first(pieces, unit))
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


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces=ace_region_heaps())
def test_ace_region_heaps_agree_with_brute_force(pieces: list[Piece]) -> None:
    assert spot_answers(pieces) == {oracle(pieces, CAR)}, texts([pieces])


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces=ace_region_heaps())
def test_more_ace_region_heaps_agree_with_brute_force(pieces: list[Piece]) -> None:
    assert spot_answers(pieces) == {oracle(pieces, CAR)}, texts([pieces])


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_small_heaps_agree_with_brute_force(data: st.DataObject) -> None:
    pieces = data.draw(small_heaps(CAR))
    assert spot_answers(pieces) == {oracle(pieces, CAR)}, texts([pieces])


@pytest.mark.slow  # 62 climbed heaps, each searched four ways: ~120 s under load
def test_stored_adversarial_heaps_agree_with_the_other_searches() -> None:
    """The hill-climbed Carousel heaps of benchmarks/bench_split.py: the spot sweep (both
    ways) answers like the race and the depth-first searches."""
    from rules.search.split import _split_one_way

    for text in _bench().ADVERSARIAL["carousel"]:
        pieces = heap(text)
        want = _split_one_way(pieces, CAR, False, 1) is not None
        assert spot_answers(pieces, orders=(0,), units=(), meets=()) == {want}, text
        assert (find_split(pieces, CAR) is not None) == want, text


@pytest.mark.parametrize(
    ("text", "splits"),
    [
        ("4H 5D 5H 5S 6H 7H", False),  # 5H in the run 4-5-6-7 and in the group of fives
        ("2D 2S 3D 3S 3S 4S JK", False),  # 2-3-4 of spades, then 3S or 2D left alone
        ("AS 2S 3S 4S QS KS", True),  # the only ace must go high
        ("AS AH AD 2S 3S JK", True),  # A-H-D with a joker, A-2-3 of spades
    ],
)
def test_depth_first_orders_share_what_fails(text: str, splits: bool) -> None:
    """A state that one order found to fail is not searched again by another order sharing
    the set: after order 0 has said "no", order 1 says it at its first state (every state
    after 2 is known to fail or beyond the joker bound); where the heap splits, every order
    still finds a valid split with the set order 0 left, and the same split each run."""
    pieces = heap(text)
    for mirror in (False, True):
        failed = _DfsFailed()
        first = _SpotRunner(_Heap(pieces, CAR, mirror=mirror), None, True, 0, failed)(10**6)
        assert isinstance(first, str) != splits, text
        if not splits:
            # a heap whose first state the bound in half-jokers rules out fails before any
            # state is recorded (see test_half_joker_bound_hand_worked)
            assert failed or root_half_bound(pieces, mirror) > 2 * _Heap(pieces, CAR).jokers
            again = _SpotRunner(_Heap(pieces, CAR, mirror=mirror), None, True, 1, failed)
            assert again(2) == first, text  # a second state would run out
            continue
        for order in (0, 1, 2, 3):
            got = [
                _SpotRunner(_Heap(pieces, CAR, mirror=mirror), None, True, order, shared)(10**6)
                for shared in (failed, failed.copy())
            ]
            assert not isinstance(got[0], str), text
            assert_valid_split(pieces, [m.pieces for m in got[0]], CAR)
            assert got[0] == got[1], text


@pytest.mark.parametrize("depth_first", [False, True])
def test_spot_sweep_stops_at_its_budget(depth_first: bool) -> None:
    pieces = heap(_bench().ADVERSARIAL["carousel"][0])
    runner = _SpotRunner(_Heap(pieces, CAR), Deadline(0.0), depth_first)
    with pytest.raises(TooComplexError) as err:
        runner(10**9)
    assert err.value.budget_s == 0.0


def test_restarting_depth_first_stops_at_its_budget() -> None:
    pieces = heap(_bench().ADVERSARIAL["carousel"][0])
    dirs = (_Heap(pieces, CAR), _Heap(pieces, CAR, mirror=True))
    deadline = Deadline(0.0)
    runner = _SpotRunner(dirs[0], deadline, steps=_spot_dfs_restarts(dirs, deadline))
    with pytest.raises(TooComplexError) as err:
        runner(10**9)
    assert err.value.budget_s == 0.0


def test_spot_depth_first_finds_a_quick_split_within_four_turns() -> None:
    """Stored heap 22 (the worst for the race before the spot depth-first search: 1,452
    state expansions): from 13 down, the depth-first search finds a valid split within four
    of its turns in the race, where the spot sweeps need hundreds of states either way."""
    pieces = heap(_bench().ADVERSARIAL["carousel"][21])
    got = _SpotRunner(_Heap(pieces, CAR, mirror=True), None, depth_first=True)(4 * _DFS_CHUNK)
    assert not isinstance(got, str)
    assert_valid_split(pieces, [m.pieces for m in got], CAR)
    with pytest.raises(_OutOfBudget):
        _SpotRunner(_Heap(pieces, CAR, mirror=True), None)(4 * _DFS_CHUNK)


@pytest.mark.parametrize(
    ("below", "above", "joinable"),
    [
        ((1,), (1,), False),  # two pieces: too short together
        ((1,), (2,), True),
        ((2,), (1,), True),
        ((3,), (), True),  # ends below the cut
        ((2,), (), False),  # two long and nothing to go on with
        ((), (3,), True),  # starts at the cut
        ((), (2,), False),
        ((1, 3), (2,), True),  # 1 joins 2, the 3 ends
        ((1, 1), (2,), False),  # one of the 1s is left alone
        ((1, 1), (2, 3), True),
        ((3, 3), (1,), True),  # either 3 goes on
        ((2, 2), (1, 1), True),
        ((1, 2), (1, 1), False),  # the 1 below needs a 2 above
        ((), (), True),
    ],
)
def test_runs_joining_at_a_cut(
    below: tuple[int, ...], above: tuple[int, ...], joinable: bool
) -> None:
    """Runs open below a cut and runs open above it (lengths, 3 for three or more) make one
    table exactly when they pair off into runs of three or more and the rest are that long."""
    from rules.search.split import _joinable

    assert _joinable(below, above) is joinable
    assert _joinable(above, below) is joinable  # the same rule from either side


def test_a_run_from_two_counts_its_ace_at_the_first_cuts() -> None:
    """At the cut before 3 a run 2 (length 1) may still have an ace below it (A-2-3 with a 3
    from above), and at the cut before 4 a run 2-3 (A-2-3-4 with a 4 from above); further up a
    run of length 1 or 2 has no such spot."""
    from rules.search.split import _JOINS, _SLOT_INDEX

    one, two, three = _SLOT_INDEX[(1,)], _SLOT_INDEX[(2,)], _SLOT_INDEX[(3,)]
    assert one in _JOINS[3][one]  # 2 | 3 with the ace: A-2-3
    assert two in _JOINS[4][one]  # 2-3 | 4: A-2-3-4
    assert one not in _JOINS[4][one]  # a run 3 | 4 has no spot: too short
    assert one not in _JOINS[5][one] and two in _JOINS[5][one]
    assert three in _JOINS[5][_SLOT_INDEX[()]]  # a run ending at the cut


@pytest.mark.parametrize(
    ("text", "splits"),
    [
        ("AS 2S 3S", True),  # the run 2|3 joins at the first cut only with its ace
        ("AS 2S 3S 4S", True),  # 2-3|4 with its ace below
        ("AS AS 2S 2S 3S 3S", True),  # two A-2-3
        ("2S 3S 4S", True),
        ("3S 4S", False),
        ("AS 2S 3S QS KS AS", True),  # A-2-3 and Q-K-A
        ("AS 2S 3S 3S 4S 5S JK", True),  # A-2-3, 3-4-5 and a joker at 6 (or 2 before 3-4-5)
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS JK", True),
        ("2S 3S 4S 6S 7S 8S JK JK", True),  # 2-3-4-JK-6-7-8 and one joker left at 9
        ("2S 3S 5S 6S JK", True),  # 2-3-JK-5-6
        ("2S 3S 6S 7S JK", False),  # a joker can fill only one of 4 and 5
    ],
)
def test_filtered_spot_sweep_hand_worked(text: str, splits: bool) -> None:
    """The spot sweep filtered by the tail the other way from the first cut on: runs from 2
    with their aces, runs through the middle, jokers in the gaps."""
    pieces = heap(text)
    assert oracle(pieces, CAR) == splits, text
    for mirror in (False, True):
        got = _spot_one_way(pieces, CAR, mirror, filtered=True)
        assert (got is not None) == splits, (text, mirror)
        if got is not None:
            assert_valid_split(pieces, [m.pieces for m in got], CAR)


def test_tail_filter_narrows_the_spot_sweep_on_a_stored_heap() -> None:
    """Stored heap 19 (no split; the tails can be laid both ways): filtered by the tail from
    13 down, the spot sweep from 2 up proves "no" in far fewer states than alone (44 against
    470 when measured; 42 against 339 with the aces' joint bound)."""
    from rules.search.split import _NO_PROOF, _SweepRunner

    pieces = heap(_bench().ADVERSARIAL["carousel"][18])
    tail = _SweepRunner(_Heap(pieces, CAR, mirror=True), None, start=2)
    assert tail(10**9) == _NO_PROOF
    alone = _SpotRunner(_Heap(pieces, CAR), None)
    filtered = _SpotRunner(_Heap(pieces, CAR), None)
    filtered.filter_by(tail.history)
    assert alone(10**9) == filtered(10**9) == "no split"
    assert filtered.done * 4 < alone.done


@st.composite
def middle_heaps(draw: st.DrawFn) -> list[Piece]:
    """Carousel heaps of up to 12 cards from six numbers in a row (anywhere from 2 to K) of one
    or two suits (two decks), maybe an ace, with 0-2 jokers: runs crossing every cut."""
    lo = draw(st.integers(2, 8))
    suits = draw(st.integers(1, 2))
    pool = [
        make_piece("cards", n, f) for f in range(suits) for n in range(lo, lo + 6) for _ in range(2)
    ]
    if draw(st.booleans()):
        pool.append(make_piece("cards", 1, 0))
    idx = draw(st.lists(st.integers(0, len(pool) - 1), max_size=12, unique=True))
    return [pool[i] for i in idx] + [JOKER] * draw(st.integers(0, 2))


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces=middle_heaps())
def test_middle_heaps_agree_with_brute_force(pieces: list[Piece]) -> None:
    """The spot sweeps, filtered by the tails the other way or not, and the depth-first
    searches answer like the brute-force oracle where the runs cross the middle cuts."""
    assert spot_answers(pieces) == {oracle(pieces, CAR)}, texts([pieces])


@st.composite
def whole_heaps(draw: st.DrawFn) -> list[Piece]:
    """Carousel heaps of one or two suits (two decks) made of one to three runs anywhere from
    A to K-A, three to eight long, maybe two aces of other suits (for a group of aces), then
    maybe one card taken out or put in and up to two cards turned into jokers: runs through
    the middle cuts, where the spot sweeps meet, and aces at both ends, splitting or not."""
    suits = draw(st.integers(1, 2))
    cards: list[Piece] = []
    for _ in range(draw(st.integers(1, 3))):
        f = draw(st.integers(0, suits - 1))
        lo = draw(st.integers(1, 12))
        for n in range(lo, min(14, lo + draw(st.integers(3, 8)) - 1) + 1):
            card = make_piece("cards", 1 if n == 14 else n, f)
            if cards.count(card) < 2:
                cards.append(card)
    other_aces = draw(st.lists(st.sampled_from((2, 3)), max_size=2, unique=True))
    cards.extend(make_piece("cards", 1, f) for f in other_aces)
    change = draw(st.sampled_from(("none", "out", "in")))
    if change == "out" and cards:
        cards.pop(draw(st.integers(0, len(cards) - 1)))
    elif change == "in":
        card = make_piece("cards", draw(st.integers(1, 13)), draw(st.integers(0, suits - 1)))
        if cards.count(card) < 2:
            cards.append(card)
    for _ in range(min(draw(st.integers(0, 2)), len(cards) // 3)):
        cards[draw(st.integers(0, len(cards) - 1))] = JOKER
    if cards.count(JOKER) == len(cards):
        cards.append(make_piece("cards", 7, 0))
    return cards


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces=whole_heaps())
def test_whole_suit_heaps_agree_with_brute_force(pieces: list[Piece]) -> None:
    """The spot sweeps (alone, filtered, meeting in the middle) and the depth-first searches
    answer like the brute-force oracle on heaps whose runs cross the middle cuts and whose
    aces stand at either end or in groups of aces."""
    assert spot_answers(pieces, orders=(0,), units=(1,)) == {oracle(pieces, CAR)}, texts([pieces])


@pytest.mark.parametrize(
    ("aces", "low", "high", "jokers", "fills"),
    [
        # tags: mandatory spots * 5 + spots (spades first)
        ((1, 0, 0, 0), (1, 0, 0, 0), (0, 0, 0, 0), 0, True),  # A below a run 2-3-4
        ((1, 0, 0, 0), (0, 0, 0, 0), (1, 0, 0, 0), 0, True),  # A above a run J-Q-K
        ((1, 0, 0, 0), (6, 0, 0, 0), (0, 0, 0, 0), 0, True),  # A-2-3: its ace is there
        ((0, 0, 0, 0), (6, 0, 0, 0), (0, 0, 0, 0), 0, False),  # 2-3 and no ace
        ((0, 0, 0, 0), (6, 0, 0, 0), (0, 0, 0, 0), 1, True),  # a joker for the ace
        ((0, 0, 0, 0), (6, 0, 0, 0), (6, 0, 0, 0), 1, False),  # 2-3 and Q-K, one joker
        ((1, 0, 0, 0), (6, 0, 0, 0), (6, 0, 0, 0), 1, True),  # the ace and the joker
        ((2, 0, 0, 0), (1, 0, 0, 0), (1, 0, 0, 0), 0, True),  # one ace each end
        ((2, 0, 0, 0), (1, 0, 0, 0), (0, 0, 0, 0), 0, False),  # the second ace has no place
        ((1, 1, 1, 0), (0, 0, 0, 0), (0, 0, 0, 0), 0, True),  # a group of three aces
        ((1, 1, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), 0, False),  # two aces: no group
        ((1, 1, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), 1, True),  # two aces and a joker
        ((0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), 1, False),  # a joker with no place
        ((0, 0, 0, 0), (1, 0, 0, 0), (0, 0, 0, 0), 1, True),  # a joker below 2-3-4
        ((1, 1, 1, 0), (1, 0, 0, 0), (0, 0, 0, 0), 0, True),  # AS low or in the group
        ((2, 1, 1, 0), (6, 0, 0, 0), (0, 0, 0, 0), 0, True),  # AS low, AS AH AD
    ],
)
def test_spots_filled_where_the_sweeps_meet(
    aces: tuple[int, ...], low: tuple[int, ...], high: tuple[int, ...], jokers: int, fills: bool
) -> None:
    """Where the spot sweeps meet, the aces of each suit (those not in groups of aces) and the
    jokers left must fill every mandatory spot of the runs from 2 (``low``) and to 13
    (``high``), no more spots than there are, and every joker must have a place."""
    from rules.search.split import _spots_fill

    lo = (low[0], low[1], low[2], low[3])
    hi = (high[0], high[1], high[2], high[3])
    assert _spots_fill(list(aces), lo, hi, jokers) is fills


@pytest.mark.parametrize(("index", "splits"), [(45, False), (44, True), (38, False)])
def test_meeting_sweeps_answer_in_the_middle(index: int, splits: bool) -> None:
    """Stored heaps 46, 45 and 39: the spot sweeps each way alone lay every number before they
    answer (958 and 785, 863 and 860, 601 and 341 state expansions when measured; 148 and 186,
    316 and 576, 357 and 153 with the aces' joint bound); meeting in the middle (in turns of
    16) they answer the same within about half of that (778, 902 and 393 when measured; 129,
    284 and 189): "no" at a cut where each has laid its side; "yes" there too, the one that
    goes on then laying the numbers left from a state known to be in a split."""
    pieces = heap(_bench().ADVERSARIAL["carousel"][index])
    alone = [_SpotRunner(_Heap(pieces, CAR, mirror=m), None) for m in (False, True)]
    assert {isinstance(r(10**9), str) for r in alone} == {not splits}
    got, sweeps = meeting_run(pieces, (16, 16))
    assert got == splits
    if not splits:
        assert max(s.view.at for s in sweeps) < 13  # neither laid every number
    assert sum(s.done for s in sweeps) * 5 < 3 * sum(r.done for r in alone)  # under 60 %


def all_children(
    sp: _Spots, n: int, key: tuple[int, int, int, int, int]
) -> dict[tuple[tuple[int, int, int, int, int], tuple[int, int, int, int]], set[int]]:
    """Every child of the spot sweep's state ``key`` before ``n`` with its tag vector, and
    the costs it comes at (jokers with the suits' bounds after the moves, and the group
    jokers), by trying every option of every suit and every group joker count: no loop
    stops early."""
    J = key[4]
    per = [[(g, o) for g, _b, lst in sp.options(f, n, key[f], J) for o in lst] for f in range(4)]
    out: dict[tuple[tuple[int, int, int, int, int], tuple[int, int, int, int]], set[int]] = {}
    for (g0, o0), (g1, o1), (g2, o2), (g3, o3) in product(*per):
        opts = (o0, o1, o2, o3)
        x = sum(o[0] for o in opts)
        if x > J:
            continue
        for jg in _GROUP_JG[g0 + 3 * g1 + 9 * g2 + 27 * g3][J - x]:
            ck = (o0[1], o1[1], o2[1], o3[1], J - sum(o[2] for o in opts) - jg)
            tv = tuple(o[4] for o in opts) if n == 4 else (0, 0, 0, 0)
            out.setdefault((ck, (tv[0], tv[1], tv[2], tv[3])), set()).add(x + jg)
    return out


@pytest.mark.parametrize("index", [47, 49, 18, 0])
def test_depth_first_children_come_cost_by_cost(index: int) -> None:
    """The spot depth-first search builds a state's children cost by cost, cheapest first,
    as far as its order needs (``_spot_children(..., cost)``): on stored heaps 48, 50, 19 and
    1, both ways, for the states of the first numbers (up to 40 a number), each child comes
    at exactly one cost, the children of each cost are those an enumeration of every option
    gives at that cost, and so all costs together give every child."""
    pieces = heap(_bench().ADVERSARIAL["carousel"][index])
    for mirror in (False, True):
        h = _Heap(pieces, CAR, mirror=mirror)
        sp = _Spots(h)
        layer: list[tuple[int, int, int, int, int]] = [(0, 0, 0, 0, h.jokers)]
        for n in range(2, 14):
            nxt: dict[tuple[int, int, int, int, int], None] = {}
            for key in layer:
                want = all_children(sp, n, key)
                assert all(len(costs) == 1 for costs in want.values())
                for cost in range(key[4] + 1):
                    got = {
                        (ck, tv)
                        for ck, tvs in _spot_children(sp, n, key, cost).items()
                        for tv in tvs
                    }
                    assert got == {c for c, costs in want.items() if cost in costs}, (n, key)
                for ck, _tv in want:
                    nxt.setdefault(ck)
            layer = list(nxt)[:40]
            if not layer:
                break


def test_probe_joins_a_state_that_gets_a_new_tag_vector() -> None:
    """Stored heap 48 (a split): the state after 6 that the sweep from 2 up finds in a split
    is first made with tag vectors that join nothing laid from 13 down; a later state at 6
    gives it the vector that joins. Joined again then, the sweeps meeting in the middle (in
    turns of 16) answer within 565 state expansions when measured, where joining only new
    states laid all 202 states at 6 first (821); with the aces' joint bound, 126."""
    pieces = heap(_bench().ADVERSARIAL["carousel"][47])
    got, sweeps = meeting_run(pieces, (16, 16))
    assert got
    assert sum(s.done for s in sweeps) < 700


def test_depth_first_searches_meet_the_sweep_the_other_way() -> None:
    """Stored heap 20 (a split): with each spot sweep run 200 state expansions first, the
    restarting depth-first searches that meet the sweep the other way (a state at a cut it
    laid whole must join one of its states there) find a split within 29 state expansions
    when measured, against 651 alone; with the sweeps laid to the end, within 15 (a line to
    the middle, then joined). (Stored heap 50, the case before the depth-first searches
    learnt dominance and the aces' joint bound: 76 against 222 then, 50 either way now.)"""
    pieces = heap(_bench().ADVERSARIAL["carousel"][19])
    done = []
    for budget, meet in ((200, True), (200, False), (10**9, True)):
        dirs = (_Heap(pieces, CAR), _Heap(pieces, CAR, mirror=True))
        sweeps = [_SpotRunner(h, None) for h in dirs]
        for sweep in sweeps:
            with suppress(_OutOfBudget):
                sweep(budget)
        others = (sweeps[1].view, sweeps[0].view) if meet else None
        runner = _SpotRunner(dirs[0], None, steps=_spot_dfs_restarts(dirs, None, others))
        got = runner(10**9)
        assert not isinstance(got, str)
        assert_valid_split(pieces, [m.pieces for m in got], CAR)
        done.append(runner.done)
    assert done[0] * 2 < done[1]
    assert done[2] < 30


@pytest.mark.parametrize(
    ("text", "splits"),
    [
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS JK", True),
        ("2S 3S 4S 6S 7S 8S JK JK", True),
        ("2S 3S 6S 7S JK", False),
        ("4S 5S 6S 7S 8S 9S 10S 4H 5H 6H 7H 8H 9H 10H 7D 7C", True),  # 7S/7H in the group
        ("4S 5S 6S 7S 8S 9S 4H 5H 6H 8H 9H 10H 7D 7C", False),  # 8S-9S or 7D-7C too few
        ("5S 6S 7S 8S 9S 10S 5S 6S 7S 8S 9S JK", True),
        ("5S 6S 7S 8S 9S 10S 5S 6S 9S 10S JK", False),  # one joker, two gaps
    ],
)
def test_depth_first_meeting_hand_worked(text: str, splits: bool) -> None:
    """The depth-first search meeting the spot sweep the other way, after any number of its
    states: runs through the middle cuts, a group taking one of the middle cards."""
    pieces = heap(text)
    assert oracle(pieces, CAR) == splits, text
    for budget in (1, 3, 6, 10, 10**9):
        for order in (0, 1, 2):
            assert depth_first_meeting(pieces, budget, order) == splits, (text, budget, order)


# --------------------------------------------------------------------------------------------
# The bound in half-jokers: a group at a number where fewer than three suits have pieces needs
# jokers, at least (3 - p) / p for each of its real pieces with p suits there


def test_half_charge_by_suits_present() -> None:
    """Half-jokers per real piece of a group: one suit at the number, a group is the piece
    and two jokers (4); two suits, at best two real pieces and a joker (1 each); three or
    more, a group needs no joker (0)."""
    assert [_half_charge(p) for p in (1, 2, 3, 4)] == [4, 1, 0, 0]


@pytest.mark.parametrize(
    ("text", "halves", "charged", "splits"),
    [
        # spades: 2-3-4 leaves a 3S for a group (only spades and diamonds have threes: half a
        # joker), or worse; diamonds: 2D and 3D each half a joker in groups, or one joker as
        # 2-3 and a joker: 1 + 2 = 3 half-jokers, more than the one joker: no split, where
        # the bound in jokers (groups free) allows it
        ("2D 2S 3D 3S 3S 4S JK", (1, 0, 2, 0), True, False),
        # the two aces of spades and diamonds only: AS AD JK is the only group of aces (half
        # a joker each), AS may stand below 2-3-4 instead: diamonds 1, spades 0
        ("AS AD JK 2S 3S 4S", (0, 0, 1, 0), True, True),
        # three suits at every number: groups cost nothing, and the sweeps go as before
        ("5S 5H 5D 6S 6H 6D 7S 7H 7D", (0, 0, 0, 0), False, True),
        # hearts alone at 6: 6H in a group of sixes would need two jokers (4 half-jokers), so
        # it stands in a run, 5H-6H and the joker (2), where the bound in jokers lets it into a
        # group for nothing; the fives of the other suits make a group
        ("5S 5H 5D 5C 6H JK", (0, 2, 0, 0), True, True),
    ],
)
def test_half_joker_bound_hand_worked(
    text: str, halves: tuple[int, int, int, int], charged: bool, splits: bool
) -> None:
    """The suits' bounds in half-jokers at the first state (``_Spots.lb_half``), worked by
    hand, and the answer; where they sum to more than twice the jokers the spot searches say
    "no" at once, without a state (the bound in jokers, groups free, allows it)."""
    pieces = heap(text)
    sp = _Spots(_Heap(pieces, CAR))
    assert sp.halves == charged, text
    assert tuple(sp.lb_half(f, 2, 0, 0) for f in range(4)) == halves, text
    assert oracle(pieces, CAR) == splits, text
    assert (find_split(pieces, CAR) is not None) == splits, text
    if sum(halves) > 2 * sp.J0:
        plain = _Spots(_Heap(pieces, CAR))
        plain.halves = False  # the bound in jokers alone: groups free
        assert sum(plain.lb(f, 2, 0, 0) for f in range(4)) <= plain.J0
        for depth_first in (False, True):
            runner = _SpotRunner(_Heap(pieces, CAR), None, depth_first)
            assert runner(10**6) == "no split"
            assert runner.done <= 1, text


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_half_joker_bound_never_rules_out_a_split(data: st.DataObject) -> None:
    """Heaps of one to three suits (where groups cost jokers) from small tables and narrow
    windows: where the brute-force oracle finds a split, the suits' bounds in half-jokers at
    the first state sum to at most twice the jokers, both ways; the spot sweep and its
    depth-first search (both pruned by the bound) answer like the oracle."""
    pieces = data.draw(small_heaps(CAR))
    pieces = [p for p in pieces if p is JOKER or p.family.index < 3]  # type: ignore[union-attr]
    want = oracle(pieces, CAR)
    if want:
        for mirror in (False, True):
            assert root_half_bound(pieces, mirror) <= 2 * _Heap(pieces, CAR).jokers, texts([pieces])
    for mirror in (False, True):
        for depth_first in (False, True):
            got = _spot_one_way(pieces, CAR, mirror, depth_first=depth_first)
            assert (got is not None) == want, texts([pieces])


def test_half_joker_bound_answers_stored_heap_51() -> None:
    """Stored heap 51 (no split; 1,238 state expansions and the slowest stored heap, 5.0-5.3
    times the reference work, before the bound): only spades and diamonds have aces, so every
    ace in a group of aces costs half a joker, and with the jokers those need counted the
    spot sweeps lay few states in the middle; the race answers within 400 state expansions
    (165 when measured; 82 with the aces' joint bound)."""
    pieces = heap(_bench().ADVERSARIAL["carousel"][50])
    budget = Deadline(600.0)
    assert find_split(pieces, CAR, budget) is None
    assert budget.expansions < 400


# --------------------------------------------------------------------------------------------
# The aces' joint bound: the aces that go to groups of aces go there together, so per split of
# the aces among those groups the suits' bounds are added to the jokers the groups then need


def root_key(pieces: list[Piece]) -> tuple[int, int, int, int, int]:
    """The spot sweep's first state: before 2, no run open, every joker left."""
    return (0, 0, 0, 0, _Heap(pieces, CAR).jokers)


@pytest.mark.parametrize(
    ("text", "joint", "half_allows", "splits"),
    [
        # two aces of spades need two groups of aces: AS AH AD and AS with both jokers (the
        # bound is tight: 2 jokers, all there are); each suit alone sends its aces to groups
        # for nothing (three suits have aces)
        ("AS AS AH AD JK JK", True, True, True),
        # one joker fewer: the second group of aces cannot be made (here each suit alone
        # sees it too: AS AH AD and one joker are too few for two groups with spades)
        ("AS AS AH AD JK", False, False, False),
        # five aces in two groups: AS AH AD and AS AC JK, the one joker (tight)
        ("AS AS AH AD AC JK", True, True, True),
        # 5C-6C needs the joker as well: two jokers needed, one there
        ("AS AS AH AD AC 5C 6C JK", False, True, False),
        # ... and with two, the aces still need both: three jokers needed
        ("AS AS AH AD 5C 6C JK JK", False, True, False),
        # an ace of spades below 2S-3S instead (its spot, a run 2-3 must have it filled), the
        # other in AS AH AD, 5C-6C and a joker, the last joker as 4S: the bound lets the aces
        # go to spots
        ("AS AS AH AD 2S 3S 5C 6C JK JK", True, True, True),
    ],
)
def test_joint_ace_bound_hand_worked(
    text: str, joint: bool, half_allows: bool, splits: bool
) -> None:
    """``_Spots.joint_ok`` at the first state, both ways, worked by hand, and the answer;
    whether the suits' bounds in half-jokers alone (``_Spots.lb_half``) allow it; where the
    joint bound rules the first state out, the spot sweeps say "no" after their first state
    and the depth-first searches before any."""
    pieces = heap(text)
    assert oracle(pieces, CAR) == splits, text
    assert (find_split(pieces, CAR) is not None) == splits, text
    for mirror in (False, True):
        allows = root_half_bound(pieces, mirror) <= 2 * _Heap(pieces, CAR).jokers
        assert allows == half_allows, text
        sp = _Spots(_Heap(pieces, CAR, mirror=mirror))
        assert sp.joint_ok(2, root_key(pieces), (0, 0, 0, 0)) == joint, (text, mirror)
        if not joint:
            for depth_first in (False, True):
                runner = _SpotRunner(_Heap(pieces, CAR, mirror=mirror), None, depth_first)
                assert runner(10**6) == "no split"
                assert runner.done <= (0 if depth_first else 1), text


def test_ace_bound_per_aces_in_groups() -> None:
    """``_Spots.ace_bound`` at the first state, by aces of spades in groups of aces, worked
    by hand for AS AS 2S 3S and two jokers: none in groups, one ace below 2S-3S and the other
    above the jokers as Q-K (4 half-jokers); one in a group, the other below 2S-3S (0; the
    jokers of the group are not counted here); both, 2S-3S has its spot empty: a joker (2).
    ``lb_half`` is the least of those with the groups of aces charged (only spades have aces:
    two jokers for each ace in a group, 4 half-jokers): 4."""
    pieces = heap("AS AS 2S 3S JK JK")
    sp = _Spots(_Heap(pieces, CAR))
    assert [sp.ace_bound(g, 0, 2, 0, 0) for g in range(3)] == [4, 0, 2]
    assert sp.lb_half(0, 2, 0, 0) == 4
    assert all(sp.ace_bound(0, f, 2, 0, 0) == 0 for f in (1, 2, 3))
    assert oracle(pieces, CAR) and find_split(pieces, CAR) is not None


@st.composite
def ace_rich_heaps(draw: st.DrawFn) -> list[Piece]:
    """Up to 11 cards from the aces, twos, threes, queens and kings of all four suits (two
    decks) and a few fives and sixes, with 0-2 jokers: aces in groups of aces, in spots, or
    neither."""
    pool = [make_piece("cards", n, f) for f in range(4) for n in (1, 1, 2, 3, 12, 13)] + [
        make_piece("cards", n, f) for f in range(2) for n in (5, 6)
    ]
    idx = draw(st.lists(st.integers(0, len(pool) - 1), max_size=11, unique=True))
    return [pool[i] for i in idx] + [JOKER] * draw(st.integers(0, 2))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces=ace_rich_heaps())
def test_joint_ace_bound_never_rules_out_a_split(pieces: list[Piece]) -> None:
    """Heaps rich in aces: where the brute-force oracle finds a split, the joint bound lets
    the first state through, both ways; the spot sweep and its depth-first search (both
    pruned by it at every state) answer like the oracle."""
    want = oracle(pieces, CAR)
    for mirror in (False, True):
        sp = _Spots(_Heap(pieces, CAR, mirror=mirror))
        if want:
            assert sp.joint_ok(2, root_key(pieces), (0, 0, 0, 0)), texts([pieces])
        for depth_first in (False, True):
            got = _spot_one_way(pieces, CAR, mirror, depth_first=depth_first)
            assert (got is not None) == want, texts([pieces])


# --------------------------------------------------------------------------------------------
# The depth-first searches' states known to fail, with dominance


def test_failed_states_dominate() -> None:
    """A state is known to fail once a state that failed at the same number with the same
    jokers left dominates it suit by suit (slot state and tag): spades (3,) dominates an
    empty suit and (2,) (a run of three may close or go on), not (3, 3); a tag with fewer
    mandatory spots and more spots dominates."""
    slot = {st: i for i, st in enumerate(search._SLOT_STATES)}
    failed = _DfsFailed()
    f_key = (slot[(3,)], slot[()], slot[(2,)], slot[()], 1)
    f_tv = (5 * 0 + 2, 0, 0, 0)  # no mandatory spot, two spots
    failed.add(7, f_key, f_tv)
    assert len(failed) == 1
    assert failed.fails(7, f_key, f_tv)
    assert failed.fails(7, (slot[()], slot[()], slot[(2,)], slot[()], 1), f_tv)
    assert failed.fails(7, (slot[(2,)], slot[()], slot[(2,)], slot[()], 1), f_tv)
    assert failed.fails(7, f_key, (5 * 1 + 1, 0, 0, 0))  # a mandatory spot, one spot
    assert not failed.fails(7, f_key, (3, 0, 0, 0))  # more spots than the failed one
    assert not failed.fails(7, (slot[(3, 3)], slot[()], slot[(2,)], slot[()], 1), f_tv)
    assert not failed.fails(7, f_key[:4] + (2,), f_tv)  # other jokers left
    assert not failed.fails(8, f_key, f_tv)  # another number
    copy = failed.copy()
    copy.add(8, f_key, f_tv)
    assert copy.fails(8, f_key, f_tv) and not failed.fails(8, f_key, f_tv)


@pytest.mark.parametrize(
    ("up", "down", "goes"),
    [
        # up at 4 (116 states), down at 10 (100): alone 1,160 and 400; meeting after 4 costs
        # 116 + 100 (both go on), after 5, 232: both, the narrower first
        ([4, 116], [10, 100], 1),
        # up at 4 (120), down at 11 (80): down alone 240; meeting after 4 needs up alone to
        # lay 4 (120): the wider one goes
        ([4, 120], [11, 80], 0),
        # both at 4: up alone 50 x 10 = 500 beats every meeting (at best 550) and down alone
        ([4, 50], [4, 200], 0),
        # neither has started (one state each): every plan costs 12, the one from 2 up goes
        ([0, 1], [0, 1], 0),
    ],
)
def test_sweep_to_go_plans_the_meeting(up: list[int], down: list[int], goes: int) -> None:
    """Which spot sweep goes on (``_sweep_to_go``), worked by hand: the cheapest of laying
    every number left alone or meeting at a cut from 5 to 11 (the one from 2 up at ``a``, the
    other at ``16 - a``), every number guessed at the states of the sweep's number now."""
    from rules.search.split import _sweep_to_go

    assert _sweep_to_go(up, down) == goes


def test_joint_bound_left_out_where_it_rules_out_little() -> None:
    """The aces' joint bound is asked only while it pays (``_JOINT_TRIAL``): the spot sweep
    from 2 up on climbed heap 61 (a split) stops asking it after its trial (it ruled out next
    to no state), on stored heap 46 (no split; it rules out most states) it goes on; both
    answer as the race and as with the bound always asked."""
    for index, splits, kept in ((60, True, False), (45, False, True)):
        pieces = heap(_bench().ADVERSARIAL["carousel"][index])
        h = _Heap(pieces, CAR)
        got = _SpotRunner(h, None)(10**9)
        assert h.spots is not None and h.spots.joint_on == kept, index
        assert isinstance(got, str) != splits
        with patch.object(search, "_JOINT_TRIAL", 10**9):
            always = _SpotRunner(_Heap(pieces, CAR), None)(10**9)
        assert isinstance(always, str) != splits
        assert (find_split(pieces, CAR) is not None) == splits
