"""The game as a whole (issue 10, points 6, 9, 10, 11), without a browser: ending a game from
its sheet, one more round, play again, the chart's last point, importing a game that is here
already, and the referee menu's variant and subtitles.

Scores worked out by hand from RULES.md:

- Tile Rummy (§4; the winner collects the racks, each loser minus his own, a joker 30):
  round A — Ala out, Ola R5 JK (35), Ela B1 B2 (3): Ala +38, Ola −35, Ela −3;
  round E — Ela out, Ala K9 (9), Ola B3 (3): Ela +12, Ala −9, Ola −3.
  After A, E: Ala 29, Ola −38, Ela 9. The players end the series: the highest total wins, Ala.
- Gin (§5, seed preset): Ala gins twice against Bob's 30 deadwood: 2 × (25 + 30) = 110 in the
  rounds; at the end game bonus 100, 2 boxes × 25, shutout 100: Ala 360, Bob 0.
- Rummy 101 (§3): Ola goes out, Ala melded and holds 20: Ala 20, Ola 0 … (the sheet's
  numbers, as tests/test_views.py has them); one agreed round ends the game.
"""

from __future__ import annotations

import json
from typing import Any

import flet as ft
import pytest

from app import backup, games
from app.games import Game
from app.store import Store
from app.ui.referee import checkers
from app.ui.referee.checkers import CheckHome, kind_blurb
from app.ui.sheet import game_end
from app.ui.sheet.chart import TotalsChart, chart_points
from app.ui.sheet.export import ImportDialog
from app.ui.sheet.score_sheet import ScoreSheet, describe_change
from app.ui.shell import App
from tests.test_views import rummy101_round, screen_text, start_game, visible_texts
from tests.test_watchers import check_same, watcher

PLAYERS = ["Ala", "Ola", "Ela"]


def tiles_entry(winner: str, racks: dict[str, list[str]]) -> dict[str, Any]:
    return {
        "players": [
            {"name": p, "winner": True} if p == winner else {"name": p, "hand": racks.get(p, [])}
            for p in PLAYERS
        ]
    }


ROUND_A = tiles_entry("Ala", {"Ola": ["R5", "JK"], "Ela": ["B1", "B2"]})
ROUND_E = tiles_entry("Ela", {"Ala": ["K9"], "Ola": ["B3"]})


def stored_series(store: Store, variant: str = "tile_rummy", **options: Any) -> Game:
    game = games.new_game(variant, PLAYERS, options or None)
    for entry in (ROUND_A, ROUND_E):
        game = games.add_round(game, entry)
    return store.create_game(game)


def sheet_of(app: App, game: Game) -> ScoreSheet:
    app.go(f"/game/{game.id}")
    sheet = app.screen
    assert isinstance(sheet, ScoreSheet), screen_text(app)
    return sheet


def press(control: Any) -> None:
    """Tap a button (or the button inside a row)."""
    if isinstance(control, ft.Row):
        control = control.controls[0]
    control.on_click(None)


def accept(app: App) -> None:
    """Tap the dialog's last (confirming) button."""
    assert app.dialog is not None
    press(app.dialog.actions[-1])


# -- point 9: ending a game, one more round, play again ------------------------------------------
def test_a_tile_rummy_series_is_ended_from_the_sheet_after_a_confirmation(
    app: App, store: Store
) -> None:
    game = stored_series(store)
    sheet = sheet_of(app, game)
    assert not sheet.standings.finished and sheet.enter_button is not None
    end = sheet.end_actions.end_button
    assert end is not None and sheet.end_actions.again_button is None
    press(end)
    dialog = app.dialog
    assert dialog is not None and dialog.title.value == "End the game now?"  # type: ignore[union-attr]
    text = dialog.content.value  # type: ignore[union-attr]
    assert "Ala wins with 29 points." in text and "highest total wins" in text
    assert store.load_game(game.id).ended is False  # nothing changed before the "yes"
    accept(app)
    stored = store.load_game(game.id)
    assert stored.ended is True and stored.version == game.version + 1
    sheet = app.screen  # type: ignore[assignment]
    assert isinstance(sheet, ScoreSheet)
    assert sheet.standings.finished and sheet.standings.winners == ("Ala",)
    assert sheet.enter_button is None and sheet.end_actions.end_button is None
    assert "Ala wins!" in screen_text(app)
    assert "The game is over" in app.messages
    # the undo button says what it takes back, and takes it back
    step = games.last_change(stored)
    assert step is not None
    assert describe_change(stored, step) == "open the game again: it was ended after round 2"
    sheet.undo_now()
    assert store.load_game(game.id).ended is False


def test_only_games_without_an_end_of_their_own_can_be_ended(app: App, store: Store) -> None:
    my = stored_series(store, "my_rummy")
    assert game_end.can_end(my)
    # My Rummy: the winner does not collect (§4, seed 004): Ala −9, Ola −38, Ela −3 → Ela
    assert game_end.end_preview(my).winners == ("Ela",)
    r101 = games.new_game("rummy101", ["Ala", "Ola"])
    assert not game_end.can_end(r101)  # no round yet
    sheet = start_game(app, "gin", ["Ala", "Bob"])
    assert not game_end.can_end(sheet.game) and sheet.end_actions.end_button is None


def test_one_more_round_extends_an_ended_series_and_it_ends_again(app: App, store: Store) -> None:
    game = store.save_game(game_end.end_now(stored_series(store)), 1)
    sheet = sheet_of(app, game)
    more = sheet.end_actions.more_button
    assert more is not None and sheet.end_actions.again_button is not None
    press(more)
    stored = store.load_game(game.id)
    assert stored.ended is False and stored.options["games"] == 3
    sheet = app.screen  # type: ignore[assignment]
    assert isinstance(sheet, ScoreSheet) and not sheet.standings.finished
    assert sheet.enter_button is not None
    assert "3 rounds agreed" in screen_text(app)
    assert "One more round: round 3 is the last." in app.messages
    step = games.last_change(stored)
    assert step is not None and describe_change(stored, step) == "put the agreed end back as it was"
    # round 3 (A again: Ala 67, Ola −73, Ela 6) ends it: the agreed number is played
    stored = store.save_game(games.add_round(stored, ROUND_A), stored.version)
    st = games.standings(stored)
    assert st.finished and st.winners == ("Ala",) and st.totals["Ala"] == 67


def test_rummy101_agreed_rounds_get_one_more(app: App) -> None:
    sheet = start_game(app, "rummy101", ["Ala", "Ola"])
    assert game_end.one_more_round(sheet.game) is None  # no rounds: nothing to extend
    app.go("/new")
    ng: Any = app.screen
    ng.variant.pick("rummy101")
    ng.count.set(2, notify=True)
    ng.names[0].value, ng.names[1].value = "Ala", "Ola"
    ng.end_rounds.value = "1"
    ng.start()
    sheet = rummy101_round(app, app.screen, "Ola", {"Ala": 20})  # type: ignore[arg-type]
    assert sheet.standings.finished and sheet.standings.finished_by == "judge"
    more = sheet.end_actions.more_button
    assert more is not None
    press(more)
    sheet = app.screen  # type: ignore[assignment]
    assert isinstance(sheet, ScoreSheet) and sheet.game.agreed_rounds == 2
    assert not sheet.standings.finished and sheet.enter_button is not None
    # the agreement at the start was 1 round: playing again keeps that, not the 2
    assert game_end.agreed_at_start(sheet.game) == (1, None)
    again = game_end.replay(sheet.game)
    assert again.agreed_rounds == 1


def test_no_more_round_where_a_target_ended_the_game(app: App) -> None:
    sheet: Any = start_game(app, "gin", ["Ala", "Bob"])
    for _ in range(2):  # two gins, 55 each: 110 ≥ 100
        sheet._enter()
        entry: Any = app.screen
        f = entry.form
        f.knocker.pick("Ala")
        f.mode.pick("deadwood")
        f.deadwood["Ala"].value = "0"
        f.gin_kind["Ala"].pick("gin")
        f.deadwood["Bob"].value = "30"
        assert entry.check()
        entry.save()
        sheet = app.screen
    assert sheet.standings.finished
    assert sheet.end_actions.more_button is None  # gin ends at its target
    assert sheet.end_actions.again_button is not None


def test_play_again_starts_the_same_game_with_the_next_dealer(app: App, store: Store) -> None:
    game = store.save_game(
        game_end.end_now(stored_series(store, preset="tiles50", joker_penalty=25)), 1
    )
    sheet = sheet_of(app, game)
    again = sheet.end_actions.again_button
    assert again is not None
    press(again)
    new = app.screen
    assert isinstance(new, ScoreSheet) and new.game.id != game.id
    assert new.game.players == PLAYERS and new.game.variant == "tile_rummy"
    assert new.game.options == game.options  # tiles50, joker 25; no agreed end either
    assert new.game.options["games"] is None and not new.game.ended
    # two rounds were played, dealt by seats 0, 1: seat 2 (Ela) starts the new game
    assert new.game.first_dealer == 2 and new.game.rounds == []
    assert "Round 1: Ela starts" in screen_text(app)
    assert len(store.list_games()) == 2


def test_a_watching_phone_sees_the_end_and_the_extension(store: Store) -> None:
    game = stored_series(store)
    app = watcher(store)
    sheet = ScoreSheet(app, store.load_game(game.id))
    assert sheet.end_actions.end_button is None  # a watcher changes nothing
    game = store.save_game(game_end.end_now(game), game.version)
    fresh = check_same(app, sheet, store, game.id)
    assert sheet.standings.finished and "Ala wins!" in visible_texts(sheet.view)
    assert fresh.end_actions.again_button is None and fresh.end_actions.more_button is None
    more = game_end.one_more_round(game)
    assert more is not None
    game = store.save_game(more, game.version)
    check_same(app, sheet, store, game.id)
    assert not sheet.standings.finished


# -- point 10: the chart ends on the totals --------------------------------------------------------
def test_the_chart_ends_on_the_totals_with_the_game_end_bonuses() -> None:
    running = [{"Ala": 55, "Bob": 0}, {"Ala": 110, "Bob": 0}]
    final = {"Ala": 360, "Bob": 0}  # +100 game, +50 boxes, +100 shutout
    points = chart_points(["Ala", "Bob"], running, final=final)
    assert points == {
        "Ala": [(0, 0), (1, 55), (2, 110), (3, 360)],
        "Bob": [(0, 0), (1, 0), (2, 0), (3, 0)],
    }
    chart = TotalsChart(["Ala", "Bob"], running, final)
    assert chart.chart.max_x == 3 and chart.chart.max_y is not None and chart.chart.max_y >= 360
    assert [s.points[-1].y for s in chart.series] == [360, 0]
    axis: Any = chart.chart.bottom_axis
    assert [lab.label.value for lab in axis.labels] == ["0", "1", "2", "end"]
    assert "now Ala 360, Bob 0" in str(chart.control.label)
    # no bonuses: no extra point; totals that catch up later reuse the round points
    plain = chart_points(["Ala", "Bob"], running, final={"Ala": 110, "Bob": 0})
    assert plain["Ala"][-1] == (2, 110)
    chart.set_totals([*running, {"Ala": 130, "Bob": 0}], {"Ala": 130, "Bob": 0})
    assert chart.chart.max_x == 3
    axis = chart.chart.bottom_axis
    assert [lab.label.value for lab in axis.labels] == ["0", "1", "2", "3"]


def test_the_sheets_chart_last_point_is_the_big_total(app: App) -> None:
    test_no_more_round_where_a_target_ended_the_game(app)
    sheet = app.screen
    assert isinstance(sheet, ScoreSheet) and sheet.chart is not None
    last = {p: sheet.chart.points[p][-1][1] for p in sheet.game.players}
    assert last == {"Ala": 360, "Bob": 0} == sheet.standings.totals
    assert {p: t.value for p, t in sheet.total_texts.items()} == {"Ala": "360", "Bob": "0"}


# -- point 11: import from a file, a game that is here already -------------------------------------
def exported(store: Store) -> tuple[Game, bytes]:
    game = stored_series(store)
    return game, games.export_json(game).encode("utf-8")


def test_a_chosen_file_is_imported_under_its_own_id(app: App, store: Store, tmp_path: Any) -> None:
    game, data = exported(store)
    store.delete_game(game.id)
    imp = ImportDialog(app)
    imp.open()
    imp.import_data(data)
    sheet = app.screen
    assert isinstance(sheet, ScoreSheet) and sheet.game.id == game.id
    assert {p: t.value for p, t in sheet.total_texts.items()} == {
        "Ala": "29",
        "Ola": "\u221238",
        "Ela": "9",
    }
    assert "Game imported" in app.messages


def test_a_broken_file_says_why_at_the_dialog(app: App) -> None:
    imp = ImportDialog(app)
    imp.open()
    imp.import_data(b"\xff\xfe not text")
    assert imp.status.visible and "Not imported" in str(imp.status.value)
    imp.import_data(b'{"format": "something else"}')
    assert "not a game exported by this app" in str(imp.status.value)
    imp.text.value = ""
    imp.do_import()
    assert imp.text.error == "Choose the file, or paste the text of a JSON export"


def test_importing_a_game_that_is_here_offers_skip_or_keep_both(app: App, store: Store) -> None:
    game, data = exported(store)
    imp = ImportDialog(app)
    imp.open()
    imp.import_data(data)
    dialog = app.dialog
    assert dialog is not None and dialog.title.value == "This game is here already"  # type: ignore[union-attr]
    body = " ".join(visible_texts(dialog.content))
    assert "Tile Rummy: Ala, Ola, Ela" in body and "2 rounds here, 2 in the file" in body
    assert imp.found is not None and imp.found.id == game.id
    press(dialog.actions[-1])  # Skip
    assert len(store.list_games()) == 1
    assert isinstance(app.screen, ScoreSheet) and app.screen.game.id == game.id
    assert "Not imported: the game is here already" in app.messages
    # again, keeping both: a second game, a new id, the same rounds
    imp = ImportDialog(app)
    imp.text.value = data.decode()
    imp.do_import()
    assert app.dialog is not None
    press(app.dialog.actions[0])  # Keep both
    ids = {s.id for s in store.list_games()}
    assert len(ids) == 2 and game.id in ids
    copy = app.screen
    assert isinstance(copy, ScoreSheet) and copy.game.id != game.id
    assert copy.standings.totals == {"Ala": 29, "Ola": -38, "Ela": 9}


def test_a_later_export_of_the_same_game_is_recognised(store: Store) -> None:
    game, _data = exported(store)
    later = games.add_round(game, ROUND_A)
    text = games.export_json(later)
    # the other device's copy had a new id (imported there): the start still matches
    doc = json.loads(text)
    doc["game"]["id"] = "0" * 32
    read, file_id = backup.read_one(json.dumps(doc))
    assert file_id == "0" * 32 and len(read.rounds) == 3
    found = backup.already_here(store, read, file_id)
    assert found is not None and found.id == game.id and found.round_count == 2
    other = games.new_game("tile_rummy", ["Ala", "Ola"])
    assert backup.already_here(store, other, None) is None


# -- point 6: the referee menu ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("variant", "kind", "has", "lacks"),
    [
        ("rummy101", "meld", ["pair", "joker"], []),
        ("rummy101", "opening", ["101 points or 5 pairs", "taken discard"], []),
        ("tile_rummy", "meld", ["joker"], ["pair"]),
        ("tile_rummy", "opening", ["30 points", "own tiles"], ["pair", "discard"]),
        ("my_rummy", "opening", ["30 points"], ["pair", "discard"]),
        ("gin", "meld", ["Run or group"], ["joker", "pair"]),
        ("gin", "hand", ["deadwood ≤ 9"], ["joker"]),
        ("carousel", "hand", ["hand value ≤ 5"], ["deadwood"]),
        ("carousel", "meld", ["joker"], ["pair"]),
    ],
)
def test_menu_subtitles_fit_the_variant(
    variant: str, kind: str, has: list[str], lacks: list[str]
) -> None:
    text = kind_blurb(kind, variant)
    for word in has:
        assert word in text, text
    for word in lacks:
        assert word not in text.lower(), text


def test_menu_subtitles_follow_the_options() -> None:
    assert "50 points" in kind_blurb("opening", "tile_rummy", {"preset": "tiles50"})
    assert "deadwood ≤ 10" in kind_blurb("hand", "gin", {"preset": "modern"})
    assert "121 points or 6 pairs" in kind_blurb(
        "opening", "rummy101", {"threshold": 121, "pairs_needed": 6}
    )


def test_the_menu_remembers_the_variant_of_this_device(app: App, store: Store) -> None:
    app.go("/check")
    home = app.screen
    assert isinstance(home, CheckHome) and home.variant == "rummy101"
    assert home.chips is not None
    home.chips.pick("gin")
    assert app.device[checkers.VARIANT_PREF] == "gin"
    assert sorted(home.buttons) == ["hand", "meld"]
    app.go("/")
    app.go("/check")
    home = app.screen
    assert isinstance(home, CheckHome) and home.variant == "gin"
    assert home.chips is not None and home.chips.value == "gin"
    texts = " ".join(visible_texts(home.view))
    assert "deadwood ≤ 9" in texts and "pair" not in texts
    # a checker opened without a variant starts on it too; changing it there is kept
    app.go("/check/meld")
    meld: Any = app.screen
    assert meld.variant == "gin"
    meld.variant_chips.pick("carousel")
    assert app.device[checkers.VARIANT_PREF] == "carousel"
    # a link naming the variant, or a game's referee, do not change the kept one
    app.go("/check?variant=tile_rummy")
    assert app.screen.variant == "tile_rummy"  # type: ignore[union-attr]
    game = stored_series(store)
    app.go(f"/check?game={game.id}")
    assert app.screen.variant == "tile_rummy"  # type: ignore[union-attr]
    assert app.device[checkers.VARIANT_PREF] == "carousel"
    # another device (a new session) has its own
    other = App(store)
    other.go("/check")
    assert other.screen.variant == "rummy101"  # type: ignore[union-attr]
