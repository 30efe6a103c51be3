"""The offline first-run demo: the shipped SmolLM2-135M-Instruct (Q4_1) re-quantized into an
all-F32 target and a Q8_0 draft. One model at two precisions, so the draft agrees with the
target most of the time (~90%) and runs ~2.5x faster: a real pair with a real speedup, made in
seconds without any download.

Where the pair lives is known here, cheaply; making it runs llama.cpp's quantizer, so that is
`backend.engine.demo_pair.ensure_demo_pair`, run in the engine process."""

from __future__ import annotations

from pathlib import Path

from backend.models.library import default_models_dir

DEMO_TARGET = "SmolLM2-135M-Instruct-F32.gguf"
DEMO_DRAFT = "SmolLM2-135M-Instruct-Q8_0.gguf"


class DemoPairError(Exception):
    """The demo pair cannot be made; the message says why in words."""


def demo_pair(folder: Path | None = None) -> tuple[Path, Path]:
    """Where the demo target and draft live (whether or not they exist yet)."""
    folder = folder or default_models_dir() / "demo"
    return folder / DEMO_TARGET, folder / DEMO_DRAFT
