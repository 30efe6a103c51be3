"""Growing a draft tree from a drafter's chain: the chain is the first-choice branch, and at
each of its depths the drafter's next most likely tokens (read from the rows it drafted with,
`Proposal.tops`) are added as leaves, the likeliest paths first (the chain's probability up
to the parent times the alternative's), while the budget lasts. "Auto" adds an alternative
only where the drafter was unsure of its first choice.

So every branch is the chain up to some depth and then, at most, one other token: the target
keeps that token where it disagrees with the first choice and agrees with the second, which a
chain loses. Alternatives continued beyond one token would need the drafter to decode each
branch; they are not grown here.
"""

from __future__ import annotations

import heapq

from backend.engine.drafters.base import Proposal
from backend.engine.tree.structure import ROOT, DraftTree

AUTO = -1  # tree_nodes: as many as the drafter's doubts ask for, up to twice the chain
UNSURE = 0.8  # auto: an alternative where the first choice's probability is below this
ALTERNATIVES = 2  # per depth at most: the second and third choices


def _q(proposal: Proposal, i: int, token: int) -> float:
    p = proposal.p_draft[i] if i < len(proposal.p_draft) else None
    if p is None:
        row = proposal.tops[i] if i < len(proposal.tops) else None
        p = row.p(token) if row is not None else 1.0
    return float(p)


def tree_from_chain(proposal: Proposal, k: int, nodes: int) -> DraftTree | None:
    """The tree of the chain's first `k` tokens and its alternatives, at most `nodes` nodes
    (AUTO: see above); None when nothing would branch (the step verifies a chain)."""
    chain = proposal.tokens[:k]
    if not chain:
        return None
    budget = 2 * len(chain) if nodes == AUTO else nodes
    if budget <= len(chain):
        return None
    tree = DraftTree()
    parent, reach = ROOT, 1.0  # the chain's probability up to the parent
    candidates: list[tuple[float, int, int, int, float]] = []  # (−score, depth, rank, tok, q)
    for depth, token in enumerate(chain):
        q = _q(proposal, depth, token)
        row = proposal.tops[depth] if depth < len(proposal.tops) else None
        if row is not None and (nodes != AUTO or q < UNSURE):
            others = [(t, p) for t, p in row.top() if t != token][:ALTERNATIVES]
            for rank, (t, p) in enumerate(others):
                heapq.heappush(candidates, (-reach * p, depth, rank, t, p))
        parent = tree.add(parent, token, q)
        reach *= q
    chain_nodes = list(range(len(chain)))
    while candidates and len(tree) < budget:
        _, depth, _, token, p = heapq.heappop(candidates)
        tree.add(ROOT if depth == 0 else chain_nodes[depth - 1], token, p)
    return tree if len(tree) > len(chain) else None
