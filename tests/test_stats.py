"""Players as people and their record (app/people.py, app/stats.py).

The fixture (five games) is small enough to work every figure out by hand. Tile Rummy scores
(RULES.md §4, the winner collects): a rack is the sum of its numbers, a joker 30; each loser
scores −rack, the winner the sum of the racks. Rummy 101 (§3): a normal finish +101, a melds
opener −rest, a player who never opened −202.

    g1 tile 2026-01-01  Ala, Ola        r1 Ala out, Ola R5 JK (35): Ala +35 Ola −35
                                        r2 Ola out, Ala R1 R2 (3):  Ala −3  Ola +3
                                        totals Ala 32, Ola −32 → Ala wins
    g2 tile 2026-01-02  "ala", Ola, Ela
                                        r1 Ola out, ala R9 (9), Ela R1 R2 (3): Ola +12 ala −9 Ela −3
                                        (a round added then deleted: ala out …)
                                        r2 entered as "ala out", then edited to
                                           Ela out, ala B10 (10), Ola R5 (5): Ela +15 ala −10 Ola −5
                                        totals ala −19, Ola 7, Ela 12 → Ela wins
    g3 101  2026-01-03  ALA, Ola, Elka (1 agreed round)
                                        ALA +101, Ola R5 B7 −12, Elka never opened −202 → ALA
    g4 tile 2026-01-04  Ola, Bob        r1 Ola out, Bob R5: +5/−5; r2 Ola out, Bob R1 R2: +3/−3
                                        totals Ola 8, Bob −8 → Ola wins
    g5 tile 2026-01-05  Ala, Ola        r1 Ola out, Ala R9: Ola +9, Ala −9 (unfinished)

Then "Elka" is merged into "Ela" and "Bob" renamed "Robert".
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from app import games as g
from app import people, stats
from app.people import PeopleError, person_key
from app.store import Store


def tile(winner: str, hands: dict[str, list[str]]) -> dict[str, Any]:
    return {
        "players": [{"name": winner, "winner": True}]
        + [{"name": n, "hand": h} for n, h in hands.items()]
    }


def _store_game(store: Store, game: g.Game, created: str) -> g.Game:
    return store.create_game(dataclasses.replace(game, created=created))


def build(store: Store) -> dict[str, str]:
    ids: dict[str, str] = {}
    g1 = g.new_game("tile_rummy", ["Ala", "Ola"], agreed_rounds=2)
    g1 = g.add_round(g1, tile("Ala", {"Ola": ["R5", "JK"]}))
    g1 = g.add_round(g1, tile("Ola", {"Ala": ["R1", "R2"]}))
    ids["g1"] = _store_game(store, g1, "2026-01-01T10:00:00+00:00").id

    g2 = g.new_game("tile_rummy", ["ala", "Ola", "Ela"], agreed_rounds=2)
    g2 = g.add_round(g2, tile("Ola", {"ala": ["R9"], "Ela": ["R1", "R2"]}))
    g2 = g.add_round(g2, tile("ala", {"Ola": ["R7"], "Ela": ["R7"]}))  # a mistake …
    g2 = g.delete_round(g2, 1)  # … deleted
    g2 = g.add_round(g2, tile("ala", {"Ola": ["R5"], "Ela": ["R5"]}))
    g2 = g.replace_round(g2, 1, tile("Ela", {"ala": ["B10"], "Ola": ["R5"]}))
    ids["g2"] = _store_game(store, g2, "2026-01-02T10:00:00+00:00").id

    g3 = g.new_game("rummy101", ["ALA", "Ola", "Elka"], agreed_rounds=1)
    r101 = {
        "finish": "normal",
        "players": [
            {"name": "ALA", "winner": True},
            {"name": "Ola", "opened": "melds", "hand": ["R5", "B7"]},
            {"name": "Elka", "opened": "none", "hand": ["K1"]},
        ],
    }
    g3 = g.add_round(g3, r101)
    ids["g3"] = _store_game(store, g3, "2026-01-03T10:00:00+00:00").id

    g4 = g.new_game("tile_rummy", ["Ola", "Bob"], agreed_rounds=2)
    g4 = g.add_round(g4, tile("Ola", {"Bob": ["R5"]}))
    g4 = g.add_round(g4, tile("Ola", {"Bob": ["R1", "R2"]}))
    ids["g4"] = _store_game(store, g4, "2026-01-04T10:00:00+00:00").id

    g5 = g.new_game("tile_rummy", ["Ala", "Ola"], agreed_rounds=2)
    g5 = g.add_round(g5, tile("Ola", {"Ala": ["R9"]}))
    ids["g5"] = _store_game(store, g5, "2026-01-05T10:00:00+00:00").id
    return ids


@pytest.fixture
def fixture(store: Store) -> dict[str, str]:
    ids = build(store)
    people.rename_person(store, "Elka", "Ela")  # merge two people's spellings
    people.rename_person(store, "bob", "Robert")  # rename (any spelling finds him)
    return ids


# -- people ---------------------------------------------------------------------------------------
def test_person_key_ignores_case_and_spaces() -> None:
    assert person_key("  Ala   Nowak ") == person_key("ala nowak") == "ala nowak"
    assert person_key("Łucja") == person_key("ŁUCJA")
    assert person_key("Ala") != person_key("Ola")


def test_the_fixture_scores_as_worked_out(store: Store) -> None:
    ids = build(store)
    st = {k: g.standings(store.load_game(i)) for k, i in ids.items()}
    assert st["g1"].totals == {"Ala": 32, "Ola": -32} and st["g1"].winners == ("Ala",)
    assert st["g2"].totals == {"ala": -19, "Ola": 7, "Ela": 12} and st["g2"].winners == ("Ela",)
    assert st["g3"].totals == {"ALA": 101, "Ola": -12, "Elka": -202}
    assert st["g3"].winners == ("ALA",)
    assert st["g4"].totals == {"Ola": 8, "Bob": -8} and st["g4"].winners == ("Ola",)
    assert not st["g5"].finished and st["g5"].totals == {"Ala": -9, "Ola": 9}


def test_rename_rewrites_the_stored_games(store: Store, fixture: dict[str, str]) -> None:
    g3 = store.load_game(fixture["g3"])
    assert g3.players == ["ALA", "Ola", "Ela"]
    assert g.standings(g3).totals == {"ALA": 101, "Ola": -12, "Ela": -202}
    assert [p["name"] for p in g3.rounds[0].entry["players"]] == ["ALA", "Ola", "Ela"]
    text = repr(g3.rounds[0].result)
    assert "Elka" not in text and "Ela" in text  # the judge's explanation names her anew
    g4 = store.load_game(fixture["g4"])
    assert g4.players == ["Ola", "Robert"] and g4.version == 2  # saved once, through the store
    assert g.standings(g4).totals == {"Ola": 8, "Robert": -8}
    assert all("Bob" not in repr(s.to_dict()) for s in g4.undo_log)
    assert {n for s in store.list_games() for n in s.players} == {
        "Ala",
        "ala",
        "ALA",
        "Ola",
        "Ela",
        "Robert",
    }


def test_new_game_suggests_the_new_spelling_after_a_rename(
    store: Store, fixture: dict[str, str]
) -> None:
    known = store.known_players()
    assert "Robert" in known and "Ela" in known
    assert "Bob" not in known and "Elka" not in known  # renamed and merged away
    assert {"Ala", "ala", "ALA"} <= set(known)  # spellings still used by stored games stay
    store.delete_game(fixture["g4"])  # Robert's only game: his name is still offered
    assert "Robert" in store.known_players()


def test_rename_keeps_edited_and_deleted_rounds_history(store: Store) -> None:
    ids = build(store)
    before = store.load_game(ids["g2"])
    people.rename_person(store, "ALA", "Alicja")
    after = store.load_game(ids["g2"])
    assert after.players == ["Alicja", "Ola", "Ela"]
    assert [r.scores for r in after.rounds] == [
        {"Ola": 12, "Alicja": -9, "Ela": -3},
        {"Ela": 15, "Alicja": -10, "Ola": -5},
    ]
    assert after.rounds[1].edited == before.rounds[1].edited is not None
    assert [s.action for s in after.undo_log] == [s.action for s in before.undo_log]
    deleted = [s for s in after.undo_log if s.action == "delete"][0]
    assert deleted.before is not None and "Alicja" in deleted.before.scores
    # undo still works on the renamed game: the edit is taken back
    undone = g.undo(after)
    assert undone.rounds[1].winners == ("Alicja",)
    assert {n for s in store.list_games() for n in s.players if person_key(n) == "alicja"} == {
        "Alicja"
    }


def test_rename_refuses_two_people_of_one_game(store: Store) -> None:
    ids = build(store)
    with pytest.raises(PeopleError) as e:
        people.rename_person(store, "Ola", "ala")
    assert e.value.code == "same_game" and ids["g1"] in e.value.games
    assert store.load_game(ids["g1"]).version == 1  # nothing written
    with pytest.raises(PeopleError) as e:
        people.rename_person(store, "Nobody", "X")
    assert e.value.code == "unknown"
    with pytest.raises(PeopleError) as e:
        people.rename_person(store, "Ola", "  ")
    assert e.value.code == "bad_name"


def test_rename_is_the_hosts(store: Store) -> None:
    build(store)

    class Visitor:
        is_host = False

        def __getattr__(self, name: str) -> Any:
            return getattr(store, name)

    with pytest.raises(PeopleError) as e:
        people.rename_person(Visitor(), "Ola", "Olga")  # type: ignore[arg-type]
    assert e.value.code == "host_only"


# -- statistics -----------------------------------------------------------------------------------
def test_stats_of_a_person_with_three_spellings(store: Store, fixture: dict[str, str]) -> None:
    s = stats.player_stats(store, "ala", cache=stats.FactsCache())
    assert s.spellings == ["Ala", "ALA", "ala"]  # g5, g3, g2 (g1's "Ala" again)
    assert s.name == "Ala"
    assert (s.played, s.won, s.in_progress) == (3, 2, 1)
    assert s.win_rate == pytest.approx(2 / 3)
    tile_, r101 = s.variants["tile_rummy"], s.variants["rummy101"]
    assert (tile_.played, tile_.won) == (2, 1)
    assert (tile_.rounds, tile_.round_sum) == (4, 35 - 3 - 9 - 10)
    assert tile_.average_round == pytest.approx(13 / 4)
    assert (tile_.best_round, tile_.high_total, tile_.low_total) == (35, 32, -19)
    assert (r101.played, r101.won, r101.best_round, r101.high_total, r101.low_total) == (
        1,
        1,
        101,
        101,
        101,
    )
    assert r101.average_round == 101
    assert s.streak == ("win", 1)  # g3 won, g2 not
    h = s.head_to_head
    assert list(h) == ["ola", "ela"]
    assert (h["ola"].games, h["ola"].wins, h["ola"].losses) == (3, 2, 0)
    assert (h["ela"].opponent, h["ela"].games, h["ela"].wins, h["ela"].losses) == ("Ela", 2, 1, 1)
    assert s.timeline == [
        ("2026-01-01T10:00:00+00:00", "tile_rummy", 32),
        ("2026-01-02T10:00:00+00:00", "tile_rummy", -19),
        ("2026-01-03T10:00:00+00:00", "rummy101", 101),
    ]


def test_stats_after_a_merge_and_a_rename(store: Store, fixture: dict[str, str]) -> None:
    cache = stats.FactsCache()
    ela = stats.player_stats(store, "ELA", cache=cache)
    assert (ela.played, ela.won) == (2, 1)  # g2 (won) and g3 (as Elka)
    assert ela.variants["rummy101"].low_total == -202
    assert ela.variants["tile_rummy"].best_round == 15
    assert ela.streak == ("loss", 1)
    assert stats.player_stats(store, "Elka", cache=cache).played == 0
    ola = stats.player_stats(store, "Ola", cache=cache)
    assert (ola.played, ola.won, ola.in_progress) == (4, 1, 1)
    assert ola.streak == ("win", 1)
    assert ola.variants["tile_rummy"].high_total == 8
    assert ola.variants["tile_rummy"].low_total == -32
    assert (ola.head_to_head["robert"].games, ola.head_to_head["robert"].wins) == (1, 1)
    rob = stats.player_stats(store, "robert", cache=cache)
    assert (rob.name, rob.played, rob.won, rob.streak) == ("Robert", 1, 0, ("loss", 1))
    assert stats.player_stats(store, "Bob", cache=cache).played == 0


def test_cache_is_keyed_by_version(store: Store, fixture: dict[str, str]) -> None:
    cache = stats.FactsCache()
    stats.player_stats(store, "Ola", cache=cache)
    first = cache.loads
    assert first == 4  # the four finished games with Ola
    stats.player_stats(store, "Ola", cache=cache)
    assert cache.loads == first  # nothing loaded again
    g1 = store.load_game(fixture["g1"])
    g1 = g.replace_round(g1, 1, tile("Ola", {"Ala": ["R1"]}))  # Ala −1, Ola +1: 34 / −34
    store.save_game(g1, g1.version)
    s = stats.player_stats(store, "Ola", cache=cache)
    assert cache.loads == first + 1
    assert s.variants["tile_rummy"].low_total == -34


def test_people_index(store: Store, fixture: dict[str, str]) -> None:
    idx = stats.people_index(store.list_games())
    assert idx == [("ola", "Ola", 5), ("ala", "Ala", 4), ("ela", "Ela", 2), ("robert", "Robert", 1)]
    assert people.display_names(store.list_games())["ala"] == "Ala"


def test_warm_summarises_the_finished_games_once(store: Store, fixture: dict[str, str]) -> None:
    cache = stats.FactsCache()
    assert stats.warm(store, cache) == 4  # g1–g4; the unfinished g5 is not summarised
    assert stats.warm(store, cache) == 0
    stats.player_stats(store, "Ola", cache=cache)
    assert cache.loads == 4
