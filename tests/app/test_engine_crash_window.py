"""When the engine process dies, the window stays: the answer being written is kept and
marked, the message says what happened and with which files, the engine comes back, and the
next answer equals a fresh run's. A model that crashes it is not loaded again in a loop."""

from __future__ import annotations

import os
import signal

import pytest
from abort_models import ABORT_TARGET, write_eagle3_two_blocks
from counting_window import open_counting_pair

from app.engine_link.worker import default_engine_factory
from backend.chats import ChatStore
from backend.engine import crash_hook

LOAD_S = 60_000


@pytest.fixture
def hook(tmp_path, monkeypatch):
    path = tmp_path / "crash.json"
    monkeypatch.setenv(crash_hook.ENV, str(path))  # inherited by the engine process
    return path


def ask(w, qtbot, text="zero one", *, new_chat=True):
    if new_chat:
        w.chat_list.new_chat()
    with qtbot.waitSignal(w.answer_finished, timeout=LOAD_S) as done:
        assert w.send(text)
    return done.args[0].answer


def crash_and_recover(w, qtbot, trigger):
    """Send, let `trigger` crash the engine mid-answer, wait for the answer to end and the
    engine to come back with its models; returns the interrupted answer."""
    w.chat_list.new_chat()
    ended = []
    w.answer_finished.connect(ended.append)
    with qtbot.waitSignals([w.answer_finished, w.models_changed], timeout=LOAD_S):
        assert w.send("zero one")
        trigger()
    w.answer_finished.disconnect(ended.append)
    return ended[0].answer


def test_a_segfault_mid_answer_keeps_the_answer_and_the_next_equals_a_fresh_one(
        make_window, qtbot, test_models, hook, chats_path):
    w = make_window(engine_factory=default_engine_factory)
    open_counting_pair(w, qtbot, test_models)
    fresh = ask(w, qtbot)
    assert fresh.error is None and fresh.n_accepted > 0
    crash_hook.arm(hook, at="step", n=3)
    broken = crash_and_recover(w, qtbot, lambda: None)
    message = ("llama.cpp crashed (segmentation fault) while answering with count-target.gguf "
               "as the target and count-draft.gguf as the draft.")
    assert broken.error == message and w.banner.text() == message
    assert not w.banner_row.isHidden()
    assert broken.stop_reason == "interrupted" and broken.n_steps == 3
    assert broken.text and fresh.text.startswith(broken.text)  # the steps before the crash
    assert w.target is not None and w.draft is not None  # both had finished an answer
    assert w.chats.flush()
    store = ChatStore(chats_path)
    try:
        saved = store.load(w.conversation.chat_id)[-1]
    finally:
        store.close()
    assert (saved.text, saved.stop_reason) == (broken.text, "interrupted")
    again = ask(w, qtbot)
    assert again.error is None and again.text == fresh.text
    # the draft drafts as well as before the crash: one whose cache the crash had left wrong
    # would accept (almost) nothing; the plain probes' lengths, which follow the steps' times,
    # move which steps draft, and with them a few accepted tokens
    assert again.n_accepted >= fresh.n_accepted // 2 > 0


def test_the_engine_killed_mid_answer(make_window, qtbot, test_models):
    w = make_window(engine_factory=default_engine_factory, persist=False)
    open_counting_pair(w, qtbot, test_models, max_tokens=2000)

    def kill_after_two_steps():
        qtbot.waitUntil(lambda: w.transcript.streaming is not None
                        and w.transcript.streaming.answer.n_steps >= 2, timeout=LOAD_S)
        os.kill(w.client.engine_pid, signal.SIGKILL)

    broken = crash_and_recover(w, qtbot, kill_after_two_steps)
    assert broken.error.startswith("llama.cpp was killed (SIGKILL")
    assert broken.stop_reason == "interrupted" and broken.n_steps >= 2
    assert w.target is not None and w.draft is not None  # a kill is not the model's fault
    w.panel.max_tokens.setValue(12)
    after = ask(w, qtbot)
    assert after.error is None
    assert after.stop_reason == "length" and after.n_generated == 12


def test_a_draft_that_crashes_its_first_answer_is_not_loaded_again(make_window, qtbot,
                                                                   test_models, hook):
    w = make_window(engine_factory=default_engine_factory, persist=False)
    open_counting_pair(w, qtbot, test_models)
    crash_hook.arm(hook, at="step", n=2, sig="SIGILL")
    with qtbot.waitSignal(w.load_failed, timeout=LOAD_S) as refused:
        broken = crash_and_recover(w, qtbot, lambda: None)
    assert "illegal instruction" in broken.error
    role, message = refused.args
    assert role == "draft" and "count-draft.gguf was not loaded again" in message
    assert w.target is not None and w.draft is None
    assert w.settings.models.draft == ""  # not opened again at the next start either
    w.panel.set_spec_type("none")
    after = ask(w, qtbot)
    assert after.error is None and after.n_generated == 24


def test_a_gguf_that_makes_llama_cpp_abort_is_a_sentence_and_the_window_goes_on(
        make_window, qtbot, test_models, tmp_path):
    bad = write_eagle3_two_blocks(tmp_path / "eagle3-two-blocks.gguf")
    w = make_window(engine_factory=default_engine_factory, persist=False)
    with qtbot.waitSignal(w.models_changed, timeout=LOAD_S):
        w.open_target(str(test_models / ABORT_TARGET))
    with qtbot.waitSignal(w.load_failed, timeout=LOAD_S) as failed:
        w.open_draft(str(bad))
    expected = ("llama.cpp stopped itself (abort: one of its internal checks failed) while "
                "loading eagle3-two-blocks.gguf as the draft: GGML_ASSERT(n_layer == 1) failed.")
    assert failed.args == ["draft", expected]
    assert w.banner.text() == expected and w.draft is None
    assert w.settings.models.draft == ""  # not opened again at the next start
    qtbot.waitUntil(lambda: not w.loading, timeout=LOAD_S)
    open_counting_pair(w, qtbot, test_models)
    assert ask(w, qtbot).error is None
