#!/usr/bin/env bash
# GPU offload, checked on a machine with an NVIDIA GPU (none was available where Draftlight
# is developed; docs/BENCHMARKS.md says so): builds llama.cpp with CUDA, proves the build
# offloads, runs the lossless and distribution tests with every layer on the GPU, then the
# spec bench. Prints its figures for docs/BENCHMARKS.md.
#
#   bash bench/gpu_check.sh            # minutes: a CUDA build of llama.cpp, then the tests
set -euo pipefail
cd "$(dirname "$0")/.."
nvidia-smi -L
DRAFTLIGHT_CUDA=1 bash scripts/setup.sh
# shellcheck disable=SC1091
. .venv/bin/activate
python - <<'PY'
import llama_cpp
assert llama_cpp.llama_supports_gpu_offload(), "this llama.cpp cannot offload: not a CUDA build"
print(llama_cpp.llama_print_system_info().decode())
PY
# GPU layers "auto" (-1) puts every layer on the GPU in a CUDA build: the engine's default.
python -m pytest -q tests/engine/test_runtime.py tests/engine/test_lossless.py \
    tests/engine/test_sampling_distribution.py tests/engine/test_adaptive_k.py
python bench/spec_bench.py --tokens 128 --repeats 3
