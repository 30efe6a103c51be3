"""A window of its own that Esc closes, as every window of the app does."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QWidget


class OwnWindow(QWidget):
    """A top-level window over `parent`. Esc closes it; a child that uses Esc (an open list,
    an editor) takes it first."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if (event.key() == Qt.Key.Key_Escape
                and event.modifiers() == Qt.KeyboardModifier.NoModifier):
            self.close()
            return
        super().keyPressEvent(event)
