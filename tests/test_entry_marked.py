"""A refused "Show the scores" names the first marked field's part of the
screen (its scroll key) and scrolls it into view, so the player sees what is wrong and where
even when it sits above the fold (new-user tester, session 10). Without a browser: the key the
screen scrolls to, and the scroll asked of the app."""

from __future__ import annotations

from typing import Any

import pytest

from app.ui.entry.round_entry import MARK_KEY, RoundEntry, _under, marked
from app.ui.shell import App
from tests.test_views import open_entry, start_game


def part_of(entry: RoundEntry, key: str | None) -> Any:
    assert key is not None
    (part,) = [c for c in entry.form.controls if getattr(c.key, "value", None) == key]
    return part


def scrolls(app: App, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    asked: list[Any] = []
    monkeypatch.setattr(app, "scroll_to", asked.append)
    return asked


def test_a_rummy101_round_refused_points_at_the_first_marked_field(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ala finished (§3); Ola's points left typed wrong ("12a"); Ela not filled in: the first
    # marked part is Ola's (above Ela's), not the button's line
    sheet = start_game(app, "rummy101", ["Ala", "Ola", "Ela"])
    entry = open_entry(app, sheet)
    f: Any = entry.form
    f.winner.pick("Ala")
    f.opened["Ola"].pick("melds")
    f.rests["Ola"].value.value = "12a"
    assert entry.marked_key() is None  # nothing refused yet
    asked = scrolls(app, monkeypatch)
    assert not entry.check()
    key = entry.marked_key()
    assert key is not None and key.startswith(MARK_KEY.format(n="")), key
    part = part_of(entry, key)
    parts = list(entry.form.controls)
    # the part holds Ola's field, and every part before it is clean
    assert any(c is f.rests["Ola"].value for c in _under(part))
    assert marked(part, skip=(f.error,))
    assert not any(marked(c, skip=(f.error,)) for c in parts[: parts.index(part)])
    if entry.body is None:  # the page scrolls; a screen with pinned keys scrolls its body
        assert asked == [key]


def test_nothing_marked_nothing_scrolled(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    sheet = start_game(app, "rummy101", ["Ala", "Ola"])
    entry = open_entry(app, sheet)
    f: Any = entry.form
    f.winner.pick("Ala")
    f.opened["Ola"].pick("melds")
    f.rests["Ola"].value.value = "12"
    asked = scrolls(app, monkeypatch)
    assert entry.check()
    assert entry.marked_key() is None
    assert asked == []
