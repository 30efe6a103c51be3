"""Drafting with an EAGLE-3 head: a one-layer model that reads the target's hidden states.

The head is a separate small GGUF (architecture `eagle3`) trained for one target. On every
decode of the target (prompt chunks and verification batches) the inputs of three of the
target's layers are read, concatenated, and run through the head's *encoder* (`fc`), which
gives one row g_P per position P. The head's *decoder* keeps a KV cache whose entry at
position P is made from the pair (x_{P+1}, g_P): the token after P and the target's hidden
state at P; its logits there propose the token after x_{P+1}. To draft after the last token
x_n, the entry (x_n, g_{n-1}) gives the first draft d_1; each further step feeds (d_i, the
decoder's own pre-norm state of the step before), as llama.cpp's `draft-eagle3` does. After
the target has verified, the entries of what it kept are written from its rows, so the cache
never holds a draft step. Like MTP (a TargetFollower), unlike a draft model (which reads only
tokens), and unlike MTP its weights are a file of their own.

llama.cpp aborts the process on a head that does not fit its target, so `make` refuses those
first, in words (`backend.models.eagle3`).
"""

from __future__ import annotations

import ctypes
import importlib
import time
from types import ModuleType

import llama_cpp
import numpy as np
from llama_cpp import llama_cpp_ext

from backend.engine.context import Context, common_prefix
from backend.engine.drafters.base import DraftingSetup, Proposal, SamplingDrafter
from backend.engine.errors import EngineError
from backend.engine.model import LoadedModel
from backend.models.eagle3 import head_incompatibility
from backend.words import words

NEEDS_HEAD = ("Spec type EAGLE-3 needs an EAGLE-3 head as the draft: choose one made for this "
              "target first.")
NO_BINDINGS = ("This build of llama.cpp does not export the layer-capture functions EAGLE-3 needs, "
               "so spec type EAGLE-3 cannot draft ({error}).")
HEAD_MISFIT = ("{head} does not fit {target}: it reads target layers {layers} of {n_layer}, with a "
               "vocabulary of {n_vocab} tokens for the target's {target_vocab}.")
NO_LAYER_INPUTS = "The target gave no layer inputs, so EAGLE-3 cannot draft."
ENCODER_FAILED = "llama.cpp failed to run the EAGLE-3 encoder (code {code})."
CONTEXT_FULL = "The conversation no longer fits the context of {n_ctx} tokens."
DECODE_FAILED = "llama.cpp failed to decode an EAGLE-3 batch (code {code})."

MAX_OUTPUT_ROWS = 16  # rows of logits a decode of the head asks for at most


def make(setup: DraftingSetup) -> Eagle3Drafter:
    """Spec type "eagle3" (`backend.spec_types`): refused without an EAGLE-3 head as the draft,
    or with one that does not fit the target."""
    if setup.draft is None:
        raise EngineError(words(NEEDS_HEAD))
    reason = head_incompatibility(setup.target.inspection, setup.draft.inspection)
    if reason is not None:
        raise EngineError(reason)
    try:  # the bindings are looked up when the module is first imported
        ext = importlib.import_module("backend.engine.eagle3_bindings")
    except AttributeError as exc:
        raise EngineError(words(NO_BINDINGS, error=exc)) from exc
    return Eagle3Drafter(setup.target, setup.target_ctx, setup.draft, ext,
                         n_threads=setup.n_threads)


class Eagle3Drafter(SamplingDrafter):
    origin = "eagle3"

    def __init__(self, target: LoadedModel, target_ctx: Context, head: LoadedModel,
                 ext: ModuleType, *, n_threads: int) -> None:
        """`ext`: the module `backend.engine.eagle3_bindings`."""
        super().__init__()
        self._ext = ext
        self.head = head
        self.target = target
        self.layer_ids = ext.target_layer_ids(head.model)
        n_layer = int(llama_cpp.llama_model_n_layer(target.model))
        self.n_embd_tgt = int(llama_cpp.llama_model_n_embd(target.model))
        self.n_embd = int(llama_cpp.llama_model_n_embd(head.model))
        n_vocab_ok = head.n_vocab == target.n_vocab
        # checked from the headers already; checked again on what llama.cpp loaded, since a
        # mismatch here aborts the process instead of failing
        if (len(self.layer_ids) != 3 or not all(0 <= lid < n_layer for lid in self.layer_ids)
                or not n_vocab_ok):
            raise EngineError(words(HEAD_MISFIT, head=head.info.name, target=target.info.name,
                                    layers=str(self.layer_ids), n_layer=n_layer,
                                    n_vocab=head.n_vocab, target_vocab=target.n_vocab))
        self._n_threads = n_threads
        self._features = 3 * self.n_embd_tgt
        self.ctx = self._new_context(target_ctx)
        cap = self.ctx.n_batch
        # decoder batch: a token id AND a row per entry (llama_batch_init with an embedding
        # width leaves the token array NULL, so it gets one of ours, as in the MTP drafter)
        self._batch = llama_cpp.llama_batch_init(cap, self.n_embd, 1)
        self._batch_tokens = (llama_cpp.llama_token * cap)()
        self._batch.token = self._batch_tokens
        self._embd = np.ctypeslib.as_array(self._batch.embd, shape=(cap, self.n_embd))
        # encoder batch: rows of concatenated target features, no tokens
        self._enc = llama_cpp.llama_batch_init(cap, self._features, 1)
        self._enc_embd = np.ctypeslib.as_array(self._enc.embd, shape=(cap, self._features))
        # g_P (the encoder's output of the target's rows at position P), kept until the
        # entry it makes is written, and that of the last written entry (written again when
        # its logits are needed)
        self._g: dict[int, np.ndarray] = {}
        # the target's features of positions not encoded yet: encoded in one batch when the
        # drafter next drafts (see observe)
        self._waiting: dict[int, np.ndarray] = {}
        # the target's tokens as of its last decode this drafter saw: g_P is valid while the
        # target still holds the same tokens up to P
        self._seen: list[int] = []
        self._target: Context | None = target_ctx
        self._capturing = False

    def _new_context(self, target_ctx: Context) -> Context:
        ctx = Context(self.head, n_ctx=target_ctx.n_ctx, n_threads=self._n_threads,
                      ctx_other=target_ctx.ctx)
        llama_cpp_ext.llama_set_embeddings_nextn(ctx.ctx, True, True)
        return ctx

    # -- Drafter --------------------------------------------------------------------------
    def propose(self, history: list[int], n_max: int) -> Proposal:
        target = self._target
        pos = len(history) - 1  # the last token, which the target has not decoded yet
        if target is None or target.n_past != pos:
            raise RuntimeError("the EAGLE-3 drafter is out of step with the target context")
        n_max = min(n_max, self.ctx.n_ctx - pos)
        if n_max <= 0 or pos == 0:
            return Proposal()  # position 0 has no hidden state before it
        t0 = time.perf_counter()
        logits, h = self._catch_up(history, pos, want_last=True)
        out = Proposal(catch_up_ms=1000 * (time.perf_counter() - t0))
        seq = list(history)
        try:
            for i in range(n_max):
                if not self.draft_next(logits, seq, out):
                    break  # unsure, or the next draft is not worth decoding this one
                x = seq[-1]
                if i + 1 == n_max:
                    break
                logits, h = self._decode([x], h[None], pos + i, want_last=True)
        finally:
            # entries made from the head's own states go: the target's rows replace them
            self.ctx.truncate(pos)
        return out

    def close(self) -> None:
        if getattr(self, "_batch", None) is not None:
            self._batch.token = ctypes.POINTER(llama_cpp.llama_token)()  # ours, not llama's
            llama_cpp.llama_batch_free(self._batch)
            self._batch = None
            llama_cpp.llama_batch_free(self._enc)
        if getattr(self, "ctx", None) is not None:
            self.ctx.close()

    # -- TargetFollower -------------------------------------------------------------------
    def follow(self, ctx: Context, tokens: list[int]) -> int:
        if self._target is not ctx or not self._capturing:
            # a new target context (a recurrent target's, made for longer drafts): the
            # head's context borrows from the target's, so it is made again
            if self._target is not ctx:
                self.ctx.close()
                self.ctx = self._new_context(ctx)
            self._target = ctx
            self._g.clear()
            self._waiting.clear()
            self.ctx.clear()
            for lid in self.layer_ids:
                self._ext.llama_set_embeddings_layer_inp(ctx.ctx, lid, True)
            self._capturing = True
        # decodes without this drafter (plain answers in between) made those states stale
        valid = common_prefix(self._seen, ctx.tokens, len(ctx.tokens))
        del self._seen[valid:]
        self._forget_from(valid)
        self.ctx.truncate(valid)
        self._catch_up(ctx.tokens, ctx.n_past)
        limit = common_prefix(ctx.tokens, tokens, len(tokens))
        # entry P pairs x_{P+1} with g_P: it holds while both are in what the target keeps
        keep = common_prefix(self.ctx.tokens, tokens[1:], max(0, limit - 1))
        self.ctx.truncate(keep)
        for p in range(keep, limit):
            if p not in self._g:
                return p  # the target decodes it again, which gives its hidden state back
        return limit

    def observe(self, ctx: Context, pos0: int, tokens: list[int]) -> None:
        # The features are kept and encoded when the drafter next drafts, in one batch with
        # the others waiting: a plain step (K auto when drafting does not pay) then costs the
        # head nothing. Once a batch's worth waits (a long prompt, a long plain stretch), the
        # entries before this chunk, which the target keeps, are written now, so that the
        # states of about one batch wait here however long the text.
        if pos0 - len(self.ctx.tokens) >= self.ctx.n_batch:
            self._catch_up(ctx.tokens, pos0)
        self._forget_from(pos0)  # states of positions the target dropped (rejected drafts)
        n = len(tokens)
        layers = []
        for lid in self.layer_ids:
            ptr = self._ext.llama_get_embeddings_layer_inp(ctx.ctx, lid)
            if not ptr:
                raise EngineError(words(NO_LAYER_INPUTS))
            layers.append(np.ctypeslib.as_array(ptr, shape=(n, self.n_embd_tgt)))
        features = np.concatenate(layers, axis=1)  # a copy: llama.cpp reuses its buffers
        del self._seen[pos0:]
        self._seen.extend(tokens)
        for i in range(n):
            self._waiting[pos0 + i] = features[i]

    def _forget_from(self, pos: int) -> None:
        """Drop the states of positions from `pos` on."""
        for states in (self._g, self._waiting):
            for p in [p for p in states if p >= pos]:
                del states[p]

    def _encode_waiting(self) -> None:
        """Encode the features that observe kept, in one batch, into g rows."""
        if not self._waiting:
            return
        positions = sorted(self._waiting)
        g = self._encode(np.stack([self._waiting[p] for p in positions]))
        for i, p in enumerate(positions):
            self._g[p] = g[i]
        self._waiting.clear()

    # -- internals ------------------------------------------------------------------------
    def _encode(self, features: np.ndarray) -> np.ndarray:
        """The head's encoder over rows of target features: one g row each."""
        out = np.empty((len(features), self.n_embd), np.float32)
        b, cap = self._enc, self.ctx.n_batch
        for start in range(0, len(features), cap):
            n = min(cap, len(features) - start)
            base = len(self.ctx.tokens)  # positions are unused by the encoder
            for i in range(n):
                b.pos[i] = base + i
                b.n_seq_id[i] = 1
                b.seq_id[i][0] = 0
                b.logits[i] = True
            b.n_tokens = n
            self._enc_embd[:n] = features[start : start + n]
            rc = llama_cpp.llama_encode(self.ctx.ctx, b)
            if rc != 0:
                raise EngineError(words(ENCODER_FAILED, code=rc))
            ptr = llama_cpp_ext.llama_get_embeddings_nextn(self.ctx.ctx)
            out[start : start + n] = np.ctypeslib.as_array(ptr, shape=(n, self.n_embd))
        return out

    def _catch_up(self, tokens: list[int], upto: int, *, want_last: bool = False):
        """Make the head's cache hold entries 0..upto-1, entry P made of (tokens[P+1], g_P),
        as far as the g rows are known. With want_last (all must be known), return the
        logits and pre-norm state of entry upto-1."""
        self._encode_waiting()
        mine = self.ctx.tokens  # mine[P] is the token of entry P, x_{P+1}
        upto = min(upto, len(tokens) - 1)
        keep = common_prefix(mine, tokens[1:], upto)
        if keep < min(len(mine), upto):
            self.ctx.truncate(keep)  # entries of tokens the target no longer holds
        if want_last and len(mine) >= upto:
            self.ctx.truncate(upto - 1)  # its outputs are needed again
        start = len(mine)
        rows = []
        for p in range(start, upto):
            if p not in self._g:
                break
            rows.append(self._g[p])
        if want_last and start + len(rows) < upto:
            raise RuntimeError("the EAGLE-3 drafter lost the target's hidden state it needs")
        result = None
        if rows:
            result = self._decode(tokens[start + 1 : start + 1 + len(rows)], np.stack(rows),
                                  start, want_last=want_last)
        for p in [p for p in self._g if p < len(mine) - 1]:
            del self._g[p]  # used: only the last entry's is needed again
        return result

    def _decode(self, tokens: list[int], rows: np.ndarray, pos0: int, *, want_last: bool):
        """Write the entries (tokens[i], rows[i]) at positions pos0..; with want_last, return
        (logits, pre-norm state) of the last one."""
        assert len(self.ctx.tokens) == pos0
        b, cap = self._batch, self.ctx.n_batch
        n_total = len(tokens)
        if pos0 + n_total > self.ctx.n_ctx:
            raise EngineError(words(CONTEXT_FULL, n_ctx=self.ctx.n_ctx))
        # The head's graph computes outputs for every row and llama.cpp hands back the first
        # ones, so the rows before the one whose outputs are wanted must not ask for any: a
        # batch asks for all of its rows' outputs, or none (a long one is split before it).
        chunks = [(s, min(cap, n_total - s)) for s in range(0, n_total, cap)]
        if want_last and chunks[-1][1] > MAX_OUTPUT_ROWS:
            s, n = chunks.pop()
            chunks += [(s, n - 1), (s + n - 1, 1)]
        n = 0
        for start, n in chunks:
            outputs = want_last and start + n == n_total
            for i in range(n):
                b.token[i] = tokens[start + i]
                b.pos[i] = pos0 + start + i
                b.n_seq_id[i] = 1
                b.seq_id[i][0] = 0
                b.logits[i] = outputs
            b.n_tokens = n
            self._embd[:n] = rows[start : start + n]
            rc = llama_cpp.llama_decode(self.ctx.ctx, b)
            if rc != 0:
                raise EngineError(words(DECODE_FAILED, code=rc))
            self.ctx.tokens.extend(tokens[start : start + n])
        if not want_last:
            return None
        logits = llama_cpp.llama_get_logits_ith(self.ctx.ctx, n - 1)
        h = llama_cpp_ext.llama_get_embeddings_nextn_ith(self.ctx.ctx, n - 1)
        return (np.ctypeslib.as_array(logits, shape=(self.head.n_vocab,)),
                np.ctypeslib.as_array(h, shape=(self.n_embd,)).copy())
