"""The Search tab: GGUF repositories on the Hub, a repository's models grouped by
quantization with their sizes and whether they fit this machine, and a Download button each.
While the Hub is asked, a busy bar and Cancel; a Hub that cannot be reached is said in words.

The repository's files are shown by repo_files.py; what is learnt of a repository off the GUI
thread (its models, whether they fit) comes from repo_listing.py."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.backend_text import error_text
from app.background import Background
from app.formatting import age, human_count, human_size, plain_tooltip
from app.i18n import number
from app.models.repo_files import FILE, MODEL_ROLE, RIGHT, RepoFilesTree
from app.models.repo_listing import RepoListing, Sizing, list_repo, size_repo
from app.models.runtime import RuntimeChoice
from app.shell.theme import token_colours
from app.transcript.message_widgets import plain_label
from app.widgets.busy_row import BusyRow
from backend.models.hub import HubClient, HubModel, HubUnreachable, RepoSummary
from backend.models.memory import system_memory

REPO_COLUMNS = (QT_TRANSLATE_NOOP("SearchTab", "Repository"),
                QT_TRANSLATE_NOOP("SearchTab", "Downloads"),
                QT_TRANSLATE_NOOP("SearchTab", "Likes"),
                QT_TRANSLATE_NOOP("SearchTab", "Updated"))


class SearchTab(QWidget):
    download_requested = Signal(object)  # HubModel
    find_draft = Signal(str, str)  # repository, file ("": the one a draft search prefers)

    def __init__(self, client: HubClient, tasks: Background, models_dir: Path,
                 memory_source=system_memory, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._client = client
        self._tasks = tasks
        self._models_dir = models_dir
        self._memory_source = memory_source
        self._runtime = RuntimeChoice()
        self._query_serial = 0
        self._list_serial = 0
        self._searching = False
        self._listing_repo: str | None = None  # the repository whose files are being listed
        self._listing: RepoListing | None = None
        self._sizing: Sizing | None = None
        self._build()

    def _build(self) -> None:
        self.query = QLineEdit()
        self.query.setPlaceholderText(self.tr("Search GGUF models on Hugging Face, e.g. qwen2.5 "
                                              "0.5b"))
        self.query.setClearButtonEnabled(True)
        self.search_button = QPushButton(self.tr("Search"))
        self.search_button.setDefault(True)
        row = QHBoxLayout()
        row.addWidget(self.query, 1)
        row.addWidget(self.search_button)

        self.status = plain_label()
        self.wait_row = BusyRow(self.tr("Stop waiting for the Hub"))
        self.wait_bar, self.cancel_button = self.wait_row.bar, self.wait_row.cancel_button
        self.repos = QTreeWidget()
        self.repos.setHeaderLabels([self.tr(c) for c in REPO_COLUMNS])
        self.repos.setRootIsDecorated(False)
        self.repos.setUniformRowHeights(True)
        self.repos.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.repos.setAlternatingRowColors(True)
        header = self.repos.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        for column in (1, 2, 3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
            self.repos.headerItem().setTextAlignment(column, RIGHT)

        self.repo_title = plain_label(self.tr("Select a repository to see its models."))
        self.repo_title.setObjectName("sectionTitle")
        self.memory_note = plain_label()
        self.files = RepoFilesTree()
        self.find_button = QPushButton(self.tr("Find a draft…"))
        self.find_button.setToolTip(self.tr("Which drafts can speculate for the selected "
                                            "repository's model, checked from GGUF headers "
                                            "before anything is downloaded"))
        self.find_button.setEnabled(False)

        lower = QWidget()
        lay = QVBoxLayout(lower)
        lay.setContentsMargins(0, 0, 0, 0)
        title_row = QHBoxLayout()
        title_row.addWidget(self.repo_title, 1)
        title_row.addWidget(self.find_button)
        lay.addLayout(title_row)
        lay.addWidget(self.memory_note)
        lay.addWidget(self.files, 1)

        # Stacked, so that long repository and file names both have the window's width.
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.repos)
        splitter.addWidget(lower)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        splitter.setSizes([240, 420])

        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.status)
        layout.addWidget(self.wait_row)
        layout.addWidget(splitter, 1)

        self.query.returnPressed.connect(self.search)
        self.search_button.clicked.connect(self.search)
        self.cancel_button.clicked.connect(self.cancel)
        self.repos.currentItemChanged.connect(self._on_repo_changed)
        self.files.download_requested.connect(self.download_requested)
        self.find_button.clicked.connect(self._on_find_draft)
        self._show_memory_note()

    # Public ------------------------------------------------------------------------------

    @Slot()
    def search(self, query: str | None = None) -> None:
        """Search the Hub for `query` (default: the text in the field)."""
        if query is not None:
            self.query.setText(query)
        text = self.query.text().strip()
        self._query_serial += 1
        serial = self._query_serial
        self.status.setText(self.tr("Searching the Hub for “{text}”…").format(text=text)
                            if text else self.tr("Searching the Hub…"))
        self.status.setToolTip("")
        self.search_button.setEnabled(False)
        self._searching = True
        self._show_waiting()
        self._tasks.run(self._client.search, text,
                        on_result=lambda found: self._on_found(serial, text, found),
                        on_error=lambda exc: self._on_search_failed(serial, exc))

    @Slot()
    def cancel(self) -> None:
        """Stop waiting for the Hub: a search or listing still under way is answered late and
        its answer dropped (a request cannot be taken back, but it ends within seconds)."""
        if self._searching:
            self._query_serial += 1
            self._searching = False
            self.search_button.setEnabled(True)
            self.status.setText(self.tr("Search cancelled."))
        if self._listing_repo is not None:
            self._list_serial += 1
            self.repo_title.setText(self.tr("Listing the files of {repo} was cancelled.").format(
                repo=self._listing_repo))
            self._listing_repo = None
        self._show_waiting()

    def set_runtime(self, runtime: RuntimeChoice) -> None:
        self._runtime = runtime
        self.files.show_draft_column(runtime)
        self._show_memory_note()
        self._show_fits()

    def mark_downloaded(self, model: HubModel) -> None:
        listing = self._listing
        if listing is not None and listing.repo_id == model.repo_id:
            self._listing = RepoListing(listing.repo_id, listing.models,
                                        listing.downloaded | {model.name})
            self.files.show_listing(self._listing)
            self._show_fits()

    def repo_ids(self) -> list[str]:
        return [self.repos.topLevelItem(i).text(0) for i in range(self.repos.topLevelItemCount())]

    def select_repo(self, repo_id: str) -> None:
        for i in range(self.repos.topLevelItemCount()):
            item = self.repos.topLevelItem(i)
            if item.text(0) == repo_id:
                self.repos.setCurrentItem(item)
                return
        raise KeyError(repo_id)

    def groups(self) -> dict[str, list[QTreeWidgetItem]]:
        """The file rows under each quantization heading (for tests)."""
        return self.files.groups()

    def download_button(self, model_name: str) -> QPushButton:
        return self.files.download_button(model_name)

    # Results -----------------------------------------------------------------------------

    def _on_found(self, serial: int, text: str, found: list[RepoSummary]) -> None:
        if serial != self._query_serial:
            return  # an older or cancelled search answered late
        self._searching = False
        self._show_waiting()
        self.search_button.setEnabled(True)
        self.repos.clear()
        for repo in found:
            item = QTreeWidgetItem([repo.repo_id, human_count(repo.downloads),
                                    human_count(repo.likes), age(repo.last_modified)])
            item.setToolTip(0, plain_tooltip(repo.repo_id))
            if repo.last_modified is not None:
                item.setToolTip(3, repo.last_modified.strftime("%Y-%m-%d %H:%M UTC"))
            for column in (1, 2, 3):
                item.setTextAlignment(column, RIGHT)
            self.repos.addTopLevelItem(item)
        if found:
            words = (self.tr("{n} GGUF repositories for “{text}”, most downloaded first.") if text
                     else self.tr("{n} GGUF repositories, most downloaded first."))
        else:
            words = (self.tr("No GGUF repositories found for “{text}”. Try fewer or other words.")
                     if text else self.tr("No GGUF repositories found. Try fewer or other words."))
        self.status.setText(words.format(n=len(found), text=text))

    def _on_search_failed(self, serial: int, exc: Exception) -> None:
        if serial == self._query_serial:
            self._searching = False
            self._show_waiting()
            self.search_button.setEnabled(True)
            self._show_error(self.status, exc)

    def _show_error(self, label, exc: Exception) -> None:
        if isinstance(exc, HubUnreachable):
            label.setText(error_text(exc) + "\n" + self.tr(
                "Check the network connection or the proxy settings, then try again. The "
                "Library tab and the models on this computer still work."))
            label.setToolTip(plain_tooltip(exc.detail))
        else:
            label.setText(error_text(exc))
            label.setToolTip("")

    def _show_waiting(self) -> None:
        self.wait_row.setVisible(self._searching or self._listing_repo is not None)

    @Slot(QTreeWidgetItem, QTreeWidgetItem)
    def _on_repo_changed(self, item: QTreeWidgetItem | None, _previous) -> None:
        self.files.clear()
        self._listing = self._sizing = None
        self._list_serial += 1
        self._listing_repo = None
        self.repo_title.setToolTip("")
        self.find_button.setEnabled(item is not None)
        if item is None:
            self.repo_title.setText(self.tr("Select a repository to see its models."))
            self._show_waiting()
            return
        repo_id = item.text(0)
        serial = self._list_serial
        self._listing_repo = repo_id
        self._show_waiting()
        self.repo_title.setText(self.tr("{repo}: listing its files…").format(repo=repo_id))
        self._tasks.run(list_repo, self._client, repo_id, self._models_dir,
                        on_result=lambda listing: self._on_listed(serial, listing),
                        on_error=lambda exc: self._on_list_failed(serial, exc))

    def _on_listed(self, serial: int, listing: RepoListing) -> None:
        if serial != self._list_serial:
            return  # another repository was chosen, or the listing was cancelled
        self._listing_repo = None
        self._show_waiting()
        self._listing = listing
        n = len(listing.models)
        if not n:
            words = self.tr("{repo} has no GGUF model files.")
        else:
            words = self.tr("{repo}: {n} model") if n == 1 else self.tr("{repo}: {n} models")
        self.repo_title.setText(words.format(repo=listing.repo_id, n=n))
        self.files.show_listing(listing)
        if listing.models:
            self._tasks.run(size_repo, self._client, listing, self._memory_source,
                            on_result=self._on_sized)

    def _on_list_failed(self, serial: int, exc: Exception) -> None:
        if serial == self._list_serial:
            self._listing_repo = None
            self._show_waiting()
            self._show_error(self.repo_title, exc)

    def _on_sized(self, sizing: Sizing) -> None:
        if self._listing is not None and sizing.repo_id == self._listing.repo_id:
            self._sizing = sizing
            self._show_memory_note()
            self._show_fits()

    def _on_find_draft(self) -> None:
        repo = self.repos.currentItem()
        if repo is None:
            return
        chosen = self.files.currentItem()
        model = chosen.data(FILE, MODEL_ROLE) if chosen is not None else None
        self.find_draft.emit(repo.text(0), model.name if isinstance(model, HubModel) else "")

    # Drawing -----------------------------------------------------------------------------

    def _show_memory_note(self) -> None:
        r = self._runtime
        sizing = self._sizing
        text = self.tr("Memory for a {n}-token context (the main window's setting)").format(
            n=number(r.n_ctx))
        if r.draft_bytes is not None:
            text += self.tr("; “With draft {name}” adds that model and its cache").format(
                name=r.draft_name)
        if sizing is not None:
            text += self.tr(". This machine: {free} free of {total}.").format(
                free=human_size(sizing.memory.available), total=human_size(sizing.memory.total))
            if sizing.memory.gpu_total:
                text += " " + self.tr("GPU: {free} free of {total}.").format(
                    free=human_size(sizing.memory.gpu_available),
                    total=human_size(sizing.memory.gpu_total))
            if sizing.problem:
                text += f" {sizing.problem}"
        else:
            text += "."
        self.memory_note.setText(text)

    def _show_fits(self) -> None:
        self.files.show_fits(self._sizing, self._runtime, token_colours(self))
