"""The small widgets the side panel's forms are made of: a spin box built from a setting's
declaration (`backend.settings_schema`), a row of widgets, a model's caption with its Open
button, and that folder button."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QHBoxLayout,
    QSpinBox,
    QStyle,
    QToolButton,
    QWidget,
)

from app.backend_text import option_special, option_tooltip
from app.transcript.message_widgets import plain_label
from backend.settings_schema import Option


def widget_row(*widgets: QWidget) -> QWidget:
    """The widgets side by side, the first taking the room left."""
    w = QWidget()
    layout = QHBoxLayout(w)
    layout.setContentsMargins(0, 0, 0, 0)
    for i, child in enumerate(widgets):
        layout.addWidget(child, 1 if i == 0 else 0)
    return w


def caption(text: str, buddy: QWidget, button: QWidget) -> QWidget:
    """A model's caption (naming its box for screen readers too), its Open button at the end."""
    label = plain_label(text)
    label.setBuddy(buddy)
    return widget_row(label, button)


def open_button(name: str, tip: str) -> QToolButton:
    button = QToolButton()
    button.setIcon(button.style().standardIcon(QStyle.StandardPixmap.SP_DirOpenIcon))
    button.setToolTip(tip)
    button.setAccessibleName(name)
    return button


def option_input(option: Option) -> QSpinBox | QDoubleSpinBox:
    """A spin box with the declaration's range, step, default and tooltip."""
    w: QSpinBox | QDoubleSpinBox
    if option.kind is float:
        w = QDoubleSpinBox()
        w.setDecimals(option.decimals)  # before the range and value, which it rounds
    else:
        w = QSpinBox()
    w.setRange(option.minval, option.maxval)
    w.setSingleStep(option.step or 1)
    w.setValue(option.default)
    w.setToolTip(option_tooltip(option))
    if option.special:
        w.setSpecialValueText(option_special(option))  # shown instead of minval
    return w
