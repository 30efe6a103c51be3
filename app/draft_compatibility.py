"""Which draft candidates can draft for the target, found off the GUI thread.

Reading a GGUF's vocabulary takes up to a second, so each check runs on a short-lived
background thread and reports through a signal. The rule itself is the backend's
(`backend.models.vocab.incompatibility`), the same one the engine applies on load.
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

from PySide6.QtCore import QObject, Signal

log = logging.getLogger(__name__)


class DraftCompatibility(QObject):
    checked = Signal(str, str, object)  # target path, draft path, reason (None: compatible)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._lock = threading.Lock()
        self._inspections: dict[tuple[str, float], object] = {}
        self._threads: list[threading.Thread] = []

    def check(self, target: str, drafts: list[str]) -> None:
        if not drafts:
            return
        try:
            from backend.models.inspect import inspect_model
            from backend.models.vocab import incompatibility
        except ImportError:  # no inspection available: the engine's load will decide
            return
        thread = threading.Thread(
            target=self._run, args=(inspect_model, incompatibility, target, list(drafts)),
            name="draftlight-compat", daemon=True)
        self._threads = [t for t in self._threads if t.is_alive()] + [thread]
        thread.start()

    def wait(self, timeout_s: float = 5.0) -> None:
        """Let running checks end (window close), so no thread outlives the window."""
        for t in self._threads:
            t.join(timeout_s)

    def _inspect(self, inspect_model, path: str):
        key = (path, os.path.getmtime(path))
        with self._lock:
            if key in self._inspections:
                return self._inspections[key]
        result = inspect_model(path)
        with self._lock:
            self._inspections[key] = result
        return result

    def _run(self, inspect_model, incompatibility, target: str, drafts: list[str]) -> None:
        try:
            target_vocab = self._inspect(inspect_model, target).vocab
        except Exception:
            log.debug("Cannot inspect target %s", target, exc_info=True)
            return
        for draft in drafts:
            try:
                reason = incompatibility(target_vocab, self._inspect(inspect_model, draft).vocab)
            except FileNotFoundError:
                reason = f"{Path(draft).name} no longer exists."
            except Exception as exc:
                reason = f"{Path(draft).name} cannot be read as a GGUF model: {exc}"
            try:
                self.checked.emit(target, draft, reason)
            except RuntimeError:  # the window closed while we were reading
                return
