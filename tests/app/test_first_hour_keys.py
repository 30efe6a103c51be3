"""A person's first hour with the keyboard (issue 44): the message box has the focus whenever
they would type, New chat does not pile up empty chats, Esc stops an answer and closes every
window, editing a message keys like the message box and is as tall as its text, the replay
answers the arrows, Page Up/Down, Home/End and Space, the rename field is whole, and the
keyboard focus can be seen. Keys go to the active window, as a keyboard sends them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit, QToolButton, QWidget
from scripted_engine import ScriptedEngine, counting_stream
from stop_gate import StopGate
from test_look import contrast

from app.chat.message_box import EDIT_MAX_LINES, MessageEditBox
from app.shell.about import AboutDialog
from app.shell.theme import current_chrome
from app.teaching.charts_window import ChartsWindow
from app.teaching.race_window import RaceWindow
from app.teaching.replay_window import JUMP_STEPS, ReplayWindow
from app.transcript.message_widgets import UserMessageWidget

TARGET = "/models/fake-target.gguf"


def shown(make_window, qtbot, engine=None, *, load=True):
    """A window shown and active, its model loaded, as a person finds it at start."""
    w = make_window(engine or ScriptedEngine(counting_stream(3)))
    if load:
        with qtbot.waitSignal(w.models_changed, timeout=5000):
            w.open_target(TARGET)
    activate(qtbot, w)
    return w


def activate(qtbot, window: QWidget) -> None:
    """Shown and the active window: the one the keyboard types into."""
    window.show()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)


def press(window: QWidget, key: Qt.Key, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    """A key pressed on the keyboard: to the window, for its shortcuts and its focus widget."""
    QTest.keyClick(window.windowHandle(), key, modifier)


def type_text(window: QWidget, text: str) -> None:
    for char in text:
        press(window, Qt.Key.Key_Space if char == " " else Qt.Key(ord(char.upper())))


def click(widget: QWidget, pos: QPoint | None = None) -> None:
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     pos or widget.rect().center())


def click_row(w, row: int) -> None:
    view = w.conversation_list
    click(view.viewport(), view.visualItemRect(view.item(row)).center())


def ask(w, qtbot, text: str):
    """Click in the message box, type a message and press Enter; the answer's widget once it
    has finished."""
    click(w.message_box)
    type_text(w, text)
    with qtbot.waitSignal(w.answer_finished, timeout=10_000) as done:
        press(w, Qt.Key.Key_Return)
    return done.args[0]


def test_typing_lands_in_the_message_box_at_start_after_new_chat_selecting_and_answers(
        make_window, qtbot):
    w = shown(make_window, qtbot)
    assert QApplication.focusWidget() is w.message_box
    type_text(w, "hi there")  # the space too: it must not press "New chat"
    assert w.message_box.toPlainText() == "hi there"
    assert w.conversation_list.count() == 1

    with qtbot.waitSignal(w.answer_finished, timeout=10_000):
        click(w.send_button)  # the Send button takes the focus from the box, then is greyed
    type_text(w, "next")
    assert w.message_box.toPlainText() == "next"
    w.message_box.clear()

    click(w.chat_list.new_chat_button)
    assert w.conversation_list.count() == 2
    type_text(w, "a")
    assert w.message_box.toPlainText() == "a"
    w.message_box.clear()

    click_row(w, 1)  # the chat answered before
    assert w.conversation.turns and QApplication.focusWidget() is w.message_box
    w.conversation_list.setFocus()
    press(w, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert not w.conversation.turns and QApplication.focusWidget() is w.message_box

    # An answer stopped with the mouse: the focus on Stop, greyed at the end, comes back.
    gate = StopGate(before=3)
    w2 = shown(make_window, qtbot, gate.engine)
    with qtbot.waitSignal(w2.answer_finished, timeout=30_000):
        type_text(w2, "count")
        press(w2, Qt.Key.Key_Return)
        qtbot.waitUntil(gate.waiting.is_set, timeout=10_000)
        click(w2.stop_button)
    assert QApplication.focusWidget() is w2.message_box


def test_new_chat_shows_the_empty_chat_instead_of_adding_another(make_window, qtbot):
    w = shown(make_window, qtbot)
    for _ in range(3):
        click(w.chat_list.new_chat_button)
        press(w, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert w.conversation_list.count() == 1

    ask(w, qtbot, "first")
    click(w.chat_list.new_chat_button)
    assert w.conversation_list.count() == 2 and not w.conversation.turns
    empty = w.conversation
    click_row(w, 1)
    assert w.conversation.title == "first"
    press(w, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)  # the empty one, listed
    assert w.conversation_list.count() == 2 and w.conversation is empty
    assert w.conversation_list.currentRow() == 0  # on top, as a new chat would be


def test_esc_stops_the_answer_and_then_leaves_presentation_mode(make_window, qtbot):
    gate = StopGate(before=4)
    w = shown(make_window, qtbot, gate.engine)
    click(w.message_box)
    with qtbot.waitSignal(w.answer_finished, timeout=30_000) as done:
        type_text(w, "count")
        press(w, Qt.Key.Key_Return)
        qtbot.waitUntil(gate.waiting.is_set, timeout=10_000)
        press(w, Qt.Key.Key_Escape)
    assert done.args[0].answer.stop_reason == "cancelled"
    assert done.args[0].answer.n_steps == 4

    press(w, Qt.Key.Key_F5)
    presentation = w.teaching.presentation
    assert presentation.enabled
    gate.waiting.clear()
    click(w.message_box)
    with qtbot.waitSignal(w.answer_finished, timeout=30_000) as done:
        type_text(w, "again")
        press(w, Qt.Key.Key_Return)
        qtbot.waitUntil(gate.waiting.is_set, timeout=10_000)
        press(w, Qt.Key.Key_Escape)  # the answer first: the stage stays
        assert presentation.enabled
    assert done.args[0].answer.stop_reason == "cancelled"
    press(w, Qt.Key.Key_Escape)  # nothing is being written: Esc leaves presentation mode
    assert not presentation.enabled


def open_editor(w) -> MessageEditBox:
    user = next(e for e in w.transcript.entries() if isinstance(e, UserMessageWidget))
    edit = next(b for b in user.findChildren(QToolButton) if b.text() == "Edit")
    click(edit)
    editor = user.findChild(MessageEditBox, "editor")
    assert editor is not None and QApplication.focusWidget() is editor
    return editor


def test_the_edit_box_keys_like_the_message_box_and_fits_its_text(make_window, qtbot):
    engine = ScriptedEngine(counting_stream(2))
    w = shown(make_window, qtbot, engine)
    ask(w, qtbot, "count")
    editor = open_editor(w)
    line = editor.fontMetrics().lineSpacing()
    one_line = editor.height()
    assert one_line < 2 * line + 24  # one line of text, its padding and frame: not ~190 px
    press(w, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert editor.toPlainText() == "count\n"
    assert abs(editor.height() - one_line - line) <= 2  # a line more, one line taller
    for _ in range(3 * EDIT_MAX_LINES):
        press(w, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert editor.height() <= one_line + EDIT_MAX_LINES * line  # capped; it scrolls beyond
    assert len(engine.requests) == 1

    press(w, Qt.Key.Key_Escape)  # cancels: the message as it was, nothing sent
    qtbot.waitUntil(lambda: not w.findChildren(MessageEditBox))  # the editor is gone
    assert len(engine.requests) == 1 and w.conversation.turns[0].text == "count"
    assert QApplication.focusWidget() is w.message_box

    editor = open_editor(w)
    editor.selectAll()
    type_text(w, "two")
    with qtbot.waitSignal(w.answer_finished, timeout=10_000):
        press(w, Qt.Key.Key_Return)  # Enter sends the new version
    assert engine.requests[-1].messages[-1].content == "two"

    editor = open_editor(w)
    type_text(w, " more")
    with qtbot.waitSignal(w.answer_finished, timeout=10_000):
        press(w, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)  # so does Ctrl+Enter
    assert engine.requests[-1].messages[-1].content == "two more"
    assert len(engine.requests) == 3


def answered(make_window, qtbot, steps: int = 30):
    """A shown window with one finished counting answer of a draft model (one to race), and
    that answer's widget."""
    w = shown(make_window, qtbot, ScriptedEngine(
        counting_stream(steps, k=4, reject_at=lambda s: s % 5)))
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_draft("/models/fake-draft.gguf")
    assert w.panel.set_spec_type("draft")
    return w, ask(w, qtbot, "count")


def open_tool(w, qtbot, widget, index: int, kind: type) -> QWidget:
    """Choose one of the answer's Teach menu entries; the window it opens, active."""
    widget.teach_button.menu().actions()[index].trigger()
    tool = next(t for t in w.teaching.tool_windows if isinstance(t, kind))
    activate(qtbot, tool)
    return tool


def test_the_replay_answers_the_arrows_pages_home_end_and_space(make_window, qtbot):
    w, widget = answered(make_window, qtbot)
    replay = open_tool(w, qtbot, widget, 0, ReplayWindow)
    script = replay.script
    assert len(script.steps) > 2 * JUMP_STEPS
    click(replay.next_button)  # the focus on a button, which would take the keys itself
    assert replay.frame == 1
    press(replay, Qt.Key.Key_Right)
    assert replay.frame == 2
    press(replay, Qt.Key.Key_Left)
    press(replay, Qt.Key.Key_Left)
    assert replay.frame == 0
    press(replay, Qt.Key.Key_PageDown)
    assert replay.frame == script.frame_of_step(JUMP_STEPS)
    press(replay, Qt.Key.Key_PageDown)
    assert replay.frame == script.frame_of_step(2 * JUMP_STEPS)
    press(replay, Qt.Key.Key_PageUp)
    assert replay.frame == script.frame_of_step(JUMP_STEPS)
    press(replay, Qt.Key.Key_End)
    assert replay.frame == len(script) - 1
    press(replay, Qt.Key.Key_PageDown)
    assert replay.frame == len(script) - 1
    press(replay, Qt.Key.Key_Home)
    assert replay.frame == 0
    press(replay, Qt.Key.Key_Space)
    assert replay.play_button.isChecked() and replay.timer.isActive()
    press(replay, Qt.Key.Key_Space)
    assert not replay.play_button.isChecked() and not replay.timer.isActive()
    assert replay.frame == 0  # Space did not press the focused Next button


@pytest.mark.parametrize("tool", ["replay", "race", "charts", "about"])
def test_every_window_closes_with_esc(make_window, qtbot, tool):
    w, widget = answered(make_window, qtbot, steps=3)
    if tool == "about":
        w.help_menu.about_action.trigger()
        window: QWidget = w.help_menu.dialog
        assert isinstance(window, AboutDialog)
        activate(qtbot, window)
    else:
        index, kind = {"replay": (0, ReplayWindow), "race": (1, RaceWindow),
                       "charts": (2, ChartsWindow)}[tool]
        window = open_tool(w, qtbot, widget, index, kind)
    with qtbot.waitSignal(window.destroyed, timeout=5000):  # closed, and deleted on close
        press(window, Qt.Key.Key_Escape)
    assert not w.teaching.tool_windows or tool == "about"


def test_the_rename_field_is_whole(make_window, qtbot):
    w = shown(make_window, qtbot)
    ask(w, qtbot, "name me")
    click_row(w, 0)
    press(w, Qt.Key.Key_F2)  # the focus went to the message box; F2 still renames the chat
    view = w.conversation_list
    [editor] = [e for e in view.viewport().findChildren(QLineEdit) if e.isVisible()]
    assert editor.text() == "name me"
    assert editor.height() >= editor.sizeHint().height()  # its frame, padding and text
    assert view.viewport().rect().contains(editor.geometry())
    editor.selectAll()
    type_text(w, "cats")
    press(w, Qt.Key.Key_Return)
    assert w.conversation.title == "cats"


def grab(widget: QWidget) -> QImage:
    return widget.grab().toImage()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_keyboard_focus_is_seen_on_the_chat_list_and_send(make_window, qtbot, themed,
                                                               theme):
    themed(theme)
    chrome = current_chrome()
    for background in (chrome.canvas, chrome.surface, chrome.raised):  # WCAG non-text 3:1
        assert contrast(chrome.focus, background) >= 3, background
    w = shown(make_window, qtbot)
    ask(w, qtbot, "seen")
    click(w.chat_list.new_chat_button)
    w.message_box.setPlainText("draft")
    for widget in (w.send_button, w.conversation_list):
        w.message_box.setFocus()
        unfocused = grab(widget)
        for _ in range(100):  # Tab on, as a person does, until it reaches the widget
            if QApplication.focusWidget() is widget:
                break
            press(w, Qt.Key.Key_Tab)
        assert QApplication.focusWidget() is widget
        assert grab(widget) != unfocused, "no focus ring to be seen"


def test_the_inspector_closes_with_esc_docked_or_floating(make_window, qtbot):
    w, widget = answered(make_window, qtbot, steps=3)
    dock = w.teaching.inspector_dock
    for floating in (False, True):
        rect = widget.token_view.token_rect(0)
        click(widget.token_view.viewport(), rect.center())  # pins the inspector
        qtbot.waitUntil(dock.isVisible)
        dock.setFloating(floating)
        if floating:
            activate(qtbot, dock)
        dock.widget().setFocus()
        press(dock if floating else w, Qt.Key.Key_Escape)
        qtbot.waitUntil(lambda: not dock.isVisible())
