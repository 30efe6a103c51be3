"""The composer's context line: its text changes repaint it and lay nothing out again, and it
stays readable (one line of its own type, shortened with "…" where it does not fit)."""

from __future__ import annotations

from event_count import EventCount
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from app.widgets.status_line import StatusLine


def row_with(line: QWidget, qtbot) -> tuple[QWidget, QWidget]:
    """`line` in a row beside a button, in a box, in a window: the composer's nesting."""
    window = QWidget()
    qtbot.addWidget(window)
    box = QWidget()
    row = QHBoxLayout()
    row.addWidget(line, 1)
    row.addWidget(QPushButton("Send"))
    inner = QVBoxLayout(box)
    inner.addLayout(row)
    QVBoxLayout(window).addWidget(box)
    window.resize(400, 120)
    window.show()
    qtbot.waitExposed(window)
    return window, box


def layouts_after_texts(line, qtbot) -> int:
    window, box = row_with(line, qtbot)
    line.setText("Context: about 0 of 4,096 tokens")
    qtbot.wait(20)  # the window laid out and its first text shown
    requests = EventCount(QEvent.Type.LayoutRequest)
    for widget in (window, box):
        widget.installEventFilter(requests)
    for n in range(5):
        line.setText(f"Context: about {n * 1111:,} of 4,096 tokens")
        QCoreApplication.processEvents()
    return requests.count


def test_its_text_changes_lay_nothing_out(qtbot):
    assert layouts_after_texts(StatusLine(), qtbot) == 0
    # what a label does, each time, up to the window (so the count above can fail)
    assert layouts_after_texts(QLabel(), qtbot) >= 5


def test_a_long_text_is_cut_in_one_line_and_kept_whole_for_screen_readers(qtbot):
    line = StatusLine()
    window, _box = row_with(line, qtbot)
    text = "Context: about 3,900 of 4,096 tokens · the 12 oldest messages are left out " * 3
    line.setText(text)
    assert line.text() == text and line.accessibleName() == text
    height = line.height()
    window.resize(200, 120)
    QCoreApplication.processEvents()
    assert line.height() == height  # one line, however narrow
    assert line.width() < line.fontMetrics().horizontalAdvance(text)
    shot = line.grab().toImage()
    inked = [x for x in range(shot.width()) for y in range(shot.height())
             if shot.pixelColor(x, y) != shot.pixelColor(0, 0)]
    assert inked and max(inked) < line.width()  # drawn, and within its width


def test_a_larger_type_gives_a_taller_line(qtbot):
    line = StatusLine()
    _window = row_with(line, qtbot)
    before = line.sizeHint().height()
    font = QFont(line.font())
    font.setPointSizeF(font.pointSizeF() * 2)
    line.setFont(font)
    assert line.sizeHint().height() > before
