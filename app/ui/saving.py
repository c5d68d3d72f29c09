"""Saving a changed game from a screen, with the store's optimistic concurrency."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from app.i18n import _
from app.store import ConflictError, StoreError

if TYPE_CHECKING:
    from app.games import Game
    from app.ui.shell import App

log = logging.getLogger("app")


def save_game(app: App, game: Game, expected_version: int) -> Game | None:
    """Store ``game`` if nobody saved it since ``expected_version``.

    Returns:
        The stored game, or None after telling the user why it was not saved (someone else
        changed the game on another screen, or the disk refused). Nothing already saved is
        changed in either case.
    """
    try:
        return app.store.save_game(game, expected_version)
    except ConflictError:
        app.notify(
            _(
                "Someone changed this game on another screen; your change was not saved. "
                "Here is the game as it is now."
            ),
            error=True,
        )
    except StoreError as e:
        log.exception("save failed")
        app.notify(_("Could not save: {reason}").format(reason=e.message), error=True)
    return None
