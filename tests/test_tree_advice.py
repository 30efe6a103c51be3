"""The tree's cost model (backend/tree_advice.py): acceptance by depth and rank counted over the
children the walk tried, the expected tokens of a tree, and a prediction from an answer's own
steps that holds against what the answer made."""

from __future__ import annotations

import pytest

from backend.engine.events import StepVerified, Token, TreeNode
from backend.engine.speedup_model import expected_tokens_per_step_by_position
from backend.tree_advice import (
    acceptance_by_rank,
    expected_tokens,
    first_choices,
    predict,
    predict_shapes,
    rows,
    shape,
)


def node(parent: int, rank: int = 0, kept: bool = False) -> TreeNode:
    return TreeNode(parent, 0, "x", None, None, rank, kept)


def tok(accepted: bool) -> Token:
    return Token(0, "x", "draft", accepted)


def step(tree=(), drafted=(), emitted=1, draft_ms=1.0, verify_ms=2.0) -> StepVerified:
    return StepVerified(0, tuple(drafted), 0, tuple(tok(False) for _ in range(emitted)),
                        draft_ms, verify_ms, tree=tuple(tree))


def test_a_chain_shaped_tree_expects_the_chains_tokens():
    chain = [node(-1), node(0), node(1)]
    table = acceptance_by_rank([shape(step(drafted=[tok(True), tok(True), tok(False)])),
                                shape(step(drafted=[tok(True), tok(False), tok(False)]))])
    # position 1: 2 of 2; position 2: 1 of 2; position 3: 0 of 1 (the third step reached it)
    assert [(k, a.n_tried, a.n_accepted) for k, a in table.items()] == [
        ((1, 0), 2, 2), ((2, 0), 2, 1), ((3, 0), 1, 0)]
    assert expected_tokens(chain, table) == pytest.approx(
        expected_tokens_per_step_by_position([1.0, 0.5, 0.0], 3))


def test_siblings_are_tried_in_rank_order_until_one_is_kept():
    # root → a (rank 0, rejected), b (rank 1, kept) → c (rank 0 under b, rejected)
    t1 = [node(-1, 0), node(-1, 1, kept=True), node(1, 0)]
    # root → a (kept) → d (rejected); b under the root never tried
    t2 = [node(-1, 0, kept=True), node(-1, 1), node(0, 0)]
    table = acceptance_by_rank([t1, t2])
    got = {k: (a.n_tried, a.n_accepted) for k, a in table.items()}
    assert got == {(1, 0): (2, 1), (1, 1): (1, 1), (2, 0): (2, 0)}
    # E = 1 + P(a) + P(b) + P(c): α(1,0) = ½, α(1,1) = 1, α(2,0) = 0
    assert expected_tokens(t1, table) == pytest.approx(1 + 0.5 + 0.5 * 1.0)


def test_a_depth_never_tried_takes_the_deepest_measured_alpha_of_its_rank():
    table = acceptance_by_rank([[node(-1, 0, kept=True), node(0, 0)]])
    assert expected_tokens([node(-1), node(0), node(1)], table) == pytest.approx(1 + 1 + 0 + 0)
    longer = acceptance_by_rank([[node(-1, 0, kept=True), node(0, 0, kept=True)]])
    assert expected_tokens([node(-1), node(0), node(1)], longer) == pytest.approx(4.0)


def test_the_prediction_prices_each_step_by_its_rows():
    small = step(tree=[node(-1, 0, kept=True), node(-1, 1)], emitted=2, verify_ms=3.0)
    large = step(tree=[node(-1, 0, kept=True), node(-1, 1), node(0, 0, kept=True),
                       node(0, 1)], emitted=3, verify_ms=5.0)
    assert (rows(small), rows(large)) == (3, 5)
    pred = predict([small, large], overhead_ms=0.5)
    assert pred is not None
    assert pred.ms_per_step == pytest.approx(1.0 + 4.0 + 0.5)  # 1 + the line (1 ms a row)
    assert pred.measured_tokens_per_step == 2.5
    alone = predict([small, small], overhead_ms=0.0)  # one batch size: its median
    assert alone is not None and alone.ms_per_step == pytest.approx(1.0 + 3.0)
    assert predict([], overhead_ms=0.0) is None


def test_on_a_draft_whose_second_choice_is_right_the_prediction_meets_the_answer(test_models):
    from engine.runner import loaded_engine, run

    from backend.engine.request import GenerationRequest

    with loaded_engine(test_models / "count-target.gguf",
                       test_models / "count-draft-second.gguf", n_ctx=512, n_threads=1) as e:
        for nodes in (12, 18):
            _, steps = run(e, GenerationRequest(prompt=" zero one", spec_type="draft",
                                                n_draft_max=6, tree_nodes=nodes,
                                                max_tokens=96, measure_plain=False))
            pred = predict(steps[:-1], overhead_ms=0.0)  # the last step is cut short
            assert pred is not None
            assert pred.tokens_per_step / pred.measured_tokens_per_step == pytest.approx(
                1.0, abs=0.1)


def test_the_chain_a_tree_grew_from_is_predicted_from_the_same_steps():
    # root → a (rank 0, rejected), b (rank 1, kept) → c (b's continuation, kept);
    # a → d (rank 0: the chain's second token)
    tree = [node(-1, 0), node(-1, 1, kept=True), node(1, 0, kept=True), node(0, 0)]
    chain = first_choices(tree)
    assert [(n.parent, n.rank, n.kept) for n in chain] == [(-1, 0, False), (0, 0, False)]
    small = [node(-1, 0, kept=True), node(-1, 1)]
    got = predict_shapes([tree, small], [1.0, 1.0], [5.0, 3.0], [3, 2], overhead_ms=0.0)
    assert got is not None
    trees, chains = got
    # α(1, 0) = ½ (a rejected, small's kept), α(1, 1) = 1, α(2, 0) = 1 (c kept): the tree
    # makes 1 + P(a) + P(b) + P(c) + P(d) = 1 + ½ + ½ + ½ + ½, small 1 + ½ + ½; their
    # chains 1 + ½ + ½ (a, d) and 1 + ½
    assert trees.tokens_per_step == pytest.approx((3.0 + 2.0) / 2)
    assert chains.tokens_per_step == pytest.approx((2.0 + 1.5) / 2)
    assert chains.measured_tokens_per_step is None and trees.measured_tokens_per_step == 2.5
    # the line through (5 rows, 5 ms) and (3, 3): 1 ms a row; the chains verify 3 and 2 rows
    assert trees.ms_per_step == pytest.approx(1.0 + (5 + 3) / 2)
    assert chains.ms_per_step == pytest.approx(1.0 + (3 + 2) / 2)
