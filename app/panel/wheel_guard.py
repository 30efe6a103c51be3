"""The mouse wheel changes a value only where it was aimed: combo boxes, spin boxes and sliders
take the wheel only while they have the keyboard focus; otherwise it scrolls the scroll area
around them (the side panel), as if they were not there.

The application's style keeps the rule for every such widget the app makes: as it polishes
one, it gives it a focus policy that a wheel does not satisfy (Qt's default for them,
WheelFocus, would hand them the focus, and so the wheel, as the pointer passes) and puts it
under the guard, an event filter that sends a wheel it should not take to the nearest scroll
area instead. The guard sees those widgets' events only: an application event filter would
have every event of every widget pass through Python (a tenth of the GUI thread's time while
an answer streams).
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
    QProxyStyle,
    QSlider,
    QWidget,
)

GUARDED = (QComboBox, QAbstractSpinBox, QSlider, QDial)  # not scroll bars: they are for wheels
_WHEEL = QEvent.Type.Wheel
BASE_STYLE = "Fusion"  # what Draftlight draws on, whatever the platform's own style


class WheelGuard(QObject):
    """The event filter on each guarded widget (see the module's docstring)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != _WHEEL or not isinstance(watched, GUARDED) or watched.hasFocus():
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


class GuardedStyle(QProxyStyle):
    """BASE_STYLE, putting each GUARDED widget under `guard` as it polishes it (under a style
    sheet too: the sheet's style polishes with this one first)."""

    def __init__(self, guard: WheelGuard) -> None:
        super().__init__(BASE_STYLE)
        self._guard = guard

    def polish(self, target):  # type: ignore[override]  # Qt's three overloads in one
        super().polish(target)
        if isinstance(target, GUARDED):
            guard_focus(target)
            target.installEventFilter(self._guard)  # once: Qt does not add a filter twice


def guard_focus(widget: QWidget) -> None:
    """A control the wheel may not focus: Tab and a click still do."""
    if widget.focusPolicy() == Qt.FocusPolicy.WheelFocus:
        widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)


def install(app: QApplication) -> WheelGuard:
    """Draw `app` on BASE_STYLE with the rule kept from now on, for the widgets already made
    too (a new style polishes them all again); the app's one guard."""
    guard = app.findChild(WheelGuard)
    if guard is None:
        guard = WheelGuard(app)
    app.setStyle(GuardedStyle(guard))
    return guard


def _scroll_area_around(widget: QWidget) -> QAbstractScrollArea | None:
    parent = widget.parentWidget()
    while parent is not None and not parent.isWindow():
        if isinstance(parent, QAbstractScrollArea):
            return parent
        parent = parent.parentWidget()
    return None
