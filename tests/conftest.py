"""Test-session settings and helpers shared by every test file.

Fixtures: ``store`` (a fresh data file), ``open_store`` (fresh data files by name), ``app``
(the app on its home screen, no browser) and ``fresh_shared`` (no score sheet shared between
sessions before or after the test).
Helpers for reading a screen without a browser (``from tests.conftest import walk, ...``):
:func:`children`, :func:`walk` and :func:`visible_texts`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from app.store import Store
    from app.ui.shell import App


@pytest.fixture
def open_store(tmp_path: Path) -> Iterator[Callable[[str], Store]]:
    """Opens a fresh data file of the given name in the test's folder; every one is closed
    after the test (two devices: ``open_store("home.json")``, ``open_store("other.json")``)."""
    from app.store import Store

    opened: list[Store] = []

    def open_(name: str) -> Store:
        s = Store(tmp_path / name)
        opened.append(s)
        return s

    yield open_
    for s in opened:
        s.close()


@pytest.fixture
def store(open_store: Callable[[str], Store]) -> Store:
    """A fresh data file (a test file may define its own ``store``)."""
    return open_store("games.json")


@pytest.fixture
def app(store: Store) -> App:
    """The app on its home screen, without a browser (handlers only change controls)."""
    from app.ui.shell import App

    a = App(store)
    a.show("/")
    return a


@pytest.fixture
def fresh_shared() -> Iterator[None]:
    """No shared score sheet left from another test, nor left to the next (a test file of
    sessions watching games uses it: ``pytestmark = pytest.mark.usefixtures("fresh_shared")``)."""
    from app.ui.sheet import score_sheet

    score_sheet.forget_shared()
    yield
    score_sheet.forget_shared()


def children(control: Any) -> Iterator[Any]:
    """The controls directly under ``control``: its dataclass fields (not private, not
    ``data``) holding a control or a list of them."""
    import flet as ft

    if not dataclasses.is_dataclass(control):
        return
    for f in dataclasses.fields(control):
        if f.name.startswith("_") or f.name == "data":
            continue
        v = getattr(control, f.name, None)
        for item in v if isinstance(v, list) else [v]:
            if isinstance(item, ft.BaseControl):
                yield item


def walk(control: Any, visible_only: bool = False) -> Iterator[Any]:
    """``control`` and every control under it, depth first (``visible_only``: not into a
    control whose ``visible`` is False)."""
    if visible_only and getattr(control, "visible", True) is False:
        return
    yield control
    for item in children(control):
        yield from walk(item, visible_only)


def visible_texts(control: Any, *, labels: bool = False, spans: bool = False) -> list[str]:
    """The text of every visible ``Text`` under ``control``, in order; with ``labels`` also
    every string ``label`` (accessible names, field labels), with ``spans`` the joined text
    of a ``Text``'s spans."""
    import flet as ft

    out: list[str] = []
    for c in walk(control, visible_only=True):
        if isinstance(c, ft.Text):
            if c.value:
                out.append(c.value)
            if spans and c.spans:
                out.append("".join(s.text or "" for s in c.spans))
        label = getattr(c, "label", None) if labels else None
        if isinstance(label, str) and label:
            out.append(label)
    return out


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the browser tests last.

    Playwright's sync API keeps its event loop marked as running in the main thread while the
    session-wide browser is open, so a logic test that calls ``asyncio.run`` after a browser
    test would fail for a reason that has nothing to do with it.
    """
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
