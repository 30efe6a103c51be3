"""The download queue as Qt sees it: the backend's DownloadManager, whose updates arrive on
its worker thread and are forwarded to the GUI thread by a queued signal."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal, Slot

from backend.models.download import DownloadManager, DownloadStatus, State
from backend.models.hub import HubClient, HubModel


class Downloads(QObject):
    updated = Signal(object)  # DownloadStatus, on the GUI thread
    completed = Signal(object)  # DownloadStatus of a job that just reached DONE
    _arrived = Signal(object)  # emitted on the download thread

    def __init__(self, client: HubClient, models_dir: Path, parent: QObject | None = None):
        super().__init__(parent)
        self._arrived.connect(self._on_arrived, Qt.ConnectionType.QueuedConnection)
        self.manager = DownloadManager(client, models_dir, on_update=self._arrived.emit)
        self._closed = False
        self._latest: dict[int, int] = {}  # job id -> highest status seq delivered

    def enqueue(self, model: HubModel) -> int:
        return self.manager.enqueue(model)

    def pause(self, job_id: int) -> None:
        self.manager.pause(job_id)

    def resume(self, job_id: int) -> None:
        self.manager.resume(job_id)

    def cancel(self, job_id: int) -> None:
        self.manager.cancel(job_id)

    def close(self, timeout_s: float = 10.0) -> None:
        """Pause what runs (its partial file stays, to continue next time) and join the
        download thread."""
        if not self._closed:
            self._closed = True
            self.manager.close(timeout_s)

    @Slot(object)
    def _on_arrived(self, status: DownloadStatus) -> None:
        if self._closed:
            return
        # statuses are emitted from two threads, so an older one can arrive after a newer
        # one (a QUEUED after the FAILED of a download refused at once): drop it
        if status.seq <= self._latest.get(status.job_id, 0):
            return
        self._latest[status.job_id] = status.seq
        self.updated.emit(status)
        if status.state == State.DONE:
            self.completed.emit(status)
