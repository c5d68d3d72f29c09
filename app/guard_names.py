"""Names compared the way a person reads them: a confusable skeleton.

A phone that joins a table gives a name the others see when it saves ("saved by Bartek").
:func:`skeleton` reduces a name to what it *looks like*, so that a phone cannot pass for the
host's computer or for another joined phone with letters that look the same:

0. enclosed Latin letters (circled, squared, negative ``🅷``, ``🅗``) and regional indicators
   (``🇭``) → the letter (:data:`_ENCLOSED`);
1. NFKC (fullwidth ``Ｔｈｅ``, mathematical ``𝐓𝐡𝐞``, ligatures, superscripts → plain letters);
2. look-alike letters → one letter per class, from the Unicode confusables data
   (UTS #39, ``confusables.txt``, shipped by the ``confusable-homoglyphs`` package: Cyrillic
   ``һ`` → ``h``, Greek ``Τ`` → ``T``, ``I`` ↔ ``l`` ↔ ``1``, ``O`` ↔ ``0`` …), joined with the
   small capitals (``ᴛʜᴇ`` → ``the``: Unicode names ``LATIN LETTER SMALL CAPITAL X``), which
   the confusables data maps to Cyrillic instead;
3. casefold, then step 2 again (so ``ivo`` and ``Ivo`` meet, ``Ivo`` reading like ``lvo``);
4. accents off: NFD, combining marks dropped, and the letters with a stroke that do not
   decompose (``ł`` → ``l``, ``đ`` → ``d``, ``ø`` → ``o``, ``ħ`` → ``h``, ``ŧ`` → ``t``),
   the hooked ones (``ɦ`` → ``h``, ``ʂ`` → ``s`` …), ``ŋ`` → ``n`` and the barred o's
   (``ɵ``, ``ө``, ``θ``):
   ``Ján`` and ``Jan`` meet (two phones at one table must not be told apart by an accent),
   while ``Łukasz``, ``Ján``, ``Ľubica`` and ``Žofia`` stay four names and are shown as typed;
5. symbols that read as a letter become it (:data:`_SYMBOLS`: ``$`` → ``s``, ``@`` → ``a``,
   ``¡ ! | ⏐`` → ``i``, ``○ ◯ ° ∘`` → ``o`` …: ``Ka$ia`` is ``Kasia``, ``H○st`` is ``Host``;
   read first of all, before step 0, and again here for those the steps between made);
   then letters and digits only (spaces, apostrophes, dashes, zero-width joiners go); the digits
   that read as letters become them (``3`` → ``e``, ``4`` → ``a``, ``5`` → ``s``, ``7`` →
   ``t``, ``8`` → ``b``: ``A phon3`` is ``A phone``), for comparing only;
6. letter pairs that read as one letter (:data:`FOLDS`): ``rn`` → ``m``, ``vv`` → ``w``,
   ``cl`` → ``d`` (after step 2 ``l`` is ``i``, so ``ci``, ``cI``, ``c1`` fold too):
   ``Sarn`` meets ``Sam``, ``Davvid`` and ``clawid`` meet ``Dawid``. Decision: ``Arnold``
   and ``Amold`` clash (acceptable: two phones at one table), ``Marcin`` reads ``mardn``
   (no real name is spelt so), ``ii`` is not folded (it does not read as ``u`` or ``n`` in
   the app's font), ``Marian``/``Marlan`` already clash by step 2.

The table is built once per process from the package's data (~0.1 s; :func:`warm`).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Final

FOLDS: Final = (("rn", "m"), ("vv", "w"), ("ci", "d"))
"""Step 6 of :func:`skeleton`: pairs of skeleton letters → the one letter they read as."""
_STROKES: Final = str.maketrans(
    "łŁđĐøØħĦŧŦƀɨƶ" + "ɵƟөӨθΘϑѳѲꝋꝊ" + "ɦɧʂɓƈɗɖƒɠƙɬɭɱɲɳƥʠɽɻƭʈʋƴȥʐ" + "ŋŊη",
    "lLdDoOhHtTbiz" + "ooooooooooo" + "hhsbcddfgkllmnnpqrrttvyzz" + "nNn",
)
"""Step 4's letters with a stroke, a bar or a hook that do not decompose, and the o's with a
bar across (Latin ``ɵ``, Cyrillic ``ө``/``ѳ``, Greek ``θ``, ``ꝋ``) → the plain letter."""
_ENCLOSED: Final = {
    cp: chr(ord("a") + (cp - lo) % 26)
    for lo, hi in (
        (0x24B6, 0x24E9),  # circled Ⓐ…Ⓩ ⓐ…ⓩ
        (0x1F130, 0x1F149),  # squared 🄰…🅉
        (0x1F150, 0x1F169),  # negative circled 🅐…🅩
        (0x1F170, 0x1F189),  # negative squared 🅰…🆉
        (0x1F1E6, 0x1F1FF),  # regional indicators 🇦…🇿 (two make a flag)
    )
    for cp in range(lo, hi + 1)
}
"""Step 0 of :func:`skeleton`: enclosed Latin letters and regional indicators → the letter
(NFKC leaves the negative ones and the indicators as symbols: "🅷🅾🆂🆃", "🇭🇴🇸🇹" are "host")."""
_SYMBOLS: Final = str.maketrans(
    "$§@€¢©®¥"
    + "!¡|¦ǀ\u2223\u23d0\u2502\uff5c"
    + "\u25cb\u25ef\u00b0\u2218\u25e6\u26ac\u2b58\u25cc\u2299",
    "ssaeccry" + "iiiiiiiii" + "ooooooooo",
)
"""Step 5's symbols that read as a letter in the app's font (hostile tester, session 12: "Ka$ia",
"P¡otr", "H○st" passed for "Kasia", "Piotr", "Host" when symbols were only dropped): money and
sign symbols, the bars and exclamation marks that read as ``i``/``l`` (one class, step 2), the
rings and circles that read as ``o``."""
_DIGITS: Final = str.maketrans("34578", "eastb")
"""Step 5's digits that read as a letter (``0``, ``1`` already meet ``o``, ``l`` by step 2)."""
_ASCII: Final = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_SMALL_CAPS_BLOCKS: Final = (
    (0x0180, 0x0300),
    (0x1D00, 0x1DC0),
    (0xA700, 0xA800),
    (0xAB30, 0xAB70),
)


@functools.cache
def _table() -> dict[str, str]:
    """Character → the one letter of its look-alike class (only characters that change)."""
    from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    for char, glyphs in data.items():
        if len(char) != 1:
            continue
        for g in glyphs:
            other = g.get("c", "")
            if len(other) == 1:
                union(char, other)
    for lo, hi in _SMALL_CAPS_BLOCKS:
        for cp in range(lo, hi):
            words = unicodedata.name(chr(cp), "").split()
            small_cap = words[:4] == ["LATIN", "LETTER", "SMALL", "CAPITAL"]
            if small_cap and len(words) == 5 and len(words[4]) == 1:
                union(chr(cp), words[4].lower())
    union("i", "l")  # I looks like l and is i's capital: with case not counting, one class
    members: dict[str, list[str]] = {}
    for x in list(parent):
        members.setdefault(find(x), []).append(x)
    out: dict[str, str] = {}
    for group in members.values():
        plain = sorted({c.lower() for c in group if c.lower() in _ASCII})
        letters = [c for c in plain if c.isalpha()]
        rep = (letters or plain or [min(group)])[0]
        for c in group:
            if c != rep:
                out[c] = rep
    return out


def warm() -> None:
    """Build the look-alike table now (at server start, not in a session's first join)."""
    _table()


def skeleton(text: str) -> str:
    """What ``text`` looks like, for comparing names (steps in the module docstring).

    ``"Tһe Host’s ᴄᴏᴍᴘᴜᴛᴇʀ"`` → ``"thehostscomputer"``; ``"Ján"`` → ``"jan"``;
    ``"Łukasz"`` → ``"lukasz"``; ``"Davvid"`` → ``"dawid"``; ``""`` → ``""``.
    """
    table = _table()
    text = text.translate(_ENCLOSED).translate(_SYMBOLS)  # before the look-alike classes
    text = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    text = unicodedata.normalize("NFKC", text)
    text = "".join(table.get(c, c) for c in text).casefold()
    text = "".join(table.get(c, c) for c in text)
    text = unicodedata.normalize("NFD", text).translate(_STROKES)
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = "".join(table.get(c, c) for c in unicodedata.normalize("NFKC", text))
    text = text.translate(_SYMBOLS)  # and those that NFKC or the classes made
    text = "".join(c for c in text if c.isalnum()).casefold().translate(_DIGITS)
    for pair, one in FOLDS:
        text = text.replace(pair, one)
    return text


MAX_MARKS: Final = 4
"""Combining marks one letter may carry (Vietnamese "ệ" has 2): more is a pile of accents
drawn over the neighbours ("zalgo")."""
_REPLACEMENTS: Final = frozenset("\ufffc\ufffd")
"""The object replacement character and the replacement character: a box, not a letter."""
_KEYCAP_BASES: Final = frozenset("0123456789#*")
_FLAG_TAGS: Final = re.compile(
    "\U0001f3f4[\U000e0061-\U000e007a]{2}[\U000e0061-\U000e007a\U000e0030-\U000e0039]{1,4}"
    "\U000e007f"
)
"""A well-formed subdivision flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿, UTS #51 tag sequence): the black flag U+1F3F4, the
subdivision code as tags (2 lowercase tag letters of the region, 1–4 lowercase tag letters or
tag digits: ``gbsct``, ``gbeng``, ``gbwls``, ``usca``), the cancel tag U+E007F. At most 8 code
points. Tag characters are allowed only so, in at most :data:`MAX_FLAGS` flags of a name."""
MAX_FLAGS: Final = 4
"""Subdivision flags one name may hold (each shows as one character): the tag characters of any
further flag are refused like stray ones (a flag hides up to 6 letters of invisible text)."""
_KEYCAP: Final = re.compile("[0-9#*]\ufe0f?\u20e3")
JOINING_SCRIPTS: Final = frozenset(
    {
        "ARABIC",
        "SYRIAC",
        "NKO",
        "MONGOLIAN",
        "DEVANAGARI",
        "BENGALI",
        "GURMUKHI",
        "GUJARATI",
        "ORIYA",
        "TAMIL",
        "TELUGU",
        "KANNADA",
        "MALAYALAM",
        "SINHALA",
        "MYANMAR",
        "KHMER",
        "TIBETAN",
    }  # fmt: skip
)
"""Scripts whose words use the zero-width non-joiner and joiner (Persian ``می‌خواهم``,
Devanagari ``क्‍ष``): between two letters or marks of one of them a joiner is allowed."""


def _script(c: str) -> str:
    """The script of a letter or mark, as the first word of its Unicode name ("" if none)."""
    if not c or unicodedata.category(c)[0] not in "LM":
        return ""
    return unicodedata.name(c, "").split(" ", 1)[0]


def _flags(name: str) -> list[re.Match[str]]:
    """The first :data:`MAX_FLAGS` well-formed subdivision flags of ``name``."""
    out: list[re.Match[str]] = []
    for m in _FLAG_TAGS.finditer(name):
        if len(out) == MAX_FLAGS:
            break
        out.append(m)
    return out


def flag_tags(name: str) -> str:
    """``name`` without the tag characters of its subdivision flags (the first
    :data:`MAX_FLAGS` well-formed ones, :data:`_FLAG_TAGS`): what the general player-name check
    sees, a flag as one character (``"Ala 🏴󠁧󠁢󠁳󠁣󠁴󠁿"`` → ``"Ala 🏴"``). Stray tag characters (capital
    tag letters, tag spaces and punctuation, a code too short or too long, no cancel tag, a
    fifth flag) are kept, and refused."""
    flags = _flags(name)
    if not flags:
        return name
    parts: list[str] = []
    at = 0
    for m in flags:
        parts.append(name[at : m.start() + 1])
        at = m.end()
    parts.append(name[at:])
    return "".join(parts)


def symbol_skeleton(text: str) -> str:
    """What a name without letters or digits (emoji) looks like, for comparing such names:
    NFKC, casefolded, only its symbols (categories ``S*``: emoji, skin tones) and keycaps'
    parts (``#``, ``*``, U+20E3: ``"#️⃣"`` and ``"*️⃣"`` stay apart). Dropped, as
    :func:`skeleton` drops them: variation selectors (U+FE00–FE0F, U+E0100–E01EF), tag
    characters (a subdivision flag is its black flag: the flags of Scotland, England and the
    black flag alone meet, as a phone that draws no such flag shows them), zero-width joiners
    and other format characters, spaces, punctuation, combining marks, blank fillers.

    ``"😀\\ufe0f"`` → ``"😀"``; ``"😀\\u200d😀"`` → ``"😀😀"``; ``"👍🏽"`` → ``"👍🏽"``.
    Decision: ``"👨‍👩‍👧"`` (one family) and ``"👨👩👧"`` meet (phones without the joined
    picture draw three people).
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    return "".join(c for c in text if unicodedata.category(c)[0] == "S" or c in "#*\u20e3")


def _pictograph(c: str) -> bool:
    """An emoji or other symbol an emoji sequence's joiner and variation selector go with."""
    return unicodedata.category(c) in ("So", "Sk", "Sm") and c not in _REPLACEMENTS


def name_problem(name: str, max_length: int) -> str | None:
    """Why a name shows as nothing, or as something else than its letters; None if it is fine.

    - ``"unreadable"``: U+FFFC or U+FFFD (a box in place of a letter);
    - ``"invisible"``: a format character (zero-width joiner and non-joiner, soft hyphen,
      word joiner, variation selectors …) other than the parts of an emoji sequence: a joiner
      between two symbols, a variation selector right after a symbol or a keycap's digit,
      ``#`` or ``*``, the tag characters of a subdivision flag (:data:`_FLAG_TAGS`), a
      zero-width non-joiner or joiner between two letters or marks of one of the
      :data:`JOINING_SCRIPTS`;
    - ``"marks"``: more than :data:`MAX_MARKS` combining marks on one letter;
    - ``"blank"``: no letter, digit, symbol or keycap ("#️⃣") at all;
    - ``"long"``: more than ``max_length`` characters once normalised (NFKC: one U+FDFA is
      18 letters).
    """
    tags = {i for m in _flags(name) for i in range(m.start() + 1, m.end())}
    for i, c in enumerate(name):
        if c in _REPLACEMENTS:
            return "unreadable"
        if unicodedata.category(c) != "Cf" and c not in "\ufe0e\ufe0f":  # selectors: Mn
            continue
        if i in tags:
            continue
        before = name[i - 1] if i else ""
        after = name[i + 1] if i + 1 < len(name) else ""
        script = _script(before)
        if c in "\u200c\u200d" and script in JOINING_SCRIPTS and _script(after) == script:
            continue  # inside a word of a script that writes with joiners
        if before == "\ufe0f" and i >= 2:  # a joiner after "symbol + emoji selector"
            before = name[i - 2]
        if c == "\u200d" and before and after and _pictograph(before) and _pictograph(after):
            continue
        if c in "\ufe0e\ufe0f" and before and (_pictograph(before) or before in _KEYCAP_BASES):
            continue
        return "invisible"
    marks = 0
    for c in unicodedata.normalize("NFD", name):
        marks = marks + 1 if unicodedata.category(c) in ("Mn", "Me") else 0
        if marks > MAX_MARKS:
            return "marks"
    if not any(unicodedata.category(c)[0] in "LNS" for c in name) and not _KEYCAP.search(name):
        return "blank"
    if len(unicodedata.normalize("NFKC", name)) > max_length:
        return "long"
    return None


__all__ = [
    "JOINING_SCRIPTS",
    "MAX_FLAGS",
    "MAX_MARKS",
    "flag_tags",
    "name_problem",
    "skeleton",
    "symbol_skeleton",
    "warm",
]
