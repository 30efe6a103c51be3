"""Token trees drafted by the heads that follow the target (MTP, EAGLE-3; issue 42): greedy
answers equal plain decoding's; the heads' first choices are the chain they would draft; and
where the target keeps a branch off the chain, the head drafts its next step from the target's
states of that branch, not from the rows of the tree's batch it sat beside.

The counting heads' second choices are never right, so an oracle stands in for a drafter that
hesitated: every step's tree gets the target's own next word beside each first choice. The
target keeps it where the head was wrong; the EAGLE-3 head reads the word at each position from
the target's layer input there (tests/models/eagle3.py), so a state taken from the wrong batch
row makes its next draft another word, which the exact drafts below would show.
"""

from __future__ import annotations

import numpy as np
import pytest
from build import CYCLE_WORDS
from eagle3 import OWN_SKIP_EVERY, head_step
from mtp_multi import FILE as MTP2
from mtp_multi import head_proposal
from scipy.stats import chisquare

import backend.engine.engine as engine_module
from backend.engine.request import GenerationRequest, SamplingSettings
from backend.engine.tree.grow import AUTO, tree_from_chain
from backend.engine.tree.structure import ROOT
from engine.dist_pairs import cycle_index, expected_pairs, pair_outcome
from engine.runner import assert_rollback_leaves_plain_state, emitted_ids, loaded_engine, run

W = [" " + w for w in CYCLE_WORDS]
N = len(W)


def _first_choices(tree) -> list[str]:
    """The chain a step's tree grew from: its rank-0 nodes from the root down."""
    out, node = [], ROOT
    while (child := next((i for i, n in enumerate(tree) if n.parent == node and n.rank == 0),
                         None)) is not None:
        out.append(tree[child].text)
        node = child
    return out


@pytest.fixture
def oracle(monkeypatch):
    """Grow every step's tree with the target's own next word beside each first choice."""
    def grow(proposal, k, nodes, worth=None, continued=False):
        tree = tree_from_chain(proposal, k, max(nodes, 2 * k), worth)
        if tree is None:
            return None
        model = grow.engine._target
        ids = [model.tokenize(w, add_special=False)[0] for w in W]
        last = ids.index(grow.history[-1])
        for depth in range(min(k, len(proposal.tokens))):
            parent = ROOT if depth == 0 else depth - 1
            right = ids[(last + 1 + depth) % N]
            if all(tree.tokens[c] != right for c in tree.children(parent)):
                tree.add(parent, right, 0.0)
        return tree

    real_step = engine_module.Engine._step

    def step(self, run_, n_generated, number):
        grow.engine, grow.history = self, run_.history
        return real_step(self, run_, n_generated, number)

    monkeypatch.setattr(engine_module, "tree_from_chain", grow)
    monkeypatch.setattr(engine_module.Engine, "_step", step)


@pytest.fixture(scope="module")
def e3_engine(test_models):
    with loaded_engine(test_models / "count-target3.gguf", test_models / "eagle3-own.gguf",
                       n_ctx=512, n_threads=1) as e:
        yield e


@pytest.fixture(scope="module")
def mtp2_engine(test_models):
    with loaded_engine(test_models / MTP2, n_ctx=256, n_threads=1) as e:
        yield e


def _tree_answer(engine, spec: str, nodes: int, k: int = 4, max_tokens: int = 30):
    return run(engine, GenerationRequest(prompt=" zero one", spec_type=spec, n_draft_max=k,
                                         tree_nodes=nodes, measure_plain=False,
                                         max_tokens=max_tokens))


@pytest.mark.parametrize("nodes", [8, AUTO])
@pytest.mark.parametrize("spec", ["eagle3", "mtp"])
def test_greedy_trees_of_the_heads_equal_plain_decoding(e3_engine, mtp2_engine, spec, nodes):
    engine = e3_engine if spec == "eagle3" else mtp2_engine
    _, plain = run(engine, GenerationRequest(prompt=" zero one", max_tokens=30))
    final, steps = _tree_answer(engine, spec, nodes)
    assert emitted_ids(steps) == emitted_ids(plain)
    assert final.note is None  # the heads draft trees: no note says they drafted chains
    if nodes == 8:
        assert sum(1 for s in steps if s.tree) >= len(steps) // 2


def test_an_eagle3_head_drafts_from_the_branch_the_target_kept(e3_engine, oracle):
    _, steps = _tree_answer(e3_engine, "eagle3", 12)
    before, last = 0, 1
    off_chain = 0
    for step in steps:
        chain = _first_choices(step.tree)
        x, expected = before, []
        for _ in chain:  # the head's own chain from the target's states (test_eagle3.py)
            x = head_step(x, OWN_SKIP_EVERY)
            expected.append(W[(x + 1) % N])
        assert chain == expected
        kept = [n for n in step.tree if n.kept]
        off_chain += any(n.rank > 0 for n in kept)
        words = [W.index(t.text) for t in step.emitted]
        before, last = [last, *words][-2], words[-1]
    assert off_chain >= 3  # where the head was wrong, the oracle's word stood
    _, plain = run(e3_engine, GenerationRequest(prompt=" zero one", max_tokens=30))
    assert emitted_ids(steps) == emitted_ids(plain)


def test_mtp_heads_draft_their_chain_and_keep_the_oracles_branch(mtp2_engine, oracle):
    _, steps = _tree_answer(mtp2_engine, "mtp", 8, max_tokens=40)
    last, off_chain = 1, 0
    for step in steps:
        chain = _first_choices(step.tree)
        assert chain == [W[head_proposal(i, last)] for i in range(len(chain))]
        off_chain += any(n.kept and n.rank > 0 for n in step.tree)
        last = W.index(step.emitted[-1].text)
    assert off_chain >= 3
    _, plain = run(mtp2_engine, GenerationRequest(prompt=" zero one", max_tokens=40))
    assert emitted_ids(steps) == emitted_ids(plain)


@pytest.mark.parametrize("spec", ["eagle3", "mtp"])
def test_after_a_heads_tree_answer_the_cache_is_plain_decodings(e3_engine, mtp2_engine,
                                                                spec, oracle, monkeypatch):
    engine = e3_engine if spec == "eagle3" else mtp2_engine
    real = engine_module.Engine.generate
    monkeypatch.setattr(engine_module.Engine, "generate",
                        lambda self, req: real(self, _with_tree(req, 8)))
    # A kept branch off the chain leaves its cells after the cut siblings' freed ones, which
    # the next tokens fill: the attention then sums the same cells in another order, a float
    # difference (about 1e-3 on these models) far below a wrong cell's (over 0.05).
    assert_rollback_leaves_plain_state(engine, spec, 4, tol=1e-2)


def _with_tree(req: GenerationRequest, nodes: int) -> GenerationRequest:
    from dataclasses import replace
    return replace(req, tree_nodes=nodes) if req.spec_type != "none" else req


# -- sampled trees of a head follow the target's distribution -------------------------------
N_SAMPLED = 1000
ALPHA = 1e-4


def _sampled_pairs(engine) -> tuple[np.ndarray, int]:
    """Counts of the 16 outcomes of the first two words sampled after " zero" with EAGLE-3
    trees (the head needs the word before), and the steps that kept a second or third choice."""
    word = cycle_index(engine)
    counts, off_chain = np.zeros(16), 0
    for seed in range(N_SAMPLED):
        _, steps = run(engine, GenerationRequest(
            prompt=" eleven zero", spec_type="eagle3", n_draft_max=2, tree_nodes=8,
            max_tokens=2, measure_plain=False, sampling=SamplingSettings(
                temperature=1.0, top_k=0, top_p=1.0, min_p=0.0, seed=seed)))
        off_chain += sum(any(t.kept and t.rank > 0 for t in s.tree) for s in steps)
        a, b = (word[i] for i in emitted_ids(steps)[:2])
        counts[pair_outcome(a, b)] += 1
    return counts, off_chain


def test_sampled_eagle3_trees_follow_the_targets_distribution(dist_e3_engine):
    counts, off_chain = _sampled_pairs(dist_e3_engine)
    assert off_chain > N_SAMPLED // 10  # the head's second and third choices stood often
    assert chisquare(counts, expected_pairs() * N_SAMPLED).pvalue > ALPHA


def test_a_biased_tree_rule_is_caught_on_the_eagle3_pair(dist_e3_engine, monkeypatch):
    from backend.engine.tree import verify as tree_verify

    monkeypatch.setattr(tree_verify, "residual", lambda p, q, x: p)
    counts, _ = _sampled_pairs(dist_e3_engine)
    assert chisquare(counts, expected_pairs() * N_SAMPLED).pvalue < ALPHA
