"""A game ended early from its sheet says so (issue 10, leftover 3), not "N rounds agreed".

Scores (RULES.md §3, Rummy 101): Ola goes out, Ala had opened with melds and holds 20 points:
Ala 20, Ola 0. Tile Rummy (§4): round A — Ala out, Ola R5 JK (35), Ela B1 B2 (3); round E —
Ela out, Ala K9, Ola B3: Ala 29, Ola −38, Ela 9.
"""

from __future__ import annotations

import pytest

from app import games
from app.games import Game
from app.i18n import use_language
from app.store import Store
from app.ui.sheet import game_end
from app.ui.sheet.score_sheet import ScoreSheet
from app.ui.shell import App
from tests.test_flow import PLAYERS, ROUND_A, ROUND_E
from tests.test_views import screen_text

OLA_OUT = {
    "finish": "normal",
    "players": [
        {"name": "Ola", "winner": True},
        {"name": "Ala", "opened": "melds", "hand_value": 20, "jokers": 0},
    ],
}


def r101(store: Store, agreed: int | None, rounds: int = 1) -> Game:
    game = games.new_game("rummy101", ["Ala", "Ola"], agreed_rounds=agreed)
    for _ in range(rounds):
        game = games.add_round(game, OLA_OUT)
    return store.create_game(game)


def sheet_text(app: App, game: Game) -> str:
    app.go(f"/game/{game.id}")
    assert isinstance(app.screen, ScoreSheet)
    return screen_text(app)


def test_rummy101_ended_early_says_so_not_rounds_agreed(app: App, store: Store) -> None:
    game = r101(store, agreed=5)
    assert "5 rounds agreed" in sheet_text(app, game)
    ended = store.save_game(game_end.end_now(game), game.version)
    assert ended.agreed_rounds == 1 and game_end.ended_early(ended)
    text = sheet_text(app, ended)
    assert "rounds agreed" not in text and "round agreed" not in text
    assert "ended early after 1 round" in text
    assert "The players ended the game early, after 1 round." in text
    assert "agreed round the highest total wins" not in text  # the judge's line is not kept
    assert "Ola wins!" in text  # 101 points: Ola went out (Ala −20)


def test_one_more_round_after_an_early_end_is_an_agreement_again(app: App, store: Store) -> None:
    game = r101(store, agreed=5)
    ended = store.save_game(game_end.end_now(game), game.version)
    more = game_end.one_more_round(ended)
    assert more is not None and not game_end.ended_early(more)
    stored = store.save_game(more, ended.version)
    assert "2 rounds agreed" in sheet_text(app, stored)
    played = store.save_game(games.add_round(stored, OLA_OUT), stored.version)  # round 2: over
    assert games.standings(played).finished and not game_end.ended_early(played)
    text = sheet_text(app, played)
    assert "2 rounds agreed" in text and "ended early" not in text


def test_undo_of_the_end_takes_the_words_back(app: App, store: Store) -> None:
    game = r101(store, agreed=5, rounds=2)
    ended = store.save_game(game_end.end_now(game), game.version)
    opened = store.save_game(games.undo(ended), ended.version)
    assert not game_end.ended_early(opened)
    text = sheet_text(app, opened)
    assert "5 rounds agreed" in text and "ended" not in text.lower().replace("end the game", "")


def test_nothing_agreed_ended_by_the_players(app: App, store: Store) -> None:
    game = r101(store, agreed=None, rounds=2)
    ended = store.save_game(game_end.end_now(game), game.version)
    text = sheet_text(app, ended)
    assert "ended by the players after 2 rounds" in text and "early" not in text
    assert "The players ended the game after 2 rounds." in text


def test_an_agreed_series_of_tile_rummy_ended_early(app: App, store: Store) -> None:
    game = games.new_game("tile_rummy", PLAYERS, {"games": 5})
    for entry in (ROUND_A, ROUND_E):
        game = games.add_round(game, entry)
    game = store.create_game(game)
    ended = store.save_game(game_end.end_now(game), game.version)
    text = sheet_text(app, ended)
    assert "5 rounds agreed" not in text and "ended early after 2 rounds" in text
    # Gin and Carousel end by their own rules: never "ended early"
    assert not game_end.ended_early(games.new_game("gin", ["Ala", "Bob"]))


@pytest.mark.parametrize(
    ("lang", "words"),
    [("pl", "zakończona przed czasem po 1 rundzie"), ("sk", "ukončená predčasne po 1 kole")],
)
def test_ended_early_in_polish_and_slovak(store: Store, lang: str, words: str) -> None:
    game = r101(store, agreed=5)
    ended = store.save_game(game_end.end_now(game), game.version)
    with use_language(lang):
        app = App(store, language=lang)
        assert words in sheet_text(app, ended)


# -- the games list says so too (GameSummary.ended_early) ---------------------------------------
def test_one_rule_of_ended_early_for_the_sheet_and_the_games_list() -> None:
    assert game_end.ended_early is games.ended_early
    assert game_end.ENDED_KEY == games.ENDED_KEY == "ended_after"


def test_the_summary_of_a_game_ended_early_says_so(store: Store) -> None:
    game = r101(store, agreed=5)
    assert not games.summarize(game).ended_early  # 1 round of 5 played: not over
    ended = store.save_game(game_end.end_now(game), game.version)
    summary = games.summarize(ended)
    assert summary.finished and summary.ended_early
    assert games.GameSummary.from_dict(summary.to_dict()) == summary
    more = game_end.one_more_round(ended)  # an agreement again: 2 rounds
    assert more is not None and not games.summarize(more).ended_early
    assert not games.summarize(games.undo(ended)).ended_early  # the end taken back
    finished = r101(store, agreed=1)  # the agreed round played: over, not ended early
    assert games.summarize(finished).finished and not games.summarize(finished).ended_early
    assert [s.ended_early for s in store.list_games() if s.id == ended.id] == [True]


def test_a_summary_stored_before_the_field_still_loads() -> None:
    game = games.new_game("gin", ["Ala", "Bob"])
    old = games.summarize(game).to_dict()
    del old["ended_early"]
    assert games.GameSummary.from_dict(old).ended_early is False
    assert games.GameSummary.from_dict({**old, "ended_early": "yes"}).ended_early is False


def test_tile_rummy_series_ended_early_in_the_summary(store: Store) -> None:
    game = games.new_game("tile_rummy", PLAYERS, {"games": 5})
    for entry in (ROUND_A, ROUND_E):
        game = games.add_round(game, entry)
    game = store.create_game(game)
    assert not games.summarize(game).ended_early
    ended = store.save_game(game_end.end_now(game), game.version)
    assert games.summarize(ended).ended_early


def test_the_games_list_says_a_game_was_ended_by_the_players(app: App, store: Store) -> None:
    game = r101(store, agreed=5)
    ended = store.save_game(game_end.end_now(game), game.version)
    r101(store, agreed=1)  # a game played to its agreed round: nothing said
    app.go("/")
    lines = [t for t in screen_text(app).splitlines() if t.startswith("Winner: Ola")]
    assert len(lines) == 2, lines
    assert sum("ended by the players after 1 round ·" in t for t in lines) == 1
    assert [s.id for s in store.list_games() if s.ended_early] == [ended.id]


@pytest.mark.parametrize(
    ("lang", "words"),
    [("pl", "zakończona przez graczy po 1 rundzie"), ("sk", "ukončená hráčmi po 1 kole")],
)
def test_the_games_list_says_so_in_polish_and_slovak(store: Store, lang: str, words: str) -> None:
    game = r101(store, agreed=5)
    store.save_game(game_end.end_now(game), game.version)
    with use_language(lang):
        app = App(store, language=lang)
        app.show("/")
        assert words in screen_text(app)
