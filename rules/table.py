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
   with ``value`` and ``needed``). With ``manipulate_on_initial_turn`` the initial meld is laid
   first and the table may then be rearranged, the fresh melds included: the value counted is
   the best set of valid melds that some of the played tiles make on their own
   (:func:`best_new_melds`), wherever those tiles end up after the turn. Carousel has no
   threshold and no initial-meld restriction: any turn that adds ≥ 1 card from the hand may
   rearrange.
4. **Jokers** (``joker_rule``): Tile Rummy levels 0–4, My Rummy's rule, Carousel's declared
   identities (below).

How the table before is matched to the table after
--------------------------------------------------
*Intact melds.* A before-meld is **intact** when an after-meld holds exactly the same pieces (as
multisets; the order may be normalised) and its jokers keep a compatible identity. Intact
melds are paired one to one (a multiset of melds) and take no further part: their pieces, jokers
included, did not move. A joker slid to another place in the same pieces is a change
(``5H 6H JK`` → ``JK 5H 6H`` moves the joker from 7H to 4H; Tile/My Rummy ``R5 R6 JK`` →
``JK R5 R6`` from R7 to R4, refused from joker level 1 on, RULES.md §4); a run entered
descending, or a group in another order, keeps its jokers' identities and stays intact.

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

Approximation: with ``manipulate_on_initial_turn`` the initial-meld value (the best new melds
the played tiles make on their own) and the joker rules are each judged favourably on their own,
not jointly: a joker laid in the initial meld and moved on in the same turn is judged as a joker
played from the rack.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations, permutations, product
from typing import TYPE_CHECKING, Any, Final

from rules.errors import RequestError
from rules.melds import MeldReading, read_meld
from rules.options import JOKER_RULES, CarouselOptions, TileRummyOptions
from rules.pieces import JOKER, Card, Piece, Tile, make_piece, sort_pieces
from rules.variant import REGISTRY, MeldRules, find_variant
from rules.verdict import Line, RuleRef, add_line, rule_ref

if TYPE_CHECKING:
    from rules.search.split import Deadline

Real = Tile | Card
"""A numbered piece (not a joker)."""
Declared = Sequence[Card | Tile | None] | None
"""The declared identities of one meld's jokers, in the order they appear (Carousel)."""

RACK: Final = -1
"""Origin label of a piece that came from the rack."""
TURN_VARIANTS: Final = tuple(v.name for v in REGISTRY if v.judges_table_turns)
"""The variants whose turns are judged here (:attr:`rules.variant.Variant.judges_table_turns`):
Tile Rummy, My Rummy, Carousel."""

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
        jokers: with ``melds`` of a heap holding a joker: per meld, what each of its jokers
            stands for, in the order they appear (``"R13"``, ``"?7"`` for a group joker whose
            colour/suit is open; Carousel: the card declared for a meld kept from the table
            before), as the ``split`` check's ``jokers``.
    """

    valid: bool
    played: tuple[Piece, ...] = ()
    initial_meld: int | None = None
    reason: str | None = None
    message: str = ""
    rule: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    melds: tuple[tuple[Piece, ...], ...] | None = None
    line: Line | None = None
    ref: RuleRef | None = None
    jokers: tuple[tuple[str, ...], ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """The ``turn`` answer of JUDGE.md: ``valid``, ``played`` (canonical strings),
        ``initial_meld``; ``reason`` and ``message`` when not valid; ``rule``; the params;
        ``melds`` for a heap, with ``jokers`` when it holds one."""
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
        if self.jokers is not None:
            out["jokers"] = [list(j) for j in self.jokers]
        return add_line(out, self.line, self.ref)


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

    def ref(self) -> Line:
        """The meld named as data: its request field and pieces (``turn.meld``)."""
        return Line("turn.meld", {"field": self.name, "tiles": _text(self.pieces)})


def _text(pieces: Iterable[Piece]) -> str:
    return " ".join(str(p) for p in pieces)


def _sort_real(pieces: Iterable[Real]) -> list[Real]:
    return sorted(pieces, key=lambda p: p.sort_key())


def _ident_text(ident: frozenset[Real]) -> str:
    names = [str(p) for p in _sort_real(ident)]
    if not names:
        return "?"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _ident_line(ident: frozenset[Real]) -> str | Line:
    """What a joker stood for as a line param: one piece, or ``pieces.or`` ("R7, B7 or Y7")."""
    names = [str(p) for p in _sort_real(ident)]
    if len(names) < 2:
        return names[0] if names else "?"
    return Line("pieces.or", {"first": ", ".join(names[:-1]), "last": names[-1]})


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
    fault: Line = field(compare=False)
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
            raise RequestError.keyed(
                "turn.unsupported",
                "unsupported_check",
                variants=", ".join(TURN_VARIANTS),
                variant=rules.variant,
            )
        self.rules = rules
        self.variant = rules.variant
        self.options = options
        self.spec = find_variant(self.variant)
        self.opened = opened or not self.spec.answers("opening")  # Carousel: no initial meld
        self.rule = self.spec.rule
        self.material = "cards" if rules.material == "cards" else "tiles"

    # -- verdicts ----------------------------------------------------------------------------
    def ref(self, section: str, rule: str | None = None, seed: bool = False) -> RuleRef:
        """The rule applied: RULES.md § and seed, the rule-book section, the options in force
        that a turn verdict turns on (the initial meld, the joker rule)."""
        text = rule or (self.spec.rule_seed if seed else self.rule)
        opts: dict[str, Any] = {}
        if isinstance(self.options, TileRummyOptions):
            if section == "opening":
                opts["initial_meld"] = self.options.initial_meld
                opts["manipulate_on_initial_turn"] = self.options.manipulate_on_initial_turn
            elif section == "jokers":
                opts["joker_rule"] = self.options.joker_rule
        if not self.spec.answers("opening") and section in ("turn", "opening"):
            section = "melding"  # no initial meld (Carousel): the book's melding section
        return rule_ref(text, self.variant, section, **opts)

    def bad(
        self,
        reason: str,
        line: Line,
        played: Sequence[Piece] = (),
        seed: bool = False,
        initial: int | None = None,
        rule: str | None = None,
        section: str = "turn",
        **params: Any,
    ) -> TurnVerdict:
        """A not-valid verdict; its English message is ``line`` and the rule (``rule``, when
        given, is the rule of a nested meld verdict: RULES.md §2)."""
        ref = self.ref(section, rule, seed)
        message = f"{line.english()} ({ref.text})"
        return TurnVerdict(
            False, tuple(played), initial, reason, message, ref.text, params, None, line, ref
        )

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
                text = Line(
                    f"turn.joker_left_table.{self.material}",
                    {"n_before": n_before, "n_after": n_after},
                )
            else:
                text = Line(
                    f"turn.left_table.{self.material}",
                    {"tile": str(first), "n_before": n_before, "n_after": n_after},
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
                Line(
                    f"turn.not_on_rack.{self.material}",
                    {"tile": str(first), "played": diff[first], "held": cr[first]},
                ),
                played,
                tile=str(first),
                tiles=[str(p) for p in missing for _ in range(diff[p] - cr[p])],
            )
        if not played:
            return self.bad(
                "nothing_played",
                Line(f"turn.nothing_played.{self.material}", {}),
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
                params: dict[str, Any] = {
                    "meld": j,
                    "tiles": [str(p) for p in m],
                    "meld_reason": r.reason,
                }
                meld = Line("turn.meld", {"field": name, "tiles": _text(m)})
                if r.line is None:  # a reading without a keyed line (none known today)
                    return TurnVerdict(
                        False,
                        tuple(played),
                        None,
                        "invalid_meld",
                        f"{name} ({_text(m)}) is not a valid meld: {r.message}",
                        r.rule,
                        params,
                    )
                return self.bad(
                    "invalid_meld",
                    Line("turn.invalid_meld", {"meld": meld, "why": r.line}),
                    played,
                    rule=r.rule,
                    section="melds",
                    **params,
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
                message = (
                    f"{name} ({_text(m)}) is not a valid meld, so it cannot have been on the "
                    f"table: {r.message}"
                )
                ln = None
                if r.line is not None:
                    meld = Line("turn.meld", {"field": name, "tiles": _text(m)})
                    ln = Line("turn.before_invalid", {"meld": meld, "why": r.line})
                raise RequestError(message, "bad_field", ln)
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
                if b.jokers:
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
                    Line("turn.manipulated_before_initial_meld", {"meld": b.ref()}),
                    played,
                    section="opening",
                    meld=b.index,
                    tiles=[str(p) for p in b.pieces],
                )
            value = sum(a.readings[0].value for a in changed_after)
        else:
            value = best_new_melds(played, self.rules)
        if value < need:
            return self.bad(
                "below_initial_meld",
                Line("turn.below_initial_meld", {"need": need, "value": value}),
                played,
                section="opening",
                initial=value,
                value=value,
                needed=need,
            )
        return value

    # -- 4. jokers ---------------------------------------------------------------------------
    def stages(self) -> list[tuple[str, str]]:
        """(stage, key of the message prefix) in the order they are checked."""
        if self.spec.declares_jokers:  # a joker is the card declared for it (Carousel)
            return [("match", "joker.rule.carousel")]
        assert isinstance(self.options, TileRummyOptions)
        if self.options.joker_rule == "my_rummy":
            return [
                ("match", "joker.rule.my_rummy_match"),
                ("rack", "joker.rule.my_rummy_rack"),
                ("my_initial", "joker.rule.my_rummy"),
                ("my_exact", "joker.rule.my_rummy"),
                ("my_other", "joker.rule.my_rummy"),
            ]
        level = self.options.joker_level
        names = ("match", "rack", "no_split", "new_meld")
        # the prefixes name the levels of JOKER_RULES: "joker level 2 (match_from_rack)"
        assert len(JOKER_RULES) == 5
        return [(names[k - 1], f"joker.rule.level{k}") for k in range(1, level + 1)]

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
                extra: dict[str, Any] = {"joker_rule": self.joker_rule_name(), "stage": stage}
                if isinstance(self.options, TileRummyOptions) and (
                    self.options.joker_rule in JOKER_RULES
                ):  # the joker levels 0–4 (Tile Rummy)
                    extra["level"] = [s for s, _ in stages].index(stage) + 1
                extra.update(params)
                return self.bad(
                    "joker_rule",
                    Line("joker.fault", {"rule": Line(prefix, {}), "fault": fault}),
                    played,
                    seed=True,
                    section="jokers",
                    **extra,
                )
            passing = nxt
            done.append(stage)
        return None

    def joker_rule_name(self) -> str:
        if isinstance(self.options, TileRummyOptions):
            return self.options.joker_rule
        return "carousel"

    def scenarios(
        self, before: Sequence[_Meld], after: Sequence[_Meld]
    ) -> tuple[list[tuple[_Fate, ...]], tuple[Line, dict[str, Any]]]:
        """Every (readings, joker mapping, fates) combination; and, for the case where some
        joker has no possible fate at all, the fault to report."""
        bj = [b for b, m in enumerate(before) if m.jokers]
        aj = [a for a, m in enumerate(after) if m.jokers]
        b_opts = [_joker_options(before[b], self.rules) for b in bj]
        a_opts = [_joker_options(after[a], self.rules) for a in aj]
        out: list[tuple[_Fate, ...]] = []
        culprit: tuple[Line, dict[str, Any]] | None = None
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
        return out, culprit or (Line("joker.left_unreplaced", {}), {})

    def left_fault(self, meld: _Meld, ident: frozenset[Real]) -> tuple[Line, dict[str, Any]]:
        it = _ident_text(ident)
        key = "joker.left_identity" if self.spec.declares_jokers else "joker.left_place"
        text = Line(key, {"before": meld.ref(), "joker": _ident_line(ident)})
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
            said = {"before": bm.ref(), "joker": _ident_line(f.ident)}
            if f.freed_by is None:
                if not self.spec.declares_jokers:
                    am = after[f.a]
                    reqs["match"].append(
                        _Req(
                            "match",
                            descends(f.b, f.a),
                            Line("joker.moved_away", {**said, "after": am.ref()}),
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
                    Line("joker.replaced_elsewhere", {**said, "tile": str(t), "after": rm.ref()}),
                    params,
                )
            )
            reqs["rack"].append(
                _Req(
                    "rack",
                    (((t, r, RACK),),),
                    Line("joker.rack", {"tile": str(t), "before": bm.ref()}),
                    params,
                )
            )
            ym = after[f.a]
            reqs["new_meld"].append(
                _Req(
                    "new_meld",
                    (tuple((s, f.a, RACK) for s in _sort_real(ym.reals)),),
                    Line("joker.new_meld", {"before": bm.ref(), "after": ym.ref()}),
                    {**params, "after": ym.index},
                )
            )
            if not self.opened:
                reqs["my_initial"].append(
                    _Req(
                        "my_initial",
                        (),
                        Line("joker.my_initial", {"before": bm.ref()}),
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
                    Line("joker.my_exact", {"tile": str(t), "after": rm.ref(), "before": bm.ref()}),
                    params,
                )
            )
            reqs["my_other"].append(
                _Req(
                    "my_other",
                    ((),) if f.a != r else (),
                    Line("joker.my_other", {"before": bm.ref(), "after": rm.ref()}),
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
                    Line("joker.no_split", {"before": bm.ref()}),
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


def _candidate_melds(played: Counter[Piece], rules: MeldRules) -> list[tuple[int, Counter[Piece]]]:
    """Every valid meld that can be made of the played pieces alone, as (value, pieces):
    runs of ``rules.max_run`` or fewer and groups of 3–``rules.max_group``, jokers filling the
    places no real piece fills and counting as what they stand for (RULES.md §2, §4). Runs of
    the same pieces at different places (a joker at either end) are listed once, at their
    highest value: the player lays each meld where it is worth most."""
    jokers = played[JOKER]
    material = rules.material
    best: dict[tuple[Piece, ...], int] = {}

    def add(pieces: list[Piece], value: int) -> None:
        key = tuple(sort_pieces(pieces))
        if best.get(key, -1) < value:
            best[key] = value

    for f in range(4):
        have = [False] * 15
        for n in range(1, 14):
            have[n] = played[make_piece(material, n, f)] > 0
        for lo in range(1, 14):
            for hi in range(lo + 2, min(13, lo + rules.max_run - 1) + 1):
                gaps = [n for n in range(lo, hi + 1) if not have[n]]
                if len(gaps) > jokers:
                    continue
                # jokers fill the gaps, and maybe places whose tile is played elsewhere
                filled = [n for n in range(lo, hi + 1) if have[n]]
                for extra in range(jokers - len(gaps) + 1):
                    for more in combinations(filled, extra):
                        wild = set(gaps) | set(more)
                        if len(wild) == hi - lo + 1:
                            continue  # a meld needs a real tile
                        pieces: list[Piece] = [
                            JOKER if n in wild else make_piece(material, n, f)
                            for n in range(lo, hi + 1)
                        ]
                        add(pieces, sum(range(lo, hi + 1)))
    for n in range(1, 14):
        present = [make_piece(material, n, f) for f in range(4)]
        present = [p for p in present if played[p] > 0]
        for size in range(3, rules.max_group + 1):
            for k in range(max(1, size - jokers), min(size, len(present)) + 1):
                for combo in combinations(present, k):
                    add([*combo, *[JOKER] * (size - k)], n * size)
    return [(v, Counter(k)) for k, v in best.items()]


def best_new_melds(played: Sequence[Piece], rules: MeldRules) -> int:
    """The most points the played pieces alone can make as new melds, not all of them used
    (RULES.md §4, ``manipulate_on_initial_turn``): the value of the best set of valid melds
    (runs and groups, jokers counting as the tile they stand for) made of some of ``played``.

    Exact: a depth-first search over the melds that hold the lowest piece not yet decided
    (used in a meld, or left for the rearrangement), bounded by the points still available.

    Args:
        played: the pieces moved from the rack to the table this turn (Tile/My Rummy tiles).
        rules: the variant's meld rules.

    Returns:
        Points (0 when no meld can be made).
    """
    left: Counter[Piece] = Counter(played)
    cands = _candidate_melds(left, rules)
    by_piece: dict[Piece, list[tuple[int, Counter[Piece]]]] = {}
    for c in sorted(cands, key=lambda c: -c[0]):
        for p in c[1]:
            if p is not JOKER:
                by_piece.setdefault(p, []).append(c)
    order = [p for p in sort_pieces(left) if p is not JOKER]
    best = 0

    def bound(i: int) -> int:
        # every real piece from i on at its face value, and each joker at 13
        return sum(left[p] * p.number for p in order[i:] if isinstance(p, Tile | Card)) + (
            13 * left[JOKER]
        )

    def dfs(i: int, value: int) -> None:
        nonlocal best
        while i < len(order) and left[order[i]] == 0:
            i += 1
        if value > best:
            best = value
        if i == len(order) or value + bound(i) <= best:
            return
        p = order[i]
        for v, need in by_piece.get(p, ()):
            if all(left[q] >= k for q, k in need.items()):
                left.subtract(need)
                dfs(i, value + v)
                left.update(need)
        # no (more) melds with this copy: leave it to the rearrangement
        left[p] -= 1
        dfs(i, value)
        left[p] += 1

    dfs(0, 0)
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
            False,
            played,
            initial,
            fault.reason,
            fault.message,
            fault.rule,
            fault.params,
            None,
            fault.line,
            fault.ref,
        )
    if initial is not None:
        ok = Line("turn.valid_initial", {"n": len(played), "value": initial})
    else:
        ok = Line(f"turn.valid.{turn.material}", {"n": len(played)})
    ref = turn.ref("opening" if initial is not None else "turn")
    return TurnVerdict(
        True,
        played,
        initial,
        message=f"{ok.english()} ({turn.rule})",
        rule=turn.rule,
        line=ok,
        ref=ref,
    )


def _stand_ins(
    melds: Sequence[Sequence[Piece]],
    rules: MeldRules,
    table_before: Sequence[Sequence[Piece]],
    declared_before: Sequence[Declared] | None,
) -> tuple[tuple[str, ...], ...]:
    """Per meld of a heap's split, what each of its jokers stands for in the order they
    appear: its reading's (:attr:`MeldReading.jokers`); a meld kept whole from the table before
    is read with the cards declared for it there (Carousel, RULES.md §6)."""
    out: list[tuple[str, ...]] = []
    for m in melds:
        decl: Declared = None
        for i, b in enumerate(table_before):
            if list(b) == list(m):
                decl = declared_before[i] if declared_before and i < len(declared_before) else None
                break
        r = _readings(m, rules, decl)
        out.append(tuple(r.jokers) if r.valid else ())
    return tuple(out)


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
    deadline: Deadline | None = None,
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

    Args and Returns: as :func:`judge_turn`; ``heap`` is the table after, ungrouped;
    ``deadline``: the time budget all the splits of this turn share (a fresh
    :class:`rules.search.split.Deadline` of ``TIME_BUDGET_S`` when not given).

    Raises:
        TooComplexError: the splits used up the budget (code ``too_complex``).
    """
    turn = _Turn(rules, options, opened)
    got = turn.conservation(rack, (p for m in table_before for p in m), heap)
    if isinstance(got, TurnVerdict):
        return got
    played = got
    if split is None:
        from rules.search.split import Deadline as _Deadline
        from rules.search.split import split_heap

        budget = _Deadline(what="turn") if deadline is None else deadline

        def split(pieces: Sequence[Piece], rules: MeldRules) -> list[list[Piece]] | None:
            return split_heap(pieces, rules, budget)

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
            Line(f"turn.heap_no_split.{turn.material}", {"n": len(heap)}),
            played,
            section="melds",
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
            v.line,
            v.ref,
            _stand_ins(melds, rules, table_before, declared_before)
            if any(p is JOKER for p in heap)
            else None,
        )
        if v.valid:
            return v
        if first is None:
            first = v
    assert first is not None
    return first


__all__ = [
    "RACK",
    "TURN_VARIANTS",
    "Declared",
    "TurnVerdict",
    "best_new_melds",
    "judge_turn",
    "judge_turn_heap",
]
