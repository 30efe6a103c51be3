"""Drafting with a second, smaller GGUF model that shares the target's vocabulary.

The draft context keeps its KV cache in step with the conversation: before each proposal it
decodes only the one or two tokens it lacks (the target's correction, and the last accepted
draft, which was never decoded), instead of re-decoding the whole draft every step.
"""

from __future__ import annotations

import time

from backend import spec_types
from backend.engine import sampling
from backend.engine.context import DEFAULT_RS_SNAPSHOTS, Context
from backend.engine.drafters.base import DraftingSetup, Proposal, SamplingDrafter
from backend.engine.errors import EngineError
from backend.engine.model import LoadedModel
from backend.engine.tree.extend import extend_alternatives
from backend.engine.tree.structure import DraftTree
from backend.models.vocab import incompatibility
from backend.words import words

NEEDS_DRAFT = "Spec type 'draft' needs a draft model: load one first."
IS_EAGLE3 = "{name} is an EAGLE-3 head, not a draft model: it drafts with spec type EAGLE-3."
CANNOT_DRAFT_FOR = "{draft} cannot draft for {target}: {reason}"


def make(setup: DraftingSetup) -> DraftModelDrafter:
    """Spec type "draft" (`backend.spec_types`): refused without a draft model, or with one
    whose vocabulary cannot draft for the target."""
    if setup.draft is None:
        raise EngineError(words(NEEDS_DRAFT))
    draft = setup.draft.inspection
    if draft.eagle3 is not None:
        raise EngineError(words(IS_EAGLE3, name=draft.path.name))
    refused = spec_types.file_refusal("draft", draft.architecture, draft.path.name)
    if refused is not None:
        raise EngineError(refused)
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
        self._n_threads = n_threads

    def fit_tree(self, n_forks: int) -> None:
        """Make a context that can continue a tree's alternatives in forks of its cache
        (`extend_tree`), once: its cached prefix is lost. A recurrent draft cannot share its
        cells between sequences: its alternatives stay one token long."""
        if self.model.recurrent or self.ctx.n_seq_max > n_forks:
            return
        n_ctx = self.ctx.n_ctx
        self.ctx.close()
        self.ctx = Context(self.model, n_ctx=n_ctx, n_threads=self._n_threads,
                           n_seq_max=n_forks + 1)

    def extend_tree(self, history: list[int], tree: DraftTree, chain_len: int, budget: int,
                    worth: float | None) -> None:
        """Continue `tree`'s alternatives (tree/extend.py): each in a fork of this cache that
        shares the history and the chain up to its parent, one batch a level; greedy on this
        draft's row whatever the sampler (a tree's children are fixed proposals, which the
        walk verifies losslessly), the forks dropped after."""
        if self.ctx.n_seq_max < 2:
            return
        root = len(history) - 1
        fork_of: dict[int, int] = {}  # a node's fork: its sequence
        window = self.penalty_window(history)

        def next_tokens(nodes: list[int]) -> list[tuple[int, float] | None]:
            rows: list[tuple[int, int, int, bool]] = []
            asked = []
            for node in nodes:
                pos = root + tree.depth(node)
                parent_seq = fork_of.get(tree.parents[node])
                new = parent_seq is None
                seq = len(set(fork_of.values())) + 1 if parent_seq is None else parent_seq
                if new and (seq >= self.ctx.n_seq_max or pos > len(self.ctx.tokens)):
                    continue  # no sequence left, or the chain before it is not cached
                fork_of[node] = seq
                rows.append((seq, tree.tokens[node], pos, new))
                asked.append(node)
            if not rows:
                return [None] * len(nodes)
            logits = self.ctx.decode_forks(rows)
            got: dict[int, tuple[int, float]] = {}
            for i, node in enumerate(asked):
                seen = [*window, *(tree.tokens[n] for n in tree.path(node))]
                row = sampling.greedy_row(logits[i], self.sampling, seen)
                got[node] = (row.best, row.p(row.best))
            return [got.get(node) for node in nodes]

        try:
            extend_alternatives(tree, chain_len, budget, worth, next_tokens)
        finally:
            self.ctx.drop_forks(sorted(set(fork_of.values())))

    def read_prompt(self, history: list[int]) -> None:
        self.ctx.prefill(history[:-1])

    def propose(self, history: list[int], n_max: int) -> Proposal:
        n_max = min(n_max, self.ctx.n_ctx - len(history))
        if n_max <= 0:
            return Proposal()
        t0 = time.perf_counter()
        logits = self.ctx.sync(history)
        out = Proposal(catch_up_ms=1000 * (time.perf_counter() - t0))
        seq = self.penalty_window(history)
        for i in range(n_max):
            if not self.draft_next(logits, seq, out):
                break  # unsure, or the next draft is not worth decoding this one
            if i + 1 < n_max:
                logits = self.ctx.decode([seq[-1]])[0]
        return out

    def close(self) -> None:
        self.ctx.close()
