"""Entering (or editing) one round, and looking at a saved round.

Flow: fill in the variant's form → "Show the scores" asks the judge → "Save round" appears in
its place with the breakdown (who gets what and why, naming the rule) under it, scrolled into
view → saved, back to the score sheet.
Pieces are tapped on one set of keys pinned at the bottom of the screen, below the part that
scrolls (:attr:`EntryForm.pad`): the hand being entered is named and drawn above the keys;
tapping another hand, a full hand or a refused tap changes what the keys enter, never where
they are. Any edit hides an out-of-date breakdown. A mistyped piece or an impossible round is
flagged at its field with the reason; nothing saved changes until "Save round" succeeds.

Drafts: a new round half entered is kept in this browser's storage (``ft.SharedPreferences``)
after every edit, so ← , the browser's Back or a reload lose nothing. The app's ← and "Cancel"
ask "Keep this draft / Discard"; opening "Enter round N" again restores it. A draft for round N
is dropped once round N is saved, here or on another phone (:func:`draft_applies`). Editing a
saved round keeps no draft.

Each tab keeps its own draft (key :func:`draft_key`: game, round, the session's
:attr:`App.tab`) with the time each field was last changed there; opening the entry merges the
drafts of every tab, field by field, the latest change winning (:func:`merge_drafts`). Two tabs
of one browser share its storage but each reads it as it was when the tab loaded (Flutter's
``SharedPreferences`` keeps a copy per tab): one shared key written whole on every edit let a
tab that had not seen another's fields write over them. "Discard" is a change too: it hides
every field changed before it, in every tab's draft.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

import flet as ft

from app import games
from app.error_text import describe, round_problem
from app.i18n import _, ngettext
from app.ui.common.frame import frame
from app.ui.common.labels import FINISH_NAMES, OPENED_NAMES
from app.ui.common.session import ask_client
from app.ui.common.titles import when
from app.ui.common.widgets import (
    ERROR_COLOUR,
    MUTED,
    ChoiceChips,
    Stepper,
    card,
    centered,
    error_box,
    fold,
    fold_error,
    muted,
    primary_button,
    secondary_button,
    show_error,
)
from app.ui.entry import entry_forms
from app.ui.entry.breakdown import breakdown_panel, pieces_text
from app.ui.entry.entry_forms import EntryForm, FormError, TilesForm, make_form, typed_only
from app.ui.table import sharing
from app.ui.table.sharing import save_game

if TYPE_CHECKING:
    from app.games import Game, RoundResult
    from app.ui.common.session import App


BREAKDOWN_KEY = "breakdown"
FROM_ENTRY = "entry"
"""``?from=`` of a rule-book route opened from a round entry's breakdown (← comes back)."""
DRAFT_PREF = "rummy_referee.draft."
"""Browser storage key prefix of the round drafts (:func:`draft_key` gives the rest)."""
DRAFT_VERSION = 2
"""2: one draft per tab with the time of each field's last change; 1 (one draft per game,
key :data:`DRAFT_PREF` + game id, no times) is still read."""
MAX_DRAFTS = 40
"""Most drafts of one round read when the entry opens (one per tab that edited it)."""
MAX_DRAFT_CHARS = 200_000
"""Longest draft text read (characters of JSON; a six-player round's draft is a few KiB): the
browser's storage is the phone's to forge, and a longer one is left out unread."""
log = logging.getLogger(__name__)

MARK_KEY = "marked-{n}"
"""The scroll key of a screen's ``n``-th part (:func:`key_parts`): a refused save scrolls the
first part holding a marked field into view (:func:`first_marked`)."""


def _under(control: Any) -> Iterator[Any]:
    """``control`` and every visible control under it, depth first."""
    if getattr(control, "visible", True) is False:
        return
    yield control
    if not dataclasses.is_dataclass(control):
        return
    for f in dataclasses.fields(control):
        if f.name.startswith("_") or f.name == "data":
            continue
        v = getattr(control, f.name, None)
        for item in v if isinstance(v, list) else [v]:
            if isinstance(item, ft.BaseControl):
                yield from _under(item)


def marked(control: Any, skip: tuple[Any, ...] = ()) -> bool:
    """Does ``control`` show a marked field: a text field with its error, or a visible red
    line (a choice not made, a hand the referee refused)? ``skip``: lines that do not count
    (the form's own "Please correct the marked fields." line)."""
    for c in _under(control):
        if any(c is s for s in skip):
            continue
        if isinstance(c, ft.TextField) and c.error:
            return True
        if isinstance(c, ft.Text) and c.color == ERROR_COLOUR and c.value:
            return True
    return False


def key_parts(controls: list[ft.Control]) -> None:
    """Give each of a screen's parts (``controls``) a scroll key (:data:`MARK_KEY`) unless it
    has one."""
    for n, c in enumerate(controls):
        if getattr(c, "key", None) is None:
            c.key = ft.ScrollKey(MARK_KEY.format(n=n))  # type: ignore[call-arg]


def first_marked(controls: list[ft.Control], skip: tuple[Any, ...] = ()) -> str | None:
    """The scroll key of the first of ``controls`` (keyed by :func:`key_parts`) that shows a
    marked field, or None."""
    for c in controls:
        key = getattr(c, "key", None)
        if isinstance(key, ft.ScrollKey) and marked(c, skip):
            return str(key.value)
    return None


# -- drafts ----------------------------------------------------------------------------------
def _inputs(obj: Any, path: str = "", seen: set[int] | None = None) -> Iterator[tuple[str, Any]]:
    """``(path, input)`` for every text field, choice and stepper of a form, found through
    its attributes and the per-player dicts (``rests/Ala/value``): the same paths for the
    same variant and players, whatever else the form holds."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return
    seen.add(id(obj))
    for name, value in sorted(vars(obj).items()):
        if name.startswith("_") or name in ("controls", "error", "options", "players"):
            continue
        yield from _input_items(value, f"{path}{name}", seen)


def _input_items(value: Any, path: str, seen: set[int]) -> Iterator[tuple[str, Any]]:
    if isinstance(value, (ft.TextField, ChoiceChips, Stepper)):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _input_items(item, f"{path}/{key}", seen)
    elif type(value).__module__ == entry_forms.__name__ and hasattr(value, "__dict__"):
        yield from _inputs(value, path + "/", seen)


def form_state(form: EntryForm) -> dict[str, Any]:
    """What the form holds, as plain JSON values by path (:func:`restore_state` puts it
    back): text as typed, the key of each choice, each stepper's number."""
    out: dict[str, Any] = {}
    for path, c in _inputs(form):
        if isinstance(c, ft.TextField):
            if c.value:
                out[path] = str(c.value)
        elif c.value is not None:
            out[path] = c.value
    return out


def restore_state(form: EntryForm, state: Mapping[str, Any]) -> None:
    """Put a :func:`form_state` back into a new form of the same game (unknown paths and
    values of the wrong kind are skipped), then show the parts the choices call for."""
    for path, c in _inputs(form):
        if path not in state:
            continue
        v = state[path]
        if isinstance(c, ft.TextField) and isinstance(v, str):
            c.value = v
        elif isinstance(c, ChoiceChips) and isinstance(v, str):
            c.set(v)
        elif isinstance(c, Stepper) and isinstance(v, int) and not isinstance(v, bool):
            c.set(v)  # noqa: SIM114 - one set() takes a key, the other a number
    for obj in _parts(form):
        if isinstance(obj, entry_forms.RestInput):
            obj._show_mode()
            obj.tiles.keyboard.type_text(obj.tiles.field.value or "", notify=False)
        elif isinstance(obj, entry_forms.HandInput):
            obj.pieces.keyboard.type_text(obj.pieces.field.value or "", notify=False)
            obj.analyse()
    if isinstance(form, entry_forms.CarouselForm):
        for p, hand in form.hands.items():
            hand.set_knocker(form.knocker.value == p)
    refresh = getattr(form, "_refresh", None)
    if callable(refresh):
        refresh(notify=False)
    form.refresh_keys()


def _parts(form: EntryForm) -> Iterator[Any]:
    """The form's per-player inputs (RestInput, HandInput …)."""
    for value in vars(form).values():
        if isinstance(value, dict):
            for item in value.values():
                if type(item).__module__ == entry_forms.__name__:
                    yield item


# -- Rummy 101 rising threshold: the openings of the round being played -------------------------
OPENINGS = "openings"
"""Key in :attr:`Game.extra`: ``{"<round index>": [{"by": "melds", "value": 116} |
{"by": "pairs", "pairs": 5}, ...]}``, the openings recorded during each round (RULES.md §3
threshold mode ``rising``), in the judge's ``previous_openings`` shape."""
MAX_OPENINGS = 20
"""Most openings one round holds (one per player and turn is plenty)."""


def round_openings(game: Game, index: int | None = None) -> list[dict[str, Any]]:
    """The openings recorded in round ``index`` (0-based; default: the round being played),
    each ``{"by": "melds", "value": points}`` or ``{"by": "pairs", "pairs": n}``; anything
    malformed is left out."""
    n = len(game.rounds) if index is None else index
    table = game.extra.get(OPENINGS)
    items = table.get(str(n)) if isinstance(table, Mapping) else None
    out: list[dict[str, Any]] = []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, Mapping):
            continue
        by, key = item.get("by"), "pairs" if item.get("by") == "pairs" else "value"
        v = item.get(key)
        if by in ("melds", "pairs") and isinstance(v, int) and not isinstance(v, bool) and v >= 0:
            out.append({"by": by, key: v})
    return out


def record_opening(game: Game, by: str, amount: int) -> Game:
    """A copy of ``game`` with one more opening recorded for the round being played: ``by``
    ``"melds"`` worth ``amount`` points, or ``"pairs"`` with ``amount`` pairs. The next
    opening of that kind must beat it (RULES.md §3 rising threshold).

    Raises:
        ValueError: ``by`` not melds/pairs, a negative amount, or the round holds
            :data:`MAX_OPENINGS` already.
    """
    if by not in ("melds", "pairs") or isinstance(amount, bool) or amount < 0:
        raise ValueError(f"not an opening: {by} {amount}")
    now = round_openings(game)
    if len(now) >= MAX_OPENINGS:
        raise ValueError("too many openings in one round")
    table = game.extra.get(OPENINGS)
    kept = dict(table) if isinstance(table, Mapping) else {}
    kept[str(len(game.rounds))] = [*now, {"by": by, "pairs" if by == "pairs" else "value": amount}]
    return dataclasses.replace(game, extra={**game.extra, OPENINGS: kept})


def openings_text(openings: list[dict[str, Any]]) -> str:
    """ "116 points, 5 pairs" for the openings recorded."""
    parts = [
        ngettext("{n} pair", "{n} pairs", o["pairs"]).format(n=o["pairs"])
        if o["by"] == "pairs"
        else ngettext("{n} point", "{n} points", o["value"]).format(n=o["value"])
        for o in openings
    ]
    return ", ".join(parts)


def draft_key(game_id: str, base: int, tab: str) -> str:
    """The browser storage key of tab ``tab``'s draft of the round after ``base`` saved rounds
    of game ``game_id``: :data:`DRAFT_PREF` ``<game>.<base>.<tab>``."""
    return f"{DRAFT_PREF}{game_id}.{base}.{tab}"


def draft_key_base(key: str, game_id: str) -> int | None:
    """The saved-round count a draft key of game ``game_id`` is for (:func:`draft_key`), or
    None when ``key`` is not one (another game's, or the one-per-game key of version 1)."""
    head = f"{DRAFT_PREF}{game_id}."
    if not key.startswith(head):
        return None
    base, dot, tab = key[len(head) :].partition(".")
    return int(base) if dot and tab and base.isdigit() else None


def _time(v: Any) -> float | None:
    """A stored time (seconds since the epoch), or None when ``v`` is not one."""
    ok = isinstance(v, (int, float)) and not isinstance(v, bool) and v == v and v >= 0
    return float(v) if ok else None


def draft_applies(draft: Any, game: Game) -> bool:
    """Whether a stored draft is still for the round to enter next: made for this game when
    it had as many rounds as now (round N saved since, here or elsewhere: no longer)."""
    return (
        isinstance(draft, Mapping)
        and draft.get("v") in (1, DRAFT_VERSION)
        and draft.get("game") == game.id
        and draft.get("base") == len(game.rounds)
        and isinstance(draft.get("state"), Mapping)
    )


def _stamps(draft: Mapping[str, Any]) -> dict[str, float]:
    """When each field of a draft was last changed; a version 1 draft (no times) counts as
    older than any change."""
    if draft.get("v") == 1:
        return {str(p): 0.0 for p in draft["state"]}
    got = draft.get("stamps")
    out: dict[str, float] = {}
    for p, t in got.items() if isinstance(got, Mapping) else ():
        stamp = _time(t)
        if isinstance(p, str) and stamp is not None:
            out[p] = stamp
    return out


def merge_drafts(drafts: Iterable[Any], game: Game) -> dict[str, Any] | None:
    """The drafts of several tabs (each a draft object or its JSON text) merged into one.

    Each field takes its value from the draft that changed it last (a field emptied counts:
    it has a time and no value); a "Discard" (``cleared``: the time it was pressed) hides
    every change made before it in every draft. Drafts that are not for the round to enter
    next (:func:`draft_applies`), malformed ones and JSON that does not parse are left out.

    Returns:
        ``{"v", "game", "base", "round", "state", "stamps", "cleared"}`` (``state``: the
        values by field path, as :func:`form_state`; ``stamps``: seconds since the epoch by
        path; ``cleared``: the latest discard or None), or None when no draft applies.
    """
    kept: list[Mapping[str, Any]] = []
    for d in drafts:
        if isinstance(d, str):
            if len(d) > MAX_DRAFT_CHARS:
                continue
            try:
                d = json.loads(d)
            except (ValueError, RecursionError):  # nested too deep: a forged draft
                continue
        if draft_applies(d, game):
            kept.append(d)
    if not kept:
        return None
    discards = [t for t in (_time(d.get("cleared")) for d in kept) if t is not None]
    cleared = max(discards) if discards else None
    best: dict[str, tuple[float, Any]] = {}
    missing = object()
    for d in kept:
        state = d["state"]
        for path, stamp in _stamps(d).items():
            if cleared is not None and stamp <= cleared:
                continue
            if path not in best or stamp > best[path][0]:
                best[path] = (stamp, state.get(path, missing))
    return {
        "v": DRAFT_VERSION,
        "game": game.id,
        "base": len(game.rounds),
        "round": len(game.rounds) + 1,
        "state": {p: v for p, (_t, v) in sorted(best.items()) if v is not missing},
        "stamps": {p: t for p, (t, _v) in sorted(best.items())},
        "cleared": cleared,
    }


class RoundEntry:
    """The round entry screen.

    Args:
        index: 0-based round to edit, or None for the next round.

    Attributes (for tests): ``form`` (the variant's :class:`EntryForm`), ``check_button``,
    ``save_button`` (visible once the breakdown is shown), ``result`` (the judge's verdict),
    ``error`` (form-level error box), ``preview`` (breakdown holder).
    """

    def __init__(self, app: App, game: Game, index: int | None = None) -> None:
        self.app = app
        self.game = game
        self.index = index
        self.result: RoundResult | None = None
        self.attempted = False
        self.dirty = False
        """Something was entered (or a draft restored) since the screen opened: leaving with
        ← or "Cancel" asks whether to keep the draft."""
        self.drafts = index is None  # only a new round keeps a draft
        self._draft_out: list[Any] = []  # writes waiting, in order (None: remove the draft)
        self._writing = False
        self._stamps: dict[str, float] = {}  # when this tab changed each field (or restored it)
        self._cleared: float | None = None  # the latest "Discard" of this round's drafts
        self._known: dict[str, Any] = {}  # the form's state as last stamped
        """"Show the scores" was pressed: from then on every edit flags every field again,
        empty ones too; before, only what was typed wrong is flagged (no red on a fresh form)."""
        self._built = False  # the form calls _edited while it is being built
        self._saved = False  # the round is saved: a second tap of "Save" is ignored
        self._saving = threading.Lock()  # held while a tap of "Save" is saving
        n = (index if index is not None else len(game.rounds)) + 1
        self.form: EntryForm = make_form(game.variant, game.options, game.players, self._edited)
        if index is not None:
            self.form.load(game.rounds[index].entry)
        prefilled = index is None and isinstance(self.form, TilesForm) and game.pending_penalties
        if prefilled:  # recorded with the turn timer (app/ui/table/timer.py); cleared by add_round
            assert isinstance(self.form, TilesForm)
            self.form.set_penalties(games.pending_penalties(game))
        dealer = game.players[games.dealer_for_round(game, n - 1)]
        about = games.about_game(game)
        role = _("dealt") if about.deals else _("started")
        self.error = error_box()
        self.preview = ft.Column([], spacing=8)
        self.check_button = primary_button(_("Show the scores"), self._check, ft.Icons.CALCULATE)
        self.save_button = primary_button(
            _("Save round {n}").format(n=n) if index is None else _("Save the changes"),
            self.save,
            ft.Icons.SAVE,
        )
        self.save_button.visible = False
        # "Show the scores", and the checked round with its "Save round": an edit folds the
        # one and unfolds the other (widgets.fold) instead of hiding and showing them, which
        # would take the focus from the field being typed in
        self.check_area = ft.Container(self.check_button, clip_behavior=ft.ClipBehavior.HARD_EDGE)
        self.result_area = ft.Container(
            ft.Column(
                [self.save_button, self.preview],
                spacing=10,
                key=ft.ScrollKey(BREAKDOWN_KEY),  # type: ignore[call-arg]
                horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
            ),
            clip_behavior=ft.ClipBehavior.HARD_EDGE,
        )
        self.draft_note = muted(_("Your draft of this round is back."), size=14)
        self.draft_note.visible = False
        self._built = True
        self._known = form_state(self.form)
        solo = about.is_solo(game.options)
        controls: list[ft.Control] = [
            muted(
                _("{name} against the joker.").format(name=game.players[0])
                if solo
                else _("{name} {role} this round.").format(name=dealer, role=role),
                size=15,
            ),
            *(
                [muted(_("The penalty draws recorded with the turn timer are filled in."))]
                if prefilled
                else []
            ),
            self.draft_note,
            *self._openings_line(),
            *self.form.controls,
            self.error,
            self.check_area,
            self.result_area,
            secondary_button(_("Cancel"), self._cancel, ft.Icons.CLOSE),
        ]
        title = (_("Round {n}") if index is None else _("Edit round {n}")).format(n=n)
        route = f"/game/{game.id}/round" + ("" if index is None else f"/{n}/edit")
        key_parts(self.form.controls)
        self.view = frame(app, route, title, controls, back=f"/game/{game.id}")
        self.body: ft.Column | None = None
        """With piece keys: the scrolling part of the screen, above the keys."""
        self._pin_keys()
        self._ask_before_leaving()
        if self.drafts:
            app.run(self.load_draft)

    def _pin_keys(self) -> None:
        """A form with pieces to tap gets its one set of keys (:attr:`EntryForm.pad`) at the
        bottom of the screen, outside the part that scrolls: nothing the form shows or hides
        above them (a hand filling up, another hand chosen, a refusal) moves a key."""
        pad = self.form.pad
        if pad is None:
            return
        self.form.refresh_keys()  # a round loaded for editing: the keys show its pieces
        self.body = ft.Column(
            [
                *(c for c in self.view.controls if isinstance(c, ft.Control)),
                ft.Container(height=16),
            ],
            scroll=ft.ScrollMode.AUTO,
            expand=True,
        )
        self.view.scroll = None
        self.view.spacing = 0
        self.view.padding = ft.Padding.only(left=12, top=10, right=16, bottom=4)
        self.view.controls = [self.body, centered([pad.control])]

    def _show_breakdown(self) -> None:
        """Scroll the breakdown into view (the keys go: the screen is the breakdown's)."""
        keys = getattr(self.form, "keys", None)
        if isinstance(keys, entry_forms.KeyGroup):
            keys.open(None)
        self._scroll_body_to(BREAKDOWN_KEY)

    def marked_key(self) -> str | None:
        """The scroll key of the first part of the form showing a marked field (None: none)."""
        return first_marked(self.form.controls, skip=(self.form.error,))

    def _show_marked(self) -> None:
        """After a refused "Show the scores": scroll the first marked field into view (the
        message stays by the button; the player sees what is wrong and where)."""
        key = self.marked_key()
        if key is not None:
            self._scroll_body_to(key)

    def _scroll_body_to(self, key: str) -> None:
        """Scroll the control with scroll key ``key`` into view: in the form's own scrolling
        body when the keys are pinned below it, else on the page."""
        body = self.body
        if body is None:
            self.app.scroll_to(key)
            return

        async def scroll() -> None:
            self.app.page_update()
            try:
                await asyncio.sleep(0.15)  # let the client lay the new state out first
                await body.scroll_to(scroll_key=ft.ScrollKey(key), duration=250)  # type: ignore[call-arg]
            except Exception:  # noqa: BLE001 - scrolling is a nicety
                log.debug("scroll failed", exc_info=True)

        self.app.run(scroll)

    def _openings_line(self) -> list[ft.Control]:
        """Rummy 101 with the rising threshold: the openings recorded in the checker during
        this round (RULES.md §3)."""
        rising = self.game.options.get("threshold_mode") == "rising"
        if not (games.about_game(self.game).rules.has_option("threshold_mode") and rising):
            return []
        n = self.index if self.index is not None else len(self.game.rounds)
        got = round_openings(self.game, n)
        if not got:
            return []
        return [muted(_("Openings recorded this round: {list}.").format(list=openings_text(got)))]

    # -- drafts -------------------------------------------------------------------------------
    @property
    def draft_key(self) -> str:
        """This tab's draft key in the browser's storage (:func:`draft_key`)."""
        return draft_key(self.game.id, len(self.game.rounds), self.app.tab)

    def draft(self) -> dict[str, Any]:
        """This tab's draft of what the form holds now: every value (``state``), when this
        tab changed each field it changed (``stamps``), the latest "Discard" seen
        (``cleared``)."""
        return {
            "v": DRAFT_VERSION,
            "game": self.game.id,
            "base": len(self.game.rounds),
            "round": len(self.game.rounds) + 1,
            "state": form_state(self.form),
            "stamps": dict(self._stamps),
            "cleared": self._cleared,
        }

    def _stamp(self) -> None:
        """Note the time of every field changed since the last look."""
        now = form_state(self.form)
        t = time.time()
        for path in now.keys() | self._known.keys():
            if now.get(path) != self._known.get(path):
                self._stamps[path] = t
        self._known = now

    def restore(self, draft: Any) -> bool:
        """Fill the form from stored drafts (one draft, its JSON text, or a list of those:
        merged, :func:`merge_drafts`) if they still apply and nothing was entered
        meanwhile; True when something was restored."""
        merged = merge_drafts(draft if isinstance(draft, list) else [draft], self.game)
        if self.dirty or merged is None:
            return False
        self._cleared = merged["cleared"]  # carried on, so a "Discard" elsewhere stays in force
        if not merged["stamps"]:
            return False
        restore_state(self.form, merged["state"])
        self._stamps = dict(merged["stamps"])
        self._known = form_state(self.form)
        self.dirty = True
        self.draft_note.visible = True
        self.flag_fields()
        return True

    async def load_draft(self) -> None:
        """Read the drafts of this round that this browser holds (one per tab), merge and
        restore them; remove the ones for a round saved since."""
        prefs = ft.SharedPreferences()
        legacy = DRAFT_PREF + self.game.id  # version 1: one draft per game
        base = len(self.game.rounds)
        try:
            keys = await ask_client(prefs.get_keys(legacy))
            keys = [k for k in keys if isinstance(k, str)] if isinstance(keys, list) else []
            found: list[Any] = []
            stale: list[str] = []
            for key in sorted(keys):
                at = draft_key_base(key, self.game.id)
                if key == legacy or at == base:
                    if len(found) < MAX_DRAFTS:
                        found.append((key, await ask_client(prefs.get(key))))
                elif at is not None:
                    stale.append(key)
        except Exception:  # noqa: BLE001 - storage refused, tab closed: start empty
            log.debug("cannot read the round drafts", exc_info=True)
            return
        stale += [k for k, got in found if k == legacy and merge_drafts([got], self.game) is None]
        if self.restore([got for _k, got in found]):
            self.app.page_update()
        for key in stale:  # for a round saved since: no longer needed
            try:
                await ask_client(prefs.remove(key))
            except Exception:  # noqa: BLE001 - left for the next look
                log.debug("cannot remove an old round draft", exc_info=True)

    def _write_draft(self, draft: dict[str, Any] | None) -> None:
        """Keep ``draft`` as this tab's draft in the browser (None: remove it), writes in
        order, latest wins."""
        if not self.drafts:
            return
        self._draft_out.append(draft)
        if not self._writing and self.app.page is not None:
            self._writing = True
            self.app.run(self._flush_drafts)

    async def _flush_drafts(self) -> None:
        prefs = ft.SharedPreferences()
        try:
            while self._draft_out:
                draft = self._draft_out[-1]
                self._draft_out.clear()
                try:
                    if draft is None:
                        await ask_client(prefs.remove(self.draft_key))
                    else:
                        await ask_client(
                            prefs.set(self.draft_key, json.dumps(draft, ensure_ascii=False))
                        )
                except Exception:  # noqa: BLE001 - storage full or refused: the screen goes on
                    log.debug("cannot keep the round draft", exc_info=True)
        finally:
            self._writing = False

    def discard(self) -> dict[str, Any]:
        """This tab's draft after "Discard": nothing kept, and every field changed before now
        (in any tab's draft) hidden from the merge."""
        self._cleared = time.time()
        self._stamps = {}
        return {**self.draft(), "state": {}}

    def _ask_before_leaving(self) -> None:
        """The app bar's ← asks about the draft too (the browser's Back keeps it)."""
        bar = self.view.appbar
        leading = getattr(bar, "leading", None)
        button = getattr(leading, "content", None)
        if isinstance(button, ft.IconButton):
            button.on_click = self._cancel

    def leave(self, keep: bool) -> None:
        """Back to the score sheet, keeping the draft or dropping it."""
        self.app.close_dialog()
        if not keep:
            self._write_draft(self.discard())
        self.app.go(f"/game/{self.game.id}")

    def _edited(self) -> None:
        """Any change: the breakdown shown no longer matches; the fields' flags are brought
        up to date at once, all of them (:meth:`flag_fields`)."""
        if not self._built:
            return
        # a complaint was about the entry as it was checked: "Show the scores" checks again
        if self.error.visible:
            fold_error(self.error)
        self.form.error.visible = False
        self.flag_fields()
        self.dirty = True
        self._stamp()
        self._write_draft(self.draft())
        if self.result is not None:  # the breakdown no longer holds: folded, not removed
            self.result = None
            fold(self.result_area, False)
            fold(self.check_area, True)

    def flag_fields(self) -> bool:
        """Read the form as it stands and flag every bad field together, without asking the
        judge. Before the first "Show the scores" only typed mistakes are flagged ("12a",
        "R14"); after it, what is still missing too. True when the form reads completely."""
        try:
            if self.attempted:
                self.form.entry()
            else:
                with typed_only():
                    self.form.entry()
        except FormError:
            return False
        finally:
            self.form.error.visible = False  # the form-level line only after a press
        return True

    def _check(self, _e: Any = None) -> None:
        self.check()

    def check(self, _e: Any = None) -> bool:
        """Read the form and ask the judge; show the breakdown or the complaint."""
        self.attempted = True
        show_error(self.error, None)
        self.result = None
        self.preview.controls = []
        self.save_button.visible = False
        try:
            entry = self.form.entry()
        except FormError as e:
            show_error(self.error, str(e))
            self._show_marked()
            return False
        result = games.score_round(self.game, entry)
        if not result.valid:
            message = round_problem(result, self.game.variant)
            self.form.flag_judge(message, result.breakdown)
            show_error(self.error, message)
            self._show_marked()
            return False
        self.result = result
        # the rule line is a link to the rule book when leaving keeps a draft (a new round);
        # an edit of a saved round keeps none, so there it stays text
        app = self.app if self.drafts else None
        self.preview.controls = [
            breakdown_panel(
                result.breakdown, self.game.players, self.game, None, app, self.open_rule
            )
        ]
        self.save_button.visible = True
        fold(self.result_area, True)
        fold(self.check_area, False)
        self._show_breakdown()
        return True

    def open_rule(self, route: str) -> None:
        """Open the rule book at ``route`` from the breakdown, keeping what was entered as the
        draft (restored on coming back: the book's ← returns here)."""
        self._write_draft(self.draft())
        self.app.go(f"{route}?from={FROM_ENTRY}")

    def save(self, _e: Any = None) -> None:
        """Save the checked round (checking again if needed) and go back to the sheet.

        A second tap of the same button (a double tap, or a tap while the first is still
        saving) does nothing: it is this screen's own save, not another phone's round, so it
        neither adds the round twice nor asks about "the same round saved a moment ago"."""
        if self._saved or not self._saving.acquire(blocking=False):
            return
        try:
            self._save()
        finally:
            self._saving.release()

    def _save(self) -> None:
        if self.result is None and not self.check():
            return
        assert self.result is not None
        try:
            if self.index is None:
                new = games.add_round(self.game, self.result.entry, self.result)
            else:
                new = games.replace_round(self.game, self.index, self.result.entry, self.result)
        except games.RoundError as e:
            show_error(self.error, describe(e, self.game.variant))
            return
        except games.GameError as e:
            show_error(self.error, describe(e, self.game.variant))
            return
        refused: list[str] = []
        stored = save_game(self.app, new, self.game.version, on_error=refused.append)
        if stored is None:
            if refused:  # disk full, read-only, no right: stay, keep what was typed, say why
                show_error(self.error, refused[-1])
                return
            self._saved = True  # a real clash: its dialog decides; this screen is done
            self.app.go(f"/game/{self.game.id}")
            return
        self._saved = True
        # the browser's Back from the sheet would come back here: to the sheet, not to an
        # empty form for the next round (Flet can only push the sheet's address)
        self.app.done_with(self.app.route)
        step = games.last_change(stored)  # saved on top of another phone's round: n moved
        n = step.index + 1 if step is not None else len(stored.rounds)
        self._write_draft(None)  # round saved: its draft is done with
        pad = [self.form.pad.control] if self.form.pad is not None else []
        for control in [*self.form.controls, *pad]:  # done with too: the page updates until
            object.__setattr__(control, "_isolated", True)  # the sheet shows skip the form
        note = sharing.rebase_note(self.app, self.game, stored)
        self.app.notify(_("Round {n} saved").format(n=n) + note)
        self.app.go(f"/game/{self.game.id}")

    def _cancel(self, _e: Any = None) -> None:
        if not (self.drafts and self.dirty):
            self.app.go(f"/game/{self.game.id}")
            return
        n = len(self.game.rounds) + 1
        self.app.open_dialog(
            ft.AlertDialog(
                modal=False,  # a tap beside it: stay and go on entering
                title=ft.Text(_("Leave round {n}?").format(n=n)),
                content=ft.Text(
                    _("What you entered can stay on this phone until round {n} is saved.").format(
                        n=n
                    )
                ),
                actions=[
                    ft.TextButton(_("Discard"), on_click=lambda _e=None: self.leave(False)),
                    ft.FilledButton(
                        _("Keep this draft"), on_click=lambda _e=None: self.leave(True)
                    ),
                ],
            )
        )


def entry_summary(entry: Mapping[str, Any], material: str | None = None) -> list[str]:
    """What was entered, one line per player (for the round screen); hands as sentences name
    their pieces (:func:`app.ui.entry.breakdown.pieces_text`), an empty one as the
    ``material`` (``"tiles"``/``"cards"``) has it."""
    lines = []
    if entry.get("finish"):
        lines.append(
            _("Finish: {kind}").format(kind=_(FINISH_NAMES.get(entry["finish"], entry["finish"])))
        )
    if "knocker" in entry:
        lines.append(_("Knocked: {name}").format(name=entry["knocker"] or _("nobody")))
    if entry.get("turned") is not None:  # gin solo mode
        lines.append(_("Cards turned: {n}").format(n=entry["turned"]))
    for p in entry.get("players", []):
        if not isinstance(p, Mapping):
            continue
        bits = []
        if p.get("winner"):
            bits.append(_("finished"))
        if p.get("opened"):
            bits.append(_(str(OPENED_NAMES.get(p["opened"], p["opened"]))).lower())
        if isinstance(p.get("hand"), list):
            empty = _("empty rack") if material == "tiles" else _("no cards")
            bits.append(pieces_text(p["hand"]) or empty)
        if p.get("hand_value") is not None:
            value = p["hand_value"]
            count = abs(int(value)) if isinstance(value, int) else 0
            bits.append(ngettext("{n} point", "{n} points", count).format(n=value))
            if p.get("jokers"):
                bits.append(ngettext("{n} joker", "{n} jokers", p["jokers"]).format(n=p["jokers"]))
        if p.get("deadwood") is not None and not isinstance(p.get("hand"), list):
            bits.append(_("deadwood {n}").format(n=p["deadwood"]))
        lines.append(f"{p.get('name')}: {', '.join(bits)}")
    pens = entry.get("penalties")
    if isinstance(pens, list) and pens:
        counts: dict[str, int] = {}
        for d in pens:
            if isinstance(d, Mapping):
                counts[str(d.get("name"))] = counts.get(str(d.get("name")), 0) + 1
        lines.append(
            _("Penalty draws: {list}").format(
                list=", ".join(f"{k} ×{v}" for k, v in counts.items())
            )
        )
    return lines


class RoundDetail:
    """A saved round: what was entered, the breakdown, Edit and Delete."""

    def __init__(self, app: App, game: Game, index: int) -> None:
        self.app = app
        self.game = game
        self.index = index
        r = game.rounds[index]
        n = index + 1
        dealer = game.players[games.dealer_for_round(game, index)]
        summary = entry_summary(r.entry, games.about_game(game).rules.material)
        controls: list[ft.Control] = [
            muted(
                (
                    _("{name} dealt. Entered {time}.")
                    if games.about_game(game).deals
                    else _("{name} started. Entered {time}.")
                ).format(name=dealer, time=when(r.time)),
                size=14,
            ),
            card(ft.Column([ft.Text(line, size=15) for line in summary], spacing=4)),
            breakdown_panel(r.result, game.players, game, r.entry, app),
        ]
        if r.edited:
            controls.append(
                ft.Text(
                    _("Edited {time}").format(time=when(r.edited)),
                    size=13,
                    color=MUTED,
                )
            )
        self.edit_button = primary_button(
            _("Edit round {n}").format(n=n), self._edit, ft.Icons.EDIT
        )
        self.delete_button = secondary_button(
            _("Delete round {n}").format(n=n), self._delete, ft.Icons.DELETE_OUTLINE
        )
        # phones without the join code only watch

        if sharing.can_edit(app, game.id):
            controls += [self.edit_button, self.delete_button]
        self.view = frame(
            app,
            f"/game/{game.id}/round/{n}",
            _("Round {n}").format(n=n),
            controls,
            back=f"/game/{game.id}",
        )

    def _edit(self, _e: Any = None) -> None:
        self.app.go(f"/game/{self.game.id}/round/{self.index + 1}/edit")

    def _delete(self, _e: Any = None) -> None:
        self.app.confirm(
            _("Delete round {n}?").format(n=self.index + 1),
            _("The totals are counted again without it. “Undo” on the score sheet brings it back."),
            _("Delete"),
            self.delete_now,
        )

    def delete_now(self) -> None:
        """Delete the round and go back to the sheet."""
        try:
            new = games.delete_round(self.game, self.index)
        except games.GameError as e:
            self.app.notify(describe(e, self.game.variant), error=True)
            return
        if save_game(self.app, new, self.game.version) is not None:
            self.app.notify(_("Round {n} deleted").format(n=self.index + 1))
        self.app.go(f"/game/{self.game.id}")
