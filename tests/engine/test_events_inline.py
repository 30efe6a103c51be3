"""Where llama.cpp's threads take every core, the engine makes each step's event on the
decoding thread (Engine._spare_core, step_events.EventPipeline.inline): the answer's events
are the same either way, and the choice follows the threads and the cores. The answer's
GenerationStarted says which it is (the window draws less often where no core is spare)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from backend.engine import engine as engine_module
from backend.engine.events import GenerationStarted, StepVerified
from backend.engine.request import GenerationRequest, SamplingSettings


@pytest.mark.parametrize("spec", [
    {}, {"spec_type": "draft", "n_draft_max": 4},
    # inline, the penalty is applied in llama.cpp's buffer; beside, in the row's copy
    {"spec_type": "draft", "n_draft_max": 4, "sampling": SamplingSettings(repeat_penalty=1.3)},
])
# batched: made a few steps at a time from rows read in C; else each as its step is put, from
# llama.cpp's buffer (where the C module is not built)
@pytest.mark.parametrize("batched", [True, False])
def test_inline_and_beside_make_the_same_events(count_engine, monkeypatch, spec, batched):
    monkeypatch.setattr(engine_module.row_stats, "BUILT", batched)
    # no plain steps to measure plain decoding by: which steps those are follows their times
    request = GenerationRequest(prompt=" zero one", max_tokens=24, measure_plain=False, **spec)
    modes = []
    original = engine_module.EventPipeline.put

    def put(self, make, rows=1):
        modes.append((self.inline, self.inline and self.batched))
        return original(self, make, rows)

    monkeypatch.setattr(engine_module.EventPipeline, "put", put)
    answers = {}
    for spare in (True, False):
        monkeypatch.setattr(engine_module.Engine, "_spare_core", lambda self, s=spare: s)
        modes.clear()
        events = list(count_engine.generate(request))
        answers[spare] = [(e.drafted, e.n_accepted, e.emitted, e.tree)
                          for e in events if isinstance(e, StepVerified)]
        assert set(modes) == {(not spare, not spare and batched)}
        (started,) = [e for e in events if isinstance(e, GenerationStarted)]
        assert started.spare_core is spare
    assert len(answers[True]) > 1
    assert answers[True] == answers[False]


def test_a_spare_core_is_one_llama_cpp_does_not_take(count_engine, monkeypatch):
    monkeypatch.setattr(engine_module, "usable_cores", lambda: 4)
    threads = count_engine.n_threads
    try:
        count_engine.n_threads = 4
        assert not count_engine._spare_core()
        count_engine.n_threads = 3
        assert count_engine._spare_core()
        # on a GPU llama.cpp's threads mostly wait for it
        count_engine.n_threads = 4
        target = count_engine._target
        info = target.info
        target.info = replace(info, on_gpu=True)
        try:
            assert count_engine._spare_core()
        finally:
            target.info = info
    finally:
        count_engine.n_threads = threads
