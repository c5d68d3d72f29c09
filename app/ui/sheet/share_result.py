"""Share a game's result: a short text (the system share sheet, else the clipboard) and a PNG
picture of the score sheet (drawn on the server with Pillow).

The text is in the session's language: the variant, the number of rounds, every total (highest
first) and the winner (or who leads while the game goes on). Totals are the engine's
(:func:`app.games.standings`, bonuses included).

Sharing goes through Flet's ``Share`` service (the browser's Web Share API: phones' browsers
offer it in a secure context; desktop Chromium on Linux and any page over plain ``http://`` from
another device do not). The browser's fallbacks (a download, a ``mailto:`` link) are switched
off: where the share sheet is missing the text goes to the clipboard instead, and the screen
says so. The picture is offered as a file download (``FilePicker.save_file``), which every
browser can do.

The picture's font is the Roboto that the pinned ``flet-web`` wheel serves to the browser
(``flet_web/web/assets/fonts/roboto.woff2``), so it works offline and has every Polish and
Slovak letter; if it cannot be read, Pillow's own font is used (Latin letters only).
"""

from __future__ import annotations

import io
import logging
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import flet as ft

from app import games
from app.i18n import _, ngettext
from app.ui.common import labels
from app.ui.common.widgets import muted, number
from app.ui.sheet.export import file_stem

if TYPE_CHECKING:
    from PIL import ImageFont

    from app.games import Game
    from app.ui.common.session import App

log = logging.getLogger("app")

MAX_PICTURE_ROUNDS: Final = 60
"""Rounds drawn in the picture; a longer game shows its last ones (the totals are complete)."""


def ranking(game: Game) -> list[tuple[str, int]]:
    """``(name, total)`` per player, highest total first (seat order on a tie)."""
    st = games.standings(game)
    order = {p: i for i, p in enumerate(game.players)}
    return sorted(
        ((p, st.totals.get(p, 0)) for p in game.players), key=lambda t: (-t[1], order[t[0]])
    )


def summary_text(game: Game) -> str:
    """The result as a few lines of text, in the language in force::

    Rummy 101 · 3 rounds
    Ala 101
    Ola −12
    Ela −202
    Winner: Ala
    """
    st = games.standings(game)
    n = len(game.rounds)
    lines = [
        _("{variant} · {rounds}").format(
            variant=labels.variant_name(game.variant),
            rounds=ngettext("{n} round", "{n} rounds", n).format(n=n),
        )
    ]
    lines += [f"{p} {number(t)}" for p, t in ranking(game)]
    if st.finished and st.winners:
        lines.append(
            ngettext("Winner: {names}", "Winners: {names}", len(st.winners)).format(
                names=", ".join(st.winners)
            )
        )
    elif st.leaders:
        lines.append(_("Leading: {names}").format(names=", ".join(st.leaders)))
    return "\n".join(lines)


# -- the picture ----------------------------------------------------------------------------------
def font_path() -> Path | None:
    """The bundled Roboto of flet-web, or None."""
    try:
        import flet_web  # type: ignore[import-untyped]

        p = Path(flet_web.__file__).parent / "web" / "assets" / "fonts" / "roboto.woff2"
    except Exception:  # noqa: BLE001 - no flet-web: Pillow's own font
        return None
    return p if p.is_file() else None


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    from PIL import ImageFont

    path = font_path()
    if path is not None:
        try:
            return ImageFont.truetype(str(path), size)
        except OSError:
            log.warning("cannot read %s; the picture uses Pillow's font", path)
    return ImageFont.load_default(size)


def score_png(game: Game, scale: int = 2) -> bytes:
    """The score sheet as a PNG: title, one row per round (the last
    :data:`MAX_PICTURE_ROUNDS`), bonuses, totals and the winner; ``scale`` × 360 px wide at
    least (wider for many players).

    Returns:
        The PNG file's bytes.
    """
    from PIL import Image, ImageDraw

    st = games.standings(game)
    players = list(game.players)
    s = scale
    f_title, f_cell, f_bold = _font(20 * s), _font(15 * s), _font(17 * s)
    first_col = 64 * s
    col = max(70 * s, *(int(f_cell.getlength(p)) + 16 * s for p in players))
    width = max(360 * s, first_col + col * len(players) + 16 * s)
    shown = list(enumerate(st.round_scores, start=1))[-MAX_PICTURE_ROUNDS:]
    row_h = 26 * s
    extra = 1 if any(st.bonuses.values()) else 0
    height = 16 * s + 34 * s + 22 * s + row_h * (1 + len(shown) + extra + 1) + 44 * s
    img = Image.new("RGB", (width, height), "white")
    d = ImageDraw.Draw(img)
    ink, muted, rule, lead = (20, 20, 30), (90, 100, 120), (200, 205, 215), (40, 53, 147)
    y = 14 * s
    d.text((12 * s, y), labels.variant_name(game.variant), fill=ink, font=f_title)
    y += 30 * s
    sub = ngettext("{n} round", "{n} rounds", len(game.rounds)).format(n=len(game.rounds))
    if game.created:
        sub = f"{game.created[:10]} · {sub}"
    d.text((12 * s, y), sub, fill=muted, font=f_cell)
    y += 26 * s

    def right(x: int, yy: int, text: str, font: Any, fill: Any) -> None:
        d.text((x + col - 8 * s - font.getlength(text), yy), text, fill=fill, font=font)

    d.text((12 * s, y), _("Round"), fill=muted, font=f_cell)
    for i, p in enumerate(players):
        right(first_col + i * col, y, p, f_cell, ink)
    y += row_h
    d.line((8 * s, y - 4 * s, width - 8 * s, y - 4 * s), fill=rule, width=s)
    for n, sc in shown:
        d.text((12 * s, y), str(n), fill=muted, font=f_cell)
        for i, p in enumerate(players):
            right(first_col + i * col, y, number(sc.get(p, 0)), f_cell, ink)
        y += row_h
    if extra:
        d.text((12 * s, y), _("Bonuses"), fill=muted, font=f_cell)
        for i, p in enumerate(players):
            right(first_col + i * col, y, number(st.bonuses.get(p, 0)), f_cell, ink)
        y += row_h
    d.line((8 * s, y - 4 * s, width - 8 * s, y - 4 * s), fill=ink, width=2 * s)
    best = set(st.winners if st.finished else st.leaders)
    d.text((12 * s, y), _("Total"), fill=ink, font=f_bold)
    for i, p in enumerate(players):
        colour = lead if p in best else ink
        right(first_col + i * col, y, number(st.totals.get(p, 0)), f_bold, colour)
    y += row_h + 8 * s
    if st.finished and st.winners:
        end = ngettext("Winner: {names}", "Winners: {names}", len(st.winners)).format(
            names=", ".join(st.winners)
        )
    elif st.leaders:
        end = _("Leading: {names}").format(names=", ".join(st.leaders))
    else:
        end = ""
    d.text((12 * s, y), end, fill=lead, font=f_bold)
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()


# -- the actions ----------------------------------------------------------------------------------
class ShareResult:
    """The two ways to send a game's result from a screen.

    Attributes:
        shared: texts handed to the share sheet (tests without a page record them here).
        pictures: ``(file name, PNG bytes)`` offered for download.
    """

    def __init__(self, app: App, game: Game) -> None:
        self.app = app
        self.game = game
        self.shared: list[str] = []
        self.pictures: list[tuple[str, bytes]] = []

    def buttons(self) -> list[ft.Control]:
        """ "Share the result" and "Picture of the score sheet"."""
        return [
            ft.OutlinedButton(
                content=_("Share the result"), icon=ft.Icons.SHARE, on_click=self.share, height=44
            ),
            ft.OutlinedButton(
                content=_("Picture of the score sheet (PNG)"),
                icon=ft.Icons.IMAGE_OUTLINED,
                on_click=self.picture,
                height=44,
            ),
        ]

    def share(self, _e: Any = None) -> None:
        """The text through the share sheet, else to the clipboard."""
        text = summary_text(self.game)
        self.shared.append(text)
        app = self.app
        if app.page is None:
            return

        async def do() -> None:
            try:
                await ft.Share().share_text(
                    text,
                    subject=labels.variant_name(self.game.variant),
                    download_fallback_enabled=False,
                    mail_to_fallback_enabled=False,
                )
                return
            except Exception:  # noqa: BLE001 - no share sheet here: the clipboard instead
                log.debug("no share sheet", exc_info=True)
            app.copied.append(text)
            try:
                await ft.Clipboard().set(text)
                app.notify(_("This browser has no share sheet: the result is copied instead"))
            except Exception:  # noqa: BLE001 - clipboard refused (e.g. plain http on a phone)
                self.show_text(text)

        app.run(do)

    def show_text(self, text: str) -> None:
        """The text in a dialog, to select and copy by hand (no share sheet, no clipboard)."""
        box = ft.TextField(
            label=_("The result"), value=text, multiline=True, read_only=True, min_lines=4
        )
        self.app.open_dialog(
            ft.AlertDialog(
                title=ft.Text(_("Share the result")),
                content=ft.Column(
                    [muted(_("Select the text and copy it.")), box], tight=True, width=320
                ),
                actions=[
                    ft.TextButton(_("Close"), on_click=lambda _e=None: self.app.close_dialog())
                ],
            )
        )

    def picture(self, _e: Any = None) -> None:
        """Make the PNG and offer it as a download."""
        name = f"{file_stem(self.game)}.png"
        data = score_png(self.game)
        self.pictures.append((name, data))
        app = self.app
        if app.page is None:
            return

        async def do() -> None:
            try:
                await ft.FilePicker().save_file(file_name=name, src_bytes=data)
            except Exception:  # noqa: BLE001
                log.exception("picture download failed")
                app.notify(_("The download failed"), error=True)

        app.run(do)


__all__ = ["MAX_PICTURE_ROUNDS", "ShareResult", "ranking", "score_png", "summary_text"]
