"""The mouse wheel changes only what it was aimed at (issue 44): over the side panel, an
unfocused combo box or spin box lets the wheel scroll the panel; once clicked (focused), it
takes the wheel."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QScrollArea, QWidget
from scripted_engine import ScriptedEngine

from app.panel.wheel_guard import BASE_STYLE, WheelGuard
from app.shell import qt_app

DOWN = -120  # one notch towards the user: the next item, a smaller value, scrolling down


@pytest.fixture
def guarded_app(qapp, monkeypatch):
    """The application as app/shell/qt_app.py sets it up, as far as the wheel is concerned (the
    theme and translators, which would outlive the test, are left as they are)."""
    monkeypatch.setattr(qt_app, "apply_theme", lambda app, theme: None)
    monkeypatch.setattr(qt_app, "install_translators", lambda app, language: None)
    names = (qapp.applicationName(), qapp.organizationName(), qapp.applicationVersion(),
             qapp.desktopFileName())
    app = qt_app.ensure_application()
    yield app
    app.setStyle(BASE_STYLE)  # unguarded again, as the other tests' application is
    guard = app.findChild(WheelGuard)
    if guard is not None:
        guard.setParent(None)
        guard.deleteLater()
    app.setApplicationName(names[0])
    app.setOrganizationName(names[1])
    app.setApplicationVersion(names[2])
    app.setDesktopFileName(names[3])


def wheel(widget: QWidget, notches: int = 1) -> None:
    """One turn of the wheel with the pointer at the middle of `widget`, delivered to it."""
    local = QPointF(widget.rect().center())
    event = QWheelEvent(local, QPointF(widget.mapToGlobal(local.toPoint())), QPoint(),
                        QPoint(0, DOWN * notches), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def panel_scroll(widget: QWidget) -> QScrollArea:
    parent = widget.parentWidget()
    while not isinstance(parent, QScrollArea):
        parent = parent.parentWidget()
    return parent


@pytest.fixture
def window(guarded_app, make_window, qtbot):
    """A short main window (the side panel scrolls) with a target and a draft loaded, spec
    type "draft model"."""
    w = make_window(ScriptedEngine())
    w.resize(1000, 420)
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_target("/models/target.gguf")
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_draft("/models/draft.gguf")
    assert w.panel.set_spec_type("draft")
    w.message_box.setFocus()  # where a person types: not the panel
    assert panel_scroll(w.panel).verticalScrollBar().maximum() > 0, "the panel must scroll"
    return w


def bring_into_view(widget: QWidget) -> int:
    """Scroll the panel so that `widget` is in view with room to scroll further down; the
    scroll bar's value."""
    area = panel_scroll(widget)
    bar = area.verticalScrollBar()
    bar.setValue(0)
    area.ensureWidgetVisible(widget)
    assert widget.visibleRegion().contains(widget.rect().center()), "under the pointer"
    assert bar.value() < bar.maximum(), "room to scroll"
    return bar.value()


def test_the_wheel_over_an_unfocused_spec_type_scrolls_the_panel(window, qtbot):
    combo = window.panel.spec_combo
    bar = panel_scroll(combo).verticalScrollBar()
    start = bring_into_view(combo)
    assert not combo.hasFocus()

    wheel(combo)
    assert combo.currentData() == "draft"  # not "ngram", the next item
    assert window.panel.spec_type() == "draft"
    assert bar.value() > start  # the panel scrolled instead

    bring_into_view(combo)
    # Clicked, it has the focus (its list closed again with Esc), and the wheel is for it.
    qtbot.mouseClick(combo, Qt.MouseButton.LeftButton)
    popup = QApplication.activePopupWidget()
    assert popup is not None
    qtbot.keyClick(popup, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is None)
    assert combo.hasFocus()
    scrolled = bar.value()
    wheel(combo)
    assert combo.currentData() != "draft"
    assert window.panel.spec_type() == combo.currentData()
    assert bar.value() == scrolled


def test_the_wheel_over_an_unfocused_spin_box_scrolls_the_panel(window, qtbot):
    spin = window.panel.n_ctx
    bar = panel_scroll(spin).verticalScrollBar()
    start = bring_into_view(spin)
    before = spin.value()
    assert not spin.hasFocus()

    wheel(spin)
    assert spin.value() == before
    assert bar.value() > start

    bring_into_view(spin)
    qtbot.mouseClick(spin.lineEdit(), Qt.MouseButton.LeftButton)
    assert spin.hasFocus()
    wheel(spin)
    assert spin.value() != before


def test_the_wheel_does_not_give_a_setting_the_focus(window):
    """A wheel gives the focus to a widget whose policy includes WheelFocus (Qt's default for
    combo and spin boxes), and then the next turn would change it."""
    for w in (window.panel.spec_combo, window.panel.target_combo, window.panel.n_ctx,
              window.panel.n_draft):
        assert w.focusPolicy() == Qt.FocusPolicy.StrongFocus, w
