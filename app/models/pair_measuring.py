"""Measuring from the window: backend/models/pair_run.py's run, off the GUI thread, one at a
time, with its progress as signals.

A look at a target first recalls (what was kept shows at once; nothing is loaded, and with
nothing kept no process starts); Measure runs every candidate in an engine process of its
own, so the chat keeps its model and a crash there costs only the measurement. Cancel and a
new target never wait: the old run is told to stop and its late answer is dropped; Stop keeps
what was measured before it (kept on disk as each candidate is done).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from app.background import Background
from backend.models.draft_finder import PairFinding
from backend.models.pair_measure import DEFAULT_TOKENS
from backend.models.pair_run import EngineFactory, Measured, PairRun
from backend.words import Words


class PairMeasuring(QObject):
    progressed = Signal(float, object)  # fraction of the run, what is measured (Words)
    measured = Signal(object, bool)  # Measured, and whether it was only recalled
    partial = Signal(object)  # Measured so far, as each candidate is done
    _each = Signal(int, object)  # from the run's thread: its serial, Measured so far
    failed = Signal(object)  # the exception

    def __init__(self, tasks: Background, engine_factory: EngineFactory,
                 n_threads: Callable[[], int | None] = lambda: None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tasks, self._make_engine, self._n_threads = tasks, engine_factory, n_threads
        self._run: PairRun | None = None
        self._serial = 0
        self.tokens = DEFAULT_TOKENS
        self.measuring = False  # a Measure is running (a recall is quick and silent)
        self._each.connect(self._on_each)  # queued: emitted from the run's thread

    def recall(self, finding: PairFinding) -> None:
        self._start(finding, recall=True)

    def measure(self, finding: PairFinding) -> None:
        self._start(finding, recall=False)

    def stop(self) -> None:
        """Stop the run at its next step; what it measured before comes as its answer."""
        if self._run is not None:
            self._run.cancel()

    def cancel(self) -> None:
        """Stop the run at its next step; its answer is dropped."""
        self._serial += 1
        if self._run is not None:
            self._run.cancel()
        self._run = None
        self.measuring = False

    def _start(self, finding: PairFinding, *, recall: bool) -> None:
        self.cancel()
        serial = self._serial
        run = PairRun(finding, self.tokens, engine_factory=self._make_engine,
                      n_threads=self._n_threads())
        self._run, self.measuring = run, not recall
        done = threading.Event()

        def progress(fraction: float, said: Words) -> None:
            if not done.is_set():
                self.progressed.emit(fraction, said)  # queued to the GUI thread

        def each(so_far: Measured) -> None:
            self._each.emit(serial, so_far)

        def work() -> Measured:
            try:
                return run.recall() if recall else run.measure(progress, each)
            finally:
                done.set()
        self._tasks.run(work, on_result=lambda m: self._done(serial, m, recall),
                        on_error=lambda exc: self._failed(serial, exc))

    def _on_each(self, serial: int, so_far: Measured) -> None:
        if serial == self._serial and self.measuring:
            self.partial.emit(so_far)

    def _done(self, serial: int, measured: Measured, recall: bool) -> None:
        if serial != self._serial:
            return
        self._run, self.measuring = None, False
        self.measured.emit(measured, recall)

    def _failed(self, serial: int, exc: Exception) -> None:
        if serial != self._serial:
            return
        self._run, self.measuring = None, False
        self.failed.emit(exc)
