"""Exactness A/B for gin speed work: every public call of ``rules.search.deadwood`` (and
``gin.analyse_hand``) of this tree against another checkout of the project (an older commit),
on random hands: uniform and meld-rich, 10 and 11 cards, other counts and a card given twice
mixed in. Each engine gets its own Card objects (the cached slots), and every call runs on new
and on cached cards. Prints the number of comparisons and differences (the first ten shown);
exits 1 on any difference.

    git worktree add /tmp/gin-old HEAD~1
    .venv/bin/python benchmarks/gin_ab.py /tmp/gin-old            # 30,000 hands, seed 9
    .venv/bin/python benchmarks/gin_ab.py /tmp/gin-old 3000 7      # hands, seed
"""

import dataclasses
import importlib.util
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
OLD = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/tmp/gin-old")
from rules.pieces import Card, Suit  # noqa: E402
from rules.search import deadwood as new  # noqa: E402
from rules.variants import gin as gin_new  # noqa: E402

spec = importlib.util.spec_from_file_location("deadwood_old", OLD / "rules/search/deadwood.py")
old = importlib.util.module_from_spec(spec)
spec.loader.exec_module(old)

SUITS = list(Suit)
POOLS = [
    list(range(52)),
    [i for i in range(52) if i % 13 < 7 and i // 13 < 3],
    [i for i in range(52) if i % 13 < 5],
    [i for i in range(52) if 4 <= i % 13 < 9],
    [i for i in range(52) if i % 13 < 4 or i % 13 > 10],
    [i for i in range(52) if i % 13 in (0, 1, 2, 3, 6, 7, 8)],
]


def mk(ix):
    return [Card(i % 13 + 1, SUITS[i // 13]) for i in ix]


def mask(ix):
    return sum(1 << (16 * (i // 13) + i % 13) for i in ix)


def call(f, *a):
    try:
        v = f(*a)
    except Exception as e:
        return ("raise", type(e).__name__, str(e))
    if hasattr(v, "big_gin"):
        return (
            "Discard",
            v.discard,
            tuple(v.arrangement),
            type(v.arrangement).__name__,
            v.big_gin,
            tuple(v.eleven),
            repr(v),
        )
    if hasattr(v, "_fields"):  # a named tuple, or an Arrangement (a named triple, no tuple)
        return (type(v).__name__, tuple(v), repr(v))
    if isinstance(v, list):
        return [tuple(x) if isinstance(x, tuple) or hasattr(x, "_fields") else x for x in v]
    return v


gspec = importlib.util.spec_from_file_location("gin_old", OLD / "rules/variants/gin.py")
gin_old = importlib.util.module_from_spec(gspec)
sys.modules["gin_old"] = gin_old
gspec.loader.exec_module(gin_old)


def analyse_full(mod, cards):
    try:
        h = mod.analyse_hand(cards)
    except Exception as e:
        return ("raise", type(e).__name__, str(e), getattr(e, "code", None))
    return (
        tuple(getattr(h, f.name) for f in dataclasses.fields(h)),
        h.to_json(),
        repr(h),
        hash(h),
        h.arrangement,
    )


def analyse_old(cards):
    """analyse_hand's fields as the session-start engine gives them."""
    n = len(cards)
    if n == 10:
        a = old.best_arrangement(cards)
        return (
            a.deadwood,
            a.melds,
            a.unmatched,
            None,
            False,
            None,
            old.value_mask(old.encode(cards)),
        )
    d = old.best_discard(cards)
    return (
        d.arrangement.deadwood,
        d.arrangement.melds,
        d.arrangement.unmatched,
        d.discard,
        d.big_gin,
        tuple(d.eleven) if d.big_gin else None,
        old.value_mask(old.encode(cards)),
    )


def analyse_new(cards):
    try:
        h = gin_new.analyse_hand(cards)
    except Exception as e:
        return ("raise", type(e).__name__)
    return (
        h.deadwood,
        h.melds,
        h.unmatched,
        h.discard,
        h.big_gin,
        tuple(h.eleven) if h.eleven else None,
        h.hand_value,
    )


def main(count):
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 9)
    comps = diffs = 0
    shown = 0
    t0 = time.time()

    def check(name, a, b, info):
        nonlocal comps, diffs, shown
        comps += 1
        if a != b:
            diffs += 1
            if shown < 10:
                shown += 1
                print("DIFF", name, info, "\n  old", a, "\n  new", b)

    for k in range(count):
        n = 10 if k % 2 == 0 else 11
        if k % 50 == 49:
            n = rng.randint(0, 12)
        pool = POOLS[0] if k % 4 < 2 else POOLS[1 + (k // 4) % (len(POOLS) - 1)]
        ix = rng.sample(pool, min(n, len(pool)))
        if k % 97 == 0 and ix:
            ix = ix + [ix[0]]  # a card twice
        info = (n, ix)
        co, cn = mk(ix), mk(ix)  # each engine its own card objects
        # twice on the same objects: first (packing) call and the cached one
        for _rep in range(2):
            check(
                "best_arrangement",
                call(old.best_arrangement, co),
                call(new.best_arrangement, cn),
                info,
            )
            check("best_discard", call(old.best_discard, co), call(new.best_discard, cn), info)
            check("hand_deadwood", call(old.hand_deadwood, co), call(new.hand_deadwood, cn), info)
        check(
            "best_arrangement(tuple)",
            call(old.best_arrangement, tuple(co)),
            call(new.best_arrangement, tuple(cn)),
            info,
        )
        check(
            "best_arrangement(iter)",
            call(old.best_arrangement, iter(co)),
            call(new.best_arrangement, iter(cn)),
            info,
        )
        check(
            "best_discard(iter)",
            call(old.best_discard, iter(co)),
            call(new.best_discard, iter(cn)),
            info,
        )
        check(
            "best_arrangements",
            call(old.best_arrangements, co),
            call(new.best_arrangements, cn),
            info,
        )
        check("best_discards", call(old.best_discards, co), call(new.best_discards, cn), info)
        check("encode", call(old.encode, co), call(new.encode, cn), info)
        h = mask(ix)
        for f in (
            "deadwood_mask",
            "melds_mask",
            "arrangements_mask",
            "discard_mask",
            "discards_mask",
            "discard_melds_mask",
            "arrangement_mask",
            "discard_of_mask",
            "decode",
            "value_mask",
        ):
            check(f, call(getattr(old, f), h), call(getattr(new, f), h), info)
        check("index_melds", call(old.index_melds, ix), call(new.index_melds, ix), info)
        check("index_discard", call(old.index_discard, ix), call(new.index_discard, ix), info)
        check("analyse_hand full", analyse_full(gin_old, co), analyse_full(gin_new, cn), info)
        if n in (10, 11) and len(set(ix)) == len(ix):
            check("analyse_hand", analyse_old(co), analyse_new(cn), info)
            if k % 10 == 0:  # lay-offs onto another hand's melds
                other = rng.sample([i for i in range(52) if i not in ix], 10)
                km_o = old.best_arrangement(mk(other)).melds
                km_n = new.best_arrangement(mk(other)).melds
                check(
                    "best_layoffs",
                    call(old.best_layoffs, co[:10], km_o),
                    call(new.best_layoffs, cn[:10], km_n),
                    info,
                )
    print(f"{count} hands, {comps} comparisons, {diffs} differences, {time.time() - t0:.0f} s")
    return diffs


if __name__ == "__main__":
    sys.exit(1 if main(int(sys.argv[2]) if len(sys.argv) > 2 else 30000) else 0)
