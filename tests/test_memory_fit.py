"""The fit estimate counts an NVIDIA GPU's memory (read from nvidia-smi, once), so a model
too big for RAM alone fits a machine whose GPU takes its layers."""

from __future__ import annotations

import subprocess

from backend.models import memory
from backend.models.memory import Fit, Memory, estimate

GIB = 2**30


def test_a_gpu_makes_room_for_a_model_too_big_for_ram():
    parts = [(12 * GIB, 1 * GIB)]
    ram_only = Memory(total=8 * GIB, available=6 * GIB)
    with_gpu = Memory(total=8 * GIB, available=6 * GIB, gpu_total=24 * GIB,
                      gpu_available=20 * GIB)
    assert estimate(parts, ram_only).fit == Fit.TOO_BIG
    assert estimate(parts, with_gpu).fit == Fit.FITS
    busy_gpu = Memory(total=8 * GIB, available=6 * GIB, gpu_total=24 * GIB, gpu_available=GIB)
    assert estimate(parts, busy_gpu).fit == Fit.TIGHT


def test_with_every_layer_on_the_gpu_the_model_must_fit_the_gpu_alone():
    """GPU layers auto: llama.cpp puts every layer on the GPU and fails rather than spill to
    RAM, so RAM and GPU do not add up; a model too big for the GPU is said to be."""
    parts = [(12 * GIB, 1 * GIB)]  # about 14.3 GiB with its buffers

    def machine(ram, ram_free, gpu, gpu_free):
        return Memory(total=ram * GIB, available=ram_free * GIB, gpu_total=gpu * GIB,
                      gpu_available=gpu_free * GIB, gpu_takes_all=True)

    assert estimate(parts, machine(8, 6, 24, 20)).fit == Fit.FITS  # RAM need not hold it
    assert estimate(parts, machine(8, 6, 24, 10)).fit == Fit.TIGHT
    assert estimate(parts, machine(32, 30, 8, 8)).fit == Fit.GPU_TOO_SMALL
    assert estimate(parts, machine(4, 4, 8, 8)).fit == Fit.TOO_BIG  # nowhere, even split
    pooled = Memory(total=8 * GIB, available=8 * GIB, gpu_total=8 * GIB, gpu_available=8 * GIB)
    assert estimate(parts, pooled).fit == Fit.FITS  # a number of GPU layers: the two add up


def test_nvidia_smi_is_read_once_and_its_absence_is_zero(monkeypatch):
    calls = []

    def fake_run(args, **kwargs):
        calls.append(args)
        return subprocess.CompletedProcess(args, 0, stdout="81559, 80000\n81559, 1000\n")

    memory.gpu_memory.cache_clear()
    monkeypatch.setattr(memory.shutil, "which", lambda name: "/usr/bin/nvidia-smi")
    monkeypatch.setattr(memory.subprocess, "run", fake_run)
    try:
        assert memory.gpu_memory() == (2 * 81559 * 2**20, 81000 * 2**20)
        memory.gpu_memory()
        assert len(calls) == 1
        memory.gpu_memory.cache_clear()
        monkeypatch.setattr(memory.shutil, "which", lambda name: None)
        assert memory.gpu_memory() == (0, 0)
    finally:
        memory.gpu_memory.cache_clear()


def test_a_gpu_counts_only_where_the_llama_cpp_build_can_use_it(monkeypatch, tmp_path):
    from backend.engine import runtime

    monkeypatch.setattr(memory, "gpu_memory", lambda: (24 * GIB, 20 * GIB))
    record = tmp_path / runtime.EXACT_RECORD
    monkeypatch.setattr(runtime.sys, "prefix", str(tmp_path))
    record.write_text("key=1\ncmake_args=-DGGML_LLAMAFILE=OFF -DGGML_CUDA=on\ncflags=\n")
    assert memory.system_memory().gpu_total == 24 * GIB
    record.write_text("key=2\ncmake_args=-DGGML_LLAMAFILE=OFF\ncflags=\n")  # a CPU build
    assert memory.system_memory().gpu_total == 0 and memory.system_memory().gpu_available == 0
    record.unlink()  # llama-cpp-python from elsewhere: it may offload
    assert memory.system_memory().gpu_available == 20 * GIB


def test_gpu_layers_0_keeps_the_gpu_out_of_the_fit(monkeypatch, tmp_path):
    """With a CUDA build and GPU layers 0, every layer is in RAM: the GPU makes no room."""
    from backend.engine import runtime

    monkeypatch.setattr(memory, "gpu_memory", lambda: (24 * GIB, 20 * GIB))
    monkeypatch.setattr(runtime.sys, "prefix", str(tmp_path))
    (tmp_path / runtime.EXACT_RECORD).write_text("cmake_args=-DGGML_LLAMAFILE=OFF -DGGML_CUDA=on\n")
    assert memory.system_memory(gpu_layers=0).capacity == memory.system_memory(0).total
    assert not memory.system_memory(gpu_layers=0).gpu_takes_all
    auto = memory.system_memory(gpu_layers=-1)
    assert auto.gpu_total == 24 * GIB and auto.gpu_takes_all
    twelve = memory.system_memory(gpu_layers=12)
    assert twelve.gpu_available == 20 * GIB and not twelve.gpu_takes_all

