"""Speculative decoding over llama-cpp-python's low-level API; yields events, knows no UI."""

from backend.engine.engine import Engine
from backend.engine.errors import EngineError, LoadCancelled
from backend.engine.model import ModelInfo

__all__ = ["Engine", "EngineError", "LoadCancelled", "ModelInfo"]
