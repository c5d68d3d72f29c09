"""The ``turn`` check (JUDGE.md): one player's turn on a shared table (tile_rummy, my_rummy,
carousel); the judging itself is :func:`rules.table.judge_turn`. Rummy 101 turns are judged by
:func:`rules.variants.rummy101.turn_answer` (its own fields: ``opened`` is ``"none"`` /
``"melds"`` / ``"pairs"``, ``taken_discard``, ``pairs_opened``; see there).

Request fields:

- ``rack``: the player's rack (Carousel: hand) before the turn.
- ``table_before``: list of melds, each as it lies.
- ``table_after``: list of melds, or ``{"heap": [pieces]}`` (then split, see
  :func:`rules.table.judge_turn_heap`).
- ``opened``: true/false — the player had made the initial meld before this turn (required for
  tile_rummy and my_rummy; ignored in Carousel, which has no initial-meld threshold).
- Carousel only, optional: ``declared_before`` / ``declared_after``: lists parallel to
  ``table_before`` / ``table_after``; each entry is ``null`` (nothing declared) or a list with one
  entry per joker of that meld, in the order the jokers appear in it: a card (``"7H"``) or
  ``null``. Example: ``"table_before": [["5H","6H","JK"], ["7S","7D","JK"]],
  "declared_before": [null, ["7H"]]``. ``players`` sets the deck count (default two decks).
- ``options``: ``joker_rule`` (level 0–4 or name; ``my_rummy`` for My Rummy),
  ``initial_meld``, ``manipulate_on_initial_turn``, ``preset``.

Copy limits are checked on the rack and the table before together, and on the table after.

Response: ``{"ok": true, "valid": …, "played": [...], "initial_meld": int|null, "message": …,
"rule": …}`` plus ``reason`` when not valid and details (``tile``/``tiles``, ``meld``, ``after``,
``value``/``needed``, ``level``, ``joker_rule``); ``melds`` (the split judged) for a heap.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.errors import RequestError
from rules.options import CarouselOptions, TileRummyOptions
from rules.pieces import JOKER, Card, Piece, Tile
from rules.request import MAX_MELDS, Request
from rules.table import Declared, judge_turn, judge_turn_heap
from rules.variant import find_variant


def _declarations(
    req: Request, name: str, melds: list[list[Piece]] | None
) -> list[Declared] | None:
    """Read ``declared_before`` / ``declared_after`` (Carousel), parallel to ``melds``."""
    if not req.has(name):
        return None
    if not find_variant(req.variant).declares_jokers:
        raise RequestError.keyed("req.declare_field_not_carousel", "bad_field", field=name)
    if melds is None:
        raise RequestError.keyed("req.declare_needs_melds", "bad_field", field=name)
    raw = req.items(name, limit=MAX_MELDS)
    if len(raw) != len(melds):
        which = name.replace("declared_", "table_")
        raise RequestError.keyed(
            "req.declare_not_parallel",
            "bad_field",
            field=name,
            n=len(raw),
            table=which,
            melds=len(melds),
        )
    out: list[Declared] = []
    for i, entry in enumerate(raw):
        where = f"{name}[{i}]"
        if entry is None:
            out.append(None)
            continue
        if not isinstance(entry, list):
            raise RequestError.keyed("req.declare_not_list", "bad_field", field=where)
        jokers = sum(1 for p in melds[i] if p is JOKER)
        if len(entry) > jokers:
            raise RequestError.keyed(
                "req.declares_too_many", "bad_field", field=where, n=len(entry), jokers=jokers
            )
        cards: list[Card | Tile | None] = []
        for k, tok in enumerate(entry):
            if tok is None:
                cards.append(None)
                continue
            got = req.pieces(f"{where}[{k}]", [tok] if isinstance(tok, str) else tok)
            if len(got) != 1 or not isinstance(got[0], Card):
                raise RequestError.keyed("req.one_card", "bad_field", field=f"{where}[{k}]")
            cards.append(got[0])
        out.append(cards)
    return out


def answer(req: Request) -> dict[str, Any]:
    """Answer a ``turn`` request with the variant's :meth:`~rules.variant.Variant.judge_turn`:
    :func:`table_turn` for Tile Rummy, My Rummy and Carousel, Rummy 101's own
    :func:`rules.variants.rummy101.turn_answer`."""
    return find_variant(req.variant).judge_turn(req)


def table_turn(req: Request) -> dict[str, Any]:
    """Answer a ``turn`` request on a shared table (see the module docstring for the fields).

    Raises:
        RulesError: missing or bad fields, bad tokens, too many copies, a table before that
            holds an invalid meld.
    """
    options = req.options
    assert isinstance(options, TileRummyOptions | CarouselOptions)
    rack = req.pieces("rack")
    before = req.melds("table_before")
    initial_meld = find_variant(req.variant).answers("opening")
    opened = req.boolean("opened") if initial_meld else True
    if not initial_meld and req.has("opened"):
        req.boolean("opened")  # type-checked, not used: Carousel has no initial meld
    pset = req.piece_set()
    pset.check_copies([*rack, *(p for m in before for p in m)], "in the rack and table_before")
    decl_before = _declarations(req, "declared_before", before)
    raw_after = req.raw.get("table_after")
    if isinstance(raw_after, Mapping):
        if set(raw_after) != {"heap"}:
            raise RequestError.keyed("req.table_after_shape", "bad_field")
        heap = req.pieces("table_after.heap", raw_after["heap"])
        if req.has("declared_after"):
            _declarations(req, "declared_after", None)
        verdict = judge_turn_heap(
            rack,
            before,
            heap,
            rules=req.rules,
            options=options,
            opened=opened,
            declared_before=decl_before,
        )
        return verdict.to_json()
    after = req.melds("table_after")
    pset.check_copies([p for m in after for p in m], "in table_after")
    decl_after = _declarations(req, "declared_after", after)
    verdict = judge_turn(
        rack,
        before,
        after,
        rules=req.rules,
        options=options,
        opened=opened,
        declared_before=decl_before,
        declared_after=decl_after,
    )
    return verdict.to_json()
