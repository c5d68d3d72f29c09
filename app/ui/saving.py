"""Saving a changed game from a screen, with the store's optimistic concurrency.

A save that meets someone else's change (another phone, another tab) goes through
:func:`app.ui.sharing.save`: a change that does not clash (a new round; an edit of a round
nobody else touched) is re-applied on top of theirs, a real clash is shown to the person
(:class:`app.ui.sharing.ConflictDialog`) and nothing is overwritten.

:func:`save_game` lives in :mod:`app.ui.sharing` (its clash dialog saves too); this is its old
import path.
"""

from __future__ import annotations

from app.ui.sharing import save_game

__all__ = ["save_game"]
