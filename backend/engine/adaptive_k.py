"""K auto: how many tokens to draft at each step, from what this answer measured on this
machine.

The rule is Leviathan et al.'s: draft the length K that maximises the expected tokens per
unit of time, E(K) / T(K) (backend/engine/speedup_model.py), with what the paper's
constant-α, free-verification model leaves out and a CPU needs:
- α_i is measured per draft position (acceptance.py), as acceptance falls along a draft. The
  length is chosen at the posterior means, whether to draft at all at an upper confidence
  bound (OPTIMISM): else a few early rejections keep K auto plain and unable to learn better.
- V(n), verifying n tokens in one batch, is fitted to the sizes verified lately
  (verify_costs.py): on a CPU a batch of 9 costs 1.4–2.8 plain steps, not 1. The batch of
  one, a plain step, is not on that line: llama.cpp multiplies one row with a matrix-vector
  kernel and more with matrix-matrix ones, so the line puts a plain step too dear. V(1) is
  the median of the answer's own plain steps, and a few steps are plain on purpose to
  measure it (MIN_SINGLES, SINGLE_MAX_AGE), as drafting never does.
- d0 and c, what a drafting step costs whatever its length and what each drafted token adds,
  are a line through the last steps' drafting times (draft_line), d0 including an ordinary
  step's catching up (the target's last token or two). Catching up on more (the prompt, a
  plain stretch) is timed apart and kept off the line, where it would tilt it: it is a cost
  per token caught up on, which leaving plain decoding must repay (HORIZON, PROBE_SHARE).
- o(K), a step's time outside drafting and verifying (events made, sent and drawn, the loop),
  is a third of a step on the small test models; left out, short drafts look cheaper than
  they are. It is the median from one step's start to the next, so a pause in whoever reads
  the events is not taken for a cost, and grows with the tokens drafted (OVERHEAD_SPREAD).

Within a step the drafter may stop before K on its own confidence, as SpecDec++ (Huang et
al., 2024) and llama.cpp's p_min do, at a threshold the measured costs set (`stopper`). The
chance that a draft is accepted is learned per band of the drafter's probability of it (the
drafter is not assumed calibrated). A draft already drawn costs only its place in the batch
(b): it is verified while the chance that it and every draft before it are accepted,
Π a(q_j), is at least rate · b. Drafting the next costs a decode of this one (c) before the
next one's q is known: the drafter goes on while Π a(q_j) times its acceptance past the first
position is at least rate · (c + b); weighed against c + b too, a drawn draft would be decoded
and then not verified. K is then a cap: confident stretches of a text get long drafts,
uncertain ones short.

K = 0, plain decoding, is a candidate too: when nothing pays, the engine stops drafting and
probes now and then (EXPLORE_EVERY, EXPLORE_MAX), so that a text that starts to repeat or a
machine whose load moved is noticed.
"""

from __future__ import annotations

import statistics
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple

from backend.engine.acceptance import Acceptance
from backend.engine.median_line import median_points, weighted_line
from backend.engine.speedup_model import (
    StepCost,
    best_length,
    expected_tokens_per_step_by_position,
    expected_tokens_per_step_curve,
)
from backend.engine.verify_costs import COST_SURPRISE, SHIFT_MS, VerifyCosts
from backend.words import Words, words

# The most tokens K auto drafts in one step: past 16 the verification batch costs more than
# the last positions' acceptance can pay back on every pair measured.
AUTO_K_CAP = 16
# What K auto drafts for a sampled request with a fixed seed: its choices follow measured
# times, and another K consumes the seeded random numbers in another order, so a seed would
# no longer give the same answer twice. (Greedy answers are the same at any K.)
SEEDED_K = 4
# Whether to draft at all is weighed with each α_i at its posterior mean plus this many
# standard deviations (an upper confidence bound, UCB1, Auer et al. 2002): at the mean alone,
# positions with little data sit near the prior, and K auto, decoding plainly, never learns
# that drafting pays. The length is chosen at the mean: by the bound it drafts far too long.
OPTIMISM = 1.0
# Plain steps measured on purpose (one every EXPLORE_EVERY steps) before V(1) is left to the
# refresh below; counted over the controller's life, not per refresh, as each costs a draft.
MIN_SINGLES = 3
# While drafting, a plain step is made when the last was this many steps ago, replacing the
# plain steps before it: drafting never measures V(1), and one from a busier moment makes
# drafting look better than it is.
SINGLE_MAX_AGE = 32
# When that step is more than SINGLE_SURPRISE from the V(1) it replaces, plain steps follow,
# up to SINGLE_REFRESH in all, and V(1) is their median, as one step timed under load would
# stand for the rest of the answer; only then, as three at every refresh cost a pair that
# drafts well (see test_a_refreshed_plain_step_...).
SINGLE_SURPRISE, SINGLE_REFRESH = 0.25, 3
# In a plain stretch, a probe (a draft, to measure again) after this many plain steps; each
# probe that still finds drafting does not pay doubles the wait, up to EXPLORE_MAX, since a
# probe costs more than a draft (the drafter first catches up on the plain stretch).
EXPLORE_EVERY = 8
# However a plain stretch came about (a busy moment's costs, a remembered verdict, a cold
# start), it is never longer than EXPLORE_MAX steps without a probe, nor longer than
# EXPLORE_EVERY once the text starts to repeat itself: plain decoding is a choice K auto
# revisits, not a state it can be stuck in. (The start, once: a text that goes on repeating,
# as a list or a counting model's cycle does, is probed on the usual schedule after that; at
# every EXPLORE_EVERY, K auto probed a pair where no K pays every ~12 steps, at 15 % of it.)
# Each probe checks the drafting costs (COST_SURPRISE), so a calm moment undoes a busy one's.
# A probe costs its catching up on the stretch, so the forced one every EXPLORE_MAX steps is
# made only for a drafter that catches up at FORCED_SHARE of a plain step a token or less (a
# draft model or a trained head); a dearer one (the toy EAGLE-3 head) is probed where the text
# starts to repeat, at an answer's start and where the speed moved.
EXPLORE_MAX = 64
FORCED_SHARE = 0.15
RECHECK_EVERY = 4  # in a plain stretch, the choice is weighed again every this many steps
# A probe drafts the length drafting would have if it paid at the optimistic α, to measure
# the positions that decide it (at least EXPLORE_K, at most EXPLORE_PROBE_MAX, as a longer one
# may cost more than it is worth), and whole: cut by the stopper at plain decoding's rate, it
# would measure nothing past its first position.
EXPLORE_K = 2
EXPLORE_PROBE_MAX = 8
# After its first probe in an answer, K auto probes again only while what the probe costs
# stays within this share of the plain stretch's time: what the drafter spends catching up on
# the stretch (a draft model or a head decodes every token it missed before it drafts, a cost
# that grows with the gap, so probes at any spacing would make a plain answer slower than
# plain decoding), and what the last probes' own steps took beyond plain steps making their
# tokens (on the 151,936-token fast pair, where no K pays, 2–6 ms a probe, which probes every
# ~13 steps made 15 % of the answer). N-gram lookup catches up on nothing and probes on.
PROBE_SHARE = 0.05
PROBE_LOSS_STEPS = 4  # the last probes whose steps' loss is weighed (their median)
# Leaving plain decoding while the drafter is behind (the prompt, a plain stretch) first pays
# its catching up, which must be repaid before the answer ends: drafting's gain per token over
# plain decoding times the tokens left must exceed it, else K auto probes every answer where
# no K pays. The gain is weighed at the optimistic α, as a choice of plain decoding measures
# nothing that could undo it. The answer's length is the last answer's, or HORIZON tokens for
# the first; one that has outrun it is expected to go on about as long again as it has gone
# (Gott's rule for a lifetime seen at a random moment), never past its max_tokens. The first
# catching up of all is made anyway (unmeasured, it costs nothing here).
HORIZON = 64
# For a drafter that stops on its confidence (`stops`), of the lengths whose expected rate is
# within this share of the best, K auto drafts the longest: near the optimum the rates differ
# by less than their error, a longer cap costs little where the drafter stops early on unsure
# drafts and pays where they are sure, and only a draft that reaches a position measures it.
# N-gram lookup has no stopper and drafts the length of the best rate.
TIE = 0.03
# Leaving plain decoding while the drafter is behind (HORIZON) is weighed at the optimistic α,
# but never above what the last drafting steps were measured to reach, once there are
# MEASURED_MIN of them: tokens per ms (ordinary catching up and overhead included) plus
# MEASURED_Z standard errors of the ratio estimator, each step capped at STALL_CAP times the
# median so that one stall of the machine is not read as drafting's cost. Each α's optimism
# compounds over a long draft (+19% on E(9) at α 0.96 reached 20 times), so alone it hopes for
# ever where drafting barely loses. Enough steps and a wide enough bound that an answer's
# first, learning steps do not speak against drafting. After RETRY_ANSWERS plain answers in a
# row, MEASURED_MIN new drafting steps are measured before the bound speaks again, so that
# another text gets a drafting stretch.
MEASURED_MIN, MEASURED_Z, STALL_CAP = 16, 1.5, 2.0
# The bound also speaks when the drafter is not behind and only the optimism says draft, once
# it is MEASURED_MARGIN below plain decoding: else a losing pair drafts every answer once its
# drafter's cache holds the prompt. The margin keeps an answer's learning steps from sending
# K auto plain where drafting gains a little.
MEASURED_MARGIN = 0.05
RETRY_ANSWERS = 4
# Drafting costs from another engine process (k_auto_memory) or from before RETRY_ANSWERS
# plain answers may date from a moment of load, and no plain step measures them again. So the
# next drafting step checks them: more than COST_SURPRISE (declared in verify_costs.py) off
# what they predict, they are forgotten and measured afresh; if they said plain, that step is
# the answer's first probe, repaid or not. Drafting costs measured beside a V(1) more than
# COST_SURPRISE slower than today's, over SHIFT_MS of plain steps, are checked too, or K auto
# stays plain after an answer drafted under load. Only slower (a check forgets the steps whose
# rate keeps a losing pair plain), only over SHIFT_MS (plain steps of a few ms move by a third
# from one moment to the next), and only where the costs, scaled to today's plain speed, would
# pay, so that a quick moment does not set off probes where drafting cannot pay.
# Said under an answer K auto decoded mostly plainly (the engine's why_plain_words).
DID_NOT_PAY = ("Drafting did not pay here: K auto expected {rate:.0f} tokens/s drafting {k} a "
               "step against {plain:.0f} decoding plainly, so it decoded plainly, and tried a "
               "draft again at least every {every} steps.")
DRAFT_COST_STEPS = 32  # the drafter's line, the overhead and the plain steps: the last ones
# A step's overhead grows with the tokens it drafts, each made into an event (on the toy
# EAGLE-3 pair 0.07 ms after a plain step, 0.85 after a draft of 16): one median over the last
# steps would charge a plain step a long draft's. So a plain step is charged the median after
# the last plain steps, and a draft of k a line through the drafting steps' medians by length
# when they are OVERHEAD_SPREAD tokens apart or more (closer, the slope is noise), else one
# through the plain steps' point and theirs.
OVERHEAD_SPREAD = 4


class DraftStep(NamedTuple):
    """One drafting step, as K auto keeps it."""

    drafted: int  # tokens drafted
    behind: int  # tokens the drafter caught up on first (0: an ordinary step's one or two)
    draft_ms: float  # ms drafting, its catching up left out
    catch_up_ms: float
    made: int  # tokens the step made: the drafts kept and the target's own
    verify_ms: float


class Overhead(NamedTuple):
    """A step's time outside drafting and verifying, in ms (see OVERHEAD_SPREAD): after a
    plain step, and a + b·k after a draft of k."""

    plain: float
    a: float
    b: float

    def at(self, k: float) -> float:
        return self.a + self.b * k if k else self.plain


class Go(Enum):
    """The stopper's word on a draft the drafter has drawn. Its logits are paid for (the
    drafter decoded the draft before it); verifying it costs only its place in the batch (b),
    while drafting the next costs a decode of it first (c) for a draft not yet seen."""

    DROP = "drop"  # not worth its place in the batch: the draft ends before it
    LAST = "last"  # verified, but the next is not worth decoding this one to see
    ON = "on"  # verified, and decoded to draft the next


@dataclass
class AdaptiveK(Acceptance, VerifyCosts):
    plain_step_ms: float = 0.0  # a plain step's verify time, when known: V(1) until measured
    cap: int = AUTO_K_CAP
    stops: bool = False  # the drafter stops on `stopper` (a model drafter; see TIE)
    # the last drafting steps: the drafter's line (draft_line) and the rate drafting reached
    # (measured_rate)
    draft_steps: deque[DraftStep] = field(default_factory=lambda: deque(maxlen=DRAFT_COST_STEPS))
    # ms spent outside drafting and verifying (see overhead) after the last plain steps, and
    # (tokens drafted, ms) after the last drafting steps
    overheads: deque[float] = field(default_factory=lambda: deque(maxlen=DRAFT_COST_STEPS))
    draft_overheads: deque[tuple[int, float]] = field(
        default_factory=lambda: deque(maxlen=DRAFT_COST_STEPS))
    _steps: int = 0
    _last_drafted: int = 0  # tokens the last recorded step drafted
    _behind: int = 0  # tokens the drafter must catch up on before its next draft
    # verify ms of the last steps that drafted nothing: the batch of one, measured here
    _singles: deque[float] = field(default_factory=lambda: deque(maxlen=DRAFT_COST_STEPS))
    _since_single: int = 0  # steps since the last plain one
    _before_refresh: float = 0.0  # V(1) before the last refresh (see SINGLE_SURPRISE)
    _singles_seen: int = 0  # plain steps measured, ever
    _drafting_v1: float = 0.0  # V(1) measured when the last drafting step was (COST_SURPRISE)
    _best_rate: float = 0.0  # tokens per ms that the last choice expects
    _plain_answers: int = 0  # answers in a row that drafted nothing
    _fresh_needed: int = 0  # drafting steps to measure before those steps speak again
    _costs_unchecked: bool = False  # the drafting costs await a step to check them
    # ... because plain steps were measured faster than beside them: checked only where they
    # would pay at that speed (COST_SURPRISE)
    _unchecked_faster: bool = False
    # what one more draft costs as the last choice saw it, in ms: the drafter's c, and b, one
    # more token in the verify batch
    _draft_cost: float = 0.0
    _verify_slope: float = 0.0
    _plain_run: int = 0  # plain steps chosen since the last draft or probe
    _probe_gap: int = EXPLORE_EVERY  # plain steps before the next probe
    _probing: bool = False  # the step chosen last is a probe
    _probes: int = 0  # probes made in this answer
    _repeat_probed: bool = False  # the text's repeating has been probed since it started
    _drafted: bool = False  # this answer has drafted: its prompt is caught up on
    _answer_tokens: int = 0  # tokens this answer has made so far
    _last_length: int = 0  # tokens the last answer made (see HORIZON)
    _max_tokens: int = 1 << 30  # the most tokens this answer may make (its request's)
    # (ms, tokens) of the last catching up on an answer's prompt: a batch of tens of tokens,
    # dearer in all than the plain stretches' few but cheaper per token, and soon out of
    # draft_steps, so kept apart for the next answer's first choice (see HORIZON)
    _prompt_catch_up: tuple[float, int] | None = None
    # why the last choice was plain decoding: (plain tokens/ms, the best drafting rate at the
    # mean α and its length), for the words under an answer that did not draft (why_plain)
    _why_plain: tuple[float, float, int] | None = None

    def __post_init__(self) -> None:
        self._positions(self.cap)

    def begin_answer(self, plain_step_ms: float = 0.0, n_prompt: int = 0,
                     max_tokens: int = 1 << 30) -> None:
        """A new answer: earlier counts weigh half (each position's once this answer reaches
        it), the plain step is refreshed, the drafter will first catch up on up to `n_prompt`
        prompt tokens, and the answer makes at most `max_tokens`."""
        self._behind, self._max_tokens = n_prompt, max_tokens
        self._new_answer_counts()
        if self._steps:  # the last answer's
            self._plain_answers = 0 if self._drafted else self._plain_answers + 1
        if self._plain_answers >= RETRY_ANSWERS:  # see RETRY_ANSWERS
            self._plain_answers, self._fresh_needed = 0, MEASURED_MIN
            self._costs_unchecked, self._unchecked_faster = True, False  # see COST_SURPRISE
        self._steps = 0
        self._plain_run, self._probe_gap = 0, EXPLORE_EVERY  # another text: probe soon
        self._probes, self._repeat_probed = 0, False
        self._drafted = False
        if self._answer_tokens:
            self._last_length, self._answer_tokens = self._answer_tokens, 0
        if plain_step_ms > 0:
            self.plain_step_ms = plain_step_ms

    # -- measurements -----------------------------------------------------------------------
    def record(self, n_drafted: int, n_kept: int, draft_ms: float, verify_ms: float,
               confidences: Sequence[float | None] = (), catch_up_ms: float = 0.0,
               batch: int = 0, timed: bool = True) -> None:
        """One step: how many tokens were drafted (what the drafter gave, which may be fewer
        than asked), how many the target accepted before its first rejection, and times
        (`draft_ms` the drafter's in all, `catch_up_ms` the part of it spent catching up before
        the first draft); `confidences`, the drafter's probability of each draft, when it has
        one. `batch`: the rows verified when not the drafts and the target's own (a token
        tree's): the verify line is fitted by rows, and a tree's time filed as its chain's
        made the chain's batch look dearer than it is. `timed` False: a plain step whose time
        is no measure of plain decoding (still recovering from drafting, plain_yardstick.py),
        counted but not timed."""
        self._steps += 1
        self._answer_tokens += n_kept + 1
        self._last_drafted = n_drafted
        self._count(n_drafted, n_kept, confidences)
        if n_drafted:
            catch_up_ms = min(max(catch_up_ms, 0.0), draft_ms)
            if self._costs_unchecked:
                self._costs_unchecked = self._unchecked_faster = False
                self._check_costs(n_drafted, draft_ms - catch_up_ms, verify_ms)
            self._fresh_needed = max(self._fresh_needed - 1, 0)
            if not self._drafted and self._behind:
                self._prompt_catch_up = catch_up_ms, self._behind
            self._drafted = True
            self.draft_steps.append(DraftStep(n_drafted, self._behind, draft_ms - catch_up_ms,
                                              catch_up_ms, n_kept + 1, verify_ms))
            self._behind = 0
        else:
            self._behind += n_kept + 1  # a plain step's token, which the drafter has not seen
        n = batch or n_drafted + 1
        if n == 1:  # the batch of one is not on the line (see the module's note)
            if not timed:
                return
            if self._since_single >= SINGLE_MAX_AGE:
                self._before_refresh = statistics.median(self._singles) if self._singles else 0.0
                self._singles.clear()  # from before a drafting stretch, maybe a busier moment
            self._since_single = 0
            self._singles.append(verify_ms)
            self._singles_seen += 1
            if (self.draft_steps and self._drafting_v1 and not self._costs_unchecked
                    and len(self._singles) >= SINGLE_REFRESH and sum(self._singles) >= SHIFT_MS
                    and self.single_ms() < (1 - COST_SURPRISE) * self._drafting_v1):
                # the drafting costs are from a slower moment (see COST_SURPRISE)
                self._costs_unchecked = self._unchecked_faster = True
            return
        self._since_single += 1
        self._drafting_steps += 1
        if self._singles:  # measured, not guessed
            self._drafting_v1 = statistics.median(self._singles)
        scale, points = self._judged(n, verify_ms)
        if scale:  # see SHIFT_STEPS
            self._rescale(scale)
        for size, ms in points:
            self._add_verify(size, ms)

    def _rescale(self, scale: float) -> None:
        """The machine's speed moved by `scale`: every time K auto weighs is taken to be that
        much longer (or shorter) now, verifying, plain steps, drafting and the steps' overhead
        alike (the drafter runs on the same cores), their costs relative to each other kept:
        scaling the verify times alone would leave drafting a load's cost beside them."""
        self._rescale_verify(scale)
        self._singles = deque((ms * scale for ms in self._singles), maxlen=DRAFT_COST_STEPS)
        self.overheads = deque((ms * scale for ms in self.overheads), maxlen=DRAFT_COST_STEPS)
        self.draft_overheads = deque(((k, ms * scale) for k, ms in self.draft_overheads),
                                     maxlen=DRAFT_COST_STEPS)
        self.draft_steps = deque(
            (st._replace(draft_ms=st.draft_ms * scale, catch_up_ms=st.catch_up_ms * scale,
                         verify_ms=st.verify_ms * scale) for st in self.draft_steps),
            maxlen=DRAFT_COST_STEPS)
        if self._prompt_catch_up is not None:
            ms, tokens = self._prompt_catch_up
            self._prompt_catch_up = ms * scale, tokens

    def _check_costs(self, k: int, draft_ms: float, verify_ms: float) -> None:
        """Forget the drafting costs when a step drafting k tokens took more than
        COST_SURPRISE away from what they predict (`draft_ms` without its catching up)."""
        if not self.draft_steps:
            return
        d0, c = self.draft_line()
        d0 -= self._ordinary_catch_up_ms((d0, c))  # the line's own, as draft_ms is
        verify = self.verify_costs(k)
        predicted = StepCost(max(d0, 0.0), c, lambda n: verify[int(n)]).time(k)  # no overhead
        if predicted > 0 and abs((draft_ms + verify_ms) / predicted - 1) <= COST_SURPRISE:
            return
        self.draft_steps.clear()
        self._by_size.clear()
        self._prompt_catch_up = None

    def record_overhead(self, ms: float) -> None:
        """The last recorded step's time outside drafting and verifying (events, the reader,
        the loop)."""
        if self._last_drafted:
            self.draft_overheads.append((self._last_drafted, max(ms, 0.0)))
        else:
            self.overheads.append(max(ms, 0.0))

    # -- estimates ------------------------------------------------------------------------
    def draft_line(self) -> tuple[float, float]:
        """(d0, c): what a drafting step costs whatever its length and what each drafted
        token adds, in ms: an ordinary step's catching up (the target's last token or two,
        one decode of the drafter), and a line through the median drafting time of each length
        drafted lately. Counted as one cost per token, the fixed part would make short drafts
        look dearer per token than long ones, so K auto would draft shorter, which makes them
        dearer still."""
        points = median_points([(st.drafted, st.draft_ms) for st in self.draft_steps])
        if not points:
            return 0.0, 0.0
        spread = max(x for x, _, _ in points) - min(x for x, _, _ in points)
        mean_x = sum(x * n for x, _, n in points) / sum(n for _, _, n in points)
        line = weighted_line(points)
        # A slope from lengths this close (15 and 16, all a long draft has tried) is noise,
        # and one that makes the fixed part large makes long drafts look ever cheaper: K
        # auto would never try a short one to learn otherwise. Without a slope, the drafting
        # time is read per token: a draft's last token is drawn from logits the drafter
        # already has, so this errs cheap, and a longer draft measures it.
        sync = self._sync_ms()
        if (line is None or spread < max(2.0, 0.25 * mean_x) or line[1] <= 0
                or line[0] + (line[1] if sync is None else sync) < 0):
            line = 0.0, (sum(n * x * y for x, y, n in points)
                         / sum(n * x * x for x, _, n in points))
        d0, c = line
        return max(d0 + (c if sync is None else sync), 0.0), c

    def _sync_ms(self) -> float | None:
        """What an ordinary drafting step spends catching up (the target's last token or
        two): the median over the last steps that followed a draft; None until one has (the
        callers then take what a drafted token costs, as it is one more decode of the
        drafter)."""
        ordinary = [st.catch_up_ms for st in self.draft_steps if not st.behind]
        return statistics.median(ordinary) if ordinary else None

    def catch_up_ms(self, line: tuple[float, float] | None = None) -> float:
        """What the drafter spends per token it first catches up on (the prompt, a plain
        stretch): the median, over its last steps that caught up, of their catching up beyond
        an ordinary step's, per token caught up on; 0 until one has been measured. (`line`,
        the drafter's (d0, c) when the caller has it.)"""
        sync = self._ordinary_catch_up_ms(line)
        per_token = [max(st.catch_up_ms - sync, 0.0) / st.behind
                     for st in self.draft_steps if st.behind]
        return statistics.median(per_token) if per_token else 0.0

    def _ordinary_catch_up_ms(self, line: tuple[float, float] | None = None) -> float:
        """An ordinary step's catching up (_sync_ms), or until one is measured a drafted
        token's cost, c (`line`, the drafter's (d0, c) when the caller has it)."""
        sync = self._sync_ms()
        return (line or self.draft_line())[1] if sync is None else sync

    def _probe_affordable(self, line: tuple[float, float], plain_ms: float, o: Overhead,
                          repaid: bool) -> bool:
        """The first probe of an answer goes unless its catch-up is known to cost more than
        drafting could repay (`repaid`, see HORIZON: another text may repeat); later
        ones while their catch-up and the last probes' loss fit PROBE_SHARE of the plain steps
        (`line`, the drafter's; `plain_ms`, V(1); `o`, a step's overhead)."""
        if not self._probes:
            return repaid
        cost = self.catch_up_ms(line) * self._behind + self._probe_loss_ms(line, plain_ms, o)
        return cost <= PROBE_SHARE * self._plain_run * plain_ms

    def _probe_loss_ms(self, line: tuple[float, float], plain_ms: float, o: Overhead
                       ) -> float:
        """What the last probes' steps (drafting steps after a plain stretch) took beyond the
        plain steps that would have made their tokens, their catching up left to
        `catch_up_ms` (an ordinary step's kept) and a step's overhead on both sides; their
        median, 0 where they made tokens faster than plain decoding."""
        sync = self._ordinary_catch_up_ms(line)
        losses = [_as_ordinary_ms(st, sync, o) - st.made * (plain_ms + o.plain)
                  for st in self.draft_steps if st.behind > 1][-PROBE_LOSS_STEPS:]
        return max(statistics.median(losses), 0.0) if losses else 0.0

    def _repaid(self, line: tuple[float, float], plain_rate: float, rate: float,
                overhead: Overhead) -> bool:
        """Whether drafting at `rate` (tokens per ms), or at the rate the last drafting steps
        were measured to reach if that is lower (see MEASURED_MIN; `overhead`, a step's),
        gains over plain decoding, in the tokens the answer has left (see HORIZON), what the
        drafter must first spend catching up; true when there is nothing to catch up on, or
        its cost is not measured yet."""
        if self._behind <= 1:
            # every drafting step: nothing to weigh; nor after one plain step (the drafter
            # catches up on its one token as an ordinary step does on the last one or two),
            # as the plain steps that measure plain decoding in a drafting stretch are
            # (plain_yardstick.py): weighed as a stretch to repay, each could end drafting
            return True
        per_token = 0.0
        if not self._drafted and self._prompt_catch_up is not None:
            ms, tokens = self._prompt_catch_up  # this answer's prompt is still to catch up on
            per_token = max(ms - self._ordinary_catch_up_ms(line), 0.0) / tokens
        if per_token <= 0:
            # A short prompt's catching up can take less than an ordinary step's, where the
            # drafter catches up on every token the last step kept (an EAGLE-3 head, 9 after
            # a draft of 8 where the prompt had 2): then the plain stretches' cost per token,
            # as a free catching up would let every answer's first probe go where drafting
            # cannot pay.
            per_token = self.catch_up_ms(line)
        cost = per_token * self._behind
        if cost <= 0:
            return True
        measured = None if self._fresh_needed else self.measured_rate(overhead, line)
        if measured is not None:
            rate = min(rate, measured[1])
        return rate > plain_rate and self._tokens_left() * (1.0 / plain_rate - 1.0 / rate) >= cost

    def _tokens_left(self) -> int:
        """The tokens this answer is expected to make still (see HORIZON)."""
        made, expected = self._answer_tokens, self._last_length or HORIZON
        left = expected - made if made < expected else made
        return max(min(left, self._max_tokens - made), 1)

    def stopper(self) -> Callable[[int, float], Go]:
        """For the drafter, this step: at draft i, drawn with probability q from logits it has
        already paid for, whether to verify it and whether to decode it to draft the next
        (see Go and the module's note); call `choose` first, which sets the rate to beat and
        the costs."""
        # a probe drafts its whole length: it is there to measure the positions it reaches
        rate = 0.0 if self._probing else self._best_rate
        keep, go_on = rate * self._verify_slope, rate * (self._draft_cost + self._verify_slope)
        # the next draft's q is not known before it is paid for: its expected chance (the
        # counts do not move within a step)
        next_chance = self.pooled_chance(later=True)
        chance = [1.0]

        def judge(i: int, q: float) -> Go:
            if i == 0:
                # The first draft always goes: `choose` found drafting pays on average, and
                # every band is measured there, so a drafter whose probabilities are not
                # calibrated (a band's prior far from the truth) is still learnt.
                chance[0] = self.accept_chance(q)
            else:
                chance[0] *= self.accept_chance(q, later=True)
                if chance[0] < keep:
                    return Go.DROP
            if chance[0] * next_chance < go_on:
                return Go.LAST
            return Go.ON

        return judge

    def measured_rate(self, overhead: Overhead, line: tuple[float, float] | None = None
                      ) -> tuple[float, float] | None:
        """(tokens per ms, its upper bound) that the last drafting steps reached, each step
        costed with an ordinary step's catching up and `overhead` (a plain stretch's or the
        prompt's catching up is what the rate must repay); None before MEASURED_MIN steps.
        The ratio estimator's: Σ tokens / Σ ms, and MEASURED_Z standard errors over it.
        (`line`, the drafter's (d0, c) when the caller has it.)"""
        n = len(self.draft_steps)
        if n < MEASURED_MIN:
            return None
        sync = self._ordinary_catch_up_ms(line)
        steps = [(st.made, _as_ordinary_ms(st, sync, overhead)) for st in self.draft_steps]
        cap = STALL_CAP * statistics.median(ms for _, ms in steps)
        steps = [(tokens, min(ms, cap)) for tokens, ms in steps]
        mean_ms = sum(ms for _, ms in steps) / n
        rate = sum(tokens for tokens, _ in steps) / (n * mean_ms)
        spread = sum((tokens - rate * ms) ** 2 for tokens, ms in steps) / (n - 1)
        return rate, rate + MEASURED_Z * (spread / n) ** 0.5 / mean_ms

    def _refresh_unsure(self) -> bool:
        """Whether the plain steps of the last refresh are too few to trust a V(1) this far
        from the one before it (see SINGLE_SURPRISE)."""
        if not self._before_refresh or len(self._singles) >= SINGLE_REFRESH:
            return False
        return abs(statistics.median(self._singles) / self._before_refresh - 1) > SINGLE_SURPRISE

    def overhead(self) -> Overhead:
        """A step's time outside drafting and verifying, by the tokens it drafts (see
        OVERHEAD_SPREAD)."""
        drafting = median_points(self.draft_overheads)
        plain = statistics.median(self.overheads) if self.overheads else None
        if not drafting:
            return Overhead(plain or 0.0, plain or 0.0, 0.0)
        ks = [k for k, _, _ in drafting]
        line = weighted_line(drafting) if max(ks) - min(ks) >= OVERHEAD_SPREAD else None
        if line is None or line[0] < 0 or line[1] < 0:
            n = sum(w for _, _, w in drafting)
            mean_k = sum(k * w for k, _, w in drafting) / n
            mean_ms = sum(ms * w for _, ms, w in drafting) / n
            if plain is None or plain > mean_ms:  # one point: no slope to read
                line = mean_ms, 0.0
            else:
                line = plain, (mean_ms - plain) / mean_k
        return Overhead(line[0] if plain is None else plain, *line)

    def single_ms(self) -> float:
        """V(1), a plain step's verify time: the median of the last plain steps measured, the
        engine's plain answers' until there are some, else where the line puts it."""
        if self._singles:
            return statistics.median(self._singles)
        if self.plain_step_ms > 0:
            return self.plain_step_ms
        a, b = self.verify_line()
        return a + b

    def _prior_scale(self, points: list[tuple[int, float, float]]) -> float:
        # The prior scales with this answer's own plain steps when it has some: the engine's
        # plain speed may date from a busier moment, and a slow one makes the prior's slope
        # too steep and K auto stop drafting.
        return (statistics.median(self._singles) if self._singles else self.plain_step_ms
                or (sum(ms * w for _, ms, w in points) / sum(w for _, _, w in points)
                    if points else 1.0))

    def verify_ms(self, k: int) -> float:
        """V(k + 1): the time to verify a draft of k tokens with the target's own one."""
        if not k:
            return self.single_ms()
        return self.verify_costs(k)[k]

    def expected_tokens(self, k: int) -> float:
        """E(k) at the posterior mean α."""
        return expected_tokens_per_step_by_position(self.alphas(k), k)

    def step_time(self, k: int) -> float:
        """T(k), in ms."""
        return StepCost(*self.draft_line(), lambda n: self.verify_ms(int(n)),
                        self.overhead().at).time(k)

    # -- the choice -------------------------------------------------------------------------
    def choose(self, n_draft_max: int, continuing: bool = False,
               repeating: Callable[[], bool] | None = None) -> int:
        """The draft length for the next step, 0..min(n_draft_max, cap); `continuing`, its drafts
        go on with a copy the text has followed (acceptance.py's note on copies);
        `repeating`, asked in a plain stretch only, whether the text now repeats itself (see
        EXPLORE_MAX)."""
        n_draft_max = min(n_draft_max, self.cap)
        self._side = int(continuing)
        if self._plain_run % RECHECK_EVERY:
            # In a plain stretch only plain steps are measured, which move V(1) and the
            # overhead by little, and weighing every length again each step costs a small
            # model's step a tenth of its time.
            self._plain_run += 1
            return 0
        line = self.verify_line()
        verify = self.verify_costs(n_draft_max, line)
        (d0, c), o, single = self.draft_line(), self.overhead(), verify[0]
        plain_rate = 1.0 / max(single + o.plain, 1e-9)
        cost = StepCost(d0, c, lambda k: verify[int(k)], o.at)
        tokens = expected_tokens_per_step_curve(self.alphas(n_draft_max))
        tokens_up = expected_tokens_per_step_curve(self.alphas(n_draft_max, OPTIMISM))
        # Drafting costs measured beside slower plain steps are checked where, scaled to
        # today's plain step, they would pay (see COST_SURPRISE): `hopeful_now`, at that speed.
        scale = (min(single / self._drafting_v1, 1.0)
                 if self._unchecked_faster and self._drafting_v1 else 1.0)
        rates: dict[int, float] = {}
        hopefuls: dict[int, float] = {}
        hopeful_now = 0.0
        for k in range(1, n_draft_max + 1):
            around = o.at(k)  # the step's overhead, unscaled below: it is measured now
            t = max(cost.time(k), 1e-9)
            rates[k], hopefuls[k] = tokens[k] / t, tokens_up[k] / t
            hopeful_now = max(hopeful_now,
                              tokens_up[k] / max(scale * (t - around) + around, 1e-9))
        # The best draft length and its rate at the mean α; whether to draft at all, by the
        # best rate at the optimistic α (see OPTIMISM): the length is chosen on what is
        # known, the leaving of plain decoding on what may be.
        draft_k, draft_rate, hopeful_k, hopeful = 0, 0.0, 0, 0.0
        if rates:
            draft_k = best_length(rates)
            draft_rate = rates[draft_k]
            if self.stops:  # the longest of the lengths within TIE of the best
                draft_k = best_length(rates, TIE)
            hopeful_k = best_length(hopefuls)
            hopeful = hopefuls[hopeful_k]
        if draft_rate <= plain_rate < hopeful and not self._fresh_needed:
            # Only the optimism says draft: not above what drafting was measured to reach
            # (see MEASURED_MIN).
            measured = self.measured_rate(o, (d0, c))
            if measured is not None and measured[1] < (1 - MEASURED_MARGIN) * plain_rate:
                hopeful = min(hopeful, measured[1])
        # At the optimistic α, as leaving plain decoding is weighed (see HORIZON), but never
        # above what drafting was measured to reach (see MEASURED_MIN).
        repaid = self._repaid((d0, c), plain_rate, hopeful, o)
        best_k = draft_k if hopeful > plain_rate and repaid else 0
        self._why_plain = None if best_k else (plain_rate, draft_rate, draft_k)
        # The stopper's rate to beat is the drafting step's own: a probe judged against plain
        # decoding's rate stopped after its first draft, and learnt nothing past position 0.
        self._best_rate, self._probing = draft_rate, False
        self._draft_cost, self._verify_slope = c, line[1]
        if best_k:
            self._plain_run, self._probe_gap = 0, EXPLORE_EVERY
            stale = bool(self._singles) and (self._since_single >= SINGLE_MAX_AGE
                                             or self._refresh_unsure())
            if stale or (self._singles_seen < MIN_SINGLES
                         and self._steps % EXPLORE_EVERY == EXPLORE_EVERY - 1):
                return 0  # measure a plain step: the alternative to drafting, V(1)
            return best_k
        check = self._costs_unchecked and (not self._unchecked_faster
                                           or hopeful_now > plain_rate)
        due = self._plain_run >= self._probe_gap and (
            check or self._probe_affordable((d0, c), single, o, repaid))
        # the catching up beside the plain step of the moment it was measured in (one measured
        # under load, beside today's quick plain steps, would look dear and never be probed)
        then = self._drafting_v1 or single
        repeat_starts = False
        if self._plain_run >= EXPLORE_EVERY and repeating is not None:
            if repeating():
                repeat_starts = not self._repeat_probed
            else:
                self._repeat_probed = False
        forced = (self._plain_run >= EXPLORE_MAX
                  and self.catch_up_ms((d0, c)) <= FORCED_SHARE * (then + o.plain)
                  ) or repeat_starts
        if n_draft_max > 0 and (due or forced):
            self._repeat_probed = self._repeat_probed or repeat_starts
            # keep measuring: the text may start to repeat, the machine's load may have moved
            self._plain_run, self._probe_gap = 0, min(2 * self._probe_gap, EXPLORE_MAX)
            self._probing = True
            self._probes += 1
            self._costs_unchecked = True  # the probe is set beside the costs (EXPLORE_MAX)
            # the length drafting would have if it paid (at the optimistic α), so the probe
            # measures the positions that decide it (at least EXPLORE_K: a longer one is
            # dearer than it may be worth)
            return max(min(EXPLORE_K, n_draft_max), min(hopeful_k, EXPLORE_PROBE_MAX))
        self._plain_run += 1
        return 0

    def why_plain(self) -> Words | None:
        """Why the last choice was plain decoding, in words (DID_NOT_PAY); None when it
        drafted."""
        if self._why_plain is None:
            return None
        plain, rate, k = self._why_plain
        return words(DID_NOT_PAY, rate=1000 * rate, k=k, plain=1000 * plain, every=EXPLORE_MAX)


def _as_ordinary_ms(st: DraftStep, sync: float, overhead: Overhead) -> float:
    """A drafting step's time as an ordinary step's: drafting and verifying, an ordinary
    step's catching up (`sync`) where it caught up on more, and a step's overhead."""
    return (st.draft_ms + st.verify_ms + (sync if st.behind else st.catch_up_ms)
            + overhead.at(st.drafted))
