"""Player names: what a name may hold (1–40 characters, no control characters, letters the
app's font can draw) and the seats of a game (the variant's player count, gin solo mode)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from app.games.records import MAX_NAME, SOLO_JOKER, GameError
from app.games.variants import about
from app.guard_names import flag_tags

_NAME_FORMAT_OK = frozenset("\u200d\u200c\ufe0e\ufe0f")
"""Format characters allowed in names: zero-width (non-)joiner, text/emoji variation selectors."""


_NAME_BLANK = frozenset(
    [chr(c) for c in (0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180F, 0x2800, 0x3164, 0xFFA0)]
    + [chr(c) for c in range(0x180B, 0x180E)]
    + [chr(c) for c in range(0xFE00, 0xFE0E)]
    + [chr(c) for c in range(0xE0100, 0xE01F0)]
)
"""Letters and marks that show as nothing (blank fillers): Hangul fillers (U+115F, U+1160,
U+3164, U+FFA0), the braille blank U+2800, the combining grapheme joiner, Khmer inherent
vowels, Mongolian and other variation selectors (not the emoji ones, U+FE0E/U+FE0F): the
Unicode Default_Ignorable code points that are not format characters, plus U+2800. Blank
spaces (U+3000, U+00A0 …) are spaces: a name's spaces are squeezed to one."""


_EMOJI_PARTS = frozenset("\u200d\ufe0f\u20e3")
"""Joiner, emoji variation selector, keycap: parts of emoji sequences."""


def unshowable(name: str) -> list[str]:
    """The characters of ``name`` the app's offline font cannot draw (it would show empty
    boxes): emoji and their sequence parts (joiner, variation selector, keycap, skin tones),
    pictographs, dingbats, arrows, card suits, stars — every symbol (``So``) from U+2190 up.
    Letters of any script, digits, punctuation and ``© ® °`` are fine. In order, each once.

    The new-game form refuses such names with this reason; :func:`new_game` still accepts
    them (an imported game keeps its names).
    """
    out: list[str] = []
    for c in name:
        cat = unicodedata.category(c)
        bad = (
            c in _EMOJI_PARTS
            or (cat == "So" and ord(c) >= 0x2190)
            or 0x1F3FB <= ord(c) <= 0x1F3FF  # skin tones (Sk)
            or 0x1F1E6 <= ord(c) <= 0x1F1FF  # regional indicators (flags)
            or 0xE0020 <= ord(c) <= 0xE007F  # tag characters (subdivision flags)
        )
        if bad and c not in out:
            out.append(c)
    return out


def _check_name(name: Any) -> str:
    if not isinstance(name, str):
        raise GameError("a player name must be text", "bad_player_name")
    name = " ".join(name.split())
    if not name:
        raise GameError("a player name may not be empty", "bad_player_name")
    # a well-formed subdivision flag counts as one character, like any emoji (at most
    # MAX_FLAGS = 4 of them, 8 code points each: a name is at most 68 code points long)
    shown = flag_tags(name)
    if len(shown) > MAX_NAME:
        raise GameError(
            f"player name {name[:MAX_NAME]!r}… is longer than {MAX_NAME} characters",
            "bad_player_name",
            {"name": name[:MAX_NAME], "max": MAX_NAME},
        )
    # emoji sequences use the zero-width joiner and variation selectors (format characters):
    # those are fine, and so are the tag characters of a well-formed subdivision flag (🏴 +
    # region and subdivision as lowercase tag letters and digits + cancel tag, "gbsct",
    # :func:`app.guard_names.flag_tags`); control, surrogate, private-use, unassigned and blank
    # filler characters (_NAME_BLANK) are not, nor any other tag character (capital tag letters,
    # tag spaces: invisible text; a code too short or too long; a fifth flag)
    bad = [
        c
        for c in shown
        if unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn")
        or (unicodedata.category(c) == "Cf" and c not in _NAME_FORMAT_OK)
        or c in _NAME_BLANK
    ]
    if bad:
        raise GameError(
            f"player name {name!r} contains a character that cannot be shown (U+{ord(bad[0]):04X})",
            "bad_player_name",
            {"name": name, "char": f"U+{ord(bad[0]):04X}"},
        )
    return str(name)


def _check_players(variant: str, players: Any, solo: bool = False) -> list[str]:
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise GameError("players must be a list of names", "bad_players")
    names = [_check_name(p) for p in players]
    info = about(variant)
    opponent = info.solo_opponent or SOLO_JOKER
    if solo:
        if len(names) == 2 and names[1] == opponent:
            names = names[:1]
        if len(names) != 1 or names[0].casefold() == opponent:
            raise GameError(
                f"{info.display_name} solo mode is one player against the {opponent}; "
                "give one other name",
                "bad_player_count",
                {"solo": True},
            )
        return [names[0], opponent]
    lo, hi = info.players
    if not lo <= len(names) <= hi:
        raise GameError(
            f"{info.display_name} is played by {lo}–{hi} players, not {len(names)}"
            if lo != hi
            else f"{info.display_name} is played by {lo} players, not {len(names)}",
            "bad_player_count",
            {"variant": variant, "lo": lo, "hi": hi, "n": len(names)},
        )
    seen: set[str] = set()
    for n in names:
        if n.casefold() in seen:
            raise GameError(f"player name {n!r} appears twice", "duplicate_player", {"name": n})
        seen.add(n.casefold())
    return names
