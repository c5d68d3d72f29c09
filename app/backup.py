"""Back up every game in one JSON file and merge such a file into another device's games.

The file (:func:`export_all`)::

    {"format": "rummy-referee-backup", "format_version": 1, "exported": ISO, "count": N,
     "games": [GAME, ...]}

where each ``GAME`` is the ``game`` object of a single-game export (:func:`app.games.export_json`:
id, variant, options, players, first dealer, agreed end, created/updated, notes and the rounds'
entries with their times) plus its ``standings`` for people reading the file. The judge's
answers are left out of the rounds: importing scores every round again from its entry (as
:func:`app.games.import_json` always does — a file's scores are never trusted), so they would
only make the file bigger (a 500-game backup stays well under the 8 MB a browser may send).

Merging (:func:`import_all`), per game of the file, matched by its id:

- not here (and no game here with the same variant, players, start time and rounds): added
  with its id;
- here with the same rounds: unchanged (importing the same file twice adds nothing);
- here, and the file's rounds continue the stored ones (the other device played on): the
  stored game gets the file's rounds (saved through the store, its version counts up);
- here, and the stored game is ahead of the file's (its rounds continue the file's, or undoing
  its last changes — its undo log — gives the file's rounds: a round edited or deleted here
  since): unchanged;
- here with different rounds (both devices changed it): both are kept — the file's as a new
  game (new id, noted "from a backup").

Only the host may import (:func:`app.people.check_host`).

One game's export (:func:`app.games.export_json`) is imported with :func:`read_one`, and
:func:`already_here` tells whether this device has that game already — the same id, or the same
variant, players and start time (another export of it, with more or fewer rounds) — so that the
screen can say so and offer to skip it or keep both (issue 10, point 11). A game that is not
here keeps the id of the file (a later backup of the other device then merges with it); a
second copy gets a new id.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from app import games as g
from app.games import Game, GameSummary
from app.people import check_host

__all__ = [
    "BACKUP_FORMAT",
    "BACKUP_VERSION",
    "BackupError",
    "ImportReport",
    "export_all",
    "file_name",
    "import_all",
    "already_here",
    "read_one",
    "store_one",
]

BACKUP_FORMAT: Final = "rummy-referee-backup"
BACKUP_VERSION: Final = 1
MAX_BACKUP_CHARS: Final = 64_000_000
_ID = re.compile(r"[0-9a-f]{32}")


class BackupError(ValueError):
    """The file is not a backup this app can read.

    Attributes:
        code: ``not_text``, ``too_big``, ``not_json``, ``not_backup``, ``bad_version``,
            ``newer``, ``no_games`` or ``bad_game`` (the screen words it in the player's
            language; the message is for logs).
    """

    def __init__(self, message: str, code: str = "not_backup") -> None:
        super().__init__(message)
        self.code = code


class _Store(Protocol):
    def list_games(self) -> list[GameSummary]: ...
    def load_game(self, game_id: str) -> Game: ...
    def create_game(self, game: Game) -> Game: ...
    def save_game(self, game: Game, expected_version: int) -> Game: ...


def file_name(now: str | None = None) -> str:
    """``rummy-backup-2026-12-01.json``."""
    return f"rummy-backup-{(now or g.now_iso())[:10]}.json"


def export_all(store: _Store) -> str:
    """Every stored game (the store's view: a visitor's session store shows fewer) as one
    backup file, oldest game first."""
    docs = []
    for s in sorted(store.list_games(), key=lambda s: (s.created, s.id)):
        doc = json.loads(g.export_json(store.load_game(s.id)))
        game = doc["game"]
        for r in game["rounds"]:
            r.pop("result", None)
        game["standings"] = doc["standings"]
        docs.append(game)
    out = {
        "format": BACKUP_FORMAT,
        "format_version": BACKUP_VERSION,
        "exported": g.now_iso(),
        "count": len(docs),
        "games": docs,
    }
    return json.dumps(out, ensure_ascii=False, separators=(",", ":"))


@dataclass
class ImportReport:
    """What :func:`import_all` did.

    Attributes:
        added, updated, unchanged, copies: ids of games added with their own id, stored games
            given the file's later rounds, games already here (or ahead here), and games
            kept twice (the file's copy's new id).
        errors: ``(position in the file from 1, problem)`` for games not imported.
    """

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    copies: list[str] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)


def _entries(game: Game) -> list[str]:
    return [json.dumps(r.entry, sort_keys=True) for r in game.rounds]


def _was(stored: Game, entries: list[str]) -> bool:
    """Did ``stored`` have these rounds before its last changes (its undo log, undone step by
    step with :func:`app.games.undo`)? Then this device is ahead of the file."""
    probe = stored
    for _ in range(len(stored.undo_log)):
        try:
            if not g.can_undo(probe):
                return False
            probe = g.undo(probe)
        except g.GameError:
            return False
        if _entries(probe) == entries:
            return True
    return False


def _same_start(a: Game, s: GameSummary) -> bool:
    return a.variant == s.variant and tuple(a.players) == s.players and a.created == s.created


def read_one(text: str | bytes) -> tuple[Game, str | None]:
    """Read one game's export (checked, every round scored again: :func:`app.games.import_json`).

    Returns:
        ``(game, id in the file)``: the game has a fresh id and version 0; the file's id is
        None when it has none that this app could use.

    Raises:
        GameImportError: what is wrong with the file (one line).
    """
    game = g.import_json(text)
    file_id: str | None = None
    try:
        raw = text.decode("utf-8-sig") if isinstance(text, bytes | bytearray) else text
        gid = json.loads(raw.lstrip("\ufeff")).get("game", {}).get("id")
    except (ValueError, AttributeError, RecursionError):
        gid = None
    if isinstance(gid, str) and _ID.fullmatch(gid):
        file_id = gid
    return game, file_id


def already_here(store: _Store, game: Game, file_id: str | None) -> GameSummary | None:
    """The stored game that ``game`` (read from a file whose game id was ``file_id``) is a
    copy of: one with the file's id, else one with the same variant, players (in seat order)
    and start time; None when this device does not have it. Rounds are not compared: an
    export made later (more rounds) or earlier is still the same game."""
    summaries = store.list_games()
    if file_id is not None:
        for s in summaries:
            if s.id == file_id:
                return s
    for s in summaries:
        if _same_start(game, s):
            return s
    return None


def store_one(store: _Store, game: Game, file_id: str | None) -> Game:
    """Store ``game`` read by :func:`read_one`: under the file's id when this device has no
    game with it, else under its fresh id (a second copy).

    Raises:
        StoreError: the write failed (or this session may not start games).
    """
    taken = {s.id for s in store.list_games()}
    if file_id is not None and file_id not in taken:
        game = dataclasses.replace(game, id=file_id)
    return store.create_game(game)


def read_backup(text: str | bytes) -> list[Any]:
    """The ``games`` list of a backup file.

    Raises:
        BackupError: not UTF-8, not JSON, not a backup, or a newer format.
    """
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise BackupError("the file is not UTF-8 text", "not_text") from None
    if len(text) > MAX_BACKUP_CHARS:
        raise BackupError(f"the file is larger than {MAX_BACKUP_CHARS // 1_000_000} MB", "too_big")
    try:
        doc = json.loads(text.lstrip("\ufeff"))
    except (ValueError, RecursionError) as e:
        raise BackupError(f"the file is not JSON ({str(e)[:80]})", "not_json") from None
    if not isinstance(doc, dict) or doc.get("format") != BACKUP_FORMAT:
        raise BackupError("the file is not a backup of this app")
    version = doc.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise BackupError("the file has no valid format_version", "bad_version")
    if version > BACKUP_VERSION:
        raise BackupError(
            f"the file was made by a newer version of the app (format {version})", "newer"
        )
    items = doc.get("games")
    if not isinstance(items, list):
        raise BackupError('the file has no "games" list', "no_games")
    return items


def import_all(
    store: _Store, text: str | bytes, progress: Callable[[int, int], None] | None = None
) -> ImportReport:
    """Merge a backup file into ``store`` (see the module notes for the rules).

    Every game is checked and scored again (:func:`app.games.import_json`); a game that fails
    is reported in ``errors`` and the others are still imported.

    Args:
        progress: called with (games done, games in the file) after each game.

    Raises:
        BackupError: the file as a whole cannot be read. PeopleError: ``host_only``.
    """
    check_host(store)
    items = read_backup(text)
    report = ImportReport()
    summaries = {s.id: s for s in store.list_games()}
    for n, item in enumerate(items, 1):
        try:
            game = _read_game(item)
            _merge(store, summaries, item, game, report)
        except (g.GameError, BackupError) as e:
            report.errors.append((n, e.message if isinstance(e, g.GameError) else str(e)))
        if progress is not None:
            progress(n, len(items))
    return report


def _read_game(item: Any) -> Game:
    if not isinstance(item, dict):
        raise BackupError("a game must be an object", "bad_game")
    single = {"format": g.EXPORT_FORMAT, "format_version": 1, "game": item}
    return g.import_json(json.dumps(single, ensure_ascii=False))


def _merge(
    store: _Store,
    summaries: dict[str, GameSummary],
    item: dict[str, Any],
    game: Game,
    report: ImportReport,
) -> None:
    gid = item.get("id")
    mine = _entries(game)
    if not (isinstance(gid, str) and _ID.fullmatch(gid)):
        gid = None
    if gid is not None and gid in summaries:
        stored = store.load_game(gid)
        theirs = _entries(stored)
        if theirs == mine or theirs[: len(mine)] == mine or _was(stored, mine):
            report.unchanged.append(gid)
            return
        if mine[: len(theirs)] == theirs:
            new = dataclasses.replace(
                stored, rounds=game.rounds, ended=game.ended, notes=game.notes or stored.notes
            )
            store.save_game(new, stored.version)
            report.updated.append(gid)
            return
        copy = dataclasses.replace(game, notes=(game.notes + " (from a backup)").strip())
        report.copies.append(store.create_game(copy).id)
        return
    for s in summaries.values():  # the same game under another id (imported one by one)
        same = _same_start(game, s) and s.round_count == len(game.rounds)
        if same and _entries(store.load_game(s.id)) == mine:
            report.unchanged.append(s.id)
            return
    if gid is not None:
        game = dataclasses.replace(game, id=gid)
    stored_new = store.create_game(game)
    summaries[stored_new.id] = g.summarize(stored_new)
    report.added.append(stored_new.id)
