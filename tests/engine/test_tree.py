"""Token trees (issue 42): the tree's sequences, its lossless verification (greedy, and the
recursive rejection rule by χ² tests), and llama.cpp's side: one batch whose every node sees
exactly its own branch, and a cache left as a chain's after the branch is kept."""

from __future__ import annotations

from collections import Counter

import llama_cpp
import numpy as np
import pytest
from scipy.stats import chisquare

from backend.engine.context import Context
from backend.engine.model import LoadedModel
from backend.engine.sampling import DenseRow
from backend.engine.tree.structure import ROOT, DraftTree
from backend.engine.tree.verify import verify_tree_greedy, verify_tree_sampled
from backend.engine.verify import verify_greedy

ALPHA = 1e-3  # a correct rule fails a test one time in a thousand


def _tree() -> DraftTree:
    """root → a(0) → c(2) → e(4); a → d(3); root → b(1)."""
    t = DraftTree()
    a = t.add(ROOT, 10, 0.6)
    t.add(ROOT, 11, 0.3)
    c = t.add(a, 12, 0.7)
    t.add(a, 13, 0.2)
    t.add(c, 14, 0.9)
    return t


def test_each_leaf_has_its_sequence_and_the_first_choices_have_sequence_0():
    t = _tree()
    assert t.ranks == [0, 1, 0, 1, 0]
    assert t.leaves() == [4, 3, 1]  # a-c-e, then a-d, then b
    assert t.sequences() == [[0, 1], [2], [0], [1], [0]]
    assert [t.depth(i) for i in range(5)] == [1, 1, 2, 2, 3]
    assert t.path(4) == [0, 2, 4]
    with pytest.raises(ValueError):
        t.add(ROOT, 10)  # a sibling's token again would be verified twice


def test_greedy_walks_the_branch_the_target_agrees_with():
    t = _tree()
    # the target wants 10, then 13 (a second choice), then 99: the tree keeps 10, 13
    wants = {0: 10, 1: 13, 4: 99}  # by row: row 0 after the root, row i + 1 after node i
    v = verify_tree_greedy(lambda row: wants[row], t)
    assert (v.path, v.token) == ((0, 3), 99)
    # the chain of first choices (10, 12, 14) stops at 12
    chain = verify_greedy(lambda i: [10, 13][i], [10, 12, 14])
    assert chain.n_accepted == 1 < len(v.path)
    # the target's first token is no child: nothing kept, its own token
    assert verify_tree_greedy(lambda row: 7, t).path == ()


def _dist(*probs: float) -> DenseRow:
    p = np.array(probs, dtype=np.float64)
    return DenseRow(p / p.sum())


def test_sampled_trees_emit_the_targets_distribution():
    """Children 1 and 2 of the root, 3 under 1 (rows: 0 after the root, i + 1 after node i):
    the first token emitted follows p0 whatever the children are, and the second follows p
    after the first."""
    t = DraftTree()
    one = t.add(ROOT, 1, 0.5)
    t.add(ROOT, 2, 0.4)
    t.add(one, 3, 0.8)
    rows = {0: _dist(0.1, 0.2, 0.3, 0.15, 0.25), 1: _dist(0.3, 0.1, 0.1, 0.4, 0.1),
            2: _dist(0.2, 0.2, 0.2, 0.2, 0.2), 3: _dist(0.5, 0.1, 0.1, 0.1, 0.2)}
    rng = np.random.default_rng(42)
    first: Counter[int] = Counter()
    second: dict[int, Counter[int]] = {1: Counter(), 2: Counter()}
    n = 40_000
    for _ in range(n):
        v = verify_tree_sampled(lambda row: rows[row], t, rng)
        out = [t.tokens[i] for i in v.path] + [v.token]
        first[out[0]] += 1
        if len(out) > 1:
            second[out[0]][out[1]] += 1
    counts = np.array([first[k] for k in range(5)])
    assert chisquare(counts, rows[0].probs * n).pvalue > ALPHA
    for tok, row in ((1, rows[1]), (2, rows[2])):
        c = np.array([second[tok][k] for k in range(5)])
        assert c.sum() == first[tok]  # an accepted child is always followed by a token
        assert chisquare(c, row.probs * c.sum()).pvalue > ALPHA


def _first_tokens_with_a_drawn_chain(q_for_siblings: bool, n: int) -> np.ndarray:
    """The first token emitted over n walks of a root with a chain token drawn from q (the
    first child) and the drafter's next choice beside it (one-hot; with `q_for_siblings`, the
    biased rule that tries it against q too)."""
    p = _dist(0.1, 0.2, 0.3, 0.15, 0.25)
    q = _dist(0.05, 0.5, 0.3, 0.1, 0.05)
    rng = np.random.default_rng(11)
    counts = np.zeros(5)
    for _ in range(n):
        t = DraftTree()
        x = q.draw(rng)
        t.add(ROOT, x, q.p(x))
        other = max((k for k in range(5) if k != x), key=q.p)  # the next most likely
        t.add(ROOT, other, q.p(other))
        dists = [q, q] if q_for_siblings else [q]
        if q_for_siblings:  # sneak the sibling's q past the first-child rule
            t.ranks[1] = 0
        v = verify_tree_sampled(lambda row: p, t, rng, dists)
        counts[t.tokens[v.path[0]] if v.path else v.token] += 1
    return counts


def test_a_drawn_chain_token_is_tried_against_its_q_and_the_rest_one_hot():
    """min(1, p/q) for the chain's token drawn from q, its residual, then the sibling against
    it one-hot: the first token emitted follows p; giving the sibling q as well does not."""
    n = 40_000
    p = _dist(0.1, 0.2, 0.3, 0.15, 0.25)
    assert chisquare(_first_tokens_with_a_drawn_chain(False, n), p.probs * n).pvalue > ALPHA
    assert chisquare(_first_tokens_with_a_drawn_chain(True, n), p.probs * n).pvalue < ALPHA
    t = DraftTree()
    t.add(ROOT, 1)
    t.add(ROOT, 2)
    with pytest.raises(ValueError, match="not a first child"):
        verify_tree_sampled(lambda row: p, t, np.random.default_rng(0), [None, p])


def test_a_rule_that_forgets_the_residual_fails_the_same_test():
    """The χ² test can fail: trying the second child against p itself (not against p
    without the first child) over-emits it."""
    t = DraftTree()
    t.add(ROOT, 1)
    t.add(ROOT, 2)
    p = _dist(0.1, 0.5, 0.4)
    rng = np.random.default_rng(7)
    counts = np.zeros(3)
    n = 20_000
    for _ in range(n):
        if rng.random() < p.p(1):
            counts[1] += 1
        elif rng.random() < p.p(2):  # wrong: should be p(2) / (1 - p(1))
            counts[2] += 1
        else:
            counts[p.draw(rng)] += 1
    assert chisquare(counts, p.probs * n).pvalue < ALPHA


@pytest.fixture(scope="module")
def demo_model(test_models):
    model = LoadedModel(test_models / "demo-target-f32.gguf")
    yield model
    model.close()


def _plain_rows(model: LoadedModel, tokens: list[int]) -> np.ndarray:
    ctx = Context(model, n_ctx=256, n_threads=2)
    try:
        return ctx.decode(tokens).copy()[0]
    finally:
        ctx.close()


def _assert_next_as_plain(ctx: Context, history: list[int], word: str) -> None:
    """The logits after `word`, decoded on the cache a tree step left holding `history`, are
    those of plain decoding of history + word. The kept cells were computed in the tree's
    batch, the reference's in one of its own: summed in another order (ENGINE-NOTES.md), so
    equal to a few thousandths."""
    nxt = ctx.model.tokenize(word, add_special=False)[0]
    after = ctx.decode([nxt]).copy()[0]
    plain = _plain_rows(ctx.model, [*history, nxt])
    assert int(after.argmax()) == int(plain.argmax())
    assert np.allclose(after, plain, atol=1e-2)


def test_one_batch_gives_each_node_its_own_branchs_logits(demo_model):
    history = demo_model.tokenize("The quick brown fox jumps over the", add_special=True)
    words = demo_model.tokenize(" lazy dog sleepy cat house", add_special=False)
    t = DraftTree()
    a = t.add(ROOT, words[0])
    t.add(ROOT, words[2])
    c = t.add(a, words[1])
    t.add(a, words[3])
    t.add(c, words[4])
    ctx = Context(demo_model, n_ctx=256, n_threads=2, n_seq_max=4)
    try:
        ctx.prefill(history[:-1])
        rows = ctx.decode_tree(history[-1], t).copy()
        assert np.allclose(rows[0], _plain_rows(demo_model, history), atol=2e-3)
        for i in range(len(t)):
            branch = history + [t.tokens[n] for n in t.path(i)]
            plain = _plain_rows(demo_model, branch)
            assert int(rows[i + 1].argmax()) == int(plain.argmax()), i
            assert np.allclose(rows[i + 1], plain, atol=2e-3), i
        # the target kept a → d (a second choice): the cache is a chain's of history, a, d
        ctx.keep_branch((0, 3))
        kept = [*history, t.tokens[0], t.tokens[3]]
        assert ctx.tokens == kept
        mem = ctx.memory
        assert llama_cpp.llama_memory_seq_pos_max(mem, 0) == len(kept) - 1
        assert all(llama_cpp.llama_memory_seq_pos_max(mem, s) == -1 for s in (1, 2, 3))
        _assert_next_as_plain(ctx, kept, " and")
    finally:
        ctx.close()


def test_a_tree_whose_first_level_is_rejected_leaves_the_history_alone(demo_model):
    history = demo_model.tokenize("One, two, three,", add_special=True)
    t = DraftTree()
    for w in demo_model.tokenize(" cat dog", add_special=False):
        t.add(ROOT, w)
    ctx = Context(demo_model, n_ctx=256, n_threads=2, n_seq_max=2)
    try:
        ctx.prefill(history[:-1])
        ctx.decode_tree(history[-1], t)
        ctx.keep_branch(())
        assert ctx.tokens == history
        assert llama_cpp.llama_memory_seq_pos_max(ctx.memory, 1) == -1
        _assert_next_as_plain(ctx, history, " four")
    finally:
        ctx.close()


def test_a_recurrent_target_is_refused_in_words(test_models):
    from backend.engine.errors import EngineError

    model = LoadedModel(test_models / "count-mtp.gguf")  # qwen35: recurrent layers
    ctx = Context(model, n_ctx=128, n_threads=1, n_seq_max=2, n_rs_seq=2)
    try:
        t = DraftTree()
        t.add(ROOT, 5)
        t.add(ROOT, 6)
        with pytest.raises(EngineError, match="recurrent layers"):
            ctx.decode_tree(1, t)
    finally:
        ctx.close()
        model.close()


def test_auto_grows_the_alternatives_that_repay_their_row_best_first():
    """Under K auto an alternative is added while its path probability (the chain's q up to
    its parent times its own) repays one more batch row (tree/grow.py's note)."""
    from backend.engine.drafters.base import Proposal
    from backend.engine.tree.grow import AUTO, row_worth, tree_from_chain

    rows = [_dist(0.6, 0.3, 0.1, 0.0), _dist(0.1, 0.5, 0.25, 0.15), _dist(0.05, 0.1, 0.8, 0.05)]
    chain = Proposal(tokens=[0, 1, 2], p_draft=[0.6, 0.5, 0.8], tops=list(rows))
    # alternatives by path probability: 1@d0 0.3, 2@d1 0.6·0.25 = 0.15, 2@d0 0.1, 3@d1 0.09,
    # 1@d2 0.3·0.1 = 0.03, …
    assert row_worth(2.0, 30.0, 3.0) == pytest.approx(0.2)  # a row costs a fifth of a token
    t = tree_from_chain(chain, 3, AUTO, worth=0.2)
    assert t is not None and (t.tokens, t.parents) == ([0, 1, 2, 1], [ROOT, 0, 1, ROOT])
    t = tree_from_chain(chain, 3, AUTO, worth=0.085)
    assert t is not None and (t.tokens[3:], t.parents[3:]) == ([1, 2, 2, 3], [ROOT, 0, ROOT, 0])
    assert tree_from_chain(chain, 3, AUTO, worth=0.35) is None  # nothing repays: a chain
    assert row_worth(2.0, 0.0, 0.0) == 1.0  # nothing measured: no alternative repays


def test_a_lookups_older_continuations_merge_into_the_chain_as_a_trie():
    from backend.engine.tree.continuations import tree_from_continuations
    from backend.engine.tree.grow import AUTO

    # the chain 5 6 7 (copied from position 40); older copies 5 6 9 (from 30: branches at
    # depth 3), 8 1 (from 20: at depth 1), 5 6 7 (from 10: nothing new)
    def copy(start, tokens):
        return tokens, list(range(start, start + len(tokens)))

    chain = copy(40, [5, 6, 7])
    older = [copy(30, [5, 6, 9]), copy(20, [8, 1]), copy(10, [5, 6, 7])]
    t = tree_from_continuations(chain, older, 16)
    assert t is not None
    assert (t.tokens, t.parents) == ([5, 6, 7, 9, 8, 1], [ROOT, 0, 1, 1, ROOT, 4])
    assert t.q == [None] * 6  # a lookup's copies are one-hot
    assert t.sources == [40, 41, 42, 32, 20, 21]  # where each token was copied from
    cut = tree_from_continuations(chain, older, 5)
    assert cut is not None and cut.tokens == [5, 6, 7, 9, 8]  # the budget cuts the last copy
    assert tree_from_continuations(chain, [copy(10, [5, 6, 7])], 16) is None  # no branch
    auto = tree_from_continuations(copy(40, [5, 6]), [copy(30, [8, 1, 2, 3]), copy(20, [9])],
                                   AUTO)
    assert auto is not None and len(auto) == 4  # auto: as many nodes again as the chain


def _alternatives_tree():
    """A chain 10 11 12 with alternatives 20 (under the root, q .3) and 21 (under 10, q .1)."""
    t = DraftTree()
    a = t.add(ROOT, 10, 0.7)
    b = t.add(a, 11, 0.9)
    t.add(b, 12, 0.9)
    t.add(ROOT, 20, 0.3)
    t.add(a, 21, 0.1)
    return t


def test_alternatives_are_continued_best_first_within_the_budget_and_the_chains_depth():
    from backend.engine.tree.extend import extend_alternatives

    asked: list[list[int]] = []

    def nxt(nodes):
        asked.append(list(nodes))
        return [(100 + n, 0.5) for n in nodes]

    t = _alternatives_tree()
    levels = extend_alternatives(t, 3, 3, None, nxt)
    # level 1: 20 (path .3) before 21 (.07); level 2: 20's child only (21's is at depth 3)
    assert asked == [[3, 4], [5]] and levels == 2
    assert (t.tokens[5:], t.parents[5:]) == ([103, 104, 105], [3, 4, 5])
    assert t.ranks[5:] == [0, 0, 0]  # a continuation is its parent's first choice
    t = _alternatives_tree()
    extend_alternatives(t, 3, 1, None, nxt)  # one node: the likelier alternative's
    assert t.tokens[5:] == [103]
    t = _alternatives_tree()
    extend_alternatives(t, 3, 8, 0.2, nxt)  # worth: only paths likelier than 0.2 go on
    assert (t.tokens[5:], t.parents[5:]) == ([103], [3])
    t = _alternatives_tree()
    extend_alternatives(t, 3, 8, None, lambda nodes: [None] * len(nodes))
    assert len(t) == 5  # the drafter could continue none


def test_a_continued_tree_leaves_half_the_spare_nodes_to_the_continuations():
    from backend.engine.drafters.base import Proposal
    from backend.engine.tree.grow import tree_from_chain

    rows = [_dist(0.4, 0.3, 0.2, 0.1)] * 3
    chain = Proposal(tokens=[0, 0, 0], p_draft=[0.4] * 3, tops=list(rows))
    assert len(tree_from_chain(chain, 3, 9)) == 9
    assert len(tree_from_chain(chain, 3, 9, continued=True)) == 6
