"""Which screen shows for which route (see :mod:`app.ui.shell` for the list)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.i18n import _
from app.store import StoreError
from app.ui.frame import MessageScreen

if TYPE_CHECKING:
    from app.ui.shell import App, Screen


def error_screen(app: App, route: str, message: str) -> Screen:
    """A screen with a message and a way home."""
    return MessageScreen(app, route, message)


def build_screen(app: App, route: str) -> Screen:
    """Build the screen for ``route`` from the store."""
    parts = [p for p in route.split("/") if p]
    if not parts:
        from app.ui.games_list import GamesList

        return GamesList(app)
    from app.ui import sharing  # visitors on the network: join code, read-only, or nothing

    gated = sharing.gate(app, route, parts)
    if gated is not None:
        return gated
    if parts == ["share"]:
        return sharing.ShareScreen(app)
    if parts == ["join"]:
        return sharing.JoinScreen(app)
    if parts == ["new"]:
        from app.ui.new_game import NewGame

        return NewGame(app)
    if parts == ["settings"]:
        from app.ui.settings import SettingsScreen

        return SettingsScreen(app)
    if parts[0] == "players" and len(parts) <= 2:  # people and their record (issue 12)
        from app.ui.players import PlayerScreen, PlayersScreen

        return PlayerScreen(app, parts[1]) if len(parts) == 2 else PlayersScreen(app)
    if parts == ["season"]:
        from app.ui.history import SeasonScreen

        return SeasonScreen(app)
    if parts[0] == "history" and len(parts) <= 2:  # finished games (issue 12)
        from app.ui.history import FinishedGame, HistoryScreen

        if len(parts) == 1:
            return HistoryScreen(app)
        try:
            return FinishedGame(app, app.store.load_game(parts[1]))
        except StoreError:
            return error_screen(app, route, _("This game is not here (was it deleted?)."))
    if parts[0] == "check":  # /check, /check/<kind> (?game=<id> | ?variant=<name>)
        from app.ui.checkers import build

        screen: Screen = build(app, parts)
        return screen
    if parts[0] == "rules" or (parts[0] == "game" and parts[2:3] == ["rules"]):
        from app.ui.rulebook_view import rulebook_screen

        return rulebook_screen(app, parts)
    if parts[0] == "game" and len(parts) >= 2:
        try:
            # the sheet after a save, and the next round's entry, use the game just saved
            # (app/ui/sharing.py, current_game): not read back from the file, not totalled
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
            from app.ui.score_sheet import ScoreSheet

            return ScoreSheet(app, game)
        if rest == ["round"]:
            from app.ui.round_entry import RoundEntry

            return RoundEntry(app, game)
        if rest == ["timer"]:
            from app.ui.timer import timer_screen

            return timer_screen(app, game)
        if rest == ["table"]:  # the table display (issue 12)
            from app.ui.table_display import TableDisplay

            return TableDisplay(app, game)
        if rest[0] == "round" and len(rest) in (2, 3) and rest[1].isdigit():
            i = int(rest[1]) - 1
            if not 0 <= i < len(game.rounds):
                return error_screen(app, route, _("This game has no round {n}.").format(n=rest[1]))
            if len(rest) == 2:
                from app.ui.round_entry import RoundDetail

                return RoundDetail(app, game, i)
            if rest[2] == "edit":
                from app.ui.round_entry import RoundEntry

                return RoundEntry(app, game, i)
    return error_screen(app, route, _("There is no such page."))
