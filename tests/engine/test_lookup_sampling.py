"""Sampled speculation with llama.cpp's lookups follows the target's distribution (χ² tests):
a lookup proposes a copy (one-hot q), kept with probability p(x) and else replaced by a draw
from p without x. On the distribution model after a prompt that repeats the cycle of words,
so every lookup drafts; a verifier that skips the residual step is caught by the same test."""

from __future__ import annotations

import numpy as np
import pytest
from build import CYCLE_WORDS, DIST_TARGET
from scipy.stats import chisquare

from backend.engine import verify
from backend.engine.events import StepVerified
from backend.engine.request import (
    GenerationRequest,
    NgramMapSettings,
    NgramModSettings,
    NgramSettings,
    SamplingSettings,
)
from engine.runner import loaded_engine

ALPHA = 1e-4  # a false alarm once in ten thousand runs; a biased verifier fails by far more
N = 800
# the cycle twice, then its first two words: every lookup finds "… zero one" and copies on
PROMPT = "".join(f" {w}" for w in CYCLE_WORDS * 2 + CYCLE_WORDS[:2])
# keys and copies short enough for this prompt (map-k drafts only from a history of 2n + m
# tokens); the rules are llama.cpp's
SHORT_KEYS = dict(ngram=NgramSettings(size_n=2), ngram_map_k=NgramMapSettings(size_n=2, size_m=2),
                  ngram_map_k4v=NgramMapSettings(size_n=2, size_m=2),
                  ngram_mod=NgramModSettings(n_match=2, n_min=1, n_max=8))
LOOKUPS = ("ngram", "ngram-map-k", "ngram-map-k4v", "ngram-mod", "ngram-cache")


@pytest.fixture(scope="module")
def dist_engine(test_models):
    with loaded_engine(test_models / "dist-target.gguf", None, n_ctx=128, n_threads=1) as e:
        yield e


def _sample_pairs(engine, spec: str, n: int) -> tuple[np.ndarray, int]:
    """Counts of the 16 (offset1, offset2) outcomes of two sampled tokens after PROMPT, and
    how many of the answers had a draft verified."""
    ids = {engine._target.tokenize(" " + w, add_special=False)[0]: i
           for i, w in enumerate(CYCLE_WORDS)}
    last = CYCLE_WORDS.index("one")
    counts, drafted = np.zeros(16), 0
    for seed in range(n):
        req = GenerationRequest(
            prompt=PROMPT, spec_type=spec, n_draft_max=2, max_tokens=2, measure_plain=False,
            sampling=SamplingSettings(temperature=1.0, top_k=0, top_p=1.0, min_p=0.0,
                                      seed=seed), **SHORT_KEYS)
        events = list(engine.generate(req))
        drafted += any(isinstance(e, StepVerified) and e.drafted for e in events)
        out = [t.id for e in events for t in getattr(e, "emitted", ())]
        a, b = ids[out[0]], ids[out[1]]
        counts[4 * ((a - last - 1) % 12) + (b - a - 1) % 12] += 1
    return counts, drafted


def _expected() -> np.ndarray:
    p = np.array(DIST_TARGET)
    return np.outer(p, p).ravel()


@pytest.mark.parametrize("spec", LOOKUPS)
def test_sampling_with_a_lookup_matches_the_target_distribution(dist_engine, spec):
    counts, drafted = _sample_pairs(dist_engine, spec, N)
    assert drafted > N // 2  # the lookup drafted: the test is about its verification
    assert chisquare(counts, _expected() * N).pvalue > ALPHA


def test_skipping_the_residual_step_is_detected_with_a_lookup(dist_engine, monkeypatch):
    # On rejection of a copy, drawing from p itself draws the rejected word again.
    monkeypatch.setattr(verify, "residual", lambda p, q, x: p)
    counts, _ = _sample_pairs(dist_engine, "ngram-mod", N)
    assert chisquare(counts, _expected() * N).pvalue < ALPHA
