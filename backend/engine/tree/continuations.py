"""Growing a draft tree from a lookup's continuations: the chain it proposes (what followed the
latest earlier occurrence of the n-gram) is the first-choice branch, and what followed its older
occurrences is merged in as a trie, newest first, while the budget lasts. Where they agree with
the chain they share its nodes; where one goes another way it branches, several tokens long,
and the target keeps the continuation it agrees with, which a chain of the newest copy loses.

A lookup proposes deterministically (one-hot q, no probabilities): every node's q is None, and
the sampled walk (tree/verify.py) tries each child one-hot, lossless for any choice of children.
"""

from __future__ import annotations

from collections.abc import Sequence

from backend.engine.tree.structure import ROOT, DraftTree

Copy = tuple[Sequence[int], Sequence[int | None]]  # tokens, where each was copied from


def tree_from_continuations(chain: Copy, others: Sequence[Copy],
                            nodes: int) -> DraftTree | None:
    """The chain as nodes 0..k−1, as tree/step.py reads them, then each of `others` merged
    in, cut where the budget runs out (`nodes`; auto: as many nodes again as the chain
    has, since every row of the batch costs, however cheap the lookup); None when nothing
    branches (the step verifies a chain)."""
    tokens, sources = chain
    if not tokens:
        return None
    budget = 2 * len(tokens) if nodes < 0 else nodes
    if budget <= len(tokens):
        return None
    tree = DraftTree()
    parent = ROOT
    for token, source in zip(tokens, sources, strict=True):
        parent = tree.add(parent, token, source=source)
    for other, where in others:
        parent = ROOT
        for token, source in zip(other, where, strict=True):
            child = next((c for c in tree.children(parent) if tree.tokens[c] == token), None)
            if child is None:
                if len(tree) >= budget:
                    break
                child = tree.add(parent, token, source=source)
            parent = child
    return tree if len(tree) > len(tokens) else None
