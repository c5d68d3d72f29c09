"""Backup of all games and merging it into another device (app/backup.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from app import backup
from app import games as g
from app.people import PeopleError
from app.store import Store
from tests.test_stats import build, tile


@pytest.fixture
def home(open_store: Callable[[str], Store]) -> Store:
    return open_store("home.json")


@pytest.fixture
def other(open_store: Callable[[str], Store]) -> Store:
    return open_store("other.json")


def content(store: Store) -> dict[str, Any]:
    """Every game as its export shows it (no versions, no update times)."""
    out = {}
    for s in store.list_games():
        d = json.loads(g.export_json(store.load_game(s.id)))["game"]
        d.pop("updated")
        out[s.id] = d
    return out


def test_export_opens_with_the_format_version(home: Store) -> None:
    build(home)
    text = backup.export_all(home)
    assert text.startswith('{"format":"rummy-referee-backup","format_version":1,')
    doc = json.loads(text)
    assert doc["count"] == 5 and len(doc["games"]) == 5
    assert [d["created"][:10] for d in doc["games"]] == [
        "2026-01-01",
        "2026-01-02",
        "2026-01-03",
        "2026-01-04",
        "2026-01-05",
    ]
    assert all("result" not in r for d in doc["games"] for r in d["rounds"])
    assert doc["games"][2]["standings"]["totals"] == {"ALA": 101, "Ola": -12, "Elka": -202}
    assert backup.file_name("2026-12-01T10:00:00+00:00") == "rummy-backup-2026-12-01.json"


def test_round_trip_to_an_empty_device_and_again(home: Store, other: Store) -> None:
    build(home)
    text = backup.export_all(home)
    seen: list[tuple[int, int]] = []
    r = backup.import_all(other, text, progress=lambda a, b: seen.append((a, b)))
    assert len(r.added) == 5 and not (r.updated or r.unchanged or r.copies or r.errors)
    assert seen[-1] == (5, 5)
    assert content(other) == content(home)  # same ids, rounds (scored again), times, notes
    home_totals = {s.id: s.totals for s in home.list_games()}
    assert {s.id: s.totals for s in other.list_games()} == home_totals
    again = backup.import_all(other, text)  # no duplicates
    assert len(again.unchanged) == 5 and not again.added and not again.copies
    assert len(other.list_games()) == 5


def test_merge_rules(home: Store, other: Store) -> None:
    ids = build(home)
    backup.import_all(other, backup.export_all(home))
    # home plays on in g5 (the file's rounds continue the other's): other is updated
    g5 = home.load_game(ids["g5"])
    home.save_game(g.add_round(g5, tile("Ala", {"Ola": ["R1"]})), g5.version)
    # other plays on in g4? g4 is finished; edit g1 on other only: other is ahead there
    g1 = other.load_game(ids["g1"])
    other.save_game(g.replace_round(g1, 1, tile("Ola", {"Ala": ["R1"]})), g1.version)
    # g2 changed on both sides differently: both kept
    a = home.load_game(ids["g2"])
    home.save_game(
        g.replace_round(a, 0, tile("Ola", {"ala": ["R8"], "Ela": ["R1", "R2"]})), a.version
    )
    b = other.load_game(ids["g2"])
    other.save_game(
        g.replace_round(b, 0, tile("Ola", {"ala": ["R7"], "Ela": ["R1", "R2"]})), b.version
    )
    r = backup.import_all(other, backup.export_all(home))
    assert r.updated == [ids["g5"]]
    assert set(r.unchanged) == {ids["g3"], ids["g4"], ids["g1"]}
    assert len(r.copies) == 1 and not r.added and not r.errors
    assert len(other.list_games()) == 6
    assert len(other.load_game(ids["g5"]).rounds) == 2  # the round played at home
    assert g.standings(other.load_game(ids["g1"])).totals == {"Ala": 34, "Ola": -34}  # kept
    copy = other.load_game(r.copies[0])
    assert copy.notes.endswith("(from a backup)")
    assert copy.rounds[0].scores == {"Ola": 11, "ala": -8, "Ela": -3}


def test_a_game_imported_alone_is_not_doubled(home: Store, other: Store) -> None:
    ids = build(home)
    single = g.import_json(g.export_json(home.load_game(ids["g3"])))  # a fresh id
    other.create_game(single)
    r = backup.import_all(other, backup.export_all(home))
    assert single.id in r.unchanged and len(r.added) == 4
    assert len(other.list_games()) == 5


def test_bad_files_and_bad_games(home: Store, other: Store) -> None:
    for text, why in [
        ("not json", "not JSON"),
        ('{"format": "rummy-referee-game"}', "not a backup"),
        ('{"format": "rummy-referee-backup", "format_version": 9, "games": []}', "newer"),
        ('{"format": "rummy-referee-backup", "format_version": 1}', 'no "games"'),
    ]:
        with pytest.raises(backup.BackupError, match=why):
            backup.import_all(other, text)
    build(home)
    doc = json.loads(backup.export_all(home))
    doc["games"][1]["rounds"][0]["entry"]["players"][1]["hand"] = ["ZZ"]  # a bad tile
    doc["games"].append("junk")
    r = backup.import_all(other, json.dumps(doc).encode("utf-8"))
    assert len(r.added) == 4 and [n for n, _m in r.errors] == [2, 6]


def test_import_is_the_hosts(home: Store) -> None:
    class Visitor:
        is_host = False

        def __getattr__(self, name: str) -> Any:
            return getattr(home, name)

    with pytest.raises(PeopleError):
        backup.import_all(Visitor(), backup.export_all(home))  # type: ignore[arg-type]


def test_backup_buttons_on_the_games_list(home: Store, other: Store) -> None:
    import asyncio

    from app.ui.home.games_list import GamesList
    from app.ui.shell import App

    build(home)
    app = App(home)
    app.show("/")
    assert isinstance(app.screen, GamesList)
    app.screen.backup.export()
    name, text = app.downloads[-1]
    assert name.startswith("rummy-backup-") and name.endswith(".json")
    there = App(other)
    there.show("/")
    buttons = there.screen.backup
    asyncio.run(buttons.restore(text.encode("utf-8")))
    assert there.messages[-1] == "5 added, 0 updated, 0 already here, 0 kept twice"
    assert len(other.list_games()) == 5
    asyncio.run(there.screen.backup.restore(b"{}"))
    assert there.screen.backup.status.value == "Not restored: the file is not a backup of this app"
