"""Drafters in a chain (llama.cpp's `--spec-type ngram-mod,draft`): at each step the members
are asked in turn and the first that proposes anything drafts the step, as
`common_speculative_draft` tries its `impls`; the drafter's `origin` is then that member's,
so each drafted token says which one made it.

A member that is not asked still sees the history: at each step every member that learns
from it settles first (`base.HistoryLearner`: llama.cpp's `begin` on the prompt for all, and
its `accept` for the one that drafted the last step, the others learning nothing, as
`accept` with `is_other` tells them); the lookups index the history when they are next asked,
and a drafter that follows the target (MTP, EAGLE-3) sees each of its decodes through the
chain. Whoever drafts, the target verifies: a chain is as lossless as its members.

At most one member needs a model or heads (`backend.spec_types` refuses other chains): a
chain with one that samples is itself a `SamplingDrafter` (K auto's stopper and p_min reach
it), and a `PromptReader` or a `TargetFollower` as that member is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from backend.engine.drafters.base import (
    Drafter,
    DraftingSetup,
    HistoryLearner,
    PromptReader,
    Proposal,
    SamplingDrafter,
    TargetFollower,
)
from backend.engine.request import GenerationRequest

if TYPE_CHECKING:
    from backend.engine.context import Context
    from backend.spec_types import SpecType


def make(setup: DraftingSetup, members: Sequence[SpecType]) -> Chain:
    """A chain's factory (`backend.spec_types`): its members' drafters, each made by its own
    factory (which refuses, in words, what it cannot work with)."""
    drafters: list[Drafter] = []
    try:
        for spec in members:
            drafters.append(spec.make_drafter(setup))
    except BaseException:
        for d in drafters:
            d.close()
        raise
    model = next((d for d in drafters if isinstance(d, SamplingDrafter)), None)
    if isinstance(model, PromptReader):
        return ReadingChain(drafters, model)
    if isinstance(model, TargetFollower):
        return FollowingChain(drafters, model)
    if model is not None:
        return SamplingChain(drafters, model)
    return Chain(drafters)


class Chain:
    """Lookups in a chain. `origin`: the member that drafted the last proposal (the first
    member's before any)."""

    def __init__(self, members: list[Drafter]) -> None:
        self.members = members
        self.origin = members[0].origin
        self._last: Drafter | None = None  # the member that drafted the last step

    def begin(self, request: GenerationRequest, rng: np.random.Generator) -> None:
        for m in self.members:
            m.begin(request, rng)
        self.origin = self.members[0].origin
        self._last = None

    def propose(self, history: list[int], n_max: int) -> Proposal:
        for m in self.members:
            if isinstance(m, HistoryLearner):
                m.settle(history)
        for m in self.members:
            proposal = self._ask(m, history, n_max)
            if proposal.tokens:
                # a copy goes on from the last step's only if the same member made both
                proposal.continues = proposal.continues and m is self._last
                self.origin, self._last = m.origin, m
                return proposal
        self._last = None
        return Proposal()

    def _ask(self, member: Drafter, history: list[int], n_max: int) -> Proposal:
        return member.propose(history, n_max)

    def close(self) -> None:
        for m in self.members:
            m.close()


class SamplingChain(Chain, SamplingDrafter):
    """A chain with a member that samples from a model: the stopper K auto sets on the chain
    for the step (`judge`) is that member's when it is asked."""

    def __init__(self, members: list[Drafter], model: SamplingDrafter) -> None:
        SamplingDrafter.__init__(self)
        Chain.__init__(self, members)
        self.model = model

    def begin(self, request: GenerationRequest, rng: np.random.Generator) -> None:
        SamplingDrafter.begin(self, request, rng)
        Chain.begin(self, request, rng)

    def _ask(self, member: Drafter, history: list[int], n_max: int) -> Proposal:
        if member is self.model:
            self.model.judge = self.judge
        return member.propose(history, n_max)


class ReadingChain(SamplingChain):
    """Its model member reads the prompt (`PromptReader`) while the target does."""

    def read_prompt(self, history: list[int]) -> None:
        assert isinstance(self.model, PromptReader)
        self.model.read_prompt(history)


class FollowingChain(SamplingChain):
    """Its model member follows the target (`TargetFollower`): it sees every decode, the
    steps other members drafted included."""

    def follow(self, ctx: Context, tokens: list[int]) -> int:
        assert isinstance(self.model, TargetFollower)
        return self.model.follow(ctx, tokens)

    def observe(self, ctx: Context, pos0: int, tokens: list[int],
                rows: list[int] | None = None) -> None:
        assert isinstance(self.model, TargetFollower)
        self.model.observe(ctx, pos0, tokens, rows)
