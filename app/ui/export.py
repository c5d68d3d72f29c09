"""Export a game (CSV or JSON: download, copy, or read the text) and import a JSON export.

CSV for the reader's spreadsheet: the separator is ``;`` where the session's language writes
decimals with a comma (Polish, Slovak: their spreadsheets split on ``;``), else ``,``; the user
can switch. The sheet's words are in the session's language, the downloaded file starts with a
UTF-8 byte order mark (so Excel reads ą, ł, ô … right; LibreOffice and Google Sheets skip it),
and every text cell is formula-safe with either separator (:func:`app.games.csv_cell`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final

import flet as ft

from app import games, i18n
from app.i18n import _
from app.ui.widgets import ChoiceChips

if TYPE_CHECKING:
    from app.games import Game
    from app.ui.shell import App


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
    """Paste a JSON export to add the game to this app."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.text = ft.TextField(
            error_max_lines=3,
            label=_("Paste the exported JSON here"),
            multiline=True,
            min_lines=6,
            max_lines=10,
            text_size=12,
        )
        self.dialog = ft.AlertDialog(
            title=ft.Text(_("Import a game")),
            content=ft.Column([self.text], tight=True, width=340),
            actions=[
                ft.TextButton(_("Cancel"), on_click=self._close),
                ft.FilledButton(_("Import"), on_click=self.do_import),
            ],
        )

    def open(self) -> None:
        """Show the dialog."""
        self.app.open_dialog(self.dialog)

    def _close(self, _e: Any = None) -> None:
        self.app.close_dialog()

    def do_import(self, _e: Any = None) -> None:
        """Check the text, store the game and open it; problems show at the field."""
        raw = (self.text.value or "").strip()
        if not raw:
            self.text.error = _("Paste the text of a JSON export first")
            return
        try:
            game = games.import_json(raw)
        except games.GameError as e:
            self.text.error = _("Not imported: {reason}").format(reason=e.message)
            return
        stored = self.app.store.create_game(game)
        self.app.close_dialog()
        self.app.notify(_("Game imported"))
        self.app.go(f"/game/{stored.id}")
