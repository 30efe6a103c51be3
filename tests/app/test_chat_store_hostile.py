"""Saving never loses a turn, met as a person meets it in the window: the disk fills while
they chat and frees up again, an answer holds half an emoji, the chats file is read-only,
the disk is full at start. Each time one sentence says what happened and nothing is lost."""

from __future__ import annotations

import os
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from full_disk import FullDisk
from scripted_engine import ScriptedEngine, counting_stream

from backend.chats import TOKEN_FIELDS, ChatStore
from backend.chats import store as store_module
from backend.engine.events import GenerationFinished, StepVerified

TARGET = "/models/fake-target.gguf"
HALF_EMOJI = "\ud83e"  # the first half of 🦙's surrogate pair: what a rejected draft can end in


def load(window, qtbot):
    with qtbot.waitSignal(window.models_changed, timeout=5000):
        window.open_target(TARGET)


def ask(window, qtbot, text):
    with qtbot.waitSignal(window.answer_finished, timeout=10_000) as blocker:
        assert window.send(text)
    assert window.chats.flush()  # written off the GUI thread
    return blocker.args[0]


def saved(chats_path: Path, chat_id: int) -> list:
    store = ChatStore(chats_path)
    try:
        return store.load(chat_id)
    finally:
        store.close()


def saved_titles(chats_path: Path) -> list[str]:
    store = ChatStore(chats_path)
    try:
        return [c.title for c in store.list()]
    finally:
        store.close()


def test_a_turn_written_on_a_full_disk_is_saved_once_there_is_room(make_window, qtbot,
                                                                    chats_path):
    w = make_window(ScriptedEngine(counting_stream(3)))
    load(w, qtbot)
    disk = FullDisk(w.chats.store._db)
    w.chats.store._db = disk

    first = ask(w, qtbot, "first question")
    banner = w.banner.text()
    assert banner.startswith("The disk is full: "), banner
    assert "rollback" not in banner and "transaction" not in banner
    assert banner.count(". ") <= 1  # what happened and what is done about it, no more
    assert saved_titles(chats_path) == []  # nothing half-saved
    assert w.chats.unsaved  # kept in the window

    disk.full = False  # the person frees some space and goes on
    second = ask(w, qtbot, "second question")
    assert not w.chats.unsaved
    qtbot.waitUntil(lambda: w.banner_row.isHidden(), timeout=5000)  # saved: said no more
    messages = saved(chats_path, w.conversation.chat_id)
    assert [(m.role, m.text) for m in messages] == [
        ("user", "first question"), ("assistant", first.answer.text),
        ("user", "second question"), ("assistant", second.answer.text)]
    assert [m.parent_id for m in messages] == [None, *(m.id for m in messages[:-1])]
    assert messages[1].tokens["text"] == list(first.answer.tokens.text)
    assert saved_titles(chats_path) == ["first question"]

    w.close()  # and the chat comes back whole in a new window
    w2 = make_window(ScriptedEngine())
    with qtbot.waitSignal(w2.chats.loaded, timeout=10_000):
        w2.conversation_list.setCurrentRow(1)
    assert [t.content for t in w2.conversation.turns] == [m.text for m in messages]


def test_writes_that_fail_are_tried_again_without_another_message(make_window, qtbot,
                                                                   chats_path):
    w = make_window(ScriptedEngine(counting_stream(2)))
    w.chats._retry.setInterval(50)  # RETRY_S, shortened
    load(w, qtbot)
    disk = FullDisk(w.chats.store._db)
    w.chats.store._db = disk
    answer = ask(w, qtbot, "only question")
    assert w.banner.text().startswith("The disk is full: ")
    qtbot.wait(200)  # tried again, and again, quietly
    assert w.chats.unsaved and saved_titles(chats_path) == []
    assert not w.banner_row.isHidden()  # still said while it is not saved
    disk.full = False
    qtbot.waitUntil(lambda: not w.chats.unsaved, timeout=5000)
    assert w.chats.flush()
    qtbot.waitUntil(lambda: w.banner_row.isHidden(), timeout=5000)
    assert [m.text for m in saved(chats_path, w.conversation.chat_id)] == [
        "only question", answer.answer.text]


def stream_with_half_an_emoji() -> list:
    """A counting answer whose second step's last token is half an emoji."""
    events, texts = [], []
    for event in counting_stream(3, k=2):
        if isinstance(event, StepVerified) and event.step == 1:
            last = replace(event.emitted[-1], text=f" {HALF_EMOJI}")
            event = replace(event, emitted=(*event.emitted[:-1], last))
        if isinstance(event, StepVerified):
            texts += [t.text for t in event.emitted]
        if isinstance(event, GenerationFinished):
            event = replace(event, text="".join(texts))
        events.append(event)
    return events


def test_an_answer_holding_half_an_emoji_is_saved_whole(make_window, qtbot, chats_path):
    w = make_window(ScriptedEngine(stream_with_half_an_emoji()))
    load(w, qtbot)
    widget = ask(w, qtbot, f"say {HALF_EMOJI}")
    text = widget.answer.text
    assert HALF_EMOJI in text
    assert w.banner_row.isHidden(), w.banner.text()  # saved without a word
    user, answer = saved(chats_path, w.conversation.chat_id)
    assert user.text == f"say {HALF_EMOJI}"
    assert (answer.text, answer.stop_reason) == (text, "length")  # whole, not interrupted
    assert answer.tokens["text"] == list(widget.answer.tokens.text)

    w.close()
    w2 = make_window(ScriptedEngine())
    with qtbot.waitSignal(w2.chats.loaded, timeout=10_000):
        w2.conversation_list.setCurrentRow(1)
    [restored] = w2.answer_widgets()
    assert restored.answer.text == text  # kept exactly, for a continuation or an export
    shown = restored.token_view.document().toPlainText()
    assert shown.replace("\ufffd", "") == text.replace(HALF_EMOJI, "")  # the rest all shown


def test_half_an_emoji_is_shown_as_a_replacement_mark(make_window, qtbot):
    w = make_window(ScriptedEngine(stream_with_half_an_emoji()))
    load(w, qtbot)
    widget = ask(w, qtbot, "say it")
    assert "\ufffd" in widget.token_view.document().toPlainText()


def writes_refused_under(monkeypatch, folder: Path) -> None:
    """Permissions that forbid writing in `folder` (chmod alone does not stop root)."""
    real = os.access

    def access(p, mode, *args, **kwargs):
        if mode & os.W_OK and Path(p).is_relative_to(folder):
            return False
        return real(p, mode, *args, **kwargs)

    monkeypatch.setattr(store_module.os, "access", access)


def saved_chat(chats_path: Path) -> None:
    store = ChatStore(chats_path)
    try:
        chat = store.create("Saved before")
        store.add_user(chat, "what is it?")
        n = 3
        store.add_answer(chat, "it is kept", tokens={
            name: ([" it", " is", " kept"] if name == "text" else [1, 2, 3] if name == "id"
                   else ["target"] * n if name == "origin" else [None] * n)
            for name in TOKEN_FIELDS})
    finally:
        store.close()


@pytest.mark.parametrize("how", ["file", "folder"])
def test_a_read_only_chats_file_is_listed_and_read_and_saving_says_why(
        make_window, qtbot, chats_path, monkeypatch, how):
    saved_chat(chats_path)
    before = chats_path.read_bytes()
    chats_path.chmod(0o444)
    try:
        if how == "folder" or os.geteuid() == 0:
            writes_refused_under(monkeypatch, chats_path if how == "file" else chats_path.parent)
        w = make_window(ScriptedEngine(counting_stream(2)))
        assert w.banner.text() == (f"Your saved chats in {chats_path} are read-only: they can "
                                   "be read, but nothing new is saved.")
        titles = [w.conversation_list.item(i).text() for i in range(w.conversation_list.count())]
        assert titles == ["New chat", "Saved before"]
        with qtbot.waitSignal(w.chats.loaded, timeout=10_000):
            w.conversation_list.setCurrentRow(1)
        assert [t.content for t in w.conversation.turns] == ["what is it?", "it is kept"]

        load(w, qtbot)
        ask(w, qtbot, "one more")
        assert w.banner.text() == (f"The chats database {chats_path} is read-only: chats can "
                                   "be read but not saved.")
        assert [t.content for t in w.conversation.turns][:3] == ["what is it?", "it is kept",
                                                                  "one more"]
    finally:
        chats_path.chmod(0o644)
    assert chats_path.read_bytes() == before


def test_a_full_disk_at_start_is_said_in_words(make_window, qtbot, chats_path, monkeypatch):
    saved_chat(chats_path)
    real_connect, real_usage = sqlite3.connect, store_module.shutil.disk_usage

    def connect(database, *args, **kwargs):  # no room for SQLite's journal files
        if kwargs.get("uri"):
            return real_connect(database, *args, **kwargs)
        error = sqlite3.OperationalError("disk I/O error")
        error.sqlite_errorcode = sqlite3.SQLITE_IOERR | (3 << 8)  # SQLITE_IOERR_WRITE
        raise error

    monkeypatch.setattr(store_module.sqlite3, "connect", connect)
    monkeypatch.setattr(store_module.shutil, "disk_usage",
                        lambda p: real_usage(p)._replace(free=0))
    w = make_window(ScriptedEngine())
    text = w.banner.text()
    assert text == (f"The disk is full: your saved chats in {chats_path} can be read, but "
                    "nothing new is saved until there is room.")
    assert "I/O" not in text
    assert w.conversation_list.count() == 2  # the saved chat is listed


def test_a_write_refused_for_what_it_holds_does_not_hold_back_the_next(make_window, qtbot,
                                                                        chats_path):
    w = make_window(ScriptedEngine(counting_stream(2)))
    load(w, qtbot)
    store = w.chats.store
    real_add_user = store.add_user
    calls = []

    def add_user(chat_id, text, **kwargs):  # a write SQLite refuses every time it is tried
        calls.append(text)
        if text == "refused":
            try:
                raise sqlite3.IntegrityError("CHECK constraint failed")
            except sqlite3.IntegrityError as exc:
                raise store_module.ChatStoreError("Could not save to the chats database: "
                                                  "CHECK constraint failed") from exc
        return real_add_user(chat_id, text, **kwargs)

    store.add_user = add_user
    ask(w, qtbot, "refused")
    assert w.banner.text() == "Could not save to the chats database: CHECK constraint failed"
    assert not w.chats.unsaved  # not kept to fail again
    ask(w, qtbot, "saved")
    assert calls == ["refused", "saved"]
    answers = [t.content for t in w.conversation.turns if t.role == "assistant"]
    texts = [m.text for m in saved(chats_path, w.conversation.chat_id)]
    assert texts == [answers[0], "saved", answers[1]]  # only the refused question is missing
