"""Spec type `mtp` with several chained NextN heads (llama.cpp's `chain_heads`: head i drafts
step i), on count-mtp2 (mimo2 architecture, two heads; see tests/models/mtp_multi.py).

After a last token of cycle index L, head 0 drafts L+1 (L+2 when (L+1) % 3 == 0) and head 1,
reading head 0's hidden row, drafts L+2 (L+3 when (L+1) % 4 == 0): every verdict is known in
advance. Tiny attention outputs leave a trace of the history in every logit, so a KV cache
(the target's or a head's) that holds anything but the accepted history shows there.
"""

from __future__ import annotations

import ctypes

import llama_cpp
import numpy as np
import pytest
from build import CYCLE_WORDS
from llama_cpp import llama_cpp_ext
from mtp_multi import FILE, HEAD_SKIP, head_proposal

from backend.engine.context import Context
from backend.engine.drafters.mtp import MtpDrafter
from backend.engine.model import LoadedModel
from backend.engine.request import GenerationRequest, SamplingSettings
from backend.models.inspection import inspect_model
from engine.runner import (
    assert_rollback_leaves_plain_state,
    emitted_ids,
    loaded_engine,
    run,
    split_step,
)

W = [" " + w for w in CYCLE_WORDS]
N = len(W)


def expected_step(last: int, k: int) -> tuple[list[str], list[str], str]:
    """(accepted, rejected, target's own word) of a step drafting k words after `last`."""
    drafts = [head_proposal(i, last) for i in range(k)]
    acc, rej, own = split_step(last, drafts, N)
    return [W[d] for d in acc], [W[d] for d in rej], W[own]


@pytest.fixture(scope="module")
def mtp2_engine(test_models):
    with loaded_engine(test_models / FILE, n_ctx=256, n_threads=1) as e:
        yield e


def test_the_model_loads_with_two_heads(test_models, mtp2_engine):
    assert inspect_model(test_models / FILE).n_mtp_heads == 2
    assert mtp2_engine.target.architecture == "mimo2"
    assert mtp2_engine.target.n_mtp_heads == 2
    assert mtp2_engine._target.mtp_loaded and not mtp2_engine._target.recurrent


def test_the_constructed_pattern():
    assert HEAD_SKIP == (3, 4)
    # after " one": both right; after " three": head 1 jumps to " six"; after " five": head 0
    # jumps to " seven" (and head 1's word, whatever it is, goes with it)
    assert expected_step(1, 2) == ([" two", " three"], [], " four")
    assert expected_step(3, 2) == ([" four"], [" six"], " five")
    assert expected_step(5, 2) == ([], [" seven", " seven"], " six")
    assert expected_step(7, 2) == ([" eight"], [" ten"], " nine")


def test_two_heads_draft_one_step_each_exactly_as_constructed(mtp2_engine):
    final, steps = run(mtp2_engine, GenerationRequest(
        prompt=" zero one", spec_type="mtp", measure_plain=False, n_draft_max=4, max_tokens=30))
    last = 1
    for step in steps:
        k = len(step.drafted)
        acc, rej, own = expected_step(last, k)
        assert [t.text for t in step.drafted if t.accepted] == acc
        assert [t.text for t in step.drafted if not t.accepted] == rej
        assert [t.accepted for t in step.drafted] == [True] * len(acc) + [False] * len(rej)
        assert step.n_accepted == len(acc)
        assert [t.origin for t in step.drafted] == ["mtp"] * k
        assert [t.head for t in step.drafted] == list(range(k))  # step i drafted by head i
        if len(step.emitted) == len(acc) + 1:  # the last step may stop early at max_tokens
            assert [t.text for t in step.emitted] == [*acc, own]
            assert [t.origin for t in step.emitted] == ["mtp"] * len(acc) + ["target"]
        last = W.index(step.emitted[-1].text)
    # a draft is as long as the chain of heads although 4 were allowed (the last steps draft
    # less: no more than max_tokens leaves room for)
    assert all(len(s.drafted) == 2 for s in steps[:10])
    assert [s.n_accepted for s in steps[:8]] == [2, 2, 1, 2, 2, 1, 0, 2]
    plain, plain_steps = run(mtp2_engine, GenerationRequest(prompt=" zero one", max_tokens=30))
    assert final.text == plain.text == "".join(W[(2 + i) % N] for i in range(30))
    assert emitted_ids(steps) == emitted_ids(plain_steps)
    assert final.stats.n_accepted == sum(s.n_accepted for s in steps)


def test_a_one_token_draft_uses_head_zero_only(mtp2_engine):
    _, steps = run(mtp2_engine, GenerationRequest(
        prompt=" zero one", spec_type="mtp", measure_plain=False, n_draft_max=1, max_tokens=12))
    # (the last step drafts nothing when one token is left)
    assert all([t.head for t in s.drafted] == [0] for s in steps[:-1])
    assert [t.head for t in steps[-1].drafted] in ([], [0])
    last = 1
    for step in steps:
        acc, _, _ = expected_step(last, len(step.drafted))
        assert step.n_accepted == len(acc)
        last = W.index(step.emitted[-1].text)


def test_sampling_with_two_heads_keeps_the_target_output(mtp2_engine):
    # the margins are so large that sampling at temperature 1 is still counting
    final, steps = run(mtp2_engine, GenerationRequest(
        prompt=" zero one", spec_type="mtp", measure_plain=False, n_draft_max=2, max_tokens=20,
        sampling=SamplingSettings(temperature=1.0, top_k=0, top_p=1.0, min_p=0.0, seed=3)))
    assert final.text == "".join(W[(2 + i) % N] for i in range(20))
    assert [t.head for t in steps[0].drafted] == [0, 1]
    assert [s.n_accepted for s in steps[:4]] == [2, 2, 1, 2]


def test_follow_up_request_reuses_the_prefix_and_keeps_both_heads(mtp2_engine):
    mtp2_engine.reset_cache()
    first, _ = run(mtp2_engine, GenerationRequest(
        prompt=" zero one", spec_type="mtp", n_draft_max=2, max_tokens=9))
    follow_up = " zero one" + first.text + " eleven zero"
    events = list(mtp2_engine.generate(GenerationRequest(
        prompt=follow_up, spec_type="mtp", n_draft_max=2, max_tokens=12)))
    assert events[1].n_cached > 0
    assert events[-1].text == "".join(W[(1 + i) % N] for i in range(12))
    steps = [e for e in events if hasattr(e, "drafted")]
    assert [t.head for t in steps[0].drafted] == [0, 1]
    last = 0
    for step in steps:
        acc, _, _ = expected_step(last, len(step.drafted))
        assert step.n_accepted == len(acc)
        last = W.index(step.emitted[-1].text)


def test_rejected_drafts_leave_no_trace_in_the_target(mtp2_engine):
    assert_rollback_leaves_plain_state(mtp2_engine, "mtp", 2)


# -- each head's logits against an independent computation from scratch -------------------

def _target_rows(model: LoadedModel, tokens: list[int]) -> np.ndarray:
    """The target's NextN hidden rows of `tokens`, decoded from scratch."""
    n_embd = llama_cpp.llama_model_n_embd_out(model.model)
    ctx = Context(model, n_ctx=256, n_threads=1)
    try:
        llama_cpp_ext.llama_set_embeddings_nextn(ctx.ctx, True, False)
        ctx.decode(tokens)
        ptr = llama_cpp_ext.llama_get_embeddings_nextn(ctx.ctx)
        return np.ctypeslib.as_array(ptr, shape=(len(tokens), n_embd)).copy()
    finally:
        ctx.close()


def _head_logits(model: LoadedModel, head: int, tokens: list[int], rows: np.ndarray):
    """(logits, hidden row) of the last entry when head `head` decodes all of `tokens` (paired
    with `rows`) in one batch of a fresh MTP context."""
    n, n_embd = len(tokens), rows.shape[1]
    ctx = Context(model, n_ctx=256, n_threads=1, ctx_type=llama_cpp.LLAMA_CONTEXT_TYPE_MTP)
    batch = llama_cpp.llama_batch_init(n, n_embd, 1)
    token_buf = (llama_cpp.llama_token * n)(*tokens)
    batch.token = token_buf
    try:
        llama_cpp_ext.llama_set_embeddings_nextn(ctx.ctx, True, True)
        llama_cpp_ext.llama_set_nextn_layer_offset(ctx.ctx, head)
        np.ctypeslib.as_array(batch.embd, shape=(n, n_embd))[:] = rows
        for i in range(n):
            batch.pos[i] = i
            batch.n_seq_id[i] = 1
            batch.seq_id[i][0] = 0
            batch.logits[i] = i == n - 1
        batch.n_tokens = n
        assert llama_cpp.llama_decode(ctx.ctx, batch) == 0
        logits = llama_cpp.llama_get_logits_ith(ctx.ctx, n - 1)
        h = llama_cpp_ext.llama_get_embeddings_nextn_ith(ctx.ctx, n - 1)
        return (np.ctypeslib.as_array(logits, shape=(model.n_vocab,)).copy(),
                np.ctypeslib.as_array(h, shape=(n_embd,)).copy())
    finally:
        batch.token = ctypes.POINTER(llama_cpp.llama_token)()  # ours, not llama's
        llama_cpp.llama_batch_free(batch)
        ctx.close()


def test_each_head_sees_exactly_the_accepted_history(mtp2_engine, monkeypatch):
    """Every draft step's logits (taken after rollbacks, truncations and re-writes of each
    head's cache) equal those of the same head decoding the accepted history from scratch."""
    calls = []
    real = MtpDrafter._decode

    def record(self, tokens, rows, pos0, *, want_last, heads=(0,)):
        prefix = list(self.ctx.tokens)
        out = real(self, tokens, rows, pos0, want_last=want_last, heads=heads)
        if want_last:
            calls.append((tuple(heads), prefix + list(tokens), rows.copy(),
                          out[0].copy(), out[1].copy()))
        return out

    monkeypatch.setattr(MtpDrafter, "_decode", record)
    # no plain probes: which steps draft, and so which call the last check takes, would
    # follow the machine's timings
    run(mtp2_engine, GenerationRequest(
        prompt=" zero one", spec_type="mtp", n_draft_max=2, max_tokens=16, measure_plain=False))
    monkeypatch.undo()
    assert {c[0] for c in calls} == {(0,), (1,)}
    model = mtp2_engine._target
    h0 = {}
    for heads, tokens, rows, logits, h in calls:
        (head,) = heads
        pos = len(tokens) - 1 - head  # the chain starts at the last token the target holds
        trunk = _target_rows(model, tokens[:pos])  # rows of positions 0..pos-1
        ref_rows = np.vstack([np.zeros((1, trunk.shape[1]), np.float32), trunk])
        # the drafter paired the chain's first token with the target's row before it
        np.testing.assert_allclose(rows[len(rows) - 1 - head], ref_rows[pos], atol=1e-5)
        if head == 1:
            # and head 1's second entry with head 0's own row of that step
            np.testing.assert_allclose(rows[-1], h0[tuple(tokens[:-1])], atol=1e-5)
            ref_rows = np.vstack([ref_rows, rows[-1:]])
        ref_logits, ref_h = _head_logits(model, head, tokens, ref_rows)
        assert np.abs(logits - ref_logits).max() < 1e-3, (head, len(tokens))
        assert np.abs(h - ref_h).max() < 1e-4
        if head == 0:
            h0[tuple(tokens)] = h
    # the check has teeth: the same head over a history holding one more word differs
    heads, tokens, rows, logits, _ = next(c for c in calls if c[0] == (1,) and len(c[1]) > 6)
    seven = model.tokenize(" seven", add_special=False)
    wrong = tokens[:2] + seven + tokens[2:]
    trunk = _target_rows(model, wrong[:len(wrong) - 2])
    ref_rows = np.vstack([np.zeros((1, trunk.shape[1]), np.float32), trunk, rows[-1:]])
    l_wrong, _ = _head_logits(model, 1, wrong, ref_rows)
    assert np.argmax(l_wrong) == np.argmax(logits)
    assert np.abs(l_wrong - logits).max() > 0.05
