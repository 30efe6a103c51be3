"""Drafting with a DFlash head: a whole block of tokens from one pass of a small model.

A DFlash head (GGUF architecture `dflash`) is a separate file trained for one target. Its KV
cache holds, at each position P the target has decoded, K/V made from the inputs of some of
the target's layers at P (llama.cpp projects them through the head's `fc` and writes them
into the cache: "injection", a decode of embedding rows). To draft after the last token x_n,
which the target has not decoded yet, the head decodes the block [x_n, mask, mask, …] at
positions n, n+1, … in one pass, its attention not causal within the block, and the logits
of block row i propose the token at n+i: every draft token comes from the same pass, none is
fed back. As llama.cpp's `draft-dflash` (common/speculative.cpp), the block's entries go once
the draft is made, and the target's own states are written there after it has verified.

A head with a Markov head (`markov_w1`) is DSpark (llama.cpp's `draft-dspark`): the same pass,
its logits biased in the graph by the word drafted before; with `dflash.sample_from_anchor`
(the default) the anchor's own row proposes the first token, so a block of B rows drafts B
tokens, and an optional confidence head cuts the draft where it expects a rejection.

llama.cpp aborts the process on a head that does not fit the target, so `make` refuses those
first, in words. A DFlash2 head (with a selector) is refused: its tokens come from a lattice
this drafter does not read.
"""

from __future__ import annotations

import importlib
import mmap
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import llama_cpp
import numpy as np
from llama_cpp import llama_cpp_ext

from backend import spec_types
from backend.engine.context import Context
from backend.engine.drafters.base import DraftingSetup, Proposal
from backend.engine.drafters.layer_inputs import LayerInputFollower
from backend.engine.drafters.row_batch import RowBatch
from backend.engine.errors import EngineError
from backend.engine.model import LoadedModel
from backend.models.eagle3 import LAYER_CAPTURE_ARCHITECTURES
from backend.models.gguf_header import read_header
from backend.models.head_files import head_target_refusal
from backend.words import Words, words

ARCHITECTURE = "dflash"
DEFAULT_BLOCK_SIZE = 16  # llama.cpp's, for a head whose file does not say

NEEDS_HEAD = ("Spec type DFlash needs a DFlash head as the draft: choose one made for this "
              "target first.")
NO_BINDINGS = ("This build of llama.cpp does not export the functions DFlash needs, so spec "
               "type DFlash cannot draft ({error}).")
NO_CAPTURE = ("{target} is a {architecture} model, and llama.cpp cannot read the hidden states "
              "of that architecture, so no DFlash head can draft for it.")
NO_LAYERS = "{name} names no target layers to read, so llama.cpp cannot draft with it."
LAYER_OUT_OF_RANGE = ("{name} reads layer {layer} of its target, but {target} has {n} layers "
                      "(0–{last}): it was made for another model.")
OTHER_WIDTH = ("{name} has hidden size {n_embd} and {target} {target_n_embd}: a DFlash head "
               "reads the target's hidden states at its own size, so it was made for another "
               "model.")
OTHER_VOCAB_SIZE = ("{name} has a vocabulary of {n_vocab:,} tokens and {target} of "
                    "{target_vocab:,}: it was made for another model.")
OTHER_VOCAB_TEXTS = ("{name} has other token texts than {target}: it was made for another "
                     "model.")
NO_MASK = ("{name} has no mask token (tokenizer.ggml.mask_token_id) in its vocabulary, which "
           "block drafting needs.")
BLOCK_TOO_SMALL = "{name} drafts blocks of {block} tokens: too few to draft any."
DFLASH2 = ("{name} is a DFlash2 head (with a selector), which Draftlight cannot draft with yet: "
           "choose a DFlash or DSpark head.")
NO_LAYER_INPUTS = "The target gave no layer inputs, so DFlash cannot draft."
DECODE_FAILED = "llama.cpp failed to decode a DFlash batch (code {code})."


@dataclass(frozen=True)
class HeadFacts:
    """What drafting needs to know of a DFlash head, from its loaded model and its header."""

    target_layers: tuple[int, ...]
    n_embd: int
    block_size: int  # rows of a block: the anchor and the masks
    mask_token: int  # -1 when the vocabulary has none
    causal: bool  # attention causal within the block (dflash.attention.causal)
    dspark: bool  # has a Markov head
    sample_from_anchor: bool  # DSpark: the anchor's row proposes the first token
    has_confidence: bool  # DSpark: a confidence head cuts drafts short
    selector_top_k: int  # > 0: DFlash2


def _tensor_names(path: Path) -> set[str]:
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        return {t.name for t in read_header(mm).tensors}


def head_facts(head: LoadedModel, ext: ModuleType) -> HeadFacts:
    def flag(key: str, default: bool) -> bool:
        value = head.meta(f"{ARCHITECTURE}.{key}")
        return default if value is None else value == "true"  # as llama.cpp reads them

    block = head.meta(f"{ARCHITECTURE}.block_size")
    tensors = _tensor_names(Path(head.path))
    return HeadFacts(
        target_layers=tuple(ext.target_layer_ids(head.model)),
        n_embd=int(llama_cpp.llama_model_n_embd(head.model)),
        block_size=int(block) if block and block.isdigit() else DEFAULT_BLOCK_SIZE,
        mask_token=int(llama_cpp.llama_vocab_mask(head.vocab)),
        causal=flag("attention.causal", False),
        dspark="markov_w1.weight" in tensors,
        sample_from_anchor=flag("sample_from_anchor", True),
        has_confidence="conf_proj.weight" in tensors,
        selector_top_k=int(ext.llama_model_dflash_selector_top_k(head.model)),
    )


def misfit(target: LoadedModel, head: LoadedModel, facts: HeadFacts) -> Words | None:
    """Why `head` cannot draft for `target`, in one sentence; None when it can. Each case would
    make llama.cpp abort (a layer it does not have, another hidden size) or draft garbage."""
    name = Path(head.path).name
    t = target.inspection
    if t.architecture == ARCHITECTURE:
        return head_target_refusal(t.architecture, Path(target.path).name)
    if t.architecture not in LAYER_CAPTURE_ARCHITECTURES:
        return words(NO_CAPTURE, target=target.info.name, architecture=t.architecture)
    if not facts.target_layers:
        return words(NO_LAYERS, name=name)
    n_layers = t.n_layers - t.n_mtp_heads  # NextN blocks record no layer input
    bad = [lid for lid in facts.target_layers if not 0 <= lid < n_layers]
    if bad:
        return words(LAYER_OUT_OF_RANGE, name=name, layer=bad[0], target=target.info.name,
                     n=n_layers, last=n_layers - 1)
    target_n_embd = int(llama_cpp.llama_model_n_embd(target.model))
    if facts.n_embd != target_n_embd:
        return words(OTHER_WIDTH, name=name, n_embd=facts.n_embd, target=target.info.name,
                     target_n_embd=target_n_embd)
    if head.n_vocab != target.n_vocab:
        return words(OTHER_VOCAB_SIZE, name=name, n_vocab=head.n_vocab, target=target.info.name,
                     target_vocab=target.n_vocab)
    if t.vocab_fingerprint != head.inspection.vocab_fingerprint:
        return words(OTHER_VOCAB_TEXTS, name=name, target=target.info.name)
    if not 0 <= facts.mask_token < head.n_vocab:
        return words(NO_MASK, name=name)
    if facts.selector_top_k > 0:
        return words(DFLASH2, name=name)
    if facts.block_size < 2:
        return words(BLOCK_TOO_SMALL, name=name, block=facts.block_size)
    return None


def make(setup: DraftingSetup) -> DFlashDrafter:
    """Spec type "dflash" (`backend.spec_types`): refused without a DFlash (or DSpark) head as
    the draft, or with one that does not fit the target."""
    head = setup.draft
    if head is None:
        raise EngineError(words(NEEDS_HEAD))
    refused = spec_types.file_refusal("dflash", head.inspection.architecture,
                                      Path(head.path).name)
    if refused is not None:
        raise EngineError(refused)
    try:  # the bindings are looked up when the module is first imported
        ext = importlib.import_module("backend.engine.dflash_bindings")
    except AttributeError as exc:
        raise EngineError(words(NO_BINDINGS, error=exc)) from exc
    facts = head_facts(head, ext)
    reason = misfit(setup.target, head, facts)
    if reason is not None:
        raise EngineError(reason)
    return DFlashDrafter(setup.target, setup.target_ctx, head, facts, ext,
                         n_threads=setup.n_threads)


class DFlashDrafter(LayerInputFollower):
    no_layer_inputs = words(NO_LAYER_INPUTS)
    origin = "dflash"
    # Entry P is made of the target's state at P alone; pairing it with x_{P+1} (as EAGLE-3
    # does) only makes the bookkeeping keep it while the target keeps x_{P+1} too.
    OFFSET = 1

    def __init__(self, target: LoadedModel, target_ctx: Context, head: LoadedModel,
                 facts: HeadFacts, ext: ModuleType, *, n_threads: int) -> None:
        """`ext`: the module `backend.engine.dflash_bindings`."""
        self._ext = ext
        self.head = head
        self.facts = facts
        self.layer_ids = facts.target_layers
        self.n_embd_tgt = int(llama_cpp.llama_model_n_embd(target.model))
        self._n_threads = n_threads
        width = len(facts.target_layers) * self.n_embd_tgt
        super().__init__(self._new_context(target_ctx), n_embd=width, n_vocab=head.n_vocab)
        # the injection batch carries the target's features only: a batch with tokens as
        # well would be read as a block of tokens
        assert self._batch is not None
        self._batch.free()
        self._batch = RowBatch(self.ctx.n_batch, width, tokens=False)
        # the anchor's row drafts too in an anchor-first DSpark block
        self.anchor_drafts = facts.dspark and facts.sample_from_anchor
        self.longest_draft = facts.block_size - (0 if self.anchor_drafts else 1)
        self._seen: list[int] = []  # the target's tokens as of its last decode seen here
        self._target = target_ctx
        self._capturing = False

    def _new_context(self, target_ctx: Context) -> Context:
        ctx = Context(self.head, n_ctx=target_ctx.n_ctx, n_threads=self._n_threads,
                      ctx_other=target_ctx.ctx)
        llama_cpp.llama_set_causal_attn(ctx.ctx, self.facts.causal)
        llama_cpp_ext.llama_set_embeddings_nextn(ctx.ctx, True, True)
        return ctx

    # -- Drafter ---------------------------------------------------------------------------
    def propose(self, history: list[int], n_max: int) -> Proposal:
        n = len(history) - 1  # the anchor's position: the target has not decoded it yet
        if self._target is None or self._target.n_past != n:
            raise RuntimeError("the dflash drafter is out of step with the target context")
        n_max = min(n_max, self.longest_draft, self.ctx.n_ctx - n - 1)
        if n_max <= 0 or n == 0:
            return Proposal()
        t0 = time.perf_counter()
        self._catch_up(history, n)  # entries 0..n-1: the target's states
        if len(self.ctx.tokens) != n:
            raise RuntimeError("the dflash drafter lost the target's state it needs")
        first = 0 if self.anchor_drafts else 1  # the block row of the first draft token
        block = [history[-1]] + [self.facts.mask_token] * (first + n_max - 1)
        out = Proposal(catch_up_ms=1000 * (time.perf_counter() - t0),
                       block=(first, len(block)))
        try:
            logits = self.ctx.decode(block, all_logits=True)  # the one pass
            conf = self._confidence(len(block))
            seq = self.penalty_window(history)
            for i in range(n_max):
                row = first + i
                if conf is not None and conf[row] < self.p_min:
                    break  # the confidence head expects a rejection from here
                if not self.draft_next(logits[row], seq, out):
                    break
        finally:
            self.ctx.truncate(n)  # the block goes; the target's states are written there
        return out

    def _confidence(self, n_rows: int) -> np.ndarray | None:
        """DSpark's confidence per block row, read where p_min can cut a draft short."""
        if not (self.facts.dspark and self.facts.has_confidence and self.p_min > 0.0):
            return None
        ptr = llama_cpp_ext.llama_get_embeddings_nextn(self.ctx.ctx)
        if not ptr:
            return None
        rows = np.ctypeslib.as_array(ptr, shape=(n_rows, self.facts.n_embd))
        return rows[:, 0].copy()  # llama.cpp repeats it along each row

    def _decode_error(self, code: int) -> EngineError:
        return EngineError(words(DECODE_FAILED, code=code))
