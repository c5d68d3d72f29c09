"""A command line for people: ``python -m rules CHECK VARIANT ...`` prints the verdict in words.

Every command builds the same request as the JSON judge (JUDGE.md) and prints its answer as
sentences; ``--json`` prints the judge's JSON instead. Exit status: 0 valid (or scored),
1 not valid, 2 unusable input.

Examples::

    python -m rules meld rummy101 R11 R12 JK
    python -m rules meld tile_rummy JK JK R10 --as run
    python -m rules meld carousel 8S 8H JK --declare 8D
    python -m rules opening rummy101 "R10 R11 R12" "B11 B12 B13" "K11 Y11 B11"
    python -m rules opening rummy101 "R10 R11 R12" --discard R12 --needed 117
    python -m rules hand gin AS 2S 3S 7H 7D 7C 9C TC JC 4D
    python -m rules hand carousel JK 2S
    python -m rules split tile_rummy R1 R2 R3 B7 K7 Y7 JK
    python -m rules turn tile_rummy --opened --rack "R13 B2" --before "R10 R11 R12" \\
        --after "R10 R11 R12 R13"
    python -m rules turn rummy101 --opened melds --rack "R6 K2" --before "R3 R4 R5" \\
        --after "R3 R4 R5 R6"
    python -m rules turn rummy101 --opened none --taken-discard R9 --rack "R10 R11 K2" \\
        --after "R9 R10 R11"
    python -m rules round gin --request '{"knocker":"A","players":[...]}'
    python -m rules game gin --request @game.json
    python -m rules meld gin QS KS AS --preset modern --option knock_max=8
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Final

from rules.judge import answer
from rules.variant import REGISTRY, find_variant

VARIANT_NAMES: Final[tuple[str, ...]] = tuple(v.name for v in REGISTRY)
"""The variants a command takes, in the registry's order."""


def _option(text: str) -> tuple[str, Any]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    name, value = text.split("=", 1)
    try:
        return name.strip(), json.loads(value)
    except ValueError:
        return name.strip(), value.strip()


def _melds(texts: list[str]) -> list[str]:
    """Melds given as separate arguments, or in one argument separated by ``|``."""
    out: list[str] = []
    for t in texts:
        out.extend(part.strip() for part in t.split("|") if part.strip())
    return out


def _request_json(text: str) -> dict[str, Any]:
    if text.startswith("@"):
        text = Path(text[1:]).read_text(encoding="utf-8")
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError("the request must be a JSON object")
    return value


_YES: Final = ("true", "yes", "1")
_NO: Final = ("false", "no", "0")
OPENED_101: Final = ("none", "melds", "pairs")
"""How a Rummy 101 player had opened before the turn (the judge's ``opened``)."""


def _yes_no(flag: str, text: str) -> bool:
    """``true``/``false`` (also yes/no, 1/0; any case). Raises ValueError naming ``flag``."""
    word = text.strip().lower()
    if word in _YES:
        return True
    if word in _NO:
        return False
    raise ValueError(f"{flag} takes true or false, got {text!r}")


def _opened(variant: str, text: str | None) -> str | bool:
    """The judge's ``opened`` for ``--opened`` (None: not given).

    Rummy 101: ``"none"``, ``"melds"`` or ``"pairs"`` (not given, or ``false``: ``"none"``;
    a bare ``--opened`` or ``true`` cannot say how, so it is refused). The other variants:
    true/false (not given: false; bare: true).

    Raises:
        ValueError: a value the variant does not take.
    """
    if not find_variant(variant).meld_rules.pairs:
        return False if text is None else _yes_no("--opened", text)
    word = "none" if text is None else text.strip().lower()
    if word in _NO:
        word = "none"
    if word not in OPENED_101:
        raise ValueError(
            f"for {variant}, --opened takes none, melds or pairs (how the player had opened)"
        )
    return word


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m rules``."""
    p = argparse.ArgumentParser(
        prog="python -m rules",
        description="Rummy referee: check a meld, an opening, a hand, a heap, a turn, "
        "or score a round or a game. `python -m rules judge` reads JSON Lines (JUDGE.md).",
    )
    sub = p.add_subparsers(dest="check", required=True, metavar="CHECK")

    def add(name: str, help_text: str) -> argparse.ArgumentParser:
        sp = sub.add_parser(name, help=help_text, description=help_text)
        sp.add_argument("variant", choices=VARIANT_NAMES, help="the variant")
        sp.add_argument("--preset", help="a preset of the variant (see RULES.md)")
        sp.add_argument(
            "--option",
            action="append",
            type=_option,
            default=[],
            metavar="NAME=VALUE",
            help="override one option, e.g. knock_max=8 (repeatable)",
        )
        sp.add_argument("--json", action="store_true", help="print the judge's JSON answer")
        return sp

    sp = add("meld", "Is this one meld legal? What do the jokers stand for?")
    sp.add_argument("pieces", nargs="+", help="the meld as it lies, e.g. R11 R12 JK")
    sp.add_argument("--as", dest="as_", choices=("run", "group", "pair"), help="pin a reading")
    sp.add_argument("--declare", nargs="+", help="Carousel: the cards the jokers stand for")
    sp.add_argument("--players", type=int, help="Carousel: player count (deck count)")

    sp = add("opening", "Is this an opening (Rummy 101) / initial meld (Tile, My Rummy)?")
    sp.add_argument("melds", nargs="+", help='one argument per meld, e.g. "R10 R11 R12"')
    sp.add_argument("--needed", type=int, help="points needed (default: the options')")
    sp.add_argument("--pairs-needed", type=int, help="pairs needed (Rummy 101)")
    sp.add_argument("--discard", help="the discard taken this turn (Rummy 101)")

    sp = add("hand", "Gin deadwood and best melds, or a Carousel hand's value.")
    sp.add_argument("pieces", nargs="+", help="10 or 11 gin cards, or a Carousel hand")

    sp = add("split", "Can this heap of tiles be split into valid melds?")
    sp.add_argument("pieces", nargs="+", help="the tiles, in any order")

    sp = add("turn", "Was this turn on the shared table legal?")
    sp.add_argument("--rack", required=True, help="the rack before the turn")
    sp.add_argument("--before", nargs="*", default=[], help="table melds before (or A | B)")
    sp.add_argument("--after", nargs="+", required=True, help="table melds after (or A | B)")
    sp.add_argument("--heap", action="store_true", help="--after is one heap, not melds")
    sp.add_argument(
        "--opened",
        nargs="?",
        const="true",
        default=None,
        metavar="HOW",
        help="the player's opening before this turn: for rummy101 none, melds or pairs "
        "(default none); for the others true or false (bare --opened: true; default false)",
    )
    sp.add_argument(
        "--taken-discard",
        "--discard",
        dest="taken_discard",
        help="Rummy 101: the previous player's discard, taken this turn",
    )
    sp.add_argument(
        "--pairs-opened",
        nargs="?",
        const="true",
        default=None,
        metavar="YES",
        help="Rummy 101: another player has opened with pairs, true or false "
        "(default: a pair lies on the table before)",
    )
    sp.add_argument("--needed", type=int, help="Rummy 101: points an opening needs")
    sp.add_argument("--pairs-needed", type=int, help="Rummy 101: pairs a pairs opening needs")

    for name, text in (
        ("round", "Score one finished round (request fields as in JUDGE.md)."),
        ("game", "Totals and game-end bonuses over scored rounds (JUDGE.md)."),
    ):
        sp = add(name, text)
        sp.add_argument(
            "--request", required=True, help="the JSON request fields, or @FILE with them"
        )
    return p


def build_request(ns: argparse.Namespace) -> dict[str, Any]:
    """The judge request for parsed command-line arguments."""
    req: dict[str, Any] = {"check": ns.check, "variant": ns.variant}
    options = dict(ns.option)
    if ns.preset:
        options["preset"] = ns.preset
    if options:
        req["options"] = options
    if ns.check == "meld":
        req["meld"] = ns.pieces
        if ns.as_:
            req["as"] = ns.as_
        if ns.declare:
            req["declare"] = ns.declare
        if ns.players:
            req["players"] = ns.players
    elif ns.check == "opening":
        req["melds"] = _melds(ns.melds)
        if ns.needed is not None:
            req["needed"] = ns.needed
        if ns.pairs_needed is not None:
            req["pairs_needed"] = ns.pairs_needed
        if ns.discard:
            req["taken_discard"] = ns.discard
    elif ns.check == "hand":
        req["hand"] = ns.pieces
    elif ns.check == "split":
        req["tiles"] = ns.pieces
    elif ns.check == "turn":
        req["rack"] = ns.rack
        req["opened"] = _opened(ns.variant, ns.opened)
        if find_variant(ns.variant).meld_rules.pairs:  # Rummy 101's own turn fields
            if ns.taken_discard:
                req["taken_discard"] = ns.taken_discard
            if ns.pairs_opened is not None:
                req["pairs_opened"] = _yes_no("--pairs-opened", ns.pairs_opened)
            if ns.needed is not None:
                req["needed"] = ns.needed
            if ns.pairs_needed is not None:
                req["pairs_needed"] = ns.pairs_needed
        else:
            for flag, value in (
                ("--taken-discard", ns.taken_discard),
                ("--pairs-opened", ns.pairs_opened),
                ("--needed", ns.needed),
                ("--pairs-needed", ns.pairs_needed),
            ):
                if value is not None:
                    raise ValueError(f"{flag} is for rummy101 turns only")
        req["table_before"] = _melds(ns.before)
        after = _melds(ns.after)
        req["table_after"] = {"heap": " ".join(after)} if ns.heap else after
    else:
        fields = _request_json(ns.request)
        req.update({k: v for k, v in fields.items() if k not in ("check", "variant")})
    return req


def _flat(items: Any) -> list[str]:
    """Strings of a list that may nest lists (split answers give jokers per meld)."""
    if isinstance(items, list):
        return [s for item in items for s in _flat(item)]
    return [str(items)] if items is not None else []


def describe(resp: dict[str, Any]) -> str:
    """The judge's answer as sentences for a person."""
    if not resp.get("ok"):
        return f"Input error ({resp.get('error')}): {resp.get('message')}"
    lines: list[str] = []
    if "valid" in resp:
        head = "VALID" if resp["valid"] else "NOT VALID"
        if not resp["valid"] and resp.get("reason"):
            head += f" [{resp['reason']}]"
        if resp.get("message"):
            head += f": {resp['message']}"
        lines.append(head)
    elif resp.get("message"):
        lines.append(str(resp["message"]))
    if resp.get("kind"):
        lines.append(f"{resp['kind']} worth {resp.get('value')}: {' '.join(resp.get('tiles', []))}")
    jokers = [j for j in _flat(resp.get("jokers", [])) if j]
    if jokers:
        lines.append("jokers stand for: " + ", ".join(jokers))
    for alt in resp.get("alternatives", []):
        lines.append(
            f"also reads as a {alt['kind']} worth {alt['value']}: {' '.join(alt['tiles'])}"
            + (f" (jokers: {', '.join(alt['jokers'])})" if alt.get("jokers") else "")
        )
    if resp.get("by") == "pairs":
        lines.append(
            f"opening by pairs: {resp.get('pairs')} pairs, {resp.get('pairs_needed')} needed"
        )
    elif resp.get("by"):
        lines.append(f"opening by melds: {resp.get('value')} points, {resp.get('needed')} needed")
    if "deadwood" in resp and not isinstance(resp["deadwood"], dict):
        melds = ["  ".join(" ".join(m) for m in resp.get("melds", []))]
        lines.append(f"deadwood {resp['deadwood']}; melds: {melds[0] or 'none'}")
        if resp.get("unmatched"):
            lines.append("unmatched: " + " ".join(resp["unmatched"]))
        if resp.get("discard"):
            lines.append(f"best discard: {resp['discard']}")
        lines.append(
            "gin!"
            if resp.get("gin")
            else ("may knock" if resp.get("can_knock") else "may not knock")
        )
    if "melds" in resp and "deadwood" not in resp and resp.get("valid"):
        for m in resp["melds"]:
            if isinstance(m, dict):
                kind = f"{m.get('kind')} worth {m.get('value')}: " if m.get("kind") else ""
                lines.append("  " + kind + " ".join(m.get("tiles", [])))
            else:
                lines.append("  " + " ".join(m))
    if "played" in resp:
        lines.append("played: " + " ".join(resp["played"]))
    if resp.get("scores"):
        lines.append("scores: " + ", ".join(f"{k} {v:+d}" for k, v in resp["scores"].items()))
    for b in resp.get("breakdown", []):
        if isinstance(b, dict):
            lines.append(f"  {b.get('name', '')}: {b.get('points', '')}  {b.get('why', '')}")
        else:
            lines.append(f"  {b}")
    if "totals" in resp:
        lines.append("totals: " + ", ".join(f"{k} {v}" for k, v in resp["totals"].items()))
        if resp.get("finished"):
            lines.append(f"game over; winner: {resp.get('winner')}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """Run one command; returns the exit status (0 valid, 1 not valid, 2 input error)."""
    parser = build_parser()
    ns = parser.parse_args(argv)
    try:
        req = build_request(ns)
    except (OSError, ValueError) as e:
        print(f"Input error: {e}", file=sys.stderr)
        return 2
    resp = answer(req)
    if ns.json:
        print(json.dumps(resp, ensure_ascii=False))
    else:
        try:
            print(describe(resp))
        except (TypeError, KeyError, ValueError, AttributeError):
            print(json.dumps(resp, ensure_ascii=False, indent=1))
    if not resp.get("ok"):
        return 2
    return 0 if resp.get("valid", True) else 1
