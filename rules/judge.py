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
            return error("bad_request", "a request must be a JSON object")
        check = request.get("check")
        if check is None:
            return error("missing_field", "missing field 'check'")
        if not isinstance(check, str) or check not in CHECKS:
            known = ", ".join(CHECKS)
            return error("unknown_check", f"unknown check {check!r} (checks: {known})")
        if request.get("variant") is None:
            return error("missing_field", "missing field 'variant'")
        variant = request["variant"]
        if variant not in VARIANTS:
            return error(
                "unknown_variant", f"unknown variant {variant!r} (variants: {', '.join(VARIANTS)})"
            )
        if variant not in CHECKS[check][1]:
            return error(
                "unsupported_check",
                f"check {check!r} does not apply to {variant} "
                f"(it applies to {', '.join(CHECKS[check][1])})",
            )
        handler = _handler(check)
        if handler is None:
            return error("unsupported_check", f"check {check!r} is not built yet")
        req = Request(request)
        result = handler(req)
        return {"ok": True, **result}
    except RulesError as e:
        return error(e.code, e.message)
    except ModuleNotFoundError as e:
        if e.name and e.name.startswith("rules."):
            return error("unsupported_check", f"check {check!r} is not built yet for {variant}")
        return error("internal_error", f"internal error ({type(e).__name__}); please report it")
    except RecursionError:
        return error("too_large", "request nested too deeply")
    except Exception as e:  # noqa: BLE001 - the judge must answer every line
        return error("internal_error", f"internal error ({type(e).__name__}); please report it")


def answer_line(line: bytes | str) -> dict[str, Any]:
    """Answer one raw request line (bytes or text). Never raises."""
    if isinstance(line, bytes):
        line = line.rstrip(b"\r\n")
        if len(line) > MAX_LINE:
            return error("too_large", f"request line longer than {MAX_LINE} bytes")
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            return error("bad_json", "request line is not UTF-8")
    else:
        text = line.rstrip("\r\n")
        if len(text.encode("utf-8", "surrogatepass")) > MAX_LINE:
            return error("too_large", f"request line longer than {MAX_LINE} bytes")
    text = text.strip().lstrip("\ufeff")
    if not text:
        return error("bad_json", "empty line; expected one JSON object")
    try:
        request = json.loads(text)
    except RecursionError:
        return error("too_large", "request nested too deeply")
    except ValueError as e:
        return error("bad_json", f"not JSON: {e}")
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
                response = error("too_large", f"request line longer than {MAX_LINE} bytes")
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
