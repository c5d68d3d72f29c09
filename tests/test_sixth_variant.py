"""A sixth variant needs one new module, its rule book, translations and a round-entry form,
and nothing else in ``app/ui/`` (issue 14, "done when").

A child process imports the engine from a copy of ``rules/`` with one file added,
``rules/variants/quick_tiles.py`` (:data:`NEW_MODULE`): its ``VARIANT`` registers "Quick
Tiles" (Tile Rummy's pieces and functions, its own name, preset — initial meld 25 — and seed
line); nothing else of the engine is changed or patched. Its rule book is :data:`RULE_BOOK`,
written beside a copy of
``app/rulebook/``. Then the child drives the app without a page: the judge, the app's adapter,
the names shown, the new-game form and its options, the checkers (their kinds, a verdict's
rule button and the book it opens), the round entry, the score sheet. The tests below read
what it saw.

What a sixth variant does add outside its module, by name (:data:`NAME_KEYED`): its
rule-book files, its blurb and display name for the translators (``labels``), and its entry
in the round-entry forms (``entry_forms.FORMS``); :func:`test_no_view_names_a_variant` keeps
every other screen module free of variant names.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules.variant import TILE_RUMMY

ROOT = Path(__file__).resolve().parents[1]
NAME = "quick_tiles"

NEW_MODULE = '''"""Quick Tiles: Tile Rummy with an initial meld of 25 (the sixth variant)."""
import dataclasses
from types import MappingProxyType

from rules.options import TileRummyOptions
from rules.variant import TILE_RUMMY

VARIANT = dataclasses.replace(
    TILE_RUMMY,
    name="quick_tiles",
    display_name="Quick Tiles",
    meld_rules=dataclasses.replace(TILE_RUMMY.meld_rules, variant="quick_tiles"),
    presets=MappingProxyType({"quick": TileRummyOptions(preset="quick", initial_meld=25)}),
    seed="seed 005",
)
'''
"""The sixth variant's module, ``rules/variants/quick_tiles.py``: its description (``VARIANT``,
which registers it), played by Tile Rummy's functions under its own name and preset."""

SECTIONS = TILE_RUMMY.sections  # Quick Tiles keeps its parent's book layout
RULE_BOOK = (
    "---\nvariant: quick_tiles\nlang: en\ntitle: Quick Tiles\nsource: a test\n---\n\n"
    + "\n".join(
        f"## {s.title()} {{#{s}}}\n\nThe {s} of Quick Tiles.\n"
        + ("\n[option:initial_meld] The initial meld needs 25 points.\n" if s == "opening" else "")
        for s in SECTIONS
    )
)
"""A tiny rule book: the sections of Tile Rummy, one line each."""

NAME_KEYED: dict[str, str] = {
    "app/rulebook/<lang>/quick_tiles.md": "its rule book, in each language",
    "app/ui/common/labels.py": "its blurb and name for the translators (VARIANT_BLURBS, "
    "DISPLAY_NAMES)",
    "app/ui/entry/entry_forms.py": "its round-entry form (FORMS)",
}
"""Everything the app keeps by a variant's name: a sixth variant adds an entry here and
nowhere else in app/ui/ (:func:`test_no_view_names_a_variant`)."""


# -- the child process ------------------------------------------------------------------------
def _engine(folder: Path) -> Path:
    """A copy of ``rules/`` with the sixth variant's module added to ``rules/variants/``: the
    only change to the engine (the child imports the engine from here, the app from ROOT)."""
    engine = folder / "engine"
    shutil.copytree(ROOT / "rules", engine / "rules", ignore=shutil.ignore_patterns("__pycache__"))
    (engine / "rules" / "variants" / f"{NAME}.py").write_text(NEW_MODULE, encoding="utf-8")
    return engine


def _scenario(folder: Path) -> dict[str, Any]:
    """Everything the app does with the sixth variant, each step's answer or its error."""
    import rules

    assert Path(rules.__file__).is_relative_to(folder), rules.__file__  # the copy with it
    import flet as ft

    from app import games
    from app import rulebook as rb
    from app.games import variants
    from app.store import Store
    from app.ui.common import labels
    from app.ui.entry import entry_forms
    from app.ui.entry.round_entry import RoundEntry
    from app.ui.home.new_game import NewGame
    from app.ui.home.rulebook_view import RulebookView
    from app.ui.referee import checkers
    from app.ui.shell import App
    from rules import judge
    from tests.test_checkers import tap, text, walk

    books = folder / "rulebook"
    shutil.copytree(rb.CONTENT_DIR, books)
    (books / "en" / f"{NAME}.md").write_text(RULE_BOOK, encoding="utf-8")
    rb.CONTENT_DIR = books  # type: ignore[misc]

    seen: dict[str, Any] = {}

    def step(name: str, do: Callable[[], Any]) -> None:
        try:
            seen[name] = do()
        except Exception as e:  # noqa: BLE001 - each step says what broke
            seen[name] = {"broke": f"{type(e).__name__}: {e}", "where": traceback.format_exc()}

    store = Store(folder / "games.json")
    app = App(store)
    app.show("/")

    # the engine
    opening = {"check": "opening", "variant": NAME, "melds": [["R8", "R9", "R10"]]}
    step("opening", lambda: judge.answer(opening))
    step("opening_tile_rummy", lambda: judge.answer({**opening, "variant": "tile_rummy"}))
    turn = {
        "check": "turn",
        "variant": NAME,
        "opened": True,
        "rack": ["R4", "B9"],
        "table_before": [["R1", "R2", "R3"]],
        "table_after": [["R1", "R2", "R3", "R4"], ["B9"]],
    }
    step("turn", lambda: judge.answer(turn))

    # the adapter and the names shown
    def about() -> dict[str, Any]:
        info = variants.about(NAME)
        return {
            "keys": list(variants.VARIANT_KEYS),
            "players": list(info.players),
            "presets": list(info.presets),
            "turn_times": list(info.turn_times or ()),
            "penalty_tiles": info.penalty_tiles,
            "agreed_end": info.agreed_end,
            "name": labels.variant_name(NAME),
            "blurb": labels.variant_blurb(NAME),
            "preset_name": labels.preset_name("quick"),
        }

    step("about", about)

    # the rule book
    def book() -> dict[str, Any]:
        b = rb.load(NAME, "en")
        return {
            "variants": list(rb.VARIANTS),
            "sections": list(rb.SECTION_IDS[NAME]),
            "problems": rb.validate(b),
            "pl_falls_back": rb.book_for(NAME, "pl")[1],
            "opening_link": rb.link_for_answer(NAME, judge.answer(opening), "opening").route(),
        }

    step("book", book)

    # the new-game form
    def new_game() -> dict[str, Any]:
        app.show("/new")
        ng = app.screen
        assert isinstance(ng, NewGame)
        ng.variant.pick(NAME)
        assert ng.options is not None
        fields = sorted(ng.options.fields)
        ng.count.set(2, notify=True)
        for field, name in zip(ng.names, ("Ala", "Ola"), strict=False):
            field.value = name
        ng._names_changed()
        ng.start()
        listed = store.list_games()
        assert listed, f"not started: {ng.error.value!r}"
        game = store.load_game(listed[0].id)
        return {
            "variant_chips": list(ng.variant.chips),
            "fields": fields,
            "initial_meld": ng.options.fields["initial_meld"].read(),
            "game": [game.variant, game.options.get("preset"), list(game.players)],
            "screen": type(app.screen).__name__,
            "id": game.id,
        }

    step("new_game", new_game)
    game_id = seen["new_game"].get("id") if "broke" not in seen["new_game"] else None

    # the checkers
    def checker() -> dict[str, Any]:
        app.show(f"/check/meld?variant={NAME}")
        screen = app.screen
        assert isinstance(screen, checkers.MeldChecker)
        tap(screen.keyboard, "R12", "R13", "R1")
        buttons = [
            b
            for b in walk(screen.verdict)
            if isinstance(b, ft.OutlinedButton) and b.icon == ft.Icons.MENU_BOOK
        ]
        label = buttons[0].content.value  # type: ignore[union-attr]
        buttons[0].on_click(None)
        opened = app.screen
        return {
            "kinds": checkers.kinds_for(NAME),
            "verdict": text(screen.verdict),
            "button": label,
            "route": app.route,
            "book": type(opened).__name__,
            "section": getattr(opened, "target_section", None),
        }

    step("checker", checker)

    # the round entry: first without a form of its own, then with Tile Rummy's
    def round_entry() -> dict[str, Any]:
        game = store.load_game(game_id)
        before: str
        try:
            RoundEntry(app, game)
            before = "built"
        except KeyError as e:
            before = f"KeyError: {e}"
        entry_forms.FORMS[NAME] = entry_forms.FORMS["tile_rummy"]
        app.show(f"/game/{game_id}/round")
        screen = app.screen
        assert isinstance(screen, RoundEntry)
        entry = {
            "players": [
                {"name": "Ala", "winner": True, "hand": []},
                {"name": "Ola", "hand": ["R5", "B7"]},
            ]
        }
        saved = store.save_game(games.add_round(game, entry), game.version)
        app.show(f"/game/{game_id}")
        return {
            "without_form": before,
            "form": type(screen.form).__name__,
            "scores": saved.rounds[0].result.get("scores"),
            "sheet": type(app.screen).__name__,
            "rule_section": saved.rounds[0].result["rule_ref"]["section"],
        }

    step("round_entry", round_entry if game_id else lambda: {"broke": "no game"})

    def rule_book_screen() -> dict[str, Any]:
        app.show(f"/rules/{NAME}/opening")
        screen = app.screen
        assert isinstance(screen, RulebookView)
        return {"section": screen.target_section, "text": "25 points" in text(screen.view)}

    step("rule_book_screen", rule_book_screen)
    store.close()
    return seen


if __name__ == "__main__":
    print(json.dumps(_scenario(Path(sys.argv[1])), default=str))
    sys.exit(0)


# -- the tests --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("sixth")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(_engine(folder)), str(ROOT)]))
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), str(folder)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    got: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return got


def _ok(seen: dict[str, Any], step: str) -> dict[str, Any]:
    got = seen[step]
    assert "broke" not in got, f"{step}: {got['broke']}\n{got.get('where', '')}"
    return got


def test_the_judge_answers_for_the_sixth_variant(seen: dict[str, Any]) -> None:
    """The initial meld of 27 is enough at 25 (Tile Rummy's 30 refuses it); a turn leaving a
    lone B9 is refused; every answer names a section of the sixth variant's book."""
    opening = _ok(seen, "opening")
    assert opening["ok"] and opening["valid"] is True, opening
    assert opening["rule_ref"]["variant"] == NAME and opening["rule_ref"]["section"] == "opening"
    assert seen["opening_tile_rummy"]["valid"] is False
    assert seen["opening_tile_rummy"]["reason"] == "below_threshold"
    turn = _ok(seen, "turn")
    assert turn["valid"] is False and turn["rule_ref"]["section"] in SECTIONS, turn


def test_the_adapter_and_the_names_come_from_the_description(seen: dict[str, Any]) -> None:
    about = _ok(seen, "about")
    assert about["keys"][5:].count(NAME) == 1  # after the five
    assert about["players"] == [2, 4] and about["presets"] == ["quick"]
    assert about["turn_times"] == [20, 120] and about["penalty_tiles"] == 3
    assert about["agreed_end"] == "options"
    assert about["name"] == "Quick Tiles"
    assert about["blurb"] == ""  # no blurb written for the translators yet: none shown
    assert about["preset_name"] == "quick"  # likewise, its own preset's name


def test_its_rule_book_loads_and_verdicts_link_into_it(seen: dict[str, Any]) -> None:
    book = _ok(seen, "book")
    assert book["variants"][5:].count(NAME) == 1 and book["sections"] == list(SECTIONS)
    assert book["problems"] == [] and book["pl_falls_back"] is True
    assert book["opening_link"] == f"/rules/{NAME}/opening"
    screen = _ok(seen, "rule_book_screen")
    assert screen == {"section": "opening", "text": True}


def test_the_new_game_form_offers_it_with_its_options(seen: dict[str, Any]) -> None:
    got = _ok(seen, "new_game")
    assert NAME in got["variant_chips"]
    assert "initial_meld" in got["fields"] and "joker_rule" in got["fields"]
    assert got["initial_meld"] == 25
    assert got["game"] == [NAME, "quick", ["Ala", "Ola"]]
    assert got["screen"] == "ScoreSheet"


def test_the_checkers_offer_its_checks_and_link_its_book(seen: dict[str, Any]) -> None:
    got = _ok(seen, "checker")
    assert got["kinds"] == ["meld", "opening", "turn"]
    assert "12-13-1" in got["verdict"]
    assert got["button"].startswith("Rules: Quick Tiles › "), got["button"]
    assert got["route"].startswith(f"/rules/{NAME}/melds"), got["route"]
    assert got["book"] == "RulebookView" and got["section"] == "melds"


def test_the_round_entry_needs_only_its_form(seen: dict[str, Any]) -> None:
    """Without an entry in ``entry_forms.FORMS`` the round entry cannot be built (the one
    name-keyed table a screen keeps); with Tile Rummy's form the round is entered, judged by
    the sixth variant's module and saved."""
    got = _ok(seen, "round_entry")
    assert got["without_form"].startswith("KeyError"), got
    assert got["form"] == "TilesForm"
    assert got["scores"] == {"Ala": 12, "Ola": -12}  # R5 + B7, the winner collects
    assert got["sheet"] == "ScoreSheet" and got["rule_section"] == "scoring"


def test_no_view_names_a_variant() -> None:
    """No module of app/ui/ holds a variant's name as a string, but the translators' words
    and the round-entry forms (``gin`` is left out: it is also a round's result)."""
    names = {"rummy101", "tile_rummy", "my_rummy", "carousel"}
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "app" / "ui").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value in names:
                found.setdefault(str(path.relative_to(ROOT)), set()).add(str(node.value))
    assert set(found) <= set(NAME_KEYED), found
    assert found, "the scan finds the forms and the translators' words"
