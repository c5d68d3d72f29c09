"""The Flet entry point: one :class:`app.ui.shell.App` per browser tab, all sharing one Store.

``python -m app`` (see :mod:`app.__main__`) serves :func:`make_main` with ``ft.run``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from app import i18n
from app.ui.shell import App

if TYPE_CHECKING:
    from app.ui.shell import StoreLike


def make_main(store: StoreLike) -> Callable[[ft.Page], None]:
    """The ``main`` that Flet calls for each new session (browser tab)."""
    lang = store.get_setting("language", None) or i18n.system_language()
    i18n.set_language(lang)

    def main(page: ft.Page) -> None:
        App(store, page).start()

    return main
