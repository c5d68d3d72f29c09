"""Store, backup, game and import errors in the player's language (issue 15, point 6):
:func:`app.error_text.describe` and the screens that show it."""

from __future__ import annotations

import ast
import errno
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import flet as ft
import pytest

from app import backup
from app import games as g
from app import store as store_mod
from app.error_text import describe
from app.i18n import use_language
from app.store import ConflictError, GameNotFoundError, Store, StoreError, StoreLockedError
from app.ui.entry.round_entry import RoundEntry
from app.ui.sheet.export import ImportDialog
from app.ui.shell import App

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("pl", "sk")
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
ENGLISH = {
    "the", "is", "not", "cannot", "could", "file", "game", "games", "round", "rounds",
    "player", "players", "was", "nothing", "changed", "must", "of", "and", "this", "app",
    "be", "has", "no", "at", "most", "full", "saved", "read", "written",
}  # fmt: skip
"""English words that never belong in a Polish or Slovak sentence of these errors."""

ERROR_CLASSES = {
    "StoreError": StoreError,
    "StoreLockedError": StoreLockedError,
    "GameNotFoundError": GameNotFoundError,
    "BackupError": backup.BackupError,
    "GameError": g.GameError,
    "GameImportError": g.GameImportError,
}


def english_words(text: str, allowed: str = "") -> set[str]:
    words = set(re.findall(r"[^\W\d_]+", text.lower())) & ENGLISH
    return words - set(re.findall(r"[^\W\d_]+", allowed.lower()))


def assert_translated(exc: BaseException, *details: Any, allowed: str = "") -> None:
    """``exc`` reads differently in Polish and Slovak, with no English word or code left and
    every detail (a name, a number, a round) named."""
    with use_language("en"):
        en = describe(exc)
    assert en and not SNAKE.search(en), en
    for lang in LANGS:
        with use_language(lang):
            text = describe(exc)
        assert text and text != en, (lang, text)
        assert not SNAKE.search(text), (lang, text)
        assert not english_words(text, allowed), (lang, text, english_words(text, allowed))
        for d in details:
            assert str(d) in text, (lang, text, d)


# -- every code raised in app/ ---------------------------------------------------------------------
def raised_codes() -> set[tuple[str, str | None, str | None]]:
    """(class, code, import problem) of every raise of the app's errors in ``app/``."""
    found: set[tuple[str, str | None, str | None]] = set()
    for path in (ROOT / "app").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            fn = node.func
            name = fn.id if isinstance(fn, ast.Name) else getattr(fn, "attr", None)
            if name not in ERROR_CLASSES:
                continue
            code = problem = None
            if len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
                code = node.args[1].value
            for k in node.keywords:
                if k.arg == "code" and isinstance(k.value, ast.Constant):
                    code = k.value.value
            if len(node.args) > 2 and isinstance(node.args[2], ast.Dict):
                for key, value in zip(node.args[2].keys, node.args[2].values, strict=True):
                    if (
                        isinstance(key, ast.Constant)
                        and key.value == "problem"
                        and isinstance(value, ast.Constant)
                    ):
                        problem = value.value
            found.add(
                (
                    str(name),
                    None if code is None else str(code),
                    None if problem is None else str(problem),
                )
            )
    return found


def test_the_scan_finds_the_raise_sites() -> None:
    codes = raised_codes()
    assert ("StoreError", "disk_full", None) in codes
    assert ("BackupError", "not_json", None) in codes
    assert ("GameError", "game_finished", None) in codes
    assert ("GameImportError", None, "not_json") in codes
    assert len(codes) > 40


@pytest.mark.parametrize(("cls", "code", "problem"), sorted(raised_codes(), key=str))
def test_every_raised_code_reads_in_polish_and_slovak(
    cls: str, code: str | None, problem: str | None
) -> None:
    kind = ERROR_CLASSES[cls]
    exc: BaseException
    if kind is backup.BackupError:
        exc = kind("english", code or "not_backup")
    elif problem is not None:
        exc = kind("english", code, {"problem": problem})
    else:
        exc = kind("english", code)
    assert_translated(exc)
    if issubclass(kind, StoreError):  # with the folder concerned
        folder = "/tmp/rummy-data"
        exc = kind("english", code, Path(folder) / "games.json")
        assert_translated(exc)


def test_the_class_codes_and_an_unknown_code_read_in_every_language(store: Store) -> None:
    game = store.create_game(g.new_game("tile_rummy", ["Ala", "Bob"]))
    for exc in (
        StoreLockedError("english"),
        GameNotFoundError("english"),
        ConflictError(game, 0),
        StoreError("english", "some_new_code"),
        g.GameError("english", "some_new_code"),
        g.GameImportError("english"),
        backup.BackupError("english", "some_new_code"),
        ValueError("english"),
    ):
        assert_translated(exc)


# -- the details of real errors --------------------------------------------------------------------
def raises(f: Callable[[], Any]) -> BaseException:
    try:
        f()
    except Exception as e:  # noqa: BLE001 - the error is the value under test
        return e
    raise AssertionError("no error")


def test_game_errors_name_what_was_wrong() -> None:
    long = "A" * 60
    cases: list[tuple[Callable[[], Any], tuple[Any, ...]]] = [
        (lambda: g.new_game("tile_rummy", ["Ala"]), ("Tile Rummy", "2", "4", "1")),
        (lambda: g.new_game("gin", ["Ala", "Bob", "Ola"]), ("Gin Rummy", "2", "3")),
        (lambda: g.new_game("tile_rummy", ["Ala", "ala"]), ("ala",)),
        (lambda: g.new_game("tile_rummy", ["Ala", long]), (g.MAX_NAME,)),
        (lambda: g.new_game("tile_rummy", ["Ala", "B\x07b"]), ("U+0007",)),
        (lambda: g.new_game("tile_rummy", ["Ala", "Bob"], notes="x" * 5000), (g.MAX_NOTES,)),
        (lambda: g.new_game("tile_rummy", ["Ala", "Bob"], first_dealer=5), ("2",)),
        (lambda: g.new_game("gin", ["Ala", "Bob"], agreed_rounds=3), ("Gin Rummy",)),
        (lambda: g.new_game("rummy101", ["Ala", "Bob"], agreed_rounds=0), ("1000",)),
        (lambda: g.new_game("rummy101", ["Ala", "Bob"], agreed_target=10**9), ("100000",)),
        (lambda: g.new_game("tile_rummy", ["Ala", "Bob"], {"initial_meld": -3}), ()),
        # a made-up option name (a hand-edited file) is not repeated: it means nothing to players
        (lambda: g.new_game("tile_rummy", ["Ala", "Bob"], {"nosuch": 1}), ()),
        (lambda: g.undo(g.new_game("tile_rummy", ["Ala", "Bob"])), ()),
        (lambda: g.end_game(g.new_game("tile_rummy", ["Ala", "Bob"])), ()),
        (lambda: g.end_game(g.new_game("gin", ["Ala", "Bob"])), ("Gin Rummy",)),
    ]
    for f, details in cases:
        e = raises(f)
        assert isinstance(e, g.GameError), (e, details)
        assert_translated(e, *details, allowed="Tile Rummy Gin Rummy " + long)


def test_a_refused_round_reads_in_polish() -> None:
    game = g.new_game("tile_rummy", ["Ala", "Bob"])
    bad = {"players": [{"name": "Ala", "winner": True}, {"name": "Bob", "hand": ["C12"]}]}
    e = raises(lambda: g.add_round(game, bad))
    assert isinstance(e, g.RoundError)
    assert_translated(e, "C12")


def test_import_errors_say_where() -> None:
    game = g.new_game("tile_rummy", ["Ala", "Bob"])
    good = g.export_json(game)
    bad_round = good.replace('"rounds":[]', '"rounds":[{"entry":{"players":[]}}]').replace(
        '"rounds": []', '"rounds": [{"entry": {"players": []}}]'
    )
    assert bad_round != good
    no_entry = bad_round.replace('{"entry": {"players": []}}', "7").replace(
        '{"entry":{"players":[]}}', "7"
    )
    cases: list[tuple[Any, tuple[Any, ...]]] = [
        (b"\xff\xfe", ()),
        ("{", ()),
        ('{"format": "something"}', ()),
        (good.replace('"format_version": 1', '"format_version": 99'), ()),
        (
            good.replace('"players": [', '"players": ["Ala", ').replace(
                '"players":[', '"players":["Ala",'
            ),
            ("Ala",),
        ),
        (bad_round, ("1",)),
        (no_entry, ("1",)),
    ]
    for text, details in cases:
        e = raises(lambda text=text: g.import_json(text))  # type: ignore[misc]
        assert isinstance(e, g.GameImportError), (text, e)
        assert_translated(e, *details)


def test_backup_and_store_errors() -> None:
    for text in (b"\xff\xfe", "[", '{"format": "x"}', '{"format": "rummy-referee-backup"}'):
        e = raises(lambda text=text: backup.read_backup(text))  # type: ignore[misc]
        assert isinstance(e, backup.BackupError)
        assert_translated(e)


def test_a_full_disk_names_the_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "replace", failing_replace(errno.ENOSPC))
    e = raises(lambda: store_mod.atomic_write(tmp_path / "x.json", b"{}"))
    assert isinstance(e, StoreError) and e.code == "disk_full"
    assert_translated(e, str(tmp_path), allowed=str(tmp_path))


# -- the screens -----------------------------------------------------------------------------------
@pytest.fixture
def polish() -> Iterator[None]:
    with use_language("pl"):
        yield


def failing_replace(code: int) -> Callable[..., None]:
    def replace(*_a: Any, **_k: Any) -> None:
        raise OSError(code, os.strerror(code))

    return replace


def test_importing_a_broken_file_says_why_in_polish(app: App, polish: None) -> None:
    imp = ImportDialog(app)
    imp.open()
    imp.import_data(b"\xff\xfe not text")
    assert imp.status.value == "Nie zaimportowano. Plik nie jest tekstem."
    imp.import_data(b'{"format": "something else"}')
    assert imp.status.value == (
        "Nie zaimportowano. Plik nie jest grą wyeksportowaną z tej aplikacji."
    )
    game = g.new_game("tile_rummy", ["Ala", "Bob"])
    text = g.export_json(game).replace('"Bob"', '"Ala"')
    imp.import_data(text)
    assert imp.status.value == "Nie zaimportowano. Gra w pliku: Imię „Ala” podano dwa razy."


def test_a_failed_save_says_why_in_polish(
    app: App, store: Store, polish: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = store.create_game(g.new_game("tile_rummy", ["Ala", "Bob"]))
    app.go(f"/game/{game.id}/round")
    screen = app.screen
    assert isinstance(screen, RoundEntry)
    f: Any = screen.form
    f.outcome.pick("Bob")
    f.rests["Ala"].mode.pick("tiles")
    f.rests["Ala"].tiles.field.value = "R1 R2"
    assert screen.check()
    monkeypatch.setattr(os, "replace", failing_replace(errno.ENOSPC))
    screen.save()
    assert app.screen is screen
    box = screen.error.content
    assert isinstance(box, ft.Text) and screen.error.visible
    folder = str(store.games_dir)
    assert box.value == (
        f"Nie zapisano. Dysk jest pełny ({folder}): nic nie zmieniono. Zwolnij trochę miejsca "
        "i spróbuj ponownie."
    ), box.value
    assert app.messages[-1] == box.value
