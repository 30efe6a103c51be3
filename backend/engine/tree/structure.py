"""A draft tree: nodes that each continue their parent by one token, rooted at the last token
of the history (which the target has not decoded yet, as in a chain's step).

Node i has a parent (ROOT or an earlier node, so a list in the order drafted is already in
topological order), a token, the drafter's q of it and its rank among its siblings (0 for the
drafter's first choice). The children of a node are distinct tokens, tried in rank order by
verification (`tree/verify.py`).

For one llama.cpp batch each leaf gets a sequence id of its own, and every node carries the ids
of the leaves below it: a query then sees exactly the cells of its own branch (tree attention,
shared/ENGINE-NOTES.md). Sequence 0 is the first choice's branch, so the history, which lives
in sequence 0, is copied to the other leaves' ids before the batch.
"""

from __future__ import annotations

from dataclasses import dataclass, field

ROOT = -1  # the parent of a first-level node: the history's last token


@dataclass
class DraftTree:
    tokens: list[int] = field(default_factory=list)
    parents: list[int] = field(default_factory=list)
    q: list[float | None] = field(default_factory=list)  # the drafter's probability of each
    ranks: list[int] = field(default_factory=list)
    # a lookup's: where in the history each token was copied from (None: not copied)
    sources: list[int | None] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.tokens)

    def add(self, parent: int, token: int, q: float | None = None,
            source: int | None = None) -> int:
        """A new node under `parent` (ROOT or a node); its index. A sibling's token twice would
        be verified twice: refused."""
        if parent != ROOT and not 0 <= parent < len(self.tokens):
            raise ValueError(f"no node {parent} to continue")
        siblings = self.children(parent)
        if any(self.tokens[s] == token for s in siblings):
            raise ValueError(f"token {token} is already a child of node {parent}")
        self.tokens.append(token)
        self.parents.append(parent)
        self.q.append(q)
        self.ranks.append(len(siblings))
        self.sources.append(source)
        return len(self.tokens) - 1

    def children(self, node: int) -> list[int]:
        """`node`'s children (ROOT: the first level) in rank order."""
        return [i for i, p in enumerate(self.parents) if p == node]

    def depth(self, node: int) -> int:
        """1 for a first-level node: its position is the root's + depth."""
        d = 0
        while node != ROOT:
            node, d = self.parents[node], d + 1
        return d

    def path(self, node: int) -> list[int]:
        """The nodes from the first level down to `node`."""
        out: list[int] = []
        while node != ROOT:
            out.append(node)
            node = self.parents[node]
        return out[::-1]

    def leaves(self) -> list[int]:
        """Nodes without children, first choices first: the leaf of rank-0 nodes all the way
        down comes first, so it gets sequence 0."""
        has_child = set(self.parents)
        leaves = [i for i in range(len(self.tokens)) if i not in has_child]
        return sorted(leaves, key=lambda leaf: [self.ranks[n] for n in self.path(leaf)])

    def sequences(self) -> list[list[int]]:
        """Per node, the sequence ids of the leaves below it (its own, for a leaf); the root
        belongs to all of them, 0 to n_leaves − 1."""
        seqs: list[list[int]] = [[] for _ in self.tokens]
        for s, leaf in enumerate(self.leaves()):
            for node in self.path(leaf):
                seqs[node].append(s)
        return seqs
