"""The table display and the theme (app/ui/table_display.py, app/ui/settings.py)."""

from __future__ import annotations

import flet as ft

from app import games as g
from app.store import Store
from app.ui.settings import SettingsScreen, apply_theme, dark_theme, theme_choice
from app.ui.shell import App
from app.ui.table_display import MIN_TOTAL, TableDisplay, timer_on, total_size
from tests.test_stats import tile
from tests.test_stats_views import labels_of


def test_total_size() -> None:
    # 360 px wide: (360 − 40) / (0.6 × 4 characters) = 133; 2 players on 740 px:
    # ((740 − 60 − 50) / 2 − 30) / 1.2 = 237.5 → the width decides
    assert total_size(["\u2212202", "101"], 360, 740, 50) == 133
    # six players: ((740 − 60 − 50) / 6 − 30) / 1.2 = 62.5
    assert total_size(["1"] * 6, 360, 740, 50) == 62
    # never below 48 px, never above 160
    assert total_size(["\u221212345678"] * 6, 360, 740, 150) == MIN_TOTAL
    assert total_size(["1"], 1200, 2000) == 160


def test_table_display_of_a_game(store: Store) -> None:
    game = g.new_game("tile_rummy", ["Ala", "Ola", "Ela"], agreed_rounds=3, first_dealer=0)
    game = g.add_round(game, tile("Ola", {"Ala": ["R9"], "Ela": ["R1", "R2"]}))
    game = store.create_game(game)
    app = App(store)
    app.show(f"/game/{game.id}/table")
    t = app.screen
    assert isinstance(t, TableDisplay)
    assert {p: x.value for p, x in t.totals.items()} == {
        "Ala": "\u22129",
        "Ola": "12",
        "Ela": "\u22123",
    }
    assert t.size >= MIN_TOTAL and all(x.size == t.size for x in t.totals.values())
    assert t.leaders == {"Ola"}
    assert "Ola: 12, leads" in labels_of(t.view)
    assert t.who.value == "Ola starts"  # round 2: the seat after Ala
    assert t.clock is None  # no turn time agreed
    t.leave()
    assert app.route == f"/game/{game.id}"


def test_table_display_with_the_turn_timer(store: Store) -> None:
    game = g.new_game("tile_rummy", ["Ala", "Ola"], {"preset": "rummikub", "turn_time": 60})
    assert timer_on(game)
    game = store.create_game(game)
    app = App(store)
    app.show(f"/game/{game.id}/table")
    t = app.screen
    assert isinstance(t, TableDisplay) and t.clock is not None and t.clock_text is not None
    assert t.clock_text.value == "1:00" and t.clock_player.value == "Ala's turn"
    t.next_player()
    assert t.clock_player.value == "Ola's turn" and t.clock.state == "running"
    t.toggle()
    assert t.clock.state == "paused" and t.toggle_button.content == "Start"


def test_theme_choice_is_kept(store: Store) -> None:
    app = App(store)
    assert theme_choice(app) == "system"  # nobody chose: the device decides (DEFAULT_THEME)
    app.show("/settings")
    s = app.screen
    assert isinstance(s, SettingsScreen)
    s.themes.pick("dark")
    assert theme_choice(app) == "dark" and store.get_setting("theme") == "dark"
    assert theme_choice(App(store)) == "dark"  # the default of a new session
    assert apply_theme(App(store), "light") == "light"
    d = dark_theme()
    assert d.scaffold_bgcolor == ft.Colors.BLACK and d.color_scheme is not None
    assert d.color_scheme.surface == ft.Colors.BLACK


def test_table_display_button_on_the_score_sheet(store: Store) -> None:
    game = store.create_game(g.new_game("gin", ["Ala", "Ola"]))
    app = App(store)
    app.show(f"/game/{game.id}")
    bar = app.screen.view.appbar
    names = [a.label for a in bar.actions if isinstance(a, ft.Semantics)]
    assert "Show on the table" in names
    btn = [a for a in bar.actions if getattr(a, "label", "") == "Show on the table"][0]
    btn.content.on_click(None)
    assert isinstance(app.screen, TableDisplay) and app.screen.who.value == "Ala deals"
