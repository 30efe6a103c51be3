"""Spec type `gemma4-assistant`: drafting with a Gemma 4 assistant (an MTP drafter in a file of
its own that reads the target's cache) on the synthetic models of
tests/models/gemma4_assistant.py.

count-gemma4 counts " zero one two …". An assistant's drafts are known in advance from the
word before the anchor (the target's row it is given first): a drafter that pairs the anchor
with another position's row proposes other words, and the exact checks below fail.
"""

from __future__ import annotations

import numpy as np
import pytest
from build import CYCLE_WORDS, DIST_TARGET
from gemma4_assistant import SKIP_EVERY, assistant_step
from scipy.stats import chisquare

from backend import spec_types
from backend.engine import verify
from backend.engine.engine import Engine
from backend.engine.errors import EngineError
from backend.engine.events import GenerationFailed
from backend.engine.request import GenerationRequest, SamplingSettings
from backend.models.head_files import head_target_refusal
from engine.runner import emitted_ids, loaded_engine, run, split_step

W = [" " + w for w in CYCLE_WORDS]
N = len(W)
SPEC = "gemma4-assistant"
ASSISTANTS = {"g4-assistant.gguf": 0, "g4-assistant-skip.gguf": SKIP_EVERY}


def expected_drafts(assistant: str, before: int, k: int) -> list[int]:
    """The k words an assistant proposes when the word before the anchor is `before`."""
    out, state = [], before
    for _ in range(k):
        state = assistant_step(state, ASSISTANTS[assistant])
        out.append((state + 1) % N)
    return out


@pytest.fixture(scope="module")
def g4_engine(test_models):
    with loaded_engine(test_models / "count-gemma4.gguf", n_ctx=1024, n_threads=1) as e:
        yield e


def _use(engine: Engine, test_models, assistant: str) -> None:
    if engine.draft is None or not engine.draft.path.endswith(assistant):
        engine.load_draft(test_models / assistant)


def _assert_steps_as_constructed(assistant: str, steps, before: int, last: int) -> None:
    for step in steps:
        k = len(step.drafted)
        acc, rej, own = split_step(last, expected_drafts(assistant, before, k), N)
        assert [t.text for t in step.drafted] == [W[d] for d in acc + rej]
        assert [t.accepted for t in step.drafted] == [True] * len(acc) + [False] * len(rej)
        assert [t.origin for t in step.drafted] == [SPEC] * k
        if len(step.emitted) == len(acc) + 1:  # the last step may stop early at max_tokens
            assert [t.text for t in step.emitted] == [W[d] for d in acc] + [W[own]]
            assert [t.origin for t in step.emitted] == [SPEC] * len(acc) + ["target"]
        words = [W.index(t.text) for t in step.emitted]
        before, last = [last, *words][-2], words[-1]


def _request(prompt: str = " zero one", **kw) -> GenerationRequest:
    kw.setdefault("spec_type", SPEC)
    kw.setdefault("measure_plain", False)
    return GenerationRequest(prompt=prompt, **kw)


@pytest.mark.parametrize("assistant", list(ASSISTANTS))
def test_drafts_are_accepted_and_rejected_exactly_as_constructed(g4_engine, test_models,
                                                                 assistant):
    _use(g4_engine, test_models, assistant)
    final, steps = run(g4_engine, _request(n_draft_max=4, max_tokens=30))
    _assert_steps_as_constructed(assistant, steps, 0, 1)
    assert all(len(s.drafted) == 4 for s in steps[:4])
    plain, plain_steps = run(g4_engine, GenerationRequest(prompt=" zero one", max_tokens=30))
    assert final.text == plain.text == "".join(W[(2 + i) % N] for i in range(30))
    assert emitted_ids(steps) == emitted_ids(plain_steps)
    rate = final.stats.acceptance_rate
    assert (rate == 1.0) if not ASSISTANTS[assistant] else (0.3 < rate < 0.9)


def test_the_wrong_assistant_is_rejected_where_built_to(g4_engine, test_models):
    """By hand: after " zero one" the skip assistant proposes two three FIVE SIX (it jumps
    after " two", whose index + 1 is a multiple of 3)."""
    assert expected_drafts("g4-assistant-skip.gguf", 0, 4) == [2, 3, 5, 6]
    _use(g4_engine, test_models, "g4-assistant-skip.gguf")
    _, steps = run(g4_engine, _request(n_draft_max=4, max_tokens=5))
    assert [(t.text, t.accepted) for t in steps[0].drafted] == [
        (" two", True), (" three", True), (" five", False), (" six", False)]


def test_k_auto_and_a_long_prompt_keep_to_the_target(g4_engine, test_models):
    _use(g4_engine, test_models, "g4-assistant-skip.gguf")
    prompt = "".join(W[i % N] for i in range(700))
    final, steps = run(g4_engine, _request(prompt, n_draft_max=0, max_tokens=24))
    _assert_steps_as_constructed("g4-assistant-skip.gguf", steps, 698 % N, 699 % N)
    plain, _ = run(g4_engine, GenerationRequest(prompt=prompt, max_tokens=24))
    assert final.text == plain.text


def test_plain_answers_in_between_and_follow_ups(g4_engine, test_models):
    _use(g4_engine, test_models, "g4-assistant.gguf")
    g4_engine.reset_cache()
    run(g4_engine, _request(" three four five six seven", n_draft_max=4, max_tokens=8))
    run(g4_engine, GenerationRequest(prompt=" three four nine", max_tokens=8))
    first, steps = run(g4_engine, _request(" three four nine ten eleven", n_draft_max=4,
                                           max_tokens=12))
    _assert_steps_as_constructed("g4-assistant.gguf", steps, 10, 11)
    assert first.stats.acceptance_rate == 1.0
    events = list(g4_engine.generate(_request(" three four nine ten eleven" + first.text
                                              + " eleven zero", n_draft_max=4, max_tokens=12)))
    assert events[1].n_cached > 0
    assert events[-1].text == "".join(W[(1 + i) % N] for i in range(12))


def test_sampled_answers_keep_to_the_target(g4_engine, test_models):
    _use(g4_engine, test_models, "g4-assistant-skip.gguf")
    final, steps = run(g4_engine, _request(n_draft_max=4, max_tokens=20, sampling=SamplingSettings(
        temperature=0.8, top_k=40, top_p=0.9, min_p=0.05, seed=3)))
    assert final.text == "".join(W[(2 + i) % N] for i in range(20))
    assert final.stats.n_accepted > 0
    assert all(t.p_draft is not None for s in steps for t in s.drafted)


# -- refusals, in words, before llama.cpp would crash ---------------------------------------

def test_an_assistant_for_another_width_is_refused(g4_engine, test_models):
    with pytest.raises(EngineError) as info:
        g4_engine.load_draft(test_models / "g4-assistant-wide.gguf")
    assert str(info.value) == ("g4-assistant-wide.gguf was made for a Gemma 4 model of hidden "
                               "size 48, and count-gemma4 has 32.")
    _use(g4_engine, test_models, "g4-assistant.gguf")  # the engine goes on
    final, _ = run(g4_engine, _request(n_draft_max=4, max_tokens=8))
    assert final.stats.acceptance_rate == 1.0


@pytest.mark.parametrize("target", ["count-target3.gguf", "count-mtp.gguf"])
def test_an_assistant_is_refused_for_a_target_other_than_gemma4(test_models, target):
    """llama.cpp makes the assistant's context read the target's cache as Gemma 4's: for a
    llama target that crashes the process (SIGSEGV, measured)."""
    with loaded_engine(test_models / target, n_ctx=128, n_threads=1) as e:
        with pytest.raises(EngineError) as info:
            e.load_draft(test_models / "g4-assistant.gguf")
        assert str(info.value).startswith("g4-assistant.gguf drafts only for Gemma 4 models, "
                                          "and count-")
        assert e.draft is None
        final, _ = run(e, GenerationRequest(prompt=" zero one", max_tokens=4))
        assert final.text == " two three four five"


def test_spec_types_match_the_draft_file(g4_engine, test_models):
    assert spec_types.draft_need("gemma4-assistant") == "gemma4_assistant"
    _use(g4_engine, test_models, "g4-assistant.gguf")
    assert set(g4_engine._drafters) >= {SPEC}
    events = list(g4_engine.generate(GenerationRequest(prompt=" zero one", spec_type="dflash")))
    assert isinstance(events[-1], GenerationFailed)
    assert events[-1].message == ("g4-assistant.gguf (gemma4-assistant) drafts with spec type "
                                  "Gemma 4 assistant, not DFlash.")
    g4_engine.load_draft(test_models / "count-draft.gguf")  # a draft model: it loads
    events = list(g4_engine.generate(GenerationRequest(prompt=" zero one", spec_type=SPEC)))
    assert events[-1].message == ("count-draft.gguf (llama) drafts with spec type draft model, "
                                  "not Gemma 4 assistant.")
    g4_engine.unload_draft()
    events = list(g4_engine.generate(GenerationRequest(prompt=" zero one", spec_type=SPEC)))
    assert isinstance(events[-1], GenerationFailed)
    assert "needs a Gemma 4 assistant as the draft" in events[-1].message


def test_the_target_refusal_says_what_the_file_is():
    message = str(head_target_refusal("gemma4-assistant", "g4-assistant.gguf"))
    assert message.startswith("g4-assistant.gguf is a Gemma 4 assistant")
    assert head_target_refusal("gemma4", "count-gemma4.gguf") is None


def test_an_assistant_opened_as_the_target_is_refused(test_models):
    engine = Engine()
    try:
        with pytest.raises(EngineError) as info:
            engine.load_target(test_models / "g4-assistant.gguf", n_ctx=128, n_threads=1)
    finally:
        engine.close()
    assert str(info.value).startswith("g4-assistant.gguf is a Gemma 4 assistant")


# -- sampling -------------------------------------------------------------------------------

ALPHA = 1e-4
N_SAMPLES = 400


@pytest.fixture(scope="module")
def dist_g4_engine(test_models):
    with loaded_engine(test_models / "dist-gemma4.gguf", test_models / "g4-assistant-dist.gguf",
                       n_ctx=64, n_threads=1) as e:
        yield e


def _first_two(engine: Engine, n: int) -> tuple[np.ndarray, int]:
    ids = {engine._target.tokenize(w, add_special=False)[0]: i for i, w in enumerate(W)}
    counts = np.zeros(16)
    n_drafted = 0
    for seed in range(n):
        req = GenerationRequest(
            prompt=" eleven zero", spec_type=SPEC, n_draft_max=2, max_tokens=3,
            sampling=SamplingSettings(temperature=1.0, top_k=0, top_p=1.0, min_p=0.0, seed=seed),
        )
        events = list(engine.generate(req))
        out = [t.id for ev in events for t in getattr(ev, "emitted", ())]
        n_drafted += sum(len(getattr(ev, "drafted", ())) for ev in events)
        a, b = ids[out[0]], ids[out[1]]
        counts[4 * (a - 1) + (b - a - 1) % N] += 1
    return counts, n_drafted


def _expected() -> np.ndarray:
    p = np.array(DIST_TARGET)
    return np.outer(p, p).ravel() * N_SAMPLES


def test_assistant_sampling_matches_the_target_distribution(dist_g4_engine):
    counts, n_drafted = _first_two(dist_g4_engine, N_SAMPLES)
    assert n_drafted >= N_SAMPLES
    assert chisquare(counts, _expected()).pvalue > ALPHA


def test_a_biased_verifier_is_caught_on_the_assistant_pair(dist_g4_engine, monkeypatch):
    monkeypatch.setattr(verify, "residual", lambda p, q, x: p)
    counts, _ = _first_two(dist_g4_engine, N_SAMPLES)
    assert chisquare(counts, _expected()).pvalue < ALPHA
