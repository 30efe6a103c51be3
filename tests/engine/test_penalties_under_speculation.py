"""Greedy speculation with a repeat penalty equals plain decoding, for every spec type.

On the penalty models (tests/models/build.py) each word's successor depends on which words
the penalty window of its own position holds, so verifying position i of a draft with any
history but "everything before position i, drafts included" changes the answer. The plain
answer is llama.cpp's own decoding (penalties + greedy sampler on a fresh context), which
shares no code with the engine.
"""

from __future__ import annotations

import pytest

from backend.engine.request import GenerationRequest, SamplingSettings
from engine.llama_reference import reference_greedy, reference_prompt
from engine.runner import emitted_ids, loaded_engine, run

PROMPT = " zero"
N_TOKENS = 40


@pytest.fixture(scope="module")
def pen_engine(test_models):
    """pen-target drafting for itself: its greedy drafts are what the target should choose,
    so every step verifies long drafts, and a wrong verdict shows at once."""
    with loaded_engine(test_models / "pen-target.gguf", test_models / "pen-target.gguf",
                       n_ctx=256, n_threads=1) as e:
        yield e


@pytest.fixture(scope="module")
def pen_mtp_engine(test_models):
    with loaded_engine(test_models / "pen-mtp.gguf", n_ctx=256, n_threads=1) as e:
        yield e


def _greedy(penalty: float, last_n: int) -> SamplingSettings:
    return SamplingSettings(temperature=0.0, repeat_penalty=penalty, repeat_last_n=last_n)


def _reference(engine, s: SamplingSettings) -> list[int]:
    model = engine._target.model
    return reference_greedy(model, reference_prompt(model, text=PROMPT), N_TOKENS, s)


def test_the_penalty_decides_the_answer(pen_engine):
    """Without a penalty the answer ping-pongs between " one" and " zero"; with one it walks
    on through the cycle, differently for each window."""
    without = _reference(pen_engine, _greedy(1.0, 64))
    assert len(set(without)) == 2
    walks = [_reference(pen_engine, _greedy(p, n)) for p, n in ((1.5, 64), (1.3, 4))]
    assert all(len(set(w)) >= 10 for w in walks)
    assert walks[0] != walks[1]


@pytest.mark.parametrize("penalty,last_n", [(1.5, 64), (1.3, 4)])
@pytest.mark.parametrize("spec", ["none", "draft", "ngram", "mtp"])
def test_greedy_with_a_repeat_penalty_equals_llama_cpps_decoding(pen_engine, pen_mtp_engine,
                                                                  spec, penalty, last_n):
    engine = pen_mtp_engine if spec == "mtp" else pen_engine
    s = _greedy(penalty, last_n)
    final, steps = run(engine, GenerationRequest(
        prompt=PROMPT, spec_type=spec, n_draft_max=4, max_tokens=N_TOKENS, sampling=s))
    assert emitted_ids(steps) == _reference(engine, s)
    if spec != "none":
        # drafts of several tokens were verified, and most were right
        assert max(len(st.drafted) for st in steps) >= 2
        assert final.stats.n_accepted >= N_TOKENS // 3
