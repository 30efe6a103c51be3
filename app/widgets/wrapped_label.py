"""A word-wrapped plain-text QLabel that lays its text out once per width.

Qt asks a wrapped label its height for a width at every layout pass, several times a pass,
and QLabel answers each time by laying its text out again (a selectable one through a whole
QTextDocument). Under a streaming answer the transcript is laid out at every frame, and the
labels of the cards around it, whose text had not changed, took about half of that layout's
time at a GPU's token rate. Each answer is kept until the text, the width, the wrapping or the
label's look (font, style, language: any change event) changes.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QLabel

MAX_WIDTHS = 8  # widths kept per text: a window being resized asks for many in turn


class WrappedLabel(QLabel):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._heights: dict[tuple[int, str, bool], int] = {}

    def heightForWidth(self, width: int) -> int:
        key = (width, self.text(), self.wordWrap())
        height = self._heights.get(key)
        if height is None:
            if len(self._heights) >= MAX_WIDTHS:
                self._heights.clear()
            height = self._heights[key] = super().heightForWidth(width)
        return height

    def changeEvent(self, event: QEvent) -> None:
        self._heights.clear()
        super().changeEvent(event)
