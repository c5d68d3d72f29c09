"""Names people read for variants, presets, options and choices, and the pieces a sentence
names (:func:`pieces_words`), all through :mod:`app.i18n`.

The option names themselves (``knock_max`` …) are those of RULES.md and ``rules.options``;
an option this table does not know yet is still shown, under its own name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from app.games.variants import VARIANT_KEYS, about, is_variant
from app.i18n import N_, _, ngettext, pgettext

DISPLAY_NAMES: tuple[str, ...] = (
    N_("Rummy 101"),
    N_("Tile Rummy"),
    N_("My Rummy"),
    N_("Gin Rummy"),
    N_("Carousel rummy"),
)
"""The variants' names (:attr:`rules.variant.Variant.display_name`), for the translators."""
VARIANT_NAMES: dict[str, str] = {k: about(k).display_name for k in VARIANT_KEYS}
"""variant -> its English name (from the variant's description; translated by
:func:`variant_name`)."""

VARIANT_BLURBS: dict[str, str] = {
    "rummy101": N_("Tiles, 2–4 players, open with 101 or 5 pairs"),
    "tile_rummy": N_("Rummikub family, 2–4 players, initial meld 30"),
    "my_rummy": N_("Rummikub family with its own joker rule and timer"),
    "gin": N_("Cards, 2 players, knock and gin, game to 100"),
    "carousel": N_("Cards, 2–5 players, knock at 5, game to 150"),
}

PRESET_NAMES: dict[str, str] = {
    "standard": N_("Standard"),
    "rising": N_("Rising threshold"),
    "rummikub": N_("Rummikub"),
    "rrrummy": N_("RRRummy"),
    "tiles50": N_("Tiles 50"),
    "dutch": N_("Dutch"),
    "easy": N_("Easy (free jokers)"),
    "my_rummy": N_("My Rummy"),
    "seed": N_("Original (default)"),
    "modern": N_("Modern"),
    "classic": N_("Classic"),
}

OPTION_LABELS: dict[str, tuple[str, str]] = {
    # name: (label, one-line explanation)
    "threshold": (N_("Points to open by melds"), N_("Runs and groups in one turn")),
    "pairs_needed": (N_("Pairs to open by pairs"), N_("No point minimum")),
    "threshold_mode": (
        N_("Opening threshold"),
        N_("Rising: each later opening must beat the highest so far"),
    ),
    "initial_meld": (N_("Initial meld (points)"), N_("Own tiles only, one turn")),
    "joker_rule": (N_("Joker rule"), N_("When a joker may leave a meld")),
    "manipulate_on_initial_turn": (
        N_("Rearrange in the initial-meld turn"),
        N_("Off in the official rules"),
    ),
    "turn_time": (N_("Turn timer (seconds)"), N_("20–120 s; off by default in Tile Rummy")),
    "joker_penalty": (N_("Joker left on a rack costs"), N_("Points")),
    "winner_collects": (
        N_("Winner collects the losers' points"),
        N_("On for Tile Rummy, off for My Rummy"),
    ),
    "target": (N_("Target score"), N_("The game ends when someone reaches it")),
    "games": (N_("Number of rounds agreed"), N_("The game ends after this many rounds")),
    "knock_max": (N_("Knock with at most (points)"), N_("Deadwood or hand value")),
    "undercut_on_tie": (N_("A tie undercuts the knocker"), N_("Equal deadwood")),
    "undercut_bonus": (N_("Undercut bonus"), N_("Points")),
    "gin_bonus": (N_("Gin bonus"), N_("Plus the defender's deadwood")),
    "big_gin_bonus": (N_("Big gin bonus"), N_("All 11 cards melded; off where not played")),
    "box_bonus": (N_("Box bonus per round won"), N_("Added at the end of the game")),
    "game_bonus": (N_("Game bonus"), N_("For reaching the target")),
    "shutout": (N_("Shutout"), N_("Only one player won any round")),
    "shutout_bonus": (N_("Shutout bonus"), N_("Points, where shutout is a bonus")),
    "layoffs": (N_("Defender may lay off"), N_("Onto the knocker's melds")),
    "mode": (N_("Mode"), N_("Solo: play against the joker")),
    "joker_value": (N_("Joker in hand counts"), N_("Points")),
    "going_out_bonus": (N_("Going-out bonus"), N_("No cards left")),
    "round_bonus": (N_("Bonus per round won"), N_("At the end of the game")),
    "round_bonus_all": (
        N_("Round bonus for every player"),
        N_("The original rules give it only to players who did not reach the target"),
    ),
}

OPTION_SENTENCES: dict[str, Callable[[int], str]] = {
    # name: the sentence saying the value in force, for that value
    "threshold": lambda n: ngettext(
        "This game opens at {n} point.", "This game opens at {n} points.", n
    ),
    "pairs_needed": lambda n: ngettext(
        "Opening by pairs needs {n} pair in this game.",
        "Opening by pairs needs {n} pairs in this game.",
        n,
    ),
    "initial_meld": lambda n: ngettext(
        "The initial meld needs {n} point in this game.",
        "The initial meld needs {n} points in this game.",
        n,
    ),
    "knock_max": lambda n: (
        _("In this game you may knock only with 0 points left to count.")
        if n == 0
        else ngettext(
            "In this game you may knock with at most {n} point of deadwood.",
            "In this game you may knock with at most {n} points of deadwood.",
            n,
        )
    ),
    "undercut_bonus": lambda n: ngettext(
        "The undercut bonus is {n} point in this game.",
        "The undercut bonus is {n} points in this game.",
        n,
    ),
    "gin_bonus": lambda n: ngettext(
        "The gin bonus is {n} point in this game.", "The gin bonus is {n} points in this game.", n
    ),
    "big_gin_bonus": lambda n: ngettext(
        "The big gin bonus is {n} point in this game.",
        "The big gin bonus is {n} points in this game.",
        n,
    ),
    "box_bonus": lambda n: ngettext(
        "Each round won brings {n} bonus point in this game.",
        "Each round won brings {n} bonus points in this game.",
        n,
    ),
    "round_bonus": lambda n: ngettext(
        "Each round won brings {n} bonus point in this game.",
        "Each round won brings {n} bonus points in this game.",
        n,
    ),
    "game_bonus": lambda n: ngettext(
        "Reaching the target brings {n} bonus point in this game.",
        "Reaching the target brings {n} bonus points in this game.",
        n,
    ),
    "shutout_bonus": lambda n: ngettext(
        "The shutout bonus is {n} point in this game.",
        "The shutout bonus is {n} points in this game.",
        n,
    ),
    "going_out_bonus": lambda n: ngettext(
        "Going out brings {n} bonus point in this game.",
        "Going out brings {n} bonus points in this game.",
        n,
    ),
    "target": lambda n: ngettext(
        "This game is played to {n} point.", "This game is played to {n} points.", n
    ),
    "games": lambda n: ngettext("This game lasts {n} round.", "This game lasts {n} rounds.", n),
    "joker_penalty": lambda n: ngettext(
        "A joker left on a rack costs {n} point in this game.",
        "A joker left on a rack costs {n} points in this game.",
        n,
    ),
    "joker_value": lambda n: ngettext(
        "A joker left in the hand counts {n} point in this game.",
        "A joker left in the hand counts {n} points in this game.",
        n,
    ),
    "turn_time": lambda n: ngettext(
        "A turn lasts {n} second in this game.", "A turn lasts {n} seconds in this game.", n
    ),
}
"""A sentence for the value in force of each numeric option (the rule book's "In force" line:
"This game opens at 101 points." rather than "now: Points to open by melds: 101")."""

CHOICE_NAMES: dict[str, str] = {
    "fixed": N_("Fixed"),
    "rising": N_("Rising"),
    "free": N_("0 · Free: jokers move like any tile"),
    "match": N_("1 · Replaced only by the tile it represents"),
    "match_from_rack": N_("2 · … with a tile from the rack"),
    "no_split_with_joker": N_("3 · … and no tile taken from a meld with a joker"),
    "freed_joker_new_meld": N_("4 · … and a freed joker only into a new meld"),
    "my_rummy": N_("My Rummy's joker rule"),
    "bonus": N_("Bonus"),
    "double": N_("Double the total"),
    "none": N_("None"),
    "duel": N_("Two players"),
    "solo": N_("Solo"),
}

JOKER_LEVEL_NAMES: dict[str, str] = {
    "free": N_("level 0 (free)"),
    "match": N_("level 1 (match)"),
    "match_from_rack": N_("level 2 (match from the rack)"),
    "no_split_with_joker": N_("level 3 (no split with a joker)"),
    "freed_joker_new_meld": N_("level 4 (freed joker into a new meld)"),
}
"""Tile Rummy's joker levels as whole short phrases, the rule book's names of its levels
(RULES.md §4; no comma inside, so a list of them stays a list), for a line outside the options
list: the list's "2 · … with a tile from the rack" goes on from the line above it and reads as
a fragment anywhere else."""

FINISH_NAMES: dict[str, str] = {
    "normal": N_("Normal"),
    "joker": N_("Discarding a joker"),
    "one_turn": N_("In one turn"),
    "one_turn_joker": N_("In one turn, with a joker"),
    "stock_out": N_("Stock ran out"),
}

OPENED_NAMES: dict[str, str] = {
    "none": N_("Not opened"),
    "melds": N_("Melds"),
    "pairs": N_("Pairs"),
}


def variant_name(variant: str) -> str:
    """The variant's name in the language in force (an unknown name as it is)."""
    return _(about(variant).display_name) if is_variant(variant) else variant


def variant_blurb(variant: str) -> str:
    """One line on the variant for the new-game form, in the language in force."""
    blurb = VARIANT_BLURBS.get(variant)
    return _(blurb) if blurb else ""


def preset_name(preset: str) -> str:
    """A preset's name in the language in force."""
    return _(PRESET_NAMES.get(preset, preset))


def gin_only(variant: str, knock_max: object) -> bool:
    """Whether ``knock_max`` 0 leaves only gin to go down in ``variant`` (a house option of gin:
    a knock needs deadwood 0, which is gin; RULES.md §5). Carousel counts a hand's value
    with its jokers instead, where 0 is "a hand worth 0" (:func:`knock_limit_note`)."""
    if knock_max != 0 or isinstance(knock_max, bool) or not is_variant(variant):
        return False
    rules = about(variant).rules
    return rules.has_option("knock_max") and not rules.meld_rules.jokers


def knock_limit_note(variant: str, knock_max: object) -> str | None:
    """What a knock limit of 0 means, for the new-game form under the field (None for any
    other limit: the field's label says it). Gin: only gin goes down; Carousel: a knock needs
    a hand worth 0."""
    if knock_max != 0 or isinstance(knock_max, bool) or not is_variant(variant):
        return None
    if not about(variant).rules.has_option("knock_max"):
        return None
    if gin_only(variant, knock_max):
        return _("0: only gin goes down; nobody may knock with deadwood.")
    return _("0: a knock needs a hand worth 0.")


def knock_limit_words(variant: str, knock_max: int) -> str:
    """The knock limit as a summary names it: "knock at 9 or less"; 0 (a house option: only a
    hand with nothing to count goes down) reads "gin only, no knocking" in gin and "knock only
    with a hand worth 0" in Carousel (RULES.md §5, §6)."""
    if knock_max == 0:
        if gin_only(variant, knock_max):
            return _("gin only, no knocking")
        return _("knock only with a hand worth 0")
    return _("knock at {n} or less").format(n=knock_max)


def changed_option(variant: str, name: str, value: object) -> str:
    """An option set away from its preset, as a game's rules line names it: "Gin bonus: 20",
    "A tie undercuts the knocker: on", "Joker rule: level 2 (match from the rack)"; the knock
    limit 0 in words ("gin only, no knocking": a bare 0 reads as no limit at all)."""
    if name == "knock_max" and value == 0 and not isinstance(value, bool):
        return knock_limit_words(variant, 0)
    if value is None or isinstance(value, bool):
        shown = _("on") if value else _("off")
    elif isinstance(value, str):
        shown = choice_phrase(value)
    else:
        shown = str(value)
    return _("{option}: {value}").format(option=option_label(name)[0], value=shown)


def option_label(name: str) -> tuple[str, str]:
    """``(label, explanation)`` of an option, translated; unknown options show their name."""
    label, note = OPTION_LABELS.get(name, (name, ""))
    return _(label), (_(note) if note else "")


def option_sentence(name: str, value: object) -> str | None:
    """The value of a numeric option as a sentence in the language in force ("This game
    opens at 101 points."), or None when the option has none (or the value is not a number)."""
    say = OPTION_SENTENCES.get(name)
    if say is None or isinstance(value, bool) or not isinstance(value, int):
        return None
    return say(value).format(n=value)


def choice_name(value: str) -> str:
    """Name of an option choice, as the options list shows it (a joker level may go on from
    the level above it: "2 · … with a tile from the rack")."""
    return _(CHOICE_NAMES.get(value, value))


def choice_phrase(value: str) -> str:
    """An option choice named on its own, outside the options list: a Tile Rummy joker level
    by its rule-book name ("level 2 (match from the rack)"), any other choice as
    :func:`choice_name` names it."""
    if value in JOKER_LEVEL_NAMES:
        return _(JOKER_LEVEL_NAMES[value])
    return choice_name(value)


# -- pieces named inside a sentence ------------------------------------------------------------
_CARD_CODE = re.compile(r"^(A|[2-9]|10|J|Q|K)([SHDC])$")
"""A canonical card code (RULES.md §1): rank and suit letter. Tile codes end with a number
(``R13``), card codes with a suit letter, so the two never mix up (``JK`` is both's joker)."""


def _suit_word(letter: str) -> str:
    """The suit as a sentence names it after the rank (English: its letter, Polish "kier")."""
    if letter == "S":
        return pgettext("suit in a sentence", "S")
    if letter == "H":
        return pgettext("suit in a sentence", "H")
    if letter == "D":
        return pgettext("suit in a sentence", "D")
    return pgettext("suit in a sentence", "C")


def card_words(code: str) -> str:
    """One card as every sentence of the app names it, in the language in force: the rank as
    the card and the keys print it (A 2–10 J Q K) and the suit in the language's words, since
    the app's font has no suit symbols (English keeps the notation, ``7H`` = 7 of hearts;
    Polish "7 kier", "Q pik"; Slovak "7 srdce"); the joker as the language calls it. A rank
    letter stays a symbol, so the name needs no grammatical case ("dokłada Q pik do …").
    Polish and Slovak join the rank and the suit with a no-break space (U+00A0, in the
    translation), so a name never breaks over two lines ("9 / trefl").
    Anything else (a tile, an open joker ``?7``, a typo) is returned as it is."""
    c = code.strip().upper()
    if c == "JK":
        return pgettext("card in a sentence", "JK")
    m = _CARD_CODE.match(c)
    if m is None:
        return code
    rank, letter = m.groups()
    return pgettext("card in a sentence", "{rank}{suit}").format(rank=rank, suit=_suit_word(letter))


def is_card_code(code: str) -> bool:
    """``code`` is a canonical card (``7H``, ``10S``, ``QC``; not the joker)."""
    return _CARD_CODE.match(code.strip().upper()) is not None


def pieces_words(pieces: str | Sequence[str], material: str | None = None) -> str:
    """Pieces as a sentence names them: cards by :func:`card_words` (Polish "7 kier, 8 kier,
    joker"), tiles in their notation (``R4 R5 JK``: the colour letters are the ones the tile
    fields are typed with, and a tile face shows only its coloured number).

    Args:
        pieces: codes as a list, or as one text (``"7H 8H JK"``; a comma list ``"7H, 7D"``
            keeps its commas).
        material: ``"tiles"`` or ``"cards"``; ``None``: cards when any code is a card.

    Returns:
        The text for the sentence; a text that is not all piece codes comes back unchanged.
    """
    if isinstance(pieces, str):
        if "," in pieces:
            return ", ".join(pieces_words(p.strip(), material) for p in pieces.split(","))
        tokens = pieces.split()
    else:
        tokens = [str(p) for p in pieces]
    cards = material == "cards" or (material is None and any(is_card_code(t) for t in tokens))
    if not tokens or not cards or not all(t.upper() == "JK" or is_card_code(t) for t in tokens):
        return pieces if isinstance(pieces, str) else " ".join(tokens)
    out = card_words(tokens[0])
    for t in tokens[1:]:
        out = pgettext("cards in a sentence", "{cards} {card}").format(
            cards=out, card=card_words(t)
        )
    return out
