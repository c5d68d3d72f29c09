"""Browser tests: the app served by ``python -m app`` (offline, ``no_cdn``) and driven in
headless Debian Chromium through Python playwright at phone size (360×740).

Facts these helpers rely on (../shared/FLET_NOTES.md): wait for ``flt-glass-pane``, then click
``flt-semantics-placeholder`` to switch on the accessibility tree (again after each reload);
controls are found by role and accessible name; wait ~150 ms after clicking a text box before
typing; wait ~0.5 s before a screenshot. Never ``playwright install``: Chromium is the Debian
package at /usr/bin/chromium.

Screenshots go to ``test-artifacts/screenshots/`` (git-ignored) for people to look at.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 360, "height": 740}
PINNED_KEYS = '[flt-semantics-identifier="pinned-keys"]'
"""The round entry's keys pinned below the scrolling part (app.ui.common.keyboard.PAD_ID)."""
START_TIMEOUT = 90.0


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``python -m app`` running in a child process on a free port with its own data file."""

    def __init__(self, data: Path, port: int | None = None) -> None:
        self.data = data
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.log = data.parent / f"server-{self.port}.log"
        self.proc: subprocess.Popen[bytes] | None = None

    EXTRA_ARGS: tuple[str, ...] = ()
    """Options of ``python -m app`` besides the port and data file (a subclass adds some)."""
    READY = "running at"
    """The line of the server's log that says it serves."""

    def start(self) -> Server:
        env = dict(os.environ, CI="true", PYTHONUNBUFFERED="1")
        env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        args = [*self.EXTRA_ARGS, "--port", str(self.port), "--data", str(self.data)]
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "app", *args, "--no-browser"],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the app exited: {self.log.read_text()[-2000:]}")
            if self.READY in self.log.read_text(errors="replace"):
                return self
            time.sleep(0.05)
        raise RuntimeError(f"the app did not start in time: {self.log.read_text()[-2000:]}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Any]:
    """The one Playwright driver of the run (a second ``sync_playwright()`` while one runs
    fails: "using Playwright Sync API inside the asyncio loop")."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def chromium(playwright_driver: Any) -> Iterator[Any]:
    """One headless Chromium for the whole run."""
    browser = playwright_driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The app with an empty data file, for one test module."""
    data = tmp_path_factory.mktemp("data") / "games.json"
    srv = Server(data).start()
    yield srv
    srv.stop()


class Phone:
    """A browser tab at phone size with helpers that find controls by role and name."""

    def __init__(self, page: Any, url: str) -> None:
        self.page = page
        self.url = url

    # -- loading ------------------------------------------------------------------------------
    def open(self, path: str = "/") -> Phone:
        self.page.goto(self.url.rstrip("/") + path)
        self.ready()
        return self

    def reload(self) -> Phone:
        self.page.reload()
        self.ready()
        return self

    def ready(self) -> None:
        """Wait for Flutter, switch the accessibility tree on, wait for the first screen."""
        self.page.wait_for_selector("flt-glass-pane", state="attached", timeout=60_000)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            ph = self.page.locator("flt-semantics-placeholder")
            if ph.count():
                ph.dispatch_event("click")
            if self.page.locator("flt-semantics[role], input[aria-label]").count():
                return
            time.sleep(0.2)
        raise AssertionError("the app did not show its first screen")

    # -- finding and acting -------------------------------------------------------------------
    def role(self, role: str, name: str | re.Pattern[str]) -> Any:
        """Controls of ``role`` named ``name`` (a string matches the whole name)."""
        return self.page.get_by_role(role, name=name, exact=isinstance(name, str))

    def button(self, name: str | re.Pattern[str]) -> Any:
        return self.role("button", name).first

    def keys_top(self) -> float:
        """Where the part of the screen that does not scroll begins: the top of the round
        entry's keys pinned at the bottom (``flt-semantics-identifier="pinned-keys"``), else
        80 px above the bottom (the snack bar's place)."""
        top = float(PHONE["height"] - 80)
        pad = self.page.locator(PINNED_KEYS)
        if pad.count():
            box = pad.first.bounding_box()
            if box is not None and box["height"] > 0:
                top = min(top, box["y"] - 4)
        return top

    def into_view(self, loc: Any) -> None:
        """Scroll a control into the screen's scrolling part with the mouse wheel before
        tapping it: a click on a control drawn off-screen, under the snack bar at the bottom
        or behind the pinned keys of a round entry lands on whatever Flutter draws there
        (FLET_NOTES.md; the control still reports its place). The wheel turns over the
        scrolling part (over the pinned keys it scrolls nothing); a pinned key itself is left
        where it is."""
        height = PHONE["height"]
        try:
            if loc.evaluate(f"e => !!e.closest('{PINNED_KEYS}')"):
                return  # one of the pinned keys: they never scroll
        except Exception:  # noqa: BLE001 - gone meanwhile: the box below says so
            pass
        for _ in range(6):
            box = loc.bounding_box()
            if box is None:
                return
            top, bottom = box["y"], box["y"] + box["height"]
            limit = self.keys_top()
            if top >= 70 and bottom <= limit:
                return
            y = min(height / 2, (70 + limit) / 2)
            self.page.mouse.move(PHONE["width"] / 2, y)
            self.page.mouse.wheel(0, (top + bottom) / 2 - y)
            time.sleep(0.4)

    def tap(self, name: str | re.Pattern[str], role: str = "button") -> None:
        loc = self.role(role, name).first
        loc.wait_for(timeout=15_000)
        self.into_view(loc)
        loc.click()
        time.sleep(0.25)

    def tap_to(
        self, name: str | re.Pattern[str], expect: str | re.Pattern[str], tries: int = 3
    ) -> None:
        """Tap a button that opens a screen until the screen shows ``expect``: under load a
        tap can be lost (one landed while a snack bar was leaving). A button still there after
        10 s without ``expect`` is tapped again; one that is gone is not."""
        for attempt in range(tries):
            if attempt == 0 or self.button(name).count():
                self.tap(name)
            try:
                self.wait_text(expect, timeout=10_000)
                return
            except Exception:
                if attempt == tries - 1:
                    raise

    def chip(self, name: str | re.Pattern[str]) -> None:
        """Tap a choice chip (a checkbox for screen readers)."""
        self.tap(name, role="checkbox")

    def fill(self, name: str | re.Pattern[str], text: str) -> None:
        """Type into a text box like a person: tap it, check it has the focus, select what is
        there, type.

        Keys go to the focused element, which survives Flutter re-creating the field's
        <input> when the tap scrolls it into view (``fill`` on a stale element is lost);
        the focus and the typed value are checked, and the whole thing retried if needed."""
        if isinstance(name, str):  # a focused field adds its hint to its name
            name = re.compile(rf"^{re.escape(name)}(\s|$)")
        for attempt in range(5):
            box = self.role("textbox", name).first
            box.wait_for(timeout=15_000)
            self.into_view(box)
            box.click()
            time.sleep(0.3 + 0.3 * attempt)
            label = self.page.evaluate(
                "() => document.activeElement?.getAttribute('aria-label') ?? ''"
            )
            if not name.search(" ".join(str(label).split())):
                continue  # the tap did not give this field the focus (yet)
            self.page.keyboard.press("Control+A")
            self.page.keyboard.press("Delete")
            self.page.keyboard.type(text, delay=15)
            time.sleep(0.25)
            focused = self.page.evaluate(
                "() => [document.activeElement?.getAttribute('aria-label') ?? '',"
                " document.activeElement?.value ?? null]"
            )
            if name.search(" ".join(str(focused[0]).split())) and focused[1] == text:
                return
        raise AssertionError(f"could not type {text!r} into {name.pattern}")

    def text(self, pattern: str | re.Pattern[str]) -> Any:
        return self.page.get_by_text(pattern).first

    def wait_text(self, pattern: str | re.Pattern[str], timeout: float = 15_000) -> Any:
        loc = self.page.get_by_text(pattern).first
        loc.wait_for(timeout=timeout, state="attached")
        return loc

    def dialog(self, title: str, timeout: float = 15_000) -> None:
        """Wait for a dialog and for its opening animation (a tap during it is lost)."""
        self.wait_text(title, timeout=timeout)
        time.sleep(0.6)

    def labels(self) -> list[str]:
        """Every accessible name and text on the screen (for reading totals and messages)."""
        out: list[str] = self.page.evaluate(
            """() => Array.from(document.querySelectorAll('flt-semantics, input, textarea'))
                 .map(e => (e.getAttribute('aria-label') || '') + ' ' + (e.innerText || ''))
                 .map(s => s.trim()).filter(s => s)"""
        )
        return out

    def shot(self, name: str) -> Path:
        """A screenshot of the page in ``test-artifacts/screenshots/NAME.png``.

        Raises:
            AssertionError: the picture shows Flet's red error box (a control Flet cannot
                draw, such as a visible Semantics over a hidden control), which players see.
        """
        SHOTS.mkdir(parents=True, exist_ok=True)
        time.sleep(0.5)
        path = SHOTS / f"{name}.png"
        self.page.screenshot(path=str(path))
        boxes = flet_error_boxes(path)
        assert not boxes, f"Flet's red error box on {path.name} at {boxes}"
        return path


def flet_error_boxes(path: Path) -> list[tuple[int, int, int, int]]:
    """Where a screenshot shows Flet's error box: a filled bright red bar (about 276×27 px at
    phone size, white words such as "Semantics.content must be provided and visible") that the
    web client draws in place of a control it cannot build.

    Returns:
        ``[(x, y, width, height), …]`` in pixels; empty when there is none. The app's own reds
        (the red tile keys, error words) are darker or not filled bars.
    """
    import cv2
    import numpy as np

    image = cv2.imread(str(path))
    if image is None:
        return []
    b, g, r = (image[:, :, i].astype(np.int16) for i in range(3))
    mask = ((r > 225) & (g > 50) & (g < 90) & (b > 40) & (b < 80)).astype(np.uint8)
    count, _labels, stats, _centres = cv2.connectedComponentsWithStats(mask)
    return [
        (int(x), int(y), int(w), int(h))
        for x, y, w, h, area in stats[1:count]
        if w > 150 and 14 < h < 60 and area > 0.6 * w * h
    ]


@pytest.fixture
def phone(chromium: Any, server: Server) -> Iterator[Phone]:
    """A fresh tab at 360×740 on the module's app."""
    context = chromium.new_context(viewport=PHONE, device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield Phone(page, server.url)
    context.close()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here is a browser test."""
    for item in items:
        if "tests/browser" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any) -> Iterator[None]:
    """On a failure, save what the phone showed (test-artifacts/screenshots/FAILED-…)."""
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed:
        phone = getattr(item, "funcargs", {}).get("phone")
        if isinstance(phone, Phone):
            try:
                phone.shot(f"FAILED-{item.name}")
                inputs = phone.page.evaluate(
                    "() => Array.from(document.querySelectorAll('input, textarea'))"
                    ".map(e => e.outerHTML.slice(0, 300))"
                )
                server = item.funcargs.get("server")
                log = server.log.read_text()[-4000:] if isinstance(server, Server) else ""
                (SHOTS / f"FAILED-{item.name}.txt").write_text(
                    "\n".join(phone.labels()) + "\n\n" + "\n".join(inputs) + "\n\n" + log
                )
            except Exception:  # noqa: BLE001 - the browser may be gone
                pass
