"""Watching a game costs little (issue 9): the score sheet brought up to date in place gives
the same screen as a new one, pages every round exactly once, and keeps a bounded state.

Sheets are built as in tests/test_views.py (``App`` with no page), except where a real Flet
session is needed (the live update sends patches): there a ``flet`` ``Session`` on a
connection that packs every message with msgpack as ``flet_web`` does, and drops it.
Scores: Tile Rummy (RULES.md §4): the winner gets the others' rack values, each loser minus
his own; a joker in the rack counts 30 (R5 + JK = 35), B1 + B2 = 3.
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import msgpack
import pytest
from flet.controls.base_control import BaseControl
from flet.messaging.connection import Connection
from flet.messaging.protocol import (
    Message,
    MessageAction,
    RegisterClientResponseBody,
    configure_encode_object_for_msgpack,
)
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from app import games, live
from app.games import Game
from app.store import Store
from app.ui.sheet import score_sheet
from app.ui.sheet.chart import MAX_POINTS, chart_points, sample_rounds
from app.ui.sheet.score_sheet import ROUNDS_PAGE, SHOWN_ROUNDS, ScoreSheet
from app.ui.shell import App
from app.ui.table import sharing

PLAYERS = ["Ala", "Ola", "Ela"]


def entry(winner: str, racks: dict[str, list[str]]) -> dict[str, Any]:
    return {
        "players": [
            {"name": p, "winner": True} if p == winner else {"name": p, "hand": racks.get(p, [])}
            for p in PLAYERS
        ]
    }


# Ala goes out; Ola holds R5 JK (35), Ela B1 B2 (3): Ala +38, Ola −35, Ela −3.
ALA = entry("Ala", {"Ola": ["R5", "JK"], "Ela": ["B1", "B2"]})
# Ela goes out; Ala holds K9 (9), Ola B3 (3): Ela +12, Ala −9, Ola −3.
ELA = entry("Ela", {"Ala": ["K9"], "Ola": ["B3"]})


pytestmark = pytest.mark.usefixtures("fresh_shared")


def watcher(store: Store, hub: live.Hub | None = None, ip: str = "192.168.1.23") -> App:
    """A phone on the network without the join code (it watches)."""
    visitor = live.Visitor(ip=ip, host=False)
    return App(live.SessionStore(store, sharing.access_for(store), visitor, hub or live.Hub()))


def long_game(store: Store, n: int, variant_entry: dict[str, Any] = ALA) -> Game:
    """A stored Tile Rummy game of ``n`` rounds (the same round ``n`` times: quick to make)."""
    game = games.new_game("tile_rummy", PLAYERS)
    if n:
        one = games.add_round(game, variant_entry).rounds[0]
        game.rounds = [one] * n
    return store.create_game(game)


def fingerprint(control: Any) -> list[Any]:
    """Everything a phone is sent about ``control``: each control's type and every field
    that is not internal (handlers: whether there is one), depth first."""
    out: list[Any] = []

    def go(value: Any, depth: int) -> None:
        if isinstance(value, list):
            out.append(("list", len(value)))
            for item in value:
                go(item, depth + 1)
            return
        if isinstance(value, dict):
            keys = sorted(value, key=str)
            out.append(("dict", [str(k) for k in keys]))
            for k in keys:
                go(value[k], depth + 1)
            return
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            out.append(type(value).__name__)
            for f in dataclasses.fields(value):
                if f.name.startswith("_") or f.name in ("data", "parent", "page"):
                    continue
                v = getattr(value, f.name, None)
                if callable(v) and not isinstance(v, BaseControl):
                    out.append((f.name, "handler"))
                    continue
                out.append(f.name)
                go(v, depth + 1)
            return
        out.append(value)

    go(control, 0)
    return out


def sheet_print(sheet: ScoreSheet) -> list[Any]:
    return fingerprint(sheet.view.controls) + fingerprint(sheet.view.appbar)


def fresh_like(app: App, sheet: ScoreSheet) -> ScoreSheet:
    """A new sheet of the same game and page of the table."""
    window = None if sheet.following else sheet.window
    return ScoreSheet(app, app.store.load_game(sheet.game.id), window=window)


def save(store: Store, game: Game, change: Any) -> Game:
    return store.save_game(change(game), game.version)


def check_same(app: App, sheet: ScoreSheet, store: Store, gid: str) -> ScoreSheet:
    """Update ``sheet`` in place to the stored game; it must equal a new sheet of it."""
    sheet.update_from(store.load_game(gid))
    fresh = fresh_like(app, sheet)
    assert sheet.window == fresh.window and sheet.following == fresh.following
    assert sorted(sheet.round_rows) == sorted(fresh.round_rows)
    assert {p: t.value for p, t in sheet.total_texts.items()} == {
        p: t.value for p, t in fresh.total_texts.items()
    }
    if sheet.chart is not None:
        assert fresh.chart is not None and sheet.chart.points == fresh.chart.points
    assert sheet_print(sheet) == sheet_print(fresh)
    return fresh


# -- the chart ------------------------------------------------------------------------------------
def test_short_games_draw_every_round_long_ones_a_power_of_two_step() -> None:
    assert sample_rounds(0) == [0]
    assert sample_rounds(MAX_POINTS - 1) == list(range(MAX_POINTS))
    # 100 rounds, 41 points at most: step 2 gives 0, 2 … 98, 100 = 51 points, too many;
    # step 4 gives 0, 4 … 96, 100 = 26
    assert sample_rounds(100) == [*range(0, 100, 4), 100]
    # 1,000 rounds: step 32 gives 0, 32 … 992 (32 points) and 1000 = 33
    xs = sample_rounds(1000)
    assert xs[:3] == [0, 32, 64] and xs[-2:] == [992, 1000] and len(xs) == 33
    for n in (41, 42, 77, 128, 129, 999, 5000):
        xs = sample_rounds(n)
        assert xs[0] == 0 and xs[-1] == n and len(xs) <= MAX_POINTS
        assert xs == sorted(set(xs))


def test_chart_points_are_the_running_totals_at_the_drawn_rounds() -> None:
    running = [{"Ala": 38, "Ola": -35}, {"Ala": 29, "Ola": -35}, {"Ala": 67, "Ola": -70}]
    assert chart_points(["Ala", "Ola"], running) == {
        "Ala": [(0, 0), (1, 38), (2, 29), (3, 67)],
        "Ola": [(0, 0), (1, -35), (2, -35), (3, -70)],
    }


# -- the incremental update equals a rebuild -----------------------------------------------------
@pytest.mark.slow
def test_update_in_place_gives_the_same_sheet_as_a_new_one(store: Store) -> None:
    app = watcher(store)
    game = long_game(store, 0)
    sheet = ScoreSheet(app, store.load_game(game.id))
    assert sheet.chart is None and sheet.round_rows == {}
    # the first round: the chart and the table appear
    game = save(store, game, lambda g: games.add_round(g, ALA))
    check_same(app, sheet, store, game.id)
    assert sheet.total_texts["Ala"].value == "38" and sheet.total_texts["Ola"].value == "\u221235"
    for i in range(SHOWN_ROUNDS + 3):  # past the first view of the table
        game = save(store, game, lambda g, i=i: games.add_round(g, ELA if i % 2 else ALA))
        check_same(app, sheet, store, game.id)
    assert sorted(sheet.round_rows) == list(range(4, SHOWN_ROUNDS + 4))
    # an edit of a shown round, an edit of one no longer shown (every total after it moves)
    game = save(store, game, lambda g: games.replace_round(g, len(g.rounds) - 2, ELA))
    check_same(app, sheet, store, game.id)
    game = save(store, game, lambda g: games.replace_round(g, 0, ELA))
    check_same(app, sheet, store, game.id)
    assert "(edited)" in str(sheet.round_rows[len(game.rounds) - 2].label)  # type: ignore[attr-defined]
    # a delete, then undo of the delete and of an edit
    game = save(store, game, lambda g: games.delete_round(g, 5))
    check_same(app, sheet, store, game.id)
    game = save(store, game, games.undo)
    check_same(app, sheet, store, game.id)
    game = save(store, game, games.undo)
    check_same(app, sheet, store, game.id)
    # the series is ended: the winner's banner, no next round
    game = save(store, game, games.end_game)
    fresh = check_same(app, sheet, store, game.id)
    assert sheet.standings.finished and sheet.enter_button is None
    assert any("win" in str(x) for x in sheet_print(fresh))
    game = save(store, game, games.undo)  # and opened again
    check_same(app, sheet, store, game.id)
    assert not sheet.standings.finished


def test_update_of_a_long_game_moves_only_the_last_chart_points(store: Store) -> None:
    app = watcher(store)
    game = long_game(store, 200)
    sheet = ScoreSheet(app, store.load_game(game.id))
    assert sheet.chart is not None
    before = [list(s.points) for s in sheet.chart.series]
    game = save(store, game, lambda g: games.add_round(g, ELA))
    check_same(app, sheet, store, game.id)
    # 200 rounds: step 8, points 0, 8 … 200; at 201 the point of 200 stays, 201 is added
    for old, series in zip(before, sheet.chart.series, strict=True):
        assert series.points[: len(old)] == old and len(series.points) == len(old) + 1
    # a delete far back changes every total after it: the chart is redrawn to match
    game = save(store, game, lambda g: games.delete_round(g, 3))
    check_same(app, sheet, store, game.id)


def test_update_while_paged_back_keeps_the_page(store: Store) -> None:
    app = watcher(store)
    game = long_game(store, 3 * ROUNDS_PAGE)
    sheet = ScoreSheet(app, store.load_game(game.id))
    sheet.show_earlier()
    page = sheet.window
    assert page == (3 * ROUNDS_PAGE - SHOWN_ROUNDS - ROUNDS_PAGE, 3 * ROUNDS_PAGE - SHOWN_ROUNDS)
    game = save(store, game, lambda g: games.add_round(g, ELA))
    check_same(app, sheet, store, game.id)
    assert sheet.window == page and sheet.later_button.visible and sheet.latest_button.visible
    game = save(store, game, lambda g: games.replace_round(g, page[0], ELA))  # a shown round
    check_same(app, sheet, store, game.id)
    # most rounds deleted: the page is gone, the table shows the last ones there are
    for _ in range(3):
        game = save(store, game, lambda g: games.delete_round(g, 0))
    check_same(app, sheet, store, game.id)
    sheet.show_latest()
    assert sheet.following and sorted(sheet.round_rows) == list(
        range(len(game.rounds) - SHOWN_ROUNDS, len(game.rounds))
    )


# -- paging --------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [SHOWN_ROUNDS + 3, ROUNDS_PAGE + SHOWN_ROUNDS, 173])
def test_paging_back_and_forward_shows_every_round_exactly_once(store: Store, n: int) -> None:
    app = watcher(store)
    game = long_game(store, n)
    sheet = ScoreSheet(app, store.load_game(game.id))
    pages = [sorted(sheet.round_rows)]
    assert pages[0] == list(range(n - SHOWN_ROUNDS, n))
    while sheet.show_all_button.visible:
        sheet.show_earlier()
        pages.append(sorted(sheet.round_rows))
        assert len(pages[-1]) <= ROUNDS_PAGE
        assert [c for c in sheet.rows.controls] == [sheet.round_rows[i] for i in pages[-1]]
    if n <= ROUNDS_PAGE:  # a short game: one tap shows all of it
        assert pages == [list(range(n - SHOWN_ROUNDS, n)), list(range(n))]
    else:
        seen = [i for p in reversed(pages) for i in p]
        assert seen == list(range(n))  # back to round 1: each round on exactly one page
        forward = [sorted(sheet.round_rows)]
        while sheet.later_button.visible:
            sheet.show_later()
            forward.append(sorted(sheet.round_rows))
            assert len(forward[-1]) <= ROUNDS_PAGE
        assert [i for p in forward for i in p] == list(range(n))
    sheet.show_latest()
    assert sorted(sheet.round_rows) == list(range(n - SHOWN_ROUNDS, n))
    assert not sheet.latest_button.visible and not sheet.later_button.visible


def test_the_paging_buttons_say_which_rounds_they_show(store: Store) -> None:
    app = watcher(store)
    game = long_game(store, 100)
    sheet = ScoreSheet(app, store.load_game(game.id))
    # rounds 89–100 shown; the page before holds rounds 39–88
    assert sheet.show_all_button.content == "Earlier rounds (39–88)"
    sheet.show_earlier()
    assert sorted(sheet.round_rows) == list(range(38, 88))
    assert sheet.show_all_button.content == "Earlier rounds (1–38)"
    assert sheet.later_button.content == "Later rounds (89–100)"


# -- what a watcher keeps -------------------------------------------------------------------------
def count_controls(control: Any) -> int:
    """Controls under ``control`` (itself included)."""
    if isinstance(control, list):
        return sum(count_controls(c) for c in control)
    if not isinstance(control, BaseControl):
        return 0
    return 1 + sum(
        count_controls(getattr(control, f.name, None))
        for f in dataclasses.fields(control)
        if not f.name.startswith("_") and f.name not in ("data", "parent", "page")
    )


def test_a_watchers_screen_does_not_grow_with_the_game(store: Store) -> None:
    # both drawn from 33 points a player, with 9 round numbers under the chart
    short, long_ = long_game(store, 512), long_game(store, 1000)
    app = watcher(store)
    a = ScoreSheet(app, store.load_game(short.id))
    b = ScoreSheet(app, store.load_game(long_.id))
    assert b.chart is not None and all(len(s.points) <= MAX_POINTS for s in b.chart.series)
    assert count_controls(b.view) == count_controls(a.view)  # same size, 512 or 1,000 rounds
    b.show_earlier()
    assert len(b.round_rows) == ROUNDS_PAGE
    for _ in range(10):
        b.show_earlier()
        assert len(b.round_rows) <= ROUNDS_PAGE


def test_watching_phones_share_one_game_and_one_standings(store: Store) -> None:
    game = long_game(store, 300)
    hub = live.Hub()
    phones = [watcher(store, hub, ip=f"192.168.1.{20 + i}") for i in range(3)]
    sheets = [ScoreSheet(p, p.store.load_game(game.id)) for p in phones]
    assert sheets[0].game is sheets[1].game is sheets[2].game
    assert sheets[0].standings is sheets[2].standings
    assert sheets[0].game.join_code is None  # the copy kept has no join code
    # a newer version: the first phone's load becomes the shared one
    game = save(store, game, lambda g: games.add_round(g, ELA))
    for s in sheets:
        s.update_from(s.app.store.load_game(game.id))
    assert sheets[0].game is sheets[1].game and sheets[0].game.version == game.version
    assert score_sheet.latest_shared(game.id, game.version) is sheets[0].game


def test_the_shared_copy_is_only_used_for_the_same_content(store: Store) -> None:
    game = long_game(store, 5)
    kept = score_sheet.shared_game(store.load_game(game.id))
    other = dataclasses.replace(store.load_game(game.id), notes="changed meanwhile")
    assert score_sheet.shared_game(other) is not kept  # same version, other content
    changed = store.load_game(game.id)
    changed.rounds = [*changed.rounds[:-1], games.add_round(changed, ELA).rounds[-1]]
    assert score_sheet.shared_game(changed) is not kept  # a round's scores differ
    older = dataclasses.replace(store.load_game(game.id), version=game.version - 1)
    assert score_sheet.shared_game(older) is older  # an older version never replaces it


# -- through a real Flet session ------------------------------------------------------------------
class PackingConnection(Connection):
    """Packs every message as flet_web's WebSocket connection does; keeps the count."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self.loop = loop
        self.pubsubhub = PubSubHub(loop)
        self.sent = 0
        self._encode = configure_encode_object_for_msgpack(BaseControl)

    def send_message(self, message: Message) -> None:
        self.sent += len(msgpack.packb([message.action, message.body], default=self._encode))


def open_session(
    store: Store, hub: live.Hub, route: str, language: str | None = None
) -> tuple[App, PackingConnection, Session]:
    """A phone's browser tab on ``route``, as flet_web and app.main make it (in a loop).
    Keep the Session: Flet's page holds it weakly (the server's session list holds it)."""
    conn = PackingConnection(asyncio.get_running_loop())
    session = Session(conn)
    session.apply_page_patch({"route": route})
    body = RegisterClientResponseBody(
        session_id=session.id, page_patch=session.get_page_patch(), error=""
    )  # packed as flet_web packs it: the packing takes Flet's snapshots for later diffs
    conn.send_message(Message(MessageAction.REGISTER_CLIENT, body))
    visitor = live.Visitor(ip="192.168.1.23", host=False)
    app = App(
        live.SessionStore(store, sharing.access_for(store), visitor, hub),
        session.page,
        language=language,
    )
    sharing.attach(app, hub)
    app.start()
    return app, conn, session


def host_store(store: Store, hub: live.Hub) -> live.SessionStore:
    visitor = live.Visitor(ip="127.0.0.1", host=True)
    return live.SessionStore(store, sharing.access_for(store), visitor, hub)


def test_a_watching_session_is_updated_in_place_and_sent_little(store: Store) -> None:
    game = long_game(store, 400)
    hub = live.Hub()

    async def run() -> None:
        app, conn, _session = open_session(store, hub, f"/game/{game.id}")
        sheet = app.screen
        assert isinstance(sheet, ScoreSheet)
        assert sheet.chart is None  # drawn in a turn of its own, just after the sheet is sent
        for _ in range(5):
            await asyncio.sleep(0)
        assert sheet.chart is not None
        opened = conn.sent
        assert opened > 20_000  # the sheet went out, its chart too
        writer = host_store(store, hub)
        current = writer.load_game(game.id)
        for change in (
            lambda g: games.add_round(g, ELA),
            lambda g: games.replace_round(g, len(g.rounds) - 1, ALA),
            lambda g: games.delete_round(g, 2),
            games.undo,
        ):
            before = conn.sent
            current = writer.save_game(change(current), current.version)
            for _ in range(5):
                await asyncio.sleep(0)
            assert app.screen is sheet and sheet.game.version == current.version
            assert conn.sent - before < opened / 4  # only what changed went out
            fresh = ScoreSheet(watcher(store, hub), store.load_game(game.id))
            assert sheet_print(sheet) == sheet_print(fresh)
        # a page of earlier rounds is sent too (the rows are isolated from page updates)
        before = conn.sent
        sheet.show_earlier()
        assert conn.sent - before > 0 and len(sheet.round_rows) == ROUNDS_PAGE

    asyncio.run(run())


def test_without_a_page_the_sheet_is_rebuilt(store: Store) -> None:
    game = long_game(store, 3)
    app = watcher(store)
    app.go(f"/game/{game.id}")
    sheet = app.screen
    assert isinstance(sheet, ScoreSheet)
    change = live.Change("game", game.id, game.version + 1)
    assert sharing._update_sheet(app, change) is False  # no page: the rebuild is the reference
    store.save_game(games.add_round(store.load_game(game.id), ELA), game.version)
    assert sharing.on_change(app, change) == "refreshed"
    assert app.screen is not sheet and len(app.screen.game.rounds) == 4  # type: ignore[union-attr]


def test_a_watcher_is_updated_in_its_own_language(store: Store) -> None:
    game = long_game(store, 30)
    hub = live.Hub()

    async def run() -> None:
        app, _conn, _session = open_session(store, hub, f"/game/{game.id}", language="pl")
        sheet = app.screen
        assert isinstance(sheet, ScoreSheet)
        writer = host_store(store, hub)
        current = writer.load_game(game.id)
        writer.save_game(games.add_round(current, ELA), current.version)  # in English here
        for _ in range(5):
            await asyncio.sleep(0)
        assert app.screen is sheet and len(sheet.game.rounds) == 31
        # rounds 20–31 shown; the page before: rounds 1–19
        assert sheet.show_all_button.content == "Wcześniejsze rundy (1–19)"

    asyncio.run(run())
