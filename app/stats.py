"""A person's record across the stored games (the player page), computed from the games.

Nothing here is stored: every figure comes from the games in the store and the engine's
:func:`app.games.standings` (winners, totals with the game-end bonuses, the round scores).
What one game contributes is summarised once in :class:`GameFacts` and kept in memory keyed by
game id and version (:class:`FactsCache`): a saved game has a new version, so a stale summary
is never used, and the cache holds nothing the store does not.

Definitions (the issue left them open):

- A game *counts* when it is finished (the engine's ``standings(game).finished``); games still
  being played are counted apart (``in_progress``) and add nothing else.
- *Won*: the person is among the engine's winners (a shared first place is a win for each).
- *Win rate*: won / played, per variant and over all variants.
- *Average and best round*: the person's round scores (points, as the judge gave them) in the
  finished games, per variant (101's +101 and gin's +29 are not on one scale). Higher is better
  in every variant here: a loss is a negative score.
- *Highest / lowest game total*: final totals with bonuses, per variant.
- *Current streak*: finished games, newest first by the game's start (``created``): how many in
  a row the person won (``win``) or did not win (``loss``).
- *Head-to-head*: for each other person met in finished games: games together, the person's
  wins and the opponent's wins among them.
- *Totals over time*: one point per finished game, ``(created, variant, total)``, oldest first.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Protocol

from app import games as g
from app.games import Game, GameSummary
from app.people import display_names, person_key

__all__ = [
    "CACHE",
    "FactsCache",
    "GameFacts",
    "HeadToHead",
    "PlayerStats",
    "SeasonRow",
    "VariantStats",
    "facts_of",
    "filter_games",
    "game_date",
    "season",
    "warm",
    "people_index",
    "player_stats",
]


class _Store(Protocol):
    def list_games(self) -> list[GameSummary]: ...
    def load_game(self, game_id: str) -> Game: ...


@dataclass(frozen=True)
class GameFacts:
    """What one game tells about its players (from :func:`app.games.standings`).

    Attributes:
        id, version, variant, created: as in the game.
        players: names in seat order.
        finished: the game is over.
        winners: the engine's winners (empty while unfinished).
        totals: final totals, bonuses included.
        rounds: per player, their round scores in order.
    """

    id: str
    version: int
    variant: str
    created: str
    players: tuple[str, ...]
    finished: bool
    winners: tuple[str, ...]
    totals: dict[str, int]
    rounds: dict[str, tuple[int, ...]]


def facts_of(game: Game) -> GameFacts:
    """The :class:`GameFacts` of ``game``."""
    st = g.standings(game)
    return GameFacts(
        id=game.id,
        version=game.version,
        variant=game.variant,
        created=game.created,
        players=tuple(game.players),
        finished=st.finished,
        winners=tuple(st.winners),
        totals=dict(st.totals),
        rounds={p: tuple(rs.get(p, 0) for rs in st.round_scores) for p in game.players},
    )


class FactsCache:
    """Game facts kept in memory, keyed by game id and version (one process-wide instance,
    :data:`CACHE`; thread-safe)."""

    def __init__(self) -> None:
        self._facts: dict[str, GameFacts] = {}
        self._lock = threading.Lock()
        self.loads = 0
        """Games loaded from the store so far (for tests and the benchmark)."""

    def get(self, store: _Store, summary: GameSummary) -> GameFacts:
        """The facts of the game of ``summary``: from memory when its version is known, else
        loaded from ``store`` (and kept)."""
        with self._lock:
            f = self._facts.get(summary.id)
        if f is not None and f.version == summary.version:
            return f
        game = store.load_game(summary.id)
        f = facts_of(game)
        with self._lock:
            self.loads += 1
            self._facts[summary.id] = f
        return f

    def forget(self, ids: Iterable[str] | None = None) -> None:
        """Drop the facts of ``ids`` (all when None)."""
        with self._lock:
            if ids is None:
                self._facts.clear()
            else:
                for i in ids:
                    self._facts.pop(i, None)

    def __len__(self) -> int:
        return len(self._facts)


CACHE = FactsCache()


def warm(store: _Store, cache: FactsCache | None = None) -> int:
    """Summarise every finished game not yet in ``cache`` (default :data:`CACHE`); run it in
    a worker thread (``asyncio.to_thread``): it loads games. Returns how many were loaded."""
    cache = CACHE if cache is None else cache
    before = cache.loads
    for s in store.list_games():
        if s.finished:
            try:
                cache.get(store, s)
            except Exception:  # noqa: BLE001 - deleted meanwhile, a visitor's, unreadable
                continue
    return cache.loads - before


@dataclass
class VariantStats:
    """One variant's line of the player page.

    Attributes:
        variant: the variant id.
        played, won: finished games.
        rounds: round scores counted (for the average).
        round_sum: their sum (points).
        best_round: the highest round score, or None with no rounds.
        high_total, low_total: the highest and lowest final total, or None.
    """

    variant: str
    played: int = 0
    won: int = 0
    rounds: int = 0
    round_sum: int = 0
    best_round: int | None = None
    high_total: int | None = None
    low_total: int | None = None

    @property
    def win_rate(self) -> float:
        """won / played (0.0 with no games)."""
        return self.won / self.played if self.played else 0.0

    @property
    def average_round(self) -> float | None:
        """The mean round score (points), or None with no rounds."""
        return self.round_sum / self.rounds if self.rounds else None


@dataclass
class HeadToHead:
    """The person against one opponent in the finished games both played.

    Attributes:
        opponent: the opponent's name (their most recent spelling).
        games: finished games together.
        wins: games the person won. losses: games the opponent won.
    """

    opponent: str
    games: int = 0
    wins: int = 0
    losses: int = 0


@dataclass
class PlayerStats:
    """A person's record (see the module notes for every definition).

    Attributes:
        key: :func:`app.people.person_key` of the person.
        name: their most recent spelling.
        spellings: every spelling met, most recent game (by its start) first.
        played, won: finished games, all variants.
        in_progress: unfinished games with the person.
        variants: per variant (in order of first appearance, newest game first).
        streak: ``("win" | "loss", n)``; ``("", 0)`` with no finished game.
        head_to_head: per opponent key, most games together first.
        timeline: ``(created, variant, total)`` per finished game, oldest first.
    """

    key: str
    name: str
    spellings: list[str] = field(default_factory=list)
    played: int = 0
    won: int = 0
    in_progress: int = 0
    variants: dict[str, VariantStats] = field(default_factory=dict)
    streak: tuple[str, int] = ("", 0)
    head_to_head: dict[str, HeadToHead] = field(default_factory=dict)
    timeline: list[tuple[str, str, int]] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        """won / played over every variant (0.0 with no games)."""
        return self.won / self.played if self.played else 0.0


def _of(players: Iterable[str], key: str) -> str | None:
    for p in players:
        if person_key(p) == key:
            return p
    return None


def player_stats(
    store: _Store,
    name: str,
    summaries: list[GameSummary] | None = None,
    cache: FactsCache | None = None,
) -> PlayerStats:
    """The record of the person called ``name`` (any spelling) in ``store``.

    Args:
        store: the store (or a session store: only the games it shows count).
        name: any spelling of the person.
        summaries: ``store.list_games()`` if already at hand.
        cache: where game facts are kept (default :data:`CACHE`).

    Returns:
        A :class:`PlayerStats`; all zero for a name in no game.
    """
    cache = CACHE if cache is None else cache
    key = person_key(name)
    summaries = store.list_games() if summaries is None else summaries
    mine = sorted(
        (s for s in summaries if _of(s.players, key) is not None),
        key=lambda s: (s.created, s.id),
        reverse=True,
    )
    stats = PlayerStats(key=key, name=name)
    spellings: dict[str, None] = {}
    names: dict[str, str] = {}
    done: list[tuple[str, str, bool]] = []  # (created, id, won)
    for s in mine:
        me = _of(s.players, key)
        assert me is not None
        spellings.setdefault(me, None)
        if not s.finished:
            stats.in_progress += 1
            continue
        f = cache.get(store, s)
        me = _of(f.players, key)
        if me is None or not f.finished:  # changed since the summary: the game file wins
            stats.in_progress += me is not None
            continue
        won = me in f.winners
        v = stats.variants.setdefault(f.variant, VariantStats(f.variant))
        v.played += 1
        v.won += won
        scores = f.rounds.get(me, ())
        v.rounds += len(scores)
        v.round_sum += sum(scores)
        if scores:
            best = max(scores)
            v.best_round = best if v.best_round is None else max(v.best_round, best)
        total = f.totals.get(me, 0)
        v.high_total = total if v.high_total is None else max(v.high_total, total)
        v.low_total = total if v.low_total is None else min(v.low_total, total)
        stats.played += 1
        stats.won += won
        done.append((f.created, f.id, won))
        stats.timeline.append((f.created, f.variant, total))
        for o in f.players:
            ok = person_key(o)
            if ok == key:
                continue
            names.setdefault(ok, o)
            h = stats.head_to_head.setdefault(ok, HeadToHead(names[ok]))
            h.games += 1
            h.wins += won
            h.losses += o in f.winners
    stats.spellings = list(spellings)
    if stats.spellings:
        stats.name = stats.spellings[0]
    done.sort(reverse=True)
    if done:
        first = done[0][2]
        n = 0
        for _c, _i, w in done:
            if w != first:
                break
            n += 1
        stats.streak = ("win" if first else "loss", n)
    stats.timeline.sort()
    stats.head_to_head = dict(
        sorted(stats.head_to_head.items(), key=lambda kv: (-kv[1].games, kv[1].opponent.casefold()))
    )
    return stats


def people_index(summaries: Iterable[GameSummary]) -> list[tuple[str, str, int]]:
    """Every person with their games: ``(key, most recent spelling, games)``, most games
    first, then by name (the spelling of the game started last)."""
    count: dict[str, int] = {}
    name: dict[str, str] = {}
    for s in sorted(summaries, key=lambda s: (s.created, s.id), reverse=True):
        for p in s.players:
            k = person_key(p)
            name.setdefault(k, p)
            count[k] = count.get(k, 0) + 1
    return sorted(
        ((k, name[k], n) for k, n in count.items()), key=lambda t: (-t[2], t[1].casefold())
    )


# -- history and seasons (from the games list: no game is loaded) --------------------------------
def game_date(s: GameSummary) -> date | None:
    """The day the game started, in the server's time zone (None for a bad timestamp)."""
    try:
        return datetime.fromisoformat(s.created).astimezone().date()
    except (TypeError, ValueError):
        return None


def _in_range(s: GameSummary, start: date | None, end: date | None) -> bool:
    if start is None and end is None:
        return True
    d = game_date(s)
    return d is not None and (start is None or d >= start) and (end is None or d <= end)


def filter_games(
    summaries: Iterable[GameSummary],
    text: str = "",
    variant: str | None = None,
    player: str | None = None,
    start: date | None = None,
    end: date | None = None,
    variant_names: dict[str, str] | None = None,
) -> list[GameSummary]:
    """The finished games that match, newest start first.

    Args:
        text: words that must all appear (case and spaces ignored) in a player's name, the
            notes or the variant's name (``variant_names``: id → the name shown).
        variant: only this variant. player: only games of this person (any spelling).
        start, end: only games started on these days or between them (inclusive).
    """
    words = person_key(text).split()
    who = person_key(player) if player else None
    names = variant_names or {}
    out = []
    for s in summaries:
        if not s.finished or (variant is not None and s.variant != variant):
            continue
        if who is not None and all(person_key(p) != who for p in s.players):
            continue
        if not _in_range(s, start, end):
            continue
        hay = " | ".join([*map(person_key, s.players), person_key(s.notes)])
        hay += " | " + person_key(names.get(s.variant, s.variant))
        if all(w in hay for w in words):
            out.append(s)
    out.sort(key=lambda s: (s.created, s.id), reverse=True)
    return out


@dataclass
class SeasonRow:
    """One person's line in a season's ranking of one variant.

    Attributes:
        key, name: the person (named as in the last game they started).
        games, wins: finished games in the season; won (the engine's winners).
        points: the sum of their final totals (bonuses included).
    """

    key: str
    name: str
    games: int = 0
    wins: int = 0
    points: int = 0


def season(
    summaries: Iterable[GameSummary], start: date | None = None, end: date | None = None
) -> dict[str, list[SeasonRow]]:
    """Finished games started from ``start`` to ``end`` (inclusive; None: open), per variant
    (most games first): the people ranked by wins, then points, then name. A person is named
    as in the last game they started (:func:`app.people.display_names` over ``summaries``)."""
    summaries = list(summaries)
    names = display_names(summaries)
    rows: dict[str, dict[str, SeasonRow]] = {}
    chosen = sorted(
        (s for s in summaries if s.finished and _in_range(s, start, end)),
        key=lambda s: (s.created, s.id),
        reverse=True,
    )
    count: dict[str, int] = {}
    for s in chosen:
        count[s.variant] = count.get(s.variant, 0) + 1
        table = rows.setdefault(s.variant, {})
        for p in s.players:
            k = person_key(p)
            r = table.setdefault(k, SeasonRow(k, names.get(k, p)))
            r.games += 1
            r.wins += p in s.winners
            r.points += s.totals.get(p, 0)
    ordered = sorted(rows.items(), key=lambda kv: -count[kv[0]])
    return {
        v: sorted(t.values(), key=lambda r: (-r.wins, -r.points, r.name.casefold()))
        for v, t in ordered
    }
