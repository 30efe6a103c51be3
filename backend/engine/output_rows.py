"""A context's logits rows, as numpy views of llama.cpp's output buffer made once per shape.

`np.ctypeslib.as_array` on the pointer `llama_get_logits` returns costs ~15 µs a call (a ctypes
array type, a cast, an array interface): 1–2 % of a token at a GPU's rates. The buffer moves
only when llama.cpp grows it for more outputs than it holds (`output_reserve`: it never
shrinks), so a view made for an address and a row count stays right for as long as
`llama_get_logits` returns that address; the call itself (it also waits for the computation
and puts the outputs in batch order) is made every time.
"""

from __future__ import annotations

import ctypes

import numpy as np
from llama_cpp import llama_cpp

# The same symbol as llama_cpp.llama_get_logits, bound again (a new function object, so the
# library's own binding keeps its return type) to return the address as an int.
_logits_address = llama_cpp._lib["llama_get_logits"]
_logits_address.argtypes = [llama_cpp.llama_context_p_ctypes]
_logits_address.restype = ctypes.c_void_p


class OutputRows:
    def __init__(self, ctx: llama_cpp.llama_context_p, n_vocab: int) -> None:
        self._ctx = ctx
        self._n_vocab = n_vocab
        self._views: dict[tuple[int, int], np.ndarray] = {}

    def rows(self, n: int) -> np.ndarray:
        """The last decode's first n logits rows, valid until the next decode. Left writeable:
        numpy 2.4's argmax takes 2.4 times as long over a read-only array (24 against 10 µs at
        151,936 floats)."""
        address = _logits_address(self._ctx)
        view = self._views.get((address, n))
        if view is None:
            if not address:
                raise RuntimeError("llama.cpp returned no logits")
            ptr = ctypes.cast(address, ctypes.POINTER(ctypes.c_float))
            view = np.ctypeslib.as_array(ptr, shape=(n, self._n_vocab))
            if len(self._views) >= 64:  # a buffer that moved leaves its views behind
                self._views.clear()
            self._views[address, n] = view
        return view
