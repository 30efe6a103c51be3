"""The engine process's runtime: the fast build is loaded from its own folder when chosen
(and refused in words when it is not there), the exact build otherwise; GPU layers reach
llama.cpp, with auto meaning all layers only where llama.cpp can offload."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import llama_cpp
import pytest

from backend.engine.engine import Engine
from backend.engine.errors import EngineError
from backend.engine.model import ALL_LAYERS
from backend.engine.remote import EngineProcess
from backend.engine.runtime import FAST_BUILD_ENV, EngineRuntime, fast_build_dir


def fake_fast_build(tmp_path: Path, *, complete: bool = True) -> Path:
    """A folder laid out as scripts/fast-kernels.sh leaves one, holding (a link to) this
    venv's llama_cpp: which copy the engine process imported tells which folder it used."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "llama_cpp").symlink_to(Path(llama_cpp.__file__).parent, target_is_directory=True)
    if complete:
        (site / ".complete").touch()
    return site


def test_settings_out_of_range_are_refused():
    with pytest.raises(ValueError, match="Kernels"):
        EngineRuntime("turbo")
    with pytest.raises(ValueError, match="GPU layers"):
        EngineRuntime("exact", -2)


def test_a_half_built_fast_build_is_not_offered(tmp_path, monkeypatch):
    monkeypatch.setenv(FAST_BUILD_ENV, str(fake_fast_build(tmp_path, complete=False)))
    assert fast_build_dir() is None
    with pytest.raises(EngineError, match="fast kernels are not built"):
        EngineProcess(EngineRuntime("fast"))


def test_the_engine_process_runs_the_chosen_build(tmp_path, monkeypatch, test_models):
    site = fake_fast_build(tmp_path)
    monkeypatch.setenv(FAST_BUILD_ENV, str(site))
    fast = EngineProcess(EngineRuntime("fast"))
    exact = EngineProcess(EngineRuntime("exact"))
    try:
        assert fast.build_info()["module"].startswith(str(site))
        assert not exact.build_info()["module"].startswith(str(site))
        # and it answers like any engine
        fast.load_target(test_models / "count-target.gguf", n_ctx=256, n_threads=1)
        from backend.engine.events import GenerationFinished
        from backend.engine.request import GenerationRequest
        end = list(fast.generate(GenerationRequest(prompt=" zero one", max_tokens=4)))[-1]
        assert isinstance(end, GenerationFinished) and end.stats.n_generated == 4
    finally:
        fast.close()
        exact.close()


def test_gpu_layers_reach_llama_cpp(test_models):
    auto = ALL_LAYERS if llama_cpp.llama_supports_gpu_offload() else 0
    for requested, expected in ((-1, auto), (0, 0), (7, 7)):
        engine = Engine(n_gpu_layers=requested)
        try:
            engine.load_target(test_models / "count-target.gguf", n_ctx=256, n_threads=1)
            assert engine._target.n_gpu_layers == expected
        finally:
            engine.close()


def gpu_too_small(monkeypatch):
    """llama.cpp on a machine whose GPU cannot hold the model: it offloads, and any load with
    layers on the GPU fails (as a CUDA build's does when the GPU's memory runs out)."""
    real_load = llama_cpp.llama_model_load_from_file
    loads = []

    def load(path, params):
        loads.append(params.n_gpu_layers)
        return None if params.n_gpu_layers > 0 else real_load(path, params)

    monkeypatch.setattr(llama_cpp, "llama_supports_gpu_offload", lambda: True)
    monkeypatch.setattr(llama_cpp, "llama_model_load_from_file", load)
    return loads


def test_gpu_layers_auto_loads_on_the_cpu_when_the_gpu_cannot_hold_the_model(
        monkeypatch, test_models):
    loads = gpu_too_small(monkeypatch)
    engine = Engine(n_gpu_layers=-1)
    try:
        info = engine.load_target(test_models / "count-target.gguf", n_ctx=256, n_threads=1)
        assert loads == [ALL_LAYERS, 0]
        assert info.gpu_fallback and not info.on_gpu
        assert engine._target.n_gpu_layers == 0
    finally:
        engine.close()


def test_a_chosen_number_of_gpu_layers_that_fails_says_so(monkeypatch, test_models):
    """A number the user chose is not overruled: the error names the GPU and the setting."""
    loads = gpu_too_small(monkeypatch)
    engine = Engine(n_gpu_layers=12)
    try:
        with pytest.raises(EngineError, match=r"with 12 layers on the GPU.*GPU layers lower"):
            engine.load_target(test_models / "count-target.gguf", n_ctx=256, n_threads=1)
        assert loads == [12]
    finally:
        engine.close()


def _threads_after_numpy(prepare: bool) -> int:
    """The threads of a fresh interpreter that imported numpy, after prepare_child or not (the
    user's own OPENBLAS_NUM_THREADS taken out of its environment)."""
    code = ("from backend.engine.runtime import EngineRuntime, prepare_child\n"
            f"if {prepare}: prepare_child(EngineRuntime('exact'))\n"
            "import numpy, psutil\n"
            "print(psutil.Process().num_threads())\n")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         capture_output=True, text=True, cwd=Path(__file__).parents[2])
    return int(out.stdout)


def test_the_engine_process_starts_no_blas_threads_beside_llama_cpps():
    """numpy's OpenBLAS would start a thread a core, spinning on the cores llama.cpp decodes
    on; the engine process starts with one thread for it (the engine makes no BLAS call)."""
    assert _threads_after_numpy(prepare=True) == 1
    if sys.platform == "linux":  # numpy's Linux wheels bring OpenBLAS (macOS's, Accelerate)
        assert _threads_after_numpy(prepare=False) >= min(2, os.cpu_count() or 1)
