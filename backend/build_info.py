"""What llama.cpp this installation runs: its version and the features it was built with
(`llama_print_system_info`), asked of a short-lived child process.

The window's process never loads llama.cpp (import-linter contract; a native fault must not
take the window down), so, as `backend.engine.remote` does for the engine, the child imports
it by name. Help → About runs `probe()` off the GUI thread; it costs one process start
(~0.3 s here) and is asked once per window.
"""

from __future__ import annotations

import importlib
import multiprocessing
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait

PROBE_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class LlamaBuild:
    binding_version: str  # llama-cpp-python
    llama_version: str  # llama.cpp's own (llama_version())
    system_info: str  # "CPU : SSE3 = 1 | AVX = 1 | …", as llama.cpp prints it
    gpu_offload: bool

    def features(self) -> list[str]:
        """The features built in and usable here ("AVX2", "OPENMP"…), in llama.cpp's order."""
        found = []
        for part in self.system_info.replace("\n", "|").split("|"):
            name, _, value = part.partition("=")
            name = name.split(":")[-1].strip()
            if name and value.strip() not in ("", "0"):
                found.append(name)
        return found


def _child(conn: Connection) -> None:
    try:
        llama_cpp = importlib.import_module("llama_cpp")
        version = getattr(llama_cpp, "llama_version", None)
        conn.send(LlamaBuild(
            binding_version=str(llama_cpp.__version__),
            llama_version=version().decode(errors="replace") if version else "unknown",
            system_info=llama_cpp.llama_print_system_info().decode(errors="replace").strip(),
            gpu_offload=bool(llama_cpp.llama_supports_gpu_offload()),
        ))
    except Exception as exc:  # a broken install: said in About, not raised there
        conn.send(f"{type(exc).__name__}: {exc}")
    finally:
        conn.close()


def probe(timeout_s: float = PROBE_TIMEOUT_S) -> LlamaBuild:
    """Ask a child process; RuntimeError with the reason when it cannot say."""
    ctx = multiprocessing.get_context("spawn")  # never fork a process that runs Qt
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child,), name="draftlight-build-info", daemon=True)
    proc.start()
    child.close()  # else recv() would never see EOF if the child died
    try:
        ready = wait([parent, proc.sentinel], timeout=timeout_s)
        answer = parent.recv() if parent in ready else None
    except (EOFError, OSError):
        answer = None
    finally:
        parent.close()
        proc.join(timeout=5)
        if proc.is_alive():
            proc.kill()
            proc.join(timeout=5)
    if isinstance(answer, LlamaBuild):
        return answer
    if isinstance(answer, str):
        raise RuntimeError(f"llama.cpp could not be asked: {answer}")
    raise RuntimeError(f"llama.cpp could not be asked (the process ended with {proc.exitcode})")
