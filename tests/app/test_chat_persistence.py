"""Chats saved by the window come back in a new window on the same store."""

from __future__ import annotations

from doc_reading import expected_runs, kind_runs
from PySide6.QtCore import Qt
from scripted_engine import ScriptedEngine, counting_stream
from stop_gate import StopGate

from backend.chats import ChatStore
from backend.engine.events import GenerationFailed, GenerationStarted, StepVerified

TARGET = "/models/fake-target.gguf"


def load(window, qtbot):
    with qtbot.waitSignal(window.models_changed, timeout=5000):
        window.open_target(TARGET)


def ask(window, qtbot, text):
    with qtbot.waitSignal(window.answer_finished, timeout=10_000) as blocker:
        assert window.send(text)
    return blocker.args[0]


def test_conversation_and_coloured_answer_come_back_after_a_restart(make_window, qtbot,
                                                                     chats_path):
    script = counting_stream(6, k=4, reject_at=lambda s: s % 5)
    w = make_window(ScriptedEngine(script))
    load(w, qtbot)
    question = "Count <b>to</b> \"six\" 🦙"
    widget = ask(w, qtbot, question)
    runs = kind_runs(widget.token_view.document())
    assert runs == expected_runs([e for e in script if isinstance(e, StepVerified)])
    stats_text = widget.stats_label.text()
    w.close()

    w2 = make_window(ScriptedEngine(script))
    assert w2.conversation_list.count() == 2  # a fresh "New chat", then the saved one
    assert w2.conversation_list.item(1).text() == question
    with qtbot.waitSignal(w2.chats.loaded, timeout=10_000):  # read off the GUI thread
        w2.conversation_list.setCurrentRow(1)
    [user] = [e for e in w2.transcript.entries() if e not in w2.answer_widgets()]
    assert user.text_label.text() == question
    [restored] = w2.answer_widgets()
    assert kind_runs(restored.token_view.document()) == runs
    assert restored.stats_label.text() == stats_text
    assert restored.answer.accepted_lengths == widget.answer.accepted_lengths
    assert restored.answer.drafted_lengths == widget.answer.drafted_lengths
    assert [t.role for t in w2.conversation.turns] == ["user", "assistant"]
    assert w2.conversation.messages() == w.conversation.messages()


def test_stopped_answer_is_kept_regenerate_replaces_failed_is_not_saved(make_window, qtbot,
                                                                  chats_path):
    gate = StopGate(before=6)  # the answer waits for Stop after 6 steps
    engine = gate.engine
    w = make_window(engine)
    load(w, qtbot)
    with qtbot.waitSignal(w.answer_finished, timeout=60_000):
        w.send("count")
        qtbot.waitUntil(gate.waiting.is_set, timeout=10_000)
        qtbot.mouseClick(w.stop_button, Qt.MouseButton.LeftButton)
    stopped = w.conversation.turns[-1].answer.text
    assert w.chats.flush()  # answers are written off the GUI thread
    chat_id = w.conversation.chat_id
    store = ChatStore(chats_path)
    try:
        messages = store.load(chat_id)
        assert [(m.role, m.stop_reason) for m in messages] == [("user", None),
                                                               ("assistant", "cancelled")]
        assert messages[1].text == stopped and stopped

        engine.script = counting_stream(3)
        with qtbot.waitSignal(w.answer_finished, timeout=10_000):
            w.flow.regenerate()
        assert w.chats.flush()
        texts = [m.text for m in store.load(chat_id)]
        assert texts == ["count", w.conversation.turns[-1].answer.text]
        assert texts[1] != stopped

        engine.script = [GenerationStarted(1, "draft", 4, 5), GenerationFailed("boom", "")]
        with qtbot.waitSignal(w.answer_finished, timeout=10_000):
            w.send("again")
        assert w.conversation.turns[-1].answer.error == "boom"
        assert w.chats.flush()
        assert [m.text for m in store.load(chat_id)] == [*texts, "again"]  # no failed answer
    finally:
        store.close()


def test_delete_chat_removes_it_from_list_and_store(make_window, qtbot, chats_path):
    w = make_window(ScriptedEngine(counting_stream(2)))
    load(w, qtbot)
    ask(w, qtbot, "first")
    w.chat_list.new_chat()
    ask(w, qtbot, "second")
    assert [w.conversation_list.item(i).text() for i in range(2)] == ["second", "first"]
    w.chat_list.delete_chat(0)
    assert w.conversation_list.count() == 1
    assert w.conversation.title == "first"
    assert [t.role for t in w.conversation.turns] == ["user", "assistant"]
    w.close()
    store = ChatStore(chats_path)
    try:
        assert [c.title for c in store.list()] == ["first"]
    finally:
        store.close()


def test_a_corrupt_store_is_reported_and_the_window_still_opens(make_window, chats_path):
    chats_path.write_bytes(b"garbage" * 200)
    w = make_window(ScriptedEngine())
    assert not w.banner_row.isHidden()
    assert "moved to" in w.banner.text()
    assert w.conversation_list.count() == 1


def test_a_store_that_cannot_be_opened_leaves_chats_in_memory(make_window, qtbot, chats_path):
    chats_path.mkdir()
    w = make_window(ScriptedEngine(counting_stream(2)))
    assert "will not be saved" in w.banner.text()
    load(w, qtbot)
    ask(w, qtbot, "still works")
    assert [t.role for t in w.conversation.turns] == ["user", "assistant"]
