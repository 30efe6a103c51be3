"""Continuing a tree's alternatives: the second and third choices `grow.py` adds are one token
long; a drafter that can decode them (a draft model, in forks of its cache: drafters/
draft_model.py) goes on drafting after each, level by level, one batch a level, so that where
the target keeps an alternative it can keep what follows it too.

Which branches go on, best first by their path probability (the drafter's q along the path):
with a node budget, while it lasts; under K auto (`worth`, tree/grow.py's `row_worth`), while
the continued path's probability repays its batch row, as an alternative's must. No branch goes
deeper than the chain it grew beside.
"""

from __future__ import annotations

from collections.abc import Callable

from backend.engine.tree.structure import DraftTree

# Given the nodes to continue, the drafter's next token after each and its probability (None:
# it cannot continue that one).
NextTokens = Callable[[list[int]], list[tuple[int, float] | None]]


def path_probability(tree: DraftTree, node: int) -> float:
    p = 1.0
    for n in tree.path(node):
        q = tree.q[n]
        p *= 1.0 if q is None else q
    return p


def extend_alternatives(tree: DraftTree, chain_len: int, budget: int, worth: float | None,
                        next_tokens: NextTokens) -> int:
    """Grow each alternative leaf of `tree` (rank > 0, beside the chain) by the drafter's next
    tokens, at most `budget` nodes in all; how many levels were decoded."""
    def fits(node: int) -> bool:
        return tree.depth(node) < chain_len and (
            worth is None or path_probability(tree, node) >= worth)

    has_child = set(tree.parents)
    frontier = [n for n in range(len(tree)) if tree.ranks[n] > 0 and n not in has_child]
    levels = 0
    while frontier and budget > 0:
        frontier = sorted((n for n in frontier if fits(n)),
                          key=lambda n: -path_probability(tree, n))[:budget]
        if not frontier:
            break
        nexts = next_tokens(frontier)
        levels += 1
        grown = [tree.add(node, *nxt) for node, nxt in zip(frontier, nexts, strict=True)
                 if nxt is not None]
        budget -= len(grown)
        frontier = grown
    return levels

