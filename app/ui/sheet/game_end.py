"""The end of a game on its score sheet (issue 10, point 9).

- **End the game now** — for the games that have no end of their own or whose players stop
  early (Rummy 101, Tile Rummy, My Rummy: :func:`app.games.end_game` decides which), after a
  confirmation naming who would win, by the variant's game-end rule as the judge's ``game``
  check applies it (:func:`end_preview`).
- **One more round** — a finished game that ended by its number of rounds (agreed, or ended
  by the players) takes one round more: the agreed number becomes the rounds played + 1
  (:func:`one_more_round`; offered only when that really opens the game again).
- **Play again with the same players** — any finished game: a new game of the same variant,
  rules, seats and agreed end (:func:`replay`), the next dealer in turn dealing first.

All three save through the store's usual path (:func:`app.ui.table.sharing.save_game`, which tells
the watching phones), and undo takes an end or an extension back.

Decisions where the issue was silent: ending is offered whenever the engine allows it (also
when an agreed number of rounds is not reached yet: the table may stop early); "Play again"
keeps the end the players agreed at the start (:data:`AGREED_KEY`, kept in
:attr:`app.games.Game.extra` when the sheet first ends or extends a game), not the number of
rounds an early end or "one more round" made; only the host's computer starts games, so only
it offers "Play again".
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Final, Protocol

import flet as ft

from app import games, verdict_render
from app.error_text import describe
from app.games import ENDED_KEY, Game, GameError, ended_early
from app.i18n import _, ngettext
from app.store import StoreError
from app.ui.common.widgets import number, primary_button, secondary_button
from app.ui.table import sharing

if TYPE_CHECKING:
    from app.games import Standings
    from app.ui.common.session import App


class ScoreSheet(Protocol):
    """What the end-of-game buttons use of their sheet
    (:class:`app.ui.sheet.score_sheet.ScoreSheet`,
    which holds them: this module does not import it)."""

    app: App
    game: Game
    standings: Standings
    editable: bool

    def app_save(self, new: Game) -> bool:
        """Save ``new`` (a change of :attr:`game`); False when it was not saved."""
        ...


AGREED_KEY: Final = "agreed_at_start"
""":attr:`Game.extra` key: ``{"rounds": int | None, "target": int | None}``, the agreed end
before the sheet first ended or extended the game."""


# -- the engine side (no controls) -----------------------------------------------------------
def can_end(game: Game) -> bool:
    """May ``game`` be ended now by agreement (:func:`app.games.end_game` accepts it)?"""
    try:
        games.end_game(game)
    except GameError:
        return False
    return True


def end_preview(game: Game) -> Standings:
    """Where ``game`` would stand if ended now (winners by the variant's game-end rule).

    Raises:
        GameError: the game cannot be ended (see :func:`app.games.end_game`).
    """
    return games.standings(games.end_game(game))


def end_text(game: Game, preview: Standings) -> str:
    """What "End the game now?" says will happen: after how many rounds the game ends (of
    how many agreed), who wins with how many points, by which rule. Rummy 101 is ended by
    making the rounds played the agreed ones, so the judge's line ("after the 1 agreed round
    …") is not repeated: the game was not agreed to be that short (the sheet says "ended by
    the players" after it, :func:`app.games.ended_early`).

    Args:
        game: the game before it is ended. preview: :func:`end_preview` of it.
    """
    n = len(game.rounds)
    agreed, _target = agreed_at_start(game)
    if agreed is not None and agreed > n:
        text = ngettext(
            "The game ends now, after {n} of the {agreed} agreed round.",
            "The game ends now, after {n} of the {agreed} agreed rounds.",
            agreed,
        ).format(n=n, agreed=agreed)
    else:
        text = ngettext(
            "The game ends now, after {n} round.", "The game ends now, after {n} rounds.", n
        ).format(n=n)
    winners = list(preview.winners)
    if winners:
        best = preview.totals.get(winners[0], 0)
        text += " " + ngettext(
            "{names} wins with {points} points.",
            "{names} win with {points} points each.",
            len(winners),
        ).format(names=_(" and ").join(winners), points=number(best))
    else:
        text += " " + _("Nobody wins.")
    if games.about_game(game).agreed_end == "game":  # Rummy 101 (RULES.md §3)
        rule = _("The highest total wins.")
    else:
        rule = verdict_render.game_message(preview.judge, game.variant)
    if rule:
        text += " " + rule.rstrip(".") + "."
    return text + " " + _("No more rounds can be entered; Undo opens the game again.")


def agreed_at_start(game: Game) -> tuple[int | None, int | None]:
    """The end the players agreed when the game began: (rounds, target score), ``None`` where
    nothing was agreed. Read from :data:`AGREED_KEY`, else the oldest end/extension in the
    undo log, else the game's agreed end now."""
    kept = game.extra.get(AGREED_KEY)
    if isinstance(kept, dict):
        r, t = kept.get("rounds"), kept.get("target")
        return (r if isinstance(r, int) else None, t if isinstance(t, int) else None)
    for step in game.undo_log:
        if step.action in ("end", "limits") and step.state is not None:
            before = dataclasses.replace(
                game,
                agreed_rounds=step.state.get("agreed_rounds"),
                agreed_target=step.state.get("agreed_target"),
                options=step.state.get("options") or game.options,
            )
            return games.game_limits(before)
    return games.game_limits(game)


def _keep_agreement(before: Game, after: Game) -> Game:
    """``after`` with the agreement of ``before`` kept (:data:`AGREED_KEY`) if not yet."""
    if AGREED_KEY in after.extra:
        return after
    rounds, target = agreed_at_start(before)
    return dataclasses.replace(
        after, extra={**after.extra, AGREED_KEY: {"rounds": rounds, "target": target}}
    )


def end_now(game: Game) -> Game:
    """``game`` ended now (:func:`app.games.end_game`), its starting agreement kept and the
    rounds played noted (:data:`ENDED_KEY`).

    Raises:
        GameError: it cannot be ended.
    """
    ended = _keep_agreement(game, games.end_game(game))
    return dataclasses.replace(ended, extra={**ended.extra, ENDED_KEY: len(game.rounds)})


def one_more_round(game: Game) -> Game | None:
    """``game`` (finished) with one round more to play: the agreed number of rounds becomes
    the rounds played + 1, the target stays; None when that would not open the game again
    (not finished, Gin and Carousel, a target reached, no rounds)."""
    if not game.rounds or not games.standings(game).finished:
        return None
    _rounds, target = games.game_limits(game)
    try:
        more = games.set_limits(game, len(game.rounds) + 1, target)
    except GameError:
        return None
    if games.standings(more).finished:
        return None
    return _keep_agreement(game, more)


def replay(game: Game) -> Game:
    """A new game (not stored) with the players, variant, rules and agreed end of ``game``;
    the player who would deal (start) the next round deals first.

    Raises:
        GameError: the game's data is refused by :func:`app.games.new_game`.
    """
    rounds, target = agreed_at_start(game)
    options = dict(game.options)
    players = list(game.players)
    about = games.about_game(game)
    if about.agreed_end == "options":
        options["games"], options["target"] = rounds, target
        rounds = target = None
    elif about.is_solo(options):
        players = players[:1]  # the solo player; new_game adds "the joker"
    with_game = about.agreed_end == "game"
    dealer = games.next_dealer(game) if game.rounds else game.first_dealer
    new = games.new_game(
        game.variant,
        players,
        options,
        agreed_rounds=rounds if with_game else None,
        agreed_target=target if with_game else None,
    )
    return dataclasses.replace(new, first_dealer=dealer % len(new.players))


# -- the sheet's controls ----------------------------------------------------------------------
class EndActions:
    """The end-of-game buttons of one :class:`app.ui.sheet.score_sheet.ScoreSheet`.

    Attributes (for tests, None when not shown): ``end_button``, ``again_button``,
    ``more_button``.
    """

    def __init__(self, sheet: ScoreSheet) -> None:
        self.sheet = sheet
        self.end_button: ft.Control | None = None
        self.again_button: ft.Control | None = None
        self.more_button: ft.Control | None = None

    def finished_controls(self) -> list[ft.Control]:
        """Under a finished game's totals: play again (host), one more round (when it opens
        the game again). Empty for an unfinished game or a phone that only watches."""
        sheet = self.sheet
        self.again_button = self.more_button = None
        if not sheet.standings.finished or not sheet.editable:
            return []
        out: list[ft.Control] = []
        if sharing.is_host(sheet.app):
            self.again_button = primary_button(
                _("Play again with the same players"), self.play_again, ft.Icons.REPLAY
            )
            out.append(ft.Row([self.again_button]))
        if one_more_round(sheet.game) is not None:
            self.more_button = secondary_button(_("One more round"), self.more, ft.Icons.PLUS_ONE)
            out.append(self.more_button)
        return out

    def end_controls(self) -> list[ft.Control]:
        """At the foot of an unfinished game that may be ended now: "End the game"."""
        sheet = self.sheet
        self.end_button = None
        if sheet.standings.finished or not sheet.editable or not can_end(sheet.game):
            return []
        self.end_button = secondary_button(_("End the game now"), self.ask_end, ft.Icons.FLAG)
        return [self.end_button]

    # -- handlers ---------------------------------------------------------------------------
    def ask_end(self, _e: Any = None) -> None:
        """Confirm, naming who would win and by which rule."""
        sheet = self.sheet
        game = sheet.game
        try:
            preview = end_preview(game)
        except GameError as e:
            sheet.app.notify(describe(e), error=True)
            return
        sheet.app.confirm(
            _("End the game now?"),
            end_text(game, preview),
            _("End the game"),
            self.end,
            danger=False,
        )

    def end(self) -> None:
        """End the game and save it (the watching phones are told)."""
        sheet = self.sheet
        try:
            new = end_now(sheet.game)
        except GameError as e:
            sheet.app.notify(describe(e), error=True)
            return
        if sheet.app_save(new):
            sheet.app.notify(_("The game is over"))
        sheet.app.refresh()
        sheet.app.scroll_to(None)  # the winner's banner and what next, at the top

    def more(self, _e: Any = None) -> None:
        """Agree on one round more and save."""
        sheet = self.sheet
        new = one_more_round(sheet.game)
        if new is None:
            sheet.app.refresh()
            return
        if sheet.app_save(new):
            sheet.app.notify(
                _("One more round: round {n} is the last.").format(n=len(new.rounds) + 1)
            )
        sheet.app.refresh()
        sheet.app.scroll_to(None)  # "Enter round n" at the top

    def play_again(self, _e: Any = None) -> None:
        """Start the same game again and open it."""
        sheet = self.sheet
        old = sheet.game
        ss = sharing.session_of(sheet.app)
        try:
            if ss is not None:
                # once (a double tap opens the game made by the first), and the table's join
                # code moves to the new game: the joined phones keep keeping score there and
                # the old game opens to no code (app/live.py, SessionStore.play_again)
                stored, made = ss.play_again(old.id, replay, sharing.NEXT_GAME_KEY)
            else:
                stored, made = self._play_again_here(old)
        except (GameError, StoreError) as e:
            sheet.app.notify(
                _("The game could not be started. {reason}").format(reason=describe(e)), error=True
            )
            return
        if made:
            sheet.app.notify(_("A new game with the same players"))
        sheet.app.go(f"/game/{stored.id}")

    def _play_again_here(self, old: Game) -> tuple[Game, bool]:
        """The "Play again" of a bare store (no live table: no codes to move): the next game
        already made, or a new one the finished game points to. Raises GameError, StoreError."""
        app = self.sheet.app
        nxt = sharing.next_game(app, app.store.load_game(old.id))
        if nxt is not None:
            return app.store.load_game(nxt), False
        stored = app.store.create_game(replay(old))
        # the finished game points to the new one (app/ui/table/sharing.py, next_game); a failed
        # save only loses that pointer
        sharing.point_to_next(app, old, stored.id)
        return stored, True


__all__ = [
    "AGREED_KEY",
    "ENDED_KEY",
    "EndActions",
    "agreed_at_start",
    "can_end",
    "end_now",
    "end_preview",
    "end_text",
    "ended_early",
    "one_more_round",
    "replay",
]
