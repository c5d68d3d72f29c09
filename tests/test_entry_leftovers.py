"""Small leftovers of issue 10 (point 4 of the follow-up), without a browser: "complete" versus
"correct" the marked fields, errors that wrap, the neutral winner words in Polish and Slovak,
pasted text that is not an export, a hand-edited option name, and the folded repeats (the
round's problem text, the settings kept).

Built like tests/test_views.py: ``App(store)`` with no page, control values set, handlers
called, controls read.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import flet as ft
import pytest

from app import games
from app.error_text import import_problem, round_problem
from app.i18n import use_language
from app.store import Store
from app.ui.entry import entry_forms, round_entry
from app.ui.entry.entry_forms import ERROR_LINES
from app.ui.home import settings
from app.ui.home.games_list import GamesList
from app.ui.sheet.export import ImportDialog
from app.ui.shell import App
from tests.test_views import open_entry, screen_text, start_game, walk

COMPLETE = "Please complete the marked fields."
CORRECT = "Please correct the marked fields."


def form_message(app: App, variant: str, names: list[str], fill: Any) -> str:
    sheet = start_game(app, variant, names)
    entry = open_entry(app, sheet)
    fill(entry.form)
    assert not entry.check()
    return str(entry.error.content.value)  # type: ignore[union-attr]


# -- "complete" only when all that is marked is empty ---------------------------------------------
def test_rummy101_empty_says_complete_filled_wrong_says_correct(app: App) -> None:
    def empty(f: Any) -> None:
        f.winner.pick("Ala")
        f.opened["Ola"].pick("melds")  # points left empty

    def wrong(f: Any) -> None:
        f.winner.pick("Ala")
        f.opened["Ola"].pick("melds")
        f.rests["Ola"].value.value = "12a"

    def both(f: Any) -> None:  # one empty, one wrong: something must be corrected
        f.winner.pick("Ala")
        f.opened["Ola"].pick("melds")
        f.opened["Ela"].pick("pairs")
        f.rests["Ela"].value.value = "x"

    names = ["Ala", "Ola", "Ela"]
    assert form_message(app, "rummy101", names[:2], empty) == COMPLETE
    assert form_message(app, "rummy101", names[:2], wrong) == CORRECT
    assert form_message(app, "rummy101", names, both) == CORRECT


def test_tiles_and_gin_say_correct_for_a_bad_tile_or_card(app: App) -> None:
    def bad_tile(f: Any) -> None:
        f.outcome.pick("Ala")
        f.rests["Ola"].mode.pick("tiles")
        f.rests["Ola"].tiles.field.value = "R5 R14"

    def out_of_range(f: Any) -> None:
        f.outcome.pick("Ala")
        f.rests["Ola"].value.value = "5000"  # a rack holds at most 2000 here

    def no_points(f: Any) -> None:
        f.outcome.pick("Ala")

    assert form_message(app, "tile_rummy", ["Ala", "Ola"], bad_tile) == CORRECT
    assert form_message(app, "tile_rummy", ["Ala", "Ola"], out_of_range) == CORRECT
    assert form_message(app, "tile_rummy", ["Ala", "Ola"], no_points) == COMPLETE

    def bad_card(f: Any) -> None:
        f.knocker.pick("Ala")
        f.hands["Ala"].pieces.field.value = "AS 2S ZZ"
        f.hands["Bob"].pieces.field.value = "KS KH KD 5C 6C 8C 2H 3D 9S QH"

    def empty_hand(f: Any) -> None:
        f.knocker.pick("Ala")
        f.hands["Bob"].pieces.field.value = "KS KH KD 5C 6C 8C 2H 3D 9S QH"

    assert form_message(app, "gin", ["Ala", "Bob"], bad_card) == CORRECT
    assert form_message(app, "gin", ["Ala", "Bob"], empty_hand) == COMPLETE


@pytest.mark.parametrize(
    ("lang", "complete", "correct"),
    [
        ("pl", "Uzupełnij zaznaczone pola.", "Popraw zaznaczone pola."),
        ("sk", "Doplňte označené polia.", "Opravte označené polia."),
    ],
)
def test_complete_and_correct_in_polish_and_slovak(lang: str, complete: str, correct: str) -> None:
    with use_language(lang):
        assert entry_forms.marked_fields(False) == complete
        assert entry_forms.marked_fields(True) == correct


# -- errors wrap -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("variant", "names"),
    [
        ("rummy101", ["Ala", "Ola"]),
        ("tile_rummy", ["Ala", "Ola"]),
        ("gin", ["Ala", "Bob"]),
        ("carousel", ["Ala", "Bob"]),
    ],
)
def test_every_entry_field_lets_its_complaint_wrap(
    app: App, variant: str, names: list[str]
) -> None:
    sheet = start_game(app, variant, names)
    entry = open_entry(app, sheet)
    fields = [x for c in entry.form.controls for x in walk(c) if isinstance(x, ft.TextField)]
    assert fields
    for field in fields:
        assert (field.error_max_lines or 1) >= ERROR_LINES >= 8, field.label


# -- the winner, in words fit for anyone ---------------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "line", "tag"),
    [("pl", "Zwycięstwo: Ala", "1. MIEJSCE"), ("sk", "Víťazstvo: Ala", "1. MIESTO")],
)
def test_the_winner_words_fit_a_woman_or_a_man(
    store: Store, lang: str, line: str, tag: str
) -> None:
    game = games.new_game("rummy101", ["Ala", "Ola"], agreed_rounds=1)
    game = games.add_round(
        game,
        {
            "finish": "normal",
            "players": [
                {"name": "Ala", "winner": True},
                {"name": "Ola", "opened": "melds", "hand_value": 20, "jokers": 0},
            ],
        },
    )
    game = store.create_game(game)
    with use_language(lang):
        app = App(store, language=lang)
        app.go("/")
        assert isinstance(app.screen, GamesList)
        text = screen_text(app)
        words = set(re.findall(r"\w+", text))
        assert line in text and not {"Zwycięzca", "Víťaz", "Wygrywa", "Vyhráva"} & words
        app.go(f"/game/{game.id}")
        text = screen_text(app)
        words = set(re.findall(r"\w+", text))
        assert tag in text and not {"ZWYCIĘZCA", "VÍŤAZ", "WYGRYWA", "VYHRÁVA"} & words


# -- import: pasted text and a hand-edited option ------------------------------------------------
def pasted(app: App, text: str) -> str:
    dialog = ImportDialog(app)
    dialog.text.value = text
    dialog.do_import()
    assert dialog.text.error
    return str(dialog.text.error)


def test_pasted_text_that_is_no_export_is_called_pasted_text(app: App) -> None:
    assert pasted(app, "{this is not json") == (
        "Not imported. The pasted text is not a valid game export (it is not JSON)."
    )
    assert pasted(app, '{"format": "something else"}') == (
        "Not imported. The pasted text is not a game exported by this app."
    )
    with use_language("pl"):
        text = pasted(App(app.store, language="pl"), "{this is not json")
        assert "Wklejony tekst nie jest poprawnym eksportem gry" in text and "Plik" not in text
    with use_language("sk"):
        text = pasted(App(app.store, language="sk"), "{this is not json")
        assert "Vložený text nie je platný export hry" in text and "Súbor" not in text


def test_a_chosen_file_is_still_called_a_file(app: App) -> None:
    dialog = ImportDialog(app)
    dialog.app.page_update = lambda: None  # type: ignore[method-assign]
    dialog._after_read(dialog._read(b"{this is not json"), pasted=False)
    assert dialog.status.value == "Not imported. The file is damaged (not JSON)."


def export_with_option(name: str) -> str:
    data = json.loads(games.export_json(games.new_game("tile_rummy", ["Ala", "Ola"])))
    data["game"]["options"][name] = 20
    return json.dumps(data)


def test_a_hand_edited_option_name_is_not_shown(app: App) -> None:
    text = pasted(app, export_with_option("jokr_penalty"))
    assert text == "Not imported. The pasted game has a rule option this app does not know."
    assert "jokr" not in text and "joker_penalty" not in text
    from app import backup

    with pytest.raises(games.GameError) as caught:
        backup.read_one(export_with_option("jokr_penalty"))
    assert import_problem(caught.value) == (
        "The game in the file has a rule option this app does not know."
    )
    with use_language("pl"):
        assert import_problem(caught.value) == (
            "Gra w pliku ma opcję zasad, której ta aplikacja nie zna."
        )
    with use_language("sk"):
        assert import_problem(caught.value, pasted=True) == (
            "Vložená hra má možnosť pravidiel, ktorú táto aplikácia nepozná."
        )


# -- the folded repeats --------------------------------------------------------------------------
def test_the_round_entry_words_a_refused_round_by_the_one_function(app: App) -> None:
    assert not hasattr(round_entry, "problem_text")
    sheet = start_game(app, "gin", ["Ala", "Bob"])
    entry = open_entry(app, sheet)
    f: Any = entry.form
    f.knocker.pick("Ala")
    f.mode.pick("deadwood")
    f.deadwood["Ala"].value = "15"  # above the knock limit (10 in the seed preset)
    f.deadwood["Bob"].value = "20"
    assert not entry.check()
    result = games.score_round(sheet.game, f.entry())
    assert not result.valid
    assert entry.error.content.value == round_problem(result, "gin")  # type: ignore[union-attr]
    # an app check without a referee reason: a sentence of the player's language, no code
    bare = games.RoundResult(False, {}, reason="missing_player", input_error=True)
    with use_language("pl"):
        assert round_problem(bare, "gin") == "W rundzie brakuje zapisu któregoś z graczy."


class RefusingStore:
    """A store whose settings cannot be written (the disk refused)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def set_setting(self, key: str, value: Any) -> None:
        raise OSError("read-only")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def test_settings_keep_the_choice_when_the_store_refuses(store: Store, tmp_path: Path) -> None:
    app = App(store)
    app.go(settings.ROUTE)
    screen = app.screen
    assert isinstance(screen, settings.SettingsScreen)
    screen.choose_theme("dark")
    screen.choose("pl")
    assert store.get_setting("theme") == "dark" and store.get_setting("language") == "pl"
    refusing = App(RefusingStore(store))  # type: ignore[arg-type]
    refusing.go(settings.ROUTE)
    screen = refusing.screen
    assert isinstance(screen, settings.SettingsScreen)
    screen.choose_theme("light")  # no exception: the session keeps it
    screen.choose("sk")
    assert refusing.language == "sk" and settings.theme_choice(refusing) == "light"
    assert store.get_setting("theme") == "dark" and store.get_setting("language") == "pl"


# -- "Close" closes the dialog, not the message shown over it -------------------------------------
class FakePage:
    """What App.close_dialog uses of a page: the dialogs shown, updates."""

    def __init__(self) -> None:
        self.shown: list[Any] = []
        self.tasks: list[tuple[Any, tuple[Any, ...]]] = []
        self.updates = 0

    def show_dialog(self, dialog: Any) -> None:
        dialog.open = True
        self.shown.append(dialog)

    def update(self, *_controls: Any) -> None:
        self.updates += 1

    def run_task(self, handler: Any, *args: Any) -> None:
        self.tasks.append((handler, args))


class Shown:
    """A dialog on the fake page (records its updates)."""

    def __init__(self) -> None:
        self.open = True
        self.updates = 0

    def update(self) -> None:
        self.updates += 1


def test_close_takes_the_dialog_away_not_the_message_shown_over_it(store: Store) -> None:
    class Dialogs:
        controls: list[Any]

    app = App(store)
    page = FakePage()
    page._dialogs = Dialogs()  # type: ignore[attr-defined]
    dialog = Shown()
    snack = ft.SnackBar(ft.Text("Copied"))
    snack.open = True
    page._dialogs.controls = [dialog, snack]  # type: ignore[attr-defined]
    app.page = page  # type: ignore[assignment]
    app.close_dialog()  # "Close" tapped while "Copied" still shows
    assert dialog.open is False and dialog.updates == 1
    assert snack.open is True  # the message goes by itself
    app.close_dialog()  # nothing else open: nothing happens
    assert dialog.updates == 1 and snack.open is True
