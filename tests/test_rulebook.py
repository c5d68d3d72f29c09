"""The rule book (app/rulebook.py, app/rulebook/, app/ui/home/rulebook_view.py): every variant and
language loads with the same sections and option marks, every RULES.md § and every reason code
of the rules engine leads to a section that exists, the options in force are marked for a few
option sets (values worked out from RULES.md §3–§6), and the screen builds without a page.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import flet as ft
import pytest
from hypothesis import given
from hypothesis import strategies as st

from app import games
from app import rulebook as rb
from app.store import Store
from app.ui.home.rulebook_view import RulebookView, rule_button, rule_excerpt
from app.ui.shell import App
from rules import judge
from rules.variant import (
    CHECK_NAMES,
    REASON_SECTIONS,
    REGISTRY,
    find_variant,
    variants_answering,
)
from tests.conftest import visible_texts

ROOT = Path(__file__).resolve().parents[1]
BOOKS = [(v, lang) for v in rb.VARIANTS for lang in rb.languages(v)]


# -- loading -------------------------------------------------------------------------------------
def test_languages_written() -> None:
    """English, Polish and Slovak for every variant (issues 5 and 15)."""
    for v in rb.VARIANTS:
        assert set(rb.languages(v)) == {"en", "pl", "sk"}, v


@pytest.mark.parametrize(("variant", "lang"), BOOKS)
def test_every_book_loads(variant: str, lang: str) -> None:
    book = rb.load(variant, lang)
    assert book.variant == variant and book.lang == lang
    assert book.title and book.source
    assert book.section_ids == rb.SECTION_IDS[variant]
    assert rb.validate(book) == []
    for s in book.sections:
        assert s.title and s.blocks, (variant, lang, s.id)
        for b in s.blocks:
            assert "[option:" not in b.text and "{#" not in b.text, b.text


@pytest.mark.parametrize(("variant", "lang"), [b for b in BOOKS if b[1] != "en"])
def test_translations_mark_the_same_options(variant: str, lang: str) -> None:
    """A translation carries, section by section, the same option marks and anchors as the
    English text, so the same paragraphs are "in force" in every language."""
    en, other = rb.load(variant, "en"), rb.load(variant, lang)

    def marks(book: rb.Book, sid: str) -> tuple[list[str], list[str], list[str]]:
        sec = book.section(sid)
        assert sec is not None
        conds = sorted(c.text() for b in sec.blocks for c in b.conditions)
        shows = sorted(n for b in sec.blocks for n in b.shows)
        anchors = sorted(b.anchor for b in sec.blocks if b.anchor)
        return conds, shows, anchors

    for sid in rb.SECTION_IDS[variant]:
        assert marks(other, sid) == marks(en, sid), (variant, lang, sid)


def test_book_for_falls_back_to_english(monkeypatch: pytest.MonkeyPatch) -> None:
    book, fell_back = rb.book_for("carousel", "sk")
    assert book.lang == "sk" and not fell_back
    written = rb.languages
    monkeypatch.setattr(rb, "languages", lambda v: tuple(x for x in written(v) if x != "sk"))
    book, fell_back = rb.book_for("gin", "sk")
    assert book.lang == "en" and fell_back
    with pytest.raises(KeyError):
        rb.load("gin", "de")
    with pytest.raises(KeyError):
        rb.load("poker", "en")


def test_strings_every_language() -> None:
    for lang in rb.LANGS:
        s = rb.strings(lang)
        for key in ("name", "in_force", "not_in_force", "house_rule_off", "this_game"):
            assert s[key], (lang, key)
        assert rb.intro(lang)
    assert rb.strings("pl")["in_force"] == "Obowiązuje"
    assert rb.strings("sk")["in_force"] == "Platí"


def test_polish_uses_the_seed_terms() -> None:
    """Polish follows the seeds' words: seria/grupa/para, otwarcie, dokładanie (000), deadwood,
    knock (stukam), undercut (as the gloss of "podcięcie"), set (002; its "sekwens" only as a
    gloss of seria, the one Polish word for a run everywhere), pierwsze wyłożenie, podstawka
    (004)."""
    r101 = " ".join(b.plain for _s, b in rb.all_blocks(rb.load("rummy101", "pl")))
    for word in ("Seria", "Grupa", "Para", "otwarcie", "dokładać", "stojak", "pul"):
        assert word in r101, word
    gin = " ".join(b.plain for _s, b in rb.all_blocks(rb.load("gin", "pl")))
    for word in ("deadwood", "martwe karty", "stukam", "undercut", "Seria", "sekwens", "Set"):
        assert word in gin, word
    for variant in ("gin", "carousel"):  # one Polish term for a run: "seria", as the checker
        text = " ".join(b.plain for _s, b in rb.all_blocks(rb.load(variant, "pl")))
        assert "Sekwens" not in text and "sekwencj" not in text.lower(), variant
        assert "D–K–A" not in text and "D-K-A" not in text, variant  # ranks as the keys: Q
    my = " ".join(b.plain for _s, b in rb.all_blocks(rb.load("my_rummy", "pl")))
    for word in ("pierwsze wyłożenie", "podstawk", "Jokera"):
        assert word in my, word
    sk = " ".join(b.plain for _s, b in rb.all_blocks(rb.load("carousel", "sk")))
    for word in ("zostav", "postupnos", "skupin", "žolík", "zaklopa"):
        assert word in sk.lower(), word


def test_numbers_of_rules_md_are_kept() -> None:
    """Every number a player needs, in every language (RULES.md §3–§6)."""
    need = {
        "rummy101": ["21", "22", "101", "202", "404", "808", "116", "117", "12-13-1"],
        "tile_rummy": ["106", "14", "30", "50", "3", "2"],
        "my_rummy": ["106", "14", "30", "25", "3"],
        "gin": ["10", "9", "25", "31", "20", "100", "2"],
        "carousel": ["53", "10", "25", "5", "150", "100"],
    }
    for variant, lang in BOOKS:
        text = " ".join(b.plain for _s, b in rb.all_blocks(rb.load(variant, lang)))
        text = text.replace("–", "-")
        for n in need.get(variant, ()):  # a variant a module adds: its own book's numbers
            assert n in text, (variant, lang, n)


# -- the parser ----------------------------------------------------------------------------------
SAMPLE = """---
variant: tile_rummy
lang: en
title: T
source: S
---

## One {#one}

Plain **bold** and *it*.
Same paragraph.

- item [option:joker_rule=free|match] {#anch}
- second
  continued [option:turn_time]

1. first [option:joker_level>=3] [option:initial_meld!=50]

| a | b |
|---|---|
| x | y |

### Sub

## Two {#two}

Last.
"""


def test_parse_sample() -> None:
    book = rb.parse(SAMPLE)
    assert book.title == "T" and book.section_ids == ("one", "two")
    one = book.sections[0]
    kinds = [b.kind for b in one.blocks]
    assert kinds == ["p", "li", "li", "ol", "table", "h3"]
    p, li1, li2, ol, table, h3 = one.blocks
    assert p.text == "Plain **bold** and *it*. Same paragraph."
    assert p.plain == "Plain bold and it. Same paragraph."
    assert rb.spans(p.text) == [
        ("Plain ", ""),
        ("bold", "bold"),
        (" and ", ""),
        ("it", "italic"),
        (". Same paragraph.", ""),
    ]
    assert li1.text == "item" and li1.anchor == "anch"
    assert li1.conditions == (rb.Condition("joker_rule", "=", ("free", "match")),)
    assert li2.text == "second continued" and li2.shows == ("turn_time",)
    assert ol.number == 1 and [c.text() for c in ol.conditions] == [
        "joker_level>=3",
        "initial_meld!=50",
    ]
    assert table.rows == (("a", "b"), ("x", "y"))
    assert h3.text == "Sub"
    assert book.find("anch") == (one, li1)
    assert book.find("two") == (book.sections[1], None)
    assert book.find("nowhere") is None


@pytest.mark.parametrize(
    "text",
    [
        "no section\n",
        "## A {#a}\n\nx\n\n## B {#a}\n\ny\n",
        "## A {#a}\n\nx [option:joker_level>=low]\n",
        "## Missing id\n\nx\n",
        "## A {#a}\n\nx {#z}\n\ny {#z}\n",
    ],
)
def test_parse_errors(text: str) -> None:
    with pytest.raises(rb.RulebookError):
        rb.parse(text)


def test_parse_value() -> None:
    assert rb.parse_value("true") is True
    assert rb.parse_value("false") is False
    assert rb.parse_value("none") is None
    assert rb.parse_value("30") == 30
    assert rb.parse_value("match_from_rack") == "match_from_rack"


@given(st.sampled_from(["=", "!="]), st.integers(0, 200), st.integers(0, 200))
def test_condition_equality_property(op: str, want: int, have: int) -> None:
    c = rb.Condition("initial_meld", op, (want,))  # type: ignore[arg-type]
    assert c.holds({"initial_meld": have}) == ((have == want) == (op == "="))


@given(st.integers(0, 4), st.integers(0, 4))
def test_joker_level_marks_property(level: int, bound: int) -> None:
    """``joker_level>=k`` holds exactly from level k up (levels add to each other, §4)."""
    c = rb.Condition("joker_level", ">=", (bound,))
    assert c.holds({"joker_level": level}) == (level >= bound)


# -- options in force ----------------------------------------------------------------------------
def statuses(
    variant: str, section: str, given: dict[str, Any] | None = None, lang: str = "en"
) -> dict[str, tuple[str, str]]:
    """Section blocks -> (status, status text), keyed by the block's first marks."""
    opts = rb.options_in_force(variant, given)
    sec = rb.load(variant, lang).section(section)
    assert sec is not None
    out: dict[str, tuple[str, str]] = {}
    for m in rb.mark_section(sec, opts, rb.options_in_force(variant)):
        if m.block.conditions:
            key = m.block.anchor or " ".join(c.text() for c in m.block.conditions)
            out[key] = (m.status, rb.status_text(m, lang))
    return out


def test_tile_rummy_default_jokers() -> None:
    """Rummikub preset: level 2 (match_from_rack) — levels 1 and 2 in force, 0/3/4 not."""
    s = statuses("tile_rummy", "jokers")
    assert {k: v[0] for k, v in s.items()} == {
        "level0": "not_in_force",
        "level1": "in_force",
        "level2": "in_force",
        "level3": "not_in_force",
        "level4": "not_in_force",
    }
    assert s["level0"][1] == (
        "Not in force (applies when set to: joker level 0: jokers move like any tile;"
        " now: joker level 2: a joker is replaced only by that tile, from the rack)"
    )
    assert (
        s["level3"][1]
        == "Not in force (now: joker level 2: a joker is replaced only by that tile, from the rack)"
    )


@pytest.mark.parametrize(
    ("given", "in_force"),
    [
        ({"preset": "easy"}, {"level0"}),
        ({"joker_rule": 1}, {"level1"}),
        ({"preset": "rrrummy"}, {"level1", "level2", "level3"}),
        ({"preset": "tiles50"}, {"level1", "level2", "level3", "level4"}),
        ({"preset": "dutch"}, {"level1", "level2"}),
    ],
)
def test_tile_rummy_joker_levels(given: dict[str, Any], in_force: set[str]) -> None:
    s = statuses("tile_rummy", "jokers", given)
    assert {k for k, v in s.items() if v[0] == "in_force"} == in_force


def test_house_rule_on_and_off() -> None:
    """Rearranging in the initial-meld turn: off by default (official rule, §4)."""
    s = statuses("tile_rummy", "opening")
    assert s["manipulate_on_initial_turn=false"] == ("in_force", "In force")
    assert s["manipulate_on_initial_turn=true"] == (
        "not_in_force",
        "Not in force (house rule off)",
    )
    s = statuses("tile_rummy", "opening", {"manipulate_on_initial_turn": True})
    assert s["manipulate_on_initial_turn=true"][0] == "in_force"
    assert s["manipulate_on_initial_turn=false"] == (
        "not_in_force",
        "Not in force (applies when set to: off; now: on)",
    )
    pl = statuses("tile_rummy", "opening", lang="pl")
    assert pl["manipulate_on_initial_turn=true"] == (
        "not_in_force",
        "Nie obowiązuje (zasada domowa wyłączona)",
    )


def test_timer_and_winner_collects() -> None:
    """Tile Rummy: no timer, winner collects; My Rummy: 2-minute timer, losers only (§4)."""
    tr = statuses("tile_rummy", "faults")
    assert tr["turn_time=none"][0] == "in_force"
    assert tr["turn_time!=none"] == ("not_in_force", "Not in force (house rule off)")
    tr = statuses("tile_rummy", "faults", {"turn_time": 60})
    assert tr["turn_time!=none"][0] == "in_force"
    assert tr["turn_time=none"] == (
        "not_in_force",
        "Not in force (applies when set to: none; now: 60)",
    )
    my = statuses("my_rummy", "faults")
    assert my["turn_time!=none"][0] == "in_force"
    sc = statuses("tile_rummy", "scoring")
    assert sc["winner_collects=true"][0] == "in_force"
    assert sc["winner_collects=false"] == ("not_in_force", "Not in force (house rule off)")
    my_sc = statuses("my_rummy", "scoring")
    assert my_sc["winner_collects=false"][0] == "in_force"
    assert my_sc["winner_collects=true"] == ("not_in_force", "Not in force (house rule off)")


def test_shown_values() -> None:
    """A bare ``[option:NAME]`` shows the value in force: 50 in Tiles 50 (§4)."""
    opts = rb.options_in_force("tile_rummy", {"preset": "tiles50"})
    sec = rb.load("tile_rummy", "en").section("opening")
    assert sec is not None
    first = rb.mark(sec.blocks[0], opts)
    assert first.status == "in_force"
    assert rb.status_text(first, "en") == "In force. The initial meld needs 50 points in this game."
    assert rb.status_text(first, "pl") == (
        "Obowiązuje. Pierwsze wyłożenie wymaga w tej grze 50 punktów."
    )


def test_gin_presets() -> None:
    """Seed: knock ≤ 9, tie no undercut, no big gin, shutout +100; modern: 10, tie undercuts,
    big gin 31, shutout doubles (RULES.md §5 table)."""
    seed = statuses("gin", "knock")
    assert seed["knock_max=9"][0] == "in_force"
    assert seed["knock_max=9"][1] == "In force"
    # the box that does not apply names its own value, never the sentence of the value in
    # force (that sentence stands above, on the option's paragraph)
    assert seed["knock_max=10"] == (
        "not_in_force",
        "Not in force (applies when set to: 10; now: 9)",
    )
    knock = statuses("gin", "knock", lang="pl")
    assert knock["knock_max=10"] == (
        "not_in_force",
        "Nie obowiązuje (dotyczy ustawienia: 10; teraz: 9)",
    )
    classic = statuses("gin", "knock", {"preset": "classic"}, lang="sk")
    assert classic["knock_max=9"] == ("not_in_force", "Neplatí (týka sa nastavenia: 9; teraz: 10)")
    in_this_game = {"en": "In this game", "pl": "W tej grze", "sk": "V tejto hre"}
    for lang, words in in_this_game.items():  # no box that does not apply says what does
        for options in (None, {"preset": "classic"}):
            s = statuses("gin", "knock", options, lang=lang)
            assert all(words not in text for st, text in s.values() if st == "not_in_force"), s
    modern = {
        **statuses("gin", "knock", {"preset": "modern"}),
        **statuses("gin", "undercut", {"preset": "modern"}),
        **statuses("gin", "gin", {"preset": "modern"}),
        **statuses("gin", "game", {"preset": "modern"}),
    }
    assert modern["knock_max=10"][0] == "in_force"
    assert modern["knock_max=9"][0] == "not_in_force"
    assert modern["undercut_on_tie=true"][0] == "in_force"
    assert modern["undercut_bonus=25"][0] == "in_force"
    assert modern["big_gin_bonus!=none"] == (
        "in_force",
        "In force. The big gin bonus is 31 points in this game.",
    )
    assert modern["shutout=double"][0] == "in_force"
    assert modern["shutout=bonus"][0] == "not_in_force"
    classic = statuses("gin", "gin", {"preset": "classic"})
    assert classic["gin_bonus=20"][0] == "in_force"
    assert classic["big_gin_bonus=none"][0] == "in_force"
    seed_gin = statuses("gin", "gin")
    assert seed_gin["big_gin_bonus!=none"] == ("not_in_force", "Not in force (house rule off)")
    lay = statuses("gin", "layoffs", {"layoffs": False})
    assert lay["layoffs=true"][0] == "not_in_force"
    assert lay["layoffs=false"][0] == "in_force"
    solo = statuses("gin", "solo", {"mode": "solo"})
    assert solo["mode=solo"][0] == "in_force" and solo["mode=duel"][0] == "not_in_force"


def test_rummy101_threshold_and_carousel_bonus() -> None:
    assert statuses("rummy101", "threshold")["threshold_mode=fixed"][0] == "in_force"
    rising = statuses("rummy101", "threshold", {"preset": "rising"})
    assert rising["threshold_mode=rising"][0] == "in_force"
    assert rising["threshold_mode=fixed"][0] == "not_in_force"
    c = statuses("carousel", "game", lang="sk")
    assert c["round_bonus_all=false"] == (
        "in_force",
        "Platí. Každé vyhrané kolo prináša v tejto hre 25 bonusových bodov.",
    )
    assert c["round_bonus_all=true"] == ("not_in_force", "Neplatí (domáce pravidlo vypnuté)")


def test_bad_options_fall_back_to_defaults() -> None:
    assert rb.options_in_force("gin", {"knock_max": "lots"})["knock_max"] == 9
    assert rb.options_in_force("tile_rummy")["joker_level"] == 2
    assert rb.options_in_force("my_rummy")["joker_level"] == 2


# -- from verdicts to sections ---------------------------------------------------------------------
_VERDICT_CALLS = {"_bad", "bad", "invalid", "impossible_round"}
_EMITTERS: dict[str, tuple[str, ...]] = {
    "melds.py": rb.VARIANTS,
    "scoring.py": rb.VARIANTS,
    "table.py": ("tile_rummy", "my_rummy", "carousel"),
    "split.py": ("rummy101", "tile_rummy", "my_rummy", "carousel"),
    "rummy101.py": ("rummy101",),
    "tiles.py": ("tile_rummy", "my_rummy"),
    "gin.py": ("gin",),
    "carousel.py": ("carousel",),
}


def reason_codes() -> dict[str, set[str]]:
    """Every reason code the rules engine gives in a verdict -> the variants that can get it:
    first arguments of ``_bad``/``bad``/``invalid``/``impossible_round``, ``reason=`` keywords
    and ``{"reason": …}`` literals in rules/melds.py, rules/table.py, rules/scoring.py,
    rules/checks/*.py and rules/variants/*.py."""
    found: dict[str, set[str]] = {}
    files = [ROOT / "rules" / n for n in ("melds.py", "table.py", "scoring.py")]
    files += sorted((ROOT / "rules" / "variants").glob("*.py"))
    files += sorted((ROOT / "rules" / "checks").glob("*.py"))
    for path in files:
        variants = _EMITTERS.get(path.name)
        if variants is None:  # a variant's own module (rules/variants/<name>.py) or a check
            own = path.stem if path.parent.name == "variants" else None
            variants = (own,) if own in rb.VARIANTS else rb.VARIANTS
        tree = ast.parse(path.read_text(encoding="utf-8"))
        codes: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                fn = node.func
                name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
                if name in _VERDICT_CALLS and node.args:
                    a = node.args[0]
                    if isinstance(a, ast.Constant) and isinstance(a.value, str):
                        codes.add(a.value)
                for kw in node.keywords:
                    value = kw.value
                    if (
                        kw.arg == "reason"
                        and isinstance(value, ast.Constant)
                        and isinstance(value.value, str)
                    ):
                        codes.add(value.value)
            if isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values, strict=True):
                    if (
                        isinstance(k, ast.Constant)
                        and k.value == "reason"
                        and isinstance(v, ast.Constant)
                        and isinstance(v.value, str)
                    ):
                        codes.add(v.value)
        for code in codes:
            found.setdefault(code, set()).update(variants)
    return found


def test_reason_codes_found() -> None:
    codes = reason_codes()
    for code in (
        "run_gap",
        "below_threshold",
        "joker_rule",
        "knock_above_limit",
        "too_many_copies",
        "no_split",
        "rounds_after_end",
        "gin_with_deadwood",
    ):
        assert code in codes, code
    assert len(codes) >= 40


def test_every_reason_code_has_its_section() -> None:
    """Each code the engine gives is placed by the engine itself (explicitly, not by
    fallback: :data:`rules.variant.REASON_SECTIONS` or the variant's own
    ``reason_sections``) in a section that exists in the book of every variant that can get
    it, in every language; an answer stored without ``rule_ref`` links there."""
    for code, variants in sorted(reason_codes().items()):
        for v in variants:
            spec = find_variant(v)
            section = spec.reason_sections.get(code) or REASON_SECTIONS.get(code)
            assert section is not None, f"reason {code!r} has no rule-book section"
            assert section in spec.sections, (code, v, section)
            assert spec.section_for(None, code) == section
            assert rb.link_for(v, "RULES.md §2", code).section == section
            for lang in rb.languages(v):
                assert rb.load(v, lang).section(section) is not None, (code, v, lang)
    for code in ("bad_token", "too_many_copies", "unknown_option", "bad_option"):  # input errors
        assert code in REASON_SECTIONS, code


def test_the_books_have_the_sections_the_engine_names() -> None:
    """The rule book's sections are the variant's :attr:`~rules.variant.Variant.sections`,
    in every language; every section a check or a round's result opens exists."""
    for spec in REGISTRY:
        assert rb.SECTION_IDS[spec.name] == spec.sections
        for lang in rb.languages(spec.name):
            assert rb.load(spec.name, lang).section_ids == spec.sections, (spec.name, lang)
        named = [*spec.check_sections.values(), *spec.result_sections.values()]
        named += [*spec.reason_sections.values()]
        assert set(named) <= set(spec.sections), spec.name
        for check in CHECK_NAMES:
            if spec.answers(check):
                assert spec.section_for(check) in spec.sections


RECORDED = [
    json.loads(line)
    for line in (ROOT / "tests" / "data" / "characterisation.jsonl")
    .read_text(encoding="utf-8")
    .splitlines()
]


def test_every_recorded_answer_names_a_section_of_its_book() -> None:
    """The ~1,700 recorded judge answers (tests/data/characterisation.jsonl), answered again:
    every answer of a variant's check (valid, not valid, or an input error) carries
    ``rule_ref.section``, a section of that variant's book in every language, and the app's
    link opens it. An answer without ``rule_ref`` (stored before it existed) is placed by the
    variant in the same section, except a valid Tile Rummy turn that was the initial meld
    (the turn check knows it opened: ``opening``; the stored answer's fields say ``turn``)."""
    seen = 0
    for rec in RECORDED:
        req = rec["request"]
        variant, check = req.get("variant"), req.get("check")
        if variant not in rb.VARIANTS or check not in CHECK_NAMES:
            continue
        got = judge.answer(req)
        if got.get("error") == "unsupported_check":
            assert "rule_ref" not in got  # no rule of the variant was applied
            continue
        ref = got.get("rule_ref")
        assert isinstance(ref, dict), got
        section = ref["section"]
        assert section in rb.SECTION_IDS[variant], (req, section)
        for lang in rb.languages(variant):
            assert rb.load(variant, lang).section(section) is not None, (variant, section, lang)
        assert rb.link_for_answer(variant, got, check).section == section, got
        legacy = {k: v for k, v in got.items() if k != "rule_ref"}
        fallback = rb.link_for_answer(variant, legacy, check).section
        if got.get("key") == "turn.valid_initial":
            assert (section, fallback) == ("opening", "turn"), got
        else:
            assert fallback == section, (req, got)
        seen += 1
    assert seen > 1500


def test_every_paragraph_section_exists() -> None:
    """Every ``RULES.md §N`` a verdict can name opens a section that exists, per variant."""
    for spec in REGISTRY:
        for para in range(1, 8):
            section = spec.paragraph_section(para)
            if section is None:
                assert para not in (1, 2, 7, spec.chapter)
                continue
            for lang in rb.languages(spec.name):
                assert rb.load(spec.name, lang).section(section) is not None, (spec.name, para)
    assert rb.link_for("rummy101", "RULES.md §1").section == "reading"
    assert rb.link_for("gin", "RULES.md §2").section == "melds"
    assert rb.link_for("carousel", "RULES.md §6, seed 003").section == "players"
    assert rb.link_for("my_rummy", "RULES.md §4, seed 004").section == "players"
    # a chapter of another variant is skipped: §2 is taken
    assert rb.link_for("gin", "RULES.md §3, §2").section == "melds"
    for check, variants in ((c, variants_answering(c)) for c in CHECK_NAMES):
        for v in variants:
            section = find_variant(v).section_for(check)
            assert section in rb.SECTION_IDS[v], (check, v, section)
            assert rb.link_for(v, "", None, check).section == section


def rule_strings() -> set[str]:
    """Every ``"RULES.md …"`` literal of rules/ (the ``rule`` fields verdicts carry), and the
    ones each variant's description builds (``"RULES.md §3, seed 000"``)."""
    out: set[str] = {s for v in REGISTRY for s in (v.rule, v.rule_seed, v.table_rule)}
    for path in (ROOT / "rules").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and node.value.startswith("RULES.md §")
                and len(node.value) < 80
            ):
                out.add(node.value)
    return out


def test_parse_every_rule_string() -> None:
    strings = rule_strings()
    assert "RULES.md §3, seed 000" in strings
    for s in strings:
        ref = rb.parse_rule(s)
        assert ref.paragraphs and all(1 <= p <= 7 for p in ref.paragraphs), s
        for v in rb.VARIANTS:
            assert rb.link_for(v, s).section in rb.SECTION_IDS[v]
    ref = rb.parse_rule("RULES.md §5 solo mode; seed 002_… (last paragraph)")
    assert ref == rb.RuleRef((5,), ("002",), True)
    assert rb.parse_rule("RULES.md §2, §4") == rb.RuleRef((2, 4), ())
    assert rb.parse_rule("") == rb.RuleRef((), ())


def test_link_examples() -> None:
    link = rb.link_for("tile_rummy", "RULES.md §4, seed 001", "joker_rule", "turn", {"level": 3})
    assert link == rb.Link("tile_rummy", "jokers", "level3", ("joker_rule",))
    assert link.route() == "/rules/tile_rummy/level3"
    assert link.route("g1") == "/game/g1/rules/level3"
    gin = rb.link_for("gin", "RULES.md §5; seed 002_…", "knock_above_limit", "round", {})
    assert (gin.section, gin.options) == ("knock", ("knock_max",))
    assert rb.link_for("rummy101", "RULES.md §3", "below_threshold").section == "opening"
    assert rb.link_for("rummy101", "RULES.md §3", "discard_not_used").section == "discard"
    assert rb.link_for("rummy101", "RULES.md §3", "too_few_pairs").section == "pairs"
    assert rb.link_for("tile_rummy", "", "tile_not_on_rack", "opening").section == "opening"
    assert rb.link_for("tile_rummy", "", "tile_not_on_rack", "turn").section == "turn"
    assert rb.link_for("carousel", "", "tile_not_on_rack", "turn").section == "melding"
    assert rb.link_for("carousel", "", "rounds_after_end").section == "game"
    assert rb.link_for("my_rummy", "", "rounds_after_end").section == "scoring"
    # valid verdicts: by check, gin by result, solo by the rule text
    assert rb.link_for("gin", "RULES.md §5", None, "round", {"result": "undercut"}).section == (
        "undercut"
    )
    assert rb.link_for("gin", "RULES.md §5", None, "round", {"result": "big_gin"}).section == "gin"
    solo = "RULES.md §5 solo mode; seed 002_… (last paragraph)"
    assert rb.link_for("gin", solo).section == "solo"
    assert rb.link_for("gin", solo, "wrong_player_count").section == "solo"
    assert rb.link_for("gin", "RULES.md §5", "wrong_player_count").section == "players"
    assert rb.link_for("gin", "", None, "hand").section == "deadwood"
    assert rb.link_for("carousel", "", None, "hand").section == "knock"
    assert rb.link_for("tile_rummy", "", None, "meld").section == "melds"
    # unknown code: the check, then the §, then the first section
    assert rb.link_for("rummy101", "RULES.md §2", "brand_new_code").section == "melds"
    assert rb.link_for("rummy101", "", "brand_new_code").section == "players"
    # option names among the params are options the verdict depends on
    assert rb.link_for("carousel", "", "knock_above_limit", params={"knock_max": 5}).options == (
        "knock_max",
    )


@pytest.mark.parametrize(
    ("request_", "section", "anchor"),
    [
        ({"check": "meld", "variant": "rummy101", "meld": ["R1", "R2", "R4"]}, "melds", None),
        ({"check": "meld", "variant": "gin", "meld": ["QS", "KS", "AS"]}, "melds", None),
        (
            {"check": "opening", "variant": "rummy101", "melds": [["R10", "R11", "R12"]]},
            "opening",
            None,
        ),
        (
            {
                "check": "turn",
                "variant": "tile_rummy",
                "options": {"preset": "rrrummy"},
                "opened": True,
                "rack": ["R9"],
                "table_before": [["R4", "R5", "JK", "R7", "R8"]],
                "table_after": [["R4", "R5", "JK"], ["R7", "R8", "R9"]],
            },
            "jokers",
            "level3",
        ),
        (
            {
                "check": "round",
                "variant": "gin",
                "knocker": "A",
                "players": [
                    {
                        "name": "A",
                        "hand": ["AS", "2S", "3S", "4H", "5H", "6H", "7C", "8C", "KD", "QD"],
                    },
                    {
                        "name": "B",
                        "hand": ["AH", "2H", "3H", "4S", "5S", "6S", "7D", "8D", "9D", "KC"],
                    },
                ],
            },
            "knock",
            None,
        ),
    ],
)
def test_real_verdicts_link(request_: dict[str, Any], section: str, anchor: str | None) -> None:
    """Answers of the judge itself lead to the section that states the broken rule."""
    answer = judge.answer(request_)
    assert answer["ok"] and answer["valid"] is False, answer
    link = rb.link_for_answer(request_["variant"], answer, request_["check"])
    assert (link.section, link.anchor) == (section, anchor), answer


def test_excerpt_focus() -> None:
    """The excerpt of a verdict shows the paragraphs in force for its options."""
    opts = rb.options_in_force("tile_rummy", {"preset": "rrrummy"})
    link = rb.link_for("tile_rummy", "RULES.md §4", "joker_rule", "turn", {"level": 3})
    ex = rb.excerpt(link, "pl", opts)
    assert ex.section.id == "jokers" and ex.book.lang == "pl"
    assert [m.block.anchor for m in ex.focus] == ["level3"]
    assert ex.focus[0].status == "in_force"
    assert ex.focus[0].block.text.startswith("Poziom 3")
    knock = rb.excerpt(rb.link_for("gin", "", "knock_above_limit"), "en")
    assert knock.section.id == "knock"
    assert all(m.status == "in_force" for m in knock.focus)
    assert any("9" in m.block.text for m in knock.focus)
    plain = rb.excerpt(rb.link_for("gin", "", "run_gap"), "sk")
    assert plain.book.lang == "sk" and plain.section.id == "melds"


def test_aliases() -> None:
    """Links written with other names (the checkers' per-§ names) still land."""
    book = rb.load("rummy101", "en")
    found = book.find("notation")
    assert found is not None and found[0].id == "reading"
    found = rb.load("tile_rummy", "pl").find("tiles")
    assert found is not None and found[0].id == "players"


# -- the screen (no page) --------------------------------------------------------------------------
@pytest.fixture
def app(store: Store) -> App:
    return App(store)


def texts(control: Any) -> list[str]:
    """Every Text value (and span text) under ``control``."""
    return visible_texts(control, spans=True)


@pytest.mark.parametrize(("variant", "lang"), BOOKS)
def test_screen_builds(app: App, variant: str, lang: str) -> None:
    view = RulebookView(app, variant, lang=lang)
    assert view.book.lang == lang
    assert list(view.section_panels) == list(rb.SECTION_IDS[variant])
    assert list(view.contents_buttons) == list(rb.SECTION_IDS[variant])
    shown = " ".join(texts(view.view))
    assert view.book.sections[0].title in shown


def test_routes(app: App, store: Store) -> None:
    app.show("/rules")
    assert isinstance(app.screen, RulebookView) and app.screen.variant == "rummy101"
    app.show("/rules/gin/knock")
    screen = app.screen
    assert isinstance(screen, RulebookView) and screen.target_section == "knock"
    app.show("/rules/tile_rummy/level3")
    screen = app.screen
    assert isinstance(screen, RulebookView)
    assert screen.target_section == "jokers" and screen.target_block is not None
    app.show("/rules/rummy101/notation")
    assert isinstance(app.screen, RulebookView) and app.screen.target_section == "reading"
    for bad in ("/rules/poker", "/rules/gin/knock/extra", "/game/nope/rules"):
        app.show(bad)
        assert not isinstance(app.screen, RulebookView), bad
    game = store.create_game(games.new_game("tile_rummy", ["Ala", "Ola"], {"preset": "tiles50"}))
    app.show(f"/game/{game.id}/rules/opening")
    screen = app.screen
    assert isinstance(screen, RulebookView)
    assert screen.game is not None and screen.options["initial_meld"] == 50
    assert screen.preset_chips is None
    assert screen.view.route == f"/game/{game.id}/rules/opening"
    marked = dict(
        (m.block.anchor, m.status) for m, _c in screen.block_controls["jokers"] if m.block.anchor
    )
    assert marked["level4"] == "in_force"
    shown = " ".join(texts(screen.view))
    assert "In force. The initial meld needs 50 points in this game." in shown
    assert "Ala, Ola" in shown


def test_screen_handlers(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    view = RulebookView(app, "tile_rummy", lang="en")
    level = {m.block.anchor: m.status for m, _c in view.block_controls["jokers"] if m.block.anchor}
    assert level["level4"] == "not_in_force"
    assert view.preset_chips is not None
    view.preset_chips.pick("tiles50")
    level = {m.block.anchor: m.status for m, _c in view.block_controls["jokers"] if m.block.anchor}
    assert level["level4"] == "in_force" and view.options["initial_meld"] == 50
    view.lang_chips.pick("pl")
    assert view.book.lang == "pl" and not view.fallback_note.visible
    assert "Użycie jokerów" in " ".join(texts(view.view))
    view.lang_chips.pick("sk")
    assert view.book.lang == "sk" and not view.fallback_note.visible
    assert "Žolíky" in " ".join(texts(view.view))
    written = rb.languages
    monkeypatch.setattr(rb, "languages", lambda v: tuple(x for x in written(v) if x != "sk"))
    view.lang_chips.pick("pl")
    view.lang_chips.pick("sk")
    assert view.book.lang == "en" and view.fallback_note.visible
    view.variant_chips.pick("gin")
    assert isinstance(app.screen, RulebookView) and app.screen.variant == "gin"
    view.go_to("jokers")  # no page: nothing to scroll, no error


def test_rule_button_and_excerpt(app: App) -> None:
    button = rule_button(app, "gin", "RULES.md §5", "knock_above_limit", "round")
    assert isinstance(button, ft.OutlinedButton)
    assert "Knock" in " ".join(texts(button))
    assert button.on_click is not None
    button.on_click(None)  # type: ignore[call-arg,arg-type]
    assert app.route == "/rules/gin/knock"
    answer = {
        "ok": True,
        "valid": False,
        "reason": "joker_rule",
        "rule": "RULES.md §4, seed 001",
        "level": 2,
    }
    panel = rule_excerpt(app, "tile_rummy", answer, check="turn")
    shown = " ".join(texts(panel))
    assert "Level 2, match from the rack" in shown and "Rules: Tile Rummy › Jokers" in shown
