"""What went wrong, in the player's language (issue 15, point 6).

The app's own errors carry a stable ``code`` (and, where the sentence names something, its
``params``) besides an English ``message`` meant for logs. :func:`describe` words one for a
screen: the store's write and read failures (:class:`app.store.StoreError`), a backup that
cannot be read (:class:`app.backup.BackupError`), a change a game refuses
(:class:`app.games.GameError`), a game file that cannot be imported
(:class:`app.games.GameImportError`) and a round the referee refuses
(:class:`app.games.RoundError`, rendered by :mod:`app.verdict_render`).

Every code has a sentence of its own; a detail the error lacks is left out of the sentence
rather than taken from the English message, and an unknown code reads as the generic sentence
of its kind. Nothing English (no code, no file path of the app's data folder beyond the folder
the player must free or fix) reaches a Polish or Slovak screen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from app import verdict_render
from app.backup import BackupError
from app.games import GameError, GameImportError, RoundError
from app.i18n import N_, _, ngettext
from app.store import StoreError
from app.ui.common import labels
from rules.errors import RulesError

__all__ = [
    "STORE_TEXT",
    "BACKUP_TEXT",
    "GAME_TEXT",
    "IMPORT_TEXT",
    "PASTED_TEXT",
    "describe",
    "import_problem",
    "round_problem",
]

STORE_TEXT: Final[dict[str, str]] = {
    "disk_full": N_(
        "The disk is full ({folder}): nothing was changed. Free some space and try again."
    ),
    "read_only": N_("The folder {folder} is read-only or not writable: nothing was changed."),
    "write_failed": N_("The data could not be written in {folder}: nothing was changed."),
    "read_failed": N_("The saved data could not be read."),
    "locked": N_(
        "The data is already open in another copy of the app. Close that one first, or start "
        "this one with another data file."
    ),
    "conflict": N_(
        "The game was changed on another screen meanwhile. Open it again and enter the change "
        "again."
    ),
    "not_found": N_("This game is not stored (any more)."),
    "exists": N_("This game is stored already."),
    "bad_id": N_("This game cannot be stored: its identity in the file is damaged."),
    "bad_value": N_("This setting cannot be stored."),
    "newer_schema": N_(
        "The data was saved by a newer version of the app. Update the app: nothing was changed."
    ),
    "corrupt": N_(
        "A data file is damaged and cannot be moved aside. Check the folder's permissions."
    ),
    "closed": N_("The data is closed: nothing was changed. Start the app again."),
    "store_error": N_("The data could not be saved or read."),
}
"""Sentences of :class:`app.store.StoreError` codes (``{folder}``: the folder concerned)."""

_STORE_NO_FOLDER: Final[dict[str, str]] = {
    "disk_full": N_("The disk is full: nothing was changed. Free some space and try again."),
    "read_only": N_("The data folder is read-only or not writable: nothing was changed."),
    "write_failed": N_("The data could not be written: nothing was changed."),
}

BACKUP_TEXT: Final[dict[str, str]] = {
    "not_text": N_("The file is not text."),
    "too_big": N_("The file is too large."),
    "not_json": N_("The file is damaged (not JSON)."),
    "not_backup": N_("The file is not a backup of this app."),
    "bad_version": N_("The file is not a backup of this app (it has no version)."),
    "newer": N_("The backup was made by a newer version of the app. Update the app."),
    "no_games": N_("The backup holds no list of games."),
    "bad_game": N_("A game in the backup is damaged."),
}
"""Sentences of :class:`app.backup.BackupError` codes."""

GAME_TEXT: Final[dict[str, str]] = {
    "bad_game": N_("The game's data is damaged."),
    "bad_round": N_("A round of the game is damaged."),
    "bad_players": N_("Give the players' names."),
    "bad_player_name": N_("A player's name cannot be used."),
    "bad_player_count": N_("This game is not for that many players."),
    "duplicate_player": N_("Two players have the same name."),
    "bad_option": N_("A rule option has a value that cannot be used."),
    "unknown_option": N_("The game has a rule option this app does not know."),
    "unknown_variant": N_("This app does not know the game's variant."),
    "bad_dealer": N_("Choose who deals first among the players."),
    "bad_notes": N_("The notes are too long."),
    "bad_entry": N_("The round's entry cannot be read."),
    "game_finished": N_("The game is over: nothing more can be added."),
    "too_many_rounds": N_("The game has as many rounds as one game can hold."),
    "no_such_round": N_("That round is not in the game (any more)."),
    "nothing_to_undo": N_("There is nothing to undo."),
    "undo_mismatch": N_("The last change can no longer be undone."),
    "no_rounds": N_("A game with no rounds cannot be ended: delete it instead."),
    "not_endable": N_("This game ends by its own rule (its target), not by agreement."),
    "no_penalties": N_("This game has no penalty draws."),
    "unknown_player": N_("That player does not play in this game."),
    "bad_penalty": N_("A penalty draw cannot be recorded like this."),
    "too_many_penalties": N_("Enough penalties wait for this round already."),
    "no_such_penalty": N_("That penalty is not recorded (any more)."),
    "missing_player": N_("The round has no entry for every player."),
    "bad_judge_answer": N_("The referee gave no scores for this round."),
    "invalid": N_("The round is not valid."),
}
"""Sentences of :class:`app.games.GameError` codes without their details."""

IMPORT_TEXT: Final[dict[str, str]] = {
    "not_text": N_("The file is not text."),
    "too_big": N_("The file is too large."),
    "not_json": N_("The file is damaged (not JSON)."),
    "broken_text": N_("The file holds broken text."),
    "not_export": N_("The file is not a game exported by this app."),
    "newer": N_("The file was made by a newer version of the app. Update the app."),
    "damaged": N_("The game in the file is damaged."),
    "time": N_("A date in the file is damaged."),
    "too_many_rounds": N_("The game in the file has more rounds than one game can hold."),
}
"""Sentences of :class:`app.games.GameImportError` problems (its ``params["problem"]``)."""

PASTED_TEXT: Final[dict[str, str]] = {
    "too_big": N_("The pasted text is too long."),
    "not_json": N_("The pasted text is not a valid game export (it is not JSON)."),
    "broken_text": N_("The pasted text holds broken characters."),
    "not_export": N_("The pasted text is not a game exported by this app."),
    "damaged": N_("The pasted game is damaged."),
}
"""The sentences of :data:`IMPORT_TEXT` that speak of a file, for text pasted instead."""


def _variant(name: Any) -> str:
    return labels.variant_name(str(name))


def _store(e: Any) -> str:
    code = str(getattr(e, "code", "store_error"))
    path = getattr(e, "path", None)
    if code in _STORE_NO_FOLDER:
        if path is None:
            return _(_STORE_NO_FOLDER[code])
        return _(STORE_TEXT[code]).format(folder=str(path.parent))
    return _(STORE_TEXT.get(code, STORE_TEXT["store_error"]))


def _game(e: Any) -> str:
    code = str(getattr(e, "code", "bad_game"))
    p: Mapping[str, Any] = getattr(e, "params", None) or {}
    line = p.get("line")
    if code == "unknown_option":  # a hand-edited file: its made-up name means nothing here
        return _(GAME_TEXT["unknown_option"])
    if line is not None:  # an option error of the rules engine, as data
        return verdict_render.sentence(verdict_render.render(line.to_json()))
    if code == "bad_player_name" and "max" in p:
        return ngettext(
            "The name “{name}…” is longer than {max} character.",
            "The name “{name}…” is longer than {max} characters.",
            int(p["max"]),
        ).format(name=p.get("name", ""), max=p["max"])
    if code == "bad_player_name" and "char" in p:
        return _("The name “{name}” holds a character that cannot be shown ({char}).").format(
            name=p.get("name", ""), char=p["char"]
        )
    if code == "bad_player_count" and p.get("solo"):
        return _("Solo gin is one player against the joker: give one name.")
    if code == "bad_player_count" and "n" in p:
        lo, hi, n = int(p["lo"]), int(p["hi"]), int(p["n"])
        text = (
            _("{variant} is for {lo} players (here: {n}).")
            if lo == hi
            else _("{variant} is for {lo}–{hi} players (here: {n}).")
        )
        return text.format(variant=_variant(p.get("variant")), lo=lo, hi=hi, n=n)
    if code == "duplicate_player" and "name" in p:
        return _("The name “{name}” is given twice.").format(name=p["name"])
    if code == "unknown_player" and "name" in p:
        return _("“{name}” does not play in this game.").format(name=p["name"])
    if code == "bad_option" and p.get("own_end"):
        return _("{variant} ends by its own rule, not after an agreed number of rounds.").format(
            variant=_variant(p.get("variant"))
        )
    if code == "bad_option" and "played" in p:
        n = int(p["played"])
        return ngettext(
            "{n} round is played already: agree on at least that many.",
            "{n} rounds are played already: agree on at least that many.",
            n,
        ).format(n=n)
    if code == "bad_option" and p.get("limit") == "rounds":
        return _("The agreed number of rounds must be a whole number from 1 to {max}.").format(
            max=p["max"]
        )
    if code == "bad_option" and p.get("limit") == "target":
        return _("The agreed target score must be a whole number from 1 to {max}.").format(
            max=p["max"]
        )
    if code == "bad_dealer" and "seats" in p:
        return _("Choose who deals first among the {n} players.").format(n=p["seats"])
    if code == "bad_notes" and "max" in p:
        return ngettext(
            "The notes may hold at most {max} character.",
            "The notes may hold at most {max} characters.",
            int(p["max"]),
        ).format(max=p["max"])
    if code == "too_many_rounds" and "max" in p:
        return ngettext(
            "A game holds at most {max} round.", "A game holds at most {max} rounds.", int(p["max"])
        ).format(max=p["max"])
    if code == "not_endable" and "variant" in p:
        return _("{variant} ends by its own rule (its target), not by agreement.").format(
            variant=_variant(p["variant"])
        )
    if code == "no_penalties" and "variant" in p:
        return _("{variant} has no penalty draws (Tile Rummy and My Rummy only).").format(
            variant=_variant(p["variant"])
        )
    if code == "bad_penalty" and "max" in p:
        return ngettext(
            "A penalty draw is 0 to {max} tile.",
            "A penalty draw is 0 to {max} tiles.",
            int(p["max"]),
        ).format(max=p["max"])
    if code == "too_many_penalties" and "max" in p:
        return ngettext(
            "At most {max} penalty can wait for one round.",
            "At most {max} penalties can wait for one round.",
            int(p["max"]),
        ).format(max=p["max"])
    return _(GAME_TEXT.get(code, GAME_TEXT["bad_game"]))


def _import(e: Any, pasted: bool = False) -> str:
    p: Mapping[str, Any] = getattr(e, "params", None) or {}
    problem = p.get("problem")
    if pasted and problem == "too_big" and "mb" in p:
        return _("The pasted text is longer than {mb} MB.").format(mb=p["mb"])
    if pasted and str(problem) in PASTED_TEXT:
        return _(PASTED_TEXT[str(problem)])
    cause = p.get("cause")
    if problem == "game" and getattr(cause, "code", None) == "unknown_option":
        # a hand-edited option name: named, it would mean nothing to the player
        if pasted:
            return _("The pasted game has a rule option this app does not know.")
        return _("The game in the file has a rule option this app does not know.")
    if pasted and problem == "game" and isinstance(p.get("cause"), BaseException):
        return _("The pasted game: {problem}").format(problem=describe(p["cause"]))
    if problem == "too_big" and "mb" in p:
        return _("The file is larger than {mb} MB.").format(mb=p["mb"])
    if problem == "too_many_rounds" and "n" in p:
        return ngettext(
            "The game in the file has {n} round; one game holds at most {max}.",
            "The game in the file has {n} rounds; one game holds at most {max}.",
            int(p["n"]),
        ).format(n=p["n"], max=p["max"])
    if problem == "game" and isinstance(p.get("cause"), BaseException):
        return _("The game in the file: {problem}").format(problem=describe(p["cause"]))
    if problem == "round" and "round" in p:
        result = p.get("result")
        if result is None:
            return _("Round {n} in the file has no entry.").format(n=p["round"])
        return _("Round {n} in the file: {problem}").format(
            n=p["round"], problem=round_problem(result, p.get("variant"))
        )
    if pasted:
        return _(PASTED_TEXT["not_export"])
    return _(IMPORT_TEXT.get(str(problem), N_("The file is not a game exported by this app.")))


def import_problem(exc: BaseException, pasted: bool = False) -> str:
    """Why a game cannot be imported (:func:`describe`), said of the pasted text instead of
    a file when ``pasted``."""
    if isinstance(exc, GameImportError):
        return _import(exc, pasted)
    return describe(exc)


def round_problem(result: Any, variant: str | None = None) -> str:
    """Why a round (a :class:`app.games.RoundResult` that is not valid) cannot be saved, in the
    player's language: the referee's verdict or input error rendered from its key, or the
    app's own check of the entry worded from its code."""
    answer = dict(getattr(result, "breakdown", None) or {})
    reason = getattr(result, "reason", None)
    request = {"variant": variant} if variant else None
    if answer.get("error"):
        return verdict_render.error_message({**answer, "ok": False}, request)
    if answer.get("reason") or (reason and not getattr(result, "input_error", False)):
        answer.setdefault("reason", reason)
        answer.setdefault("message", getattr(result, "message", None) or "")
        return verdict_render.verdict_message({**answer, "ok": True, "valid": False}, request)
    return _(GAME_TEXT.get(str(reason), GAME_TEXT["invalid"]))


def describe(exc: BaseException, variant: str | None = None) -> str:
    """One sentence, in the language in force, saying what was wrong and where.

    Args:
        exc: a :class:`app.store.StoreError`, :class:`app.backup.BackupError`,
            :class:`app.games.GameError` (or its :class:`~app.games.RoundError` and
            :class:`~app.games.GameImportError`), or :class:`rules.errors.RulesError`.
        variant: the game's variant, for a round error (tiles or cards in the wording).

    Returns:
        The sentence; for another exception a generic one (never its English text).
    """
    if isinstance(exc, StoreError):
        return _store(exc)
    if isinstance(exc, BackupError):
        return _(BACKUP_TEXT.get(str(getattr(exc, "code", "")), BACKUP_TEXT["not_backup"]))
    if isinstance(exc, RoundError):
        return round_problem(exc.result, variant)
    if isinstance(exc, GameImportError):
        return _import(exc)
    if isinstance(exc, GameError):
        return _game(exc)
    if isinstance(exc, RulesError) and exc.line is not None:
        return verdict_render.error_text(exc)
    return _("Something went wrong; nothing was changed.")
