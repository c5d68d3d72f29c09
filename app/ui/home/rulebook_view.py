"""The rule book screen, and the rule links and excerpts that verdicts show (issue 5, item 3).

Routes (wired in :func:`app.ui.router.build_screen` through :func:`rulebook_screen`)::

    /rules                       the rule book, default variant, default rules
    /rules/<variant>             one variant, default rules (a preset can be picked)
    /rules/<variant>/<target>    … opened at a section id or block anchor (``jokers``, ``level3``)
    /game/<id>/rules             the game's variant with the game's options marked
    /game/<id>/rules/<target>
    …?from=check                 opened from a checker's verdict: ← returns to it, and a
                                 /rules/<variant> book shows the options that checker used
                                 (kept in the session by app.ui.referee.checkers.keep_checker, not
                                 read from the address; validated again by rules.options)

Content and marking come from :mod:`app.rulebook`; this module only draws them. Every
interactive control has an accessible name; paragraphs that depend on an option carry a
visible (and read-out) "In force" / "Not in force (house rule off)" label. Handlers only change
controls (no ``.update()``), so the screen works in logic tests with ``App(store)``.

For other screens::

    rule_button(app, variant, rule=v["rule"], reason=v.get("reason"), check="turn",
                params=v, game_id=game.id)       # "Rule: Jokers" → the section
    rule_excerpt(app, variant, answer, check="turn", game=game)   # the rule text + the button
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import flet as ft

from app import i18n
from app import rulebook as rb
from app.i18n import _
from app.store import StoreError
from app.ui.common import labels
from app.ui.common.frame import MessageScreen, frame
from app.ui.common.widgets import MUTED, ChoiceChips, card, heading, muted
from rules.options import presets

if TYPE_CHECKING:
    from app.games import Game
    from app.ui.common.session import App, Screen

log = logging.getLogger("app")


class CheckerLinks(Protocol):
    """The way back to the checker a rule book was opened from (its verdict's rule link).

    The checker is a screen of its own (:mod:`app.ui.referee.checkers`) that links here; the router
    hands it in (:func:`link_checker`), so this screen does not import it.
    """

    @property
    def from_value(self) -> str:
        """``?from=`` of a rule-book route opened from a checker."""
        ...

    def keep(self, app: App) -> None:
        """Keep the checker on screen for the way back."""
        ...

    def route(self, app: App) -> str | None:
        """The kept checker's route, if any."""
        ...

    def rules(self, app: App, variant: str) -> tuple[dict[str, Any], str] | None:
        """The kept checker's options and their summary, when it checks ``variant``."""
        ...


_CHECKER: list[CheckerLinks] = []


def link_checker(links: CheckerLinks) -> None:
    """Use ``links`` for the way back to the checker (done once, by :mod:`app.ui.router`)."""
    _CHECKER[:] = [links]


def _checker() -> CheckerLinks | None:
    return _CHECKER[0] if _CHECKER else None


FROM_ENTRY = "entry"
"""``?from=`` of a route opened from a round entry's breakdown (the same as
:data:`app.ui.entry.round_entry.FROM_ENTRY`): ← goes back to the entry, its draft restored."""
TEXT_SIZE = 17
"""Body text size (px): readable at arm's length on a phone."""
TOP_KEY = "rb-top"
IN_FORCE_BG = ft.Colors.TERTIARY_CONTAINER
IN_FORCE_EDGE = ft.Colors.GREEN_700
IN_FORCE_TEXT = ft.Colors.ON_TERTIARY_CONTAINER
OFF_BG = ft.Colors.SURFACE_CONTAINER
OFF_EDGE = ft.Colors.OUTLINE
OFF_TEXT = ft.Colors.ON_SURFACE_VARIANT
TARGET_BG = ft.Colors.with_opacity(0.12, ft.Colors.AMBER)


def section_key(section_id: str) -> str:
    """The scroll key of a section (``rb-<id>``)."""
    return f"rb-{section_id}"


def block_key(anchor: str) -> str:
    """The scroll key of an anchored block (``rb-block-<anchor>``)."""
    return f"rb-block-{anchor}"


def book_language(variant: str | None = None) -> str:
    """The rule book's language: the app's language (English where a book is not written)."""
    lang = i18n.language()
    return lang if lang in rb.LANGS else "en"


# -- drawing blocks -----------------------------------------------------------------------------
def rich_text(
    text: str, size: int = TEXT_SIZE, color: str | None = None, weight: Any = None
) -> ft.Text:
    """A Text with ``**bold**``/``*italic*`` drawn as spans (plain ``value`` when none)."""
    parts = rb.spans(text)
    if len(parts) <= 1 and (not parts or parts[0][1] == ""):
        return ft.Text(text, size=size, color=color, weight=weight)
    spans = [
        ft.TextSpan(
            t,
            style=ft.TextStyle(
                weight=ft.FontWeight.BOLD if s == "bold" else None, italic=s == "italic"
            ),
        )
        for t, s in parts
    ]
    return ft.Text(
        spans=spans,
        size=size,
        color=color,
        weight=weight,
        semantics_label=rb.strip_emphasis(text),
    )


def _table(block: rb.Block, color: str | None) -> ft.Control:
    """A table as one small panel per row ("header: cell" lines): readable at 360 px."""
    if not block.rows:
        return ft.Container()
    head, rows = block.rows[0], block.rows[1:]
    panels: list[ft.Control] = []
    for row in rows:
        lines: list[ft.Control] = []
        for i, cell in enumerate(row):
            if i == 0:
                lines.append(rich_text(cell, color=color, weight=ft.FontWeight.BOLD))
            else:
                name = head[i] if i < len(head) else ""
                lines.append(rich_text(f"{name}: {cell}" if name else cell, size=16, color=color))
        panels.append(
            ft.Container(
                content=ft.Column(lines, spacing=2),
                padding=ft.Padding.symmetric(horizontal=10, vertical=8),
                border=ft.Border.only(left=ft.BorderSide(3, ft.Colors.INDIGO_200)),
                bgcolor=ft.Colors.SURFACE_CONTAINER_LOWEST,
            )
        )
    return ft.Column(panels, spacing=6, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def block_control(
    m: rb.Marked, lang: str, target: bool = False, key: str | None = None
) -> ft.Control:
    """One marked block: the text, and for an option-dependent block its status label on a
    green (in force) or grey (not in force) panel; a ``target`` block (deep link) on amber.
    ``key``: a scroll key for the block."""
    b = m.block
    off = m.status == "not_in_force"
    color = OFF_TEXT if off else None
    if b.kind == "h3":
        body: ft.Control = ft.Text(b.text, size=18, weight=ft.FontWeight.BOLD, color=color)
    elif b.kind == "table":
        body = _table(b, color)
    elif b.kind in ("li", "ol"):
        mark_text = f"{b.number}." if b.kind == "ol" else "\u2022"
        body = ft.Row(
            [
                ft.Text(mark_text, size=TEXT_SIZE, color=color, width=22),
                ft.Container(rich_text(b.text, color=color), expand=True),
            ],
            vertical_alignment=ft.CrossAxisAlignment.START,
            spacing=4,
        )
    else:
        body = rich_text(b.text, color=color)
    if m.status == "plain" and not target and key is None:
        return ft.MergeSemantics(content=body) if b.kind in ("li", "ol") else body
    column: list[ft.Control] = []
    if m.status != "plain":
        status = rb.status_text(m, lang)
        column.append(
            ft.Row(
                [
                    ft.Icon(
                        ft.Icons.BLOCK if off else ft.Icons.CHECK_CIRCLE,
                        size=18,
                        color=OFF_EDGE if off else IN_FORCE_EDGE,
                    ),
                    ft.Text(
                        status,
                        size=14,
                        weight=ft.FontWeight.W_600,
                        color=OFF_TEXT if off else IN_FORCE_TEXT,
                        expand=True,
                    ),
                ],
                spacing=6,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            )
        )
    column.append(body)
    edge = OFF_EDGE if off else (IN_FORCE_EDGE if m.status == "in_force" else ft.Colors.AMBER_700)
    bg = OFF_BG if off else (IN_FORCE_BG if m.status == "in_force" else TARGET_BG)
    if target:
        edge, bg = ft.Colors.AMBER_700, TARGET_BG
    return ft.Container(
        content=ft.MergeSemantics(content=ft.Column(column, spacing=4)),
        padding=ft.Padding.only(left=10, top=6, right=8, bottom=6),
        border=ft.Border.only(left=ft.BorderSide(4, edge)),
        bgcolor=bg,
        border_radius=4,
        key=ft.ScrollKey(key) if key else None,  # type: ignore[call-arg]
    )


# -- the screen ---------------------------------------------------------------------------------
class RulebookView:
    """The rule book of one variant, the options of a game (or the defaults) marked.

    Args:
        app: the session.
        variant: one of :data:`app.rulebook.VARIANTS`.
        target: a section id or block anchor to open at, or None.
        game: the game whose options are in force (None: the defaults, a preset can be picked).
        lang: the book's language (default: the app's).

    Attributes (for tests): ``book``, ``lang``, ``options`` (the options in force),
    ``preset``, ``variant_chips``, ``lang_chips``, ``preset_chips`` (None with a game),
    ``contents_buttons`` (section id -> button), ``section_panels`` (section id -> Container),
    ``block_controls`` (section id -> [(Marked, control)]), ``target_section``,
    ``fallback_note``, ``checker_rules`` (the summary of the checker's rules shown, or None).
    """

    def __init__(
        self,
        app: App,
        variant: str,
        target: str | None = None,
        game: Game | None = None,
        lang: str | None = None,
    ) -> None:
        self.app = app
        self.variant = variant
        self.game = game
        self.target = target
        self.lang = lang if lang in rb.LANGS else book_language(variant)
        self.preset: str = ""
        self.options: dict[str, Any] = {}
        self.book: rb.Book = rb.load(variant, "en")
        self.target_section: str | None = None
        self.target_block: rb.Block | None = None
        self.contents_buttons: dict[str, ft.TextButton] = {}
        self.section_panels: dict[str, ft.Container] = {}
        self.block_controls: dict[str, list[tuple[rb.Marked, ft.Control]]] = {}
        self.fallback_note = muted("", size=14)
        self.options_note = ft.Text("", size=14, color=MUTED)
        self.body = ft.Column(spacing=14, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)

        self.variant_chips = ChoiceChips(
            [(v, labels.variant_name(v)) for v in rb.VARIANTS], variant, self._pick_variant
        )
        self.lang_chips = ChoiceChips(
            [(code, rb.strings(code)["name"]) for code in rb.LANGS], self.lang, self._pick_lang
        )
        self.preset_chips: ChoiceChips | None = None
        given: dict[str, Any] = dict(game.options) if game is not None else {}
        self.checker_rules: str | None = None
        """The summary of the checker's rules shown (opened from its verdict), else None."""
        kept = self._checker_rules(app, variant) if game is None else None
        if kept is not None:  # the options that checker had in force, validated again below
            given, self.checker_rules = kept
        self.defaults = rb.options_in_force(variant)
        self.options = rb.options_in_force(variant, given)
        self.preset = str(self.options.get("preset", ""))
        if game is None:
            names = list(presets(variant))
            if len(names) > 1:
                self.preset_chips = ChoiceChips(
                    [(p, labels.preset_name(p)) for p in names], self.preset, self._pick_preset
                )

        settings: list[ft.Control] = [
            muted(_("Variant")),
            self.variant_chips.control,
            muted(_("Language of the rules")),
            self.lang_chips.control,
        ]
        if self.preset_chips is not None:
            settings += [muted(_("See the rules with the preset:")), self.preset_chips.control]
        self.settings_title = ft.Text("", size=17, weight=ft.FontWeight.W_600)
        self.settings = ft.ExpansionTile(
            title=self.settings_title,
            subtitle=self.options_note,
            leading=ft.Icon(ft.Icons.TUNE),
            controls=[
                ft.Container(
                    ft.Column(
                        settings,
                        spacing=8,
                        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
                    ),
                    padding=ft.Padding.only(left=12, right=8, bottom=10),
                )
            ],
            expanded=False,
            maintain_state=True,
            expanded_cross_axis_alignment=ft.CrossAxisAlignment.STRETCH,
            collapsed_bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
            bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
            key=ft.ScrollKey(TOP_KEY),  # type: ignore[call-arg]
        )
        controls: list[ft.Control] = [
            self.settings,
            self.body,
        ]
        self._render()
        if game is not None:
            route = f"/game/{game.id}/rules" + (f"/{target}" if target else "")
            back = f"/game/{game.id}"
            if getattr(app, "query", {}).get("from") == FROM_ENTRY:
                back = f"/game/{game.id}/round"  # opened from a round being entered: its draft
        else:
            route = f"/rules/{variant}" + (f"/{target}" if target else "")
            back = "/"
        back = self._back_to_checker(app) or back
        title = _("Rules: {variant}").format(variant=labels.variant_name(variant))
        self.view = frame(app, route, title, controls, back=back)
        if self.target_block is not None and self.target_block.anchor:
            self._scroll_after_render(block_key(self.target_block.anchor))
        elif self.target_section is not None:
            self._scroll_after_render(section_key(self.target_section))

    @staticmethod
    def _checker_rules(app: App, variant: str) -> tuple[dict[str, Any], str] | None:
        """The options and summary of the checker this book was opened from (``?from=check``,
        the checker kept for the way back, checking ``variant``), else None."""
        links = _checker()
        query = getattr(app, "query", None)
        if links is None or not isinstance(query, Mapping) or query.get("from") != links.from_value:
            return None
        return links.rules(app, variant)

    @staticmethod
    def _back_to_checker(app: App) -> str | None:
        """The checker's route when this book was opened from a verdict's rule link
        (``?from=check``) and that checker is kept: ← goes back to it, pieces and all."""
        links = _checker()
        query = getattr(app, "query", None)
        if links is None or not isinstance(query, Mapping) or query.get("from") != links.from_value:
            return None
        return links.route(app)

    # -- building ---------------------------------------------------------------------------
    def _render(self) -> None:
        """(Re)build the options note, the contents and the sections."""
        self.book, fell_back = rb.book_for(self.variant, self.lang)
        words = rb.strings(self.lang)
        self.fallback_note.value = words["fallback"] if fell_back else ""
        self.fallback_note.visible = fell_back
        self.settings_title.value = f"{labels.variant_name(self.variant)} \u00b7 {words['name']}"
        if self.game is not None:
            self.options_note.value = _("Options of this game ({players}): {preset}").format(
                players=", ".join(self.game.players), preset=labels.preset_name(self.preset)
            )
        elif self.checker_rules is not None:
            self.options_note.value = self.checker_rules
        else:
            self.options_note.value = (
                _("No game: default rules, preset {preset}").format(
                    preset=labels.preset_name(self.preset)
                )
                if self.preset_chips is not None
                else _("No game: default rules")
            )
        found = self.book.find(self.target) if self.target else None
        self.target_section = found[0].id if found else None
        self.target_block = found[1] if found else None

        self.contents_buttons = {}
        buttons: list[ft.Control] = []
        for s in self.book.sections:
            btn = ft.TextButton(
                content=ft.Text(s.title, size=16),
                on_click=self._go_handler(s.id),
                style=ft.ButtonStyle(alignment=ft.Alignment.CENTER_LEFT),
            )
            self.contents_buttons[s.id] = btn
            buttons.append(btn)
        contents = ft.ExpansionTile(
            title=ft.Text(_("Contents"), size=17, weight=ft.FontWeight.W_600),
            subtitle=ft.Text(self.book.title, size=14, color=MUTED),
            controls=buttons,
            expanded=self.target is None,
            maintain_state=True,
            expanded_cross_axis_alignment=ft.CrossAxisAlignment.STRETCH,
        )

        self.section_panels = {}
        self.block_controls = {}
        sections: list[ft.Control] = []
        for s in self.book.sections:
            marked = rb.mark_section(s, self.options, self.defaults)
            pairs = [
                (
                    m,
                    block_control(
                        m,
                        self.lang,
                        target=m.block is self.target_block,
                        key=block_key(m.block.anchor) if m.block.anchor else None,
                    ),
                )
                for m in marked
            ]
            self.block_controls[s.id] = pairs
            is_target = s.id == self.target_section
            panel = ft.Container(
                content=ft.Column(
                    [
                        ft.Semantics(
                            header=True,
                            content=ft.Text(s.title, size=22, weight=ft.FontWeight.BOLD),
                        ),
                        *[c for _m, c in pairs],
                        ft.TextButton(
                            content=ft.Text(_("Back to the contents"), size=14),
                            icon=ft.Icons.ARROW_UPWARD,
                            on_click=self._top,
                        ),
                    ],
                    spacing=10,
                    horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
                ),
                key=ft.ScrollKey(section_key(s.id)),  # type: ignore[call-arg]
                padding=ft.Padding.symmetric(horizontal=8, vertical=8),
                bgcolor=TARGET_BG if is_target else None,
                border_radius=8,
            )
            self.section_panels[s.id] = panel
            sections.append(panel)

        intro = [rich_text(b.text, size=15, color=MUTED) for b in rb.intro(self.book.lang)]
        source = muted(self.book.source, size=13)
        self.body.controls = [
            self.fallback_note,
            *intro,
            source,
            contents,
            *sections,
        ]

    # -- handlers ---------------------------------------------------------------------------
    def _go_handler(self, section_id: str) -> Any:
        def go(_e: Any = None) -> None:
            self.go_to(section_id)

        return go

    def go_to(self, section_id: str) -> None:
        """Scroll to a section (tapped in the contents)."""
        self.app.scroll_to(section_key(section_id))

    def _top(self, _e: Any = None) -> None:
        self.app.scroll_to(TOP_KEY)

    def _pick_variant(self, variant: str | None) -> None:
        if variant is None or variant == self.variant:
            return
        if self.game is not None and variant == self.game.variant:
            self.app.go(f"/game/{self.game.id}/rules")
        else:
            self.app.go(f"/rules/{variant}")

    def _pick_lang(self, lang: str | None) -> None:
        if lang is None or lang == self.lang:
            return
        self.lang = lang
        self._render()

    def _pick_preset(self, preset: str | None) -> None:
        if preset is None or preset == self.preset:
            return
        self.options = rb.options_in_force(self.variant, {"preset": preset})
        self.preset = preset
        self.checker_rules = None  # now the preset's own rules, not the checker's
        self._render()

    def _scroll_after_render(self, key: str) -> None:
        """Scroll to ``key`` once this view is on the page (a deep link). The first render of a
        fresh browser tab takes seconds, so the scroll is retried until the client answers."""
        page = self.app.page
        if page is None:
            return

        async def do() -> None:
            for delay in (0.3, 0.7, 1.0, 1.5, 2.5):
                await asyncio.sleep(delay)
                if not page.views or page.views[-1] is not self.view:
                    return
                try:
                    await self.view.scroll_to(scroll_key=ft.ScrollKey(key), duration=300)  # type: ignore[call-arg]
                    return
                except Exception:  # noqa: BLE001 - scrolling is a nicety; try again
                    log.debug("scroll failed", exc_info=True)

        page.run_task(do)


def rulebook_screen(app: App, parts: Sequence[str]) -> Screen:
    """The screen for ``/rules[/<variant>[/<target>]]`` or ``/game/<id>/rules[/<target>]``
    (``parts``: the route split on ``/``)."""
    route = "/" + "/".join(parts)
    if parts and parts[0] == "game":
        if len(parts) < 3 or len(parts) > 4:
            return MessageScreen(app, route, _("There is no such page."))
        try:
            game = app.store.load_game(parts[1])
        except StoreError:
            return MessageScreen(app, route, _("This game is not here (was it deleted?)."))
        target = parts[3] if len(parts) == 4 else None
        return RulebookView(app, game.variant, target, game=game)
    variant = parts[1] if len(parts) >= 2 else rb.VARIANTS[0]
    if variant not in rb.VARIANTS or len(parts) > 3:
        return MessageScreen(app, route, _("There is no such page."))
    target = parts[2] if len(parts) == 3 else None
    return RulebookView(app, variant, target)


# -- links from verdicts ------------------------------------------------------------------------
def rule_button(
    app: App,
    variant: str,
    rule: str = "",
    reason: str | None = None,
    check: str | None = None,
    params: Mapping[str, Any] | None = None,
    game_id: str | None = None,
) -> ft.Control:
    """A button "Rule: <section>" that opens the rule book at a verdict's rule (see
    :func:`app.rulebook.link_for` for the arguments)."""
    link = rb.link_for(variant, rule, reason, check, params)
    title = rb.section_title(variant, link.section, book_language(variant))

    def go(_e: Any = None) -> None:
        links = _checker()
        if links is None:
            app.go(link.route(game_id))
            return
        links.keep(app)  # the way back finds the tapped pieces still there
        app.go(f"{link.route(game_id)}?from={links.from_value}")

    text = _("Rules: {variant} › {section}").format(
        variant=labels.variant_name(variant), section=title
    )
    return ft.OutlinedButton(
        content=ft.Text(text, size=15), icon=ft.Icons.MENU_BOOK, on_click=go, height=44
    )


def rule_excerpt(
    app: App,
    variant: str,
    answer: Mapping[str, Any],
    check: str | None = None,
    game: Game | None = None,
    options: Mapping[str, Any] | None = None,
) -> ft.Control:
    """The rule text behind a judge answer (its ``reason``/``error``, ``rule`` and params):
    the section title, the paragraphs that state it (marked for the options in force) and
    a :func:`rule_button` to the whole section.

    Args:
        options: the request's options (``{"preset": …}``); default the game's, else defaults.
    """
    link = rb.link_for_answer(variant, answer, check)
    given = options if options is not None else (game.options if game is not None else {})
    opts = rb.options_in_force(variant, given)
    lang = book_language(variant)
    ex = rb.excerpt(link, lang, opts)
    reason = answer.get("reason") or answer.get("error")
    rule = answer.get("rule")
    controls: list[ft.Control] = [heading(ex.section.title, 16)]
    controls += [block_control(m, ex.book.lang) for m in ex.focus[:4]]
    controls.append(
        rule_button(
            app,
            variant,
            rule if isinstance(rule, str) else "",
            reason if isinstance(reason, str) else None,
            check,
            answer,
            game.id if game is not None else None,
        )
    )
    return card(ft.Column(controls, spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH))


__all__ = [
    "CheckerLinks",
    "RulebookView",
    "block_control",
    "link_checker",
    "rule_button",
    "rule_excerpt",
    "rulebook_screen",
    "section_key",
]
