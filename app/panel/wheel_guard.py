"""The mouse wheel changes a value only where it was aimed: combo boxes, spin boxes and sliders
take the wheel only while they have the keyboard focus; otherwise it scrolls the scroll area
around them (the side panel), as if they were not there.

One application event filter keeps the rule for every such widget the app makes: it gives
them a focus policy that a wheel does not satisfy (Qt's default for them, WheelFocus, would
hand them the focus, and so the wheel, as the pointer passes), and sends a wheel they should
not take to the nearest scroll area instead.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDial,
    QSlider,
    QWidget,
)

GUARDED = (QComboBox, QAbstractSpinBox, QSlider, QDial)  # not scroll bars: they are for wheels
_WHEEL = QEvent.Type.Wheel
_POLISH = QEvent.Type.Polish


class WheelGuard(QObject):
    """The application's event filter that keeps the rule (see the module's docstring)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == _POLISH:
            if isinstance(watched, GUARDED):
                guard_focus(watched)
            return False
        if kind != _WHEEL or not isinstance(watched, GUARDED) or watched.hasFocus():
            return False
        assert isinstance(event, QWheelEvent)
        area = _scroll_area_around(watched)
        if area is None:
            event.ignore()  # nothing to scroll: a spontaneous wheel goes on to the parents
            return True
        viewport = area.viewport()
        position = QPointF(viewport.mapFromGlobal(event.globalPosition().toPoint()))
        # A new event, as Qt itself forwards a wheel: the original's position is the control's.
        forwarded = QWheelEvent(position, event.globalPosition(), event.pixelDelta(),
                                event.angleDelta(), event.buttons(), event.modifiers(),
                                event.phase(), event.inverted(), event.source(),
                                event.pointingDevice())
        QApplication.sendEvent(viewport, forwarded)
        event.accept()
        return True


def guard_focus(widget: QWidget) -> None:
    """A control the wheel may not focus: Tab and a click still do."""
    if widget.focusPolicy() == Qt.FocusPolicy.WheelFocus:
        widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)


def install(app: QApplication) -> WheelGuard:
    """Keep the rule in `app` from now on (once: a second call returns the same guard), for
    the widgets already made too."""
    guard = app.findChild(WheelGuard)
    if guard is None:
        guard = WheelGuard(app)
        app.installEventFilter(guard)
    for widget in app.allWidgets():
        if isinstance(widget, GUARDED):
            guard_focus(widget)
    return guard


def _scroll_area_around(widget: QWidget) -> QAbstractScrollArea | None:
    parent = widget.parentWidget()
    while parent is not None and not parent.isWindow():
        if isinstance(parent, QAbstractScrollArea):
            return parent
        parent = parent.parentWidget()
    return None
