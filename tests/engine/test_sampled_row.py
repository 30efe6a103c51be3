"""The sampler's rows (sampling.sampled_row) against the float64 way they replace, on the same
logits at a 151,936-token vocabulary: the same kept tokens, the same probabilities (the
inspector's p, q and top five), the same draws for the same seed and the same verdicts.

The reference below is the sampler's math as it was: a dense float64 vector per row, a full
sort for top-p without top-k, top five by argmax passes, inverse-CDF draws over the dense
vector. A row with a cut (KeptRow) must equal it to the last bit; a row without one
(FullRow) reads float32 weights, within 1.8e-7·|logit − max| / T + 3e-7 of it: three float32
roundings in the exponent (the difference, T, the quotient) and the exp's own.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from backend.engine import sampling, verify
from backend.engine.request import SamplingSettings
from backend.engine.sampling import FullRow, KeptRow, sampled_row
from engine.float64_sampler import (  # the float64 math the rows replace
    ref_distribution,
    ref_penalized,
    ref_residual,
    ref_sample,
    ref_top,
)

N = 151_936  # Qwen 2/3's vocabulary



def ref_verify(p_rows, drafts, q_rows, rng) -> tuple[int, int, tuple[float, ...], float]:
    draws: list[float] = []
    for i, x in enumerate(drafts):
        p, q = p_rows[i], q_rows[i]
        qx = 1.0 if q is None else float(q[x])
        u = rng.random()
        draws.append(u)
        if qx > 0.0 and u * qx < float(p[x]):
            continue
        r = ref_residual(p, q, x)
        token = ref_sample(r, rng)
        return i, token, tuple(draws), float(r[token])
    p = p_rows[len(drafts)]
    token = ref_sample(p, rng)
    return len(drafts), token, tuple(draws), float(p[token])


# -- rows and settings --------------------------------------------------------------------

ROWS = {
    # a few tokens far ahead of a spread of 152k, as a model's confident row
    "peaked": lambda rng: np.concatenate([rng.standard_normal(N - 3) * 2.5,
                                          [18.0, 16.5, 15.0]]),
    # a long tail, as a model's uncertain row: the nucleus holds thousands of tokens
    "model-like": lambda rng: rng.gumbel(size=N) * 1.5 + 5.0,
    # top-p 0.95 needs most of the vocabulary: the whole row is sorted
    "flat": lambda rng: rng.standard_normal(N) * 0.5,
    # EAGLE-3's reduced vocabulary: all but a few thousand logits are -inf
    "mostly -inf": lambda rng: np.where(rng.random(N) < 0.02, rng.standard_normal(N) * 3,
                                        -np.inf),
}

SETTINGS = {
    "T 0.8, top-k 40, top-p 0.95": SamplingSettings(temperature=0.8, top_k=40, top_p=0.95,
                                                    min_p=0.0),
    "defaults, T 0.8": SamplingSettings(temperature=0.8),
    "T 1": SamplingSettings(temperature=1.0, top_k=0, top_p=1.0, min_p=0.0),
    "T 0.3": SamplingSettings(temperature=0.3, top_k=0, top_p=1.0, min_p=0.0),
    "T 1.6, penalty": SamplingSettings(temperature=1.6, top_k=0, top_p=1.0, min_p=0.0,
                                       repeat_penalty=1.3, repeat_last_n=64),
    "top-p 0.9": SamplingSettings(temperature=1.3, top_k=0, top_p=0.9, min_p=0.0),
    "top-p 0.9, penalty": SamplingSettings(temperature=0.9, top_k=0, top_p=0.9, min_p=0.0,
                                           repeat_penalty=1.5, repeat_last_n=16),
    "top-p 0.95, min-p 0.02": SamplingSettings(temperature=1.0, top_k=0, top_p=0.95,
                                               min_p=0.02),
    "min-p 0.05": SamplingSettings(temperature=0.7, top_k=0, top_p=1.0, min_p=0.05),
    "min-p 1e-9": SamplingSettings(temperature=0.7, top_k=0, top_p=1.0, min_p=1e-9),
    "top-k 1000, top-p 0.99, penalty": SamplingSettings(
        temperature=0.5, top_k=1000, top_p=0.99, min_p=0.0, repeat_penalty=1.1),
    "top-k 5, min-p 0.05, penalty": SamplingSettings(
        temperature=0.8, top_k=5, top_p=1.0, min_p=0.05, repeat_penalty=2.0),
    "min-p 0.05, penalty": SamplingSettings(temperature=1.0, top_k=0, top_p=1.0, min_p=0.05,
                                            repeat_penalty=1.3),
    "top-k 1": SamplingSettings(temperature=1.0, top_k=1, top_p=1.0, min_p=0.0),
    "top-p 0": SamplingSettings(temperature=1.0, top_k=0, top_p=0.0, min_p=0.0),
}


def _case(row: str, seed: int = 0) -> tuple[np.ndarray, list[int]]:
    rng = np.random.default_rng(seed + sum(map(ord, row)))
    logits = ROWS[row](rng).astype(np.float32)
    # the likeliest token and some of those after it are recent
    history = [int(t) for t in np.argsort(logits)[-41:][::-2]]
    return logits, history


def _full_tolerance(logits: np.ndarray, s: SamplingSettings, history) -> np.ndarray:
    """FullRow's bound per token: float32 rounding of the exponent (logit − max) / T."""
    lg = ref_penalized(logits, s, history).astype(np.float64)
    return 1.8e-7 * np.abs(lg - lg.max()) / max(s.temperature, 1e-6) + 3e-7


# -- the rows read as the reference did ------------------------------------------------------


@pytest.mark.parametrize("setting", list(SETTINGS))
@pytest.mark.parametrize("row", list(ROWS))
def test_a_row_reads_as_the_float64_distribution_did(row, setting):
    s = SETTINGS[setting]
    logits, history = _case(row)
    logits.flags.writeable = False  # llama.cpp's logits are read in place, never written
    ref = ref_distribution(logits, s, history)
    got = sampled_row(logits, s, history)
    dense = got.dense()
    if isinstance(got, KeptRow):
        np.testing.assert_array_equal(dense, ref)  # to the last bit
        assert got.p(int(got.ids[-1])) == ref[got.ids[-1]]
        if not ref.all():
            assert got.p(int(np.argmin(ref))) == ref.min() == 0.0
    else:
        assert isinstance(got, FullRow)
        assert s.top_k == 0 and s.top_p == 1.0 and s.min_p == 0.0
        # float32's exponent: no token e^-87 below the top underflows to zero...
        lg = ref_penalized(logits, s, history).astype(np.float64)
        normal = (lg - lg.max()) / max(s.temperature, 1e-6) > -87
        assert set(np.flatnonzero(dense)) >= set(np.flatnonzero(normal & (ref > 0)))
        assert not (dense[ref == 0] > 0).any()
        # ...and each token's probability within the bound, every one of 152k of them
        tol = _full_tolerance(logits, s, history)[normal]
        rel = np.abs(dense[normal] / ref[normal] - 1)
        assert (rel <= tol).all(), float((rel / tol).max())
        for token in (0, N - 1, int(np.argmax(ref))):
            assert got.p(token) == pytest.approx(ref[token], rel=tol.max(), abs=1e-300)
    want, have = ref_top(ref), got.top()
    assert [t for t, _ in have] == [t for t, _ in want]
    for (_, a), (_, b) in zip(have, want, strict=True):
        assert a == pytest.approx(b, rel=1e-6)
    assert got.peak() == pytest.approx(ref.max(), rel=1e-6)
    # the same draws for the same seed
    a, b = np.random.default_rng(11), np.random.default_rng(11)
    same = sum(got.draw(a) == ref_sample(ref, b) for _ in range(200))
    # a FullRow's running sum differs from the float64 one by ~1e-7 at each of its
    # 152k steps, so that one draw in a few hundred lands in a different token
    assert same == 200 if isinstance(got, KeptRow) else same >= 196


def test_the_distribution_vector_is_the_rows():
    """`distribution`, which the engine and llama.cpp's reference tests read, is the row."""
    logits, history = _case("model-like")
    s = SETTINGS["defaults, T 0.8"]
    np.testing.assert_array_equal(sampling.distribution(logits, s, history),
                                  sampled_row(logits, s, history).dense())


def test_float64_logits_read_alike():
    logits, history = _case("peaked")
    for s in (SETTINGS["T 1"], SETTINGS["defaults, T 0.8"]):
        wide = sampled_row(logits.astype(np.float64), s, history).dense()
        np.testing.assert_allclose(wide, ref_distribution(logits, s, history), rtol=1e-6)


@pytest.mark.parametrize("row,partial", [("peaked", True), ("model-like", True),
                                         ("flat", False)])
def test_top_p_sorts_only_the_candidates_it_needs(row, partial, monkeypatch):
    """Over a whole vocabulary top-p sorts the logits near the maximum that hold its
    prefix; a flat row, whose prefix is most of the vocabulary, is sorted (nearly) whole."""
    sorted_sizes: list[int] = []
    ordered = sampling._ordered

    def counting(ids, lg):
        sorted_sizes.append(int(ids.shape[0]))
        return ordered(ids, lg)

    monkeypatch.setattr(sampling, "_ordered", counting)
    logits, history = _case(row)
    s = SETTINGS["top-p 0.9"]
    got = sampled_row(logits, s, history)
    np.testing.assert_array_equal(got.dense(), ref_distribution(logits, s, history))
    if partial:
        assert max(sorted_sizes) < N // 10, sorted_sizes
    else:
        assert sorted_sizes[-1] > N // 2


# -- FullRow's draw: the inverse CDF over its own weights -----------------------------------


class _Fixed:
    """An rng whose `random()` gives the values it was made with."""

    def __init__(self, values: Sequence[float]) -> None:
        self.values = list(values)

    def random(self) -> float:
        return self.values.pop(0)


def test_a_full_rows_draw_is_the_inverse_cdf_of_its_weights():
    rng = np.random.default_rng(4)
    w = rng.random(N).astype(np.float32) ** 8
    w[sampling.BLOCK * 3 : sampling.BLOCK * 5] = 0.0  # two blocks without mass
    w[-100:] = 0.0  # nor the end
    row = FullRow(w)
    cdf = np.cumsum(w, dtype=np.float64)
    us = [0.0, 1e-12, 0.25, 0.5, 0.999999, 1 - 2**-53, *rng.random(300)]
    # u exactly at each block's start
    us += [float(cdf[i - 1] / cdf[-1]) for i in range(sampling.BLOCK, N, sampling.BLOCK)]
    fixed = _Fixed(us)
    for u in us:
        token = row.draw(fixed)
        assert w[token] > 0.0
        want = min(int(np.searchsorted(cdf, u * cdf[-1], side="right")), N - 1)
        # the same token as over one running sum, but where the two sums round apart
        assert token == want or abs(cdf[min(token, want)] - u * cdf[-1]) < 1e-9 * cdf[-1]


# -- verification on rows: the same residuals and verdicts as on the dense vectors --------

PAIRS = [  # (target's setting, drafter's setting, target's row, drafter's row)
    ("defaults, T 0.8", "defaults, T 0.8", "model-like", "model-like"),
    ("T 0.8, top-k 40, top-p 0.95", "T 0.8, top-k 40, top-p 0.95", "peaked", "peaked"),
    ("T 1", "T 1", "model-like", "model-like"),
    ("T 1", "defaults, T 0.8", "peaked", "model-like"),
    ("defaults, T 0.8", "T 1", "peaked", "peaked"),
    ("defaults, T 0.8", "T 1", "model-like", "peaked"),
    ("top-p 0.9", "top-p 0.9", "flat", "flat"),
]


def _draft_logits(target: np.ndarray, seed: int) -> np.ndarray:
    """A drafter's row: the target's, disturbed (it agrees with it on the likeliest)."""
    rng = np.random.default_rng(seed)
    return (target + rng.standard_normal(target.shape[0]).astype(np.float32) * 0.7)


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{p[0]} / {p[1]}, {p[2]}")
def test_residuals_equal_the_dense_ones(pair):
    sp, sq, row_p, row_q = pair
    logits_p, history = _case(row_p)
    logits_q = _draft_logits(_case(row_q)[0], 1)
    s_p, s_q = SETTINGS[sp], SETTINGS[sq]
    p, q = sampled_row(logits_p, s_p, history), sampled_row(logits_q, s_q, history)
    ref_p, ref_q = ref_distribution(logits_p, s_p, history), ref_distribution(logits_q, s_q,
                                                                                history)
    exact = isinstance(p, KeptRow) and isinstance(q, KeptRow)
    for x in (*[t for t, _ in ref_top(ref_q, 3)], int(np.argmin(ref_p))):
        for rq, rrq in ((q, ref_q), (None, None)):
            got = verify.residual(p, rq, x).dense()
            want = ref_residual(ref_p, rrq, x)
            if exact or (rq is None and isinstance(p, KeptRow)):
                np.testing.assert_allclose(got, want, rtol=1e-12, atol=0)
            else:  # the float32 weights' bound, in the difference of two of them
                np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7 * want.max())
            # exactly (in float64) the residual of the distributions the rows draw from:
            # what makes speculative sampling lossless
            own = ref_residual(p.dense(), None if rq is None else rq.dense(), x)
            np.testing.assert_allclose(got, own, rtol=1e-12, atol=1e-15 * own.max())


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{p[0]} / {p[1]}, {p[2]}")
def test_verdicts_equal_the_dense_ones(pair):
    """Three-token drafts drawn from q, verified on rows and on the dense vectors with the
    same seed: the same accepted count, token, draws and token probability."""
    sp, sq, row_p, row_q = pair
    s_p, s_q = SETTINGS[sp], SETTINGS[sq]
    p_rows, q_rows, ref_p, ref_q = [], [], [], []
    for i in range(4):
        logits_p, history = _case(row_p, seed=i)
        logits_q = _draft_logits(_case(row_q, seed=i)[0], 10 + i)
        p_rows.append(sampled_row(logits_p, s_p, history))
        q_rows.append(sampled_row(logits_q, s_q, history))
        ref_p.append(ref_distribution(logits_p, s_p, history))
        ref_q.append(ref_distribution(logits_q, s_q, history))
    exact = all(isinstance(r, KeptRow) for r in (*p_rows, *q_rows))
    draft_rng = np.random.default_rng(2)
    agree = 0
    for seed in range(40):
        drafts = [ref_sample(ref_q[i], draft_rng) for i in range(3)]
        got = verify.verify_sampled(lambda i: p_rows[i], drafts, q_rows[:3],
                                    np.random.default_rng(seed))
        want = ref_verify(ref_p, drafts, ref_q[:3], np.random.default_rng(seed))
        assert (got.n_accepted, got.draws) == (want[0], want[2])  # acceptance: u against p/q
        if got.token == want[1]:
            agree += 1
            # a residual's total is summed over its kept tokens, not the dense vector
            assert got.token_p == pytest.approx(want[3], rel=1e-12 if exact else 1e-5)
    assert agree == 40 if exact else agree >= 38


def test_a_one_hot_draft_is_verified_as_before():
    """An n-gram's draft (q None): rejected, the target's token is drawn from p without it."""
    logits, history = _case("peaked")
    s = SETTINGS["defaults, T 0.8"]
    p, ref = sampled_row(logits, s, history), ref_distribution(logits, s, history)
    x = int(ref_top(ref, 2)[1][0])  # the second likeliest: accepted p(x) of the time
    for seed in range(30):
        got = verify.verify_sampled(lambda i: p, [x], [None], np.random.default_rng(seed))
        want = ref_verify([ref, ref], [x], [None], np.random.default_rng(seed))
        assert (got.n_accepted, got.token, got.draws, got.token_p) == want
