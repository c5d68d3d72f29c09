"""Small things players saw (session 8), without a browser: the gin preset's name, the Slovak
"lowest rack", the knock limit 0 (only gin) everywhere it is worded, the new-game form's count
of changed options in its plural forms, and the checker kept for the way back from its rule.
Expected words are worked out from RULES.md §4–§6 and the
catalogues; the browser half is tests/browser/test_words8.py."""

from __future__ import annotations

from typing import Any

import pytest

from app import rulebook as rb
from app import verdict_render
from app.i18n import use_language
from app.ui.common import labels
from app.ui.home.options_form import OptionsForm
from app.ui.referee import checkers
from app.ui.referee.checkers import HandChecker, OpeningChecker, Rules, kind_blurb
from app.ui.shell import App
from rules import judge
from tests.conftest import visible_texts
from tests.test_checkers import tap_melds, text
from tests.test_views import POOL_OUT, new_game_form, open_entry, save, start_game, totals

LANGS = ("en", "pl", "sk")
GIN_ONLY = {"preset": "seed", "knock_max": 0}
"""Plain gin with the house option "knocking needs 0 deadwood": only gin goes down (§5)."""
KNOCK_4 = "AS 2S 3S 7H 7D 7C 9C 10C JC 4D"
"""§5: A-2-3 of spades, three 7s, 9-10-J of clubs and the 4 of diamonds: deadwood 4."""
GIN_10 = "AS 2S 3S 7H 7D 7C 9C 10C JC QC"
"""§5: the same with 9-10-J-Q of clubs: deadwood 0, gin."""


def no_slip(line: str) -> None:
    """A knock limit of 0 is never worded as a limit ("at 0 or less", "at most 0")."""
    for slip in ("0 or less", "at most 0", "{", "0 lub mniej", "najwyżej 0", "0 alebo menej"):
        assert slip not in line, line
    assert "najviac 0" not in line and "przy 0" not in line and "pri 0" not in line, line


# -- 2. the gin preset's name: no "Rules: Original rules" ------------------------------------------
@pytest.mark.parametrize(
    ("lang", "chip", "line"),
    [
        ("en", "Original (default)", "Rules: Original (default)"),
        ("pl", "Z opisu gry (domyślne)", "Zasady: Z opisu gry (domyślne)"),
        ("sk", "Pôvodné (predvolené)", "Pravidlá: Pôvodné (predvolené)"),
    ],
)
def test_the_gin_preset_reads_once_as_rules(app: App, lang: str, chip: str, line: str) -> None:
    with use_language(lang):
        app.language = lang
        ng = new_game_form(app, "gin", ["Ala", "Bob"])
        shown = visible_texts(ng.view, labels=True)
        assert chip in shown  # under the "Rules" heading, beside "Modern" and "Classic"
        sheet = start_game(app, "gin", ["Ala", "Bob"])
        rules_lines = [t for t in visible_texts(sheet.view) if t.startswith(line.split(":")[0])]
    assert rules_lines and rules_lines[0].startswith(line), rules_lines
    word = line.split(":")[0].lower()  # "rules" / "zasady" / "pravidlá" said once
    assert rules_lines[0].lower().count(word) == 1


def test_the_checker_and_rule_book_name_the_preset_alike() -> None:
    assert labels.preset_name("seed") == "Original (default)"
    assert Rules("gin").summary() == "Gin Rummy · Original (default) · knock at 9 or less"
    assert Rules("carousel").summary() == "Carousel rummy · knock at 5 or less"  # one preset


# -- 3. Slovak: the lowest sum on a rack, never "the lowest rack" ----------------------------------
def pool_out_lines(app: App, racks: dict[str, int], **options: Any) -> str:
    """The round entry's breakdown of a Tile Rummy round where the pool ran out, in Slovak."""
    with use_language("sk"):
        app.language = "sk"
        sheet = start_game(app, "tile_rummy", list(racks), **options)
        entry = open_entry(app, sheet)
        f: Any = entry.form
        f.outcome.pick(POOL_OUT)
        for name, value in racks.items():
            f.rests[name].value.value = str(value)
        assert entry.check(), entry.error.content.value  # type: ignore[union-attr]
        shown = " ".join(visible_texts(entry.view))
        save(app, entry)
    return shown


@pytest.mark.parametrize(
    ("racks", "options"),
    [
        ({"Ala": 3, "Bob": 10}, {}),  # §4 gap filled: 3 wins, the winner collects 7
        ({"Ala": 3, "Bob": 3, "Ema": 9}, {}),  # tied for the lowest: each scores as a winner
        ({"Ala": 3, "Bob": 10}, {"winner_collects": False}),  # the winner collects nothing
    ],
)
def test_slovak_pool_out_names_the_lowest_sum_on_a_rack(
    app: App, racks: dict[str, int], options: dict[str, Any]
) -> None:
    shown = pool_out_lines(app, racks, **options)
    assert "najnižší stojan" not in shown
    assert "vyhráva najnižší súčet na stojane (3)" in shown
    assert "kamene v kôpke sa minuli" not in shown  # one phrase for the pool: "minula sa kôpka"


def test_no_slovak_line_says_the_lowest_rack() -> None:
    with open("app/locale/sk/LC_MESSAGES/messages.po", encoding="utf-8") as f:
        catalogue = f.read()
    live = "\n".join(line for line in catalogue.splitlines() if not line.startswith("#~"))
    assert "najnižší stojan" not in live
    for name in rb.VARIANTS:
        book = rb.load(name, "sk")
        assert "najnižší stojan" not in book.path.read_text(encoding="utf-8")


# -- 5. knock limit 0 (only gin) ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "gin", "carousel"),
    [
        ("en", "gin only, no knocking", "knock only with a hand worth 0"),
        ("pl", "tylko gin, bez stukania", "stukanie tylko z ręką wartą 0"),
        ("sk", "len gin, bez klopania", "klopanie len s rukou v hodnote 0"),
    ],
)
def test_a_knock_limit_of_0_in_the_checkers_header(lang: str, gin: str, carousel: str) -> None:
    with use_language(lang):
        assert Rules("gin", GIN_ONLY).summary().endswith(" · " + gin)
        assert Rules("carousel", {"knock_max": 0}).summary().endswith(" · " + carousel)
        for variant in ("gin", "carousel"):
            no_slip(Rules(variant, {"knock_max": 0}).summary())
            no_slip(kind_blurb("hand", variant, {"knock_max": 0}))
        assert (
            Rules("gin", {"knock_max": 9})
            .summary()
            .endswith(
                {"en": "knock at 9 or less", "pl": "stukanie przy 9 lub mniej"}.get(
                    lang, "klopanie pri 9 alebo menej"
                )
            )
        )


def test_a_knock_limit_of_0_in_the_hand_checker(app: App) -> None:
    screen = HandChecker(app, variant="gin")
    screen.set_options(GIN_ONLY)
    assert screen.summary.value.endswith(" · gin only, no knocking")
    screen.keyboard.type_text(KNOCK_4)
    a = screen.answer
    assert a is not None and a["can_knock"] is False and a["deadwood"] == 4
    shown = text(screen.verdict)
    assert shown.startswith(
        "Not gin: cannot go down yet\nDeadwood 4 (only gin goes down in this game)"
    )
    no_slip(shown)
    screen.keyboard.type_text(GIN_10)
    shown = text(screen.verdict)
    assert shown.startswith("Gin!\nDeadwood 0 (only gin goes down in this game)")
    screen.set_options({"preset": "seed"})  # the seed's 9: a knock again
    screen.keyboard.type_text(KNOCK_4)
    assert text(screen.verdict).startswith("May knock\nDeadwood 4 (knock at 9 or less)")


def test_a_knock_limit_of_0_in_the_carousel_hand_checker(app: App) -> None:
    screen = HandChecker(app, variant="carousel")
    screen.set_options({"preset": "seed", "knock_max": 0})
    screen.keyboard.type_text("AS 2S")  # §6: ace 1 + 2 = 3
    shown = text(screen.verdict)
    assert "Cannot knock yet\nHand worth 3 (knock only with a hand worth 0)" in shown
    no_slip(shown)


@pytest.mark.parametrize("lang", LANGS)
def test_a_knock_limit_of_0_in_the_verdicts(lang: str) -> None:
    requests = [
        {"check": "hand", "variant": "gin", "options": GIN_ONLY, "hand": KNOCK_4.split()},
        {
            "check": "round",
            "variant": "gin",
            "options": GIN_ONLY,
            "knocker": "Ala",
            "players": [{"name": "Ala", "deadwood": 3}, {"name": "Bob", "deadwood": 20}],
        },
        {"check": "hand", "variant": "carousel", "options": {"knock_max": 0}, "hand": ["AS"]},
        {
            "check": "round",
            "variant": "carousel",
            "options": {"knock_max": 0},
            "knocker": "Ala",
            "players": [{"name": "Ala", "hand": ["AS"]}, {"name": "Bob", "hand": ["KS"]}],
        },
    ]
    expected = {
        "en": [
            "only gin (deadwood 0) goes down under these rules",
            "Ala knocks with deadwood 3; only gin (deadwood 0) may go down under these rules",
            "a player may knock only with a hand worth 0",
            "Ala knocked with 1; under these rules a knock needs a hand worth 0",
        ],
        "pl": [
            "w tych zasadach rundę kończy tylko gin (0 w martwych kartach)",
            "rundę może zakończyć tylko gin (0 w martwych kartach)",
            "stukać można tylko z ręką wartą 0",
            "Ala stuka z 1; w tych zasadach do stukania ręka musi być warta 0",
        ],
        "sk": [
            "podľa týchto pravidiel kolo ukončí len gin (0 v mŕtvych kartách)",
            "môže kolo ukončiť len gin (0 v mŕtvych kartách)",
            "klopať len s rukou v hodnote 0",
            "Ala klope s 1; podľa týchto pravidiel musí mať ruka na klopanie hodnotu 0",
        ],
    }[lang]
    for request, words in zip(requests, expected, strict=True):
        answer = judge.answer(request)
        assert answer["knock_max"] == 0
        with use_language(lang):
            line = verdict_render.verdict_message(answer, request)
        assert words in line, line
        no_slip(line)
    # any other limit keeps the engine's own wording
    with use_language("en"):
        request = {**requests[0], "options": {"preset": "seed", "knock_max": 3}}
        line = verdict_render.verdict_message(judge.answer(request), request)
    assert "a knock needs 3 or less" in line


@pytest.mark.parametrize(
    ("lang", "zero", "forms"),
    [
        (
            "en",
            "In this game you may knock only with 0 points left to count.",
            ("1 point of deadwood", "2 points of deadwood", "5 points of deadwood"),
        ),
        (
            "pl",
            "W tej grze można stukać tylko wtedy, gdy nie zostaje nic do policzenia (0 punktów).",
            ("1 pkt", "2 pkt", "5 pkt"),
        ),
        (
            "sk",
            "V tejto hre sa dá klopať, len keď nezostáva nič na zrátanie (0 bodov).",
            ("1 bodom", "2 bodmi", "5 bodmi"),
        ),
    ],
)
def test_the_rule_books_in_force_line_for_the_knock_limit(
    lang: str, zero: str, forms: tuple[str, str, str]
) -> None:
    with use_language(lang):
        assert labels.option_sentence("knock_max", 0) == zero
        for n, form in zip((1, 2, 5), forms, strict=True):
            said = labels.option_sentence("knock_max", n)
            assert said is not None and f"{n}" in said and "{" not in said
            assert form in said, said


@pytest.mark.parametrize("lang", LANGS)
def test_the_gin_rule_book_has_a_box_for_knock_limit_0(lang: str) -> None:
    opts = rb.options_in_force("gin", GIN_ONLY)
    section = rb.load("gin", lang).section("knock")
    assert section is not None
    marked = rb.mark_section(section, opts, rb.options_in_force("gin"))
    zero = [m for m in marked if any(c.text() == "knock_max=0" for c in m.block.conditions)]
    assert len(zero) == 1 and zero[0].status == "in_force"
    assert "gin" in zero[0].block.text
    said = rb.status_text(zero[0], lang)
    no_slip(said)
    nine = [m for m in marked if any(c.text() == "knock_max=9" for c in m.block.conditions)]
    assert nine[0].status == "not_in_force"
    # under the seed's 9 the 0 box is not in force
    seed = rb.mark_section(section, rb.options_in_force("gin"), rb.options_in_force("gin"))
    assert [m.status for m in seed if m.block is zero[0].block] == ["not_in_force"]


@pytest.mark.parametrize(
    ("variant", "lang", "note"),
    [
        ("gin", "en", "0: only gin goes down; nobody may knock with deadwood."),
        ("gin", "pl", "0: rundę kończy tylko gin; nie można stukać z martwymi kartami."),
        ("gin", "sk", "0: kolo ukončí len gin; s mŕtvymi kartami sa klopať nedá."),
        ("carousel", "en", "0: a knock needs a hand worth 0."),
        ("carousel", "pl", "0: stukać można tylko z ręką wartą 0."),
        ("carousel", "sk", "0: klopať sa dá len s rukou v hodnote 0."),
    ],
)
def test_the_new_game_form_says_what_a_knock_limit_of_0_means(
    variant: str, lang: str, note: str
) -> None:
    with use_language(lang):
        form = OptionsForm(variant, "seed")
        field = form.fields["knock_max"]
        assert not field.value_note.visible  # the preset's 9 (5): the label says it
        assert field.text is not None
        field.text.value = "0"
        form._field_changed(field)
        assert field.value_note.visible and field.value_note.value == note
        assert not field.error.visible  # 0 is allowed (rules.options: 0–100)
        assert form.values()["knock_max"] == 0
        field.text.value = "4"
        form._field_changed(field)
        assert not field.value_note.visible
        field.text.value = "lots"
        form._field_changed(field)
        assert not field.value_note.visible and field.shown_error()


def test_a_gin_game_with_knock_limit_0_starts_and_scores_gin(app: App) -> None:
    sheet = start_game(app, "gin", ["Ala", "Bob"], knock_max=0)
    assert sheet.game.options.get("knock_max") == 0
    entry = open_entry(app, sheet)
    f: Any = entry.form
    f.knocker.pick("Ala")
    f.mode.pick("deadwood")
    f.gin_kind["Ala"].pick("gin")
    f.deadwood["Bob"].value = "20"
    sheet = save(app, entry)  # §5 seed: gin 25 + 20
    assert totals(sheet) == {"Ala": "45", "Bob": "0"}


# -- 1. the checker kept for the way back from its rule --------------------------------------------
def test_a_checker_left_for_its_rule_comes_back_with_its_verdict(app: App) -> None:
    app.go("/check/opening?variant=rummy101")
    screen = app.screen
    assert isinstance(screen, OpeningChecker)
    tap_melds(screen.melds, ["R10 R11 R12", "B13 K13 Y13"])
    screen._check_clicked()
    assert "72 points (needs 101)" in text(screen.verdict)  # §3: 33 + 39 < 101
    assert screen.rule_link is not None and screen.rule_link.route is not None
    screen.rule_link.open()  # the verdict's rule: the rule book at its section
    assert app.route.startswith("/rules/rummy101/")
    app.go(checkers.kept_route(app) or "/")  # the rule book's ←
    back = app.screen
    assert back is screen and "72 points (needs 101)" in text(back.verdict)
    assert back.answer is not None and not back.answer["valid"]


def test_back_to_verdict_needs_a_page_and_a_verdict_under_the_inputs(app: App) -> None:
    screen = OpeningChecker(app, variant="rummy101")
    screen.back_to_verdict()  # no page (a logic test), no verdict: nothing to do, no error
    assert app.on_rendered is None
    assert not OpeningChecker.verdict_first and HandChecker.verdict_first


class FakePage:
    """What back_to_verdict uses of a page: its views and run_task (tasks kept, not run)."""

    def __init__(self) -> None:
        self.views: list[Any] = []
        self.tasks: list[Any] = []

    def run_task(self, make: Any) -> None:
        self.tasks.append(make)


def test_back_to_verdict_scrolls_once_the_screen_is_shown(app: App) -> None:
    """The scroll to the verdict is asked after App.show has asked for the top of the screen
    (its on_rendered hook), once; a hook already there still runs."""
    screen = OpeningChecker(app, variant="rummy101")
    tap_melds(screen.melds, ["R10 R11 R12", "B13 K13 Y13"])
    screen._check_clicked()
    assert screen.verdict.controls
    page = FakePage()
    app.page = page  # type: ignore[assignment]
    seen: list[str] = []
    app.on_rendered = lambda: seen.append("hook")
    screen.back_to_verdict()
    assert page.tasks == []  # nothing before the screen is shown
    assert app.on_rendered is not None
    app.on_rendered()
    assert seen == ["hook"] and len(page.tasks) == 1
    app.on_rendered()  # restored: the next screen shown asks nothing more
    assert seen == ["hook", "hook"] and len(page.tasks) == 1
    app.page = None


@pytest.mark.parametrize(
    ("lang", "forms"),
    [
        (
            "en",
            (
                "1 option changed from the preset",
                "2 options changed from the preset",
                "5 options changed from the preset",
            ),
        ),
        (
            "pl",
            (
                "1 opcja zmieniona względem zestawu",
                "2 opcje zmienione względem zestawu",
                "5 opcji zmienionych względem zestawu",
            ),
        ),
        (
            "sk",
            (
                "1 zmenená možnosť oproti súboru pravidiel",
                "2 zmenené možnosti oproti súboru pravidiel",
                "5 zmenených možností oproti súboru pravidiel",
            ),
        ),
    ],
)
def test_the_options_changed_line_has_its_plurals(lang: str, forms: tuple[str, ...]) -> None:
    """The form's count of changed options in the 1, 2 and 5 forms (was "option(s)")."""
    with use_language(lang):
        form = OptionsForm("gin", "seed")
        assert form.summary.value != forms[0]
        changes = {"knock_max": "0", "undercut_bonus": "11", "gin_bonus": "26"}
        changes |= {"box_bonus": "24", "game_bonus": "99"}
        said = []
        for i, (name, value) in enumerate(changes.items(), 1):
            field = form.fields[name]
            assert field.text is not None
            field.text.value = value
            form._field_changed(field)
            if i in (1, 2, 5):
                said.append(form.summary.value)
    assert tuple(said) == forms


def test_a_big_gin_under_knock_limit_0_stays_a_big_gin(app: App) -> None:
    screen = HandChecker(app, variant="gin")
    # §5 modern: big gin bonus 31; all 11 cards melded (A-2-3 of spades, 4-5-6 of hearts,
    # 7-J of diamonds)
    screen.set_options({"preset": "modern", "knock_max": 0})
    screen.keyboard.type_text("AS 2S 3S 4H 5H 6H 7D 8D 9D 10D JD")
    shown = text(screen.verdict)
    assert shown.startswith("Big gin!\nDeadwood 0 (only gin goes down in this game)"), shown
    screen.set_options({"preset": "seed", "knock_max": 0})  # no big gin bonus: gin, JD out
    shown = text(screen.verdict)
    assert shown.startswith("Gin!\nDeadwood 0 (only gin goes down in this game)"), shown
