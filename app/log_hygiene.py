"""Log hygiene: join codes, host keys and player names never reach a log.

- The library loggers (:data:`LIBRARY_LOGGERS`: Flet logs whole page contents at DEBUG,
  uvicorn's access log holds URLs such as ``/game/…?code=…``) are held at WARNING.
- Every log record is masked as it is made (:func:`redact`): ``code=…``/``key=…`` URL
  parameters, every secret handed to :func:`remember_secret` (join codes, this run's host key,
  by :mod:`app.live`) and every player name handed to :func:`remember_names`.

Installed once at start by :func:`install_log_hygiene` (``python -m app``).
"""

from __future__ import annotations

import logging
import os
import re
import threading
from collections.abc import Iterable
from typing import Any, Final

__all__ = [
    "LIBRARY_LOGGERS",
    "MASK",
    "install_log_hygiene",
    "redact",
    "remember_names",
    "remember_secret",
]

_secrets: set[str] = set()
_names: set[str] = set()
_pattern: re.Pattern[str] | None = None
_pattern_lock = threading.Lock()
_PARAM = re.compile(r"(?i)\b((?:code|key)=)[^&\s\"'#]+")
MASK: Final = "***"
LIBRARY_LOGGERS: Final = (
    "flet",
    "flet_transport",
    "flet_controls",
    "flet_components",
    "flet_object_patch",
    "flet_web",
    "flet_web.fastapi",
    "uvicorn",
    "uvicorn.error",
    "uvicorn.access",
    "websockets",
)


def remember_secret(code: str | None) -> None:
    """Mask ``code`` in every later log record."""
    global _pattern
    if code and code not in _secrets:
        with _pattern_lock:
            _secrets.add(code)
            _pattern = None


def remember_names(names: Iterable[str]) -> None:
    """Mask these player names in every later log record."""
    global _pattern
    new = {n for n in names if n and len(n.strip()) >= 2 and n not in _names}
    if new:
        with _pattern_lock:
            _names.update(new)
            _pattern = None


def _secret_pattern() -> re.Pattern[str] | None:
    global _pattern
    with _pattern_lock:
        if _pattern is None and (_secrets or _names):
            words = sorted(_secrets | _names, key=len, reverse=True)
            _pattern = re.compile(
                r"(?<!\w)(?:" + "|".join(re.escape(w) for w in words) + r")(?!\w)"
            )
        return _pattern


def redact(text: str) -> str:
    """``text`` with ``code=…`` parameters, known join codes and known player names masked."""
    text = _PARAM.sub(lambda m: m.group(1) + MASK, text)
    pattern = _secret_pattern()
    return pattern.sub(MASK, text) if pattern is not None else text


def _redact_value(v: Any) -> Any:
    if isinstance(v, str):
        return redact(v)
    if isinstance(v, (int, float, bool)) or v is None:
        return v
    return redact(str(v))


_installed = False


def install_log_hygiene(level: int = logging.WARNING) -> None:
    """Keep join codes and personal data out of the logs (idempotent).

    - The library loggers (:data:`LIBRARY_LOGGERS`: Flet, which logs whole page contents at
      DEBUG; uvicorn, whose access log holds URLs such as ``/game/…?code=…``) are held at
      ``level`` or above — Flet also hands that level to uvicorn, so access lines are off —
      unless ``RUMMY_REFEREE_DEBUG_LOGS=1``.
    - Every log record is masked (:func:`redact`) as it is made: its message, its arguments
      (their number and shape kept: uvicorn's access formatter unpacks them) and its
      traceback text.
    """
    global _installed
    if os.environ.get("RUMMY_REFEREE_DEBUG_LOGS") != "1":
        for name in LIBRARY_LOGGERS:
            lg = logging.getLogger(name)
            if lg.level == logging.NOTSET or lg.level < level:
                lg.setLevel(level)
    if _installed:
        return
    _installed = True
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        try:
            if isinstance(record.msg, str):
                record.msg = redact(record.msg)
            if isinstance(record.args, tuple):
                record.args = tuple(_redact_value(a) for a in record.args)
            elif isinstance(record.args, dict):
                record.args = {k: _redact_value(v) for k, v in record.args.items()}
            if record.exc_info and record.exc_info[0] is not None:
                record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
        except Exception:  # noqa: BLE001 - logging must never fail
            record.msg, record.args = "(log message withheld)", ()
        return record

    logging.setLogRecordFactory(factory)
