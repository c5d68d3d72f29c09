"""Render the referee's lines in the player's language (issue 15, step 4).

The rules engine gives every verdict, input error and explanation line as data: a message
``key`` of :data:`rules.messages.MESSAGES` and its ``params`` (``{"key": …, "params": …}``;
a param may itself be such a line). This module renders one with
``gettext(template).format(localised params)``: the English template is the message id of the
app's catalogues (babel extracts ``rules/messages.py``), so a wording edit of a template makes
its translation stale (untranslated) instead of silently stating another rule. Nothing here
parses English or redoes rule arithmetic.

Params are localised: nested lines are rendered first; request field names of input errors
read as words (:data:`FIELD_WORDS`), option ids and choices of ``option.*`` errors as the
options form names them (:mod:`app.ui.common.labels`); cards as a sentence names them
(``10H`` -> Polish "10 kier": :func:`app.ui.common.labels.pieces_words`; English keeps the
notation), and the genitive of a field holding pieces is ``{field.gen}`` ("týka sa ruky");
numbers and tiles (``R13``) stay. A meld of the table carries its grammatical cases
(:class:`Inflected`): a translation puts it after a preposition as ``{before.gen}``,
``{before.dat}``, ``{after.loc}`` (Polish "do układu 1 …", Slovak "k zostave 1 …"); the
forms are the msgids "meld {n}", "table before, meld {n}", "table after, meld {n}" in the
contexts "genitive", "dative", "accusative", "instrumental", "locative".

Public API (the screens use these; every engine answer carries its key)::

    headline(reason)                      "Not enough points to open" (short, for a title)
    verdict_message(answer, request)      the one-line verdict (valid or not) of any check
    error_message(answer, request)        an ``ok: false`` answer (what is wrong with the input)
    round_message(result)                 a scored round's verdict line
    why_line(item, result)                one player's line of a round's breakdown
    gin_lines(result)                     a gin round's ``breakdown_lines``, line by line
    game_message(answer, variant)         the game's state (running, over, why)
    game_lines(answer, variant, options)  gin's game-end lines (``breakdown_lines``)

An answer without a key (a round stored by a version before issue 15) reads as the judge's
English in English and as its reason's headline in another language: never parsed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Final

from app.games.variants import about, is_variant
from app.i18n import N_, _, language, ngettext, pgettext
from app.ui.common import labels
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
    "declared_before": N_("the jokers declared before the turn"),
    "declared_after": N_("the jokers declared after the turn"),
    "previous_openings": N_("the earlier openings"),
    "penalties": N_("the penalty draws"),
    "needed": N_("the points needed"),
    "pairs_needed": N_("the pairs needed"),
    "value": N_("the value"),
    "pairs": N_("the number of pairs"),
    "opened": N_("whether the player opened"),
    "name": N_("the name"),
    "winner": N_("the winner"),
    "scores": N_("the scores"),
    "winners": N_("the winners"),
    "by": N_("opened by"),
    "reason": N_("the reason"),
    "hand_value": N_("the hand value"),
    "jokers": N_("the jokers"),
    "turned": N_("the cards turned"),
    "void": N_("void hand"),
}
"""Request fields an input error may name, as a player says them."""

_INDEXED: Final = re.compile(r"^(\w+)\[(\d+)\](?:\.(\w+))?$")

CASES: Final = ("gen", "dat", "acc", "ins", "loc")
"""The grammatical cases a translation may ask of a meld reference: ``{before.gen}`` (Polish
"do układu 1 …", genitive), ``{before.dat}`` (Slovak "k zostave 1 …", dative), ``{after.loc}``
(locative) and so on; a bare ``{before}`` is the nominative (the form of the plain msgid)."""


class Inflected(str):
    """A rendered param that also knows its inflected forms (``.gen``, ``.dat``, ``.acc``,
    ``.ins``, ``.loc``; see :data:`CASES`). A form nobody translated (English, or a param
    without cases, e.g. a tile) is the text itself, so ``{x.gen}`` never fails."""

    __slots__ = ("_forms",)
    _forms: dict[str, str]

    def __new__(cls, text: str, forms: Mapping[str, str] | None = None) -> Inflected:
        obj = super().__new__(cls, text)
        obj._forms = dict(forms or {})
        return obj

    def __getattr__(self, name: str) -> str:
        if name in CASES:
            return self._forms.get(name, str(self))
        raise AttributeError(name)


def _meld_cases(kind: str) -> dict[str, str]:
    """The case forms of "meld {n}", "table before, meld {n}", "table after, meld {n}" (one
    msgid per case and context, so a translator declines the noun: "układu 1", "zostave 1")."""
    if kind == "melds":
        return {
            "gen": pgettext("genitive", "meld {n}"),
            "dat": pgettext("dative", "meld {n}"),
            "acc": pgettext("accusative", "meld {n}"),
            "ins": pgettext("instrumental", "meld {n}"),
            "loc": pgettext("locative", "meld {n}"),
        }
    if kind == "table_before":
        return {
            "gen": pgettext("genitive", "table before, meld {n}"),
            "dat": pgettext("dative", "table before, meld {n}"),
            "acc": pgettext("accusative", "table before, meld {n}"),
            "ins": pgettext("instrumental", "table before, meld {n}"),
            "loc": pgettext("locative", "table before, meld {n}"),
        }
    return {
        "gen": pgettext("genitive", "table after, meld {n}"),
        "dat": pgettext("dative", "table after, meld {n}"),
        "acc": pgettext("accusative", "table after, meld {n}"),
        "ins": pgettext("instrumental", "table after, meld {n}"),
        "loc": pgettext("locative", "table after, meld {n}"),
    }


_MATERIAL: ContextVar[str | None] = ContextVar("verdict_material", default=None)
"""``"tiles"`` or ``"cards"`` while an answer of a known variant is rendered."""


_JOKERS: ContextVar[bool | None] = ContextVar("verdict_jokers", default=None)
"""Whether the variant being rendered plays with jokers (``None``: not known)."""

_NO_JOKER_TEMPLATES: Final[dict[str, str]] = {
    "token.not_a_card": N_("a card is a rank A 2–10 J Q K and a suit S H D C (♠ ♥ ♦ ♣)"),
}
"""The app's wording of a notation line for a variant without jokers (gin): the engine's
English names the joker for every card variant, the player's screen says it only where the
variant has one (asked of the variant: its ``meld_rules.jokers``)."""


_LIMIT_ZERO_TEMPLATES: Final[dict[str, str]] = {
    "gin.hand.cannot_knock": N_(
        "deadwood {deadwood}; only gin (deadwood 0) goes down under these rules, so this hand "
        "cannot go down yet"
    ),
    "gin.knock_above_limit": N_(
        "{name} knocks with deadwood {deadwood}; only gin (deadwood 0) may go down under these "
        "rules"
    ),
    "car.hand": N_(
        "hand worth {value}; under these rules a player may knock only with a hand worth 0"
    ),
    "car.knock_above_limit": N_(
        "{knocker} knocked with {value}; under these rules a knock needs a hand worth 0"
    ),
}
"""The app's wording of a knock-limit line whose limit (``max``) is 0, a house option where
only a hand with nothing left to count goes down (in gin: only gin, RULES.md §5): the engine's
"a knock needs 0 or less" is true but reads as a slip."""


@contextmanager
def material_of_request(request: Mapping[str, Any] | None) -> Iterator[None]:
    """Render with the request's material (tiles or cards) known: "the hand" of Rummy 101
    (tiles on the rack) and of gin (cards) need two translations."""
    variant = request.get("variant") if isinstance(request, Mapping) else None
    material = None
    if is_variant(variant):
        material = about(variant).rules.material
    elif isinstance(variant, str):  # not a variant's name: as before, tiles
        material = "tiles"
    jokers = about(variant).rules.meld_rules.jokers if is_variant(variant) else _JOKERS.get()
    token = _MATERIAL.set(material or _MATERIAL.get())
    jokers_token = _JOKERS.set(jokers)
    try:
        yield
    finally:
        _JOKERS.reset(jokers_token)
        _MATERIAL.reset(token)


def field_words(name: str) -> str:
    """A request field name as words: ``melds[1]`` -> "meld 2", ``players[0].hand`` ->
    "the hand of player 1"; an unknown name is given as it is."""
    return str(_field_forms(name))


def _genitive(name: str, material: str | None) -> str | None:
    """The genitive of a field that holds pieces (Polish "dotyczy ręki", Slovak "týka sa
    ruky": "{why} (in {field})" of a token error), or None for a field without one."""
    if name == "rack" or (name == "hand" and material == "tiles"):
        return pgettext("genitive", "the rack")
    if name == "hand":
        return pgettext("genitive", "the hand")
    if name == "meld":
        return pgettext("genitive", "the meld")
    if name == "melds":
        return pgettext("genitive", "the melds")
    if name == "tiles":
        if material == "tiles":
            return pgettext("genitive", "the tiles")
        if material == "cards":
            return pgettext("genitive", "the cards")
        return pgettext("genitive", "the pieces")
    if name == "taken_discard":
        return pgettext("genitive", "the taken discard")
    if name == "table_before":
        return pgettext("genitive", "the table before")
    if name in ("table_after", "table_after.heap"):
        return pgettext("genitive", "the table after")
    if name == "declare":
        return pgettext("genitive", "the declared cards")
    return None


def _field_forms(name: str) -> str:
    """:func:`field_words`, a meld's name as :class:`Inflected` (with its cases); a field
    holding pieces has its genitive (``{field.gen}``)."""
    material = _MATERIAL.get()
    gen = _genitive(name, material)
    if gen is not None:
        return Inflected(_field_nominative(name, material), {"gen": gen})
    return _field_nominative(name, material)


def _field_nominative(name: str, material: str | None) -> str:
    """:func:`_field_forms` in the nominative (a meld with all its cases)."""
    if name in ("hand", "rack") and material == "tiles":
        return pgettext("tiles", "the rack")
    if name == "hand" and material == "cards":
        return pgettext("cards", "the hand")
    if name == "tiles" and material == "tiles":
        return _("the tiles")
    if name == "tiles" and material == "cards":
        return _("the cards")
    if name in FIELD_WORDS:
        return _(FIELD_WORDS[name])
    m = _INDEXED.match(name)
    if m:
        base, index, sub = m.group(1), int(m.group(2)) + 1, m.group(3)
        if base in ("melds", "table_before", "table_after") and sub is None:
            which = (
                _("meld {n}")
                if base == "melds"
                else _("table before, meld {n}")
                if base == "table_before"
                else _("table after, meld {n}")
            )
            forms = {c: t.format(n=index) for c, t in _meld_cases(base).items()}
            return Inflected(which.format(n=index), forms)
        if base == "players" and sub == "hand":
            if material == "tiles":
                return Inflected(
                    pgettext("tiles", "the rack of player {n}").format(n=index),
                    {"gen": pgettext("genitive", "the rack of player {n}").format(n=index)},
                )
            if material == "cards":
                return Inflected(
                    pgettext("cards", "the hand of player {n}").format(n=index),
                    {"gen": pgettext("genitive", "the hand of player {n}").format(n=index)},
                )
            return Inflected(
                _("the hand of player {n}").format(n=index),
                {"gen": pgettext("genitive", "the hand of player {n}").format(n=index)},
            )
        if base == "players" and sub is None:
            return _("player {n}").format(n=index)
        if base == "declare":
            return Inflected(
                _("declared card {n}").format(n=index),
                {"gen": pgettext("genitive", "declared card {n}").format(n=index)},
            )
        if base == "rounds" and sub is None:
            return _("round {n}").format(n=index)
        if base == "previous_openings" and sub is None:
            return _("earlier opening {n}").format(n=index)
        if base == "penalties" and sub is None:
            return _("penalty draw {n}").format(n=index)
        if base in ("declared_before", "declared_after") and sub is None:
            return _("the jokers declared in meld {n}").format(n=index)
    return name


_FIELD_PARAMS: Final = frozenset({"field", "table", "sub"})
"""Params that always hold a request field name."""

_PIECE_PARAMS: Final = frozenset(
    {"piece", "tile", "tiles", "card", "meld", "joker", "first", "last"}
)
"""Params that hold pieces in the engine's notation (``7H``, ``R4 R5 JK``): a sentence names
them as :func:`app.ui.common.labels.pieces_words` does (a nested line in one of them is
rendered, not named)."""
_NOT_PIECES: Final = frozenset({"gin.solo_joker_name"})
"""Keys whose piece-named param holds something else (the solo joker's player name)."""


def _option_words(name: str) -> str:
    # names as the options form shows them

    return labels.option_label(name)[0]


PENALTY_REASON_WORDS: Final[dict[str, str]] = {
    "invalid_turn": N_("an invalid turn"),
    "timeout": N_("the turn time ran out"),
}
"""Why a Tile Rummy / My Rummy player drew penalty tiles (the ``reason`` of a penalty)."""


def _choice_words(value: Any) -> Any:
    """An option choice, a Rummy 101 finish or a penalty reason as the app names it."""
    if not isinstance(value, str):
        return value
    if value in labels.CHOICE_NAMES:  # a joker level as a whole phrase, not "2 · … from …"
        return labels.choice_phrase(value)
    if value in labels.FINISH_NAMES:
        return _(labels.FINISH_NAMES[value])
    if value in PENALTY_REASON_WORDS:
        return _(PENALTY_REASON_WORDS[value])
    return value


def _param(key: str, name: str, value: Any) -> Any:
    if isinstance(value, Mapping) and "key" in value:
        return _render_key(str(value["key"]), value.get("params") or {})  # keeps its cases
    if isinstance(value, list) and (not value or isinstance(value[0], Mapping)):
        return "".join(render(v) for v in value)  # parts of one line, in order
    if not isinstance(value, str):
        return value
    if name in _PIECE_PARAMS and key not in _NOT_PIECES:  # "7H" -> "7 kier" (labels)
        return labels.pieces_words(value, _MATERIAL.get())
    if name in ("variant", "variants"):
        return ", ".join(
            labels.variant_name(v) if v in labels.VARIANT_NAMES else v for v in value.split(", ")
        )
    if name in _FIELD_PARAMS or (name == "name" and key.startswith("field.")):
        return _field_forms(value)
    if name == "choices" and not key.startswith("option."):  # "one of: …" of a field
        return ", ".join(str(_choice_words(c)) for c in value.split(", "))
    if key.startswith("option."):  # option ids and choices as the options form says them
        if name == "name":
            return _option_words(value)
        if name == "value":
            return _choice_words(value)
        if name == "choices":
            return ", ".join(str(_choice_words(c)) for c in value.split(", "))
        if name == "options":
            return ", ".join(_option_words(o) for o in value.split(", "))
        if name in ("preset", "presets"):
            return ", ".join(labels.preset_name(o) for o in value.split(", "))
    return value


def render_key(key: str, params: Mapping[str, Any]) -> str:
    """``key`` with ``params`` in the language in force.

    Raises:
        KeyError: an unknown key or a missing placeholder (never for the engine's answers:
            ``tests/test_messages.py`` renders every recorded one).
    """
    return str(_render_key(key, params))


def _render_key(key: str, params: Mapping[str, Any]) -> str:
    """:func:`render_key`; a meld of the table (``turn.meld``) as :class:`Inflected`."""
    template = MESSAGES[key]
    if _JOKERS.get() is False and key in _NO_JOKER_TEMPLATES:
        template = _NO_JOKER_TEMPLATES[key]
    limit = params.get("max")
    if key in _LIMIT_ZERO_TEMPLATES and limit == 0 and not isinstance(limit, bool):
        template = _LIMIT_ZERO_TEMPLATES[key]
    values = {k: _with_cases(_param(key, k, v)) for k, v in params.items()}
    if isinstance(template, Plural):
        count = values[template.count]
        text = ngettext(template.one, template.other, count if isinstance(count, int) else 2)
    else:
        text = _(template)
    field = values.get("field")
    if key in _HEADED_BY_FIELD and isinstance(field, Inflected):
        # "układ 1 … (R3 R4 R5)" declines as its head noun: "do układu 1 … (R3 R4 R5)"
        forms = {c: text.format_map({**values, "field": getattr(field, c)}) for c in CASES}
        return Inflected(text.format_map(values), forms)
    return text.format_map(values)


_HEADED_BY_FIELD: Final = frozenset({"turn.meld"})
"""Lines whose head noun is their ``field`` (a meld of the table and its pieces): they take
the field's cases, so a template may say ``{meld.gen}``."""


def _with_cases(value: Any) -> Any:
    """Any text param as :class:`Inflected` (its cases default to itself), so a translation's
    ``{x.gen}`` formats whatever the param holds."""
    if isinstance(value, str) and not isinstance(value, Inflected):
        return Inflected(value)
    return value


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
    # a Rummy 101 turn (RULES.md §3)
    "table_rearranged": N_("A table meld was split or rearranged"),
    "joker_wrong_tile": N_("The joker was not replaced by its own tile"),
    "lay_off_onto_pair": N_("Nothing can be laid off onto a pair"),
    "joker_before_opening": N_("A joker was taken back before opening"),
    "lay_off_before_opening": N_("Tiles were laid off before opening"),
    "pairs_opener_run": N_("A pairs opener may not lay runs or groups"),
    "pairs_not_allowed": N_("Pairs only after someone opened with pairs"),
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


def error_text(error: Any, position: int | None = None, variant: str | None = None) -> str:
    """A :class:`rules.errors.RulesError` raised while reading typed pieces, in the player's
    words (its ``line``; the English message when it has none). ``position``: the 1-based
    place of the token in what was typed (the error was raised on that token alone);
    ``variant``: the variant the pieces were typed for (its material and jokers in the
    wording; ``None``: as :func:`material_of_request` in force says)."""
    if variant is not None:
        with material_of_request({"variant": variant}):
            return error_text(error, position)
    ln = getattr(error, "line", None)
    if ln is None:
        return str(getattr(error, "message", error))
    params = dict(ln.to_json()["params"])
    if position is not None and ln.key == "token.bad_at":
        params["position"] = position
    return sentence(render_key(ln.key, params))


def refusal_text(error: Any, variant: str | None = None) -> str:
    """Why a tapped piece was not added, describing what the row holds (not the row with the
    refused piece in it): a :class:`rules.errors.TooManyCopiesError` reads "No more Y1: the
    106-tile set holds only 2, all entered already" (RULES.md §1, copies of a set); any other
    error as :func:`error_text` says it."""
    ln = getattr(error, "line", None)
    if ln is None or ln.key not in ("copies.too_many", "copies.too_many_where"):
        return error_text(error, variant=variant)
    if variant is not None:
        with material_of_request({"variant": variant}):
            return refusal_text(error)
    params = dict(ln.to_json()["params"])
    most = int(params.get("most", 0))
    pset = _param(ln.key, "set", params.get("set"))
    piece = _param(ln.key, "piece", params.get("piece"))
    text = ngettext(
        "No more {piece}: {set} holds only {most}, entered already",
        "No more {piece}: {set} holds only {most}, all entered already",
        most,
    )
    return sentence(text.format(piece=piece, set=pset, most=most))


MATERIAL_HEADLINES: dict[tuple[str, str], str] = {
    ("tiles", "tile_taken_from_table"): N_("A tile left the table"),
    ("cards", "tile_taken_from_table"): N_("A card left the table"),
    ("tiles", "tile_not_on_rack"): N_("A tile played was not on the rack"),
    ("cards", "tile_not_on_rack"): N_("A card played was not in the hand"),
    ("tiles", "run_wraps"): N_("A run does not go on from 13 to 1"),
    ("tiles", "ace_after_king"): N_("1 does not follow 13 here"),
    ("tiles", "run_mixed_colours"): N_("A run keeps one colour"),
    ("cards", "run_mixed_colours"): N_("A run keeps one suit"),
    ("tiles", "group_repeated_colour"): N_("A colour repeats in the group"),
    ("cards", "group_repeated_colour"): N_("A suit repeats in the group"),
}
"""Headlines that name the piece: Tile Rummy's tiles on a rack, Carousel's cards in a hand;
a tile's 1 and 13 (tiles have no ace or king), a tile's colour and a card's suit."""


def headline(reason: str | None, material: str | None = None) -> str:
    """The reason (or error) code as a short title in the language in force (the code,
    spaced, when the code is unknown); ``material`` (``"tiles"``/``"cards"``) picks the
    headline that names the piece where there is one."""
    if not reason:
        return ""
    if material is not None and (material, reason) in MATERIAL_HEADLINES:
        return _(MATERIAL_HEADLINES[(material, reason)])
    if reason in HEADLINES:
        return _(HEADLINES[reason])
    if reason in ERROR_HEADLINES:
        return _(ERROR_HEADLINES[reason])
    return reason.replace("_", " ")


def sentence(text: str) -> str:
    """A rendered line as a sentence: first letter capitalised (no rule reference: the screen
    names the rule-book section itself)."""
    return text[:1].upper() + text[1:] if text else text


def _unkeyed(answer: Mapping[str, Any], english_text: Any) -> str:
    """An answer without a key (stored by an earlier version): the judge's English in
    English, else the headline of its code (never English in another language)."""
    if language() == "en" and isinstance(english_text, str):
        return english_text
    code = answer.get("reason") or answer.get("error")
    return headline(code) if isinstance(code, str) else ""


def verdict_message(answer: Mapping[str, Any], request: Mapping[str, Any] | None = None) -> str:
    """The one-line verdict of a judge answer (valid or not, or an ``ok: false`` answer) in
    the language in force, rendered from its ``key``/``params``.

    Args:
        answer: the judge's answer (JUDGE.md).
        request: the request that got it (unused for keyed answers; kept for the callers).

    Returns:
        One line (empty when there is nothing to say).
    """
    if not answer.get("ok", True):
        return error_message(answer, request)
    with material_of_request(request):
        keyed = answer_line(answer)
    if keyed is not None:
        return sentence(keyed)
    return _unkeyed(answer, answer.get("message", ""))


_ENTERED: Final = ("meld", "melds", "hand", "rack", "tiles", "table_after")
"""Fields whose absence means the player has entered nothing yet."""


def error_message(answer: Mapping[str, Any], request: Mapping[str, Any] | None = None) -> str:
    """An ``ok: false`` answer (the input cannot be judged) in the language in force: what was
    wrong and where, in the player's words."""
    params = answer.get("params")
    if (
        answer.get("error") == "missing_field"
        and isinstance(params, Mapping)
        and params.get("name") in _ENTERED
    ):
        return sentence(_("nothing entered yet"))
    with material_of_request(request):
        keyed = answer_line(answer)
    if keyed is not None:
        return sentence(keyed)
    return _unkeyed(answer, answer.get("message", ""))


def why_line(item: Mapping[str, Any], result: Mapping[str, Any] | None = None) -> str:
    """One player's line of a round's ``breakdown`` (``{name, points, why, key, params…}``)."""
    del result
    keyed = answer_line(item)
    if keyed is not None:
        return sentence(keyed)
    return _unkeyed(item, item.get("why", ""))


def round_message(result: Mapping[str, Any]) -> str:
    """A scored round's verdict line (or, not valid, why it cannot have happened)."""
    return verdict_message(result)


def _keyed_lines(answer: Mapping[str, Any]) -> list[str]:
    """The answer's ``breakdown_lines`` rendered; an answer without them (stored by an older
    version): its English ``breakdown`` in English, nothing in another language."""
    raw = answer.get("breakdown_lines")
    if isinstance(raw, list):
        return [render(ln) for ln in raw if isinstance(ln, Mapping)]
    if language() != "en":
        return []
    own = answer.get("breakdown")
    return [b for b in own if isinstance(b, str)] if isinstance(own, list) else []


def gin_lines(result: Mapping[str, Any]) -> list[str]:
    """The arithmetic of a gin round (knock, lay-offs, undercut, gin) line by line."""
    return _keyed_lines(result)


def game_message(answer: Mapping[str, Any], variant: str | None = None) -> str:
    """The ``game`` answer's line (running, over and why) in the language in force."""
    del variant
    return verdict_message(answer)


def game_lines(
    answer: Mapping[str, Any],
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> list[str]:
    """Gin's game-end lines (the winner, game bonus, box bonuses, shutout)."""
    del variant, options
    return _keyed_lines(answer)


__all__ = [
    "ERRORS",
    "ERROR_HEADLINES",
    "FIELD_WORDS",
    "HEADLINES",
    "REASONS",
    "answer_line",
    "error_message",
    "field_words",
    "game_lines",
    "game_message",
    "gin_lines",
    "headline",
    "render",
    "render_key",
    "round_message",
    "sentence",
    "verdict_message",
    "why_line",
]
