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
never holds a draft step. Like MTP it follows the target (`FollowerDrafter`), unlike a draft
model (which reads only tokens), and unlike MTP its weights are a file of their own.

llama.cpp aborts the process on a head that does not fit its target, so `make` refuses those
first, in words (`backend.models.eagle3`).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import llama_cpp
import numpy as np
from llama_cpp import llama_cpp_ext

from backend import spec_types
from backend.engine.context import Context
from backend.engine.drafters.base import DraftingSetup
from backend.engine.drafters.layer_inputs import LayerInputFollower
from backend.engine.drafters.row_batch import RowBatch
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
DECODE_FAILED = "llama.cpp failed to decode an EAGLE-3 batch (code {code})."


def make(setup: DraftingSetup) -> Eagle3Drafter:
    """Spec type "eagle3" (`backend.spec_types`): refused without an EAGLE-3 head as the draft,
    or with one that does not fit the target."""
    if setup.draft is None:
        raise EngineError(words(NEEDS_HEAD))
    reason = (spec_types.file_refusal("eagle3", setup.draft.inspection.architecture,
                                      Path(setup.draft.path).name)
              or head_incompatibility(setup.target.inspection, setup.draft.inspection))
    if reason is not None:
        raise EngineError(reason)
    try:  # the bindings are looked up when the module is first imported
        ext = importlib.import_module("backend.engine.eagle3_bindings")
    except AttributeError as exc:
        raise EngineError(words(NO_BINDINGS, error=exc)) from exc
    return Eagle3Drafter(setup.target, setup.target_ctx, setup.draft, ext,
                         n_threads=setup.n_threads)


class Eagle3Drafter(LayerInputFollower):
    no_layer_inputs = words(NO_LAYER_INPUTS)
    origin = "eagle3"
    OFFSET = 1  # entry P: (x_{P+1}, g_P)
    OUTPUTS_EVERY_ROW = True  # the head's graph computes outputs for every row

    def __init__(self, target: LoadedModel, target_ctx: Context, head: LoadedModel,
                 ext: ModuleType, *, n_threads: int) -> None:
        """`ext`: the module `backend.engine.eagle3_bindings`."""
        self._ext = ext
        self.head = head
        self.target = target
        self.layer_ids = ext.target_layer_ids(head.model)
        n_layer = int(llama_cpp.llama_model_n_layer(target.model))
        self.n_embd_tgt = int(llama_cpp.llama_model_n_embd(target.model))
        n_vocab_ok = head.n_vocab == target.n_vocab
        # checked from the headers already; checked again on what llama.cpp loaded, since a
        # mismatch here aborts the process instead of failing
        if (len(self.layer_ids) != 3 or not all(0 <= lid < n_layer for lid in self.layer_ids)
                or not n_vocab_ok):
            raise EngineError(words(HEAD_MISFIT, head=head.info.name, target=target.info.name,
                                    layers=str(self.layer_ids), n_layer=n_layer,
                                    n_vocab=head.n_vocab, target_vocab=target.n_vocab))
        self._n_threads = n_threads
        super().__init__(self._new_context(target_ctx),
                         n_embd=int(llama_cpp.llama_model_n_embd(head.model)),
                         n_vocab=head.n_vocab)
        # the encoder's batch: rows of the target's concatenated features, no tokens
        self._enc: RowBatch | None = RowBatch(self.ctx.n_batch, 3 * self.n_embd_tgt,
                                              tokens=False)
        # the target's tokens as of its last decode this drafter saw: g_P is valid while the
        # target still holds the same tokens up to P
        self._seen: list[int] = []
        self._target = target_ctx
        self._capturing = False

    def _new_context(self, target_ctx: Context) -> Context:
        ctx = Context(self.head, n_ctx=target_ctx.n_ctx, n_threads=self._n_threads,
                      ctx_other=target_ctx.ctx)
        llama_cpp_ext.llama_set_embeddings_nextn(ctx.ctx, True, True)
        return ctx

    def close(self) -> None:
        if self._enc is not None:
            self._enc.free()
            self._enc = None
        super().close()

    def _encode(self, read: np.ndarray) -> np.ndarray:
        """The head's encoder over rows of target features: one g row each."""
        assert self._enc is not None
        out = np.empty((len(read), self.n_embd), np.float32)
        for start, n, _ in self._batches(len(read), want_last=False):
            # positions are unused by the encoder
            self._enc.fill(len(self.ctx.tokens), read[start : start + n], n_outputs=n)
            rc = llama_cpp.llama_encode(self.ctx.ctx, self._enc.batch)
            if rc != 0:
                raise EngineError(words(ENCODER_FAILED, code=rc))
            ptr = llama_cpp_ext.llama_get_embeddings_nextn(self.ctx.ctx)
            out[start : start + n] = np.ctypeslib.as_array(ptr, shape=(n, self.n_embd))
        return out

    def _decode_error(self, code: int) -> EngineError:
        return EngineError(words(DECODE_FAILED, code=code))
