"""A first story on the demo pair reads as a story: the default sampling stops the 135M model's
greedy loop while keeping the answer greedy (so lossless token for token), and an answer that
does loop says why Regenerate would write it again."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from scripted_engine import ScriptedEngine

from app.engine_link.worker import default_engine_factory
from backend.engine.events import (
    GenerationFinished,
    GenerationStarted,
    PromptProcessed,
    Stats,
    StepVerified,
    Token,
)
from backend.repetition import repeats_itself

STORY = "Write a short story about a fox who finds a lost key."
LOAD_MS = 120_000
ANSWER_MS = 180_000


def shown(w, qtbot):
    w.show()
    w.activateWindow()
    qtbot.waitActive(w)
    return w


def type_and_send(w, qtbot, text: str):
    qtbot.keyClicks(w.message_box, text)
    with qtbot.waitSignal(w.answer_finished, timeout=ANSWER_MS) as done:
        QTest.keyClick(w.windowHandle(), Qt.Key.Key_Return)
    return done.args[0]


def test_the_demo_tells_a_story_greedily_without_looping(make_window, qtbot):
    w = shown(make_window(engine_factory=default_engine_factory, persist=False), qtbot)
    with qtbot.waitSignal(w.models_changed, timeout=LOAD_MS):
        w.open_demo()
    qtbot.waitUntil(lambda: not w.loading and w.draft is not None, timeout=LOAD_MS)
    assert w.panel.temperature.value() == 0.0  # greedy: the lossless demonstration
    assert w.panel.repeat_penalty.value() > 1.0
    widget = type_and_send(w, qtbot, STORY)
    answer = widget.answer
    assert answer.error is None
    assert not repeats_itself(answer.text), answer.text[-400:]
    assert widget.loop_label.isHidden()


def looping_answer(request) -> list:
    """The demo model's loop at repeat penalty 1, as its steps arrive: one sentence again and
    again until the token limit."""
    sentence = " The fox had been a curious and adventurous creature."
    events: list = [GenerationStarted(1, "none", 0, 5), PromptProcessed(5, 0, 2.0)]
    for s in range(40):
        token = Token(s, sentence, "target", True, p_target=0.9)
        events.append(StepVerified(s, (), 0, (token,), 0.0, 1.0))
    stats = Stats(n_prompt=5, n_generated=40, n_steps=40, prompt_ms=2.0, generation_ms=40.0,
                  verify_ms=40.0, ttft_ms=3.0)
    events.append(GenerationFinished("length", sentence * 40, stats))
    return events


def test_an_answer_that_loops_says_what_to_change(make_window, qtbot):
    w = shown(make_window(ScriptedEngine(looping_answer)), qtbot)
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_target("/models/fake-target.gguf")
    widget = type_and_send(w, qtbot, STORY)
    assert widget.loop_label.isVisibleTo(widget)
    assert "Repeat penalty" in widget.loop_label.text()
    assert "Temperature" in widget.loop_label.text()
    assert widget.chart.isHidden()  # a plain answer drafted nothing: no chart of its drafts
