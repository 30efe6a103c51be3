"""The fast kernels (llama.cpp's default build, made by scripts/fast-kernels.sh, which
scripts/setup.sh runs): the engine process really runs that build, and greedy speculative
decoding on it differs from plain decoding only at near-ties, which the recorded top-5 shows."""

from __future__ import annotations

from backend.engine.events import GenerationFinished, StepVerified
from backend.engine.remote import EngineProcess
from backend.engine.request import GenerationRequest, Message
from backend.engine.runtime import NEAR_TIE, EngineRuntime, fast_build_dir, fast_unavailable_reason

PROMPTS = (
    "Write a Python function that checks whether a number is prime.",
    "Tell a short story about a lighthouse keeper.",
)


def emitted(engine, request):
    tokens, end = [], None
    for event in engine.generate(request):
        if isinstance(event, StepVerified):
            tokens += event.emitted
        end = event
    assert isinstance(end, GenerationFinished), end
    return tokens


def test_fast_kernels_differ_from_plain_decoding_only_at_near_ties(test_models):
    folder = fast_build_dir()
    assert folder is not None, fast_unavailable_reason()
    engine = EngineProcess(EngineRuntime("fast"))
    try:
        assert engine.build_info()["module"].startswith(str(folder))
        engine.load_target(test_models / "demo-target-f32.gguf", n_ctx=2048, n_threads=2)
        engine.load_draft(test_models / "demo-draft-q8_0.gguf")
        for prompt in PROMPTS:
            messages = (Message("user", prompt),)
            plain = emitted(engine, GenerationRequest(messages=messages, spec_type="none",
                                                      max_tokens=48))
            spec = emitted(engine, GenerationRequest(messages=messages, spec_type="draft",
                                                     n_draft_max=8, max_tokens=48))
            for i, (p, s) in enumerate(zip(plain, spec, strict=False)):
                if p.id != s.id:
                    top = p.verification.top_target
                    margin = top[0].p - top[1].p
                    assert margin <= NEAR_TIE, (prompt, i, margin)
                    break  # after a difference the texts go their own ways
    finally:
        engine.close()
