"""One line of plain text whose changes repaint it and nothing else: the composer's context
line, which moves a few times a second while an answer streams.

A QLabel asks its layout for room at every setText, and Qt lays out every widget above it again
after each layout (QLayout::activate ends in updateGeometry), up to the main window: four times a
second, a layout of the whole window the model's threads waited for where they hold every core.
This line's size never depends on its text: one line high, as wide as the layout gives it, the
text shortened with "…" when it does not fit, the whole text in its accessible name.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

MIN_WIDTH = 40  # a narrow window cuts the line rather than grows


class StatusLine(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self._text = ""

    def text(self) -> str:
        return self._text

    def setText(self, text: str) -> None:  # QLabel's name, for its callers
        if text == self._text:
            return
        self._text = text
        self.setAccessibleName(text)
        self.update()

    def sizeHint(self) -> QSize:
        margins = self.contentsMargins()
        return QSize(MIN_WIDTH, self.fontMetrics().height() + margins.top() + margins.bottom())

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self.updateGeometry()  # a larger type (presentation mode) needs a taller line

    def paintEvent(self, event: QPaintEvent) -> None:
        rect = self.contentsRect()
        shown = self.fontMetrics().elidedText(self._text, Qt.TextElideMode.ElideRight,
                                              rect.width())
        p = QPainter(self)
        try:
            p.setPen(self.palette().color(self.foregroundRole()))
            p.drawText(rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, shown)
        finally:
            p.end()
