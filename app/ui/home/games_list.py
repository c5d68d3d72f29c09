"""The games list: start a game, resume an unfinished one, look at the history, export,
import, delete."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from app.i18n import _, ngettext
from app.ui.common import labels
from app.ui.common.frame import frame
from app.ui.common.titles import game_title as game_title  # the old import paths
from app.ui.common.titles import when as when
from app.ui.common.widgets import AMBER_TINT as AMBER_TINT
from app.ui.common.widgets import (
    MUTED,
    card,
    heading,
    icon_button,
    muted,
    number,
    primary_button,
)
from app.ui.home.history import BackupButtons
from app.ui.home.players import warm_in_thread
from app.ui.home.settings import settings_button
from app.ui.sheet.export import ExportDialog, ImportDialog
from app.ui.table import sharing

if TYPE_CHECKING:
    from app.games import GameSummary
    from app.ui.common.session import App


PAGE = 15
"""Game cards shown per list before "Show more"."""


class GamesList:
    """The home screen."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.summaries = app.store.list_games()
        self.unfinished = [s for s in self.summaries if not s.finished]
        self.finished = [s for s in self.summaries if s.finished]
        controls: list[ft.Control] = []
        notices = [getattr(n, "message", str(n)) for n in getattr(app.store, "notices", [])]
        if notices:
            controls.append(self._notices(notices))
        # other devices: no new games, join with a code

        self.host = sharing.is_host(app)
        if self.host:
            controls.append(primary_button(_("New game"), self._new, ft.Icons.ADD))
        else:
            join = primary_button(_("Join a table with its code"), self._join, ft.Icons.KEY)
            controls.append(join)
        controls.append(  # the referee's checkers, no game needed (app/ui/referee/checkers.py)
            ft.OutlinedButton(
                content=_("Referee: check a meld, turn or hand"),
                icon=ft.Icons.GAVEL,
                on_click=lambda _e=None: app.go("/check"),
                height=44,
            )
        )
        if self.summaries:  # everyone's record across the games (app/ui/home/players.py)
            controls.append(
                ft.OutlinedButton(
                    content=_("Players and their records"),
                    icon=ft.Icons.PEOPLE_OUTLINE,
                    on_click=lambda _e=None: app.go("/players"),
                    height=44,
                )
            )
        if not self.summaries and self.host:
            controls.append(
                card(
                    ft.Text(
                        _(
                            "No games yet. Tap “New game”, choose the variant and the players, "
                            "and enter each round as it ends."
                        ),
                        size=16,
                    )
                )
            )
        self.lists: dict[str, tuple[list[GameSummary], ft.Column, ft.TextButton]] = {}
        if self.unfinished:
            controls.append(heading(_("Unfinished games")))
            controls += self._list("unfinished", self.unfinished)
        if self.finished:
            controls.append(heading(_("History")))
            controls.append(
                ft.OutlinedButton(
                    content=_("Search the history"),
                    icon=ft.Icons.SEARCH,
                    on_click=lambda _e=None: app.go("/history"),
                    height=44,
                )
            )
            controls += self._list("finished", self.finished)
        if self.host:
            controls.append(
                ft.TextButton(
                    _("Import a game (JSON)"), icon=ft.Icons.UPLOAD, on_click=self._import
                )
            )
            # all games in one file (issue 12)

            self.backup = BackupButtons(app)
            controls.append(self.backup.control)
        actions: list[ft.Control] = [settings_button(app)]
        share = sharing.share_button(app)
        if share is not None:
            actions.append(share)
        self.view = frame(app, "/", _("Rummy referee"), controls, actions=actions)
        if self.finished:  # the player pages then open from memory (app/ui/home/players.py)

            async def warm() -> None:
                await warm_in_thread(app)

            app.run(warm)

    def _list(self, key: str, items: list[GameSummary]) -> list[ft.Control]:
        """The first :data:`PAGE` cards of a list and a button for more (a long history
        would make the home screen slow to build and to scroll)."""
        column = ft.Column([self._game_card(s) for s in items[:PAGE]], spacing=10)
        more = ft.TextButton(
            "", icon=ft.Icons.EXPAND_MORE, on_click=lambda _e=None: self.show_more(key)
        )
        self.lists[key] = (items, column, more)
        self._label_more(key)
        return [column, more]

    def _label_more(self, key: str) -> None:
        items, column, more = self.lists[key]
        left = len(items) - len(column.controls)
        more.visible = left > 0
        more.content = ngettext("Show {n} more game", "Show {n} more games", left).format(n=left)

    def show_more(self, key: str) -> None:
        """Add the next cards of the ``unfinished`` or ``finished`` list."""
        items, column, _more = self.lists[key]
        shown = len(column.controls)
        column.controls = column.controls + [
            self._game_card(s) for s in items[shown : shown + PAGE]
        ]
        self._label_more(key)

    def _notices(self, texts: list[str]) -> ft.Control:
        """The store's recovery notices (a file restored from a backup …) until dismissed."""
        box = card(ft.Text(""), bgcolor=AMBER_TINT)

        def dismiss(_e: Any = None) -> None:
            box.visible = False
            self.app.store.dismiss_notices()

        box.content = ft.Row(
            [
                ft.Icon(ft.Icons.INFO_OUTLINE),
                ft.Text("\n".join(texts), size=15, expand=True),
                icon_button(ft.Icons.CLOSE, _("Dismiss the notice"), dismiss),
            ],
            vertical_alignment=ft.CrossAxisAlignment.START,
        )
        self.notice_box = box
        return box

    def _game_card(self, s: GameSummary) -> ft.Control:
        title = game_title(s)
        best = set(s.winners if s.finished else s.leaders)
        scores = ft.Row(wrap=True, spacing=12, run_spacing=2)
        for p in s.players:
            lead = p in best and s.round_count > 0
            text = ft.Text(
                f"{p} {number(s.totals.get(p, 0))}",
                size=17,
                weight=ft.FontWeight.BOLD if lead else ft.FontWeight.NORMAL,
            )
            if lead:
                star = ft.Icon(ft.Icons.STAR, color=ft.Colors.AMBER_800, size=18)
                scores.controls.append(ft.Row([star, text], spacing=2, tight=True))
            else:
                scores.controls.append(text)
        status = (
            ngettext("Winner: {names}", "Winners: {names}", len(s.winners)).format(
                names=", ".join(s.winners)
            )
            if s.finished
            else ngettext("{n} round", "{n} rounds", s.round_count).format(n=s.round_count)
        )
        if s.ended_early:  # "End the game now" on its sheet: not played to its agreed end
            status += " · " + ngettext(
                "ended by the players after {n} round",
                "ended by the players after {n} rounds",
                s.round_count,
            ).format(n=s.round_count)

        def open_game(_e: Any = None) -> None:
            self.app.go(f"/game/{s.id}")

        body = ft.Container(
            content=ft.Column(
                [
                    ft.Text(labels.variant_name(s.variant), size=18, weight=ft.FontWeight.BOLD),
                    scores,
                    muted(f"{status} · {when(s.updated)}", size=13),
                ],
                spacing=4,
            ),
            on_click=open_game,
            padding=ft.Padding.only(left=12, top=10, bottom=10, right=4),
            expand=True,
        )
        action = _("Open {title}") if s.finished else _("Resume {title}")
        tap = ft.Semantics(
            label=action.format(title=title), button=True, container=True, content=body, expand=True
        )
        actions: list[ft.Control] = [
            icon_button(
                ft.Icons.IOS_SHARE,
                _("Export {title}").format(title=title),
                lambda *_e: self._export(s),
            ),
        ]
        if self.host:  # deleting a game is the host's
            actions.append(
                icon_button(
                    ft.Icons.DELETE_OUTLINE,
                    _("Delete {title}").format(title=title),
                    lambda *_e: self._delete(s),
                )
            )
        buttons = ft.Column(actions, spacing=0)
        return ft.Container(
            content=ft.Row([tap, buttons], vertical_alignment=ft.CrossAxisAlignment.START),
            bgcolor=AMBER_TINT if not s.finished else ft.Colors.SURFACE_CONTAINER_LOW,
            border_radius=12,
            border=ft.Border.all(1, ft.Colors.with_opacity(0.15, MUTED)),
        )

    # -- actions ------------------------------------------------------------------------------
    def _new(self, _e: Any = None) -> None:
        self.app.go("/new")

    def _join(self, _e: Any = None) -> None:
        self.app.go("/join")

    def _export(self, s: GameSummary) -> None:
        game = self.app.store.load_game(s.id)
        ExportDialog(self.app, game).open()

    def _delete(self, s: GameSummary) -> None:
        def really() -> None:
            self.app.store.delete_game(s.id)
            self.app.notify(_("Game deleted"))
            self.app.refresh()

        self.app.confirm(
            _("Delete this game?"),
            _(
                "{title} with {n} rounds will be gone for good. Export it first to keep a copy."
            ).format(title=game_title(s), n=s.round_count),
            _("Delete"),
            really,
        )

    def _import(self, _e: Any = None) -> None:
        ImportDialog(self.app).open()
