"""The engine's answers against llama.cpp's own greedy decoding on the demo model.

Spec type "none" is the engine's own loop with K = 0: it shares the prompt building, the
penalties and the prefix cache with speculation, so comparing the two cannot show a bug in
any of those. The reference here (engine/llama_reference.py) formats and tokenizes the chat
itself and decodes on a fresh llama.cpp context, prompt in one batch, then token by token,
choosing with llama.cpp's penalties + greedy sampler. The engine answers the questions one
after another on one engine, so later ones reuse the cached chat-template prefix.
"""

from __future__ import annotations

import pytest

from backend.engine.request import GenerationRequest, Message, SamplingSettings
from engine.llama_reference import reference_greedy, reference_prompt
from engine.runner import emitted_ids, loaded_engine, run

N_TOKENS = 24
CASES = [
    ("Write a haiku about the sea.", 1.0),
    ("List five fruits, one per line.", 1.3),
    ("Explain recursion to a child.", 1.3),
]


@pytest.fixture(scope="module")
def demo_engine(test_models):
    """The demo pair on one thread, as the reference runs: on a busy 2-core machine a second
    llama.cpp thread spends its time waiting for a core."""
    with loaded_engine(test_models / "demo-target-f32.gguf",
                       test_models / "demo-draft-q8_0.gguf", n_ctx=2048, n_threads=1) as e:
        yield e


@pytest.mark.parametrize("question,penalty", CASES)
def test_every_spec_type_answers_as_llama_cpp_decodes(demo_engine, question, penalty):
    s = SamplingSettings(temperature=0.0, repeat_penalty=penalty)
    model = demo_engine._target.model
    expected = reference_greedy(model, reference_prompt(model, messages=[("user", question)]),
                                N_TOKENS, s)
    assert len(expected) >= 8
    for spec in ("none", "draft", "ngram"):
        _, steps = run(demo_engine, GenerationRequest(
            messages=(Message("user", question),), spec_type=spec, n_draft_max=8,
            max_tokens=N_TOKENS, sampling=s))
        assert emitted_ids(steps) == expected, spec
