"""The themes (app/ui/home/settings.py; issue 12, item 3): a device that chose nothing follows its
own light/dark setting, the light theme keeps the colours the screens had before the dark one
existed, the dark one is true black, and the screens draw with the theme's colour roles
rather than fixed pale colours (which would glare, or carry white text, on the dark theme).
The screens themselves are checked in the browser: tests/browser/test_theme.py."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import flet as ft

from app.store import Store
from app.ui.home.settings import DEFAULT_THEME, apply_theme, dark_theme, light_theme, theme_choice
from app.ui.shell import App

UI = Path(__file__).resolve().parents[1] / "app" / "ui"


def test_nobody_chose_so_the_device_decides(tmp_path: Path) -> None:
    assert DEFAULT_THEME == "system"
    with Store(tmp_path / "games.json") as store:
        app = App(store)
        page = SimpleNamespace(theme=None, dark_theme=None, theme_mode=None)
        app.page = page  # type: ignore[assignment]
        assert theme_choice(app) == "system"
        assert apply_theme(app) == "system"
        assert page.theme_mode == ft.ThemeMode.SYSTEM
        assert isinstance(page.theme, ft.Theme) and isinstance(page.dark_theme, ft.Theme)
        assert apply_theme(app, "dark") == "dark" and page.theme_mode == ft.ThemeMode.DARK
        store.set_setting("theme", "nonsense")  # a bad stored value: the device again
        assert theme_choice(App(store)) == "system"


def test_light_theme_keeps_the_old_colours() -> None:
    cs = light_theme().color_scheme
    assert cs is not None
    # "good" and "wrong" as the screens had them (GOOD_COLOUR, ERROR_COLOUR, their boxes)
    assert (cs.tertiary, cs.tertiary_container) == (ft.Colors.GREEN_800, ft.Colors.GREEN_50)
    assert (cs.error, cs.error_container) == (ft.Colors.RED_800, ft.Colors.RED_50)
    assert cs.on_tertiary_container == ft.Colors.GREEN_900


def test_dark_theme_is_true_black() -> None:
    d = dark_theme()
    cs = d.color_scheme
    assert cs is not None
    assert d.scaffold_bgcolor == d.canvas_color == cs.surface == ft.Colors.BLACK
    assert cs.surface_container_lowest == ft.Colors.BLACK
    assert cs.on_surface == ft.Colors.WHITE
    # the boxes are deep, their text light
    for box in (cs.tertiary_container, cs.error_container, cs.surface_container_highest):
        assert isinstance(box, str) and box.startswith("#") and int(box[1:3], 16) < 0x40


PALE = re.compile(
    r"Colors\.(BLUE_GREY_50|BLUE_GREY_100|GREY_50|GREY_100|GREEN_50|RED_50|AMBER_50|AMBER_100"
    r"|AMBER_200|YELLOW_50|BLUE_50|INDIGO_50|BLUE_GREY_[6-9]00|GREY_[6-9]00|BLACK|WHITE)\b"
)
FACES = {
    # tile and card faces are light like the real ones; what is drawn on them keeps its
    # fixed colours (dots, borders, the chosen key's amber)
    "keyboard.py": {"AMBER_100", "WHITE", "BLUE_GREY_600"},
    "pieces.py": {"WHITE", "BLACK", "RED_50", "GREY_900"},  # card face, shadow, black ink;
    # the faulty meld's frame
    "settings.py": {"INDIGO_50", "BLACK", "WHITE", "GREEN_50", "RED_50"},  # the themes
    "timer.py": {"WHITE"},  # on the red (time is up) and green buttons
    "session.py": {"WHITE"},  # on the red (danger) button (App.confirm)
    "sharing.py": {"BLACK", "WHITE"},  # the QR code: black modules on white in every theme
}


def test_screens_use_the_themes_colour_roles() -> None:
    """No pale backgrounds or fixed dark/grey text outside tile/card faces and the themes."""
    found = []
    for path in sorted(UI.glob("*.py")):
        allowed = FACES.get(path.name, set())
        for n, line in enumerate(path.read_text().splitlines(), 1):
            for m in PALE.finditer(line):
                if m.group(1) not in allowed:
                    found.append(f"{path.name}:{n}: {line.strip()}")
    assert not found, "\n".join(found)
