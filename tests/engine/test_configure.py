"""Engine.configure: new contexts (size, threads) on the weights already loaded."""

from __future__ import annotations

import pytest

from backend.engine.request import GenerationRequest
from engine.runner import loaded_engine, run

LONG_PROMPT = " zero one two three four five six seven eight nine ten eleven" * 25  # 300


@pytest.fixture
def engine(test_models):
    with loaded_engine(test_models / "count-target.gguf", test_models / "count-draft.gguf",
                       n_ctx=256, n_threads=1) as e:
        yield e


def test_configure_resizes_the_context_on_the_same_weights(engine):
    before, _ = run(engine, GenerationRequest(prompt=" zero one", max_tokens=10))
    too_long = list(engine.generate(GenerationRequest(prompt=LONG_PROMPT, max_tokens=4)))
    assert "more than the context" in too_long[-1].message
    weights = engine._target
    engine.configure(n_ctx=512, n_threads=2)
    assert engine._target is weights  # not loaded again
    assert engine._ctx.n_ctx >= 512 and engine._ctx is not None
    assert (engine.n_ctx, engine.n_threads) == (512, 2)
    assert engine._plain_verify_ms > 0  # K auto's first guess, measured again on it
    again, _ = run(engine, GenerationRequest(prompt=" zero one", max_tokens=10))
    assert again.text == before.text
    assert again.stats.n_cached == 0  # a new context holds nothing from before
    fits, _ = run(engine, GenerationRequest(prompt=LONG_PROMPT, max_tokens=4))
    assert fits.text == " zero one two three"


def test_configure_without_threads_goes_back_to_automatic(engine, monkeypatch):
    monkeypatch.setattr("backend.engine.engine.default_threads", lambda: 3)
    engine.configure(n_threads=2)
    engine.configure(n_ctx=300)
    assert engine.n_threads == 3 and engine.n_ctx == 300


def test_configure_keeps_the_draft_model(engine):
    engine.configure(n_ctx=512)
    assert engine.draft is not None
    final, _ = run(engine, GenerationRequest(prompt=" zero one", spec_type="draft",
                                             max_tokens=8))
    assert final.stats.n_drafted > 0
