"""Exact least-deadwood search for Gin Rummy (RULES.md §2, §5; seed ``002_…``).

Gin melds: a run is ≥3 cards of one suit in consecutive ranks, ace low only (A-2-3 yes,
Q-K-A no); a group is 3–4 cards of one rank. A card belongs to one meld at most. Card values:
ace 1, 2–10 face value, J Q K 10. Deadwood is the value of the cards in no meld.

Public API (cards are :class:`~rules.pieces.Card`; every search is exact):

- :func:`best_arrangement` — the least deadwood of a hand (10 cards, any count works), with the
  melds and the unmatched cards.
- :func:`best_arrangements` — every least-deadwood arrangement (they differ in which cards go to
  groups); the round scorer lets the knocker lay down the one that suits them best.
- :func:`best_discard` — for 11 cards: the discard leaving least deadwood, the arrangement of the
  other 10, and whether all 11 are melded (big gin).
- :func:`best_discards` — for 11 cards: every discard leaving that least deadwood (the knocker
  chooses over all of them and their arrangements together, RULES.md §5).
- :func:`best_layoffs` — the defender's least deadwood after laying off onto the knocker's melds
  (chains allowed; the defender may break their own meld where that leaves less deadwood).

How it works. A hand is an int *hand mask*: bit ``16 * suit + rank - 1`` (suit index 0–3 = S H D C;
the 3 spare bits per suit keep runs from crossing suits). With the groups fixed, the rest of a
suit melds best as runs of every maximal block of ≥3 consecutive ranks, so the least run-only
deadwood of a suit is a lookup in a table over the 8192 13-bit suit masks (built on first use,
about 3 ms). The search enumerates only the group choices: for every rank held in ≥3 suits, no
group, the group of 4, or each group of 3 (at most 6 choices; 10 cards hold at most 3 such
ranks), and adds the four suits' table entries. Choices that leave out of a group a card
that lies in no block of ≥3 consecutive ranks of its suit are skipped for 10-card searches: they
are strictly worse (see :func:`_useful_group_choices`). Laying out the melds as cards reads
tables too (the runs of each suit block, the canonical order of the deadwood cards; about 10 ms
to build on first use). The mask-level functions (:func:`deadwood_mask`, :func:`melds_mask`,
:func:`discard_mask`, :func:`discard_melds_mask`, :func:`encode`) are the fast calls, with
the melds as masks; the Card-level ones build the melds as tuples of cards.

Discard tie-break (a choice of this module, the rules being silent): among discards leaving the
same least deadwood, discard the card of highest value, then of highest rank (K before Q before J
before 10), then the first suit in S, H, D, C order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import product
from typing import Final, NamedTuple

from rules.pieces import Card, Suit

SUIT_MASK: Final = 0x1FFF
"""The 13 rank bits of one suit in a hand mask."""
_COLUMN: Final = 0x0001_0001_0001_0001
_RANK_VALUE: Final = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
_SUITS: Final = tuple(Suit)
_BIG: Final = 1 << 30

_run_table: list[int] | None = None
_value_table: list[int] | None = None
_drop_table: list[int] = [0] * 8192  # filled by _drop, all at once on first use
_cards: tuple[Card, ...] = ()
_canonical: tuple[Card, ...] = ()
_bits: dict[Card, int] = {}


class Arrangement(NamedTuple):
    """A hand laid out into melds with the least deadwood.

    Attributes:
        deadwood: points of the unmatched cards.
        melds: the melds, each a tuple of cards (runs by rank, groups by suit S H D C); runs are
            maximal, so a run of 6 is one meld.
        unmatched: the deadwood cards, in canonical order.
    """

    deadwood: int
    melds: tuple[tuple[Card, ...], ...]
    unmatched: tuple[Card, ...]


class Discard:
    """The best discard from 11 cards.

    Attributes:
        discard: the card to discard (module docstring: tie-break).
        arrangement: the least-deadwood arrangement of the 10 cards kept.
        big_gin: all 11 cards are melded.
        eleven: the least-deadwood arrangement of all 11 cards (deadwood 0 when ``big_gin``);
            laid out on first access.
    """

    __slots__ = ("_eleven", "_hand", "arrangement", "big_gin", "discard")

    def __init__(self, discard: Card, arrangement: Arrangement, big_gin: bool, hand: int) -> None:
        self.discard = discard
        self.arrangement = arrangement
        self.big_gin = big_gin
        self._hand = hand
        self._eleven: Arrangement | None = None

    @property
    def eleven(self) -> Arrangement:
        """The least-deadwood arrangement of all the cards."""
        if self._eleven is None:
            _, found = arrangements_mask(self._hand)
            self._eleven = _layout(self._hand, found[0])
        return self._eleven

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


def _tables() -> tuple[list[int], list[int]]:
    """Build (once) the run-only deadwood and the value sum of every 13-bit suit mask."""
    global _run_table, _value_table
    if _run_table is None or _value_table is None:
        vsum = [0] * 8192
        for m in range(1, 8192):
            low = m & -m
            vsum[m] = vsum[m ^ low] + _RANK_VALUE[low.bit_length() - 1]
        _value_table = vsum
        _run_table = [vsum[m & ~_run_melded(m)] for m in range(8192)]
    return _run_table, _value_table


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


def _useful_group_choices(h: int, tri: int) -> list[int]:
    """The group choices of :func:`_group_choices` that can reach the least deadwood of ``h``
    (``tri``: the ranks held in ≥3 suits, as rank bits of the first suit), in the same order.

    A card outside every block of ≥3 consecutive ranks of its suit can only be melded in a
    group, so leaving it out of its rank's group costs its value and gains nothing: for such a
    rank the choices that leave out a card of that kind are dropped. The dropped choices are all
    strictly worse than one that is kept, so the least deadwood and the set of least-deadwood
    choices are unchanged.
    """
    r = h & (h >> 1) & (h >> 2)
    runnable = h & (r | (r << 1) | (r << 2))
    choices = [0]
    while tri:
        low = tri & -tri
        tri ^= low
        col = _COLUMN * low
        present = h & col
        loose = present & runnable  # the cards of this rank that might go to a run
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
        if len(opts) == 1:
            o = opts[0]
            choices = [x | o for x in choices]
        else:
            choices = [x | o for x in choices for o in opts]
    return choices


# -- mask-level search --------------------------------------------------------------------------


def deadwood_mask(h: int) -> int:
    """Least deadwood (points) of the cards in hand mask ``h`` (any number of cards)."""
    table = _run_table if _run_table is not None else _tables()[0]
    a = h & SUIT_MASK
    b = (h >> 16) & SUIT_MASK
    c = (h >> 32) & SUIT_MASK
    d = h >> 48
    tri = (a & b & (c | d)) | (c & d & (a | b))
    if not tri:
        return table[a] + table[b] + table[c] + table[d]
    best = _BIG
    for g in _useful_group_choices(h, tri):
        f = h ^ g
        v = (
            table[f & SUIT_MASK]
            + table[(f >> 16) & SUIT_MASK]
            + table[(f >> 32) & SUIT_MASK]
            + table[f >> 48]
        )
        if v < best:
            best = v
    return best


def arrangements_mask(h: int) -> tuple[int, list[int]]:
    """Least deadwood of ``h`` and every group choice (card mask in groups) reaching it."""
    table = _run_table if _run_table is not None else _tables()[0]
    a = h & SUIT_MASK
    b = (h >> 16) & SUIT_MASK
    c = (h >> 32) & SUIT_MASK
    d = h >> 48
    tri = (a & b & (c | d)) | (c & d & (a | b))
    if not tri:
        return table[a] + table[b] + table[c] + table[d], [0]
    best = _BIG
    found: list[int] = []
    for g in _useful_group_choices(h, tri):
        f = h ^ g
        v = (
            table[f & SUIT_MASK]
            + table[(f >> 16) & SUIT_MASK]
            + table[(f >> 32) & SUIT_MASK]
            + table[f >> 48]
        )
        if v < best:
            best = v
            found = [g]
        elif v == best:
            found.append(g)
    return best, found


def melds_mask(h: int) -> tuple[int, int, int]:
    """Least deadwood of hand mask ``h`` with its melds, as masks (the fast call with melds).

    Returns:
        ``(deadwood, groups, runs)``: points; the cards in groups (one group per rank present);
        the cards in runs (every maximal block of ≥3 consecutive ranks of a suit is one run).
        The arrangement is the first of :func:`arrangements_mask`, the one
        :func:`best_arrangement` lays out.
    """
    table = _run_table if _run_table is not None else _tables()[0]
    a = h & SUIT_MASK
    b = (h >> 16) & SUIT_MASK
    c = (h >> 32) & SUIT_MASK
    d = h >> 48
    tri = (a & b & (c | d)) | (c & d & (a | b))
    if not tri:
        r = h & (h >> 1) & (h >> 2)
        return table[a] + table[b] + table[c] + table[d], 0, h & (r | (r << 1) | (r << 2))
    best = _BIG
    groups = 0
    for g in _useful_group_choices(h, tri):
        f = h ^ g
        v = (
            table[f & SUIT_MASK]
            + table[(f >> 16) & SUIT_MASK]
            + table[(f >> 32) & SUIT_MASK]
            + table[f >> 48]
        )
        if v < best:
            best, groups = v, g
    f = h ^ groups
    r = f & (f >> 1) & (f >> 2)
    return best, groups, f & (r | (r << 1) | (r << 2))


def discard_melds_mask(h: int) -> tuple[int, int, int, int, int]:
    """Best discard from hand mask ``h`` (11 cards) with the melds of the cards kept, as masks.

    Returns:
        ``(deadwood, discard_bit, groups, runs, full_deadwood)``: as :func:`discard_mask`, with
        the groups and runs of :func:`melds_mask` for the cards kept.
    """
    best, cands, full = discards_mask(h)
    bit = cands if not cands & (cands - 1) else _pick_discard(cands)
    _, groups, runs = melds_mask(h ^ bit)
    return best, bit, groups, runs, full


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
    """
    best, cands, full = discards_mask(h)
    return best, cands if not cands & (cands - 1) else _pick_discard(cands), full


def discards_mask(h: int) -> tuple[int, int, int]:
    """Every best discard from hand mask ``h`` (meant for 11 cards; at least 1).

    Returns:
        ``(deadwood, discard_bits, full_deadwood)``: the least deadwood of the cards kept, the
        mask of *every* card whose discard leaves it, and the least deadwood of all the cards.
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


def _pick_discard(cands: int) -> int:
    """The tie-break: highest value, then highest rank, then first suit (S H D C)."""
    best_bit = 0
    best_key = (-1, -1, 0)
    m = cands
    while m:
        low = m & -m
        m ^= low
        i = low.bit_length() - 1
        rank0 = i & 15
        key = (_RANK_VALUE[rank0], rank0, -(i >> 4))
        if key > best_key:
            best_key, best_bit = key, low
    return best_bit


# -- Card <-> mask ------------------------------------------------------------------------------


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
        _bits = {
            c: 1 << (16 * s + c.rank - 1) for s in range(4) for c in _cards[16 * s : 16 * s + 13]
        }
    return _cards, _bits


def card_bit(card: Card) -> int:
    """The hand-mask bit of one card."""
    bits = _bits or _card_tables()[1]
    return bits[card]


def encode(cards: Iterable[Card]) -> int:
    """Hand mask of distinct cards.

    Raises:
        ValueError: a card appears twice (gin is played with one 52-card deck).
    """
    spades, hearts, diamonds, _ = _SUITS
    h = 0
    n = 0
    for c in cards:
        s = c.suit
        h |= 1 << (
            (0 if s is spades else 16 if s is hearts else 32 if s is diamonds else 48) + c.rank - 1
        )
        n += 1
    if h.bit_count() != n:
        raise ValueError("a card appears twice; gin is played with one 52-card deck")
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


def _blocks(m: int) -> list[int]:
    """Maximal blocks of consecutive set bits of ``m``, lowest first."""
    out: list[int] = []
    while m:
        low = m & -m
        block = m & ~(m + low)  # the run of ones starting at ``low``
        out.append(block)
        m ^= block
    return out


def _meld_key(meld: int) -> int:
    """Sort key of a meld mask: its lowest card's rank, then suit, then size."""
    i = (meld & -meld).bit_length() - 1
    return ((i & 15) << 8) | ((i >> 4) << 4) | meld.bit_count()


_run_blocks: list[tuple[int, ...] | None] = []
"""For each 13-bit suit mask: its maximal blocks of ≥3 consecutive ranks (bit masks)."""
_block_melds: list[dict[int, tuple[int, tuple[Card, ...]]]] = []
"""Per suit: block mask → ``(meld key, cards)`` of that run."""
_group_melds: dict[int, tuple[int, tuple[Card, ...]]] = {}
_spread: list[int] = []
_canonical_chunks: list[list[tuple[Card, ...]]] = []
"""Chunk ``k`` (ranks 2k+1, 2k+2): 8-bit part of the canonical mask → its cards in order."""
_new_arrangement: Final = tuple.__new__  # builds an Arrangement without NamedTuple's __new__


def _layout_tables() -> list[tuple[int, ...] | None]:
    """Build (once) the tables :func:`_layout` reads; returns ``_run_blocks``. About 10 ms."""
    if not _run_blocks:
        cards = _cards or _card_tables()[0]
        blocks_of: list[tuple[int, ...] | None] = [None] * 8192  # filled on use
        for suit in range(4):
            melds: dict[int, tuple[int, tuple[Card, ...]]] = {}
            for lo in range(13):
                for hi in range(lo + 3, 14):
                    block = ((1 << (hi - lo)) - 1) << lo
                    m = block << (16 * suit)
                    melds[block] = (
                        _meld_key(m),
                        tuple(cards[16 * suit + r] for r in range(lo, hi)),
                    )
            _block_melds.append(melds)
        spread = [0] * 8192
        for m in range(1, 8192):
            low = m & -m
            spread[m] = spread[m ^ low] | 1 << (4 * (low.bit_length() - 1))
        _spread.extend(spread)
        canonical = _canonical
        for k in range(7):
            _canonical_chunks.append(
                [
                    tuple(canonical[8 * k + i] for i in range(8) if part >> i & 1)
                    for part in range(256)
                ]
            )
        _run_blocks.extend(blocks_of)
    return _run_blocks


def _group_meld(col: int) -> tuple[int, tuple[Card, ...]]:
    """``(meld key, cards in suit order)`` of the group with card mask ``col``."""
    got = _group_melds.get(col)
    if got is None:
        got = (_meld_key(col), tuple(_in_bit_order(col)))
        _group_melds[col] = got
    return got


def _canonical_cards(h: int) -> tuple[Card, ...]:
    """The cards of ``h`` in canonical order (rank, then suit S H D C), through tables."""
    if not _run_blocks:
        _layout_tables()
    sp = _spread
    x = (
        sp[h & SUIT_MASK]
        | sp[(h >> 16) & SUIT_MASK] << 1
        | sp[(h >> 32) & SUIT_MASK] << 2
        | sp[h >> 48] << 3
    )
    c = _canonical_chunks
    return (
        c[0][x & 255]
        + c[1][(x >> 8) & 255]
        + c[2][(x >> 16) & 255]
        + c[3][(x >> 24) & 255]
        + c[4][(x >> 32) & 255]
        + c[5][(x >> 40) & 255]
        + c[6][x >> 48]
    )


def _layout(h: int, groups: int) -> Arrangement:
    """The arrangement of ``h`` with the cards of ``groups`` in groups and the rest in runs."""
    keyed: list[tuple[int, tuple[Card, ...]]] = []
    g = groups
    while g:
        low = g & -g
        rank_col = _COLUMN << ((low.bit_length() - 1) & 15)
        keyed.append(_group_meld(groups & rank_col))
        g &= ~rank_col
    rest = h ^ groups
    blocks_of = _run_blocks or _layout_tables()
    for suit in range(4):
        su = (rest >> (16 * suit)) & SUIT_MASK
        blocks = blocks_of[su]
        if blocks is None:
            blocks = blocks_of[su] = tuple(_blocks(_run_melded(su) & su))
        for block in blocks:
            keyed.append(_block_melds[suit][block])
    if len(keyed) > 1:
        keyed.sort()
    r = rest & (rest >> 1) & (rest >> 2)
    loose = rest & ~(r | (r << 1) | (r << 2))
    vsum = _value_table if _value_table is not None else _tables()[1]
    return _new_arrangement(
        Arrangement,
        (
            vsum[loose & SUIT_MASK]
            + vsum[(loose >> 16) & SUIT_MASK]
            + vsum[(loose >> 32) & SUIT_MASK]
            + vsum[loose >> 48],
            tuple([m for _, m in keyed]),
            _canonical_cards(loose),
        ),
    )


# -- Card-level API -----------------------------------------------------------------------------


def hand_deadwood(cards: Iterable[Card]) -> int:
    """Least deadwood (points) of distinct cards; the number only (fastest Card-level call)."""
    return deadwood_mask(encode(cards))


def best_arrangement(cards: Iterable[Card]) -> Arrangement:
    """The least-deadwood arrangement of a hand (RULES.md §5: a card fitting both a group and a
    run goes where it leaves least deadwood).

    Args:
        cards: distinct cards, normally 10 (any count works).

    Returns:
        ``(deadwood, melds, unmatched)``. Among equal-deadwood arrangements, the first in a fixed
        order that tries, rank by rank from the ace up, the group of 4, then the groups of 3, then
        no group (see :func:`best_arrangements` for all of them).

    Raises:
        ValueError: a card appears twice.
    """
    h = encode(cards)
    return _layout(h, melds_mask(h)[1])


def best_arrangements(cards: Iterable[Card]) -> list[Arrangement]:
    """Every least-deadwood arrangement of a hand (distinct choices of groups; runs maximal).

    Raises:
        ValueError: a card appears twice.
    """
    h = encode(cards)
    _, found = arrangements_mask(h)
    return [_layout(h, g) for g in found]


def best_discard(cards: Iterable[Card]) -> Discard:
    """The discard from 11 cards leaving least deadwood (RULES.md §5).

    Args:
        cards: 11 distinct cards (any count ≥1 works).

    Returns:
        :class:`Discard`: the card (ties: highest value, then highest rank, then suit S H D C),
        the arrangement of the 10 kept, ``big_gin`` (all 11 melded) and the 11-card arrangement.

    Raises:
        ValueError: no cards, or a card appears twice.
    """
    h = encode(cards)
    if not h:
        raise ValueError("no card to discard")
    _, bit, full = discard_mask(h)
    kept = h ^ bit
    arrangement = _layout(kept, melds_mask(kept)[1])
    cards_by_bit = _cards or _card_tables()[0]
    return Discard(cards_by_bit[bit.bit_length() - 1], arrangement, full == 0, h)


def best_discards(cards: Iterable[Card]) -> list[Card]:
    """Every discard from 11 cards that leaves the least deadwood (RULES.md §5).

    Args:
        cards: 11 distinct cards (any count ≥1 works).

    Returns:
        The cards, in the tie-break order of :func:`best_discard` (its choice first).

    Raises:
        ValueError: no cards, or a card appears twice.
    """
    h = encode(cards)
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
        defender: the defender's distinct cards (normally 10).
        knocker_melds: the knocker's melds as laid down (each a gin run or group).

    Returns:
        :class:`Layoffs`; ``layoffs`` name melds by their index in ``knocker_melds``. Among equal
        results the fewest cards laid off.

    Raises:
        ValueError: a knocker meld is not a gin meld, a card appears twice in the defender's hand
            or in the knocker's melds, or in both.
    """
    h = encode(defender)
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
