"""The live table without a browser: the hub between sessions, saves that meet other saves,
who may see and change a game, and what reaches the logs (app/live.py, app/ui/table/sharing.py).

Sessions are :class:`app.ui.shell.App` objects with no page, each on its own
:class:`app.live.SessionStore` over one Store, as ``python -m app`` makes them for each browser
tab; ``attach`` with no page applies another session's change at once (in the app it is
scheduled on the page's loop). Scores: Rummy 101, RULES.md §3 — the finisher +101, an opened
player minus the points left.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import flet as ft
import pytest

from app import games, live, log_hygiene, main
from app.games import Game
from app.live import AccessError, Change, Hub, SessionStore, Visitor
from app.store import ConflictError, Store
from app.ui.entry.round_entry import RoundDetail, RoundEntry
from app.ui.home.games_list import GamesList
from app.ui.sheet.score_sheet import ScoreSheet
from app.ui.shell import App
from app.ui.table import sharing
from tests.conftest import visible_texts, walk

ROOT = Path(__file__).resolve().parents[1]
HOST_IP = "127.0.0.1"
PHONE_IP = "192.168.1.23"


def r101(winner: str, other: str, rest: int) -> dict[str, Any]:
    """A Rummy 101 round: ``winner`` finishes (+101), ``other`` opened and holds ``rest``."""
    return {
        "finish": "normal",
        "players": [
            {"name": winner, "winner": True},
            {"name": other, "opened": "melds", "hand_value": rest, "jokers": 0},
        ],
    }


# -- fixtures ------------------------------------------------------------------------------------
@pytest.fixture
def hub() -> Hub:
    return Hub()


@pytest.fixture
def access(store: Store) -> live.Access:
    return live.Access(store)


def session(store: Store, access: live.Access, hub: Hub, ip: str = HOST_IP) -> App:
    """A browser session from ``ip``, subscribed to ``hub``, showing the games list."""
    app = App(SessionStore(store, access, Visitor.from_peer(ip), hub))
    sharing.attach(app, hub)
    app.show("/")
    return app


def ss(app: App) -> SessionStore:
    got = sharing.session_of(app)
    assert got is not None
    return got


@pytest.fixture
def game(store: Store, access: live.Access, hub: Hub) -> Game:
    """A Rummy 101 game of Ala and Ola with one round (Ala +101, Ola −12), made by the host."""
    host = SessionStore(store, access, Visitor.from_peer(HOST_IP), hub)
    g = host.create_game(games.new_game("rummy101", ["Ala", "Ola"]))
    return host.save_game(games.add_round(g, r101("Ala", "Ola", 12)), g.version)


def fill(entry: RoundEntry, winner: str, other: str, rest: int) -> None:
    f: Any = entry.form
    f.winner.pick(winner)
    f.opened[other].pick("melds")
    f.rests[other].value.value = str(rest)
    assert entry.check(), entry.error.content.value  # type: ignore[union-attr]


def open_entry(app: App, route: str) -> RoundEntry:
    """Go to a round entry (``/game/ID/round`` or ``…/round/N/edit``) and return it."""
    app.go(route)
    entry = app.screen
    assert isinstance(entry, RoundEntry), route
    return entry


def two_entries(
    store: Store, access: live.Access, hub: Hub, game: Game
) -> tuple[App, App, RoundEntry, RoundEntry]:
    """Two host sessions, each on the round entry of ``game`` at the same time."""
    one, two = session(store, access, hub), session(store, access, hub)
    return (
        one,
        two,
        open_entry(one, f"/game/{game.id}/round"),
        open_entry(two, f"/game/{game.id}/round"),
    )


def scores(store: Store, gid: str) -> list[dict[str, int]]:
    return [r.scores for r in store.load_game(gid).rounds]


def conflict(app: App) -> sharing.ConflictDialog:
    """The conflict dialog the session shows."""
    dlg = sharing.open_conflict(app)
    assert dlg is not None, app.messages
    assert {getattr(c, "data", None) for c in dlg.dialog.actions} == set(dlg.buttons)
    return dlg


def texts(control: Any) -> str:
    """The visible texts under ``control``, one a line."""
    return "\n".join(visible_texts(control))


def labels(control: Any) -> list[str]:
    """Accessible names (Semantics labels) and button texts under ``control``, visible ones."""
    out: list[str] = []
    for c in walk(control, visible_only=True):
        if isinstance(c, ft.Semantics) and c.label:
            out.append(str(c.label))
        content = getattr(c, "content", None)
        if isinstance(content, str):
            out.append(content)
    return out


# -- the hub -------------------------------------------------------------------------------------
def test_hub_tells_every_other_subscriber_and_drops_dead_ones() -> None:
    hub = Hub()
    got: dict[str, list[Change]] = {"a": [], "b": []}
    a = hub.subscribe(got["a"].append)
    hub.subscribe(got["b"].append)

    def dead(_c: Change) -> None:
        raise RuntimeError("session closed")

    hub.subscribe(dead)
    assert len(hub) == 3
    change = Change("game", "g1", 7, source=a)
    assert hub.publish(change) == 1  # b only: a wrote it, the dead one is dropped
    assert got == {"a": [], "b": [change]}
    assert len(hub) == 2
    assert hub.last("g1") == change
    hub.unsubscribe(a)
    hub.publish(Change("deleted", "g1"))
    assert hub.last("g1") is None and len(got["b"]) == 2


def test_a_round_saved_on_one_phone_appears_on_the_others(
    store: Store, access: live.Access, hub: Hub, game: Game
) -> None:
    writer, watcher, lister, entering = (session(store, access, hub) for _ in range(4))
    sheet_route = f"/game/{game.id}"
    watcher.go(sheet_route)
    entering.go(f"{sheet_route}/round")
    form = entering.screen
    before = watcher.screen
    assert isinstance(before, ScoreSheet) and before.total_texts["Ala"].value == "101"
    # the writer enters round 2: Ola finishes, Ala holds 30 (Ala 71, Ola 89)
    entry = open_entry(writer, f"{sheet_route}/round")
    fill(entry, "Ola", "Ala", 30)
    entry.save()
    after = watcher.screen
    assert isinstance(after, ScoreSheet) and after is not before  # rebuilt from the store
    assert {p: t.value for p, t in after.total_texts.items()} == {"Ala": "71", "Ola": "89"}
    assert set(after.round_rows) == {0, 1}
    listed = lister.screen
    assert isinstance(listed, GamesList) and listed.summaries[0].round_count == 2
    # the phone in the middle of entering a round keeps its form, and hears about it
    assert entering.screen is form
    assert entering.messages[-1] == "The host's computer saved round 2. Yours will be round 3."


def test_round_detail_follows_an_edit_and_a_delete(
    store: Store, access: live.Access, hub: Hub, game: Game
) -> None:
    writer, watcher = session(store, access, hub), session(store, access, hub)
    watcher.go(f"/game/{game.id}/round/1")
    assert "Ola: melds, 12 points" in texts(watcher.screen.view)  # type: ignore[union-attr]
    edit = open_entry(writer, f"/game/{game.id}/round/1/edit")
    fill(edit, "Ala", "Ola", 20)
    edit.save()
    assert "Ola: melds, 20 points" in texts(watcher.screen.view)  # type: ignore[union-attr]
    writer.go(f"/game/{game.id}/round/1")
    detail = writer.screen
    assert isinstance(detail, RoundDetail)
    detail.delete_now()
    assert "no round 1" in texts(watcher.screen.view)  # type: ignore[union-attr]


class FakePage:
    """Enough of ``ft.Page`` for :class:`App` and :func:`sharing.attach`: tasks run at once
    while connected; while disconnected ``run_task`` fails as Flet's does (no connection)."""

    def __init__(self, ip: str) -> None:
        self.client_ip = ip
        self.route = "/"
        self.views: list[Any] = []
        self.connected = True
        self.on_connect: Any = None
        self.on_close: Any = None
        self.on_route_change: Any = None
        self.on_view_pop: Any = None

    @property
    def session(self) -> Any:
        """As Flet's: a session whose ``connection`` is None while disconnected."""
        loop = type("Loop", (), {})()
        connection = type("Conn", (), {"loop": loop})() if self.connected else None
        return type("Session", (), {"connection": connection})()

    def run_task(self, make: Any) -> None:
        import asyncio

        coro = make()  # as Flet's: the coroutine is made before the connection is looked up
        if not self.connected:
            raise AttributeError("'NoneType' object has no attribute 'loop'")
        asyncio.run(coro)

    def navigate(self, route: str) -> None:
        self.route = route
        self.on_route_change(type("E", (), {"route": route})())

    def update(self) -> None:
        pass

    def show_dialog(self, _d: Any) -> None:
        pass

    def pop_dialog(self) -> None:
        pass


def test_a_phone_that_dropped_off_catches_up_when_it_reconnects(
    store: Store, access: live.Access, hub: Hub, game: Game
) -> None:
    page = FakePage(HOST_IP)
    visitor = Visitor.from_peer(HOST_IP)
    app = App(sharing.session_store(store, visitor, hub), page)  # type: ignore[arg-type]
    sharing.attach(app, hub)
    app.start()
    app.go(f"/game/{game.id}")
    before = app.screen
    assert isinstance(before, ScoreSheet) and len(before.game.rounds) == 1
    writer = session(store, access, hub)
    page.connected = False  # the phone's screen went dark
    ss(writer).save_game(games.add_round(game, r101("Ola", "Ala", 30)), game.version)
    assert app.screen is before and len(hub) == 2  # not dropped, not redrawn
    page.connected = True
    page.on_connect(None)
    after = app.screen
    assert isinstance(after, ScoreSheet) and len(after.game.rounds) == 2
    page.on_close(None)
    assert len(hub) == 1


def test_a_change_for_a_dark_phone_leaves_no_unawaited_coroutine(
    store: Store, access: live.Access, hub: Hub, game: Game
) -> None:
    import gc
    import warnings

    page = FakePage(HOST_IP)
    app = App(sharing.session_store(store, Visitor.from_peer(HOST_IP), hub), page)  # type: ignore[arg-type]
    sharing.attach(app, hub)
    app.start()
    app.go(f"/game/{game.id}")
    writer = session(store, access, hub)
    page.connected = False
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        ss(writer).save_game(games.add_round(game, r101("Ola", "Ala", 30)), game.version)
        gc.collect()
    assert not [w for w in seen if "never awaited" in str(w.message)], seen
    page.connected = True
    page.on_connect(None)
    assert len(app.screen.game.rounds) == 2  # type: ignore[union-attr]


# -- what a save changed, and merging ------------------------------------------------------------
def test_classify_tells_add_replace_delete_from_the_rest(game: Game) -> None:
    added = games.add_round(game, r101("Ola", "Ala", 30))
    assert live.classify(game, added) == live.Edit("add", 1, added.rounds[1].entry)
    edited = games.replace_round(game, 0, r101("Ala", "Ola", 20))
    assert live.classify(game, edited) == live.Edit("replace", 0, edited.rounds[0].entry)
    assert live.classify(game, games.delete_round(game, 0)) == live.Edit("delete", 0)
    assert live.classify(added, games.undo(added)).action == "other"  # an undo
    assert live.classify(game, games.set_limits(game, 5)).action == "other"
    assert live.classify(None, added).action == "other"
    # an add that also changes the game's agreed end is not a pure append
    both = games.add_round(games.set_limits(game, 5), r101("Ola", "Ala", 30))
    assert live.classify(game, both).action == "other"


def test_two_appends_at_once_both_land(store: Store, game: Game) -> None:
    a = games.add_round(game, r101("Ola", "Ala", 30))
    b = games.add_round(game, r101("Ala", "Ola", 5))
    store.save_game(a, game.version)
    with pytest.raises(ConflictError) as e:
        store.save_game(b, game.version)
    m = live.merge(game, b, e.value.current)
    assert m.outcome == "rebased" and m.game is not None
    stored, m2, _cur = live.save_merging(store, game, b, game.version)
    assert stored is not None and m2 is not None and m2.outcome == "rebased"
    assert scores(store, game.id) == [
        {"Ala": 101, "Ola": -12},
        {"Ala": -30, "Ola": 101},
        {"Ala": 101, "Ola": -5},
    ]
    assert games.last_change(stored) == games.UndoStep("add", 2, None, stored.rounds[2].time)


def test_edits_of_different_rounds_both_land_even_when_rounds_move(
    store: Store, game: Game
) -> None:
    g2 = store.save_game(games.add_round(game, r101("Ola", "Ala", 30)), game.version)
    # one phone deletes round 1 while another edits round 2 (now round 1): no clash
    store.save_game(games.delete_round(g2, 0), g2.version)
    edit = games.replace_round(g2, 1, r101("Ola", "Ala", 40))
    stored, m, _cur = live.save_merging(store, g2, edit, g2.version)
    assert stored is not None and m is not None and m.outcome == "rebased"
    assert scores(store, game.id) == [{"Ala": -40, "Ola": 101}]


def test_same_round_twice_is_a_duplicate_not_two_rounds(store: Store, game: Game) -> None:
    entry = r101("Ola", "Ala", 30)
    store.save_game(games.add_round(game, entry), game.version)
    stored, m, current = live.save_merging(store, game, games.add_round(game, entry), game.version)
    assert stored is None and m is not None and m.outcome == "duplicate" and m.their_index == 1
    assert current is not None and len(store.load_game(game.id).rounds) == 2


def test_true_conflicts_are_reported(store: Store, game: Game) -> None:
    edit_a = games.replace_round(game, 0, r101("Ala", "Ola", 20))
    edit_b = games.replace_round(game, 0, r101("Ala", "Ola", 25))
    store.save_game(edit_a, game.version)
    stored, m, _cur = live.save_merging(store, game, edit_b, game.version)
    assert stored is None and m is not None and m.outcome == "conflict" and m.their_index == 0
    now = store.load_game(game.id)
    # deleting a round someone just edited, and undo after any change: conflicts too
    stored, m, _cur = live.save_merging(store, game, games.delete_round(game, 0), game.version)
    assert stored is None and m is not None and m.outcome == "conflict"
    stored, m, _cur = live.save_merging(store, game, games.undo(game), game.version)
    assert stored is None and m is not None and m.outcome == "conflict"
    assert store.load_game(game.id).rounds == now.rounds  # nothing overwritten


def test_two_screens_entering_at_once_both_rounds_land(
    store: Store, access: live.Access, hub: Hub, game: Game
) -> None:
    one, two, e1, e2 = two_entries(store, access, hub, game)
    fill(e1, "Ola", "Ala", 30)
    fill(e2, "Ala", "Ola", 5)
    e1.save()
    e2.save()
    assert one.messages[-1] == "Round 2 saved"
    assert two.messages[-1].startswith("Round 3 saved (The host's computer saved a change")
    assert two.dialog is None
    assert len(store.load_game(game.id).rounds) == 3


def test_the_same_round_edited_on_two_screens_shows_the_conflict(
    store: Store, access: live.Access, hub: Hub, game: Game
) -> None:
    one = session(store, access, hub)
    two = session(store, access, hub, PHONE_IP)
    assert ss(two).join(game.id, access.code_for(game.id) or "", "Ola") == game.id
    one.go(f"/game/{game.id}/round/1/edit")
    two.go(f"/game/{game.id}/round/1/edit")
    e1, e2 = one.screen, two.screen
    assert isinstance(e1, RoundEntry) and isinstance(e2, RoundEntry)
    fill(e2, "Ala", "Ola", 20)
    fill(e1, "Ala", "Ola", 25)
    e2.save()  # Ola's phone first
    e1.save()  # then the host: refused, shown
    assert scores(store, game.id) == [{"Ala": 101, "Ola": -20}]
    dlg = conflict(one)
    assert dlg.text.splitlines()[0] == "Ola edited round 1 a moment ago."
    assert "Round 1 now: Ala +101, Ola \u221220" in dlg.text
    assert "Yours: Ala +101, Ola \u221225" in dlg.text
    assert set(dlg.buttons) == {"show", "mine", "as_new", "discard"}
    # reload theirs: round 1 as it is now
    dlg.show()
    assert one.route == f"/game/{game.id}/round/1" and one.dialog is None
    # again, and this time use mine: asked for, so it replaces theirs
    again = open_entry(one, f"/game/{game.id}/round/1/edit")
    fill(again, "Ala", "Ola", 30)
    e2 = open_entry(two, f"/game/{game.id}/round/1/edit")
    fill(e2, "Ala", "Ola", 35)
    e2.save()
    again.save()
    conflict(one).use_mine()
    assert scores(store, game.id) == [{"Ala": 101, "Ola": -30}]
    # and as a new round
    third = open_entry(one, f"/game/{game.id}/round/1/edit")
    fill(third, "Ala", "Ola", 7)
    e2 = open_entry(two, f"/game/{game.id}/round/1/edit")
    fill(e2, "Ala", "Ola", 8)
    e2.save()
    third.save()
    conflict(one).as_new()
    assert scores(store, game.id) == [{"Ala": 101, "Ola": -8}, {"Ala": 101, "Ola": -7}]
    # discard keeps theirs
    fourth = open_entry(one, f"/game/{game.id}/round/1/edit")
    fill(fourth, "Ala", "Ola", 1)
    e2 = open_entry(two, f"/game/{game.id}/round/1/edit")
    fill(e2, "Ala", "Ola", 2)
    e2.save()
    fourth.save()
    conflict(one).discard()
    assert scores(store, game.id) == [{"Ala": 101, "Ola": -2}, {"Ala": 101, "Ola": -7}]
    assert one.route == f"/game/{game.id}" and one.dialog is None


def test_use_mine_asks_again_when_their_round_changed_once_more(
    store: Store, access: live.Access, hub: Hub, game: Game
) -> None:
    one = session(store, access, hub)
    mine = open_entry(one, f"/game/{game.id}/round/1/edit")
    fill(mine, "Ala", "Ola", 25)
    theirs = store.save_game(games.replace_round(game, 0, r101("Ala", "Ola", 20)), game.version)
    mine.save()
    first = conflict(one)
    store.save_game(games.replace_round(theirs, 0, r101("Ala", "Ola", 21)), theirs.version)
    first.use_mine()  # round 1 changed again since the dialog opened: not overwritten blindly
    second = conflict(one)
    assert second is not first and "Round 1 now: Ala +101, Ola \u221221" in second.text
    second.use_mine()
    assert scores(store, game.id) == [{"Ala": 101, "Ola": -25}]


def test_editing_a_round_someone_deleted_offers_no_overwrite(
    store: Store, access: live.Access, hub: Hub, game: Game
) -> None:
    g2 = store.save_game(games.add_round(game, r101("Ola", "Ala", 30)), game.version)
    one, two = session(store, access, hub), session(store, access, hub)
    edit = open_entry(two, f"/game/{game.id}/round/1/edit")
    fill(edit, "Ala", "Ola", 40)
    one.go(f"/game/{game.id}/round/1")
    detail = one.screen
    assert isinstance(detail, RoundDetail)
    detail.delete_now()
    edit.save()
    dlg = conflict(two)
    assert dlg.merged.their_index is None  # round 2 (now 1) is not "their version" of it
    assert dlg.text.splitlines()[0] == "The host's computer deleted round 1 a moment ago."
    assert set(dlg.buttons) == {"as_new", "discard"}
    dlg.as_new()
    assert scores(store, game.id) == [g2.rounds[1].scores, {"Ala": 101, "Ola": -40}]


def test_duplicate_round_from_two_phones_is_asked_about(
    store: Store, access: live.Access, hub: Hub, game: Game
) -> None:
    one, two, e1, e2 = two_entries(store, access, hub, game)
    fill(e1, "Ola", "Ala", 30)
    fill(e2, "Ola", "Ala", 30)
    e1.save()
    e2.save()
    dlg = conflict(two)
    assert "saved the same round as round 2" in dlg.text
    assert set(dlg.buttons) == {"as_new", "discard"}
    dlg.discard()
    assert len(store.load_game(game.id).rounds) == 2


def test_undo_after_someone_elses_change_is_refused(
    store: Store, access: live.Access, hub: Hub, game: Game
) -> None:
    one, two = session(store, access, hub), session(store, access, hub)
    one.go(f"/game/{game.id}")
    entry = open_entry(two, f"/game/{game.id}/round")
    sheet = one.screen
    assert isinstance(sheet, ScoreSheet)
    fill(entry, "Ola", "Ala", 30)
    entry.save()
    sheet.undo_now()  # the sheet object still holds the game before round 2
    assert len(store.load_game(game.id).rounds) == 2
    assert set(conflict(one).buttons) == {"discard"}


# -- access ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("ip", "host"),
    [
        ("127.0.0.1", True),
        ("127.0.0.2", True),
        ("::1", True),
        ("::ffff:127.0.0.1", True),
        ("", False),  # unknown is not the host
        (None, False),
        ("localhost", False),  # a name is never a connection's address
        ("192.168.1.23", False),
        ("10.0.0.5", False),
        ("fe80::1", False),
        ("::ffff:192.168.1.2", False),
        ("not an address", False),
    ],
)
def test_the_host_is_a_connection_from_this_computer(ip: str | None, host: bool) -> None:
    assert live.is_loopback(ip) is host
    assert Visitor.from_peer(ip).host is host


def test_the_host_key_gives_the_hosts_rights_from_any_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(live, "_host_key", "")
    assert not live.host_key_ok("")  # no key made: nothing matches
    key = live.new_host_key()
    assert len(key) >= 32 and live.host_url("http://h:1/") == f"http://h:1/?key={key}"
    assert Visitor.from_peer(PHONE_IP, key).host
    for wrong in (None, "", key[:-1], key + "x", key.upper(), 12345, [key]):
        assert not Visitor.from_peer(PHONE_IP, wrong).host, wrong
    assert "key=***" in log_hygiene.redact(f"GET /?key={key} HTTP/1.1")


def test_the_route_loses_the_host_key() -> None:
    from app.main import split_key

    assert split_key("/game/x?key=K&code=C") == ("/game/x?code=C", "K")
    assert split_key("/?key=K") == ("/", "K")
    assert split_key("/share") == ("/share", None)


def test_join_codes_are_short_and_unambiguous() -> None:
    codes = {live.new_join_code() for _ in range(200)}
    assert len(codes) > 190
    for c in codes:
        assert len(c) == 8 and set(c) <= set(live.CODE_ALPHABET)
        assert live.usable_code(c) == c
    assert not set("IL01O") & set(live.CODE_ALPHABET)
    assert live.normalize_code(" ab c-23 ") == "ABC23"
    assert sharing.group_code("ABCD2345") == "ABCD 2345"
    # 31**8 codes: at the most wrong codes the server can be made to check (well under 1000
    # a second), half the codes take over 13 years
    assert len(live.CODE_ALPHABET) ** live.CODE_LENGTH / 2 / 1000 > 13 * 365 * 86400
    # a shorter code stored by an older version is no code: the share screen makes a new one
    assert live.usable_code("K7M3QZ") is None and live.usable_code("K7M3QZ4I") is None


def test_a_game_stored_with_an_old_short_code_gets_a_new_one(store: Store, game: Game) -> None:
    old = store.save_game(dataclasses.replace(game, join_code="K7M3QZ"), game.version)
    access = live.Access(store)
    phone = SessionStore(store, access, Visitor.from_peer(PHONE_IP), Hub())
    assert phone.join(game.id, "K7M3QZ") is None  # the old code opens nothing
    host = SessionStore(store, access, Visitor.from_peer(HOST_IP), Hub())
    code = host.join_code(old.id)
    assert len(code) == live.CODE_LENGTH and store.load_game(game.id).join_code == code
    assert phone.join(game.id, code) == game.id


def test_a_phone_without_the_code_watches_and_cannot_write(
    store: Store, access: live.Access, hub: Hub, game: Game
) -> None:
    phone = session(store, access, hub, PHONE_IP)
    pss = ss(phone)
    assert not pss.is_host and pss.can_view(game.id) and not pss.can_edit(game.id)
    # the screens: watching, no "Enter round", no undo, no edit/delete of a round
    phone.go(f"/game/{game.id}")
    sheet = phone.screen
    assert isinstance(sheet, ScoreSheet)
    assert sheet.enter_button is None and not sheet.editable
    assert "You are watching" in texts(sheet.view)
    assert "Join with a code" in labels(sheet.view)
    phone.go(f"/game/{game.id}/round/1")
    assert "Edit round 1" not in labels(phone.screen.view)  # type: ignore[union-attr]
    # a round entry route sends it to the join screen
    phone.go(f"/game/{game.id}/round")
    assert isinstance(phone.screen, sharing.JoinScreen)
    # the store refuses every write, whatever the screen shows
    loaded = pss.load_game(game.id)
    with pytest.raises(AccessError) as e:
        pss.save_game(games.add_round(loaded, r101("Ola", "Ala", 3)), loaded.version)
    assert e.value.reason == "join_needed"
    for write in (
        lambda: pss.delete_game(game.id),
        lambda: pss.create_game(games.new_game("gin", ["A", "B"])),
        lambda: pss.set_setting(live.VISITORS_SETTING, live.VIEW),
        lambda: pss.set_visitors(live.VIEW),
        lambda: pss.join_code(game.id),
        lambda: pss.new_join_code(game.id),
        lambda: pss.backup_now(),
    ):
        with pytest.raises(AccessError):
            write()
    assert pss.known_players() == [] and pss.notices == []
    # a phone's theme and language stay on the phone: the data file and the host's defaults
    # are untouched
    pss.set_setting("theme", "dark")
    pss.set_setting("language", "sk")
    assert store.get_setting("theme", None) is None
    assert store.get_setting("language", None) is None
    phone.go("/new")
    assert "Only the host" in texts(phone.screen.view)  # type: ignore[union-attr]
    assert len(store.load_game(game.id).rounds) == 1


def test_the_join_code_lets_a_phone_keep_score(
    store: Store, access: live.Access, hub: Hub, game: Game
) -> None:
    host, phone = session(store, access, hub), session(store, access, hub, PHONE_IP)
    code = ss(host).join_code(game.id)
    assert code == store.load_game(game.id).join_code and len(code) == 8
    phone.go(f"/join?game={game.id}")
    join = phone.screen
    assert isinstance(join, sharing.JoinScreen)
    join.code.value = "WRONG234"
    join.join()
    assert join.error.visible and "not right" in texts(join.error)
    join.code.value = code.lower()[:4] + " " + code[4:]  # case and spaces do not matter
    join.name.value = "Ola"
    join.join()
    assert phone.route == f"/game/{game.id}" and ss(phone).can_edit(game.id)
    sheet = phone.screen
    assert isinstance(sheet, ScoreSheet) and sheet.enter_button is not None
    # the phone saves a round; the host's sheet follows and knows who it was
    host.go(f"/game/{game.id}")
    entry = open_entry(phone, f"/game/{game.id}/round")
    fill(entry, "Ola", "Ala", 30)
    entry.save()
    hs = host.screen
    assert isinstance(hs, ScoreSheet) and len(hs.game.rounds) == 2
    last = hub.last(game.id)
    assert last is not None and last.by == "Ola" and not last.by_host
    # a new code shuts out the phone that had the old one
    ss(host).new_join_code(game.id)
    assert not ss(phone).can_edit(game.id)
    assert phone.screen is not None and not phone.screen.editable  # type: ignore[attr-defined]


def test_the_qr_address_joins_and_a_code_alone_finds_its_game(
    store: Store, access: live.Access, hub: Hub, game: Game
) -> None:
    code = access.ensure_code(game.id)
    phone = session(store, access, hub, PHONE_IP)
    phone.go(f"/game/{game.id}?code={code}")  # what the QR code holds
    assert isinstance(phone.screen, ScoreSheet) and ss(phone).can_edit(game.id)
    other = session(store, access, hub, "192.168.1.24")
    other.go(f"/game/{game.id}?code=AAAAAAAA")
    assert isinstance(other.screen, sharing.JoinScreen)
    assert other.screen.error.visible
    other.go("/join")  # no game given: the code finds it among the unfinished games
    join = other.screen
    assert isinstance(join, sharing.JoinScreen)
    join.code.value = code
    join.join()
    assert other.route == f"/game/{game.id}" and ss(other).can_edit(game.id)


def test_the_right_code_of_an_ended_game_opens_it_and_is_no_wrong_try(
    store: Store, access: live.Access, hub: Hub, game: Game
) -> None:
    """Hostile-phone finding: a joined phone ended the game; a new phone typing that game's
    (right) code on the plain /join screen was told the code is wrong, and it counted."""
    code = access.ensure_code(game.id)
    host = SessionStore(store, access, Visitor.from_peer(HOST_IP), hub)
    ended = host.save_game(games.end_game(host.load_game(game.id)), None)
    assert games.standings(ended).finished
    phone = session(store, access, hub, PHONE_IP)
    phone.go("/join")
    join = phone.screen
    assert isinstance(join, sharing.JoinScreen)
    join.code.value = code
    join.join()
    assert not join.error.visible
    assert access.failed_addresses() == 0  # not a wrong try
    assert phone.route == f"/game/{game.id}" and isinstance(phone.screen, ScoreSheet)
    assert any("That game has ended" in n for n in phone.messages), phone.messages
    # the code gives the joined rights ("One more round" reopens it): the message says so
    told = [n for n in phone.messages if "That game has ended" in n]
    assert "start one more round" in told[0] and ss(phone).can_edit(game.id)
    # a wrong code still counts, and an unfinished game's code wins over an ended one's
    assert ss(session(store, access, hub, "192.168.1.30")).join(None, "AAAAAAAA") is None
    assert access.failed_addresses() == 1


def test_a_code_typed_alone_tries_only_a_few_ended_games(
    store: Store, access: live.Access, game: Game
) -> None:
    one = store.list_games()[0]
    items = [
        dataclasses.replace(one, id=f"e{i}", finished=True, updated=f"2026-01-{i + 1:02d}")
        for i in range(9)
    ]
    items.insert(3, dataclasses.replace(one, id="open", finished=False, updated="2020-01-01"))
    order = live.lookup_order(items)
    assert order == ["open", "e8", "e7", "e6", "e5", "e4"]  # unfinished first, 5 ended
    assert live.ENDED_LOOKUP == 5


def test_visitors_see_nothing_when_the_host_says_so(
    store: Store, access: live.Access, hub: Hub, game: Game
) -> None:
    host, phone = session(store, access, hub), session(store, access, hub, PHONE_IP)
    phone.go(f"/game/{game.id}")
    assert isinstance(phone.screen, ScoreSheet)
    host.go(f"/share?game={game.id}")
    share = host.screen
    assert isinstance(share, sharing.ShareScreen)
    share.visitors.pick(live.NOTHING)
    assert access.visitors() == live.NOTHING
    # the watching phone is shut out at once, and the list shows it nothing
    assert isinstance(phone.screen, sharing.JoinScreen)
    assert ss(phone).list_games() == [] and not ss(phone).can_view(game.id)
    with pytest.raises(AccessError):
        ss(phone).load_game(game.id)
    phone.go("/")
    listed = phone.screen
    assert isinstance(listed, GamesList) and listed.summaries == []
    assert "Join a table with its code" in texts(listed.view)
    assert "New game" not in texts(listed.view)
    # with the code it sees (and keeps score in) that game only
    assert ss(phone).join(game.id, access.code_for(game.id) or "") == game.id
    assert [s.id for s in ss(phone).list_games()] == [game.id]
    share.visitors.pick(live.VIEW)
    assert access.visitors() == live.VIEW


def test_wrong_codes_are_limited_per_address(store: Store, game: Game) -> None:
    now = [1000.0]
    access = live.Access(store, clock=lambda: now[0])
    code = access.ensure_code(game.id)
    phone = SessionStore(store, access, Visitor.from_peer(PHONE_IP), Hub())
    for _ in range(live.MAX_TRIES):
        assert phone.join(game.id, "ZZZZZZZZ") is None
    with pytest.raises(AccessError) as e:
        phone.join(game.id, code)  # even the right code waits now
    assert e.value.reason == "too_many_tries" and 0 < e.value.wait <= live.TRY_WINDOW
    other = SessionStore(store, access, Visitor.from_peer("192.168.1.99"), Hub())
    assert other.join(game.id, code) == game.id  # another address is not held up
    now[0] += live.TRY_WINDOW + 1
    assert phone.join(game.id, code) == game.id


def _phone(store: Store, access: live.Access, n: int) -> SessionStore:
    return SessionStore(store, access, Visitor.from_peer(f"10.1.{n // 250}.{n % 250}"), Hub())


def test_wrong_codes_from_many_addresses_slow_each_but_lock_nobody_out(
    store: Store, game: Game
) -> None:
    now = [1000.0]
    access = live.Access(store, clock=lambda: now[0])
    code = access.ensure_code(game.id)
    # a guesser that takes a new address for every wrong code: 4 addresses x 5 tries used to
    # close joining by code for everyone for a minute
    for n in range(live.GLOBAL_PRESSURE):
        assert not access.under_pressure()
        assert _phone(store, access, n).join(game.id, "ZZZZZZZZ") is None
    assert access.under_pressure()
    # a real player from a fresh address: still in at once, and a typo first is fine
    real = SessionStore(store, access, Visitor.from_peer("10.9.9.9"), Hub())
    assert real.join(game.id, "ZZZZZZZY") is None
    assert real.join(game.id, code) == game.id
    # while the pressure lasts each guessing address gets PRESSURE_TRIES, not MAX_TRIES
    guesser = _phone(store, access, 500)
    for _ in range(live.PRESSURE_TRIES):
        assert guesser.join(game.id, "ZZZZZZZZ") is None
    with pytest.raises(AccessError) as e:
        guesser.join(game.id, "ZZZZZZZX")
    assert e.value.reason == "too_many_tries" and 0 < e.value.wait <= live.TRY_WINDOW
    late = SessionStore(store, access, Visitor.from_peer("10.9.9.10"), Hub())
    assert late.join(game.id, code) == game.id  # others are never refused for it
    # a window later the pressure is gone: MAX_TRIES again
    now[0] += live.TRY_WINDOW + 1
    assert not access.under_pressure()
    for _ in range(live.MAX_TRIES):
        assert guesser.join(game.id, "ZZZZZZZZ") is None
    with pytest.raises(AccessError):
        guesser.join(game.id, code)


def test_failed_code_records_are_pruned(store: Store, game: Game) -> None:
    now = [1000.0]
    access = live.Access(store, clock=lambda: now[0])
    code = access.ensure_code(game.id)
    for n in range(300):  # many addresses, one wrong code each, 0.1 s apart
        assert _phone(store, access, n).join(game.id, "ZZZZZZZZ") is None
        now[0] += 0.1
    assert access.failed_addresses() == 300
    # 60 s after the first: the first ones (older than the window) are gone, the rest kept
    now[0] = 1000.0 + live.TRY_WINDOW + 5.05
    assert _phone(store, access, 9999).join(game.id, code) == game.id
    assert access.failed_addresses() == 300 - 51
    # an address that failed again is kept by its latest wrong code
    _phone(store, access, 299).join(game.id, "ZZZZZZZZ")
    now[0] += live.TRY_WINDOW
    _phone(store, access, 9998).join(game.id, code)
    assert access.failed_addresses() == 1
    now[0] += 1
    _phone(store, access, 9998).join(game.id, code)
    assert access.failed_addresses() == 0
    # a per-address record keeps at most MAX_TRIES times
    guesser = _phone(store, access, 7)
    for _ in range(3 * live.MAX_TRIES):
        with contextlib.suppress(AccessError):
            guesser.join(game.id, "ZZZZZZZZ")
        now[0] += live.TRY_WINDOW / 4
    assert all(len(d) <= live.MAX_TRIES for d in access._fails.values())


@pytest.mark.parametrize(
    "name",
    [
        "The host's computer",
        "the HOST\u2019S   computer",
        "The h\u043est's computer",  # a Cyrillic o
        "Komputer gospodarza",  # the Polish label (app/locale/pl)
        "A phone on the network",
        "The host's computer (really)",
        "Someone",
        "Bartek\u202e",  # a bidi override
        "Ola\x07",
        "x" * 41,
        # small capitals
        "\u1d1b\u029c\u1d07 \u029c\u1d0f\ua731\u1d1b'\ua731 "
        "\u1d04\u1d0f\u1d0d\u1d18\u1d1c\u1d1b\u1d07\u0280",
        "T\u04bbe host's computer",  # Cyrillic shha for h
        # fullwidth
        "\uff34\uff48\uff45 \uff48\uff4f\uff53\uff54's "
        "\uff43\uff4f\uff4d\uff50\uff55\uff54\uff45\uff52",
        # Cyrillic
        "\u0422\u04bb\u0435 \u04bb\u043e\u0455\u0442's \u0441\u043e\u043c\u0440u\u0442\u0435r",
        "The\u200bhost's computer",  # a zero-width space
        "The host's\u200dcomputer",  # a zero-width joiner (allowed in emoji): still the label
        "\u2067Bartek\u2069",  # a bidi isolate
        "K\u043emputer g\u043esp\u043edarza",  # the Polish label with Cyrillic o
        "Po\u010d\u00edta\u010d hostite\u013ea",  # the Slovak label
        "Pocitac hostitela",  # ... without its accents
        "\U0001d413\U0001d421\U0001d41e \U0001d421\U0001d428\U0001d42c\U0001d42d's computer",
    ],
)
def test_a_joining_phone_cannot_take_a_label_or_hide_characters(
    store: Store, game: Game, name: str
) -> None:
    access = live.Access(store)
    code = access.ensure_code(game.id)
    phone = SessionStore(store, access, Visitor.from_peer(PHONE_IP), Hub())
    if name == "Komputer gospodarza":
        from app import i18n

        with i18n.use_language("pl"):
            name = i18n._("The host's computer")
    with pytest.raises(AccessError) as e:
        phone.join(game.id, code, name)
    assert e.value.reason == "bad_name"
    assert not phone.can_edit(game.id)  # and the code was not used up
    assert phone.join(game.id, code, "  Bartek  ") == game.id
    assert phone.visitor.name == "Bartek"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Bartek", "\u0412artek"),  # a Cyrillic Ve
        ("Bartek", "BARTEK"),
        ("Bartek", "B a r t e k"),
        ("Ola", "0la"),
        ("Ivo", "lvo"),  # I and l look the same
        ("Ivo", "ivo"),
        ("Jan", "J\u00e1n"),  # an accent does not make another person (decision)
        ("\u0141ukasz", "Lukasz"),
        ("\u017dofia", "Zofia"),
        ("\u013dubica", "Lubica"),
        ("Zo\u00eb", "Zoe\u0308"),  # composed or not
        ("\U0001f431", "\U0001f431"),  # a name without letters: compared as it is
        # letters that read as one
        ("Sam", "Sarn"),  # rn reads as m
        ("Kamil", "Karnil"),
        ("Iwona", "Ivvona"),  # vv reads as w
        ("Dawid", "Davvid"),
        ("Dawid", "clawid"),  # cl reads as d
        ("Dawid", "cIawid"),
        ("Amold", "Arnold"),  # decision: a clash of two real spellings, accepted
        ("Marian", "Marlan"),
    ],
)
def test_a_joining_phone_cannot_take_another_phones_name_by_a_look_alike(
    store: Store, game: Game, first: str, second: str
) -> None:
    access = live.Access(store)
    code = access.ensure_code(game.id)
    a = SessionStore(store, access, Visitor.from_peer(PHONE_IP), Hub())
    b = SessionStore(store, access, Visitor.from_peer("192.168.1.24"), Hub())
    assert a.join(game.id, code, first) == game.id
    with pytest.raises(AccessError) as e:
        b.join(game.id, code, second)
    assert e.value.reason == "bad_name" and e.value.detail == "taken"
    assert not b.can_edit(game.id)
    assert "Choose another one" in sharing.access_message(e.value)
    assert b.join(game.id, code, second + " 2") == game.id  # another name is fine
    assert a.join(game.id, code, first) == game.id  # the holder itself may say it again


def test_real_names_with_the_folded_pairs_stay_apart() -> None:
    from app.guard_names import skeleton

    names = ["Marcin", "Arnold", "Bernard", "Kornelia", "Wiktor", "Ivona", "Claudia", "Dominik"]
    names += ["Ewa", "Ewelina", "Mariusz", "Marian", "Mirek", "Ludmila", "Lucia", "Alicja"]
    assert len({skeleton(n) for n in names}) == len(names)
    assert skeleton("Sarn") == skeleton("Sam") and skeleton("Davvid") == skeleton("Dawid")
    assert skeleton("Ivvona") == skeleton("Iwona") and skeleton("c1awid") == skeleton("Dawid")


BLANKS = ["\u3164", "\u115f", "\u1160", "\uffa0", "\u2800", "\u034f", "\u180b", "\ufe00"]


@pytest.mark.parametrize("blank", BLANKS)
def test_blank_filler_characters_are_refused_in_joined_and_player_names(
    store: Store, game: Game, blank: str
) -> None:
    from app import error_text

    access = live.Access(store)
    code = access.ensure_code(game.id)
    phone = SessionStore(store, access, Visitor.from_peer(PHONE_IP), Hub())
    for name in ("Ola" + blank, blank, blank * 3, "O" + blank + "la"):
        with pytest.raises(AccessError) as e:
            phone.join(game.id, code, name)
        assert e.value.reason == "bad_name" and e.value.detail == "unreadable"
        with pytest.raises(games.GameError) as g:
            games._check_name(name)
        assert g.value.code == "bad_player_name"
        assert g.value.params["char"] == f"U+{ord(blank):04X}"
        assert "cannot be shown" in error_text.describe(g.value)  # the existing sentence
    assert not phone.can_edit(game.id)
    # the emoji's own joiners and selectors, and wide spaces (squeezed), still pass
    assert games._check_name("Ola\u3000") == "Ola"
    assert games._check_name("\U0001f468\u200d\U0001f469\ufe0f") != ""


@pytest.mark.parametrize(
    "name",
    [
        "Host's computer",
        "Host computer",
        "The host",
        "Host",
        "H\u043eST",  # a Cyrillic o
        "Admin",
        "Administrator",
        "Gospodarz",
        "Komputer gospodarz",
        "Komputer gospodarza",
        "Gospodyni",
        "Hostite\u013e",
        "Po\u010d\u00edta\u010d hostite\u013ea",
        "Phone on the network",
        "Telefon w sieci",
        "Someone",
    ],
)
def test_a_joined_phone_cannot_pass_for_the_host(store: Store, game: Game, name: str) -> None:
    access = live.Access(store)
    code = access.ensure_code(game.id)
    phone = SessionStore(store, access, Visitor.from_peer(PHONE_IP), Hub())
    with pytest.raises(AccessError) as e:
        phone.join(game.id, code, name)
    assert e.value.reason == "bad_name" and e.value.detail == "reserved"
    assert not phone.can_edit(game.id)
    assert games._check_name(name) == name  # the host's own players may be called so


@pytest.mark.parametrize("name", ["Bartek", "Ola", "Network", "Telefon", "Dawid", "Tomasz"])
def test_ordinary_names_are_not_taken_for_the_host(store: Store, game: Game, name: str) -> None:
    access = live.Access(store)
    code = access.ensure_code(game.id)
    phone = SessionStore(store, access, Visitor.from_peer(PHONE_IP), Hub())
    assert phone.join(game.id, code, name) == game.id


def test_polish_and_slovak_names_stay_apart_and_as_typed(store: Store, game: Game) -> None:
    access = live.Access(store)
    code = access.ensure_code(game.id)
    names = [
        "\u0141ukasz",
        "J\u00e1n",
        "\u013dubica",
        "\u017dofia",
        "Ma\u0142gorzata",
        "\u0160tef\u00e1nia",
    ]
    phones = []
    for n, name in enumerate(names):
        phone = SessionStore(store, access, Visitor.from_peer(f"192.168.1.{50 + n}"), Hub())
        assert phone.join(game.id, code, name) == game.id, name
        assert phone.visitor.name == name  # shown with its letters
        phones.append(phone)
    # the name is free again once its session is gone
    del phones[0], phone
    import gc

    gc.collect()
    again = SessionStore(store, access, Visitor.from_peer("192.168.1.70"), Hub())
    assert again.join(game.id, code, "Lukasz") == game.id


def test_a_wrong_code_does_not_tell_which_names_are_taken(store: Store, game: Game) -> None:
    access = live.Access(store)
    code = access.ensure_code(game.id)
    a = SessionStore(store, access, Visitor.from_peer(PHONE_IP), Hub())
    assert a.join(game.id, code, "Bartek") == game.id
    b = SessionStore(store, access, Visitor.from_peer("192.168.1.24"), Hub())
    assert b.join(game.id, "ZZZZZZZZ", "Bartek") is None  # just a wrong code


def test_a_join_token_takes_its_name_back_from_the_phones_old_session(
    store: Store, game: Game
) -> None:
    access = live.Access(store)
    code = access.ensure_code(game.id)
    old = SessionStore(store, access, Visitor.from_peer(PHONE_IP), Hub())
    assert old.join(game.id, code, "Bartek") == game.id
    [token] = old.tokens()
    new = Visitor.from_peer(PHONE_IP)  # a reload while the old session is still kept
    assert new.restore(access, [token]) == [game.id] and new.name == "Bartek"
    other = SessionStore(store, access, Visitor.from_peer("192.168.1.24"), Hub())
    with pytest.raises(AccessError):
        other.join(game.id, code, "Bartek")


def test_a_join_token_brings_the_rights_back_and_cannot_be_forged(store: Store, game: Game) -> None:
    access = live.Access(store)
    code = access.ensure_code(game.id)
    phone = SessionStore(store, access, Visitor.from_peer(PHONE_IP), Hub())
    assert phone.join(game.id, code, "Bartek") == game.id
    [token] = phone.tokens()
    later = Visitor.from_peer("192.168.1.77")  # the phone came back with another address
    assert later.restore(access, [token]) == [game.id] and later.name == "Bartek"
    assert SessionStore(store, access, later, Hub()).can_edit(game.id)
    gid, hexname, mac = token.split(".")
    forged = [
        f"{gid}.{b'Ewa'.hex()}.{mac}",  # another name
        f"{gid}.{hexname}.{'0' * 32}",
        f"{'f' * 32}.{hexname}.{mac}",  # another game
        token + "x",
        "",
        None,
        42,
    ]
    for bad in forged:
        assert Visitor.from_peer(PHONE_IP).restore(access, [bad]) == [], bad
    access.new_code(game.id)  # a new code: old tokens stop working
    assert Visitor.from_peer(PHONE_IP).restore(access, [token]) == []


def test_a_join_token_of_a_long_emoji_name_still_brings_the_seat_back(
    store: Store, game: Game
) -> None:
    # 40 four-byte emoji (the longest name a join accepts) make a token of 32 + 320 + 32 + 2
    # = 386 characters: the old 300-character limit refused it at every reload
    access = live.Access(store)
    code = access.ensure_code(game.id)
    name = "\U0001f600" * 40
    phone = SessionStore(store, access, Visitor.from_peer(PHONE_IP), Hub())
    assert phone.join(game.id, code, name) == game.id
    [token] = phone.tokens()
    assert len(token) == 386
    later = Visitor.from_peer("192.168.1.77")
    assert later.restore(access, [token]) == [game.id] and later.name == name
    # twenty such tokens, as the phone stores them, are read back
    assert main.stored_tokens(json.dumps([token] * live.MAX_TOKENS)) == [token] * live.MAX_TOKENS
    # a token over the limit is neither read nor issued
    gid, _hexname, mac = token.split(".")
    assert access.redeem(f"{gid}.{'41' * 490}.{mac}") is None
    assert access.issue_token(game.id, "A" * 490) is None


def test_share_screen_shows_the_code_as_text_and_qr(
    store: Store, access: live.Access, hub: Hub, game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live, "SERVER", live.ServerInfo("192.168.1.10", 8600))
    host = session(store, access, hub)
    host.go(f"/share?game={game.id}")
    share = host.screen
    assert isinstance(share, sharing.ShareScreen)
    code = store.load_game(game.id).join_code
    assert (
        code and share.code_text is not None and share.code_text.value == f"{code[:4]} {code[4:]}"
    )
    assert share.url == f"http://192.168.1.10:8600/game/{game.id}?code={code}"
    # drawn on a canvas, not an image: an image from bytes is not drawn where the page is not
    # a secure context (plain http on the LAN address); its modules: tests/test_share_qr.py
    assert isinstance(share.qr, ft.canvas.Canvas)
    assert "Phones cannot reach" not in texts(share.view)
    monkeypatch.setattr(live, "SERVER", live.ServerInfo("127.0.0.1", 8550))
    host.refresh()
    assert "Phones cannot reach the app now" in texts(host.screen.view)  # type: ignore[union-attr]
    # a phone asking for /share gets the join form
    phone = session(store, access, hub, PHONE_IP)
    phone.go("/share")
    assert isinstance(phone.screen, sharing.ShareScreen) and hasattr(phone.screen, "join")


def test_the_share_screens_qr_code_scans_to_the_join_address() -> None:
    """The module grid the share screen draws (app/ui/table/sharing.py) read back by a real decoder
    (OpenCV's), as a phone's camera would."""
    import cv2
    import numpy as np

    url = "http://192.168.1.10:8550/game/abc?code=ABC23456"
    modules = np.array(sharing.qr_matrix(url), dtype=bool)
    picture = np.kron(np.where(modules, 0, 255).astype(np.uint8), np.ones((8, 8), np.uint8))
    text, _points, _straight = cv2.QRCodeDetector().detectAndDecode(picture)
    assert text == url
    assert modules[0].sum() == 0 and modules.sum() > 0  # a light quiet zone, dark modules


# -- logs -----------------------------------------------------------------------------------------
def test_no_join_code_or_player_name_reaches_the_logs(
    store: Store, access: live.Access, hub: Hub, caplog: pytest.LogCaptureFixture
) -> None:
    log_hygiene.install_log_hygiene()
    for name in ("flet", "uvicorn.access", "flet_transport"):
        assert logging.getLogger(name).getEffectiveLevel() >= logging.WARNING
    caplog.set_level(logging.DEBUG)
    host = session(store, access, hub)
    phone = session(store, access, hub, PHONE_IP)
    g = ss(host).create_game(games.new_game("rummy101", ["Zofia", "Jadwiga"]))
    code = ss(host).join_code(g.id)
    assert ss(phone).join(g.id, "QQQQQQ") is None
    assert ss(phone).join(g.id, code, "Bartek") == g.id
    phone.go(f"/game/{g.id}?code={code}")
    entry = open_entry(phone, f"/game/{g.id}/round")
    fill(entry, "Zofia", "Jadwiga", 12)
    entry.save()
    # what the app and the libraries might log, each kind once
    logging.getLogger("app").warning("opened %s for %s", f"/game/{g.id}?code={code}", "Zofia")
    logging.getLogger("app").error("cannot show %s", f"/join?game={g.id}&code={code.lower()}")
    logging.getLogger("uvicorn.error").error(
        '%s - "%s %s HTTP/%s" %d', "192.168.1.23:5000", "GET", f"/g?code={code}", "1.1", 200
    )
    try:
        raise games.GameError(f"player 'Jadwiga' with code {code}")
    except games.GameError:
        logging.getLogger("app").exception("save failed")
    with pytest.raises(AccessError):
        ss(session(store, access, hub, "10.0.0.9")).save_game(store.load_game(g.id), 1)
    logged = caplog.text + "\n".join(str(r.args) + (r.exc_text or "") for r in caplog.records)
    assert "code=***" in logged and "save failed" in logged
    for secret in (code, code.lower(), "Zofia", "Jadwiga", "Bartek"):
        assert secret not in logged, secret
    # the record's shape is kept for formatters that unpack the arguments (uvicorn access)
    r = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, "%s %s", ("a", 3), None)
    made = logging.getLogRecordFactory()(
        "x", logging.INFO, __file__, 1, "%s %s", ("Zofia", 3), None
    )
    assert made.args == ("***", 3) and r.args == ("a", 3)


# -- one process per data file --------------------------------------------------------------------
@pytest.mark.slow
def test_a_second_app_process_on_the_same_data_is_refused(store: Store) -> None:
    env = dict(os.environ, CI="true", PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-m", "app", "--data", str(store.path), "--port", "0", "--no-browser"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2, out.stdout + out.stderr
    assert "cannot open" in out.stderr and "already open" in out.stderr, out.stderr


def test_a_message_for_a_connection_that_ends_while_it_is_encoded_is_dropped() -> None:
    """A sync handler (a session's close handler) sends from a worker thread; the send loop
    may end meanwhile (the field set to None): no AttributeError traceback then."""
    import asyncio
    from types import SimpleNamespace

    from app import guard

    cls: Any = guard._make_connection_class()
    conn = cls.__new__(cls)

    @dataclasses.dataclass
    class Body:
        x: int = 0

    def ends(_self: Any) -> int:
        conn._FletApp__send_queue = None  # the send loop ended while this thread encoded
        return 1

    Body.x = property(ends)  # type: ignore[assignment]
    conn._FletApp__send_queue = asyncio.Queue()
    conn.send_message(SimpleNamespace(action=1, body={"a": object.__new__(Body)}))
    assert conn._FletApp__send_queue is None
    conn.send_message(SimpleNamespace(action=1, body={}))  # and after: dropped as well
