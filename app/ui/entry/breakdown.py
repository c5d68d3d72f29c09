"""Who gets what and why: the judge's round answer shown for people, naming the rule.

The judge's ``breakdown`` is either one object per player (``name``, ``points``, ``why``,
``rule``…) or a list of English lines (gin); both are worded in the player's language from the
answer's fields by :mod:`app.verdict_render` (English: the judge's own lines). Gin answers also
carry each hand's melds, the unmatched cards and the defender's lay-offs. The rule behind a
round reads as the in-app rule book's variant and section (:func:`rule_words`), never as the
developer's "RULES.md §4, seed 001".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import flet as ft

from app import games, i18n, verdict_render
from app import rulebook as rb
from app.i18n import _, ngettext
from app.ui.common import labels
from app.ui.common.widgets import (
    ERROR_COLOUR,
    GOOD_COLOUR,
    MUTED,
    card,
    player_colour,
    readable,
    signed,
)

if TYPE_CHECKING:
    from app.games import Game


def _variant_of(result: Mapping[str, Any]) -> str | None:
    """The variant of a round answer: its structured ``rule_ref``, else (an answer stored by
    an older version) the seed its rule names."""
    ref = result.get("rule_ref")
    if isinstance(ref, Mapping) and isinstance(ref.get("variant"), str):
        return str(ref["variant"])
    rule = result.get("rule")
    if isinstance(rule, str):
        for seed, variant in rb.SEED_VARIANTS.items():
            if f"seed {seed}" in rule:
                return variant
    return None


def rule_route(result: Mapping[str, Any], game: Game | None) -> str | None:
    """The rule book route of a round's rule (the game's book, its options marked), or
    ``None`` when the variant or the rule book is unknown."""
    variant = _variant_of(result)
    if variant is None or game is None:
        return None
    try:
        reason = result.get("reason")
        link = rb.link_for(
            variant,
            str(result.get("rule") or ""),
            reason if isinstance(reason, str) else None,
            "round",
            result,
        )
        return link.route(game.id)
    except Exception:  # noqa: BLE001 - without the rule book the line stays text
        return None


def rule_words(result: Mapping[str, Any], rule: str = "") -> str:
    """The rule behind a round as a player reads it: the in-app rule book's variant and
    section in the player's language ("Rules: Tile Rummy › Scoring"); "" when unknown. Never
    the developer's reference ("RULES.md §4, seed 001")."""
    variant = _variant_of(result)
    if variant is None:
        return ""
    try:
        lang = i18n.language()
        link = rb.link_for(
            variant,
            rule or str(result.get("rule") or ""),
            result.get("reason") if isinstance(result.get("reason"), str) else None,
            "round",
            result,
        )
        title = rb.section_title(variant, link.section, lang if lang in rb.LANGS else "en")
        return _("Rules: {variant} › {section}").format(
            variant=labels.variant_name(variant), section=title
        )
    except Exception:  # noqa: BLE001 - without the rule book the line is left out
        return ""


def _points_colour(points: int) -> str:
    if points > 0:
        return GOOD_COLOUR
    if points < 0:
        return ERROR_COLOUR
    return MUTED


def pieces_text(pieces: Any) -> str:
    """Piece codes (a list, or one text) as a sentence names them
    (:func:`app.ui.common.labels.pieces_words`): ``AS 2S 3S`` in English, "A pik, 2 pik,
    3 pik" in Polish; tiles in their notation (``R5 B7 JK``)."""
    if isinstance(pieces, list | tuple):
        return labels.pieces_words([str(p) for p in pieces])
    return labels.pieces_words(str(pieces))


def melds_text(melds: Any) -> str:
    """``AS 2S 3S · 7H 7D 7C`` from a list of melds (each named by :func:`pieces_text`)."""
    if not isinstance(melds, list | tuple) or not melds:
        return _("none")
    return " · ".join(pieces_text(m) for m in melds)


def penalty_tiles(result: Mapping[str, Any]) -> dict[str, int]:
    """Tiles each player drew as penalties this round (Tile Rummy, My Rummy: RULES.md §4), from
    a round answer's ``penalties`` (``[{"name", "tiles", "reason"}]``); players with none are
    left out."""
    out: dict[str, int] = {}
    penalties = result.get("penalties")
    for d in penalties if isinstance(penalties, list) else []:
        if isinstance(d, Mapping) and isinstance(d.get("name"), str):
            tiles = d.get("tiles")
            n = tiles if isinstance(tiles, int) and not isinstance(tiles, bool) else 0
            out[d["name"]] = out.get(d["name"], 0) + n
    return out


def penalty_words(result: Mapping[str, Any], name: str, tiles: int) -> str:
    """What ``name``'s penalty draws did (RULES.md §4): the tiles drawn went onto the rack, so
    they are in the rack's sum; a winner who emptied the rack played them out. They change
    no score of their own."""
    winners = result.get("winners")
    went_out = isinstance(winners, list) and name in winners and not result.get("pool_exhausted")
    if went_out:
        return ngettext(
            "Drew {n} penalty tile this round and still emptied the rack.",
            "Drew {n} penalty tiles this round and still emptied the rack.",
            tiles,
        ).format(n=tiles)
    return ngettext(
        "Drew {n} penalty tile this round: it went onto the rack, so it is in the sum above.",
        "Drew {n} penalty tiles this round: they went onto the rack, so they are in the sum above.",
        tiles,
    ).format(n=tiles)


def score_lines(
    players: Sequence[str],
    scores: Mapping[str, int],
    breakdown: Any,
    result: Mapping[str, Any] | None = None,
) -> list[ft.Control]:
    """One line per player: name, points (big, signed) and the reason the judge gave (worded
    from the round answer ``result`` in the player's language where it is given)."""
    why: dict[str, tuple[str, str]] = {}
    if isinstance(breakdown, list):
        for item in breakdown:
            if isinstance(item, Mapping) and isinstance(item.get("name"), str):
                text = (
                    verdict_render.why_line(item, result)
                    if result is not None
                    else str(item.get("why", ""))
                )
                why[item["name"]] = (text, str(item.get("rule", "")))
    drawn = penalty_tiles(result or {})
    out: list[ft.Control] = []
    for i, name in enumerate(players):
        if name not in scores:
            continue
        pts = int(scores[name])
        reason, rule = why.get(name, ("", ""))
        reason = readable(reason)
        spoken = reason
        if name in drawn:  # a sentence of its own, on its own line ("» −35" ends the reason)
            drew = penalty_words(result or {}, name, drawn[name])
            reason = f"{reason}\n{drew}" if reason else drew
            spoken = f"{spoken}. {drew}" if spoken else drew
        column: list[ft.Control] = [
            ft.Row(
                [
                    ft.Container(width=10, height=10, bgcolor=player_colour(i), border_radius=5),
                    ft.Text(name, size=17, weight=ft.FontWeight.W_600, expand=True),
                    ft.Text(
                        signed(pts), size=24, weight=ft.FontWeight.BOLD, color=_points_colour(pts)
                    ),
                ],
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            )
        ]
        if reason:
            column.append(ft.Text(reason, size=14))
        words = rule_words(result or {}, rule) if rule else ""
        if words:
            column.append(ft.Text(readable(words), size=12, color=MUTED))
        label = _("{name}: {points}").format(name=name, points=signed(pts))
        if spoken:
            label += ". " + spoken
        out.append(
            ft.Semantics(
                label=label,
                container=True,
                content=ft.Container(
                    content=ft.Column(column, spacing=2),
                    padding=ft.Padding.symmetric(vertical=6),
                ),
            )
        )
    return out


def gin_detail(
    result: Mapping[str, Any], players: Sequence[str], explained: bool = False
) -> list[ft.Control]:
    """Melds and unmatched cards from a gin round answer; the deadwood and the lay-offs too
    unless the judge's own lines (``explained``) already tell them."""
    out: list[ft.Control] = []
    melds = result.get("melds")
    unmatched = result.get("unmatched")
    deadwood = result.get("deadwood")
    before = result.get("deadwood_before_layoffs")
    if isinstance(melds, Mapping) and melds:
        for name in players:
            if name not in melds:
                continue
            parts = [_("{name}'s melds: {melds}").format(name=name, melds=melds_text(melds[name]))]
            if isinstance(unmatched, Mapping) and name in unmatched:
                parts.append(
                    _("Deadwood cards: {cards}").format(
                        cards=pieces_text(unmatched[name]) or _("none")
                    )
                )
            out.append(ft.Text("\n".join(parts), size=14))
    if explained:
        return out
    if isinstance(deadwood, Mapping) and deadwood:
        items = []
        for name in players:
            if name in deadwood:
                text = f"{name} {deadwood[name]}"
                if isinstance(before, Mapping) and before.get(name) not in (None, deadwood[name]):
                    text += " " + _("(before lay-offs {n})").format(n=before[name])
                items.append(text)
        out.append(
            ft.Text(
                _("Deadwood: {list}").format(list=", ".join(items)),
                size=14,
                weight=ft.FontWeight.W_500,
            )
        )
    layoffs = result.get("layoffs")
    if isinstance(layoffs, list) and layoffs:
        for lay in layoffs:
            if isinstance(lay, Mapping):
                out.append(
                    ft.Text(
                        _("{player} lays off {card} onto {meld}").format(
                            player=lay.get("player", "?"),
                            card=pieces_text(lay.get("card", "?")),
                            meld=pieces_text(lay.get("onto", "")),
                        ),
                        size=14,
                    )
                )
    return out


def keyed(result: Mapping[str, Any]) -> bool:
    """The round answer carries its lines as data (``key``/``params``; issue 15): a round
    scored by this version. A round stored by an older version has only English."""
    if isinstance(result.get("key"), str):
        return True
    breakdown = result.get("breakdown")
    return isinstance(breakdown, list) and any(
        isinstance(b, Mapping) and isinstance(b.get("key"), str) for b in breakdown
    )


def current_result(
    result: Mapping[str, Any], game: Game | None, entry: Mapping[str, Any] | None
) -> Mapping[str, Any]:
    """The round answer to explain: ``result`` itself when it carries keys, else (a round
    stored by an older version, English only) the judge's answer to the stored ``entry`` now,
    when it gives the same scores; else ``result`` as stored (shown as the judge wrote it)."""
    if keyed(result) or game is None or entry is None:
        return result
    again = games.score_round(game, entry)
    if again.valid and again.breakdown.get("scores") == result.get("scores"):
        return again.breakdown
    return result


def breakdown_panel(
    result: Mapping[str, Any],
    players: Sequence[str],
    game: Game | None = None,
    entry: Mapping[str, Any] | None = None,
    app: Any = None,
    open_rule: Callable[[str], None] | None = None,
) -> ft.Container:
    """The whole explanation of a scored round (a valid judge ``round`` answer). With the
    ``game`` and the round's stored ``entry``, a round stored without keys is judged again
    (:func:`current_result`) so its lines read in the player's language. With the ``app``
    and the ``game``, the rule line is a button to the game's rule book at its section;
    ``open_rule(route)``, when given, opens it instead of ``app.go`` (the round entry keeps
    its draft first)."""
    result = current_result(result, game, entry)
    scores = result.get("scores", {})
    breakdown = result.get("breakdown")
    controls: list[ft.Control] = [
        ft.Text(_("Who gets what, and why"), size=17, weight=ft.FontWeight.BOLD)
    ]
    controls += score_lines(
        players, scores if isinstance(scores, Mapping) else {}, breakdown, result
    )
    explained = isinstance(breakdown, list) and any(isinstance(b, str) for b in breakdown)
    controls += gin_detail(result, players, explained)
    if isinstance(breakdown, list):
        lines = verdict_render.gin_lines(result)  # gin's round arithmetic, line by line
        if lines:
            controls.append(ft.Text(readable("\n".join(lines)), size=14))
    message = verdict_render.round_message(result)
    if message:
        controls.append(ft.Text(readable(message), size=14, italic=True))
    words = rule_words(result)
    route = rule_route(result, game) if app is not None else None
    if words and route is not None:
        go: Callable[[str], None] = open_rule if open_rule is not None else app.go

        def open_book(_e: Any = None) -> None:
            go(route)

        controls.append(
            ft.TextButton(
                content=ft.Text(readable(words), size=13),
                icon=ft.Icons.MENU_BOOK,
                on_click=open_book,
            )
        )
    elif words:
        controls.append(ft.Text(readable(words), size=12, color=MUTED))
    return card(ft.Column(controls, spacing=6), bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST)
