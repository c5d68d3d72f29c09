"""Gin Rummy search and judge figures (prints them; no pass/fail).

Measures, on seeded random hands:

- least deadwood of 10,000 10-card hands and best discard of 2,000 11-card hands: median and p95
  µs per hand, for the mask-level search (``deadwood_mask`` / ``discard_mask`` on a hand mask),
  the mask-level calls with the melds as masks (``melds_mask`` / ``discard_melds_mask``), the
  card-index calls (``index_melds`` / ``index_discard``: card indexes in, melds as tuples of
  card indexes out, the shape OpenSpiel's binding takes and gives), the Card-level calls with
  melds (``best_arrangement`` / ``best_discard``: their unmatched cards are laid out on first
  reading, not timed here) and ``rules.variants.gin.analyse_hand`` (what the judge's ``hand``
  check and the app call: every field of the Card-level answer through ``laid_out``, the hand's
  value and the knock limit); side by side with OpenSpiel and RLCard: ``benchmarks/peers.py``;
- agreement with plain enumeration of disjoint melds (``brute_force_deadwood``) over 100,000
  hands, 10- and 11-card, half uniform and half from meld-rich pools, of the mask-level and the
  card-index calls (deadwood, discard, and melds that are gin melds of the hand's cards whose
  leftover is the deadwood): the disagreement count;
- ``python -m rules judge``: start-up time to the first answered line (ms) and throughput
  (verdicts/s) on piped gin ``hand`` requests;
- module import and first-use table build (ms).

Usage: ``.venv/bin/python benchmarks/bench_gin.py [--quick] [--seed N]`` from the project root
(``--quick``: 5,000 hands for the agreement check, fewer judge requests).

``--ab OLD_CHECKOUT`` (a tree made with ``git worktree add /tmp/gin-old HEAD`` before a change)
times instead, interleaved on the same hands in one process, ``analyse_hand`` and the Card-level
call (``best_arrangement`` / ``best_discard``) of this tree and of that checkout (its
``rules/variants/gin.py`` on its own ``rules/search/deadwood.py``), each engine on its own card
objects (their packed values cached on them first, with no call on the hand before the cold
one), cold (the first call after other work) and warm (best of 5): the median per-hand ratio
this / that (below 1: this tree faster). On a busy machine that ratio is the before/after figure
to trust, not two runs' medians.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

t0 = time.perf_counter()
from rules.search import deadwood as dw  # noqa: E402

IMPORT_MS = (time.perf_counter() - t0) * 1e3
from rules.variants.gin import analyse_hand  # noqa: E402

POOLS = [
    list(range(52)),
    [i for i in range(52) if i % 13 < 7 and i // 13 < 3],
    [i for i in range(52) if i % 13 < 5],
    [i for i in range(52) if 4 <= i % 13 < 9],
]


def mask_of(indexes: list[int]) -> int:
    return sum(1 << (16 * (i // 13) + i % 13) for i in indexes)


def stats(ns: list[int]) -> str:
    ns = sorted(ns)
    med = ns[len(ns) // 2] / 1e3
    p95 = ns[int(len(ns) * 0.95)] / 1e3
    return f"median {med:7.2f} µs   p95 {p95:7.2f} µs"


def time_search(rng: random.Random) -> None:
    t = time.perf_counter()
    dw._tables()
    build_ms = (time.perf_counter() - t) * 1e3
    t = time.perf_counter()
    dw._build_discard_tables()  # the best-discard tables (and the drop table they come from)
    discard_ms = (time.perf_counter() - t) * 1e3
    dw._layout_tables()
    t = time.perf_counter()
    dw._index_tables()
    index_ms = (time.perf_counter() - t) * 1e3
    print(
        f"module import {IMPORT_MS:.1f} ms (no table is built at import); first use: run table "
        f"{build_ms:.2f} ms, best-discard tables {discard_ms:.2f} ms, card-index tables "
        f"{index_ms:.2f} ms"
    )
    clock = time.perf_counter_ns
    for n, count in ((10, 10_000), (11, 2_000)):
        uniform_ix = [rng.sample(range(52), n) for _ in range(count)]
        dense_ix = [rng.sample(POOLS[1 + i % 3], n) for i in range(count)]
        masks = [mask_of(x) for x in uniform_ix]
        dense = [mask_of(x) for x in dense_ix]
        index_of = {id(h): x for h, x in zip(masks + dense, uniform_ix + dense_ix, strict=True)}
        fn = dw.deadwood_mask if n == 10 else dw.discard_mask
        melds_fn = dw.melds_mask if n == 10 else dw.discard_melds_mask
        card_fn = dw.best_arrangement if n == 10 else dw.best_discard
        index_fn = dw.index_melds if n == 10 else dw.index_discard
        for label, hands in (("uniform", masks), ("meld-rich", dense)):
            ts = []
            for h in hands:
                a = clock()
                fn(h)
                ts.append(clock() - a)
            mts = []
            for h in hands:
                a = clock()
                melds_fn(h)
                mts.append(clock() - a)
            its = []
            for x in [index_of[id(h)] for h in hands]:
                a = clock()
                index_fn(x)
                its.append(clock() - a)
            card_hands = [dw.decode(h) for h in hands]
            cts = []
            for c in card_hands:
                a = clock()
                card_fn(c)
                cts.append(clock() - a)
            ats = []
            for c in card_hands:
                a = clock()
                analyse_hand(c)
                ats.append(clock() - a)
            print(
                f"{n}-card {label:9s} x{count}: search {stats(ts)} | with melds as masks "
                f"{stats(mts)} | card indexes in, melds out {stats(its)} | with Cards+melds "
                f"{stats(cts)} | analyse_hand {stats(ats)}"
            )


def melds_ok(idx: list[int], melds: tuple[tuple[int, ...], ...], deadwood: int) -> bool:
    """``melds`` are disjoint gin melds of the cards ``idx`` leaving ``deadwood`` points."""
    laid = [i for m in melds for i in m]
    if len(set(laid)) != len(laid) or not set(laid) <= set(idx):
        return False
    cards = [dw.decode(mask_of([i]))[0] for i in idx]
    by_index = dict(zip(idx, cards, strict=True))
    if not all(dw.meld_kind([by_index[i] for i in m]) for m in melds):
        return False
    return sum(min(i % 13 + 1, 10) for i in idx if i not in set(laid)) == deadwood


def agreement(rng: random.Random, total: int) -> None:
    bad = 0
    counts = {10: 0, 11: 0}
    t = time.perf_counter()
    for i in range(total):
        n = 11 if i % 3 == 2 else 10
        pool = POOLS[0] if i % 2 == 0 else POOLS[1 + (i // 2) % 3]
        h = mask_of(rng.sample(pool, n))
        cards = dw.decode(h)
        counts[n] += 1
        idx = [13 * (c.suit.index) + c.rank - 1 for c in cards]
        rng.shuffle(idx)
        if n == 10:
            want = dw.brute_force_deadwood(cards)
            got, melds = dw.index_melds(idx)
            ok = dw.deadwood_mask(h) == want and got == want and melds_ok(idx, melds, got)
        else:
            best, bit, full = dw.discard_mask(h)
            want = dw.brute_force_deadwood(cards, 1)
            got, discard, melds, full_i = dw.index_discard(idx)
            kept = [i for i in idx if i != discard]
            ok = (
                best == want
                and full == dw.brute_force_deadwood(cards)
                and dw.deadwood_mask(h ^ bit) == best
                and (got, full_i) == (best, full)
                and len(kept) == 10
                and melds_ok(kept, melds, got)
            )
        if not ok:
            bad += 1
            if bad <= 5:
                print("  disagreement:", " ".join(str(c) for c in cards))
    secs = time.perf_counter() - t
    print(
        f"brute-force agreement: {total} hands ({counts[10]} × 10, {counts[11]} × 11 cards), "
        f"disagreements: {bad}  ({secs:.1f} s)"
    )


def judge(rng: random.Random, requests: int) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "rules", "judge"]
    line = json.dumps({"check": "hand", "variant": "gin", "hand": "AS 2S 3S 7H 7D 7C 9C TC JC 4D"})
    starts = []
    for _ in range(7):
        a = time.perf_counter()
        p = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT
        )
        assert p.stdin is not None and p.stdout is not None
        p.stdin.write(line + "\n")
        p.stdin.flush()
        got = p.stdout.readline()
        starts.append((time.perf_counter() - a) * 1e3)
        p.stdin.close()
        p.wait()
        assert json.loads(got)["deadwood"] == 4
    print(
        f"judge start-up to first answered line: median {statistics.median(starts):.0f} ms "
        f"(min {min(starts):.0f}, max {max(starts):.0f}, 7 runs)"
    )
    lines = []
    for i in range(requests):
        n = 11 if i % 5 == 4 else 10
        idx = rng.sample(POOLS[i % 4], n)
        hand = [str(c) for c in dw.decode(mask_of(idx))]
        lines.append(json.dumps({"check": "hand", "variant": "gin", "hand": hand}))
    data = "\n".join(lines) + "\n"
    a = time.perf_counter()
    out = subprocess.run(cmd, input=data, capture_output=True, text=True, env=env, cwd=ROOT)
    secs = time.perf_counter() - a
    answers = out.stdout.splitlines()
    ok = sum(1 for x in answers if json.loads(x).get("ok"))
    print(
        f"judge throughput: {len(answers)} hand requests (1 in 5 with 11 cards) in {secs:.2f} s "
        f"= {len(answers) / secs:,.0f} verdicts/s ({ok} ok), start-up included"
    )


def _old_engine(old: Path) -> tuple[Any, Any]:
    """The ``deadwood`` and ``gin`` modules of checkout ``old`` (its gin on its own deadwood)."""
    spec = importlib.util.spec_from_file_location(
        "deadwood_ab", old / "rules" / "search" / "deadwood.py"
    )
    if spec is None or spec.loader is None:
        raise SystemExit(f"no rules/search/deadwood.py under {old}")
    dw_old = importlib.util.module_from_spec(spec)
    sys.modules["deadwood_ab"] = dw_old
    spec.loader.exec_module(dw_old)
    src = (old / "rules" / "variants" / "gin.py").read_text()
    src = src.replace("from rules.search.deadwood import", "from deadwood_ab import")
    gin_old = types.ModuleType("gin_ab")
    sys.modules["gin_ab"] = gin_old
    exec(compile(src, str(old / "rules" / "variants" / "gin.py"), "exec"), gin_old.__dict__)
    return dw_old, gin_old


def ab_timing(rng: random.Random, old: Path, count: int) -> None:
    """``--ab``: analyse_hand and the Card-level call, this tree / checkout ``old``."""
    from rules import notation
    from rules.pieces import Card, Suit
    from rules.variants import gin

    dw_old, gin_old = _old_engine(old)
    for mod in (dw, dw_old):
        mod._card_level_tables()
    suits = list(Suit)
    junk = [[i, str(i), {i: i}] for i in range(400)]

    def other_work() -> int:  # between calls: pushes the engine out of the processor's caches
        total = 0
        for a, b, c in junk:
            total += a + len(b) + len(c)
        return total

    clock = time.perf_counter_ns
    print(
        f"--ab {old}: this tree / that checkout, median per-hand ratio (below 1: this tree "
        "faster); cold: first call after other work, warm: best of 5; medians µs this | that"
    )
    for n in (10, 11):
        for kind, pools in (("uniform", POOLS[:1]), ("meld-rich", POOLS[1:])):
            res: dict[str, list[tuple[list[int], list[int]]]] = {}
            for i in range(count):
                ix = rng.sample(pools[i % len(pools)], n)
                tokens = [str(Card(j % 13 + 1, suits[j // 13])) for j in ix]
                parsed = notation.parse_pieces(tokens, "cards", None, False)
                mine = [Card(c.rank, c.suit) for c in parsed]  # each engine its own objects
                theirs = [Card(c.rank, c.suit) for c in parsed]
                f_mine = dw.best_arrangement if n == 10 else dw.best_discard
                f_theirs = dw_old.best_arrangement if n == 10 else dw_old.best_discard
                # the packed values cached on the cards, as the judge's are (no call on the
                # hand before the cold one: it would leave its layout in the caches)
                dw._pack_new(mine)
                getattr(dw_old, "_pack_new", f_theirs)(theirs)  # an older engine: a call
                for name, a, b in (
                    ("analyse_hand", gin.analyse_hand, gin_old.analyse_hand),
                    (f_mine.__name__, f_mine, f_theirs),
                ):
                    calls = [(0, a, mine), (1, b, theirs)]
                    if i % 2:
                        calls.reverse()
                    cold = [0, 0]
                    warm = [0, 0]
                    for who, f, arg in calls:
                        other_work()
                        t = clock()
                        f(arg)
                        cold[who] = clock() - t
                        best = 1 << 62
                        for _ in range(5):
                            t = clock()
                            f(arg)
                            best = min(best, clock() - t)
                        warm[who] = best
                    res.setdefault(name, []).append((cold, warm))
            for name, got in res.items():
                parts = []
                for label, k in (("cold", 0), ("warm", 1)):
                    r = statistics.median(x[k][0] / x[k][1] for x in got)
                    this = statistics.median(x[k][0] for x in got) / 1e3
                    that = statistics.median(x[k][1] for x in got) / 1e3
                    parts.append(f"{label} {r:.2f} ({this:.2f} | {that:.2f})")
                print(f"{n}-card {kind:9s} {name:16s} " + "  ".join(parts))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--quick", action="store_true", help="fewer hands for the agreement check")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--ab", type=Path, help="time against this older checkout (see above)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, seed {args.seed}")
    if args.ab is not None:
        ab_timing(rng, args.ab.resolve(), 500 if args.quick else 1500)
        return
    time_search(rng)
    agreement(rng, 5_000 if args.quick else 100_000)
    judge(rng, 2_000 if args.quick else 20_000)


if __name__ == "__main__":
    main()
