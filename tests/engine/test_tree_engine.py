"""Token trees in the engine (issue 42): greedy answers with a tree are plain decoding's token
for token; on a draft whose first choice is wrong and second right at known places the tree
keeps those tokens where a chain cannot; the target's cache after a tree answer is plain
decoding's; what cannot draft a tree is refused in words."""

from __future__ import annotations

import argparse

import numpy as np
import pytest
from build import DRAFT_SKIP_EVERY

from backend.engine.request import GenerationRequest, Message
from backend.engine.tree.grow import AUTO
from engine.dist_pairs import cycle_index, expected_pairs, pair_outcome
from engine.runner import _next_logits, emitted_ids, loaded_engine, run

PROMPTS = ["Write a Python function that checks whether a number is prime.",
           "List five fruits, one per line.", "Write a haiku about the sea."]


@pytest.mark.parametrize(("nodes", "k"), [(8, 4), (16, 8), (AUTO, 0)])
def test_greedy_trees_equal_plain_decoding_on_the_demo_pair(demo_engine, nodes, k):
    for prompt in PROMPTS:
        messages = (Message("user", prompt),)
        plain, plain_steps = run(demo_engine, GenerationRequest(messages=messages,
                                                                max_tokens=40))
        tree, tree_steps = run(demo_engine, GenerationRequest(
            messages=messages, spec_type="draft", n_draft_max=k, tree_nodes=nodes,
            max_tokens=40))
        assert emitted_ids(tree_steps) == emitted_ids(plain_steps), prompt
        assert tree.text == plain.text


@pytest.fixture(scope="module")
def second_engine(test_models):
    with loaded_engine(test_models / "count-target.gguf",
                       test_models / "count-draft-second.gguf", n_ctx=512, n_threads=1) as e:
        yield e


def _answer(engine, tree_nodes: int):
    # no plain probes (whose length the steps' times decide): the same steps drafting in both
    return run(engine, GenerationRequest(prompt=" zero one", spec_type="draft", n_draft_max=6,
                                         tree_nodes=tree_nodes, max_tokens=48,
                                         measure_plain=False))


@pytest.mark.parametrize("nodes", [12, AUTO])
def test_a_tree_keeps_the_second_choice_a_chain_loses(second_engine, nodes):
    _, plain_steps = run(second_engine, GenerationRequest(prompt=" zero one",
                                                              max_tokens=48))
    chain, chain_steps = _answer(second_engine, 0)
    tree, tree_steps = _answer(second_engine, nodes)
    assert emitted_ids(tree_steps) == emitted_ids(chain_steps) == emitted_ids(plain_steps)
    per_step = [len(s.emitted) for s in tree_steps]
    chain_per_step = [len(s.emitted) for s in chain_steps]
    # the chain stops at every DRAFT_SKIP_EVERY-th word; the tree takes the right word there
    assert max(chain_per_step) <= DRAFT_SKIP_EVERY
    assert tree.stats.n_steps < chain.stats.n_steps
    assert sum(per_step) / len(per_step) > sum(chain_per_step) / len(chain_per_step)
    # a step's draft reads as a chain's: the kept branch, then the first choices rejected
    branched = [s for s in tree_steps if s.n_accepted > 0 and len(s.drafted) > s.n_accepted
                and s.drafted[s.n_accepted - 1].id != s.drafted[s.n_accepted].id]
    assert branched
    for s in tree_steps:
        assert [t.id for t in s.drafted[: s.n_accepted]] == [t.id for t in s.emitted[:-1]]
        assert all(t.accepted for t in s.drafted[: s.n_accepted])
        assert not any(t.accepted for t in s.drafted[s.n_accepted:])


def test_after_a_tree_answer_the_cache_is_plain_decodings(second_engine):
    prompt = second_engine._target.tokenize(" zero one", add_special=False)
    _, tree_steps = _answer(second_engine, 12)
    history = prompt + emitted_ids(tree_steps)
    after_tree = _next_logits(second_engine, history)
    _, plain_steps = run(second_engine, GenerationRequest(prompt=" zero one", max_tokens=48))
    assert emitted_ids(plain_steps) == emitted_ids(tree_steps)
    after_plain = _next_logits(second_engine, history)
    # the counting models' attention trace makes a kept wrong branch show (over 0.05,
    # runner.py); a branch kept off the chain sums its cells in another order (about 1e-3)
    assert np.abs(after_tree - after_plain).max() < 1e-2


def _note(engine, **request) -> str:
    final, steps = run(engine, GenerationRequest(prompt=" zero one", max_tokens=8, **request))
    assert all(not s.tree for s in steps) and final.note is not None
    return str(final.note)


def test_drafters_without_trees_and_recurrent_targets_draft_chains_and_say_why(test_models):
    """A tree setting kept from the draft model must not refuse every answer of another
    drafter or target: the answer drafts a chain and its note says why."""
    with loaded_engine(test_models / "count-target.gguf", n_ctx=256, n_threads=1) as engine:
        said = _note(engine, spec_type="ngram-mod", n_draft_max=4, tree_nodes=8)
        assert said.startswith("Only these spec types draft token trees: draft, mtp, ngram, eagle3")
        assert "; ngram-mod drafts a chain" in said
    with loaded_engine(test_models / "count-mtp.gguf", n_ctx=256, n_threads=1) as engine:
        assert "recurrent layers" in _note(engine, spec_type="mtp", n_draft_max=2,
                                           tree_nodes=8)


def test_the_command_line_takes_a_size_or_auto_for_the_tree_drafters_alone(test_models, capsys):
    from backend import settings_schema as schema
    from backend.cli.main import main
    from backend.cli.options import parse_as

    parse = parse_as(schema.TREE_NODES)
    assert (parse("auto"), parse("0"), parse("16")) == (AUTO, 0, 16)
    for bad in ("65", "many", "-2"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse(bad)
    code = main(["generate", "--model", str(test_models / "count-target.gguf"), "--spec",
                 "ngram-mod", "--tree", "8", "--raw", " zero one"])
    assert code != 0
    assert "ngram-mod drafts a chain" in capsys.readouterr().err


def test_a_tree_steps_event_carries_its_tree_and_a_trace_keeps_it(second_engine, tmp_path):
    from dataclasses import replace

    from backend.traces import Trace, TraceError, read_trace, write_trace

    request = GenerationRequest(prompt=" zero one", spec_type="draft", n_draft_max=6,
                                tree_nodes=12, max_tokens=48)
    events = list(second_engine.generate(request))
    steps = [e for e in events if getattr(e, "tree", ())]
    assert steps
    for s in steps:
        kept = [n for n in s.tree if n.kept]
        assert [n.id for n in kept] == [t.id for t in s.drafted[: s.n_accepted]]
        assert all(n.p is not None for n in kept)  # read on the kept branch's rows
        assert len(s.tree) >= len(s.drafted)  # every token shown is a node, and more branch
    off_chain = [n for s in steps for n in s.tree if n.kept and n.rank > 0]
    assert off_chain and all(n.text for n in off_chain)  # the second choices it kept
    trace = Trace(request, tuple(events), target_model="count-target.gguf")
    write_trace(tmp_path / "t.json", trace)
    assert read_trace(tmp_path / "t.json") == trace
    bad_step = replace(steps[0], tree=(replace(steps[0].tree[0], parent=3), *steps[0].tree[1:]))
    bad = replace(trace, events=tuple(bad_step if e is steps[0] else e for e in events))
    write_trace(tmp_path / "bad.json", bad)
    with pytest.raises(TraceError, match="tree node 0 follows node 3"):
        read_trace(tmp_path / "bad.json")


N_SAMPLED = 1000
ALPHA = 1e-4


def _sampled_pairs(engine, n: int) -> tuple[np.ndarray, int]:
    """Counts of the 16 (offset1, offset2) outcomes of the first two tokens sampled with a
    tree, and how many steps kept a branch other than the drafter's first choices."""
    from backend.engine.request import SamplingSettings

    word = cycle_index(engine)
    counts, off_chain = np.zeros(16), 0
    for seed in range(n):
        _, steps = run(engine, GenerationRequest(
            prompt=" zero", spec_type="draft", n_draft_max=2, tree_nodes=8, max_tokens=2,
            measure_plain=False, sampling=SamplingSettings(temperature=1.0, top_k=0, top_p=1.0,
                                                           min_p=0.0, seed=seed)))
        off_chain += sum(any(t.kept and t.rank > 0 for t in s.tree) for s in steps)
        a, b = (word[i] for i in emitted_ids(steps)[:2])
        counts[pair_outcome(a, b)] += 1
    return counts, off_chain


def test_sampled_trees_follow_the_targets_distribution(dist_engine):
    from scipy.stats import chisquare

    counts, off_chain = _sampled_pairs(dist_engine, N_SAMPLED)
    assert off_chain > N_SAMPLED // 10  # the second and third choices stood often
    assert chisquare(counts, expected_pairs() * N_SAMPLED).pvalue > ALPHA


def test_a_tree_rule_that_forgets_the_tried_siblings_is_caught(dist_engine, monkeypatch):
    from scipy.stats import chisquare

    from backend.engine.tree import verify as tree_verify

    monkeypatch.setattr(tree_verify, "residual", lambda p, q, x: p)
    counts, _ = _sampled_pairs(dist_engine, N_SAMPLED)
    assert chisquare(counts, expected_pairs() * N_SAMPLED).pvalue < ALPHA


def test_a_sampled_trees_inspection_shows_the_draws_that_decided(dist_engine):
    """A second choice kept after its first choice's rejection was accepted against its p
    with the first choice removed (larger than its p); the first choice's draw refused it."""
    from backend.engine.request import SamplingSettings

    seen = 0
    for seed in range(60):
        _, steps = run(dist_engine, GenerationRequest(
            prompt=" zero", spec_type="draft", n_draft_max=2, tree_nodes=8, max_tokens=4,
            measure_plain=False, sampling=SamplingSettings(temperature=1.0, top_k=0, top_p=1.0,
                                                           min_p=0.0, seed=seed)))
        for s in steps:
            kept = [n for n in s.tree if n.kept]
            if not kept or kept[-1].rank == 0 or len(s.drafted) <= s.n_accepted:
                continue
            alt, first = s.drafted[s.n_accepted - 1], s.drafted[s.n_accepted]
            va, vf = alt.verification, first.verification
            assert va.draw < va.accept_prob and va.accept_prob >= alt.p_target - 1e-9
            assert vf.draw >= vf.accept_prob
            seen += 1
    assert seen > 5


def test_auto_trees_under_k_auto_equal_plain_decoding_and_keep_second_choices(second_engine):
    """K auto and tree auto together: alternatives where the measured costs say they repay
    their row (tree/grow.py); the answer is plain decoding's, and where the draft is right
    second the trees keep second choices."""
    _, plain_steps = run(second_engine, GenerationRequest(prompt=" zero one", max_tokens=64))
    _, steps = run(second_engine, GenerationRequest(prompt=" zero one", spec_type="draft",
                                                    n_draft_max=0, tree_nodes=AUTO,
                                                    max_tokens=64))
    assert emitted_ids(steps) == emitted_ids(plain_steps)
    assert any(n.kept and n.rank > 0 for s in steps for n in s.tree)


# -- n-gram lookup: older continuations of the same n-gram beside the newest ---------------
# the newest " zero one two" went on with " six"; an older one with " three", as the target
REPEATS = " zero one two three four five seven eight zero one two six nine zero one two"


@pytest.mark.parametrize("nodes", [16, AUTO])
def test_ngram_trees_equal_plain_decoding_and_keep_an_older_copy(second_engine, nodes):
    _, plain_steps = run(second_engine, GenerationRequest(prompt=REPEATS, max_tokens=24))
    chain, chain_steps = run(second_engine, GenerationRequest(
        prompt=REPEATS, spec_type="ngram", n_draft_max=6, max_tokens=24))
    tree, tree_steps = run(second_engine, GenerationRequest(
        prompt=REPEATS, spec_type="ngram", n_draft_max=6, tree_nodes=nodes, max_tokens=24))
    assert emitted_ids(tree_steps) == emitted_ids(chain_steps) == emitted_ids(plain_steps)
    assert tree.note is None  # trees, not a chain with a note
    # the first step: the chain's " six" is rejected, the older copy's " three four …" kept,
    # several tokens beside the chain, each saying where it was copied from
    first = tree_steps[0]
    assert len(first.emitted) > len(chain_steps[0].emitted) == 1
    assert [t.text for t in first.drafted[: first.n_accepted]][:2] == [" three", " four"]
    assert all(t.verification is not None and t.verification.match_at is not None
               for t in first.drafted[: first.n_accepted])
    assert any(n.kept and n.rank > 0 for n in first.tree)
    assert tree.stats.n_steps < chain.stats.n_steps


@pytest.mark.parametrize("spec", ["ngram", "draft"])
def test_ngram_and_draft_trees_equal_plain_decoding_on_the_demo_pair(demo_engine, spec):
    prompt = "Repeat exactly: the cat sat on the mat, the cat sat on the hat, the cat sat on"
    messages = (Message("user", prompt),)
    _, plain_steps = run(demo_engine, GenerationRequest(messages=messages, max_tokens=40))
    _, tree_steps = run(demo_engine, GenerationRequest(
        messages=messages, spec_type=spec, n_draft_max=6, tree_nodes=AUTO, max_tokens=40))
    assert emitted_ids(tree_steps) == emitted_ids(plain_steps)
    assert any(s.tree for s in tree_steps)


def test_the_draft_model_continues_its_alternatives_and_drops_their_forks(second_engine):
    """An alternative the draft model continued (tree/extend.py) is kept with what follows it
    where the target agrees; the forks of the draft's cache are gone after each step."""
    import llama_cpp

    _, plain_steps = run(second_engine, GenerationRequest(prompt=" zero one", max_tokens=48))
    _, steps = _answer(second_engine, 12)
    assert emitted_ids(steps) == emitted_ids(plain_steps)
    continued = [(s, n) for s in steps for n in s.tree
                 if n.parent >= 0 and s.tree[n.parent].rank > 0]
    assert continued and all(n.rank == 0 for _, n in continued)
    assert any(n.kept for _, n in continued)  # the target went on with the alternative's line
    draft = second_engine._drafters["draft"].ctx
    assert draft.n_seq_max > 1
    assert [llama_cpp.llama_memory_seq_pos_max(draft.memory, s)
            for s in range(1, draft.n_seq_max)] == [-1] * (draft.n_seq_max - 1)


def _first_step_tokens(engine, nodes: int, n: int = 300) -> float:
    """Tokens the first step of a sampled answer makes, on average over n seeds."""
    from backend.engine.request import SamplingSettings

    made = 0
    for seed in range(n):
        _, steps = run(engine, GenerationRequest(
            prompt=" zero", spec_type="draft", n_draft_max=3, tree_nodes=nodes, max_tokens=4,
            measure_plain=False, sampling=SamplingSettings(temperature=1.0, top_k=0, top_p=1.0,
                                                           min_p=0.0, seed=seed)))
        made += len(steps[0].emitted)
    return made / n


def test_a_sampled_tree_keeps_more_a_step_than_its_chain(dist_engine):
    """The chain's token is tried against the q it was drawn from (min(1, p/q)), as a chain's
    is, before the siblings: a tree then keeps at least what its chain would (2.6 against 2.3
    tokens here; a walk that took the drawn token one-hot kept 2.1, less than the chain)."""
    assert _first_step_tokens(dist_engine, 8) > _first_step_tokens(dist_engine, 0)


def test_map_k4v_trees_verify_the_keys_other_continuations(test_models):
    """ngram-map-k4v remembers up to four continuations of a key: its tree puts the others
    beside the one it drafts (llama.cpp's: what followed the latest match). Here the key
    " five six" went on with " nine ten" twice, latest, and with " seven eight" once, as the
    counting target does: the chain loses its first token, the tree keeps four."""
    from backend.engine.request import NgramMapSettings

    prompt = (" five six seven eight nine ten eleven zero five six nine ten eleven zero five six"
              " nine ten eleven zero one two three four five six")
    ask = {"prompt": prompt, "spec_type": "ngram-map-k4v", "n_draft_max": 4, "max_tokens": 12,
           "ngram_map_k4v": NgramMapSettings(size_n=2, size_m=4, min_hits=1)}
    with loaded_engine(test_models / "count-target.gguf", n_ctx=256, n_threads=1) as engine:
        _, plain = run(engine, GenerationRequest(prompt=prompt, max_tokens=12))
        _, chain = run(engine, GenerationRequest(**ask))
        tree, steps = run(engine, GenerationRequest(**ask, tree_nodes=12))
    assert emitted_ids(steps) == emitted_ids(chain) == emitted_ids(plain)
    assert tree.note is None
    assert [t.text for t in chain[0].drafted if t.accepted] == []
    assert [t.text for t in steps[0].emitted] == [" seven", " eight", " nine", " ten",
                                                  " eleven"]
    assert any(n.kept and n.rank > 0 for n in steps[0].tree)


def test_ngram_cache_trees_verify_the_runner_up_follower(test_models):
    """ngram-cache drafts the most frequent follower of an n-gram; its tree puts the next most
    frequent beside it. " one two" went on with " nine" twice and " three" once, as the
    counting target does: the chain's " nine" is rejected, the tree keeps " three"."""
    prompt = (" zero one two nine ten zero one two nine ten zero one two three four five six"
              " seven eight nine ten eleven zero one")
    ask = {"prompt": prompt, "spec_type": "ngram-cache", "n_draft_max": 6, "max_tokens": 12}
    with loaded_engine(test_models / "count-target.gguf", n_ctx=256, n_threads=1) as engine:
        _, plain = run(engine, GenerationRequest(prompt=prompt, max_tokens=12))
        _, chain = run(engine, GenerationRequest(**ask))
        tree, steps = run(engine, GenerationRequest(**ask, tree_nodes=12))
    assert emitted_ids(steps) == emitted_ids(chain) == emitted_ids(plain)
    assert tree.note is None
    assert [t.text for t in chain[0].emitted] == [" two", " three"]  # " nine" rejected
    assert [t.text for t in steps[0].emitted] == [" two", " three", " four"]
    kept = [n for n in steps[0].tree if n.kept]
    assert [(n.text, n.rank) for n in kept] == [(" two", 0), (" three", 1)]
