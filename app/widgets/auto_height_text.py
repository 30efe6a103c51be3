"""A read-only QTextEdit that is exactly as tall as its document, for stacking in a scroll
area: the transcript scrolls as a whole instead of each message scrolling on its own.

While text streams into it (`keep_room`), it grows ahead of the text by what arrived in the
last GROW_AHEAD_S: a frame that resizes it moves its card and scrolls the transcript, which
repaints everything visible, where a frame that only adds text repaints the lines it changed.
At a GPU's token rate the transcript then moves a few times a second instead of every frame;
at a reading rate it keeps MIN_ROOM_LINES of room and grows a few lines at a time, where growing
line by line repainted everything visible at each line (10-20 % of the GUI thread's time at 40
tok/s: ui_bench.py's synthetic engine, the room toggled in turns).
"""

from __future__ import annotations

import math
import time

from PySide6.QtCore import QSize, QSizeF, Qt, Slot
from PySide6.QtWidgets import QFrame, QSizePolicy, QTextEdit, QWidget

GROW_AHEAD_S = 0.25
MAX_ROOM_LINES = 10  # the most empty room below streaming text, in lines of its font
MIN_ROOM_LINES = 2  # the least, so that at a reading rate it grows a few lines at a time


class AutoHeightTextEdit(QTextEdit):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setUndoRedoEnabled(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._room = False  # grow ahead of the text (keep_room)
        self._grown_at = 0.0  # when the widget last grew, and the text's height then
        self._grown_from = 0
        self._watch_layout()
        self._fit(self.document().size())

    def setDocument(self, document) -> None:
        super().setDocument(document)
        self._watch_layout()
        self._fit(document.size())

    def keep_room(self, on: bool) -> None:
        """Grow ahead of streaming text (on), or fit the text exactly again (off)."""
        self._room = on
        self._grown_at = time.perf_counter()
        self._grown_from = self._needed(self.document().size())
        self._fit(self.document().size())

    def _watch_layout(self) -> None:
        self.document().documentLayout().documentSizeChanged.connect(self._fit)

    def _needed(self, size: QSizeF) -> int:
        return math.ceil(size.height()) + 2 * self.frameWidth()

    @Slot(QSizeF)
    def _fit(self, size: QSizeF) -> None:
        needed = self._needed(size)
        height = needed
        if self._room:
            line = self.fontMetrics().lineSpacing()
            most = MAX_ROOM_LINES * line
            if needed <= self.height() <= needed + most:
                return  # the text still fits the room it has
            now = time.perf_counter()
            rate = (needed - self._grown_from) / max(now - self._grown_at, 1e-3)
            height = needed + min(most, max(MIN_ROOM_LINES * line, round(rate * GROW_AHEAD_S)))
            self._grown_at, self._grown_from = now, needed
        if height != self.height() or self.minimumHeight() != height:
            self.setFixedHeight(max(height, 8))

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self.height())
