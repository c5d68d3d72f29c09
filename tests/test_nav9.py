"""Navigation faults a new user found (session 9), without a browser.

1. A dialog opened on a screen (the export of a Tile Rummy sheet) stayed open over the next
   screen when the browser's Back (or an address typed) changed the route, handing out the
   wrong game's CSV. Now a route change the app did not ask for closes the dialogs; one the app
   asked for (``app.go``) leaves the handler's choice alone (the live table's conflict dialog
   opens, then the sheet is shown under it).
2. Back from the sheet right after saving round 3 opened an empty form for round 4 (Flet can
   only push the sheet's address after the entry's). Now the round's address, come back to by
   the browser after its round was saved, shows the score sheet again.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from app.store import Store
from app.ui.entry.round_entry import RoundDetail, RoundEntry
from app.ui.home.games_list import GamesList
from app.ui.sheet.export import ExportDialog
from app.ui.sheet.score_sheet import ScoreSheet
from app.ui.shell import App
from tests.test_flow import stored_series
from tests.test_views import open_entry, rummy101_round, start_game


class Page:
    """What :class:`App` touches of a Flet page: dialogs shown (``_dialogs.controls``, as
    Flet keeps them), route changes sent back at once as the browser does for a push, and
    the browser's own route changes (:meth:`browser`)."""

    def __init__(self) -> None:
        self.route = "/"
        self.views: list[Any] = []
        self.on_connect: Any = None
        self.on_route_change: Any = None
        self.on_view_pop: Any = None
        self.title = self.theme_mode = self.theme = None
        self._dialogs = type("Dialogs", (), {})()
        self._dialogs.controls = []
        self.pushed: list[str] = []

    def update(self) -> None:
        pass

    def run_task(self, make: Any) -> None:
        make().close()  # the browser's storage, scrolling, clipboard: not here

    def show_dialog(self, dialog: Any) -> None:
        dialog.open = True
        self._dialogs.controls.append(dialog)

    def pop_dialog(self) -> None:
        top = next((d for d in reversed(self._dialogs.controls) if d.open), None)
        if top is not None:
            top.open = False

    def navigate(self, route: str) -> None:  # App.go off the session's loop
        self.pushed.append(route)
        self.browser(route)

    def browser(self, route: str) -> None:
        """The address bar changes to ``route`` (Back, Forward, typed): Flet's event."""
        self.route = route
        self.on_route_change(type("E", (), {"route": route})())

    def open_dialogs(self) -> list[Any]:
        return [d for d in self._dialogs.controls if d.open]


def session(store: Store) -> tuple[App, Page]:
    page = Page()
    app = App(store, page)  # type: ignore[arg-type]
    app.start()
    return app, page


def test_back_from_a_sheet_closes_its_export_dialog(store: Store) -> None:
    game = stored_series(store)
    app, page = session(store)
    app.go(f"/game/{game.id}")
    sheet = app.screen
    assert isinstance(sheet, ScoreSheet)
    sheet._export()
    export = page.open_dialogs()
    assert len(export) == 1 and app.dialog is export[0]
    page.browser("/")  # the browser's Back
    assert isinstance(app.screen, GamesList)
    assert page.open_dialogs() == [] and app.dialog is None


def test_another_games_address_closes_the_export_of_the_first(store: Store) -> None:
    tiles = stored_series(store)
    other = stored_series(store)
    app, page = session(store)
    app.go(f"/game/{tiles.id}")
    ExportDialog(app, tiles).open()
    page.browser(f"/game/{other.id}")  # typed, or a link opened in this tab
    assert isinstance(app.screen, ScoreSheet) and app.screen.game.id == other.id
    assert page.open_dialogs() == [] and app.dialog is None


def test_a_bottom_sheet_closes_too_and_a_short_message_stays(store: Store) -> None:
    game = stored_series(store)
    app, page = session(store)
    app.go(f"/game/{game.id}")
    bottom = ft.BottomSheet(ft.Text("pick"))
    page.show_dialog(bottom)
    app.notify("Round 2 saved")
    snack = page._dialogs.controls[-1]
    assert isinstance(snack, ft.SnackBar)
    page.browser("/")
    assert not bottom.open
    assert page.open_dialogs() == [snack]


def test_a_dialog_opened_before_the_app_navigates_stays(store: Store) -> None:
    # the live table's clash: the dialog opens on the round entry, then the sheet shows under
    # it (app/ui/table/sharing.py, ConflictDialog; app/ui/entry/round_entry.py, _save)
    game = stored_series(store)
    app, page = session(store)
    app.go(f"/game/{game.id}/round")
    asked = ft.AlertDialog(title=ft.Text("Ola saved round 3 a moment ago."))
    app.open_dialog(asked)
    app.go(f"/game/{game.id}")
    assert isinstance(app.screen, ScoreSheet)
    assert page.open_dialogs() == [asked] and app.dialog is asked


def test_reloading_the_same_address_keeps_the_dialog(store: Store) -> None:
    game = stored_series(store)
    app, page = session(store)
    app.go(f"/game/{game.id}")
    ExportDialog(app, game).open()
    page.browser(f"/game/{game.id}?x=1")  # the same screen: its dialog still applies
    assert len(page.open_dialogs()) == 1


def test_back_after_saving_a_round_shows_the_sheet_not_an_empty_form(store: Store) -> None:
    app, page = session(store)
    sheet = start_game(app, "rummy101", ["Ala", "Ola"])
    gid = sheet.game.id
    for _n in range(3):
        sheet = rummy101_round(app, sheet, "Ola", {"Ala": 20})
    assert len(store.load_game(gid).rounds) == 3
    assert page.route == f"/game/{gid}"
    page.browser(f"/game/{gid}/round")  # Back: the address the round was entered on
    shown = app.screen
    assert isinstance(shown, ScoreSheet) and not isinstance(shown, RoundEntry)
    assert len(shown.game.rounds) == 3
    assert app.route == f"/game/{gid}"  # the sheet's: its ← goes home, live updates reach it
    app.refresh()  # Undo, "End the game now" … rebuild the sheet, not the round's form
    assert isinstance(app.screen, ScoreSheet)
    page.browser(f"/game/{gid}")  # Back again: the sheet as it was before the round
    assert isinstance(app.screen, ScoreSheet)
    # Forward to the round's address, then "Enter round 4" there: the form, empty, at the
    # address already in the bar (a push of the same address would show nothing new)
    page.browser(f"/game/{gid}/round")
    assert isinstance(app.screen, ScoreSheet)
    pushed = len(page.pushed)
    entry = open_entry(app, app.screen)
    assert len(page.pushed) == pushed and app.route == f"/game/{gid}/round"
    assert entry.index is None and len(entry.game.rounds) == 3
    assert not entry.dirty
    app.go(f"/game/{gid}")  # its ←: the sheet, pushed as before
    assert page.pushed[pushed:] == [f"/game/{gid}"] and isinstance(app.screen, ScoreSheet)


def test_back_to_a_round_left_unsaved_shows_its_form(store: Store) -> None:
    app, page = session(store)
    sheet = start_game(app, "rummy101", ["Ala", "Ola"])
    gid = sheet.game.id
    sheet = rummy101_round(app, sheet, "Ola", {"Ala": 20})
    open_entry(app, sheet)  # round 2 opened, then Back without saving
    page.browser(f"/game/{gid}")
    assert isinstance(app.screen, ScoreSheet)
    page.browser(f"/game/{gid}/round")  # Forward: round 2's form again
    assert isinstance(app.screen, RoundEntry)


def test_back_after_saving_an_edit_shows_the_round_not_its_form_again(store: Store) -> None:
    app, page = session(store)
    sheet = start_game(app, "rummy101", ["Ala", "Ola"])
    gid = sheet.game.id
    rummy101_round(app, sheet, "Ola", {"Ala": 20})
    app.go(f"/game/{gid}/round/1/edit")
    edit = app.screen
    assert isinstance(edit, RoundEntry) and edit.index == 0
    assert edit.check()
    edit.save()
    assert isinstance(app.screen, ScoreSheet)
    page.browser(f"/game/{gid}/round/1/edit")
    assert isinstance(app.screen, RoundDetail)
