"""A person's first hour (issue 44), names and what stays: models named as their files are, a
banner that goes once what failed works again, the context line moving while an answer
streams, the last chat back after a restart, and two chats of the same words told apart.
Driven as a person would: Ctrl+O and the panel's buttons with a file chosen in the dialog,
typing and Enter, clicks on the chat list."""

from __future__ import annotations

import json
import re
import threading
import time

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog, QLineEdit, QStyleOptionViewItem
from scripted_engine import FakeModelInfo, ScriptedEngine, counting_stream

from app.chat.chat_titles import TWIN_ROLE
from app.engine_link.worker import BATCH_INTERVAL_S
from backend.engine.errors import NO_MODEL
from backend.engine.events import GenerationFailed, StepVerified
from backend.words import words

GENERAL_NAME = "Smollm2 135M 8k Lc100K Mix1 Ep2"  # a GGUF's general.name, as llama.cpp has it
TARGET = "/models/smollm2-135m-instruct-f32.gguf"
DRAFT = "/models/smollm2-135m-instruct-q8_0.gguf"
LONG = ("/models/a-rather-long-model-file-name-as-the-hub-has-them-"
        "Meta-Llama-3.1-8B-Instruct-abliterated-Q4_K_M.gguf")


class NamedEngine(ScriptedEngine):
    """The scripted engine, its models named by their metadata as a real GGUF's are."""

    def load_target(self, path, **kwargs):
        info = super().load_target(path, **kwargs)
        self.target = FakeModelInfo(info.path, GENERAL_NAME)
        return self.target

    def load_draft(self, path, **kwargs):
        info = super().load_draft(path, **kwargs)
        self.draft = FakeModelInfo(info.path, GENERAL_NAME)
        return self.draft


def choose_file(monkeypatch, path: str) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *_a, **_k: (path, ""))


def ctrl_o_pressed(w) -> None:
    """Ctrl+O typed into the window, as the keyboard sends it (its shortcuts see it)."""
    QTest.keyClick(w.windowHandle(), Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)


def ctrl_o(w, qtbot, monkeypatch, path: str) -> None:
    """File → Open GGUF… by its shortcut, `path` chosen; returns once it has loaded."""
    choose_file(monkeypatch, path)
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        ctrl_o_pressed(w)


def type_and_send(w, qtbot, text: str) -> None:
    w.message_box.setFocus()
    qtbot.keyClicks(w.message_box, text)
    qtbot.keyClick(w.message_box, Qt.Key.Key_Return)


def ask(w, qtbot, text: str):
    with qtbot.waitSignal(w.answer_finished, timeout=10_000) as done:
        type_and_send(w, qtbot, text)
    return done.args[0].answer


def shown(w, qtbot):
    w.show()
    w.activateWindow()  # shortcuts go to the active window
    qtbot.waitActive(w)


# Names ---------------------------------------------------------------------------------------

def test_the_title_and_the_model_boxes_name_the_files(make_window, qtbot, monkeypatch):
    w = make_window(NamedEngine())
    shown(w, qtbot)
    ctrl_o(w, qtbot, monkeypatch, TARGET)
    assert w.windowTitle() == "Draftlight — smollm2-135m-instruct-f32.gguf"
    box = w.panel.target_combo
    assert box.currentText() == box.shown_text() == "smollm2-135m-instruct-f32.gguf"
    assert box.toolTip() == TARGET
    assert box.itemData(box.currentIndex(), Qt.ItemDataRole.ToolTipRole) == TARGET
    assert GENERAL_NAME not in w.panel.target_info.text()

    choose_file(monkeypatch, DRAFT)
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        qtbot.mouseClick(w.panel.open_draft_button, Qt.MouseButton.LeftButton)
    draft = w.panel.draft_combo
    assert draft.currentText() == draft.shown_text() == "smollm2-135m-instruct-q8_0.gguf"
    assert draft.toolTip() == DRAFT
    assert draft.itemData(draft.currentIndex(), Qt.ItemDataRole.ToolTipRole) == DRAFT
    assert w.windowTitle() == "Draftlight — smollm2-135m-instruct-f32.gguf"

    ask(w, qtbot, "count")  # the answer names its model as the window does
    (widget,) = w.answer_widgets()
    assert "smollm2-135m-instruct-f32.gguf" in widget.title.text()
    assert GENERAL_NAME not in widget.title.text()


def test_a_long_file_name_is_shortened_in_the_middle_with_the_path_in_the_tooltip(
        make_window, qtbot, monkeypatch):
    w = make_window(NamedEngine())
    shown(w, qtbot)
    ctrl_o(w, qtbot, monkeypatch, LONG)
    name = LONG.rsplit("/", 1)[1]
    assert w.windowTitle() == f"Draftlight — {name}"
    box = w.panel.target_combo
    text = box.shown_text()
    assert text != name and "…" in text  # no room for it all in the side panel
    head, tail = text.split("…")
    assert name.startswith(head) and name.endswith(tail)
    assert tail.endswith("Q4_K_M.gguf")  # the end says the quantisation: kept
    assert box.toolTip() == LONG


# The banner ----------------------------------------------------------------------------------

def failing_first(engine_failure: GenerationFailed):
    """A script whose first answer fails with `engine_failure`, the later ones count."""
    calls = []

    def script(_request):
        calls.append(1)
        return [engine_failure] if len(calls) == 1 else counting_stream(3)
    return script


def test_no_model_banner_goes_once_a_model_has_loaded(make_window, qtbot, monkeypatch):
    w = make_window(NamedEngine(failing_first(GenerationFailed(NO_MODEL, words=words(NO_MODEL)))))
    shown(w, qtbot)
    ctrl_o(w, qtbot, monkeypatch, TARGET)
    ask(w, qtbot, "count")
    assert w.banner_row.isVisible() and w.banner.text() == "No model is loaded."
    ctrl_o(w, qtbot, monkeypatch, DRAFT.replace("q8_0", "f16"))  # another model loads
    assert not w.banner_row.isVisible()


def test_an_answer_failure_banner_goes_once_an_answer_finishes(make_window, qtbot,
                                                               monkeypatch):
    w = make_window(NamedEngine(failing_first(GenerationFailed("Generation failed "
                                                               "unexpectedly."))))
    shown(w, qtbot)
    ctrl_o(w, qtbot, monkeypatch, TARGET)
    ask(w, qtbot, "count")
    assert w.banner_row.isVisible()
    assert ask(w, qtbot, "count again").error is None
    assert not w.banner_row.isVisible()


def test_a_failed_load_stays_said_after_an_answer_and_goes_after_a_load(make_window, qtbot,
                                                                        monkeypatch):
    w = make_window(NamedEngine(counting_stream(3)))
    shown(w, qtbot)
    ctrl_o(w, qtbot, monkeypatch, TARGET)
    choose_file(monkeypatch, "/models/missing.gguf")
    with qtbot.waitSignal(w.load_failed, timeout=5000):
        ctrl_o_pressed(w)
    qtbot.waitUntil(lambda: not w.loading, timeout=5000)
    assert w.banner_row.isVisible() and "missing.gguf" in w.banner.text()
    ask(w, qtbot, "count")  # the model that stayed answers: the file still did not open
    assert w.banner_row.isVisible() and "missing.gguf" in w.banner.text()
    ctrl_o(w, qtbot, monkeypatch, DRAFT)  # a file that opens
    assert not w.banner_row.isVisible()


# The context line ----------------------------------------------------------------------------

def context_used(w) -> int:
    found = re.search(r"Context: (?:about )?([\d,.  ]+) of", w.chat_actions.context_label.text())
    assert found, w.chat_actions.context_label.text()
    return int(re.sub(r"\D", "", found.group(1)))


def test_the_context_line_moves_while_an_answer_streams(make_window, qtbot, monkeypatch):
    halfway, go = threading.Event(), threading.Event()

    def script(_request):
        for event in counting_stream(20):
            if isinstance(event, StepVerified) and event.step == 9:
                # longer than the worker holds a run of steps: step 9 goes out with it
                time.sleep(2 * BATCH_INTERVAL_S)
            if isinstance(event, StepVerified) and event.step == 10:
                halfway.set()
                go.wait(30)  # the answer waits here, half written
            yield event

    w = make_window(NamedEngine(script))
    shown(w, qtbot)
    ctrl_o(w, qtbot, monkeypatch, TARGET)
    assert context_used(w) == 0
    try:
        type_and_send(w, qtbot, "count")
        qtbot.waitUntil(halfway.is_set, timeout=10_000)
        # 10 steps of 3 drafts kept and the target's own token, after a 5-token prompt
        qtbot.waitUntil(lambda: context_used(w) == 5 + 10 * 4, timeout=5000)
        assert w.generating
    finally:
        with qtbot.waitSignal(w.answer_finished, timeout=10_000):
            go.set()
    assert context_used(w) == 5 + 20 * 4


# The last chat after a restart ---------------------------------------------------------------

def click_chat(w, qtbot, title: str) -> None:
    lst = w.conversation_list
    row = next(r for r in range(lst.count()) if lst.item(r).text() == title)
    rect = lst.visualItemRect(lst.item(row))
    qtbot.mouseClick(lst.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert w.conversation.title == title


def two_chats(make_window, qtbot, monkeypatch, first: str, second: str):
    w = make_window(NamedEngine(counting_stream(3)))
    shown(w, qtbot)
    ctrl_o(w, qtbot, monkeypatch, TARGET)
    ask(w, qtbot, first)
    qtbot.mouseClick(w.chat_list.new_chat_button, Qt.MouseButton.LeftButton)
    ask(w, qtbot, second)
    return w


def test_a_restart_opens_the_chat_that_was_open(make_window, qtbot, monkeypatch):
    w = two_chats(make_window, qtbot, monkeypatch, "the older chat", "the newer chat")
    click_chat(w, qtbot, "the older chat")
    w.close()

    w2 = make_window(NamedEngine(counting_stream(3)))
    assert w2.conversation.title == "the older chat"
    qtbot.waitUntil(lambda: len(w2.transcript.entries()) == 2, timeout=5000)  # its messages
    assert w2.transcript.entries()[0].text_label.text() == "the older chat"
    (answer,) = w2.answer_widgets()  # read back from the store: its model named by its file
    assert "smollm2-135m-instruct-f32.gguf" in answer.title.text()


def test_a_restart_opens_the_newest_chat_when_the_open_one_is_gone(
        make_window, qtbot, monkeypatch, settings_path):
    w = two_chats(make_window, qtbot, monkeypatch, "the older chat", "the newer chat")
    w.close()
    saved = json.loads(settings_path.read_text(encoding="utf-8"))
    assert saved["window"]["last_chat"]
    saved["window"]["last_chat"] = 999  # deleted since, say
    settings_path.write_text(json.dumps(saved), encoding="utf-8")

    w2 = make_window(NamedEngine(counting_stream(3)))
    assert w2.conversation.title == "the newer chat"
    qtbot.waitUntil(lambda: len(w2.transcript.entries()) == 2, timeout=5000)


# Two chats of the same words -----------------------------------------------------------------

def shown_titles(w) -> list[str]:
    """Each row's text as the list draws it."""
    lst = w.conversation_list
    delegate = lst.itemDelegate()
    texts = []
    for row in range(lst.count()):
        option = QStyleOptionViewItem()
        option.initFrom(lst.viewport())
        option.rect = lst.visualItemRect(lst.item(row))
        delegate.initStyleOption(option, lst.model().index(row, 0))
        texts.append(option.text)
    return texts


def test_two_chats_of_the_same_words_are_told_apart(make_window, qtbot, monkeypatch):
    w = two_chats(make_window, qtbot, monkeypatch, "Tell me a story", "Tell me a story")
    lst = w.conversation_list
    qtbot.waitUntil(lambda: sum(bool(lst.item(r).data(TWIN_ROLE))
                                for r in range(lst.count())) == 2, timeout=5000)
    texts = [t for t in shown_titles(w) if t.startswith("Tell me a story")]
    assert len(texts) == 2 and texts[0] != texts[1]
    assert all(t.startswith("Tell me a story · ") for t in texts)
    assert [lst.item(r).text() for r in range(lst.count())].count("Tell me a story") == 2

    # renamed (F2, a new title, Enter): the titles differ, the marks go
    w.conversation_list.setFocus()
    qtbot.keyClick(lst, Qt.Key.Key_F2)
    editor = lst.findChild(QLineEdit)
    assert editor is not None and editor.text() == "Tell me a story"  # the title, no mark
    editor.selectAll()
    qtbot.keyClicks(editor, "A story about owls")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not any(lst.item(r).data(TWIN_ROLE) for r in range(lst.count())),
                    timeout=5000)
    assert sorted(t for t in shown_titles(w) if "stor" in t) == ["A story about owls",
                                                                  "Tell me a story"]
