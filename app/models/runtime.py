"""What the main window has chosen, as far as memory fits are concerned: the context size and
the loaded models. The model manager sizes every model against it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from backend.models.inspection import ModelFileError, inspect_model
from backend.settings_schema import N_CTX


@dataclass(frozen=True)
class RuntimeChoice:
    n_ctx: int = N_CTX.default
    target: str = ""  # path of the loaded target ("" = none)
    draft: str = ""  # path of the loaded draft ("" = none)
    draft_bytes: tuple[int, int] | None = None  # (weights, KV cache for n_ctx) once measured

    @property
    def draft_name(self) -> str:
        return Path(self.draft).name if self.draft else ""


def measure_draft(choice: RuntimeChoice) -> RuntimeChoice:
    """`choice` with its draft's weights and KV cache measured (reads the GGUF header: run it
    off the GUI thread). An unreadable draft counts as no draft."""
    if not choice.draft:
        return choice
    try:
        info = inspect_model(choice.draft)
    except ModelFileError:
        return RuntimeChoice(choice.n_ctx, choice.target, "", None)
    return RuntimeChoice(
        choice.n_ctx, choice.target, choice.draft,
        (info.file_size, info.kv_cache_bytes(choice.n_ctx)),
    )
