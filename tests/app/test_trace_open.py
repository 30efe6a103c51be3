"""Opening a trace: a recorded answer, opened in another window, is drawn as the live stream
drew it (token kinds, stats line, chart), marked as a replay and never sent to the engine; a
damaged file is a banner, nothing else."""

from __future__ import annotations

import json
from dataclasses import replace

from doc_reading import kind_runs
from scripted_engine import ScriptedEngine, counting_stream

from app.chat.trace_opening import REPLAY_MARK
from app.shell.main import build_parser
from backend.engine.events import GenerationStarted
from backend.traces import Trace, write_trace

TARGET = "/models/fake-target.gguf"


def live_answer(make_window, qtbot, script, text="count to twenty"):
    engine = ScriptedEngine(script)
    window = make_window(engine)
    with qtbot.waitSignal(window.models_changed, timeout=5000):
        window.open_target(TARGET)
    with qtbot.waitSignal(window.answer_finished, timeout=10_000) as blocker:
        assert window.send(text)
    request = engine.requests[0]
    # What the engine streamed: the script, with the request's id in GenerationStarted.
    events = tuple(replace(e, request_id=request.request_id)
                   if isinstance(e, GenerationStarted) else e for e in script)
    return blocker.args[0], Trace(request, events, target_model="fake-target.gguf")


def open_in(window, qtbot, path):
    with qtbot.waitSignal(window.chat_list.selected, timeout=5000):
        window.open_trace(str(path))


def test_an_opened_trace_is_drawn_as_the_live_answer_was(make_window, qtbot, tmp_path,
                                                         chats_path):
    script = counting_stream(15, k=4, reject_at=lambda s: s % 5)
    live, trace = live_answer(make_window, qtbot, script)
    path = tmp_path / "answer.json"
    write_trace(path, trace)

    engine = ScriptedEngine(script)
    other = make_window(engine, persist=False)
    n_chats = other.chat_list.count()
    open_in(other, qtbot, path)

    assert other.chat_list.count() == n_chats + 1
    assert other.conversation.title == "count to twenty"
    assert other.conversation_list.currentItem().text() == "count to twenty"
    (replayed,) = other.answer_widgets()
    assert kind_runs(replayed.token_view.document()) == kind_runs(live.token_view.document())
    assert replayed.stats_label.text() == live.stats_label.text()
    assert replayed.answer.accepted_lengths == live.answer.accepted_lengths
    assert replayed.answer.drafted_lengths == live.answer.drafted_lengths
    assert replayed.answer.text == live.answer.text
    assert not replayed.chart.isHidden() and not live.chart.isHidden()
    assert {k for k, _ in kind_runs(live.token_view.document())} == {
        "accepted", "rejected", "target"}
    assert REPLAY_MARK in replayed.title.text() and REPLAY_MARK not in live.title.text()
    assert "fake-target.gguf" in replayed.title.text()
    assert engine.requests == [] and engine.load_calls == []  # never sent, nothing loaded
    assert other.banner_row.isHidden()


def test_a_damaged_trace_is_a_banner_and_nothing_else(make_window, qtbot, tmp_path):
    script = counting_stream(6)
    _, trace = live_answer(make_window, qtbot, script)
    good = tmp_path / "good.json"
    write_trace(good, trace)
    data = json.loads(good.read_text())
    data["events"].pop()  # cut short: no GenerationFinished
    bad = tmp_path / "cut.json"
    bad.write_text(json.dumps(data))

    other = make_window(ScriptedEngine(script), persist=False)
    n_chats, title = other.chat_list.count(), other.conversation.title
    with qtbot.waitSignal(other.trace_opener.failed, timeout=5000):
        other.open_trace(str(bad))
    assert not other.banner_row.isHidden()
    message = other.banner.text()
    assert message.startswith("cut.json") and "cut short" in message and "\n" not in message
    assert other.chat_list.count() == n_chats and other.conversation.title == title
    assert other.answer_widgets() == []

    with qtbot.waitSignal(other.trace_opener.failed, timeout=5000):
        other.open_trace(str(tmp_path / "nope.json"))
    assert other.banner.text().startswith("Cannot read nope.json")
    assert other.chat_list.count() == n_chats


def test_a_prompt_trace_without_messages_is_titled_by_its_prompt(make_window, qtbot, tmp_path):
    from backend.engine.request import GenerationRequest

    script = counting_stream(3)
    trace = Trace(GenerationRequest(prompt=" zero one"), tuple(script), target_model="t.gguf")
    write_trace(tmp_path / "p.json", trace)
    window = make_window(ScriptedEngine(script), persist=False)
    open_in(window, qtbot, tmp_path / "p.json")
    assert window.conversation.title == "zero one"
    assert [t.role for t in window.conversation.turns] == ["user", "assistant"]


def test_open_is_a_command_line_option():
    args = build_parser().parse_args(["--open", "answer.json"])
    assert str(args.open_trace) == "answer.json"
