"""The second hostile tester's findings of session 9: the host's own tab opened at the LAN
address (lockable by anything sharing that address), and joined names passing for the host's
side or the referee."""

from __future__ import annotations

from typing import Any

import pytest

from app import __main__ as entry
from app import live


class _Conn:
    def close(self) -> None:
        pass


def _opened(monkeypatch: pytest.MonkeyPatch, host: str, urls: list[str]) -> list[str]:
    opened: list[str] = []
    monkeypatch.setattr(entry.socket, "create_connection", lambda *_a, **_k: _Conn())
    monkeypatch.setattr(entry.webbrowser, "open", opened.append)
    monkeypatch.setattr(entry, "print_qr", lambda *_a: None)
    monkeypatch.setattr(live, "_host_key", "K" * 32)
    entry._announce(host, 8550, urls, True, live.host_url(urls[0]))
    return opened


def test_shared_on_the_network_the_host_browser_opens_at_the_loopback_address(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    urls = ["http://192.168.1.5:8550/", "http://127.0.0.1:8550/"]
    assert _opened(monkeypatch, "0.0.0.0", urls) == ["http://127.0.0.1:8550/?key=" + "K" * 32]
    out = capsys.readouterr().out
    # the printed addresses stay as they were: the LAN one for phones, the host's with the key
    assert "running at http://192.168.1.5:8550/" in out
    assert "http://192.168.1.5:8550/?key=" + "K" * 32 in out


def test_on_this_computer_only_the_browser_opens_at_that_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    urls = ["http://127.0.0.1:8550/"]
    assert _opened(monkeypatch, "127.0.0.1", urls) == ["http://127.0.0.1:8550/?key=" + "K" * 32]


@pytest.mark.parametrize(
    "name",
    [
        "This computer",
        "THIS  COMPUTER",
        "Ten komputer",
        "Tento počítač",
        "Tento pocitac",
        "Referee",
        "Sędzia",
        "Sedzia",
        "Rozhodca",
        "The referee",
    ],
)
def test_names_of_the_hosts_side_or_the_referee_are_refused(name: str) -> None:
    with pytest.raises(live.AccessError):
        live.check_joined_name(name)


@pytest.mark.parametrize("name", ["Ala", "Komputerowiec Jan", "Počítačka", "Tomek"])
def test_ordinary_names_still_join(name: str) -> None:
    assert live.check_joined_name(name) == name


def test_the_no_framing_rule_joins_the_pages_own_policy() -> None:
    from app.guard import NoFraming

    got = NoFraming.framed(
        [(b"content-security-policy", b"default-src 'self';"), (b"X-Frame-Options", b"SAMEORIGIN")]
    )
    assert got == [
        (b"content-security-policy", b"default-src 'self'; frame-ancestors 'none'"),
        (b"x-frame-options", b"DENY"),
    ]
    assert NoFraming.framed([(b"content-type", b"text/html")]) == [
        (b"content-type", b"text/html"),
        (b"x-frame-options", b"DENY"),
        (b"content-security-policy", b"frame-ancestors 'none'"),
    ]
