"""Recorded llama-server, vLLM (summary, detailed, counters) and SGLang answers replayed by a
local fake server through the real client: the numbers each engine reported are parsed into
the answer's stats, per-step lists only where the server sent them, no token is coloured as
a draft, and a server that reports nothing gets no speculation numbers."""

from __future__ import annotations

import pytest

from backend.engine.events import GenerationFinished, GenerationStarted, StepVerified
from backend.engine.request import GenerationRequest, Message
from backend.serving.prometheus import diff, parse_metrics
from backend.serving.report import NO_COLOURS
from tests.serving.fakeserver import answered, recording

TEXT = " The sky is blue because of Rayleigh scattering."
REQUEST = GenerationRequest(messages=(Message("user", "Why is the sky blue?"),), max_tokens=64)


def answer(name: str):
    return answered(recording(name), REQUEST)


def finished(events) -> GenerationFinished:
    last = events[-1]
    assert isinstance(last, GenerationFinished), last
    return last


def check_uncoloured(events) -> None:
    steps = [e for e in events if isinstance(e, StepVerified)]
    assert steps and all(not s.drafted and s.n_accepted == 0 for s in steps)
    assert all(t.origin == "target" for s in steps for t in s.emitted)
    assert "".join(t.text for s in steps for t in s.emitted) == TEXT == finished(events).text


def test_llama_server_timings():
    events, report, server = answer("llama_server")
    check_uncoloured(events)
    s = finished(events).stats
    assert (s.n_drafted, s.n_accepted) == (12, 5)
    assert s.n_steps == 9 - 5  # one token of the target's own per step
    assert (s.n_prompt, s.n_cached, s.n_generated) == (18, 4, 9)
    assert (s.prompt_ms, s.generation_ms) == (35.2, 61.0)
    assert report.source == "llama-server's timings" and report.accepted_per_step == ()
    assert "drafted 12, accepted 5, acceptance 41.7 %" in report.words()
    assert NO_COLOURS in report.words()
    assert server.requests[0]["stream"] is True
    assert server.requests[0]["messages"] == [{"role": "user", "content": "Why is the sky blue?"}]


def test_llama_server_without_a_drafter_reports_no_speculation():
    events, report, _ = answer("llama_server_plain")
    s = finished(events).stats
    assert (s.n_drafted, s.n_accepted, s.n_draft_steps) == (0, 0, 0)
    assert not report.has_numbers
    assert report.words().startswith("The server reported no speculation numbers")


def test_vllm_summary_metrics():
    events, report, _ = answer("vllm_summary")
    check_uncoloured(events)
    s = finished(events).stats
    assert (s.n_drafted, s.n_accepted, s.n_steps, s.n_draft_steps) == (12, 5, 4, 4)
    assert (s.n_prompt, s.n_generated) == (21, 9)
    assert s.mean_accepted_per_step == pytest.approx(1.25)
    assert report.accepted_per_step == ()  # a summary has no per-step lists: none is made up


def test_vllm_detailed_metrics_give_per_step_accepted_lengths():
    events, report, _ = answer("vllm_detailed")
    check_uncoloured(events)
    s = finished(events).stats
    assert (s.n_drafted, s.n_accepted, s.n_steps) == (12, 5, 4)
    assert report.accepted_per_step == (3, 0, 1, 1)
    assert report.drafted_per_step == (3, 3, 3, 3)
    assert "Accepted per step: 3 0 1 1." in report.words()


def test_vllm_prometheus_counters_before_and_after():
    events, report, server = answer("vllm_counters")
    s = finished(events).stats
    assert (s.n_drafted, s.n_accepted, s.n_steps) == (12, 7, 4)
    assert server.metrics_reads == 2
    assert "whole server" in report.words()


def test_sglang_meta_info_and_metrics():
    events, report, _ = answer("sglang")
    check_uncoloured(events)
    s = finished(events).stats
    # SGLang said how many verify steps and tokens, not how many were drafted: the accepted
    # count is in the report, and no acceptance rate is made up in the stats.
    assert (s.n_drafted, s.n_accepted) == (0, 0)
    assert (report.n_steps, report.n_accepted, report.n_drafted) == (4, 5, None)
    assert "accepted 5" in report.words() and "4 verify steps" in report.words()
    assert "mean accepted length 2.90" in report.words()


def test_sglang_metrics_page_alone_is_server_wide_words_only():
    events, report, _ = answer("sglang_metrics_only")
    s = finished(events).stats
    assert (s.n_drafted, s.n_accepted) == (0, 0)
    assert not report.has_numbers
    assert "server-wide" in report.words() and "acceptance rate 27.0 %" in report.words()


def test_a_server_that_reports_nothing_shows_no_speculation_numbers():
    events, report, server = answer("nothing")
    assert isinstance(events[0], GenerationStarted) and events[0].spec_type == "none"
    check_uncoloured(events)
    s = finished(events).stats
    assert (s.n_drafted, s.n_accepted, s.n_draft_steps) == (0, 0, 0)
    assert s.n_generated == 9 and s.n_steps == 9
    assert not report.has_numbers and report.notes == ()
    assert server.metrics_reads == 0  # a server without /metrics is asked once, before


def test_prometheus_text_sums_label_sets_and_diffs_counters():
    before = parse_metrics('# TYPE a counter\na_total{x="1"} 2\na_total{x="2"} 3\nb 1e3\n')
    after = parse_metrics('a_total{x="1"} 4\na_total{x="2"} 3\nb 900\n')
    assert before == {"a_total": 5.0, "b": 1000.0}
    assert diff(before, after, "a") == 2
    assert diff(before, after, "b") is None  # went down: the server restarted
    assert diff(before, after, "c") is None


def test_metrics_inside_the_choice_are_read_too():
    script = recording("vllm_summary")
    usage_chunk = script.chunks.pop()
    finish = script.chunks[-1]["choices"][0]
    finish["metrics"], finish["usage"] = usage_chunk["metrics"], usage_chunk["usage"]
    events, _, _ = answered(script, REQUEST)
    s = finished(events).stats
    assert (s.n_drafted, s.n_accepted, s.n_steps, s.n_prompt) == (12, 5, 4, 21)


def test_adapters_read_the_other_shapes_their_engines_have_used():
    from backend.serving import sglang, vllm

    records = {"metrics": {"speculative_decoding": {"steps": [
        {"accepted": 2, "proposed": 3}, {"accepted": 0, "proposed": 3}]}}}
    report = vllm.read(records)
    assert report is not None
    assert (report.accepted_per_step, report.drafted_per_step) == ((2, 0), (3, 3))
    assert (report.n_drafted, report.n_accepted, report.n_steps) == (6, 2, 2)
    # a summary given as a mean length only: accepted = (length − 1) × drafts
    mean = vllm.read({"metrics": {"speculative_decoding": {
        "num_drafts": 10, "mean_acceptance_length": 2.5, "num_draft_tokens": 30}}})
    assert mean is not None and (mean.n_accepted, mean.n_drafted) == (15, 30)
    assert vllm.read({"metrics": {"speculative_decoding": {"shape": "unknown"}}}) is None
    length_only = sglang.read({"meta_info": {"completion_tokens": 30, "spec_accept_length": 3.0}})
    assert length_only is not None and (length_only.n_steps, length_only.n_accepted) == (10, 20)
    assert not sglang.read({"meta_info": {"completion_tokens": 30}}).has_numbers  # type: ignore[union-attr]
