"""The rule book in the app: one structured markdown file per variant and language, the options
in force marked, and the section behind every verdict (issue 5, item 3).

Content lives in ``app/rulebook/<lang>/<variant>.md`` (``en`` and ``pl`` for every variant,
``sk`` at least for Carousel) and ``app/rulebook/<lang>/index.md`` (the words the rule book
screen writes around the rules: "In force", …). The format is plain markdown with a few marks:

- front matter between ``---`` lines: ``variant``, ``lang``, ``title``, ``source``;
- ``## Title {#id}``: a section with a stable id (the same ids, in the same order, in every
  language: :data:`SECTION_IDS`); ``### Title``: a sub-heading;
- blocks separated by blank lines: paragraphs, ``- `` list items, ``1. `` numbered items and
  ``| a | b |`` tables (first row: the header); ``**bold**`` and ``*italic*`` inline;
- ``[option:NAME=VALUE]`` (also ``!=``, ``>=``, ``<=``, ``>``, ``<``; ``a|b`` for either value;
  values ``true``, ``false``, ``none``, numbers or names): the block holds only when the option
  has that value. Marks on different options must all hold; marks on one option are
  alternatives. ``joker_level`` (0–4) can be tested besides the options of
  :mod:`rules.options`. ``[option:NAME]`` alone: the block is about that option and shows its
  value in the game;
- ``{#anchor}`` at the end of a block: a stable id for that block (e.g. ``{#level3}``).

A verdict links to its rule with :func:`link_for`: the section its ``rule_ref`` names (the
engine says where every verdict stands); an answer stored before ``rule_ref`` existed is
placed by its variant (:meth:`rules.variant.Variant.section_for`, from its reason code, the
check and its ``rule`` text such as ``"RULES.md §4, seed 001"``). The screen
route of that link is :meth:`Link.route`: ``/rules/<variant>/<section>`` or, with a game,
``/game/<id>/rules/<section>``. :func:`excerpt` gives the blocks of that section marked for
the options in force, to show a verdict's rule text beside it.

This module is pure (no Flet); :mod:`app.ui.home.rulebook_view` draws it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final, Literal

from app import i18n
from app.games.variants import VARIANT_KEYS, about
from app.i18n import N_
from app.ui.common import labels
from rules.errors import OptionError
from rules.options import JOKER_RULES, TileRummyOptions, options_dict, options_for

CONTENT_DIR: Final = Path(__file__).parent / "rulebook"
LANGS: Final[tuple[str, ...]] = ("en", "pl", "sk")
"""Languages of the rule book, in the order offered; English is the fallback."""
VARIANTS: Final[tuple[str, ...]] = VARIANT_KEYS
"""Every variant with a rule book, in the order offered (the registry's)."""

SECTION_IDS: Final[dict[str, tuple[str, ...]]] = {v: about(v).rules.sections for v in VARIANTS}
"""Every variant's section ids, in reading order (the same in every language): the variant's
description (:attr:`rules.variant.Variant.sections`)."""

ALIASES: Final[dict[str, str]] = {
    "notation": "reading",
    "rummy101": "players",
    "tiles": "players",
    "tile_rummy": "players",
    "my_rummy": "players",
    "carousel": "players",
    "initial_meld": "opening",
    "deal": "players",
    "setup": "players",
}
"""Other names a link may use for a section (e.g. the checkers' per-§ names)."""

REASON_OPTIONS: Final[dict[str, tuple[str, ...]]] = {
    "joker_rule": ("joker_rule",),
    "knock_above_limit": ("knock_max",),
    "below_threshold": ("threshold", "threshold_mode"),
    "too_few_pairs": ("pairs_needed", "threshold_mode"),
    "below_initial_meld": ("initial_meld",),
    "manipulated_before_initial_meld": ("manipulate_on_initial_turn",),
    "rounds_after_end": ("target",),
    "round_after_game_end": ("target",),
    "too_many_rounds": ("games",),
}
"""The options a reason depends on: their blocks in force are the verdict's rule text."""

# ---------------------------------------------------------------------------------------------
# The content model
# ---------------------------------------------------------------------------------------------

Op = Literal["=", "!=", ">=", "<=", ">", "<"]
Value = bool | int | str | None


def parse_value(text: str) -> Value:
    """``"true"``/``"false"`` → bool, ``"none"`` → None, digits → int, else the name."""
    t = text.strip()
    low = t.lower()
    if low == "true":
        return True
    if low == "false":
        return False
    if low in ("none", "null", "off"):
        return None
    if re.fullmatch(r"-?\d+", t):
        return int(t)
    return t


@dataclass(frozen=True)
class Condition:
    """One ``[option:NAME<op>VALUE]`` mark: ``values`` are alternatives (``a|b``)."""

    name: str
    op: Op
    values: tuple[Value, ...]

    def holds(self, options: Mapping[str, Any]) -> bool:
        """Whether the option's value in ``options`` meets the mark (a missing option: no)."""
        if self.name not in options:
            return False
        have = options[self.name]
        if self.op == "=":
            return any(_same(have, v) for v in self.values)
        if self.op == "!=":
            return not any(_same(have, v) for v in self.values)
        if not isinstance(have, int) or isinstance(have, bool):
            return False
        bound = self.values[0]
        if not isinstance(bound, int) or isinstance(bound, bool):
            return False
        if self.op == ">=":
            return have >= bound
        if self.op == "<=":
            return have <= bound
        if self.op == ">":
            return have > bound
        return have < bound

    def text(self) -> str:
        """The mark as written, e.g. ``joker_rule=free``."""
        return f"{self.name}{self.op}{'|'.join(value_code(v) for v in self.values)}"


def _same(have: Any, want: Value) -> bool:
    if isinstance(want, bool) or isinstance(have, bool):
        return have is want
    return bool(have == want)


def value_code(value: Any) -> str:
    """An option value as marks write it: ``true``, ``false``, ``none``, ``30``, ``free``."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "none"
    return str(value)


BlockKind = Literal["p", "li", "ol", "h3", "table"]


@dataclass(frozen=True)
class Block:
    """One paragraph, list item, sub-heading or table of a section.

    Attributes:
        kind: ``p``, ``li`` (bulleted item), ``ol`` (numbered item), ``h3`` or ``table``.
        text: the text with marks removed (inline ``**bold**``/``*italic*`` kept).
        conditions: the ``[option:NAME<op>VALUE]`` marks; the block holds when all hold.
        shows: options named by bare ``[option:NAME]`` marks (their value is shown).
        anchor: the block's ``{#anchor}`` or None.
        number: the number of an ``ol`` item.
        rows: a table's rows, header first.
    """

    kind: BlockKind
    text: str
    conditions: tuple[Condition, ...] = ()
    shows: tuple[str, ...] = ()
    anchor: str | None = None
    number: int | None = None
    rows: tuple[tuple[str, ...], ...] = ()

    @property
    def plain(self) -> str:
        """The text without inline emphasis marks (what a screen reader says)."""
        if self.kind == "table":
            return " / ".join(" ; ".join(r) for r in self.rows)
        return strip_emphasis(self.text)

    @property
    def options(self) -> tuple[str, ...]:
        """Every option the block names (marks and bare marks), in order, once."""
        names = [c.name for c in self.conditions] + list(self.shows)
        return tuple(dict.fromkeys(names))


@dataclass(frozen=True)
class Section:
    """A ``## Title {#id}`` section."""

    id: str
    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Book:
    """One variant's rule book in one language."""

    variant: str
    lang: str
    title: str
    source: str
    sections: tuple[Section, ...]
    path: Path

    def section(self, section_id: str) -> Section | None:
        """The section with that id, or None."""
        return next((s for s in self.sections if s.id == section_id), None)

    def find(self, target: str) -> tuple[Section, Block | None] | None:
        """A section id, a block ``{#anchor}`` or an alias of :data:`ALIASES` → (section,
        block or None), or None."""
        sec = self.section(target) or self.section(ALIASES.get(target, ""))
        if sec is not None:
            return sec, None
        for s in self.sections:
            for b in s.blocks:
                if b.anchor == target:
                    return s, b
        return None

    @property
    def section_ids(self) -> tuple[str, ...]:
        """The ids in reading order."""
        return tuple(s.id for s in self.sections)


class RulebookError(ValueError):
    """A content file that does not follow the format (named with its line)."""


_MARK = re.compile(r"\[option:([a-z_]+)(?:(!=|>=|<=|=|>|<)([^\]]+))?\]")
_ANCHOR = re.compile(r"\s*\{#([a-z0-9_]+)\}\s*$")
_HEADING = re.compile(r"^##\s+(.+?)\s*\{#([a-z0-9_]+)\}\s*$")
_OL = re.compile(r"^(\d+)\.\s+(.*)$")
_EMPHASIS = re.compile(r"\*\*(.+?)\*\*|\*(.+?)\*")


def strip_emphasis(text: str) -> str:
    """``**a** *b*`` → ``a b``."""
    return _EMPHASIS.sub(lambda m: m.group(1) or m.group(2), text)


def spans(text: str) -> list[tuple[str, str]]:
    """Inline emphasis as ``(text, style)`` pieces, style ``""``, ``"bold"`` or ``"italic"``."""
    out: list[tuple[str, str]] = []
    pos = 0
    for m in _EMPHASIS.finditer(text):
        if m.start() > pos:
            out.append((text[pos : m.start()], ""))
        if m.group(1) is not None:
            out.append((m.group(1), "bold"))
        else:
            out.append((m.group(2), "italic"))
        pos = m.end()
    if pos < len(text):
        out.append((text[pos:], ""))
    return out


def _marks(text: str, where: str) -> tuple[str, tuple[Condition, ...], tuple[str, ...], str | None]:
    anchor = None
    m = _ANCHOR.search(text)
    if m:
        anchor = m.group(1)
        text = text[: m.start()]
    conditions: list[Condition] = []
    shows: list[str] = []
    for mk in _MARK.finditer(text):
        name, op, raw = mk.group(1), mk.group(2), mk.group(3)
        if op is None:
            shows.append(name)
            continue
        values = tuple(parse_value(v) for v in raw.split("|"))
        if op in (">=", "<=", ">", "<") and (
            len(values) != 1 or not isinstance(values[0], int) or isinstance(values[0], bool)
        ):
            raise RulebookError(f"{where}: {mk.group(0)} compares with one whole number")
        conditions.append(Condition(name, op, values))  # type: ignore[arg-type]
    text = _MARK.sub("", text)
    text = re.sub(r"\s{2,}", " ", text).strip()
    m = _ANCHOR.search(text)  # an anchor written before the marks
    if m and anchor is None:
        anchor = m.group(1)
        text = text[: m.start()].strip()
    return text, tuple(conditions), tuple(shows), anchor


def parse(text: str, path: Path | None = None) -> Book:
    """Parse one content file (see the module docstring for the format).

    Raises:
        RulebookError: no front matter, a block outside a section, a bad mark, a repeated id.
    """
    where_file = str(path) if path else "<text>"
    lines = text.splitlines()
    meta: dict[str, str] = {}
    i = 0
    if lines and lines[0].strip() == "---":
        i = 1
        while i < len(lines) and lines[i].strip() != "---":
            key, _sep, value = lines[i].partition(":")
            if key.strip():
                meta[key.strip()] = value.strip()
            i += 1
        i += 1
    sections: list[Section] = []
    cur_id: str | None = None
    cur_title = ""
    blocks: list[Block] = []
    para: list[str] = []
    item: tuple[BlockKind, int | None, list[str]] | None = None
    table: list[tuple[str, ...]] = []
    start_line = 0

    def where() -> str:
        return f"{where_file}:{start_line + 1}"

    def add(kind: BlockKind, raw: str, number: int | None = None) -> None:
        if cur_id is None:
            raise RulebookError(f"{where()}: text before the first '## Title {{#id}}'")
        body, conds, shows, anchor = _marks(raw, where())
        if not body and kind != "table":
            raise RulebookError(f"{where()}: empty block")
        blocks.append(Block(kind, body, conds, shows, anchor, number))

    def flush() -> None:
        nonlocal para, item, table
        if para:
            add("p", " ".join(para))
            para = []
        if item is not None:
            kind, number, parts = item
            add(kind, " ".join(parts), number)
            item = None
        if table:
            if cur_id is None:
                raise RulebookError(f"{where()}: a table before the first section")
            body_rows = [r for r in table if not all(re.fullmatch(r":?-+:?", c) for c in r)]
            blocks.append(
                Block("table", " / ".join(" ; ".join(r) for r in body_rows), rows=tuple(body_rows))
            )
            table = []

    def close_section() -> None:
        nonlocal blocks
        if cur_id is not None:
            sections.append(Section(cur_id, cur_title, tuple(blocks)))
        blocks = []

    for n in range(i, len(lines)):
        line = lines[n].rstrip()
        stripped = line.strip()
        if stripped.startswith("## ") and not stripped.startswith("### "):
            flush()
            m = _HEADING.match(stripped)
            if not m:
                raise RulebookError(f"{where_file}:{n + 1}: a section needs '## Title {{#id}}'")
            close_section()
            cur_title, cur_id = m.group(1), m.group(2)
            continue
        if not stripped:
            flush()
            continue
        if stripped.startswith("### "):
            flush()
            start_line = n
            add("h3", stripped[4:])
            continue
        if stripped.startswith("|"):
            if para or item is not None:
                flush()
            if not table:
                start_line = n
            table.append(tuple(c.strip() for c in stripped.strip("|").split("|")))
            continue
        if table:
            flush()
        if stripped.startswith("- ") or stripped.startswith("* "):
            flush()
            start_line = n
            item = ("li", None, [stripped[2:].strip()])
            continue
        m = _OL.match(stripped)
        if m:
            flush()
            start_line = n
            item = ("ol", int(m.group(1)), [m.group(2).strip()])
            continue
        if item is not None and line.startswith((" ", "\t")):
            item[2].append(stripped)
            continue
        if item is not None:
            flush()
        if not para:
            start_line = n
        para.append(stripped)
    flush()
    close_section()
    seen: set[str] = set()
    for s in sections:
        if s.id in seen:
            raise RulebookError(f"{where_file}: section id {s.id!r} appears twice")
        seen.add(s.id)
    anchors = [b.anchor for s in sections for b in s.blocks if b.anchor]
    for a in anchors:
        if a in seen or anchors.count(a) > 1:
            raise RulebookError(f"{where_file}: anchor {a!r} is not unique")
    return Book(
        variant=meta.get("variant", path.stem if path else ""),
        lang=meta.get("lang", path.parent.name if path else ""),
        title=meta.get("title", ""),
        source=meta.get("source", ""),
        sections=tuple(sections),
        path=path or Path(),
    )


# ---------------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------------


def content_path(variant: str, lang: str) -> Path:
    """``app/rulebook/<lang>/<variant>.md``."""
    return CONTENT_DIR / lang / f"{variant}.md"


def languages(variant: str) -> tuple[str, ...]:
    """The languages the rule book of ``variant`` is written in (of :data:`LANGS`)."""
    return tuple(lang for lang in LANGS if content_path(variant, lang).is_file())


@cache
def load(variant: str, lang: str) -> Book:
    """The rule book of ``variant`` in ``lang`` (cached; files are read once per process).

    Raises:
        KeyError: no such variant or language file.
        RulebookError: the file does not follow the format.
    """
    path = content_path(variant, lang)
    if variant not in VARIANTS or lang not in LANGS or not path.is_file():
        raise KeyError(f"no rule book for {variant!r} in {lang!r}")
    book = parse(path.read_text(encoding="utf-8"), path)
    if book.variant != variant or book.lang != lang:
        raise RulebookError(f"{path}: front matter says {book.variant}/{book.lang}")
    return book


def book_for(variant: str, lang: str) -> tuple[Book, bool]:
    """The book in ``lang`` if written, else in English; the flag says a fallback happened."""
    if lang in languages(variant):
        return load(variant, lang), False
    return load(variant, "en"), lang != "en"


_DEFAULT_STRINGS: Final[dict[str, str]] = {
    "name": "English",
    "in_force": "In force",
    "not_in_force": "Not in force",
    "house_rule_off": "house rule off",
    "this_game": "now",
    "rule_when": "applies when set to",
    "defaults": "Default rules",
    "on": "on",
    "off": "off",
    "none": "none",
    "fallback": "Not written in this language yet: shown in English.",
}


@cache
def strings(lang: str) -> dict[str, str]:
    """The rule book's own words in ``lang`` (front matter of ``<lang>/index.md``), with the
    English words for any missing key."""
    out = dict(_DEFAULT_STRINGS)
    path = CONTENT_DIR / lang / "index.md"
    if lang in LANGS and path.is_file():
        lines = path.read_text(encoding="utf-8").splitlines()
        if lines and lines[0].strip() == "---":
            for line in lines[1:]:
                if line.strip() == "---":
                    break
                key, _sep, value = line.partition(":")
                if key.strip():
                    out[key.strip()] = value.strip()
    return out


@cache
def intro(lang: str) -> tuple[Block, ...]:
    """The paragraphs of ``<lang>/index.md`` after its front matter (how to read the marks)."""
    path = CONTENT_DIR / lang / "index.md"
    if lang not in LANGS or not path.is_file():
        path = CONTENT_DIR / "en" / "index.md"
    text = path.read_text(encoding="utf-8")
    body = text.split("---", 2)[2] if text.startswith("---") else text
    book = parse("## Intro {#intro}\n" + body, path)
    return book.sections[0].blocks if book.sections else ()


# ---------------------------------------------------------------------------------------------
# Options in force
# ---------------------------------------------------------------------------------------------


def options_in_force(variant: str, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The options of a game (``{"preset": …, overrides}``) or the defaults, as a plain dict
    with ``joker_level`` added for the Rummikub family. Options that do not validate fall
    back to the defaults (the rule book must show even for a broken game record)."""
    try:
        opts = options_for(variant, dict(given or {}))
    except OptionError:
        opts = options_for(variant, {})
    out = options_dict(opts)
    if isinstance(opts, TileRummyOptions):
        out["joker_level"] = opts.joker_level
    return out


def option_names(variant: str) -> tuple[str, ...]:
    """Every option name a mark may test for ``variant`` (``preset`` and ``joker_level`` too)."""
    return tuple(options_in_force(variant))


Status = Literal["plain", "in_force", "not_in_force"]


@dataclass(frozen=True)
class Marked:
    """A block judged against the options in force.

    Attributes:
        block: the block.
        status: ``plain`` (no marks), ``in_force`` or ``not_in_force``.
        why: for ``not_in_force``: ``house_rule_off`` (the block is a house rule that is off)
            or ``other_value`` (the option has another value).
        failed: the marks that do not hold (names and wanted values).
        values: ``(name, value)`` of every option the block names, as in force.
    """

    block: Block
    status: Status
    why: str = ""
    failed: tuple[Condition, ...] = ()
    values: tuple[tuple[str, Any], ...] = field(default_factory=tuple)


def mark(
    block: Block, options: Mapping[str, Any], defaults: Mapping[str, Any] | None = None
) -> Marked:
    """Judge ``block`` against ``options`` (from :func:`options_in_force`): marks on one option
    are alternatives, marks on different options must all hold.

    ``defaults`` (the variant's default options) tells a house rule from the official one: a
    block that does not hold, about an on/off option (or one that can be ``none``) and not
    describing the default value, is a house rule that is off (``why="house_rule_off"``);
    otherwise ``why="other_value"`` and the value in force is shown."""
    values = tuple((n, options.get(n)) for n in block.options if n in options)
    if not block.conditions:
        return Marked(block, "in_force" if block.shows else "plain", values=values)
    by_name: dict[str, list[Condition]] = {}
    for c in block.conditions:
        by_name.setdefault(c.name, []).append(c)
    failed: list[Condition] = []
    for conds in by_name.values():
        if not any(c.holds(options) for c in conds):
            failed.extend(conds)
    if not failed:
        return Marked(block, "in_force", values=values)
    first = failed[0]
    have = options.get(first.name)
    describes_default = (
        defaults is not None
        and first.name in defaults
        and any(c.holds({first.name: defaults[first.name]}) for c in by_name[first.name])
    )
    why = "other_value"
    if (isinstance(have, bool) or have is None) and not describes_default:
        why = "house_rule_off"
    return Marked(block, "not_in_force", why, tuple(failed), values)


def mark_section(
    section: Section, options: Mapping[str, Any], defaults: Mapping[str, Any] | None = None
) -> list[Marked]:
    """Every block of ``section`` judged against ``options`` (see :func:`mark`)."""
    return [mark(b, options, defaults) for b in section.blocks]


def status_text(m: Marked, lang: str) -> str:
    """The words beside a marked block: "In force", "Not in force (house rule off)", "Not in
    force (applies when set to: 10; now: 9)" (a box that does not apply names its own value,
    never the sentence of the value in force), or "" for a plain block."""
    s = strings(lang)
    if m.status == "plain":
        return ""
    shown = ", ".join(option_words(n, v, lang) for n, v in m.values if n in m.block.shows)
    if m.status == "in_force" and m.block.shows:
        with i18n.use_language(lang):  # "In force. This game opens at 101 points."
            said = [labels.option_sentence(n, v) for n, v in m.values if n in m.block.shows]
        if said and all(said):
            return f"{s['in_force']}. " + " ".join(str(x) for x in said)
    if m.status == "in_force":
        return f"{s['in_force']} ({s['this_game']}: {shown})" if m.block.shows else s["in_force"]
    if m.why == "house_rule_off":
        return f"{s['not_in_force']} ({s['house_rule_off']})"
    names = {c.name for c in m.failed}
    now_values = dict(m.values)
    if m.failed and all(c.op == "=" and len(c.values) == 1 for c in m.failed):
        # the box's own value, never the sentence of the value in force (that is the box
        # that applies): "Not in force (applies when set to: 10; now: 9)"
        if len(m.failed) == 1:  # the option is the block's subject: its value is enough
            rule = value_words(m.failed[0].name, m.failed[0].values[0], lang)
        else:
            rule = "; ".join(option_words(c.name, c.values[0], lang) for c in m.failed)
        now = ", ".join(
            value_words(c.name, now_values.get(c.name), lang)
            for c in m.failed
            if c.name in now_values
        )
        tail = f"; {s['this_game']}: {now}" if now else ""
        return f"{s['not_in_force']} ({s['rule_when']}: {rule}{tail})"
    now = ", ".join(option_words(n, v, lang) for n, v in m.values if n in names)
    return f"{s['not_in_force']} ({s['this_game']}: {now})"


JOKER_LEVEL_WORDS: Final[dict[str, str]] = {
    "free": N_("jokers move like any tile"),
    "match": N_("a joker is replaced only by the tile it stands for"),
    "match_from_rack": N_("a joker is replaced only by that tile, from the rack"),
    "no_split_with_joker": N_("no tile taken from a meld holding a joker"),
    "freed_joker_new_meld": N_("a freed joker only into a new meld"),
}
"""What each Tile Rummy joker level allows, in a few words (translated where shown)."""


def option_words(name: str, value: Any, lang: str) -> str:
    """An option in force as a player reads it, in ``lang``: "Initial meld (points): 30",
    "joker level 4: a freed joker only into a new meld" (never the option id)."""
    with i18n.use_language(lang):
        level: int | None = None
        if name == "joker_level" and isinstance(value, int):
            level = value
        elif name == "joker_rule" and value in JOKER_RULES:
            level = JOKER_RULES.index(value)
        if level is not None and 0 <= level < len(JOKER_RULES):
            words = i18n._(JOKER_LEVEL_WORDS[JOKER_RULES[level]])
            return i18n._("joker level {n}: {rule}").format(n=level, rule=words)
        label = labels.option_label(name)[0]
        if isinstance(value, str) and value in labels.CHOICE_NAMES:
            shown = labels.choice_name(value)
        else:
            shown = value_text(value, lang)
        return i18n._("{option}: {value}").format(option=label, value=shown)


def value_words(name: str, value: Any, lang: str) -> str:
    """An option's value alone, as :func:`option_words` says it ("9", "on", "Standard")."""
    words = option_words(name, value, lang)
    with i18n.use_language(lang):
        label = i18n._("{option}: {value}").format(option=labels.option_label(name)[0], value="")
    return words[len(label) :] if label and words.startswith(label) else words


def value_text(value: Any, lang: str) -> str:
    """An option value for people: ``on``/``off`` for booleans, ``none`` for None."""
    s = strings(lang)
    if value is True:
        return s["on"]
    if value is False:
        return s["off"]
    if value is None:
        return s["none"]
    return str(value)


# ---------------------------------------------------------------------------------------------
# From a verdict to its rule
# ---------------------------------------------------------------------------------------------

_PARA = re.compile(r"§\s*(\d+)")
_SEED = re.compile(r"seed\s*(\d{3})")


@dataclass(frozen=True)
class RuleRef:
    """A verdict's ``rule`` text taken apart: ``"RULES.md §5 solo mode; seed 002_…"`` →
    paragraphs ``(5,)``, seeds ``("002",)``, solo True."""

    paragraphs: tuple[int, ...]
    seeds: tuple[str, ...]
    solo: bool = False


def parse_rule(rule: str) -> RuleRef:
    """Take a verdict's ``rule`` field apart (every ``§N``, every ``seed NNN``)."""
    return RuleRef(
        tuple(int(p) for p in _PARA.findall(rule or "")),
        tuple(_SEED.findall(rule or "")),
        "solo" in (rule or "").lower(),
    )


SEED_VARIANTS: Final[dict[str, str]] = {}
"""The seed's number (``"001"``) -> the variant it is the rules of (``tile_rummy``): the first
registered that names it, so a variant built on another's seed (a sixth variant on gin's seed
002) never takes that variant's old answers."""
for _v in VARIANTS:
    SEED_VARIANTS.setdefault(about(_v).rules.seed.removeprefix("seed "), _v)


@dataclass(frozen=True)
class Link:
    """Where a verdict's rule stands in the rule book.

    Attributes:
        variant: the variant's book.
        section: the section id.
        anchor: a block ``{#anchor}`` inside it (e.g. ``level3``), or None.
        options: options the verdict depends on (their blocks in force are its rule text).
    """

    variant: str
    section: str
    anchor: str | None = None
    options: tuple[str, ...] = ()

    def route(self, game_id: str | None = None) -> str:
        """The screen route: ``/rules/<variant>/<section or anchor>`` or, for a game,
        ``/game/<id>/rules/<section or anchor>`` (its options marked)."""
        target = self.anchor or self.section
        if game_id:
            return f"/game/{game_id}/rules/{target}"
        return f"/rules/{self.variant}/{target}"


def link_for(
    variant: str,
    rule: str = "",
    reason: str | None = None,
    check: str | None = None,
    params: Mapping[str, Any] | None = None,
) -> Link:
    """The rule book section behind a verdict (or an input error a player caused).

    Args:
        variant: the game's or checker's variant.
        rule: the verdict's ``rule`` field (``"RULES.md §4, seed 001"``); may be empty.
        reason: the verdict's ``reason`` code (or an error's ``error`` code), if any.
        check: the check that gave it (``meld``, ``opening``, ``turn``, ``split``, ``hand``,
            ``round``, ``game``), if known.
        params: the verdict's other fields (``level`` of a joker fault, gin ``result``,
            option names such as ``knock_max``).

    Returns:
        A :class:`Link` at the section of the answer's ``rule_ref`` (in ``params``); for an
        answer without one, where the variant places the reason code, the check, the § of
        ``rule``, else its first section. Never fails for a known variant.

    Raises:
        KeyError: unknown variant.
    """
    ids = SECTION_IDS[variant]
    params = params or {}
    section: str | None = None
    structured = params.get("rule_ref")  # the engine names the section (issue 15)
    if isinstance(structured, Mapping):
        named = structured.get("section")
        if isinstance(named, str) and named in ids:
            section = named
    if section is None:  # an answer stored before rule_ref: the variant says where it stands
        result = params.get("result")
        section = about(variant).rules.section_for(
            check, reason, result if isinstance(result, str) else None, rule
        )
    anchor = None
    level = params.get("level")
    levels = len(about(variant).rules.joker_rules) > 1  # Tile Rummy: levels 0-4, own blocks
    if reason == "joker_rule" and levels and isinstance(level, int):
        anchor = f"level{level}"
    names = set(option_names(variant))
    related = list(REASON_OPTIONS.get(reason or "", ()))
    related += [k for k in params if k in names and k not in ("preset", "joker_level")]
    related = [n for n in dict.fromkeys(related) if n in names]
    return Link(variant, section, anchor, tuple(related))


def link_for_answer(variant: str, answer: Mapping[str, Any], check: str | None = None) -> Link:
    """:func:`link_for` from a judge answer dict (``reason`` or ``error``, ``rule``, the
    rest as params)."""
    reason = answer.get("reason") or answer.get("error")
    rule = answer.get("rule")
    return link_for(
        variant,
        rule if isinstance(rule, str) else "",
        reason if isinstance(reason, str) else None,
        check or (answer.get("check") if isinstance(answer.get("check"), str) else None),
        answer,
    )


@dataclass(frozen=True)
class Excerpt:
    """A verdict's rule text: the section, its blocks marked, and the ones to show first.

    Attributes:
        book: the book it comes from (its language may be the English fallback).
        section: the linked section.
        blocks: every block of the section, marked for the options in force.
        focus: the blocks that state the rule applied: the anchored block, else the blocks in
            force that name one of the link's options, else the section's blocks.
    """

    book: Book
    section: Section
    blocks: tuple[Marked, ...]
    focus: tuple[Marked, ...]


def excerpt(link: Link, lang: str, options: Mapping[str, Any] | None = None) -> Excerpt:
    """The rule text of ``link`` in ``lang`` (English where not written), marked for
    ``options`` (from :func:`options_in_force`; the defaults when None)."""
    book, _fallback = book_for(link.variant, lang)
    opts = dict(options) if options is not None else options_in_force(link.variant)
    found = book.find(link.anchor) if link.anchor else None
    section = found[0] if found else book.section(link.section)
    if section is None:
        section = book.sections[0]
    blocks = tuple(mark_section(section, opts, options_in_force(link.variant)))
    focus: tuple[Marked, ...] = ()
    if found and found[1] is not None:
        focus = tuple(m for m in blocks if m.block is found[1])
    if not focus and link.options:
        focus = tuple(
            m
            for m in blocks
            if m.status == "in_force" and any(n in link.options for n in m.block.options)
        )
    if not focus:
        focus = tuple(m for m in blocks if m.status != "not_in_force")
    return Excerpt(book, section, blocks, focus)


def section_title(variant: str, section_id: str, lang: str) -> str:
    """A section's title in ``lang`` (English where not written); the id if unknown."""
    book, _fallback = book_for(variant, lang)
    sec = book.section(section_id)
    return sec.title if sec else section_id


def all_blocks(book: Book) -> Iterable[tuple[Section, Block]]:
    """Every (section, block) of a book, in order."""
    for s in book.sections:
        for b in s.blocks:
            yield s, b


def validate(book: Book, expected: Sequence[str] | None = None) -> list[str]:
    """Problems of a loaded book: section ids not those of :data:`SECTION_IDS`, marks naming
    options the variant does not have. Empty when the book is fine."""
    problems: list[str] = []
    want = tuple(expected or SECTION_IDS.get(book.variant, ()))
    if book.section_ids != want:
        problems.append(f"{book.path}: sections {book.section_ids} != {want}")
    names = set(option_names(book.variant))
    for s, b in all_blocks(book):
        for n in b.options:
            if n not in names:
                problems.append(f"{book.path} #{s.id}: unknown option {n!r} in {b.text[:40]!r}")
    return problems
