"""On the counting pair the construction predicts every verdict: check them step by step."""

from __future__ import annotations

import pytest
from build import CYCLE_WORDS

from backend.engine.events import (
    GenerationFinished,
    GenerationStarted,
    PromptProcessed,
)
from backend.engine.request import GenerationRequest
from engine.runner import emitted_ids, run

W = [" " + w for w in CYCLE_WORDS]


def test_draft_k4_accepts_and_rejects_exactly_as_constructed(count_engine):
    final, steps = run(count_engine, GenerationRequest(
        prompt=" zero one", spec_type="draft", measure_plain=False, n_draft_max=4, max_tokens=24))
    # The draft predicts the token after next on every 4th cycle position (after " three",
    # " seven", " eleven"), so each step accepts up to that mistake and the target corrects.
    expected = [
        ([" two", " three"], [" five", " six"], " four"),
        ([" five", " six", " seven"], [" nine"], " eight"),
        ([" nine", " ten", " eleven"], [" one"], " zero"),
        ([" one", " two", " three"], [" five"], " four"),
        ([" five", " six", " seven"], [" nine"], " eight"),
        ([" nine", " ten", " eleven"], [" one"], " zero"),
    ]
    for step, (acc, rej, own) in zip(steps, expected, strict=False):
        assert [t.text for t in step.drafted if t.accepted] == acc
        assert [t.text for t in step.drafted if not t.accepted] == rej
        assert step.n_accepted == len(acc)
        assert [t.text for t in step.emitted] == [*acc, own]
        assert [t.origin for t in step.emitted] == ["draft"] * len(acc) + ["target"]
        # accepted drafts come first, and every accepted token agrees with the target
        assert [t.accepted for t in step.drafted] == [True] * len(acc) + [False] * len(rej)
    assert len(steps) >= len(expected)
    plain, plain_steps = run(count_engine, GenerationRequest(prompt=" zero one", max_tokens=24))
    assert final.text == plain.text == "".join(W[(2 + i) % 12] for i in range(24))
    assert emitted_ids(steps) == emitted_ids(plain_steps)
    s = final.stats
    assert s.n_generated == 24
    assert s.n_accepted == sum(st.n_accepted for st in steps)
    assert 0 < s.acceptance_rate < 1


def test_ngram_drafts_from_the_repeating_cycle(count_engine):
    final, steps = run(count_engine, GenerationRequest(
        prompt=" zero one", spec_type="ngram", n_draft_max=8, max_tokens=40))
    plain, plain_steps = run(count_engine, GenerationRequest(prompt=" zero one", max_tokens=40))
    assert final.text == plain.text
    assert emitted_ids(steps) == emitted_ids(plain_steps)
    # once the cycle has come round once, every n-gram draft is right
    assert final.stats.n_accepted > 15
    assert final.stats.acceptance_rate == 1.0


def test_events_carry_timings_and_probabilities(count_engine):
    events = list(count_engine.generate(GenerationRequest(
        prompt=" zero one", spec_type="draft", n_draft_max=4, max_tokens=8)))
    started, prompt, *steps, final = events
    assert isinstance(started, GenerationStarted) and isinstance(prompt, PromptProcessed)
    assert isinstance(final, GenerationFinished)
    s = final.stats
    # eight tokens are too few to measure plain decoding in: no speedup, and none from
    # another moment (the calibration at load)
    assert s.plain_tokens_per_second == 0 and s.speedup == 0
    # the totals are the sums of what each step reported, and fit in the time they span
    assert s.n_steps == len(steps)
    assert s.n_generated == sum(len(st.emitted) for st in steps) == 8
    assert s.n_drafted == sum(len(st.drafted) for st in steps)
    assert s.n_draft_steps == sum(1 for st in steps if st.drafted)
    assert s.draft_ms == pytest.approx(sum(st.draft_ms for st in steps))
    assert s.verify_ms == pytest.approx(sum(st.verify_ms for st in steps))
    assert s.draft_ms + s.verify_ms <= s.generation_ms
    assert s.prompt_ms == pytest.approx(prompt.ms) and s.prompt_ms <= s.ttft_ms
    first = steps[0]
    for t in first.drafted:
        assert t.p_draft is not None and t.p_draft > 0.99
    accepted = [t for t in first.drafted if t.accepted]
    assert all(t.p_target > 0.99 for t in accepted)
    first_rejected = next(t for t in first.drafted if not t.accepted)
    assert first_rejected.p_target < 1e-6  # the target gives the skipped word no chance
