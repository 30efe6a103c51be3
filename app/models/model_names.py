"""How the window names a model: as its file is named (what a person saw when they saved or
chose it), never the GGUF's own `general.name`, which is often a training run's label; a
server's model by its id and host, since it has no file."""

from __future__ import annotations

from pathlib import Path

from backend.serving.target import is_server_path


def shown_name(info) -> str:
    """A loaded model's name (a ModelInfo): its file's name, or a server model's id @ host."""
    return info.name if is_server_path(info.path) else Path(info.path).name


def answer_model_file(settings: dict | None) -> str:
    """The file name of the model an answer was made with, from the settings saved beside it
    ("": not known, or a server's model, which keeps its own name)."""
    path = (settings or {}).get("model_path") or ""
    return "" if not path or is_server_path(path) else Path(path).name
