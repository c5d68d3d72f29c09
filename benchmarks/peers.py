"""Side by side with the peers: OpenSpiel, RLCard and rummikub-solver on the same hands and heaps.

Not part of CI, and none of these is a project dependency. The script keeps its own virtual
environment under ``~/.cache/rummy-peers`` (``--venv`` to change), creates it on first use and
installs the pinned peers there with pip (``venv311`` for Python 3.11):

    open-spiel==2.0.2  rlcard==1.2.0  rummikub-solver==1.0.0

then runs itself again inside that environment. ``rules/`` is pure standard library, so our
engine is imported from the project tree in the same process, and every measurement calls ours
and a peer's in turn on the same hand (interleaved, so a busy machine slows both alike).

Gin, on seeded hands (uniform, and meld-rich from the same pools as ``bench_gin.py``):

- least deadwood, 10 cards: ours ``deadwood_mask`` (hand mask) and ``hand_deadwood`` (cards) vs
  OpenSpiel ``GinRummyUtils.min_deadwood`` (card ints) and RLCard (best meld clusters);
- deadwood with the melds, 10 cards, at two levels: like for like, ours ``index_melds`` (a list
  of card ints in, the deadwood and the melds as tuples of card ints out) vs OpenSpiel
  ``best_meld_group`` (a list of card ints in, the melds as lists of card ints out: the binding
  converts the list to a C++ vector and the answer back to Python lists); and ours
  ``best_arrangement`` (Card objects in, melds of Card objects out, what the judge and the app
  use) vs the same OpenSpiel call; RLCard ``get_best_meld_clusters`` beside both;
- 11 cards, best discard: ours ``index_discard`` (card ints in: the deadwood, the discard, the
  melds of the 10 kept and the 11 cards' deadwood out) and ``best_discard`` (Card objects) vs
  OpenSpiel ``min_deadwood`` on 11 cards (its answer for the best discard: the number only) and
  RLCard (best meld clusters of each of the 11 possible 10s).

The card ints are each peer's own numbering of the same cards (ours and RLCard's ``13 * suit
+ rank - 1`` with suits S H D C, OpenSpiel's with suits s c d h), converted before timing. Our
calls keep no answer from one call to the next: only tables built once (the run tables, the
options of a rank's cards, the card-index calls' packed cards), as the peers keep theirs.

Our Card-level calls get the cards the judge gets: each token read through the notation
(``known_pieces`` / ``parse_pieces``, as ``Request.pieces`` does), so a token is one card object
from one request to the next and its hand-mask bit is cached on it. The "new Card objects" / "new
Cards" rows give ours card objects made for that hand and never encoded before (their "cold"
call pays the first encoding; the warm calls find the bits cached).

Our Card-level answers hold the deadwood and the melds as Card objects; their unmatched cards
(``Arrangement.unmatched``, which OpenSpiel's ``best_meld_group`` has no counterpart of) are laid
out on first reading, and ``best_discard`` makes the arrangement of the 10 kept on first
reading. The "unmatched read" rows (``melds_all``, ``discard_all``) time the call and that first
reading together (through a small wrapper, :func:`read_all`, on ours and on the ``--ab`` copy
alike): the whole answer the judge writes out.

Each value is checked against ours and, on a sample, against plain enumeration of disjoint melds
(``brute_force_deadwood``); disagreements are counted and the first few printed.

Tile Rummy heaps (``benchmarks/bench_split.py``'s generator: valid, near and random heaps):
rummikub-solver's ``RuleSet.arrange_table`` (MILP, SciPy's HiGHS backend) vs our
``rules.search.split.find_split``; a disagreement is one splitting the heap and the other not
(``arrange_table`` first tries the heap without its jokers and, when the numbered tiles split,
answers with the jokers "free", not placed: such heaps are counted apart, not compared).

Prints medians in µs (gin) or ms (heaps) and the ratio ours / peer (below 1: ours faster). Gin
calls are timed two ways on every hand: "cold", the first call, right after the other peers'
calls on that hand (their work has pushed ours out of the processor's caches, and the other way
round), and "warm", the best of 3 more calls right after it (steadier on a busy machine; the
usual micro-benchmark figure). Our 11-card calls answer the discard and, for the "melds"
tasks, the melds of the 10 kept; OpenSpiel's ``min_deadwood`` on 11 cards answers the number
only.

Usage, from the project root:

    .venv/bin/python benchmarks/peers.py            # gin 3,000 hands per kind, 20 heaps per size
    .venv/bin/python benchmarks/peers.py --quick    # fewer
    .venv/bin/python benchmarks/peers.py --no-install   # fail instead of installing
    .venv/bin/python benchmarks/peers.py --only gin --tasks melds_index,discard_index \
        --ab /tmp/deadwood-before.py   # also a copy of the engine from before a change: ours / it

``--ab`` times a second copy of ``rules/search/deadwood.py`` (loaded as a module of its own) in
the same loop, interleaved with ours and the peers on the same hands (the mask, card-index and
Card-object tasks), and prints ours / that copy, cold and warm, and how many answers differ: on a
busy machine the ratio to the copy is the before/after figure to trust, not two runs' medians.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PEERS = ("open-spiel==2.0.2", "rlcard==1.2.0", "rummikub-solver==1.0.0")
DEFAULT_VENV = (
    Path.home() / ".cache" / "rummy-peers" / f"venv{sys.version_info[0]}{sys.version_info[1]}"
)
INSIDE = "RUMMY_PEERS_INSIDE"

POOLS = [
    list(range(52)),
    [i for i in range(52) if i % 13 < 7 and i // 13 < 3],
    [i for i in range(52) if i % 13 < 5],
    [i for i in range(52) if 4 <= i % 13 < 9],
]
"""Card indexes ``13 * suit + rank - 1`` (suits S H D C): uniform, then three meld-rich pools."""


# -- the environment ------------------------------------------------------------------------------


def ensure_venv(venv: Path, install: bool) -> Path:
    """The peers' interpreter, creating the environment and installing the pins if needed."""
    py = venv / "bin" / "python"
    stamp = venv / "peers.txt"
    if py.exists() and stamp.exists() and stamp.read_text().split() == list(PEERS):
        return py
    if not install:
        raise SystemExit(f"no peers environment at {venv} (run without --no-install)")
    venv.parent.mkdir(parents=True, exist_ok=True)
    if not py.exists():
        print(f"creating {venv}", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    print("installing " + " ".join(PEERS), flush=True)
    failed = []
    for pin in PEERS:  # one at a time: a peer that cannot be installed here leaves the others
        r = subprocess.run([str(py), "-m", "pip", "install", "-q", pin])
        if r.returncode:
            failed.append(pin)
    if failed:
        print("could not install: " + ", ".join(failed) + " (those comparisons are skipped)")
    else:
        stamp.write_text("\n".join(PEERS) + "\n")
    return py


# -- helpers --------------------------------------------------------------------------------------


def median_us(ns: list[int]) -> float:
    return statistics.median(ns) / 1e3


def ratio(ours: float, peer: float) -> str:
    return f"{ours / peer:.2f}" if peer else "n/a"


class Timed:
    """Interleaved timings of several callables on the same inputs.

    Each call is timed twice over: ``ns`` the first call on the input (the caches as the other
    peers' calls left them: "cold"), ``warm`` the best of ``WARM`` more calls right after it
    (less sensitive to a busy machine). Names in ``once`` are only timed cold.
    """

    WARM = 3

    def __init__(self, names: Sequence[str], once: Sequence[str] = ()) -> None:
        self.names = list(names)
        self.once = set(once)
        self.ns: dict[str, list[int]] = {n: [] for n in names}
        self.warm: dict[str, list[int]] = {n: [] for n in names}

    def run(self, calls: Sequence[tuple[str, Callable[[], Any]]]) -> dict[str, Any]:
        clock = time.perf_counter_ns
        out: dict[str, Any] = {}
        for name, fn in calls:
            t = clock()
            out[name] = fn()
            self.ns[name].append(clock() - t)
            if name not in self.once:
                best = 1 << 62
                for _ in range(self.WARM):
                    t = clock()
                    fn()
                    best = min(best, clock() - t)
                self.warm[name].append(best)
        return out


# -- gin ------------------------------------------------------------------------------------------


MELD_TASKS = ("melds", "melds_all", "melds_new", "melds_mask", "melds_index")


def read_all(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``fn`` (``best_arrangement`` or ``best_discard``), then a reading of the unmatched cards
    of its answer (laid out on first reading since session 10: what the judge reads too)."""

    def call(cards: Any) -> Any:
        got = fn(cards)
        _ = (got.arrangement if hasattr(got, "big_gin") else got).unmatched
        return got

    return call


AB_CALLS = {
    "mask": ("deadwood_mask", "mask"),
    "melds_mask": ("melds_mask", "mask"),
    "melds_index": ("index_melds", "ix"),
    "melds": ("best_arrangement", "cards"),
    "melds_all": ("best_arrangement+", "cards"),
    "discard": ("best_discard", "cards"),
    "discard_all": ("best_discard+", "cards"),
    "discard_index": ("index_discard", "ix"),
    "discard_melds": ("discard_melds_mask", "mask"),
    "discard_mask": ("discard_mask", "mask"),
}
"""``--ab``: the tasks timed on the other copy of the engine too (its function, its argument:
the hand mask, the card ints, or the judge's Card objects; ``+``: then the unmatched cards of
the answer read, :func:`read_all`)."""


def answer(value: Any) -> Any:
    """A call's answer in a comparable shape (a :class:`Discard` has no ``==``: its fields)."""
    if hasattr(value, "big_gin"):
        return (value.discard, value.arrangement, value.big_gin, value.eleven)
    return value


def load_ab(path: Path) -> Any:
    """Another copy of ``rules/search/deadwood.py`` (``--ab``: a version before a change), loaded
    as a module of its own, its tables built as ours are."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("deadwood_ab", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod._tables()
    mod._layout_tables()
    mod._index_tables()
    return mod


def gin(
    count: int,
    brute_every: int,
    seed: int,
    only_tasks: Sequence[str] = (),
    ab_path: Path | None = None,
) -> None:
    from rules import notation
    from rules.pieces import Card, Suit
    from rules.search import deadwood as dw

    suits = list(Suit)
    # OpenSpiel numbers cards 13 * suit + rank - 1 with suits s c d h; RLCard and ours S H D C
    os_suit = {0: 0, 1: 3, 2: 2, 3: 1}
    try:
        import pyspiel

        osu = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    except ImportError:
        osu = None
        print("OpenSpiel not installed: skipped")
    try:
        from rlcard.games.gin_rummy.utils import melding
        from rlcard.games.gin_rummy.utils import utils as rl_utils
    except ImportError:
        melding = rl_utils = None
        print("RLCard not installed: skipped")

    def rl_deadwood(hand: list[Any]) -> int:
        assert melding is not None and rl_utils is not None
        clusters = melding.get_best_meld_clusters(hand)
        if not clusters:
            return sum(rl_utils.get_deadwood_value(c) for c in hand)
        return int(rl_utils.get_deadwood_count(hand, clusters[0]))

    def rl_discard(hand: list[Any]) -> int:
        return min(rl_deadwood(hand[:i] + hand[i + 1 :]) for i in range(len(hand)))

    dw._tables()
    dw._layout_tables()
    dw._index_tables()
    ab = load_ab(ab_path) if ab_path is not None else None
    rng = random.Random(seed)
    print(
        f"\ngin: {count} hands per kind; median µs per call, ratio = ours / peer "
        "(below 1: ours faster)"
    )
    print(
        "cold: each call once, right after the other peers' calls on that hand; warm: best of "
        f"{Timed.WARM} more calls right after it"
    )
    header = f"{'task':<37} {'kind':<9} {'ours':>6} {'OpenSp':>6} {'ratio':>5}"
    header += f" {'ours w':>6} {'OpSp w':>6} {'ratio':>5}"
    header += f" {'RLCard':>7} {'ratio':>5}  disagreements (OpenSpiel, RLCard, brute force)"
    if ab is not None:
        print(
            f"--ab {ab_path}: 'A/B' = ours / that copy (cold, warm), called interleaved with the "
            "others on the same hands; then the count of answers that differ"
        )
        header += "   A/B c  A/B w  differ"
    print(header)
    for n in (10, 11):
        for kind, pools in (("uniform", POOLS[:1]), ("meld-rich", POOLS[1:])):
            hands = [rng.sample(pools[i % len(pools)], n) for i in range(count)]
            tasks: list[tuple[str, str]] = (
                [
                    ("least deadwood (mask)", "mask"),
                    ("least deadwood (cards)", "cards"),
                    ("with melds: card ints (like for like)", "melds_index"),
                    ("with melds: Card objects", "melds"),
                    ("with melds, unmatched read: Cards", "melds_all"),
                    ("with melds: new Card objects", "melds_new"),
                    ("with melds: masks", "melds_mask"),
                ]
                if n == 10
                else [
                    ("11: discard+melds: card ints (like)", "discard_index"),
                    ("11: discard+melds: Card objects", "discard"),
                    ("11: discard+melds+unmatched: Cards", "discard_all"),
                    ("11: discard+melds: new Cards", "discard_new"),
                    ("11: discard+melds: masks", "discard_melds"),
                    ("11: best discard (mask)", "discard_mask"),
                ]
            )
            if only_tasks:
                tasks = [t for t in tasks if t[1] in only_tasks]
            for label, task in tasks:
                timed = Timed(["ours", "os", "rl", "ab"], once=["rl"])
                ab_bad = 0
                bad = {"os": 0, "rl": 0, "brute": 0}
                shown = 0
                for k, ix in enumerate(hands):
                    new_cards = [Card(i % 13 + 1, suits[i // 13]) for i in ix]
                    # the judge's cards: each token read (once) to one object, as read_pieces does
                    tokens = [str(c) for c in new_cards]
                    cards = notation.known_pieces(tokens, "cards", None, False) or (
                        notation.parse_pieces(tokens, "cards", None, False)
                    )
                    mask = dw.encode(cards)
                    ints = [13 * os_suit[i // 13] + i % 13 for i in ix]
                    rl_hand = [rl_utils.card_from_card_id(i) for i in ix] if rl_utils else []
                    calls: list[tuple[str, Callable[[], Any]]] = []
                    if task == "mask":
                        calls.append(("ours", partial(dw.deadwood_mask, mask)))
                    elif task == "cards":
                        calls.append(("ours", partial(dw.hand_deadwood, cards)))
                    elif task == "melds":
                        calls.append(("ours", partial(dw.best_arrangement, cards)))
                    elif task == "melds_all":
                        calls.append(("ours", partial(read_all(dw.best_arrangement), cards)))
                    elif task == "discard_all":
                        calls.append(("ours", partial(read_all(dw.best_discard), cards)))
                    elif task == "melds_new":
                        calls.append(("ours", partial(dw.best_arrangement, new_cards)))
                    elif task == "discard":
                        calls.append(("ours", partial(dw.best_discard, cards)))
                    elif task == "discard_new":
                        calls.append(("ours", partial(dw.best_discard, new_cards)))
                    elif task == "melds_mask":
                        calls.append(("ours", partial(dw.melds_mask, mask)))
                    elif task == "melds_index":
                        calls.append(("ours", partial(dw.index_melds, ix)))
                    elif task == "discard_index":
                        calls.append(("ours", partial(dw.index_discard, ix)))
                    elif task == "discard_melds":
                        calls.append(("ours", partial(dw.discard_melds_mask, mask)))
                    else:
                        calls.append(("ours", partial(dw.discard_mask, mask)))
                    if osu is not None:
                        if task in MELD_TASKS:
                            calls.append(("os", partial(osu.best_meld_group, ints)))
                        else:
                            calls.append(("os", partial(osu.min_deadwood, ints)))
                    if melding is not None:
                        if task in MELD_TASKS:
                            calls.append(("rl", partial(melding.get_best_meld_clusters, rl_hand)))
                        elif n == 10:
                            calls.append(("rl", partial(rl_deadwood, rl_hand)))
                        elif k % 10 == 0:  # RLCard's 11-card answer is slow: one hand in ten
                            calls.append(("rl", partial(rl_discard, rl_hand)))
                    if ab is not None and task in AB_CALLS:
                        fname, argname = AB_CALLS[task]
                        arg = mask if argname == "mask" else ix if argname == "ix" else cards
                        fn = getattr(ab, fname.rstrip("+"))
                        if fname.endswith("+"):
                            fn = read_all(fn)
                        # ours and the copy swap places every other pair of hands
                        calls.insert(0 if k // 2 % 2 else 1, ("ab", partial(fn, arg)))
                    if k % 2:
                        calls.reverse()
                    got = timed.run(calls)
                    if "ab" in got and answer(got["ab"]) != answer(got["ours"]):
                        ab_bad += 1
                    ours_v = got["ours"]
                    if isinstance(ours_v, int):
                        ours_dw = ours_v
                    elif task in ("discard", "discard_all", "discard_new"):
                        ours_dw = ours_v.arrangement.deadwood
                    else:  # an Arrangement or a tuple of masks: the deadwood comes first
                        ours_dw = ours_v[0]
                    if "os" in got:
                        if task in MELD_TASKS:
                            melded = {c for m in got["os"] for c in m}
                            os_dw = sum(min(i % 13 + 1, 10) for i in ints if i not in melded)
                        else:
                            os_dw = got["os"]
                        if os_dw != ours_dw:
                            bad["os"] += 1
                    if "rl" in got:
                        rl_v = got["rl"]
                        if task in MELD_TASKS:
                            rl_v = (
                                rl_utils.get_deadwood_count(rl_hand, rl_v[0])
                                if rl_v
                                else sum(rl_utils.get_deadwood_value(c) for c in rl_hand)
                            )
                        if rl_v != ours_dw:
                            bad["rl"] += 1
                    if k % brute_every == 0:
                        want = dw.brute_force_deadwood(cards, 1 if n == 11 else 0)
                        if want != ours_dw:
                            bad["brute"] += 1
                            if shown < 3:
                                shown += 1
                                print("  ours differs from brute force:", *map(str, cards))
                ours = median_us(timed.ns["ours"])
                osm = median_us(timed.ns["os"]) if timed.ns["os"] else 0.0
                ours_w = median_us(timed.warm["ours"])
                osw = median_us(timed.warm["os"]) if timed.warm["os"] else 0.0
                rlm = median_us(timed.ns["rl"]) if timed.ns["rl"] else 0.0
                line = (
                    f"{label:<37} {kind:<9} {ours:6.2f} {osm:6.2f} {ratio(ours, osm):>5} "
                    f"{ours_w:6.2f} {osw:6.2f} {ratio(ours_w, osw):>5} "
                    f"{rlm:7.2f} {ratio(ours, rlm):>5}  {bad['os']}, {bad['rl']}, {bad['brute']}"
                )
                if timed.ns["ab"]:
                    abc = median_us(timed.ns["ab"])
                    abw = median_us(timed.warm["ab"])
                    line += f"   {ratio(ours, abc):>5}  {ratio(ours_w, abw):>5}  {ab_bad}"
                print(line)


# -- tile heaps -----------------------------------------------------------------------------------


def heaps(count: int, seed: int, sizes: Sequence[int]) -> None:
    try:
        import rummikub_solver as rs
    except ImportError:
        print("\nrummikub-solver not installed: skipped")
        return
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_split import MAKERS

    from rules.pieces import JOKER
    from rules.search.split import find_split
    from rules.variant import meld_rules

    rules = meld_rules("tile_rummy")
    ruleset = rs.RuleSet()  # 13 numbers, 4 colours, 2 copies, 2 jokers, runs/groups of ≥3

    def solver_split(heap: list[Any]) -> tuple[bool, int]:
        state = ruleset.new_game()
        state.add_table(*[53 if p is JOKER else 13 * p.family_index + p.number for p in heap])
        got = ruleset.arrange_table(state)
        if got is None:
            return False, 0
        return got.free_jokers == 0, got.free_jokers

    warm = ruleset.new_game()
    warm.add_table(1, 2, 3)
    ruleset.arrange_table(warm)
    print(
        f"\nTile Rummy heaps: {count} per size and kind; median and worst ms, ratio ours / solver"
    )
    print(
        f"{'size':>4} {'kind':<6} {'ours med':>9} {'max':>8} {'solver med':>11} {'max':>8} "
        f"{'ratio':>6}  disagreements  free jokers"
    )
    for size in sizes:
        for kind, make in MAKERS.items():
            rng = random.Random(f"{seed}-peers-{size}-{kind}")
            ours_t: list[float] = []
            peer_t: list[float] = []
            bad = free = 0
            for k in range(count):
                jokers = 2 if size == 106 else rng.randint(0, 2)
                heap = make(rng, rules, size, jokers)
                order = [0, 1] if k % 2 == 0 else [1, 0]
                res: dict[int, bool] = {}
                for who in order:
                    t = time.perf_counter()
                    if who == 0:
                        res[0] = find_split(heap, rules) is not None
                        ours_t.append((time.perf_counter() - t) * 1e3)
                    else:
                        res[1], left = solver_split(heap)
                        peer_t.append((time.perf_counter() - t) * 1e3)
                if left:  # the numbered tiles split; where the jokers go is not decided
                    free += 1
                elif res[0] != res[1]:
                    bad += 1
                    if bad <= 2:
                        print("  disagreement:", " ".join(str(p) for p in heap))
            om, pm = statistics.median(ours_t), statistics.median(peer_t)
            print(
                f"{size:>4} {kind:<6} {om:9.2f} {max(ours_t):8.2f} {pm:11.2f} {max(peer_t):8.2f} "
                f"{ratio(om, pm):>6}  {bad:>13}  {free:>11}"
            )


# -- main -----------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--quick", action="store_true", help="fewer hands and heaps")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--venv", type=Path, default=DEFAULT_VENV)
    ap.add_argument("--no-install", action="store_true", help="never create or install")
    ap.add_argument("--only", choices=("gin", "heaps"), help="run one part")
    ap.add_argument("--tasks", default="", help="gin: only these tasks (comma-separated ids)")
    ap.add_argument(
        "--ab",
        type=Path,
        help="gin: also time this copy of rules/search/deadwood.py (e.g. the version before a "
        "change), interleaved on the same hands, and print ours / it",
    )
    args = ap.parse_args(argv)
    if os.environ.get(INSIDE) != "1":
        py = ensure_venv(args.venv, not args.no_install)
        env = dict(os.environ, **{INSIDE: "1"}, PYTHONPATH=str(ROOT))
        cmd = [
            str(py),
            str(Path(__file__).resolve()),
            *(argv if argv is not None else sys.argv[1:]),
        ]
        return subprocess.run(cmd, env=env, cwd=ROOT).returncode
    sys.path.insert(0, str(ROOT))
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, seed {args.seed}; peers: "
        + " ".join(PEERS)
    )
    if args.only in (None, "gin"):
        gin(
            600 if args.quick else 3000,
            20 if args.quick else 10,
            args.seed,
            [t for t in args.tasks.split(",") if t],
            args.ab.resolve() if args.ab is not None else None,
        )
    if args.only in (None, "heaps"):
        heaps(
            4 if args.quick else 20,
            args.seed,
            (14, 40, 60) if args.quick else (14, 22, 40, 60, 90, 106),
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
