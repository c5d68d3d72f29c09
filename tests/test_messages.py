"""The message catalogue (issue 15): every key renders in English, Polish and Slovak with
every placeholder filled, answers carry the keys their English message was rendered from, and
a wording edit of a template cannot silently make the Polish verdict state another rule.

The lines checked are those of real answers: the ~1,700 requests of
``tests/data/characterisation.jsonl``, answered again now.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from app import verdict_render
from app.i18n import LOCALE_DIR, use_language
from rules import messages
from rules.judge import answer
from rules.messages import MESSAGES, Plural
from rules.verdict import english

PLACEHOLDER = re.compile(r"\{\w*(?:![rsa])?\}")
"""An unfilled ``{name}`` (a JSON example such as ``{"heap": …}`` is text, not a placeholder)."""
FIXTURE = Path(__file__).parent / "data" / "characterisation.jsonl"
REQUESTS = [json.loads(line)["request"] for line in FIXTURE.read_text("utf-8").splitlines()]


def lines_of(value: Any) -> Iterator[Mapping[str, Any]]:
    """Every ``{"key", "params"}`` line in an answer, nested ones included."""
    if isinstance(value, Mapping):
        if isinstance(value.get("key"), str) and value["key"] in MESSAGES:
            yield {"key": value["key"], "params": value.get("params") or {}}
        for k, v in value.items():
            if k != "key":
                yield from lines_of(v)
    elif isinstance(value, list):
        for v in value:
            yield from lines_of(v)


ANSWERS = [answer(r) for r in REQUESTS]
LINES = [ln for a in ANSWERS for ln in lines_of(a)]


def _po(lang: str) -> dict[str, Any]:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return {(m.id if isinstance(m.id, str) else m.id[0]): m for m in read_po(f) if m.id}


def test_real_answers_carry_keys() -> None:
    keyed = {ln["key"] for ln in LINES}
    assert len(LINES) > 800
    assert len(keyed) > 60
    for prefix in (
        "meld.",
        "opening.",
        "initial.",
        "split.",
        "token.",
        "copies.",
        "field.",
        "turn.",
        "joker.",
    ):
        assert any(k.startswith(prefix) for k in keyed), prefix


def test_every_reason_and_error_code_is_declared() -> None:
    for a in ANSWERS:
        if a.get("ok") is False:
            assert a["error"] in messages.ERRORS, a
        elif a.get("reason") is not None:
            assert a["reason"] in messages.REASONS, a


def test_the_english_message_is_rendered_from_the_answers_key() -> None:
    for a in ANSWERS:
        if isinstance(a.get("key"), str) and "message" in a:  # gin hand, valid split: no text
            text = english(a["key"], _nested(a["params"]))
            assert a["message"].startswith(text), (a["message"], text)


def _nested(params: Mapping[str, Any]) -> dict[str, Any]:
    from rules.verdict import Line

    out: dict[str, Any] = {}
    for k, v in params.items():
        out[k] = Line(v["key"], _nested(v["params"])) if isinstance(v, Mapping) else v
    return out


def test_no_english_fallback_line_reaches_an_answer() -> None:
    """``token.text`` / ``where.text`` carry English text; no real answer may use them."""
    assert not [ln for ln in LINES if ln["key"] in ("token.text", "where.text")]


@pytest.mark.parametrize("lang", ["en", "pl", "sk"])
def test_every_recorded_line_renders_with_every_placeholder_filled(lang: str) -> None:
    with use_language(lang):
        for ln in LINES:
            text = verdict_render.render(ln)  # a missing placeholder raises KeyError
            assert text and not PLACEHOLDER.search(text), (ln, text)


@pytest.mark.parametrize("lang", ["pl", "sk"])
def test_recorded_lines_are_translated(lang: str) -> None:
    """No line of a real answer reads in English in Polish or Slovak: its template (and every
    nested one) is translated."""
    po = _po(lang)
    missing: set[str] = set()

    def check(ln: Mapping[str, Any]) -> None:
        t = MESSAGES[ln["key"]]
        msgid = t.one if isinstance(t, Plural) else t
        entry = po.get(msgid)
        strings = entry.string if entry is not None else ""
        if isinstance(strings, str):
            strings = (strings,)
        if entry is None or entry.fuzzy or not all(strings):
            missing.add(msgid)
        for v in ln["params"].values():
            if isinstance(v, Mapping) and "key" in v:
                check(v)

    for ln in LINES:
        check(ln)
    assert not missing, sorted(missing)


def test_a_wording_edit_of_a_template_cannot_keep_an_old_translation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 15's first scenario: a wording-only edit of an engine message. The English
    template is the message id, so the Polish text follows the edit: until the Polish catalogue
    has the new id the line reads as the new English (and the catalogue tests fail), never as
    the old Polish sentence."""
    key = "initial.tile_not_on_rack"
    ln = {"key": key, "params": {"tiles": "R5"}}
    with use_language("pl"):
        before = verdict_render.render(ln)
    assert "R5" in before and "initial meld" not in before
    edited = "the initial meld has to use the player's own tiles only; {tiles} is not on the rack"
    monkeypatch.setitem(MESSAGES, key, edited)
    with use_language("pl"):
        after = verdict_render.render(ln)
    assert after != before
    assert after == edited.format(tiles="R5")
    assert edited not in _po("pl")  # so test_i18n's "every message translated" fails


def test_dropping_a_param_from_a_line_fails_rather_than_mistranslating() -> None:
    """Issue 15's second scenario: an edit that drops the player's name or the numbers. The
    Polish template still names them, so rendering the line fails loudly."""
    ln = {"key": "opening.below_threshold", "params": {"need": 101}}
    with use_language("pl"), pytest.raises(KeyError):
        verdict_render.render(ln)


def test_plural_templates_pick_the_polish_form() -> None:
    ln = {"key": "opening.too_few_pairs", "params": {"need": 5, "pairs": 3}}
    with use_language("pl"):
        five = verdict_render.render(ln)
        two = verdict_render.render({"key": ln["key"], "params": {"need": 2, "pairs": 1}})
    assert "5" in five and "3" in five and five != two


def test_field_names_read_as_words() -> None:
    with use_language("pl"):
        assert verdict_render.field_words("melds[1]") == "układ 2"
        assert "gracza 2" in verdict_render.field_words("players[1].hand")


MY_RUMMY_EXACT = {
    "check": "turn",
    "variant": "my_rummy",
    "rack": ["R6", "Y1", "Y2"],
    "table_before": [["R3", "R4", "R5", "JK", "R7", "R8"]],
    "table_after": [["R3", "R4", "R5"], ["R6", "R7", "R8"], ["JK", "Y1", "Y2"]],
    "opened": True,
}


def test_the_my_rummy_wording_edit_keeps_the_polish_rule() -> None:
    """Issue 15's first scenario as it happened: "must go exactly where the joker was" ->
    "has to go…" in the engine's English made the Polish verdict state another rule, because
    the app read the joker stage from the English. The stage is data now."""
    from app import verdict_render

    got = answer(MY_RUMMY_EXACT)
    assert got["reason"] == "joker_rule" and got["stage"] == "my_exact"
    edited = {**got, "message": got["message"].replace("must go", "has to go")}
    with use_language("pl"):
        before = verdict_render.verdict_message(got, MY_RUMMY_EXACT)
        after = verdict_render.verdict_message(edited, MY_RUMMY_EXACT)
    assert before == after
    assert "R6" in before and "dokładnie na miejsce jokera" in before  # the exact-place rule


def test_every_turn_answer_carries_its_key_and_rule() -> None:
    """Issue 15, step 3 for rules/table.py: every turn verdict (valid or not) is a line and a
    structured rule; joker faults also name their level (Tile Rummy) and stage."""
    turns = [
        (r, a)
        for r, a in zip(REQUESTS, ANSWERS, strict=True)
        if r.get("check") == "turn" and a.get("ok")
    ]
    assert len(turns) > 100
    for r, a in turns:
        assert a["key"].startswith(("turn.", "joker.")), a
        assert a["rule_ref"]["variant"] == r["variant"], a
        assert a["rule_ref"]["section"], a
        if a.get("reason") == "joker_rule":
            assert a["key"] == "joker.fault" and a["rule_ref"]["section"] == "jokers"
            assert a["stage"] in (
                "match",
                "rack",
                "no_split",
                "new_meld",
                "my_initial",
                "my_exact",
                "my_other",
            )
            if r["variant"] == "tile_rummy":
                assert a["params"]["rule"]["key"] == f"joker.rule.level{a['level']}"


OPTION_IDS = (
    "match_from_rack",
    "no_split_with_joker",
    "freed_joker_new_meld",
    "manipulate_on_initial_turn",
    "table_before",
    "table_after",
)


@pytest.mark.parametrize("lang", ["pl", "sk"])
def test_turn_lines_read_without_option_ids(lang: str) -> None:
    """The English turn templates name option ids and request fields (the command line shows
    them); Polish and Slovak say them in words."""
    with use_language(lang):
        for r, a in zip(REQUESTS, ANSWERS, strict=True):
            if r.get("check") != "turn" or not a.get("ok"):
                continue
            text = verdict_render.answer_line(a)
            assert text is not None
            assert not [w for w in OPTION_IDS if w in text], text


JOKER_LEVEL_3 = {
    "check": "turn",
    "variant": "tile_rummy",
    "opened": True,
    "options": {"joker_rule": 3},
    "rack": ["R9"],
    "table_before": [["R4", "R5", "JK", "R7", "R8"]],
    "table_after": [["R4", "R5", "JK"], ["R7", "R8", "R9"]],
}


def test_a_joker_level_fault_reads_in_polish_and_slovak() -> None:
    got = answer(JOKER_LEVEL_3)
    assert got["reason"] == "joker_rule" and got["level"] == 3 and got["stage"] == "no_split"
    with use_language("pl"):
        pl = verdict_render.answer_line(got)
    with use_language("sk"):
        sk = verdict_render.answer_line(got)
    assert pl == (
        "Poziom jokera 3 (bez rozdzielania układu z jokerem): układ 1 ze stołu przed turą "
        "(R4 R5 JK R7 R8): zabrano z niego płytki, choć leży w nim joker; żadna płytka nie może "
        "opuścić układu z jokerem, dopóki ten joker nie zostanie najpierw zastąpiony"
    )
    assert sk is not None and sk.startswith("Stupeň žolíka 3 (bez delenia zostavy so žolíkom): ")
    assert "zostava 1 zo stola pred ťahom (R4 R5 JK R7 R8)" in sk


def test_the_my_rummy_wording_edit_of_the_template_changes_the_polish_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same edit made where the English now comes from (the template): the Polish line
    stops stating the old rule (it reads as the edited English until translated)."""
    got = answer(MY_RUMMY_EXACT)
    assert got["params"]["fault"]["key"] == "joker.my_exact"
    with use_language("pl"):
        before = verdict_render.answer_line(got)
    assert before is not None and "dokładnie na miejsce jokera" in before
    old = MESSAGES["joker.my_exact"]
    assert isinstance(old, str)
    monkeypatch.setitem(MESSAGES, "joker.my_exact", old.replace("must go", "has to go"))
    with use_language("pl"):
        after = verdict_render.answer_line(got)
    assert after is not None and "dokładnie na miejsce jokera" not in after
    assert "has to go exactly where the joker was" in after


def _texts(control: Any) -> list[str]:
    """Every text value under a Flet control."""
    out: list[str] = []
    value = getattr(control, "value", None)
    if isinstance(value, str):
        out.append(value)
    for attr in ("controls", "content"):
        child = getattr(control, attr, None)
        for c in child if isinstance(child, list) else [child]:
            if c is not None and not isinstance(c, str):
                out += _texts(c)
    return out


def _strip_keys(value: Any) -> Any:
    """An answer as an older version stored it: English only, no keys."""
    if isinstance(value, Mapping):
        return {
            k: _strip_keys(v)
            for k, v in value.items()
            if k not in ("key", "params", "rule_ref", "breakdown_lines")
        }
    if isinstance(value, list):
        return [_strip_keys(v) for v in value]
    return value


def test_a_round_stored_without_keys_is_judged_again_and_reads_in_polish() -> None:
    """Step 2 of issue 15: a stored round from an earlier version has English lines only; the
    breakdown asks the judge again (same scores), so nothing is parsed from the English."""
    from app import games
    from app.ui.entry.breakdown import breakdown_panel, current_result

    game = games.new_game("carousel", ["Ala", "Ola", "Ewa"])
    entry = {
        "knocker": "Ala",
        "players": [
            {"name": "Ala", "hand": ["AS", "2S"]},
            {"name": "Ola", "hand": ["KD", "QD", "5C"]},
            {"name": "Ewa", "hand": ["AH"]},
        ],
    }
    scored = games.score_round(game, entry)
    assert scored.valid
    old = _strip_keys(scored.breakdown)
    assert current_result(old, game, entry) == scored.breakdown
    with use_language("pl"):
        shown = "\n".join(_texts(breakdown_panel(old, game.players, game, entry)))
        stale = "\n".join(_texts(breakdown_panel(old, game.players)))
    assert "Stukanie z 3, ale wygrywa niższa ręka" in shown, shown
    assert "RULES.md" not in shown
    assert shown != stale  # without the game the stored English is all there is


ENGLISH_WORDS = frozenset(
    [
        "the",
        "and",
        "is",
        "are",
        "not",
        "of",
        "with",
        "must",
        "field",
        "fields",
        "player",
        "players",
        "tile",
        "tiles",
        "card",
        "cards",
        "meld",
        "melds",
        "rack",
        "hand",
        "wins",
        "win",
        "scores",
        "round",
        "rounds",
        "knocks",
        "knocked",
        "lowest",
        "missing",
        "valid",
        "between",
        "only",
        "needs",
        "has",
        "holds",
        "this",
        "these",
        "but",
        "or",
        "than",
        "points",
        "opening",
        "winner",
        "table",
        "before",
        "after",
        "piece",
        "pieces",
        "number",
        "colour",
        "suit",
        "run",
        "group",
        "pair",
        "should",
        "given",
        "jokers",
    ]
)
"""English words that are no Polish or Slovak words ("to", "a", "one", "no" are both)."""
_WORD = re.compile(r"[^\W\d_]+")
_SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def _names_in(ln: Mapping[str, Any]) -> set[str]:
    """Player names and pieces in a line's params (they stay as the players typed them)."""
    out: set[str] = set()
    for v in ln["params"].values():
        if isinstance(v, str):
            out.update(_WORD.findall(v))
        elif isinstance(v, Mapping) and "key" in v:
            out |= _names_in(v)
    return out


@pytest.mark.parametrize("lang", ["pl", "sk"])
def test_recorded_lines_hold_no_english_word_and_no_id(lang: str) -> None:
    """The property of issue 15 over every recorded real answer: in Polish and Slovak no
    English word and no developer id (``joker_rule``, ``table_before``) is left in a line
    (words the players typed, such as their names, excepted)."""
    from app.ui.common import labels
    from rules.variant import REGISTRY

    bad: list[tuple[str, str]] = []
    with use_language(lang):
        names = {labels.variant_name(v.name) for v in REGISTRY}  # product names: "Tile Rummy"
        names |= {labels.preset_name(p) for v in REGISTRY for p in v.presets}
        proper = {w for n in names for w in _WORD.findall(n)}
        for ln in LINES:
            text = verdict_render.render(ln)
            own = _names_in(ln) | proper
            words = {w for w in _WORD.findall(text) if w not in own}
            english_left = {w for w in words if w.lower() in ENGLISH_WORDS}
            ids = set(_SNAKE.findall(text)) - own
            if english_left or ids:
                bad.append((ln["key"], text))
    assert not bad, bad[:20]
