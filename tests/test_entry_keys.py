"""Round entry by tapping (issue 10, points 1 and 12), without a browser: the one-key-per-piece
keyboard in every hand and "tiles left", pieces taken elsewhere marked, copies limits, drafts
with the keyboard, gin solo mode from the new-game screen to the score sheet.

Values worked out by hand from RULES.md (section named at each)."""

from __future__ import annotations

from typing import Any

from app.store import Store
from app.ui.entry.entry_forms import GinSoloForm
from app.ui.entry.round_entry import RoundEntry, form_state
from app.ui.home.new_game import NewGame
from app.ui.shell import App
from tests.test_views import open_entry, save, start_game, totals

# melds A-2-3♠, 7-7-7, 9-10-J♣; deadwood 4♦
ALA = ["AS", "2S", "3S", "7H", "7D", "7C", "9C", "10C", "JC", "4D"]
# K-K-K; 8+9+2+3+6+5+10 = 43, Q♣ lays off onto 9-10-J♣: 33
BOB = ["KS", "KH", "KD", "8H", "9H", "2D", "3C", "6C", "5H", "QC"]


def tap_all(keyboard: Any, codes: list[str]) -> None:
    for c in codes:
        assert keyboard.press(c), (c, keyboard.error.value)


def test_gin_knock_round_by_taps_hands_over_and_marks_taken_cards(app: App) -> None:
    sheet = start_game(app, "gin", ["Ala", "Bob"])
    entry = open_entry(app, sheet)
    f: Any = entry.form
    ala, bob = f.hands["Ala"].pieces.keyboard, f.hands["Bob"].pieces.keyboard
    assert ala.keys_box.visible and not bob.keys_box.visible  # the first hand's keys open
    f.knocker.pick("Ala")
    tap_all(ala, ALA)
    # the tenth card hands the one set of keys to Bob's empty hand
    pad = f.pad.board
    assert bob.keys_box.visible and not ala.keys_box.visible and pad.target is bob
    assert f.pad.title.value == "Bob" and f.pad.control.visible
    assert f.hands["Ala"].pieces.field.value == " ".join(ALA)
    # a card in Ala's hand is marked on the keys and refused for Bob (one 52-card deck)
    assert bob.copies_left()["AS"] == 0 and pad.grid_keys["AS"].opacity < 1
    assert pad.grid_spoken["AS"].label == "ace of spades, none left"
    assert bob.copies_left()["KS"] == 1 and pad.grid_spoken["KS"].label == "king of spades"
    assert not pad.press("AS") and bob.error.visible
    assert bob.pieces == [] and f.pad.line.value == bob.error.value  # said over the keys
    tap_all(pad, BOB)  # the keys' taps go to Bob's hand
    assert bob.pieces == BOB and f.pad.line.color != bob.error.color
    assert pad.grid_spoken["KS"].label == "king of spades, in this hand"
    assert not bob.keys_box.visible and not f.pad.control.visible  # every hand full
    # RULES.md §5: Ala knocks with 4, Bob 43 − Q♣ laid off = 33: Ala scores 33 − 4 = 29
    sheet = save(app, entry)
    assert totals(sheet)["Ala"] == "29" and totals(sheet)["Bob"] == "0"


def test_typing_stays_possible_and_the_keys_follow_the_text(app: App) -> None:
    sheet = start_game(app, "gin", ["Ala", "Bob"])
    entry = open_entry(app, sheet)
    f: Any = entry.form
    hand = f.hands["Ala"].pieces
    hand.field.value = "as 2s 3s"  # typed: the browser sets the value, then on_change
    hand.keyboard.type_text("as 2s 3s")
    assert hand.keyboard.pieces == ["AS", "2S", "3S"]
    assert f.hands["Bob"].pieces.keyboard.copies_left()["2S"] == 0
    # a value set on the field (a test, a draft) is drawn once the form reads it
    f.hands["Bob"].pieces.field.value = "KS KH"
    f.changed()
    assert f.hands["Bob"].pieces.keyboard.pieces == ["KS", "KH"]
    # Backspace and Clear
    hand.keyboard.backspace()
    assert hand.field.value == "AS 2S"
    hand.keyboard.clear()
    assert hand.field.value == "" and hand.keyboard.pieces == []


def test_rummy101_tiles_left_by_taps_with_the_copies_limit(app: App) -> None:
    sheet = start_game(app, "rummy101", ["Ala", "Ola", "Ela"])
    entry = open_entry(app, sheet)
    f: Any = entry.form
    f.winner.pick("Ala")
    f.opened["Ola"].pick("melds")
    f.opened["Ela"].pick("pairs")
    ola, ela = f.rests["Ola"], f.rests["Ela"]
    assert not ola.tiles.keyboard.keys_box.visible  # points first, as people count
    pad = f.pad
    assert not pad.control.visible  # no tiles to tap yet: no keys
    # one set of 53 keys for the form; no rack builds keys of its own
    assert len(pad.board.grid_keys) == 53
    assert all(not r.tiles.keyboard.grid_keys for r in f.rests.values())
    ola.mode.pick("tiles")
    assert ola.tiles.control.visible and ola.tiles.keyboard.keys_box.visible
    assert pad.control.visible and pad.target is ola.tiles.keyboard and pad.title.value == "Ola"
    tap_all(pad.board, ["R5", "R5"])
    assert pad.board.grid_spoken["R5"].label == "red 5, none left"  # 2 copies (§1)
    assert not pad.board.press("R5") and pad.line.value  # refused, said over the keys
    ela.mode.pick("tiles")  # the keys now enter Ela's tiles
    assert ela.tiles.keyboard.keys_box.visible and not ola.tiles.keyboard.keys_box.visible
    assert pad.target is ela.tiles.keyboard and pad.line.value == ""
    assert ela.tiles.keyboard.copies_left()["R5"] == 0
    tap_all(pad.board, ["B7", "JK"])
    assert pad.board.grid_spoken["JK"].label == "joker, 1 left"
    assert ola.tiles.keyboard.pieces == ["R5", "R5"] and ela.tiles.keyboard.pieces == ["B7", "JK"]
    ela.mode.pick("value")  # back to points: nothing chosen is in use, the keys go
    assert not pad.control.visible
    ela.mode.pick("tiles")
    # RULES.md §3: Ala +101 (normal finish); Ola melds, R5 R5 = −10; Ela pairs, B7 + a joker
    # in hand (101): 108, doubled for a pairs opener = −216
    sheet = save(app, entry)
    assert totals(sheet) == {"Ala": "101", "Ola": "\u221210", "Ela": "\u2212216"}


def test_a_tapped_draft_comes_back_on_the_keys(app: App) -> None:
    sheet = start_game(app, "gin", ["Ala", "Bob"])
    entry = open_entry(app, sheet)
    f: Any = entry.form
    f.knocker.pick("Bob")
    tap_all(f.hands["Ala"].pieces.keyboard, ALA[:4])
    state = form_state(f)
    assert state["hands/Ala/pieces/field"] == "AS 2S 3S 7H"
    again = RoundEntry(app, sheet.game)
    assert again.restore(entry.draft())
    g: Any = again.form
    assert g.hands["Ala"].pieces.keyboard.pieces == ALA[:4]
    assert g.hands["Bob"].pieces.keyboard.copies_left()["7H"] == 0
    tap_all(g.hands["Ala"].pieces.keyboard, ALA[4:])  # and tapping goes on from there
    assert g.hands["Ala"].pieces.field.value == " ".join(ALA)


def new_solo_game(app: App, name: str = "Ala") -> Any:
    app.go("/new")
    ng = app.screen
    assert isinstance(ng, NewGame)
    ng.variant.pick("gin")
    assert ng.options is not None
    mode = ng.options.fields["mode"]
    mode.set("solo")
    ng.options._field_changed(mode)
    assert not ng.names[1].visible  # one player against the joker: one name
    ng.names[0].value = name
    ng.start()
    return app.screen


def test_gin_solo_game_is_played_and_scored(app: App, store: Store) -> None:
    from app.ui.sheet.score_sheet import ScoreSheet

    sheet = new_solo_game(app)
    assert isinstance(sheet, ScoreSheet)
    assert sheet.game.players == ["Ala", "joker"]
    entry = open_entry(app, sheet)
    f: Any = entry.form
    assert isinstance(f, GinSoloForm)
    assert not entry.check()  # nothing chosen: how it ended and the hand are flagged together
    assert f.error.visible and f.hands["Ala"].pieces.field.error
    assert f.turned.visible and not f.turned.disabled  # there from the start: no jump
    f.result.pick("knock")
    assert f.turned.visible and not f.turned.disabled
    f.turned.value = "7"
    tap_all(f.hands["Ala"].pieces.keyboard, ALA)
    # RULES.md §5 solo: a knock scores the cards turned (7) to Ala, her deadwood (4) to the joker
    sheet = save(app, entry)
    assert totals(sheet) == {"Ala": "7", "joker": "4"}
    # the second joker first: Ala 0, the joker her deadwood (typed: 12)
    entry = open_entry(app, sheet)
    f = entry.form
    f.result.pick("second_joker")
    assert f.turned.visible and f.turned.disabled  # not asked for, and nothing moves
    f.mode.pick("deadwood")
    f.deadwood.value = "12"
    sheet = save(app, entry)
    assert totals(sheet) == {"Ala": "7", "joker": "16"}
    # a gin that turned 45 cards (the most): Ala 45, the joker 0 → 52, over a saved game
    entry = open_entry(app, sheet)
    f = entry.form
    f.result.pick("gin")
    f.turned.value = "46"
    f.mode.pick("deadwood")
    f.deadwood.value = "0"
    assert not entry.check() and f.turned.error  # 1–45 turned cards (§5 solo)
    f.turned.value = "45"
    sheet = save(app, entry)
    assert totals(sheet) == {"Ala": "52", "joker": "16"}
    assert len(store.list_games()) == 1


def test_gin_solo_refuses_the_joker_as_a_name(app: App) -> None:
    screen = new_solo_game(app, "Joker")
    assert isinstance(screen, NewGame)
    assert screen.error.visible


# -- Rummy 101 rising threshold recorded per round (RULES.md §3) -----------------------------------
OPENING_115 = [["R10", "R11", "R12", "R13"], ["B13", "K13", "Y13"], ["B9", "B10", "B11"]]
# 46 + 39 + 30 = 115 points


def test_rising_threshold_openings_are_recorded_per_round(app: App, store: Store) -> None:
    from app import games
    from app.ui.entry.round_entry import record_opening, round_openings
    from app.ui.referee.checkers import OpeningChecker

    game = store.create_game(
        games.new_game("rummy101", ["Ala", "Ola"], {"threshold_mode": "rising"})
    )
    screen = OpeningChecker(app, game)
    assert screen.highest is not None and screen.highest.value in ("", None)
    screen.melds.set_melds(OPENING_115)
    a = screen.check()
    assert a["valid"] is True and a["needed"] == 101  # nobody opened yet: 101 (§3)
    assert screen.record_button is not None and screen.record_button.visible
    assert screen.record()
    stored = store.load_game(game.id)
    assert round_openings(stored) == [{"by": "melds", "value": 115}]
    # the checker opened again knows the threshold itself: after 115 the next needs 116
    again = OpeningChecker(app, stored)
    assert again.highest is not None and again.highest.value == "115"
    again.melds.set_melds(OPENING_115)
    b = again.check()
    assert b["valid"] is False and b["needed"] == 116
    assert again.record_button is None  # nothing to record for an opening that is not valid
    # pairs rise on their own (§3): 5 pairs recorded, the melds threshold stays at 116
    stored = store.save_game(record_opening(stored, "pairs", 5), stored.version)
    third = OpeningChecker(app, stored)
    assert third.most_pairs is not None and third.most_pairs.value == "5"
    assert third.highest is not None and third.highest.value == "115"
    # the round entry shows what was recorded; once round 1 is saved, round 2 starts afresh
    from app.ui.sheet.score_sheet import ScoreSheet

    app.go(f"/game/{game.id}")
    sheet = app.screen
    assert isinstance(sheet, ScoreSheet)
    entry = open_entry(app, sheet)
    from tests.test_views import screen_text

    assert "Openings recorded this round: 115 points, 5 pairs." in screen_text(app)
    f: Any = entry.form
    f.winner.pick("Ala")
    f.opened["Ola"].pick("melds")
    f.rests["Ola"].value.value = "3"
    save(app, entry)
    after = store.load_game(game.id)
    assert round_openings(after) == []
    assert round_openings(after, 0) == [
        {"by": "melds", "value": 115},
        {"by": "pairs", "pairs": 5},
    ]


def test_a_duel_checker_records_nothing_for_a_fixed_threshold(app: App, store: Store) -> None:
    from app import games
    from app.ui.referee.checkers import OpeningChecker

    game = store.create_game(games.new_game("rummy101", ["Ala", "Ola"]))
    screen = OpeningChecker(app, game)
    screen.melds.set_melds(OPENING_115)
    assert screen.check()["valid"] is True
    assert screen.record_button is None and not screen.record()


def test_tapping_the_knocker_leaves_open_keys_where_they_are(app: App) -> None:
    # a card tapped right after the knocker lands on the keys the player sees: they do not
    # move to the other hand (tests/browser/test_entry_race.py taps it 0.2 s later)
    sheet = start_game(app, "gin", ["Ala", "Bob"])
    entry = open_entry(app, sheet)
    f: Any = entry.form
    ala, bob = f.hands["Ala"].pieces.keyboard, f.hands["Bob"].pieces.keyboard
    assert ala.keys_box.visible and not bob.keys_box.visible
    f.knocker.pick("Bob")
    assert ala.keys_box.visible and not bob.keys_box.visible
    tap_all(ala, ALA)  # Ala's tenth card hands the keys to Bob's empty hand
    assert bob.keys_box.visible and not ala.keys_box.visible
    f.knocker.pick("Ala")  # changing one's mind: the keys stay on Bob's hand
    assert bob.keys_box.visible and not ala.keys_box.visible
    tap_all(bob, BOB)  # every hand full: the keys close
    assert not ala.keys_box.visible and not bob.keys_box.visible
    sheet = save(app, entry)
    assert totals(sheet)["Ala"] == "29" and totals(sheet)["Bob"] == "0"  # RULES.md §5


def test_with_no_keys_open_the_knockers_empty_hand_gets_them(app: App) -> None:
    sheet = start_game(app, "gin", ["Ala", "Bob"])
    entry = open_entry(app, sheet)
    f: Any = entry.form
    ala, bob = f.hands["Ala"].pieces.keyboard, f.hands["Bob"].pieces.keyboard
    f.keys.open(None)  # nothing open (as after every hand was full and one was cleared)
    f.knocker.pick("Bob")
    assert bob.keys_box.visible and not ala.keys_box.visible
    f.keys.open(None)
    tap_all(bob, BOB[:3])
    f.knocker.pick("Bob")  # not empty: nothing opens
    f.knocker.pick("Ala")  # empty: Ala's keys open
    assert ala.keys_box.visible and not bob.keys_box.visible
