"""Files from elsewhere, opened as a person opens them: File → Open trace (and `--open`) on a
trace of a later answer, on a damaged trace, on a FIFO and on /dev/zero. Each is shown, or
refused in one sentence in the banner with nothing added to the chats."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from scripted_engine import ScriptedEngine, counting_stream

from backend.chats.store import ChatStore
from backend.engine.request import GenerationRequest
from backend.traces import Trace, write_trace

TARGET = "/models/fake-target.gguf"


def two_turn_window(make_window, qtbot):
    """A window whose chat has two questions, each answered (drafts rejected at times)."""
    window = make_window(ScriptedEngine(counting_stream(6, k=4, reject_at=lambda s: s % 3)))
    with qtbot.waitSignal(window.models_changed, timeout=5000):
        window.open_target(TARGET)
    for question in ("count to ten", "and on to twenty"):
        with qtbot.waitSignal(window.answer_finished, timeout=10_000):
            assert window.send(question)
    return window


def test_a_trace_of_a_second_answer_opens_whole_and_is_saved_whole(make_window, qtbot,
                                                                   tmp_path, chats_path):
    first = two_turn_window(make_window, qtbot)
    earlier, second = first.answer_widgets()
    path = tmp_path / "second.json"
    with qtbot.waitSignal(first.exports.exporter.exported, timeout=10_000):
        first.exports.export_answer(second, str(path))
    assert first.chats.flush()
    before = {c.id for c in first.chats.store.list()}

    other = make_window(ScriptedEngine(counting_stream(1)))
    with qtbot.waitSignal(other.chat_list.selected, timeout=5000):
        other.open_trace(str(path))
    assert other.chats.flush()
    qtbot.wait(50)  # a failed save says so in the banner, by a queued signal
    assert other.banner_row.isHidden(), other.banner.text()
    turns = other.conversation.turns
    assert [t.role for t in turns] == ["user", "assistant", "user", "assistant"]
    assert turns[1].answer.text == earlier.answer.text
    assert turns[3].answer.text == second.answer.text

    store = ChatStore(chats_path)
    try:
        (new,) = [c.id for c in store.list() if c.id not in before]
        saved = store.load(new, all_versions=True)
        assert [(m.role, m.text) for m in saved] == [
            ("user", "count to ten"), ("assistant", earlier.answer.text),
            ("user", "and on to twenty"), ("assistant", second.answer.text)]
        assert [m.parent_id for m in saved] == [None, *(m.id for m in saved[:-1])]
    finally:
        store.close()


def refused_in_banner(window, qtbot, signal, act) -> str:
    """Do `act`; the refusal comes as `signal` within seconds (never a hang) and is shown in
    the banner as one sentence."""
    with qtbot.waitSignal(signal, timeout=5000):
        act()
    assert not window.banner_row.isHidden()
    message = window.banner.text()
    assert message and "\n" not in message and "Traceback" not in message, message
    return message


def test_opening_a_pipe_or_a_device_as_a_trace_is_refused_at_once(make_window, qtbot,
                                                                  tmp_path):
    fifo = tmp_path / "answer.json"
    os.mkfifo(fifo)
    window = make_window(ScriptedEngine(counting_stream(1)), persist=False)
    n_chats = window.chat_list.count()
    for path in (fifo, "/dev/zero"):  # what `draftlight --open PATH` does
        message = refused_in_banner(window, qtbot, window.trace_opener.failed,
                                    lambda p=path: window.open_trace(str(p)))
        assert message == (f"Cannot read {Path(path).name}: it is not a file but a folder, "
                           "a pipe or a device.")
    assert window.chat_list.count() == n_chats and window.answer_widgets() == []


def hostile_trace(tmp_path, damage) -> Path:
    trace = Trace(GenerationRequest(prompt="count"), tuple(counting_stream(3)),
                  target_model="t.gguf")
    write_trace(tmp_path / "good.json", trace)
    d = json.loads((tmp_path / "good.json").read_text())
    damage(d)
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(d))
    return path


@pytest.mark.parametrize("damage, said", [
    (lambda d: d["events"][-1]["stats"].update(n_generated=10**400),
     "n_generated is a number of 401 digits"),
    (lambda d: d["events"][-1]["stats"].update(n_steps=[3]), "n_steps should be a whole number"),
    (lambda d: d["events"][2]["emitted"][0].update(id="1000"), "id should be a whole number"),
    (lambda d: d["events"][2]["drafted"][0].update(inspection="{not json"),
     "is not a record Draftlight wrote"),
    (lambda d: d["events"][2].update(draft_ms=float("-inf")), "is -inf, not a finite number"),
    (lambda d: d["events"][-1].update(text="something else"),
     "is not its tokens' texts put together"),
])
def test_a_hostile_trace_is_a_banner_and_nothing_else(make_window, qtbot, tmp_path, damage,
                                                     said):
    path = hostile_trace(tmp_path, damage)
    window = make_window(ScriptedEngine(counting_stream(1)), persist=False)
    n_chats = window.chat_list.count()
    message = refused_in_banner(window, qtbot, window.trace_opener.failed,
                                lambda: window.open_trace(str(path)))
    assert message.startswith("hostile.json: damaged: ") and said in message, message
    assert window.chat_list.count() == n_chats and window.answer_widgets() == []


def exported_chat(window, qtbot, tmp_path) -> dict:
    path = tmp_path / "chat.json"
    with qtbot.waitSignal(window.chat_list.info, timeout=5000):
        window.chat_list.export(window.conversation, str(path), "json")
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("damage, said", [
    (lambda m: m.update(stats=[1, 2, 3]), "stats is not an object"),
    (lambda m: m["stats"].update(n_generated="12"), "n_generated should be a whole number"),
    (lambda m: m["stats"].update(n_accepted=-1), "n_accepted is -1, less than 0"),
    (lambda m: m.update(settings=[0.7]), "settings is not an object"),
    (lambda m: m["tokens"].update(id=[str(i) for i in m["tokens"]["id"]]),
     "should be a whole number"),
    (lambda m: m["tokens"]["inspection"].__setitem__(0, "<html>"),
     "is not a record Draftlight wrote"),
    (lambda m: m.update(text=m["text"] + " (and more)"), "is not its tokens' texts"),
])
def test_a_hostile_chat_import_is_a_banner_and_nothing_else(make_window, qtbot, tmp_path,
                                                           chats_path, damage, said):
    window = two_turn_window(make_window, qtbot)
    doc = exported_chat(window, qtbot, tmp_path)
    damage(doc["messages"][1])
    path = tmp_path / "hostile chat.json"
    path.write_text(json.dumps(doc))
    assert window.chats.flush()
    before = [c.id for c in window.chats.store.list()]
    n_chats = window.chat_list.count()
    message = refused_in_banner(window, qtbot, window.chats.failed,
                                lambda: window.chat_list.import_chat(str(path)))
    assert message.startswith("Could not import the conversation: ") and said in message
    assert window.chat_list.count() == n_chats
    assert window.chats.flush() and [c.id for c in window.chats.store.list()] == before
