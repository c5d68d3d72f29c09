"""Errors raised by the rules engine.

Every error is a :class:`ValueError` subclass carrying a stable snake_case ``code`` (the
``error`` field of the judge protocol, ``../shared/JUDGE.md``) and a one-line English message
that says what was wrong and where.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base of every input error of the rules engine.

    Attributes:
        code: stable snake_case code, e.g. ``bad_token`` or ``unknown_option``.
        message: one line for a person, naming the offending token, field or value.
    """

    code = "bad_request"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class NotationError(RulesError):
    """A token that is not a piece of the variant's set (RULES.md §1).

    Attributes:
        token: the token as given.
        position: 0-based position of the token in its list, or ``None``.
    """

    code = "bad_token"

    def __init__(self, token: str, reason: str, position: int | None = None) -> None:
        where = f" (position {position + 1})" if position is not None else ""
        super().__init__(f"bad token {token!r}{where}: {reason}")
        self.token = token
        self.position = position
        self.reason = reason


class TooManyCopiesError(RulesError):
    """More copies of one piece in a list than the variant's set holds (RULES.md §1)."""

    code = "too_many_copies"


class OptionError(RulesError):
    """An unknown option or preset, or an option value out of range."""

    code = "unknown_option"


class RequestError(RulesError):
    """A judge request that is unusable (missing field, wrong type, ...)."""

    code = "bad_request"
