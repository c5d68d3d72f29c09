"""The app's one translation layer: every user-visible string goes through :func:`_`.

Catalogues are GNU gettext ``.po`` files that ``babel`` (``pybabel``) reads and writes, under
``app/locale/<lang>/LC_MESSAGES/messages.po``; the template ``app/locale/messages.pot`` holds
every message id (English text). Message ids are English; the English catalogue
(``app/locale/en/…``) gives a player's wording only for the few ids that read as a developer's
(the rules engine's templates such as "bad token …", which stay the judge's public ``message``),
and every other id shows as it is.

Workflow (from the project root; ``python -m app.i18n`` does the first two)::

    pybabel extract -F app/locale/babel.cfg -o app/locale/messages.pot app
    pybabel update -i app/locale/messages.pot -d app/locale      # refresh every language
    pybabel init -i app/locale/messages.pot -d app/locale -l pl  # start a new language

``tests/test_views.py`` fails while ``messages.pot`` lacks a message the code uses;
``tests/test_i18n.py`` checks the catalogues (every Polish message translated, placeholders kept).

``.po`` files are compiled in memory when a language is first used, so no ``.mo`` build step
is needed. Placeholders use ``str.format`` names: ``_("Round {n}").format(n=3)``.

One language per session
------------------------
Several phones share one server process, each its own Flet session on one asyncio loop, and
each may read the app in its own language. :func:`language` (and so :func:`_`) resolves the
language in force, innermost first:

1. :func:`use_language` — a :class:`contextvars.ContextVar` set for a block and reset after it
   (the shell builds every screen inside ``use_language(app.language)``; tests use it too).
   Each asyncio task has its own copy of the context, so one session's block never shows in
   another session's task.
2. The Flet session being served: Flet binds the session's page to its own context variable
   before it runs any handler, ``main``, ``page.run_task`` or ``page.run_thread`` of that
   session; :func:`bind_page` records the page's language (the shell does it when a session
   starts and when its language changes), so a button handler of one phone speaks that
   phone's language without anyone passing it along.
3. The process default, :func:`set_language` (the server's locale at start; the CLI; tests).
"""

from __future__ import annotations

import contextlib
import gettext
import io
import locale
import os
import threading
import weakref
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Final

LOCALE_DIR: Final = Path(__file__).parent / "locale"
DOMAIN: Final = "messages"
LANGUAGES: Final[dict[str, str]] = {"en": "English", "pl": "Polski", "sk": "Slovenčina"}
"""Languages the app offers (code -> own name); a language without a catalogue shows English."""

_lock = threading.Lock()
_cache: dict[str, gettext.NullTranslations] = {}
_default_lang = "en"
_context_lang: ContextVar[str | None] = ContextVar("app_language", default=None)
_page_langs: dict[int, tuple[weakref.ref[Any], str]] = {}
"""``id(page)`` -> (weak reference to the page, language): the language of each session."""

_flet_page: ContextVar[Any] | None
try:  # Flet's "page of the session being served" (set by Flet for every handler it runs)
    from flet.controls.context import _context_page as _flet_page
except ImportError:  # pragma: no cover - Flet is a dependency of the app, not of the CLI
    _flet_page = None


def _load(lang: str) -> gettext.NullTranslations:
    """Compile ``locale/<lang>/LC_MESSAGES/messages.po`` in memory (none: the ids)."""
    got = _cache.get(lang)
    if got is not None:
        return got
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


def known(lang: str | None) -> str | None:
    """``lang`` as a code of :data:`LANGUAGES` (``"pl_PL.UTF-8"``, ``"pl-PL"`` -> ``"pl"``;
    ``"sk"`` -> ``"sk"``), or None when the app does not offer it."""
    if not lang:
        return None
    code = str(lang).split(":")[0].split(".")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def first_known(codes: Iterable[str | None]) -> str | None:
    """The first of ``codes`` (a browser's preferred languages, in order) the app offers."""
    for c in codes:
        got = known(c)
        if got is not None:
            return got
    return None


def system_language() -> str:
    """The language of the system locale if the app offers it, else ``"en"``."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var, "")
        if value:
            code = known(value)
            if code is not None:
                return code
            if value.split(".")[0].lower() not in ("", "c", "posix"):
                break
    try:
        code = known(locale.getlocale()[0] or "en")
    except ValueError:
        code = None
    return code or "en"


def set_language(lang: str) -> str:
    """Make ``lang`` (a code of :data:`LANGUAGES`) the process default: the language of every
    :func:`_` call outside a session's handlers and outside :func:`use_language`.

    Returns:
        The language now the default (``"en"`` for an unknown code).
    """
    global _default_lang
    if lang not in LANGUAGES:
        lang = "en"
    _load(lang)
    _default_lang = lang
    return lang


def default_language() -> str:
    """The process default (see :func:`set_language`)."""
    return _default_lang


@contextlib.contextmanager
def use_language(lang: str | None) -> Iterator[str]:
    """Translate into ``lang`` inside the ``with`` block (this task/thread only; nested blocks
    win; ``None`` or an unknown code: English). Yields the code in force."""
    code = lang if lang in LANGUAGES else "en"
    token = _context_lang.set(code)
    try:
        yield code
    finally:
        _context_lang.reset(token)


def bind_page(page: Any, lang: str) -> str:
    """Speak ``lang`` in every handler Flet runs for the session of ``page`` (kept while the
    page lives). Returns the code bound (``"en"`` for an unknown one)."""
    code = lang if lang in LANGUAGES else "en"
    key = id(page)

    def forget(_ref: weakref.ref[Any], key: int = key) -> None:
        entry = _page_langs.get(key)
        if entry is not None and entry[0] is _ref:
            _page_langs.pop(key, None)

    try:
        ref = weakref.ref(page, forget)
    except TypeError:  # not weak-referenceable (a test double): kept until unbound
        obj = page
        ref = lambda: obj  # type: ignore[assignment] # noqa: E731
    _page_langs[key] = (ref, code)
    return code


def unbind_page(page: Any) -> None:
    """Forget the language of ``page``'s session."""
    entry = _page_langs.get(id(page))
    if entry is not None and entry[0]() is page:
        _page_langs.pop(id(page), None)


def page_language(page: Any) -> str | None:
    """The language bound to ``page`` (None when none is)."""
    if page is None:
        return None
    entry = _page_langs.get(id(page))
    if entry is not None and entry[0]() is page:
        return entry[1]
    return None


def language() -> str:
    """The code of the language in force here (see the module docstring for the order)."""
    lang = _context_lang.get()
    if lang is not None:
        return lang
    if _flet_page is not None and _page_langs:
        got = page_language(_flet_page.get())
        if got is not None:
            return got
    return _default_lang


def translations(lang: str | None = None) -> gettext.NullTranslations:
    """The catalogue of ``lang`` (default: the language in force)."""
    code = lang if lang is not None else language()
    return _load(code if code in LANGUAGES else "en")


def _(message: str) -> str:
    """Translate ``message`` (an English message id) into the language in force."""
    return translations().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a message with a count: ``ngettext("{n} round", "{n} rounds", n)``."""
    return translations().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """Translate ``message`` in ``context`` (``"tiles"`` or ``"cards"``): one English string
    that needs two translations, e.g. ``pgettext("cards", "Stock ran out")``."""
    return translations().pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` in ``context`` (see :func:`pgettext`)."""
    return translations().npgettext(context, singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it now (translate it later
    with :func:`_`); for tables of labels built at import time."""
    return message


def update_catalogues() -> None:
    """Re-extract ``messages.pot`` from the app's code and merge it into every ``.po``
    (``python -m app.i18n``; the same as the ``pybabel`` commands in the module docstring)."""
    from babel.messages.frontend import CommandLineInterface

    root = Path(__file__).parent
    with contextlib.chdir(root.parent):  # locations in the catalogues read "app/ui/…"
        CommandLineInterface().run(  # type: ignore[no-untyped-call]
            [
                "pybabel",
                "-q",
                "extract",
                "-F",
                "app/locale/babel.cfg",
                "--sort-output",
                "--project=rummy-referee",
                "--copyright-holder=the rummy-referee authors",
                "-k",
                "T",
                "-k",
                "P:1,2",
                "-o",
                "app/locale/messages.pot",
                root.name,
                "rules/messages.py",  # the engine's templates: the app renders its keys
            ]
        )
        if any(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
            CommandLineInterface().run(  # type: ignore[no-untyped-call]
                ["pybabel", "-q", "update", "-i", "app/locale/messages.pot", "-d", "app/locale"]
            )


if __name__ == "__main__":
    update_catalogues()
