"""Storage benchmark (issues 4 and 6): prints figures, asserts nothing.

    .venv/bin/python benchmarks/bench_store.py [--games 500] [--rounds 40] [--long 200]

Builds a store of ``--games`` games × ``--rounds`` rounds (a mix of the variants, each round a
real judge answer, so the files have their real size) in a temporary folder and measures:

- cold start: ``Store(path)`` on that data, in this process and in a new Python process
  (imports included), with and without the backup that is made at start when the newest one
  is older than 15 minutes;
- the games list: open + ``list_games()``, and ``list_games()`` on an open store;
- append a round: ``save_game`` alone (the storage cost; the standings shown before saving are
  reused for the index), and load → score → add → save;
- save round → updated standings in a game of ``--long`` rounds: score_round + add_round +
  save_game + standings;
- the layout not chosen: every game in the one TinyDB file (appending rewrites all of it),
  with the same atomic storage and with TinyDB's own JSONStorage;
- the player page (issue 12, ``--players-only`` for just that): ``app.stats.player_stats``
  cold and warm, and building the page.

Targets: append ≤ 20 ms median; games list ≤ 300 ms; save → standings ≤ 100 ms.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tinydb import TinyDB  # noqa: E402
from tinydb.storages import JSONStorage  # noqa: E402

from app import games as g  # noqa: E402
from app import store as store_mod  # noqa: E402
from app.store import AtomicJSONStorage, Store  # noqa: E402

# Gin and Carousel rounds here score little (1 and 4 points) so that appending rounds to a long
# game does not reach the target (100 / 150) during the measurement.
SAMPLES: dict[str, tuple[list[str], list[dict[str, Any]]]] = {
    "rummy101": (
        ["Ala", "Ola", "Ela", "Jan"],
        [
            {
                "finish": "normal",
                "players": [
                    {"name": "Ala", "winner": True},
                    {"name": "Ola", "opened": "melds", "hand": ["R5", "B7", "K9", "JK"]},
                    {"name": "Ela", "opened": "none", "hand": ["K1", "Y4", "Y5", "B12"]},
                    {"name": "Jan", "opened": "pairs", "hand_value": 23, "jokers": 0},
                ],
            },
        ],
    ),
    "tile_rummy": (
        ["Ala", "Ola", "Ela", "Jan"],
        [
            {
                "players": [
                    {"name": "Ala", "winner": True},
                    {"name": "Ola", "hand": ["R5", "JK", "B3", "B4"]},
                    {"name": "Ela", "hand": ["K1", "K2", "Y9", "Y10", "R13"]},
                    {"name": "Jan", "hand": ["B11"]},
                ]
            },
        ],
    ),
    "gin": (
        ["Ala", "Ola"],
        [
            {
                "knocker": "Ala",
                "players": [
                    {
                        "name": "Ala",
                        "hand": ["AS", "2S", "3S", "7H", "7D", "7C", "9C", "TC", "JC", "4D"],
                    },
                    {
                        "name": "Ola",
                        "hand": ["KS", "KH", "KD", "QS", "QH", "QD", "JS", "JH", "JD", "5H"],
                    },
                ],
            },
        ],
    ),
    "carousel": (
        ["Ala", "Ola", "Ela", "Jan", "Iza"],
        [
            {
                "knocker": "Ala",
                "players": [
                    {"name": "Ala", "hand": ["AS", "2D"]},
                    {"name": "Ola", "hand": ["2S", "2H"]},
                    {"name": "Ela", "hand": ["4C"]},
                    {"name": "Jan", "hand": ["3D", "AC"]},
                    {"name": "Iza", "hand": ["3C", "AH"]},
                ],
            },
        ],
    ),
}


def scored_rounds() -> dict[str, tuple[list[str], list[g.Round]]]:
    """One real judge-scored round per variant that the engine can score right now."""
    out: dict[str, tuple[list[str], list[g.Round]]] = {}
    for variant, (players, entries) in SAMPLES.items():
        game = g.new_game(variant, players)
        rounds = []
        for e in entries:
            r = g.score_round(game, e)
            if r.valid:
                rounds.append(g.Round(r.entry, dict(r.breakdown), r.winners, g.now_iso()))
            else:
                print(f"  ({variant} skipped: {r.reason}: {r.message})")
        if rounds:
            out[variant] = (players, rounds)
    if not out:
        sys.exit("no variant can score a round yet")
    return out


def make_game(variant: str, players: list[str], rounds: list[g.Round], n: int) -> g.Game:
    # gin/carousel would end at their target long before 40 rounds: zero scores keep them open
    game = g.new_game(variant, players)
    out = []
    for i in range(n):
        r = rounds[i % len(rounds)]
        if variant in ("gin", "carousel"):
            r = dataclasses.replace(r, result={**r.result, "scores": dict.fromkeys(players, 0)})
        out.append(dataclasses.replace(r, time=g.now_iso()))
    game.rounds = out
    return game


def median_ms(fn: Callable[[], object], times: int) -> tuple[float, float]:
    """(median, max) milliseconds of ``times`` calls."""
    ts = []
    for _ in range(times):
        t = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t) * 1000)
    return statistics.median(ts), max(ts)


def _save_round_step(s: Store, game: g.Game, entry: dict[str, Any]) -> Callable[[], None]:
    """score → add → save → standings, each call on the game the previous call saved."""
    holder = [game]

    def step() -> None:
        result = g.score_round(holder[0], entry)
        new = s.save_game(g.add_round(holder[0], entry, result))
        g.standings(new)
        holder[0] = new

    return step


def _single_file_append(table: Any, one: dict[str, Any], rng: random.Random) -> Callable[[], None]:
    doc_ids = [d.doc_id for d in table.all()]

    def step() -> None:
        did = rng.choice(doc_ids)
        doc = table.get(doc_id=did)
        table.update({"rounds": [*doc["rounds"], one]}, doc_ids=[did])

    return step


def fsync_probe(folder: Path, times: int = 30) -> float:
    """Median ms of one fsync of a 50 kB file here: how busy the disk is during this run."""
    probe = folder / "fsync-probe"
    ts = []
    for _ in range(times):
        with open(probe, "wb") as f:
            f.write(b"x" * 50_000)
            f.flush()
            t = time.perf_counter()
            os.fsync(f.fileno())
            ts.append((time.perf_counter() - t) * 1000)
    probe.unlink()
    return statistics.median(ts)


def player_page(base: Path, n_games: int, n_rounds: int) -> None:
    """Issue 12: open a player page (app.stats.player_stats + the screen) on ``n_games``
    finished games × ``n_rounds`` rounds, six people seated by turns. Cold: nothing cached (each
    game of the person loaded and its standings asked of the judge once); warm: the per-game
    facts kept in memory by id + version. Target ≤ 100 ms to open."""
    from app import stats
    from app.ui.home.players import PlayerScreen
    from app.ui.shell import App

    people = ["Ala", "Ola", "Ela", "Jan", "Iza", "Piotr"]
    tile = {"players": [{"name": "A", "winner": True}, {"name": "B", "hand": ["R5", "B7"]}]}
    path = base / "players.json"
    t0 = time.perf_counter()
    with Store(path) as s:
        s.backup_every = 10**9
        s.backup_interval = 1e12
        for i in range(n_games):
            a, b = people[i % 6], people[(i // 6 + i + 1) % 6]
            if a == b:
                b = people[(i + 2) % 6]
            game = g.new_game("tile_rummy", [a, b], agreed_rounds=n_rounds)
            one = {"players": [{**tile["players"][0], "name": a if i % 3 else b}]}
            one["players"].append({**tile["players"][1], "name": b if i % 3 else a})
            r = g.score_round(game, one)
            game.rounds = [g.Round(r.entry, dict(r.breakdown), r.winners, g.now_iso())] * n_rounds
            s.create_game(game)
    print(
        f"\nplayer page (issue 12): {n_games} finished games × {n_rounds} rounds, "
        f"6 people (built in {time.perf_counter() - t0:.1f} s)"
    )
    with Store(path) as s:
        app = App(s)

        def cold() -> None:
            stats.CACHE.forget()
            stats.player_stats(s, "ala")

        m, mx = median_ms(cold, 3)
        n = stats.player_stats(s, "ala").played
        print(
            f"  player_stats, cold (loads {n} games):     median {m:7.1f} ms  (max {mx:.1f})"
            "  (first page of a person after the server starts)"
        )
        m, mx = median_ms(lambda: stats.player_stats(s, "ala"), 20)
        print(f"  player_stats, warm (facts cached):       median {m:7.1f} ms  (max {mx:.1f})")
        m, mx = median_ms(lambda: PlayerScreen(app, "ala"), 20)
        print(
            f"  open the player page (stats + screen):   median {m:7.1f} ms  (max {mx:.1f})"
            "  target ≤ 100"
        )
        print(f"  facts kept in memory: {len(stats.CACHE)} games")


LONG_PLAYERS = ["Ala", "Ola", "Ela", "Jan"]
LONG_ENTRY: dict[str, Any] = {
    "players": [
        {"name": "Ala", "winner": True},
        {"name": "Ola", "hand": ["R5", "JK"]},
        {"name": "Ela", "hand": ["B1", "B2"]},
        {"name": "Jan", "hand": ["K9"]},
    ]
}


def long_save(base: Path, n_rounds: int, times: int = 15) -> None:
    """Issue 9: ``Store.save_game`` of one more round on a game of ``n_rounds`` (the 1,000-round
    game of ``bench_live.py``: Tile Rummy, every round its own Round object), as a ratio to a
    plain ``json.dumps`` of the same game (the whole game file, encoded at once) measured in the
    same run, with the standings of the new game already totalled by the caller (the UI shows
    them before saving) and without; then a cProfile of the save."""
    import cProfile
    import io
    import pstats

    print(f"\nsave one more round to a game of {n_rounds} rounds (issue 9)")
    path = base / "long-save.json"
    with Store(path) as s:
        s.backup_every = 10**9
        s.backup_interval = 1e12
        game = g.new_game("tile_rummy", LONG_PLAYERS)
        result = g.score_round(game, LONG_ENTRY)
        one = g.add_round(game, LONG_ENTRY, result).rounds[0]
        game.rounds = [dataclasses.replace(one, time=g.now_iso()) for _ in range(n_rounds - 1)]
        assert not g.standings(game).finished
        stored = s.save_game(s.create_game(game))  # the first save after a create or a load
        holder = [stored]

        def next_game(total: bool) -> g.Game:
            # the oldest round dropped first, to stay at n_rounds (MAX_ROUNDS is 1,000)
            kept = dataclasses.replace(holder[0], rounds=holder[0].rounds[1:])
            new = g.add_round(kept, LONG_ENTRY, result)
            if total:
                g.standings(new)
            return new

        def plain(game: g.Game = stored) -> bytes:
            doc = g.game_to_dict(game)
            doc["schema"] = store_mod.SCHEMA_VERSION
            return json.dumps(
                {"game": {"1": doc}}, ensure_ascii=False, separators=(",", ":")
            ).encode("utf-8")

        size = len(plain()) / 1024**2
        rows: list[tuple[str, float, float]] = []
        for label, total in (
            ("standings totalled before", True),
            ("standings not totalled", False),
        ):
            ts = []
            for _ in range(times):
                new = next_game(total)
                t = time.perf_counter()
                holder[0] = s.save_game(new)
                ts.append((time.perf_counter() - t) * 1000)
            rows.append((label, statistics.median(ts), max(ts)))
        ref, _ = median_ms(lambda: plain(holder[0]), times)
        fsync = fsync_probe(base, 10)
        print(
            f"  reference: json.dumps of the whole game ({size:.1f} MB)  median {ref:7.1f} ms; "
            f"one fsync of 50 kB here {fsync:.1f} ms"
        )
        for label, m, mx in rows:
            print(
                f"  save_game, {label:<26} median {m:7.1f} ms  (max {mx:.1f})  "
                f"= {m / ref:.2f} × the json.dumps"
            )
        prof = cProfile.Profile()
        for _ in range(5):
            new = next_game(False)
            prof.enable()
            holder[0] = s.save_game(new)
            prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(14)
        print("  cProfile of 5 saves (standings not totalled before), by cumulative time:")
        keep = False
        for line in out.getvalue().splitlines():
            keep = keep or line.lstrip().startswith("ncalls")
            if keep and line.strip():
                print("   ", line[:150])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--long", type=int, default=200)
    ap.add_argument("--dir", type=Path, default=None, help="folder to build in (default: temp)")
    ap.add_argument("--players-only", action="store_true", help="only the player page")
    ap.add_argument("--save-long", type=int, default=1000, help="rounds of the long-save game")
    ap.add_argument("--save-only", action="store_true", help="only the long-game save")
    args = ap.parse_args()
    base = args.dir or Path(tempfile.mkdtemp(prefix="bench-store-"))
    if args.save_only:
        long_save(base, args.save_long)
        return
    if args.players_only:
        player_page(base, args.games, args.rounds)
        return
    path = base / "rummy.json"
    rng = random.Random(4)

    print(f"building {args.games} games × {args.rounds} rounds in {base} …")
    samples = scored_rounds()
    variants = list(samples)
    t0 = time.perf_counter()
    ids: list[str] = []
    with Store(path) as s:
        s.backup_every = 10**9
        s.backup_interval = 1e12
        for i in range(args.games):
            v = variants[i % len(variants)]
            players, rounds = samples[v]
            ids.append(s.create_game(make_game(v, players, rounds, args.rounds)).id)
        s.backup_now("bench")
    build = time.perf_counter() - t0
    sizes = [os.path.getsize(path.parent / "rummy.json.games" / f"{i}.json") for i in ids]
    print(f"  built in {build:.1f} s; variants {', '.join(variants)}")
    print(
        f"  index {os.path.getsize(path) / 1024:.0f} kB; game files median "
        f"{statistics.median(sizes) / 1024:.1f} kB, total {sum(sizes) / 1024**2:.1f} MB"
    )

    print("\ncold start (open the store)")

    def open_close() -> None:
        Store(path).close()

    m, mx = median_ms(open_close, 7)
    print(f"  Store(path), in process:                 median {m:7.1f} ms  (max {mx:.1f})")
    Store.backup_interval = 0
    m, mx = median_ms(open_close, 3)
    Store.backup_interval = 15 * 60
    print(f"  … with the start-up backup due:          median {m:7.1f} ms  (max {mx:.1f})")
    code = (
        "import time; t=time.perf_counter(); from app.store import Store; "
        f"s=Store({str(path)!r}); "
        "n=len(s.list_games()); print((time.perf_counter()-t)*1000, n); s.close()"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = []
    for _ in range(3):
        t = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            check=True,
        )
        procs.append(((time.perf_counter() - t) * 1000, float(out.stdout.split()[0])))
    print(
        f"  new process: imports + open + list:      median "
        f"{statistics.median(p[1] for p in procs):7.1f} ms  (whole process "
        f"{statistics.median(p[0] for p in procs):.0f} ms)"
    )

    print("\ngames list")

    def open_list() -> None:
        with Store(path) as s:
            assert len(s.list_games()) == args.games

    m, mx = median_ms(open_list, 5)
    print(
        f"  open + list_games():                     median {m:7.1f} ms  (max {mx:.1f})"
        "  target ≤ 300"
    )
    s = Store(path)
    s.backup_interval = 1e12
    s.backup_every = 10**9
    m, mx = median_ms(s.list_games, 20)
    print(f"  list_games() on an open store:           median {m:7.1f} ms  (max {mx:.1f})")

    print(f"\nappend a round ({args.games} games × {args.rounds} rounds stored)")
    print(
        f"  (disk: one fsync takes {fsync_probe(base):.1f} ms now; a save does 2, plus "
        f"{os.cpu_count()} CPUs shared with whatever else runs; load {os.getloadavg()[0]:.1f})"
    )
    loaded = {gid: s.load_game(gid) for gid in rng.sample(ids, 40)}
    prepared = []
    for game in loaded.values():
        v = game.variant
        entry = samples[v][1][0].entry
        prepared.append(g.add_round(game, entry))
        g.standings(prepared[-1])  # the UI shows the standings before saving
    it = iter(prepared)
    m, mx = median_ms(lambda: s.save_game(next(it)), len(prepared))
    print(
        f"  save_game (storage only):                median {m:7.1f} ms  (max {mx:.1f})"
        "  target ≤ 20"
    )

    def full_append() -> None:
        gid = rng.choice(ids)
        game = s.load_game(gid)
        entry = samples[game.variant][1][0].entry
        result = g.score_round(game, entry)
        s.save_game(g.add_round(game, entry, result))

    m, mx = median_ms(full_append, 40)
    print(f"  load + score + add + save:               median {m:7.1f} ms  (max {mx:.1f})")
    m, mx = median_ms(lambda: s.load_game(rng.choice(ids)), 40)
    print(f"  load_game:                               median {m:7.1f} ms  (max {mx:.1f})")

    print(f"\nsave round → updated standings, game of {args.long} rounds")
    for v in variants:
        players, rounds = samples[v]
        game = s.create_game(make_game(v, players, rounds, args.long))
        entry = samples[v][1][0].entry
        g.standings(game)
        save_round = _save_round_step(s, game, entry)
        m, mx = median_ms(save_round, 20)
        size = os.path.getsize(s.games_dir / f"{game.id}.json") / 1024
        print(
            f"  {v:<11} score+add+save+standings:   median {m:7.1f} ms  (max {mx:.1f})  "
            f"target ≤ 100   [file {size:.0f} kB]"
        )
        fresh = s.load_game(game.id)
        m, _ = median_ms(lambda fresh=fresh: g.standings(dataclasses.replace(fresh)), 10)
        print(f"  {'':<11} standings alone (judge game): median {m:7.1f} ms")

    n_backups = store_mod.MAX_BACKUPS
    print(f"\nrestore a damaged game of {args.long} rounds from {n_backups} backups (issue 9)")
    players, rounds = samples["rummy101"]
    game = s.create_game(make_game("rummy101", players, rounds, args.long))
    for _ in range(n_backups):  # every backup holds another version of it
        game = s.save_game(g.add_round(game, rounds[0].entry))
        s.backup_now("bench")
    gfile = s.games_dir / f"{game.id}.json"

    def damaged_load() -> None:
        gfile.write_bytes(b"{")
        assert s.load_game(game.id).version == game.version
        s.dismiss_notices()

    m, mx = median_ms(damaged_load, 5)
    raw = (s.backups()[0] / "games" / gfile.name).read_bytes()
    one, _ = median_ms(lambda: Store._parse_game(raw, game.id), 5)
    print(
        f"  load_game of a damaged file (restores):  median {m:7.1f} ms  (max {mx:.1f})  "
        f"= {m / one:.1f} × reading one copy ({one:.1f} ms): each backup's copy is parsed "
        "for its version (the newest content wins), then the file and index written"
    )
    s.close()

    print("\nthe layout not chosen: all games in one TinyDB file")
    docs = []
    for gid in ids:
        raw = json.loads((path.parent / "rummy.json.games" / f"{gid}.json").read_text())
        docs.append(raw["game"]["1"])
    for label, storage in (
        ("atomic storage", AtomicJSONStorage),
        ("TinyDB JSONStorage", JSONStorage),
    ):
        single = base / f"single-{storage.__name__}.json"
        if storage is AtomicJSONStorage:
            db = TinyDB(storage=lambda single=single: AtomicJSONStorage(single))
        else:
            db = TinyDB(single, storage=storage)
        table = db.table("games")
        table.insert_multiple(docs)
        append_single = _single_file_append(table, docs[0]["rounds"][0], rng)
        m, mx = median_ms(append_single, 10)
        print(
            f"  append, {label:<19}             median {m:7.1f} ms  (max {mx:.1f})  "
            f"[file {single.stat().st_size / 1024**2:.1f} MB]"
        )
        db.close()
    player_page(base, args.games, args.rounds)
    long_save(base, args.save_long)
    if args.dir is None:
        import shutil

        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
