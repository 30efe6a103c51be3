"""Two small status widgets of the main window: the banner that says what went wrong, and the
status bar's model-load progress with its Cancel button."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QProgressBar,
    QPushButton,
    QStatusBar,
    QToolButton,
    QWidget,
)

from app.transcript.message_widgets import plain_label
from backend.engine.errors import NO_MODEL
from backend.engine.events import GenerationFailed

# What a banner's message is about, so that it goes once that works again: a model load (or
# having a model at all), or an answer. A message about neither stays until dismissed.
LOAD = "load"
ANSWER = "answer"
SAVE = "save"  # the chats could not be saved; over once every write went through


def failure_topics(failed: GenerationFailed) -> tuple[str, ...]:
    """What a failed answer's banner is about: the answer, and the model too when there was
    none to answer with (loading one fixes that as well)."""
    no_model = failed.message == NO_MODEL or (
        failed.words is not None and failed.words.template == NO_MODEL)
    return (ANSWER, LOAD) if no_model else (ANSWER,)


class Banner(QWidget):
    """A dismissable line above the transcript, for problems the person should read. Plain
    text only: messages quote file names and model output. A message may say what it is
    about (LOAD, ANSWER): `clear(topic)` takes it away once that works again."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("bannerRow")
        self._topics: frozenset[str] = frozenset()
        self.label = plain_label(selectable=True)
        self.label.setObjectName("banner")
        close = QToolButton(text="✕")
        close.setToolTip(self.tr("Dismiss"))
        close.clicked.connect(self.hide)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 4, 4, 4)
        row.addWidget(self.label, 1)
        row.addWidget(close, 0, Qt.AlignmentFlag.AlignTop)
        self.setStyleSheet("#bannerRow { background: palette(alternate-base); "
                           "border: 1px solid #D55E00; border-radius: 4px; }")
        self.hide()

    def show_message(self, message: str, *topics: str) -> None:
        self.label.setText(message)
        self._topics = frozenset(topics)
        self.show()

    def clear(self, topic: str) -> None:
        """Hide the message if it is about `topic` (what failed works again)."""
        if topic in self._topics:
            self._topics = frozenset()
            self.hide()


class LoadProgress(QWidget):
    """What is loading, how far, and Cancel, in the status bar while a model loads."""

    cancel_clicked = Signal()

    def __init__(self, status_bar: QStatusBar) -> None:
        super().__init__(status_bar)
        self.label = plain_label()
        self.bar = QProgressBar()
        self.bar.setRange(0, 1000)
        self.bar.setMaximumWidth(220)
        self.cancel = QPushButton(self.tr("Cancel"))
        self.cancel.setToolTip(self.tr("Stop loading this model"))
        self.cancel.clicked.connect(self.cancel_clicked)
        for w in (self.label, self.bar, self.cancel):
            status_bar.addPermanentWidget(w)
            w.hide()

    def start(self, words: str) -> None:
        self.label.setText(words)
        self.bar.setValue(0)
        for w in (self.label, self.bar, self.cancel):
            w.show()

    def set_fraction(self, fraction: float) -> None:
        self.bar.setValue(int(fraction * 1000))

    def finish(self) -> None:
        for w in (self.label, self.bar, self.cancel):
            w.hide()
