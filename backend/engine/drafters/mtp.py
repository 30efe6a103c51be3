"""Drafting with the target's own Multi-Token-Prediction (NextN) heads.

A second llama.cpp context, of type MTP, on the same loaded model (no second copy of the
weights) runs only the NextN block(s). Its entry at position p is made from the token x_p
and the target's NextN hidden row of position p-1 (the row that predicted x_p); its logits
there predict x_{p+1}. The block attends over its own KV cache, which needs an entry for every
position of the conversation made from the *target's* rows, so the drafter follows each
decode of the target (`FollowerDrafter`) and writes the entries of what the target kept.

One head drafts autoregressively, each step fed with its own hidden row, as llama.cpp does
for qwen35. Several heads (chained NextN blocks): step i runs head i over the chain drafted so
far (llama.cpp's `chain_heads`), so a draft is at most as long as the number of heads.
"""

from __future__ import annotations

from collections.abc import Sequence

import llama_cpp
import numpy as np
from llama_cpp import llama_cpp_ext

from backend.engine.context import Context, common_prefix
from backend.engine.drafters.base import DraftingSetup
from backend.engine.drafters.follower import FollowerDrafter
from backend.engine.errors import EngineError
from backend.engine.model import LoadedModel
from backend.words import words

NO_MTP_HEADS = ("{name} has no MTP (NextN) heads, so spec type 'mtp' cannot draft for it: choose "
                "'draft' (with a draft model) or 'ngram' instead.")
MTP_NOT_LOADED = ("The MTP heads of {name} were not loaded, so spec type 'mtp' cannot draft: "
                  "choose 'draft' or 'ngram' instead.")
NO_HIDDEN_STATES = "The model gave no NextN hidden states, so MTP cannot draft."
DECODE_FAILED = "llama.cpp failed to decode an MTP batch (code {code})."


def make(setup: DraftingSetup) -> MtpDrafter:
    """Spec type "mtp" (`backend.spec_types`): refused for a target without NextN heads."""
    model = setup.target
    if model.info.n_mtp_heads == 0:
        raise EngineError(words(NO_MTP_HEADS, name=model.info.name))
    if not model.mtp_loaded:
        # an MTP context on a model loaded without its NextN tensors aborts the process
        raise EngineError(words(MTP_NOT_LOADED, name=model.info.name))
    return MtpDrafter(model, n_ctx=setup.target_ctx.n_ctx, n_threads=setup.n_threads)


class MtpDrafter(FollowerDrafter):
    origin = "mtp"

    def __init__(self, target: LoadedModel, *, n_ctx: int, n_threads: int) -> None:
        ctx = Context(target, n_ctx=n_ctx, n_threads=n_threads,
                      ctx_type=llama_cpp.LLAMA_CONTEXT_TYPE_MTP)
        llama_cpp_ext.llama_set_embeddings_nextn(ctx.ctx, True, True)
        super().__init__(ctx, n_embd=int(llama_cpp.llama_model_n_embd_out(target.model)),
                         n_vocab=target.n_vocab)
        self.n_heads = max(1, target.info.n_mtp_heads)
        self.chain = self.n_heads > 1
        if self.chain:
            self.longest_draft = self.n_heads
        self._zero_row = np.zeros(self.n_embd, np.float32)  # position 0 has no row before it
        self._heads: Sequence[int] = (0,)  # the heads the batch being decoded is written under
        # a chain's tokens and rows while it is drafted
        self._chain: tuple[list[int], list[np.ndarray]] = ([], [])

    # -- TargetFollower --------------------------------------------------------------------
    def follow(self, ctx: Context, tokens: list[int]) -> int:
        if self._target is not ctx:  # a new target context: nothing here belongs to it
            self._target = ctx
            self._forget_from(0)
            self.ctx.clear()
            llama_cpp_ext.llama_set_embeddings_nextn(ctx.ctx, True, False)
        self._catch_up(ctx.tokens, ctx.n_past)
        limit = min(common_prefix(ctx.tokens, tokens, len(tokens)), len(self.ctx.tokens))
        self.ctx.truncate(limit)
        if limit > 0 and self._state(limit - 1) is None:
            # The row that would make the next entry is gone. Keep one entry more than the
            # target: decoding its last token again gives that row back.
            limit -= 1
        return limit

    def _read_target(self, ctx: Context, n: int) -> np.ndarray:
        ptr = llama_cpp_ext.llama_get_embeddings_nextn(ctx.ctx)
        if not ptr:
            raise EngineError(words(NO_HIDDEN_STATES))
        return np.ctypeslib.as_array(ptr, shape=(n, self.n_embd)).copy()

    def _state(self, p: int) -> np.ndarray | None:
        return self._zero_row if p < 0 else super()._state(p)

    def _decode_error(self, code: int) -> EngineError:
        return EngineError(words(DECODE_FAILED, code=code))

    # -- several heads: a chain ------------------------------------------------------------
    def _head(self, i: int) -> int | None:
        return i if self.chain else 0

    def _first_step(self, history: list[int], last: int):
        if not self.chain:
            return super()._first_step(history, last)
        self._catch_up(history, last)
        self.ctx.truncate(last)
        row = self._state(last - 1)
        if row is None:
            raise RuntimeError("the mtp drafter lost the target's state it needs")
        self._chain = ([history[last]], [row])
        return self._decode([history[last]], row[None], last, want_last=True, heads=(0,))

    def _next_step(self, token: int, h: np.ndarray, last: int, i: int):
        if not self.chain:
            return super()._next_step(token, h, last, i)
        # head i+1 has no entries in the draft region yet: it rebuilds the chain
        tokens, rows = self._chain
        tokens.append(token)
        rows.append(h)
        self.ctx.truncate(last)
        return self._decode(tokens, np.stack(rows), last, want_last=True, heads=(i + 1,))

    def _kept_after_draft(self, last: int) -> int:
        # A chain's first entry was written by head 0 alone, so it goes too.
        return last if self.chain else last + 1

    # -- each head its own layer of the cache ----------------------------------------------
    def _decode_caught_up(self, tokens: list[int], rows: np.ndarray, pos0: int, *,
                          want_last: bool):
        return self._decode(tokens, rows, pos0, want_last=want_last, heads=range(self.n_heads))

    def _decode(self, tokens: list[int], rows: np.ndarray, pos0: int, *, want_last: bool,
                heads: Sequence[int] = (0,)):
        """`FollowerDrafter._decode`, the entries written under each head of `heads`."""
        self._heads = heads
        try:
            return super()._decode(tokens, rows, pos0, want_last=want_last)
        finally:
            self._heads = (0,)
            self._set_head(0)

    def _run_batch(self, pos0: int) -> None:
        for j, head in enumerate(self._heads):
            if j:  # each head keeps its own layer of the same cells: write them again
                llama_cpp.llama_memory_seq_rm(self.ctx.memory, 0, pos0, -1)
            self._set_head(head)
            super()._run_batch(pos0)

    def _set_head(self, head: int) -> None:
        if self.chain:
            llama_cpp_ext.llama_set_nextn_layer_offset(self.ctx.ctx, head)
