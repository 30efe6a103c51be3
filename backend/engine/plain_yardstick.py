"""Plain decoding's speed, measured inside the answer it is compared with.

"×1.4 vs plain" divides the answer's tokens/s by plain decoding's. Taken from another moment (a
calibration after loading, the last plain answer, a race run while the machine was busy), that
figure moves with whatever else the machine was doing then: a plain run measured under load
made every later answer read "×17 vs plain". So the answer measures plain decoding itself: a
step that drafts nothing is a plain decoding step of the same target in the same moment (same
cache, same load), and every PROBE_EVERY steps a probe of such steps is made on purpose, two at
least, the last timed. The first pays for the drafting step before it: its caches hold the
drafter's weights, and the window is drawing that step's burst of tokens on the same cores
(measured in the window on the demo pair, a plain step right after a drafting one ran at 38–49
tok/s where plain answers ran at 60–65; headless, 5 % slower). What drafting leaves behind can
last longer than one step: on the 151,936-token pair on the 2-core machine, plain steps right
after drafting took 2.2, 1.8, 1.7, 1.6, then 1.5 ms (a plain answer's 1.5), and where K auto
drafted on, every probe's timed step read ~3 ms: the answer showed "×1.3 vs plain" where it ran
at 0.85 of a plain answer's speed, and K auto, seeing plain steps that dear, drafted on. So a
probe goes on while its steps are still getting faster (each more than SETTLING faster than the
one before, up to PROBE_MAX steps), and times the first that is not; on a machine where
drafting leaves nothing behind that is the second. Where it leaves nothing behind, the first
is as fast as the plain steps already timed, and paying for it was the probe's whole cost: on
the 151,936-token slow pair, plain steps were 16 % of a fixed K's steps, and the answer ran at
0.90 of one measuring nothing. So a probe's first step that is no slower than the plain steps
timed so far (within SETTLING of their mean) is timed itself, and the probe ends there; one
that is slower goes on as above. K auto's own plain stretches count the same way: a plain
step is timed where it follows a plain step and is not still getting faster, or is no slower
than those timed. The answer pays for the yardstick in the steps it does not draft (one or two
every PROBE_EVERY steps), and what is timed leans to the faster plain steps: the figure errs
low. On a GPU a plain answer's steps make their text and event while the next decode runs
(Engine._pipelines), so a probe's step is timed up to where such a step would begin it
(Engine._yardstick_ms); in the window a plain answer also reads its row's pass in C then
(AnswerRun.row_copy), and a probe whose row no second core reads in the background does not: there
the figure can err high by ~25 µs a token (2.5 % at 1,000 tokens/s, 0.5 % at 200:
bench/engine_overhead_bench.py).

A step's time runs from the engine resuming after the last step to this step's event being
ready: what the step itself costs, sampling and event making included (a plain answer's steps
cost the same), without the reader's pauses.

How sure the figure is comes from the spread of those steps' times: the standard error of
their mean, relative to it. With fewer than MIN_STEPS, or a spread over TOO_UNSURE, there is
no figure: "too short to tell".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from backend.words import Words, words

# The first pair of plain steps on purpose, then one every PROBE_EVERY steps: early enough
# that an answer of ~40 steps has MIN_STEPS, rare enough to cost a few per cent of drafting's
# gain; once MIN_STEPS are measured, one every LATER_EVERY steps keeps following the load.
FIRST_PROBE = 3
PROBE_EVERY = 10
LATER_EVERY = 20
MIN_STEPS = 4
# A plain step this much faster than the plain step before it is still recovering from the
# drafting before them (see above); a probe gives that up after PROBE_MAX plain steps.
SETTLING = 0.03
PROBE_MAX = 6
# Relative standard error of the plain steps' mean above which no figure is given.
TOO_UNSURE = 0.25
# A figure is given as a range (low–high) when its relative half-width exceeds this.
RANGE_OVER = 0.05
Z = 2.0  # the range: this many standard errors either side (about 95 %)

# The figure in words: what it compares, and how sure it is.
SPEEDUP = "×{speedup:.2f} vs plain ({rate:.0f} tok/s, {n} plain steps)"
SPEEDUP_RANGE = "×{low:.2f}–{high:.2f} vs plain ({rate:.0f} tok/s, {n} plain steps)"
TOO_SHORT = "vs plain: too short to tell"


@dataclass
class PlainYardstick:
    """Plain steps' times in one answer, and when the next one is due."""

    n: int = 0
    total_ms: float = 0.0
    total_sq: float = 0.0
    _next: int = FIRST_PROBE  # the step number at which a probe is due
    _last_plain: int = -1  # the number of the last step that drafted nothing
    _last_ms: float = 0.0  # its time
    _stretch: int = 0  # plain steps in a row, up to the last one
    _probing: bool = False  # the last plain step was not timed: the next is due

    def due(self, step: int) -> bool:
        """Whether step number `step` (from 1) should draft nothing, to measure plain
        decoding."""
        return step >= self._next or (self._probing and step == self._last_plain + 1)

    def step(self, step: int, drafted: int, ms: float) -> bool:
        """Step number `step` drafted `drafted` tokens and took `ms`; whether it was timed. A
        step that drafted nothing for any reason (K auto's choice, a lookup that found
        nothing) is a plain step; one that follows a plain step is timed unless it is still
        getting faster (SETTLING), in a probe up to its PROBE_MAX-th step; one that follows a
        drafting step is timed when it is no slower than the plain steps timed before it."""
        if drafted:
            self._probing = False
            return False
        follows = step > 1 and self._last_plain == step - 1
        before = self._last_ms
        self._last_plain, self._last_ms = step, ms
        self._stretch = self._stretch + 1 if follows else 1
        if follows:
            settling = ms < (1 - SETTLING) * before and self._stretch < PROBE_MAX
        else:  # an answer's first step follows nothing; after drafting, compare with the timed
            settling = step == 1 or not self.n or not ms <= (1 + SETTLING) * self.mean_ms
        if settling:
            self._probing = True
            return False
        self._probing = False
        self.add(ms)
        # the next probe begins PROBE_EVERY (LATER_EVERY) steps after this one's last step but
        # one began (this one's, when it was timed alone)
        began = step - min(self._stretch, 2) + 1
        self._next = began + (PROBE_EVERY if self.n < MIN_STEPS else LATER_EVERY)
        return True

    def add(self, ms: float) -> None:
        """One plain step's time (not an answer's first step)."""
        if ms > 0 and math.isfinite(ms):
            self.n += 1
            self.total_ms += ms
            self.total_sq += ms * ms

    @property
    def mean_ms(self) -> float:
        return self.total_ms / self.n if self.n else 0.0

    @property
    def tokens_per_second(self) -> float:
        """Plain decoding's tokens/s (one token a step), 0 before MIN_STEPS."""
        return 1000.0 / self.mean_ms if self.n >= MIN_STEPS and self.mean_ms > 0 else 0.0

    @property
    def spread(self) -> float:
        """The standard error of the mean step time, relative to it (0 before two steps)."""
        if self.n < 2 or self.mean_ms <= 0:
            return 0.0
        var = max(self.total_sq - self.n * self.mean_ms ** 2, 0.0) / (self.n - 1)
        return math.sqrt(var / self.n) / self.mean_ms


def speedup_range(speedup: float, spread: float) -> tuple[float, float]:
    """(low, high) of a speedup whose plain yardstick has relative standard error `spread`:
    the speedup divides by the plain rate, so it scales with the mean plain step time."""
    return speedup * max(1.0 - Z * spread, 0.0), speedup * (1.0 + Z * spread)


def ranged(speedup: float, low: float, high: float) -> bool:
    """Whether a speedup is unsure enough to be given as its range rather than one figure."""
    return high - low > 2 * RANGE_OVER * speedup


def legacy(plain_steps: int, plain_tokens_per_second: float) -> bool:
    """A plain speed with no steps behind it: an answer saved before answers measured their
    own, divided by a figure from another moment; no speedup is given for it."""
    return plain_steps == 0 and plain_tokens_per_second > 0


def speedup_words(stats) -> Words | None:
    """A speculative answer's speedup (`stats`, its Stats), in words: one figure, a range, or
    too short to tell; None for an answer saved before answers measured plain decoding
    themselves (see `legacy`)."""
    if stats.speedup:
        low, high = stats.speedup_range
        if ranged(stats.speedup, low, high):
            return words(SPEEDUP_RANGE, low=low, high=high, rate=stats.plain_tokens_per_second,
                         n=stats.plain_steps)
        return words(SPEEDUP, speedup=stats.speedup, rate=stats.plain_tokens_per_second,
                     n=stats.plain_steps)
    if legacy(stats.plain_steps, stats.plain_tokens_per_second):
        return None
    return words(TOO_SHORT)
