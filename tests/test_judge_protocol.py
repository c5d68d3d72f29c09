"""Judge protocol basics (../shared/JUDGE.md) and the `meld` check over the wire.

JSON Lines: one response line per request line, in order; a bad line gets an error response
and the next line is still answered; exit status 0 unless standard input cannot be read. Every
response has `ok`; `ok: false` has `error` (stable snake_case) and `message` (one line).
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.judge import answer, answer_line, serve
from rules.notation import tokens_of
from rules.options import VARIANTS

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT.parent / "shared" / "judge_examples.jsonl"
SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")


def run_judge(data: bytes, timeout: float = 120) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "rules", "judge"],
        input=data,
        capture_output=True,
        cwd=ROOT,
        timeout=timeout,
    )


def responses(proc: subprocess.CompletedProcess[bytes]) -> list[dict[str, Any]]:
    text = proc.stdout.decode("utf-8")
    assert text == "" or text.endswith("\n")
    lines = text.split("\n")[:-1]  # JSON Lines: split on \n only
    out = []
    for line in lines:
        value = json.loads(line)
        assert isinstance(value, dict)
        out.append(value)
    return out


def assert_error(resp: dict[str, Any], code: str | None = None) -> None:
    assert resp["ok"] is False, resp
    assert isinstance(resp["error"], str) and SNAKE.match(resp["error"]), resp
    assert isinstance(resp["message"], str) and resp["message"] and "\n" not in resp["message"]
    if code is not None:
        assert resp["error"] == code, resp


def req(check: str, variant: str, **fields: Any) -> bytes:
    return json.dumps({"check": check, "variant": variant, **fields}).encode()


# --------------------------------------------------------------------------------------------
# One stream, many kinds of line: one answer each, in order

SESSION: list[tuple[bytes, str | None]] = [
    # (line, expected error code or None for ok:true; "?" = any error)
    (req("meld", "rummy101", meld=["R11", "R12", "JK"]), None),
    (b"{bad json", "bad_json"),
    (req("meld", "gin", meld=["AS", "2S", "3S"]), None),
    (b"", "?"),  # blank line
    (b"[1, 2, 3]", "?"),  # JSON, but not an object
    (b'"meld"', "?"),
    (b"null", "?"),
    (b"42", "?"),
    (json.dumps({"variant": "gin", "meld": ["AS"]}).encode(), "missing_field"),
    (json.dumps({"check": "meld", "meld": ["AS"]}).encode(), "missing_field"),
    (req("shuffle", "gin"), "?"),  # unknown check
    (req("meld", "poker", meld=["AS"]), "?"),  # unknown variant
    (req("meld", "gin", meld=["AS", "2S", "3S"], options={"knock": 9}), "unknown_option"),
    (req("meld", "gin", meld=["AS", "2S", "3S"], options={"preset": "vegas"}), "unknown_option"),
    (req("hand", "rummy101", hand=["R1", "R2"]), "unsupported_check"),
    (b'\xff\xfe{"check":"meld","variant":"gin"}', "?"),  # not UTF-8
    (req("meld", "tile_rummy", meld=["R7", "B7", "JK"]), None),
    (b"   \t ", "?"),  # whitespace only
    (req("meld", "rummy101", meld=["R11", "R14"]), "bad_token"),
    (req("meld", "tile_rummy", meld=["R5", "R5", "R5"]), "too_many_copies"),
    (req("meld", "gin", meld=["AS", "JK", "3S"]), "bad_token"),
    (req("meld", "carousel", meld=["QS", "KS", "AS"]) + b"\r", None),  # CRLF line end
    (req("meld", "rummy101", meld=["R12", "R13", "R1"]), None),  # ok, but not valid
    (req("meld", "rummy101", meld=["R7", "R7"]), None),  # last line, no newline
]


@pytest.fixture(scope="module")
def session() -> tuple[subprocess.CompletedProcess[bytes], list[dict[str, Any]]]:
    data = b"\n".join(line for line, _ in SESSION)  # no newline after the last line
    proc = run_judge(data)
    return proc, responses(proc)


def test_session_one_response_per_line(
    session: tuple[subprocess.CompletedProcess[bytes], list[dict[str, Any]]],
) -> None:
    proc, out = session
    assert proc.returncode == 0
    assert len(out) == len(SESSION)
    assert b"Traceback" not in proc.stderr


@pytest.mark.parametrize("index", range(len(SESSION)))
def test_session_answers_in_order(
    session: tuple[subprocess.CompletedProcess[bytes], list[dict[str, Any]]], index: int
) -> None:
    _, out = session
    assert len(out) == len(SESSION)
    expected = SESSION[index][1]
    got = out[index]
    assert isinstance(got.get("ok"), bool)
    if expected is None:
        assert got["ok"] is True, got
    else:
        assert_error(got, None if expected == "?" else expected)


def test_session_verdicts(
    session: tuple[subprocess.CompletedProcess[bytes], list[dict[str, Any]]],
) -> None:
    _, out = session
    first = out[0]
    assert first["valid"] is True
    assert first["kind"] == "run"
    assert first["value"] == 36
    assert first["tiles"] == ["R11", "R12", "JK"]
    assert first["jokers"] == ["R13"]
    gin = out[2]
    assert (gin["valid"], gin["kind"], gin["value"]) == (True, "run", 6)
    group = out[16]
    assert (group["valid"], group["kind"], group["value"], group["jokers"]) == (
        True,
        "group",
        21,
        ["?7"],
    )
    carousel = out[21]
    assert (carousel["valid"], carousel["kind"], carousel["value"]) == (True, "run", 21)
    wrap = out[22]
    assert wrap["valid"] is False
    assert SNAKE.match(wrap["reason"]) and wrap["message"]
    pair = out[23]
    assert (pair["valid"], pair["kind"], pair["value"]) == (True, "pair", 14)


def test_bad_token_message_names_token_and_position(
    session: tuple[subprocess.CompletedProcess[bytes], list[dict[str, Any]]],
) -> None:
    _, out = session
    msg = out[18]["message"]
    assert "R14" in msg
    assert "position 2" in msg


def test_empty_input_gives_no_output_and_status_0() -> None:
    proc = run_judge(b"")
    assert proc.returncode == 0
    assert proc.stdout == b""


def test_only_bad_lines_still_exit_0() -> None:
    proc = run_judge(b"nonsense\n\xff\n{}\n")
    assert proc.returncode == 0
    out = responses(proc)
    assert len(out) == 3
    for r in out:
        assert_error(r)


def test_oversized_lines_answered_and_next_line_still_answered() -> None:
    huge_json = json.dumps(
        {"check": "meld", "variant": "tile_rummy", "meld": ["R1"] * 400_000}
    ).encode()
    huge_garbage = b"x" * 3_000_000
    ok_line = req("meld", "tile_rummy", meld=["R9", "R10", "R11"])
    proc = run_judge(b"\n".join([huge_json, ok_line, huge_garbage, ok_line]) + b"\n")
    assert proc.returncode == 0
    out = responses(proc)
    assert len(out) == 4
    assert_error(out[0])
    assert out[1]["ok"] is True and out[1]["value"] == 30
    assert_error(out[2])
    assert out[3]["ok"] is True and out[3]["value"] == 30


def test_deeply_nested_json_is_answered() -> None:
    deep = b"[" * 200_000 + b"]" * 200_000
    ok_line = req("meld", "gin", meld=["7H", "7D", "7C"])
    proc = run_judge(deep + b"\n" + ok_line + b"\n")
    assert proc.returncode == 0
    out = responses(proc)
    assert len(out) == 2
    assert_error(out[0])
    assert out[1]["ok"] is True and out[1]["value"] == 21


def test_judge_examples_meld_lines() -> None:
    examples = [json.loads(x) for x in EXAMPLES.read_text().splitlines() if x.strip()]
    melds = [e for e in examples if e["request"]["check"] == "meld"]
    assert melds
    proc = run_judge(b"".join(json.dumps(e["request"]).encode() + b"\n" for e in melds))
    out = responses(proc)
    assert len(out) == len(melds)
    for e, got in zip(melds, out, strict=True):
        for key, value in e["expect"].items():
            assert got.get(key) == value, (e["request"], key, got)


# --------------------------------------------------------------------------------------------
# In process: error codes


@pytest.mark.parametrize(
    ("request_obj", "code"),
    [
        ({"variant": "gin"}, "missing_field"),
        ({"check": "meld"}, "missing_field"),
        ({"check": "meld", "variant": "gin"}, "missing_field"),  # no meld
        ({"check": "meld", "variant": "gin", "meld": 7}, None),
        ({"check": "meld", "variant": "gin", "meld": [7, 8, 9]}, None),
        ({"check": "meld", "variant": "gin", "meld": ["AS"], "options": 5}, None),
        (
            {"check": "meld", "variant": "gin", "meld": ["AS"], "options": {"x": 1}},
            "unknown_option",
        ),
        (
            {"check": "meld", "variant": "tile_rummy", "meld": ["R1"], "options": {"preset": "x"}},
            "unknown_option",
        ),
        (
            {"check": "meld", "variant": "gin", "meld": ["AS"], "options": {"knock_max": "x"}},
            None,
        ),
        ({"check": 5, "variant": "gin"}, None),
        ({"check": "meld", "variant": 5, "meld": ["AS"]}, None),
        ({"check": "deal", "variant": "gin"}, None),
        ({"check": "meld", "variant": "canasta", "meld": ["AS"]}, None),
        ({"check": "meld", "variant": "gin", "meld": ["JK", "2S", "3S"]}, "bad_token"),
        ({"check": "meld", "variant": "gin", "meld": ["AS", "AS", "2S"]}, "too_many_copies"),
        ({"check": "meld", "variant": "rummy101", "meld": ["R1", "X5"]}, "bad_token"),
        ({"check": "meld", "variant": "rummy101", "meld": ["0R", "R1"]}, "bad_token"),
        ({"check": "meld", "variant": "rummy101", "meld": ["JK", "JK", "JK"]}, "too_many_copies"),
        ({"check": "meld", "variant": "carousel", "meld": ["J", "QS", "KS"]}, "bad_token"),
        (
            {"check": "meld", "variant": "carousel", "meld": ["AS", "AS", "AH"], "players": 2},
            "too_many_copies",
        ),
        (
            {"check": "meld", "variant": "carousel", "meld": ["JK", "JK", "5S"], "players": 2},
            "too_many_copies",
        ),
        ({"check": "meld", "variant": "tile_rummy", "meld": ["R5", "R6", "R7"], "as": "x"}, None),
        (
            {"check": "meld", "variant": "tile_rummy", "meld": ["R7", "B7", "JK"], "declare": []},
            None,
        ),
    ],
)
def test_error_codes(request_obj: dict[str, Any], code: str | None) -> None:
    resp = answer(request_obj)
    assert_error(resp, code)
    assert resp["error"] != "internal_error"
    json.dumps(resp)


@pytest.mark.parametrize(
    ("check", "variant"),
    [
        ("hand", "rummy101"),
        ("hand", "tile_rummy"),
        ("hand", "my_rummy"),
        ("opening", "gin"),
        ("opening", "carousel"),
        ("turn", "gin"),
        ("split", "gin"),
    ],
)
def test_check_not_applying_to_variant(check: str, variant: str) -> None:
    resp = answer({"check": check, "variant": variant})
    assert_error(resp, "unsupported_check")
    assert variant in resp["message"]


@pytest.mark.parametrize(
    "line",
    [b"", b"\n", b"   ", b"{", b"}", b"\xff\xfe", b"\xc3\x28", b"tru", b"[]", b"{}", "{\u00e9}"],
)
def test_answer_line_never_raises(line: bytes | str) -> None:
    assert_error(answer_line(line))


def test_unknown_check_and_variant_codes() -> None:
    assert_error(answer({"check": "deal", "variant": "gin"}), "unknown_check")
    assert_error(answer({"check": "meld", "variant": "canasta", "meld": []}), "unknown_variant")


@pytest.mark.parametrize("variant", VARIANTS[:5])  # the five (an added one tests itself)
def test_every_variant_answers_meld(variant: str) -> None:
    meld = (
        ["R1", "R2", "R3"]
        if variant in ("rummy101", "tile_rummy", "my_rummy")
        else ["AS", "2S", "3S"]
    )
    resp = answer({"check": "meld", "variant": variant, "meld": meld})
    assert resp["ok"] is True
    assert (resp["valid"], resp["kind"], resp["value"], resp["jokers"]) == (True, "run", 6, [])


# --------------------------------------------------------------------------------------------
# The meld check's own fields: as, declare, players; alternatives


def test_meld_pinning_over_the_wire() -> None:
    base = {"check": "meld", "variant": "rummy101", "meld": ["JK", "JK", "R10"]}
    best = answer(base)
    assert (best["ok"], best["valid"], best["kind"], best["value"]) == (True, True, "group", 30)
    assert best["jokers"] == ["?10", "?10"]
    alts = best["alternatives"]
    assert [(a["kind"], a["value"], a["jokers"]) for a in alts] == [("run", 27, ["R8", "R9"])]
    run = answer({**base, "as": "run"})
    assert (run["kind"], run["value"], run["jokers"]) == ("run", 27, ["R8", "R9"])
    assert run["tiles"] == ["JK", "JK", "R10"]
    group = answer({**base, "as": "group"})
    assert (group["kind"], group["value"]) == ("group", 30)


def test_meld_descending_normalised_over_the_wire() -> None:
    resp = answer({"check": "meld", "variant": "tile_rummy", "meld": ["r9", "jk", "R7"]})
    assert resp["tiles"] == ["R7", "JK", "R9"]
    assert resp["jokers"] == ["R8"]
    assert resp["value"] == 24


def test_meld_canonical_tokens_in_answer() -> None:
    resp = answer({"check": "meld", "variant": "carousel", "meld": ["th", "j♥", "*"]})
    assert resp["ok"] is True
    assert resp["tiles"] == ["10H", "JH", "JK"]
    assert resp["jokers"] == ["QH"]
    assert resp["value"] == 30


def test_meld_declare_over_the_wire() -> None:
    base = {"check": "meld", "variant": "carousel", "meld": ["8S", "8H", "JK"]}
    resp = answer({**base, "declare": ["8D"]})
    assert (resp["valid"], resp["kind"], resp["jokers"], resp["value"]) == (
        True,
        "group",
        ["8D"],
        24,
    )
    resp = answer({**base, "declare": ["8S"]})
    assert resp["ok"] is True and resp["valid"] is False
    resp = answer({**base})
    assert resp["jokers"] == ["?8"]


def test_carousel_players_field() -> None:
    base = {"check": "meld", "variant": "carousel", "meld": ["JK", "JK", "5S"]}
    assert answer(base)["ok"] is True  # two decks by default
    assert answer({**base, "players": 3})["ok"] is True
    assert_error(answer({**base, "players": 2}), "too_many_copies")


@pytest.mark.parametrize("players", [1, 6, 0, -1, "two", 2.5, True])
def test_carousel_impossible_player_count_is_refused(players: object) -> None:
    # RULES.md §6: Carousel is for 2–5 players; JUDGE.md: "players":N sets the deck count.
    # A count no table can have is an unusable request, not silently two decks.
    resp = answer(
        {"check": "meld", "variant": "carousel", "meld": ["QS", "KS", "AS"], "players": players}
    )
    assert_error(resp)


def test_invalid_verdict_shape() -> None:
    resp = answer({"check": "meld", "variant": "gin", "meld": ["QS", "KS", "AS"]})
    assert resp["ok"] is True
    assert resp["valid"] is False
    assert SNAKE.match(resp["reason"])
    assert resp["message"] and "\n" not in resp["message"]


def test_options_accepted_with_meld() -> None:
    resp = answer(
        {
            "check": "meld",
            "variant": "tile_rummy",
            "meld": ["R9", "R10", "R11"],
            "options": {"preset": "tiles50", "joker_rule": 1},
        }
    )
    assert resp["ok"] is True and resp["value"] == 30


# --------------------------------------------------------------------------------------------
# Properties: any random request gets exactly one well-formed JSON answer

token_st = st.one_of(
    st.sampled_from(
        ["R1", "R13", "b7", "JK", "*", "J", "AS", "10H", "TH", "qs", "A♠", "K♥", "R14", "X5", "0R"]
    ),
    st.builds(lambda c, n: f"{c}{n}", st.sampled_from("RBKYSHDCX"), st.integers(-1, 15)),
    st.text(max_size=6),
)


@given(
    st.sampled_from([*VARIANTS, "poker"]),
    st.lists(token_st, max_size=16),
    st.sampled_from([None, "run", "group", "pair", "x"]),
)
def test_random_tokens_one_well_formed_answer(
    variant: str, tokens: list[str], as_: str | None
) -> None:
    request: dict[str, Any] = {"check": "meld", "variant": variant, "meld": tokens}
    if as_ is not None:
        request["as"] = as_
    resp = answer(request)
    assert isinstance(resp, dict)
    line = json.dumps(resp, ensure_ascii=False)
    assert json.loads(line) == resp
    assert isinstance(resp["ok"], bool)
    if not resp["ok"]:
        assert_error(resp)
        assert resp["error"] != "internal_error", resp
        return
    assert isinstance(resp["valid"], bool)
    if resp["valid"]:
        assert resp["kind"] in ("run", "group", "pair")
        assert isinstance(resp["value"], int) and resp["value"] > 0
        assert all(isinstance(t, str) for t in resp["tiles"])
        assert len(resp["tiles"]) == len(tokens_of(tokens))
        assert len(resp["jokers"]) == resp["tiles"].count("JK")
    else:
        assert SNAKE.match(resp["reason"])
        assert resp["message"]


@settings(max_examples=50)
@given(st.lists(st.binary(max_size=80).map(lambda b: b.replace(b"\n", b"")), max_size=12))
def test_random_byte_lines_one_answer_each(lines: list[bytes]) -> None:
    data = b"".join(line + b"\n" for line in lines)
    out = io.StringIO()
    status = serve(io.BytesIO(data), out)
    assert status == 0
    text = out.getvalue()
    got = text.split("\n")[:-1] if text else []
    assert len(got) == len(lines)
    for line in got:
        resp = json.loads(line)
        assert isinstance(resp["ok"], bool)
        if not resp["ok"]:
            assert_error(resp)


# --------------------------------------------------------------------------------------------
# Serving fast (issue 15.8): answers flushed before the judge waits, a batch read in chunks,
# tokens and options read before remembered. None of it may change an answer.


def test_an_answer_comes_before_the_input_ends() -> None:
    """A program writes one line and waits: the answer must come while stdin stays open."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "rules", "judge"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdin is not None and proc.stdout is not None
    guard = threading.Timer(120, proc.kill)  # a hang guard, not a timing assertion
    guard.start()
    try:
        for line, value in [
            (req("meld", "rummy101", meld=["R11", "R12", "JK"]), 36),
            (req("meld", "gin", meld=["7H", "7D", "7C"]), 21),
        ]:
            proc.stdin.write(line + b"\n")
            proc.stdin.flush()
            got = proc.stdout.readline()
            assert got, "no answer while the input stayed open"
            assert json.loads(got)["value"] == value
        proc.stdin.close()
        assert proc.stdout.read() == b""
        assert proc.wait() == 0
    finally:
        guard.cancel()
        proc.kill()
        proc.wait()


class Trickle(io.RawIOBase):
    """A stream handing out at most ``step`` bytes per read, like a slow pipe."""

    def __init__(self, data: bytes, step: int) -> None:
        self.data, self.pos, self.step = data, 0, step

    def readable(self) -> bool:
        return True

    def readinto(self, buf: Any) -> int:
        part = self.data[self.pos : self.pos + min(self.step, len(buf))]
        buf[: len(part)] = part
        self.pos += len(part)
        return len(part)


class LinesOnly:
    """A byte stream with ``readline`` but no ``read1``: the judge's line-by-line path."""

    def __init__(self, data: bytes) -> None:
        self.inner = io.BytesIO(data)

    def readline(self, size: int = -1) -> bytes:
        return self.inner.readline(size)


_LINE_TEXT = st.text(alphabet='abcRK17[]{}":, ', max_size=150).map(str.encode)
_REQUEST_LINES = st.sampled_from(
    [
        req("meld", "tile_rummy", meld=["R7", "B7", "JK"]),
        req("meld", "gin", meld=["AS", "2S", "3S"]),
        req("hand", "gin", hand=["AS", "2S", "3S", "7H", "7D", "7C", "9C", "10C", "JC", "4D"]),
        b"",
        b"   ",
    ]
)


@settings(max_examples=60, deadline=None)
@given(
    lines=st.lists(
        st.tuples(st.one_of(_REQUEST_LINES, _LINE_TEXT), st.booleans()), min_size=1, max_size=8
    ),
    step=st.integers(1, 40),
    last_newline=st.booleans(),
)
def test_chunked_reading_answers_like_line_by_line(
    lines: list[tuple[bytes, bool]], step: int, last_newline: bool
) -> None:
    """Read in chunks that cut lines anywhere (lines longer than a small MAX_LINE among them):
    the same answers as reading line by line and as :func:`answer_line` on each line."""
    from rules import judge

    raw = [line + (b"\r" if crlf else b"") for line, crlf in lines]
    data = b"\n".join(raw) + (b"\n" if last_newline else b"")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(judge, "MAX_LINE", 90)  # the meld lines fit, the hand does not
        chunked, by_line = io.StringIO(), io.StringIO()
        assert serve(io.BufferedReader(Trickle(data, step), buffer_size=step), chunked) == 0
        assert serve(LinesOnly(data), by_line) == 0  # type: ignore[arg-type]
        given = data.split(b"\n")
        if given[-1] == b"":
            given.pop()  # the text after the last newline, if any, is a line too
        expected = "".join(judge.dumps(answer_line(line)) + "\n" for line in given)
    assert chunked.getvalue() == by_line.getvalue() == expected


def test_a_line_too_long_is_dropped_in_chunks_and_the_next_answered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rules import judge

    monkeypatch.setattr(judge, "MAX_LINE", 100)
    ok_line = req("meld", "gin", meld=["7H", "7D", "7C"])
    data = b"x" * 500 + b"\n" + ok_line + b"\n" + b"y" * 300  # the last: no newline either
    out = io.StringIO()
    assert serve(io.BufferedReader(Trickle(data, 16), buffer_size=16), out) == 0
    got = [json.loads(t) for t in out.getvalue().splitlines()]
    assert [g.get("error") for g in got] == ["too_large", None, "too_large"]
    assert got[1]["value"] == 21


@pytest.mark.parametrize(
    ("request_obj", "code"),
    [
        ({"check": "meld", "variant": "tile_rummy", "meld": ["R5", "R5", "R5"]}, "too_many_copies"),
        ({"check": "meld", "variant": "tile_rummy", "meld": ["JK", "JK", "JK"]}, "too_many_copies"),
        ({"check": "meld", "variant": "gin", "meld": ["AS", "AS", "AS"]}, "too_many_copies"),
        (
            {"check": "hand", "variant": "gin", "hand": ["AS", "2S", "3S", "4S", "5S"] * 2},
            "too_many_copies",
        ),
        ({"check": "meld", "variant": "tile_rummy", "meld": ["R1", "R2", "R99"]}, "bad_token"),
        ({"check": "meld", "variant": "gin", "meld": ["AS", "2S", "JK"]}, "bad_token"),
        ({"check": "meld", "variant": "tile_rummy", "meld": ["R5", "R5", "JK", "JK"]}, None),
    ],
)
def test_tokens_read_before_give_the_same_answer(
    request_obj: dict[str, Any], code: str | None
) -> None:
    """The first answer reads every token; the next ones find them remembered: equal answers,
    copies still counted, bad tokens still named with their position."""
    from rules import notation

    for table in notation._KNOWN.values():
        table.clear()
    first = answer(request_obj)
    again = [answer(request_obj) for _ in range(2)]
    assert again == [first, first]
    assert first.get("error") == code, first


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(["tile_rummy", "rummy101", "gin", "carousel"]),
    st.lists(
        st.sampled_from(["R1", "r1", "1R", "R13", "K7", "JK", "*", "j", "AS", "as", "10H", "TH"])
        | st.text(alphabet="RBKYSHDCJ0123456789 *,", max_size=4),
        max_size=6,
    ),
)
def test_remembered_tokens_never_change_an_answer(variant: str, tokens: list[str]) -> None:
    from rules import notation

    request_obj = {"check": "meld", "variant": variant, "meld": tokens}
    warm = answer(request_obj)
    for table in notation._KNOWN.values():
        table.clear()
    cold = answer(request_obj)
    assert warm == cold


def test_options_given_again_are_checked_the_same() -> None:
    """Options built before are reused only for the same names, types and values: ``true``
    is not the whole number 1, and an error is an error every time."""
    hand = ["AS", "2S", "3S", "7H", "7D", "7C", "9C", "10C", "JC", "4D"]
    for _ in range(2):
        one = answer({"check": "hand", "variant": "gin", "hand": hand, "options": {"knock_max": 1}})
        assert one["ok"] is True and one["knock_max"] == 1 and one["can_knock"] is False
        bad = answer(
            {"check": "hand", "variant": "gin", "hand": hand, "options": {"knock_max": True}}
        )
        assert_error(bad, "bad_option")
        listed = answer(
            {"check": "hand", "variant": "gin", "hand": hand, "options": {"knock_max": [4]}}
        )
        assert_error(listed, "bad_option")


def test_a_long_token_read_in_a_string_is_still_refused_in_a_list() -> None:
    """``R0000000000000000001`` reads as R1 in a string of tokens, but a list entry longer than
    16 characters is refused: remembering it from the string must not let it through."""
    long_one = "R" + "0" * 18 + "1"
    meld = {"check": "meld", "variant": "tile_rummy"}
    assert answer({**meld, "meld": f"{long_one} R2 R3"})["valid"] is True
    assert_error(answer({**meld, "meld": [long_one, "R2", "R3"]}), "bad_token")


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("\ufeff " + "[" * 100_000 + "]" * 100_000, "too_large"),  # json.loads' own path
        ("[" * 100_000 + "]" * 100_000, "too_large"),
        ('{"check":"meld"} {}', "bad_json"),  # extra data after the value
        ("\ufeff " + '{"check":"meld","variant":"gin","meld":["7H","7D","7C"]}', None),
    ],
    ids=["bom_space_deep", "deep", "extra_data", "bom_space"],
)
def test_lines_the_fast_json_reading_hands_to_json_loads(line: str, code: str | None) -> None:
    resp = answer_line(line)
    if code is None:
        assert resp["ok"] is True and resp["value"] == 21
    else:
        assert_error(resp, code)
