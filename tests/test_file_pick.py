"""Choosing a JSON file on this device: "Restore a backup" (app/ui/home/history.py) and the
import dialog's "Choose the file" (app/ui/sheet/export.py) both ask through
:func:`app.ui.common.widgets.pick_json_file`. The device's file picker is replaced by a fake
that answers as Flet's does: a list of picked files (their bytes read, ``with_data``), None when
the player cancels, or an error where the device has no picker.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import flet as ft
import pytest

from app import backup, games
from app.store import Store
from app.ui.common.widgets import pick_json_file
from app.ui.home.history import BackupButtons
from app.ui.sheet.export import ImportDialog
from app.ui.sheet.score_sheet import ScoreSheet
from app.ui.shell import App
from tests.test_live import r101
from tests.test_stats import build
from tests.test_views import totals


@dataclass
class FakeFile:
    bytes: bytes | None


def fake_picker(monkeypatch: pytest.MonkeyPatch, answer: Any) -> list[dict[str, Any]]:
    """Replace the device's file picker: it answers ``answer`` (raised, if an exception);
    the list returned collects what each call asked for."""
    asked: list[dict[str, Any]] = []

    class Picker:
        async def pick_files(self, **kw: Any) -> Any:
            asked.append(kw)
            if isinstance(answer, Exception):
                raise answer
            return answer

    monkeypatch.setattr(ft, "FilePicker", Picker)
    return asked


def pick(title: str) -> tuple[bytes | None, int]:
    """What :func:`pick_json_file` gives, and how many times it said there is no picker."""
    said: list[None] = []
    got = asyncio.run(pick_json_file(title, lambda: said.append(None)))
    return got, len(said)


def test_a_picked_file_gives_its_bytes_and_only_json_files_are_offered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked = fake_picker(monkeypatch, [FakeFile(b'{"a": 1}')])
    assert pick("Choose a backup file") == (b'{"a": 1}', 0)
    assert asked == [
        {
            "dialog_title": "Choose a backup file",
            "allowed_extensions": ["json"],
            "allow_multiple": False,
            "with_data": True,
        }
    ]


@pytest.mark.parametrize("answer", [None, [], [FakeFile(None)]])
def test_nothing_picked_gives_nothing_and_says_nothing(
    monkeypatch: pytest.MonkeyPatch, answer: Any
) -> None:
    fake_picker(monkeypatch, answer)
    assert pick("Choose an exported game") == (None, 0)


def test_a_device_without_a_picker_is_told_once(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_picker(monkeypatch, RuntimeError("no picker here"))
    assert pick("Choose a backup file") == (None, 1)


def run(handler: Callable[[], Any]) -> None:
    asyncio.run(handler())


def test_restore_merges_the_picked_backup(
    monkeypatch: pytest.MonkeyPatch, app: App, store: Store, open_store: Callable[[str], Store]
) -> None:
    other = open_store("other.json")
    build(other)
    fake_picker(monkeypatch, [FakeFile(backup.export_all(other).encode())])
    buttons = BackupButtons(app)
    run(buttons.pick)
    n = len(other.list_games())
    assert n > 0 and len(store.list_games()) == n
    assert buttons.report is not None and len(buttons.report.added) == n
    assert app.messages[-1] == f"{n} added, 0 updated, 0 already here, 0 kept twice"


def test_import_opens_the_picked_game(
    monkeypatch: pytest.MonkeyPatch, app: App, store: Store
) -> None:
    # Rummy 101 (RULES.md §3): Ala finishes (+101), Ola opened with melds and holds 12 (−12)
    game = games.add_round(games.new_game("rummy101", ["Ala", "Ola"]), r101("Ala", "Ola", 12))
    exported = games.export_json(game)
    assert json.loads(exported)["format"] == games.EXPORT_FORMAT
    fake_picker(monkeypatch, [FakeFile(exported.encode())])
    dialog = ImportDialog(app)
    run(dialog.pick)
    sheet = app.screen
    assert isinstance(sheet, ScoreSheet)
    assert totals(sheet) == {"Ala": "101", "Ola": "\u221212"}
    assert len(store.list_games()) == 1


def test_without_a_picker_each_screen_says_what_to_do_and_nothing_is_stored(
    monkeypatch: pytest.MonkeyPatch, app: App, store: Store
) -> None:
    fake_picker(monkeypatch, RuntimeError("no picker here"))
    buttons = BackupButtons(app)
    run(buttons.pick)
    assert app.messages[-1] == "This device cannot open a file here."  # restore: a notice
    assert buttons.report is None
    dialog = ImportDialog(app)
    run(dialog.pick)
    assert dialog.status.visible  # import: the dialog's line, as the text may be pasted
    assert dialog.status.value == "This device cannot open a file here; paste the text instead."
    assert store.list_games() == []
