"""Test-session settings shared by every test file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from app.store import Store
    from app.ui.shell import App


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A fresh data file (a test file may define its own ``store``)."""
    from app.store import Store

    s = Store(tmp_path / "games.json")
    yield s
    s.close()


@pytest.fixture
def app(store: Store) -> App:
    """The app on its home screen, without a browser (handlers only change controls)."""
    from app.ui.shell import App

    a = App(store)
    a.show("/")
    return a


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the browser tests last.

    Playwright's sync API keeps its event loop marked as running in the main thread while the
    session-wide browser is open, so a logic test that calls ``asyncio.run`` after a browser
    test would fail for a reason that has nothing to do with it.
    """
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
