"""Speculative sampling follows the target's distribution (χ² tests), and a verifier that
skips the residual step is caught by the same test."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.stats import chisquare

from backend.engine import verify
from backend.engine.engine import Engine
from backend.engine.request import GenerationRequest, SamplingSettings
from backend.engine.verify import verify_sampled
from engine.dist_pairs import cycle_index, expected_pairs, pair_outcome

ALPHA = 1e-4  # a false alarm once in ten thousand runs; a biased verifier fails by far more


def _sample_pairs(engine: Engine, spec: str, n: int) -> np.ndarray:
    """Counts of the 16 possible (offset1, offset2) outcomes of two sampled tokens."""
    ids = {}
    counts = np.zeros(16)
    for seed in range(n):
        req = GenerationRequest(
            prompt=" zero", spec_type=spec, n_draft_max=2, max_tokens=2,
            sampling=SamplingSettings(temperature=1.0, top_k=0, top_p=1.0, min_p=0.0, seed=seed),
        )
        out = [t.id for ev in engine.generate(req) for t in getattr(ev, "emitted", ())]
        if not ids:
            ids = cycle_index(engine)
        counts[pair_outcome(ids[out[0]], ids[out[1]])] += 1
    return counts


N = 1500


def test_plain_sampling_matches_the_constructed_distribution(dist_engine):
    counts = _sample_pairs(dist_engine, "none", N)
    assert chisquare(counts, expected_pairs() * N).pvalue > ALPHA


def test_draft_sampling_matches_the_target_distribution(dist_engine):
    counts = _sample_pairs(dist_engine, "draft", N)
    assert chisquare(counts, expected_pairs() * N).pvalue > ALPHA


def test_skipping_the_residual_step_is_detected(dist_engine, monkeypatch):
    # A common bug: on rejection, sample from p instead of normalize(max(0, p - q)).
    monkeypatch.setattr(verify, "residual", lambda p, q, x: p)
    counts = _sample_pairs(dist_engine, "draft", N)
    assert chisquare(counts, expected_pairs() * N).pvalue < ALPHA


# -- the verifier alone, on random distributions, with many samples -----------------------

def _joint(verifier_runs: int, p_rows, q_rows, k: int, seed: int, onehot: bool) -> np.ndarray:
    rng = np.random.default_rng(seed)
    v = len(p_rows[0])
    counts = np.zeros(v ** (k + 1))
    for _ in range(verifier_runs):
        out: list[int] = []
        while len(out) < k + 1:
            pos = len(out)
            drafts, qs = [], []
            for j in range(k):
                q = q_rows[min(pos + j, k)]
                x = int(rng.choice(v, p=q)) if not onehot else int(np.argmax(q))
                drafts.append(x)
                qs.append(None if onehot else q)
            verdict = verify_sampled(lambda i, pos=pos: p_rows[min(pos + i, k)], drafts, qs, rng)
            out += [*drafts[: verdict.n_accepted], verdict.token]
        idx = 0
        for t in out[: k + 1]:
            idx = idx * v + t
        counts[idx] += 1
    return counts


@pytest.mark.parametrize("onehot", [False, True])
def test_verifier_is_lossless_on_random_distributions(onehot):
    rng = np.random.default_rng(1)
    v, k = 3, 2
    p_rows = [rng.dirichlet(np.ones(v)) for _ in range(k + 1)]
    q_rows = [rng.dirichlet(np.ones(v)) for _ in range(k + 1)]
    n = 6000
    counts = _joint(n, p_rows, q_rows, k, seed=2, onehot=onehot)
    expected = np.array([np.prod([p_rows[i][t] for i, t in enumerate(c)])
                         for c in itertools.product(range(v), repeat=k + 1)])
    assert chisquare(counts, expected * n).pvalue > ALPHA
