"""Whether a model (and its draft) fits this machine's memory for a chosen context length.

The need is what llama.cpp allocates: the weights (about the file size, memory-mapped), the
F16 KV cache for the context, and a compute buffer. With a draft model, both models and both
caches are resident at once. The estimate errs a little on the safe side.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from enum import Enum

from backend.engine.runtime import build_may_use_nvidia_gpu

COMPUTE_OVERHEAD = 1.10  # compute buffers and allocator slack on top of weights + cache
FIXED_OVERHEAD = 256 * 2**20  # llama.cpp's own buffers, tokenizer tables, the app


class Fit(Enum):
    FITS = "fits"  # fits in the memory free now
    TIGHT = "tight"  # fits in the installed memory, but not in what is free now
    TOO_BIG = "too big"  # more than the installed memory
    # GPU layers auto puts every layer on the GPU, which cannot hold them all: it would load on
    # the CPU (backend/engine/model.py), or split with fewer GPU layers
    GPU_TOO_SMALL = "too big for the GPU"


@dataclass(frozen=True)
class MemoryEstimate:
    weights: int
    kv_cache: int
    total: int
    fit: Fit

    def describe(self) -> str:
        return f"needs about {_gib(self.total)} ({self.fit.value})"


@dataclass(frozen=True)
class Memory:
    total: int
    available: int
    # An NVIDIA GPU's memory, which holds the offloaded layers: what it takes off RAM counts
    # towards the fit. 0 without one.
    gpu_total: int = 0
    gpu_available: int = 0
    # Every layer goes to the GPU (GPU layers auto): then the model and its cache must fit the
    # GPU alone, as llama.cpp does not spill them to RAM. Otherwise (a number of layers, which
    # the estimate cannot weigh against a model's) the two memories count as one, hopefully.
    gpu_takes_all: bool = False

    @property
    def capacity(self) -> int:
        return self.total + self.gpu_total

    @property
    def free(self) -> int:
        return self.available + self.gpu_available


def system_memory(gpu_layers: int = -1) -> Memory:
    """Installed and currently available RAM, and the GPU memory that takes layers: none where
    the GPU layers setting (`gpu_layers`, -1 = auto) is 0. A number of layers short of all of
    them counts the whole GPU, as the estimate does not know a model's layers: it then errs on
    the hopeful side. Monkeypatch in tests to simulate a machine."""
    total = _sysconf_total()
    available = total
    if sys.platform.startswith("linux"):
        try:
            with open("/proc/meminfo", encoding="ascii") as f:
                for line in f:
                    if line.startswith("MemAvailable:"):
                        available = int(line.split()[1]) * 1024
                        break
        except OSError:
            pass
    # A GPU llama.cpp cannot use (a CPU build, as after a failed CUDA build) holds nothing,
    # and neither does one it is told not to use.
    usable = gpu_layers != 0 and build_may_use_nvidia_gpu()
    gpu_total, gpu_free = gpu_memory() if usable else (0, 0)
    return Memory(total=total, available=min(available, total) if total else available,
                  gpu_total=gpu_total, gpu_available=gpu_free,
                  gpu_takes_all=gpu_layers < 0 and gpu_total > 0)


@functools.cache
def gpu_memory() -> tuple[int, int]:
    """(total, free) bytes of the NVIDIA GPUs the driver lists, (0, 0) without any. Asked
    once per process: nvidia-smi takes a fraction of a second, and only where it exists."""
    if shutil.which("nvidia-smi") is None:
        return 0, 0
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=memory.total,memory.free",
                              "--format=csv,noheader,nounits"], capture_output=True, text=True,
                             timeout=5, check=True).stdout
        rows = [[int(x) for x in line.split(",")] for line in out.splitlines() if line.strip()]
    except (OSError, subprocess.SubprocessError, ValueError):
        return 0, 0
    mib = 2**20
    return sum(r[0] for r in rows) * mib, sum(r[1] for r in rows) * mib


def estimate(parts: list[tuple[int, int]], memory: Memory | None = None) -> MemoryEstimate:
    """`parts` are (weight bytes, KV-cache bytes) for the target and, if any, the draft."""
    memory = memory or system_memory()
    weights = sum(w for w, _ in parts)
    kv = sum(k for _, k in parts)
    on_device = int((weights + kv) * COMPUTE_OVERHEAD)
    total = on_device + FIXED_OVERHEAD
    if memory.gpu_takes_all:
        return MemoryEstimate(weights, kv, total, _fit_on_gpu(on_device, total, memory))
    if memory.total and total > memory.capacity:
        fit = Fit.TOO_BIG
    elif total > memory.free:
        fit = Fit.TIGHT
    else:
        fit = Fit.FITS
    return MemoryEstimate(weights, kv, total, fit)


def _fit_on_gpu(on_gpu: int, total: int, memory: Memory) -> Fit:
    """The fit with every layer on the GPU: weights, caches and compute buffers there, only
    llama.cpp's own buffers in RAM."""
    if on_gpu > memory.gpu_total:
        return Fit.GPU_TOO_SMALL if not memory.total or total <= memory.capacity else Fit.TOO_BIG
    if on_gpu > memory.gpu_available or total - on_gpu > memory.available:
        return Fit.TIGHT
    return Fit.FITS


def _sysconf_total() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        pass
    if sys.platform == "win32":
        import ctypes

        class _Status(ctypes.Structure):
            _fields_ = [
                ("dwLength", ctypes.c_ulong),
                ("dwMemoryLoad", ctypes.c_ulong),
                ("ullTotalPhys", ctypes.c_ulonglong),
                ("ullAvailPhys", ctypes.c_ulonglong),
                ("ullTotalPageFile", ctypes.c_ulonglong),
                ("ullAvailPageFile", ctypes.c_ulonglong),
                ("ullTotalVirtual", ctypes.c_ulonglong),
                ("ullAvailVirtual", ctypes.c_ulonglong),
                ("ullAvailExtendedVirtual", ctypes.c_ulonglong),
            ]

        status = _Status()
        status.dwLength = ctypes.sizeof(_Status)
        if ctypes.windll.kernel32.GlobalMemoryStatusEx(ctypes.byref(status)):  # type: ignore[attr-defined]
            return int(status.ullTotalPhys)
    return 0


def _gib(n: int) -> str:
    return f"{n / 2**30:.1f} GiB"
