"""Our numpy sampler (`backend/engine/sampling.py`) against llama.cpp's own sampler chain on the
same logits: an independent reference for the kept set and the probabilities, so that a
transform that is skipped, reordered or computed wrongly (temperature, a penalty, a cut) fails
here rather than passing every statistical test run at temperature 1 with every cut off."""

from __future__ import annotations

import itertools

import llama_cpp
import numpy as np
import pytest

from backend.engine import sampling
from backend.engine.request import SamplingSettings
from engine.llama_reference import (
    apply_chain,
    reference_distribution,
    reference_penalized,
    sampler_chain,
)

N_VOCAB = 96


def _logits(seed: int, n: int = N_VOCAB) -> np.ndarray:
    """Random logits of both signs (the penalty divides positive logits and multiplies
    negative ones) with no ties, so every cut has one right answer."""
    rng = np.random.default_rng(seed)
    return (rng.permutation(n) * 0.11 - 4.0 + rng.standard_normal(n) * 0.7).astype(np.float32)


def _history(seed: int, n: int = N_VOCAB) -> list[int]:
    """A history with repeats, longer than some windows: only the last repeat_last_n count."""
    rng = np.random.default_rng(1000 + seed)
    return [int(t) for t in rng.choice(n, size=24)]


TEMPERATURES = (0.3, 0.8, 1.0, 1.6)
TOP_KS = (0, 1, 7, 40)
TOP_PS = (1.0, 0.9, 0.5)
MIN_PS = (0.0, 0.05, 0.2)
PENALTIES = ((1.0, 64), (1.3, 8), (2.0, 64))

GRID = list(itertools.product(TEMPERATURES, TOP_KS, TOP_PS, MIN_PS, PENALTIES))


def _settings(temp, top_k, top_p, min_p, penalty) -> SamplingSettings:
    repeat_penalty, last_n = penalty
    return SamplingSettings(temperature=temp, top_k=top_k, top_p=top_p, min_p=min_p,
                            repeat_penalty=repeat_penalty, repeat_last_n=last_n)


@pytest.mark.parametrize("temp", TEMPERATURES)
def test_distribution_keeps_the_same_tokens_with_the_same_probabilities(temp):
    """Every combination of the cuts and the penalty, at each temperature."""
    failures = []
    for i, (t, top_k, top_p, min_p, penalty) in enumerate(g for g in GRID if g[0] == temp):
        s = _settings(t, top_k, top_p, min_p, penalty)
        logits, history = _logits(i), _history(i)
        ours = sampling.distribution(logits.copy(), s, history)
        ref = reference_distribution(logits, s, history)
        kept, ref_kept = set(np.flatnonzero(ours)), set(np.flatnonzero(ref))
        if kept != ref_kept or not np.allclose(ours, ref, rtol=1e-4, atol=1e-6):
            failures.append((s, sorted(kept ^ ref_kept), float(np.abs(ours - ref).max())))
    assert not failures, failures[:3]


def test_the_grid_exercises_every_cut():
    """The grid is only a reference if each transform changes something in it: each cut
    removes tokens on its own, and the penalty and temperature move the probabilities."""
    logits, history = _logits(0), _history(0)
    plain = SamplingSettings(temperature=1.0, top_k=0, top_p=1.0, min_p=0.0)
    base = reference_distribution(logits, plain, history)
    assert np.count_nonzero(base) == N_VOCAB
    for change in ({"top_k": 7}, {"top_p": 0.5}, {"min_p": 0.2}):
        cut = reference_distribution(logits, SamplingSettings(**{**_fields(plain), **change}),
                                     history)
        assert 1 < np.count_nonzero(cut) < N_VOCAB, change
    for change in ({"temperature": 0.3}, {"repeat_penalty": 2.0}):
        moved = reference_distribution(logits, SamplingSettings(**{**_fields(plain), **change}),
                                       history)
        assert np.abs(moved - base).max() > 0.01, change


def _fields(s: SamplingSettings) -> dict:
    return {f: getattr(s, f) for f in SamplingSettings.__slots__}


@pytest.mark.parametrize("penalty,last_n", [(1.3, 8), (2.0, 64), (1.5, 1), (1.0, 64),
                                            (1.7, 0)])
def test_penalized_logits_equal_llama_cpps_penalty_sampler(penalty, last_n):
    s = SamplingSettings(repeat_penalty=penalty, repeat_last_n=last_n)
    for seed in range(5):
        logits, history = _logits(seed), _history(seed)
        ours = sampling.penalized(logits.copy(), s, history)
        np.testing.assert_allclose(ours, reference_penalized(logits, s, history), rtol=1e-6)


@pytest.mark.parametrize("penalty,last_n", [(1.0, 64), (1.3, 4), (2.0, 64)])
def test_greedy_token_equals_llama_cpps_greedy_sampler(penalty, last_n):
    s = SamplingSettings(temperature=0.0, repeat_penalty=penalty, repeat_last_n=last_n)
    changed = 0
    for seed in range(20):
        logits, history = _logits(seed), _history(seed)
        # put a recent token on top, so that the penalty has a choice to change
        logits[history[-1]] = logits.max() + 0.5
        chain = sampler_chain(s, history, len(logits), greedy=True)
        try:
            _, expected = apply_chain(chain, logits)
        finally:
            llama_cpp.llama_sampler_free(chain)
        assert sampling.greedy_token(logits.copy(), s, history) == expected
        changed += expected != history[-1]
    assert (changed > 0) == (penalty >= 1.3)


def test_a_full_vocabulary_agrees_too():
    """SmolLM2's vocabulary size, peaked logits as a model gives: the cuts then keep a few
    tokens out of 49152."""
    n = 49152
    rng = np.random.default_rng(7)
    logits = (rng.standard_normal(n) * 2.5).astype(np.float32)
    history = [int(t) for t in np.argsort(logits)[-30:]]  # the likeliest tokens are recent
    for s in (SamplingSettings(temperature=0.7, top_k=40, top_p=0.95, min_p=0.05,
                               repeat_penalty=1.3, repeat_last_n=64),
              SamplingSettings(temperature=1.3, top_k=0, top_p=0.8, min_p=0.0,
                               repeat_penalty=1.1, repeat_last_n=16)):
        ours = sampling.distribution(logits.copy(), s, history)
        ref = reference_distribution(logits, s, history)
        assert set(np.flatnonzero(ours)) == set(np.flatnonzero(ref))
        np.testing.assert_allclose(ours, ref, rtol=1e-4, atol=1e-7)
