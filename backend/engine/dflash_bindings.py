"""The llama.cpp functions DFlash needs beyond llama-cpp-python 0.3.36's bindings.

The layer-input capture and the head's target layer ids are EAGLE-3's (`eagle3_bindings`);
DFlash adds `llama_model_dflash_selector_top_k` (a DFlash2 head's selector width), declared in
llama.cpp's `src/llama-ext.h` without `extern "C"`, so looked up under its plain and C++-mangled
names as those are. A library without them raises AttributeError on import, which the DFlash
drafter reports in words.
"""

from __future__ import annotations

import ctypes

from llama_cpp import llama_cpp

from backend.engine.eagle3_bindings import (  # noqa: F401 (re-exported for the drafter)
    _bind,
    llama_get_embeddings_layer_inp,
    llama_set_embeddings_layer_inp,
    target_layer_ids,
)

# int32_t llama_model_dflash_selector_top_k(const struct llama_model * model);
llama_model_dflash_selector_top_k = _bind(
    ("llama_model_dflash_selector_top_k",
     "_Z33llama_model_dflash_selector_top_kPK11llama_model",
     "?llama_model_dflash_selector_top_k@@YAHPEBUllama_model@@@Z"),
    [llama_cpp.llama_model_p_ctypes], ctypes.c_int32)
