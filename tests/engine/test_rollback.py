"""Rejected drafts leave no trace in any KV cache. The counting models carry a small attention
trace of their whole cached history in their logits (tests/models/build.py), so a cache that
kept a rejected position gives other logits than plain decoding, though the same words."""

from __future__ import annotations

import numpy as np
import pytest

from backend.engine.context import Context
from backend.engine.request import GenerationRequest
from engine.runner import assert_rollback_leaves_plain_state, run

# The n-gram drafter is never wrong on a plain count; this prompt jumps from " three" to
# " seven", so once the answer reaches " one two three" the lookup proposes " seven eight …",
# which the target rejects.
JUMPY = " zero one two three seven eight nine"


@pytest.mark.parametrize("spec,n_draft_max,text", [("draft", 4, " zero one"),
                                                   ("ngram", 8, JUMPY)])
def test_the_target_cache_after_speculation_is_the_plain_one(count_engine, spec, n_draft_max,
                                                             text):
    assert_rollback_leaves_plain_state(count_engine, spec, n_draft_max, text)


def test_the_draft_models_cache_holds_exactly_the_kept_history(count_engine):
    """count-draft is wrong at known steps, so its own cache rolls back rejected drafts many
    times: afterwards its logits must be those of a fresh context fed the same tokens."""
    _, steps = run(count_engine, GenerationRequest(
        prompt=" zero one", spec_type="draft", n_draft_max=4, max_tokens=30))
    assert sum(len(s.drafted) - s.n_accepted for s in steps) >= 5  # rollbacks happened
    draft_ctx = count_engine._drafters["draft"].ctx
    kept = list(draft_ctx.tokens)
    prompt = count_engine._target.tokenize(" zero one", add_special=True)
    answer = [t.id for s in steps for t in s.emitted]
    # the draft cache holds a prefix of the conversation, never a rejected word
    assert kept == (prompt + answer)[: len(kept)] and len(kept) > len(prompt)
    probe = draft_ctx.model.tokenize(" five", add_special=False)
    spec_logits = draft_ctx.decode(probe)[0].copy()
    fresh = Context(draft_ctx.model, n_ctx=256, n_threads=1)
    try:
        fresh_logits = fresh.decode(kept + probe)[0].copy()
    finally:
        fresh.close()
    draft_ctx.truncate(len(kept))  # the probe is not part of the conversation
    assert np.abs(spec_logits - fresh_logits).max() < 1e-3
