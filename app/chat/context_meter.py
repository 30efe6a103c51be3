"""Keeps the context line ("Context: 812 of 4,096 tokens") moving while an answer streams.

The line is worked out from the engine's own counts (the prompt, and the tokens emitted so
far: app/chat/context_budget.py), so an update costs the same however long the answer is; it is
still redrawn at most every `INTERVAL_MS`, not for each batch of tokens."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Slot

INTERVAL_MS = 250


class LiveContext(QObject):
    def __init__(self, update: Callable[[], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._timer = QTimer(self, singleShot=True, interval=INTERVAL_MS)
        self._timer.timeout.connect(update)

    @Slot()
    def poke(self) -> None:
        """Something streamed: update the line once the interval is up (the first poke of a
        quiet spell starts it; the ones before it fires change nothing)."""
        if not self._timer.isActive():
            self._timer.start()
