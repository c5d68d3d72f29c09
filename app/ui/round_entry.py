"""Entering (or editing) one round, and looking at a saved round.

Flow: fill in the variant's form → "Show the scores" asks the judge → "Save round" appears in
its place with the breakdown (who gets what and why, naming the rule) under it, scrolled into
view → saved, back to the score sheet.
Any edit hides an out-of-date breakdown. A mistyped piece or an impossible round is flagged at
its field with the reason; nothing saved changes until "Save round" succeeds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import flet as ft

from app import games, verdict_text
from app.i18n import _
from app.ui.breakdown import breakdown_panel, pieces_text
from app.ui.entry_forms import EntryForm, FormError, TilesForm, make_form
from app.ui.frame import frame
from app.ui.games_list import when
from app.ui.saving import save_game
from app.ui.widgets import (
    MUTED,
    card,
    error_box,
    muted,
    primary_button,
    secondary_button,
    show_error,
)

if TYPE_CHECKING:
    from app.games import Game, RoundResult
    from app.ui.shell import App


BREAKDOWN_KEY = "breakdown"


def problem_text(game: Game, result: RoundResult) -> str:
    """Why a round cannot be saved, in the player's language (:mod:`app.verdict_text`): a round
    the rules say cannot have happened, or an entry the judge cannot read; the app's own
    checks keep their message."""
    answer = dict(result.breakdown)
    if answer.get("error"):
        return verdict_text.error_message({**answer, "ok": False}, {"variant": game.variant})
    if answer.get("reason") or (result.reason and not result.input_error):
        answer.setdefault("reason", result.reason)
        answer.setdefault("message", result.message or "")
        return verdict_text.verdict_message(
            {**answer, "ok": True, "valid": False}, {"variant": game.variant}
        )
    return result.message or _("The round is not valid")


class RoundEntry:
    """The round entry screen.

    Args:
        index: 0-based round to edit, or None for the next round.

    Attributes (for tests): ``form`` (the variant's :class:`EntryForm`), ``check_button``,
    ``save_button`` (visible once the breakdown is shown), ``result`` (the judge's verdict),
    ``error`` (form-level error box), ``preview`` (breakdown holder).
    """

    def __init__(self, app: App, game: Game, index: int | None = None) -> None:
        self.app = app
        self.game = game
        self.index = index
        self.result: RoundResult | None = None
        self._built = False  # the form calls _edited while it is being built
        n = (index if index is not None else len(game.rounds)) + 1
        self.form: EntryForm = make_form(game.variant, game.options, game.players, self._edited)
        if index is not None:
            self.form.load(game.rounds[index].entry)
        prefilled = index is None and isinstance(self.form, TilesForm) and game.pending_penalties
        if prefilled:  # recorded with the turn timer (app/ui/timer.py); cleared by add_round
            assert isinstance(self.form, TilesForm)
            self.form.set_penalties(games.pending_penalties(game))
        dealer = game.players[games.dealer_for_round(game, n - 1)]
        role = _("dealt") if game.variant in ("gin", "carousel") else _("started")
        self.error = error_box()
        self.preview = ft.Column([], spacing=8)
        self.check_button = primary_button(_("Show the scores"), self.check, ft.Icons.CALCULATE)
        self.save_button = primary_button(
            _("Save round {n}").format(n=n) if index is None else _("Save the changes"),
            self.save,
            ft.Icons.SAVE,
        )
        self.save_button.visible = False
        self._built = True
        controls: list[ft.Control] = [
            muted(_("{name} {role} this round.").format(name=dealer, role=role), size=15),
            *(
                [muted(_("The penalty draws recorded with the turn timer are filled in."))]
                if prefilled
                else []
            ),
            *self.form.controls,
            self.error,
            self.check_button,
            ft.Column(
                [self.save_button, self.preview],
                spacing=10,
                key=ft.ScrollKey(BREAKDOWN_KEY),
                horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
            ),
            secondary_button(_("Cancel"), self._cancel, ft.Icons.CLOSE),
        ]
        title = (_("Round {n}") if index is None else _("Edit round {n}")).format(n=n)
        route = f"/game/{game.id}/round" + ("" if index is None else f"/{n}/edit")
        self.view = frame(app, route, title, controls, back=f"/game/{game.id}")

    def _edited(self) -> None:
        """Any change: the breakdown shown no longer matches."""
        if not self._built:
            return
        # a complaint was about the entry as it was checked: "Show the scores" checks again
        if self.error.visible:
            show_error(self.error, None)
        self.form.error.visible = False
        if self.result is not None or self.save_button.visible:
            self.result = None
            self.preview.controls = []
            self.save_button.visible = False
            self.check_button.visible = True

    def check(self, _e: Any = None) -> bool:
        """Read the form and ask the judge; show the breakdown or the complaint."""
        show_error(self.error, None)
        self.result = None
        self.preview.controls = []
        self.save_button.visible = False
        try:
            entry = self.form.entry()
        except FormError as e:
            show_error(self.error, str(e))
            return False
        result = games.score_round(self.game, entry)
        if not result.valid:
            message = problem_text(self.game, result)
            self.form.flag_judge(message, result.breakdown)
            show_error(self.error, message)
            return False
        self.result = result
        self.preview.controls = [breakdown_panel(result.breakdown, self.game.players)]
        self.save_button.visible = True
        self.check_button.visible = False
        self.app.scroll_to(BREAKDOWN_KEY)
        return True

    def save(self, _e: Any = None) -> None:
        """Save the checked round (checking again if needed) and go back to the sheet."""
        if self.result is None and not self.check():
            return
        assert self.result is not None
        try:
            if self.index is None:
                new = games.add_round(self.game, self.result.entry, self.result)
            else:
                new = games.replace_round(self.game, self.index, self.result.entry, self.result)
        except games.RoundError as e:
            show_error(self.error, e.message)
            return
        except games.GameError as e:
            show_error(self.error, e.message)
            return
        refused: list[str] = []
        stored = save_game(self.app, new, self.game.version, on_error=refused.append)
        if stored is None:
            if refused:  # disk full, read-only, no right: stay, keep what was typed, say why
                show_error(self.error, refused[-1])
                return
            self.app.go(f"/game/{self.game.id}")
            return
        step = games.last_change(stored)  # saved on top of another phone's round: n moved
        n = step.index + 1 if step is not None else len(stored.rounds)
        from app.ui.sharing import rebase_note

        note = rebase_note(self.app, self.game, stored)
        self.app.notify(_("Round {n} saved").format(n=n) + note)
        self.app.go(f"/game/{self.game.id}")

    def _cancel(self, _e: Any = None) -> None:
        self.app.go(f"/game/{self.game.id}")


def entry_summary(entry: Mapping[str, Any]) -> list[str]:
    """What was entered, one line per player (for the round screen)."""
    lines = []
    if entry.get("finish"):
        from app.ui.labels import FINISH_NAMES

        lines.append(
            _("Finish: {kind}").format(kind=_(FINISH_NAMES.get(entry["finish"], entry["finish"])))
        )
    if "knocker" in entry:
        lines.append(_("Knocked: {name}").format(name=entry["knocker"] or _("nobody")))
    for p in entry.get("players", []):
        if not isinstance(p, Mapping):
            continue
        bits = []
        if p.get("winner"):
            bits.append(_("finished"))
        if p.get("opened"):
            from app.ui.labels import OPENED_NAMES

            bits.append(_(OPENED_NAMES.get(p["opened"], p["opened"])).lower())
        if isinstance(p.get("hand"), list):
            bits.append(pieces_text(p["hand"]) or _("no cards"))
        if p.get("hand_value") is not None:
            bits.append(_("{n} points").format(n=p["hand_value"]))
            if p.get("jokers"):
                bits.append(_("{n} joker(s)").format(n=p["jokers"]))
        if p.get("deadwood") is not None and not isinstance(p.get("hand"), list):
            bits.append(_("deadwood {n}").format(n=p["deadwood"]))
        lines.append(f"{p.get('name')}: {', '.join(bits)}")
    pens = entry.get("penalties")
    if isinstance(pens, list) and pens:
        counts: dict[str, int] = {}
        for d in pens:
            if isinstance(d, Mapping):
                counts[str(d.get("name"))] = counts.get(str(d.get("name")), 0) + 1
        lines.append(
            _("Penalty draws: {list}").format(
                list=", ".join(f"{k} ×{v}" for k, v in counts.items())
            )
        )
    return lines


class RoundDetail:
    """A saved round: what was entered, the breakdown, Edit and Delete."""

    def __init__(self, app: App, game: Game, index: int) -> None:
        self.app = app
        self.game = game
        self.index = index
        r = game.rounds[index]
        n = index + 1
        dealer = game.players[games.dealer_for_round(game, index)]
        controls: list[ft.Control] = [
            muted(
                (
                    _("{name} dealt. Entered {time}.")
                    if game.variant in ("gin", "carousel")
                    else _("{name} started. Entered {time}.")
                ).format(name=dealer, time=when(r.time)),
                size=14,
            ),
            card(ft.Column([ft.Text(line, size=15) for line in entry_summary(r.entry)], spacing=4)),
            breakdown_panel(r.result, game.players),
        ]
        if r.edited:
            controls.append(
                ft.Text(
                    _("Edited {time}").format(time=when(r.edited)),
                    size=13,
                    color=MUTED,
                )
            )
        self.edit_button = primary_button(
            _("Edit round {n}").format(n=n), self._edit, ft.Icons.EDIT
        )
        self.delete_button = secondary_button(
            _("Delete round {n}").format(n=n), self._delete, ft.Icons.DELETE_OUTLINE
        )
        from app.ui.sharing import can_edit  # phones without the join code only watch

        if can_edit(app, game.id):
            controls += [self.edit_button, self.delete_button]
        self.view = frame(
            app,
            f"/game/{game.id}/round/{n}",
            _("Round {n}").format(n=n),
            controls,
            back=f"/game/{game.id}",
        )

    def _edit(self, _e: Any = None) -> None:
        self.app.go(f"/game/{self.game.id}/round/{self.index + 1}/edit")

    def _delete(self, _e: Any = None) -> None:
        self.app.confirm(
            _("Delete round {n}?").format(n=self.index + 1),
            _("The totals are counted again without it. “Undo” on the score sheet brings it back."),
            _("Delete"),
            self.delete_now,
        )

    def delete_now(self) -> None:
        """Delete the round and go back to the sheet."""
        try:
            new = games.delete_round(self.game, self.index)
        except games.GameError as e:
            self.app.notify(e.message, error=True)
            return
        if save_game(self.app, new, self.game.version) is not None:
            self.app.notify(_("Round {n} deleted").format(n=self.index + 1))
        self.app.go(f"/game/{self.game.id}")
