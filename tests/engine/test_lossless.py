"""Speculative decoding is lossless: greedy output equals plain decoding token for token."""

from __future__ import annotations

import pytest

from backend.engine.request import GenerationRequest, Message
from engine.runner import emitted_ids, run

PROMPTS = [
    "Write a Python function that checks whether a number is prime.",
    "Explain what a hash table is in two sentences.",
    "List five fruits, one per line.",
    "Rewrite this text in plain words: The quick brown fox jumps over the lazy dog.",
    "Write a haiku about the sea.",
    "What is the capital of France?",
    "Write a SQL query that counts the rows of a table named users.",
    "Give three tips for learning to cook.",
    "Translate 'good morning' into French and Spanish.",
    "Write a JavaScript function that reverses a string.",
    "Summarise the plot of Romeo and Juliet in one paragraph.",
    "Repeat this sentence exactly: Speculative decoding drafts tokens and verifies them.",
    "Write a numbered list of the planets of the solar system.",
    "What does HTTP stand for?",
    "Write a short email asking a colleague for a meeting tomorrow.",
    "Explain recursion to a child.",
    "Write a bash command that counts the lines in all .py files.",
    "Describe the colour blue without naming it.",
    "Rewrite this text more formally: hey, can u send me the file asap? thx",
    "Write a C function that returns the maximum of two integers.",
    "What are the three states of matter?",
]


# K = 8, and 0: K auto, the default, whose drafts the confidence stopper ends at any length
# (a draft verified but not decoded, or one dropped after its logits were paid for)
@pytest.mark.parametrize("n_draft_max", [8, 0])
@pytest.mark.parametrize("spec", ["draft", "ngram"])
def test_greedy_equals_plain_decoding_on_the_demo_pair(demo_engine, spec, n_draft_max):
    mismatches = []
    for prompt in PROMPTS:
        messages = (Message("user", prompt),)
        plain, plain_steps = run(demo_engine, GenerationRequest(messages=messages, max_tokens=40))
        spec_final, spec_steps = run(demo_engine, GenerationRequest(
            messages=messages, spec_type=spec, n_draft_max=n_draft_max, max_tokens=40))
        if emitted_ids(spec_steps) != emitted_ids(plain_steps) or spec_final.text != plain.text:
            mismatches.append(prompt)
    assert not mismatches


def test_draft_accepts_most_tokens_on_the_demo_pair(demo_engine):
    final, _ = run(demo_engine, GenerationRequest(
        messages=(Message("user", PROMPTS[0]),), spec_type="draft", n_draft_max=8,
        max_tokens=64))
    assert final.stats.acceptance_rate > 0.7


def test_ngram_accepts_a_substantial_share_on_a_rewrite_prompt(demo_engine):
    text = ("Draftlight is a desktop chat app for local language models. It shows every "
            "token as it streams, coloured by where it came from, so that speculative "
            "decoding becomes visible.")
    final, _ = run(demo_engine, GenerationRequest(
        messages=(Message("user", f"Repeat this text exactly, word for word:\n\n{text}"),),
        spec_type="ngram", n_draft_max=16, max_tokens=60))
    assert final.stats.n_drafted > 10
    assert final.stats.acceptance_rate > 0.4
    assert final.stats.tokens_per_step > 1.5


def test_greedy_equals_plain_decoding_on_a_repacked_q4_0_target(tmp_path_factory, test_models):
    """Q4_0 weights take llama.cpp's repacked CPU kernels (a gemm for batches, a gemv for one
    token): verification must still agree with plain decoding token for token."""
    import llama_cpp

    from backend.engine.demo_pair import requantize
    from backend.engine.engine import Engine
    from backend.models.default_model import find_default_model

    q4 = tmp_path_factory.mktemp("q4") / "demo-q4_0.gguf"
    requantize(find_default_model(), q4, llama_cpp.LLAMA_FTYPE_MOSTLY_Q4_0)
    engine = Engine()
    try:
        engine.load_target(q4, n_ctx=2048, n_threads=2)
        engine.load_draft(test_models / "demo-draft-q8_0.gguf")
        for prompt in PROMPTS[:6]:
            messages = (Message("user", prompt),)
            _, plain = run(engine, GenerationRequest(messages=messages, max_tokens=40))
            for spec in ("draft", "ngram"):
                _, steps = run(engine, GenerationRequest(
                    messages=messages, spec_type=spec, n_draft_max=8, max_tokens=40))
                assert emitted_ids(steps) == emitted_ids(plain), (spec, prompt)
    finally:
        engine.close()
