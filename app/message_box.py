"""The message box: Enter sends, Shift+Enter starts a new line."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QPlainTextEdit, QSizePolicy, QWidget


class MessageBox(QPlainTextEdit):
    submitted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("composer")  # styled in app/style.py
        self.setPlaceholderText(self.tr("Message the model (Enter sends, Shift+Enter for a new "
                                        "line)"))
        self.setTabChangesFocus(True)
        self.setMaximumHeight(120)
        # its size hint, not a share of the column: the transcript takes the room
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

    def sizeHint(self) -> QSize:
        """Two lines: room to write without taking the answer's place (it scrolls)."""
        return QSize(super().sizeHint().width(), self._lines_height(2))

    def minimumSizeHint(self) -> QSize:
        return QSize(super().minimumSizeHint().width(), self._lines_height(1))

    def _lines_height(self, lines: int) -> int:
        margins = self.contentsMargins()  # the frame and the style sheet's padding
        text = lines * self.fontMetrics().lineSpacing() + 2 * self.document().documentMargin()
        return int(text) + margins.top() + margins.bottom()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if enter and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.submitted.emit()
            return
        if enter:  # Shift+Enter: a plain newline, not Qt's line separator
            self.insertPlainText("\n")
            return
        super().keyPressEvent(event)
