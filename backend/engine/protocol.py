"""What every engine offers its callers: the in-process `Engine`, the `EngineProcess` the app
and the command line use, and the fakes of the tests and benchmarks. Light: no llama.cpp."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Protocol, runtime_checkable

from backend.engine.events import Event
from backend.engine.model_info import ModelInfo
from backend.engine.request import GenerationRequest
from backend.engine.token_log import StepBatch
from backend.words import Words

ProgressFn = Callable[[float], bool]  # fraction loaded → False to cancel


@runtime_checkable
class EngineLike(Protocol):
    """Models loaded once, one request at a time, events out. Every method but `cancel` is
    called from one thread; `cancel` may come from any."""

    @property
    def target(self) -> ModelInfo | None: ...

    @property
    def draft(self) -> ModelInfo | None: ...

    def load_target(self, path: str | os.PathLike, *, n_ctx: int, n_threads: int | None = None,
                    progress: ProgressFn | None = None) -> ModelInfo | None: ...

    def load_demo(self, *, n_ctx: int, n_threads: int | None = None,
                  progress: ProgressFn | None = None) -> tuple[str, str]:
        """Make the first-run demo pair if needed and load its target; its two paths."""
        ...

    def load_draft(self, path: str | os.PathLike, *,
                   progress: ProgressFn | None = None) -> ModelInfo | None: ...

    def unload_draft(self) -> None: ...

    def reset_cache(self) -> None: ...

    def generate(self, request: GenerationRequest) -> Iterator[Event]: ...

    def cancel(self) -> None: ...

    def close(self) -> None: ...


@runtime_checkable
class Batched(Protocol):
    """An engine that hands its events over in the groups they were made in (`EngineProcess`:
    a pipe message each), so a consumer need not hold a step back to batch it."""

    def generate_batches(self, request: GenerationRequest, *, folded: bool = False
                         ) -> Iterator[list[Event | StepBatch]]: ...


@runtime_checkable
class Folding(Protocol):
    """An engine that may fold a run of steps itself (`Engine`: a plain answer read for its
    text alone, made a chunk of steps at a time), for a caller that wants them folded."""

    def generate_folded(self, request: GenerationRequest) -> Iterator[Event | StepBatch]: ...


@runtime_checkable
class Recoverable(Protocol):
    """An engine whose process can die and be started again (`EngineProcess`)."""

    dropped: list[tuple[str, Words]]  # (role, why) of the models the last restart left out

    def restart(self, progress: ProgressFn | None = None) -> None: ...
