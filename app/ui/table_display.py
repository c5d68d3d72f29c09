"""``/game/<id>/table``: the score sheet as a screen for the middle of the table.

Only the names and the totals, as large as the screen allows (:func:`total_size`: at 360 px
wide the totals are at least :data:`MIN_TOTAL` px high), the leader marked, who deals or starts
next, and — in Tile Rummy and My Rummy with a turn time agreed — the turn timer (the session's
:class:`app.ui.timer.TurnClock`, the same one as the timer screen). A tap anywhere on the names
goes back to the score sheet. It follows the app's theme (true black in the dark one, set in
Settings).

The screen is kept awake while it shows, through Flet's ``Wakelock`` service (the browser's
Screen Wake Lock API). A browser can refuse: a page opened over plain ``http://`` from another
device is not a secure context and has no wake lock, nor have older browsers; then the screen
says so in one line ("set a longer screen timeout on this phone") and the display works
otherwise the same. The lock is released when the screen is left.

Other phones' changes arrive as for the score sheet: the route is rebuilt on a change
(:mod:`app.ui.sharing` refreshes the screen shown).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Final

import flet as ft

from app import games
from app.i18n import _
from app.ui import labels
from app.ui.widgets import icon_button, number

if TYPE_CHECKING:
    from app.games import Game
    from app.ui.shell import App
    from app.ui.timer import TurnClock

log = logging.getLogger("app")

MIN_TOTAL: Final = 48
"""Smallest total, px (readable from 2 m)."""
MAX_TOTAL: Final = 160
_DIGIT_WIDTH: Final = 0.6
"""Width of one digit (or minus sign) of the bundled font, in font sizes (Roboto ≈ 0.56)."""


def total_size(texts: list[str], width: float = 360, height: float = 740, extra: int = 0) -> int:
    """The font size (px) of the totals: as large as fits ``width`` for the longest total and
    ``height`` for every player (a name line above each), never below :data:`MIN_TOTAL`.

    Args:
        texts: the totals as shown. width, height: the screen (px). extra: px taken by the
            lines that are not players (dealer, timer).
    """
    longest = max((len(t) for t in texts), default=1)
    by_width = (width - 40) / (_DIGIT_WIDTH * max(longest, 2))
    rows = max(len(texts), 1)
    by_height = ((height - 60 - extra) / rows - 30) / 1.2
    return int(max(MIN_TOTAL, min(MAX_TOTAL, by_width, by_height)))


def timer_on(game: Game) -> bool:
    """Does the table display show the turn timer? (A variant with a turn timer, Tile Rummy
    and My Rummy, and a ``turn_time`` set.)"""
    return games.about_game(game).turn_times is not None and bool(game.options.get("turn_time"))


class TableDisplay:
    """The table display of a game.

    Attributes:
        size: the totals' font size (px). totals: per player, the total's Text.
        leaders: who is marked as leading. dealer: who deals/starts next (name).
        clock: the turn timer, or None. wakelock: ``None`` (not asked yet), ``True`` (the
            screen is kept awake) or ``False`` (the browser refused: the note shows).
    """

    def __init__(self, app: App, game: Game) -> None:
        self.app = app
        self.game = game
        st = games.standings(game)
        page = app.page
        width = float(getattr(page, "width", None) or 360) if page is not None else 360.0
        height = float(getattr(page, "height", None) or 740) if page is not None else 740.0
        self.clock: TurnClock | None = None
        if timer_on(game) and not st.finished:
            from app.ui.timer import clock_for

            self.clock = clock_for(app, game)
        texts = [number(st.totals.get(p, 0)) for p in game.players]
        self.leaders = set(st.winners if st.finished else st.leaders)
        marked = len(self.leaders & set(game.players)) if game.rounds else 0
        extra = (150 if self.clock else 50) + 28 * marked  # a mark line under each leader
        self.size = total_size(texts, width, height, extra=extra)
        self.dealer = game.players[games.next_dealer(game)] if game.players else ""
        self.totals: dict[str, ft.Text] = {}
        self.wakelock: bool | None = None
        rows: list[ft.Control] = []
        for p, text in zip(game.players, texts, strict=True):
            lead = p in self.leaders and bool(game.rounds)
            total = ft.Text(
                text,
                size=self.size,
                weight=ft.FontWeight.BOLD,
                color=ft.Colors.ON_PRIMARY_CONTAINER if lead else None,
                no_wrap=True,
            )
            self.totals[p] = total
            mark = (_("winner") if st.finished else _("leads")) if lead else ""
            name = ft.Text(
                p,
                size=max(22, self.size // 3),
                weight=ft.FontWeight.W_600 if lead else None,
                color=ft.Colors.ON_PRIMARY_CONTAINER if lead else None,
                no_wrap=True,
                overflow=ft.TextOverflow.ELLIPSIS,
            )
            # the mark on a line of its own: next to a long name it was cut to "z…"
            marks: list[ft.Control] = []
            if mark:
                marks.append(
                    ft.Text(
                        mark,
                        size=20,
                        weight=ft.FontWeight.W_600,
                        color=ft.Colors.ON_PRIMARY_CONTAINER,
                        no_wrap=True,
                    )
                )
            label = _("{name}: {total}").format(name=p, total=text)
            if mark:
                label += f", {mark}"
            rows.append(
                ft.Semantics(
                    label=label,
                    container=True,
                    content=ft.Container(
                        ft.Column(
                            [name, *marks, total],
                            spacing=0,
                            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                        ),
                        bgcolor=ft.Colors.PRIMARY_CONTAINER if lead else None,
                        border_radius=24,
                        padding=ft.Padding.symmetric(horizontal=20, vertical=0),
                    ),
                )
            )
        if st.finished:
            who = _("Game over")
        elif games.about_game(game).deals:
            who = _("{name} deals").format(name=self.dealer)
        else:
            who = _("{name} starts").format(name=self.dealer)
        self.who = ft.Text(who, size=22, text_align=ft.TextAlign.CENTER)
        self.note = ft.Text(
            _("This browser cannot keep the screen on: set a longer screen timeout on this phone."),
            size=13,
            visible=False,
            text_align=ft.TextAlign.CENTER,
        )
        body: list[ft.Control] = [
            ft.Container(
                ft.Column(
                    rows,
                    horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                    alignment=ft.MainAxisAlignment.SPACE_EVENLY,
                    expand=True,
                ),
                on_click=self.leave,
                expand=True,
            ),
            self.who,
        ]
        self.clock_text: ft.Text | None = None
        if self.clock is not None:
            self.clock_text = ft.Text("", size=40, weight=ft.FontWeight.BOLD)
            self.clock_player = ft.Text("", size=20)
            self.toggle_button = ft.FilledButton(
                _("Start"), on_click=self.toggle, height=52, expand=True
            )
            body.append(
                ft.Row(
                    [self.clock_player, self.clock_text],
                    alignment=ft.MainAxisAlignment.CENTER,
                    spacing=14,
                )
            )
            body.append(
                ft.Row(
                    [
                        self.toggle_button,
                        ft.OutlinedButton(
                            _("Next player"), on_click=self.next_player, height=52, expand=True
                        ),
                    ]
                )
            )
            self.paint_clock()
        body.append(self.note)
        back = ft.Semantics(
            label=_("Back to the score sheet"),
            button=True,
            content=ft.IconButton(ft.Icons.CLOSE, on_click=self.leave),
        )
        self.view = ft.View(
            route=f"/game/{game.id}/table",
            appbar=ft.AppBar(
                leading=back,
                automatically_imply_leading=False,
                title=ft.Text(labels.variant_name(game.variant), size=18),
                toolbar_height=44,
                actions=[icon_button(ft.Icons.SHARE, _("Share the result"), self.share)],
            ),
            controls=[
                ft.Column(body, expand=True, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
            ],
            padding=ft.Padding.only(left=12, top=4, right=12, bottom=12),
        )
        app.run(self._keep_awake)
        if self.clock is not None:
            app.run(self._tick)

    # -- the timer ---------------------------------------------------------------------------
    def paint_clock(self) -> None:
        """Show the clock's state."""
        from app.ui.timer import EXPIRED, RUNNING

        c = self.clock
        if c is None or self.clock_text is None:
            return
        self.clock_text.value = c.text()
        expired = c.state == EXPIRED
        self.clock_text.color = ft.Colors.RED if expired or c.warning() else None
        self.clock_player.value = (
            _("Time is up: {name}") if expired else _("{name}'s turn")
        ).format(name=c.player)
        self.toggle_button.content = _("Pause") if c.state == RUNNING else _("Start")

    def toggle(self, _e: Any = None) -> None:
        """Start, pause or resume the turn."""
        if self.clock is not None:
            self.clock.toggle()
            self.paint_clock()
            self.app.run(self._tick)

    def next_player(self, _e: Any = None) -> None:
        """The turn passes to the next seat; the countdown starts again."""
        if self.clock is not None:
            self.clock.next_player()
            self.paint_clock()
            self.app.run(self._tick)

    async def _tick(self) -> None:
        from app.ui.timer import RUNNING

        c = self.clock
        if c is None:
            return
        c.task_gen += 1
        gen = c.task_gen
        while self.app.screen is self and c.task_gen == gen and c.state == RUNNING:
            c.poll()
            self.paint_clock()
            self.app.page_update()
            await asyncio.sleep(min(1.0, c.until_change() + 0.02))
        if self.app.screen is self:
            self.paint_clock()
            self.app.page_update()

    # -- screen awake, leaving ---------------------------------------------------------------
    async def _keep_awake(self) -> None:
        try:
            lock = ft.Wakelock()
            await lock.enable()  # type: ignore[no-untyped-call]
            self.wakelock = bool(await lock.is_enabled())
        except Exception:  # noqa: BLE001 - the browser has no wake lock (plain http, old)
            log.debug("no wake lock", exc_info=True)
            self.wakelock = False
        self.note.visible = not self.wakelock
        self.app.page_update()
        while self.app.screen is self:
            await asyncio.sleep(1.0)
        try:
            await ft.Wakelock().disable()  # type: ignore[no-untyped-call]
        except Exception:  # noqa: BLE001
            log.debug("wake lock release failed", exc_info=True)

    def share(self, _e: Any = None) -> None:
        """Send the result as text (app/ui/share_result.py)."""
        from app.ui.share_result import ShareResult

        ShareResult(self.app, self.game).share()

    def leave(self, _e: Any = None) -> None:
        """Back to the score sheet."""
        self.app.go(f"/game/{self.game.id}")


__all__ = ["MIN_TOTAL", "TableDisplay", "timer_on", "total_size"]
