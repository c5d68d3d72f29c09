"""The referee at the table: check a meld, an opening, a turn or a hand in seconds.

Routes (see :func:`build`)::

    /check                    pick the variant (or the game's) and what to check
    /check/meld               a meld: valid or not, kind, value, each joker, other readings
    /check/opening            Rummy 101 opening (threshold, pairs, taken discard);
                              Tile Rummy / My Rummy initial meld
    /check/turn               a turn on the shared table: table before and after, the rack
    /check/hand               gin deadwood with its best melds (knock, gin, best discard);
                              Carousel hand value

Each takes ``?game=<id>`` (the game's variant and options are used, and the back arrow leads
to its score sheet) or ``?variant=<name>``. Every verdict comes from
:func:`rules.judge.answer`; nothing here decides a rule. A "not valid" shows the reason (in the
player's language), the judge's message with the melds named as people do ("table before,
meld 1"), the meld or piece at fault drawn in red, and the rule: its text and a button to the
rule book, from :mod:`app.ui.home.rulebook_view` (``/rules/<variant>/<section>``, or the game's
``/game/<id>/rules/<section>``); without the rule book the button leads to the section the
verdict's ``rule_ref`` names (:func:`rule_route`).

Meld and hand verdicts are live (above the keys, rule text under them); an opening or a turn
is checked on a tap and its verdict scrolled into view.

Handlers change controls only; the screens work in logic tests without a page.
"""

from __future__ import annotations

import asyncio
import logging
import re
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode

import flet as ft

from app import i18n, verdict_render
from app import rulebook as rb
from app.games.variants import DEFAULT_VARIANT, VARIANT_KEYS, VariantInfo, about, is_variant
from app.i18n import N_, _, ngettext
from app.store import StoreError
from app.ui.camera import photo
from app.ui.common import labels
from app.ui.common.frame import MessageScreen, frame
from app.ui.common.keyboard import MeldsEditor, PieceKeyboard
from app.ui.common.pieces import (
    material_of,
    meld_label,
    meld_view,
    number_word,
    piece_name,
    piece_view,
)
from app.ui.common.session import VIEW_FIELDS, ask_client
from app.ui.common.widgets import (
    AMBER_TINT,
    ERROR_COLOUR,
    GOOD_COLOUR,
    MUTED,
    ChoiceChips,
    card,
    heading,
    muted,
    primary_button,
    readable,
)
from app.ui.entry.round_entry import openings_text, record_opening, round_openings
from app.ui.home import rulebook_view as rv
from app.ui.referee.turn_table import TableEditor
from app.ui.table.sharing import save_game
from rules import judge
from rules.errors import RulesError
from rules.options import options_for
from rules.variant import Variant

if TYPE_CHECKING:
    from app.games import Game
    from app.ui.common.session import App

log = logging.getLogger("app")

KINDS: tuple[str, ...] = ("meld", "opening", "turn", "hand")

KIND_TITLES: dict[str, str] = {
    "meld": N_("Check a meld"),
    "opening": N_("Check an opening"),
    "turn": N_("Check a turn"),
    "hand": N_("Check a hand"),
}
KIND_BLURBS: dict[str, str] = {
    "meld": N_("Run, group or pair? Its value and what each joker stands for"),
    "opening": N_("Enough to open? Melds or pairs, the taken discard"),
    "turn": N_("Table before and after, and the rack: is every move allowed?"),
    "hand": N_("Deadwood and the best melds; may this hand knock?"),
}
KIND_ICONS: dict[str, ft.IconData] = {
    "meld": ft.Icons.VIEW_WEEK,
    "opening": ft.Icons.LOCK_OPEN,
    "turn": ft.Icons.SWAP_HORIZ,
    "hand": ft.Icons.PAN_TOOL_ALT,
}
VERDICT_KEY = "check-verdict"
"""Scroll key of the verdict box."""

MELD_KINDS: dict[str, str] = {"run": N_("run"), "group": N_("group"), "pair": N_("pair")}

REASONS: dict[str, str] = verdict_render.HEADLINES
"""Headline of each reason code in the player's language (:mod:`app.verdict_render`)."""


# -- routes ----------------------------------------------------------------------------------
def kinds_for(variant: str) -> list[str]:
    """The checks that apply to ``variant`` (as the judge knows them)."""
    return [k for k in KINDS if about(variant).answers(k)]


def check_route(
    kind: str | None = None, game_id: str | None = None, variant: str | None = None
) -> str:
    """``/check``, ``/check/turn?game=…`` or ``/check/meld?variant=gin``."""
    path = "/check" + (f"/{kind}" if kind else "")
    query = {"game": game_id} if game_id else ({"variant": variant} if variant else {})
    return path + ("?" + urlencode(query) if query else "")


def route_query(app: App) -> dict[str, str]:
    """The query of the route being shown (``?game=…``): the shell's ``app.query``, else the
    page's route."""
    query = getattr(app, "query", None)
    if isinstance(query, Mapping):
        return {str(k): str(v) for k, v in query.items()}
    page = getattr(app, "page", None)
    route = getattr(page, "route", None) if page is not None else None
    if isinstance(route, str) and "?" in route:
        return dict(parse_qsl(route.split("?", 1)[1]))
    return {}


def rule_route(variant: str, answer: Mapping[str, Any], check: str) -> str:
    """``/rules/<variant>/<section>`` of a verdict without the rule book's help: the section
    its ``rule_ref`` names, else where the variant places its reason (or error), the check
    and its ``rule`` text (:meth:`rules.variant.Variant.section_for`)."""
    ref = answer.get("rule_ref")
    section = ref.get("section") if isinstance(ref, Mapping) else None
    spec = about(variant).rules
    if not isinstance(section, str) or section not in spec.sections:
        reason = answer.get("reason") or answer.get("error")
        rule, result = answer.get("rule"), answer.get("result")
        section = spec.section_for(
            check,
            reason if isinstance(reason, str) else None,
            result if isinstance(result, str) else None,
            rule if isinstance(rule, str) else "",
        )
    return f"/rules/{variant}/{section}"


_REF = re.compile(r"table_(before|after)\[(\d+)\]")


def human_message(message: str) -> str:
    """The judge's message for people: ``table_before[0]`` -> "table before, meld 1"; suit
    signs and arrows spelled out for the offline font."""

    def name(m: re.Match[str]) -> str:
        n = int(m.group(2)) + 1
        if m.group(1) == "before":
            return _("table before, meld {n}").format(n=n)
        return _("table after, meld {n}").format(n=n)

    return readable(_REF.sub(name, message))


def fault_refs(answer: Mapping[str, Any]) -> tuple[set[int], set[int]]:
    """Melds a turn verdict names: (indexes in the table before, indexes in the table after),
    read from its line's data (the ``turn.meld`` lines of its ``params``), not its English."""
    before: set[int] = set()
    after: set[int] = set()

    def walk(value: Any) -> None:
        if isinstance(value, Mapping):
            if value.get("key") == "turn.meld":
                field = (value.get("params") or {}).get("field")
                m = _REF.fullmatch(field) if isinstance(field, str) else None
                if m:
                    (before if m.group(1) == "before" else after).add(int(m.group(2)))
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(answer.get("params"))
    return before, after


# -- verdict parts ----------------------------------------------------------------------------
MOVED_COLOUR = ft.Colors.ORANGE_900
"""The icon of a meld valid only in another order than it was laid (not the plain green
"valid": at the table, the meld as it lies is not one); its headline is in the theme's plain
text colour, on :data:`MOVED_BACKGROUND` (both readable on the light and the dark theme)."""
MOVED_BACKGROUND = AMBER_TINT
ON_SURFACE = ft.Colors.ON_SURFACE


def verdict_header(
    valid: bool, title: str, detail: str | None = None, moved: bool = False
) -> ft.Control:
    """The big answer: a tick or a cross, "Valid run" / "Not valid", and a line under it.
    ``moved``: valid only with pieces moved (:func:`moved_title`): orange swap arrows and the
    headline in the plain text colour, not the green of "valid"."""
    colour = GOOD_COLOUR if valid else ERROR_COLOUR
    icon = ft.Icons.CHECK_CIRCLE if valid else ft.Icons.CANCEL
    title_colour = colour
    if valid and moved:
        colour, icon, title_colour = MOVED_COLOUR, ft.Icons.SWAP_HORIZONTAL_CIRCLE, ON_SURFACE
    column: list[ft.Control] = [
        ft.Text(title, size=24, weight=ft.FontWeight.BOLD, color=title_colour),
    ]
    if detail:
        column.append(ft.Text(detail, size=17, weight=ft.FontWeight.W_500))
    return ft.Row(
        [
            ft.Icon(icon, color=colour, size=40),
            ft.Column(column, spacing=2, tight=True, expand=True),
        ],
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def reason_text(reason: str | None, variant: str | None = None) -> str:
    """The reason code as a headline in the player's language (the code when unknown);
    with the variant, naming tiles or cards."""
    return verdict_render.headline(reason, material_of(variant) if variant else None)


class RuleLink:
    """The rule behind a verdict: a button to the rule book at its section ("not valid"
    verdicts also show the rule's text, through :mod:`app.ui.home.rulebook_view`).

    Attributes:
        route: where the button leads (``/rules/<variant>/<section>``, or the game's rule book
            ``/game/<id>/rules/<section>``).
        control: what the verdict shows.
    """

    def __init__(
        self,
        app: App,
        variant: str,
        answer: Mapping[str, Any],
        check: str,
        game: Game | None = None,
        options: Mapping[str, Any] | None = None,
        text: bool = False,
    ) -> None:
        self.app = app
        rule = answer.get("rule")
        rule = rule if isinstance(rule, str) else ""
        self.route: str | None = rule_route(variant, answer, check)
        self.control: ft.Control = ft.Text(
            _("Rules: {variant}").format(variant=labels.variant_name(variant)),
            size=13,
            color=MUTED,
        )
        try:  # the rule book (another module) knows its sections best
            link = rb.link_for_answer(variant, answer, check)
            self.route = link.route(game.id if game is not None else None)
            if text:
                self.control = rv.rule_excerpt(app, variant, answer, check, game, options)
            else:
                reason = answer.get("reason")
                self.control = rv.rule_button(
                    app,
                    variant,
                    rule,
                    reason if isinstance(reason, str) else None,
                    check,
                    answer,
                    game.id if game is not None else None,
                )
            return
        except Exception:  # noqa: BLE001 - without the rule book, a plain link still helps
            log.debug("rule book link failed", exc_info=True)
        if self.route is not None:
            self.control = ft.TextButton(
                content=_("Rules: {variant}").format(variant=labels.variant_name(variant)),
                icon=ft.Icons.MENU_BOOK,
                on_click=self.open,
            )

    def open(self, _e: Any = None) -> None:
        """Go to the rule (the checker is kept for the way back)."""
        if self.route is not None:
            keep_checker(self.app)
            self.app.go(f"{self.route}?from={FROM_CHECKER}")


def problem_lines(
    answer: Mapping[str, Any], request: Mapping[str, Any] | None = None
) -> list[ft.Control]:
    """Reason headline and the verdict's message (:func:`app.verdict_render.verdict_message`,
    in the player's language) of a "not valid" answer to ``request``."""
    out: list[ft.Control] = []
    reason = answer.get("reason")
    if isinstance(reason, str):
        out.append(
            ft.Text(
                _("Reason: {reason}").format(
                    reason=reason_text(
                        reason,
                        str(request["variant"])
                        if isinstance(request, Mapping) and is_variant(request.get("variant"))
                        else None,
                    )
                ),
                size=17,
                weight=ft.FontWeight.W_600,
                color=ERROR_COLOUR,
            )
        )
    message = verdict_render.verdict_message(answer, request)
    if message:
        out.append(ft.Text(human_message(message), size=15))
    return out


def error_panel(answer: Mapping[str, Any], request: Mapping[str, Any] | None = None) -> ft.Control:
    """An answer the judge could not give (``ok: false``): what is wrong with the input."""
    return card(
        ft.Column(
            [
                ft.Text(
                    _("Cannot check this yet"),
                    size=18,
                    weight=ft.FontWeight.BOLD,
                    color=ERROR_COLOUR,
                ),
                ft.Text(human_message(verdict_render.error_message(answer, request)), size=15),
            ],
            spacing=4,
        ),
        bgcolor=ft.Colors.ERROR_CONTAINER,
    )


def panel(controls: list[ft.Control], valid: bool | None) -> ft.Container:
    """The verdict's box: green-tinted when valid, red-tinted when not."""
    bg = (
        ft.Colors.SURFACE_CONTAINER_HIGHEST
        if valid is None
        else (ft.Colors.TERTIARY_CONTAINER if valid else ft.Colors.ERROR_CONTAINER)
    )
    return card(ft.Column(controls, spacing=8), bgcolor=bg)


def said_piece(code: str, material: str) -> str:
    """A piece inside a verdict's sentence: a card as every sentence names it ("Q pik",
    :func:`app.ui.common.labels.card_words`, so it reads as in the engine's lines beside it)
    where the language names cards so, else (English, which writes ``QS`` in a sentence) and
    for a tile by its spoken name ("queen of spades", "red 13"); a code that is neither as
    it is."""
    if material == "cards" and labels.is_card_code(code):
        words = labels.card_words(code)
        if words != code:
            return words
    try:
        return piece_name(code, material)  # type: ignore[arg-type]
    except ValueError:
        return code


def jokers_line(tiles: Sequence[str], jokers: Sequence[str], material: str) -> str | None:
    """ "Joker = red 13" / "Jokers = red 8, red 9" (None without jokers)."""
    if not jokers:
        return None
    numbers = {j[1:] for j in jokers if j.startswith("?")}
    if len(numbers) == 1 and all(j.startswith("?") for j in jokers):  # a group's open jokers
        number = number_word(numbers.pop(), material)  # type: ignore[arg-type]
        if material == "cards":
            text = ngettext(
                "The joker is a {number} of a missing suit",
                "The jokers are {number}s of the missing suits",
                len(jokers),
            )
        else:
            text = ngettext(
                "The joker is a {number} of a missing colour",
                "The jokers are {number}s of the missing colours",
                len(jokers),
            )
        return text.format(number=number)
    names = [said_piece(j, material) for j in jokers]
    return ngettext("Joker = {pieces}", "Jokers = {pieces}", len(jokers)).format(
        pieces=", ".join(names)
    )


def moved_title(answer: Mapping[str, Any], entered: Sequence[str], material: str) -> str | None:
    """The headline of a run valid only in another order than laid (RULES.md §1: the engine
    normalises an order that cannot be a run; its answer says so with ``params.how`` =
    ``meld.how.rearranged``, ``tiles`` in the order that is a run and ``jokers`` naming what
    each joker stands for): "Valid run with the joker moved to the front (as red 11)", "… to
    the end (as …)", "… moved (as …)" when the jokers went elsewhere or split, "Valid run once
    the tiles are put in order" when no joker moved. None for a meld valid as laid (or any
    other answer)."""
    how = (answer.get("params") or {}).get("how") or {}
    if not answer.get("valid") or answer.get("kind") != "run":
        return None
    if not isinstance(how, Mapping) or how.get("key") != "meld.how.rearranged":
        return None
    tiles = [str(t) for t in answer.get("tiles", [])]
    names = [said_piece(str(j), material) for j in answer.get("jokers", [])]
    laid_at = [i for i, c in enumerate(entered) if c == "JK"]
    shown_at = [i for i, c in enumerate(tiles) if c == "JK"]
    n = len(shown_at)
    if not names or not shown_at or laid_at == shown_at:
        if material == "tiles":
            return _("Valid run once the tiles are put in order")
        return _("Valid run once the cards are put in order")
    pieces = ", ".join(names)
    if shown_at == list(range(n)):
        text = ngettext(
            "Valid run with the joker moved to the front (as {pieces})",
            "Valid run with the jokers moved to the front (as {pieces})",
            n,
        )
    elif shown_at == list(range(len(tiles) - n, len(tiles))):
        text = ngettext(
            "Valid run with the joker moved to the end (as {pieces})",
            "Valid run with the jokers moved to the end (as {pieces})",
            n,
        )
    else:
        text = ngettext(
            "Valid run with the joker moved (as {pieces})",
            "Valid run with the jokers moved (as {pieces})",
            n,
        )
    return text.format(pieces=pieces)


def reordered_text(answer: Mapping[str, Any], entered: Sequence[str], material: str) -> str:
    """Why a valid meld is shown in another order than it was laid (RULES.md §1): a run the
    laid order cannot make is said to be no run as laid ("R12 R13 JK": after 13 no joker can
    stand), and valid only in the order shown, with its jokers named; otherwise the order
    shown is just sorted ("Shown in order; entered as …")."""
    laid = labels.pieces_words(list(entered), material)
    how = (answer.get("params") or {}).get("how") or {}
    if answer.get("kind") != "run" or how.get("key") != "meld.how.rearranged":
        return _("Shown in order; entered as {pieces}.").format(pieces=laid)
    shown = labels.pieces_words([str(t) for t in answer.get("tiles", [])], material)
    out = []
    top = "13" if material == "tiles" else "K"
    if len(entered) > 1 and entered[-1] == "JK" and entered[-2][1:] == top:
        if material == "tiles":
            out.append(
                _(
                    "As laid ({pieces}) this is not a run: after 13 no joker can stand"
                    " (12-13-1 is no run)."
                ).format(pieces=laid)
            )
        else:
            out.append(
                _(
                    "As laid ({pieces}) this is not a run: after the king no joker can"
                    " stand (Q-K-A is no run here)."
                ).format(pieces=laid)
            )
    else:
        out.append(_("As laid ({pieces}) this is not a run.").format(pieces=laid))
    names = [said_piece(str(j), material) for j in answer.get("jokers", [])]
    if names:
        out.append(
            ngettext(
                "In the order shown ({pieces}), with the joker as {jokers}, it is a valid run.",
                "In the order shown ({pieces}), with the jokers as {jokers}, it is a valid run.",
                len(names),
            ).format(pieces=shown, jokers=", ".join(names))
        )
    else:
        out.append(_("In the order shown ({pieces}) it is a valid run.").format(pieces=shown))
    return " ".join(out)


def subheading(text: str, weight: ft.FontWeight = ft.FontWeight.W_500) -> ft.Text:
    """A line that names what follows it (a question, a row of pieces) within a section."""
    return ft.Text(text, size=15, weight=weight)


def pieces_line(label: str, pieces: Sequence[str], material: Any) -> ft.Control:
    """``label`` and then the ``pieces`` drawn small, wrapping ("Played: R5 R6 R7")."""
    return ft.Row(
        [subheading(label, ft.FontWeight.W_600), *[piece_view(p, material, "s") for p in pieces]],
        wrap=True,
        spacing=6,
    )


def melds_row(melds: Sequence[Sequence[str]], material: Any, jokers: Any = None) -> ft.Control:
    """Small melds side by side, wrapping (a hand's melds, a heap's split); ``jokers``: the
    judge's per-meld list of what each joker stands for (drawn under each joker), if any."""
    stand = [list(j) if isinstance(j, list) else [] for j in jokers or []]
    stand = (stand + [[] for _ in melds])[: len(melds)]
    return ft.Row(
        [
            meld_view(m, material, [str(j) for j in js], size="s")
            for m, js in zip(melds, stand, strict=True)
        ],
        wrap=True,
        spacing=2,
        run_spacing=2,
        vertical_alignment=ft.CrossAxisAlignment.START,
    )


# -- the variant and its options --------------------------------------------------------------
class Rules:
    """The variant and options a checker uses: the game's, or chosen on the screen."""

    def __init__(self, variant: str, options: Mapping[str, Any] | None = None) -> None:
        self.variant = variant
        self.about: VariantInfo = about(variant)
        self.options: dict[str, Any] = dict(options or {})
        try:
            self.typed: Any = options_for(variant, self.options)
        except RulesError:
            self.options = {}
            self.typed = options_for(variant, {})

    @property
    def described(self) -> Variant:
        """The engine's description of the variant (:class:`rules.variant.Variant`)."""
        return self.about.rules

    @property
    def rising(self) -> bool:
        """An opening threshold that rises with the round's openings is in force (Rummy 101's
        ``threshold_mode: rising``)."""
        return getattr(self.typed, "threshold_mode", None) == "rising"

    @property
    def preset(self) -> str:
        """The preset in force."""
        return str(getattr(self.typed, "preset", ""))

    def request(self, check: str, **fields: Any) -> dict[str, Any]:
        """A judge request for this variant and options."""
        return {"check": check, "variant": self.variant, "options": dict(self.options), **fields}

    def summary(self) -> str:
        """ "Tile Rummy · Rummikub · initial meld 30 · Joker rule: level 2 (match from the
        rack)"."""
        parts = [labels.variant_name(self.variant)]
        if len(self.about.presets) > 1:
            parts.append(labels.preset_name(self.preset))
        t = self.typed
        has = self.described.has_option
        if has("threshold"):  # Rummy 101
            parts.append(_("opens with {n} or {p} pairs").format(n=t.threshold, p=t.pairs_needed))
            if self.rising:
                parts.append(_("rising threshold"))
        elif has("initial_meld"):  # Tile Rummy, My Rummy
            parts.append(_("initial meld {n}").format(n=t.initial_meld))
        if has("joker_rule"):  # Tile Rummy's levels 0–4, My Rummy's own
            choices = self.about.option_choices("joker_rule")
            parts.append(joker_rule_name(str(t.joker_rule), len(choices or ()) > 1))
        elif has("knock_max"):  # Gin, Carousel
            parts.append(knock_limit_words(self.variant, t.knock_max))
        return " · ".join(parts)


def knock_limit_words(variant: str, knock_max: int) -> str:
    """The knock limit in words (:func:`app.ui.common.labels.knock_limit_words`)."""
    return labels.knock_limit_words(variant, knock_max)


def joker_rule_name(rule: str, chosen: bool) -> str:
    """The joker rule in force as a whole phrase: "Joker rule: level 2 (match from the rack)"
    when the variant offers a choice (``chosen``, Tile Rummy's levels 0–4), else the rule's own
    name ("My Rummy's joker rule")."""
    name = labels.choice_phrase(rule)
    if not chosen:
        return name
    return _("{option}: {value}").format(option=labels.option_label("joker_rule")[0], value=name)


# -- the referee menu: the variant kept per device, subtitles that fit it (issue 10, point 6) ---
VARIANT_PREF = "rummy_referee.check_variant"
"""``ft.SharedPreferences`` key of the variant the referee menu showed last on this device."""


def remembered_variant(app: App) -> str | None:
    """The variant this device's referee menu showed last, as read this session (None: not
    known yet or never chosen). Kept in the session's ``app.device`` (read from the browser's
    storage, :meth:`CheckHome.load_remembered`)."""
    device = getattr(app, "device", None)
    v = device.get(VARIANT_PREF) if isinstance(device, dict) else None
    return v if is_variant(v) else None


def remember_variant(app: App, variant: str) -> None:
    """Keep ``variant`` as this device's referee variant (the session and the browser)."""
    device = getattr(app, "device", None)
    if isinstance(device, dict):
        device[VARIANT_PREF] = variant
    if not callable(getattr(getattr(app, "page", None), "run_task", None)):
        return

    async def keep() -> None:
        try:
            await ask_client(ft.SharedPreferences().set(VARIANT_PREF, variant))
        except Exception:  # noqa: BLE001 - a browser that refuses storage
            log.debug("cannot keep the referee variant", exc_info=True)

    app.run(keep)


def takes_discard(variant: str) -> bool:
    """Can an opening use the discard taken this turn? Rummy 101 only (its opening has a
    threshold): the engine refuses a ``taken_discard`` for the Tile Rummy / My Rummy initial
    meld (rules/variants/tiles.py)."""
    return about(variant).rules.has_option("threshold")


def kind_blurb(kind: str, variant: str, options: Mapping[str, Any] | None = None) -> str:
    """The referee menu's line under a check, for ``variant`` with ``options``: pairs only
    where pairs are melds, jokers only where the variant has them, the opening's threshold,
    the taken discard where an opening may use it, the knock limit (from the engine's
    :func:`rules.variant.meld_rules` and the options)."""
    mr = about(variant).rules.meld_rules
    typed: Any = Rules(variant, options).typed
    if kind == "meld":
        if mr.pairs:
            return _("Run, group or pair? Its value and what each joker stands for")
        if mr.jokers:
            return _("Run or group? Its value and what each joker stands for")
        return _("Run or group? Valid or not, and its value")
    if kind == "opening":
        if mr.pairs and takes_discard(variant):
            return ngettext(
                "Enough to open? {n} point or {p} pairs, the taken discard",
                "Enough to open? {n} points or {p} pairs, the taken discard",
                typed.threshold,
            ).format(n=typed.threshold, p=typed.pairs_needed)
        return ngettext(
            "Enough for the initial meld? {n} point, own tiles only",
            "Enough for the initial meld? {n} points, own tiles only",
            typed.initial_meld,
        ).format(n=typed.initial_meld)
    if kind == "hand":
        if typed.knock_max == 0:  # a house option: nothing left to count
            if mr.jokers:
                return _("Hand value and the best melds; may it knock (only with a hand worth 0)?")
            return _("Deadwood and the best melds; is it gin? (only gin goes down in this game)")
        if mr.jokers:  # Carousel: the hand's value, jokers counted
            return _("Hand value and the best melds; may it knock (hand value ≤ {n})?").format(
                n=typed.knock_max
            )
        return _("Deadwood and the best melds; may it knock (deadwood ≤ {n})?").format(
            n=typed.knock_max
        )
    return _(KIND_BLURBS[kind])


# -- screens ----------------------------------------------------------------------------------
class CheckHome:
    """``/check``: the variant (chips, or the game's) and one big button per check.

    Without a game or a ``?variant=``, the variant is the one this device chose last
    (:data:`VARIANT_PREF`); a choice is kept for next time."""

    def __init__(self, app: App, game: Game | None = None, variant: str | None = None) -> None:
        self.app = app
        self.game = game
        asked = variant
        if game is None and variant is None:
            variant = remembered_variant(app)
        self.variant = game.variant if game is not None else (variant or DEFAULT_VARIANT)
        self.buttons: dict[str, ft.Control] = {}
        self.list = ft.Column(spacing=10)
        controls: list[ft.Control] = []
        self.chips: ChoiceChips | None = None
        if game is None:
            self.chips = ChoiceChips(
                [(v, labels.variant_name(v)) for v in VARIANT_KEYS],
                self.variant,
                on_change=self._variant_changed,
            )
            controls += [heading(_("Variant")), self.chips.control]
        else:
            controls.append(
                muted(
                    _("This game's rules: {rules}").format(
                        rules=Rules(game.variant, game.options).summary()
                    )
                )
            )
        controls.append(self.list)
        self._fill()
        back = f"/game/{game.id}" if game is not None else "/"
        self.view = frame(
            app, check_route(game_id=game.id if game else None), _("Referee"), controls, back=back
        )
        device = getattr(app, "device", None)
        if (
            game is None
            and asked is None
            and isinstance(device, dict)
            and VARIANT_PREF not in device
            and callable(getattr(app.page, "run_task", None))
        ):
            app.run(self.load_remembered)

    async def load_remembered(self) -> None:
        """Read this device's referee variant from the browser and show it (once a session)."""
        try:
            kept = await ask_client(ft.SharedPreferences().get(VARIANT_PREF))
        except Exception:  # noqa: BLE001 - storage refused: keep the default
            log.debug("cannot read the referee variant", exc_info=True)
            return
        device = getattr(self.app, "device", None)
        if isinstance(device, dict):
            device.setdefault(VARIANT_PREF, kept if is_variant(kept) else None)
        if is_variant(kept) and kept != self.variant and self.app.screen is self:
            self.set_variant(str(kept))
            self.app.page_update()

    def set_variant(self, variant: str) -> None:
        """Show ``variant``'s checks (without remembering it)."""
        self.variant = variant
        if self.chips is not None:
            self.chips.set(variant)
        self._fill()

    def _variant_changed(self, key: str | None) -> None:
        if key is not None:
            self.variant = key
            remember_variant(self.app, key)
        elif self.chips is not None:
            self.chips.set(self.variant)
        self._fill()
        self.app.page_update()  # the buttons lie outside the chip Flet updates

    def _fill(self) -> None:
        self.buttons = {}
        items: list[ft.Control] = []
        for kind in kinds_for(self.variant):
            self.buttons[kind] = self._button(kind)
            items.append(self.buttons[kind])
        self.list.controls = items

    def blurb(self, kind: str) -> str:
        """The line under ``kind``'s button: for the game's rules, else the variant's
        default ones (:func:`kind_blurb`)."""
        options = self.game.options if self.game is not None else None
        return kind_blurb(kind, self.variant, options)

    def _button(self, kind: str) -> ft.Control:
        def go(_e: Any = None) -> None:
            self.open(kind)

        return ft.Container(
            content=ft.Row(
                [
                    ft.Icon(KIND_ICONS[kind], size=30, color=ft.Colors.PRIMARY),
                    ft.Column(
                        [
                            ft.Text(_(KIND_TITLES[kind]), size=19, weight=ft.FontWeight.BOLD),
                            ft.Text(self.blurb(kind), size=14, color=MUTED),
                        ],
                        spacing=2,
                        tight=True,
                        expand=True,
                    ),
                    ft.Icon(ft.Icons.CHEVRON_RIGHT, color=MUTED),
                ],
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
            on_click=go,
            ink=True,
            padding=14,
            border_radius=12,
            bgcolor=ft.Colors.PRIMARY_CONTAINER,
        )

    def open(self, kind: str) -> None:
        """Open the checker ``kind`` for the variant chosen."""
        if self.game is not None:
            self.app.go(check_route(kind, game_id=self.game.id))
        else:
            self.app.go(check_route(kind, variant=self.variant))


class Checker:
    """What every checker screen shares: the rules in force (the game's, or variant and preset
    chips), a body of inputs rebuilt when the variant changes, and the verdict box.

    Attributes:
        rules: the variant and options in force.
        verdict: the box the verdict is drawn in.
        answer: the judge's last answer (None before the first check).
        rule_link: the rule link of the last "not valid" verdict, if any.
    """

    kind = "meld"
    discard: PieceKeyboard | None
    """The taken discard's keyboard (Rummy 101's opening and turn), else None."""
    discard_box: ft.Column
    took: ChoiceChips | None
    """"Drew from the stock" or "Took the discard" (with :attr:`discard`), else None."""

    def __init__(self, app: App, game: Game | None = None, variant: str | None = None) -> None:
        self.app = app
        self.game = game
        self.language = app.language
        """The language its words were built in: kept for coming back only while the session
        speaks it (a checker built in Slovak stayed Slovak after Settings → Polski)."""
        self.players = len(game.players) if game is not None else None
        if game is not None:
            self.rules = Rules(game.variant, game.options)
        else:
            if variant is None:  # this device's referee variant (the menu's)
                variant = remembered_variant(app)
            v = variant if is_variant(variant) and self.kind in kinds_for(variant) else None
            self.rules = Rules(v or kinds_variants(self.kind)[0])
            if v is not None and v != remembered_variant(app):  # a link to another variant:
                remember_variant(app, v)  # its ← leads to the menu of that variant
        self.answer: dict[str, Any] | None = None
        self.request: dict[str, Any] | None = None
        """The judge request of :attr:`answer` (its verdict is worded from both)."""
        self.rule_link: RuleLink | None = None
        self.verdict = ft.Column(spacing=8, key=ft.ScrollKey(VERDICT_KEY))  # type: ignore[call-arg]
        self.body = ft.Column(spacing=12)
        self.rule_box = ft.Column(spacing=8)
        """Where a live verdict's rule text goes: under the keys, so they do not move away."""
        self.summary = ft.Text("", size=14, color=MUTED, expand=True)
        self.variant_chips: ChoiceChips | None = None
        self.preset_chips: ChoiceChips | None = None
        self.choose_box: ft.Column | None = None
        header: list[ft.Control]
        if game is None:
            self.variant_chips = ChoiceChips(
                [(v, labels.variant_name(v)) for v in kinds_variants(self.kind)],
                self.rules.variant,
                on_change=self._variant_changed,
            )
            self.preset_chips = ChoiceChips([], None, on_change=self._preset_changed)
            self.choose_box = ft.Column(
                [self.variant_chips.control, self.preset_chips.control],
                spacing=8,
                visible=False,
            )
            self.change_button = ft.TextButton(
                content=_("Change the rules"), icon=ft.Icons.TUNE, on_click=self._toggle_rules
            )
            header = [
                ft.Row(
                    [self.summary, self.change_button],
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                ),
                self.choose_box,
            ]
        else:
            header = [ft.Row([self.summary])]
        back = check_route(game_id=game.id if game else None)
        controls = (
            [*header, self.verdict, self.body, self.rule_box]
            if self.verdict_first
            else [*header, self.body, self.verdict]
        )
        # an icon with its name as tooltip (read out, shown on a long press): the words beside
        # the title left it two lines in Polish and Slovak ("Skontrolovať vyloženie" next to
        # "Vymazať všetko") at 360 px
        self.clear_button = ft.IconButton(
            ft.Icons.DELETE_SWEEP_OUTLINED,
            tooltip=ft.Tooltip(message=_("Clear all"), exclude_from_semantics=True),
            on_click=self._clear_all,
        )
        # named once for screen readers (the tooltip is left out of it: it would say it twice)
        clear = ft.Semantics(label=_("Clear all"), button=True, content=self.clear_button)
        self.view = frame(
            app,
            check_route(self.kind, game_id=game.id if game else None),
            _(KIND_TITLES[self.kind]),
            controls,
            back=back,
            actions=[clear],
        )
        self._fields = {n: getattr(self.view, n) for n in _VIEW_FIELDS}
        """What this screen's View shows, to show it again when the player comes back."""
        _LEFT.setdefault(app, {})[(self.kind, game.id if game else None)] = self
        self._rebuild()

    verdict_first = True
    """The verdict stands above the inputs (live checks) or below them (checked on a tap)."""

    BACK_SCROLL_DELAY = 0.4
    """Seconds between the screen shown again and its verdict scrolled into view (the client
    lays the screen out first)."""

    def back_to_verdict(self) -> None:
        """Coming back from the rule link of the verdict: show the verdict again where it
        stands under the inputs (the opening and turn checkers); the screen would open at its
        top, the verdict out of sight under the keys. A live verdict stands at the top.

        The scroll is asked once the screen is shown (:attr:`App.on_rendered`, after
        :meth:`App.show` has asked for the top of the new screen), so it always comes last."""
        if self.verdict_first or not self.verdict.controls:
            return
        app = self.app
        page = getattr(app, "page", None)
        if page is None:
            return

        async def scroll() -> None:
            await asyncio.sleep(self.BACK_SCROLL_DELAY)
            if app.screen is not self or not page.views or page.views[-1] is not self.view:
                return  # the player went on meanwhile
            app.page_update()
            try:
                await page.views[-1].scroll_to(scroll_key=ft.ScrollKey(VERDICT_KEY), duration=250)  # type: ignore[call-arg]
            except Exception:  # noqa: BLE001 - scrolling is a nicety
                log.debug("scroll failed", exc_info=True)

        previous = app.on_rendered

        def rendered() -> None:
            app.on_rendered = previous  # once
            if previous is not None:
                previous()
            app.run(scroll)

        app.on_rendered = rendered

    def clear_all(self) -> None:
        """Start over: every input empty, no verdict (the rules in force are kept)."""
        self._rebuild()

    def _clear_all(self, _e: Any = None) -> None:
        self.clear_all()

    def _toggle_rules(self, _e: Any = None) -> None:
        if self.choose_box is not None:
            self.choose_box.visible = not self.choose_box.visible

    # -- the rules ------------------------------------------------------------------------------
    @property
    def variant(self) -> str:
        """The variant being checked."""
        return self.rules.variant

    @property
    def described(self) -> Variant:
        """The engine's description of the variant being checked."""
        return self.rules.described

    @property
    def material(self) -> Any:
        """``"tiles"`` or ``"cards"``."""
        return material_of(self.variant)

    def set_variant(self, variant: str) -> None:
        """Check ``variant`` (default preset) instead; the inputs start empty."""
        self.rules = Rules(variant)
        if self.variant_chips is not None:
            self.variant_chips.set(variant)
        self._rebuild()

    def set_options(self, options: Mapping[str, Any]) -> None:
        """Use ``options`` (``{"preset": …, overrides}``) for the variant; inputs are kept."""
        self.rules = Rules(self.variant, options)
        self._paint_rules()
        self.rules_changed()

    def _variant_changed(self, key: str | None) -> None:
        if key is not None and key != self.variant:
            self.set_variant(key)
            remember_variant(self.app, key)
        elif key is None and self.variant_chips is not None:
            self.variant_chips.set(self.variant)

    def _preset_changed(self, key: str | None) -> None:
        if key is not None:
            self.set_options({"preset": key})

    def _paint_rules(self) -> None:
        summary = self.rules.summary()
        if self.game is not None:
            summary = _("This game's rules: {rules}").format(rules=summary)
        self.summary.value = summary
        if self.preset_chips is not None:
            presets = list(self.rules.about.presets)
            if len(presets) > 1:
                self.preset_chips.set_choices(
                    [(p, labels.preset_name(p)) for p in presets], self.rules.preset
                )
                self.preset_chips.control.visible = True
            else:
                self.preset_chips.control.visible = False

    def _rebuild(self) -> None:
        self._paint_rules()
        self.answer = None
        self.rule_link = None
        self.verdict.controls = []
        self.body.controls = self.build_inputs()

    # -- for the subclasses ---------------------------------------------------------------------
    def build_inputs(self) -> list[ft.Control]:
        """The inputs of this check for :attr:`variant`."""
        raise NotImplementedError

    def rules_changed(self) -> None:
        """The options changed (inputs kept): check again where the verdict is live."""
        self.clear_verdict()

    def inputs(self) -> dict[str, Any]:
        """This screen's inputs by name (keyboards, meld lists, chips, number fields), for
        :meth:`take_over`; the base class has the taken discard's, where there is one."""
        got: dict[str, Any] = {}
        took, discard = getattr(self, "took", None), getattr(self, "discard", None)
        if took is not None and discard is not None:
            got.update(took=took, discard=discard)
        return got

    def take_over(self, old: Checker) -> None:
        """Carry everything entered on ``old`` (this kind, game and variant, built in the
        language the session spoke before) into this screen, built in the language now
        spoken: the rules chosen, the pieces and melds (what was typed with a problem too,
        the problem named again in the new language), the chips and numbers; then check
        again where ``old`` showed a verdict (a live one always), so it too is worded anew.
        """
        if old.rules.options != self.rules.options:
            self.set_options(old.rules.options)
        if self.choose_box is not None and old.choose_box is not None:
            self.choose_box.visible = old.choose_box.visible
        theirs = old.inputs()
        for name, mine in self.inputs().items():
            other = theirs.get(name)
            if isinstance(mine, PieceKeyboard) and isinstance(other, PieceKeyboard):  # noqa: SIM114 - each pair typed on its own
                mine.take_from(other)
            elif isinstance(mine, MeldsEditor) and isinstance(other, MeldsEditor):
                mine.take_from(other)
            elif isinstance(mine, ChoiceChips) and isinstance(other, ChoiceChips):
                mine.set(other.value)
            elif isinstance(mine, ft.TextField) and isinstance(other, ft.TextField):
                mine.value = other.value
        took = getattr(self, "took", None)
        if took is not None:
            self.discard_box.visible = took.value == "yes"
        self.inputs_taken(old)
        if self.verdict_first or old.verdict.controls:
            self.check()

    def inputs_taken(self, old: Checker) -> None:
        """After :meth:`take_over` carried the inputs: what a subclass keeps besides."""

    def check(self) -> dict[str, Any] | None:
        """Judge what is entered and show the verdict (None where nothing was judged)."""
        raise NotImplementedError

    def ask(self, check: str, **fields: Any) -> dict[str, Any]:
        """Ask the judge; the answer is kept in :attr:`answer`."""
        self.rule_box.controls = []
        if self.players is not None and self.rules.described.set_by_players:
            fields.setdefault("players", self.players)
        self.request = self.rules.request(check, **fields)
        self.answer = judge.answer(self.request)
        return self.answer

    def show(self, controls: list[ft.Control]) -> None:
        """Put a verdict on the screen."""
        self.verdict.controls = controls

    def render(self, a: Mapping[str, Any]) -> list[ft.Control]:
        """The verdict drawn from the judge's answer ``a``."""
        raise NotImplementedError

    def give_verdict(self, check: str, scroll: bool = False, **fields: Any) -> dict[str, Any]:
        """Ask the judge (:meth:`ask`) and show its verdict (:meth:`render`), scrolled to where
        ``scroll`` (a verdict under the inputs); the answer."""
        answer = self.ask(check, **fields)
        self.show(self.render(answer))
        if scroll:
            self.app.scroll_to(VERDICT_KEY)
        return answer

    def typed_problem(
        self, *editors: PieceKeyboard | MeldsEditor | TableEditor | None
    ) -> dict[str, Any] | None:
        """An ``ok: false`` answer naming the first problem of typed text in ``editors`` (piece
        keyboards or meld editors), so that no verdict is given on half-read pieces."""
        for editor in editors:
            if editor is not None and editor.problem:
                return {"ok": False, "error": "bad_token", "message": editor.problem}
        return None

    def discard_inputs(
        self, on_focus: Callable[[PieceKeyboard], None] | None = None
    ) -> list[ft.Control]:
        """The inputs under "This turn the player…": drew from the stock or took the discard,
        and the taken discard's keyboard, shown once "Took the discard" is tapped (Rummy 101,
        RULES.md §3).
        Sets :attr:`discard`, :attr:`discard_box` and :attr:`took`; ``on_focus`` as for
        :class:`PieceKeyboard`."""
        self.discard = PieceKeyboard(
            self.variant,
            _("Taken discard"),
            on_change=self.clear_verdict,
            max_pieces=1,
            on_focus=on_focus,
        )
        self.discard_box = ft.Column([self.discard.control], visible=False)
        self.took = ChoiceChips(
            [("no", _("Drew from the stock")), ("yes", _("Took the discard"))],
            "no",
            on_change=self._took_changed,
        )
        return [subheading(_("This turn the player…")), self.took.control, self.discard_box]

    def _took_changed(self, key: str | None) -> None:
        self.discard_box.visible = key == "yes"
        self.clear_verdict()

    def taken_discard(self) -> str | None:
        """The discard taken this turn: "Took the discard" tapped and the piece entered."""
        took = self.took is not None and self.took.value == "yes"
        if took and self.discard is not None and self.discard.value:
            return self.discard.value[0]
        return None

    def clear_verdict(self) -> None:
        """Remove the verdict (the inputs changed since)."""
        self.verdict.controls = []
        self.rule_box.controls = []
        self.answer = None
        self.rule_link = None

    def problems(self, answer: Mapping[str, Any]) -> list[ft.Control]:
        """Reason, message and the rule with its text (kept in :attr:`rule_link`). A live
        verdict (above the keys) shows a rule button; the rule's text goes under the keys."""
        if not self.verdict_first:
            return [*problem_lines(answer, self.request), self.link(answer, text=True)]
        excerpt = RuleLink(
            self.app, self.variant, answer, self.kind, self.game, self.rules.options, True
        )
        self.rule_box.controls = [excerpt.control]
        return [*problem_lines(answer, self.request), self.link(answer)]

    def link(self, answer: Mapping[str, Any], text: bool = False) -> ft.Control:
        """The rule behind ``answer`` (its text too where ``text``); kept in :attr:`rule_link`."""
        self.rule_link = RuleLink(
            self.app, self.variant, answer, self.kind, self.game, self.rules.options, text
        )
        return self.rule_link.control


def level_sentence(rule: str) -> str:
    """The Tile Rummy joker level ``rule`` (a :data:`JOKER_RULES` value) as one sentence of
    its own, in the rule book's words: "Joker level 2: a joker is replaced only by that tile,
    from the rack." (the chips' captions need the whole 0–4 list beside them)."""
    words = rb.option_words("joker_rule", rule, i18n.language())
    return words[:1].upper() + words[1:] + "."


# -- to the rule book and back (issue 10, point 5) ----------------------------------------------
_VIEW_FIELDS = VIEW_FIELDS
_KEPT: weakref.WeakKeyDictionary[Any, tuple[Checker, dict[str, Any]]] = weakref.WeakKeyDictionary()
"""Per session (app): the checker left for its rule, and what its screen showed."""

_LEFT: weakref.WeakKeyDictionary[Any, dict[tuple[str, str | None], Checker]] = (
    weakref.WeakKeyDictionary()
)
"""Per session (app): the last checker of each kind (and game), handed out again when the
player comes back to it (its ← leads to the referee menu): what was tapped stays until
"Clear all"."""

FROM_CHECKER = "check"
"""``?from=`` of a rule-book route opened from a verdict: its ← returns to the checker."""


def keep_checker(app: App) -> None:
    """Keep the checker on screen (its tapped pieces, rules and verdict) for the way back
    from the rule book: the app's ← or the browser's Back rebuild the checker's route, and
    :func:`build` hands this one out again instead of an empty one."""
    screen = getattr(app, "screen", None)
    if isinstance(screen, Checker):
        view = screen.view
        _KEPT[app] = (screen, {n: getattr(view, n) for n in _VIEW_FIELDS})


def kept_route(app: App) -> str | None:
    """The route of the checker kept by :func:`keep_checker`, if any."""
    got = _KEPT.get(app)
    if got is None:
        return None
    screen = got[0]
    return check_route(screen.kind, game_id=screen.game.id if screen.game else None)


def kept_rules(app: App, variant: str) -> tuple[dict[str, Any], str] | None:
    """The options (``{"preset": …, overrides}``) and their summary ("Tile Rummy · … · joker
    rule 3") of the checker kept by :func:`keep_checker`, when it checks ``variant``: the rule
    book opened from its verdict shows the rules that checker used, not the defaults. None when
    no checker is kept or it checks another variant."""
    got = _KEPT.get(app)
    if got is None or got[0].variant != variant:
        return None
    rules = got[0].rules
    return dict(rules.options), rules.summary()


def _kept_checker(app: App, kind: str, game: Game | None) -> Checker | None:
    got = _KEPT.pop(app, None)
    if got is None:
        return None
    screen, fields = got
    same_game = (screen.game.id if screen.game else None) == (game.id if game else None)
    if screen.kind != kind or not same_game:
        return None
    if screen.language != app.language:
        return _in_language(app, screen, game)
    screen.view = ft.View(**fields)  # the page's one View was handed to the rule book since
    screen.back_to_verdict()
    return screen


def kinds_variants(kind: str) -> list[str]:
    """Variants the check ``kind`` applies to, in the usual order."""
    return [v for v in VARIANT_KEYS if about(v).answers(kind)]


# -- meld ------------------------------------------------------------------------------------
class MeldChecker(Checker):
    """One meld, checked as it is tapped in."""

    kind = "meld"

    def build_inputs(self) -> list[ft.Control]:
        self.keyboard = PieceKeyboard(
            self.variant,
            _("Meld"),
            on_change=self._changed,
            players=self.players,
            show_pieces=False,
        )
        kinds = [("best", _("Best reading")), ("run", _("Run")), ("group", _("Group"))]
        if self.described.meld_rules.pairs:
            kinds.append(("pair", _("Pair")))
        self.read_as = ChoiceChips(kinds, "best", on_change=lambda _k: self._changed())
        self.show_empty()
        return [
            self.keyboard.control,
            *photo.for_keyboard(self.keyboard, self.players, one_meld=True),
            ft.Row(
                [ft.Text(_("Read as"), size=14, color=MUTED), self.read_as.control],
                wrap=True,
                spacing=8,
            ),
        ]

    def rules_changed(self) -> None:
        self.check()

    def inputs(self) -> dict[str, Any]:
        return {"keyboard": self.keyboard, "read_as": self.read_as}

    def _changed(self) -> None:
        self.check()

    def show_empty(self) -> None:
        """The verdict box before any piece: how to enter a meld."""
        hint = (
            _("Tap a colour, then the numbers, as the meld lies from left to right.")
            if self.material == "tiles"
            else _("Tap a suit, then the ranks, as the meld lies from left to right.")
        )
        self.clear_verdict()
        self.show([panel([ft.Text(hint, size=16, color=MUTED)], None)])

    def check(self) -> dict[str, Any] | None:
        """Judge the meld entered (a hint while it is empty; nothing while the typed text has
        a problem, which the keyboard names under its field)."""
        pieces = self.keyboard.value
        if self.keyboard.problem:
            self.clear_verdict()
            return None
        if not pieces:
            self.show_empty()
            return None
        fields: dict[str, Any] = {"meld": pieces}
        if self.read_as.value not in (None, "best"):
            fields["as"] = self.read_as.value
        return self.give_verdict("meld", **fields)

    def render(self, a: Mapping[str, Any]) -> list[ft.Control]:
        """The meld verdict."""
        if not a.get("ok"):
            return [error_panel(a, self.request)]
        material = self.material
        if not a.get("valid"):
            return [
                panel(
                    [
                        verdict_header(False, _("Not valid")),
                        meld_view(self.keyboard.value, material, fault=True),
                        *self.problems(a),
                    ],
                    False,
                )
            ]
        kind = str(a.get("kind", ""))
        tiles = [str(t) for t in a.get("tiles", [])]
        jokers = [str(j) for j in a.get("jokers", [])]
        moved = moved_title(a, self.keyboard.value, material)
        title = moved or _("Valid {kind}").format(kind=_(MELD_KINDS.get(kind, kind)))
        value = int(a.get("value", 0))
        parts: list[ft.Control] = [
            verdict_header(
                True,
                title,
                ngettext("{n} point", "{n} points", value).format(n=value),
                moved=moved is not None,
            ),
            ft.Semantics(
                label=_("Meld: {pieces}").format(pieces=meld_label(tiles, material, jokers)),
                content=meld_view(tiles, material, jokers, size="l"),
            ),
        ]
        line = jokers_line(tiles, jokers, material)
        if line:
            parts.append(ft.Text(line, size=16, weight=ft.FontWeight.W_500))
        if tiles != self.keyboard.value:
            parts.append(muted(reordered_text(a, self.keyboard.value, material)))
        others = a.get("alternatives") or []
        for alt in others:
            if not isinstance(alt, Mapping):
                continue
            akind = str(alt.get("kind", ""))
            avalue = int(alt.get("value", 0))
            atiles = [str(t) for t in alt.get("tiles", [])]
            ajokers = [str(j) for j in alt.get("jokers", [])]
            parts.append(
                ft.Text(
                    _("Other reading: {kind} worth {n}").format(
                        kind=_(MELD_KINDS.get(akind, akind)), n=avalue
                    ),
                    size=15,
                    weight=ft.FontWeight.W_600,
                )
            )
            parts.append(meld_view(atiles, material, ajokers, size="s"))
            aline = jokers_line(atiles, ajokers, material)
            if aline:
                parts.append(muted(aline))
        if others:
            parts.append(
                muted(_("The reading worth more stands unless the player says otherwise."))
            )
        parts.append(self.link(a))
        box = panel(parts, True)
        if moved is not None:  # not the plain green "valid": as laid, the meld is no run
            box.bgcolor = MOVED_BACKGROUND
        return [box]


# -- opening -----------------------------------------------------------------------------------
class OpeningChecker(Checker):
    """Rummy 101 opening (by melds or pairs, threshold, taken discard) or the Tile Rummy / My
    Rummy initial meld."""

    kind = "opening"
    verdict_first = False

    def build_inputs(self) -> list[ft.Control]:
        self.melds = MeldsEditor(
            self.variant, _("Opening"), on_change=self.clear_verdict, players=self.players
        )
        self.discard = None
        self.took = None
        self.highest: ft.TextField | None = None
        self.most_pairs: ft.TextField | None = None
        self.record_button: ft.OutlinedButton | None = None
        controls: list[ft.Control] = [self.need_text()]
        if self.described.meld_rules.pairs:
            controls.append(muted(_("Enter each meld (or pair) laid in this turn.")))
        else:
            controls.append(muted(_("Enter each new meld laid from the rack in this turn.")))
        controls.append(self.melds.control)
        controls += photo.for_melds(self.melds, self.players)
        if self.described.has_option("threshold_mode"):
            self.highest = ft.TextField(
                label=_("Highest opening by melds so far this round"),
                keyboard_type=ft.KeyboardType.NUMBER,
                dense=True,
                on_change=lambda _e=None: self.clear_verdict(),
            )
            self.most_pairs = ft.TextField(
                label=_("Most pairs in an opening so far this round"),
                keyboard_type=ft.KeyboardType.NUMBER,
                dense=True,
                on_change=lambda _e=None: self.clear_verdict(),
            )
            self.recorded = muted("")
            self.recorded.visible = False
            self.rising_box = ft.Column(
                [
                    muted(
                        _(
                            "Rising threshold: each opening must beat the highest so far. "
                            "Leave empty if nobody has opened yet."
                        )
                    ),
                    self.recorded,
                    self.highest,
                    self.most_pairs,
                ],
                spacing=6,
                visible=self.rules.typed.threshold_mode == "rising",
            )
            controls.append(self.rising_box)
            self._fill_recorded()
            controls += self.discard_inputs()
        self.check_button = ft.Row(
            [primary_button(_("Check the opening"), self._check_clicked, ft.Icons.GAVEL)]
        )
        controls.append(self.check_button)
        return controls

    def _fill_recorded(self) -> None:
        """From a game's sheet: the openings recorded this round give the highest so far
        (RULES.md §3 rising threshold; :func:`app.ui.entry.round_entry.round_openings`)."""
        if self.game is None or self.highest is None or self.most_pairs is None:
            return
        got = round_openings(self.game)
        melds = [o["value"] for o in got if o["by"] == "melds"]
        pairs = [o["pairs"] for o in got if o["by"] == "pairs"]
        self.highest.value = str(max(melds)) if melds else ""
        self.most_pairs.value = str(max(pairs)) if pairs else ""
        self.recorded.value = _("Recorded this round: {list}.").format(list=openings_text(got))
        self.recorded.visible = bool(got)

    def record(self, _e: Any = None) -> bool:
        """Record the opening just judged valid for the round being played (the game's sheet,
        rising threshold), so the next check knows the threshold; True when stored."""
        a = self.answer or {}
        if self.game is None or not self.rules.rising or not a.get("valid"):
            return False
        by = str(a.get("by"))
        amount = a.get("pairs") if by == "pairs" else a.get("value")
        if not isinstance(amount, int):
            return False
        current = self.app.store.load_game(self.game.id)
        try:
            new = record_opening(current, by, amount)
        except ValueError:
            return False
        stored = save_game(self.app, new, current.version, base=current)
        if stored is None:
            return False
        self.game = stored
        self._fill_recorded()
        self.app.notify(_("Opening recorded for round {n}").format(n=len(stored.rounds) + 1))
        if self.record_button is not None:
            self.record_button.visible = False
        return True

    def need_text(self) -> ft.Control:
        t = self.rules.typed
        if self.described.has_option("threshold"):
            text = ngettext(
                "Opening needs {n} point in runs and groups, or {p} pairs.",
                "Opening needs {n} points in runs and groups, or {p} pairs.",
                t.threshold,
            ).format(n=t.threshold, p=t.pairs_needed)
        else:
            text = ngettext(
                "The initial meld needs {n} point, own tiles only.",
                "The initial meld needs {n} points, own tiles only.",
                t.initial_meld,
            ).format(n=t.initial_meld)
        self.need = ft.Text(text, size=16, weight=ft.FontWeight.W_500)
        return self.need

    def inputs(self) -> dict[str, Any]:
        return {
            **super().inputs(),
            "melds": self.melds,
            "highest": self.highest,
            "most_pairs": self.most_pairs,
        }

    def rules_changed(self) -> None:
        self.clear_verdict()
        self.need_text()
        self.body.controls[0] = self.need
        if self.described.has_option("threshold_mode"):
            self.rising_box.visible = self.rules.rising

    def _took_changed(self, key: str | None) -> None:
        self.melds.show_keys(key != "yes")  # one keyboard at a time: the discard's or the melds'
        super()._took_changed(key)

    def _check_clicked(self, _e: Any = None) -> None:
        self.check()

    def check(self) -> dict[str, Any]:
        """Judge the opening entered."""
        typed = self.typed_problem(self.melds)
        if typed is not None:
            self.show(self.render(typed))
            return typed
        fields: dict[str, Any] = {"melds": self.melds.value}
        if takes_discard(self.variant):
            previous: list[dict[str, Any]] = []
            if self.rules.rising:
                for box, by, key in (
                    (self.highest, "melds", "value"),
                    (self.most_pairs, "pairs", "pairs"),
                ):
                    raw = (box.value or "").strip() if box is not None else ""
                    if box is not None:
                        box.error = None
                    if raw:
                        if not raw.isdigit():
                            assert box is not None
                            box.error = _("Enter a whole number")
                            continue
                        previous.append({"by": by, key: int(raw)})
            if previous:
                fields["previous_openings"] = previous
            taken = self.taken_discard()
            if taken is not None:
                fields["taken_discard"] = taken
        return self.give_verdict("opening", scroll=True, **fields)

    def render(self, a: Mapping[str, Any]) -> list[ft.Control]:
        """The opening verdict: valid or not, how counted, each meld drawn."""
        self.melds.set_faults(set())
        if not a.get("ok"):
            return [error_panel(a, self.request)]
        valid = bool(a.get("valid"))
        by = a.get("by")
        value = a.get("value", 0)
        pairs = a.get("pairs", 0)
        needed = a.get("needed")
        if by == "pairs":
            detail = ngettext(
                "{n} pair (needs {need}; no point minimum)",
                "{n} pairs (needs {need}; no point minimum)",
                pairs if isinstance(pairs, int) else 0,
            ).format(n=pairs, need=a.get("pairs_needed"))
        else:
            detail = ngettext(
                "{n} point (needs {need})", "{n} points (needs {need})", abs(int(value))
            ).format(n=value, need=needed)
        title = _("Valid opening") if valid else _("Not valid")
        if not self.described.has_option("threshold"):
            title = _("Valid initial meld") if valid else _("Not valid")
        parts: list[ft.Control] = [verdict_header(valid, title, detail)]
        melds = [m for m in a.get("melds", []) if isinstance(m, Mapping)]
        faults = {i for i, m in enumerate(melds) if not m.get("valid", True)}
        if not valid:
            parts += self.problems(a)
        self.melds.set_faults(faults)
        self.record_button = None
        if valid and self.rules.rising and self.game is not None:
            self.record_button = ft.OutlinedButton(
                content=_("Record this opening for round {n}").format(n=len(self.game.rounds) + 1),
                icon=ft.Icons.BOOKMARK_ADD_OUTLINED,
                on_click=self.record,
                height=44,
            )
            parts.append(self.record_button)
        for i, m in enumerate(melds):
            tiles = [str(t) for t in m.get("tiles", [])]
            if m.get("valid", True):
                k = str(m.get("kind", ""))
                v = m.get("value", 0)
                caption = ngettext(
                    "Meld {n}: {kind}, {v} point",
                    "Meld {n}: {kind}, {v} points",
                    abs(int(v)) if isinstance(v, int) else 0,
                ).format(n=i + 1, kind=_(MELD_KINDS.get(k, k)), v=v)
            else:
                caption = _("Meld {n}: not valid").format(n=i + 1)
            parts.append(
                meld_view(
                    tiles,
                    self.material,
                    [str(j) for j in m.get("jokers", [])],
                    size="s",
                    fault=i in faults,
                    caption=caption,
                )
            )
        return [panel(parts, valid)]


# -- turn ----------------------------------------------------------------------------------------
class TurnChecker(Checker):
    """One turn on the shared table: table before, rack, table after (melds or a heap)."""

    kind = "turn"
    verdict_first = False

    def build_inputs(self) -> list[ft.Control]:
        card_game = self.material == "cards"
        self.before = TableEditor(
            self.variant,
            _("Table before"),
            on_change=self._before_changed,
            players=self.players,
            on_focus=self._focused,
        )
        self.rack = PieceKeyboard(
            self.variant,
            _("Hand before the turn") if card_game else _("Rack before the turn"),
            on_change=self.clear_verdict,
            players=self.players,
            on_focus=self._focused,
        )
        self.after = TableEditor(
            self.variant,
            _("Table after"),
            on_change=self.clear_verdict,
            players=self.players,
            on_focus=self._focused,
            moves=True,
        )
        self._mirrored: list[list[str]] = []
        """The table before last copied into the table after (which follows the table before
        until it is changed)."""
        self._heap_mirrored: list[str] = []
        self.heap = PieceKeyboard(
            self.variant,
            _("Table after (all cards)") if card_game else _("Table after (all tiles)"),
            on_change=self.clear_verdict,
            players=self.players,
            on_focus=self._focused,
        )
        self.after_mode = ChoiceChips(
            [("melds", _("Meld by meld")), ("heap", _("As a heap"))],
            "melds",
            on_change=self._mode_changed,
        )
        self.opened: ChoiceChips | None = None
        self.level: ChoiceChips | None = None
        self.took = None
        self.discard = None
        controls: list[ft.Control] = []
        if not self.described.judges_table_turns:  # Rummy 101, no heap: melds are only added to
            self.after_mode.control.visible = False
            self.opened = ChoiceChips(
                [
                    ("none", _("Had not opened")),
                    ("melds", _("Had opened with melds")),
                    ("pairs", _("Had opened with pairs")),
                ],
                "melds",
                on_change=lambda _k: self.clear_verdict(),
            )
            controls += [
                subheading(_("Before this turn the player…")),
                self.opened.control,
                *self.discard_inputs(on_focus=self._focused),
            ]
        if self.described.has_option("initial_meld"):  # Tile Rummy, My Rummy
            self.opened = ChoiceChips(
                [
                    ("yes", _("Had made the initial meld")),
                    ("no", _("This is the initial meld")),
                ],
                "yes",
                on_change=lambda _k: self.clear_verdict(),
            )
            controls += [subheading(_("Before this turn the player…")), self.opened.control]
        if len(self.described.joker_rules) > 1 and self.game is None:  # Tile Rummy's levels
            self.level = ChoiceChips(
                [(r, str(i)) for i, r in enumerate(self.described.joker_rules)],
                self.rules.typed.joker_rule,
                on_change=self._level_changed,
            )
            for i, chip in enumerate(self.level.chips.values()):
                if isinstance(chip.label, ft.Text):
                    chip.label.semantics_label = _("Joker rule {n}").format(n=i)
            self.level_text = ft.Text("", size=14, color=MUTED)
            controls += [
                ft.Row(
                    [
                        subheading(_("Joker rule")),
                        self.level.control,
                    ],
                    wrap=True,
                    spacing=10,
                ),
                self.level_text,
            ]
            self._paint_level()
        self.heap_box = ft.Column(
            [self.heap.control, *photo.for_keyboard(self.heap, self.players)], visible=False
        )
        self.after.control.controls += photo.for_melds(self.after, self.players)
        self.copy_button = ft.OutlinedButton(
            content=_("Start from the table before"),
            icon=ft.Icons.CONTENT_COPY,
            on_click=self._copy_clicked,
            height=44,
        )
        self.check_button = ft.Row(
            [primary_button(_("Check the turn"), self._check_clicked, ft.Icons.GAVEL)]
        )
        controls += [
            self._section_header(_("Table before"), _("Every meld on the table before the turn.")),
            self.before.control,
            self._section_header(
                _("Hand before the turn") if card_game else _("Rack before the turn"),
                _("At least every piece played this turn."),
            ),
            self.rack.control,
            self._section_header(
                _("Table after"),
                _(
                    "The table as it lies now. It starts as the table before: tap a card to "
                    "move it, tap a meld to add to it."
                )
                if card_game
                else _(
                    "The table as it lies now. It starts as the table before: tap a tile to "
                    "move it, tap a meld to add to it."
                ),
            ),
            self.after_mode.control,
            self.copy_button,
            self.after.control,
            self.heap_box,
            self.check_button,
        ]
        for other in (self.after, self.rack, self.heap):
            other.show_keys(False)
        return controls

    def _section_header(self, title: str, note: str) -> ft.Control:
        return ft.Column([heading(title, size=18), muted(note, size=13)], spacing=0, tight=True)

    # -- which keyboard shows ------------------------------------------------------------------
    def _focused(self, which: TableEditor | PieceKeyboard) -> None:
        """One keyboard at a time: the one just tapped."""
        for other in (self.before, self.after, self.rack, self.heap, self.discard):
            if other is not None and other is not which:
                other.show_keys(False)

    def _mode_changed(self, key: str | None) -> None:
        heap = key == "heap"
        self.after.control.visible = not heap
        self.heap_box.visible = heap
        if heap:
            self._fill_heap()
            self.heap.focus()
        self.clear_verdict()

    def _fill_heap(self) -> None:
        """The heap gets the pieces of the table after while it was not typed into."""
        pieces = [p for m in self.after.value for p in m]
        if self.heap.value == self._heap_mirrored:
            self.heap.set_pieces(pieces)
            self._heap_mirrored = pieces

    def _before_changed(self) -> None:
        """The table after follows the table before until the user changes it."""
        melds = self.before.value
        if self.after.value == self._mirrored:
            self.after.set_melds(melds, self.before.model.declarations() or ())
            self.after.show_keys(False)
            self._mirrored = melds
            if self.heap.value == self._heap_mirrored:
                self._heap_mirrored = [p for m in melds for p in m]
                self.heap.set_pieces(self._heap_mirrored)
        self.clear_verdict()

    def _level_changed(self, key: str | None) -> None:
        if key is not None:
            self.rules = Rules(self.variant, {"preset": self.rules.preset, "joker_rule": key})
            self._paint_rules()
        elif self.level is not None:
            self.level.set(self.rules.typed.joker_rule)
        self._paint_level()
        self.clear_verdict()

    def set_joker_rule(self, level: int) -> None:
        """Judge with Tile Rummy joker level ``level`` (0–4), as if its chip was tapped."""
        if self.level is None:
            raise ValueError("the joker rule is fixed here")
        self.level.pick(self.described.joker_rules[level])

    def _paint_level(self) -> None:
        if self.level is not None:
            self.level_text.value = level_sentence(self.rules.typed.joker_rule)

    def rules_changed(self) -> None:
        if self.level is not None:
            self.level.set(self.rules.typed.joker_rule)
            self._paint_level()
        self.clear_verdict()

    def inputs(self) -> dict[str, Any]:
        return {
            **super().inputs(),
            "opened": self.opened,
            "before": self.before,
            "rack": self.rack,
            "after_mode": self.after_mode,
            "after": self.after,
            "heap": self.heap,
        }

    def inputs_taken(self, old: Checker) -> None:
        if isinstance(old, TurnChecker):
            self._mirrored = [list(m) for m in old._mirrored]
            self._heap_mirrored = list(old._heap_mirrored)
        heap = self.after_mode.value == "heap"
        self.after.control.visible = not heap
        self.heap_box.visible = heap

    def _copy_clicked(self, _e: Any = None) -> None:
        self.copy_before()

    def copy_before(self) -> None:
        """Fill the table after with the table before (to change only what moved)."""
        melds = self.before.value
        self.after.set_melds(melds, self.before.model.declarations() or ())
        self._mirrored = melds
        self._heap_mirrored = [p for m in melds for p in m]
        self.heap.set_pieces(self._heap_mirrored)
        if self.after_mode.value == "heap":
            self.heap.focus()
        else:
            self.after.focus()
        self.clear_verdict()

    def _check_clicked(self, _e: Any = None) -> None:
        self.check()

    def clear_verdict(self) -> None:
        super().clear_verdict()
        for editor in (getattr(self, "before", None), getattr(self, "after", None)):
            if editor is not None and editor.faults:
                editor.set_faults(set())

    def check(self) -> dict[str, Any]:
        """Judge the turn entered."""
        typed = self.typed_problem(
            *(getattr(self, name, None) for name in ("rack", "before", "after", "heap", "discard"))
        )
        if typed is not None:
            self.show(self.render(typed))
            return typed
        fields: dict[str, Any] = {
            "rack": self.rack.value,
            "table_before": self.before.value,
        }
        if self.after_mode.value == "heap":
            fields["table_after"] = {"heap": self.heap.value}
        else:
            fields["table_after"] = self.after.value
        if self.described.declares_jokers:  # Carousel: the jokers' declared cards (RULES.md §6)
            declared = self.before.declarations()
            if declared is not None:
                fields["declared_before"] = declared
            declared = self.after.declarations()
            if declared is not None and self.after_mode.value != "heap":
                fields["declared_after"] = declared
        if not self.described.judges_table_turns and self.opened is not None:  # Rummy 101
            fields["opened"] = self.opened.value
            taken = self.taken_discard()
            if taken is not None:
                fields["taken_discard"] = taken
        elif self.opened is not None:
            fields["opened"] = self.opened.value != "no"
        return self.give_verdict("turn", scroll=True, **fields)

    def render(self, a: Mapping[str, Any]) -> list[ft.Control]:
        """The turn verdict: valid or not, the meld or piece at fault, what was played."""
        if not a.get("ok"):
            return [error_panel(a, self.request)]
        valid = bool(a.get("valid"))
        played = [str(p) for p in a.get("played", [])]
        detail = None
        if a.get("initial_meld") is not None:
            detail = _("Initial meld worth {n}").format(n=a["initial_meld"])
        parts: list[ft.Control] = [
            verdict_header(valid, _("Valid turn") if valid else _("Not valid"), detail)
        ]
        if not valid:
            before, after = fault_refs(a)
            self.before.set_faults(before)
            if self.after_mode.value != "heap":
                self.after.set_faults(after)
            parts += self.problems(a)
            at_fault = a.get("tiles") or ([a["tile"]] if a.get("tile") else [])
            if at_fault:
                parts.append(pieces_line(_("At fault:"), [str(p) for p in at_fault], self.material))
            for which, idx in (("before", before), ("after", after)):
                editor = self.before if which == "before" else self.after
                melds = editor.value
                for i in sorted(idx):
                    if which == "after" and self.after_mode.value == "heap":
                        continue
                    if 0 <= i < len(melds):
                        name = (
                            _("table before, meld {n}")
                            if which == "before"
                            else _("table after, meld {n}")
                        ).format(n=i + 1)
                        parts.append(
                            meld_view(melds[i], self.material, size="s", fault=True, caption=name)
                        )
        if played:
            parts.append(pieces_line(_("Played:"), played, self.material))
        split = a.get("melds")
        if isinstance(split, list) and split:
            parts.append(subheading(_("The heap read as melds:"), ft.FontWeight.W_600))
            parts.append(
                melds_row([[str(t) for t in m] for m in split], self.material, a.get("jokers"))
            )
        if valid:
            parts.append(self.link(a))
        return [panel(parts, valid)]


# -- hand --------------------------------------------------------------------------------------
class HandChecker(Checker):
    """Gin: deadwood, the best melds, knock or gin, the best discard from 11 cards.
    Carousel: the hand's value and whether it may knock."""

    kind = "hand"

    def build_inputs(self) -> list[ft.Control]:
        sizes = self.described.hand_sizes
        self.keyboard = PieceKeyboard(
            self.variant,
            _("Hand"),
            on_change=self._changed,
            players=self.players,
            max_pieces=max(sizes) if sizes else None,
            show_pieces=False,
        )
        self.check()
        return [self.keyboard.control]

    def rules_changed(self) -> None:
        self.check()

    def inputs(self) -> dict[str, Any]:
        return {"keyboard": self.keyboard}

    def _changed(self) -> None:
        self.check()

    @property
    def counts_deadwood(self) -> bool:
        """The hand is judged by its deadwood (gin: no jokers, gin and big gin), not by its
        value with the jokers counted (Carousel)."""
        return not self.described.meld_rules.jokers

    def check(self) -> dict[str, Any] | None:
        """Judge the hand when it is complete (gin: 10 or 11 cards, the variant's
        :attr:`~rules.variant.Variant.hand_sizes`); nothing while the typed text has a
        problem."""
        cards = self.keyboard.value
        if self.keyboard.problem:
            self.clear_verdict()
            return None
        sizes = self.described.hand_sizes
        if (sizes and len(cards) not in sizes) or not cards:
            self.clear_verdict()
            n = len(cards)
            if sizes:
                text = ngettext(
                    "{n} card: a gin hand has {size} (or {more} before the discard: the best "
                    "discard is found).",
                    "{n} cards: a gin hand has {size} (or {more} before the discard: the best "
                    "discard is found).",
                    n,
                ).format(n=n, size=min(sizes), more=max(sizes))
            else:
                text = _("Enter the cards left in the hand (tap a suit, then the ranks).")
            lines: list[ft.Control] = [ft.Text(text, size=16, color=MUTED)]
            if cards:
                lines.insert(0, meld_view(cards, self.material, size="s"))
            self.show([panel(lines, None)])
            return None
        return self.give_verdict("hand", hand=cards)

    def render(self, a: Mapping[str, Any]) -> list[ft.Control]:
        """The hand: value or deadwood, the melds found, the cards left, knock or gin."""
        if not a.get("ok"):
            return [error_panel(a, self.request)]
        material = self.material
        deadwood = int(a.get("deadwood", 0))
        big = False
        good = bool(a.get("can_knock"))
        knock = _("May knock") if good else _("Cannot knock yet")
        limit = a.get("knock_max")
        if self.counts_deadwood:
            big = bool(a.get("big_gin")) and (
                getattr(self.rules.typed, "big_gin_bonus", None) is not None
            )
            title = _("Big gin!") if big else _("Gin!") if a.get("gin") else knock
            if limit == 0:  # only gin goes down (a house option)
                if not (big or a.get("gin") or a.get("big_gin")):
                    title = _("Not gin: cannot go down yet")
                detail = _("Deadwood {n} (only gin goes down in this game)").format(n=deadwood)
            else:
                detail = _("Deadwood {n} (knock at {max} or less)").format(n=deadwood, max=limit)
        else:
            title = _("Went out") if a.get("went_out") else knock
            if limit == 0:
                detail = _("Hand worth {n} (knock only with a hand worth 0)").format(n=deadwood)
            else:
                detail = _("Hand worth {n} (knock at {max} or less)").format(n=deadwood, max=limit)
        parts: list[ft.Control] = [verdict_header(good, title, detail)]
        discard = a.get("discard")
        if discard and not big:
            parts.append(
                ft.Row(
                    [
                        ft.Text(_("Best discard:"), size=16, weight=ft.FontWeight.W_600),
                        piece_view(str(discard), material, "m"),
                    ],
                    spacing=8,
                )
            )
        melds = a.get("big_gin_melds") if big else a.get("melds")
        if isinstance(melds, list) and melds:
            parts.append(ft.Text(_("Melds"), size=16, weight=ft.FontWeight.W_600))
            parts.append(melds_row([[str(c) for c in m] for m in melds], material))
        unmatched = [str(c) for c in a.get("unmatched", [])]
        if unmatched:
            parts.append(
                ft.Text(
                    _("Deadwood cards") if self.counts_deadwood else _("Cards counted"),
                    size=16,
                    weight=ft.FontWeight.W_600,
                )
            )
            parts.append(meld_view(unmatched, material, size="s"))
        rule = a.get("rule") or self.described.rule
        parts.append(self.link({**a, "rule": rule}))
        return [panel(parts, good)]


CHECKERS: dict[str, type[Checker]] = {
    "meld": MeldChecker,
    "opening": OpeningChecker,
    "turn": TurnChecker,
    "hand": HandChecker,
}


def build(app: App, parts: Sequence[str]) -> Any:
    """The screen for ``/check`` (``parts`` = ``["check"]``) or ``/check/<kind>``, with the
    route's ``?game=`` / ``?variant=`` (see :func:`route_query`)."""
    query = route_query(app)
    route = "/" + "/".join(parts)
    game: Game | None = None
    if query.get("game"):
        try:
            game = app.store.load_game(query["game"])
        except StoreError:
            return MessageScreen(app, route, _("This game is not here (was it deleted?)."))
    variant = query.get("variant")
    if not is_variant(variant):
        variant = None
    if len(parts) == 1:
        return CheckHome(app, game, variant)
    kind = parts[1]
    if len(parts) != 2 or kind not in CHECKERS:
        return MessageScreen(app, route, _("There is no such page."))
    if game is not None and kind not in kinds_for(game.variant):
        return MessageScreen(
            app,
            route,
            _("{check} does not apply to {variant}.").format(
                check=_(KIND_TITLES[kind]), variant=labels.variant_name(game.variant)
            ),
        )
    kept = _kept_checker(app, kind, game)
    if kept is not None:
        return kept
    left = _LEFT.get(app, {}).get((kind, game.id if game else None))
    if left is not None and (variant is None or variant == left.variant):
        if left.language != app.language:
            return _in_language(app, left, game)
        left.view = ft.View(**left._fields)  # the page's one View showed other screens since
        return left
    return CHECKERS[kind](app, game, variant)


def _in_language(app: App, old: Checker, game: Game | None) -> Checker:
    """``old`` built anew in the session's language (its words were built in another one),
    for ``game`` as stored now, with everything entered on it (:meth:`Checker.take_over`)."""
    new = CHECKERS[old.kind](app, game, old.variant)
    new.take_over(old)
    return new


__all__ = [
    "CHECKERS",
    "KINDS",
    "CheckHome",
    "Checker",
    "HandChecker",
    "MeldChecker",
    "OpeningChecker",
    "Rules",
    "TurnChecker",
    "build",
    "check_route",
    "fault_refs",
    "human_message",
    "kinds_for",
    "route_query",
    "rule_route",
]
