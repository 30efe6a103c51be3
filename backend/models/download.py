"""A queue of model downloads with pause, resume and cancel, for the UI and the CLI.

One worker thread downloads one model at a time, in queue order (parallel downloads from one
host only share the same bandwidth). Observers get a `DownloadStatus` through a plain callable,
called on the worker thread: a Qt view forwards it with a queued signal. `close()` stops the
worker (a running download is paused, its partial file kept) and joins it.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path

from backend.models.hub import HubClient, HubModel
from backend.models.library import default_models_dir
from backend.models.transfer import (
    DownloadError,
    DownloadStopped,
    Progress,
    destination,
    discard_partial,
    download,
)
from backend.words import Words, words, words_of

CLOSED = "The download manager is closed."
FAILED_WITH = "The download failed ({error})."


class State(Enum):
    QUEUED = "queued"
    RUNNING = "downloading"
    PAUSED = "paused"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class DownloadStatus:
    job_id: int
    model: HubModel
    state: State
    done: int = 0
    total: int = 0
    speed: float = 0.0  # bytes per second
    eta: float | None = None  # seconds
    path: Path | None = None  # the first part, once DONE
    error: Words | None = None  # why it failed, in words (backend/words.py)
    # Order of this status among all the manager's changes. Observers are called outside the
    # lock from several threads (the caller's and the download thread), so a newer status
    # can reach them first; an observer keeps the highest `seq` per job.
    seq: int = 0


Observer = Callable[[DownloadStatus], None]


class DownloadManager:
    def __init__(
        self,
        client: HubClient | None = None,
        models_dir: Path | None = None,
        on_update: Observer | None = None,
    ) -> None:
        self.client = client or HubClient()
        self.models_dir = Path(models_dir) if models_dir else default_models_dir()
        self._on_update = on_update
        self._lock = threading.Condition()
        self._jobs: dict[int, DownloadStatus] = {}
        self._queue: deque[int] = deque()
        self._stops: dict[int, threading.Event] = {}
        self._cancel_requested: set[int] = set()
        self._ids = itertools.count(1)
        self._seqs = itertools.count(1)
        self._closing = False
        self._thread: threading.Thread | None = None

    def enqueue(self, model: HubModel) -> int:
        """Queue a model; refuses at once a name that would escape the models folder."""
        for part in model.parts:
            destination(self.models_dir, model.repo_id, part.path)
        with self._lock:
            if self._closing:
                raise DownloadError(words(CLOSED))
            job_id = next(self._ids)
            status = DownloadStatus(job_id, model, State.QUEUED, total=model.size,
                                    seq=next(self._seqs))
            self._jobs[job_id] = status
            self._queue.append(job_id)
            self._ensure_worker()
            self._lock.notify_all()
        self._notify(status)
        return job_id

    def pause(self, job_id: int) -> None:
        with self._lock:
            status = self._jobs[job_id]
            if status.state == State.RUNNING:
                self._stops[job_id].set()  # the worker marks it PAUSED when it stops
                return
            if status.state != State.QUEUED:
                return
            self._queue.remove(job_id)
            status = self._set(job_id, state=State.PAUSED)
        self._notify(status)

    def resume(self, job_id: int) -> None:
        with self._lock:
            if self._jobs[job_id].state not in (State.PAUSED, State.FAILED):
                return
            status = self._set(job_id, state=State.QUEUED, error=None)
            self._queue.append(job_id)
            self._ensure_worker()
            self._lock.notify_all()
        self._notify(status)

    def cancel(self, job_id: int) -> None:
        """Stop and forget a download, deleting its partial files."""
        with self._lock:
            status = self._jobs[job_id]
            if status.state == State.RUNNING:
                self._cancel_requested.add(job_id)
                self._stops[job_id].set()
                return
            if status.state in (State.DONE, State.CANCELLED):
                return
            if job_id in self._queue:
                self._queue.remove(job_id)
            status = self._set(job_id, state=State.CANCELLED)
        self._discard(status.model)
        self._notify(status)

    def status(self, job_id: int) -> DownloadStatus:
        with self._lock:
            return self._jobs[job_id]

    def wait(self, job_id: int, timeout: float | None = None) -> DownloadStatus:
        """Block until the job is DONE, FAILED, CANCELLED or PAUSED (for the CLI and tests)."""
        settled = (State.DONE, State.FAILED, State.CANCELLED, State.PAUSED)
        with self._lock:
            self._lock.wait_for(lambda: self._jobs[job_id].state in settled, timeout)
            return self._jobs[job_id]

    def close(self, timeout: float = 10.0) -> None:
        """Pause whatever runs (partial files stay for next time) and join the worker."""
        with self._lock:
            self._closing = True
            for event in self._stops.values():
                event.set()
            self._lock.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def __enter__(self) -> DownloadManager:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # The worker -------------------------------------------------------------------------------

    def _ensure_worker(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._work, name="draftlight-downloads")
            self._thread.start()

    def _work(self) -> None:
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._closing or bool(self._queue))
                if self._closing:
                    return
                job_id = self._queue.popleft()
                stop = self._stops[job_id] = threading.Event()
                status = self._set(job_id, state=State.RUNNING)
            self._notify(status)
            self._run(job_id, status.model, stop)

    def _run(self, job_id: int, model: HubModel, stop: threading.Event) -> None:
        done = 0
        try:
            headers = self.client.headers()
            first: Path | None = None
            for part in model.parts:
                dest = destination(self.models_dir, model.repo_id, part.path)
                download(
                    self.client.url(model.repo_id, part.path, model.revision),
                    dest,
                    size=part.size,
                    sha256=part.sha256,
                    headers=headers,
                    stop=stop,
                    on_progress=functools.partial(self._progress, job_id),
                    already_done=done,
                    overall_size=model.size,
                )
                first = first or dest
                done += part.size
            final = {"state": State.DONE, "done": model.size, "path": first, "eta": 0.0}
        except DownloadStopped:
            with self._lock:
                cancelled = job_id in self._cancel_requested
            if cancelled:
                self._discard(model)
            final = {"state": State.CANCELLED if cancelled else State.PAUSED, "speed": 0.0}
        except Exception as exc:  # every failure ends as a readable FAILED state
            said = words_of(exc) if str(exc) else words(FAILED_WITH, error=type(exc).__name__)
            final = {"state": State.FAILED, "error": said}
        with self._lock:
            self._stops.pop(job_id, None)
            self._cancel_requested.discard(job_id)
            status = self._set(job_id, **final)
            self._lock.notify_all()
        self._notify(status)

    def _progress(self, job_id: int, p: Progress) -> None:
        with self._lock:
            status = self._set(job_id, done=p.done, total=p.total, speed=p.speed, eta=p.eta)
        self._notify(status)

    def _set(self, job_id: int, **changes: object) -> DownloadStatus:
        changes["seq"] = next(self._seqs)
        status = replace(self._jobs[job_id], **changes)  # type: ignore[arg-type]
        self._jobs[job_id] = status
        return status

    def _discard(self, model: HubModel) -> None:
        for part in model.parts:
            with contextlib.suppress(DownloadError, OSError):
                discard_partial(destination(self.models_dir, model.repo_id, part.path))

    def _notify(self, status: DownloadStatus) -> None:
        if self._on_update is not None:
            with contextlib.suppress(Exception):  # an observer's bug must not kill the queue
                self._on_update(status)
