"""Exact least-deadwood search for Gin Rummy (RULES.md §2, §5; seed ``002_…``).

Gin melds: a run is ≥3 cards of one suit in consecutive ranks, ace low only (A-2-3 yes,
Q-K-A no); a group is 3–4 cards of one rank. A card belongs to one meld at most. Card values:
ace 1, 2–10 face value, J Q K 10. Deadwood is the value of the cards in no meld.

Public API (cards are :class:`~rules.pieces.Card`; every search is exact):

- :func:`best_arrangement` — the least deadwood of a hand (10 cards; 0 to 11 work), with the
  melds and the unmatched cards.
- :func:`best_arrangements` — every least-deadwood arrangement (they differ in which cards go to
  groups); the round scorer lets the knocker lay down the one that suits them best.
- :func:`best_discard` — for 11 cards: the discard leaving least deadwood, the arrangement of the
  other 10, and whether all 11 are melded (big gin).
- :func:`best_discards` — for 11 cards: every discard leaving that least deadwood (the knocker
  chooses over all of them and their arrangements together, RULES.md §5).
- :func:`best_layoffs` — the defender's least deadwood after laying off onto the knocker's melds
  (chains allowed; the defender may break their own meld where that leaves less deadwood).
- :func:`laid_out` — the answer of :func:`best_arrangement` (10 cards) or :func:`best_discard`
  (11) with every field read at once, for a caller that writes them all out (the judge).
- :func:`hand_value` — the total value of the cards (points), from the values a Card-level call
  cached on them.
- :func:`index_melds` and :func:`index_discard` — the answers of :func:`best_arrangement` and
  :func:`best_discard` for a hand given as card indexes ``13 * suit + rank - 1`` (suits S H D
  C), with the melds as tuples of card indexes: the shape of OpenSpiel's gin utilities (a list
  of card ints in, melds as lists of card ints out), for programs that number the cards
  (``benchmarks/peers.py`` compares the two call for call).

How it works. A hand is an int *hand mask*: bit ``16 * suit + rank - 1`` (suit index 0–3 = S H D C;
the 3 spare bits per suit keep runs from crossing suits). With the groups fixed, the rest of a
suit melds best as runs of every maximal block of ≥3 consecutive ranks, so the least run-only
deadwood of a suit is a lookup in a table over the 8192 13-bit suit masks (a ``bytes`` object,
8 KiB, built on first use in about 3 ms). The search enumerates only the group choices: for
every rank held in ≥3 suits, no group, the group of 4, or each group of 3 (at most 6 choices;
10 cards hold at most 3 such ranks), and adds the four suits' table entries. Options that
cannot reach the least deadwood are never tried (a card in no block of ≥3 consecutive ranks
of its suit can only go to a group: see :func:`_choices10`); a rank's options are cached by
its cards. The choices are tried on the four 13-bit suit masks (small ints, which Python
works on faster than on the whole 61-bit hand mask): each option is kept split by suit
(:data:`_Option`), and a hand with one such rank tries its options in straight-line code
(:func:`_best10_one_rank`, :func:`_discard_one_rank`).

Best discard (11 cards), in one pass: a second table per suit gives the best single drop from
the suit's run part and the tie-break's card for it, packed so that one ``min`` over the four
suits and one comparison per group choice find the least deadwood *and* the tie-break's
discard; the first group choice reaching it is kept (a back-pointer), and it is the
arrangement a search of the 10 kept would find, so no second search (:func:`_options11` and
:func:`_discard_search` say which options that search may skip; the last rank's options are an
inner loop, not a list of every choice). Encoding cards reads each card's bit from a spare slot
of the card object, filled the first time the object is encoded (the judge reads a token to the
same object every time; results hold the 52 shared card objects). Laying out the melds as
cards reads a small dict of the melds met so far and small tables for the canonical order of
the deadwood cards. :func:`best_arrangement` and :func:`best_discard` answer the deadwood and
the melds (shared tuples of the 52 shared cards, from tables) at once and lay out the unmatched
cards on their first reading (:attr:`Arrangement.unmatched`: the rank-major mask of the cards
laid out, kept from the call, less the melds' cards, read from the melds' sort keys);
:func:`best_discard` makes the :class:`Arrangement` of the cards kept on its first reading
(:attr:`Discard.arrangement`). The mask-level functions (:func:`deadwood_mask`, :func:`melds_mask`,
:func:`discard_mask`, :func:`discard_melds_mask`, :func:`encode`) are the fast calls, with the
melds as masks (a hand with no run takes every rank held in ≥3 suits as its whole group, the
one choice the search would keep, with no search; :func:`discard_melds_mask` discards the card
of highest rank of a hand with no meld, as the best-drop tables would); the Card-level ones
build the melds as tuples of cards (:func:`arrangement_mask` and :func:`discard_of_mask` from a
hand mask). The card-index calls add up the cards *packed*
(:data:`_index_cards`: the hand-mask bit, the value, and a count in the lane of the card's rank
and in the lanes of the windows of 3 consecutive ranks of its suit that hold it; for 11 cards,
:data:`_index_cards11`, also the card's bit in rank-major order; 10 or 11 cards added by name,
not by ``sum``), so that one sum gives the hand mask, the hand's value, whether it holds a meld
(a lane reaching 3: two operations) and the ranks it holds in ≥3 suits. A hand with no meld
(most hands dealt at random) is answered from the sum alone (its value; for 11 cards the
discard is the card of the highest rank-major bit). A hand of runs in one suit and no group is
answered by one look-up of its run starts (:data:`_runs10`, :data:`_runs11`: the runs, and
their value or packed cards), a hand of groups of one or two ranks and no run by one look-up of
the groups' cards (:data:`_groups10`, :data:`_groups11`); for 11 cards the discard is then the
card in no meld of the highest rank-major bit (discarding a melded card cannot lower the
deadwood). The others go to the suit tables and the searches above, and lay out the melds
from per-suit tables of the runs of every 13-bit suit mask (:data:`_runs0` …; with the best
single drop removed: :data:`_drop_runs0` …) and the 65 groups, as tuples of card indexes
(all built on first use, about 40 ms). Nothing is built at import, and no answer is kept from
one call to the next.

Discard tie-break (a choice of this module, the rules being silent): among discards leaving the
same least deadwood, discard the card of highest value, then of highest rank (K before Q before J
before 10), then the first suit in S, H, D, C order.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import product
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from rules.pieces import Card, Suit

SUIT_MASK: Final = 0x1FFF
"""The 13 rank bits of one suit in a hand mask."""
_COLUMN: Final = 0x0001_0001_0001_0001
_RANK_VALUE: Final = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
_SUITS: Final = tuple(Suit)
_BIG: Final = 1 << 30

_MOST_CARDS: Final = 11
"""The most cards the Card-level and card-index calls take: a gin hand (10) with the card drawn
(11). More cards are no gin hand, and the group search of a hand holding many ranks in ≥3 suits
grows with every such rank (all 52 cards: more choices than memory holds), so they are refused;
the mask-level calls refuse a hand holding more than 3 such ranks (12 cards or more)."""
_TOO_MANY: Final = "a gin hand holds at most 11 cards (10, and the card drawn)"

_run_table: bytes | None = None
"""Run-only deadwood of each 13-bit suit mask (≤ 85 points: a bytes object, 8 KiB, stays in
the processor's cache where a list of 8192 would not)."""
_value_table: bytes | None = None
"""Value (points) of each 13-bit suit mask."""
_drop_table: list[int] = [0] * 8192  # filled by _drop, all at once on first use
_index_dw: list[int] = []
""":data:`_run_table` as a list (filled by :func:`_dw_list`): the suit-mask searches read it
(a list is read faster than bytes, and its small ints are shared objects)."""
_index_groups: dict[int, tuple[int, ...]] = {}
"""Group mask (3 or 4 cards of one rank) → its card indexes ``13 * suit + rank - 1`` in suit
order S H D C (filled by :func:`_dw_list`)."""
_column_of: dict[int, int] = {}
"""Rank bits of 1 to 3 ranks → their cards in every suit (``_COLUMN * ranks``, a hand mask;
read faster than the product of a 49-bit int); filled by :func:`_dw_list`."""
_cards: tuple[Card, ...] = ()
_canonical: tuple[Card, ...] = ()
_bits: dict[Card, int] = {}


class Arrangement:
    """A hand laid out into melds with the least deadwood: the triple ``(deadwood, melds,
    unmatched)``, read by name or as a tuple (it unpacks, indexes, compares equal to a tuple of
    the same fields, hashes, pickles and prints as the named tuple it was; it is not a
    :class:`tuple` subclass). Immutable.

    Attributes:
        deadwood: points of the unmatched cards.
        melds: the melds, each a tuple of cards (runs by rank, groups by suit S H D C), ordered
            by their lowest card (rank, then suit); runs are maximal, so a run of 6 is one meld.
        unmatched: the deadwood cards, in canonical order (rank, then suit S H D C).

    ``Arrangement(deadwood, melds, unmatched)`` builds one. The Card-level calls
    (:func:`best_arrangement`, :func:`best_discard`) find the deadwood and lay out the melds
    at once, and lay out ``unmatched`` on its first reading, from the rank-major mask of the
    cards laid out (speed only: the answer is the same; the melds and the deadwood are what the
    search decides, the unmatched cards are the rest of the hand).
    """

    __slots__ = ("_deadwood", "_keyed", "_melds", "_rest", "_unmatched")
    _deadwood: int
    _melds: tuple[tuple[Card, ...], ...]
    _unmatched: tuple[Card, ...] | None
    # while _unmatched is None: bits 9-60 of _rest, the rank-major mask of the cards laid out,
    # less those of the keys of _keyed (the melds' (key, cards) pairs: _meld_key) are the
    # unmatched cards
    _rest: int
    _keyed: tuple[tuple[int, tuple[Card, ...]], ...]

    _fields: Final = ("deadwood", "melds", "unmatched")
    __match_args__: Final = ("deadwood", "melds", "unmatched")

    def __init__(
        self,
        deadwood: int,
        melds: tuple[tuple[Card, ...], ...],
        unmatched: tuple[Card, ...],
    ) -> None:
        self._deadwood = deadwood
        self._melds = melds
        self._unmatched = unmatched
        self._rest = 0
        self._keyed = ()

    if TYPE_CHECKING:

        @property
        def deadwood(self) -> int: ...

        @property
        def melds(self) -> tuple[tuple[Card, ...], ...]: ...

    else:  # read-only, through C getters (a Python property is slower to read)
        deadwood = property(attrgetter("_deadwood"), doc="Points of the unmatched cards.")
        melds = property(attrgetter("_melds"), doc="The melds, each a tuple of cards.")

    @property
    def unmatched(self) -> tuple[Card, ...]:
        """The deadwood cards, in canonical order (rank, then suit S H D C)."""
        got = self._unmatched
        if got is None:
            m = self._rest
            for key, _ in self._keyed:  # bits 9-60: the melded cards (no carry: xor)
                m ^= key
            lo = m >> 9 & 0xFFF_FFFF  # the cards as in _rm_cards (inlined)
            hi = m >> 37 & 0xFF_FFFF
            t0, t1, t2, t3, t4, t5, t6 = _rm_chunks
            got = self._unmatched = (
                t0[lo & 255]
                + t1[lo >> 8 & 255]
                + t2[lo >> 16 & 255]
                + t3[lo >> 24]
                + t4[hi & 255]
                + t5[hi >> 8 & 255]
                + t6[hi >> 16]
            )
        return got

    def _tuple(self) -> tuple[int, tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
        return (self._deadwood, self._melds, self.unmatched)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._tuple())

    def __len__(self) -> int:
        return 3

    def __getitem__(self, i: Any) -> Any:
        return self._tuple()[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Arrangement):
            return self._tuple() == other._tuple()
        if isinstance(other, tuple):
            return self._tuple() == other
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        same = self.__eq__(other)
        return same if same is NotImplemented else not same

    def __hash__(self) -> int:
        return hash(self._tuple())

    def __repr__(self) -> str:
        return (
            f"Arrangement(deadwood={self._deadwood!r}, melds={self._melds!r}, "
            f"unmatched={self.unmatched!r})"
        )

    def __reduce__(self) -> tuple[type[Arrangement], tuple[Any, ...]]:
        return (Arrangement, self._tuple())

    def __copy__(self) -> Arrangement:
        return self  # immutable

    def __deepcopy__(self, memo: dict[int, Any]) -> Arrangement:
        return self

    def _replace(self, **fields: Any) -> Arrangement:
        """A copy with the given fields replaced (as a named tuple's ``_replace``)."""
        got: dict[str, Any] = dict(zip(self._fields, self._tuple(), strict=True))
        for name in fields:
            if name not in got:
                raise ValueError(f"got unexpected field name: {name!r}")
        got.update(fields)
        return Arrangement(got["deadwood"], got["melds"], got["unmatched"])

    def _asdict(self) -> dict[str, Any]:
        """The fields by name (as a named tuple's ``_asdict``)."""
        return dict(zip(self._fields, self._tuple(), strict=True))


class Discard:
    """The best discard from 11 cards.

    Attributes:
        discard: the card to discard (module docstring: tie-break).
        arrangement: the least-deadwood arrangement of the 10 cards kept.
        big_gin: all 11 cards are melded.
        eleven: the least-deadwood arrangement of all 11 cards (deadwood 0 when ``big_gin``);
            laid out on first access.

    ``Discard(discard, arrangement, big_gin, hand)`` builds one (``hand``: the hand mask of the
    11 cards). :func:`best_discard` keeps the deadwood and the melds of the 10 kept and makes
    their :class:`Arrangement` on first reading (speed only: one object built per answer).
    """

    __slots__ = (
        "_arrangement",
        "_big_gin",
        "_deadwood",
        "_discard",
        "_eleven",
        "_hand",
        "_keyed",
        "_melds",
        "_rest",
    )
    _discard: Card
    _big_gin: bool
    _arrangement: Arrangement | None
    _deadwood: int  # with _melds and _rest: the arrangement, while _arrangement is None
    _melds: tuple[tuple[Card, ...], ...]
    _rest: int  # as in Arrangement, with the discard's bit
    _keyed: tuple[tuple[int, tuple[Card, ...]], ...]
    _eleven: Arrangement | None  # unset: not laid out yet
    _hand: int

    def __init__(self, discard: Card, arrangement: Arrangement, big_gin: bool, hand: int) -> None:
        self._discard = discard
        self._arrangement = arrangement
        self._big_gin = big_gin
        self._hand = hand
        self._eleven = None

    if TYPE_CHECKING:

        @property
        def discard(self) -> Card: ...

        @property
        def big_gin(self) -> bool: ...

    else:  # read-only, through C getters (as Arrangement's)
        discard = property(attrgetter("_discard"), doc="The card to discard.")
        big_gin = property(attrgetter("_big_gin"), doc="All 11 cards are melded.")

    @property
    def arrangement(self) -> Arrangement:
        """The least-deadwood arrangement of the 10 cards kept."""
        got = self._arrangement
        if got is None:
            got = self._arrangement = _new_object(Arrangement)
            got._deadwood = self._deadwood
            got._melds = self._melds
            got._unmatched = None
            got._rest = self._rest ^ self._discard._pack  # the cards kept (the 52 shared cards
            # have their packed values set)
            got._keyed = self._keyed
        return got

    @property
    def eleven(self) -> Arrangement:
        """The least-deadwood arrangement of all the cards."""
        try:
            got = self._eleven
        except AttributeError:  # best_discard leaves it unset
            got = None
        if got is None:
            _, found = arrangements_mask(self._hand)
            got = self._eleven = _layout(self._hand, found[0])
        return got

    def __repr__(self) -> str:
        return (
            f"Discard(discard={self.discard}, arrangement={self.arrangement}, "
            f"big_gin={self.big_gin})"
        )


class Layoff(NamedTuple):
    """One card laid off: ``card`` onto ``knocker_melds[meld]`` (0-based), in playing order."""

    card: Card
    meld: int


class Layoffs(NamedTuple):
    """The defender's best lay-offs onto the knocker's melds.

    Attributes:
        deadwood: the defender's least deadwood after lay-offs (points).
        layoffs: the cards laid off, in an order they can be played (a chained card after the
            card it extends).
        melds: the defender's own melds from the cards not laid off.
        unmatched: the defender's deadwood cards.
        deadwood_before: the defender's least deadwood without lay-offs (points).
    """

    deadwood: int
    layoffs: tuple[Layoff, ...]
    melds: tuple[tuple[Card, ...], ...]
    unmatched: tuple[Card, ...]
    deadwood_before: int


# -- tables -------------------------------------------------------------------------------------


def _run_melded(m: int) -> int:
    """Bits of ``m`` lying in a block of ≥3 consecutive ranks (works on a whole hand mask)."""
    r = m & (m >> 1) & (m >> 2)
    return r | (r << 1) | (r << 2)


def _tables() -> tuple[bytes, bytes]:
    """Build (once) the run-only deadwood and the value sum of every 13-bit suit mask."""
    global _run_table, _value_table
    if _run_table is None or _value_table is None:
        vsum = [0] * 8192
        for m in range(1, 8192):
            low = m & -m
            vsum[m] = vsum[m ^ low] + _RANK_VALUE[low.bit_length() - 1]
        _value_table = bytes(vsum)
        _run_table = bytes([vsum[m & ~_run_melded(m)] for m in range(8192)])
    return _run_table, _value_table


def _dw_list() -> list[int]:
    """Fill (once) :data:`_index_dw`, :data:`_index_groups` and :data:`_column_of`; return
    :data:`_index_dw`."""
    if not _index_dw:
        for r in range(13):
            col = _COLUMN << r
            _index_groups[col] = tuple(13 * s + r for s in range(4))
            for s in range(4):
                _index_groups[col ^ 1 << (16 * s + r)] = tuple(
                    13 * t + r for t in range(4) if t != s
                )
        for r1 in range(13):  # the ranks held in ≥3 suits of a hand of at most 11 cards
            _column_of[1 << r1] = _COLUMN << r1
            for r2 in range(r1):
                _column_of[1 << r1 | 1 << r2] = _COLUMN * (1 << r1 | 1 << r2)
                for r3 in range(r2):
                    _column_of[1 << r1 | 1 << r2 | 1 << r3] = _COLUMN * (
                        1 << r1 | 1 << r2 | 1 << r3
                    )
        _index_dw.extend(_tables()[0])
    return _index_dw


def _group_choices(h: int) -> list[int]:
    """Every choice of groups in hand mask ``h``, as the mask of the cards put in groups.

    For each rank held in ≥3 suits: the group of 4 (when all 4 are held), each group of 3, or no
    group. Ordered rank by rank (lowest rank first): the group of 4, the groups of 3 (without S,
    H, D, C in turn), no group; the last entry is ``0`` (no group at all).
    """
    a = h & SUIT_MASK
    b = (h >> 16) & SUIT_MASK
    c = (h >> 32) & SUIT_MASK
    d = h >> 48
    tri = (a & b & (c | d)) | (c & d & (a | b))
    if tri.bit_count() > 3:  # 12 cards or more: 6 ** ranks choices (all 52: 13 billion)
        raise ValueError(_TOO_MANY)
    choices = [0]
    while tri:
        low = tri & -tri
        tri ^= low
        col = _COLUMN * low
        present = h & col
        if present == col:
            opts: tuple[int, ...] = (
                col,
                col ^ low,
                col ^ (low << 16),
                col ^ (low << 32),
                col ^ (low << 48),
                0,
            )
        else:
            opts = (present, 0)
        choices = [x | o for x in choices for o in opts]
    return choices


def _options10(present: int, loose: int) -> tuple[int, ...]:
    """The group options of one rank for :func:`_choices10` (``present``: its cards, ≥3;
    ``loose``: those of them in a block of ≥3 consecutive ranks of their suit), cached."""
    low = 1 << (((present & -present).bit_length() - 1) & 15)
    col = _COLUMN * low
    if not loose:
        opts: tuple[int, ...] = (present,)
    elif present == col:
        if loose & (loose - 1):  # two or more: every group of 3 without one of them, none
            opts = (
                col,
                *(col ^ x for x in (low, low << 16, low << 32, low << 48) if x & loose),
                0,
            )
        else:
            opts = (col, col ^ loose)
    else:
        opts = (present, 0)
    _opts10[present | loose << 64] = opts
    return opts


def _options11(present: int, loose: int) -> tuple[int, ...]:
    """The group options of one rank (``present``: its cards, ≥3; ``loose``: those of them in a
    block of ≥3 consecutive ranks of their suit) for the best discard search, cached.

    A discard is the drop of one card outside the groups, so the options of a rank are those
    of :func:`_group_choices` (a card leaving its group to be discarded is the group without
    it), except at a rank of 4 cards, for the cards of it in no block of ≥3 consecutive ranks
    of their suit ("fixed" cards, which only a group can meld): of the groups of 3 without a
    fixed card only the one without the spade-most fixed card is kept, and when all 4 are fixed
    no group is dropped too. A group of 3 leaving out a fixed card is worse than the group of
    4 with the same discard, unless that card is the discard, and then it ties the group of 3
    without the spade-most fixed card, whose discard the tie-break prefers (same rank, earlier
    suit). No group with 4 fixed cards leaves at least 3 of them unmelded, worse than the
    group of 4 with the same discard or the group of 3 without the discarded card. The least
    deadwood, the full hand's least deadwood and the tie-break's discard are unchanged, and so
    is the first choice reaching them.
    """
    low = 1 << (((present & -present).bit_length() - 1) & 15)
    col = _COLUMN * low
    if present != col:
        opts: tuple[int, ...] = (present, 0)
    else:
        fixed = col & ~loose
        first = fixed & -fixed  # the spade-most card in no run block, if any
        opts = (
            col,
            *(col ^ x for x in (low, low << 16, low << 32, low << 48) if x & loose or x == first),
        )
        if loose:
            opts = (*opts, 0)
    _opts11[present | loose << 64] = opts
    return opts


_opts10: dict[int, tuple[int, ...]] = {}
_opts11: dict[int, tuple[int, ...]] = {}


# -- mask-level search --------------------------------------------------------------------------


def deadwood_mask(h: int) -> int:
    """Least deadwood (points) of the cards in hand mask ``h`` (meant for at most 11 cards).

    Raises:
        ValueError: a hand holding more than 3 ranks in ≥3 suits (12 cards or more).
    """
    a = h & SUIT_MASK
    b = (h >> 16) & SUIT_MASK
    c = (h >> 32) & SUIT_MASK
    d = h >> 48
    tri = (a & b & (c | d)) | (c & d & (a | b))
    if not tri:
        table = _run_table if _run_table is not None else _tables()[0]
        return table[a] + table[b] + table[c] + table[d]
    return _best10(h, tri, a, b, c, d)[0]


_Option = tuple[int, int, int, int, int, tuple[tuple[int, ...], ...]]
"""A group option of one rank split by suit: the bits it takes from the spade, heart, diamond
and club masks (13-bit), its hand-mask bits, and its groups as card indexes (by rank)."""
_NONE: Final[tuple[_Option, ...]] = ((0, 0, 0, 0, 0, ()),)
_split10: dict[int, tuple[_Option, ...]] = {}
"""``present | loose << 1`` of a rank (:func:`_options10`'s arguments; ``loose`` ⊆ ``present``,
one rank, so the key is unique) → its options split by suit; filled on use (bounded: one entry
per pattern of a rank's cards)."""
_split11: dict[int, tuple[_Option, ...]] = {}
"""As :data:`_split10`, for :func:`_options11`."""


def _split(opts: Sequence[int]) -> tuple[_Option, ...]:
    """Group options (hand masks) split by suit (:data:`_Option`)."""
    named = _index_groups
    return tuple(
        (o & 0x1FFF, (o >> 16) & 0x1FFF, (o >> 32) & 0x1FFF, o >> 48, o, (named[o],) if o else ())
        for o in opts
    )


def _split_options10(present: int, loose: int) -> tuple[_Option, ...]:
    got = _split(_opts10.get(present | loose << 64) or _options10(present, loose))
    _split10[present | loose << 1] = got
    return got


def _split_options11(present: int, loose: int) -> tuple[_Option, ...]:
    got = _split(_opts11.get(present | loose << 64) or _options11(present, loose))
    _split11[present | loose << 1] = got
    return got


def _combine(outer: Sequence[_Option], inner: Sequence[_Option]) -> list[_Option]:
    """Every option of ``outer`` with every option of ``inner`` (ranks apart: bits disjoint), in
    that order (``outer`` major)."""
    return [
        (p0 ^ q0, p1 ^ q1, p2 ^ q2, p3 ^ q3, m | n, x + y)
        for p0, p1, p2, p3, m, x in outer
        for q0, q1, q2, q3, n, y in inner
    ]


def arrangements_mask(h: int) -> tuple[int, list[int]]:
    """Least deadwood of ``h`` and every group choice (card mask in groups) reaching it, in the
    order of :func:`_group_choices`.

    Raises:
        ValueError: a hand holding more than 3 ranks in ≥3 suits (12 cards or more).
    """
    table = _index_dw or _dw_list()
    a = h & SUIT_MASK
    b = (h >> 16) & SUIT_MASK
    c = (h >> 32) & SUIT_MASK
    d = h >> 48
    tri = (a & b & (c | d)) | (c & d & (a | b))
    if not tri:
        return table[a] + table[b] + table[c] + table[d], [0]
    a, b, c, d, fixed, outer, inner = _choices10(h, tri, a, b, c, d)
    if inner is None:
        return table[a] + table[b] + table[c] + table[d], [fixed]
    best = _BIG
    found: list[int] = []
    for p0, p1, p2, p3, m, _ in outer:
        pa = a ^ p0
        pb = b ^ p1
        pc = c ^ p2
        pd = d ^ p3
        for q0, q1, q2, q3, n, _ in inner:
            v = table[pa ^ q0] + table[pb ^ q1] + table[pc ^ q2] + table[pd ^ q3]
            if v < best:
                best = v
                found = [fixed | m | n]
            elif v == best:
                found.append(fixed | m | n)
    return best, found


def _best10_one_rank(h: int, tri: int, a: int, b: int, c: int, d: int) -> _Best:
    """:func:`_best10` for one rank held in ≥3 suits (``tri``: its bit).

    Its options (the group of 4, each group of 3, no group; or the group of 3, no group) are
    tried in the order of :func:`_group_choices` on the suit masks with and without its card:
    the first least is the first least of the options :func:`_choices10` keeps (those it drops
    are strictly worse)."""
    table = _index_dw or _dw_list()
    rest = ~tri
    a2 = a & rest
    b2 = b & rest
    c2 = c & rest
    d2 = d & rest
    ua = table[a2]
    ub = table[b2]
    uc = table[c2]
    ud = table[d2]
    va = table[a]
    vb = table[b]
    vc = table[c]
    vd = table[d]
    best = ua + ub + uc + ud  # the whole group first
    col = h & _column_of[tri]
    if a & b & c & d:
        left = 4  # the suit whose card stays out of the group (4: none)
        v = va + ub + uc + ud
        if v < best:
            best, left = v, 0
        v = ua + vb + uc + ud
        if v < best:
            best, left = v, 1
        v = ua + ub + vc + ud
        if v < best:
            best, left = v, 2
        v = ua + ub + uc + vd
        if v < best:
            best, left = v, 3
        v = va + vb + vc + vd
        named = _index_groups
        if v < best:
            return v, 0, a, b, c, d, ()
        if left == 0:
            col ^= tri
            return best, col, a, b2, c2, d2, (named[col],)
        if left == 1:
            col ^= tri << 16
            return best, col, a2, b, c2, d2, (named[col],)
        if left == 2:
            col ^= tri << 32
            return best, col, a2, b2, c, d2, (named[col],)
        if left == 3:
            col ^= tri << 48
            return best, col, a2, b2, c2, d, (named[col],)
        return best, col, a2, b2, c2, d2, (named[col],)
    v = va + vb + vc + vd
    if v < best:
        return v, 0, a, b, c, d, ()
    return best, col, a2, b2, c2, d2, (_index_groups[col],)


_Discard = tuple[int, int, int, int, int, int, int, tuple[tuple[int, ...], ...] | None]


def _discard_one_rank(h: int, tri: int, a: int, b: int, c: int, d: int) -> _Discard:
    """:func:`_discard_groups` for one rank held in ≥3 suits (``tri``: its bit): every option
    of the rank in the order of :func:`_group_choices` (those :func:`_options11` and the
    lone-three rule drop are strictly worse, so the first least key is the same).

    Unrolled: each suit's run-only deadwood and packed best drop are read once with the rank's
    card and once without it, and the options are sums and least values of those reads."""
    table = _index_dw or _dw_list()
    z0, z1, z2, z3 = _discard_tables or _build_discard_tables()
    rest = ~tri
    a2 = a & rest
    b2 = b & rest
    c2 = c & rest
    d2 = d & rest
    ua = table[a2]
    ub = table[b2]
    uc = table[c2]
    ud = table[d2]
    va = table[a]
    vb = table[b]
    vc = table[c]
    vd = table[d]
    ya = z0[a2]
    yb = z1[b2]
    yc = z2[c2]
    yd = z3[d2]
    xa = z0[a]
    xb = z1[b]
    xc = z2[c]
    xd = z3[d]
    col = h & _column_of[tri]
    # the least packed drops of the suits without the rank's card, by pairs
    mab = yb if yb < ya else ya
    mcd = yd if yd < yc else yc
    base = ua + ub + uc + ud  # the whole group first
    best = ((base << 8) + mcd) if mcd < mab else ((base << 8) + mab)
    if a & b & c & d & tri:
        # the groups of 3 (the card of S, H, D or C stays out), in that order
        taken = 15
        full = base
        v = va + ub + uc + ud
        if v < full:
            full = v
        k = xa if xa < yb else yb
        if mcd < k:
            k = mcd
        k += v << 8
        if k < best:
            best, taken = k, 14
        v = ua + vb + uc + ud
        if v < full:
            full = v
        k = ya if ya < xb else xb
        if mcd < k:
            k = mcd
        k += v << 8
        if k < best:
            best, taken = k, 13
        v = ua + ub + vc + ud
        if v < full:
            full = v
        k = xc if xc < yd else yd
        if mab < k:
            k = mab
        k += v << 8
        if k < best:
            best, taken = k, 11
        v = ua + ub + uc + vd
        if v < full:
            full = v
        k = yc if yc < xd else xd
        if mab < k:
            k = mab
        k += v << 8
        if k < best:
            best, taken = k, 7
        v = va + vb + vc + vd  # no group
        if v < full:
            full = v
        k = xa if xa < xb else xb
        y = xc if xc < xd else xd
        if y < k:
            k = y
        k += v << 8
        if k < best:
            return k, 0, full, a, b, c, d, ()
        if taken == 15:
            return best, col, full, a2, b2, c2, d2, (_index_groups[col],)
        if taken == 14:
            col ^= tri
            return best, col, full, a, b2, c2, d2, (_index_groups[col],)
        if taken == 13:
            col ^= tri << 16
            return best, col, full, a2, b, c2, d2, (_index_groups[col],)
        if taken == 11:
            col ^= tri << 32
            return best, col, full, a2, b2, c, d2, (_index_groups[col],)
        col ^= tri << 48
        return best, col, full, a2, b2, c2, d, (_index_groups[col],)
    v = va + vb + vc + vd  # no group
    full = v if v < base else base
    k = xa if xa < xb else xb
    y = xc if xc < xd else xd
    if y < k:
        k = y
    k += v << 8
    if k < best:
        return k, 0, full, a, b, c, d, ()
    return best, col, full, a2, b2, c2, d2, (_index_groups[col],)


def _choices10(
    h: int, tri: int, a: int, b: int, c: int, d: int
) -> tuple[int, int, int, int, int, Sequence[_Option], Sequence[_Option] | None]:
    """The group choices of a hand that can reach its least deadwood (``tri``: the ranks held
    in ≥3 suits, as rank bits of the first suit; ``a b c d``: the suit masks S H D C).

    Returns:
        ``(a, b, c, d, fixed, outer, inner)``: the suit masks without the cards that are in a
        group in every useful choice, those cards (``fixed``), and the choices of the other
        ranks split by suit: every ``outer`` option with every ``inner`` option (the last such
        rank's; ``None``: ``fixed`` is the only choice), in the order of :func:`_group_choices`.

    For each rank held in ≥3 suits the options are those of :func:`_group_choices` except that
    a card outside every block of ≥3 consecutive ranks of its suit can only be melded in a
    group: leaving it out of its rank's group costs its value and gains nothing, so the options
    leaving out a card of that kind are dropped. They are all strictly worse than an option
    that is kept, so the least deadwood and the set of least-deadwood choices are unchanged.
    """
    if tri.bit_count() > 3:  # 12 cards or more: too many choices (see _group_choices)
        raise ValueError(_TOO_MANY)
    r = h & (h >> 1) & (h >> 2)
    runnable = h & (r | (r << 1) | (r << 2))
    fixed = 0
    outer: Sequence[_Option] = _NONE
    inner: Sequence[_Option] | None = None
    cache = _split10
    while tri:
        low = tri & -tri
        tri ^= low
        present = h & _column_of[low]
        loose = present & runnable
        opts = cache.get(present | loose << 1) or _split_options10(present, loose)
        if len(opts) == 1:
            p0, p1, p2, p3, m, _ = opts[0]
            a ^= p0
            b ^= p1
            c ^= p2
            d ^= p3
            fixed |= m
        elif inner is None:
            inner = opts
        else:
            outer = inner if outer is _NONE else _combine(outer, inner)
            inner = opts
    return a, b, c, d, fixed, outer, inner


_Best = tuple[int, int, int, int, int, int, tuple[tuple[int, ...], ...] | None]


def _best10(h: int, tri: int, a: int, b: int, c: int, d: int) -> _Best:
    """The least deadwood of ``h`` with the first group choice reaching it (the first of
    :func:`arrangements_mask`), for a hand with ranks held in ≥3 suits (``tri``, as rank bits of
    the first suit; ``a b c d``: its suit masks S H D C).

    Returns:
        ``(deadwood, groups, a, b, c, d, names)``: points, the cards in groups (hand mask), the
        suit masks of the cards left for runs, and the groups as card indexes by rank (``None``
        when a rank with one option lies among the others: then read them from ``groups``).

    The options of each rank are those of :func:`_choices10` (a rank with one option is fixed),
    split by suit so that the choices are tried on the 13-bit suit masks (small ints: faster
    than the whole hand mask), in the order of :func:`_group_choices`: the ranks before the
    last are combined into one list, the last rank's options are the inner loop.
    """
    if not tri & (tri - 1):
        return _best10_one_rank(h, tri, a, b, c, d)
    table = _index_dw or _dw_list()
    a, b, c, d, fixed, outer, inner = _choices10(h, tri, a, b, c, d)
    if inner is None:
        return table[a] + table[b] + table[c] + table[d], fixed, a, b, c, d, None
    best = _BIG
    ga = gb = gc = gd = groups = 0
    names: tuple[tuple[int, ...], ...] = ()
    for p0, p1, p2, p3, m, x in outer:
        pa = a ^ p0
        pb = b ^ p1
        pc = c ^ p2
        pd = d ^ p3
        for q0, q1, q2, q3, n, y in inner:
            fa = pa ^ q0
            fb = pb ^ q1
            fc = pc ^ q2
            fd = pd ^ q3
            v = table[fa] + table[fb] + table[fc] + table[fd]
            if v < best:
                best, ga, gb, gc, gd, groups, names = v, fa, fb, fc, fd, m | n, x + y
    if fixed:
        return best, groups | fixed, ga, gb, gc, gd, None
    return best, groups, ga, gb, gc, gd, names


def melds_mask(h: int) -> tuple[int, int, int]:
    """Least deadwood of hand mask ``h`` with its melds, as masks (the fast call with melds).

    Returns:
        ``(deadwood, groups, runs)``: points; the cards in groups (one group per rank present);
        the cards in runs (every maximal block of ≥3 consecutive ranks of a suit is one run).
        The arrangement is the first of :func:`arrangements_mask`, the one
        :func:`best_arrangement` lays out.

    Raises:
        ValueError: a hand holding more than 3 ranks in ≥3 suits (12 cards or more).
    """
    a = h & SUIT_MASK
    b = (h >> 16) & SUIT_MASK
    c = (h >> 32) & SUIT_MASK
    d = h >> 48
    tri = (a & b & (c | d)) | (c & d & (a | b))
    if not tri:  # no group: the suit tables (a list: read faster than the bytes)
        table = _index_dw or _dw_list()
        r = h & (h >> 1) & (h >> 2)
        if not r:  # no meld
            return table[a] + table[b] + table[c] + table[d], 0, 0
        return table[a] + table[b] + table[c] + table[d], 0, h & (r | (r << 1) | (r << 2))
    if not h & (h >> 1) & (h >> 2) and tri.bit_count() <= 3:
        # no run: every rank held in ≥3 suits is its whole group (the one option _choices10
        # leaves), the rest is deadwood
        groups = h & _COLUMN * tri
        f = h ^ groups
        table = _index_dw or _dw_list()
        return (
            table[f & SUIT_MASK]
            + table[(f >> 16) & SUIT_MASK]
            + table[(f >> 32) & SUIT_MASK]
            + table[f >> 48],
            groups,
            0,
        )
    best, groups = _best10(h, tri, a, b, c, d)[:2]
    f = h ^ groups
    r = f & (f >> 1) & (f >> 2)
    return best, groups, f & (r | (r << 1) | (r << 2))


_discard_tables: list[list[int]] = []
"""Per suit (S H D C), for each 13-bit suit mask: the best single drop from it, packed as
``(delta + 64) << 8 | 255 - (4 * rank0 + 3 - suit)``: ``delta`` the least change in run-only
deadwood from removing one card, ``rank0`` (0–12) the highest rank among the cards giving it
(the tie-break's choice within the suit); the empty mask holds a value above every packed one.
Built on first use from :data:`_drop_table` (about 10 ms with it, 2 ms more)."""


def _build_discard_tables() -> list[list[int]]:
    """Fill :data:`_discard_tables` (once) and return it."""
    if not _discard_tables:
        drops = _drop_table
        if not drops[1]:
            for m in range(1, 8192):
                _drop(m)
        packed = [_BIG] * 8192
        for s in range(1, 8192):
            x = drops[s]  # (delta + 64) << 13 | the cards giving it: keep the highest
            packed[s] = (x >> 13) << 8 | (252 - 4 * ((x & SUIT_MASK).bit_length() - 1))
        # equal values share one int object: the tables stay pointer arrays (cache-friendly)
        shared: dict[int, int] = {}
        _discard_tables.extend(
            [shared.setdefault(x + k, x + k) if x != _BIG else x for x in packed]
            for k in (0, 1, 2, 3)
        )
        _discard_bits.extend(
            1 << (16 * (3 - (p & 3)) + (p >> 2)) if p >> 2 < 13 else 0 for p in range(255, -1, -1)
        )
    return _discard_tables


_discard_bits: list[int] = []
"""Low byte of a packed discard key (``255 - (4 * rank0 + 3 - suit)``) → the discarded card's
hand-mask bit (0 for a byte no key has); filled with :data:`_discard_tables`."""


def _least_drop(w: int, x: int, y: int, z: int) -> int:
    """The least of four packed drops (``min`` of four arguments takes twice as long)."""
    if x < w:
        w = x
    if z < y:
        y = z
    return w if w < y else y


def _discard_search(h: int) -> tuple[int, int, int]:
    """``(key, groups, full)`` of the best discard from ``h``: ``key`` packs the least deadwood
    of the cards kept and the tie-break's discard (``(deadwood + 64) << 8 | 255 - pref``), and
    ``groups`` is the first group choice reaching it, the one :func:`melds_mask` finds for the
    cards kept; ``full`` is the least deadwood of all the cards.

    The group options of each rank are those of :func:`_options11`, and one more is dropped
    for 11 cards: at a rank of exactly 3 cards none of which is in a block of ≥3 consecutive
    ranks of its suit, "no group" (those cards can only be melded in that group), when some
    card lies outside every rank held in ≥3 suits. Proof: with the group, let ``R`` be the cards
    in no group (never empty: that card is in it); ``|R|`` is 11 less 3 and the other groups
    (0, 3, 4, 6, 7 or 8 cards), so 8, 5, 4, 2 or 1: not a multiple of 3. So ``R`` holds a card
    in no run (dropping it lowers its deadwood) or a run of ≥4 (dropping an end card changes
    nothing): the group's best discard leaves at most ``runs(R)``. Without the group the three
    cards stay unmelded but the one discarded: at least ``runs(R) + 2 × value``, or
    ``3 × value`` more than the group's when a card of ``R`` is discarded; for all 11 cards,
    ``3 × value`` more. Strictly worse on both counts, so the least deadwood, the full hand's
    least deadwood, the tie-break's discard and the first choice reaching them are unchanged.
    The last rank's options are looped over inside the others' (no list of every choice)."""
    if not h:
        raise ValueError("no card to discard")
    table = _run_table if _run_table is not None else _tables()[0]
    z0, z1, z2, z3 = _discard_tables or _build_discard_tables()
    a = h & SUIT_MASK
    b = (h >> 16) & SUIT_MASK
    c = (h >> 32) & SUIT_MASK
    d = h >> 48
    tri = (a & b & (c | d)) | (c & d & (a | b))
    if not tri:
        full = table[a] + table[b] + table[c] + table[d]
        return (full << 8) + _least_drop(z0[a], z1[b], z2[c], z3[d]), 0, full
    key, groups, full = _discard_groups(h, tri, a, b, c, d)[:3]
    return key, groups, full


def _discard_groups(h: int, tri: int, a: int, b: int, c: int, d: int, r: int = -1) -> _Discard:
    """:func:`_discard_search` of a hand with ranks held in ≥3 suits (``tri``, as rank bits of
    the first suit; ``a b c d``: its suit masks S H D C; ``r``: ``h & h >> 1 & h >> 2`` when
    the caller has it, else -1).

    Returns:
        ``(key, groups, full, a, b, c, d, names)``: as :func:`_discard_search`, the suit masks of
        the cards left for runs (the discard among them: the best single drop of its suit,
        :data:`_discard_tables`), and the groups as card indexes by rank (``None``: read them
        from ``groups``, as for :func:`_best10`).

    The choices are tried on the suit masks as in :func:`_best10`.
    """
    if not tri & (tri - 1):
        return _discard_one_rank(h, tri, a, b, c, d)
    if tri.bit_count() > 3:  # 12 cards or more: too many choices (see _group_choices)
        raise ValueError(_TOO_MANY)
    table = _index_dw or _dw_list()
    z0, z1, z2, z3 = _discard_tables or _build_discard_tables()
    # the group choices, rank by rank (options: _options11); the last rank's in the inner loop
    if r < 0:
        r = h & (h >> 1) & (h >> 2)
    runnable = h & (r | (r << 1) | (r << 2))
    prune = h.bit_count() == 11 and h & ~_column_of[tri] != 0
    cache = _split11
    fixed = 0
    outer: Sequence[_Option] = _NONE
    inner: Sequence[_Option] | None = None
    while tri:
        low = tri & -tri
        tri ^= low
        col = _column_of[low]
        present = h & col
        loose = present & runnable
        if prune and not loose and present != col:
            # three cards only a group can meld: always the group
            a &= ~low
            b &= ~low
            c &= ~low
            d &= ~low
            fixed |= present
            continue
        try:
            opts = cache[present | loose << 1]
        except KeyError:
            opts = _split_options11(present, loose)
        if inner is not None:
            outer = inner if outer is _NONE else _combine(outer, inner)
        inner = opts
    if inner is None:
        inner = _NONE
    best = full = lim = _BIG
    ga = gb = gc = gd = groups = 0
    names: tuple[tuple[int, ...], ...] = ()
    for p0, p1, p2, p3, m, x in outer:
        pa = a ^ p0
        pb = b ^ p1
        pc = c ^ p2
        pd = d ^ p3
        for q0, q1, q2, q3, n, w in inner:
            fa = pa ^ q0
            fb = pb ^ q1
            fc = pc ^ q2
            fd = pd ^ q3
            base = table[fa] + table[fb] + table[fc] + table[fd]
            if base < full:
                full = base
            if base <= lim:  # else no drop reaches ``best`` (a drop saves 10 at most)
                k = z0[fa]  # the least of the four suits' packed drops (no min(): slower)
                y = z1[fb]
                if y < k:
                    k = y
                y = z2[fc]
                if y < k:
                    k = y
                y = z3[fd]
                if y < k:
                    k = y
                k += base << 8
                if k < best:
                    best, lim = k, (k >> 8) - 54
                    ga, gb, gc, gd, groups, names = fa, fb, fc, fd, m | n, x + w
    if fixed:
        return best, groups | fixed, full, ga, gb, gc, gd, None
    return best, groups, full, ga, gb, gc, gd, names


def discard_melds_mask(h: int) -> tuple[int, int, int, int, int]:
    """Best discard from hand mask ``h`` (11 cards) with the melds of the cards kept, as masks.

    One search over the 11 cards: the discard and the groups come out together, no second
    search of the 10 kept.

    Returns:
        ``(deadwood, discard_bit, groups, runs, full_deadwood)``: as :func:`discard_mask`, with
        the groups and runs of :func:`melds_mask` for the cards kept (the same arrangement).

    Raises:
        ValueError: ``h`` is empty, or a hand holding more than 3 ranks in ≥3 suits (12 cards
            or more).
    """
    a = h & SUIT_MASK
    b = (h >> 16) & SUIT_MASK
    c = (h >> 32) & SUIT_MASK
    d = h >> 48
    tri = (a & b & (c | d)) | (c & d & (a | b))
    if tri:
        r = h & (h >> 1) & (h >> 2)
        groups = h & _COLUMN * tri
        if r or groups == h or tri.bit_count() > 3:
            key, groups, full = _discard_groups(h, tri, a, b, c, d, r)[:3]
            bit = _discard_bits[key & 255]
            f = h ^ groups ^ bit
            r = f & (f >> 1) & (f >> 2)
            return (key >> 8) - 64, bit, groups, f & (r | (r << 1) | (r << 2)), full
        # no run: every rank held in ≥3 suits is its whole group (as index_discard finds), the
        # discard the best drop from the other cards, all deadwood (the suit tables: no run)
        rest = h ^ groups
        table = _index_dw or _dw_list()
        z0, z1, z2, z3 = _discard_tables or _build_discard_tables()
        a = rest & SUIT_MASK
        b = (rest >> 16) & SUIT_MASK
        c = (rest >> 32) & SUIT_MASK
        d = rest >> 48
        key = z0[a]
        y = z1[b]
        if y < key:
            key = y
        y = z2[c]
        if y < key:
            key = y
        y = z3[d]
        if y < key:
            key = y
        full = table[a] + table[b] + table[c] + table[d]
        return full + (key >> 8) - 64, _discard_bits[key & 255], groups, 0, full
    if not h:
        raise ValueError("no card to discard")
    table = _index_dw or _dw_list()
    r = h & (h >> 1) & (h >> 2)
    if not r:
        # no meld: discard the card of highest rank (so of highest value), of suit S H D C first
        top = (a | b | c | d).bit_length() - 1
        bit = 1 << top
        if not a & bit:
            bit <<= 16 if b & bit else 32 if c & bit else 48
        full = table[a] + table[b] + table[c] + table[d]
        return full - _RANK_VALUE[top], bit, 0, 0, full
    # no group: the four suits' best drops (as in _discard_search, no call)
    z0, z1, z2, z3 = _discard_tables or _build_discard_tables()
    key = z0[a]
    y = z1[b]
    if y < key:
        key = y
    y = z2[c]
    if y < key:
        key = y
    y = z3[d]
    if y < key:
        key = y
    full = table[a] + table[b] + table[c] + table[d]
    bit = _discard_bits[key & 255]
    f = h ^ bit
    r = f & (f >> 1) & (f >> 2)
    return full + (key >> 8) - 64, bit, 0, f & (r | (r << 1) | (r << 2)), full


def _drop(s: int) -> int:
    """For a non-empty 13-bit suit mask: the least change in run-only deadwood from removing one
    card of it and the cards whose removal gives it, packed as ``(delta + 64) << 13 | cards``
    (stored in :data:`_drop_table`)."""
    table = _run_table if _run_table is not None else _tables()[0]
    base = table[s]
    best = _BIG
    arg = 0
    m = s
    while m:
        low = m & -m
        m ^= low
        delta = table[s ^ low] - base
        if delta < best:
            best, arg = delta, low
        elif delta == best:
            arg |= low
    got = (best + 64) << 13 | arg
    _drop_table[s] = got
    return got


def discard_mask(h: int) -> tuple[int, int, int]:
    """Best discard from hand mask ``h`` (meant for 11 cards; at least 1).

    Returns:
        ``(deadwood, discard_bit, full_deadwood)``: the least deadwood of the cards kept, the
        discarded card's bit (tie-break of the module docstring), and the least deadwood of all
        the cards (0 = big gin for 11 cards).

    Raises:
        ValueError: ``h`` is empty, or a hand holding more than 3 ranks in ≥3 suits (12 cards
            or more).
    """
    key, _, full = _discard_search(h)
    return (key >> 8) - 64, _discard_bits[key & 255], full


def discards_mask(h: int) -> tuple[int, int, int]:
    """Every best discard from hand mask ``h`` (meant for 11 cards; at least 1).

    Returns:
        ``(deadwood, discard_bits, full_deadwood)``: the least deadwood of the cards kept, the
        mask of *every* card whose discard leaves it, and the least deadwood of all the cards.

    Raises:
        ValueError: a hand holding more than 3 ranks in ≥3 suits (12 cards or more).
    """
    table = _run_table if _run_table is not None else _tables()[0]
    drops = _drop_table
    if not drops[1]:  # first use: fill the whole table at once (about 10 ms)
        for m in range(1, 8192):
            _drop(m)
    best = _BIG
    full = _BIG
    cands = 0
    a = h & SUIT_MASK
    b = (h >> 16) & SUIT_MASK
    c = (h >> 32) & SUIT_MASK
    d = h >> 48
    tri = (a & b & (c | d)) | (c & d & (a | b))
    for g in _group_choices(h) if tri else (0,):
        f = h ^ g
        fa = f & SUIT_MASK
        fb = (f >> 16) & SUIT_MASK
        fc = (f >> 32) & SUIT_MASK
        fd = f >> 48
        base = table[fa] + table[fb] + table[fc] + table[fd]
        if base < full:
            full = base
        # each suit's best single drop: (delta + 64) << 13 | the cards giving it
        for shift, su in ((0, fa), (16, fb), (32, fc), (48, fd)):
            if su:
                x = drops[su] or _drop(su)
                v = base + (x >> 13) - 64
                if v < best:
                    best = v
                    cands = (x & SUIT_MASK) << shift
                elif v == best:
                    cands |= (x & SUIT_MASK) << shift
    return best, cands, full


def _discard_key(bit: int) -> tuple[int, int, int]:
    """Sort key of the discard tie-break (greater is discarded first)."""
    i = bit.bit_length() - 1
    rank0 = i & 15
    return (_RANK_VALUE[rank0], rank0, -(i >> 4))


# -- card-index API -----------------------------------------------------------------------------

_Runs = tuple[tuple[int, ...], ...]


_index_cards: dict[int, int] = {}
"""Card index ``13 * suit + rank - 1`` (suit 0–3 = S H D C) → the card packed for the
card-index calls: its value (points) in bits 0–8 (the values of up to 11 cards add up to at most
110), a count of 1 in its rank's 3-bit lane and in the lanes of the windows of its suit that
hold it (:data:`_LANES`, lane ``j`` at bits ``9 + 3 * j``; a rank has at most 4 cards, a window
3: no lane overflows), and its hand-mask bit shifted up by :data:`_HAND_AT`. The cards' distinct
bits add up to their union, so one sum of packed cards gives the hand's value, whether it holds
a meld (two operations), the ranks held in ≥3 suits and its hand mask at once. A dict, not a
list: a list would take an index from -52 to -1 for a card (the 10-card sum reads it by name; a
list read with a check of the signs apart was slower, and a table of pairs of cards, half the
adds, was faster only with warm caches). Filled by :func:`_index_tables`, last (the card-index
calls find it empty on their first use)."""
_LANES: Final = 13 + 4 * 11
"""The 3-bit lanes of a packed card (:data:`_index_cards`): one per rank (lane ``rank - 1``),
counting the cards of that rank, and one per *window* of 3 consecutive ranks of a suit (lane
``13 + 11 * suit + first rank - 1``, first rank A to J), counting the cards of the window. A
rank lane reaching 3 is a group; a window lane reaching 3 (the most it can hold) is a run."""
_LANE_ONES: Final = sum(1 << (9 + 3 * j) for j in range(_LANES))
"""A 1 in each lane of a packed sum: adding it turns a count of 3 or 4 into 4 or 5, the only
counts with the lane's top bit set (:data:`_LANE_FOURS`): ``(sum + _LANE_ONES) & _LANE_FOURS``
is 0 when the hand holds no meld."""
_LANE_FOURS: Final = _LANE_ONES << 2
_GROUP_FOURS: Final = 0x9249_2492_4800
"""The top bits of the 13 rank lanes: of ``(sum + _LANE_ONES) & _LANE_FOURS``, the ranks
holding ≥3 cards (the keys of :data:`_tri_of`)."""
_HAND_AT: Final = 9 + 3 * _LANES
"""The hand-mask bit of a card packed as :data:`_index_cards` is shifted up by this (180)."""
_tri_of: dict[int, int] = {}
"""The lanes of a packed sum (:data:`_index_cards`) holding ≥3 cards, as the top bit of each
(what ``(sum + _LANE_ONES) & _GROUP_FOURS`` leaves) → the same ranks as rank bits (bit
``rank - 1``), for every set of 1 to 3 ranks (10 or 11 cards hold at most 3 such ranks)."""
_tri_of11: dict[int, int] = {}
"""As :data:`_tri_of`, for a packed sum of :data:`_index_cards11` (the keys 52 bits higher:
what ``(sum + _LANE_ONES11) & _GROUP_FOURS11`` leaves)."""
_tri_col11: dict[int, int] = {}
"""As :data:`_tri_of11`: the cards of those ranks in every suit (:data:`_column_of`)."""
_index_cards11: dict[int, int] = {}
"""Card index → the card packed for :func:`index_discard` (11 cards): as :data:`_index_cards`
with one more field, the card's *rank-major* bit, so that the highest bit of a sum of such
cards is the tie-break's discard among them when none is melded (highest rank, then suit S H D
C). Fields: the value in bits 0–8, the rank-major bit ``9 + 4 * (rank - 1) + 3 - suit`` (bits
9–60), the lanes from bit 61 (as in :data:`_index_cards`, 52 bits higher) and the hand-mask bit
from bit :data:`_HAND_AT11` (232). Filled by :func:`_index_tables`, before :data:`_index_cards`."""
_LANE_ONES11: Final = _LANE_ONES << 52
_LANE_FOURS11: Final = _LANE_FOURS << 52
_GROUP_FOURS11: Final = _GROUP_FOURS << 52
_HAND_AT11: Final = _HAND_AT + 52
_top_card: list[int] = []
"""``bit_length()`` of the low 61 bits of a sum of :data:`_index_cards11` (its highest
rank-major bit, plus 1) → that card's index: the tie-break's discard when no card is melded."""
_top_value: list[int] = []
"""As :data:`_top_card`: that card's value (points)."""
_runs10: dict[int, tuple[int, _Runs]] = {}
"""The run starts of a hand whose runs lie in one suit (``h & h >> 1 & h >> 2`` of its hand
mask: the cards starting 3 consecutive ranks) → ``(value of the cards in runs, the runs as
card indexes)``: 294 patterns per suit (the runs of at most 11 cards), 1,176 entries; runs in
two suits or more are laid out from the suit tables. The run starts fix the cards in runs:
each is the start of a block of ≥3 or one of the 2 cards after one."""
_runs11: dict[int, tuple[int, _Runs]] = {}
"""As :data:`_runs10`, with the sum of the run cards packed as :data:`_index_cards11` (taken
from a hand's packed sum, it leaves the packed sum of its deadwood cards)."""
_runs0: list[_Runs] = []
"""For each 13-bit suit mask of spades: its runs (every maximal block of ≥3 consecutive
ranks), each a tuple of card indexes by rank; masks with the same runs share one tuple.
:data:`_runs1`, :data:`_runs2`, :data:`_runs3`: hearts, diamonds, clubs."""
_runs1: list[_Runs] = []
_runs2: list[_Runs] = []
_runs3: list[_Runs] = []
_drop_runs0: list[_Runs] = []
"""For each 13-bit suit mask of spades: the runs left once the suit's best single drop (the
card :data:`_discard_tables` names) is discarded; :data:`_drop_runs1` … for the others."""
_drop_runs1: list[_Runs] = []
_drop_runs2: list[_Runs] = []
_drop_runs3: list[_Runs] = []
_index_discard: list[int] = []
"""Low byte of a packed discard key (:data:`_discard_tables`) → the discarded card's index."""
_group_packed: dict[int, int] = {}
"""Group mask (a key of :data:`_index_groups`) → the sum of its packed cards
(:data:`_index_cards`): taken from a hand's packed sum, it leaves the packed sum of the rest."""
_group_packed11: dict[int, int] = {}
"""As :data:`_group_packed`, packed as :data:`_index_cards11`."""
_groups10: dict[int, tuple[int, _Runs]] = {}
"""The cards of the groups of one or two ranks (a group of 3 or 4 each; a hand mask) → ``(their
value, the groups as card indexes by rank)``: 2,015 entries (three ranks: one group at a time)."""
_groups11: dict[int, tuple[int, _Runs]] = {}
"""As :data:`_groups10`, with the sum of their cards packed as :data:`_index_cards11`."""


def _index_tables() -> None:
    """Build (once) the tables of the card-index calls (about 30 ms with the search's own)."""
    if _index_cards:
        return
    _dw_list()
    drops = _build_discard_tables()
    part = [m & _run_melded(m) for m in range(8192)]  # the cards of each suit mask in runs
    # the runs of each runs part, as blocks of ranks (0-based), and each suit's shared tuples
    blocks: dict[int, list[list[int]]] = {}
    for runs in set(part):
        got: list[list[int]] = []
        x = runs
        while x:
            block = x & ~(x + (x & -x))  # the lowest block of consecutive ranks
            x ^= block
            got.append([r for r in range(13) if block >> r & 1])
        blocks[runs] = got
    for s, runs_s, drop_runs in (
        (0, _runs0, _drop_runs0),
        (1, _runs1, _drop_runs1),
        (2, _runs2, _drop_runs2),
        (3, _runs3, _drop_runs3),
    ):
        named = {k: tuple(tuple(13 * s + r for r in blk) for blk in v) for k, v in blocks.items()}
        runs_s.extend([named[k] for k in part])
        # the drop's rank: the low byte of the packed drop is 252 - 4 * rank0 + suit
        z = drops[s]
        drop_runs.extend(
            [named[part[m ^ 1 << ((252 - (z[m] & 252)) >> 2)]] if m else () for m in range(8192)]
        )
    _index_discard.extend(
        13 * (i >> 4) + (i & 15) if b else -1
        for b in _discard_bits
        for i in ((b.bit_length() - 1) if b else 0,)
    )
    lanes = [4 << (9 + 3 * r) for r in range(13)]
    for r1 in range(13):
        _tri_of[lanes[r1]] = 1 << r1
        for r2 in range(r1):
            _tri_of[lanes[r1] | lanes[r2]] = 1 << r1 | 1 << r2
            for r3 in range(r2):
                _tri_of[lanes[r1] | lanes[r2] | lanes[r3]] = 1 << r1 | 1 << r2 | 1 << r3
    for key, tri in _tri_of.items():
        _tri_of11[key << 52] = tri
        _tri_col11[key << 52] = _column_of[tri]
    _top_card.extend([-1] * 62)
    _top_value.extend([0] * 62)
    for i in range(52):
        suit, rank0 = divmod(i, 13)
        bl = 10 + 4 * rank0 + 3 - suit  # the bit_length() of its rank-major bit
        _top_card[bl] = i
        _top_value[bl] = _RANK_VALUE[rank0]
    lanes_of = [  # each card's lanes: its rank's, and its suit's windows holding it
        sum(
            1 << (9 + 3 * j)
            for j in [i % 13]
            + [13 + 11 * (i // 13) + w for w in range(i % 13 - 2, i % 13 + 1) if 0 <= w <= 10]
        )
        for i in range(52)
    ]
    cards = {
        i: 1 << (_HAND_AT + 16 * (i // 13) + i % 13) | lanes_of[i] | _RANK_VALUE[i % 13]
        for i in range(52)
    }
    cards11 = {
        i: 1 << (_HAND_AT11 + 16 * (i // 13) + i % 13)
        | lanes_of[i] << 52
        | 1 << (9 + 4 * (i % 13) + 3 - i // 13)
        | _RANK_VALUE[i % 13]
        for i in range(52)
    }
    for col, group in _index_groups.items():
        _group_packed[col] = sum(cards[i] for i in group)
        _group_packed11[col] = sum(cards11[i] for i in group)
    one = [  # each group: its mask, rank, value, packed cards, and itself
        (col, group[0] % 13, len(group) * _RANK_VALUE[group[0] % 13], _group_packed11[col], group)
        for col, group in _index_groups.items()
    ]
    for col, rank0, value, packed, group in one:
        _groups10[col] = (value, (group,))
        _groups11[col] = (packed, (group,))
        for col2, rank2, value2, packed2, group2 in one:
            if rank2 > rank0:  # the lower rank first
                _groups10[col | col2] = (value + value2, (group, group2))
                _groups11[col | col2] = (packed + packed2, (group, group2))
    run_parts = [runs for runs in set(part) if 0 < runs.bit_count() <= _MOST_CARDS]
    for s, runs_s in enumerate((_runs0, _runs1, _runs2, _runs3)):
        for runs in run_parts:
            key = (runs & runs >> 1 & runs >> 2) << 16 * s
            named_runs = runs_s[runs]
            value = 0
            packed = 0
            for run in named_runs:
                for i in run:
                    value += _RANK_VALUE[i % 13]
                    packed += cards11[i]
            _runs10[key] = (value, named_runs)
            _runs11[key] = (packed, named_runs)
    _index_cards11.update(cards11)
    _index_cards.update(cards)  # last: the card-index calls' sign that the tables are built


_TWICE: Final = "a card appears twice; gin is played with one 52-card deck"


def _index_sum(indexes: Sequence[int], eleven: bool = False) -> int:
    """The sum of the packed cards (:data:`_index_cards`; :data:`_index_cards11` when
    ``eleven``) of ``indexes``: the card-index calls' sum for a count of cards other than 10
    and 11, on first use, or on a bad index.

    Raises:
        ValueError: an index is not a card index, or an index appears twice.
    """
    if not _index_cards:
        _index_tables()
    try:
        x: int = sum(map((_index_cards11 if eleven else _index_cards).__getitem__, indexes))
    except (KeyError, TypeError):
        raise ValueError("a card index is a whole number from 0 to 51") from None
    if len(set(indexes)) != len(indexes):  # many repeats could carry from field to field
        raise ValueError(_TWICE)
    return x


def index_melds(indexes: Sequence[int]) -> tuple[int, _Runs]:
    """The least deadwood of a hand given as card indexes, with its melds as card indexes
    (RULES.md §2, §5; the arrangement :func:`best_arrangement` lays out).

    Args:
        indexes: distinct card indexes ``13 * suit + rank - 1`` (suit 0–3 = S H D C, rank 1–13:
            ``0`` the ace of spades, ``51`` the king of clubs), normally 10 (0 to 11).

    Returns:
        ``(deadwood, melds)``: points, and the melds as tuples of card indexes: the runs of
        each suit in turn (S H D C, each by rank; every maximal block of ≥3 consecutive ranks
        is one run), then the groups by rank (each in suit order).

    Raises:
        ValueError: more than 11 indexes, an index is not a whole number 0–51, or a card
            appears twice.
    """
    try:  # 10 indexes: the packed cards added by name (twice as fast as sum() over map())
        s0, s1, s2, s3, s4, s5, s6, s7, s8, s9 = indexes
    except ValueError:  # another count
        n = len(indexes)
        if n > _MOST_CARDS:
            raise ValueError(_TOO_MANY) from None
        x = _index_sum(indexes)
    else:
        n = 10
        t = _index_cards
        try:
            x = t[s0] + t[s1] + t[s2] + t[s3] + t[s4] + t[s5] + t[s6] + t[s7] + t[s8] + t[s9]
        except (KeyError, TypeError):  # a bad index, or the first use
            x = _index_sum(indexes)
    h = x >> _HAND_AT
    if h.bit_count() != n:
        raise ValueError(_TWICE)
    # the top bit of each lane holding ≥3 cards: a group or a run
    g = (x + _LANE_ONES) & _LANE_FOURS
    if not g:  # no run, no rank held in ≥3 suits: no meld; the value of the hand
        return x & 511, ()
    g &= _GROUP_FOURS  # the ranks held in ≥3 suits
    r = h & (h >> 1) & (h >> 2)  # the cards starting 3 consecutive ranks of their suit
    if not g:
        try:  # runs in one suit: their value and their runs in one look-up
            value, runs = _runs10[r]
        except KeyError:
            pass
        else:
            return (x & 511) - value, runs
        a = h & 0x1FFF
        b = (h >> 16) & 0x1FFF
        c = (h >> 32) & 0x1FFF
        d = h >> 48
        table = _index_dw  # no group: the runs of each suit
        return (
            table[a] + table[b] + table[c] + table[d],
            _runs0[a] + _runs1[b] + _runs2[c] + _runs3[d],
        )
    tri = _tri_of[g]  # at most 3 such ranks in 11 cards
    named = _index_groups
    if not r:
        # no run: each rank held in ≥3 suits is a group (what _choices10 finds: no card of
        # it is in a block of ≥3 consecutive ranks), the rest is deadwood: the value left
        # once the groups' cards are taken away (one or two ranks: one look-up)
        try:
            value, groups_melds = _groups10[h & _column_of[tri]]
        except KeyError:
            pass
        else:
            return (x & 511) - value, groups_melds
        packed = _group_packed
        melds: _Runs = ()
        while tri:
            low = tri & -tri
            tri ^= low
            col = h & _column_of[low]
            melds += (named[col],)
            x -= packed[col]
        return x & 511, melds
    a = h & 0x1FFF
    b = (h >> 16) & 0x1FFF
    c = (h >> 32) & 0x1FFF
    d = h >> 48
    best, groups, a, b, c, d, names = (_best10 if tri & (tri - 1) else _best10_one_rank)(
        h, tri, a, b, c, d
    )
    melds = _runs0[a] + _runs1[b] + _runs2[c] + _runs3[d]
    if names is not None:
        return best, melds + names
    ranks = (groups | groups >> 16 | groups >> 32 | groups >> 48) & 0x1FFF
    while ranks:  # the groups by rank
        rank = ranks & -ranks
        ranks ^= rank
        melds += (named[groups & _column_of[rank]],)
    return best, melds


def index_discard(indexes: Sequence[int]) -> tuple[int, int, _Runs, int]:
    """The best discard from a hand given as card indexes (RULES.md §5), with the melds of the
    cards kept as card indexes (the answer of :func:`best_discard`).

    Args:
        indexes: distinct card indexes as for :func:`index_melds`, normally 11 (1 to 11).

    Returns:
        ``(deadwood, discard, melds, full_deadwood)``: the least deadwood of the cards kept
        (points), the discarded card's index (tie-break of the module docstring), the melds of
        the cards kept (as in :func:`index_melds`), and the least deadwood of all the cards
        (0 = big gin for 11 cards).

    Raises:
        ValueError: no index or more than 11, an index is not a whole number 0–51, or a card
            appears twice.
    """
    # the cards packed as _index_cards11: the hand mask from bit 232, the lanes from bit 61,
    # the rank-major bits in bits 9-60
    try:  # 11 indexes: as in index_melds
        s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10 = indexes
    except ValueError:  # another count
        n = len(indexes)
        if n > _MOST_CARDS:
            raise ValueError(_TOO_MANY) from None
        if not n:
            raise ValueError("no card to discard") from None
        x = _index_sum(indexes, True)
    else:
        n = 11
        t = _index_cards11
        try:
            x = t[s0] + t[s1] + t[s2] + t[s3] + t[s4] + t[s5] + t[s6] + t[s7] + t[s8] + t[s9]
            x += t[s10]
        except (KeyError, TypeError):  # a bad index, or the first use
            x = _index_sum(indexes, True)
    h = x >> _HAND_AT11
    if h.bit_count() != n:
        raise ValueError(_TWICE)
    g = (x + _LANE_ONES11) & _LANE_FOURS11  # as in index_melds
    if not g:
        # no meld in the hand, so none in any hand kept: discard the card of highest value,
        # then highest rank, then suit S H D C: the highest rank-major bit
        bl = (x & 0x1FFF_FFFF_FFFF_FFFF).bit_length()
        total = x & 511
        return total - _top_value[bl], _top_card[bl], (), total
    r = h & (h >> 1) & (h >> 2)  # the cards starting 3 consecutive ranks of their suit
    g &= _GROUP_FOURS11  # the ranks held in ≥3 suits
    if not g:
        try:  # runs in one suit: the packed sum of their cards and their runs in one look-up
            packed, melds = _runs11[r]
        except KeyError:
            pass
        else:
            y = x - packed  # the cards in no run
            if y >> _HAND_AT11:
                # a card in no run: discarding it saves its value, discarding a card of a
                # run saves nothing (it can only break the run), so the discard is the card
                # in no run of highest value, then rank, then suit: as for no meld
                bl = (y & 0x1FFF_FFFF_FFFF_FFFF).bit_length()
                total = y & 511
                return total - _top_value[bl], _top_card[bl], melds, total
        # runs, no group: the four suits' best drops (as in _discard_search), the runs of the
        # suit the discard leaves from the drop table
        a = h & 0x1FFF
        b = (h >> 16) & 0x1FFF
        c = (h >> 32) & 0x1FFF
        d = h >> 48
        table = _index_dw
        full = table[a] + table[b] + table[c] + table[d]
        z0, z1, z2, z3 = _discard_tables
        key = z0[a]
        y = z1[b]
        if y < key:
            key = y
        y = z2[c]
        if y < key:
            key = y
        y = z3[d]
        if y < key:
            key = y
        low = key & 255
        s = low & 3
        if s == 0:
            melds = _drop_runs0[a] + _runs1[b] + _runs2[c] + _runs3[d]
        elif s == 1:
            melds = _runs0[a] + _drop_runs1[b] + _runs2[c] + _runs3[d]
        elif s == 2:
            melds = _runs0[a] + _runs1[b] + _drop_runs2[c] + _runs3[d]
        else:
            melds = _runs0[a] + _runs1[b] + _runs2[c] + _drop_runs3[d]
        return (key >> 8) + full - 64, _index_discard[low], melds, full
    tri = _tri_of11[g]  # at most 3 such ranks in 11 cards
    named = _index_groups
    groups_melds: _Runs = ()
    if not r:
        # no run: what _discard_search finds is every rank held in ≥3 suits as its whole
        # group, and the best drop from the other cards (all deadwood: breaking a group only
        # adds deadwood), found as for a hand with no meld from the packed sum of the others
        try:  # one or two ranks: one look-up
            y, groups_melds = _groups11[h & _column_of[tri]]
        except KeyError:
            in_groups = _group_packed11
            y = 0
            ranks = tri
            while ranks:
                low = ranks & -ranks
                ranks ^= low
                col = h & _column_of[low]
                groups_melds += (named[col],)
                y += in_groups[col]
        y = x - y  # the packed sum of the cards in no group
        if y >> _HAND_AT11:  # some card outside the groups
            bl = (y & 0x1FFF_FFFF_FFFF_FFFF).bit_length()
            total = y & 511
            return total - _top_value[bl], _top_card[bl], groups_melds, total
        groups_melds = ()
    a = h & 0x1FFF
    b = (h >> 16) & 0x1FFF
    c = (h >> 32) & 0x1FFF
    d = h >> 48
    if tri & (tri - 1):
        key, groups, full, a, b, c, d, names = _discard_groups(h, tri, a, b, c, d, r)
    else:
        key, groups, full, a, b, c, d, names = _discard_one_rank(h, tri, a, b, c, d)
    if names is not None:
        groups_melds = names
    else:
        ranks = (groups | groups >> 16 | groups >> 32 | groups >> 48) & 0x1FFF
        while ranks:  # the groups by rank
            rank = ranks & -ranks
            ranks ^= rank
            groups_melds += (named[groups & _column_of[rank]],)
    # the runs: those of the suit the discard leaves from the drop table
    low = key & 255
    s = low & 3
    if s == 0:
        melds = _drop_runs0[a] + _runs1[b] + _runs2[c] + _runs3[d]
    elif s == 1:
        melds = _runs0[a] + _drop_runs1[b] + _runs2[c] + _runs3[d]
    elif s == 2:
        melds = _runs0[a] + _runs1[b] + _drop_runs2[c] + _runs3[d]
    else:
        melds = _runs0[a] + _runs1[b] + _runs2[c] + _drop_runs3[d]
    return (key >> 8) - 64, _index_discard[low], melds + groups_melds, full


# -- Card <-> mask ------------------------------------------------------------------------------


def laid_out(
    cards: Sequence[Card],
) -> tuple[int, tuple[tuple[Card, ...], ...], tuple[Card, ...], Discard | None]:
    """The whole answer for 10 cards (:func:`best_arrangement`) or 11 (:func:`best_discard`,
    the arrangement of the 10 kept), the unmatched cards laid out at once: for a caller that
    reads every field (``rules.variants.gin.analyse_hand``, the judge's ``hand`` check).

    Returns:
        ``(deadwood, melds, unmatched, discard)``: the arrangement's fields, and the
        :class:`Discard` of 11 cards (else ``None``).

    Raises:
        ValueError: as :func:`best_arrangement` or :func:`best_discard`.
    """
    if len(cards) == 11:
        d: Discard | None = best_discard(cards)
        assert d is not None
        arr = d._arrangement
        if arr is None:  # the fields Discard.arrangement would be made from
            deadwood = d._deadwood
            melds = d._melds
            m = d._rest ^ d._discard._pack
            keyed = d._keyed
            got = None
        else:
            deadwood, melds, got = arr._deadwood, arr._melds, arr._unmatched
            if got is None:
                m, keyed = arr._rest, arr._keyed
    else:
        d = None
        arr = best_arrangement(cards)
        deadwood, melds, got = arr._deadwood, arr._melds, arr._unmatched
        if got is None:
            m, keyed = arr._rest, arr._keyed
    if got is None:  # as Arrangement.unmatched
        for key, _ in keyed:
            m ^= key
        lo = m >> 9 & 0xFFF_FFFF
        hi = m >> 37 & 0xFF_FFFF
        t0, t1, t2, t3, t4, t5, t6 = _rm_chunks
        got = (
            t0[lo & 255]
            + t1[lo >> 8 & 255]
            + t2[lo >> 16 & 255]
            + t3[lo >> 24]
            + t4[hi & 255]
            + t5[hi >> 8 & 255]
            + t6[hi >> 16]
        )
        if arr is not None:
            arr._unmatched = got
    return deadwood, melds, got, d


def _card_tables() -> tuple[tuple[Card, ...], dict[Card, int]]:
    global _cards, _bits, _canonical
    if not _cards:
        cards = [Card(1, _SUITS[0])] * 64
        canonical = [Card(1, _SUITS[0])] * 64
        for s, suit in enumerate(_SUITS):
            for r in range(1, 14):
                cards[16 * s + r - 1] = canonical[4 * (r - 1) + s] = Card(r, suit)
        _canonical = tuple(canonical)
        _cards = tuple(cards)
        _encode_new([_cards[16 * s + r] for s in range(4) for r in range(13)])
        _bits = {
            c: 1 << (16 * s + c.rank - 1) for s in range(4) for c in _cards[16 * s : 16 * s + 13]
        }
    return _cards, _bits


def card_bit(card: Card) -> int:
    """The hand-mask bit of one card."""
    bits = _bits or _card_tables()[1]
    return bits[card]


_bit_of: Final = attrgetter("_bit")
"""A card's hand-mask bit, cached in its spare slot (``rules.pieces._CardCache``)."""


def encode(cards: Iterable[Card]) -> int:
    """Hand mask of distinct cards.

    The bit of each card is cached on the card object (its spare slot) the first time it is
    encoded, so encoding the same objects again (the judge reads each token to one object; the
    melds and deadwood of every answer are the 52 shared cards) is one sum.

    Raises:
        ValueError: a card appears twice (gin is played with one 52-card deck).
    """
    if not isinstance(cards, (list, tuple)):
        cards = list(cards)
    try:
        h: int = sum(map(_bit_of, cards))  # distinct bits: the sum is the union
    except AttributeError:  # a card met for the first time
        h = _encode_new(cards)
    if h.bit_count() != len(cards):  # a bit given twice carries: fewer bits than cards
        raise ValueError("a card appears twice; gin is played with one 52-card deck")
    return h


_pack_of: Final = attrgetter("_pack")
"""A card's packed value for the Card-level calls, cached in its spare slot on first use."""


def hand_value(cards: Sequence[Card]) -> int:
    """Total value (points) of distinct cards (ace 1, 2–10 face value, J Q K 10).

    Adds up the packed values a Card-level call cached on the cards (the value is their low 9
    bits: up to 52 distinct cards add up to at most 340, no carry; their hand-mask bits, on top,
    say whether a card is given twice), else reads the cards' hand mask.

    Raises:
        ValueError: a card appears twice.
    """
    try:
        n = len(cards)
        if n == 10:  # a gin hand: the cards read by name, as in best_arrangement (no map, no sum)
            c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 = cards
            packed: int = c0._pack + c1._pack + c2._pack + c3._pack + c4._pack + c5._pack
            packed += c6._pack + c7._pack + c8._pack + c9._pack
        elif n == 11:  # and the card drawn
            c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10 = cards
            packed = c0._pack + c1._pack + c2._pack + c3._pack + c4._pack + c5._pack
            packed += c6._pack + c7._pack + c8._pack + c9._pack + c10._pack
        else:
            packed = sum(map(_pack_of, cards))
    except AttributeError:  # a card met for the first time
        return value_mask(encode(cards))
    except TypeError:  # no len(): an iterable read once
        try:
            packed = sum(map(_pack_of, cards))
        except AttributeError:
            return value_mask(encode(cards))
        n = len(cards)  # raises, as before
    if (packed >> _HAND_AT11).bit_count() != n:  # a card twice: its bits carried
        return value_mask(encode(cards))  # raises
    return packed & 511


def _encode_new(cards: Sequence[Card]) -> int:
    """The hand mask of ``cards`` (repeats counted once), caching each card's bit on it."""
    spades, hearts, diamonds, _ = _SUITS
    setattr_ = object.__setattr__
    h = 0
    for c in cards:
        s = c.suit
        bit = (
            1
            if s is spades
            else 0x1_0000
            if s is hearts
            else 0x1_0000_0000
            if s is diamonds
            else 0x1_0000_0000_0000
        ) << (c.rank - 1)
        setattr_(c, "_bit", bit)
        h |= bit
    return h


def _in_bit_order(h: int) -> list[Card]:
    """The cards of ``h`` by suit, then rank (canonical order for a run or a group)."""
    cards = _cards or _card_tables()[0]
    out: list[Card] = []
    m = h
    while m:
        low = m & -m
        m ^= low
        out.append(cards[low.bit_length() - 1])
    return out


def decode(h: int) -> list[Card]:
    """The cards of hand mask ``h`` in canonical order (rank, then suit S H D C)."""
    if not _cards:
        _card_tables()
    keys: list[int] = []
    m = h
    while m:
        low = m & -m
        m ^= low
        i = low.bit_length() - 1
        keys.append(((i & 15) << 2) | (i >> 4))
    keys.sort()
    canonical = _canonical
    return [canonical[k] for k in keys]


def value_mask(h: int) -> int:
    """Total value (points) of the cards in hand mask ``h``."""
    vsum = _value_table if _value_table is not None else _tables()[1]
    return (
        vsum[h & SUIT_MASK]
        + vsum[(h >> 16) & SUIT_MASK]
        + vsum[(h >> 32) & SUIT_MASK]
        + vsum[h >> 48]
    )


def _meld_key(meld: int) -> int:
    """Sort key of a meld mask: its lowest card's rank, then suit, then size (from bit 61), and
    in bits 9-60 the rank-major mask of its cards, where a packed sum of :data:`_index_cards11`
    holds it (:attr:`Arrangement.unmatched` takes the melds out of a hand by their keys)."""
    i = (meld & -meld).bit_length() - 1
    rm = 0
    m = meld
    while m:
        low = m & -m
        m ^= low
        j = low.bit_length() - 1
        rm |= 1 << (9 + 4 * (j & 15) + 3 - (j >> 4))
    return (((i & 15) << 8) | ((i >> 4) << 4) | meld.bit_count()) << 61 | rm


_melds_by_mask: dict[int, tuple[int, tuple[Card, ...]]] = {}
"""Meld mask (a run: one block of ≥3 consecutive ranks of a suit; a group: 3 or 4 cards of a
rank) → ``(meld key, cards)``, runs by rank, groups by suit; filled on use (at most 329)."""
_spread_low: list[int] = []
"""7-bit suit-mask part → its ranks spread 4 bits apart (bit ``4 * (rank - 1)``)."""
_rm_chunks: list[list[tuple[Card, ...]]] = []
"""Seven chunks, for the ranks (A, 2), (3, 4), (5, 6), (7), (8, 9), (10, J), (Q, K): 8-bit part
(4-bit for the 7s) of a *rank-major* mask (bit ``4 * (rank - first rank of the chunk) + 3 -
suit``; also the rank-major bits of a packed sum of :data:`_index_cards11`, shifted down by 9)
→ its cards in canonical order (rank, then suit S H D C). The masks of ranks A-7 and 8-K are 28
and 24 bits: small ints. :func:`_rm_cards` reads them (the Card-level calls' hot paths read them
inline, as it does)."""
_new_object: Final = object.__new__  # builds an Arrangement or a Discard without its __init__


def _layout_tables() -> None:
    """Build (once) the small tables :func:`_canonical_cards` and :func:`_rm_cards` read (about
    2 ms; 1,552 tuples and a short list, so they stay in the processor's cache)."""
    if not _rm_chunks:
        if not _cards:
            _card_tables()
        spread = [0] * 128
        for m in range(1, 128):
            low = m & -m
            spread[m] = spread[m ^ low] | 1 << (4 * (low.bit_length() - 1))
        _spread_low.extend(spread)
        canonical = _canonical
        # the chunks' ranks, 0-based: (0, 1), (2, 3), (4, 5), (6), then of the high part (7, 8) ...
        for first, count in ((0, 2), (2, 2), (4, 2), (6, 1), (7, 2), (9, 2), (11, 2)):
            _rm_chunks.append(
                [
                    tuple(
                        canonical[4 * rank0 + s]
                        for rank0 in range(first, first + count)
                        for s in range(4)
                        if part >> (4 * (rank0 - first) + 3 - s) & 1
                    )
                    for part in range(1 << 4 * count)
                ]
            )


def _meld_entry(mask: int) -> tuple[int, tuple[Card, ...]]:
    """``(meld key, cards in bit order)`` of a meld mask (stored in :data:`_melds_by_mask`)."""
    got = (_meld_key(mask), tuple(_in_bit_order(mask)))
    _melds_by_mask[mask] = got
    return got


def _canonical_cards(h: int) -> tuple[Card, ...]:
    """The cards of ``h`` in canonical order (rank, then suit S H D C), through small tables."""
    if not _rm_chunks:
        _layout_tables()
    sp = _spread_low
    a = h & 0x1FFF
    b = (h >> 16) & 0x1FFF
    c = (h >> 32) & 0x1FFF
    d = h >> 48
    # the rank-major masks of ranks A-7 and 8-K apart (bit 4 * rank + 3 - suit)
    x = sp[a & 127] << 3 | sp[b & 127] << 2 | sp[c & 127] << 1 | sp[d & 127]
    y = sp[a >> 7] << 3 | sp[b >> 7] << 2 | sp[c >> 7] << 1 | sp[d >> 7]
    return _rm_cards(x | y << 28)


def _layout(h: int, groups: int, deadwood: int = -1, runs: int = -1) -> Arrangement:
    """The arrangement of ``h`` with the cards of ``groups`` in groups and the rest in runs
    (``deadwood``: its deadwood when the caller knows it, else ``-1``; ``runs``: the cards in
    runs when the caller knows them, else ``-1``).

    Reads only small tables and dicts (the meld entries met so far), so it stays fast when the
    processor's caches are cold (between requests, or interleaved with other work)."""
    rest = h ^ groups
    if runs < 0:
        r = rest & (rest >> 1) & (rest >> 2)
        runs = rest & (r | (r << 1) | (r << 2))
    loose = rest ^ runs
    if runs or groups:
        cached = _melds_by_mask
        keyed: list[tuple[int, tuple[Card, ...]]] = []
        m = runs
        while m:  # each maximal block is one run (the spare bits end a block at its suit's top)
            low = m & -m
            block = m & ~(m + low)
            m ^= block
            keyed.append(cached.get(block) or _meld_entry(block))
        g = groups
        while g:
            low = g & -g
            col = groups & (_COLUMN << ((low.bit_length() - 1) & 15))
            g ^= col
            keyed.append(cached.get(col) or _meld_entry(col))
        if len(keyed) == 1:
            melds: tuple[tuple[Card, ...], ...] = (keyed[0][1],)
        else:
            keyed.sort()
            melds = tuple(map(_second, keyed))
    else:
        melds = ()
    if deadwood < 0:
        vsum = _value_table if _value_table is not None else _tables()[1]
        deadwood = (
            vsum[loose & SUIT_MASK]
            + vsum[(loose >> 16) & SUIT_MASK]
            + vsum[(loose >> 32) & SUIT_MASK]
            + vsum[loose >> 48]
        )
    made = _new_object(Arrangement)  # Arrangement(...) without the call to __init__
    made._deadwood = deadwood
    made._melds = melds
    made._unmatched = _canonical_cards(loose) if loose else ()
    made._rest = 0
    return made


_second: Final = itemgetter(1)


def arrangement_mask(h: int) -> Arrangement:
    """:func:`best_arrangement` of hand mask ``h``: the melds and deadwood as cards (the 52
    shared card objects).

    Raises:
        ValueError: a hand holding more than 3 ranks in ≥3 suits (12 cards or more).
    """
    dw, groups, runs = melds_mask(h)
    return _layout(h, groups, dw, runs)


# -- Card-level API -----------------------------------------------------------------------------


_Melds = tuple[tuple[Card, ...], ...]
_card_runs11: dict[int, tuple[int, _Melds]] = {}
""":data:`_runs11` with the runs as tuples of the 52 shared cards."""
_card_groups11: dict[int, tuple[int, _Melds]] = {}
""":data:`_groups11` with the groups as tuples of the 52 shared cards."""
_top_cards: list[Card] = []
""":data:`_top_card` as card objects."""
_low_card: list[Card] = []
"""Low byte of a packed discard key (:data:`_discard_tables`) → the discarded card (as
:data:`_index_discard`, the 52 shared cards)."""
_Keyed = tuple[tuple[int, tuple[Card, ...]], ...]
_keyed_runs: list[list[_Keyed]] = []
"""For each suit (S H D C), each 13-bit suit mask → its runs as ``(meld key, cards)`` pairs:
:data:`_runs0` … for the Card-level calls (the keys of :func:`_meld_key`, which order the
melds). Masks with the same runs share one tuple."""
_keyed_drop_runs: list[list[_Keyed]] = []
"""As :data:`_keyed_runs`, from :data:`_drop_runs0` … (the suit's best single drop removed)."""
_keyed_groups: dict[int, _Keyed] = {}
"""The cards of the groups of no rank, one or two (a group of 3 or 4 each; a hand mask) → the
groups as ``(meld key, cards)`` pairs, by rank."""


def _card_level_tables() -> None:
    """Build (once) the tables of the Card-level calls' packed path (on top of the card-index
    calls' tables, :func:`_index_tables`; a few ms), and set the packed value of each of the 52
    shared cards on it (:class:`Arrangement` reads them to lay out the unmatched cards)."""
    if _keyed_groups:
        return
    _index_tables()
    _layout_tables()
    by_index = [_cards[16 * (i // 13) + i % 13] for i in range(52)]
    setattr_ = object.__setattr__
    for i, card in enumerate(by_index):
        setattr_(card, "_pack", _index_cards11[i])

    def named(melds: _Runs) -> _Melds:
        return tuple(tuple(by_index[i] for i in meld) for meld in melds)

    for r, (packed, runs) in _runs11.items():
        _card_runs11[r] = (packed, named(runs))
    for col, (packed, groups) in _groups11.items():
        _card_groups11[col] = (packed, named(groups))
    _top_cards.extend(by_index[i] if i >= 0 else by_index[0] for i in _top_card)
    _low_card.extend(by_index[i] if i >= 0 else by_index[0] for i in _index_discard)
    keyed: dict[_Runs, _Keyed] = {}  # masks with the same runs share one entry

    def entry(runs: _Runs) -> _Keyed:
        got = keyed.get(runs)
        if got is None:
            masks = [sum(1 << (16 * (i // 13) + i % 13) for i in run) for run in runs]
            got = keyed[runs] = tuple(_melds_by_mask.get(m) or _meld_entry(m) for m in masks)
        return got

    for runs_s in (_runs0, _runs1, _runs2, _runs3):
        _keyed_runs.append([entry(runs) for runs in runs_s])
    for runs_s in (_drop_runs0, _drop_runs1, _drop_runs2, _drop_runs3):
        _keyed_drop_runs.append([entry(runs) for runs in runs_s])
    one = [  # each group: its mask, its rank, (key, cards)
        (col, group[0] % 13, _melds_by_mask.get(col) or _meld_entry(col))
        for col, group in _index_groups.items()
    ]
    _keyed_groups[0] = ()
    for col, rank0, group in one:
        _keyed_groups[col] = (group,)
        for col2, rank2, group2 in one:
            if rank2 > rank0:  # the lower rank first
                _keyed_groups[col | col2] = (group, group2)


def _rm_cards(m: int) -> tuple[Card, ...]:
    """The cards of rank-major mask ``m`` (:data:`_rm_chunks`; bits above its 52 ignored) in
    canonical order (rank, then suit S H D C)."""
    lo = m & 0xFFF_FFFF  # ranks A-7: small ints (faster than one of 52 bits)
    hi = (m >> 28) & 0xFF_FFFF  # ranks 8-K
    c0, c1, c2, c3, c4, c5, c6 = _rm_chunks
    return (
        c0[lo & 255]
        + c1[lo >> 8 & 255]
        + c2[lo >> 16 & 255]
        + c3[lo >> 24]
        + c4[hi & 255]
        + c5[hi >> 8 & 255]
        + c6[hi >> 16]
    )


def _pack_new(cards: Iterable[Card]) -> int | None:
    """The sum of the packed cards (:data:`_index_cards11`) of ``cards``, caching each card's
    packed value on it (its ``_pack`` slot); ``None`` when one is no card of the 52 (the caller
    then takes the mask path, which says what is wrong)."""
    if not _keyed_groups:
        _card_level_tables()
    packed = _index_cards11
    setattr_ = object.__setattr__
    x = 0
    for c in cards:
        if not isinstance(c, Card) or c.suit not in _SUITS:
            return None
        rank = c.rank
        if type(rank) is not int or not 1 <= rank <= 13:
            return None
        p = packed[13 * _SUITS.index(c.suit) + rank - 1]
        setattr_(c, "_pack", p)
        x += p
    return x


def _three_groups(groups: int) -> _Keyed:
    """The entries of :data:`_keyed_groups` of groups of three ranks (a hand mask), by rank."""
    got: _Keyed = ()
    ranks = (groups | groups >> 16 | groups >> 32 | groups >> 48) & 0x1FFF
    while ranks:
        rank = ranks & -ranks
        ranks ^= rank
        got += _keyed_groups[groups & _column_of[rank]]
    return got


def _hand_mask(cards: Iterable[Card]) -> int:
    """:func:`encode` of a hand, refusing more than 11 cards (:data:`_MOST_CARDS`).

    Raises:
        ValueError: a card appears twice, or more than 11 cards.
    """
    h = encode(cards)
    if h.bit_count() > _MOST_CARDS:
        raise ValueError(_TOO_MANY)
    return h


def hand_deadwood(cards: Iterable[Card]) -> int:
    """Least deadwood (points) of distinct cards (at most 11); the number only (fastest
    Card-level call).

    Raises:
        ValueError: a card appears twice, or more than 11 cards.
    """
    return deadwood_mask(_hand_mask(cards))


def best_arrangement(cards: Iterable[Card]) -> Arrangement:
    """The least-deadwood arrangement of a hand (RULES.md §5: a card fitting both a group and a
    run goes where it leaves least deadwood).

    Args:
        cards: distinct cards, normally 10 (0 to 11).

    Returns:
        ``(deadwood, melds, unmatched)``. Among equal-deadwood arrangements, the first in a fixed
        order that tries, rank by rank from the ace up, the group of 4, then the groups of 3, then
        no group (see :func:`best_arrangements` for all of them).

    Raises:
        ValueError: a card appears twice, or more than 11 cards.
    """
    kind = type(cards)  # type(): faster than isinstance (a subclass is copied: the same)
    if kind is not list and kind is not tuple:
        cards = list(cards)
    try:  # 10 cards: their packed values (cached on them) added by name, as in index_melds
        c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 = cards
        x = c0._pack + c1._pack + c2._pack + c3._pack + c4._pack + c5._pack + c6._pack
        x += c7._pack + c8._pack + c9._pack
    except ValueError:  # another count
        return arrangement_mask(_hand_mask(cards))
    except AttributeError:  # a card met for the first time (or no card)
        got = _pack_new(cards)
        if got is None:
            return arrangement_mask(_hand_mask(cards))
        x = got
    h = x >> _HAND_AT11
    if h.bit_count() != 10:
        raise ValueError(_TWICE)
    # the answer: the deadwood and the melds now, the unmatched cards (the cards of x not in a
    # meld) laid out when first read (Arrangement.unmatched)
    made = _new_object(Arrangement)
    made._unmatched = None
    g = (x + _LANE_ONES11) & _LANE_FOURS11  # as in index_melds
    if not g:  # no meld: every card is deadwood
        made._deadwood = x & 511
        made._melds = made._keyed = ()
        made._rest = x
        return made
    # runs in one suit and no group, or groups of one or two ranks and no run: the melds by one
    # look-up (as in index_melds), no search
    gg = g & _GROUP_FOURS11
    r = h & (h >> 1) & (h >> 2)
    if not gg:
        melds = _card_runs11.get(r)
    elif not r:
        melds = _card_groups11.get(h & _tri_col11[gg])
    else:
        melds = None
    if melds is None:  # a search (as in index_melds), the melds from the run entries and groups
        a = h & 0x1FFF
        b = (h >> 16) & 0x1FFF
        c = (h >> 32) & 0x1FFF
        d = h >> 48
        if gg:  # groups and runs, or groups of three ranks and no run
            tri = _tri_of11[gg]
            best, groups, a, b, c, d, _ = (_best10 if tri & (tri - 1) else _best10_one_rank)(
                h, tri, a, b, c, d
            )
        else:  # runs in several suits and no group: each suit's runs, no choice to make
            table = _index_dw
            best = table[a] + table[b] + table[c] + table[d]
            groups = 0
        k0, k1, k2, k3 = _keyed_runs
        try:  # the groups' entries (groups of three ranks: one at a time)
            keyed = _keyed_groups[groups]
        except KeyError:
            keyed = _three_groups(groups)
        keyed = k0[a] + k1[b] + k2[c] + k3[d] + keyed
        # the melds by their lowest card (rank, then suit; _meld_key), written out here and in
        # best_discard alike on purpose: a shared function's call is a few % of these calls
        n = len(keyed)
        if n == 2:
            (u, first), (u2, second) = keyed
            melds_c: _Melds = (first, second) if u < u2 else (second, first)
        elif n == 3:
            (u, first), (u2, second), (u3, third) = keyed
            if u < u2:
                if u2 < u3:
                    melds_c = (first, second, third)
                elif u < u3:
                    melds_c = (first, third, second)
                else:
                    melds_c = (third, first, second)
            elif u < u3:
                melds_c = (second, first, third)
            elif u2 < u3:
                melds_c = (second, third, first)
            else:
                melds_c = (third, second, first)
        elif n == 1:
            melds_c = (keyed[0][1],)
        else:
            melds_c = tuple(map(_second, sorted(keyed)))
        made._deadwood = best
        made._melds = melds_c
        made._rest = x
        made._keyed = keyed
        return made
    y = x - melds[0]  # the packed sum of the cards in no meld
    made._deadwood = y & 511
    made._melds = melds[1]
    made._rest = y
    made._keyed = ()
    return made


def best_arrangements(cards: Iterable[Card]) -> list[Arrangement]:
    """Every least-deadwood arrangement of a hand of at most 11 cards (distinct choices of
    groups; runs maximal).

    Raises:
        ValueError: a card appears twice, or more than 11 cards.
    """
    h = _hand_mask(cards)
    _, found = arrangements_mask(h)
    return [_layout(h, g) for g in found]


def best_discard(cards: Iterable[Card]) -> Discard:
    """The discard from 11 cards leaving least deadwood (RULES.md §5).

    Args:
        cards: 11 distinct cards (1 to 11).

    Returns:
        :class:`Discard`: the card (ties: highest value, then highest rank, then suit S H D C),
        the arrangement of the 10 kept, ``big_gin`` (all 11 melded) and the 11-card arrangement.

    Raises:
        ValueError: no cards, more than 11, or a card appears twice.
    """
    kind = type(cards)  # type(): faster than isinstance (a subclass is copied: the same)
    if kind is not list and kind is not tuple:
        cards = list(cards)
    try:  # 11 cards: as in best_arrangement
        c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10 = cards
        x = c0._pack + c1._pack + c2._pack + c3._pack + c4._pack + c5._pack + c6._pack
        x += c7._pack + c8._pack + c9._pack + c10._pack
    except ValueError:  # another count
        return discard_of_mask(_hand_mask(cards))
    except AttributeError:
        got = _pack_new(cards)
        if got is None:
            return discard_of_mask(_hand_mask(cards))
        x = got
    h = x >> _HAND_AT11
    if h.bit_count() != 11:
        raise ValueError(_TWICE)
    g = (x + _LANE_ONES11) & _LANE_FOURS11
    if g:  # the melds by one look-up where no search is needed (as in best_arrangement)
        gg = g & _GROUP_FOURS11
        r = h & (h >> 1) & (h >> 2)
        if not gg:  # runs only: in one suit with some card in no run, else the drop tables
            melds = _card_runs11.get(r)
            if melds is None:
                return _discard_searched(x, h, 0, r)
            y = x - melds[0]
            if not y >> _HAND_AT11:
                return _discard_searched(x, h, 0, r)
        else:
            tri = _tri_of11[gg]
            if r:  # runs and groups
                return _discard_searched(x, h, tri, r)
            melds = _card_groups11.get(h & _column_of[tri])
            if melds is None:  # groups of three ranks and no run: the search
                return _discard_searched(x, h, tri, r)
            y = x - melds[0]
            if not y >> _HAND_AT11:  # every card in groups
                return _discard_searched(x, h, tri, r)
        kept = melds[1]
    else:
        y = x
        kept = ()
    # some card in no meld: discarding one saves its value, discarding a melded card saves
    # nothing, so the discard is the card in no meld of highest value, then rank, then suit
    # (as in index_discard): the highest rank-major bit of their packed sum
    y &= 0x1FFF_FFFF_FFFF_FFFF  # the value and the rank-major bits (a small int)
    bl = y.bit_length()
    # Discard(...) without the call to __init__, its arrangement made when first read (speed
    # only; Discard.arrangement, the unmatched cards laid out later: Arrangement.unmatched)
    made = _new_object(Discard)
    made._discard = _top_cards[bl]
    made._arrangement = None
    made._deadwood = (y & 511) - _top_value[bl]
    made._melds = kept
    made._rest = y  # the cards in no meld (the discard taken out when the arrangement is made)
    made._keyed = ()
    made._big_gin = False
    made._hand = h
    return made


def _discard_searched(x: int, h: int, tri: int, r: int) -> Discard:
    """:func:`best_discard` of a hand with a meld that no one look-up lays out (a rank held in
    ≥3 suits and a run, every card in groups, groups of three ranks, runs in several suits or
    every card in runs), from its packed sum ``x``, hand mask ``h``, ranks held in ≥3 suits
    ``tri`` (rank bits; 0: none) and run starts ``r`` (``h & h >> 1 & h >> 2``): the search of
    :func:`index_discard`, the melds from the run entries (:data:`_keyed_runs`; the discard's
    suit from :data:`_keyed_drop_runs`)."""
    a = h & 0x1FFF
    b = (h >> 16) & 0x1FFF
    c = (h >> 32) & 0x1FFF
    d = h >> 48
    if not tri:  # runs only: each suit's run-only deadwood and the least of its best drops
        table = _index_dw
        z0, z1, z2, z3 = _discard_tables
        full = table[a] + table[b] + table[c] + table[d]
        key = z0[a]
        y = z1[b]
        if y < key:
            key = y
        y = z2[c]
        if y < key:
            key = y
        y = z3[d]
        if y < key:
            key = y
        key += full << 8
        groups = 0
    elif tri & (tri - 1):
        key, groups, full, a, b, c, d, _ = _discard_groups(h, tri, a, b, c, d, r)
    else:
        key, groups, full, a, b, c, d, _ = _discard_one_rank(h, tri, a, b, c, d)
    low = key & 255
    s = low & 3  # the discard's suit: its runs from the drop table
    k0, k1, k2, k3 = _keyed_runs
    try:  # the groups' entries (groups of three ranks: one at a time)
        keyed = _keyed_groups[groups]
    except KeyError:
        keyed = _three_groups(groups)
    if s == 0:
        keyed = _keyed_drop_runs[0][a] + k1[b] + k2[c] + k3[d] + keyed
    elif s == 1:
        keyed = k0[a] + _keyed_drop_runs[1][b] + k2[c] + k3[d] + keyed
    elif s == 2:
        keyed = k0[a] + k1[b] + _keyed_drop_runs[2][c] + k3[d] + keyed
    else:
        keyed = k0[a] + k1[b] + k2[c] + _keyed_drop_runs[3][d] + keyed
    # the melds by their lowest card, as in best_arrangement (kept in step with it)
    n = len(keyed)
    if n == 2:
        (u, first), (u2, second) = keyed
        melds: _Melds = (first, second) if u < u2 else (second, first)
    elif n == 3:
        (u, first), (u2, second), (u3, third) = keyed
        if u < u2:
            if u2 < u3:
                melds = (first, second, third)
            elif u < u3:
                melds = (first, third, second)
            else:
                melds = (third, first, second)
        elif u < u3:
            melds = (second, first, third)
        elif u2 < u3:
            melds = (second, third, first)
        else:
            melds = (third, second, first)
    elif n == 1:
        melds = (keyed[0][1],)
    else:
        melds = tuple(map(_second, sorted(keyed)))
    made = _new_object(Discard)  # as in best_discard
    made._discard = _low_card[low]
    made._arrangement = None
    made._deadwood = (key >> 8) - 64
    made._melds = melds
    made._rest = x  # the 11 cards, the melds' cards taken out by their keys (as in best_discard)
    made._keyed = keyed
    made._big_gin = full == 0
    made._hand = h
    return made


def discard_of_mask(h: int) -> Discard:
    """:func:`best_discard` of hand mask ``h``, the cards being the 52 shared card objects.

    Raises:
        ValueError: ``h`` is empty, or a hand holding more than 3 ranks in ≥3 suits (12 cards
            or more).
    """
    key, groups, full = _discard_search(h)  # the discard and the groups of the 10 kept at once
    bit = _discard_bits[key & 255]
    arrangement = _layout(h ^ bit, groups, (key >> 8) - 64)
    return Discard((_cards or _card_tables()[0])[bit.bit_length() - 1], arrangement, full == 0, h)


def best_discards(cards: Iterable[Card]) -> list[Card]:
    """Every discard from 11 cards that leaves the least deadwood (RULES.md §5).

    Args:
        cards: 11 distinct cards (1 to 11).

    Returns:
        The cards, in the tie-break order of :func:`best_discard` (its choice first).

    Raises:
        ValueError: no cards, more than 11, or a card appears twice.
    """
    h = _hand_mask(cards)
    if not h:
        raise ValueError("no card to discard")
    _, cands, _ = discards_mask(h)
    bits: list[int] = []
    m = cands
    while m:
        low = m & -m
        m ^= low
        bits.append(low)
    bits.sort(key=_discard_key, reverse=True)
    cards_by_bit = _cards or _card_tables()[0]
    return [cards_by_bit[b.bit_length() - 1] for b in bits]


def meld_kind(cards: Sequence[Card]) -> str | None:
    """``"run"`` or ``"group"`` if the cards are a gin meld (RULES.md §2), else ``None``."""
    if len(cards) < 3 or len(set(cards)) != len(cards):
        return None
    ranks = sorted(c.rank for c in cards)
    if len(cards) <= 4 and ranks[0] == ranks[-1]:
        return "group"
    if len({c.suit for c in cards}) == 1 and ranks[-1] - ranks[0] == len(cards) - 1:
        return "run"
    return None


def best_layoffs(defender: Iterable[Card], knocker_melds: Sequence[Sequence[Card]]) -> Layoffs:
    """The defender's least deadwood after laying off onto the knocker's melds (RULES.md §5).

    A card may extend a knocker's run at either end, and a card laid off extends the run for the
    next one (chains); a group of 3 takes the fourth card of its rank; a group of 4 takes
    nothing. The defender may keep a card in an own meld instead, or break an own meld to lay
    off, whichever leaves less deadwood. The search tries every length of every chain and every
    group card (exact).

    Args:
        defender: the defender's distinct cards (normally 10; at most 11).
        knocker_melds: the knocker's melds as laid down (each a gin run or group).

    Returns:
        :class:`Layoffs`; ``layoffs`` name melds by their index in ``knocker_melds``. Among equal
        results the fewest cards laid off.

    Raises:
        ValueError: a knocker meld is not a gin meld, a card appears twice in the defender's hand
            or in the knocker's melds, or in both, or the defender holds more than 11 cards.
    """
    h = _hand_mask(defender)
    knocker = 0
    slots: list[tuple[int, list[int]]] = []  # (meld index, cards in playing order)
    for i, meld in enumerate(knocker_melds):
        kind = meld_kind(meld)
        if kind is None:
            shown = " ".join(str(c) for c in meld)
            raise ValueError(f"knocker meld {i + 1} ({shown}) is not a gin run or group")
        mm = encode(meld)
        if mm & knocker:
            raise ValueError("a card appears in two of the knocker's melds")
        knocker |= mm
        if kind == "group":
            rank0 = meld[0].rank - 1
            missing = (_COLUMN << rank0) & ~mm
            if len(meld) == 3 and missing & h:
                slots.append((i, [missing]))
            continue
        lo = min(c.rank for c in meld) - 1
        hi = max(c.rank for c in meld) - 1
        base = 16 * meld[0].suit.index
        up: list[int] = []
        r = hi + 1
        while r <= 12 and h >> (base + r) & 1:
            up.append(1 << (base + r))
            r += 1
        down: list[int] = []
        r = lo - 1
        while r >= 0 and h >> (base + r) & 1:
            down.append(1 << (base + r))
            r -= 1
        if up:
            slots.append((i, up))
        if down:
            slots.append((i, down))
    if knocker & h:
        raise ValueError("a card is both in the defender's hand and in the knocker's melds")
    before = deadwood_mask(h)
    best = before
    best_choice: tuple[int, ...] = (0,) * len(slots)
    best_count = 0
    for choice in product(*(range(len(chain) + 1) for _, chain in slots)):
        laid = 0
        for (_, chain), k in zip(slots, choice, strict=True):
            for bit in chain[:k]:
                laid |= bit
        if not laid:
            continue
        v = deadwood_mask(h & ~laid)
        count = laid.bit_count()
        if v < best or (v == best and count < best_count):
            best, best_choice, best_count = v, choice, count
    cards = _cards or _card_tables()[0]
    laid = 0
    layoffs: list[Layoff] = []
    for (meld_i, chain), k in zip(slots, best_choice, strict=True):
        for bit in chain[:k]:
            if not bit & laid:
                laid |= bit
                layoffs.append(Layoff(cards[bit.bit_length() - 1], meld_i))
    rest = h & ~laid
    _, found = arrangements_mask(rest)
    own = _layout(rest, found[0])
    return Layoffs(best, tuple(layoffs), own.melds, own.unmatched, before)


def brute_force_deadwood(cards: Iterable[Card], discards: int = 0) -> int:
    """Least deadwood by plain enumeration of disjoint melds (for tests and benchmarks; slow).

    Args:
        cards: distinct cards.
        discards: how many cards may be set aside for free (1 for an 11-card hand's discard).
    """
    hand = sorted(set(cards), key=lambda c: c.sort_key())
    melds: list[frozenset[Card]] = []
    by_rank: dict[int, list[Card]] = {}
    for c in hand:
        by_rank.setdefault(c.rank, []).append(c)
    for same in by_rank.values():
        n = len(same)
        if n >= 3:
            for size in range(3, n + 1):
                for pick in _subsets(same, size):
                    melds.append(frozenset(pick))
    held = set(hand)
    for c in hand:
        run = [c]
        for r in range(c.rank + 1, 14):
            if Card(r, c.suit) not in held:
                break
            run.append(Card(r, c.suit))
            if len(run) >= 3:
                melds.append(frozenset(run))

    def value(c: Card) -> int:
        return _RANK_VALUE[c.rank - 1]

    def search(rest: tuple[Card, ...], free: int) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = value(first) + search(others, free)
        if free:
            best = min(best, search(others, free - 1))
        for m in melds:
            if first in m and m <= set(rest):
                best = min(best, search(tuple(c for c in others if c not in m), free))
        return best

    return search(tuple(hand), discards)


def _subsets(items: list[Card], size: int) -> list[list[Card]]:
    if size == 0:
        return [[]]
    if len(items) < size:
        return []
    head, tail = items[0], items[1:]
    return [[head, *s] for s in _subsets(tail, size - 1)] + _subsets(tail, size)


__all__ = [
    "SUIT_MASK",
    "Arrangement",
    "Discard",
    "Layoff",
    "Layoffs",
    "arrangement_mask",
    "arrangements_mask",
    "best_arrangement",
    "best_arrangements",
    "best_discard",
    "best_discards",
    "best_layoffs",
    "brute_force_deadwood",
    "card_bit",
    "deadwood_mask",
    "decode",
    "discard_mask",
    "discard_melds_mask",
    "discard_of_mask",
    "discards_mask",
    "encode",
    "hand_deadwood",
    "hand_value",
    "index_discard",
    "index_melds",
    "laid_out",
    "meld_kind",
    "melds_mask",
    "value_mask",
]
