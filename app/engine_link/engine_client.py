"""The GUI thread's handle on the engine worker: methods that send requests as queued
signals, and the worker's result signals re-emitted on the GUI thread."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable

from PySide6.QtCore import QObject, QThread, Signal

from app.engine_link.worker import EngineWorker, default_engine_factory
from backend.engine.protocol import EngineLike
from backend.engine.request import GenerationRequest

log = logging.getLogger(__name__)


class EngineClient(QObject):
    # Requests, delivered to the worker's slots on its thread.
    _sig_load_target = Signal(int, str, int, int)
    _sig_load_draft = Signal(int, str)
    _sig_load_demo = Signal(int, int, int)
    _sig_unload_draft = Signal()
    _sig_generate = Signal(object)
    _sig_reset_cache = Signal()
    _sig_restart_engine = Signal()
    _sig_shutdown = Signal()

    # Results, on the GUI thread (see EngineWorker for the arguments).
    load_progressed = Signal(str, float)
    load_failed = Signal(str, str)
    load_cancelled = Signal(str)
    models_changed = Signal(object, object)
    engine_restarted = Signal(object, object)
    events_emitted = Signal(int, object)

    def __init__(
        self,
        engine_factory: Callable[[], EngineLike] = default_engine_factory,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._thread = QThread()
        self._thread.setObjectName("draftlight-engine")
        self._worker = EngineWorker(engine_factory)
        self._worker.moveToThread(self._thread)
        w = self._worker
        self._sig_load_target.connect(w.load_target)
        self._sig_load_draft.connect(w.load_draft)
        self._sig_load_demo.connect(w.load_demo)
        self._sig_unload_draft.connect(w.unload_draft)
        self._sig_generate.connect(w.generate)
        self._sig_reset_cache.connect(w.reset_cache)
        self._sig_restart_engine.connect(w.drop_engine)
        self._sig_shutdown.connect(w.shutdown)
        w.load_progressed.connect(self.load_progressed)
        w.load_failed.connect(self.load_failed)
        w.load_cancelled.connect(self.load_cancelled)
        w.models_changed.connect(self.models_changed)
        w.engine_restarted.connect(self.engine_restarted)
        w.events_emitted.connect(self.events_emitted)
        self._last_request = 0
        self._last_load = 0
        self._closed = False
        self._thread.start()

    @property
    def engine_pid(self) -> int | None:
        """The engine process's id, while one runs (diagnostics, and the tests that kill it)."""
        return getattr(self._worker._engine, "pid", None)

    def load_target(self, path: str, n_ctx: int, n_threads: int) -> None:
        self._last_load += 1
        self._sig_load_target.emit(self._last_load, path, n_ctx, n_threads)

    def load_demo(self, n_ctx: int, n_threads: int) -> None:
        """Make (once) and load the offline demo pair's target; see EngineWorker.load_demo."""
        self._last_load += 1
        self._sig_load_demo.emit(self._last_load, n_ctx, n_threads)

    def load_draft(self, path: str) -> None:
        self._last_load += 1
        self._sig_load_draft.emit(self._last_load, path)

    def unload_draft(self) -> None:
        self._sig_unload_draft.emit()

    def reset_cache(self) -> None:
        self._sig_reset_cache.emit()

    def generate(self, request: GenerationRequest) -> int:
        """Queue a request; returns the id its events will carry."""
        self._last_request += 1
        self._sig_generate.emit(dataclasses.replace(request, request_id=self._last_request))
        return self._last_request

    def restart_engine(self) -> None:
        """Close the engine; the next load makes a new one from the factory (which reads the
        settings' kernels and GPU layers). Queued after whatever the worker is doing."""
        self._sig_restart_engine.emit()

    def set_step_delay(self, seconds: float) -> None:
        """Slow motion: show the steps of the answers from now on at most one per `seconds`
        (0: as they come). Display only: the engine runs and measures at full speed."""
        self._worker.step_delay_s = max(0.0, seconds)

    def stop(self) -> None:
        """Stop the running (and any queued) generation within one engine step."""
        self._worker.cancel_generation(self._last_request)

    def cancel_load(self) -> None:
        self._worker.cancel_load(self._last_load)

    def shutdown(self, timeout_ms: int = 10_000) -> bool:
        """Stop everything, free the engine on its thread, and wait (bounded) for the thread.
        Returns False if the thread did not end in time."""
        if self._closed:
            return True
        self._closed = True
        self.stop()
        self.cancel_load()
        self._sig_shutdown.emit()
        if not self._thread.wait(timeout_ms):
            log.error("The engine thread did not stop within %d ms", timeout_ms)
            return False
        return True
