"""Players as people: one person across games, matched by name; renaming and merging.

A *person* is every player whose name reads the same once case and spaces are ignored
(:func:`person_key`: ``"ala  Nowak"`` and ``"Ala Nowak "`` are one person). Nothing about
people is stored apart from the games: the games are the only truth, so nothing can drift.
Renaming a person (and merging two spellings, which is renaming one spelling to the other)
rewrites every stored game the person plays in through the store's ``save_game``.

Rights: on a shared table only the host renames or merges (:func:`check_host` asks the
session store, :class:`app.live.SessionStore`; the plain :class:`app.store.Store` is the host).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from app import games as g
from app.games import Game, GameSummary, Round, UndoStep

__all__ = [
    "PeopleError",
    "RenameReport",
    "check_host",
    "display_names",
    "person_key",
    "rename_in_game",
    "rename_person",
    "same_person",
]

_SPACES = re.compile(r"\s+")


class PeopleError(ValueError):
    """A rename or merge that cannot be done.

    Attributes:
        code: ``host_only`` (a visitor's phone), ``bad_name`` (the new name is refused by
            :func:`app.games.new_game`'s name check), ``unknown`` (nobody of that name),
            ``same_game`` (both names play in one game: they are two people there).
        games: for ``same_game``: ids of the games where both names play.
    """

    def __init__(self, code: str, message: str, games: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.code = code
        self.games = games


class _Store(Protocol):
    def list_games(self) -> list[GameSummary]: ...
    def load_game(self, game_id: str) -> Game: ...
    def save_game(self, game: Game, expected_version: int) -> Game: ...
    def forget_players(self, names: Iterable[str]) -> None: ...


def person_key(name: str) -> str:
    """The key that identifies a person: case folded, runs of spaces made one, ends trimmed."""
    return _SPACES.sub(" ", name).strip().casefold()


def same_person(a: str, b: str) -> bool:
    """Do ``a`` and ``b`` name the same person?"""
    return person_key(a) == person_key(b)


def display_names(summaries: Iterable[GameSummary]) -> dict[str, str]:
    """Every person in ``summaries``: key → the spelling of the game they started last."""
    out: dict[str, str] = {}
    for s in sorted(summaries, key=lambda s: (s.created, s.id), reverse=True):
        for p in s.players:
            out.setdefault(person_key(p), p)
    return out


def check_host(store: Any) -> None:
    """Raise :class:`PeopleError` (``host_only``) unless this session may rename, merge, delete
    or import: the host's computer (the session store's ``is_host``; a plain store is the
    host's)."""
    if not getattr(store, "is_host", True):
        raise PeopleError("host_only", "only the host's computer may do that")


# -- renaming inside one game ---------------------------------------------------------------------
_NAME_FIELDS = frozenset({"name", "knocker", "winner", "player", "defender"})
"""Fields of round entries and judge answers whose text value is a player's name."""


def _rename_value(v: Any, old: str, new: str) -> Any:
    """``v`` with every dict key ``old`` and every name field (:data:`_NAME_FIELDS`, and lists
    under ``winners``) holding ``old`` renamed; other text is left alone."""
    if isinstance(v, Mapping):
        out: dict[Any, Any] = {}
        for k, x in v.items():
            key = new if k == old else k
            if k in _NAME_FIELDS and x == old:
                out[key] = new
            elif k == "winners" and isinstance(x, list):
                out[key] = [new if w == old else _rename_value(w, old, new) for w in x]
            else:
                out[key] = _rename_value(x, old, new)
        return out
    if isinstance(v, list):
        return [_rename_value(x, old, new) for x in v]
    return v


def _rename_round(r: Round, old: str, new: str) -> Round:
    return Round(
        _rename_value(r.entry, old, new),
        _rename_value(r.result, old, new),
        tuple(new if w == old else w for w in r.winners),
        r.time,
        r.edited,
    )


def rename_in_game(game: Game, old: str, new: str) -> Game:
    """A copy of ``game`` with player ``old`` (exact spelling) called ``new``.

    The seat order, scores, times and undo log stay; each round is scored again by the
    judge under the new name so its explanations name the player rightly — when the judge
    gives the same scores (it always should), its answer is kept, otherwise the stored answer
    with the name replaced (the scores as played never change).

    Raises:
        PeopleError: ``same_game`` when ``new`` (as a person) already plays in the game.
    """
    if old not in game.players:
        return game
    if any(p != old and same_person(p, new) for p in game.players):
        raise PeopleError("same_game", f"{new!r} already plays in this game", (game.id,))
    players = [new if p == old else p for p in game.players]
    shell = dataclasses.replace(game, players=players, rounds=[])
    rounds: list[Round] = []
    for r in game.rounds:
        moved = _rename_round(r, old, new)
        scored = g.score_round(shell, moved.entry)
        if scored.valid and scored.scores == moved.scores and scored.winners == moved.winners:
            moved = Round(scored.entry, dict(scored.breakdown), scored.winners, r.time, r.edited)
        rounds.append(moved)
    log = [
        UndoStep(
            s.action,
            s.index,
            _rename_round(s.before, old, new) if s.before is not None else None,
            s.time,
            s.state,
        )
        for s in game.undo_log
    ]
    pending = [_rename_value(dict(p), old, new) for p in game.pending_penalties]
    return dataclasses.replace(
        game, players=players, rounds=rounds, undo_log=log, pending_penalties=pending
    )


# -- renaming everywhere --------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class RenameReport:
    """What :func:`rename_person` did.

    Attributes:
        changed: ids of the games rewritten.
        new: the name now used.
    """

    changed: tuple[str, ...]
    new: str


def rename_person(store: _Store, old: str, new: str) -> RenameReport:
    """Call the person ``old`` (any spelling of them) ``new`` in every stored game.

    Merging two spellings is renaming one to the other: ``rename_person(store, "ala", "Ala")``
    makes every ``ala`` and ``ALA`` an ``Ala``.

    Every game is checked before any is written: if one game has both people (``old`` and
    ``new`` are different people there), nothing changes. Games are saved through
    ``store.save_game`` with the version loaded (a game saved by someone else meanwhile raises
    the store's ``ConflictError``; games already renamed stay renamed, and running it again
    finishes the job).

    Raises:
        PeopleError: ``host_only``, ``bad_name`` (the new name is refused: empty, too long,
            control characters), ``unknown`` (no game has ``old``), ``same_game``.
    """
    check_host(store)
    try:
        new = g._check_name(new)
    except g.GameError as e:
        raise PeopleError("bad_name", str(e)) from e
    key = person_key(old)
    todo = [s for s in store.list_games() if any(person_key(p) == key for p in s.players)]
    if not todo:
        raise PeopleError("unknown", f"nobody called {old!r} plays in a stored game")
    both = tuple(
        s.id
        for s in todo
        if person_key(new) != key and any(person_key(p) == person_key(new) for p in s.players)
    )
    if both:
        raise PeopleError("same_game", f"{old!r} and {new!r} play in the same game", both)
    changed: list[str] = []
    for s in todo:
        game = store.load_game(s.id)
        renamed = game
        for p in game.players:
            if person_key(p) == key and p != new:
                renamed = rename_in_game(renamed, p, new)
        if renamed is not game:
            store.save_game(renamed, game.version)
            changed.append(game.id)
    # the old spellings are no longer offered when a new game is set up
    store.forget_players(p for s in todo for p in s.players if person_key(p) == key and p != new)
    return RenameReport(tuple(changed), new)
