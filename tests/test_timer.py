"""The turn timer (RULES.md §4, seeds 001 and 004): the countdown state machine over a fake
clock (nothing sleeps, nothing is timed), the screen without a browser, and the pending
penalties of app/games.py — recorded, stored at once, filled into the next round entry and
cleared when it is saved.
"""

from __future__ import annotations

import asyncio
import io
import json
import wave
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app import games
from app.store import Store
from app.ui.common.frame import MessageScreen
from app.ui.entry.entry_forms import TilesForm
from app.ui.entry.round_entry import RoundEntry
from app.ui.sheet.score_sheet import ScoreSheet
from app.ui.shell import App
from app.ui.table.timer import (
    DEFAULT_SECONDS,
    EXPIRED,
    PAUSED,
    READY,
    RUNNING,
    TimerScreen,
    TurnClock,
    alarm_wav,
    check_seconds,
    clock_text,
    duration_text,
    reminder_text,
)
from tests.conftest import walk


class FakeClock:
    """A monotonic clock that moves only when told."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock()


def make_game(
    store: Store,
    variant: str = "tile_rummy",
    players: tuple[str, ...] = ("Ala", "Ola", "Ela"),
    first_dealer: int = 0,
    **options: Any,
) -> games.Game:
    return store.create_game(
        games.new_game(variant, list(players), options or None, first_dealer=first_dealer)
    )


def open_timer(app: App, game: games.Game, fake: FakeClock) -> TimerScreen:
    """The timer screen as the router shows it, on the fake clock."""
    app.show(f"/game/{game.id}/timer")
    screen = TimerScreen(app, app.store.load_game(game.id), now=fake)
    app.screen = screen  # what App.show does with a built screen
    return screen


# -- the countdown -------------------------------------------------------------------------------
def test_clock_starts_ready_with_full_time(fake: FakeClock) -> None:
    c = TurnClock(["Ala", "Ola", "Ela"], starter=1, seconds=120, now=fake)
    assert (c.state, c.player, c.turn, c.text()) == (READY, "Ola", 1, "2:00")
    fake.advance(50)  # not started: no time passes
    assert c.remaining() == 120 and not c.warning()


def test_countdown_shows_whole_seconds_rounded_up(fake: FakeClock) -> None:
    c = TurnClock(["Ala", "Ola"], seconds=20, now=fake)
    c.start()
    assert c.text() == "0:20"
    fake.advance(0.4)
    assert c.text() == "0:20"  # 19.6 s left still reads 20
    fake.advance(0.6)
    assert c.text() == "0:19"
    assert c.until_change() == pytest.approx(1.0)
    fake.advance(0.25)
    assert c.until_change() == pytest.approx(0.75)


def test_pause_keeps_the_time_left_and_resume_goes_on(fake: FakeClock) -> None:
    c = TurnClock(["Ala", "Ola"], seconds=60, now=fake)
    c.toggle()
    fake.advance(15)
    c.toggle()
    assert c.state == PAUSED and c.remaining() == 45
    fake.advance(600)  # a long dispute
    assert c.text() == "0:45"
    c.toggle()
    assert c.state == RUNNING
    fake.advance(5)
    assert c.remaining() == 40


def test_warning_in_the_last_ten_seconds(fake: FakeClock) -> None:
    c = TurnClock(["Ala", "Ola"], seconds=20, now=fake)
    c.start()
    fake.advance(9.5)
    assert c.text() == "0:11" and not c.warning()
    fake.advance(0.5)
    assert c.text() == "0:10" and c.warning()
    c.pause()
    assert c.warning()  # paused in the last seconds: still the warning colour


def test_time_runs_out_once(fake: FakeClock) -> None:
    c = TurnClock(["Ala", "Ola"], seconds=20, now=fake)
    c.start()
    fake.advance(19.99)
    assert not c.poll() and c.text() == "0:01"
    fake.advance(0.01)
    assert c.poll()
    assert (c.state, c.text(), c.remaining()) == (EXPIRED, "0:00", 0)
    fake.advance(5)
    assert not c.poll()  # the alarm is given once
    c.toggle()
    assert c.state == EXPIRED  # Start does nothing now; only the next turn


def test_pause_after_the_deadline_expires(fake: FakeClock) -> None:
    c = TurnClock(["Ala", "Ola"], seconds=20, now=fake)
    c.start()
    fake.advance(25)  # the task was late
    c.pause()
    assert c.state == EXPIRED


def test_next_player_in_seat_order_restarts_the_countdown(fake: FakeClock) -> None:
    c = TurnClock(["Ala", "Ola", "Ela"], starter=2, seconds=30, now=fake)
    c.start()
    fake.advance(31)
    c.poll()
    c.penalized = True
    c.next_player()
    assert (c.player, c.turn, c.state, c.text(), c.penalized) == ("Ala", 2, RUNNING, "0:30", False)
    c.next_player()
    c.next_player()
    assert (c.player, c.turn) == ("Ela", 4)


def test_choosing_the_player_or_the_time_starts_the_turn_over(fake: FakeClock) -> None:
    c = TurnClock(["Ala", "Ola", "Ela"], seconds=120, now=fake)
    c.start()
    fake.advance(30)
    c.choose_player(2)
    assert (c.player, c.state, c.text()) == ("Ela", READY, "2:00")
    c.start()
    fake.advance(3)
    c.set_seconds(45)
    assert (c.state, c.text(), c.seconds) == (READY, "0:45", 45)
    with pytest.raises(ValueError):
        c.choose_player(3)


@pytest.mark.parametrize("bad", [19, 121, 0, True, 30.0, None])
def test_turn_length_is_20_to_120_seconds(bad: Any, fake: FakeClock) -> None:
    with pytest.raises(ValueError):
        check_seconds(bad)
    with pytest.raises(ValueError):
        TurnClock(["Ala"], seconds=bad, now=fake)


def test_bad_clock_arguments() -> None:
    with pytest.raises(ValueError):
        TurnClock([])
    with pytest.raises(ValueError):
        TurnClock(["Ala", "Ola"], starter=2)


OPS = st.lists(
    st.one_of(
        st.floats(min_value=0, max_value=30, allow_nan=False).map(lambda d: ("wait", d)),
        st.sampled_from([("toggle", 0.0), ("poll", 0.0)]),
    ),
    max_size=40,
)


@given(seconds=st.integers(20, 120), ops=OPS)
def test_time_left_is_the_turn_minus_the_running_time(
    seconds: int, ops: list[tuple[str, float]]
) -> None:
    """Whatever is tapped when, the time left is the turn length minus the time spent running
    (never below 0), and only running time counts."""
    fake = FakeClock()
    c = TurnClock(["Ala", "Ola"], seconds=seconds, now=fake)
    ran = 0.0
    for op, d in ops:
        if op == "wait":
            if c.state == RUNNING:
                ran += d
            fake.advance(d)
        elif op == "toggle":
            c.toggle()
        else:
            c.poll()
        left = c.remaining()
        assert 0 <= left <= seconds
        assert left == pytest.approx(max(0.0, seconds - ran), abs=1e-6)
        assert c.shown() == 0 or c.state != EXPIRED
        if c.state == EXPIRED:
            assert ran >= seconds - 1e-6


def test_words() -> None:
    assert [clock_text(s) for s in (120, 75, 9, 0)] == ["2:00", "1:15", "0:09", "0:00"]
    assert [duration_text(s) for s in (20, 60, 90, 120)] == ["20 s", "1 min", "1:30 min", "2 min"]
    # RULES.md §4 / seed 001: the table goes back, 3 tiles; seed 004 (My Rummy): the player
    # takes back the tiles that could not be placed
    assert reminder_text("tile_rummy", "Ola", "timeout") == (
        "Time is up: the table goes back as it was and Ola draws 3 tiles."
    )
    assert reminder_text("my_rummy", "Ola", "timeout") == (
        "Time is up: Ola takes back the tiles that could not be placed and draws 3 penalty tiles."
    )
    assert reminder_text("tile_rummy", "Ola", "invalid_turn").startswith("Invalid turn: the table")


def test_alarm_is_a_short_wav() -> None:
    data = alarm_wav()
    with wave.open(io.BytesIO(data)) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 16_000)
        assert 0.5 < w.getnframes() / w.getframerate() < 1.5
    assert len(data) < 40_000


# -- pending penalties in app/games.py -----------------------------------------------------------
def test_record_penalty_is_pending_until_the_round_is_added() -> None:
    g = games.new_game("tile_rummy", ["Ala", "Ola"])
    g1 = games.record_penalty(g, "Ola", "timeout")
    g2 = games.record_penalty(g1, "Ala", "invalid_turn")
    assert g.pending_penalties == []  # the argument is never changed
    assert games.pending_penalties(g2) == [
        {"name": "Ola", "tiles": 3, "reason": "timeout"},
        {"name": "Ala", "tiles": 3, "reason": "invalid_turn"},
    ]
    entry = {
        "players": [{"name": "Ala", "winner": True}, {"name": "Ola", "hand_value": 7, "jokers": 0}],
        "penalties": games.pending_penalties(g2),
    }
    g3 = games.add_round(g2, entry)
    assert g3.pending_penalties == [] and g2.pending_penalties != []
    assert g3.rounds[0].entry["penalties"][0]["reason"] == "timeout"
    assert g3.rounds[0].scores == {"Ala": 7, "Ola": -7}  # penalties change no score (§4)
    g4 = games.record_penalty(g3, "Ala")
    g5 = games.replace_round(g4, 0, entry)
    assert g5.pending_penalties == g4.pending_penalties  # only a new round clears them


def test_remove_penalty() -> None:
    g = games.new_game("my_rummy", ["Ala", "Ola"])
    g = games.record_penalty(games.record_penalty(g, "Ala"), "Ola", "invalid_turn")
    g = games.remove_penalty(g, 0)
    assert games.pending_penalties(g) == [{"name": "Ola", "tiles": 3, "reason": "invalid_turn"}]
    with pytest.raises(games.GameError) as e:
        games.remove_penalty(g, 1)
    assert e.value.code == "no_such_penalty"


@pytest.mark.parametrize(
    ("variant", "name", "reason", "tiles", "code"),
    [
        ("gin", "Ala", "timeout", 3, "no_penalties"),
        ("rummy101", "Ala", "timeout", 3, "no_penalties"),
        ("tile_rummy", "Zoe", "timeout", 3, "unknown_player"),
        ("tile_rummy", "Ala", "slow", 3, "bad_penalty"),
        ("tile_rummy", "Ala", "timeout", 4, "bad_penalty"),
        ("tile_rummy", "Ala", "timeout", True, "bad_penalty"),
    ],
)
def test_record_penalty_refuses(
    variant: str, name: str, reason: str, tiles: Any, code: str
) -> None:
    g = games.new_game(variant, ["Ala", "Ola"])
    with pytest.raises(games.GameError) as e:
        games.record_penalty(g, name, reason, tiles)
    assert e.value.code == code


def test_no_penalty_after_the_game_is_over() -> None:
    g = games.new_game("tile_rummy", ["Ala", "Ola"], {"games": 1})
    g = games.add_round(
        g, {"players": [{"name": "Ala", "winner": True}, {"name": "Ola", "hand_value": 5}]}
    )
    with pytest.raises(games.GameError) as e:
        games.record_penalty(g, "Ola")
    assert e.value.code == "game_finished"


def test_pending_penalties_are_stored_but_not_exported(store: Store, tmp_path: Path) -> None:
    g = make_game(store, players=("Ala", "Ola"))
    saved = store.save_game(games.record_penalty(g, "Ola"), g.version)
    store.close()
    with Store(tmp_path / "games.json") as again:  # a restart
        loaded = again.load_game(g.id)
        assert loaded.pending_penalties == [{"name": "Ola", "tiles": 3, "reason": "timeout"}]
        assert loaded.version == saved.version
        assert "pending_penalties" not in json.loads(games.export_json(loaded))["game"]
        assert games.game_from_dict(games.game_to_dict(loaded)) == loaded


@pytest.mark.parametrize(
    "bad",
    [
        {"name": "Zoe", "tiles": 3, "reason": "timeout"},
        {"name": "Ala", "tiles": 3},
        {"name": "Ala", "tiles": 3, "reason": "timeout", "extra": 1},
        "Ala",
    ],
)
def test_stored_pending_penalties_are_checked(bad: Any) -> None:
    d = games.game_to_dict(games.new_game("tile_rummy", ["Ala", "Ola"]))
    d["pending_penalties"] = [bad]
    with pytest.raises(games.GameError):
        games.game_from_dict(d)
    del d["pending_penalties"]  # a game stored before this field
    assert games.game_from_dict(d).pending_penalties == []


# -- the screen ----------------------------------------------------------------------------------
def test_timer_turn_length_and_starter(app: App, store: Store, fake: FakeClock) -> None:
    g = make_game(store, first_dealer=1, turn_time=45)
    s = open_timer(app, g, fake)
    assert (s.clock.seconds, s.clock.player, s.countdown.value) == (45, "Ola", "0:45")
    assert s.turn_text.value == "Ola's turn"
    assert s.time_chips.value == "45"
    # the timer off in the game's rules (Tile Rummy's default): 2 minutes, as in the seed
    g2 = make_game(store)
    assert open_timer(app, g2, fake).clock.seconds == DEFAULT_SECONDS == 120
    # My Rummy has its 2 minutes (§4)
    g3 = make_game(store, "my_rummy", ("Ala", "Ola"), preset="my_rummy")
    assert open_timer(app, g3, fake).clock.seconds == 120


def test_timer_countdown_warning_and_alarm(app: App, store: Store, fake: FakeClock) -> None:
    g = make_game(store, players=("Ala", "Ola"), turn_time=20)
    s = open_timer(app, g, fake)
    s.toggle()  # Start
    assert s.clock.state == RUNNING and s.toggle_button.content.value == "Pause"  # type: ignore[union-attr]
    fake.advance(3)
    s.tick()
    assert s.countdown.value == "0:17" and s.countdown_label.label == "Time left: 0:17"
    normal = s.panel.bgcolor
    fake.advance(8)
    s.tick()
    assert s.countdown.value == "0:09" and s.panel.bgcolor != normal  # warning colour
    assert not s.alert_box.visible
    fake.advance(9)
    assert s.tick() is True
    assert s.countdown.value == "0:00" and s.status.value == "TIME IS UP"
    assert s.alert_box.visible and not s.toggle_button.visible
    assert s.reminder.value == "Time is up: the table goes back as it was and Ala draws 3 tiles."
    assert s.alerts == 1
    fake.advance(1)
    assert s.tick() is False and s.alerts == 1


def test_my_rummy_reminder(app: App, store: Store, fake: FakeClock) -> None:
    g = make_game(store, "my_rummy", ("Ala", "Ola"), preset="my_rummy", turn_time=20)
    s = open_timer(app, g, fake)
    s.toggle()
    fake.advance(20)
    s.tick()
    assert s.reminder.value == (
        "Time is up: Ala takes back the tiles that could not be placed and draws 3 penalty tiles."
    )


def test_record_penalty_is_stored_at_once(app: App, store: Store, fake: FakeClock) -> None:
    g = make_game(store, turn_time=20)
    s = open_timer(app, g, fake)
    s.toggle()
    fake.advance(20)
    s.tick()
    assert s.record_penalty("timeout")
    assert store.load_game(g.id).pending_penalties == [
        {"name": "Ala", "tiles": 3, "reason": "timeout"}
    ]
    assert app.messages[-1] == "Recorded: Ala draws 3 tiles (time ran out)"
    assert s.timeout_button.disabled and s.invalid_button.disabled
    assert not s.record_penalty("timeout")  # one per turn: a double tap records one
    s.next_player()
    assert s.clock.player == "Ola" and not s.invalid_button.disabled
    fake.advance(5)
    assert s.record_penalty("invalid_turn")
    assert s.clock.state == PAUSED  # the table is being put back: the clock stops
    assert [p["name"] for p in store.load_game(g.id).pending_penalties] == ["Ala", "Ola"]
    # a mistake is taken back
    assert s.remove_pending(1)
    assert store.load_game(g.id).pending_penalties == [
        {"name": "Ala", "tiles": 3, "reason": "timeout"}
    ]
    assert not s.clock.penalized


def test_record_penalty_keeps_a_round_saved_on_another_phone(
    app: App, store: Store, fake: FakeClock
) -> None:
    g = make_game(store, players=("Ala", "Ola"))
    s = open_timer(app, g, fake)
    other = games.record_penalty(store.load_game(g.id), "Ola", "invalid_turn")
    store.save_game(other, g.version)  # the screen's copy is now out of date
    assert s.record_penalty("timeout")
    assert [p["name"] for p in store.load_game(g.id).pending_penalties] == ["Ola", "Ala"]


def test_penalties_fill_in_the_next_round_and_are_cleared(
    app: App, store: Store, fake: FakeClock
) -> None:
    g = make_game(store, players=("Ala", "Ola"), turn_time=20)
    s = open_timer(app, g, fake)
    s.toggle()
    fake.advance(20)
    s.tick()
    s.record_penalty("timeout")
    s.next_player()
    s.record_penalty("invalid_turn")
    sheet = ScoreSheet(app, store.load_game(g.id))
    assert sheet.timer_button is not None
    app.show(f"/game/{g.id}/round")
    entry = app.screen
    assert isinstance(entry, RoundEntry) and isinstance(entry.form, TilesForm)
    f = entry.form
    assert (f.penalties["Ala"].value, f.penalties["Ola"].value) == (1, 1)
    f.outcome.pick("Ola")
    f.rests["Ala"].value.value = "12"
    f.penalties["Ala"].set(2, notify=True)  # one more, told at the table
    entry.save()
    stored = store.load_game(g.id)
    assert stored.pending_penalties == []
    assert stored.rounds[0].entry["penalties"] == [
        {"name": "Ala", "tiles": 3, "reason": "timeout"},
        {"name": "Ala", "tiles": 3, "reason": "invalid_turn"},
        {"name": "Ola", "tiles": 3, "reason": "invalid_turn"},
    ]
    assert stored.rounds[0].scores == {"Ala": -12, "Ola": 12}
    # the next round's timer: a new clock, round 2 starts with the next seat
    s2 = open_timer(app, stored, fake)
    assert s2.clock.player == "Ola" and s2.clock.state == READY and s2.clock.turn == 1
    app.go(f"/game/{g.id}/round")  # "Enter round 2" (Back to the saved round shows the sheet)
    assert isinstance(app.screen, RoundEntry)
    assert app.screen.form.entry_order() == ["Ala", "Ola"]
    assert isinstance(app.screen.form, TilesForm)
    assert app.screen.form.penalties["Ala"].value == 0


def test_editing_a_round_keeps_the_penalty_reasons(app: App, store: Store) -> None:
    g = make_game(store, players=("Ala", "Ola"))
    entry = {
        "players": [{"name": "Ala", "winner": True}, {"name": "Ola", "hand_value": 7, "jokers": 0}],
        "penalties": [{"name": "Ola", "tiles": 3, "reason": "timeout"}],
    }
    store.save_game(games.add_round(g, entry), g.version)
    app.show(f"/game/{g.id}/round/1/edit")
    assert isinstance(app.screen, RoundEntry)
    assert app.screen.form.entry()["penalties"] == entry["penalties"]


def test_timer_screen_only_for_tile_games(app: App, store: Store) -> None:
    g = make_game(store, "gin", ("Ala", "Ola"))
    app.show(f"/game/{g.id}/timer")
    assert isinstance(app.screen, MessageScreen)
    assert "Tile Rummy, My Rummy; Gin Rummy has none" in app.screen.message
    assert ScoreSheet(app, g).timer_button is None


def test_score_sheet_shows_pending_penalties(app: App, store: Store) -> None:
    g = make_game(store, players=("Ala", "Ola"))
    g = store.save_game(games.record_penalty(g, "Ola", "invalid_turn"), g.version)
    app.show(f"/game/{g.id}")
    texts = [getattr(c, "value", None) for c in walk(app.screen.view)]  # type: ignore[union-attr]
    assert "Penalties waiting for the round entry: Ola: 3 tiles (invalid turn)" in texts


# -- the countdown task (no page: the task is run here with a sleep that moves the clock) --------
def test_task_counts_down_to_zero_and_stops(app: App, store: Store, fake: FakeClock) -> None:
    g = make_game(store, players=("Ala", "Ola"), turn_time=20)
    s = open_timer(app, g, fake)
    shown: list[str] = []
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        shown.append(s.countdown.value or "")
        fake.advance(seconds)

    s.sleep = sleep
    s.toggle()
    asyncio.run(s._run(s.clock.task_gen))
    assert s.clock.state == EXPIRED and s.alerts == 1
    assert all(0 < w <= 0.25 for w in waits)  # never blocks; wakes at least 4 times a second
    seconds = list(dict.fromkeys(shown))  # each second shown, in order
    assert seconds == [clock_text(n) for n in range(20, 0, -1)]


def test_task_pauses_when_the_screen_is_left(app: App, store: Store, fake: FakeClock) -> None:
    g = make_game(store, players=("Ala", "Ola"), turn_time=60)
    s = open_timer(app, g, fake)

    async def sleep(seconds: float) -> None:
        fake.advance(seconds)
        if fake.t >= 1005:
            app.show(f"/game/{g.id}/rules")  # a look at the rule book

    s.sleep = sleep
    s.toggle()
    asyncio.run(s._run(s.clock.task_gen))
    assert s.clock.state == PAUSED and 54 <= s.clock.remaining() <= 55.5
    fake.advance(100)
    back = open_timer(app, store.load_game(g.id), fake)
    assert back.clock is s.clock and back.countdown.value == s.clock.text()


def test_rebuilt_screen_takes_over_the_running_turn(
    app: App, store: Store, fake: FakeClock
) -> None:
    g = make_game(store, players=("Ala", "Ola"), turn_time=60)
    s = open_timer(app, g, fake)
    s.toggle()
    old_gen = s.clock.task_gen

    async def sleep(seconds: float) -> None:
        fake.advance(seconds)

    s.sleep = sleep
    again = open_timer(app, store.load_game(g.id), fake)  # e.g. a refresh of the screen
    assert again.clock is s.clock and s.clock.task_gen > old_gen
    asyncio.run(s._run(old_gen))  # the old task sees it is not shown and ends
    assert s.clock.state == RUNNING  # … without pausing the turn
