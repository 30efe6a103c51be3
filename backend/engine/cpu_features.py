"""Which of llama.cpp's optional CPU code paths this build may use.

llama.cpp's AMX kernels (Intel Xeon 4th gen and later) segfault on the first decode of
Q8_0, Q4_0, Q4_K… weights (llama.cpp issue #20824, no fix upstream).
scripts/exact-kernels.sh builds llama.cpp without them (see scripts/llama-build.env), so the
weights are repacked for AVX2 / AVX-512 instead. A llama-cpp-python built some other way may
still carry them: then models are loaded without llama.cpp's extra buffer types (AMX and the
repacked layouts), slower but safe, rather than crash on the first answer.
"""

from __future__ import annotations

import re

_AMX = re.compile(r"\bAMX\w* = 1")


def build_has_amx(system_info: str) -> bool:
    """Whether llama.cpp's feature string (`llama_print_system_info()`) lists AMX kernels."""
    return bool(_AMX.search(system_info))


def extra_buffer_types_allowed(system_info: str) -> bool:
    """`llama_model_params.use_extra_bufts` for this build: off only where AMX is built in."""
    return not build_has_amx(system_info)
