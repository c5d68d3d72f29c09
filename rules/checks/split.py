"""The ``split`` check (JUDGE.md): is this heap of pieces, with no grouping, a valid table?"""

from __future__ import annotations

from typing import Any

from rules.notation import format_pieces
from rules.pieces import JOKER
from rules.request import Request
from rules.search.split import find_split, isolated_piece
from rules.variant import find_variant
from rules.verdict import add_line, line, rule_ref


def answer(req: Request) -> dict[str, Any]:
    """Answer ``{"check":"split","variant":V,"tiles":[...], "players"?: N}``.

    Exact: ``valid: false`` means no partition into melds exists (RULES.md §2: runs, groups,
    and in Rummy 101 pairs; Carousel aces low or high). An empty heap is an empty table: valid,
    no melds.

    Returns:
        ``{"valid": true, "melds": [[canonical pieces]…], "kinds": ["run"|"group"|"pair"…],
        "jokers": [[what each joker stands for]…]}`` (``jokers`` only when the heap holds a
        joker: per meld, ``"R13"``/``"AS"`` for a run or pair joker, ``"?7"`` for a group joker
        whose colour is open); melds ordered by first piece, each normalised (runs ascending,
        groups by colour/suit, jokers where they stand). Or ``{"valid": false, "reason":
        "no_split", "message": …, "rule": …}`` (plus ``"piece"`` when one piece fits no meld at
        all).

    Raises:
        RulesError: missing ``tiles``, a bad token, more copies than the set holds.
    """
    pieces = req.pieces("tiles")
    rule = find_variant(req.variant).table_rule  # the meld rules (§2) and its table rule
    melds = find_split(pieces, req.rules)
    if melds is None:
        m = req.rules.material
        out: dict[str, Any] = {"valid": False, "reason": "no_split"}
        lonely = isolated_piece(pieces, req.rules)
        if lonely is not None:
            ln = line(f"split.no_split_piece.{m}", n=len(pieces), piece=str(lonely))
            out["message"] = f"{ln.english()} ({rule})"
            out["piece"] = str(lonely)
        else:
            key = "split.no_split_pairs.tiles" if req.rules.pairs else f"split.no_split.{m}"
            ln = line(key, n=len(pieces))
            out["message"] = f"{ln.english()} ({rule})"
        out["rule"] = rule
        return add_line(out, ln, rule_ref(rule, req.variant, "melds"))
    result: dict[str, Any] = {
        "valid": True,
        "melds": [format_pieces(m.pieces) for m in melds],
        "kinds": [m.kind for m in melds],
    }
    if any(p is JOKER for p in pieces):
        result["jokers"] = [list(m.jokers) for m in melds]
    if melds:
        ln = line(f"split.valid.{req.rules.material}", melds=len(melds))
    else:
        ln = line("split.empty")
    return add_line(result, ln, rule_ref(rule, req.variant, "melds"))
