"""Drafting with the target's own Multi-Token-Prediction (NextN) heads.

A second llama.cpp context, of type MTP, on the same loaded model (no second copy of the
weights) runs only the NextN block(s). Its entry at position p is made from the token x_p
and the target's NextN hidden row of position p-1 (the row that predicted x_p); its logits
there predict x_{p+1}. The block attends over its own KV cache, which needs an entry for every
position of the conversation made from the *target's* rows, so the drafter follows each
decode of the target (`observe`) and writes the entries of what the target kept.

One head drafts autoregressively, each step fed with its own hidden row, as llama.cpp does
for qwen35. Several heads (chained NextN blocks): step i runs head i over the chain drafted so
far (llama.cpp's `chain_heads`), so a draft is at most as long as the number of heads.
"""

from __future__ import annotations

import ctypes
import time

import llama_cpp
import numpy as np
from llama_cpp import llama_cpp_ext

from backend.engine.context import Context, common_prefix
from backend.engine.drafters.base import DraftingSetup, Proposal, SamplingDrafter
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


class MtpDrafter(SamplingDrafter):
    origin = "mtp"

    def __init__(self, target: LoadedModel, *, n_ctx: int, n_threads: int) -> None:
        super().__init__()
        self.model = target
        self.n_heads = max(1, target.info.n_mtp_heads)
        self.n_embd = int(llama_cpp.llama_model_n_embd_out(target.model))
        self.ctx = Context(target, n_ctx=n_ctx, n_threads=n_threads,
                           ctx_type=llama_cpp.LLAMA_CONTEXT_TYPE_MTP)
        llama_cpp_ext.llama_set_embeddings_nextn(self.ctx.ctx, True, True)
        cap = self.ctx.n_batch
        # an MTP batch carries token ids and hidden rows: llama_batch_init with an embedding
        # width leaves the token array NULL, so it gets one of ours
        self._batch = llama_cpp.llama_batch_init(cap, self.n_embd, 1)
        self._batch_tokens = (llama_cpp.llama_token * cap)()
        self._batch.token = self._batch_tokens
        self._embd = np.ctypeslib.as_array(self._batch.embd, shape=(cap, self.n_embd))
        self._zero_row = np.zeros(self.n_embd, np.float32)  # position 0 has no row before it
        # the target's NextN rows by position, kept until the entries they make are written
        self._rows: dict[int, np.ndarray] = {}
        self._target: Context | None = None

    # -- Drafter --------------------------------------------------------------------------
    def propose(self, history: list[int], n_max: int) -> Proposal:
        target = self._target
        pos = len(history) - 1  # the last token, which the target has not decoded yet
        if target is None or target.n_past != pos:
            raise RuntimeError("the MTP drafter is out of step with the target context")
        chain = self.n_heads > 1
        n_max = min(n_max, self.ctx.n_ctx - pos - 1, self.n_heads if chain else n_max)
        if n_max <= 0:
            return Proposal()
        t0 = time.perf_counter()
        if chain:
            self._catch_up(history, pos)
            self.ctx.truncate(pos)
            row = self._row(pos - 1)
            logits, h = self._decode([history[pos]], row[None], pos, want_last=True, heads=(0,))
            chain_tokens, chain_rows = [history[pos]], [row]
        else:
            logits, h = self._catch_up(history, pos + 1, want_last=True)
        out = Proposal(catch_up_ms=1000 * (time.perf_counter() - t0))
        seq = list(history)
        try:
            for i in range(n_max):
                if not self.draft_next(logits, seq, out, i if chain else 0):
                    break  # unsure, or the next draft is not worth decoding this one
                x = seq[-1]
                if i + 1 == n_max:
                    break
                if chain:
                    # head i+1 has no entries in the draft region yet: it rebuilds the chain
                    chain_tokens.append(x)
                    chain_rows.append(h.copy())
                    self.ctx.truncate(pos)
                    logits, h = self._decode(chain_tokens, np.stack(chain_rows), pos,
                                             want_last=True, heads=(i + 1,))
                else:
                    logits, h = self._decode([x], h[None], pos + 1 + i, want_last=True)
        finally:
            # Entries made from the head's own rows must go: the target's rows replace them
            # once it has verified. The entry of the last token (a target row) can stay.
            self.ctx.truncate(pos if chain else pos + 1)
        return out

    def close(self) -> None:
        if getattr(self, "_batch", None) is not None:
            self._batch.token = ctypes.POINTER(llama_cpp.llama_token)()  # ours, not llama's
            llama_cpp.llama_batch_free(self._batch)
            self._batch = None
        self.ctx.close()

    # -- TargetFollower -------------------------------------------------------------------
    def follow(self, ctx: Context, tokens: list[int]) -> int:
        if self._target is not ctx:  # a new target context: nothing here belongs to it
            self._target = ctx
            self._rows.clear()
            self.ctx.clear()
            llama_cpp_ext.llama_set_embeddings_nextn(ctx.ctx, True, False)
        self._catch_up(ctx.tokens, ctx.n_past)
        limit = min(common_prefix(ctx.tokens, tokens, len(tokens)), len(self.ctx.tokens))
        self.ctx.truncate(limit)
        if limit > 0 and (limit - 1) not in self._rows:
            # The row that would make the next entry is gone. Keep one entry more than the
            # target: decoding its last token again gives that row back.
            limit -= 1
        return limit

    def observe(self, ctx: Context, pos0: int, tokens: list[int]) -> None:
        # The rows are kept and their entries written when the drafter next drafts, in one
        # batch: a plain step (K auto when drafting does not pay) then costs the head
        # nothing. Once a batch's worth waits (a long prompt, a long plain stretch), the
        # entries before pos0, which the target keeps, are written now, so that the rows of
        # about one batch wait here however long the text.
        if pos0 - len(self.ctx.tokens) >= self.ctx.n_batch:
            self._catch_up(ctx.tokens, pos0)
        for p in [p for p in self._rows if p >= pos0]:
            del self._rows[p]  # rows of positions the target dropped (rejected drafts)
        ptr = llama_cpp_ext.llama_get_embeddings_nextn(ctx.ctx)
        if not ptr:
            raise EngineError(words(NO_HIDDEN_STATES))
        rows = np.ctypeslib.as_array(ptr, shape=(len(tokens), self.n_embd)).copy()
        for i in range(len(tokens)):
            self._rows[pos0 + i] = rows[i]

    # -- internals ------------------------------------------------------------------------
    def _row(self, p: int) -> np.ndarray:
        return self._zero_row if p < 0 else self._rows[p]

    def _catch_up(self, tokens: list[int], upto: int, *, want_last: bool = False):
        """Make the MTP cache hold the entries of tokens[:upto], as far as the target's rows
        are known. With want_last (all rows must be known), return the logits and hidden row
        of the entry at upto-1."""
        mine = self.ctx.tokens
        keep = common_prefix(mine, tokens, upto)
        if keep < min(len(mine), upto):
            self.ctx.truncate(keep)  # entries of tokens the target no longer holds
        if want_last and len(mine) >= upto:
            self.ctx.truncate(upto - 1)  # its outputs are needed again
        start = len(mine)
        rows = []
        for p in range(start, upto):
            if p - 1 >= 0 and p - 1 not in self._rows:
                break
            rows.append(self._row(p - 1))
        if want_last and start + len(rows) < upto:
            raise RuntimeError("the MTP drafter lost the target's hidden row it needs")
        result = None
        if rows:
            result = self._decode(tokens[start : start + len(rows)], np.stack(rows), start,
                                  want_last=want_last, heads=range(self.n_heads))
        for p in [p for p in self._rows if p < len(mine) - 1]:
            del self._rows[p]  # used: the next entry needs only the row of the last one
        return result

    def _decode(self, tokens: list[int], rows: np.ndarray, pos0: int, *, want_last: bool,
                heads=(0,)):
        """Write the entries of `tokens` (rows[i] goes with tokens[i]) at positions pos0..,
        under each head of `heads`; with want_last, return (logits, hidden row) of the last."""
        assert len(self.ctx.tokens) == pos0
        b, cap = self._batch, self.ctx.n_batch
        n_total = len(tokens)
        for start in range(0, n_total, cap):
            n = min(cap, n_total - start)
            for i in range(n):
                b.token[i] = tokens[start + i]
                b.pos[i] = pos0 + start + i
                b.n_seq_id[i] = 1
                b.seq_id[i][0] = 0
                b.logits[i] = False
            b.logits[n - 1] = want_last and start + n == n_total
            b.n_tokens = n
            for j, head in enumerate(heads):
                if j:  # each head keeps its own layer of the same cells: write them again
                    llama_cpp.llama_memory_seq_rm(self.ctx.memory, 0, pos0 + start, -1)
                self._embd[:n] = rows[start : start + n]
                self._set_head(head)
                rc = llama_cpp.llama_decode(self.ctx.ctx, b)
                if rc != 0:
                    self._set_head(0)
                    raise EngineError(words(DECODE_FAILED, code=rc))
            self.ctx.tokens.extend(tokens[start : start + n])
        self._set_head(0)
        if not want_last:
            return None
        logits = llama_cpp.llama_get_logits_ith(self.ctx.ctx, n - 1)
        h = llama_cpp_ext.llama_get_embeddings_nextn_ith(self.ctx.ctx, n - 1)
        return (np.ctypeslib.as_array(logits, shape=(self.model.n_vocab,)),
                np.ctypeslib.as_array(h, shape=(self.n_embd,)))

    def _set_head(self, head: int) -> None:
        if self.n_heads > 1:
            llama_cpp_ext.llama_set_nextn_layer_offset(self.ctx.ctx, head)
