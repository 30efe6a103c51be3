"""The speedup under an answer divides by plain decoding measured in that answer: its own plain
steps, one every few steps, in the same moment as its drafting steps; never a figure from
another moment (a calibration, a plain answer, a race run while the machine was busy)."""

from __future__ import annotations

import itertools
import time
from statistics import mean

import pytest

from backend.engine import engine as engine_module
from backend.engine import plain_yardstick as ys
from backend.engine.context import Context
from backend.engine.plain_yardstick import PlainYardstick, speedup_words
from backend.engine.request import GenerationRequest
from engine.runner import run


def scheduled(y: PlainYardstick, last: int, ms) -> list[int]:
    """Steps 1..last, each plain where the yardstick says one is due, else drafting 4, taking
    ms(step, due); the steps that were due."""
    due = []
    for step in range(1, last + 1):
        d = y.due(step)
        if d:
            due.append(step)
        y.step(step, 0 if d else 4, ms(step, d))
    return due


def test_plain_steps_fall_due_in_pairs_on_a_schedule_and_only_the_second_is_timed():
    y = PlainYardstick()
    due = scheduled(y, 119, lambda step, _: 10.0 + step)  # each step's time says which it was
    assert due[:2] == [ys.FIRST_PROBE, ys.FIRST_PROBE + 1]
    firsts = due[::2]
    assert all(b == a + 1 for a, b in zip(due[::2], due[1::2], strict=False))  # in pairs
    gaps = [b - a for a, b in itertools.pairwise(firsts)]
    assert gaps[:ys.MIN_STEPS - 1] == [ys.PROBE_EVERY] * (ys.MIN_STEPS - 1)
    assert set(gaps[ys.MIN_STEPS:]) == {ys.LATER_EVERY}
    # only the second of each pair is timed: the first pays for the drafting before it
    assert y.n == len(due) // 2
    assert y.total_ms == sum(10.0 + s for s in due[1::2])


def test_a_plain_stretch_times_every_step_but_its_first():
    y = PlainYardstick()
    y.step(1, 0, 10.0)  # an answer's first step: nothing before it to follow
    assert y.step(2, 0, 10.0) and y.step(3, 0, 10.5)
    y.step(4, 5, 30.0)
    assert not y.step(5, 0, 99.0)  # right after drafting: not timed, and the next is due
    assert y.n == 2 and y.due(6)
    y.step(6, 0, 10.0)  # faster than the step before, but a stretch's steps only get timed
    assert y.n == 2 and y.due(7)  # still recovering: the probe goes on
    assert y.step(7, 0, 9.8)  # no longer getting faster: timed
    assert y.n == 3 and y.mean_ms == pytest.approx((10.0 + 10.5 + 9.8) / 3) and not y.due(8)


def test_a_probe_whose_first_step_is_as_fast_as_the_timed_ones_is_that_step_alone():
    """Where drafting leaves nothing behind (a slow target: 16 % of a fixed K's steps were
    plain ones), paying for a probe's first step is its whole cost."""
    y = PlainYardstick()
    due = scheduled(y, 79, lambda _, d: 10.0 if d else 30.0)
    first = [ys.FIRST_PROBE, ys.FIRST_PROBE + 1]  # nothing timed yet to compare with
    assert due[:2] == first
    later = due[2:]
    assert later and all(b - a >= ys.PROBE_EVERY for a, b in itertools.pairwise(later))
    assert y.n == 1 + len(later)  # every later probe: one step, timed
    # one slower than the timed steps by more than SETTLING is not timed: the probe goes on
    step = due[-1] + ys.LATER_EVERY
    assert y.due(step) and not y.step(step, 0, 10.0 * (1 + 2 * ys.SETTLING))
    assert y.due(step + 1) and y.step(step + 1, 0, 10.0 * (1 + 1.5 * ys.SETTLING))
    assert not y.due(step + 2)
    # within SETTLING of their mean, a probe's first step is timed
    step += ys.LATER_EVERY
    assert y.due(step) and y.step(step, 0, 10.0 * (1 + ys.SETTLING / 2))


def test_a_probe_goes_on_while_plain_steps_get_faster_up_to_probe_max():
    """What drafting leaves behind (caches, a worker's burst of rows) wore off over four plain
    steps on the 151,936-token pair: timing the second read 3 ms where plain decoding took 1.5,
    and the answer showed a speedup where it ran slower than plain."""
    y = PlainYardstick()
    for step in range(1, ys.FIRST_PROBE):
        y.step(step, 4, 20.0)
    times = {ys.FIRST_PROBE + i: ms for i, ms in enumerate((3.3, 2.9, 2.4, 1.9, 1.6, 1.5))}
    timed = []
    for step, ms in times.items():
        assert y.due(step)
        if y.step(step, 0, ms):
            timed.append(ms)
    assert timed == [1.5] and y.total_ms == pytest.approx(1.5)
    # a probe that never settles is timed at its PROBE_MAX-th plain step, and then ends
    y = PlainYardstick()
    for step in range(1, ys.FIRST_PROBE):
        y.step(step, 4, 20.0)
    ms, step, timed = 64.0, ys.FIRST_PROBE, []
    while y.due(step) and step < ys.FIRST_PROBE + 20:
        if y.step(step, 0, ms):
            timed.append(step - ys.FIRST_PROBE + 1)
        ms, step = ms / 2, step + 1
    assert timed == [ys.PROBE_MAX]


def test_impossible_times_are_not_measured():
    y = PlainYardstick()
    for step, ms in ((1, 5.0), (2, float("nan")), (3, -1.0), (4, 0.0)):
        y.step(step, 0, ms)
    assert y.n == 0 and y.tokens_per_second == 0


def test_the_figure_needs_min_steps_and_its_spread_says_how_sure_it_is():
    y = PlainYardstick()
    for ms in (10.0, 10.0, 10.0):
        y.add(ms)
    assert y.tokens_per_second == 0  # fewer than MIN_STEPS
    y.add(10.0)
    assert y.tokens_per_second == pytest.approx(100.0) and y.spread == 0.0
    noisy = PlainYardstick()
    for ms in (5.0, 15.0, 5.0, 15.0):
        noisy.add(ms)
    # sd 5.77, mean 10, four steps: standard error 2.89, relative 0.289
    assert noisy.spread == pytest.approx(0.2887, abs=1e-3)
    low, high = ys.speedup_range(1.5, noisy.spread)
    assert low == pytest.approx(1.5 * (1 - 2 * 0.2887), abs=1e-3) and high > 1.5


def _stats(**kw):
    from backend.engine.events import Stats
    return Stats(n_generated=100, generation_ms=1000.0, **kw)


def test_the_words_give_a_figure_a_range_or_too_short_and_nothing_for_old_answers():
    assert str(speedup_words(_stats(plain_tokens_per_second=50.0, plain_steps=8,
                                    plain_spread=0.01))) \
        == "×2.00 vs plain (50 tok/s, 8 plain steps)"
    assert str(speedup_words(_stats(plain_tokens_per_second=50.0, plain_steps=8,
                                    plain_spread=0.1))) \
        == "×1.60–2.40 vs plain (50 tok/s, 8 plain steps)"
    assert str(speedup_words(_stats(plain_steps=2))) == ys.TOO_SHORT
    # plain steps too spread to tell from each other
    too_spread = _stats(plain_tokens_per_second=50.0, plain_steps=5, plain_spread=0.4)
    assert too_spread.speedup == 0 and str(speedup_words(too_spread)) == ys.TOO_SHORT
    # saved before answers measured plain decoding themselves: a figure from another moment
    assert speedup_words(_stats(plain_tokens_per_second=2.0)) is None


def _own_plain_rate(steps) -> tuple[float, int]:
    """Plain decoding as the answer's own steps measure it: each plain step that follows a
    plain step and is not still getting faster than it (or is its stretch's PROBE_MAX-th), or
    that follows a drafting step and is no slower than the plain steps timed before it."""
    own, stretch, before = [], 0, None
    for s in steps:
        if s.drafted:
            stretch, before = 0, None
            continue
        follows = before is not None and before.step == s.step - 1
        stretch = stretch + 1 if follows else 1
        settled = (s.ms >= (1 - ys.SETTLING) * before.ms or stretch >= ys.PROBE_MAX
                   if follows else s.step > 1 and own and s.ms <= (1 + ys.SETTLING) * mean(own))
        if settled:
            own.append(s.ms)
        before = s
    return 1000.0 / (sum(own) / len(own)), len(own)


class ScriptedClock:
    """perf_counter for the engine's module: 1 ms a reading, so every step's time is a count of
    the engine's own readings, never the machine's noise, which on a busy machine can spread the
    plain steps past TOO_UNSURE and withhold the figure the test below checks."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += 0.001
        return self.now


def test_an_answer_measures_plain_decoding_in_its_own_steps(count_engine, monkeypatch):
    monkeypatch.setattr(engine_module, "time", ScriptedClock())
    final, steps = run(count_engine, GenerationRequest(
        prompt=" zero one", spec_type="draft", n_draft_max=4, max_tokens=200))
    plain_steps = [s.step for s in steps if not s.drafted]
    assert plain_steps[:2] == [ys.FIRST_PROBE, ys.FIRST_PROBE + 1]
    assert len(plain_steps) <= ys.PROBE_MAX * (len(steps) // ys.PROBE_EVERY + 2)  # bounded
    rate, n = _own_plain_rate(steps)
    s = final.stats
    assert s.plain_steps == n >= ys.MIN_STEPS
    assert s.plain_tokens_per_second == pytest.approx(rate)
    assert s.plain_spread <= ys.TOO_UNSURE  # a scripted clock: a figure is always due
    assert s.speedup == pytest.approx(s.tokens_per_second / rate)
    # every step's time covers its drafting and verifying
    assert all(st.ms >= st.draft_ms + st.verify_ms for st in steps)
    # lossless all the same
    plain, _ = run(count_engine, GenerationRequest(prompt=" zero one", max_tokens=200))
    assert final.text == plain.text


def test_a_slow_plain_run_before_does_not_change_a_later_answers_figure(count_engine,
                                                                        monkeypatch):
    """As a race's plain run measured while the machine was busy: every plain step 30 ms."""
    decode = Context._launch_chunk  # every decode, whether the engine waits for it or not

    def slow(self, *args, **kwargs):
        time.sleep(0.03)
        return decode(self, *args, **kwargs)

    monkeypatch.setattr(Context, "_launch_chunk", slow)
    slow_plain, _ = run(count_engine, GenerationRequest(prompt=" zero one", max_tokens=24))
    monkeypatch.setattr(Context, "_launch_chunk", decode)
    assert slow_plain.stats.tokens_per_second < 40  # at most one token per 30 ms decode

    final, steps = run(count_engine, GenerationRequest(
        prompt=" zero one", spec_type="draft", n_draft_max=4, max_tokens=200))
    rate, _ = _own_plain_rate(steps)
    assert final.stats.plain_tokens_per_second == pytest.approx(rate)
    # the figure is the answer's own rate over its own plain steps' rate, or withheld (0)
    # when those steps spread too much to tell, as on a busy machine: never the slow run's
    assert final.stats.speedup in (0.0, pytest.approx(final.stats.tokens_per_second / rate))
    # its plain steps were not slowed: the slow run's rate is nowhere in the figure
    assert rate > 2 * slow_plain.stats.tokens_per_second


def test_a_request_may_draft_every_step(count_engine):
    _, steps = run(count_engine, GenerationRequest(
        prompt=" zero one", spec_type="draft", n_draft_max=4, max_tokens=60,
        measure_plain=False))
    assert all(s.drafted for s in steps[:-1])


@pytest.mark.parametrize("at_launch", [False, True], ids=["decode when done", "at launch"])
def test_where_a_decode_returns_at_launch_a_probe_is_timed_without_its_text_and_event(
        count_engine, monkeypatch, at_launch):
    """On a GPU a plain answer's step makes its text and event while its successor decodes
    (Engine._pipelines), so the yardstick times a probe's step up to that point: a slow text
    (50 ms a token on the scripted clock here) is in every step's time, and in the plain
    figure only where the decode waits on the CPU."""
    from backend.engine.text import AnswerText

    clock, slow_s, push = ScriptedClock(), 0.05, AnswerText.push

    def slow_push(self, piece):
        clock.now += slow_s
        return push(self, piece)

    monkeypatch.setattr(engine_module, "time", clock)
    monkeypatch.setattr(AnswerText, "push", slow_push)
    count_engine.decode_at_launch = at_launch
    final, steps = run(count_engine, GenerationRequest(
        prompt=" zero one", spec_type="draft", n_draft_max=4, max_tokens=200))
    assert all(s.ms >= 1000 * slow_s for s in steps if not s.drafted)
    s = final.stats
    assert s.plain_steps >= ys.MIN_STEPS
    plain_ms = 1000 / s.plain_tokens_per_second
    if at_launch:
        assert plain_ms < 1000 * slow_s
    else:
        assert plain_ms >= 1000 * slow_s
