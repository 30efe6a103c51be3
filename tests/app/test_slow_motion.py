"""Slow motion's schedule, on a fake clock: steps let out one per delay, other events kept in
their place, the engine read at full speed, everything flushed when the answer is stopped."""

from __future__ import annotations

from itertools import pairwise

from scripted_engine import counting_stream

from app.teaching.slow_motion import paced
from backend.engine.events import GenerationFinished, StepVerified


class FakeClock:
    def __init__(self) -> None:
        self.t = 0.0
        self.slept = 0.0

    def __call__(self) -> float:
        return self.t

    def sleep(self, s: float) -> None:
        self.t += s
        self.slept += s


def test_steps_come_out_one_per_delay_in_order():
    events = counting_stream(6, k=3)
    clock = FakeClock()
    out_times: list[tuple[float, object]] = []
    # the engine delivers everything at once (a fast engine): one group
    for chunk in paced([events], lambda: 0.5, clock=clock, sleep=clock.sleep):
        out_times += [(clock.t, e) for e in chunk]
    assert [e for _, e in out_times] == events  # nothing lost, nothing reordered
    step_times = [t for t, e in out_times if type(e) is StepVerified]
    gaps = [b - a for a, b in pairwise(step_times)]
    assert all(abs(g - 0.5) < 1e-9 for g in gaps), gaps
    assert isinstance(out_times[-1][1], GenerationFinished)
    assert out_times[-1][0] == step_times[-1]  # the end comes right after the last step


def test_a_slow_engine_is_not_slowed_further_and_is_read_as_it_goes():
    events = counting_stream(4, k=3)
    clock = FakeClock()
    reads = []

    def engine():
        for e in events:  # one event a second: slower than the 0.25 s pace
            clock.t += 1.0
            reads.append(clock.t)
            yield [e]

    got = [e for chunk in paced(engine(), lambda: 0.25, clock=clock, sleep=clock.sleep)
           for e in chunk]
    assert got == events
    assert clock.slept == 0.0  # never waited: each step was already due when read


def test_stop_flushes_what_is_held():
    events = counting_stream(8, k=3)
    clock = FakeClock()
    stopped = {"now": False}
    chunks = []
    for chunk in paced([events], lambda: 1.0, lambda: stopped["now"], clock=clock,
                       sleep=clock.sleep):
        chunks.append(chunk)
        if len(chunks) == 2:
            stopped["now"] = True
    assert [e for c in chunks for e in c] == events
    assert clock.slept <= 1.0 + 1e-9  # one wait before the stop, none after


def test_delay_zero_passes_groups_through():
    events = counting_stream(3, k=2)
    clock = FakeClock()
    out = list(paced([events[:3], events[3:]], lambda: 0.0, clock=clock, sleep=clock.sleep))
    assert [e for c in out for e in c] == events and clock.slept == 0.0
