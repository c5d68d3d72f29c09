"""One turn on a shared table: Tile Rummy, My Rummy and Carousel (RULES.md §4, §6; seeds
``001_…``, ``003_…``, ``004_…``).

:func:`judge_turn` gets the player's rack before the turn, the table before and after (lists of
melds, each as it lies) and says whether the turn is legal; :func:`judge_turn_heap` does the same
when the table after is a heap of pieces with no grouping (JUDGE.md ``split``'s heap form).

Checks, in this order (the first that fails is the verdict's ``reason``):

1. **Conservation**, tile for tile (multisets; jokers are interchangeable): table after = table
   before + played. ``tile_taken_from_table`` when a piece has fewer copies on the table after
   than before (nothing goes from the table to a rack — a freed joker included);
   ``tile_not_on_rack`` when more copies were played than the rack held; ``nothing_played``.
2. **Melds**: every meld after is valid with ≥ 3 pieces (``invalid_meld``, naming
   ``table_after[j]``, its pieces and :func:`rules.melds.read_meld`'s reason); a heap that splits
   into no valid melds is ``no_split``.
3. **Initial meld** (Tile/My Rummy, ``opened`` false): every meld before must still lie on the
   table intact (``manipulated_before_initial_meld``) unless ``manipulate_on_initial_turn``; the
   new melds, made only of rack tiles, must be worth ≥ ``initial_meld`` (``below_initial_meld``
   with ``value`` and ``needed``). Carousel has no threshold and no initial-meld restriction: any
   turn that adds ≥ 1 card from the hand may rearrange.
4. **Jokers** (``joker_rule``): Tile Rummy levels 0–4, My Rummy's rule, Carousel's declared
   identities (below).

How the table before is matched to the table after
--------------------------------------------------
*Intact melds.* A before-meld is **intact** when an after-meld holds exactly the same pieces (as
multisets; the order may be normalised). Intact melds are paired one to one (a multiset of
melds) and take no further part: their pieces, jokers included, did not move. In Carousel a meld
is intact only if its jokers also keep a compatible identity (``5H 6H JK`` → ``JK 5H 6H`` moves
the joker from 7H to 4H and is a change); in Tile/My Rummy a joker whose place shifts inside an
otherwise identical meld is taken as the same meld, order normalised.

*Origins.* Every piece of a changed after-meld came from the rack (played) or from one changed
before-meld. Identical pieces (two copies) make this ambiguous; the judge looks for **any**
labelling of the after pieces with origins that respects the counts (each before-meld gives its
own pieces, the rack gives the played pieces) and makes the turn legal: a turn is illegal only if
no consistent labelling makes it legal (the reading most favourable to the player).

*Descent.* An after-meld **descends** from a before-meld when it holds at least one real piece
that came from it (extend, split, join and taking a piece all keep descent).

*Joker identity.* What a joker stands for comes from the meld's reading: in a run its position
(``R5 R6 JK`` → R7); in a group the set of missing colours/suits (``R7 B7 JK`` → K7 or Y7, "either
missing colour"); in Carousel the declared card where one is given. Where a meld reads validly in
two ways (``JK JK R10``: run or group) each reading is tried.

*Joker fates.* Each joker of a changed before-meld is mapped to one joker of a changed after-meld
(all mappings tried; the after jokers left over came from the rack). The joker either

- **stays**: its identity after is compatible with its identity before (the sets overlap) and —
  Tile/My Rummy — its after-meld descends from its before-meld; in Carousel it may lie anywhere
  ("it may move on the table while it keeps its identity"); or
- is **freed**: a real piece it stood for (for a group joker, any missing colour) lies in an
  after-meld that descends from the joker's before-meld — that piece "replaced" it.

Rules by level (each level adds to the one before; RULES.md §4, seed ``001_…``):

0. ``free``: no joker check.
1. ``match``: every joker of a changed meld stays or is freed (a joker leaves a meld only when
   replaced by the tile it represents).
2. ``match_from_rack``: the replacing tile is labelled "from the rack" (it is among the played
   tiles).
3. ``no_split_with_joker``: a changed before-meld that still holds a joker not freed must have
   all of its real tiles (and its remaining jokers, and the tiles that replaced its freed jokers)
   together in one after-meld — it may be extended or joined, but nothing may be taken from it.
4. ``freed_joker_new_meld``: a freed joker's after-meld is made, apart from jokers, only of tiles
   from the rack (a new meld, never an existing one).

My Rummy (seed ``004_…``): level 2, plus: no joker swap unless ``opened`` (a swap in the
initial-meld turn is refused even with ``manipulate_on_initial_turn``); the real tile goes
exactly where the joker was — the after-meld holding it holds every real tile of the joker's
before-meld (and its other jokers), i.e. the same meld with the joker replaced, possibly
extended; the freed joker goes into another meld (not back into that one). A freed joker taken
to the rack is a ``tile_taken_from_table``.

Carousel (seed ``003_…``, RULES.md §6): level 1 with identities: a joker keeps its declared
identity until replaced by that very card, from the hand or from another meld; it may move on the
table keeping its identity; a freed joker stays on the table (conservation). Declarations are
optional: ``declared_before[i]`` / ``declared_after[j]`` list, for meld ``i``/``j``, the card each
joker stands for, in the order the jokers appear in the meld (``None`` = not declared, open).

The verdict's ``reason`` for every joker fault is ``joker_rule``; the message names the level
(e.g. "joker level 2 (match_from_rack): the R6 that replaced the joker of table_before[0] (R4 R5
JK) came from the table, not the rack (RULES.md §4)").

Approximation: with ``manipulate_on_initial_turn`` the initial-meld value (the best set of
after-melds made only of rack tiles) and the joker rules are each judged favourably on their own,
not jointly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import permutations, product
from typing import Any, Final

from rules.errors import RequestError
from rules.melds import MeldReading, read_meld
from rules.options import JOKER_RULES, CarouselOptions, TileRummyOptions
from rules.pieces import JOKER, Card, Piece, Tile, make_piece, sort_pieces
from rules.variant import MeldRules

Real = Tile | Card
"""A numbered piece (not a joker)."""
Declared = Sequence[Card | Tile | None] | None
"""The declared identities of one meld's jokers, in the order they appear (Carousel)."""

RACK: Final = -1
"""Origin label of a piece that came from the rack."""
TURN_VARIANTS: Final = ("tile_rummy", "my_rummy", "carousel")

_RULE: Final[dict[str, str]] = {
    "tile_rummy": "RULES.md §4",
    "my_rummy": "RULES.md §4",
    "carousel": "RULES.md §6",
}
_SEED: Final[dict[str, str]] = {
    "tile_rummy": "seed 001",
    "my_rummy": "seed 004",
    "carousel": "seed 003",
}

# (piece, changed after-meld position, origin: changed before-meld position or RACK)
_Demand = tuple[Real, int, int]


@dataclass(frozen=True)
class TurnVerdict:
    """The verdict on one turn.

    Attributes:
        valid: the turn is legal.
        played: the pieces moved from the rack to the table, in canonical order.
        initial_meld: points counted for the initial meld when this turn is the player's
            initial meld (Tile/My Rummy, ``opened`` false), else ``None``.
        reason: stable code when not valid: ``tile_taken_from_table``, ``tile_not_on_rack``,
            ``nothing_played``, ``invalid_meld``, ``no_split``, ``manipulated_before_initial_meld``,
            ``below_initial_meld``, ``joker_rule``.
        message: one English line naming the rule and the meld (``table_before[i]`` /
            ``table_after[j]`` with its pieces) or piece at fault.
        rule: the RULES.md section and seed applied.
        params: JSON-ready details (``tiles``, ``meld``, ``value``, ``needed``, ``level``, …).
        melds: the table after as melds when it was given as a heap (the split judged).
    """

    valid: bool
    played: tuple[Piece, ...] = ()
    initial_meld: int | None = None
    reason: str | None = None
    message: str = ""
    rule: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    melds: tuple[tuple[Piece, ...], ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """The ``turn`` answer of JUDGE.md: ``valid``, ``played`` (canonical strings),
        ``initial_meld``; ``reason`` and ``message`` when not valid; ``rule``; the params;
        ``melds`` for a heap."""
        out: dict[str, Any] = {
            "valid": self.valid,
            "played": [str(p) for p in self.played],
            "initial_meld": self.initial_meld,
        }
        if not self.valid:
            out["reason"] = self.reason
        out["message"] = self.message
        out["rule"] = self.rule
        for k, v in self.params.items():
            out.setdefault(k, v)
        if self.melds is not None:
            out["melds"] = [[str(p) for p in m] for m in self.melds]
        return out


# ---------------------------------------------------------------------------------------------
# Melds as the judge sees them


@dataclass(frozen=True)
class _Meld:
    """A meld on the table: where it was given, its pieces and its valid readings."""

    name: str  # "table_before[2]"
    index: int
    pieces: tuple[Piece, ...]
    readings: tuple[MeldReading, ...]

    @property
    def reals(self) -> frozenset[Real]:
        # a valid meld never holds the same real piece twice
        return frozenset(p for p in self.pieces if isinstance(p, Tile | Card))

    @property
    def jokers(self) -> int:
        return sum(1 for p in self.pieces if p is JOKER)

    @property
    def key(self) -> tuple[Piece, ...]:
        return tuple(sort_pieces(self.pieces))

    def label(self) -> str:
        return f"{self.name} ({_text(self.pieces)})"


def _text(pieces: Iterable[Piece]) -> str:
    return " ".join(str(p) for p in pieces)


def _sort_real(pieces: Iterable[Real]) -> list[Real]:
    return sorted(pieces, key=lambda p: p.sort_key())


def _ident_text(ident: frozenset[Real]) -> str:
    names = [str(p) for p in _sort_real(ident)]
    if not names:
        return "?"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _identities(reading: MeldReading, rules: MeldRules) -> tuple[frozenset[Real], ...]:
    """What each joker of a valid reading may stand for: one piece in a run or where declared;
    the missing colours/suits of a group for an open group joker."""
    if reading.kind == "group":
        real = [p for p in reading.pieces if isinstance(p, Tile | Card)]
        number = real[0].number
        used = {p.family_index for p in real} | {
            jp.family_index for jp in reading.joker_pieces if jp is not None
        }
        free = frozenset(make_piece(rules.material, number, f) for f in range(4) if f not in used)
        return tuple(free if jp is None else frozenset({jp}) for jp in reading.joker_pieces)
    return tuple(frozenset() if jp is None else frozenset({jp}) for jp in reading.joker_pieces)


def _joker_options(meld: _Meld, rules: MeldRules) -> list[tuple[frozenset[Real], ...]]:
    """The distinct identity tuples of a meld's jokers over its valid readings."""
    seen: list[tuple[frozenset[Real], ...]] = []
    for r in meld.readings:
        ids = tuple(sorted(_identities(r, rules), key=lambda s: sorted(str(p) for p in s)))
        if ids not in seen:
            seen.append(ids)
    return seen


def _compatible(a: Sequence[frozenset[Real]], b: Sequence[frozenset[Real]]) -> bool:
    """Can the jokers with identity sets ``a`` be paired with those of ``b``, overlapping?"""
    if len(a) != len(b):
        return False
    return any(all(a[i] & b[p[i]] for i in range(len(a))) for p in permutations(range(len(b))))


def _readings(pieces: Sequence[Piece], rules: MeldRules, declared: Declared) -> MeldReading:
    return read_meld(list(pieces), rules, declared=list(declared) if declared else None)


# ---------------------------------------------------------------------------------------------
# Labelling: which after piece came from where


class _Labels:
    """Checks that origin demands can be met: each instance of a piece in a changed after-meld
    gets one origin; a changed before-meld gives each of its pieces once, the rack gives the
    played copies. Any partial labelling within those capacities extends to a full one, because
    the changed after-melds hold exactly the changed before-melds' pieces plus the played ones."""

    def __init__(self, played: Counter[Piece], before: Sequence[_Meld]) -> None:
        self.played = played
        self.before = before

    def supply(self, piece: Real, origin: int) -> int:
        if origin == RACK:
            return self.played[piece]
        return 1 if piece in self.before[origin].reals else 0

    def consistent(self, demands: Iterable[_Demand]) -> bool:
        at: dict[tuple[Real, int], int] = {}
        used: Counter[tuple[Real, int]] = Counter()
        for piece, meld, origin in demands:
            prev = at.get((piece, meld))
            if prev is not None:
                if prev != origin:
                    return False
                continue
            at[(piece, meld)] = origin
            used[(piece, origin)] += 1
            if used[(piece, origin)] > self.supply(piece, origin):
                return False
        return True


@dataclass(frozen=True)
class _Req:
    """One requirement of a scenario: any one of ``options`` (a tuple of demands) must hold;
    no options = impossible. ``fault`` says what is wrong when it cannot hold."""

    stage: str
    options: tuple[tuple[_Demand, ...], ...]
    fault: str
    params: dict[str, Any] = field(default_factory=dict, compare=False)


def _feasible(reqs: Sequence[_Req], labels: _Labels) -> bool:
    def dfs(k: int, demands: tuple[_Demand, ...]) -> bool:
        if k == len(reqs):
            return True
        for opt in reqs[k].options:
            nd = demands + opt
            if labels.consistent(nd) and dfs(k + 1, nd):
                return True
        return False

    return dfs(0, ())


@dataclass(frozen=True)
class _Fate:
    """What happened to one joker of a changed before-meld in one scenario."""

    b: int  # changed before-meld position
    ident: frozenset[Real]  # what it stood for
    a: int  # changed after-meld position where it lies now
    ident_after: frozenset[Real]
    freed_by: Real | None = None  # the real piece that replaced it
    r: int | None = None  # changed after-meld position of that piece


# ---------------------------------------------------------------------------------------------
# The judge


class _Turn:
    def __init__(
        self,
        rules: MeldRules,
        options: TileRummyOptions | CarouselOptions,
        opened: bool,
    ) -> None:
        if rules.variant not in TURN_VARIANTS:
            raise RequestError(
                f"a turn on a shared table is judged for {', '.join(TURN_VARIANTS)}, "
                f"not {rules.variant}",
                "unsupported_check",
            )
        self.rules = rules
        self.variant = rules.variant
        self.options = options
        self.opened = opened or self.variant == "carousel"
        self.rule = _RULE[self.variant]
        self.noun = "card" if rules.material == "cards" else "tile"
        self.hand = "hand" if rules.material == "cards" else "rack"

    # -- verdicts ----------------------------------------------------------------------------
    def bad(
        self,
        reason: str,
        message: str,
        played: Sequence[Piece] = (),
        seed: bool = False,
        initial: int | None = None,
        rule: str | None = None,
        **params: Any,
    ) -> TurnVerdict:
        """A not-valid verdict; ``message`` gets the rule appended unless ``rule`` is given
        (then the message already names it)."""
        if rule is None:
            rule = self.rule + (f", {_SEED[self.variant]}" if seed else "")
            message = f"{message} ({rule})"
        return TurnVerdict(False, tuple(played), initial, reason, message, rule, params)

    # -- 1. conservation ---------------------------------------------------------------------
    def conservation(
        self, rack: Sequence[Piece], before: Iterable[Piece], after: Iterable[Piece]
    ) -> TurnVerdict | tuple[Piece, ...]:
        cb: Counter[Piece] = Counter(before)
        ca: Counter[Piece] = Counter(after)
        cr: Counter[Piece] = Counter(rack)
        taken = sort_pieces(p for p in cb if ca[p] < cb[p])
        if taken:
            first = taken[0]
            n_before, n_after = cb[first], ca[first]
            if first is JOKER:
                text = (
                    f"a joker left the table ({n_before} before, {n_after} after): a freed joker "
                    f"must be used on the table in the same turn, never taken to the {self.hand}"
                )
            else:
                text = (
                    f"{first} left the table ({n_before} on it before, {n_after} after): no "
                    f"{self.noun} goes from the table to the {self.hand}"
                )
            return self.bad(
                "tile_taken_from_table",
                text,
                tile=str(first),
                tiles=[str(p) for p in taken for _ in range(cb[p] - ca[p])],
            )
        diff = ca - cb
        played = tuple(sort_pieces(diff.elements()))
        missing = sort_pieces(p for p in diff if diff[p] > cr[p])
        if missing:
            first = missing[0]
            return self.bad(
                "tile_not_on_rack",
                f"{first} is new on the table ({diff[first]} played) but the {self.hand} held "
                f"{cr[first]}: only {self.noun}s from the {self.hand} may be played",
                played,
                tile=str(first),
                tiles=[str(p) for p in missing for _ in range(diff[p] - cr[p])],
            )
        if not played:
            return self.bad(
                "nothing_played",
                f"no {self.noun} was played from the {self.hand}: a turn adds at least one "
                f"{self.noun} to the table (a player who plays nothing draws instead)",
            )
        return played

    # -- 2. melds ----------------------------------------------------------------------------
    def read_after(
        self,
        after: Sequence[Sequence[Piece]],
        declared: Sequence[Declared] | None,
        played: Sequence[Piece],
    ) -> TurnVerdict | list[_Meld]:
        melds: list[_Meld] = []
        for j, m in enumerate(after):
            decl = declared[j] if declared is not None and j < len(declared) else None
            r = _readings(m, self.rules, decl)
            name = f"table_after[{j}]"
            if not r.valid:
                return self.bad(
                    "invalid_meld",
                    f"{name} ({_text(m)}) is not a valid meld: {r.message}",
                    played,
                    rule=r.rule,
                    meld=j,
                    tiles=[str(p) for p in m],
                    meld_reason=r.reason,
                )
            melds.append(_Meld(name, j, tuple(m), (r, *r.alternatives)))
        return melds

    def read_before(
        self, before: Sequence[Sequence[Piece]], declared: Sequence[Declared] | None
    ) -> list[_Meld]:
        melds: list[_Meld] = []
        for i, m in enumerate(before):
            decl = declared[i] if declared is not None and i < len(declared) else None
            r = _readings(m, self.rules, decl)
            name = f"table_before[{i}]"
            if not r.valid:
                raise RequestError(
                    f"{name} ({_text(m)}) is not a valid meld, so it cannot have been on the "
                    f"table: {r.message}",
                    "bad_field",
                )
            melds.append(_Meld(name, i, tuple(m), (r, *r.alternatives)))
        return melds

    def match_intact(
        self, before: Sequence[_Meld], after: Sequence[_Meld]
    ) -> tuple[list[_Meld], list[_Meld]]:
        """Pair each before-meld with an identical after-meld; return the unpaired ones."""
        free = list(range(len(after)))
        changed_before: list[_Meld] = []
        for b in before:
            for pos, j in enumerate(free):
                a = after[j]
                if a.key != b.key:
                    continue
                if self.variant == "carousel" and b.jokers:
                    bo = _joker_options(b, self.rules)
                    ao = _joker_options(a, self.rules)
                    if not any(_compatible(x, y) for x in bo for y in ao):
                        continue
                del free[pos]
                break
            else:
                changed_before.append(b)
        return changed_before, [after[j] for j in free]

    # -- 3. initial meld ---------------------------------------------------------------------
    def initial(
        self,
        changed_before: Sequence[_Meld],
        changed_after: Sequence[_Meld],
        played: tuple[Piece, ...],
    ) -> TurnVerdict | int:
        assert isinstance(self.options, TileRummyOptions)
        need = self.options.initial_meld
        if not self.options.manipulate_on_initial_turn:
            if changed_before:
                b = changed_before[0]
                return self.bad(
                    "manipulated_before_initial_meld",
                    f"{b.label()} is no longer on the table as it was: until the initial meld "
                    "is down a player may not add to, rearrange or take jokers from table melds, "
                    "nor in the initial-meld turn itself (option manipulate_on_initial_turn is "
                    "off)",
                    played,
                    meld=b.index,
                    tiles=[str(p) for p in b.pieces],
                )
            value = sum(a.readings[0].value for a in changed_after)
        else:
            value = _best_rack_melds(changed_after, Counter(played))
        if value < need:
            return self.bad(
                "below_initial_meld",
                f"the initial meld needs {need} points in new melds of the player's own tiles; "
                f"these make {value}",
                played,
                initial=value,
                value=value,
                needed=need,
            )
        return value

    # -- 4. jokers ---------------------------------------------------------------------------
    def stages(self) -> list[tuple[str, str]]:
        """(stage, message prefix) in the order they are checked."""
        if self.variant == "carousel":
            return [("match", "Carousel joker rule")]
        assert isinstance(self.options, TileRummyOptions)
        if self.options.joker_rule == "my_rummy":
            return [
                ("match", "My Rummy joker rule (as joker level 1, match)"),
                ("rack", "My Rummy joker rule (as joker level 2, match_from_rack)"),
                ("my_initial", "My Rummy joker rule"),
                ("my_exact", "My Rummy joker rule"),
                ("my_other", "My Rummy joker rule"),
            ]
        level = self.options.joker_level
        names = ("match", "rack", "no_split", "new_meld")
        return [(names[k - 1], f"joker level {k} ({JOKER_RULES[k]})") for k in range(1, level + 1)]

    def jokers(
        self,
        before: Sequence[_Meld],
        after: Sequence[_Meld],
        played: tuple[Piece, ...],
    ) -> TurnVerdict | None:
        stages = self.stages()
        if not stages or not any(b.jokers for b in before):
            return None
        labels = _Labels(Counter(played), before)
        scenarios, culprit = self.scenarios(before, after)
        passing: list[dict[str, list[_Req]]] = [
            self.requirements(sc, before, after) for sc in scenarios
        ]
        done: list[str] = []
        for stage, prefix in stages:
            upto = [*done, stage]
            nxt = [sc for sc in passing if _feasible([r for s in upto for r in sc[s]], labels)]
            if not nxt:
                if passing:
                    req = _culprit(passing[0], done, stage, labels)
                    fault, params = req.fault, req.params
                else:
                    fault, params = culprit
                extra: dict[str, Any] = {"joker_rule": self.joker_rule_name()}
                if self.variant == "tile_rummy":
                    extra["level"] = [s for s, _ in stages].index(stage) + 1
                extra.update(params)
                return self.bad("joker_rule", f"{prefix}: {fault}", played, seed=True, **extra)
            passing = nxt
            done.append(stage)
        return None

    def joker_rule_name(self) -> str:
        if isinstance(self.options, TileRummyOptions):
            return self.options.joker_rule
        return "carousel"

    def scenarios(
        self, before: Sequence[_Meld], after: Sequence[_Meld]
    ) -> tuple[list[tuple[_Fate, ...]], tuple[str, dict[str, Any]]]:
        """Every (readings, joker mapping, fates) combination; and, for the case where some
        joker has no possible fate at all, the fault to report."""
        bj = [b for b, m in enumerate(before) if m.jokers]
        aj = [a for a, m in enumerate(after) if m.jokers]
        b_opts = [_joker_options(before[b], self.rules) for b in bj]
        a_opts = [_joker_options(after[a], self.rules) for a in aj]
        out: list[tuple[_Fate, ...]] = []
        culprit: tuple[str, dict[str, Any]] | None = None
        for bsel in product(*b_opts):
            xs = [(b, ident) for b, ids in zip(bj, bsel, strict=True) for ident in ids]
            for asel in product(*a_opts):
                ys = [(a, ident) for a, ids in zip(aj, asel, strict=True) for ident in ids]
                for mapping in permutations(range(len(ys)), len(xs)):
                    per_x: list[list[_Fate]] = []
                    for xi, (b, ident) in enumerate(xs):
                        a_y, id_y = ys[mapping[xi]]
                        opts: list[_Fate] = []
                        if ident & id_y:
                            opts.append(_Fate(b, ident, a_y, id_y))
                        for t in _sort_real(ident):
                            for r, m in enumerate(after):
                                if t in m.reals:
                                    opts.append(_Fate(b, ident, a_y, id_y, t, r))
                        if not opts and culprit is None:
                            culprit = self.left_fault(before[b], ident)
                        per_x.append(opts)
                    out.extend(product(*per_x))
        return out, culprit or ("a joker left its meld without being replaced", {})

    def left_fault(self, meld: _Meld, ident: frozenset[Real]) -> tuple[str, dict[str, Any]]:
        it = _ident_text(ident)
        if self.variant == "carousel":
            text = (
                f"the joker of {meld.label()} stood for {it}; it no longer does and {it} did not "
                "take its place (a joker keeps its identity until replaced by that very card)"
            )
        else:
            text = (
                f"the joker of {meld.label()} stood for {it} and left its place without being "
                f"replaced by {it}"
            )
        return text, {"meld": meld.index, "joker": it}

    def requirements(
        self,
        sc: tuple[_Fate, ...],
        before: Sequence[_Meld],
        after: Sequence[_Meld],
    ) -> dict[str, list[_Req]]:
        reqs: dict[str, list[_Req]] = {
            s: []
            for s in ("match", "rack", "no_split", "new_meld", "my_initial", "my_exact", "my_other")
        }

        def descends(b: int, a: int) -> tuple[tuple[_Demand, ...], ...]:
            return tuple(((s, a, b),) for s in _sort_real(before[b].reals & after[a].reals))

        for f in sc:
            bm, it = before[f.b], _ident_text(f.ident)
            base = {"meld": bm.index, "joker": it}
            if f.freed_by is None:
                if self.variant != "carousel":
                    am = after[f.a]
                    reqs["match"].append(
                        _Req(
                            "match",
                            descends(f.b, f.a),
                            f"the joker of {bm.label()} stood for {it} and went to "
                            f"{am.label()}, away from its meld, without being replaced by {it}",
                            {**base, "after": am.index},
                        )
                    )
                continue
            t, r = f.freed_by, f.r
            assert r is not None
            rm = after[r]
            params = {**base, "after": rm.index, "tile": str(t)}
            reqs["match"].append(
                _Req(
                    "match",
                    descends(f.b, r),
                    f"the joker of {bm.label()} stood for {it} and left without being replaced: "
                    f"the {t} in {rm.label()} is not in that meld's place",
                    params,
                )
            )
            reqs["rack"].append(
                _Req(
                    "rack",
                    (((t, r, RACK),),),
                    f"the {t} that replaced the joker of {bm.label()} came from the table, not "
                    f"the {self.hand}",
                    params,
                )
            )
            ym = after[f.a]
            reqs["new_meld"].append(
                _Req(
                    "new_meld",
                    (tuple((s, f.a, RACK) for s in _sort_real(ym.reals)),),
                    f"the joker freed from {bm.label()} went onto {ym.label()}, which is not a "
                    f"new meld made of tiles from the {self.hand}",
                    {**params, "after": ym.index},
                )
            )
            if not self.opened:
                reqs["my_initial"].append(
                    _Req(
                        "my_initial",
                        (),
                        f"the joker of {bm.label()} was swapped in the initial-meld turn: a "
                        "joker may be swapped only after one's own initial meld",
                        params,
                    )
                )
            siblings = [g for g in sc if g.b == f.b and g is not f]
            exact_ok = bm.reals <= rm.reals and all(
                (g.a == r) if g.freed_by is None else (g.r == r) for g in siblings
            )
            reqs["my_exact"].append(
                _Req(
                    "my_exact",
                    (tuple((s, r, f.b) for s in _sort_real(bm.reals)),) if exact_ok else (),
                    f"the {t} must go exactly where the joker was: {rm.label()} is not "
                    f"{bm.label()} with {t} in the joker's place",
                    params,
                )
            )
            reqs["my_other"].append(
                _Req(
                    "my_other",
                    ((),) if f.a != r else (),
                    f"the joker freed from {bm.label()} must be used in another meld, not put "
                    f"back into {rm.label()}",
                    params,
                )
            )
        for b, bm in enumerate(before):
            fates = [f for f in sc if f.b == b]
            if not fates or all(f.freed_by is not None for f in fates):
                continue
            opts: list[tuple[_Demand, ...]] = []
            for a, am in enumerate(after):
                if not bm.reals <= am.reals:
                    continue
                if all((f.a == a) if f.freed_by is None else (f.r == a) for f in fates):
                    opts.append(tuple((s, a, b) for s in _sort_real(bm.reals)))
            reqs["no_split"].append(
                _Req(
                    "no_split",
                    tuple(opts),
                    f"{self.noun}s were taken from {bm.label()} while it holds a joker: no "
                    f"{self.noun} may leave a meld holding a joker unless that joker is first "
                    "replaced",
                    {"meld": bm.index},
                )
            )
        return reqs


def _culprit(sc: dict[str, list[_Req]], done: Sequence[str], stage: str, labels: _Labels) -> _Req:
    """The first requirement of ``stage`` that the scenario cannot meet on top of the stages
    it passed."""
    acc = [r for s in done for r in sc[s]]
    for req in sc[stage]:
        acc.append(req)
        if not _feasible(acc, labels):
            return req
    return sc[stage][-1]


def _best_rack_melds(after: Sequence[_Meld], played: Counter[Piece]) -> int:
    """Most points in a set of after-melds made only of played pieces (jointly within the
    played counts): the initial meld where the player may also rearrange the table."""
    cands = []
    for a in after:
        need: Counter[Piece] = Counter(a.pieces)
        if all(played[p] >= n for p, n in need.items()):
            cands.append((a.readings[0].value, need))
    cands.sort(key=lambda c: -c[0])
    total = sum(v for v, _ in cands)
    joint: Counter[Piece] = Counter()
    for _, need in cands:
        joint.update(need)
    if all(played[p] >= n for p, n in joint.items()):
        return total
    best = 0
    suffix = [0] * (len(cands) + 1)
    for k in range(len(cands) - 1, -1, -1):
        suffix[k] = suffix[k + 1] + cands[k][0]

    def dfs(k: int, used: Counter[Piece], value: int) -> None:
        nonlocal best
        best = max(best, value)
        if k == len(cands) or value + suffix[k] <= best:
            return
        v, need = cands[k]
        if all(used[p] + n <= played[p] for p, n in need.items()):
            dfs(k + 1, used + need, value + v)
        dfs(k + 1, used, value)

    dfs(0, Counter(), 0)
    return best


# ---------------------------------------------------------------------------------------------
# Public API


def judge_turn(
    rack: Sequence[Piece],
    table_before: Sequence[Sequence[Piece]],
    table_after: Sequence[Sequence[Piece]],
    *,
    rules: MeldRules,
    options: TileRummyOptions | CarouselOptions,
    opened: bool = True,
    declared_before: Sequence[Declared] | None = None,
    declared_after: Sequence[Declared] | None = None,
) -> TurnVerdict:
    """Judge one turn on a shared table (RULES.md §4 Tile/My Rummy, §6 Carousel).

    Args:
        rack: the player's rack (Carousel: hand) before the turn.
        table_before: the melds on the table before the turn, each as it lies.
        table_after: the melds on the table after the turn, each as it lies.
        rules: the variant's meld rules (``meld_rules("tile_rummy" | "my_rummy" |
            "carousel")``).
        options: :class:`TileRummyOptions` (``joker_rule``, ``initial_meld``,
            ``manipulate_on_initial_turn``) or :class:`CarouselOptions`.
        opened: the player had made the initial meld before this turn (ignored in Carousel).
        declared_before: Carousel: per meld of ``table_before``, the cards its jokers stand for
            in the order the jokers appear (``None`` = not declared); parallel to the melds.
        declared_after: the same for ``table_after``.

    Returns:
        A :class:`TurnVerdict`: ``played`` (pieces from the rack to the table) and
        ``initial_meld`` (points, in the initial-meld turn) when valid; else ``reason`` and a
        message naming the meld or piece at fault (see the module docstring for the checks and
        how jokers are tracked).

    Raises:
        RequestError: a meld of ``table_before`` is not valid (code ``bad_field``), or the
            variant has no shared table (``unsupported_check``).
    """
    turn = _Turn(rules, options, opened)
    got = turn.conservation(
        rack, (p for m in table_before for p in m), (p for m in table_after for p in m)
    )
    if isinstance(got, TurnVerdict):
        return got
    played = got
    after = turn.read_after(table_after, declared_after, played)
    if isinstance(after, TurnVerdict):
        return after
    before = turn.read_before(table_before, declared_before)
    changed_before, changed_after = turn.match_intact(before, after)
    initial: int | None = None
    if not turn.opened:
        value = turn.initial(changed_before, changed_after, played)
        if isinstance(value, TurnVerdict):
            return value
        initial = value
    fault = turn.jokers(changed_before, changed_after, played)
    if fault is not None:
        return TurnVerdict(
            False, played, initial, fault.reason, fault.message, fault.rule, fault.params
        )
    what = f"initial meld worth {initial}" if initial is not None else "table valid"
    return TurnVerdict(
        True,
        played,
        initial,
        message=f"valid turn: {len(played)} {turn.noun}{'s' if len(played) != 1 else ''} "
        f"played, {what} ({turn.rule})",
        rule=turn.rule,
    )


SplitFn = Callable[[Sequence[Piece], MeldRules], "list[list[Piece]] | None"]


def judge_turn_heap(
    rack: Sequence[Piece],
    table_before: Sequence[Sequence[Piece]],
    heap: Sequence[Piece],
    *,
    rules: MeldRules,
    options: TileRummyOptions | CarouselOptions,
    opened: bool = True,
    declared_before: Sequence[Declared] | None = None,
    split: SplitFn | None = None,
) -> TurnVerdict:
    """Judge a turn whose table after is given as a heap of pieces (JUDGE.md ``split``).

    Conservation is checked on the heap first. Then the heap is split into melds with
    :func:`rules.search.split.split_heap` (or ``split``), trying the readings most favourable to
    the player first: (a) the table before untouched plus a split of the played pieces alone;
    (b) the before-melds holding jokers untouched plus a split of the rest; (c) a split of the
    whole heap. The first of these that makes a legal turn is the verdict; if none does, the
    verdict on the first that split (its ``melds`` show the split judged). No split at all:
    ``no_split``. Joker rules on a heap are judged on the split found, so a heap turn that needs a
    particular arrangement of jokers should be given as melds.

    Args and Returns: as :func:`judge_turn`; ``heap`` is the table after, ungrouped.
    """
    turn = _Turn(rules, options, opened)
    got = turn.conservation(rack, (p for m in table_before for p in m), heap)
    if isinstance(got, TurnVerdict):
        return got
    played = got
    if split is None:
        from rules.search.split import split_heap

        split = split_heap
    attempts: list[list[list[Piece]]] = []

    def attempt(kept: Sequence[Sequence[Piece]], rest: Sequence[Piece]) -> None:
        parts = split(rest, rules) if rest else []
        if parts is not None:
            attempts.append([list(m) for m in kept] + parts)

    attempt(table_before, played)
    joker_melds = [m for m in table_before if any(p is JOKER for p in m)]
    if joker_melds and len(joker_melds) < len(table_before):
        rest: Counter[Piece] = Counter(heap)
        rest.subtract(p for m in joker_melds for p in m)
        attempt(joker_melds, sort_pieces(rest.elements()))
    attempt([], heap)
    if not attempts:
        return turn.bad(
            "no_split",
            f"the table after the turn ({len(heap)} {turn.noun}s) cannot be split into valid "
            f"melds of at least 3 {turn.noun}s each",
            played,
        )
    first: TurnVerdict | None = None
    seen: list[list[list[Piece]]] = []
    for melds in attempts:
        if melds in seen:
            continue
        seen.append(melds)
        v = judge_turn(
            rack,
            table_before,
            melds,
            rules=rules,
            options=options,
            opened=opened,
            declared_before=declared_before,
        )
        v = TurnVerdict(
            v.valid,
            v.played,
            v.initial_meld,
            v.reason,
            v.message,
            v.rule,
            v.params,
            tuple(tuple(m) for m in melds),
        )
        if v.valid:
            return v
        if first is None:
            first = v
    assert first is not None
    return first


__all__ = ["RACK", "TURN_VARIANTS", "Declared", "TurnVerdict", "judge_turn", "judge_turn_heap"]
