"""The sampler transforms, in numpy, applied identically to the target's and the drafter's
logits so that speculative verification compares like with like.

Order as in llama.cpp's default chain: repeat penalty → top-k → top-p → min-p → temperature.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from backend.engine.request import SamplingSettings


def penalized(logits: np.ndarray, s: SamplingSettings, history: Sequence[int]) -> np.ndarray:
    """The logits after the repeat penalty over the last `repeat_last_n` tokens of history.
    Returns the input itself (no copy) when there is no penalty."""
    if s.repeat_penalty == 1.0 or s.repeat_last_n == 0 or not history:
        return logits
    recent = np.fromiter(set(history[-s.repeat_last_n :]), dtype=np.int64)
    out = logits.copy()
    vals = out[recent]
    out[recent] = np.where(vals > 0, vals / s.repeat_penalty, vals * s.repeat_penalty)
    return out


def greedy_token(logits: np.ndarray, s: SamplingSettings, history: Sequence[int]) -> int:
    return int(np.argmax(penalized(logits, s, history)))


TOP_N = 5  # how many of a distribution's most likely tokens the inspector lists
# GreedyRow.top's candidates: the logits within NEARS[0] nats of the maximum (a probability
# at least exp(-6) of the top one's: a model's row has a few dozen such tokens of its 150k),
# else within the next of NEARS until five are; more than CANDIDATES_MAX, and a partition of
# the row is cheaper (1.5 ms at 152k, against 0.05 for a pass).
NEARS = (6.0, 12.0, 24.0)
CANDIDATES_MAX = 4096


class GreedyRow:
    """One row of logits as greedy decoding reads it: its choice (the argmax), and the model's
    own probabilities (softmax at temperature 1), which the inspector shows, given token by
    token from one log-sum-exp rather than as a whole vector.

    At a 152k vocabulary and GPU rates the engine's own work per token was the gap to
    llama.cpp's tools: a float64 softmax of the whole row (0.6 ms a row on the H200 machine's
    CPU) and five argmax passes over its copy for the top five. Here: one float32 exp pass
    summed in float64 (probabilities within 1e-6 of the float64 softmax, checked in
    tests/engine/test_greedy_row.py), and the top five picked among the logits near the
    maximum. The argmax is the logits' own, the same token the softmax's argmax was."""

    __slots__ = ("_lse", "best", "logits")

    def __init__(self, logits: np.ndarray) -> None:
        self.logits = logits
        self.best = int(np.argmax(logits))
        top = logits[self.best]
        self._lse = float(top) + math.log(float(np.exp(logits - top).sum(dtype=np.float64)))

    def p(self, token: int) -> float:
        return math.exp(float(self.logits[token]) - self._lse)

    def top(self, n: int = 0) -> list[tuple[int, float]]:
        """The n (TOP_N) most likely (token, probability) pairs, most likely first, ties by
        the lower id (zeros left out), as `top` gives them for a dense vector."""
        n = n or TOP_N
        lg = self.logits
        # tokens near the maximum: one pass, a handful of candidates; a flat row, where
        # thousands are near it, falls back to a partition
        for d in NEARS:
            near = np.flatnonzero(lg >= lg[self.best] - d)
            if near.shape[0] >= n:
                break
        if near.shape[0] > CANDIDATES_MAX or near.shape[0] < n:
            k = min(n, lg.shape[0])
            near = np.argpartition(lg, lg.shape[0] - k)[lg.shape[0] - k:]
            floor = lg[near].min()
            near = np.flatnonzero(lg >= floor)  # every tie at the edge, then the lower ids
        vals = lg[near]
        order = np.lexsort((near, -vals))[:n]
        out = [(int(near[j]), math.exp(float(vals[j]) - self._lse)) for j in order]
        return [(t, q) for t, q in out if q > 0.0]


def greedy_row(logits: np.ndarray, s: SamplingSettings, history: Sequence[int]) -> GreedyRow:
    """The row after the repeat penalty, read greedily (GreedyRow)."""
    return GreedyRow(penalized(logits, s, history))


class DenseRow:
    """A sampled row's dense distribution (`distribution`) with GreedyRow's reading."""

    __slots__ = ("probs",)

    def __init__(self, probs: np.ndarray) -> None:
        self.probs = probs

    def p(self, token: int) -> float:
        return float(self.probs[token])

    def top(self, n: int = 0) -> list[tuple[int, float]]:
        return top(self.probs, n or TOP_N)




# A verified row as the engine reads it: greedily, or as the sampler's distribution.
Row = GreedyRow | DenseRow


def top(probs: np.ndarray, n: int = TOP_N) -> list[tuple[int, float]]:
    """The n most likely (token, probability) pairs, most likely first (zeros left out).

    n argmax passes over a copy, not argpartition: a sampler's distribution is zero almost
    everywhere, and numpy's introselect on such an array takes milliseconds (measured 6 ms
    on a 49k vocabulary, against 0.05 ms for this), which every step would pay."""
    work = probs.copy()
    out: list[tuple[int, float]] = []
    for _ in range(min(n, probs.shape[0])):
        i = int(np.argmax(work))
        if work[i] <= 0.0:
            break
        out.append((i, float(probs[i])))
        work[i] = -1.0
    return out


def distribution(logits: np.ndarray, s: SamplingSettings, history: Sequence[int]) -> np.ndarray:
    """The dense probability vector the sampler draws from (zero outside the kept set)."""
    lg = penalized(logits, s, history)
    n = lg.shape[0]
    top_k = 0 < s.top_k < n
    ids = np.argpartition(lg, n - s.top_k)[n - s.top_k :] if top_k else np.arange(n)
    cand = lg[ids].astype(np.float64)
    if s.top_p < 1.0 or s.min_p > 0.0:
        # only the nucleus cuts need the candidates in order (sorting a whole vocabulary
        # costs milliseconds, so it is skipped when no cut applies)
        order = np.argsort(-cand, kind="stable")
        ids, cand = ids[order], cand[order]
        probs = np.exp(cand - cand[0])
        probs /= probs.sum()
        keep = len(ids)
        if s.top_p < 1.0:
            # the smallest prefix whose mass reaches top_p (always at least one token)
            keep = min(keep, int(np.searchsorted(np.cumsum(probs), s.top_p)) + 1)
        if s.min_p > 0.0:
            keep = min(keep, max(1, int(np.count_nonzero(probs >= s.min_p * probs[0]))))
        ids, cand = ids[:keep], cand[:keep]
    t = max(s.temperature, 1e-6)
    w = np.exp((cand - cand.max()) / t)
    out = np.zeros(n, dtype=np.float64)
    out[ids] = w / w.sum()
    return out


def sample(probs: np.ndarray, rng: np.random.Generator) -> int:
    """Inverse-CDF draw from a dense probability vector."""
    cdf = np.cumsum(probs)
    return int(min(np.searchsorted(cdf, rng.random() * cdf[-1], side="right"), len(cdf) - 1))
