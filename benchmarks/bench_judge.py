"""Judge speed against a floor (issue 15, step 8; prints figures, no pass/fail).

In one run, on the same piped request lines:

- the floor: a bare Python process that does ``json.loads`` + ``json.dumps`` per line and
  writes it back (what any JSON Lines judge must at least do);
- ``python -m rules judge`` on gin ``hand`` requests (10 and 11 cards), on invalid melds
  (Tile Rummy) and on a mix of every check (the characterisation sample);
- start-up to the first answer: wall time from process start until the first answer line
  is read (ms), judge and floor.

Each figure is µs per line (wall time of the whole process minus its start-up, divided by the
lines) and the ratio to the floor. Targets (issue 15): gin hands ≤ 6× the floor, an invalid
meld ≤ 4×, start-up ≤ 100 ms.

Usage: ``nice -n 10 .venv/bin/python benchmarks/bench_judge.py [--lines N]`` from the project
root.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLOOR = (
    "import sys, json\n"
    "w = sys.stdout.write\n"
    "for line in sys.stdin.buffer:\n"
    "    w(json.dumps(json.loads(line), ensure_ascii=False, separators=(',', ':')) + '\\n')\n"
)
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [f"{r}{s}" for r in RANKS for s in "SHDC"]


def gin_hands(rng: random.Random, n: int) -> list[str]:
    out = []
    for i in range(n):
        hand = rng.sample(DECK, 10 if i % 2 == 0 else 11)
        out.append(json.dumps({"check": "hand", "variant": "gin", "hand": hand}))
    return out


def invalid_melds(rng: random.Random, n: int) -> list[str]:
    out = []
    for _ in range(n):
        c = rng.choice("RBKY")
        a = rng.randint(1, 9)
        meld = [f"{c}{a}", f"{c}{a + 1}", f"{rng.choice('RBKY')}{a + 3}"]
        out.append(json.dumps({"check": "meld", "variant": "tile_rummy", "meld": meld}))
    return out


def mixed(n: int) -> list[str]:
    path = ROOT / "tests" / "data" / "characterisation.jsonl"
    reqs = [json.loads(line)["request"] for line in path.read_text("utf-8").splitlines()]
    return [json.dumps(reqs[i % len(reqs)], ensure_ascii=False) for i in range(n)]


def run(cmd: list[str], lines: list[str]) -> tuple[float, float]:
    """(start-up ms to the first answer, µs per line after it) of one process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t0 = time.perf_counter()
    p = subprocess.Popen(
        cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT, env=env, bufsize=0
    )
    assert p.stdin is not None and p.stdout is not None
    p.stdin.write((lines[0] + "\n").encode())
    p.stdout.readline()
    t1 = time.perf_counter()
    rest = "".join(line + "\n" for line in lines[1:]).encode()
    out, _ = p.communicate(rest)
    t2 = time.perf_counter()
    assert out.count(b"\n") == len(lines) - 1, "an answer is missing"
    return (t1 - t0) * 1e3, (t2 - t1) / (len(lines) - 1) * 1e6


def in_process(lines: list[str]) -> tuple[float, float]:
    """(floor µs/line, judge µs/line) measured in this process: ``json.loads`` +
    ``json.dumps`` per line against :func:`rules.judge.answer_line` + :func:`rules.judge.dumps`
    (no pipes, so the least noisy ratio on a loaded machine)."""
    sys.path.insert(0, str(ROOT))
    from rules.judge import answer_line, dumps

    for line in lines[:200]:  # warm up: imports, tables
        dumps(answer_line(line))
    t0 = time.perf_counter()
    for line in lines:
        json.dumps(json.loads(line), ensure_ascii=False, separators=(",", ":"))
    t1 = time.perf_counter()
    for line in lines:
        dumps(answer_line(line))
    t2 = time.perf_counter()
    return (t1 - t0) / len(lines) * 1e6, (t2 - t1) / len(lines) * 1e6


def best(cmd: list[str], lines: list[str], repeat: int) -> tuple[float, float]:
    runs = [run(cmd, lines) for _ in range(repeat)]
    return min(r[0] for r in runs), min(r[1] for r in runs)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=4000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rng = random.Random(15)
    py = sys.executable
    floor_cmd = [py, "-c", FLOOR]
    judge_cmd = [py, "-m", "rules", "judge"]
    print(f"judge speed, {args.lines} lines per figure, best of {args.repeat} runs")
    for name, lines, target in [
        ("gin hands (10/11 cards)", gin_hands(rng, args.lines), 6.0),
        ("invalid melds", invalid_melds(rng, args.lines), 4.0),
        ("mixed (every check)", mixed(args.lines), None),
    ]:
        f_start, f_us = best(floor_cmd, lines, args.repeat)
        j_start, j_us = best(judge_cmd, lines, args.repeat)
        goal = f" (target ≤ {target:.0f}×)" if target else ""
        print(
            f"{name:26s} piped:      floor {f_us:7.1f} µs/line   judge {j_us:7.1f} µs/line   "
            f"ratio {j_us / f_us:5.1f}×{goal}"
        )
        fi, ji = min(in_process(lines) for _ in range(args.repeat))
        print(
            f"{'':26s} in-process: floor {fi:7.1f} µs/line   judge {ji:7.1f} µs/line   "
            f"ratio {ji / fi:5.1f}×"
        )
    print(
        f"start-up to first answer: judge {j_start:.0f} ms, floor {f_start:.0f} ms "
        f"(target ≤ 100 ms; the floor's own start-up shows the machine's load)"
    )


if __name__ == "__main__":
    main()
