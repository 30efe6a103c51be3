# Sourced by scripts/exact-kernels.sh and scripts/fast-kernels.sh (after the venv is active):
# the recipe in scripts/llama-build.env, made concrete for this machine, the cache key of a
# build, and the compile itself. pip's own cache ignores CMAKE_ARGS, so each build is cached
# under a key made of everything that shapes it: version, flags, compiler, this CPU's features
# (-march=native) and Python; a changed recipe or machine never picks up an older build.
# shellcheck disable=SC1091
. scripts/llama-build.env
# A GPU backend when this machine has one (CUDA; Metal is llama.cpp's default on macOS); part
# of the flags, so of the cache key: a CPU build and a CUDA build never stand in for each other.
GPU_FLAGS=$(bash scripts/gpu-flags.sh)
CC_BIN="${CC:-cc}"
NO_AMX=""
# A compiler that predates AMX (GCC < 11) cannot emit it and refuses the flags.
if echo 'int main(void){return 0;}' | "$CC_BIN" $LLAMA_NO_AMX_CFLAGS -x c -o /dev/null - 2>/dev/null; then
    NO_AMX="$LLAMA_NO_AMX_CFLAGS"
fi
CPU_FEATURES=$( (grep -m1 '^flags' /proc/cpuinfo || sysctl -n machdep.cpu.features || uname -m) 2>/dev/null)
BUILDS="${XDG_CACHE_HOME:-$HOME/.cache}/draftlight"

# The cache key of a build made with CMake flags $1.
llama_build_key() {
    printf '%s\n' "$LLAMA_VERSION" "$1" "$NO_AMX" \
        "$("$CC_BIN" --version 2>/dev/null | head -n1)" "$CPU_FEATURES" \
        "$(python -c 'import sys; print(sys.implementation.cache_tag)')" | sha256sum | cut -c1-16
}

# Compiles the pinned llama-cpp-python with CMake flags $1 into a wheel in folder $2, renamed
# into place only when complete, so an interrupted build is never taken for a cached one.
# Returns non-zero on failure (callers run it where `set -e` does not reach).
llama_compile() {
    rm -rf "$2.tmp" && mkdir -p "$2.tmp" || return 1
    CMAKE_ARGS="$1" CFLAGS="${CFLAGS:-} $NO_AMX" CXXFLAGS="${CXXFLAGS:-} $NO_AMX" \
    CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}" \
        python -m pip wheel -q --no-deps --no-cache-dir --no-binary llama-cpp-python \
        "llama-cpp-python==$LLAMA_VERSION" -w "$2.tmp" || return 1
    rm -rf "$2" && mv "$2.tmp" "$2"
}

# The file that records, on this machine, a GPU build with CMake flags $1 (the GPU's included)
# that failed: with_gpu_fallback writes it, bench/native.sh reads it to build as the engine did.
gpu_failure_record() {
    echo "$BUILDS/gpu-build-failed-$(llama_build_key "$1")"
}

# Runs `$1 FLAGS` (a function that builds and installs) with CMake flags $2 plus this
# machine's GPU flags. Where that GPU build fails (a CUDA toolkit too old for the host
# compiler, a missing cuBLAS), it warns and runs `$1` with $2 alone: a failed CUDA build must
# not keep the app from starting, and the CPU build is what runs without one. The failure is
# remembered per build key, so each later start does not spend minutes failing again.
# DRAFTLIGHT_CUDA=1 (bench/gpu_check.sh) makes the GPU build's failure final.
with_gpu_fallback() {
    [ -n "$GPU_FLAGS" ] || { "$1" "$2"; return; }
    local failed
    failed=$(gpu_failure_record "$2 $GPU_FLAGS")
    if [ ! -f "$failed" ]; then
        "$1" "$2 $GPU_FLAGS" && return 0
        [ "${DRAFTLIGHT_CUDA:-auto}" != 1 ] || return 1
        mkdir -p "$BUILDS" && touch "$failed"
    fi
    echo "warning: llama.cpp could not be built with $GPU_FLAGS here; building it for the" \
        "CPU, and the GPU layers setting will have no GPU (delete $failed to try again)" >&2
    "$1" "$2"
}
