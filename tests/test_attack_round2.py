"""The second hostile-phone tester's findings (round 2), each over the protocol or in process.

- F1: a joined player's fourth photo within a minute is refused (the picker is told
  ``guard.TOO_MANY_PHOTOS``, the photo screen says so), not a closed connection and a ban;
  only many refused photos a minute ban the address.
- F2: an event that waited for the visitors' turn while its session left, or whose control
  left the page, is dropped with a debug line (no traceback in the log).
- F3: enclosed letters and regional indicators read as their letters ("🅷🅾🆂🆃" is "host").
- F4: keycaps "#️⃣", subdivision flags and joiners inside Persian or Devanagari words pass.
- F6: ``port_free("::", p)`` binds IPv6; per-address limits count an IPv6 address by its /64.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from typing import Any

import pytest

from app import guard, live
from app.__main__ import port_free
from app.guard_names import name_problem, skeleton
from tests.test_attack import _bare_connection
from tests.test_attack_frames import _answer, _photo, _run, _Session

FLAG_SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"


# -- F1: a fourth photo in a minute -------------------------------------------------------------
def _fresh(ip: str) -> Any:
    session = _Session()
    conn = _bare_connection(session, ip)
    conn.big = guard.Bucket(guard.BIG_FRAMES_PER_MINUTE / 60.0, guard.BIG_FRAMES_PER_MINUTE)
    return session, conn


def test_a_fourth_photo_in_a_minute_is_refused_and_told_not_banned() -> None:
    ip = "203.0.113.90"
    session, conn = _fresh(ip)
    frame = _answer(_photo(b"\xff" * 200_000))
    socket_ = _run(conn, [frame] * (guard.BIG_FRAMES_PER_MINUTE + 1))
    errors = [r[3] for r in session.results]
    assert errors == [None] * guard.BIG_FRAMES_PER_MINUTE + [guard.TOO_MANY_PHOTOS]
    assert session.results[-1][2] is None  # the refused photo's bytes are not handed on
    assert not conn.flooded and socket_.close_codes == []
    assert not guard._banned(ip, guard.time.monotonic())


def test_many_refused_photos_a_minute_still_close_and_ban() -> None:
    ip = "203.0.113.91"
    session, conn = _fresh(ip)
    frame = _answer(_photo(b"\xff" * 200_000))
    n = guard.BIG_FRAMES_PER_MINUTE + guard.BIG_REFUSED_PER_MINUTE + 1
    socket_ = _run(conn, [frame] * n)
    told = [r for r in session.results if r[3] == guard.TOO_MANY_PHOTOS]
    assert len(told) == guard.BIG_REFUSED_PER_MINUTE
    assert conn.flooded and socket_.close_codes == [guard.CLOSE_POLICY]
    assert guard._banned(ip, guard.time.monotonic())
    guard._BANNED.pop(ip, None)


def test_the_photo_screen_tells_too_many_photos_in_the_phones_language() -> None:
    from app import i18n
    from app.ui.camera.photo import error_text

    text = error_text("too_many")
    assert text == "Too many photos in a minute: wait a little and try again."
    for lang in ("pl", "sk"):
        with i18n.use_language(lang):
            assert error_text("too_many") != text


# -- F2: an event whose session or control is gone ----------------------------------------------
class _Control:
    def __init__(self, on_page: bool) -> None:
        self.on_page = on_page
        self.ran = False

    @property
    def page(self) -> Any:
        if not self.on_page:
            raise RuntimeError("IconButton(1) Control must be added to the page first")
        return self

    async def _trigger_event(self, name: str, data: Any) -> None:
        self.ran = True
        raise AttributeError("'NoneType' object has no attribute 'page_url'")


class _Conn:
    gone = False


class _FakeSession:
    page = None
    connection = object()

    def error(self, message: str) -> None:
        pass


def _dispatch(control: _Control, conn: _Conn, caplog: pytest.LogCaptureFixture) -> list[str]:
    guard.install()
    session = _FakeSession()
    guard._PEERS[session] = guard.Peer("203.0.113.92", False, False)  # a visitor: takes turns
    with caplog.at_level(logging.DEBUG, logger="app.guard"):
        asyncio.run(guard.GuardedConnection.dispatch(session, control, "click", None, conn))
    guard._PEERS.pop(session, None)
    return [r.levelname for r in caplog.records if r.name == "app.guard"]


def test_an_event_whose_session_left_while_it_waited_is_dropped_quietly(
    caplog: pytest.LogCaptureFixture,
) -> None:
    control, conn = _Control(True), _Conn()
    conn.gone = True
    assert _dispatch(control, conn, caplog) == ["DEBUG"]
    assert not control.ran


def test_an_event_on_a_control_no_longer_on_the_page_is_dropped_quietly(
    caplog: pytest.LogCaptureFixture,
) -> None:
    control = _Control(False)
    assert _dispatch(control, _Conn(), caplog) == ["DEBUG"]
    assert not control.ran


def test_a_failing_handler_is_still_logged_as_an_error(caplog: pytest.LogCaptureFixture) -> None:
    control = _Control(True)
    assert _dispatch(control, _Conn(), caplog) == ["ERROR"]
    assert control.ran


# -- F3: enclosed letters -------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["🅷🅾🆂🆃", "🅗🅞🅢🅣", "🇭🇴🇸🇹", "ⒽⓄⓈⓉ", "🄷🄾🅂🅃", "🅰🅳🅼🅸🅽"])
def test_enclosed_letters_spelling_a_host_word_are_refused(name: str) -> None:
    with pytest.raises(live.AccessError) as e:
        live.check_joined_name(name)
    assert e.value.detail == "reserved"


def test_enclosed_letters_look_like_the_plain_name() -> None:
    assert skeleton("🅚🅐🅢🅘🅐") == skeleton("Kasia")
    assert skeleton("🇰🇦🇸🇮🇦") == skeleton("Kasia")
    assert skeleton("Jaŋ") == skeleton("Jan")
    assert skeleton("🇵🇱") == skeleton("PL")  # a flag reads as its letters (compared only)


# -- F4: legitimate sequences ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "name", ["#️⃣", "*️⃣", "1️⃣", FLAG_SCOTLAND, "Ala " + FLAG_SCOTLAND, "می\u200cخواهم", "क्\u200dष"]
)
def test_keycaps_subdivision_flags_and_script_joiners_pass(name: str) -> None:
    assert name_problem(name, 40) is None
    assert live.check_joined_name(name) == name


@pytest.mark.parametrize(
    ("name", "detail"),
    [
        ("\U000e0067\U000e0062", "unreadable"),  # tags without the flag
        ("\U0001f3f4\U000e0067\U000e0062", "unreadable"),  # a flag without its cancel tag
        ("Ala\U000e0067\U000e007f", "unreadable"),
        ("A\u200cla", "invisible"),  # Latin
        ("م\u200ck", "invisible"),  # two scripts
        ("\u200cمی", "invisible"),
        ("می\u200c", "invisible"),
        ("#", "blank"),
    ],
)
def test_those_parts_elsewhere_are_still_refused(name: str, detail: str) -> None:
    with pytest.raises(live.AccessError) as e:
        live.check_joined_name(name)
    assert e.value.detail == detail


# -- F6: IPv6 --------------------------------------------------------------------------------
def _has_ipv6() -> bool:
    if not socket.has_ipv6:
        return False
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
            s.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _has_ipv6(), reason="no IPv6 on this machine")
def test_port_free_binds_ipv6() -> None:
    with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
        s.bind(("::", 0))
        port = s.getsockname()[1]
        s.listen()
        assert not port_free("::", port)
    assert port_free("::", port)
    assert port_free("::1", port)


def test_port_free_ipv4_still_works() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.listen()
        assert not port_free("127.0.0.1", port)
    assert port_free("127.0.0.1", port)
    assert not port_free("no such host.invalid", port)


def test_ipv6_addresses_count_by_their_64() -> None:
    assert live.address_key("2001:db8:1:2::5") == live.address_key("2001:db8:1:2:ffff::9")
    assert live.address_key("2001:db8:1:2::5") == "2001:db8:1:2::/64"
    assert live.address_key("2001:db8:1:3::5") != live.address_key("2001:db8:1:2::5")
    assert live.address_key("::ffff:192.0.2.7") == "192.0.2.7" == live.address_key("192.0.2.7")
    assert live.address_key(None) == ""


def test_wrong_codes_from_one_64_share_one_limit() -> None:
    clock = [0.0]
    access = live.Access(_NoStore(), clock=lambda: clock[0])
    for i in range(live.MAX_TRIES):
        assert access.find(f"2001:db8:7:7::{i + 1:x}", "AAAAAAAA", []) is None
    with pytest.raises(live.AccessError):
        access.find("2001:db8:7:7:abcd::1", "AAAAAAAA", [])
    assert access.find("2001:db8:7:8::1", "AAAAAAAA", []) is None  # another network


def test_big_bytes_and_photo_reads_count_by_the_64() -> None:
    now = guard.time.monotonic()
    size = guard.BIG_BYTES_PER_ADDRESS // 2 + 1
    assert guard.big_bytes_ok("2001:db8:9:9::1", size, now)
    assert not guard.big_bytes_ok("2001:db8:9:9::2", size, now)  # the same /64
    assert guard.big_bytes_ok("2001:db8:9:a::1", size, now)


class _NoStore:
    pass
