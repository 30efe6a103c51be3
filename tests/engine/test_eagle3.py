"""Spec type `eagle3`: drafting with an EAGLE-3 head on the synthetic models of
tests/models/eagle3.py.

count-target3 counts " zero one two …" with 4 layers. A head's proposals are known in advance:
the g heads propose from the word *before* the last one (g_P names x_P), the token head from
the last word itself, so a drafter that pairs an entry with the wrong position's state or
token proposes the wrong words and the exact accept/reject patterns below fail.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from build import CYCLE_WORDS, DIST_TARGET
from eagle3 import D2T_SKIP_EVERY, N_DRAFT_VOCAB, OWN_SKIP_EVERY, OWN_WIDTH, head_step
from scipy.stats import chisquare

from backend import spec_types
from backend.engine import verify
from backend.engine.drafters import eagle3 as eagle3_drafter
from backend.engine.engine import Engine
from backend.engine.errors import EngineError
from backend.engine.events import GenerationFailed
from backend.engine.request import GenerationRequest, SamplingSettings
from backend.models.inspection import inspect_model
from engine.runner import (
    assert_rollback_leaves_plain_state,
    emitted_ids,
    loaded_engine,
    run,
    split_step,
)

W = [" " + w for w in CYCLE_WORDS]
N = len(W)

# head file -> how its drafts follow from (word before the last, last word)
HEADS = {
    "eagle3-count.gguf": 0,  # right everywhere
    "eagle3-token.gguf": None,  # right everywhere, from the token of each entry
    "eagle3-own.gguf": OWN_SKIP_EVERY,
    "eagle3-d2t.gguf": D2T_SKIP_EVERY,
}


def expected_drafts(head: str, before: int, last: int, k: int) -> list[int]:
    """The k words (cycle indices) `head` proposes after ... before, last."""
    skip = HEADS[head]
    if skip is None:
        return [(last + 1 + j) % N for j in range(k)]
    out, x = [], before
    for _ in range(k):
        x = head_step(x, skip)  # the head's pre-norm state names this word…
        out.append((x + 1) % N)  # …and the counting output proposes the next one
    return out


@pytest.fixture(scope="module")
def e3_engine(test_models):
    with loaded_engine(test_models / "count-target3.gguf", n_ctx=1024, n_threads=1) as e:
        yield e


def _use(engine: Engine, test_models, head: str) -> None:
    if engine.draft is None or not engine.draft.path.endswith(head):
        engine.load_draft(test_models / head)


def _assert_steps_as_constructed(head: str, steps, before: int, last: int) -> None:
    for step in steps:
        k = len(step.drafted)
        acc, rej, own = split_step(last, expected_drafts(head, before, last, k), N)
        assert [t.text for t in step.drafted if t.accepted] == [W[d] for d in acc]
        assert [t.text for t in step.drafted if not t.accepted] == [W[d] for d in rej]
        assert [t.accepted for t in step.drafted] == [True] * len(acc) + [False] * len(rej)
        assert [t.origin for t in step.drafted] == ["eagle3"] * k
        assert step.n_accepted == min(len(acc), len(step.emitted))
        if len(step.emitted) == len(acc) + 1:  # the last step may stop early at max_tokens
            assert [t.text for t in step.emitted] == [W[d] for d in acc] + [W[own]]
            assert [t.origin for t in step.emitted] == ["eagle3"] * len(acc) + ["target"]
        words = [W.index(t.text) for t in step.emitted]
        before, last = [last, *words][-2], words[-1]


def test_inspection_recognises_heads_and_their_facts(test_models):
    count = inspect_model(test_models / "eagle3-count.gguf").eagle3
    assert count is not None
    assert count.target_layers == (0, 2, 3) and count.target_hidden_size == 32
    assert (count.own_embedding, count.own_output, count.d2t_range) == (False, False, None)
    own = inspect_model(test_models / "eagle3-own.gguf").eagle3
    assert own is not None and own.n_embd == OWN_WIDTH and own.own_embedding and own.own_output
    d2t = inspect_model(test_models / "eagle3-d2t.gguf").eagle3
    assert d2t is not None and d2t.draft_vocab_size == N_DRAFT_VOCAB
    assert d2t.d2t_range is not None and 0 <= d2t.d2t_range[0] < d2t.d2t_range[1] < 49152
    target = inspect_model(test_models / "count-target3.gguf")
    assert target.eagle3 is None and target.n_embd == 32 and target.n_layers == 4


@pytest.mark.parametrize("head", list(HEADS))
def test_heads_accept_and_reject_exactly_as_constructed(e3_engine, test_models, head):
    _use(e3_engine, test_models, head)
    final, steps = run(e3_engine, GenerationRequest(
        prompt=" zero one", spec_type="eagle3", measure_plain=False, n_draft_max=4, max_tokens=30))
    _assert_steps_as_constructed(head, steps, 0, 1)
    assert all(len(s.drafted) == 4 for s in steps[:5])  # later ones: what max_tokens leaves
    plain, plain_steps = run(e3_engine, GenerationRequest(prompt=" zero one", max_tokens=30))
    assert final.text == plain.text == "".join(W[(2 + i) % N] for i in range(30))
    assert emitted_ids(steps) == emitted_ids(plain_steps)
    rate = final.stats.acceptance_rate
    assert (rate == 1.0) if HEADS[head] in (0, None) else (0.3 < rate < 0.9)


def test_the_wrong_heads_reject_where_built_to(e3_engine, test_models):
    """The skip positions by hand, so the expectation above is not only its own formula."""
    assert expected_drafts("eagle3-own.gguf", 0, 1, 4) == [2, 3, 5, 6]  # wrong after " two"
    assert expected_drafts("eagle3-d2t.gguf", 0, 1, 4) == [2, 3, 4, 6]  # after " three"
    assert expected_drafts("eagle3-token.gguf", 5, 7, 3) == [8, 9, 10]  # ignores the state
    _use(e3_engine, test_models, "eagle3-own.gguf")
    _, steps = run(e3_engine, GenerationRequest(
        prompt=" zero one", spec_type="eagle3", n_draft_max=4, max_tokens=5))
    first = steps[0]
    assert [(t.text, t.accepted) for t in first.drafted] == [
        (" two", True), (" three", True), (" five", False), (" six", False)]
    assert [t.text for t in first.emitted] == [" two", " three", " four"]


def test_a_long_prompt_in_several_chunks_drafts_from_its_end(e3_engine, test_models):
    """A prompt longer than a batch reaches the head chunk by chunk, and the first draft's
    entries are written in more rows than ask for logits."""
    _use(e3_engine, test_models, "eagle3-own.gguf")
    prompt = "".join(W[i % N] for i in range(700))
    final, steps = run(e3_engine, GenerationRequest(
        prompt=prompt, spec_type="eagle3", n_draft_max=4, max_tokens=24))
    _assert_steps_as_constructed("eagle3-own.gguf", steps, 698 % N, 699 % N)
    plain, _ = run(e3_engine, GenerationRequest(prompt=prompt, max_tokens=24))
    assert final.text == plain.text
    assert final.stats.n_accepted > 0


def test_follow_up_request_reuses_the_prefix_and_keeps_drafting(e3_engine, test_models):
    _use(e3_engine, test_models, "eagle3-d2t.gguf")
    e3_engine.reset_cache()
    first, _ = run(e3_engine, GenerationRequest(
        prompt=" zero one", spec_type="eagle3", n_draft_max=4, max_tokens=9))
    follow_up = " zero one" + first.text + " eleven zero"
    events = list(e3_engine.generate(GenerationRequest(
        prompt=follow_up, spec_type="eagle3", n_draft_max=4, max_tokens=12)))
    assert not any(isinstance(e, GenerationFailed) for e in events)
    assert events[1].n_cached > 0
    assert events[-1].text == "".join(W[(1 + i) % N] for i in range(12))
    steps = [e for e in events if hasattr(e, "drafted")]
    _assert_steps_as_constructed("eagle3-d2t.gguf", steps, 11, 0)


def test_plain_answers_in_between_leave_no_stale_state(e3_engine, test_models):
    """The head keeps the target's states by position: decodes it did not see (a plain
    answer to another prompt) must not be taken for them."""
    _use(e3_engine, test_models, "eagle3-count.gguf")
    e3_engine.reset_cache()
    run(e3_engine, GenerationRequest(prompt=" three four five six seven", spec_type="eagle3",
                                     n_draft_max=4, max_tokens=8))
    run(e3_engine, GenerationRequest(prompt=" three four nine", max_tokens=8))
    final, steps = run(e3_engine, GenerationRequest(
        prompt=" three four nine ten eleven", spec_type="eagle3", n_draft_max=4, max_tokens=12))
    _assert_steps_as_constructed("eagle3-count.gguf", steps, 10, 11)
    assert final.stats.acceptance_rate == 1.0


def test_rollback_restores_exactly_the_state_of_plain_decoding(e3_engine, test_models):
    _use(e3_engine, test_models, "eagle3-own.gguf")
    assert_rollback_leaves_plain_state(e3_engine, "eagle3", 4)


def test_a_hybrid_target_feeds_a_head_and_rolls_back_exactly(test_models):
    """count-mtp (qwen35: recurrent and attention layers, and a NextN block that records no
    layer input) counts like count-target3 and is 32 wide, so the heads fit it: rejected
    drafts roll back through state snapshots, and the target's context is made again for
    longer drafts (the head's context borrows from it, so it follows)."""
    target = inspect_model(test_models / "count-mtp.gguf")
    assert (target.n_layers, target.n_mtp_heads) == (5, 1)
    with loaded_engine(test_models / "count-mtp.gguf", test_models / "eagle3-own.gguf",
                       n_ctx=256, n_threads=1) as e:
        for k in (4, 12):  # 12 needs more snapshots than the target context was made with
            final, steps = run(e, GenerationRequest(
                prompt=" zero one", spec_type="eagle3", n_draft_max=k, max_tokens=30))
            _assert_steps_as_constructed("eagle3-own.gguf", steps, 0, 1)
            assert final.text == "".join(W[(2 + i) % N] for i in range(30))
        assert_rollback_leaves_plain_state(e, "eagle3", 4)


def test_sampling_with_a_reduced_vocabulary_keeps_to_the_target(e3_engine, test_models):
    """d2t leaves most of the head's logits at -inf: the sampler's transforms must cope."""
    _use(e3_engine, test_models, "eagle3-d2t.gguf")
    for sampling in (SamplingSettings(temperature=0.8, top_k=40, top_p=0.9, min_p=0.05, seed=3),
                     SamplingSettings(temperature=1.0, top_k=0, top_p=1.0, min_p=0.0,
                                      repeat_penalty=1.1, seed=4)):
        final, steps = run(e3_engine, GenerationRequest(
            prompt=" zero one", spec_type="eagle3", n_draft_max=4, max_tokens=20,
            sampling=sampling))
        assert final.text == "".join(W[(2 + i) % N] for i in range(20))
        assert final.stats.n_accepted > 0
        assert all(t.p_draft is not None and 0 < t.p_draft <= 1
                   for s in steps for t in s.drafted)


# -- refusals: each in words, before llama.cpp would abort ----------------------------------

def _refusal(engine: Engine, test_models, head: str) -> str:
    before = engine.draft.path if engine.draft else None
    with pytest.raises(EngineError) as info:
        engine.load_draft(test_models / head)
    assert (engine.draft.path if engine.draft else None) == before  # a refusal changes nothing
    return str(info.value)


@pytest.mark.parametrize("head, words", [
    ("eagle3-bad-layers.gguf", "reads layer 4 of its target, but count-target3 has 4 layers"),
    ("eagle3-bad-hidden.gguf", "made for a target with hidden size 48, but count-target3 has "
                               "32"),
    ("eagle3-bad-width.gguf", "borrows the target's token embedding"),
    ("eagle3-bad-d2t.gguf", "d2t table maps to token id 49159, outside"),
    ("eagle3-bad-d2t-no-output.gguf", "no output matrix of its own"),
    ("eagle3-bad-vocab.gguf", "made for another vocabulary"),
])
def test_heads_that_do_not_fit_are_refused_in_words(e3_engine, test_models, head, words):
    message = _refusal(e3_engine, test_models, head)
    assert words in message
    assert "\n" not in message
    # the engine goes on: the next head loads and drafts
    e3_engine.load_draft(test_models / "eagle3-count.gguf")
    final, _ = run(e3_engine, GenerationRequest(
        prompt=" zero one", spec_type="eagle3", n_draft_max=4, max_tokens=8))
    assert final.stats.acceptance_rate == 1.0


def test_a_target_without_layer_capture_is_refused(test_models):
    with loaded_engine(test_models / "count-qwen2.gguf", n_ctx=128, n_threads=1) as e:
        message = _refusal(e, test_models, "eagle3-count.gguf")
        assert message == ("count-qwen2 is a qwen2 model, and llama.cpp cannot read the hidden "
                           "states of that architecture, so no EAGLE-3 head can draft for it.")
        final, _ = run(e, GenerationRequest(prompt=" zero one", max_tokens=4))
        assert final.text == " two three four five"


def test_a_head_opened_as_the_target_is_refused(test_models):
    for head in ("eagle3-count.gguf", "eagle3-own.gguf"):
        engine = Engine()
        try:
            with pytest.raises(EngineError) as info:
                engine.load_target(test_models / head, n_ctx=128, n_threads=1)
            assert engine.target is None
        finally:
            engine.close()
        message = str(info.value)
        assert message.startswith(f"{head} is an EAGLE-3 draft head for a model with hidden "
                                  "size 32")
        assert "choose it as the draft with spec type EAGLE-3" in message


def test_spec_types_match_the_draft_file(e3_engine, test_models):
    """An EAGLE-3 head is no draft model, and a draft model is no EAGLE-3 head."""
    _use(e3_engine, test_models, "eagle3-count.gguf")
    events = list(e3_engine.generate(GenerationRequest(prompt=" zero one", spec_type="draft")))
    assert isinstance(events[-1], GenerationFailed)
    assert events[-1].message == ("eagle3-count.gguf is an EAGLE-3 head, not a draft model: it "
                                  "drafts with spec type EAGLE-3.")
    e3_engine.load_draft(test_models / "count-target.gguf")  # a draft model: it loads
    events = list(e3_engine.generate(GenerationRequest(prompt=" zero one", spec_type="eagle3")))
    assert isinstance(events[-1], GenerationFailed)
    assert events[-1].message == (
        "count-target.gguf (llama) drafts with spec type draft model, not EAGLE-3.")
    e3_engine.unload_draft()
    events = list(e3_engine.generate(GenerationRequest(prompt=" zero one", spec_type="eagle3")))
    assert isinstance(events[-1], GenerationFailed)
    assert "needs an EAGLE-3 head as the draft" in events[-1].message


def test_a_draft_model_still_loads_beside_the_eagle3_spec_type(test_models):
    """Loading a draft model makes only the drafters of draft models (the EAGLE-3 one would
    refuse it), and unloading frees every drafter the draft file made."""
    assert spec_types.draft_need("llama") == "draft_model"
    assert spec_types.draft_need("eagle3") == "eagle3_head"
    with loaded_engine(test_models / "count-target3.gguf", test_models / "count-draft.gguf",
                       n_ctx=128, n_threads=1) as e:
        assert set(e._drafters) == {"draft"}
        e.load_draft(test_models / "eagle3-count.gguf")
        assert set(e._drafters) == {"eagle3"}
        e.unload_draft()
        assert e._drafters == {}


def test_missing_bindings_are_reported_in_words(e3_engine, test_models, monkeypatch):
    from backend.engine import eagle3_bindings

    with pytest.raises(AttributeError, match="None of the shared library symbols"):
        eagle3_bindings._bind(("no_such_llama_function",), [], None)

    real = eagle3_drafter.importlib.import_module

    def missing(name):
        if name == "backend.engine.eagle3_bindings":  # as a library without the symbols
            raise AttributeError("None of the shared library symbols were found: x")
        return real(name)

    monkeypatch.setattr(eagle3_drafter.importlib, "import_module", missing)
    e3_engine.unload_draft()
    with pytest.raises(EngineError, match="does not export the layer-capture functions"):
        e3_engine.load_draft(test_models / "eagle3-count.gguf")


# -- sampling: speculative sampling with the head's own distribution -----------------------

ALPHA = 1e-4
N_SAMPLES = 1500


def _first_two(engine: Engine, n: int) -> tuple[np.ndarray, int]:
    """Counts of the 16 (offset1, offset2) outcomes of the first two sampled words after
    " zero" (the head needs one word before it), and how many drafts were verified."""
    ids = {engine._target.tokenize(w, add_special=False)[0]: i for i, w in enumerate(W)}
    counts = np.zeros(16)
    n_drafted = 0
    for seed in range(n):
        req = GenerationRequest(
            prompt=" eleven zero", spec_type="eagle3", n_draft_max=2, max_tokens=3,
            sampling=SamplingSettings(temperature=1.0, top_k=0, top_p=1.0, min_p=0.0, seed=seed),
        )
        events = list(engine.generate(req))
        out = [t.id for ev in events for t in getattr(ev, "emitted", ())]
        n_drafted += sum(len(getattr(ev, "drafted", ())) for ev in events)
        a, b = ids[out[0]], ids[out[1]]
        counts[4 * (a - 1) + (b - a - 1) % N] += 1
    return counts, n_drafted


def _expected() -> np.ndarray:
    p = np.array(DIST_TARGET)
    return np.outer(p, p).ravel() * N_SAMPLES


def test_eagle3_sampling_matches_the_target_distribution(dist_e3_engine):
    counts, n_drafted = _first_two(dist_e3_engine, N_SAMPLES)
    assert n_drafted >= N_SAMPLES  # the head drafted in every answer
    assert chisquare(counts, _expected()).pvalue > ALPHA


def test_a_biased_verifier_is_caught_on_the_eagle3_pair(dist_e3_engine, monkeypatch):
    monkeypatch.setattr(verify, "residual", lambda p, q, x: p)
    counts, _ = _first_two(dist_e3_engine, N_SAMPLES)
    assert chisquare(counts, _expected()).pvalue < ALPHA


# -- command line --------------------------------------------------------------------------

def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "backend.cli.main", *args],
                          capture_output=True, text=True, timeout=300)


def test_cli_generates_with_an_eagle3_head(test_models):
    target = str(test_models / "count-target3.gguf")
    head = str(test_models / "eagle3-own.gguf")
    common = ("--model", target, "--raw", "--max-tokens", "12", "--threads", "1", "--temp", "0")
    r = _cli("generate", *common, "--draft", head, "--spec", "eagle3", "--n-draft", "4",
             "--json", " zero one")
    assert r.returncode == 0, r.stderr
    events = [json.loads(line) for line in r.stdout.splitlines()]
    assert events[0]["spec_type"] == "eagle3"
    drafted = [t for e in events if e["event"] == "step" for t in e["drafted"]]
    assert {t["origin"] for t in drafted} == {"eagle3"}
    assert any(t["accepted"] for t in drafted) and not all(t["accepted"] for t in drafted)
    plain = _cli("generate", *common, "--json", " zero one")
    assert plain.returncode == 0, plain.stderr
    assert events[-1]["text"] == json.loads(plain.stdout.splitlines()[-1])["text"] \
        == "".join(W[(2 + i) % N] for i in range(12))


def test_cli_takes_an_eagle3_head_as_the_draft_without_spec(test_models):
    r = _cli("generate", "--model", str(test_models / "count-target3.gguf"), "--draft",
             str(test_models / "eagle3-count.gguf"), "--raw", "--max-tokens", "6",
             "--threads", "1", "--n-draft", "2", "--json", " zero one")
    assert r.returncode == 0, r.stderr
    events = [json.loads(line) for line in r.stdout.splitlines()]
    assert events[0]["spec_type"] == "eagle3"
    assert events[-1]["text"] == "".join(W[(2 + i) % N] for i in range(6))


@pytest.mark.parametrize("model, draft, words", [
    ("eagle3-own.gguf", None, "eagle3-own.gguf is an EAGLE-3 draft head for a model"),
    ("count-target3.gguf", "eagle3-bad-hidden.gguf", "made for a target with hidden size 48"),
    ("count-qwen2.gguf", "eagle3-count.gguf", "cannot read the hidden states of that "
                                              "architecture"),
])
def test_cli_refuses_in_one_line(test_models, model, draft, words):
    args = ["generate", "--model", str(test_models / model), "--raw", "--max-tokens", "4",
            "--threads", "1"]
    if draft:
        args += ["--draft", str(test_models / draft), "--spec", "eagle3"]
    r = _cli(*args, " zero one")
    assert r.returncode == 1
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("draftlight: ") and words in lines[0]


def test_the_drafter_module_names_its_origin():
    assert eagle3_drafter.Eagle3Drafter.origin == "eagle3"
    spec = spec_types.get("eagle3")
    assert spec is not None and spec.label == "EAGLE-3" and "EAGLE-3 head" in spec.drafted_by
