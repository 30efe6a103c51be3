"""Running a request to the end in a test."""

from __future__ import annotations

import pytest

from backend.engine import Engine
from backend.engine.events import GenerationFailed, GenerationFinished, StepVerified


def run(engine: Engine, request):
    """(final event, steps) of one request; fails the test on GenerationFailed."""
    steps = []
    final = None
    for ev in engine.generate(request):
        if isinstance(ev, StepVerified):
            steps.append(ev)
        elif isinstance(ev, GenerationFailed):
            pytest.fail(f"generation failed: {ev.message} {ev.detail}")
        elif isinstance(ev, GenerationFinished):
            final = ev
    assert final is not None
    return final, steps


def emitted_ids(steps) -> list[int]:
    return [t.id for s in steps for t in s.emitted]
