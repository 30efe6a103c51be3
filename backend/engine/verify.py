"""Verification of a draft against the target: lossless by construction.

Greedy (temperature 0): accept drafted tokens while they equal the target's argmax.
Sampling: speculative sampling (Leviathan et al. 2022; Chen et al. 2023). Draft token x at
position i is accepted with probability min(1, p_i(x) / q_i(x)); on rejection the target's
token is drawn from normalize(max(0, p_i − q_i)); when every draft is accepted a bonus token is
drawn from p_K. The emitted tokens are then distributed exactly as the target's own samples.
A drafter without a distribution (n-gram lookup, a greedy MTP head) has a one-hot q.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from backend.engine.sampling import DenseRow, FullRow, KeptRow, SampledRow


@dataclass(frozen=True, slots=True)
class Verdict:
    n_accepted: int
    token: int  # the target's own token after the accepted prefix (correction or bonus)
    # Sampled verification only, kept for the inspector: the uniform draw u each examined
    # draft was compared with, and the token's probability under the distribution it was
    # drawn from (the residual after a rejection, else p).
    draws: tuple[float, ...] = ()
    token_p: float | None = None


def verify_greedy(target_choice: Callable[[int], int], drafts: Sequence[int]) -> Verdict:
    """`target_choice(i)` is the target's greedy token at verify position i (computed lazily,
    so positions after the first mismatch cost nothing)."""
    for i, x in enumerate(drafts):
        t = target_choice(i)
        if t != x:
            return Verdict(i, t)
    return Verdict(len(drafts), target_choice(len(drafts)))


def residual(p: SampledRow, q: SampledRow | None, x: int) -> SampledRow:
    """normalize(max(0, p − q)): the part of the target's mass the draft under-proposed.
    With a one-hot q at x that is p with x removed; p itself where nothing is left (p == q:
    a rejection is then impossible, but it stays defined). Made only after a rejection, over
    p's kept tokens, or over the vocabulary in float64 from the weights both rows draw with."""
    if isinstance(p, DenseRow) or isinstance(q, DenseRow):
        r = p.dense().copy() if q is None else np.maximum(p.dense() - q.dense(), 0.0)
        if q is None:
            r[x] = 0.0
        total = r.sum()
        return p if total <= 0.0 else DenseRow(r / total)
    if isinstance(p, KeptRow):
        if q is None:
            kept = np.where(p.ids == x, 0.0, p.probs)
        else:
            kept = np.maximum(p.probs - q.at(p.ids), 0.0)
        total = kept.sum()
        return p if total <= 0.0 else KeptRow(p.ids, kept / total, p.n_vocab)
    # in p's weights (FullRow normalises), one float64 array made
    if isinstance(q, FullRow):
        r = np.multiply(q.weights, -p.total / q.total, dtype=np.float64)
        r += p.weights
    else:
        r = p.weights.astype(np.float64)
        if q is None:
            r[x] = 0.0
        else:
            r[q.ids] -= q.probs * p.total
    np.maximum(r, 0.0, out=r)
    row = FullRow(r)
    return p if row.total <= 0.0 else row


def _row(d: SampledRow | np.ndarray) -> SampledRow:
    return DenseRow(d) if isinstance(d, np.ndarray) else d


def verify_sampled(
    target_dist: Callable[[int], SampledRow | np.ndarray],
    drafts: Sequence[int],
    draft_dists: Sequence[SampledRow | np.ndarray | None],
    rng: np.random.Generator,
) -> Verdict:
    """`target_dist(i)` is p_i, the target's transformed distribution at verify position i
    (lazy); `draft_dists[i]` is q_i, or None when the drafter proposed deterministically.
    Either is a row (sampling.sampled_row) or a dense probability vector. p(x) and q(x) are
    the probabilities the rows' own draws give x, so acceptance, residual and draws use the
    same numbers."""
    draws: list[float] = []
    for i, x in enumerate(drafts):
        p = _row(target_dist(i))
        dq = draft_dists[i]
        q = None if dq is None else _row(dq)
        qx = 1.0 if q is None else q.p(x)
        px = p.p(x)
        u = rng.random()
        draws.append(u)
        if qx > 0.0 and u * qx < px:  # u < p/q, without dividing by zero
            continue
        r = residual(p, q, x)
        token = r.draw(rng)
        return Verdict(i, token, tuple(draws), r.p(token))
    p = _row(target_dist(len(drafts)))
    token = p.draw(rng)
    return Verdict(len(drafts), token, tuple(draws), p.p(token))
