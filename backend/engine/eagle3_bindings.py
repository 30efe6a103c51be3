"""The four llama.cpp functions EAGLE-3 needs that llama-cpp-python 0.3.36 does not bind.

They are declared in llama.cpp's `src/llama-ext.h` without `extern "C"`, so the shared library
exports them under C++-mangled names; like `llama_cpp.llama_cpp_ext`, each is looked up under
its plain name and the names a C++ compiler gives it (Itanium on Linux and macOS, MSVC on
Windows, the latter unverified). A library that has none of the names raises AttributeError
when this module is imported, which the EAGLE-3 drafter reports in words.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterable
from typing import Any

from llama_cpp import llama_cpp

_lib = llama_cpp._lib


def _bind(names: Iterable[str], argtypes: list[Any], restype: Any) -> Any:
    missing = []
    for name in names:
        try:
            func = getattr(_lib, name)
        except AttributeError:
            missing.append(name)
            continue
        func.argtypes = argtypes
        func.restype = restype
        return func
    raise AttributeError(f"None of the shared library symbols were found: {', '.join(missing)}")


# void llama_set_embeddings_layer_inp(struct llama_context * ctx, uint32_t lid, bool value);
llama_set_embeddings_layer_inp = _bind(
    ("llama_set_embeddings_layer_inp",
     "_Z30llama_set_embeddings_layer_inpP13llama_contextjb",
     "?llama_set_embeddings_layer_inp@@YAXPEAUllama_context@@I_N@Z"),
    [llama_cpp.llama_context_p_ctypes, ctypes.c_uint32, ctypes.c_bool], None)

# float * llama_get_embeddings_layer_inp(struct llama_context * ctx, uint32_t lid);
llama_get_embeddings_layer_inp = _bind(
    ("llama_get_embeddings_layer_inp",
     "_Z30llama_get_embeddings_layer_inpP13llama_contextj",
     "?llama_get_embeddings_layer_inp@@YAPEAMPEAUllama_context@@I@Z"),
    [llama_cpp.llama_context_p_ctypes, ctypes.c_uint32], ctypes.POINTER(ctypes.c_float))

# const int32_t * llama_model_target_layer_ids(const struct llama_model * model);
llama_model_target_layer_ids = _bind(
    ("llama_model_target_layer_ids",
     "_Z28llama_model_target_layer_idsPK11llama_model",
     "?llama_model_target_layer_ids@@YAPEBHPEBUllama_model@@@Z"),
    [llama_cpp.llama_model_p_ctypes], ctypes.POINTER(ctypes.c_int32))

# uint32_t llama_model_target_layer_ids_n(const struct llama_model * model);
llama_model_target_layer_ids_n = _bind(
    ("llama_model_target_layer_ids_n",
     "_Z30llama_model_target_layer_ids_nPK11llama_model",
     "?llama_model_target_layer_ids_n@@YAIPEBUllama_model@@@Z"),
    [llama_cpp.llama_model_p_ctypes], ctypes.c_uint32)


def target_layer_ids(model: llama_cpp.llama_model_p) -> list[int]:
    """The target layers whose inputs an EAGLE-3 head reads ([] for any other model)."""
    n = int(llama_model_target_layer_ids_n(model))
    ptr = llama_model_target_layer_ids(model)
    return [int(ptr[i]) for i in range(n)] if n and ptr else []
