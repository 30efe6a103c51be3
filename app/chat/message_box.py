"""The message box: Enter sends, Shift+Enter starts a new line; and the box that edits a sent
message, which keys the same way, cancels with Esc and is as tall as its text."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QSizePolicy,
    QTextEdit,
    QWidget,
)

EDIT_MAX_LINES = 12  # the edit box grows with its text up to this, then scrolls


class MessageBox(QPlainTextEdit):
    submitted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("composer")  # styled in app/shell/style.py
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
        return self._text_height(lines * self.fontMetrics().lineSpacing())

    def _text_height(self, text_px: float) -> int:
        """The box's height around `text_px` of text: the document's margins, the frame and
        the style sheet's padding."""
        margins = self.contentsMargins()
        text = text_px + 2 * self.document().documentMargin()
        return int(text) + margins.top() + margins.bottom()

    def claim_focus(self) -> None:
        """Take the keyboard focus, as where the person types next, unless they are typing in
        another field of this window (or working in another window)."""
        focused = QApplication.focusWidget()
        if focused is self or not self.isEnabled():
            return
        if focused is not None and (focused.window() is not self.window()
                                    or takes_typing(focused)):
            return
        self.setFocus(Qt.FocusReason.OtherFocusReason)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if enter and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.submitted.emit()  # Enter, and Ctrl+Enter as in other chat apps
            return
        if enter:  # Shift+Enter: a plain newline, not Qt's line separator
            self.insertPlainText("\n")
            return
        super().keyPressEvent(event)


def takes_typing(widget: QWidget) -> bool:
    """Whether keys typed into `widget` are the person's text or a value (a line edit, a spin
    box, a combo box, an editable text), rather than a button, a list or a view."""
    if isinstance(widget, QLineEdit | QAbstractSpinBox | QComboBox):
        return True
    if isinstance(widget, QPlainTextEdit | QTextEdit):
        return not widget.isReadOnly()
    return False


class MessageEditBox(MessageBox):
    """Editing a sent message: Enter (or Ctrl+Enter) sends the new version, Shift+Enter adds a
    line, Esc cancels; one line of text is one line tall, and it grows to EDIT_MAX_LINES."""

    cancelled = Signal()

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("editor")
        self.setPlaceholderText("")
        self.setMaximumHeight(16_777_215)  # QWIDGETSIZE_MAX: the text decides
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setPlainText(text)
        self.moveCursor(self.textCursor().MoveOperation.End)
        self.document().contentsChanged.connect(self._fit)
        self._fit()

    def _content_height(self) -> int:
        """The text's height as laid out at the box's width (wrapped lines count), capped."""
        layout = self.document().documentLayout()
        text = 0.0
        block = self.document().begin()
        while block.isValid():
            text += layout.blockBoundingRect(block).height()
            block = block.next()
        line = self.fontMetrics().lineSpacing()
        text = min(max(text, line), EDIT_MAX_LINES * line)
        return self._text_height(text)

    def _fit(self) -> None:
        height = self._content_height()
        if height != self.height() or self.minimumHeight() != height:
            self.setFixedHeight(height)

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self._content_height())

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._fit()  # another width wraps the text into another number of lines

    def event(self, event: QEvent) -> bool:
        # Esc is this box's own while it has the focus, before any shortcut of the window
        # (presentation mode's Esc, for one).
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent) and (
                event.key() == Qt.Key.Key_Escape):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.cancelled.emit()
            return
        super().keyPressEvent(event)
