"""The main window's handle on the model manager: made on first use (it builds three tabs and
a download manager), told the main window's context size and models, and closed with it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtWidgets import QWidget

from app.engine_link.engine_runtime import engine_process_factory
from backend.models.memory import Memory, system_memory
from backend.settings import Settings

if TYPE_CHECKING:
    from app.models.model_controls import ModelControls
    from backend.models.hub import HubModel


class ModelManagerLauncher(QObject):
    use_as_target = Signal(str)
    use_as_draft = Signal(str)
    use_spec = Signal(str, int)  # "Use this" in Find a draft: spec type and K, after any draft
    folders_changed = Signal()  # settings.models.library_folders changed: save the settings

    def __init__(self, parent: QWidget, settings: Settings,
                 runtime: Callable[[], tuple[int, str, str]]) -> None:
        super().__init__(parent)
        self._parent = parent
        self._settings = settings
        self._runtime = runtime  # () -> (context size, target path, draft path)
        self.window = None  # the model manager, while it is open

    @Slot()
    def open(self) -> None:
        """Show the model manager; its "Use as target/draft" open models like File → Open."""
        if self.window is None:
            from app.models.manager_window import ModelManagerWindow

            settings = self._settings
            w = ModelManagerWindow(extra_folders=settings.models.library_folders,
                                   memory_source=self.memory,
                                   engine_factory=engine_process_factory(settings),
                                   n_threads=lambda: settings.models.n_threads or None,
                                   parent=self._parent)
            w.use_as_target.connect(self.use_as_target)
            w.use_as_draft.connect(self.use_as_draft)
            w.use_spec.connect(self.use_spec)
            w.folders_changed.connect(self._on_folders_changed)
            w.closed.connect(self._on_closed)
            self.window = w
        self.update()
        self.window.show()
        self.window.raise_()
        self.window.activateWindow()

    def serve(self, controls: ModelControls) -> None:
        """The manager's "Use as target/draft" and "Use this" load through `controls`, as File →
        Open does; a Hub draft the side panel's finder picked is downloaded here."""
        self.use_as_target.connect(controls.open_target)
        self.use_as_draft.connect(controls.open_draft)
        self.use_spec.connect(lambda spec, k: controls.use_candidate(spec, "", k))
        controls.download_requested.connect(self.download)

    @Slot(object)
    def download(self, model: HubModel) -> None:
        """Open the manager and queue `model` on its Downloads tab."""
        self.open()
        assert self.window is not None
        self.window.download(model)

    @Slot()
    def update(self) -> None:
        if self.window is not None:
            self.window.set_runtime(*self._runtime())

    def memory(self) -> Memory:
        """This machine's memory for the fit estimates, under the GPU layers setting as it is
        when they are made (called from the manager's worker threads: it only reads)."""
        return system_memory(self._settings.models.gpu_layers)

    def close(self) -> None:
        if self.window is not None:
            self.window.close()  # pauses its downloads, stops its threads

    @Slot(list)
    def _on_folders_changed(self, folders: list) -> None:
        self._settings.models.library_folders = list(folders)
        self.folders_changed.emit()

    @Slot()
    def _on_closed(self) -> None:
        if self.window is not None:
            self.window.deleteLater()
            self.window = None
