"""Speculative sampling stays lossless with the sampler's transforms on: temperature ≠ 1,
top-k, top-p and min-p (and a repeat penalty), every first step verifying a two-token draft,
for the draft model, MTP and n-gram (χ² tests on the distribution models).

The expected distribution of the first two words comes from llama.cpp's own sampler chain
(engine/llama_reference.py) applied to the logits the distribution models are built with, so
a transform computed wrongly in sampling.py moves the target's own distribution away from it.
"""

from __future__ import annotations

import numpy as np
import pytest
from build import CYCLE_WORDS, DIST_TARGET, MARGIN
from scipy.stats import chisquare

from backend.engine.request import GenerationRequest, NgramSettings, SamplingSettings
from engine.llama_reference import reference_distribution
from engine.runner import loaded_engine

ALPHA = 1e-4  # a false alarm once in ten thousand runs
N = 1000
N_WORDS = len(CYCLE_WORDS)

# Each setting makes every transform it names matter on these models: top-k keeps the four
# candidates and drops the rest of the vocabulary; top-p or min-p drops one more at some
# position; the repeat penalty (window 2) drops " three" after " zero" but not after " one".
CASES = {
    "draft": (" zero", SamplingSettings(temperature=0.7, top_k=4, top_p=0.85, min_p=0.05,
                                        seed=0), NgramSettings()),
    "mtp": (" zero", SamplingSettings(temperature=1.4, top_k=4, top_p=0.95, min_p=0.25,
                                      seed=0), NgramSettings()),
    # the n-gram key " zero" occurred at the start, so the first step proposes " one two"
    "ngram": (" zero one two three zero",
              SamplingSettings(temperature=0.6, top_k=4, top_p=0.88, min_p=0.2,
                               repeat_penalty=1.5, repeat_last_n=2, seed=0),
              NgramSettings(size_n=1)),
}


def _logits_after(word: int) -> np.ndarray:
    """The distribution models' logits after cycle word `word`, over the cycle words (every
    other token has a logit just below 0, and top-k drops them all)."""
    logits = np.zeros(N_WORDS, np.float32)
    for j, p in enumerate(DIST_TARGET):
        logits[(word + 1 + j) % N_WORDS] = MARGIN + np.log(p)
    return logits


def expected_pairs(prompt: list[int], s: SamplingSettings) -> np.ndarray:
    """P(first word a, second word b) under llama.cpp's chain, as a 12 × 12 table; the
    history of the second word includes the first."""
    first = reference_distribution(_logits_after(prompt[-1]), s, prompt)
    table = np.zeros((N_WORDS, N_WORDS))
    for a in np.flatnonzero(first):
        table[a] = first[a] * reference_distribution(_logits_after(a), s, [*prompt, a])
    return table / table.sum()  # llama.cpp's float32 probabilities sum to 1 within 1e-7


def assert_follows(counts: np.ndarray, probs: np.ndarray) -> None:
    """A χ² test of `counts` against `probs`, cells expected fewer than 5 times pooled; an
    outcome of probability zero fails outright."""
    n = counts.sum()
    impossible = counts[probs == 0].sum()
    assert impossible == 0, f"{impossible} samples where the transforms allow none"
    expected = probs * n
    big = expected >= 5
    obs = [*counts[big], counts[~big & (probs > 0)].sum()]
    exp = [*expected[big], expected[~big & (probs > 0)].sum()]
    if exp[-1] == 0:
        obs, exp = obs[:-1], exp[:-1]
    assert chisquare(obs, exp).pvalue > ALPHA, (obs, [round(e, 1) for e in exp])


def sampled_pairs(engine, spec: str, text: str, s: SamplingSettings,
                  ngram: NgramSettings) -> np.ndarray:
    """Counts of the first two words over N seeds. With max_tokens 3 and K = 2 the first step
    verifies a two-token draft (checked)."""
    word = {engine._target.tokenize(" " + w, add_special=False)[0]: i
            for i, w in enumerate(CYCLE_WORDS)}
    counts = np.zeros((N_WORDS, N_WORDS))
    for seed in range(N):
        req = GenerationRequest(prompt=text, spec_type=spec, n_draft_max=2, max_tokens=3,
                                sampling=SamplingSettings(**{**_fields(s), "seed": seed}),
                                ngram=ngram)
        steps = [ev for ev in engine.generate(req) if hasattr(ev, "emitted")]
        assert len(steps[0].drafted) == 2, "the first step did not verify a two-token draft"
        out = [word[t.id] for st in steps for t in st.emitted]
        counts[out[0], out[1]] += 1
    return counts


def _fields(s: SamplingSettings) -> dict:
    return {f: getattr(s, f) for f in SamplingSettings.__slots__}


@pytest.fixture(scope="module")
def engines(test_models):
    with loaded_engine(test_models / "dist-target.gguf", test_models / "dist-draft.gguf",
                       n_ctx=64, n_threads=1) as pair, \
         loaded_engine(test_models / "dist-mtp.gguf", n_ctx=64, n_threads=1) as mtp:
        yield {"draft": pair, "ngram": pair, "mtp": mtp}


@pytest.mark.parametrize("spec", list(CASES))
def test_speculative_sampling_with_the_transforms_on_follows_the_target(engines, spec):
    text, s, ngram = CASES[spec]
    engine = engines[spec]
    prompt = [CYCLE_WORDS.index(w) for w in text.split()]
    probs = expected_pairs(prompt, s)
    assert 4 <= np.count_nonzero(probs) < 16  # the cuts removed outcomes
    assert_follows(sampled_pairs(engine, spec, text, s, ngram), probs)


def test_the_expected_table_moves_with_each_setting():
    """The reference table is sensitive to what the cases rely on: temperature, the cuts and
    the penalty each change it."""
    base_text, base, _ = CASES["ngram"]
    prompt = [CYCLE_WORDS.index(w) for w in base_text.split()]
    table = expected_pairs(prompt, base)
    for change in ({"temperature": 1.0}, {"top_p": 1.0}, {"repeat_penalty": 1.0}):
        other = expected_pairs(prompt, SamplingSettings(**{**_fields(base), **change}))
        assert np.abs(other - table).max() > 0.02, change
    _, mtp_settings, _ = CASES["mtp"]
    without_min_p = SamplingSettings(**{**_fields(mtp_settings), "min_p": 0.0})
    assert np.count_nonzero(expected_pairs([0], without_min_p)) > np.count_nonzero(
        expected_pairs([0], mtp_settings))
