"""`EngineProcess`: the engine in a child process, behind the same methods as `Engine`.

Every llama.cpp object lives in the child (`backend.engine.host`), so a native fault — a CPU
kernel's segfault, a GGML_ASSERT reached by an unusual GGUF, the OOM killer — ends the child
and never the caller. This module imports nothing that loads llama.cpp: the window's process
uses it without ever importing `llama_cpp`.

Why stdlib `multiprocessing` with the spawn context: it works alike on Linux, macOS and
Windows and inside a PyInstaller bundle (with `freeze_support`), never forks a process that
runs Qt or llama.cpp threads, gives a pipe of pickled objects (the engine's frozen event
dataclasses cross as they are), an `Event` the child can poll between steps for Stop, and a
`sentinel` that becomes ready when the child dies, however it dies.

When the child dies, the running call ends: a load raises `EngineCrashed`, `generate` yields
`GenerationFailed(crashed=True)` after the steps that had arrived. `restart()` starts a new
child and loads again the models that deserve it (see `_plan_recovery`).
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import multiprocessing
import os
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, cast

from backend.engine import exit_status
from backend.engine.errors import EngineCrashed, EngineError, LoadCancelled
from backend.engine.events import Event, GenerationFailed, GenerationFinished
from backend.engine.model_info import ModelInfo
from backend.engine.protocol import ProgressFn
from backend.engine.request import GenerationRequest
from backend.engine.runtime import EngineRuntime, fast_unavailable_reason, prepare_child
from backend.engine.token_log import StepBatch
from backend.words import Words, words, words_of

log = logging.getLogger(__name__)

CLOSE_TIMEOUT_S = 10.0
# An assertion or fatal error as llama.cpp and CPython print it just before aborting.
# (faulthandler's "Fatal Python error: Segmentation fault" only repeats the signal.)
_FATAL_LINE = re.compile(r"(GGML_ASSERT\(.*\) failed|GGML_ABORT.*|terminate called .*"
                         r"|\w+Error: .*)")


def _child_main(conn: Connection, cancel_generation, cancel_load, stderr_path: str,
                runtime: EngineRuntime) -> None:
    # The chosen llama.cpp build first on the path, before anything imports llama_cpp.
    prepare_child(runtime)
    # Imported by name in the child only, so that this module (and the window) never
    # imports the engine, and with it llama.cpp.
    importlib.import_module("backend.engine.host").serve(
        conn, cancel_generation, cancel_load, stderr_path, runtime)


# A crash in words: what happened (exit_status), then what the engine was doing.
CRASHED = "{what} {doing}."
CRASHED_AT = "{what} {doing}: {fatal}."
NOT_RELOADED = ("{crash} {name} was not loaded again, since it crashed the engine before "
                "finishing an answer: choose another model.")
NOT_RELOADED_DRAFT = ("{crash} {name} was not loaded again, since it crashed the engine before "
                      "finishing an answer: choose another draft model.")
WAITING = "while waiting for its next request"
LOADING = "while loading {name}"
LOADING_AGAIN = "while loading {name} again"
LOADING_DRAFT = "while loading {name} as the draft"
MAKING_DEMO = "while making and loading the demo models"
UNLOADING_DRAFT = "while unloading the draft model"
CLEARING_CACHE = "while clearing its cache"
DESCRIBING = "while describing its build"
CLOSING = "while closing"
ANSWERING = "while answering with {target}"
ANSWERING_PAIR = "while answering with {target} as the target and {draft} as the draft"


@dataclass
class _Loaded:
    """A model the engine holds, and how to load it again after a crash."""

    role: str  # "target" | "draft"
    path: str
    kwargs: dict
    proven: bool = False  # finished an answer since it was (re)loaded

    @property
    def name(self) -> str:
        return Path(self.path).name


class EngineProcess:
    """Engine-like: `load_target`, `load_demo`, `load_draft`, `unload_draft`, `reset_cache`,
    `generate`, `cancel`, `close`, and `target`/`draft` (ModelInfo or None). All methods but
    `cancel` must be called from one thread."""

    # What the child runs: picklable, with _child_main's arguments (a bench's stand-in engine
    # is served through the same pipe and outbox as the real one).
    child_main: Any = staticmethod(_child_main)

    def __init__(self, runtime: EngineRuntime | None = None) -> None:
        """`runtime`: which llama.cpp build and how many GPU layers (backend/engine/runtime.py);
        refused in words when the fast build is not there."""
        self.runtime = runtime or EngineRuntime()
        if self.runtime.kernels == "fast":
            reason = fast_unavailable_reason()
            if reason is not None:
                raise EngineError(reason)
        self._mp = multiprocessing.get_context("spawn")
        self._cancel_generation = self._mp.Event()
        self._cancel_load = self._mp.Event()
        self._proc: Any = None
        self._conn: Connection | None = None
        self._log_path = ""
        self._loaded: list[_Loaded] = []
        self._crashes_since_answer = 0
        self._doing = Words("")  # what the child is doing, for the words of a crash
        self._loading = False  # …and whether it is loading a model (the one to blame, then)
        self.target: ModelInfo | None = None
        self.draft: ModelInfo | None = None
        self.dropped: list[tuple[str, Words]] = []  # (role, why) left out by the last crash
        self._start()

    # -- the child process ---------------------------------------------------------------
    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def _start(self) -> None:
        fd, self._log_path = tempfile.mkstemp(prefix="draftlight-engine-", suffix=".log")
        os.close(fd)
        parent, child = self._mp.Pipe()
        self._proc = self._mp.Process(
            target=self.child_main, name="draftlight-engine", daemon=True,
            args=(child, self._cancel_generation, self._cancel_load, self._log_path,
                  self.runtime))
        self._proc.start()
        child.close()  # else recv() would never see EOF when the child dies
        self._conn = parent

    def _ensure_started(self) -> None:
        if self._proc is None:
            self._start()

    def _recv(self) -> tuple:
        assert self._conn is not None and self._proc is not None
        ready = wait([self._conn, self._proc.sentinel])
        if self._conn in ready:  # data first: what the child sent before dying still counts
            try:
                return self._conn.recv()
            except (EOFError, OSError):
                pass
        raise self._died()

    def _send(self, op: str, **kwargs) -> None:
        if self._proc is not None and not self._proc.is_alive():
            self._revive()
        self._ensure_started()
        assert self._conn is not None
        try:
            self._conn.send((op, kwargs))
        except (BrokenPipeError, OSError):
            raise self._died() from None

    def _revive(self) -> None:
        """The child died between two commands (killed while idle, say): start a new one with
        the same models first, so the command about to be sent does not fail for it."""
        doing, loading = self._doing, self._loading
        self._doing, self._loading = words(WAITING), False
        self._died()  # says what happened (in the log) and plans what to load again
        self.restart()
        self._doing, self._loading = doing, loading

    def _call(self, op: str, doing: Words, progress: ProgressFn | None = None, **kwargs):
        self._doing = doing
        self._loading = op.startswith("load")
        self._send(op, **kwargs)
        while True:
            msg = self._recv()
            kind = msg[0]
            if kind == "progress":
                if progress is not None and not progress(msg[1]):
                    self._cancel_load.set()
            elif kind == "ok":
                self.target, self.draft = msg[2], msg[3]
                return msg[1]
            elif kind == "error":
                said = msg[3] if msg[3] is not None else msg[2]  # Words, else the English text
                self.target, self.draft = msg[4], msg[5]
                held = {m.path for m in (self.target, self.draft) if m is not None}
                self._loaded = [m for m in self._loaded if m.path in held]
                if msg[1] == "cancelled":
                    raise LoadCancelled(said)
                raise EngineError(said)

    # -- crashes -------------------------------------------------------------------------
    def _died(self) -> EngineCrashed:
        """The child is gone: reap it, say what happened, decide what a restart reloads."""
        proc, self._proc = self._proc, None
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        proc.join(5.0)
        code = proc.exitcode
        tail = self._read_log_tail()
        fatal = [m.group(1) for line in tail for m in [_FATAL_LINE.search(line)] if m]
        message = (words(CRASHED_AT, what=exit_status.describe_words(code), doing=self._doing,
                         fatal=fatal[-1]) if fatal
                   else words(CRASHED, what=exit_status.describe_words(code), doing=self._doing))
        self.target = self.draft = None
        self.dropped = self._plan_recovery(code, message)
        log.error("%s", message)
        return EngineCrashed(message, exitcode=code, detail="\n".join(tail))

    def _plan_recovery(self, exitcode: int | None, message: Words) -> list[tuple[str, Words]]:
        """Which models a restart loads again, so that no file crashes the engine in a loop.

        A crash while loading is the loading file's: it was never added to what is loaded,
        the rest is kept. A crash while answering is laid on the models that have not
        finished an answer since they were (re)loaded — the draft first, as it is the newer
        and its batch is the one the target's plain calibration did not run; a model that did
        finish one is loaded again once, as suspect. A kill from outside (the OOM killer, a
        person) is forgiven once. So a bad model is out after at most three crashes."""
        if self._loading:
            return []
        self._crashes_since_answer += 1
        forgive = (not exit_status.is_fault(exitcode)) and self._crashes_since_answer < 2
        suspects = [] if forgive else [m for m in self._loaded if not m.proven]
        drop = [m for m in suspects if m.role == "draft"] or suspects
        if any(m.role == "target" for m in drop):
            drop = list(self._loaded)  # a draft drafts for its target: nothing to load it for
        self._loaded = [replace(m, proven=False) for m in self._loaded if m not in drop]
        return [(m.role, words(NOT_RELOADED_DRAFT if m.role == "draft" else NOT_RELOADED,
                               crash=message, name=m.name)) for m in drop]

    def _read_log_tail(self, lines: int = 40) -> list[str]:
        try:
            with open(self._log_path, "rb") as f:
                f.seek(0, os.SEEK_END)
                f.seek(max(0, f.tell() - 16384))
                return f.read().decode("utf-8", "replace").splitlines()[-lines:]
        except OSError:
            return []

    def restart(self, progress: ProgressFn | None = None) -> None:
        """After a crash: a new engine process with the models `_plan_recovery` kept. A model
        that fails to load again is dropped with its reason in `dropped`."""
        self._remove_log()
        self._start()
        for m in list(self._loaded):
            try:
                op = "load_target" if m.role == "target" else "load_draft"
                self._call(op, words(LOADING_AGAIN, name=m.name), progress, **m.kwargs)
            except EngineError as exc:
                self._loaded = [x for x in self._loaded if x is not m]
                self.dropped.append((m.role, words_of(exc)))
                if isinstance(exc, EngineCrashed):
                    return  # _died has already planned what is left

    # -- the engine's methods ------------------------------------------------------------
    def load_target(self, path: str | os.PathLike, *, n_ctx: int, n_threads: int | None = None,
                    progress: ProgressFn | None = None):
        kwargs = {"path": str(path), "n_ctx": n_ctx, "n_threads": n_threads}
        # `_loaded` keeps the previous models until the new one is in: the engine loads them
        # again when this load fails, and so does a restart when it crashes the engine.
        info = self._call("load_target", words(LOADING, name=Path(path).name), progress,
                          **kwargs)
        self._loaded = [_Loaded("target", str(path), kwargs)]
        return info if info is not None else self.target

    def load_demo(self, *, n_ctx: int, n_threads: int | None = None,
                  progress: ProgressFn | None = None) -> tuple[str, str]:
        """Make the first-run demo pair if needed and load its target; its paths."""
        target, draft = self._call("load_demo", words(MAKING_DEMO),
                                   progress, n_ctx=n_ctx, n_threads=n_threads)
        self._loaded = [_Loaded("target", target,
                                {"path": target, "n_ctx": n_ctx, "n_threads": n_threads})]
        return target, draft

    def load_draft(self, path: str | os.PathLike, *, progress: ProgressFn | None = None):
        name = Path(path).name
        self._call("load_draft", words(LOADING_DRAFT, name=name), progress, path=str(path))
        self._loaded = [m for m in self._loaded if m.role != "draft"]
        self._loaded.append(_Loaded("draft", str(path), {"path": str(path)}))
        return self.draft

    def unload_draft(self) -> None:
        self._loaded = [m for m in self._loaded if m.role != "draft"]
        if self._proc is not None:
            self._call("unload_draft", words(UNLOADING_DRAFT))

    def reset_cache(self) -> None:
        if self._proc is not None:
            self._call("reset_cache", words(CLEARING_CACHE))

    def build_info(self) -> dict[str, Any]:
        """The llama.cpp the engine process runs: its module's file, llama.cpp's system info
        line and whether it can offload to a GPU."""
        self._ensure_started()
        info: dict[str, Any] = self._call("build_info", words(DESCRIBING))
        return info

    def cancel(self) -> None:
        """Thread-safe: the running answer stops before its next step."""
        self._cancel_generation.set()

    def generate(self, request: GenerationRequest) -> Iterator[Event]:
        """The engine's events for `request`, as they come; a crash ends them with
        `GenerationFailed(crashed=True)`."""
        for group in self.generate_batches(request):
            yield from cast(list[Event], group)  # not folded: events alone

    def generate_batches(self, request: GenerationRequest, *, folded: bool = False
                         ) -> Iterator[list[Event | StepBatch]]:
        """The same events in the groups the engine process sent them (the steps its sender
        found at each look, a few ms apart: outbox.py), forwarded group by group; `folded`:
        each run of steps as one StepBatch, made there (the window keeps nothing else)."""
        self._doing = self._answering_words(request)
        self._loading = False
        finished = False
        try:
            self._send("generate", request=request, folded=folded)
            while True:
                msg = self._recv()
                if msg[0] == "events":
                    if isinstance(msg[1][-1], GenerationFinished):
                        self._answer_finished()
                    yield msg[1]
                elif msg[0] == "ok":
                    finished = True
                    return
                elif msg[0] == "error":
                    finished = True
                    yield [GenerationFailed(msg[2], words=msg[3] if len(msg) > 3 else None)]
                    return
        except EngineCrashed as exc:
            finished = True
            yield [GenerationFailed(str(exc), exc.detail, crashed=True, words=words_of(exc))]
        finally:
            if not finished and self._proc is not None:
                self._drain()

    def _drain(self) -> None:
        """The caller stopped reading mid-answer: stop the answer and read to its end, so the
        next command's replies are not mistaken for this one's."""
        self.cancel()
        with contextlib.suppress(EngineCrashed):
            while self._recv()[0] not in ("ok", "error"):
                pass

    def _answer_finished(self) -> None:
        for m in self._loaded:
            m.proven = True
        self._crashes_since_answer = 0

    def _answering_words(self, request: GenerationRequest) -> Words:
        target = next((m.name for m in self._loaded if m.role == "target"), "no model")
        draft = next((m.name for m in self._loaded if m.role == "draft"), None)
        if request.spec_type == "draft" and draft:
            return words(ANSWERING_PAIR, target=target, draft=draft)
        return words(ANSWERING, target=target)

    def close(self) -> None:
        """End the child (its memory, mapped model files included, goes back to the system)."""
        proc = self._proc
        if proc is not None and proc.is_alive():
            self.cancel()  # a running answer ends within a step, then "close" is read
            with contextlib.suppress(EngineError):
                self._call("close", words(CLOSING))
            proc.join(CLOSE_TIMEOUT_S)
            if proc.is_alive():
                log.error("The engine process did not exit; killing it")
                proc.kill()
                proc.join(CLOSE_TIMEOUT_S)
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self._proc = None
        self._loaded = []
        self.target = self.draft = None
        self._remove_log()

    def _remove_log(self) -> None:
        if self._log_path:
            with contextlib.suppress(OSError):
                os.unlink(self._log_path)
            self._log_path = ""
