"""The "End the game now?" dialog says what will happen, in the sheet's words (tester's
report: Rummy 101 said "After the 1 agreed round the highest total wins…" whether or not, and
however many, rounds had been agreed).

Rounds (RULES.md §3, Rummy 101): Ola goes out, Ala had opened with melds and holds 20 points
(tests/test_flow_end.py): Ola leads and wins. Tile Rummy (§4), rounds A and E of
tests/test_flow.py: Ala 29, Ola −38, Ela 9.
"""

from __future__ import annotations

from app import games
from app.i18n import use_language
from app.store import Store
from app.ui.sheet.game_end import end_text
from app.ui.shell import App
from tests.test_flow import accept, press, sheet_of, stored_series
from tests.test_flow_end import OLA_OUT


def r101(store: Store, agreed: int | None, rounds: int = 1) -> games.Game:
    game = games.new_game("rummy101", ["Ala", "Ola"], agreed_rounds=agreed)
    for _ in range(rounds):
        game = games.add_round(game, OLA_OUT)
    return store.create_game(game)


def confirm_text(app: App, game: games.Game) -> str:
    sheet = sheet_of(app, game)
    assert sheet.end_actions.end_button is not None
    press(sheet.end_actions.end_button)
    dialog = app.dialog
    assert dialog is not None and dialog.title.value == "End the game now?"  # type: ignore[union-attr]
    text: str = dialog.content.value  # type: ignore[union-attr]
    return text


def test_rummy101_nothing_agreed(app: App, store: Store) -> None:
    game = r101(store, agreed=None)
    ola = games.standings(game).totals["Ola"]
    text = confirm_text(app, game)
    assert "agreed" not in text
    assert text.startswith(
        f"The game ends now, after 1 round. Ola wins with {ola} points. The highest total wins."
    )
    accept(app)  # and the sheet after it says the same
    assert games.ended_early(store.load_game(game.id))


def test_rummy101_three_agreed_ended_after_one(app: App, store: Store) -> None:
    game = r101(store, agreed=3)
    text = confirm_text(app, game)
    assert text.startswith("The game ends now, after 1 of the 3 agreed rounds. Ola wins")
    assert "After the 1 agreed round" not in text and "The highest total wins." in text


def test_rummy101_two_rounds_played(app: App, store: Store) -> None:
    text = confirm_text(app, r101(store, agreed=None, rounds=2))
    assert text.startswith("The game ends now, after 2 rounds. Ola wins")


def test_tile_rummy_keeps_the_judges_line(app: App, store: Store) -> None:
    text = confirm_text(app, stored_series(store))
    assert text.startswith(
        "The game ends now, after 2 rounds. Ala wins with 29 points."
        " The players ended the series: the highest total wins."
    )


def test_polish(store: Store) -> None:
    game = r101(store, agreed=None)
    preview = games.standings(games.end_game(game))
    with use_language("pl"):
        text = end_text(game, preview)
    assert "umówion" not in text, text
    assert text.startswith("Gra kończy się teraz, po 1 rundzie."), text
