"""The judge's verdicts and explanations in the player's language (issue 5, item 5).

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
    "unknown_check": N_("The question cannot be checked"),
    "unknown_variant": N_("Unknown variant"),
    "unsupported_check": N_("This check does not apply to this variant"),
    "internal_error": N_("The referee failed; please report it"),
    "bad_hand_size": N_("Wrong number of cards"),
}
ERRORS: frozenset[str] = frozenset(ERROR_HEADLINES)
"""Every ``error`` code of an ``ok: false`` answer this module words."""

FINISH_NAMES: dict[str, str] = {
    "normal": N_("normal finish"),
    "joker": N_("finish by discarding a joker"),
    "one_turn": N_("finish in one turn"),
    "one_turn_joker": N_("finish in one turn, discarding a joker"),
    "stock_out": N_("stock ran out (no winner)"),
}
"""Rummy 101 finishes (RULES.md §3) as the judge names them."""


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


def with_rule(text: str, rule: Any) -> str:
    """``text`` with its first letter capitalised and the rule reference after it."""
    text = text[:1].upper() + text[1:] if text else text
    ref = rule_ref(rule)
    return f"{text} {ref}" if ref and text else text


def signed(n: int) -> str:
    """``+5``, ``−5`` (true minus sign) or ``0``."""
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"\u2212{-n}"
    return "0"


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


def _pieces(v: Any) -> str:
    return " ".join(_tokens(v))


def _names(v: Any) -> str:
    return ", ".join(str(n) for n in v) if isinstance(v, list | tuple) else str(v)


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


def _or(text: str) -> str:
    """The judge's "R7 or Y7" (what a joker may stand for) with "or" translated."""
    return text.replace(" or ", _(" or "))


def meld_ref(which: str, index: Any, melds: Any = None) -> str:
    """ "table before, meld 2 (R4 R5 JK)": a meld of a turn named as people do (``which``:
    ``"before"`` or ``"after"``; ``index`` 0-based; ``melds``: the request's table, for the
    pieces)."""
    i = _int(index)
    if i is None:
        return _("a meld on the table")
    name = (
        _("table before, meld {n}") if which == "before" else _("table after, meld {n}")
    ).format(n=i + 1)
    if isinstance(melds, list) and 0 <= i < len(melds) and isinstance(melds[i], list):
        return f"{name} ({_pieces(melds[i])})"
    return name


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
def _opening_text(reason: str, c: _Ctx) -> str | None:
    a = c.a
    tiles_variant = c.variant in ("tile_rummy", "my_rummy") or "pairs_needed" not in a
    if reason == "no_melds":
        if c.variant == "rummy101" or "pairs_needed" in a:
            return _("an opening lays at least one meld")
        return _("the initial meld lays at least one new meld")
    if reason == "tile_not_in_hand":
        pieces = _pieces(a.get("tiles"))
        if pieces:
            return _("{pieces} laid but not in the hand").format(pieces=pieces)
        return _("every tile laid must come from the hand")
    if reason == "no_tile_to_discard":
        return _("a player must keep one tile to discard after opening")
    if reason == "mixed_pairs_and_melds":
        return _("an opening is by melds (runs and groups) or by pairs, never both")
    if reason == "discard_not_used":
        tile = a.get("taken_discard")
        if isinstance(tile, str):
            return _("the taken discard {tile} must be used in the opening melds").format(tile=tile)
        return _("the taken discard must be used in the opening melds")
    if reason == "too_few_pairs":
        pairs, need = c.num("pairs"), c.num("pairs_needed")
        if pairs is None or need is None:
            return None
        return ngettext(
            "an opening by pairs needs {need} pair; these are {n}",
            "an opening by pairs needs {need} pairs; these are {n}",
            need,
        ).format(need=need, n=pairs)
    if reason == "below_threshold":
        value, need = c.num("value"), c.num("needed")
        if value is None or need is None:
            return None
        if tiles_variant and "pairs_needed" not in a:
            return _(
                "the initial meld needs {need} points in new melds of one's own tiles; "
                "these make {value}"
            ).format(need=need, value=value)
        return _("an opening needs {need} points in one turn; these melds make {value}").format(
            need=need, value=value
        )
    return None


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


def _turn_text(reason: str, c: _Ctx) -> str | None:
    a, cards = c.a, c.cards
    tile = a.get("tile") if isinstance(a.get("tile"), str) else None
    if reason == "tile_taken_from_table":
        if tile == "JK":
            if cards:
                return _(
                    "a joker left the table: a freed joker must be used on the table in the "
                    "same turn, never taken to the hand"
                )
            return _(
                "a joker left the table: a freed joker must be used on the table in the same "
                "turn, never taken to the rack"
            )
        if tile is None:
            return None
        if cards:
            return _("{piece} left the table: no card goes from the table to the hand").format(
                piece=tile
            )
        return _("{piece} left the table: no tile goes from the table to the rack").format(
            piece=tile
        )
    if reason == "tile_not_on_rack":
        if "initial_meld" not in a and "played" not in a:  # the opening check (tiles)
            pieces = _pieces(a.get("tiles"))
            if pieces:
                return _(
                    "the initial meld uses only the player's own tiles; {pieces} is not on the rack"
                ).format(pieces=pieces)
            return _("the initial meld uses only the player's own tiles")
        if tile is None:
            return None
        if cards:
            return _(
                "{piece} is new on the table but was not in the hand: only cards from the "
                "hand may be played"
            ).format(piece=tile)
        return _(
            "{piece} is new on the table but was not on the rack: only tiles from the rack "
            "may be played"
        ).format(piece=tile)
    if reason == "nothing_played":
        if cards:
            return _(
                "no card was played from the hand: a turn adds at least one card to the "
                "table (a player who plays nothing draws instead)"
            )
        return _(
            "no tile was played from the rack: a turn adds at least one tile to the table "
            "(a player who plays nothing draws instead)"
        )
    if reason == "no_split":
        piece = a.get("piece")
        if isinstance(piece, str):
            return _("these pieces do not split into valid melds: {piece} fits in no meld").format(
                piece=piece
            )
        if cards:
            return _(
                "the table after the turn cannot be split into valid melds of at least 3 cards each"
            )
        return _(
            "the table after the turn cannot be split into valid melds of at least 3 tiles each"
        )
    if reason == "manipulated_before_initial_meld":
        return _(
            "{meld} is no longer on the table as it was: until the initial meld is down a "
            "player may not add to, rearrange or take jokers from table melds"
        ).format(meld=meld_ref("before", a.get("meld"), c.req.get("table_before")))
    if reason == "below_initial_meld":
        value, need = c.num("value"), c.num("needed")
        if value is None or need is None:
            return None
        return _(
            "the initial meld needs {need} points in new melds of the player's own tiles; "
            "these make {value}"
        ).format(need=need, value=value)
    if reason == "joker_rule":
        return _joker_text(c)
    return None


JOKER_STAGES = ("match", "rack", "no_split", "new_meld")
"""Tile Rummy joker levels 1–4 (RULES.md §4) as :mod:`rules.table` names its checks."""


def joker_stage(answer: Mapping[str, Any], variant: str | None = None) -> str:
    """Which joker check failed: ``match``, ``rack``, ``no_split``, ``new_meld`` (Tile Rummy
    levels 1–4), ``my_initial``, ``my_exact``, ``my_other`` (My Rummy), from the answer's
    ``stage`` or ``level``, else from the judge's message."""
    stage = answer.get("stage")
    if isinstance(stage, str):
        return stage
    level = _int(answer.get("level"))
    if level is not None and 1 <= level <= len(JOKER_STAGES):
        return JOKER_STAGES[level - 1]
    message = str(answer.get("message", ""))
    if answer.get("joker_rule") == "carousel" or variant == "carousel":
        return "match"
    if "level 2, match_from_rack" in message or "came from the table" in message:
        return "rack"
    if "initial-meld turn" in message and "swapped" in message:
        return "my_initial"
    if "must go exactly where the joker was" in message:
        return "my_exact"
    if "must be used in another meld" in message:
        return "my_other"
    if "while it holds a joker" in message:
        return "no_split"
    if "which is not a new meld" in message:
        return "new_meld"
    return "match"


def _joker_text(c: _Ctx) -> str:
    a = c.a
    rule = a.get("joker_rule")
    stage = joker_stage(a, c.variant)
    level = _int(a.get("level"))
    if rule == "carousel" or c.variant == "carousel":
        prefix = _("Carousel joker rule")
    elif rule == "my_rummy" or c.variant == "my_rummy":
        prefix = _("My Rummy joker rule")
    elif level is not None:
        prefix = _("joker rule {n}").format(n=level)
    else:
        prefix = _("joker rule")
    before = meld_ref("before", a.get("meld"), c.req.get("table_before"))
    after_melds = c.req.get("table_after")
    after = meld_ref(
        "after", a.get("after"), after_melds if isinstance(after_melds, list) else None
    )
    joker = _or(str(a.get("joker", "?")))
    tile = a.get("tile") if isinstance(a.get("tile"), str) else None
    rack = _("the hand") if c.cards else _("the rack")
    text: str
    if stage == "rack" and tile:
        text = _(
            "the {tile} that replaced the joker of {before} came from the table, not from {rack}"
        ).format(tile=tile, before=before, rack=rack)
    elif stage == "no_split":
        text = _(
            "pieces were taken from {before} while it holds a joker: no piece may leave a meld "
            "holding a joker unless that joker is first replaced"
        ).format(before=before)
    elif stage == "new_meld":
        text = _(
            "the joker freed from {before} went onto {after}, which is not a new meld made of "
            "pieces from {rack}"
        ).format(before=before, after=after, rack=rack)
    elif stage == "my_initial":
        text = _(
            "the joker of {before} was swapped in the initial-meld turn: a joker may be "
            "swapped only after one's own initial meld"
        ).format(before=before)
    elif stage == "my_exact" and tile:
        text = _(
            "the {tile} must go exactly where the joker was: {after} is not {before} with "
            "{tile} in the joker's place"
        ).format(tile=tile, after=after, before=before)
    elif stage == "my_other":
        text = _(
            "the joker freed from {before} must be used in another meld, not put back into {after}"
        ).format(before=before, after=after)
    elif "meld" not in a:
        text = _("a joker left its meld without being replaced")
    elif tile:
        text = _(
            "the joker of {before} stood for {joker} and left without being replaced: the "
            "{tile} in {after} is not in that meld's place"
        ).format(before=before, joker=joker, tile=tile, after=after)
    elif "after" in a:
        text = _(
            "the joker of {before} stood for {joker} and went to {after}, away from its meld, "
            "without being replaced by {joker}"
        ).format(before=before, joker=joker, after=after)
    elif rule == "carousel" or c.variant == "carousel":
        text = _(
            "the joker of {before} stood for {joker}; it no longer does and {joker} did not "
            "take its place (a joker keeps its identity until replaced by that very card)"
        ).format(before=before, joker=joker)
    else:
        text = _(
            "the joker of {before} stood for {joker} and left its place without being "
            "replaced by {joker}"
        ).format(before=before, joker=joker)
    return _("{rule}: {fault}").format(rule=prefix, fault=text)


def _round_text(reason: str, c: _Ctx) -> str | None:
    a = c.a
    player = a.get("player") if isinstance(a.get("player"), str) else None
    if reason == "player_count":
        n = c.num("players")
        m = c.find(r"played by (\d+)–(\d+)")
        if n is None or m is None:
            return _("this variant is not played by this many players")
        return _("{n} players: this variant is played by {lo}–{hi}").format(
            n=n, lo=m.group(1), hi=m.group(2)
        )
    if reason == "two_winners":
        m = c.find(r"; (.+) are all marked winner") or c.find(r"^(.+) both have empty racks")
        if m:
            return _("only one player can finish a round; {names} are all marked winner").format(
                names=m.group(1).replace(" and ", ", ")
            )
        return _("only one player can finish a round")
    if reason == "winner_in_stock_out":
        m = c.find(r"but (.+) is marked winner")
        if m:
            return _("when the stock runs out nobody wins, but {name} is marked winner").format(
                name=m.group(1)
            )
        return _("when the stock runs out nobody wins")
    if reason == "no_winner":
        return _("this finish needs a winner; only a round where the stock ran out has none")
    if reason == "opened_in_one_turn":
        m = c.find(r"but (.+) had")
        if m:
            return _("a finish in one turn means nobody had opened, but {names} had").format(
                names=m.group(1)
            )
        return _("a finish in one turn means nobody had opened")
    if reason == "winner_has_tiles":
        if player is None:
            return _("the winner finished, so no tiles are left")
        return _("the winner {name} finished, so no tiles are left").format(name=player)
    if reason == "hand_too_large":
        m = c.find(r"holds (\d+) tiles; a hand holds at most (\d+)")
        if m and player:
            return _("{name} holds {n} tiles; a hand holds at most {max}").format(
                name=player, n=m.group(1), max=m.group(2)
            )
        return _("a hand holds too many tiles")
    if reason == "negative_hand_value":
        if player is None:
            return _("a hand's value cannot be negative")
        return _("{name}'s hand value cannot be negative").format(name=player)
    if reason == "impossible_hand_value":
        m = c.find(r"'s (\d+) points cannot fit in a hand of at most (\d+)")
        if m and player:
            return _("{name}'s {value} points cannot fit in a hand of at most {max} tiles").format(
                name=player, value=m.group(1), max=m.group(2)
            )
        return _("these points cannot fit in one hand")
    if reason == "empty_hand":
        if player is None:
            return _("a player who did not win keeps a tile to discard")
        return _(
            "{name} has no tiles left but did not win; a player keeps a tile to discard"
        ).format(name=player)
    if reason == "empty_rack_not_winner":
        if player is None:
            return _("only one player goes out")
        return _("{name}'s rack is empty, so {name} went out too; only one player goes out").format(
            name=player
        )
    if reason == "knock_above_limit":
        most = c.num("knock_max")
        value = c.num("deadwood") if c.num("deadwood") is not None else c.num("value")
        name = a.get("knocker") if isinstance(a.get("knocker"), str) else None
        if name is None:
            m = c.find(r"^(.+?) knock(?:s|ed) with")
            name = m.group(1) if m else None
        if most is None or value is None:
            return _("a knock needs fewer points")
        if c.variant == "gin" or "deadwood" in a:
            if name:
                return _("{name} knocks with deadwood {n}; a knock needs at most {max}").format(
                    name=name, n=value, max=most
                )
            return _("a knock with deadwood {n}; a knock needs at most {max}").format(
                n=value, max=most
            )
        if name:
            return _("{name} knocked with {n}; a knock needs a hand of {max} or less").format(
                name=name, n=value, max=most
            )
        return _("a knock with {n}; a knock needs a hand of {max} or less").format(
            n=value, max=most
        )
    if reason == "gin_with_deadwood":
        n = c.num("deadwood")
        if n is None:
            return _("gin is deadwood 0")
        return _("gin declared with deadwood {n}; gin is deadwood 0").format(n=n)
    if reason == "knocker_not_a_player":
        name = a.get("knocker")
        return _("the knocker {name} is not one of the players").format(name=name or "?")
    if reason == "wrong_hand_size":
        n = c.num("cards")
        if player is None or n is None:
            return _("a gin hand at the end of a round has 10 cards (the knocker 10 or 11)")
        return _(
            "{name} holds {n} cards; a gin hand at the end of a round has 10 (the knocker 10 or 11)"
        ).format(name=player, n=n)
    if reason == "wrong_player_count":
        n = c.num("players")
        if c.find(r"solo mode"):
            return _("solo mode has one player against the joker, not {n}").format(n=n)
        return _("gin is played by two players, not {n}").format(n=n)
    if reason == "round_after_game_end":
        rnd, end = c.num("round"), c.num("ended_at_round")
        if rnd is None or end is None:
            return _("the game is already over; start a new game")
        return _("round {n} comes after the game ended in round {end}; start a new game").format(
            n=rnd, end=end
        )
    if reason == "rounds_after_end":
        end = c.num("ended_after")
        if end is None:
            return _("the game is already over; later rounds cannot count")
        return _("the game ended after round {end}; later rounds cannot count").format(end=end)
    if reason == "too_many_rounds":
        m = c.find(r"(\d+) rounds scored but (\d+) were agreed")
        if m:
            return _("{n} rounds scored but {planned} were agreed").format(
                n=m.group(1), planned=m.group(2)
            )
        return _("more rounds are scored than were agreed")
    return None


def _invalid_meld_text(c: _Ctx) -> str | None:
    """``invalid_meld`` of an opening (``meld_index``) or a turn (``meld``: the table after)."""
    a = c.a
    inner_reason = a.get("meld_reason")
    if "meld_index" in a:
        i = _int(a.get("meld_index"))
        melds = a.get("melds")
        tiles: list[str] = []
        inner_english = ""
        if i is not None and isinstance(melds, list) and 0 <= i < len(melds):
            m = melds[i]
            if isinstance(m, Mapping):
                tiles = _tokens(m.get("tiles"))
                inner_english = str(m.get("message", ""))
        inner = _meld_text(
            str(inner_reason),
            _Ctx({}, c.req, c.variant, inner_english, tuple(tiles)),
        )
        name = _("meld {n}").format(n=(i or 0) + 1)
        if tiles:
            name += f" ({' '.join(tiles)})"
        if inner is None:
            return _("{meld} is not a valid meld").format(meld=name)
        return _("{meld} is not a valid meld: {why}").format(meld=name, why=inner)
    tiles = _tokens(a.get("tiles"))
    m = c.find(r"is not a valid meld: (.*)$")
    inner = _meld_text(
        str(inner_reason), _Ctx({}, c.req, c.variant, m.group(1) if m else "", tuple(tiles))
    )
    name = meld_ref("after", a.get("meld"))
    if tiles:
        name += f" ({' '.join(tiles)})"
    if inner is None:
        return _("{meld} is not a valid meld").format(meld=name)
    return _("{meld} is not a valid meld: {why}").format(meld=name, why=inner)


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
    """A valid verdict (meld, opening, turn, Carousel hand)."""
    a = c.a
    kind = a.get("kind")
    value = c.num("value")
    if kind in ("run", "group", "pair") and value is not None:
        if kind == "run":
            return _("valid run worth {n}").format(n=value)
        if kind == "group":
            return _("valid group worth {n}").format(n=value)
        return _("valid pair worth {n}").format(n=value)
    if a.get("by") == "pairs":
        pairs, need = c.num("pairs"), c.num("pairs_needed")
        return _("opening by {n} pairs (needs {need}; no point minimum)").format(n=pairs, need=need)
    if a.get("by") == "melds" and value is not None:
        need = c.num("needed")
        if "pairs_needed" in a:
            return _("opening by melds worth {n} (needs {need})").format(n=value, need=need)
        return _("initial meld worth {n} (needs {need})").format(n=value, need=need)
    if "played" in a:
        played = len(_tokens(a.get("played")))
        initial = c.num("initial_meld")
        if c.cards:
            text = ngettext(
                "valid turn: {n} card played", "valid turn: {n} cards played", played
            ).format(n=played)
        else:
            text = ngettext(
                "valid turn: {n} tile played", "valid turn: {n} tiles played", played
            ).format(n=played)
        if initial is not None:
            return _("{turn}, initial meld worth {n}").format(turn=text, n=initial)
        return _("{turn}, table valid").format(turn=text)
    if "can_knock" in a and c.num("deadwood") is not None:
        n, most = c.num("deadwood"), c.num("knock_max")
        if a.get("went_out"):
            return _("no cards left: the player went out")
        if c.variant == "gin" or "big_gin" in a:
            return _("deadwood {n}; a player may knock at {max} or less").format(n=n, max=most)
        return _("hand worth {n}; a player may knock at {max} or less").format(n=n, max=most)
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
    message = answer.get("message")
    if english() and isinstance(message, str) and message:
        return message
    c = _ctx(answer, request)
    rule = answer.get("rule")
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
    text: str | None
    if reason == "invalid_meld":
        text = _invalid_meld_text(c)
    elif reason == "too_many_copies":
        text = _copies_text(c)
    else:
        text = (
            _meld_text(reason, c)
            or _opening_text(reason, c)
            or _turn_text(reason, c)
            or _round_text(reason, c)
        )
    if text is None and reason in _GENERIC:
        text = _(_GENERIC[reason])
    if text is None and reason in HEADLINES:
        text = _(HEADLINES[reason])
    return text


def error_message(answer: Mapping[str, Any], request: Mapping[str, Any] | None = None) -> str:
    """An ``ok: false`` answer (the input cannot be judged) in the language in force; English:
    the judge's message."""
    message = str(answer.get("message", ""))
    if english():
        return message
    code = str(answer.get("error", ""))
    c = _ctx(answer, request)
    text: str | None = None
    if code == "too_many_copies":
        text = _copies_text(c)
    elif code == "bad_token":
        m = c.find(r"bad token '([^']*)'")
        text = (
            _("“{token}” is not a piece of this game").format(token=m.group(1))
            if m
            else _("a piece is not written as the rules say")
        )
    elif code == "bad_field":
        m = c.find(r"table_before\[(\d+)\] \(([^)]*)\) is not a valid meld")
        if m:
            text = _(
                "{meld} ({pieces}) is not a valid meld, so it cannot have been on the table"
            ).format(meld=meld_ref("before", int(m.group(1))), pieces=m.group(2))
    elif code == "missing_field":
        m = c.find(r"missing field '([^']*)'")
        if m and m.group(1) in ("meld", "melds", "hand", "rack", "tiles", "table_after"):
            text = _("nothing entered yet")
    elif code == "bad_hand_size":
        text = _("a gin hand has 10 cards (11 before the discard)")
    if text is None:
        head = headline(code) if code else _("The question cannot be checked")
        return f"{head}: {message}" if message else head
    return with_rule(text, answer.get("rule"))


# -- rounds (RULES.md §3–§6) --------------------------------------------------------------------
def _jokers_in(why: str) -> tuple[int, int] | None:
    """(jokers, points each) from an English breakdown line ("25 + 1 joker × 101 = 126")."""
    m = re.search(r"\+ (\d+) jokers? × (\d+)", why)
    return (int(m.group(1)), int(m.group(2))) if m else None


def _rummy101_why(item: Mapping[str, Any], result: Mapping[str, Any]) -> str | None:
    points = _int(item.get("points"))
    m = _int(item.get("multiplier")) or 1
    finish = result.get("finish")
    how = _(FINISH_NAMES[finish]) if finish in FINISH_NAMES else ""
    if points is None:
        return None
    if item.get("role") == "winner":
        return _("{finish}: the winner gains {n}").format(finish=how, n=points)
    penalty = _int(item.get("penalty"))
    rest = _int(item.get("rest"))
    opened = item.get("opened")
    why = str(item.get("why", ""))
    if penalty is None:
        return None
    if finish in ("one_turn", "one_turn_joker"):
        what = _("nobody had opened: penalty {n}").format(n=penalty)
    elif opened == "none":
        what = _("not opened: penalty {n}").format(n=penalty)
    elif opened in ("melds", "pairs") and rest is not None:
        jokers = _jokers_in(why)
        if jokers is not None:
            j, each = jokers
            left = ngettext(
                "{tiles} + {j} joker × {each} = {n}", "{tiles} + {j} jokers × {each} = {n}", j
            ).format(tiles=rest - j * each, j=j, each=each, n=rest)
        else:
            left = str(rest)
        if opened == "melds":
            what = _("opened with melds: tiles left {left}").format(left=left)
        else:
            what = _("opened with pairs: 2 × tiles left ({left}) = {n}").format(
                left=left, n=penalty
            )
    else:
        return None
    if m != 1:
        what = _("{what} × {m} ({finish})").format(what=what, m=m, finish=how)
    return f"{what} → {signed(points)}"


def _tiles_why(item: Mapping[str, Any], result: Mapping[str, Any]) -> str | None:
    points = _int(item.get("points"))
    rack = _int(item.get("rack"))
    if points is None or rack is None:
        return None
    racks = _map(result.get("racks"))
    pool_out = bool(result.get("pool_exhausted"))
    name = item.get("name")
    winners = _list(result.get("winners"))
    if item.get("role") == "winner":
        low = rack
        head = (
            _("the pool ran out: lowest rack ({n}) wins").format(n=low)
            if pool_out
            else _("emptied the rack")
        )
        others = [str(w) for w in winners if w != name]
        if pool_out and others:
            head = _("{head}, tied with {names}: each scores as the winner").format(
                head=head, names=", ".join(others)
            )
        if not result.get("winner_collects", True):
            return _("{head}: the winner collects nothing → 0").format(head=head)
        parts = [
            str(int(v) - low) for n, v in racks.items() if n not in winners and isinstance(v, int)
        ]
        total = " + ".join(parts) or "0"
        if pool_out:
            return _("{head}: collects the losers' differences {parts} = {n}").format(
                head=head, parts=total, n=signed(points)
            )
        return _("{head}: collects the losers' racks {parts} = {n}").format(
            head=head, parts=total, n=signed(points)
        )
    jokers = _jokers_in(str(item.get("why", "")))
    if jokers is not None:
        j, each = jokers
        shown = ngettext(
            "rack: {tiles} + {j} joker × {each} = {n}",
            "rack: {tiles} + {j} jokers × {each} = {n}",
            j,
        ).format(tiles=rack - j * each, j=j, each=each, n=rack)
    else:
        shown = _("rack {n}").format(n=rack)
    if pool_out:
        low_values = [int(racks[w]) for w in winners if isinstance(racks.get(w), int)]
        low = min(low_values) if low_values else 0
        return _("{rack}; lowest rack {low} → −({n} − {low}) = {points}").format(
            rack=shown, low=low, n=rack, points=signed(points)
        )
    return f"{shown} → {signed(points)}"


def _carousel_why(item: Mapping[str, Any], result: Mapping[str, Any]) -> str | None:
    points = _int(item.get("points"))
    hand = _int(item.get("hand"))
    if points is None or hand is None:
        return None
    name = item.get("name")
    knocker = result.get("knocker")
    values = _map(result.get("values"))
    low = _int(result.get("lowest"))
    undercut = bool(result.get("undercut"))
    winners = _list(result.get("winners"))
    if item.get("role") != "winner":
        if name == knocker and hand == low:
            return _("knocked with {n}, tied for the lowest: the tied player wins → 0").format(
                n=hand
            )
        if name == knocker:
            return _("knocked with {n} but a lower hand wins (undercut) → 0").format(n=hand)
        return _("hand {n}, not the lowest: only the winner scores → 0").format(n=hand)
    head = _("lowest hand ({n})").format(n=hand)
    if knocker is None:
        head = _("stock exhausted, nobody knocked: {head} wins").format(head=head)
    elif undercut and knocker in values and values.get(knocker) == hand:
        head = _("{head}, tied with the knocker {name}: the tied player wins").format(
            head=head, name=knocker
        )
    elif undercut:
        head = _("{head}, lower than the knocker {name}'s {n}").format(
            head=head, name=knocker, n=values.get(knocker, "?")
        )
    co = [str(w) for w in winners if w != name]
    if co:
        head = _("{head}; tied with {names}, each scores as a winner").format(
            head=head, names=", ".join(co)
        )
    diffs = _map(item.get("differences"))
    base = sum(int(v) for v in diffs.values() if isinstance(v, int))
    if len(values) == 2:
        why = _("{head}: the difference {n}").format(head=head, n=base)
    else:
        parts = " + ".join(f"{o} {d}" for o, d in diffs.items()) or "0"
        why = _("{head}: differences {parts} = {n}").format(head=head, parts=parts, n=base)
    bonuses = _map(item.get("bonuses"))
    if _int(bonuses.get("undercut")):
        why = _("{why}; undercut bonus +{n}").format(why=why, n=bonuses["undercut"])
    if _int(bonuses.get("going_out")):
        why = _("{why}; went out +{n}").format(why=why, n=bonuses["going_out"])
    return f"{why} → {signed(points)}"


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
    if english():
        return english_why
    variant = round_variant(result)
    text: str | None = None
    if variant == "rummy101":
        text = _rummy101_why(item, result)
    elif variant == "tiles":
        text = _tiles_why(item, result)
    elif variant == "carousel":
        text = _carousel_why(item, result)
    if text is None:
        return english_why
    return with_rule(text, item.get("rule") or result.get("rule"))


def round_message(result: Mapping[str, Any]) -> str:
    """A scored round's verdict line (or, not valid, why it cannot have happened)."""
    message = str(result.get("message", ""))
    if english():
        return message
    if result.get("valid") is False or result.get("reason"):
        return verdict_message({**result, "ok": True, "valid": False})
    variant = round_variant(result)
    winners = [str(w) for w in result.get("winners", []) if isinstance(w, str)]
    text: str | None = None
    if variant == "rummy101":
        finish = result.get("finish")
        m = _int(result.get("multiplier")) or 1
        how = _(FINISH_NAMES[finish]) if finish in FINISH_NAMES else ""
        gain = 101 * m
        if winners:
            text = _("{finish}: winner {gain}, penalties × {m}").format(
                finish=how, gain=signed(gain), m=m
            )
        else:
            text = _("{finish}: no winner, penalties × {m}").format(finish=how, m=m)
    elif variant == "tiles":
        racks = _map(result.get("racks"))
        if result.get("pool_exhausted"):
            lows = [int(racks[w]) for w in winners if isinstance(racks.get(w), int)]
            text = _("the pool ran out: the lowest rack ({n}) wins").format(
                n=min(lows) if lows else 0
            )
        elif winners:
            text = _("{name} emptied the rack").format(name=winners[0])
        if text is not None:
            text = (
                _("{what}; the winner collects").format(what=text)
                if result.get("winner_collects", True)
                else _("{what}; the winner collects nothing").format(what=text)
            )
    elif variant == "carousel":
        knocker = result.get("knocker")
        if knocker is None:
            text = _("stock exhausted: the lowest hand ({n}) wins").format(
                n=result.get("lowest", "?")
            )
        elif result.get("undercut"):
            text = _("{name} knocked and was undercut; {names} won").format(
                name=knocker, names=", ".join(winners)
            )
        else:
            text = _("{name} knocked with the lowest hand and wins").format(name=knocker)
    elif variant == "gin":
        kind = result.get("result")
        scores = _map(result.get("scores"))
        winner = result.get("winner")
        n = scores.get(winner, 0) if isinstance(winner, str) else 0
        if kind == "void":
            text = _("void hand: nobody scores")
        elif kind in _GIN_RESULTS and isinstance(winner, str):
            text = _("{result}: {name} scores {n}").format(
                result=_(_GIN_RESULTS[kind]), name=winner, n=n
            )
    if text is None:
        return message
    return with_rule(text, result.get("rule"))


_GIN_RESULTS: dict[str, str] = {
    "knock": N_("knock"),
    "gin": N_("gin"),
    "big_gin": N_("big gin"),
    "undercut": N_("undercut"),
}


def gin_lines(result: Mapping[str, Any]) -> list[str]:
    """The arithmetic of a gin round (knock, lay-offs, undercut, gin) line by line in the
    language in force; English: the judge's own ``breakdown`` lines."""
    own = [str(b) for b in result.get("breakdown", []) if isinstance(b, str)]
    if english():
        return own
    kind = result.get("result")
    knocker = result.get("knocker")
    if kind == "void":
        return [_("Void hand (the stock ran down to its last 2 cards): nobody scores.")]
    deadwood = _map(result.get("deadwood"))
    before = result.get("deadwood_before_layoffs")
    before = before if isinstance(before, Mapping) else deadwood
    scores = _map(result.get("scores"))
    if not isinstance(knocker, str) or knocker not in deadwood:
        return own
    defenders = [n for n in deadwood if n != knocker]
    if len(defenders) != 1:
        return own
    d = defenders[0]
    k_dw, d_dw, d_before = deadwood[knocker], deadwood[d], before.get(d, deadwood[d])
    if not all(isinstance(v, int) for v in (k_dw, d_dw, d_before)):
        return own
    lines: list[str] = []
    discard = result.get("discard")
    if isinstance(discard, str):
        lines.append(_("{name} discards {card}.").format(name=knocker, card=discard))
    if kind in ("gin", "big_gin"):
        if kind == "big_gin":
            lines.append(_("{name} melds all 11 cards: big gin.").format(name=knocker))
        else:
            lines.append(_("{name} goes gin: no lay-offs.").format(name=knocker))
        score = int(scores.get(knocker, 0))
        bonus = score - d_before
        label = _("big gin bonus") if kind == "big_gin" else _("gin bonus")
        lines.append(
            _("{name} scores {bonus} ({label}) + {n} ({other}'s deadwood) = {score}.").format(
                name=knocker, bonus=bonus, label=label, n=d_before, other=d, score=score
            )
        )
        return lines
    lines.append(_("{name} knocks with deadwood {n}.").format(name=knocker, n=k_dw))
    if result.get("layoffs_computed", True):
        if d_before != d_dw or result.get("layoffs"):
            lines.append(_("{name} has deadwood {n} before lay-offs.").format(name=d, n=d_before))
        for lay in result.get("layoffs", []) or []:
            if isinstance(lay, Mapping):
                lines.append(
                    _("{player} lays off {card} onto {meld}.").format(
                        player=lay.get("player", d),
                        card=lay.get("card", "?"),
                        meld=_pieces(lay.get("onto")),
                    )
                )
        if d_before != d_dw or result.get("layoffs"):
            lines.append(_("{name} has deadwood {n} after lay-offs.").format(name=d, n=d_dw))
    else:
        lines.append(
            _(
                "{name}'s deadwood {n} was typed in: taken as counted after any lay-offs made "
                "at the table."
            ).format(name=d, n=d_dw)
        )
    if kind == "undercut":
        score = int(scores.get(d, 0))
        diff = k_dw - d_dw
        lines.append(
            _("{name} undercuts: {k} − {d} = {diff}, + {bonus} undercut bonus = {score}.").format(
                name=d, k=k_dw, d=d_dw, diff=diff, bonus=score - diff, score=score
            )
        )
    else:
        score = int(scores.get(knocker, 0))
        lines.append(
            _("{name} scores {d} − {k} = {score}.").format(
                name=knocker, d=d_dw, k=k_dw, score=score
            )
        )
    return lines


# -- games --------------------------------------------------------------------------------------
def game_message(answer: Mapping[str, Any], variant: str) -> str:
    """The ``game`` answer's line (running, over and why) in the language in force."""
    message = str(answer.get("message", ""))
    if english():
        return message
    if answer.get("valid") is False or answer.get("reason"):
        return verdict_message({**answer, "ok": True, "valid": False}, {"variant": variant})
    finished = bool(answer.get("finished"))
    text: str | None = None
    if variant == "rummy101":
        planned = _int(answer.get("rounds_planned"))
        if finished and planned is not None:
            text = ngettext(
                "after the {n} agreed round the highest total wins",
                "after the {n} agreed rounds the highest total wins",
                planned,
            ).format(n=planned)
        elif not finished:
            text = _("the players agree on a number of rounds; the highest total is ahead")
    elif variant in ("tile_rummy", "my_rummy"):
        if not finished:
            text = _("the series goes on")
        elif _int(answer.get("target")) is not None and re.search(r"target", message):
            text = _("a total reached the target {n}: the highest total wins").format(
                n=answer["target"]
            )
        elif _int(answer.get("games")) is not None:
            n = int(answer["games"])
            text = ngettext(
                "the {n} agreed game was played: the highest total wins",
                "the {n} agreed games were played: the highest total wins",
                n,
            ).format(n=n)
        else:
            text = _("the players ended the series: the highest total wins")
    elif variant == "gin":
        if not finished:
            text = _("game running")
        elif isinstance(answer.get("winner"), str):
            text = _("game over: {name} wins").format(name=answer["winner"])
        else:
            text = _("game over: no winner")
    elif variant == "carousel":
        target = answer.get("target", "?")
        if finished:
            text = _("a total reached {n}: bonuses added, the highest total wins").format(n=target)
        else:
            text = _("the game goes on until a total reaches {n}").format(n=target)
    if text is None:
        return message
    return with_rule(text, answer.get("rule"))


def game_lines(
    answer: Mapping[str, Any], variant: str, options: Mapping[str, Any] | None = None
) -> list[str]:
    """Gin's game-end lines (the winner, game bonus, box bonuses, shutout) in the language in
    force; English (or another variant): the judge's own ``breakdown`` lines."""
    own = [str(b) for b in answer.get("breakdown", []) if isinstance(b, str)]
    if english() or variant != "gin" or not answer.get("finished") or not own:
        return own
    try:
        from rules.options import options_for

        opts: Any = options_for("gin", dict(options or {}))
    except Exception:  # noqa: BLE001 - bad stored options: keep the judge's lines
        return own
    winner = answer.get("winner")
    boxes = _map(answer.get("boxes"))
    lines: list[str] = []
    if isinstance(winner, str):
        lines.append(_("{name} reaches {n} and wins.").format(name=winner, n=opts.target))
        if getattr(opts, "game_bonus", 0):
            lines.append(_("{name}: game bonus {n}.").format(name=winner, n=opts.game_bonus))
    else:
        lines.append(_("A tie at the target: no winner, no game bonus."))
    box = getattr(opts, "box_bonus", 0) or 0
    for name, won in boxes.items():
        if isinstance(won, int) and won and box:
            lines.append(
                ngettext(
                    "{name}: {n} round won × {box} box bonus = {total}.",
                    "{name}: {n} rounds won × {box} box bonus = {total}.",
                    won,
                ).format(name=name, n=won, box=box, total=won * box)
            )
    if answer.get("shutout") and isinstance(winner, str):
        totals = _map(answer.get("totals"))
        if getattr(opts, "shutout", "") == "double":
            total = totals.get(winner, 0)
            lines.append(
                _("{name}: shutout, total {n} doubled to {total}.").format(
                    name=winner, n=int(total) // 2, total=total
                )
            )
        elif getattr(opts, "shutout_bonus", 0):
            lines.append(_("{name}: shutout bonus {n}.").format(name=winner, n=opts.shutout_bonus))
    return lines


__all__ = [
    "ERRORS",
    "ERROR_HEADLINES",
    "FINISH_NAMES",
    "HEADLINES",
    "JOKER_STAGES",
    "REASONS",
    "error_message",
    "game_lines",
    "game_message",
    "gin_lines",
    "headline",
    "joker_stage",
    "material_of",
    "meld_ref",
    "reason_message",
    "round_message",
    "round_variant",
    "rule_ref",
    "verdict_message",
    "why_line",
]
