"""Outbox: an answer's events reach the window in order, in batches sent at most once a frame of
that answer (backend/engine/frame_pace.py), its start and end at once."""

from __future__ import annotations

from multiprocessing import Pipe

import pytest

from backend.engine.events import GenerationFinished, GenerationStarted, Stats, StepVerified, Token
from backend.engine.frame_pace import BUSY_FRAME_S, FRAME_S
from backend.engine.outbox import Outbox


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
