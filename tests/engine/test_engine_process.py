"""The engine in its own process: the same events as in-process, Stop within a step, and every
way the process can die told in words, with only the models that deserve it loaded again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading

import pytest
from abort_models import ABORT_TARGET, write_eagle3_two_blocks

from backend.engine import crash_hook, exit_status
from backend.engine.engine import Engine
from backend.engine.errors import EngineCrashed, EngineError
from backend.engine.events import GenerationFailed, GenerationFinished, StepVerified
from backend.engine.remote import EngineProcess
from backend.engine.request import GenerationRequest, Message

# no plain probes, whose length the steps' times decide: the same steps draft on both sides
QUESTION = GenerationRequest(messages=(Message("user", "count"),), spec_type="draft",
                             n_draft_max=4, max_tokens=24, measure_plain=False)


@pytest.fixture
def hook(tmp_path, monkeypatch):
    """The crash hook's file; the engine processes started by the test honour it."""
    path = tmp_path / "crash.json"
    monkeypatch.setenv(crash_hook.ENV, str(path))
    return path


@pytest.fixture
def remote():
    engines = []

    def make() -> EngineProcess:
        engines.append(EngineProcess())
        return engines[-1]

    yield make
    for e in engines:
        e.close()


def load_pair(engine, models):
    engine.load_target(models / "count-target.gguf", n_ctx=256, n_threads=1)
    engine.load_draft(models / "count-draft.gguf")


def answer(engine, request=QUESTION) -> list:
    return list(engine.generate(request))


def test_events_across_the_process_equal_the_in_process_engines(remote, test_models):
    local = Engine()
    try:
        load_pair(local, test_models)
        expected = answer(local)
    finally:
        local.close()
    far = remote()
    load_pair(far, test_models)
    got = answer(far)
    assert far.target.path == str(test_models / "count-target.gguf")
    assert [type(e) for e in got] == [type(e) for e in expected]
    steps = [(e.drafted, e.n_accepted, e.emitted) for e in got if isinstance(e, StepVerified)]
    assert steps == [(e.drafted, e.n_accepted, e.emitted)
                     for e in expected if isinstance(e, StepVerified)]
    assert got[-1].text == expected[-1].text and got[-1].stop_reason == "length"


def long_answer(far, models, at_step: int, action) -> list:
    """The events of a long answer on the slow counting model, calling `action()` when step
    `at_step` arrives."""
    far.load_target(models / "count-target-slow.gguf", n_ctx=2048, n_threads=1)
    events = []
    for event in far.generate(GenerationRequest(prompt=" zero", max_tokens=1500)):
        events.append(event)
        if isinstance(event, StepVerified) and event.step == at_step:
            action()
    return events


def test_stop_reaches_the_process_within_a_step(remote, test_models):
    far = remote()
    # cancel from this thread: the flag is shared with the child
    events = long_answer(far, test_models, 3, far.cancel)
    steps = [e for e in events if isinstance(e, StepVerified)]
    assert events[-1].stop_reason == "cancelled"
    # The flag is read before every step; steps already sent (batched) may still arrive.
    assert 3 <= len(steps) < 1500
    assert answer(far, GenerationRequest(prompt=" zero", max_tokens=3))[-1].stop_reason == \
        "length"  # usable right after


def test_a_crash_mid_answer_is_told_and_a_restart_answers_as_a_fresh_engine(
        remote, test_models, hook):
    far = remote()
    load_pair(far, test_models)
    fresh = answer(far)[-1].text
    crash_hook.arm(hook, at="step", n=3)
    events = answer(far)
    failed = events[-1]
    assert isinstance(failed, GenerationFailed) and failed.crashed
    assert failed.message.startswith("llama.cpp crashed (segmentation fault) while answering "
                                     "with count-target.gguf as the target and "
                                     "count-draft.gguf as the draft")
    assert [e.step for e in events if isinstance(e, StepVerified)] == [1, 2, 3]
    assert (far.target, far.draft, far.dropped) == (None, None, [])
    far.restart()
    assert far.target.name and far.draft is not None  # both had finished an answer
    assert answer(far)[-1].text == fresh


def test_a_crash_on_the_first_answer_drops_the_draft_then_the_target(remote, test_models,
                                                                      hook):
    far = remote()
    load_pair(far, test_models)
    crash_hook.arm(hook, at="step", n=2, sig="SIGILL")
    assert "illegal instruction" in answer(far)[-1].message
    [(role, why)] = far.dropped
    assert role == "draft" and "count-draft.gguf was not loaded again" in str(why)
    far.restart()
    assert far.target is not None and far.draft is None
    crash_hook.arm(hook, at="step", n=1)
    plain = GenerationRequest(messages=QUESTION.messages, max_tokens=8)
    assert answer(far, plain)[-1].crashed
    assert [role for role, _ in far.dropped] == ["target"]  # never reloaded in a loop
    far.restart()
    assert far.target is None
    assert "No model is loaded" in answer(far)[-1].message  # and the engine still answers


def test_a_kill_from_outside_is_forgiven_once(remote, test_models):
    far = remote()
    events = long_answer(far, test_models, 2, lambda: os.kill(far.pid, signal.SIGKILL))
    assert "was killed (SIGKILL" in events[-1].message
    assert far.dropped == []  # the first answer never finished, yet a kill is not its fault
    far.restart()
    assert far.target is not None
    assert answer(far, GenerationRequest(prompt=" zero", max_tokens=4))[-1].text


def test_a_crash_while_loading_a_draft_keeps_the_target(remote, test_models, hook):
    far = remote()
    far.load_target(test_models / "count-target.gguf", n_ctx=256, n_threads=1)
    crash_hook.arm(hook, at="load", match="count-draft")
    with pytest.raises(EngineCrashed, match=r"while loading count-draft\.gguf as the draft"):
        far.load_draft(test_models / "count-draft.gguf")
    far.restart()
    assert far.target is not None and far.draft is None and far.dropped == []


def test_a_gguf_that_makes_llama_cpp_abort_is_a_sentence(remote, tmp_path, test_models):
    bad = write_eagle3_two_blocks(tmp_path / "eagle3-two-blocks.gguf")
    far = remote()
    far.load_target(test_models / ABORT_TARGET, n_ctx=256, n_threads=1)
    with pytest.raises(EngineCrashed) as caught:
        far.load_draft(bad)
    assert str(caught.value) == (
        "llama.cpp stopped itself (abort: one of its internal checks failed) while loading "
        "eagle3-two-blocks.gguf as the draft: GGML_ASSERT(n_layer == 1) failed.")
    assert caught.value.exitcode == -signal.SIGABRT
    far.restart()
    assert far.target is not None and far.draft is None  # the head was not loaded again
    with pytest.raises(EngineError, match="is an EAGLE-3 draft head"):
        far.load_target(bad, n_ctx=256)  # refused in words, by the new engine process


def test_a_generator_left_early_does_not_desynchronise_the_next_call(remote, test_models):
    far = remote()
    far.load_target(test_models / "count-target-slow.gguf", n_ctx=2048, n_threads=1)
    stream = far.generate(GenerationRequest(prompt=" zero", max_tokens=1500))
    next(stream)
    stream.close()  # stops the answer and reads to its end
    last = answer(far, GenerationRequest(prompt=" zero", max_tokens=3))[-1]
    assert isinstance(last, GenerationFinished) and last.stats.n_generated == 3


@pytest.mark.parametrize(("code", "words", "fault"), [
    (-signal.SIGSEGV, "llama.cpp crashed (segmentation fault)", True),
    (-signal.SIGABRT, "llama.cpp stopped itself (abort", True),
    (-signal.SIGILL, "llama.cpp crashed (illegal instruction", True),
    (-signal.SIGBUS, "llama.cpp crashed (bus error", True),
    (-signal.SIGKILL, "llama.cpp was killed (SIGKILL", False),
    (-signal.SIGTERM, "llama.cpp was terminated", False),
    (3, "The engine process exited unexpectedly (exit code 3)", True),
])
def test_exit_statuses_in_words(code, words, fault):
    assert exit_status.describe(code).startswith(words)
    assert exit_status.is_fault(code) is fault


def test_the_window_side_never_loads_llama_cpp(test_models):
    """The app's modules and the engine proxy answer a request while this process never
    imports llama_cpp (it is loaded in the engine process only)."""
    script = textwrap.dedent(f"""
        import sys
        import app.shell.main_window, app.engine_link.worker, app.models.manager_window
        import backend.cli.generate
        from backend.engine.remote import EngineProcess
        from backend.engine.request import GenerationRequest
        if __name__ == "__main__":
            e = EngineProcess()
            e.load_target({str(test_models / "count-target.gguf")!r}, n_ctx=256, n_threads=1)
            last = list(e.generate(GenerationRequest(prompt=" zero", max_tokens=4)))[-1]
            e.close()
            assert last.text == " one two three four", last
            assert "llama_cpp" not in sys.modules, "llama_cpp was imported"
            print("clean")
    """)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    path = test_models.parent / f"no_llama_{threading.get_ident()}.py"
    path.write_text(script)
    try:
        out = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                             env=env, timeout=120, cwd=os.getcwd())
    finally:
        path.unlink()
    assert out.returncode == 0 and out.stdout.strip() == "clean", out.stderr


def test_an_engine_killed_while_idle_is_started_again_for_the_next_request(remote,
                                                                          test_models):
    far = remote()
    load_pair(far, test_models)
    fresh = answer(far)[-1].text
    pid = far.pid
    os.kill(pid, signal.SIGKILL)
    far._proc.join(30)  # the kill lands at once, but not within this very line
    again = answer(far)[-1]
    assert isinstance(again, GenerationFinished) and again.text == fresh
    assert far.pid != pid and far.draft is not None
