"""The chats a person keeps: the list (new, rename, delete with Undo, pin, search, order and day
captions), versions of edited questions and regenerated answers with their own colours, each
answer's settings, the system prompt, export and import, the context notice, and an answer
being written when the window is killed."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from doc_reading import kind_runs
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QLabel, QToolButton
from scripted_engine import ScriptedEngine, counting_stream

from app.chat.chat_actions import SUMMARY_PROMPT, VersionSwitch
from app.chat.chat_rows import GROUP_ROLE, PINNED, day_group
from app.chat.conversation import Conversation
from app.transcript.message_widgets import UserMessageWidget
from backend.chats import ChatStore
from backend.engine.events import GenerationFinished

TARGET = "/models/fake-target.gguf"
ROOT = Path(__file__).resolve().parents[2]


def load(window, qtbot):
    with qtbot.waitSignal(window.models_changed, timeout=5000):
        window.open_target(TARGET)


def ask(window, qtbot, text):
    with qtbot.waitSignal(window.answer_finished, timeout=10_000) as blocker:
        assert window.send(text)
    return blocker.args[0]


def titles(w) -> list[str]:
    return [w.conversation_list.item(i).text() for i in range(w.conversation_list.count())]


def select(w, qtbot, row):
    """Select a listed chat and wait for its messages, read off the GUI thread."""
    conv = w.chat_list._conv(row)
    if conv.loaded:
        w.conversation_list.setCurrentRow(row)
    else:
        with qtbot.waitSignal(w.chats.loaded, timeout=10_000):
            w.conversation_list.setCurrentRow(row)
    assert w.conversation is conv


def user_widgets(w) -> list[UserMessageWidget]:
    return [e for e in w.transcript.entries() if isinstance(e, UserMessageWidget)]


def switch_of(widget) -> VersionSwitch | None:
    return widget.findChild(VersionSwitch)


def button(widget, text) -> QToolButton:
    [b] = [b for b in widget.findChildren(QToolButton) if b.text() == text]
    return b


# The list -------------------------------------------------------------------------------------

def test_new_rename_pin_delete_with_undo_and_order(make_window, qtbot, chats_path):
    w = make_window(ScriptedEngine(counting_stream(2)))
    load(w, qtbot)
    ask(w, qtbot, "first question about   cats, which is long enough to be shortened in the list")
    assert w.conversation.title == "first question about cats, which is lon…"
    w.chat_list.new_chat()
    ask(w, qtbot, "second")
    assert titles(w) == ["second", w.chat_list.conversations()[1].title]

    # Rename: F2 opens the editor on the current chat; an edited item renames it.
    w.conversation_list.setCurrentRow(1)
    w.chat_list.rename_action.trigger()
    assert w.conversation_list.state() == QAbstractItemView.State.EditingState
    w.conversation_list.closePersistentEditor(w.conversation_list.currentItem())
    w.conversation_list.currentItem().setText("Cats  ✓")
    assert w.conversation.title == "Cats ✓" and w.conversation.renamed
    assert w.conversation_list.editTriggers() & QAbstractItemView.EditTrigger.DoubleClicked

    # A new message makes a chat the newest; a pinned one stays above.
    ask(w, qtbot, "more about cats")
    assert titles(w) == ["Cats ✓", "second"]
    assert w.conversation.title == "Cats ✓"  # renamed: the questions no longer name it
    w.conversation_list.setCurrentRow(1)
    w.chat_list.pin_action.trigger()
    assert titles(w) == ["second", "Cats ✓"]
    assert w.conversation_list.item(0).data(GROUP_ROLE) == PINNED
    assert w.conversation_list.item(1).data(GROUP_ROLE) == "Today"

    # Delete, then Undo.
    w.conversation_list.setCurrentRow(0)
    w.chat_list.delete_chat_action.trigger()
    assert titles(w) == ["Cats ✓"]
    assert not w.chat_list.undo_bar.isHidden()
    assert w.chats.flush()
    store = ChatStore(chats_path)
    try:
        assert [c.title for c in store.list()] == ["Cats ✓"]
        qtbot.mouseClick(w.chat_list.undo_button, Qt.MouseButton.LeftButton)
        assert titles(w) == ["second", "Cats ✓"] and w.conversation.title == "second"
        assert w.chats.flush()
        assert [(c.title, c.pinned) for c in store.list()] == [("second", True),
                                                                ("Cats ✓", False)]
    finally:
        store.close()
    w.close()

    w2 = make_window(ScriptedEngine())  # kept as they were: pinned first, the rename kept
    assert titles(w2) == ["second", "New chat", "Cats ✓"]  # pinned above all
    assert w2.chat_list._conv(0).pinned and w2.chat_list._conv(2).renamed


def test_a_chat_pinned_before_its_first_message_is_named_by_it(make_window, qtbot,
                                                                chats_path):
    w = make_window(ScriptedEngine(counting_stream(2)))
    load(w, qtbot)
    w.chat_list.pin_action.trigger()
    ask(w, qtbot, "named by this")
    assert w.chats.flush()
    store = ChatStore(chats_path)
    try:
        assert [(c.title, c.pinned) for c in store.list()] == [("named by this", True)]
    finally:
        store.close()


def test_day_captions():
    today = time.time()
    conv = Conversation(updated_at=today)
    assert day_group(conv) == "Today"
    conv.updated_at = today - 86_400
    assert day_group(conv) == "Yesterday"
    conv.updated_at = time.mktime((2025, 3, 4, 12, 0, 0, 0, 0, -1))
    assert day_group(conv) == "Tue 4 Mar 2025"
    conv.pinned = True
    assert day_group(conv) == PINNED


def test_search_finds_a_word_from_an_old_answer(make_window, qtbot, chats_path):
    store = ChatStore(chats_path)
    old = store.create("old chat")
    store.add_user(old, "tell me about animals")
    store.add_answer(old, "The pangolin is covered in scales.")
    other = store.create("other")
    store.add_user(other, "nothing here")
    store.close()
    w = make_window(ScriptedEngine())
    qtbot.waitUntil(lambda: w.conversation.loaded, timeout=5000)  # the one open at start
    # No chat is read to search it.
    with qtbot.waitSignal(w.chats.loaded, timeout=1, raising=False) as never:
        w.chat_list.search("pangolin")
        qtbot.waitUntil(lambda: w.chat_list.visible_titles() == ["old chat"], timeout=5000)
    assert not never.signal_triggered
    row = w.chat_list.row_of(next(c for c in w.chat_list.conversations() if c.chat_id == old))
    assert "[pangolin]" in w.conversation_list.item(row).toolTip()
    w.chat_list.search("Other")  # titles too
    qtbot.waitUntil(lambda: w.chat_list.visible_titles() == ["other"], timeout=5000)
    w.chat_list.search("")
    assert w.chat_list.visible_titles() == ["New chat", "other", "old chat"]


def test_a_chats_messages_are_read_off_the_gui_thread(make_window, qtbot, chats_path,
                                                     monkeypatch):
    store = ChatStore(chats_path)
    chat = store.create("saved")
    store.add_user(chat, "q")
    store.add_answer(chat, "a", tokens={"text": [" a"], "id": [1], "origin": ["target"],
                                        "accepted": [True], "step": [0], "p_target": [0.5],
                                        "p_draft": [None], "head": [None]})
    store.close()
    threads = []
    real = ChatStore.load

    def spy(*args, **kwargs):
        threads.append(threading.current_thread() is threading.main_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(ChatStore, "load", spy)
    w = make_window(ScriptedEngine())  # the saved chat opens, as the last one open
    qtbot.waitUntil(lambda: w.conversation.loaded, timeout=10_000)
    select(w, qtbot, 1)
    assert threads == [False]
    assert [t.role for t in w.conversation.turns] == ["user", "assistant"]
    assert len(w.answer_widgets()) == 1


# Versions -------------------------------------------------------------------------------------

def test_edit_and_regenerate_keep_earlier_versions_with_their_colours(make_window, qtbot,
                                                                     chats_path):
    first = counting_stream(5, reject_at=lambda s: 1)
    second = counting_stream(5, reject_at=lambda s: 3)
    third = counting_stream(4, reject_at=lambda s: 4)
    engine = ScriptedEngine(first)
    w = make_window(engine)
    load(w, qtbot)
    runs_first = kind_runs(ask(w, qtbot, "count").token_view.document())

    # Edit the question: the new version is answered, the earlier one stays reachable.
    engine.script = second
    [question] = user_widgets(w)
    qtbot.mouseClick(button(question, "Edit"), Qt.MouseButton.LeftButton)
    with qtbot.waitSignal(w.answer_finished, timeout=10_000) as done:
        assert w.chat_actions.edit(w.conversation.turns[0], "count again")
    runs_second = kind_runs(done.args[0].token_view.document())
    assert runs_second != runs_first
    assert w.conversation.title == "count again"  # the first question names the chat
    assert engine.requests[-1].messages[-1].content == "count again"
    [question] = user_widgets(w)
    assert switch_of(question).label.text() == "2 / 2"

    # Regenerate: the answer gets a second version, the first kept.
    engine.script = third
    with qtbot.waitSignal(w.answer_finished, timeout=10_000) as done:
        qtbot.mouseClick(w.regenerate_button, Qt.MouseButton.LeftButton)
    runs_third = kind_runs(done.args[0].token_view.document())
    [answer] = w.answer_widgets()
    assert switch_of(answer).label.text() == "2 / 2"

    qtbot.mouseClick(switch_of(answer).previous, Qt.MouseButton.LeftButton)
    [answer] = w.answer_widgets()
    assert kind_runs(answer.token_view.document()) == runs_second
    assert switch_of(answer).label.text() == "1 / 2"
    [question] = user_widgets(w)
    qtbot.mouseClick(switch_of(question).previous, Qt.MouseButton.LeftButton)
    [question] = user_widgets(w)
    [answer] = w.answer_widgets()
    assert question.text_label.text() == "count"
    assert switch_of(question).label.text() == "1 / 2"
    assert kind_runs(answer.token_view.document()) == runs_first  # its own colours
    assert switch_of(answer) is None  # one answer to that question
    assert w.conversation.messages()[-1].content == answer.answer.text
    w.close()

    # All of it is kept, with the version last shown.
    w2 = make_window(ScriptedEngine())
    select(w2, qtbot, 1)
    [answer] = w2.answer_widgets()
    assert kind_runs(answer.token_view.document()) == runs_first
    [question] = user_widgets(w2)
    qtbot.mouseClick(switch_of(question).next, Qt.MouseButton.LeftButton)
    [answer] = w2.answer_widgets()
    assert switch_of(answer).label.text() == "1 / 2"  # flipped back there before
    assert kind_runs(answer.token_view.document()) == runs_second
    qtbot.mouseClick(switch_of(answer).next, Qt.MouseButton.LeftButton)
    assert kind_runs(w2.answer_widgets()[0].token_view.document()) == runs_third


def test_each_answer_shows_its_settings_and_restores_them(make_window, qtbot):
    w = make_window(ScriptedEngine(counting_stream(2)))
    load(w, qtbot)
    w.panel.temperature.setValue(0.3)
    before = w.panel.generation_settings()
    widget = ask(w, qtbot, "hi")
    [label] = [lab for lab in widget.findChildren(QLabel)
               if lab.text().startswith("Made with")]
    assert f"temperature {before.temperature}" in label.text()
    changed = before.replace(temperature=1.5, top_k=7, seed=42)
    w.panel.set_generation_settings(changed)
    assert w.panel.generation_settings() != before
    qtbot.mouseClick(button(widget, "Use these settings"), Qt.MouseButton.LeftButton)
    assert w.panel.generation_settings() == before


def test_system_prompt_is_sent_first_and_kept(make_window, qtbot):
    engine = ScriptedEngine(counting_stream(2))
    w = make_window(engine)
    load(w, qtbot)
    w.chat_actions.system_prompt_field.setText("Answer like a pirate.")
    w.chat_actions.system_prompt_field.editingFinished.emit()
    ask(w, qtbot, "hello")
    assert [(m.role, m.content) for m in engine.requests[-1].messages][:2] == [
        ("system", "Answer like a pirate."), ("user", "hello")]
    w.close()
    w2 = make_window(ScriptedEngine())
    select(w2, qtbot, 1)
    assert w2.chat_actions.system_prompt_field.text() == "Answer like a pirate."


def test_copy_a_question(make_window, qtbot, qapp):
    w = make_window(ScriptedEngine(counting_stream(2)))
    load(w, qtbot)
    ask(w, qtbot, "copy <b>me</b>")
    [question] = user_widgets(w)
    qtbot.mouseClick(button(question, "Copy"), Qt.MouseButton.LeftButton)
    assert qapp.clipboard().text() == "copy <b>me</b>"


# Export and import ----------------------------------------------------------------------------

def comparable(store, chat_id):
    """A chat's messages without their ids: what "the same conversation" means."""
    messages = store.load(chat_id, all_versions=True)
    index = {m.id: i for i, m in enumerate(messages)}
    return [dict(dataclasses.asdict(m), id=None,
                 parent_id=index.get(m.parent_id) if m.parent_id is not None else None)
            for m in messages]


def test_export_to_json_and_import_gives_the_same_conversation(make_window, qtbot, tmp_path,
                                                               chats_path):
    engine = ScriptedEngine(counting_stream(4, reject_at=lambda s: s % 3))
    w = make_window(engine)
    load(w, qtbot)
    w.chat_actions.set_system_prompt("Be brief 🦙")
    ask(w, qtbot, "count <b>please</b>")
    engine.script = counting_stream(3)
    with qtbot.waitSignal(w.answer_finished, timeout=10_000):
        w.flow.regenerate()  # a second version, exported too
    ask(w, qtbot, "and on")
    original = w.conversation
    path = tmp_path / "chat.json"
    with qtbot.waitSignal(w.chat_list.info, timeout=10_000):
        w.chat_list.export(original, str(path), "json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    answer = next(m for m in doc["messages"] if m["role"] == "assistant")
    assert {"origin", "accepted", "p_target", "p_draft", "step"} <= set(answer["tokens"])
    assert answer["stats"]["n_drafted"] and answer["settings"]["spec_type"]

    md = tmp_path / "chat.md"
    with qtbot.waitSignal(w.chat_list.info, timeout=10_000):
        w.chat_list.export(original, str(md), "markdown")
    text = md.read_text(encoding="utf-8")
    assert "## You\n\ncount <b>please</b>" in text and "Be brief 🦙" in text

    with qtbot.waitSignal(w.chats.loaded, timeout=10_000):
        w.chat_list.import_chat(str(path))
    imported = w.conversation
    assert imported is not original and imported.chat_id != original.chat_id
    assert imported.title == original.title and imported.system_prompt == "Be brief 🦙"
    assert imported.messages() == original.messages()
    assert [kind_runs(a.token_view.document()) for a in w.answer_widgets()] == [
        kind_runs(a.token_view.document()) for a in w.answer_widgets()]
    assert w.chats.flush()
    store = ChatStore(chats_path)
    try:
        assert comparable(store, imported.chat_id) == comparable(store, original.chat_id)
    finally:
        store.close()


def test_a_file_that_is_not_a_chat_is_refused_in_words(make_window, qtbot, tmp_path):
    w = make_window(ScriptedEngine())
    path = tmp_path / "bad.json"
    path.write_text('{"format": "something else"}')
    with qtbot.waitSignal(w.chats.failed, timeout=10_000) as failed:
        w.chat_list.import_chat(str(path))
    assert "not a conversation exported by Draftlight" in failed.args[0]
    assert w.chat_list.count() == 1


# Context ----------------------------------------------------------------------------------

def long_prompt_stream(n_prompt: int):
    events = counting_stream(3)
    last = events[-1]
    assert isinstance(last, GenerationFinished)
    events[-1] = dataclasses.replace(last, stats=dataclasses.replace(last.stats,
                                                                     n_prompt=n_prompt))
    return events


def test_a_chat_at_the_edge_of_the_context_gets_the_notice_not_an_exception(make_window,
                                                                            qtbot):
    engine = ScriptedEngine(long_prompt_stream(150))
    w = make_window(engine)
    load(w, qtbot)
    w.panel.n_ctx.setValue(256)
    ask(w, qtbot, "an early question " * 20)
    assert w.chat_actions.context_label.text().startswith("Context: ")
    assert "of 256 tokens" in w.chat_actions.context_label.text()
    n_requests = len(engine.requests)
    text = "one more question that is rather long " * 3
    assert not w.send(text)  # held back, nothing cut
    notice = w.chat_actions.notice
    assert not notice.isHidden() and "would not fit" in notice.label.text()
    assert len(engine.requests) == n_requests and len(w.conversation.turns) == 2
    assert notice.drop_button.isEnabled()

    w.message_box.setPlainText(text)
    with qtbot.waitSignal(w.answer_finished, timeout=10_000):
        qtbot.mouseClick(notice.drop_button, Qt.MouseButton.LeftButton)
    sent = engine.requests[-1].messages
    assert [m.content for m in sent] == [text]  # the oldest exchange left out, and said so
    assert len(w.conversation.turns) == 4 and w.conversation.dropped_turns == 2
    assert "oldest messages are left out" in w.chat_actions.context_label.text()
    dimmed = [e.findChild(QLabel, "droppedLabel") is not None for e in w.transcript.entries()]
    assert dimmed == [True, True, False, False]
    assert w.message_box.toPlainText() == ""

    # Too long even alone: the notice says so; only a new chat or a shorter message helps.
    assert not w.send("word " * 400)
    assert "Even without the earlier turns" in notice.label.text()
    assert not notice.drop_button.isEnabled()


def test_summarise_then_send(make_window, qtbot):
    engine = ScriptedEngine(long_prompt_stream(150))
    w = make_window(engine)
    load(w, qtbot)
    w.panel.n_ctx.setValue(256)
    ask(w, qtbot, "an early question " * 20)
    text = "the next question " * 5
    assert not w.send(text)
    with qtbot.waitSignals([w.answer_finished, w.answer_finished], timeout=10_000):
        qtbot.mouseClick(w.chat_actions.notice.summarise_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(engine.requests) == 3, timeout=10_000)
    summary_request, after = engine.requests[1].messages, engine.requests[2].messages
    assert summary_request[-1].content == SUMMARY_PROMPT
    assert after[0].content == SUMMARY_PROMPT  # the turns before it left out
    assert after[-1].content == text


def test_the_new_chat_choice_sends_there(make_window, qtbot):
    engine = ScriptedEngine(long_prompt_stream(150))
    w = make_window(engine)
    load(w, qtbot)
    w.panel.n_ctx.setValue(256)
    ask(w, qtbot, "an early question " * 20)
    first = w.conversation
    assert not w.send("a follow-up " * 8)
    with qtbot.waitSignal(w.answer_finished, timeout=10_000):
        qtbot.mouseClick(w.chat_actions.notice.new_chat_button, Qt.MouseButton.LeftButton)
    assert w.conversation is not first and w.conversation.title.startswith("a follow-up")
    assert [m.content for m in engine.requests[-1].messages] == ["a follow-up " * 8]


# An answer being written when the window dies ---------------------------------------------------

WINDOW_CHILD = """
import os, signal, sys
from pathlib import Path
sys.path.insert(0, {tests_app!r})
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from scripted_engine import ScriptedEngine, counting_stream
from app.shell.startup import build_window
from backend.settings import load_settings
from backend.chats import ChatStore

app = QApplication([])
engine = ScriptedEngine(counting_stream(2000), step_delay_s=0.02)  # 40 s: killed long before
w = build_window(load_settings(Path({settings!r})), settings_path=Path({settings!r}),
                 engine_factory=lambda: engine, chats_path=Path({chats!r}))
w.show()
w.models_changed.connect(lambda target, draft: w.send("count for ever"))
w.open_target("/models/fake-target.gguf")
reader = ChatStore({chats!r})

def check():
    # Killed once the window's own saves (every 2 s while streaming) hold 40 tokens or more.
    answers = [m for c in reader.list() for m in reader.load(c.id) if m.role == "assistant"]
    if answers and answers[0].tokens and len(answers[0].tokens["text"]) >= 40:
        print(repr(answers[0].text), flush=True)
        os.kill(os.getpid(), signal.SIGKILL)

timer = QTimer()
timer.timeout.connect(check)
timer.start(100)
app.exec()
"""


def test_the_window_killed_mid_answer_comes_back_with_the_partial_answer_marked(
        make_window, qtbot, tmp_path, chats_path):
    settings = tmp_path / "child-settings.json"
    script = WINDOW_CHILD.format(tests_app=str(ROOT / "tests" / "app"), settings=str(settings),
                                 chats=str(chats_path))
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=120,
                            env=env, cwd=ROOT)
    assert result.returncode == -signal.SIGKILL, result.stderr.decode()[-3000:]
    saved_text = eval(result.stdout.decode().strip().splitlines()[-1])  # repr of a str
    assert saved_text.startswith(" zero one")

    w = make_window(ScriptedEngine(counting_stream(3)))
    assert titles(w) == ["New chat", "count for ever"]
    select(w, qtbot, 1)
    [answer] = w.answer_widgets()
    assert answer.answer.text == saved_text
    assert "interrupted" in answer.stats_label.text()
    assert len(answer.answer.tokens) >= 40 and answer.token_view.toPlainText()
    cont, again = button(answer, "Continue"), button(answer, "Regenerate")
    assert cont.isEnabled() and again.isEnabled()

    load(w, qtbot)
    with qtbot.waitSignal(w.answer_finished, timeout=10_000):
        qtbot.mouseClick(again, Qt.MouseButton.LeftButton)
    [answer] = w.answer_widgets()
    assert switch_of(answer).label.text() == "2 / 2"  # the partial one kept as a version


def test_continue_after_stop_extends_the_same_answer(make_window, qtbot, chats_path):
    from stop_gate import StopGate

    gate = StopGate(before=4)
    w = make_window(gate.engine)
    load(w, qtbot)
    with qtbot.waitSignal(w.answer_finished, timeout=60_000):
        w.send("count")
        qtbot.waitUntil(gate.waiting.is_set, timeout=10_000)
        qtbot.mouseClick(w.stop_button, Qt.MouseButton.LeftButton)
    [stopped] = w.answer_widgets()
    assert "stopped" in stopped.stats_label.text()
    before = stopped.answer.text
    base = stopped.answer.stats()
    n_tokens, last_step = len(stopped.answer.tokens), max(stopped.answer.tokens.step)
    more = counting_stream(2)
    gate.engine.script = more
    with qtbot.waitSignal(w.answer_finished, timeout=10_000) as done:
        qtbot.mouseClick(button(stopped, "Continue"), Qt.MouseButton.LeftButton)
    assert done.args[0] is stopped  # the same answer, not a new turn
    request = gate.engine.requests[-1]
    assert [(m.role, m.content) for m in request.messages] == [("user", "count")]
    assert request.continue_text == before
    assert [t.role for t in w.conversation.turns] == ["user", "assistant"]
    answer = stopped.answer
    assert answer.text == before + more[-1].text
    assert answer.stop_reason == "length"
    assert len(answer.tokens) > n_tokens
    assert min(answer.tokens.step[n_tokens:]) > last_step  # its steps number on
    # the two runs' numbers, joined
    assert answer.stats().n_generated == base.n_generated + more[-1].stats.n_generated
    assert answer.stats().n_drafted == base.n_drafted + more[-1].stats.n_drafted
    # it stopped at max tokens again: Continue is offered again, once
    assert len([b for b in stopped.findChildren(QToolButton)
                if b.text() == "Continue" and b.isVisibleTo(stopped)]) == 1
    w.close()
    from backend.chats.store import ChatStore
    store = ChatStore(chats_path)
    (chat,) = store.list()
    assert [m.text for m in store.load(chat.id)] == ["count", before + more[-1].text]
    store.close()


def test_delete_key_deletes_a_chat_only_from_the_list(make_window, qtbot):
    w = make_window(ScriptedEngine(counting_stream(2)))
    w.show()
    qtbot.waitExposed(w)
    load(w, qtbot)
    ask(w, qtbot, "keep me")
    w.message_box.setFocus()
    w.message_box.setPlainText("typing")
    w.message_box.moveCursor(w.message_box.textCursor().MoveOperation.Start)
    qtbot.keyClick(w.message_box, Qt.Key.Key_Delete)
    assert titles(w) == ["keep me"] and w.message_box.toPlainText() == "yping"
    w.conversation_list.setFocus()
    qtbot.keyClick(w.conversation_list, Qt.Key.Key_Delete)
    assert titles(w) == ["New chat"]
    assert not w.chat_list.undo_bar.isHidden()


def test_use_these_settings_loads_the_model_the_answer_was_made_with(make_window, qtbot,
                                                                     tmp_path):
    first, other = tmp_path / "first.gguf", tmp_path / "other.gguf"
    first.write_bytes(b"GGUF")
    other.write_bytes(b"GGUF")
    engine = ScriptedEngine(counting_stream(2))
    w = make_window(engine)
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_target(str(first))
    widget = ask(w, qtbot, "hi")
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_target(str(other))
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        qtbot.mouseClick(button(widget, "Use these settings"), Qt.MouseButton.LeftButton)
    assert engine.load_calls[-1] == ("target", str(first))
    assert w.target.path == str(first)
