#!/usr/bin/env bash
# The CMake flags for this machine's GPU, printed for scripts/setup.sh and fast-kernels.sh to
# add to the recipe's. CUDA when nvcc is on the PATH *and* the driver sees an NVIDIA GPU: a
# CUDA build on a machine without the driver cannot even be imported (libcuda.so.1 is missing),
# and a CI box or a container often carries the CUDA toolkit with no GPU. DRAFTLIGHT_CUDA=1
# forces CUDA (building for another machine), DRAFTLIGHT_CUDA=0 the CPU. On macOS llama.cpp
# turns Metal on by itself.
set -euo pipefail
has_gpu() { command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; }
case "${DRAFTLIGHT_CUDA:-auto}" in
    1) echo "-DGGML_CUDA=on" ;;
    0) ;;
    *) if command -v nvcc >/dev/null && has_gpu; then echo "-DGGML_CUDA=on"; fi ;;
esac
