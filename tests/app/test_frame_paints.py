"""Each frame of a streaming answer is painted once.

A frame appends text, which grows the answer's card and scrolls the transcript to the end.
Where the layout that follows was left to the event loop, the window painted in between: the
token view alone, then everything again once the cards had moved: twice the painting, a fifth
of the GUI thread's time on a stream of 500 plain steps a second. Counted as work, not time:
paint events of the token view against the frames of the stream.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from scripted_engine import ScriptedEngine, counting_stream

N_STEPS = 240  # ~1,000 tokens: many frames, far more text than the view shows


class PaintCounter(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.paints = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.paints += 1
        return False


def test_a_streaming_frame_is_painted_once(make_window, qtbot, monkeypatch):
    from app.transcript.message_widgets import AnswerWidget

    engine = ScriptedEngine(counting_stream(N_STEPS, k=4, reject_at=lambda s: s % 5),
                            step_delay_s=0.004)
    w = make_window(engine)
    w.resize(1000, 640)
    w.show()
    qtbot.waitExposed(w)
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_target("/models/fake-target.gguf")
    counter = PaintCounter()
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
    assert 0 < counter.paints <= n_frames * 5 // 4 + 2, (counter.paints, n_frames)
