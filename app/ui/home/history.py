"""``/history`` (finished games: search and filters), ``/history/<id>`` (a finished game,
read-only: export, delete with undo) and ``/season`` (a date range: players ranked per variant).

Everything is read from the games list (:meth:`app.store.Store.list_games`: the engine's
winners and totals) — only the read-only game loads its game. Deleting is the host's (the
session store refuses it elsewhere); the deleted game is kept in this session's memory until
another is deleted or the session ends, and "Undo" stores it again.
"""

from __future__ import annotations

import logging
import weakref
from datetime import date
from typing import TYPE_CHECKING, Any

import flet as ft

from app import backup, games, people, stats
from app.error_text import describe
from app.games import Game
from app.i18n import _, ngettext
from app.people import display_names
from app.store import StoreError
from app.ui.common import labels
from app.ui.common.frame import frame
from app.ui.common.titles import game_title, when
from app.ui.common.widgets import (
    AMBER_TINT,
    ChoiceChips,
    card,
    heading,
    muted,
    number,
    pick_json_file,
    secondary_button,
)
from app.ui.sheet.export import ExportDialog
from app.ui.sheet.share_result import ShareResult
from app.ui.table import sharing

if TYPE_CHECKING:
    from app.ui.common.session import App

log = logging.getLogger("app")

ROUTE = "/history"
SEASON = "/season"
SHOWN = 30
"""Games shown before "Show more"."""
ALL = "*"

_deleted: weakref.WeakKeyDictionary[App, Game] = weakref.WeakKeyDictionary()
"""Per session: the last game deleted from the history, for "Undo"."""


def parse_day(text: str | None) -> date | None:
    """``2026-01-31`` → a date; empty → None. Raises ValueError for anything else."""
    text = (text or "").strip()
    return date.fromisoformat(text) if text else None


def _is_host(app: App) -> bool:
    return sharing.is_host(app)


class _Range:
    """The "From" and "To" day fields (YYYY-MM-DD), from the route's ``?from=``, ``?to=``."""

    def __init__(self, app: App, on_change: Any) -> None:
        def typed(_e: Any = None) -> None:  # while typing: apply a whole day, blame nothing yet
            if self.read(quiet=True) is not None:
                on_change()

        def done(_e: Any = None) -> None:
            on_change()

        fields: list[ft.TextField] = []
        for key, label in (("from", _("From")), ("to", _("To"))):
            fields.append(
                ft.TextField(
                    label=label,
                    hint_text=_("YYYY-MM-DD"),
                    value=app.query.get(key, ""),
                    on_change=typed,
                    on_submit=done,
                    on_blur=done,
                    expand=True,
                    dense=True,
                )
            )
        self.start, self.end = fields
        self.control = ft.Row([self.start, self.end], spacing=8)

    def read(self, quiet: bool = False) -> tuple[date | None, date | None] | None:
        """The range, or None (unless ``quiet``, the bad field shows why)."""
        out: list[date | None] = []
        for f in (self.start, self.end):
            try:
                out.append(parse_day(f.value))
            except ValueError:
                if not quiet:
                    f.error = _("A day like 2026-01-31")
                return None
            if not quiet or f.error:
                f.error = None
        return out[0], out[1]


class HistoryScreen:
    """Finished games with a search box and filters (variant, player, days).

    Attributes:
        search: the search field. variants, people: the filter chips. days: the day range.
        shown: the games shown after the last filtering.
    """

    def __init__(self, app: App) -> None:
        self.app = app
        every = app.store.list_games()
        self.summaries = [s for s in every if s.finished]
        self.host = _is_host(app)
        self.search = ft.TextField(
            label=_("Search by player or note"),
            value=app.query.get("q", ""),
            on_change=self.apply,
            prefix_icon=ft.Icons.SEARCH,
            dense=True,
        )
        present = list(dict.fromkeys(s.variant for s in self.summaries))
        self.variants = ChoiceChips(
            [(ALL, _("All variants"))] + [(v, labels.variant_name(v)) for v in present],
            app.query.get("variant", ALL),
            on_change=self.apply,
        )
        if self.variants.value is None:
            self.variants.set(ALL)
        top = stats.people_index(self.summaries)[:12]
        names = display_names(every)  # as on the players page
        self.people = ChoiceChips(
            [(ALL, _("Everyone"))] + [(k, names.get(k, n)) for k, n, _c in top],
            app.query.get("player", ALL),
            on_change=self.apply,
        )
        if self.people.value is None:
            self.people.set(ALL)
        self.days = _Range(app, self.apply)
        self.count = muted("")
        self.results = ft.Column(spacing=10)
        self.more = ft.TextButton("", icon=ft.Icons.EXPAND_MORE, on_click=self.show_more)
        self.shown: list[games.GameSummary] = []
        controls: list[ft.Control] = []
        kept = _deleted.get(app)
        if kept is not None:
            controls.append(self._undo_box(kept))

        def season(_e: Any = None) -> None:
            app.go(SEASON)

        controls += [
            secondary_button(_("Season: rank the players"), season, ft.Icons.LEADERBOARD),
            self.search,
            self.variants.control,
            self.people.control,
            self.days.control,
            self.count,
            self.results,
            self.more,
        ]
        self.apply()
        self.view = frame(app, ROUTE, _("History"), controls, back="/")

    def _undo_box(self, game: Game) -> ft.Control:
        title = game_title(games.summarize(game))
        return card(
            ft.Column(
                [
                    ft.Text(_("Deleted: {title}").format(title=title), size=15),
                    ft.FilledButton(_("Undo the deletion"), on_click=self.undo_delete),
                ],
                spacing=8,
                horizontal_alignment=ft.CrossAxisAlignment.START,
            ),
            bgcolor=AMBER_TINT,
        )

    def undo_delete(self, _e: Any = None) -> None:
        """Store the game deleted last again (the same id, players, rounds)."""
        game = _deleted.pop(self.app, None)
        if game is None:
            return
        try:
            self.app.store.create_game(game)
        except StoreError as e:
            log.warning("undo delete failed", exc_info=True)
            self.app.notify(
                _("The game could not be stored again. {reason}").format(reason=describe(e)),
                error=True,
            )
            return
        self.app.notify(_("The game is back"))
        self.app.refresh()

    def apply(self, _e: Any = None) -> None:
        """Filter again from the controls' values."""
        days = self.days.read()
        start, end = days if days is not None else (None, None)
        variant = None if self.variants.value in (None, ALL) else self.variants.value
        player = None if self.people.value in (None, ALL) else self.people.value
        names = {v: labels.variant_name(v) for v in games_variants(self.summaries)}
        self.found = stats.filter_games(
            self.summaries, self.search.value or "", variant, player, start, end, names
        )
        self.results.controls = [self._row(s) for s in self.found[:SHOWN]]
        self.shown = self.found[:SHOWN]
        self.count.value = ngettext(
            "{n} finished game", "{n} finished games", len(self.found)
        ).format(n=len(self.found))
        self._label_more()

    def _label_more(self) -> None:
        left = len(self.found) - len(self.shown)
        self.more.visible = left > 0
        self.more.content = ngettext("Show {n} more game", "Show {n} more games", left).format(
            n=left
        )

    def show_more(self, _e: Any = None) -> None:
        """Show the next :data:`SHOWN` games."""
        n = len(self.shown)
        extra = self.found[n : n + SHOWN]
        self.shown = self.shown + extra
        self.results.controls = self.results.controls + [self._row(s) for s in extra]
        self._label_more()

    def _row(self, s: games.GameSummary) -> ft.Control:
        title = game_title(s)
        totals = ", ".join(f"{p} {number(s.totals.get(p, 0))}" for p in s.players)
        winner = ngettext("Winner: {names}", "Winners: {names}", len(s.winners)).format(
            names=", ".join(s.winners)
        )
        body = ft.Container(
            ft.Column(
                [
                    ft.Text(labels.variant_name(s.variant), size=17, weight=ft.FontWeight.BOLD),
                    ft.Text(totals, size=15),
                    muted(f"{winner} · {when(s.created)}", size=13),
                ],
                spacing=2,
            ),
            on_click=lambda _e=None: self.app.go(f"{ROUTE}/{s.id}"),
            padding=ft.Padding.symmetric(horizontal=12, vertical=10),
            border_radius=12,
            bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
        )
        tap = ft.Semantics(
            label=_("Open {title}").format(title=title) + f" · {when(s.created)}",
            button=True,
            container=True,
            content=body,
            expand=True,
        )
        return ft.Row([tap])


def games_variants(summaries: list[games.GameSummary]) -> list[str]:
    """The variants in ``summaries``, first seen first."""
    return list(dict.fromkeys(s.variant for s in summaries))


class FinishedGame:
    """A finished game, read-only: totals, every round, export and (the host) delete."""

    def __init__(self, app: App, game: Game) -> None:
        self.app = app
        self.game = game
        st = games.standings(game)
        title = labels.variant_name(game.variant)
        controls: list[ft.Control] = [
            muted(_("Started {when}").format(when=when(game.created))),
        ]
        if st.winners:
            controls.append(
                ft.Text(
                    ngettext("Winner: {names}", "Winners: {names}", len(st.winners)).format(
                        names=", ".join(st.winners)
                    ),
                    size=20,
                    weight=ft.FontWeight.BOLD,
                )
            )
        cols = [ft.DataColumn(label=_("Round"))]
        cols += [ft.DataColumn(label=p, numeric=True) for p in game.players]
        rows = [
            ft.DataRow(
                [ft.DataCell(ft.Text(str(i)))]
                + [ft.DataCell(ft.Text(number(sc.get(p, 0)))) for p in game.players]
            )
            for i, sc in enumerate(st.round_scores, start=1)
        ]
        if any(st.bonuses.values()):
            rows.append(
                ft.DataRow(
                    [ft.DataCell(ft.Text(_("Bonuses")))]
                    + [ft.DataCell(ft.Text(number(st.bonuses.get(p, 0)))) for p in game.players]
                )
            )
        rows.append(
            ft.DataRow(
                [ft.DataCell(ft.Text(_("Total"), weight=ft.FontWeight.BOLD))]
                + [
                    ft.DataCell(
                        ft.Text(number(st.totals.get(p, 0)), weight=ft.FontWeight.BOLD),
                    )
                    for p in game.players
                ]
            )
        )
        self.table = ft.DataTable(
            columns=cols, rows=rows, column_spacing=14, horizontal_margin=6, heading_row_height=40
        )
        controls.append(ft.Row([self.table], scroll=ft.ScrollMode.AUTO))
        if game.notes:
            controls.append(muted(game.notes))
        self.sharer = ShareResult(app, game)
        controls += self.sharer.buttons()
        controls.append(secondary_button(_("Export this game"), self.export, ft.Icons.IOS_SHARE))
        if _is_host(app):
            controls.append(
                secondary_button(_("Delete this game"), self.delete, ft.Icons.DELETE_OUTLINE)
            )
        self.view = frame(app, f"{ROUTE}/{game.id}", title, controls, back=ROUTE)

    def export(self, _e: Any = None) -> None:
        """The export dialog (CSV or JSON)."""
        ExportDialog(self.app, self.game).open()

    def delete(self, _e: Any = None) -> None:
        """Ask, then delete; the history offers "Undo"."""
        s = games.summarize(self.game)

        def really() -> None:
            try:
                self.app.store.delete_game(self.game.id)
            except StoreError:
                log.warning("delete refused", exc_info=True)
                self.app.notify(_("The game could not be deleted."), error=True)
                return
            _deleted[self.app] = self.game
            stats.CACHE.forget([self.game.id])
            self.app.notify(_("Game deleted"))
            self.app.go(ROUTE)

        self.app.confirm(
            _("Delete this game?"),
            ngettext(
                "{title} with {n} round will be deleted. You can undo it in the history.",
                "{title} with {n} rounds will be deleted. You can undo it in the history.",
                s.round_count,
            ).format(title=game_title(s), n=s.round_count),
            _("Delete"),
            really,
        )


class SeasonScreen:
    """Players ranked by wins, then points, per variant, for a day range.

    Attributes:
        days: the range fields. tables: per variant, the ranking shown.
    """

    def __init__(self, app: App) -> None:
        self.app = app
        self.summaries = app.store.list_games()
        self.days = _Range(app, self.apply)
        self.body = ft.Column(spacing=12, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
        self.ranking: dict[str, list[stats.SeasonRow]] = {}
        controls: list[ft.Control] = [
            muted(_("Finished games started between the two days (leave one empty: no limit).")),
            self.days.control,
            self.body,
        ]
        self.apply()
        self.view = frame(app, SEASON, _("Season"), controls, back=ROUTE)

    def apply(self, _e: Any = None) -> None:
        """Rank again for the days typed."""
        days = self.days.read()
        if days is None:
            return
        self.ranking = stats.season(self.summaries, *days)
        out: list[ft.Control] = []
        if not self.ranking:
            out.append(muted(_("No finished games in these days.")))
        for variant, rows in self.ranking.items():
            lines: list[ft.Control] = [heading(labels.variant_name(variant), size=17)]
            for i, r in enumerate(rows, start=1):
                text = ngettext(
                    "{rank}. {name}: {wins} won of {games}, {points} point",
                    "{rank}. {name}: {wins} won of {games}, {points} points",
                    abs(int(r.points)),
                ).format(rank=i, name=r.name, wins=r.wins, games=r.games, points=number(r.points))
                lines.append(
                    ft.Semantics(
                        label=text,
                        container=True,
                        content=ft.Text(
                            text, size=16, weight=ft.FontWeight.BOLD if i == 1 else None
                        ),
                    )
                )
            out.append(card(ft.Column(lines, spacing=4)))
        self.body.controls = out


__all__ = [
    "ROUTE",
    "SEASON",
    "FinishedGame",
    "HistoryScreen",
    "SeasonScreen",
    "parse_day",
]


class BackupButtons:
    """The games list's "Back up all games" and "Restore a backup" (the host's; app/backup.py).

    Attributes:
        status: a line saying what the last restore did.
        report: the last :class:`app.backup.ImportReport`.
    """

    def __init__(self, app: App) -> None:
        self.app = app
        self.status = muted("")
        self.status.visible = False
        self.report: Any = None
        self.control = ft.Column(
            [
                ft.TextButton(
                    _("Back up all games (one file)"), icon=ft.Icons.SAVE_ALT, on_click=self.export
                ),
                ft.TextButton(
                    _("Restore a backup (merge its games)"),
                    icon=ft.Icons.RESTORE,
                    on_click=self.pick,
                ),
                self.status,
            ],
            spacing=0,
        )

    def export(self, _e: Any = None) -> None:
        """Offer every game as one JSON file."""
        self.app.download(backup.file_name(), backup.export_all(self.app.store))

    async def pick(self, _e: Any = None) -> None:
        """Choose the backup file on this device, then merge it."""
        data = await pick_json_file(
            _("Choose a backup file"),
            lambda: self.app.notify(_("This device cannot open a file here."), error=True),
        )
        if data is not None:
            await self.restore(data)

    async def restore(self, data: bytes) -> None:
        """Merge the backup ``data`` (in a worker thread: every round is scored again)."""
        import asyncio

        self.status.value = _("Reading the backup…")
        self.status.visible = True
        self.app.page_update()
        try:
            r = await asyncio.to_thread(backup.import_all, self.app.store, data)
        except backup.BackupError as e:
            reason = {
                "not_text": _("the file is not text"),
                "too_big": _("the file is too large"),
                "not_json": _("the file is damaged (not JSON)"),
                "newer": _("it was made by a newer version of the app"),
            }.get(e.code, _("the file is not a backup of this app"))
            self.status.value = _("Not restored: {reason}").format(reason=reason)
            self.app.page_update()
            return
        except people.PeopleError:
            self.status.value = _("Only the host's computer can restore a backup.")
            self.app.page_update()
            return
        self.report = r
        stats.CACHE.forget(r.updated)
        text = _(
            "{added} added, {updated} updated, {same} already here, {copies} kept twice"
        ).format(
            added=len(r.added), updated=len(r.updated), same=len(r.unchanged), copies=len(r.copies)
        )
        if r.errors:
            text += " · " + ngettext(
                "{n} game could not be read", "{n} games could not be read", len(r.errors)
            ).format(n=len(r.errors))
        self.app.notify(text)
        self.app.refresh()
