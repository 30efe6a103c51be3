"""How the engine process runs llama.cpp: which build (exact or fast kernels) and how many
layers go to a GPU. Fixed for the life of an engine process: choosing another restarts that
process, never the window. Light: imports nothing of llama.cpp.

The exact build is the venv's own llama-cpp-python (scripts/exact-kernels.sh: no llamafile
sgemm, so a verification batch sums as one token does and greedy output equals plain decoding
on the CPU). The fast
build is llama.cpp's default, made beside it by scripts/fast-kernels.sh, which records its
folder in the venv; the engine child puts that folder first on its import path before it
imports llama_cpp.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from backend import settings_schema as schema
from backend.words import Words, words

# Two tokens whose target probabilities are this close can swap places under another
# summation order (the fast kernels add a verification batch up differently than one token):
# what the lossless check calls a near-tie.
NEAR_TIE = 0.02
FAST_RECORD = "draftlight-fast-build"  # in the venv, written by scripts/fast-kernels.sh
EXACT_RECORD = "draftlight-llama-build"  # in the venv, written by scripts/exact-kernels.sh
GPU_BUILD_FLAG = "-DGGML_CUDA=on"  # what scripts/gpu-flags.sh adds for an NVIDIA GPU
# A folder holding another llama_cpp package to use as the fast build (a build of one's own;
# the tests point it at a copy): takes the place of the venv's record.
FAST_BUILD_ENV = "DRAFTLIGHT_FAST_BUILD"


@dataclass(frozen=True)
class EngineRuntime:
    kernels: str = schema.KERNELS.default
    n_gpu_layers: int = schema.GPU_LAYERS.default  # -1: all when llama.cpp has a GPU, else 0
    # K auto starts from what the last engine process measured with the same models and
    # build (backend/engine/k_auto_memory.py), rather than learning each launch afresh
    remember_k_auto: bool = True

    def __post_init__(self) -> None:
        schema.KERNELS.check(self.kernels)
        schema.GPU_LAYERS.check(self.n_gpu_layers)


def _record(prefix: Path | None = None, name: str = FAST_RECORD) -> dict[str, str]:
    path = (prefix or Path(sys.prefix)) / name
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return {}
    return dict(line.split("=", 1) for line in lines if "=" in line)


def fast_build_dir(prefix: Path | None = None) -> Path | None:
    """The fast build's folder, when it was built completely; None otherwise."""
    folder = os.environ.get(FAST_BUILD_ENV) or _record(prefix).get("dir")
    if folder and (Path(folder) / ".complete").is_file() and (Path(folder) / "llama_cpp").is_dir():
        return Path(folder)
    return None


def build_may_use_nvidia_gpu(prefix: Path | None = None) -> bool:
    """Whether the venv's llama.cpp may offload to an NVIDIA GPU, read from the record
    scripts/exact-kernels.sh writes (the window never imports llama.cpp): False where it was
    built for the CPU, as where a failed CUDA build fell back; True without a record (a
    llama-cpp-python installed some other way may have CUDA)."""
    record = _record(prefix, EXACT_RECORD)
    return not record or GPU_BUILD_FLAG in record.get("cmake_args", "").split()


FAST_NOT_BUILT = ("The fast kernels are not built on this machine: run scripts/fast-kernels.sh "
                  "(several minutes, once), then choose them again.")


def fast_unavailable_reason(prefix: Path | None = None) -> Words | None:
    """Why "fast" cannot be chosen, in words; None when it can."""
    if fast_build_dir(prefix) is not None:
        return None
    return words(FAST_NOT_BUILT)


# numpy's OpenBLAS starts a thread a core when it is imported, each spinning ~0.1 s then and
# after every BLAS call, on the cores llama.cpp's threads decode on; the engine makes none.
CHILD_ENVIRONMENT = {"OPENBLAS_NUM_THREADS": "1"}


def prepare_child(runtime: EngineRuntime) -> None:
    """In the engine process, before numpy or llama_cpp is imported: CHILD_ENVIRONMENT (where
    the user set none of it), and the chosen build first on the import path. Raises
    RuntimeError when the fast build is gone."""
    for name, value in CHILD_ENVIRONMENT.items():
        os.environ.setdefault(name, value)
    if runtime.kernels != "fast":
        return
    folder = fast_build_dir()
    if folder is None:
        raise RuntimeError(str(fast_unavailable_reason() or "no fast build"))
    sys.path.insert(0, str(folder))
