"""Watching a long game (issue 9, "watching costs little"): prints figures, asserts nothing.

    .venv/bin/python benchmarks/bench_live.py [--rounds 1000] [--watchers 10] [--saves 5]
                                              [--profile save|open]

What is measured, and how. Every session is a real Flet ``Session`` (flet 1.0.5) in this
process, on one asyncio loop, as ``python -m app`` makes them for each browser tab: the page
patch of the register answer, ``App.start`` on the page, every later ``page.update()`` diffed
by Flet and packed with msgpack exactly as ``flet_web``'s WebSocket connection does (the bytes
are counted, then dropped: there is no browser and no socket). The sessions are made the way
``app.main`` makes them (``sharing.session_store`` / ``App`` / ``sharing.attach``), phones from
a network address (watchers: no join code), the host from loopback.

1. Opening a watcher's sheet (target ≤ 300 ms, ≤ 2 MB): from the register message to the
   score sheet packed for the client: session, page patch, ``App.start`` (store read,
   standings, screen, diff, msgpack), on the loop. Memory: ``tracemalloc``, the bytes the
   new session still holds after a ``gc.collect()`` (what it keeps for the hour Flet keeps a
   session whose phone left), and the peak while opening.
2. One save with ``--watchers`` phones watching the sheet (target ≤ 100 ms): the host's
   "Save round" as the app makes it (:class:`HostSave`: the click — the store write, the hub
   told, the page update — then, after the browser's round trip, the route change back to
   the sheet), and every watcher bringing its sheet up to date in its own task
   (``page.run_task``, as in the app). The loop stall is measured by a probe task on the same
   loop that wakes every millisecond: the longest gap between two of its wake-ups is the
   longest time any other phone's tap or message would have waited. Also printed: the time
   until the last watcher's sheet is up to date, the longest single loop callback, the bytes
   sent per watcher, the click and the route change apart, and how many times the standings
   were really totalled (not taken from a cache) in each save.
3. Paging back: "show earlier rounds" on the watcher's sheet, and its loop time.
4. Memory of one watcher after ``--saves`` more saves (it must not grow with the game).
5. A hostile visitor (target: others stalled ≤ 100 ms), against the app served for real
   (``python -m app`` in a child process, ``app/guard.py`` installed, as in
   ``tests/test_attack.py``, whose raw Flet client is used): a phone sends 10,000 events for
   control ids that do not exist, another a 16 MB text-field value, each from a process of its
   own. Meanwhile the host's session (opened before) sends a WebSocket ping every 5 ms: the
   server answers it in its event loop, so the longest answer is the longest time the loop
   kept the other sessions waiting. Printed with the same figures with nobody attacking.
   ``--no-attacks`` leaves this part out.

Ratios: each figure is also printed against a reference measured in the same run (packing a
plain 1,000-row list of dicts with msgpack), so runs on a loaded machine can be compared.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import os
import pstats
import shutil
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import msgpack  # noqa: E402
from flet.controls.base_control import BaseControl  # noqa: E402
from flet.messaging.connection import Connection  # noqa: E402
from flet.messaging.protocol import (  # noqa: E402
    Message,
    MessageAction,
    RegisterClientResponseBody,
    configure_encode_object_for_msgpack,
)
from flet.messaging.session import Session  # noqa: E402
from flet.pubsub.pubsub_hub import PubSubHub  # noqa: E402

from app import games as g  # noqa: E402
from app import live  # noqa: E402
from app.store import Store  # noqa: E402
from app.ui.shell import App  # noqa: E402
from app.ui.table import sharing  # noqa: E402

PLAYERS = ["Ala", "Ola", "Ela", "Jan"]
ENTRY = {
    "players": [
        {"name": "Ala", "winner": True},
        {"name": "Ola", "hand": ["R5", "JK"]},
        {"name": "Ela", "hand": ["B1", "B2"]},
        {"name": "Jan", "hand": ["K9"]},
    ]
}
PHONE = "192.168.1.{n}"
HOST = "127.0.0.1"
_ENCODE = configure_encode_object_for_msgpack(BaseControl)


class PackingConnection(Connection):
    """A connection that packs every message as flet_web does and counts the bytes."""

    def __init__(self, loop: asyncio.AbstractEventLoop, hub: PubSubHub) -> None:
        super().__init__()
        self.loop = loop
        self.pubsubhub = hub
        self.sent = 0
        self.messages = 0
        self.session: Session | None = None

    def send_message(self, message: Message) -> None:
        body = msgpack.packb([message.action, message.body], default=_ENCODE)
        self.sent += len(body) + 1
        self.messages += 1
        if message.action == MessageAction.INVOKE_METHOD and self.session is not None:
            # the browser answers a method call (storage, scrolling) at once, with nothing
            call = message.body
            self.loop.call_soon(
                self.session.handle_invoke_method_results, call.control_id, call.call_id, None, None
            )


class Probe:
    """A task waking every millisecond; ``worst`` is the longest gap seen (seconds)."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            self.worst = max(self.worst, now - last - 0.001)
            last = now

    def start(self) -> None:
        self.worst = 0.0
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> float:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        return self.worst


class CallbackTimer:
    """The longest single event-loop callback while installed (asyncio.Handle._run)."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._orig: Any = None

    def __enter__(self) -> CallbackTimer:
        import asyncio.events as ev

        self._orig = ev.Handle._run
        orig = self._orig
        timer = self

        def run(handle: Any) -> None:
            t = time.perf_counter()
            try:
                orig(handle)
            finally:
                timer.worst = max(timer.worst, time.perf_counter() - t)

        ev.Handle._run = run  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: Any) -> None:
        import asyncio.events as ev

        ev.Handle._run = self._orig  # type: ignore[method-assign]


def long_game(store: Store, rounds: int) -> g.Game:
    game = g.new_game("tile_rummy", PLAYERS)
    result = g.score_round(game, ENTRY)
    one = g.add_round(game, ENTRY, result).rounds[0]
    game.rounds = [one] * rounds
    assert not g.standings(game).finished
    return store.create_game(game)


async def open_session(
    store: Store, hub: live.Hub, pubsub: PubSubHub, ip: str, route: str
) -> tuple[Session, App, PackingConnection]:
    """A browser tab from ``ip`` opening ``route``, as flet_web and app.main make it."""
    loop = asyncio.get_running_loop()
    conn = PackingConnection(loop, pubsub)
    session = Session(conn)
    conn.session = session
    session.apply_page_patch({"route": route, "width": 390, "height": 844})
    conn.send_message(
        Message(
            MessageAction.REGISTER_CLIENT,
            RegisterClientResponseBody(
                session_id=session.id, page_patch=session.get_page_patch(), error=""
            ),
        )
    )
    page = session.page
    visitor = live.Visitor(ip=ip, host=ip == HOST)  # as app.main decides it, server side
    app = App(
        live.SessionStore(store, sharing.access_for(store), visitor, hub), page, language="en"
    )
    sharing.attach(app, hub)
    app.start()
    await session.after_event(page)
    return session, app, conn


async def settle() -> None:
    """Let every task scheduled so far run."""
    for _ in range(5):
        await asyncio.sleep(0)
    await asyncio.sleep(0.01)


class HostSave:
    """The host's "Save round" as the app does it, in the loop turns the app takes.

    Before (not measured): the host opens the round entry (``/game/<id>/round``) and its
    round is checked ("Show the scores": the judge's result). Measured: the click on "Save
    round" (``RoundEntry.save``: the store write, the hub told, the message, then Flet's
    update of the page), one turn of the loop; then the browser's route change back to the
    sheet (``App.go`` asks the browser, which answers a moment later: here after
    :attr:`ROUND_TRIP` s, in a turn of its own) and the sheet shown. The watchers' updates
    run in their own tasks meanwhile.
    """

    ROUND_TRIP = 0.005

    def __init__(self, host: App, session: Session, game_id: str) -> None:
        self.host = host
        self.session = session
        self.game_id = game_id
        self.click = 0.0
        self.back = 0.0
        self.shown = asyncio.Event()

        def go(route: str) -> None:  # the browser's round trip, then its route change
            async def later() -> None:
                await asyncio.sleep(self.ROUND_TRIP)
                t = time.perf_counter()
                host.show(route)
                await session.after_event(host.page)
                self.back = time.perf_counter() - t
                self.shown.set()

            asyncio.get_running_loop().create_task(later())

        host.go = go  # type: ignore[method-assign]

    async def prepare(self) -> Any:
        """The round entry open with the round checked; returns the entry screen."""
        self.host.show(f"/game/{self.game_id}/round")
        await self.session.after_event(self.host.page)
        entry: Any = self.host.screen
        entry.result = g.score_round(entry.game, ENTRY)
        self.shown.clear()
        return entry

    async def save(self, entry: Any) -> None:
        """The click (one loop turn), then wait for the sheet shown after the round trip."""
        t = time.perf_counter()
        entry.save()
        await self.session.after_event(self.host.page)
        self.click = time.perf_counter() - t
        await self.shown.wait()


@contextlib.contextmanager
def count_standings() -> Any:
    """Count the standings really totalled (not taken from a Game's cache) while inside:
    yields a one-item list."""
    n = [0]
    orig = g.standings

    def counting(game: g.Game) -> Any:
        before = game._cache
        result = orig(game)
        if game._cache is not before:
            n[0] += 1
        return result

    g.standings = counting  # type: ignore[assignment]
    try:
        yield n
    finally:
        g.standings = orig  # type: ignore[assignment]


def reference_ms() -> float:
    rows = [{"round": i, "scores": dict.fromkeys(PLAYERS, i)} for i in range(1000)]
    t = time.perf_counter()
    for _ in range(20):
        msgpack.packb(rows)
    return (time.perf_counter() - t) * 1000 / 20


async def bench(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-live-"))
    store = Store(folder / "games.json")
    try:
        hub = live.Hub()
        pubsub = PubSubHub(asyncio.get_running_loop())
        t = time.perf_counter()
        start_rounds = args.rounds - 2 * args.saves
        game = long_game(store, start_rounds)
        print(
            f"a Tile Rummy game of 4 players, {start_rounds} rounds, {args.saves} saves to "
            f"{start_rounds + args.saves} and {args.saves} more to {args.rounds} "
            f"(built in {time.perf_counter() - t:.1f} s)"
        )
        route = f"/game/{game.id}"
        gc.collect()
        tracemalloc.start()
        loaded = store.load_game(game.id)
        game_mb = tracemalloc.get_traced_memory()[0] / 2**20
        tracemalloc.stop()
        del loaded
        ref = reference_ms()
        print(f"reference: msgpack of 1,000 small rows {ref:.2f} ms")

        host, host_app, _hc = await open_session(store, hub, pubsub, HOST, route)
        await settle()

        # 1. opening a watcher's sheet
        opens: list[float] = []
        kept: list[float] = []
        peaks: list[float] = []
        sent: list[int] = []
        watchers: list[tuple[Session, App, PackingConnection]] = []
        profiler = cProfile.Profile() if args.profile == "open" else None
        for n in range(args.watchers):
            t = time.perf_counter()
            if profiler is not None:
                profiler.enable()
            w = await open_session(store, hub, pubsub, PHONE.format(n=20 + n), route)
            if profiler is not None:
                profiler.disable()
            opens.append(time.perf_counter() - t)
            await settle()
            sent.append(w[2].sent)
            watchers.append(w)
        for n in range(3):  # memory, apart: tracemalloc slows everything down several times
            gc.collect()
            tracemalloc.start()
            base = tracemalloc.get_traced_memory()[0]
            extra = await open_session(store, hub, pubsub, PHONE.format(n=100 + n), route)
            await settle()
            gc.collect()
            now, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            kept.append((now - base) / 2**20)
            peaks.append((peak - base) / 2**20)
            extra[0].page.on_close(None)  # type: ignore[misc]  # unsubscribe
            del extra
        assert all(type(w[1].screen).__name__ == "ScoreSheet" for w in watchers)
        med = statistics.median(opens) * 1000
        print(
            f"1. open a watcher's sheet, {args.rounds} rounds (target ≤ 300 ms, ≤ 2 MB): "
            f"median {med:.0f} ms ({med / ref:.0f}× ref), max {max(opens) * 1000:.0f} ms; "
            f"kept {statistics.median(kept):.2f} MB (max {max(kept):.2f}), "
            f"peak {statistics.median(peaks):.2f} MB; sent {statistics.median(sent) / 1024:.0f} KiB"
        )

        # 2. saves with the watchers watching
        probe = Probe()
        saver = HostSave(host_app, host, game.id)
        stalls: list[float] = []
        dones: list[float] = []
        worst_cb: list[float] = []
        per_watcher: list[float] = []
        clicks: list[float] = []
        backs: list[float] = []
        cpus: list[float] = []
        counted: list[int] = []
        profiler = cProfile.Profile() if args.profile == "save" else None
        for _ in range(args.saves):
            before = [w[2].sent for w in watchers]
            rounds_before = len(store.load_game(game.id).rounds)
            entry = await saver.prepare()
            await settle()
            probe.start()
            await asyncio.sleep(0.01)
            with CallbackTimer() as cb, count_standings() as totalled:
                t = time.perf_counter()
                if profiler is not None:
                    profiler.enable()
                cpu = time.thread_time()
                await asyncio.get_running_loop().create_task(saver.save(entry))
                while not all(len(w[1].screen.game.rounds) > rounds_before for w in watchers):
                    await asyncio.sleep(0.001)
                    if time.perf_counter() - t > 120:
                        raise RuntimeError("the watchers were not updated")
                if profiler is not None:
                    profiler.disable()
                dones.append(time.perf_counter() - t)
                cpus.append(time.thread_time() - cpu)
                await asyncio.sleep(0.01)
            counted.append(totalled[0])
            clicks.append(saver.click)
            backs.append(saver.back)
            stalls.append(await probe.stop())
            worst_cb.append(cb.worst)
            per_watcher.append(
                statistics.mean(w[2].sent - b for w, b in zip(watchers, before, strict=True))
            )
            hosts_sheet: Any = host_app.screen
            assert len(hosts_sheet.game.rounds) == rounds_before + 1
            assert all(  # every watcher shows the host's totals
                getattr(w[1].screen, "standings", None) == hosts_sheet.standings for w in watchers
            )
        med = statistics.median(stalls) * 1000
        print(
            f"2. one save, {args.watchers} watchers (target ≤ 100 ms): loop stall median "
            f"{med:.0f} ms ({med / ref:.0f}× ref), max {max(stalls) * 1000:.0f} ms; "
            f"all watchers up to date after {statistics.median(dones) * 1000:.0f} ms; "
            f"longest callback {statistics.median(worst_cb) * 1000:.0f} ms; "
            f"sent per watcher {statistics.median(per_watcher) / 1024:.1f} KiB\n"
            f"   the host's click on Save round (store write, page update) "
            f"{statistics.median(clicks) * 1000:.0f} ms; its sheet shown after the route "
            f"change {statistics.median(backs) * 1000:.0f} ms; standings totalled "
            f"{', '.join(map(str, counted))} time(s) in the saves; CPU time of the loop "
            f"thread for the whole save "
            f"{statistics.median(cpus) * 1000:.0f} ms"
        )
        if profiler is not None:
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)

        # 3. paging back on one watcher's sheet
        _s, wapp, wconn = watchers[0]
        sheet: Any = wapp.screen
        earlier = getattr(sheet, "show_earlier", None) or sheet.show_all_rounds
        probe.start()
        await asyncio.sleep(0.01)
        t = time.perf_counter()
        before_sent = wconn.sent

        async def page_back() -> None:
            earlier()
            await _s.after_event(wapp.page)

        await asyncio.get_running_loop().create_task(page_back())
        took = time.perf_counter() - t
        await asyncio.sleep(0.01)
        stall = await probe.stop()
        print(
            f"3. show earlier rounds on a watcher's sheet: {took * 1000:.0f} ms, loop stall "
            f"{stall * 1000:.0f} ms, sent {(wconn.sent - before_sent) / 1024:.0f} KiB, "
            f"rows now {len(getattr(sheet, 'round_rows', {}))}"
        )

        # 4. a watcher's memory after more saves
        gc.collect()
        tracemalloc.start()
        _s2, w2, _c2 = await open_session(store, hub, pubsub, PHONE.format(n=200), route)
        await settle()
        gc.collect()
        first = tracemalloc.get_traced_memory()[0]
        steps: list[float] = []
        for _ in range(args.saves):
            entry = await saver.prepare()
            await saver.save(entry)
            await settle()
            while any(
                len(w[1].screen.game.rounds) < len(host_app.screen.game.rounds)  # type: ignore[union-attr]
                for w in watchers
            ):
                await asyncio.sleep(0.005)
            gc.collect()
            steps.append((tracemalloc.get_traced_memory()[0] - first) / 2**20)
        everyone = [*watchers, (_s2, w2, _c2)]
        while any(len(w[1].screen.game.rounds) < args.rounds for w in everyone):
            await asyncio.sleep(0.005)  # the last updates, before the store closes
        later = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        print(
            f"4. traced memory of the whole process after each of {args.saves} more saves "
            f"({args.watchers + 1} watchers + host): "
            + ", ".join(f"{x:+.2f}" for x in steps)
            + f" MB (a stored {args.rounds}-round game loaded once takes {game_mb:.2f} MB)"
        )
        del later
        if args.profile == "open":
            prof = cProfile.Profile()
            prof.enable()
            await open_session(store, hub, pubsub, PHONE.format(n=201), route)
            prof.disable()
            pstats.Stats(prof).sort_stats("cumulative").print_stats(45)
    finally:
        store.close()
        shutil.rmtree(folder, ignore_errors=True)


# -- 5. a hostile visitor, against the served app ---------------------------------------------
def _attacker(ws: str, kind: str, address: str, game_id: str) -> None:
    """A visitor's phone (a process of its own, so that its work is not this one's)."""
    sys.path.insert(0, str(ROOT))
    from types import SimpleNamespace

    from tests.test_attack import EVENT, Raw

    async def run() -> None:
        srv: Any = SimpleNamespace(ws=ws)
        if kind.startswith("bogus"):
            phone = await Raw(srv, address).connect(route=f"/game/{game_id}")
            for n in range(int(kind[len("bogus") :])):
                await phone.send(EVENT, {"target": 10_000_000 + n, "name": "click", "data": None})
                if phone.closed.is_set():
                    break
        elif kind == "visit":
            phone = await Raw(srv, address).connect(route=f"/game/{game_id}")
            await phone.ws.close()
        else:
            phone = await Raw(srv, address).connect(route=f"/join?game={game_id}")
            field = phone.find("TextField")[0]
            await phone.props(field, {"value": "A" * (16 * 1024 * 1024)})
        await phone.wait(lambda: phone.closed.is_set(), 30)

    asyncio.run(run())


async def _pinged(ws: Any, stop: asyncio.Event) -> list[float]:
    """WebSocket pings on ``ws`` every 5 ms until ``stop``: each answer's delay (s). The
    server answers a ping in its event loop, so the delay is how long that loop kept the
    other sessions waiting."""
    delays: list[float] = []
    while not stop.is_set():
        t = time.perf_counter()
        pong = await ws.ping()
        await pong
        delays.append(time.perf_counter() - t)
        await asyncio.sleep(0.005)
    return delays


async def attacks() -> None:
    """A visitor sends 10,000 events for controls that do not exist (three times, each
    from a new address: the server's first visitor and later ones), 300 such events, opens
    a game's sheet and leaves, then another sends a 16 MB text-field value; the host's
    session (open before) is pinged meanwhile."""
    import multiprocessing

    from tests.test_attack import Raw, phone_address, serve, stop

    folder = Path(tempfile.mkdtemp(prefix="bench-attack-"))
    srv = serve(folder)
    try:
        witness = await Raw(srv, None).connect()
        calm = asyncio.Event()
        quiet = asyncio.get_running_loop().call_later(2.0, calm.set)
        base = await _pinged(witness.ws, calm)
        del quiet
        ctx = multiprocessing.get_context("spawn")
        for kind, what in (
            ("bogus10000", "10,000 bogus events"),
            ("bogus10000", "10,000 bogus events (again)"),
            ("bogus10000", "10,000 bogus events (a third time)"),
            ("bogus300", "300 bogus events"),
            ("visit", "nothing (opens a game's sheet and leaves)"),
            ("huge", "a 16 MB message"),
        ):
            done = asyncio.Event()
            pinger = asyncio.get_running_loop().create_task(_pinged(witness.ws, done))
            proc = ctx.Process(target=_attacker, args=(srv.ws, kind, phone_address(), srv.game_id))
            t = time.perf_counter()
            proc.start()
            await asyncio.get_running_loop().run_in_executor(None, proc.join, 120)
            took = time.perf_counter() - t
            await asyncio.sleep(0.2)
            done.set()
            delays = await pinger
            alive = await witness.alive()
            print(
                f"5. a visitor sending {what} (target: others stalled ≤ 100 ms): the host's "
                f"session answered a ping within {max(delays) * 1000:.0f} ms at worst "
                f"(median {statistics.median(delays) * 1000:.1f} ms, {len(delays)} pings; "
                f"calm: worst {max(base) * 1000:.0f} ms, median "
                f"{statistics.median(base) * 1000:.1f} ms); the attacker done in {took:.1f} s "
                f"(its process start included); the host's next screen {alive * 1000:.0f} ms"
            )
        await witness.close()
    finally:
        stop(srv)
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=1000)
    p.add_argument("--watchers", type=int, default=10)
    p.add_argument("--saves", type=int, default=5)
    p.add_argument("--profile", choices=["save", "open"], default=None)
    p.add_argument("--no-attacks", action="store_true", help="leave out 5. (the served app)")
    args = p.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    asyncio.run(bench(args))
    if not args.no_attacks:
        asyncio.run(attacks())


if __name__ == "__main__":
    main()
