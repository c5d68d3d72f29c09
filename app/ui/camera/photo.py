""" "From a photo": read tiles from a picture, let the player check them, then fill a field.

A :class:`PhotoButton` opens the device's file picker (on a phone it offers the camera; it
works over plain http, the picture travels over the app's own connection). The photo is read
in a worker process (:mod:`app.ui.camera.photo_worker`), so other players' screens never wait. A
:class:`PhotoReview` then shows the photo with a box on every tile found (orange where the
reading is unsure, until the player checks that tile) and the tiles read, row by row, in the
tile keyboard: tap a row to correct it, add a missed tile, delete a false one. Nothing is used
until the player taps "Use these tiles"; then ``on_confirm(rows)`` gets the rows in notation
(``[["R5", "R6", "R7"], ...]``).

Handlers only change control values (no ``.update()``), so the review works in logic tests
without a page: build it from :func:`read_safely`'s answer and call ``confirm``/``cancel``.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Sequence
from typing import Any

import flet as ft

from app.guard import HOST_FRAME_MAX, TOO_MANY_PHOTOS
from app.i18n import _, ngettext
from app.ui.camera.photo_worker import (
    cancel,
    draw_preview,
    read_in_worker,
    read_safely,
    warm_up,
)
from app.ui.common.keyboard import MeldList, MeldsEditor
from app.ui.common.pieces import meld_view, piece_name
from app.ui.common.session import _path, push_route  # routes compared as the session does
from app.ui.common.widgets import ERROR_COLOUR, MUTED

__all__ = [
    "PhotoButton",
    "PhotoReview",
    "error_text",
    "flat",
    "for_keyboard",
    "for_melds",
    "image_source",
    "read_safely",
    "review_dialog",
]

Confirmed = Callable[[list[list[str]]], None]

PINNED_MIN_HEIGHT = 560
"""Screen height (px) from which the review keeps its keys in view below the scrolling photo
and rows (the keys, the field and the dialog's title and buttons take about 400 px); on a lower
screen everything scrolls together."""

_MESSAGES = {
    "not_image": lambda: _("This file is not a picture. Take a photo or choose a JPEG or PNG."),
    "truncated": lambda: _("The picture file is cut short or broken. Try another one."),
    "too_big": lambda: _("The picture is too large. Take a photo of 60 megapixels or less."),
    "too_small": lambda: _("The picture is too small to read tiles from."),
    "no_tiles": lambda: _(
        "No tiles were found on this photo. Take it closer, from above, in good light."
    ),
    "cards": lambda: _("This looks like playing cards, not tiles."),
    "too_many_tiles": lambda: _(
        "This photo shows far too many tiles to be a rack or a table. Take a photo of one"
        " rack or of the table's melds."
    ),
    "spent": lambda: _(
        "Your photos took a long time to read just now. Wait a minute and try again."
    ),
    "too_many_scans": lambda: _(
        "This picture is saved in a way that takes too long to read. Take a photo with the"
        " camera, or save this one again as an ordinary JPEG."
    ),
    "too_slow": lambda: _("This photo took too long to read. Try another one."),
    "busy": lambda: _("Many photos are being read just now. Wait a moment and try again."),
    "busy_session": lambda: _("Your previous photo is still being read. Wait for it."),
    "too_many": lambda: _("Too many photos in a minute: wait a little and try again."),
    "cancelled": lambda: _("The connection was lost while the photo was read. Try again."),
}


def _session_key(page: Any, button: object) -> object:
    """Whose read this is: the page's session (one read at a time each, photo_worker)."""
    sid = getattr(getattr(page, "session", None), "id", None)
    return sid if isinstance(sid, str) else id(page if page is not None else button)


def _cancel_when_gone(page: Any, session: object) -> Callable[[], None]:
    """Drop ``session``'s read when its page disconnects or closes (the phone left: its photo
    is neither kept waiting nor read for nobody); returns what puts the page's handlers back
    (when nobody chained onto them since)."""
    if page is None:
        return lambda: None
    was: dict[str, Any] = {k: getattr(page, k, None) for k in ("on_disconnect", "on_close")}

    def chained(k: str) -> Callable[[Any], None]:
        def gone(e: Any = None) -> None:
            cancel(session)
            if callable(was[k]):
                was[k](e)

        return gone

    mine = {k: chained(k) for k in was}
    for k, f in mine.items():
        setattr(page, k, f)

    def unwatch() -> None:
        for k, f in mine.items():
            if getattr(page, k, None) is f:
                setattr(page, k, was[k])

    return unwatch


def _hold_back(page: Any, close: Callable[[], None]) -> Callable[[], None]:
    """While a review is open on ``page``, the browser's Back (a phone's back gesture in its
    browser) closes it, as "Cancel" does, and the screen it was opened from stays, with what
    was entered on it: the address goes back to the screen's own.

    Flet only tells the new route (``page.on_route_change``), after the browser left the
    screen's address: the review calls ``close`` and pushes that address again, and the route
    change coming back from that push is not passed on either (the session's handler would
    build the screen anew, losing what was entered). A route change the session asked for
    itself (``App.go`` in app/ui/common/session.py lists those paths in ``_asked``: the round
    saved on another phone…) closes the review and goes on to the session, which shows its
    screen. Returns what puts the page's handler back (when nobody chained onto it since);
    after a Back that happens once the pushed address came back.
    """
    was: Any = getattr(page, "on_route_change", None)
    route = getattr(page, "route", None)
    if page is None or not isinstance(route, str):
        return lambda: None
    here = _path(route)
    state = {"open": True, "echo": False}

    def restore() -> None:
        if getattr(page, "on_route_change", None) is changed:
            page.on_route_change = was

    def unwatch() -> None:
        state["open"] = False
        if not state["echo"]:
            restore()

    def changed(e: Any = None) -> None:
        path = _path(str(getattr(e, "route", "") or "/"))
        if state["echo"] and path == here:  # the address pushed back: the screen stays
            state["echo"] = False
            restore()
            return
        if state["open"] and path != here:
            asked = getattr(getattr(was, "__self__", None), "_asked", None)
            if not (isinstance(asked, list) and path in asked):  # the browser's own
                state["echo"] = True
                close()
                push_route(page, route)
                return
            close()  # the session's own move: its screen goes, and the review with it
        state["echo"] = False
        restore()
        if callable(was):
            was(e)

    page.on_route_change = changed
    return unwatch


def error_text(code: str) -> str:
    """The player's message for a reader error code."""
    f = _MESSAGES.get(code)
    return f() if f else _("The photo could not be read. Try another one.")


def image_source(picture: bytes) -> str:
    """``picture`` (PNG or JPEG bytes) as an ``ft.Image`` source that the web client draws
    everywhere: base64 text.

    Measured with flet-web 1.0.5 in Chromium, CanvasKit and skwasm alike: on a page that is
    not a secure context (a phone opening ``http://<LAN address>``) an image from raw bytes
    stays blank and the same picture as base64 text is drawn (tests/browser/test_photo.py).
    The client hands both to Flutter's ``Image.memory``; the likely difference is that there
    the browser has no ``ImageDecoder`` (secure contexts only) and the fallback decoder is
    given the raw bytes as a view into the whole received message, while base64 text decodes
    into bytes of their own. The picture travels inside the session's own connection: no
    address another phone could fetch it from, nothing on disk to delete.
    """
    return base64.b64encode(picture).decode("ascii")


def _portrait(picture: bytes) -> bool:
    """Is the picture taller than wide (from its header)?"""
    from app.vision import VisionError  # lazy: start-up time (the photo reader)
    from app.vision.imageio import sniff  # lazy: start-up time (the photo reader)

    try:
        _fmt, w, h = sniff(picture)
    except VisionError:
        return False
    return h > w


class ReadRows(MeldList):
    """The rows being checked, each tile knowing whether it is still the one the photo gave.

    Attributes:
        origins: parallel to :attr:`melds`: for each tile the index into the reading's tiles
            it was read as, or ``None`` once the player entered it (a corrected tile, one
            taken back and tapped again, a missed one added).
    """

    def __init__(self) -> None:
        super().__init__()
        self.origins: list[list[int | None]] = [[]]

    def set_melds(self, melds: Sequence[Sequence[str]]) -> None:
        """Show ``melds``, every tile entered by the player (see :meth:`set_read`)."""
        super().set_melds(melds)
        self.origins = [[None] * len(m) for m in self.melds]

    def set_read(self, melds: Sequence[Sequence[str]], origins: Sequence[Sequence[int]]) -> None:
        """Show ``melds`` as read: tile ``k`` of row ``n`` is the reading's tile
        ``origins[n][k]``."""
        super().set_melds(melds)
        self.origins = [list(o) for o in origins] or [[]]

    def set_pieces(self, pieces: Sequence[str]) -> None:
        """The chosen row is now ``pieces``: the tiles before and after the part that changed
        stay the photo's; the changed part is the player's.

        The keys take tiles back from the end and add them there, so a tile taken back and
        tapped again counts as entered by the player (checked), even when it is the same."""
        old, old_from = self.melds[self.active], self.origins[self.active]
        new = list(pieces)
        head = 0
        while head < min(len(old), len(new)) and old[head] == new[head]:
            head += 1
        tail = 0
        while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
            tail += 1
        changed: list[int | None] = [None] * (len(new) - head - tail)
        kept_tail = old_from[len(old) - tail :] if tail else []
        self.origins[self.active] = [*old_from[:head], *changed, *kept_tail]
        super().set_pieces(new)

    def _keep(self, kept: list[int]) -> None:
        self.origins = [self.origins[i] for i in kept]
        super()._keep(kept)

    def _append(self) -> None:
        self.origins.append([])
        super()._append()


class ReviewEditor(MeldsEditor):
    """The review's rows in the tile keyboard, each tile knowing where it came from
    (:class:`ReadRows`).

    :attr:`control` holds the rows and the "New row"/"Remove row" buttons (they scroll with
    the photo); :attr:`keys_box` holds the text field and the keys, for the review to pin
    below the scrolling part (a phone never scrolls a key under the dialog's buttons)."""

    model: ReadRows

    def _new_model(self) -> ReadRows:
        return ReadRows()

    def _layout(self, players: int | None) -> ft.Column:
        self.keys_box = ft.Column([self.keyboard.control], spacing=6, visible=True)
        return ft.Column(
            [self.rows, ft.Row([self.new_button, self.remove_button], wrap=True, spacing=8)],
            spacing=8,
        )

    def set_read(self, melds: Sequence[Sequence[str]], origins: Sequence[Sequence[int]]) -> None:
        """Show the rows read (the last one is then edited); see :meth:`ReadRows.set_read`."""
        self.model.set_read(melds, origins)
        self._load_active()


class PhotoReview:
    """The check screen for one reading: photo with boxes, rows in the tile keyboard.

    Args:
        variant: the variant (tile copies and jokers as in its rules).
        reading: an :class:`app.vision.Reading`.
        preview: the photo with boxes (PNG or JPEG bytes).
        on_confirm: gets the rows in notation when the player confirms.
        on_close: called after confirm or cancel (the owner closes the dialog).
        players: player count.
        unit: what a row of the photo fills: ``"meld"`` (every row is a meld: an opening, a
            table), ``"row"`` (rows of a rack or a heap, used as one list: called "Row 1"…)
            or ``"one"`` (the meld checker, which checks one meld: with several rows the
            player picks the row to check, rows are never joined).
        photo: the photo without boxes (JPEG or PNG bytes, :func:`read_safely`'s ``"photo"``)
            and ``scale`` from it to the photo's pixels: the boxes are drawn again when the
            player checks an unsure tile (without it, the first preview stays).

    A tile read with low confidence is unsure (an orange box, named in the red "Check
    these" line) until the player corrects it, takes it back and taps it again, or deletes
    it; the line and the boxes follow the rows as they stand.
    """

    def __init__(
        self,
        variant: str,
        reading: Any,
        preview: bytes,
        on_confirm: Confirmed,
        on_close: Callable[[], None] | None = None,
        players: int | None = None,
        unit: str = "meld",
        photo: bytes | None = None,
        scale: float = 1.0,
    ) -> None:
        self.on_confirm = on_confirm
        self.on_close = on_close
        self.reading = reading
        self.unit = unit
        self.photo = photo
        self.scale = scale
        self._drawn: list[int] | None = None  # the tiles boxed orange on the preview shown
        rows = [[reading.tiles[i].tile for i in r] for r in reading.rows]
        self.editor = ReviewEditor(
            variant,
            _("Tiles read"),
            players=players,
            rows=unit != "meld",
            on_change=self._changed,
        )
        self.editor.set_read(rows, reading.rows)
        self.unsure: list[tuple[int, int, str]] = []
        """The tiles read with low confidence that the player has not checked yet: (meld,
        place in it, tile), counted from 1, as the rows stand now."""
        self.summary = ft.Text("", size=14, color=MUTED, selectable=False)
        self.image = ft.Image(
            src=image_source(preview),
            fit=ft.BoxFit.CONTAIN,
            semantics_label=_("The photo with a box on every tile found"),
            # a landscape photo as wide as the dialog, a portrait one at most 300 px high
            height=300 if _portrait(preview) else None,
        )
        self.confirm_button = ft.Button(
            content=_("Use these tiles"), icon=ft.Icons.CHECK, on_click=self._confirm_clicked
        )
        self.cancel_button = ft.TextButton(content=_("Cancel"), on_click=self._cancel_clicked)
        self.choice_text = ft.Text("", size=15, weight=ft.FontWeight.W_500, visible=False)
        self.choice = ft.Column(spacing=10, visible=False)
        """The meld checker's "Check row N" buttons (each above its row's tiles), while the
        photo holds several rows."""
        self.scroller = ft.Column(
            [
                self.image,
                ft.Text(
                    _(
                        "Boxes show the tiles found; orange ones are unsure. Tap a row to "
                        "correct it."
                    ),
                    size=13,
                    color=MUTED,
                ),
                self.summary,
                self.choice_text,
                self.choice,
                self.editor.control,
            ],
            spacing=8,
            scroll=ft.ScrollMode.AUTO,
            tight=True,
            expand=True,
        )
        """The photo, the lines about it and the rows: the part that scrolls (all the height
        the keys leave: the keys stay at the dialog's foot, right above its buttons)."""
        self.control = ft.Column(
            [
                self.scroller,
                ft.Container(
                    self.editor.keys_box,
                    padding=ft.Padding.only(top=6),
                    border=ft.Border.only(top=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)),
                ),
            ],
            spacing=0,
            tight=True,
        )
        """The whole review: :attr:`scroller` above the text field and keys, which never
        scroll (the dialog's buttons sit right under the keys)."""
        self.actions: list[ft.Control] = [self.cancel_button, self.confirm_button]
        self.pinned = True
        """The keys stay below the scrolling part (see :meth:`scroll_all`)."""
        self._paint_unsure()
        self._paint_choice()

    def scroll_all(self) -> None:
        """Let the keys scroll with the photo and rows: for a screen too low to hold the keys
        and a part of the photo at once (a phone held sideways, :data:`PINNED_MIN_HEIGHT`)."""
        if not self.pinned:
            return
        self.pinned = False
        keys = self.control.controls[1]
        self.control.controls = [self.scroller]
        self.scroller.controls.append(keys)

    def _changed(self) -> None:
        self._paint_unsure()
        self._paint_choice()

    def unsure_tiles(self) -> list[int]:
        """Indexes (into the reading's tiles) of the tiles read with low confidence that are
        still in the rows as the photo gave them (not corrected, taken back or deleted)."""
        from app.vision import LOW_CONFIDENCE  # lazy: start-up time (the photo reader)

        tiles = self.reading.tiles
        return [
            i
            for row in self.editor.model.origins
            for i in row
            if i is not None and tiles[i].confidence < LOW_CONFIDENCE
        ]

    def _paint_unsure(self) -> None:
        """The "Check these: …" line and the orange boxes, for the tiles still unsure."""
        from app.vision import LOW_CONFIDENCE  # lazy: start-up time (the photo reader)

        tiles = self.reading.tiles
        self.unsure = [
            (n + 1, k + 1, tiles[i].tile)
            for n, row in enumerate(self.editor.model.origins)
            for k, i in enumerate(row)
            if i is not None and tiles[i].confidence < LOW_CONFIDENCE
        ]
        n = len(tiles)
        summary = ngettext("{n} tile found.", "{n} tiles found.", n).format(n=n)
        if self.unsure:  # named as the rows below are: "red 7 (meld 1, tile 3)"
            where = (
                _("{tile} (meld {row}, tile {place})")
                if self.unit == "meld"
                else _("{tile} (row {row}, tile {place})")
            )
            check = ", ".join(
                where.format(tile=piece_name(t, "tiles"), row=row, place=place)
                for row, place, t in self.unsure
            )
            summary += " " + _("Check these: {tiles}").format(tiles=check)
        self.summary.value = summary
        self.summary.color = ERROR_COLOUR if self.unsure else MUTED
        orange = sorted(self.unsure_tiles())
        if self._drawn is None:  # the worker drew the first preview's boxes (draw_preview)
            self._drawn = [i for i, t in enumerate(tiles) if t.confidence < LOW_CONFIDENCE]
        if orange != self._drawn and self.photo:
            picture = self._redraw(orange)
            if picture:
                self._drawn = orange
                self.image.src = image_source(picture)

    def _redraw(self, orange: list[int]) -> bytes:
        """The preview again from the photo without boxes, ``orange`` boxed orange."""
        import cv2  # lazy: start-up time (the photo reader)
        import numpy as np  # lazy: with cv2

        img = cv2.imdecode(np.frombuffer(self.photo or b"", np.uint8), cv2.IMREAD_COLOR)
        if img is None:
            return b""
        return draw_preview(img, self.scale, self.reading, ".jpg", unsure=orange)

    def choosing(self) -> bool:
        """Must the player pick one row (the meld checker, several rows on the photo)?"""
        return self.unit == "one" and len(self.value()) > 1

    def _paint_choice(self) -> None:
        """One "Check row N" button per row while the player must pick one; else the usual
        "Use these tiles"."""
        choosing = self.choosing()
        self.confirm_button.visible = not choosing
        self.choice_text.visible = self.choice.visible = choosing
        if not choosing:
            self.choice.controls = []
            return
        rows = self.value()
        self.choice_text.value = _(
            "The photo shows {n} rows of tiles. A meld is checked on its own: choose the row "
            "to check (correct it below first if needed)."
        ).format(n=len(rows))
        self.choice.controls = [
            ft.Column(
                [
                    ft.Button(
                        content=_("Check row {n}").format(n=i + 1),
                        icon=ft.Icons.CHECK,
                        on_click=self._row_handler(i),
                    ),
                    meld_view(row, "tiles", size="xs"),
                ],
                spacing=4,
                tight=True,
            )
            for i, row in enumerate(rows)
        ]

    def _row_handler(self, i: int) -> Callable[[Any], None]:
        def handler(_e: Any = None) -> None:
            self.confirm_row(i)

        return handler

    def confirm_row(self, i: int) -> None:
        """Hand row ``i`` (counted from 0, empty rows left out) alone to the owner and close."""
        self.on_confirm([self.value()[i]])
        if self.on_close:
            self.on_close()

    def value(self) -> list[list[str]]:
        """The rows as they stand now (empty rows left out)."""
        return [m for m in self.editor.value if m]

    def confirm(self) -> None:
        """Hand the rows to the owner and close.

        Raises:
            ValueError: the player must pick one row (:meth:`choosing`): see
                :meth:`confirm_row`.
        """
        if self.choosing():
            raise ValueError("several rows for one meld: confirm_row(i) picks one")
        rows = self.value()
        self.on_confirm(rows)
        if self.on_close:
            self.on_close()

    def cancel(self) -> None:
        """Close without using anything."""
        if self.on_close:
            self.on_close()

    def _confirm_clicked(self, _e: Any = None) -> None:
        self.confirm()

    def _cancel_clicked(self, _e: Any = None) -> None:
        self.cancel()


class PhotoButton:
    """The "From a photo" button; ``on_confirm(rows)`` is called with the checked rows.

    Attributes:
        control: the button with its status line.
        review: the open review, while one is shown.
    """

    def __init__(
        self,
        variant: str,
        on_confirm: Confirmed,
        players: int | None = None,
        label: str = "",
        unit: str = "row",
    ) -> None:
        self.variant = variant
        self.unit = unit  # see PhotoReview: "row" (a rack), "meld" or "one" (one meld)
        self.players = players
        self.on_confirm = on_confirm
        self.review: PhotoReview | None = None
        self.dialog: ft.AlertDialog | None = None
        self._picking: object | None = None  # the pick now open, if any
        self._unhold: Callable[[], None] = _nothing  # the browser's Back, the review open
        name = _("From a photo")
        self.button = ft.OutlinedButton(
            content=name,
            icon=ft.Icons.PHOTO_CAMERA_OUTLINED,
            on_click=self._clicked,
            height=44,
        )
        self.label = label  # what the photo fills ("Ann", "Table after"), for the owner
        self.status = ft.Text("", size=14, color=MUTED, visible=False)
        self.control = ft.Column([self.button, self.status], spacing=2, tight=True)

    async def _clicked(self, e: Any = None) -> None:
        page = getattr(e, "page", None) if e is not None else None
        picker = ft.FilePicker()
        self.status.visible = False  # an earlier photo's message no longer applies
        picking = object()
        self._picking = picking
        unwatch = self._watch_reconnect(page, picking)
        warm_up()  # the reader's process starts while the player chooses the photo
        try:
            files = await picker.pick_files(
                dialog_title=_("Take or choose a photo of the tiles"),
                file_type=ft.FilePickerFileType.IMAGE,
                allow_multiple=False,
                with_data=True,
            )
        except Exception as exc:  # noqa: BLE001 - a picker the device lacks
            if str(exc) == TOO_MANY_PHOTOS:  # the server dropped it (app/guard.py)
                self._say(error_text("too_many"), error=True)
            else:
                self._say(_("This device cannot open a photo here."), error=True)
            if page is not None:
                page.update()
            return
        finally:
            if self._picking is picking:
                self._picking = None
            unwatch()
        if not files or files[0].bytes is None:
            return
        await self.read(files[0].bytes, page)

    def _watch_reconnect(self, page: Any, picking: object) -> Callable[[], None]:
        """Say what went wrong when the connection starts again while the picker is open;
        returns what puts ``page.on_connect`` back (when nobody chained onto it since).

        The picked photo travels in one message of at most ``HOST_FRAME_MAX`` bytes (8 MB,
        app/guard.py; a phone camera's usual 12-megapixel photo is 2–6 MB): the server closes
        the connection on a bigger one, the page connects again and the answer never comes.
        A phone that slept while its camera app was open connects again too, and then its
        answer still comes; so the message says "if", and the review replaces it.
        """
        if page is None:
            return lambda: None
        was_connect: Any = page.on_connect

        def connected(ev: Any = None) -> None:
            if callable(was_connect):
                was_connect(ev)
            if self._picking is picking:
                mb = HOST_FRAME_MAX // (1024 * 1024)
                self._say(
                    _(
                        "If the photo does not appear, it was too large to send (over {mb} MB):"
                        " set the camera to a lower resolution and try again."
                    ).format(mb=mb),
                    error=True,
                )
                page.update()

        def unwatch() -> None:
            if page.on_connect is connected:
                page.on_connect = was_connect

        page.on_connect = connected
        return unwatch

    async def read(self, data: bytes, page: Any = None) -> dict[str, Any]:
        """Read ``data`` in a worker thread and open the review (on ``page`` when given)."""
        self._say(_("Reading the photo…"))
        if page is not None:
            page.update()
        session = _session_key(page, self)
        unwatch = _cancel_when_gone(page, session)
        try:
            result = await read_in_worker(data, ".jpg", session=session)
        finally:
            unwatch()
        if not result["ok"]:
            self._say(error_text(result["error"]), error=True)
            if result["error"] == "cancelled":  # the phone left: nothing to send it
                return result
            if page is not None:  # the status lies outside the button the event updates
                page.update()
            return result
        self.status.visible = False
        self.review = PhotoReview(
            self.variant,
            result["reading"],
            result["preview"],
            self._confirmed,
            on_close=lambda: self._close(page),
            players=self.players,
            unit=self.unit,
            photo=result.get("photo"),
            scale=result.get("scale", 1.0),
        )
        if page is not None:
            height = getattr(page, "height", None)
            if isinstance(height, (int, float)) and 0 < height < PINNED_MIN_HEIGHT:
                self.review.scroll_all()
            self.dialog = review_dialog(self.review)
            page.show_dialog(self.dialog)
            self._unhold = _hold_back(page, self.review.cancel)
        return result

    def _confirmed(self, rows: list[list[str]]) -> None:
        self.on_confirm(rows)

    def _close(self, page: Any) -> None:
        self.review = None
        self._unhold()
        self._unhold = _nothing
        if page is not None and self.dialog is not None:
            page.pop_dialog()
            self.dialog = None
            page.update()  # the filled field lies outside the dialog whose button was tapped

    def _say(self, text: str, error: bool = False) -> None:
        self.status.value = text
        self.status.color = ERROR_COLOUR if error else MUTED
        self.status.visible = True


def _nothing() -> None:
    pass


def review_dialog(review: PhotoReview) -> ft.AlertDialog:
    """The dialog that shows ``review``, sized for a phone: narrow margins (a 390 px wide
    screen leaves 350 px to the photo and a key row, not 262 px), the photo and rows scrolling
    above the keys, which stay in view right above "Cancel" and "Use these tiles"."""
    return ft.AlertDialog(
        modal=True,
        title=ft.Text(_("Tiles on the photo"), size=20),
        title_padding=ft.Padding.only(left=16, top=14, right=16),
        content=ft.Container(review.control, width=520),
        content_padding=ft.Padding.only(left=12, top=8, right=12, bottom=0),
        actions=review.actions,
        actions_padding=ft.Padding.only(left=12, top=4, right=12, bottom=10),
        inset_padding=ft.Padding.symmetric(horizontal=8, vertical=12),
        scrollable=False,
    )


def flat(rows: Sequence[Sequence[str]]) -> list[str]:
    """All tiles of the rows, in reading order."""
    return [t for r in rows for t in r]


def for_keyboard(
    keyboard: Any, players: int | None = None, one_meld: bool = False
) -> list[ft.Control]:
    """A "From a photo" button that fills a :class:`~app.ui.common.keyboard.PieceKeyboard` with the
    tiles read (in reading order); ``[]`` for card games. For a screen's control list.
    ``one_meld``: the keyboard holds one meld (the meld checker): a photo of several rows
    asks which row to use instead of joining them."""
    if keyboard.material != "tiles":
        return []

    def fill(rows: list[list[str]]) -> None:
        keyboard.set_pieces(flat(rows))
        keyboard._changed()

    unit = "one" if one_meld else "row"
    return [PhotoButton(keyboard.variant, fill, players, keyboard.label, unit).control]


def for_melds(editor: Any, players: int | None = None) -> list[ft.Control]:
    """A "From a photo" button that fills a :class:`~app.ui.common.keyboard.MeldsEditor` with the
    rows read, one meld per row; ``[]`` for card games."""
    if editor.material != "tiles":
        return []

    def fill(rows: list[list[str]]) -> None:
        editor.set_melds(rows)
        editor._paint()
        if editor.on_change is not None:
            editor.on_change()

    return [PhotoButton(editor.variant, fill, players, editor.title, "meld").control]
