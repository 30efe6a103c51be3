#!/usr/bin/env bash
# Builds llama.cpp's default ("fast") build of the pinned llama-cpp-python once, beside the
# exact build setup.sh installs in .venv, and records where it is in .venv/draftlight-fast-build;
# the engine process loads it when the Kernels setting says "fast". Called by setup.sh; a
# failure only leaves that choice unavailable (the window says why).
#
#   bash scripts/fast-kernels.sh        # needs .venv (scripts/setup.sh) and network for pip
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck disable=SC1091
. .venv/bin/activate
# shellcheck disable=SC1091
. scripts/llama-recipe.sh
KEY=$(llama_build_key "$LLAMA_FAST_CMAKE_ARGS")
DIR="${XDG_CACHE_HOME:-$HOME/.cache}/draftlight/fast/llama-cpp-python-$LLAMA_VERSION-$KEY"
RECORD=.venv/draftlight-fast-build
if [ ! -f "$DIR/site/.complete" ]; then
    echo "Compiling llama.cpp's default (fast) build for the Kernels setting (once; several minutes)..."
    rm -rf "$DIR.tmp" && mkdir -p "$DIR.tmp/wheel"
    CMAKE_ARGS="$LLAMA_FAST_CMAKE_ARGS" CFLAGS="${CFLAGS:-} $NO_AMX" CXXFLAGS="${CXXFLAGS:-} $NO_AMX" \
    CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}" \
        python -m pip wheel -q --no-deps --no-cache-dir --no-binary llama-cpp-python \
        "llama-cpp-python==$LLAMA_VERSION" -w "$DIR.tmp/wheel"
    # only the llama_cpp package, in its own folder: the engine process puts it first on its path
    python -m pip install -q --no-deps --target "$DIR.tmp/site" "$DIR.tmp/wheel"/llama_cpp_python-*.whl
    touch "$DIR.tmp/site/.complete"
    rm -rf "$DIR" && mv "$DIR.tmp" "$DIR"  # complete or absent, never half
fi
printf 'dir=%s\nkey=%s\ncmake_args=%s\ncflags=%s\n' "$DIR/site" "$KEY" "$LLAMA_FAST_CMAKE_ARGS" \
    "$NO_AMX" > "$RECORD"
echo "fast kernels: $DIR/site"
