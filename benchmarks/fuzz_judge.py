"""Fuzz run of the judge (``python -m rules judge``; JUDGE.md; issue 6 part 5 "Hostile input").

Generates request lines — random bytes, random JSON values, request-shaped objects for every
check × variant with random and broken fields, mutations (byte flips, truncation, field
deletion/duplication, wrong types, huge numbers, unicode, ``\\r``, NUL, BOM, invalid UTF-8) of
the valid example lines of ``../shared/judge_examples.jsonl``, and a few big requests (heaps of
106 tiles with two jokers, 320-token melds, 11-card gin hands, five-player Carousel rounds,
near-1 MB lines, deep nesting) — and answers every one of them twice:

1. in this process, line by line with :func:`rules.judge.answer_line`, timing each answer;
2. through a real ``python -m rules judge`` process, all lines in one stream (``--no-stream``
   skips this), checking one JSON answer line per input line, in order, exit status 0 and an
   empty standard error.

Prints lines/s, the count of each error code (and of ``ok: true`` answers), the slowest line in
milliseconds (CPU time of this process, which a busy machine does not inflate; the slowest
wall-clock time too), and the crashes: ``internal_error`` answers, answers that break the protocol
(no boolean ``ok``, a non-snake_case ``error``, no one-line ``message``, ``valid: false``
without a snake_case ``reason``, an answer that is not strict JSON or cannot be written as
UTF-8), a traceback, a non-zero exit status or a wrong line count from the judge process.
0 crashes are expected; the exit status is 1 when there is any, and one input per kind of crash
is printed (``--dump FILE`` writes every crashing line, one JSON object per line:
``{"line": …, "got": …}``, the line decoded as latin-1). When the judge process dies, the
line it died on is reported and a new process answers the rest of the stream.

    .venv/bin/python benchmarks/fuzz_judge.py                   # 100,000 lines (a few minutes)
    .venv/bin/python benchmarks/fuzz_judge.py --lines 20000     # shorter
    .venv/bin/python benchmarks/fuzz_judge.py --lines 1000000 --seed 7 --no-stream   # longer

The longer run: raise ``--lines`` (a million lines takes about ten times the default run) and
vary ``--seed`` between runs; each seed gives a different, reproducible set of lines.
``tests/test_judge_fuzz.py`` uses the same generator (:func:`generate_lines`) for its CI-sized
stream run.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules.judge import answer_line, dumps  # noqa: E402
from rules.variant import BY_NAME, CHECK_NAMES, REGISTRY, variants_answering  # noqa: E402

EXAMPLES = ROOT.parent / "shared" / "judge_examples.jsonl"
SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")

VARIANTS: tuple[str, ...] = tuple(BY_NAME)
CHECKS: tuple[str, ...] = CHECK_NAMES
TILE_VARIANTS: tuple[str, ...] = tuple(v.name for v in REGISTRY if v.material == "tiles")
COLOURS = "RBKY"
SUITS = "SHDC"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
PRESETS: dict[str, tuple[str, ...]] = {v.name: tuple(v.presets) for v in REGISTRY}
OPTION_NAMES = {
    "rummy101": ("threshold", "pairs_needed", "threshold_mode"),
    "tile_rummy": (
        "initial_meld",
        "joker_rule",
        "manipulate_on_initial_turn",
        "turn_time",
        "joker_penalty",
        "winner_collects",
        "target",
        "games",
    ),
    "my_rummy": ("initial_meld", "joker_rule", "turn_time", "winner_collects", "target"),
    "gin": (
        "knock_max",
        "undercut_on_tie",
        "undercut_bonus",
        "gin_bonus",
        "big_gin_bonus",
        "box_bonus",
        "target",
        "game_bonus",
        "shutout",
        "shutout_bonus",
        "layoffs",
        "mode",
    ),
    "carousel": (
        "knock_max",
        "joker_value",
        "undercut_bonus",
        "going_out_bonus",
        "target",
        "game_bonus",
        "round_bonus",
        "round_bonus_all",
    ),
}
OPTION_VALUES: tuple[Any, ...] = (
    0,
    1,
    5,
    9,
    10,
    30,
    50,
    101,
    -1,
    10**6,
    True,
    False,
    None,
    "fixed",
    "rising",
    "free",
    "match",
    "match_from_rack",
    "no_split_with_joker",
    "freed_joker_new_meld",
    "my_rummy",
    "bonus",
    "double",
    "none",
    "duel",
    "solo",
    4,
    2,
    3,
)
NAMES = ("A", "B", "Ala", "Ola", "Ela", "Zoë", "李", "🂡", "", " ", "joker", "a" * 40)

# Odd strings: unicode, control characters, lone surrogates (as JSON escapes), long text.
ODD_STRINGS: tuple[str, ...] = (
    "",
    " ",
    "R",
    "R0",
    "R14",
    "R-1",
    "R1.5",
    "r13",
    "y3",
    "*",
    "J",
    "JK",
    "jk",
    "JKR",
    "10",
    "1H",
    "TC",
    "tc",
    "A♠",
    "10♥",
    "1O H",
    "\u00a0R1",
    "R１",
    "Ｒ1",
    "R\u0661",
    "R1\u200b",
    "\u2028",
    "\u0085",
    "\ufeff",
    "\x00",
    "\r",
    "\t",
    "\ud800",
    "\udfff",
    "\ud83d\ude00",
    "𝟏H",
    "ǅ",
    "İ",
    "ß",
    "R" * 17,
    "R1 R2 R3",
    "R1,R2;R3",
    "é" * 100,
    "x" * 5000,
    "NaN",
    "Infinity",
    "null",
    "__proto__",
    "constructor",
    "%s%n",
    "{}",
    "[]",
)
HUGE_INTS: tuple[Any, ...] = (
    0,
    -0,
    1,
    -1,
    2**31,
    -(2**31),
    2**63,
    -(2**63),
    10**18,
    10**100,
    -(10**100),
    10**1000,
    1e308,
    -1e308,
    1.5,
    0.0,
    -0.0,
    float("nan"),
    float("inf"),
    float("-inf"),
    True,
    False,
)


# --------------------------------------------------------------------------------------------
# Pieces


def tile_tokens() -> list[str]:
    """The 106 tiles as tokens: two of each colour × 1–13, two jokers."""
    return [f"{c}{n}" for c in COLOURS for n in range(1, 14) for _ in range(2)] + ["JK", "JK"]


def card_tokens(decks: int, jokers: int) -> list[str]:
    """``decks`` 52-card decks plus ``jokers`` jokers, as tokens."""
    return [f"{r}{s}" for s in SUITS for r in RANKS for _ in range(decks)] + ["JK"] * jokers


def full_set(variant: str, players: int | None = None) -> list[str]:
    """Every piece of the variant's set (Carousel: one deck + joker for 2 players, else two)."""
    if variant in TILE_VARIANTS:
        return tile_tokens()
    if variant == "gin":
        return card_tokens(1, 0)
    if players == 2:
        return card_tokens(1, 1)
    return card_tokens(2, 2)


def token(rng: random.Random, variant: str) -> str:
    """One random piece token of ``variant``, sometimes in an alternative spelling."""
    if variant in TILE_VARIANTS:
        if rng.random() < 0.05:
            return rng.choice(("JK", "*", "J", "jk"))
        c = rng.choice(COLOURS)
        n = rng.randint(1, 13)
        return rng.choice((f"{c}{n}", f"{c}{n}", f"{c.lower()}{n}", f"{n}{c}"))
    if variant == "carousel" and rng.random() < 0.05:
        return "JK"
    r = rng.choice(RANKS)
    s = rng.choice(SUITS)
    if r == "10" and rng.random() < 0.3:
        r = "T"
    if rng.random() < 0.1:
        s = "♠♥♦♣"[SUITS.index(s)]
    return f"{r}{s}"


def draw(rng: random.Random, variant: str, k: int, players: int | None = None) -> list[str]:
    """``k`` pieces drawn without replacement from the set (so copy limits hold)."""
    deck = full_set(variant, players)
    return rng.sample(deck, min(k, len(deck)))


def meld(rng: random.Random, variant: str) -> list[str]:
    """A random meld that is often valid: a run, a group, (Rummy 101) a pair, or junk."""
    tiles = variant in TILE_VARIANTS
    fam = COLOURS if tiles else SUITS
    roll = rng.random()
    if roll < 0.4:
        length = rng.randint(3, 6)
        top = 14 if variant == "carousel" else 13
        start = rng.randint(1, max(1, top - length + 1))
        f = rng.choice(fam)
        out = []
        for n in range(start, start + length):
            n = 1 if n == 14 else n
            out.append(f"{f}{n}" if tiles else f"{RANKS[n - 1]}{f}")
    elif roll < 0.75:
        n = rng.randint(1, 13)
        out = [
            f"{f}{n}" if tiles else f"{RANKS[n - 1]}{f}" for f in rng.sample(fam, rng.randint(3, 4))
        ]
    elif roll < 0.85 and variant == "rummy101":
        t = rng.choice(tile_tokens()[:-2])
        out = [t, t]
    else:
        out = [token(rng, variant) for _ in range(rng.randint(0, 6))]
    if variant != "gin" and out and rng.random() < 0.35:
        for _ in range(rng.randint(1, 2)):
            out[rng.randrange(len(out))] = "JK"
    if rng.random() < 0.2:
        rng.shuffle(out)
    return out


def pieces_field(rng: random.Random, pieces: list[str]) -> list[str] | str:
    """A list of tokens, sometimes given as one string instead (the protocol allows both)."""
    if rng.random() < 0.15:
        return rng.choice((" ", ",", ", ", ";", "  ")).join(pieces)
    return pieces


# --------------------------------------------------------------------------------------------
# Request-shaped objects for every check × variant


def options(rng: random.Random, variant: str) -> dict[str, Any]:
    """A random ``options`` object: a preset and some overrides (sometimes unknown or bad)."""
    out: dict[str, Any] = {}
    if rng.random() < 0.7:
        out["preset"] = rng.choice(PRESETS[variant] + ("vegas", "", "STANDARD"))
    for _ in range(rng.randint(0, 3)):
        names = OPTION_NAMES[variant]
        name = rng.choice(names + ("knock", "joker", "preset"))
        out[name] = rng.choice(OPTION_VALUES)
    return out


def _players(rng: random.Random, variant: str, n: int) -> list[str]:
    base = ["A", "B", "C", "D", "E"]
    if rng.random() < 0.2:
        base = [rng.choice(NAMES) for _ in range(5)]
    return base[:n]


def _hand(rng: random.Random, variant: str, players: int | None = None) -> Any:
    size = {"gin": rng.choice((10, 10, 11, 9, 12)), "carousel": rng.randint(0, 12)}.get(
        variant, rng.randint(0, 14)
    )
    return pieces_field(rng, draw(rng, variant, size, players))


SUPPORTED: tuple[tuple[str, str], ...] = tuple(
    (c, v) for c in CHECKS for v in VARIANTS if v in variants_answering(c)
)
"""The check × variant pairs the judge answers (each variant's ``answers``)."""


def pick(rng: random.Random) -> tuple[str, str]:
    """A check and a variant: nine times in ten a pair the judge answers, else any pair."""
    if rng.random() < 0.9:
        return rng.choice(SUPPORTED)
    return rng.choice(CHECKS), rng.choice(VARIANTS)


def request(rng: random.Random, check: str, variant: str) -> dict[str, Any]:
    """A request of ``check`` for ``variant`` with plausible fields (mostly well formed)."""
    req: dict[str, Any] = {"check": check, "variant": variant}
    if rng.random() < 0.25:
        req["options"] = options(rng, variant)
    if check == "meld":
        req["meld"] = pieces_field(rng, meld(rng, variant))
        if rng.random() < 0.2:
            req["as"] = rng.choice(("run", "group", "pair", "set", None))
        if variant == "carousel" and rng.random() < 0.3:
            req["declare"] = [rng.choice((token(rng, "carousel"), None)) for _ in range(2)]
        if variant == "carousel" and rng.random() < 0.3:
            req["players"] = rng.randint(1, 6)
    elif check == "opening":
        req["melds"] = [pieces_field(rng, meld(rng, variant)) for _ in range(rng.randint(0, 6))]
        if rng.random() < 0.3:
            req["needed"] = rng.choice((0, 30, 51, 101, 10_000))
        if variant == "rummy101":
            if rng.random() < 0.2:
                req["pairs_needed"] = rng.randint(0, 6)
            if rng.random() < 0.2:
                req["taken_discard"] = token(rng, variant)
            if rng.random() < 0.2:
                req["previous_openings"] = [
                    rng.choice(({"by": "melds", "value": 120}, {"by": "pairs", "pairs": 5}))
                ]
        if rng.random() < 0.2:
            req[rng.choice(("hand", "rack"))] = _hand(rng, variant)
    elif check == "turn":
        deck = full_set(variant)
        rng.shuffle(deck)
        before = [meld(rng, variant) for _ in range(rng.randint(0, 5))]
        rack = deck[: rng.randint(1, 14)]
        after = [list(m) for m in before]
        if after and rng.random() < 0.6:
            after[rng.randrange(len(after))] += rack[: rng.randint(1, 2)]
        else:
            after.append(rack[:3])
        req["rack"] = pieces_field(rng, rack)
        req["table_before"] = before
        if rng.random() < 0.25:
            req["table_after"] = {"heap": [p for m in after for p in m]}
        else:
            req["table_after"] = after
        req["opened"] = rng.random() < 0.6
        if variant == "carousel" and rng.random() < 0.3:
            req["declared_before"] = [None for _ in before]
    elif check == "split":
        if rng.random() < 0.5:
            tiles = [p for _ in range(rng.randint(1, 8)) for p in meld(rng, variant)]
        else:
            tiles = draw(rng, variant, rng.randint(0, 30))
        req["tiles"] = pieces_field(rng, tiles)
    elif check == "hand":
        req["hand"] = _hand(rng, variant)
        if variant == "carousel" and rng.random() < 0.3:
            req["players"] = rng.randint(2, 5)
    elif check == "round":
        _round(rng, variant, req)
    elif check == "game":
        n = 2 if variant == "gin" else rng.randint(2, 5)
        names = _players(rng, variant, n)
        req["players"] = names
        req["rounds"] = []
        for _ in range(rng.randint(0, 8)):
            scores = {p: rng.choice((0, 0, 10, 25, 60, -30, 150)) for p in names}
            rnd: dict[str, Any] = {"scores": scores}
            if rng.random() < 0.5:
                rnd["winners"] = [rng.choice(names)]
            req["rounds"].append(rnd)
        if variant == "rummy101" and rng.random() < 0.3:
            req["rounds_planned"] = rng.randint(1, 12)
        if variant in ("tile_rummy", "my_rummy") and rng.random() < 0.3:
            req[rng.choice(("games", "target", "ended"))] = rng.choice((1, 3, 200, True))
    return req


def _round(rng: random.Random, variant: str, req: dict[str, Any]) -> None:
    lo, hi = {"gin": (2, 2), "carousel": (2, 5)}.get(variant, (2, 4))
    n = rng.randint(lo, hi)
    names = _players(rng, variant, n)
    deck = full_set(variant, n)
    rng.shuffle(deck)
    players: list[dict[str, Any]] = []
    if variant == "gin":
        for i, name in enumerate(names):
            size = 11 if i == 0 and rng.random() < 0.2 else 10
            hand, deck = deck[:size], deck[size:]
            if rng.random() < 0.15:
                players.append({"name": name, "deadwood": rng.randint(0, 100)})
            else:
                players.append({"name": name, "hand": pieces_field(rng, hand)})
        req["knocker"] = rng.choice([*names, None])
        if rng.random() < 0.1:
            req["void"] = True
    elif variant == "carousel":
        for i, name in enumerate(names):
            size = 0 if i == 0 and rng.random() < 0.3 else rng.randint(1, 10)
            hand, deck = deck[:size], deck[size:]
            players.append({"name": name, "hand": pieces_field(rng, hand)})
        req["knocker"] = rng.choice([*names, None])
    else:
        winner = rng.randrange(n) if rng.random() < 0.85 else None
        for i, name in enumerate(names):
            p: dict[str, Any] = {"name": name}
            if i == winner:
                p["winner"] = True
            elif rng.random() < 0.2:
                p["hand_value"] = rng.randint(0, 200)
                p["jokers"] = rng.randint(0, 2)
            else:
                size = rng.randint(0, 14)
                p["hand"], deck = pieces_field(rng, deck[:size]), deck[size:]
            if variant == "rummy101":
                p["opened"] = rng.choice(("none", "melds", "pairs", "melds"))
            players.append(p)
        if variant == "rummy101":
            req["finish"] = rng.choice(
                ("normal", "joker", "one_turn", "one_turn_joker", "stock_out")
            )
        if variant != "rummy101" and rng.random() < 0.2:
            req["penalties"] = [{"name": names[0], "tiles": 3, "reason": "timeout"}]
    req["players"] = players


def valid_table(rng: random.Random, variant: str) -> list[list[str]]:
    """The whole set (106 tiles, or two 53-card decks) laid out as valid runs, shuffled.

    Each colour/suit copy 1–13 is cut into runs of 3–7; each joker ends a run of at most 12.
    """
    tiles = variant in TILE_VARIANTS
    runs: list[list[str]] = []
    for f in COLOURS if tiles else SUITS:
        for _ in range(2):
            n = 1
            while n <= 13:
                length = rng.randint(3, 7)
                if 13 - (n + length - 1) < 3:
                    length = 14 - n
                runs.append(
                    [f"{f}{m}" if tiles else f"{RANKS[m - 1]}{f}" for m in range(n, n + length)]
                )
                n += length
    rng.shuffle(runs)
    for _ in range(2):
        short = next(r for r in runs if len(r) < 12 and "JK" not in r)
        short.append("JK")
    rng.shuffle(runs)
    return runs


def big_request(rng: random.Random) -> dict[str, Any]:
    """A request at or just over the size limits (the hang guard's diet)."""
    variant = rng.choice(VARIANTS)
    roll = rng.randrange(10)
    if roll == 0:  # a whole set as one heap: 106 tiles with both jokers, or two decks
        v = rng.choice(("tile_rummy", "my_rummy", "rummy101", "carousel"))
        heap = full_set(v)
        if rng.random() < 0.5:
            heap = heap[: rng.randint(60, len(heap))] + ["JK", "JK"]
            heap = heap[:106] if v != "carousel" else heap
        rng.shuffle(heap)
        return {"check": "split", "variant": v, "tiles": heap}
    if roll == 1:  # a turn whose table after is the whole set as a heap (both jokers in it)
        v = rng.choice(("tile_rummy", "my_rummy", "carousel"))
        table = valid_table(rng, v)
        k = rng.randint(1, 3)
        rack = [p for m in table[:k] for p in m]
        after = [p for m in table for p in m]
        if rng.random() < 0.3:  # one piece too few: no split (or a different one) must be found
            after.pop(rng.randrange(len(after)))
        rng.shuffle(after)
        return {
            "check": "turn",
            "variant": v,
            "opened": rng.random() < 0.8,
            "rack": rack,
            "table_before": table[k:],
            "table_after": {"heap": after},
        }
    if roll == 2:  # a 320-token meld (or 321 → too_large)
        n = rng.choice((320, 321, 319, 400))
        return {
            "check": "meld",
            "variant": variant,
            "meld": [token(rng, variant) for _ in range(n)],
        }
    if roll == 3:  # gin hands of 11 cards, rounds with an 11-card knocker
        deck = full_set("gin")
        rng.shuffle(deck)
        if rng.random() < 0.5:
            return {"check": "hand", "variant": "gin", "hand": deck[:11]}
        return {
            "check": "round",
            "variant": "gin",
            "knocker": "A",
            "players": [{"name": "A", "hand": deck[:11]}, {"name": "B", "hand": deck[11:21]}],
        }
    if roll == 4:  # Carousel round, five players, whole decks in the hands
        deck = full_set("carousel", 5)
        rng.shuffle(deck)
        size = len(deck) // 5
        return {
            "check": "round",
            "variant": "carousel",
            "knocker": rng.choice(("A", None)),
            "players": [
                {"name": n, "hand": deck[i * size : (i + 1) * size]} for i, n in enumerate("ABCDE")
            ],
        }
    if roll == 5:  # 120 (or 121) melds of an opening, each the whole set
        v = rng.choice(TILE_VARIANTS)
        m = full_set(v)
        return {"check": "opening", "variant": v, "melds": [m] * rng.choice((120, 121, 60))}
    if roll == 6:  # a game with 1000 rounds
        v = rng.choice(VARIANTS)
        names = ["A", "B"]
        rounds = [
            {"scores": {"A": rng.randint(0, 5), "B": 0}} for _ in range(rng.choice((1000, 1001)))
        ]
        return {"check": "game", "variant": v, "players": names, "rounds": rounds}
    if roll == 7:  # long strings in pieces fields
        n = rng.choice((2559, 2560, 2561, 100_000))
        field = rng.choice(("meld", "tiles", "hand"))
        check = {"meld": "meld", "tiles": "split", "hand": "hand"}[field]
        return {"check": check, "variant": variant, field: "R1 " * (n // 3)}
    if roll == 8:  # many melds in a turn, every piece once
        v = rng.choice(("tile_rummy", "my_rummy", "carousel"))
        deck = full_set(v)
        rng.shuffle(deck)
        before = [[p] for p in deck[:120]]
        return {
            "check": "turn",
            "variant": v,
            "opened": False,
            "rack": deck[100:],
            "table_before": before[:100],
            "table_after": [[p] for p in deck[: rng.choice((101, 106, 120))]],
        }
    # a very long player name / unknown fields
    return {
        "check": rng.choice(CHECKS),
        "variant": variant,
        "players": [{"name": "n" * 200_000, "hand": []}, {"name": "B", "hand": []}],
        "junk": {"x": ["y"] * 10_000},
    }


# --------------------------------------------------------------------------------------------
# Random JSON and mutations


def random_json(rng: random.Random, depth: int = 0) -> Any:
    """An arbitrary JSON value (nesting at most 4 deep), with odd strings and numbers."""
    roll = rng.random()
    if depth >= 4 or roll < 0.5:
        return rng.choice(
            (
                None,
                True,
                False,
                rng.choice(HUGE_INTS),
                rng.randint(-1000, 1000),
                rng.choice(ODD_STRINGS),
                rng.choice(CHECKS + VARIANTS),
                token(rng, rng.choice(VARIANTS)),
            )
        )
    if roll < 0.75:
        return [random_json(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    keys = (*CHECKS, *VARIANTS, "check", "variant", "meld", "players", "name", "hand", "heap")
    return {
        rng.choice(keys + ODD_STRINGS[:20]): random_json(rng, depth + 1)
        for _ in range(rng.randint(0, 5))
    }


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        value = value[k]
    return value


def mutate_value(rng: random.Random, value: Any) -> Any:
    """One structural mutation of a decoded request (the input is not changed)."""
    value = json.loads(json.dumps(value))
    paths = list(_paths(value))
    path = rng.choice(paths)
    op = rng.randrange(10)
    if not path:
        return rng.choice(([value], [value, value], random_json(rng), {"request": value}))
    parent = _get(value, path[:-1])
    key = path[-1]
    target = parent[key]
    if op == 0:  # delete the field / element
        del parent[key]
    elif op == 1:  # replace with any JSON value
        parent[key] = random_json(rng)
    elif op == 2:  # wrong type: wrap, unwrap, stringify
        parent[key] = rng.choice(([target], json.dumps(target), {"x": target}, str(target)))
    elif op == 3:  # huge / odd number
        parent[key] = rng.choice(HUGE_INTS)
    elif op == 4:  # odd string
        parent[key] = rng.choice(ODD_STRINGS)
    elif op == 5 and isinstance(parent, list):  # duplicate an element (copies, names)
        parent.insert(key, target)
    elif op == 6 and isinstance(target, list):  # make a list long
        parent[key] = (target or ["R1"]) * rng.choice((3, 40, 321))
    elif op == 7:  # deep nesting
        nested: Any = target
        for _ in range(rng.choice((5, 50, 500))):
            nested = [nested]
        parent[key] = nested
    elif op == 8 and isinstance(parent, dict):  # swap in another variant/check/key
        parent[rng.choice(("check", "variant", "as", "knocker", "finish", "opened"))] = rng.choice(
            CHECKS + VARIANTS + ("", None, "A")
        )
    else:  # a null
        parent[key] = None
    return value


def encode(value: Any, rng: random.Random) -> bytes:
    """JSON text of ``value`` (NaN/Infinity allowed, ASCII or not, compact or spaced)."""
    text = json.dumps(
        value,
        ensure_ascii=rng.random() < 0.5,
        separators=rng.choice(((",", ":"), (", ", ": "), (" ,", " : "))),
        allow_nan=True,
    )
    return text.encode("utf-8", "surrogatepass")


RAW_SNIPPETS: tuple[bytes, ...] = (
    b"\r",
    b"\x00",
    b"\xef\xbb\xbf",
    b"\xff",
    b"\xfe",
    b"\xc0\xaf",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\xe2\x80\xa8",
    b"\\ud800",
    b"\\u0000",
    b'"',
    b"\\",
    b"{",
    b"}",
    b"[",
    b"]",
    b",",
    b":",
    b"NaN",
    b"-Infinity",
    b"1e999999",
    b"9" * 5000,
    b"\t",
    b"\x0b",
    b"\x0c",
    b"\x1b[2J",
)


def mutate_bytes(rng: random.Random, line: bytes) -> bytes:
    """One to three byte-level mutations of a line."""
    data = bytearray(line)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(9)
        pos = rng.randint(0, len(data))
        if op == 0 and data:  # flip bits of a byte
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
        elif op == 1:  # truncate
            del data[pos:]
        elif op == 2:  # insert an odd snippet
            data[pos:pos] = rng.choice(RAW_SNIPPETS)
        elif op == 3 and data:  # delete a range
            del data[pos : pos + rng.randint(1, 8)]
        elif op == 4 and data:  # duplicate a range (duplicate keys, repeated tokens)
            j = rng.randint(pos, min(len(data), pos + 40))
            data[j:j] = data[pos:j]
        elif op == 5:  # random bytes
            data[pos:pos] = rng.randbytes(rng.randint(1, 6))
        elif op == 6:  # a BOM in front, or trailing \r
            data = bytearray(b"\xef\xbb\xbf") + data if rng.random() < 0.5 else data + b"\r"
        elif op == 7 and data:  # replace a byte with a digit (numbers grow)
            data[rng.randrange(len(data))] = rng.choice(b"0123456789")
        else:  # duplicate a key: add "check"/"variant" again at the end
            if data.endswith(b"}"):
                data[-1:] = b',"check":"meld","variant":"gin"}'
    return bytes(data)


def duplicate_keys(rng: random.Random, value: dict[str, Any]) -> bytes:
    """A request object whose raw text repeats a key (the last one wins in Python's json)."""
    items = list(value.items())
    if not items:
        return b"{}"
    k, _ = rng.choice(items)
    extra = rng.choice((random_json(rng), value[k], None))
    parts = [json.dumps(kk) + ":" + json.dumps(vv) for kk, vv in items]
    parts.insert(rng.randint(0, len(parts)), json.dumps(k) + ":" + json.dumps(extra))
    return ("{" + ",".join(parts) + "}").encode()


def example_lines() -> list[dict[str, Any]]:
    """The valid example requests of ``../shared/judge_examples.jsonl``."""
    out: list[dict[str, Any]] = []
    if EXAMPLES.exists():
        for line in EXAMPLES.read_text().splitlines():
            if line.strip():
                out.append(json.loads(line)["request"])
    return out


def random_bytes_line(rng: random.Random) -> bytes:
    """Raw bytes: random, near-JSON, invalid UTF-8, BOM, NUL, whitespace."""
    roll = rng.randrange(20)
    if roll in (0, 8, 9):
        return rng.randbytes(rng.randint(0, 200))
    if roll == 1:
        return b"".join(rng.choice(RAW_SNIPPETS) for _ in range(rng.randint(0, 12)))
    if roll == 2:
        return rng.choice((b"", b" ", b"\t", b"\r", b"\xef\xbb\xbf", b"\x00", b" \r \t "))
    if roll == 3:
        depth = rng.choice((10, 1000, 100_000, 400_000))
        return rng.choice((b"[", b'{"a":')) * depth + rng.choice((b"", b"]" * depth, b"1"))
    if roll in (4, 10, 11, 12):
        return bytes(
            rng.choice(b'{}[]",:0123456789.eE-+ truefalsnu\\') for _ in range(rng.randint(1, 80))
        )
    if roll == 5:
        return rng.choice((b"null", b"1", b"[]", b'"x"', b"NaN", b"-Infinity", b"1e400", b"{}"))
    if roll in (6, 13, 14, 15, 16, 17, 18):  # an object that is close to a request
        return ('{"check":"meld","variant":"gin","meld":"' + rng.choice(ODD_STRINGS) + '"}').encode(
            "utf-8", "surrogatepass"
        )
    # a lone surrogate written raw (CESU-like, invalid UTF-8) or escaped inside a name
    return rng.choice(
        (
            b'{"check":"meld","variant":"gin","meld":["\xed\xa0\x80"]}',
            b'{"check":"round","variant":"tile_rummy","players":[{"name":"\\ud800","winner":true},'
            b'{"name":"B","hand":["R5"]}]}',
            b'{"check":"game","variant":"gin","players":["\\udc00","B"],"rounds":[]}',
        )
    )


def long_line(rng: random.Random) -> bytes:
    """A line near the 1,000,000-byte limit: just under, just over, or far over."""
    size = rng.choice((999_900, 1_000_000, 1_000_001, 1_500_000))
    head = b'{"check":"meld","variant":"gin","meld":"'
    body = b"A" * max(0, size - len(head) - 2)
    return (head + body + b'"}')[:size] if rng.random() < 0.5 else rng.randbytes(8) * (size // 8)


# --------------------------------------------------------------------------------------------
# The line generator


KINDS: tuple[tuple[str, float], ...] = (
    ("request", 0.30),
    ("mutated_request", 0.22),
    ("mutated_bytes", 0.18),
    ("mutated_example", 0.10),
    ("random_json", 0.08),
    ("random_bytes", 0.07),
    ("duplicate_keys", 0.03),
    ("big", 0.02),
)


def one_line(rng: random.Random, kind: str, examples: list[dict[str, Any]], big: bool) -> bytes:
    """One generated line of ``kind`` (no ``\\n`` inside; ``\\r`` and the rest allowed)."""
    try:
        line = _one_line(rng, kind, examples, big)
    except RecursionError:  # mutations nested it too deeply to encode: nest it as text
        line = b'{"check":"meld","variant":"gin","meld":' + b"[" * 5000 + b"]" * 5000 + b"}"
    return line.replace(b"\n", b" ")


def _one_line(rng: random.Random, kind: str, examples: list[dict[str, Any]], big: bool) -> bytes:
    if kind == "request":
        line = encode(request(rng, *pick(rng)), rng)
    elif kind == "mutated_request":
        base = request(rng, *pick(rng))
        for _ in range(rng.randint(1, 3)):
            base = mutate_value(rng, base)
        line = encode(base, rng)
    elif kind == "mutated_bytes":
        base_line = encode(request(rng, *pick(rng)), rng)
        line = mutate_bytes(rng, base_line)
    elif kind == "mutated_example":
        ex = rng.choice(examples) if examples else request(rng, "meld", "gin")
        if rng.random() < 0.5:
            line = mutate_bytes(rng, json.dumps(ex).encode())
        else:
            line = encode(mutate_value(rng, ex), rng)
    elif kind == "random_json":
        line = encode(random_json(rng), rng)
    elif kind == "random_bytes":
        line = random_bytes_line(rng)
    elif kind == "duplicate_keys":
        line = duplicate_keys(rng, request(rng, *pick(rng)))
    elif big:
        line = long_line(rng) if rng.random() < 0.1 else encode(big_request(rng), rng)
    else:
        line = encode(request(rng, *pick(rng)), rng)
    return line


def generate_lines(n: int, seed: int = 0, big: bool = True) -> Iterator[tuple[str, bytes]]:
    """``n`` fuzz lines as ``(kind, line)``, reproducible from ``seed``.

    Args:
        n: how many lines.
        seed: the random seed.
        big: include big requests (heaps of 106, 320-token melds, lines near 1 MB).
    """
    rng = random.Random(seed)
    examples = example_lines()
    names = [k for k, _ in KINDS]
    weights = [w for _, w in KINDS]
    for _ in range(n):
        kind = rng.choices(names, weights)[0]
        yield kind, one_line(rng, kind, examples, big)


# --------------------------------------------------------------------------------------------
# Checking answers


def problem(resp: Any) -> str | None:
    """Why ``resp`` breaks the protocol (or is a crash), or ``None`` when it is fine."""
    if not isinstance(resp, dict):
        return f"answer is not an object: {type(resp).__name__}"
    ok = resp.get("ok")
    if not isinstance(ok, bool):
        return "answer has no boolean 'ok'"
    try:
        text = dumps(resp)
        text.encode("utf-8")
        json.dumps(resp, allow_nan=False)  # strict JSON: no NaN or Infinity in an answer
    except (ValueError, TypeError) as e:
        return f"answer cannot be written as a UTF-8 JSON line: {type(e).__name__}: {e}"
    if "\n" in text:
        return "answer is not one line"
    if not ok:
        err = resp.get("error")
        msg = resp.get("message")
        if err == "internal_error":
            return f"internal_error: {msg}"
        if not isinstance(err, str) or not SNAKE.match(err):
            return f"error code is not snake_case: {err!r}"
        if not isinstance(msg, str) or not msg or "\n" in msg:
            return f"message is not one non-empty line: {msg!r}"
    elif resp.get("valid") is False:
        reason = resp.get("reason")
        if not isinstance(reason, str) or not SNAKE.match(reason):
            return f"valid:false without a snake_case reason: {reason!r}"
        if not isinstance(resp.get("message"), str) or not resp["message"]:
            return "valid:false without a message"
    return None


def label(resp: dict[str, Any]) -> str:
    """The tally label of an answer: ``ok`` / ``ok:not_valid`` or the error code."""
    if resp.get("ok") is True:
        return "ok:not_valid" if resp.get("valid") is False else "ok"
    return str(resp.get("error"))


def fingerprint(resp: dict[str, Any]) -> tuple[Any, ...]:
    """What must agree between the in-process answer and the judge process's answer."""
    return (resp.get("ok"), resp.get("error"), resp.get("valid"), resp.get("reason"))


def run_stream(lines: list[bytes], timeout: float) -> subprocess.CompletedProcess[bytes]:
    """Feed ``lines`` (joined by ``\\n``) to ``python -m rules judge`` in one stream."""
    return subprocess.run(
        [sys.executable, "-m", "rules", "judge"],
        input=b"\n".join(lines) + b"\n",
        capture_output=True,
        cwd=ROOT,
        timeout=timeout,
    )


def show(line: bytes, limit: int = 300) -> str:
    """A short printable form of a line."""
    text = repr(line[:limit])
    return text + (f" … ({len(line)} bytes)" if len(line) > limit else "")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=int, default=100_000, help="how many lines (default 100,000)")
    ap.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    ap.add_argument("--no-stream", action="store_true", help="skip the judge-process stream run")
    ap.add_argument("--no-big", action="store_true", help="leave out the big requests")
    ap.add_argument("--dump", type=Path, help="write every crashing line to this file")
    args = ap.parse_args(argv)

    print(f"generating {args.lines:,} lines (seed {args.seed}) …", flush=True)
    t0 = time.perf_counter()
    generated = list(generate_lines(args.lines, args.seed, big=not args.no_big))
    print(
        f"  {time.perf_counter() - t0:.1f} s; kinds: "
        + ", ".join(
            f"{k} {v:,}" for k, v in collections.Counter(k for k, _ in generated).most_common()
        )
    )

    # warm up: import every check module once, so the first line of each is not charged for it
    for ex in example_lines():
        answer_line(json.dumps(ex))

    tally: collections.Counter[str] = collections.Counter()
    crashes: list[tuple[bytes, str]] = []
    slowest = (0.0, b"")  # by CPU time
    slowest_wall = 0.0
    times: list[float] = []
    answers: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    for _, line in generated:
        s = time.perf_counter()
        c = time.process_time()
        try:
            resp: Any = answer_line(line)
        except BaseException as e:  # noqa: BLE001 - a raise is the crash we are looking for
            resp = {"raised": f"{type(e).__name__}: {e}"}
        cpu = time.process_time() - c
        wall = time.perf_counter() - s
        times.append(cpu)
        slowest_wall = max(slowest_wall, wall)
        if cpu > slowest[0]:
            slowest = (cpu, line)
        why = problem(resp)
        if "raised" in resp:
            why = f"answer_line raised {resp['raised']}"
        if why is not None:
            crashes.append((line, why))
        tally[label(resp) if isinstance(resp, dict) else "?"] += 1
        answers.append(resp)
    elapsed = time.perf_counter() - t0
    times.sort()
    rate = len(generated) / elapsed
    print(f"\nin process: {len(generated):,} lines in {elapsed:.1f} s = {rate:,.0f} lines/s")
    print(
        f"  CPU per line: median {1000 * times[len(times) // 2]:.3f} ms, "
        f"p99 {1000 * times[int(len(times) * 0.99)]:.2f} ms, slowest {1000 * slowest[0]:.1f} ms "
        f"(slowest wall-clock {1000 * slowest_wall:.1f} ms)"
    )
    print(f"  slowest line (CPU): {show(slowest[1], 160)}")
    print("  answers:")
    for code, count in tally.most_common():
        print(f"    {code:28} {count:8,}")

    stream: dict[str, list[str]] = {}
    if not args.no_stream:
        t0 = time.perf_counter()
        stream = check_stream([line for _, line in generated], answers)
        elapsed = time.perf_counter() - t0
        print(
            f"\njudge process: {len(generated):,} lines in {elapsed:.1f} s = "
            f"{len(generated) / elapsed:,.0f} lines/s (restarts after a crash included)"
        )

    stream_count = sum(len(v) for v in stream.values())
    print(f"\ncrashes: {len(crashes):,} in process, {stream_count:,} in the judge process")
    groups: dict[str, list[bytes]] = {}
    for line, why in crashes:
        groups.setdefault(why[:120], []).append(line)
    for why, lines in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(lines):6,} × {why}\n           e.g. {show(min(lines, key=len))}")
    for why, examples in sorted(stream.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(examples):6,} × judge process: {why}\n           e.g. {examples[0]}")
    if args.dump and crashes:
        with args.dump.open("w") as f:
            for line, why in crashes:
                f.write(json.dumps({"line": line.decode("latin-1"), "got": why}) + "\n")
        print(f"  every crashing line written to {args.dump}")
    return 1 if crashes or stream_count else 0


def check_stream(lines: list[bytes], answers: list[Any], chunk: int = 5000) -> dict[str, list[str]]:
    """Run ``lines`` through ``python -m rules judge`` and group what went wrong.

    The lines go in streams of ``chunk`` lines, one judge process each. When a process dies
    (exit status not 0, anything on standard error, or fewer answers than lines), the line it
    died on is recorded and a new process answers the rest of that chunk, so one crash does
    not hide the others. Each answer is compared with the in-process answer to the same line
    (:func:`fingerprint`), which checks the order.

    Returns:
        problem kind -> one example (input shown) per occurrence; empty when all is well.
    """
    problems: dict[str, list[str]] = {}
    for lo in range(0, len(lines), chunk):
        hi = min(len(lines), lo + chunk)
        start = lo
        while start < hi:
            proc = run_stream(lines[start:hi], timeout=max(600.0, (hi - start) / 50))
            out = proc.stdout.decode("utf-8", "replace").split("\n")
            if out and out[-1] == "":
                out.pop()
            for i, text in enumerate(out[: hi - start]):
                k = start + i
                try:
                    theirs = json.loads(text)
                except ValueError:
                    problems.setdefault("answer is not JSON", []).append(f"{text[:200]!r}")
                    continue
                mine = answers[k]
                if isinstance(mine, dict) and fingerprint(theirs) != fingerprint(mine):
                    why = f"answered {label(theirs)} where answer_line gives {label(mine)}"
                    problems.setdefault(why, []).append(f"line {k + 1}: {show(lines[k], 120)}")
            done = start + len(out)
            if len(out) > hi - start:
                problems.setdefault("more answers than lines", []).append(f"lines {start + 1}–")
            if proc.returncode == 0 and not proc.stderr and done >= hi:
                break
            tail = proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
            why = f"exit status {proc.returncode}, stderr ends {tail[0][:160]!r}"
            where = f"no answer from line {done + 1}: {show(lines[done], 160)}" if done < hi else ""
            problems.setdefault(why, []).append(where)
            start = done + 1
    return problems


if __name__ == "__main__":
    sys.exit(main())
