"""A greedy row read token by token (sampling.GreedyRow): the same choice, probabilities and top
five as the float64 softmax of the whole row that it replaces, without making that vector."""

from __future__ import annotations

import numpy as np
import pytest

from backend.engine.request import SamplingSettings
from backend.engine.sampling import TOP_N, GreedyRow, greedy_row, top


def softmax64(logits: np.ndarray) -> np.ndarray:
    shifted = (logits - logits.max()).astype(np.float64)
    e = np.exp(shifted)
    return e / e.sum()


ROWS = {
    "peaked, 152k": lambda rng: np.concatenate([rng.standard_normal(151935) * 3, [40.0]]),
    # thousands of candidates near the top
    "flat": lambda rng: rng.standard_normal(8192) * 0.01,
    "all equal": lambda rng: np.zeros(10_000),
    "ties at the top": lambda rng: np.array([1.0, 5.0, 5.0, 2.0, 5.0, 5.0, 5.0, 5.0, 0.0]),
    "tiny vocabulary": lambda rng: np.array([0.5, 3.0]),
    "far apart": lambda rng: np.array([0.0, -200.0, -900.0, 10.0]),
    # the largest logit at either end of the range summed without a shifted copy, and past it
    "high": lambda rng: np.concatenate([rng.standard_normal(50_000) * 3 + 60.0, [79.5]]),
    "overflowing": lambda rng: np.concatenate([rng.standard_normal(50_000) * 3 + 80.0, [95.0]]),
    "low, with subnormal exps": lambda rng: np.concatenate(
        [rng.standard_normal(50_000) * 30 - 120.0, [-39.0]]),
    "very low": lambda rng: rng.standard_normal(50_000) * 3 - 200.0,
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", list(ROWS))
def test_a_greedy_row_reads_as_the_float64_softmax_did(name, dtype):
    logits = ROWS[name](np.random.default_rng(3)).astype(dtype)
    before = logits.copy()
    row = GreedyRow(logits)
    probs = softmax64(logits)
    assert row.best == int(np.argmax(probs))  # the same choice, ties to the lower id
    for token in {row.best, 0, len(logits) - 1}:
        assert row.p(token) == pytest.approx(float(probs[token]), rel=1e-6, abs=1e-300)
    want = top(probs, TOP_N)
    got = row.top()
    assert [t for t, _ in got] == [t for t, _ in want]
    for (_, q), (_, p) in zip(got, want, strict=True):
        assert q == pytest.approx(p, rel=1e-6)
    np.testing.assert_array_equal(logits, before)  # the caller's logits are left alone


def test_the_repeat_penalty_applies_before_the_choice():
    logits = np.array([1.0, 4.0, 3.5], dtype=np.float32)
    s = SamplingSettings(repeat_penalty=2.0, repeat_last_n=8)
    row = greedy_row(logits, s, [1])
    assert row.best == 2  # token 1's 4.0 penalised to 2.0
    assert row.p(2) == pytest.approx(float(softmax64(np.array([1.0, 2.0, 3.5]))[2]), rel=1e-6)


def test_a_row_of_llama_cpps_buffer_is_penalised_in_place_to_the_same_values():
    rng = np.random.default_rng(5)
    buffer = (rng.standard_normal((2, 151_936)) * 3).astype(np.float32)
    history = [int(t) for t in rng.integers(0, 151_936, size=200)]
    s = SamplingSettings(repeat_penalty=1.3, repeat_last_n=64)
    copied = greedy_row(buffer[1].copy(), s, history)
    view = buffer[1]
    row = greedy_row(view, s, history, in_place=True)
    assert row.logits is view  # no copy of the vocabulary
    np.testing.assert_array_equal(view, copied.logits)  # the buffer holds the penalised row
    assert row.best == copied.best and row.top() == copied.top()
    assert row.p(row.best) == copied.p(copied.best)
