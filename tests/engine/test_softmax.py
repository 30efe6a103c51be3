"""The greedy path's softmax: the model's own distribution, computed in place on a copy."""

from __future__ import annotations

import numpy as np
import pytest

from backend.engine.sampling import softmax


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_softmax_is_the_float64_formula_and_leaves_the_logits_alone(dtype):
    logits = (np.random.default_rng(5).standard_normal(4096) * 6).astype(dtype)
    before = logits.copy()
    p = softmax(logits)
    shifted = (logits - logits.max()).astype(np.float64)
    expected = np.exp(shifted) / np.exp(shifted).sum()
    assert p.dtype == np.float64
    np.testing.assert_allclose(p, expected, rtol=1e-12, atol=0)
    assert p.sum() == pytest.approx(1.0, abs=1e-12)
    # exp runs in place: on the copy, never on the caller's (float64) logits
    np.testing.assert_array_equal(logits, before)
