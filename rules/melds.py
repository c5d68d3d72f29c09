"""Reading a meld: run, group or pair, and what each joker stands for (RULES.md §1, §2).

A meld is entered as it lies on the table, left to right. :func:`read_meld` finds every valid
reading of the pieces and returns the one worth most (or the one pinned with ``as_``), the others
under ``alternatives``:

- **run**: ≥3 consecutive numbers of one colour/suit, at most 13. The given order stands where
  it can be a run, ascending (preferred) or descending; the joker's position then fixes what it
  stands for (``R11 R12 JK`` → JK = R13; ``JK R11 R12`` → JK = R10). Otherwise the pieces are
  rearranged: jokers fill inner gaps first, then extend the run upward, and only then downward.
  The engine never moves a joker to gain value. Ace/1 only below 2, except in Carousel where an
  ace may also follow the king (Q-K-A) but never both (K-A-2 is a wrap).
- **group**: 3–4 pieces of one number, all colours/suits different; a joker stands for one
  missing colour/suit, left open (``?7``) unless declared (Carousel).
- **pair** (Rummy 101 only): two identical tiles; a joker may replace one of them, never both.

A meld needs at least one real piece. Its value is the sum of its pieces, a joker counting as
the piece it stands for (tiles: the number; cards: ace 1, 2–10 face, J Q K 10).

    >>> from rules.notation import parse_pieces
    >>> from rules.variant import meld_rules
    >>> r = read_meld(parse_pieces("R11 R12 JK", "tiles"), meld_rules("rummy101"))
    >>> (r.valid, r.kind, r.value, r.jokers)
    (True, 'run', 36, ('R13',))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from rules.notation import format_open_joker
from rules.pieces import COLOURS, JOKER, SUITS, Card, Piece, Tile, make_piece
from rules.variant import MeldRules
from rules.verdict import Line, RuleRef, add_line, english, rule_ref

MeldKind = Literal["run", "group", "pair"]
RULE_MELDS: Final = "RULES.md §2"
RULE_READING: Final = "RULES.md §1"
REF_MELDS: Final = rule_ref(RULE_MELDS, None, "melds")
REF_READING: Final = rule_ref(RULE_READING, None, "reading")
REF_DECLARE: Final = rule_ref("RULES.md §6", "carousel", "jokers")
_REFS: Final = {RULE_MELDS: REF_MELDS, RULE_READING: REF_READING, "RULES.md §6": REF_DECLARE}


@dataclass(frozen=True)
class MeldReading:
    """One reading of a meld, or the verdict that no reading is valid.

    Attributes:
        valid: the pieces form a legal meld of ``kind``.
        kind: ``"run"``, ``"group"``, ``"pair"``, or ``None`` when invalid.
        value: points of the meld (jokers counted as what they stand for); 0 when invalid.
        pieces: the pieces in normalised order (runs ascending, jokers where they stand; groups
            by colour/suit, jokers last).
        jokers: what each joker stands for, in the order of ``pieces``: ``"R13"``, or ``"?7"``
            for a group joker whose colour/suit is open.
        joker_pieces: the same as pieces (``None`` for an open group joker).
        numbers: for a run, the number each position of ``pieces`` stands for (an ace high in
            Carousel is 14); empty otherwise.
        reason: stable code when invalid (``run_gap``, ``group_repeated_colour``, …).
        text: the English line of a valid reading (see :attr:`message`).
        rule: ``"RULES.md §2"`` (or §1 for reading questions).
        alternatives: the other valid readings (e.g. ``JK JK R10`` as a run beside the group).
        line: the message as data (:class:`rules.verdict.Line`).
    """

    valid: bool
    kind: MeldKind | None = None
    value: int = 0
    pieces: tuple[Piece, ...] = ()
    jokers: tuple[str, ...] = ()
    joker_pieces: tuple[Tile | Card | None, ...] = ()
    numbers: tuple[int, ...] = ()
    reason: str | None = None
    text: str = ""
    rule: str = RULE_MELDS
    alternatives: tuple[MeldReading, ...] = field(default=())
    line: Line | None = None

    @property
    def message(self) -> str:
        """One English line naming the rule: ``text`` where given, else rendered from ``line``
        on first use (a failed reading that loses to another is never rendered)."""
        if self.text or self.line is None:
            return self.text
        return f"{english(self.line.key, self.line.params)} ({self.rule})"

    @property
    def ref(self) -> RuleRef:
        """The rule applied, structured."""
        return _REFS.get(self.rule, REF_MELDS)

    def to_json(self) -> dict[str, Any]:
        """The judge's ``meld`` answer fields (JUDGE.md): valid, kind, value, tiles, jokers,
        alternatives; reason and message when invalid."""
        if not self.valid:
            return add_line(
                {
                    "valid": False,
                    "reason": self.reason,
                    "message": self.message,
                    "rule": self.rule,
                },
                self.line,
                self.ref,
            )
        out: dict[str, Any] = {
            "valid": True,
            "kind": self.kind,
            "value": self.value,
            "tiles": [str(p) for p in self.pieces],
            "jokers": list(self.jokers),
            "message": self.message,
            "rule": self.rule,
        }
        if self.alternatives:
            out["alternatives"] = [
                {
                    "kind": a.kind,
                    "value": a.value,
                    "tiles": [str(p) for p in a.pieces],
                    "jokers": list(a.jokers),
                }
                for a in self.alternatives
            ]
        return add_line(out, self.line, self.ref)


# A slot is what one position of the meld is known to be: (number, family index) for a real
# piece or a declared joker, None for a free joker.
_Slot = tuple[int, int] | None


def _value(rules: MeldRules, number: int) -> int:
    """Points of a number in a meld: a tile's number; a card's value (an ace high counts 1)."""
    if rules.material == "tiles":
        return number
    return 1 if number == 14 else min(number, 10)


def _piece(rules: MeldRules, number: int, fam: int) -> Tile | Card:
    return make_piece(rules.material, 1 if number == 14 else number, fam)


def _fam_line(rules: MeldRules, fam: int) -> Line:
    family = COLOURS[fam] if rules.material == "tiles" else SUITS[fam]
    return Line(f"family.{family.value}", {})


def _number_options(rules: MeldRules, number: int) -> tuple[int, ...]:
    """Numbers a piece may take in a run: an ace is 1, or 1 or 14 where ace_high."""
    if number == 1 and rules.ace_high:
        return (1, 14)
    return (number,)


def _top(rules: MeldRules) -> int:
    return 14 if rules.ace_high else 13


def _run_in_order(slots: Sequence[_Slot], rules: MeldRules, step: int) -> tuple[int, ...] | None:
    """Numbers of each position if the given order is a run going ``step`` (+1 up, −1 down)."""
    n = len(slots)
    starts: set[int] | None = None
    for i, s in enumerate(slots):
        if s is None:
            continue
        cand = {v - step * i for v in _number_options(rules, s[0])}
        starts = cand if starts is None else starts & cand
        if not starts:
            return None
    assert starts is not None
    top = _top(rules)
    for start in sorted(starts):
        nums = tuple(start + step * i for i in range(n))
        if min(nums) >= 1 and max(nums) <= top:
            return nums
    return None


def _run_rearranged(slots: Sequence[_Slot], rules: MeldRules) -> tuple[list[int], list[int]] | None:
    """Rearranged run: (numbers of the real/declared pieces, numbers the free jokers take).

    Jokers fill inner gaps first, then extend upward, then downward (RULES.md §1).
    """
    known = [s for s in slots if s is not None]
    free = sum(1 for s in slots if s is None)
    top = _top(rules)
    aces = [i for i, s in enumerate(known) if s[0] == 1]
    choices: list[tuple[int, ...]] = [(1,), (14,)] if (aces and rules.ace_high) else [(1,)]
    for ace_as in choices:
        nums = [ace_as[0] if s[0] == 1 else s[0] for s in known]
        if len(set(nums)) != len(nums):
            continue
        lo, hi = min(nums), max(nums)
        gaps = hi - lo + 1 - len(nums)
        if gaps > free or hi > top or lo < 1:
            continue
        fill = [v for v in range(lo, hi + 1) if v not in nums]
        left = free - gaps
        up = min(left, top - hi)
        down = left - up
        if lo - down < 1:
            continue
        fill += list(range(hi + 1, hi + 1 + up)) + list(range(lo - down, lo))
        return nums, fill
    return None


def _run_reading(slots: Sequence[_Slot], pieces: Sequence[Piece], rules: MeldRules) -> MeldReading:
    n = len(slots)
    known = [s for s in slots if s is not None]
    fams = {s[1] for s in known}
    m = rules.material
    if len(fams) > 1:
        return _bad("run_mixed_colours", f"meld.run_mixed_colours.{m}")
    if n > rules.max_run:
        return _bad("run_too_long", f"meld.run_too_long.{m}", max=rules.max_run, n=n)
    if n < 3:
        return _bad("too_short", f"meld.kind_too_short.run.{m}")
    fam = known[0][1]
    if len(known) == n:  # no free joker and no ace: a gap or a repeat fails at once
        real = [s[0] for s in known]
        if 1 not in real and (len(set(real)) != n or max(real) - min(real) + 1 != n):
            return _run_failure(known, 0, rules)  # what the readings below end in
    nums = _run_in_order(slots, rules, +1) or _run_in_order(slots, rules, -1)
    if nums is not None:
        order = sorted(range(n), key=lambda i: nums[i])
        numbers = tuple(nums[i] for i in order)
        norm = tuple(pieces[i] for i in order)
        jk_nums = [nums[i] for i in order if pieces[i] is JOKER]
        how = Line("meld.how.as_entered", {})
    else:
        re = _run_rearranged(slots, rules)
        if re is None:
            return _run_failure(known, n - len(known), rules)
        known_nums, fill = re
        entries: list[tuple[int, Piece]] = []
        ki = 0
        for p, s in zip(pieces, slots, strict=True):
            if s is not None:
                entries.append((known_nums[ki], p))
                ki += 1
        # declared jokers (slots not None but piece is JOKER) keep their place via known_nums
        entries += [(v, JOKER) for v in fill]
        entries.sort(key=lambda e: e[0])
        numbers = tuple(e[0] for e in entries)
        norm = tuple(e[1] for e in entries)
        jk_nums = [e[0] for e in entries if e[1] is JOKER]
        how = Line("meld.how.rearranged", {})
    jp = tuple(_piece(rules, v, fam) for v in jk_nums)
    value = sum(_value(rules, v) for v in numbers)
    return MeldReading(
        valid=True,
        kind="run",
        value=value,
        pieces=norm,
        jokers=tuple(str(p) for p in jp),
        joker_pieces=jp,
        numbers=numbers,
        text=f"valid run worth {value} ({english(how.key, how.params)}; {RULE_MELDS})",
        line=Line("meld.valid_run", {"value": value, "how": how}),
    )


def _wraps(nums: Sequence[int], jokers: int) -> bool:
    """Would these numbers make a run only by going round the corner (… 13, 1, 2 …)?"""
    if not nums or max(nums) < 11 or min(nums) > 3:
        return False
    shifted = [v + 13 if v <= 3 else v for v in nums]
    lo, hi = min(shifted), max(shifted)
    return hi - lo + 1 <= 13 and hi - lo + 1 - len(shifted) <= jokers and hi > 14


def _run_failure(known: Sequence[tuple[int, int]], jokers: int, rules: MeldRules) -> MeldReading:
    nums = [s[0] for s in known]
    if len(set(nums)) != len(nums):
        return _bad("run_repeated_number", "meld.run_repeated_number")
    if _wraps(nums, jokers):
        ends_at_ace = 1 in nums and all(v == 1 or v >= 11 for v in nums)
        if rules.ace_high or not ends_at_ace:
            return _bad("run_wraps", "meld.run_wraps" if rules.ace_high else "meld.run_wraps.tiles")
    if 1 in nums:
        # would it be a run if the ace came after the king?
        wrapped = [14 if v == 1 else v for v in nums]
        lo, hi = min(wrapped), max(wrapped)
        fits_high = hi - lo + 1 - len(wrapped) <= jokers
        if rules.ace_high:
            # K-A-2: the ace as a bridge between high and low numbers
            if len(nums) > 1:
                return _bad("run_wraps", "meld.run_wraps_ace")
        elif fits_high:
            return _bad("ace_after_king", f"meld.ace_after_king.{rules.material}")
    lo, hi = min(nums), max(nums)
    missing = hi - lo + 1 - len(nums)
    if missing <= jokers:
        return _bad("run_gap", f"meld.no_run.{rules.material}")
    return _bad(
        "run_gap",
        "meld.run_gap.many" if missing != 1 else "meld.run_gap.one",
        missing=missing,
        lo=lo,
        hi=hi,
        jokers=jokers,
    )


def _group_reading(
    slots: Sequence[_Slot], pieces: Sequence[Piece], rules: MeldRules
) -> MeldReading:
    n = len(slots)
    known = [s for s in slots if s is not None]
    m = rules.material
    numbers = {s[0] for s in known}
    if len(numbers) > 1:
        return _bad("group_mixed_numbers", f"meld.group_mixed_numbers.{m}")
    number = known[0][0]
    if n > rules.max_group:
        return _bad("group_too_big", f"meld.group_too_big.{m}", max=rules.max_group, n=n)
    if n < 3:
        return _bad("too_short", f"meld.kind_too_short.group.{m}")
    fams = [s[1] for s in known]
    for f in fams:
        if fams.count(f) > 1:
            return _bad(
                "group_repeated_colour",
                f"meld.group_repeated_colour.{m}",
                n=n,
                family=_fam_line(rules, f),
            )
    # real pieces by colour/suit, jokers last
    order = sorted(
        range(n),
        key=lambda i: (slots[i] is None, slots[i][1] if slots[i] is not None else 0, i),  # type: ignore[index]
    )
    norm = tuple(pieces[i] for i in order)
    value = _value(rules, number) * n
    if len(known) == 1:
        norm = _group_order_that_rereads(norm, rules, value)
    jokers: list[str] = []
    jp: list[Tile | Card | None] = []
    for i in order:
        if pieces[i] is JOKER:
            s = slots[i]
            if s is None:
                jokers.append(format_open_joker(number, rules.material))
                jp.append(None)
            else:
                piece = _piece(rules, s[0], s[1])
                jokers.append(str(piece))
                jp.append(piece)
    return MeldReading(
        valid=True,
        kind="group",
        value=value,
        pieces=norm,
        jokers=tuple(jokers),
        joker_pieces=tuple(jp),
        text=f"valid group worth {value} ({RULE_MELDS})",
        line=Line("meld.valid_group", {"value": value}),
    )


def _group_order_that_rereads(
    norm: tuple[Piece, ...], rules: MeldRules, value: int
) -> tuple[Piece, ...]:
    """A group of one real piece and jokers, ordered so that re-reading it gives the group.

    Such pieces may also read as a run; in the given order the run is worth at most the group
    (else the run would stand), but another order could read as a run worth more
    (``R10 JK JK`` = 10-11-12). The real piece goes last, then second, …: the first order whose
    run reading is not worth more than the group is the normalised one.
    """
    real = norm[0]
    jokers = norm[1:]
    n = len(norm)
    for pos in [n - 1, *range(1, n - 1), 0]:
        cand = (*jokers[:pos], real, *jokers[pos:])
        run = _run_reading(_slots(cand, None), cand, rules)
        if not run.valid or run.value <= value:
            return cand
    return norm


def _pair_reading(slots: Sequence[_Slot], pieces: Sequence[Piece], rules: MeldRules) -> MeldReading:
    known = [s for s in slots if s is not None]
    if len(known) == 2 and known[0] != known[1]:
        return _bad("not_a_pair", "meld.not_a_pair")
    number, fam = known[0]
    real = next(p for p in pieces if p is not JOKER)
    norm = (real, pieces[1] if pieces[0] is not JOKER else pieces[0])
    jp = tuple(_piece(rules, number, fam) for p in pieces if p is JOKER)
    value = 2 * _value(rules, number)
    return MeldReading(
        valid=True,
        kind="pair",
        value=value,
        pieces=norm,
        jokers=tuple(str(p) for p in jp),
        joker_pieces=jp,
        text=f"valid pair worth {value} ({RULE_MELDS})",
        line=Line("meld.valid_pair", {"value": value}),
    )


_INVALID: Final = MeldReading(valid=False).__dict__
"""Every field of an invalid reading but ``reason``, ``rule`` and ``line``."""


def _bad(reason: str, key: str, rule: str = RULE_MELDS, **params: Any) -> MeldReading:
    """An invalid reading; its message is rendered from ``key`` and ``params`` when read.

    Built like ``MeldReading(valid=False, reason=…, rule=…, line=…)``, the same object, without
    the frozen class's field-by-field ``object.__setattr__`` (a meld check makes three).
    """
    reading = object.__new__(MeldReading)
    fields = reading.__dict__
    fields.update(_INVALID)
    fields["reason"] = reason
    fields["rule"] = rule
    fields["line"] = Line(key, params)
    return reading


def _slots(pieces: Sequence[Piece], declared: Sequence[Card | Tile | None] | None) -> list[_Slot]:
    slots: list[_Slot] = []
    di = 0
    for p in pieces:
        if p is JOKER:
            d = None
            if declared is not None and di < len(declared):
                d = declared[di]
            di += 1
            slots.append(None if d is None else (d.number, d.family_index))
        else:
            assert isinstance(p, Tile | Card)
            slots.append((p.number, p.family_index))
    return slots


def read_meld(
    pieces: Sequence[Piece],
    rules: MeldRules,
    as_: MeldKind | None = None,
    declared: Sequence[Card | Tile | None] | None = None,
) -> MeldReading:
    """Read ``pieces`` (in table order) as a meld of the variant whose rules are ``rules``.

    Args:
        pieces: the meld as it lies, left to right.
        rules: the variant's meld rules (:func:`rules.variant.meld_rules`).
        as_: pin the reading: ``"run"``, ``"group"`` or ``"pair"``; ``None`` takes the
            reading worth most (the group on equal value).
        declared: Carousel: the cards the jokers stand for, in order (``None`` = not declared).

    Returns:
        A :class:`MeldReading`: the chosen reading with the others in ``alternatives``, or an
        invalid one whose ``reason`` says why no reading (or not the pinned one) is legal.

    Rules: RULES.md §1 (reading order, jokers) and §2 (melds per variant).
    """
    n = len(pieces)
    m = rules.material
    if n == 0:
        return _bad("empty_meld", "meld.empty_meld")
    if all(p is JOKER for p in pieces):
        return _bad("no_real_tile", f"meld.no_real_tile.{m}", RULE_READING)
    if declared is not None:
        jokers = sum(1 for p in pieces if p is JOKER)
        if len(declared) > jokers:
            return _bad(
                "bad_declaration",
                "meld.bad_declaration",
                "RULES.md §6",
                declared=len(declared),
                jokers=jokers,
            )
    slots = _slots(pieces, declared)
    if n == 1 or (n == 2 and not rules.pairs):
        if rules.pairs:
            return _bad("too_short", "meld.too_short_pair_or_3", n=n)
        return _bad("too_short", f"meld.too_short.{m}", need=3, n=n)
    if n == 2:
        if as_ not in (None, "pair"):
            return _bad("too_short", f"meld.kind_too_short.{as_}.{m}")
        return _pair_reading(slots, pieces, rules)
    if as_ == "pair":
        return _bad("not_a_pair", "meld.pair_exactly_two")
    if as_ is None:
        known = [s for s in slots if s is not None]
        if len({s[0] for s in known}) > 1 and len({s[1] for s in known}) > 1:
            # numbers and colours/suits both differ: no run, no group; what _explain would
            # say of the two failed readings, without making them
            return _bad("not_a_meld", f"meld.not_a_meld.{m}")
    run = _run_reading(slots, pieces, rules)
    group = _group_reading(slots, pieces, rules)
    if as_ == "run":
        return run
    if as_ == "group":
        return group
    # the group first: on equal value the group stands (its open joker fits either reading's
    # place at the table, and its normalised order then re-reads the same: JK JK QS in Carousel)
    valid = [r for r in (group, run) if r.valid]
    if not valid:
        return _explain(slots, run, group, rules)
    best = max(valid, key=lambda r: r.value)  # max keeps the first (the group) on a tie
    others = tuple(r for r in valid if r is not best)
    if others:
        from dataclasses import replace

        return replace(best, alternatives=others)
    return best


def _explain(
    slots: Sequence[_Slot], run: MeldReading, group: MeldReading, rules: MeldRules
) -> MeldReading:
    """Pick the more telling failure: the group's when all numbers agree, the run's when all
    colours/suits agree, else "neither a run nor a group"."""
    known = [s for s in slots if s is not None]
    if len({s[0] for s in known}) == 1:
        return group
    if len({s[1] for s in known}) == 1:
        return run
    return _bad("not_a_meld", f"meld.not_a_meld.{rules.material}")


def is_meld(pieces: Sequence[Piece], rules: MeldRules) -> bool:
    """True if ``pieces`` form a legal meld in any reading (run, group, or pair where allowed).

    Args:
        pieces: the meld in table order.
        rules: the variant's meld rules.
    """
    return read_meld(pieces, rules).valid


__all__ = [
    "REF_DECLARE",
    "REF_MELDS",
    "REF_READING",
    "RULE_MELDS",
    "RULE_READING",
    "MeldKind",
    "MeldReading",
    "is_meld",
    "read_meld",
]
