"""Words a new user found (session 10), without a browser: the score sheet's spoken totals and
every other "{n} points" line in real plural forms (English 1 point / 2 points, Polish 1 punkt /
2 punkty / 5 punktów, Slovak 1 bod / 2 body / 5 bodov), and one phrase for a refused form.
Expected words are worked out from RULES.md §4 (a Tile Rummy rack: the winner gets what the
others hold) and the catalogues' plural rules."""

from __future__ import annotations

import re
from pathlib import Path

import flet as ft
import pytest

from app import games
from app.i18n import ngettext, use_language
from app.store import Store
from app.ui.sheet.score_sheet import ScoreSheet
from app.ui.shell import App
from tests.conftest import visible_texts, walk

ROOT = Path(__file__).resolve().parents[1]


def spoken_totals(app: App, store: Store, rack: list[str], lang: str) -> list[str]:
    """The score sheet's spoken total lines after one Tile Rummy round Ala won against
    ``rack`` (§4: Ala gets its value, Bob loses it)."""
    game = games.new_game("tile_rummy", ["Ala", "Bob"])
    entry = {"players": [{"name": "Ala", "winner": True}, {"name": "Bob", "hand": rack}]}
    game = store.create_game(games.add_round(game, entry))
    with use_language(lang):
        app.language = lang
        app.go(f"/game/{game.id}")
        sheet = app.screen
        assert isinstance(sheet, ScoreSheet)
        return [
            c.label
            for c in walk(sheet.view)
            if isinstance(c, ft.Semantics)
            and isinstance(c.label, str)
            and re.match(r"^(Ala|Bob): \S+ \w+", c.label)
        ]


@pytest.mark.parametrize(
    ("lang", "rack", "ala", "bob"),
    [
        ("en", ["R1"], "Ala: 1 point", "Bob: \u22121 point"),
        ("en", ["R2"], "Ala: 2 points", "Bob: \u22122 points"),
        ("pl", ["R1"], "Ala: 1 punkt", "Bob: \u22121 punkt"),
        ("pl", ["R2"], "Ala: 2 punkty", "Bob: \u22122 punkty"),
        ("pl", ["R5"], "Ala: 5 punktów", "Bob: \u22125 punktów"),
        ("pl", ["R9", "R13"], "Ala: 22 punkty", "Bob: \u221222 punkty"),
        ("pl", ["R12", "R13"], "Ala: 25 punktów", "Bob: \u221225 punktów"),
        ("sk", ["R1"], "Ala: 1 bod", "Bob: \u22121 bod"),
        ("sk", ["R2"], "Ala: 2 body", "Bob: \u22122 body"),
        ("sk", ["R5"], "Ala: 5 bodov", "Bob: \u22125 bodov"),
    ],
)
def test_the_spoken_totals_have_plural_forms(
    app: App, store: Store, lang: str, rack: list[str], ala: str, bob: str
) -> None:
    """Was "Ala: 1 points" (score_sheet.py: one form for every number)."""
    said = spoken_totals(app, store, rack, lang)
    assert any(s == ala or s.startswith(ala + ",") for s in said), said
    assert any(s == bob or s.startswith(bob + ",") for s in said), said


@pytest.mark.parametrize(
    ("singular", "plural", "forms"),
    [
        (
            "to {n} point",
            "to {n} points",
            {
                "en": ("to 1 point", "to 500 points"),
                "pl": ("do 1 punktu", "do 500 punktów"),
                "sk": ("do 1 bodu", "do 500 bodov"),
            },
        ),
        (
            "{n} point (needs {need})",
            "{n} points (needs {need})",
            {
                "en": ("1 point (needs 51)", "500 points (needs 51)"),
                "pl": ("1 punkt (potrzeba 51)", "500 punktów (potrzeba 51)"),
                "sk": ("1 bod (treba 51)", "500 bodov (treba 51)"),
            },
        ),
        (
            "The initial meld needs {n} point, own tiles only.",
            "The initial meld needs {n} points, own tiles only.",
            {
                "en": (
                    "The initial meld needs 1 point, own tiles only.",
                    "The initial meld needs 500 points, own tiles only.",
                ),
                "pl": (
                    "Pierwsze wyłożenie wymaga 1 punktu, tylko z własnych płytek.",
                    "Pierwsze wyłożenie wymaga 500 punktów, tylko z własnych płytek.",
                ),
                "sk": (
                    "Prvé vyloženie potrebuje 1 bod, len z vlastných kameňov.",
                    "Prvé vyloženie potrebuje 500 bodov, len z vlastných kameňov.",
                ),
            },
        ),
    ],
)
def test_point_counts_read_in_each_language(
    singular: str, plural: str, forms: dict[str, tuple[str, str]]
) -> None:
    for lang, (one, many) in forms.items():
        with use_language(lang):
            assert ngettext(singular, plural, 1).format(n=1, need=51) == one
            assert ngettext(singular, plural, 500).format(n=500, need=51) == many


def test_pairs_found_read_in_each_language() -> None:
    """The opening checker's pairs line (§3: an opening by pairs needs 5): 1 pair, 2 pairs."""
    msg = (
        "{n} pair (needs {need}; no point minimum)",
        "{n} pairs (needs {need}; no point minimum)",
    )
    want = {
        "en": ["1 pair (needs 5", "2 pairs (needs 5", "5 pairs (needs 5"],
        "pl": ["1 para (potrzeba 5", "2 pary (potrzeba 5", "5 par (potrzeba 5"],
        "sk": ["1 pár (treba 5", "2 páry (treba 5", "5 párov (treba 5"],
    }
    for lang, lines in want.items():
        with use_language(lang):
            for n, line in zip((1, 2, 5), lines, strict=True):
                assert ngettext(*msg, n).format(n=n, need=5).startswith(line), (lang, n)


def test_the_opening_checker_says_30_points_in_each_language() -> None:
    """The initial-meld checker's need line for Tile Rummy's 30 (§4), and Polish 22 (form 1)."""
    msg = (
        "The initial meld needs {n} point, own tiles only.",
        "The initial meld needs {n} points, own tiles only.",
    )
    with use_language("pl"):
        assert ngettext(*msg, 30).format(n=30).startswith("Pierwsze wyłożenie wymaga 30 punktów")
        assert ngettext(*msg, 22).format(n=22).startswith("Pierwsze wyłożenie wymaga 22 punktów")
    with use_language("sk"):
        assert ngettext(*msg, 30).format(n=30).startswith("Prvé vyloženie potrebuje 30 bodov")
        assert ngettext(*msg, 3).format(n=3).startswith("Prvé vyloženie potrebuje 3 body")


def test_no_count_of_points_is_said_without_its_plural() -> None:
    """No `_("… {n} points …")` is left in the UI: a count of points goes through ngettext."""
    counted = re.compile(r"""\b_\(\s*"[^"]*\{\w+\} points\b""")
    found = [
        f"{path.relative_to(ROOT)}"
        for path in (ROOT / "app" / "ui").rglob("*.py")
        if not path.is_relative_to(ROOT / "app" / "ui" / "table")  # the guard's (timer.py)
        for _line in counted.findall(path.read_text())
    ]
    assert not found, found


def test_a_refused_form_says_one_phrase() -> None:
    """ "Please fix the marked fields" (new game) and "Please correct the marked fields" (a
    round) said one thing two ways: one phrase now, in every catalogue."""
    for po in [*(ROOT / "app" / "locale").glob("*/LC_MESSAGES/messages.po")]:
        live = [b for b in po.read_text().split("\n\n") if not b.lstrip().startswith("#~")]
        assert not any('msgid "Please fix' in b for b in live), po
    sources = "\n".join(p.read_text() for p in (ROOT / "app").rglob("*.py"))
    assert "Please fix" not in sources
    assert '_("Please correct the marked fields.")' in sources


PROPER_NAMES = {"Rummikub", "RRRummy", "My Rummy"}
"""Preset names that are names of games or editions in every language."""
ENGLISH_WORDS = re.compile(r"\b(Standard|Rising|Tiles|Dutch|Easy|Original|Modern|Classic|free)\b")


@pytest.mark.parametrize("lang", ["pl", "sk"])
def test_every_preset_name_reads_in_the_language(lang: str) -> None:
    """Was "Modern (nowoczesne)", "Classic (klasyczne)", "Dutch Rummy (holenderskie)",
    "Tiles 50": the chips of the new game and the rules line speak the player's language;
    the rule books quote the same names."""
    from app.ui.common import labels
    from tests.test_words7 import book_text

    with use_language(lang):
        names = {k: labels.preset_name(k) for k in labels.PRESET_NAMES}
        books = {v: book_text(v, lang) for v in ("rummy101", "tile_rummy", "gin")}
    for key, name in names.items():
        if labels.PRESET_NAMES[key] in PROPER_NAMES:
            assert name == labels.PRESET_NAMES[key], (key, name)
            continue
        assert not ENGLISH_WORDS.search(name), (key, name)
    assert names["modern"] == {"pl": "Nowoczesne", "sk": "Moderné"}[lang]
    assert names["tiles50"] == {"pl": "Płytki 50", "sk": "Kamene 50"}[lang]
    for key, variant in (("tiles50", "tile_rummy"), ("dutch", "tile_rummy"), ("classic", "gin")):
        assert names[key] in books[variant], (key, lang)
    for text in books.values():
        assert not re.search(r"„(Modern|Classic|Tiles 50|Dutch Rummy)\b", text)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", ["Ola: 1 tile (invalid turn)", "Ola: 3 tiles (invalid turn)", "Ola: 5 tiles"]),
        ("pl", ["Ola: 1 karna płytka (", "Ola: 3 karne płytki (", "Ola: 5 karnych płytek ("]),
        ("sk", ["Ola: 1 trestný kameň (", "Ola: 3 trestné kamene (", "Ola: 5 trestných kameňov ("]),
    ],
)
def test_pending_penalty_tiles_have_plural_forms(lang: str, expected: list[str]) -> None:
    """Was "{name}: {n} tiles ({reason})" for every count: "Ola: 1 tiles"."""
    from app.ui.table.timer import penalty_text

    with use_language(lang):
        got = [penalty_text({"name": "Ola", "tiles": n, "reason": "time"}) for n in (1, 3, 5)]
    for text, start in zip(got, expected, strict=True):
        assert text.startswith(start), (text, start)


@pytest.mark.parametrize(
    ("lang", "n", "word"),
    [
        ("en", 501, "501 rounds"),
        ("pl", 502, "502 rundy"),
        ("pl", 505, "505 rund"),
        ("sk", 502, "502 kôl"),
        ("sk", 505, "505 kôl"),
    ],
)
def test_too_many_rounds_has_plural_forms(lang: str, n: int, word: str) -> None:
    """The import refusal for a file with too many rounds counts them in the language's form."""
    from app.error_text import describe
    from app.games import GameImportError

    err = GameImportError(
        "too many rounds", "bad_import", {"problem": "too_many_rounds", "n": n, "max": 500}
    )
    with use_language(lang):
        assert word in describe(err)


# -- no gender spelled with a bracket (new-user tester, session 10) --------------------------------
GENDERED = re.compile(r"\w\(-?\w{1,4}\)|\w+ł ?/ ?\w+ła\b")
"""An ending in brackets glued to a word ("Wziął(-ęła)", "stukał(a)", "označený(-á)") or a
slash pair ("Wziął/wzięła"): the review (TRANSLATIONS_REVIEW.md §C.7) asks for neutral words."""


@pytest.mark.parametrize("lang", ["pl", "sk"])
def test_no_message_spells_a_gender_with_a_bracket(lang: str) -> None:
    from babel.messages.pofile import read_po

    with (ROOT / "app" / "locale" / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f)
    assert GENDERED.search("Wziął(-ęła) odrzuconą płytkę")  # the pattern finds the old one
    bad = [
        text
        for m in catalog
        if m.id
        for text in (m.string if isinstance(m.string, tuple) else (m.string,))
        if text and GENDERED.search(text)
    ]
    assert bad == []


@pytest.mark.parametrize(
    ("lang", "heading", "chips"),
    [
        ("en", "This turn the player…", ["Drew from the stock", "Took the discard"]),
        ("pl", "W tej turze:", ["Dobrano z puli", "Wzięto odrzuconą płytkę"]),
        ("sk", "V tomto ťahu:", ["Ťahanie z kôpky", "Vzatý odhodený kameň"]),
    ],
)
def test_the_turn_checker_says_who_took_the_discard_without_a_gender(
    app: App, lang: str, heading: str, chips: list[str]
) -> None:
    # Rummy 101's turn checker (RULES.md §3: a taken discard must be used): a heading and two
    # chips that read without the player's gender ("Wzięto", impersonal, as "Dobrano")
    with use_language(lang):
        app.language = lang
        app.go("/check/turn?variant=rummy101")
        shown = visible_texts(app.screen.view, labels=True)  # type: ignore[union-attr]
    assert heading in shown
    for chip in chips:
        assert chip in shown, shown


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("pl", "gdy skończy się pula, nikt nie wygrywa, a Ala ma zaznaczoną wygraną"),
        ("sk", "keď sa minie kôpka, nikto nevyhráva, ale Ala má vyznačené víťazstvo"),
    ],
)
def test_the_marked_winner_reads_without_a_gender(lang: str, line: str) -> None:
    from app.i18n import _

    with use_language(lang):
        said = _("when the stock runs out nobody wins, but {name} is marked winner")
    assert said.format(name="Ala") == line


@pytest.mark.parametrize(
    ("lang", "n", "said"),
    [
        ("en", 1, "Ola holds 1 card; a gin hand at the end of a round has 10"),
        ("en", 9, "Ola holds 9 cards; a gin hand at the end of a round has 10"),
        ("pl", 1, "Ola: kart na ręce 1; ręka w ginie ma na koniec rundy 10 kart"),
        ("sk", 5, "Ola: kariet v ruke 5; ruka v gine má na konci kola 10 kariet"),
    ],
)
def test_a_gin_hand_of_the_wrong_size_is_counted_in_words(lang: str, n: int, said: str) -> None:
    # new-user tester (session 12): "Ola holds 1 cards"
    from app.verdict_render import render_key

    with use_language(lang):
        assert render_key("gin.wrong_hand_size", {"name": "Ola", "n": n}) == said
