"""The side panel's "Which draft?": the Find a draft view in a window of its own, for the
loaded target, over the library folders and the remembered model files, measured in an engine
process of the settings' kernels, GPU layers and threads. Closing it stops the search and a
measurement without waiting for them (each ends at its next step, its answer dropped).
"""

from __future__ import annotations

from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QVBoxLayout, QWidget

from app.background import Background
from app.engine_link.engine_runtime import engine_process_factory
from app.models.find_draft import FinderTarget, settings_models
from app.models.find_draft_view import FindDraftView
from app.widgets.own_window import OwnWindow
from backend.models.hub import HubClient
from backend.settings import Settings


class FindDraftWindow(OwnWindow):
    def __init__(self, settings: Settings, client: HubClient | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Which draft? — Draftlight"))
        self.resize(1000, 520)
        self.tasks = Background(self, name="draft finder")
        self.view = FindDraftView(
            self.tasks, client or HubClient(), lambda: settings_models(settings),
            engine_factory=engine_process_factory(settings),
            n_threads=lambda: settings.models.n_threads or None)
        layout = QVBoxLayout(self)
        layout.addWidget(self.view)

    def show_target(self, target_path: str, *, hub: bool = True) -> None:
        self.view.show_target(FinderTarget(path=target_path), hub=hub)
        self.show()
        self.raise_()
        self.activateWindow()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.view.close_down()
        super().closeEvent(event)
