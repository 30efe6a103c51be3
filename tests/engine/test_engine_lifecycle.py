"""Loading, refusing, cancelling and reusing: the engine's life between requests."""

from __future__ import annotations

import threading

import build as model_builder
import numpy as np
import pytest

from backend.engine.engine import Engine
from backend.engine.errors import EngineError, LoadCancelled
from backend.engine.events import GenerationFailed, GenerationFinished, StepVerified
from backend.engine.request import GenerationRequest, Message
from engine.runner import emitted_ids, run


def test_a_draft_with_another_vocabulary_is_refused_in_words(tmp_path, test_models):
    tok = model_builder.Tokenizer(model_builder.smollm2_path())
    tokens = list(tok.tokens)
    tokens[1000] = "Ġdraftlight"
    tok.fields = [(k, tokens if k == "tokenizer.ggml.tokens" else v, t, s)
                  for k, v, t, s in tok.fields]
    tok.tokens = tokens
    odd = tmp_path / "odd-vocab.gguf"
    model_builder.write_llama(odd, tok, model_builder.counting_output(tok), name="odd")
    engine = Engine()
    try:
        engine.load_target(test_models / "count-target.gguf", n_ctx=256, n_threads=1)
        with pytest.raises(EngineError, match=r"differ at token 1000") as info:
            engine.load_draft(odd)
        assert "cannot draft for" in str(info.value)
        assert engine.draft is None
    finally:
        engine.close()


def test_bad_files_are_refused_with_a_reason(tmp_path, test_models):
    engine = Engine()
    with pytest.raises(EngineError, match="no file"):
        engine.load_target(tmp_path / "missing.gguf")
    truncated = tmp_path / "truncated.gguf"
    truncated.write_bytes((test_models / "count-target.gguf").read_bytes()[:5000])
    with pytest.raises(EngineError, match=r"^truncated\.gguf: .*it is truncated"):
        engine.load_target(truncated)
    not_gguf = tmp_path / "notes.gguf"
    not_gguf.write_text("hello")
    with pytest.raises(EngineError, match=r"^notes\.gguf: This is not a GGUF file"):
        engine.load_target(not_gguf)
    assert engine.target is None


def test_loading_can_be_cancelled_from_the_progress_callback(test_models):
    engine = Engine()
    seen = []

    def progress(fraction: float) -> bool:
        seen.append(fraction)
        return False

    with pytest.raises(LoadCancelled):
        engine.load_target(test_models / "count-target.gguf", progress=progress)
    assert seen and engine.target is None


def test_spec_draft_without_a_draft_model_fails_cleanly(test_models):
    engine = Engine()
    try:
        engine.load_target(test_models / "count-target.gguf", n_ctx=256, n_threads=1)
        events = list(engine.generate(GenerationRequest(prompt=" zero", spec_type="draft")))
        assert isinstance(events[-1], GenerationFailed)
        assert "draft model" in events[-1].message
    finally:
        engine.close()


def test_cancel_mid_answer_then_the_next_answer_equals_a_fresh_engine(demo_engine, test_models):
    request = GenerationRequest(messages=(Message("user", "Tell me about the moon."),),
                                spec_type="draft", n_draft_max=8, max_tokens=48)
    steps = 0
    final = None
    for ev in demo_engine.generate(request):
        if isinstance(ev, StepVerified):
            steps += 1
            if steps == 2:
                # from another thread, as the UI does
                t = threading.Thread(target=demo_engine.cancel)
                t.start()
                t.join()
        elif isinstance(ev, GenerationFinished):
            final = ev
    assert final.stop_reason == "cancelled"
    # every step it made is told, and it stopped well before the answer's end (the events
    # come a little behind the decoding: EventPipeline)
    assert final.stats.n_steps == steps
    again, again_steps = run(demo_engine, request)
    assert 2 <= steps < len(again_steps)
    fresh_engine = Engine()
    try:
        fresh_engine.load_target(test_models / "demo-target-f32.gguf", n_ctx=2048, n_threads=2)
        fresh_engine.load_draft(test_models / "demo-draft-q8_0.gguf")
        fresh, fresh_steps = run(fresh_engine, request)
    finally:
        fresh_engine.close()
    assert emitted_ids(again_steps) == emitted_ids(fresh_steps)
    assert again.text == fresh.text


def test_a_follow_up_question_reuses_the_cached_history(demo_engine):
    first_q = Message("user", "Name a colour.")
    first, _ = run(demo_engine, GenerationRequest(messages=(first_q,), max_tokens=12))
    follow = (first_q, Message("assistant", first.text), Message("user", "And another one?"))
    second, _ = run(demo_engine, GenerationRequest(messages=follow, max_tokens=12))
    assert second.stats.n_cached > 20
    assert second.stats.n_cached < second.stats.n_prompt


def test_emitted_pieces_concatenate_to_the_answer(demo_engine):
    final, steps = run(demo_engine, GenerationRequest(
        messages=(Message("user", "Write three emoji and the Japanese word for cat."),),
        spec_type="draft", max_tokens=40))
    assert "".join(t.text for s in steps for t in s.emitted) == final.text


def test_max_tokens_and_seeded_sampling_are_reproducible(demo_engine):
    from backend.engine.request import SamplingSettings

    req = GenerationRequest(messages=(Message("user", "Say something."),), spec_type="draft",
                            max_tokens=20, sampling=SamplingSettings(temperature=0.8, seed=5))
    a, _ = run(demo_engine, req)
    b, _ = run(demo_engine, req)
    assert a.text == b.text
    assert a.stats.n_generated <= 20
    assert np.isfinite(a.stats.tokens_per_second)


def test_a_full_context_ends_the_answer_cleanly_and_keeps_its_text(test_models):
    engine = Engine()
    try:
        engine.load_target(test_models / "count-target.gguf", n_ctx=256, n_threads=1)
        engine.load_draft(test_models / "count-draft.gguf")
        n_ctx = engine._ctx.n_ctx  # llama.cpp may round the size up
        final, steps = run(engine, GenerationRequest(
            prompt=" zero one", spec_type="draft", n_draft_max=8, max_tokens=10 * n_ctx))
        assert final.stop_reason == "context_full"
        assert final.stats.n_prompt + final.stats.n_generated <= n_ctx + 1
        assert "".join(t.text for s in steps for t in s.emitted) == final.text
        # and the engine still answers afterwards
        again, _ = run(engine, GenerationRequest(prompt=" zero one", max_tokens=4))
        assert again.text == " two three four five"
    finally:
        engine.close()
