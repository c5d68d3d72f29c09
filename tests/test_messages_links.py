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
from app.ui.home.rulebook_view import RulebookView
from app.ui.referee.checkers import MeldChecker, TurnChecker
from app.ui.shell import App
from tests.test_checkers import enter_turn, tap, text, walk


@pytest.fixture
def polish() -> Iterator[None]:
    with use_language("pl"):
        yield


def click(button: Any) -> None:
    """Tap ``button`` the way the logic tests do (its handler, no event)."""
    button.on_click(None)


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
    click(buttons[0])
    assert isinstance(app.screen, RulebookView)
    assert app.route.startswith("/rules/rummy101/")
    assert app.screen.target_section is not None


@pytest.mark.parametrize("way", ["arrow", "browser back"])
def test_back_from_the_rule_book_finds_the_tapped_pieces(app: App, polish: None, way: str) -> None:
    screen = open_meld_checker(app)
    before = text(screen.verdict)
    click(rule_buttons(screen.verdict)[0])
    book = app.screen
    assert isinstance(book, RulebookView)
    if way == "arrow":
        click(back_arrow(book))
    else:  # the browser's Back: the checker's address again, as route_change gives it
        app.show("/check/meld?variant=rummy101")
    again = app.screen
    assert isinstance(again, MeldChecker)
    assert again.keyboard.value == ["R12", "R13", "R1"] or again is screen
    assert [str(p) for p in again.request["meld"]] == ["R12", "R13", "R1"]  # type: ignore[index]
    assert text(again.verdict) == before
    assert again.view.appbar is not None and again.view.controls


def test_a_checker_opened_again_keeps_its_pieces_and_another_variant_starts_empty(
    app: App, polish: None
) -> None:
    """Leaving a checker and opening it again keeps what was tapped in (a tester lost a whole
    turn that way; "Clear all" starts over: tests/test_checkers.py); a checker of another
    variant starts from scratch."""
    open_meld_checker(app)
    app.show("/")
    app.show("/check/meld?variant=rummy101")
    again = app.screen
    assert isinstance(again, MeldChecker) and again.answer is not None
    assert again.keyboard.value == ["R12", "R13", "R1"]
    app.show("/")
    app.show("/check/meld?variant=tile_rummy")
    fresh = app.screen
    assert isinstance(fresh, MeldChecker) and fresh.answer is None


def test_the_book_opened_from_the_menu_goes_back_home(app: App) -> None:
    app.show("/rules/tile_rummy/jokers")
    book = app.screen
    assert isinstance(book, RulebookView)
    click(back_arrow(book))
    assert app.route == "/"


def test_a_stored_gin_tie_names_its_rule_and_opens_the_games_rule_book(app: App) -> None:
    """A stored round's breakdown (RULES.md §5, seed preset: a 5:5 knock is no undercut):
    every line in Polish and the rule line a button to the game's own rule book."""
    from app import games
    from app.ui.entry.round_entry import RoundDetail

    game = app.store.create_game(games.new_game("gin", ["Ala", "Ola"]))
    entry = {
        "knocker": "Ala",
        "players": [
            {"name": "Ala", "hand": ["AS", "2S", "3S", "4H", "5H", "6H", "7C", "8C", "9C", "5D"]},
            {"name": "Ola", "hand": ["AD", "2D", "3D", "QS", "QH", "QC", "KS", "KH", "KC", "5C"]},
        ],
    }
    changed = games.add_round(game, entry)
    game = app.store.save_game(changed, changed.version)
    app.language = "pl"
    with use_language("pl"):
        app.show(f"/game/{game.id}/round/1")
        detail = app.screen
        assert isinstance(detail, RoundDetail)
        shown = text(detail.view)
        assert "W tych zasadach remis nie jest podcięciem" in shown, shown
        assert "Ola nie ma czego dołożyć." in shown
        buttons = [
            b
            for b in walk(detail.view)
            if isinstance(b, ft.TextButton) and b.icon == ft.Icons.MENU_BOOK
        ]
        assert len(buttons) == 1
        label = buttons[0].content.value  # type: ignore[union-attr]
        assert label.startswith("Zasady: Gin Rummy › "), label
        click(buttons[0])
    assert isinstance(app.screen, RulebookView)
    assert app.route.startswith(f"/game/{game.id}/rules/")


def book_status(book: RulebookView, anchor: str) -> str:
    """The mark ("in_force", "not_in_force", "plain") of the book's block ``anchor``."""
    found = [
        m.status for ms in book.block_controls.values() for m, _c in ms if m.block.anchor == anchor
    ]
    assert len(found) == 1, (anchor, found)
    return found[0]


def open_level3_fault(app: App) -> TurnChecker:
    """A Tile Rummy turn checker set to joker level 3 (the default preset is level 2, RULES.md
    §4), showing a level-3 fault: R3 taken from R3 R4 R5 JK (a run holding a joker)."""
    app.language = "pl"
    app.show("/check/turn?variant=tile_rummy")
    screen = app.screen
    assert isinstance(screen, TurnChecker)
    screen.set_joker_rule(3)
    enter_turn(screen, "B3 K3", ["R3 R4 R5 JK"], ["R4 R5 JK", "R3 B3 K3"])
    a = screen.check()
    assert a["reason"] == "joker_rule" and a["level"] == 3, a
    return screen


def test_the_book_from_a_checker_shows_the_checkers_joker_level(app: App, polish: None) -> None:
    screen = open_level3_fault(app)
    buttons = rule_buttons(screen.view)
    assert len(buttons) == 1
    label = buttons[0].content.value  # type: ignore[union-attr]
    assert label == "Zasady: Tile Rummy › Użycie jokerów", label
    click(buttons[0])
    book = app.screen
    assert isinstance(book, RulebookView)
    assert app.route.startswith("/rules/tile_rummy/level3")
    assert book.options["joker_level"] == 3
    assert book_status(book, "level3") == "in_force"
    assert book_status(book, "level2") == "in_force"  # each level adds to the one before
    assert book_status(book, "level4") == "not_in_force"
    shown = text(book.view)
    assert "Nie obowiązuje (teraz: poziom jokera 2" not in shown, shown
    assert book.options_note.value == screen.rules.summary()
    click(back_arrow(book))
    assert app.screen is screen  # and the way back still finds the checker


def test_the_book_from_the_menu_shows_the_defaults_even_with_a_checker_kept(
    app: App, polish: None
) -> None:
    """Only a rule link from the checker carries its options; /rules typed or from the menu
    (no ``?from=check``) shows the default preset (level 2: level 3 not in force)."""
    screen = open_level3_fault(app)
    click(rule_buttons(screen.view)[0])
    app.show("/rules/tile_rummy/level3")
    book = app.screen
    assert isinstance(book, RulebookView)
    assert book.options["joker_level"] == 2
    assert book_status(book, "level3") == "not_in_force"
    assert book_status(book, "level2") == "in_force"


def test_the_book_from_a_checker_of_another_variant_shows_the_defaults(
    app: App, polish: None
) -> None:
    """The kept checker's options are for its own variant only: another variant's book from a
    ``?from=check`` address shows that variant's defaults."""
    screen = open_level3_fault(app)
    click(rule_buttons(screen.view)[0])
    app.show("/rules/my_rummy/level3?from=check")
    book = app.screen
    assert isinstance(book, RulebookView)
    assert book.checker_rules is None
    assert book.options == book.defaults
