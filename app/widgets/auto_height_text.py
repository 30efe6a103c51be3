"""A read-only QTextEdit that is exactly as tall as its document, for stacking in a scroll
area: the transcript scrolls as a whole instead of each message scrolling on its own."""

from __future__ import annotations

import math

from PySide6.QtCore import QSize, QSizeF, Qt, Slot
from PySide6.QtWidgets import QFrame, QSizePolicy, QTextEdit, QWidget


class AutoHeightTextEdit(QTextEdit):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setUndoRedoEnabled(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._watch_layout()
        self._fit(self.document().size())

    def setDocument(self, document) -> None:
        super().setDocument(document)
        self._watch_layout()
        self._fit(document.size())

    def _watch_layout(self) -> None:
        self.document().documentLayout().documentSizeChanged.connect(self._fit)

    @Slot(QSizeF)
    def _fit(self, size: QSizeF) -> None:
        height = math.ceil(size.height()) + 2 * self.frameWidth()
        if height != self.height() or self.minimumHeight() != height:
            self.setFixedHeight(max(height, 8))

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self.height())
