"""A scripted answer that streams a few steps, then waits for Stop: tests of Stop that cannot
lose a race with the machine's speed (a fixed delay per step can end the answer first)."""

from __future__ import annotations

import threading

from scripted_engine import ScriptedEngine, counting_stream

from backend.engine.events import StepVerified


class StopGate:
    """`engine` streams `before` steps of a long counting answer, then waits (30 s at most)
    for its cancel before the next; `waiting` is set from then on. The scripted engine ends a
    cancelled answer at its next step, so a prompt Stop leaves exactly `before` steps."""

    def __init__(self, before: int = 6, total: int = 2000) -> None:
        self.before = before
        self.waiting = threading.Event()
        self.engine = ScriptedEngine(self._script)
        self._total = total

    def _script(self, request):
        for event in counting_stream(self._total):
            if isinstance(event, StepVerified) and event.step == self.before:
                self.waiting.set()
                self.engine._cancel.wait(30)
            yield event
