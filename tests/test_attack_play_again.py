"""A hostile phone after "Play again with the same players" (tester B, findings on play-again).

Before: the new game kept the old game's join code and the old game kept it too, so after the
host made a new code for the new game, a phone with the old code joined the finished game and
could delete its rounds or reopen it; a double tap made two new games, the first one left
unfinished with the old code; with visitors seeing nothing, joined phones were not carried.

Now the code MOVES to the new game (app/live.py, ``SessionStore.play_again``): one code opens
one game. Sessions are Apps without a page (tests/play_again_helpers.py): rights are decided
by the server-side :class:`app.live.SessionStore`, from nothing the phone sends but the code.
Scores: RULES.md §4, Tile Rummy, the finished series of tests/play_again_helpers.py.
"""

from __future__ import annotations

import dataclasses
import threading

import pytest

from app import games, live
from app.games import Game
from app.store import Store
from app.ui.sheet import game_end
from app.ui.shell import App
from app.ui.table import sharing
from tests.play_again_helpers import (
    HOST_IP,
    ended_series,
    joined_phone,
    play_again,
    session,
    sheet,
    ss_of,
)
from tests.test_flow import PLAYERS

pytestmark = pytest.mark.usefixtures("fresh_shared")


def table(store: Store) -> tuple[App, App, Game, str]:
    """The host, a phone that joined the finished game with its code, the game, the code."""
    hub = live.Hub()
    host = session(store, hub, True, HOST_IP)
    old = ended_series(host)
    code = ss_of(host).join_code(old.id)
    phone = joined_phone(store, hub, old, code, "192.168.7.20", "Ola")
    phone.go(f"/game/{old.id}")
    return host, phone, old, code


def test_the_code_moves_to_the_new_game(store: Store) -> None:
    host, phone, old, code = table(store)
    new_id = play_again(host, old)
    assert store.load_game(new_id).join_code == code
    assert store.load_game(old.id).join_code is None  # the finished game keeps no code
    late = session(store, live.Hub(), False, "192.168.7.21")
    assert ss_of(late).join(old.id, code) is None  # the old game opens to no code
    assert ss_of(late).join(None, code) == new_id  # the code opens the new game only
    # the joined phone goes on in the new game, and only looks at the old one
    assert phone.route == f"/game/{new_id}" and sharing.can_edit(phone, new_id)
    assert not sharing.can_edit(phone, old.id)
    assert sharing.can_edit(host, old.id)  # the host keeps every right


def test_a_new_code_for_the_new_game_leaves_no_game_open_to_the_old(store: Store) -> None:
    host, phone, old, code = table(store)
    new_id = play_again(host, old)
    ss_of(host).new_join_code(new_id)
    late = ss_of(session(store, live.Hub(), False, "192.168.7.22"))
    assert late.join(old.id, code) is None
    assert late.join(new_id, code) is None
    assert late.join(None, code) is None
    assert not late.can_edit(old.id) and not late.can_edit(new_id)


def test_a_phone_of_the_old_game_cannot_change_it_after_play_again(store: Store) -> None:
    host, phone, old, code = table(store)
    play_again(host, old)
    ss = ss_of(phone)
    stored = store.load_game(old.id)
    reopened = game_end.one_more_round(stored)
    assert reopened is not None
    with pytest.raises(live.AccessError) as e:  # "One more round"
        ss.save_game(reopened, stored.version)
    assert e.value.reason == "join_needed"
    with pytest.raises(live.AccessError):  # "Delete round 1"
        ss.save_game(games.delete_round(stored, 0), stored.version)
    assert store.load_game(old.id).rounds == old.rounds  # nothing changed
    assert store.load_game(old.id).version == stored.version


def test_a_double_tap_makes_one_game(store: Store) -> None:
    host, phone, old, code = table(store)
    before = len(store.list_games())
    new_id = play_again(host, old, times=2)
    assert len(store.list_games()) == before + 1
    assert store.load_game(old.id).extra[sharing.NEXT_GAME_KEY] == new_id
    assert [g.id for g in store.list_games() if store.load_game(g.id).join_code == code] == [new_id]


def test_handlers_fired_at_once_make_one_game(store: Store) -> None:
    host, phone, old, code = table(store)
    before = len(store.list_games())
    ss = ss_of(host)
    got: list[tuple[str, bool]] = []
    start = threading.Barrier(4)

    def tap() -> None:
        start.wait()
        made, new = ss.play_again(old.id, game_end.replay, sharing.NEXT_GAME_KEY)
        got.append((made.id, new))

    threads = [threading.Thread(target=tap) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({gid for gid, _ in got}) == 1 and sum(new for _, new in got) == 1
    assert len(store.list_games()) == before + 1


def test_a_phone_cannot_play_again(store: Store) -> None:
    host, phone, old, code = table(store)
    before = len(store.list_games())
    with pytest.raises(live.AccessError) as e:
        ss_of(phone).play_again(old.id, game_end.replay, sharing.NEXT_GAME_KEY)
    assert e.value.reason == "host_only"
    assert len(store.list_games()) == before and store.load_game(old.id).join_code == code


def test_a_game_stored_with_a_code_another_holds_gets_its_own(store: Store) -> None:
    host, phone, old, code = table(store)
    forged = dataclasses.replace(games.new_game("tile_rummy", PLAYERS), join_code=code)
    stored = ss_of(host).create_game(forged)  # an import carrying a code, say
    assert stored.join_code and stored.join_code != code
    # typed alone, the code opens the ended game it belongs to (to look at), never the import
    assert ss_of(session(store, live.Hub(), False, "192.168.7.23")).join(None, code) == old.id
    assert ss_of(session(store, live.Hub(), False, "192.168.7.26")).join(old.id, code) == old.id


def test_with_visitors_seeing_nothing_a_joined_phone_is_carried(store: Store) -> None:
    hub = live.Hub()
    host = session(store, hub, True, HOST_IP)
    old = ended_series(host)
    code = ss_of(host).join_code(old.id)
    ss_of(host).set_visitors(live.NOTHING)
    phone = joined_phone(store, hub, old, code, "192.168.7.24", "Ola")
    stranger = session(store, hub, False, "192.168.7.25")
    phone.go(f"/game/{old.id}")
    new_id = play_again(host, old)
    assert phone.route == f"/game/{new_id}"
    assert sharing.can_edit(phone, new_id)
    screen = sheet(phone)
    assert screen.game.id == new_id
    assert screen.enter_button is not None  # "Enter round 1"
    # the old game it played: it may look, not change; a stranger sees neither
    assert ss_of(phone).can_view(old.id) and not ss_of(phone).can_edit(old.id)
    assert not ss_of(stranger).can_view(old.id) and not ss_of(stranger).can_view(new_id)
    assert ss_of(phone).access.failed_addresses() == 0


def test_a_new_code_shuts_the_old_one_out_of_games_an_older_version_left_sharing_it(
    store: Store,
) -> None:
    hub = live.Hub()
    host = session(store, hub, True, HOST_IP)
    old = ended_series(host)
    code = ss_of(host).join_code(old.id)
    # as an older version's "Play again" left them: both games hold the code
    new = store.create_game(dataclasses.replace(game_end.replay(old), join_code=code))
    ss_of(host).new_join_code(new.id)
    late = ss_of(session(store, hub, False, "192.168.7.27"))
    assert late.join(old.id, code) is None and late.join(new.id, code) is None
    assert store.load_game(old.id).join_code is None
    assert store.load_game(old.id).rounds == old.rounds
