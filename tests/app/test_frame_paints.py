"""Each frame of a streaming answer is painted once, with what moves beside it, and what it
leaves on screen is what a fresh paint draws.

A frame appends text, which grows the answer's card and scrolls the transcript to the end.
Where the layout that follows was left to the event loop, the window painted in between: the
token view alone, then everything again once the cards had moved: twice the painting, a fifth
of the GUI thread's time on a stream of 500 plain steps a second. Counted as work, not time:
paint events of the token view against the frames of the stream, and the paint passes the
context line takes.
"""

from __future__ import annotations

from event_count import EventCount
from PySide6.QtCore import QEvent, QObject
from scripted_engine import ScriptedEngine, counting_stream

N_STEPS = 240  # ~1,000 tokens: many frames, far more text than the view shows


def stream_in(w, qtbot):
    """A window showing the counting model, about to be sent a message."""
    w.resize(1000, 640)
    w.show()
    qtbot.waitExposed(w)
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_target("/models/fake-target.gguf")


def test_a_streaming_frame_is_painted_once(make_window, qtbot, monkeypatch):
    from app.transcript.message_widgets import AnswerWidget

    engine = ScriptedEngine(counting_stream(N_STEPS, k=4, reject_at=lambda s: s % 5),
                            step_delay_s=0.004)
    w = make_window(engine)
    stream_in(w, qtbot)
    counter = EventCount(QEvent.Type.Paint)
    frames = []
    render = AnswerWidget.render_pending

    def counted(self, max_tokens=None):
        viewport = self.token_view.viewport()
        if counter.parent() is not viewport:  # the streaming answer's first frame
            counter.setParent(viewport)
            viewport.installEventFilter(counter)
        drawn = render(self, max_tokens)
        frames.append(drawn)
        return drawn

    monkeypatch.setattr(AnswerWidget, "render_pending", counted)
    with qtbot.waitSignal(w.transcript.answer_rendered, timeout=60_000) as done:
        assert w.send("count")
    # what follows the stream (its buttons, the advisor's line) is no frame's
    done.args[0].token_view.viewport().removeEventFilter(counter)
    n_frames = len(frames)
    assert done.args[0].answer.n_steps == N_STEPS
    assert w.transcript.verticalScrollBar().maximum() > 0  # the transcript followed the end
    assert sum(1 for n in frames if n) >= 10, frames
    # a few paints outside the frames (the event loop's own, on a busy machine), never two a
    # frame: painted twice, a stream of 45 frames took 90
    assert 0 < counter.count <= n_frames * 5 // 4 + 2, (counter.count, n_frames)


class Passes(QObject):
    """The widgets each paint pass of a window paints: a pass begins with the window's
    UpdateRequest, and paints whichever of the watched widgets it reaches."""

    def __init__(self, window, **watched) -> None:
        super().__init__()
        self.names = {}
        self.passes: list[set[str]] = []
        window.installEventFilter(self)
        for name, widget in watched.items():
            self.watch(name, widget)

    def watch(self, name: str, widget) -> None:
        if widget not in self.names:
            self.names[widget] = name
            widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.UpdateRequest:
            self.passes.append(set())
        elif event.type() == QEvent.Type.Paint and self.passes and watched in self.names:
            self.passes[-1].add(self.names[watched])
        return False


def test_the_context_line_moves_in_the_frames_paint_pass(make_window, qtbot, monkeypatch):
    """The context line ("Context: about 812 of 4,096 tokens") changes as the answer's numbers
    do, inside a frame: on a timer of its own it took a paint pass of its own four times a
    second, each a millisecond or more of the GUI thread, which a model whose threads hold
    every core waits for."""
    from app.transcript.message_widgets import AnswerWidget

    engine = ScriptedEngine(counting_stream(N_STEPS, k=4, reject_at=lambda s: s % 5),
                            step_delay_s=0.006)
    w = make_window(engine)
    stream_in(w, qtbot)
    passes = Passes(w, context=w.chat_actions.context_label)
    lines = []
    render = AnswerWidget.render_pending

    def watched(self, max_tokens=None):
        passes.watch("text", self.token_view.viewport())
        return render(self, max_tokens)

    monkeypatch.setattr(AnswerWidget, "render_pending", watched)
    label = w.chat_actions.context_label
    with qtbot.waitSignal(w.transcript.answer_rendered, timeout=60_000):
        assert w.send("count")
        while w.generating:
            lines.append(label.text())
            qtbot.wait(20)
    # from the first frame's pass on (sending the message moved the line before any frame)
    first = next(i for i, p in enumerate(passes.passes) if "text" in p)
    streamed = passes.passes[first:]
    assert len(set(lines)) >= 3, lines  # it moved while the answer streamed (~1.5 s)
    painted = [p for p in streamed if "context" in p]
    assert painted
    # the context line painted with the frame's text, not alone (one spare: a pass may fall
    # between frames when the machine stalls longer than a frame)
    alone = [p for p in painted if "text" not in p]
    assert len(alone) <= 1, (len(alone), len(painted))


def test_the_window_shows_what_a_fresh_paint_draws_after_streaming(make_window, qtbot):
    """The transcript's canvas is opaque, so following the answer moves its pixels and paints
    only what the move exposes: what stays on screen (the window's backing store) must be what
    painting the whole window afresh gives, with nothing left behind by a move."""
    from PySide6.QtGui import QImage

    engine = ScriptedEngine(counting_stream(N_STEPS, k=4, reject_at=lambda s: s % 5),
                            step_delay_s=0.002)
    w = make_window(engine)
    stream_in(w, qtbot)
    with qtbot.waitSignal(w.transcript.answer_rendered, timeout=60_000):
        assert w.send("count")
    assert w.transcript.verticalScrollBar().maximum() > 0  # it scrolled
    qtbot.wait(50)  # the last frame's paint
    fmt = QImage.Format.Format_RGB32
    on_screen = w.screen().grabWindow(w.winId()).toImage().convertToFormat(fmt)
    fresh = w.grab().toImage().convertToFormat(fmt)
    assert on_screen.size() == fresh.size()
    assert on_screen == fresh
