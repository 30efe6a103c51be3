#!/usr/bin/env bash
# Builds and installs into .venv the "exact" llama.cpp (scripts/llama-build.env says why each
# flag is there): compiled once, several minutes on 2 cores, as llama-cpp-python has no binary
# wheel on PyPI; cached by scripts/llama-recipe.sh's key. The venv remembers the key it
# installed, so a changed recipe rebuilds and reinstalls. Called by setup.sh.
#
#   bash scripts/exact-kernels.sh       # needs .venv (scripts/setup.sh) and network for pip
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck disable=SC1091
. .venv/bin/activate
# shellcheck disable=SC1091
. scripts/llama-recipe.sh
# What the venv's llama.cpp was built with; tests/engine/test_build.py reads it.
INSTALLED=.venv/draftlight-llama-build

install_exact() {  # $1: the CMake flags
    local key wheels
    key=$(llama_build_key "$1")
    wheels="$BUILDS/wheels/llama-cpp-python-$LLAMA_VERSION-$key"
    ! grep -qx "key=$key" "$INSTALLED" 2>/dev/null || return 0
    if ! ls "$wheels"/llama_cpp_python-*.whl >/dev/null 2>&1; then
        echo "Compiling llama.cpp for llama-cpp-python $LLAMA_VERSION (once; several minutes)..."
        llama_compile "$1" "$wheels" || return 1
    fi
    python -m pip install -q --force-reinstall --no-deps "$wheels"/llama_cpp_python-*.whl \
        || return 1
    printf 'key=%s\ncmake_args=%s\ncflags=%s\n' "$key" "$1" "$NO_AMX" > "$INSTALLED"
}

with_gpu_fallback install_exact "$LLAMA_CMAKE_ARGS"
