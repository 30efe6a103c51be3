"""One tree step on the target: decode the tree in one batch, walk it greedily, keep the
accepted branch in the cache, and say the step as a chain's events say it: the accepted
branch, then the first choices the target rejected from where the branch left the chain.

Greedy only: a sampled request drafts a chain (see `wants_tree`). The recursive rule for
sampled trees is in `tree/verify.py`, proven by tests; what the inspector would show for a
child tried after its sibling's rejection (p with that sibling removed) is not recorded yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from backend.engine import sampling
from backend.engine.context import Context
from backend.engine.drafters.base import Proposal
from backend.engine.request import GenerationRequest
from backend.engine.tree.structure import DraftTree
from backend.engine.tree.verify import verify_tree_greedy
from backend.engine.verify import Verdict

T = TypeVar("T")
MAX_LEAVES = 64  # sequences of a tree context: one per leaf (a tree of 64 nodes at most)
TREE_DRAFTERS = ("Only a draft model drafts token trees so far; {spec} drafts a chain: ask for "
                 "no tree with it.")


@dataclass(frozen=True)
class TreeStep:
    verdict: Verdict  # n_accepted: the kept branch's length
    p_rows: list[sampling.Row]  # the target's rows along the kept branch, and after it
    drafts: list[int]  # the kept branch, then the rejected first choices
    proposal: Proposal  # the drafter's facts for those tokens, in that order
    first_choices: int  # how many of the chain's tokens the target kept (K auto's count)
    off_chain: bool  # the branch kept leaves the chain: a second or third choice stood
    path: tuple[int, ...]  # the kept branch's nodes
    draft_rows: tuple[int, ...]  # per token of `drafts`, the row it was examined at, or -1


def wants_tree(req: GenerationRequest, ctx: Context) -> bool:
    return req.tree_nodes != 0 and req.sampling.greedy and ctx.n_seq_max > 1


def verify_tree_step(ctx: Context, tree: DraftTree, root: int, chain: Proposal,
                     history: list[int], req: GenerationRequest) -> TreeStep:
    s = req.sampling
    rows = ctx.decode_tree(root, tree)
    base = min(len(history), s.repeat_last_n)
    recent = history[len(history) - base:]
    greedy: dict[int, sampling.GreedyRow] = {}

    def row(r: int) -> sampling.GreedyRow:
        # row r follows the root (0) or node r − 1: the penalty reads that branch's tokens
        if r not in greedy:
            branch = [tree.tokens[n] for n in tree.path(r - 1)] if r else []
            greedy[r] = sampling.greedy_row(rows[r], s, [*recent, *branch])
        return greedy[r]

    tv = verify_tree_greedy(lambda r: row(r).best, tree)
    p_rows: list[sampling.Row] = [row(0), *(row(n + 1) for n in tv.path)]
    ctx.keep_branch(tv.path)
    # the chain's nodes are 0..k−1 in order (tree/grow.py): the branch is the chain's first
    # `same` tokens, then at most one other (a leaf under the chain)
    k, path = len(chain.tokens), tv.path
    same = next((i for i, n in enumerate(path) if n != i), len(path))
    off = same < len(path)
    depths = [*range(same), *([same] if off else []), *range(same, k)]
    proposal = Proposal(tokens=[*chain.tokens[:same], *([tree.tokens[path[same]]] if off else []),
                                *chain.tokens[same:k]], catch_up_ms=chain.catch_up_ms)
    for pos, depth in enumerate(depths):
        alternative = off and pos == same
        proposal.dists.append(None)
        proposal.p_draft.append(tree.q[path[same]] if alternative
                                else _at(chain.p_draft, depth))
        proposal.heads.append(None if alternative else _at(chain.heads, depth))
        proposal.tops.append(_at(chain.tops, depth))  # the row the alternative came from too
        proposal.sources.append(None)
    # the kept tokens at their depths; the first choice rejected at depth `same` (beside the
    # alternative kept there, or where the branch ended); what lay below it, never examined
    examined = (*range(len(path)), *(same if j == 0 else -1 for j in range(k - same)))
    return TreeStep(Verdict(len(path), tv.token), p_rows, proposal.tokens, proposal, same, off,
                    path, examined)


def _at(values: Sequence[T], i: int) -> T | None:
    return values[i] if i < len(values) else None
