"""Why K auto kept an answer plain is said under it (adaptive_k.DID_NOT_PAY), in the window's
language, and carried by the answer's trace."""

from __future__ import annotations

from dataclasses import replace

from scripted_engine import ScriptedEngine, counting_stream

from app.transcript.answer_events import answer_events
from backend.engine.adaptive_k import DID_NOT_PAY
from backend.engine.events import GenerationFinished
from backend.words import words

TARGET = "/models/fake-target.gguf"
NOTE = words(DID_NOT_PAY, rate=41.0, k=3, plain=52.0, every=64)


def test_the_reason_for_plain_decoding_is_shown_under_the_answer(make_window, qtbot):
    script = [replace(e, note=NOTE) if isinstance(e, GenerationFinished) else e
              for e in counting_stream(12, k=0, spec_type="draft")]
    w = make_window(ScriptedEngine(script))
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_target(TARGET)
    with qtbot.waitSignal(w.answer_finished, timeout=10_000) as done:
        assert w.send("count")
    widget = done.args[0]
    assert not widget.plain_note.isHidden()
    assert widget.plain_note.text() == (
        "Drafting did not pay here: K auto expected 41 tokens/s drafting 3 a step against 52 "
        "decoding plainly, so it decoded plainly, and tried a draft again at least every 64 "
        "steps.")
    # the trace an export writes keeps it
    finished = answer_events(widget.answer)[-1]
    assert isinstance(finished, GenerationFinished) and finished.note == NOTE


def test_an_answer_that_drafted_says_nothing_of_the_kind(make_window, qtbot):
    w = make_window(ScriptedEngine(counting_stream(12, k=4)))
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_target(TARGET)
    with qtbot.waitSignal(w.answer_finished, timeout=10_000) as done:
        assert w.send("count")
    assert done.args[0].plain_note.isHidden()
