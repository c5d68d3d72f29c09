"""Test-session settings shared by every test file."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the browser tests last.

    Playwright's sync API keeps its event loop marked as running in the main thread while the
    session-wide browser is open, so a logic test that calls ``asyncio.run`` after a browser
    test would fail for a reason that has nothing to do with it.
    """
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
