"""`draftlight --screenshot FILE --prompt TEXT`: load, answer, save the window, exit.
Without a prompt: load, save the window (an empty chat: the welcome view), exit."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Slot
from PySide6.QtWidgets import QApplication

from app.shell.main_window import MainWindow
from app.transcript.message_widgets import AnswerWidget

SETTLE_MS = 300  # let the last frame, the chart and the scroll position settle


class ScreenshotRun(QObject):
    def __init__(self, window: MainWindow, path: Path, prompt: str | None, *, timeout_s: float,
                 want_draft: bool, spec: str | None) -> None:
        super().__init__(window)
        self.window = window
        self.path = Path(path)
        self.prompt = prompt
        self.want_draft = want_draft
        self.spec = spec
        self.exit_code: int | None = None
        self._sent = False
        window.models_changed.connect(self._on_models_changed)
        window.load_failed.connect(self._on_load_failed)
        window.answer_finished.connect(self._on_answer_finished)
        self._timer = QTimer(self, singleShot=True, interval=int(timeout_s * 1000))
        self._timer.timeout.connect(self._on_timeout)
        self._timer.start()

    @Slot(object, object)
    def _on_models_changed(self, target, draft) -> None:
        if self._sent or self.exit_code is not None:
            return
        if target is None:
            self.fail("the model could not be loaded")
            return
        if self.want_draft and draft is None:
            self.fail("the draft model could not be loaded")
            return
        if self.spec and not self.window.panel.set_spec_type(self.spec):
            reason = self.window.panel.spec_reason(self.spec) or "unavailable"
            self.fail(f"spec type {self.spec!r} cannot be used: {reason}")
            return
        self._sent = True
        if self.prompt is None:  # the window as it opens, once its models are in
            self.finish_without_answer()
            return
        self.window.send(self.prompt)

    def finish_without_answer(self) -> None:
        """Save the window as it is (after it settles) and exit 0: no answer was asked for."""
        self._sent = True
        QTimer.singleShot(SETTLE_MS, self._finish_without_answer)

    def _finish_without_answer(self) -> None:
        if self.window.welcome.view.isVisible():
            print("draftlight: showing the welcome view", flush=True)
        self._finish(None)

    @Slot(str, str)
    def _on_load_failed(self, role: str, message: str) -> None:
        if self._sent:
            return  # a model left out after a crash mid-answer: the answer's end tells it
        self.fail(f"loading the {role} model failed: {message}")

    @Slot(object)
    def _on_answer_finished(self, widget: AnswerWidget) -> None:
        error = widget.answer.error
        if not error:
            print(f"draftlight: {widget.stats_label.text()}", flush=True)  # the shown numbers
        QTimer.singleShot(SETTLE_MS, lambda: self._finish(error))

    @Slot()
    def _on_timeout(self) -> None:
        self.window.flow.stop()
        self.fail("timed out waiting for the answer")

    def _finish(self, error: str | None) -> None:
        if error:
            self.fail(f"the generation failed: {error}")
            return
        if not self._save():
            self.fail(f"could not write {self.path}")
            return
        self._exit(0)

    def _save(self) -> bool:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        return self.window.grab().save(str(self.path))

    def fail(self, message: str) -> None:
        if self.exit_code is not None:
            return
        print(f"draftlight: {message}", file=sys.stderr)
        self._save()  # what the window showed helps explain the failure
        self._exit(1)

    def _exit(self, code: int) -> None:
        if self.exit_code is None:
            self.exit_code = code
            self._timer.stop()
            # Later, so a failure found before the event loop starts still ends it.
            QTimer.singleShot(0, lambda: QApplication.exit(code))
