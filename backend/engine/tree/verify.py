"""Verifying a draft tree: lossless by the same argument as a chain's (backend/engine/verify.py).

Rows: row 0 is the target's distribution after the root (the history's last token), row i + 1
after node i. The walk starts at the root and, at each node, tries its children in rank order.

Greedy: the child equal to the target's argmax is accepted (children are distinct tokens, so
at most one is); none: the argmax is the target's own token and the step ends.

Sampled: SpecInfer's / SpecTr's recursive rejection sampling, children tried in rank order. A
node's first child may be a draw from the drafter's q (the chain's token, sampled: `draft_dists`):
it is accepted with probability min(1, p(x)/q(x)) and on rejection p becomes the chain's residual
normalize(max(0, p − q)) (verify.py). Every other child is a fixed proposal (one-hot): the
drafter's next most likely tokens, a continuation, a lookup's copy. Child c is accepted with
probability p'(c) and on rejection p' becomes normalize(p' with c removed); when all are
rejected the target's token is drawn from what is left. Given the children, the one-hot walk
emits exactly p' (child k with Π_{j<k}(1 − p'_j) · p'_k = p'(c_k), any other token with p' of
it), whatever chose them; so after the first child's rejection, whose residual does not depend
on which token was drawn, the output is still p. q for every child would be biased (SpecInfer
draws its children independently, with replacement): a q'd child after a one-hot one is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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
                        rng: np.random.Generator,
                        draft_dists: Sequence[SampledRow | None] = ()) -> TreeVerdict:
    """`target_dist(row)` is p at that row (the sampler's transformed distribution);
    `draft_dists[node]`, the q a first child was drawn from (None or absent: one-hot)."""
    path: list[int] = []
    draws: list[tuple[int, float, float]] = []
    node = ROOT
    while True:
        p = target_dist(node + 1)
        accepted = None
        for child in tree.children(node):
            x = tree.tokens[child]
            q = draft_dists[child] if child < len(draft_dists) else None
            if q is not None and tree.ranks[child] != 0:
                raise ValueError(f"node {child} is not a first child: it cannot carry a q")
            qx = 1.0 if q is None else q.p(x)
            u = rng.random()
            accept = min(1.0, p.p(x) / qx) if qx > 0.0 else 0.0
            draws.append((child, u, accept))
            if u < accept:
                accepted = child
                break
            p = residual(p, q, x)
        if accepted is None:
            token = p.draw(rng)
            return TreeVerdict(tuple(path), token, tuple(draws), p.p(token))
        path.append(accepted)
        node = accepted
