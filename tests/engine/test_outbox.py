"""Outbox: an answer's events reach the window in order, in batches sent at most once a frame of
that answer (backend/engine/frame_pace.py), its start and end at once."""

from __future__ import annotations

from multiprocessing import Pipe

import pytest

from backend.engine.events import GenerationFinished, GenerationStarted, Stats, StepVerified, Token
from backend.engine.frame_pace import BUSY_FRAME_S, FRAME_S
from backend.engine.outbox import Outbox
from backend.engine.token_log import StepBatch, TokenLog, fold_steps


def steps(n: int) -> list[StepVerified]:
    return [StepVerified(i, (), 0, (Token(i, f" {i}", "target", True),), 0.0, 1.0)
            for i in range(n)]


@pytest.mark.parametrize(("spare_core", "frame"), [(True, FRAME_S), (False, BUSY_FRAME_S)])
def test_events_are_sent_once_a_frame_of_their_answer_all_of_them_in_order(spare_core, frame):
    window, engine = Pipe()
    outbox = Outbox(engine)
    started = GenerationStarted(1, "none", 0, 3, spare_core=spare_core)
    events = [started, *steps(50), GenerationFinished("length", "", Stats())]
    for event in events:
        outbox.put(event)
    assert outbox._queue.every == frame  # the queue rings its sender once a frame
    outbox.close()
    received = []
    while window.poll():
        op, batch = window.recv()
        assert op == "events"
        received.extend(batch)
    assert received == events
    assert FRAME_S < BUSY_FRAME_S


def test_for_the_window_each_run_of_steps_is_sent_folded_as_the_window_keeps_it():
    """Folded in the engine process (a StepBatch of flat lists), the steps carry what the
    window would have folded them into: every token, in order, with its inspection record."""
    window, engine = Pipe()
    outbox = Outbox(engine, fold=True)
    run = [StepVerified(i, (Token(100 + i, " x", "draft", False, 0.1, 0.9, inspection="{}"),),
                        0, (Token(i, f" {i}", "target", True, 0.8, inspection=f'{{"i":{i}}}'),),
                        0.5, 1.0)
           for i in range(40)]
    events = [GenerationStarted(1, "draft", 1, 3), *run, GenerationFinished("length", "", Stats())]
    for event in events:
        outbox.put(event)
    outbox.close()
    received = []
    while window.poll():
        received.extend(window.recv()[1])
    assert received[0] == events[0] and received[-1] == events[-1]
    batches = received[1:-1]
    assert batches and all(isinstance(b, StepBatch) for b in batches)
    expected = fold_steps(run)[0]
    for name in TokenLog.COLUMNS:
        assert [x for b in batches for x in getattr(b.tokens, name)] == \
            getattr(expected.tokens, name), name
    assert [x for b in batches for x in b.parts] == expected.parts
    assert sum(len(b) for b in batches) == len(run)


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def perf_counter(self) -> float:
        return self.now


def _messages(window) -> list[list]:
    out = []
    while window.poll():
        op, batch = window.recv()
        assert op == "events"
        out.append(batch)
    return out


def test_with_no_core_spare_the_decoding_thread_sends_a_frame_of_steps_at_a_time(monkeypatch):
    """No sender thread to wake on llama.cpp's cores: the caller sends, once a frame has passed
    since its last message, everything held; the start and the end at once."""
    import backend.engine.outbox as outbox_module

    clock = _Clock()
    monkeypatch.setattr(outbox_module, "time", clock)
    window, engine = Pipe()
    outbox = Outbox(engine)
    started = GenerationStarted(1, "none", 0, 3, spare_core=False)
    outbox.put(started)
    assert _messages(window) == [[started]]
    run = steps(10)
    for step in run[:4]:  # 4 ms apart: within a frame of the start's message
        clock.now += 0.004
        outbox.put(step)
    assert _messages(window) == []
    clock.now += BUSY_FRAME_S  # the fifth completes a frame: the five go together
    outbox.put(run[4])
    assert _messages(window) == [run[:5]]
    for step in run[5:]:
        clock.now += 0.004
        outbox.put(step)
    finished = GenerationFinished("length", "", Stats())
    outbox.put(finished)  # not a step: sent at once, with the steps held before it
    assert _messages(window) == [[*run[5:], finished]]
    assert outbox._thread is None
    outbox.close()
    assert _messages(window) == []


def test_with_no_core_spare_steps_held_at_the_end_are_sent_by_close(monkeypatch):
    import backend.engine.outbox as outbox_module

    monkeypatch.setattr(outbox_module, "time", _Clock())
    window, engine = Pipe()
    outbox = Outbox(engine)
    outbox.put(GenerationStarted(1, "none", 0, 3, spare_core=False))
    run = steps(3)
    for step in run:
        outbox.put(step)
    outbox.close()
    assert _messages(window)[1:] == [run]


@pytest.mark.parametrize("spare_core", [True, False])
def test_a_window_gone_is_raised_to_the_engine_at_the_next_event_and_at_close(spare_core):
    window, engine = Pipe()
    outbox = Outbox(engine)
    window.close()
    with pytest.raises(OSError):
        for event in [GenerationStarted(1, "none", 0, 3, spare_core=spare_core), *steps(5),
                      GenerationFinished("length", "", Stats())]:
            outbox.put(event)
            if outbox._thread is not None:
                outbox._thread.join(0.05)  # the sender's failure, met at a later put
        outbox.close()
    with pytest.raises(OSError):
        outbox.close()
