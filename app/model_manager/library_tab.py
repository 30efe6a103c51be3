"""The Library tab: the models on this machine with what their headers say, broken files with
what is wrong with them, and the actions on a model (use, reveal, delete, import)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QProcess, Qt, QUrl, Signal, Slot
from PySide6.QtGui import QBrush, QColor, QDesktopServices
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.background import Background
from app.formatting import human_size, parameters, plain_tooltip
from app.message_widgets import plain_label
from app.model_manager.pairing_panel import PairingPanel
from app.theme import token_colours
from backend.models.eagle3 import describe_head
from backend.models.library import Library, LibraryEntry, reveal_command

COLUMNS = ("Model", "Architecture", "Parameters", "Quantization", "Context", "Chat template",
           "MTP heads", "Size")
ENTRY_ROLE = Qt.ItemDataRole.UserRole
RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
GGUF_FILTER = "GGUF models (*.gguf);;All files (*)"


def ask(parent: QWidget, title: str, text: str) -> bool:
    """A Yes/No question with the model's name shown as plain text."""
    box = QMessageBox(QMessageBox.Icon.Question, title, text,
                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setDefaultButton(QMessageBox.StandardButton.No)
    return box.exec() == QMessageBox.StandardButton.Yes


class LibraryTab(QWidget):
    use_as_target = Signal(str)
    use_as_draft = Signal(str)
    folders_changed = Signal(list)  # the extra folders (str), after one is added or removed
    scanned = Signal()  # the list shows the library as it is on disk now

    def __init__(self, library: Library, tasks: Background,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.library = library
        self._tasks = tasks
        self._entries: list[LibraryEntry] = []
        self._scan_serial = 0
        self._pending_select: Path | None = None
        self._notice = ""  # shown with the next scan's summary (an import that failed)
        self.confirm: Callable[[QWidget, str, str], bool] = ask  # a seam for tests
        self._build()

    def _build(self) -> None:
        self.import_button = QPushButton("Import GGUF…")
        self.import_button.setToolTip("Copy GGUF files into the models folder")
        self.add_folder_button = QPushButton("Add folder…")
        self.add_folder_button.setToolTip("List the GGUF files of another folder too "
                                          "(nothing is copied)")
        self.remove_folder_button = QPushButton("Remove folder")
        self.remove_folder_button.setToolTip("Stop listing the selected model's folder "
                                             "(nothing is deleted)")
        self.refresh_button = QPushButton("Refresh")
        top = QHBoxLayout()
        for b in (self.import_button, self.add_folder_button, self.remove_folder_button):
            top.addWidget(b)
        top.addStretch(1)
        top.addWidget(self.refresh_button)
        self.folders_label = plain_label(selectable=True)
        self.status = plain_label()

        self.table = QTreeWidget()
        self.table.setHeaderLabels(COLUMNS)
        self.table.setRootIsDecorated(False)
        self.table.setUniformRowHeights(False)
        self.table.setAlternatingRowColors(True)
        self.table.setSortingEnabled(False)
        header = self.table.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, len(COLUMNS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)

        self.details = plain_label(selectable=True)
        self.target_button = QPushButton("Use as target")
        self.draft_button = QPushButton("Use as draft")
        self.reveal_button = QPushButton("Reveal in file manager")
        self.delete_button = QPushButton("Delete…")
        actions = QHBoxLayout()
        for b in (self.target_button, self.draft_button):
            actions.addWidget(b)
        actions.addStretch(1)
        for b in (self.reveal_button, self.delete_button):
            actions.addWidget(b)

        upper = QWidget()
        lay = QVBoxLayout(upper)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(top)
        lay.addWidget(self.folders_label)
        lay.addWidget(self.status)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.details)
        lay.addLayout(actions)

        self.pairing = PairingPanel(self._tasks)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(upper)
        splitter.addWidget(self.pairing)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)

        self.import_button.clicked.connect(self._on_import_dialog)
        self.add_folder_button.clicked.connect(self._on_add_folder_dialog)
        self.remove_folder_button.clicked.connect(self._on_remove_folder)
        self.refresh_button.clicked.connect(lambda: self.refresh())
        self.table.currentItemChanged.connect(self._on_selected)
        self.target_button.clicked.connect(lambda: self._emit_path(self.use_as_target))
        self.draft_button.clicked.connect(lambda: self._emit_path(self.use_as_draft))
        self.reveal_button.clicked.connect(self.reveal_selected)
        self.delete_button.clicked.connect(self.delete_selected)
        self.pairing.use_as_draft.connect(self.use_as_draft)
        self._show_folders()
        self._on_selected(None, None)

    # Public ------------------------------------------------------------------------------

    def refresh(self, select: Path | None = None) -> None:
        """Scan the library folders again (headers are read off the GUI thread), then select
        `select` (a model's path) if given."""
        if select is not None:
            self._pending_select = select
        self._scan_serial += 1
        serial = self._scan_serial
        self.status.setText("Reading the library…")
        self._tasks.run(self.library.entries, on_result=lambda e: self._on_scanned(serial, e),
                        on_error=lambda exc: self.status.setText(
                            f"Could not read the library: {exc}"))

    def entries(self) -> list[LibraryEntry]:
        return list(self._entries)

    def item_for(self, name: str) -> QTreeWidgetItem:
        for i in range(self.table.topLevelItemCount()):
            item = self.table.topLevelItem(i)
            if item.data(0, ENTRY_ROLE).path.name == name:
                return item
        raise KeyError(name)

    def select(self, name: str) -> None:
        self.table.setCurrentItem(self.item_for(name))

    def selected(self) -> LibraryEntry | None:
        item = self.table.currentItem()
        return item.data(0, ENTRY_ROLE) if item is not None else None

    def import_files(self, paths: list[str]) -> None:
        """Copy `paths` into the models folder (validated first, copied off the GUI thread)."""
        if not paths:
            return
        names = ", ".join(Path(p).name for p in paths)
        self.status.setText(f"Importing {names}…")
        self.import_button.setEnabled(False)

        def done(entries: list[LibraryEntry]) -> None:
            self.import_button.setEnabled(True)
            self.refresh(entries[-1].path if entries else None)

        def failed(exc: Exception) -> None:
            self.import_button.setEnabled(True)
            self._notice = f"Import failed: {exc}"
            self.refresh()  # the files before the failing one did arrive

        self._tasks.run(_import_all, self.library, [Path(p) for p in paths],
                        on_result=done, on_error=failed)

    def add_folder(self, folder: str) -> None:
        try:
            self.library.add_folder(Path(folder))
        except Exception as exc:
            self.status.setText(str(exc))
            return
        self._folders_changed()

    def remove_folder(self, folder: Path) -> None:
        self.library.remove_folder(folder)
        self._folders_changed()

    @Slot()
    def reveal_selected(self) -> None:
        entry = self.selected()
        if entry is None:
            return
        command = reveal_command(entry.path)
        if command[0] == "xdg-open":  # Qt's own route to the desktop's file manager
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(entry.path.parent)))
        elif not QProcess.startDetached(command[0], command[1:]):
            self.status.setText(f"Could not start {command[0]} to show {entry.path.name}.")

    @Slot()
    def delete_selected(self) -> None:
        entry = self.selected()
        if entry is None:
            return
        size = f" ({human_size(entry.inspection.file_size)})" if entry.inspection else ""
        parts = entry.inspection.n_parts if entry.inspection else 1
        what = f"all {parts} parts of " if parts > 1 else ""
        if not self.confirm(self, "Delete model",
                            f"Delete {what}{entry.path.name}{size} from disk?\n\n{entry.path}\n\n"
                            "This cannot be undone."):
            return
        self.status.setText(f"Deleting {entry.path.name}…")
        self._tasks.run(self.library.delete, entry.path,
                        on_result=lambda _: self.refresh(),
                        on_error=lambda exc: self.status.setText(f"Could not delete: {exc}"))

    # Results -----------------------------------------------------------------------------

    def _on_scanned(self, serial: int, entries: list[LibraryEntry]) -> None:
        if serial != self._scan_serial:
            return
        current = self.selected()
        keep = self._pending_select or (current.path if current else None)
        self._pending_select = None
        self._entries = entries
        self.table.clear()
        colours = token_colours(self)
        chosen = None
        for entry in entries:
            item = self._item(entry, colours)
            self.table.addTopLevelItem(item)
            if not entry.ok:
                item.setFirstColumnSpanned(True)
            if entry.path == keep:
                chosen = item
        broken = sum(not e.ok for e in entries)
        text = f"{len(entries) - broken} model{'s' if len(entries) - broken != 1 else ''}"
        if broken:
            text += f", {broken} file{'s' if broken != 1 else ''} that cannot be used"
        if not entries:
            text = ("No models yet: download one on the Search tab, import a GGUF file, or add "
                    "a folder that holds some.")
        if self._notice:
            text, self._notice = f"{self._notice}\n{text}", ""
        self.status.setText(text)
        if chosen is not None:
            self.table.setCurrentItem(chosen)
        else:
            self._on_selected(self.table.currentItem(), None)
        self.scanned.emit()

    def _item(self, entry: LibraryEntry, colours) -> QTreeWidgetItem:
        info = entry.inspection
        if info is None:
            error = entry.error or "unknown error"
            error = error.removeprefix(f"{entry.path.name}: ")
            item = QTreeWidgetItem([f"{entry.path.name} — cannot be used: {error}"])
            item.setForeground(0, QBrush(QColor(colours.rejected_fg)))
        else:
            name = entry.path.name
            if info.n_parts > 1:
                name += f"  ({info.n_parts} parts)"
            item = QTreeWidgetItem([
                name,
                f"{info.architecture} (EAGLE-3 head)" if info.eagle3 else info.architecture,
                parameters(info.parameter_count),
                info.quantization,
                f"{info.context_length:,}" if info.context_length else "not given",
                "yes" if info.has_chat_template else "no",
                str(info.n_mtp_heads) if info.n_mtp_heads else "none",
                human_size(info.file_size),
            ])
            for column in (2, 4, 6, 7):
                item.setTextAlignment(column, RIGHT)
        item.setData(0, ENTRY_ROLE, entry)
        item.setToolTip(0, plain_tooltip(str(entry.path) if info else
                                         f"{entry.path}\n\n{entry.error}"))
        return item

    @Slot(QTreeWidgetItem, QTreeWidgetItem)
    def _on_selected(self, item: QTreeWidgetItem | None, _previous) -> None:
        entry: LibraryEntry | None = item.data(0, ENTRY_ROLE) if item is not None else None
        ok = entry is not None and entry.ok
        head = entry.inspection.eagle3 if ok and entry.inspection else None
        self.target_button.setEnabled(ok and head is None)  # a head only drafts
        self.draft_button.setEnabled(ok)
        self.reveal_button.setEnabled(entry is not None)
        self.delete_button.setEnabled(entry is not None)
        self.remove_folder_button.setEnabled(
            entry is not None and entry.folder != self.library.models_dir)
        if entry is None:
            self.details.setText("")
        elif entry.inspection is None:
            self.details.setText(f"{entry.path}\nCannot be used: {entry.error}")
        else:
            info = entry.inspection
            facts = [info.name, f"{info.vocab.n_tokens:,}-token {info.vocab.vocab_type.upper()} "
                     f"vocabulary", f"{info.n_layers} layers" if info.n_layers else "",
                     f"EAGLE-3 head {describe_head(head)}" if head else ""]
            self.details.setText(f"{entry.path}\n" + " · ".join(f for f in facts if f))
        models = [e.inspection for e in self._entries if e.inspection is not None]
        self.pairing.show_target(entry.inspection if ok else None, models)

    # Dialogs -----------------------------------------------------------------------------

    @Slot()
    def _on_import_dialog(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Import GGUF models", str(Path.home()),
                                                GGUF_FILTER)
        self.import_files(paths)

    @Slot()
    def _on_add_folder_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Add a folder of GGUF models",
                                                  str(Path.home()))
        if folder:
            self.add_folder(folder)

    @Slot()
    def _on_remove_folder(self) -> None:
        entry = self.selected()
        if entry is not None and entry.folder != self.library.models_dir:
            self.remove_folder(entry.folder)

    def _folders_changed(self) -> None:
        self._show_folders()
        extra = [str(f) for f in self.library.folders if f != self.library.models_dir]
        self.folders_changed.emit(extra)
        self.refresh()

    def _show_folders(self) -> None:
        folders = self.library.folders
        lines = [f"Models folder: {folders[0]}"]
        lines += [f"Also listed: {f}" for f in folders[1:]]
        self.folders_label.setText("\n".join(lines))

    def _emit_path(self, signal) -> None:
        entry = self.selected()
        if entry is not None and entry.ok:
            signal.emit(str(entry.path))


def _import_all(library: Library, paths: list[Path]) -> list[LibraryEntry]:
    return [library.import_file(p) for p in paths]
