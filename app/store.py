"""Storage of games, players and settings: the only module that touches TinyDB.

File layout (``PATH`` is ``--data``; measured in ``benchmarks/bench_store.py``):

- ``PATH`` — the *index*, a TinyDB JSON file with tables ``meta`` (``schema_version``),
  ``games`` (one :class:`~app.games.GameSummary` per game for the games list, plus the size and
  mtime of the game's file), ``players`` (known names, last used), ``settings`` and
  ``notices`` (the last :data:`MAX_NOTICES` recovery notices).
- ``PATH.games/<id>.json`` — one TinyDB JSON file per game (table ``game``, document 1: the
  whole game, rounds included, with its ``schema`` version). Appending a round rewrites one
  game (tens of kB) and the index (a few hundred bytes per game), never the whole history.
  The rounds' JSON of the last games written is kept, so a save encodes only the rounds that
  are new (:func:`_game_file`; the bytes are exactly those of one ``json.dumps`` of the game).
- ``PATH.backups/<sequence>-<UTC time>-<reason>/`` (``00000042-20261201T101500Z-auto``) —
  rolling backups (the last :data:`MAX_BACKUPS`): the index and every game file. They are
  ordered by the sequence number (one more than the highest present), never by the clock: a
  clock set back (or forward) cannot make an old backup look new. Folders of older versions of
  the app (``20261201-101500-123456Z-auto``, no sequence number) are still read; they count as
  older than every numbered one (among themselves in name order) and roll over first. When a
  game is restored, the readable copy with the highest game ``version`` (which every save raises
  by one) wins, the newest backup on a tie: the newest content, whatever the folder names say.
  The index (settings, known names) comes from the newest backup that reads. A file unchanged
  since the previous backup is hard-linked to that backup's copy (the live files are always
  copied, never linked, so damage to a live file cannot reach a backup). Made when the store
  opens (if the newest is older than :attr:`Store.backup_interval`, or dated in the future: the
  clock went back), before every schema migration, and after :attr:`Store.backup_every` writes
  or :attr:`Store.backup_interval` seconds of writing (a monotonic clock).
- ``PATH.lock`` — the :mod:`filelock` lock held while a :class:`Store` is open: a second
  process (or a second Store in one process) gets :class:`StoreLockedError` at once. ``PATH``
  is the data file's real path (:meth:`pathlib.Path.resolve`: symlinks, ``..`` and ``.``
  resolved), so a symlink or another spelling of the same file finds the same lock — and the
  games, backups and atomic replacements go beside the real file, not beside a link.

Safety:

- Every write goes to a temporary file in the same folder, is flushed and ``fsync``-ed and
  then ``os.replace``-d over the old file (then the folder is ``fsync``-ed): a crash leaves the
  old file or the new one, never a mix. Updates of the index that only change what is derived
  from the game files (the games list, known names) skip the two fsyncs: still atomic, and if a
  power cut loses one, the start-up check below rebuilds it (this halves the fsyncs of a save;
  settings are written with fsync). A failed write (disk full, read-only folder) raises
  :class:`StoreError` with a clear message (``code`` ``disk_full``, ``read_only`` or
  ``write_failed``); the old file and the Store's state in memory are unchanged.
- The game file is the truth; the index is a cache of it. Saving writes the game file first,
  then the index. If only the index write fails, the save stands (it is on disk), a notice is
  recorded and the index is rewritten later; at start the index is checked against the game
  files (size and mtime) and summaries are rebuilt where they differ (e.g. after a crash
  between the two writes).
- A corrupt or unreadable file found at start (bad JSON, a 0-byte file, a wrong shape) is
  never overwritten: it is renamed to ``NAME.corrupt-YYYYmmdd-HHMMSS`` (local time), the newest
  backup copy that reads back correctly is restored, and a :class:`Notice` is added to
  :attr:`Store.notices` for the UI to show. A game file that is damaged later is handled the
  same way when it is loaded.
- Schema: ``meta.schema_version`` (the index) and ``schema`` (each game). A store written by a
  newer app is refused (``newer_schema``), never rewritten. An older one is backed up, then
  migrated step by step through :data:`MIGRATIONS` (index) and :data:`GAME_MIGRATIONS` (each
  game, when it is loaded).
- Concurrency: one Store per process, every method behind one ``threading.RLock``; browser
  sessions are coroutines of that process. :meth:`Store.save_game` takes the version the
  caller loaded and raises :class:`ConflictError` (carrying the stored game) if someone saved
  in between.

API (APP_PLAN.md): :meth:`Store.list_games`, :meth:`Store.load_game`, :meth:`Store.create_game`,
:meth:`Store.save_game`, :meth:`Store.delete_game`, :meth:`Store.known_players`,
:meth:`Store.get_setting`, :meth:`Store.set_setting`; beside them :attr:`Store.notices`,
:meth:`Store.dismiss_notices`, :meth:`Store.backup_now`, :meth:`Store.backups`,
:meth:`Store.close` (also a context manager).
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import json
import math
import os
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import filelock
from tinydb import Query, TinyDB
from tinydb.storages import Storage
from tinydb.table import Document, Table

from app import games as g
from app.games import Game, GameSummary, Round

__all__ = [
    "GAME_MIGRATIONS",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "AtomicJSONStorage",
    "ConflictError",
    "GameNotFoundError",
    "Notice",
    "Store",
    "StoreError",
    "StoreLockedError",
    "atomic_write",
]

SCHEMA_VERSION: Final = 1
"""The data schema this code writes (index ``meta.schema_version`` and each game's ``schema``)."""

Migration = Callable[[dict[str, Any]], dict[str, Any]]
MIGRATIONS: dict[int, Migration] = {}
"""Index migrations: ``MIGRATIONS[n]`` turns the index data (all tables) of schema ``n`` into
schema ``n + 1``. Applied at open, after a backup."""
GAME_MIGRATIONS: dict[int, Migration] = {}
"""Game migrations: ``GAME_MIGRATIONS[n]`` turns one stored game dict of schema ``n`` into
schema ``n + 1``. Applied when a game is read; written back with its next save."""

MAX_BACKUPS: Final = 5
MAX_NOTICES: Final = 50
_ID = re.compile(r"[0-9a-f]{32}")
_SNAPSHOT = re.compile(r"(\d{8,})-(\d{8}T\d{6})Z-[a-z0-9-]+")
"""A backup folder name: sequence number, UTC time (for people; not used for order), reason."""
_LEGACY_SNAPSHOT = re.compile(r"(\d{8}-\d{6}-\d{6})Z-[a-z0-9-]+")
"""A backup folder of app versions before sequence numbers (named by the wall clock only)."""


# -- errors and notices --------------------------------------------------------------------------
class StoreError(Exception):
    """Storage failed; the message is one line a person can act on.

    Attributes:
        code: ``disk_full``, ``read_only``, ``write_failed``, ``read_failed``, ``locked``,
            ``conflict``, ``not_found``, ``exists``, ``bad_id``, ``bad_value``,
            ``newer_schema``, ``corrupt``, ``closed``.
        message: the same text as ``str(error)``.
        path: the file concerned, if any.
    """

    code = "store_error"

    def __init__(self, message: str, code: str | None = None, path: Path | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        if code is not None:
            self.code = code


class StoreLockedError(StoreError):
    """Another process (or another Store in this process) has the same data open."""

    code = "locked"


class GameNotFoundError(StoreError):
    """No game with that id (or its file is gone and no backup holds it)."""

    code = "not_found"


class ConflictError(StoreError):
    """Someone saved the game after the caller loaded it.

    Attributes:
        current: the game as stored now (show it, or merge and save again with
            ``current.version``).
        expected: the version the caller had.
    """

    code = "conflict"

    def __init__(self, current: Game, expected: int) -> None:
        super().__init__(
            f"the game was changed elsewhere (version {current.version}, this screen had "
            f"version {expected}); reload it and enter the change again",
        )
        self.current = current
        self.expected = expected


@dataclass(frozen=True)
class Notice:
    """Something the store did on its own that the user should hear about.

    Attributes:
        code: ``index_recovered`` (the index was unreadable and restored from a backup),
            ``index_reset`` (unreadable, no usable backup: started empty, game files kept),
            ``index_rebuilt`` (the index was missing; rebuilt from the game files),
            ``game_recovered`` (a game file was unreadable or missing and restored from a
            backup), ``game_lost`` (… and no backup held it), ``migrated``, ``backup_failed``,
            ``index_write_failed``.
        message: one English line for the user.
        time: when (ISO 8601 UTC).
        path: the file concerned.
        moved_to: where the broken file was moved.
        restored_from: the backup used.
    """

    code: str
    message: str
    time: str
    path: str | None = None
    moved_to: str | None = None
    restored_from: str | None = None


# -- atomic files --------------------------------------------------------------------------------
def _failure(e: OSError, what: str, path: Path) -> StoreError:
    folder = path.parent
    if e.errno in (errno.ENOSPC, errno.EDQUOT):
        return StoreError(
            f"could not save {what}: the disk is full ({folder}); nothing was changed — free "
            "some space and try again",
            "disk_full",
            path,
        )
    if e.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return StoreError(
            f"could not save {what}: the folder {folder} is read-only or not writable; "
            "nothing was changed",
            "read_only",
            path,
        )
    return StoreError(
        f"could not save {what} in {folder}: {e.strerror or e}; nothing was changed",
        "write_failed",
        path,
    )


def _fsync_dir(folder: Path) -> None:
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(path: Path, data: bytes, what: str = "the data", durable: bool = True) -> None:
    """Replace ``path`` with ``data`` atomically: temp file in the same folder, fsync,
    ``os.replace``, fsync of the folder. With ``durable=False`` the two fsyncs are left out:
    still all-or-nothing for a crashed process, but a power cut may lose the write.

    Raises:
        StoreError: codes ``disk_full``, ``read_only``, ``write_failed``; the old file is
            untouched and no temp file is left behind.
    """
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            if durable:
                os.fsync(f.fileno())
        os.replace(tmp, path)
        tmp = None
    except OSError as e:
        raise _failure(e, what, path) from e
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    if durable:
        _fsync_dir(path.parent)


def _dumps(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


ROUND_TEXT_GAMES: Final = 8
"""Games whose rounds' encoded JSON the Store keeps (the ones written last), for
:func:`_game_file`."""


def _game_file(
    game: Game, known: dict[int, tuple[Round, bytes]]
) -> tuple[bytes, dict[int, tuple[Round, bytes]]]:
    """The bytes of a game file: exactly ``_dumps({"game": {"1": doc}})`` where ``doc`` is
    :func:`app.games.game_to_dict` plus ``"schema"`` — built piece by piece so that a round
    encoded before is not encoded again.

    Rounds are values (:class:`~app.games.Round` is frozen and no code changes its ``entry`` or
    ``result`` in place), so the JSON of a Round object never changes. ``known`` maps
    ``id(round)`` to ``(round, its JSON)`` for rounds written before; the Round itself is held
    there, so its id cannot be reused by another object while the entry exists (and ``is`` is
    checked too). Appending a round to a 1,000-round game encodes one round, not 1,000.

    The file is the compact JSON of one object, so it is ``{"game":{"1":{`` + ``KEY:VALUE``
    pairs joined by ``,`` in the dict's order + ``}}}``, and the ``rounds`` value is ``[`` +
    the rounds' JSON joined by ``,`` + ``]`` (``json.dumps`` with these separators encodes a
    nested value exactly as it encodes it alone, and UTF-8 of joined text is the joined UTF-8).

    Returns:
        ``(file bytes, texts)``: ``texts`` maps the id of every round of ``game`` to
        ``(round, its JSON)``, the ``known`` of the next save.

    Raises:
        TypeError, ValueError, UnicodeEncodeError: what ``_dumps`` of the whole game raises (a
            value that is not JSON data, a lone surrogate).
    """
    texts: dict[int, tuple[Round, bytes]] = {}
    rounds: list[bytes] = []  # the rounds' JSON, with the commas between them
    for r in game.rounds:
        key = id(r)
        hit = texts.get(key) or known.get(key)
        if hit is None or hit[0] is not r:
            hit = (r, _dumps(r.to_dict()))
        texts[key] = hit
        rounds += (b",", hit[1])
    doc = g.game_to_dict(dataclasses.replace(game, rounds=[]))
    doc["schema"] = SCHEMA_VERSION
    out = [b'{"game":{"1":{']
    for k, v in doc.items():
        out += (_dumps(k), b":")
        if k == "rounds":
            out += (b"[", *rounds[1:], b"]")
        else:
            out.append(_dumps(v))
        out.append(b",")
    out[-1] = b"}}}"  # the doc is never empty: the last comma becomes the end
    return b"".join(out), texts


class AtomicJSONStorage(Storage):
    """A TinyDB storage writing the whole JSON file atomically (:func:`atomic_write`).

    The data is kept in memory after the first read (the file lock guarantees no other writer),
    so reads cost nothing. A failed write raises :class:`StoreError` and puts the memory back
    to what is on disk. :meth:`batch` groups several TinyDB operations into one write.
    """

    def __init__(self, path: Path, what: str = "the data") -> None:
        self.path = path
        self.what = what
        self._data: dict[str, Any] | None = None
        self._text: bytes | None = None
        self._loaded = False
        self._depth = 0
        self._dirty = False
        self.durable = True
        """Write with fsync (:func:`atomic_write`); the Store turns it off for writes that only
        change data derived from the game files."""

    def load(self) -> dict[str, Any] | None:
        """Read and parse the file (``None`` when it does not exist).

        Raises:
            OSError: the file cannot be read. ValueError: not JSON / not UTF-8 / empty / not an
            object.
        """
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            self._data, self._text, self._loaded = None, None, True
            return None
        if not raw.strip():
            raise ValueError("the file is empty")
        data = json.loads(raw.decode("utf-8"))
        if not isinstance(data, dict):
            raise ValueError("the file does not hold a JSON object")
        self._data, self._text, self._loaded = data, raw, True
        return data

    def set(self, data: dict[str, Any] | None) -> None:
        """Take ``data`` as the content on disk (after the caller wrote or checked it)."""
        self._data = data
        self._text = _dumps(data) if data is not None else None
        self._loaded = True

    def read(self) -> dict[str, Any] | None:
        if not self._loaded:
            self.load()
        return self._data

    def write(self, data: dict[str, Any]) -> None:
        self._data = data
        if self._depth:
            self._dirty = True
        else:
            self._flush()

    def _flush(self) -> None:
        text = _dumps(self._data)
        try:
            atomic_write(self.path, text, self.what, self.durable)
        except StoreError:
            self._revert()
            raise
        self._text = text
        self._dirty = False

    def _revert(self) -> None:
        self._data = json.loads(self._text) if self._text is not None else None
        self._dirty = False

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Group writes: one file write at the end; on an exception nothing is written and the
        memory goes back to the file's content."""
        self._depth += 1
        ok = False
        try:
            yield
            ok = True
        finally:
            self._depth -= 1
            if self._depth == 0 and self._dirty:
                if ok:
                    self._flush()
                else:
                    self._revert()


# -- the store -----------------------------------------------------------------------------------
@dataclass
class _Entry:
    doc_id: int
    summary: GameSummary
    stat: tuple[int, int]


def _stamp_local() -> str:
    return datetime.now().strftime("%Y%m%d-%H%M%S")


def _stat(path: Path) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_size, st.st_mtime_ns


class _Corrupt(ValueError):
    pass


class Store:
    """The app's storage: open it once per process (see the module notes).

    Args:
        path: the index file (``--data``); its folder is created if needed.

    Raises:
        StoreLockedError: the data is open in another process (or another Store).
        StoreError: the folder cannot be created, a new store cannot be written, the data is
            from a newer app (``newer_schema``), or a broken file cannot be moved aside.

    Attributes:
        path: the index file, its real path (symlinks resolved); ``games_dir``,
            ``backups_dir``, ``lock_path`` beside it.
        notices: :class:`Notice` list of this run (recoveries at open, failed backups …),
            oldest first; :meth:`dismiss_notices` empties it.
        backup_interval: seconds between automatic backups (15 min).
        backup_every: writes between automatic backups (200).
    """

    backup_interval: float = 15 * 60
    backup_every: int = 200
    max_backups: int = MAX_BACKUPS

    def __init__(self, path: Path | str) -> None:
        # the real path decides the lock (and where the files go): a symlink to the file, or
        # another spelling of it, must not open a second Store on the same data
        self.path = Path(path).expanduser().resolve()
        self.games_dir = Path(f"{self.path}.games")
        self.backups_dir = Path(f"{self.path}.backups")
        self.lock_path = Path(f"{self.path}.lock")
        self.notices: list[Notice] = []
        self._lock = threading.RLock()
        self._entries: dict[str, _Entry] = {}
        self._round_texts: dict[str, dict[int, tuple[Round, bytes]]] = {}
        """Per game id, the encoded rounds of the game last written (:func:`_game_file`)."""
        self._players: dict[str, str] = {}
        self._index_stale = False
        self._writes = 0
        self._last_backup = -math.inf  # time.monotonic() of the last backup (or failed try)
        self._closed = True
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StoreError(
                f"cannot create the data folder {self.path.parent}: {e.strerror or e}",
                "write_failed",
                self.path,
            ) from e
        self._flock = filelock.FileLock(self.lock_path, thread_local=False)
        try:
            self._flock.acquire(blocking=False)
        except filelock.Timeout:
            raise StoreLockedError(
                f"the data file {self.path} is already open in another copy of the app; "
                "close that one first, or start with --data pointing to another file",
                path=self.path,
            ) from None
        except OSError as e:
            raise StoreError(
                f"cannot lock the data file {self.path}: {e.strerror or e}", "read_only", self.path
            ) from e
        try:
            self._open()
        except BaseException:
            self._flock.release()
            raise
        self._closed = False

    # -- lifecycle -------------------------------------------------------------------------------
    def close(self) -> None:
        """Write anything pending and release the lock. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                if self._index_stale:
                    with contextlib.suppress(StoreError):
                        self._repair_index()
            finally:
                self._db.close()
                self._flock.release()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the store is closed", "closed")

    def _open(self) -> None:
        self._clean_temp_files()
        self._storage = AtomicJSONStorage(self.path, "the games index")
        self._db = TinyDB(storage=lambda: self._storage)
        # no query cache: the storage may be rolled back after a failed write
        self._games_t: Table = self._db.table("games", cache_size=0)
        self._players_t: Table = self._db.table("players", cache_size=0)
        self._settings_t: Table = self._db.table("settings", cache_size=0)
        self._notices_t: Table = self._db.table("notices", cache_size=0)
        pending: list[Notice] = []
        fresh = self._load_index(pending)
        self._migrate_index()
        self._read_entries()
        try:
            with self._storage.batch():
                self._reconcile(pending)
                self._persist_notices(pending)
        except StoreError as e:  # e.g. a read-only folder: start anyway, with what is read
            self._index_stale = True
            pending.append(
                self._notice(
                    "index_write_failed",
                    f"The games list could not be updated ({e.message}); it is rewritten at "
                    "the next save or start.",
                    path=self.path,
                )
            )
        for n in pending:
            self._record(n, persist=False)
        if fresh and not self._entries:
            return
        newest = self._newest_backup_time()
        age = None if newest is None else time.time() - newest
        if age is None or age < 0 or age >= self.backup_interval:  # age < 0: the clock went back
            self._auto_backup("open")
        else:
            self._last_backup = time.monotonic() - age

    def _clean_temp_files(self) -> None:
        pats = [(self.path.parent, f".{self.path.name}.")]
        if self.games_dir.is_dir():
            pats.append((self.games_dir, "."))
        for folder, prefix in pats:
            with contextlib.suppress(OSError), os.scandir(folder) as it:
                for e in it:
                    if e.name.startswith(prefix) and e.name.endswith(".tmp") and e.is_file():
                        with contextlib.suppress(OSError):
                            os.unlink(e.path)
        if self.backups_dir.is_dir():
            with contextlib.suppress(OSError), os.scandir(self.backups_dir) as it:
                for e in it:
                    if e.name.startswith(".tmp-") and e.is_dir():
                        shutil.rmtree(e.path, ignore_errors=True)

    # -- the index -------------------------------------------------------------------------------
    def _new_index(self) -> dict[str, Any]:
        meta = {"schema_version": SCHEMA_VERSION, "created": g.now_iso()}
        return {"meta": {"1": meta}}

    @staticmethod
    def _check_index(data: Any) -> None:
        if not isinstance(data, dict):
            raise _Corrupt("not an object")
        meta = data.get("meta")
        if not isinstance(meta, dict) or not isinstance(meta.get("1"), dict):
            raise _Corrupt("no meta table")
        v = meta["1"].get("schema_version")
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            raise _Corrupt("no schema version")
        for name in ("games", "players", "settings", "notices"):
            if name in data and not isinstance(data[name], dict):
                raise _Corrupt(f"table {name} is not an object")

    def _load_index(self, pending: list[Notice]) -> bool:
        """Load (or recover, or create) the index. Returns True for a brand-new store."""
        try:
            data = self._storage.load()
            if data is not None:
                self._check_index(data)
                return False
        except (ValueError, UnicodeDecodeError, OSError) as e:
            problem = str(e) if not isinstance(e, OSError) else (e.strerror or str(e))
            moved = self._move_aside(self.path)
            restored = self._restore_index()
            if restored is not None:
                pending.append(
                    self._notice(
                        "index_recovered",
                        f"The games index could not be read ({problem}); it was moved to "
                        f"{moved.name} and the backup of {restored.name} was restored. Rounds "
                        "saved since then are taken from the games' own files.",
                        moved_to=moved,
                        restored_from=restored,
                    )
                )
                return False
            self._write_index(self._new_index())
            pending.append(
                self._notice(
                    "index_reset",
                    f"The games index could not be read ({problem}) and no backup was usable; "
                    f"it was moved to {moved.name}. Games are read back from their own files; "
                    "settings start afresh.",
                    moved_to=moved,
                )
            )
            return False
        # no index file
        has_games = self.games_dir.is_dir() and any(
            n.endswith(".json") for n in os.listdir(self.games_dir)
        )
        if has_games:
            restored = self._restore_index()
            if restored is None:
                self._write_index(self._new_index())
            pending.append(
                self._notice(
                    "index_rebuilt",
                    "The games index was missing; it was "
                    + (f"restored from the backup of {restored.name} and " if restored else "")
                    + "rebuilt from the games' own files.",
                    restored_from=restored,
                )
            )
            return False
        self._write_index(self._new_index())
        return True

    def _write_index(self, data: dict[str, Any]) -> None:
        atomic_write(self.path, _dumps(data), "the games index")
        self._storage.set(data)

    def _restore_index(self) -> Path | None:
        for snap in self._snapshots(newest_first=True):
            candidate = snap / self.path.name
            try:
                raw = candidate.read_bytes()
                data = json.loads(raw.decode("utf-8"))
                self._check_index(data)
            except (OSError, ValueError):
                continue
            self._write_index(data)
            return snap
        return None

    def _migrate_index(self) -> None:
        data = self._storage.read()
        assert data is not None
        version = int(data["meta"]["1"]["schema_version"])
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"the data in {self.path} was written by a newer version of the app (schema "
                f"{version}; this one knows {SCHEMA_VERSION}); update the app — nothing was "
                "changed",
                "newer_schema",
                self.path,
            )
        if version == SCHEMA_VERSION:
            return
        backup = self._snapshot(f"before-schema-{SCHEMA_VERSION}")
        data = json.loads(_dumps(data))
        while version < SCHEMA_VERSION:
            step = MIGRATIONS.get(version)
            if step is not None:
                data = step(data)
            version += 1
            data["meta"]["1"]["schema_version"] = version
        self._check_index(data)
        self._write_index(data)
        self._record(
            self._notice(
                "migrated",
                f"The data was updated to the app's new format (schema {SCHEMA_VERSION}); a "
                f"backup was kept in {backup.name}.",
                restored_from=backup,
            )
        )

    def _read_entries(self) -> None:
        self._entries.clear()
        for doc in self._games_t.all():
            try:
                summary = GameSummary.from_dict(doc)
                size, mtime = doc["file"]
                self._entries[summary.id] = _Entry(doc.doc_id, summary, (int(size), int(mtime)))
            except (KeyError, TypeError, ValueError):
                continue  # a damaged summary: rebuilt from the game's file by _reconcile
        self._players = {
            str(d["name"]): str(d.get("last_used", ""))
            for d in self._players_t.all()
            if isinstance(d.get("name"), str)
        }

    def _reconcile(self, pending: list[Notice]) -> None:
        """Make the index agree with the game files (inside a batch)."""
        files: dict[str, tuple[int, int]] = {}
        tombs: list[str] = []
        if self.games_dir.is_dir():
            with os.scandir(self.games_dir) as it:
                for e in it:
                    name = e.name
                    if name.endswith(".json") and _ID.fullmatch(name[:-5]):
                        info = e.stat()
                        files[name[:-5]] = (info.st_size, info.st_mtime_ns)
                    elif name.endswith(".json.deleted") and _ID.fullmatch(name[:-13]):
                        tombs.append(name[:-13])
        for gid in tombs:
            if gid in files:  # a game restored after the delete began: keep it
                continue
            if gid in self._entries:
                self._games_t.remove(doc_ids=[self._entries.pop(gid).doc_id])
            with contextlib.suppress(OSError):
                os.unlink(self._game_path(gid).with_name(f"{gid}.json.deleted"))
        docs = {d.doc_id for d in self._games_t.all()}
        stray = docs - {e.doc_id for e in self._entries.values()}
        if stray:
            self._games_t.remove(doc_ids=list(stray))
        for gid in list(self._entries):
            if gid not in files:
                try:
                    game = self._load_recovering(gid, pending)
                except StoreError:
                    continue
                files[gid] = _stat(self._game_path(gid))
                self._put_entry(game, files[gid])
        for gid, st in files.items():
            entry = self._entries.get(gid)
            if entry is not None and entry.stat == st:
                continue
            try:
                game = self._load_recovering(gid, pending)
            except StoreError:
                continue
            self._put_entry(game, _stat(self._game_path(gid)))
        for entry_ in self._entries.values():
            for name in entry_.summary.players:
                if name not in self._players:
                    self._players[name] = entry_.summary.created
                    self._players_t.insert({"name": name, "last_used": entry_.summary.created})

    def _put_entry(self, game: Game, stat: tuple[int, int]) -> None:
        """Upsert the summary of ``game`` in the index table (caller batches and commits)."""
        summary = g.summarize(game)
        doc = summary.to_dict()
        doc["file"] = list(stat)
        old = self._entries.get(game.id)
        if old is not None:
            self._games_t.upsert(Document(doc, doc_id=old.doc_id))
            doc_id = old.doc_id
        else:
            doc_id = self._games_t.insert(doc)
        self._entries[game.id] = _Entry(doc_id, summary, stat)

    def _repair_index(self) -> None:
        """Rewrite the games and players tables from memory (after a failed index write)."""
        with self._storage.batch():
            self._games_t.truncate()
            for gid, e in list(self._entries.items()):
                doc = e.summary.to_dict()
                doc["file"] = list(e.stat)
                self._entries[gid] = dataclasses.replace(e, doc_id=self._games_t.insert(doc))
            self._players_t.truncate()
            self._players_t.insert_multiple(
                {"name": n, "last_used": t} for n, t in self._players.items()
            )
        self._index_stale = False

    def _commit_index(self, change: Callable[[], object]) -> None:
        """Apply ``change`` to the index tables and write once. The game file is already saved:
        if the index write fails, memory keeps the change and the index is rewritten later."""
        self._storage.durable = False  # summaries and names: rebuilt from the game files
        try:
            with self._storage.batch():
                if self._index_stale:
                    self._repair_index()
                change()
        except StoreError as e:
            self._index_stale = True
            self._record(
                self._notice(
                    "index_write_failed",
                    f"The games list could not be updated ({e.message}); the game itself is "
                    "saved. The list is rewritten at the next save or start.",
                    path=self.path,
                ),
                persist=False,
            )
        finally:
            self._storage.durable = True

    # -- notices ---------------------------------------------------------------------------------
    @staticmethod
    def _notice(
        code: str,
        message: str,
        path: Path | None = None,
        moved_to: Path | None = None,
        restored_from: Path | None = None,
    ) -> Notice:
        return Notice(
            code,
            message,
            g.now_iso(),
            str(path) if path else None,
            str(moved_to) if moved_to else None,
            str(restored_from) if restored_from else None,
        )

    def _record(self, notice: Notice, persist: bool = True) -> None:
        self.notices.append(notice)
        if persist:
            with contextlib.suppress(StoreError), self._storage.batch():
                self._persist_notices([notice])

    def _persist_notices(self, notices: list[Notice]) -> None:
        if not notices:
            return
        self._notices_t.insert_multiple(dataclasses.asdict(n) for n in notices)
        ids = sorted(d.doc_id for d in self._notices_t.all())
        if len(ids) > MAX_NOTICES:
            self._notices_t.remove(doc_ids=ids[:-MAX_NOTICES])

    def dismiss_notices(self) -> None:
        """Empty :attr:`notices` (the UI has shown them)."""
        with self._lock:
            self.notices.clear()

    def notice_log(self) -> list[Notice]:
        """The stored notices of this and earlier runs (the last :data:`MAX_NOTICES`)."""
        with self._lock:
            out = []
            for d in self._notices_t.all():
                with contextlib.suppress(TypeError):
                    out.append(Notice(**d))
            return out

    # -- files -----------------------------------------------------------------------------------
    def _move_aside(self, path: Path) -> Path:
        target = path.with_name(f"{path.name}.corrupt-{_stamp_local()}")
        n = 1
        while target.exists():
            target = path.with_name(f"{path.name}.corrupt-{_stamp_local()}-{n}")
            n += 1
        try:
            os.rename(path, target)
        except OSError as e:
            raise StoreError(
                f"{path} cannot be read and cannot be moved aside ({e.strerror or e}); fix "
                "the folder's permissions or move the file away by hand",
                "corrupt",
                path,
            ) from e
        _fsync_dir(path.parent)
        return target

    def _game_path(self, gid: str) -> Path:
        return self.games_dir / f"{gid}.json"

    @staticmethod
    def _parse_game(raw: bytes, gid: str) -> Game:
        """Parse a stored game file. Raises _Corrupt (bad data) or StoreError (newer schema)."""
        try:
            data = json.loads(raw.decode("utf-8"))
            doc = data["game"]["1"]
            if not isinstance(doc, dict):
                raise _Corrupt("no game document")
            schema = doc.get("schema", 1)
            if not isinstance(schema, int) or schema < 1:
                raise _Corrupt("bad schema")
        except (ValueError, KeyError, TypeError) as e:
            raise _Corrupt(str(e) or type(e).__name__) from None
        if schema > SCHEMA_VERSION:
            raise StoreError(
                f"game {gid} was saved by a newer version of the app; update the app",
                "newer_schema",
            )
        doc = dict(doc)
        while schema < SCHEMA_VERSION:
            step = GAME_MIGRATIONS.get(schema)
            if step is not None:
                doc = step(doc)
            schema += 1
        doc.pop("schema", None)
        try:
            game = g.game_from_dict(doc)
        except g.GameError as e:
            raise _Corrupt(e.message) from None
        if game.id != gid:
            raise _Corrupt("the file holds another game")
        return game

    def _newest_copy(self, gid: str) -> tuple[Path, bytes, Game] | None:
        """The backup copy of a game with the newest content: the highest ``version`` (every
        save raises it by one, whatever the clock says), the newest backup among equals; only
        copies that read back correctly count. None when no backup holds a readable copy.

        Each copy's version is read from its JSON first; the full check (the game rebuilt and
        validated) runs on the best candidates only, until one passes."""
        found: list[tuple[int, int, Path, bytes]] = []
        for order, snap in enumerate(self._snapshots(newest_first=True)):
            try:
                raw = (snap / "games" / f"{gid}.json").read_bytes()
                version = json.loads(raw.decode("utf-8"))["game"]["1"].get("version", 0)
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                continue
            if isinstance(version, int) and not isinstance(version, bool):
                found.append((version, -order, snap, raw))
        found.sort(key=lambda c: (c[0], c[1]), reverse=True)
        for _version, _order, snap, raw in found:
            try:
                return snap, raw, self._parse_game(raw, gid)
            except (_Corrupt, StoreError):
                continue
        return None

    def _write_game(self, game: Game) -> tuple[int, int]:
        data, texts = _game_file(game, self._round_texts.get(game.id, {}))
        path = self._game_path(game.id)
        try:
            self.games_dir.mkdir(exist_ok=True)
        except OSError as e:
            raise _failure(e, "the game", path) from e
        atomic_write(path, data, "the game")
        self._keep_texts(game.id, texts)
        return _stat(path)

    def _keep_texts(self, gid: str, texts: dict[int, tuple[Round, bytes]]) -> None:
        """Remember the encoded rounds of the game just written (the newest last; only the
        :data:`ROUND_TEXT_GAMES` games written last are kept)."""
        self._round_texts.pop(gid, None)
        if texts:
            self._round_texts[gid] = texts
        while len(self._round_texts) > ROUND_TEXT_GAMES:
            del self._round_texts[next(iter(self._round_texts))]

    def _load_recovering(self, gid: str, pending: list[Notice] | None = None) -> Game:
        """Read a game file; a broken or missing one is moved aside / restored from a backup."""
        path = self._game_path(gid)
        note = pending.append if pending is not None else self._record
        problem = "the file is missing"
        moved: Path | None = None
        try:
            return self._parse_game(path.read_bytes(), gid)
        except FileNotFoundError:
            pass
        except (_Corrupt, OSError) as e:
            problem = f"the file could not be read ({e.strerror if isinstance(e, OSError) else e})"
            moved = self._move_aside(path)
        name = self._entries[gid].summary if gid in self._entries else None
        label = f"{', '.join(name.players)} ({name.variant})" if name else gid
        best = self._newest_copy(gid)
        if best is not None:
            snap, raw, game = best
            self.games_dir.mkdir(exist_ok=True)
            atomic_write(path, raw, "the restored game")
            note(
                self._notice(
                    "game_recovered",
                    f"The game of {label}: {problem}"
                    + (f"; it was moved to {moved.name}" if moved else "")
                    + f". The backup of {snap.name} was restored; rounds entered after it are "
                    "missing.",
                    path=path,
                    moved_to=moved,
                    restored_from=snap,
                )
            )
            return game
        note(
            self._notice(
                "game_lost",
                f"The game of {label}: {problem}"
                + (f"; it was moved to {moved.name}" if moved else "")
                + ". No backup holds it.",
                path=path,
                moved_to=moved,
            )
        )
        if gid in self._entries and pending is None:
            entry = self._entries.pop(gid)
            self._commit_index(lambda: self._games_t.remove(doc_ids=[entry.doc_id]))
        elif gid in self._entries:
            self._games_t.remove(doc_ids=[self._entries.pop(gid).doc_id])
        raise GameNotFoundError(f"the game {gid} could not be read and no backup holds it")

    # -- backups ---------------------------------------------------------------------------------
    @staticmethod
    def _snapshot_order(name: str) -> tuple[int, int, str] | None:
        """The sort key of a backup folder name (None: not a backup): numbered folders by their
        sequence number, after every folder of an older app version (those in name order)."""
        m = _SNAPSHOT.fullmatch(name)
        if m is not None:
            return (1, int(m.group(1)), name)
        if _LEGACY_SNAPSHOT.fullmatch(name):
            return (0, 0, name)
        return None

    def _snapshots(self, newest_first: bool = False) -> list[Path]:
        """The backup folders in sequence order (oldest first unless ``newest_first``)."""
        try:
            names = os.listdir(self.backups_dir)
        except OSError:
            return []
        keyed = [(k, n) for n in names if (k := self._snapshot_order(n)) is not None]
        keyed.sort(reverse=newest_first)
        return [self.backups_dir / n for _k, n in keyed]

    def _next_sequence(self) -> int:
        seqs = [
            int(m.group(1))
            for p in self._snapshots()
            if (m := _SNAPSHOT.fullmatch(p.name)) is not None
        ]
        return max(seqs, default=0) + 1

    def _newest_backup_time(self) -> float | None:
        """When the newest backup was made, by its name (epoch seconds; None: no backup). Only
        to decide whether a backup is due; a time in the future means the clock went back."""
        snaps = self._snapshots(newest_first=True)
        if not snaps:
            return None
        name = snaps[0].name
        m = _SNAPSHOT.fullmatch(name)
        stamp, fmt = (m.group(2), "%Y%m%dT%H%M%S") if m else (name[:23], "%Y%m%d-%H%M%S-%f")
        try:
            return datetime.strptime(stamp, fmt).replace(tzinfo=UTC).timestamp()
        except ValueError:
            return None

    def _snapshot(self, reason: str) -> Path:
        """Copy the index and every game file into a new backup folder; prune old ones.

        Raises:
            StoreError: the backup could not be written (the partial folder is removed).
        """
        reason = re.sub(r"[^a-z0-9-]", "-", reason.lower())[:40] or "backup"
        prev = self._snapshots(newest_first=True)
        prev_dir = prev[0] if prev else None
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        name = f"{self._next_sequence():08d}-{stamp}Z-{reason}"
        tmp = self.backups_dir / f".tmp-{name}"
        try:
            (tmp / "games").mkdir(parents=True)
            if self.path.exists():
                self._copy(
                    self.path, tmp / self.path.name, prev_dir / self.path.name if prev_dir else None
                )
            if self.games_dir.is_dir():
                with os.scandir(self.games_dir) as it:
                    for e in it:
                        if e.name.endswith(".json") and _ID.fullmatch(e.name[:-5]):
                            old = prev_dir / "games" / e.name if prev_dir else None
                            self._copy(Path(e.path), tmp / "games" / e.name, old)
            final = self.backups_dir / name
            os.rename(tmp, final)
            _fsync_dir(self.backups_dir)
        except OSError as e:
            shutil.rmtree(tmp, ignore_errors=True)
            raise _failure(e, "a backup", tmp) from e
        for old_snap in self._snapshots()[: -self.max_backups]:
            # renamed first (atomic), so a crash half-way through the removal never leaves a
            # half-emptied folder that still looks like a backup (``.tmp-*`` go at the next open)
            doomed = self.backups_dir / f".tmp-del-{old_snap.name}"
            try:
                os.rename(old_snap, doomed)
            except OSError:
                continue
            shutil.rmtree(doomed, ignore_errors=True)
        self._last_backup = time.monotonic()
        self._writes = 0
        return final

    @staticmethod
    def _copy(src: Path, dst: Path, prev: Path | None) -> None:
        """Copy ``src`` to ``dst``, or hard-link ``prev`` (a backup copy) when it is the same
        version (size and mtime kept by ``copy2``)."""
        if prev is not None:
            try:
                a, b = os.stat(src), os.stat(prev)
                if (a.st_size, a.st_mtime_ns) == (b.st_size, b.st_mtime_ns):
                    os.link(prev, dst)
                    return
            except OSError:
                pass
        shutil.copy2(src, dst)

    def _auto_backup(self, reason: str) -> None:
        try:
            self._snapshot(reason)
        except StoreError as e:
            self._last_backup = time.monotonic()  # do not retry on every write
            self._writes = 0
            self._record(
                self._notice("backup_failed", f"The automatic backup failed: {e.message}"),
                persist=False,
            )

    def _after_write(self) -> None:
        self._writes += 1
        if (
            self._writes >= self.backup_every
            or time.monotonic() - self._last_backup >= self.backup_interval
        ):
            self._auto_backup("auto")

    def backup_now(self, reason: str = "manual") -> Path:
        """Make a backup now (kept among the last :data:`MAX_BACKUPS`); returns its folder.

        Raises:
            StoreError: the backup could not be written.
        """
        with self._lock:
            self._check_open()
            return self._snapshot(reason)

    def backups(self) -> list[Path]:
        """The backup folders, newest first."""
        with self._lock:
            return self._snapshots(newest_first=True)

    # -- games -----------------------------------------------------------------------------------
    def list_games(self) -> list[GameSummary]:
        """Every stored game's summary, most recently changed first (``finished`` tells history
        from games to resume)."""
        with self._lock:
            self._check_open()
            return sorted(
                (e.summary for e in self._entries.values()),
                key=lambda s: (s.updated, s.created, s.id),
                reverse=True,
            )

    def _entry(self, gid: str) -> _Entry:
        if not isinstance(gid, str) or not _ID.fullmatch(gid) or gid not in self._entries:
            raise GameNotFoundError(f"there is no game {str(gid)[:40]!r}")
        return self._entries[gid]

    def load_game(self, game_id: str) -> Game:
        """The stored game (a fresh object each call).

        Raises:
            GameNotFoundError: unknown id, or the file is gone with no backup (a notice says so).
            StoreError: the game was saved by a newer app (``newer_schema``).
        """
        with self._lock:
            self._check_open()
            entry = self._entry(game_id)
            before = len(self.notices)
            game = self._load_recovering(game_id)
            if len(self.notices) > before or game.version != entry.summary.version:
                stat = _stat(self._game_path(game_id))
                self._commit_index(lambda: self._put_entry(game, stat))
            return game

    def create_game(self, game: Game) -> Game:
        """Store a new game (from :func:`app.games.new_game` or :func:`app.games.import_json`).

        Returns:
            The stored game, ``version`` 1.

        Raises:
            StoreError: ``exists`` (the id is taken), ``bad_id``, or a write failure (nothing
                stored).
        """
        with self._lock:
            self._check_open()
            if not isinstance(game.id, str) or not _ID.fullmatch(game.id):
                raise StoreError(f"bad game id {str(game.id)[:40]!r}", "bad_id")
            if game.id in self._entries or self._game_path(game.id).exists():
                raise StoreError(f"a game with id {game.id} exists already", "exists")
            new = dataclasses.replace(game, version=1)
            new._cache = game._cache
            stat = self._write_game(new)
            now = g.now_iso()

            def change() -> None:
                self._put_entry(new, stat)
                self._touch_players(new.players, now)

            self._commit_index(change)
            self._after_write()
            return new

    def _touch_players(self, names: list[str], now: str) -> None:
        q = Query()
        for name in names:
            self._players_t.upsert({"name": name, "last_used": now}, q.name == name)
            self._players[name] = now

    def save_game(self, game: Game, expected_version: int | None = None) -> Game:
        """Store a changed game if nobody saved it since ``expected_version``.

        Args:
            game: the changed game.
            expected_version: the version the caller loaded (default: ``game.version``).

        Returns:
            The stored game: ``version`` one higher, ``updated`` now.

        Raises:
            ConflictError: the stored version differs (``.current`` is the stored game).
            GameNotFoundError: the game was deleted.
            StoreError: a write failure; nothing changed (the old game is still stored).
        """
        with self._lock:
            self._check_open()
            entry = self._entry(game.id)
            expected = game.version if expected_version is None else expected_version
            if entry.summary.version != expected:
                raise ConflictError(self._load_recovering(game.id), expected)
            new = dataclasses.replace(game, version=expected + 1, updated=g.now_iso())
            new._cache = game._cache
            stat = self._write_game(new)
            fresh = [n for n in new.players if n not in self._players]  # a rename, a merge

            def change() -> None:
                self._put_entry(new, stat)
                if fresh:
                    self._touch_players(fresh, new.updated)

            self._commit_index(change)
            self._after_write()
            return new

    def delete_game(self, game_id: str) -> None:
        """Delete a game (its backups keep it until they roll over).

        Raises:
            GameNotFoundError: unknown id. StoreError: the file could not be removed.
        """
        with self._lock:
            self._check_open()
            entry = self._entry(game_id)
            path = self._game_path(game_id)
            tomb = path.with_name(f"{path.name}.deleted")
            try:
                os.replace(path, tomb)
            except FileNotFoundError:
                pass
            except OSError as e:
                raise _failure(e, "the deletion", path) from e
            _fsync_dir(self.games_dir)
            del self._entries[game_id]
            self._round_texts.pop(game_id, None)
            self._commit_index(lambda: self._games_t.remove(doc_ids=[entry.doc_id]))
            if not self._index_stale:
                with contextlib.suppress(OSError):
                    os.unlink(tomb)
            self._after_write()

    # -- players and settings --------------------------------------------------------------------
    def known_players(self) -> list[str]:
        """Names used in earlier games, most recently used first (then alphabetical). Names of
        deleted games stay, to be offered again; spellings renamed away do not
        (:meth:`forget_players`)."""
        with self._lock:
            self._check_open()
            names = sorted(self._players, key=str.casefold)
            names.sort(key=lambda n: self._players[n], reverse=True)
            return names

    def forget_players(self, names: Iterable[str]) -> None:
        """Stop offering ``names`` (exact spellings) as known players; names a stored game
        still uses are kept. Used after a rename or a merge.

        Raises:
            StoreError: the index could not be written (memory keeps the change and the index
                is rewritten later).
        """
        with self._lock:
            self._check_open()
            in_games = {n for e in self._entries.values() for n in e.summary.players}
            gone = [n for n in dict.fromkeys(names) if n in self._players and n not in in_games]
            if not gone:
                return
            for n in gone:
                del self._players[n]
            q = Query()
            self._commit_index(lambda: self._players_t.remove(q.name.one_of(gone)))

    def get_setting(self, key: str, default: Any = None) -> Any:
        """A stored setting (JSON value), or ``default``."""
        with self._lock:
            self._check_open()
            doc = self._settings_t.get(Query().key == key)
            if doc is None or isinstance(doc, list):
                return default
            return json.loads(json.dumps(doc.get("value")))

    def set_setting(self, key: str, value: Any) -> None:
        """Store a setting.

        Raises:
            StoreError: ``bad_value`` (not JSON data, or a key that is not short text), or a
                write failure (the old value stays).
        """
        if not isinstance(key, str) or not 0 < len(key) <= 100:
            raise StoreError("a setting name must be text of 1–100 characters", "bad_value")
        try:
            value = json.loads(json.dumps(value, allow_nan=False))
        except (TypeError, ValueError) as e:
            raise StoreError(f"setting {key!r} must be plain JSON data ({e})", "bad_value") from e
        with self._lock:
            self._check_open()
            with self._storage.batch():
                if self._index_stale:
                    self._repair_index()
                self._settings_t.upsert({"key": key, "value": value}, Query().key == key)
