"""History and seasons (app/stats.py filter_games/season, app/ui/home/history.py), on the games of
tests/test_stats.py (worked out by hand there):

    g1 tile 2026-01-01  Ala 32 (won), Ola −32
    g2 tile 2026-01-02  ala −19, Ola 7, Ela 12 (won)
    g3 101  2026-01-03  ALA 101 (won), Ola −12, Elka −202
    g4 tile 2026-01-04  Ola 8 (won), Bob −8
    g5 tile 2026-01-05  unfinished
"""

from __future__ import annotations

from datetime import date

import pytest

from app import games as g
from app import stats
from app.store import Store
from app.ui.home.history import FinishedGame, HistoryScreen, SeasonScreen, parse_day
from app.ui.shell import App
from tests.test_stats import build
from tests.test_stats_views import labels_of


@pytest.fixture
def ids(store: Store) -> dict[str, str]:
    return build(store)


def found(store: Store, ids: dict[str, str], **kw: object) -> list[str]:
    back = {v: k for k, v in ids.items()}
    return [back[s.id] for s in stats.filter_games(store.list_games(), **kw)]  # type: ignore[arg-type]


def test_filters(store: Store, ids: dict[str, str]) -> None:
    assert found(store, ids) == ["g4", "g3", "g2", "g1"]  # finished only, newest first
    assert found(store, ids, variant="rummy101") == ["g3"]
    assert found(store, ids, player="ALA") == ["g3", "g2", "g1"]  # any spelling
    assert found(store, ids, player="bob") == ["g4"]
    assert found(store, ids, text="ela") == ["g2"]  # "Elka" does not hold "ela"
    assert found(store, ids, text="EL") == ["g3", "g2"]  # part of a name: Elka, Ela
    assert found(store, ids, text="ola el") == ["g3", "g2"]  # every word must match
    assert found(store, ids, text="ola bob ala") == []
    assert found(store, ids, text="rummy 101", variant_names={"rummy101": "Rummy 101"}) == ["g3"]
    assert found(store, ids, start=date(2026, 1, 2), end=date(2026, 1, 3)) == ["g3", "g2"]
    assert found(store, ids, start=date(2026, 1, 4)) == ["g4"]
    assert found(store, ids, end=date(2025, 12, 31)) == []


def test_season_ranking(store: Store, ids: dict[str, str]) -> None:
    table = stats.season(store.list_games())
    assert list(table) == ["tile_rummy", "rummy101"]  # 3 tile games, 1 of 101
    tile = [(r.name, r.games, r.wins, r.points) for r in table["tile_rummy"]]
    # Ola: 3 games, won g4, 7 − 32 + 8 = −17; Ala: won g1, 32 − 19 = 13; Ela won g2 (12);
    # Bob: 0 wins, −8. Equal wins: more points first. Named as in the last game started (g5: "Ala").
    assert tile == [("Ala", 2, 1, 13), ("Ela", 1, 1, 12), ("Ola", 3, 1, -17), ("Bob", 1, 0, -8)]
    jan3 = stats.season(store.list_games(), date(2026, 1, 3), date(2026, 1, 3))
    assert [(r.name, r.wins, r.points) for r in jan3["rummy101"]] == [
        ("Ala", 1, 101),
        ("Ola", 0, -12),
        ("Elka", 0, -202),
    ]
    assert list(jan3) == ["rummy101"]


def test_parse_day() -> None:
    assert parse_day(" 2026-01-31 ") == date(2026, 1, 31)
    assert parse_day("") is None
    with pytest.raises(ValueError):
        parse_day("31.01.2026")


def test_history_screen_filters(store: Store, ids: dict[str, str]) -> None:
    app = App(store)
    app.show("/history")
    h = app.screen
    assert isinstance(h, HistoryScreen)
    assert h.count.value == "4 finished games"
    h.variants.pick("rummy101")
    assert [s.id for s in h.found] == [ids["g3"]]
    h.variants.pick("*")
    h.people.pick("ela")
    assert [s.id for s in h.found] == [ids["g2"]]
    h.people.pick("*")
    h.search.value = "bob"
    h.apply()
    assert [s.id for s in h.found] == [ids["g4"]] and h.count.value == "1 finished game"
    h.search.value = ""
    h.days.start.value = "2026-01-03"
    h.apply()
    assert [s.id for s in h.found] == [ids["g4"], ids["g3"]]
    h.days.end.value = "3 Jan"
    h.apply()
    assert h.days.end.error == "A day like 2026-01-31"


def test_read_only_game_delete_and_undo(store: Store, ids: dict[str, str]) -> None:
    app = App(store)
    app.show(f"/history/{ids['g2']}")
    screen = app.screen
    assert isinstance(screen, FinishedGame)
    cells = [[c.content.value for c in row.cells] for row in screen.table.rows]
    assert cells[-1] == ["Total", "\u221219", "7", "12"]
    assert cells[1] == ["2", "\u221210", "\u22125", "15"]  # the edited round as it stands now
    shown = [getattr(c, "content", None) for c in app.screen.view.controls]
    assert "Enter round" not in repr(shown)  # read-only: nothing to enter or edit
    before = g.game_to_dict(store.load_game(ids["g2"]))
    screen.delete()
    assert app.dialog is not None
    app.dialog.actions[1].on_click(None)  # "Delete"
    assert ids["g2"] not in {s.id for s in store.list_games()}
    assert app.route == "/history" and isinstance(app.screen, HistoryScreen)
    assert "Deleted: Tile Rummy: ala, Ola, Ela" in repr(app.screen.view)
    app.screen.undo_delete()
    back = g.game_to_dict(store.load_game(ids["g2"]))
    assert app.messages[-1] == "The game is back"
    assert {k: v for k, v in back.items() if k not in ("version", "updated")} == {
        k: v for k, v in before.items() if k not in ("version", "updated")
    }
    assert "Deleted:" not in repr(app.screen.view)


def test_season_screen(store: Store, ids: dict[str, str]) -> None:
    app = App(store)
    app.show("/season")
    s = app.screen
    assert isinstance(s, SeasonScreen)
    assert "1. Ala: 1 won of 2, 13 points" in labels_of(s.view)
    s.days.start.value = "2026-01-03"
    s.days.end.value = "2026-01-04"
    s.apply()
    shown = labels_of(s.view)
    assert "1. Ola: 1 won of 1, 8 points" in shown
    assert "1. Ala: 1 won of 1, 101 points" in shown
    s.days.start.value = "2027-01-01"
    s.days.end.value = ""
    s.apply()
    assert s.ranking == {}
