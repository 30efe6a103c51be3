"""What a token tree is expected to gain and cost: the chain's cost model (engine/speedup_model.py)
with acceptance by depth *and rank*, and the verify batch priced by its rows (issue 42).

A tree's walk (engine/tree/verify.py) reaches a node's children once the node is kept, and tries
them in rank order until one is accepted. So α(d, r), the chance that the rank-r child at depth d
is accepted when tried, is counted over the children the walk did try; and a child is kept with

    P(kept child r of n) = P(kept n) · Π_{j<r} (1 − α(d, j)) · α(d, r)

(a chain is the case of one rank: P(kept i) = α₁⋯α_i). A step makes E = 1 + Σ P(kept node)
tokens and costs its drafting, the verify batch of (nodes + 1) rows on the verify line, and its
overhead. From an answer's own tree steps that predicts its tokens/s, which the benchmark
(bench/tree_bench.py) holds against the answer's measured rate.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace

from backend.engine.events import StepVerified, TreeNode, tree_children
from backend.engine.median_line import median_points, weighted_line

ROOT = -1


@dataclass(frozen=True, slots=True)
class RankAcceptance:
    """How the children tried at one (depth, rank) fared: depth 1 is the root's children."""

    depth: int
    rank: int
    n_tried: int
    n_accepted: int

    @property
    def alpha(self) -> float:
        return self.n_accepted / self.n_tried if self.n_tried else 0.0


def depths(tree: Sequence[TreeNode]) -> list[int]:
    """Each node's depth (1 under the root); nodes come after their parents."""
    out: list[int] = []
    for node in tree:
        out.append(1 if node.parent == ROOT else out[node.parent] + 1)
    return out


Shape = Sequence[TreeNode]  # a step's tree, or its chain as one


def chain_shape(drafted: int, accepted: int) -> tuple[TreeNode, ...]:
    """A chain of `drafted` tokens, the first `accepted` kept, as a tree: each draft the
    rank-0 child of the one before."""
    return tuple(TreeNode(i - 1, 0, "", None, None, 0, i < accepted) for i in range(drafted))


def shape(step: StepVerified) -> Shape:
    """The step's tree, or its chain as one."""
    if step.tree:
        return step.tree
    return chain_shape(len(step.drafted), sum(1 for t in step.drafted if t.accepted))


def first_choices(tree: Shape) -> tuple[TreeNode, ...]:
    """The chain a tree grew from (its rank-0 nodes from the root down), as a chain shape."""
    out: list[TreeNode] = []
    node = ROOT
    while (child := next((i for i, n in enumerate(tree) if n.parent == node and n.rank == 0),
                         None)) is not None:
        out.append(replace(tree[child], parent=len(out) - 1))
        node = child
    return tuple(out)


def acceptance_by_rank(shapes: Sequence[Shape]) -> dict[tuple[int, int], RankAcceptance]:
    """α(d, r) from the steps' shapes (chains are rank 0 alone): under the root and every kept
    node, the children up to the one kept (all of them when none was) were tried."""
    tried: dict[tuple[int, int], list[int]] = {}
    for tree in shapes:
        depth, kids = depths(tree), tree_children(tree)
        for parent in [ROOT, *(i for i, n in enumerate(tree) if n.kept)]:
            for child in kids.get(parent, []):
                counts = tried.setdefault((depth[child], tree[child].rank), [0, 0])
                counts[0] += 1
                counts[1] += tree[child].kept
                if tree[child].kept:
                    break
    return {key: RankAcceptance(*key, n, a) for key, (n, a) in sorted(tried.items())}


def _alpha(table: dict[tuple[int, int], RankAcceptance], depth: int, rank: int) -> float:
    """α(d, r); a depth never tried takes the deepest tried one's at that rank, else 0."""
    if (depth, rank) in table:
        return table[(depth, rank)].alpha
    known = [d for d, r in table if r == rank and d < depth]
    return table[(max(known), rank)].alpha if known else 0.0


def expected_tokens(tree: Sequence[TreeNode],
                    table: dict[tuple[int, int], RankAcceptance]) -> float:
    """E: the tokens a step with this tree's shape is expected to make, 1 + Σ P(kept)."""
    depth, kids = depths(tree), tree_children(tree)
    p_kept = {ROOT: 1.0}
    total = 1.0
    for parent in [ROOT, *range(len(tree))]:  # parents come before their children
        reach = p_kept.get(parent, 0.0)
        for child in kids.get(parent, []):
            a = _alpha(table, depth[child], tree[child].rank)
            p_kept[child] = reach * a
            total += reach * a
            reach *= 1.0 - a
    return total


@dataclass(frozen=True, slots=True)
class TreePrediction:
    tokens_per_step: float  # E, averaged over the answer's steps
    ms_per_step: float  # drafting + the verify line at the step's rows + overhead
    measured_tokens_per_step: float | None  # None: a step the answer did not take (a chain)

    @property
    def tokens_per_second(self) -> float:
        return 1000.0 * self.tokens_per_step / self.ms_per_step if self.ms_per_step else 0.0


def rows(step: StepVerified) -> int:
    """The verify batch's rows: the tree's nodes, or the chain's drafts, and the root."""
    return len(shape(step)) + 1


def predict(steps: Sequence[StepVerified], overhead_ms: float) -> TreePrediction | None:
    """The rate an answer's steps predict (see `predict_shapes`); None without steps."""
    pair = predict_shapes([shape(s) for s in steps], [s.draft_ms for s in steps],
                          [s.verify_ms for s in steps], [len(s.emitted) for s in steps],
                          overhead_ms)
    return pair[0] if pair is not None else None


def predict_shapes(shapes: Sequence[Shape], draft_ms: Sequence[float],
                   verify_ms: Sequence[float], made: Sequence[int], overhead_ms: float
                   ) -> tuple[TreePrediction, TreePrediction] | None:
    """From an answer's steps (their shapes, times and tokens made): the rate their own
    α(d, r), drafting times and verify line predict (least squares through each batch size's
    median, as the chain's advisor fits it; with one batch size, that size's median), and the
    rate of the chains the trees grew from, verified alone (their α(d, 0) and their rows on
    the same line; the drafting time as measured, which a chain would spend at most). None
    without steps."""
    if not shapes:
        return None
    table = acceptance_by_rank(shapes)
    points = median_points((len(t) + 1.0, ms) for t, ms in zip(shapes, verify_ms, strict=True))
    line = weighted_line(points) or (points[0][1], 0.0)  # one size: its median, flat

    def rate(trees: Sequence[Shape], measured: float | None) -> TreePrediction:
        e = [expected_tokens(t, table) for t in trees]
        ms = [d + line[0] + line[1] * (len(t) + 1) + overhead_ms
              for t, d in zip(trees, draft_ms, strict=True)]
        return TreePrediction(statistics.fmean(e), statistics.fmean(ms), measured)

    chains = [first_choices(t) for t in shapes]
    return rate(shapes, statistics.fmean(made)), rate(chains, None)
