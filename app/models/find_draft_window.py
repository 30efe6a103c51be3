"""The side panel's "Which draft?": the Find a draft view in a window of its own, for the
loaded target, over the library folders and the remembered model files. Closing it stops the
search without waiting for it (its thread ends at its next Hub request, its answer dropped).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QVBoxLayout, QWidget

from app.background import Background
from app.models.find_draft import FinderTarget, known_models
from app.models.find_draft_view import FindDraftView
from app.widgets.own_window import OwnWindow
from backend.models.hub import HubClient
from backend.models.inspection import ModelInspection
from backend.models.library import Library
from backend.settings import Settings


class FindDraftWindow(OwnWindow):
    def __init__(self, settings: Settings, client: HubClient | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Which draft? — Draftlight"))
        self.resize(1000, 520)
        self._settings = settings
        self.tasks = Background(self, name="draft finder")
        self.view = FindDraftView(self.tasks, client or HubClient(), self._library_models)
        layout = QVBoxLayout(self)
        layout.addWidget(self.view)

    def show_target(self, target_path: str) -> None:
        self.view.show_target(FinderTarget(path=target_path))
        self.show()
        self.raise_()
        self.activateWindow()

    def _library_models(self) -> list[ModelInspection]:
        """Called on a pool thread: the folders and files as the settings name them now."""
        m = self._settings.models
        library = Library(None, [Path(f) for f in m.library_folders])
        return known_models(library, [*m.recent, m.draft])

    def closeEvent(self, event: QCloseEvent) -> None:
        self.view.cancel()
        super().closeEvent(event)
