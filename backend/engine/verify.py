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

from backend.engine.sampling import sample


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


def residual(p: np.ndarray, q: np.ndarray | None, x: int) -> np.ndarray:
    """normalize(max(0, p − q)): the part of the target's mass the draft under-proposed.
    With a one-hot q at x that is p with x removed."""
    if q is None:
        r = p.copy()
        r[x] = 0.0
    else:
        r = np.maximum(p - q, 0.0)
    total = r.sum()
    if total <= 0.0:  # p == q: a rejection is then impossible, but stay defined
        return p
    return r / total


def verify_sampled(
    target_dist: Callable[[int], np.ndarray],
    drafts: Sequence[int],
    draft_dists: Sequence[np.ndarray | None],
    rng: np.random.Generator,
) -> Verdict:
    """`target_dist(i)` is p_i, the target's transformed distribution at verify position i
    (lazy); `draft_dists[i]` is q_i, or None when the drafter proposed deterministically."""
    draws: list[float] = []
    for i, x in enumerate(drafts):
        p = target_dist(i)
        q = draft_dists[i]
        qx = 1.0 if q is None else float(q[x])
        px = float(p[x])
        u = rng.random()
        draws.append(u)
        if qx > 0.0 and u * qx < px:  # u < p/q, without dividing by zero
            continue
        r = residual(p, q, x)
        token = sample(r, rng)
        return Verdict(i, token, tuple(draws), float(r[token]))
    p = target_dist(len(drafts))
    token = sample(p, rng)
    return Verdict(len(drafts), token, tuple(draws), float(p[token]))
