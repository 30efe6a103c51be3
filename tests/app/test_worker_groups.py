"""The worker forwards an engine's events without holding a step back: from an engine that
hands them over in groups (the engine process), each group goes to the window at once."""

from __future__ import annotations

import threading

from scripted_engine import ScriptedEngine, counting_stream

from app.engine_link.engine_client import EngineClient
from backend.engine.events import StepVerified
from backend.engine.protocol import Batched
from backend.engine.request import GenerationRequest
from backend.engine.token_log import StepBatch


class GroupedEngine(ScriptedEngine):
    """Hands its steps over as the engine process does, a group each; after its second step
    it waits until the test has seen that step arrive."""

    def __init__(self) -> None:
        super().__init__(counting_stream(4))
        self.gate = threading.Event()

    def generate(self, request):
        for event in super().generate(request):
            yield event
            if isinstance(event, StepVerified) and event.step == 1:  # the second (from 0)
                self.gate.wait(10)

    def generate_batches(self, request, *, folded=False):  # events either way: the worker folds
        group: list = []
        for event in self.generate(request):
            group.append(event)
            if isinstance(event, StepVerified):
                yield group
                group = []
        if group:
            yield group


def steps_in(received: list) -> int:
    return sum(len(e) for e in received if isinstance(e, StepBatch))


def test_a_step_reaches_the_window_before_the_engine_makes_the_next(qtbot):
    engine = GroupedEngine()
    assert isinstance(engine, Batched)
    client = EngineClient(lambda: engine)
    received: list = []
    client.events_emitted.connect(lambda _rid, events: received.extend(events))
    try:
        client.generate(GenerationRequest(prompt="count"))
        # The engine makes its third step only once the second has arrived here. Steps one
        # and two come back to back: a worker that held the second to batch it with the
        # next would wait for it as long as the engine waits for us.
        qtbot.waitUntil(lambda: steps_in(received) == 2, timeout=5000)
        engine.gate.set()
        qtbot.waitUntil(lambda: steps_in(received) == 4, timeout=5000)
    finally:
        engine.gate.set()
        assert client.shutdown()
