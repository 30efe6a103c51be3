"""The worker that makes steps' events beside the decoding (step_events.EventPipeline): events
leave in the order the steps were made, never more than ROWS_AHEAD rows behind, a failure
reaches the engine's thread, and an answer dropped half way leaves nothing for the next one."""

from __future__ import annotations

import threading

import pytest

from backend.engine.step_events import EventPipeline


def test_events_leave_in_order():
    pipeline = EventPipeline()
    out: list[int] = []
    try:
        for i in range(20):
            out.extend(pipeline.put(lambda i=i: i))
            assert out == list(range(len(out)))
        out.extend(pipeline.drain())
    finally:
        pipeline.close()
    assert out == list(range(20))


def test_the_decoding_waits_when_more_than_rows_ahead_are_held():
    pipeline = EventPipeline()
    gate = threading.Event()
    released: list[bool] = []

    def first():
        gate.wait()
        return 0

    try:
        # ROWS_AHEAD rows held: nobody waits, even with the latest step's on top
        assert list(pipeline.put(first, rows=EventPipeline.ROWS_AHEAD)) == []
        assert list(pipeline.put(lambda: 1, rows=3)) == []
        timer = threading.Timer(0.2, lambda: (released.append(True), gate.set()))
        timer.start()
        # one row more beside the latest step's: waits for the first to be made
        got = list(pipeline.put(lambda: 2, rows=1))
        assert released == [True]
        assert got[0] == 0
        assert got + list(pipeline.drain()) == [0, 1, 2]
    finally:
        gate.set()
        pipeline.close()


def test_a_step_larger_than_rows_ahead_alone_never_waits():
    pipeline = EventPipeline()
    gate = threading.Event()
    try:
        assert list(pipeline.put(lambda: gate.wait(5) and 0,
                                 rows=EventPipeline.ROWS_AHEAD + 9)) == []
        assert pipeline._rows == EventPipeline.ROWS_AHEAD + 9
        gate.set()
        assert list(pipeline.drain()) == [0]
        assert pipeline._rows == 0
    finally:
        gate.set()
        pipeline.close()


def test_a_failure_making_an_event_is_raised_on_the_engine_thread():
    pipeline = EventPipeline()

    def broken():
        raise ValueError("no event")

    try:
        out = list(pipeline.put(lambda: 1)) + list(pipeline.put(broken))
        with pytest.raises(ValueError, match="no event"):
            out += list(pipeline.drain())
        assert out in ([], [1])
    finally:
        pipeline.close()


def test_a_dropped_answer_leaves_nothing_for_the_next():
    pipeline = EventPipeline()
    hold = threading.Event()
    try:
        list(pipeline.put(lambda: hold.wait(5) and "old"))
        list(pipeline.put(lambda: "old too"))
        pipeline.discard()
        hold.set()
        assert list(pipeline.put(lambda: "new")) + list(pipeline.drain()) == ["new"]
    finally:
        pipeline.close()


def test_inline_events_are_made_as_each_step_is_put():
    pipeline = EventPipeline()
    pipeline.inline = True
    try:
        assert list(pipeline.put(lambda: 7, rows=3)) == [7]
        assert pipeline._worker is None and pipeline._rows == 0
        with pytest.raises(ValueError, match="no event"):
            list(pipeline.put(lambda: (_ for _ in ()).throw(ValueError("no event"))))
    finally:
        pipeline.close()


def test_steps_put_inline_wait_behind_those_held_by_the_worker():
    pipeline = EventPipeline()
    gate = threading.Event()
    try:
        assert list(pipeline.put(lambda: gate.wait(5) and "first")) == []
        pipeline.inline = True
        out = list(pipeline.put(lambda: "second"))  # not ahead of the first
        gate.set()
        assert out + list(pipeline.drain()) == ["first", "second"]
    finally:
        gate.set()
        pipeline.close()


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_batched_inline_events_come_a_few_steps_at_a_time_and_never_late(monkeypatch):
    # Steps faster than WAKE_EVERY_S: their events are made together, at the step after which
    # the next, as far apart, would come too late; slower steps' events come as each is put.
    clock = Clock()
    monkeypatch.setattr("backend.engine.step_events.time.perf_counter", clock)
    pipeline = EventPipeline()
    pipeline.inline = pipeline.batched = True
    wake = EventPipeline.WAKE_EVERY_S
    made: list[int] = []

    def step(n: int, after_s: float) -> list[int]:
        clock.now += after_s

        def make(n=n):
            made.append(n)
            return n

        return list(pipeline.put(make))

    try:
        assert step(1, 0.0) == [1]  # an answer's first step: at once
        gap = 0.3 * wake
        assert [step(n, gap) for n in (2, 3, 4)] == [[], [], []]
        assert made == [1]  # held, not made
        assert step(5, gap) == [2, 3, 4, 5]  # the next would come past the wake
        assert [step(n, gap) for n in (6, 7)] == [[], []]
        assert step(8, 2 * wake) == [6, 7, 8]  # a slow step takes all those held
        assert step(9, 2 * wake) == [9]
        assert step(10, gap) == []
        assert list(pipeline.drain()) == [10]
        assert step(11, wake / 100) == [11]  # a new answer's first step: at once again
        assert made == list(range(1, 12))
    finally:
        pipeline.close()


def test_batched_inline_events_of_a_dropped_answer_are_never_made(monkeypatch):
    clock = Clock()
    monkeypatch.setattr("backend.engine.step_events.time.perf_counter", clock)
    pipeline = EventPipeline()
    pipeline.inline = pipeline.batched = True
    try:
        assert list(pipeline.put(lambda: 1)) == [1]
        clock.now += EventPipeline.WAKE_EVERY_S / 10
        assert list(pipeline.put(lambda: pytest.fail("made"))) == []
        pipeline.discard()
        assert list(pipeline.drain()) == []
    finally:
        pipeline.close()
