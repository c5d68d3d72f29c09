"""The players screens without a browser (app/ui/home/players.py), on the fixture of test_stats."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import flet as ft
import pytest

from app import i18n, stats
from app.store import Store
from app.ui.home.players import PlayerScreen, PlayersScreen, average, player_route
from app.ui.shell import App
from tests.conftest import walk
from tests.test_stats import build


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "games.json")
    build(s)
    stats.CACHE.forget()
    yield s
    s.close()


def labels_of(view: ft.View) -> list[str]:
    return [c.label for c in walk(view) if isinstance(c, ft.Semantics) and c.label]


def test_players_list_and_routes(store: Store) -> None:
    app = App(store)
    app.show("/players")
    assert isinstance(app.screen, PlayersScreen)
    assert [n for _k, n, _c in app.screen.people] == ["Ola", "Ala", "Bob", "Ela", "Elka"]
    assert "Ala, 4 games" in labels_of(app.screen.view)
    assert player_route("Ala  Nowak") == "/players/ala%20nowak"
    app.show(player_route("ALA"))
    assert isinstance(app.screen, PlayerScreen)
    shown = labels_of(app.screen.view)
    for text in (
        "Finished games: 3",
        "Won: 2",
        "Win rate: 67 %",
        "Current streak: won 1 in a row",
        "Average round: 3.2",
        "Best round: 35",
        "Lowest total: \u221219",
        "Ola: 3 together, 2 won, 0 lost",
    ):
        assert text in shown, text


def test_rename_and_merge_from_the_page(store: Store) -> None:
    app = App(store)
    app.show(player_route("Elka"))
    screen = app.screen
    assert isinstance(screen, PlayerScreen)
    screen.open_rename()
    assert screen.name_field is not None
    screen.name_field.value = "Ola"  # Ola plays in Elka's game: refused
    screen.rename()
    assert screen.name_field.error and "same game" in screen.name_field.error
    screen.name_field.value = "ela"  # merge into Ela (another spelling)
    screen.rename()
    assert app.messages[-1] == "1 game changed"
    assert isinstance(app.screen, PlayerScreen) and app.route == "/players/ela"
    assert (app.screen.stats.played, app.screen.stats.won) == (2, 1)
    assert "ela" in {n for s in store.list_games() for n in s.players}


def test_visitors_get_no_rename_button(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.ui.table import sharing

    monkeypatch.setattr(sharing, "is_host", lambda _app: False)
    app = App(store)
    app.show(player_route("Ola"))
    texts = [getattr(c, "content", None) for c in walk(app.screen.view)]
    assert "Rename or merge" not in texts


@pytest.mark.parametrize(
    ("lang", "texts"),
    [
        ("pl", ["Ukończone gry: 3", "Obecna seria: 1 wygrana z rzędu", "Odsetek wygranych: 67 %"]),
        ("sk", ["Dohrané hry: 3", "Aktuálna séria: 1 výhra za sebou", "Podiel výhier: 67 %"]),
    ],
)
def test_player_page_in_polish_and_slovak(store: Store, lang: str, texts: list[str]) -> None:
    app = App(store, language=lang)
    app.show(player_route("Ala"))
    shown = labels_of(app.screen.view)
    for text in texts:
        assert text in shown, text


def test_an_average_is_written_with_the_languages_decimal_sign() -> None:
    with i18n.use_language("en"):
        assert (average(3.25), average(-9.5), average(None)) == ("3.2", "\u22129.5", "-")
    for lang in ("pl", "sk"):
        with i18n.use_language(lang):
            assert (average(3.3), average(-9.5), average(0.0)) == ("3,3", "\u22129,5", "0,0")
