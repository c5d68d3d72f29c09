"""The share screen's QR code is drawn on a canvas (no image decoding: plain-http LAN pages).

The canvas's rectangles are rasterised back to a module grid and compared with ``qrcode``'s own
matrix of the join address.
"""

from __future__ import annotations

import flet as ft
import flet.canvas as cv
import pytest
import qrcode  # type: ignore[import-untyped]

from app import games, live
from app.live import Hub, SessionStore, Visitor
from app.store import Store
from app.ui.shell import App
from app.ui.table import sharing

HOST_IP = "127.0.0.1"


def reference(text: str) -> list[list[bool]]:
    qr = qrcode.QRCode(border=3, error_correction=qrcode.constants.ERROR_CORRECT_M)
    qr.add_data(text)
    qr.make(fit=True)
    return [[bool(m) for m in row] for row in qr.get_matrix()]


def raster(canvas: cv.Canvas) -> tuple[list[list[bool]], int]:
    """The canvas as a pixel grid (``True`` = black) and its side in pixels.

    Fails on anything but axis-aligned filled rectangles in black or white with whole-pixel
    coordinates (the drawing must be exact, not anti-aliased guesses).
    """
    size = canvas.width
    assert isinstance(size, int) and canvas.height == size
    grid: list[list[bool | None]] = [[None] * size for _ in range(size)]
    for shape in canvas.shapes:
        assert isinstance(shape, cv.Rect)
        assert shape.paint.style == ft.PaintingStyle.FILL
        assert shape.border_radius == ft.BorderRadius.all(0)
        x, y, w, h = shape.x, shape.y, shape.width, shape.height
        assert isinstance(x, int) and isinstance(y, int), (x, y)
        assert isinstance(w, int) and isinstance(h, int), (w, h)
        assert w > 0 and h > 0 and x >= 0 and x + w <= size and y >= 0 and y + h <= size
        dark = {ft.Colors.BLACK: True, ft.Colors.WHITE: False}[shape.paint.color]  # type: ignore[index]
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                grid[yy][xx] = dark
    assert all(p is not None for row in grid for p in row), "parts of the canvas left undrawn"
    return [[bool(p) for p in row] for row in grid], size


def modules(canvas: cv.Canvas, n: int) -> list[list[bool]]:
    """Read an ``n`` x ``n`` module grid off the canvas, checking each module is one colour."""
    pixels, size = raster(canvas)
    scale = size // n
    offset = (size - n * scale) // 2
    assert scale >= 5, "modules too small to scan"
    # outside the code: white
    for yy in range(size):
        for xx in range(size):
            inside = offset <= xx < offset + n * scale and offset <= yy < offset + n * scale
            if not inside:
                assert not pixels[yy][xx]
    out = []
    for r in range(n):
        row = []
        for c in range(n):
            block = {
                pixels[offset + r * scale + i][offset + c * scale + j]
                for i in range(scale)
                for j in range(scale)
            }
            assert len(block) == 1, (r, c)
            row.append(block.pop())
        out.append(row)
    return out


@pytest.mark.parametrize(
    "text",
    [
        "http://192.0.2.2:8550/game/0123456789abcdef?code=ABCD2345",
        "http://[fd00::1234:5678:9abc:def0]:8550/game/" + "f" * 32 + "?code=ZZZZ9999",
        "x",
    ],
)
def test_canvas_reproduces_the_matrix(text: str) -> None:
    canvas = sharing.qr_canvas(text)
    assert canvas.width == canvas.height == sharing.QR_SIZE == 240
    want = reference(text)
    assert sharing.qr_matrix(text) == want
    assert modules(canvas, len(want)) == want
    # one rectangle per horizontal run of dark modules, plus the white background
    runs = sum(1 for row in want for i, m in enumerate(row) if m and (i == 0 or not row[i - 1]))
    assert len(canvas.shapes) == runs + 1


def test_a_different_address_draws_a_different_code() -> None:
    a = sharing.qr_canvas("http://192.0.2.2:8550/game/a?code=ABCD2345")
    b = sharing.qr_canvas("http://192.0.2.2:8550/game/a?code=ABCD2346")
    assert raster(a)[0] != raster(b)[0]


def test_share_screen_draws_the_join_address(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "SERVER", live.ServerInfo("192.0.2.2", 8600))
    hub, access = Hub(), live.Access(store)
    host_ss = SessionStore(store, access, Visitor.from_peer(HOST_IP), hub)
    g = host_ss.create_game(games.new_game("rummy101", ["Ala", "Ola"]))
    app = App(SessionStore(store, access, Visitor.from_peer(HOST_IP), hub))
    sharing.attach(app, hub)
    app.show("/")
    app.go(f"/share?game={g.id}")
    share = app.screen
    assert isinstance(share, sharing.ShareScreen)
    code = store.load_game(g.id).join_code
    assert code
    url = f"http://192.0.2.2:8600/game/{g.id}?code={code}"
    assert share.url == url
    assert isinstance(share.qr, cv.Canvas)
    want = reference(url)
    assert modules(share.qr, len(want)) == want
    # still labelled for screen readers, and the address still shown as text
    found: list[ft.Semantics] = []

    def walk(c: object) -> None:
        if isinstance(c, ft.Semantics) and c.content is share.qr:
            found.append(c)
        for attr in ("controls", "content"):
            sub = getattr(c, attr, None)
            for s in sub if isinstance(sub, list) else [sub] if sub is not None else []:
                walk(s)

    walk(share.view)
    assert len(found) == 1 and found[0].label == "QR code of the game's address"
    assert share.code_text is not None and share.code_text.value == f"{code[:4]} {code[4:]}"
