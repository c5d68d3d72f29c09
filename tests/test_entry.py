"""Round entry and new-game logic without a browser (issue 10, points 2–4): every bad field
flagged together, no red on an untouched form, names kept as typed, drafts kept per game.

Built like tests/test_views.py: ``App(store)`` with no page, control values set, handlers
called, controls read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.store import Store
from app.ui.entry.round_entry import RoundEntry
from app.ui.home.new_game import NewGame
from app.ui.sheet.score_sheet import ScoreSheet
from app.ui.shell import App
from tests.conftest import walk
from tests.test_views import gin_deadwood, open_entry, rummy101_round, screen_text, start_game


def text_errors(entry: RoundEntry) -> list[Any]:
    """Every text field of the form with an error shown."""
    import flet as ft

    out = []
    for c in entry.form.controls:
        for x in walk(c):
            if isinstance(x, ft.TextField) and x.error:
                out.append(x)
    return out


# -- point 3: errors at once and all together ------------------------------------------------------
def test_a_fresh_form_shows_no_red_and_typing_keeps_empty_fields_quiet(app: App) -> None:
    sheet = start_game(app, "rummy101", ["Ala", "Ola", "Ela"])
    entry = open_entry(app, sheet)
    f: Any = entry.form
    assert text_errors(entry) == [] and not f.error.visible
    f.winner.pick("Ala")
    f.opened["Ola"].pick("melds")  # her points field appears, still empty: no red yet
    assert text_errors(entry) == []
    assert not any(t.visible for t in f.opened_error.values())
    # a typed mistake is flagged as it is typed, before any press
    f.rests["Ola"].value.value = "12a"
    f.changed()
    assert "12a" in f.rests["Ola"].value.error
    f.rests["Ola"].value.value = "12"
    f.changed()
    assert f.rests["Ola"].value.error is None


def test_rummy101_every_missing_field_is_flagged_in_one_press(app: App) -> None:
    sheet = start_game(app, "rummy101", ["Ala", "Ola", "Ela", "Iza"])
    entry = open_entry(app, sheet)
    f: Any = entry.form
    f.winner.pick("Ala")
    f.opened["Ola"].pick("melds")  # points left empty
    f.opened["Ela"].pick("pairs")
    f.rests["Ela"].value.value = "x"  # not a number
    # Iza: opening not tapped
    assert not entry.check()
    assert f.rests["Ola"].value.error == "Enter a number"
    assert "x" in f.rests["Ela"].value.error
    assert f.opened_error["Iza"].visible
    assert entry.error.visible
    # fixing one field leaves the others flagged (the flags follow every edit after a press)
    f.rests["Ola"].value.value = "10"
    f.changed()
    assert f.rests["Ola"].value.error is None
    assert "x" in f.rests["Ela"].value.error and f.opened_error["Iza"].visible
    f.opened["Iza"].pick("none")
    assert not f.opened_error["Iza"].visible


def test_gin_missing_knocker_and_bad_hands_are_flagged_together(app: App) -> None:
    sheet = start_game(app, "gin", ["Ala", "Bob"])
    entry = open_entry(app, sheet)
    f: Any = entry.form
    f.hands["Ala"].pieces.field.value = "AS 2S ZZ"
    assert not entry.check()
    assert f.error.visible and "knocked" in f.error.value  # who knocked: not tapped
    assert "ZZ" in f.hands["Ala"].pieces.field.error  # and the hand, in the same press
    assert f.hands["Bob"].pieces.field.error  # and the empty hand
    # only the knocker missing: the message says what to tap
    entry = open_entry(app, sheet)
    f = entry.form
    f.mode.pick("deadwood")
    f.deadwood["Ala"].value = "5"
    f.deadwood["Bob"].value = "20"
    assert not entry.check()
    assert "knocked" in entry.error.content.value  # type: ignore[union-attr]


def test_carousel_missing_knocker_and_bad_card_together(app: App) -> None:
    sheet = start_game(app, "carousel", ["Ala", "Bob", "Cyd"])
    entry = open_entry(app, sheet)
    f: Any = entry.form
    f.hands["Bob"].pieces.field.value = "3S 4S QQ"
    assert not entry.check()
    assert f.error.visible
    assert "QQ" in f.hands["Bob"].pieces.field.error


def test_one_turn_finish_says_why_the_opening_choice_is_gone(app: App) -> None:
    sheet = start_game(app, "rummy101", ["Ala", "Ola", "Ela"])
    entry = open_entry(app, sheet)
    f: Any = entry.form
    f.winner.pick("Ala")
    for p in ("Ola", "Ela"):
        assert f.opened_label[p].visible and not f.one_turn_note[p].visible
    f.finish.pick("one_turn")
    for p in ("Ola", "Ela"):
        assert not f.opened_label[p].visible and not f.opened[p].control.visible
        assert f.one_turn_note[p].visible and "one turn" in f.one_turn_note[p].value
    f.finish.pick("normal")
    assert f.opened_label["Ola"].visible and not f.one_turn_note["Ola"].visible
    assert isinstance(app.screen, RoundEntry) and isinstance(sheet, ScoreSheet)
    assert not isinstance(app.screen, NewGame)


# -- point 4: names as typed -------------------------------------------------------------------
def test_names_are_kept_as_typed(app: App) -> None:
    sheet = start_game(app, "rummy101", ["van Dijk", "z Wielkopolski", "Ewa"])
    assert list(sheet.game.players) == ["van Dijk", "z Wielkopolski", "Ewa"]
    app.go("/new")
    ng: Any = app.screen
    import flet as ft

    assert all(f.capitalization == ft.TextCapitalization.NONE for f in ng.names)
    assert all(f.max_length is None for f in ng.names)  # nothing is cut while typing


def test_a_name_over_the_limit_is_refused_with_a_message_not_cut(app: App, store: Store) -> None:
    app.go("/new")
    ng: Any = app.screen
    ng.variant.pick("rummy101")
    ng.count.set(2, notify=True)
    ng.names[0].value = "A" * 40  # exactly at the limit: fine
    ng.names[1].value = "B" * 41
    ng._names_changed()
    assert ng.names[0].error is None
    assert ng.names[1].error == "A name can have at most 40 characters; this one has 41."
    ng.start()
    assert isinstance(app.screen, NewGame) and store.list_games() == []
    assert ng.names[1].value == "B" * 41  # kept as typed, to be shortened by the player
    ng.names[1].value = "B" * 40
    ng._names_changed()
    ng.start()
    assert isinstance(app.screen, ScoreSheet)
    assert list(app.screen.game.players) == ["A" * 40, "B" * 40]


@pytest.mark.parametrize("name", ["Ola 😀", "👨‍👩‍👧", "Jan ♥", "Ewa ★", "🇵🇱 Kuba", "Ala 👍🏽", "1️⃣"])
def test_emoji_and_symbols_are_refused_with_the_reason(app: App, name: str) -> None:
    app.go("/new")
    ng: Any = app.screen
    ng.count.set(2, notify=True)
    ng.names[0].value = name
    ng.names[1].value = "Ewa"
    ng._names_changed()
    assert "emoji" in ng.names[0].error and "empty box" in ng.names[0].error
    assert ng.names[1].error is None
    ng.start()
    assert isinstance(app.screen, NewGame)


@pytest.mark.parametrize(
    "name", ["Łucja Żółć", "Šimon Ďurček", "Zoë O'Neil-Smith", "© Bob 2", "Αλέξης"]
)
def test_letters_of_every_kind_are_fine(name: str) -> None:
    from app import games
    from app.ui.home.new_game import name_problem

    assert games.unshowable(name) == [] and name_problem(name) is None


# -- point 13: the share screen's start hint ---------------------------------------------------
def test_share_screen_start_hint_matches_the_readme(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app import live

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    assert "./run.sh --host 0.0.0.0" in readme
    monkeypatch.setattr(live, "SERVER", live.ServerInfo("127.0.0.1", 8550))
    app.go("/share")
    text = screen_text(app)
    assert "Phones cannot reach the app now" in text
    assert "start it with: ./run.sh --host 0.0.0.0" in text
    assert "python -m app" not in text


# -- point 2: drafts ---------------------------------------------------------------------------
def test_a_rummy101_draft_comes_back_in_a_new_screen(app: App) -> None:
    from app.ui.entry.round_entry import form_state

    sheet = start_game(app, "rummy101", ["Ala", "Ola", "Ela"])
    entry = open_entry(app, sheet)
    f: Any = entry.form
    assert not entry.dirty
    f.winner.pick("Ela")
    f.finish.pick("joker")
    f.opened["Ala"].pick("pairs")
    f.rests["Ala"].mode.pick("tiles")
    f.rests["Ala"].tiles.field.value = "R5 B7"
    f.changed()
    f.opened["Ola"].pick("melds")
    f.rests["Ola"].value.value = "9"
    f.rests["Ola"].jokers.set(1, notify=True)
    assert entry.dirty
    draft = entry.draft()
    assert draft["round"] == 1 and draft["base"] == 0 and draft["game"] == sheet.game.id
    json_text = __import__("json").dumps(draft)
    again = open_entry(app, sheet)
    assert again.restore(json_text)
    g: Any = again.form
    assert form_state(g) == form_state(f)
    assert g.winner.value == "Ela" and g.finish.value == "joker"
    assert not g.blocks["Ela"].visible  # the winner's block hidden again
    assert g.rests["Ala"].tiles.field.visible and not g.rests["Ala"].value_box.visible
    assert g.rests["Ola"].control.visible and g.rests["Ola"].jokers.value == 1
    assert again.draft_note.visible and again.dirty
    # what it restores scores like what was typed: §3 joker finish ×2: Ela +202;
    # Ala pairs 2×12 = 24 → −48; Ola 9 + 101 = 110 → −220
    assert again.check()
    assert again.result is not None
    assert again.result.entry == entry.form.entry()


@pytest.mark.parametrize(
    ("variant", "names"),
    [("gin", ["Ala", "Bob"]), ("carousel", ["Ala", "Bob", "Cyd"]), ("tile_rummy", ["Ala", "Bob"])],
)
def test_drafts_of_every_variant_round_trip(app: App, variant: str, names: list[str]) -> None:
    from app.ui.entry.round_entry import form_state

    sheet = start_game(app, variant, names)
    entry = open_entry(app, sheet)
    f: Any = entry.form
    if variant == "gin":
        f.knocker.pick("Bob")
        f.hands["Ala"].pieces.field.value = "AS 2S 3S"
    elif variant == "carousel":
        f.knocker.pick("Cyd")
        f.hands["Bob"].pieces.field.value = "3S 4S 5S KD"
    else:
        f.outcome.pick("Bob")
        f.rests["Ala"].value.value = "17"
        f.penalties["Ala"].set(2, notify=True)
    f.changed()
    state = form_state(f)
    assert state  # something was kept
    again = open_entry(app, sheet)
    assert again.restore(entry.draft())
    assert form_state(again.form) == state
    if variant == "carousel":
        assert again.form.hands["Cyd"].knocker  # type: ignore[attr-defined]
    if variant == "gin":
        assert again.form.hands["Ala"].info.value  # type: ignore[attr-defined]


def test_a_draft_for_a_round_saved_since_is_not_restored(app: App, store: Store) -> None:
    sheet = start_game(app, "rummy101", ["Ala", "Ola"])
    entry = open_entry(app, sheet)
    entry.form.winner.pick("Ola")  # type: ignore[attr-defined]
    old = entry.draft()
    # round 1 saved (here, or by another phone: the store has it either way)
    sheet = rummy101_round(app, sheet, "Ala", {"Ola": 5})
    entry = open_entry(app, sheet)
    assert not entry.restore(old)
    assert entry.form.winner.value is None  # type: ignore[attr-defined]
    assert not entry.draft_note.visible
    assert not entry.restore("not json") and not entry.restore({"v": 99})


def test_a_draft_does_not_overwrite_what_was_typed_meanwhile(app: App) -> None:
    sheet = start_game(app, "rummy101", ["Ala", "Ola"])
    entry = open_entry(app, sheet)
    entry.form.winner.pick("Ola")  # type: ignore[attr-defined]
    old = entry.draft()
    again = open_entry(app, sheet)
    again.form.winner.pick("Ala")  # type: ignore[attr-defined]
    assert not again.restore(old)
    assert again.form.winner.value == "Ala"  # type: ignore[attr-defined]


# -- two tabs of one browser (session 11): each keeps its own draft, merged field by field ------
class _Clock:
    """A clock for the draft times: each look one second later (the order of edits is what
    the merge goes by, not how fast a test types)."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def time(self) -> float:
        self.now += 1.0
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> _Clock:
    from app.ui.entry import round_entry

    c = _Clock()
    monkeypatch.setattr(round_entry, "time", c)
    return c


def _tab(store: Store, game_id: str) -> RoundEntry:
    """Another tab of the same browser (another session) on the entry of round N."""
    other = App(store)
    other.go(f"/game/{game_id}/round")
    entry = other.screen
    assert isinstance(entry, RoundEntry) and entry.app.tab != ""
    return entry


def _ala_won_then_tab(
    app: App, store: Store, then: Any = None
) -> tuple[ScoreSheet, RoundEntry, RoundEntry]:
    """Rummy 101, Ala and Ola: tab A enters Ala as the winner (and ``then(form)``), then a
    second tab opens the entry (nothing restored yet)."""
    sheet = start_game(app, "rummy101", ["Ala", "Ola"])
    a = open_entry(app, sheet)
    f: Any = a.form
    f.winner.pick("Ala")
    if then is not None:
        then(f)
    return sheet, a, _tab(store, sheet.game.id)


def test_two_tabs_lose_nothing_of_each_other(app: App, store: Store, clock: _Clock) -> None:
    """The wipe found by a tester: tab A enters the winner and Ola's melds; tab B (opened
    after, so it reads A's draft) types Ola's points; A (which never saw them) then marks
    Ela not opened. One shared draft written whole by A dropped B's points; per-tab drafts
    merged field by field keep all three."""
    from app.ui.entry.round_entry import draft_key, form_state

    sheet = start_game(app, "rummy101", ["Ala", "Ola", "Ela"])
    gid = sheet.game.id
    a = open_entry(app, sheet)
    fa: Any = a.form
    fa.winner.pick("Ala")
    fa.opened["Ola"].pick("melds")
    b = _tab(store, gid)
    assert b.draft_key != a.draft_key and b.draft_key == draft_key(gid, 0, b.app.tab)
    assert b.restore([a.draft()])  # what B's browser held when B opened the entry
    fb: Any = b.form
    fb.rests["Ola"].value.value = "23"
    fb.changed()
    fa.opened["Ela"].pick("none")  # A goes on without B's points
    fa.changed()
    assert "rests/Ola/value" not in a.draft()["state"]
    c = _tab(store, gid)  # a tab opened later reads both drafts
    assert c.restore([a.draft(), b.draft()])
    fc: Any = c.form
    assert fc.winner.value == "Ala" and fc.opened["Ola"].value == "melds"
    assert fc.rests["Ola"].value.value == "23" and fc.opened["Ela"].value == "none"
    # the order the drafts are read in does not matter
    d = _tab(store, gid)
    assert d.restore([b.draft(), a.draft()])
    assert form_state(d.form) == form_state(c.form)
    # §3: Ala wins +101 ... Ola melds −23, Ela not opened −202: the merged round scores
    assert c.check() and c.result is not None


def test_the_later_change_of_one_field_wins_an_emptied_field_too(
    app: App, store: Store, clock: _Clock
) -> None:
    sheet, a, b = _ala_won_then_tab(app, store, lambda f: f.opened["Ola"].pick("melds"))
    fa: Any = a.form
    fa.rests["Ola"].value.value = "40"
    fa.changed()
    assert b.restore(a.draft())
    fb: Any = b.form
    fb.rests["Ola"].value.value = ""  # B empties the points after A typed them
    fb.changed()
    fa.winner.pick("Ola")  # and A changes the winner after that
    fa.changed()
    for order in ([a.draft(), b.draft()], [b.draft(), a.draft()]):
        c = _tab(store, sheet.game.id)
        assert c.restore(order)
        fc: Any = c.form
        assert fc.winner.value == "Ola" and not fc.rests["Ola"].value.value


def test_discard_in_one_tab_hides_what_was_entered_before_it_everywhere(
    app: App, store: Store, clock: _Clock
) -> None:
    sheet, a, b = _ala_won_then_tab(app, store)
    fa: Any = a.form
    assert b.restore(a.draft())
    b.form.opened["Ola"].pick("melds")  # type: ignore[attr-defined]
    gone = b.discard()  # "Discard" in B
    assert gone["state"] == {} and gone["cleared"] is not None
    c = _tab(store, sheet.game.id)
    assert not c.restore([a.draft(), gone])  # nothing left to bring back
    assert c.form.winner.value is None and not c.draft_note.visible  # type: ignore[attr-defined]
    # a change made after the discard comes back, and the discard stays in force in the
    # draft of the tab that read it
    fa.opened["Ola"].pick("none")
    fa.changed()
    c2 = _tab(store, sheet.game.id)
    assert c2.restore([gone, a.draft()])
    f2: Any = c2.form
    assert f2.opened["Ola"].value == "none" and f2.winner.value is None
    assert c2.draft()["cleared"] == gone["cleared"]


def test_a_draft_of_the_old_one_per_game_kind_still_comes_back(
    app: App, store: Store, clock: _Clock
) -> None:
    sheet = start_game(app, "rummy101", ["Ala", "Ola"])
    old = {
        "v": 1,
        "game": sheet.game.id,
        "base": 0,
        "round": 1,
        "state": {"winner": "Ola", "opened/Ala": "pairs"},
    }
    a = open_entry(app, sheet)
    assert a.restore(__import__("json").dumps(old))
    assert a.form.winner.value == "Ola"  # type: ignore[attr-defined]
    b = _tab(store, sheet.game.id)
    b.form.winner.pick("Ala")  # type: ignore[attr-defined]
    c = _tab(store, sheet.game.id)
    assert c.restore([old, b.draft()])  # any change since beats the old draft
    assert c.form.winner.value == "Ala"  # type: ignore[attr-defined]
    assert c.form.opened["Ala"].value == "pairs"  # type: ignore[attr-defined]


def test_broken_or_foreign_drafts_are_left_out(app: App, clock: _Clock) -> None:
    from app.ui.entry.round_entry import draft_key, draft_key_base, merge_drafts

    sheet = start_game(app, "rummy101", ["Ala", "Ola"])
    game = sheet.game
    good = {"v": 2, "game": game.id, "base": 0, "round": 1}
    bad: list[Any] = [
        None,
        "{not json",
        [],
        {**good, "game": "other", "state": {"winner": "Ola"}, "stamps": {"winner": 5}},
        {**good, "base": 3, "state": {"winner": "Ola"}, "stamps": {"winner": 5}},
        {**good, "v": 9, "state": {"winner": "Ola"}, "stamps": {"winner": 5}},
        {**good, "state": "winner"},
        # forged in the phone's storage (hostile tester, session 12): nested too deep for the
        # JSON reader (a RecursionError, not a ValueError), and longer than any draft
        "[" * 19999,
        '{"a":' * 4000,
        json.dumps({**good, "state": {"winner": "Ola" + "x" * 300_000}, "stamps": {"winner": 5}}),
    ]
    assert merge_drafts(bad, game) is None
    odd_times = {"winner": True, "opened/Ala": -1, "opened/Ola": "5", 7: 9, "finish": float("nan")}
    merged = merge_drafts([{**good, "state": {"winner": "Ola"}, "stamps": odd_times}], game)
    assert merged is not None and merged["stamps"] == {} and merged["state"] == {}
    entry = open_entry(app, sheet)
    assert not entry.restore([*bad, {**good, "state": {"winner": "Ola"}, "stamps": odd_times}])
    # a value of the wrong kind for its field is skipped, the rest restored
    assert entry.restore(
        {**good, "state": {"winner": 7, "finish": "joker"}, "stamps": {"winner": 9, "finish": 9}}
    )
    assert entry.form.winner.value is None  # type: ignore[attr-defined]
    assert entry.form.finish.value == "joker"  # type: ignore[attr-defined]
    # the key names a game, the round's base and a tab; anything else is not a draft key
    key = draft_key(game.id, 4, "ab12")
    assert draft_key_base(key, game.id) == 4
    assert draft_key_base(key, "other") is None
    assert draft_key_base(f"rummy_referee.draft.{game.id}", game.id) is None  # version 1
    assert draft_key_base(f"rummy_referee.draft.{game.id}.x.ab", game.id) is None
    assert draft_key_base(f"rummy_referee.draft.{game.id}.4", game.id) is None


def test_leaving_asks_keep_or_discard_only_after_an_edit(app: App) -> None:
    import flet as ft

    sheet = start_game(app, "rummy101", ["Ala", "Ola"])
    entry = open_entry(app, sheet)
    entry._cancel()  # nothing entered: straight back
    assert isinstance(app.screen, ScoreSheet) and app.dialog is None
    entry = open_entry(app, sheet)
    entry.form.winner.pick("Ola")  # type: ignore[attr-defined]
    # the app bar's ← asks too
    back = entry.view.appbar.leading.content  # type: ignore[union-attr]
    assert isinstance(back, ft.IconButton) and back.on_click == entry._cancel
    entry._cancel()
    assert isinstance(app.screen, RoundEntry) and app.dialog is not None
    buttons = [b.content for b in app.dialog.actions]  # type: ignore[union-attr]
    assert buttons == ["Discard", "Keep this draft"]
    entry.leave(keep=True)
    assert isinstance(app.screen, ScoreSheet) and app.dialog is None
    # editing a saved round keeps no draft and asks nothing
    sheet = app.screen
    sheet = rummy101_round(app, sheet, "Ala", {"Ola": 5})
    app.go(f"/game/{sheet.game.id}/round/1/edit")
    edit: Any = app.screen
    assert isinstance(edit, RoundEntry) and not edit.drafts
    edit.form.rests["Ola"].value.value = "6"
    edit.form.changed()
    edit._cancel()
    assert isinstance(app.screen, ScoreSheet) and app.dialog is None


# -- a double tap on "Save round N" (tester, session 5) --------------------------------------------
def _checked_gin_round(app: App) -> RoundEntry:
    """Gin, "Deadwood only": Bob knocks with 3, Ala has 20; "Show the scores" pressed."""
    sheet = start_game(app, "gin", ["Ala", "Bob"])
    entry = open_entry(app, sheet)
    gin_deadwood(entry, "Bob", {"Bob": 3, "Ala": 20})
    assert entry.check()
    return entry


def test_a_double_tap_on_save_saves_once_and_asks_nothing(app: App, store: Store) -> None:
    from app.ui.table import sharing

    entry = _checked_gin_round(app)
    entry.save()
    entry.save()  # the second tap of the same button, on the same screen
    assert sharing.open_conflict(app) is None  # not "Already saved – the host's computer…"
    assert isinstance(app.screen, ScoreSheet)
    assert len(store.load_game(entry.game.id).rounds) == 1


def test_two_taps_saving_at_the_same_moment_save_once(app: App, store: Store) -> None:
    import threading

    from app.ui.table import sharing

    entry = _checked_gin_round(app)
    start = threading.Barrier(2)

    def tap() -> None:
        start.wait()
        entry.save()

    taps = [threading.Thread(target=tap) for _ in range(2)]
    for t in taps:
        t.start()
    for t in taps:
        t.join()
    assert sharing.open_conflict(app) is None
    assert len(store.load_game(entry.game.id).rounds) == 1


def test_gin_a_9_card_and_a_3_card_hand_are_both_flagged_in_one_press(app: App) -> None:
    sheet = start_game(app, "gin", ["Ala", "Bob"])
    entry = open_entry(app, sheet)
    f: Any = entry.form
    f.knocker.pick("Bob")
    f.hands["Ala"].pieces.field.value = "AS 2S 3S 4S 5S 6S 7S 8S 9S"
    f.changed()
    f.hands["Bob"].pieces.field.value = "AH 2H 3H"
    f.changed()
    assert text_errors(entry) == []  # no red before "Show the scores"
    assert not entry.check()
    assert "9" in f.hands["Ala"].pieces.field.error
    assert "3" in f.hands["Bob"].pieces.field.error  # the second one too, in the same press
    assert entry.error.visible
    # a typo in one hand does not hide the other hand's wrong count
    f.hands["Ala"].pieces.field.value = "AS 2S ZZ"
    f.changed()
    assert "ZZ" in f.hands["Ala"].pieces.field.error
    assert "3" in f.hands["Bob"].pieces.field.error


def test_a_players_steppers_do_not_repeat_a_long_name(app: App) -> None:
    import flet as ft

    long = "Zofia Babcia Kowalska-Wiśniewska Ździebł"  # 40 characters: wrapped over 4 lines
    sheet = start_game(app, "tile_rummy", ["Ala", long])
    f: Any = open_entry(app, sheet).form
    for stepper, shown in [
        (f.rests[long].jokers, "Jokers left"),
        (f.penalties[long], "Penalty draws"),
    ]:
        text = stepper.control.controls[0]
        assert isinstance(text, ft.Text)
        assert text.value == shown and text.max_lines == 1  # the name heads the player's card
        assert text.overflow == ft.TextOverflow.ELLIPSIS
        # the buttons keep the name for a screen reader
        assert stepper.control.controls[3].label == f"{long}: {shown.lower()}: more"


# -- the rule line of the breakdown before saving (tester, session 6) ---------------------------
def test_the_rule_line_before_saving_opens_the_book_and_keeps_the_draft(app: App) -> None:
    """16-gin-r2-breakdown-pl: "Rules: Gin Rummy › Knocking" was plain text until the round
    was saved. It is the same button before saving; the rule book's ← comes back to the entry
    and what was entered is kept as the draft (restored)."""
    import flet as ft

    from app.ui.common.frame import MessageScreen
    from app.ui.entry.round_entry import form_state
    from app.ui.home.rulebook_view import RulebookView

    sheet = start_game(app, "gin", ["Ala", "Bob"])
    entry = open_entry(app, sheet)
    f = gin_deadwood(entry, "Bob", {"Bob": 5, "Ala": 30})
    f.changed()
    assert entry.check()
    buttons = [b for b in walk(entry.preview) if isinstance(b, ft.TextButton)]
    assert len(buttons) == 1 and buttons[0].icon == ft.Icons.MENU_BOOK
    words = buttons[0].content
    assert isinstance(words, ft.Text) and "Rules: Gin Rummy" in (words.value or "")
    state = form_state(entry.form)
    entry._draft_out.clear()
    click: Any = buttons[0].on_click
    click(None)
    book = app.screen
    assert isinstance(book, RulebookView) and not isinstance(book, MessageScreen)
    assert book.view.route.startswith(f"/game/{sheet.game.id}/rules/")
    assert entry._draft_out and entry._draft_out[-1] == entry.draft()  # kept before leaving
    back: Any = book.view.appbar.leading.content  # type: ignore[union-attr]
    back.on_click(None)
    again = app.screen
    assert isinstance(again, RoundEntry) and again is not entry
    assert app.route == f"/game/{sheet.game.id}/round"
    assert again.restore(entry._draft_out[-1])
    assert form_state(again.form) == state and again.draft_note.visible
    assert again.check()


def test_the_rule_book_from_elsewhere_goes_back_to_the_sheet(app: App) -> None:
    sheet = start_game(app, "gin", ["Ala", "Bob"])
    app.go(f"/game/{sheet.game.id}/rules/knock")
    back: Any = app.screen.view.appbar.leading.content  # type: ignore[union-attr]
    back.on_click(None)
    assert isinstance(app.screen, ScoreSheet)


def test_merging_drafts_is_latest_change_per_field_in_any_order(app: App) -> None:
    """Property: for drafts with distinct times, each field merged holds the value of the
    draft that changed it last, unless a discard came after; the order read never matters."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from app.ui.entry.round_entry import merge_drafts

    game = start_game(app, "rummy101", ["Ala", "Ola"]).game
    paths = ["winner", "finish", "opened/Ala", "rests/Ala/value"]
    field = st.tuples(st.sampled_from(paths), st.sampled_from(["x", "y", None]))
    one = st.tuples(st.lists(field, max_size=4), st.booleans())

    @settings(max_examples=150, deadline=None)
    @given(st.lists(one, min_size=1, max_size=4), st.randoms(use_true_random=False))
    def check(tabs: list[tuple[list[tuple[str, str | None]], bool]], rnd: Any) -> None:
        t = 0.0
        drafts, last, cleared = [], {}, None
        for fields, discards in tabs:
            state, stamps = {}, {}
            for path, value in fields:
                t += 1.0
                stamps[path] = t
                if value is None:
                    state.pop(path, None)
                else:
                    state[path] = value
                last[path] = (t, value)
            t += 1.0
            cut = t if discards else None
            if cut is not None:
                cleared = cut
            d = {"v": 2, "game": game.id, "base": 0, "round": 1, "state": state, "stamps": stamps}
            drafts.append({**d, "cleared": cut})
        rnd.shuffle(drafts)
        merged = merge_drafts(drafts, game)
        assert merged is not None and merged["cleared"] == cleared
        want = {
            p: v
            for p, (at, v) in last.items()
            if v is not None and (cleared is None or at > cleared)
        }
        assert merged["state"] == want

    check()
