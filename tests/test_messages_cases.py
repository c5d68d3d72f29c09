"""A meld of the table named after a preposition is declined (tester report: Slovak "K zostava 1
zo stola pred ťahom …", Polish "Do układ 1 ze stołu …"). The translations ask the case they need
(``{before.gen}``, ``{before.dat}``, ``{after.loc}``); the meld reference carries its case forms
(:class:`app.verdict_render.Inflected`). English is unchanged.

Templates with a meld reference after a preposition (checked below, pl / sk):
``r101.turn.lay_off_before_opening`` (do + gen / k + dat), ``r101.turn.joker_before_opening``
(z + gen / zo + gen), ``r101.turn.joker_wrong_tile`` (w + loc twice / v + loc). The other
templates naming a table meld put it first, after a colon or in brackets (nominative).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from app import verdict_render
from app.i18n import use_language
from rules.judge import answer
from rules.messages import MESSAGES, Plural
from tests.test_messages import LINES

BEFORE = {"key": "turn.meld", "params": {"field": "table_before[0]", "tiles": "R3 R4 R5"}}
AFTER = {"key": "turn.meld", "params": {"field": "table_after[1]", "tiles": "R3 R4 R5 R6"}}
MELD_PARAMS = ("meld", "before", "after")

# a preposition directly followed by the nominative of the meld's noun is the fault
NOMINATIVE_AFTER_PREPOSITION = {
    "pl": re.compile(r"\b(do|z|ze|w|we|od|przy|o|dla|u) układ\b", re.IGNORECASE),
    "sk": re.compile(r"\b(k|ku|z|zo|v|vo|o|pri|od|do|u) zostava\b", re.IGNORECASE),
}


def _template(key: str) -> str:
    t = MESSAGES[key]
    return t.one if isinstance(t, Plural) else t


def _meld_keys() -> list[str]:
    """Every template taking a table meld (``turn.meld``) as ``meld``/``before``/``after``
    (gin's ``gin.lays_off`` names the meld by its cards: no noun to decline)."""
    return sorted(
        k
        for k in MESSAGES
        if k != "gin.lays_off" and any("{" + p + "}" in _template(k) for p in MELD_PARAMS)
    )


def _params(key: str) -> dict[str, Any]:
    names = set(re.findall(r"\{(\w+)", _template(key)))
    out: dict[str, Any] = dict.fromkeys(names, 7)
    out.update({n: "R6" for n in names & {"tile", "joker"}})
    out.update({"why": {"key": "meld.empty_meld", "params": {}}} if "why" in names else {})
    out.update({n: BEFORE for n in names & {"meld", "before"}})
    out.update({n: AFTER for n in names & {"after"}})
    return out


def _render(lang: str, key: str) -> str:
    with use_language(lang):
        return verdict_render.render_key(key, _params(key))


@pytest.mark.parametrize(
    ("lang", "key", "wanted"),
    [
        ("pl", "r101.turn.lay_off_before_opening", "do układu 1 ze stołu przed turą (R3 R4 R5) "),
        ("sk", "r101.turn.lay_off_before_opening", "k zostave 1 zo stola pred ťahom (R3 R4 R5) "),
        ("pl", "r101.turn.joker_before_opening", "joker z układu 1 ze stołu przed turą (R3 R4 "),
        ("sk", "r101.turn.joker_before_opening", "žolík zo zostavy 1 zo stola pred ťahom (R3 "),
        ("pl", "r101.turn.joker_wrong_tile", "joker w układzie 1 ze stołu przed turą (R3 R4 "),
        ("pl", "r101.turn.joker_wrong_tile", "a w układzie 2 na stole po turze (R3 R4 R5 R6) "),
        ("sk", "r101.turn.joker_wrong_tile", "žolík v zostave 1 zo stola pred ťahom (R3 R4 "),
        ("sk", "r101.turn.joker_wrong_tile", "a zostava 2 na stole po ťahu (R3 R4 R5 R6) ho"),
    ],
)
def test_a_meld_after_a_preposition_is_declined(lang: str, key: str, wanted: str) -> None:
    assert wanted in _render(lang, key)


def test_every_template_naming_a_meld_is_checked() -> None:
    keys = _meld_keys()
    assert "r101.turn.lay_off_before_opening" in keys
    assert len(keys) >= 20, keys


@pytest.mark.parametrize("lang", ["pl", "sk"])
def test_no_template_puts_the_nominative_after_a_preposition(lang: str) -> None:
    for key in _meld_keys():
        text = _render(lang, key)
        assert "{" not in text, (key, text)
        assert not NOMINATIVE_AFTER_PREPOSITION[lang].search(text), (key, text)
    for ln in LINES:  # the real answers' lines too
        with use_language(lang):
            text = verdict_render.render(ln)
        assert not NOMINATIVE_AFTER_PREPOSITION[lang].search(text), (ln, text)


def test_english_is_unchanged() -> None:
    with use_language("en"):
        assert verdict_render.render_key(
            "r101.turn.lay_off_before_opening", _params("r101.turn.lay_off_before_opening")
        ).startswith("tiles were laid off onto table before, meld 1 (R3 R4 R5) before the ")
        assert verdict_render.field_words("table_after[2]") == "table after, meld 3"
        assert verdict_render.field_words("melds[0]") == "meld 1"


def test_a_real_rummy101_verdict_is_declined() -> None:
    """The tester's turn: a lay-off onto R3 R4 R5 before one's own opening."""
    req = {
        "check": "turn",
        "variant": "rummy101",
        "rack": "R6 K2 K9",
        "table_before": [["R3", "R4", "R5"]],
        "table_after": [["R3", "R4", "R5", "R6"]],
        "opened": "none",
    }
    a = answer(req)
    assert a["reason"] == "lay_off_before_opening"
    with use_language("pl"):
        assert verdict_render.verdict_message(a, req).startswith(
            "Do układu 1 ze stołu przed turą (R3 R4 R5) dołożono"
        )
    with use_language("sk"):
        assert verdict_render.verdict_message(a, req).startswith(
            "K zostave 1 zo stola pred ťahom (R3 R4 R5) boli priložené"
        )
    with use_language("en"):
        assert verdict_render.verdict_message(a, req).startswith(
            "Tiles were laid off onto table before, meld 1 (R3 R4 R5)"
        )


def test_a_case_of_a_param_without_cases_is_the_text_itself() -> None:
    x = verdict_render.Inflected("R6")
    assert "{t.gen} {t.loc} {t}".format_map({"t": x}) == "R6 R6 R6"  # as a translation does
    with pytest.raises(AttributeError):
        _ = x.nominative  # type: ignore[attr-defined]
