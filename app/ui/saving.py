"""Saving a changed game from a screen, with the store's optimistic concurrency.

A save that meets someone else's change (another phone, another tab) goes through
:func:`app.ui.sharing.save`: a change that does not clash (a new round; an edit of a round
nobody else touched) is re-applied on top of theirs, a real clash is shown to the person
(:class:`app.ui.sharing.ConflictDialog`) and nothing is overwritten.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from app.error_text import describe
from app.i18n import _
from app.store import StoreError

if TYPE_CHECKING:
    from app.games import Game
    from app.ui.shell import App

log = logging.getLogger("app")


def save_game(
    app: App,
    game: Game,
    expected_version: int,
    base: Game | None = None,
    on_error: Callable[[str], None] | None = None,
) -> Game | None:
    """Store ``game`` if nobody saved it since ``expected_version`` — or re-apply the change on
    top of what they saved, when the two do not clash.

    Args:
        base: the game the change was made from (default: the game of the screen shown, if it
            is the one at ``expected_version``); it tells what the change was.
        on_error: also called with the message when the change was refused (no right to
            change the game, or the disk refused: full, read-only), so that a screen can keep
            what was typed and show why; not called for a clash (its dialog is shown).

    Returns:
        The stored game (possibly saved on top of someone else's change: its ``version`` is
        then more than ``expected_version + 1``), or None after telling the user why it was
        not saved (a clash with someone else's change — a dialog offers the choices —, no
        right to change the game, or the disk refused). Nothing already saved is lost.
    """
    from app.games import Game
    from app.live import AccessError
    from app.ui import sharing

    if base is None:
        shown = getattr(app.screen, "game", None)
        if isinstance(shown, Game) and shown.id == game.id and shown.version == expected_version:
            base = shown
    try:
        return sharing.save(app, game, expected_version, base)
    except AccessError as e:
        message = sharing.access_message(e)
    except StoreError as e:
        log.exception("save failed")
        message = _("Could not save. {reason}").format(reason=describe(e))
    app.notify(message, error=True)
    if on_error is not None:
        on_error(message)
    return None
