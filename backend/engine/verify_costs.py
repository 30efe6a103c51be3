"""V(n): what verifying a batch of n tokens costs the target on this machine now, as K auto
(backend/engine/adaptive_k.py, whose module note says why V(n) is measured and not assumed)
weighs it. A least-squares line through the median time of each batch size verified lately,
with two pseudo-observations in units of a plain step; a size verified often enough costed by
its own steps' median; and the machine's speed followed: a run of steps all dearer (or
cheaper) than predicted is a shift, and every time K auto weighs is scaled by it.

`VerifyCosts` is the part of K auto's controller (`AdaptiveK`, which derives from it) that
keeps these measurements; the controller supplies V(1), which is not on the line, and the
plain step that scales the line's prior.
"""

from __future__ import annotations

import statistics
from collections import deque
from dataclasses import dataclass, field

# A measured time more than this share away from what was predicted for it is a surprise:
# here, a verify time from its size's median (see SHIFT_STEPS); in adaptive_k.py, drafting
# costs set beside a new step or a plain step (its note on COST_SURPRISE).
COST_SURPRISE = 0.25
# The verify line's starting pseudo-observations, (batch size, cost in plain steps): mild, so
# that the first steps draft; the answer's own steps outweigh them within a few steps.
PRIOR_POINTS, PRIOR_WEIGHT = ((2, 1.1), (9, 1.5)), 2.0
# A batch size verified at least this often is costed by the median of its own steps (the
# last SIZE_SAMPLES of them), not by the line: the line's slope is pulled by its prior while
# the steps' sizes are alike, and on the counting pair, every step 4 or 5 tokens, it said a
# 5th token cost 0.1 ms where the steps said 4, so K auto drafted the 4th word, always wrong,
# in 40% of its steps (0.91 of K = 3). Sizes not measured yet read the line, so longer
# drafts stay worth a try.
SIZE_MIN_SAMPLES, SIZE_SAMPLES = 3, 16
# A machine's speed moves (another program's load, a laptop's clock), and what K auto measured
# in a slower or quicker moment must not decide its choices in this one. When drafting steps
# verify more than COST_SURPRISE away from what their size's median (or the line, between
# sizes measured) predicts, all on one side, for SHIFT_STEPS steps and SHIFT_MS of verifying in
# a row, the machine is taken to run that much slower or faster: every time K auto weighs
# (verifying, plain steps, drafting, a step's overhead) is scaled by the median of those
# steps' ratios, which keeps what the sizes cost relative to each other (the counting pair's
# dear 5th token: forgotten instead, it was drafted again for a while). Until then those
# steps are held back, so the length drafted does not move on them (added, they tilted the
# line, the drafts moved to sizes with nothing to be surprised by, and the shift went
# unseen). SHIFT_MS: on the toy models three steps take 15
# ms, a moment any other program's wake-up fills. A size not verified in the last SIZE_FRESH
# drafting steps is read off the line again (its times may be another moment's, and dear ones
# would keep it from ever being drafted again: live, after an answer drafted under load, sizes
# 9 and 11 kept 34 and 37 ms where 7 cost 27, and K auto drafted 5-6 for good), and one that
# is, is not raised to a smaller size's cost (verify_costs). SIZE_FRESH is long, as a size
# read off the line is drafted again to be measured: at 64 steps the counting pair's dear 5th
# token was tried again every other answer. (Live on the Zen 5, its speed doubling between
# answers: sizes 2-4 were verified anew at 20-24 ms while 6 and 9 kept their 45 and 56 from
# the slow moment, and K auto drafted 3 a step through two answers, the last at 0.94 of K = 8.
# Simulated, a machine twice as fast from step 60 on: one run in five fell from 10 drafts a
# step to 1 and took 100 steps to climb back to 10.)
SHIFT_STEPS, SHIFT_MS, SHIFT_HELD, SIZE_FRESH = 3, 30.0, 16, 128


# keyword-only, so that AdaptiveK's own fields keep their places: AdaptiveK(12.0) is still
# its plain step
@dataclass(kw_only=True)
class VerifyCosts:
    # (verify ms, drafting step) of the last steps of each batch size n ≥ 2 (see
    # SIZE_MIN_SAMPLES and SIZE_FRESH)
    _by_size: dict[int, deque[tuple[float, int]]] = field(default_factory=dict)
    _drafting_steps: int = 0  # drafting steps measured, ever
    # the drafting steps' (batch size, verify ms, ÷ predicted) held back while each was a
    # surprise on the same side (dearer or cheaper) of what the verify costs predicted, and
    # the verify ms that run has lasted (see SHIFT_STEPS)
    _surprises: deque[tuple[int, float, float]] = field(
        default_factory=lambda: deque(maxlen=SHIFT_HELD))
    _surprise_ms: float = 0.0

    # -- supplied by the controller ------------------------------------------------------
    def single_ms(self) -> float:
        """V(1), a plain step's verify time (not on the line: see adaptive_k's note)."""
        raise NotImplementedError

    def _prior_scale(self, points: list[tuple[int, float, float]]) -> float:
        """The plain step, in ms, that scales the line's pseudo-observations (`points`, the
        measured sizes', for a controller that knows none)."""
        raise NotImplementedError

    # -- measurements ---------------------------------------------------------------------
    def _judged(self, n: int, verify_ms: float) -> tuple[float, list[tuple[int, float]]]:
        """How much the machine's speed has shifted (the factor its costs moved by, 0 when
        they did not: see SHIFT_STEPS), and the steps' (batch size, verify ms) to add to the
        verify costs now. A step more than COST_SURPRISE away from what its size's median
        predicts is held back while the run of such steps on its side is shorter than
        SHIFT_STEPS and SHIFT_MS. The run ends with a shift, by the median of its steps'
        ratios to their predictions, or with a step that is no surprise (or one on the other
        side), when the held steps are added as noise. A size without SIZE_MIN_SAMPLES steps
        is judged by the line where the line stands on measured sizes on both sides of it, or
        one size past them (a speed that moved changes the costs a step weighs, and so the
        size it drafts: judged by its own median alone, a shift was missed one time in three,
        the drafts moving on to sizes without one); a line through fewer is a guess, and none
        to be surprised by."""
        times = self._recent_times(n)
        if len(times) >= SIZE_MIN_SAMPLES:
            predicted = statistics.median(times)
        else:
            points = self._size_medians()
            measured = [size for size, _, steps in points if steps >= SIZE_MIN_SAMPLES]
            if len(measured) < 2 or not min(measured) - 1 <= n <= max(measured) + 1:
                return 0.0, [(n, verify_ms)]
            a, b = self._line_through(points)
            predicted = a + b * n
        ratio = verify_ms / max(predicted, 1e-9)
        side = _side(ratio) if abs(ratio - 1) > COST_SURPRISE else 0
        held = [(size, ms) for size, ms, _ in self._surprises]
        if side and held and side == _side(self._surprises[0][2]):
            self._surprises.append((n, verify_ms, ratio))
            self._surprise_ms += verify_ms
            if len(self._surprises) < SHIFT_STEPS or self._surprise_ms < SHIFT_MS:
                return 0.0, []
            scale = statistics.median(r for _, _, r in self._surprises)
            self._surprises.clear()
            return scale, [*held, (n, verify_ms)]
        self._surprises.clear()  # the run, if any, was noise
        if side:  # a run begins
            self._surprise_ms = verify_ms
            self._surprises.append((n, verify_ms, ratio))
            return 0.0, held
        return 0.0, [*held, (n, verify_ms)]

    def _add_verify(self, n: int, verify_ms: float) -> None:
        """One drafting step's batch of n verified in `verify_ms`."""
        self._by_size.setdefault(n, deque(maxlen=SIZE_SAMPLES)).append(
            (verify_ms, self._drafting_steps))

    def _rescale_verify(self, scale: float) -> None:
        """Every verify time measured taken to be `scale` times longer now (see SHIFT_STEPS)."""
        for n, times in self._by_size.items():
            self._by_size[n] = deque(((ms * scale, at) for ms, at in times),
                                     maxlen=SIZE_SAMPLES)

    # -- estimates ------------------------------------------------------------------------
    def verify_line(self) -> tuple[float, float]:
        """(a, b) of V(n) = a + b·n in ms for n ≥ 2: least squares through the median of each
        batch size verified lately (see SIZE_FRESH), weighted by its steps, and two
        pseudo-observations scaled by a plain step."""
        return self._line_through(self._size_medians())

    def _line_through(self, points: list[tuple[int, float, float]]) -> tuple[float, float]:
        """verify_line through `points`, _size_medians' (batch size, median ms, steps)."""
        plain = self._prior_scale(points)
        points = [*points, *((n, cost * plain, PRIOR_WEIGHT) for n, cost in PRIOR_POINTS)]
        w = sum(wt for _, _, wt in points)
        mean_n = sum(n * wt for n, _, wt in points) / w
        mean_ms = sum(ms * wt for _, ms, wt in points) / w
        sxx = sum(wt * (n - mean_n) ** 2 for n, _, wt in points)
        b = sum(wt * (n - mean_n) * (ms - mean_ms) for n, ms, wt in points) / sxx
        b = max(b, 0.0)  # a bigger batch is never cheaper; noise must not say otherwise
        return mean_ms - b * mean_n, b

    def _size_medians(self) -> list[tuple[int, float, float]]:
        """(batch size, median verify ms, steps) of each size verified lately."""
        recent = ((n, self._recent_times(n)) for n in self._by_size)
        return [(n, statistics.median(times), float(len(times))) for n, times in recent if times]

    def verify_costs(self, n_draft_max: int,
                     line: tuple[float, float] | None = None) -> list[float]:
        """[V(1), …, V(n_draft_max + 1)] for drafts of 0..n_draft_max: a batch size measured often
        enough by its own steps' median, others by the line (`line`, verify_line's when the
        caller has it) but never below a smaller size's (a bigger batch is never cheaper). A
        measured size is not raised to a smaller one's: that one's times may be another
        moment's (see SHIFT_STEPS), and raised, a size measured at today's speed read 52 ms
        where its steps took 32, behind a size left with a slow moment's."""
        a, b = line or self.verify_line()
        out, floor = [self.single_ms()], 0.0
        for n in range(2, n_draft_max + 2):
            times = self._recent_times(n)
            if len(times) >= SIZE_MIN_SAMPLES:
                v = statistics.median(times)
            else:
                v = max(a + b * n, floor)
            floor = max(floor, v)
            out.append(v)
        return out

    def _recent_times(self, n: int) -> list[float]:
        """The verify ms of batch size n in the last SIZE_FRESH drafting steps (of its last
        SIZE_SAMPLES)."""
        since = self._drafting_steps - SIZE_FRESH
        return [ms for ms, at in self._by_size.get(n, ()) if at >= since]


def _side(ratio: float) -> int:
    """+1 for a step dearer than predicted, -1 for one cheaper (see SHIFT_STEPS)."""
    return 1 if ratio > 1 else -1
