"""Joined names that look like "Host" or like the app's own labels (hostile-phone findings)."""

from __future__ import annotations

import pytest

from app import games, live
from app.guard_names import skeleton


@pytest.mark.parametrize(
    "name",
    [
        "Hɵst",  # Latin barred o
        "Hөst",  # Cyrillic barred o
        "Hѳst",  # Cyrillic fita
        "Hθst",  # Greek theta
        "HΘST",
        "Hꝋst",  # Latin o with a long stroke overlay
        "ɦost",  # h with a hook
        "Hoʂt",  # s with a hook
        "A phon3 on the netw0rk",
        "H05t",
        "The h0st's c0mput3r",
        "4dmin",
    ],
)
def test_look_alikes_of_the_host_are_refused(name: str) -> None:
    with pytest.raises(live.AccessError) as e:
        live.check_joined_name(name)
    assert e.value.detail == "reserved"


def test_digits_and_barred_letters_fold_for_comparison_only() -> None:
    assert skeleton("Hɵst") == skeleton("Hөst") == skeleton("Hθst") == "host"
    assert skeleton("A phon3 on the netw0rk") == skeleton("A phone on the network")
    assert skeleton("B4rt3k 5") == skeleton("Bartek s")
    assert live.check_joined_name("Ann4") == "Ann4"  # shown as typed


def test_polish_and_slovak_names_stay_apart() -> None:
    names = ["Łukasz", "Ján", "Ľubica", "Žofia", "Marcin", "Ewa", "Ewelina", "Ola", "Tomasz"]
    assert len({skeleton(n) for n in names}) == len(names)
    for n in names:
        assert live.check_joined_name(n) == n


SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
"""🏴󠁧󠁢󠁳󠁣󠁴󠁿: the black flag, the tag letters g b s c t and the cancel tag."""


@pytest.mark.parametrize("name", [f"Ala {SCOTLAND}", SCOTLAND, f"{SCOTLAND}{SCOTLAND} Ewa"])
def test_a_subdivision_flag_is_a_name_the_host_may_give(name: str) -> None:
    """The host's own players (new game, rename) take the flag as the joined phones do."""
    assert games._check_name(name) == name
    game = games.new_game("gin", [name, "Ola"])
    assert game.players[0] == name
    assert live.check_joined_name(name) == name


def test_a_flag_counts_as_one_character() -> None:
    assert games._check_name("a" * 39 + SCOTLAND) == "a" * 39 + SCOTLAND
    with pytest.raises(games.GameError):
        games._check_name("a" * 40 + SCOTLAND)


@pytest.mark.parametrize(
    "name",
    [
        "Ala\U000e0067",  # a stray tag letter: invisible
        "Ala \U000e0067\U000e0062\U000e007f",  # tags without the black flag
        "Ala \U0001f3f4\U000e0067\U000e0062",  # a flag without its cancel tag
        "Ala \U0001f3f4\U000e007f\U000e007f",  # no tag letter
        "Ala\u200b",  # zero-width space
        "\u3164",  # Hangul filler: blank
        "\u2800 \u115f",  # braille blank, Hangul filler
        "a" * 41,
    ],
)
def test_invisible_blank_and_over_long_names_stay_refused(name: str) -> None:
    with pytest.raises(games.GameError):
        games._check_name(name)
    with pytest.raises(games.GameError):
        games.new_game("gin", [name, "Ola"])
