"""A CUDA build of llama.cpp that fails must not keep Draftlight from installing.

scripts/exact-kernels.sh and scripts/fast-kernels.sh build with CUDA where nvcc and a GPU are
present; where that build fails they build for the CPU instead, remember the failure (the
next start does not spend minutes failing again), and say so. They run here in a copy of
scripts/ with a fake GPU (nvcc, nvidia-smi) and a fake `python` whose `pip wheel` fails
whenever CMAKE_ARGS asks for CUDA, or never: no compiler runs, any machine can check it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from backend.engine.runtime import EXACT_RECORD, FAST_RECORD, GPU_BUILD_FLAG

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ("llama-recipe.sh", "llama-build.env", "gpu-flags.sh", "exact-kernels.sh",
           "fast-kernels.sh")

FAKE_PYTHON = r"""#!/usr/bin/env bash
# `python -c` (the cache tag), `python -m pip wheel|install`: logged, never network
case "$1" in
    -c) echo fake-311; exit 0 ;;
esac
shift 2  # -m pip
echo "$1 CMAKE_ARGS=${CMAKE_ARGS:-}" >> "$FAKE_LOG"
case "$1" in
    wheel)
        if [ "$FAKE_CUDA_BUILD" = fails ] && [[ "${CMAKE_ARGS:-}" == *GGML_CUDA* ]]; then
            echo "nvcc fatal: unsupported host compiler" >&2; exit 1
        fi
        while [ "$1" != -w ]; do shift; done
        touch "$2/llama_cpp_python-0.3.36-cp311-cp311-linux_x86_64.whl" ;;
    install)
        while [ $# -gt 0 ]; do [ "$1" = --target ] && mkdir -p "$2"; shift; done ;;
esac
"""


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A project copy whose .venv puts the fakes first on PATH."""
    (tmp_path / "scripts").mkdir()
    for name in SCRIPTS:
        shutil.copy(ROOT / "scripts" / name, tmp_path / "scripts" / name)
    fakes = tmp_path / "fakes"
    fakes.mkdir()
    for name, body in {"python": FAKE_PYTHON, "nvcc": "#!/bin/sh\nexit 0\n",
                       "nvidia-smi": "#!/bin/sh\necho 'GPU 0: Fake H200 (UUID: GPU-0)'\n"}.items():
        (fakes / name).write_text(body)
        (fakes / name).chmod(0o755)
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "activate").write_text(f'export PATH="{fakes}:$PATH"\n')
    return tmp_path


def run(tree: Path, script: str, cuda_build: str, cuda: str = "auto"
        ) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(tree / "cache"), "FAKE_LOG": str(tree / "log"),
           "FAKE_CUDA_BUILD": cuda_build, "DRAFTLIGHT_CUDA": cuda}
    return subprocess.run(["bash", f"scripts/{script}"], cwd=tree, env=env,
                          capture_output=True, text=True, timeout=120)


def run_shell(tree: Path, command: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(tree / "cache")}
    return subprocess.run(["bash", "-c", command], cwd=tree, env=env, capture_output=True,
                          text=True, timeout=120)


def wheel_builds(tree: Path) -> list[str]:
    log = tree / "log"
    lines = log.read_text().splitlines() if log.exists() else []
    return [line.split("CMAKE_ARGS=", 1)[1] for line in lines if line.startswith("wheel ")]


def recorded(tree: Path, record: str) -> dict[str, str]:
    lines = (tree / ".venv" / record).read_text().splitlines()
    return dict(line.split("=", 1) for line in lines)


@pytest.mark.parametrize(("script", "record", "flags"), [
    ("exact-kernels.sh", EXACT_RECORD, "-DGGML_LLAMAFILE=OFF"),
    ("fast-kernels.sh", FAST_RECORD, "-DGGML_LLAMAFILE=ON"),
])
def test_a_failed_cuda_build_falls_back_to_the_cpu_once(tree, script, record, flags):
    first = run(tree, script, cuda_build="fails")
    assert first.returncode == 0, first.stderr
    assert wheel_builds(tree) == [f"{flags} {GPU_BUILD_FLAG}", flags]
    assert recorded(tree, record)["cmake_args"] == flags
    assert f"could not be built with {GPU_BUILD_FLAG}" in first.stderr
    assert "delete" in first.stderr and "to try again" in first.stderr

    again = run(tree, script, cuda_build="fails")  # the next start: no second attempt
    assert again.returncode == 0, again.stderr
    assert wheel_builds(tree) == [f"{flags} {GPU_BUILD_FLAG}", flags]
    assert recorded(tree, record)["cmake_args"] == flags


def test_the_failure_is_recorded_where_native_sh_looks_for_it(tree):
    """bench/native.sh builds llama.cpp's own tools with the GPU only where the engine's build
    with it did not fail: it asks gpu_failure_record for the file with_gpu_fallback wrote."""
    flags = "-DGGML_LLAMAFILE=OFF"

    def recorded_failure() -> bool:
        out = run_shell(tree, f'. .venv/bin/activate; . scripts/llama-recipe.sh; '
                        f'test -f "$(gpu_failure_record "{flags} {GPU_BUILD_FLAG}")"')
        return out.returncode == 0

    assert not recorded_failure()
    assert run(tree, "exact-kernels.sh", cuda_build="fails").returncode == 0
    assert recorded_failure()


@pytest.mark.parametrize(("script", "record"), [
    ("exact-kernels.sh", EXACT_RECORD),
    ("fast-kernels.sh", FAST_RECORD),
])
def test_a_working_cuda_build_is_the_one_installed(tree, script, record):
    done = run(tree, script, cuda_build="works")
    assert done.returncode == 0, done.stderr
    assert len(wheel_builds(tree)) == 1
    assert recorded(tree, record)["cmake_args"].split()[-1] == GPU_BUILD_FLAG
    assert "warning" not in done.stderr


def test_a_forced_cuda_build_that_fails_is_an_error(tree):
    """bench/gpu_check.sh forces CUDA: a CPU build there would measure the wrong thing."""
    done = run(tree, "exact-kernels.sh", cuda_build="fails", cuda="1")
    assert done.returncode != 0
    assert wheel_builds(tree) == [f"-DGGML_LLAMAFILE=OFF {GPU_BUILD_FLAG}"]
    assert not (tree / ".venv" / EXACT_RECORD).exists()


def test_the_flag_the_scripts_add_is_the_one_the_window_reads(tree):
    """runtime.build_may_use_nvidia_gpu reads a CUDA build from the recorded flags."""
    from backend.engine.runtime import build_may_use_nvidia_gpu

    assert run(tree, "exact-kernels.sh", cuda_build="works").returncode == 0
    assert build_may_use_nvidia_gpu(tree / ".venv")
    cpu = tree / "cpu"
    cpu.mkdir()
    (cpu / EXACT_RECORD).write_text((tree / ".venv" / EXACT_RECORD).read_text().replace(
        f" {GPU_BUILD_FLAG}", ""))
    assert not build_may_use_nvidia_gpu(cpu)


def test_without_a_gpu_no_cuda_build_is_tried(tree):
    (tree / "fakes" / "nvidia-smi").write_text("#!/bin/sh\nexit 9\n")  # a toolkit, no driver
    done = run(tree, "exact-kernels.sh", cuda_build="fails")
    assert done.returncode == 0, done.stderr
    assert wheel_builds(tree) == ["-DGGML_LLAMAFILE=OFF"]
