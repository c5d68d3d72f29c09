"""The judge protocol of ``../shared/JUDGE.md``: JSON Lines in, JSON Lines out.

:func:`answer` turns one decoded request into one response object; :func:`answer_line` does
the same for one raw line; :func:`serve` answers a whole stream, one response line per input
line, in order, flushing after each. Unusable requests get ``{"ok": false, "error": CODE,
"message": …}``; a verdict gets ``{"ok": true, …}``. No input makes it raise or print a
traceback.

Each check lives in ``rules.checks.<check>`` as ``answer(req: Request) -> dict``; modules are
imported on first use so that the judge starts fast.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable, Mapping
from typing import IO, Any, Final

from rules.errors import RulesError
from rules.options import VARIANTS
from rules.verdict import english, params_json

CHECKS: Final[dict[str, tuple[str, tuple[str, ...]]]] = {
    "meld": ("rules.checks.meld", VARIANTS),
    "opening": ("rules.checks.opening", ("rummy101", "tile_rummy", "my_rummy")),
    "turn": ("rules.checks.turn", ("tile_rummy", "my_rummy", "carousel")),
    "split": ("rules.checks.split", ("tile_rummy", "my_rummy", "rummy101", "carousel")),
    "hand": ("rules.checks.hand", ("gin", "carousel")),
    "round": ("rules.checks.round", VARIANTS),
    "game": ("rules.checks.game", VARIANTS),
}
"""check name -> (module answering it, variants it applies to)."""

MAX_LINE: Final = 1_000_000
"""Longest request line in bytes; longer lines get a ``too_large`` error."""

_HANDLERS: dict[str, Callable[[Any], dict[str, Any]]] = {}


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


def _handler(check: str) -> Callable[[Any], dict[str, Any]] | None:
    if check not in _HANDLERS:
        module_name = CHECKS[check][0]
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as e:
            if e.name != module_name:
                raise
            return None
        _HANDLERS[check] = module.answer
    return _HANDLERS[check]


def answer(request: Any) -> dict[str, Any]:
    """Answer one decoded request.

    Args:
        request: the decoded JSON value of one line.

    Returns:
        The response object: ``{"ok": true, ...verdict}`` or ``{"ok": false, "error": code,
        "message": text}``. Never raises for any input.
    """
    from rules.request import Request

    try:
        if not isinstance(request, Mapping):
            return keyed_error("bad_request", "request.not_object")
        check = request.get("check")
        if check is None:
            return keyed_error("missing_field", "field.missing", name="check")
        if not isinstance(check, str) or check not in CHECKS:
            known = ", ".join(CHECKS)
            return keyed_error(
                "unknown_check", "judge.unknown_check", check=repr(check), checks=known
            )
        if request.get("variant") is None:
            return keyed_error("missing_field", "field.missing", name="variant")
        variant = request["variant"]
        if variant not in VARIANTS:
            return keyed_error(
                "unknown_variant",
                "option.unknown_variant",
                variant=repr(variant),
                variants=", ".join(VARIANTS),
            )
        if variant not in CHECKS[check][1]:
            return keyed_error(
                "unsupported_check",
                "judge.check_not_for_variant",
                check=check,
                variant=variant,
                variants=", ".join(CHECKS[check][1]),
            )
        handler = _handler(check)
        if handler is None:
            return error("unsupported_check", f"check {check!r} is not built yet")
        req = Request(request)
        result = handler(req)
        return {"ok": True, **result}
    except RulesError as e:
        out = error(e.code, e.message)
        if e.line is not None:
            out["key"] = e.line.key
            out["params"] = params_json(e.line.params)
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
        request = json.loads(text)
    except RecursionError:
        return keyed_error("too_large", "judge.too_deep")
    except ValueError as e:
        return keyed_error("bad_json", "judge.not_json", detail=str(e))
    return answer(request)


def dumps(response: Mapping[str, Any]) -> str:
    """One response as a compact JSON line (no newline), non-ASCII kept.

    Text that cannot be written as UTF-8 (a lone surrogate echoed from a request) is escaped
    instead (``\\ud800``), so every answer can be written out.
    """
    text = json.dumps(response, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(response, ensure_ascii=True, separators=(",", ":"))
    return text


def serve(stdin: IO[bytes] | None = None, stdout: IO[str] | None = None) -> int:
    """Answer every line of ``stdin`` on ``stdout``, in order, flushing after each.

    Returns:
        0, or 1 if standard input itself could not be read.
    """
    inp = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout
    try:
        while True:
            line = inp.readline(MAX_LINE + 2)
            if not line:
                return 0
            if len(line.rstrip(b"\r\n")) > MAX_LINE and not line.endswith(b"\n"):
                # swallow the rest of an oversized line
                while True:
                    rest = inp.readline(MAX_LINE)
                    if not rest or rest.endswith(b"\n"):
                        break
                response = keyed_error("too_large", "judge.line_too_long", most=MAX_LINE)
            else:
                response = answer_line(line)
            try:
                text = dumps(response)
            except (TypeError, ValueError):
                text = dumps(error("internal_error", "answer could not be written; please report"))
            out.write(text + "\n")
            out.flush()
    except OSError:
        return 1
