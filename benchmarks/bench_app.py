"""App benchmark (issue 4): prints figures, asserts nothing.

    .venv/bin/python benchmarks/bench_app.py [--runs 3] [--rounds 200] [--games 500]

1. Start command to first rendered frame in headless Chromium (target ≤ 5 s): the time from
   starting ``python -m app --no-browser`` (a fresh process: imports, store, web server) to
   (a) the port accepting connections, (b) Flutter's glass pane in the page and (c) the first
   screen's "New game" button in the accessibility tree (the first frame people can use).
   Chromium is launched before the clock starts (it is not part of the app's start). A reload
   of the page on the running server is timed too.
2. The screens' own cost, no browser (``App(store)`` with no page): building the score sheet
   of a game of ``--rounds`` rounds, "save round" → the updated score sheet in that game
   (judge + store + standings + building the screen; target ≤ 100 ms), and building the games
   list over ``--games`` stored games (target ≤ 300 ms).
3. ``--taps``: taps per round at the table (issue 10), counted in headless Chromium at 360×740
   by ``tests/browser/test_entry_taps.py`` (run here; every click and every typed character is
   a tap): the gin knock round with both hands tapped on the card keys (target ≤ 25) and a
   Rummy 101 round of 4 players; and the turn checks (issue 10, point 8) counted by
   ``tests/browser/test_turn_taps.py``: the Tile Rummy rearrangement "took R6 off R3-R6, added
   R7 R8" (target ≤ 12) and a Rummy 101 lay-off after opening, each as the turn itself (rack,
   table after, "Check the turn", with the table before on the screen) and as the whole check
   (the table before tapped in too). Printed from the ``test-artifacts/taps.json`` the run
   writes.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def port_open(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


def first_frame(browser: Any, data: Path) -> dict[str, float]:
    """One cold start: seconds from the start command to each milestone."""
    port = free_port()
    env = dict(os.environ, CI="true")
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", "--port", str(port), "--data", str(data), "--no-browser"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    out: dict[str, float] = {}
    try:
        while not port_open(port):
            if proc.poll() is not None or time.perf_counter() - t0 > 60:
                raise RuntimeError("the app did not start")
            time.sleep(0.01)
        out["port open"] = time.perf_counter() - t0
        context = browser.new_context(viewport={"width": 360, "height": 740})
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}/")
        page.wait_for_selector("flt-glass-pane", state="attached", timeout=60_000)
        out["glass pane"] = time.perf_counter() - t0
        new_game = page.get_by_role("button", name="New game", exact=True)
        while True:
            ph = page.locator("flt-semantics-placeholder")
            if ph.count():
                ph.dispatch_event("click")
            if new_game.count():
                break
            if time.perf_counter() - t0 > 60:
                raise RuntimeError("no first screen")
            time.sleep(0.02)
        out["first screen"] = time.perf_counter() - t0
        t1 = time.perf_counter()
        page.reload()
        page.wait_for_selector("flt-glass-pane", state="attached", timeout=60_000)
        while True:
            ph = page.locator("flt-semantics-placeholder")
            if ph.count():
                ph.dispatch_event("click")
            if new_game.count():
                break
            time.sleep(0.02)
        out["reload"] = time.perf_counter() - t1
        context.close()
    finally:
        proc.terminate()
        proc.wait(10)
    return out


def bench_browser(runs: int) -> None:
    if not Path(CHROMIUM).exists():
        print(f"start → first frame: skipped ({CHROMIUM} missing)")
        return
    from playwright.sync_api import sync_playwright

    results: list[dict[str, float]] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for i in range(runs):
            folder = Path(tempfile.mkdtemp(prefix="bench-app-"))
            try:
                results.append(first_frame(browser, folder / "games.json"))
            finally:
                shutil.rmtree(folder, ignore_errors=True)
            print(f"  run {i + 1}: " + ", ".join(f"{k} {v:.2f} s" for k, v in results[-1].items()))
        browser.close()
    print(f"start command → first rendered frame in Chromium (median of {runs}, target ≤ 5 s):")
    for key in results[0]:
        values = [r[key] for r in results]
        print(f"  {key:13s} median {statistics.median(values):.2f} s   max {max(values):.2f} s")


def timed(fn: Any, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def bench_screens(rounds: int, n_games: int) -> None:
    from app import games as g
    from app.store import Store
    from app.ui.home.games_list import GamesList
    from app.ui.sheet.score_sheet import ScoreSheet
    from app.ui.shell import App

    entry = {
        "finish": "normal",
        "players": [
            {"name": "Ala", "winner": True},
            {"name": "Ola", "opened": "melds", "hand_value": 12, "jokers": 0},
            {"name": "Ela", "opened": "none"},
            {"name": "Jan", "opened": "pairs", "hand_value": 7, "jokers": 0},
        ],
    }
    folder = Path(tempfile.mkdtemp(prefix="bench-screens-"))
    try:
        store = Store(folder / "games.json")
        game = g.new_game("rummy101", ["Ala", "Ola", "Ela", "Jan"])
        result = g.score_round(game, entry)
        for _ in range(rounds):
            game = g.add_round(game, entry, result)
        game = store.create_game(game)
        app = App(store)

        def sheet() -> None:
            fresh = store.load_game(game.id)
            ScoreSheet(app, fresh)

        ms = timed(sheet, 10)
        print(
            f"score sheet of a {rounds}-round game (load + standings + build): "
            f"median {statistics.median(ms):.1f} ms, max {max(ms):.1f} ms"
        )

        current = [store.load_game(game.id)]

        def save_round() -> None:
            before = current[0]
            checked = g.score_round(before, entry)  # "Show the scores"
            new = g.add_round(before, entry, checked)  # "Save round"
            stored = store.save_game(new, before.version)
            current[0] = stored
            ScoreSheet(app, store.load_game(stored.id))  # the updated sheet

        ms = timed(save_round, 10)
        print(
            f"save round → updated score sheet, {rounds}+ rounds (target ≤ 100 ms): "
            f"median {statistics.median(ms):.1f} ms, max {max(ms):.1f} ms"
        )
        store.close()

        store = Store(folder / "many.json")
        small = g.new_game("gin", ["Ala", "Bob"])
        gin_entry = {
            "knocker": "Ala",
            "players": [{"name": "Ala", "deadwood": 9}, {"name": "Bob", "deadwood": 10}],
        }
        gin_result = g.score_round(small, gin_entry)
        for _ in range(40):
            small = g.add_round(small, gin_entry, gin_result)
        for _ in range(n_games):
            copy = g.new_game("gin", ["Ala", "Bob"])
            copy.rounds = list(small.rounds)
            store.create_game(copy)
        app = App(store)
        ms = timed(lambda: GamesList(app), 10)
        print(
            f"games list with {n_games} stored games of 40 rounds (target ≤ 300 ms): "
            f"median {statistics.median(ms):.1f} ms, max {max(ms):.1f} ms"
        )
        store.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


TAP_NAMES = {
    "gin_solo_round": "gin solo round (knock, cards turned, the hand tapped)",
    "gin_knock_round": "gin knock round, both hands as cards (target ≤ 25)",
    "rummy101_round_4_players": "Rummy 101 round, 4 players (winner, 3 openings, 1 rest typed, "
    "1 rack tapped)",
    "tile_rummy_turn_check": "Tile Rummy turn check: took R6 off R3-R6, added R7 R8; rack, "
    "table after and the check (target ≤ 12)",
    "tile_rummy_turn_check_total": "Tile Rummy turn check, the same with the table before "
    "(R3-R6, B9-B11) tapped in",
    "rummy101_turn_check": "Rummy 101 turn check: R6 laid off onto R3-R5 after opening; rack, "
    "table after and the check",
    "rummy101_turn_check_total": "Rummy 101 turn check, the same with the table before "
    "(R3-R5, B10-B12) tapped in",
    "rummy101_joker_retrieval": "Rummy 101 turn check: joker of R3 R4 JK taken for the R5; "
    "rack, table after and the check",
}


def bench_taps() -> None:
    """Run the tap-count browser test and print its counts."""
    import json

    taps_file = ROOT / "test-artifacts" / "taps.json"
    if taps_file.exists():
        taps_file.unlink()
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "tests/browser/test_entry_taps.py",
            "tests/browser/test_turn_taps.py",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        print("tap-count browser test failed:\n" + run.stdout[-2000:])
    got = json.loads(taps_file.read_text()) if taps_file.exists() else {}
    for key, taps in got.items():
        print(f"taps, {TAP_NAMES.get(key, key)}: {taps}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--rounds", type=int, default=200)
    p.add_argument("--games", type=int, default=500)
    p.add_argument("--no-browser", action="store_true", help="skip the Chromium figures")
    p.add_argument("--taps", action="store_true", help="only the taps per round (Chromium)")
    args = p.parse_args()
    if args.taps:
        bench_taps()
        return
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    if not args.no_browser:
        bench_browser(args.runs)
    bench_screens(args.rounds, args.games)


if __name__ == "__main__":
    main()
