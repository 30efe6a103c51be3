"""Opening a file that fails, as a person does it (Ctrl+O, a file chosen, Enter to ask again):
the model that answered goes on answering, the window names it, the lists hold only files
that opened, and the settings file still names it at the next start."""

from __future__ import annotations

import json

import pytest
from counting_window import LOAD_TIMEOUT_MS, open_counting_pair
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog

from app.engine_link.worker import default_engine_factory

ANSWER_TIMEOUT_MS = 60_000


def choose_in_open_dialog(monkeypatch, path) -> list[str]:
    """The system's file dialog answers `path`; the titles it was opened with are kept."""
    opened: list[str] = []

    def dialog(_parent, title, *_args, **_kwargs):
        opened.append(title)
        return str(path), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", dialog)
    return opened


def shown(w, qtbot):
    w.show()
    w.activateWindow()
    qtbot.waitActive(w)
    return w


def ctrl_o(w) -> None:
    """Ctrl+O on the keyboard, to the window (its shortcuts, then its focus widget)."""
    QTest.keyClick(w.windowHandle(), Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)


def ask(w, qtbot, text: str):
    """Type a question in the message box and press Enter, as a person does."""
    w.message_box.setFocus()
    qtbot.keyClicks(w.message_box, text)
    with qtbot.waitSignal(w.answer_finished, timeout=ANSWER_TIMEOUT_MS) as done:
        qtbot.keyClick(w.message_box, Qt.Key.Key_Return)
    return done.args[0].answer


def target_list(w) -> list[str]:
    combo = w.panel.target_combo
    return [combo.itemData(i) for i in range(combo.count()) if combo.itemData(i)]


@pytest.mark.parametrize("kind", ["half", "random"])
def test_a_broken_file_opened_with_ctrl_o_leaves_the_model_answering(
        make_window, qtbot, test_models, tmp_path, settings_path, monkeypatch, kind):
    whole = (test_models / "count-target.gguf").read_bytes()
    bad = tmp_path / f"broken-{kind}.gguf"
    bad.write_bytes(whole[: len(whole) // 2] if kind == "half" else bytes(range(7, 256)) * 999)
    w = shown(make_window(engine_factory=default_engine_factory), qtbot)
    open_counting_pair(w, qtbot, test_models)
    target, draft = w.target.path, w.draft.path
    title = w.windowTitle()
    assert ask(w, qtbot, "zero one").error is None

    opened = choose_in_open_dialog(monkeypatch, bad)
    with qtbot.waitSignal(w.load_failed, timeout=LOAD_TIMEOUT_MS) as failed:
        ctrl_o(w)
    assert opened, "Ctrl+O did not open the file dialog"
    assert failed.args[0] == "target" and bad.name in failed.args[1]
    qtbot.waitUntil(lambda: not w.loading, timeout=LOAD_TIMEOUT_MS)

    assert (w.target.path, w.draft.path) == (target, draft)
    assert w.windowTitle() == title
    assert str(bad) not in target_list(w)
    assert str(bad) not in w.settings.models.recent
    answer = ask(w, qtbot, "two three")
    assert answer.error is None and answer.text.strip()

    w.close()
    saved = json.loads(settings_path.read_text())
    assert saved["models"]["target"] == target
    assert saved["models"]["draft"] == draft


def test_open_is_greyed_while_an_answer_streams(make_window, qtbot, test_models, monkeypatch):
    w = shown(make_window(engine_factory=default_engine_factory, persist=False), qtbot)
    open_counting_pair(w, qtbot, test_models, max_tokens=400)
    w.panel.set_spec_type("none")
    opened = choose_in_open_dialog(monkeypatch, test_models / "count-draft.gguf")
    qtbot.keyClicks(w.message_box, "zero")
    with qtbot.waitSignal(w.answer_finished, timeout=ANSWER_TIMEOUT_MS) as done:
        qtbot.keyClick(w.message_box, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: w.generating, timeout=ANSWER_TIMEOUT_MS)
        assert not w.file_menu.open_action.isEnabled()
        ctrl_o(w)
        assert opened == []
        w.stop_button.click()
    assert done.args[0].answer.error is None
    assert w.target.path == str(test_models / "count-target.gguf")
    assert w.file_menu.open_action.isEnabled()
