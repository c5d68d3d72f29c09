"""The frame every screen shares: an app bar with a back arrow and a scrolling, centred body."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import flet as ft

from app.i18n import _
from app.ui.common.widgets import centered

if TYPE_CHECKING:
    from app.ui.common.session import App


TITLE_ONE_SIZE: Final = 24
"""Titles up to this many characters are 20 px, longer ones 17 px; two lines where needed."""


def frame(
    app: App,
    route: str,
    title: str,
    controls: list[ft.Control],
    back: str | None = None,
    actions: list[ft.Control] | None = None,
) -> ft.View:
    """A screen: app bar (title, back arrow to ``back``, actions) and ``controls``."""
    leading: ft.Control | None = None
    if back is not None:

        def go_back(_e: Any = None) -> None:
            app.go(back)

        leading = ft.Semantics(
            label=_("Back"),
            button=True,
            content=ft.IconButton(ft.Icons.ARROW_BACK, on_click=go_back),
        )
    bar = ft.AppBar(
        leading=leading,
        automatically_imply_leading=False,
        # two lines when it must (a phone with four actions left "Carousel r…" of a title),
        # tighter lines so that two fit the bar, a smaller size for a long title
        title=ft.Text(
            title,
            size=20 if len(title) <= TITLE_ONE_SIZE else 17,
            weight=ft.FontWeight.W_600,
            max_lines=2,
            overflow=ft.TextOverflow.ELLIPSIS,
            style=ft.TextStyle(height=1.1),
        ),
        actions=actions or [],  # colours: the theme's app bar (app/ui/home/settings.py)
    )
    return ft.View(
        route=route,
        appbar=bar,
        controls=[centered(controls)],
        scroll=ft.ScrollMode.AUTO,
        padding=ft.Padding.only(left=12, top=10, right=16, bottom=24),
    )


class MessageScreen:
    """A screen with one message and a way home (unknown route, deleted game)."""

    def __init__(self, app: App, route: str, message: str) -> None:
        self.message = message

        def home(_e: Any = None) -> None:
            app.go("/")

        self.view = frame(
            app,
            route,
            _("Rummy referee"),
            [
                ft.Text(message, size=18),
                ft.FilledButton(_("Go to the games list"), on_click=home, height=48),
            ],
            back="/",
        )
