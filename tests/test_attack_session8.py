"""Holes a hostile phone found in session 8, each shut: a page of another site driving the host's
browser (cross-site websocket hijacking), a phone shut out by "New join code"
getting its rights back through another game's join, accented Greek capitals passing for
"Host" or for another phone's name."""

from __future__ import annotations

import pytest

from app import games, live
from app.guard import same_origin
from app.guard_names import skeleton
from app.live import Hub, SessionStore, Visitor
from app.store import Store

HOST_IP = "127.0.0.1"
PHONE_IP = "192.168.1.23"


@pytest.mark.parametrize(
    ("headers", "ok"),
    [
        ({"host": "127.0.0.1:8550", "origin": "http://127.0.0.1:8550"}, True),
        ({"host": "localhost:8550", "origin": "http://localhost:8550"}, True),
        ({"host": "[::1]:8550", "origin": "http://[::1]:8550"}, True),
        ({"host": "192.168.1.10:8550", "origin": "http://192.168.1.10:8550"}, True),
        ({"host": "192.168.1.10:8550"}, True),  # not a browser: judged by its address alone
        ({"host": "rummy.local:8550", "origin": "http://rummy.local:8550"}, True),
        # a page of another site opened in the host's browser
        ({"host": "127.0.0.1:8631", "origin": "http://192.0.2.2:8777"}, False),
        ({"host": "127.0.0.1:8631", "origin": "http://evil.example"}, False),
        ({"host": "127.0.0.1:8631", "origin": "null"}, False),
        ({"host": "127.0.0.1:8631", "origin": "http://127.0.0.1:8632"}, False),
        ({"host": "rummy-table.lan:8550", "origin": "http://rummy-table.lan:8550"}, True),
        ({"host": "rummy-table.lan:8550", "origin": "http://evil.example:8550"}, False),
        ({}, False),
    ],
)
def test_only_the_apps_own_pages_open_a_websocket(headers: dict[str, str], ok: bool) -> None:
    assert same_origin(headers) is ok


def test_a_phone_shut_out_by_a_new_code_stays_out_after_joining_another_game(
    store: Store,
) -> None:
    access = live.Access(store)
    host = SessionStore(store, access, Visitor.from_peer(HOST_IP), Hub())
    a = host.create_game(games.new_game("rummy101", ["Ala", "Ola"]))
    b = host.create_game(games.new_game("rummy101", ["Ala", "Ola"]))
    code_a, code_b = access.ensure_code(a.id), access.ensure_code(b.id)
    phone = SessionStore(store, access, Visitor.from_peer(PHONE_IP), Hub())
    assert phone.join(a.id, code_a, "Bartek") == a.id
    access.new_code(a.id)  # the host shuts the phone out of game A
    assert not phone.can_edit(a.id)
    assert phone.join(b.id, code_b, "Bartek") == b.id  # any later join signs the tokens again
    tokens = phone.tokens()
    assert len(tokens) == 1
    back = Visitor.from_peer(PHONE_IP)  # the phone reloads with what it kept
    assert back.restore(access, tokens) == [b.id]
    reloaded = SessionStore(store, access, back, Hub())
    assert reloaded.can_edit(b.id) and not reloaded.can_edit(a.id)


@pytest.mark.parametrize(
    ("name", "like"),
    [
        ("Ήost", "Host"),  # Greek capital eta with tonos
        ("Έwa", "Ewa"),  # Greek capital epsilon with tonos
        ("Haηηa", "Hanna"),  # Greek small eta
        ("Admiη", "Admin"),
    ],
)
def test_accented_greek_capitals_and_eta_fold_to_the_latin_letters(name: str, like: str) -> None:
    assert skeleton(name) == skeleton(like)


def test_accented_greek_host_is_refused() -> None:
    with pytest.raises(live.AccessError) as e:
        live.check_joined_name("Ήost")
    assert e.value.detail == "reserved"


def test_polish_and_slovak_accents_still_tell_names_apart() -> None:
    assert skeleton("Ján") == skeleton("Jan")  # as before: accents fold for comparison
    assert skeleton("Łukasz") == skeleton("Lukasz")
    assert skeleton("Ola") != skeleton("Ala")
