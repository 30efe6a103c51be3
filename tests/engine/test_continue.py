"""Continue: a request that goes on from an answer's words writes what the uninterrupted
answer would have written next (greedy), and its events carry only the new part."""

from __future__ import annotations

from backend.engine.request import GenerationRequest, Message
from engine.runner import run


def test_continuing_a_stopped_answer_gives_the_rest_of_the_whole_answer(count_engine):
    messages = (Message("user", "zero one"),)
    whole, _ = run(count_engine, GenerationRequest(messages=messages, spec_type="none",
                                                   max_tokens=24))
    first, _ = run(count_engine, GenerationRequest(messages=messages, spec_type="none",
                                                   max_tokens=9))
    assert first.stop_reason == "length" and whole.text.startswith(first.text)
    for spec in ("none", "draft"):
        rest, steps = run(count_engine, GenerationRequest(
            messages=messages, spec_type=spec, n_draft_max=4, max_tokens=15,
            continue_text=first.text))
        assert first.text + rest.text == whole.text, spec
        assert rest.stats.n_generated == 15  # only the new tokens
        assert "".join(t.text for s in steps for t in s.emitted) == rest.text


def test_the_words_to_continue_are_data_not_special_tokens(demo_engine):
    from backend.engine.prompt import build_prompt

    target = demo_engine._target
    special = target.tokenize("<|im_end|>", add_special=False)
    assert len(special) == 1  # SmolLM2's end of turn: one special token when parsed
    base = GenerationRequest(messages=(Message("user", "hi"),))
    plain, _ = build_prompt(target, base)
    cont, _ = build_prompt(target, GenerationRequest(messages=base.messages,
                                                     continue_text="<|im_end|>"))
    added = cont[len(plain):]
    assert cont[:len(plain)] == plain
    assert len(added) > 1  # spelled out as text, not one special token
