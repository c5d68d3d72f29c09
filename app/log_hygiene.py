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
import time
from collections.abc import Iterable
from functools import lru_cache
from typing import Any, Final

__all__ = [
    "LIBRARY_LOGGERS",
    "MASK",
    "install_log_hygiene",
    "redact",
    "remember_names",
    "remember_secret",
    "wait_for_compile",
]

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
MAX_NAMES: Final = 2000
"""Player names kept masked; past this the longest-unseen are forgotten (a phone with a code can
join under new names without end: the mask's cost must not grow with them)."""
BATCH: Final = 32
"""New words are masked one by one until this many wait; then one pattern of all the words is
compiled again, on a thread of its own (compiling thousands of names takes a fraction of a
second: never on the event loop)."""

_secrets: dict[str, None] = {}  # join codes and the host key: few, never forgotten
_names: dict[str, None] = {}  # insertion order = least recently seen first
_lock = threading.Lock()
"""Held by writers only. :func:`redact` takes no lock: it runs inside every log record, also
one made while a writer holds the lock on the same thread (the garbage collector, run while a
pattern is compiled, can make asyncio log a destroyed task), so a lock there deadlocks."""
_compiling = False
_state: tuple[re.Pattern[str] | None, tuple[str, ...]] = (None, ())
"""(the pattern of every word compiled so far, the words added since: masked one by one,
longest first). Replaced whole, never changed in place, so a reader sees one consistent pair."""


@lru_cache(maxsize=4 * BATCH)
def _cached_word_pattern(word: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)" + re.escape(word) + r"(?!\w)")


def _all_words() -> list[str]:
    return sorted({*_secrets, *_names}, key=len, reverse=True)


def _add(new: list[str]) -> None:
    """Mask ``new`` from now on (called with the lock held)."""
    global _state, _compiling
    base, pending = _state
    more = set(new)
    # a longer known word holding a new one is masked first, whole ("Ala Kowalska" before "Ala")
    for known in _all_words():
        if known not in more and any(w in known and w != known for w in new):
            more.add(known)
    waiting = sorted({*pending, *more}, key=len, reverse=True)
    _state = (base, tuple(waiting))
    if len(waiting) > BATCH and not _compiling:
        _compiling = True
        threading.Thread(target=_compile, args=(_all_words(),), daemon=True).start()


def _compile(words: list[str]) -> None:
    """Compile one pattern of ``words`` (off the event loop) and make it the base."""
    global _state, _compiling
    try:
        pattern = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in words) + r")(?!\w)")
    except Exception:  # noqa: BLE001 - keep masking word by word
        with _lock:
            _compiling = False
        return
    done = set(words)
    with _lock:
        _, pending = _state
        _state = (pattern, tuple(w for w in pending if w not in done))
        _compiling = False
        if len(_state[1]) > BATCH:
            _compiling = True
            threading.Thread(target=_compile, args=(_all_words(),), daemon=True).start()


def remember_secret(code: str | None) -> None:
    """Mask ``code`` in every later log record."""
    if code and code not in _secrets:
        with _lock:
            if code not in _secrets:
                _secrets[code] = None
                _add([code])


def remember_names(names: Iterable[str]) -> None:
    """Mask these player names in every later log record (the :data:`MAX_NAMES` most recently
    seen)."""
    seen = [n for n in names if n and len(n.strip()) >= 2]
    if not seen:
        return
    with _lock:
        new = []
        for n in seen:
            if n in _names:
                del _names[n]  # seen again: the most recent now
            else:
                new.append(n)
            _names[n] = None
        while len(_names) > MAX_NAMES:
            del _names[next(iter(_names))]
        if new:
            _add(new)


def wait_for_compile(timeout: float = 10.0) -> None:
    """Wait until no pattern is being compiled (for tests)."""
    deadline = time.monotonic() + timeout
    while _compiling and time.monotonic() < deadline:
        time.sleep(0.01)


def redact(text: str) -> str:
    """``text`` with ``code=…`` parameters, known join codes and known player names masked.

    Takes no lock and compiles at most one small pattern per new word (cached)."""
    text = _PARAM.sub(lambda m: m.group(1) + MASK, text)
    base, pending = _state
    for word in pending:
        if word in text:
            text = _cached_word_pattern(word).sub(MASK, text)
    return base.sub(MASK, text) if base is not None else text


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
