#!/usr/bin/env bash
# GPU offload, checked on a machine with an NVIDIA GPU (none was available where Draftlight
# is developed; docs/BENCHMARKS.md says so): builds llama.cpp with CUDA, proves the build
# offloads, runs the lossless and distribution tests with every layer on the GPU, then the
# spec bench and its comparisons with llama.cpp's own tools, built with CUDA too. Prints its
# figures for docs/BENCHMARKS.md.
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
# (The test suite hides the GPU unless told otherwise: tests/conftest.py.)
export DRAFTLIGHT_TEST_GPU=1
python -m pytest -q tests/engine/test_runtime.py tests/engine/test_sampling_distribution.py \
    tests/engine/test_adaptive_k.py
# Token for token: CUDA verifies a batch with other kernels than one token, so greedy output
# may part from plain decoding at near-ties (the lossless check says so on a GPU). Where the
# strict tests fail, the differences are measured: each must be a near-tie.
python -m pytest -q tests/engine/test_lossless.py || python - <<'PY'
from backend.engine.engine import Engine
from backend.engine.events import StepVerified
from backend.engine.request import GenerationRequest, Message
from backend.engine.runtime import NEAR_TIE

def emitted(engine, request):
    return [t for e in engine.generate(request) if isinstance(e, StepVerified) for t in e.emitted]

engine = Engine()
_, draft = engine.load_demo(n_ctx=2048)  # the demo pair, every layer on the GPU
engine.load_draft(draft)
worst = 0.0
for prompt in ("Write a Python function that checks whether a number is prime.",
               "Tell a short story about a lighthouse keeper.", "List five fruits."):
    messages = (Message("user", prompt),)
    plain = emitted(engine, GenerationRequest(messages=messages, max_tokens=64))
    for k in (8, 0):
        spec = emitted(engine, GenerationRequest(messages=messages, spec_type="draft",
                                                 n_draft_max=k, max_tokens=64))
        for i, (p, s) in enumerate(zip(plain, spec, strict=False)):
            if p.id != s.id:
                top = p.verification.top_target
                margin = top[0].p - top[1].p
                worst = max(worst, margin)
                print(f"K={k or 'auto'} {prompt[:30]!r} token {i}: margin {margin:.4f}")
                break
print(f"largest margin at a difference {worst:.4f} (near-tie: <= {NEAR_TIE})")
raise SystemExit(worst > NEAR_TIE)
PY
python bench/spec_bench.py --tokens 128 --repeats 3 --native
# llama.cpp's default build (bench/native.sh builds both with CUDA here), beside the fast kernels
python bench/spec_bench.py --tokens 128 --repeats 3 --native-only --kernels fast
# GPU token rates for real: the 151,936-token stand-ins against llama-bench and
# llama-speculative-simple, and the window driven at that rate
python tests/models/build.py --large-vocab
python bench/large_vocab_bench.py --rounds 3 --tokens 256 --threads 4
python bench/generate_vs_llama.py --rounds 3 --threads 4
python bench/ui_bench.py --large-vocab --threads 4
# token trees against chains, where a batch row costs far less than a token of depth
python bench/tree_bench.py --repeats 3 --threads 4
