"""Splitting a heap into melds, exactly (JUDGE.md ``check: split``; RULES.md §2).

Given a multiset of pieces with no grouping, decide whether every piece can be placed in a valid
meld — runs, groups and, in Rummy 101, pairs — and return one such partition.

The search is the dynamic programme of van Rijn, Takes and Vis ("The complexity of Rummikub
problems", 2015), run as a depth-first search with a per-heap memo of failed states:

* numbers are processed in order 1..13 (1..14 where the ace may be high, Carousel: position 14
  is the ace again);
* the state after a number is, for each colour/suit, the multiset of lengths of the runs still
  open at that number (1, 2, or 3 meaning "three or more"; the copies of a colour are
  interchangeable so the lengths are kept sorted), the jokers not yet placed, and (ace-high only)
  how many aces of each suit were kept back to end a run ``Q-K-A``;
* at each number every piece of that number is placed: it continues an open run, starts a run,
  joins a group (3–4 pieces, no colour twice) or, in Rummy 101, forms a pair; jokers fill any of
  those places; a run of length 1–2 must continue; the state after the last number may hold only
  runs of length ≥ 3, and every joker must be placed.

Pruning that keeps it exact:

* a run of length ≥ 3 is never closed while a run of the same colour starts at the same number
  (continuing it is always at least as good);
* look-ahead: first (phase 0) the pieces of the next two numbers plus spare jokers must be able
  to continue every run of length 1–2; later (phase 1) a per-colour lower bound on the jokers
  its runs and pairs still need (each colour alone, groups free where other colours could make
  one), summed over colours, must not exceed the jokers left;
* dominance: a state is as good as another if, colour by colour, each of the other's runs has
  its own run at least as long and its remaining runs are ≥ 3 long; a state dominated by one
  that failed is not searched;
* Carousel: the aces kept back for ``Q-K-A`` only matter from 12 on, so numbers 2–11 are
  searched once for a whole set of kept-back vectors (a bit mask) rather than once per vector;
  a vector leaves the set where the colours' joker bounds, each at its own kept count, sum to
  more than the jokers left (:meth:`_Heap.vector_filter`);
* each real piece must have some candidate meld before the search starts.

The same programme also runs breadth-first (the *sweep*, :func:`_sweep_steps`): number by
number it keeps every reachable state except those another reachable state dominates, so the
many equivalent ways of laying the easy numbers collapse into a few states before a hard spot
further on (where the depth-first search must revisit each of them). With the ace high a state
carries the set of kept-back vectors it is reachable with.

Window proofs (:func:`_window_proof`): a stretch of five numbers that cannot be laid even with
every run it could want arriving from below it, runs left open above it and every joker free
is a proof that no split exists (the sweep started from the state that dominates all others);
the tightest few stretches (most empty places, at least three) are tried, each for a few
dozen states. The spot sweep (:func:`_spot_sweep_steps`, ace high) needs no kept-back
vectors: every ace in a run stands below a run that starts at 2 or above one that ends at 13,
so it lays 2..13 and gives those runs a spot each for an ace or a joker (see its section).
Its joker bound charges the groups where fewer than three suits have pieces
(:meth:`_Spots.lb_half`, in half-jokers): a group there holds a joker for every two real
pieces, or two for one, so with the aces of only two suits every ace in a group of aces
costs half a joker (the slowest stored heap then takes the race 165 states, not 1,238).
The aces are bounded together too (:meth:`_Spots.joint_ok`): per number of a suit's aces
sent to groups of aces, the suit's bound with the others in its spots (:meth:`_Spots.ace_bound`),
and per way of sending the aces of all suits, those bounds plus the jokers the groups of aces
then need: two aces of one suit need two groups of aces, so with the aces of three suits
once each a group of them and a joker or two (the sweeps of stored heap 46 die within a few
numbers: 881 states for the race, then 178). With the ace high
the window from 2 to the top (the aces at 1 and 14 left out)
also races with the searches: on many heaps it proves "no" within a hundred or so states,
where the sweep from 1 first meets the many ways of laying the aces and the numbers after them.

Search order: the depth-first search from 1 up gets a first small budget alone (most heaps are
answered there); then the window proofs. Without the ace high, depth-first from 1 up and from
13 down (the mirrored heap) then race in turns with budgets of state expansions that double.
With it (Carousel, :func:`_race_kept`): the spot depth-first searches both ways, restarting
in a new order after a growing number of states (a quick "yes"; which order finds a split
soon varies from heap to heap), alternate with the provers, whose chunks go each to the one
with the least work left: the spot sweeps both ways and the windows from 2 to the top both ways (the
*tails*, a quick "no"). A tail that can be laid proves nothing, but the states it kept at
each number say which runs a split can have open above that place, so from then on the spot
sweep the other way keeps only the states one of them can join (a heap that does not split
then needs a few dozen states of it instead of hundreds). The two spot sweeps meet in the
middle (:class:`_Meet`): once one has laid 13 down to a number in the middle, the other's
states there are joined with its states exactly (runs, jokers, the aces in the spots of both
ends), so there the one that arrives second answers "no", or goes on from one
state known to be in a split (each new state it makes there, or gives a new tag vector, is
joined at once, so it need not finish the number). Which of the two goes on is planned
(:func:`_sweep_to_go`): each alone to the end, or both to a cut in the middle, every number
left guessed at what the sweep's number costs now; the cheapest plan's narrower sweep goes.
The spot depth-first searches meet the
spot sweep the other way too: a state of theirs at a cut that sweep has laid whole is joined
with its states there, and fails at once when it joins none (:class:`_DfsMeets`), so a
search that dives past the middle answers there instead of laying the rest; they build the
children of a state cost by cost (jokers with the bounds after them), as far as the order
needs (:func:`_spot_children`), and a state dominated by one that failed fails at once
(:class:`_DfsFailed`, the sweep's dominance: on stored heap 48 one order took 3,100 states
to find a split without it, 420 with it). All are exact, the first to answer wins, and each
keeps its memo or states between its turns (the sweeps and windows of one direction share
their bound and option memos). Every split returned is re-checked meld by meld and against
the heap before it is handed out. Memos live for one call only (nothing is cached across heaps).

Limits: at most :data:`MAX_COPIES` copies of each numbered piece and :data:`MAX_JOKERS` jokers
(every set in the project fits: 106 tiles, two 53-card decks). With at most two jokers, no meld
can be all jokers, so "each meld holds a real piece" needs no extra state.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement, permutations, product
from typing import Final, Literal

from rules.errors import RulesError
from rules.notation import format_open_joker
from rules.pieces import JOKER, Card, Piece, Tile, make_piece
from rules.variant import MeldRules

MAX_JOKERS: Final = 2
"""Most jokers in a heap (both sets hold two)."""
MAX_COPIES: Final = 2
"""Most copies of one numbered piece in a heap (106-tile set, two card decks)."""
_MAX_SLOTS: Final = MAX_COPIES + MAX_JOKERS
"""Most runs of one colour open at one number (each holds a copy or a joker there)."""
_FAMILIES: Final = 4

MeldKind = Literal["run", "group", "pair"]


@dataclass(frozen=True, slots=True)
class SplitMeld:
    """One meld of a split.

    Attributes:
        kind: ``"run"``, ``"group"`` or ``"pair"``.
        pieces: the meld in normalised order: a run ascending (an ace after the king where it is
            high), jokers where they stand; a group by colour/suit with jokers last; a pair.
        jokers: what each joker stands for, in the order the jokers appear: ``"R13"``, ``"AS"``
            (a run or pair joker), or ``"?7"`` (a group joker, colour open).
        number: where the meld starts: a run's lowest number (14 for an ace standing high, so
            ``Q-K-A`` starts at 12), a group's or pair's number.
    """

    kind: MeldKind
    pieces: tuple[Piece, ...]
    jokers: tuple[str, ...]
    number: int = 0


# --------------------------------------------------------------------------------------------
# The time budget

TIME_BUDGET_S: Final = 2.0
"""Longest a split (or a turn on a heap, all its splits together) may search, in seconds of
wall-clock time; past it the request is answered ``too_complex`` instead of blocking. No heap
of any variant is known to need more than a small fraction of it (``benchmarks/bench_split.py``
prints the worst found)."""
_CHECK_EVERY: Final = 32
"""The clock is read at the first state expansion and then every this many."""


class TooComplexError(RulesError):
    """A search stopped at its time budget without an answer (not a verdict: neither "yes" nor
    "no" is known). Judge code ``too_complex``.

    Attributes:
        budget_s: the budget in seconds.
    """

    code = "too_complex"

    def __init__(self, budget_s: float, what: str = "split") -> None:
        super().__init__(
            f"too complex to decide in time: the referee stops a {what} after {budget_s:g} s "
            "without an answer (no verdict is given; check a smaller part of the table)",
            "too_complex",
        )
        self.budget_s = budget_s


class Deadline:
    """A time budget shared by the searches of one request.

    Args:
        seconds: the budget (default :data:`TIME_BUDGET_S`); 0 stops at the first check.
        clock: the clock read, in seconds (default ``time.monotonic``; tests inject their own).
        what: what is being decided, for the message (``"split"``, ``"turn"``).
    """

    def __init__(
        self,
        seconds: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        what: str = "split",
    ) -> None:
        self.seconds = TIME_BUDGET_S if seconds is None else seconds
        self.clock = clock
        self.what = what
        self.start = clock()
        self.expansions = 0
        """State expansions the searches under this budget made (a machine-independent
        measure of their work, for benchmarks)."""

    def check(self) -> None:
        """Raise :class:`TooComplexError` once the budget is used up."""
        if self.clock() - self.start >= self.seconds:
            raise TooComplexError(self.seconds, self.what)


# --------------------------------------------------------------------------------------------
# Static tables (depend only on the rules of the game, never on a heap)

_SLOT_STATES: Final[tuple[tuple[int, ...], ...]] = tuple(
    combo for k in range(_MAX_SLOTS + 1) for combo in combinations_with_replacement((1, 2, 3), k)
)
_SLOT_INDEX: Final[dict[tuple[int, ...], int]] = {s: i for i, s in enumerate(_SLOT_STATES)}
_STATE_BITS: Final = 6  # 35 slot states fit in 6 bits


def _dominates(b: tuple[int, ...], a: tuple[int, ...]) -> bool:
    """Slot state ``b`` is at least as good as ``a`` for the same colour at the same number:
    each run of ``a`` can be given its own run of ``b`` at least as long (a run of length 3
    may do all that a shorter one may), every run of ``b`` shorter than 3 being given one (a
    run of ``b`` with length ≥ 3 and no partner simply closes)."""
    short_b = sorted(x for x in b if x < 3)
    if len(b) < len(a) or len(short_b) > len(a):
        return False
    # the shortest runs of a go to b's short runs, the rest to b's runs of length 3
    return all(x <= y for x, y in zip(sorted(a), short_b, strict=False))


_DOMINATED_BY: Final[tuple[tuple[bool, ...], ...]] = tuple(
    tuple(_dominates(b, a) for b in _SLOT_STATES) for a in _SLOT_STATES
)
"""``_DOMINATED_BY[a][b]``: slot state ``b`` dominates ``a`` (see :func:`_dominates`)."""

# A move of one colour at one number:
# (new_slot_index, to_groups, jokers, need_next, need_next2, cont3, starts, run_jokers,
#  pairs_real, pairs_joker)
_Move = tuple[int, int, int, int, int, int, int, int, int, int]
_NEW, _G, _J, _K2, _K1, _X, _S, _JR, _P2, _P1 = range(10)


def _moves_for(slots: tuple[int, ...], t: int, jav: int, pairs: bool) -> tuple[_Move, ...]:
    """Every way colour c can place its ``t`` real pieces at one number given its open runs.

    Runs of length 1–2 continue; ``x`` of the runs of length ≥ 3 continue and the others close;
    ``s`` runs start (only when none closes); ``jr`` of the run places are jokers; the real pieces
    left form ``p2`` real pairs, ``p1`` piece+joker pairs (pairs rule only) and go to groups.
    """
    n1, n2, n3 = slots.count(1), slots.count(2), slots.count(3)
    out: list[tuple[tuple[int, ...], _Move]] = []
    for x in range(n3, -1, -1):
        closes = n3 - x
        max_s = 0 if closes else t + jav
        for s in range(max_s + 1):
            m = n1 + n2 + x + s
            new = tuple(sorted([2] * n1 + [3] * (n2 + x) + [1] * s))
            if len(new) > _MAX_SLOTS:
                continue
            k2 = n1 + s  # runs of length 1-2 after this number: need a piece at the next one
            k1 = s  # runs of length 1: also need a piece at the one after
            for jr in range(min(jav, m) + 1):
                r = m - jr
                if r < 0 or r > t:
                    continue
                left = t - r
                p2_range = range(left // 2 + 1) if pairs else range(1)
                for p2 in p2_range:
                    rest = left - 2 * p2
                    p1_range = range(min(rest, jav - jr) + 1) if pairs else range(1)
                    for p1 in p1_range:
                        g = rest - p1
                        mv: _Move = (_SLOT_INDEX[new], g, jr + p1, k2, k1, x, s, jr, p2, p1)
                        out.append((new, mv))
    # Heuristic order (any order is exact): fewest jokers, then fewest pieces sent to groups,
    # then the most runs kept open.
    out.sort(key=lambda e: (e[1][_J], e[1][_G], -len(e[0]), -sum(e[0])))
    return tuple(mv for _, mv in out)


def _build_moves() -> dict[tuple[int, int, int, bool], tuple[_Move, ...]]:
    table: dict[tuple[int, int, int, bool], tuple[_Move, ...]] = {}
    for i, slots in enumerate(_SLOT_STATES):
        for t in range(MAX_COPIES + 1):
            for jav in range(MAX_JOKERS + 1):
                for pairs in (False, True):
                    table[i, t, jav, pairs] = _moves_for(slots, t, jav, pairs)
    return table


_MOVES: Final = _build_moves()
_WALK_MOVES: Final[dict[tuple[int, int, int], tuple[tuple[int, int, int, int], ...]]] = {
    (s, t, jav): tuple((2 * mv[_J], mv[_S], mv[_G], mv[_NEW]) for mv in _MOVES[s, t, jav, False])
    for s in range(len(_SLOT_STATES))
    for t in range(MAX_COPIES + 1)
    for jav in range(MAX_JOKERS + 1)
}
"""``_MOVES`` without pairs as the bounds' walks read them: (jokers doubled, runs started,
pieces sent to groups, new slot state), fewest jokers first."""


def _group_jokers(g: tuple[int, ...], jav: int) -> tuple[int, ...]:
    """Joker counts ``jg`` (0..jav) with which pieces ``g`` (per colour) of one number split
    into groups: some ``k`` groups with no colour twice (``max g ≤ k``) and 3–4 pieces each."""
    out = []
    for jg in range(jav + 1):
        total = sum(g) + jg
        if total == 0 or any(
            max(g) <= k and 3 * k <= total <= 4 * k for k in range(1, total // 3 + 1)
        ):
            out.append(jg)
    return tuple(out)


_GROUP_JG: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(
        _group_jokers((gi % 3, gi // 3 % 3, gi // 9 % 3, gi // 27 % 3), jav)
        for jav in range(MAX_JOKERS + 1)
    )
    for gi in range(3**_FAMILIES)
)
"""``_GROUP_JG[g0 + 3 g1 + 9 g2 + 27 g3][jokers available]`` → feasible group joker counts."""


# --------------------------------------------------------------------------------------------
# The search


_FamOpt = tuple[int, int, int, _Move, int]
"""A family's option at a number in the sweep: (jokers with the bound after it, new slot state,
jokers, move, kept count)."""
_FamOpts = tuple[int, int, list[_FamOpt]]
"""A family's options sending ``g`` pieces to groups: (g, cheapest, options cheapest first)."""
_SweepMemos = tuple[dict[int, int], dict[int, list[_FamOpts]]]
"""The sweep's memos of one heap: joker bounds for any kept count, and family options."""
_Bound = Callable[[int, int, int, int], int]
"""``lb(f, n, s, k)``: see :meth:`_Heap.joker_bound`."""


class _Heap:
    """A heap read for the search: real pieces by family and number, jokers counted."""

    def __init__(self, pieces: Sequence[Piece], rules: MeldRules, mirror: bool = False) -> None:
        self.rules = rules
        self.mirror = mirror
        self.jokers = 0
        self.sweep_memos: _SweepMemos | None = None
        """The memos of :func:`_sweep_steps` on this heap (made by its first sweep)."""
        self.spots: _Spots | None = None
        """The memos of :func:`_spot_sweep_steps` on this heap (made by its first one)."""
        self._bound: tuple[_Bound, dict[int, int]] | None = None
        self.last = 14 if rules.ace_high else 13
        # pool[f][n]: the real pieces of family f and number n (aces at n = 1)
        self.pool: list[list[list[Tile | Card]]] = [
            [[] for _ in range(16)] for _ in range(_FAMILIES)
        ]
        for p in pieces:
            if p is JOKER:
                self.jokers += 1
                continue
            assert isinstance(p, (Tile, Card))
            self.pool[p.family.index][self.place(p.number)].append(p)
        # counts[n][f]; row last+1, last+2 are zero padding; in ace-high mode row 14 is filled
        # from the state (aces kept back), so it stays zero here.
        self.counts: list[list[int]] = [
            [len(self.pool[f][n]) if 1 <= n <= 13 else 0 for f in range(_FAMILIES)]
            for n in range(17)
        ]

    def place(self, number: int) -> int:
        """Where a number stands in the search's order: itself, or mirrored (13 first) when
        the search runs from the top down. An ace (1) stays at 1; its high place is 14."""
        if not self.mirror or (number == 1 and self.rules.ace_high):
            return number
        return self.last + 1 - number

    def joker_bound(self) -> tuple[_Bound, dict[int, int]]:
        """The per-family lower bound on the jokers still needed, and its memo (keyed
        ``((f << 4 | n) << 6 | s) << 2 | k``), shared by every search of this heap.

        ``lb(f, n, s, k)``: the fewest jokers family ``f`` alone needs from number ``n`` on, in
        slot state ``s`` (an index into the slot states), keeping ``k`` aces for 14 (ace-high).
        Runs and pairs only: group jokers are shared, so they count 0, and a number may send
        pieces of the family to groups when the other families there could make one. The sum
        over families bounds a whole state: one whose bound exceeds the jokers left is dead.
        """
        if self._bound is not None:
            return self._bound
        counts = self.counts
        last = self.last
        ace_high = self.rules.ace_high
        pairs = self.rules.pairs
        J0 = self.jokers
        sb = _STATE_BITS
        inf = 99
        memo: dict[int, int] = {}
        group_ok = [
            [
                (
                    sum(1 for g in range(_FAMILIES) if g != f and counts[n][g]) + J0 >= 2,
                    sum(counts[n][g] for g in range(_FAMILIES) if g != f) + J0 >= 4,
                )
                for f in range(_FAMILIES)
            ]
            for n in range(15)
        ]
        closed = [all(x == 3 for x in st) for st in _SLOT_STATES]

        def lb(f: int, n: int, s: int, k: int) -> int:
            if n > last:
                return 0 if closed[s] else inf
            key = ((f << 4 | n) << sb | s) << 2 | k
            v = memo.get(key)
            if v is not None:
                return v
            if n == 14:
                t = k
                ok1 = ok2 = False
            else:
                t = counts[n][f] - k if (ace_high and n == 1) else counts[n][f]
                ok1, ok2 = group_ok[n][f]
            best = inf
            for mv in _MOVES[s, t, J0, pairs]:
                j = mv[_J]
                if j >= best:
                    break
                g = mv[_G]
                if (g == 1 and not ok1) or (g == 2 and not ok2):
                    continue
                if n == 14 and (mv[_P2] or mv[_P1]):
                    continue
                v = j + lb(f, n + 1, mv[_NEW], k)
                if v < best:
                    best = v
                    if best == 0:
                        break
            memo[key] = best
            return best

        self._bound = (lb, memo)
        return self._bound

    def vector_filter(self) -> Callable[[int, int, int, int, int, int], int]:
        """With the ace high: ``ok(n, s0, s1, s2, s3, J)``, the kept-back vectors (a bit mask
        over :func:`_kept_ranges`'s product, in its order) with which a state at number ``n``
        (slot states ``s0``–``s3``, ``J`` jokers left) may still complete: those for which
        the families' joker bounds (:meth:`joker_bound`, each family at its own kept count)
        sum to at most ``J``. Exact as a filter: a vector outside it cannot complete."""
        lb, _memo = self.joker_bound()
        per_fam = _kept_ranges(self)
        vectors = list(product(*per_fam))
        # with_k[f][k]: the vectors keeping k aces of family f
        with_k = [
            [sum(1 << i for i, v in enumerate(vectors) if v[f] == k) for k in per_fam[f]]
            for f in range(_FAMILIES)
        ]
        cap = self.jokers
        memo: dict[int, tuple[int, int, int]] = {}
        sb = _STATE_BITS

        def exact(f: int, n: int, s: int) -> tuple[int, int, int]:
            """The vectors whose family ``f`` bound is 0, 1 and 2 jokers."""
            key = (f << 4 | n) << sb | s
            got = memo.get(key)
            if got is None:
                by_j = [0, 0, 0]
                for k in per_fam[f]:
                    j = lb(f, n, s, k)
                    if j <= cap:
                        by_j[j] |= with_k[f][k]
                got = memo[key] = (by_j[0], by_j[1], by_j[2])
            return got

        def ok(n: int, s0: int, s1: int, s2: int, s3: int, J: int) -> int:
            base = n << sb
            a0, a1, a2 = memo.get(base | s0) or exact(0, n, s0)
            b0, b1, b2 = memo.get(1 << 10 | base | s1) or exact(1, n, s1)
            c0, c1, c2 = memo.get(2 << 10 | base | s2) or exact(2, n, s2)
            d0, d1, d2 = memo.get(3 << 10 | base | s3) or exact(3, n, s3)
            # by the jokers the first two families (x) and the last two (y) need
            x0 = a0 & b0
            y0 = c0 & d0
            if J == 0:
                return x0 & y0
            x1 = a1 & b0 | a0 & b1
            y1 = c1 & d0 | c0 & d1
            if J == 1:
                return x0 & (y0 | y1) | x1 & y0
            x2 = a2 & b0 | a1 & b1 | a0 & b2
            y2 = c2 & d0 | c1 & d1 | c0 & d2
            return x0 & (y0 | y1 | y2) | x1 & (y0 | y1) | x2 & y0

        return ok

    def too_many(self) -> bool:
        return self.jokers > MAX_JOKERS or any(c > MAX_COPIES for row in self.counts for c in row)

    def hopeless_piece(self) -> Tile | Card | None:
        """A real piece with no candidate meld at all (a quick "no"), or ``None``."""
        J = self.jokers
        counts = self.counts
        hi = 14 if self.rules.ace_high else 13
        for n in range(1, 14):
            row = counts[n]
            present = sum(1 for c in row if c)
            for f in range(_FAMILIES):
                if not row[f]:
                    continue
                if present + J >= 3:
                    continue  # a group is possible
                if self.rules.pairs and (row[f] >= 2 or J >= 1):
                    continue
                if self._run_possible(f, n, J, hi):
                    continue
                if n == 1 and self.rules.ace_high and self._run_possible(f, 14, J, hi):
                    continue
                return self.pool[f][n][0]
        return None

    def _run_possible(self, f: int, n: int, J: int, hi: int) -> bool:
        def has(k: int) -> bool:
            if k == 14:
                return self.counts[1][f] > 0
            return 1 <= k <= 13 and self.counts[k][f] > 0

        for lo in (n - 2, n - 1, n):
            if lo < 1 or lo + 2 > hi:
                continue
            missing = sum(1 for k in range(lo, lo + 3) if k != n and not has(k))
            if missing <= J:
                return True
        return False


_Choice = tuple[int, tuple[_Move, ...], tuple[int, ...], int]
"""One number's decision: (number, move per family, aces kept back per family, group jokers)."""

_Option = tuple[int, int, int, int, _Move, int]
"""One family's move at one number: (jokers it needs at least — the move's and the family's
bound after it —, the move's jokers, pieces to groups, new slot state, the move, aces kept)."""

_Buckets = tuple[list[_Option], list[_Option], list[_Option]]
"""One family's options at one number by how many pieces go to groups (0, 1, 2)."""

_Combo = tuple[tuple[int, int, int, int], int, tuple[_Move, ...], tuple[int, ...], int]
"""A joint move at one number: (new slot states, jokers left, moves, aces kept back, group
jokers)."""


class _OutOfBudget(Exception):
    """The search used its budget of state expansions without an answer (it may resume)."""


_NO_SPLIT: Final = "no split"
_NO_PROOF: Final = "no proof"
"""A window's answer when it can be laid (the heap may or may not split)."""


def _searcher(
    heap: _Heap,
    deadline: Deadline | None = None,
    keep: tuple[int, ...] | None = None,
    start_phase: int = 0,
) -> Callable[[int], list[_Choice] | str]:
    """A resumable depth-first search over ``heap`` with a memo of failed states.

    The returned ``run(budget)`` gives the chosen moves (a split exists), :data:`_NO_SPLIT`
    (none exists), or raises :class:`_OutOfBudget` after ``budget`` more state expansions; the
    memo survives, so a later call with a larger budget continues where this one stopped (only
    fully explored states are ever recorded as failed).

    Ace-high (Carousel): how many aces of each suit are kept back for ``Q-K-A`` is chosen at
    number 1 but matters only from number 12 on. So a state carries no such vector; instead each
    call asks about a *set* of kept-back vectors (a bit mask over the candidates) and the memo
    records, per state, the vectors known to fail. Numbers 2–11 are then searched once for all
    vectors together, and 12–14 per vector. ``keep`` fixes the vector instead (one search per
    vector, see :func:`_race_kept`); ``start_phase`` 1 skips phase 0.
    """
    rules = heap.rules
    counts = heap.counts
    last = heap.last
    ace_high = rules.ace_high
    pairs = rules.pairs
    moves_table = _MOVES
    group_jg = _GROUP_JG
    bad: dict[int, int] = {}
    # failed states by (number, jokers left): a state dominated, family by family, by a failed
    # one fails too (for the same kept-back vectors), so it is never searched
    failed_at: dict[int, list[tuple[int, int, int, int, int]]] = {}
    dom = _DOMINATED_BY
    scan = _DOMINANCE_SCAN[ace_high]
    path: list[_Choice] = []
    sb = _STATE_BITS
    spent = [0, 0]  # expansions so far, budget limit
    # Phase 0 (the first budget): a cheap look-ahead (the next two numbers must be able to
    # continue every short run) and, at number 1 with the ace high, one kept-back vector per
    # call — fast when a split is easy to find. Later phases: the per-family joker bound and
    # all kept-back vectors at once — fast to prove that no split exists. Failed states
    # recorded in either phase stay true in the other.
    phase = [start_phase - 1]
    no_keep = (0, 0, 0, 0)

    # candidate kept-back vectors: a suit keeps at most as many aces as runs can reach Q and K
    kept_options: list[tuple[int, ...]] = [no_keep]
    per_fam = _kept_ranges(heap)
    if keep is not None:
        per_fam = [range(keep[f], keep[f] + 1) for f in range(_FAMILIES)]
    # the order to try them in: aces go high as far as Q-K can take them and A-2-3 cannot
    keep_order: list[tuple[int, ...]] = []
    for f in range(_FAMILIES):
        low = min(counts[2][f], counts[3][f])
        high = min(counts[12][f], counts[13][f])
        pref = max(0, min(counts[1][f] - low, high))
        keep_order.append(tuple(sorted(per_fam[f], key=lambda k: (abs(k - pref), k))))
    if ace_high:
        kept_options = [
            (a, b, c, d)
            for a in per_fam[0]
            for b in per_fam[1]
            for c in per_fam[2]
            for d in per_fam[3]
        ]
    kept_bit = {k: i for i, k in enumerate(kept_options)}
    vfilter = heap.vector_filter() if ace_high and keep is None and _VECTOR_FILTER else None
    filtered: dict[int, int] = {}  # vfilter's answer per state

    # the per-family joker bound (shared by every search of the heap: it depends on the heap
    # only); the sum over families bounds the state
    lb, lb_memo = heap.joker_bound()

    any_memo: dict[int, int] = {}

    def lb_any(f: int, n: int, s: int) -> int:
        """:func:`lb` for the best kept-back count (the state does not fix it)."""
        key = (f << 4 | n) << sb | s
        v = any_memo.get(key)
        if v is None:
            v = min(lb(f, n, s, k) for k in per_fam[f])
            any_memo[key] = v
        return v

    opt_memo: dict[int, _Buckets | None] = {}

    def family_options(
        f: int, n: int, s: int, J: int, kept: tuple[int, ...] | None
    ) -> _Buckets | None:
        """Family ``f``'s moves at number ``n`` from slot state ``s`` after which it can
        still finish with the jokers left (memoised: they depend on nothing else). At number 1
        with the ace high the kept-back count is chosen here; ``kept`` gives it from 12 on;
        ``None`` in between (then the bound takes the best count)."""
        at_top = n == 14
        first_ace = ace_high and n == 1
        middle = kept is None and not first_ace
        k_fixed = kept[f] if kept else 0
        key = ((((f << 4 | n) << sb | s) << 2 | J) << 2) | k_fixed
        if key in opt_memo:
            return opt_memo[key]
        opts: list[_Option] = []
        cheap = phase[0] == 0
        nxt1 = n + 1 <= last
        nxt2 = n + 2 <= last
        keep_range = keep_order[f] if first_ace else (k_fixed,)
        for keep in keep_range:
            if at_top:
                t = keep
            elif first_ace:
                t = counts[1][f] - keep
            else:
                t = counts[n][f]
            base = (f << 4 | (n + 1)) << sb
            if cheap:
                t1 = (keep if n + 1 == 14 else counts[n + 1][f]) if nxt1 else 0
                t2 = (keep if n + 2 == 14 else counts[n + 2][f]) if nxt2 else 0
            for mv in moves_table[s, t, J, pairs]:
                if at_top and (mv[_G] or mv[_P2] or mv[_P1]):
                    continue
                jm = mv[_J]
                if cheap:
                    k2 = mv[_K2]
                    k1 = mv[_K1]
                    if (k2 and not nxt1) or (k1 and not nxt2):
                        continue
                    d = (k2 - t1 if k2 > t1 else 0) + (k1 - t2 if k1 > t2 else 0)
                elif middle:
                    got = any_memo.get(base | mv[_NEW])
                    d = lb_any(f, n + 1, mv[_NEW]) if got is None else got
                else:
                    got = lb_memo.get((base | mv[_NEW]) << 2 | keep)
                    d = lb(f, n + 1, mv[_NEW], keep) if got is None else got
                if jm + d > J:
                    continue
                opts.append((jm + d, jm, mv[_G], mv[_NEW], mv, keep))
        if not opts:
            opt_memo[key] = None
            return None
        opts.sort(key=lambda o: o[0])  # stable: by jokers needed, then the moves' own order
        buckets: _Buckets = ([], [], [])
        for o in opts:
            buckets[o[2]].append(o)
        opt_memo[key] = buckets
        return buckets

    def combos(
        n: int, slots: tuple[int, int, int, int], J: int, kept: tuple[int, ...] | None
    ) -> list[_Buckets] | None:
        """Per family, the moves at number ``n`` (see :func:`family_options`); ``None`` when
        some family has none."""
        options: list[_Buckets] = []
        for f in range(_FAMILIES):
            opts = family_options(f, n, slots[f], J, kept)
            if opts is None:
                return None
            options.append(opts)
        return options

    def each_joint(options: list[_Buckets], J: int, at_top: bool) -> Iterator[_Combo]:
        """The joint moves: one move per family, the groups of the number feasible, jokers
        enough for the moves, the groups and every family's bound. The pieces each family
        sends to groups are chosen first (at most 81 ways, most ruled out at once by the
        group rule), then the moves; fewest jokers needed first, then fewest pieces in groups.
        """
        b0, b1, b2, b3 = options
        cands: list[
            tuple[int, int, int, list[_Option], list[_Option], list[_Option], list[_Option]]
        ] = []
        for g0 in range(3):
            l0 = b0[g0]
            if not l0:
                continue
            c0 = l0[0][0]
            for g1 in range(3):
                l1 = b1[g1]
                if not l1 or c0 + l1[0][0] > J:
                    continue
                c1 = c0 + l1[0][0]
                for g2 in range(3):
                    l2 = b2[g2]
                    if not l2 or c1 + l2[0][0] > J:
                        continue
                    c2 = c1 + l2[0][0]
                    for g3 in range(3):
                        l3 = b3[g3]
                        if not l3 or c2 + l3[0][0] > J:
                            continue
                        base = c2 + l3[0][0]
                        gi = g0 + 3 * g1 + 9 * g2 + 27 * g3
                        if (at_top and gi) or not group_jg[gi][J - base]:
                            continue
                        cands.append((base, g0 + g1 + g2 + g3, gi, l0, l1, l2, l3))
        for _base, _gs, gi, l0, l1, l2, l3 in cands:
            jg_row = group_jg[gi]
            m1 = l1[0][0]
            m2 = l2[0][0]
            m3 = l3[0][0]
            for c0, jm0, _g0, s0, mv0, k0 in l0:
                if c0 + m1 + m2 + m3 > J:
                    break
                for c1, jm1, _g1, s1, mv1, k1 in l1:
                    x1 = c0 + c1
                    if x1 + m2 + m3 > J:
                        break
                    for c2, jm2, _g2, s2, mv2, k2 in l2:
                        x2 = x1 + c2
                        if x2 + m3 > J:
                            break
                        for c3, jm3, _g3, s3, mv3, k3 in l3:
                            x3 = x2 + c3
                            if x3 > J:
                                break
                            used = jm0 + jm1 + jm2 + jm3
                            for jg in jg_row[J - x3]:
                                yield (
                                    (s0, s1, s2, s3),
                                    J - used - jg,
                                    (mv0, mv1, mv2, mv3),
                                    (k0, k1, k2, k3),
                                    jg,
                                )

    def solve(n: int, slots: tuple[int, int, int, int], J: int, want: int) -> int:
        """A kept-back vector (as one bit of ``want``) with which the search completes from
        this state, or 0; on success the path holds the choices from ``n`` on (reversed)."""
        if n > last:
            return want & -want if J == 0 else 0
        key = ((((n << sb | slots[0]) << sb | slots[1]) << sb | slots[2]) << sb | slots[3]) << 2 | J
        known = bad.get(key, 0)
        want &= ~known
        if not want:
            return 0
        if vfilter is not None and n > 1:
            # the vectors the joker bounds rule out fail here (the bound memoised per state)
            okm = filtered.get(key)
            if okm is None:
                okm = filtered[key] = vfilter(n, slots[0], slots[1], slots[2], slots[3], J)
            out = want & ~okm
            if out:
                known = bad[key] = known | out
                want &= ~out
                if not want:
                    return 0
        fl = failed_at.get(n << 2 | J)
        if fl:
            d0, d1, d2, d3 = dom[slots[0]], dom[slots[1]], dom[slots[2]], dom[slots[3]]
            for b0, b1, b2, b3, mask in reversed(fl[-scan:]):
                if want & mask and d0[b0] and d1[b1] and d2[b2] and d3[b3]:
                    want &= ~mask
                    if not want:
                        bad[key] = known | mask
                        return 0
        spent[0] += 1
        if deadline is not None and spent[0] % _CHECK_EVERY == 1:
            deadline.check()
        if spent[0] > spent[1]:
            raise _OutOfBudget
        if ace_high and n == 1 and phase[0] == 0:
            options = combos(n, slots, J, no_keep)
            if options is not None:
                for child, cj, mvs, keep, jg in each_joint(options, J, False):
                    bit = kept_bit.get(keep)
                    if bit is None or not want >> bit & 1:
                        continue
                    found = solve(n + 1, child, cj, 1 << bit)
                    if found:
                        path.append((n, mvs, keep, jg))
                        return found
        elif ace_high and n == 1:
            # group the joint moves by the state they lead to, each with its kept-back vectors
            options = combos(n, slots, J, no_keep)
            if options is not None:
                by_child: dict[tuple[tuple[int, int, int, int], int], dict[int, _Combo]] = {}
                for combo in each_joint(options, J, False):
                    bit = kept_bit.get(combo[3])
                    if bit is None or not want >> bit & 1:
                        continue
                    by_child.setdefault((combo[0], combo[1]), {}).setdefault(bit, combo)
                for (child, cj), by_bit in by_child.items():
                    mask = 0
                    for bit in by_bit:
                        mask |= 1 << bit
                    found = solve(n + 1, child, cj, mask)
                    if found:
                        c = by_bit[found.bit_length() - 1]
                        path.append((n, c[2], c[3], c[4]))
                        return found
        elif ace_high and n >= 12:
            # from here on the kept-back aces count: one vector at a time
            w = want
            while w:
                low = w & -w
                w ^= low
                kept = kept_options[low.bit_length() - 1]
                options = combos(n, slots, J, kept)
                if options is None:
                    continue
                for child, cj, mvs, _k, jg in each_joint(options, J, n == 14):
                    found = solve(n + 1, child, cj, low)
                    if found:
                        path.append((n, mvs, kept, jg))
                        return found
        else:
            options = combos(n, slots, J, None if ace_high else no_keep)
            if options is not None:
                nb = (n + 1) << sb
                for child, cj, mvs, _k, jg in each_joint(options, J, False):
                    ckey = (
                        (((nb | child[0]) << sb | child[1]) << sb | child[2]) << sb | child[3]
                    ) << 2 | cj
                    if not want & ~bad.get(ckey, 0):
                        continue  # known to fail: skip the call
                    found = solve(n + 1, child, cj, want)
                    if found:
                        path.append((n, mvs, no_keep, jg))
                        return found
        bad[key] = known | want
        failed_at.setdefault(n << 2 | J, []).append((*slots, want))
        return 0

    def run(budget: int) -> list[_Choice] | str:
        if phase[0] < 1:
            phase[0] += 1
            opt_memo.clear()
        spent[1] = spent[0] + budget
        path.clear()
        before = spent[0]
        try:
            if solve(1, no_keep, heap.jokers, (1 << len(kept_options)) - 1):
                path.reverse()
                return list(path)
            return _NO_SPLIT
        finally:
            if deadline is not None:
                deadline.expansions += spent[0] - before

    return run


_DOMINANCE_SCAN: Final = (128, 64)
"""How many of the latest failed states at a number a new state is compared with, without and
with the ace high (the most recent failures are the likeliest to dominate it; any number keeps
the search exact; with the ace high, failures hold for only some kept-back vectors: 64 halves
the work on the hardest Carousel heaps found by hill-climbing, against 16, and costs nothing
measurable on random ones)."""

_DOWN_SELF: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(a for a in range(len(_SLOT_STATES)) if _DOMINATED_BY[a][b])
    for b in range(len(_SLOT_STATES))
)
"""``_DOWN_SELF[b]``: the slot states that ``b`` dominates (``b`` among them)."""
_FIRST_BUDGET: Final = 100
_BUDGET_GROWTH: Final = 2


def _kept_ranges(heap: _Heap) -> list[range]:
    """Per family, how many aces may be kept back for the high place (14): at most as many
    as runs can reach Q and K there (real pieces or jokers)."""
    counts, j = heap.counts, heap.jokers
    return [
        range(min(counts[1][f], counts[12][f] + j, counts[13][f] + j) + 1) for f in range(_FAMILIES)
    ]


def _kept_vectors(heap: _Heap) -> list[tuple[int, ...]]:
    """The kept-back vectors of an ace-high heap, likeliest first: aces go high as far as
    Q-K can take them and A-2-3 cannot (for tests of the one-vector searches,
    ``_searcher(heap, keep=vector)``; the race no longer runs them)."""
    counts = heap.counts
    prefs = []
    for f in range(_FAMILIES):
        low = min(counts[2][f], counts[3][f])
        high = min(counts[12][f], counts[13][f])
        prefs.append(max(0, min(counts[1][f] - low, high)))
    r = _kept_ranges(heap)
    vecs: list[tuple[int, ...]] = [
        (a, b, c, d) for a in r[0] for b in r[1] for c in r[2] for d in r[3]
    ]
    vecs.sort(key=lambda v: (sum(abs(k - p) for k, p in zip(v, prefs, strict=True)), v))
    return vecs


def _race(
    heap: _Heap, pieces: Sequence[Piece], deadline: Deadline | None = None
) -> tuple[_Heap, list[_Choice]] | None:
    """Search from 1 up and from 13 down in turns, each with a growing budget, until one of
    them answers; both are exact, and a hard spot near one end is usually found fast from that
    end. After the first budget (from 1 up alone) a few windows are tried for a quick "no"
    (:func:`_window_proof`). (Without the ace high the sweeps do not join the race: on the
    hill-climbed tile heaps they only slowed it.) Returns the heap as the winning search saw it
    and its moves, or ``None`` (no split)."""
    first = _searcher(heap, deadline)
    try:
        got = first(_FIRST_BUDGET)
    except _OutOfBudget:
        pass
    else:
        return None if isinstance(got, str) else (heap, got)
    mirrored = _Heap(pieces, heap.rules, mirror=True)
    if _window_proof(heap, mirrored, deadline):
        return None
    runners: list[tuple[_Heap, Callable[[int], list[_Choice] | str]]] = [
        (mirrored, _searcher(mirrored, deadline)),
        (heap, first),
    ]
    budget = _FIRST_BUDGET
    while True:
        for h, run in runners:
            try:
                got = run(budget)
            except _OutOfBudget:
                continue
            return None if isinstance(got, str) else (h, got)
        budget *= _BUDGET_GROWTH


_FIRST_BUDGET_KEPT: Final = 20
"""The first budget of :func:`_race_kept`: the depth-first search over all kept-back vectors
alone, from 1 up (on seeded random Carousel heaps of every size 94 % of the answers it gives
within 100 state expansions come within 20). Its states cost several times a sweep's, and
on the 46 stored hill-climbed heaps (it answers 2 of them within 100) the whole race took
794, 708, 670 and 666 ms of CPU time with 100, 40, 20 and 10 (interleaved, the least of 8
runs). The cost: heaps it answers in 21-100 go to the race; a climb found one it answers in 77
that the race takes 1,318 on (stored heap 49), below the race's own worst found (stored 47:
1,418 state expansions, and 1,498 with 100)."""
_WINDOW_MIN_GAPS_KEPT: Final = 5
"""The windows :func:`_race_kept` tries (:func:`_window_proof`) need this many empty places
(on the hill-climbed Carousel heaps only windows with 5 proved anything; those with 3 or 4
cost 50-300 state expansions each for nothing). Without them the tails still prove "no", but
not always as soon: stored heap 6 then takes 695 state expansions instead of 71 (and stored 48,
which splits, 930 instead of 1,052)."""
_WINDOW_TRIES_KEPT: Final = 1
"""Windows :func:`_race_kept` tries, tightest first (:data:`_WINDOW_TRIES` without the ace
high). On the 49 stored hill-climbed heaps a second window never proved what the first did
not: with one, 8 heaps took 53-61 state expansions fewer (stored 48: 875 against 814), none
more, and stored heap 6 is still proved "no" by the first window (71)."""
_DFS_UNIT: Final = 32
"""The spot depth-first searches of :func:`_race_kept` restart in a new order after this many
state expansions times the Luby sequence (1, 1, 2, 1, 1, 2, 4, ...; :func:`_luby`), one way
then the other (:func:`_spot_dfs_restarts`). With 16 (and :data:`_DFS_CHUNK` 16) stored heaps
47 and 49 took 1,418 and 1,318 state expansions (the spot sweeps answered); with 32 they
take 433 and 41 (with 24: 1,418 and 121; 48: 705 and 121; 64: 897 and 121; :data:`_DFS_CHUNK`
16). The first 46 stay at most 881 (865 with 16), 135 seeded random heaps of 40, 60 and 90
pieces at most 319 (319); CPU time: 47 and 49 5.3-6.2 and 4.2-4.9 times the reference work
with 16, 1.6-1.8 and 0.3 with 32 (interleaved runs), the first 46 at most 2.5-2.9 with
either."""
_DFS_CHUNK: Final = 32
"""State expansions a spot depth-first search of :func:`_race_kept` runs in its turn (with
:data:`_DFS_UNIT` 32: 32 against 16 took stored heaps 47 and 49 from 513 and 121 state
expansions to 433 and 41, and the 46 others' sum from 19,905 to 19,665)."""
_DFS_SHARE: Final = 0.15
"""The spot depth-first searches of :func:`_race_kept` together get this many state
expansions for each one of the provers (they go first). On a heap with no split they only
cost; on 44 hill-climbed heaps the most state expansions a heap took were 1,279 with 0.3,
1,268 with 0.2 and 1,471 with 0.5 (a depth-first state costs about twice a sweep's). Since
the spot sweeps meet in the middle they answer heaps that split about as soon as those that
do not, and 0.2 did best (48 heaps: the most states 1,009 with 0.3, 945 with 0.2). With the
depth-first searches pruned by dominance and the aces' joint bound (58 heaps), the most
were 820 with 0.25, 788 with 0.2, 756 with 0.15 and 724 with 0.1, or, a depth-first state
counted as 2.4 of a sweep's (as measured), 1,044, 967, 890 and 814; 0.15 keeps a share for
the heaps that split where only the depth-first searches answer soon."""
_SWEEP_CHUNK: Final = 16
"""State expansions a prover of :func:`_race_kept` runs before their work left is compared
again."""
_SWEEP_SWITCH: Final = 1.5
"""The chunks go to another prover of :func:`_race_kept` once its work left looks this many
times smaller than the running one's (states at its current number times the numbers left:
both sweeps of a heap are often about as wide, and switching back and forth pays for both;
1, 2 and 3 did worse on the hill-climbed heaps)."""
_TAIL_WEIGHT: Final = 10
"""A tail's work left counts this many times a spot sweep's in :func:`_race_kept`'s choice of
the prover to run (a tail answers only "no"; on 28 hill-climbed heaps the worst took 1,976,
1,632 and 1,217 state expansions with 2, 3 and 5). The whole-heap depth-first searches (all
kept-back vectors) left the race: given half the provers' work they lowered that to 1,068,
but heaps climbed against them took up to 2,193 (against 2,044 without them). With the spot
sweeps meeting in the middle, 10 against 5: the most states on 50 heaps 945 against 1,103."""
_VECTOR_FILTER: Final = True
"""Whether the searches over all kept-back vectors narrow them by :meth:`_Heap.vector_filter`
(always, but for tests that cross-check the searches without it)."""


def _race_kept(
    heap: _Heap, pieces: Sequence[Piece], deadline: Deadline | None = None
) -> list[SplitMeld] | None:
    """The race for ace-high heaps (Carousel), all its searches exact, the first answer
    winning:

    1. the depth-first search over all kept-back vectors from 1 up (:func:`_searcher`,
       :data:`_FIRST_BUDGET_KEPT` state expansions; most heaps are answered here);
    2. the window proof (:func:`_window_proof`, the tightest of the windows with at least
       :data:`_WINDOW_MIN_GAPS_KEPT` empty places, :data:`_WINDOW_TRIES_KEPT`: a quick "no");
    3. then in turns, :data:`_DFS_SHARE` state expansions of (3a) for each one of (3b), (3a)
       first:

       a. the spot depth-first searches (:func:`_spot_dfs_restarts`: from 2 up and from 13
          down, each restarting in a new order after a number of states that grows, in
          turns of :data:`_DFS_CHUNK`): a quick "yes" on most heaps that split, and "no"
          when one of them has tried everything; each way meets the spot sweep the other
          way wherever that has laid every state it kept (:class:`_DfsMeets`);
       b. the provers, in chunks of :data:`_SWEEP_CHUNK`, each to the one whose work left
          (states at its number times the numbers left, times :data:`_TAIL_WEIGHT` for a tail)
          looks least (:data:`_SWEEP_SWITCH`), of the spot sweeps the narrower one: the spot
          sweeps each way (:func:`_spot_sweep_steps`: "yes" or "no"; they meet in the middle,
          :meth:`_SpotRunner.meet`) and the windows from 2 to the top each way
          (the tails: :func:`_sweep_steps` from the state that dominates every other, the aces
          left out: a quick "no" on many heaps that do not split). A tail that can be laid
          proves nothing and leaves the race, but the states it kept then filter the spot sweep
          the other way (:func:`_cross_masks`: a state that no state of the tail at the same
          place can join cannot complete), which on such heaps then needs a few dozen states
          instead of hundreds.

    Returns the melds of a split, or ``None``."""
    first = _searcher(heap, deadline)
    try:
        got = first(_FIRST_BUDGET_KEPT)
    except _OutOfBudget:
        pass
    else:
        return None if isinstance(got, str) else _build(heap, got)
    dirs = (heap, _Heap(pieces, heap.rules, mirror=True))
    if _window_proof(heap, dirs[1], deadline, _WINDOW_MIN_GAPS_KEPT, _WINDOW_TRIES_KEPT):
        return None
    # the provers: 0 and 1 the spot sweeps, 2 and 3 the tails (each way)
    sweeps = [_SpotRunner(h, deadline) for h in dirs]
    sweeps[0].meet(sweeps[1])
    sweeps[1].meet(sweeps[0])
    # the depth-first searches each way meet the spot sweep the other way
    others = (sweeps[1].view, sweeps[0].view)
    dfs = _SpotRunner(dirs[0], deadline, steps=_spot_dfs_restarts(dirs, deadline, others))
    dfs_work = prover_work = 0
    tails = [_SweepRunner(h, deadline, start=2) for h in dirs]
    progress = [sweeps[0].progress, sweeps[1].progress, tails[0].progress, tails[1].progress]
    live = [0, 1, 2, 3]
    cur = 0

    def work_left(k: int) -> int:
        n, width = progress[k]
        return width * (15 - n) * (_TAIL_WEIGHT if k >= 2 else 1)

    while True:
        if dfs_work <= _DFS_SHARE * prover_work:
            dfs_work += _DFS_CHUNK
            try:
                found = dfs(_DFS_CHUNK)
            except _OutOfBudget:
                continue
            return None if isinstance(found, str) else found
        prover_work += _SWEEP_CHUNK
        best = min(live, key=work_left)
        if cur not in live or work_left(best) * _SWEEP_SWITCH < work_left(cur):
            cur = best
        if cur < 2:
            # the spot sweeps meet in the middle (:class:`_Meet`): :func:`_sweep_to_go` says
            # which one goes on
            cur = _sweep_to_go(progress[0], progress[1])
        try:
            if cur < 2:
                melds = sweeps[cur](_SWEEP_CHUNK)
                return None if isinstance(melds, str) else melds
            if tails[cur - 2](_SWEEP_CHUNK) == _NO_SPLIT:
                return None
        except _OutOfBudget:
            continue
        # the tail can be laid: no proof, but its states filter the other way's spot sweep
        live.remove(cur)
        sweeps[3 - cur].filter_by(tails[cur - 2].history)


def _sweep_to_go(up: list[int], down: list[int]) -> int:
    """Which of the two spot sweeps goes on (0 from 2 up, 1 from 13 down), given each one's
    ``[number it is at, states to expand there]``: the plans are each laying every number
    left alone, or both laying as far as a cut where they meet (:class:`_Meet`: the one
    from 2 up at a number ``a`` from :data:`_MEET_LOW` + 1 to :data:`_MEET_HIGH` + 1, the
    other at ``16 - a``), each plan's work guessed as every number left costing what the
    sweep's number costs now; of the cheapest plan's sweeps that must go on, the narrower
    one goes (the narrower one alone where neither plan needs both)."""
    n0, w0 = max(up[0], 2), up[1]
    n1, w1 = max(down[0], 2), down[1]
    best: tuple[int, tuple[int, ...]] = (w0 * (14 - n0), (0,))
    if w1 * (14 - n1) < best[0]:
        best = (w1 * (14 - n1), (1,))
    for a in range(max(_MEET_LOW + 1, n0), min(_MEET_HIGH + 1, 16 - n1) + 1):
        cost = w0 * (a - n0) + w1 * (16 - a - n1)
        if cost < best[0]:
            need = tuple(k for k, more in ((0, a > n0), (1, 16 - a > n1)) if more)
            best = (cost, need)
    need = best[1] or (0, 1)
    return min(need, key=lambda k: (up, down)[k][1])


# --------------------------------------------------------------------------------------------
# The sweep: the same programme breadth-first, keeping only the states no other one dominates


def _sweep(
    heap: _Heap,
    deadline: Deadline | None = None,
    start: int = 1,
    stop: int = 99,
    cap: int = 1 << 60,
) -> list[_Choice] | None:
    """:func:`_sweep_steps` run to its end, or :class:`_OutOfBudget` after ``cap`` state
    expansions."""
    steps = _sweep_steps(heap, deadline, start, stop)
    try:
        while True:
            if next(steps) > cap:
                steps.close()
                raise _OutOfBudget
    except StopIteration as done:
        result: list[_Choice] | None = done.value
        return result


class _SweepRunner:
    """:func:`_sweep_steps` as a resumable runner like :func:`_searcher`'s: ``run(budget)``
    gives the moves, :data:`_NO_SPLIT`, or raises :class:`_OutOfBudget` after ``budget``
    more state expansions. From ``start`` > 1 it is a window to the top (see
    :func:`_sweep_steps`): it gives :data:`_NO_SPLIT` (a proof) or :data:`_NO_PROOF`. Once
    it has answered it gives the same answer again."""

    def __init__(self, heap: _Heap, deadline: Deadline | None, start: int = 1) -> None:
        self.progress = [0, 1]
        """The number the sweep is at and how many states it expands there."""
        self.history: list[dict[tuple[int, int, int, int, int], int]] = []
        """The states the sweep expanded at each number, indexed by number (filled as it
        goes; complete once a window to the top answered :data:`_NO_PROOF`)."""
        self.steps = _sweep_steps(
            heap, deadline, start=start, progress=self.progress, history_out=self.history
        )
        self.done = 0
        self.start = start
        self.answer: list[_Choice] | str | None = None

    def __call__(self, budget: int) -> list[_Choice] | str:
        if self.answer is not None:
            return self.answer
        limit = self.done + budget
        try:
            while True:
                self.done = next(self.steps)
                if self.done >= limit:
                    raise _OutOfBudget
        except StopIteration as end:
            got: list[_Choice] | None = end.value
            if got is None:
                self.answer = _NO_SPLIT
            elif self.start > 1:
                self.answer = _NO_PROOF
            else:
                self.answer = got
            return self.answer


def _sweep_steps(
    heap: _Heap,
    deadline: Deadline | None = None,
    start: int = 1,
    stop: int = 99,
    progress: list[int] | None = None,
    history_out: list[dict[tuple[int, int, int, int, int], int]] | None = None,
) -> Generator[int, None, list[_Choice] | None]:
    """Decide ``heap`` number by number, keeping at each number every state reachable so far
    except those another reachable state dominates (:func:`_dominates`, family by family, with
    the same jokers left: whatever completes the dominated state completes the other too).

    Where the depth-first search (:func:`_searcher`) must revisit the many ways the easy
    numbers can be laid before it proves that a hard spot further on fails, the sweep keeps
    only their best few (two full runs of a colour dominate every other way of laying its
    two copies), so a heap that does not split is answered after a few states per number.

    Ace-high (Carousel): a state carries the set (a bit mask) of kept-back vectors with which
    it is reachable; a dominated state loses only the vectors its dominator has too (many new
    states at a number: only dominators differing in one family are looked for, see
    :data:`_PAIRWISE_MAX`). The vectors matter for the moves only at 14 (the kept aces), so
    they are checked there; before, the per-family joker bound takes the best kept count. Each
    move must leave every family within the jokers left by that bound.

    A window (``start`` > 1): the sweep starts at ``start`` from the state with four runs of
    length ≥ 3 in every family (it dominates every state there) and stops after ``stop``;
    jokers may be left over. ``None`` then proves that the whole heap has no split; ``[]``
    proves nothing.

    Yields the state expansions so far, one by one (so a race can pause it; see
    :class:`_SweepRunner`), keeps ``progress`` (if given) at ``[number, states to expand
    there]`` and fills ``history_out`` (if given) with the states expanded at each number
    (indexed by number; for :func:`_cross_masks`); returns the choices number by number (see
    :func:`_build`) or ``None`` (no split).

    Raises:
        TooComplexError: the deadline passed.
    """
    rules = heap.rules
    counts = heap.counts
    last = heap.last
    ace_high = rules.ace_high
    pairs = rules.pairs
    J0 = heap.jokers
    sb = _STATE_BITS
    per_fam = _kept_ranges(heap) if ace_high else [range(1)] * _FAMILIES
    kept_options = [
        (a, b, c, d) for a in per_fam[0] for b in per_fam[1] for c in per_fam[2] for d in per_fam[3]
    ]
    kept_bit = {k: i for i, k in enumerate(kept_options)}
    full_mask = (1 << len(kept_options)) - 1
    closed = [all(x == 3 for x in st) for st in _SLOT_STATES]
    size = [sum(st) for st in _SLOT_STATES]
    dom = _DOMINATED_BY
    downs = _DOWN_SELF
    no_keep = (0, 0, 0, 0)
    # the memos depend on the heap only: the sweeps and windows of one heap share them
    if heap.sweep_memos is None:
        heap.sweep_memos = ({}, {})
    any_memo, fam_memo = heap.sweep_memos
    lb, _lb_memo = heap.joker_bound()
    # per-vector joker bounds on the new states (not in a window: it leaves the heap's rest
    # out of account)
    vfilter = heap.vector_filter() if ace_high and start == 1 and _VECTOR_FILTER else None

    def lb_any(f: int, n: int, s: int) -> int:
        key = (f << 4 | n) << sb | s
        v = any_memo.get(key)
        if v is None:
            v = min(lb(f, n, s, k) for k in per_fam[f])
            any_memo[key] = v
        return v

    # family options at a number: by pieces sent to groups, the distinct (new slot state,
    # jokers) pairs, none dominated by another with the same jokers
    def family_moves(f: int, n: int, s: int, J: int) -> list[_FamOpts]:
        """The options of family ``f`` in slot state ``s`` at ``n`` with ``J`` jokers left:
        per number of pieces sent to groups (``g``), the option list (cheapest first, each
        ``(jokers with the bound after it, new slot state, jokers, move, kept count)``), as
        ``(g, cheapest, list)`` for the non-empty lists, cheapest first."""
        key = f << 12 | n << 8 | s << 2 | J
        got = fam_memo.get(key)
        if got is not None:
            return got
        buckets: list[list[tuple[int, int, int, _Move, int]]] = [[], [], []]
        keeps = per_fam[f] if (ace_high and n == 1) else range(1)
        at_end = n == last
        for k in keeps:
            t = counts[1][f] - k if (ace_high and n == 1) else counts[n][f]
            seen: dict[tuple[int, int, int], tuple[int, int, int, _Move, int]] = {}
            for mv in _MOVES[s, t, J, pairs]:
                new = mv[_NEW]
                jm = mv[_J]
                if at_end and not closed[new]:
                    continue
                d = lb(f, n + 1, new, k) if ace_high and n == 1 else lb_any(f, n + 1, new)
                if jm + d > J:
                    continue
                seen.setdefault((mv[_G], new, jm), (jm + d, new, jm, mv, k))
            for (g, new, jm), opt in seen.items():
                # dominated by another option of the same kind: drop
                if any(j2 == jm and n2 != new and dom[new][n2] for (g2, n2, j2) in seen if g2 == g):
                    continue
                buckets[g].append(opt)
        out: list[_FamOpts] = []
        for g, b in enumerate(buckets):
            if b:
                b.sort(key=lambda o: o[0])
                out.append((g, b[0][0], b))
        out.sort(key=lambda e: e[1])
        fam_memo[key] = out
        return out

    # states: (slots, jokers left) -> mask of kept-back vectors
    _Key = tuple[int, int, int, int, int]
    states: dict[_Key, int] = {(0, 0, 0, 0, J0): full_mask}
    if start > 1:
        free = _SLOT_INDEX[(3,) * _MAX_SLOTS]
        states = {(free, free, free, free, J0): full_mask}
    # the states expanded at each number; the way back is found by expanding them again
    history: list[dict[_Key, int]] = [{} for _ in range(last + 2)]
    if history_out is not None:
        history_out[:] = history
        history = history_out
    expansions = 0
    top = last if not ace_high else 13
    for n in range(start, top + 1):
        at_one = n == 1 and ace_high
        children: dict[_Key, int] = {}
        history[n] = states
        if progress is not None:
            progress[:] = [n, len(states)]
        for key, mask in states.items():
            expansions += 1
            if deadline is not None and expansions % _CHECK_EVERY == 1:
                deadline.check()
            if deadline is not None:
                deadline.expansions += 1
            yield expansions
            J = key[4]
            nj = n << 8 | J  # family_moves' memo key: f << 12 | n << 8 | s << 2 | J
            o0 = fam_memo.get(nj | key[0] << 2)
            if o0 is None:
                o0 = family_moves(0, n, key[0], J)
            o1 = fam_memo.get(4096 | nj | key[1] << 2)
            if o1 is None:
                o1 = family_moves(1, n, key[1], J)
            o2 = fam_memo.get(8192 | nj | key[2] << 2)
            if o2 is None:
                o2 = family_moves(2, n, key[2], J)
            o3 = fam_memo.get(12288 | nj | key[3] << 2)
            if o3 is None:
                o3 = family_moves(3, n, key[3], J)
            for g0, b0, l0 in o0:
                for g1, b1, l1 in o1:
                    y1 = b0 + b1
                    if y1 > J:
                        break
                    for g2, b2, l2 in o2:
                        y2 = y1 + b2
                        if y2 > J:
                            break
                        for g3, b3, l3 in o3:
                            y3 = y2 + b3
                            if y3 > J:
                                break
                            row = _GROUP_JG[g0 + 3 * g1 + 9 * g2 + 27 * g3]
                            if not row[J - y3]:
                                continue  # no groups of these pieces with the jokers left
                            for c0, s0, j0, _m0, k0 in l0:
                                if c0 > J:
                                    break
                                for c1, s1, j1, _m1, k1 in l1:
                                    x1 = c0 + c1
                                    if x1 > J:
                                        break
                                    for c2, s2, j2, _m2, k2 in l2:
                                        x2 = x1 + c2
                                        if x2 > J:
                                            break
                                        for c3, s3, j3, _m3, k3 in l3:
                                            x3 = x2 + c3
                                            if x3 > J:
                                                break
                                            used = j0 + j1 + j2 + j3
                                            if at_one:
                                                kv = (k0, k1, k2, k3)
                                                bit = kept_bit.get(kv)
                                                if bit is None:
                                                    continue
                                                cm = 1 << bit
                                            else:
                                                kv = no_keep
                                                cm = mask
                                            # x3: the moves' jokers and the bound after them
                                            for jg in row[J - x3]:
                                                ck = (s0, s1, s2, s3, J - used - jg)
                                                old = children.get(ck, 0)
                                                if cm & ~old:
                                                    children[ck] = old | cm
        # keep the states no other dominates (per kept-back vector)
        order = sorted(
            children.items(),
            key=lambda e: -(size[e[0][0]] + size[e[0][1]] + size[e[0][2]] + size[e[0][3]]),
        )
        # the kept states as bit sets (bit i: the i-th state kept): by jokers left, and per
        # family and slot state v, those whose slot state in the family dominates v; the
        # states dominating a new one are then the AND of five sets
        kept_masks: list[int] = []
        by_jokers = [0] * (J0 + 1)
        doms0, doms1, doms2, doms3 = ([0] * len(_SLOT_STATES) for _ in range(_FAMILIES))
        states = {}
        for ck, cm in order:
            if vfilter is not None:
                cm &= vfilter(n + 1, ck[0], ck[1], ck[2], ck[3], ck[4])
                if not cm:
                    continue
            x = by_jokers[ck[4]] & doms0[ck[0]] & doms1[ck[1]] & doms2[ck[2]] & doms3[ck[3]]
            while x and cm:
                low = x & -x
                x ^= low
                cm &= ~kept_masks[low.bit_length() - 1]
            if cm:
                bit_i = 1 << len(kept_masks)
                kept_masks.append(cm)
                by_jokers[ck[4]] |= bit_i
                for w in downs[ck[0]]:
                    doms0[w] |= bit_i
                for w in downs[ck[1]]:
                    doms1[w] |= bit_i
                for w in downs[ck[2]]:
                    doms2[w] |= bit_i
                for w in downs[ck[3]]:
                    doms3[w] |= bit_i
                states[ck] = cm
        if not states:
            break
        if n >= stop:
            return []  # the window alone can be laid: no proof either way
    final: tuple[_Key, int, _Choice | None] | None = None
    if ace_high:
        for key, mask in states.items():
            J = key[4]
            # per family and kept count: the joker counts (and a move) that close every run
            ends: list[dict[int, dict[int, _Move]]] = []
            for f in range(_FAMILIES):
                by_k: dict[int, dict[int, _Move]] = {}
                for k in per_fam[f]:
                    for mv in _MOVES[key[f], k, J, False]:
                        if mv[_G] or not closed[mv[_NEW]]:
                            continue
                        by_k.setdefault(k, {}).setdefault(mv[_J], mv)
                ends.append(by_k)
            m = mask
            while m and final is None:
                low = m & -m
                m ^= low
                v = kept_options[low.bit_length() - 1]
                e0, e1, e2, e3 = (ends[f].get(v[f]) for f in range(_FAMILIES))
                if not (e0 and e1 and e2 and e3):
                    continue
                for a, ma in e0.items():
                    for b, mb in e1.items():
                        for c, mc in e2.items():
                            for d, md in e3.items():
                                if final is None and (a + b + c + d == J or start > 1):
                                    final = (key, low, (14, (ma, mb, mc, md), v, 0))
            if final is not None:
                break
    else:
        for key, mask in states.items():
            if (key[4] == 0 or start > 1) and all(closed[key[f]] for f in range(_FAMILIES)):
                final = (key, mask & -mask, None)
                break
    if final is None:
        return None
    if start > 1:
        return []  # the window alone can be laid: no proof either way
    key, bit, tail = final
    path: list[_Choice] = [] if tail is None else [tail]

    def way_back(n: int, key: _Key, bit: int) -> tuple[_Key, _Choice]:
        """A state expanded at ``n`` (with kept-back vector ``bit``) and the choice there
        that leads to ``key``: the expansion above again, unpruned but for the same bounds,
        each family's options first narrowed to those reaching ``key``'s slot state."""
        first = n == 1 and ace_high
        for pkey, mask in history[n].items():
            if not first and not mask & bit:
                continue
            J = pkey[4]
            per_family: list[list[tuple[int, _FamOpt]]] = []
            for f in range(_FAMILIES):
                want_s = key[f]
                hits = [
                    (g, o)
                    for g, _b, lst in family_moves(f, n, pkey[f], J)
                    for o in lst
                    if o[1] == want_s
                ]
                if not hits:
                    break
                per_family.append(hits)
            else:
                for (g0, o0), (g1, o1), (g2, o2), (g3, o3) in product(*per_family):
                    x3 = o0[0] + o1[0] + o2[0] + o3[0]
                    if x3 > J:
                        continue
                    kv = (o0[4], o1[4], o2[4], o3[4]) if first else no_keep
                    if first and kept_bit.get(kv, -1) != bit.bit_length() - 1:
                        continue
                    used = o0[2] + o1[2] + o2[2] + o3[2]
                    for jg in _GROUP_JG[g0 + 3 * g1 + 9 * g2 + 27 * g3][J - x3]:
                        if J - used - jg == key[4]:
                            return pkey, (n, (o0[3], o1[3], o2[3], o3[3]), kv, jg)
        raise RuntimeError("split sweep lost its way back")

    for n in range(top, 0, -1):
        key, choice = way_back(n, key, bit)
        path.append(choice)
    path.reverse()
    return path


_WINDOW: Final = 5
"""Numbers in a window of :func:`_window_proof`."""
_WINDOW_TRIES: Final = 2
"""Windows tried, tightest first."""
_WINDOW_CAP: Final = 60
"""State expansions one window may use before it is given up (no proof either way)."""
_WINDOW_MIN_GAPS: Final = 3
"""Windows with fewer empty places are not tried: on the hill-climbed Carousel heaps such
windows never gave a proof within :data:`_WINDOW_CAP` and cost 5–10 ms each (the proofs found
had 5 empty places or more; with the ace high :data:`_WINDOW_MIN_GAPS_KEPT` applies)."""


def _window_proof(
    heap: _Heap,
    mirrored: _Heap,
    deadline: Deadline | None = None,
    min_gaps: int = _WINDOW_MIN_GAPS,
    tries_max: int = _WINDOW_TRIES,
) -> bool:
    """A quick proof that ``heap`` has no split: some window of :data:`_WINDOW` numbers that
    cannot be laid even with every run it could need arriving from below it, runs left open
    above it, and every joker free for it (:func:`_sweep` from the state that dominates every
    other). Exact as a proof: a split of the heap lays each window that way. Windows with
    the most empty places (colour by number) are tried first, from 1 up and from the top
    down (only those with ``min_gaps`` or more); each stops after :data:`_WINDOW_CAP` state
    expansions. ``False``: no proof (the heap may or may not split)."""
    tries: list[tuple[int, int, int]] = []
    for d, h in enumerate((heap, mirrored)):
        top = 13 if h.rules.ace_high else h.last
        for a in range(2, top - 1):
            b = min(a + _WINDOW - 1, top)
            gaps = sum(
                1
                for f in range(_FAMILIES)
                for n in range(a, b + 1)
                if not h.counts[n][f] and any(h.counts[m][f] for m in range(a, b + 1))
            )
            if gaps >= min_gaps:
                tries.append((-gaps, d, a))
    tries.sort()
    for _gaps, d, a in tries[:tries_max]:
        h = (heap, mirrored)[d]
        try:
            if _sweep(h, deadline, start=a, stop=a + _WINDOW - 1, cap=_WINDOW_CAP) is None:
                return True
        except _OutOfBudget:
            pass
    return False


# --------------------------------------------------------------------------------------------
# The ace as spots: Carousel without the kept-back vectors (the spot sweep)
#
# Every ace in a run stands next to the run's end at 2 (``A-2-3``: below a run that starts at
# 2) or at 13 (``Q-K-A``: above a run that ends at 13), and the other aces are in groups of aces.
# So the spot sweep lays the numbers 2..13 only, and a run of a suit is given a *spot* for an ace
# (or a joker standing for one) below it when it starts at 2 and above it when it is still open
# after 13. A run that starts at 2 may stop after 3 (two long) only if its spot below is filled:
# a *mandatory* spot; a run that started at 2 and goes on to 4 has an *optional* one. What a
# suit's runs from 2 left behind (its *tag*: mandatory spots, all spots) is fixed at 4; a state
# carries the set (a bit mask) of the suits' tag vectors it is reachable with, as the ace-high
# searches carry their kept-back vectors, but a tag with fewer mandatory spots and no fewer spots
# in all does whatever another does, so a state is dropped for every tag vector that a state
# dominating it has or dominates. After 13 a state splits when the aces of each suit (those not
# in groups of aces) and the jokers left fill every mandatory spot and no more spots than there
# are. The numbers where the kept-back vectors multiplied the states (1–3: which runs hold an
# ace) are no longer told apart, and the masks only form at 4, where the runs' lengths have
# merged.

_JOINT_TRIAL: Final = 128
_JOINT_RATE: Final = 3
"""The searches of one heap way ask :meth:`_Spots.joint_ok` until it has been asked
:data:`_JOINT_TRIAL` times, and go on asking only if it ruled out at least one state in
:data:`_JOINT_RATE` of those (skipping a bound is always exact): its walks cost about as
much again as those of :meth:`_Spots.lb_half`, so where it rules out few states it only
costs (the climbed heaps 59 and 61: 2 % and none of them; stored heap 35, 22 %, most of
which the sweeps' dominance would drop too), where on others it rules out most (46: 85 %;
the race then takes 178 state expansions, not 881). On the 62 stored heaps, the time over
the reference work summed 87.6 without the bound, 89.4 asking it always and 88.3 so; the
state expansions 28,343, 20,891 and 21,778."""
_TAGS: Final = 25
"""A suit's tag ``mandatory * 5 + spots`` (both at most 4: the suit's aces and the jokers)."""


def _tag_dominates(b: int, a: int) -> bool:
    """Tag ``b`` does whatever tag ``a`` does: no more mandatory spots, no fewer spots."""
    return b // 5 <= a // 5 and b % 5 >= a % 5


_TAG_DOM: Final[tuple[tuple[bool, ...], ...]] = tuple(
    tuple(_tag_dominates(b, a) for b in range(_TAGS)) for a in range(_TAGS)
)
"""``_TAG_DOM[a][b]``: tag ``b`` dominates tag ``a``."""
_ONES: Final = tuple(st.count(1) for st in _SLOT_STATES)
_TWOS: Final = tuple(st.count(2) for st in _SLOT_STATES)
_THREES: Final = tuple(st.count(3) for st in _SLOT_STATES)
_STOPS: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(
    tuple(
        (
            _SLOT_INDEX[
                tuple(sorted([1] * st.count(1) + [2] * (st.count(2) - c) + [3] * st.count(3)))
            ],
            c,
        )
        for c in range(st.count(2) + 1)
    )
    for st in _SLOT_STATES
)
"""``_STOPS[s]``: (the slot state after ``c`` of the runs of length 2 stopped, ``c``)."""
_TAG_AT: Final = 4
"""The number (place) at which the tags form: a run from 2 stops before it or goes on."""

_SpotOpt = tuple[int, int, int, _Move, int]
"""A suit's option in the spot sweep: (jokers with the bound after it, new slot state, jokers,
move, the suit's tag after it at :data:`_TAG_AT`, else 0)."""
_SpotChoice = tuple[int, tuple[_Move, ...], tuple[int, ...], int]
"""One number's decision in the spot sweep: (number, move per suit, stops per suit, group
jokers)."""


class _Spots:
    """The heap-only parts of the spot sweep (memos shared by the sweeps of one heap)."""

    def __init__(self, heap: _Heap) -> None:
        counts = heap.counts
        self.counts = counts
        self.J0 = J0 = heap.jokers
        self.aces = [counts[1][f] for f in range(_FAMILIES)]
        self.cap = [self.aces[f] + J0 for f in range(_FAMILIES)]
        self.canon = [
            [t // 5 * 5 + min(t % 5, self.aces[f]) for t in range(_TAGS)] for f in range(_FAMILIES)
        ]
        """Per suit and tag, the tag the bounds read it as (:meth:`lb_half`): spots beyond the
        suit's aces left out. The bounds see a tag only in :meth:`end_half`, where the spots
        are room for the suit's aces (the jokers never need a spot there), so a tag with more
        spots than the suit has aces is bounded as one with as many spots as aces."""
        self.group_ok = [
            [
                (
                    sum(1 for g in range(_FAMILIES) if g != f and counts[n][g]) + J0 >= 2,
                    sum(counts[n][g] for g in range(_FAMILIES) if g != f) + J0 >= 4,
                )
                for f in range(_FAMILIES)
            ]
            for n in range(15)
        ]
        self.lb_memo: dict[int, int] = {}
        self.fam_memo: dict[int, list[tuple[int, int, list[_SpotOpt]]]] = {}
        present = [sum(1 for f in range(_FAMILIES) if row[f]) for row in counts]
        self.half = [_half_charge(p) for p in present]
        """Per number (1: the aces), the half-jokers each piece sent to a group there costs at
        least (:func:`_half_charge`)."""
        self.halves = any(1 <= p <= 2 for p in present[1:14])
        """Whether some number with pieces charges its groups (else :meth:`lb_half` is twice
        :meth:`lb` and adds nothing)."""
        self.half_memo: dict[int, int] = {}
        self._half_walk = self._make_walk(self.half_memo, self.end_half)
        self.ace_memos: list[dict[int, int]] = [{} for _ in range(MAX_COPIES + 1)]
        """The memos of :meth:`ace_bound`, per aces in groups of aces (keyed as
        :attr:`half_memo`)."""
        self._ace_walks = [self._make_ace_walk(g) for g in range(MAX_COPIES + 1)]
        self.ace_rows: dict[int, tuple[int, ...]] = {}
        """The memo of :meth:`_ace_row` (keyed as :attr:`half_memo`)."""
        self.joint_memo: dict[tuple[tuple[int, ...], ...], bool] = {}
        """The memo of :meth:`joint_ok` (keyed by the suits' :meth:`ace_bound` values)."""
        self.joint_on = any(self.aces)
        """Whether the searches still ask :meth:`joint_ok` (never where no suit has aces: it
        adds nothing to :meth:`lb_half` then; see :data:`_JOINT_TRIAL`)."""
        self.joint_asked = 0
        self.joint_out = 0
        """How often :meth:`joint_ok` was asked, and how often it said no."""
        self.dfs_kids: dict[
            tuple[int, tuple[int, ...], tuple[int, ...]],
            tuple[
                list[int],
                list[list[tuple[int, tuple[int, int, int, int, int], tuple[int, int, int, int]]]],
            ],
        ] = {}
        """Per state of the spot depth-first search (number, state, tag vector), its children
        within the joker bound as far as they are built (:func:`_spot_dfs_steps`): ([the next
        cost to build], per number of jokers to spare, the children: (open-run length, state,
        tag vector))."""

    def tag_after(self, f: int, s: int, c: int) -> int:
        """Suit ``f``'s tag when ``c`` of the runs of length 2 of slot state ``s`` stop at 3."""
        return c * 5 + min(_TWOS[s], self.cap[f])

    def lb(self, f: int, n: int, s: int, tag: int) -> int:
        """The fewest jokers suit ``f`` alone needs from ``n`` on, in slot state ``s`` with
        ``tag`` (ignored before :data:`_TAG_AT`): runs and spots; groups count 0 and may take
        the suit's pieces where other suits could make one (as :meth:`_Heap.joker_bound`);
        49 or more when the suit cannot be laid. It is :meth:`lb_half` halved and rounded
        down: where no number charges its groups (:attr:`halves`) that is exactly the bound
        in jokers, else as exact and no weaker (a sum of such bounds is at most the sum of
        the half-joker bounds, halved)."""
        tag = 0 if n <= _TAG_AT else self.canon[f][tag]
        key = ((f << 4 | n) << _STATE_BITS | s) * _TAGS + tag
        v = self.lb_memo.get(key)
        if v is None:
            v = self.lb_memo[key] = self.lb_half(f, n, s, tag) // 2
        return v

    def end_half(self, f: int, s: int, tag: int) -> int:
        """The fewest half-jokers suit ``f`` needs in its spots after 13 (slot state ``s``):
        2 for each spot joker, :attr:`half` at 1 for each ace sent to a group of aces (allowed
        where other suits or jokers could make one); 99 when its aces cannot all be placed."""
        if _ONES[s]:
            return 99
        lo = tag // 5 + _TWOS[s]
        hi = tag % 5 + _TWOS[s] + _THREES[s]
        ok1, ok2 = self.group_ok[1][f]
        charge = self.half[1]
        best = 99
        for g in range(self.aces[f] + 1):
            if (g == 1 and not ok1) or (g == 2 and not ok2):
                continue
            a = self.aces[f] - g
            if a <= hi:
                best = min(best, 2 * max(0, lo - a) + charge * g)
        return best

    def lb_half(self, f: int, n: int, s: int, tag: int) -> int:
        """:meth:`lb` in half-jokers with the groups charged: each piece suit ``f`` sends to
        a group at a number costs :attr:`half` there (a run or spot joker costs 2). The sum
        over the suits is at most twice the jokers left in a state that completes: a group of
        ``r`` real pieces (distinct suits, so ``r`` is at most the ``p`` suits with pieces at
        its number) and three or more in all holds ``3 - r`` jokers or more, at least
        ``(3 - p) / p`` for each of its real pieces (see :func:`_half_charge`)."""
        tag = 0 if n <= _TAG_AT else self.canon[f][tag]
        v = self.half_memo.get(((f << 4 | n) << _STATE_BITS | s) * _TAGS + tag)
        if v is None:
            v = self._half_walk(f, n, s, tag)
        return v

    def _make_walk(
        self, memo: dict[int, int], end: Callable[[int, int, int], int]
    ) -> Callable[[int, int, int, int], int]:
        """The walk behind :meth:`lb_half` (``end`` :meth:`end_half`) and :meth:`ace_bound`
        (``end`` its ends): with the tag read already and the memo missed, the least over
        the suit's moves of their half-jokers and the walk after them (the memo read before
        each step down), ``end(f, s, tag)`` after 13; the heap's tables bound locally."""
        counts = self.counts
        canon = self.canon
        cap = self.cap
        group_ok = self.group_ok
        half = self.half
        moves = _WALK_MOVES
        J0 = self.J0
        sb = _STATE_BITS
        tags = _TAGS
        no_stop = ((0, 0),)

        def walk(f: int, n: int, s: int, tag: int) -> int:
            key = ((f << 4 | n) << sb | s) * tags + tag
            if n > 13:
                e = memo[key] = end(f, s, tag)
                return e
            ok1, ok2 = group_ok[n][f]
            t = counts[n][f]
            charge = half[n]
            n1 = n + 1
            base = (f << 4 | n1) << sb
            best = 99
            for s2, c in _STOPS[s] if n == _TAG_AT else no_stop:
                if n == _TAG_AT:
                    if c > cap[f]:
                        continue
                    t2 = canon[f][c * 5 + min(_TWOS[s], cap[f])]  # :meth:`tag_after`
                else:
                    s2 = s
                    t2 = tag
                for j2, starts, g, new in moves[s2, t, J0]:
                    if j2 >= best:
                        break  # the moves come by jokers: the rest cost no less
                    if c and starts:
                        continue
                    if (g == 1 and not ok1) or (g == 2 and not ok2):
                        continue
                    v = memo.get((base | new) * tags + t2)
                    if v is None:
                        v = walk(f, n1, new, t2)
                    v += j2 + charge * g
                    if v < best:
                        best = v
            memo[key] = best
            return best

        return walk

    def _make_ace_walk(self, g: int) -> Callable[[int, int, int, int], int]:
        """The walk behind :meth:`ace_bound` for ``g`` aces in groups of aces: as
        :meth:`_make_walk`'s, but every value over twice the heap's jokers reads as that
        plus one (no state has more to spare), and a move is followed only where the walk
        of :meth:`lb_half` after it, less the charge of ``g`` aces in groups of aces (which
        :meth:`lb_half` adds: it is at most this bound with that charge), leaves it able to
        beat the best so far. For a ``g`` that :meth:`lb_half` never takes (the other suits
        and the jokers cannot make a group with the suit's aces) :meth:`joint_ok` does not
        ask."""
        memo = self.ace_memos[g]
        half_memo = self.half_memo
        half_walk = self._half_walk
        counts = self.counts
        canon = self.canon
        cap = self.cap
        group_ok = self.group_ok
        half = self.half
        moves = _WALK_MOVES
        J0 = self.J0
        sb = _STATE_BITS
        tags = _TAGS
        no_stop = ((0, 0),)
        over = 2 * J0 + 1
        ace_charge = half[1] * g
        ace_end = self.ace_end

        def walk(f: int, n: int, s: int, tag: int) -> int:
            key = ((f << 4 | n) << sb | s) * tags + tag
            if n > 13:
                e = memo[key] = min(over, ace_end(g, f, s, tag))
                return e
            ok1, ok2 = group_ok[n][f]
            t = counts[n][f]
            charge = half[n]
            n1 = n + 1
            base = (f << 4 | n1) << sb
            best = over
            for s2, c in _STOPS[s] if n == _TAG_AT else no_stop:
                if n == _TAG_AT:
                    if c > cap[f]:
                        continue
                    t2 = canon[f][c * 5 + min(_TWOS[s], cap[f])]  # :meth:`tag_after`
                else:
                    s2 = s
                    t2 = tag
                for j2, starts, gp, new in moves[s2, t, J0]:
                    if j2 >= best:
                        break  # the moves come by jokers: the rest cost no less
                    if c and starts:
                        continue
                    if (gp == 1 and not ok1) or (gp == 2 and not ok2):
                        continue
                    x = j2 + charge * gp
                    ck = (base | new) * tags + t2
                    v = memo.get(ck)
                    if v is None:
                        low = half_memo.get(ck)
                        if low is None:
                            low = half_walk(f, n1, new, t2)
                        if x + low - ace_charge >= best:
                            continue  # cannot beat the best so far
                        v = walk(f, n1, new, t2)
                    v += x
                    if v < best:
                        best = v
            memo[key] = best
            return best

        return walk

    def ace_end(self, g: int, f: int, s: int, tag: int) -> int:
        """After 13, the half-jokers suit ``f`` needs in its spots (slot state ``s``) when
        exactly ``g`` of its aces go to groups of aces, those groups' jokers left out (as
        :meth:`end_half`): the other aces fill spots, jokers the mandatory spots they leave;
        99 where that cannot be (runs of length 1 open, more aces than spots, fewer than
        ``g`` aces)."""
        a = self.aces[f] - g
        if _ONES[s] or a < 0:
            return 99
        if a > tag % 5 + _TWOS[s] + _THREES[s]:
            return 99
        return 2 * max(0, tag // 5 + _TWOS[s] - a)

    def ace_bound(self, g: int, f: int, n: int, s: int, tag: int) -> int:
        """:meth:`lb_half` of suit ``f`` when exactly ``g`` of its aces go to groups of
        aces, the jokers of those groups left out (:meth:`ace_end`): the fewest half-jokers
        for its runs, spots and the groups of numbers 2-13 (charged as in :meth:`lb_half`)
        from ``n`` on. :meth:`joint_ok` adds the jokers the groups of aces need, for all
        suits together; the least over ``g`` with those groups charged is :meth:`lb_half`."""
        tag = 0 if n <= _TAG_AT else self.canon[f][tag]
        v = self.ace_memos[g].get(((f << 4 | n) << _STATE_BITS | s) * _TAGS + tag)
        if v is None:
            v = self._ace_walks[g](f, n, s, tag)
        return v

    def _ace_row(self, key: int) -> tuple[int, ...]:
        """The suit's :meth:`ace_bound` for 0 up to its aces in groups of aces at the memo
        key ``key`` (as :attr:`half_memo`'s, the tag read), each at most twice the heap's
        jokers plus one, that plus one where the other suits and the jokers could not make
        a group with its aces (:meth:`lb_half` does not take those either); kept in
        :attr:`ace_rows`."""
        tag = key % _TAGS
        rest = key // _TAGS
        s = rest & (1 << _STATE_BITS) - 1
        n = rest >> _STATE_BITS & 15
        f = rest >> _STATE_BITS + 4
        ok1, ok2 = self.group_ok[1][f]
        over = 2 * self.J0 + 1
        row = []
        for g in range(self.aces[f] + 1):
            if (g == 1 and not ok1) or (g == 2 and not ok2):
                row.append(over)  # no group of aces can take them
                continue
            v = self.ace_memos[g].get(key)
            if v is None:
                v = self._ace_walks[g](f, n, s, tag)
            row.append(min(v, over))
        got = self.ace_rows[key] = tuple(row)
        return got

    def joint_ok(self, n: int, key: tuple[int, int, int, int, int], tv: _TagVec) -> bool:
        """Whether the state ``key`` before ``n`` with the tag vector ``tv`` may complete by
        a bound in half-jokers at least the sum of the suits' :meth:`lb_half`: the aces go
        to groups of aces together, so for some split of the aces among the groups of aces
        (``g`` aces of each suit) the suits' :meth:`ace_bounds` at ``g`` and twice the fewest
        jokers with which those aces form groups of aces (:data:`_GROUP_JG`) come to at most
        twice the jokers left (the jokers of each suit's runs and spots, of the groups at
        2-13 and of the groups of aces are different jokers). False: it cannot complete."""
        rows = self.ace_rows
        base = n << _STATE_BITS  # the memo keys as :meth:`ace_bound`'s, the suit added
        if n <= _TAG_AT:
            k0 = (base | key[0]) * _TAGS
            k1 = (1 << 10 | base | key[1]) * _TAGS
            k2 = (2 << 10 | base | key[2]) * _TAGS
            k3 = (3 << 10 | base | key[3]) * _TAGS
        else:
            canon = self.canon
            k0 = (base | key[0]) * _TAGS + canon[0][tv[0]]
            k1 = (1 << 10 | base | key[1]) * _TAGS + canon[1][tv[1]]
            k2 = (2 << 10 | base | key[2]) * _TAGS + canon[2][tv[2]]
            k3 = (3 << 10 | base | key[3]) * _TAGS + canon[3][tv[3]]
        self.joint_asked += 1
        if self.joint_asked == _JOINT_TRIAL and self.joint_out * _JOINT_RATE < _JOINT_TRIAL:
            self.joint_on = False  # it rules out too few states here to pay its walks
        J = key[4]
        top = 2 * J
        # first with no ace in a group of aces (most states pass so)
        m0 = self.ace_memos[0]
        h = m0.get(k0)
        if h is None:
            h = self._ace_walks[0](0, n, key[0], k0 % _TAGS)
        if h <= top:
            x = m0.get(k1)
            if x is None:
                x = self._ace_walks[0](1, n, key[1], k1 % _TAGS)
            h += x
            if h <= top:
                x = m0.get(k2)
                if x is None:
                    x = self._ace_walks[0](2, n, key[2], k2 % _TAGS)
                h += x
                if h <= top:
                    x = m0.get(k3)
                    if x is None:
                        x = self._ace_walks[0](3, n, key[3], k3 % _TAGS)
                    if h + x <= top:
                        return True
        r0 = rows.get(k0) or self._ace_row(k0)
        r1 = rows.get(k1) or self._ace_row(k1)
        r2 = rows.get(k2) or self._ace_row(k2)
        r3 = rows.get(k3) or self._ace_row(k3)
        per = (r0, r1, r2, r3)
        mk = (r0, r1, r2, r3, (J,))
        got = self.joint_memo.get(mk)
        if got is not None:
            self.joint_out += not got
            return got
        ok = False
        for g0, x0 in enumerate(per[0]):
            for g1, x1 in enumerate(per[1]):
                x01 = x0 + x1
                if x01 > top:
                    continue
                for g2, x2 in enumerate(per[2]):
                    x012 = x01 + x2
                    if x012 > top:
                        continue
                    for g3, x3 in enumerate(per[3]):
                        x = x012 + x3
                        if x > top:
                            continue
                        jg = _GROUP_JG[g0 + 3 * g1 + 9 * g2 + 27 * g3][J]
                        if jg and x + 2 * jg[0] <= top:
                            ok = True
                            break
                    if ok:
                        break
                if ok:
                    break
            if ok:
                break
        self.joint_memo[mk] = ok
        if not ok:
            self.joint_out += 1
        return ok

    def options(self, f: int, n: int, s: int, J: int) -> list[tuple[int, int, list[_SpotOpt]]]:
        """Suit ``f``'s options at ``n`` from slot state ``s`` with ``J`` jokers left, per
        pieces sent to groups ``g``: ``(g, cheapest, options cheapest first)``, cheapest
        first; an option dominated by another of the same kind (pieces to groups, jokers,
        stops) is left out. After the tags form the bound takes the suit's best tag."""
        key = ((f << 4 | n) << _STATE_BITS | s) << 2 | J
        got = self.fam_memo.get(key)
        if got is not None:
            return got
        seen: dict[tuple[int, int, int, int], _SpotOpt] = {}
        best_tag = self.cap[f]  # no mandatory spot, every spot
        for s2, c in _STOPS[s] if n == _TAG_AT else ((s, 0),):
            if c > self.cap[f]:
                continue
            tg = self.tag_after(f, s, c) if n == _TAG_AT else best_tag
            # the memo key of :meth:`lb` after n, but the slot state
            base = (f << 4 | n + 1) << _STATE_BITS
            ctg = 0 if n + 1 <= _TAG_AT else self.canon[f][tg]
            lb_get = self.lb_memo.get
            for mv in _MOVES[s2, self.counts[n][f], J, False]:
                if c and mv[_S]:
                    continue  # a run stopped at 3 and one started at 4: one run 2..
                jm = mv[_J]
                d = lb_get((base | mv[_NEW]) * _TAGS + ctg)
                if d is None:
                    d = self.lb(f, n + 1, mv[_NEW], tg)
                if jm + d > J:
                    continue
                tag = tg if n == _TAG_AT else 0
                seen.setdefault((mv[_G], mv[_NEW], jm, tag), (jm + d, mv[_NEW], jm, mv, tag))
        # an option is left out where another of the same pieces to groups and jokers
        # dominates it: its slot state (:data:`_DOMINATED_BY`) and its tag (:data:`_TAG_DOM`)
        kinds: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for g, new, jm, tag in seen:
            kinds.setdefault((g, jm), []).append((new, tag))
        buckets: list[list[_SpotOpt]] = [[], [], []]
        for (g, new, jm, tag), opt in seen.items():
            same = kinds[g, jm]
            if len(same) > 1:
                dom_new = _DOMINATED_BY[new]
                dom_tag = _TAG_DOM[tag]
                if any(dom_new[n2] and dom_tag[t2] and (n2 != new or t2 != tag) for n2, t2 in same):
                    continue
            buckets[g].append(opt)
        out: list[tuple[int, int, list[_SpotOpt]]] = []
        for g, b in enumerate(buckets):
            if b:
                b.sort(key=lambda o: o[0])
                out.append((g, b[0][0], b))
        out.sort(key=lambda e: e[1])
        self.fam_memo[key] = out
        return out


def _half_charge(present: int) -> int:
    """The half-jokers each real piece of a group costs at least at a number where
    ``present`` suits have pieces: a group holds three pieces or more, its real ones of
    distinct suits, so with ``r <= present`` real pieces it holds ``3 - r`` jokers or more,
    ``(3 - r) / r >= (3 - present) / present`` for each real piece: 0 with three suits or
    more, half a joker (1) with two, two jokers (4) with one."""
    return 0 if present >= 3 else (1 if present == 2 else 4)


def _joinable(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Runs of one colour open below a cut (their lengths ``a``, 3 for three or more) and runs
    open above it (``b``) can be one table there: some runs of ``a`` join runs of ``b`` one to
    one, each pair three or more long together, and every run left alone is three or more
    long (it ends, or starts, at the cut)."""
    for k in range(min(len(a), len(b)) + 1):
        for ia in permutations(range(len(a)), k):
            for ib in combinations(range(len(b)), k):
                if (
                    all(a[i] + b[j] >= 3 for i, j in zip(ia, ib, strict=True))
                    and all(a[i] == 3 for i in range(len(a)) if i not in ia)
                    and all(b[j] == 3 for j in range(len(b)) if j not in ib)
                ):
                    return True
    return False


def _with_spot(st: tuple[int, ...], short: int) -> int:
    """The slot state ``st`` with its runs of length ``short`` one longer (an ace in the spot
    below a run that starts at 2)."""
    return _SLOT_INDEX[tuple(sorted(x + 1 if x == short else x for x in st))]


_JOINS: Final[dict[int, tuple[tuple[int, ...], ...]]] = {
    c: tuple(
        tuple(
            a
            for a, st in enumerate(_SLOT_STATES)
            if _joinable(_SLOT_STATES[_with_spot(st, c - 2)] if c in (3, 4) else st, b)
        )
        for b in _SLOT_STATES
    )
    for c in (3, 4, 5)
}
"""``_JOINS[c][b]``: the slot states of a spot sweep's state at ``c`` (runs open at ``c - 1``)
that runs open above the cut in slot state ``b`` can join (:func:`_joinable`); at 3 and 4 a run
that starts at 2 counts one longer, as the ace in its spot may stand below it (``c`` 5 for 5
and above)."""


def _cross_masks(
    tail: dict[tuple[int, int, int, int, int], int], c: int, J0: int
) -> tuple[list[int], ...]:
    """For the spot sweep's states at ``c`` (numbers 2..c-1 laid), the states of a tail the
    other way that laid c..13 (``tail``, keyed like the sweep's states) as bit sets: per suit
    and slot state, those whose runs of that suit it can join (:data:`_JOINS`), and last, per
    jokers left, those that used no more jokers than are left. A state none of them can join
    cannot complete (the tail keeps a state dominating the part of every split above the cut,
    and the tail's states are those of the sweep from 13 down with every run allowed to come
    from above)."""
    joins = _JOINS[min(c, 5)]
    cols = [[0] * len(_SLOT_STATES) for _ in range(_FAMILIES)]
    jok = [0] * (J0 + 1)
    for i, key in enumerate(tail):
        bit = 1 << i
        for f in range(_FAMILIES):
            col = cols[f]
            for a in joins[key[f]]:
                col[a] |= bit
        for J in range(J0 - key[4], J0 + 1):
            jok[J] |= bit
    return (*cols, jok)


_SpotKey = tuple[int, int, int, int, int]
"""A spot sweep's state: the suits' slot states and the jokers left."""
_TagVec = tuple[int, int, int, int]
"""A spot sweep's tag vector (a tag per suit, see :data:`_TAGS`)."""
_MEET_LOW: Final = 4
_MEET_HIGH: Final = 10
"""The two spot sweeps meet (:class:`_Meet`) only at a cut after a number from
:data:`_MEET_LOW` to :data:`_MEET_HIGH`: there both have formed their tags, and every run
either of them started at 2 is three or more long, so no run open at the cut has a spot."""


class _SpotView:
    """What a spot sweep shows of itself as it goes, for the one the other way
    (:class:`_Meet`): the states it expanded at each number, the number it is at (its
    states up to there are complete), the last number up to which they are all it kept
    (``whole``: after it met the other way the sweep goes on from one state in a split) and
    its tag vectors (by bit)."""

    def __init__(self) -> None:
        self.history: list[dict[_SpotKey, int]] = [{} for _ in range(15)]
        self.at = 0
        self.whole = 0
        self.vecs: list[_TagVec] = [(0, 0, 0, 0)]


class _Meet:
    """The two spot sweeps meeting at a cut: the states of the other way's sweep there (it
    laid 13 down to the cut), against which a state of this way's sweep at the cut (it laid 2
    up to the cut) is joined exactly: their runs join at the cut (:data:`_JOINS` at 5), their
    jokers together are no more than the heap's, and with the jokers left the aces (those not
    in groups of aces) fill every mandatory spot of both ways' tags (this way's: below runs
    from 2; the other way's: above runs to 13) and no more spots than there are.

    Every state each sweep keeps is reachable, so a pair that joins is a split; and each keeps
    a state that dominates each split's part on its side, so a state that joins none of the
    other way's states is in no split (the states at the cut joining none: no split)."""

    def __init__(
        self,
        other: dict[_SpotKey, int],
        other_vecs: list[_TagVec],
        aces: list[int],
        J0: int,
        ends: dict[tuple[_TagVec, _TagVec, int], bool],
    ) -> None:
        self.J0 = J0
        self.aces = aces
        self.other_vecs = other_vecs
        self.ends = ends
        # bit sets over the other way's states: per suit and slot state of this way, those
        # whose runs of that suit it joins; per jokers left here, those using no more; per
        # (tag vector bit, jokers left there), those holding it
        cols = [[0] * len(_SLOT_STATES) for _ in range(_FAMILIES)]
        by_slot: list[dict[int, int]] = [{} for _ in range(_FAMILIES)]
        self.jok = [0] * (J0 + 1)
        self.tagged: dict[tuple[int, int], int] = {}
        for i, (key, mask) in enumerate(other.items()):
            bit = 1 << i
            for f in range(_FAMILIES):
                by_slot[f][key[f]] = by_slot[f].get(key[f], 0) | bit
            for J in range(J0 - key[4], J0 + 1):
                self.jok[J] |= bit
            m = mask
            while m:
                low = m & -m
                m ^= low
                tb = (low.bit_length() - 1, key[4])
                self.tagged[tb] = self.tagged.get(tb, 0) | bit
        for f in range(_FAMILIES):
            for b, bits in by_slot[f].items():
                for a in _JOINS[5][b]:
                    cols[f][a] |= bits
        self.cols = cols
        self.compat: dict[tuple[int, int], int] = {}
        self.by_vec: dict[tuple[_TagVec, int], int] = {}

    def narrow(self, key: _SpotKey, mask: int, vecs: list[_TagVec]) -> int:
        """The tag vectors (bits of ``mask``, over ``vecs``) with which this way's state
        ``key`` at the cut joins some state of the other way's."""
        c0, c1, c2, c3 = self.cols
        cand = c0[key[0]] & c1[key[1]] & c2[key[2]] & c3[key[3]] & self.jok[key[4]]
        if not cand:
            return 0
        out = 0
        m = mask
        while m:
            low = m & -m
            m ^= low
            ck = (low.bit_length() - 1, key[4])
            got = self.compat.get(ck)
            if got is None:
                got = self.compat[ck] = self._compatible(vecs[ck[0]], key[4])
            if got & cand:
                out |= low
        return out

    def joins(self, key: _SpotKey, tv: _TagVec) -> bool:
        """Whether this way's state ``key`` at the cut with the tag vector ``tv`` (a state of
        the spot depth-first search) joins some state of the other way's."""
        c0, c1, c2, c3 = self.cols
        cand = c0[key[0]] & c1[key[1]] & c2[key[2]] & c3[key[3]] & self.jok[key[4]]
        if not cand:
            return False
        ck = (tv, key[4])
        got = self.by_vec.get(ck)
        if got is None:
            got = self.by_vec[ck] = self._compatible(tv, key[4])
        return bool(got & cand)

    def _compatible(self, tv: _TagVec, J: int) -> int:
        """The other way's states holding a tag vector whose spots, with this way's ``tv``,
        the aces and the jokers left (``J`` here and theirs) can fill."""
        out = 0
        for (b, Jo), bits in self.tagged.items():
            j = J + Jo - self.J0
            if j < 0:
                continue
            k = (tv, self.other_vecs[b], j)
            ok = self.ends.get(k)
            if ok is None:
                ok = self.ends[k] = _spots_fill(self.aces, tv, self.other_vecs[b], j)
            if ok:
                out |= bits
        return out


def _spots_fill(aces: list[int], low: _TagVec, high: _TagVec, J: int) -> bool:
    """Whether the aces of each suit, those not in groups of aces, and ``J`` jokers fill the
    spots of the tags ``low`` (below runs from 2) and ``high`` (above runs to 13): every
    mandatory spot, no more spots than there are, every joker placed (as :func:`_spot_end`)."""
    # per suit, the aces it may send to groups of aces (the rest fit its spots), each with the
    # jokers its mandatory spots then need and the room its spots leave
    per: list[list[tuple[int, int, int]]] = []
    for f in range(_FAMILIES):
        lo = low[f] // 5 + high[f] // 5
        hi = low[f] % 5 + high[f] % 5
        a = aces[f]
        opts = [(g, max(0, lo - a + g), hi - a + g) for g in range(max(0, a - hi), a + 1)]
        if not opts:
            return False
        per.append(opts)
    for g0, n0, r0 in per[0]:
        for g1, n1, r1 in per[1]:
            for g2, n2, r2 in per[2]:
                for g3, n3, r3 in per[3]:
                    need = n0 + n1 + n2 + n3
                    room = r0 + r1 + r2 + r3
                    for jg in _GROUP_JG[g0 + 3 * g1 + 9 * g2 + 27 * g3][J]:
                        if need <= J - jg <= room:
                            return True
    return False


def _spot_sweep_steps(
    heap: _Heap,
    deadline: Deadline | None = None,
    progress: list[int] | None = None,
    tail: list[list[dict[tuple[int, int, int, int, int], int]]] | None = None,
    view: _SpotView | None = None,
    other: list[_SpotView] | None = None,
) -> Generator[int, None, list[SplitMeld] | None]:
    """The spot sweep of an ace-high heap (see the section's comment): like
    :func:`_sweep_steps` (yields the state expansions so far, keeps ``progress`` at
    ``[number, states to expand there]``), over the numbers 2..13; returns the melds of a
    split, or ``None`` (no split). Once ``tail`` holds the states of a tail the other way
    (:func:`_sweep_steps` from 2 on the mirrored heap, laid to the end, each number's states),
    the new states at each number are only kept where one of its states can join them
    (:func:`_cross_masks`). The sweep shows its states in ``view`` as it goes; once
    ``other`` holds the view of the spot sweep the other way, the new states at a cut that
    sweep has reached (between :data:`_MEET_LOW` and :data:`_MEET_HIGH`) keep only the tag
    vectors with which they join one of its states there (:class:`_Meet`: exact, so the
    sweeps meeting in the middle answer where each alone would go on to the end). Each new
    state keeps only the tag vectors with which the suits' joker bounds sum to at most the
    jokers left: in half-jokers, groups charged (:meth:`_Spots.lb_half`), where some number
    charges them, else in jokers (from :data:`_TAG_AT` on); and, where some suit has aces,
    with which the aces' joint bound lets it through (:meth:`_Spots.joint_ok`, while it is
    asked: :data:`_JOINT_TRIAL`).

    Raises:
        TooComplexError: the deadline passed.
    """
    sp = heap.spots
    if sp is None:
        sp = heap.spots = _Spots(heap)
    J0 = sp.J0
    size = [sum(st) for st in _SLOT_STATES]
    downs = _DOWN_SELF
    _Key = tuple[int, int, int, int, int]
    vec_bit: dict[tuple[int, int, int, int], int] = {}
    if view is None:
        view = _SpotView()
    vecs = view.vecs  # bit 0: before the tags form
    ends: dict[tuple[_TagVec, _TagVec, int], bool] = {}  # the meetings' memo
    down: list[int] = [1]  # per bit, the bits its tag vector dominates (itself among them)
    lb = sp.lb
    filt_memo: dict[int, tuple[int, int, int]] = {}
    with_tag: list[dict[int, int]] = []

    def by_jokers(f: int, n: int, s: int) -> tuple[int, int, int]:
        """The tag vectors (bits) whose suit-``f`` bound from ``n`` is 0, 1 and 2 jokers."""
        key = (f << 4 | n) << _STATE_BITS | s
        got = filt_memo.get(key)
        if got is None:
            by_j = [0, 0, 0]
            for tag, bits in with_tag[f].items():
                j = lb(f, n, s, tag)
                if j <= J0:
                    by_j[j] |= bits
            got = filt_memo[key] = (by_j[0], by_j[1], by_j[2])
        return got

    def vfilter(n: int, key: _Key) -> int:
        """The tag vectors with which the state ``key`` (before ``n``) may still complete:
        the suits' bounds (:meth:`_Spots.lb`) sum to at most the jokers left."""
        base = n << _STATE_BITS
        get = filt_memo.get
        a0, a1, a2 = get(base | key[0]) or by_jokers(0, n, key[0])
        b0, b1, b2 = get(1 << 10 | base | key[1]) or by_jokers(1, n, key[1])
        c0, c1, c2 = get(2 << 10 | base | key[2]) or by_jokers(2, n, key[2])
        d0, d1, d2 = get(3 << 10 | base | key[3]) or by_jokers(3, n, key[3])
        J = key[4]
        x0 = a0 & b0
        y0 = c0 & d0
        if J == 0:
            return x0 & y0
        x1 = a1 & b0 | a0 & b1
        y1 = c1 & d0 | c0 & d1
        if J == 1:
            return x0 & (y0 | y1) | x1 & y0
        x2 = a2 & b0 | a1 & b1 | a0 & b2
        y2 = c2 & d0 | c1 & d1 | c0 & d2
        return x0 & (y0 | y1 | y2) | x1 & (y0 | y1) | x2 & y0

    half_memo: dict[int, tuple[int, int, int, int, int]] = {}

    def by_halves(f: int, n: int, s: int) -> tuple[int, int, int, int, int]:
        """The tag vectors (bits; all before :data:`_TAG_AT`) whose suit-``f`` bound in
        half-jokers (:meth:`_Spots.lb_half`) from ``n`` is 0 to 4."""
        key = (f << 4 | n) << _STATE_BITS | s
        got = half_memo.get(key)
        if got is None:
            by_h = [0, 0, 0, 0, 0]
            if n <= _TAG_AT:
                h = sp.lb_half(f, n, s, 0)
                if h <= 4:
                    by_h[h] = -1
            else:
                for tag, bits in with_tag[f].items():
                    h = sp.lb_half(f, n, s, tag)
                    if h <= 4:
                        by_h[h] |= bits
            got = half_memo[key] = (by_h[0], by_h[1], by_h[2], by_h[3], by_h[4])
        return got

    def hfilter(n: int, key: _Key, mask: int) -> int:
        """The tag vectors of ``mask`` with which the state ``key`` (before ``n``) may still
        complete by the bounds in half-jokers (:meth:`_Spots.lb_half`): the suits' bounds
        sum to at most twice the jokers left. It implies :func:`vfilter` (each suit's bound
        in half-jokers is at least twice its bound in jokers)."""
        top = 2 * key[4]
        a = by_halves(0, n, key[0])
        b = by_halves(1, n, key[1])
        c = by_halves(2, n, key[2])
        d = by_halves(3, n, key[3])
        # by the half-jokers the first two suits (x) and the last two (y) need
        x = [0] * (top + 1)
        y = [0] * (top + 1)
        for i in range(top + 1):
            ai = a[i] & mask
            ci = c[i]
            for j in range(top + 1 - i):
                if ai:
                    x[i + j] |= ai & b[j]
                if ci:
                    y[i + j] |= ci & d[j]
        out = 0
        for i in range(top + 1):
            if x[i]:
                for j in range(top + 1 - i):
                    out |= x[i] & y[j]
        return out

    fam_get = sp.fam_memo.get
    joint = sp.joint_ok
    no_tag: _TagVec = (0, 0, 0, 0)
    states: dict[_Key, int] = {(0, 0, 0, 0, J0): 1}
    covers: dict[int, int] = {1: 1}  # per mask, the tag vectors it covers
    history = view.history
    expansions = 0
    cut_short = False  # the sweep goes on from one state in a split (it met the other way)
    for n in range(2, 14):
        at_tag = n == _TAG_AT
        children: dict[_Key, int] = {}
        history[n] = states
        view.at = n
        if not cut_short:
            view.whole = n
        if progress is not None:
            progress[:] = [n, len(states)]
        todo = list(states.items())
        # the numbers the spot sweep the other way must reach to meet this one before n, and
        # after n (then each new state after n that joins one of its states is in a split)
        meet_at = 16 - n if other and _MEET_LOW < n <= _MEET_HIGH + 1 else 0
        probe_at = 15 - n if other and _MEET_LOW <= n <= _MEET_HIGH else 0
        probe: _Meet | None = None
        fresh: list[_Key] = []  # the states after n the last state expanded gave new vectors
        i = 0
        while i < len(todo):
            expansions += 1
            if deadline is not None:
                if expansions % _CHECK_EVERY == 1:
                    deadline.check()
                deadline.expansions += 1
            yield expansions
            if other and probe_at and probe is None and other[0].at >= probe_at:
                there = other[0]
                probe = _Meet(there.history[probe_at], there.vecs, sp.aces, J0, ends)
                fresh = list(children)  # those made before the probe too
            if probe is not None:
                hit = next(
                    ((ck, m) for ck in fresh if (m := probe.narrow(ck, children[ck], vecs))), None
                )
                if hit is not None:
                    # a state after n in a split: the sweep goes on from it alone
                    children = {hit[0]: hit[1]}
                    cut_short = True
                    break
            fresh.clear()
            if meet_at and other and other[0].at >= meet_at:
                # the other way has laid 13 down to n: a state here that joins one of its
                # states there is in a split, one that joins none is in none (the join is
                # exact), so the sweep goes on from the first that joins, if any
                there = other[0]
                meet = _Meet(there.history[meet_at], there.vecs, sp.aces, J0, ends)
                narrowed = ((k, meet.narrow(k, m, vecs)) for k, m in todo[i:])
                todo[i:] = next(([(k, m)] for k, m in narrowed if m), [])
                meet_at = 0
                cut_short = True
                if progress is not None:
                    progress[1] = len(todo) - i
                if i == len(todo):
                    break
            key, mask = todo[i]
            i += 1
            J = key[4]
            nj = n << _STATE_BITS + 2 | J  # options' memo key: ((f << 4 | n) << 6 | s) << 2 | J
            o0 = fam_get(nj | key[0] << 2) or sp.options(0, n, key[0], J)
            o1 = fam_get(1 << 12 | nj | key[1] << 2) or sp.options(1, n, key[1], J)
            o2 = fam_get(2 << 12 | nj | key[2] << 2) or sp.options(2, n, key[2], J)
            o3 = fam_get(3 << 12 | nj | key[3] << 2) or sp.options(3, n, key[3], J)
            for g0, b0, l0 in o0:
                for g1, b1, l1 in o1:
                    y1 = b0 + b1
                    if y1 > J:
                        break
                    for g2, b2, l2 in o2:
                        y2 = y1 + b2
                        if y2 > J:
                            break
                        for g3, b3, l3 in o3:
                            y3 = y2 + b3
                            if y3 > J:
                                break
                            row = _GROUP_JG[g0 + 3 * g1 + 9 * g2 + 27 * g3]
                            if not row[J - y3]:
                                continue  # no groups of these pieces with the jokers left
                            for c0, s0, j0, _m0, t0 in l0:
                                if c0 > J:
                                    break
                                for c1, s1, j1, _m1, t1 in l1:
                                    x1 = c0 + c1
                                    if x1 > J:
                                        break
                                    for c2, s2, j2, _m2, t2 in l2:
                                        x2 = x1 + c2
                                        if x2 > J:
                                            break
                                        for c3, s3, j3, _m3, t3 in l3:
                                            x3 = x2 + c3
                                            if x3 > J:
                                                break
                                            used = j0 + j1 + j2 + j3
                                            if at_tag:
                                                tv = (t0, t1, t2, t3)
                                                b = vec_bit.get(tv)
                                                if b is None:
                                                    b = vec_bit[tv] = len(vecs)
                                                    vecs.append(tv)
                                                cm = 1 << b
                                            else:
                                                cm = mask
                                            for jg in row[J - x3]:
                                                ck = (s0, s1, s2, s3, J - used - jg)
                                                old = children.get(ck, 0)
                                                if cm & ~old:
                                                    children[ck] = old | cm
                                                    fresh.append(ck)
        if at_tag:
            # the tag vectors are all known now: per suit and tag the vectors holding it (for
            # the filter), and per vector those it dominates (suit by suit: its tag dominates)
            for f in range(_FAMILIES):
                per: dict[int, int] = {}
                for b in range(1, len(vecs)):
                    per[vecs[b][f]] = per.get(vecs[b][f], 0) | 1 << b
                with_tag.append(per)
            under = [
                {
                    t: sum(bits for u, bits in with_tag[f].items() if _TAG_DOM[u][t])
                    for t in with_tag[f]
                }
                for f in range(_FAMILIES)
            ]
            down = [0] + [
                under[0][tv[0]] & under[1][tv[1]] & under[2][tv[2]] & under[3][tv[3]]
                for tv in vecs[1:]
            ]
        order = sorted(
            children.items(),
            key=lambda e: -(size[e[0][0]] + size[e[0][1]] + size[e[0][2]] + size[e[0][3]]),
        )
        kept_masks: list[int] = []
        by_j = [0] * (J0 + 1)
        doms0, doms1, doms2, doms3 = ([0] * len(_SLOT_STATES) for _ in range(_FAMILIES))
        states = {}
        # the tail the other way: its states above the cut before n + 1 (at 16 - (n + 1))
        cut = _cross_masks(tail[0][15 - n], n + 1, J0) if tail and n < 13 else None
        for ck, cm in order:
            if cut is not None and not (
                cut[0][ck[0]] & cut[1][ck[1]] & cut[2][ck[2]] & cut[3][ck[3]] & cut[4][ck[4]]
            ):
                continue  # no state of the tail joins it
            x = by_j[ck[4]] & doms0[ck[0]] & doms1[ck[1]] & doms2[ck[2]] & doms3[ck[3]]
            while x and cm:
                low = x & -x
                x ^= low
                cm &= ~kept_masks[low.bit_length() - 1]
            if not cm:
                continue
            if sp.halves:
                cm = hfilter(n + 1, ck, cm)
                if not cm:
                    continue
            elif n >= _TAG_AT:
                cm &= vfilter(n + 1, ck)
                if not cm:
                    continue
            # the aces of all suits together (:meth:`_Spots.joint_ok`), per tag vector
            if not sp.joint_on:
                pass
            elif n < _TAG_AT:
                if not joint(n + 1, ck, no_tag):
                    continue
            else:
                m = cm
                while m:
                    low = m & -m
                    m ^= low
                    if not joint(n + 1, ck, vecs[low.bit_length() - 1]):
                        cm ^= low
                if not cm:
                    continue
            # what this state covers: its tag vectors and those they dominate
            cover = covers.get(cm)
            if cover is None:
                cover = 0
                m = cm
                while m:
                    low = m & -m
                    m ^= low
                    cover |= down[low.bit_length() - 1]
                covers[cm] = cover
            bit_i = 1 << len(kept_masks)
            kept_masks.append(cover)
            by_j[ck[4]] |= bit_i
            for w in downs[ck[0]]:
                doms0[w] |= bit_i
            for w in downs[ck[1]]:
                doms1[w] |= bit_i
            for w in downs[ck[2]]:
                doms2[w] |= bit_i
            for w in downs[ck[3]]:
                doms3[w] |= bit_i
            states[ck] = cm
        if not states:
            return None
    # after 13: the aces and jokers left in the spots and groups of aces
    for key, mask in states.items():
        m = mask
        while m:
            low = m & -m
            m ^= low
            tv = vecs[low.bit_length() - 1]
            end = _spot_end(sp, key, tv)
            if end is not None:
                return _spot_build(heap, history, key, low, vecs, end)
    return None


_SpotEnd = tuple[tuple[int, ...], int, tuple[int, ...]]
"""How a spot sweep ends: (aces of each suit in groups of aces, jokers in them, jokers in each
suit's spots)."""


def _spot_end(
    sp: _Spots, key: tuple[int, int, int, int, int], tv: tuple[int, int, int, int]
) -> _SpotEnd | None:
    """Whether the state ``key`` after 13 with tag vector ``tv`` splits: the aces of each
    suit not in groups of aces fill its spots with the jokers left (every mandatory spot, no
    more than all of them), and the groups of aces can be made; how, or ``None``."""
    J = key[4]
    lo: list[int] = []
    hi: list[int] = []
    for f in range(_FAMILIES):
        s = key[f]
        if _ONES[s]:
            return None
        lo.append(tv[f] // 5 + _TWOS[s])
        hi.append(tv[f] % 5 + _TWOS[s] + _THREES[s])
    aces = sp.aces
    for g in product(*(range(a + 1) for a in aces)):
        a = [aces[f] - g[f] for f in range(_FAMILIES)]
        if any(a[f] > hi[f] for f in range(_FAMILIES)):
            continue
        need = [max(0, lo[f] - a[f]) for f in range(_FAMILIES)]
        room = [hi[f] - a[f] for f in range(_FAMILIES)]
        for jg in _GROUP_JG[g[0] + 3 * g[1] + 9 * g[2] + 27 * g[3]][J]:
            rest = J - jg - sum(need)
            if rest < 0 or rest > sum(room) - sum(need):
                continue
            jx = list(need)
            for f in range(_FAMILIES):
                more = min(rest, room[f] - jx[f])
                jx[f] += more
                rest -= more
            return tuple(g), jg, tuple(jx)
    return None


def _spot_way_back(
    sp: _Spots,
    history: list[dict[tuple[int, int, int, int, int], int]],
    n: int,
    key: tuple[int, int, int, int, int],
    bit: int,
    tv: tuple[int, int, int, int],
) -> tuple[tuple[int, int, int, int, int], _SpotChoice]:
    """A state expanded at ``n`` and the choice there that leads to ``key`` with tag vector
    bit ``bit`` (``tv``): the expansion again, each suit's options first narrowed to those
    reaching ``key``'s slot state (and, at :data:`_TAG_AT`, the tag of ``tv``)."""
    for pkey, mask in history[n].items():
        if n > _TAG_AT and not mask & bit:
            continue
        J = pkey[4]
        per_suit: list[list[tuple[int, _SpotOpt]]] = []
        for f in range(_FAMILIES):
            hits = [
                (g, o)
                for g, _b, lst in sp.options(f, n, pkey[f], J)
                for o in lst
                if o[1] == key[f] and (n != _TAG_AT or o[4] == tv[f])
            ]
            if not hits:
                break
            per_suit.append(hits)
        else:
            for (g0, o0), (g1, o1), (g2, o2), (g3, o3) in product(*per_suit):
                x3 = o0[0] + o1[0] + o2[0] + o3[0]
                if x3 > J:
                    continue
                used = o0[2] + o1[2] + o2[2] + o3[2]
                for jg in _GROUP_JG[g0 + 3 * g1 + 9 * g2 + 27 * g3][J - x3]:
                    if J - used - jg == key[4]:
                        moves = (o0[3], o1[3], o2[3], o3[3])
                        stops = (o0[4] // 5, o1[4] // 5, o2[4] // 5, o3[4] // 5)
                        return pkey, (n, moves, stops, jg)
    raise RuntimeError("split spot sweep lost its way back")


def _spot_build(
    heap: _Heap,
    history: list[dict[tuple[int, int, int, int, int], int]],
    key: tuple[int, int, int, int, int],
    bit: int,
    vecs: list[tuple[int, int, int, int]],
    end: _SpotEnd,
) -> list[SplitMeld]:
    """The melds of the split the spot sweep found (state ``key`` after 13, tag vector bit
    ``bit``, ending ``end``)."""
    sp = heap.spots
    assert sp is not None
    tv = vecs[bit.bit_length() - 1]
    path: list[_SpotChoice] = []
    for n in range(13, 1, -1):
        key, choice = _spot_way_back(sp, history, n, key, bit, tv)
        path.append(choice)
    path.reverse()
    pool = [[list(cell) for cell in fam] for fam in heap.pool]
    open_runs: list[list[list[_Entry]]] = [[] for _ in range(_FAMILIES)]
    runs: list[list[_Entry]] = []
    groups: list[list[_Entry]] = []
    # per suit: the runs whose spot below must be filled, and those whose spot may be
    must_low: list[list[list[_Entry]]] = [[] for _ in range(_FAMILIES)]
    may_low: list[list[list[_Entry]]] = [[] for _ in range(_FAMILIES)]
    for n, fam_moves, stops, jg in path:
        group_pieces: list[_Entry] = []
        for f, mv in enumerate(fam_moves):
            cell = pool[f][n]
            current = sorted(open_runs[f], key=len)
            if n == _TAG_AT:
                # every run of length 2 started at 2: stop some (a mandatory spot below),
                # the others go on (an optional one)
                twos = [r for r in current if len(r) == 2]
                stopped = twos[: stops[f]]
                must_low[f].extend(stopped)
                runs.extend(stopped)
                may_low[f].extend(twos[stops[f] :])
                current = [r for r in current if all(r is not q for q in stopped)]
            short = [r for r in current if len(r) < 3]
            long_ = [r for r in current if len(r) >= 3]
            x = mv[_X]
            cont = short + long_[:x]
            runs.extend(long_[x:])
            places = cont + [[] for _ in range(mv[_S])]
            jr = mv[_JR]
            for i, run in enumerate(places):
                if i >= len(places) - jr:
                    run.append((JOKER, n, f))
                else:
                    run.append((cell.pop(), n, f))
            open_runs[f] = places
            if len(cell) != mv[_G]:
                raise RuntimeError("split reconstruction lost track of pieces")
            group_pieces.extend((p, n, f) for p in cell)
            cell.clear()
        if group_pieces or jg:
            groups.extend(_deal_groups(group_pieces, jg, n))
    # after 13: the runs still open have their spot above (length 2: mandatory)
    in_groups, jg1, jx = end
    ace_groups: list[_Entry] = []
    for f in range(_FAMILIES):
        aces = pool[f][1]
        ace_groups.extend((aces.pop(), 1, f) for _ in range(in_groups[f]))
        left = open_runs[f]
        if any(len(r) < 2 for r in left):
            raise RuntimeError("split spot sweep left a run too short")
        must = [(r, "low") for r in must_low[f]] + [(r, "high") for r in left if len(r) == 2]
        may = [(r, "low") for r in may_low[f]] + [(r, "high") for r in left if len(r) >= 3]
        fillers: list[Piece] = [aces.pop() for _ in range(len(aces))] + [JOKER] * jx[f]
        spots = must + may
        if not len(must) <= len(fillers) <= len(spots):
            raise RuntimeError("split spot sweep miscounted the spots")
        for (run, side), piece in zip(spots, fillers, strict=False):
            if side == "low":
                run.insert(0, (piece, 1, f))
            else:
                run.append((piece, 14, f))
        runs.extend(left)
    if ace_groups or jg1:
        groups.extend(_deal_groups(ace_groups, jg1, 1))
    return _melds_of(heap, runs, groups, [])


def _spot_children(
    sp: _Spots, n: int, key: tuple[int, int, int, int, int], cost: int
) -> dict[tuple[int, int, int, int, int], list[tuple[int, int, int, int]]]:
    """The states after ``n`` that the state ``key`` (before ``n``) leads to in the spot
    sweep by the choices whose jokers, with the suits' bounds after them (:meth:`_Spots.options`)
    and the group jokers, come to exactly ``cost``; each with its tag vectors (at
    :data:`_TAG_AT` the tags the choice gives, else one empty vector), in the sweep's order
    (cheapest options first). Every state after ``n`` comes at one cost only (its jokers left
    and the suits' bounds fix the cost), so the depth-first search builds the children of a
    state cost by cost, cheapest first, as it needs them."""
    J = key[4]
    out: dict[tuple[int, int, int, int, int], list[tuple[int, int, int, int]]] = {}
    per = [sp.options(f, n, key[f], J) for f in range(_FAMILIES)]
    no_tag = (0, 0, 0, 0)
    at_tag = n == _TAG_AT
    # the options are cheapest first: a loop stops where the cheapest of the rest cannot fit
    for g0, b0, l0 in per[0]:
        for g1, b1, l1 in per[1]:
            if b0 + b1 > cost:
                break
            for g2, b2, l2 in per[2]:
                if b0 + b1 + b2 > cost:
                    break
                for g3, b3, l3 in per[3]:
                    if b0 + b1 + b2 + b3 > cost:
                        break
                    row = _GROUP_JG[g0 + 3 * g1 + 9 * g2 + 27 * g3]
                    if not row[J - b0 - b1 - b2 - b3]:
                        continue  # no groups of these pieces with the jokers left
                    for c0, s0, j0, _m0, t0 in l0:
                        if c0 + b1 + b2 + b3 > cost:
                            break
                        for c1, s1, j1, _m1, t1 in l1:
                            x1 = c0 + c1
                            if x1 + b2 + b3 > cost:
                                break
                            for c2, s2, j2, _m2, t2 in l2:
                                x2 = x1 + c2
                                if x2 + b3 > cost:
                                    break
                                for c3, s3, j3, _m3, t3 in l3:
                                    x3 = x2 + c3
                                    if x3 > cost:
                                        break
                                    jg = cost - x3
                                    if jg not in row[J - x3]:
                                        continue
                                    ck = (s0, s1, s2, s3, J - j0 - j1 - j2 - j3 - jg)
                                    tv = (t0, t1, t2, t3) if at_tag else no_tag
                                    tvs = out.setdefault(ck, [])
                                    if tv not in tvs:
                                        tvs.append(tv)
    return out


_SIZE: Final = tuple(sum(st) for st in _SLOT_STATES)
"""Per slot state, the lengths of its open runs summed (3 for three or more)."""


class _DfsFailed:
    """States of the spot depth-first search known to fail, with dominance: a state is known
    to fail when one that failed at the same number with the same jokers left dominates it,
    suit by suit in its slot state (:data:`_DOMINATED_BY`) and its tag (:data:`_TAG_DOM`):
    whatever completes the state completes the one that failed (the sweep's dominance, see
    :func:`_spot_sweep_steps`).

    Kept per (number, jokers left) and tag vector: per suit and slot state, the failed states
    (bits) whose slot state of that suit dominates it (:data:`_DOWN_SELF`). Shared by the
    searches of one heap way in every order (a state fails whatever the order)."""

    def __init__(self) -> None:
        self.by: dict[int, dict[_TagVec, list[list[int]]]] = {}
        """Per ``n << 2 | jokers left``, per tag vector: the four suits' columns and, last,
        ``[how many states]``."""
        self.doms: dict[tuple[_TagVec, _TagVec], bool] = {}
        """Whether the first tag vector is dominated by the second, suit by suit (memo)."""
        self.size = 0
        """How many states were recorded."""

    def __len__(self) -> int:
        return self.size

    def copy(self) -> _DfsFailed:
        """An independent copy (the same states known to fail)."""
        out = _DfsFailed()
        out.by = {
            k: {tv: [list(col) for col in cols] for tv, cols in per.items()}
            for k, per in self.by.items()
        }
        out.size = self.size
        return out

    def add(self, n: int, key: _SpotKey, tv: _TagVec) -> None:
        """Record that the state ``key`` before ``n`` with the tag vector ``tv`` fails."""
        per = self.by.setdefault(n << 2 | key[4], {})
        cols = per.get(tv)
        if cols is None:
            cols = per[tv] = [[0] * len(_SLOT_STATES) for _ in range(_FAMILIES)] + [[0]]
        bit = 1 << cols[_FAMILIES][0]
        cols[_FAMILIES][0] += 1
        self.size += 1
        for f in range(_FAMILIES):
            col = cols[f]
            for a in _DOWN_SELF[key[f]]:
                col[a] |= bit

    def fails(self, n: int, key: _SpotKey, tv: _TagVec) -> bool:
        """Whether the state ``key`` before ``n`` with the tag vector ``tv`` is known to fail
        (it, or a state dominating it, failed)."""
        per = self.by.get(n << 2 | key[4])
        if per is None:
            return False
        k0, k1, k2, k3 = key[0], key[1], key[2], key[3]
        for tv2, cols in per.items():
            if tv2 != tv:
                d = self.doms.get((tv, tv2))
                if d is None:
                    d = self.doms[tv, tv2] = all(_TAG_DOM[tv[f]][tv2[f]] for f in range(_FAMILIES))
                if not d:
                    continue
            if cols[0][k0] & cols[1][k1] & cols[2][k2] & cols[3][k3]:
                return True
        return False


class _DfsMeets:
    """The spot depth-first searches of one way meeting the spot sweep the other way
    (:func:`_spot_dfs_steps`): its view and the meetings at each cut it has laid whole
    (:class:`_Meet`, built once and shared by the searches of every order)."""

    def __init__(self, other: _SpotView) -> None:
        self.other = other
        self.at_cut: dict[int, _Meet] = {}
        self.ends: dict[tuple[_TagVec, _TagVec, int], bool] = {}

    def meet(self, sp: _Spots, n: int) -> _Meet | None:
        """The meeting for this way's states before ``n``, once the other way has laid 13
        down to ``n`` with every state it kept (between :data:`_MEET_LOW` and
        :data:`_MEET_HIGH`, as :func:`_spot_sweep_steps`), else ``None``."""
        cut = 16 - n
        if not _MEET_LOW < n <= _MEET_HIGH + 1 or self.other.whole < cut:
            return None
        got = self.at_cut.get(cut)
        if got is None:
            there = self.other
            got = self.at_cut[cut] = _Meet(
                there.history[cut], there.vecs, sp.aces, sp.J0, self.ends
            )
        return got


def _spot_dfs_steps(
    heap: _Heap,
    deadline: Deadline | None = None,
    order: int = 0,
    failed: _DfsFailed | None = None,
    meets: _DfsMeets | None = None,
) -> Generator[int, None, list[SplitMeld] | None]:
    """The spot sweep's states (see :func:`_spot_sweep_steps`) searched depth first, each
    state with one tag vector, the suits' joker bounds (:meth:`_Spots.lb`) pruning (a state
    the aces' joint bound rules out, :meth:`_Spots.joint_ok`, or where it is not asked
    (:data:`_JOINT_TRIAL`) the bound in half-jokers, :meth:`_Spots.lb_half`, fails at once),
    the states found to fail remembered with dominance (:class:`_DfsFailed`: a state
    dominated by one that failed fails too); the children with the most jokers to spare over
    their bounds first, then, by ``order``: 0 those with the most open-run length (:data:`_SIZE`), 1
    the least, from 2 on in an order shuffled by a generator seeded with ``order`` (the same
    at every call). On the hill-climbed heaps that split, the states one order needs range
    from 12 to thousands, and which order wins varies (:func:`_spot_dfs_restarts` runs many).
    A quick "yes"; exact, but slow to say "no". ``failed`` shares the
    states found to fail between searches of the same heap in other orders (a state fails
    whatever the order: every way on from it was tried). With ``meets``, a state at a cut
    that the spot sweep the other way has laid whole is joined with that sweep's states there
    (:class:`_Meet`, exact): one that joins none fails at once, so the search, where it dives
    past the middle, meets the other way instead of laying the rest. Yields the state
    expansions so far; returns the melds of a split, or ``None``.

    Raises:
        TooComplexError: the deadline passed.
    """
    sp = heap.spots
    if sp is None:
        sp = heap.spots = _Spots(heap)
    lb = sp.lb
    lbh = sp.lb_half
    halves = sp.halves
    size = _SIZE
    _Key = tuple[int, int, int, int, int]
    _Tv = tuple[int, int, int, int]
    if failed is None:
        failed = _DfsFailed()
    fails = failed.fails
    tie = random.Random(order).random if order >= 2 else None
    runs_sign = 1 if order == 1 else -1
    path: list[tuple[_Key, _Tv]] = []  # the states of the current line, from 2
    expansions = 0
    kids = sp.dfs_kids

    def visit(n: int, key: _Key, tv: _Tv) -> Generator[int, None, _SpotEnd | None]:
        nonlocal expansions
        if n > 13:
            return _spot_end(sp, key, tv)
        if sp.joint_on:
            if not sp.joint_ok(n, key, tv):
                return None  # the bound in half-jokers rules it out (:meth:`_Spots.joint_ok`)
        elif halves and (
            lbh(0, n, key[0], tv[0])
            + lbh(1, n, key[1], tv[1])
            + lbh(2, n, key[2], tv[2])
            + lbh(3, n, key[3], tv[3])
            > 2 * key[4]
        ):
            return None  # the bound in half-jokers rules it out (:meth:`_Spots.lb_half`)
        if meets is not None:
            meet = meets.meet(sp, n)
            if meet is not None and not meet.joins(key, tv):
                return None  # joins no state of the other way there: in no split
        expansions += 1
        if deadline is not None:
            if expansions % _CHECK_EVERY == 1:
                deadline.check()
            deadline.expansions += 1
        yield expansions
        J = key[4]
        got = kids.get((n, key, tv))
        if got is None:
            got = kids[n, key, tv] = ([0], [[] for _ in range(J + 1)])
        built, by_slack = got
        # the children with the most jokers to spare first: those with ``slack`` to spare
        # come at a cost of at most J - slack (the options' bounds take the suits' best tags
        # after :data:`_TAG_AT`; the child's own tags may need more), so the children are
        # built cost by cost, as far as each level needs
        for slack in range(J, -1, -1):
            while built[0] <= J - slack:
                cost = built[0]
                built[0] += 1
                for ck, tvs in _spot_children(sp, n, key, cost).items():
                    runs = size[ck[0]] + size[ck[1]] + size[ck[2]] + size[ck[3]]
                    if n < _TAG_AT or n == _TAG_AT:
                        # the bounds after n do not depend on the tags yet, or take the
                        # choice's own: the cost is exact
                        for tv2 in tvs if n == _TAG_AT else (tv,):
                            by_slack[J - cost].append((runs, ck, tv2))
                        continue
                    left = ck[4] - (
                        lb(0, n + 1, ck[0], tv[0])
                        + lb(1, n + 1, ck[1], tv[1])
                        + lb(2, n + 1, ck[2], tv[2])
                        + lb(3, n + 1, ck[3], tv[3])
                    )
                    if left >= 0:
                        by_slack[left].append((runs, ck, tv))
            line: list[tuple[float, _Key, _Tv]] = [
                (runs_sign * runs if tie is None else tie(), ck, tv2)
                for runs, ck, tv2 in by_slack[slack]
                if not fails(n + 1, ck, tv2)
            ]
            line.sort(key=lambda e: e[0])
            for _o, ck, tv2 in line:
                if fails(n + 1, ck, tv2):
                    continue
                path.append((ck, tv2))
                end = yield from visit(n + 1, ck, tv2)
                if end is not None:
                    return end
                path.pop()
                failed.add(n + 1, ck, tv2)
        return None

    tv0: _Tv = (0, 0, 0, 0)
    path.append(((0, 0, 0, 0, sp.J0), tv0))
    end = yield from visit(2, path[0][0], tv0)
    if end is None:
        return None
    # the line as the sweep's history: one state per number, each with the final tag vector
    # (bit 1 of the vectors [none, final])
    history: list[dict[_Key, int]] = [{} for _ in range(15)]
    for i, (k, _tv) in enumerate(path[:-1]):
        history[2 + i] = {k: 2}
    final, tv_end = path[-1]
    return _spot_build(heap, history, final, 2, [tv0, tv_end], end)


def _luby(i: int) -> int:
    """The ``i``-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...: the
    restart lengths that lose at most a logarithmic factor against the best fixed length
    when the time a search needs is unknown (Luby, Sinclair and Zuckerman, 1993)."""
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


def _spot_dfs_restarts(
    dirs: tuple[_Heap, _Heap],
    deadline: Deadline | None = None,
    others: tuple[_SpotView, _SpotView] | None = None,
) -> Generator[int, None, list[SplitMeld] | None]:
    """The spot depth-first searches (:func:`_spot_dfs_steps`) on the heap from 2 up and from
    13 down (``dirs``: the heap and its mirror), in turns: the ``i``-th turn of each way runs
    a new search in order ``i - 1`` (0 and 1 fixed, then shuffled) for :data:`_DFS_UNIT`
    times :func:`_luby` ``(i)`` state expansions (the last of them laid out too: a search
    that finds its split at its last state answers rather than being cut just before), the
    searches of one way sharing the states found to fail, with dominance (:class:`_DfsFailed`;
    so a restart does not search them again). How many states one order needs
    to find a split varies widely from heap to heap and order to order (on 32 hill-climbed
    heaps that split: from 12 to over 3,000), so many short searches beat a few long ones.
    Exact: a split found is a split, and a search that ends without one has tried everything
    (the turns grow without end). With ``others`` (per way, the view of the spot sweep the
    other way) each way's searches meet that sweep wherever it has got to (:class:`_DfsMeets`).
    Yields the state expansions so far; returns the melds of a split, or ``None``.

    Raises:
        TooComplexError: the deadline passed.
    """
    fails: tuple[_DfsFailed, _DfsFailed] = (_DfsFailed(), _DfsFailed())
    meets = [None, None] if others is None else [_DfsMeets(v) for v in others]
    done = 0
    i = 1
    while True:
        cut = _DFS_UNIT * _luby(i)
        for way in (0, 1):
            steps = _spot_dfs_steps(dirs[way], deadline, i - 1, fails[way], meets[way])
            start = done
            try:
                while done - start <= cut:  # the step after the last state answers
                    next(steps)
                    done += 1
                    yield done
            except StopIteration as end:
                got: list[SplitMeld] | None = end.value
                return got
            steps.close()
        i += 1


class _SpotRunner:
    """:func:`_spot_sweep_steps` (with ``depth_first``, :func:`_spot_dfs_steps`; or the
    ``steps`` given, such as :func:`_spot_dfs_restarts`) as a resumable runner like
    :class:`_SweepRunner`: ``run(budget)`` gives the melds, :data:`_NO_SPLIT`, or raises
    :class:`_OutOfBudget` after ``budget`` more state expansions; once it has answered it
    gives the same answer again."""

    def __init__(
        self,
        heap: _Heap,
        deadline: Deadline | None,
        depth_first: bool = False,
        order: int = 0,
        failed: _DfsFailed | None = None,
        steps: Generator[int, None, list[SplitMeld] | None] | None = None,
    ) -> None:
        self.tail: list[list[dict[tuple[int, int, int, int, int], int]]] = []
        """Once set (:meth:`filter_by`), the states of a tail the other way."""
        self.progress = [0, 1]
        """The number the sweep is at and how many states it expands there."""
        self.view = _SpotView()
        """What the spot sweep shows of itself to the one the other way."""
        self.other: list[_SpotView] = []
        """Once set (:meth:`meet`), the view of the spot sweep the other way."""
        if steps is not None:
            self.steps = steps
        elif depth_first:
            self.steps = _spot_dfs_steps(heap, deadline, order, failed)
        else:
            self.steps = _spot_sweep_steps(
                heap, deadline, self.progress, self.tail, self.view, self.other
            )
        self.done = 0
        self.answer: list[SplitMeld] | str | None = None

    def meet(self, other: _SpotRunner) -> None:
        """Join this spot sweep's states with those of ``other``, the spot sweep the other
        way, at every cut it has reached (see :func:`_spot_sweep_steps`)."""
        self.other[:] = [other.view]

    def filter_by(self, tail: list[dict[tuple[int, int, int, int, int], int]]) -> None:
        """From the next number on, keep only the states that a state of ``tail`` (the states
        of a tail the other way, laid to the end, by number) can join (spot sweep only)."""
        self.tail[:] = [tail]

    def __call__(self, budget: int) -> list[SplitMeld] | str:
        if self.answer is not None:
            return self.answer
        limit = self.done + budget
        try:
            while True:
                self.done = next(self.steps)
                if self.done >= limit:
                    raise _OutOfBudget
        except StopIteration as end:
            got: list[SplitMeld] | None = end.value
            self.answer = _NO_SPLIT if got is None else got
            return self.answer


# --------------------------------------------------------------------------------------------
# Reconstruction and checking

_Entry = tuple[Piece, int, int]
"""A placed piece: (piece, number it stands at 1..14, family index)."""


def _build(heap: _Heap, path: list[_Choice]) -> list[SplitMeld]:
    pool = [[list(cell) for cell in fam] for fam in heap.pool]
    open_runs: list[list[list[_Entry]]] = [[] for _ in range(_FAMILIES)]
    runs: list[list[_Entry]] = []
    groups: list[list[_Entry]] = []
    pair_melds: list[list[_Entry]] = []
    for n, fam_moves, _kept, jg in path:
        cell_n = 1 if n == 14 else n
        group_pieces: list[_Entry] = []
        for f, mv in enumerate(fam_moves):
            cell = pool[f][cell_n]
            if n == 1 and heap.rules.ace_high:
                # the aces kept back stay in the pool for number 14
                take = len(cell) - _kept[f]
                here, pool[f][1] = cell[:take], cell[take:]
                cell = here
            # open runs of this family, shortest first: lengths 1-2 continue, then x of the rest
            current = sorted(open_runs[f], key=len)
            short = [r for r in current if len(r) < 3]
            long_ = [r for r in current if len(r) >= 3]
            x = mv[_X]
            cont = short + long_[:x]
            runs.extend(long_[x:])
            fresh: list[list[_Entry]] = [[] for _ in range(mv[_S])]
            places = cont + fresh
            jr = mv[_JR]
            # jokers go to the new runs first (they start them), then to continuing runs
            joker_places = set(range(len(places) - jr, len(places)))
            for i, run in enumerate(places):
                if i in joker_places:
                    run.append((JOKER, n, f))
                else:
                    run.append((cell.pop(), n, f))
            open_runs[f] = places
            for _ in range(mv[_P2]):
                a, b = cell.pop(), cell.pop()
                pair_melds.append([(a, n, f), (b, n, f)])
            for _ in range(mv[_P1]):
                pair_melds.append([(cell.pop(), n, f), (JOKER, n, f)])
            if len(cell) != mv[_G]:
                raise RuntimeError("split reconstruction lost track of pieces")
            group_pieces.extend((p, n, f) for p in cell)
            cell.clear()
        if group_pieces or jg:
            groups.extend(_deal_groups(group_pieces, jg, n))
    for f in range(_FAMILIES):
        runs.extend(open_runs[f])
    return _melds_of(heap, runs, groups, pair_melds)


def _melds_of(
    heap: _Heap,
    runs: list[list[_Entry]],
    groups: list[list[_Entry]],
    pair_melds: list[list[_Entry]],
) -> list[SplitMeld]:
    """The melds of placed pieces (numbers as the search saw them: mirrored back here),
    runs too long cut in two, in output order."""
    material = heap.rules.material
    if heap.mirror:
        # back to the real numbers: the search ran from the top down
        top = heap.last + 1

        def back(entries: list[_Entry]) -> list[_Entry]:
            return [(p, top - n, f) for p, n, f in entries]

        runs = [back(r)[::-1] for r in runs]
        groups = [back(g) for g in groups]
        pair_melds = [back(pr) for pr in pair_melds]
    melds: list[SplitMeld] = []
    for run in runs:
        for part in _cut_run(run, heap.rules.max_run):
            melds.append(_run_meld(part, material))
    for grp in groups:
        melds.append(_group_meld(grp, material))
    for pr in pair_melds:
        melds.append(_pair_meld(pr, material))
    melds.sort(key=_meld_order)
    return melds


def _deal_groups(pieces: list[_Entry], jokers: int, n: int) -> list[list[_Entry]]:
    """Deal the pieces of one number (sorted by family) and ``jokers`` round-robin into ``k``
    groups; same-family pieces are adjacent and at most ``k`` of a family, so no group gets a
    family twice, and sizes differ by at most one, so each holds 3–4."""
    total = len(pieces) + jokers
    counts = [sum(1 for e in pieces if e[2] == f) for f in range(_FAMILIES)]
    k = next(k for k in range(1, total // 3 + 1) if max(counts) <= k and 3 * k <= total <= 4 * k)
    items = sorted(pieces, key=lambda e: e[2]) + [(JOKER, n, -1)] * jokers
    out: list[list[_Entry]] = [[] for _ in range(k)]
    for i, e in enumerate(items):
        out[i % k].append(e)
    return out


def _cut_run(run: list[_Entry], max_run: int) -> list[list[_Entry]]:
    """A run longer than ``max_run`` (only possible A..K..A with the ace high) cut in two."""
    if len(run) <= max_run:
        return [run]
    return [run[:3], run[3:]]


def _stands_for(number: int, family: int, material: Literal["tiles", "cards"]) -> str:
    return str(make_piece(material, 1 if number == 14 else number, family))


def _run_meld(run: list[_Entry], material: Literal["tiles", "cards"]) -> SplitMeld:
    return SplitMeld(
        "run",
        tuple(p for p, _, _ in run),
        tuple(_stands_for(n, f, material) for p, n, f in run if p is JOKER),
        run[0][1],
    )


def _group_meld(grp: list[_Entry], material: Literal["tiles", "cards"]) -> SplitMeld:
    return SplitMeld(
        "group",
        tuple(p for p, _, _ in grp),
        tuple(format_open_joker(n, material) for p, n, _ in grp if p is JOKER),
        grp[0][1],
    )


def _pair_meld(pr: list[_Entry], material: Literal["tiles", "cards"]) -> SplitMeld:
    return SplitMeld(
        "pair",
        tuple(p for p, _, _ in pr),
        tuple(_stands_for(n, f, material) for p, n, f in pr if p is JOKER),
        pr[0][1],
    )


_KIND_ORDER: Final = {"run": 0, "group": 1, "pair": 2}


def _meld_order(m: SplitMeld) -> tuple[int, int, int, int]:
    """Melds by where they start (number, then colour/suit of the first real piece), runs
    before groups before pairs."""
    first = next(p for p in m.pieces if p is not JOKER)
    assert isinstance(first, (Tile, Card))
    return (m.number, _KIND_ORDER[m.kind], first.family.index, len(m.pieces))


def check_split(pieces: Sequence[Piece], melds: Sequence[SplitMeld], rules: MeldRules) -> None:
    """Check a split independently of the search (the search's own guard).

    Every meld must be valid with its jokers standing as recorded (runs: one family,
    consecutive numbers, 3..``max_run`` long, the ace only low, or high where ``ace_high``;
    groups: one number, 3..``max_group`` pieces, no family twice; pairs where ``rules.pairs``:
    two identical pieces or a piece and a joker), and the melds must use exactly ``pieces``.

    Raises:
        RuntimeError: the split is not valid (a bug in the search).
    """
    from collections import Counter

    used: Counter[Piece] = Counter()
    for m in melds:
        used.update(m.pieces)
        if not _meld_ok(m, rules):
            raise RuntimeError(f"split produced an invalid {m.kind}: {[str(p) for p in m.pieces]}")
    if used != Counter(pieces):
        raise RuntimeError("split does not use exactly the heap")


def _meld_ok(m: SplitMeld, rules: MeldRules) -> bool:
    reals = [p for p in m.pieces if p is not JOKER]
    if not reals or sum(1 for p in m.pieces if p is JOKER) != len(m.jokers):
        return False
    if m.kind == "pair":
        if not rules.pairs or len(m.pieces) != 2:
            return False
        return len(reals) == 1 or reals[0] == reals[1]
    if m.kind == "group":
        if not 3 <= len(m.pieces) <= rules.max_group:
            return False
        fams = [p.family for p in reals if isinstance(p, (Tile, Card))]
        nums = {p.number for p in reals if isinstance(p, (Tile, Card))}
        return len(nums) == 1 and len(set(fams)) == len(fams)
    if not 3 <= len(m.pieces) <= rules.max_run:
        return False
    first = reals[0]
    assert isinstance(first, (Tile, Card))
    idx = m.pieces.index(first)
    top = 14 if rules.ace_high else 13
    starts = (1, 14) if (first.number == 1 and rules.ace_high) else (first.number,)
    return any(_run_from(m.pieces, first, idx, at, rules, top) for at in starts)


def _run_from(
    pieces: Sequence[Piece], first: Tile | Card, idx: int, at: int, rules: MeldRules, top: int
) -> bool:
    """The pieces read as a run with ``first`` (at index ``idx``) standing at number ``at``."""
    start = at - idx
    if start < 1 or start + len(pieces) - 1 > top:
        return False
    for i, p in enumerate(pieces):
        if p is JOKER:
            continue
        assert isinstance(p, (Tile, Card))
        expected = start + i
        num = 14 if (p.number == 1 and expected == 14 and rules.ace_high) else p.number
        if p.family != first.family or num != expected:
            return False
    return True


# --------------------------------------------------------------------------------------------
# Public API


def find_split(
    pieces: Sequence[Piece], rules: MeldRules, deadline: Deadline | None = None
) -> list[SplitMeld] | None:
    """Split a heap into valid melds, exactly (JUDGE.md ``check: split``, RULES.md §2).

    Args:
        pieces: the heap: tiles or cards of ``rules.material`` and jokers, in any order; at most
            two copies of each numbered piece and two jokers (the judge copy-checks first).
        rules: the variant's meld rules: ``pairs`` (Rummy 101 pairs count as melds),
            ``ace_high`` (Carousel: Q-K-A as well as A-2-3, never K-A-2), ``jokers``.
        deadline: the time budget (shared with other searches of the same request); a fresh
            :class:`Deadline` of :data:`TIME_BUDGET_S` when not given.

    Returns:
        The melds of one valid split, using every piece exactly once, ordered by their first
        piece (number, then colour/suit; runs before groups); ``[]`` for an empty heap (an
        empty table is valid); ``None`` when no split exists.

    Raises:
        ValueError: more than :data:`MAX_COPIES` copies of a piece or :data:`MAX_JOKERS`
            jokers, or a joker where ``rules.jokers`` is false.
        TooComplexError: the budget ran out before an answer (code ``too_complex``).
    """
    heap = _Heap(pieces, rules)
    if heap.too_many():
        raise ValueError(
            f"split handles at most {MAX_COPIES} copies of a piece and {MAX_JOKERS} jokers"
        )
    if heap.jokers and not rules.jokers:
        raise ValueError(f"{rules.variant} is played without jokers")
    if not pieces:
        return []
    if heap.hopeless_piece() is not None:
        return None
    budget = Deadline() if deadline is None else deadline
    if rules.ace_high and not rules.pairs:
        melds = _race_kept(heap, pieces, budget)
    else:
        found = _race(heap, pieces, budget)
        melds = None if found is None else _build(*found)
    if melds is None:
        return None
    check_split(pieces, melds, rules)
    return melds


def _split_one_way(
    pieces: Sequence[Piece], rules: MeldRules, mirror: bool, phase: int = 0
) -> list[SplitMeld] | None:
    """:func:`find_split` with the search run one way only (from 1 up, or from 13 down when
    ``mirror``), in one phase only (0: quick look-ahead; 1: joker bound), and no quick
    pre-check: for tests of each part of the search."""
    heap = _Heap(pieces, rules, mirror=mirror)
    if not pieces:
        return []
    run = _searcher(heap)
    if phase:
        with contextlib.suppress(_OutOfBudget):
            run(0)  # spends phase 0 at once
    got = run(10**9)
    if isinstance(got, str):
        return None
    melds = _build(heap, got)
    check_split(pieces, melds, rules)
    return melds


def _sweep_one_way(
    pieces: Sequence[Piece], rules: MeldRules, mirror: bool
) -> list[SplitMeld] | None:
    """:func:`find_split` by the sweep alone (:func:`_sweep_steps`), one way, no quick
    pre-check: for tests."""
    heap = _Heap(pieces, rules, mirror=mirror)
    if not pieces:
        return []
    got = _sweep(heap)
    if got is None:
        return None
    melds = _build(heap, got)
    check_split(pieces, melds, rules)
    return melds


def _spot_one_way(
    pieces: Sequence[Piece],
    rules: MeldRules,
    mirror: bool,
    depth_first: bool = False,
    filtered: bool = False,
    order: int = 0,
) -> list[SplitMeld] | None:
    """:func:`find_split` by the spot sweep alone (:func:`_spot_sweep_steps`; ace high), or
    its depth-first search (:func:`_spot_dfs_steps`, in ``order``) with ``depth_first``, one
    way, no quick pre-check: for tests. With ``filtered`` the tail the other way runs first
    (``None`` when it proves "no"), and the spot sweep is filtered by its states from the
    start (:meth:`_SpotRunner.filter_by`)."""
    heap = _Heap(pieces, rules, mirror=mirror)
    if not pieces:
        return []
    runner = _SpotRunner(heap, None, depth_first, order)
    if filtered:
        tail = _SweepRunner(_Heap(pieces, rules, mirror=not mirror), None, start=2)
        if tail(10**9) == _NO_SPLIT:
            return None
        runner.filter_by(tail.history)
    got = runner(10**9)
    if isinstance(got, str):
        return None
    check_split(pieces, got, rules)
    return got


def _window_says_no(pieces: Sequence[Piece], rules: MeldRules) -> bool:
    """Whether :func:`_window_proof` proves the heap has no split: for tests."""
    return _window_proof(_Heap(pieces, rules), _Heap(pieces, rules, mirror=True))


def _tail_says_no(pieces: Sequence[Piece], rules: MeldRules) -> bool:
    """Whether a window from 2 to the top (either way; the race's tails with the ace high)
    proves the heap has no split: for tests."""
    return any(
        _SweepRunner(_Heap(pieces, rules, mirror=m), None, start=2)(10**9) == _NO_SPLIT
        for m in (False, True)
    )


def isolated_piece(pieces: Sequence[Piece], rules: MeldRules) -> Tile | Card | None:
    """A piece of the heap that fits in no meld at all with the other pieces (no group, run or
    pair could hold it, whatever else is done), or ``None``. A quick reason for a "no"; a heap
    with no isolated piece may still have no split."""
    heap = _Heap(pieces, rules)
    return heap.hopeless_piece()


def split_heap(
    pieces: Sequence[Piece], rules: MeldRules, deadline: Deadline | None = None
) -> list[list[Piece]] | None:
    """The melds of one valid split of ``pieces`` (see :func:`find_split`), each as a list of
    pieces in normalised order, or ``None`` when the heap cannot be split into melds.

    Raises:
        TooComplexError: the budget ran out (see :func:`find_split`)."""
    melds = find_split(pieces, rules, deadline)
    if melds is None:
        return None
    return [list(m.pieces) for m in melds]


__all__ = [
    "MAX_COPIES",
    "MAX_JOKERS",
    "TIME_BUDGET_S",
    "Deadline",
    "MeldKind",
    "SplitMeld",
    "TooComplexError",
    "check_split",
    "find_split",
    "isolated_piece",
    "split_heap",
]
