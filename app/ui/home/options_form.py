"""Every option of a variant (RULES.md §3–§6) as a form field, with its preset value shown.

The fields come from the options dataclass of ``rules.options`` (names, types, defaults), so a
new option appears here without a code change. Values are checked one by one with
``rules.options.options_for``: an out-of-range value is flagged at its own field with the
engine's reason.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable
from typing import Any

import flet as ft

from app.error_text import describe
from app.games.variants import VariantInfo, about
from app.i18n import _, ngettext
from app.ui.common import labels
from app.ui.common.widgets import MUTED, ChoiceChips
from rules.errors import OptionError
from rules.options import options_for


def _on_off(value: bool) -> str:
    return _("on") if value else _("off")


def _shown(value: Any) -> str:
    """A default as people read it."""
    if value is None:
        return _("off")
    if isinstance(value, bool):
        return _on_off(value)
    if isinstance(value, str):
        return labels.choice_name(value)
    return str(value)


class OptionField:
    """One option: its control, its current value and its error."""

    def __init__(
        self, name: str, kind: str, choices: tuple[str, ...], default: Any, on_change: Any
    ) -> None:
        self.name = name
        self.kind = kind  # "int", "int?", "bool", "choice", "fixed"
        self.choices = choices
        self.default = default
        self.on_change = on_change
        label, note = labels.option_label(name)
        self.label = label
        self.note = ft.Text("", size=12, color=MUTED)
        self.error = ft.Text("", size=13, color=ft.Colors.ERROR, visible=False)
        self.value_note = ft.Text("", size=13, visible=False)
        """What the value typed means where its number alone misleads (a knock limit of 0:
        only gin goes down), else hidden."""
        self.text: ft.TextField | None = None
        self.switch: ft.Switch | None = None
        self.chips: ChoiceChips | None = None
        self.radio: ft.RadioGroup | None = None
        rows: list[ft.Control] = []
        if kind in ("int", "int?"):
            self.text = ft.TextField(
                error_max_lines=3,
                label=label,
                keyboard_type=ft.KeyboardType.NUMBER,
                dense=True,
                on_change=self._changed,
                expand=True,
            )
            if kind == "int?":
                # the switch shows its state itself (and screen readers say it): the label
                # names the option only, or it would read "on" when it is off
                self.switch = ft.Switch(label=label, on_change=self._switched)
                rows.append(self.switch)
            rows.append(self.text)
        elif kind == "bool":
            self.switch = ft.Switch(label=label, on_change=self._changed)
            rows.append(self.switch)
        elif kind == "choice" and len(choices) > 3:
            rows.append(ft.Text(label, size=15, weight=ft.FontWeight.W_500))
            self.radio = ft.RadioGroup(
                content=ft.Column(
                    [ft.Radio(value=c, label=labels.choice_name(c)) for c in choices], spacing=0
                ),
                on_change=self._changed,
            )
            rows.append(self.radio)
        elif kind == "choice":
            rows.append(ft.Text(label, size=15, weight=ft.FontWeight.W_500))
            self.chips = ChoiceChips(
                [(c, labels.choice_name(c)) for c in choices], on_change=self._changed
            )
            rows.append(self.chips.control)
        else:  # fixed
            self.fixed = ft.Text("", size=15)
            rows.append(ft.Text(label, size=15, weight=ft.FontWeight.W_500))
            rows.append(self.fixed)
        rows += [self.note, self.value_note, self.error]
        self.control = ft.Column(rows, spacing=2)
        self.explanation = note
        self.set(default)

    def _changed(self, _e: Any = None) -> None:
        self.on_change(self)

    def _switched(self, _e: Any = None) -> None:
        assert self.text is not None and self.switch is not None
        self.text.visible = bool(self.switch.value)
        if self.switch.value and not self.text.value:
            self.text.value = str(self.default) if isinstance(self.default, int) else ""
        self.on_change(self)

    def set(self, value: Any) -> None:
        """Show ``value`` (no notification)."""
        if self.text is not None:
            self.text.value = "" if value is None else str(value)
            if self.switch is not None:
                self.switch.value = value is not None
                self.text.visible = value is not None
        elif self.switch is not None:
            self.switch.value = bool(value)
        elif self.chips is not None:
            self.chips.set(value)
        elif self.radio is not None:
            self.radio.value = value
        else:
            self.fixed.value = _shown(value)
        self.set_error(None)

    def set_default(self, value: Any) -> None:
        """The preset's value, shown under the field."""
        self.default = value
        parts = [_("Preset: {value}").format(value=_shown(value))]
        if self.explanation:
            parts.append(self.explanation)
        self.note.value = " · ".join(parts)

    def read(self) -> Any:
        """The value entered. Raises ValueError for a number that is not a whole number."""
        if self.text is not None:
            if self.switch is not None and not self.switch.value:
                return None
            raw = (self.text.value or "").strip()
            try:
                return int(raw)
            except ValueError:
                raise ValueError(_("Enter a whole number")) from None
        if self.switch is not None:
            return bool(self.switch.value)
        if self.chips is not None:
            return self.chips.value
        if self.radio is not None:
            return self.radio.value
        return self.default

    def set_error(self, message: str | None) -> None:
        """Flag the field (None clears it): under its number box when it has one showing
        (once: the line under the preset's value stays empty then), else on that line."""
        boxed = self.text is not None and self.text.visible is not False
        self.error.value = "" if boxed else message or ""
        self.error.visible = bool(message) and not boxed
        if self.text is not None:
            self.text.error = (message or None) if boxed else None

    def shown_error(self) -> str | None:
        """The complaint shown at the field (:meth:`set_error`), or None."""
        if self.text is not None and isinstance(self.text.error, str) and self.text.error:
            return self.text.error
        return self.error.value if self.error.visible and self.error.value else None


def _kind(info: VariantInfo, name: str, hint: Any) -> tuple[str, tuple[str, ...]]:
    choices = info.option_choices(name)  # joker_rule: My Rummy has only its own
    if choices is not None:
        return ("choice", choices) if len(choices) > 1 else ("fixed", ())
    if hint is bool:
        return "bool", ()
    if hint is int:
        return "int", ()
    args = typing.get_args(hint)
    if int in args and type(None) in args:
        return "int?", ()
    return "fixed", ()


class OptionsForm:
    """All options of one variant, starting from a preset.

    ``values()`` gives ``{"preset": name, **changed options}`` ready for a Game, or raises
    ValueError after flagging the fields at fault.
    """

    def __init__(self, variant: str, preset: str) -> None:
        self.variant = variant
        self.info = about(variant)
        self.preset = preset
        base = self.info.preset(preset)
        hints = typing.get_type_hints(type(base))
        self.fields: dict[str, OptionField] = {}
        for f in dataclasses.fields(base):
            if f.name == "preset":
                continue
            kind, choices = _kind(self.info, f.name, hints[f.name])
            self.fields[f.name] = OptionField(
                f.name, kind, choices, getattr(base, f.name), self._field_changed
            )
        self.summary = ft.Text("", size=13, color=MUTED)
        self.control = ft.Column([f.control for f in self.fields.values()], spacing=12)
        self.on_change: Callable[[], None] | None = None
        """Called after a field or the preset changed (the form's owner clears its messages)."""
        self.set_preset(preset)

    def set_preset(self, preset: str) -> None:
        """Show the preset's values (dropping changes)."""
        self.preset = preset
        base = self.info.preset(preset)
        for name, field in self.fields.items():
            field.set_default(getattr(base, name))
            field.set(getattr(base, name))
            self._note_value(field)
        self._summarise()
        if self.on_change is not None:
            self.on_change()

    def _field_changed(self, field: OptionField) -> None:
        self.check_field(field)
        self._note_value(field)
        self._summarise()
        if self.on_change is not None:
            self.on_change()

    def _note_value(self, field: OptionField) -> None:
        """Say under ``field`` what its value means where the number alone misleads (the knock
        limit 0: :func:`app.ui.common.labels.knock_limit_note`)."""
        note = None
        if field.name == "knock_max":
            try:
                note = labels.knock_limit_note(self.variant, field.read())
            except ValueError:
                note = None
        field.value_note.value = note or ""
        field.value_note.visible = note is not None

    def check_field(self, field: OptionField) -> bool:
        """Flag ``field`` if its value is not allowed; True when it is fine."""
        try:
            value = field.read()
            if value != field.default:
                options_for(self.variant, {"preset": self.preset, field.name: value})
        except ValueError as e:
            message = describe(e) if isinstance(e, OptionError) else str(e)
            field.set_error(message)
            return False
        field.set_error(None)
        return True

    def changed(self) -> dict[str, Any]:
        """The options that differ from the preset (fields that cannot be read are skipped)."""
        out: dict[str, Any] = {}
        for name, field in self.fields.items():
            try:
                value = field.read()
            except ValueError:
                continue
            if value != field.default:
                out[name] = value
        return out

    def _summarise(self) -> None:
        n = len(self.changed())
        self.summary.value = (
            _("All options as in the preset")
            if n == 0
            else ngettext(
                "{n} option changed from the preset", "{n} options changed from the preset", n
            ).format(n=n)
        )

    def values(self) -> dict[str, Any]:
        """``{"preset": …, **changes}``; raises ValueError (fields flagged) when one is bad."""
        ok = all([self.check_field(f) for f in self.fields.values()])
        if not ok:
            raise ValueError(_("Some options are not allowed; see the marked fields"))
        given = {"preset": self.preset, **self.changed()}
        try:
            options_for(self.variant, given)
        except OptionError as e:
            raise ValueError(describe(e)) from None
        return given
