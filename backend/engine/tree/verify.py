"""Verifying a draft tree: lossless by the same argument as a chain's (backend/engine/verify.py).

Rows: row 0 is the target's distribution after the root (the history's last token), row i + 1
after node i. The walk starts at the root and, at each node, tries its children in rank order.

Greedy: the child equal to the target's argmax is accepted (children are distinct tokens, so
at most one is); none: the argmax is the target's own token and the step ends.

Sampled: a tree's children are the drafter's distinct choices, each taken as a fixed proposal (a
one-hot q), as a lookup's tokens are; a chain token the drafter sampled is one too, since the
rule never reads q: which tokens were proposed cannot bias what is emitted. Child c is accepted
with probability p(c); on rejection p becomes normalize(p with c removed) and the next child is
tried against it; when all are rejected the target's token is drawn from what is left. That is
SpecInfer's / SpecTr's recursive rejection sampling with one-hot proposals, and it draws from p
exactly: child k is emitted with probability Π_{j<k}(1 − p'_j) · p'_k = p(c_k), and any other
token with p of it (a chain is the case of one child per node).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from backend.engine.sampling import SampledRow
from backend.engine.tree.structure import ROOT, DraftTree
from backend.engine.verify import residual


@dataclass(frozen=True, slots=True)
class TreeVerdict:
    path: tuple[int, ...]  # the accepted nodes, root to leaf-ward
    token: int  # the target's own token after the path (correction or bonus)
    # sampled only, for the inspector: (child, the draw u, its acceptance probability: its p
    # with the siblings tried before it removed) for each child tried, in the order tried,
    # and the token's probability under the distribution it was drawn from
    draws: tuple[tuple[int, float, float], ...] = ()
    token_p: float | None = None


def verify_tree_greedy(target_choice: Callable[[int], int], tree: DraftTree) -> TreeVerdict:
    """`target_choice(row)` is the target's greedy token at that row (lazy: rows off the
    accepted path are never read)."""
    path: list[int] = []
    node = ROOT
    while True:
        best = target_choice(node + 1)
        child = next((c for c in tree.children(node) if tree.tokens[c] == best), None)
        if child is None:
            return TreeVerdict(tuple(path), best)
        path.append(child)
        node = child


def verify_tree_sampled(target_dist: Callable[[int], SampledRow], tree: DraftTree,
                        rng: np.random.Generator) -> TreeVerdict:
    """`target_dist(row)` is p at that row (the sampler's transformed distribution)."""
    path: list[int] = []
    draws: list[tuple[int, float, float]] = []
    node = ROOT
    while True:
        p = target_dist(node + 1)
        accepted = None
        for child in tree.children(node):
            x = tree.tokens[child]
            u, px = rng.random(), p.p(x)
            draws.append((child, u, px))
            if u < px:
                accepted = child
                break
            p = residual(p, None, x)
        if accepted is None:
            token = p.draw(rng)
            return TreeVerdict(tuple(path), token, tuple(draws), p.p(token))
        path.append(accepted)
        node = accepted
