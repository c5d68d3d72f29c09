"""``/game/<id>/table``: the score sheet as a screen for the middle of the table.

Only the names and the totals, as large as the screen allows and every player on it
(:func:`layout`: one column, or a grid when that makes the totals clearly larger, e.g. a phone
turned on its side; on a 360×740 phone totals of up to four characters are at least
:data:`MIN_TOTAL` px high for up to 6 players; laid out again when the screen is resized), the
leader marked, who deals or starts next, and — in Tile Rummy and My Rummy with a turn time
agreed — the turn timer (the session's :class:`app.ui.table.timer.TurnClock`, the same one as the
timer screen). A tap anywhere on the names goes back to the score sheet. It follows the app's
theme (true black in the dark one, set in Settings).

The screen is kept awake while it shows, through Flet's ``Wakelock`` service (the browser's
Screen Wake Lock API). A browser can refuse: a page opened over plain ``http://`` from another
device is not a secure context and has no wake lock, nor have older browsers; then the screen
says so in one line ("set a longer screen timeout on this phone") and the display works
otherwise the same. The lock is released when the screen is left.

Other phones' changes arrive as for the score sheet: the route is rebuilt on a change
(:mod:`app.ui.table.sharing` refreshes the screen shown).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Final

import flet as ft

from app import games
from app.i18n import _
from app.ui.common import labels
from app.ui.common.widgets import icon_button, number
from app.ui.sheet.share_result import ShareResult
from app.ui.table.timer import EXPIRED, RUNNING, clock_for

if TYPE_CHECKING:
    from app.games import Game
    from app.ui.common.session import App
    from app.ui.table.timer import TurnClock

log = logging.getLogger("app")

MIN_TOTAL: Final = 48
"""Smallest total, px, with up to 6 players on a 360×740 phone (readable from 2 m); more
players or a smaller screen get smaller totals rather than rows off the screen."""
MAX_TOTAL: Final = 160
_DIGIT_WIDTH: Final = 0.6
"""Width of one digit (or minus sign) of the bundled font, in font sizes (Roboto ≈ 0.56)."""
_LETTER_WIDTH: Final = 0.58
"""Width of one letter of a name, in font sizes (Roboto, a safe average)."""
LINE: Final = 1.15
"""Line height of every text on this screen, in font sizes (set on each Text: the theme's
default, 1.43, made four rows need the height of five)."""
_ROW_PAD: Final = 40
"""Horizontal padding of a player's row, px (20 each side)."""
_CHROME: Final = 44 + 16 + 8
"""App bar, the view's padding and a safety margin, px."""


def layout(
    texts: list[str],
    names: list[str] | None = None,
    width: float = 360,
    height: float = 740,
    extra: float = 0,
    marks: int = 0,
) -> tuple[int, int, int]:
    """How the players are laid out: ``(columns, total size, name size)``, sizes in px.

    Every player's row (the name, the "leads" line of a leader, the total) gets an equal
    cell of a grid of up to one column per player; the totals are as large as fits the cell for the
    longest total (and at most :data:`MAX_TOTAL`), the names a third of that (at least 22 px
    where the cell is wide enough for the longest name). The number of columns giving the
    largest totals wins (more columns only for totals a quarter larger): a long list on a
    phone held upright stays one column, a phone turned on its side gets several.

    Args:
        texts: the totals as shown. names: the players' names (for their width).
        width, height: the screen, px. extra: px taken by the lines that are not players
            (dealer, timer, note). marks: how many players have a "leads"/"winner" line
            under their name (room is kept for one per line of the grid, up to ``marks``).
    """
    n = max(len(texts), 1)
    longest = max((len(t) for t in texts), default=1)
    longest_name = max((len(x) for x in names or []), default=1)
    avail = max(height - _CHROME - extra, 40)
    best = (1, 1, 1)
    for cols in range(1, n + 1):
        rows = -(-n // cols)
        cell_w = (width - 24) / cols - _ROW_PAD
        cell_h = (avail - 20 * LINE * min(marks, rows)) / rows
        by_width = cell_w / (_DIGIT_WIDTH * max(longest, 2))
        name_fit = cell_w / (_LETTER_WIDTH * max(longest_name, 1))
        size = int(min(MAX_TOTAL, by_width))
        while size > 8:
            # the height of the largest name (a short one, at its cap: see name_size)
            if LINE * (size + _name_cap(size)) <= cell_h:
                break
            size -= 1
        name = int(max(8, min(_name_cap(size), name_fit)))
        if size > best[1] * 1.25:  # another column only for clearly larger totals
            best = (cols, size, name)
    return best


def _name_cap(size: int) -> int:
    """The largest name size (px) beside totals of ``size`` px: a third of it, at least 22."""
    return int(min(max(22, size // 3), size))


def table_name_size(name: str, columns: int, size: int, width: float = 360) -> int:
    """The font size (px) of one player's name in a grid of ``columns`` columns with totals
    of ``size`` px on a screen ``width`` px wide (see :func:`layout`): its own length decides,
    so one long name is smaller (or cut with "…") while the others stay large."""
    cell_w = (width - 24) / max(columns, 1) - _ROW_PAD
    fit = cell_w / (_LETTER_WIDTH * max(len(name), 1))
    return int(max(8, min(_name_cap(size), fit)))


def total_size(texts: list[str], width: float = 360, height: float = 740, extra: int = 0) -> int:
    """The font size (px) of the totals (see :func:`layout`)."""
    return layout(texts, None, width, height, extra)[1]


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
        # rebuilt after a resize (_resized): the size the resize event gave
        self.resized: tuple[float, float] | None = None
        if isinstance(app.screen, TableDisplay) and app.screen.resized is not None:
            self.resized = app.screen.resized
            width, height = self.resized
        self.clock: TurnClock | None = None
        if timer_on(game) and not st.finished:
            self.clock = clock_for(app, game)
        texts = [number(st.totals.get(p, 0)) for p in game.players]
        self.leaders = set(st.winners if st.finished else st.leaders)
        marked = len(self.leaders & set(game.players)) if game.rounds else 0
        note = _(
            "This browser cannot keep the screen on: set a longer screen timeout on this phone."
        )
        # below the players: the dealer line, the note (room kept: it shows only once the
        # browser refused the wake lock), the timer and its buttons; 10 px between them
        note_lines = -(-len(note) * 13 * 0.55 // max(width - 24, 100))
        extra = 10 + 22 * LINE + 10 + 13 * LINE * note_lines
        if self.clock is not None:
            extra += 10 + 40 * LINE + 10 + 52
        self.columns, self.size, name_size = layout(
            texts, list(game.players), width, height, extra, marks=marked
        )
        line = ft.TextStyle(height=LINE)
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
                style=line,
            )
            self.totals[p] = total
            mark = (_("winner") if st.finished else _("leads")) if lead else ""
            name = ft.Text(
                p,
                size=max(name_size, table_name_size(p, self.columns, self.size, width)),
                weight=ft.FontWeight.W_600 if lead else None,
                color=ft.Colors.ON_PRIMARY_CONTAINER if lead else None,
                no_wrap=True,
                overflow=ft.TextOverflow.ELLIPSIS,
                style=line,
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
                        style=line,
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
        self.who = ft.Text(who, size=22, text_align=ft.TextAlign.CENTER, style=line, no_wrap=True)
        self.note = ft.Text(
            note,
            size=13,
            style=line,
            visible=False,
            text_align=ft.TextAlign.CENTER,
        )
        # the grid line by line (left to right, then the next line): cells of a line level
        cols = self.columns
        grid = ft.Column(
            [
                ft.Row(
                    [
                        ft.Container(cell, expand=True, alignment=ft.Alignment.CENTER)
                        for cell in rows[i : i + cols]
                    ],
                    spacing=0,
                )
                for i in range(0, len(rows), cols)
            ],
            alignment=ft.MainAxisAlignment.SPACE_EVENLY,
            horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
            spacing=0,
            expand=True,
        )
        body: list[ft.Control] = [
            ft.Container(
                grid,
                on_click=self.leave,
                expand=True,
            ),
            self.who,
        ]
        self.clock_text: ft.Text | None = None
        if self.clock is not None:
            self.clock_text = ft.Text("", size=40, weight=ft.FontWeight.BOLD, style=line)
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
        self.screen_size = (width, height)
        if page is not None:  # turned on its side, a window resized: laid out again
            page.on_resize = self._resized
        app.run(self._keep_awake)
        if self.clock is not None:
            app.run(self._tick)

    # -- the timer ---------------------------------------------------------------------------
    def paint_clock(self) -> None:
        """Show the clock's state."""
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
        if isinstance(self.app.screen, TableDisplay):
            return  # laid out again (resized, another phone's round): the lock stays
        try:
            await ft.Wakelock().disable()  # type: ignore[no-untyped-call]
        except Exception:  # noqa: BLE001
            log.debug("wake lock release failed", exc_info=True)

    def _resized(self, e: Any = None) -> None:
        page = self.app.page
        if self.app.screen is not self or page is None:
            return
        # the event's size: page.width and page.height are not updated yet when it runs
        width = getattr(e, "width", None) or page.width or 360
        height = getattr(e, "height", None) or page.height or 740
        self.resized = (float(width), float(height))
        if self.resized != self.screen_size:
            self.app.refresh()

    def share(self, _e: Any = None) -> None:
        """Send the result as text (app/ui/sheet/share_result.py)."""
        ShareResult(self.app, self.game).share()

    def leave(self, _e: Any = None) -> None:
        """Back to the score sheet."""
        self.app.go(f"/game/{self.game.id}")


__all__ = [
    "LINE",
    "MIN_TOTAL",
    "TableDisplay",
    "layout",
    "table_name_size",
    "timer_on",
    "total_size",
]
