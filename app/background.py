"""The app's one way to run work off the GUI thread (after Anki's `QueryOp`).

`Background.run(fn, *args, on_result=…, on_error=…)` runs `fn` on the owner's QThreadPool and
reports back through one queued signal, so the callbacks run on the GUI thread and `fn` never
touches a widget. `Background(serial=True)` runs its work one call at a time in the order
given (the chat store's writes). `stop` drops queued work and waits, with a timeout, for what
is running, so no thread outlives its window. (The engine has its own thread,
app.engine_link.worker, because it holds a conversation with the engine process rather
than running calls.)
"""

from __future__ import annotations

import contextlib
import itertools
import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot

log = logging.getLogger(__name__)

MAX_THREADS = 4  # e.g. a Hub search, a file listing, a header read and a library scan at once


class Background(QObject):
    finished = Signal(int, object, object)  # task id, result, exception (None on success)

    def __init__(self, parent: QObject | None = None, *, serial: bool = False,
                 name: str = "background") -> None:
        super().__init__(parent)
        self._name = name
        self._pool = QThreadPool(self)
        # One thread takes queued work first in, first out: calls run in the order given.
        self._pool.setMaxThreadCount(1 if serial else MAX_THREADS)
        # Idle threads end at once instead of lingering 30 s: none outlives the work it ran
        # (the tests fail a test that leaves a thread behind), and starting one costs little.
        self._pool.setExpiryTimeout(0)
        self._ids = itertools.count(1)
        self._callbacks: dict[int, tuple[Callable, Callable | None]] = {}
        self._stopped = False
        self.finished.connect(self._on_finished)

    def run(
        self,
        fn: Callable[..., Any],
        *args: Any,
        on_result: Callable[[Any], None],
        on_error: Callable[[Exception], None] | None = None,
    ) -> int:
        """Run `fn(*args)` on a pool thread; then `on_result(value)` or `on_error(exc)` on the
        GUI thread. An unexpected error without `on_error` is logged."""
        if self._stopped:
            return 0
        task_id = next(self._ids)
        self._callbacks[task_id] = (on_result, on_error)
        self._pool.start(_Task(self, task_id, fn, args))
        return task_id

    def wait(self, timeout_ms: int = 10_000) -> bool:
        """Let queued and running work finish (saving before the window closes)."""
        return self._pool.waitForDone(timeout_ms)

    def stop(self, timeout_ms: int = 10_000) -> bool:
        """Forget queued tasks and wait for running ones; False if some are still running."""
        self._stopped = True
        self._pool.clear()
        done = self._pool.waitForDone(timeout_ms)
        self._callbacks.clear()
        if not done:
            log.error("%s work still running after %d ms", self._name, timeout_ms)
        return done

    @Slot(int, object, object)
    def _on_finished(self, task_id: int, result: object, error: object) -> None:
        callbacks = self._callbacks.pop(task_id, None)
        if callbacks is None or self._stopped:
            return
        on_result, on_error = callbacks
        if error is None:
            on_result(result)
        elif on_error is not None:
            on_error(error)
        else:
            log.error("%s work failed", self._name, exc_info=error)


class _Task(QRunnable):
    def __init__(self, owner: Background, task_id: int, fn: Callable, args: tuple) -> None:
        super().__init__()
        self._owner = owner
        self._id = task_id
        self._fn = fn
        self._args = args

    def run(self) -> None:
        try:
            result, error = self._fn(*self._args), None
        except Exception as exc:  # reported to the GUI thread, never printed here
            result, error = None, exc
        with contextlib.suppress(RuntimeError):  # the window is already gone
            self._owner.finished.emit(self._id, result, error)
