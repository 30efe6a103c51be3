"""The sampler's float64 math as it was before `sampling.sampled_row`: a dense float64 vector
per row, a full sort for top-p without top-k, the top five by argmax passes, inverse-CDF draws
over the dense vector. The reference tests/engine/test_sampled_row.py checks the rows against,
and the baseline bench/sampled_row_bench.py times them against."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from backend.engine.request import SamplingSettings


def ref_penalized(logits: np.ndarray, s: SamplingSettings, history: Sequence[int]) -> np.ndarray:
    if s.repeat_penalty == 1.0 or s.repeat_last_n == 0 or not history:
        return logits
    recent = np.fromiter(set(history[-s.repeat_last_n :]), dtype=np.int64)
    out = logits.copy()
    vals = out[recent]
    out[recent] = np.where(vals > 0, vals / s.repeat_penalty, vals * s.repeat_penalty)
    return out


def ref_distribution(logits: np.ndarray, s: SamplingSettings,
                     history: Sequence[int]) -> np.ndarray:
    lg = ref_penalized(logits, s, history)
    n = lg.shape[0]
    top_k = 0 < s.top_k < n
    ids = np.argpartition(lg, n - s.top_k)[n - s.top_k :] if top_k else np.arange(n)
    cand = lg[ids].astype(np.float64)
    if s.top_p < 1.0 or s.min_p > 0.0:
        order = np.argsort(-cand, kind="stable")
        ids, cand = ids[order], cand[order]
        probs = np.exp(cand - cand[0])
        probs /= probs.sum()
        keep = len(ids)
        if s.top_p < 1.0:
            keep = min(keep, int(np.searchsorted(np.cumsum(probs), s.top_p)) + 1)
        if s.min_p > 0.0:
            keep = min(keep, max(1, int(np.count_nonzero(probs >= s.min_p * probs[0]))))
        ids, cand = ids[:keep], cand[:keep]
    t = max(s.temperature, 1e-6)
    w = np.exp((cand - cand.max()) / t)
    out = np.zeros(n, dtype=np.float64)
    out[ids] = w / w.sum()
    return out


def ref_top(probs: np.ndarray, n: int = 5) -> list[tuple[int, float]]:
    work = probs.copy()
    out: list[tuple[int, float]] = []
    for _ in range(min(n, probs.shape[0])):
        i = int(np.argmax(work))
        if work[i] <= 0.0:
            break
        out.append((i, float(probs[i])))
        work[i] = -1.0
    return out


def ref_sample(probs: np.ndarray, rng: np.random.Generator) -> int:
    cdf = np.cumsum(probs)
    return int(min(np.searchsorted(cdf, rng.random() * cdf[-1], side="right"), len(cdf) - 1))


def ref_residual(p: np.ndarray, q: np.ndarray | None, x: int) -> np.ndarray:
    if q is None:
        r = p.copy()
        r[x] = 0.0
    else:
        r = np.maximum(p - q, 0.0)
    total = r.sum()
    return p if total <= 0.0 else r / total
