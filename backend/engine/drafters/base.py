"""The interface every drafter implements."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from backend.engine import sampling
from backend.engine.adaptive_k import Go
from backend.engine.events import Origin
from backend.engine.request import GenerationRequest, SamplingSettings

if TYPE_CHECKING:
    from backend.engine.context import Context
    from backend.engine.model import LoadedModel


@dataclass(frozen=True)
class DraftingSetup:
    """What a drafter's factory (named in `backend.spec_types`) is made from: the engine's
    loaded models and target context. A factory refuses, with an EngineError in words, what
    its drafter cannot work with."""

    target: LoadedModel
    target_ctx: Context
    draft: LoadedModel | None  # the loaded draft model, if any
    n_threads: int


@dataclass
class Proposal:
    tokens: list[int] = field(default_factory=list)
    # q_i, the distribution token i was drawn from; None means proposed deterministically
    # (one-hot q), as n-gram lookup and greedy drafting do.
    dists: list[sampling.SampledRow | None] = field(default_factory=list)
    # the drafter's q_i(token i); None: it has none (a lookup), or it is read from the row in
    # `tops` when the step's event is made
    p_draft: list[float | None] = field(default_factory=list)
    heads: list[int | None] = field(default_factory=list)  # MTP head per token
    # For the inspector, optional (a drafter may leave them short): q's row per drafted token,
    # whose most likely tokens (`top()`) are read when the step's event is made, off the
    # decoding thread (so a row of its own, never a view of llama.cpp's buffer), and for a
    # drafter that copies, the position in the history each token was copied from.
    tops: list[sampling.Row | None] = field(default_factory=list)
    sources: list[int | None] = field(default_factory=list)
    # Of the drafter's time, what it spent first catching up on the tokens the target decoded
    # since its last draft (ms): K auto counts it apart from drafting, as it grows with the
    # plain steps since, not with the draft's length.
    catch_up_ms: float = 0.0
    # A lookup's: the drafts go on with the copy its last proposal came from (found at the same
    # distance back: the text has followed it since), as K auto counts them apart.
    continues: bool = False
    # A block drafter's one pass: (the block row of the first drafted token, the rows decoded)
    block: tuple[int, ...] = ()


class SamplingDrafter:
    """What a drafter that samples from a model keeps of each request: the sampler (applied
    as the target applies it, so q is comparable with p), p_min, and the answer's RNG."""

    def __init__(self) -> None:
        self.sampling = SamplingSettings()
        self.p_min = 0.0
        self.rng = np.random.default_rng(0)
        # K auto's confidence rule (AdaptiveK.stopper), set by the engine before each step:
        # given a draft's index and the drafter's probability of it, whether to verify it
        # and whether to draft past it.
        self.judge: Callable[[int, float], Go] | None = None

    def begin(self, request: GenerationRequest, rng: np.random.Generator) -> None:
        self.sampling = request.sampling
        self.p_min = request.p_min
        self.rng = rng
        self.judge = None  # a fixed K drafts up to K; K auto's engine sets it per step

    def penalty_window(self, history: list[int]) -> list[int]:
        """The history's last tokens that the repeat penalty reads, as a list of its own
        for `draft_next` to append the drafts to (a copy of the whole history each step
        cost what the conversation's length made it)."""
        n = min(self.sampling.repeat_last_n, len(history))
        return history[len(history) - n:] if n else []

    def draft_next(self, logits: np.ndarray, seq: list[int], out: Proposal,
                   head: int | None = None) -> bool:
        """Draw the next draft token from `logits` under the request's sampler (as the target
        applies it, so q is comparable with p) and add it, with its distribution q (None when
        greedy: q is one-hot), the drafter's probability of it, `head` and q's most likely
        tokens (for the inspector), to `out` and to `seq`. Whether to go on drafting: False,
        adding nothing, when the drafter is unsure (its top probability is below p_min,
        llama.cpp's rule; when sampling, the drawn token may be a less likely one, which says
        nothing of the confidence) or K auto's `judge` finds the token unlikely to pay for its
        place in the batch; False after adding it when `judge` finds the next one not worth
        decoding this one to see (the caller then decodes nothing more)."""
        s = self.sampling
        row: sampling.Row
        p: float | None
        if s.greedy:
            q = None
            row = sampling.greedy_row(logits, s, seq)
            x = row.best
            # greedy drafting decides on the argmax: its probability (a pass over the whole
            # vocabulary) is read now only where p_min or the judge weigh it, else later
            # from the row, for the inspector
            decides = self.p_min > 0.0 or self.judge is not None
            p = top_p = row.p(x) if decides else None
        else:
            q = row = sampling.sampled_row(logits, s, seq)
            x = q.draw(self.rng)
            p, top_p = q.p(x), q.peak()
        go = Go.ON if self.judge is None or p is None else self.judge(len(out.tokens), p)
        if (top_p is not None and top_p < self.p_min) or go is Go.DROP:
            return False
        out.tokens.append(x)
        out.dists.append(q)
        out.p_draft.append(p)
        out.heads.append(head)
        out.tops.append(row.detach((x,)))
        seq.append(x)
        return go is Go.ON


class Drafter(Protocol):
    origin: Origin

    def begin(self, request: GenerationRequest, rng: np.random.Generator) -> None:
        """A new request starts (sampling settings and RNG for this answer)."""

    def propose(self, history: list[int], n_max: int) -> Proposal:
        """Up to n_max tokens to follow `history` (prompt + answer so far, whose last token
        the target has not decoded yet)."""

    def close(self) -> None:
        """Free what the drafter holds."""


@runtime_checkable
class PromptReader(Protocol):
    """Optional, for a drafter with a context of its own to fill (a draft model). When an
    answer's first step drafts, the engine has it read the prompt while the prompt is
    processed, as llama.cpp's tools do: read at the first step, the draft model's pass over
    the prompt was counted in the answer's tokens/s (on the demo pair 90-210 ms of a
    128-token answer's 1.6-1.8 s, from a 47-token prompt; more, the longer the prompt),
    while plain decoding's prompt, read by the target alone, is not. The heads (MTP,
    EAGLE-3) are not PromptReaders yet: their catching up on the prompt runs one layer, not
    a model, and stays in their first step."""

    def read_prompt(self, history: list[int]) -> None:
        """Catch up on `history` but its last token, which the first draft decodes."""


@runtime_checkable
class LookupAlternatives(Protocol):
    """Optional, for a lookup that knows other continuations beside the one it proposed (n-gram
    lookup's older occurrences, map-k4v's other values): the branches of its token trees."""

    def alternatives(self, history: list[int], n_max: int
                     ) -> list[tuple[list[int], list[int | None]]]:
        """After `propose`: other continuations of the history, the likeliest first, each
        (at most n_max tokens, where in `history` each was copied from); one that shares the
        proposal's first tokens branches where it leaves them."""
        ...


@runtime_checkable
class HistoryLearner(Protocol):
    """Optional, for a lookup that learns from the history between its drafts, as llama.cpp's
    `begin` (the prompt) and `accept` (how much of its last draft the target kept) tell it:
    `propose` does it first. A chain (drafters/chain.py) calls it on every member at each
    step, so that one that drafted the last step learns its acceptance then, even when
    another member drafts this one (llama.cpp's `accept` with `is_other` for the others,
    which learn nothing from it)."""

    def settle(self, history: list[int]) -> None:
        """Take in `history` (as `propose` is given it) without drafting."""


@runtime_checkable
class TargetFollower(Protocol):
    """Optional, for a drafter that reads the target's own per-token outputs (MTP reads the
    NextN hidden rows). The engine calls `follow` before the prompt is decoded and routes
    every decode of the target context to `observe` until the request ends."""

    def follow(self, ctx: Context, tokens: list[int]) -> int:
        """The target is about to be made to hold `tokens`: return how many of its cached
        tokens it may keep (the drafter cannot always pick up from the whole cached prefix)."""

    def observe(self, ctx: Context, pos0: int, tokens: list[int],
                rows: list[int] | None = None) -> None:
        """The target just decoded `tokens` at positions pos0.. (rejected drafts included;
        what the target keeps is read from ctx.tokens later); `rows`, for a draft tree's kept
        branch, the rows of the tree's batch those tokens' outputs are at (else 0, 1, …)."""
