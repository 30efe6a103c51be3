"""The teaching charts' numbers, for one answer or a whole chat: acceptance by draft position,
how many drafts each step kept, and tokens per second over time. Qt-free, so what the bars
say is tested as data.

Acceptance at position i counts the steps that drafted at least i tokens and how many of them
kept the i-th (a draft is accepted as a prefix, so position i is kept only if 1..i-1 were).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from app.teaching.replay import step_spans
from app.transcript.answer import Answer

# Tokens/s over time is a moving rate: each point covers this much of the answer's clock.
RATE_WINDOW_MS = 500.0
# A share's axis, as fractions: 0 to 100 % in quarters.
SHARE_TICKS = (0.0, 0.25, 0.5, 0.75, 1.0)


def axis_ticks(peak: float, *, whole: bool = False, most: int = 5) -> list[float]:
    """Evenly spaced ticks from 0 to the first at or above `peak`, at most `most` steps of
    1, 2 or 5 times a power of ten; `whole`: the step is a whole number (counts, steps and
    positions have no halves)."""
    if peak <= 0:
        return [0.0, 1.0]
    raw = peak / most
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw * (1 - 1e-9))
    if whole:
        step = max(1.0, float(round(step)))
    n = math.ceil(peak / step - 1e-9)
    return [i * step for i in range(n + 1)]


@dataclass
class ChartData:
    drafted_at: list[int] = field(default_factory=list)  # per position 1..K: steps drafting it
    accepted_at: list[int] = field(default_factory=list)  # and keeping it
    kept_per_step: list[int] = field(default_factory=list)  # histogram: index = drafts kept
    rate: list[tuple[float, float]] = field(default_factory=list)  # (seconds, tokens/s)
    timed: bool = False  # whether the step timings were known (not for a reloaded chat)
    n_answers: int = 0

    def acceptance_at(self) -> list[float]:
        return [a / d if d else 0.0 for a, d in zip(self.accepted_at, self.drafted_at,
                                                     strict=True)]


def _grow(values: list[int], n: int) -> None:
    values.extend([0] * (n - len(values)))


def chart_data(answers: Iterable[Answer]) -> ChartData:
    data = ChartData()
    offset_s = 0.0
    for answer in answers:
        spans = step_spans(answer.tokens)
        if not spans:
            continue
        data.n_answers += 1
        for s in spans:
            if not s.n_drafted:
                continue
            _grow(data.drafted_at, s.n_drafted)
            _grow(data.accepted_at, s.n_drafted)
            _grow(data.kept_per_step, s.n_drafted + 1)
            for i in range(s.n_drafted):
                data.drafted_at[i] += 1
                data.accepted_at[i] += i < s.n_accepted
            data.kept_per_step[s.n_accepted] += 1
        if len(answer.draft_ms) == len(spans):
            data.timed = True
            points = rate_over_time(answer, spans)
            data.rate += [(offset_s + t, r) for t, r in points]
            if points:
                offset_s += points[-1][0]
    return data


def rate_over_time(answer: Answer, spans) -> list[tuple[float, float]]:
    """(seconds into the answer's decoding, tokens/s over the last RATE_WINDOW_MS)."""
    t = 0.0
    ends: list[float] = []
    tokens: list[int] = []
    n = 0
    for span, d, v in zip(spans, answer.draft_ms, answer.verify_ms, strict=True):
        t += d + v
        n += sum(1 for i in range(span.start, span.end) if answer.tokens.accepted[i])
        ends.append(t)
        tokens.append(n)
    points: list[tuple[float, float]] = []
    lo = 0
    for i, end in enumerate(ends):
        while ends[lo] < end - RATE_WINDOW_MS and lo < i:
            lo += 1
        t0 = ends[lo - 1] if lo else 0.0
        n0 = tokens[lo - 1] if lo else 0
        if end > t0:
            points.append((end / 1000.0, 1000.0 * (tokens[i] - n0) / (end - t0)))
    return points
