"""The tile reader: a photo's bytes → the tiles on it, each with a box and a confidence, and the
rows they lie in. No Flet here; :func:`read_photo` is safe to call from a worker thread.

Each number found (:mod:`app.vision.find`) is read by the classifier turned upright by its
estimated up, a little turned either way (:data:`TURNS`: a steep view slants the digits) and
upside down. Then the photo's numbers check each other: one read far from the way most of
the photo's numbers face is read again in that way (:func:`_follow_the_photo`), one turned
away from its neighbours' common up again in theirs (:func:`_agree_turns`); readings that
are no tile are dropped (a bar or blob on a tile's edge, a speck far smaller than the
photo's numbers, a suit sign under a number); a 6 or 9 the face did not orient follows its
neighbours' turn. In a steep view the tiles' sides lean while their rows stay level: a number
is also read in the slanted frame of its tile's leaned up and its row (:func:`_unslant`), and
two digits beside each other slanted past :func:`app.vision.find.pair_digits`'s reach are
paired in that frame (:func:`_slanted_pairs`). A lone mark wider than one digit can be is cut in
two at its thinnest column even without a waist, and kept cut only when its halves read surely
as a number 10–13 (:func:`_wide_cut`: a steep view runs a "12"'s digits into one mark).
A number the picture's frame may cut is left out (:func:`_cut_by_frame`), and far tiles on a
big photo are read again zoomed in from the photo's own pixels (:func:`_zoomed`). Last, far
tiles of a steep view whose blurred numbers left only holes in the face, too small for the
photo's number size, are looked for at the size of the numbers read around them and added
when read surely (:func:`_far_numbers`)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from app.vision import classifier
from app.vision.features import features, upright, upright_frame
from app.vision.find import (
    SHALLOW,
    Group,
    Mark,
    Planes,
    axis_of,
    cut_mark,
    face_run,
    find_marks,
    ink_colour,
    ink_rgb,
    ink_strength,
    local_faint,
    orient,
    pair_digits,
    planes,
    rows_of,
    smooth_axes,
    split_joined,
    tidy,
    tile_quad,
    warm_split,
)
from app.vision.imageio import VisionError, decode

LOW_CONFIDENCE = 0.6
"""Tiles read with less confidence than this are marked for the player to check."""

OWN_TURN = 0.85
"""How much a number's reading in its own turn counts against one in its neighbours' turn."""

MIN_HEIGHT = 0.4
MAX_HEIGHT = 2.4
"""The smallest and largest number read, as shares of the photo's median number height."""

_DIG = {c: i for i, c in enumerate(classifier.CLASSES)}


@dataclass
class TileRead:
    """One tile read: token (``"R5"``, ``"JK"``), box (x, y, w, h in the photo's pixels),
    confidence 0–1 and the four corners of the tile (photo pixels)."""

    tile: str
    box: tuple[int, int, int, int]
    confidence: float
    corners: list[tuple[float, float]] = field(default_factory=list)


@dataclass
class Reading:
    """What a photo shows: the tiles (in row order) and the rows as indexes into ``tiles``."""

    tiles: list[TileRead]
    rows: list[list[int]]
    seconds: float
    size: tuple[int, int]

    def as_json(self) -> dict[str, Any]:
        """The command line's JSON shape: ``{"ok": true, "tiles": [...], "rows": [[...]]}``."""
        return {
            "ok": True,
            "tiles": [
                {"tile": t.tile, "box": list(t.box), "confidence": round(t.confidence, 3)}
                for t in self.tiles
            ],
            "rows": [[self.tiles[i].tile for i in r] for r in self.rows],
            "seconds": round(self.seconds, 3),
            "size": list(self.size),
        }


def _crops(
    g_marks: list[Mark], up: tuple[float, float], right: tuple[float, float] | None = None
) -> np.ndarray:
    if right is not None:
        return np.stack([features(upright_frame(m.mask, up, right)) for m in g_marks])
    return np.stack([features(upright(m.mask, up)) for m in g_marks])


def _decode(probs: np.ndarray) -> tuple[str, float]:
    """(number text or "JK" or "", score) from per-digit probabilities in reading order."""
    if len(probs) == 1:
        p = probs[0]
        digits = p[1:10]
        k = int(np.argmax(digits))
        best_d = float(digits[k])
        jk = float(p[_DIG["JK"]])
        if jk > best_d:
            return "JK", jk
        return str(k + 1), best_d
    p1, p2 = probs
    second = p2[0:4]
    k = int(np.argmax(second))
    return str(10 + k), float(p1[1] * second[k])


TURNS: tuple[tuple[float, float], ...] = (
    (0.0, 1.0),
    (-15.0, 0.85),
    (15.0, 0.85),
    (-30.0, 0.6),
    (30.0, 0.6),
)
"""Turns (degrees) tried around a number's estimated axis, with the prior weight of each: under
a strong perspective a digit is slanted (sheared), so its ink's long axis (a 7's or a 4's
diagonal) and its neighbours' may miss its tile's up by 20–30°."""


NEAR_TURNS: tuple[tuple[float, float], ...] = (
    (0.0, 1.0),
    (-12.0, 0.95),
    (12.0, 0.95),
    (-24.0, 0.9),
    (24.0, 0.9),
)
"""Turns tried around the neighbours' common up (:func:`_agree_turns`): their up is good
evidence, but perspective still turns the up from one tile to the next."""


NO_DIGIT = 0.95
"""A mark the classifier takes for no digit (``X``) this surely in a frame is not tried turned
in that frame (:data:`TURNS`): turned far enough, a suit sign or a letter looks like a 1."""


BAR_ALONG = math.cos(math.radians(35))
"""How far (cosine) a bare bar's long axis may lie from the up it is read in to be taken for a
1 (:func:`_classify`): the turns tried (:data:`TURNS`) and a steep view's lean stay within
35°; a bar lying across the up is a tile's edge or the shadow in a gap."""


def _turned(up: tuple[float, float], deg: float) -> tuple[float, float]:
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    return (c * up[0] - s * up[1], s * up[0] + c * up[1])


def _classify(
    g: Group,
    flip_allowed: bool,
    typical: float = 0.0,
    turns: tuple[tuple[float, float], ...] = TURNS,
    right: tuple[float, float] | None = None,
) -> tuple[str, float, bool, tuple[float, float]]:
    """(number or JK or "", score, flipped, up) for a group, trying it a little turned either
    way (``turns``, unless it is no digit: :data:`NO_DIGIT`) and upside down when allowed;
    ``up`` is the direction read best. With ``right`` (its row's direction, not square to
    ``up`` in a steep view) the marks are read in that slanted frame (:func:`upright_frame`)."""
    bases = [g.up] if not flip_allowed else [g.up, (-g.up[0], -g.up[1])]
    best: tuple[str, float, bool, tuple[float, float]] = ("", 0.0, False, g.up)
    best_w = 0.0
    cands = [(k, deg, _turned(b, deg), prior) for k, b in enumerate(bases) for deg, prior in turns]
    no_digit: set[int] = set()
    for k, deg, up, prior in cands:
        if k in no_digit:
            continue
        # turned half round, the slanted frame's row direction turns with the up
        r = None if right is None else (right if k == 0 else (-right[0], -right[1]))
        reading = r if r is not None else (-up[1], up[0])
        ms = sorted(g.marks, key=lambda m: m.cx * reading[0] + m.cy * reading[1])
        probs = classifier.predict(_crops(ms, up, r)).copy()
        if deg == 0 and float(probs[:, _DIG["X"]].max()) >= NO_DIGIT:
            no_digit.add(k)  # no digit in this frame: not turned until it looks like one
        for i, m in enumerate(ms):
            # a bare bar (no foot) standing along the up read is a 1 whatever the font's
            # flag looks like (a bar lying across it is a tile's edge or shadow)
            if (
                abs(m.axis[0] * up[0] + m.axis[1] * up[1]) >= BAR_ALONG
                and 2.5 * m.short <= m.long <= 4.8 * m.short
                and m.area >= 0.5 * m.long * m.short
                and m.ring_face >= 0.6
                and 0.7 * typical <= m.long <= 1.4 * typical
            ):
                probs[i, _DIG["1"]] = max(float(probs[i, _DIG["1"]]), 0.8)
        text, score = _decode(probs)
        # priors: the tile face's hint, and photos are more often taken upright
        w = score * prior * (1.0 - 0.12 * up[1]) * (1.25 if k == 0 and g.up_sure else 1.0)
        if w > best_w:
            best, best_w = (text, score, k == 1, up), w
    return best


MAX_MARKS = 1000
"""The most marks (digit-like ink blobs) a photo may hold before they are tidied: a full set of
106 tiles with two-digit numbers, suit signs and specks around them makes a few hundred (the
real dev photos at most 51, the synthetic benchmark sets at most 77, measured); more is no
rack or table, and tidying them costs time (quadratic): refused (``too_many_tiles``)."""

MAX_CANDIDATES = 320
"""The most tile candidates (numbers paired from the marks) a photo may hold before each is
read (the per-tile stage, ~20 ms a candidate): three times a full set of 106 tiles (the real dev
photos make at most 45, the synthetic benchmark sets, hard ones too, at most 58). More is refused
(``too_many_tiles``) before any is read."""

MAX_TILES = 150
"""The most tiles a reading may give (a full set is 106; the margin for specks read as tiles):
more is refused (``too_many_tiles``), so the review never shows more than can be true."""

TOO_MANY_TILES = "This photo shows too many tiles to be a rack or a table."

stage_hook: Any = None
"""Tests: called with ``"tiles"`` as the per-tile reading of a photo starts (``None``: off)."""


def _too_many(n: int, limit: int) -> None:
    if n > limit:
        raise VisionError("too_many_tiles", TOO_MANY_TILES)


def read_image(img: np.ndarray, scale: float = 1.0) -> tuple[list[Group], Planes]:
    """Find and read the tiles of a BGR picture; boxes are scaled by ``scale``.

    Raises:
        VisionError: ``too_many_tiles`` (over :data:`MAX_MARKS` marks or
        :data:`MAX_CANDIDATES` tile candidates), before any tile is read."""
    pl = planes(img)
    found = find_marks(pl)
    _too_many(len(found), MAX_MARKS)
    marks = tidy(found, pl)
    groups: list[Group] = []
    typical = float(np.median([m.long for m in marks])) if marks else 0.0
    paired = pair_digits(marks)
    _too_many(len(paired), MAX_CANDIDATES)
    if stage_hook is not None:
        stage_hook("tiles")
    leans: dict[int, tuple[float, float]] = {}  # each group's up as first oriented
    slanted_pairs, paired = _slanted_pairs(pl, paired, typical, leans)
    groups += slanted_pairs
    for members, axis in zip(paired, smooth_axes(paired), strict=True):
        g = orient(pl, members, axis)
        leans[id(g)] = g.up
        text, score, _f, up = _classify(g, flip_allowed=True, typical=typical)
        if len(members) == 1 and not members[0].members:
            # two digits whose ink ran together: read the halves as a two-digit number. A
            # mark wider than tall is no single digit (digits are narrower; a joker's face is
            # the exception, read as such)
            m0 = members[0]
            best_w = score
            ax = axis or m0.axis
            cuts = [(c, True) for c in split_joined(pl, m0, ax)]
            if text and text != "JK" and score >= 0.5:
                # a shallow waist only in a mark that reads as a digit as a whole (a "12"
                # whose "1" ran into the "2" reads as a 2; a card's letter reads as none)
                cuts += [(c, False) for c in _shallow_cuts(pl, m0, ax)]
            for (parts, wide, own), deep in cuts:
                g2 = orient(pl, parts)
                leans[id(g2)] = g2.up
                t2, s2, _f2, up2 = _classify(g2, flip_allowed=True, typical=typical)
                # cut across the number's own up (the mark's axis, or the way the whole mark
                # read best when it is too square to have one) at a clear waist
                own = own or abs(up2[0] * up[0] + up2[1] * up[1]) > 0.94
                w2 = s2 * (3.0 if deep and own and wide > 0.95 and text != "JK" else 1.0)
                if w2 > best_w:
                    g, text, score, up, best_w = g2, t2, s2, up2, w2
                sl = _slanted_cut(pl, parts, ax, typical, leans) if own else None
                if sl is not None and sl.confidence > best_w:
                    g, text, score, up, best_w = sl, sl.token, sl.confidence, sl.up, sl.confidence
            if len(text) != 2 and text != "JK":
                halves = _wide_cut(pl, m0, [ax, up], typical, leans)
                if halves is not None:
                    g, text, score, up = halves, halves.token, halves.confidence, halves.up
        if len(members) == 2 and score < 0.02:
            # not a two-digit number after all: two single marks
            for m in members:
                g1 = orient(pl, [m])
                leans[id(g1)] = g1.up
                t1, s1, _f1, up1 = _classify(g1, flip_allowed=True, typical=typical)
                _set_up(g1, up1)
                g1.token, g1.confidence = t1, s1
                groups.append(g1)
            continue
        _set_up(g, up)
        g.token, g.confidence = text, score
        groups.append(g)
    junk = sum(1 for g in groups if not g.token or g.confidence < 0.25)
    groups = [g for g in groups if g.token and g.confidence >= 0.25]
    _follow_the_photo(groups, typical)
    _agree_turns(pl, groups, typical)
    _unslant(groups, typical, leans)
    junk += sum(1 for g in groups if _round_one(g))
    groups = [g for g in groups if not _edge_like(g)]
    if len(groups) >= 3:
        # a number far smaller than the photo's others is a speck (a piece of a suit sign,
        # a logo's letter), not a tile further away; far larger, a shadow or a hole
        typical_h = float(np.median([g.height for g in groups]))
        groups = [g for g in groups if MIN_HEIGHT <= g.height / typical_h <= MAX_HEIGHT]
        groups = [
            g for g in groups if g.height > 0.75 * typical_h or not _under_a_number(g, groups)
        ]
    pl.junk = junk
    _settle_turns(pl, groups)
    _smooth_ups(groups)
    groups = [g for g in groups if not _cut_by_frame(pl, g)]
    groups += _far_numbers(pl, marks, groups, leans)
    inks = {id(g): ink_rgb(pl, g) for g in groups if g.token != "JK"}
    split = warm_split(list(inks.values()))
    for g in groups:
        if g.token != "JK":
            colour, cc = ink_colour(pl, g, split, inks[id(g)])
            if not colour:
                g.token = ""
                continue
            g.token = colour + g.token
            g.colour_conf = cc
            g.confidence = g.confidence * (0.6 + 0.4 * cc)
        q = tile_quad(pl, _boxed(g, groups, leans))
        g.quad = q * scale
        x0, y0 = q.min(axis=0) * scale
        x1, y1 = q.max(axis=0) * scale
        g.box = (int(x0), int(y0), int(math.ceil(x1 - x0)), int(math.ceil(y1 - y0)))
    return [g for g in groups if g.token], pl


FAR_NEAR = 3
"""How many of the nearest numbers read give a place's local number height
(:func:`_far_numbers`)."""

FAR_READ = 0.85
"""The least score of a number read in a hole sized by its neighbours (:func:`_far_numbers`):
such a number went unseen by the photo-wide sizes, so it is added only when read surely."""


def _far_numbers(
    pl: Planes, marks: list[Mark], groups: list[Group], leans: dict[int, tuple[float, float]]
) -> list[Group]:
    """Numbers of far tiles in a steep view, sized by their neighbours, not by the photo.

    The far tiles' numbers may be under half the near ones' height, so, blurred, they leave
    holes in the tile face too small for :func:`app.vision.find.faint_marks` (which sizes
    them by the whole photo). Here a hole is sized by the :data:`FAR_NEAR` nearest numbers
    read (``groups``, all within 5 hole sizes; :func:`app.vision.find.local_faint`); its
    faint mark, where it overlaps no number read, is paired with another such mark or with a
    mark no number took (a far "12"'s "1", whose "2" came out in fragments), square on or in
    the slanted frame of the thinner one's lean (:func:`_read_slanted`), and that pair is
    kept when it reads as a number 10–13. A faint mark with no mark beside it that may be its
    other digit (:func:`_may_pair`) is read alone (no joker: a joker's face leaves no such
    hole). Read with the neighbours' height as the usual one, a number is added only with a
    score of :data:`FAR_READ` or more and when :func:`_far_ok`. The numbers already read are
    left as they are: the photo-wide pass keeps its readings (a far number found here changes
    no near one). Returns the new groups, read, up set."""
    if len(groups) < FAR_NEAR:
        return []

    def size_at(x: float, y: float, s: float) -> float:
        near = sorted((math.hypot(g.cx - x, g.cy - y), g.height) for g in groups)[:FAR_NEAR]
        hs = [h for d, h in near if d < 5 * s]
        return float(np.median(hs)) if len(hs) == FAR_NEAR else 0.0

    found = local_faint(pl, marks, size_at)
    if not found:
        return []
    boxes = [
        (m.x, m.y, m.x + m.mask.shape[1], m.y + m.mask.shape[0]) for g in groups for m in g.marks
    ]

    def read_square_on(
        members: list[Mark], here: float, axis: tuple[float, float] | None = None
    ) -> Group:
        """The number of ``members`` read square on, with ``here`` as the usual height."""
        g = orient(pl, members, axis)
        leans[id(g)] = g.up
        text, score, _f, up = _classify(g, True, here)
        _set_up(g, up)
        g.token, g.confidence = text, score
        return g

    def free(m: Mark) -> bool:
        return not any(x0 <= m.cx <= x1 and y0 <= m.cy <= y1 for x0, y0, x1, y1 in boxes)

    dropped = {k for _m, ks in found for k in ks}
    new = [m for m, _ks in found if free(m)]
    if not new:
        return []
    pool = new + [m for k, m in enumerate(marks) if k not in dropped and free(m)]
    pairs = sorted(
        (math.hypot(o.cx - m.cx, o.cy - m.cy) / max(m.long, o.long), i, j)
        for i, m in enumerate(new)
        for j, o in enumerate(pool)
        if j != i and (j >= len(new) or j > i) and _may_pair(m, o)
    )
    used: set[int] = set()
    out: list[Group] = []
    for _d, i, j in pairs:
        if i in used or j in used:
            continue
        a, b = pool[i], pool[j]
        here = size_at((a.cx + b.cx) / 2, (a.cy + b.cy) / 2, max(a.long, b.long))
        if here <= 0:
            continue
        # square on, as pair_digits pairs; else in the slanted frame of the thinner's lean
        g = read_square_on([a, b], here)
        text, score = g.token, g.confidence
        ax = a.axis if a.short / a.long < b.short / b.long else b.axis
        sl = _read_slanted(pl, [a, b], ax, here, leans)
        if sl is not None and (len(text) != 2 or sl.confidence > score):
            g = sl
        if len(g.token) == 2 and g.confidence >= FAR_READ and _far_ok(pl, g, here):
            out.append(g)
            used.update((i, j))
    paired = {k for _d, i, j in pairs for k in (i, j)}
    for i, m in enumerate(new):
        if i in paired:
            continue  # maybe one digit of a number whose other digit was not read
        here = size_at(m.cx, m.cy, m.long)
        if here <= 0:
            continue
        g = read_square_on([m], here, axis_of([m]))
        if g.token and g.token != "JK" and g.confidence >= FAR_READ and _far_ok(pl, g, here):
            out.append(g)
    return out


def _may_pair(a: Mark, b: Mark) -> bool:
    """Whether marks ``a`` and ``b`` may be the two digits of one number, square on or
    slanted (:func:`app.vision.find.pair_digits`, :data:`SLANTED_PAIR`): about one height,
    close side by side."""
    if not 0.72 < a.long / b.long < 1.39:
        return False
    dx, dy = b.cx - a.cx, b.cy - a.cy
    d = math.hypot(dx, dy)
    h = max(a.long, b.long)
    if not 0.2 * h <= d <= 0.98 * h or d - (a.short + b.short) / 2 > 0.38 * h:
        return False
    ax = a.axis if a.short / a.long < b.short / b.long else b.axis
    return abs(dx * ax[0] + dy * ax[1]) / d <= SLANTED_PAIR[1]


def _far_ok(pl: Planes, g: Group, here: float) -> bool:
    """Whether a number read by :func:`_far_numbers` is kept: about its neighbours' height
    ``here`` (0.7–1.4), on the tile face, not cut by the frame, and no 6 or 9 whose face did
    not tell its up."""
    if not 0.7 <= g.height / here <= 1.4:
        return False
    if g.token in ("6", "9") and not g.up_sure:
        return False
    return not _edge_like(g) and not _cut_by_frame(pl, g)


SLANTED_PAIR = (0.42, 0.8)
"""How far along a digit's own axis (a share of the distance) the next digit of a two-digit
number may lie seen in a steep view (:func:`_slanted_pairs`); square on, it lies across."""


def _slanted_pairs(
    pl: Planes, paired: list[list[Mark]], typical: float, leans: dict[int, tuple[float, float]]
) -> tuple[list[Group], list[list[Mark]]]:
    """Two-digit numbers that a steep view slanted, read in their slanted frame.

    Two marks of about one height close side by side (as
    :func:`app.vision.find.pair_digits` wants them) whose offset runs slanted to the thinner
    one's axis (:data:`SLANTED_PAIR`: a leaned "1" beside its "0") are read in the frame of
    that axis and their line (:func:`app.vision.features.upright_frame`); a pair that reads
    as a number 10–13 with a score of 0.6 or more is one group. The two digits of a number
    lie closer together than a digit and the next tile's (a tile's margin lies between), so
    such a pair competes with the pairs ``paired`` made square on by closeness (the distance
    over the digits' height): a leaned "11" beside a "12" is the two 1s of the 11, not the
    11's second 1 with the 12's 1, which a steep view may line up square to their lean.
    Returns those groups (up set, read, in reading order) and ``paired`` without the pairs
    they broke (a broken pair's other mark left on its own)."""
    marks = [m for ms in paired for m in ms if not m.members]
    pair_of: dict[int, list[Mark]] = {id(m): ms for ms in paired if len(ms) == 2 for m in ms}

    def closeness(a: Mark, b: Mark) -> float:
        return math.hypot(b.cx - a.cx, b.cy - a.cy) / max(a.long, b.long)

    cand: list[tuple[float, Mark, Mark]] = []
    for i, a in enumerate(marks):
        for b in marks[i + 1 :]:
            if pair_of.get(id(a)) is pair_of.get(id(b)) is not None:
                continue  # already a pair square on
            if not 0.72 < a.long / b.long < 1.39:
                continue
            dx, dy = b.cx - a.cx, b.cy - a.cy
            d = math.hypot(dx, dy)
            h = max(a.long, b.long)
            if not 0.2 * h <= d <= 0.98 * h or d - (a.short + b.short) / 2 > 0.38 * h:
                continue
            ax = a.axis if a.short / a.long < b.short / b.long else b.axis
            along = abs(dx * ax[0] + dy * ax[1]) / d
            if not SLANTED_PAIR[0] < along <= SLANTED_PAIR[1]:
                continue
            # only where it is closer than the square-on pair of either mark
            if any(
                (ms := pair_of.get(id(m))) is not None and closeness(ms[0], ms[1]) <= d / h
                for m in (a, b)
            ):
                continue
            cand.append((d / h, a, b))
    cand.sort(key=lambda c: c[0])
    used: set[int] = set()
    out: list[Group] = []
    for _s, a, b in cand:
        if id(a) in used or id(b) in used:
            continue
        ax = a.axis if a.short / a.long < b.short / b.long else b.axis
        g = _read_slanted(pl, [a, b], ax, typical, leans)
        if g is not None:
            used.update((id(a), id(b)))
            out.append(g)
    rest: list[list[Mark]] = []
    for ms in paired:
        if not any(id(m) in used for m in ms):
            rest.append(ms)
        elif len(ms) == 2:  # a pair broken by a closer slanted one: its other mark alone
            rest += [[m] for m in ms if id(m) not in used]
    return out, rest


def _read_slanted(
    pl: Planes,
    parts: list[Mark],
    axis: tuple[float, float],
    typical: float,
    leans: dict[int, tuple[float, float]],
) -> Group | None:
    """Two digit marks read in the frame of ``axis`` (their lean) and their line; the group
    (up set, read, marks in reading order, its lean kept in ``leans``) when it reads as a
    number 10–13 with a score of 0.6 or more, else None."""
    a, b = parts
    g = orient(pl, [a, b], axis)
    lean = g.up
    dx, dy = b.cx - a.cx, b.cy - a.cy
    d = math.hypot(dx, dy) or 1.0
    line = (dx / d, dy / d)
    if line[0] * -g.up[1] + line[1] * g.up[0] < 0:
        line = (-line[0], -line[1])
    text, score, flipped, up = _classify(g, True, typical, SLANT_TURNS, line)
    if len(text) != 2 or score < 0.6:
        return None
    r = line if not flipped else (-line[0], -line[1])
    g.up = up
    g.marks.sort(key=lambda k: k.cx * r[0] + k.cy * r[1])
    g.token, g.confidence = text, score
    leans[id(g)] = lean
    return g


def _slanted_cut(
    pl: Planes,
    parts: list[Mark],
    axis: tuple[float, float],
    typical: float,
    leans: dict[int, tuple[float, float]],
) -> Group | None:
    """The two parts of a mark cut across its ``axis`` (two digits whose ink a blur joined),
    read as :func:`_slanted_pairs` reads two marks (:func:`_read_slanted`) when their line
    runs slanted to the lean (:data:`SLANTED_PAIR`); None otherwise or unread."""
    a, b = parts
    dx, dy = b.cx - a.cx, b.cy - a.cy
    d = math.hypot(dx, dy)
    if d == 0 or not SLANTED_PAIR[0] < abs(dx * axis[0] + dy * axis[1]) / d <= SLANTED_PAIR[1]:
        return None
    return _read_slanted(pl, parts, axis, typical, leans)


EDGE_FACE = 0.6
"""The least share of tile face around a 1 or a joker: a bar or a round blob with less face
around it lies on a tile's edge (the edge's shadow, a hole in a rack), not on its face."""


def _round_one(g: Group) -> bool:
    """Whether a group read as a 1 is a round mark (a club, a blot): a 1 is a bar."""
    return g.token == "1" and g.marks[0].long < 1.4 * g.marks[0].short


def _edge_like(g: Group) -> bool:
    """Whether a group read as a 1 or a joker lies half off the tile face (:data:`EDGE_FACE`),
    a 1 is round or a joker's face long (a 1 is a bar; a joker's face about as wide as high:
    a long dark blob is the shadow in a gap), or any number with tile face on barely half its
    sides (a mark on a tile's edge) is not read for sure."""
    if g.token == "JK" and g.marks[0].long > 1.5 * g.marks[0].short:
        return True
    if _round_one(g):
        return True
    face = min(m.ring_face for m in g.marks)
    if face < 0.5 and g.confidence < 0.95:
        return True  # any number with face on barely half its sides needs a sure reading
    return g.token in ("1", "JK") and face < EDGE_FACE


FRAME_TOUCH = 1
"""How close (px) a number's ink may come to the picture's frame before it counts as cut by
it (:func:`_cut_by_frame`)."""

HIDDEN_DIGIT = 0.6
"""How much room (a share of the number's height) the frame may leave between a lone digit
and itself, on a tile face running up to it, before a digit of a two-digit number may be
hidden there (:func:`_cut_by_frame`): a "1" and the gap before the next digit take about
half a digit's height."""


def _to_frame(pl: Planes, x: float, y: float, dx: float, dy: float) -> float:
    """The distance (px) from (x, y) to the picture's frame along the unit vector (dx, dy)."""
    H, W = pl.face.shape
    tx = (W - 1 - x) / dx if dx > 1e-6 else (-x / dx if dx < -1e-6 else math.inf)
    ty = (H - 1 - y) / dy if dy > 1e-6 else (-y / dy if dy < -1e-6 else math.inf)
    return min(tx, ty)


def _cut_by_frame(pl: Planes, g: Group) -> bool:
    """Whether the picture's frame may cut ``g``'s number, so that its reading may be another
    tile's (a cut 8 reads as a 6 or a 3, a "12" cut through its "1" as a 2): its ink reaches
    the frame (:data:`FRAME_TOUCH`), or it is one digit that may be the visible half of a
    number 10–13 (a 1, 2 or 3 with the frame just before it, a 1 with the frame just after
    it: :data:`HIDDEN_DIGIT`) on a tile face that runs on to the frame. Such a tile is left
    out; the player adds it by hand."""
    H, W = pl.face.shape
    for m in g.marks:
        h, w = m.mask.shape
        if min(m.x, m.y) <= FRAME_TOUCH or m.x + w >= W - FRAME_TOUCH or m.y + h >= H - FRAME_TOUCH:
            return True
    if len(g.marks) != 1 or g.token not in ("1", "2", "3"):
        return False
    reading = (-g.up[1], g.up[0])
    sides = [(-reading[0], -reading[1])] + ([reading] if g.token == "1" else [])
    for dx, dy in sides:
        to_frame = _to_frame(pl, g.cx, g.cy, dx, dy)
        room = to_frame - g.width / 2
        if room >= HIDDEN_DIGIT * g.height:
            continue
        run = face_run(pl, g.cx, g.cy, dx, dy, g.width / 2, to_frame, 0.6 * g.height)
        if run >= room - max(3.0, 0.1 * g.height):
            return True
    return False


def _under_a_number(g: Group, groups: list[Group]) -> bool:
    """Whether ``g`` (smaller than the photo's numbers) is a mark just under a larger number
    on the same tile (an Okey tile's suit sign, below a two-digit number that
    :func:`app.vision.find.tidy` saw only digit by digit)."""
    for o in groups:
        if o is g or g.height > 0.62 * o.height:
            continue
        dx, dy = g.cx - o.cx, g.cy - o.cy
        d = math.hypot(dx, dy) or 1.0
        below = -(dx * o.up[0] + dy * o.up[1])
        if below > 0.85 * d and d < 1.4 * o.height:
            return True
    return False


def _set_up(g: Group, up: tuple[float, float]) -> None:
    """Give a group the up direction it was read best in; its marks in reading order."""
    g.up = up
    g.marks.sort(key=lambda k: k.cx * -up[1] + k.cy * up[0])


def _follow_the_photo(groups: list[Group], typical: float) -> None:
    """When most of a photo's numbers face one way (a rack, melds laid by one player), a
    number read more than 60° away from that way is read again in it, and keeps that reading
    when it is a number (a tile's face that ran on into the rack's tier above it, so its
    number was read upside down as another)."""
    if len(groups) < 4:
        return
    ang = np.array([math.atan2(g.up[1], g.up[0]) for g in groups])
    wt = np.array([g.confidence for g in groups])
    hist = np.zeros(36)
    np.add.at(hist, ((np.degrees(ang) + 360) % 360 / 10).astype(int) % 36, wt)
    win = hist + np.roll(hist, 1) + np.roll(hist, -1) + np.roll(hist, 2) + np.roll(hist, -2)
    k = int(np.argmax(win))
    if win[k] < 0.6 * hist.sum():
        return  # no one way
    near = [
        (math.cos(a), math.sin(a), w)
        for a, w in zip(ang, wt, strict=True)
        if abs((math.degrees(a) - (k * 10 + 5) + 180) % 360 - 180) <= 30
    ]
    sx, sy = sum(c * w for c, _s, w in near), sum(s_ * w for _c, s_, w in near)
    norm = math.hypot(sx, sy) or 1.0
    common = (sx / norm, sy / norm)
    for g in groups:
        if g.token == "JK" or g.up[0] * common[0] + g.up[1] * common[1] > 0.5:
            continue
        old = g.up
        g.up = common
        text, score, _f, up = _classify(g, flip_allowed=False, typical=typical)
        if text and text != "JK" and score >= 0.3:
            _set_up(g, up)
            g.token, g.confidence = text, score
        else:
            g.up = old


def _agree_turns(pl: Planes, groups: list[Group], typical: float) -> None:
    """A number turned away from its neighbours' common up (a slanted 7 read along its
    diagonal as a 1) is read again in their frame, and takes that reading when it is a
    number read better than :data:`OWN_TURN` × the first. Tiles side by side in a rack or a
    meld face the same way; the neighbours' up is taken from the first reading of each.
    A single mark read across their frame (a two-digit number whose ink ran together is
    about square, so its own axis may lie along the digits' line) is also cut into two
    digits in their frame (:func:`_split_in`); so is one read across the axis its
    neighbours lie along when they face different ways along it (an 11 read half turned
    round beside a 13), turned the way those whose reading tells up face."""
    first = [(g.up, g.confidence) for g in groups]
    for i, g in enumerate(groups):
        reach = 3.5 * g.height
        near = sorted(
            (math.hypot(o.cx - g.cx, o.cy - g.cy), j)
            for j, o in enumerate(groups)
            if j != i and o.token != "JK"
        )
        near = [(d, j) for d, j in near if d < reach][:4]
        if len(near) < 2:
            continue
        sx = sum(first[j][0][0] * first[j][1] for _d, j in near)
        sy = sum(first[j][0][1] * first[j][1] for _d, j in near)
        total = sum(first[j][1] for _d, j in near)
        norm = math.hypot(sx, sy)
        if total <= 0:
            continue
        if norm >= 0.8 * total:
            common = (sx / norm, sy / norm)
            if g.up[0] * common[0] + g.up[1] * common[1] > math.cos(math.radians(8)):
                continue
            across = abs(g.up[0] * common[0] + g.up[1] * common[1]) < 0.5
            g.up = common
            text, score, _f, up = _classify(g, False, typical, NEAR_TURNS)
            if text and text != "JK" and score >= 0.3 and score > OWN_TURN * g.confidence:
                _set_up(g, up)
                g.token, g.confidence = text, score
            else:
                g.up = first[i][0]
        else:
            # the neighbours face different ways, but they may lie along one axis: a number
            # that reads the same both ways (an 11) may have been read half turned round
            axis = _common_axis([first[j] for _d, j in near])
            told = [first[j] for _d, j in near if groups[j].token not in BOTH_WAYS]
            if axis is None or not told:
                continue
            if sum((u[0] * axis[0] + u[1] * axis[1]) * c for u, c in told) < 0:
                axis = (-axis[0], -axis[1])  # the way those whose reading tells up face
            common = axis
            across = abs(g.up[0] * common[0] + g.up[1] * common[1]) < 0.5
        if across and len(g.marks) == 1 and not g.marks[0].members and g.token != "JK":
            split = _split_in(pl, g, common, typical)
            if split is not None and split[1] > OWN_TURN * g.confidence:
                g2, score = split
                g.marks, g.up, g.up_sure = g2.marks, g2.up, g2.up_sure
                g.height, g.width = g2.height, g2.width
                g.token, g.confidence = g2.token, score


def _common_axis(ups: list[tuple[tuple[float, float], float]]) -> tuple[float, float] | None:
    """The axis (a unit vector, sign arbitrary) that weighted ups ``(up, weight)`` lie along
    when they agree as axes (the mean of their doubled angles at least 0.8 of their weight),
    whichever way each points; None when they do not."""
    sx = sum(math.cos(2 * math.atan2(u[1], u[0])) * c for u, c in ups)
    sy = sum(math.sin(2 * math.atan2(u[1], u[0])) * c for u, c in ups)
    total = sum(c for _u, c in ups)
    if total <= 0 or math.hypot(sx, sy) < 0.8 * total:
        return None
    t = math.atan2(sy, sx) / 2
    return (math.cos(t), math.sin(t))


SLANT = (8.0, 50.0)
"""The least and most slant (degrees between a number's row and the square to its up) read
again in the slanted frame (:func:`_unslant`)."""

SLANT_TURNS: tuple[tuple[float, float], ...] = ((0.0, 1.0), (-8.0, 0.95), (8.0, 0.95))
"""Turns of the up tried in the slanted frame (its row's direction kept)."""


def _row_right(
    g: Group, groups: list[Group], up: tuple[float, float] | None = None
) -> tuple[float, float] | None:
    """The direction of ``g``'s row (unit vector, pointing the way it reads): towards its
    nearest neighbour on either side that faces the same way, averaged over both sides; None
    without such a neighbour. Tiles side by side keep their numbers at one height, so the
    line through them is their tiles' top edge's direction, also where a steep view leans
    the tiles' sides (and with them their up, ``up``: ``g``'s own by default) away from
    square to it. A neighbour lies beside ``g`` when it lies more than 50° off that up
    (the tile above or below lies along it, however the view leans)."""
    up = up or g.up
    reading = (-up[1], up[0])
    best: dict[int, tuple[float, float, float]] = {}
    for o in groups:
        if o is g or o.up[0] * g.up[0] + o.up[1] * g.up[1] < 0.8:
            continue
        dx, dy = o.cx - g.cx, o.cy - g.cy
        d = math.hypot(dx, dy)
        if d == 0 or d > 3.2 * g.height or not 0.6 < o.height / g.height < 1.6:
            continue
        if abs(dx * up[0] + dy * up[1]) / d > math.cos(math.radians(50)):
            continue
        side = 1 if dx * reading[0] + dy * reading[1] > 0 else -1
        if side not in best or d < best[side][0]:
            best[side] = (d, side * dx / d, side * dy / d)
    if not best:
        return None
    sx, sy = sum(v[1] for v in best.values()), sum(v[2] for v in best.values())
    norm = math.hypot(sx, sy) or 1.0
    return (sx / norm, sy / norm)


BOX_TURN = math.cos(math.radians(30))
"""How far (cosine) a tile's lean may be from its number's up for its box to be drawn along
the lean (:func:`_boxed`)."""


def _boxed(g: Group, groups: list[Group], leans: dict[int, tuple[float, float]]) -> Group:
    """``g`` as its box is drawn: along its tile's lean (:func:`_common_lean`: its own and its
    neighbours' marks' axes), not along the turn its number read best in (:data:`TURNS`, up
    to 15° off on a square-on tile, which drew the box askew across the tile); ``g`` itself
    where no lean is known or the lean is far from its up."""
    lean = _common_lean(g, groups, leans)
    if lean is None or lean[0] * g.up[0] + lean[1] * g.up[1] < BOX_TURN:
        return g
    return replace(g, up=lean)


def _common_lean(
    g: Group, groups: list[Group], leans: dict[int, tuple[float, float]]
) -> tuple[float, float] | None:
    """The up of ``g``'s tile as its neighbours' marks lean (the mean of their first
    oriented ups, ``leans``, each taken the way ``g`` reads; at least two within 3.5 heights
    facing about its way), else its own first up; None without either. A 7's or a 4's own
    axis runs along its diagonal; its neighbours' 1s, 6s, 8s and 9s lean with their tiles."""
    sx = sy = 0.0
    n = 0
    for o in groups:
        lo = leans.get(id(o))
        if o is g or lo is None or o.up[0] * g.up[0] + o.up[1] * g.up[1] < 0.8:
            continue
        if math.hypot(o.cx - g.cx, o.cy - g.cy) > 3.5 * g.height:
            continue
        if lo[0] * g.up[0] + lo[1] * g.up[1] < 0:
            lo = (-lo[0], -lo[1])
        sx, sy, n = sx + lo[0], sy + lo[1], n + 1
    norm = math.hypot(sx, sy)
    if n >= 2 and norm > 0.8 * n:
        return (sx / norm, sy / norm)
    own = leans.get(id(g))
    if own is None:
        return None
    return own if own[0] * g.up[0] + own[1] * g.up[1] >= 0 else (-own[0], -own[1])


def _unslant(groups: list[Group], typical: float, leans: dict[int, tuple[float, float]]) -> None:
    """A number whose row runs slanted to the square of its tile's up (a steep view leans
    the tiles' sides; a 7's bar then runs along the row while its up is leaned, and read
    turned by that up it is a 1) is read again in the slanted frame of that up and its row
    (:func:`_row_right`, within :data:`SLANT`); a number read there better than
    :data:`OWN_TURN` × the first reading takes it. The tile's up is the one its number was
    first oriented by (``leans``: its marks' axis, or its neighbours' where a 7's diagonal
    strays), not the turn it read best in, which may have half undone the slant."""
    frames = []
    for g in groups:
        lean = _common_lean(g, groups, leans)
        frames.append((lean, _row_right(g, groups, lean) if lean is not None else None))
    for g, (lean, right) in zip(groups, frames, strict=True):
        if right is None or lean is None or g.token == "JK":
            continue
        square = (-lean[1], lean[0])
        cos = right[0] * square[0] + right[1] * square[1]
        if not math.cos(math.radians(SLANT[1])) <= cos <= math.cos(math.radians(SLANT[0])):
            continue
        own = g.up
        g.up = lean
        text, score, _f, _up = _classify(g, False, typical, SLANT_TURNS, right)
        g.up = own
        if text and text != "JK" and score >= 0.5:
            if text == g.token:
                g.confidence = max(g.confidence, score)
            elif score > OWN_TURN * g.confidence:
                g.token, g.confidence = text, score


ONE_DIGIT_WIDE = 0.84
"""The widest one digit is (its extent across its up ÷ along it, in its tile's frame): at most
0.83 in the bold fonts rendered (a "4"; a "0" 0.80, most 0.70–0.77), a joined "10"–"13" at
least 1.17, a blur adding a little to both. A steep view's lean narrows both in the leaned
frame. A lone mark wider than this is cut in two (:func:`_wide_cut`)."""

WIDE_CUT_SCORE = 0.9
"""The least score of a wide mark's two halves read as a number 10–13 (:func:`_wide_cut`).
Measured on 25 held-out plain and 25 steep photos: the joined pairs cut right scored
0.94–1.0; the wrong cuts (a wide 9 or 4 read as "10" or "11", a 10 as "13") 0.64–0.80."""


def _wide_cut(
    pl: Planes,
    m: Mark,
    ups: list[tuple[float, float]],
    typical: float,
    leans: dict[int, tuple[float, float]],
) -> Group | None:
    """A lone mark wider than one digit can be (:data:`ONE_DIGIT_WIDE`) in the frame of one of
    ``ups`` (its tile's lean, the way it read best) or of their squares, cut at its thinnest
    column across that up (weighted by ink strength, between 30 % and 70 % of its width)
    whether or not the column is a waist, and both halves read, square on and in the slanted
    frame of the lean and their line (:func:`_read_slanted`). Two digits whose ink ran
    together in a steep view leave no waist (:func:`app.vision.find.split_joined` finds none)
    but are too wide for one digit.
    Returns the best reading that is a number 10–13 scoring :data:`WIDE_CUT_SCORE` or more,
    else None (the mark keeps its single reading)."""
    ys, xs = np.nonzero(m.mask)
    if len(ys) < 40 or m.members:
        return None
    strength = ink_strength(pl, xs + m.x, ys + m.y)
    best: Group | None = None
    seen: list[tuple[float, float]] = []
    # a joined pair is wider than tall: its own long axis, and the up read along it, may run
    # across the number, so each up's square is tried too
    for ax in [a for u in ups for a in (u, (-u[1], u[0]))]:
        if any(abs(ax[0] * s[0] + ax[1] * s[1]) > 0.98 for s in seen):
            continue
        seen.append(ax)
        rd = (-ax[1], ax[0])
        t = xs * rd[0] + ys * rd[1]
        u = xs * ax[0] + ys * ax[1]
        height = float(u.max() - u.min()) + 1
        t0 = float(t.min())
        length = float(t.max()) - t0 + 1
        if length < ONE_DIGIT_WIDE * height:
            continue
        nb = int(math.ceil(length))
        hist = np.bincount(
            np.clip((t - t0).astype(np.int32), 0, nb - 1), weights=strength, minlength=nb
        ).astype(np.float32)
        lo, hi = max(1, int(0.3 * nb)), min(nb - 1, int(math.ceil(0.7 * nb)))
        if hi <= lo:
            continue
        k = lo + int(np.argmin(hist[lo:hi]))
        parts = cut_mark(pl, m, xs, ys, t, t0 + k + 0.5)
        if parts is None:
            continue
        g2 = orient(pl, parts, ax)
        g2.up = ax
        text, score, _f, up = _classify(g2, True, typical)
        if len(text) == 2 and score >= WIDE_CUT_SCORE and (best is None or score > best.confidence):
            _set_up(g2, up)
            g2.token, g2.confidence = text, score
            leans[id(g2)] = ax
            best = g2
        sl = _read_slanted(pl, parts, ax, typical, leans)
        if (
            sl is not None
            and sl.confidence >= WIDE_CUT_SCORE
            and (best is None or sl.confidence > best.confidence)
        ):
            best = sl
    return best


def _shallow_cuts(
    pl: Planes, m: Mark, axis: tuple[float, float]
) -> list[tuple[list[Mark], float, bool]]:
    """Cuts of a mark at a shallow waist too (:data:`app.vision.find.SHALLOW`) where the mark
    is at least as wide as high and its two parts each nearly as tall as the whole: two digits
    side by side are, while one digit is narrower (a 6, 8, 9 or 0 has a shallow waist through
    its loop) and its halves cut the wrong way (a 9 cut into a "1" and an "0" read sideways)
    shorter. The whole's height is its extent along ``axis`` (a "12" whose digits ran
    together is wider than tall: its long side is its width)."""
    ys, xs = np.nonzero(m.mask)
    along = xs * axis[0] + ys * axis[1]
    tall = float(along.max() - along.min()) + 1 if len(along) else m.long
    return [
        c
        for c in split_joined(pl, m, axis, SHALLOW)
        if c[1] >= 0.95 and min(p.long for p in c[0]) >= 0.8 * min(m.long, tall)
    ]


def _split_in(
    pl: Planes, g: Group, common: tuple[float, float], typical: float
) -> tuple[Group, float] | None:
    """The best two-digit reading (group, score) of ``g``'s one mark cut into two digits
    across ``common`` (the neighbours' up), read in that frame; None when no cut reads as a
    number 10–13 with a score of 0.5 or more."""
    best: tuple[Group, float] | None = None
    for parts, _wide, own in _shallow_cuts(pl, g.marks[0], common):
        if not own:
            continue
        g2 = orient(pl, parts, common)
        g2.up = common
        text, score, _f, up = _classify(g2, False, typical, NEAR_TURNS)
        if len(text) == 2 and score >= 0.5 and (best is None or score > best[1]):
            _set_up(g2, up)
            g2.token = text
            best = (g2, score)
    return best


def _smooth_ups(groups: list[Group]) -> None:
    """Each number's up, for its box and its row, averaged with its near neighbours' where
    they face about the same way: the turn that read a digit best (:data:`TURNS`) may be off
    its tile's own by 15°, which on a long rack row would throw a far neighbour off the row.
    """
    first = [g.up for g in groups]
    for g, own in zip(groups, first, strict=True):
        sx, sy, n = 0.0, 0.0, 0
        for o, u in zip(groups, first, strict=True):
            if math.hypot(o.cx - g.cx, o.cy - g.cy) < 3.5 * g.height and (
                u[0] * own[0] + u[1] * own[1] > 0.8
            ):
                sx, sy, n = sx + u[0], sy + u[1], n + 1
        norm = math.hypot(sx, sy)
        if n >= 3 and norm > 0:
            _set_up(g, (sx / norm, sy / norm))


UNSETTLED = 0.5
"""The confidence at most of a 6 or 9 whose up neither its tile face nor another number on
the photo tells: below :data:`LOW_CONFIDENCE`, so the player is asked to check it."""

ONE_WAY = frozenset(("2", "3", "4", "5", "7", "10", "12", "13"))
"""Numbers that read as no number upside down, so their reading gives their tile's up."""


BOTH_WAYS = frozenset(("1", "8", "11"))
"""Numbers that read as themselves upside down, so their reading does not give their tile's
up: a "11" read best turned half round would face against its meld and fall out of its row."""


def _settle_turns(pl: Planes, groups: list[Group]) -> None:
    """A 6 or 9 whose tile face did not tell up from down follows its neighbours' turn: of
    those whose up is known, by their face or by a number that is no number upside down. So
    does a number that reads the same both ways (:data:`BOTH_WAYS`), keeping its reading."""
    sure = [
        g
        for g in groups
        if g.token not in ("6", "9") and (g.up_sure or (g.token in ONE_WAY and g.confidence > 0.8))
    ]
    # a number that reads the same both ways follows its near neighbours whose reading tells
    # up (its face's hint may have lost to a half-turned reading that scored as well)
    told = [g for g in groups if g.token in ONE_WAY and g.confidence > 0.8]
    for g in groups:
        if g.token not in BOTH_WAYS:
            continue
        near = sorted(
            (s for s in told if math.hypot(s.cx - g.cx, s.cy - g.cy) < 4 * g.height),
            key=lambda s: math.hypot(s.cx - g.cx, s.cy - g.cy),
        )[:4]
        if near and sum(s.up[0] * g.up[0] + s.up[1] * g.up[1] for s in near) < 0:
            # the half-turned reading's slant was no better a guess: the neighbours' up,
            # when about this way
            sx, sy = sum(s.up[0] for s in near), sum(s.up[1] for s in near)
            norm = math.hypot(sx, sy) or 1.0
            flipped = (-g.up[0], -g.up[1])
            common = (sx / norm, sy / norm)
            near_way = common[0] * flipped[0] + common[1] * flipped[1] > math.cos(math.radians(30))
            _set_up(g, common if near_way else flipped)
    for g in groups:
        if g.up_sure or g.token not in ("6", "9"):
            continue
        if not sure:
            # nothing tells up from down: a 6 or a 9 by a guess, marked for the player
            g.confidence = min(g.confidence, UNSETTLED)
            continue
        near = sorted(sure, key=lambda s: math.hypot(s.cx - g.cx, s.cy - g.cy))[:5]
        vote = sum(s.up[0] * g.up[0] + s.up[1] * g.up[1] for s in near)
        if vote < 0:
            g.up = (-g.up[0], -g.up[1])
            g.marks.sort(key=lambda k: k.cx * -g.up[1] + k.cy * g.up[0])
            g.token = "9" if g.token == "6" else "6"


ZOOM_BELOW = 20.0
"""The photo's usual number height (px, in the working picture) under which a downscaled photo
is read again zoomed in on its tiles (:func:`_zoomed`): far tiles, whose digits the downscale
leaves a few strokes wide."""

ZOOM_TO = 32.0
"""The number height (px) the zoomed reading aims at (:func:`_zoomed`), as far as the photo's
own resolution allows."""

ZOOM_PIXELS = 2_400_000
"""The most pixels of the zoomed picture (:func:`_zoomed`): about 1.6 working pictures, so a
zoomed 12-megapixel photo takes at most about 2.5 times as long as one read once."""


def _zoomed(
    data: bytes, img: np.ndarray, scale: float, groups: list[Group]
) -> tuple[list[Group], Planes] | None:
    """The tiles read again from the photo's own pixels around the tiles found, zoomed so
    their numbers are about :data:`ZOOM_TO` px high, when the working picture (``img``,
    ``scale`` from it to the photo) shrank them under :data:`ZOOM_BELOW`; None when the
    numbers are large enough, the photo has no more pixels to give (at least 1.25 times
    as many across) or the zoomed reading finds fewer tiles. Boxes are in the photo's
    pixels."""
    if not groups or scale < 1.25:
        return None
    typical = float(np.median([g.height for g in groups]))
    if typical >= ZOOM_BELOW:
        return None
    quads = np.vstack([g.quad for g in groups if g.quad is not None]) / scale
    pad = 4.0 * typical
    H, W = img.shape[:2]
    x0, y0 = max(0.0, float(quads[:, 0].min()) - pad), max(0.0, float(quads[:, 1].min()) - pad)
    x1 = min(float(W), float(quads[:, 0].max()) + pad)
    y1 = min(float(H), float(quads[:, 1].max()) + pad)
    z = min(ZOOM_TO / typical, scale, math.sqrt(ZOOM_PIXELS / max((x1 - x0) * (y1 - y0), 1.0)))
    if z < 1.25:
        return None
    big, s2, _size = decode(data, int(max(H, W) * z), keep=False)
    f = big.shape[1] / W  # working picture -> zoomed
    bx0, by0 = int(x0 * f), int(y0 * f)
    crop = big[by0 : int(math.ceil(y1 * f)), bx0 : int(math.ceil(x1 * f))]
    del big
    groups2, pl2 = read_image(np.ascontiguousarray(crop), s2)
    if len(groups2) < len(groups):
        return None
    off = np.array([bx0 * s2, by0 * s2], np.float32)
    for g in groups2:
        if g.quad is not None:
            g.quad = g.quad + off
        x, y, w, h = g.box
        g.box = (x + int(off[0]), y + int(off[1]), w, h)
    return groups2, pl2


def read_photo(data: bytes) -> Reading:
    """Read the tiles on a photo (JPEG, PNG, WebP or BMP bytes).

    Returns:
        A :class:`Reading`: tiles in row order (boxes in the photo's own pixels), rows of
        indexes into them, the seconds taken.

    Raises:
        VisionError: ``not_image``, ``truncated``, ``too_big``, ``too_small`` (see
        :mod:`app.vision.imageio`), ``no_tiles`` (nothing like a tile found) or ``cards``
        (playing cards, not tiles).
    """
    t0 = time.perf_counter()
    img, scale, size = decode(data)
    groups, _pl = read_image(img, scale)
    zoomed = _zoomed(data, img, scale, groups)
    if zoomed is not None:
        groups, _pl = zoomed
    if not groups:
        raise VisionError("no_tiles", "No tiles were found on this photo.")
    _too_many(len(groups), MAX_TILES)
    if _pl.junk >= 6 and _pl.junk > 1.4 * len(groups):
        # suit signs and letters everywhere and few numbers: playing cards
        raise VisionError("cards", "This looks like playing cards, not tiles.")
    rows = rows_of(groups)
    order = [i for r in rows for i in r]
    tiles = [
        TileRead(
            g.token,
            g.box,
            float(g.confidence),
            [(float(x), float(y)) for x, y in (g.quad if g.quad is not None else [])],
        )
        for g in (groups[i] for i in order)
    ]
    pos = {g: k for k, g in enumerate(order)}
    return Reading(tiles, [[pos[i] for i in r] for r in rows], time.perf_counter() - t0, size)


__all__ = ["LOW_CONFIDENCE", "Reading", "TileRead", "VisionError", "read_image", "read_photo"]
