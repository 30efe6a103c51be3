"""Growing a draft tree from a drafter's chain: the chain is the first-choice branch, and at
each of its depths the drafter's next most likely tokens (read from the rows it drafted with,
`Proposal.tops`) are added as leaves, the likeliest paths first (the chain's probability up
to the parent times the alternative's), while the budget lasts. "Auto" adds an alternative
only where the drafter was unsure of its first choice.

So every branch is the chain up to some depth and then one other token: the target keeps that
token where it disagrees with the first choice and agrees with the second, which a chain loses.
A drafter that can decode the alternatives continues them after (tree/extend.py): with a node
budget, the alternatives then take half of what the chain leaves, the continuations the rest.

Auto under K auto (`worth` given): an alternative at depth d is kept by the target when the
chain up to d was and the target's token there is that alternative; it then gains exactly one
token (the target's token after it: without it the step would have ended on the same token as
a correction). Its expected gain is about the path probability `reach · q` tokens (the
drafter's q standing in for the target's choice), its cost one more batch row: the slope b of
K auto's verify line (verify_costs.py). So alternatives are added best first while
`reach · q · (ms a token) ≥ b`, i.e. while the score is at least `row_worth(...)`. With a fixed
K there is no measured cost: the unsure rule above.
"""

from __future__ import annotations

import heapq

from backend.engine.drafters.base import Proposal
from backend.engine.tree.structure import ROOT, DraftTree

AUTO = -1  # tree_nodes: as many as the drafter's doubts ask for, up to twice the chain
MAX_NODES = 64  # auto under K auto: the most nodes a tree grows to (request.tree_nodes' max)
UNSURE = 0.8  # auto: an alternative where the first choice's probability is below this
ALTERNATIVES = 2  # per depth at most: the second and third choices


def _q(proposal: Proposal, i: int, token: int) -> float:
    p = proposal.p_draft[i] if i < len(proposal.p_draft) else None
    if p is None:
        row = proposal.tops[i] if i < len(proposal.tops) else None
        p = row.p(token) if row is not None else 1.0
    return float(p)


def row_worth(row_ms: float, step_ms: float, tokens_per_step: float) -> float:
    """The least path probability an alternative needs to repay its batch row (`row_ms`, the
    verify line's slope) in tokens at this answer's pace (`step_ms` for `tokens_per_step`)."""
    if step_ms <= 0.0 or tokens_per_step <= 0.0:
        return 1.0  # nothing measured: no alternative is known to repay its row
    return row_ms / (step_ms / tokens_per_step)


def budget(nodes: int, k: int, worth: float | None) -> int:
    """The most nodes a tree around a chain of k tokens grows to."""
    if nodes != AUTO:
        return nodes
    return MAX_NODES if worth is not None else 2 * k


def tree_from_chain(proposal: Proposal, k: int, nodes: int, worth: float | None = None,
                    continued: bool = False) -> DraftTree | None:
    """The tree of the chain's first `k` tokens and its alternatives, at most `nodes` nodes
    (AUTO: see above, by `worth` where K auto measured it), leaving half the spare nodes to
    continue the alternatives when they will be (`continued`); None when nothing would
    branch (the step verifies a chain)."""
    chain = proposal.tokens[:k]
    if not chain:
        return None
    by_worth = nodes == AUTO and worth is not None
    most = budget(nodes, len(chain), worth)
    if continued and not by_worth:
        most = len(chain) + (most - len(chain) + 1) // 2
    if most <= len(chain):
        return None
    tree = DraftTree()
    parent, reach = ROOT, 1.0  # the chain's probability up to the parent
    candidates: list[tuple[float, int, int, int, float]] = []  # (−score, depth, rank, tok, q)
    for depth, token in enumerate(chain):
        q = _q(proposal, depth, token)
        row = proposal.tops[depth] if depth < len(proposal.tops) else None
        if row is not None and (nodes != AUTO or by_worth or q < UNSURE):
            others = [(t, p) for t, p in row.top() if t != token][:ALTERNATIVES]
            for rank, (t, p) in enumerate(others):
                heapq.heappush(candidates, (-reach * p, depth, rank, t, p))
        parent = tree.add(parent, token, q)
        reach *= q
    chain_nodes = list(range(len(chain)))
    while candidates and len(tree) < most:
        score, depth, _, token, p = heapq.heappop(candidates)
        if by_worth and -score < (worth or 0.0):
            break  # best first: none after it repays its row either
        tree.add(ROOT if depth == 0 else chain_nodes[depth - 1], token, p)
    return tree if len(tree) > len(chain) else None
