"""Joined names that look like "Host" or like the app's own labels (hostile-phone findings)."""

from __future__ import annotations

import pytest

from app import live
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
