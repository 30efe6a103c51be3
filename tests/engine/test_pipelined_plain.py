"""Plain decoding begins the next token's decode before the step's text, stop strings and event
(Engine._pipelines), so that on a GPU that work overlaps the decoding. The answer, the cache
left behind and the steps' times stay what they were."""

from __future__ import annotations

import ctypes
import time

import llama_cpp
import numpy as np
import pytest

from backend.engine import context as context_module
from backend.engine import greedy_loop, plain_chunk
from backend.engine.request import GenerationRequest
from backend.engine.text import AnswerText
from engine.runner import emitted_ids, loaded_engine, run

PROMPT = " zero one"


@pytest.fixture
def calls(monkeypatch):
    """What happened, in order: ("decode", first position, n tokens), and ("push",) where the
    answer's text took in a token's piece."""
    seen: list[tuple] = []
    real_decode = context_module.llama_cpp.llama_decode
    real_push = AnswerText.push

    def decode(ctx, batch):
        seen.append(("decode", batch.pos[0], batch.n_tokens))
        return real_decode(ctx, batch)

    def push(self, piece: str) -> str:
        seen.append(("push",))
        return real_push(self, piece)

    monkeypatch.setattr(context_module.llama_cpp, "llama_decode", decode)
    monkeypatch.setattr(AnswerText, "push", push)
    return seen


def test_a_plain_step_decodes_the_next_token_before_its_text(count_engine, calls):
    final, steps = run(count_engine, GenerationRequest(prompt=PROMPT, max_tokens=12))
    n_prompt = final.stats.n_prompt
    assert len(emitted_ids(steps)) == 12
    pushes = [i for i, call in enumerate(calls) if call == ("push",)]
    decodes = {call[1]: i for i, call in enumerate(calls) if call[0] == "decode"}
    assert len(pushes) == 12
    for i, pushed in enumerate(pushes[:-1]):
        # the answer's token i sits at position n_prompt + i of the cache
        assert decodes[n_prompt + i] < pushed, i
    # the last token ends the answer (max_tokens): nothing decodes it
    assert n_prompt + 11 not in decodes


@pytest.mark.parametrize("stop", [(" five",), ("ve",)])
def test_an_answer_ended_by_a_stop_string_leaves_a_cache_the_next_answer_can_use(
        count_engine, stop):
    _, alone = run(count_engine, GenerationRequest(prompt=PROMPT, max_tokens=20))
    final, _ = run(count_engine, GenerationRequest(prompt=PROMPT, max_tokens=20, stop=stop))
    assert final.stop_reason == "stop_string"
    n = final.stats.n_generated
    # the token that completed the stop string was decoded before its text was read
    prompt = count_engine._target.tokenize(PROMPT, add_special=False)
    assert count_engine._ctx.tokens == prompt + emitted_ids(alone)[:n]
    # the next answer goes on from that cache: from its last token, and from before it
    pieces = [t.text for step in alone for t in step.emitted]
    for k in (n, n - 1):
        text = "".join(pieces[:k])
        _, again = run(count_engine, GenerationRequest(prompt=PROMPT + text, max_tokens=6))
        assert emitted_ids(again) == emitted_ids(alone)[k:k + 6], k
        # the stop-string answer's cache again, for the next k
        run(count_engine, GenerationRequest(prompt=PROMPT, max_tokens=20, stop=stop))


def test_a_full_context_ends_a_plain_answer_where_it_did(test_models):
    with loaded_engine(test_models / "count-target.gguf", n_ctx=32, n_threads=1) as engine:
        final, _ = run(engine, GenerationRequest(prompt=PROMPT, max_tokens=1000))
        assert final.stop_reason == "context_full"
        # every position of the context used: the prompt's, then one a token but the last
        assert final.stats.n_prompt + final.stats.n_generated == engine._ctx.n_ctx + 1
        assert engine._ctx.n_past == engine._ctx.n_ctx


@pytest.fixture
def slow_decode():
    """llama_decode slowed by `slow_s`, in Python and in the C loop (greedy_loop.py), which
    calls llama.cpp's through its address; llama.cpp's own bound there again after."""
    keep = []

    def slowed(monkeypatch, slow_s: float):
        real_decode = context_module.llama_cpp.llama_decode

        def decode(ctx, batch):
            time.sleep(slow_s)
            return real_decode(ctx, batch)

        monkeypatch.setattr(context_module.llama_cpp, "llama_decode", decode)
        assert greedy_loop._bound()
        c_decode = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p,
                                    llama_cpp.llama_batch)(decode)
        keep.append(c_decode)
        greedy_loop.use_functions(decode=c_decode)
        return decode

    yield slowed
    greedy_loop.use_functions()


@pytest.mark.parametrize("inspect", [True, False], ids=["step by step", "in chunks"])
def test_a_decode_begun_in_one_step_is_timed_in_the_step_that_reads_it(count_engine,
                                                                        monkeypatch, inspect,
                                                                        slow_decode):
    """On the CPU the launch is the whole decode: it belongs to the step that verifies its row,
    as it did before steps began their successor's decode, also where the chunk before began
    it (plain_chunk.py: an answer nothing inspects), and the steps' times still add up to no
    more than the answer's."""
    slow_s = 0.005
    slow_decode(monkeypatch, slow_s)
    monkeypatch.setattr(plain_chunk, "CHUNK_S", 0.012)  # two or three tokens a chunk
    final, steps = run(count_engine, GenerationRequest(prompt=PROMPT, max_tokens=10,
                                                       inspect=inspect))
    assert len(steps) == 10
    for i, step in enumerate(steps):
        assert step.verify_ms >= 1000 * slow_s, i
        assert step.draft_ms + step.verify_ms <= step.ms + 1e-6, i
    assert sum(step.ms for step in steps) <= final.stats.generation_ms + 1e-6


@pytest.mark.parametrize("spare", [True, False], ids=["events beside", "events inline"])
def test_what_a_plain_answer_shows_was_read_before_the_next_decode(count_engine, monkeypatch,
                                                                   spare):
    """Each token's p is its own row's, though the next decode began before its event was
    made: on the counting model the row after it gives the token next to nothing."""
    from backend.engine.context import Context
    from backend.engine.engine import Engine
    from backend.engine.request import SamplingSettings

    monkeypatch.setattr(Engine, "_spare_core", lambda self: spare)
    s = SamplingSettings(temperature=0.0, repeat_penalty=1.0)
    final, steps = run(count_engine, GenerationRequest(prompt=PROMPT, max_tokens=8, sampling=s))
    tokens = emitted_ids(steps)
    history = count_engine._ctx.tokens[: final.stats.n_prompt]
    fresh = Context(count_engine._target, n_ctx=64, n_threads=1)
    try:
        for step, token in zip(steps, tokens, strict=True):
            row = fresh.sync(history).astype(np.float64)
            p = np.exp(row - row.max())
            p /= p.sum()
            assert step.emitted[0].p_target == pytest.approx(p[token], rel=1e-5)
            history = [*history, token]
    finally:
        fresh.close()
    assert min(t.p_target for step in steps for t in step.emitted) > 0.5


def _shown(steps) -> list[tuple]:
    """What the window shows of each token of a plain answer: its id, p and inspection record
    (the top five among it)."""
    return [(t.id, t.p_target, t.inspection) for step in steps for t in step.emitted]


def test_where_a_decode_returns_at_launch_a_row_is_read_from_its_copy_after_the_next_launch(
        count_engine, monkeypatch):
    """On a GPU (here told so: `decode_at_launch`) a plain answer's row is read for what the
    window shows once the next decode has begun, from a copy: the same answer, the same p and
    top fives, and the row's pass in C made after that launch."""
    from backend.engine import row_stats
    from backend.engine.request import SamplingSettings

    s = SamplingSettings(temperature=0.0)  # the app's default repeat penalty, in place
    request = GenerationRequest(prompt=PROMPT, max_tokens=12, sampling=s)
    count_engine.decode_at_launch = False
    _, before = run(count_engine, request)
    seen: list[tuple] = []
    real_read, real_decode = row_stats.read, context_module.llama_cpp.llama_decode
    monkeypatch.setattr(row_stats, "read",
                        lambda row, k: (seen.append(("read",)), real_read(row, k))[1])
    monkeypatch.setattr(context_module.llama_cpp, "llama_decode",
                        lambda ctx, batch: (seen.append(("decode", batch.pos[0])),
                                            real_decode(ctx, batch))[1])
    count_engine.decode_at_launch = True
    final, after = run(count_engine, request)
    assert _shown(after) == _shown(before)
    assert all(record for _, _, record in _shown(after))
    reads = [i for i, call in enumerate(seen) if call == ("read",)]
    decodes = {call[1]: i for i, call in enumerate(seen) if call[0] == "decode"}
    assert len(reads) == 12
    n_prompt = final.stats.n_prompt
    # the answer's token k (from 1) sits at position n_prompt + k - 1; step k reads its row
    # (its k-th read) after it began decoding that token, except the first step (no decode
    # was begun before it) and the last (nothing decodes its token)
    for k in range(2, 12):
        assert reads[k - 1] > decodes[n_prompt + k - 1], k
