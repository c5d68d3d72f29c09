"""Polish and Slovak words a fresh tester found reading wrong (session 7): presets named by
the new-game form's names in the rule books, the Polish gin term for "undercut", tiles named
by their numbers (no ace or king), a joker level as a whole phrase in a header, a finished
game in the past tense, one word for the preset line, "My Rummy" as the name, one verb for a
tap, and the photo and checker lines read as a native speaker reads them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from app import rulebook as rb
from app import verdict_render
from app.i18n import _, ngettext, use_language
from app.ui.common import labels
from app.ui.referee.checkers import joker_rule_name, reason_text
from rules import judge
from tests.test_card_names import CAROUSEL_ROUND

ROOT = Path(__file__).resolve().parents[1]
PRESET_IDS = {
    *("standard", "rising", "rummikub", "rrrummy", "tiles50", "dutch", "easy", "seed"),
    *("modern", "classic", "fixed", "free", "match", "duel"),
}
"""Preset and choice ids a player never reads (option ids have an underscore: caught apart)."""


def book_text(variant: str, lang: str) -> str:
    """The book as a player reads it: the option marks and section ids taken out, the front
    matter (``source: …``, read by no player) left out."""
    text = rb.content_path(variant, lang).read_text(encoding="utf-8")
    body = text.split("\n---\n", 1)[-1] if text.startswith("---") else text
    return re.sub(r"\[option:[^\]]*\]|\{#[^}]*\}", "", body)


def msgstrs(lang: str) -> list[tuple[str, str]]:
    """Every (msgid, msgstr) of the language's catalogue, plural forms one by one."""
    path = ROOT / "app" / "locale" / lang / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    out = []
    for m in catalog:
        if not m.id:
            continue
        mid = m.id if isinstance(m.id, str) else m.id[0]
        for s in [m.string] if isinstance(m.string, str) else list(m.string):
            out.append((mid, s))
    return out


# -- 1. the rule books name the presets as the new-game form does ----------------------------
@pytest.mark.parametrize(("variant", "lang"), [(v, lg) for v in rb.VARIANTS for lg in ("pl", "sk")])
def test_books_show_no_preset_or_option_ids(variant: str, lang: str) -> None:
    """Tester: "súbory pravidiel modern a classic", „modern” / „classic”, "tiles50 (50, …)",
    "(target, game_bonus)": ids the player never sees anywhere else."""
    text = book_text(variant, lang)
    words = set(re.findall(r"[^\W\d]\w*", text))
    assert not words & PRESET_IDS, (variant, lang, words & PRESET_IDS)
    assert not re.findall(r"\b[a-z]+_[a-z_]+\b", text), (variant, lang)


@pytest.mark.parametrize("lang", ["pl", "sk"])
@pytest.mark.parametrize("variant", ["gin", "tile_rummy"])
def test_books_use_the_forms_preset_names(variant: str, lang: str) -> None:
    """Sk "Moderné / Klasické", pl "Modern (nowoczesne)": the names the form's chips show."""
    text = book_text(variant, lang)
    presets = {"gin": ["modern", "classic"], "tile_rummy": ["rummikub", "rrrummy", "tiles50"]}
    with use_language(lang):
        names = [labels.preset_name(p) for p in presets[variant]]
    for name in names:
        assert name in text, (variant, lang, name)


# -- 2. "undercut" in Polish ----------------------------------------------------------------
def test_polish_says_podciecie_not_undercut() -> None:
    """Tester: a Carousel round read "…premia za undercut +10". The Polish gin term is
    "podcięcie" (the gin book keeps the seed's "undercut" as its gloss)."""
    left = [(i, s) for i, s in msgstrs("pl") if re.search(r"undercut", s, re.I)]
    assert left == []
    for variant in ("gin", "carousel"):
        text = book_text(variant, "pl")
        glosses = ["undercut", "undercut"] if variant == "gin" else []  # heading, first use
        assert re.findall(r"undercut\w*", text) == glosses
        assert "podcięcie" in text
    answer = judge.answer(CAROUSEL_ROUND)
    with use_language("pl"):
        lines = {b["name"]: verdict_render.why_line(b, answer) for b in answer["breakdown"]}
    assert "premia za podcięcie +10 → +36" in lines["Ewa"]
    assert lines["Ala"] == "Stukanie z 3, ale wygrywa niższa ręka (podcięcie) → 0"


# -- 3. tiles have no ace or king ------------------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "tiles", "cards"),
    [
        ("en", "1 does not follow 13 here", "The ace does not follow the king here"),
        ("pl", "Tutaj 1 nie idzie po 13", "Tutaj as nie idzie po królu"),
        ("sk", "1 tu nenasleduje po 13", "Eso tu nenasleduje po kráľovi"),
    ],
)
def test_a_tile_run_names_1_and_13(lang: str, tiles: str, cards: str) -> None:
    """Rummy 101 R12 R13 R1 gave "The ace does not follow the king here"."""
    answer = judge.answer({"check": "meld", "variant": "rummy101", "meld": ["R12", "R13", "R1"]})
    assert answer["reason"] == "ace_after_king"
    with use_language(lang):
        assert reason_text(answer["reason"], "rummy101") == tiles
        assert reason_text("ace_after_king", "gin") == cards


def test_colour_and_suit_headlines_name_the_material() -> None:
    with use_language("en"):
        assert reason_text("run_mixed_colours", "tile_rummy") == "A run keeps one colour"
        assert reason_text("run_mixed_colours", "carousel") == "A run keeps one suit"
        assert reason_text("group_repeated_colour", "rummy101") == "A colour repeats in the group"
        assert reason_text("group_repeated_colour", "gin") == "A suit repeats in the group"
    with use_language("pl"):  # Polish "kolor" is a tile's colour and a card's suit
        assert reason_text("run_mixed_colours", "gin") == "Seria ma jeden kolor"
        assert reason_text("group_repeated_colour", "tile_rummy") == "Kolor powtarza się w grupie"


# -- 4. the checker header names the joker level as a whole phrase ----------------------------
@pytest.mark.parametrize(
    ("lang", "want"),
    [
        ("en", "Joker rule: level 2 (match from the rack)"),
        ("pl", "Zasada jokera: poziom 2 (dopasowanie ze stojaka)"),
        ("sk", "Pravidlo žolíka: stupeň 2 (zhoda zo stojana)"),
    ],
)
def test_header_names_the_joker_level_in_a_whole_phrase(lang: str, want: str) -> None:
    """Header read "Joker rule: 2 · … with a tile from the rack" (the "…" goes on from the
    level above it in the options list only); the phrase is the rule book's level name."""
    with use_language(lang):
        assert joker_rule_name("match_from_rack", True) == want
        for rule in labels.JOKER_LEVEL_NAMES:
            phrase = joker_rule_name(rule, True)
            assert "…" not in phrase and "·" not in phrase, phrase
        assert joker_rule_name("my_rummy", False) == labels.choice_name("my_rummy")
    book = book_text("tile_rummy", lang)
    level, name = want.split(": ", 1)[1].rstrip(")").split(" (")
    assert f"{level[:1].upper()}{level[1:]}, {name}" in book  # "Poziom 2, dopasowanie ze …"


def test_an_option_error_names_the_level_whole() -> None:
    with use_language("pl"):
        line = verdict_render.render_key(
            "option.joker_rule_variant",
            {"value": "no_split_with_joker", "variant": "my_rummy"},
        )
    assert "poziom 3 (bez rozdzielania układu z jokerem)" in line and "…" not in line


# -- 5. a finished game is in the past ------------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "banner", "badge", "home", "two"),
    [
        ("sk", "Víťazstvo: Bob!", "1. miesto", "Víťazstvo: Bob", "Delené víťazstvo: Bob, Ala"),
        (
            "pl",
            "Zwycięstwo: Bob!",
            "1. miejsce",
            "Zwycięstwo: Bob",
            "Zwycięstwo ex aequo: Bob, Ala",
        ),
        ("en", "Bob wins!", "winner", "Winner: Bob", "Winners: Bob, Ala"),
    ],
)
def test_a_finished_games_winner(lang: str, banner: str, badge: str, home: str, two: str) -> None:
    """Sk "Bob vyhráva!", badge "VYHRÁVA", home "Vyhráva: Bob" for a game that is over: the
    past, in words that fit a woman or a man ("Zwycięstwo: Ala", not "Zwycięzca"/"wygrał")."""
    with use_language(lang):
        assert ngettext("{names} wins!", "{names} win!", 1).format(names="Bob") == banner
        assert _("winner") == badge
        assert ngettext("Winner: {names}", "Winners: {names}", 1).format(names="Bob") == home
        assert ngettext("Winner: {names}", "Winners: {names}", 2).format(names="Bob, Ala") == two
        over = verdict_render.render_key("gin.game.over", {"name": "Bob"})
        said = [banner, badge, home, two, over]
    assert "vyhráva" not in over and "wygrywa" not in over
    for text in said:  # one form for a woman and a man
        assert not re.search(r"Zwycięzc|Víťaz\b|Víťazi|wygrał|vyhral", text, re.I), text


# -- 6. the preset line says "rules" once ----------------------------------------------------
@pytest.mark.parametrize(("lang", "word"), [("pl", "zasad"), ("sk", "pravidl")])
def test_the_rules_line_says_rules_once(lang: str, word: str) -> None:
    """Pl score sheet: "Zasady: Zasady z opisu gry (domyślne)"."""
    with use_language(lang):
        for preset in ("seed", "modern", "classic"):
            line = _("Rules: {preset}").format(preset=labels.preset_name(preset))
            assert line.lower().count(word) == 1, line
        no_game = _("No game: default rules, preset {preset}").format(
            preset=labels.preset_name("seed")
        )
        assert no_game.lower().count(word) == 1, no_game


# -- 7.–9. single words --------------------------------------------------------------------
def test_my_rummy_keeps_its_name_in_polish() -> None:
    """Pl "w Moim Rummy" in the pool-ran-out line."""
    bad = [s for _i, s in msgstrs("pl") if re.search(r"\bMo(im|jego|ja|je) Rummy", s)]
    assert bad == []
    with use_language("pl"):
        line = _(
            "{head}: the winner collects nothing (My Rummy scoring: losers' penalties only) → 0"
        )
    assert "w My Rummy" in line


def test_polish_taps_use_one_verb() -> None:
    """Pl "pusty (stuknij, aby położyć tu…)" beside "pusty: dotknij, aby wpisać"; "stukać" is
    the game's knock, "dotknij" the tap (the review's choice, A12)."""
    taps = [(i, s) for i, s in msgstrs("pl") if "tap" in i.lower().split() or i.startswith("Tap")]
    assert len(taps) >= 6
    assert [s for _i, s in msgstrs("pl") if re.search(r"\b[Ss]tukn(ij|ąć)\b", s)] == []
    with use_language("pl"):
        assert _("tap to put it here") == "dotknij, aby położyć tutaj"
        assert _("Tap the cards below, or type them") == "Dotknij kart poniżej albo je wpisz"
        assert _("Tap the tiles below, or type them") == "Dotknij płytek poniżej albo je wpisz"


def test_the_checker_subtitle_and_the_photo_lines_read_naturally() -> None:
    """Pl "Seria, grupa czy para? Jej wartość" names the meld; sk "Odfoťte fotku" is said
    twice over."""
    with use_language("pl"):
        line = _("Run, group or pair? Its value and what each joker stands for")
    assert line == "Seria, grupa czy para? Wartość układu i to, co zastępuje każdy joker"
    bad = [s for _i, s in msgstrs("sk") if re.search(r"Odfoťte (fotku|alebo|ho)\b", s)]
    assert bad == []
    with use_language("sk"):
        assert _("Take or choose a photo of the tiles") == "Odfoťte kamene alebo vyberte ich fotku"
