"""A setting declared in one place (tests/added_setting.py registers it in the schema) is met
in the window with no other change: its input in the side panel, the request the engine is
sent, the answer's "Made with" line and record, "Use these settings", the exported trace and
the chat's JSON export read back."""

from __future__ import annotations

import json

import added_setting
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QToolButton
from scripted_engine import ScriptedEngine, counting_stream

from backend.chats.export import export_json, read_chat
from backend.traces import read_trace

TARGET = "/models/fake-target.gguf"


@pytest.fixture
def setting():
    with added_setting.registered() as option:
        yield option


def test_a_registered_setting_reaches_every_place_an_answer_goes(setting, make_window, qtbot,
                                                                 tmp_path):
    engine = ScriptedEngine(counting_stream(2))
    w = make_window(engine)
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_target(TARGET)
    panel = w.panel
    [field] = [f for label, f in _rows(panel) if label == setting.label]  # in the panel
    field.setValue(8)
    assert panel.generation_settings().repeat_last_n == 8
    with qtbot.waitSignal(w.answer_finished, timeout=10_000) as blocker:
        assert w.send("count")
    widget = blocker.args[0]
    assert engine.requests[-1].sampling.repeat_last_n == 8  # the request
    [turn] = [t for t in w.conversation.turns if t.answer is widget.answer]
    assert turn.settings["repeat_last_n"] == 8  # the answer's record
    made_with = [lab.text() for lab in widget.findChildren(QLabel)
                 if lab.text().startswith("Made with")]
    assert made_with and "Repeat window 8" in made_with[0], made_with

    field.setValue(16)  # the panel moves on; the answer keeps its own
    path = tmp_path / "answer.json"
    with qtbot.waitSignal(w.exports.exporter.exported, timeout=10_000):
        w.exports.export_answer(widget, str(path))
    assert read_trace(str(path)).request.sampling.repeat_last_n == 8  # the trace
    [use] = [b for b in widget.findChildren(QToolButton) if b.text() == "Use these settings"]
    qtbot.mouseClick(use, Qt.MouseButton.LeftButton)
    assert field.value() == 8  # "Use these settings"

    assert w.chats.flush()
    doc = export_json(w.chats.store, w.conversation.chat_id)  # the chat's JSON export
    again = read_chat(json.loads(json.dumps(doc)))  # what an import reads
    assert [m.settings.repeat_last_n for m in again.messages if m.role == "assistant"] == [8]


def _rows(panel):
    """(label text, field) of every row of the panel's forms."""
    from PySide6.QtWidgets import QFormLayout

    for form in panel.findChildren(QFormLayout):
        for row in range(form.rowCount()):
            label = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
            field = form.itemAt(row, QFormLayout.ItemRole.FieldRole)
            if label is not None and field is not None and label.widget() is not None:
                yield label.widget().text(), field.widget()
