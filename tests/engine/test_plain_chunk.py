"""A plain greedy answer read for its text alone is decided a few ms of tokens at a time
(backend/engine/plain_chunk.py): the same tokens, text, end and cache as the general loop's
(the same answer read for what the window shows), also where a chunk decided tokens past the
stop string that ends it (their times: test_pipelined_plain.py)."""

from __future__ import annotations

import pytest

from backend.engine import greedy_loop, plain_chunk
from backend.engine.model import LoadedModel
from backend.engine.request import GenerationRequest, SamplingSettings
from engine.runner import emitted_ids, loaded_engine, run

PROMPT = " zero one"


@pytest.fixture(params=["C", "Python"])
def chunks(monkeypatch, request):
    """How many tokens each chunk decided; chunks as long as the answer allows (CHUNK_S), so
    that one runs past a stop string. Decided by the C loop (greedy_loop.py), which must then
    have run, or by the Python one."""
    sizes: list[int] = []
    real = plain_chunk._batch

    def counted(run, n_generated, number, tokens, ms, at_launch):
        sizes.append(len(tokens))
        return real(run, n_generated, number, tokens, ms, at_launch)

    monkeypatch.setattr(plain_chunk, "_batch", counted)
    monkeypatch.setattr(plain_chunk, "CHUNK_S", 60.0)
    in_c = []
    if request.param == "Python":
        monkeypatch.setattr(greedy_loop, "usable", lambda ctx: False)
    else:
        real_chunk = greedy_loop.run_chunk
        monkeypatch.setattr(greedy_loop, "run_chunk",
                            lambda *a, **k: in_c.append(1) or real_chunk(*a, **k))
    yield sizes
    assert bool(in_c) == (request.param == "C" and bool(sizes))


def both(engine, **request):
    """(final, steps, cache after) read for text alone, then for what the window shows."""
    out = []
    for inspect in (False, True):
        final, steps = run(engine, GenerationRequest(prompt=PROMPT, inspect=inspect, **request))
        out.append((final, steps, list(engine._ctx.tokens)))
    return out


def texts(steps) -> list[str]:
    return [t.text for step in steps for t in step.emitted]


@pytest.mark.parametrize("request_", [
    {"max_tokens": 30},
    {"max_tokens": 30, "sampling": SamplingSettings(repeat_penalty=1.3, repeat_last_n=8)},
    {"max_tokens": 40, "stop": (" five",)},
    {"max_tokens": 40, "stop": ("ve",)},
    {"max_tokens": 40, "stop": (" twenty", "ty")},
], ids=["length", "penalty", "stop", "stop inside a token", "two stops"])
def test_the_general_loops_answer_and_cache(count_engine, chunks, request_):
    (final, steps, cache), (shown, shown_steps, shown_cache) = both(count_engine, **request_)
    assert chunks and max(chunks) > 1  # chunks of several tokens answered it
    assert emitted_ids(steps) == emitted_ids(shown_steps)
    assert texts(steps) == texts(shown_steps)
    assert final.text == shown.text and final.stop_reason == shown.stop_reason
    assert final.stats.n_generated == shown.stats.n_generated == len(steps)
    assert [s.step for s in steps] == list(range(1, len(steps) + 1))
    # the stop string's token was decoded, as the general loop's next decode began with it;
    # the tokens decided after it are gone
    assert cache == shown_cache


def test_a_stop_string_drops_what_was_decided_after_it(count_engine, chunks):
    final, steps = run(count_engine, GenerationRequest(prompt=PROMPT, max_tokens=40,
                                                       inspect=False, stop=(" five",)))
    assert final.stop_reason == "stop_string"
    assert sum(chunks) > len(steps)  # the last chunk ran past the stop string
    prompt = count_engine._target.tokenize(PROMPT, add_special=False)
    assert count_engine._ctx.tokens == prompt + emitted_ids(steps)
    # and the next answer goes on from that cache as from a fresh one: from the token whose
    # text the stop string held back
    text = "".join(texts(steps))
    _, again = run(count_engine, GenerationRequest(prompt=PROMPT + text, max_tokens=6,
                                                   inspect=False))
    _, alone = run(count_engine, GenerationRequest(prompt=PROMPT, max_tokens=40, inspect=False))
    n = len(steps)
    assert texts(steps)[-1] == "" and emitted_ids(again) == emitted_ids(alone)[n - 1:n + 5]


def test_an_end_of_generation_token_ends_it_there(count_engine, chunks, monkeypatch):
    _, steps = run(count_engine, GenerationRequest(prompt=PROMPT, max_tokens=20))
    end = emitted_ids(steps)[6]
    real = LoadedModel.is_eog
    monkeypatch.setattr(LoadedModel, "is_eog", lambda self, t: t == end or real(self, t))
    (final, steps, cache), (shown, shown_steps, shown_cache) = both(count_engine, max_tokens=20)
    assert final.stop_reason == shown.stop_reason == "eos"
    assert emitted_ids(steps) == emitted_ids(shown_steps) == emitted_ids(shown_steps)[:7]
    assert steps[-1].emitted[0].text == "" and cache == shown_cache


def test_a_full_context_ends_it_where_the_general_loop_did(test_models, chunks):
    with loaded_engine(test_models / "count-target.gguf", n_ctx=32, n_threads=1) as engine:
        (final, _, cache), (shown, _, shown_cache) = both(engine, max_tokens=1000)
    assert final.stop_reason == shown.stop_reason == "context_full"
    assert final.stats.n_generated == shown.stats.n_generated and cache == shown_cache


def test_cancelling_ends_it_after_the_chunk_under_way(count_engine, monkeypatch):
    monkeypatch.setattr(plain_chunk, "CHUNK_S", 0.0)  # a token a chunk
    _, alone = run(count_engine, GenerationRequest(prompt=PROMPT, max_tokens=30,
                                                   inspect=False))
    events = count_engine.generate(GenerationRequest(prompt=PROMPT, max_tokens=30,
                                                     inspect=False))
    seen = []
    for event in events:
        if type(event).__name__ == "StepVerified":
            seen.append(event)
            if len(seen) == 5:
                count_engine.cancel()
        final = event
    assert final.stop_reason == "cancelled"
    assert emitted_ids(seen) == emitted_ids(alone)[: len(seen)] and len(seen) < 30


def test_only_such_answers_are_chunked(count_engine, chunks):
    for request in (GenerationRequest(prompt=PROMPT, max_tokens=8),  # shown
                    GenerationRequest(prompt=PROMPT, max_tokens=8, inspect=False,
                                      sampling=SamplingSettings(temperature=0.8)),
                    GenerationRequest(prompt=PROMPT, max_tokens=8, inspect=False,
                                      spec_type="draft", n_draft_max=4)):
        run(count_engine, request)
    assert chunks == []
    run(count_engine, GenerationRequest(prompt=PROMPT, max_tokens=8, inspect=False))
    assert chunks == [1, 7]  # the first token alone: the time to it is the general loop's


def test_the_repeat_penalty_reads_the_same_history(demo_engine, chunks):
    """The demo model repeats itself unpenalised: the penalty moves its answer, the same way
    in both loops."""
    sampling = SamplingSettings(repeat_penalty=1.5, repeat_last_n=16)
    answers = []
    for s in (sampling, SamplingSettings(repeat_penalty=1.0)):
        answers.append([])
        for inspect in (False, True):
            _, steps = run(demo_engine, GenerationRequest(
                prompt="List the colours of the rainbow, again and again.", max_tokens=48,
                sampling=s, inspect=inspect))
            answers[-1].append(emitted_ids(steps))
    (penalised, shown), (free, free_shown) = answers
    assert penalised == shown and free == free_shown
    assert penalised != free
