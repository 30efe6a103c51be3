"""A plain answer read for its text alone is made a chunk of steps at a time, folded by the
engine itself (`Engine.generate_folded`, `StepBatch.plain`): what reaches the terminal is what
folding the general loop's StepVerified events gives, and `Engine.generate` still hands its
callers those events one by one."""

from __future__ import annotations

import pytest

from backend.engine.events import (
    GenerationFinished,
    GenerationStarted,
    Stats,
    StepVerified,
    Token,
    TreeNode,
)
from backend.engine.outbox import Outbox
from backend.engine.request import GenerationRequest
from backend.engine.token_log import StepBatch, TokenLog, fold_steps
from engine.runner import emitted_ids, run

PROMPT = " zero one"


def plain_events(first: int, emitted, verify_ms, ms) -> list[StepVerified]:
    """The events the general loop makes of plain steps read for their text alone."""
    return [StepVerified(first + i, (), 0, (Token(tok, text, "target", True),), 0.0, v, m)
            for i, ((tok, text), v, m) in enumerate(zip(emitted, verify_ms, ms, strict=True))]


def slots(batch: StepBatch) -> dict:
    """Everything a batch holds, its tokens' columns included."""
    out = {name: getattr(batch, name) for name in StepBatch.__slots__ if name != "tokens"}
    out.update({f"tokens.{name}": getattr(batch.tokens, name)
                for name in (*TokenLog.COLUMNS, "branches")})
    return out


EMITTED = [(5, " five"), (6, " six"), (7, ""), (8, " eight")]
VERIFY_MS = [0.9, 1.1, 0.0, 1.3]
MS = [1.0, 1.25, 0.0, 1.5]  # a step of 0 ms: not measured, left out of plain decoding's times


def test_a_plain_batch_holds_what_folding_its_steps_gives():
    batch = StepBatch.plain(3, EMITTED, VERIFY_MS, MS)
    events = plain_events(3, EMITTED, VERIFY_MS, MS)
    (folded,) = fold_steps(events)
    assert slots(batch) == slots(folded)
    assert batch.plain_ms == [(3, 1.0), (4, 1.25), (6, 1.5)]
    assert list(batch.plain_steps()) == events


def test_only_plain_steps_are_given_back_one_by_one():
    drafted = StepVerified(1, (Token(9, " x", "draft", False),), 0,
                           (Token(2, " two", "target", True),), 0.2, 1.0, 1.2)
    (batch,) = fold_steps([drafted])
    with pytest.raises(ValueError):
        list(batch.plain_steps())


def test_batches_and_steps_in_a_run_fold_into_one_as_the_steps_alone_would():
    tree = (TreeNode(-1, 11, " k", 0.5, None, 0, True),)
    drafting = StepVerified(7, (Token(11, " k", "draft", True, 0.7, 0.5),), 1,
                            (Token(11, " k", "draft", True), Token(12, " l", "target", True)),
                            0.3, 1.0, 1.4, tree)
    first, second = plain_events(1, EMITTED, VERIFY_MS, MS), plain_events(5, EMITTED[:2],
                                                                          VERIFY_MS[:2], MS[:2])
    events = [*first, *second, drafting]
    mixed = [StepBatch.plain(1, EMITTED, VERIFY_MS, MS),
             StepBatch.plain(5, EMITTED[:2], VERIFY_MS[:2], MS[:2]), drafting]
    (expected,) = fold_steps(events)
    (folded,) = fold_steps(mixed)
    assert folded.ms == pytest.approx(expected.ms)
    assert folded.ms_to_first_emit == pytest.approx(expected.ms_to_first_emit)
    assert {k: v for k, v in slots(folded).items() if k not in ("ms", "ms_to_first_emit")} == \
        {k: v for k, v in slots(expected).items() if k not in ("ms", "ms_to_first_emit")}
    # an event that is not a step ends the run
    done = GenerationFinished("length", "", Stats())
    assert [type(e) for e in fold_steps([mixed[0], done, mixed[1]])] == \
        [StepBatch, GenerationFinished, StepBatch]


def test_an_uninspected_plain_answer_comes_folded_and_as_the_general_loop_makes_it(count_engine):
    request = GenerationRequest(prompt=PROMPT, max_tokens=40, inspect=False, stop=(" nine",))
    events = list(count_engine.generate_folded(request))
    batches = [e for e in events if type(e) is StepBatch]
    assert len(batches) > 1 and not any(type(e) is StepVerified for e in events)
    final = events[-1]
    assert isinstance(final, GenerationFinished) and final.stop_reason == "stop_string"
    shown_final, shown_steps = run(count_engine, GenerationRequest(
        prompt=PROMPT, max_tokens=40, stop=(" nine",)))  # the general loop's, inspected
    (folded,) = fold_steps(batches)
    (shown,) = fold_steps(shown_steps)
    for name in ("id", "text", "origin", "accepted", "step"):
        assert getattr(folded.tokens, name) == getattr(shown.tokens, name), name
    assert folded.parts == shown.parts and "".join(folded.parts) == final.text
    assert (folded.accepted, folded.drafted, folded.n_emitted) == \
        (shown.accepted, shown.drafted, shown.n_emitted)
    assert final.stats.n_generated == shown_final.stats.n_generated == len(folded)
    assert final.stats.n_steps == len(folded)
    assert final.stats.verify_ms == pytest.approx(sum(folded.verify_ms))
    # and one by one where the caller takes events (Engine.generate)
    final_again, steps = run(count_engine, request)
    assert emitted_ids(steps) == folded.tokens.id and final_again.text == final.text


def test_steps_folded_by_the_engine_wait_for_a_frame_as_steps_do(monkeypatch):
    """No core spare: the outbox holds a chunk's batch as it holds a step, and sends a frame's
    worth together, folded into one."""
    import backend.engine.outbox as outbox_module

    class Clock:
        now = 100.0

        def perf_counter(self) -> float:
            return self.now

    from multiprocessing import Pipe

    clock = Clock()
    monkeypatch.setattr(outbox_module, "time", clock)
    window, engine = Pipe()
    outbox = Outbox(engine, fold=True)
    outbox.put(GenerationStarted(1, "none", 0, 3, spare_core=False))
    window.recv()
    chunks = [StepBatch.plain(1, EMITTED[:1], VERIFY_MS[:1], MS[:1]),
              StepBatch.plain(2, EMITTED[1:], VERIFY_MS[1:], MS[1:])]
    outbox.put(chunks[0])
    assert not window.poll()
    clock.now += 1.0
    outbox.put(chunks[1])
    op, sent = window.recv()
    (expected,) = fold_steps(plain_events(1, EMITTED, VERIFY_MS, MS))
    assert op == "events" and len(sent) == 1
    assert slots(sent[0]) == slots(expected)
    outbox.close()
