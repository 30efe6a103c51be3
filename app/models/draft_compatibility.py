"""Which draft candidates can draft for the target, found off the GUI thread.

Reading a GGUF's vocabulary takes up to a second, so the check runs as background work and
reports through a signal. The rule itself is the backend's (`backend.models.pairing`), the
same one the engine applies on load and the model manager's pairing panel shows.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, Signal

from app.backend_text import reason_text
from app.background import Background
from backend.models.pairing import draft_verdicts
from backend.words import Words

log = logging.getLogger(__name__)


class DraftCompatibility(QObject):
    checked = Signal(str, str, object)  # target path, draft path, reason (None: compatible)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._work = Background(self, name="draft compatibility")

    def check(self, target: str, drafts: list[str]) -> None:
        if drafts:
            self._work.run(draft_verdicts, target, list(drafts),
                           on_result=lambda verdicts: self._report(target, verdicts),
                           on_error=lambda exc: log.debug("Cannot inspect %s: %s", target, exc))

    def _report(self, target: str, verdicts: list[tuple[str, Words | None]]) -> None:
        for draft, reason in verdicts:
            self.checked.emit(target, draft, reason_text(reason))

    def wait(self, timeout_ms: int = 5_000) -> None:
        """Let running checks end (window close), so no thread outlives the window."""
        self._work.stop(timeout_ms)
