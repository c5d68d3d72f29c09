"""The turn timer of Tile Rummy and My Rummy (RULES.md §4; seeds ``001_…`` and ``004_…``).

Route ``/game/<id>/timer``, opened from the score sheet of a Tile Rummy / My Rummy game. It
works whether the game's ``turn_time`` option is on or off: the table picks 20 s – 2 min, the
game's ``turn_time`` first (else 2 min, the seed's online timer).

What a person sees (phone portrait first, readable across the table): whose turn it is (seat
order, starting from the round's starter), a big countdown, Start / Pause / Resume, "Next
player" (the end of a turn: the countdown starts again for the next player), a warning colour
in the last :data:`WARN_SECONDS`, and at zero a red "Time is up" panel with the rule's
reminder ("the table goes back as it was and Ola draws 3 tiles"; My Rummy: Ola takes back the
tiles that could not be placed), a sound and a vibration where the platform allows, and
"Record penalty". "Invalid turn" records the other penalty of §4. Recorded penalties are
stored with the game at once (:func:`app.games.record_penalty`) as pending penalties of the
round being played; the next round entry starts with them and saving it clears them.

Design:

- :class:`TurnClock` is the countdown as a state machine (``ready`` → ``running`` ⇄
  ``paused``; ``running`` → ``expired`` at zero) over an injected monotonic clock (seconds),
  with no Flet in it: tests drive it with a fake clock, never sleeping. Time left is kept as a
  deadline while running, so a late tick never loses time.
- One :class:`TurnClock` per session and game lives beside the session's :class:`App` (not in
  the screen), so rebuilding the screen (a refresh) keeps the turn going; a new round (the
  round count changed) starts a new clock.
- The countdown runs as one asyncio task per session (``page.run_task`` through
  :meth:`App.run`): it sleeps until the shown second changes (at most :data:`TICK` s), updates
  the page and ends when the clock is not running. It never blocks: other sessions run in
  between. Leaving the screen ends it and pauses the clock (a dispute or a look at the rule
  book does not eat the player's time); coming back shows it paused.
- Sound: a short WAV made with :mod:`wave` in memory (:func:`alarm_wav`), played through
  ``flet_audio.Audio`` when the package is there; vibration: ``ft.HapticFeedback``. Both are
  best-effort (a browser without vibration, a blocked autoplay, no ``flet_audio``): the red
  panel is the alert that always works. They can be switched off on the screen.
- Saving a penalty runs in a worker thread (``asyncio.to_thread``); the store has its own
  lock. The change is made on the game as stored now (re-read, retried on a conflict), so a
  penalty never overwrites a round entered on another phone.
"""

from __future__ import annotations

import asyncio
import io
import logging
import math
import struct
import time
import wave
import weakref
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Final

import flet as ft

from app import games
from app.error_text import describe
from app.games.variants import TIMED_VARIANTS, TURN_TIMES, about, about_game
from app.i18n import _, ngettext
from app.store import ConflictError, StoreError
from app.ui.common import labels
from app.ui.common.frame import MessageScreen, frame
from app.ui.common.widgets import (
    TAP_HEIGHT,
    ChoiceChips,
    card,
    heading,
    icon_button,
    muted,
    player_colour,
)

if TYPE_CHECKING:
    from app.games import Game
    from app.ui.common.session import App, Screen

log = logging.getLogger("app")

MIN_SECONDS: Final = TURN_TIMES[0]
"""Shortest turn (the rules' ``turn_time`` range, RULES.md §4: 20 s – 2 min)."""
MAX_SECONDS: Final = TURN_TIMES[1]
"""Longest turn."""
DEFAULT_SECONDS: Final = 120
"""A turn when the game's ``turn_time`` is off: the seed's 2 minutes."""
WARN_SECONDS: Final = 10
"""The countdown turns to the warning colour at this many seconds left."""
CHOICES: Final = (MIN_SECONDS, 30, 45, 60, 90, MAX_SECONDS)
"""Turn lengths offered (the game's own ``turn_time`` is added when it is another)."""
TICK: Final = 0.25
"""Longest sleep of the countdown task, in seconds (how soon it notices a change)."""
TIMER_VARIANTS: Final = TIMED_VARIANTS
"""The variants with a turn timer (their rules have a ``turn_time`` option)."""

READY: Final = "ready"
RUNNING: Final = "running"
PAUSED: Final = "paused"
EXPIRED: Final = "expired"

Now = Callable[[], float]
"""A monotonic clock in seconds (``time.monotonic``; a fake one in tests)."""


# -- the countdown -------------------------------------------------------------------------------
def check_seconds(seconds: Any) -> int:
    """``seconds`` if it is a turn length the rules allow (20–120), else ValueError."""
    if isinstance(seconds, bool) or not isinstance(seconds, int):
        raise ValueError(f"a turn lasts a whole number of seconds, not {seconds!r}")
    if not MIN_SECONDS <= seconds <= MAX_SECONDS:
        raise ValueError(f"a turn lasts {MIN_SECONDS}–{MAX_SECONDS} s (RULES.md §4), not {seconds}")
    return seconds


def clock_text(seconds: int) -> str:
    """A countdown as people read it: ``2:00``, ``0:09``."""
    return f"{seconds // 60}:{seconds % 60:02d}"


class TurnClock:
    """Whose turn it is and how long they have left.

    States: ``ready`` (the turn has not started: full time), ``running``, ``paused``,
    ``expired`` (time ran out; stays at 0 until the next turn).

    Args:
        players: names in seat order.
        starter: seat index of who starts (the round's starter).
        seconds: turn length, 20–120 (ValueError otherwise).
        now: monotonic clock in seconds.
        round_index: the round (0-based) this clock belongs to.

    Attributes:
        current: seat index of the player whose turn it is.
        turn: turn number in this round, from 1.
        penalized: a penalty was recorded in this turn (the screen records one per turn).
        alert_on: sound and vibration at zero.
    """

    def __init__(
        self,
        players: Sequence[str],
        starter: int = 0,
        seconds: int = DEFAULT_SECONDS,
        now: Now = time.monotonic,
        round_index: int = 0,
    ) -> None:
        if not players:
            raise ValueError("a turn timer needs players")
        if not 0 <= starter < len(players):
            raise ValueError(f"starter {starter} is not a seat 0–{len(players) - 1}")
        self.players = list(players)
        self.starter = starter
        self.seconds = check_seconds(seconds)
        self.now = now
        self.round_index = round_index
        self.current = starter
        self.turn = 1
        self.state = READY
        self.penalized = False
        self.alert_on = True
        self.task_gen = 0
        """Counts countdown tasks started; a task whose number is not the last one ends."""
        self._left = float(self.seconds)
        self._deadline = 0.0

    # -- reading --------------------------------------------------------------------------------
    @property
    def player(self) -> str:
        """Whose turn it is."""
        return self.players[self.current]

    @property
    def next_seat(self) -> int:
        """Seat index of who plays after the current player."""
        return (self.current + 1) % len(self.players)

    def remaining(self) -> float:
        """Seconds left in this turn (never below 0)."""
        if self.state == RUNNING:  # _left: the time left when it started (float-safe cap)
            return min(self._left, max(0.0, self._deadline - self.now()))
        return self._left

    def shown(self) -> int:
        """Whole seconds shown: the time left rounded up (``0`` only when time is up)."""
        return max(0, math.ceil(self.remaining() - 1e-9))

    def text(self) -> str:
        """The countdown as shown (``1:45``)."""
        return clock_text(self.shown())

    def warning(self) -> bool:
        """The last :data:`WARN_SECONDS` of a started turn (running or paused)."""
        return self.state in (RUNNING, PAUSED) and self.shown() <= WARN_SECONDS

    def until_change(self) -> float:
        """Seconds until :meth:`shown` changes while running (in (0, 1]); 1.0 otherwise."""
        if self.state != RUNNING:
            return 1.0
        r = self.remaining()
        return max(0.0, r - (math.ceil(r - 1e-9) - 1))

    # -- changing -------------------------------------------------------------------------------
    def poll(self) -> bool:
        """Look at the clock: True exactly once, when a running turn has just run out."""
        if self.state == RUNNING and self.now() >= self._deadline:
            self.state = EXPIRED
            self._left = 0.0
            return True
        return False

    def start(self) -> None:
        """Start (ready) or resume (paused) the countdown; nothing otherwise."""
        if self.state in (READY, PAUSED):
            self._deadline = self.now() + self._left
            self.state = RUNNING

    def pause(self) -> None:
        """Stop the countdown, keeping the time left (a turn that ran out meanwhile expires)."""
        if self.state == RUNNING and not self.poll():
            self._left = self.remaining()
            self.state = PAUSED

    def toggle(self) -> None:
        """Start, pause or resume, as the one big button does."""
        if self.state == RUNNING:
            self.pause()
        else:
            self.start()

    def reset(self) -> None:
        """This turn from the start again, not running (``ready``)."""
        self.state = READY
        self._left = float(self.seconds)
        self.penalized = False

    def next_player(self) -> None:
        """End the turn: the next seat plays and the countdown starts again at once."""
        self.current = self.next_seat
        self.turn += 1
        self.reset()
        self.start()

    def choose_player(self, seat: int) -> None:
        """Say whose turn it is (e.g. the timer was opened mid-round); the turn is ``ready``."""
        if not 0 <= seat < len(self.players):
            raise ValueError(f"seat {seat} is not 0–{len(self.players) - 1}")
        self.current = seat
        self.reset()

    def set_seconds(self, seconds: int) -> None:
        """A new turn length (20–120, ValueError otherwise); this turn starts over (``ready``)."""
        self.seconds = check_seconds(seconds)
        self.reset()


# -- per-session state ---------------------------------------------------------------------------
@dataclass
class _SessionTimers:
    """What one session (browser tab) keeps between timer screens."""

    clocks: dict[str, TurnClock] = field(default_factory=dict)
    audio: Any = None
    haptic: Any = None
    alarm_made: bool = False


_sessions: weakref.WeakKeyDictionary[App, _SessionTimers] = weakref.WeakKeyDictionary()


def _session(app: App) -> _SessionTimers:
    state = _sessions.get(app)
    if state is None:
        state = _sessions[app] = _SessionTimers()
    return state


def game_seconds(game: Game) -> int:
    """The game's ``turn_time`` when it is on, else :data:`DEFAULT_SECONDS`."""
    t = game.options.get("turn_time")
    try:
        return check_seconds(t)
    except ValueError:
        return DEFAULT_SECONDS


def clock_for(app: App, game: Game, now: Now | None = None) -> TurnClock:
    """The session's clock for ``game``: the one in use, or a new one for a new round (starting
    from the round's starter, the game's turn length, the last sound setting)."""
    clocks = _session(app).clocks
    old = clocks.get(game.id)
    if (
        old is not None
        and old.round_index == len(game.rounds)
        and old.players == list(game.players)
        and (now is None or old.now is now)
    ):
        return old
    clock = TurnClock(
        game.players,
        games.next_dealer(game),
        game_seconds(game) if old is None else old.seconds,
        now or time.monotonic,
        len(game.rounds),
    )
    if old is not None:
        clock.alert_on = old.alert_on
    clocks[game.id] = clock
    return clock


# -- words ---------------------------------------------------------------------------------------
def duration_text(seconds: int) -> str:
    """A turn length as a chip shows it: ``20 s``, ``1 min``, ``1:30 min``."""
    if seconds < 60:
        return _("{n} s").format(n=seconds)
    if seconds % 60 == 0:
        return _("{n} min").format(n=seconds // 60)
    return _("{time} min").format(time=clock_text(seconds))


def reason_text(reason: str) -> str:
    """A penalty's reason in words."""
    return _("time ran out") if reason == "timeout" else _("invalid turn")


def penalty_tiles(variant: str) -> int:
    """Tiles a penalty draw takes in ``variant`` (RULES.md §4: 3; 0 where there are none)."""
    return about(variant).penalty_tiles or 0


def reminder_text(variant: str, name: str, reason: str) -> str:
    """What happens now (RULES.md §4): the table goes back (My Rummy: the player takes back
    the tiles that could not be placed) and the player draws the penalty tiles."""
    n = penalty_tiles(variant)
    if about(variant).penalty_takes_back:
        if reason == "timeout":
            text = ngettext(
                "Time is up: {name} takes back the tiles that could not be placed "
                "and draws {n} penalty tile.",
                "Time is up: {name} takes back the tiles that could not be placed "
                "and draws {n} penalty tiles.",
                n,
            )
        else:
            text = ngettext(
                "Invalid turn: {name} takes back the tiles that could not be placed "
                "and draws {n} penalty tile.",
                "Invalid turn: {name} takes back the tiles that could not be placed "
                "and draws {n} penalty tiles.",
                n,
            )
    elif reason == "timeout":
        text = ngettext(
            "Time is up: the table goes back as it was and {name} draws {n} tile.",
            "Time is up: the table goes back as it was and {name} draws {n} tiles.",
            n,
        )
    else:
        text = ngettext(
            "Invalid turn: the table goes back as it was and {name} draws {n} tile.",
            "Invalid turn: the table goes back as it was and {name} draws {n} tiles.",
            n,
        )
    return text.format(name=name, n=n)


def penalty_text(p: dict[str, Any]) -> str:
    """One pending penalty: ``Ola: 3 tiles (time ran out)``."""
    tiles = p.get("tiles")
    n = tiles if isinstance(tiles, int) else 2
    return ngettext("{name}: {n} tile ({reason})", "{name}: {n} tiles ({reason})", n).format(
        name=p.get("name"), n=tiles, reason=reason_text(str(p.get("reason")))
    )


def pending_text(game: Game) -> str:
    """The pending penalties in one line (for the score sheet)."""
    return _("Penalties waiting for the round entry: {list}").format(
        list=", ".join(penalty_text(p) for p in game.pending_penalties)
    )


# -- sound ---------------------------------------------------------------------------------------
@cache
def alarm_wav() -> bytes:
    """A short alarm (two beeps and a longer high one, about 0.9 s) as a 16-bit mono WAV at
    16 kHz, made with :mod:`wave` (no sound file is shipped)."""
    rate = 16_000
    parts = [(880.0, 0.16), (0.0, 0.08), (880.0, 0.16), (0.0, 0.08), (1320.0, 0.42)]
    frames = bytearray()
    ramp = int(rate * 0.006)  # fade in and out: no clicks
    for freq, seconds in parts:
        n = int(rate * seconds)
        for i in range(n):
            if freq == 0.0:
                sample = 0.0
            else:
                edge = min(1.0, i / ramp, (n - 1 - i) / ramp)
                sample = 0.6 * edge * math.sin(2 * math.pi * freq * i / rate)
            frames += struct.pack("<h", int(sample * 32767))
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(bytes(frames))
    return out.getvalue()


def _audio_service() -> Any:
    """A ``flet_audio.Audio`` with the alarm, registered with the current page, or None when
    the package is missing."""
    try:
        import flet_audio  # type: ignore[import-untyped]
    except ImportError:
        log.info("flet-audio is not installed: the turn timer alarm is silent")
        return None
    # The web client turns the bytes into a data URL typed audio/mpeg whatever they are
    # (a data URL given as text is decoded to bytes the same way); Chromium sniffs the WAV.
    return flet_audio.Audio(src=alarm_wav(), volume=1.0)


# -- the screen ----------------------------------------------------------------------------------
class TimerScreen:
    """The turn timer of one game.

    Args:
        now: the clock (tests pass a fake one; the session's clock is reused otherwise).

    Attributes (for tests): ``clock`` (:class:`TurnClock`), ``game`` (as stored after the last
    penalty), ``countdown`` (the big Text), ``panel`` (its coloured Container), ``status``,
    ``turn_text``, ``toggle_button``, ``next_button``, ``alert_box`` (the reminder at zero),
    ``reminder``, ``timeout_button``, ``invalid_button``, ``player_chips``, ``time_chips``,
    ``alert_switch``, ``pending_box``, ``alerts`` (how many times the alarm was given),
    ``sleep``.
    """

    def __init__(self, app: App, game: Game, now: Now | None = None) -> None:
        self.app = app
        self.game = game
        self.clock = clock_for(app, game, now)
        self.alerts = 0
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
        """How the countdown task waits (tests give it one that moves a fake clock)."""
        self._busy = False
        c = self.clock
        n_round = len(game.rounds) + 1
        starter = game.players[c.starter]

        self.turn_text = ft.Text("", size=30, weight=ft.FontWeight.BOLD, max_lines=1)
        self.turn_info = muted("", size=15)
        self.countdown = ft.Text(
            "",
            size=128,  # "2:00" fits a 320 px wide phone
            weight=ft.FontWeight.BOLD,
            text_align=ft.TextAlign.CENTER,
        )
        self.countdown_label = ft.Semantics(label="", container=True, content=self.countdown)
        self.status = ft.Text(
            "", size=20, weight=ft.FontWeight.BOLD, text_align=ft.TextAlign.CENTER
        )
        self.status_box = ft.Semantics(live_region=True, content=self.status)
        self.progress = ft.ProgressBar(value=1.0, bar_height=10, border_radius=5)
        self.panel = ft.Container(
            content=ft.Column(
                [self.countdown_label, self.status_box, self.progress],
                spacing=4,
                horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            ),
            border_radius=16,
            padding=ft.Padding.symmetric(horizontal=16, vertical=8),
        )
        tight = ft.Padding.symmetric(horizontal=10)
        self.toggle_button = ft.FilledButton(
            content=ft.Text(_("Start"), size=19, weight=ft.FontWeight.W_600),
            icon=ft.Icons.PLAY_ARROW,
            on_click=self.toggle,
            height=TAP_HEIGHT + 8,
            expand=True,
            style=ft.ButtonStyle(padding=tight),
        )
        self.next_button = ft.FilledButton(
            content=ft.Text(_("Next player"), size=19, weight=ft.FontWeight.W_600),
            icon=ft.Icons.SKIP_NEXT,
            on_click=self.next_player,
            height=TAP_HEIGHT + 8,
            expand=True,
            style=ft.ButtonStyle(bgcolor=ft.Colors.GREEN_800, color=ft.Colors.WHITE, padding=tight),
        )
        self.reminder = ft.Text("", size=17, weight=ft.FontWeight.W_500)
        self.timeout_button = ft.FilledButton(
            content=ft.Text(_("Record penalty"), size=18, weight=ft.FontWeight.W_600),
            icon=ft.Icons.ADD_TASK,
            on_click=self._timeout_clicked,
            height=TAP_HEIGHT,
            style=ft.ButtonStyle(bgcolor=ft.Colors.RED_800, color=ft.Colors.WHITE),
        )
        self.alert_box = card(
            ft.Column(
                [self.reminder, self.timeout_button],
                spacing=10,
                horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
            ),
            bgcolor=ft.Colors.with_opacity(0.3, ft.Colors.AMBER),
        )
        self.invalid_button = ft.OutlinedButton(
            content=_("Invalid turn: 3 penalty tiles"),
            icon=ft.Icons.REPORT_GMAILERRORRED,
            on_click=self._invalid_clicked,
            height=48,
        )
        self.player_chips = ChoiceChips(
            [(str(i), p) for i, p in enumerate(game.players)],
            str(c.current),
            on_change=self._player_chosen,
        )
        seconds = sorted({*CHOICES, c.seconds, game_seconds(game)})
        self.time_chips = ChoiceChips(
            [(str(s), duration_text(s)) for s in seconds],
            str(c.seconds),
            on_change=self._time_chosen,
        )
        self.alert_switch = ft.Switch(
            label=_("Sound and vibration at zero"),
            value=c.alert_on,
            on_change=self._alert_switched,
        )
        self.pending_box = ft.Column([], spacing=4)
        own_time = game.options.get("turn_time")
        rule = (
            _("This game's rules: {time} per turn.").format(time=duration_text(own_time))
            if isinstance(own_time, int)
            else _("This game's rules have no timer; the time chosen here is for this table.")
        )
        controls: list[ft.Control] = [
            ft.Column([self.turn_text, self.turn_info], spacing=0),
            self.panel,
            ft.Row([self.toggle_button, self.next_button], spacing=10),
            self.alert_box,
            self.invalid_button,
            self.pending_box,
            heading(_("Whose turn?"), size=16),
            self.player_chips.control,
            heading(_("Time per turn"), size=16),
            self.time_chips.control,
            muted(rule, size=13),
            self.alert_switch,
            muted(
                ngettext(
                    "Round {n}: {name} starts, then the seats in turn. An invalid turn or time "
                    "running out: the table goes back and the player draws {tiles} penalty "
                    "tile. Penalties recorded here fill in the next round entry.",
                    "Round {n}: {name} starts, then the seats in turn. An invalid turn or time "
                    "running out: the table goes back and the player draws {tiles} penalty "
                    "tiles. Penalties recorded here fill in the next round entry.",
                    penalty_tiles(game.variant),
                ).format(n=n_round, name=starter, tiles=penalty_tiles(game.variant)),
                size=13,
            ),
        ]
        self.view = frame(
            app,
            f"/game/{game.id}/timer",
            _("Turn timer"),
            controls,
            back=f"/game/{game.id}",
            actions=[icon_button(ft.Icons.MENU_BOOK, _("Rule book"), self._rule_book)],
        )
        self.paint()
        if c.state == RUNNING:  # a rebuilt screen takes over the running turn
            self._start_task()

    def _rule_book(self, _e: Any = None) -> None:
        self.app.go(f"/game/{self.game.id}/rules")

    # -- showing ------------------------------------------------------------------------------
    def paint(self) -> None:
        """Show the clock's state on every control."""
        c = self.clock
        state, name = c.state, c.player
        expired, warn = state == EXPIRED, c.warning()
        self.turn_text.value = _("{name}'s turn").format(name=name)
        self.turn_text.color = player_colour(c.current)
        self.turn_info.value = _("Turn {t} · next: {name}").format(
            t=c.turn, name=c.players[c.next_seat]
        )
        self.countdown.value = c.text()
        self.countdown_label.label = _("Time left: {time}").format(time=c.text())
        if expired:
            bg, fg = ft.Colors.RED_700, ft.Colors.WHITE
            status = _("TIME IS UP")
        elif warn:
            bg, fg = ft.Colors.AMBER_400, ft.Colors.RED_900
            status = _("Paused") if state == PAUSED else _("Last seconds!")
        else:
            bg, fg = ft.Colors.PRIMARY_CONTAINER, ft.Colors.ON_PRIMARY_CONTAINER
            status = {
                READY: _("Tap Start when {name} begins").format(name=name),
                PAUSED: _("Paused"),
            }.get(state, "")
        if state == PAUSED:
            fg = ft.Colors.ON_SURFACE_VARIANT if not warn else fg
        self.panel.bgcolor = bg
        self.countdown.color = fg
        self.status.value = status
        self.status.color = fg
        self.progress.value = c.remaining() / c.seconds if c.seconds else 0.0
        self.progress.color = fg
        self.progress.bgcolor = ft.Colors.with_opacity(0.2, fg)
        label, icon = {
            RUNNING: (_("Pause"), ft.Icons.PAUSE),
            PAUSED: (_("Resume"), ft.Icons.PLAY_ARROW),
        }.get(state, (_("Start"), ft.Icons.PLAY_ARROW))
        text = self.toggle_button.content
        assert isinstance(text, ft.Text)
        text.value = label
        self.toggle_button.icon = icon
        self.toggle_button.visible = not expired
        self.alert_box.visible = expired
        self.reminder.value = reminder_text(self.game.variant, name, "timeout")
        done = _("Penalty recorded for {name}").format(name=name)
        n = penalty_tiles(self.game.variant)
        timeout_text = self.timeout_button.content
        assert isinstance(timeout_text, ft.Text)
        timeout_text.value = (
            done if c.penalized else _("Record penalty: {name} draws {n}").format(name=name, n=n)
        )
        self.timeout_button.disabled = c.penalized or self._busy
        self.invalid_button.content = (
            done if c.penalized else _("Invalid turn: {name} draws {n}").format(name=name, n=n)
        )
        self.invalid_button.disabled = c.penalized or self._busy
        self.player_chips.set(str(c.current))
        self.time_chips.set(str(c.seconds))
        self.alert_switch.value = c.alert_on
        self._paint_pending()

    def _paint_pending(self) -> None:
        pending = self.game.pending_penalties
        rows: list[ft.Control] = []
        if pending:
            rows.append(heading(_("Penalties for the round entry"), size=16))
        for i, p in enumerate(pending):
            text = penalty_text(p)
            rows.append(
                ft.Row(
                    [
                        ft.Icon(ft.Icons.WARNING_AMBER, color=ft.Colors.RED_700, size=22),
                        ft.Text(text, size=16, expand=True),
                        icon_button(
                            ft.Icons.DELETE_OUTLINE,
                            _("Remove penalty: {penalty}").format(penalty=text),
                            self._remove_handler(i),
                        ),
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                )
            )
        self.pending_box.controls = rows
        self.pending_box.visible = bool(rows)

    # -- the countdown task -------------------------------------------------------------------
    def tick(self) -> bool:
        """Look at the clock and show it; True when time has just run out (the alarm is then
        given once)."""
        expired = self.clock.poll()
        self.paint()
        if expired:
            self.alert()
        return expired

    def alert(self) -> None:
        """Time is up: the red panel is on screen; add the sound and the vibration."""
        self.alerts += 1
        if self.clock.alert_on:
            self.app.run(self._sound_and_vibration)

    def _start_task(self) -> None:
        """Run the countdown (one task per session; an older one sees it is stale and ends)."""
        self.clock.task_gen += 1
        gen = self.clock.task_gen

        async def run() -> None:
            await self._run(gen)

        self.app.run(run)

    def _left_screen(self) -> bool:
        screen = self.app.screen
        return screen is not self and not (
            isinstance(screen, TimerScreen) and screen.clock is self.clock
        )

    async def _run(self, gen: int) -> None:
        shown = None
        try:
            while True:
                if self.app.screen is not self:
                    if self._left_screen():
                        self.clock.pause()  # the screen was left: keep the time left
                    return
                if self.clock.task_gen != gen or self.clock.state != RUNNING:
                    return
                expired = self.tick()
                if expired or self.clock.shown() != shown:
                    shown = self.clock.shown()
                    self.app.page_update()
                if expired:
                    return
                await self.sleep(min(TICK, self.clock.until_change() + 0.02))
        except Exception:  # noqa: BLE001 - a broken tick must not take the session down
            log.exception("turn timer stopped")

    def _ensure_services(self) -> None:
        """Make the sound and vibration services once per session (in a handler or a task of
        this page, so they are registered with it)."""
        if self.app.page is None or not self.clock.alert_on:
            return
        s = _session(self.app)
        if s.alarm_made:
            return
        s.alarm_made = True
        try:
            s.audio = _audio_service()
            s.haptic = ft.HapticFeedback()
        except Exception:  # noqa: BLE001 - no page context: the red panel still shows
            log.debug("no sound or vibration service", exc_info=True)

    async def _sound_and_vibration(self) -> None:
        self._ensure_services()
        s = _session(self.app)
        if s.audio is not None:
            try:
                await asyncio.wait_for(s.audio.play(), 5)
            except Exception:  # noqa: BLE001 - autoplay blocked, no audio device …
                log.debug("alarm sound failed", exc_info=True)
        if s.haptic is not None:
            for _i in range(3):
                try:
                    await asyncio.wait_for(s.haptic.vibrate(), 2)
                except Exception:  # noqa: BLE001 - no vibration here (desktop, iOS browser)
                    log.debug("vibration failed", exc_info=True)
                    break
                await asyncio.sleep(0.3)

    # -- buttons ------------------------------------------------------------------------------
    def toggle(self, _e: Any = None) -> None:
        """Start / Pause / Resume."""
        was = self.clock.state
        self.clock.toggle()
        if self.clock.state == RUNNING and was != RUNNING:
            self._ensure_services()
            self._start_task()
        self.paint()

    def next_player(self, _e: Any = None) -> None:
        """End of the turn: the next player's countdown starts."""
        self.clock.next_player()
        self._ensure_services()
        self._start_task()
        self.paint()

    def _player_chosen(self, key: str | None) -> None:
        if key is not None:
            self.clock.choose_player(int(key))
        self.paint()

    def _time_chosen(self, key: str | None) -> None:
        if key is not None:
            self.clock.set_seconds(int(key))
        self.paint()

    def _alert_switched(self, _e: Any = None) -> None:
        self.clock.alert_on = bool(self.alert_switch.value)

    # -- penalties ----------------------------------------------------------------------------
    def _store_change(self, change: Callable[[Game], Game]) -> Game | str:
        """Apply ``change`` to the game as stored now and store it (a few tries when another
        phone saves in between). Returns the stored game or a message. Runs in a thread."""
        for _try in range(3):
            try:
                current = self.app.store.load_game(self.game.id)
                new = change(current)
                return self.app.store.save_game(new, current.version)
            except ConflictError:
                continue
            except games.GameError as e:
                return describe(e, self.game.variant)
            except StoreError as e:
                return describe(e)
        return _("Someone keeps changing this game; try again.")

    def _before_penalty(self, reason: str) -> Callable[[Game], Game]:
        name = self.clock.player
        self.clock.pause()  # the table is put back: the turn's clock stops
        self._busy = True
        self.paint()
        return lambda g: games.record_penalty(g, name, reason)

    def _after_change(self, outcome: Game | str, done: str) -> bool:
        self._busy = False
        if isinstance(outcome, str):
            self.paint()
            self.app.notify(outcome, error=True)
            return False
        self.game = outcome
        self.paint()
        self.app.notify(done)
        return True

    def record_penalty(self, reason: str) -> bool:
        """Record a penalty draw (3 tiles) for the current player (``timeout`` or
        ``invalid_turn``) and store it at once; True when stored (one per turn)."""
        if self.clock.penalized or self._busy:
            return False
        name = self.clock.player
        change = self._before_penalty(reason)
        outcome = self._store_change(change)
        if not isinstance(outcome, str):
            self.clock.penalized = True
        return self._after_change(outcome, self._recorded_text(name, reason))

    async def _record_async(self, reason: str) -> None:
        if self.clock.penalized or self._busy:
            return
        name = self.clock.player
        change = self._before_penalty(reason)
        self.app.page_update()  # show the buttons disabled while the disk works
        outcome = await asyncio.to_thread(self._store_change, change)
        if not isinstance(outcome, str):
            self.clock.penalized = True
        self._after_change(outcome, self._recorded_text(name, reason))

    def _recorded_text(self, name: str, reason: str) -> str:
        n = penalty_tiles(self.game.variant)
        return ngettext(
            "Recorded: {name} draws {n} tile ({reason})",
            "Recorded: {name} draws {n} tiles ({reason})",
            n,
        ).format(name=name, n=n, reason=reason_text(reason))

    async def _timeout_clicked(self, _e: Any = None) -> None:
        await self._record_async("timeout")

    async def _invalid_clicked(self, _e: Any = None) -> None:
        await self._record_async("invalid_turn")

    def remove_pending(self, index: int) -> bool:
        """Take back pending penalty ``index`` (recorded by mistake) and store it at once."""
        item = self._pending_item(index)
        if item is None:
            return False
        outcome = self._store_change(lambda g: _without(g, item))
        if not isinstance(outcome, str):
            self.clock.penalized = False
        return self._after_change(outcome, _("Penalty removed"))

    def _pending_item(self, index: int) -> dict[str, Any] | None:
        pending = self.game.pending_penalties
        return dict(pending[index]) if 0 <= index < len(pending) else None

    def _remove_handler(self, index: int) -> Callable[[Any], Any]:
        async def remove(_e: Any = None) -> None:
            item = self._pending_item(index)
            if item is None or self._busy:
                return
            self._busy = True
            outcome = await asyncio.to_thread(self._store_change, lambda g: _without(g, item))
            if not isinstance(outcome, str):
                self.clock.penalized = False
            self._after_change(outcome, _("Penalty removed"))

        return remove


def _without(game: Game, item: dict[str, Any]) -> Game:
    """``game`` without its first pending penalty equal to ``item`` (unchanged if none is)."""
    for i, p in enumerate(game.pending_penalties):
        if p == item:
            return games.remove_penalty(game, i)
    return game


def timer_screen(app: App, game: Game) -> Screen:
    """The turn timer for ``game`` (Tile Rummy and My Rummy; a message for the others)."""
    if about_game(game).turn_times is None:
        return MessageScreen(
            app,
            f"/game/{game.id}/timer",
            _("The turn timer is for {variants}; {variant} has none.").format(
                variants=", ".join(labels.variant_name(v) for v in TIMED_VARIANTS),
                variant=labels.variant_name(game.variant),
            ),
        )
    return TimerScreen(app, game)


__all__ = [
    "CHOICES",
    "DEFAULT_SECONDS",
    "EXPIRED",
    "MAX_SECONDS",
    "MIN_SECONDS",
    "PAUSED",
    "READY",
    "RUNNING",
    "WARN_SECONDS",
    "TimerScreen",
    "TurnClock",
    "alarm_wav",
    "check_seconds",
    "clock_for",
    "clock_text",
    "duration_text",
    "game_seconds",
    "pending_text",
    "reminder_text",
    "timer_screen",
]
