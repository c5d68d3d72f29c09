"""Round entry in each variant's own terms. Each form turns what people tap and type into the
round request of JUDGE.md (``entry``), and puts every complaint on the field it is about.

- Rummy 101: finish type, winner, each other player's opening (none / melds / pairs) and rest
  as points + jokers or as tiles.
- Tile Rummy / My Rummy: who emptied the rack (or the pool ran out), racks as points + jokers
  or as tiles, penalty draws.
- Gin: who knocked (or a void hand), both hands as cards — melds and deadwood shown as you
  type — or deadwood typed in (with gin / big gin for the knocker).
- Carousel: who knocked (or the stock ran out), every hand as cards (empty: went out).

No form computes a score: the screen sends ``entry()`` to :func:`app.games.score_round`.
Notation is read with :func:`rules.notation.parse_pieces` only to flag a mistyped piece at
its field before asking the judge.
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final

import flet as ft

from app import i18n, verdict_render
from app.games import VariantInfo, about
from app.i18n import _, ngettext
from app.ui.camera.photo import PhotoButton, flat
from app.ui.common import labels
from app.ui.common.keyboard import KeyPad, PieceKeyboard
from app.ui.common.widgets import ERROR_COLOUR, MUTED, ChoiceChips, Stepper, player_colour, readable
from app.ui.entry.breakdown import melds_text, pieces_text
from rules import judge
from rules.errors import RulesError
from rules.notation import parse_pieces
from rules.options import options_for
from rules.variant import meld_rules, piece_set

Changed = Callable[[], None]


ERROR_LINES: Final = 12
"""Lines a field's complaint may take: it wraps (a copies error in Polish is five lines at
360 px), never cut short with "…"."""


class FormError(ValueError):
    """The form has problems; each is already flagged at its field.

    Attributes:
        missing: the problem is only something not filled in yet (an empty field, a choice
            not made), not something filled in wrong.
    """

    def __init__(self, message: str = "", missing: bool = False) -> None:
        super().__init__(message)
        self.missing = missing


def marked_fields(wrong: bool) -> str:
    """What the form says under its flagged fields: "complete" when they are only empty (or
    a choice is not made), "correct" when something filled in is wrong."""
    if wrong:
        return _("Please correct the marked fields.")
    return _("Please complete the marked fields.")


_TYPED_ONLY: contextvars.ContextVar[bool] = contextvars.ContextVar("typed_only", default=False)
"""While set (:func:`typed_only`), reading a form flags only what was typed wrong: a field or
a choice not filled in yet still makes the form incomplete (FormError) but shows no error."""


@contextlib.contextmanager
def typed_only() -> Iterator[None]:
    """Read a form without flagging what is merely not filled in yet (the check made as the
    user types, before the first "Show the scores": no red on an untouched field)."""
    token = _TYPED_ONLY.set(True)
    try:
        yield
    finally:
        _TYPED_ONLY.reset(token)


def _missing(field: ft.TextField, message: str) -> FormError:
    """An empty field: flagged with ``message`` unless only typed mistakes are shown."""
    field.error = None if _TYPED_ONLY.get() else message
    return FormError(message, missing=True)


def _int_field(field: ft.TextField, lo: int = 0, hi: int = 10_000) -> int:
    """A whole number from a text field, or FormError after flagging the field."""
    raw = (field.value or "").strip()
    if not raw:
        raise _missing(field, _("Enter a number"))
    try:
        value = int(raw.replace("\u2212", "-"))
    except ValueError:
        field.error = _("“{text}” is not a whole number").format(text=raw)
        raise FormError(field.error) from None
    if not lo <= value <= hi:
        field.error = _("Enter a number from {lo} to {hi}").format(lo=lo, hi=hi)
        raise FormError(field.error)
    field.error = None
    return value


def field_label(shown: str, named: str) -> ft.Text:
    """A narrow number field's label: ``shown`` ("Points left"), short enough never to be cut at
    a phone's 360 px in English, Polish and Slovak, without the player's name, which heads the
    player's card already (with it, "Zosia: zostávajúce body" was cut to "Zosia: zostávajú…");
    ``named``, with the name, is what a screen reader (and a browser test) calls the field."""
    return ft.Text(shown, semantics_label=named)


def _headed(stepper: Stepper, shown: str) -> Stepper:
    """Show ``shown`` beside a player's stepper: its label without the player's name (the name
    heads the player's card already; a long one repeated wrapped over four lines), on one line.
    The buttons keep the label with the name for a screen reader."""
    text = stepper.control.controls[0]
    assert isinstance(text, ft.Text)
    text.value = shown
    text.max_lines = 1
    text.overflow = ft.TextOverflow.ELLIPSIS
    return stepper


class KeyGroup:
    """The piece inputs of one form (:class:`PiecesInput`) and the one set of keys they share
    (:attr:`pad`, a :class:`app.ui.common.keyboard.KeyPad` the screen keeps in one place
    below its scrolling part): one input is chosen at a time (its keys "open"), each counts
    the pieces of the others in use against the set's copies (a card in Ala's hand is marked
    taken on Bob's keys), and a hand that is full (:attr:`PiecesInput.full_at`, by key taps)
    hands the keys to the next empty one. Choosing another input, a full hand or a refused
    tap changes what the keys edit, never where they are.

    Args:
        variant: the variant (the pad's keys); None: no pad, each input has its own keys
            under it.
        players: player count (Carousel decks).
    """

    def __init__(self, variant: str | None = None, players: int | None = None) -> None:
        self.inputs: list[PiecesInput] = []
        self.pad: KeyPad | None = (
            KeyPad(variant, players, on_hide=lambda: self.open(None))
            if variant is not None
            else None
        )

    def add(self, item: PiecesInput) -> None:
        """Take ``item`` in (its keys start closed unless it is the first of the group)."""
        self.inputs.append(item)
        item.show_keys(len(self.inputs) == 1 and item.open_first)
        self.refresh()

    def refresh(self) -> None:
        """Bring the pad in line with the chosen input: its owner, pieces and line; hidden
        while no input in use is chosen."""
        if self.pad is None:
            return
        cur = self.current()
        if cur is None:
            self.pad.bind(None)
            return
        line, colour = cur.describe() if cur.describe is not None else ("", None)
        seat = self.inputs.index(cur)
        self.pad.bind(cur.keyboard, cur.title, line, colour, player_colour(seat))

    def others(self, me: PiecesInput) -> list[str]:
        """The pieces of every other input in use."""
        return [c for i in self.inputs if i is not me and i.in_use() for c in i.keyboard.pieces]

    def current(self) -> PiecesInput | None:
        """The input in use whose keys are open (None: none)."""
        for i in self.inputs:
            if i.in_use() and i.keyboard.keys_box.visible:
                return i
        return None

    def open(self, item: PiecesInput | None) -> None:
        """Open ``item``'s keys (None: none) and close the others'."""
        for i in self.inputs:
            if i is not item:
                i.show_keys(False)
        if item is not None:
            item.show_keys(True)
        self.refresh()

    def advance(self, me: PiecesInput) -> None:
        """``me`` is full: open the next input in use that holds no pieces yet (after ``me``,
        then from the start), else close the keys."""
        k = self.inputs.index(me)
        for i in [*self.inputs[k + 1 :], *self.inputs[:k]]:
            if i.in_use() and not i.keyboard.pieces and not (i.field.value or "").strip():
                self.open(i)
                return
        self.open(None)


class PiecesInput:
    """Pieces in RULES.md §1 notation, tapped on a one-key-per-piece keyboard
    (:class:`app.ui.common.keyboard.PieceKeyboard` in grid mode) or typed into its text field;
    checked
    as typed only when asked.

    Attributes:
        field: the text field (what the form reads and a draft keeps).
        keyboard: the keys and the drawn pieces.
        control: what the form shows.
        full_at: after a key tap that brings the pieces to this many, the group's next empty
            input gets the keys (None: never).
        in_use: whether the pieces count now (a rack entered as points does not).
        on_keys: called with True/False after the keys are shown or hidden (the owner keeps
            what lies above the keys one height while they are open).
        title: whose pieces these are (the player's name), shown over the group's pad.
        describe: what the pad's line says about the pieces, ``(text, colour or None)``
            (None: nothing).
    """

    def __init__(
        self,
        variant: str,
        players: int,
        label: str,
        hint: str,
        on_change: Changed,
        group: KeyGroup | None = None,
        open_first: bool = False,
        title: str = "",
    ) -> None:
        self.variant = variant
        self.title = title
        self.describe: Callable[[], tuple[str, str | None]] | None = None
        self.rules = meld_rules(variant)
        self.set = piece_set(variant, players)
        self.on_change = on_change
        self.group = group
        self.open_first = open_first
        self.full_at: int | None = None
        self.in_use: Callable[[], bool] = lambda: True
        self.on_keys: Callable[[bool], None] | None = None
        self.keyboard = PieceKeyboard(
            variant,
            label,
            on_change=self._keyed,
            players=players,
            others=(lambda: group.others(self)) if group is not None else None,
            on_focus=self._focused,
            grid=True,
            keys_at="elsewhere" if group is not None and group.pad is not None else "own",
        )
        self.field = self.keyboard.field
        self.field.error_max_lines = ERROR_LINES
        self.field.hint_text = hint
        if group is not None and group.pad is not None:
            self.field.on_focus = self._typing
        self.control = self.keyboard.control
        if group is not None:
            group.add(self)
        else:
            self.show_keys(True)

    def show_keys(self, visible: bool) -> None:
        """Show or hide this input's keys (the drawn pieces and the text field stay)."""
        self.keyboard.show_keys(visible)
        if self.on_keys is not None:
            self.on_keys(visible)

    def _focused(self, _kb: PieceKeyboard) -> None:
        if self.group is not None:
            self.group.open(self)

    def _typing(self, _e: Any = None) -> None:
        """The text field took the focus: the person types (the phone's own keyboard comes
        up), so the group's keys go, leaving the screen to the form; a tap on the drawn
        pieces brings them back."""
        if self.group is not None:
            self.group.open(None)

    def _keyed(self) -> None:
        tapped = self.keyboard.tapped
        self.on_change()
        if (
            tapped
            and self.group is not None
            and self.full_at is not None
            and len(self.keyboard.pieces) == self.full_at
        ):
            self.group.advance(self)

    def open(self) -> None:
        """Show this input's keys (closing the group's others)."""
        if self.group is not None:
            self.group.open(self)
        else:
            self.show_keys(True)

    def tokens(self) -> list[str]:
        """The pieces as typed, one token each."""
        return [t for t in re.split(r"[\s,;]+", (self.field.value or "").strip()) if t]

    def read(self, allow_empty: bool = False) -> list[str]:
        """The pieces in canonical notation; FormError (flagged) on a bad token or copies."""
        toks = self.tokens()
        if not toks and not allow_empty:
            self.keyboard.mirror([])
            raise _missing(
                self.field,
                (
                    i18n.pgettext("tiles", "Enter the pieces, e.g. {example}")
                    if self.rules.material == "tiles"
                    else i18n.pgettext("cards", "Enter the pieces, e.g. {example}")
                ).format(example="R5 B7 JK" if self.rules.material == "tiles" else "7H 8H 9H KS"),
            )
        try:
            pieces = parse_pieces(
                toks,
                self.rules.material,
                self.set,
                jokers_allowed=self.rules.jokers,
                variant_name=labels.variant_name(self.variant),
                where=_("in this hand"),
            )
        except RulesError as e:
            with verdict_render.material_of_request({"variant": self.variant}):
                self.field.error = verdict_render.error_text(e)
            raise FormError(self.field.error) from None
        self.field.error = None
        out = [str(p) for p in pieces]
        if out != self.keyboard.pieces:  # typed, set by a draft or a test: draw it
            self.keyboard.mirror(out)
            if self.group is not None:
                self.group.refresh()
        return out

    def set_pieces(self, pieces: Sequence[str]) -> None:
        """Show ``pieces``."""
        self.keyboard.set_pieces(pieces)
        self.field.error = None


class RestInput:
    """What a player has left: points + jokers (quick) or the tiles themselves."""

    def __init__(
        self,
        variant: str,
        players: int,
        name: str,
        on_change: Changed,
        group: KeyGroup | None = None,
    ) -> None:
        self.name = name
        self.on_change = on_change
        self.mode = ChoiceChips(
            [("value", _("Points")), ("tiles", _("Tiles"))],
            "value",
            on_change=self._mode_changed,
        )
        self.value = ft.TextField(
            error_max_lines=ERROR_LINES,
            label=field_label(_("Points left"), _("{name}: points left").format(name=name)),
            keyboard_type=ft.KeyboardType.NUMBER,
            on_change=lambda _e=None: on_change(),
            dense=True,
            width=170,
            text_size=20,
        )
        self.jokers = _headed(
            Stepper(
                _("{name}: jokers left").format(name=name),
                0,
                0,
                2,
                on_change=lambda _n: on_change(),
            ),
            _("Jokers left"),
        )
        self.tiles = PiecesInput(
            variant,
            players,
            _("{name}: tiles left").format(name=name),
            "R5 B7 JK",
            on_change,
            group=group,
            title=name,
        )
        self.tiles.field.label = field_label(  # the name heads the card: never cut
            _("Tiles left"), _("{name}: tiles left").format(name=name)
        )
        self.tiles.in_use = lambda: self.mode.value == "tiles"
        self.value_box = ft.Column([self.value, self.jokers.control], spacing=2)
        self.control = ft.Column([self.mode.control, self.value_box, self.tiles.control], spacing=4)
        self.photo: PhotoButton | None = None
        if self.tiles.rules.material == "tiles":  # "From a photo" (app/ui/camera/photo.py)
            self.photo = PhotoButton(variant, self._from_photo, players, name)
            self.control.controls.append(self.photo.control)
        self._show_mode()

    def _from_photo(self, rows: list[list[str]]) -> None:
        self.mode.set("tiles")
        self.tiles.set_pieces(flat(rows))
        self._show_mode()
        self.on_change()

    def _show_mode(self) -> None:
        tiles = self.mode.value == "tiles"
        self.value_box.visible = not tiles
        self.tiles.field.visible = tiles
        self.tiles.control.visible = tiles

    def _mode_changed(self, _key: str | None) -> None:
        self._show_mode()
        if self.mode.value == "tiles":  # the keys open at once: the next tap is a tile
            self.tiles.open()
        else:
            self.tiles.show_keys(False)
        self.on_change()

    def read(self) -> dict[str, Any]:
        """``{"hand": [...]}`` or ``{"hand_value": n, "jokers": j}``; FormError when bad."""
        if self.mode.value == "tiles":
            return {"hand": self.tiles.read()}
        return {"hand_value": _int_field(self.value, 0, 2000), "jokers": self.jokers.value}

    def load(self, p: Mapping[str, Any]) -> None:
        """Show a stored player entry."""
        if isinstance(p.get("hand"), list):
            self.mode.set("tiles")
            self.tiles.set_pieces([str(x) for x in p["hand"]])
        elif p.get("hand_value") is not None:
            self.mode.set("value")
            self.value.value = str(p.get("hand_value"))
            self.jokers.set(int(p.get("jokers") or 0))
        self._show_mode()

    def flag(self, message: str) -> None:
        """Show a complaint at the visible field."""
        if self.mode.value == "tiles":
            self.tiles.field.error = message
        else:
            self.value.error = message

    def clear(self) -> None:
        """Remove complaints."""
        self.tiles.field.error = None
        self.value.error = None


def player_block(i: int, name: str, body: list[ft.Control]) -> ft.Container:
    """A panel for one player, with the seat's colour."""
    return ft.Container(
        content=ft.Column(
            [
                ft.Row(
                    [
                        ft.Container(
                            width=10, height=22, bgcolor=player_colour(i), border_radius=3
                        ),
                        # a long name wraps (at most two lines) instead of running off
                        ft.Text(
                            name,
                            size=18,
                            weight=ft.FontWeight.BOLD,
                            expand=True,
                            max_lines=2,
                            overflow=ft.TextOverflow.ELLIPSIS,
                        ),
                    ]
                ),
                *body,
            ],
            spacing=6,
        ),
        padding=10,
        border_radius=10,
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
    )


class EntryForm:
    """Base of the variant forms.

    Attributes:
        players: names in seat order.
        controls: what the screen shows.
        on_change: called after any edit (the screen then hides an out-of-date breakdown).
    """

    def __init__(
        self, variant: str, options: Mapping[str, Any], players: Sequence[str], on_change: Changed
    ) -> None:
        self.variant = variant
        self.about = about(variant)
        """What the form asks of its variant (hand sizes, the deadwood a player may type)."""
        self.options = dict(options)
        self.players = list(players)
        self.on_change = on_change
        self.controls: list[ft.Control] = []
        self.error = ft.Text("", color=ERROR_COLOUR, visible=False, size=14)

    def changed(self) -> None:
        """Something was edited (the keys' pad then shows the chosen input as it is now)."""
        self.on_change()
        self.refresh_keys()

    @property
    def pad(self) -> KeyPad | None:
        """The form's one set of piece keys (None: the form has no pieces to tap)."""
        keys = getattr(self, "keys", None)
        return keys.pad if isinstance(keys, KeyGroup) else None

    def refresh_keys(self) -> None:
        """Bring the pad in line with the chosen input."""
        keys = getattr(self, "keys", None)
        if isinstance(keys, KeyGroup):
            keys.refresh()

    def entry(self) -> dict[str, Any]:
        """The round request fields; raises FormError after flagging the fields."""
        raise NotImplementedError

    def load(self, entry: Mapping[str, Any]) -> None:
        """Fill the form from a stored entry (editing a round)."""
        raise NotImplementedError

    def clear_errors(self) -> None:
        """Remove every complaint."""
        self.error.visible = False

    def flag_player(self, name: str, message: str) -> bool:
        """Put a judge's complaint on ``name``'s field; False when there is no such field."""
        return False

    def flag_judge(self, message: str, answer: Mapping[str, Any]) -> bool:
        """Put the judge's complaint on the field it names (``player`` in the answer,
        ``holders``: each player holding a piece there are too many copies of across the
        hands, ``players[i]`` or a name in the message). True when a field took it."""
        message = readable(message)
        name = answer.get("player")
        if isinstance(name, str) and name in self.players and self.flag_player(name, message):
            return True
        holders = answer.get("holders")  # too many copies across the hands: everyone holding it
        if isinstance(holders, list):
            took = [h for h in holders if h in self.players and self.flag_player(h, message)]
            if took:
                return True
        m = re.search(r"players\[(\d+)\]", message)
        if m is not None:
            index = int(m.group(1))
            names = self.entry_order()
            if 0 <= index < len(names) and self.flag_player(names[index], message):
                return True
        for name in self.players:
            if re.search(rf"(^|\W){re.escape(name)}(\W|$)", message) and self.flag_player(
                name, message
            ):
                return True
        return False

    def entry_order(self) -> list[str]:
        """Names in the order the entry lists players."""
        return list(self.players)

    def _choose(self, chips: ChoiceChips, message: str) -> str:
        if chips.value is None:
            if not _TYPED_ONLY.get():
                self.error.value = message
                self.error.visible = True
            raise FormError(message, missing=True)
        return chips.value


# -- Rummy 101 -----------------------------------------------------------------------------------
class Rummy101Form(EntryForm):
    """Rummy 101 (RULES.md §3): finish, winner, openings and rests."""

    FINISHES = ("normal", "joker", "one_turn", "one_turn_joker", "stock_out")

    def __init__(
        self, variant: str, options: Mapping[str, Any], players: Sequence[str], on_change: Changed
    ) -> None:
        super().__init__(variant, options, players, on_change)
        self.finish = ChoiceChips(
            [(f, _(labels.FINISH_NAMES[f])) for f in self.FINISHES],
            "normal",
            on_change=lambda _k: self._refresh(),
        )
        self.winner = ChoiceChips(
            [(p, p) for p in self.players], None, on_change=lambda _k: self._refresh()
        )
        self.winner_box = ft.Column(
            [ft.Text(_("Who finished?"), size=16, weight=ft.FontWeight.W_500), self.winner.control],
            spacing=4,
        )
        self.opened: dict[str, ChoiceChips] = {}
        self.keys = KeyGroup(variant, len(self.players))
        self.rests: dict[str, RestInput] = {}
        self.opened_error: dict[str, ft.Text] = {}
        self.opened_label: dict[str, ft.Text] = {}
        self.one_turn_note: dict[str, ft.Text] = {}
        """Per player, in place of "Opened?" after a one-turn finish: why there is no choice."""
        self.blocks: dict[str, ft.Container] = {}
        n = len(self.players)
        for i, p in enumerate(self.players):
            self.opened[p] = ChoiceChips(
                [(k, _(labels.OPENED_NAMES[k])) for k in ("none", "melds", "pairs")],
                None,
                on_change=lambda _k: self._refresh(),
            )
            self.rests[p] = RestInput(variant, n, p, self.changed, self.keys)
            self.opened_error[p] = ft.Text("", color=ERROR_COLOUR, visible=False, size=13)
            self.opened_label[p] = ft.Text(_("Opened?"), size=14, color=MUTED)
            self.one_turn_note[p] = ft.Text(
                _("Not opened: the round was finished in one turn, so nobody else had opened."),
                size=14,
                color=MUTED,
                visible=False,
            )
            self.blocks[p] = player_block(
                i,
                p,
                [
                    self.opened_label[p],
                    self.one_turn_note[p],
                    self.opened[p].control,
                    self.opened_error[p],
                    self.rests[p].control,
                ],
            )
        self.rising_note = ft.Text(
            _(
                "Rising threshold: each later opening in a round had to beat the highest so "
                "far; it does not change the scoring."
            ),
            size=13,
            color=MUTED,
            visible=self.options.get("threshold_mode") == "rising",
        )
        self.controls = [
            self.winner_box,
            ft.Text(_("How did the round end?"), size=16, weight=ft.FontWeight.W_500),
            self.finish.control,
            self.rising_note,
            *self.blocks.values(),
            self.error,
        ]
        self._refresh(notify=False)

    def _refresh(self, notify: bool = True) -> None:
        finish = self.finish.value or "normal"
        self.winner_box.visible = finish != "stock_out"
        one_turn = finish in ("one_turn", "one_turn_joker")
        for p in self.players:
            is_winner = finish != "stock_out" and self.winner.value == p
            self.blocks[p].visible = not is_winner
            self.opened[p].control.visible = not one_turn
            self.opened_label[p].visible = not one_turn
            self.one_turn_note[p].visible = one_turn
            if one_turn:
                self.opened_error[p].visible = False
            opened = self.opened[p].value
            self.rests[p].control.visible = not one_turn and opened in ("melds", "pairs")
        if notify:
            self.changed()

    def clear_errors(self) -> None:
        super().clear_errors()
        for p in self.players:
            self.opened_error[p].visible = False
            self.rests[p].clear()

    def entry(self) -> dict[str, Any]:
        self.clear_errors()
        finish = self.finish.value or "normal"
        bad = wrong = False
        winner = None
        if finish != "stock_out":
            try:
                winner = self._choose(self.winner, _("Tap who finished the round"))
            except FormError as e:
                bad = True
                wrong = wrong or not e.missing
        players: list[dict[str, Any]] = []
        for p in self.players:
            if p == winner:
                players.append({"name": p, "winner": True})
                continue
            if finish in ("one_turn", "one_turn_joker"):
                players.append({"name": p, "opened": "none"})
                continue
            opened = self.opened[p].value
            if opened is None:
                self.opened_error[p].value = _("Tap: not opened, melds or pairs")
                self.opened_error[p].visible = not _TYPED_ONLY.get()
                bad = True
                continue
            item: dict[str, Any] = {"name": p, "opened": opened}
            if opened != "none":
                try:
                    item.update(self.rests[p].read())
                except FormError as e:
                    bad = True
                    wrong = wrong or not e.missing
            players.append(item)
        if bad:
            raise FormError(marked_fields(wrong))
        return {"finish": finish, "players": players}

    def load(self, entry: Mapping[str, Any]) -> None:
        self.finish.set(str(entry.get("finish", "normal")))
        for p in entry.get("players", []):
            name = p.get("name")
            if name not in self.opened:
                continue
            if p.get("winner"):
                self.winner.set(name)
                continue
            self.opened[name].set(p.get("opened"))
            self.rests[name].load(p)
        self._refresh(notify=False)

    def flag_player(self, name: str, message: str) -> bool:
        if name not in self.rests or not self.blocks[name].visible:
            return False
        if self.rests[name].control.visible:
            self.rests[name].flag(message)
        else:
            self.opened_error[name].value = message
            self.opened_error[name].visible = True
        return True

    def entry_order(self) -> list[str]:
        return list(self.players)


# -- Tile Rummy / My Rummy -----------------------------------------------------------------------
POOL_OUT = "__pool_out__"


class TilesForm(EntryForm):
    """Tile Rummy and My Rummy (RULES.md §4): who went out, racks, penalty draws."""

    def __init__(
        self, variant: str, options: Mapping[str, Any], players: Sequence[str], on_change: Changed
    ) -> None:
        super().__init__(variant, options, players, on_change)
        self.outcome = ChoiceChips(
            [(p, p) for p in self.players] + [(POOL_OUT, _("Pool ran out"))],
            None,
            on_change=lambda _k: self._refresh(),
        )
        n = len(self.players)
        self.keys = KeyGroup(variant, len(self.players))
        self.rests = {p: RestInput(variant, n, p, self.changed, self.keys) for p in self.players}
        self.penalties = {
            p: _headed(
                Stepper(
                    _("{name}: penalty draws").format(name=p),
                    0,
                    0,
                    20,
                    on_change=lambda _n: self.changed(),
                ),
                _("Penalty draws"),
            )
            for p in self.players
        }
        self.penalty_items: dict[str, list[dict[str, Any]]] = {p: [] for p in self.players}
        """Per player, the penalty draws as loaded or pre-filled (reason and tiles kept); the
        stepper's count wins, extra draws are ``invalid_turn``."""
        self.rest_boxes: dict[str, ft.Column] = {}
        tiles = self.about.penalty_tiles or 0
        blocks = []
        for i, p in enumerate(self.players):
            self.rest_boxes[p] = ft.Column(
                [ft.Text(_("Left on the rack"), size=14, color=MUTED), self.rests[p].control],
                spacing=4,
            )
            blocks.append(player_block(i, p, [self.rest_boxes[p], self.penalties[p].control]))
        self.controls = [
            ft.Text(_("Who emptied the rack?"), size=16, weight=ft.FontWeight.W_500),
            self.outcome.control,
            *blocks,
            ft.Text(
                ngettext(
                    "Penalty draws ({n} tile each, for an invalid turn or the timer) are "
                    "recorded with the round; the tiles count in the rack.",
                    "Penalty draws ({n} tiles each, for an invalid turn or the timer) are "
                    "recorded with the round; the tiles count in the rack.",
                    tiles,
                ).format(n=tiles),
                size=12,
                color=MUTED,
            ),
            self.error,
        ]
        self._refresh(notify=False)

    def _refresh(self, notify: bool = True) -> None:
        for p in self.players:
            self.rest_boxes[p].visible = self.outcome.value != p
        if notify:
            self.changed()

    def clear_errors(self) -> None:
        super().clear_errors()
        for r in self.rests.values():
            r.clear()

    def entry(self) -> dict[str, Any]:
        self.clear_errors()
        bad = wrong = False
        try:
            outcome = self._choose(self.outcome, _("Tap who emptied the rack, or “Pool ran out”"))
        except FormError:
            outcome, bad = None, True
        players: list[dict[str, Any]] = []
        for p in self.players:
            if p == outcome:
                players.append({"name": p, "winner": True})
                continue
            try:
                players.append({"name": p, **self.rests[p].read()})
            except FormError as e:
                bad = True
                wrong = wrong or not e.missing
        if bad:
            raise FormError(marked_fields(wrong))
        entry: dict[str, Any] = {"players": players}
        penalties = []
        for p in self.players:
            n = self.penalties[p].value
            known = [dict(d) for d in self.penalty_items[p][:n]]
            extra = [{"name": p, "tiles": 3, "reason": "invalid_turn"}] * (n - len(known))
            penalties += known + extra
        if penalties:
            entry["penalties"] = penalties
        return entry

    def load(self, entry: Mapping[str, Any]) -> None:
        winner = None
        for p in entry.get("players", []):
            name = p.get("name")
            if name not in self.rests:
                continue
            if p.get("winner"):
                winner = name
            else:
                self.rests[name].load(p)
        self.outcome.set(winner if winner is not None else POOL_OUT)
        self.set_penalties(entry.get("penalties", []) or [])
        self._refresh(notify=False)

    def set_penalties(self, penalties: Sequence[Any]) -> None:
        """Show the penalty draws ``[{"name", "tiles", "reason"}]`` (a stored round's, or the
        ones recorded with the turn timer), keeping each one's reason and tiles."""
        self.penalty_items = {p: [] for p in self.players}
        for d in penalties:
            if isinstance(d, Mapping) and d.get("name") in self.penalty_items:
                self.penalty_items[d["name"]].append(
                    {
                        "name": d["name"],
                        "tiles": d.get("tiles", 3),
                        "reason": d.get("reason", "invalid_turn"),
                    }
                )
        for p, stepper in self.penalties.items():
            stepper.set(len(self.penalty_items[p]))

    def flag_player(self, name: str, message: str) -> bool:
        if name not in self.rests or not self.rest_boxes[name].visible:
            return False
        self.rests[name].flag(message)
        return True


# -- Gin -----------------------------------------------------------------------------------------
VOID = "__void__"
INFO_LINES: Final = 2
"""Lines the line about a hand (melds, deadwood, may knock) keeps while its keys are open."""
INFO_HEIGHT: Final = 36
"""Height (px) of :data:`INFO_LINES` lines of 14 px text: the line's box while the keys are
open, the same for "" as for two lines."""


class HandInput:
    """A hand of cards with its analysis (melds, deadwood) shown as soon as it is complete."""

    def __init__(
        self,
        variant: str,
        options: Mapping[str, Any],
        players: int,
        name: str,
        sizes: tuple[int, ...],
        on_change: Changed,
        group: KeyGroup | None = None,
    ) -> None:
        self.variant = variant
        self.options = options
        self.sizes = sizes
        self.on_change = on_change
        self.deadwood_shown = about(variant).typed_deadwood is not None
        """The answer is read as melds and deadwood (gin), not as a hand's value (Carousel)."""
        hint = "AS 2S 3S 7H 7D 7C 9C 10C JC 4D" if sizes else "3S 4S 5S KD"
        self.pieces = PiecesInput(
            variant,
            players,
            _("{name}: hand").format(name=name),
            hint,
            self._changed,
            group=group,
            open_first=True,
            title=name,
        )
        self.pieces.field.label = field_label(  # the name heads the card: never cut
            _("Hand"), _("{name}: hand").format(name=name)
        )
        if sizes:  # gin: 10 cards tapped, the next hand gets the keys
            self.pieces.full_at = min(sizes)
        self.pieces.field.multiline = True
        # a gin hand takes two lines: both there from the start, so the keys under the field
        # do not move down when a tapped card starts the second line (other hands: while
        # their keys are open, :meth:`_keys_shown`)
        self.min_lines = 2 if sizes else 1
        self.pieces.field.min_lines = self.min_lines
        self.pieces.field.max_lines = 3
        self.info = ft.Text("", size=14, color=MUTED)
        self.info_box = ft.Container(self.info)
        """Holds :attr:`info`: one height while the keys below are open (:meth:`_keys_shown`)."""
        self.control = ft.Column([self.info_box, self.pieces.control], spacing=2)
        self.pieces.describe = lambda: (str(self.info.value or ""), self.info.color)
        self.pieces.on_keys = self._keys_shown
        self._keys_shown(bool(self.pieces.keyboard.keys_box.visible))
        self.knocker = False
        """This hand is the knocker's (the line then says when it may not knock)."""
        try:
            self.big_gin_bonus = getattr(options_for(variant, dict(options)), "big_gin_bonus", None)
        except RulesError:
            self.big_gin_bonus = None

    def _changed(self) -> None:
        self.analyse()
        self.on_change()

    def _keys_shown(self, open_: bool) -> None:
        """While the keys are open nothing above them changes height as cards are tapped, so
        the next tap lands on the key the finger aims at: the line about the hand keeps
        :data:`INFO_LINES` lines (longer is cut with "…"; all of it shows once the keys
        close), the text field two lines. Closed, both take what they need."""
        self.info.max_lines = INFO_LINES if open_ else None
        self.info.overflow = ft.TextOverflow.ELLIPSIS if open_ else ft.TextOverflow.CLIP
        self.info_box.height = INFO_HEIGHT if open_ else None
        self.pieces.field.min_lines = 2 if open_ else self.min_lines

    def analyse(self) -> dict[str, Any] | None:
        """Ask the judge's ``hand`` check about a complete hand and show the answer."""
        toks = self.pieces.tokens()
        self.info.color = MUTED
        if not toks:
            self.info.value = ""
            return None
        if self.sizes and len(toks) not in self.sizes:
            self.info.value = ngettext("{n} card", "{n} cards", len(toks)).format(n=len(toks))
            return None
        try:
            cards = self.pieces.read()
        except FormError:
            self.info.value = ngettext("{n} card", "{n} cards", len(toks)).format(n=len(toks))
            return None
        answer = judge.answer(
            {"check": "hand", "variant": self.variant, "options": dict(self.options), "hand": cards}
        )
        if not answer.get("ok"):
            self.info.value = verdict_render.error_message(answer, {"variant": self.variant})
            self.info.color = ERROR_COLOUR
            return None
        if self.deadwood_shown and answer.get("big_gin") and self.big_gin_bonus is not None:
            # all 11 melded where the preset has big gin: scored as big gin, no discard (§5)
            parts = [
                _("Melds: {melds}").format(melds=melds_text(answer.get("big_gin_melds"))),
                _("deadwood {n}").format(n=0),
                _("big gin!"),
            ]
        elif self.deadwood_shown:
            parts = [
                _("Melds: {melds}").format(melds=melds_text(answer.get("melds"))),
                _("deadwood {n}").format(n=answer.get("deadwood")),
            ]
            if answer.get("unmatched"):
                parts[-1] += f" ({pieces_text(answer.get('unmatched'))})"
            if answer.get("discard"):
                parts.append(_("discards {card}").format(card=pieces_text(answer["discard"])))
            if answer.get("gin"):
                parts.append(_("gin!"))
            else:
                parts += self._knock_words(answer)
        else:
            parts = [
                ngettext("{n} card, value {v}", "{n} cards, value {v}", len(cards)).format(
                    n=len(cards), v=answer.get("deadwood")
                )
            ]
            parts += self._knock_words(answer)
        self.info.value = " · ".join(parts)
        return answer

    def _knock_words(self, answer: Mapping[str, Any]) -> list[str]:
        """The words after the deadwood: "may knock", or for the knocker over the limit, why
        not (RULES.md §5, §6)."""
        if answer.get("can_knock"):
            return [_("may knock")]
        if not self.knocker:
            return []
        n, limit = answer.get("deadwood"), answer.get("knock_max")
        if limit == 0 and labels.gin_only(self.variant, 0):  # "over the limit 0" says nothing
            return [_("may not knock: only gin goes down, and the deadwood is {n}").format(n=n)]
        if limit == 0:
            return [_("may not knock: a knock needs a hand worth 0, this one is {n}").format(n=n)]
        return [_("may not knock: deadwood {n} is over the limit {limit}").format(n=n, limit=limit)]

    def set_knocker(self, knocker: bool) -> None:
        """Mark this hand as the knocker's (or not) and say again what it may do."""
        if knocker != self.knocker:
            self.knocker = knocker
            self.analyse()


def _typed_deadwood(info: VariantInfo) -> tuple[int, int]:
    """The deadwood (points) a gin form lets a player type: the variant's range (0–100)."""
    if info.typed_deadwood is None:
        raise ValueError(f"{info.key}: deadwood is always counted from the cards")
    return info.typed_deadwood


class GinForm(EntryForm):
    """Gin Rummy (RULES.md §5): the knocker, both hands as cards or deadwood typed in."""

    def __init__(
        self, variant: str, options: Mapping[str, Any], players: Sequence[str], on_change: Changed
    ) -> None:
        super().__init__(variant, options, players, on_change)
        self.knocker = ChoiceChips(
            [(p, _("{name} knocked").format(name=p)) for p in self.players]
            + [(VOID, _("Void hand (nobody knocked)"))],
            None,
            on_change=lambda _k: self._knocker_changed(),
        )
        self.mode = ChoiceChips(
            [("cards", _("Cards")), ("deadwood", _("Deadwood only"))],
            "cards",
            on_change=lambda _k: self._refresh(),
        )
        self.typed_deadwood = _typed_deadwood(self.about)
        self.keys = KeyGroup(variant, len(self.players))
        self.hands = {
            p: HandInput(variant, options, 2, p, self.about.hand_sizes, self.changed, self.keys)
            for p in self.players
        }
        for hand in self.hands.values():
            hand.pieces.in_use = lambda: (
                self.mode.value != "deadwood" and self.knocker.value != VOID
            )
        self.deadwood = {
            p: ft.TextField(
                error_max_lines=ERROR_LINES,
                label=field_label(_("Deadwood"), _("{name}: deadwood").format(name=p)),
                keyboard_type=ft.KeyboardType.NUMBER,
                dense=True,
                width=170,
                text_size=20,
                on_change=lambda _e=None: self.changed(),
            )
            for p in self.players
        }
        big = self.options.get("big_gin_bonus") is not None
        self.gin_kind = {
            p: ChoiceChips(
                [("knock", _("Knock")), ("gin", _("Gin"))]
                + ([("big_gin", _("Big gin"))] if big else []),
                "knock",
                on_change=lambda _k: self._refresh(),
            )
            for p in self.players
        }
        self.gin_zero: set[str] = set()
        """The players whose deadwood 0 the form filled in for a gin (taken out again when the
        gin is no longer theirs and the 0 is still there)."""
        self.blocks: dict[str, ft.Container] = {}
        for i, p in enumerate(self.players):
            self.blocks[p] = player_block(
                i,
                p,
                [
                    self.hands[p].control,
                    self.deadwood[p],
                    self.gin_kind[p].control,
                ],
            )
        self.mode_box = ft.Column(
            [ft.Text(_("Enter"), size=14, color=MUTED), self.mode.control], spacing=4
        )
        self.controls = [
            ft.Text(_("Who knocked?"), size=16, weight=ft.FontWeight.W_500),
            self.knocker.control,
            self.mode_box,
            *self.blocks.values(),
            ft.Text(
                _(
                    "With cards, the referee finds the melds, the deadwood and the "
                    "defender's lay-offs. Typed deadwood is taken as counted after lay-offs."
                ),
                size=12,
                color=MUTED,
            ),
            self.error,
        ]
        self._refresh(notify=False)

    def _knocker_changed(self) -> None:
        """A knocker tapped. Card keys already open stay where they are: the next tap, a
        fraction of a second later, may be on them, and moving them (closing the keys above
        the other hand) would drop it on whatever comes to lie under the finger. Only while
        no keys are open do they open on the knocker's hand, if it is empty."""
        self._refresh()
        hand = self.hands.get(self.knocker.value or "")
        if (
            hand is not None
            and hand.pieces.in_use()
            and not hand.pieces.tokens()
            and self.keys.current() is None
        ):
            self.keys.open(hand.pieces)

    def _refresh(self, notify: bool = True) -> None:
        void = self.knocker.value == VOID
        cards = self.mode.value != "deadwood"
        self.mode_box.visible = not void
        for p in self.players:
            self.blocks[p].visible = not void
            self.hands[p].control.visible = cards
            self.deadwood[p].visible = not cards
            self.gin_kind[p].control.visible = (not cards) and self.knocker.value == p
            self.hands[p].set_knocker(self.knocker.value == p)
            self._fill_gin_zero(p, not cards and self.knocker.value == p)
        if notify:
            self.changed()

    def _fill_gin_zero(self, p: str, knocks: bool) -> None:
        """Gin is deadwood 0 (RULES.md §5): a knocker's gin or big gin fills an empty deadwood
        field with 0 (a number typed over it is still refused by the referee); a 0 the form
        filled goes again when the gin goes."""
        field = self.deadwood[p]
        gin = knocks and self.gin_kind[p].value in ("gin", "big_gin")
        if gin and not (field.value or "").strip():
            field.value = "0"
            field.error = None
            self.gin_zero.add(p)
        elif not gin and p in self.gin_zero:
            self.gin_zero.discard(p)
            if (field.value or "").strip() == "0":
                field.value = ""

    def clear_errors(self) -> None:
        super().clear_errors()
        for p in self.players:
            self.hands[p].pieces.field.error = None
            self.deadwood[p].error = None

    def entry(self) -> dict[str, Any]:
        self.clear_errors()
        bad, wrong, unchosen = False, False, ""
        try:
            knocker: str | None = self._choose(self.knocker, _("Tap who knocked, or “Void hand”"))
        except FormError as e:  # the hands are still checked: every problem shows at once
            knocker, unchosen = None, str(e)
        if knocker == VOID:
            return {
                "knocker": None,
                "void": True,
                "players": [{"name": p, "deadwood": 0} for p in self.players],
            }
        players: list[dict[str, Any]] = []
        for p in self.players:
            try:
                if self.mode.value == "deadwood":
                    item: dict[str, Any] = {
                        "name": p,
                        "deadwood": _int_field(self.deadwood[p], *self.typed_deadwood),
                    }
                    kind = self.gin_kind[p].value
                    if p == knocker and kind in ("gin", "big_gin"):
                        item[kind] = True
                else:
                    item = {"name": p, "hand": self.hands[p].pieces.read()}
                players.append(item)
            except FormError as e:
                bad = True
                wrong = wrong or not e.missing
        wrong = self._flag_hands() or wrong
        if bad:
            raise FormError(marked_fields(wrong))
        if unchosen:
            raise FormError(unchosen)
        return {"knocker": knocker, "players": players}

    def _flag_hands(self) -> bool:
        """Flag every hand of cards the judge's ``hand`` check refuses (9 cards, 3 cards…) on
        its own field, all of them at once, not only the first one the round's check names.
        Only after "Show the scores" (no red while a hand is being typed). True when one was
        flagged."""
        if _TYPED_ONLY.get() or self.mode.value == "deadwood" or self.knocker.value == VOID:
            return False
        flagged = False
        for p in self.players:
            pieces = self.hands[p].pieces
            if pieces.field.error or not pieces.tokens():
                continue
            try:
                cards = pieces.read()
            except FormError:
                continue
            answer = judge.answer(
                {
                    "check": "hand",
                    "variant": self.variant,
                    "options": dict(self.options),
                    "hand": cards,
                }
            )
            if not answer.get("ok"):
                message = verdict_render.error_message(answer, {"variant": self.variant})
                pieces.field.error = readable(message)
                flagged = True
        return flagged

    def flag_judge(self, message: str, answer: Mapping[str, Any]) -> bool:
        took = super().flag_judge(message, answer)
        self._flag_hands()  # the other hands the round's check did not get to
        return took

    def load(self, entry: Mapping[str, Any]) -> None:
        knocker = entry.get("knocker")
        if knocker is None or entry.get("void"):
            self.knocker.set(VOID)
        else:
            self.knocker.set(str(knocker))
        typed = False
        for p in entry.get("players", []):
            name = p.get("name")
            if name not in self.hands:
                continue
            if isinstance(p.get("hand"), list):
                self.hands[name].pieces.set_pieces([str(x) for x in p["hand"]])
                self.hands[name].analyse()
            elif p.get("deadwood") is not None:
                typed = True
                self.deadwood[name].value = str(p["deadwood"])
                if p.get("big_gin"):
                    self.gin_kind[name].set("big_gin")
                elif p.get("gin"):
                    self.gin_kind[name].set("gin")
        self.mode.set("deadwood" if typed else "cards")
        self._refresh(notify=False)

    def flag_player(self, name: str, message: str) -> bool:
        if name not in self.hands or not self.blocks[name].visible:
            return False
        if self.mode.value == "deadwood":
            self.deadwood[name].error = message
        else:
            self.hands[name].pieces.field.error = message
        return True


class GinSoloForm(EntryForm):
    """Gin solo mode (RULES.md §5 solo mode, seed ``002_…``): one player against "the joker".
    How the round ended (knock, gin, or the second joker turned up first), the cards turned
    after a knock or gin (the joker that stopped the turning counted), and the player's hand
    as cards or the deadwood typed in."""

    RESULTS = ("knock", "gin", "second_joker")

    def __init__(
        self, variant: str, options: Mapping[str, Any], players: Sequence[str], on_change: Changed
    ) -> None:
        super().__init__(variant, options, players, on_change)
        self.player = self.players[0]
        turned = self.about.solo_turned
        if turned is None:
            raise ValueError(f"{variant}: no solo mode")
        self.cards_turned = turned
        """The cards a round may turn after a knock or gin (1–45)."""
        self.result = ChoiceChips(
            [
                ("knock", _("{name} knocked").format(name=self.player)),
                ("gin", _("{name} went gin").format(name=self.player)),
                ("second_joker", _("The second joker turned up first")),
            ],
            None,
            on_change=lambda _k: self._refresh(),
        )
        self.turned = ft.TextField(
            error_max_lines=ERROR_LINES,
            label=_("Cards turned, the stopping joker included"),
            keyboard_type=ft.KeyboardType.NUMBER,
            dense=True,
            width=300,
            text_size=20,
            on_change=lambda _e=None: self.changed(),
        )
        self.mode = ChoiceChips(
            [("cards", _("Cards")), ("deadwood", _("Deadwood only"))],
            "cards",
            on_change=lambda _k: self._refresh(),
        )
        self.typed_deadwood = _typed_deadwood(self.about)
        self.keys = KeyGroup(variant, 1)
        self.hands = {
            self.player: HandInput(
                variant, options, 1, self.player, self.about.hand_sizes, self.changed, self.keys
            )
        }
        self.hands[self.player].set_knocker(True)
        self.deadwood = ft.TextField(
            error_max_lines=ERROR_LINES,
            label=field_label(_("Deadwood"), _("{name}: deadwood").format(name=self.player)),
            keyboard_type=ft.KeyboardType.NUMBER,
            dense=True,
            width=170,
            text_size=20,
            on_change=lambda _e=None: self.changed(),
        )
        hand = self.hands[self.player]
        self.controls = [
            ft.Text(_("How did the round end?"), size=16, weight=ft.FontWeight.W_500),
            self.result.control,
            self.turned,
            ft.Column([ft.Text(_("Enter"), size=14, color=MUTED), self.mode.control], spacing=4),
            player_block(0, self.player, [hand.control, self.deadwood]),
            ft.Text(
                _(
                    "Solo mode: the cards turned are your score; on a knock, or when the "
                    "second joker turns up first, the joker scores your deadwood."
                ),
                size=12,
                color=MUTED,
            ),
            self.error,
        ]
        self._refresh(notify=False)

    def _refresh(self, notify: bool = True) -> None:
        cards = self.mode.value != "deadwood"
        # shown from the start and only switched off after the second joker: appearing above
        # the open card keys on a tap of "knocked" it would move them from under the finger
        self.turned.disabled = self.result.value == "second_joker"
        if self.turned.disabled:
            self.turned.error = None
        self.hands[self.player].control.visible = cards
        self.deadwood.visible = not cards
        if notify:
            self.changed()

    def clear_errors(self) -> None:
        super().clear_errors()
        self.hands[self.player].pieces.field.error = None
        self.deadwood.error = None
        self.turned.error = None

    def entry(self) -> dict[str, Any]:
        self.clear_errors()
        bad, wrong, unchosen = False, False, ""
        try:
            result = self._choose(self.result, _("Tap how the round ended"))
        except FormError as e:
            result, unchosen = "", str(e)
        entry: dict[str, Any] = {"result": result}
        if result in ("knock", "gin"):
            try:
                entry["turned"] = _int_field(self.turned, *self.cards_turned)
            except FormError as e:
                bad = True
                wrong = wrong or not e.missing
        item: dict[str, Any] = {"name": self.player}
        try:
            if self.mode.value == "deadwood":
                item["deadwood"] = _int_field(self.deadwood, *self.typed_deadwood)
            else:
                item["hand"] = self.hands[self.player].pieces.read()
        except FormError as e:
            bad = True
            wrong = wrong or not e.missing
        if bad:
            raise FormError(marked_fields(wrong))
        if unchosen:
            raise FormError(unchosen)
        entry["players"] = [item]
        return entry

    def load(self, entry: Mapping[str, Any]) -> None:
        result = entry.get("result")
        self.result.set(str(result) if result in self.RESULTS else None)
        if entry.get("turned") is not None:
            self.turned.value = str(entry["turned"])
        for p in entry.get("players", []):
            if not isinstance(p, Mapping) or p.get("name") != self.player:
                continue
            if isinstance(p.get("hand"), list):
                self.mode.set("cards")
                self.hands[self.player].pieces.set_pieces([str(x) for x in p["hand"]])
                self.hands[self.player].analyse()
            elif p.get("deadwood") is not None:
                self.mode.set("deadwood")
                self.deadwood.value = str(p["deadwood"])
        self._refresh(notify=False)

    def flag_player(self, name: str, message: str) -> bool:
        if name != self.player:
            return False
        if self.mode.value == "deadwood":
            self.deadwood.error = message
        else:
            self.hands[self.player].pieces.field.error = message
        return True


# -- Carousel ------------------------------------------------------------------------------------
STOCK_OUT = "__stock_out__"


class CarouselForm(EntryForm):
    """Carousel rummy (RULES.md §6): the knocker (or the stock ran out) and every hand."""

    def __init__(
        self, variant: str, options: Mapping[str, Any], players: Sequence[str], on_change: Changed
    ) -> None:
        super().__init__(variant, options, players, on_change)
        self.knocker = ChoiceChips(
            [(p, _("{name} knocked").format(name=p)) for p in self.players]
            + [(STOCK_OUT, i18n.pgettext("cards", "Stock ran out"))],
            None,
            on_change=lambda _k: self._knocker_changed(),
        )
        n = len(self.players)
        self.keys = KeyGroup(variant, len(self.players))
        self.hands = {
            p: HandInput(variant, options, n, p, self.about.hand_sizes, self.changed, self.keys)
            for p in self.players
        }
        blocks = [player_block(i, p, [self.hands[p].control]) for i, p in enumerate(self.players)]
        self.controls = [
            ft.Text(_("Who knocked?"), size=16, weight=ft.FontWeight.W_500),
            self.knocker.control,
            ft.Text(
                _("Every hand as it lies; leave it empty for a player who went out."),
                size=13,
                color=MUTED,
            ),
            *blocks,
            self.error,
        ]

    def _knocker_changed(self) -> None:
        for p, hand in self.hands.items():
            hand.set_knocker(self.knocker.value == p)
        self.changed()

    def clear_errors(self) -> None:
        super().clear_errors()
        for h in self.hands.values():
            h.pieces.field.error = None

    def entry(self) -> dict[str, Any]:
        self.clear_errors()
        bad, unchosen = False, ""
        try:
            knocker: str | None = self._choose(
                self.knocker, _("Tap who knocked, or “Stock ran out”")
            )
        except FormError as e:  # the hands are still checked: every problem shows at once
            knocker, unchosen = None, str(e)
        players = []
        for p in self.players:
            try:
                players.append({"name": p, "hand": self.hands[p].pieces.read(allow_empty=True)})
            except FormError:  # an empty hand is allowed: what is marked is wrong
                bad = True
        if bad:
            raise FormError(_("Please correct the marked hands."))
        if unchosen:
            raise FormError(unchosen)
        return {"knocker": None if knocker == STOCK_OUT else knocker, "players": players}

    def load(self, entry: Mapping[str, Any]) -> None:
        knocker = entry.get("knocker")
        self.knocker.set(STOCK_OUT if knocker is None else str(knocker))
        for p, hand in self.hands.items():
            hand.knocker = p == knocker
        for p in entry.get("players", []):
            name = p.get("name")
            if name in self.hands and isinstance(p.get("hand"), list):
                self.hands[name].pieces.set_pieces([str(x) for x in p["hand"]])
                self.hands[name].analyse()

    def flag_player(self, name: str, message: str) -> bool:
        if name not in self.hands:
            return False
        self.hands[name].pieces.field.error = message
        return True


FORMS: dict[str, type[EntryForm]] = {
    "rummy101": Rummy101Form,
    "tile_rummy": TilesForm,
    "my_rummy": TilesForm,
    "gin": GinForm,
    "carousel": CarouselForm,
}


def make_form(
    variant: str, options: Mapping[str, Any], players: Sequence[str], on_change: Changed
) -> EntryForm:
    """The entry form for ``variant`` (gin in solo mode: :class:`GinSoloForm`)."""
    if about(variant).is_solo(options):
        return GinSoloForm(variant, options, players, on_change)
    return FORMS[variant](variant, options, players, on_change)
