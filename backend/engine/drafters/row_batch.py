"""A llama.cpp batch whose entries each carry a row of floats (a hidden state) and, unless it
feeds an encoder, a token id: what the drafters that follow the target write their caches
with. llama_batch_init with an embedding width leaves the token array NULL, so a batch that
carries tokens as well gets an array of ours, taken back before llama.cpp frees the batch.

Every entry is in sequence 0 alone, written once; the rest is written through numpy views made
once, as the target's TokenBatch is (field by field through ctypes, ~1 µs an entry)."""

from __future__ import annotations

import ctypes
from collections.abc import Sequence

import llama_cpp
import numpy as np


class RowBatch:
    def __init__(self, cap: int, width: int, *, tokens: bool = True) -> None:
        self.cap = cap
        b = self.batch = llama_cpp.llama_batch_init(cap, width, 1)
        self._token: np.ndarray | None = None  # a view of our token array, its owner
        if tokens:
            array = (llama_cpp.llama_token * cap)()
            b.token = array
            self._token = np.ctypeslib.as_array(array)
        self._rows = np.ctypeslib.as_array(b.embd, shape=(cap, width))
        self._pos = np.ctypeslib.as_array(b.pos, shape=(cap,))
        self._logits = np.ctypeslib.as_array(b.logits, shape=(cap,))
        np.ctypeslib.as_array(b.n_seq_id, shape=(cap,))[:] = 1
        for i in range(cap):
            b.seq_id[i][0] = 0

    def fill(self, pos0: int, rows: np.ndarray, tokens: Sequence[int] = (), *,
             n_outputs: int = 0) -> None:
        """Entry i (up to `cap`) at position pos0 + i, made of rows[i] and, in a batch with
        tokens, tokens[i]; the last `n_outputs` entries ask for their outputs."""
        n = len(rows)
        if self._token is not None:
            self._token[:n] = tokens[:n]
        self._pos[:n] = np.arange(pos0, pos0 + n, dtype=np.int32)
        self._logits[:n] = False
        if n_outputs > 0:
            self._logits[max(0, n - n_outputs) : n] = True
        self.batch.n_tokens = n
        self._rows[:n] = rows

    def free(self) -> None:
        if self._token is not None:
            self.batch.token = ctypes.POINTER(llama_cpp.llama_token)()  # ours, not llama's
        llama_cpp.llama_batch_free(self.batch)
