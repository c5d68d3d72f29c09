"""The game as a whole in the browser at 360×740 (issue 10, points 6, 9, 10, 11): ending a
series from the sheet (and a second phone seeing it live), one more round, play again, the
chart ending on the totals with the bonuses, importing a file (a game already here: skip or
keep both), and the referee menu keeping its variant across a reload.

The games are written to the data file before the app starts (app.games, the same entries as
tests/test_flow.py): Tile Rummy Ala, Ola, Ela after two rounds — Ala 29, Ola −38, Ela 9
(RULES.md §4) —, and a gin game Ala gins twice against Bob's 30: 110 in the rounds, 360 with
the game bonus 100, two boxes 50 and the shutout 100 (§5, seed preset).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app import games
from app.store import Store
from tests.browser.conftest import PHONE, Phone, Server

pytestmark = pytest.mark.browser

PLAYERS = ["Ala", "Ola", "Ela"]


def tiles_entry(winner: str, racks: dict[str, list[str]]) -> dict[str, Any]:
    return {
        "players": [
            {"name": p, "winner": True} if p == winner else {"name": p, "hand": racks.get(p, [])}
            for p in PLAYERS
        ]
    }


ROUNDS = [
    tiles_entry("Ala", {"Ola": ["R5", "JK"], "Ela": ["B1", "B2"]}),
    tiles_entry("Ela", {"Ala": ["K9"], "Ola": ["B3"]}),
]
GIN = {
    "knocker": "Ala",
    "players": [{"name": "Ala", "deadwood": 0, "gin": True}, {"name": "Bob", "deadwood": 30}],
}


OLA_OUT = {  # RULES.md §3: Ola goes out (+101), Ala had opened and keeps 20 (−20)
    "finish": "normal",
    "players": [
        {"name": "Ola", "winner": True},
        {"name": "Ala", "opened": "melds", "hand_value": 20, "jokers": 0},
    ],
}


def series() -> games.Game:
    game = games.new_game("tile_rummy", PLAYERS)
    for entry in ROUNDS:
        game = games.add_round(game, entry)
    return game


class Seeded:
    """The server, the ids of the games written before it started, and the files to import."""

    def __init__(self, server: Server, ids: dict[str, str], files: dict[str, Path]) -> None:
        self.server, self.ids, self.files = server, ids, files


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Seeded]:
    folder = tmp_path_factory.mktemp("flow")
    data = folder / "games.json"
    store = Store(data)
    ids: dict[str, str] = {}
    for name in ("end", "watch", "import"):
        ids[name] = store.create_game(series()).id
    gin = games.new_game("gin", ["Ala", "Bob"])
    for _ in range(2):
        gin = games.add_round(gin, GIN)
    ids["gin"] = store.create_game(gin).id
    r101 = games.new_game("rummy101", ["Ala", "Ola"], agreed_rounds=5)  # ended early below
    ids["r101"] = store.create_game(games.add_round(r101, OLA_OUT)).id
    files = {
        "here": folder / "here.json",
        "new": folder / "new.json",
    }
    files["here"].write_text(games.export_json(store.load_game(ids["import"])), encoding="utf-8")
    other = games.add_round(
        games.new_game("my_rummy", ["Kuba", "Zosia"]),
        {"players": [{"name": "Kuba", "winner": True}, {"name": "Zosia", "hand": ["R7"]}]},
    )
    files["new"].write_text(games.export_json(other), encoding="utf-8")
    store.close()
    server = Server(data).start()
    yield Seeded(server, ids, files)
    server.stop()


@pytest.fixture
def phone(chromium: Any, seeded: Seeded) -> Iterator[Phone]:
    context = chromium.new_context(viewport=PHONE, device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield Phone(page, seeded.server.url)
    context.close()


def labels_text(phone: Phone) -> str:
    return "\n".join(phone.labels())


def no_overlap(phone: Phone, *names: str | re.Pattern[str]) -> None:
    """The buttons named are on the screen side by side or one under the other, never on top
    of each other, and within the phone's width."""
    boxes = []
    for name in names:
        loc = phone.role("button", name).first
        loc.wait_for(timeout=15_000)
        phone.into_view(loc)
        box = loc.bounding_box()
        assert box is not None, name
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1, (name, box)
        boxes.append((name, box))
    for i, (a, p) in enumerate(boxes):
        for b, q in boxes[i + 1 :]:
            apart = (
                p["x"] + p["width"] <= q["x"] + 1
                or q["x"] + q["width"] <= p["x"] + 1
                or p["y"] + p["height"] <= q["y"] + 1
                or q["y"] + q["height"] <= p["y"] + 1
            )
            assert apart, (a, p, b, q)


# -- point 9 --------------------------------------------------------------------------------------
def test_end_a_series_one_more_round_and_play_again(phone: Phone, seeded: Seeded) -> None:
    gid = seeded.ids["end"]
    phone.open(f"/game/{gid}")
    phone.wait_text(re.compile("Enter round 3"))
    phone.tap("End the game now")
    phone.dialog("End the game now?")
    phone.wait_text(re.compile("Ala wins with 29 points"))
    phone.shot("flow-01-end-confirm")
    phone.tap("End the game")
    phone.wait_text("Ala wins!")
    time.sleep(0.5)
    assert "Enter round 3" not in labels_text(phone)
    phone.shot("flow-02-ended")
    no_overlap(phone, "Play again with the same players", "One more round")
    phone.tap("One more round")
    phone.wait_text(re.compile("Enter round 3"))
    phone.wait_text(re.compile("3 rounds agreed"))
    phone.shot("flow-03-one-more-round")
    # stop again, and play again with the same players: the next dealer (Ela) starts
    phone.tap("End the game now")
    phone.dialog("End the game now?")
    phone.tap("End the game")
    phone.wait_text("Ala wins!")
    phone.tap("Play again with the same players")
    phone.wait_text(re.compile("Round 1: Ela starts"))
    phone.wait_text(re.compile("Enter round 1"))
    assert not phone.page.url.rstrip("/").endswith(gid)
    phone.shot("flow-04-play-again")


def test_a_second_phone_sees_the_end_live(chromium: Any, seeded: Seeded) -> None:
    gid = seeded.ids["watch"]
    phones = []
    contexts = []
    for _ in range(2):
        context = chromium.new_context(viewport=PHONE, device_scale_factor=1)
        page = context.new_page()
        page.set_default_timeout(20_000)
        contexts.append(context)
        phones.append(Phone(page, seeded.server.url).open(f"/game/{gid}"))
    try:
        host, other = phones
        other.wait_text(re.compile("Enter round 3"))
        host.page.bring_to_front()
        host.tap("End the game now")
        host.dialog("End the game now?")
        host.tap("End the game")
        host.wait_text("Ala wins!")
        other.wait_text("Ala wins!", timeout=20_000)  # no reload: the store's change notice
        other.page.bring_to_front()
        other.shot("flow-05-seen-on-another-phone")
    finally:
        for context in contexts:
            context.close()


# -- point 10 -------------------------------------------------------------------------------------
def test_the_chart_ends_on_the_big_total(phone: Phone, seeded: Seeded) -> None:
    phone.open(f"/game/{seeded.ids['gin']}")
    phone.wait_text("Ala wins!")
    deadline = time.monotonic() + 20
    while "Chart of the totals over 2 rounds; now Ala 360, Bob 0" not in labels_text(phone):
        assert time.monotonic() < deadline, labels_text(phone)
        time.sleep(0.3)
    # the last point is "end", after round 2 (the axis reads 0 1 2 end)
    assert re.search(r"now Ala 360, Bob 0\s+0 1 2 end", labels_text(phone))
    phone.into_view(phone.text("Totals over the rounds"))
    phone.page.mouse.move(PHONE["width"] / 2, PHONE["height"] / 2)
    phone.page.mouse.wheel(0, 300)  # the heading at the top, the whole chart under it
    time.sleep(0.5)
    phone.shot("flow-06-chart-with-bonuses")


# -- point 11 -------------------------------------------------------------------------------------
def choose_file(phone: Phone, path: Path) -> None:
    phone.tap("Import a game (JSON)")
    phone.dialog("Import a game")
    phone.shot("flow-07-import-dialog")
    with phone.page.expect_file_chooser(timeout=20_000) as chooser:
        phone.tap("Choose the file")
    chooser.value.set_files(str(path))


def test_import_a_file_and_a_game_already_here(phone: Phone, seeded: Seeded) -> None:
    phone.open("/")
    choose_file(phone, seeded.files["here"])
    phone.dialog("This game is here already")
    phone.wait_text(re.compile("2 rounds here, 2 in the file"))
    phone.shot("flow-08-already-here")
    no_overlap(phone, "Keep both", "Skip")
    phone.tap("Skip")
    phone.wait_text(re.compile("Enter round 3"))
    assert phone.page.url.rstrip("/").endswith(seeded.ids["import"])
    # a game that is not here: imported from the file at once
    phone.open("/")
    choose_file(phone, seeded.files["new"])
    phone.wait_text(re.compile("Enter round 2"))
    phone.wait_text("Kuba")
    phone.shot("flow-09-imported")
    # the same file again: here already; keep both this time
    phone.open("/")
    choose_file(phone, seeded.files["new"])
    phone.dialog("This game is here already")
    phone.tap("Keep both")
    phone.wait_text(re.compile("Enter round 2"))
    phone.open("/")
    phone.wait_text(re.compile("My Rummy: Kuba, Zosia"))
    resume = phone.page.get_by_text(re.compile("My Rummy: Kuba, Zosia"))
    assert resume.count() >= 2


# -- point 6 --------------------------------------------------------------------------------------
def test_the_referee_menu_keeps_the_variant_and_fits_its_lines(phone: Phone) -> None:
    phone.open("/check")
    phone.wait_text(re.compile("Run, group or pair"))
    phone.chip("Gin Rummy")
    phone.wait_text(re.compile(r"deadwood ≤ 9"))
    text = labels_text(phone)
    assert "joker" not in text.split("Check a meld", 1)[1].lower()
    phone.shot("flow-10-referee-gin")
    phone.reload()
    phone.wait_text(re.compile(r"deadwood ≤ 9"), timeout=30_000)
    box = phone.role("checkbox", "Gin Rummy").first
    assert box.get_attribute("aria-checked") == "true"
    phone.chip("Carousel rummy")
    phone.wait_text(re.compile(r"hand value ≤ 5"))
    phone.shot("flow-11-referee-carousel")
    phone.chip("Tile Rummy")
    phone.wait_text(re.compile("Enough for the initial meld"))
    after = labels_text(phone).split("Check a meld", 1)[1]
    assert "pair" not in after and "discard" not in after
    phone.shot("flow-12-referee-tiles")


def test_in_polish_the_end_buttons_fit_a_phone(chromium: Any, seeded: Seeded) -> None:
    context = chromium.new_context(viewport=PHONE, device_scale_factor=1, locale="pl-PL")
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        phone = Phone(page, seeded.server.url).open(f"/game/{seeded.ids['gin']}")
        phone.wait_text("Zwycięstwo: Ala!")
        phone.wait_text("Zagraj znowu w tym składzie")
        no_overlap(phone, "Zagraj znowu w tym składzie", re.compile("^Sędzia"))
        phone.shot("flow-13-pl-finished")
        phone.open("/")
        phone.tap(re.compile("^Importuj grę"))
        phone.dialog("Importuj grę")
        phone.wait_text("Wybierz plik")
        phone.shot("flow-14-pl-import")
    finally:
        context.close()


# -- leftovers: a game ended early says so; the phones follow "Play again" ---------------------
def test_a_rummy101_game_ended_early_says_so(phone: Phone, seeded: Seeded) -> None:
    phone.open(f"/game/{seeded.ids['r101']}")
    phone.wait_text(re.compile("5 rounds agreed"))
    phone.tap("End the game now")
    phone.dialog("End the game now?")
    phone.tap("End the game")
    phone.wait_text("Ola wins!")
    phone.wait_text("The players ended the game early, after 1 round.")
    phone.wait_text(re.compile("ended early after 1 round"))
    assert "rounds agreed" not in labels_text(phone) and "round agreed" not in labels_text(phone)
    phone.shot("flow-15-ended-early")
    phone.into_view(phone.text(re.compile("ended early after 1 round")))
    phone.shot("flow-16-ended-early-rules-line")
    phone.open("/")  # the games list says so too, not only the sheet
    card = phone.button(re.compile("Winner: Ola · ended by the players after 1 round · "))
    card.wait_for(timeout=15_000)
    phone.into_view(card)
    phone.shot("flow-17-list-ended-early")


@pytest.fixture(scope="module")
def shared_seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    """A shared server (phones on the network) with an ended series whose join code is
    known."""
    import dataclasses

    from tests.browser.test_live import SharedServer

    data = tmp_path_factory.mktemp("again") / "games.json"
    store = Store(data)
    game = dataclasses.replace(series(), join_code=JOIN_CODE)
    gid = store.create_game(game).id
    store.save_game(games.end_game(store.load_game(gid)), 1)
    store.close()
    server = SharedServer(data).start()
    yield server, gid
    server.stop()


JOIN_CODE = "KQ7M2XPD"


def test_watching_phones_follow_play_again(chromium: Any, shared_seeded: tuple[Any, str]) -> None:
    from tests.browser.test_live import VISITOR

    server, gid = shared_seeded
    contexts = []

    def make(visitor: bool) -> Phone:
        context = chromium.new_context(
            viewport=PHONE, device_scale_factor=1, extra_http_headers=VISITOR if visitor else None
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)
        return Phone(page, server.url)

    try:
        host = make(False).open(f"/game/{gid}")
        watcher = make(True).open(f"/game/{gid}")
        joined = make(True).open(f"/game/{gid}?code={JOIN_CODE}")  # the QR code's address
        for phone in (host, watcher, joined):
            phone.wait_text("Ala wins!")
        watcher.wait_text(re.compile("You are watching"))
        assert not [x for x in joined.labels() if "You are watching" in x]
        host.page.bring_to_front()
        host.tap("Play again with the same players")
        host.wait_text(re.compile("Enter round 1"))
        new_id = host.page.url.rstrip("/").rsplit("/", 1)[-1]
        assert new_id != gid
        # the watching phone is taken to the new game, with a word why
        watcher.wait_text(re.compile("Round 1: Ela starts"), timeout=20_000)
        watcher.wait_text("The same players started a new game: here it is.")
        assert watcher.page.url.rstrip("/").endswith(new_id)
        assert not watcher.button(re.compile("^Enter round")).count()
        watcher.page.bring_to_front()
        watcher.shot("flow-17-watcher-followed")
        # the joined phone keeps keeping score: it may enter round 1 of the new game
        joined.wait_text(re.compile("Enter round 1"), timeout=20_000)
        assert joined.page.url.rstrip("/").endswith(new_id)
        joined.page.bring_to_front()
        joined.shot("flow-18-joined-followed")
        # the old game, opened later, links to the new one
        late = make(True).open(f"/game/{gid}")
        late.wait_text("The same players started a new game.")
        late.shot("flow-19-old-game-links")
        late.tap("Open the new game")
        late.wait_text(re.compile("Round 1: Ela starts"))
        assert late.page.url.rstrip("/").endswith(new_id)
    finally:
        for context in contexts:
            context.close()
