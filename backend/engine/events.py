"""The events the engine yields: the whole contract between the engine and any view.

Events are frozen and self-contained, so a view never has to ask the engine anything back,
and a recorded sequence of them can be replayed to drive a UI test.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from backend.engine.plain_yardstick import MIN_STEPS, TOO_UNSURE, speedup_range
from backend.typed_json import LATER
from backend.words import Words, words_to_dict

# Where a token came from. "target": the target model produced it itself (a correction after
# a rejection, the bonus token after a fully accepted draft, or a plain-decoding token).
# Otherwise the name of the spec type whose drafter proposed it.
Origin = str
SpecType = str  # a name declared in backend.spec_types (a table, so that a drafter adds itself)
StopReason = Literal["eos", "length", "stop_string", "cancelled", "context_full"]


@dataclass(frozen=True, slots=True)
class Candidate:
    """One of a distribution's most likely tokens, for the inspector's top-5 lists."""

    id: int
    text: str
    p: float


@dataclass(frozen=True, slots=True)
class Verification:
    """What verification used to decide on one token, recorded as the engine decided: the
    inspector shows these values, never ones recomputed afterwards.

    Greedy (temperature 0): a draft stands when it is the target's most likely token.
    Sampled: a draft x stands when the uniform draw u < min(1, p(x) / q(x)); after a rejection
    the target's token is drawn from normalize(max(0, p − q)); after a fully accepted draft,
    and in plain decoding, from p itself.
    """

    rule: Literal["greedy", "sampled"]
    draw: float | None = None  # u, compared with accept_prob (sampled drafts only)
    accept_prob: float | None = None  # min(1, p/q) (sampled drafts only)
    # For the target's own token, how it was chosen: "argmax" (greedy), "residual" (drawn from
    # max(0, p − q) normalised, after a rejection) or "target" (drawn from p).
    drawn_from: Literal["", "argmax", "residual", "target"] = ""
    residual_p: float | None = None  # its probability under that residual
    top_target: tuple[Candidate, ...] = ()  # p's five most likely tokens at this position
    top_draft: tuple[Candidate, ...] = ()  # q's, when the drafter has a distribution
    # n-gram lookup: where in the conversation (token position) the copied token came from,
    # and the text that led up to it there, the match ending in it.
    match_at: int | None = None
    match_text: str = ""
    # A block drafter (DFlash): the one pass that proposed the step's draft, as (the block row
    # of its first token, the rows in all: the anchor, the last token the target wrote, then
    # the masks); token i of the draft came from row first + i. () for every other drafter.
    block: tuple[int, ...] = field(default=(), metadata={LATER: True})


def verification_to_json(v: Verification) -> str:
    """One compact JSON string: how an answer's token columns keep it (a string is one object
    the garbage collector never scans, where a Verification brings a dozen)."""
    return json.dumps([v.rule, v.draw, v.accept_prob, v.drawn_from, v.residual_p,
                       [[c.id, c.text, c.p] for c in v.top_target],
                       [[c.id, c.text, c.p] for c in v.top_draft], v.match_at, v.match_text,
                       list(v.block)],
                      ensure_ascii=True, separators=(",", ":"))


def verification_from_json(text: str) -> Verification:
    # answers kept before blocks were recorded have no tenth entry
    rule, draw, accept, drawn_from, residual_p, top_t, top_d, match_at, match_text, *block = (
        json.loads(text))
    return Verification(rule, draw, accept, drawn_from, residual_p,
                        tuple(Candidate(*c) for c in top_t), tuple(Candidate(*c) for c in top_d),
                        match_at, match_text, tuple(block[0]) if block and block[0] else ())


@dataclass(frozen=True, slots=True)
class Token:
    """One token as the viewer sees it.

    `text` is the UTF-8-safe incremental piece: for emitted tokens the pieces concatenate to
    exactly the final answer (a character split over several tokens appears whole on the token
    that completes it, the others carry ""). For rejected draft tokens `text` is the token's
    own decoded piece, for display only.
    """

    id: int
    text: str
    origin: Origin
    accepted: bool
    p_target: float | None = None
    p_draft: float | None = None
    head: int | None = None  # which MTP head drafted it (0-based), for origin "mtp"
    # What verification used on it (a Verification as compact JSON, see `verification`); None
    # for drafts after the first rejection (never verified) and for events recorded before
    # the inspector existed. Encoded by the engine, in the engine process: the window's side
    # only ever handles one string per token, never the dozen objects a Verification is.
    inspection: str | None = None

    @property
    def verification(self) -> Verification | None:
        """What verification used on this token, decoded (for the inspector, on demand)."""
        return None if self.inspection is None else verification_from_json(self.inspection)


@dataclass(frozen=True, slots=True)
class GenerationStarted:
    request_id: int
    spec_type: SpecType
    n_draft_max: int
    n_prompt_tokens: int
    # Whether a core is left beside llama.cpp's threads (a GPU model, or fewer threads than
    # cores): where none is, every frame the window draws is time the model waits for.
    spare_core: bool = True


@dataclass(frozen=True, slots=True)
class PromptProcessed:
    n_tokens: int  # prompt tokens in total
    n_cached: int  # of which were already in the KV cache from an earlier turn
    ms: float


@dataclass(frozen=True, slots=True)
class TreeNode:
    """One node of a step's draft tree (backend/engine/tree), in the order drafted: the chain's
    first choices, then the alternatives."""

    parent: int  # an earlier node's index, or -1 under the root (the history's last token)
    id: int
    text: str  # the token's own decoded piece, for display only
    q: float | None  # the drafter's probability of it
    p: float | None  # the target's, where its parent's row was read (the root, a kept node)
    rank: int  # among its siblings: 0 the drafter's first choice, 1 its second…
    kept: bool  # on the branch the target kept


def tree_children(tree: Sequence[TreeNode]) -> dict[int, list[int]]:
    """Each node's children (-1: the root's), in rank order: the drafter's first choice first.
    A file's tree is data: a node that does not follow its parent is left out."""
    children: dict[int, list[int]] = {}
    for i, node in enumerate(tree):
        if -1 <= node.parent < i:
            children.setdefault(node.parent, []).append(i)
    for ids in children.values():
        ids.sort(key=lambda i: tree[i].rank)
    return children


@dataclass(frozen=True, slots=True)
class StepVerified:
    """One draft-and-verify step (with spec type "none": one plain decoding step)."""

    step: int
    drafted: tuple[Token, ...]  # every proposed token, accepted ones first, then rejected ones
    n_accepted: int  # accepted drafts that joined the answer (none past its end)
    emitted: tuple[Token, ...]  # tokens appended to the answer: accepted prefix + target token
    draft_ms: float
    verify_ms: float
    # The step in all, drafting and verifying and making its events (0: not measured, as in
    # traces written before it was): plain steps' are plain decoding's yardstick.
    ms: float = 0.0
    # A tree step's whole tree as proposed (`drafted` reads as a chain's: the kept branch,
    # then the first choices rejected); () for a chain's step
    tree: tuple[TreeNode, ...] = ()


@dataclass(frozen=True, slots=True)
class Stats:
    n_prompt: int = 0
    n_cached: int = 0
    n_generated: int = 0
    n_steps: int = 0
    n_draft_steps: int = 0  # steps that verified a non-empty draft
    n_drafted: int = 0
    n_accepted: int = 0
    prompt_ms: float = 0.0
    generation_ms: float = 0.0
    draft_ms: float = 0.0
    verify_ms: float = 0.0
    ttft_ms: float = 0.0  # from the request to the first emitted token
    # Plain decoding of the same target, measured by this answer's own plain steps
    # (backend/engine/plain_yardstick.py): tokens/s, 0 when too few; how many steps; and the
    # relative standard error of their mean time.
    plain_tokens_per_second: float = 0.0
    plain_steps: int = 0
    plain_spread: float = 0.0
    # Per step, drafts accepted and drafted, as a remote server reported them (vLLM's detailed
    # per-request metrics); empty for the local engine, whose StepVerified events say it all.
    accepted_per_step: tuple[int, ...] = ()
    drafted_per_step: tuple[int, ...] = ()

    @property
    def speedup(self) -> float:
        """tokens/s over plain decoding's tokens/s on the same model, both measured in this
        answer; 0 when there is no figure (too few plain steps, or too spread to tell)."""
        if (self.plain_steps < MIN_STEPS or not self.plain_tokens_per_second
                or self.plain_spread > TOO_UNSURE):
            return 0.0
        return self.tokens_per_second / self.plain_tokens_per_second

    @property
    def sure_plain_tokens_per_second(self) -> float:
        """Plain decoding's tokens/s where the speedup has a figure; 0 where it has none: a
        rate from a few plain steps, or from steps too spread to tell (a busy machine), is
        no yardstick for the advisor either (it once advised 19x from one)."""
        return self.plain_tokens_per_second if self.speedup else 0.0

    @property
    def speedup_range(self) -> tuple[float, float]:
        """(low, high) the speedup lies in, about 95 % sure; (0, 0) when there is none."""
        return speedup_range(self.speedup, self.plain_spread) if self.speedup else (0.0, 0.0)

    @property
    def acceptance_rate(self) -> float:
        return self.n_accepted / self.n_drafted if self.n_drafted else 0.0

    @property
    def mean_accepted_per_step(self) -> float:
        """Mean number of draft tokens accepted per step that verified a draft."""
        return self.n_accepted / self.n_draft_steps if self.n_draft_steps else 0.0

    @property
    def tokens_per_step(self) -> float:
        """Mean tokens added to the answer per target decode (1.0 for plain decoding)."""
        return self.n_generated / self.n_steps if self.n_steps else 0.0

    @property
    def tokens_per_second(self) -> float:
        return 1000.0 * self.n_generated / self.generation_ms if self.generation_ms else 0.0

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["acceptance_rate"] = self.acceptance_rate
        d["mean_accepted_per_step"] = self.mean_accepted_per_step
        d["tokens_per_step"] = self.tokens_per_step
        d["tokens_per_second"] = self.tokens_per_second
        d["speedup"] = self.speedup
        return d


@dataclass(frozen=True, slots=True)
class GenerationFinished:
    stop_reason: StopReason
    text: str
    stats: Stats = field(default_factory=Stats)
    # Why K auto decoded most of the answer plainly, when it did (adaptive_k.DID_NOT_PAY)
    note: Words | None = None


@dataclass(frozen=True, slots=True)
class GenerationFailed:
    message: str  # one sentence a user can act on, in English
    detail: str = ""  # technical detail for a log or an expander
    crashed: bool = False  # the engine process died (a native fault or a kill), see remote.py
    words: Words | None = None  # the message as template and values, for a window to translate


Event = GenerationStarted | PromptProcessed | StepVerified | GenerationFinished | GenerationFailed

EVENT_NAMES: dict[type, str] = {
    GenerationStarted: "started",
    PromptProcessed: "prompt",
    StepVerified: "step",
    GenerationFinished: "finished",
    GenerationFailed: "failed",
}


def event_to_dict(event: Event) -> dict:
    """A JSON-ready dict of an event, with an "event" key naming its kind."""
    d: dict[str, Any] = {"event": EVENT_NAMES[type(event)]}
    d.update(dataclasses.asdict(event))
    if isinstance(event, GenerationFinished):
        d["stats"] = event.stats.to_dict()
    if isinstance(event, GenerationFailed):
        if event.words is None:
            del d["words"]
        else:
            d["words"] = words_to_dict(event.words)
    return d


def accepted_before_rejection(step: StepVerified) -> int:
    """How many of the step's drafts the target accepted before its first rejection, read
    from the drafts' `accepted` flags, not from `n_accepted`, which leaves out drafts accepted
    past the answer's end: the target did accept them, which is what predicts the next
    answer."""
    n = 0
    while n < len(step.drafted) and step.drafted[n].accepted:
        n += 1
    return n
