"""Cards named in sentences, the pieces of the turn screen, and the cases of field names
(helper "words", session 6).

A card code (``7H``, ``10S``, ``QC``) is the notation a player types; inside a Polish or Slovak
sentence it reads as the rank printed on the card and the keys (A 2–10 J Q K) and the suit in
the language's words ("7 kier", "Q pik"; :func:`app.ui.common.labels.pieces_words`), the same
way in every engine line and every line of the round breakdown. English keeps the notation
(the suit letters are English initials). Tiles keep their notation (``R5 B7 JK``).
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from typing import Any

import flet as ft
import pytest

from app import verdict_render
from app.games.variants import about
from app.i18n import _, use_language
from app.ui.common import labels
from app.ui.entry import breakdown
from app.ui.entry.round_entry import entry_summary
from app.ui.referee import checkers
from app.ui.referee.checkers import TurnChecker
from app.ui.shell import App
from rules import judge
from rules.messages import MESSAGES, Plural
from rules.variant import meld_rules
from tests import conftest

RAW_CARD = re.compile(r"(?<![\w„“”\"'])(?:10|[2-9AJQKT])[SHDC](?!\w)")
"""A card code as the engine writes it (``7H``, ``10S``, ``QC``), standing alone."""


def raw_codes(text: str) -> list[str]:
    return RAW_CARD.findall(text)


# -- the helper ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "code", "want"),
    [
        ("pl", "7H", "7\u00a0kier"),
        ("pl", "10S", "10\u00a0pik"),
        ("pl", "QC", "Q\u00a0trefl"),
        ("pl", "AD", "A\u00a0karo"),
        ("pl", "JK", "joker"),
        ("sk", "7H", "7\u00a0srdce"),
        ("sk", "KS", "K\u00a0pik"),
        ("sk", "AD", "A\u00a0káro"),
        ("sk", "10C", "10\u00a0tref"),
        ("sk", "JK", "žolík"),
        ("en", "7H", "7H"),
        ("en", "QC", "QC"),
        ("en", "JK", "JK"),
        ("pl", "R7", "R7"),  # a tile: its notation
        ("pl", "?7", "?7"),  # an open joker: not a card code
    ],
)
def test_a_card_reads_in_the_language(lang: str, code: str, want: str) -> None:
    with use_language(lang):
        assert labels.card_words(code) == want


def test_pieces_in_a_sentence() -> None:
    with use_language("pl"):
        assert labels.pieces_words("7H 8H JK") == "7\u00a0kier, 8\u00a0kier, joker"
        assert labels.pieces_words(["AS", "2S", "3S"]) == "A\u00a0pik, 2\u00a0pik, 3\u00a0pik"
        assert labels.pieces_words("7H, 7D") == "7\u00a0kier, 7\u00a0karo"
        assert labels.pieces_words("JK", "cards") == "joker"
        assert labels.pieces_words("JK") == "JK"  # a tile joker (nothing says cards)
        assert labels.pieces_words("R4 R5 JK") == "R4 R5 JK"  # tiles keep the notation
        assert labels.pieces_words("R4, B4") == "R4, B4"
        assert labels.pieces_words("Ala") == "Ala"
    with use_language("sk"):
        assert labels.pieces_words("10S JS QS JK") == "10\u00a0pik, J\u00a0pik, Q\u00a0pik, žolík"
    with use_language("en"):
        assert labels.pieces_words("7H 8H JK") == "7H 8H JK"
        assert labels.pieces_words(["AS", "2S"]) == "AS 2S"


# -- every engine template ----------------------------------------------------------------------
CARD_VALUES: dict[str, Any] = {
    "piece": "QC",
    "tile": "10S",
    "card": "7H",
    "joker": "KD",
    "tiles": "10S JS QS JK",
    "first": "7H, 7D",
    "last": "7S",
}
"""Card params of the engine's templates (``tile``/``tiles`` hold cards in Carousel too)."""


def _meld(field: str) -> dict[str, Any]:
    return {"key": "turn.meld", "params": {"field": field, "tiles": "7H 8H JK"}}


def card_params(key: str) -> dict[str, Any]:
    """Params for every placeholder of ``key``, with cards wherever the engine puts pieces."""
    template = MESSAGES[key]
    texts = [template.one, template.other] if isinstance(template, Plural) else [template]
    names = {n for t in texts for _lit, n, _spec, _conv in string.Formatter().parse(t) if n}
    if isinstance(template, Plural):
        names.add(template.count)
    out: dict[str, Any] = {}
    for n in names:
        if n == "meld" and key == "gin.lays_off":
            out[n] = "4H 5H 6H"
        elif n in ("before", "after", "meld"):
            out[n] = _meld("table_before[0]" if n != "after" else "table_after[1]")
        elif n == "joker" and key == "gin.solo_joker_name":
            out[n] = "Joker"
        elif n in CARD_VALUES:
            out[n] = CARD_VALUES[n]
        elif n in ("field", "table", "sub"):
            out[n] = "players[1].hand"
        elif n in ("variant", "variants"):
            out[n] = "carousel"
        else:
            out[n] = 3
    return out


def test_the_params_cover_every_template() -> None:
    with_cards = [k for k in MESSAGES if set(card_params(k)) & {*CARD_VALUES, "before", "meld"}]
    assert len(with_cards) > 40
    assert "gin.lays_off" in with_cards and "turn.left_table.cards" in with_cards


@pytest.mark.parametrize("lang", ["pl", "sk"])
@pytest.mark.parametrize("material", [None, "cards"])
def test_no_engine_line_shows_a_card_code(lang: str, material: str | None) -> None:
    """Every template, with cards in every piece param (a round breakdown renders without
    knowing the variant, a checker's verdict knows it): no raw code left."""
    request = {"variant": "carousel"} if material else None
    bad = {}
    with use_language(lang), verdict_render.material_of_request(request):
        for key in MESSAGES:
            template = MESSAGES[key]
            own = _(template.one if isinstance(template, Plural) else template)
            text = verdict_render.render_key(key, card_params(key))
            left = [c for c in raw_codes(text) if c not in raw_codes(own)]
            if left:
                bad[key] = text
    assert bad == {}


def test_english_keeps_the_notation() -> None:
    with use_language("en"):
        text = verdict_render.render_key("gin.lays_off", card_params("gin.lays_off"))
    assert text == "3 lays off 7H onto 4H 5H 6H."


def test_a_joker_fault_names_the_cards_of_the_melds() -> None:
    params = {"before": _meld("table_before[0]"), "joker": "9H", "after": _meld("table_after[1]")}
    line = {"key": "joker.moved_away", "params": params}
    with use_language("pl"):
        text = verdict_render.render(line)
    assert "9\u00a0kier" in text and "7\u00a0kier, 8\u00a0kier, joker" in text
    assert raw_codes(text) == []


# -- real answers and the breakdown ------------------------------------------------------------
GIN_ROUND: dict[str, Any] = {
    "check": "round",
    "variant": "gin",
    "knocker": "Ala",
    "players": [
        {"name": "Ala", "hand": ["AS", "2S", "3S", "4H", "5H", "6H", "7C", "8C", "9C", "2D"]},
        {"name": "Ola", "hand": ["AD", "3D", "4D", "QS", "QH", "QC", "5C", "6S", "KH", "7H"]},
    ],
}
CAROUSEL_ROUND: dict[str, Any] = {
    "check": "round",
    "variant": "carousel",
    "knocker": "Ala",
    "players": [
        {"name": "Ala", "hand": ["AS", "2S"]},
        {"name": "Ola", "hand": ["KD", "QD", "5C"]},
        {"name": "Ewa", "hand": ["AH"]},
    ],
}


def walk_texts(c: Any) -> Iterator[str]:
    for x in conftest.walk(c, True):
        if isinstance(x, ft.Text) and isinstance(x.value, str):
            yield x.value
        if isinstance(x, ft.Semantics) and x.label:
            yield x.label


@pytest.mark.parametrize("lang", ["pl", "sk"])
@pytest.mark.parametrize("request_", [GIN_ROUND, CAROUSEL_ROUND], ids=["gin", "carousel"])
def test_the_round_breakdown_names_cards(lang: str, request_: dict[str, Any]) -> None:
    answer = judge.answer(request_)
    assert answer["valid"], answer
    names = [p["name"] for p in request_["players"]]
    with use_language(lang):
        panel = breakdown.breakdown_panel(answer, names)
        shown = "\n".join(walk_texts(panel))
        lines = verdict_render.gin_lines(answer) + [
            verdict_render.why_line(b, answer) for b in answer["breakdown"] if isinstance(b, dict)
        ]
    assert raw_codes(shown) == [], shown
    assert raw_codes("\n".join(lines)) == []
    if request_ is GIN_ROUND:
        word = "kier" if lang == "pl" else "srdce"
        assert f"7\u00a0{word}" in shown  # Ola lays off the 7 of hearts
        assert ("Martwe karty" if lang == "pl" else "Mŕtve karty") in shown


def test_the_english_breakdown_is_unchanged() -> None:
    answer = judge.answer(GIN_ROUND)
    with use_language("en"):
        shown = "\n".join(walk_texts(breakdown.breakdown_panel(answer, ["Ala", "Ola"])))
    assert "Ola lays off 7H onto 4H 5H 6H" in shown
    assert "Deadwood cards: 2D" in shown


def test_a_reordered_card_run_names_its_cards() -> None:
    answer = judge.answer({"check": "meld", "variant": "carousel", "meld": "9H JK 7H"})
    assert answer["valid"] and answer["kind"] == "run", answer
    with use_language("pl"):
        text = checkers.reordered_text(answer, ["9H", "JK", "7H"], "cards")
    assert raw_codes(text) == [] and "9\u00a0kier" in text, text


# -- the turn screen says tiles or cards, as the variant plays -----------------------------------
TURN_VARIANTS = ("rummy101", "tile_rummy", "my_rummy", "carousel")


@pytest.mark.parametrize("lang", ["pl", "sk"])
@pytest.mark.parametrize("variant", TURN_VARIANTS)
def test_the_turn_screen_names_the_variants_pieces(app: App, lang: str, variant: str) -> None:
    with use_language(lang):
        screen = TurnChecker(app, variant=variant)
        shown = "\n".join(conftest.visible_texts(screen.body)).lower()
    both = {"pl": ("płytki lub karty", "płytek lub kart"), "sk": ("kameň alebo kart",)}[lang]
    assert not any(b in shown for b in both), shown
    cards = meld_rules(variant).material == "cards"  # what the variant says it plays with
    if lang == "pl":
        assert ("dotknij karty" in shown) is cards
        assert ("dotknij płytki" in shown) is not cards
    else:
        assert ("ťuknite na kartu" in shown) is cards
        assert ("ťuknite na kameň" in shown) is not cards


# -- a field after "dotyczy" / "týka sa" is in the genitive ------------------------------------
PIECE_FIELDS = (
    "meld",
    "hand",
    "rack",
    "tiles",
    "taken_discard",
    "table_after.heap",
    "melds[0]",
    "table_before[0]",
    "table_after[2]",
    "players[1].hand",
    "declare[0]",
)
"""Fields the engine reads pieces from (a token error or a copy limit names them)."""


@pytest.mark.parametrize("lang", ["pl", "sk"])
@pytest.mark.parametrize("variant", ["rummy101", "gin", None])
def test_every_piece_field_has_its_genitive(lang: str, variant: str | None) -> None:
    request = {"variant": variant} if variant else None
    with use_language(lang), verdict_render.material_of_request(request):
        for field in PIECE_FIELDS:
            words = verdict_render._field_forms(field)
            gen = getattr(words, "gen", str(words))
            assert gen != str(words), (field, gen)
            why = {"key": "token.unknown_colour", "params": {"letter": "X"}}
            text = verdict_render.render_key("token.in_field", {"why": why, "field": field})
            assert gen in text and ":" not in text.split("(")[-1], text


@pytest.mark.parametrize(
    ("lang", "request_", "want"),
    [
        ("sk", {"check": "meld", "variant": "tile_rummy", "meld": "R1 X7"}, "(týka sa zostavy)"),
        ("pl", {"check": "meld", "variant": "tile_rummy", "meld": "R1 X7"}, "(dotyczy układu)"),
        (
            "sk",
            {
                "check": "turn",
                "variant": "tile_rummy",
                "rack": "R1 R2",
                "table_before": [["R1", "X2", "R3"]],
                "table_after": [["R1", "R2", "R3"]],
            },
            "(týka sa zostavy 1 zo stola pred ťahom)",
        ),
        (
            "sk",
            {
                "check": "round",
                "variant": "carousel",
                "knocker": "A",
                "players": [{"name": "A", "hand": ["ZZ"]}, {"name": "B", "hand": ["5H"]}],
            },
            "(týka sa ruky hráča 1)",
        ),
        ("sk", {"check": "hand", "variant": "gin", "hand": "AS 2S 1H"}, None),
        (
            "sk",
            {"check": "meld", "variant": "carousel", "meld": "7H 7H 7H 7H 7H"},
            "5 × 7\u00a0srdce (týka sa zostavy)",
        ),
        ("pl", {"check": "opening", "variant": "rummy101", "melds": [["R1", "Q7"]]}, None),
    ],
)
def test_token_errors_decline_the_field(
    lang: str, request_: dict[str, Any], want: str | None
) -> None:
    answer = judge.answer(request_)
    with use_language(lang):
        text = verdict_render.verdict_message(answer, request_)
    assert "týka sa:" not in text and "dotyczy:" not in text, text
    assert raw_codes(text) == [], text
    if want is not None:
        assert want in text, text


def test_the_checkers_jokers_read_as_the_engines_lines() -> None:
    """The meld checker's own joker line names a card as the engine's lines beside it do;
    English keeps its spoken names (its sentences write the notation)."""
    answer = judge.answer({"check": "meld", "variant": "carousel", "meld": "10S JK QS"})
    assert answer["valid"] and answer["jokers"] == ["JS"], answer
    with use_language("pl"):
        assert (
            checkers.jokers_line(answer["tiles"], answer["jokers"], "cards") == "Joker = J\u00a0pik"
        )
    with use_language("sk"):
        assert (
            checkers.jokers_line(answer["tiles"], answer["jokers"], "cards") == "Žolík = J\u00a0pik"
        )
    with use_language("en"):
        assert checkers.jokers_line(answer["tiles"], answer["jokers"], "cards") == (
            "Joker = jack of spades"
        )
    with use_language("pl"):  # tiles: their spoken names, as before
        assert checkers.jokers_line(["R5", "JK"], ["R6"], "tiles") == "Joker = czerwony 6"


def test_a_saved_rounds_summary_names_the_hands() -> None:
    carousel = {"knocker": "Ala", "players": [{"name": "Ala", "hand": ["AS", "2S"]}]}
    tiles = {"players": [{"name": "Ola", "winner": True, "hand": []}]}
    with use_language("pl"):
        assert entry_summary(carousel, "cards") == ["Stuka: Ala", "Ala: A\u00a0pik, 2\u00a0pik"]
        assert entry_summary(tiles, "tiles")[-1] == "Ola: kończy rundę, pusty stojak"
    with use_language("en"):
        assert entry_summary(carousel, "cards")[-1] == "Ala: AS 2S"


# -- a card's name never breaks between its rank and its suit (helper "words", round 2) ------
@pytest.mark.parametrize("lang", ["pl", "sk"])
def test_rank_and_suit_are_joined_by_a_no_break_space(lang: str) -> None:
    """ "9 / trefl" split across two lines of a narrow screen: the rank and the suit word are
    one name, joined by U+00A0 (NO-BREAK SPACE), in every sentence that names cards."""
    with use_language(lang):
        assert labels.card_words("9C") == "9\u00a0" + _("clubs")
        assert " " not in labels.card_words("10H")
        text = labels.pieces_words("QS KS AS")
    assert text.count("\u00a0") == 3, text
    assert all(" " not in name for name in text.split(", ")), text


# -- bad cards: "na 2. miejscu", and jokers only where the variant has them -------------------
def _bad_card_line(variant: str, lang: str) -> str:
    request = {"check": "meld", "variant": variant, "meld": "QS 1X KS"}
    answer = judge.answer(request)
    assert not answer["ok"], answer
    with use_language(lang):
        return verdict_render.verdict_message(answer, request)


@pytest.mark.parametrize(
    ("lang", "place", "joker"),
    [("pl", "„1X” na 2. miejscu", "JK (joker)"), ("sk", "„1X“ na 2. mieste", "JK (žolík)")],
)
def test_a_bad_card_names_its_place_and_jokers_only_where_played(
    lang: str, place: str, joker: str
) -> None:
    gin = _bad_card_line("gin", lang)
    carousel = _bad_card_line("carousel", lang)
    for text in (gin, carousel):
        assert text.startswith(place), text
        assert "miejsce 2" not in text and "miesto 2" not in text, text
    assert about("gin").rules.meld_rules.jokers is False  # what the wording asks
    assert joker not in gin and "joker" not in gin.lower() and "žolík" not in gin, gin
    assert joker in carousel, carousel
    with use_language("en"):
        english = _bad_card_line("gin", "en")
    assert "JK" not in english, english


@pytest.mark.parametrize("variant", ["gin", "carousel"])
def test_a_typed_bad_card_asks_the_variant_for_jokers(variant: str) -> None:
    """The keyboard's own message (a token read alone, its place given): with the variant
    passed, gin's says no joker, Carousel's does."""
    from rules.errors import RulesError
    from rules.notation import parse_pieces

    jokers = about(variant).rules.meld_rules.jokers
    with pytest.raises(RulesError) as caught:
        parse_pieces(["1X"], "cards", jokers_allowed=jokers)
    with use_language("pl"):
        text = verdict_render.error_text(caught.value, position=2, variant=variant)
    assert text.startswith("„1X” na 2. miejscu"), text
    assert ("JK (joker)" in text) is jokers, text
