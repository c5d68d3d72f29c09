"""Build the request sample of ``tests/test_characterisation.py`` (issue 15, step 1).

The sample is: the public judge examples, every request the test suite sent through
``rules.judge.answer`` when it was recorded (captured once, kept in the fixture), and requests
drawn here with a fixed seed for breadth (every check and variant, valid and not, input
errors). ``python tests/characterisation_gen.py [captured.jsonl]`` rewrites the fixture
``tests/data/characterisation.jsonl`` with today's answers; run it only when an English output
is meant to change, and say so in the commit.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "data" / "characterisation.jsonl"
EXAMPLES = Path("/work/shared/judge_examples.jsonl")

COLOURS = "RBKY"
SUITS = "SHDC"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def _tile(rng: random.Random) -> str:
    if rng.random() < 0.08:
        return "JK"
    return f"{rng.choice(COLOURS)}{rng.randint(1, 13)}"


def _card(rng: random.Random, jokers: bool) -> str:
    if jokers and rng.random() < 0.06:
        return "JK"
    return f"{rng.choice(RANKS)}{rng.choice(SUITS)}"


def _near_meld(rng: random.Random, cards: bool, jokers: bool) -> list[str]:
    """A run or group, sometimes broken, sometimes with jokers."""
    n = rng.randint(2, 6)
    if rng.random() < 0.5:  # run
        fam = rng.choice(SUITS if cards else COLOURS)
        start = rng.randint(1, 12)
        nums = [start + i for i in range(n)]
        out = []
        for v in nums:
            v = ((v - 1) % 13) + 1
            out.append(f"{RANKS[v - 1]}{fam}" if cards else f"{fam}{v}")
    else:
        v = rng.randint(1, 13)
        fams = rng.sample(SUITS if cards else COLOURS, min(n, 4))
        if n > 4:
            fams += [rng.choice(SUITS if cards else COLOURS) for _ in range(n - 4)]
        out = [f"{RANKS[v - 1]}{f}" if cards else f"{f}{v}" for f in fams]
    r = rng.random()
    if r < 0.3 and jokers:
        out[rng.randrange(len(out))] = "JK"
    elif r < 0.5:
        out[rng.randrange(len(out))] = _card(rng, False) if cards else _tile(rng)
    elif r < 0.6:
        rng.shuffle(out)
    return out


def _deal(rng: random.Random, deck: list[str], n: int) -> list[str]:
    return [deck.pop() for _ in range(n)]


def generated() -> list[dict[str, Any]]:
    """Requests drawn with a fixed seed: every check of every variant it applies to."""
    rng = random.Random(15)
    reqs: list[dict[str, Any]] = []
    tile_variants = ["rummy101", "tile_rummy", "my_rummy"]
    for variant in [*tile_variants, "gin", "carousel"]:
        cards = variant in ("gin", "carousel")
        jokers = variant != "gin"
        for _ in range(60):
            meld = _near_meld(rng, cards, jokers)
            reqs.append({"check": "meld", "variant": variant, "meld": meld})
        for _ in range(15):
            n = rng.randint(1, 5)
            pieces = [_card(rng, jokers) if cards else _tile(rng) for _ in range(n)]
            reqs.append({"check": "meld", "variant": variant, "meld": pieces})
        if variant != "gin":
            for _ in range(20):
                heap = [p for _ in range(rng.randint(1, 4)) for p in _near_meld(rng, cards, True)]
                reqs.append({"check": "split", "variant": variant, "tiles": heap})
    for variant in tile_variants:
        for _ in range(30):
            melds = [_near_meld(rng, False, True) for _ in range(rng.randint(1, 5))]
            if variant == "rummy101" and rng.random() < 0.3:
                melds = [[t, t] for t in (_tile(rng) for _ in range(rng.randint(3, 6)))]
            reqs.append({"check": "opening", "variant": variant, "melds": melds})
    tiles = [f"{c}{n}" for c in COLOURS for n in range(1, 14)] * 2 + ["JK", "JK"]
    for _ in range(25):
        deck = tiles[:]
        rng.shuffle(deck)
        k = rng.randint(2, 4)
        finish = rng.choice(["normal", "joker", "one_turn", "one_turn_joker", "stock_out"])
        players: list[dict[str, Any]] = []
        for i in range(k):
            p: dict[str, Any] = {"name": f"P{i}"}
            if i == 0 and finish != "stock_out":
                p["winner"] = True
            else:
                p["opened"] = rng.choice(["none", "melds", "pairs"])
                if finish.startswith("one_turn"):
                    p["opened"] = "none"
                p["hand"] = _deal(rng, deck, rng.randint(1, 8))
            players.append(p)
        reqs.append({"check": "round", "variant": "rummy101", "finish": finish, "players": players})
    for variant in ("tile_rummy", "my_rummy"):
        for _ in range(20):
            deck = tiles[:]
            rng.shuffle(deck)
            k = rng.randint(2, 4)
            winner = rng.random() < 0.7
            players = []
            for i in range(k):
                if i == 0 and winner:
                    players.append({"name": f"P{i}", "winner": True})
                else:
                    players.append({"name": f"P{i}", "hand": _deal(rng, deck, rng.randint(1, 7))})
            reqs.append({"check": "round", "variant": variant, "players": players})
    deck52 = [f"{r}{s}" for r in RANKS for s in SUITS]
    for preset in ("seed", "modern", "classic"):
        for _ in range(25):
            deck = deck52[:]
            rng.shuffle(deck)
            reqs.append(
                {
                    "check": "hand",
                    "variant": "gin",
                    "options": {"preset": preset},
                    "hand": _deal(rng, deck, rng.choice([10, 11])),
                }
            )
        for _ in range(25):
            deck = deck52[:]
            rng.shuffle(deck)
            hands = [_deal(rng, deck, 10), _deal(rng, deck, 10)]
            reqs.append(
                {
                    "check": "round",
                    "variant": "gin",
                    "options": {"preset": preset},
                    "knocker": "A",
                    "players": [{"name": "A", "hand": hands[0]}, {"name": "B", "hand": hands[1]}],
                }
            )
            reqs.append(
                {
                    "check": "round",
                    "variant": "gin",
                    "options": {"preset": preset},
                    "knocker": "A",
                    "players": [
                        {"name": "A", "deadwood": rng.randint(0, 12)},
                        {"name": "B", "deadwood": rng.randint(0, 40)},
                    ],
                }
            )
        for _ in range(8):
            rounds = []
            for _ in range(rng.randint(1, 9)):
                w = rng.choice(["A", "B"])
                rounds.append({"scores": {w: rng.randint(5, 60)}, "winners": [w]})
            reqs.append(
                {
                    "check": "game",
                    "variant": "gin",
                    "options": {"preset": preset},
                    "players": ["A", "B"],
                    "rounds": rounds,
                }
            )
    deck106 = [f"{r}{s}" for r in RANKS for s in SUITS] * 2 + ["JK", "JK"]
    for _ in range(30):
        deck = deck106[:]
        rng.shuffle(deck)
        k = rng.randint(2, 5)
        players = [
            {"name": f"P{i}", "hand": _deal(rng, deck, rng.choice([0, 1, 2, 3, 5]))}
            for i in range(k)
        ]
        knocker = rng.choice([None, *[p["name"] for p in players]])
        reqs.append(
            {"check": "round", "variant": "carousel", "knocker": knocker, "players": players}
        )
        reqs.append({"check": "hand", "variant": "carousel", "hand": players[0]["hand"]})
    for variant in ("rummy101", "tile_rummy", "my_rummy", "carousel"):
        for _ in range(8):
            k = rng.randint(2, 4)
            names = [f"P{i}" for i in range(k)]
            rounds = []
            for _ in range(rng.randint(1, 8)):
                w = rng.choice(names)
                rounds.append(
                    {
                        "scores": {
                            n: (
                                rng.randint(10, 80)
                                if n == w
                                else -rng.randint(0, 60)
                                if variant != "carousel"
                                else 0
                            )
                            for n in names
                        },
                        "winners": [w],
                    }
                )
            extra: dict[str, Any] = {}
            if variant == "rummy101" and rng.random() < 0.5:
                extra["rounds_planned"] = rng.randint(1, 8)
            if variant in ("tile_rummy", "my_rummy") and rng.random() < 0.5:
                extra["target"] = rng.randint(50, 200)
            reqs.append(
                {"check": "game", "variant": variant, "players": names, "rounds": rounds, **extra}
            )
    # input errors
    for variant, meld in [
        ("tile_rummy", ["C12", "R1"]),
        ("tile_rummy", ["R14"]),
        ("tile_rummy", ["Q5"]),
        ("tile_rummy", ["AS", "R2"]),
        ("gin", ["JK", "AS"]),
        ("gin", ["1X"]),
        ("gin", ["ZS"]),
        ("carousel", ["11H"]),
        ("rummy101", ["R1"] * 3),
        ("gin", ["AS", "AS", "2S"]),
        ("tile_rummy", [""]),
        ("carousel", ["AS"] * 3),
    ]:
        reqs.append({"check": "meld", "variant": variant, "meld": meld})
    reqs += [
        {"check": "meld", "variant": "gin", "meld": ["AS"], "options": {"knock_max": 200}},
        {"check": "meld", "variant": "gin", "meld": ["AS"], "options": {"nope": 1}},
        {"check": "meld", "variant": "gin", "meld": ["AS"], "options": {"preset": "x"}},
        {"check": "meld", "variant": "tile_rummy", "meld": ["R1"], "options": {"joker_rule": 9}},
        {"check": "turn", "variant": "gin"},
        {"check": "meld", "variant": "chess", "meld": []},
        {"check": "fly", "variant": "gin"},
        {"check": "meld", "variant": "gin"},
        {"check": "hand", "variant": "gin", "hand": ["AS", "2S"]},
    ]
    return reqs


def main(captured: list[str]) -> None:
    from rules.judge import answer

    seen: set[str] = set()
    requests: list[Any] = []

    def add(req: Any) -> None:
        key = json.dumps(req, sort_keys=True, ensure_ascii=False)
        if key not in seen:
            seen.add(key)
            requests.append(req)

    for line in EXAMPLES.read_text().splitlines():
        if line.strip():
            add(json.loads(line)["request"])
    if FIXTURE.exists():
        for line in FIXTURE.read_text().splitlines():
            add(json.loads(line)["request"])
    for path in captured:
        for line in Path(path).read_text().splitlines():
            if line.strip():
                add(json.loads(line))
    for req in generated():
        add(req)
    with FIXTURE.open("w", encoding="utf-8") as f:
        for req in requests:
            f.write(json.dumps({"request": req, "answer": answer(req)}, ensure_ascii=False) + "\n")
    print(f"{len(requests)} answers written to {FIXTURE}")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main(sys.argv[1:])
