"""A double tap on "Start the game" creates one game, not two (tester's report): the handler
fired twice in a row, and twice at the same moment (Flet runs each tap in its own thread)."""

from __future__ import annotations

import threading
import time
from typing import Any

from app.store import Store
from app.ui.home.new_game import NewGame
from app.ui.sheet.score_sheet import ScoreSheet
from app.ui.shell import App
from tests.test_views import new_game_form


def filled_form(app: App) -> NewGame:
    return new_game_form(app, "rummy101", ["Ala", "Ola"])


def tap(ng: NewGame) -> None:
    handler: Any = ng.start_button.on_click
    handler(None)


def test_two_taps_in_a_row_create_one_game(app: App, store: Store) -> None:
    ng = filled_form(app)
    tap(ng)
    first = app.screen
    assert isinstance(first, ScoreSheet)
    tap(ng)  # the second tap reaches the old form after the sheet is shown
    assert [g.id for g in store.list_games()] == [ng.started]
    assert app.screen is first  # and does not open anything again


def test_two_taps_at_the_same_moment_create_one_game(app: App, store: Store) -> None:
    ng = filled_form(app)
    create = store.create_game
    inside = threading.Event()

    def slow_create(game: Any) -> Any:
        inside.set()
        time.sleep(0.3)  # the second tap arrives while the first is saving
        return create(game)

    store.create_game = slow_create  # type: ignore[method-assign]
    threads = [threading.Thread(target=tap, args=(ng,)) for _ in range(2)]
    threads[0].start()
    inside.wait(10)
    threads[1].start()
    for t in threads:
        t.join(30)
    assert len(store.list_games()) == 1


def test_a_refused_form_can_be_fixed_and_started(app: App, store: Store) -> None:
    ng = filled_form(app)
    ng.names[1].value = "ala"  # the same name twice: refused, nothing stored
    tap(ng)
    assert ng.started is None and store.list_games() == []
    ng.names[1].value = "Ola"
    tap(ng)
    tap(ng)
    assert len(store.list_games()) == 1 and ng.started is not None


def test_every_bad_field_is_flagged_in_one_press(app: App, store: Store) -> None:
    """Tester (58-pl-options-bad): a bad option and "xyz" in the agreed rounds; only the
    option was marked. One press marks both agreed-end fields and the option, starts nothing."""
    ng = filled_form(app)
    assert ng.options is not None
    numbers = [f for f in ng.options.fields.values() if f.kind == "int" and f.text is not None]
    assert numbers, "rummy101 has a number option"
    bad = numbers[0]
    assert bad.text is not None
    bad.text.value = "abc"
    ng.end_rounds.value = "xyz"
    ng.end_target.value = "0"
    tap(ng)
    assert ng.started is None and store.list_games() == []
    assert isinstance(app.screen, NewGame)
    assert bad.shown_error()
    assert ng.end_rounds.error  # "Enter a whole number, or leave it empty"
    assert ng.end_target.error  # "Enter a number above 0, …"
    bad.set(bad.default)
    ng.end_rounds.value, ng.end_target.value = "5", ""
    tap(ng)
    assert ng.started is not None
    assert store.load_game(ng.started).agreed_rounds == 5
