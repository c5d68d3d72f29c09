"""Export a game (CSV or JSON: download, copy, or read the text) and import a JSON export
(from a file chosen on the device, or pasted; a game already here is not added twice unasked).

CSV for the reader's spreadsheet: the separator is ``;`` where the session's language writes
decimals with a comma (Polish, Slovak: their spreadsheets split on ``;``), else ``,``; the user
can switch. The sheet's words are in the session's language, the downloaded file starts with a
UTF-8 byte order mark (so Excel reads ą, ł, ô … right; LibreOffice and Google Sheets skip it),
and every text cell is formula-safe with either separator (:func:`app.games.csv_cell`).
"""

from __future__ import annotations

import asyncio
import re
from typing import TYPE_CHECKING, Any, Final

import flet as ft

from app import backup, games, i18n
from app.error_text import describe, import_problem
from app.i18n import _, ngettext
from app.store import StoreError
from app.ui.common.titles import game_title, when
from app.ui.common.widgets import ERROR_COLOUR, ChoiceChips, pick_json_file

if TYPE_CHECKING:
    from app.games import Game, GameSummary
    from app.ui.common.session import App


BOM: Final = "\ufeff"
"""Starts a downloaded CSV file: Excel takes a file without it for the system's old code page."""


def default_separator(lang: str | None = None) -> str:
    """``;`` where ``lang`` (default: the language in force) writes decimals with a comma —
    spreadsheets there use ``;`` between cells — else ``,``."""
    from babel.numbers import get_decimal_symbol

    try:
        decimal = get_decimal_symbol(lang or i18n.language())
    except (ValueError, LookupError):
        decimal = "."
    return ";" if decimal == "," else ","


def csv_labels() -> dict[str, str]:
    """The words of the CSV sheet in the language in force (:data:`app.games.CSV_LABELS`)."""
    return {
        "round": _("round"),
        "dealer": _("dealer"),
        "total": _("{name} total"),
        "bonuses": _("bonuses"),
        "final": _("final"),
    }


def file_stem(game: Game) -> str:
    """``gin-ala-ola-2025-01-31``: a safe file name for an export."""
    words = [game.variant, *game.players, game.created[:10]]
    stem = "-".join(re.sub(r"[^\w]+", "_", w.strip().lower()) for w in words if w)
    return stem[:80] or "game"


class ExportDialog:
    """A dialog showing the game as CSV or JSON, with Copy and Download; for CSV a choice of
    separator (default: :func:`default_separator` of the session's language)."""

    def __init__(self, app: App, game: Game) -> None:
        self.app = app
        self.game = game
        with i18n.use_language(app.language):
            self.labels = csv_labels()
        sep = default_separator(app.language)
        self.texts = {"csv": self._csv(sep), "json": games.export_json(game)}
        self.format = ChoiceChips(
            [("csv", _("CSV (spreadsheet)")), ("json", _("JSON (to import again)"))],
            "csv",
            on_change=self._switch,
        )
        self.separator = ChoiceChips(
            [(",", _("Commas ( , )")), (";", _("Semicolons ( ; )"))],
            sep,
            on_change=self._separate,
        )
        self.separator_row = ft.Column(
            [
                ft.Text(_("Cells separated by")),
                self.separator.control,
                ft.Text(_("Spreadsheets set to Polish or Slovak expect semicolons."), size=12),
            ],
            tight=True,
            spacing=4,
        )
        self.text = ft.TextField(
            error_max_lines=3,
            label=_("Exported text"),
            value=self.texts["csv"],
            multiline=True,
            min_lines=6,
            max_lines=10,
            read_only=True,
            text_size=12,
        )
        self.dialog = ft.AlertDialog(
            title=ft.Text(_("Export the game")),
            content=ft.Column(
                [self.format.control, self.separator_row, self.text],
                tight=True,
                width=340,
                scroll=ft.ScrollMode.AUTO,
            ),
            actions=[
                ft.TextButton(_("Copy"), icon=ft.Icons.COPY, on_click=self._copy),
                ft.TextButton(_("Download"), icon=ft.Icons.DOWNLOAD, on_click=self._download),
                ft.TextButton(_("Close"), on_click=self._close),
            ],
            scrollable=True,
        )

    def open(self) -> None:
        """Show the dialog."""
        self.app.open_dialog(self.dialog)

    def _csv(self, separator: str) -> str:
        return games.export_csv(self.game, separator, self.labels)

    def _switch(self, key: str | None) -> None:
        self.text.value = self.texts[key or "csv"]
        self.separator_row.visible = (key or "csv") == "csv"

    def _separate(self, key: str | None) -> None:
        self.texts["csv"] = self._csv(key or ",")
        if self.kind == "csv":
            self.text.value = self.texts["csv"]

    @property
    def kind(self) -> str:
        """``csv`` or ``json``."""
        return self.format.value or "csv"

    def _copy(self, _e: Any = None) -> None:
        self.app.copy(self.texts[self.kind])

    def _download(self, _e: Any = None) -> None:
        body = self.texts[self.kind]
        self.app.download(
            f"{file_stem(self.game)}.{self.kind}", BOM + body if self.kind == "csv" else body
        )

    def _close(self, _e: Any = None) -> None:
        self.app.close_dialog()


class ImportDialog:
    """Add a game exported as JSON: choose the file (the device's file picker) or paste its
    text. A game this device has already (:func:`app.backup.already_here`) is not added
    twice unasked: a second dialog says so and offers to skip it (and open the one here) or
    to keep both.

    Attributes (for tests): ``text`` (the paste field), ``status`` (what happened to a chosen
    file), ``found`` (the game here that the file's game is a copy of, while asking),
    ``pending`` (the game read, while asking).
    """

    def __init__(self, app: App) -> None:
        self.app = app
        self.found: GameSummary | None = None
        self.pending: tuple[Game, str | None] | None = None
        # the sentence above the box, a short label on it: a label that wraps when it floats
        # runs over the box's border and the text pasted (Polish, 360 px)
        self.text = ft.TextField(
            error_max_lines=6,
            label=_("Exported text"),
            multiline=True,
            min_lines=4,
            max_lines=8,
            text_size=12,
        )
        self.status = ft.Text("", size=14, color=ERROR_COLOUR, visible=False)
        self.file_button = ft.OutlinedButton(
            content=_("Choose the file"),
            icon=ft.Icons.UPLOAD_FILE,
            on_click=self.pick,
            height=44,
        )
        self.dialog = ft.AlertDialog(
            title=ft.Text(_("Import a game")),
            content=ft.Column(
                [
                    ft.Text(
                        _("A game exported from this app: Export this game, then JSON."), size=14
                    ),
                    self.file_button,
                    self.status,
                    ft.Text(_("Or paste the exported JSON here"), size=14),
                    self.text,
                ],
                tight=True,
                width=340,
                spacing=10,
                scroll=ft.ScrollMode.AUTO,
            ),
            actions=[
                ft.TextButton(_("Cancel"), on_click=self._close),
                ft.FilledButton(_("Import"), on_click=self.do_import),
            ],
            scrollable=True,
        )

    def open(self) -> None:
        """Show the dialog."""
        self.app.open_dialog(self.dialog)

    def _close(self, _e: Any = None) -> None:
        self.app.close_dialog()

    async def pick(self, _e: Any = None) -> None:
        """Choose the exported file on this device, then import it."""
        data = await pick_json_file(
            _("Choose an exported game"),
            lambda: self._say(_("This device cannot open a file here; paste the text instead.")),
        )
        if data is not None:
            self._say(_("Reading the file…"), error=False)
            # every round is scored again: a long game must not stall the other phones
            read = await asyncio.to_thread(self._read, data)
            self._after_read(read, pasted=False)

    def _say(self, text: str | None, error: bool = True) -> None:
        """Show (None: hide) what happens to a chosen file; the status lies outside the
        button Flet updates after its handler, so the page is sent."""
        self.status.value = text or ""
        self.status.visible = bool(text)
        self.status.color = ERROR_COLOUR if error else None
        self.app.page_update()

    def do_import(self, _e: Any = None) -> None:
        """Import the pasted text; problems show at the field."""
        raw = (self.text.value or "").strip()
        self.text.error = None
        if not raw:
            self.text.error = _("Choose the file, or paste the text of a JSON export")
            self.app.page_update()
            return
        self.import_data(raw, pasted=True)

    def import_data(self, data: str | bytes, pasted: bool = False) -> None:
        """Check ``data`` (a JSON export), then store the game and open it — or, when this
        device has it already, ask whether to skip it or keep both."""
        self._after_read(self._read(data), pasted)

    @staticmethod
    def _read(data: str | bytes) -> tuple[Game, str | None] | games.GameError:
        """The game of ``data`` and the id in the file, or why it cannot be imported (worded
        by the caller, in the session's language)."""
        try:
            return backup.read_one(data)
        except games.GameError as e:
            return e

    def _after_read(self, read: tuple[Game, str | None] | games.GameError, pasted: bool) -> None:
        if isinstance(read, games.GameError):
            reason = import_problem(read, pasted=pasted)
            message = _("Not imported. {reason}").format(reason=reason)
            if pasted:
                self.text.error = message
                self.app.page_update()
            else:
                self._say(message)
            return
        game, file_id = read
        self._say(None)
        found = backup.already_here(self.app.store, game, file_id)
        if found is None:
            self._store(game, file_id)
            return
        self.found, self.pending = found, (game, file_id)
        self.app.close_dialog()
        self.app.open_dialog(self._duplicate_dialog(found, game))

    def _duplicate_dialog(self, found: GameSummary, game: Game) -> ft.AlertDialog:
        here = ngettext("{n} round here", "{n} rounds here", found.round_count).format(
            n=found.round_count
        )
        there = ngettext("{n} in the file", "{n} in the file", len(game.rounds)).format(
            n=len(game.rounds)
        )
        text = _("{game}, started {when}: {here}, {there}.").format(
            game=game_title(found), when=when(found.created), here=here, there=there
        )
        return ft.AlertDialog(
            modal=True,
            title=ft.Text(_("This game is here already")),
            content=ft.Column(
                [
                    ft.Text(text),
                    ft.Text(
                        _("Skip it and open the game here, or keep both (the file's as a copy)."),
                        size=14,
                    ),
                ],
                tight=True,
                width=340,
            ),
            actions=[
                ft.TextButton(_("Keep both"), on_click=self.keep_both),
                ft.FilledButton(_("Skip"), on_click=self.skip),
            ],
        )

    def skip(self, _e: Any = None) -> None:
        """Import nothing; open the game that is here."""
        found = self.found
        self.found = self.pending = None
        self.app.close_dialog()
        if found is not None:
            self.app.notify(_("Not imported: the game is here already"))
            self.app.go(f"/game/{found.id}")

    def keep_both(self, _e: Any = None) -> None:
        """Import the file's game as a second copy (a new id)."""
        pending = self.pending
        self.found = self.pending = None
        if pending is None:
            self.app.close_dialog()
            return
        self._store(pending[0], None)

    def _store(self, game: Game, file_id: str | None) -> None:
        try:
            stored = backup.store_one(self.app.store, game, file_id)
        except StoreError as e:
            self.app.close_dialog()
            self.app.notify(_("Not imported. {reason}").format(reason=describe(e)), error=True)
            return
        self.app.close_dialog()
        self.app.notify(_("Game imported"))
        self.app.go(f"/game/{stored.id}")
