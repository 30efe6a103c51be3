"""The Downloads tab: one row per download with its progress, speed and time left, pause,
resume and cancel, and the error in words when one fails."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.backend_text import reason_text
from app.formatting import duration, human_size, plain_tooltip
from app.shell.theme import token_colours
from app.transcript.message_widgets import plain_label
from backend.models.download import DownloadStatus, State

PROGRESS_STEPS = 1000


class DownloadRow(QFrame):
    pause_clicked = Signal(int)
    resume_clicked = Signal(int)
    cancel_clicked = Signal(int)
    remove_clicked = Signal(int)

    def __init__(self, status: DownloadStatus, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.job_id = status.job_id
        self.status = status
        self.setObjectName("downloadRow")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        model = status.model
        self.title = plain_label(model.name)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.title.setToolTip(plain_tooltip("\n".join(p.path for p in model.parts)))
        self.repo = plain_label(f"{model.repo_id} · {model.quantization}")
        self.bar = QProgressBar()
        self.bar.setRange(0, PROGRESS_STEPS)
        self.bar.setTextVisible(True)
        self.detail = plain_label(selectable=True)
        self.pause_button = QPushButton(self.tr("Pause"))
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.remove_button = QPushButton(self.tr("Remove from list"))

        buttons = QHBoxLayout()
        buttons.addWidget(self.detail, 1)
        for b in (self.pause_button, self.cancel_button, self.remove_button):
            buttons.addWidget(b)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.addWidget(self.title)
        layout.addWidget(self.repo)
        layout.addWidget(self.bar)
        layout.addLayout(buttons)

        self.pause_button.clicked.connect(self._on_pause_or_resume)
        self.cancel_button.clicked.connect(lambda: self.cancel_clicked.emit(self.job_id))
        self.remove_button.clicked.connect(lambda: self.remove_clicked.emit(self.job_id))
        self.update_status(status)

    def update_status(self, status: DownloadStatus) -> None:
        self.status = status
        state = status.state
        total = status.total or status.model.size
        self.bar.setValue(int(PROGRESS_STEPS * status.done / total) if total else 0)
        self.bar.setFormat(f"{100 * status.done / total:.0f} %" if total else "")
        sizes = self.tr("{done} of {total}").format(done=human_size(status.done),
                                                    total=human_size(total))
        if state == State.RUNNING:
            speed = (f"{human_size(status.speed)}/s" if status.speed > 0
                     else self.tr("starting"))
            text = f"{sizes} · {speed} · {duration(status.eta)}"
        elif state == State.QUEUED:
            text = self.tr("Waiting for the download before it to finish · {sizes}").format(
                sizes=sizes)
        elif state == State.PAUSED:
            text = self.tr("Paused at {sizes}. Resume continues from there.").format(sizes=sizes)
        elif state == State.DONE:
            text = self.tr("Done: {size}, checked against the Hub's SHA-256, in the "
                           "library.").format(size=human_size(total))
        elif state == State.FAILED:
            text = self.tr("Failed: {error}").format(error=reason_text(status.error))
        else:
            text = self.tr("Cancelled; the partial file was deleted.")
        self.detail.setText(text)
        failed = state == State.FAILED
        colour = token_colours(self).rejected_fg if failed else ""
        self.detail.setStyleSheet(f"color: {colour};" if colour else "")
        self.bar.setVisible(state not in (State.FAILED, State.CANCELLED))
        self.pause_button.setText(self.tr("Pause") if state in (State.QUEUED, State.RUNNING) else
                                  self.tr("Retry") if failed else self.tr("Resume"))
        self.pause_button.setVisible(state not in (State.DONE, State.CANCELLED))
        self.cancel_button.setVisible(state in (State.QUEUED, State.RUNNING, State.PAUSED))
        self.remove_button.setVisible(state in (State.DONE, State.CANCELLED, State.FAILED))

    def _on_pause_or_resume(self) -> None:
        if self.status.state in (State.QUEUED, State.RUNNING):
            self.pause_clicked.emit(self.job_id)
        else:
            self.resume_clicked.emit(self.job_id)


class DownloadsTab(QWidget):
    pause_requested = Signal(int)
    resume_requested = Signal(int)
    cancel_requested = Signal(int)
    count_changed = Signal(int)  # downloads queued or running

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: dict[int, DownloadRow] = {}
        self.note = plain_label(
            self.tr("Downloads run one at a time, in order. Closing the model manager pauses them; "
                    "downloading the same file again continues from the bytes already on disk."))
        self.empty = plain_label(self.tr("No downloads yet. Choose a file on the Search tab and "
                                         "press Download."))
        self.error = plain_label(selectable=True)
        self.error.setStyleSheet(f"color: {token_colours(self).rejected_fg};")
        self.error.hide()
        inner = QWidget()
        self._list = QVBoxLayout(inner)
        self._list.setContentsMargins(0, 0, 0, 0)
        self._list.addWidget(self.empty)
        self._list.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(inner)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.error)
        layout.addWidget(scroll, 1)

    def update_status(self, status: DownloadStatus) -> None:
        row = self.rows.get(status.job_id)
        if row is None:
            if status.state == State.CANCELLED:
                return
            row = DownloadRow(status)
            row.pause_clicked.connect(self.pause_requested)
            row.resume_clicked.connect(self.resume_requested)
            row.cancel_clicked.connect(self.cancel_requested)
            row.remove_clicked.connect(self._remove)
            self.rows[status.job_id] = row
            self._list.insertWidget(self._list.count() - 1, row)
            self.empty.hide()
            self.error.hide()
        else:
            row.update_status(status)
        self.count_changed.emit(self.active_count())

    def show_error(self, message: str) -> None:
        """A download that could not even be queued (a bad file name, a closed queue)."""
        self.error.setText(message)
        self.error.show()

    def active_count(self) -> int:
        return sum(r.status.state in (State.QUEUED, State.RUNNING) for r in self.rows.values())

    def _remove(self, job_id: int) -> None:
        row = self.rows.pop(job_id, None)
        if row is not None:
            row.deleteLater()
        self.empty.setVisible(not self.rows)
