"""An event filter counting the events of one type its watched objects receive."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject


class EventCount(QObject):
    def __init__(self, kind: QEvent.Type) -> None:
        super().__init__()
        self.kind = kind
        self.count = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == self.kind:
            self.count += 1
        return False
