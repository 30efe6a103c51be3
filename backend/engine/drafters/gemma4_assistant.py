"""Drafting with a Gemma 4 assistant: an MTP drafter shipped as a file of its own.

A Gemma 4 assistant (GGUF architecture `gemma4-assistant`) is a few NextN-style layers trained
for the Gemma 4 models. It has no KV cache of its own: llama.cpp gives its attention the
target's cache (its sliding-window layers read the target's last sliding-window layer, its
full layers the target's last layer), so it never catches up and never rolls back. Each step
decodes a token and a hidden row h at the position after the target's last: the first the
anchor x_n (the last token, not yet decoded by the target) with the target's final-norm row
of x_{n-1}, each further one the token just drafted with the assistant's own next h, at the
same position, as llama.cpp's `draft-mtp` does for an assistant (common/speculative.cpp).

llama.cpp crashes the process on an assistant given another target (its cache is read as
Gemma 4's), so `make` refuses every target but a Gemma 4 model of the assistant's width and
vocabulary, in words, before the assistant's context is made.
"""

from __future__ import annotations

from pathlib import Path

import llama_cpp
import numpy as np
from llama_cpp import llama_cpp_ext

from backend import spec_types
from backend.engine.context import Context, common_prefix
from backend.engine.drafters.base import DraftingSetup, Proposal, SamplingDrafter
from backend.engine.drafters.row_batch import RowBatch
from backend.engine.errors import EngineError
from backend.engine.model import LoadedModel
from backend.models.head_files import head_target_refusal
from backend.words import Words, words

ARCHITECTURE = "gemma4-assistant"
TARGET_ARCHITECTURE = "gemma4"
KEEP_ROWS = 512  # the target's rows kept back from its last decode (a draft reads one)

NEEDS_ASSISTANT = ("Spec type Gemma 4 assistant needs a Gemma 4 assistant as the draft: choose "
                   "the one made for this target first.")
NOT_GEMMA4 = ("{name} drafts only for Gemma 4 models, and {target} is a {architecture} model: "
              "it reads the target's own cache, which only a Gemma 4 model has.")
OTHER_WIDTH = ("{name} was made for a Gemma 4 model of hidden size {hidden}, and {target} has "
               "{target_hidden}.")
OTHER_HEAD_SIZE = ("{name} reads attention heads of size {size}, and {target}'s are "
                   "{target_size}: it was made for another Gemma 4 model.")
OTHER_VOCAB_SIZE = ("{name} has a vocabulary of {n_vocab:,} tokens and {target} of "
                    "{target_vocab:,}: it was made for another model.")
OTHER_VOCAB_TEXTS = ("{name} has other token texts than {target}: it was made for another "
                     "model.")
NO_HIDDEN_STATES = "The target gave no hidden states, so the Gemma 4 assistant cannot draft."
DECODE_FAILED = "llama.cpp failed to decode a Gemma 4 assistant step (code {code})."


def _meta_int(model: LoadedModel, key: str) -> int | None:
    value = model.meta(key)
    return int(value) if value is not None and value.isdigit() else None


def misfit(target: LoadedModel, assistant: LoadedModel) -> Words | None:
    """Why `assistant` cannot draft for `target`, in one sentence; None when it can."""
    name = Path(assistant.path).name
    arch = target.inspection.architecture
    if arch == ARCHITECTURE:
        return head_target_refusal(arch, Path(target.path).name)
    if arch != TARGET_ARCHITECTURE:
        return words(NOT_GEMMA4, name=name, target=target.info.name, architecture=arch)
    hidden = int(llama_cpp.llama_model_n_embd_out(assistant.model))
    target_hidden = int(llama_cpp.llama_model_n_embd(target.model))
    if hidden != target_hidden:
        return words(OTHER_WIDTH, name=name, hidden=hidden, target=target.info.name,
                     target_hidden=target_hidden)
    for key in ("attention.key_length", "attention.key_length_swa"):
        size = _meta_int(assistant, f"{ARCHITECTURE}.{key}")
        target_size = _meta_int(target, f"{TARGET_ARCHITECTURE}.{key}")
        if size is not None and target_size is not None and size != target_size:
            return words(OTHER_HEAD_SIZE, name=name, size=size, target=target.info.name,
                         target_size=target_size)
    if assistant.n_vocab != target.n_vocab:
        return words(OTHER_VOCAB_SIZE, name=name, n_vocab=assistant.n_vocab,
                     target=target.info.name, target_vocab=target.n_vocab)
    if target.inspection.vocab_fingerprint != assistant.inspection.vocab_fingerprint:
        return words(OTHER_VOCAB_TEXTS, name=name, target=target.info.name)
    return None


def make(setup: DraftingSetup) -> Gemma4AssistantDrafter:
    """Spec type "gemma4-assistant" (`backend.spec_types`): refused without an assistant as the
    draft, or for a target it was not made for."""
    assistant = setup.draft
    if assistant is None:
        raise EngineError(words(NEEDS_ASSISTANT))
    refused = spec_types.file_refusal("gemma4-assistant", assistant.inspection.architecture,
                                      Path(assistant.path).name)
    if refused is not None:
        raise EngineError(refused)
    reason = misfit(setup.target, assistant)
    if reason is not None:
        raise EngineError(reason)
    return Gemma4AssistantDrafter(assistant, setup.target_ctx, n_threads=setup.n_threads)


class Gemma4AssistantDrafter(SamplingDrafter):
    origin = "gemma4-assistant"

    def __init__(self, assistant: LoadedModel, target_ctx: Context, *, n_threads: int) -> None:
        super().__init__()
        self.assistant = assistant
        self.n_embd = int(llama_cpp.llama_model_n_embd_out(assistant.model))
        self._n_vocab = assistant.n_vocab
        self._n_threads = n_threads
        self._target = target_ctx
        self.ctx = self._new_context(target_ctx)
        self._batch: RowBatch | None = RowBatch(1, self.n_embd)
        self._rows: dict[int, np.ndarray] = {}  # the target's final-norm rows by position
        self._seen: list[int] = []  # the target's tokens as of its last decode seen here
        self._following = False

    def _new_context(self, target_ctx: Context) -> Context:
        ctx = Context(self.assistant, n_ctx=target_ctx.n_ctx, n_threads=self._n_threads,
                      ctx_other=target_ctx.ctx, ctx_type=llama_cpp.LLAMA_CONTEXT_TYPE_MTP)
        llama_cpp_ext.llama_set_embeddings_nextn(ctx.ctx, True, True)
        return ctx

    def close(self) -> None:
        if self._batch is not None:
            self._batch.free()
            self._batch = None
        self.ctx.close()

    # -- Drafter ---------------------------------------------------------------------------
    def propose(self, history: list[int], n_max: int) -> Proposal:
        n = len(history) - 1  # the anchor's position: the target has not decoded it yet
        if self._target.n_past != n:
            raise RuntimeError("the gemma4-assistant drafter is out of step with the target")
        if n == 0 or n_max <= 0:
            return Proposal()
        h = self._rows.get(n - 1)
        if h is None:
            raise RuntimeError("the gemma4-assistant drafter lost the target's state it needs")
        out = Proposal()  # no catching up: it reads the target's own cache
        seq = self.penalty_window(history)
        token = history[-1]
        for i in range(n_max):
            logits, h = self._step(token, h, n)
            if not self.draft_next(logits, seq, out) or i + 1 == n_max:
                break
            token = seq[-1]
        return out

    def _step(self, token: int, h: np.ndarray, pos: int) -> tuple[np.ndarray, np.ndarray]:
        assert self._batch is not None
        self._batch.fill(pos, h[None], [token], n_outputs=1)
        rc = llama_cpp.llama_decode(self.ctx.ctx, self._batch.batch)
        if rc != 0:
            raise EngineError(words(DECODE_FAILED, code=rc))
        logits = llama_cpp.llama_get_logits_ith(self.ctx.ctx, 0)
        row = llama_cpp_ext.llama_get_embeddings_nextn_ith(self.ctx.ctx, 0)
        return (np.ctypeslib.as_array(logits, shape=(self._n_vocab,)),
                np.ctypeslib.as_array(row, shape=(self.n_embd,)).copy())

    # -- TargetFollower -------------------------------------------------------------------
    def follow(self, ctx: Context, tokens: list[int]) -> int:
        if self._target is not ctx or not self._following:
            if self._target is not ctx:  # its context reads this target context's cache
                self.ctx.close()
                self.ctx = self._new_context(ctx)
            self._target = ctx
            self._rows.clear()
            self._seen.clear()
            llama_cpp_ext.llama_set_embeddings_nextn(ctx.ctx, True, False)
            self._following = True
        # decodes without this drafter (plain answers in between) made those rows stale
        valid = common_prefix(self._seen, ctx.tokens, len(ctx.tokens))
        self._forget_from(valid)
        limit = common_prefix(ctx.tokens, tokens, len(tokens))
        if limit > 0 and (limit - 1) not in self._rows:
            limit -= 1  # the target decodes it again, which gives its row back
        return limit

    def observe(self, ctx: Context, pos0: int, tokens: list[int],
                rows: list[int] | None = None) -> None:
        ptr = llama_cpp_ext.llama_get_embeddings_nextn(ctx.ctx)
        if not ptr:
            raise EngineError(words(NO_HIDDEN_STATES))
        at = list(range(len(tokens))) if rows is None else rows
        batch = np.ctypeslib.as_array(ptr, shape=(max(at) + 1, self.n_embd))
        self._forget_from(pos0)
        self._seen += ctx.tokens[len(self._seen) : pos0]  # a cached prefix it was followed on
        first = max(0, len(tokens) - KEEP_ROWS)
        for i in range(first, len(tokens)):
            self._rows[pos0 + i] = batch[at[i]].copy()
        for p in [p for p in self._rows if p < pos0 + len(tokens) - KEEP_ROWS]:
            del self._rows[p]
        self._seen.extend(tokens)

    def _forget_from(self, pos: int) -> None:
        del self._seen[pos:]
        for p in [p for p in self._rows if p >= pos]:
            del self._rows[p]
