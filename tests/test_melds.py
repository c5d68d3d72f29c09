"""Meld reading tests (RULES.md §1 "Melds are ordered", §2 table; seeds 000 and 001).

Every expected reading, joker assignment and value was worked out by hand from the rule text:
runs ≥3 consecutive of one colour/suit (at most 13), groups 3–4 of one number with different
colours/suits, pairs (Rummy 101 only) two identical tiles with at most one joker; the given
order stands where it can be a run, otherwise jokers fill inner gaps first, then extend upward,
else downward; a joker counts as what it stands for; tiles count their number, cards A 1, J Q K
10; where a run and a group both read validly the one worth more stands unless pinned.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.melds import MeldReading, is_meld, read_meld
from rules.notation import parse_piece, parse_pieces
from rules.options import VARIANTS
from rules.pieces import JOKER, Card, Piece, Tile, make_piece, piece_value
from rules.variant import meld_rules, piece_set

TILE_VARIANTS = ("rummy101", "tile_rummy", "my_rummy")
SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")


def read(
    variant: str,
    text: str,
    as_: str | None = None,
    declare: Sequence[str | None] | None = None,
    players: int | None = None,
) -> MeldReading:
    rules = meld_rules(variant)
    pieces = parse_pieces(text, rules.material, piece_set(variant, players), rules.jokers, variant)
    declared = None
    if declare is not None:
        declared = [None if t is None else parse_piece(t, "cards") for t in declare]
    return read_meld(pieces, rules, as_, declared)  # type: ignore[arg-type]


def names(pieces: Sequence[Piece]) -> list[str]:
    return [str(p) for p in pieces]


def seq(prefix: str, lo: int, hi: int) -> str:
    return " ".join(f"{prefix}{n}" for n in range(lo, hi + 1))


CARD_RANKS = {1: "A", 11: "J", 12: "Q", 13: "K", 14: "A"}


def suit_seq(suit: str, lo: int, hi: int) -> str:
    return " ".join(f"{CARD_RANKS.get(n, str(n))}{suit}" for n in range(lo, hi + 1))


def assert_valid(
    r: MeldReading,
    kind: str,
    value: int,
    jokers: list[str],
    tiles: list[str] | None = None,
) -> None:
    assert r.valid, r.message
    assert r.kind == kind
    assert r.value == value
    assert list(r.jokers) == jokers
    if tiles is not None:
        assert names(r.pieces) == tiles


def assert_invalid(r: MeldReading) -> None:
    assert not r.valid
    assert r.kind is None
    assert r.reason is not None and SNAKE.match(r.reason), r.reason
    assert r.message and "\n" not in r.message
    assert "RULES.md" in r.message  # a verdict names the rule (§7)


# --------------------------------------------------------------------------------------------
# Runs with tiles (Rummy 101, Tile Rummy, My Rummy): the joker's position fixes what it is

TILE_RUNS = [
    # meld, normalised tiles, jokers, value
    ("R11 R12 JK", ["R11", "R12", "JK"], ["R13"], 36),  # RULES.md §1 example
    ("JK R11 R12", ["JK", "R11", "R12"], ["R10"], 33),  # RULES.md §1 example
    ("R4 JK R6", ["R4", "JK", "R6"], ["R5"], 15),  # seed 001 "4*6": joker in the gap
    ("JK R5 R6", ["JK", "R5", "R6"], ["R4"], 15),  # joker at the low end
    ("R5 R6 JK", ["R5", "R6", "JK"], ["R7"], 18),  # joker at the high end
    ("R1 R2 R3", ["R1", "R2", "R3"], [], 6),
    ("R1 JK R3", ["R1", "JK", "R3"], ["R2"], 6),
    ("B9 B10 B11 B12 B13", ["B9", "B10", "B11", "B12", "B13"], [], 55),
    ("K2 K3 K4 K5", ["K2", "K3", "K4", "K5"], [], 14),
    ("y3 Y4 y5", ["Y3", "Y4", "Y5"], [], 12),
    # two jokers in one meld
    ("R5 JK JK R8", ["R5", "JK", "JK", "R8"], ["R6", "R7"], 26),
    ("R3 R4 JK JK", ["R3", "R4", "JK", "JK"], ["R5", "R6"], 18),
    # the given order stands even where moving a joker would be worth more
    ("JK R3 R4 JK", ["JK", "R3", "R4", "JK"], ["R2", "R5"], 14),
    ("JK R12 R13", ["JK", "R12", "R13"], ["R11"], 36),
]


@pytest.mark.parametrize("variant", TILE_VARIANTS)
@pytest.mark.parametrize(("meld", "tiles", "jokers", "value"), TILE_RUNS)
def test_tile_runs(
    variant: str, meld: str, tiles: list[str], jokers: list[str], value: int
) -> None:
    assert_valid(read(variant, meld), "run", value, jokers, tiles)


@pytest.mark.parametrize("variant", TILE_VARIANTS)
def test_thirteen_long_run_is_valid(variant: str) -> None:
    assert_valid(read(variant, seq("R", 1, 13)), "run", 91, [], [f"R{n}" for n in range(1, 14)])


@pytest.mark.parametrize("variant", TILE_VARIANTS)
def test_thirteen_long_runs_with_jokers(variant: str) -> None:
    # 1+2+…+13 = 91 whichever tiles the jokers replace
    assert_valid(read(variant, "JK " + seq("B", 2, 13)), "run", 91, ["B1"])
    assert_valid(read(variant, seq("B", 1, 12) + " JK"), "run", 91, ["B13"])
    assert_valid(read(variant, "K1 JK " + seq("K", 3, 12) + " JK"), "run", 91, ["K2", "K13"])


@pytest.mark.parametrize("variant", TILE_VARIANTS)
@pytest.mark.parametrize(
    "meld",
    [
        seq("R", 1, 13) + " JK",  # 1…13 plus a joker: a run has at most 13
        "JK " + seq("R", 1, 13),
        seq("R", 1, 12) + " JK JK",
        "JK " + seq("R", 2, 13) + " JK",
    ],
)
def test_run_longer_than_13_is_invalid(variant: str, meld: str) -> None:
    assert_invalid(read(variant, meld))


# --------------------------------------------------------------------------------------------
# Runs entered descending: valid; the normalised (ascending) order is reported


@pytest.mark.parametrize("variant", TILE_VARIANTS)
@pytest.mark.parametrize(
    ("meld", "tiles", "jokers", "value"),
    [
        ("R9 R8 R7", ["R7", "R8", "R9"], [], 24),
        ("R13 R12 R11 R10", ["R10", "R11", "R12", "R13"], [], 46),
        ("R9 JK R7", ["R7", "JK", "R9"], ["R8"], 24),
        ("JK R9 R8", ["R8", "R9", "JK"], ["R10"], 27),  # descending: the joker is above 9
        ("R10 R9 JK", ["JK", "R9", "R10"], ["R8"], 27),  # descending: the joker is below 9
        ("R3 R2 R1", ["R1", "R2", "R3"], [], 6),
    ],
)
def test_descending_runs(
    variant: str, meld: str, tiles: list[str], jokers: list[str], value: int
) -> None:
    assert_valid(read(variant, meld), "run", value, jokers, tiles)


# --------------------------------------------------------------------------------------------
# Rearranged readings: the given order cannot be a run but the tiles can; jokers fill inner
# gaps first, then extend upward, else downward (RULES.md §1)


@pytest.mark.parametrize("variant", TILE_VARIANTS)
@pytest.mark.parametrize(
    ("meld", "tiles", "jokers", "value"),
    [
        # upward is impossible above 13, so the joker goes below: R11
        ("R12 JK R13", ["JK", "R12", "R13"], ["R11"], 36),
        ("R13 JK R12", ["JK", "R12", "R13"], ["R11"], 36),
        ("R12 R13 JK", ["JK", "R12", "R13"], ["R11"], 36),
        # inner gap first
        ("R5 R7 JK", ["R5", "JK", "R7"], ["R6"], 18),
        ("JK R7 R5", ["R5", "JK", "R7"], ["R6"], 18),
        # no gap: upward
        ("R5 JK R6", ["R5", "R6", "JK"], ["R7"], 18),
        ("JK R1 R2", ["R1", "R2", "JK"], ["R3"], 6),  # JK before R1 would be 0
        ("JK R1 JK R2", ["R1", "R2", "JK", "JK"], ["R3", "R4"], 10),
        # no joker: just sorted
        ("R7 R5 R6", ["R5", "R6", "R7"], [], 18),
        ("R7 R5 JK R6", ["R5", "R6", "R7", "JK"], ["R8"], 26),
        # gap first (12), then upward impossible, so downward (10)
        ("R13 R11 JK JK", ["JK", "R11", "JK", "R13"], ["R10", "R12"], 46),
        # two jokers, upward impossible: both below
        ("R13 JK R12 JK", ["JK", "JK", "R12", "R13"], ["R10", "R11"], 46),
    ],
)
def test_rearranged_runs(
    variant: str, meld: str, tiles: list[str], jokers: list[str], value: int
) -> None:
    assert_valid(read(variant, meld), "run", value, jokers, tiles)


# --------------------------------------------------------------------------------------------
# Invalid runs / non-melds with tiles


@pytest.mark.parametrize("variant", TILE_VARIANTS)
@pytest.mark.parametrize(
    "meld",
    [
        "R12 R13 R1",  # 1 only below 2 (seed 000: "12–13–1 niedozwolona"; seed 001 "12131")
        "R13 R1 R2",
        "R12 R13 JK R1",
        "R5 B6 R7",  # one colour
        "R5 R6 R8",  # gap, no joker
        "R5 JK R9",  # gap of 3, one joker
        "R5 R5 R6",  # same number twice in a run
        "R5",
        "R7 B7 K8",  # neither run nor group
    ],
)
def test_invalid_tile_melds(variant: str, meld: str) -> None:
    assert_invalid(read(variant, meld))


def test_empty_meld_is_invalid() -> None:
    for variant in VARIANTS:
        assert_invalid(read_meld([], meld_rules(variant)))


@pytest.mark.parametrize("variant", ("rummy101", "tile_rummy", "my_rummy", "carousel"))
@pytest.mark.parametrize("meld", ["JK", "JK JK"])
def test_joker_only_melds_are_invalid(variant: str, meld: str) -> None:
    # "a joker may replace one of them, never both"; a meld needs something to stand beside
    assert_invalid(read(variant, meld))


@pytest.mark.parametrize("variant", VARIANTS)
def test_three_jokers_alone_are_not_a_meld(variant: str) -> None:
    # no set holds three jokers, but the reader must refuse them anyway
    assert_invalid(read_meld([JOKER, JOKER, JOKER], meld_rules(variant)))


# --------------------------------------------------------------------------------------------
# Groups with tiles: 3–4 of one number, all colours different


@pytest.mark.parametrize("variant", TILE_VARIANTS)
@pytest.mark.parametrize(
    ("meld", "jokers", "value"),
    [
        ("R7 B7 K7", [], 21),
        ("R7 B7 K7 Y7", [], 28),
        ("Y1 K1 B1", [], 3),
        ("B13 R13 Y13 K13", [], 52),
        ("R7 B7 JK", ["?7"], 21),
        ("JK R7 B7 K7", ["?7"], 28),
        ("R13 B13 JK JK", ["?13", "?13"], 52),
    ],
)
def test_tile_groups(variant: str, meld: str, jokers: list[str], value: int) -> None:
    r = read(variant, meld)
    assert_valid(r, "group", value, jokers)
    given_pieces = parse_pieces(meld, "tiles")
    assert Counter(names(r.pieces)) == Counter(names(given_pieces))


@pytest.mark.parametrize("variant", TILE_VARIANTS)
@pytest.mark.parametrize(
    "meld",
    [
        "R4 R4 B4",  # seed 001: "444 is invalid"; seed 000: red repeats
        "R4 B4 R4 K4",
        "R7 R7 JK",
        "R7 B7 K7 Y7 JK",  # a 5-group
        "R7 B7 K7 Y7 R7",
        "JK R7 B7 K7 Y7",
    ],
)
def test_invalid_tile_groups(variant: str, meld: str) -> None:
    assert_invalid(read(variant, meld))


# --------------------------------------------------------------------------------------------
# Run or group: JK JK R10 is a group of 10s (30) or the run 8-9-10 (27): the group stands,
# the run is shown beside it; `as` pins one.


@pytest.mark.parametrize("variant", TILE_VARIANTS)
def test_jk_jk_r10_reads_as_group_with_run_alternative(variant: str) -> None:
    r = read(variant, "JK JK R10")
    assert_valid(r, "group", 30, ["?10", "?10"])
    runs = [a for a in r.alternatives if a.kind == "run"]
    assert len(runs) == 1
    assert runs[0].valid
    assert runs[0].value == 27
    assert list(runs[0].jokers) == ["R8", "R9"]


@pytest.mark.parametrize("variant", TILE_VARIANTS)
def test_jk_jk_r10_pinned(variant: str) -> None:
    assert_valid(
        read(variant, "JK JK R10", as_="run"), "run", 27, ["R8", "R9"], ["JK", "JK", "R10"]
    )
    assert_valid(read(variant, "JK JK R10", as_="group"), "group", 30, ["?10", "?10"])


@pytest.mark.parametrize("variant", TILE_VARIANTS)
def test_run_worth_more_than_group_stands(variant: str) -> None:
    # R10 JK JK: run 10-11-12 = 33 beats a group of 10s = 30
    r = read(variant, "R10 JK JK")
    assert_valid(r, "run", 33, ["R11", "R12"], ["R10", "JK", "JK"])
    groups = [a for a in r.alternatives if a.kind == "group"]
    assert len(groups) == 1 and groups[0].value == 30


@pytest.mark.parametrize("variant", TILE_VARIANTS)
def test_descending_run_against_group(variant: str) -> None:
    # R12 JK JK: ascending impossible (14), descending 12-11-10 = 33; group of 12s = 36
    r = read(variant, "R12 JK JK")
    assert_valid(r, "group", 36, ["?12", "?12"])
    runs = [a for a in r.alternatives if a.kind == "run"]
    assert len(runs) == 1 and runs[0].value == 33
    assert list(runs[0].jokers) == ["R10", "R11"]


@pytest.mark.parametrize("variant", TILE_VARIANTS)
def test_pinning_an_impossible_reading_is_invalid(variant: str) -> None:
    assert_invalid(read(variant, "R7 B7 K7", as_="run"))
    assert_invalid(read(variant, "R5 R6 R7", as_="group"))


# --------------------------------------------------------------------------------------------
# Pairs: Rummy 101 only; two identical tiles, a joker may replace one, never both


@pytest.mark.parametrize(
    ("meld", "tiles", "jokers", "value"),
    [
        ("R7 R7", ["R7", "R7"], [], 14),
        ("R7 JK", ["R7", "JK"], ["R7"], 14),
        ("JK R7", None, ["R7"], 14),
        ("B13 JK", ["B13", "JK"], ["B13"], 26),
        ("y1 Y1", ["Y1", "Y1"], [], 2),
    ],
)
def test_rummy101_pairs(meld: str, tiles: list[str] | None, jokers: list[str], value: int) -> None:
    assert_valid(read("rummy101", meld), "pair", value, jokers, tiles)
    assert_valid(read("rummy101", meld, as_="pair"), "pair", value, jokers, tiles)


@pytest.mark.parametrize("meld", ["JK JK", "R7 B7", "R7 R8", "K7 Y7"])
def test_rummy101_not_pairs(meld: str) -> None:
    # two jokers are not a pair; same number in another colour is not a pair (seed 000)
    assert_invalid(read("rummy101", meld))


@pytest.mark.parametrize("variant", ("tile_rummy", "my_rummy"))
@pytest.mark.parametrize("meld", ["R7 R7", "R7 JK"])
def test_no_pairs_outside_rummy101(variant: str, meld: str) -> None:
    assert_invalid(read(variant, meld))


def test_no_pairs_in_carousel() -> None:
    assert_invalid(read("carousel", "7S 7S"))
    assert_invalid(read("carousel", "7S JK"))


def test_three_identical_tiles_are_no_meld_in_rummy101() -> None:
    assert_invalid(read("rummy101", "R7 R7 JK"))


# --------------------------------------------------------------------------------------------
# Gin: no jokers; ace low only (A-2-3 yes, Q-K-A no); values A 1, J Q K 10


@pytest.mark.parametrize(
    ("meld", "kind", "tiles", "value"),
    [
        ("AS 2S 3S", "run", ["AS", "2S", "3S"], 6),
        ("3S 2S AS", "run", ["AS", "2S", "3S"], 6),
        ("JS QS KS", "run", ["JS", "QS", "KS"], 30),
        ("KS JS QS", "run", ["JS", "QS", "KS"], 30),
        ("TH JH QH", "run", ["10H", "JH", "QH"], 30),
        ("9H 10H JH QH KH", "run", ["9H", "10H", "JH", "QH", "KH"], 49),
        (suit_seq("D", 1, 13), "run", None, 85),
        ("7H 7D 7C", "group", None, 21),
        ("KH KD KC KS", "group", None, 40),
        ("AS AH AD", "group", None, 3),
    ],
)
def test_gin_melds(meld: str, kind: str, tiles: list[str] | None, value: int) -> None:
    assert_valid(read("gin", meld), kind, value, [], tiles)


@pytest.mark.parametrize(
    "meld",
    ["QS KS AS", "KS AS 2S", "QH KH AH", "AS 2H 3S", "7H 7D", "2C 3C 5C", "AS KS QS"],
)
def test_gin_invalid_melds(meld: str) -> None:
    assert_invalid(read("gin", meld))


# --------------------------------------------------------------------------------------------
# Carousel: ace low or high (A-2-3, Q-K-A yes; K-A-2 no, never both); jokers allowed and
# may be declared; two decks unless 2 players


@pytest.mark.parametrize(
    ("meld", "kind", "tiles", "jokers", "value"),
    [
        ("QS KS AS", "run", ["QS", "KS", "AS"], [], 21),
        ("AS 2S 3S", "run", ["AS", "2S", "3S"], [], 6),
        ("AS KS QS", "run", ["QS", "KS", "AS"], [], 21),  # descending Q-K-A
        ("JS QS KS AS", "run", ["JS", "QS", "KS", "AS"], [], 31),
        (suit_seq("H", 1, 13), "run", None, [], 85),
        (suit_seq("H", 2, 14), "run", None, [], 85),
        ("QS KS JK", "run", ["QS", "KS", "JK"], ["AS"], 21),  # joker above K is the ace
        ("JK KS AS", "run", ["JK", "KS", "AS"], ["QS"], 21),
        ("KS AS JK", "run", ["JK", "KS", "AS"], ["QS"], 21),  # K-A-? cannot go up: Q
        ("JK 2S 3S", "run", ["JK", "2S", "3S"], ["AS"], 6),
        ("JK AS 2S", "run", ["AS", "2S", "JK"], ["3S"], 6),  # JK before the low ace: up
        ("5D JK 7D", "run", ["5D", "JK", "7D"], ["6D"], 18),
        ("JK QH KH", "run", ["JK", "QH", "KH"], ["JH"], 30),  # a joker counts as the jack
        ("5D JK JK 8D", "run", ["5D", "JK", "JK", "8D"], ["6D", "7D"], 26),
        ("QS QH QD QC", "group", None, [], 40),
        ("QS QH JK", "group", None, ["?Q"], 30),
        ("AS AH JK", "group", None, ["?A"], 3),
        ("7H 7D 7C", "group", None, [], 21),
    ],
)
def test_carousel_melds(
    meld: str, kind: str, tiles: list[str] | None, jokers: list[str], value: int
) -> None:
    assert_valid(read("carousel", meld), kind, value, jokers, tiles)


@pytest.mark.parametrize(
    "meld",
    [
        "KS AS 2S",  # a wrap
        "QS KS AS 2S",
        "KS JK 2S",  # the joker would be the ace in a wrap
        "AS " + suit_seq("S", 2, 13) + " AS",  # ace both low and high, 14 cards
        suit_seq("S", 1, 13) + " JK",
        "8S 8S 8H",  # no suit twice in a group (two decks hold two 8S)
        "8S 8H 8D 8C JK",
        "AS 2H 3S",
    ],
)
def test_carousel_invalid_melds(meld: str) -> None:
    assert_invalid(read("carousel", meld))


def test_carousel_two_jokers_group_or_run() -> None:
    # JK JK 5D: group of 5s = 15 beats the run 3-4-5 = 12
    r = read("carousel", "JK JK 5D")
    assert_valid(r, "group", 15, ["?5", "?5"])
    runs = [a for a in r.alternatives if a.kind == "run"]
    assert len(runs) == 1 and runs[0].value == 12 and list(runs[0].jokers) == ["3D", "4D"]
    assert_valid(read("carousel", "JK JK 5D", as_="run"), "run", 12, ["3D", "4D"])


# Declared jokers (RULES.md §6: the joker stands for a declared card)


@pytest.mark.parametrize(
    ("meld", "declare", "kind", "jokers", "value"),
    [
        ("7H JK 9H", ["8H"], "run", ["8H"], 24),
        ("8S 8H JK", ["8D"], "group", ["8D"], 24),
        ("8S 8H JK", ["8C"], "group", ["8C"], 24),
        ("QS KS JK", ["AS"], "run", ["AS"], 21),
        ("5D JK JK 8D", ["6D", "7D"], "run", ["6D", "7D"], 26),
        ("QS QH JK", ["QD"], "group", ["QD"], 30),
    ],
)
def test_carousel_declared_jokers(
    meld: str, declare: list[str], kind: str, jokers: list[str], value: int
) -> None:
    r = read("carousel", meld, declare=declare)
    assert_valid(r, kind, value, jokers)
    assert [str(p) for p in r.joker_pieces] == jokers


@pytest.mark.parametrize(
    ("meld", "declare"),
    [
        ("7H JK 9H", ["8S"]),  # wrong suit for the run
        ("7H JK 9H", ["10H"]),  # not the missing card
        ("8S 8H JK", ["8S"]),  # spades twice in the group
        ("8S 8H JK", ["9D"]),  # wrong rank
        ("KS JK 2S", ["AS"]),  # a wrap through the declared ace
        ("7H JK 9H", ["8H", "9H"]),  # more declarations than jokers
    ],
)
def test_carousel_bad_declarations(meld: str, declare: list[str]) -> None:
    assert_invalid(read("carousel", meld, declare=declare))


def test_carousel_undeclared_group_joker_is_open() -> None:
    r = read("carousel", "8S 8H JK")
    assert_valid(r, "group", 24, ["?8"])
    assert list(r.joker_pieces) == [None]


# --------------------------------------------------------------------------------------------
# Values: a joker counts as what it stands for (tiles: number; cards: A 1, J Q K 10)


@pytest.mark.parametrize(
    ("variant", "meld", "value"),
    [
        ("tile_rummy", "R11 R12 JK", 36),
        ("rummy101", "K9 K10 K11", 30),
        ("rummy101", "R11 B11 K11", 33),  # seed 000 "33 + 36 + 33 = 102"
        ("rummy101", "B11 B12 B13", 36),
        ("tile_rummy", "R9 R10 R11", 30),  # seed 001 initial meld example "91011"
        ("tile_rummy", "R3 B3 K3 Y3", 12),
        ("carousel", "JK QS KS", 30),
        ("carousel", "10C JC JK", 30),
        ("gin", "10C JC QC", 30),
        ("gin", "AC 2C 3C 4C", 10),
    ],
)
def test_meld_values(variant: str, meld: str, value: int) -> None:
    r = read(variant, meld)
    assert r.valid
    assert r.value == value


def test_is_meld() -> None:
    rules = meld_rules("rummy101")
    assert is_meld(parse_pieces("R7 R7", "tiles"), rules)
    assert is_meld(parse_pieces("JK JK R10", "tiles"), rules)
    assert not is_meld(parse_pieces("R12 R13 R1", "tiles"), rules)
    assert not is_meld(parse_pieces("R7 R7", "tiles"), meld_rules("tile_rummy"))
    assert is_meld(parse_pieces("QS KS AS", "cards"), meld_rules("carousel"))
    assert not is_meld(parse_pieces("QS KS AS", "cards"), meld_rules("gin"))


# --------------------------------------------------------------------------------------------
# Re-reading the normalised meld gives the same verdict (explicit cases)


@pytest.mark.parametrize(
    ("variant", "meld"),
    [
        ("tile_rummy", "JK R9 R8"),
        ("tile_rummy", "R12 JK R13"),
        ("tile_rummy", "R13 R11 JK JK"),
        ("tile_rummy", "JK JK R10"),  # a group of one tile and two jokers
        ("rummy101", "R12 JK JK"),
        ("carousel", "JK JK 5D"),
        ("carousel", "KS AS JK"),
    ],
)
def test_reread_normalised(variant: str, meld: str) -> None:
    r = read(variant, meld)
    assert r.valid
    again = read_meld(list(r.pieces), meld_rules(variant))
    assert (again.valid, again.kind, again.value, again.jokers) == (
        r.valid,
        r.kind,
        r.value,
        r.jokers,
    )


# --------------------------------------------------------------------------------------------
# Properties: random valid runs / groups / pairs with random joker substitutions


def card_points(piece: Tile | Card) -> int:
    return piece_value(piece)


@st.composite
def generated_melds(
    draw: st.DrawFn, variant: str
) -> tuple[str, list[Tile | Card], list[Piece], list[Tile | Card]]:
    """(kind, the real pieces, the meld with jokers substituted, the pieces jokers replace)."""
    rules = meld_rules(variant)
    kinds = ["run", "group"] + (["pair"] if rules.pairs else [])
    kind = draw(st.sampled_from(kinds))
    fam = draw(st.integers(0, 3))
    real: list[Tile | Card]
    if kind == "run":
        top = 14 if rules.ace_high else 13
        length = draw(st.integers(3, 13))
        start = draw(st.integers(1, top - length + 1))
        real = [
            make_piece(rules.material, 1 if n == 14 else n, fam)
            for n in range(start, start + length)
        ]
    elif kind == "group":
        number = draw(st.integers(1, 13))
        size = draw(st.sampled_from([3, 4]))
        fams = draw(st.permutations([0, 1, 2, 3]))[:size]
        real = [make_piece(rules.material, number, f) for f in fams]
    else:
        number = draw(st.integers(1, 13))
        tile = make_piece("tiles", number, fam)
        real = [tile, tile]
    max_jokers = 2 if rules.jokers else 0  # 2 in the tile set and in two Carousel decks
    positions = draw(
        st.sets(st.integers(0, len(real) - 1), max_size=min(max_jokers, len(real) - 1))
    )
    with_jokers: list[Piece] = [JOKER if i in positions else p for i, p in enumerate(real)]
    replaced = [real[i] for i in sorted(positions)]
    return kind, real, with_jokers, replaced


def variant_and_meld() -> st.SearchStrategy[tuple[str, tuple[str, list, list, list]]]:
    return st.sampled_from(VARIANTS).flatmap(
        lambda v: st.tuples(st.just(v), generated_melds(v))  # type: ignore[arg-type]
    )


def open_name(variant: str, number: int) -> str:
    if meld_rules(variant).material == "tiles":
        return f"?{number}"
    return "?" + {1: "A", 11: "J", 12: "Q", 13: "K"}.get(number, str(number))


@given(variant_and_meld())
def test_generated_meld_pinned_reading_follows_the_rule(
    case: tuple[str, tuple[str, list, list, list]],
) -> None:
    variant, (kind, real, with_jokers, replaced) = case
    rules = meld_rules(variant)
    piece_set(variant).check_copies(with_jokers)  # the generator stays within the set
    r = read_meld(with_jokers, rules, kind)  # type: ignore[arg-type]
    assert r.valid, (variant, names(with_jokers), r.message)
    assert r.kind == kind
    assert r.value == sum(card_points(p) for p in real)
    if kind == "run":
        # entered ascending: the given order stands, each joker is the piece it replaced
        assert list(r.jokers) == names(replaced)
        assert names(r.pieces) == names(with_jokers)
    elif kind == "group":
        assert list(r.jokers) == [open_name(variant, real[0].number)] * len(replaced)
        assert Counter(names(r.pieces)) == Counter(names(with_jokers))
    else:
        assert list(r.jokers) == names(replaced)
    # unpinned: valid, and worth at least the pinned reading
    best = read_meld(with_jokers, rules)
    assert best.valid
    assert best.value >= r.value
    assert all(best.value >= a.value for a in best.alternatives)


@given(variant_and_meld(), st.randoms(use_true_random=False), st.booleans())
def test_reread_normalised_gives_same_verdict(
    case: tuple[str, tuple[str, list, list, list]], rnd: object, shuffle: bool
) -> None:
    variant, (_kind, _real, with_jokers, _replaced) = case
    rules = meld_rules(variant)
    pieces = list(with_jokers)
    if shuffle:
        rnd.shuffle(pieces)  # type: ignore[attr-defined]
    r = read_meld(pieces, rules)
    if not r.valid:
        return  # a shuffled run may be unreadable (a joker moved out of its place)
    again = read_meld(list(r.pieces), rules)
    assert (again.valid, again.kind, again.value, again.jokers) == (
        r.valid,
        r.kind,
        r.value,
        r.jokers,
    ), (variant, names(pieces), names(r.pieces))
