"""Spec type `dflash`: drafting a whole block in one pass with a DFlash (or DSpark) head, on the
synthetic models of tests/models/dflash.py.

count-target3 counts " zero one two …". A head's block is known in advance from its anchor
(the last word, which the target has not decoded yet): DFlash block row i proposes the word i
after it, DSpark row i the word i + 1 after it, `dflash-skip` one word too far at row
WRONG_ROW. A drafter that put the anchor elsewhere, shifted the block's positions or drafted
autoregressively would propose other words, and the exact accept/reject checks below fail.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from build import CYCLE_WORDS, DIST_TARGET
from dflash import BLOCK_SIZE, DOUBT_WORD, TARGET_LAYERS, WRONG_ROW, proposed_row
from scipy.stats import chisquare

from backend import spec_types
from backend.engine import verify
from backend.engine.drafters import dflash as dflash_drafter
from backend.engine.engine import Engine
from backend.engine.errors import EngineError
from backend.engine.events import GenerationFailed
from backend.engine.request import GenerationRequest, SamplingSettings
from backend.models.head_files import head_target_refusal
from engine.runner import (
    assert_rollback_leaves_plain_state,
    emitted_ids,
    loaded_engine,
    run,
    split_step,
)

W = [" " + w for w in CYCLE_WORDS]
N = len(W)

# head file -> (block row wrong by one word or 0, DSpark)
HEADS = {
    "dflash-count.gguf": (0, False),
    "dflash-skip.gguf": (WRONG_ROW, False),
    "dspark-count.gguf": (0, True),
}


def expected_block(head: str, anchor: int, k: int) -> list[int]:
    """The k words (cycle indices) `head` drafts after the anchor word, in one pass."""
    wrong_row, dspark = HEADS[head]
    first = 0 if dspark else 1
    return [proposed_row(anchor, first + i, wrong_row=wrong_row, dspark=dspark)
            for i in range(k)]


@pytest.fixture(scope="module")
def df_engine(test_models):
    with loaded_engine(test_models / "count-target3.gguf", n_ctx=1024, n_threads=1) as e:
        yield e


def _use(engine: Engine, test_models, head: str) -> None:
    if engine.draft is None or not engine.draft.path.endswith(head):
        engine.load_draft(test_models / head)


def _assert_steps_as_constructed(head: str, steps, last: int) -> None:
    for step in steps:
        k = len(step.drafted)
        acc, rej, own = split_step(last, expected_block(head, last, k), N)
        assert [t.text for t in step.drafted] == [W[d] for d in acc + rej]
        assert [t.accepted for t in step.drafted] == [True] * len(acc) + [False] * len(rej)
        assert [t.origin for t in step.drafted] == ["dflash"] * k
        if len(step.emitted) == len(acc) + 1:  # the last step may stop early at max_tokens
            assert [t.text for t in step.emitted] == [W[d] for d in acc] + [W[own]]
            assert [t.origin for t in step.emitted] == ["dflash"] * len(acc) + ["target"]
        last = W.index(step.emitted[-1].text)


def _request(prompt: str = " zero one", **kw) -> GenerationRequest:
    kw.setdefault("spec_type", "dflash")
    kw.setdefault("measure_plain", False)
    return GenerationRequest(prompt=prompt, **kw)


@pytest.mark.parametrize("head", list(HEADS))
def test_blocks_are_accepted_and_rejected_exactly_as_constructed(df_engine, test_models, head):
    _use(df_engine, test_models, head)
    final, steps = run(df_engine, _request(n_draft_max=4, max_tokens=30))
    _assert_steps_as_constructed(head, steps, 1)
    assert all(len(s.drafted) == 4 for s in steps[:4])
    plain, plain_steps = run(df_engine, GenerationRequest(prompt=" zero one", max_tokens=30))
    assert final.text == plain.text == "".join(W[(2 + i) % N] for i in range(30))
    assert emitted_ids(steps) == emitted_ids(plain_steps)
    rate = final.stats.acceptance_rate
    assert (rate == 1.0) if HEADS[head][0] == 0 else (0.3 < rate < 0.9)


def test_the_wrong_head_is_rejected_at_its_block_row(df_engine, test_models):
    """By hand, so the expectation above is not only its own formula: after " one" the block
    of dflash-skip is two three FIVE five six; every full step keeps WRONG_ROW - 1 drafts."""
    assert expected_block("dflash-skip.gguf", 1, 5) == [2, 3, 5, 5, 6]
    assert expected_block("dspark-count.gguf", 1, 3) == [2, 3, 4]
    _use(df_engine, test_models, "dflash-skip.gguf")
    final, steps = run(df_engine, _request(n_draft_max=5, max_tokens=24))
    assert [(t.text, t.accepted) for t in steps[0].drafted] == [
        (" two", True), (" three", True), (" five", False), (" five", False), (" six", False)]
    assert [t.text for t in steps[0].emitted] == [" two", " three", " four"]
    full = [s for s in steps if len(s.drafted) == BLOCK_SIZE - 1]
    assert len(full) >= 6
    for s in full:  # rejected from the same block row on, every time
        assert [t.accepted for t in s.drafted] == [True] * (WRONG_ROW - 1) + [False] * (
            BLOCK_SIZE - WRONG_ROW)
    assert final.text == "".join(W[(2 + i) % N] for i in range(24))


@pytest.mark.parametrize("head, k, longest", [
    ("dflash-count.gguf", 3, 3), ("dflash-count.gguf", 12, BLOCK_SIZE - 1),
    ("dspark-count.gguf", 12, BLOCK_SIZE),
])
def test_a_draft_is_at_most_one_block(df_engine, test_models, head, k, longest):
    """A DFlash block of B rows drafts B - 1 tokens (the anchor's row proposes none), an
    anchor-first DSpark block B; a larger K is cut to that, a smaller one drafts K."""
    _use(df_engine, test_models, head)
    final, steps = run(df_engine, _request(n_draft_max=k, max_tokens=30))
    assert max(len(s.drafted) for s in steps) == longest
    assert final.stats.acceptance_rate == 1.0
    _assert_steps_as_constructed(head, steps, 1)


def test_k_auto_drafts_whole_blocks(df_engine, test_models):
    _use(df_engine, test_models, "dflash-count.gguf")
    final, steps = run(df_engine, _request(n_draft_max=0, max_tokens=40))
    assert final.text == "".join(W[(2 + i) % N] for i in range(40))
    assert final.stats.n_accepted > 0
    _assert_steps_as_constructed("dflash-count.gguf", steps, 1)


def test_the_confidence_head_cuts_a_dspark_draft_where_it_doubts(df_engine, test_models):
    """dspark-doubt is sure of every row but those whose state names " five": with p_min it
    never proposes " six" (it stops before it), without p_min it does."""
    _use(df_engine, test_models, "dspark-doubt.gguf")
    six = W[(DOUBT_WORD + 1) % N]
    final, steps = run(df_engine, _request(n_draft_max=6, p_min=0.5, max_tokens=36))
    drafted = [t.text for s in steps for t in s.drafted]
    assert six not in drafted and len(drafted) > 20
    cut = [s for s in steps if s.drafted and s.drafted[-1].text == W[DOUBT_WORD]]
    assert cut and all(len(s.drafted) < 6 for s in cut)
    assert final.text == "".join(W[(2 + i) % N] for i in range(36))
    _, steps = run(df_engine, _request(n_draft_max=6, max_tokens=36))
    assert six in [t.text for s in steps for t in s.drafted]


def test_a_long_prompt_reaches_the_head_in_several_batches(df_engine, test_models):
    _use(df_engine, test_models, "dflash-skip.gguf")
    prompt = "".join(W[i % N] for i in range(700))
    final, steps = run(df_engine, _request(prompt, n_draft_max=5, max_tokens=24))
    _assert_steps_as_constructed("dflash-skip.gguf", steps, 699 % N)
    plain, _ = run(df_engine, GenerationRequest(prompt=prompt, max_tokens=24))
    assert final.text == plain.text
    assert final.stats.n_accepted > 0


def test_plain_answers_in_between_leave_no_stale_state(df_engine, test_models):
    _use(df_engine, test_models, "dflash-count.gguf")
    df_engine.reset_cache()
    run(df_engine, _request(" three four five six seven", n_draft_max=5, max_tokens=8))
    run(df_engine, GenerationRequest(prompt=" three four nine", max_tokens=8))
    final, steps = run(df_engine, _request(" three four nine ten eleven", n_draft_max=5,
                                           max_tokens=12))
    _assert_steps_as_constructed("dflash-count.gguf", steps, 11)
    assert final.stats.acceptance_rate == 1.0
    events = list(df_engine.generate(_request(" three four nine ten eleven" + final.text
                                              + " eleven zero", n_draft_max=5, max_tokens=12)))
    assert events[1].n_cached > 0  # a follow-up reuses the cached prefix
    assert events[-1].text == "".join(W[(1 + i) % N] for i in range(12))


def test_rollback_restores_exactly_the_state_of_plain_decoding(df_engine, test_models):
    _use(df_engine, test_models, "dflash-skip.gguf")
    assert_rollback_leaves_plain_state(df_engine, "dflash", 5)


def test_a_hybrid_target_feeds_a_head_and_rolls_back_exactly(test_models):
    """count-mtp (qwen35: recurrent and attention layers, 4 of them before its NextN block)
    counts like count-target3 and is 32 wide, so the heads fit it."""
    with loaded_engine(test_models / "count-mtp.gguf", test_models / "dflash-skip.gguf",
                       n_ctx=256, n_threads=1) as e:
        final, steps = run(e, _request(n_draft_max=5, max_tokens=30))
        _assert_steps_as_constructed("dflash-skip.gguf", steps, 1)
        assert final.text == "".join(W[(2 + i) % N] for i in range(30))
        assert_rollback_leaves_plain_state(e, "dflash", 5)


def test_sampled_answers_keep_to_the_target(df_engine, test_models):
    _use(df_engine, test_models, "dflash-skip.gguf")
    for sampling in (SamplingSettings(temperature=0.8, top_k=40, top_p=0.9, min_p=0.05, seed=3),
                     SamplingSettings(temperature=1.0, top_k=0, top_p=1.0, min_p=0.0,
                                      repeat_penalty=1.1, seed=4)):
        final, steps = run(df_engine, _request(n_draft_max=5, max_tokens=20, sampling=sampling))
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
    # llama.cpp: GGML_ASSERT(t_layer_inp[il] != nullptr) at the target's next decode
    ("dflash-bad-layers.gguf", "reads layer 4 of its target, but count-target3 has 4 layers"),
    # llama.cpp: GGML_ASSERT(ggml_can_repeat(b, a)) in the head's graph
    ("dflash-bad-width.gguf", "has hidden size 48 and count-target3 32"),
    ("dflash-bad-vocab.gguf", "has other token texts than count-target3: it was made for "
                              "another model"),
    # llama.cpp: the block's decode fails on token -1
    ("dflash-no-mask.gguf", "has no mask token"),
])
def test_heads_that_do_not_fit_are_refused_in_words(df_engine, test_models, head, words):
    message = _refusal(df_engine, test_models, head)
    assert words in message
    assert "\n" not in message
    df_engine.load_draft(test_models / "dflash-count.gguf")  # the engine goes on
    final, _ = run(df_engine, _request(n_draft_max=5, max_tokens=8))
    assert final.stats.acceptance_rate == 1.0


def test_a_target_without_layer_capture_is_refused(test_models):
    with loaded_engine(test_models / "count-qwen2.gguf", n_ctx=128, n_threads=1) as e:
        message = _refusal(e, test_models, "dflash-count.gguf")
        assert message == ("count-qwen2 is a qwen2 model, and llama.cpp cannot read the hidden "
                           "states of that architecture, so no DFlash head can draft for it.")
        final, _ = run(e, GenerationRequest(prompt=" zero one", max_tokens=4))
        assert final.text == " two three four five"


def test_the_target_refusal_says_what_the_file_is():
    message = str(head_target_refusal("dflash", "dflash-count.gguf"))
    assert message.startswith("dflash-count.gguf is a DFlash draft head (it drafts blocks of")
    assert "choose it as the draft with spec type DFlash" in message
    assert head_target_refusal("llama", "count-target3.gguf") is None


def test_a_head_opened_as_the_target_is_refused(test_models):
    """Without its own embedding llama.cpp makes no context for it (a misleading "not enough
    memory?"); with one (dflash-bad-vocab) it runs the block graph on the prompt and answers."""
    for head in ("dflash-count.gguf", "dflash-bad-vocab.gguf"):
        engine = Engine()
        try:
            with pytest.raises(EngineError) as info:
                engine.load_target(test_models / head, n_ctx=128, n_threads=1)
        finally:
            engine.close()
        assert str(info.value).startswith(f"{head} is a DFlash draft head")


def test_spec_types_match_the_draft_file(df_engine, test_models):
    _use(df_engine, test_models, "dflash-count.gguf")
    events = list(df_engine.generate(GenerationRequest(prompt=" zero one", spec_type="eagle3")))
    assert isinstance(events[-1], GenerationFailed)
    assert events[-1].message == ("dflash-count.gguf (dflash) drafts with spec type DFlash, "
                                  "not EAGLE-3.")
    df_engine.load_draft(test_models / "eagle3-count.gguf")
    events = list(df_engine.generate(GenerationRequest(prompt=" zero one", spec_type="dflash")))
    assert isinstance(events[-1], GenerationFailed)
    assert events[-1].message == ("eagle3-count.gguf (eagle3) drafts with spec type EAGLE-3, "
                                  "not DFlash.")
    df_engine.unload_draft()
    events = list(df_engine.generate(GenerationRequest(prompt=" zero one", spec_type="dflash")))
    assert isinstance(events[-1], GenerationFailed)
    assert "needs a DFlash head as the draft" in events[-1].message
    _use(df_engine, test_models, "dflash-count.gguf")
    events = list(df_engine.generate(GenerationRequest(prompt=" zero one", spec_type="draft")))
    assert isinstance(events[-1], GenerationFailed)
    assert events[-1].message == ("dflash-count.gguf (dflash) drafts with spec type DFlash, "
                                  "not draft model.")


def test_loading_a_head_makes_only_its_drafter(test_models):
    assert spec_types.draft_need("dflash") == "dflash_head"
    assert "dflash_head" in spec_types.DRAFT_NEEDS
    with loaded_engine(test_models / "count-target3.gguf", test_models / "count-draft.gguf",
                       n_ctx=128, n_threads=1) as e:
        assert set(e._drafters) == {"draft"}
        e.load_draft(test_models / "dflash-count.gguf")
        assert set(e._drafters) == {"dflash"}
        drafter = e._drafters["dflash"]
        assert drafter.facts.target_layers == TARGET_LAYERS
        assert drafter.facts.block_size == BLOCK_SIZE and not drafter.facts.dspark
        e.load_draft(test_models / "dspark-doubt.gguf")
        facts = e._drafters["dflash"].facts
        assert facts.dspark and facts.sample_from_anchor and facts.has_confidence
        e.unload_draft()
        assert e._drafters == {}


def test_missing_bindings_are_reported_in_words(df_engine, test_models, monkeypatch):
    real = dflash_drafter.importlib.import_module

    def missing(name):
        if name == "backend.engine.dflash_bindings":  # as a library without the symbols
            raise AttributeError("None of the shared library symbols were found: x")
        return real(name)

    monkeypatch.setattr(dflash_drafter.importlib, "import_module", missing)
    df_engine.unload_draft()
    with pytest.raises(EngineError, match="does not export the functions DFlash needs"):
        df_engine.load_draft(test_models / "dflash-count.gguf")


# -- sampling: speculative sampling with the block's own distributions ----------------------

ALPHA = 1e-4
N_SAMPLES = 400


@pytest.fixture(scope="module")
def dist_df_engine(test_models):
    with loaded_engine(test_models / "dist-target3.gguf", test_models / "dflash-dist.gguf",
                       n_ctx=64, n_threads=1) as e:
        yield e


def _first_two(engine: Engine, n: int) -> tuple[np.ndarray, int]:
    """Counts of the 16 (offset1, offset2) outcomes of the first two sampled words after
    " zero", and how many drafts were verified."""
    ids = {engine._target.tokenize(w, add_special=False)[0]: i for i, w in enumerate(W)}
    counts = np.zeros(16)
    n_drafted = 0
    for seed in range(n):
        req = GenerationRequest(
            prompt=" eleven zero", spec_type="dflash", n_draft_max=2, max_tokens=3,
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


def test_dflash_sampling_matches_the_target_distribution(dist_df_engine):
    counts, n_drafted = _first_two(dist_df_engine, N_SAMPLES)
    assert n_drafted >= N_SAMPLES  # the head drafted in every answer
    assert chisquare(counts, _expected()).pvalue > ALPHA


def test_a_biased_verifier_is_caught_on_the_dflash_pair(dist_df_engine, monkeypatch):
    monkeypatch.setattr(verify, "residual", lambda p, q, x: p)
    counts, _ = _first_two(dist_df_engine, N_SAMPLES)
    assert chisquare(counts, _expected()).pvalue < ALPHA


# -- command line --------------------------------------------------------------------------

def test_cli_generates_with_a_dflash_head(test_models):
    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "backend.cli.main", *args],
                              capture_output=True, text=True, timeout=300)

    common = ("--model", str(test_models / "count-target3.gguf"), "--raw", "--max-tokens",
              "12", "--threads", "1", "--temp", "0")
    r = cli("generate", *common, "--draft", str(test_models / "dflash-skip.gguf"), "--spec",
            "dflash", "--n-draft", "5", "--json", " zero one")
    assert r.returncode == 0, r.stderr
    events = [json.loads(line) for line in r.stdout.splitlines()]
    assert events[0]["spec_type"] == "dflash"
    drafted = [t for e in events if e["event"] == "step" for t in e["drafted"]]
    assert {t["origin"] for t in drafted} == {"dflash"}
    assert any(t["accepted"] for t in drafted) and not all(t["accepted"] for t in drafted)
    assert events[-1]["text"] == "".join(W[(2 + i) % N] for i in range(12))


def test_the_spec_type_is_declared():
    spec = spec_types.get("dflash")
    assert spec is not None and spec.needs == "dflash_head" and spec.uses_p_min
    assert dflash_drafter.DFlashDrafter.origin == "dflash"
