"""The engine's thread in the window: one QThread talks to the engine process.

The engine (`backend.engine.remote.EngineProcess`) runs llama.cpp in a child process; this
thread sends it commands and waits for its replies, so the GUI thread never does. Requests
arrive as queued signals (slots below run on the worker thread, one at a time); results leave
as signals. Only `cancel_load` and `cancel_generation` are called from the GUI thread: they set
plain counters and call the engine's `cancel()`, its one thread-safe method.

When the engine process dies, the answer ends with a `GenerationFailed(crashed=True)` (or the
load fails with the crash's words), then `_recover` starts a new engine process with the
models that deserve it and reports the ones it left out.
"""

from __future__ import annotations

import logging
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path

from PySide6.QtCore import QObject, QThread, Signal, Slot

from app.backend_text import error_text, words_text
from app.teaching.slow_motion import paced
from backend.engine.errors import EngineCrashed, EngineError, LoadCancelled
from backend.engine.events import GenerationFailed, GenerationFinished, Stats, StepVerified
from backend.engine.protocol import Batched, EngineLike, Recoverable
from backend.engine.remote import EngineProcess
from backend.engine.token_log import fold_steps

log = logging.getLogger(__name__)

# Steps are sent to the GUI in batches at most this often: per-token signals back up Qt's
# queue and starve the GUI's timers (measured: docs/ARCHITECTURE.md, Processes and threads);
# 10 ms keeps the latency invisible.
BATCH_INTERVAL_S = 0.010
PROGRESS_STEP = 0.01  # report load progress in 1% steps, not on every callback


def default_engine_factory() -> EngineLike:
    return EngineProcess()


class EngineWorker(QObject):
    load_progressed = Signal(str, float)  # role ("target" | "draft"), fraction
    load_failed = Signal(str, str)  # role, message for the user
    load_cancelled = Signal(str)  # role
    models_changed = Signal(object, object)  # engine.target, engine.draft (ModelInfo | None)
    engine_restarted = Signal(object, object)  # the same, after a crash's restart
    events_emitted = Signal(int, object)  # request id, list of engine events and StepBatches

    def __init__(self, engine_factory: Callable[[], EngineLike] = default_engine_factory) -> None:
        super().__init__()
        self._factory = engine_factory
        self._engine: EngineLike | None = None
        # Highest ids the GUI has cancelled: ints are replaced atomically under the GIL, and
        # comparing ids means a Stop pressed before its request starts is not lost.
        self._cancelled_request = 0
        self._cancelled_load = 0
        # Slow motion (app/teaching/slow_motion.py): seconds between shown steps, set from the GUI
        # thread (a float replaced atomically), read here as each answer goes.
        self.step_delay_s = 0.0

    # Called from the GUI thread ----------------------------------------------------------

    def cancel_generation(self, request_id: int) -> None:
        self._cancelled_request = max(self._cancelled_request, request_id)
        engine = self._engine
        if engine is not None:
            engine.cancel()

    def cancel_load(self, load_id: int) -> None:
        self._cancelled_load = max(self._cancelled_load, load_id)

    # Slots: run on the worker thread -----------------------------------------------------

    def _ensure_engine(self):
        if self._engine is None:
            self._engine = self._factory()
        return self._engine

    @Slot(int, str, int, int)
    def load_target(self, load_id: int, path: str, n_ctx: int, n_threads: int) -> None:
        self._load("target", load_id, path, lambda e, progress: e.load_target(
            path, n_ctx=n_ctx, n_threads=n_threads or None, progress=progress))

    @Slot(int, int, int)
    def load_demo(self, load_id: int, n_ctx: int, n_threads: int) -> None:
        """The first-run demo: make the F32/Q8_0 pair from the shipped model if needed (a few
        seconds, in the engine process: it runs llama.cpp's quantizer), then load its target
        like any other."""
        self._load("target", load_id, self.tr("the demo models"), lambda e, progress: e.load_demo(
            n_ctx=n_ctx, n_threads=n_threads or None, progress=progress))

    @Slot(int, str)
    def load_draft(self, load_id: int, path: str) -> None:
        self._load("draft", load_id, path,
                   lambda e, progress: e.load_draft(path, progress=progress))

    def _load(self, role: str, load_id: int, path: str, load) -> None:
        if load_id <= self._cancelled_load:
            self.load_cancelled.emit(role)
            return
        last = -1.0

        def progress(fraction: float) -> bool:
            nonlocal last
            if fraction - last >= PROGRESS_STEP or fraction >= 1.0 > last:
                last = fraction
                self.load_progressed.emit(role, fraction)
            return load_id > self._cancelled_load

        try:
            engine = self._ensure_engine()
            self.load_progressed.emit(role, 0.0)
            load(engine, progress)
        except LoadCancelled:
            self.load_cancelled.emit(role)
        except EngineCrashed as exc:
            self.load_failed.emit(role, error_text(exc))
            self._recover(report=False)  # the load's own report below says what is loaded
        except EngineError as exc:
            self.load_failed.emit(role, error_text(exc))
        except Exception as exc:  # a crash here must become a message, not a dead thread
            log.exception("Loading %s failed", path)
            self.load_failed.emit(role, self.tr("Could not load {name}: {error}").format(
                name=Path(path).name, error=error_text(exc)))
        self._report_models()

    @Slot()
    def unload_draft(self) -> None:
        try:
            if self._engine is not None:
                self._engine.unload_draft()
        except Exception as exc:
            log.exception("Unloading the draft failed")
            self.load_failed.emit("draft", self.tr("Could not unload the draft model: {error}")
                                  .format(error=error_text(exc)))
        self._report_models()

    def _report_models(self) -> None:
        engine = self._engine
        if engine is None:  # the engine could not even be created
            self.models_changed.emit(None, None)
        else:
            self.models_changed.emit(engine.target, engine.draft)

    @Slot()
    def drop_engine(self) -> None:
        """Close the engine (its process and the memory it holds); the next command makes a
        new one from the factory, e.g. with other kernels or GPU layers."""
        engine, self._engine = self._engine, None
        if engine is not None:
            try:
                engine.close()
            except Exception:
                log.exception("Closing the engine failed")
        self.models_changed.emit(None, None)

    @Slot()
    def reset_cache(self) -> None:
        try:
            if self._engine is not None:
                self._engine.reset_cache()
        except Exception:
            log.exception("Resetting the cache failed")

    @Slot(object)
    def generate(self, request) -> None:
        rid = request.request_id
        if rid <= self._cancelled_request:
            self.events_emitted.emit(rid, [GenerationFinished("cancelled", "", Stats())])
            return
        event = None
        try:
            engine = self._ensure_engine()
            # slow motion paces step by step; else the engine process folds each run of steps
            # as fold_steps does below, where reading it back costs least (outbox.py)
            slow = self.step_delay_s > 0
            groups = (engine.generate_batches(request, folded=not slow)
                      if isinstance(engine, Batched)
                      else _timed_groups(engine.generate(request)))
            if slow:
                groups = paced(groups, lambda: self.step_delay_s,
                               lambda: self._cancelled_request >= rid)
            for group in groups:
                if self._cancelled_request >= rid:
                    engine.cancel()  # again: the engine may have cleared a flag set early
                event = group[-1]
                self.events_emitted.emit(rid, fold_steps(group))
        except Exception as exc:  # the engine reports failures as events; this is a bug
            log.exception("Generation crashed")
            event = GenerationFailed(self.tr("The generation stopped with an error: {error}")
                                     .format(error=error_text(exc)),
                                     traceback.format_exc())
            self.events_emitted.emit(rid, [event])
        if isinstance(event, GenerationFailed) and event.crashed:
            self._recover()

    def _recover(self, report: bool = True) -> None:
        """A new engine process after a crash, with the models it reloads; those it leaves
        out are reported as failed loads, with the reason."""
        engine = self._engine
        if not isinstance(engine, Recoverable):
            return
        try:
            engine.restart(progress=lambda fraction: self.load_progressed.emit("target", fraction)
                           or True)
        except Exception:
            log.exception("Restarting the engine failed")
        for role, message in engine.dropped:
            self.load_failed.emit(role, words_text(message))
        engine.dropped = []
        if report:
            self.engine_restarted.emit(engine.target, engine.draft)

    @Slot()
    def shutdown(self) -> None:
        """Free every llama.cpp object on the thread that made them, then end the thread."""
        try:
            if self._engine is not None:
                self._engine.close()
        except Exception:
            log.exception("Closing the engine failed")
        self._engine = None
        QThread.currentThread().quit()


def _timed_groups(events: Iterator) -> Iterator[list]:
    """Events of an engine that yields them one by one, grouped: a run of steps is held up to
    BATCH_INTERVAL_S, anything else goes at once with the steps before it."""
    group: list = []
    last = 0.0
    for event in events:
        group.append(event)
        if type(event) is StepVerified and time.perf_counter() - last < BATCH_INTERVAL_S:
            continue
        yield group
        group, last = [], time.perf_counter()
    if group:
        yield group
