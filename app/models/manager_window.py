"""The model manager window: Search, Downloads, Library and Find a draft tabs over the
backend's Hub client, download queue and library. It loads no model itself: "Use as
target/draft" are signals the main window connects to its own model-open path, and so is the
draft finder's "Use this" (with `use_spec` for the spec type it speculates with)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from pathlib import Path

from PySide6.QtCore import Signal, Slot
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QTabWidget, QVBoxLayout, QWidget

from app.backend_text import error_text
from app.background import Background
from app.models.downloads import Downloads
from app.models.downloads_tab import DownloadsTab
from app.models.find_draft import FinderTarget
from app.models.find_draft_view import FindDraftView
from app.models.library_tab import LibraryTab
from app.models.runtime import RuntimeChoice, measure_draft
from app.models.search_tab import SearchTab
from app.widgets.own_window import OwnWindow
from backend.models.download import DownloadStatus
from backend.models.hub import HubClient, HubModel
from backend.models.library import Library
from backend.models.memory import Memory, system_memory
from backend.models.pair_run import EngineFactory, process_engine

log = logging.getLogger(__name__)

SEARCH_TAB, DOWNLOADS_TAB, LIBRARY_TAB, FINDER_TAB = range(4)
STOP_TIMEOUT_MS = 10_000


class ModelManagerWindow(OwnWindow):
    use_as_target = Signal(str)  # a library model's path
    use_as_draft = Signal(str)
    use_spec = Signal(str, int)  # the draft finder's "Use this": spec type, K (-1: keep)
    folders_changed = Signal(list)  # extra library folders (str), to remember in the settings
    closed = Signal()  # every thread of the window has stopped

    def __init__(
        self,
        *,
        extra_folders: Iterable[str | Path] = (),
        models_dir: Path | None = None,
        client: HubClient | None = None,
        memory_source: Callable[[], Memory] = system_memory,
        engine_factory: EngineFactory = process_engine,
        n_threads: Callable[[], int | None] = lambda: None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Models — Draftlight"))
        self.resize(1100, 720)
        self.library = Library(models_dir, [Path(f) for f in extra_folders])
        self.client = client or HubClient()
        self.tasks = Background(self, name="model manager")
        self.downloads = Downloads(self.client, self.library.models_dir, self)
        self._runtime = RuntimeChoice()
        self._closed = False

        self.search_tab = SearchTab(self.client, self.tasks, self.library.models_dir,
                                    memory_source)
        self.downloads_tab = DownloadsTab()
        self.library_tab = LibraryTab(self.library, self.tasks)
        self.finder = FindDraftView(self.tasks, self.client, self.library.models,
                                    engine_factory=engine_factory, n_threads=n_threads)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.search_tab, self.tr("Search"))
        self.tabs.addTab(self.downloads_tab, self.tr("Downloads"))
        self.tabs.addTab(self.library_tab, self.tr("Library"))
        self.tabs.addTab(self.finder, self.tr("Find a draft"))
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)

        self.search_tab.download_requested.connect(self.download)
        self.downloads.updated.connect(self.downloads_tab.update_status)
        self.downloads.completed.connect(self._on_download_completed)
        self.downloads_tab.pause_requested.connect(self.downloads.pause)
        self.downloads_tab.resume_requested.connect(self.downloads.resume)
        self.downloads_tab.cancel_requested.connect(self._on_cancel_requested)
        self.downloads_tab.count_changed.connect(self._on_download_count)
        self.library_tab.use_as_target.connect(self.use_as_target)
        self.library_tab.use_as_draft.connect(self.use_as_draft)
        self.library_tab.folders_changed.connect(self.folders_changed)
        self.library_tab.pairing.search_family.connect(self.search_for)
        self.library_tab.pairing.find_draft.connect(
            lambda path: self.find_draft(FinderTarget(path=path)))
        self.search_tab.find_draft.connect(
            lambda repo, file: self.find_draft(FinderTarget(repo_id=repo, file=file)))
        self.finder.use_requested.connect(self._on_use_candidate)
        self.finder.download_requested.connect(self.download)
        self.library_tab.refresh()
        # Opened to search: the typing goes to the search field.
        self.search_tab.query.setFocus()

    def set_runtime(self, n_ctx: int, target: str = "", draft: str = "") -> None:
        """What the main window has chosen: memory fits are for this context size, and with
        this draft model (its size is read off the GUI thread)."""
        choice = RuntimeChoice(n_ctx, target, draft)
        self._runtime = choice
        self.search_tab.set_runtime(choice)
        if draft:
            self.tasks.run(measure_draft, choice, on_result=self._on_draft_measured)

    @Slot(str)
    def search_for(self, query: str) -> None:
        self.tabs.setCurrentIndex(SEARCH_TAB)
        self.search_tab.search(query)

    def find_draft(self, target: FinderTarget) -> None:
        """Every way to speculate for `target`, on the Find a draft tab."""
        self.tabs.setCurrentIndex(FINDER_TAB)
        self.finder.show_target(target)

    @Slot(str, str, int)
    def _on_use_candidate(self, spec: str, draft: str, k: int) -> None:
        # The finder's target is a library model, perhaps not the one loaded: load it first.
        target = self.finder.target.path if self.finder.target else ""
        loaded = self._runtime.target
        if target and not (loaded and Path(loaded).resolve() == Path(target).resolve()):
            self.use_as_target.emit(target)
        if draft:
            self.use_as_draft.emit(draft)
        self.use_spec.emit(spec, k)

    def _on_draft_measured(self, choice: RuntimeChoice) -> None:
        if (choice.n_ctx, choice.draft) == (self._runtime.n_ctx, self._runtime.draft):
            self._runtime = choice
            self.search_tab.set_runtime(choice)

    @Slot(object)
    def download(self, model: HubModel) -> None:
        """Queue `model` on the Downloads tab (the Search tab's and the draft finder's)."""
        # enqueue checks the file names (no transfer); the queue's thread does the rest.
        try:
            self.downloads.enqueue(model)
        except Exception as exc:
            self.downloads_tab.show_error(self.tr("Cannot download {name}: {error}").format(
                name=model.name, error=error_text(exc)))
        self.tabs.setCurrentIndex(DOWNLOADS_TAB)

    @Slot(int)
    def _on_cancel_requested(self, job_id: int) -> None:
        # Cancelling deletes the partial files: leave that to a pool thread.
        self.tasks.run(self.downloads.cancel, job_id, on_result=lambda _: None)

    @Slot(object)
    def _on_download_completed(self, status: DownloadStatus) -> None:
        self.search_tab.mark_downloaded(status.model)
        self.library_tab.refresh(status.path)

    @Slot(int)
    def _on_download_count(self, active: int) -> None:
        self.tabs.setTabText(DOWNLOADS_TAB, self.tr("Downloads ({n})").format(n=active)
                             if active else self.tr("Downloads"))

    def closeEvent(self, event: QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)

    def shutdown(self) -> None:
        """Pause downloads and wait (bounded) for every background thread."""
        if self._closed:
            return
        self._closed = True
        self.finder.close_down()  # its threads stop at their next step, unwaited
        self.downloads.close(STOP_TIMEOUT_MS / 1000)
        if not self.tasks.stop(STOP_TIMEOUT_MS):
            log.error("The model manager's background work did not stop in time.")
        self.closed.emit()
