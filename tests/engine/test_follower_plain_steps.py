"""Drafters that follow the target's hidden states (MTP, EAGLE-3) do no work of their own on
K auto's plain steps: the states are kept and written in one batch when the next draft
needs them. Without that, a plain step with an EAGLE-3 head on count-target3 cost 2.2 plain
steps (the head's decode and encoder ran on every token), and K auto could not fall back to
plain decoding where drafting does not pay. The drafts after a plain stretch are still the
ones the heads are built to make, and the answer is plain decoding's."""

from __future__ import annotations

import pytest

from backend.engine import adaptive_k
from backend.engine.events import StepVerified
from backend.engine.request import GenerationRequest
from engine.runner import emitted_ids, loaded_engine, run

# K per step: plain stretches of several lengths between drafts
SCRIPT = [0, 0, 0, 2, 0, 0, 0, 0, 0, 3, 1, 0, 0, 4, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3]


@pytest.fixture
def scripted_k(monkeypatch):
    """K auto choosing the K of SCRIPT, step after step."""
    chosen = iter(SCRIPT * 4)
    monkeypatch.setattr(adaptive_k.AdaptiveK, "choose",
                        lambda self, n_draft_max, continuing=False, repeating=None: next(chosen))


def _count_head_work(monkeypatch, drafter, names: tuple[str, ...]) -> list[str]:
    """Calls to the head's own decode/encode, in order, marked by the step they fell in."""
    calls: list[str] = []
    for name in names:
        original = getattr(drafter, name)

        def counted(*args, _original=original, _name=name, **kwargs):
            calls.append(_name)
            return _original(*args, **kwargs)

        monkeypatch.setattr(drafter, name, counted)
    return calls


@pytest.mark.parametrize(("target", "head", "spec", "names", "prompt"), [
    ("count-target3.gguf", "eagle3-count.gguf", "eagle3", ("_decode", "_encode"),
     " three four five six"),
    ("count-mtp.gguf", None, "mtp", ("_decode",), " zero one"),
])
def test_plain_steps_cost_the_head_nothing_and_drafting_resumes_right(
        test_models, monkeypatch, scripted_k, target, head, spec, names, prompt):
    with loaded_engine(test_models / target, n_ctx=512, n_threads=1) as engine:
        if head:
            engine.load_draft(test_models / head)
        request = GenerationRequest(prompt=prompt, spec_type=spec, n_draft_max=0, max_tokens=60)
        drafter = engine._drafter(request)
        calls = _count_head_work(monkeypatch, drafter, names)
        # the head's calls so far at the end of each step (its event may come later)
        marks = [0]
        step = engine._step

        def marked_step(*args, **kwargs):
            out = step(*args, **kwargs)
            marks.append(len(calls))
            return out

        monkeypatch.setattr(engine, "_step", marked_step)
        steps = [e for e in engine.generate(request) if isinstance(e, StepVerified)]
        # (drafts, head calls) per step
        per_step = [(len(s.drafted), marks[i + 1] - marks[i]) for i, s in enumerate(steps)]
        _, plain_steps = run(engine, GenerationRequest(prompt=prompt, max_tokens=60))
    assert emitted_ids(steps) == emitted_ids(plain_steps)
    plain_calls = [n for drafts, n in per_step[1:] if drafts == 0]
    assert len(plain_calls) > 20 and not any(plain_calls), per_step
    drafting = [(d, n) for d, n in per_step if d]
    assert len(drafting) >= 6 and all(n for _, n in drafting)
    if spec == "eagle3":  # eagle3-count is right everywhere: drafts after plain stretches too
        # (the last step's drafts past max_tokens are not counted as accepted)
        assert all(s.n_accepted == len(s.drafted) for s in steps[:-1] if s.drafted)
