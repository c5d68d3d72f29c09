"""The score sheet: big totals with the leader marked, the next round's button, a chart of the
totals, every round (tap one to see, edit or delete it), undo, export, and the winner."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import TYPE_CHECKING, Any, TypeVar

import flet as ft

from app import games, i18n, verdict_render
from app.error_text import describe
from app.games import Game
from app.i18n import _, ngettext
from app.ui.common import labels
from app.ui.common.frame import frame
from app.ui.common.widgets import (
    ERROR_COLOUR,
    GOOD_COLOUR,
    LEADER_BG,
    MUTED,
    card,
    heading,
    icon_button,
    muted,
    number,
    player_colour,
    primary_button,
    readable,
    signed,
)
from app.ui.sheet import game_end
from app.ui.sheet.chart import TotalsChart
from app.ui.sheet.export import ExportDialog
from app.ui.sheet.game_end import EndActions
from app.ui.table import sharing
from app.ui.table.shared_games import SHARED_GAMES as SHARED_GAMES  # the old import paths
from app.ui.table.shared_games import forget_shared as forget_shared
from app.ui.table.shared_games import latest_shared as latest_shared
from app.ui.table.shared_games import shared_game
from app.ui.table.sharing import save_game
from app.ui.table.timer import pending_text

log = logging.getLogger("app")
_C = TypeVar("_C", bound=ft.Control)

if TYPE_CHECKING:
    from app.games import Standings
    from app.ui.common.session import App


SHOWN_ROUNDS = 12
"""Rounds the table shows at first (the last ones); earlier ones a page at a time."""
ROUNDS_PAGE = 50
"""Rounds per page when paging back (what one screen holds at most, beyond the first view)."""


def _isolate(control: _C) -> _C:
    """Mark ``control`` isolated for Flet: updating a control above it no longer walks into
    its children (a live update sends it alone, when it changed). Flet checks the
    ``_isolated`` attribute (``BaseControl.is_isolated``)."""
    object.__setattr__(control, "_isolated", True)
    return control


def _same_control(a: Any, b: Any) -> bool:
    """``a`` and ``b`` would look and act the same on the screen: same types, same field
    values all the way down (handlers: both present or both absent; they act on the same
    game of the same screen)."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same_control(x, y) for x, y in zip(a, b, strict=True))
    if not isinstance(a, ft.BaseControl):
        return bool(a == b)
    for f in dataclasses.fields(a):
        if f.name.startswith("_") or f.name in ("data", "parent", "page"):
            continue
        x, y = getattr(a, f.name, None), getattr(b, f.name, None)
        if callable(x) and not isinstance(x, ft.BaseControl):
            if not callable(y):
                return False
        elif not _same_control(x, y):
            return False
    return True


def _part() -> ft.Column:
    """A part of the screen: a column laid out as the screen's own (widgets.centered)."""
    return ft.Column([], spacing=14, tight=True, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def describe_change(game: Game, step: games.UndoStep) -> str:
    """What undo would take back, for people: "Remove round 5 (just added)"."""
    n = step.index + 1
    if step.action == "add":
        return _("remove round {n}, added last").format(n=n)
    if step.action == "replace":
        return _("put round {n} back as it was before the edit").format(n=n)
    if step.action == "end":
        return _("open the game again: it was ended after round {n}").format(n=step.index)
    if step.action == "limits":
        return _("put the agreed end back as it was")
    return _("bring back round {n}, deleted last").format(n=n)


def ended_text(game: Game, sentence: bool = False) -> str:
    """How a game ended from its sheet is told (:func:`app.ui.sheet.game_end.ended_early`): "ended
    early after 3 rounds" when an end had been agreed at the start, else "ended by the
    players after 3 rounds"; ``sentence``: as a sentence of its own."""
    n = len(game.rounds)
    rounds, target = game_end.agreed_at_start(game)
    if rounds is not None or target is not None:
        if sentence:
            text = ngettext(
                "The players ended the game early, after {n} round.",
                "The players ended the game early, after {n} rounds.",
                n,
            )
        else:
            text = ngettext("ended early after {n} round", "ended early after {n} rounds", n)
    elif sentence:
        text = ngettext(
            "The players ended the game after {n} round.",
            "The players ended the game after {n} rounds.",
            n,
        )
    else:
        text = ngettext(
            "ended by the players after {n} round", "ended by the players after {n} rounds", n
        )
    return text.format(n=n)


class ScoreSheet:
    """The game's main screen.

    The round table shows the last :data:`SHOWN_ROUNDS` rounds and pages back
    :data:`ROUNDS_PAGE` rounds at a time (:meth:`show_earlier`, :meth:`show_later`,
    :meth:`show_latest`); the chart draws at most :data:`app.ui.sheet.chart.MAX_POINTS` points per
    player. :meth:`update_from` brings a shown sheet to a newer version of the game in place,
    giving the same content a new sheet would (tests/test_watchers.py), while keeping the rows
    and chart points that did not change, so Flet sends a watching phone only what changed.
    With a page, a new sheet's chart is drawn in a turn of the event loop of its own, just
    after the rest of the sheet was sent (:meth:`_draw_chart`).

    Args:
        app: the session.
        game: the game as loaded.
        window: ``(first, end)`` 0-based round indices of a page of the table to show
            instead of the last rounds (clipped to the game).

    Attributes (for tests): ``game``, ``standings``, ``total_texts`` (player -> big total
    Text), ``round_rows`` (round index -> its clickable row, for the rounds shown),
    ``window`` (``(first, end)`` of the rounds shown), ``following`` (the table shows the
    last rounds and follows new ones), ``enter_button`` (None when the game is over),
    ``undo_button``, ``show_all_button`` (earlier rounds), ``later_button``,
    ``latest_button``, ``chart`` (:class:`app.ui.sheet.chart.TotalsChart`, None without rounds).
    """

    def __init__(self, app: App, game: Game, window: tuple[int, int] | None = None) -> None:
        # phones without the join code only watch (app/ui/table/sharing.py)

        self.app = app
        shared = shared_game(game)  # one copy, and one standings, for all watching phones
        self.game = game if sharing.is_host(app) else shared  # the host's keeps its join code
        self.standings: Standings = games.standings(shared)
        self.following = window is None
        self.window = (0, 0) if window is None else window
        self.chart: TotalsChart | None = None
        self.round_rows: dict[int, ft.Control] = {}
        self._row_keys: dict[int, tuple[Any, ...]] = {}
        self._row_border = ft.Border.only(bottom=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT))
        self.rows = _isolate(ft.Column([], spacing=0))
        self.show_all_button = ft.TextButton(
            "", icon=ft.Icons.EXPAND_LESS, on_click=self.show_earlier
        )
        self.later_button = ft.TextButton("", icon=ft.Icons.EXPAND_MORE, on_click=self.show_later)
        self.latest_button = ft.TextButton(
            _("Back to the latest rounds"),
            icon=ft.Icons.VERTICAL_ALIGN_BOTTOM,
            on_click=self.show_latest,
        )
        # the screen in parts that stay put, so that a live update sends only the parts that
        # change (Flet walks every control below the one it is told to send)
        self._top, self._chart_part, self._table, self._end = (_part() for _ in range(4))
        self.rounds_hint = muted("")
        """What a tap on a round does here (set by :meth:`_compose`: a watcher only looks)."""
        self._table.controls = [
            heading(_("Rounds")),
            self.rounds_hint,
            self._header_row(),
            self.show_all_button,
            self.rows,
            self.later_button,
            self.latest_button,
        ]
        self._chart_heading = heading(_("Totals over the rounds"))
        self.end_actions = EndActions(self)  # end now, one more round, play again
        self._chart_later = app.page is not None  # see _draw_chart
        actions = self._compose()
        title = labels.variant_name(game.variant)
        parts: list[ft.Control] = [self._top, self._chart_part, self._table, self._end]
        self.view = frame(app, f"/game/{game.id}", title, parts, back="/", actions=actions)

    # -- live updates and paging ------------------------------------------------------------
    def update_from(self, game: Game) -> list[ft.Control]:
        """Show ``game`` (a newer version of this sheet's game) in place: the same content a
        new :class:`ScoreSheet` of it with this sheet's :attr:`window` would show, keeping the
        controls that did not change. Call it in the session's language; the caller sends the
        page.

        Returns:
            The controls to send (``page.update(*controls)``): the parts that may have
            changed, never the whole page.
        """
        shared = shared_game(game)
        self.game = game if sharing.is_host(self.app) else shared
        self.standings = games.standings(shared)
        return self._recompose()

    def show_earlier(self, _e: Any = None) -> None:
        """Show the page of rounds before the ones shown (a short game: all of it)."""
        first, end = self.window
        if first <= 0:
            return
        start = max(0, first - ROUNDS_PAGE)
        if self.following and end - start <= ROUNDS_PAGE:
            self.window = (start, end)  # it all fits on one page
        else:
            self.window = (start, first)
        self.following = False
        self._send(self._recompose())

    show_all_rounds = show_earlier
    """The earlier rounds (the name the first version had)."""

    def show_later(self, _e: Any = None) -> None:
        """Show the page of rounds after the ones shown."""
        n = len(self.game.rounds)
        _first, end = self.window
        if end >= n:
            return
        self.window = (end, min(n, end + ROUNDS_PAGE))
        self.following = False
        self._send(self._recompose())

    def show_latest(self, _e: Any = None) -> None:
        """Back to the last rounds (and follow new ones again)."""
        self.following = True
        self._send(self._recompose())

    async def _draw_chart(self) -> None:
        """Draw the chart just after the sheet was sent: the chart is most of what a long
        game's sheet sends, and in a turn of the event loop of its own the other phones'
        messages are served between the two halves."""
        await asyncio.sleep(0.001)  # what became ready meanwhile (a phone's message) first
        if self.chart is not None or not self.game.rounds or self.app.screen is not self:
            return
        with i18n.use_language(self.app.language):
            st = self.standings
            self.chart = TotalsChart(list(self.game.players), st.running, st.totals)
        self._chart_part.controls = [self._chart_heading, self.chart.control]
        self._send([self._chart_part])

    def _send(self, controls: list[ft.Control]) -> None:
        """Send changed parts from a handler (the isolated rows are not sent by the page
        update Flet makes after a handler)."""
        page = self.app.page
        if page is not None:
            try:
                page.update(*controls)
            except Exception:  # noqa: BLE001 - session closed, or not shown yet
                log.debug("sheet update failed", exc_info=True)

    def _recompose(self) -> list[ft.Control]:
        """Compose again; the controls that may have changed (to send)."""
        had_table, had_chart = self._table.visible, self.chart
        actions = self._compose()
        changed: list[ft.Control] = [self._top, self._end]
        if self._table.visible != had_table or self.chart is not had_chart:
            changed += [self._chart_part, self._table]
        else:
            changed += [self.show_all_button, self.later_button, self.latest_button]
        changed.append(self.rows)  # isolated (see _isolate): sent on its own
        if self.chart is not None:
            changed.append(self.chart.control)
        bar = self.view.appbar
        if isinstance(bar, ft.AppBar):
            if bar.actions is not None and _same_control(bar.actions, actions):
                self.undo_button: ft.Control = bar.actions[actions.index(self.undo_button)]
            else:  # kept when the same: a save then sends no app bar
                bar.actions = actions
                changed.append(bar)
        return changed

    # -- building ---------------------------------------------------------------------------
    def _compose(self) -> list[ft.Control]:
        """Fill the screen's parts for :attr:`game` (the chart and the table's rows are kept
        where they did not change); returns the app bar's actions."""
        app, game = self.app, self.game
        st = self.standings
        players = list(game.players)
        self.total_texts: dict[str, ft.Text] = {}
        controls: list[ft.Control] = []
        self.editable = sharing.can_edit(app, game.id)
        self.rounds_hint.value = (
            _("Tap a round to see why, to edit or to delete it.")
            if self.editable
            else _("Tap a round to see how it was scored.")
        )
        for banner in (sharing.next_game_banner(app, game), sharing.access_banner(app, game)):
            if banner is not None:
                controls.append(banner)

        if st.finished:
            controls.append(self._winner_banner())
        controls.append(self._totals_panel())
        progress = self._progress_line()
        if progress is not None:
            controls.append(progress)
        self.enter_button = None
        if not st.finished:
            n = len(game.rounds) + 1
            dealer = players[games.next_dealer(game)]
            role = _("deals") if games.about_game(game).deals else _("starts")
            controls.append(
                muted(_("Round {n}: {name} {role}").format(n=n, name=dealer, role=role), size=15)
            )
            if self.editable:
                self.enter_button = primary_button(
                    _("Enter round {n}").format(n=n), self._enter, ft.Icons.EDIT_NOTE
                )
                controls.append(self.enter_button)
        controls += self.end_actions.finished_controls()  # play again, one more round
        controls.append(  # the referee's checkers, this game's rules (ui/referee/checkers.py)
            ft.OutlinedButton(
                content=_("Referee: check a meld, turn or hand"),
                icon=ft.Icons.GAVEL,
                on_click=lambda _e=None: app.go(f"/check?game={game.id}"),
                height=44,
            )
        )
        self.timer_button = None
        if games.about_game(game).turn_times is not None and not st.finished:
            # the turn timer (app/ui/table/timer.py)

            self.timer_button = ft.OutlinedButton(
                content=_("Turn timer"),
                icon=ft.Icons.TIMER,
                on_click=lambda _e=None: app.go(f"/game/{game.id}/timer"),
                height=44,
            )
            controls.append(self.timer_button)
            if game.pending_penalties:
                controls.append(muted(pending_text(game), size=14))
        if st.error:
            controls.append(
                card(
                    ft.Text(
                        _("Totals without game-end bonuses: {message}").format(
                            message=self._game_problem()
                        ),
                        color=ERROR_COLOUR,
                    ),
                    bgcolor=ft.Colors.ERROR_CONTAINER,
                )
            )
        old = self._top.controls
        if len(old) == len(controls):  # keep what did not change: Flet then sends none of it
            controls = [a if _same_control(a, b) else b for a, b in zip(old, controls, strict=True)]
        self._top.controls = controls
        if game.rounds:
            if self._chart_later:  # drawn in a turn of the loop of its own (_draw_chart)
                self._chart_later = False
                self._chart_part.controls = [self._chart_heading, ft.Container(height=220)]
                self.app.run(self._draw_chart)
            elif self.chart is None or self.chart.players != players:
                self.chart = TotalsChart(players, st.running, st.totals)
                self._chart_part.controls = [self._chart_heading, self.chart.control]
            else:
                self.chart.set_totals(st.running, st.totals)
        else:
            self.chart = None
            self._chart_part.controls = []
            self.window = (0, 0)
        self._set_rows()
        self._chart_part.visible = self._table.visible = bool(game.rounds)
        end = [*self.end_actions.end_controls(), self._rules_line()]
        if not _same_control(self._end.controls, end):  # kept when the same: not sent again
            self._end.controls = end

        step = games.last_change(game)
        self.undo_button = icon_button(
            ft.Icons.UNDO,
            _("Undo last change"),
            self._undo,
            disabled=step is None or not self.editable,
        )
        self.undo_button.visible = self.editable  # a watcher cannot undo: no button to try
        actions: list[ft.Control] = [
            icon_button(  # the table display (app/ui/table/table_display.py, issue 12)
                ft.Icons.FULLSCREEN,
                _("Show on the table"),
                lambda *_e: app.go(f"/game/{game.id}/table"),
            ),
            self.undo_button,
            icon_button(ft.Icons.IOS_SHARE, _("Export this game"), self._export),
        ]
        share = sharing.share_button(app, game.id)
        if share is not None:
            actions.append(share)
        return actions

    def _set_rows(self) -> None:
        """The table's rows for :attr:`window` (the last rounds when :attr:`following`),
        reusing the rows whose round and totals did not change; the paging buttons."""
        n = len(self.game.rounds)
        if self.following:
            first, end = max(0, n - SHOWN_ROUNDS), n
        else:
            first, end = self.window
            end = min(end, n)
            first = min(first, end)
            if first == end and n:  # the page is gone (rounds deleted): its last rounds
                first = max(0, end - ROUNDS_PAGE)
        self.window = (first, end)
        st = self.standings
        old_rows, old_keys = self.round_rows, self._row_keys
        self.round_rows, self._row_keys = {}, {}
        for i in range(first, end):
            key = (
                tuple(st.round_scores[i].items()),
                tuple(st.running[i].items()),
                self.game.rounds[i].edited is not None,
            )
            row = old_rows.get(i) if old_keys.get(i) == key else None
            # a row never changes once built (a changed round gets a new row): isolated,
            # sending the table does not walk into the rows it keeps
            self.round_rows[i] = row if row is not None else _isolate(self._round_row(i))
            self._row_keys[i] = key
        self.rows.controls = [self.round_rows[i] for i in range(first, end)]
        start = max(0, first - ROUNDS_PAGE)
        self.show_all_button.content = _("Earlier rounds ({first}–{last})").format(
            first=start + 1, last=first
        )
        self.show_all_button.visible = first > 0
        self.later_button.content = _("Later rounds ({first}–{last})").format(
            first=end + 1, last=min(n, end + ROUNDS_PAGE)
        )
        self.later_button.visible = end < n
        self.latest_button.visible = not self.following and end < n

    # -- parts --------------------------------------------------------------------------------
    def _game_problem(self) -> str:
        """Why the judge could not total the game (e.g. rounds after its end), in the
        player's language."""
        st = self.standings
        answer = {**st.judge, "ok": True, "valid": False}
        answer.setdefault("reason", st.error)
        answer.setdefault("message", st.message or "")
        if not answer.get("reason"):
            return st.message or ""
        return verdict_render.verdict_message(answer, {"variant": self.game.variant})

    def _winner_banner(self) -> ft.Control:
        st = self.standings
        if st.winners:
            text = ngettext("{names} wins!", "{names} win!", len(st.winners)).format(
                names=_(" and ").join(st.winners)
            )
        else:
            text = _("The game is over: no winner")
        lines: list[ft.Control] = [
            ft.Row(
                [
                    ft.Icon(ft.Icons.EMOJI_EVENTS, color=ft.Colors.AMBER_800, size=36),
                    ft.Text(text, size=26, weight=ft.FontWeight.BOLD, expand=True),
                ]
            ),
        ]
        why = {
            "rounds": _("The agreed number of rounds is played."),
            "target": _("The agreed target score is reached."),
        }.get(st.finished_by or "")
        if game_end.ended_early(self.game):
            why = ended_text(self.game, sentence=True)
        if why:
            lines.append(ft.Text(why, size=15))
        bonus = [f"{p} {signed(b)}" for p, b in st.bonuses.items() if b]
        if bonus:
            lines.append(
                ft.Text(
                    _("Game-end bonuses (included in the totals): {list}").format(
                        list=", ".join(bonus)
                    ),
                    size=15,
                    weight=ft.FontWeight.W_500,
                )
            )
        detail = st.judge.get("breakdown")
        if isinstance(detail, list) and detail and all(isinstance(x, str) for x in detail):
            detail = verdict_render.game_lines(st.judge, self.game.variant, self.game.options)
            lines.append(ft.Text(readable("\n".join(detail)), size=14))
        # an agreed end (``why``) is the one sentence: the judge's line is about the game
        # without it ("the players agree on a number of rounds; …")
        message = "" if why else verdict_render.game_message(st.judge, self.game.variant)
        if message:
            lines.append(ft.Text(readable(message), size=13, color=MUTED, italic=True))
        return ft.Semantics(
            label=text,
            container=True,
            content=card(ft.Column(lines, spacing=6), bgcolor="amber,0.45"),  # both themes
        )

    def _totals_panel(self) -> ft.Control:
        st = self.standings
        best = set(st.winners if st.finished else st.leaders)
        rows: list[ft.Control] = []
        for i, p in enumerate(self.game.players):
            total = st.totals.get(p, 0)
            lead = p in best
            big = ft.Text(
                number(total),
                size=40,
                weight=ft.FontWeight.BOLD,
                color=ft.Colors.ON_SURFACE,
            )
            self.total_texts[p] = big
            tag = (_("winner") if st.finished else _("leader")) if lead else ""
            name_col = ft.Column(
                list[ft.Control](
                    [
                        ft.Text(
                            p,
                            size=20,
                            weight=ft.FontWeight.W_600,
                            max_lines=1,
                            overflow=ft.TextOverflow.ELLIPSIS,
                        )
                    ]
                )
                + (
                    [
                        ft.Text(
                            tag.upper(),
                            size=12,
                            weight=ft.FontWeight.BOLD,
                            color=ft.Colors.ON_SURFACE_VARIANT,
                        )
                    ]
                    if tag
                    else []
                ),
                spacing=0,
                expand=True,
            )
            row = ft.Container(
                content=ft.Row(
                    [
                        ft.Container(width=8, height=44, bgcolor=player_colour(i), border_radius=4),
                        ft.Icon(
                            ft.Icons.STAR if lead else ft.Icons.STAR_BORDER,
                            color=ft.Colors.AMBER_800 if lead else ft.Colors.TRANSPARENT,
                            size=28,
                        ),
                        name_col,
                        big,
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                ),
                bgcolor=LEADER_BG if lead else None,
                border_radius=10,
                padding=ft.Padding.symmetric(horizontal=8, vertical=2),
            )
            label = ngettext(
                "{name}: {total} point", "{name}: {total} points", abs(int(total))
            ).format(name=p, total=number(total))
            if tag:
                label += f", {tag}"
            rows.append(ft.Semantics(label=label, container=True, content=row))
        return card(ft.Column(rows, spacing=4), padding=8)

    def _progress_line(self) -> ft.Control | None:
        """Rounds won (gin boxes, Carousel round bonuses) and how the game goes on, as the
        judge's ``game`` answer tells them."""
        st = self.standings
        parts: list[str] = []
        won = st.judge.get("boxes") or st.judge.get("round_wins")
        if isinstance(won, dict) and won:
            label = _("Boxes") if "boxes" in st.judge else _("Rounds won")
            parts.append(
                f"{label}: " + ", ".join(f"{p} {won.get(p, 0)}" for p in self.game.players)
            )
        message = verdict_render.game_message(st.judge, self.game.variant)
        if not st.finished and message:
            parts.append(readable(message))
        if not parts:
            return None
        return muted(" · ".join(parts), size=14)

    def _header_row(self) -> ft.Control:
        cells: list[ft.Control] = [ft.Text("#", size=13, color=MUTED, width=30)]
        for i, p in enumerate(self.game.players):
            cells.append(
                ft.Text(
                    p,
                    size=13,
                    weight=ft.FontWeight.BOLD,
                    color=player_colour(i),
                    max_lines=1,
                    overflow=ft.TextOverflow.ELLIPSIS,
                    expand=True,
                    text_align=ft.TextAlign.RIGHT,
                )
            )
        return ft.Container(
            content=ft.Row(cells, spacing=6), padding=ft.Padding.symmetric(horizontal=8)
        )

    def _round_row(self, i: int) -> ft.Control:
        st = self.standings
        scores, running = st.round_scores[i], st.running[i]
        cells: list[ft.Control] = [
            ft.Text(str(i + 1), size=15, weight=ft.FontWeight.BOLD, width=30)
        ]
        parts = []
        for p in self.game.players:
            s = scores.get(p, 0)
            cells.append(
                ft.Column(
                    [
                        ft.Text(number(running.get(p, 0)), size=17, weight=ft.FontWeight.BOLD),
                        ft.Text(
                            signed(s),
                            size=13,
                            color=GOOD_COLOUR if s > 0 else ERROR_COLOUR if s < 0 else MUTED,
                        ),
                    ],
                    spacing=0,
                    horizontal_alignment=ft.CrossAxisAlignment.END,
                    expand=True,
                )
            )
            parts.append(f"{p} {signed(s)} ({number(running.get(p, 0))})")
        edited = self.game.rounds[i].edited

        def open_round(_e: Any = None) -> None:
            self.app.go(f"/game/{self.game.id}/round/{i + 1}")

        label = _("Round {n}: {scores}").format(n=i + 1, scores=", ".join(parts))
        if edited:
            label += " " + _("(edited)")
        return ft.Semantics(
            label=label,
            button=True,
            container=True,
            content=ft.Container(
                content=ft.Row(cells, spacing=6),
                on_click=open_round,
                padding=ft.Padding.symmetric(horizontal=8, vertical=6),
                border=self._row_border,
                bgcolor=ft.Colors.with_opacity(0.12, ft.Colors.YELLOW) if edited else None,
            ),
        )

    def _rules_line(self) -> ft.Control:
        g = self.game
        changed = []
        base = games.about_game(g).find_preset(g.preset)
        for k, v in g.options.items():
            if k != "preset" and base is not None and getattr(base, k, v) != v:
                changed.append(labels.changed_option(g.variant, k, v))
        text = _("Rules: {preset}").format(preset=labels.preset_name(g.preset))
        if changed:
            text += " · " + "; ".join(changed)
        limit, target = games.game_limits(g)
        if game_end.ended_early(g):  # not "N rounds agreed": the players stopped
            text += " · " + ended_text(g)
        elif limit:
            text += " · " + ngettext("{n} round agreed", "{n} rounds agreed", limit).format(n=limit)
        if target:
            text += " · " + ngettext("to {n} point", "to {n} points", target).format(n=target)
        return muted(text, size=13)

    # -- actions ------------------------------------------------------------------------------
    def _enter(self, _e: Any = None) -> None:
        self.app.go(f"/game/{self.game.id}/round")

    def _export(self, _e: Any = None) -> None:
        ExportDialog(self.app, self.game).open()

    def _undo(self, _e: Any = None) -> None:
        step = games.last_change(self.game)
        if step is None:
            return
        self.app.confirm(
            _("Undo the last change?"),
            _("This will {what}.").format(what=describe_change(self.game, step)),
            _("Undo"),
            self.undo_now,
            danger=False,
        )

    def undo_now(self) -> None:
        """Take back the last change and save."""
        try:
            new = games.undo(self.game)
        except games.GameError as e:
            self.app.notify(describe(e, self.game.variant), error=True)
            return
        if self.app_save(new):
            self.app.notify(_("Undone"))
        self.app.refresh()

    def app_save(self, new: Game) -> bool:
        """Save ``new`` over this screen's game version; False (and a message) on conflict."""
        return save_game(self.app, new, self.game.version) is not None
