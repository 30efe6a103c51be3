"""The Advisor: from what answers measured, the draft length K expected to be fastest, in words.

The model is K auto's (backend/engine/speedup_model.py), with T in plain decoding steps:

- tokens per step  E(K) = 1 + α₁ + α₁α₂ + … + α₁…α_K, which for one α is
  (1 − α^(K+1)) / (1 − α);
- time per step    T(K) = 1 + K·c + K·β: c is a drafted token's cost and β what one more
  token adds to the verify batch, both as fractions of a plain step; or, when a plain step's
  time, the verify line and a step's overhead are all measured, their sum over a plain
  step's time (`_estimate`);
- speedup          S(K) = E(K) / T(K).

With β = 0 this is the prediction `bench/spec_bench.py` prints. β is measured because on a CPU
a batch is not free: the verify batch's matrix products grow with K + 1 (on a GPU they fill
idle lanes), and llama.cpp is built here without llamafile's sgemm (lossless greedy decoding
needs batch-independent sums, see ARCHITECTURE.md), which makes batches dearer still. The
counting pair runs at 0.4–0.7 of the β = 0 prediction; an advisor that assumed free batches
would recommend drafts longer than pay.

Everything is computed from the engine's events (`StepVerified`) and `Stats`'s plain
tokens/s, so a recorded trace can be advised as well as a live answer. Nothing here raises on
what was measured: too little, nothing, α = 0 or 1 are said in words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from backend.engine.adaptive_k import AUTO_K_CAP
from backend.engine.events import StepVerified, accepted_before_rejection
from backend.engine.median_line import median_points, weighted_line
from backend.engine.speedup_model import (
    StepCost,
    best_length,
    expected_tokens_per_step_by_position,
)
from backend.engine.verify_costs import SIZE_MIN_SAMPLES
from backend.settings_schema import N_DRAFT
from backend.spec_types import SpecType
from backend.tree_advice import TreePrediction
from backend.words import Words, words

# Below this many steps with a draft, one lucky or unlucky stretch moves α by more than 0.1
# (its standard error at α = 0.8 over 20 steps is 0.09): no K and no figure are advised.
MIN_DRAFT_STEPS = 20
# The range given with the expected speedup: each position's α at the ends of its Wilson
# score interval (this many standard errors), the costs as measured.
RANGE_Z = 1.96
# The draft lengths advised on: those the settings accept.
K_RANGE = range(int(N_DRAFT.minval or 1), int(N_DRAFT.maxval or 32) + 1)
# K auto's steps say how long its controller chose to draft, not how long a fixed K's drafts
# would be, and the advice is for a fixed K, so they are read by the kind of drafter:
# - "model": a drafter that samples a model makes every draft a fixed K asks for, where K
#   auto's were as long as its controller and stopper let them be; each K is costed at K
#   drafts (read off the steps, a long K would cost the few drafts K auto made on average
#   while E(K) counts all K positions);
# - "lookup": n-gram lookup makes what it finds, and a step K auto asked for drafts but that
#   found none drafted nothing: its steps are read as a fixed K = AUTO_K_CAP's (a draft
#   shorter than asked, or none, reaches the next position and gains nothing there). Read
#   as a controller's choices, only the steps that found a match would count, and the
#   advice would promise far more than a fixed K gives.
KAutoDrafter = Literal["model", "lookup"]
# After a model drafter's K auto steps, only the draft lengths those steps measured
# (SIZE_MIN_SAMPLES times, as K auto itself costs a batch size by its own steps) are advised,
# each costed by the median of its own steps' drafting and verifying. K auto drafts long
# where drafting pays, and the lines through its long drafts, read back to a short one, put
# both the verify batch and the drafting well below what a short draft costs: the short K
# would be advised on costs it does not have.


NO_DRAFT_YET = ("No draft has been verified yet: answer with a spec type other than none to "
                "measure how often drafts are accepted.")
TOO_FEW_STEPS = ("Too few steps to advise: only {n} steps with a draft were measured ({min} or "
                 "more are needed).")
COST_UNKNOWN = ("The draft's cost is unknown: no plain decoding speed was measured for this "
                "target, so the speedup of each K cannot be estimated.")
BETA_UNKNOWN = ("The verification cost per extra token was not measured (every verify batch "
                "had one size): batches are taken as free, as on a GPU, which overstates the "
                "speedup on a CPU.")
LONGER_UNTRIED = ("No draft longer than {longest} was measured; if position {longest}'s "
                  "acceptance held further, K = {k} would give {speedup:.2f}×: try it to "
                  "measure.")
NOT_COSTED = ("K auto verified fewer than {min} batches of {n} tokens, so what K = {k} costs "
              "was not measured and it is not advised; the line through the batches it did "
              "verify puts it at {speedup:.2f}×: try it to measure.")
CONFIDENT_ONLY = ("K auto stops a draft where the draft model is unsure, so the acceptance "
                  "measured is that of its surer drafts: a fixed K drafts the unsure ones too "
                  "and may give less than these figures (try one to measure it).")
KEEP_K_AUTO = ("K auto made this answer {measured:.2f}× as fast as plain decoding; of the lengths "
               "it measured, no fixed K is expected to do better (K = {k} at most "
               "{speedup:.2f}×): keep K auto.")
K_AUTO_OWN = ("K auto's steps put K = {k} at {speedup:.2f}×, but they are its own drafts: a "
              "fixed K also drafts where K auto stops, and may give much less. Keep K auto, or "
              "make one answer at K = {k} to measure it.")
ALL_ACCEPTED = "Every one of the {n} drafts was accepted."
NONE_ACCEPTED = "None of the {n} drafts was accepted."
SLOWER = ("Speculation is expected to be slower than plain decoding at every K from {first} "
          "to {last} (at best {speedup:.2f}× at K = {k}). Likely reason: {reasons}. Plain "
          "decoding (spec type none) should be faster.")
BEST = ("Best K = {k}: about {tokens:.2f} tokens per step, an expected {speedup:.2f}× over "
        "plain decoding ({low:.2f}–{high:.2f}× within what the acceptance measured allows; "
        "c = {c:.2f}, β = {beta:.2f}).")
LOW_ACCEPTANCE = "low acceptance (the target accepts {rate:.0%} of first draft tokens)"
SLOW_DRAFT = "the draft is too slow (a drafted token costs {c:.2f} of a plain step)"
DEAR_BATCH = ("batch verification is dear on this CPU (each extra token in the verify batch "
              "adds {beta:.2f} of a plain step)")
TEMPLATES = (NO_DRAFT_YET, TOO_FEW_STEPS, COST_UNKNOWN, BETA_UNKNOWN, LONGER_UNTRIED,
             NOT_COSTED, CONFIDENT_ONLY, KEEP_K_AUTO, K_AUTO_OWN, ALL_ACCEPTED, NONE_ACCEPTED,
             SLOWER, BEST, LOW_ACCEPTANCE, SLOW_DRAFT, DEAR_BATCH)


def k_auto_drafter(spec: SpecType | None) -> KAutoDrafter | None:
    """The kind of drafter a spec type's K auto steps come from (see KAutoDrafter)."""
    if spec is None or not spec.drafts:
        return None
    return "model" if spec.uses_p_min else "lookup"


@dataclass(frozen=True, slots=True)
class PositionAcceptance:
    """How drafts fared at one position (1-based) of the draft."""

    position: int
    n_reached: int  # steps that drafted this position with every earlier draft accepted
    n_accepted: int  # of which the target accepted this position's draft too

    @property
    def alpha(self) -> float | None:
        """α at this position; None when no step reached it."""
        return self.n_accepted / self.n_reached if self.n_reached else None


@dataclass(frozen=True, slots=True)
class VerifyLine:
    """verify_ms ≈ intercept_ms + per_token_ms · batch, the batch being K + 1 tokens."""

    intercept_ms: float
    per_token_ms: float

    def ms(self, batch: float) -> float:
        return self.intercept_ms + self.per_token_ms * batch

    @property
    def beta(self) -> float | None:
        """β: one more token's share of a batch of one (a plain step); None if senseless."""
        one = self.ms(1)
        return max(0.0, self.per_token_ms) / one if one > 0 else None


@dataclass(frozen=True, slots=True)
class KEstimate:
    k: int
    tokens_per_step: float  # E(K)
    time_per_step: float  # T(K), in plain decoding steps
    ms_per_step: float | None  # T(K) in milliseconds, when a plain step's time is known
    speedup: float  # S(K) over plain decoding
    measured: bool  # False when K is longer than any draft measured (α carried forward)


@dataclass(frozen=True, slots=True)
class Advice:
    rows: tuple[KEstimate, ...]  # one per K advised on; empty when nothing can be said
    best_k: int | None
    speedup: float | None  # expected at best_k
    # (low, high) of that speedup, from the acceptance's uncertainty (RANGE_Z); None with it
    speedup_range: tuple[float, float] | None
    warning: str | None  # speculation is expected to be slower than plain decoding, and why
    summary: str  # one sentence: the advice, or why there is none
    notes: tuple[str, ...]  # what the figures rest on: too few steps, assumed costs
    positions: tuple[PositionAcceptance, ...]
    n_draft_steps: int
    cost_ratio: float | None  # c
    verify_cost: float | None  # β
    # The same sentences as Words, for a window that shows them translated.
    summary_words: Words | None = None
    warning_words: Words | None = None
    notes_words: tuple[Words, ...] = ()
    # An answer that verified token trees: (its trees, the chains they grew from) as
    # backend/tree_advice.py predicts them from its steps; None for chains.
    trees: tuple[TreePrediction, TreePrediction] | None = None

    @property
    def text(self) -> str:
        """Everything in words, for a label or a terminal."""
        return "\n".join([self.summary, *([self.warning] if self.warning else []), *self.notes])


def acceptance_by_position(steps: Sequence[StepVerified]) -> tuple[PositionAcceptance, ...]:
    """α per position, up to the longest draft among `steps`."""
    return positions_from_lengths([len(s.drafted) for s in steps],
                                  [accepted_before_rejection(s) for s in steps])


def positions_from_lengths(drafted: Sequence[int], accepted: Sequence[int],
                           asked: int | None = None) -> tuple[PositionAcceptance, ...]:
    """α per position from each step's draft length and its drafts accepted before the first
    rejection (accepted drafts come first, so the two say which positions were reached).

    `asked`, the K every step asked for, when one was (a fixed K): a drafter that gave fewer
    (n-gram finding no match, a drafter stopping on its confidence) and saw them all accepted
    counts as reaching the next position and gaining nothing there, which is what that step
    gained; without it, such a position would look as good as the drafts that were made."""
    longest = max(drafted, default=0)
    if asked:
        longest = max(longest, min(asked, max((d + 1 for d, ok in zip(
            drafted, accepted, strict=True) if ok >= d), default=0)))
    reached, n_accepted = [0] * longest, [0] * longest
    for n_drafted, n_ok in zip(drafted, accepted, strict=True):
        n_ok = min(n_ok, n_drafted)
        made = n_drafted if not asked or n_drafted >= asked else n_drafted + 1
        for i in range(min(n_ok + 1, made)):  # up to the first rejection, which counts
            reached[i] += 1
        for i in range(n_ok):
            n_accepted[i] += 1
    return tuple(PositionAcceptance(i + 1, reached[i], n_accepted[i]) for i in range(longest))


def mean_draft_lengths(drafted: Sequence[int], n_draft_max: int,
                       asked: int | None = None) -> list[float]:
    """L(K) for K = 0..n_draft_max: the drafts a step makes on average when it asks for K, from the
    steps' own lengths (a step that made n would make min(n, K)); past the longest draft
    measured, the steps that made the longest make as many as asked. A model drafter makes K;
    n-gram lookup fewer, as it finds. Without `asked` (K auto chose each step's length, 0 at
    times) only the steps that drafted count, as in `positions_from_lengths`."""
    steps = [d for d in drafted if asked or d] or [0]
    longest = max(steps)
    full = sum(1 for d in steps if d == longest) / len(steps) if longest else 1.0
    return [sum(min(d, k) for d in steps) / len(steps) + full * max(0, k - longest)
            for k in range(n_draft_max + 1)]


def draft_ms_per_token(steps: Sequence[StepVerified]) -> float | None:
    """The measured drafting time per drafted token (syncing the draft included)."""
    return _draft_ms_per_token([len(s.drafted) for s in steps], [s.draft_ms for s in steps])


def _draft_ms_per_token(drafted: Sequence[int], draft_ms: Sequence[float]) -> float | None:
    n = sum(drafted)
    return sum(ms for d, ms in zip(drafted, draft_ms, strict=True) if d) / n if n else None


def fit_verify_line(steps: Sequence[StepVerified],
                    plain_tokens_per_second: float = 0.0) -> VerifyLine | None:
    """Least squares of verify_ms against the batch size (K + 1) over `steps`.

    When every batch had one size (a fixed K, no plain steps), the plain decoding step from
    `plain_tokens_per_second` is the batch of one that makes a line; None if there is still
    only one size.
    """
    return _fit_verify_line([len(s.drafted) for s in steps], [s.verify_ms for s in steps],
                            plain_tokens_per_second)


def _fit_verify_line(drafted: Sequence[int], verify_ms: Sequence[float],
                     plain_tokens_per_second: float) -> VerifyLine | None:
    """Least squares through the median time of each batch size, weighted by its count: one
    step that the machine stalled for half a second (another process, a page fault) moves a
    mean by milliseconds, the median not at all."""
    pairs = [(d + 1.0, ms) for d, ms in zip(drafted, verify_ms, strict=True)]
    if len({x for x, _ in pairs}) < 2 and plain_tokens_per_second > 0:
        pairs.append((1.0, 1000.0 / plain_tokens_per_second))
    line = weighted_line(median_points(pairs))
    return VerifyLine(*line) if line is not None else None


def _costed_lengths(drafted: Sequence[int], draft_ms: Sequence[float],
                    verify_ms: Sequence[float]) -> dict[int, float]:
    """{K: the median of drafting and verifying, in ms, over the steps that drafted K} for the
    K that at least SIZE_MIN_SAMPLES steps drafted (see NOT_COSTED): a step's own times, not
    a per-token mean that spreads a long draft's fixed cost over its tokens."""
    points = median_points((d, dm + vm) for d, dm, vm in zip(
        drafted, draft_ms, verify_ms, strict=True) if d)
    return {int(k): ms for k, ms, count in points if count >= SIZE_MIN_SAMPLES}


def _alphas(positions: Sequence[PositionAcceptance], n_draft_max: int) -> list[float]:
    """α₁…α_k_max: a position no step reached takes the α of the last one that was."""
    return _carried([p.alpha for p in positions], n_draft_max)


def _carried(values: Sequence[float | None], n_draft_max: int) -> list[float]:
    """`values` (α per position, None where unreached) to n_draft_max, each None and each position
    past the end taking the last known α."""
    out: list[float] = []
    last = 0.0
    for i in range(n_draft_max):
        a = values[i] if i < len(values) else None
        last = last if a is None else a
        out.append(last)
    return out


def _alpha_bounds(positions: Sequence[PositionAcceptance]
                  ) -> tuple[list[float | None], list[float | None]]:
    """Each position's α at the low and at the high end of its Wilson score interval
    (RANGE_Z): what the acceptance measured allows (None where no step reached it)."""
    z2 = RANGE_Z * RANGE_Z
    lows: list[float | None] = []
    highs: list[float | None] = []
    for p in positions:
        n, a = p.n_reached, p.alpha
        if a is None:
            lows.append(None)
            highs.append(None)
            continue
        centre = (a + z2 / (2 * n)) / (1 + z2 / n)
        half = RANGE_Z * (a * (1 - a) / n + z2 / (4 * n * n)) ** 0.5 / (1 + z2 / n)
        lows.append(max(centre - half, 0.0))
        highs.append(min(centre + half, 1.0))
    return lows, highs


def step_overhead_ms(stats) -> float | None:
    """A step's time outside drafting and verifying (its events made and sent, the loop),
    from an answer's Stats; None when it had no step."""
    if not stats.n_steps:
        return None
    return max(0.0, (stats.generation_ms - stats.draft_ms - stats.verify_ms) / stats.n_steps)


def _estimate(alphas: Sequence[float], ks: Sequence[int], c: float, beta: float,
              plain_ms: float | None, longest: int, line: VerifyLine | None = None,
              overhead_ms: float | None = None,
              lengths: Sequence[float] | None = None,
              costed: dict[int, float] | None = None) -> tuple[KEstimate, ...]:
    """T(K) is paid for the L(K) drafts a step makes (`mean_draft_lengths`; K when not
    given). With a plain step's time, the verify line and the step overhead all measured, it
    is their sum in ms over the plain step: L·c + V(L + 1) + overhead, or where `costed` has
    K (a model drafter's K auto steps), its measured drafting and verifying + overhead. A
    speculative step pays more than a plain one outside its batch (its drafts' events, the
    drafter's bookkeeping), which 1 + K·(c + β) takes as equal; on the small test models it
    is a third of a step."""
    in_ms = _cost_in_ms(c, plain_ms, line, overhead_ms)
    in_steps = StepCost(0.0, c, lambda n: 1.0 + n * beta)
    rows = []
    for k in ks:
        e = expected_tokens_per_step_by_position(alphas, k)
        n = lengths[k] if lengths is not None and k < len(lengths) else float(k)
        if in_ms is not None and plain_ms and overhead_ms is not None:
            measured = (costed or {}).get(k) if n == k else None
            t = (in_ms.time(n) if measured is None else measured + overhead_ms) / plain_ms
        else:
            t = in_steps.time(n)
        rows.append(KEstimate(k, e, t, plain_ms * t if plain_ms else None, e / t,
                              k <= longest))
    return tuple(rows)


def _cost_in_ms(c: float, plain_ms: float | None, line: VerifyLine | None,
                overhead_ms: float | None) -> StepCost | None:
    """T(K) in ms, when a plain step's time, the verify line and the overhead are known."""
    if not plain_ms or line is None or overhead_ms is None:
        return None
    return StepCost(0.0, c * plain_ms, lambda n: max(line.ms(n + 1), 0.0),
                    lambda n: overhead_ms)


def _best(rows: Sequence[KEstimate]) -> KEstimate:
    """The row of the highest speedup, the shorter draft on a tie."""
    by_k = {r.k: r for r in rows}
    return by_k[best_length({k: r.speedup for k, r in by_k.items()})]


def _reasons(alphas: list[float], ks: Sequence[int], c: float, beta: float,
             longest: int) -> list[Words]:
    """Why speculation loses, in words. Each cause is judged by what taking it away would
    give (every draft accepted, a free draft, a free batch): the one that would gain most is
    named, and any other that alone would make speculation pay and gain at least half as
    much (so that a cost of 0.1 is not blamed next to an acceptance of 15%)."""
    def best_without(alphas_: list[float], c_: float, beta_: float) -> float:
        return _best(_estimate(alphas_, ks, c_, beta_, None, longest)).speedup

    causes = sorted([
        (best_without([1.0] * len(alphas), c, beta), words(LOW_ACCEPTANCE, rate=alphas[0])),
        (best_without(alphas, 0.0, beta), words(SLOW_DRAFT, c=c)),
        (best_without(alphas, c, 0.0), words(DEAR_BATCH, beta=beta)),
    ], key=lambda cause: -cause[0])
    top = causes[0][0]
    floor = 1.0 + (top - 1.0) / 2
    return [causes[0][1]] + [text for speedup, text in causes[1:]
                             if speedup > 1.0 and speedup >= floor]


def advise(steps: Sequence[StepVerified], *, plain_tokens_per_second: float = 0.0,
           cost_ratio: float | None = None, verify_line: VerifyLine | None = None,
           overhead_ms: float | None = None, asked: int | None = None,
           k_auto: KAutoDrafter | None = None, k_auto_speedup: float | None = None,
           ks: Sequence[int] = K_RANGE) -> Advice:
    """Advice from `steps` (one answer's or several; plain steps help fit the verify line).

    `cost_ratio` (c) defaults to the measured drafting time per drafted token ÷ a plain step
    (1000 / `plain_tokens_per_second`); `verify_line` to the line fitted from `steps`;
    `overhead_ms`, a step's time outside drafting and verifying (`step_overhead_ms`), when
    known, makes T(K) the measured sum (see `_estimate`); `asked`, the fixed K the steps
    asked for, if there was one (see `positions_from_lengths`); `k_auto`, for K auto's steps
    (no one K asked), what kind of drafter made them (see KAutoDrafter), and `k_auto_speedup`,
    what K auto measured against plain decoding in the same answer, where it did (see
    KEEP_K_AUTO).
    """
    return advise_per_step(
        [len(s.drafted) for s in steps], [accepted_before_rejection(s) for s in steps],
        [s.draft_ms for s in steps], [s.verify_ms for s in steps],
        plain_tokens_per_second=plain_tokens_per_second, cost_ratio=cost_ratio,
        verify_line=verify_line, overhead_ms=overhead_ms, asked=asked, k_auto=k_auto,
        k_auto_speedup=k_auto_speedup, ks=ks)


def advise_per_step(drafted: Sequence[int], accepted: Sequence[int],
                    draft_ms: Sequence[float], verify_ms: Sequence[float], *,
                    plain_tokens_per_second: float = 0.0, cost_ratio: float | None = None,
                    verify_line: VerifyLine | None = None, overhead_ms: float | None = None,
                    asked: int | None = None, k_auto: KAutoDrafter | None = None,
                    k_auto_speedup: float | None = None,
                    ks: Sequence[int] = K_RANGE) -> Advice:
    """`advise` over plain per-step lists, as the window keeps an answer's steps (holding
    every StepVerified of a long answer would cost it more than the lists): per step, the
    number of drafts, those accepted before the first rejection (`accepted_before_rejection`),
    and the drafting and verification times in ms."""
    if k_auto == "lookup" and not asked:
        asked = AUTO_K_CAP  # see KAutoDrafter
    positions = positions_from_lengths(drafted, accepted, asked)
    n_draft_steps = sum(1 for d in drafted if d)
    none = Advice((), None, None, None, None, "", (), positions, n_draft_steps, cost_ratio,
                  None)
    if not n_draft_steps:
        return _said(none, summary=words(NO_DRAFT_YET))
    if n_draft_steps < MIN_DRAFT_STEPS:  # a handful of steps: no figure at all
        return _said(none, summary=words(TOO_FEW_STEPS, n=n_draft_steps, min=MIN_DRAFT_STEPS))
    notes: list[Words] = []
    line = verify_line or _fit_verify_line(drafted, verify_ms, plain_tokens_per_second)
    plain_ms = (1000.0 / plain_tokens_per_second if plain_tokens_per_second > 0
                else line.ms(1) if line is not None and line.ms(1) > 0 else None)
    c = cost_ratio
    if c is None:
        per_token = _draft_ms_per_token(drafted, draft_ms)
        c = per_token / plain_ms if per_token is not None and plain_ms else None
    if c is None:
        return _said(none, summary=words(COST_UNKNOWN), notes=notes)
    beta = line.beta if line is not None else None
    if beta is None:
        beta = 0.0
        notes.append(words(BETA_UNKNOWN))
    longest = len(positions)
    alphas = _alphas(positions, max(ks))
    by_model = k_auto == "model" and not asked
    lengths = ([float(k) for k in range(max(ks) + 1)] if by_model
               else mean_draft_lengths(drafted, max(ks), asked))
    costed = (_costed_lengths(drafted, draft_ms, verify_ms)
              if by_model and verify_line is None and cost_ratio is None else {})
    rows = _estimate(alphas, ks, c, beta, plain_ms, longest, line, overhead_ms, lengths,
                     costed)
    # A K longer than any draft measured, or whose batch K auto did not measure (see
    # NOT_COSTED), rests on a guess: it is offered to try, not advised.
    candidates = [r for r in rows if r.measured] or list(rows)
    candidates = [r for r in candidates if not costed or r.k in costed] or candidates
    best = _best(candidates)
    guess = _best(rows)
    if guess.speedup > best.speedup and not guess.measured:
        notes.append(words(LONGER_UNTRIED, longest=longest, k=guess.k,
                            speedup=guess.speedup))
    elif guess.speedup > best.speedup:
        notes.append(words(NOT_COSTED, min=SIZE_MIN_SAMPLES, n=guess.k + 1, k=guess.k,
                           speedup=guess.speedup))
    if by_model:
        # K auto's stopper cuts a draft at the model's doubt: the α measured is conditional on
        # its confidence, and a fixed K's is lower (large_vocab_bench: the slow pair's fixed
        # K measured 0.35-0.58 of what K auto's steps predicted)
        notes.append(words(CONFIDENT_ONLY))
    n_drafted = sum(p.n_reached for p in positions)
    if all(a == 1.0 for a in alphas[:longest]):
        notes.append(words(ALL_ACCEPTED, n=n_drafted))
    elif not any(p.n_accepted for p in positions):
        notes.append(words(NONE_ACCEPTED, n=n_drafted))
    keep = _keep_k_auto(best, k_auto_speedup) if by_model else None
    if keep is not None:
        return _said(replace(none, rows=tuple(rows), cost_ratio=c, verify_cost=beta),
                     summary=keep, notes=notes)
    warning = None
    if best.speedup < 1.0:
        reasons = tuple(_reasons(alphas, ks, c, beta, longest))
        warning = words(SLOWER, first=candidates[0].k, last=candidates[-1].k,
                         speedup=best.speedup, k=best.k, reasons=reasons)
    low, high = (_estimate(_carried(bounds, max(ks)), [best.k], c, beta, plain_ms, longest,
                           line, overhead_ms, lengths, costed)[0].speedup
                 for bounds in _alpha_bounds(positions))
    summary = words(BEST, k=best.k, tokens=best.tokens_per_step, speedup=best.speedup,
                    low=low, high=high, c=c, beta=beta)
    advice = Advice(rows, best.k, best.speedup, (low, high), None, "", (), positions,
                    n_draft_steps, c, beta)
    return _said(advice, summary=summary, warning=warning, notes=notes)


def _keep_k_auto(best: KEstimate, k_auto_speedup: float | None) -> Words | None:
    """After K auto with a model drafter: why to keep K auto, or None where a K is advised.
    What K auto's steps predict for a fixed K does not carry over to it: K auto drafted where
    its stopper was sure and as far as its controller chose, and a fixed K's drafts fall
    elsewhere (large_vocab_bench: the K advised from them measured 0.4-0.9 of the figure, and
    K auto beat every fixed K). So unless K auto lost to plain decoding, no K is advised from
    them; where even their best figure is below plain, the warning says so instead."""
    if k_auto_speedup is not None and k_auto_speedup < 1.0:
        return None
    if k_auto_speedup is not None and k_auto_speedup >= best.speedup:
        return words(KEEP_K_AUTO, measured=k_auto_speedup, k=best.k, speedup=best.speedup)
    if best.speedup >= 1.0:
        return words(K_AUTO_OWN, k=best.k, speedup=best.speedup)
    return None


def _said(advice: Advice, *, summary: Words, warning: Words | None = None,
          notes: Sequence[Words] = ()) -> Advice:
    """`advice` with its sentences, as text and as Words."""
    return replace(advice, summary=str(summary), warning=str(warning) if warning else None,
                   notes=tuple(str(n) for n in notes), summary_words=summary,
                   warning_words=warning, notes_words=tuple(notes))

