"""A game as data: the storage form (:func:`game_to_dict` / :func:`game_from_dict`), the CSV
and JSON exports and the JSON import (every round scored again by the judge)."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Final

import app.games as _games  # standings() through the package (see app.games)
from app.games.penalties import _is_penalty
from app.games.records import (
    _SURROGATE_ESCAPE,
    EXPORT_FORMAT,
    EXPORT_VERSION,
    MAX_IMPORT_CHARS,
    MAX_ROUNDS,
    Game,
    GameError,
    GameImportError,
    Round,
    UndoStep,
    _broken_text_at,
    _is_int,
    _is_unicode,
    now_iso,
)
from app.games.rounds import _round_from, dealer_for_round, new_game, score_round
from app.games.variants import about, is_variant


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
    if not isinstance(gid, str) or not is_variant(variant):
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
    st = _games.standings(game)
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
    st = _games.standings(game)
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
    game.ended = g.get("ended") is True and about(game.variant).agreed_end == "options"
    return game


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")
