"""Rule links a player can use (issue 15 point 5, issue 10 point 5), logic only (no browser):
a verdict's rule button names the in-app rule book section in the player's language and opens
it; the rule book's ← (and the browser's Back, which shows the checker's route again) return
to the checker with the tapped pieces, the rules and the verdict still there."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import flet as ft
import pytest

from app.i18n import use_language
from app.ui.checkers import MeldChecker
from app.ui.rulebook_view import RulebookView
from app.ui.shell import App
from tests.test_checkers import tap, text, walk


@pytest.fixture
def polish() -> Iterator[None]:
    with use_language("pl"):
        yield


def rule_buttons(c: Any) -> list[ft.OutlinedButton]:
    return [b for b in walk(c) if isinstance(b, ft.OutlinedButton) and b.icon == ft.Icons.MENU_BOOK]


def back_arrow(screen: Any) -> ft.IconButton:
    arrows = [
        b
        for b in walk(screen.view.appbar)
        if isinstance(b, ft.IconButton) and b.icon == ft.Icons.ARROW_BACK
    ]
    assert len(arrows) == 1
    return arrows[0]


def open_meld_checker(app: App) -> MeldChecker:
    app.language = "pl"
    app.show("/check/meld?variant=rummy101")
    screen = app.screen
    assert isinstance(screen, MeldChecker)
    tap(screen.keyboard, "R12", "R13", "R1")
    return screen


def test_the_rule_button_names_the_book_section_in_polish_and_opens_it(
    app: App, polish: None
) -> None:
    screen = open_meld_checker(app)
    shown = text(screen.verdict)
    assert "12-13-1 to nie jest seria" in shown, shown
    assert "RULES.md" not in shown and "§" not in shown
    buttons = rule_buttons(screen.verdict)
    assert len(buttons) == 1
    label = buttons[0].content.value  # type: ignore[union-attr]
    assert label.startswith("Zasady: Rummy 101 › "), label
    buttons[0].on_click(None)  # type: ignore[misc]
    assert isinstance(app.screen, RulebookView)
    assert app.route.startswith("/rules/rummy101/")
    assert app.screen.target_section is not None


@pytest.mark.parametrize("way", ["arrow", "browser back"])
def test_back_from_the_rule_book_finds_the_tapped_pieces(app: App, polish: None, way: str) -> None:
    screen = open_meld_checker(app)
    before = text(screen.verdict)
    rule_buttons(screen.verdict)[0].on_click(None)  # type: ignore[misc]
    book = app.screen
    assert isinstance(book, RulebookView)
    if way == "arrow":
        back_arrow(book).on_click(None)  # type: ignore[misc]
    else:  # the browser's Back: the checker's address again, as route_change gives it
        app.show("/check/meld?variant=rummy101")
    again = app.screen
    assert isinstance(again, MeldChecker)
    assert again.keyboard.value == ["R12", "R13", "R1"] or again is screen
    assert [str(p) for p in again.request["meld"]] == ["R12", "R13", "R1"]  # type: ignore[index]
    assert text(again.verdict) == before
    assert again.view.appbar is not None and again.view.controls


def test_a_checker_opened_afresh_starts_empty(app: App, polish: None) -> None:
    """Only the way back from the rule book keeps pieces: a new visit starts from scratch."""
    open_meld_checker(app)
    app.show("/")
    app.show("/check/meld?variant=rummy101")
    fresh = app.screen
    assert isinstance(fresh, MeldChecker) and fresh.answer is None


def test_the_book_opened_from_the_menu_goes_back_home(app: App) -> None:
    app.show("/rules/tile_rummy/jokers")
    book = app.screen
    assert isinstance(book, RulebookView)
    back_arrow(book).on_click(None)  # type: ignore[misc]
    assert app.route == "/"


def test_a_stored_gin_tie_names_its_rule_and_opens_the_games_rule_book(app: App) -> None:
    """A stored round's breakdown (RULES.md §5, seed preset: a 5:5 knock is no undercut):
    every line in Polish and the rule line a button to the game's own rule book."""
    from app import games
    from app.ui.round_entry import RoundDetail

    game = app.store.create_game(games.new_game("gin", ["Ala", "Ola"]))
    entry = {
        "knocker": "Ala",
        "players": [
            {"name": "Ala", "hand": ["AS", "2S", "3S", "4H", "5H", "6H", "7C", "8C", "9C", "5D"]},
            {"name": "Ola", "hand": ["AD", "2D", "3D", "QS", "QH", "QC", "KS", "KH", "KC", "5C"]},
        ],
    }
    game = app.store.save_game(games.add_round(game, entry))
    app.language = "pl"
    with use_language("pl"):
        app.show(f"/game/{game.id}/round/1")
        detail = app.screen
        assert isinstance(detail, RoundDetail)
        shown = text(detail.view)
        assert "W tych zasadach remis nie jest undercutem" in shown, shown
        assert "Ola nie ma czego dołożyć." in shown
        buttons = [
            b
            for b in walk(detail.view)
            if isinstance(b, ft.TextButton) and b.icon == ft.Icons.MENU_BOOK
        ]
        assert len(buttons) == 1
        label = buttons[0].content.value  # type: ignore[union-attr]
        assert label.startswith("Zasady: Gin Rummy › "), label
        buttons[0].on_click(None)  # type: ignore[misc]
    assert isinstance(app.screen, RulebookView)
    assert app.route.startswith(f"/game/{game.id}/rules/")
