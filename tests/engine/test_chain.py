"""Chains of drafters ("ngram-mod,draft", as llama.cpp's --spec-type takes them): the first
member to propose drafts the step, each token says which member made it, a member that is
not asked still learns from the history, and the answer is the target's own."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from build import CYCLE_WORDS
from scipy.stats import chisquare

from backend import settings_schema as schema
from backend import spec_types
from backend.cli.main import main
from backend.engine import verify
from backend.engine.drafters.base import PromptReader, Proposal, SamplingDrafter
from backend.engine.drafters.chain import Chain
from backend.engine.drafters.ngram_mod import NgramModDrafter
from backend.engine.request import (
    GenerationRequest,
    Message,
    NgramMapSettings,
    NgramModSettings,
    NgramSettings,
    SamplingSettings,
)
from engine.dist_pairs import cycle_index, expected_pairs, pair_outcome
from engine.runner import assert_rollback_leaves_plain_state, emitted_ids, loaded_engine, run

WORDS = list(CYCLE_WORDS)

# Every lookup finds copies here, right and wrong (test_ngram_family_lossless.py).
COUNT_PROMPT = " " + " ".join(WORDS + (WORDS[:5] + WORDS[7:]) * 3 + WORDS[:3])
# Nothing to look up at first: the draft model drafts until the count comes round again.
SHORT_PROMPT = " zero one"
# Shorter keys than the defaults (24 and 12 tokens), so that ngram-mod and ngram-map-k find
# the count's earlier turn in so short an answer, and ngram-map-k leaves some steps to
# ngram-cache.
SMALL_MOD = NgramModSettings(n_match=2, n_min=1, n_max=8)
SMALL_MAP = NgramMapSettings(size_n=6, size_m=8, min_hits=1)
CASES = {  # chain: (prompt, its members as they are asked)
    "ngram-mod,draft": (SHORT_PROMPT, ("ngram-mod", "draft")),
    "ngram,draft": (SHORT_PROMPT, ("ngram", "draft")),
    # written in the other order: asked in llama.cpp's
    "ngram-cache,ngram-map-k": (COUNT_PROMPT, ("ngram-map-k", "ngram-cache")),
}


def _request(prompt: str, spec: str, k: int, max_tokens: int = 80) -> GenerationRequest:
    return GenerationRequest(prompt=prompt, spec_type=spec, n_draft_max=k, max_tokens=max_tokens,
                             measure_plain=False, ngram_mod=SMALL_MOD, ngram_map_k=SMALL_MAP)


@pytest.mark.parametrize("k", [8, 0])
@pytest.mark.parametrize("chain", list(CASES))
def test_greedy_equals_plain_decoding_and_each_step_is_one_members(count_engine, chain, k):
    prompt, members = CASES[chain]
    _, plain = run(count_engine, _request(prompt, "none", 0))
    final, steps = run(count_engine, _request(prompt, chain, k))
    assert emitted_ids(steps) == emitted_ids(plain)
    drafting = [s for s in steps if s.drafted]
    origins = [{t.origin for t in s.drafted} for s in drafting]
    assert all(len(o) == 1 for o in origins), "a step drafted by two members"
    by_member = Counter(o.pop() for o in origins)
    assert set(by_member) <= set(members)
    assert final.stats.n_drafted == sum(len(s.drafted) for s in drafting)
    # accepted drafts keep their member's name in the answer
    for s in drafting:
        accepted = [t for t in s.emitted if t.origin != "target"]
        assert {t.origin for t in accepted} <= {s.drafted[0].origin}
    if k:  # a fixed K, so what drafts where does not follow measured times
        assert set(by_member) == set(members), by_member


def test_a_chain_with_a_model_member_is_that_kind_of_drafter(count_engine):
    """K auto's stopper and p_min reach the draft model, and it reads the prompt."""
    drafter = count_engine._drafter(_request(SHORT_PROMPT, "draft,ngram-mod", 4))
    assert isinstance(drafter, SamplingDrafter) and isinstance(drafter, PromptReader)
    assert [m.origin for m in drafter.members] == ["ngram-mod", "draft"]
    lookups = count_engine._drafter(_request(SHORT_PROMPT, "ngram-cache,ngram", 4))
    assert not isinstance(lookups, SamplingDrafter | PromptReader)


# -- the chain's rule, with scripted members ----------------------------------------------------
class Scripted:
    """A lookup that proposes what it is told at each call, and notes what it was shown."""

    def __init__(self, origin: str, script: list[list[int]]) -> None:
        self.origin = origin
        self.script = script
        self.asked: list[int] = []  # the history's length at each propose
        self.settled: list[int] = []

    def begin(self, request, rng) -> None:
        pass

    def settle(self, history: list[int]) -> None:
        self.settled.append(len(history))

    def propose(self, history: list[int], n_max: int) -> Proposal:
        self.asked.append(len(history))
        tokens = self.script.pop(0)[:n_max]
        return Proposal(tokens=tokens, dists=[None] * len(tokens), p_draft=[None] * len(tokens),
                        heads=[None] * len(tokens), sources=[0] * len(tokens), continues=True)

    def close(self) -> None:
        pass


def test_the_first_member_that_proposes_drafts_and_names_the_step():
    a = Scripted("a", [[], [1], []])
    b = Scripted("b", [[5, 6], [7]])
    chain = Chain([a, b])
    chain.begin(GenerationRequest(prompt="x"), np.random.default_rng(0))
    history = [9, 9, 9]
    p = chain.propose(history, 8)
    assert (p.tokens, chain.origin) == ([5, 6], "b")
    history += [5, 2]
    p = chain.propose(history, 8)
    assert (p.tokens, chain.origin) == ([1], "a")
    assert not p.continues  # "b" made the last step's copy, not "a"
    history += [3]
    p = chain.propose(history, 1)
    assert (p.tokens, chain.origin) == ([7], "b")
    assert a.asked == [3, 5, 6] and b.asked == [3, 6]  # "b" not asked while "a" drafted
    assert a.settled == b.settled == [3, 5, 6]  # but every member saw every history


def test_nothing_proposed_is_an_empty_step():
    chain = Chain([Scripted("a", [[]]), Scripted("b", [[]])])
    chain.begin(GenerationRequest(prompt="x"), np.random.default_rng(0))
    assert chain.propose([1, 2, 3], 8).tokens == []


def test_a_member_learns_its_acceptance_at_the_next_step_even_when_another_drafts_it():
    """llama.cpp's accept: the member that drafted the step learns how much was kept, once;
    the others learn nothing (is_other). ngram-mod counts a draft under a quarter accepted."""
    mod = NgramModDrafter(NgramModSettings(2, 1, 4), table_size=1 << 16)
    first = Scripted("first", [[], [8], [], []])
    chain = Chain([first, mod])
    chain.begin(GenerationRequest(prompt="x"), np.random.default_rng(0))
    history = [1, 2, 3, 4, 5, 9, 1, 2]
    p = chain.propose(history, 8)
    assert chain.origin == "ngram-mod" and p.tokens == [3, 4, 5, 9]
    history += [7]  # none of it kept: the target wrote 7
    chain.propose(history, 8)
    assert chain.origin == "first" and mod.n_low == 1  # learnt now, though not asked
    history += [6]
    chain.propose(history, 8)
    assert mod.n_low == 1  # and only once


# -- declared as a spec type ----------------------------------------------------------------
def test_a_chain_is_composed_from_its_members_in_llama_cpps_order():
    spec = spec_types.get("draft,ngram-mod")
    assert spec is not None and spec.name == "ngram-mod,draft"
    assert spec.label == "n-gram mod, then draft model"
    assert spec.needs == "draft_model" and spec.uses_p_min and spec.drafts
    assert spec_types.get("ngram-mod, draft") == spec
    lookups = spec_types.get("ngram-cache,ngram-map-k")
    assert lookups is not None and lookups.name == "ngram-map-k,ngram-cache"
    assert lookups.needs == "" and not lookups.uses_p_min
    assert spec_types.drafters_of("draft,ngram-mod") == ("ngram-mod", "draft")
    assert spec_types.drafters_of("ngram") == ("ngram",)
    assert spec_types.drafters_of("draft,eagle3") == spec_types.drafters_of("nope") == ()
    assert "ngram-mod,draft" not in spec_types.names()  # chains are not listed
    assert "draft,ngram-mod" in spec_types.choices()
    assert schema.SPEC_TYPE.problem("ngram-cache,ngram-map-k") is None


@pytest.mark.parametrize(("chain", "said"), [
    ("draft,eagle3", "A chain can hold only one drafter that needs a model file or heads: "
                     "draft and eagle3 both do."),
    ("ngram,mtp,draft", "A chain can hold only one drafter that needs a model file or heads: "
                        "mtp and draft both do."),
    ("ngram,ngram", "The chain 'ngram,ngram' names 'ngram' twice."),
    ("none,ngram", "The chain 'none,ngram' names 'none', which does not draft."),
])
def test_a_chain_that_cannot_be_is_refused_in_words(chain, said, capsys):
    assert spec_types.get(chain) is None
    assert str(spec_types.chain_problem(chain)) == said
    with pytest.raises(ValueError, match="refused"):
        schema.SPEC_TYPE.check(chain)
    assert main(["generate", "--model", "m.gguf", "--spec", chain, "p"]) == 1
    assert said in capsys.readouterr().err


def test_a_chain_of_unknown_names_is_no_choice(capsys):
    assert spec_types.get("ngram,nope") is None
    assert "'nope', which is no spec type" in str(spec_types.chain_problem("ngram,nope"))
    assert schema.SPEC_TYPE.problem("ngram,nope").startswith("is not one of")
    with pytest.raises(SystemExit):
        main(["generate", "--model", "m.gguf", "--spec", "ngram,nope", "p"])
    assert "invalid choice" in capsys.readouterr().err


def test_map_settings_reach_a_chains_member(count_engine):
    """The chain's members read their own parts of the request, as they do alone."""
    prompt = " zero one two"
    _, plain = run(count_engine, _request(prompt, "none", 0, 40))
    request = GenerationRequest(prompt=prompt, spec_type="ngram-map-k,ngram-cache",
                                n_draft_max=8, max_tokens=40, measure_plain=False,
                                ngram_map_k=NgramMapSettings(3, 4, 1))
    _, steps = run(count_engine, request)
    assert emitted_ids(steps) == emitted_ids(plain)
    by_map = [s for s in steps if s.drafted and s.drafted[0].origin == "ngram-map-k"]
    assert by_map and all(len(s.drafted) <= 4 for s in by_map)  # size_m = 4


# -- members that follow the target ----------------------------------------------------------
@pytest.mark.parametrize("k", [6, 0])
def test_a_lookup_then_mtp_equals_plain_decoding(test_models, k):
    """MTP sees the target's decodes of the lookup's steps too (the chain passes them on),
    and rolls back with it."""
    with loaded_engine(test_models / "count-mtp.gguf", n_ctx=256, n_threads=1) as engine:
        _, plain = run(engine, _request(SHORT_PROMPT, "none", 0, 40))
        _, steps = run(engine, _request(SHORT_PROMPT, "mtp,ngram", k, 40))
        assert emitted_ids(steps) == emitted_ids(plain)
        origins = {s.drafted[0].origin for s in steps if s.drafted}
        assert origins <= {"ngram", "mtp"} and (origins == {"ngram", "mtp"} or not k)
        assert_rollback_leaves_plain_state(engine, "ngram,mtp", 6)


def test_a_lookup_then_an_eagle3_head_equals_plain_decoding(test_models):
    with loaded_engine(test_models / "count-target3.gguf", test_models / "eagle3-own.gguf",
                       n_ctx=512, n_threads=1) as engine:
        _, plain = run(engine, _request(SHORT_PROMPT, "none", 0, 40))
        _, steps = run(engine, _request(SHORT_PROMPT, "eagle3,ngram", 6, 40))
        assert emitted_ids(steps) == emitted_ids(plain)
        assert {s.drafted[0].origin for s in steps if s.drafted} == {"ngram", "eagle3"}


# -- sampled -------------------------------------------------------------------------------------
def _sampled_pairs(engine, n: int) -> tuple[np.ndarray, Counter]:
    """Counts of the 16 (offset1, offset2) outcomes of the first two sampled tokens, and the
    drafted tokens by member."""
    word = cycle_index(engine)
    counts = np.zeros(16)
    by: Counter = Counter()
    for seed in range(n):
        _, steps = run(engine, GenerationRequest(
            prompt=" zero two zero", spec_type="ngram,draft", n_draft_max=2, max_tokens=3,
            measure_plain=False, ngram=NgramSettings(size_n=1),
            sampling=SamplingSettings(temperature=1.0, top_k=0, top_p=1.0, min_p=0.0,
                                      seed=seed)))
        by.update(t.origin for s in steps for t in s.drafted)
        a, b = (word[i] for i in emitted_ids(steps)[:2])
        counts[pair_outcome(a, b)] += 1
    return counts, by


def _pvalue(counts: np.ndarray) -> float:
    return chisquare(counts, expected_pairs() * counts.sum()).pvalue


N_SAMPLED = 1000
ALPHA = 1e-4


def test_a_chains_sampled_output_follows_the_target_distribution(dist_engine):
    """χ² on the distribution models: after " zero two zero" the lookup (1-token keys)
    proposes " two zero" (one-hot q; " zero" after " two" has p = 0, so it is always
    rejected and the residual is p itself), the draft model the steps the lookup leaves.
    The first two tokens are counted (a third lets the draft model draft the second)."""
    counts, by = _sampled_pairs(dist_engine, N_SAMPLED)
    assert _pvalue(counts) > ALPHA
    assert by["ngram"] >= N_SAMPLED and by["draft"] > 0  # both drafted


def test_a_biased_verifier_is_caught_on_a_chain(dist_engine, monkeypatch):
    """The same test fails a verifier that samples from p where it should from the residual."""
    monkeypatch.setattr(verify, "residual", lambda p, q, x: p)
    counts, _ = _sampled_pairs(dist_engine, N_SAMPLED)
    assert _pvalue(counts) < ALPHA


def test_greedy_chains_equal_plain_decoding_on_the_demo_pair(demo_engine):
    """A real pair, on a rewrite: the lookups find the text, the draft model the rest."""
    text = ("Draftlight is a desktop chat app for local language models. It shows every "
            "token as it streams, coloured by where it came from.")
    messages = (Message("user", f"Repeat this text exactly, word for word:\n\n{text}"),)
    _, plain = run(demo_engine, GenerationRequest(messages=messages, max_tokens=24))
    _, steps = run(demo_engine, GenerationRequest(
        messages=messages, spec_type="ngram,draft", n_draft_max=8, max_tokens=24,
        measure_plain=False))
    assert emitted_ids(steps) == emitted_ids(plain)
    assert {s.drafted[0].origin for s in steps if s.drafted} == {"ngram", "draft"}


def test_the_terminal_tells_a_lookups_copy_from_a_models_guess():
    from backend.cli.generate import ACCEPTED, LOOKUP_ACCEPTED, render_steps
    from backend.engine.events import StepVerified, Token
    from backend.engine.token_log import fold_steps
    from backend.palette import LOOKUP_KINDS

    def step(origin: str) -> str:
        drafted = (Token(1, " a", origin, True), Token(2, " b", origin, False))
        emitted = (Token(1, " a", origin, True), Token(3, " c", "target", True))
        return render_steps(fold_steps([StepVerified(1, drafted, 1, emitted, 0.0, 0.0)])[0])

    assert step("draft").startswith(ACCEPTED + " a")
    shades = {step(name).partition(" a")[0] for name in LOOKUP_KINDS}
    assert shades == set(LOOKUP_ACCEPTED) and len(shades) == len(LOOKUP_KINDS)
    assert all("\033[3;" in s for s in shades)  # italics: a cue without colour
