"""Synthetic photos of rummy tiles, for training the number reader and for measuring it.

Everything here is deterministic given a seed: ``render_scene(seed, ...)`` draws tiles (bold
sans numbers 1–13 in red, blue, black and orange, jokers as a smiling face) lying in melds or
rack rows on a background (wood, cloth, gingham, dark table), turned by a quarter turn or a
little, under a mild perspective, blur, glare, noise and JPEG compression, and returns the
picture with the truth: every tile's token, the corners of its number, its "up" direction and
the rows as a player reads them.

Fonts come from Debian packages (``fonts-dejavu-core``, ``fonts-liberation``,
``fonts-freefont-ttf``, ``fonts-roboto-unhinted``, ``fonts-open-sans``, ``fonts-lato``,
``fonts-urw-base35``); :data:`TRAIN_FONTS` and :data:`TEST_FONTS` are disjoint, so the
benchmark measures on fonts the model never saw. A missing font is skipped.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import cv2
import numpy as np

_FONT_DIR: Final = Path("/usr/share/fonts")
TRAIN_FONTS: Final = (
    "truetype/dejavu/DejaVuSans-Bold.ttf",
    "truetype/liberation/LiberationSans-Bold.ttf",
    "truetype/freefont/FreeSansBold.ttf",
    "truetype/roboto/unhinted/RobotoTTF/Roboto-Bold.ttf",
    "truetype/open-sans/OpenSans-Bold.ttf",
    "opentype/urw-base35/NimbusSans-Bold.otf",
    "truetype/roboto/unhinted/RobotoCondensed-Bold.ttf",
)
TEST_FONTS: Final = (
    "truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
    "truetype/open-sans/OpenSans-ExtraBold.ttf",
    "truetype/liberation/LiberationSansNarrow-Bold.ttf",
)
SUIT_FONT: Final = "truetype/dejavu/DejaVuSans-Bold.ttf"

# BGR ink colours (each jittered when drawn)
INKS: Final[dict[str, tuple[int, int, int]]] = {
    "R": (45, 35, 205),
    "B": (185, 95, 25),
    "K": (35, 30, 30),
    "Y": (30, 130, 235),
}
LIGHT_INKS: Final[dict[str, tuple[int, int, int]]] = {
    "R": (70, 60, 215),
    "B": (225, 150, 115),
    "K": (60, 55, 55),
    "Y": (40, 165, 245),
}
"""Paler inks (an Okey set's periwinkle blue and bright orange)."""
BACKGROUNDS: Final = ("wood", "dark", "cloth", "gingham", "grey", "rack")
TRAIN_BACKGROUNDS: Final = ("wood", "dark", "gingham", "grey", "rack")
TEST_BACKGROUNDS: Final = ("wood", "cloth", "dark", "rack")


def available(fonts: tuple[str, ...]) -> list[str]:
    """The fonts of ``fonts`` installed on this machine (absolute paths)."""
    return [str(_FONT_DIR / f) for f in fonts if (_FONT_DIR / f).is_file()]


@functools.lru_cache(maxsize=256)
def glyph(font: str, text: str) -> np.ndarray:
    """A tight uint8 mask (255 = ink) of ``text`` drawn in ``font`` about 120 px high."""
    canvas = np.zeros((260, 200 + 110 * len(text), 3), np.uint8)
    face = cv2.FontFace(font)
    cv2.putText(canvas, text, (30, 190), (255, 255, 255), face, 150, 800)
    m = canvas[:, :, 0]
    ys, xs = np.nonzero(m > 127)
    if len(ys) == 0:
        raise ValueError(f"font {font} drew nothing for {text!r}")
    return np.ascontiguousarray(m[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


def joker_mask(size: int, rng: np.random.Generator) -> np.ndarray:
    """A joker's face (a ring with eyes, brows, nose and a smile), ``size`` px square."""
    m = np.zeros((size, size), np.uint8)
    c = size // 2
    r = int(size * 0.46)
    t = max(1, int(size * rng.uniform(0.05, 0.08)))
    cv2.circle(m, (c, c), r, 255, t, cv2.LINE_AA)
    ey = int(c - size * 0.1)
    for sx in (-1, 1):
        ex = int(c + sx * size * 0.17)
        cv2.ellipse(m, (ex, ey), (max(1, size // 12), max(1, size // 18)), 0, 0, 360, 255, -1)
        cv2.ellipse(m, (ex, ey - size // 9), (size // 9, size // 22), 0, 190, 350, 255, t)
    cv2.line(m, (c, ey), (c - size // 20, c + size // 12), 255, max(1, t // 2))
    cv2.ellipse(m, (c, c + size // 10), (size // 4, size // 7), 0, 20, 160, 255, t)
    return m


def suit_mask(font: str, suit: str) -> np.ndarray:
    """A card suit sign (``♠♥♦♣``) as a tight mask."""
    return glyph(font, suit)


def _texture(rng: np.random.Generator, h: int, w: int, kind: str) -> np.ndarray:
    if kind == "wood":
        base = np.array(rng.uniform([60, 110, 160], [110, 160, 215]), np.float32)
        x = np.arange(w, dtype=np.float32)[None, :]
        y = np.arange(h, dtype=np.float32)[:, None]
        ang = rng.uniform(0, math.pi)
        u = x * math.cos(ang) + y * math.sin(ang)
        grain = np.sin(u / rng.uniform(3, 9) + 3 * np.sin(u / 90.0)) * rng.uniform(6, 16)
        img = base[None, None, :] + grain[:, :, None] * np.array([0.6, 0.8, 1.0], np.float32)
    elif kind == "dark":
        base = np.array(rng.uniform([40, 25, 15], [90, 60, 50]), np.float32)
        img = np.broadcast_to(base, (h, w, 3)).astype(np.float32).copy()
        img += rng.normal(0, 6, (h, w, 1)).astype(np.float32)
    elif kind == "cloth":
        base = np.array(rng.uniform([20, 80, 20], [80, 140, 60]), np.float32)
        img = np.broadcast_to(base, (h, w, 3)).astype(np.float32).copy()
        img += rng.normal(0, 10, (h, w, 1)).astype(np.float32)
    elif kind == "gingham":
        s = int(rng.integers(18, 45))
        y, x = np.mgrid[0:h, 0:w]
        a = ((x // s) % 2).astype(np.float32)
        b = ((y // s) % 2).astype(np.float32)
        v = 235 - 95 * a - 95 * b
        img = np.repeat(v[:, :, None], 3, axis=2).astype(np.float32)
    elif kind == "grey":
        v = rng.uniform(120, 185)
        img = np.full((h, w, 3), v, np.float32) + rng.normal(0, 4, (h, w, 1)).astype(np.float32)
    else:  # rack: a dark plastic
        v = rng.uniform(25, 55)
        img = np.full((h, w, 3), v, np.float32) + rng.normal(0, 5, (h, w, 1)).astype(np.float32)
    return np.asarray(img)


@dataclass
class TileTruth:
    """One drawn tile: token (``"R5"``, ``"JK"``), number corners, up vector, tile corners."""

    token: str
    number_quad: np.ndarray  # 4x2 float, scene pixels
    tile_quad: np.ndarray  # 4x2
    up: tuple[float, float]
    digits: list[np.ndarray] = field(default_factory=list)  # each 4x2 quad of one digit


@dataclass
class Scene:
    """A rendered photo and its truth; ``rows`` lists indexes into ``tiles``, left to right."""

    image: np.ndarray
    tiles: list[TileTruth]
    rows: list[list[int]]
    kind: str


def _draw_tile(
    rng: np.random.Generator,
    token: str,
    font: str,
    tw: int,
    th: int,
    face0: np.ndarray,
    num_frac: float = 0.4,
    style: Style | None = None,
) -> tuple[np.ndarray, np.ndarray, list[tuple[float, float, float, float]]]:
    """Draw a tile facing up: (BGR image, alpha mask, digit boxes x,y,w,h in tile pixels)."""
    style = style or Style()
    face = np.clip(face0 + rng.normal(0, 3, 3), 0, 255).astype(np.float32)
    img = np.broadcast_to(face, (th, tw, 3)).astype(np.float32).copy()
    # soft shading across the face
    gy = np.linspace(rng.uniform(-12, 4), rng.uniform(-4, 12), th, dtype=np.float32)[:, None]
    img += gy[:, :, None]
    alpha = np.zeros((th, tw), np.uint8)
    rad = max(2, int(tw * rng.uniform(0.06, 0.14)))
    cv2.rectangle(alpha, (rad, 0), (tw - 1 - rad, th - 1), 255, -1)
    cv2.rectangle(alpha, (0, rad), (tw - 1, th - 1 - rad), 255, -1)
    for corner in (
        (rad, rad),
        (tw - 1 - rad, rad),
        (rad, th - 1 - rad),
        (tw - 1 - rad, th - 1 - rad),
    ):
        cv2.circle(alpha, corner, rad, 255, -1)
    # darker rim
    rim = cv2.erode(alpha, np.ones((3, 3), np.uint8), iterations=max(1, tw // 30))
    img[(alpha > 0) & (rim == 0)] *= rng.uniform(0.7, 0.92)
    # an embossed logo low on the face
    logo_y = int(th * rng.uniform(0.72, 0.82))
    lw = int(tw * 0.6)
    cv2.ellipse(
        img,
        (tw // 2, logo_y),
        (lw // 2, max(1, th // 30)),
        0,
        0,
        360,
        (face * 0.9).tolist(),
        max(1, th // 40),
    )
    inks = LIGHT_INKS if style.light_inks else INKS
    ink = np.array(
        inks[token[0]] if token != "JK" else inks[str(rng.choice(["R", "K", "B", "Y"]))], np.float32
    )
    ink = np.clip(ink + rng.normal(0, 12, 3), 0, 255)
    if style.suit and token != "JK":
        # an Okey tile: a suit sign sunk in a round hollow under the number
        sy = int(th * rng.uniform(0.7, 0.78))
        hr = max(2, int(tw * rng.uniform(0.22, 0.3)))
        cv2.circle(img, (tw // 2, sy), hr, (face * rng.uniform(0.78, 0.9)).tolist(), -1)
        cv2.circle(img, (tw // 2, sy), max(1, hr - max(1, hr // 5)), face.tolist(), -1)
        sm = glyph(available((SUIT_FONT,))[0], style.suit)
        ss = max(4, int(hr * rng.uniform(0.9, 1.2)))
        sm = cv2.resize(sm, (max(2, int(sm.shape[1] * ss / sm.shape[0])), ss))
        _paint(img, sm, tw // 2 - sm.shape[1] // 2, sy - ss // 2, ink)
    boxes: list[tuple[float, float, float, float]] = []
    if token == "JK":
        size = int(tw * rng.uniform(0.6, 0.8))
        m = joker_mask(size, rng)
        x0 = (tw - size) // 2
        y0 = int(th * rng.uniform(0.36, 0.44) - size / 2)
        boxes.append((x0, y0, size, size))
        _paint(img, m, x0, y0, ink)
    else:
        text = token[1:]
        if style.suit:  # the number higher up, above the suit's hollow
            num_frac = min(num_frac, 0.4)
        nh = int(th * num_frac * rng.uniform(0.97, 1.03))
        cy = th * (rng.uniform(0.27, 0.33) if style.suit else rng.uniform(0.33, 0.42))
        masks = [glyph(font, ch) for ch in text]
        scale = nh / max(mm.shape[0] for mm in masks)
        stroke = rng.uniform(-0.04, 0.05)
        ms = []
        for mm in masks:
            w = max(1, int(round(mm.shape[1] * scale)))
            r = cv2.resize(mm, (w, nh), interpolation=cv2.INTER_AREA)
            k = int(abs(stroke) * nh)
            if k >= 1:
                op = cv2.dilate if stroke > 0 else cv2.erode
                r = op(r, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
            ms.append(r)
        gap = int(nh * rng.uniform(0.0, 0.08))
        total = sum(m.shape[1] for m in ms) + gap * (len(ms) - 1)
        if total > tw * 0.92:  # squeeze two wide digits onto the tile
            f = tw * 0.92 / total
            ms = [cv2.resize(m, (max(1, int(m.shape[1] * f)), nh)) for m in ms]
            gap = int(gap * f)
            total = sum(m.shape[1] for m in ms) + gap * (len(ms) - 1)
        x = (tw - total) // 2
        y0 = int(cy - nh / 2)
        for m in ms:
            boxes.append((x, y0, m.shape[1], nh))
            _paint(img, m, x, y0, ink)
            x += m.shape[1] + gap
    return np.clip(img, 0, 255).astype(np.uint8), alpha, boxes


@dataclass
class Style:
    """What a varied (training) photo adds to the plain renders: ivory or cream faces, Okey
    tiles (a suit sign under the number), light inks, a steep camera angle (keystone)."""

    cream: bool = False
    suit: str = ""
    light_inks: bool = False
    keystone: float = 0.0  # how much one side of the picture is narrowed (0–0.3 of its length)

    @staticmethod
    def draw(rng: np.random.Generator) -> Style:
        """A random style: each variation with its own chance."""
        return Style(
            cream=bool(rng.random() < 0.3),
            suit=str(rng.choice(list("♠♥♦♣"))) if rng.random() < 0.2 else "",
            light_inks=bool(rng.random() < 0.2),
            keystone=float(rng.uniform(0.1, 0.32)) if rng.random() < 0.35 else 0.0,
        )


def _paint(img: np.ndarray, m: np.ndarray, x0: int, y0: int, ink: np.ndarray) -> None:
    h, w = m.shape
    H, W = img.shape[:2]
    xa, ya, xb, yb = max(0, x0), max(0, y0), min(W, x0 + w), min(H, y0 + h)
    if xa >= xb or ya >= yb:
        return
    a = m[ya - y0 : yb - y0, xa - x0 : xb - x0].astype(np.float32)[:, :, None] / 255.0
    region = img[ya:yb, xa:xb]
    img[ya:yb, xa:xb] = region * (1 - a) + ink[None, None, :] * a


def _rot(v: np.ndarray, a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.asarray(np.array([[c, -s], [s, c]]) @ v)


def random_tokens(rng: np.random.Generator, n: int, jokers: float = 0.06) -> list[str]:
    """``n`` random tile tokens; about ``jokers`` of them jokers."""
    out = []
    for _ in range(n):
        if rng.random() < jokers:
            out.append("JK")
        else:
            out.append(str(rng.choice(list("RBKY"))) + str(int(rng.integers(1, 14))))
    return out


def render_scene(
    seed: int,
    fonts: list[str] | None = None,
    backgrounds: tuple[str, ...] = TRAIN_BACKGROUNDS,
    size: tuple[int, int] | None = None,
    tokens_rows: list[list[str]] | None = None,
    rotation: float | None = None,
    perspective: float = 0.06,
    effects: bool = True,
    tile_width: int | None = None,
    vary_numbers: bool = False,
    varied: bool = False,
    style: Style | None = None,
) -> Scene:
    """Render one photo of tiles.

    Args:
        seed: the random seed (same seed, same picture).
        fonts: font files to choose from (default: the training fonts installed).
        backgrounds: background kinds to choose from.
        size: (width, height) in px (default random, 800–1400 wide).
        tokens_rows: the tiles, row by row (default random melds / rack rows).
        rotation: the turn of the whole layout in degrees (default a random quarter turn and
            a little more).
        perspective: how strong the random perspective is (0 = none).
        effects: blur, glare, noise and JPEG (off for exact unit tests).
        tile_width: a tile's width before fitting the picture, px (default random 38–95).
        vary_numbers: draw each tile's number at its own random size (training variety)
            instead of one size for the whole set.
        varied: add the variations of :class:`Style` (training variety; the default renders
            are the benchmark's plain set, unchanged).
        style: these variations instead of random ones (for tests).

    Returns:
        A :class:`Scene`.
    """
    rng = np.random.default_rng(seed)
    drawn = Style.draw(rng) if varied else Style()
    style = style or drawn
    fonts = fonts or available(TRAIN_FONTS)
    font = str(rng.choice(fonts))
    W, H = size or (int(rng.integers(800, 1400)), int(rng.integers(600, 1050)))
    bg_kind = str(rng.choice(list(backgrounds)))
    img = _texture(rng, H, W, bg_kind)
    rack = bg_kind == "rack"
    if tokens_rows is None:
        nrows = int(rng.integers(1, 5))
        tokens_rows = [
            random_tokens(rng, int(rng.integers(3, 9 if rack else 7))) for _ in range(nrows)
        ]
    if rotation is None:
        rotation = float(rng.choice([0, 0, 0, 90, 180, 270]) + rng.normal(0, 6))
    tw = tile_width or int(rng.integers(38, 95))
    num_frac = float(rng.uniform(0.28, 0.52))
    th = int(tw * rng.uniform(1.3, 1.45))
    gapx = int(rng.integers(0, 3)) if not rack else int(rng.integers(0, 6))
    # layout in layout-space (tiles upright), then turned by `rotation` about the centre
    placed: list[tuple[str, float, float, int]] = []  # token, x, y, row
    y = 0.0
    rows_idx: list[list[int]] = []
    for r, toks in enumerate(tokens_rows):
        x = float(rng.uniform(0, tw * 1.5))
        row: list[int] = []
        for t in toks:
            row.append(len(placed))
            placed.append((t, x, y, r))
            x += tw + gapx
        rows_idx.append(row)
        y += th * (rng.uniform(1.15, 1.6) if not rack else rng.uniform(1.02, 1.12))
    lw = max(p[1] for p in placed) + tw
    lh = y
    a = math.radians(rotation)
    # scale so the turned layout fits the picture
    cs, sn = abs(math.cos(a)), abs(math.sin(a))
    bw, bh = lw * cs + lh * sn, lw * sn + lh * cs
    sc = min(1.0, 0.9 * W / bw, 0.9 * H / bh)
    tw2, th2 = max(14, int(tw * sc)), max(19, int(th * sc))
    centre = np.array([W / 2 + rng.uniform(-0.05, 0.05) * W, H / 2 + rng.uniform(-0.05, 0.05) * H])
    face0 = np.array(rng.uniform([195, 215, 225], [245, 248, 252]), np.float32)
    if style.cream:
        red = float(rng.uniform(200, 245))
        face0 = np.array((red - rng.uniform(35, 75), red - rng.uniform(5, 22), red), np.float32)
    truths: list[TileTruth] = []
    for t, x, yy, _r in placed:
        frac = float(rng.uniform(0.28, 0.52)) if vary_numbers else num_frac
        timg, alpha, boxes = _draw_tile(rng, t, font, tw2, th2, face0, frac, style)
        # tile-space -> scene: translate tile origin to its layout place, rotate about centre
        ox = (x * sc) - lw * sc / 2
        oy = (yy * sc) - lh * sc / 2
        jitter = math.radians(rng.normal(0, 1.5))
        aa = a + jitter
        c, s = math.cos(aa), math.sin(aa)
        R = np.array([[c, -s], [s, c]])
        org = R @ np.array([ox, oy]) + centre
        M = np.hstack([R, org[:, None]])
        corners = (R @ np.array([[0, 0], [tw2, 0], [tw2, th2], [0, th2]], float).T).T + org
        xa, ya = np.floor(corners.min(0)).astype(int) - 2
        xb, yb = np.ceil(corners.max(0)).astype(int) + 2
        xa, ya, xb, yb = max(0, xa), max(0, ya), min(W, xb), min(H, yb)
        if xa < xb and ya < yb:
            Ml = M.copy()
            Ml[:, 2] -= (xa, ya)
            size_l = (int(xb - xa), int(yb - ya))
            warped = cv2.warpAffine(timg, Ml, size_l, flags=cv2.INTER_LINEAR).astype(np.float32)
            wa = cv2.warpAffine(alpha, Ml, size_l, flags=cv2.INTER_LINEAR).astype(np.float32)
            wa = wa[:, :, None] / 255.0
            roi = img[ya:yb, xa:xb]
            img[ya:yb, xa:xb] = roi * (1 - wa) + warped * wa

        def tr(pts: np.ndarray, M: np.ndarray = M) -> np.ndarray:
            return np.asarray((M[:, :2] @ pts.T).T + M[:, 2])

        digits = [
            tr(np.array([[bx, by], [bx + bw_, by], [bx + bw_, by + bh_], [bx, by + bh_]], float))
            for bx, by, bw_, bh_ in boxes
        ]
        allpts = np.vstack(digits)
        xs, ys = M[:, :2] @ np.array([[0, 0], [tw2, 0], [tw2, th2], [0, th2]], float).T
        tile_quad = np.stack([xs, ys], 1) + M[:, 2]
        up = R @ np.array([0.0, -1.0])
        nq = np.array([allpts.min(0), allpts.max(0)])
        truths.append(TileTruth(t, allpts, tile_quad, (float(up[0]), float(up[1])), digits))
        del nq
    img = np.clip(img, 0, 255)
    if perspective > 0:
        d = perspective * min(W, H)
        src = np.array([[0, 0], [W, 0], [W, H], [0, H]], np.float32)
        dst = src + rng.uniform(-d, d, (4, 2)).astype(np.float32)
        if style.keystone:
            # a steep view: one side of the picture further from the camera, narrowed
            side = int(rng.integers(0, 4))
            a_, b_ = side, (side + 1) % 4
            mid = (dst[a_] + dst[b_]) / 2
            dst[a_] += (mid - dst[a_]) * style.keystone * 2
            dst[b_] += (mid - dst[b_]) * style.keystone * 2
        P = cv2.getPerspectiveTransform(src, dst)
        border = tuple(float(v) for v in img[H // 2, 0])
        img = cv2.warpPerspective(img, P, (W, H), borderMode=cv2.BORDER_REPLICATE)
        del border
        for tt in truths:
            tt.number_quad = cv2.perspectiveTransform(tt.number_quad[None].astype(np.float32), P)[0]
            tt.tile_quad = cv2.perspectiveTransform(tt.tile_quad[None].astype(np.float32), P)[0]
            tt.digits = [
                cv2.perspectiveTransform(q[None].astype(np.float32), P)[0] for q in tt.digits
            ]
    if effects:
        # lighting gradient and glare
        yy_, xx_ = np.mgrid[0:H, 0:W].astype(np.float32)
        g = (
            1
            + rng.uniform(-0.18, 0.18) * (xx_ / W - 0.5)
            + rng.uniform(-0.18, 0.18) * (yy_ / H - 0.5)
        )
        img = img * g[:, :, None]
        if rng.random() < 0.4:
            gx, gy = rng.uniform(0, W), rng.uniform(0, H)
            rr = rng.uniform(0.1, 0.3) * W
            glare = np.exp(-((xx_ - gx) ** 2 + (yy_ - gy) ** 2) / (2 * rr * rr)) * rng.uniform(
                20, 60
            )
            img = img + glare[:, :, None]
        img = np.clip(img, 0, 255).astype(np.uint8)
        k = float(rng.uniform(0, 1.3))
        if k > 0.3:
            img = cv2.GaussianBlur(img, (0, 0), k)
        img = np.clip(img.astype(np.float32) + rng.normal(0, rng.uniform(1, 5), img.shape), 0, 255)
        img = img.astype(np.uint8)
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 95))])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        assert decoded is not None  # the JPEG just written
        img = decoded
    else:
        img = img.astype(np.uint8)
    return Scene(img, truths, rows_idx, "rack" if rack else "table")


def render_cards(seed: int) -> np.ndarray:
    """A photo of a few playing cards (ranks and suit signs) on a table: not tiles."""
    rng = np.random.default_rng(seed)
    W, H = 1000, 750
    img = _texture(rng, H, W, "cloth")
    font = available((SUIT_FONT,))[0]
    for i in range(int(rng.integers(3, 6))):
        cw, ch = 150, 210
        card = np.full((ch, cw, 3), 245, np.float32)
        suit = str(rng.choice(list("♠♥♦♣")))
        ink = np.array((30, 30, 200) if suit in "♥♦" else (30, 30, 30), np.float32)
        rank = str(rng.choice(["A", "2", "5", "7", "9", "10", "J", "Q", "K"]))
        rm = glyph(font, rank)
        rm = cv2.resize(rm, (max(1, int(rm.shape[1] * 28 / rm.shape[0])), 28))
        _paint(card, rm, 8, 8, ink)
        sm = suit_mask(font, suit)
        for k in range(int(rng.integers(2, 7))):
            s2 = cv2.resize(sm, (30, 32))
            _paint(card, s2, 30 + (k % 2) * 60, 40 + (k // 2) * 55, ink)
        x0, y0 = 60 + i * 170, int(rng.integers(80, 400))
        a = math.radians(rng.normal(0, 8))
        c, s = math.cos(a), math.sin(a)
        M = np.array([[c, -s, x0], [s, c, y0]], np.float32)
        warped = cv2.warpAffine(card, M, (W, H))
        mask = cv2.warpAffine(np.full((ch, cw), 1.0, np.float32), M, (W, H))
        img = img * (1 - mask[:, :, None]) + warped * mask[:, :, None]
    return np.asarray(np.clip(img, 0, 255).astype(np.uint8))
