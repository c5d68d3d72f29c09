"""What every check returns (RULES.md §7).

A :class:`Verdict` says valid or not; when not, a stable snake_case ``reason``; an English
one-line ``message`` that names the rule applied; ``rule`` (the RULES.md section or seed file);
and ``params``, the numbers counted and names involved, from which the app builds the message in
the player's language (the message key is the ``reason``, or ``ok`` for a valid verdict).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Verdict:
    """A judged answer.

    Attributes:
        valid: the checked thing is legal.
        reason: stable snake_case code when not valid (e.g. ``below_threshold``), else ``None``.
        message: one English line naming the rule, e.g. "opening needs 101 in one turn; these
            melds make 98 (RULES.md §3)".
        rule: where the rule stands: ``"RULES.md §3"`` and/or a seed file.
        params: JSON-ready numbers and names the message is made of (points, tiles, indexes).
    """

    valid: bool
    reason: str | None = None
    message: str = ""
    rule: str = ""
    params: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """``{"valid": …, "reason": …, "message": …, "rule": …}`` plus the params."""
        out: dict[str, Any] = {"valid": self.valid}
        if not self.valid:
            out["reason"] = self.reason
        if self.message:
            out["message"] = self.message
        if self.rule:
            out["rule"] = self.rule
        return out


def invalid(reason: str, message: str, rule: str, **params: Any) -> Verdict:
    """Shorthand for a not-valid verdict."""
    return Verdict(False, reason, message, rule, dict(params))
