"""The table display and the theme (app/ui/table/table_display.py, app/ui/home/settings.py)."""

from __future__ import annotations

import flet as ft

from app import games as g
from app.store import Store
from app.ui.home.settings import SettingsScreen, apply_theme, dark_theme, theme_choice
from app.ui.shell import App
from app.ui.table.table_display import (
    LINE,
    MIN_TOTAL,
    TableDisplay,
    layout,
    table_name_size,
    timer_on,
    total_size,
)
from tests.test_stats import tile
from tests.test_stats_views import labels_of


def test_total_size() -> None:
    # 360 px wide, one column: (360 − 24 − 40) / (0.6 × 4 characters) = 123; 2 players on
    # 740 px: (740 − 68 − 50) / 2 = 311 px a row ≥ 1.15 × (123 + 41) → the width decides
    assert total_size(["\u2212202", "101"], 360, 740, 50) == 123
    # six players in one column: (740 − 68 − 50) / 6 = 103.7 px a row, the name 22 px:
    # 103.7 / 1.15 − 22 = 68.2; in two columns of 3: (336 / 2 − 40) / (0.6 × 2) = 106.7,
    # 622 / 3 = 207 px a row ≥ 1.15 × (106 + 35): more than a quarter larger, so two columns
    assert layout(["1"] * 6, None, 360, 740, 50)[:2] == (2, 106)
    assert layout(["10"] * 6, None, 360, 740, 50)[:2] == (2, 106)
    assert layout(["100"] * 6, None, 360, 740, 50)[:2] == (1, 68)
    # never above 160; long totals shrink rather than leave the screen
    assert total_size(["1"], 1200, 2000) == 160
    # 9 characters: 296 / 5.4 = 54.8 wide, but (740 − 68 − 150) / 6 / 1.15 − 22 = 53.6 high
    assert total_size(["\u221212345678"] * 6, 360, 740, 150) == 53


def test_layout_fits_up_to_six_players_portrait_and_landscape() -> None:
    # the tester's report: with 4 players the 4th name and total were off a 360×740 screen
    extra = 75  # the dealer line and the two lines of the wake-lock note (TableDisplay)
    for width, height in ((360, 740), (740, 360), (412, 915), (1280, 800)):
        for n in range(2, 7):
            for total in ("0", "\u2212202", "1234"):
                names = ["Babcia", "Dziadek", "Ala", "Ola", "Jan", "Ela"][:n]
                cols, size, name = layout([total] * n, names, width, height, extra, marks=1)
                rows = -(-n // cols)
                # every line of the grid (name, total, one "leads" line) fits the height ...
                used = rows * LINE * (size + name) + 20 * LINE
                assert used <= height - 68 - extra, (width, height, n, total)
                # ... and every total and name its cell's width
                cell = (width - 24) / cols - 40
                assert size * 0.6 * max(len(total), 2) <= cell + 1
                assert name * 0.58 * max(len(x) for x in names) <= cell + 1
                if (width, height) == (360, 740) and total != "1234":
                    assert size >= MIN_TOTAL, (n, total, size)  # readable from 2 m
    # a phone held upright keeps one column of 4; turned on its side, one line of 4
    assert layout(["0"] * 4, ["Ala", "Ola", "Jan", "Babcia"], 360, 740, extra)[0] == 1
    assert layout(["0"] * 4, ["Ala", "Ola", "Jan", "Babcia"], 740, 360, extra)[0] == 4


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


def test_one_long_name_does_not_shrink_the_others_names(store: Store) -> None:
    # the new-user tester's report: with one 40-letter name, "Ala" and "Ola" were 14 px
    # over 150-px totals, unreadable from across the table
    long = "Konstantyna Wiśniewska-Brzęczyszczykiewicz"[:40]
    game = store.create_game(
        g.new_game("tile_rummy", ["Ala", long, "Ola"], agreed_rounds=3, first_dealer=0)
    )
    app = App(store)
    app.show(f"/game/{game.id}/table")
    t = app.screen
    assert isinstance(t, TableDisplay)
    sizes = {x.value: x.size for x in texts_in(t.view) if x.value in ("Ala", "Ola", long)}
    cap = max(22, t.size // 3)  # a third of the totals, at least 22 px
    assert sizes["Ala"] == sizes["Ola"] == min(cap, t.size)
    # the long one is cut to its cell: 40 letters of 0.58 of its size in 360 − 24 − 40 px
    assert sizes[long] == int((360 - 24 - 40) / (0.58 * 40)) < sizes["Ala"]
    cols, size, name = layout(["0"] * 3, ["Ala", long, "Ola"], 360, 740, 75)
    assert table_name_size("Ala", cols, size) == min(cap, size) and name == sizes[long]
    t.leave()


def texts_in(control: object) -> list[ft.Text]:
    """Every Text under ``control``."""
    out: list[ft.Text] = []
    stack = [control]
    while stack:
        c = stack.pop()
        if isinstance(c, ft.Text):
            out.append(c)
        for attr in ("controls", "content", "views"):
            v = getattr(c, attr, None)
            if isinstance(v, list):
                stack.extend(v)
            elif v is not None and not isinstance(v, str):
                stack.append(v)
    return out
