"""The record of a game: :class:`Game`, :class:`Round`, the undo steps, the results and
standings as values, the errors, and the limits every record keeps to (see :mod:`app.games`)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final, Literal

from app.games.variants import about, is_variant

EXPORT_FORMAT: Final = "rummy-referee-game"
"""The ``format`` tag of a JSON export."""


EXPORT_VERSION: Final = 1
"""The ``format_version`` of JSON exports this module writes (and the newest it reads)."""


UNDO_DEPTH: Final = 20
"""Changes kept in a game's undo log."""


MAX_ROUNDS: Final = 1000
"""Most rounds in one game (an import with more is refused)."""


MAX_NAME: Final = 40
"""Longest player name, in characters."""


MAX_NOTES: Final = 2000
"""Longest notes text, in characters."""


MAX_ENTRY_CHARS: Final = 100_000
"""Largest round entry, as JSON text."""


MAX_IMPORT_CHARS: Final = 20_000_000
"""Largest JSON export accepted by :func:`import_json`."""


MAX_IMPORT_MESSAGE: Final = 300
"""Longest :class:`GameImportError` message (characters)."""


MAX_PENDING_PENALTIES: Final = 200
"""Most pending penalties one game holds (:func:`record_penalty`)."""


_RESERVED: Final = ("check", "variant", "options")


Action = Literal["add", "replace", "delete", "end", "limits"]


_ACTIONS: Final = ("add", "replace", "delete", "end", "limits")


SOLO_JOKER: Final = "joker"
"""The name the joker plays under in gin solo mode."""


class GameError(ValueError):
    """A change to a game that cannot be made.

    Attributes:
        code: stable snake_case code (``bad_player_name``, ``game_finished``, ``no_such_round``,
            ``nothing_to_undo``, ``bad_option``, …).
        message: one English line for a person (logs; screens word ``code`` and ``params``
            in the player's language: :func:`app.error_text.describe`).
        params: the details the message names (a name, a number, the limit), by name.
    """

    code = "bad_game"

    def __init__(
        self, message: str, code: str | None = None, params: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.params: dict[str, Any] = dict(params or {})
        if code is not None:
            self.code = code


class RoundError(GameError):
    """A round the judge found invalid or unusable; it was not added.

    Attributes:
        result: the :class:`RoundResult` (reason, message, the judge's answer).
    """

    def __init__(self, result: RoundResult) -> None:
        super().__init__(result.message or "the round is not valid", result.reason or "invalid")
        self.result = result


class GameImportError(GameError):
    """A file that is not a usable game export; the message names the place and the problem.

    The message is one line of at most :data:`MAX_IMPORT_MESSAGE` characters: a value from the
    file quoted in it (a 1 MB "variant", a deeply nested "preset") is cut in the middle.
    """

    code = "bad_import"

    def __init__(
        self, message: str, code: str | None = None, params: dict[str, Any] | None = None
    ) -> None:
        message = " ".join(message.split())
        if len(message) > MAX_IMPORT_MESSAGE:
            message = f"{message[:200]} … {message[-(MAX_IMPORT_MESSAGE - 203) :]}"
        super().__init__(message, code, params)


def now_iso() -> str:
    """The current time, ISO 8601 UTC with seconds (``2025-01-31T18:04:05+00:00``)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Round:
    """One scored round.

    Attributes:
        entry: the round request fields without ``check``/``variant``/``options`` (JUDGE.md).
        result: the judge's ``round`` answer without ``ok`` (``valid``, ``scores`` and the
            variant's detail: ``deadwood``, ``layoffs``, ``result``, …).
        winners: the round's winners (names), as sent to the judge ``game`` check.
        time: when the round was entered (ISO 8601).
        edited: when it was last replaced, or ``None``.
    """

    entry: dict[str, Any]
    result: dict[str, Any]
    winners: tuple[str, ...] = ()
    time: str = ""
    edited: str | None = None

    @property
    def scores(self) -> dict[str, int]:
        """Points per player name for this round (the judge's ``scores``)."""
        scores: dict[str, int] = self.result.get("scores", {})
        return scores

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        d: dict[str, Any] = {
            "entry": self.entry,
            "result": self.result,
            "winners": list(self.winners),
            "time": self.time,
        }
        if self.edited is not None:
            d["edited"] = self.edited
        return d

    @classmethod
    def from_dict(cls, d: Any) -> Round:
        """Inverse of :meth:`to_dict`.

        Raises:
            GameError: code ``bad_round`` when a field is missing or of the wrong type.
        """
        if not isinstance(d, Mapping):
            raise GameError("a round must be an object", "bad_round")
        entry, result = d.get("entry"), d.get("result")
        winners, time, edited = d.get("winners", []), d.get("time", ""), d.get("edited")
        if not isinstance(entry, dict) or not isinstance(result, dict):
            raise GameError("a round needs 'entry' and 'result' objects", "bad_round")
        if not isinstance(result.get("scores"), dict):
            raise GameError("a round result needs 'scores'", "bad_round")
        if not isinstance(winners, list) or not all(isinstance(w, str) for w in winners):
            raise GameError("round 'winners' must be a list of names", "bad_round")
        if not isinstance(time, str) or not (edited is None or isinstance(edited, str)):
            raise GameError("round 'time' must be a timestamp", "bad_round")
        return cls(entry, result, tuple(winners), time, edited)


@dataclass(frozen=True)
class UndoStep:
    """One change in a game's undo log.

    Attributes:
        action: ``add`` (round ``index`` was added), ``replace`` (round ``index`` was
            ``before``), ``delete`` (round ``index``, ``before``, was removed), ``end`` (the
            game was ended after ``index`` rounds by :func:`end_game`), ``limits`` (the agreed
            end was changed by :func:`set_limits`).
        index: 0-based round index (``end``/``limits``: the number of rounds then).
        before: the round as it was (``replace``, ``delete``), else ``None``.
        time: when the change was made.
        state: ``end``/``limits``: the game's ``agreed_rounds``, ``agreed_target``, ``ended``
            and ``options`` before the change.
    """

    action: Action
    index: int
    before: Round | None = None
    time: str = ""
    state: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        d = {
            "action": self.action,
            "index": self.index,
            "before": self.before.to_dict() if self.before is not None else None,
            "time": self.time,
        }
        if self.state is not None:
            d["state"] = self.state
        return d

    @classmethod
    def from_dict(cls, d: Any) -> UndoStep:
        """Inverse of :meth:`to_dict`. Raises :class:`GameError` (``bad_game``)."""
        if not isinstance(d, Mapping) or d.get("action") not in _ACTIONS:
            raise GameError("bad undo step")
        state = d.get("state")
        if state is not None and not isinstance(state, dict):
            raise GameError("bad undo step state")
        index = d.get("index")
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            raise GameError("bad undo step index")
        before = d.get("before")
        return cls(
            d["action"],
            index,
            Round.from_dict(before) if before is not None else None,
            str(d.get("time", "")),
            state,
        )


@dataclass
class Game:
    """One game: who plays what, and every round.

    Treat a Game as a value: the functions of this module return new Games and never change
    their argument (change ``notes`` freely; change ``rounds`` only through the functions).

    Attributes:
        id: unique id (32 hex digits), given by :func:`new_game`.
        variant: ``rummy101``, ``tile_rummy``, ``my_rummy``, ``gin`` or ``carousel``.
        options: the complete options (``rules.options``), ``preset`` included; sent to the
            judge with every request.
        players: names in seat order.
        first_dealer: index into ``players`` of who deals (starts) the first round.
        rounds: the rounds, in order.
        created, updated: ISO 8601 timestamps.
        version: the stored version (0 = never saved); :meth:`app.store.Store.save_game`
            compares it and counts it up.
        notes: free text.
        agreed_rounds, agreed_target: Rummy 101 only: the game ends after this many rounds /
            when a total reaches this score (Tile/My Rummy use their ``games``/``target``
            options).
        ended: Tile Rummy / My Rummy: the players ended the series (:func:`end_game`).
        undo_log: the last changes, oldest first (see :func:`undo`).
        join_code: the table's join code for network play, or ``None``; never exported.
        extra: free-form JSON-ready data for the UI; never exported.
        pending_penalties: Tile Rummy / My Rummy: penalty draws recorded during the round not
            entered yet, ``[{"name", "tiles", "reason"}]`` (see :func:`record_penalty`); never
            exported.
    """

    id: str
    variant: str
    options: dict[str, Any]
    players: list[str]
    first_dealer: int = 0
    rounds: list[Round] = field(default_factory=list)
    created: str = ""
    updated: str = ""
    version: int = 0
    notes: str = ""
    agreed_rounds: int | None = None
    agreed_target: int | None = None
    ended: bool = False
    undo_log: list[UndoStep] = field(default_factory=list)
    join_code: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    pending_penalties: list[dict[str, Any]] = field(default_factory=list)
    _cache: tuple[Any, Standings] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    @property
    def preset(self) -> str:
        """The preset the options started from."""
        return str(self.options.get("preset", ""))

    @property
    def display_name(self) -> str:
        """The variant's display name (``Rummy 101``)."""
        return about(self.variant).display_name if is_variant(self.variant) else self.variant


@dataclass(frozen=True)
class RoundResult:
    """The judge's verdict on one round entry, before it is saved.

    Attributes:
        valid: the round can be added.
        entry: the entry as sent (cleaned copy).
        scores: points per player (empty when not valid).
        winners: the round's winners (see the module notes).
        breakdown: the judge's whole answer without ``ok`` — the variant's detail for "who gets
            what and why" (``deadwood``, ``layoffs``, ``result``, penalties …); on an input
            error it holds ``error`` and ``message``.
        reason: when not valid: the verdict's ``reason`` (a round that cannot have happened),
            the judge's ``error`` code (an unusable entry, e.g. ``bad_token``,
            ``missing_field``, ``unsupported_check``), or an app check (``unknown_player``,
            ``missing_player``, ``duplicate_player``, ``bad_entry``).
        message: one line for a person, naming the rule or the field.
        input_error: ``True`` when the entry itself was unusable (``ok: false`` or an app
            check) rather than a round the rules forbid.
    """

    valid: bool
    entry: dict[str, Any]
    scores: dict[str, int] = field(default_factory=dict)
    winners: tuple[str, ...] = ()
    breakdown: dict[str, Any] = field(default_factory=dict)
    reason: str | None = None
    message: str | None = None
    input_error: bool = False


@dataclass(frozen=True)
class Standings:
    """Where a game stands.

    Attributes:
        players: names in seat order.
        round_scores: per round, points per player (0 where the judge gave none).
        running: per round, each player's total after that round, bonuses not included (the
            chart's points).
        totals: final totals, game-end bonuses included (the judge ``game`` check).
        bonuses: the game-end bonuses included in ``totals``.
        finished: the game is over.
        finished_by: ``judge`` (the judge's ``game`` check: the variant's end, e.g. gin's 100,
            or the agreed end it was given), ``target`` (Rummy 101's agreed target score),
            ``rounds`` (the agreed rounds, applied here only when the judge could not answer)
            or ``None``.
        winners: the winner(s) when finished, else empty.
        leaders: the player(s) with the highest total (empty before the first round).
        judge: the judge's ``game`` answer without ``ok`` (empty with no rounds).
        error, message: the judge's error when the ``game`` check could not answer (then
            ``totals`` are the plain sums of the rounds and ``bonuses`` are 0).
    """

    players: tuple[str, ...]
    round_scores: tuple[dict[str, int], ...]
    running: tuple[dict[str, int], ...]
    totals: dict[str, int]
    bonuses: dict[str, int]
    finished: bool
    finished_by: str | None
    winners: tuple[str, ...]
    leaders: tuple[str, ...]
    judge: dict[str, Any]
    error: str | None = None
    message: str | None = None


@dataclass(frozen=True)
class GameSummary:
    """One line of the games list (kept in the store's index).

    Attributes:
        id, variant, preset, players, created, updated, version, notes: as in :class:`Game`.
        round_count: rounds played.
        finished, winners, leaders, totals: as in :class:`Standings`.
        ended_early: the players ended the game from its sheet before its agreed end
            (:func:`app.games.ended_early`).
    """

    id: str
    variant: str
    preset: str
    players: tuple[str, ...]
    round_count: int
    created: str
    updated: str
    version: int
    finished: bool
    winners: tuple[str, ...]
    leaders: tuple[str, ...]
    totals: dict[str, int]
    notes: str = ""
    ended_early: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        d = dataclasses.asdict(self)
        d["players"], d["winners"], d["leaders"] = (
            list(self.players),
            list(self.winners),
            list(self.leaders),
        )
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> GameSummary:
        """Inverse of :meth:`to_dict`. Raises ``KeyError``/``TypeError``/``ValueError`` on bad
        data."""
        return cls(
            id=str(d["id"]),
            variant=str(d["variant"]),
            preset=str(d["preset"]),
            players=tuple(str(p) for p in d["players"]),
            round_count=int(d["round_count"]),
            created=str(d["created"]),
            updated=str(d["updated"]),
            version=int(d["version"]),
            finished=bool(d["finished"]),
            winners=tuple(str(p) for p in d["winners"]),
            leaders=tuple(str(p) for p in d["leaders"]),
            totals={str(k): int(v) for k, v in dict(d["totals"]).items()},
            notes=str(d.get("notes", "")),
            ended_early=d.get("ended_early") is True,
        )


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int_or_0(v: Any) -> int:
    return v if isinstance(v, int) and not isinstance(v, bool) else 0


def _names(v: Any) -> list[str]:
    if isinstance(v, str):
        return [v]
    if isinstance(v, list) and all(isinstance(x, str) for x in v):
        return list(v)
    return []


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _is_unicode(text: str) -> bool:
    """False when ``text`` holds a lone UTF-16 surrogate (JSON ``"\\ud800"``), which no file
    can store as UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _broken_text_at(doc: Any) -> str | None:
    """Where the first string (key or value) with a lone surrogate sits in ``doc``, as
    ``game.rounds[2].entry.note``; None when every string is good."""
    stack: list[tuple[Any, str]] = [(doc, "")]
    while stack:
        value, where = stack.pop()
        if isinstance(value, str):
            if not _is_unicode(value):
                return where or "the top"
        elif isinstance(value, list):
            stack.extend((v, f"{where}[{i}]") for i, v in reversed(list(enumerate(value))))
        elif isinstance(value, dict):
            for k, v in reversed(list(value.items())):
                name = k if _is_unicode(k) else repr(k)
                if name is not k:
                    return f"{where}.{name}".lstrip(".")
                stack.append((v, f"{where}.{k}".lstrip(".")))
    return None
