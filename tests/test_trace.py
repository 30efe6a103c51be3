"""JSON traces: an answer's events written and read back as the same objects; files that are
not whole traces of this version are refused in words."""

from __future__ import annotations

import dataclasses
import json

import pytest

from backend.engine.events import (
    GenerationFailed,
    GenerationStarted,
    PromptProcessed,
    StepVerified,
    Token,
    Verification,
    verification_from_json,
    verification_to_json,
)
from backend.engine.request import GenerationRequest, Message, SamplingSettings
from backend.traces import FORMAT, VERSION, Trace, TraceError, read_trace, write_trace


@pytest.fixture(scope="module")
def count_trace(test_models) -> Trace:
    """A real answer on the counting pair: its draft is wrong after every 4th word, so the
    trace holds accepted, rejected and target tokens."""
    from engine.runner import loaded_engine

    request = GenerationRequest(prompt=" zero one", spec_type="draft", n_draft_max=4,
                                max_tokens=16, sampling=SamplingSettings(temperature=0.0))
    with loaded_engine(test_models / "count-target.gguf", test_models / "count-draft.gguf",
                       n_ctx=256, n_threads=1) as engine:
        events = tuple(engine.generate(request))
    return Trace(request, events, "count-target.gguf", "count-draft.gguf")


def test_a_trace_round_trips(tmp_path, count_trace):
    steps = [e for e in count_trace.events if isinstance(e, StepVerified)]
    assert any(not t.accepted for s in steps for t in s.drafted), "no draft was rejected"
    path = tmp_path / "answer.json"
    write_trace(path, count_trace)
    back = read_trace(path)
    assert back == count_trace
    assert back.events == count_trace.events
    assert all(type(a) is type(b) for a, b in zip(back.events, count_trace.events, strict=True))
    header = json.loads(path.read_text())
    assert (header["format"], header["version"]) == (FORMAT, VERSION)
    assert header["models"] == {"target": "count-target.gguf", "draft": "count-draft.gguf"}


def _failed_trace() -> Trace:
    tok = Token(7, " é\ud800", "draft", False, None, 0.25, head=1)
    return Trace(
        GenerationRequest(messages=(Message("system", "be <brief>"), Message("user", "hi & bye")),
                          spec_type="mtp", n_draft_max=3),
        (GenerationStarted(4, "mtp", 3, 12), PromptProcessed(12, 5, 1.5),
         StepVerified(1, (tok,), 0, (Token(8, "x", "target", True, 1.0),), 0.5, 2.0),
         GenerationFailed("llama.cpp crashed.", "SIGSEGV", crashed=True)),
        target_model="t.gguf",
    )


def test_a_failed_answer_round_trips_with_its_failure_last(tmp_path):
    trace = _failed_trace()
    write_trace(tmp_path / "t.json", trace)
    assert read_trace(tmp_path / "t.json") == trace


def _refusal(tmp_path, text: str) -> str:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(TraceError) as err:
        read_trace(path)
    message = str(err.value)
    assert message.startswith("bad.json") and "\n" not in message
    return message


def _good(tmp_path) -> dict:
    write_trace(tmp_path / "good.json", _failed_trace())
    return json.loads((tmp_path / "good.json").read_text())


def test_not_json_is_refused(tmp_path):
    good = (_good(tmp_path))
    cut = json.dumps(good)[:200]
    assert "not JSON (line 1" in _refusal(tmp_path, cut)
    assert "not JSON" in _refusal(tmp_path, "\x89PNG")


def test_a_foreign_file_is_refused(tmp_path):
    assert "not a Draftlight trace" in _refusal(tmp_path, '{"event": "step"}')
    assert "not a Draftlight trace" in _refusal(tmp_path, "[1, 2, 3]")


def test_another_version_is_refused(tmp_path):
    d = _good(tmp_path)
    d["version"] = VERSION + 1
    assert f"reads version {VERSION}" in _refusal(tmp_path, json.dumps(d))


@pytest.mark.parametrize("damage, words", [
    (lambda d: d["events"][2]["drafted"][0].update(p_draft="high"), "p_draft should be a number"),
    (lambda d: d["events"][2]["emitted"][0].pop("id"), "has no id"),
    (lambda d: d["events"][1].update(event="nonsense"), "unknown kind 'nonsense'"),
    (lambda d: d["events"].pop(), "last event (finished or failed) is missing"),
    (lambda d: d["events"].append(d["events"][1]), "but events follow"),
    (lambda d: d["events"][0].update(surprise=1), "unknown fields surprise"),
    (lambda d: d["request"].update(n_draft_max=-3), "request is refused"),
    (lambda d: d["request"]["sampling"].update(seed=True), "seed should be a whole number"),
    (lambda d: d.pop("models"), "no \"models\""),
])
def test_a_damaged_trace_is_refused_in_words(tmp_path, damage, words):
    d = _good(tmp_path)
    damage(d)
    message = _refusal(tmp_path, json.dumps(d))
    assert words in message, message


def test_a_missing_file_is_refused_in_words(tmp_path):
    with pytest.raises(TraceError, match=r"Cannot read nope\.json"):
        read_trace(tmp_path / "nope.json")


def test_a_trace_kept_before_blocks_were_recorded_is_still_read(tmp_path):
    """A token's verification written with nine fields (before a block drafter's pass was
    recorded, the tenth) is read, with no block; a tenth field is read back as written."""
    old = json.dumps(["greedy", None, None, "", None, [[5, "a", 0.5]], [], None, ""])
    new = verification_to_json(Verification("greedy", block=(1, 6)))
    assert verification_from_json(new).block == (1, 6)
    for inspection, block in ((old, ()), (new, (1, 6))):
        trace = _failed_trace()
        step = trace.events[2]
        token = dataclasses.replace(step.drafted[0], inspection=inspection)
        events = (*trace.events[:2], dataclasses.replace(step, drafted=(token,)),
                  *trace.events[3:])
        write_trace(tmp_path / "t.json", dataclasses.replace(trace, events=events))
        back = read_trace(tmp_path / "t.json").events[2].drafted[0]
        assert back.inspection == inspection and back.verification.block == block
