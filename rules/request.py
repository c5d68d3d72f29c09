"""Typed access to one judge request (``../shared/JUDGE.md``).

:class:`Request` wraps the decoded JSON object: it checks ``check``, ``variant`` and
``options`` up front and reads the other fields on demand, raising
:class:`~rules.errors.RequestError` (codes ``missing_field``, ``bad_field``, ``too_large``) or a
notation error naming the field and token.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from rules.errors import NotationError, RequestError, RulesError
from rules.notation import known_pieces, parse_pieces, tokens_of
from rules.options import Options, VariantName
from rules.pieces import Piece, PieceSet
from rules.variant import MeldRules, Variant, find_variant
from rules.verdict import Line

MAX_PIECES: Final = 320
"""Most pieces accepted in one list (a 106-tile table fits three times over)."""
MAX_MELDS: Final = 120
MAX_PLAYERS: Final = 12


class Request:
    """One judge request.

    Attributes:
        raw: the decoded JSON object.
        check: the check name (``meld``, ``opening``, …).
        variant: the variant name.
        about: the variant's description (:class:`rules.variant.Variant`).
        options: the variant's options (preset + overrides).
        rules: the variant's meld rules.
    """

    def __init__(self, raw: Mapping[str, Any]) -> None:
        if type(raw) is not dict and not isinstance(raw, Mapping):
            raise RequestError.keyed("request.not_object", "bad_request")
        self.raw = raw
        self.check: str = self.string("check")
        self.about: Variant = find_variant(self.string("variant"))
        self.variant: VariantName = self.about.name
        opts = raw.get("options")
        if opts is not None and not isinstance(opts, Mapping):
            raise RequestError.keyed("request.options_not_object", "bad_field")
        self.options: Options = self.about.options(opts)
        self.rules: MeldRules = self.about.meld_rules

    # -- plain fields -------------------------------------------------------------------------
    def has(self, name: str) -> bool:
        """True when the field is present and not null."""
        return self.raw.get(name) is not None

    def string(self, name: str, default: str | None = None, choices: tuple[str, ...] = ()) -> str:
        """A string field (required unless ``default`` is given), optionally one of ``choices``."""
        value = self.raw.get(name, default)
        if value is None:
            raise RequestError.keyed("field.missing", "missing_field", name=name)
        if not isinstance(value, str):
            raise RequestError.keyed("field.not_string", "bad_field", name=name)
        if choices and value not in choices:
            raise RequestError.keyed(
                "field.not_choice",
                "bad_field",
                name=name,
                value=repr(value),
                choices=", ".join(choices),
            )
        return value

    def integer(
        self, name: str, default: int | None = None, lo: int = -(10**9), hi: int = 10**9
    ) -> int:
        """A whole-number field in ``lo..hi`` (required unless ``default`` is given)."""
        return as_int(self.raw.get(name, default), name, lo, hi)

    def boolean(self, name: str, default: bool | None = None) -> bool:
        """A true/false field (required unless ``default`` is given)."""
        value = self.raw.get(name, default)
        if value is None:
            raise RequestError.keyed("field.missing", "missing_field", name=name)
        if not isinstance(value, bool):
            raise RequestError.keyed("field.not_bool", "bad_field", name=name)
        return value

    def items(
        self, name: str, default: list[Any] | None = None, limit: int = MAX_MELDS
    ) -> list[Any]:
        """A list field (required unless ``default`` is given), at most ``limit`` long."""
        value = self.raw.get(name, default)
        if value is None:
            raise RequestError.keyed("field.missing", "missing_field", name=name)
        if not isinstance(value, list):
            raise RequestError.keyed("field.not_list", "bad_field", name=name)
        if len(value) > limit:
            raise RequestError.keyed(
                "field.too_many_entries", "too_large", name=name, n=len(value), most=limit
            )
        return value

    # -- pieces -------------------------------------------------------------------------------
    def piece_set(self, players: int | None = None) -> PieceSet:
        """The variant's set (Carousel: by ``players``, else the request's ``players`` field)."""
        if players is None and self.about.set_by_players and self.has("players"):
            players = self.integer("players", lo=self.about.players[0], hi=self.about.players[1])
        return self.about.piece_set(players)

    def pieces(
        self,
        name: str,
        value: Any = None,
        check_copies: bool = True,
        players: int | None = None,
    ) -> list[Piece]:
        """Read a list of pieces from field ``name`` (or from ``value`` when given).

        Accepts a list of tokens or one string of tokens. Checks copy limits within the list.

        Raises:
            RequestError: missing field, wrong type, or more than :data:`MAX_PIECES` pieces.
            NotationError: a bad token, its message prefixed with the field name.
            TooManyCopiesError: more copies than the set holds.
        """
        if value is None:
            value = self.raw.get(name)
        return read_pieces(self, name, value, check_copies, players)

    def melds(self, name: str, value: Any = None) -> list[list[Piece]]:
        """Read a list of melds (each a list of pieces) from field ``name``."""
        if value is None:
            value = self.raw.get(name)
        if value is None:
            raise RequestError.keyed("field.missing", "missing_field", name=name)
        if not isinstance(value, list):
            raise RequestError.keyed("field.not_melds", "bad_field", name=name)
        if len(value) > MAX_MELDS:
            raise RequestError.keyed(
                "field.too_many_melds", "too_large", name=name, n=len(value), most=MAX_MELDS
            )
        return [read_pieces(self, f"{name}[{i}]", m, True, None) for i, m in enumerate(value)]


def as_int(value: Any, name: str, lo: int = -(10**9), hi: int = 10**9) -> int:
    """``value`` as a whole number in ``lo..hi``, or a :class:`RequestError` naming ``name``."""
    if value is None:
        raise RequestError.keyed("field.missing", "missing_field", name=name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError.keyed("field.not_int", "bad_field", name=name, value=repr(value))
    if not lo <= value <= hi:
        raise RequestError.keyed(
            "field.out_of_range", "bad_field", name=name, value=value, lo=lo, hi=hi
        )
    return value


def read_pieces(
    req: Request, name: str, value: Any, check_copies: bool, players: int | None
) -> list[Piece]:
    """Pieces of the variant from tokens or a string (see :meth:`Request.pieces`)."""
    if value is None:
        raise RequestError.keyed("field.missing", "missing_field", name=name)
    if isinstance(value, list) and len(value) <= MAX_PIECES:
        # the common case: every token read before (no errors possible but too many copies)
        pset = req.piece_set(players) if check_copies else None
        rules = req.rules
        fast = known_pieces(value, rules.material, pset, rules.jokers, f"in {name}")
        if fast is not None:
            return fast
    if isinstance(value, str):
        if len(value) > MAX_PIECES * 8:
            raise RequestError.keyed("field.too_long", "too_large", name=name)
        tokens = tokens_of(value)
    elif isinstance(value, list):
        if len(value) > MAX_PIECES:
            raise RequestError.keyed(
                "field.too_many_pieces", "too_large", name=name, n=len(value), most=MAX_PIECES
            )
        if not all(isinstance(t, str) for t in value):
            raise RequestError.keyed("field.pieces_not_strings", "bad_field", name=name)
        if any(len(t) > 16 for t in value):
            raise NotationError(
                next(t for t in value if len(t) > 16)[:16] + "…", Line("token.too_long", {})
            )
        tokens = tokens_of(value)
    else:
        raise RequestError.keyed("field.not_pieces", "bad_field", name=name)
    if len(tokens) > MAX_PIECES:
        raise RequestError.keyed(
            "field.too_many_pieces", "too_large", name=name, n=len(tokens), most=MAX_PIECES
        )
    pset = req.piece_set(players)
    try:
        return parse_pieces(
            tokens,
            req.rules.material,
            pset if check_copies else None,
            req.rules.jokers,
            req.variant,
            where=f"in {name}",
        )
    except NotationError as e:
        raise NotationError(e.token, e.why, e.position, name) from None
    except RulesError:
        raise
