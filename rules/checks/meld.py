"""The ``meld`` check (JUDGE.md): read one meld and say what it is."""

from __future__ import annotations

from typing import Any

from rules.errors import RequestError
from rules.melds import MeldKind, read_meld
from rules.pieces import Card, Tile
from rules.request import Request
from rules.variant import find_variant


def answer(req: Request) -> dict[str, Any]:
    """Answer ``{"check":"meld","variant":V,"meld":[...], "as"?: run|group|pair,
    "declare"?: [cards], "players"?: N}`` with the reading's fields (JUDGE.md).

    Raises:
        RulesError: bad tokens, too many copies, a bad ``as`` or ``declare`` field.
    """
    pieces = req.pieces("meld")
    as_: MeldKind | None = None
    if req.has("as"):
        kinds = ("run", "group", "pair") if req.rules.pairs else ("run", "group")
        as_ = req.string("as", choices=kinds)  # type: ignore[assignment]
    declared: list[Card | Tile | None] | None = None
    if req.has("declare"):
        if not find_variant(req.variant).declares_jokers:
            raise RequestError.keyed("req.declare_not_carousel", "bad_field")
        raw = req.items("declare", limit=4)
        declared = []
        for i, tok in enumerate(raw):
            if tok is None:
                declared.append(None)
                continue
            got = req.pieces(f"declare[{i}]", [tok] if isinstance(tok, str) else tok)
            if len(got) != 1 or not isinstance(got[0], Card):
                raise RequestError.keyed("req.one_card", "bad_field", field=f"declare[{i}]")
            declared.append(got[0])
    return read_meld(pieces, req.rules, as_, declared).to_json()
