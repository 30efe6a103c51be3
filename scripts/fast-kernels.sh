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
RECORD=.venv/draftlight-fast-build

install_fast() {  # $1: the CMake flags
    local key dir
    key=$(llama_build_key "$1")
    dir="$BUILDS/fast/llama-cpp-python-$LLAMA_VERSION-$key"
    if [ ! -f "$dir/site/.complete" ]; then
        echo "Compiling llama.cpp's default (fast) build for the Kernels setting (once; several minutes)..."
        llama_compile "$1" "$dir.build/wheel" || return 1
        # only the llama_cpp package, in its own folder: the engine process puts it first on
        # its path
        rm -rf "$dir.build/site" && python -m pip install -q --no-deps --target \
            "$dir.build/site" "$dir.build/wheel"/llama_cpp_python-*.whl || return 1
        touch "$dir.build/site/.complete"
        rm -rf "$dir" && mv "$dir.build" "$dir"  # complete or absent, never half
    fi
    printf 'dir=%s\nkey=%s\ncmake_args=%s\ncflags=%s\n' "$dir/site" "$key" "$1" "$NO_AMX" \
        > "$RECORD"
    echo "fast kernels: $dir/site"
}

with_gpu_fallback install_fast "$LLAMA_FAST_CMAKE_ARGS"
