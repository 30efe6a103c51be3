"""The engine makes its drafter from the spec type's one declaration: a test-only drafter
registered by a fixture drafts without any change to the engine."""

from __future__ import annotations

import pytest

from backend.engine.events import GenerationFailed
from backend.engine.request import GenerationRequest
from engine.echo_drafter import NAME, registered
from engine.runner import run


@pytest.fixture
def echo():
    with registered() as spec:
        yield spec


def test_the_engine_drafts_with_a_registered_spec_type(count_engine, echo):
    final, steps = run(count_engine, GenerationRequest(
        prompt=" zero one", spec_type=NAME, n_draft_max=3, max_tokens=12))
    plain, _ = run(count_engine, GenerationRequest(prompt=" zero one", max_tokens=12))
    drafted = [t for s in steps for t in s.drafted]
    assert drafted and all(t.origin == NAME and not t.accepted for t in drafted)
    assert final.stats.n_drafted == len(drafted) and final.stats.n_accepted == 0
    assert final.text == plain.text  # every echo is rejected: the answer is plain decoding's


def test_an_undeclared_spec_type_fails_in_words(count_engine):
    events = list(count_engine.generate(GenerationRequest(prompt=" zero", spec_type=NAME)))
    assert isinstance(events[-1], GenerationFailed)
    assert events[-1].message == f"Unknown spec type {NAME!r}."
