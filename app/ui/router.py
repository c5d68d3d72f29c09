"""Which screen shows for which route (the list: :mod:`app.ui.common.session`).

The shell's end of the layers: this module imports the screens, and no screen imports it
(screens navigate with ``app.go(route)``). :mod:`app.ui.shell` installs :func:`build_screen`
in every session.

The server imports every screen before it starts anyway (:func:`app.guard.warm_screens`: the
first visitor must not wait for the imports), so they are imported here at the top, in sight.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.i18n import _
from app.store import StoreError
from app.ui.common.frame import MessageScreen
from app.ui.entry.round_entry import RoundDetail, RoundEntry
from app.ui.home import rulebook_view
from app.ui.home.games_list import GamesList
from app.ui.home.history import FinishedGame, HistoryScreen, SeasonScreen
from app.ui.home.new_game import NewGame
from app.ui.home.players import PlayerScreen, PlayersScreen
from app.ui.home.settings import SettingsScreen
from app.ui.referee import checkers
from app.ui.sheet.score_sheet import ScoreSheet
from app.ui.table import sharing
from app.ui.table.table_display import TableDisplay
from app.ui.table.timer import timer_screen

if TYPE_CHECKING:
    from app.ui.common.session import App, Screen


class _CheckerLinks:
    """:class:`app.ui.home.rulebook_view.CheckerLinks` of :mod:`app.ui.referee.checkers`."""

    @property
    def from_value(self) -> str:
        return checkers.FROM_CHECKER

    def keep(self, app: App) -> None:
        checkers.keep_checker(app)

    def route(self, app: App) -> str | None:
        return checkers.kept_route(app)

    def rules(self, app: App, variant: str) -> tuple[dict[str, Any], str] | None:
        return checkers.kept_rules(app, variant)


# a verdict's rule link opens the rule book; its ← comes back to the checker, pieces and all
rulebook_view.link_checker(_CheckerLinks())


def error_screen(app: App, route: str, message: str) -> Screen:
    """A screen with a message and a way home."""
    return MessageScreen(app, route, message)


def build_screen(app: App, route: str) -> Screen:
    """Build the screen for ``route`` from the store."""
    parts = [p for p in route.split("/") if p]
    if not parts:
        return GamesList(app)
    # visitors on the network: join code, read-only, or nothing
    gated = sharing.gate(app, route, parts)
    if gated is not None:
        return gated
    if parts == ["share"]:
        return sharing.ShareScreen(app)
    if parts == ["join"]:
        return sharing.JoinScreen(app)
    if parts == ["new"]:
        return NewGame(app)
    if parts == ["settings"]:
        return SettingsScreen(app)
    if parts[0] == "players" and len(parts) <= 2:  # people and their record (issue 12)
        return PlayerScreen(app, parts[1]) if len(parts) == 2 else PlayersScreen(app)
    if parts == ["season"]:
        return SeasonScreen(app)
    if parts[0] == "history" and len(parts) <= 2:  # finished games (issue 12)
        if len(parts) == 1:
            return HistoryScreen(app)
        try:
            return FinishedGame(app, app.store.load_game(parts[1]))
        except StoreError:
            return error_screen(app, route, _("This game is not here (was it deleted?)."))
    if parts[0] == "check":  # /check, /check/<kind> (?game=<id> | ?variant=<name>)
        screen: Screen = checkers.build(app, parts)
        return screen
    if parts[0] == "rules" or (parts[0] == "game" and parts[2:3] == ["rules"]):
        return rulebook_view.rulebook_screen(app, parts)
    if parts[0] == "game" and len(parts) >= 2:
        try:
            # the sheet after a save, and the next round's entry, use the game just saved
            # (app/ui/table/sharing.py, current_game): not read back from the file, not totalled
            # again; other screens read it afresh
            if len(parts) == 2:
                game = sharing.current_game(app, parts[1])
            elif parts[2:] == ["round"]:  # the next round: add_round makes a new Game
                game = sharing.current_game(app, parts[1], own=True)
            else:
                game = app.store.load_game(parts[1])
        except StoreError:
            return error_screen(app, route, _("This game is not here (was it deleted?)."))
        rest = parts[2:]
        if not rest:
            return ScoreSheet(app, game)
        if rest == ["round"]:
            return RoundEntry(app, game)
        if rest == ["timer"]:
            return timer_screen(app, game)
        if rest == ["table"]:  # the table display (issue 12)
            return TableDisplay(app, game)
        if rest[0] == "round" and len(rest) in (2, 3) and rest[1].isdigit():
            i = int(rest[1]) - 1
            if not 0 <= i < len(game.rounds):
                return error_screen(app, route, _("This game has no round {n}.").format(n=rest[1]))
            if len(rest) == 2:
                return RoundDetail(app, game, i)
            if rest[2] == "edit":
                return RoundEntry(app, game, i)
    return error_screen(app, route, _("There is no such page."))
