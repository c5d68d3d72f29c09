"""Games, rounds and standings: the app's pure logic (no Flet, no TinyDB).

The package is split by concern, every name importable from ``app.games`` as before:
:mod:`~app.games.records` (the data: games, rounds, results, errors, limits),
:mod:`~app.games.names` (player names and seats), :mod:`~app.games.rounds` (a new game, dealing,
the agreed end, rounds scored, added, replaced, deleted), :mod:`~app.games.changes` (undo, ending
by agreement, changing the agreed end), :mod:`~app.games.penalties` (pending penalty draws),
:mod:`~app.games.totals` (standings, summaries), :mod:`~app.games.exchange` (storage form, CSV and
JSON), :mod:`~app.games.variants` (what the screens ask of a variant). The modules call
:func:`standings` through the package, so that a replacement of ``app.games.standings`` (a test
counting the totalling) is the one every caller gets.

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

from app.games.changes import (
    _limit_state as _limit_state,
)
from app.games.changes import (
    can_undo,
    end_game,
    last_change,
    set_limits,
    undo,
)
from app.games.exchange import (
    _CELL_BREAK as _CELL_BREAK,
)
from app.games.exchange import (
    CSV_LABELS,
    CSV_SEPARATORS,
    csv_cell,
    export_csv,
    export_json,
    game_from_dict,
    game_to_dict,
    import_json,
)
from app.games.exchange import (
    _no_constant as _no_constant,
)
from app.games.exchange import (
    _public_dict as _public_dict,
)
from app.games.exchange import (
    _timestamp as _timestamp,
)
from app.games.names import (
    _EMOJI_PARTS as _EMOJI_PARTS,
)
from app.games.names import (
    _NAME_BLANK as _NAME_BLANK,
)
from app.games.names import (
    _NAME_FORMAT_OK as _NAME_FORMAT_OK,
)
from app.games.names import (
    _check_name as _check_name,
)
from app.games.names import (
    _check_players as _check_players,
)
from app.games.names import (
    unshowable,
)
from app.games.penalties import (
    _is_penalty as _is_penalty,
)
from app.games.penalties import (
    pending_penalties,
    record_penalty,
    remove_penalty,
)
from app.games.records import (
    _ACTIONS as _ACTIONS,
)
from app.games.records import (
    _RESERVED as _RESERVED,
)
from app.games.records import (
    _SURROGATE_ESCAPE as _SURROGATE_ESCAPE,
)
from app.games.records import (
    EXPORT_FORMAT,
    EXPORT_VERSION,
    MAX_ENTRY_CHARS,
    MAX_IMPORT_CHARS,
    MAX_IMPORT_MESSAGE,
    MAX_NAME,
    MAX_NOTES,
    MAX_PENDING_PENALTIES,
    MAX_ROUNDS,
    SOLO_JOKER,
    UNDO_DEPTH,
    Action,
    Game,
    GameError,
    GameImportError,
    GameSummary,
    Round,
    RoundError,
    RoundResult,
    Standings,
    UndoStep,
    now_iso,
)
from app.games.records import (
    _broken_text_at as _broken_text_at,
)
from app.games.records import (
    _int_or_0 as _int_or_0,
)
from app.games.records import (
    _is_int as _is_int,
)
from app.games.records import (
    _is_unicode as _is_unicode,
)
from app.games.records import (
    _names as _names,
)
from app.games.rounds import (
    _check_entry_players as _check_entry_players,
)
from app.games.rounds import (
    _check_index as _check_index,
)
from app.games.rounds import (
    _check_limit as _check_limit,
)
from app.games.rounds import (
    _check_options as _check_options,
)
from app.games.rounds import (
    _clean_entry as _clean_entry,
)
from app.games.rounds import (
    _round_from as _round_from,
)
from app.games.rounds import (
    _round_winners as _round_winners,
)
from app.games.rounds import (
    _scored as _scored,
)
from app.games.rounds import (
    _solo as _solo,
)
from app.games.rounds import (
    _with_change as _with_change,
)
from app.games.rounds import (
    add_round,
    dealer_for_round,
    delete_round,
    game_limits,
    new_game,
    next_dealer,
    replace_round,
    score_round,
)
from app.games.totals import (
    _ENDED_EARLIER as _ENDED_EARLIER,
)
from app.games.totals import (
    ENDED_KEY,
    ended_early,
    standings,
    summarize,
)
from app.games.totals import (
    _top as _top,
)
from app.games.variants import VariantInfo, about, about_game
from rules import judge as judge  # the judge every module asks (tests replace judge.answer)
from rules.variants.tiles import PENALTY_REASONS

__all__ = [
    "Action",
    "CSV_LABELS",
    "CSV_SEPARATORS",
    "EXPORT_FORMAT",
    "ENDED_KEY",
    "EXPORT_VERSION",
    "Game",
    "GameError",
    "GameImportError",
    "GameSummary",
    "MAX_ENTRY_CHARS",
    "MAX_IMPORT_CHARS",
    "MAX_IMPORT_MESSAGE",
    "MAX_NAME",
    "MAX_NOTES",
    "MAX_PENDING_PENALTIES",
    "MAX_ROUNDS",
    "PENALTY_REASONS",
    "Round",
    "RoundError",
    "RoundResult",
    "SOLO_JOKER",
    "Standings",
    "UNDO_DEPTH",
    "UndoStep",
    "VariantInfo",
    "about",
    "about_game",
    "add_round",
    "can_undo",
    "csv_cell",
    "dealer_for_round",
    "delete_round",
    "end_game",
    "ended_early",
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
