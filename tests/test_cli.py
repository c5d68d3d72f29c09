"""The command line's ``turn`` (rules/cli.py) for Rummy 101 and the other variants.

Verdicts worked out from RULES.md §3 (Rummy 101): a player who opened (with melds) may lay
off R6 onto R3-R4-R5; before opening he may not (lay-offs come only after one's own opening);
a taken discard must be used at once; a melds opener lays a pair only after another player
opened with pairs; a pairs opener never lays a new run or group. §4 (Tile Rummy): before the
initial meld a table meld may not be added to.
"""

from __future__ import annotations

import json

import pytest

from rules.cli import build_parser, build_request, main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    """Exit status and the judge's JSON answer (``--json``)."""
    code = main([*argv, "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip() else {}


def request(*argv: str) -> dict[str, object]:
    return build_request(build_parser().parse_args(list(argv)))


LAY_OFF = ("--rack", "R6 K2", "--before", "R3 R4 R5", "--after", "R3 R4 R5 R6")


def test_rummy101_opened_takes_none_melds_or_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    code, resp = run(capsys, "turn", "rummy101", "--opened", "melds", *LAY_OFF)
    assert (code, resp["valid"], resp["played"]) == (0, True, ["R6"])
    code, resp = run(capsys, "turn", "rummy101", "--opened", "none", *LAY_OFF)
    assert (code, resp["reason"]) == (1, "lay_off_before_opening")
    code, resp = run(capsys, "turn", "rummy101", "--opened", "PAIRS", *LAY_OFF)  # any case
    assert (code, resp["valid"]) == (0, True)  # a pairs opener may lay off too


def test_rummy101_not_opened_by_default_and_false_means_none() -> None:
    assert request("turn", "rummy101", *LAY_OFF)["opened"] == "none"
    assert request("turn", "rummy101", "--opened", "false", *LAY_OFF)["opened"] == "none"


def test_rummy101_refuses_a_bare_or_true_opened(capsys: pytest.CaptureFixture[str]) -> None:
    # "opened: true" cannot say with melds or with pairs: an input error, not a guess
    for argv in (["--opened"], ["--opened", "true"], ["--opened", "yes please"]):
        assert main(["turn", "rummy101", *argv, *LAY_OFF]) == 2
        assert "none, melds or pairs" in capsys.readouterr().err


def test_rummy101_taken_discard_must_be_used_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    base = ("turn", "rummy101", "--opened", "melds", "--taken-discard", "R9")
    used = ("--rack", "R10 R11 K2", "--before", "R3 R4 R5", "--after", "R3 R4 R5", "R9 R10 R11")
    code, resp = run(capsys, *base, *used)
    assert (code, resp["valid"], resp["played"]) == (0, True, ["R9", "R10", "R11"])
    kept = ("--rack", "R10 K2 K3 K4", "--before", "R3 R4 R5", "--after", "R3 R4 R5", "K2 K3 K4")
    code, resp = run(capsys, *base, *kept)
    assert (code, resp["reason"]) == (1, "discard_not_used")
    # --discard is the same field (as for "opening")
    assert request("turn", "rummy101", "--discard", "R9", *used)["taken_discard"] == "R9"


def test_rummy101_pairs_opened(capsys: pytest.CaptureFixture[str]) -> None:
    pair = ("turn", "rummy101", "--opened", "melds", "--rack", "R5 R5 B1", "--after", "R5 R5")
    code, resp = run(capsys, *pair, "--pairs-opened")
    assert (code, resp["valid"]) == (0, True)
    code, resp = run(capsys, *pair, "--pairs-opened", "false")
    assert (code, resp["reason"]) == (1, "pairs_not_allowed")
    code, resp = run(capsys, *pair)  # not given: no pair on the table before, so nobody did
    assert (code, resp["reason"]) == (1, "pairs_not_allowed")
    assert main([*pair, "--pairs-opened", "maybe"]) == 2
    assert "true or false" in capsys.readouterr().err


def test_rummy101_pairs_opener_laying_a_group_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, resp = run(
        capsys, "turn", "rummy101", "--opened", "pairs", "--rack", "R5 B5 K5 B1", "--after",
        "R5 B5 K5",
    )  # fmt: skip
    assert (code, resp["reason"]) == (1, "pairs_opener_run")


def test_rummy101_opening_turn_takes_the_threshold(capsys: pytest.CaptureFixture[str]) -> None:
    # R9 R10 R11 = 30 points: below 101, enough when the table agreed 30
    turn = ("turn", "rummy101", "--rack", "R9 R10 R11 K2", "--after", "R9 R10 R11")
    code, resp = run(capsys, *turn)
    assert (code, resp["reason"]) == (1, "below_threshold")
    code, resp = run(capsys, *turn, "--needed", "30")
    assert (code, resp["valid"]) == (0, True)
    assert request(*turn, "--pairs-needed", "4")["pairs_needed"] == 4


def test_other_variants_keep_true_and_false(capsys: pytest.CaptureFixture[str]) -> None:
    turn = ("--rack", "R13 B2", "--before", "R10 R11 R12", "--after", "R10 R11 R12 R13")
    for argv, valid in (
        (["--opened"], True),
        (["--opened", "true"], True),
        (["--opened", "False"], False),
        ([], False),
    ):
        code, resp = run(capsys, "turn", "tile_rummy", *argv, *turn)
        assert resp["valid"] is valid and code == (0 if valid else 1)
        if not valid:
            assert resp["reason"] == "manipulated_before_initial_meld"
    assert request("turn", "tile_rummy", "--opened", *turn)["opened"] is True
    assert main(["turn", "tile_rummy", "--opened", "melds", *turn]) == 2
    assert "true or false" in capsys.readouterr().err


@pytest.mark.parametrize(
    "flag", [["--taken-discard", "R9"], ["--pairs-opened"], ["--needed", "30"]]
)
def test_rummy101_fields_are_refused_elsewhere(
    capsys: pytest.CaptureFixture[str], flag: list[str]
) -> None:
    argv = ["turn", "tile_rummy", "--opened", *flag, "--rack", "R13", "--after", "R11 R12 R13"]
    assert main(argv) == 2
    assert "rummy101 turns only" in capsys.readouterr().err
