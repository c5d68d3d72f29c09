"""A table of melds edited by tapping, for the turn checker (issue 10, point 8).

The referee's fast way through a rearrangement ("took R6 off R3-R6, added R7 R8"): the table
after starts as the table before; tap a piece to pick it up, tap another meld (or "New meld
with …") to put it there; tap a meld to select it, and the tile/card keyboard adds the pieces
from the rack to it (typing its notation works too). Carousel: the cards the jokers of a meld
stand for (the player's declaration, RULES.md §6) are entered under the meld's keys.

:class:`TableModel` is the pure part (melds, the meld selected, the piece held, the
declarations; no Flet), built on :class:`app.ui.common.keyboard.MeldList` and tested on its own;
:class:`TableEditor` draws it, built on :class:`app.ui.common.keyboard.MeldsEditor` (``keyboard``,
``new_meld``, ``set_melds``, ``value``, ``faults``…), so screens and tests use either.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import flet as ft

from app.games.variants import about
from app.i18n import _
from app.ui.common.keyboard import MeldList, MeldsEditor, PieceKeyboard
from app.ui.common.pieces import JOKER, RANKS, piece_name, piece_view
from app.ui.common.widgets import ERROR_COLOUR

Declared = list[str | None]
"""What each joker of one meld stands for, in the order the jokers lie (None: not declared)."""


def _jokers(meld: Sequence[str]) -> int:
    return sum(1 for p in meld if p == JOKER)


def _family_number(code: str, material: str) -> tuple[str, int] | None:
    """``R7`` -> ``("R", 7)``; ``10H`` -> ``("H", 10)``; a joker -> None."""
    if code == JOKER:
        return None
    if material == "tiles":
        return code[0], int(code[1:])
    return code[-1], RANKS.index(code[:-1]) + 1


def place(meld: Sequence[str], piece: str, material: str) -> int:
    """Where a piece put onto ``meld`` goes: in front when it is the number just below the
    first piece, of the same colour/suit (R2 onto R3 R4 R5), else at the end (``piece``: for a
    declared joker, the card it stands for). (The judge reads
    a meld in any order it can be laid in, RULES.md §1; this only keeps it drawn as it lies.)"""
    if not meld:
        return 0
    new = _family_number(piece, material)
    first = _family_number(meld[0], material)
    if new is not None and first is not None and new[0] == first[0] and new[1] == first[1] - 1:
        return 0
    return len(meld)


class TableModel(MeldList):
    """The melds of a table being edited (pure logic): the keyboard's :class:`MeldList` (melds,
    the one selected, faults) with the jokers' declarations and the piece held.

    Attributes:
        material: ``"tiles"`` or ``"cards"``.
        declared: parallel to :attr:`melds`: for each meld, one entry per joker (in the order
            the jokers lie): the card it was declared as, or None.
        held: ``(meld, position)`` of the piece picked up, or None.
    """

    def __init__(self, material: str) -> None:
        super().__init__()
        self.material = material
        self.declared: list[Declared] = [[]]
        self.held: tuple[int, int] | None = None

    # -- reading --------------------------------------------------------------------------------
    def declarations(self) -> list[Declared | None] | None:
        """JUDGE.md's ``declared_before`` / ``declared_after`` for :attr:`value`: per meld
        None (nothing declared) or its jokers' cards in order (trailing undeclared jokers left
        out); None when nothing at all is declared."""
        out: list[Declared | None] = []
        for meld, decl in zip(self.melds, self.declared, strict=True):
            if not meld:
                continue
            cards = list(decl)
            while cards and cards[-1] is None:
                cards.pop()
            out.append(cards or None)
        return out if any(d is not None for d in out) else None

    def held_piece(self) -> str | None:
        """The piece picked up, or None."""
        if self.held is None:
            return None
        i, j = self.held
        return self.melds[i][j]

    # -- changing -------------------------------------------------------------------------------
    def set_melds(
        self, melds: Sequence[Sequence[str]], declared: Sequence[Sequence[str | None] | None] = ()
    ) -> None:
        """Show ``melds`` (and their declarations, parallel); the last meld is selected."""
        super().set_melds(melds)
        self.declared = []
        for i, m in enumerate(self.melds):
            d = list(declared[i] or []) if i < len(declared) else []
            self.declared.append(self._fit(d, _jokers(m)))
        self.held = None

    @staticmethod
    def _fit(declared: Sequence[str | None], jokers: int) -> Declared:
        out = list(declared)[:jokers]
        return out + [None] * (jokers - len(out))

    def set_pieces(self, pieces: Sequence[str]) -> None:
        """The selected meld is now ``pieces`` (from the keys or typed): the k-th joker keeps
        the k-th declaration."""
        super().set_pieces(pieces)
        self.declared[self.active] = self._fit(self.declared[self.active], _jokers(pieces))
        self.held = None

    def declare(self, cards: Sequence[str]) -> None:
        """The jokers of the selected meld stand for ``cards``, in order (fewer: the rest are
        not declared)."""
        self.declared[self.active] = self._fit(cards, _jokers(self.melds[self.active]))

    def select(self, i: int) -> None:
        """Select meld ``i`` (empty melds other than it are forgotten)."""
        super().select(i)
        self.held = None

    def new_meld(self) -> None:
        """Start a new, empty meld at the end and select it."""
        self.held = None
        super().new_meld()

    def remove_meld(self) -> None:
        """Remove the selected meld."""
        self.held = None
        super().remove_meld()

    def pick(self, i: int, j: int) -> None:
        """Pick up piece ``j`` of meld ``i`` (tapping the piece held puts it back)."""
        if not (0 <= i < len(self.melds) and 0 <= j < len(self.melds[i])):
            raise IndexError((i, j))
        self.held = None if self.held == (i, j) else (i, j)
        if self.held is not None:
            self.active = i

    def put_back(self) -> None:
        """Put the piece held back where it was."""
        self.held = None

    def take_off(self) -> str:
        """Take the piece held off the table (a joker taken back to the rack); a meld left
        empty is removed, the meld it was in is selected.

        Returns:
            The piece taken off.

        Raises:
            ValueError: no piece is held.
        """
        i, j = self._let_go()
        meld = self.melds[i]
        piece = meld[j]
        if piece == JOKER:
            del self.declared[i][_jokers(meld[:j])]
        del meld[j]
        self.active = i
        if not meld and len(self.melds) > 1:
            self._delete(i)
            self.active = min(i, len(self.melds) - 1)
        return piece

    def drop(self, target: int | None) -> int:
        """Move the piece held into meld ``target`` (None: a new meld at the end), placed by
        :func:`place`; a joker takes its declaration along. A meld left empty is removed; the
        meld that got the piece is selected.

        Returns:
            The index of that meld (after the removal).

        Raises:
            ValueError: no piece is held.
        """
        i, j = self._let_go()
        if target is None:
            i = self._drop_empty(keep=i)
            self._append()
            target = len(self.melds) - 1
        if not 0 <= target < len(self.melds):
            raise IndexError(target)
        if target == i:
            self.active = i
            return i
        source = self.melds[i]
        piece = source[j]
        stands: str | None = None
        if piece == JOKER:
            k = _jokers(source[:j])
            stands = self.declared[i].pop(k)
        del source[j]
        meld = self.melds[target]
        at = place(meld, stands or piece, self.material)  # a declared joker goes as its card
        meld.insert(at, piece)
        if piece == JOKER:
            self.declared[target].insert(_jokers(meld[:at]), stands)
        if not source:
            self._delete(i)
            if target > i:
                target -= 1
        self.active = target
        self.active = self._drop_empty(keep=target)
        return self.active

    def _let_go(self) -> tuple[int, int]:
        """Where the piece held was (it is held no more).

        Raises:
            ValueError: no piece is held.
        """
        if self.held is None:
            raise ValueError("no piece is held")
        held, self.held = self.held, None
        return held

    def _keep(self, kept: list[int]) -> None:
        super()._keep(kept)
        self.declared = [self.declared[i] for i in kept]

    def _append(self) -> None:
        super()._append()
        self.declared.append([])


class TableEditor(MeldsEditor):
    """A table of melds on the screen: each meld a row of pieces, the keyboard under them.

    Tap a meld to select it (the keys add to it); with ``moves``, tap a piece to pick it up and
    a meld, or "New meld with …", to put it there. Carousel: "Jokers stand for" under the keys
    of a meld with jokers. Built on :class:`app.ui.common.keyboard.MeldsEditor` (selecting, new and
    removed melds, faults, focus), with a :class:`TableModel` as its model.

    Args:
        variant: the variant.
        title: the table's name ("Table after"); names its melds for screen readers.
        on_change: called after any change of the melds or declarations.
        players: player count (Carousel decks).
        on_focus: called when the user starts editing this table.
        moves: pieces can be picked up and moved (the table after).

    Attributes:
        model: the :class:`TableModel`.
        faults: indexes of :attr:`melds` drawn with a red frame.
        changed: True once the user changed the melds (the screen stops copying into it).
    """

    model: TableModel

    def __init__(
        self,
        variant: str,
        title: str,
        on_change: Callable[[], None] | None = None,
        players: int | None = None,
        on_focus: Callable[[Any], None] | None = None,
        moves: bool = False,
    ) -> None:
        self.moves = moves
        super().__init__(variant, title, on_change, players, on_focus)

    def _new_model(self) -> TableModel:
        return TableModel(self.material)

    def _layout(self, players: int | None) -> ft.Column:
        self.declare: PieceKeyboard | None = None
        self.declare_box = ft.Column(visible=False, spacing=4)
        if about(self.variant).rules.declares_jokers:  # Carousel (RULES.md §6)
            self.declare = PieceKeyboard(
                self.variant,
                _("The jokers stand for"),
                on_change=self._declare_changed,
                players=players,
                on_focus=self._declare_focused,
            )
            if self.declare.joker_key is not None:
                self.declare.joker_key.visible = False  # a joker stands for a card
            self.declare.show_keys(False)
            self.declare_box.controls = [
                ft.Text(_("Declared jokers (optional)"), size=14, weight=ft.FontWeight.W_600),
                self.declare.control,
            ]
        self.rows.horizontal_alignment = ft.CrossAxisAlignment.STRETCH
        self.hint_text = ft.Text("", size=14, weight=ft.FontWeight.W_500, expand=True)
        self.hint = ft.Container(
            content=ft.Column(
                [
                    ft.Row(
                        [ft.Icon(ft.Icons.PAN_TOOL_ALT, size=20), self.hint_text],
                        spacing=6,
                        vertical_alignment=ft.CrossAxisAlignment.CENTER,
                    ),
                    ft.Row(
                        [
                            ft.TextButton(
                                content=_("Put it back"),
                                icon=ft.Icons.UNDO,
                                on_click=self._put_back_clicked,
                            ),
                            ft.TextButton(
                                content=_("Take it off the table"),
                                icon=ft.Icons.OUTPUT,
                                on_click=self._take_off_clicked,
                            ),
                        ],
                        wrap=True,
                        spacing=4,
                    ),
                ],
                spacing=0,
                tight=True,
            ),
            bgcolor=ft.Colors.TERTIARY_CONTAINER,
            border_radius=10,
            padding=ft.Padding.symmetric(horizontal=8, vertical=4),
            visible=False,
        )
        self.keys_box = ft.Column(
            [self.keyboard.control, self.declare_box],
            spacing=8,
            visible=True,
        )
        self.buttons = ft.Row([self.new_button, self.remove_button], wrap=True, spacing=8)
        return ft.Column([self.hint, self.rows, self.buttons, self.keys_box], spacing=8)

    # -- MeldsEditor's interface, extended --------------------------------------------------------
    @property
    def problem(self) -> str | None:
        """What is wrong with the text typed (the meld or the declared cards), else None."""
        if self.declare is not None and self.declare.problem:
            return self.declare.problem
        return self.keyboard.problem

    def declarations(self) -> list[Declared | None] | None:
        """The declarations for the judge (:meth:`TableModel.declarations`)."""
        return self.model.declarations()

    def set_melds(
        self, melds: Sequence[Sequence[str]], declared: Sequence[Sequence[str | None] | None] = ()
    ) -> None:
        """Show ``melds`` (and their jokers' declarations); the last one is selected."""
        self.model.set_melds(melds, declared)
        self._load_active()

    def new_meld(self) -> None:
        """Start a new meld (with the piece held, if one is)."""
        if self.model.held is not None:
            self.drop(None)
            return
        super().new_meld()

    def take_from(self, other: MeldsEditor) -> None:
        """As :meth:`MeldsEditor.take_from`, with the jokers' declared cards being typed."""
        super().take_from(other)
        mine, theirs = self.declare, getattr(other, "declare", None)
        if mine is None or not isinstance(theirs, PieceKeyboard):
            return
        if theirs.problem:
            mine.field.value = theirs.field.value
            mine.type_text(theirs.field.value or "", notify=False)
        if theirs.keys_box.visible and other.keys_box.visible:  # the declared cards' keys
            mine.show_keys(True)
            self._declare_focused()

    def show_keys(self, visible: bool) -> None:
        """Show or hide the keys (the melds stay)."""
        if visible:
            self.keyboard.show_keys(True)
            if self.declare is not None:
                self.declare.show_keys(False)
        super().show_keys(visible)

    # -- moving ---------------------------------------------------------------------------------
    def pick(self, i: int, j: int) -> None:
        """Pick up piece ``j`` of meld ``i`` (again: put it back)."""
        self.model.pick(i, j)
        self._load_active()
        self.focus()

    def drop(self, target: int | None) -> None:
        """Put the piece held into meld ``target`` (None: a new meld)."""
        self.model.drop(target)
        self._moved()

    def put_back(self) -> None:
        """Put the piece held back."""
        self.model.put_back()
        self._paint()

    def take_off(self) -> None:
        """Take the piece held off the table (Rummy 101: a joker taken back for its tile)."""
        self.model.take_off()
        self._moved()

    def _moved(self) -> None:
        """A piece was moved (or taken off): faults cleared, keys on the meld it went to."""
        self.faults = set()
        self._load_active()
        self.focus()
        self._notify()

    # -- handlers -------------------------------------------------------------------------------
    def _declare_changed(self) -> None:
        if self.declare is not None:
            self.model.declare(self.declare.value)
        self._paint()
        self._notify()

    def _declare_focused(self, _kb: Any = None) -> None:
        self.keyboard.show_keys(False)
        self.keys_box.visible = True
        if self.on_focus is not None:
            self.on_focus(self)
        self._paint()

    def _put_back_clicked(self, _e: Any = None) -> None:
        self.put_back()

    def _take_off_clicked(self, _e: Any = None) -> None:
        self.take_off()

    def _meld_tapped(self, i: int) -> None:
        if self.model.held is not None:
            self.drop(i)
        else:
            self.select(i)

    def _piece_handler(self, i: int, j: int) -> Callable[[Any], None]:
        def handler(_e: Any = None) -> None:
            held = self.model.held
            if held is not None and held != (i, j):
                self.drop(i)
            else:
                self.pick(i, j)

        return handler

    # -- inside ---------------------------------------------------------------------------------
    def _meld_loaded(self) -> None:
        """Load the declared cards of the selected meld's jokers into their keys."""
        if self.declare is None:
            return
        jokers = _jokers(self.melds[self.active])
        self.declare.max_pieces = max(jokers, 1)
        self.declare.set_pieces([c for c in self.model.declared[self.active] if c])
        self.declare_box.visible = jokers > 0

    def _paint(self) -> None:
        held = self.model.held
        moving = self.model.held_piece()
        moving_name = self._spoken_piece(*held) if held is not None else ""
        self.hint.visible = moving is not None
        if moving is not None:
            hint = _("{piece} picked up: tap a meld to put it there").format(piece=moving_name)
            self.hint_text.value = hint[:1].upper() + hint[1:]
            self.new_button.content = _("New meld with {piece}").format(piece=moving_name)
        else:
            self.new_button.content = _("New meld")
        editing = bool(self.keys_box.visible)
        rows: list[ft.Control] = []
        for i, meld in enumerate(self.melds):
            rows.append(self._meld_row(i, meld, editing, held, moving_name))
        self.rows.controls = rows
        self.remove_button.disabled = len(self.melds) <= 1 and not self.melds[0]

    def _spoken_piece(self, i: int, j: int) -> str:
        """Piece ``j`` of meld ``i`` as said: "red 6", "joker as 7 of hearts"."""
        meld = self.melds[i]
        code = meld[j]
        if code == JOKER:
            k = _jokers(meld[:j])
            declared = self.model.declared[i]
            stands = declared[k] if k < len(declared) else None
            if stands:
                return _("joker as {piece}").format(piece=piece_name(stands, self.material))
        return piece_name(code, self.material)

    def _meld_row(
        self,
        i: int,
        meld: list[str],
        editing: bool,
        held: tuple[int, int] | None,
        moving_name: str,
    ) -> ft.Control:
        chosen = i == self.active and editing and held is None
        fault = i in self.faults
        target = held is not None and held[0] != i
        stands = iter(self.model.declared[i])
        stand_ins = [next(stands, None) if p == JOKER else None for p in meld]
        said = ", ".join(self._spoken_piece(i, j) for j in range(len(meld)))
        notes: tuple[str | None, str | None]
        if target:
            notes = (
                _("tap to put it here"),
                _("(tap to put {piece} here)").format(piece=moving_name),
            )
        else:
            notes = self._editing_notes(chosen)
        tap = self._meld_handler(i)
        header = ft.Semantics(
            label=self._row_label(i, said, notes[1], fault),
            button=True,
            exclude_semantics=True,
            on_tap=tap,
            content=ft.Container(
                content=self._caption(i, notes[0], fault),
                on_click=tap,
                padding=ft.Padding.only(bottom=2),
            ),
        )
        body: ft.Control
        if not meld:
            body = self._empty_text(chosen)
        else:
            body = ft.Row(
                [
                    self._piece(i, j, p, s, held)
                    for j, (p, s) in enumerate(zip(meld, stand_ins, strict=True))
                ],
                wrap=True,
                spacing=4,
                run_spacing=6,
                vertical_alignment=ft.CrossAxisAlignment.START,
            )
        if fault:
            border = ft.Border.all(2, ERROR_COLOUR)
        elif chosen or target:
            border = ft.Border.all(2, ft.Colors.PRIMARY)
        else:
            border = ft.Border.all(1, ft.Colors.OUTLINE_VARIANT)
        return ft.Container(
            content=ft.Column([header, body], spacing=2, tight=True),
            on_click=tap,
            padding=6,
            border_radius=10,
            border=border,
            bgcolor=ft.Colors.ERROR_CONTAINER
            if fault
            else (ft.Colors.PRIMARY_CONTAINER if chosen or target else None),
        )

    def _piece(
        self, i: int, j: int, code: str, stands: str | None, held: tuple[int, int] | None
    ) -> ft.Control:
        drawn = piece_view(code, self.material, "m", stands)
        if not self.moves:
            return drawn
        pname = self._spoken_piece(i, j)
        lifted = held == (i, j)
        if lifted:
            label = _("Put {piece} back").format(piece=pname)
        else:
            label = _("Move {piece} (meld {n})").format(piece=pname, n=i + 1)
        tap = self._piece_handler(i, j)
        return ft.Semantics(
            label=label,
            button=True,
            exclude_semantics=True,
            on_tap=tap,
            content=ft.Container(
                content=drawn,
                on_click=tap,
                border=ft.Border.all(3, ft.Colors.AMBER_700) if lifted else None,
                bgcolor=ft.Colors.TERTIARY_CONTAINER if lifted else None,
                border_radius=8,
                padding=2 if lifted else 0,
                offset=ft.Offset(0, -0.12) if lifted else None,
            ),
        )


__all__ = ["Declared", "TableEditor", "TableModel", "place"]
