"""The score sheet: big totals with the leader marked, the next round's button, a chart of the
totals, every round (tap one to see, edit or delete it), undo, export, and the winner."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from app import games, verdict_text
from app.i18n import _, ngettext
from app.ui import labels
from app.ui.chart import totals_chart
from app.ui.export import ExportDialog
from app.ui.frame import frame
from app.ui.widgets import (
    ERROR_COLOUR,
    GOOD_COLOUR,
    LEADER_BG,
    MUTED,
    card,
    heading,
    icon_button,
    muted,
    number,
    player_colour,
    primary_button,
    readable,
    signed,
)

if TYPE_CHECKING:
    from app.games import Game, Standings
    from app.ui.shell import App


SHOWN_ROUNDS = 12
"""Rounds the table shows at first (the last ones); the rest on request."""


def describe_change(game: Game, step: games.UndoStep) -> str:
    """What undo would take back, for people: "Remove round 5 (just added)"."""
    n = step.index + 1
    if step.action == "add":
        return _("remove round {n}, added last").format(n=n)
    if step.action == "replace":
        return _("put round {n} back as it was before the edit").format(n=n)
    return _("bring back round {n}, deleted last").format(n=n)


class ScoreSheet:
    """The game's main screen.

    Attributes (for tests): ``game``, ``standings``, ``total_texts`` (player -> big total
    Text), ``round_rows`` (round index -> its clickable row, for the rounds shown; a long game
    shows its last :data:`SHOWN_ROUNDS` until :meth:`show_all_rounds`), ``enter_button`` (None
    when the game is over), ``undo_button``.
    """

    def __init__(self, app: App, game: Game) -> None:
        self.app = app
        self.game = game
        self.standings: Standings = games.standings(game)
        st = self.standings
        players = list(game.players)
        self.total_texts: dict[str, ft.Text] = {}
        controls: list[ft.Control] = []
        from app.ui import sharing  # phones without the join code only watch (app/ui/sharing.py)

        self.editable = sharing.can_edit(app, game.id)
        banner = sharing.access_banner(app, game)
        if banner is not None:
            controls.append(banner)

        if st.finished:
            controls.append(self._winner_banner())
        controls.append(self._totals_panel())
        progress = self._progress_line()
        if progress is not None:
            controls.append(progress)
        self.enter_button: ft.Control | None = None
        if not st.finished:
            n = len(game.rounds) + 1
            dealer = players[games.next_dealer(game)]
            role = _("deals") if game.variant in ("gin", "carousel") else _("starts")
            controls.append(
                muted(_("Round {n}: {name} {role}").format(n=n, name=dealer, role=role), size=15)
            )
            if self.editable:
                self.enter_button = primary_button(
                    _("Enter round {n}").format(n=n), self._enter, ft.Icons.EDIT_NOTE
                )
                controls.append(self.enter_button)
        controls.append(  # the referee's checkers with this game's rules (app/ui/checkers.py)
            ft.OutlinedButton(
                content=_("Referee: check a meld, turn or hand"),
                icon=ft.Icons.GAVEL,
                on_click=lambda _e=None: app.go(f"/check?game={game.id}"),
                height=44,
            )
        )
        self.timer_button: ft.Control | None = None
        if game.variant in ("tile_rummy", "my_rummy") and not st.finished:
            from app.ui.timer import pending_text  # the turn timer (app/ui/timer.py)

            self.timer_button = ft.OutlinedButton(
                content=_("Turn timer"),
                icon=ft.Icons.TIMER,
                on_click=lambda _e=None: app.go(f"/game/{game.id}/timer"),
                height=44,
            )
            controls.append(self.timer_button)
            if game.pending_penalties:
                controls.append(muted(pending_text(game), size=14))
        if st.error:
            controls.append(
                card(
                    ft.Text(
                        _("Totals without game-end bonuses: {message}").format(
                            message=self._game_problem()
                        ),
                        color=ERROR_COLOUR,
                    ),
                    bgcolor=ft.Colors.RED_50,
                )
            )
        if game.rounds:
            controls.append(heading(_("Totals over the rounds")))
            controls.append(totals_chart(players, st.running))
            controls.append(heading(_("Rounds")))
            controls.append(muted(_("Tap a round to see why, to edit or to delete it.")))
            controls.append(self._header_row())
            self._row_border = ft.Border.only(bottom=ft.BorderSide(1, ft.Colors.BLUE_GREY_100))
            self.rows = ft.Column([], spacing=0)
            self.round_rows: dict[int, ft.Control] = {}
            n_rounds = len(game.rounds)
            first = max(0, n_rounds - SHOWN_ROUNDS)
            self.show_all_button = ft.TextButton(
                ngettext("Show the {n} earlier round", "Show the {n} earlier rounds", first).format(
                    n=first
                ),
                icon=ft.Icons.EXPAND_LESS,
                on_click=self.show_all_rounds,
                visible=first > 0,
            )
            self._add_rows(range(first, n_rounds))
            controls += [self.show_all_button, self.rows]
        else:
            self.round_rows = {}
        controls.append(self._rules_line())

        step = games.last_change(game)
        self.undo_button = icon_button(
            ft.Icons.UNDO,
            _("Undo last change"),
            self._undo,
            disabled=step is None or not self.editable,
        )
        actions: list[ft.Control] = [
            self.undo_button,
            icon_button(ft.Icons.IOS_SHARE, _("Export this game"), self._export),
        ]
        share = sharing.share_button(app, game.id)
        if share is not None:
            actions.append(share)
        title = labels.variant_name(game.variant)
        self.view = frame(app, f"/game/{game.id}", title, controls, back="/", actions=actions)

    def _add_rows(self, indices: range) -> None:
        new = [self._round_row(i) for i in indices]
        self.round_rows.update(zip(indices, new, strict=True))
        self.rows.controls = [self.round_rows[i] for i in sorted(self.round_rows)]

    def show_all_rounds(self, _e: Any = None) -> None:
        """Add the earlier rounds to the table (a long game shows its last rounds first)."""
        self._add_rows(range(0, min(self.round_rows, default=0)))
        self.show_all_button.visible = False

    # -- parts --------------------------------------------------------------------------------
    def _game_problem(self) -> str:
        """Why the judge could not total the game (e.g. rounds after its end), in the
        player's language."""
        st = self.standings
        answer = {**st.judge, "ok": True, "valid": False}
        answer.setdefault("reason", st.error)
        answer.setdefault("message", st.message or "")
        if not answer.get("reason"):
            return st.message or ""
        return verdict_text.verdict_message(answer, {"variant": self.game.variant})

    def _winner_banner(self) -> ft.Control:
        st = self.standings
        if st.winners:
            text = ngettext("{names} wins!", "{names} win!", len(st.winners)).format(
                names=_(" and ").join(st.winners)
            )
        else:
            text = _("The game is over: no winner")
        lines: list[ft.Control] = [
            ft.Row(
                [
                    ft.Icon(ft.Icons.EMOJI_EVENTS, color=ft.Colors.AMBER_800, size=36),
                    ft.Text(text, size=26, weight=ft.FontWeight.BOLD, expand=True),
                ]
            ),
        ]
        why = {
            "rounds": _("The agreed number of rounds is played."),
            "target": _("The agreed target score is reached."),
        }.get(st.finished_by or "")
        if why:
            lines.append(ft.Text(why, size=15))
        bonus = [f"{p} {signed(b)}" for p, b in st.bonuses.items() if b]
        if bonus:
            lines.append(
                ft.Text(
                    _("Game-end bonuses (included in the totals): {list}").format(
                        list=", ".join(bonus)
                    ),
                    size=15,
                    weight=ft.FontWeight.W_500,
                )
            )
        detail = st.judge.get("breakdown")
        if isinstance(detail, list) and detail and all(isinstance(x, str) for x in detail):
            detail = verdict_text.game_lines(st.judge, self.game.variant, self.game.options)
            lines.append(ft.Text(readable("\n".join(detail)), size=14))
        # an agreed end (``why``) is the one sentence: the judge's line is about the game
        # without it ("the players agree on a number of rounds; …")
        message = "" if why else verdict_text.game_message(st.judge, self.game.variant)
        if message:
            lines.append(ft.Text(readable(message), size=13, color=MUTED, italic=True))
        return ft.Semantics(
            label=text,
            container=True,
            content=card(ft.Column(lines, spacing=6), bgcolor=ft.Colors.AMBER_200),
        )

    def _totals_panel(self) -> ft.Control:
        st = self.standings
        best = set(st.winners if st.finished else st.leaders)
        rows: list[ft.Control] = []
        for i, p in enumerate(self.game.players):
            total = st.totals.get(p, 0)
            lead = p in best
            big = ft.Text(
                number(total),
                size=40,
                weight=ft.FontWeight.BOLD,
                color=ft.Colors.BLACK if lead else ft.Colors.BLUE_GREY_900,
            )
            self.total_texts[p] = big
            tag = (_("winner") if st.finished else _("leader")) if lead else ""
            name_col = ft.Column(
                [
                    ft.Text(
                        p,
                        size=20,
                        weight=ft.FontWeight.W_600,
                        max_lines=1,
                        overflow=ft.TextOverflow.ELLIPSIS,
                    )
                ]
                + (
                    [
                        ft.Text(
                            tag.upper(),
                            size=12,
                            weight=ft.FontWeight.BOLD,
                            color=ft.Colors.AMBER_900,
                        )
                    ]
                    if tag
                    else []
                ),
                spacing=0,
                expand=True,
            )
            row = ft.Container(
                content=ft.Row(
                    [
                        ft.Container(width=8, height=44, bgcolor=player_colour(i), border_radius=4),
                        ft.Icon(
                            ft.Icons.STAR if lead else ft.Icons.STAR_BORDER,
                            color=ft.Colors.AMBER_800 if lead else ft.Colors.TRANSPARENT,
                            size=28,
                        ),
                        name_col,
                        big,
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                ),
                bgcolor=LEADER_BG if lead else None,
                border_radius=10,
                padding=ft.Padding.symmetric(horizontal=8, vertical=2),
            )
            label = _("{name}: {total} points").format(name=p, total=number(total))
            if tag:
                label += f", {tag}"
            rows.append(ft.Semantics(label=label, container=True, content=row))
        return card(ft.Column(rows, spacing=4), padding=8)

    def _progress_line(self) -> ft.Control | None:
        """Rounds won (gin boxes, Carousel round bonuses) and how the game goes on, as the
        judge's ``game`` answer tells them."""
        st = self.standings
        parts: list[str] = []
        won = st.judge.get("boxes") or st.judge.get("round_wins")
        if isinstance(won, dict) and won:
            label = _("Boxes") if "boxes" in st.judge else _("Rounds won")
            parts.append(
                f"{label}: " + ", ".join(f"{p} {won.get(p, 0)}" for p in self.game.players)
            )
        message = verdict_text.game_message(st.judge, self.game.variant)
        if not st.finished and message:
            parts.append(readable(message))
        if not parts:
            return None
        return muted(" · ".join(parts), size=14)

    def _header_row(self) -> ft.Control:
        cells: list[ft.Control] = [ft.Text("#", size=13, color=MUTED, width=30)]
        for i, p in enumerate(self.game.players):
            cells.append(
                ft.Text(
                    p,
                    size=13,
                    weight=ft.FontWeight.BOLD,
                    color=player_colour(i),
                    max_lines=1,
                    overflow=ft.TextOverflow.ELLIPSIS,
                    expand=True,
                    text_align=ft.TextAlign.RIGHT,
                )
            )
        return ft.Container(
            content=ft.Row(cells, spacing=6), padding=ft.Padding.symmetric(horizontal=8)
        )

    def _round_row(self, i: int) -> ft.Control:
        st = self.standings
        scores, running = st.round_scores[i], st.running[i]
        cells: list[ft.Control] = [
            ft.Text(str(i + 1), size=15, weight=ft.FontWeight.BOLD, width=30)
        ]
        parts = []
        for p in self.game.players:
            s = scores.get(p, 0)
            cells.append(
                ft.Column(
                    [
                        ft.Text(number(running.get(p, 0)), size=17, weight=ft.FontWeight.BOLD),
                        ft.Text(
                            signed(s),
                            size=13,
                            color=GOOD_COLOUR if s > 0 else ERROR_COLOUR if s < 0 else MUTED,
                        ),
                    ],
                    spacing=0,
                    horizontal_alignment=ft.CrossAxisAlignment.END,
                    expand=True,
                )
            )
            parts.append(f"{p} {signed(s)} ({number(running.get(p, 0))})")
        edited = self.game.rounds[i].edited

        def open_round(_e: Any = None) -> None:
            self.app.go(f"/game/{self.game.id}/round/{i + 1}")

        label = _("Round {n}: {scores}").format(n=i + 1, scores=", ".join(parts))
        if edited:
            label += " " + _("(edited)")
        return ft.Semantics(
            label=label,
            button=True,
            container=True,
            content=ft.Container(
                content=ft.Row(cells, spacing=6),
                on_click=open_round,
                padding=ft.Padding.symmetric(horizontal=8, vertical=6),
                border=self._row_border,
                bgcolor=ft.Colors.YELLOW_50 if edited else None,
            ),
        )

    def _rules_line(self) -> ft.Control:
        g = self.game
        changed = []
        from rules.options import PRESETS

        base = PRESETS.get(g.variant, {}).get(g.preset)  # type: ignore[call-overload]
        for k, v in g.options.items():
            if k != "preset" and base is not None and getattr(base, k, v) != v:
                label, _note = labels.option_label(k)
                changed.append(f"{label}: {v}")
        text = _("Rules: {preset}").format(preset=labels.preset_name(g.preset))
        if changed:
            text += " · " + "; ".join(changed)
        limit, target = games.game_limits(g)
        if limit:
            text += " · " + ngettext("{n} round agreed", "{n} rounds agreed", limit).format(n=limit)
        if target:
            text += " · " + _("to {n} points").format(n=target)
        return muted(text, size=13)

    # -- actions ------------------------------------------------------------------------------
    def _enter(self, _e: Any = None) -> None:
        self.app.go(f"/game/{self.game.id}/round")

    def _export(self, _e: Any = None) -> None:
        ExportDialog(self.app, self.game).open()

    def _undo(self, _e: Any = None) -> None:
        step = games.last_change(self.game)
        if step is None:
            return
        self.app.confirm(
            _("Undo the last change?"),
            _("This will {what}.").format(what=describe_change(self.game, step)),
            _("Undo"),
            self.undo_now,
            danger=False,
        )

    def undo_now(self) -> None:
        """Take back the last change and save."""
        try:
            new = games.undo(self.game)
        except games.GameError as e:
            self.app.notify(e.message, error=True)
            return
        if self.app_save(new):
            self.app.notify(_("Undone"))
        self.app.refresh()

    def app_save(self, new: Game) -> bool:
        """Save ``new`` over this screen's game version; False (and a message) on conflict."""
        from app.ui.saving import save_game

        return save_game(self.app, new, self.game.version) is not None
