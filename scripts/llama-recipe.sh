# Sourced by scripts/setup.sh and scripts/fast-kernels.sh (after the venv is active): the
# recipe in scripts/llama-build.env, made concrete for this machine, and the cache key of a
# build. pip's own cache ignores CMAKE_ARGS, so each build is cached under a key made of
# everything that shapes it: version, flags, compiler, this CPU's features (-march=native) and
# Python; a changed recipe or machine never picks up an older build.
# shellcheck disable=SC1091
. scripts/llama-build.env
# A GPU backend when this machine has one (CUDA; Metal is llama.cpp's default on macOS); part
# of the flags, so of the cache key: a CPU build and a CUDA build never stand in for each other.
GPU_FLAGS=$(bash scripts/gpu-flags.sh)
LLAMA_CMAKE_ARGS="$LLAMA_CMAKE_ARGS${GPU_FLAGS:+ $GPU_FLAGS}"
LLAMA_FAST_CMAKE_ARGS="$LLAMA_FAST_CMAKE_ARGS${GPU_FLAGS:+ $GPU_FLAGS}"
CC_BIN="${CC:-cc}"
NO_AMX=""
# A compiler that predates AMX (GCC < 11) cannot emit it and refuses the flags.
if echo 'int main(void){return 0;}' | "$CC_BIN" $LLAMA_NO_AMX_CFLAGS -x c -o /dev/null - 2>/dev/null; then
    NO_AMX="$LLAMA_NO_AMX_CFLAGS"
fi
CPU_FEATURES=$( (grep -m1 '^flags' /proc/cpuinfo || sysctl -n machdep.cpu.features || uname -m) 2>/dev/null)

# The cache key of a build made with CMake flags $1.
llama_build_key() {
    printf '%s\n' "$LLAMA_VERSION" "$1" "$NO_AMX" \
        "$("$CC_BIN" --version 2>/dev/null | head -n1)" "$CPU_FEATURES" \
        "$(python -c 'import sys; print(sys.implementation.cache_tag)')" | sha256sum | cut -c1-16
}
