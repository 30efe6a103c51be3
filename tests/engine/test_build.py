"""The llama.cpp build keeps speculative decoding lossless."""

from __future__ import annotations

import llama_cpp


def test_llama_cpp_is_built_without_llamafile_sgemm():
    # llamafile's sgemm sums a batch's dot products in another order than the one-token
    # path, so verifying a draft batch and plain decoding could pick different tokens on
    # near-ties. scripts/setup.sh builds with GGML_LLAMAFILE=OFF; a stray default build fails.
    info = llama_cpp.llama_print_system_info().decode()
    assert "LLAMAFILE = 1" not in info, info
