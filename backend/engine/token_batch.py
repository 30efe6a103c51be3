"""A context's llama.cpp batch of token ids, written through numpy views made once.

At a GPU's token rates (~1 ms a token) every microsecond the engine spends outside llama.cpp
counts (issue #38). Written field by field through ctypes, a chain's entries cost ~1 µs each
(five fields); here a chain is three slice assignments. The sequence ids are pointers, one
array per entry, so they are written entry by entry, but only where an entry may hold another
sequence's ids than sequence 0 alone: a draft tree or a fork writes its own (`mixed`).
"""

from __future__ import annotations

import llama_cpp
import numpy as np


class TokenBatch:
    def __init__(self, cap: int, n_seq_max: int) -> None:
        self.cap = cap
        self.batch = llama_cpp.llama_batch_init(cap, 0, n_seq_max)
        b = self.batch
        self.token = np.ctypeslib.as_array(b.token, shape=(cap,))
        self.pos = np.ctypeslib.as_array(b.pos, shape=(cap,))
        self.n_seq_id = np.ctypeslib.as_array(b.n_seq_id, shape=(cap,))
        self.logits = np.ctypeslib.as_array(b.logits, shape=(cap,))
        self._seq0 = 0  # entries [0, _seq0) hold sequence 0 alone

    def chain(self, pos0: int, tokens: list[int], *, all_outputs: bool, last_output: bool
              ) -> None:
        """Entry i: tokens[i] at position pos0 + i in sequence 0, asking for its output where
        `all_outputs`, or the last entry's alone where `last_output`."""
        n = len(tokens)
        if n == 1 and self._seq0:  # a plain step's: scalar writes, 0.2 µs against 1.9
            self.token[0] = tokens[0]
            self.pos[0] = pos0
            self.logits[0] = all_outputs or last_output
            self.batch.n_tokens = 1
            return
        self.token[:n] = tokens
        self.pos[:n] = np.arange(pos0, pos0 + n, dtype=np.int32)
        if n > self._seq0:
            self.n_seq_id[self._seq0 : n] = 1
            seq_id = self.batch.seq_id
            for i in range(self._seq0, n):
                seq_id[i][0] = 0
            self._seq0 = n
        self.logits[:n] = all_outputs
        if last_output:
            self.logits[n - 1] = True
        self.batch.n_tokens = n

    def mixed(self) -> None:
        """Say that entries were written with other sequence ids (a tree, forks)."""
        self._seq0 = 0

    def free(self) -> None:
        llama_cpp.llama_batch_free(self.batch)
