"""Characterisation of the judge's answers (issue 15, step 1).

``tests/data/characterisation.jsonl`` holds ~1,700 real answers: the public judge examples,
every request the test suite sent to the judge when it was recorded, and a seeded random sample
of every check and variant (``tests/characterisation_gen.py``). Every field recorded there —
the English ``message``, each ``why`` and ``breakdown`` line, ``rule``, the numbers — must come
back byte for byte; answers may gain fields (JUDGE.md: fields are only added).

When an English output is meant to change, regenerate the fixture with
``python tests/characterisation_gen.py`` and review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules.judge import answer
from rules.variant import BUILT_IN, REGISTRY

FIXTURE = Path(__file__).parent / "data" / "characterisation.jsonl"
RECORDS = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]
ADDED = tuple(v.name for v in REGISTRY[len(BUILT_IN) :])
"""Variants a module of rules/variants/ added after the fixture was recorded: the answers that
list every variant (an unknown variant, a check a variant does not answer) name them last."""


def as_recorded(got: Any) -> Any:
    """``got`` as the fixture's five-variant world says it (the added variants' names left
    out of the lists of variants)."""
    if not ADDED:
        return got
    text = json.dumps(got, ensure_ascii=False)
    for name in ADDED:
        text = text.replace(f", {name}", "")
    return json.loads(text)


def differences(want: Any, got: Any, where: str = "") -> list[str]:
    """Where ``got`` differs from ``want``; dicts in ``got`` may hold more keys."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return [f"{where}: expected an object, got {got!r}"]
        out: list[str] = []
        for k, v in want.items():
            if k not in got:
                out.append(f"{where}.{k}: missing")
            else:
                out += differences(v, got[k], f"{where}.{k}")
        return out
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return [f"{where}: expected {want!r}, got {got!r}"]
        pairs = enumerate(zip(want, got, strict=True))
        return [d for i, (w, g) in pairs for d in differences(w, g, f"{where}[{i}]")]
    if want != got or type(want) is not type(got):
        return [f"{where}: expected {want!r}, got {got!r}"]
    return []


def test_the_sample_covers_every_check_and_variant() -> None:
    seen = {(r["request"].get("check"), r["request"].get("variant")) for r in RECORDS}
    for check, variants in {
        "meld": ("rummy101", "tile_rummy", "my_rummy", "gin", "carousel"),
        "opening": ("rummy101", "tile_rummy", "my_rummy"),
        "turn": ("tile_rummy", "my_rummy", "carousel"),
        "split": ("tile_rummy", "my_rummy", "rummy101", "carousel"),
        "hand": ("gin", "carousel"),
        "round": ("rummy101", "tile_rummy", "my_rummy", "gin", "carousel"),
        "game": ("rummy101", "tile_rummy", "my_rummy", "gin", "carousel"),
    }.items():
        for v in variants:
            assert (check, v) in seen, (check, v)
    assert sum(1 for r in RECORDS if r["answer"].get("ok") is False) > 100
    assert sum(1 for r in RECORDS if r["answer"].get("valid") is False) > 400


@pytest.mark.parametrize("start", range(0, len(RECORDS), 100))
def test_recorded_answers_come_back_unchanged(start: int) -> None:
    problems: list[str] = []
    for rec in RECORDS[start : start + 100]:
        diff = differences(rec["answer"], as_recorded(answer(rec["request"])))
        if diff:
            problems.append(json.dumps(rec["request"], ensure_ascii=False)[:300])
            problems += ["    " + d[:400] for d in diff[:5]]
    assert not problems, "\n".join(problems)
