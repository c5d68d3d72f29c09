"""Games, rounds and standings: the app's pure logic (no Flet, no TinyDB).

Every score comes from the rules engine through :func:`rules.judge.answer` with the wire format
of ``../shared/JUDGE.md``; this module re-implements no rule. It keeps the record of a game:

- :class:`Game` — variant, options (the full option set, preset included), players in seat
  order, the first dealer, the rounds, timestamps, a version for optimistic concurrency (see
  :mod:`app.store`) and an undo log.
- :class:`Round` — ``entry`` (the round request fields minus ``check``/``variant``/``options``,
  exactly as JUDGE.md, e.g. Rummy 101 ``{"finish": "normal", "players": [...]}``), ``result``
  (the judge's ``round`` answer minus ``ok``: scores, breakdown, …), ``winners`` and ``time``.
- :func:`score_round` asks the judge and returns a :class:`RoundResult` (valid or not, scores,
  the judge's breakdown, reason/message) so the UI can show "who gets what and why" before
  saving; :func:`add_round`, :func:`replace_round`, :func:`delete_round` and :func:`undo`
  return a *new* :class:`Game` (the argument is never changed) and record the change in the
  game's undo log; an invalid round raises :class:`RoundError` and is never added.
  :attr:`RoundResult.breakdown` is the judge's whole answer: ``message`` and ``rule`` (the
  verdict in one line), ``breakdown`` (Rummy 101, Tile/My Rummy, Carousel: one
  ``{name, points, why, rule, role, …}`` per player; Gin: the arithmetic, one line each) and
  the variant's detail (gin ``deadwood``, ``layoffs``, ``melds``; ``racks``, …).
- :func:`standings` — round scores, running totals after each round (for the chart), totals
  with the game-end bonuses from the judge ``game`` check, finished, winner(s), leader(s).
- :func:`export_csv` (``,`` or ``;`` separated, formula-safe cells: :func:`csv_cell`),
  :func:`export_json`, :func:`import_json` (validated, every round scored
  again by the judge; :class:`GameImportError` with a one-line message naming the place).

Decisions where the plan was silent (extensions to APP_PLAN.md; names are stable):

- Round winners for the judge ``game`` check come from the round answer's ``winners`` (list)
  or ``winner`` (name), else the entry's ``"winner": true`` players, else the players who
  scored more than 0. They are kept in :attr:`Round.winners`.
- The end of a game is the judge's ``finished`` (``game`` check). The agreed end of Rummy 101
  (:attr:`Game.agreed_rounds`, sent as the judge's ``rounds_planned``) and of Tile Rummy / My
  Rummy (their ``games`` / ``target`` options; :attr:`Game.ended`, sent as ``ended``, when the
  players stop, e.g. time is up) are judged too. Only :attr:`Game.agreed_target` of Rummy 101
  (a house agreement the judge has no field for) is applied here: the game is over once a
  total reaches it, the highest total wins. When the judge's ``game`` check cannot answer,
  the agreed rounds/target are applied here the same way. :func:`end_game` ends a Rummy 101 /
  Tile Rummy / My Rummy game now; :func:`set_limits` changes the agreed end. A finished game
  takes no more rounds (``game_finished``); earlier rounds can still be edited or deleted.
- The undo log keeps the last :data:`UNDO_DEPTH` changes (``add`` / ``replace`` / ``delete``
  of a round, ``end`` / ``limits`` of the agreed end), stored with the game, so undo survives
  a restart and works across sessions.
- Gin solo mode (``"mode": "solo"``): the game is played by one person against "the joker";
  :func:`new_game` takes one name and the game's players are ``[name, "joker"]`` (the judge
  scores the joker under that name).
- :attr:`Game.join_code` and :attr:`Game.extra` (free-form, JSON-ready; for the UI) are stored
  but never exported.
- Player names: 1–40 characters after trimming, no control characters, distinct ignoring case.
- Pending penalties (Tile Rummy / My Rummy, RULES.md §4): a penalty draw recorded during a
  round that is not entered yet (the turn timer's "Record penalty"), stored with the game at
  once as :attr:`Game.pending_penalties` — ``{"name", "tiles": 3, "reason": "invalid_turn" |
  "timeout"}``, the shape of a round entry's ``penalties`` — by :func:`record_penalty` /
  :func:`remove_penalty`. The next round entry starts with them (:func:`pending_penalties`);
  :func:`add_round` clears them (the round's entry holds what was finally entered). They are
  not exported and not in the undo log (undoing that round does not bring them back).
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import re
import unicodedata
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final, Literal

from rules import judge
from rules.errors import RulesError
from rules.options import VARIANTS, options_dict, options_for
from rules.variant import DISPLAY_NAMES, PLAYER_COUNTS
from rules.variants.tiles import PENALTY_REASONS, PENALTY_TILES

__all__ = [
    "CSV_LABELS",
    "CSV_SEPARATORS",
    "EXPORT_FORMAT",
    "EXPORT_VERSION",
    "Game",
    "GameError",
    "GameImportError",
    "GameSummary",
    "PENALTY_REASONS",
    "Round",
    "RoundError",
    "RoundResult",
    "Standings",
    "UndoStep",
    "add_round",
    "can_undo",
    "csv_cell",
    "dealer_for_round",
    "delete_round",
    "end_game",
    "export_csv",
    "export_json",
    "game_from_dict",
    "game_limits",
    "game_to_dict",
    "import_json",
    "last_change",
    "new_game",
    "next_dealer",
    "now_iso",
    "pending_penalties",
    "record_penalty",
    "remove_penalty",
    "replace_round",
    "score_round",
    "set_limits",
    "standings",
    "summarize",
    "undo",
    "unshowable",
]

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


# -- errors --------------------------------------------------------------------------------------
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


# -- data ----------------------------------------------------------------------------------------
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
        return DISPLAY_NAMES.get(self.variant, self.variant)  # type: ignore[call-overload, no-any-return]


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
        )


# -- creating a game -----------------------------------------------------------------------------
_NAME_FORMAT_OK = frozenset("\u200d\u200c\ufe0e\ufe0f")
"""Format characters allowed in names: zero-width (non-)joiner, text/emoji variation selectors."""

_NAME_BLANK = frozenset(
    [chr(c) for c in (0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180F, 0x2800, 0x3164, 0xFFA0)]
    + [chr(c) for c in range(0x180B, 0x180E)]
    + [chr(c) for c in range(0xFE00, 0xFE0E)]
    + [chr(c) for c in range(0xE0100, 0xE01F0)]
)
"""Letters and marks that show as nothing (blank fillers): Hangul fillers (U+115F, U+1160,
U+3164, U+FFA0), the braille blank U+2800, the combining grapheme joiner, Khmer inherent
vowels, Mongolian and other variation selectors (not the emoji ones, U+FE0E/U+FE0F): the
Unicode Default_Ignorable code points that are not format characters, plus U+2800. Blank
spaces (U+3000, U+00A0 …) are spaces: a name's spaces are squeezed to one."""


_EMOJI_PARTS = frozenset("\u200d\ufe0f\u20e3")
"""Joiner, emoji variation selector, keycap: parts of emoji sequences."""


def unshowable(name: str) -> list[str]:
    """The characters of ``name`` the app's offline font cannot draw (it would show empty
    boxes): emoji and their sequence parts (joiner, variation selector, keycap, skin tones),
    pictographs, dingbats, arrows, card suits, stars — every symbol (``So``) from U+2190 up.
    Letters of any script, digits, punctuation and ``© ® °`` are fine. In order, each once.

    The new-game form refuses such names with this reason; :func:`new_game` still accepts
    them (an imported game keeps its names).
    """
    out: list[str] = []
    for c in name:
        cat = unicodedata.category(c)
        bad = (
            c in _EMOJI_PARTS
            or (cat == "So" and ord(c) >= 0x2190)
            or 0x1F3FB <= ord(c) <= 0x1F3FF  # skin tones (Sk)
            or 0x1F1E6 <= ord(c) <= 0x1F1FF  # regional indicators (flags)
            or 0xE0020 <= ord(c) <= 0xE007F  # tag characters (subdivision flags)
        )
        if bad and c not in out:
            out.append(c)
    return out


def _check_name(name: Any) -> str:
    if not isinstance(name, str):
        raise GameError("a player name must be text", "bad_player_name")
    name = " ".join(name.split())
    if not name:
        raise GameError("a player name may not be empty", "bad_player_name")
    if len(name) > MAX_NAME:
        raise GameError(
            f"player name {name[:MAX_NAME]!r}… is longer than {MAX_NAME} characters",
            "bad_player_name",
            {"name": name[:MAX_NAME], "max": MAX_NAME},
        )
    # emoji sequences use the zero-width joiner and variation selectors (format characters):
    # those are fine; control, surrogate, private-use, unassigned and blank filler
    # characters (_NAME_BLANK) are not
    bad = [
        c
        for c in name
        if unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn")
        or (unicodedata.category(c) == "Cf" and c not in _NAME_FORMAT_OK)
        or c in _NAME_BLANK
    ]
    if bad:
        raise GameError(
            f"player name {name!r} contains a character that cannot be shown (U+{ord(bad[0]):04X})",
            "bad_player_name",
            {"name": name, "char": f"U+{ord(bad[0]):04X}"},
        )
    return str(name)


def _check_players(variant: str, players: Any, solo: bool = False) -> list[str]:
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise GameError("players must be a list of names", "bad_players")
    names = [_check_name(p) for p in players]
    if solo:
        if len(names) == 2 and names[1] == SOLO_JOKER:
            names = names[:1]
        if len(names) != 1 or names[0].casefold() == SOLO_JOKER:
            raise GameError(
                f"gin solo mode is one player against the {SOLO_JOKER}; give one other name",
                "bad_player_count",
                {"solo": True},
            )
        return [names[0], SOLO_JOKER]
    lo, hi = PLAYER_COUNTS[variant]  # type: ignore[index]
    if not lo <= len(names) <= hi:
        raise GameError(
            f"{DISPLAY_NAMES[variant]} is played by {lo}–{hi} players, not {len(names)}"  # type: ignore[index]
            if lo != hi
            else f"{DISPLAY_NAMES[variant]} is played by {lo} players, not {len(names)}",  # type: ignore[index]
            "bad_player_count",
            {"variant": variant, "lo": lo, "hi": hi, "n": len(names)},
        )
    seen: set[str] = set()
    for n in names:
        if n.casefold() in seen:
            raise GameError(f"player name {n!r} appears twice", "duplicate_player", {"name": n})
        seen.add(n.casefold())
    return names


def _check_options(variant: str, options: Any) -> dict[str, Any]:
    if options is not None and not isinstance(options, Mapping):
        raise GameError("options must be an object", "bad_option")
    try:
        return options_dict(options_for(variant, options or {}))
    except RulesError as e:
        raise GameError(
            e.message, e.code, {"line": e.line} if e.line is not None else None
        ) from None


def _check_limit(value: Any, name: str, hi: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= hi:
        raise GameError(
            f"{name} must be a whole number 1–{hi}, not {value!r}",
            "bad_option",
            {"limit": "rounds" if hi == 1000 else "target", "max": hi},
        )
    return value


def new_game(
    variant: str,
    players: Sequence[str],
    options: Mapping[str, Any] | None = None,
    *,
    first_dealer: int = 0,
    notes: str = "",
    agreed_rounds: int | None = None,
    agreed_target: int | None = None,
) -> Game:
    """A new game with no rounds (version 0: not stored yet; see ``Store.create_game``).

    Args:
        variant: one of ``rules.options.VARIANTS``.
        players: names in seat order; the variant's player count (``rules.variant.PLAYER_COUNTS``).
        options: ``{"preset": NAME, ...overrides}`` with the option names of RULES.md; the
            game keeps the complete resulting option set.
        first_dealer: index of the player who deals/starts the first round.
        notes: free text (at most :data:`MAX_NOTES` characters).
        agreed_rounds, agreed_target: an agreed end. Rummy 101: kept in the game. Tile Rummy /
            My Rummy: stored as the ``games`` / ``target`` options (unless given there). Gin and
            Carousel end by their own rules (their ``target`` option, which ``agreed_target``
            sets); ``agreed_rounds`` is refused there.

    Gin solo mode (options ``"mode": "solo"``) takes one name; the players become
    ``[name, "joker"]``.

    Raises:
        GameError: codes ``unknown_variant``, ``bad_players``, ``bad_player_name``,
            ``bad_player_count``, ``duplicate_player``, ``unknown_option``, ``bad_option``,
            ``bad_dealer``, ``bad_notes``.
    """
    if variant not in VARIANTS:
        raise GameError(
            f"unknown variant {variant!r} (variants: {', '.join(VARIANTS)})", "unknown_variant"
        )
    if options is not None and not isinstance(options, Mapping):
        raise GameError("options must be an object", "bad_option")
    opts = dict(options or {})
    rounds_limit = _check_limit(agreed_rounds, "agreed number of rounds", 1000)
    target = _check_limit(agreed_target, "agreed target score", 100000)
    if variant in ("tile_rummy", "my_rummy"):
        if rounds_limit is not None:
            opts.setdefault("games", rounds_limit)
        if target is not None:
            opts.setdefault("target", target)
        rounds_limit = target = None
    elif variant in ("gin", "carousel"):
        if rounds_limit is not None:
            raise GameError(
                f"{DISPLAY_NAMES[variant]} ends by its own rule, not after agreed rounds",
                "bad_option",
                {"variant": variant, "own_end": True},
            )
        if target is not None:
            opts.setdefault("target", target)
        target = None
    full = _check_options(variant, opts)
    names = _check_players(variant, players, solo=variant == "gin" and full["mode"] == "solo")
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, int):
        raise GameError("first dealer must be a seat number", "bad_dealer")
    if not 0 <= first_dealer < len(names):
        raise GameError(
            f"first dealer {first_dealer} is not a seat 0–{len(names) - 1}",
            "bad_dealer",
            {"seats": len(names)},
        )
    if not isinstance(notes, str) or len(notes) > MAX_NOTES or not _is_unicode(notes):
        raise GameError(
            f"notes must be text of at most {MAX_NOTES} characters", "bad_notes", {"max": MAX_NOTES}
        )
    now = now_iso()
    return Game(
        id=uuid.uuid4().hex,
        variant=variant,
        options=full,
        players=names,
        first_dealer=first_dealer,
        created=now,
        updated=now,
        notes=notes,
        agreed_rounds=rounds_limit,
        agreed_target=target,
    )


def dealer_for_round(game: Game, n: int) -> int:
    """Seat index of who deals (starts) round ``n`` (0-based): the first dealer, then each
    next seat in turn."""
    return (game.first_dealer + n) % len(game.players)


def next_dealer(game: Game) -> int:
    """Seat index of who deals the next round to be entered."""
    return dealer_for_round(game, len(game.rounds))


def game_limits(game: Game) -> tuple[int | None, int | None]:
    """The agreed end of a game as (number of rounds, target score); ``None`` where not agreed.

    Rummy 101: :attr:`Game.agreed_rounds` / :attr:`Game.agreed_target`; Tile Rummy / My
    Rummy: the ``games`` / ``target`` options; Gin and Carousel: none (the judge decides).
    """
    if game.variant == "rummy101":
        return game.agreed_rounds, game.agreed_target
    if game.variant in ("tile_rummy", "my_rummy"):
        g, t = game.options.get("games"), game.options.get("target")
        return (g if isinstance(g, int) else None, t if isinstance(t, int) else None)
    return None, None


# -- scoring -------------------------------------------------------------------------------------
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


def _round_winners(
    answer: Mapping[str, Any], entry: Mapping[str, Any], scores: Mapping[str, int]
) -> tuple[str, ...]:
    if "winners" in answer and _names(answer["winners"]):
        return tuple(_names(answer["winners"]))
    if "winner" in answer and _names(answer["winner"]):
        return tuple(_names(answer["winner"]))
    players = entry.get("players")
    if isinstance(players, list):
        flagged = [
            p["name"]
            for p in players
            if isinstance(p, Mapping) and p.get("winner") is True and isinstance(p.get("name"), str)
        ]
        if flagged:
            return tuple(flagged)
    return tuple(n for n, s in scores.items() if s > 0)


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


def _clean_entry(entry: Any) -> dict[str, Any]:
    if not isinstance(entry, Mapping):
        raise GameError("a round entry must be an object", "bad_entry")
    try:
        text = json.dumps(
            {k: v for k, v in entry.items() if k not in _RESERVED},
            ensure_ascii=False,
            allow_nan=False,
        )
    except (TypeError, ValueError, RecursionError):
        raise GameError("a round entry must be plain JSON data", "bad_entry") from None
    if not _is_unicode(text):
        raise GameError("a round entry holds broken text (a lone surrogate)", "bad_entry")
    if len(text) > MAX_ENTRY_CHARS:
        raise GameError("the round entry is too large", "bad_entry")
    cleaned: dict[str, Any] = json.loads(text)
    return cleaned


def _solo(game: Game) -> bool:
    return game.variant == "gin" and game.options.get("mode") == "solo"


def _check_entry_players(game: Game, entry: Mapping[str, Any]) -> tuple[str, str] | None:
    players = entry.get("players")
    if not isinstance(players, list):
        return None  # the judge names the missing/bad field
    raw = [p.get("name") for p in players if isinstance(p, Mapping)]
    if not all(isinstance(n, str) for n in raw):
        return None
    names = [str(n) for n in raw]
    seen: set[str] = set()
    for n in names:
        if n in seen:
            return "duplicate_player", f"player {n!r} appears twice in the round"
        seen.add(n)
        if n not in game.players:
            return "unknown_player", f"{n!r} does not play in this game"
    missing = [p for p in game.players if p not in seen]
    if missing and not _solo(game):
        return "missing_player", f"the round has no entry for {', '.join(missing)}"
    return None


def score_round(game: Game, entry: Mapping[str, Any]) -> RoundResult:
    """Score one round entry with the judge, without changing the game.

    Args:
        game: the game (its variant and options are sent).
        entry: the round request fields of JUDGE.md without ``check``/``variant``/``options``
            (those keys are ignored if present), e.g. gin ``{"knocker": "A", "players":
            [{"name": "A", "hand": [...]}, {"name": "B", "hand": [...]}]}``.

    Returns:
        A :class:`RoundResult`; never raises for bad input (an unusable entry is a result with
        ``valid=False`` and ``input_error=True``).
    """
    try:
        cleaned = _clean_entry(entry)
    except GameError as e:
        return RoundResult(False, {}, reason=e.code, message=e.message, input_error=True)
    problem = _check_entry_players(game, cleaned)
    if problem is not None:
        return RoundResult(False, cleaned, reason=problem[0], message=problem[1], input_error=True)
    request = {"check": "round", "variant": game.variant, "options": game.options, **cleaned}
    answer = judge.answer(request)
    breakdown = {k: v for k, v in answer.items() if k != "ok"}
    if not answer.get("ok"):
        return RoundResult(
            False,
            cleaned,
            breakdown=breakdown,
            reason=str(answer.get("error", "bad_request")),
            message=str(answer.get("message", "the judge refused the round")),
            input_error=True,
        )
    if answer.get("valid") is False:
        return RoundResult(
            False,
            cleaned,
            breakdown=breakdown,
            reason=str(answer.get("reason", "invalid")),
            message=str(answer.get("message", "the round is not valid")),
        )
    scores = answer.get("scores")
    if not isinstance(scores, dict) or not all(
        isinstance(k, str) and _is_int(v) for k, v in scores.items()
    ):
        return RoundResult(
            False,
            cleaned,
            breakdown=breakdown,
            reason="bad_judge_answer",
            message="the judge gave no scores for this round",
        )
    missing = [p for p in game.players if p not in scores]
    if missing and not _solo(game):
        return RoundResult(
            False,
            cleaned,
            breakdown=breakdown,
            reason="bad_judge_answer",
            message=f"the judge gave no score for {', '.join(missing)}",
        )
    return RoundResult(
        True, cleaned, dict(scores), _round_winners(answer, cleaned, scores), breakdown
    )


def _scored(game: Game, entry: Mapping[str, Any], result: RoundResult | None) -> RoundResult:
    if result is not None and result.valid:
        try:
            cleaned = _clean_entry(entry)
        except GameError:
            cleaned = None
        if cleaned == result.entry:
            return result
    result = score_round(game, entry)
    if not result.valid:
        raise RoundError(result)
    return result


def _with_change(game: Game, rounds: list[Round], step: UndoStep | None) -> Game:
    log = list(game.undo_log)
    if step is not None:
        log.append(step)
        del log[:-UNDO_DEPTH]
    return dataclasses.replace(game, rounds=rounds, undo_log=log, updated=now_iso())


def _round_from(result: RoundResult, time: str, edited: str | None = None) -> Round:
    return Round(result.entry, dict(result.breakdown), result.winners, time, edited)


def add_round(game: Game, entry: Mapping[str, Any], result: RoundResult | None = None) -> Game:
    """A copy of ``game`` with one more round at the end.

    Args:
        game: the game.
        entry: the round entry (see :func:`score_round`).
        result: the :class:`RoundResult` already shown for this very entry, to save asking the
            judge again (ignored unless valid and made from an equal entry).

    Raises:
        RoundError: the judge found the round invalid or unusable (``.result`` says why).
        GameError: ``game_finished`` when the game is over; ``too_many_rounds``.
    """
    if standings(game).finished:
        raise GameError("the game is over; no more rounds can be added", "game_finished")
    if len(game.rounds) >= MAX_ROUNDS:
        raise GameError(
            f"a game holds at most {MAX_ROUNDS} rounds", "too_many_rounds", {"max": MAX_ROUNDS}
        )
    scored = _scored(game, entry, result)
    now = now_iso()
    rounds = [*game.rounds, _round_from(scored, now)]
    added = _with_change(game, rounds, UndoStep("add", len(game.rounds), None, now))
    added.pending_penalties = []  # the round is entered: its penalties are in its entry
    return added


def _check_index(game: Game, i: int) -> None:
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(game.rounds):
        raise GameError(
            f"there is no round {i!r} (rounds 0–{len(game.rounds) - 1})", "no_such_round"
        )


def replace_round(
    game: Game, i: int, entry: Mapping[str, Any], result: RoundResult | None = None
) -> Game:
    """A copy of ``game`` with round ``i`` (0-based) entered anew and scored by the judge.

    Raises:
        GameError: ``no_such_round``.
        RoundError: the new entry is invalid; the game is unchanged.
    """
    _check_index(game, i)
    scored = _scored(game, entry, result)
    old = game.rounds[i]
    rounds = list(game.rounds)
    rounds[i] = _round_from(scored, old.time, now_iso())
    return _with_change(game, rounds, UndoStep("replace", i, old, now_iso()))


def delete_round(game: Game, i: int) -> Game:
    """A copy of ``game`` without round ``i`` (0-based). Raises :class:`GameError`
    (``no_such_round``)."""
    _check_index(game, i)
    rounds = list(game.rounds)
    old = rounds.pop(i)
    return _with_change(game, rounds, UndoStep("delete", i, old, now_iso()))


def can_undo(game: Game) -> bool:
    """True when :func:`undo` has a change to take back."""
    return bool(game.undo_log)


def last_change(game: Game) -> UndoStep | None:
    """The change :func:`undo` would take back (for a label such as "Undo: round 5 added")."""
    return game.undo_log[-1] if game.undo_log else None


def undo(game: Game) -> Game:
    """A copy of ``game`` with its last change (add, replace or delete of a round, or a change
    of the agreed end) taken back.

    Raises:
        GameError: ``nothing_to_undo``; ``undo_mismatch`` if the rounds no longer fit the log.
    """
    if not game.undo_log:
        raise GameError("there is nothing to undo", "nothing_to_undo")
    step = game.undo_log[-1]
    if step.action in ("end", "limits"):
        st = step.state or {}
        options = st.get("options")
        ar, at = st.get("agreed_rounds"), st.get("agreed_target")
        return dataclasses.replace(
            game,
            agreed_rounds=ar if _is_int(ar) else None,
            agreed_target=at if _is_int(at) else None,
            ended=st.get("ended") is True,
            options=dict(options) if isinstance(options, dict) else game.options,
            undo_log=game.undo_log[:-1],
            updated=now_iso(),
        )
    rounds = list(game.rounds)
    if step.action == "add":
        if step.index != len(rounds) - 1:
            raise GameError("the last change can no longer be undone", "undo_mismatch")
        rounds.pop()
    elif step.action == "replace":
        if step.before is None or not 0 <= step.index < len(rounds):
            raise GameError("the last change can no longer be undone", "undo_mismatch")
        rounds[step.index] = step.before
    else:
        if step.before is None or not 0 <= step.index <= len(rounds):
            raise GameError("the last change can no longer be undone", "undo_mismatch")
        rounds.insert(step.index, step.before)
    return dataclasses.replace(game, rounds=rounds, undo_log=game.undo_log[:-1], updated=now_iso())


def _limit_state(game: Game) -> dict[str, Any]:
    return {
        "agreed_rounds": game.agreed_rounds,
        "agreed_target": game.agreed_target,
        "ended": game.ended,
        "options": dict(game.options),
    }


def end_game(game: Game) -> Game:
    """A copy of ``game`` ended now by agreement (time is up, the players stop).

    Rummy 101: the agreed number of rounds becomes the rounds played. Tile Rummy / My Rummy:
    the series is marked ``ended`` (the judge's ``ended``). The highest total wins (the judge
    ``game`` check). Undo takes it back.

    Raises:
        GameError: ``not_endable`` (Gin and Carousel end by their own rules), ``no_rounds``,
            ``game_finished``.
    """
    if game.variant not in ("rummy101", "tile_rummy", "my_rummy"):
        raise GameError(
            f"{game.display_name} ends by its own rule (its target), not by agreement",
            "not_endable",
            {"variant": game.variant},
        )
    if not game.rounds:
        raise GameError("a game with no rounds cannot be ended; delete it instead", "no_rounds")
    if standings(game).finished:
        raise GameError("the game is over already", "game_finished")
    step = UndoStep("end", len(game.rounds), None, now_iso(), _limit_state(game))
    log = [*game.undo_log, step][-UNDO_DEPTH:]
    if game.variant == "rummy101":
        return dataclasses.replace(
            game, agreed_rounds=len(game.rounds), undo_log=log, updated=now_iso()
        )
    return dataclasses.replace(game, ended=True, undo_log=log, updated=now_iso())


def set_limits(game: Game, agreed_rounds: int | None, agreed_target: int | None = None) -> Game:
    """A copy of ``game`` with a new agreed end (``None``: no limit); an ``ended`` series is
    opened again. Rummy 101: :attr:`Game.agreed_rounds` / :attr:`Game.agreed_target`; Tile
    Rummy / My Rummy: the ``games`` / ``target`` options. Undo takes it back.

    Raises:
        GameError: ``not_endable`` (Gin, Carousel), ``bad_option`` (out of range, or fewer
            rounds than already played).
    """
    if game.variant not in ("rummy101", "tile_rummy", "my_rummy"):
        raise GameError(
            f"{game.display_name} ends by its own rule (its target)",
            "not_endable",
            {"variant": game.variant},
        )
    rounds_limit = _check_limit(agreed_rounds, "agreed number of rounds", 1000)
    target = _check_limit(agreed_target, "agreed target score", 100000)
    if rounds_limit is not None and rounds_limit < len(game.rounds):
        raise GameError(
            f"{len(game.rounds)} rounds are played already; agree on at least that many",
            "bad_option",
            {"played": len(game.rounds)},
        )
    step = UndoStep("limits", len(game.rounds), None, now_iso(), _limit_state(game))
    log = [*game.undo_log, step][-UNDO_DEPTH:]
    if game.variant == "rummy101":
        return dataclasses.replace(
            game,
            agreed_rounds=rounds_limit,
            agreed_target=target,
            ended=False,
            undo_log=log,
            updated=now_iso(),
        )
    options = _check_options(
        game.variant, {**game.options, "games": rounds_limit, "target": target}
    )
    return dataclasses.replace(game, options=options, ended=False, undo_log=log, updated=now_iso())


# -- pending penalties (Tile Rummy / My Rummy) ---------------------------------------------------
def _is_penalty(p: Any, players: Sequence[str]) -> bool:
    """A well-formed pending penalty of a game with ``players``."""
    return (
        isinstance(p, dict)
        and set(p) == {"name", "tiles", "reason"}
        and p["name"] in players
        and _is_int(p["tiles"])
        and 0 <= p["tiles"] <= PENALTY_TILES
        and p["reason"] in PENALTY_REASONS
    )


def record_penalty(
    game: Game, name: str, reason: str = "timeout", tiles: int = PENALTY_TILES
) -> Game:
    """A copy of ``game`` with one more pending penalty draw (RULES.md §4: an invalid turn or
    time running out: the table goes back and the player draws 3 tiles).

    The penalty belongs to the round being played (not entered yet); :func:`pending_penalties`
    gives the next round entry its penalty draws, and :func:`add_round` clears them. Store the
    result at once (``Store.save_game``) so it survives a reload.

    Args:
        game: a Tile Rummy or My Rummy game that is not over.
        name: the player who draws.
        reason: ``timeout`` (the turn timer ran out) or ``invalid_turn``.
        tiles: tiles drawn, 0–3 (fewer than 3 only when the pool ran low).

    Raises:
        GameError: ``no_penalties`` (another variant), ``unknown_player``, ``bad_penalty``
            (reason or tiles), ``game_finished``, ``too_many_penalties`` (more than
            :data:`MAX_PENDING_PENALTIES`).
    """
    if game.variant not in ("tile_rummy", "my_rummy"):
        raise GameError(
            f"{game.display_name} has no penalty draws (Tile Rummy and My Rummy only, RULES.md §4)",
            "no_penalties",
            {"variant": game.variant},
        )
    if name not in game.players:
        raise GameError(f"{name!r} does not play in this game", "unknown_player", {"name": name})
    if reason not in PENALTY_REASONS:
        raise GameError(
            f"penalty reason {reason!r} is not one of: {', '.join(PENALTY_REASONS)}",
            "bad_penalty",
        )
    if not _is_int(tiles) or not 0 <= tiles <= PENALTY_TILES:
        raise GameError(
            f"a penalty draw is 0–{PENALTY_TILES} tiles, not {tiles!r}",
            "bad_penalty",
            {"max": PENALTY_TILES},
        )
    if len(game.pending_penalties) >= MAX_PENDING_PENALTIES:
        raise GameError(
            f"at most {MAX_PENDING_PENALTIES} penalties wait for one round",
            "too_many_penalties",
            {"max": MAX_PENDING_PENALTIES},
        )
    if standings(game).finished:
        raise GameError("the game is over; no more penalties can be recorded", "game_finished")
    item = {"name": name, "tiles": tiles, "reason": reason}
    return dataclasses.replace(
        game, pending_penalties=[*game.pending_penalties, item], updated=now_iso()
    )


def remove_penalty(game: Game, index: int) -> Game:
    """A copy of ``game`` without pending penalty ``index`` (0-based; recorded by mistake).

    Raises:
        GameError: ``no_such_penalty``.
    """
    n = len(game.pending_penalties)
    if not _is_int(index) or not 0 <= index < n:
        raise GameError(f"there is no pending penalty {index!r} ({n} recorded)", "no_such_penalty")
    pending = [p for i, p in enumerate(game.pending_penalties) if i != index]
    return dataclasses.replace(game, pending_penalties=pending, updated=now_iso())


def pending_penalties(game: Game) -> list[dict[str, Any]]:
    """The penalty draws recorded for the round being played, oldest first, as a round entry's
    ``penalties`` (``[{"name", "tiles", "reason"}]``; copies)."""
    return [dict(p) for p in game.pending_penalties]


# -- standings -----------------------------------------------------------------------------------
def _top(totals: Mapping[str, int], players: Sequence[str]) -> tuple[str, ...]:
    if not players:
        return ()
    best = max(totals.get(p, 0) for p in players)
    return tuple(p for p in players if totals.get(p, 0) == best)


_ENDED_EARLIER: Final = ("too_many_rounds", "rounds_after_end", "round_after_game_end")
"""Judge ``game`` reasons saying the game ended before its last round."""


def standings(game: Game) -> Standings:
    """Where the game stands, asking the judge ``game`` check for totals, bonuses and the end.

    The result is cached on the Game object (keyed on its rounds, players and options), so
    calling it again for the same Game costs nothing.

    Returns:
        A :class:`Standings`. When the judge cannot answer (e.g. the variant's game scoring is
        not built) or finds the rounds impossible as a game (e.g. ``rounds_after_end``: rounds
        scored after the agreed end), ``error``/``message`` say so and ``totals`` are the plain
        round sums.
    """
    key = (
        tuple(map(id, game.rounds)),
        tuple(game.players),
        id(game.options),
        json.dumps(game.options, sort_keys=True),
        game.agreed_rounds,
        game.agreed_target,
        game.ended,
    )
    if game._cache is not None and game._cache[0] == key:
        return game._cache[1]
    players = tuple(game.players)
    current = dict.fromkeys(players, 0)
    round_scores: list[dict[str, int]] = []
    running: list[dict[str, int]] = []
    for r in game.rounds:
        sc = {p: _int_or_0(r.scores.get(p)) for p in players}
        for p in players:
            current[p] += sc[p]
        round_scores.append(sc)
        running.append(dict(current))
    totals, bonuses = dict(current), dict.fromkeys(players, 0)
    finished, finished_by = False, None
    winners: tuple[str, ...] = ()
    error = message = None
    answer: dict[str, Any] = {}
    if game.rounds:
        request: dict[str, Any] = {
            "check": "game",
            "variant": game.variant,
            "options": game.options,
            "players": list(players),
            "rounds": [{"scores": r.scores, "winners": list(r.winners)} for r in game.rounds],
        }
        if game.variant == "rummy101" and game.agreed_rounds is not None:
            request["rounds_planned"] = game.agreed_rounds
        if game.variant in ("tile_rummy", "my_rummy") and game.ended:
            request["ended"] = True
        raw = judge.answer(request)
        answer = {k: v for k, v in raw.items() if k != "ok"}
        got = raw.get("totals")
        if raw.get("ok") and raw.get("valid") is False:
            error = str(raw.get("reason", "invalid"))
            message = str(raw.get("message", "the rounds do not make a valid game"))
            if error in _ENDED_EARLIER:
                finished, finished_by = True, "judge"
        elif raw.get("ok") and isinstance(got, dict) and all(_is_int(got.get(p)) for p in players):
            totals = {p: int(got[p]) for p in players}
            b = raw.get("bonuses")
            if isinstance(b, dict):
                bonuses = {p: int(b[p]) if _is_int(b.get(p)) else 0 for p in players}
            finished = bool(raw.get("finished"))
            if finished:
                finished_by = "judge"
                winners = tuple(_names(raw.get("winners")) or _names(raw.get("winner")))
        else:
            error = str(raw.get("error", "bad_judge_answer"))
            message = str(raw.get("message", "the judge gave no totals for this game"))
        if not finished:
            limit, target = game_limits(game)
            if error is not None and limit is not None and len(game.rounds) >= limit:
                finished, finished_by = True, "rounds"
            elif (
                (error is not None or game.variant == "rummy101")
                and target is not None
                and any(totals[p] >= target for p in players)
            ):
                finished, finished_by = True, "target"
        if finished and not winners:
            winners = _top(totals, players)
    result = Standings(
        players=players,
        round_scores=tuple(round_scores),
        running=tuple(running),
        totals=totals,
        bonuses=bonuses,
        finished=finished,
        finished_by=finished_by,
        winners=winners,
        leaders=_top(totals, players) if game.rounds else (),
        judge=answer,
        error=error,
        message=message,
    )
    game._cache = (key, result)
    return result


def summarize(game: Game) -> GameSummary:
    """The games-list line for ``game`` (uses :func:`standings`)."""
    st = standings(game)
    return GameSummary(
        id=game.id,
        variant=game.variant,
        preset=game.preset,
        players=tuple(game.players),
        round_count=len(game.rounds),
        created=game.created,
        updated=game.updated,
        version=game.version,
        finished=st.finished,
        winners=st.winners,
        leaders=st.leaders,
        totals=dict(st.totals),
        notes=game.notes,
    )


# -- storage form --------------------------------------------------------------------------------
def _public_dict(game: Game) -> dict[str, Any]:
    return {
        "id": game.id,
        "variant": game.variant,
        "options": game.options,
        "players": list(game.players),
        "first_dealer": game.first_dealer,
        "agreed_rounds": game.agreed_rounds,
        "agreed_target": game.agreed_target,
        "ended": game.ended,
        "created": game.created,
        "updated": game.updated,
        "notes": game.notes,
        "rounds": [r.to_dict() for r in game.rounds],
    }


def game_to_dict(game: Game) -> dict[str, Any]:
    """The complete JSON-ready form of a game, as stored (undo log, version, join code and
    extra included)."""
    d = _public_dict(game)
    d["version"] = game.version
    d["undo_log"] = [s.to_dict() for s in game.undo_log]
    d["join_code"] = game.join_code
    d["extra"] = game.extra
    d["pending_penalties"] = [dict(p) for p in game.pending_penalties]
    return d


def game_from_dict(d: Any) -> Game:
    """Inverse of :func:`game_to_dict` (trusting the scores stored; checks shapes only).

    Raises:
        GameError: a field is missing or of the wrong type.
    """
    if not isinstance(d, Mapping):
        raise GameError("a game must be an object")
    try:
        gid, variant, options, players = d["id"], d["variant"], d["options"], d["players"]
        rounds = [Round.from_dict(r) for r in d.get("rounds", [])]
        undo_log = [UndoStep.from_dict(s) for s in d.get("undo_log", [])]
    except (KeyError, TypeError) as e:
        raise GameError(f"a stored game lacks a field ({e})") from None
    if not isinstance(gid, str) or not isinstance(variant, str) or variant not in VARIANTS:
        raise GameError("a stored game has a bad id or variant")
    if not isinstance(options, dict) or not isinstance(players, list):
        raise GameError("a stored game has bad options or players")
    if not all(isinstance(p, str) for p in players) or not players:
        raise GameError("a stored game has bad players")
    first_dealer, version = d.get("first_dealer", 0), d.get("version", 0)
    if not _is_int(first_dealer) or not 0 <= first_dealer < len(players):
        raise GameError("a stored game has a bad first dealer")
    if not _is_int(version) or version < 0:
        raise GameError("a stored game has a bad version")
    ar, at = d.get("agreed_rounds"), d.get("agreed_target")
    if not (ar is None or _is_int(ar)) or not (at is None or _is_int(at)):
        raise GameError("a stored game has a bad agreed end")
    join_code, extra = d.get("join_code"), d.get("extra", {})
    if not (join_code is None or isinstance(join_code, str)) or not isinstance(extra, dict):
        raise GameError("a stored game has a bad join code or extra data")
    pending = d.get("pending_penalties", [])
    if not isinstance(pending, list) or not all(_is_penalty(p, players) for p in pending):
        raise GameError("a stored game has bad pending penalties")
    return Game(
        id=gid,
        variant=variant,
        options=options,
        players=list(players),
        first_dealer=first_dealer,
        rounds=rounds,
        created=str(d.get("created", "")),
        updated=str(d.get("updated", "")),
        version=version,
        notes=str(d.get("notes", "")),
        agreed_rounds=ar,
        agreed_target=at,
        ended=d.get("ended") is True,
        undo_log=undo_log,
        join_code=join_code,
        extra=extra,
        pending_penalties=[dict(p) for p in pending],
    )


# -- export / import -----------------------------------------------------------------------------
CSV_SEPARATORS: Final = (",", ";")
"""Separators :func:`export_csv` writes: ``,`` (English spreadsheets) and ``;`` (spreadsheets
set to a language with a decimal comma — Polish, Slovak, German …: their list separator)."""

CSV_LABELS: Final = {
    "round": "round",
    "dealer": "dealer",
    "total": "{name} total",
    "bonuses": "bonuses",
    "final": "final",
}
"""The English words of the CSV sheet (:func:`export_csv` ``labels`` replaces them)."""

_CELL_BREAK = re.compile('(^|[,;\t\r\n"])(?=[ \u00a0\u3000]*[=+@\t\r\n\uff1d\uff0b\uff0d\uff20-])')
"""Where a spreadsheet may start a cell — the start of the text, or just after a character
that some reading of the file takes as the end of a cell or row (``,`` ``;`` tab, CR, LF, and
``"``, which a file read with the wrong separator leaves mid-cell) — followed (after spaces,
which importers may trim) by a character that starts a formula: ``= + - @`` (and their
full-width forms), tab, CR, LF."""


def csv_cell(value: Any) -> Any:
    """A CSV cell that no spreadsheet runs as a formula, whatever separator it reads the file
    with (``,`` ``;`` or tab, quotes honoured or not).

    Numbers are kept as they are. In text, a ``'`` is put before a formula start (``= + - @``,
    their full-width forms, tab, CR, LF, after any spaces) at the start of the text and after
    every ``,`` ``;`` tab, CR, LF and ``"``: ``=SUM(A1)`` → ``'=SUM(A1)``, ``a;=1+1`` →
    ``a;'=1+1``.
    Spreadsheets show the ``'``; the text reads as text (the OWASP advice for CSV injection).
    """
    if not isinstance(value, str):
        return value
    return _CELL_BREAK.sub(lambda m: m.group(1) + "'", value)


def export_csv(game: Game, separator: str = ",", labels: Mapping[str, str] | None = None) -> str:
    """The score sheet as CSV text (RFC 4180: CRLF line ends, ``"`` quotes where needed).

    Args:
        game: the game.
        separator: ``,`` or ``;`` (:data:`CSV_SEPARATORS`); numbers are integers (points), so
            no decimal separator is involved either way.
        labels: the sheet's words in the reader's language, keys as in :data:`CSV_LABELS`
            (``total`` holds ``{name}``); missing keys stay English.

    Columns: ``round`` (1-based), ``dealer``, one column per player with that round's points,
    then one ``NAME total`` column per player with the running total. After the rounds, a
    ``bonuses`` row (game-end bonuses in the player columns) and a ``final`` row (totals with
    bonuses in the total columns). Every text cell goes through :func:`csv_cell`, so a name
    like ``=1+1`` or ``a;=1+1`` never becomes a formula, with either separator.

    Raises:
        ValueError: another separator.
    """
    if separator not in CSV_SEPARATORS:
        raise ValueError(f"the CSV separator must be one of {CSV_SEPARATORS}, not {separator!r}")
    words = {**CSV_LABELS, **(labels or {})}
    st = standings(game)
    out = io.StringIO()
    w = csv.writer(out, delimiter=separator, lineterminator="\r\n")
    players = list(game.players)
    blank = [""] * len(players)

    def row(cells: list[Any]) -> None:
        w.writerow([csv_cell(c) for c in cells])

    totals = [words["total"].replace("{name}", p) for p in players]
    row([words["round"], words["dealer"], *players, *totals])
    for i, (sc, run) in enumerate(zip(st.round_scores, st.running, strict=True)):
        dealer = players[dealer_for_round(game, i)]
        row([i + 1, dealer, *(sc[p] for p in players), *(run[p] for p in players)])
    row([words["bonuses"], "", *(st.bonuses[p] for p in players), *blank])
    row([words["final"], "", *blank, *(st.totals[p] for p in players)])
    return out.getvalue()


def export_json(game: Game) -> str:
    """The game as a JSON document for sending around; :func:`import_json` reads it back.

    Shape: ``{"format": "rummy-referee-game", "format_version": 1, "exported": ISO,
    "game": {id, variant, options, players, first_dealer, agreed_rounds, agreed_target, ended,
    created, updated, notes, rounds: [{entry, result, winners, time[, edited]}]},
    "standings": {totals, bonuses, finished, winners}}`` (standings for people reading the
    file; ignored on import). The join code, undo log and ``extra`` are not exported.
    """
    st = standings(game)
    doc = {
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_VERSION,
        "exported": now_iso(),
        "game": _public_dict(game),
        "standings": {
            "totals": st.totals,
            "bonuses": st.bonuses,
            "finished": st.finished,
            "winners": list(st.winners),
        },
    }
    return json.dumps(doc, ensure_ascii=False, indent=1)


def _timestamp(value: Any, where: str, default: str) -> str:
    if value is None:
        return default
    if not isinstance(value, str):
        raise GameImportError(f"{where} must be a timestamp text", None, {"problem": "time"})
    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise GameImportError(
            f"{where} {value[:40]!r} is not an ISO 8601 timestamp", None, {"problem": "time"}
        ) from None
    return value


def import_json(text: str | bytes) -> Game:
    """Read a game exported by :func:`export_json`, checking everything and scoring every round
    again with the judge (the file's stored results are not trusted).

    Returns:
        A new :class:`Game` with a fresh id and version 0 (store it with
        ``Store.create_game``), the file's rounds, timestamps and notes.

    Raises:
        GameImportError: one line naming the problem (``not JSON``, ``not a game export``,
            ``made by a newer version``, ``round 3: …``); codes ``bad_import`` or, for a
            round the judge refuses, ``bad_round``.
    """
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise GameImportError(
                "the file is not UTF-8 text", None, {"problem": "not_text"}
            ) from None
    if not isinstance(text, str):
        raise GameImportError("the file must be text", None, {"problem": "not_text"})
    if len(text) > MAX_IMPORT_CHARS:
        raise GameImportError(
            f"the file is larger than {MAX_IMPORT_CHARS // 1_000_000} MB",
            None,
            {"problem": "too_big", "mb": MAX_IMPORT_CHARS // 1_000_000},
        )
    try:
        doc = json.loads(text.lstrip("\ufeff"), parse_constant=_no_constant)
    except RecursionError:
        raise GameImportError(
            "the file is nested too deeply", None, {"problem": "not_json"}
        ) from None
    except ValueError as e:
        raise GameImportError(
            f"the file is not JSON ({e})", None, {"problem": "not_json"}
        ) from None
    maybe_broken = not _is_unicode(text) or _SURROGATE_ESCAPE.search(text) is not None
    if maybe_broken and (where := _broken_text_at(doc)) is not None:
        raise GameImportError(
            f"the file has broken text (a lone surrogate) at {where}",
            None,
            {"problem": "broken_text"},
        )
    if not isinstance(doc, dict) or doc.get("format") != EXPORT_FORMAT:
        raise GameImportError(
            f'the file is not a game exported by this app (no "format": "{EXPORT_FORMAT}")',
            None,
            {"problem": "not_export"},
        )
    fv = doc.get("format_version")
    if not isinstance(fv, int) or isinstance(fv, bool) or fv < 1:
        raise GameImportError(
            "the file has no valid format_version", None, {"problem": "not_export"}
        )
    if fv > EXPORT_VERSION:
        raise GameImportError(
            f"the file was made by a newer version of the app (format {fv}; this one reads "
            f"up to {EXPORT_VERSION})",
            None,
            {"problem": "newer"},
        )
    g = doc.get("game")
    if not isinstance(g, dict):
        raise GameImportError('the file has no "game" object', None, {"problem": "not_export"})
    rounds = g.get("rounds", [])
    if not isinstance(rounds, list):
        raise GameImportError('"rounds" must be a list', None, {"problem": "damaged"})
    if len(rounds) > MAX_ROUNDS:
        raise GameImportError(
            f"the game has {len(rounds)} rounds; at most {MAX_ROUNDS} fit",
            None,
            {"problem": "too_many_rounds", "n": len(rounds), "max": MAX_ROUNDS},
        )
    options = g.get("options")
    if options is not None and not isinstance(options, dict):
        raise GameImportError('"options" must be an object', None, {"problem": "damaged"})
    notes = g.get("notes", "")
    try:
        game = new_game(
            g.get("variant"),  # type: ignore[arg-type]
            g.get("players"),  # type: ignore[arg-type]
            options,
            first_dealer=g.get("first_dealer", 0),
            notes=notes if notes is not None else "",
            agreed_rounds=g.get("agreed_rounds"),
            agreed_target=g.get("agreed_target"),
        )
    except GameError as e:
        raise GameImportError(f"game: {e.message}", None, {"problem": "game", "cause": e}) from None
    now = game.created
    game.created = _timestamp(g.get("created"), '"created"', now)
    game.updated = _timestamp(g.get("updated"), '"updated"', now)
    out: list[Round] = []
    for i, r in enumerate(rounds, 1):
        if not isinstance(r, dict) or not isinstance(r.get("entry"), dict):
            raise GameImportError(
                f'round {i}: needs an "entry" object', None, {"problem": "round", "round": i}
            )
        result = score_round(game, r["entry"])
        if not result.valid:
            raise GameImportError(
                f"round {i}: {result.message} ({result.reason})",
                "bad_round",
                {"problem": "round", "round": i, "result": result, "variant": game.variant},
            )
        time = _timestamp(r.get("time"), f'round {i} "time"', now)
        edited = r.get("edited")
        edited = _timestamp(edited, f'round {i} "edited"', now) if edited is not None else None
        out.append(_round_from(result, time, edited))
    game.rounds = out
    game.ended = g.get("ended") is True and game.variant in ("tile_rummy", "my_rummy")
    return game


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")
