"""The request's options do what they say: stop strings end the answer, p_min and
n_draft_min limit drafting, and the n-gram settings shape the lookup. On the counting models
every effect is known in advance; the answer stays plain decoding's in every case."""

from __future__ import annotations

import pytest
from build import CYCLE_WORDS

from backend.engine.request import GenerationRequest, NgramSettings, SamplingSettings
from engine.runner import emitted_ids, loaded_engine, run

W = [" " + w for w in CYCLE_WORDS]


def _answer(engine, spec: str = "none", **options):
    options.setdefault("max_tokens", 40)
    return run(engine, GenerationRequest(prompt=" zero one", spec_type=spec, **options))


# -- stop strings ---------------------------------------------------------------------------

@pytest.mark.parametrize("spec", ["none", "draft", "ngram"])
@pytest.mark.parametrize("stop,text,n_tokens", [
    ((" five",), " two three four", 4),  # a whole word
    ((" three four",), " two", 3),  # across two tokens
    (("ve",), " two three four fi", 4),  # inside a token: the rest of it is held back
    ((" nine", " six"), " two three four five", 5),  # the first of several to appear
])
def test_a_stop_string_ends_the_answer_before_it(count_engine, spec, stop, text, n_tokens):
    final, steps = _answer(count_engine, spec, n_draft_max=4, stop=stop, max_tokens=30)
    assert final.stop_reason == "stop_string"
    assert final.text == text
    assert "".join(t.text for s in steps for t in s.emitted) == text  # nothing leaked
    # the answer ends with the token that completes the stop string: drafts accepted after
    # it are neither emitted nor counted
    assert final.stats.n_generated == sum(len(s.emitted) for s in steps) == n_tokens


def test_a_stop_string_that_never_appears_changes_nothing(count_engine):
    final, steps = _answer(count_engine, "draft", n_draft_max=4, stop=(" twelve",),
                           max_tokens=20)
    plain, plain_steps = _answer(count_engine, max_tokens=20)
    assert final.stop_reason == "length" and final.text == plain.text
    assert emitted_ids(steps) == emitted_ids(plain_steps)


# -- n-gram settings and n_draft_min -----------------------------------------------------------

def _first_draft_after(steps) -> int:
    """How many answer tokens came before the first step that verified a draft."""
    n = 0
    for step in steps:
        if step.drafted:
            return n
        n += len(step.emitted)
    raise AssertionError("nothing was drafted")


def test_ngram_settings_shape_the_lookup(count_engine):
    """From " zero one" the answer counts on: a key of one word recurs after 10 tokens, one
    of three only a cycle later, and a key seen twice (min_hits 2) a cycle after that."""
    _, plain_steps = _answer(count_engine)
    firsts, lengths = {}, {}
    for name, ngram in {"n1": NgramSettings(size_n=1), "n3": NgramSettings(size_n=3),
                        "hits2": NgramSettings(size_n=3, min_hits=2),
                        "m3": NgramSettings(size_n=3, size_m=3)}.items():
        final, steps = _answer(count_engine, "ngram", n_draft_max=8, ngram=ngram)
        assert emitted_ids(steps) == emitted_ids(plain_steps), name
        firsts[name] = _first_draft_after(steps)
        lengths[name] = {len(s.drafted) for s in steps if s.drafted}
        assert final.stats.acceptance_rate == 1.0, name  # a repeating count: always right
    assert firsts["n1"] < firsts["n3"] < firsts["hits2"]
    assert firsts["hits2"] - firsts["n3"] == len(CYCLE_WORDS)
    assert max(lengths["m3"]) == 3 and max(lengths["n3"]) == 8  # size_m, then K, caps it


@pytest.mark.parametrize("n_draft_min,verified", [(0, {1, 4}), (4, {4}), (5, set())])
def test_proposals_shorter_than_n_draft_min_are_not_verified(count_engine, n_draft_min,
                                                             verified):
    """The lookup proposes at most size_m = 4 tokens here, fewer where the history ends."""
    final, steps = _answer(count_engine, "ngram", n_draft_max=8, n_draft_min=n_draft_min,
                           ngram=NgramSettings(size_m=4))
    assert {len(s.drafted) for s in steps if s.drafted} == verified
    assert final.stats.n_drafted == sum(len(s.drafted) for s in steps)
    assert final.text == _answer(count_engine)[0].text


# -- p_min ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def dist_engines(test_models):
    """Drafters whose most likely word has probability 0.40 after every word."""
    with loaded_engine(test_models / "dist-target.gguf", test_models / "dist-draft.gguf",
                       n_ctx=128, n_threads=1) as pair, \
         loaded_engine(test_models / "dist-mtp.gguf", n_ctx=128, n_threads=1) as mtp:
        yield {"draft": pair, "mtp": mtp}


@pytest.mark.parametrize("spec", ["draft", "mtp"])
def test_p_min_stops_drafting_below_the_drafters_top_probability(dist_engines, spec):
    engine = dist_engines[spec]
    answers = {}
    for p_min in (0.0, 0.35, 0.45):
        final, steps = run(engine, GenerationRequest(
            prompt=" zero", spec_type=spec, n_draft_max=3, max_tokens=12, p_min=p_min,
            measure_plain=False))  # the yardstick's probes last as their steps' times say
        answers[p_min] = (emitted_ids(steps), final.stats.n_drafted)
        if p_min < 0.40:
            drafted = [t for s in steps for t in s.drafted]
            assert drafted and all(t.p_draft == pytest.approx(0.40, abs=1e-3) for t in drafted)
    assert answers[0.35][1] == answers[0.0][1] > 0  # 0.40 is above p_min: K each step
    assert answers[0.45][1] == 0  # below it: nothing drafted
    assert answers[0.0][0] == answers[0.35][0] == answers[0.45][0]  # greedy: same words


def test_p_min_compares_the_top_probability_when_sampling_too(dist_engines):
    short = 0
    for seed in range(20):
        _, steps = run(dist_engines["draft"], GenerationRequest(
            prompt=" zero", spec_type="draft", measure_plain=False, n_draft_max=3,
            max_tokens=13, p_min=0.3,
            sampling=SamplingSettings(temperature=1.0, top_k=0, top_p=1.0, min_p=0.0,
                                      seed=seed)))
        done = 0
        for step in steps:
            want = min(3, 13 - done - 1)
            short += len(step.drafted) < want  # the top probability, 0.40, is above p_min
            done += len(step.emitted)
    assert short == 0
