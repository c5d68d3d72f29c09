"""The judge protocol of ``../shared/JUDGE.md``: JSON Lines in, JSON Lines out.

:func:`answer` turns one decoded request into one response object; :func:`answer_line` does
the same for one raw line; :func:`serve` answers a whole stream, one response line per input
line, in order, flushing before it waits for more input. Unusable requests get
``{"ok": false, "error": CODE, "message": …}``; a verdict gets ``{"ok": true, …}``. No input
makes it raise or print a traceback.

Which variant answers which check, and with what function, is the variant's description
(:class:`rules.variant.Variant`, looked up in :data:`rules.variant.REGISTRY`); its functions
are imported on first use so that the judge starts fast.
"""

from __future__ import annotations

import json
import json.encoder
import json.scanner
import sys
import time
from collections.abc import Callable, Mapping
from typing import IO, Any, Final

from rules.errors import RulesError
from rules.request import Request
from rules.variant import BY_NAME, CHECK_NAMES, Variant, variants_answering
from rules.verdict import english, params_json

_CHECKS: Final = frozenset(CHECK_NAMES)

MAX_LINE: Final = 1_000_000
"""Longest request line in bytes; longer lines get a ``too_large`` error."""


def error(code: str, message: str) -> dict[str, Any]:
    """An ``ok: false`` response."""
    return {"ok": False, "error": code, "message": message}


def keyed_error(code: str, key: str, **params: Any) -> dict[str, Any]:
    """An ``ok: false`` response whose message is rendered from ``key`` (rules.messages)."""
    return {
        "ok": False,
        "error": code,
        "message": english(key, params),
        "key": key,
        "params": params_json(params),
    }


def answer(request: Any) -> dict[str, Any]:
    """Answer one decoded request.

    Args:
        request: the decoded JSON value of one line.

    Returns:
        The response object: ``{"ok": true, ...verdict}`` or ``{"ok": false, "error": code,
        "message": text}``. Never raises for any input.
    """
    spec: Variant | None = None
    check: Any = None
    try:
        if type(request) is not dict and not isinstance(request, Mapping):
            return keyed_error("bad_request", "request.not_object")
        check = request.get("check")
        if check is None:
            return keyed_error("missing_field", "field.missing", name="check")
        if not isinstance(check, str) or check not in _CHECKS:
            known = ", ".join(CHECK_NAMES)
            return keyed_error(
                "unknown_check", "judge.unknown_check", check=repr(check), checks=known
            )
        if request.get("variant") is None:
            return keyed_error("missing_field", "field.missing", name="variant")
        variant = request["variant"]
        spec = BY_NAME.get(variant) if isinstance(variant, str) else None
        if spec is None:
            return keyed_error(
                "unknown_variant",
                "option.unknown_variant",
                variant=repr(variant),
                variants=", ".join(BY_NAME),
            )
        if not spec.answers(check):
            return keyed_error(
                "unsupported_check",
                "judge.check_not_for_variant",
                check=check,
                variant=variant,
                variants=", ".join(variants_answering(check)),
            )
        req = Request(request)
        result = spec.answer(check, req)
        return {"ok": True, **result}
    except RulesError as e:
        out = error(e.code, e.message)
        if e.line is not None:
            out["key"] = e.line.key
            out["params"] = params_json(e.line.params)
        if spec is not None and isinstance(check, str):  # where the rule broken is explained
            out["rule_ref"] = spec.rule_ref(check, e.code)
        return out
    except ModuleNotFoundError as e:
        if e.name and e.name.startswith("rules."):
            return error("unsupported_check", f"check {check!r} is not built yet for {variant}")
        return keyed_error("internal_error", "judge.internal", kind=type(e).__name__)
    except RecursionError:
        return keyed_error("too_large", "judge.too_deep")
    except Exception as e:  # noqa: BLE001 - the judge must answer every line
        return keyed_error("internal_error", "judge.internal", kind=type(e).__name__)


def answer_line(line: bytes | str) -> dict[str, Any]:
    """Answer one raw request line (bytes or text). Never raises."""
    if isinstance(line, bytes):
        line = line.rstrip(b"\r\n")
        if len(line) > MAX_LINE:
            return keyed_error("too_large", "judge.line_too_long", most=MAX_LINE)
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            return keyed_error("bad_json", "judge.not_utf8")
    else:
        text = line.rstrip("\r\n")
        if len(text.encode("utf-8", "surrogatepass")) > MAX_LINE:
            return keyed_error("too_large", "judge.line_too_long", most=MAX_LINE)
    text = text.strip().lstrip("\ufeff")
    if not text:
        return keyed_error("bad_json", "judge.empty_line")
    try:
        request = _loads(text)
    except RecursionError:
        return keyed_error("too_large", "judge.too_deep")
    except ValueError as e:
        return keyed_error("bad_json", "judge.not_json", detail=str(e))
    return answer(request)


def _loads(text: str) -> Any:
    """``json.loads(text)`` for stripped text, without its Python frames and regular
    expressions when the text is one JSON value; else ``json.loads`` itself, which raises
    saying why (the same error text).

    Raises:
        ValueError: not JSON (:class:`json.JSONDecodeError`).
        RecursionError: nested too deeply.
    """
    try:
        value, end = _scan(text, 0)
    except StopIteration:  # no JSON value at the start
        return json.loads(text)
    if end != len(text):  # more after the value
        return json.loads(text)
    return value


_make_scanner: Any = json.scanner.make_scanner
_scan: Final[Callable[[str, int], tuple[Any, int]]] = _make_scanner(json.JSONDecoder())
"""The decoder's scanner (C where there is one): ``(value, end)`` of the JSON value at an index,
``StopIteration`` when there is none; what ``json.loads`` calls after skipping whitespace."""


def dumps(response: Mapping[str, Any]) -> str:
    """One response as a compact JSON line (no newline), non-ASCII kept.

    Text that cannot be written as UTF-8 (a lone surrogate echoed from a request) is escaped
    instead (``\\ud800``), so every answer can be written out.
    """
    text = _ENCODE(response)
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = _ENCODE_ASCII(response)
    return text


def _encoder(ensure_ascii: bool) -> Callable[[Any], str]:
    """``json.dumps(…, ensure_ascii=…, separators=(",", ":"))`` made once (``json.dumps`` with
    arguments builds a new encoder per call), calling the C encoder directly where there is
    one (the same text, without ``JSONEncoder.encode``'s Python frames)."""
    py = json.JSONEncoder(ensure_ascii=ensure_ascii, separators=(",", ":"))
    make: Any = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return py.encode
    strings: Any = (
        json.encoder.encode_basestring_ascii if ensure_ascii else json.encoder.encode_basestring
    )
    c = make(None, py.default, strings, None, ":", ",", False, False, True)

    def encode(value: Any) -> str:
        if not isinstance(value, dict):
            return py.encode(value)  # a bare string or number: the encoder's own shortcut
        try:
            return "".join(c(value, 0))
        except RecursionError:  # no circularity markers kept: a cycle recurses
            raise ValueError("answer nested too deeply (or circular)") from None

    return encode


_ENCODE: Final = _encoder(False)
_ENCODE_ASCII: Final = _encoder(True)


def serve(stdin: IO[bytes] | None = None, stdout: IO[str] | None = None) -> int:
    """Answer every line of ``stdin`` on ``stdout``, in order.

    Answers are flushed before the judge waits for more input (and at least every
    :data:`FLUSH_EVERY` seconds while it works through input already read): a program that
    writes one line and waits for its answer gets it at once; a batch piped in is answered
    without a write per line. A line longer than :data:`MAX_LINE` bytes is answered
    ``too_large`` without being held in memory.

    Returns:
        0, or 1 if standard input itself could not be read.
    """
    inp = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout
    read1 = getattr(inp, "read1", None)
    try:
        if read1 is None:
            _serve_lines(inp, out)
        else:
            _serve_chunks(read1, out)
    except OSError:
        return 1
    return 0


FLUSH_EVERY: Final = 0.05
"""Seconds: the longest an answer waits in the output buffer while later lines are answered."""
_CHUNK: Final = 1 << 16


def _write(out: IO[str], response: Mapping[str, Any]) -> None:
    try:
        text = dumps(response)
    except (TypeError, ValueError):
        text = dumps(error("internal_error", "answer could not be written; please report"))
    out.write(text + "\n")


def _too_large() -> dict[str, Any]:
    return keyed_error("too_large", "judge.line_too_long", most=MAX_LINE)


def _serve_chunks(read1: Callable[[int], bytes], out: IO[str]) -> None:
    """:func:`serve` on a buffered stream: read what is there, answer its whole lines, flush."""
    clock = time.perf_counter
    pending = bytearray()  # the start of a line whose end has not been read yet
    skipping = False  # inside a line already found too long: drop it up to its newline
    while True:
        chunk = read1(_CHUNK)
        if not chunk:
            if skipping:
                _write(out, _too_large())
            elif pending:
                _write(out, answer_line(bytes(pending)))
            out.flush()
            return
        flushed = clock()
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            line = chunk[start : end + 1]
            start = end + 1
            if skipping:
                skipping = False
                _write(out, _too_large())
            elif pending:
                pending += line
                _write(out, answer_line(bytes(pending)))
                pending.clear()
            else:
                _write(out, answer_line(line))
            if clock() - flushed > FLUSH_EVERY:
                out.flush()
                flushed = clock()
        if not skipping and start < len(chunk):
            pending += chunk[start:]
            if len(pending) > MAX_LINE and len(pending.rstrip(b"\r")) > MAX_LINE:
                skipping = True  # too long whatever follows
                pending.clear()
        out.flush()


def _serve_lines(inp: IO[bytes], out: IO[str]) -> None:
    """:func:`serve` on a stream without ``read1``: line by line, flushing after each."""
    while True:
        line = inp.readline(MAX_LINE + 2)
        if not line:
            return
        if len(line.rstrip(b"\r\n")) > MAX_LINE and not line.endswith(b"\n"):
            # swallow the rest of an oversized line
            while True:
                rest = inp.readline(MAX_LINE)
                if not rest or rest.endswith(b"\n"):
                    break
            response = _too_large()
        else:
            response = answer_line(line)
        _write(out, response)
        out.flush()


__all__ = [
    "FLUSH_EVERY",
    "MAX_LINE",
    "answer",
    "answer_line",
    "dumps",
    "error",
    "keyed_error",
    "serve",
]
