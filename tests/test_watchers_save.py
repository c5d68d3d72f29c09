"""A save with phones watching (issue 9, "watching costs little"): the saved game is totalled
once and read back by nobody, every watching sheet gets the new row in place, the sessions
take turns on the event loop, and after any mix of saves, edits, deletes and undos every
watcher shows what the host shows.

Sessions are real Flet sessions on a packing connection, as in tests/test_watchers.py. Scores:
Tile Rummy (RULES.md §4), worked out there: ALA is Ala +38, Ola −35, Ela −3; ELA is Ela +12,
Ala −9, Ola −3.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from flet.messaging.protocol import Message, MessageAction, RegisterClientResponseBody
from flet.messaging.session import Session

from app import games, live
from app.games import Game
from app.store import Store
from app.ui.sheet.score_sheet import SHOWN_ROUNDS, ScoreSheet
from app.ui.shell import App
from app.ui.table import sharing
from tests.test_watchers import ALA, ELA, PackingConnection, long_game, sheet_print, watcher

pytestmark = pytest.mark.usefixtures("fresh_shared")


def session(store: Store, hub: live.Hub, route: str, ip: str) -> tuple[App, Session]:
    """A browser tab from ``ip`` (loopback: the host) on ``route``, as app.main makes it."""
    conn = PackingConnection(asyncio.get_running_loop())
    s = Session(conn)
    s.apply_page_patch({"route": route})
    body = RegisterClientResponseBody(session_id=s.id, page_patch=s.get_page_patch(), error="")
    conn.send_message(Message(MessageAction.REGISTER_CLIENT, body))
    visitor = live.Visitor(ip=ip, host=ip == "127.0.0.1")
    app = App(live.SessionStore(store, sharing.access_for(store), visitor, hub), s.page)
    sharing.attach(app, hub)
    app.start()
    return app, s


async def turns(n: int = 30) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


async def until(cond: Callable[[], bool], tries: int = 20_000) -> bool:
    """Let the loop run (the sessions take turns, a millisecond apart) until ``cond``."""
    for _ in range(tries):
        if cond():
            return True
        await asyncio.sleep(0.001)
    return cond()


def shows(apps: list[tuple[App, Session]], version: int) -> Callable[[], bool]:
    def shown(app: App) -> int | None:
        game = getattr(app.screen, "game", None)
        return game.version if isinstance(game, Game) else None

    return lambda: all(shown(a) == version for a, _s in apps)


class Counting:
    """Counts the standings really totalled (a Game's cache filled anew) and the games read
    from the store while installed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, store: Store) -> None:
        self.totalled = 0
        self.loads = 0
        standings, load = games.standings, store.load_game

        def counting_standings(game: Game) -> games.Standings:
            before = game._cache
            result = standings(game)
            if game._cache is not before:
                self.totalled += 1
            return result

        def counting_load(game_id: str) -> Game:
            self.loads += 1
            return load(game_id)

        monkeypatch.setattr(games, "standings", counting_standings)
        monkeypatch.setattr(store, "load_game", counting_load)


def host_saves(host: App, change: Callable[[Game], Game]) -> Game:
    """What a screen of the host does: change the game its sheet shows, save it
    (``sharing.save``), and show the sheet again (the router, after the browser's route
    change)."""
    sheet = host.screen
    assert isinstance(sheet, ScoreSheet)
    base = sheet.game
    stored = sharing.save(host, change(base), base.version, base)
    assert stored is not None
    host.show(f"/game/{base.id}")
    return stored


@pytest.mark.slow
def test_a_save_is_totalled_once_and_read_back_by_nobody(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = long_game(store, 200)
    hub = live.Hub()

    async def run() -> None:
        route = f"/game/{game.id}"
        host, _hs = session(store, hub, route, "127.0.0.1")
        phones = [session(store, hub, route, f"192.168.1.{30 + n}") for n in range(4)]
        await turns()
        count = Counting(monkeypatch, store)
        stored = host_saves(host, lambda g: games.add_round(g, ELA))
        assert await until(shows(phones, stored.version))
        assert all(len(app.screen.game.rounds) == 201 for app, _s in phones)  # type: ignore[union-attr]
        assert count.totalled == 1  # by the store, for the games list; shared by everyone
        assert count.loads == 0  # the host's sheet and the phones' use the game just saved
        for app, _s in phones:
            assert app.screen.standings is host.screen.standings  # type: ignore[union-attr]

    asyncio.run(run())


def test_the_host_reads_the_game_again_when_someone_saved_since(store: Store) -> None:
    game = long_game(store, 3)
    host = App(live.SessionStore(store, sharing.access_for(store), live.Visitor("127.0.0.1", True)))
    host.go(f"/game/{game.id}")
    stored = host_saves(host, lambda g: games.add_round(g, ELA))
    assert sharing.current_game(host, game.id) is stored
    other = store.save_game(games.add_round(store.load_game(game.id), ALA), stored.version)
    again = sharing.current_game(host, game.id)
    assert again is not stored and again.version == other.version and len(again.rounds) == 5


def test_a_watching_sheet_gets_one_new_row_and_keeps_the_others(store: Store) -> None:
    game = long_game(store, 40)
    hub = live.Hub()

    async def run() -> None:
        route = f"/game/{game.id}"
        host, _hs = session(store, hub, route, "127.0.0.1")
        phone, _ps = session(store, hub, route, "192.168.1.40")
        await turns()
        sheet = phone.screen
        assert isinstance(sheet, ScoreSheet)
        rows = dict(sheet.round_rows)
        assert sorted(rows) == list(range(40 - SHOWN_ROUNDS, 40))
        stored = host_saves(host, lambda g: games.add_round(g, ELA))
        assert await until(shows([(phone, _ps)], stored.version))
        assert phone.screen is sheet  # updated in place, not rebuilt
        assert sorted(sheet.round_rows) == list(range(41 - SHOWN_ROUNDS, 41))
        new = [i for i in sheet.round_rows if i not in rows]
        assert new == [40]
        assert all(sheet.round_rows[i] is rows[i] for i in sheet.round_rows if i in rows)
        # 40 × ALA then ELA: Ala 40·38 − 9, Ola 40·(−35) − 3, Ela 40·(−3) + 12
        assert sheet.standings.totals == {"Ala": 1511, "Ola": -1403, "Ela": -108}

    asyncio.run(run())


@pytest.mark.slow
def test_watchers_show_what_the_host_shows_after_saves_edits_deletes_and_undos(
    store: Store,
) -> None:
    game = long_game(store, 20)
    hub = live.Hub()
    changes: list[Callable[[Game], Game]] = [
        lambda g: games.add_round(g, ELA),
        lambda g: games.add_round(g, ELA),
        lambda g: games.replace_round(g, 0, ELA),  # an edit of an early round (not shown)
        lambda g: games.replace_round(g, len(g.rounds) - 1, ALA),
        lambda g: games.delete_round(g, 3),
        games.undo,  # round 4 back
        lambda g: games.delete_round(g, len(g.rounds) - 1),
        lambda g: games.add_round(g, ALA),
        games.undo,
        games.undo,
    ]

    async def run() -> None:
        route = f"/game/{game.id}"
        host, _hs = session(store, hub, route, "127.0.0.1")
        phones = [session(store, hub, route, f"192.168.1.{50 + n}") for n in range(3)]
        await turns()
        phones[2][0].screen.show_earlier()  # type: ignore[union-attr]  # one looks back
        for change in changes:
            stored = host_saves(host, change)
            assert await until(shows(phones, stored.version))
            want = games.standings(store.load_game(game.id))
            assert host.screen.standings.totals == want.totals  # type: ignore[union-attr]
            for app, _s in phones:
                sheet = app.screen
                assert isinstance(sheet, ScoreSheet) and sheet.game.version == stored.version
                assert sheet.standings.totals == want.totals
                assert sheet.standings.running == want.running
                window = None if sheet.following else sheet.window
                fresh = ScoreSheet(watcher(store, hub), store.load_game(game.id), window=window)
                assert sheet_print(sheet) == sheet_print(fresh)

    asyncio.run(run())


def test_watching_sessions_are_updated_in_turns_of_their_own(store: Store) -> None:
    """Each watching session's update runs in a turn of the loop of its own, so another
    phone's message waits for one update, never for all of them."""
    game = long_game(store, 30)
    hub = live.Hub()
    turn = [0]
    seen: list[int] = []
    real = sharing.on_change

    def on_change(app: App, change: live.Change) -> str:
        seen.append(turn[0])
        return real(app, change)

    async def ticker() -> None:
        while True:
            turn[0] += 1
            await asyncio.sleep(0)

    async def run() -> None:
        route = f"/game/{game.id}"
        host, _hs = session(store, hub, route, "127.0.0.1")
        phones = [session(store, hub, route, f"192.168.1.{70 + n}") for n in range(5)]
        await turns()
        tick = asyncio.get_running_loop().create_task(ticker())
        sharing.on_change = on_change
        try:
            stored = host_saves(host, lambda g: games.add_round(g, ELA))
            assert await until(shows(phones, stored.version))
        finally:
            sharing.on_change = real
            tick.cancel()
        assert len(seen) == 5 and len(set(seen)) == 5, seen
        assert all(len(app.screen.game.rounds) == 31 for app, _s in phones)  # type: ignore[union-attr]

    asyncio.run(run())


def test_a_phone_entering_a_round_is_told_from_the_game_just_saved(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = long_game(store, 5)
    hub = live.Hub()

    async def run() -> None:
        host, _hs = session(store, hub, f"/game/{game.id}", "127.0.0.1")
        hss = sharing.session_of(host)
        assert hss is not None
        stored_code = hss.join_code(game.id)
        phone, _ps = session(store, hub, f"/game/{game.id}", "192.168.1.90")
        ss = sharing.session_of(phone)
        assert ss is not None
        ss.join(game.id, stored_code)
        phone.show(f"/game/{game.id}/round")
        await turns()
        told: list[str] = []
        monkeypatch.setattr(phone, "notify", lambda text, error=False: told.append(text))
        count = Counting(monkeypatch, store)
        host_saves(host, lambda g: games.add_round(g, ELA))
        assert await until(lambda: bool(told))
        assert told == ["The host's computer saved round 6. Yours will be round 7."]
        assert count.loads == 0

    asyncio.run(run())
