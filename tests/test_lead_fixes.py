"""Regression tests for faults found by a fresh user (values worked out by hand)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.judge import answer

ROOT = Path(__file__).resolve().parents[1]


def test_tile_rack_value_above_the_whole_set_is_impossible() -> None:
    # all 104 numbered tiles: 2 copies × 4 colours × (1 + … + 13) = 8 × 91 = 728 points
    r = answer(
        {
            "check": "round",
            "variant": "tile_rummy",
            "players": [
                {"name": "A", "winner": True},
                {"name": "B", "hand_value": 729, "jokers": 0},
            ],
        }
    )
    assert r["ok"] and r["valid"] is False and r["reason"] == "impossible_hand_value"
    assert "scores" not in r


def test_tile_racks_together_above_the_set_are_impossible() -> None:
    r = answer(
        {
            "check": "round",
            "variant": "my_rummy",
            "players": [
                {"name": "A", "winner": True},
                {"name": "B", "hand_value": 400, "jokers": 0},
                {"name": "C", "hand_value": 329, "jokers": 0},
            ],
        }
    )
    assert r["valid"] is False and r["reason"] == "impossible_hand_value"


def test_tile_racks_exactly_the_whole_set_are_possible() -> None:
    r = answer(
        {
            "check": "round",
            "variant": "tile_rummy",
            "players": [
                {"name": "A", "winner": True},
                {"name": "B", "hand_value": 400, "jokers": 0},
                {"name": "C", "hand_value": 328, "jokers": 0},
            ],
        }
    )
    # winner collects 400 + 328 = 728
    assert r["valid"] is True and r["scores"] == {"A": 728, "B": -400, "C": -328}


def test_rummy101_hands_together_above_the_set_are_impossible() -> None:
    # 266 each is possible alone (8 × 13 + 8 × 12 + 6 × 11 = 266 in 22 tiles), not three times
    players = [{"name": "A", "winner": True}] + [
        {"name": n, "opened": "melds", "hand_value": 266, "jokers": 0} for n in "BCD"
    ]
    r = answer({"check": "round", "variant": "rummy101", "finish": "normal", "players": players})
    assert r["valid"] is False and r["reason"] == "impossible_hand_value"


@pytest.mark.parametrize(
    ("variant", "meld", "reason"),
    [
        ("gin", ["KS", "AS", "2S"], "run_wraps"),
        ("carousel", ["KS", "JK", "2S"], "run_wraps"),
        ("carousel", ["KS", "AS", "2S"], "run_wraps"),
        ("rummy101", ["R13", "R1", "R2"], "run_wraps"),
        ("tile_rummy", ["R13", "JK", "R2"], "run_wraps"),
        ("rummy101", ["R12", "R13", "R1"], "ace_after_king"),
        ("gin", ["QS", "KS", "AS"], "ace_after_king"),
    ],
)
def test_wrapping_runs_name_the_wrap(variant: str, meld: list[str], reason: str) -> None:
    r = answer({"check": "meld", "variant": variant, "meld": meld})
    assert r["ok"] and r["valid"] is False and r["reason"] == reason


def test_equal_value_group_and_run_takes_the_group_and_rereads_the_same() -> None:
    # JK R10 JK: run 9-10-11 = 30, group of 10s = 30 → the group stands, the run beside it
    r = answer({"check": "meld", "variant": "tile_rummy", "meld": ["JK", "R10", "JK"]})
    assert r["kind"] == "group" and r["value"] == 30
    assert [a["kind"] for a in r["alternatives"]] == ["run"]
    again = answer({"check": "meld", "variant": "tile_rummy", "meld": r["tiles"]})
    assert (again["kind"], again["value"]) == ("group", 30)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rules", *args], capture_output=True, text=True, cwd=ROOT
    )


def test_cli_opening_lists_the_melds() -> None:
    p = _cli("opening", "rummy101", "R10 R11 R12", "B11 B12 B13", "K11 Y11 B11")
    assert p.returncode == 0, p.stderr
    assert "R10 R11 R12" in p.stdout and "102" in p.stdout
    assert "valid kind value" not in p.stdout


def test_cli_exit_codes_and_json() -> None:
    assert _cli("meld", "rummy101", "R12", "R13", "R1").returncode == 1
    assert _cli("meld", "gin", "JK", "2S", "3S").returncode == 2
    p = _cli("meld", "rummy101", "R11", "R12", "JK", "--json")
    assert json.loads(p.stdout)["jokers"] == ["R13"]


def test_cli_split_and_round_print_without_error() -> None:
    p = _cli("split", "tile_rummy", "R1", "R2", "R3", "B7", "K7", "Y7", "JK")
    assert p.returncode == 0 and "?7" in p.stdout and "Traceback" not in p.stderr
    req = {
        "knocker": "A",
        "players": [
            {"name": "A", "hand": "AS 2S 3S 7H 7D 7C 9C TC JC 4D"},
            {"name": "B", "hand": "KS KH KD 5C 6C 8C 2H 3D 9S QH"},
        ],
    }
    p = _cli("round", "gin", "--request", json.dumps(req))
    # B: 43 deadwood, lays off 8C onto 9C-10C-JC → 35; A scores 35 − 4 = 31
    assert p.returncode == 0 and "A +31" in p.stdout


def test_player_names_may_hold_emoji_sequences_but_not_control_characters() -> None:
    from app import games

    family = "Zo\u00eb \U0001f3b2\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert games._check_name(family) == family
    with pytest.raises(games.GameError):
        games._check_name("a\x00b")
