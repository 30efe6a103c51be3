"""A llama.cpp batch whose entries each carry a row of floats (a hidden state) and, unless it
feeds an encoder, a token id: what the drafters that follow the target write their caches
with. llama_batch_init with an embedding width leaves the token array NULL, so a batch that
carries tokens as well gets an array of ours, taken back before llama.cpp frees the batch."""

from __future__ import annotations

import ctypes
from collections.abc import Sequence

import llama_cpp
import numpy as np


class RowBatch:
    def __init__(self, cap: int, width: int, *, tokens: bool = True) -> None:
        self.cap = cap
        self.batch = llama_cpp.llama_batch_init(cap, width, 1)
        self._tokens = (llama_cpp.llama_token * cap)() if tokens else None
        if self._tokens is not None:
            self.batch.token = self._tokens
        self._rows = np.ctypeslib.as_array(self.batch.embd, shape=(cap, width))

    def fill(self, pos0: int, rows: np.ndarray, tokens: Sequence[int] = (), *,
             n_outputs: int = 0) -> None:
        """Entry i (up to `cap`) at position pos0 + i, made of rows[i] and, in a batch with
        tokens, tokens[i]; the last `n_outputs` entries ask for their outputs."""
        b, n = self.batch, len(rows)
        for i in range(n):
            if self._tokens is not None:
                b.token[i] = tokens[i]
            b.pos[i] = pos0 + i
            b.n_seq_id[i] = 1
            b.seq_id[i][0] = 0
            b.logits[i] = i >= n - n_outputs
        b.n_tokens = n
        self._rows[:n] = rows

    def free(self) -> None:
        if self._tokens is not None:
            self.batch.token = ctypes.POINTER(llama_cpp.llama_token)()  # ours, not llama's
        llama_cpp.llama_batch_free(self.batch)
