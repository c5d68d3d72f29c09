"""Phones watching a finished game follow "Play again with the same players" (issue 10,
leftover 2): the host's new game is shown on every phone that watched the old one (its score
sheet, or its table display), a phone that had joined the old game keeps keeping score in the
new one (the table's join code moves there: tests/test_attack_play_again.py), and whoever
opens the old game later is offered the way to the new one.

Sessions are Apps without a page (tests/play_again_helpers.py): a change is delivered at
once, in the writer's call. Scores (RULES.md §4, Tile Rummy): round A — Ala out, Ola R5 JK
(35), Ela B1 B2 (3); round E — Ela out, Ala K9, Ola B3: totals Ala 29, Ola −38, Ela 9; the
players end the series: Ala wins.
"""

from __future__ import annotations

import pytest

from app import games, live
from app.store import Store
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
from tests.test_views import screen_text

pytestmark = pytest.mark.usefixtures("fresh_shared")


def test_watching_phones_follow_the_new_game(store: Store) -> None:
    hub = live.Hub()
    host = session(store, hub, True, HOST_IP)
    old = ended_series(host)
    watcher = session(store, hub, False, "192.168.1.20")
    table = session(store, hub, False, "192.168.1.21")
    elsewhere = session(store, hub, False, "192.168.1.22")
    watcher.go(f"/game/{old.id}")
    table.go(f"/game/{old.id}/table")
    elsewhere.go(f"/game/{old.id}/round/1")  # a round's detail: left alone, the sheet links
    assert "Ala wins!" in screen_text(watcher)

    new_id = play_again(host, old)

    assert watcher.route == f"/game/{new_id}"
    new_sheet = sheet(watcher)
    assert new_sheet.game.players == old.players and new_sheet.game.rounds == []
    assert "The same players started a new game: here it is." in watcher.messages
    assert table.route == f"/game/{new_id}/table"
    assert elsewhere.route == f"/game/{old.id}/round/1"
    # a phone that only watched still only watches
    assert not sharing.can_edit(watcher, new_id) and new_sheet.enter_button is None
    # the old game is unchanged but for the pointer: its rounds, totals and undo stay
    stored_old = store.load_game(old.id)
    assert stored_old.extra[sharing.NEXT_GAME_KEY] == new_id
    assert stored_old.rounds == old.rounds and stored_old.undo_log == old.undo_log
    assert games.standings(stored_old).winners == ("Ala",)


def test_a_joined_phone_keeps_keeping_score_in_the_new_game(store: Store) -> None:
    hub = live.Hub()
    host = session(store, hub, True, HOST_IP)
    old = ended_series(host)
    code = ss_of(host).join_code(old.id)
    phone = joined_phone(store, hub, old, code, "192.168.1.30", "Ola")
    ss = ss_of(phone)
    phone.go(f"/game/{old.id}")

    new_id = play_again(host, old)

    assert phone.route == f"/game/{new_id}"
    assert sharing.can_edit(phone, new_id)
    assert sheet(phone).enter_button is not None  # "Enter round 1"
    assert store.load_game(new_id).join_code == code  # the same table, the same code
    assert store.load_game(old.id).join_code is None  # moved: one code opens one game
    assert ss.access.failed_addresses() == 0  # carrying the join counted no wrong code


def test_a_joined_phone_whose_code_was_changed_only_watches_the_new_game(store: Store) -> None:
    hub = live.Hub()
    host = session(store, hub, True, HOST_IP)
    old = ended_series(host)
    code = ss_of(host).join_code(old.id)
    phone = joined_phone(store, hub, old, code, "192.168.1.31")
    ss = ss_of(phone)
    ss_of(host).new_join_code(old.id)  # the phone is shut out
    old = store.load_game(old.id)
    phone.go(f"/game/{old.id}")

    new_id = play_again(host, old)

    assert phone.route == f"/game/{new_id}"
    assert not sharing.can_edit(phone, new_id)
    assert ss.access.failed_addresses() == 0


def test_the_old_game_links_to_the_new_one_later(store: Store) -> None:
    hub = live.Hub()
    host = session(store, hub, True, HOST_IP)
    old = ended_series(host)
    new_id = play_again(host, old)
    late = session(store, hub, False, "192.168.1.40")  # a phone that opens the old game later
    late.go(f"/game/{old.id}")
    text = screen_text(late)
    assert "The same players started a new game." in text and "Open the new game" in text
    banner = sharing.next_game_banner(late, sheet(late).game)
    assert banner is not None
    button = banner.content.controls[1]  # type: ignore[attr-defined]
    button.on_click(None)
    assert late.route == f"/game/{new_id}"
    # the host opening the old game from the history sees it as well
    host.go(f"/game/{old.id}")
    assert "Open the new game" in screen_text(host)


def test_no_link_when_the_new_game_is_gone_or_the_old_one_opened_again(store: Store) -> None:
    hub = live.Hub()
    host = session(store, hub, True, HOST_IP)
    old = ended_series(host)
    new_id = play_again(host, old)
    host.go(f"/game/{old.id}")
    assert "Open the new game" in screen_text(host)
    host.store.delete_game(new_id)
    host.go(f"/game/{old.id}")
    assert "Open the new game" not in screen_text(host)

    again = play_again(host, store.load_game(old.id))
    reopened = games.undo(store.load_game(old.id))  # undo the end: the series goes on
    store.save_game(reopened, reopened.version)
    host.go(f"/game/{old.id}")
    assert not games.standings(sheet(host).game).finished
    assert "Open the new game" not in screen_text(host)
    assert sharing.next_game(host, sheet(host).game) is None and again != new_id


def test_without_the_right_to_see_the_new_game_nobody_is_sent_there(store: Store) -> None:
    hub = live.Hub()
    host = session(store, hub, True, HOST_IP)
    old = ended_series(host)
    code = ss_of(host).join_code(old.id)
    ss_of(host).set_visitors(live.NOTHING)
    phone = joined_phone(store, hub, old, code, "192.168.1.50")
    phone.go(f"/game/{old.id}")
    # the host's replay gets a fresh code this time (as a game started anew would)
    fresh = games.new_game("tile_rummy", PLAYERS)
    other = host.store.create_game(fresh)
    assert sharing.point_to_next(host, store.load_game(old.id), other.id)
    assert phone.route == f"/game/{old.id}"  # it may not see that game: it stays
    assert sharing.next_game(phone, store.load_game(old.id)) is None
