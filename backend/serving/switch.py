"""`BackendSwitch`: the window's one engine, which is the local engine process or a server,
chosen by what is loaded: a `ServerTarget.path` makes the next answers go to that server,
a GGUF path to the local engine. Only one of them holds anything at a time (loading a server
model closes the engine process, which frees its memory; a GGUF closes the server client)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from backend.engine.events import Event
from backend.engine.model_info import ModelInfo
from backend.engine.protocol import Batched, EngineLike, ProgressFn, Recoverable
from backend.engine.request import GenerationRequest
from backend.engine.token_log import StepBatch
from backend.serving.report import SpecReport
from backend.serving.target import is_server_path, parse_server_path

if TYPE_CHECKING:  # imported when a server is first used: its HTTP client slows the start
    from backend.serving.engine import ServerEngine


class BackendSwitch:
    """Engine-like; `generate_batches` keeps the engine process's groups of events."""

    def __init__(self, local_factory: Callable[[], EngineLike]) -> None:
        self._local_factory = local_factory
        self._local: EngineLike | None = None
        self._server: ServerEngine | None = None
        self.dropped: list[tuple[str, str]] = []

    @property
    def active(self) -> EngineLike | ServerEngine | None:
        return self._server if self._server is not None else self._local

    @property
    def server(self) -> ServerEngine | None:
        return self._server

    @property
    def last_report(self) -> SpecReport | None:
        """What the server said about its last answer (None with the local engine)."""
        return self._server.last_report if self._server is not None else None

    @property
    def target(self) -> ModelInfo | None:
        engine = self.active
        return engine.target if engine is not None else None

    @property
    def draft(self) -> ModelInfo | None:
        engine = self.active
        return engine.draft if engine is not None else None

    @property
    def pid(self) -> int | None:
        return getattr(self._local, "pid", None)

    def _local_engine(self) -> EngineLike:
        if self._local is None:
            self._local = self._local_factory()
        return self._local

    def _close_server(self) -> None:
        """A local model is in: the server's client goes (only then, so that a local file
        that fails to load leaves the server answering)."""
        if self._server is not None:
            self._server.close()
            self._server = None

    def load_target(self, path: str | os.PathLike, *, n_ctx: int, n_threads: int | None = None,
                    progress: ProgressFn | None = None) -> ModelInfo | None:
        if is_server_path(str(path)):
            target = parse_server_path(str(path))
            from backend.serving.engine import ServerEngine

            server = ServerEngine(target.base_url)
            try:
                info = server.load_target(target.model, progress=progress)
            except Exception:
                server.close()
                raise
            if self._server is not None:
                self._server.close()
            self._server = server
            if self._local is not None:  # free the local models' memory
                self._local.close()
                self._local = None
            return info
        local = self._local_engine().load_target(path, n_ctx=n_ctx, n_threads=n_threads,
                                                 progress=progress)
        self._close_server()
        return local

    def load_demo(self, *, n_ctx: int, n_threads: int | None = None,
                  progress: ProgressFn | None = None) -> tuple[str, str]:
        paths = self._local_engine().load_demo(n_ctx=n_ctx, n_threads=n_threads,
                                               progress=progress)
        self._close_server()
        return paths

    def load_draft(self, path: str | os.PathLike, *,
                   progress: ProgressFn | None = None) -> ModelInfo | None:
        engine = self.active
        if engine is None:
            engine = self._local_engine()
        return engine.load_draft(path, progress=progress)

    def unload_draft(self) -> None:
        if self.active is not None:
            self.active.unload_draft()

    def reset_cache(self) -> None:
        if self.active is not None:
            self.active.reset_cache()

    def generate(self, request: GenerationRequest) -> Iterator[Event]:
        engine = self.active if self.active is not None else self._local_engine()
        return engine.generate(request)

    def generate_batches(self, request: GenerationRequest, *, folded: bool = False
                         ) -> Iterator[list[Event | StepBatch]]:
        engine = self.active if self.active is not None else self._local_engine()
        if isinstance(engine, Batched):
            yield from engine.generate_batches(request, folded=folded)
        else:  # a server's pieces arrive one by one, at the network's pace: each goes on
            for event in engine.generate(request):
                yield [event]

    def restart(self, progress: ProgressFn | None = None) -> None:
        if isinstance(self._local, Recoverable) and self._server is None:
            self._local.restart(progress)
            self.dropped = list(self._local.dropped)
            self._local.dropped = []

    def cancel(self) -> None:
        engine = self.active
        if engine is not None:
            engine.cancel()

    def close(self) -> None:
        for engine in (self._server, self._local):
            if engine is not None:
                engine.close()
        self._server = self._local = None
