"""The app's one translation layer: every user-visible string goes through :func:`_`.

Catalogues are GNU gettext ``.po`` files that ``babel`` (``pybabel``) reads and writes, under
``app/locale/<lang>/LC_MESSAGES/messages.po``; the template ``app/locale/messages.pot`` holds
every message id (English text). Message ids are English, so English needs no catalogue.

Workflow (from the project root; ``python -m app.i18n`` does the first two)::

    pybabel extract -F app/locale/babel.cfg -o app/locale/messages.pot app
    pybabel update -i app/locale/messages.pot -d app/locale      # refresh every language
    pybabel init -i app/locale/messages.pot -d app/locale -l pl  # start a new language

``tests/test_views.py`` fails while ``messages.pot`` lacks a message the code uses.

``.po`` files are compiled in memory when a language is first used, so no ``.mo`` build step
is needed. Placeholders use ``str.format`` names: ``_("Round {n}").format(n=3)``.
"""

from __future__ import annotations

import gettext
import io
import locale
import os
import threading
from pathlib import Path
from typing import Final

LOCALE_DIR: Final = Path(__file__).parent / "locale"
DOMAIN: Final = "messages"
LANGUAGES: Final[dict[str, str]] = {"en": "English", "pl": "Polski", "sk": "Slovenčina"}
"""Languages the app offers (code -> own name); a language without a catalogue shows English."""

_lock = threading.Lock()
_cache: dict[str, gettext.NullTranslations] = {}
_current: gettext.NullTranslations = gettext.NullTranslations()
_current_lang = "en"


def _load(lang: str) -> gettext.NullTranslations:
    """Compile ``locale/<lang>/LC_MESSAGES/messages.po`` in memory (English: no catalogue)."""
    with _lock:
        if lang in _cache:
            return _cache[lang]
        po = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
        translations: gettext.NullTranslations = gettext.NullTranslations()
        if po.is_file():
            from babel.messages.mofile import write_mo
            from babel.messages.pofile import read_po

            with po.open("rb") as f:
                catalog = read_po(f, locale=lang)
            buf = io.BytesIO()
            write_mo(buf, catalog)
            buf.seek(0)
            translations = gettext.GNUTranslations(buf)
        _cache[lang] = translations
        return translations


def system_language() -> str:
    """The language of the system locale if the app offers it, else ``"en"``."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var, "")
        if value:
            code = value.split(":")[0].split(".")[0].split("_")[0].lower()
            if code in LANGUAGES:
                return code
            if code not in ("", "c", "posix"):
                break
    try:
        code = (locale.getlocale()[0] or "en").split("_")[0].lower()
    except ValueError:
        code = "en"
    return code if code in LANGUAGES else "en"


def set_language(lang: str) -> str:
    """Use ``lang`` (a code of :data:`LANGUAGES`) for every following :func:`_` call.

    Returns:
        The language now in force (``"en"`` for an unknown code).
    """
    global _current, _current_lang
    if lang not in LANGUAGES:
        lang = "en"
    _current = _load(lang)
    _current_lang = lang
    return lang


def language() -> str:
    """The code of the language in force."""
    return _current_lang


def _(message: str) -> str:
    """Translate ``message`` (an English message id) into the language in force."""
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a message with a count: ``ngettext("{n} round", "{n} rounds", n)``."""
    return _current.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it now (translate it later
    with :func:`_`); for tables of labels built at import time."""
    return message


def update_catalogues() -> None:
    """Re-extract ``messages.pot`` from the app's code and merge it into every ``.po``
    (``python -m app.i18n``; the same as the ``pybabel`` commands in the module docstring)."""
    from babel.messages.frontend import CommandLineInterface

    root = Path(__file__).parent
    pot = LOCALE_DIR / "messages.pot"
    CommandLineInterface().run(
        [
            "pybabel",
            "-q",
            "extract",
            "-F",
            str(LOCALE_DIR / "babel.cfg"),
            "--sort-output",
            "--project=rummy-referee",
            "--copyright-holder=the rummy-referee authors",
            "-o",
            str(pot),
            str(root),
        ]
    )
    if any(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        CommandLineInterface().run(
            ["pybabel", "-q", "update", "-i", str(pot), "-d", str(LOCALE_DIR)]
        )


if __name__ == "__main__":
    update_catalogues()
