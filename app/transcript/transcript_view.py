"""The conversation as a scrolling column of message widgets, and the per-frame renderer that
keeps up with a fast token stream.

Incoming events only update the streaming Answer (cheap Python); a ~60 Hz timer then renders
what arrived, inside one edit block, leaving the rest for the next tick. Most of a frame's cost
is the document layout that runs when the edit block ends (about 10x the insertion itself), so
the number of tokens per frame is sized from the measured cost of whole frames, keeping each
near FRAME_BUDGET_S however fast tokens arrive; the window handles input between frames.
Where llama.cpp's threads hold every core (the answer's GenerationStarted says so) the timer
ticks at 10 Hz: each frame then takes its time from the model, whose lock-stepped threads all
wait for the one the window interrupts.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QSize, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import QScrollArea, QVBoxLayout, QWidget

from app.background import Background
from app.shell.style import SPACE_M
from app.teaching.answer_advice import answer_advice, wants_advice
from app.transcript.answer import Answer
from app.transcript.message_widgets import AnswerWidget, ErrorWidget, UserMessageWidget
from backend.advisor import Advice
from backend.engine.events import Event, GenerationStarted
from backend.engine.frame_pace import frame_s

# A batch that arrives this far into a frame is drawn at once rather than on a timer a few ms
# later: the engine sends once a frame (frame_pace.py), so waiting would wake this thread twice.
EARLY_FRAME = 0.75
FRAME_BUDGET_S = 0.010
MAX_TOKENS_PER_FRAME = 20_000
NUMBERS_INTERVAL_S = 0.25  # live numbers and chart: readable, and cheaper than every frame
# Layout requests travel one level a delivery (token view's card, the canvas, the scroll area's
# viewport): this many deliveries reach the scroll area, one to spare.
LAYOUT_LEVELS = 4

class TranscriptView(QScrollArea):
    answer_rendered = Signal(object)  # the AnswerWidget whose finished answer is fully drawn
    use_k = Signal(int)  # an answer's advisor line asked for this draft length
    check_lossless = Signal(object)  # the AnswerWidget whose "Check lossless" was clicked
    export_requested = Signal(object)  # the AnswerWidget whose "Export…" was clicked
    inspect = Signal(object, int)  # an AnswerWidget and the TokenLog index of a clicked token
    teach = Signal(object, str)  # an AnswerWidget and a tool from its "Teach" menu
    entries_changed = Signal()  # a message added or removed, or all cleared (app/chat/welcome.py)
    # The streaming answer's numbers were redrawn (a few times a second, inside a frame): what
    # else moves with them (the context line) changes now, laid out and painted in the same
    # pass as the frame's text rather than in a pass of its own.
    numbers_shown = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._container = QWidget()
        self._container.setObjectName("transcript")  # the canvas the cards lie on (style.py)
        # Opaque (its palette's brush under the style sheet's canvas): following a streaming
        # answer scrolls the canvas, and Qt moves an opaque widget's pixels and paints what
        # the move exposes, where a see-through one had the window, splitter and scroll area
        # behind it painted again as well: half the pixels a streaming frame paints.
        self._container.setAutoFillBackground(True)
        self._layout = QVBoxLayout(self._container)
        self._layout.setContentsMargins(SPACE_M, SPACE_M, SPACE_M, SPACE_M)
        self._layout.setSpacing(SPACE_M)
        self._layout.addStretch(1)
        self.setWidget(self._container)
        self._content_width = 0  # the messages' narrowest width, as last told to the layout

        self._streaming: AnswerWidget | None = None
        # The advisor walks every step of an answer: off the GUI thread, so a long answer's
        # end does not stall the window.
        self._advisor = Background(self, name="advisor")
        self._token_cost_s = 0.0001  # running estimate of one token's full rendering cost
        self._last_frame = 0.0
        self._last_numbers = 0.0
        self._frame = QTimer(self)
        self._pace(spare_core=True)  # until an answer's start says otherwise
        self._frame.setTimerType(Qt.TimerType.PreciseTimer)
        self._frame.timeout.connect(self._on_frame)
        # Numbers left behind by a frame are redrawn once a whole frame goes by without one
        # (a model pausing mid-answer); while frames come, they redraw them.
        self._numbers_due = QTimer(self, singleShot=True)
        self._numbers_due.setTimerType(Qt.TimerType.PreciseTimer)
        self._numbers_due.timeout.connect(self._on_numbers_due)
        # Follow the end of the transcript while the user has not scrolled up.
        self._follow = True
        bar = self.verticalScrollBar()
        bar.rangeChanged.connect(self._on_range_changed)
        bar.valueChanged.connect(self._on_scrolled)

    # Reflowing ---------------------------------------------------------------------------

    def minimumSizeHint(self) -> QSize:
        """Never narrower than the messages can be: beside a pinned inspector the window takes
        the room from the dock and the side panels, and the messages reflow into what is
        left instead of being cut at the right edge (the horizontal scroll bar is off)."""
        hint = super().minimumSizeHint()
        width = (self._container.minimumSizeHint().width()
                 + self.verticalScrollBar().sizeHint().width() + 2 * self.frameWidth())
        return QSize(max(hint.width(), width), hint.height())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._container and event.type() == QEvent.Type.LayoutRequest:
            width = self._container.minimumSizeHint().width()
            if width != self._content_width:  # not on every streamed line: only a new width
                self._content_width = width
                self.updateGeometry()
        return super().eventFilter(watched, event)

    # Building ------------------------------------------------------------------------------

    def clear(self) -> None:
        self._stream_into(None)
        self._frame.stop()
        while self._layout.count() > 1:
            item = self._layout.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        self._follow = True
        self.entries_changed.emit()

    def _add(self, widget: QWidget) -> QWidget:
        self._layout.insertWidget(self._layout.count() - 1, widget)
        self.entries_changed.emit()
        return widget

    def add_user(self, text: str) -> UserMessageWidget:
        return self._add(UserMessageWidget(text))

    def add_error(self, message: str, detail: str = "") -> ErrorWidget:
        self._follow = True
        return self._add(ErrorWidget(message, detail))

    def add_answer(self, answer: Answer) -> AnswerWidget:
        """A finished (stored) answer: drawn at once."""
        widget = self._add_answer_widget(answer)
        widget.render_pending()
        widget.refresh()
        self._advise(widget)
        return widget

    def start_answer(self, answer: Answer) -> AnswerWidget:
        """The answer about to stream: events given to feed() go into it."""
        self._finish_streaming()
        self._follow = True
        widget = self._add_answer_widget(answer)
        self._stream_into(widget)
        return widget

    def resume_answer(self, widget: AnswerWidget) -> None:
        """A shown answer streams again (Continue): events given to feed() extend it."""
        self._finish_streaming()
        self._follow = True
        self._stream_into(widget)

    def _add_answer_widget(self, answer: Answer) -> AnswerWidget:
        widget = AnswerWidget(answer)
        widget.use_k.connect(self.use_k)
        widget.check_lossless.connect(self.check_lossless)
        widget.export_requested.connect(self.export_requested)
        widget.inspect.connect(self.inspect)
        widget.teach.connect(self.teach)
        self._add(widget)
        widget.recolour()  # in its window now: the window's colours (presentation mode)
        return widget

    def recolour(self) -> None:
        """Redraw every answer whose colours are not the window's (presentation mode turned
        on or off: style sheets stop the palette change from reaching them)."""
        for widget in self.answer_widgets():
            widget.recolour()

    def _advise(self, widget: AnswerWidget) -> None:
        """Compute the advisor's line for a finished answer, and show it if the answer is
        still in the transcript when it arrives."""
        if not wants_advice(widget.answer):
            return

        def show(advice: Advice) -> None:
            if widget in self.answer_widgets():  # not cleared or regenerated meanwhile
                widget.show_advice(advice)

        self._advisor.run(answer_advice, widget.answer, on_result=show)

    def remove_trailing(self, count: int) -> None:
        """Remove the last `count` entries (regenerating an answer)."""
        for _ in range(min(count, self._layout.count() - 1)):
            item = self._layout.takeAt(self._layout.count() - 2)
            if item.widget() is self._streaming:
                self._streaming = None
            item.widget().deleteLater()
        self.entries_changed.emit()

    def entries(self) -> list[QWidget]:
        return [self._layout.itemAt(i).widget() for i in range(self._layout.count() - 1)]

    def answer_widgets(self) -> list[AnswerWidget]:
        return [w for w in self.entries() if isinstance(w, AnswerWidget)]

    @property
    def streaming(self) -> AnswerWidget | None:
        return self._streaming

    # Streaming -----------------------------------------------------------------------------

    def feed(self, events: list[Event]) -> None:
        """Events of the streaming answer; drawn on the next frame, not now."""
        widget = self._streaming
        if widget is None:
            return
        add = widget.answer.add
        for event in events:
            add(event)
            if type(event) is GenerationStarted:
                self._pace(event.spare_core)
        if self._frame.isActive():
            return
        if time.perf_counter() - self._last_frame >= EARLY_FRAME * self._frame.interval() / 1000:
            # Most of a frame since the last: draw now rather than wake up again for a timer
            # (a real model's steps arrive tens of ms apart; each extra wake-up of this thread
            # takes a core from llama.cpp's compute threads).
            self._on_frame()
            if self._streaming is widget and widget.pending_tokens():
                self._frame.start()
        else:
            self._frame.start()

    def _pace(self, spare_core: bool) -> None:
        self._frame.setInterval(round(frame_s(spare_core) * 1000))

    @property
    def frame_interval_ms(self) -> int:
        """How often the streaming answer is drawn, at most."""
        return self._frame.interval()

    def flush(self) -> None:
        """Draw everything pending now (tests, screenshots)."""
        if self._streaming is not None:
            self._on_frame(unbounded=True)

    @Slot()
    def _on_frame(self, unbounded: bool = False) -> None:
        widget = self._streaming
        if widget is None:
            self._frame.stop()
            return
        start = self._last_frame = time.perf_counter()
        budget = None if unbounded else max(
            1, min(MAX_TOKENS_PER_FRAME, int(FRAME_BUDGET_S / self._token_cost_s)))
        drawn = widget.render_pending(budget)
        numbers = (unbounded or widget.answer.done
                   or start - self._last_numbers >= NUMBERS_INTERVAL_S)
        widget.refresh(numbers=numbers)
        if numbers:
            self._numbers_redrawn(start)  # before _settle: what moves with them is laid out now
        else:
            left = self._last_numbers + NUMBERS_INTERVAL_S - start
            self._numbers_due.start(max(0, round(1000 * left)) + self._frame.interval())
        if drawn or numbers:
            self._settle(widget)
        if drawn:
            cost = (time.perf_counter() - start) / drawn
            self._token_cost_s = 0.7 * self._token_cost_s + 0.3 * cost
        if widget.pending_tokens() == 0:
            self._frame.stop()
            if widget.answer.done:
                self._stream_into(None)
                self._advise(widget)
                self.answer_rendered.emit(widget)

    @Slot()
    def _on_numbers_due(self) -> None:
        widget = self._streaming
        if widget is None:
            return
        widget.refresh()
        self._numbers_redrawn(time.perf_counter())

    def _numbers_redrawn(self, at: float) -> None:
        """The streaming answer's numbers were redrawn at `at`: none are due until an interval
        later, and what moves with them follows."""
        self._last_numbers = at
        self._numbers_due.stop()
        self.numbers_shown.emit()

    @staticmethod
    def _settle(widget: AnswerWidget) -> None:
        """Lay out now what the frame's text moved: the text edit's own queued calls, then the
        layout requests they post up to the transcript, which grow the card and scroll to the
        end. Left to the event loop, the window painted between the two, so each frame was
        painted twice (the token view alone, then everything once the cards had moved): the
        GUI thread's 20 % of a core at 500 tok/s, against 15 % painted once."""
        QCoreApplication.sendPostedEvents(widget.token_view, 0)
        for _ in range(LAYOUT_LEVELS):
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)

    def _finish_streaming(self) -> None:
        self.flush()
        self._stream_into(None)

    def _stream_into(self, widget: AnswerWidget | None) -> None:
        """The answer that streams from now (None: none): its text keeps room to grow into
        while it does (auto_height_text.py), and fits exactly once it has ended."""
        if self._streaming is not None and self._streaming is not widget:
            self._streaming.token_view.keep_room(False)
        self._streaming = widget
        if widget is not None:
            widget.token_view.keep_room(True)

    # Following the end ---------------------------------------------------------------------

    @Slot(int, int)
    def _on_range_changed(self, _minimum: int, maximum: int) -> None:
        if self._follow:
            self.verticalScrollBar().setValue(maximum)

    @Slot(int)
    def _on_scrolled(self, value: int) -> None:
        self._follow = value >= self.verticalScrollBar().maximum() - 8
