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


def tree_from_continuations(chain: Sequence[int], chain_from: int,
                            others: Sequence[tuple[int, Sequence[int]]],
                            nodes: int) -> DraftTree | None:
    """The chain (copied from position `chain_from` of the history) as nodes 0..k−1, as
    tree/step.py reads them, then each of `others` ((where it was copied from, its tokens))
    merged in, cut where the budget runs out (`nodes`; auto: as many nodes again as the chain
    has, since every row of the batch costs, however cheap the lookup); None when nothing
    branches (the step verifies a chain)."""
    if not chain:
        return None
    budget = 2 * len(chain) if nodes < 0 else nodes
    if budget <= len(chain):
        return None
    tree = DraftTree()
    parent = ROOT
    for i, token in enumerate(chain):
        parent = tree.add(parent, token, source=chain_from + i)
    for start, tokens in others:
        parent = ROOT
        for i, token in enumerate(tokens):
            child = next((c for c in tree.children(parent) if tree.tokens[c] == token), None)
            if child is None:
                if len(tree) >= budget:
                    break
                child = tree.add(parent, token, source=start + i)
            parent = child
    return tree if len(tree) > len(chain) else None
