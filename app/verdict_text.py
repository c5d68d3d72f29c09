"""The judge's verdicts and explanations in the player's language (issue 5, item 5; issue 15).

Issue 15: an answer that carries its lines as data (``key``/``params``, ``breakdown_lines``,
a ``key`` on each breakdown entry) is rendered by :mod:`app.verdict_render` from the engine's
message catalogue (``rules/messages.py``) — melds, openings and initial melds, splits, every
input error of the notation, copy limits, requests and options, Rummy 101 / Tile Rummy /
My Rummy / Carousel round lines and messages, gin round and game breakdowns. The code below
that re-derives wording from an answer's fields is the fallback for answers without keys:
turn verdicts (``rules/table.py``), impossible-round and gin not-valid reasons, game messages,
and rounds stored by an earlier version. It goes when those are keyed too.

The rules engine answers in English: every verdict has a stable ``reason`` code, an English
``message`` naming the rule, the ``rule`` (``"RULES.md §3, seed 000"``) and the numbers it
counted (``value``, ``needed``, ``pairs``, ``tile``, ``meld`` …; JUDGE.md). This module builds
the one-line message from the code and those fields, in the language in force
(:func:`app.i18n.language`); in English it returns the judge's own message.

Where an answer lacks a number its English message carries (a meld verdict gives no ``params``),
the number is read from the request (the pieces entered) or, failing that, from the judge's
message by a pattern tested in ``tests/test_i18n.py``; when neither works the message says the
rule without the number — never a wrong number.

Public API::

    headline(reason)                      "Not enough points to open" (short, for a title)
    verdict_message(answer, request)      the one-line verdict (valid or not) of any check
    error_message(answer, request)        an ``ok: false`` answer (what is wrong with the input)
    round_message(result)                 a scored round's verdict line
    why_line(item, result)                one player's line of a round's breakdown
    gin_lines(result)                     the arithmetic of a gin round, line by line
    game_message(answer, variant)         the game's state (running, over, why)
    game_lines(answer, variant, options)  gin's game-end bonuses, line by line

:data:`REASONS` lists every reason code the rules engine gives (``tests/test_i18n.py`` checks it
against the engine's source) and :data:`ERRORS` every ``error`` code of ``ok: false`` answers.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app import verdict_render
from app.i18n import N_, _, language, ngettext

# -- headlines ---------------------------------------------------------------------------------
HEADLINES: dict[str, str] = {
    # melds (RULES.md §1, §2)
    "empty_meld": N_("No pieces entered"),
    "too_short": N_("Too few pieces for a meld"),
    "not_a_pair": N_("Not a pair"),
    "ace_after_king": N_("The ace does not follow the king here"),
    "run_wraps": N_("A run may not go round the corner"),
    "run_gap": N_("There is a gap in the run"),
    "run_repeated_number": N_("A number repeats in the run"),
    "run_mixed_colours": N_("A run keeps one colour or suit"),
    "run_too_long": N_("The run is too long"),
    "group_too_big": N_("A group has at most four pieces"),
    "group_mixed_numbers": N_("A group has one number only"),
    "group_repeated_colour": N_("A colour or suit repeats in the group"),
    "no_real_tile": N_("Jokers alone are no meld"),
    "not_a_meld": N_("Neither a run nor a group"),
    "bad_declaration": N_("The joker cannot be the card declared"),
    # openings (RULES.md §3, §4)
    "no_melds": N_("No melds entered"),
    "too_many_copies": N_("More copies than the set holds"),
    "tile_not_in_hand": N_("A tile laid is not in the hand"),
    "no_tile_to_discard": N_("No tile left to discard"),
    "invalid_meld": N_("A meld is not valid"),
    "mixed_pairs_and_melds": N_("Pairs and melds mixed"),
    "discard_not_used": N_("The taken discard is not used"),
    "too_few_pairs": N_("Not enough pairs"),
    "below_threshold": N_("Not enough points to open"),
    # turns (RULES.md §4, §6)
    "tile_taken_from_table": N_("A piece left the table"),
    "tile_not_on_rack": N_("A piece played was not on the rack"),
    "nothing_played": N_("Nothing was played"),
    "no_split": N_("The table cannot be split into valid melds"),
    "manipulated_before_initial_meld": N_("The table was changed before the initial meld"),
    "below_initial_meld": N_("The initial meld is too low"),
    "joker_rule": N_("The joker rule was broken"),
    # rounds (RULES.md §3–§6)
    "player_count": N_("Wrong number of players"),
    "two_winners": N_("Only one player can win a round"),
    "winner_in_stock_out": N_("Nobody wins when the stock runs out"),
    "no_winner": N_("This finish needs a winner"),
    "opened_in_one_turn": N_("Somebody had already opened"),
    "winner_has_tiles": N_("The winner has no tiles left"),
    "hand_too_large": N_("Too many tiles in a hand"),
    "negative_hand_value": N_("A hand cannot be worth less than nothing"),
    "impossible_hand_value": N_("Too many points for one hand"),
    "empty_hand": N_("An empty hand must be the winner's"),
    "empty_rack_not_winner": N_("An empty rack must be the winner's"),
    "knock_above_limit": N_("Too many points to knock"),
    "out_in_knocked_round": N_("Nobody knocks after a player went out"),
    "gin_with_deadwood": N_("Gin needs deadwood 0"),
    "knocker_not_a_player": N_("The knocker is not a player"),
    "wrong_hand_size": N_("Wrong number of cards"),
    "wrong_player_count": N_("Wrong number of players"),
    # games (RULES.md §3–§6)
    "round_after_game_end": N_("The game was already over"),
    "rounds_after_end": N_("The game was already over"),
    "too_many_rounds": N_("More rounds than agreed"),
}
"""Short title of each reason code (translate with :func:`headline`)."""

REASONS: frozenset[str] = frozenset(HEADLINES)
"""Every reason code this module words (the rules engine's, see ``tests/test_i18n.py``)."""

ERROR_HEADLINES: dict[str, str] = {
    "bad_token": N_("A piece is written wrongly"),
    "too_many_copies": N_("More copies than the set holds"),
    "unknown_option": N_("Unknown option"),
    "bad_option": N_("An option has a wrong value"),
    "missing_field": N_("Something is missing"),
    "bad_field": N_("Something entered is not right"),
    "bad_request": N_("The question cannot be checked"),
    "bad_json": N_("The question cannot be checked"),
    "too_large": N_("Too much to check at once"),
    "too_complex": N_("Too complex to decide in time"),
    "unknown_check": N_("The question cannot be checked"),
    "unknown_variant": N_("Unknown variant"),
    "unsupported_check": N_("This check does not apply to this variant"),
    "internal_error": N_("The referee failed; please report it"),
    "bad_hand_size": N_("Wrong number of cards"),
}
ERRORS: frozenset[str] = frozenset(ERROR_HEADLINES)
"""Every ``error`` code of an ``ok: false`` answer this module words."""


def headline(reason: str | None) -> str:
    """The reason code as a short title in the language in force (the code, spaced, when the
    code is unknown)."""
    if not reason:
        return ""
    if reason in HEADLINES:
        return _(HEADLINES[reason])
    if reason in ERROR_HEADLINES:
        return _(ERROR_HEADLINES[reason])
    return reason.replace("_", " ")


def english() -> bool:
    """True when the language in force is English (the judge's own words are used)."""
    return language() == "en"


# -- small helpers -----------------------------------------------------------------------------
_SECTION = re.compile(r"§\s*(\d+)")


def rule_ref(rule: Any) -> str:
    """``"RULES.md §4, seed 001"`` -> ``"(rules §4)"`` in the language in force ("" when the
    rule names no section)."""
    if not isinstance(rule, str):
        return ""
    found: list[str] = []
    for n in _SECTION.findall(rule):
        if n not in found:
            found.append(n)
    if not found:
        return ""
    return _("(rules {sections})").format(sections=", ".join(f"§{n}" for n in found))


def keyed_text(text: str) -> str:
    """A line rendered from the engine's key, as a sentence: first letter capitalised, no
    rule reference (the screen names the rule-book section itself: the checkers' rule button,
    the breakdown's "Rules: <variant> › <section>")."""
    return text[:1].upper() + text[1:] if text else text


def with_rule(text: str, rule: Any) -> str:
    """``text`` with its first letter capitalised and the rule reference after it."""
    text = text[:1].upper() + text[1:] if text else text
    ref = rule_ref(rule)
    return f"{text} {ref}" if ref and text else text


def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _map(v: Any) -> Mapping[str, Any]:
    return v if isinstance(v, Mapping) else {}


def _list(v: Any) -> list[Any]:
    return v if isinstance(v, list) else []


def _tokens(v: Any) -> list[str]:
    if isinstance(v, list | tuple):
        return [str(t) for t in v]
    return []


def material_of(variant: str | None, tokens: Sequence[str] = ()) -> str:
    """``"cards"`` (gin, Carousel) or ``"tiles"``; from the pieces when the variant is unknown
    (cards end in a suit letter: ``10H``, ``AS``)."""
    if variant in ("gin", "carousel"):
        return "cards"
    if variant in ("rummy101", "tile_rummy", "my_rummy"):
        return "tiles"
    for t in tokens:
        if t != "JK" and t[-1:] in ("S", "H", "D", "C"):
            return "cards"
        if t != "JK" and t[:1] in ("R", "B", "K", "Y") and t[1:].isdigit():
            return "tiles"
    return "tiles"


@dataclass(frozen=True)
class _Ctx:
    """An answer with what is known around it."""

    a: Mapping[str, Any]
    req: Mapping[str, Any]
    variant: str | None
    english: str
    tokens: tuple[str, ...] = ()

    @property
    def cards(self) -> bool:
        return material_of(self.variant, self.tokens) == "cards"

    def num(self, key: str) -> int | None:
        return _int(self.a.get(key))

    def find(self, pattern: str) -> re.Match[str] | None:
        return re.search(pattern, self.english)


def _ctx(answer: Mapping[str, Any], request: Mapping[str, Any] | None) -> _Ctx:
    req = request if isinstance(request, Mapping) else {}
    variant = req.get("variant") if isinstance(req.get("variant"), str) else None
    tokens = _tokens(req.get("meld")) or _tokens(answer.get("tiles"))
    message = answer.get("message")
    return _Ctx(answer, req, variant, message if isinstance(message, str) else "", tuple(tokens))


# -- meld reasons (RULES.md §1, §2) -------------------------------------------------------------
def _meld_text(reason: str, c: _Ctx) -> str | None:
    """One meld's fault (no rule reference), or None for an unknown code."""
    cards = c.cards
    n = len(c.tokens) if c.tokens else None
    if reason == "empty_meld":
        return _("a meld needs pieces")
    if reason == "too_short":
        m = c.find(r"at least (\d+)")
        need = int(m.group(1)) if m else 3
        if n is None:
            m2 = c.find(r"this (?:one )?has (\d+)")
            n = int(m2.group(1)) if m2 else None
        if n is None:
            if cards:
                return ngettext(
                    "a meld needs at least {need} card", "a meld needs at least {need} cards", need
                ).format(need=need)
            return ngettext(
                "a meld needs at least {need} tile", "a meld needs at least {need} tiles", need
            ).format(need=need)
        if cards:
            return ngettext(
                "a meld needs at least {need} card; this one has {n}",
                "a meld needs at least {need} cards; this one has {n}",
                need,
            ).format(need=need, n=n)
        return ngettext(
            "a meld needs at least {need} tile; this one has {n}",
            "a meld needs at least {need} tiles; this one has {n}",
            need,
        ).format(need=need, n=n)
    if reason == "not_a_pair":
        if c.find(r"exactly two"):
            return _("a pair is exactly two tiles")
        return _(
            "a pair is two identical tiles (same number and colour); the same number in "
            "another colour is not a pair"
        )
    if reason == "ace_after_king":
        if cards:
            return _("the ace is low only: A-2-3 is a run, Q-K-A is not")
        return _("1 comes only before 2: 12-13-1 is not a run")
    if reason == "run_wraps":
        return _("an ace is low (A-2-3) or high (Q-K-A) in a run, never both: K-A-2 is a wrap")
    if reason == "run_gap":
        m = c.find(r"(\d+) missing between (\d+) and (\d+) and only (\d+) joker")
        if m:
            return _(
                "a run needs consecutive numbers: {missing} missing between {lo} and {hi} "
                "and only {jokers} jokers to fill them"
            ).format(missing=m.group(1), lo=m.group(2), hi=m.group(3), jokers=m.group(4))
        return _("a run needs consecutive numbers; only jokers may fill a gap")
    if reason == "run_repeated_number":
        return _("a run cannot hold the same number twice")
    if reason == "run_mixed_colours":
        return _("a run is all of one suit") if cards else _("a run is all of one colour")
    if reason in ("run_too_long", "group_too_big"):
        m = c.find(r"at most (\d+) \w+; this (?:one )?has (\d+)")
        if m is None:
            return None
        most, has = int(m.group(1)), int(m.group(2))
        if reason == "run_too_long":
            if cards:
                return ngettext(
                    "a run has at most {max} card; this one has {n}",
                    "a run has at most {max} cards; this one has {n}",
                    most,
                ).format(max=most, n=has)
            return ngettext(
                "a run has at most {max} tile; this one has {n}",
                "a run has at most {max} tiles; this one has {n}",
                most,
            ).format(max=most, n=has)
        if cards:
            return ngettext(
                "a group has at most {max} card; this one has {n}",
                "a group has at most {max} cards; this one has {n}",
                most,
            ).format(max=most, n=has)
        return ngettext(
            "a group has at most {max} tile; this one has {n}",
            "a group has at most {max} tiles; this one has {n}",
            most,
        ).format(max=most, n=has)
    if reason == "group_mixed_numbers":
        if cards:
            return _("a group is cards of one rank")
        return _("a group is tiles of one number")
    if reason == "group_repeated_colour":
        same = _repeated_family(c.tokens, cards)
        if same:
            if cards:
                return _("a group needs cards of different suits; {pieces} share one").format(
                    pieces=" ".join(same)
                )
            return _("a group needs tiles of different colours; {pieces} share one").format(
                pieces=" ".join(same)
            )
        if cards:
            return _("a group needs cards of different suits")
        return _("a group needs tiles of different colours")
    if reason == "no_real_tile":
        if cards:
            return _("a meld needs at least one real card (jokers alone are no meld)")
        return _("a meld needs at least one real tile (jokers alone are no meld)")
    if reason == "not_a_meld":
        if cards:
            return _(
                "neither a run (consecutive ranks, one suit) nor a group (one rank, "
                "different suits)"
            )
        return _(
            "neither a run (consecutive numbers, one colour) nor a group (one number, "
            "different colours)"
        )
    if reason == "bad_declaration":
        m = c.find(r"(\d+) jokers? declared but the meld holds (\d+)")
        if m is None:
            return _("the jokers declared do not match the jokers in the meld")
        declared, held = int(m.group(1)), int(m.group(2))
        return ngettext(
            "{declared} joker declared but the meld holds {jokers}",
            "{declared} jokers declared but the meld holds {jokers}",
            declared,
        ).format(declared=declared, jokers=held)
    return None


def _repeated_family(tokens: Sequence[str], cards: bool) -> list[str]:
    """The pieces of a group that share a colour (suit) with another, in order."""
    fam = [(t[-1] if cards else t[:1]) for t in tokens]
    return [t for t, f in zip(tokens, fam, strict=True) if t != "JK" and fam.count(f) > 1]


# -- the other reasons -------------------------------------------------------------------------
def _copies_text(c: _Ctx) -> str:
    """``too_many_copies`` (a verdict or an ``ok: false`` answer)."""
    m = c.find(r"(\d+) × (\S+) in .*?, but the (\d+)-(tile|card) set holds only (\d+)")
    if m:
        if m.group(4) == "card":
            return _("{n} × {piece}, but the {size}-card deck holds only {most}").format(
                n=m.group(1), piece=m.group(2), size=m.group(3), most=m.group(5)
            )
        return _("{n} × {piece}, but the {size}-tile set holds only {most}").format(
            n=m.group(1), piece=m.group(2), size=m.group(3), most=m.group(5)
        )
    m = c.find(r"^(.+?) holds (\d+) jokers; the set has (\d+)")
    if m:
        return _("{player} holds {n} jokers; the set has {most}").format(
            player=m.group(1), n=m.group(2), most=m.group(3)
        )
    m = c.find(r"^(\S+) is in both (.+?)'s and (.+?)'s hands")
    if m:
        return _("{card} is in both {a}'s and {b}'s hands; gin uses one 52-card deck").format(
            card=m.group(1), a=m.group(2), b=m.group(3)
        )
    if c.cards:
        return _("more copies of a card than the deck holds")
    return _("more copies of a tile than the set holds")


_GENERIC: dict[str, str] = {
    "below_threshold": N_("not enough points to open"),
    "too_few_pairs": N_("not enough pairs to open by pairs"),
    "below_initial_meld": N_("the initial meld is worth too little"),
    "run_too_long": N_("the run is longer than the set allows"),
    "group_too_big": N_("a group has one piece of each colour or suit at most"),
    "tile_taken_from_table": N_("no piece goes from the table back to a player"),
    "tile_not_on_rack": N_("only pieces the player held may be played"),
}


def _valid_text(c: _Ctx) -> str | None:
    """A valid verdict of a check whose answer carries no key (gin hand, split: their JSON
    answers have no message); worded from the answer's fields."""
    a = c.a
    if "can_knock" in a and c.num("deadwood") is not None:  # gin (Carousel's is keyed)
        n, most = c.num("deadwood"), c.num("knock_max")
        return _("deadwood {n}; a player may knock at {max} or less").format(n=n, max=most)
    if "melds" in a and a.get("valid") is True:  # split
        return _("the pieces split into valid melds")
    return None


def verdict_message(answer: Mapping[str, Any], request: Mapping[str, Any] | None = None) -> str:
    """The one-line verdict of a judge answer (``ok: true``; valid or not) in the language in
    force, naming the rule. English: the judge's own ``message``.

    Args:
        answer: the judge's answer (JUDGE.md): ``reason`` and the fields it counted.
        request: the request that got it, when known (variant, pieces, the tables of a turn),
            for the numbers and pieces an answer does not repeat.

    Returns:
        One line (empty when there is nothing to say).
    """
    if not answer.get("ok", True):
        return error_message(answer, request)
    keyed = verdict_render.answer_line(answer)
    if keyed is not None:
        return keyed_text(keyed)
    message = answer.get("message")
    if english() and isinstance(message, str) and message:
        return message
    rule = answer.get("rule")
    c = _ctx(answer, request)
    reason = answer.get("reason")
    if answer.get("valid") is False or isinstance(reason, str):
        text = reason_message(str(reason), c)
    else:
        text = _valid_text(c)
    if text is None:
        return message if isinstance(message, str) else ""
    return with_rule(text, rule)


def reason_message(reason: str, c: _Ctx) -> str | None:
    """The fault named by ``reason`` (no rule reference), or a generic line for the code."""
    text = _copies_text(c) if reason == "too_many_copies" else _meld_text(reason, c)
    if text is None and reason in _GENERIC:
        text = _(_GENERIC[reason])
    if text is None and reason in HEADLINES:
        text = _(HEADLINES[reason])
    return text


_ENTERED = ("meld", "melds", "hand", "rack", "tiles", "table_after")
"""Fields whose absence means the player has entered nothing yet."""


def error_message(answer: Mapping[str, Any], request: Mapping[str, Any] | None = None) -> str:
    """An ``ok: false`` answer (the input cannot be judged) in the language in force; English:
    the judge's message."""
    message = str(answer.get("message", ""))
    code = str(answer.get("error", ""))
    params = _map(answer.get("params"))
    if code == "missing_field" and params.get("name") in _ENTERED:
        return keyed_text(_("nothing entered yet"))
    keyed = verdict_render.answer_line(answer)
    if keyed is not None:
        return keyed_text(keyed)
    if english():
        return message
    c = _ctx(answer, request)
    text: str | None = None
    if code == "too_many_copies":
        text = _copies_text(c)
    elif code == "bad_hand_size":
        text = _("a gin hand has 10 cards (11 before the discard)")
    elif code == "too_complex":
        m = c.find(r"after ([0-9.]+) s")
        if m:
            text = _(
                "too complex to decide in time: the referee stops after {seconds} s without an "
                "answer; check a smaller part of the table"
            ).format(seconds=m.group(1))
    if text is None:
        head = headline(code) if code else _("The question cannot be checked")
        return f"{head}: {message}" if message else head
    return with_rule(text, answer.get("rule"))


# -- rounds (RULES.md §3–§6) --------------------------------------------------------------------
def round_variant(result: Mapping[str, Any]) -> str | None:
    """The variant of a round answer, from the fields only that variant gives."""
    if "finish" in result:
        return "rummy101"
    if "racks" in result or "pool_exhausted" in result:
        return "tiles"
    if "values" in result or "stock_exhausted" in result:
        return "carousel"
    if "result" in result and "deadwood" in result:
        return "gin"
    return None


def why_line(item: Mapping[str, Any], result: Mapping[str, Any]) -> str:
    """One player's line of a round's ``breakdown`` (``{name, points, why, rule, role, …}``) in
    the language in force, with the rule; English: the judge's ``why``."""
    english_why = str(item.get("why", ""))
    keyed = verdict_render.answer_line(item)
    if keyed is not None:
        return keyed_text(keyed)
    del result  # an older round without keys: ``breakdown.current_result`` judges it again
    return english_why


def round_message(result: Mapping[str, Any]) -> str:
    """A scored round's verdict line (or, not valid, why it cannot have happened)."""
    message = str(result.get("message", ""))
    if result.get("valid") is False or result.get("reason"):
        return verdict_message({**result, "ok": True, "valid": False})
    keyed = verdict_render.answer_line(result)
    if keyed is not None:
        return keyed_text(keyed)
    return message


def _keyed_lines(answer: Mapping[str, Any]) -> list[str] | None:
    """The answer's ``breakdown_lines`` rendered (rules.messages keys), or ``None`` for an
    answer recorded before the engine gave them (a round stored by an older version)."""
    raw = answer.get("breakdown_lines")
    if not isinstance(raw, list) or len(raw) != len(_list(answer.get("breakdown"))):
        return None
    return [verdict_render.render(ln) for ln in raw if isinstance(ln, Mapping)]


def gin_lines(result: Mapping[str, Any]) -> list[str]:
    """The arithmetic of a gin round (knock, lay-offs, undercut, gin) line by line in the
    language in force; English: the judge's own ``breakdown`` lines."""
    own = [str(b) for b in result.get("breakdown", []) if isinstance(b, str)]
    keyed = _keyed_lines(result)
    if keyed is not None:
        return keyed
    return own


# -- games --------------------------------------------------------------------------------------
def game_message(answer: Mapping[str, Any], variant: str) -> str:
    """The ``game`` answer's line (running, over and why) in the language in force."""
    message = str(answer.get("message", ""))
    if answer.get("valid") is False or answer.get("reason"):
        return verdict_message({**answer, "ok": True, "valid": False}, {"variant": variant})
    keyed = verdict_render.answer_line(answer)
    return message if keyed is None else keyed_text(keyed)


def game_lines(
    answer: Mapping[str, Any], variant: str, options: Mapping[str, Any] | None = None
) -> list[str]:
    """Gin's game-end lines (the winner, game bonus, box bonuses, shutout) in the language in
    force; English (or another variant): the judge's own ``breakdown`` lines."""
    own = [str(b) for b in answer.get("breakdown", []) if isinstance(b, str)]
    keyed = _keyed_lines(answer)
    if keyed is not None:
        return keyed
    del variant, options  # an answer without keys: the judge's own lines
    return own


__all__ = [
    "ERRORS",
    "ERROR_HEADLINES",
    "HEADLINES",
    "REASONS",
    "error_message",
    "game_lines",
    "game_message",
    "gin_lines",
    "headline",
    "material_of",
    "reason_message",
    "round_message",
    "round_variant",
    "rule_ref",
    "verdict_message",
    "why_line",
]
