"""One tree step on the target: decode the tree in one batch, walk it (greedy or sampled), keep
the accepted branch in the cache, and say the step as a chain's events say it: the accepted
branch, then the first choices the target rejected from where the branch left the chain.

Sampled, the recursive rule of `tree/verify.py`: the chain's token with min(1, p/q), a child
tried after its siblings' rejection with its p there; that probability is what the inspector
shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from backend.engine import sampling
from backend.engine.context import Context
from backend.engine.drafters.base import Proposal
from backend.engine.request import GenerationRequest
from backend.engine.tree.structure import DraftTree
from backend.engine.tree.verify import verify_tree_greedy, verify_tree_sampled
from backend.engine.verify import Verdict

T = TypeVar("T")
MAX_LEAVES = 64  # sequences of a tree context: one per leaf (a tree of 64 nodes at most)


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
    accepts: tuple[float, ...]  # sampled: each examined one's acceptance probability


def wants_tree(req: GenerationRequest, ctx: Context) -> bool:
    return req.tree_nodes != 0 and ctx.n_seq_max > 1


def verify_tree_step(ctx: Context, tree: DraftTree, root: int, chain: Proposal,
                     history: list[int], req: GenerationRequest,
                     rng: np.random.Generator) -> TreeStep:
    s = req.sampling
    rows = ctx.decode_tree(root, tree)
    base = min(len(history), s.repeat_last_n)
    recent = history[len(history) - base:]
    made: dict[int, sampling.Row] = {}

    def row(r: int) -> sampling.Row:
        # row r follows the root (0) or node r − 1: the penalty reads that branch's tokens
        if r not in made:
            seen = [*recent, *(tree.tokens[n] for n in tree.path(r - 1))] if r else recent
            made[r] = (sampling.verify_row(rows[r], s, seen, owner=ctx, inspect=req.inspect)
                       if s.greedy else sampling.sampled_row(rows[r], s, seen))
        return made[r]

    if s.greedy:
        tv = verify_tree_greedy(lambda r: row(r).best, tree)  # type: ignore[union-attr]
    else:
        # the chain's nodes are 0..k−1 (tree/grow.py): a sampled chain's tokens carry their q
        tv = verify_tree_sampled(lambda r: row(r), tree, rng,  # type: ignore[arg-type,return-value]
                                 chain.dists[: len(chain.tokens)])
    p_rows: list[sampling.Row] = [row(0), *(row(n + 1) for n in tv.path)]
    ctx.keep_branch(tv.path)
    # the chain's nodes are 0..k−1 in order (tree/grow.py, tree/continuations.py): the branch
    # is the chain's first `same` tokens, then the nodes beside the chain it went on with
    k, path = len(chain.tokens), tv.path
    same = next((i for i, n in enumerate(path) if n != i), len(path))
    off = same < len(path)
    beside = path[same:]
    proposal = Proposal(tokens=[*chain.tokens[:same], *(tree.tokens[n] for n in beside),
                                *chain.tokens[same:k]], catch_up_ms=chain.catch_up_ms)
    for depth in range(same):
        _chain_facts(proposal, chain, depth)
    for j, n in enumerate(beside):
        proposal.dists.append(None)  # chosen beside the chain, not drawn: one-hot
        proposal.p_draft.append(tree.q[n])
        proposal.heads.append(None)
        # the drafter's row the first token beside the chain was chosen from (the chain's at
        # that depth); none deeper
        proposal.tops.append(_at(chain.tops, same) if j == 0 else None)
        proposal.sources.append(tree.sources[n])
    for depth in range(same, k):
        _chain_facts(proposal, chain, depth)
    # the kept tokens at their depths; the first choice rejected at depth `same` (beside the
    # alternative kept there, or where the branch ended); what lay below it, never examined
    examined = (*range(len(path)), *(same if j == 0 else -1 for j in range(k - same)))
    # sampled: each examined token's draw and acceptance probability, in display order
    tried = {child: (u, px) for child, u, px in tv.draws}
    shown = [*path, *([same] if same < k else [])]  # chain node `same` is the first choice
    draws = tuple(tried[n][0] for n in shown if n in tried)
    accepts = tuple(tried[n][1] for n in shown if n in tried)
    return TreeStep(Verdict(len(path), tv.token, draws, tv.token_p), p_rows, proposal.tokens,
                    proposal, same, off, path, examined, accepts)


def _chain_facts(proposal: Proposal, chain: Proposal, depth: int) -> None:
    """The drafter's facts for its chain's token at `depth`, appended to `proposal`."""
    proposal.dists.append(_at(chain.dists, depth))
    proposal.p_draft.append(_at(chain.p_draft, depth))
    proposal.heads.append(_at(chain.heads, depth))
    proposal.tops.append(_at(chain.tops, depth))
    proposal.sources.append(_at(chain.sources, depth))


def _at(values: Sequence[T], i: int) -> T | None:
    return values[i] if i < len(values) else None
