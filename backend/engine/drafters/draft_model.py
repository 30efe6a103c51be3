"""Drafting with a second, smaller GGUF model that shares the target's vocabulary.

The draft context keeps its KV cache in step with the conversation: before each proposal it
decodes only the one or two tokens it lacks (the target's correction, and the last accepted
draft, which was never decoded), instead of re-decoding the whole draft every step.
"""

from __future__ import annotations

import time

from backend import spec_types
from backend.engine.context import DEFAULT_RS_SNAPSHOTS, Context
from backend.engine.drafters.base import DraftingSetup, Proposal, SamplingDrafter
from backend.engine.errors import EngineError
from backend.engine.model import LoadedModel
from backend.models.vocab import incompatibility
from backend.words import words

NEEDS_DRAFT = "Spec type 'draft' needs a draft model: load one first."
IS_EAGLE3 = "{name} is an EAGLE-3 head, not a draft model: it drafts with spec type EAGLE-3."
IS_HEAD = "{name} is a {architecture} file, not a draft model: it drafts with spec type {spec}."
CANNOT_DRAFT_FOR = "{draft} cannot draft for {target}: {reason}"


def make(setup: DraftingSetup) -> DraftModelDrafter:
    """Spec type "draft" (`backend.spec_types`): refused without a draft model, or with one
    whose vocabulary cannot draft for the target."""
    if setup.draft is None:
        raise EngineError(words(NEEDS_DRAFT))
    draft = setup.draft.inspection
    if draft.eagle3 is not None:
        raise EngineError(words(IS_EAGLE3, name=draft.path.name))
    head = spec_types.drafting_with_file(draft.architecture)
    if head.needs != "draft_model":
        raise EngineError(words(IS_HEAD, name=draft.path.name, architecture=draft.architecture,
                                spec=head.label))
    return DraftModelDrafter(setup.target, setup.draft, n_ctx=setup.target_ctx.n_ctx,
                             n_threads=setup.n_threads)


class DraftModelDrafter(SamplingDrafter):
    origin = "draft"

    def __init__(self, target: LoadedModel, draft: LoadedModel, *, n_ctx: int, n_threads: int):
        super().__init__()
        reason = incompatibility(target.vocab_info(), draft.vocab_info())
        if reason is not None:
            raise EngineError(words(CANNOT_DRAFT_FOR, draft=draft.info.name,
                                    target=target.info.name, reason=reason))
        self.model = draft
        # A recurrent or hybrid draft (e.g. a small Qwen3.5) rolls back its rejected drafts
        # through state snapshots; without them every rejection re-decodes its whole history.
        snapshots = DEFAULT_RS_SNAPSHOTS if draft.recurrent else 0
        self.ctx = Context(draft, n_ctx=n_ctx, n_threads=n_threads, n_rs_seq=snapshots,
                           n_ubatch=max(512, snapshots + 1))

    def read_prompt(self, history: list[int]) -> None:
        self.ctx.prefill(history[:-1])

    def propose(self, history: list[int], n_max: int) -> Proposal:
        n_max = min(n_max, self.ctx.n_ctx - len(history))
        if n_max <= 0:
            return Proposal()
        t0 = time.perf_counter()
        logits = self.ctx.sync(history)
        out = Proposal(catch_up_ms=1000 * (time.perf_counter() - t0))
        seq = list(history)
        for i in range(n_max):
            if not self.draft_next(logits, seq, out):
                break  # unsure, or the next draft is not worth decoding this one
            if i + 1 < n_max:
                logits = self.ctx.decode([seq[-1]])[0]
        return out

    def close(self) -> None:
        self.ctx.close()
