"""Judge speed against a floor (issue 15, step 8; prints figures, no pass/fail).

In one run, on the same request lines, over several rounds in which the judge and the floor
take turns (so a load spike from another process hits both, not one):

- the floor: a bare Python process that does ``json.loads`` + ``json.dumps`` per line and
  writes it back (what any JSON Lines judge must at least do);
- ``python -m rules judge`` on gin ``hand`` requests (10 and 11 cards, half each), on invalid
  melds (Tile Rummy) and on a mix of every check (the characterisation sample);
- piped: µs per line of a whole process fed through a pipe (wall time from the first answer to
  the last, divided by the lines after the first);
- in-process: µs per line of :func:`rules.judge.answer_line` + :func:`rules.judge.dumps`
  against ``json.loads`` + ``json.dumps`` in one process, alternating in blocks of 250 lines
  (no pipes: the least noisy ratio on a loaded machine), as wall time and as the process's CPU
  time (which a busy machine's other processes do not add to);
- start-up to the first answer: wall time from process start until the first answer line
  (a gin hand) is read (ms), judge and floor, with the modules' bytecode compiled (in a
  temporary ``PYTHONPYCACHEPREFIX``, as an installed judge has it); also the judge compiling
  every module from source.

Each figure is the median over the rounds; each ratio is the median of the per-round ratios
(judge / floor measured back to back). Targets (issue 15): gin hands ≤ 6× the floor, an invalid
meld ≤ 4×, start-up ≤ 100 ms.

Usage, from the project root::

    nice -n 10 .venv/bin/python benchmarks/bench_judge.py [--lines N] [--rounds R]
        [--root DIR]     # time another tree's ``rules`` (e.g. a copy from before a change)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLOOR = (
    "import sys, json\n"
    "w = sys.stdout.write\n"
    "for line in sys.stdin.buffer:\n"
    "    w(json.dumps(json.loads(line), ensure_ascii=False, separators=(',', ':')) + '\\n')\n"
)
IN_PROCESS = """
import json, sys, time
from rules.judge import answer_line, dumps
lines = json.loads(sys.stdin.read())
errors = 0
for line in lines[:300]:  # warm up: imports, tables
    errors += dumps(answer_line(line)).startswith('{"ok":false')
wall = [0.0, 0.0]
cpu = [0.0, 0.0]
block = 250
for i in range(0, len(lines), block):  # alternate in blocks, floor first then judge
    part = lines[i : i + block]
    w0, c0 = time.perf_counter(), time.process_time()
    for line in part:
        json.dumps(json.loads(line), ensure_ascii=False, separators=(",", ":"))
    w1, c1 = time.perf_counter(), time.process_time()
    for line in part:
        dumps(answer_line(line))
    w2, c2 = time.perf_counter(), time.process_time()
    wall[0] += w1 - w0
    wall[1] += w2 - w1
    cpu[0] += c1 - c0
    cpu[1] += c2 - c1
per = 1e6 / len(lines)
out = {"wall": [x * per for x in wall], "cpu": [x * per for x in cpu], "errors": errors}
print(json.dumps(out))
"""
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [f"{r}{s}" for r in RANKS for s in "SHDC"]


def gin_hands(rng: random.Random, n: int) -> list[str]:
    """``n`` gin ``hand`` requests: random hands of 10 and 11 cards, alternately."""
    out = []
    for i in range(n):
        hand = rng.sample(DECK, 10 if i % 2 == 0 else 11)
        out.append(json.dumps({"check": "hand", "variant": "gin", "hand": hand}))
    return out


def invalid_melds(rng: random.Random, n: int) -> list[str]:
    """``n`` Tile Rummy ``meld`` requests that are not melds (a gap, often a colour change)."""
    out = []
    for _ in range(n):
        c = rng.choice("RBKY")
        a = rng.randint(1, 9)
        meld = [f"{c}{a}", f"{c}{a + 1}", f"{rng.choice('RBKY')}{a + 3}"]
        out.append(json.dumps({"check": "meld", "variant": "tile_rummy", "meld": meld}))
    return out


def mixed(n: int) -> list[str]:
    """``n`` requests cycling through the characterisation sample (every check and variant)."""
    path = ROOT / "tests" / "data" / "characterisation.jsonl"
    reqs = [json.loads(line)["request"] for line in path.read_text("utf-8").splitlines()]
    return [json.dumps(reqs[i % len(reqs)], ensure_ascii=False) for i in range(n)]


PYCACHE = Path(tempfile.gettempdir()) / "bench_judge_pyc"
"""Bytecode of the timed tree, kept out of it: an installed judge starts from compiled
modules (the floor's standard library is compiled too), even where the environment sets
``PYTHONDONTWRITEBYTECODE``."""


def _env(root: Path, compiled: bool = True) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(root))
    if compiled:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"  # the tree's own modules compiled each start
        env.pop("PYTHONPYCACHEPREFIX", None)
    return env


def piped(
    cmd: list[str], lines: list[str], root: Path, all_ok: bool = False, compiled: bool = True
) -> tuple[float, float]:
    """One process fed ``lines`` through a pipe: (start-up ms to the first answer, wall µs per
    line from the first answer to the last).

    ``all_ok``: fail unless every answer is ``ok: true`` (a broken tree answering errors fast
    would look quick)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(
        cmd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=root,
        env=_env(root, compiled),
        bufsize=0,
    )
    assert p.stdin is not None and p.stdout is not None
    p.stdin.write((lines[0] + "\n").encode())
    p.stdout.readline()
    t1 = time.perf_counter()
    rest = "".join(line + "\n" for line in lines[1:]).encode()

    def feed() -> None:
        assert p.stdin is not None
        p.stdin.write(rest)
        p.stdin.close()

    writer = threading.Thread(target=feed)
    writer.start()
    got = bytearray()
    want = len(lines) - 1
    answered = 0
    while answered < want:  # until the last answer (not the process's exit)
        part = p.stdout.read(1 << 16)  # unbuffered: one read of what is there
        if not part:
            break
        got += part
        answered += part.count(b"\n")
    t2 = time.perf_counter()
    writer.join()
    got += p.stdout.read()
    p.wait()
    out = bytes(got)
    assert out.count(b"\n") == want, "an answer is missing"
    if all_ok and b'{"ok":false' in out:
        bad = next(a for a in out.splitlines() if a.startswith(b'{"ok":false'))
        raise SystemExit(f"{' '.join(cmd)}: an answer is an error: {bad[:300]!r}")
    return (t1 - t0) * 1e3, (t2 - t1) / want * 1e6


def in_process(lines: list[str], root: Path, all_ok: bool = False) -> dict[str, list[float]]:
    """``{"wall": [floor, judge], "cpu": [floor, judge]}`` in µs per line, measured in one
    fresh process (see :data:`IN_PROCESS`); ``all_ok``: fail if one of the first 300 answers is
    an error."""
    out = subprocess.run(
        [sys.executable, "-c", IN_PROCESS],
        input=json.dumps(lines),
        capture_output=True,
        text=True,
        cwd=root,
        env=_env(root),
        check=True,
    ).stdout
    got = json.loads(out)
    if all_ok and got["errors"]:
        raise SystemExit(f"in-process: {got['errors']} of the first 300 answers are errors")
    return {"wall": got["wall"], "cpu": got["cpu"]}


def _med(xs: list[float]) -> float:
    return statistics.median(xs)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--root", type=Path, default=ROOT, help="tree whose rules/ is timed")
    args = ap.parse_args()
    root = args.root.resolve()
    rng = random.Random(15)
    py = sys.executable
    floor_cmd = [py, "-c", FLOOR]
    judge_cmd = [py, "-m", "rules", "judge"]
    loads = [
        ("gin hands (10/11 cards)", gin_hands(rng, args.lines), 6.0),
        ("invalid melds", invalid_melds(rng, args.lines), 4.0),
        ("mixed (every check)", mixed(args.lines), None),
    ]
    print(
        f"judge speed ({root}): {args.lines} lines per figure, median of {args.rounds} rounds, "
        "judge and floor taking turns"
    )
    piped(judge_cmd, mixed(500), root)  # compiles every module into PYCACHE
    starts: dict[str, list[float]] = {"judge": [], "floor": []}
    for name, lines, target in loads:
        fig: dict[str, dict[str, list[float]]] = {
            k: {"floor": [], "judge": [], "ratio": []}
            for k in ("piped wall", "in-process wall", "in-process CPU")
        }

        for r in range(args.rounds):
            order = [("floor", floor_cmd), ("judge", judge_cmd)]
            if r % 2:
                order.reverse()  # neither always goes first
            wall: dict[str, float] = {}
            for who, cmd in order:
                start, us = piped(cmd, lines, root, all_ok=target is not None)
                wall[who] = us
                if lines is loads[0][1]:
                    starts[who].append(start)
            inp = in_process(lines, root, all_ok=target is not None)
            for kind, (floor, judge) in [
                ("piped wall", (wall["floor"], wall["judge"])),
                ("in-process wall", inp["wall"]),
                ("in-process CPU", inp["cpu"]),
            ]:
                fig[kind]["floor"].append(floor)
                fig[kind]["judge"].append(judge)
                fig[kind]["ratio"].append(judge / floor)
        goal = f"  (target ≤ {target:.0f}×)" if target else ""
        for i, (kind, f) in enumerate(fig.items()):
            print(
                f"{name if i == 0 else '':24s} {kind:16s} floor {_med(f['floor']):6.1f} µs/line"
                f"  judge {_med(f['judge']):6.1f} µs/line  ratio {_med(f['ratio']):5.1f}× "
                f"[{min(f['ratio']):.1f}–{max(f['ratio']):.1f}]{goal if i == 0 else ''}"
            )
    cold = [piped(judge_cmd, loads[0][1][:2], root, compiled=False)[0] for _ in range(3)]
    print(
        f"start-up to first answer (a gin hand): judge {_med(starts['judge']):.0f} ms "
        f"[{min(starts['judge']):.0f}–{max(starts['judge']):.0f}], floor "
        f"{_med(starts['floor']):.0f} ms (target ≤ 100 ms; the floor's own start-up shows "
        f"the machine's load); judge compiling every module (no bytecode): {_med(cold):.0f} ms"
    )


if __name__ == "__main__":
    main()
