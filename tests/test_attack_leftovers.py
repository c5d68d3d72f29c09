"""Hostile-phone findings, fifth round: a session gone while it starts, forged storage, invisible
names, the photo reader's turns (app/main.py, app/guard_names.py, app/live.py,
app/ui/camera/photo_worker.py). The served app and the raw client are ``tests/test_attack.py``'s.
"""

from __future__ import annotations

import asyncio
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import msgpack
import numpy as np
import pytest
import websockets

from app import guard, i18n, live, main
from app.live import JOINS_PREF, AccessError
from app.ui.camera import photo_worker
from app.ui.table import sharing
from app.vision import imageio
from tests.photo_helpers import meld_jpeg
from tests.test_attack import CODE, REGISTER, Raw, Served, attack, phone_address, serve, stop
from tests.test_attack_photo import slow_read, until


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    srv = serve(tmp_path_factory.mktemp("leftovers"))
    yield srv
    stop(srv)


# -- 3. a session that leaves while it starts ----------------------------------------------------
async def _register_and_leave(srv: Served, delay: float) -> None:
    headers = {"X-Forwarded-For": phone_address()}
    async with websockets.connect(srv.ws, additional_headers=headers, open_timeout=20) as ws:
        page = {"route": "/", "width": 360.0, "height": 740.0, "web": True}
        body = {"session_id": "", "page_name": "", "page": page}
        await ws.send(b"\x00" + msgpack.packb([REGISTER, body]))
        await asyncio.sleep(delay)


@pytest.mark.slow
def test_a_session_that_leaves_while_it_starts_ends_quietly(served: Served) -> None:
    """The tester's log flood: every session that left while it was starting (asking the
    browser for its storage and languages) left a traceback ('NoneType' object has no
    attribute 'loop' in ``Page.run_task``, from ``restore_theme``) and pending tasks."""
    before = served.log.stat().st_size

    async def body(_w: Raw) -> None:
        await asyncio.gather(
            *(_register_and_leave(served, d) for d in (0.0, 0.02, 0.1, 0.3, 0.6, 1.0) * 2)
        )
        await asyncio.sleep(main.ASK_TIMEOUT + 1)  # their starts run on and end

    attack(served, body)
    with served.log.open("rb") as f:
        f.seek(before)
        new = f.read().decode(errors="replace")
    for bad in ("Traceback", "no attribute 'loop'", "Task was destroyed", "never awaited"):
        assert bad not in new, new[-3000:]


# -- 4. forged join tokens in the phone's storage ------------------------------------------------
DEEP = ["[" * 19999, '{"a":' * 4000, "[" * 2000 + "]" * 2000, "[" * 5000]


@pytest.mark.parametrize("stored", [*DEEP, 7, None, {"x": [1]}, '"' + "A" * 50_000 + '"'])
def test_unreadable_stored_tokens_are_none(stored: Any) -> None:
    got = main.stored_tokens(stored)
    assert got is None or not isinstance(got, list) or got == []


def test_stored_tokens_read_as_json_within_the_cap() -> None:
    assert main.stored_tokens('["a.b.c", "d.e.f"]') == ["a.b.c", "d.e.f"]
    assert main.stored_tokens("[" * 10 + "]" * 10) is not None  # shallow nesting parses
    assert main.stored_tokens('["' + "x" * main.JOINS_MAX_CHARS + '"]') is None  # over the cap


def test_deeply_nested_tokens_in_storage_give_a_plain_visitor(served: Served) -> None:
    before = served.log.stat().st_size

    async def body(_w: Raw) -> None:
        for stored in DEEP[:2]:
            phone = Raw(served, phone_address())
            phone.answers[JOINS_PREF] = stored
            await phone.connect(route=f"/game/{served.game_id}")
            assert not phone.crashes and not phone.closed.is_set()
            assert phone.saw("You are watching")  # a watcher: no join taken back
            await phone.close()

    attack(served, body)
    with served.log.open("rb") as f:
        f.seek(before)
        new = f.read().decode(errors="replace")
    assert "RecursionError" not in new and "Traceback" not in new, new[-3000:]


# -- 5. invisible, blank and over-long joined names ----------------------------------------------
REFUSED = {
    "\u200d": "invisible",
    "\u200d\u200d": "invisible",
    "\ufe0f": "invisible",
    "Bo\ufe0fb": "invisible",  # an emoji selector on a letter
    "A\u200dl\u200da": "invisible",
    "Ho\u200dst": "invisible",
    "B\u200cob": "invisible",
    "\ufffc": "unreadable",
    "Bo\ufffdb": "unreadable",
    "B" + "\u0301" * 39: "marks",
    "Bo" + "\u0301\u0300\u0302\u0303\u0304" + "b": "marks",
    "\ufdfa" * 40: "long",  # 720 characters after NFKC
    "\ufdfa" * 3: "long",  # 54
    "...": "blank",
    "- -": "blank",
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_invisible_blank_and_long_names_are_refused(name: str) -> None:
    with pytest.raises(AccessError) as e:
        live.check_joined_name(name)
    assert e.value.reason == "bad_name"
    assert e.value.detail == REFUSED[name], name


@pytest.mark.parametrize(
    "name",
    [
        "Bob",
        "Bób",  # one accent
        "Ngọc Ệ",  # Vietnamese: two marks on a letter
        "Łukasz",
        "\ufdfa\ufdfa",  # 36 characters after NFKC
        "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # an emoji family (joiners)
        "\u2764\ufe0f",  # a heart with its emoji selector
        "1\ufe0f\u20e3",  # a keycap
        "Ola 2",
    ],
)
def test_real_names_and_emoji_sequences_pass(name: str) -> None:
    assert live.check_joined_name(name) == name


def test_each_refusal_is_told_in_the_players_language() -> None:
    said: dict[str, set[str]] = {}
    for lang in ("en", "pl", "sk"):
        with i18n.use_language(lang):
            for detail in ("invisible", "marks", "blank", "long", "unreadable"):
                e = AccessError("bad_name", "x")
                e.detail = detail
                said.setdefault(lang, set()).add(sharing.access_message(e))
    assert all(len(s) == 5 for s in said.values()), said  # five different sentences
    assert said["pl"].isdisjoint(said["en"]) and said["sk"].isdisjoint(said["en"])


def test_an_invisible_name_over_the_protocol_is_refused_with_the_right_code(
    served: Served,
) -> None:
    async def body(_w: Raw) -> None:
        for name, told in [
            ("\u200d", "invisible character"),
            ("\ufdfa" * 40, "too long"),
            ("B" + "\u0301" * 39, "too many accents"),
        ]:
            phone = await Raw(served, phone_address()).connect(f"/join?game={served.game_id}")
            await phone.wait(lambda p=phone: len(p.find("TextField")) >= 2)
            fields = {phone.controls[i].get("max_length"): i for i in phone.find("TextField")}
            await phone.props(fields[16], {"value": CODE})
            await phone.props(fields[40], {"value": name})
            await phone.event(phone.find("FilledButton")[-1], "click")
            assert await phone.wait(lambda p=phone, t=told: p.saw(t)), name  # noqa: B023
            assert not phone.saw("^Joined")
            await phone.close()

    attack(served, body)


def test_look_alikes_of_the_host_stay_refused_beside_the_new_checks() -> None:
    for name in ("Hοst", "Ноst", "HOST", "H\u0336ost", "Ｈｏｓｔ", "ʜᴏsᴛ"):
        with pytest.raises(AccessError):
            live.check_joined_name(name)
    assert unicodedata.normalize("NFKC", "Ｈｏｓｔ") == "Host"


# -- 2. the photo reader's turns -----------------------------------------------------------------
def test_decode_work_is_pixels_times_scans() -> None:
    img = np.full((64, 80, 3), 200, np.uint8)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    assert ok
    data = bytes(buf.tobytes())
    scans = imageio.jpeg_cost(data)[0]
    assert scans > 1  # progressive
    assert photo_worker.decode_work(data) == 64 * 80 * scans
    assert photo_worker.decode_work(b"not a picture") == 0


@pytest.mark.slow
def test_players_are_read_before_watchers_and_one_read_per_address(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The tester's queue attack: watchers from one address (and a few others) keep the one
    reader busy; a joined phone and the host are served first, and take a watcher's place in
    a full queue; a second read from a watcher's address is refused at once."""
    monkeypatch.setattr(photo_worker, "read_safely", slow_read)
    who = {"s0": ("10.0.0.1", 2), "s0b": ("10.0.0.1", 2), "j": ("10.0.0.9", 1), "h": (None, 0)}
    who.update({f"w{k}": (f"10.0.1.{k}", 2) for k in range(1, 9)})
    monkeypatch.setattr(photo_worker, "_who", lambda s: who[s])
    started = tmp_path / "started"
    good = meld_jpeg(["K9", "K10", "K11"])
    n = photo_worker.WAITING_MAX
    order: list[str] = []

    def read(session: str, data: bytes = good) -> asyncio.Future[dict[str, Any]]:
        job = asyncio.ensure_future(photo_worker.read_in_worker(data, session=session))
        job.add_done_callback(lambda _f: order.append(session))
        return job

    async def scene() -> dict[str, dict[str, Any]]:
        slow = read("s0", b"SLOW:" + str(started).encode())
        await until(started.exists, "the slow read to start")
        same_address = await photo_worker.read_in_worker(good, session="s0b")
        watchers = {f"w{k}": read(f"w{k}") for k in range(1, n + 1)}
        await until(lambda: photo_worker.pending() == n + 1, "the watchers to wait")
        joined, host = read("j"), read("h")
        await until(lambda: photo_worker.pending() == n + 1, "the players to take places")
        late = await photo_worker.read_in_worker(good, session=f"w{n + 1}")
        photo_worker.cancel("s0")
        got = {k: await w for k, w in watchers.items()}
        got.update(j=await joined, h=await host, s0=await slow, s0b=same_address, late=late)
        return got

    got = asyncio.run(scene())
    assert got["s0b"] == {"ok": False, "error": "busy_session"}  # one per address
    assert got["late"] == {"ok": False, "error": "busy"}  # the queue is full of players' reads
    assert got["h"]["ok"] and got["j"]["ok"], got
    # the last two watchers made room for the players; the others are read after them
    assert [got[f"w{k}"].get("error") for k in range(1, n + 1)] == [None] * (n - 2) + ["busy"] * 2
    read_order = [s for s in order if s in got and got[s].get("ok")]
    assert read_order == ["h", "j"] + [f"w{k}" for k in range(1, n - 1)]


def test_an_address_has_a_budget_of_decoding_work(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(photo_worker, "_who", lambda s: ("10.0.0.7", 2) if s != "h" else (None, 0))
    monkeypatch.setattr(photo_worker, "DECODE_BUDGET", 10_000)
    good = meld_jpeg(["K9", "K10", "K11"])
    assert photo_worker.decode_work(good) > 10_000

    async def scene() -> list[dict[str, Any]]:
        first = await photo_worker.read_in_worker(good, session="a")  # the first always goes
        second = await photo_worker.read_in_worker(good, session="b")  # same address: spent
        host = await photo_worker.read_in_worker(good, session="h")  # the host: no budget
        return [first, second, host]

    first, second, host = asyncio.run(scene())
    assert first["ok"] and host["ok"]
    assert second == {"ok": False, "error": "busy"}


# -- 1. visitors' bursts cannot hold the loop ----------------------------------------------------
def test_visitors_steps_take_turns_and_wait_for_the_hosts_handler() -> None:
    """One synchronous step of one visitor's handler per round of the loop (the sockets are
    polled between), and none while a host's handler runs."""
    log: list[str] = []

    async def visitor(n: int) -> None:
        for i in range(3):
            log.append(f"v{n}.{i}")
            await asyncio.sleep(0)

    async def ticker() -> None:
        while True:
            log.append("tick")
            await asyncio.sleep(0)

    async def scene() -> None:
        tick = asyncio.ensure_future(ticker())
        hosts = guard._hosts()
        hosts.enter()  # a host's handler is running
        steps = [asyncio.ensure_future(guard.Blocking(visitor(n), turn=True)) for n in range(4)]
        for _ in range(20):
            await asyncio.sleep(0)
        assert not [x for x in log if x != "tick"]  # the host's first
        hosts.leave()
        await asyncio.gather(*steps)
        tick.cancel()

    asyncio.run(scene())
    ran = [x for x in log if x != "tick"]
    assert sorted(ran) == sorted(f"v{n}.{i}" for n in range(4) for i in range(3))
    pairs = list(zip(log, log[1:], strict=False))
    assert not [(a, b) for a, b in pairs if a != "tick" and b != "tick"]  # never two in a row


@pytest.mark.slow
def test_the_host_is_answered_while_many_addresses_pulse_the_rule_book(served: Served) -> None:
    """The tester's pulses: many addresses each send one rule-book route change at once (under
    every flood limit). The host's screen still answers (a liveness check, not a timing one)
    and no visitor is closed."""

    async def body(host: Raw) -> None:
        phones = [await Raw(served, phone_address()).connect() for _ in range(8)]
        for pulse in range(3):
            for k, p in enumerate(phones):
                route = ["/rules/gin", "/rules/rummy101", "/rules/tile_rummy"][(k + pulse) % 3]
                await p.go(f"{route}?p={pulse}")
            await host.alive()
        assert not [p for p in phones if p.closed.is_set()]
        for p in phones:
            await p.close()

    attack(served, body)
