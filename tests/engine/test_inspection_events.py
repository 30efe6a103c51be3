"""What the engine records for the inspector is what it decided with: the draw against
min(1, p/q) agrees with every verdict, the top-5 lists are ordered and hold the chosen
token where greedy chose it, and n-gram drafts name the position they were copied from."""

from __future__ import annotations

from backend.engine.prompt import build_prompt
from backend.engine.request import GenerationRequest, NgramSettings, SamplingSettings
from engine.runner import run


def test_sampled_verdicts_follow_the_recorded_draws(count_engine):
    _, steps = run(count_engine, GenerationRequest(
        prompt="zero one", spec_type="draft", n_draft_max=4, max_tokens=40,
        sampling=SamplingSettings(temperature=0.8, seed=3)))
    examined = [(s, i, t) for s in steps for i, t in enumerate(s.drafted) if t.verification]
    assert any(not t.accepted for _, _, t in examined), "nothing was rejected"
    for step, i, t in examined:
        v = t.verification
        assert v.rule == "sampled"
        assert (v.draw < v.accept_prob) == t.accepted
        assert abs(v.accept_prob - min(1.0, t.p_target / t.p_draft)) < 1e-9
        assert i <= step.n_accepted
    for step in steps:
        # drafts after the first rejection were never examined
        first_rejected = next((i for i, t in enumerate(step.drafted) if not t.accepted), None)
        if first_rejected is not None:
            assert all(t.verification is None for t in step.drafted[first_rejected + 1:])
            own = step.emitted[-1].verification
            assert own.drawn_from == "residual" and 0.0 < own.residual_p <= 1.0


def test_greedy_records_the_targets_top_tokens(count_engine):
    _, steps = run(count_engine, GenerationRequest(
        prompt="zero one", spec_type="draft", n_draft_max=4, max_tokens=24))
    for step in steps:
        own = step.emitted[-1]
        v = own.verification
        assert v.rule == "greedy" and v.drawn_from == "argmax"
        assert v.top_target[0].id == own.id
        assert [c.p for c in v.top_target] == sorted((c.p for c in v.top_target), reverse=True)
        assert abs(v.top_target[0].p - own.p_target) < 1e-12
        for t in step.drafted:
            if t.verification is not None:
                # greedy: a draft stands exactly when it is the target's top token
                assert (t.verification.top_target[0].id == t.id) == t.accepted
                assert t.verification.top_draft[0].id == t.id  # greedy drafting: q's argmax


def test_ngram_drafts_name_where_they_were_copied_from(count_engine):
    request = GenerationRequest(
        prompt="zero one two three four five zero one two three", spec_type="ngram",
        n_draft_max=4, max_tokens=16, ngram=NgramSettings(size_n=2, size_m=4, min_hits=1))
    _, steps = run(count_engine, request)
    history, _ = build_prompt(count_engine._target, request)
    checked = 0
    for step in steps:
        for t in step.drafted:
            v = t.verification
            if v is None:
                continue
            # the position it names holds the very token it proposed, after the text shown
            assert history[v.match_at] == t.id
            lead = history[max(0, v.match_at - 12): v.match_at]
            assert v.match_text == "".join(
                count_engine._target.piece(x).decode("utf-8", "replace") for x in lead)
            checked += 1
        history += [t.id for t in step.emitted]
    assert checked, "n-gram lookup found nothing to copy"
