"""The base of the heads that read the inputs of some of the target's layers (EAGLE-3 and
DFlash, llama.cpp's `draft-eagle3` and `draft-dflash`): how such a head takes up a target
context, sees its decodes, and reads the captured rows. A subclass sets `layer_ids`, `_ext`
(its bindings of llama-ext.h), `n_embd_tgt`, `no_layer_inputs` and `_new_context`."""

from __future__ import annotations

from abc import abstractmethod
from types import ModuleType

import numpy as np

from backend.engine.context import Context, common_prefix
from backend.engine.drafters.follower import FollowerDrafter
from backend.engine.errors import EngineError
from backend.words import Words


class LayerInputFollower(FollowerDrafter):
    no_layer_inputs: Words  # the subclass's words for a target that gave no layer inputs
    layer_ids: list[int] | tuple[int, ...]
    n_embd_tgt: int
    _ext: ModuleType
    _seen: list[int]  # the target's tokens as of its last decode seen here
    _target: Context | None
    _capturing: bool

    @abstractmethod
    def _new_context(self, target_ctx: Context) -> Context:
        """The head's context, borrowing from the target's."""

    # -- TargetFollower -------------------------------------------------------------------
    def follow(self, ctx: Context, tokens: list[int]) -> int:
        if self._target is not ctx or not self._capturing:
            # a new target context (a recurrent target's, made for longer drafts): the
            # head's context borrows from the target's, so it is made again
            if self._target is not ctx:
                self.ctx.close()
                self.ctx = self._new_context(ctx)
            self._target = ctx
            self._forget_from(0)
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
            if self._state(p) is None:
                return p  # the target decodes it again, which gives its hidden state back
        return limit

    def observe(self, ctx: Context, pos0: int, tokens: list[int],
                rows: list[int] | None = None) -> None:
        super().observe(ctx, pos0, tokens, rows)
        del self._seen[pos0:]
        self._seen.extend(tokens)

    def _read_target(self, ctx: Context, n: int) -> np.ndarray:
        layers = []
        for lid in self.layer_ids:
            ptr = self._ext.llama_get_embeddings_layer_inp(ctx.ctx, lid)
            if not ptr:
                raise EngineError(self.no_layer_inputs)
            layers.append(np.ctypeslib.as_array(ptr, shape=(n, self.n_embd_tgt)))
        return np.concatenate(layers, axis=1)  # a copy: llama.cpp reuses its buffers
