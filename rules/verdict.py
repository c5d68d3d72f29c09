"""What every check returns: one result vocabulary (issue 15; ARCHITECTURE.md ``verdict``).

- A :class:`Line` is one explanation line as data: a message ``key`` of
  :data:`rules.messages.MESSAGES` and its ``params`` (numbers counted, names, pieces as
  canonical text, or nested lines). :func:`english` renders it from the English template;
  the app renders the same key in the player's language. No presenter parses a message.
- A :class:`RuleRef` is the rule applied, structured: the variant, the RULES.md paragraphs,
  the seed, the in-app rule-book section id and the options in force that the verdict turned
  on. ``text`` is the reference as the command line and the legacy ``rule`` field write it
  (``"RULES.md §3, seed 000"``).
- A :class:`Verdict` says valid or not; when not, a stable snake_case ``reason``; its
  :class:`Line`, the English ``message`` rendered from it once, and the rule.

JSON (JUDGE.md, fields only added): an answer carries ``key`` and ``params`` (the line of its
``message``) and ``rule_ref`` beside the English ``message`` and ``rule``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from rules.messages import MESSAGES, Plural


class Line(NamedTuple):
    """One explanation line: ``(key, params)``.

    Attributes:
        key: a key of :data:`rules.messages.MESSAGES`.
        params: the template's placeholders: ints, strings (pieces in canonical text, player
            names, signed points), nested :class:`Line` values, or lists of lines (parts of
            the line, rendered one after the other; an empty list renders as nothing).
    """

    key: str
    params: Mapping[str, Any]

    def english(self) -> str:
        """The line in English (see :func:`english`)."""
        return english(self.key, self.params)

    def to_json(self) -> dict[str, Any]:
        """``{"key": …, "params": {…}}`` with nested lines as objects of the same shape."""
        return {"key": self.key, "params": params_json(self.params)}


def line(key: str, **params: Any) -> Line:
    """Shorthand: ``line("meld.too_short", need=3)``.

    Raises:
        KeyError: ``key`` is not a message of :data:`rules.messages.MESSAGES`.
    """
    if key not in MESSAGES:
        raise KeyError(key)
    return Line(key, params)


def params_json(params: Mapping[str, Any]) -> dict[str, Any]:
    """Params as JSON-ready values (nested lines as ``{"key", "params"}`` objects)."""
    out: dict[str, Any] = {}
    for k, v in params.items():
        if type(v) is int or type(v) is str:
            out[k] = v  # the common case
        elif isinstance(v, Line):
            out[k] = v.to_json()
        elif isinstance(v, list | tuple) and (not v or isinstance(v[0], Line)):
            out[k] = [x.to_json() for x in v]
        else:
            out[k] = v
    return out


def _english_value(v: Any) -> Any:
    if type(v) is int or type(v) is str:
        return v  # the common case
    if isinstance(v, Line):
        return english(v.key, v.params)
    if isinstance(v, list | tuple) and (not v or isinstance(v[0], Line)):
        return "".join(english(x.key, x.params) for x in v)  # parts of one line, in order
    return v


def english(key: str, params: Mapping[str, Any]) -> str:
    """Render ``key`` with ``params`` from its English template.

    A :class:`~rules.messages.Plural` picks its singular when the count parameter is 1.
    Nested lines are rendered first.

    Raises:
        KeyError: unknown key or a placeholder missing from ``params``.
    """
    template = MESSAGES[key]
    values = {k: _english_value(v) for k, v in params.items()} if params else _NO_VALUES
    if type(template) is str:
        text = template
    else:
        assert isinstance(template, Plural)
        text = template.one if values[template.count] == 1 else template.other
    if not values and "{" not in text and "}" not in text:
        return text  # nothing to fill, no braces to unescape
    return text.format_map(values)


_NO_VALUES: dict[str, Any] = {}


@dataclass(frozen=True, slots=True)
class RuleRef:
    """The rule a verdict applied.

    Attributes:
        text: the reference as written in the legacy ``rule`` field and by the command line
            (``"RULES.md §3, seed 000"``); developer words, never shown to a player.
        variant: the variant, or ``None`` for rules shared by all (reading a meld).
        paragraphs: RULES.md paragraphs, e.g. ``("3",)``.
        seed: the seed file number (``"000"``), or ``None``.
        section: the in-app rule-book section id (``"opening"``, ``"jokers"``…), or ``None``
            when the app should pick it from the reason and check.
        options: option names and values in force that the verdict turned on, in order.
    """

    text: str
    variant: str | None = None
    paragraphs: tuple[str, ...] = ()
    seed: str | None = None
    section: str | None = None
    options: tuple[tuple[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """``{"variant", "paragraphs", "seed", "section", "options": {name: value}}``."""
        return {
            "variant": self.variant,
            "paragraphs": list(self.paragraphs),
            "seed": self.seed,
            "section": self.section,
            "options": dict(self.options),
        }

    def at(self, section: str) -> RuleRef:
        """The same rule (text, paragraphs, seed) at another rule-book section, no options
        named: an opening turned down for a meld or a set's copies points at ``melds`` or
        ``players``, not at the opening's own section."""
        return RuleRef(self.text, self.variant, self.paragraphs, self.seed, section)

    def with_options(self, **options: Any) -> RuleRef:
        """The same reference naming these options in force."""
        return RuleRef(
            self.text,
            self.variant,
            self.paragraphs,
            self.seed,
            self.section,
            (*self.options, *options.items()),
        )


def rule_ref(
    text: str,
    variant: str | None = None,
    section: str | None = None,
    **options: Any,
) -> RuleRef:
    """A :class:`RuleRef` from its legacy text (paragraphs and seed read from it once, here,
    where the text is made).

    >>> rule_ref("RULES.md §3, seed 000", "rummy101", "scoring").paragraphs
    ('3',)
    """
    try:  # made per answer by several checks: the same reference, read once
        key = (text, variant, section, tuple((k, type(v), v) for k, v in options.items()))
        known = _REFS.get(key)
    except TypeError:  # an unhashable option value: not remembered
        key, known = None, None
    if known is not None:
        return known
    ref = _read_ref(text, variant, section, tuple(options.items()))
    if key is not None and len(_REFS) < _REFS_MAX:
        _REFS[key] = ref
    return ref


_REFS: dict[tuple[Any, ...], RuleRef] = {}
"""References made before, by text, variant, section and option names, types and values
(frozen values, safe to share)."""
_REFS_MAX = 1024


def _read_ref(
    text: str, variant: str | None, section: str | None, options: tuple[tuple[str, Any], ...]
) -> RuleRef:
    paragraphs: list[str] = []
    seed: str | None = None
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        if part.startswith("RULES.md"):
            part = part[len("RULES.md") :].strip()
        for bit in part.split():
            if bit.startswith("§") and bit[1:].isdigit() and bit[1:] not in paragraphs:
                paragraphs.append(bit[1:])
        if part.startswith("seed "):
            seed = part[5:8]
    return RuleRef(text, variant, tuple(paragraphs), seed, section, options)


@dataclass(frozen=True)
class Verdict:
    """A judged answer.

    Attributes:
        valid: the checked thing is legal.
        reason: stable snake_case code when not valid (e.g. ``below_threshold``), else ``None``.
        message: one English line naming the rule, e.g. "opening needs 101 in one turn; these
            melds make 98 (RULES.md §3)" (rendered from ``line`` where it is given).
        rule: where the rule stands: ``"RULES.md §3"`` and/or a seed file.
        params: JSON-ready numbers and names the message is made of (points, tiles, indexes).
        line: the message as data, when known.
        ref: the rule as data, when known.
    """

    valid: bool
    reason: str | None = None
    message: str = ""
    rule: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    line: Line | None = None
    ref: RuleRef | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"valid": …, "reason": …, "message": …, "rule": …}`` plus ``key``, ``params``
        and ``rule_ref`` where known."""
        out: dict[str, Any] = {"valid": self.valid}
        if not self.valid:
            out["reason"] = self.reason
        if self.message:
            out["message"] = self.message
        if self.rule:
            out["rule"] = self.rule
        add_line(out, self.line, self.ref)
        return out


def add_line(out: dict[str, Any], ln: Line | None, ref: RuleRef | None = None) -> dict[str, Any]:
    """Add ``key``, ``params`` (of ``ln``) and ``rule_ref`` to an answer dict, in place."""
    if ln is not None:
        out["key"] = ln.key
        out["params"] = params_json(ln.params)
    if ref is not None:
        out["rule_ref"] = ref.to_json()
    return out


def invalid(reason: str, message: str, rule: str, **params: Any) -> Verdict:
    """Shorthand for a not-valid verdict."""
    return Verdict(False, reason, message, rule, dict(params))


__all__ = [
    "Line",
    "RuleRef",
    "Verdict",
    "add_line",
    "english",
    "invalid",
    "line",
    "params_json",
    "rule_ref",
]
