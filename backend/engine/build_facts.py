"""The llama.cpp build this process loaded, as K auto's memory and the pair measurements key
what they keep by it (backend/engine/k_auto_memory.py's `memory_key`). Only the engine's
process calls it: importing llama.cpp is what it does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from backend.engine.k_auto_memory import file_facts


def build_facts() -> dict[str, Any]:
    """The llama.cpp this process loaded: its binding's version, the features it was built
    with, and its library files (another build, exact or fast kernels, is another folder)."""
    import llama_cpp  # the engine process's; this module is otherwise free of it
    from llama_cpp import llama_cpp as lib

    library = Path(lib._lib._name).parent
    return {
        "version": str(llama_cpp.__version__),
        "features": llama_cpp.llama_print_system_info().decode(errors="replace").strip(),
        "library": [file_facts(p) for p in sorted(library.iterdir()) if p.is_file()],
    }
