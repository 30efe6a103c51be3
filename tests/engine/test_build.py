"""The llama.cpp build keeps speculative decoding lossless and runs on every x86-64 CPU.

The AMX kernels crash on CPUs that have AMX, which this machine may not: so the tests prove
the recipe (the flags turn AMX off wherever -march would turn it on), that the installed build
was made with it, and the engine's fallback for a build made some other way — on any CPU.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import llama_cpp
import pytest

from backend.engine import cpu_features
from backend.engine.events import GenerationFinished
from backend.engine.remote import EngineProcess
from backend.engine.request import GenerationRequest, Message
from backend.engine.runtime import EXACT_RECORD

ROOT = Path(__file__).resolve().parents[2]
RECIPE = ROOT / "scripts" / "llama-build.env"
INSTALLED = Path(sys.prefix) / EXACT_RECORD  # written by scripts/exact-kernels.sh


def recipe() -> dict[str, str]:
    values = {}
    for line in RECIPE.read_text().splitlines():
        if "=" in line and not line.lstrip().startswith("#"):
            key, value = line.split("=", 1)
            values[key.strip()] = " ".join(shlex.split(value))
    return values


def installed_build() -> dict[str, str]:
    lines = INSTALLED.read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if "=" in line)


def amx_macros(*flags: str) -> list[str]:
    """The AMX macros the C compiler defines with these flags (what ggml's #ifs test)."""
    cc = shutil.which("cc") or shutil.which("gcc")
    assert cc, "setup.sh installs a C compiler"
    out = subprocess.run([cc, *flags, "-dM", "-E", "-x", "c", "/dev/null"],
                         capture_output=True, text=True, check=True).stdout
    return sorted(line.split()[1] for line in out.splitlines() if "__AMX" in line)


def test_llama_cpp_is_built_without_llamafile_sgemm():
    # llamafile's sgemm sums a batch's dot products in another order than the one-token
    # path, so verifying a draft batch and plain decoding could pick different tokens on
    # near-ties. scripts/exact-kernels.sh builds with GGML_LLAMAFILE=OFF; a stray default build
    # fails.
    info = llama_cpp.llama_print_system_info().decode()
    assert "LLAMAFILE = 1" not in info, info
    assert "-DGGML_LLAMAFILE=OFF" in recipe()["LLAMA_CMAKE_ARGS"]


def test_the_recipe_turns_amx_off_where_march_turns_it_on():
    """-march=native on a Xeon with AMX is -march=sapphirerapids (or newer): the recipe's
    flags must leave no AMX macro there, so ggml compiles no AMX kernel."""
    no_amx = recipe()["LLAMA_NO_AMX_CFLAGS"].split()
    try:
        with_amx = amx_macros("-march=sapphirerapids")
    except subprocess.CalledProcessError:
        # A compiler that does not know AMX CPUs cannot emit AMX code at all.
        with pytest.raises(subprocess.CalledProcessError):
            amx_macros("-mamx-int8")
        return
    assert "__AMX_INT8__" in with_amx  # the check can fail: the CPU's flags enable AMX…
    assert amx_macros("-march=sapphirerapids", *no_amx) == []  # …and the recipe removes it
    assert amx_macros(*no_amx, "-march=sapphirerapids") == []  # in either order


def test_the_installed_build_was_made_with_the_recipe():
    built = installed_build()
    # the recipe's flags, plus the GPU backend's where scripts/gpu-flags.sh found one
    assert built["cmake_args"].split()[:len(recipe()["LLAMA_CMAKE_ARGS"].split())] == (
        recipe()["LLAMA_CMAKE_ARGS"].split())
    assert set(recipe()["LLAMA_NO_AMX_CFLAGS"].split()) <= set(built["cflags"].split())
    info = llama_cpp.llama_print_system_info().decode()
    assert not cpu_features.build_has_amx(info), info
    assert "REPACK = 1" in info  # the safe repacked kernels stay


@pytest.mark.parametrize(("info", "allowed"), [
    ("CPU : AVX2 = 1 | AVX512 = 1 | REPACK = 1 |", True),
    ("CPU : AVX512 = 1 | AMX_INT8 = 1 | REPACK = 1 |", False),
    ("CPU : AMX_BF16 = 1 | AMX_TILE = 1 |", False),
    ("CPU : AMX_INT8 = 0 | REPACK = 1 |", True),
])
def test_a_build_with_amx_loads_models_without_its_buffer_types(info, allowed):
    assert cpu_features.extra_buffer_types_allowed(info) is allowed


def test_quantized_models_answer_alone_and_as_a_pair(test_models):
    """Q8_0 (the demo draft) answered alone, and the demo pair with spec type "draft": what
    crashed on AMX CPUs. In an engine process, so a crash is a failure, not a dead pytest."""
    request = GenerationRequest(messages=(Message("user", "Name three colours."),),
                                max_tokens=12)
    engine = EngineProcess()
    try:
        engine.load_target(test_models / "demo-draft-q8_0.gguf", n_ctx=512, n_threads=2)
        alone = list(engine.generate(request))[-1]
        assert isinstance(alone, GenerationFinished) and alone.stats.n_generated == 12, alone
        engine.load_target(test_models / "demo-target-f32.gguf", n_ctx=512, n_threads=2)
        engine.load_draft(test_models / "demo-draft-q8_0.gguf")
        paired = list(engine.generate(GenerationRequest(
            messages=request.messages, spec_type="draft", n_draft_max=4, max_tokens=12)))[-1]
        assert isinstance(paired, GenerationFinished) and paired.stats.n_accepted > 0, paired
    finally:
        engine.close()
