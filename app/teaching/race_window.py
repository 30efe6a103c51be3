"""The race: the same request answered plainly, then with a spec type, one after the other on
this machine's engine, then replayed side by side at the speeds measured (app/teaching/race.py).

The runs go through the window's EngineClient (the worker thread: the GUI never waits) and
their events are taken here by request id, so they never reach the transcript or the store.
Each frame of the replay draws only the tokens that appeared since the last one.
"""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import QT_TRANSLATE_NOOP, QElapsedTimer, Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.backend_text import failure_text
from app.i18n import translate
from app.teaching.race import (
    REPLAY_NOTE,
    Timeline,
    load_note,
    progress,
    side_label,
    timeline,
    verdict,
)
from app.transcript.answer import Answer
from app.transcript.token_view import TokenView
from backend import spec_types
from backend.engine.events import GenerationFailed, GenerationFinished
from backend.engine.request import GenerationRequest

FRAME_MS = 30
# Replay speeds: 1× is the measured time; slower ones let a room follow the tokens.
SPEEDS = ((1.0, QT_TRANSLATE_NOOP("RaceWindow", "1× (as measured)")), (0.5, "½×"),
          (0.25, "¼×"), (0.1, "⅒×"))


class RaceWindow(QDialog):
    def __init__(self, client, request: GenerationRequest, model_name: str = "",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Race: plain decoding against speculative decoding"))
        self.resize(1100, 600)
        self._client = client
        self._model_name = model_name
        plain = dataclasses.replace(request, spec_type=spec_types.PLAIN, request_id=0)
        self._queue = [plain, dataclasses.replace(request, request_id=0)]
        self.answers: list[Answer] = []
        self._running: tuple[int, Answer] | None = None
        self.timelines: list[Timeline] = []
        self._drawn = [0, 0]
        self._clock = QElapsedTimer()

        note = translate("Race", REPLAY_NOTE)
        if not request.sampling.greedy:
            note += " " + self.tr("Sampled at temperature {temperature:g}: the two texts may "
                                  "differ, each drawn from the target's own distribution.").format(
                temperature=request.sampling.temperature)
        self.note = QLabel(note)
        self.note.setWordWrap(True)
        self.note.setObjectName("raceNote")
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setObjectName("raceStatus")
        font = self.status.font()
        font.setPointSizeF(font.pointSizeF() * 1.4)
        font.setBold(True)
        self.status.setFont(font)
        grid = QGridLayout()
        self.titles: list[QLabel] = []
        self.views: list[TokenView] = []
        self.clocks: list[QLabel] = []
        for col in range(2):
            title = QLabel()
            title.setTextFormat(Qt.TextFormat.PlainText)
            title.setObjectName("raceTitle")
            bold = title.font()
            bold.setBold(True)
            bold.setPointSizeF(bold.pointSizeF() * 1.15)
            title.setFont(bold)
            view = TokenView()
            page = QWidget()
            page_layout = QVBoxLayout(page)
            page_layout.addWidget(view)
            page_layout.addStretch(1)
            scroll = QScrollArea()
            scroll.setWidgetResizable(True)
            scroll.setWidget(page)
            clock = QLabel()
            clock.setObjectName("raceClock")
            grid.addWidget(title, 0, col)
            grid.addWidget(scroll, 1, col)
            grid.addWidget(clock, 2, col)
            self.titles.append(title)
            self.views.append(view)
            self.clocks.append(clock)
        grid.setRowStretch(1, 1)
        # How the machine's load moved between the runs, when it did (race.load_note)
        self.load_label = QLabel()
        self.load_label.setTextFormat(Qt.TextFormat.PlainText)
        self.load_label.setWordWrap(True)
        self.load_label.setObjectName("raceLoad")
        self.load_label.hide()
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.clicked.connect(self.cancel)
        self.again_button = QPushButton(self.tr("Replay again"))
        self.again_button.setEnabled(False)
        self.speed = QComboBox()
        for factor, label in SPEEDS:
            self.speed.addItem(self.tr(label), factor)
        controls = QHBoxLayout()
        controls.addWidget(self.cancel_button)
        controls.addWidget(self.again_button)
        controls.addWidget(QLabel(self.tr("Speed:")))
        controls.addWidget(self.speed)
        controls.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.status)
        layout.addWidget(self.note)
        layout.addWidget(self.load_label)
        layout.addLayout(grid, 1)
        layout.addLayout(controls)

        self.timer = QTimer(self, interval=FRAME_MS)
        self.timer.timeout.connect(self._on_frame)
        self.again_button.clicked.connect(self.replay)
        self.speed.currentIndexChanged.connect(self.replay)
        client.events_emitted.connect(self._on_events)

    # Running -----------------------------------------------------------------------------

    def start(self) -> None:
        self._next_run()

    def _next_run(self) -> None:
        if not self._queue:
            self.replay()
            return
        request = self._queue.pop(0)
        answer = Answer(model_name=self._model_name, spec_type=request.spec_type,
                        n_draft_max=request.n_draft_max)
        self._running = (self._client.generate(request), answer)
        self.status.setText(progress(answer, len(self.answers) + 1))

    def _on_events(self, request_id: int, events: list) -> None:
        if self._running is None or self._running[0] != request_id:
            return
        answer = self._running[1]
        for event in events:
            answer.add(event)
        last = events[-1]
        if isinstance(last, GenerationFailed):
            self._running = None
            self._queue.clear()
            self.cancel_button.hide()
            self.status.setText(self.tr("The race could not run: {error}").format(
                error=failure_text(last)))
        elif isinstance(last, GenerationFinished):
            self._running = None
            if last.stop_reason == "cancelled":
                self._stopped()
                return
            self.answers.append(answer)
            self._next_run()
        else:
            self.status.setText(progress(answer, len(self.answers) + 1))

    def cancel(self) -> None:
        """Stop measuring: the run under way ends, the other is not started."""
        self._queue.clear()
        if self._running is not None:
            self._client.stop()  # its "cancelled" ending says the rest
        else:
            self._stopped()

    def _stopped(self) -> None:
        self._queue.clear()
        self.cancel_button.hide()
        self.status.setText(self.tr("The race was stopped before it finished."))

    def stop(self) -> None:
        if self._running is not None:
            self._client.stop()
        self.timer.stop()

    def done(self, result: int) -> None:  # closing the dialog stops its runs
        self.stop()
        super().done(result)

    # Replaying ---------------------------------------------------------------------------

    def replay(self) -> None:
        if len(self.answers) < 2:
            return
        self.cancel_button.hide()
        note = load_note(*self.answers)
        self.load_label.setText(note)
        self.load_label.setVisible(bool(note))
        self.timelines = [timeline(a) for a in self.answers]
        for col, answer in enumerate(self.answers):
            self.titles[col].setText(side_label(answer))
            self.views[col].clear_tokens()
            self._drawn[col] = 0
        self.status.setText(self.tr("Replaying the measured timings…"))
        self._clock.start()
        self.again_button.setEnabled(True)
        self.timer.start()
        self._on_frame()

    @property
    def factor(self) -> float:
        return float(self.speed.currentData())

    def _on_frame(self) -> None:
        self.advance_to(self._clock.elapsed() * self.factor)

    def advance_to(self, t: float) -> None:
        """The replay at t ms of measured time; past both ends, the verdict."""
        self.show_time(t)
        if t >= max(tl.total_ms for tl in self.timelines):
            self.timer.stop()
            self.status.setText(verdict(*self.answers))

    def show_time(self, t_ms: float) -> None:
        """Draw both sides as they stood t_ms into their runs (only what is new)."""
        for col, (answer, tl) in enumerate(zip(self.answers, self.timelines, strict=True)):
            n = tl.drawn_at(t_ms)
            if n > self._drawn[col]:
                self.views[col].append_tokens(answer.tokens, self._drawn[col], n)
                self._drawn[col] = n
            done = t_ms >= tl.total_ms
            shown = tl.total_ms if done else t_ms
            self.clocks[col].setText(f"{shown / 1000:.2f} s"
                                     + (self.tr("  · finished") if done else ""))
