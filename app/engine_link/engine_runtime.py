"""The engine process the settings ask for: their kernels and GPU layers, read each time one is
made, for the chat's engine and for a measurement's."""

from __future__ import annotations

from collections.abc import Callable

from backend.engine.protocol import EngineLike
from backend.engine.remote import EngineProcess
from backend.engine.runtime import EngineRuntime
from backend.settings import Settings


def engine_runtime(settings: Settings) -> EngineRuntime:
    """The settings' kernels and GPU layers; a value out of range falls back to the default
    (the settings file is checked on load, but a runtime must never stop the window)."""
    try:
        return EngineRuntime(settings.models.kernels, settings.models.gpu_layers)
    except ValueError:
        return EngineRuntime()


def engine_process_factory(settings: Settings) -> Callable[[], EngineLike]:
    return lambda: EngineProcess(engine_runtime(settings))
