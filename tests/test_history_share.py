"""Sharing a result (app/ui/sheet/share_result.py) on the games of tests/test_stats.py."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from app import games as g
from app import i18n
from app.store import Store
from app.ui.home.history import FinishedGame
from app.ui.sheet.share_result import font_path, ranking, score_png, summary_text
from app.ui.shell import App
from tests.test_stats import build


@pytest.fixture
def ids(store: Store) -> dict[str, str]:
    return build(store)


def test_summary_text_in_three_languages(store: Store, ids: dict[str, str]) -> None:
    g3 = store.load_game(ids["g3"])
    assert ranking(g3) == [("ALA", 101), ("Ola", -12), ("Elka", -202)]
    with i18n.use_language("en"):
        assert summary_text(g3) == (
            "Rummy 101 · 1 round\nALA 101\nOla \u221212\nElka \u2212202\nWinner: ALA"
        )
    g2 = store.load_game(ids["g2"])
    with i18n.use_language("pl"):
        text = summary_text(g2)
    assert text.splitlines()[1:] == ["Ela 12", "Ola 7", "ala \u221219", "Zwycięstwo: Ela"]
    assert "2 rundy" in text.splitlines()[0]
    with i18n.use_language("sk"):
        text = summary_text(store.load_game(ids["g5"]))  # unfinished: who leads
    assert text.splitlines()[1:] == ["Ola 9", "Ala \u22129", "Vedie: Ola"]


def test_picture_of_the_score_sheet(store: Store, ids: dict[str, str]) -> None:
    assert font_path() is not None  # the Roboto of flet-web: Polish and Slovak letters
    g2 = store.load_game(ids["g2"])
    png = score_png(dataclasses_replace_players(g2))
    with Image.open(io.BytesIO(png)) as im:
        assert im.format == "PNG" and im.width == 720  # 2 × 360 px
        assert im.height > 300
        # the picture is not blank: dark ink in the totals row
        assert im.convert("L").getextrema()[0] < 60


def dataclasses_replace_players(game: g.Game) -> g.Game:
    """The game with Polish and Slovak letters in the names (renamed through people)."""
    from app.people import rename_in_game

    game = rename_in_game(game, "ala", "Łucja")
    return rename_in_game(game, "Ela", "Ľubica Žák")


def test_polish_letters_are_drawn_not_boxes() -> None:
    from app.ui.sheet.share_result import _font

    f = _font(30)
    box = bytes(f.getmask("\uffff"))
    for ch in "ąćęłńóśźżĄŁŻáäčďľĺňôŕšťýžŽ\u2212":
        assert bytes(f.getmask(ch)) != box, ch


def test_share_buttons_on_the_finished_game(store: Store, ids: dict[str, str]) -> None:
    app = App(store)
    app.show(f"/history/{ids['g3']}")
    screen = app.screen
    assert isinstance(screen, FinishedGame)
    screen.sharer.share()
    assert screen.sharer.shared[-1].endswith("Winner: ALA")
    screen.sharer.picture()
    name, data = screen.sharer.pictures[-1]
    assert (
        name.endswith(".png") and name == "rummy101-ala-ola-elka-2026_01_03.png"
    )  # file_stem of the export
    assert data[:8] == b"\x89PNG\r\n\x1a\n"


def test_text_shown_when_nothing_else_works(store: Store, ids: dict[str, str]) -> None:
    from app.ui.sheet.share_result import ShareResult

    app = App(store)
    sharer = ShareResult(app, store.load_game(ids["g3"]))
    sharer.show_text(summary_text(sharer.game))
    assert app.dialog is not None
    box = app.dialog.content.controls[1]
    assert box.read_only and box.value.endswith("Winner: ALA")
