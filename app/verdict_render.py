"""Render the referee's lines in the player's language (issue 15, step 4).

The rules engine gives every verdict, input error and explanation line as data: a message
``key`` of :data:`rules.messages.MESSAGES` and its ``params`` (``{"key": …, "params": …}``;
a param may itself be such a line). This module renders one with
``gettext(template).format(localised params)``: the English template is the message id of the
app's catalogues (babel extracts ``rules/messages.py``), so a wording edit of a template makes
its translation stale (untranslated) instead of silently stating another rule. Nothing here
parses English or redoes rule arithmetic.

Params are localised: nested lines are rendered first; request field names of input errors
read as words (:data:`FIELD_WORDS`); numbers and canonical pieces (``R13``, ``10H``) stay.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from app.i18n import N_, _, ngettext
from rules.messages import MESSAGES, Plural

FIELD_WORDS: Final[dict[str, str]] = {
    "meld": N_("the meld"),
    "melds": N_("the melds"),
    "hand": N_("the hand"),
    "rack": N_("the rack"),
    "tiles": N_("the pieces"),
    "taken_discard": N_("the taken discard"),
    "table_before": N_("the table before"),
    "table_after": N_("the table after"),
    "table_after.heap": N_("the table after"),
    "declare": N_("the declared cards"),
    "players": N_("the players"),
    "rounds": N_("the rounds"),
    "knocker": N_("the knocker"),
    "finish": N_("the finish"),
}
"""Request fields an input error may name, as a player says them."""

_INDEXED: Final = re.compile(r"^(\w+)\[(\d+)\](?:\.(\w+))?$")


def field_words(name: str) -> str:
    """A request field name as words: ``melds[1]`` -> "meld 2", ``players[0].hand`` ->
    "the hand of player 1"; an unknown name is given as it is."""
    if name in FIELD_WORDS:
        return _(FIELD_WORDS[name])
    m = _INDEXED.match(name)
    if m:
        base, index, sub = m.group(1), int(m.group(2)) + 1, m.group(3)
        if base == "melds":
            return _("meld {n}").format(n=index)
        if base in ("table_before", "table_after"):
            which = (
                _("table before, meld {n}")
                if base == "table_before"
                else _("table after, meld {n}")
            )
            return which.format(n=index)
        if base == "players" and sub == "hand":
            return _("the hand of player {n}").format(n=index)
        if base == "players" and sub is None:
            return _("player {n}").format(n=index)
        if base == "declare":
            return _("declared card {n}").format(n=index)
    return name


def _param(name: str, value: Any) -> Any:
    if isinstance(value, Mapping) and "key" in value:
        return render(value)
    if isinstance(value, list) and (not value or isinstance(value[0], Mapping)):
        return "".join(render(v) for v in value)  # parts of one line, in order
    if name in ("field", "name") and isinstance(value, str):
        return field_words(value)
    return value


def render_key(key: str, params: Mapping[str, Any]) -> str:
    """``key`` with ``params`` in the language in force.

    Raises:
        KeyError: an unknown key or a missing placeholder (never for the engine's answers:
            ``tests/test_messages.py`` renders every recorded one).
    """
    template = MESSAGES[key]
    values = {k: _param(k, v) for k, v in params.items()}
    if isinstance(template, Plural):
        count = values[template.count]
        text = ngettext(template.one, template.other, count if isinstance(count, int) else 2)
    else:
        text = _(template)
    return text.format_map(values)


def render(item: Mapping[str, Any]) -> str:
    """One ``{"key", "params"}`` line in the language in force."""
    return render_key(str(item["key"]), item.get("params") or {})


def answer_line(answer: Mapping[str, Any]) -> str | None:
    """An answer's own line (its ``key``/``params``) rendered, or ``None`` when the answer
    carries no key (or an unknown one)."""
    key = answer.get("key")
    if not isinstance(key, str) or key not in MESSAGES:
        return None
    params = answer.get("params")
    return render_key(key, params if isinstance(params, Mapping) else {})


__all__ = ["FIELD_WORDS", "answer_line", "field_words", "render", "render_key"]
