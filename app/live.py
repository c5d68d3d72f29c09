"""The live table: several browser sessions on one game, without Flet.

Every browser tab is a Flet session in this one process (``/work/shared/FLET_NOTES.md``), so
everything here is in-process state:

- :class:`Hub` — process-wide publish/subscribe. A session's store (:class:`SessionStore`)
  publishes a :class:`Change` after every write (round saved, edited, deleted, undone; game
  created or deleted; access settings changed); every *other* subscribed session gets it and
  refreshes the screen it shows from the store (``app/ui/table/sharing.py``). Messages carry ids and
  versions only — no names, no codes — and the hub logs nothing about them.
- :func:`classify` and :func:`merge` — optimistic concurrency on top of
  :meth:`app.store.Store.save_game`: when a save meets :class:`~app.store.ConflictError`,
  a pure append, or an edit/delete of a round nobody else touched, is re-applied on the stored
  game ("rebased"); a true conflict (the same round changed or deleted by both, an undo, a
  change of the game itself) or the very same round entered twice is reported, never
  overwritten.
- :class:`Access`, :class:`Visitor`, :class:`SessionStore` — who may see and change what.
  The host — a session whose real connection comes from this computer (loopback, see
  :func:`is_loopback`) or whose browser gave this run's host key (:func:`host_key_ok`) —
  may do anything; what the browser says about itself (``page.client_ip``, the route …)
  plays no part (``app/guard.py``).
  Any other session (a phone on the Wi-Fi) must give the game's join code
  (:data:`CODE_LENGTH` characters of :data:`CODE_ALPHABET`) to change that game; without it
  it sees the game read-only or not at all, as the host chooses (setting
  :data:`VISITORS_SETTING`: :data:`VIEW` or :data:`NOTHING`). Starting, importing and deleting
  games, and the sharing settings, are the host's. The checks are made in the store each
  session writes through, so a hidden button is not the only guard.

Join codes, the host key and the player names a session sees are handed to
:mod:`app.log_hygiene`, which keeps them out of every log. The share screen's QR code is drawn
from ``qrcode``'s matrix in ``app/ui/table/sharing.py``.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import functools
import hmac
import ipaddress
import itertools
import logging
import re
import secrets
import threading
import time
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from app import games, i18n
from app.games import Game, GameSummary
from app.guard_names import name_problem, skeleton, symbol_skeleton
from app.log_hygiene import remember_names, remember_secret
from app.store import ConflictError, StoreError

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "HUB",
    "NOTHING",
    "SERVER",
    "VIEW",
    "VISITORS_SETTING",
    "Access",
    "AccessError",
    "Change",
    "Edit",
    "Hub",
    "Merge",
    "ServerInfo",
    "SessionStore",
    "Visitor",
    "classify",
    "host_key_ok",
    "host_pass",
    "host_pass_ok",
    "host_url",
    "check_joined_name",
    "new_host_key",
    "is_loopback",
    "merge",
    "new_join_code",
    "normalize_code",
]

log = logging.getLogger("app.live")

# -- the server -----------------------------------------------------------------------------------


@dataclass
class ServerInfo:
    """Where ``python -m app`` listens (set by :mod:`app.__main__`).

    Attributes:
        host: the address bound (``127.0.0.1`` by default; ``0.0.0.0`` shares on the network).
        port: the TCP port.
    """

    host: str = "127.0.0.1"
    port: int = 8550

    @property
    def shared(self) -> bool:
        """True when devices other than this computer can reach the app."""
        return not is_loopback(self.host) and self.host not in ("", "localhost")


SERVER = ServerInfo()
"""The process's server address (changed in place by ``python -m app``)."""


def address_key(ip: str | None) -> str:
    """What per-address limits count by: an IPv4 address itself (also written IPv4-mapped,
    ``::ffff:192.0.2.7``), an IPv6 address's /64 network (``2001:db8:1:2::/64``: one phone
    may take any of its network's 2⁶⁴ addresses), anything else as given ("" for none)."""
    if not ip:
        return ""
    try:
        addr = ipaddress.ip_address(ip.split("%")[0])
    except ValueError:
        return ip
    if isinstance(addr, ipaddress.IPv6Address):
        if addr.ipv4_mapped is not None:
            return str(addr.ipv4_mapped)
        return str(ipaddress.IPv6Network((addr, 64), strict=False))
    return str(addr)


def is_loopback(ip: str | None) -> bool:
    """Is ``ip`` a loopback address (``127.0.0.0/8``, ``::1``, ``::ffff:127.x``)?

    Meant for the *real* peer address of a connection (the ASGI scope of the WebSocket,
    :func:`app.guard.peer_of`), never for anything a client says about itself. Packets from
    a loopback address never come from another device. An empty or missing address, or a
    name such as ``localhost``, is not one (unknown means: not the host).
    """
    if not ip:
        return False
    try:
        addr = ipaddress.ip_address(ip.split("%")[0])
    except ValueError:
        return False
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        return addr.ipv4_mapped.is_loopback
    return addr.is_loopback


# -- the host key ---------------------------------------------------------------------------------

HOST_KEY_PARAM: Final = "key"
"""The URL parameter of the host key (``http://…:8550/?key=…``)."""
HOST_KEY_PREF: Final = "rummy_referee.host_key"
"""Browser storage key where a browser keeps the host key it was opened with."""
JOINS_PREF: Final = "rummy_referee.joins"
"""Browser storage key of a phone's join tokens (a JSON list)."""
_host_key: str = ""


def new_host_key() -> str:
    """Make the host key of this server run (``secrets``, 32 URL-safe characters) and return it.

    A browser that opens the app with ``?key=<it>`` keeps it in its storage and has the
    host's rights from then on, from any address, until the server restarts.
    """
    global _host_key
    _host_key = secrets.token_urlsafe(24)
    remember_secret(_host_key)
    return _host_key


def host_key_ok(given: object) -> bool:
    """Is ``given`` this run's host key? (False when no key was made.)"""
    if not _host_key or not isinstance(given, str) or len(given) > 128:
        return False
    return hmac.compare_digest(given.encode(), _host_key.encode())


def host_pass() -> str | None:
    """This run's host pass (None when no key was made): 43 URL-safe characters derived from
    the host key (HMAC-SHA256), kept as a cookie by a browser that opened the key URL
    (``app.guard.HostKeyCookie``). It lets that device's connections past its address's
    limits (a ban, the counts of connections and sessions) and gives no rights: those come
    from the key itself, so a pass sent where it should not go (cookies go to every port of
    a name) does not give the key away."""
    if not _host_key:
        return None
    value = pass_for(_host_key)
    remember_secret(value)
    return value


def pass_for(key: str) -> str:
    """The host pass of the host key ``key`` (HMAC-SHA256, URL-safe base64 without padding)."""
    digest = hmac.new(key.encode(), b"rummy-referee: host pass", "sha256").digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def host_pass_ok(given: object) -> bool:
    """Is ``given`` this run's host pass (:func:`host_pass`)?"""
    expected = host_pass()
    if expected is None or not isinstance(given, str) or len(given) > 128:
        return False
    return hmac.compare_digest(given.encode(), expected.encode())


def host_url(base: str) -> str:
    """``base`` (``http://host:port/``) with the host key, or ``base`` when none was made."""
    return f"{base.rstrip('/')}/?{HOST_KEY_PARAM}={_host_key}" if _host_key else base


# -- the hub --------------------------------------------------------------------------------------

ChangeKind = Literal["game", "created", "deleted", "access"]


@dataclass(frozen=True)
class Change:
    """One write, as told to the other sessions.

    Attributes:
        kind: ``game`` (a game was saved: a round added, edited, deleted or undone, the end
            agreed …), ``created``, ``deleted`` (a whole game), ``access`` (the sharing
            settings or a join code changed).
        game_id: the game concerned (None for ``access`` changes of the setting).
        version: the game's stored version after the change (0 for ``deleted``/``access``).
        by: the name the writer gave when joining, or ``""``.
        by_host: the writer is on the host's computer.
        source: the writer's subscription id (it is not told of its own change).
        at: when (``time.time()``, seconds).
    """

    kind: ChangeKind
    game_id: str | None
    version: int = 0
    by: str = ""
    by_host: bool = False
    source: int | None = None
    at: float = field(default_factory=time.time)


Deliver = Callable[[Change], None]
RECENT: Final = 20
"""Changes per game the hub remembers (to say who saved what)."""


class Hub:
    """Process-wide publish/subscribe of :class:`Change` (thread-safe).

    A subscriber is a callable taking the change; it is called in the publisher's thread, so
    a UI subscriber only schedules its refresh (``page.run_task``) and returns. A subscriber
    that raises is dropped (its session is gone).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subs: dict[int, Deliver] = {}
        self._ids = itertools.count(1)
        self._recent: dict[str, deque[Change]] = {}

    def subscribe(self, deliver: Deliver) -> int:
        """Register ``deliver``; returns the subscription id (for :meth:`unsubscribe` and
        :attr:`Change.source`)."""
        with self._lock:
            sid = next(self._ids)
            self._subs[sid] = deliver
            return sid

    def unsubscribe(self, sid: int | None) -> None:
        """Forget a subscription (unknown ids are ignored)."""
        if sid is None:
            return
        with self._lock:
            self._subs.pop(sid, None)

    def publish(self, change: Change) -> int:
        """Tell every subscriber but ``change.source`` about ``change``.

        Returns:
            How many subscribers were told.
        """
        with self._lock:
            if change.game_id is not None:
                if change.kind == "deleted":
                    self._recent.pop(change.game_id, None)
                else:
                    self._recent.setdefault(change.game_id, deque(maxlen=RECENT)).append(change)
            targets = [(sid, d) for sid, d in self._subs.items() if sid != change.source]
        told = 0
        for sid, deliver in targets:
            try:
                deliver(change)
                told += 1
            except Exception:  # noqa: BLE001 - a closed session must not stop the others
                log.debug("dropping live subscriber %s", sid, exc_info=True)
                self.unsubscribe(sid)
        return told

    def last(self, game_id: str) -> Change | None:
        """The last change published for ``game_id`` (who saved it, and when)."""
        with self._lock:
            got = self._recent.get(game_id)
            return got[-1] if got else None

    def recent(self, game_id: str) -> list[Change]:
        """The last :data:`RECENT` changes published for ``game_id``, oldest first."""
        with self._lock:
            return list(self._recent.get(game_id, ()))

    def __len__(self) -> int:
        with self._lock:
            return len(self._subs)


HUB = Hub()
"""The hub of this process."""


# -- concurrent edits -----------------------------------------------------------------------------

EditAction = Literal["add", "replace", "delete", "other"]


@dataclass(frozen=True)
class Edit:
    """What one save changed, relative to the game the screen had loaded.

    Attributes:
        action: ``add`` (one round appended), ``replace`` (round ``index`` entered anew),
            ``delete`` (round ``index`` removed), ``other`` (undo, game end, options, several
            changes: anything else).
        index: 0-based round index in the loaded game (``add``: the new round's index).
        entry: the entry of the new or replaced round.
    """

    action: EditAction
    index: int | None = None
    entry: dict[str, Any] | None = None


_GAME_FIELDS = ("players", "options", "agreed_rounds", "agreed_target", "ended", "notes")


def classify(base: Game | None, new: Game) -> Edit:
    """What ``new`` changed compared with ``base`` (the game as loaded).

    Recognised from the rounds and the fresh last step of the undo log that
    :func:`app.games.add_round`, :func:`~app.games.replace_round` and
    :func:`~app.games.delete_round` write; an :func:`~app.games.undo` (which removes a step)
    or any change of the game's own fields is ``other``.
    """
    if base is None or base.id != new.id or not new.undo_log:
        return Edit("other")
    if any(getattr(base, f) != getattr(new, f) for f in _GAME_FIELDS):
        return Edit("other")
    step = new.undo_log[-1]
    if step in base.undo_log:  # undo: the log only lost a step
        return Edit("other")
    old, now, i = base.rounds, new.rounds, step.index
    if step.action == "add" and len(now) == len(old) + 1 and i == len(old) and now[:-1] == old:
        return Edit("add", i, dict(now[i].entry))
    if (
        step.action == "replace"
        and len(now) == len(old)
        and 0 <= i < len(old)
        and step.before == old[i]
        and now[:i] == old[:i]
        and now[i + 1 :] == old[i + 1 :]
    ):
        return Edit("replace", i, dict(now[i].entry))
    if (
        step.action == "delete"
        and len(now) == len(old) - 1
        and 0 <= i < len(old)
        and step.before == old[i]
        and now == old[:i] + old[i + 1 :]
    ):
        return Edit("delete", i)
    return Edit("other")


MergeOutcome = Literal["rebased", "duplicate", "conflict"]


@dataclass(frozen=True)
class Merge:
    """How a save that met a conflict can go on.

    Attributes:
        outcome: ``rebased`` (``game`` is the change re-applied on the stored game: save it
            with ``current.version``), ``duplicate`` (the round just entered equals a round
            someone saved meanwhile: round ``their_index``), ``conflict`` (both changed the
            same round, or the change cannot be re-applied: ask the person).
        edit: what the refused save changed (:func:`classify`).
        game: the rebased game (``rebased`` only).
        their_index: the round of the stored game that clashes (0-based): the same round as
            they edited it (found by its entry time, which edits keep), the round they saved
            (``duplicate``), or None (they deleted it; or undo and the like).
    """

    outcome: MergeOutcome
    edit: Edit
    game: Game | None = None
    their_index: int | None = None


def merge(base: Game | None, new: Game, current: Game) -> Merge:
    """Re-apply the change ``base`` → ``new`` on ``current`` (the stored game) if it does not
    clash with what changed in between.

    - ``add``: appended again on ``current`` (scored by the judge anew: the round number may
      have changed), unless a round added since ``base`` has the very same entry
      (``duplicate``: probably two phones entering the same round) or the game is over.
    - ``replace``/``delete`` of a round: applied to that round in ``current`` if the round is
      still there unchanged (found by content, so it may have moved when someone deleted an
      earlier round); if someone else edited or deleted it, ``conflict``.
    - anything else (undo, game end, …): ``conflict``.
    """
    edit = classify(base, new)
    if base is None or edit.action == "other":
        return Merge("conflict", edit, their_index=_last_index(current))
    if edit.action == "add":
        assert edit.entry is not None
        known = base.rounds
        for j, r in enumerate(current.rounds):
            if r not in known and r.entry == edit.entry:
                return Merge("duplicate", edit, their_index=j)
        try:
            return Merge("rebased", edit, games.add_round(current, edit.entry))
        except games.GameError:
            return Merge("conflict", edit, their_index=_last_index(current))
    assert edit.index is not None
    target = base.rounds[edit.index]
    where = [j for j, r in enumerate(current.rounds) if r == target]
    if len(where) != 1:  # changed (or gone): find it by when it was entered, kept by edits
        same = [
            j
            for j, r in enumerate(current.rounds)
            if r.time == target.time and r not in base.rounds
        ]
        return Merge("conflict", edit, their_index=same[0] if len(same) == 1 else None)
    j = where[0]
    try:
        if edit.action == "replace":
            assert edit.entry is not None
            rebased = games.replace_round(current, j, edit.entry)
        else:
            rebased = games.delete_round(current, j)
    except games.GameError:
        return Merge("conflict", edit, their_index=j)
    return Merge("rebased", edit, rebased)


def _last_index(game: Game) -> int | None:
    step = games.last_change(game)
    if step is None or step.action in ("end", "limits"):
        return None
    return step.index if step.index < len(game.rounds) else None


def save_merging(
    store: Any, base: Game | None, new: Game, expected_version: int, tries: int = 5
) -> tuple[Game | None, Merge | None, Game | None]:
    """Save ``new`` (made from ``base``, stored at ``expected_version``), re-applying a
    clash-free change on whatever was saved in between.

    Returns:
        ``(stored, merge, current)``: ``stored`` is the saved game or None; ``merge`` is None
        when the save went through at once, else how the conflict was met (``rebased`` when
        ``stored`` is set); ``current`` is the stored game the change met (None at once).

    Raises:
        StoreError: anything but a conflict (access refused, disk full, game deleted).
    """
    game, expected = new, expected_version
    result: Merge | None = None
    current: Game | None = None
    for _ in range(tries):
        try:
            return store.save_game(game, expected), result, current
        except ConflictError as e:
            current = e.current
            result = merge(base, new, current)
            if result.outcome != "rebased" or result.game is None:
                return None, result, current
            game, expected = result.game, current.version
    return None, result, current


# -- access ---------------------------------------------------------------------------------------

VISITORS_SETTING: Final = "share.visitors"
"""The store setting: what sessions from other devices may do without a game's join code."""
VIEW: Final = "view"
"""Visitors see every game, read-only."""
NOTHING: Final = "nothing"
"""Visitors see only the games they joined with the code."""
DEFAULT_VISITORS: Final = VIEW

CODE_ALPHABET: Final = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Join code characters: capitals and digits without I, L, O, 0 and 1 (read aloud or typed
on a phone without doubt)."""
CODE_LENGTH: Final = 8
"""Characters of a join code: 31**8 ≈ 8.5e11 codes (39.6 bits), enough that guessing stays
hopeless at the most the server can answer (no global refusal is needed, so nobody can
lock the real players out: ``docs/SECURITY.md``)."""
MAX_TRIES: Final = 5
"""Wrong join codes allowed from one address per :data:`TRY_WINDOW` seconds."""
GLOBAL_PRESSURE: Final = 20
"""Wrong join codes from all addresses together per :data:`TRY_WINDOW` seconds above which
each address gets only :data:`PRESSURE_TRIES` (a guesser with many addresses is slowed;
every address keeps its first tries, so a real player is never refused for others' guesses)."""
PRESSURE_TRIES: Final = 2
TRY_WINDOW: Final = 60.0
MAX_TOKENS: Final = 20
"""Join tokens a phone keeps (one per game joined)."""
TOKEN_MAX: Final = 1_000
"""The longest join token issued or read, in characters: the game id, the MAC and the name in
hex (two characters a byte), so a name of 40 four-byte emoji (386 characters) fits with room;
before, 300 refused names of 29 emoji or more at every reload."""
_TOKEN_KEY: Final = secrets.token_bytes(32)
"""This run's key for join tokens (a restart makes the phones give the code again)."""


class AccessError(StoreError):
    """This session may not do that.

    Attributes:
        reason: ``join_needed`` (the game's join code is needed), ``host_only`` (only the
            host's computer may), ``too_many_tries`` (wrong codes; ``wait`` seconds to go),
            ``bad_name`` (a joining phone's name: ``detail`` says why).
    """

    code = "forbidden"

    def __init__(self, reason: str, message: str, wait: float = 0.0) -> None:
        super().__init__(message)
        self.reason = reason
        self.wait = wait
        self.detail = ""


def new_join_code() -> str:
    """A fresh random join code (``secrets``): :data:`CODE_LENGTH` characters of
    :data:`CODE_ALPHABET`, about 39.6 bits."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def usable_code(code: str | None) -> str | None:
    """``code`` if it is a join code of today's form (:data:`CODE_LENGTH` characters of
    :data:`CODE_ALPHABET`), else None: a shorter code stored by an older version is not
    accepted (the host's share screen makes a new one; phones give the code again after a
    restart anyway)."""
    if code and len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code):
        return code
    return None


def normalize_code(text: str | None) -> str:
    """A typed code as stored: capitals, without spaces or dashes (``"ab c-23"`` → ``"ABC23"``)."""
    return re.sub(r"[\s\-]", "", text or "").upper()[:32]


def _skeleton(text: str) -> str:
    """``text`` as it looks (:func:`app.guard_names.skeleton`)."""
    return skeleton(text)


RESERVED_LABELS: Final = ("The host's computer", "A phone on the network", "Someone")
"""What the app calls writers without a name; nobody may take one, in any language."""


def reserved_names() -> frozenset[str]:
    """Skeletons (:func:`_skeleton`) of :data:`RESERVED_LABELS` in every language."""
    out: set[str] = set()
    for lang in i18n.LANGUAGES:
        with i18n.use_language(lang):
            out.update(_skeleton(i18n._(label)) for label in RESERVED_LABELS)
    return frozenset(s for s in out if s)


HOST_WORDS: Final = (
    "host",
    "admin",
    "gospodarz",
    "gospodyni",
    "komputer gospodarza",
    "hostiteľ",
    "hostiteľka",
    "správca",
    "this computer",
    "ten komputer",
    "tento počítač",
    "referee",
    "sędzia",
    "rozhodca",
)
"""Words that make a joined phone's name pass for the host (English, Polish, Slovak): a
joined name whose skeleton holds one of theirs is refused ("Host's computer", "The host",
"Komputer gospodarz", "Administrator"; also "Ghost": the price of catching every "host"; and
what the app calls the host's side, "This computer", or itself, "Referee")."""


@functools.cache
def host_words() -> frozenset[str]:
    """Skeletons (:func:`_skeleton`) of :data:`HOST_WORDS`."""
    return frozenset(s for s in map(_skeleton, HOST_WORDS) if s)


def _name_key(name: str) -> str:
    """What two joined phones' names are compared by: the skeleton, or for a name without
    letters or digits (emoji) its symbols without what does not show (variation selectors,
    tag characters, joiners: :func:`app.guard_names.symbol_skeleton`), else the name itself,
    casefolded."""
    if not name:
        return ""
    import unicodedata

    return (
        _skeleton(name) or symbol_skeleton(name) or unicodedata.normalize("NFKC", name).casefold()
    )


def check_joined_name(name: object) -> str:
    """The name a joining phone gave, checked on the server like a player's name
    (:func:`app.games` rules: at most 40 characters, no control, bidi, blank filler or other
    invisible characters), with a visible letter, digit or symbol, no zero-width joiner or
    variation selector outside an emoji, few accents per letter and at most 40 characters
    also once normalised (:func:`app.guard_names.name_problem`), and not one of the app's own
    labels (:data:`RESERVED_LABELS`, any language, any case, spacing, accents or look-alike letters:
    :func:`app.guard_names.skeleton`; nor 8 letters or more of one: "Phone on the network"),
    nor holding a word for the host (:data:`HOST_WORDS`: "Host computer", "Admin").
    ``""`` for no name.

    Raises:
        AccessError: ``bad_name`` (``.detail``: ``reserved``, ``unreadable``, or why the name
            shows as nothing or something else: ``invisible``, ``marks``, ``blank``, ``long``,
            :func:`app.guard_names.name_problem`).
    """
    if name is None or (isinstance(name, str) and not name.strip()):
        return ""
    try:
        clean = games._check_name(name)
    except games.GameError as e:
        err = AccessError("bad_name", e.message)
        err.detail = "unreadable"
        raise err from None
    problem = name_problem(clean, games.MAX_NAME)
    if problem is not None:
        err = AccessError("bad_name", f"that name cannot be read as typed ({problem})")
        err.detail = problem
        raise err
    skel = _skeleton(clean)
    if any(
        r == skel or (len(r) >= 10 and r in skel) or (len(skel) >= 8 and skel in r)
        for r in reserved_names()
    ) or any(w in skel for w in host_words()):
        err = AccessError("bad_name", "that name is one of the app's own labels")
        err.detail = "reserved"
        raise err
    return clean


class Access:
    """The process's access state over one store: the visitors setting, each game's join
    code (cached) and the wrong-code counter per client address.

    Args:
        store: the process's :class:`app.store.Store`.
        clock: seconds, monotonic (a test hook).
    """

    def __init__(self, store: Any, clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.clock = clock
        self._lock = threading.RLock()
        self._codes: dict[str, str | None] = {}
        self._fails: OrderedDict[str, deque[float]] = OrderedDict()
        self._all_fails: deque[float] = deque(maxlen=GLOBAL_PRESSURE)
        self._names: dict[str, weakref.ref[Visitor]] = {}
        self._moved: dict[str, str] = {}  # finished game → the game its code moved to

    # -- the setting
    def visitors(self) -> str:
        """:data:`VIEW` or :data:`NOTHING`."""
        mode = self.store.get_setting(VISITORS_SETTING, DEFAULT_VISITORS)
        return mode if mode in (VIEW, NOTHING) else DEFAULT_VISITORS

    def set_visitors(self, mode: str) -> None:
        """Store the visitors setting. Raises :class:`StoreError` (``bad_value``)."""
        if mode not in (VIEW, NOTHING):
            raise StoreError(f"visitors can {mode!r}? (view or nothing)", "bad_value")
        self.store.set_setting(VISITORS_SETTING, mode)

    # -- join codes
    def code_for(self, game_id: str) -> str | None:
        """The game's join code (None if it has none yet)."""
        with self._lock:
            if game_id not in self._codes:
                self._codes[game_id] = usable_code(self.store.load_game(game_id).join_code)
                remember_secret(self._codes[game_id])
            return self._codes[game_id]

    def seen(self, game: Game) -> None:
        """Note the join code of a game just loaded or saved."""
        with self._lock:
            self._codes[game.id] = usable_code(game.join_code)
        remember_secret(game.join_code)

    def forget(self, game_id: str) -> None:
        """Drop a deleted game from the cache."""
        with self._lock:
            self._codes.pop(game_id, None)
            self._moved.pop(game_id, None)

    def moved_to(self, game_id: str) -> str | None:
        """The game ``game_id``'s join code moved to ("Play again" in this run:
        :meth:`SessionStore.play_again`), or None."""
        with self._lock:
            return self._moved.get(game_id)

    def holders(self, code: str, game_ids: Iterable[str]) -> list[str]:
        """Those of ``game_ids`` whose join code is ``code`` (not counted as tries)."""
        with self._lock:
            return [g for g in game_ids if self.holds(g, code)]

    def ensure_code(self, game_id: str) -> str:
        """The game's join code, giving it one first if it has none (a save of the game)."""
        code = self.code_for(game_id)
        return code if code else self.new_code(game_id)

    def new_code(self, game_id: str) -> str:
        """Give the game a new join code (the old one stops working at once, on every game:
        one an older version left sharing it, "Play again", loses it too)."""
        with self._lock:
            for _ in range(5):
                game = self.store.load_game(game_id)
                old = self.code_for(game_id)
                code = new_join_code()
                remember_secret(code)
                try:
                    saved = self.store.save_game(
                        dataclasses.replace(game, join_code=code), game.version
                    )
                except ConflictError:
                    continue
                self.seen(saved)
                if old:
                    self._drop_code(old)
                return code
            raise StoreError("the game keeps changing; try again", "conflict")

    def _drop_code(self, code: str) -> None:
        """Take ``code`` from every game still holding it (none of it is shown anywhere)."""
        for gid in self.holders(code, [s.id for s in self.store.list_games()]):
            for _ in range(5):
                game = self.store.load_game(gid)
                bare = dataclasses.replace(game, join_code=None)
                try:
                    self.seen(self.store.save_game(bare, game.version))
                    break
                except ConflictError:
                    continue

    def _prune(self, now: float) -> None:
        """Forget addresses whose last wrong code is older than :data:`TRY_WINDOW`.

        ``_fails`` is kept in the order of each address's last wrong code, so the stale
        ones are at its front: each call removes only what expired (amortised O(1)), and
        the table holds just the addresses that gave a wrong code within the window."""
        fails = self._fails
        while fails:
            key = next(iter(fails))
            last = fails[key]
            if last and now - last[-1] <= TRY_WINDOW:
                break
            del fails[key]

    def under_pressure(self, now: float | None = None) -> bool:
        """Have all addresses together given :data:`GLOBAL_PRESSURE` wrong codes within the
        last :data:`TRY_WINDOW` seconds? (Each address then gets :data:`PRESSURE_TRIES`.)"""
        now = self.clock() if now is None else now
        with self._lock:
            d = self._all_fails
            return len(d) == d.maxlen and now - d[0] <= TRY_WINDOW

    def _throttle(self, key: str, now: float) -> deque[float]:
        self._prune(now)
        fails = self._fails.get(key)
        if fails is None:
            fails = deque(maxlen=MAX_TRIES)
        while fails and now - fails[0] > TRY_WINDOW:
            fails.popleft()
        allowed = PRESSURE_TRIES if self.under_pressure(now) else MAX_TRIES
        if len(fails) >= allowed:
            # the address may try again when its oldest counted wrong code is a window old
            wait = TRY_WINDOW - (now - fails[len(fails) - allowed])
            raise AccessError(
                "too_many_tries", "too many wrong codes; wait a minute", wait=max(wait, 1.0)
            )
        return fails

    def failed_addresses(self) -> int:
        """How many addresses have wrong codes on record (for tests: pruning)."""
        with self._lock:
            return len(self._fails)

    def find(self, ip: str | None, code: str, game_ids: Iterable[str]) -> str | None:
        """The first of ``game_ids`` whose join code is ``code``, or None.

        A miss counts as one wrong code for the address ``ip`` (the connection's real
        address; IPv6 by its /64, :func:`address_key`): after :data:`MAX_TRIES` in
        :data:`TRY_WINDOW` seconds that address must wait. There is no refusal for all:
        while all addresses together give more than :data:`GLOBAL_PRESSURE` wrong codes a
        window, each address gets
        :data:`PRESSURE_TRIES` instead (a real player's first tries always count; the
        code's length keeps guessing hopeless: :data:`CODE_LENGTH`).

        Raises:
            AccessError: ``too_many_tries`` (``.wait`` seconds), for this address only.
        """
        now = self.clock()
        given = normalize_code(code).encode()
        key = address_key(ip)  # an IPv6 phone counts by its /64
        with self._lock:
            fails = self._throttle(key, now)
            for gid in game_ids:
                try:
                    real = self.code_for(gid)
                except StoreError:
                    continue
                if real and hmac.compare_digest(given, real.encode()):
                    return gid
            fails.append(now)
            self._fails[key] = fails
            self._fails.move_to_end(key)  # the newest last: _prune takes from the front
            self._all_fails.append(now)
            return None

    # -- names of joined phones
    def claim_name(self, visitor: Visitor, name: str, token: bool = False) -> bool:
        """Let ``visitor`` be called ``name`` unless another live session is already called
        something that looks the same (:func:`app.guard_names.skeleton`). Returns whether it
        may; a session that is gone (garbage-collected) holds no name. ``token``: the name
        comes from a valid join token (:meth:`redeem`), made for this browser when it joined
        with that name: it takes the name over (the other holder is, but for a rare case,
        this phone's own earlier session, kept a while after the phone's screen went dark)."""
        key = _name_key(name)
        if not key:
            return True
        with self._lock:
            held = self._names.get(key)
            other = held() if held is not None else None
            taken = other is not None and other is not visitor and _name_key(other.name) == key
            if taken and not token:
                return False
            self._names[key] = weakref.ref(visitor)
            if len(self._names) > 1024:
                for k in [k for k, r in self._names.items() if r() is None]:
                    del self._names[k]
            return True

    def check(self, ip: str | None, game_id: str, code: str) -> bool:
        """Is ``code`` the join code of ``game_id``? (Counted as :meth:`find` does.)

        Raises:
            AccessError: ``too_many_tries``.
        """
        return self.find(ip, code, [game_id]) is not None

    # -- join tokens
    def _mac(self, game_id: str, code: str, name: str) -> str:
        msg = "\x1f".join(("join", game_id, code, name)).encode()
        return hmac.new(_TOKEN_KEY, msg, "sha256").hexdigest()[:32]

    def issue_token(self, game_id: str, name: str = "") -> str | None:
        """A token that restores this join in a later session of the same browser:
        ``<game id>.<name, hex>.<MAC>``, the MAC over the game, its join code now and the
        name (HMAC-SHA256 with this run's key). It stops working when the code changes or
        the server restarts. None when the game has no code (or the token would be longer
        than :data:`TOKEN_MAX`)."""
        try:
            code = self.code_for(game_id)
        except StoreError:
            return None
        if not code:
            return None
        token = f"{game_id}.{name.encode().hex()}.{self._mac(game_id, code, name)}"
        return token if len(token) <= TOKEN_MAX else None

    def redeem(self, token: object) -> tuple[str, str] | None:
        """``(game id, name)`` of a valid token of :meth:`issue_token`, else None."""
        if not isinstance(token, str) or len(token) > TOKEN_MAX or token.count(".") != 2:
            return None
        gid, hexname, mac = token.split(".")
        try:
            name = bytes.fromhex(hexname).decode()
            code = self.code_for(gid)
        except (ValueError, StoreError):
            return None
        if not code or not hmac.compare_digest(mac, self._mac(gid, code, name)):
            return None
        return gid, name

    def holds(self, game_id: str, code: str | None) -> bool:
        """Is ``code`` (remembered by a session that joined) still the game's code?"""
        if not code:
            return False
        try:
            real = self.code_for(game_id)
        except StoreError:
            return False
        return bool(real) and hmac.compare_digest(code.encode(), (real or "").encode())


_SESSION_NUMBERS = itertools.count(1)


@dataclass
class Visitor:
    """One browser session's identity and rights.

    Attributes:
        ip: the connection's real address (the WebSocket's peer, :func:`app.guard.peer_of`;
            ``None`` unknown): what the wrong-code limit counts by.
        host: the session has the host's rights (loopback connection or the host key).
        name: the name given when joining (shown to others when this session saves), or ``""``.
        joined: game id → the join code this session gave (checked again at every write, so
            a new code shuts out those who had the old one).
        sub: the session's :class:`Hub` subscription id.
        number: a number for this session (1, 2, …).
    """

    ip: str | None = None
    host: bool = False
    name: str = ""
    joined: dict[str, str] = field(default_factory=dict)
    sub: int | None = None
    number: int = field(default_factory=lambda: next(_SESSION_NUMBERS))

    def still_joined(self, access: Access) -> bool:
        """Does a code this session gave still open its game (the host did not replace it)?
        What makes it a player for the loop's pools and turns (app/guard.py)."""
        return any(access.holds(g, code) for g, code in list(self.joined.items()))

    @classmethod
    def from_peer(cls, ip: str | None, host_key: object = None) -> Visitor:
        """A session whose connection's real address is ``ip``: the host when that is
        loopback or ``host_key`` is this run's host key."""
        return cls(ip=ip, host=is_loopback(ip) or host_key_ok(host_key))

    def restore(self, access: Access, tokens: object) -> list[str]:
        """Take back the joins of valid tokens (:meth:`Access.redeem`) kept by the browser.
        Returns the games joined."""
        got: list[str] = []
        if not isinstance(tokens, list):
            return got
        for token in tokens[:MAX_TOKENS]:
            found = access.redeem(token)
            if found is None:
                continue
            gid, name = found
            code = access.code_for(gid)
            if code:
                self.joined[gid] = code
                got.append(gid)
                # the name was checked when the token was made for this browser
                if name and not self.name and access.claim_name(self, name, token=True):
                    self.name = name
        return got


ENDED_LOOKUP: Final = 5
"""Ended games a code typed without a game is also looked up in (the last ones changed): a
phone given the code of a game that has just ended is let in to look at it, not counted a
wrong try, while a guess still tries only a few codes more."""


def lookup_order(summaries: Iterable[GameSummary]) -> list[str]:
    """The games a code typed without a game is tried on, in order: every unfinished game,
    then the :data:`ENDED_LOOKUP` finished ones changed last (an older version's data may
    give an ended game and its next game one code: the unfinished one wins)."""
    items = list(summaries)
    ended = sorted((s for s in items if s.finished), key=lambda s: s.updated, reverse=True)
    return [s.id for s in items if not s.finished] + [s.id for s in ended[:ENDED_LOOKUP]]


class SessionStore:
    """What one session sees of the store: the same API (``StoreLike``), with access checks
    on every read and write and a :class:`Change` published after every write.

    Args:
        store: the process's store.
        access: the process's :class:`Access`.
        visitor: this session.
        hub: the hub to publish on.
    """

    def __init__(
        self, store: Any, access: Access, visitor: Visitor, hub: Hub | None = None
    ) -> None:
        self._store = store
        self.access = access
        self.visitor = visitor
        self.hub = hub if hub is not None else HUB

    # -- rights
    @property
    def is_host(self) -> bool:
        """This session is on the host's computer."""
        return self.visitor.host

    def can_edit(self, game_id: str) -> bool:
        """May this session change the game?"""
        if self.visitor.host:
            return True
        return self.access.holds(game_id, self.visitor.joined.get(game_id))

    def can_view(self, game_id: str) -> bool:
        """May this session see the game? (Also a game this session joined whose code then
        moved on to the next game, "Play again", while this session's code opens that one:
        it may look at the finished game it played, not change it.)"""
        if self.visitor.host or self.access.visitors() == VIEW or self.can_edit(game_id):
            return True
        nxt = self.access.moved_to(game_id)
        return nxt is not None and self.access.holds(nxt, self.visitor.joined.get(game_id))

    def join(self, game_id: str | None, code: str, name: str = "") -> str | None:
        """Give a join code; this session may then change that game.

        Args:
            game_id: the game, or None to look the code up among the unfinished games and
                the :data:`ENDED_LOOKUP` games ended last (:func:`lookup_order`).
            code: the code as typed (spaces, dashes and case do not matter).
            name: shown to the others when this session saves (optional).

        Returns:
            The game joined, or None for a wrong code.

        Raises:
            AccessError: ``too_many_tries``; ``bad_name`` (:func:`check_joined_name`: the
            code is then not tried; or ``.detail`` ``taken``: another live session's name
            looks the same, told only to a phone that gave the right code, which is then
            not joined).
        """
        name = check_joined_name(name)
        if game_id is not None:
            ids: list[str] = [game_id]
        else:
            ids = lookup_order(self._store.list_games())
        found = self.access.find(self.visitor.ip, code, ids)
        if found is None:
            return None
        if name and not self.access.claim_name(self.visitor, name):
            err = AccessError("bad_name", "another phone is called that")
            err.detail = "taken"
            raise err
        self.visitor.joined[found] = normalize_code(code)
        if name:
            self.visitor.name = name
            remember_names([self.visitor.name])
        return found

    def tokens(self) -> list[str]:
        """Join tokens of the games this session joined (kept in the phone's browser)."""
        # only where the code this session joined with still holds: a game whose code the host
        # changed ("New join code") must not be signed again over its new code
        out = [
            self.access.issue_token(g, self.visitor.name)
            for g, code in self.visitor.joined.items()
            if self.access.holds(g, code)
        ]
        return [t for t in out if t][:MAX_TOKENS]

    def _need_host(self, what: str) -> None:
        if not self.visitor.host:
            raise AccessError("host_only", f"only the host's computer may {what}")

    def _need_edit(self, game_id: str) -> None:
        if not self.can_edit(game_id):
            raise AccessError("join_needed", "this game's join code is needed to change it")

    def _publish(self, kind: ChangeKind, game_id: str | None, version: int = 0) -> None:
        v = self.visitor
        self.hub.publish(Change(kind, game_id, version, v.name, v.host, v.sub))

    # -- StoreLike
    @property
    def notices(self) -> list[Any]:
        """The store's recovery notices (the host's only)."""
        return list(self._store.notices) if self.visitor.host else []

    @notices.setter
    def notices(self, value: list[Any]) -> None:
        if self.visitor.host:
            self._store.notices = value

    def dismiss_notices(self) -> None:
        """Dismiss the notices (the host only; ignored elsewhere)."""
        if self.visitor.host:
            self._store.dismiss_notices()

    def list_games(self) -> list[GameSummary]:
        """The games this session may see."""
        summaries: list[GameSummary] = self._store.list_games()
        remember_names(n for s in summaries for n in s.players)
        if self.visitor.host or self.access.visitors() == VIEW:
            return summaries
        return [s for s in summaries if self.can_edit(s.id)]

    def load_game(self, game_id: str) -> Game:
        """The game, if this session may see it. Raises :class:`AccessError`
        (``join_needed``) or what :meth:`app.store.Store.load_game` raises."""
        if not self.visitor.host and not self.can_view(game_id):
            raise AccessError("join_needed", "this game's join code is needed to see it")
        game: Game = self._store.load_game(game_id)
        self.access.seen(game)
        remember_names(game.players)
        return game

    def create_game(self, game: Game) -> Game:
        """Store a new game with a fresh join code (the host only)."""
        self._need_host("start or import a game")
        if game.join_code and self.access.holders(
            game.join_code, [s.id for s in self._store.list_games()]
        ):
            game = dataclasses.replace(game, join_code=None)  # one code opens one game
        if not game.join_code:
            game = dataclasses.replace(game, join_code=new_join_code())
        remember_names(game.players)
        stored: Game = self._store.create_game(game)
        self.access.seen(stored)
        self._publish("created", stored.id, stored.version)
        return stored

    def save_game(self, game: Game, expected_version: int | None = None) -> Game:
        """Store a changed game (with the join code, if this session may change it).

        The join code stored stays the one :class:`Access` knows (a screen cannot change it).

        Raises:
            AccessError: ``join_needed``. ConflictError and the rest: as
            :meth:`app.store.Store.save_game`.
        """
        self._need_edit(game.id)
        code = self.access.code_for(game.id)
        if game.join_code != code:
            cache = game._cache
            game = dataclasses.replace(game, join_code=code)
            game._cache = cache
        stored: Game = self._store.save_game(game, expected_version)
        self.access.seen(stored)
        self._publish("game", stored.id, stored.version)
        return stored

    def play_again(
        self, old_id: str, start: Callable[[Game], Game], next_key: str
    ) -> tuple[Game, bool]:
        """Start the game after the game ``old_id`` with the same players ("Play again", the
        host only), once: when ``old_id`` already points to a next game still stored
        (``extra[next_key]``), that game is returned instead (a double tap, or two handlers
        at once: the work is done under :class:`Access`'s lock).

        The table's join code MOVES to the new game: the old game keeps none (it accepts no
        code until the host gives it a new one), so one code opens one game, and a new code
        for the new game leaves no game open to the old one. Phones that joined the old game
        with the code keep keeping score in the new one; on the old game they may only look.

        Args:
            old_id: the game played.
            start: makes the new game from the old (:func:`app.ui.sheet.game_end.replay`).
            next_key: the old game's ``extra`` key that points to the new one.

        Returns:
            ``(the new game, whether it was made by this call)``.

        Raises:
            AccessError: ``host_only``. GameError from ``start``; StoreError (nothing made).
        """
        self._need_host("start a game")
        access = self.access
        with access._lock:
            old: Game = self._store.load_game(old_id)
            nxt = old.extra.get(next_key)
            if isinstance(nxt, str) and nxt and nxt != old_id:
                try:
                    found: Game = self._store.load_game(nxt)
                except StoreError:
                    pass  # deleted since: make another
                else:
                    access.seen(found)
                    return found, False
            code = access.code_for(old_id)
            fresh = start(old)
            fresh = dataclasses.replace(fresh, join_code=code or new_join_code())
            remember_names(fresh.players)
            stored: Game = self._store.create_game(fresh)
            try:
                for _ in range(5):
                    pointer = dataclasses.replace(
                        old, join_code=None, extra={**old.extra, next_key: stored.id}
                    )
                    pointer._cache = old._cache
                    try:
                        old = self._store.save_game(pointer, old.version)
                        break
                    except ConflictError:
                        old = self._store.load_game(old_id)
                else:
                    raise StoreError("the game keeps changing; try again", "conflict")
            except StoreError:
                with contextlib.suppress(StoreError):
                    self._store.delete_game(stored.id)  # never two games with one code
                raise
            access.seen(stored)
            access.seen(old)
            if code:
                access._moved[old_id] = stored.id
        self._publish("created", stored.id, stored.version)
        self._publish("game", old.id, old.version)
        return stored, True

    def delete_game(self, game_id: str) -> None:
        """Delete a game (the host only)."""
        self._need_host("delete a game")
        self._store.delete_game(game_id)
        self.access.forget(game_id)
        self._publish("deleted", game_id)

    def known_players(self) -> list[str]:
        """Names of earlier games (the host only; others get none)."""
        return list(self._store.known_players()) if self.visitor.host else []

    def forget_players(self, names: Iterable[str]) -> None:
        """Stop offering old spellings after a rename (the host only)."""
        self._need_host("rename a player")
        self._store.forget_players(names)

    def get_setting(self, key: str, default: Any = None) -> Any:
        """A stored setting."""
        return self._store.get_setting(key, default)

    def set_setting(self, key: str, value: Any) -> None:
        """Store a setting; the sharing settings (``share.*``) are the host's. A phone's other
        choices (theme, language) stay in its own browser: only the host's computer changes
        the server's defaults, so a visitor cannot write to the data file or set the host's
        theme (ignored, not an error)."""
        if key.startswith("share."):
            self._need_host("change who may see the games")
        if not self.is_host:
            return
        self._store.set_setting(key, value)
        if key.startswith("share."):
            self._publish("access", None)

    # -- sharing
    def set_visitors(self, mode: str) -> None:
        """What visitors without the code may do: :data:`VIEW` or :data:`NOTHING` (host)."""
        self._need_host("change who may see the games")
        self.access.set_visitors(mode)
        self._publish("access", None)

    def join_code(self, game_id: str) -> str:
        """The game's join code, made if needed (the host only)."""
        self._need_host("see the join code")
        had = self.access.code_for(game_id)
        code = self.access.ensure_code(game_id)
        if code != had:
            self._publish("access", game_id)
        return code

    def new_join_code(self, game_id: str) -> str:
        """Replace the game's join code (the host only): phones that joined with the old one
        may only look from now on."""
        self._need_host("change the join code")
        code = self.access.new_code(game_id)
        self._publish("access", game_id)
        return code

    def __getattr__(self, name: str) -> Any:
        """Anything else of the store (``backup_now``, ``backups`` …): the host's only."""
        if name.startswith("_"):
            raise AttributeError(name)
        if not self.visitor.host:
            raise AccessError("host_only", "only the host's computer may do that")
        return getattr(self._store, name)
