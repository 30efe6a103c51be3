"""Exporting an answer from the window: the events rebuilt from the Answer equal the engine's,
the HTML page shows the live answer's tokens, the JSON trace opens as the live answer was
drawn, and the PNG is the widget. The export method is called with a path (no dialog)."""

from __future__ import annotations

from dataclasses import replace
from html.parser import HTMLParser

import pytest
from doc_reading import kind_runs
from PySide6.QtGui import QImage
from scripted_engine import ScriptedEngine, counting_stream

from app.chat.trace_opening import answer_from_events
from app.transcript.answer import Answer
from app.transcript.answer_events import answer_events, answer_steps
from app.transcript.answer_export import HTML, JSON, PNG, export_filter, export_format
from backend.engine.events import (
    GenerationFailed,
    GenerationFinished,
    GenerationStarted,
    PromptProcessed,
    StepVerified,
)
from backend.engine.request import Message
from backend.traces import read_trace

TARGET = "/models/fake-target.gguf"
PROMPT = "count to twenty"


def live_widget(make_window, qtbot, script):
    window = make_window(ScriptedEngine(script))
    with qtbot.waitSignal(window.models_changed, timeout=5000):
        window.open_target(TARGET)
    with qtbot.waitSignal(window.answer_finished, timeout=10_000) as blocker:
        assert window.send(PROMPT)
    return window, blocker.args[0]


def export(window, qtbot, widget, path, selected_filter=""):
    with qtbot.waitSignal(window.exports.exporter.exported, timeout=10_000) as blocker:
        window.exports.export_answer(widget, str(path), selected_filter)
    return blocker.args[0]


def token_kinds(answer: Answer) -> list[tuple[str, str]]:
    log = answer.tokens
    return [("target" if log.origin[i] == "target" else
             "accepted" if log.accepted[i] else "rejected", log.text[i])
            for i in range(len(log))]


class _Spans(HTMLParser):
    """(class, text) of each token span in the page's answer."""

    def __init__(self) -> None:
        super().__init__()
        self.spans: list[tuple[str, str]] = []
        self._in_answer = False
        self._open: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "div" and a.get("class") == "answer":
            self._in_answer = True
        elif tag == "span" and self._in_answer:
            self._open = a.get("class")
            self.spans.append((self._open, ""))

    def handle_endtag(self, tag):
        if tag == "span":
            self._open = None
        elif tag == "div":
            self._in_answer = False

    def handle_data(self, data):
        if self._open is not None:
            kind, text = self.spans[-1]
            self.spans[-1] = (kind, text + data)


SCRIPTS = {
    "draft": lambda: counting_stream(15, k=4, reject_at=lambda s: s % 5),
    "mtp": lambda: counting_stream(7, k=3, spec_type="mtp", origin="mtp",
                                   reject_at=lambda s: s % 4),
    "plain": lambda: counting_stream(6, k=0, spec_type="none"),
}


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_the_rebuilt_events_equal_the_scripted_ones(make_window, qtbot, name):
    script = SCRIPTS[name]()
    _, widget = live_widget(make_window, qtbot, script)
    answer = widget.answer
    scripted = [e for e in script if isinstance(e, StepVerified)]
    rebuilt = list(answer_steps(answer))
    assert len(rebuilt) == len(scripted) == answer.n_steps
    for mine, theirs in zip(rebuilt, scripted, strict=True):
        assert mine.step == theirs.step
        assert mine.n_accepted == theirs.n_accepted
        for got, want in ((mine.drafted, theirs.drafted), (mine.emitted, theirs.emitted)):
            assert [(t.id, t.text, t.origin, t.accepted, t.p_target, t.p_draft, t.head)
                    for t in got] == [(t.id, t.text, t.origin, t.accepted, t.p_target,
                                       t.p_draft, t.head) for t in want]
        assert (mine.draft_ms, mine.verify_ms) == (theirs.draft_ms, theirs.verify_ms)
    assert rebuilt == scripted  # every field, times included

    events = answer_events(answer)
    started, prompt, *_, finished = events
    assert isinstance(started, GenerationStarted) and isinstance(prompt, PromptProcessed)
    assert (started.spec_type, started.n_draft_max, started.n_prompt_tokens) == (
        script[0].spec_type, script[0].n_draft_max, script[0].n_prompt_tokens)
    assert prompt == script[1]
    assert finished == script[-1]  # stop reason, text and stats
    # Folded again as the window folds a stream, the rebuilt events give the same answer.
    again = answer_from_events(events)
    assert token_kinds(again) == token_kinds(answer)
    assert again.accepted_lengths == answer.accepted_lengths
    assert again.drafted_lengths == answer.drafted_lengths


def test_a_failed_answer_ends_its_events_with_the_failure():
    script = counting_stream(3)
    answer = answer_from_events([*script[:-1], GenerationFailed("The engine stopped.", "x")])
    events = answer_events(answer)
    assert events[-1] == GenerationFailed("The engine stopped.", "x")
    assert [e for e in events if isinstance(e, StepVerified)] == [
        e for e in script if isinstance(e, StepVerified)]
    with pytest.raises(ValueError, match="still being written"):
        answer_events(answer_from_events(script[:-1]))


def test_exported_html_shows_the_live_tokens_in_order(make_window, qtbot, tmp_path):
    window, widget = live_widget(make_window, qtbot, SCRIPTS["draft"]())
    assert widget.export_button.isVisibleTo(widget)
    path = export(window, qtbot, widget, tmp_path / "answer", "HTML page (*.html *.htm)")
    assert path.endswith("answer.html")
    parser = _Spans()
    with open(path, encoding="utf-8") as page:
        parser.feed(page.read())
    live = token_kinds(widget.answer)
    assert parser.spans == live
    assert {k for k, _ in live} == {"accepted", "rejected", "target"}
    assert window.statusBar().currentMessage() == f"Exported to {path}"


def test_the_exported_trace_opens_as_the_live_answer(make_window, qtbot, tmp_path):
    script = SCRIPTS["draft"]()
    window, widget = live_widget(make_window, qtbot, script)
    path = export(window, qtbot, widget, tmp_path / "answer.json")
    trace = read_trace(path)
    assert trace.request.messages == (Message("user", PROMPT),)
    assert (trace.request.spec_type, trace.request.n_draft_max) == ("draft", 4)
    assert trace.target_model == "fake-target.gguf"
    assert [e for e in trace.events if isinstance(e, StepVerified)] == [
        e for e in script if isinstance(e, StepVerified)]
    assert isinstance(trace.events[-1], GenerationFinished)

    other = make_window(ScriptedEngine(script), persist=False)
    with qtbot.waitSignal(other.chat_list.selected, timeout=5000):
        other.open_trace(path)
    (replayed,) = other.answer_widgets()
    assert kind_runs(replayed.token_view.document()) == kind_runs(widget.token_view.document())
    assert replayed.stats_label.text() == widget.stats_label.text()
    assert other.conversation.title == PROMPT


def test_the_exported_png_is_the_widget(make_window, qtbot, tmp_path):
    window, widget = live_widget(make_window, qtbot, SCRIPTS["draft"]())
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: widget.advice is not None, timeout=5000)
    qtbot.wait(50)  # the advisor's line laid out before the grab
    size = widget.size() * widget.devicePixelRatio()  # grabbed as it is when asked
    path = export(window, qtbot, widget, tmp_path / "answer.png")
    image = QImage(path)
    assert not image.isNull()
    assert image.size() == size and size.height() > 50
    with open(path, "rb") as png:
        assert png.read(8) == b"\x89PNG\r\n\x1a\n"


def test_an_answer_read_back_from_the_chat_store_exports_its_steps(make_window, qtbot,
                                                                   tmp_path):
    script = SCRIPTS["draft"]()
    first, _ = live_widget(make_window, qtbot, script)
    first.close()  # its chat store written
    window = make_window(ScriptedEngine(script))
    with qtbot.waitSignal(window.chats.loaded, timeout=10_000):  # read off the GUI thread
        window.conversation_list.setCurrentRow(1)  # under a fresh "New chat"
    (stored,) = window.answer_widgets()
    assert stored.answer.draft_ms == []  # the store keeps no step times
    trace = read_trace(export(window, qtbot, stored, tmp_path / "stored.json"))
    assert trace.request.messages == (Message("user", PROMPT),)
    steps = [e for e in trace.events if isinstance(e, StepVerified)]
    assert steps == [replace(e, draft_ms=0.0, verify_ms=0.0)
                     for e in script if isinstance(e, StepVerified)]
    assert trace.events[-1] == script[-1]


def test_a_write_that_fails_is_a_banner(make_window, qtbot, tmp_path):
    window, widget = live_widget(make_window, qtbot, SCRIPTS["draft"]())
    with qtbot.waitSignal(window.exports.exporter.failed, timeout=10_000):
        window.exports.export_answer(widget, str(tmp_path / "no such folder" / "a.json"))
    assert window.banner.text().startswith("Cannot write a.json")


def test_the_format_comes_from_the_extension_else_the_filter():
    filters = export_filter().split(";;")
    assert export_format("/x/a.PNG", filters[0]) == (PNG, "/x/a.PNG")
    assert export_format("/x/a.htm") == (HTML, "/x/a.htm")
    assert export_format("/x/a", filters[2]) == (JSON, "/x/a.json")
    assert export_format("/x/a", filters[1]) == (PNG, "/x/a.png")
    assert export_format("/x/a") == (HTML, "/x/a.html")


def test_an_answer_exported_after_the_panel_changed_carries_its_own_settings(
        make_window, qtbot, tmp_path):
    window = make_window(ScriptedEngine(SCRIPTS["draft"]()))
    with qtbot.waitSignal(window.models_changed, timeout=5000):
        window.open_target(TARGET)
    panel = window.panel
    panel.temperature.setValue(0.0)
    panel.top_k.setValue(17)
    panel.max_tokens.setValue(321)
    with qtbot.waitSignal(window.answer_finished, timeout=10_000) as blocker:
        assert window.send(PROMPT)
    widget = blocker.args[0]
    panel.temperature.setValue(1.3)  # changed after the answer was written
    panel.top_k.setValue(55)
    panel.max_tokens.setValue(99)
    trace = read_trace(export(window, qtbot, widget, tmp_path / "answer.json"))
    s = trace.request.sampling
    assert (s.temperature, s.top_k, trace.request.max_tokens) == (0.0, 17, 321)
