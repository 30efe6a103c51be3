#!/usr/bin/env bash
# Build llama.cpp's own llama-bench and llama-speculative-simple from the sources vendored in
# the pinned llama-cpp-python archive, so bench/spec_bench.py can compare the engine with the
# C++ tools on the same models. Not part of CI (it compiles for several minutes).
#
#   bash bench/native.sh            # prints the folder holding the binaries
#
# Built with the same recipe as our llama-cpp-python (scripts/llama-build.env: no llamafile
# sgemm, no AMX kernels, this machine's GPU where the engine's build has it) so both sides run
# the same matrix kernels and the ratio measures the decoding loop; the build folder is keyed
# by everything that shapes it (scripts/llama-recipe.sh). With NATIVE_FLAVOUR=default, with
# llama.cpp's default flags instead (llamafile on: what a stock llama.cpp user runs), to set
# beside the engine's fast kernels.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck disable=SC1091
. .venv/bin/activate
# The recipe made concrete for this machine (its GPU flags, the AMX flags its compiler takes)
# and the key that names a build by everything that shapes it, as for the engine's own builds.
# shellcheck disable=SC1091
. scripts/llama-recipe.sh
if [ "${NATIVE_FLAVOUR:-exact}" = default ]; then
    LLAMA_CMAKE_ARGS="$LLAMA_FAST_CMAKE_ARGS"
fi
# A GPU engine meets GPU tools: the GPU flags where the engine's own build with them did not
# fail and fall back to the CPU (scripts/llama-recipe.sh's with_gpu_fallback).
if [ -n "$GPU_FLAGS" ] && [ ! -f "$(gpu_failure_record "$LLAMA_CMAKE_ARGS $GPU_FLAGS")" ]; then
    LLAMA_CMAKE_ARGS="$LLAMA_CMAKE_ARGS $GPU_FLAGS"
fi
VERSION=$LLAMA_VERSION
KEY=$(llama_build_key "$LLAMA_CMAKE_ARGS" | cut -c1-12)
CACHE="$BUILDS/native-$VERSION-$KEY"
BIN="$CACHE/build/bin"
if [ -x "$BIN/llama-bench" ] && [ -x "$BIN/llama-speculative-simple" ]; then
    echo "$BIN"
    exit 0
fi
mkdir -p "$CACHE"
if [ ! -d "$CACHE/src" ]; then
    python -m pip download -q --no-deps --no-binary :all: "llama-cpp-python==$VERSION" -d "$CACHE" >&2
    mkdir -p "$CACHE/src"
    tar xzf "$CACHE/llama_cpp_python-$VERSION.tar.gz" -C "$CACHE/src" --strip-components=1
fi
# shellcheck disable=SC2086
CFLAGS="$NO_AMX" CXXFLAGS="$NO_AMX" \
cmake -S "$CACHE/src/vendor/llama.cpp" -B "$CACHE/build" -DCMAKE_BUILD_TYPE=Release \
    $LLAMA_CMAKE_ARGS -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_SERVER=OFF -DLLAMA_CURL=OFF \
    -DLLAMA_BUILD_EXAMPLES=ON -DLLAMA_BUILD_TOOLS=ON >&2
cmake --build "$CACHE/build" -j"$(nproc)" --target llama-bench llama-speculative-simple >&2
echo "$BIN"
