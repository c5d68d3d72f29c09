"""Languages (issue 5, item 5): the catalogues, verdicts in the player's language, and one
language per session (app/i18n.py, app/verdict_render.py, app/ui/home/settings.py, app/main.py)."""

from __future__ import annotations

import ast
import asyncio
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flet as ft
import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from app import i18n, verdict_render
from app.i18n import _, ngettext, use_language
from app.store import Store
from app.ui.shell import App
from rules import judge
from tests.conftest import visible_texts

ROOT = Path(__file__).resolve().parents[1]
PLACEHOLDER = re.compile(r"\{([a-z_]*)(?:\.(?:gen|dat|acc|ins|loc))?(?:![rsa])?\}")
"""A ``{name}``; a translation may ask a meld reference's case: ``{before.gen}``."""


def catalogue(lang: str | None) -> Catalog:
    path = (
        i18n.LOCALE_DIR / "messages.pot"
        if lang is None
        else i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"
    )
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def key(m: Message) -> str:
    return m.id if isinstance(m.id, str) else m.id[0]


def translated(m: Message | None) -> bool:
    if m is None or m.fuzzy:
        return False
    if isinstance(m.string, str):
        return bool(m.string)
    return bool(m.string) and all(m.string)


# -- the catalogues ------------------------------------------------------------------------------
def test_every_message_has_a_polish_translation() -> None:
    pot, po = catalogue(None), catalogue("pl")
    missing = [key(m) for m in pot if m.id and not translated(po.get(m.id, m.context))]
    assert missing == [], "untranslated in pl (edit app/locale/pl/LC_MESSAGES/messages.po)"


MAIN_SCREENS = (
    "games_list.py",
    "new_game.py",
    "options_form.py",
    "score_sheet.py",
    "round_entry.py",
    "entry_forms.py",
    "breakdown.py",
    "checkers.py",
    "keyboard.py",
    "pieces.py",
    "labels.py",
    "settings.py",
    "frame.py",
    "shell.py",
    "router.py",
    "widgets.py",
)
"""The screens Slovak must cover (games list, new game, score sheet, round entry, checkers,
settings, and what they are built of)."""


def test_slovak_covers_the_main_screens_and_the_verdict_headlines() -> None:
    pot, po = catalogue(None), catalogue("sk")
    wanted: set[tuple[str, str | None]] = {
        (key(m), m.context)
        for m in pot
        if m.id and any(Path(loc[0]).name in MAIN_SCREENS for loc in m.locations)
    }
    wanted |= {(h, None) for h in verdict_render.HEADLINES.values()}
    missing = sorted(k for k, ctx in wanted if not translated(po.get(k, ctx)))
    assert len(wanted) > 300
    assert missing == [], "untranslated in sk (edit app/locale/sk/LC_MESSAGES/messages.po)"


@pytest.mark.parametrize("lang", ["pl", "sk"])
def test_placeholders_match(lang: str) -> None:
    """Every ``{name}`` of a translation is the message id's, each form of a plural the plural
    id's; and every translation formats (no stray brace)."""
    for m in catalogue(lang):
        if not m.id or not translated(m):
            continue
        if isinstance(m.id, str):
            assert isinstance(m.string, str)
            forms = [(m.id, m.string)]
        else:
            forms = [(m.id[1], s) for s in m.string]
        for msgid, msgstr in forms:
            want = set(PLACEHOLDER.findall(msgid))
            assert set(PLACEHOLDER.findall(msgstr)) == want, (msgid, msgstr)
            msgstr.format(**dict.fromkeys(want, verdict_render.Inflected("x")))


@pytest.mark.parametrize(
    ("lang", "n", "want"),
    [
        ("pl", 1, "1 runda"),
        ("pl", 3, "3 rundy"),
        ("pl", 5, "5 rund"),
        ("pl", 22, "22 rundy"),
        ("pl", 12, "12 rund"),
        ("sk", 1, "1 kolo"),
        ("sk", 4, "4 kolá"),
        ("sk", 5, "5 kôl"),
        ("en", 1, "1 round"),
        ("en", 2, "2 rounds"),
    ],
)
def test_plural_forms(lang: str, n: int, want: str) -> None:
    with use_language(lang):
        assert ngettext("{n} round", "{n} rounds", n).format(n=n) == want


def test_known_language_codes() -> None:
    assert i18n.known("pl_PL.UTF-8") == "pl"
    assert i18n.known("sk-SK") == "sk"
    assert i18n.known("de_DE") is None
    assert i18n.known(None) is None
    assert i18n.first_known(["de", "sk-SK", "pl"]) == "sk"


def test_system_language(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    assert i18n.system_language() == "pl"
    monkeypatch.setenv("LC_ALL", "sk_SK.UTF-8")
    assert i18n.system_language() == "sk"
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    assert i18n.system_language() == "en"


# -- verdicts in the player's language ---------------------------------------------------------
_VERDICT_CALLS = {"_bad", "bad", "invalid", "impossible_round"}


def engine_reason_codes() -> set[str]:
    """Every reason code in the rules engine's source: first arguments of the verdict helpers,
    ``reason=`` keywords and ``{"reason": …}`` literals (rules/melds.py, rules/table.py,
    rules/scoring.py, rules/checks/*.py, rules/variants/*.py, rules/search/split.py)."""
    files = [ROOT / "rules" / n for n in ("melds.py", "table.py", "scoring.py")]
    files += sorted((ROOT / "rules" / "variants").glob("*.py"))
    files += sorted((ROOT / "rules" / "checks").glob("*.py"))
    files += [ROOT / "rules" / "search" / "split.py"]
    codes: set[str] = set()
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                fn = node.func
                name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
                if name in _VERDICT_CALLS and node.args:
                    a = node.args[0]
                    if isinstance(a, ast.Constant) and isinstance(a.value, str):
                        codes.add(a.value)
                for kw in node.keywords:
                    if kw.arg == "reason" and isinstance(kw.value, ast.Constant):
                        codes.add(str(kw.value.value))
            if isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values, strict=True):
                    if (
                        isinstance(k, ast.Constant)
                        and k.value == "reason"
                        and isinstance(v, ast.Constant)
                        and isinstance(v.value, str)
                    ):
                        codes.add(v.value)
    return codes


def engine_error_codes() -> set[str]:
    """Every ``error`` code of an ``ok: false`` answer: the codes of rules/errors.py's classes
    and every string given as a RulesError's code or to the judge's ``error(…)``."""
    codes: set[str] = set()
    for path in sorted((ROOT / "rules").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                fn = node.func
                name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
                args = node.args
                if (name.endswith("Error") or name == "keyed") and len(args) >= 2:
                    a = args[1]
                elif name == "error" and args:
                    a = args[0]
                else:
                    continue
                if isinstance(a, ast.Constant) and isinstance(a.value, str):
                    codes.add(a.value)
            if (
                path.name == "errors.py"
                and isinstance(node, ast.Assign)
                and [getattr(t, "id", "") for t in node.targets] == ["code"]
                and isinstance(node.value, ast.Constant)
            ):
                codes.add(str(node.value.value))
    return {c for c in codes if re.fullmatch(r"[a-z]+(_[a-z]+)+", c)}


def test_the_engine_scan_finds_the_codes() -> None:
    codes = engine_reason_codes()
    for code in ("run_gap", "below_threshold", "joker_rule", "knock_above_limit", "no_split"):
        assert code in codes
    assert len(codes) >= 45
    errors = engine_error_codes()
    assert {"bad_token", "too_many_copies", "missing_field", "bad_field"} <= errors


def test_every_reason_code_of_the_engine_is_worded() -> None:
    assert engine_reason_codes() - verdict_render.REASONS == set()
    assert engine_error_codes() - verdict_render.ERRORS == set()


@pytest.mark.parametrize("code", sorted(verdict_render.REASONS))
def test_each_reason_reads_in_polish_even_without_its_numbers(code: str) -> None:
    answer = {"ok": True, "valid": False, "reason": code, "message": "ENGLISH", "rule": "§2"}
    with use_language("pl"):
        text = verdict_render.verdict_message(answer)
        head = verdict_render.headline(code)
    assert text and "ENGLISH" not in text
    assert text == head  # an answer without a key: its headline, no rule arithmetic
    assert head and head != verdict_render.HEADLINES[code]
    assert "{" not in text


@pytest.mark.parametrize("code", sorted(verdict_render.ERRORS))
def test_each_error_reads_in_polish(code: str) -> None:
    with use_language("pl"):
        text = verdict_render.error_message({"ok": False, "error": code, "message": "detail"})
    assert text
    assert not text.startswith("detail")


VERDICTS: list[tuple[dict[str, Any], list[str]]] = [
    (
        {"check": "meld", "variant": "rummy101", "meld": ["R11", "R12", "JK"]},
        ["Prawidłowa seria warta 36"],
    ),
    (
        {"check": "meld", "variant": "rummy101", "meld": ["R1", "R2", "R5"]},
        ["między 1 a 5 brakuje 2", "jest tylko 0"],
    ),
    (
        {"check": "meld", "variant": "rummy101", "meld": ["R12", "R13", "R1"]},
        ["12-13-1 to nie jest seria"],
    ),
    (
        {"check": "meld", "variant": "rummy101", "meld": ["R7", "R7", "K7"], "as": "group"},
        ["kolor czerwony występuje dwa razy"],
    ),
    (
        {"check": "meld", "variant": "rummy101", "meld": ["R7", "B7", "K7", "Y7", "JK"]},
        ["najwyżej 4 płytki; ta ma 5"],
    ),
    (
        {"check": "meld", "variant": "gin", "meld": ["AS", "2H", "3S"]},
        ["Ani seria (kolejne wartości, jeden kolor)"],
    ),
    (
        {"check": "opening", "variant": "rummy101", "melds": [["R1", "R2", "R3"]]},
        ["Otwarcie wymaga 101 punktów w jednej turze; te układy dają 6"],
    ),
    (
        {"check": "opening", "variant": "rummy101", "melds": [["R5", "R5"], ["B5", "B5"]]},
        ["wymaga 5 par; jest ich tu: 2"],
    ),
    (
        {"check": "opening", "variant": "rummy101", "melds": [["R1", "R2", "R5"]]},
        ["Układ 1 (R1 R2 R5) nie jest prawidłowym układem: seria wymaga kolejnych liczb"],
    ),
    (
        {"check": "opening", "variant": "tile_rummy", "melds": [["R10", "R11", "R12"]]},
        ["Pierwsze wyłożenie warte 33 (potrzeba 30)"],
    ),
    (
        {
            "check": "turn",
            "variant": "tile_rummy",
            "opened": True,
            "rack": ["R1"],
            "table_before": [["B1", "B2", "B3"]],
            "table_after": [["B1", "B2"]],
        },
        ["Płytka B3 zeszła ze stołu", "stojak"],
    ),
    (
        {
            "check": "turn",
            "variant": "tile_rummy",
            "opened": False,
            "rack": ["R4", "R5", "R6"],
            "table_before": [],
            "table_after": [["R4", "R5", "R6"]],
        },
        ["wymaga 30 punktów", "te dają 15"],
    ),
    (
        {
            "check": "turn",
            "variant": "tile_rummy",
            "opened": True,
            "rack": ["R1"],
            "table_before": [["B1", "B2", "B3"]],
            "table_after": [["B1", "B2", "B3", "R1"]],
        },
        ["Układ 1 na stole po turze (B1 B2 B3 R1) nie jest prawidłowym układem: ani seria"],
    ),
    (
        {
            "check": "turn",
            "variant": "tile_rummy",
            "opened": False,
            "rack": ["B4"],
            "table_before": [["B1", "B2", "B3"]],
            "table_after": [["B1", "B2", "B3", "B4"]],
        },
        ["Układ 1 ze stołu przed turą (B1 B2 B3) nie leży już na stole"],
    ),
    (
        {
            "check": "turn",
            "variant": "tile_rummy",
            "opened": True,
            "options": {"joker_rule": 2},
            "rack": ["R6"],
            "table_before": [["R4", "R5", "JK"], ["B6", "K6", "Y6"]],
            "table_after": [["R4", "R5", "R6"], ["B6", "K6", "Y6", "JK"]],
        },
        ["Prawidłowa tura: zagrano 1 płytkę"],
    ),
    (
        {"check": "hand", "variant": "carousel", "hand": ["AS", "2S"]},
        ["Ręka warta 3; stukać można przy 5 lub mniej"],
    ),
    (
        {"check": "meld", "variant": "rummy101", "meld": ["R1", "R1", "R1"]},
        ["3 × R1", "a komplet 106 płytek ma tylko 2"],
    ),
]


@pytest.mark.parametrize(("request_", "parts"), VERDICTS)
def test_real_verdicts_in_polish(request_: dict[str, Any], parts: list[str]) -> None:
    answer = judge.answer(request_)
    with use_language("pl"):
        text = verdict_render.verdict_message(answer, request_)
    for part in parts:
        assert part in text, (text, part)


@pytest.mark.parametrize(("request_", "_parts"), VERDICTS)
def test_english_reads_the_judge_line_without_developer_words(
    request_: dict[str, Any], _parts: list[str]
) -> None:
    """English renders the same template as the judge's ``message`` (issue 15): the same
    sentence, capitalised, with request fields as words and without "(RULES.md §N)" (the
    screen's rule button names the rule-book section)."""
    answer = judge.answer(request_)
    with use_language("en"):
        text = verdict_render.verdict_message(answer, request_)
    assert "RULES.md" not in text and "table_before[" not in text and "table_after[" not in text
    with use_language("en"):
        line = verdict_render.answer_line(answer)
    assert line is not None and text == line[:1].upper() + line[1:]


def test_a_joker_fault_names_the_level_and_the_melds() -> None:
    """Level 2: the tile that freed the joker came from the table (RULES.md §4)."""
    request_ = {
        "check": "turn",
        "variant": "tile_rummy",
        "opened": True,
        "options": {"joker_rule": 2},
        "rack": ["Y9", "K9"],
        "table_before": [["R4", "R5", "JK"], ["R6", "R7", "R8", "R9"]],
        "table_after": [["R4", "R5", "R6"], ["R7", "R8", "R9"], ["Y9", "K9", "JK"]],
    }
    answer = judge.answer(request_)
    assert answer["reason"] == "joker_rule", answer
    with use_language("pl"):
        text = verdict_render.verdict_message(answer, request_)
    assert text.startswith("Poziom jokera 2 (dopasowanie ze stojaka):"), text
    assert "układ 1 ze stołu przed turą (R4 R5 JK)" in text
    assert "R6" in text and "stojak" in text


def test_round_lines_in_polish() -> None:
    answer = judge.answer(
        {
            "check": "round",
            "variant": "rummy101",
            "finish": "joker",
            "players": [
                {"name": "Ala", "winner": True},
                {"name": "Ola", "opened": "melds", "hand_value": 25, "jokers": 1},
                {"name": "Jan", "opened": "none"},
            ],
        }
    )
    with use_language("pl"):
        lines = {b["name"]: verdict_render.why_line(b, answer) for b in answer["breakdown"]}
        message = verdict_render.round_message(answer)
    assert lines["Ala"].startswith("Zakończenie odrzuceniem jokera: zwycięzca zyskuje 202")
    assert "25 + 1 joker × 101 = 126 × 2" in lines["Ola"]
    assert lines["Ola"].endswith("→ −252")
    assert lines["Jan"].startswith("Bez otwarcia: kara 202 × 2")
    assert message == "Zakończenie odrzuceniem jokera: zwycięzca +202, kary × 2"


def test_gin_lines_in_polish() -> None:
    answer = judge.answer(
        {
            "check": "round",
            "variant": "gin",
            "knocker": "Ala",
            "players": [
                {
                    "name": "Ala",
                    "hand": ["AS", "2S", "3S", "4H", "5H", "6H", "7C", "8C", "9C", "2D"],
                },
                {
                    "name": "Ola",
                    "hand": ["AD", "3D", "4D", "QS", "QH", "QC", "5C", "6S", "KH", "7H"],
                },
            ],
        }
    )
    with use_language("pl"):
        lines = verdict_render.gin_lines(answer)
    assert lines == [
        "Ala stuka z 2 pkt w martwych kartach.",
        "Ola: 36 pkt w martwych kartach przed dokładaniem.",
        "Ola dokłada 7\u00a0kier do 4\u00a0kier, 5\u00a0kier, 6\u00a0kier.",
        "Ola: 29 pkt w martwych kartach po dokładaniu.",
        "Ala dostaje 29 − 2 = 27.",
    ]
    with use_language("en"):
        assert verdict_render.gin_lines(answer) == answer["breakdown"]


def test_carousel_lines_in_slovak() -> None:
    """A knocked round (nobody else can hold 0 cards, RULES.md §6) and a stock-out round where
    a player went out."""
    knocked = {
        "check": "round",
        "variant": "carousel",
        "knocker": "Ala",
        "players": [
            {"name": "Ala", "hand": ["AS", "2S"]},
            {"name": "Ola", "hand": ["KD", "QD", "5C"]},
            {"name": "Ewa", "hand": ["AH"]},
        ],
    }
    answer = judge.answer(knocked)
    with use_language("sk"):
        lines = {b["name"]: verdict_render.why_line(b, answer) for b in answer["breakdown"]}
    assert lines["Ala"] == "Klopanie s 3, ale vyhráva nižšia ruka (podliezanie) → 0"
    assert lines["Ewa"].startswith("Najnižšia ruka (1), nižšia ako 3 klopajúceho (Ala)")
    assert "bonus za podliezanie +10 → +36" in lines["Ewa"]
    stock_out = {**knocked, "knocker": None}
    stock_out["players"] = [*knocked["players"][:2], {"name": "Ewa", "hand": []}]
    answer = judge.answer(stock_out)
    with use_language("sk"):
        lines = {b["name"]: verdict_render.why_line(b, answer) for b in answer["breakdown"]}
    assert "vyloženie všetkých kariet +25 → +53" in lines["Ewa"]


# -- one language per session --------------------------------------------------------------------
def test_use_language_nests_and_resets() -> None:
    default = i18n.language()
    with use_language("pl"):
        assert _("New game") == "Nowa gra"
        with use_language("sk"):
            assert _("New game") == "Nová hra"
        assert i18n.language() == "pl"
    assert i18n.language() == default


def test_sessions_on_one_loop_keep_their_languages() -> None:
    """Tasks interleaved on one asyncio loop (sessions of one server) never see each other's
    language."""
    seen: dict[str, list[str]] = {"pl": [], "en": [], "sk": []}

    async def session(lang: str) -> None:
        with use_language(lang):
            for _i in range(20):
                seen[lang].append(_("New game"))
                await asyncio.sleep(0)

    async def main() -> None:
        await asyncio.gather(session("pl"), session("en"), session("sk"))

    asyncio.run(main())
    assert set(seen["pl"]) == {"Nowa gra"}
    assert set(seen["en"]) == {"New game"}
    assert set(seen["sk"]) == {"Nová hra"}


class FakePage:
    """Stands for a Flet page: :mod:`app.i18n` only keys on its identity."""


@pytest.fixture
def flet_context() -> Iterator[Any]:
    from flet.controls.context import _context_page

    yield _context_page


def test_handlers_speak_their_session_language(flet_context: Any) -> None:
    """Flet binds a handler's page to its context; the page's bound language is used there,
    in a task and in a thread, without a ``use_language`` block."""
    phone_pl, phone_en = FakePage(), FakePage()
    i18n.bind_page(phone_pl, "pl")
    i18n.bind_page(phone_en, "en")
    seen: dict[str, set[str]] = {"pl": set(), "en": set()}

    async def handler(page: FakePage, lang: str) -> None:
        flet_context.set(page)  # what Flet does before calling a session's handler
        for _i in range(10):
            seen[lang].add(_("Settings"))
            await asyncio.sleep(0)

    async def main() -> None:
        await asyncio.gather(handler(phone_pl, "pl"), handler(phone_en, "en"))

    try:
        asyncio.run(main())
        assert seen == {"pl": {"Ustawienia"}, "en": {"Settings"}}

        out: dict[str, str] = {}

        def in_thread(page: FakePage, lang: str) -> None:
            flet_context.set(page)  # page.run_thread does this
            out[lang] = _("Settings")

        threads = [
            threading.Thread(target=in_thread, args=(p, lang))
            for p, lang in ((phone_pl, "pl"), (phone_en, "en"))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert out == {"pl": "Ustawienia", "en": "Settings"}
        token = flet_context.set(phone_pl)
        try:
            with use_language("sk"):  # an explicit block wins over the page
                assert _("Settings") == "Nastavenia"
            assert i18n.language() == "pl"
        finally:
            flet_context.reset(token)
    finally:
        i18n.unbind_page(phone_pl)
        i18n.unbind_page(phone_en)
    assert i18n.page_language(phone_pl) is None


def test_a_dropped_page_is_forgotten() -> None:
    page = FakePage()
    i18n.bind_page(page, "pl")
    assert i18n.page_language(page) == "pl"
    n = len(i18n._page_langs)
    del page
    import gc

    gc.collect()
    assert len(i18n._page_langs) == n - 1


def texts(control: Any) -> list[str]:
    """Every Text value and accessible label under ``control``."""
    return visible_texts(control, labels=True)


def screen_texts(app: App) -> list[str]:
    assert app.screen is not None
    view = app.screen.view
    return texts(view.appbar) + texts(view)


def test_two_sessions_show_their_own_language(store: Store) -> None:
    polish, english = App(store, language="pl"), App(store, language="en")
    polish.show("/")
    english.show("/")
    assert "Nowa gra" in screen_texts(polish)
    assert "New game" in screen_texts(english)
    assert "Ustawienia" in screen_texts(polish)  # the top bar's way to the settings
    polish.show("/check/meld?variant=rummy101")
    english.show("/check/meld?variant=rummy101")
    assert "Sprawdź układ" in screen_texts(polish)
    assert "Check a meld" in screen_texts(english)


def test_the_settings_screen_switches_this_session_only(store: Store) -> None:
    mine, other = App(store, language="en"), App(store, language="en")
    mine.show("/")
    mine.go("/settings")
    assert "Language" in screen_texts(mine)
    from app.ui.home.settings import SettingsScreen

    screen = mine.screen
    assert isinstance(screen, SettingsScreen)
    screen.languages.pick("pl")
    assert mine.language == "pl"
    assert store.get_setting("language") == "pl"
    assert "Język" in screen_texts(mine)  # rebuilt at once, in Polish
    mine.go("/")
    assert "Nowa gra" in screen_texts(mine)
    other.show("/")
    assert "New game" in screen_texts(other)


def test_a_polish_session_reads_a_polish_meld_verdict(store: Store) -> None:
    from app.ui.referee.checkers import MeldChecker

    app = App(store, language="pl")
    app.show("/check/meld?variant=rummy101")
    screen = app.screen
    assert isinstance(screen, MeldChecker)
    with use_language(app.language):  # what a tap in this session's page does
        screen.keyboard.set_pieces(["R1", "R2", "R5"])
        screen.check()
    shown = " ".join(texts(screen.verdict))
    assert "Wbrew zasadom" in shown  # a heading without gender, whatever was checked
    assert "Powód: W serii jest przerwa" in shown
    assert "między 1 a 5 brakuje 2" in shown


def test_new_sessions_choose_their_language(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    from app import main

    async def none(_page: Any) -> None:
        return None

    def answers(device: str | None, browser: str | None) -> None:
        async def dev(_page: Any) -> str | None:
            return device

        async def brw(_page: Any) -> str | None:
            return browser

        monkeypatch.setattr(main, "device_choice", dev)
        monkeypatch.setattr(main, "browser_language", brw)

    page: Any = FakePage()
    answers("sk", "pl")
    assert asyncio.run(main.session_language(page, store)) == "sk"
    answers(None, "pl")
    assert asyncio.run(main.session_language(page, store)) == "pl"
    store.set_setting("language", "sk")
    answers(None, None)
    assert asyncio.run(main.session_language(page, store)) == "sk"
    store.set_setting("language", None)
    monkeypatch.setattr(i18n, "_default_lang", "pl")
    assert asyncio.run(main.session_language(page, store)) == "pl"


def test_the_browser_language_is_read_from_the_device_info() -> None:
    from app import main

    class Page:
        async def get_device_info(self) -> Any:
            class Info:
                locales = [ft.Locale("de", "DE"), ft.Locale("sk", "SK"), ft.Locale("pl")]

            return Info()

    class Broken:
        async def get_device_info(self) -> Any:
            raise RuntimeError("no client")

    assert asyncio.run(main.browser_language(Page())) == "sk"  # type: ignore[arg-type]
    assert asyncio.run(main.browser_language(Broken())) is None  # type: ignore[arg-type]


def test_a_tie_names_the_winners_in_the_plural() -> None:
    """Tester report: a tie read "Wygrywa: Ala, Ola"; a finished game's tie reads "Zwycięstwo ex
    aequo: …" ("Delené víťazstvo: …"), in the past and for a woman or a man (session 7)."""
    from app import games as g
    from app.ui.sheet.share_result import summary_text
    from tests.test_stats import tile

    tie = g.new_game("tile_rummy", ["Ala", "Ola"], agreed_rounds=2)
    tie = g.add_round(tie, tile("Ala", {"Ola": ["R5"]}))
    tie = g.add_round(tie, tile("Ola", {"Ala": ["R5"]}))  # 0 : 0, both win
    one = g.new_game("tile_rummy", ["Ala", "Ola"], agreed_rounds=1)
    one = g.add_round(one, tile("Ala", {"Ola": ["R5"]}))
    for lang, single, plural in (
        ("en", "Winner: Ala", "Winners: Ala, Ola"),
        ("pl", "Zwycięstwo: Ala", "Zwycięstwo ex aequo: Ala, Ola"),
        ("sk", "Víťazstvo: Ala", "Delené víťazstvo: Ala, Ola"),
    ):
        with use_language(lang):
            assert summary_text(tie).splitlines()[-1] == plural
            assert summary_text(one).splitlines()[-1] == single
            n5 = ngettext("Winner: {names}", "Winners: {names}", 5).format(names="…")
            assert n5 == plural.split(":")[0] + ": …"


def test_variant_names_are_the_ones_players_use() -> None:
    """Tile Rummy, My Rummy and Gin Rummy keep their names in Polish and Slovak: the players'
    own rule texts (seeds 001 "Zasady gry Tile Rummy", 004 "My Rummy – zasady gry", 002
    "gin rummy", 003 "gin rummy") use them so; Carousel is the seed's "kolotoč" in Slovak."""
    from app.ui.common import labels

    for lang in ("pl", "sk"):
        with use_language(lang):
            assert labels.variant_name("tile_rummy") == "Tile Rummy"
            assert labels.variant_name("my_rummy") == "My Rummy"
            assert labels.variant_name("gin") == "Gin Rummy"
            assert labels.variant_name("rummy101") == "Rummy 101"
    with use_language("sk"):
        assert labels.variant_name("carousel") == "Kolotoč"


# -- round 2 of the native readers (helper "words") -------------------------------------------
GENDERED_INVALID = {
    "pl": ("Nieprawidłowe", "Nieprawidłowa", "Nieprawidłowy"),
    "sk": ("Neplatné", "Neplatná", "Neplatný"),
}


def _checker_verdict(store: Store, lang: str, route: str, pieces: list[str]) -> str:
    from app.ui.referee.checkers import MeldChecker

    app = App(store, language=lang)
    app.show(route)
    screen = app.screen
    assert isinstance(screen, MeldChecker)
    with use_language(app.language):
        screen.keyboard.set_pieces(pieces)
        screen.check()
    return " ".join(texts(screen.verdict))


@pytest.mark.parametrize("lang", ["pl", "sk"])
def test_meld_verdict_headings_agree_in_gender(store: Store, lang: str) -> None:
    """Q♠ K♠ A♠ in gin is no meld: the heading of the invalid verdict serves a meld, an
    opening and a turn alike, so it carries no adjective that agrees with one of them
    ("Nieprawidłowe" beside "Prawidłowa grupa", while "układ" is masculine)."""
    bad = _checker_verdict(store, lang, "/check/meld?variant=gin", ["QS", "KS", "AS"])
    assert not any(word in bad for word in GENDERED_INVALID[lang]), bad
    assert {"pl": "Wbrew zasadom", "sk": "V rozpore s pravidlami"}[lang] in bad
    good = _checker_verdict(store, lang, "/check/meld?variant=gin", ["QS", "QH", "QC"])
    # "Prawidłowa grupa" / "Platná zostava: skupina": feminine, as grupa and zostava are
    assert {"pl": "Prawidłowa grupa", "sk": "Platná zostava: skupina"}[lang] in good, good
    with use_language(lang):  # every valid heading: the adjective fits its noun
        assert _("Valid turn") in ("Prawidłowa tura", "Platný ťah")
        assert _("Valid opening") in ("Prawidłowe otwarcie", "Platné vyloženie")
        assert _("Valid initial meld") in ("Prawidłowe pierwsze wyłożenie", "Platné prvé vyloženie")


@pytest.mark.parametrize(
    ("lang", "want"),
    [("pl", "Stół przed turą, układ 1: pusty"), ("sk", "Stôl pred ťahom, zostava 1: nič nezadané")],
)
def test_an_empty_meld_is_said_in_agreement(store: Store, lang: str, want: str) -> None:
    """The spoken name of an empty meld: "układ … pusty" (masculine); Slovak "zostava" is
    feminine and "rad" masculine, so it says "nič nezadané" (nothing entered) for both."""
    app = App(store, language=lang)
    for variant in ("tile_rummy", "carousel"):
        app.show(f"/check/turn?variant={variant}")
        shown = screen_texts(app)
        assert any(s.startswith(want) for s in shown), shown
        assert not any("zostava 1: prázdne" in s for s in shown)


@pytest.mark.parametrize(
    ("lang", "want"),
    [
        ("pl", "Wartość 99999 pola „Punkty do otwarcia układami” jest poza zakresem 1–1000"),
        ("sk", "Hodnota 99999 poľa „Body na vyloženie zostavami“ je mimo rozsahu 1–1000"),
        ("en", "The value 99999 of “Points to open by melds” is not allowed; it must be 1 to 1000"),
    ],
)
def test_an_option_error_has_a_singular_subject(lang: str, want: str) -> None:
    """ "Punkty do otwarcia układami 99999 jest …" paired a plural label with a singular verb:
    every option template makes the value, or the field, its subject."""
    request = {"check": "meld", "variant": "rummy101", "meld": "R1 R2 R3"}
    answer = judge.answer({**request, "options": {"threshold": 99999}})
    with use_language(lang):
        assert verdict_render.verdict_message(answer, request) == want
        for key, params in (
            ("option.not_int", {"name": "threshold", "value": "'x'"}),
            ("option.not_bool", {"name": "layoffs", "value": "3"}),
            ("option.not_choice", {"name": "shutout", "value": "'x'", "choices": "bonus"}),
        ):
            text = verdict_render.render_key(key, params)
            label = verdict_render._option_words(params["name"])
            assert not text.startswith(label), text  # the label is quoted, not the subject
            assert f"„{label}" in text or f"“{label}”" in text, text


def test_polish_names_a_run_seria_with_the_keys_ranks() -> None:
    """One Polish word for a run ("seria", as the checker says; the gin book glosses the
    seed's "sekwens" once), and ranks as the keys print them: "Q-K-A", never "D-K-A"."""
    with (i18n.LOCALE_DIR / "pl" / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f)
    for message in catalog:
        text = message.string if isinstance(message.string, str) else " ".join(message.string)
        if not message.id:
            continue
        assert "D-K-A" not in text and "D–K–A" not in text, message.id
        assert "sekwens" not in text.lower() and "sekwencj" not in text.lower(), message.id
    with use_language("pl"):
        assert _("run") == "seria"
