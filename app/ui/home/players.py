"""``/players`` (everyone who played) and ``/players/<name>`` (one person's record).

Every figure is :func:`app.stats.player_stats` over the stored games; the host may rename a
person or merge two spellings (:func:`app.people.rename_person`: every game is rewritten
through the store). Visitors' phones see the page without those buttons, and the session
store refuses them anyway.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote

import flet as ft
import flet_charts as fch

from app import i18n, people, stats
from app.i18n import _, ngettext
from app.store import StoreError
from app.ui.common import labels
from app.ui.common.frame import frame
from app.ui.common.widgets import card, heading, muted, number, player_colour, secondary_button
from app.ui.table import sharing

if TYPE_CHECKING:
    from app.ui.common.session import App

log = logging.getLogger("app")

ROUTE = "/players"


def player_route(name: str) -> str:
    """The address of the page of the person called ``name``."""
    return f"{ROUTE}/{quote(people.person_key(name), safe='')}"


def percent(rate: float) -> str:
    """``67 %`` (whole percent)."""
    return _("{n} %").format(n=round(rate * 100))


def average(value: float | None) -> str:
    """A mean round score with one decimal, written as the language in force writes decimals
    (``3.3``, ``−9.5``; Polish and Slovak ``3,3``), or a dash."""
    if value is None:
        return "-"
    from babel.numbers import get_decimal_symbol

    try:
        decimal = get_decimal_symbol(i18n.language())
    except (ValueError, LookupError):
        decimal = "."
    text = f"{abs(value):.1f}".replace(".", decimal)
    return f"\u2212{text}" if value < 0 else text


def _nice_step(raw: float) -> int:
    """1, 2, 5, 10, 20, 50 … : the smallest at least ``raw``."""
    magnitude = 1
    while True:
        for m in (1, 2, 5):
            if raw <= m * magnitude:
                return m * magnitude
        magnitude *= 10


async def warm_in_thread(app: App) -> None:
    """:func:`app.stats.warm` in a worker thread (the games list and the players list start it,
    so a player page seldom has to load games while the page waits)."""
    import asyncio

    try:
        await asyncio.to_thread(stats.warm, app.store)
    except Exception:  # noqa: BLE001 - a nicety: the page loads what it needs anyway
        log.debug("cannot summarise the games", exc_info=True)


def _is_host(app: App) -> bool:
    return sharing.is_host(app)


class PlayersScreen:
    """Everyone in the stored games, most games first; a tap opens their page."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.people = stats.people_index(app.store.list_games())
        controls: list[ft.Control] = []
        if not self.people:
            controls.append(muted(_("No players yet: they appear here after their first game.")))
        for _key, name, n in self.people:
            controls.append(self._row(name, n))
        self.view = frame(app, ROUTE, _("Players"), controls, back="/")
        app.run(self._warm)

    async def _warm(self) -> None:
        """Summarise the finished games in a thread while the list is read, so the page tapped
        next opens from memory (cold, a person's 170 games take about a second)."""
        await warm_in_thread(self.app)

    def _row(self, name: str, n: int) -> ft.Control:
        def go(_e: Any = None) -> None:
            self.app.go(player_route(name))

        games_text = ngettext("{n} game", "{n} games", n).format(n=n)
        return ft.Semantics(
            label=_("{name}, {games}").format(name=name, games=games_text),
            button=True,
            container=True,
            content=ft.Container(
                ft.Row(
                    [
                        ft.Text(name, size=18, weight=ft.FontWeight.W_600, expand=True),
                        muted(games_text, size=15),
                    ]
                ),
                on_click=go,
                padding=ft.Padding.symmetric(horizontal=12, vertical=12),
                border_radius=12,
                bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
            ),
        )


def _figure(label: str, value: str) -> ft.Control:
    """One labelled figure (read as "label: value")."""
    return ft.Semantics(
        label=f"{label}: {value}",
        container=True,
        content=ft.Column(
            [muted(label, size=13), ft.Text(value, size=20, weight=ft.FontWeight.BOLD)],
            spacing=0,
            tight=True,
        ),
    )


class PlayerScreen:
    """One person's record.

    Attributes:
        stats: the :class:`app.stats.PlayerStats` shown.
        name_field: the rename dialog's field (when the dialog was opened).
    """

    def __init__(self, app: App, key: str) -> None:
        self.app = app
        self.key = unquote(key)
        self.stats = stats.player_stats(app.store, self.key)
        self.name_field: ft.TextField | None = None
        s = self.stats
        controls: list[ft.Control] = []
        if not s.spellings:
            controls.append(muted(_("Nobody of this name plays in a stored game.")))
            self.view = frame(app, player_route(self.key), _("Player"), controls, back=ROUTE)
            return
        if len(s.spellings) > 1:
            controls.append(
                muted(_("Also written: {names}").format(names=", ".join(s.spellings[1:])))
            )
        streak = (
            ngettext("won {n} in a row", "won {n} in a row", s.streak[1]).format(n=s.streak[1])
            if s.streak[0] == "win"
            else ngettext("{n} without a win", "{n} without a win", s.streak[1]).format(
                n=s.streak[1]
            )
            if s.streak[0] == "loss"
            else "-"
        )
        overall = ft.ResponsiveRow(
            [
                ft.Container(_figure(_("Finished games"), str(s.played)), col=6),
                ft.Container(_figure(_("Won"), str(s.won)), col=6),
                ft.Container(_figure(_("Win rate"), percent(s.win_rate)), col=6),
                ft.Container(_figure(_("Current streak"), streak), col=6),
            ],
            run_spacing=8,
        )
        controls.append(card(overall))
        if s.in_progress:
            controls.append(
                muted(
                    ngettext(
                        "{n} game still being played is not counted.",
                        "{n} games still being played are not counted.",
                        s.in_progress,
                    ).format(n=s.in_progress)
                )
            )
        for v in s.variants.values():
            controls.append(self._variant_card(v))
        if s.timeline:
            controls.append(heading(_("Totals over time")))
            controls.append(self._chart())
        if s.head_to_head:
            controls.append(heading(_("Head to head")))
            for h in s.head_to_head.values():
                controls.append(self._versus(h))
        if _is_host(app):
            controls.append(secondary_button(_("Rename or merge"), self.open_rename, ft.Icons.EDIT))
        self.view = frame(app, player_route(self.key), s.name, controls, back=ROUTE)

    def _variant_card(self, v: stats.VariantStats) -> ft.Control:
        cell = [
            (_("Played"), str(v.played)),
            (_("Won"), str(v.won)),
            (_("Win rate"), percent(v.win_rate)),
            (_("Average round"), average(v.average_round)),
            (_("Best round"), "-" if v.best_round is None else number(v.best_round)),
            (_("Highest total"), "-" if v.high_total is None else number(v.high_total)),
            (_("Lowest total"), "-" if v.low_total is None else number(v.low_total)),
        ]
        grid = ft.ResponsiveRow(
            [ft.Container(_figure(a, b), col=6) for a, b in cell], run_spacing=8
        )
        return card(ft.Column([heading(labels.variant_name(v.variant), size=17), grid], spacing=6))

    def _versus(self, h: stats.HeadToHead) -> ft.Control:
        text = _("{name}: {games} together, {wins} won, {losses} lost").format(
            name=h.opponent, games=h.games, wins=h.wins, losses=h.losses
        )
        return ft.Semantics(label=text, container=True, content=ft.Text(text, size=16))

    def _chart(self) -> ft.Control:
        """The final totals, one line per variant, game after game (x: the person's n-th
        finished game)."""
        tl = self.stats.timeline
        order = list(dict.fromkeys(v for _c, v, _t in tl))
        series = []
        for i, variant in enumerate(order):
            pts = [
                fch.LineChartDataPoint(x=x, y=t, tooltip=f"{labels.variant_name(v)}: {t}")
                for x, (_c, v, t) in enumerate(tl, start=1)
                if v == variant
            ]
            series.append(
                fch.LineChartData(points=pts, color=player_colour(i), stroke_width=3, point=True)
            )
        ys = [t for _c, _v, t in tl]
        lo, hi = min(ys + [0]), max(ys + [0])
        step = _nice_step(max(hi - lo, 10) / 4)
        lo, hi = (lo // step) * step, -(-hi // step) * step
        n = len(tl)
        x_step = max(1, -(-n // 8))
        chart = fch.LineChart(
            data_series=series,
            min_x=0.5,
            max_x=n + 0.5,
            min_y=lo,
            max_y=hi,
            height=180,
            horizontal_grid_lines=fch.ChartGridLines(
                interval=step, width=1, color=ft.Colors.OUTLINE_VARIANT
            ),
            left_axis=fch.ChartAxis(
                label_size=44,
                labels=[
                    fch.ChartAxisLabel(value=y, label=ft.Text(number(y), size=11))
                    for y in range(lo, hi + 1, step)
                ],
            ),
            bottom_axis=fch.ChartAxis(
                label_size=22,
                labels=[
                    fch.ChartAxisLabel(value=x, label=ft.Text(str(x), size=11))
                    for x in range(1, n + 1, x_step)
                ],
            ),
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        )
        legend = ft.Row(
            [
                ft.Row(
                    [
                        ft.Container(width=14, height=4, bgcolor=player_colour(i)),
                        ft.Text(labels.variant_name(v), size=13),
                    ],
                    spacing=4,
                )
                for i, v in enumerate(order)
            ],
            wrap=True,
        )
        summary = ngettext(
            "Chart of the final totals of {n} game; the last {total}",
            "Chart of the final totals of {n} games; the last {total}",
            len(tl),
        ).format(n=len(tl), total=number(tl[-1][2]))
        return ft.Semantics(
            label=summary, container=True, content=ft.Column([chart, legend], spacing=6)
        )

    # -- rename / merge ----------------------------------------------------------------------
    def open_rename(self, _e: Any = None) -> None:
        """The rename dialog: a new name; another player's name merges the two."""
        self.name_field = ft.TextField(
            label=_("New name"), value=self.stats.name, autofocus=True, max_length=40
        )
        dialog = ft.AlertDialog(
            modal=True,
            title=ft.Text(_("Rename {name}").format(name=self.stats.name)),
            content=ft.Column(
                [
                    self.name_field,
                    muted(
                        _(
                            "Every stored game is changed. Type another player's name to make "
                            "the two one player."
                        )
                    ),
                ],
                tight=True,
                width=320,
            ),
            actions=[
                ft.TextButton(_("Cancel"), on_click=lambda _e=None: self.app.close_dialog()),
                ft.FilledButton(_("Rename"), on_click=self.rename),
            ],
        )
        self.app.open_dialog(dialog)

    def rename(self, _e: Any = None) -> None:
        """Rename (or merge) with the dialog's name; problems show at the field."""
        field = self.name_field
        assert field is not None
        new = (field.value or "").strip()
        try:
            report = people.rename_person(self.app.store, self.key, new)
        except people.PeopleError as e:
            field.error = {
                "same_game": _("Both names play in the same game: they are two players."),
                "host_only": _("Only the host's computer can rename players."),
                "bad_name": _("Type a name (letters, at most 40)."),
            }.get(e.code, _("Nobody of this name plays in a stored game."))
            return
        except StoreError:
            log.warning("rename stopped", exc_info=True)
            field.error = _("A game changed meanwhile; try again.")
            return
        self.app.close_dialog()
        self.app.notify(
            ngettext("{n} game changed", "{n} games changed", len(report.changed)).format(
                n=len(report.changed)
            )
        )
        self.app.go(player_route(report.new))


__all__ = ["ROUTE", "PlayerScreen", "PlayersScreen", "player_route"]
