"""The engine process: owns the `Engine` and with it every llama.cpp object.

`serve` runs in a child process started by `backend.engine.remote.EngineProcess`. Commands
arrive on a pipe as `(op, kwargs)`; replies go back on the same pipe:

- `("progress", fraction)` while a model loads,
- `("events", [event, …])` while an answer streams, a step or a few steps at a time,
- `("ok", value, target_info, draft_info)` when a command is done,
- `("error", kind, message, words, target_info, draft_info)` for an `EngineError`
  ("engine"), a cancelled load ("cancelled") or a bug ("internal", words None), with the
  models held after it.

A native crash here ends only this process; the parent notices on the process's sentinel.
"""

from __future__ import annotations

import faulthandler
import logging
import os
import signal
import sys
from multiprocessing.connection import Connection
from typing import Any

from backend.engine import crash_hook
from backend.engine.errors import EngineError, LoadCancelled
from backend.engine.events import StepVerified
from backend.engine.outbox import Outbox
from backend.engine.protocol import Folding
from backend.engine.token_log import StepBatch
from backend.words import words_of


def serve(conn: Connection, cancel_generation: Any, cancel_load: Any, stderr_path: str,
          runtime: Any = None, engine: Any = None) -> None:
    """The child's main loop, until a "close" command or the parent goes away. `engine`: what
    answers, an Engine on `runtime` where None (bench/ui_bench.py serves a stand-in that
    streams as fast as it can, so that the window meets it as it meets a model)."""
    _redirect_stderr(stderr_path)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C in a terminal is the window's to handle
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    if engine is None:
        from backend.engine.engine import Engine  # llama.cpp is loaded in this process only
        from backend.engine.k_auto_memory import KAutoMemory

        n_gpu_layers = runtime.n_gpu_layers if runtime is not None else -1
        memory = KAutoMemory() if runtime is None or runtime.remember_k_auto else None
        engine = Engine(cancel_event=cancel_generation, n_gpu_layers=n_gpu_layers,
                        k_auto_memory=memory)
    host = _Host(conn, engine, cancel_load)
    try:
        host.loop()
    finally:
        host.engine.close()


def _redirect_stderr(path: str) -> None:
    """llama.cpp writes an assertion's text (GGML_ASSERT …) straight to file descriptor 2 just
    before it aborts: keep it in a file the parent reads to say what happened. Standard output
    goes there too: nothing of the engine's belongs on the window's or the command's output."""
    # On an abort ggml would otherwise attach gdb for a native backtrace: seconds of waiting
    # and a screenful of output, for a message that needs only the assertion's line.
    os.environ["GGML_NO_BACKTRACE"] = "1"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    sys.stderr = open(2, "w", buffering=1, closefd=False)  # noqa: SIM115 - lives as long as we do
    faulthandler.enable()  # a Python traceback in that file when native code faults


class _Host:
    def __init__(self, conn: Connection, engine, cancel_load) -> None:
        self.conn = conn
        self.engine = engine
        self.cancel_load = cancel_load

    def loop(self) -> None:
        while True:
            try:
                op, kwargs = self.conn.recv()
            except (EOFError, OSError):  # the window is gone: nothing left to serve
                return
            if op == "close":
                self.conn.send(("ok", None, None, None))
                return
            try:
                value = getattr(self, "op_" + op)(**kwargs)
            except LoadCancelled as exc:
                self._send_error("cancelled", str(exc), words_of(exc))
            except EngineError as exc:  # the English text, then its Words for the window
                self._send_error("engine", str(exc), words_of(exc))
            except Exception as exc:  # a bug: a message for the window, not a dead engine
                logging.getLogger(__name__).exception("Engine command %s failed", op)
                self._send_error("internal", f"{type(exc).__name__}: {exc}", None)
            else:
                self.conn.send(("ok", value, self.engine.target, self.engine.draft))

    def _send_error(self, kind: str, text: str, said) -> None:
        """With the models held after the failure: a failed load has put the previous ones
        back, and the parent must not think them gone."""
        self.conn.send(("error", kind, text, said, self.engine.target, self.engine.draft))

    def _progress(self, fraction: float) -> bool:
        self.conn.send(("progress", fraction))
        return not self.cancel_load.is_set()

    def op_load_target(self, path: str, n_ctx: int, n_threads: int | None) -> None:
        self.cancel_load.clear()
        _crash_if_armed("load", path)
        self.engine.load_target(path, n_ctx=n_ctx, n_threads=n_threads, progress=self._progress)

    def op_load_demo(self, n_ctx: int, n_threads: int | None) -> tuple[str, str]:
        self.cancel_load.clear()
        return self.engine.load_demo(n_ctx=n_ctx, n_threads=n_threads, progress=self._progress)

    def op_load_draft(self, path: str) -> None:
        self.cancel_load.clear()
        _crash_if_armed("load", path)
        self.engine.load_draft(path, progress=self._progress)

    def op_unload_draft(self) -> None:
        self.engine.unload_draft()

    def op_build_info(self) -> dict[str, Any]:
        import llama_cpp  # already loaded by the engine: the build this process runs

        return {"module": llama_cpp.__file__,
                "system_info": llama_cpp.llama_print_system_info().decode(errors="replace"),
                "gpu_offload": bool(llama_cpp.llama_supports_gpu_offload())}

    def op_reset_cache(self) -> None:
        self.engine.reset_cache()

    def op_generate(self, request, folded: bool = False) -> None:
        outbox = Outbox(self.conn, fold=folded)
        engine = self.engine
        try:
            for event in (engine.generate_folded(request)
                          if folded and isinstance(engine, Folding) else engine.generate(request)):
                outbox.put(event)
                armed = crash_hook.due("step", _steps(event))
                if armed:  # after the steps so far reached the window, as a real crash may
                    outbox.close()
                    crash_hook.fire(armed)
        finally:
            outbox.close()


def _steps(event: Any) -> range:
    """The numbers of the steps an event holds."""
    kind = type(event)
    if kind is StepVerified:
        return range(event.step, event.step + 1)
    if kind is StepBatch:
        numbers = event.tokens.step
        return range(numbers[0], numbers[-1] + 1) if numbers else range(0)
    return range(0)


def _crash_if_armed(at: str, value: str) -> None:
    armed = crash_hook.due(at, value)
    if armed:
        crash_hook.fire(armed)
