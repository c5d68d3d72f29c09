"""Errors raised by the rules engine.

Every error is a :class:`ValueError` subclass carrying a stable snake_case ``code`` (the
``error`` field of the judge protocol, ``../shared/JUDGE.md``) and a one-line English message
that says what was wrong and where.
"""

from __future__ import annotations

from typing import Any, Final

from rules.verdict import Line, english


class RulesError(ValueError):
    """Base of every input error of the rules engine.

    Attributes:
        code: stable snake_case code, e.g. ``bad_token`` or ``unknown_option``.
        message: one line for a person, naming the offending token, field or value.
        line: the message as data (key and params of :mod:`rules.messages`), when known.
    """

    code = "bad_request"

    def __init__(self, message: str, code: str | None = None, line: Line | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        if code is not None:
            self.code = code

    @classmethod
    def keyed(cls, key: str, code: str | None = None, **params: Any) -> RulesError:
        """An error whose message is rendered from ``key`` (:mod:`rules.messages`)."""
        ln = Line(key, params)
        return cls(english(key, params), code, ln)


class NotationError(RulesError):
    """A token that is not a piece of the variant's set (RULES.md §1).

    Attributes:
        token: the token as given.
        position: 0-based position of the token in its list, or ``None``.
        reason: why, in English (``why.english()``).
        why: why, as a line (``token.*`` keys of :mod:`rules.messages`).
        field: the request field the token was read from, or ``None``.
    """

    code = "bad_token"

    def __init__(
        self,
        token: str,
        reason: str | Line,
        position: int | None = None,
        field: str | None = None,
    ) -> None:
        why = reason if isinstance(reason, Line) else Line("token.text", {"text": reason})
        if field is not None:
            why = Line("token.in_field", {"why": why, "field": field})
        if position is not None:
            ln = Line("token.bad_at", {"token": token, "position": position + 1, "why": why})
        else:
            ln = Line("token.bad", {"token": token, "why": why})
        super().__init__(english(ln.key, ln.params), None, ln)
        self.token = token
        self.position = position
        self.why = why
        self.field = field
        self.reason = english(why.key, why.params)


_WHERE: Final = {
    "in the hand": "where.hand",
    "in the opening": "where.opening",
    "in the initial meld": "where.initial_meld",
    "across the hands": "where.across_hands",
    "across the racks": "where.across_racks",
    "in the rack and table_before": "where.rack_and_table_before",
}
_SETS: Final = {
    "the 106-tile set": "set.tiles",
    "a 52-card deck": "set.gin",
    "one 53-card deck": "set.one_deck",
    "two 53-card decks": "set.two_decks",
}


def where_line(where: str) -> Line | None:
    """The place a copy limit was checked as a line: the engine's fixed phrases, or
    ``in FIELD`` for a request field (``in players[1].hand``)."""
    if not where:
        return None
    if where in _WHERE:
        return Line(_WHERE[where], {})
    if where.startswith("in "):
        return Line("where.field", {"field": where[3:]})
    return Line("where.text", {"text": where})


class TooManyCopiesError(RulesError):
    """More copies of one piece in a list than the variant's set holds (RULES.md §1)."""

    code = "too_many_copies"

    @classmethod
    def of(cls, piece: str, n: int, most: int, set_name: str, where: str = "") -> RulesError:
        """``n`` copies of ``piece`` where the set (``set_name``) holds ``most``."""
        place = where_line(where)
        pset = Line(_SETS[set_name], {}) if set_name in _SETS else set_name
        if most == 0:
            if place is None:
                return cls.keyed("copies.not_in_set", piece=piece, set=pset)
            return cls.keyed("copies.not_in_set_where", piece=piece, set=pset, where=place)
        if place is None:
            return cls.keyed("copies.too_many", n=n, piece=piece, set=pset, most=most)
        return cls.keyed(
            "copies.too_many_where", n=n, piece=piece, set=pset, most=most, where=place
        )


class OptionError(RulesError):
    """An unknown option or preset, or an option value out of range."""

    code = "unknown_option"


class RequestError(RulesError):
    """A judge request that is unusable (missing field, wrong type, ...)."""

    code = "bad_request"


__all__ = [
    "NotationError",
    "OptionError",
    "RequestError",
    "RulesError",
    "TooManyCopiesError",
    "where_line",
]
