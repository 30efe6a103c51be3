"""The Library tab: the models on this machine with what their headers say, broken files with
what is wrong with them, and the actions on a model (use, reveal, delete, import)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QProcess, Qt, QUrl, Signal, Slot
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

from app.backend_text import error_text, reason_text, words_text
from app.background import Background
from app.formatting import human_size, parameters, plain_tooltip
from app.i18n import number
from app.models.pairing_panel import PairingPanel
from app.shell.theme import token_colours
from app.transcript.message_widgets import plain_label
from backend.models.eagle3 import describe_head
from backend.models.head_files import DFLASH, GEMMA4_ASSISTANT, is_head_file
from backend.models.inspection import IN_FILE
from backend.models.library import Library, LibraryEntry, reveal_command
from backend.words import Words

COLUMNS = (QT_TRANSLATE_NOOP("LibraryTab", "Model"),
           QT_TRANSLATE_NOOP("LibraryTab", "Architecture"),
           QT_TRANSLATE_NOOP("LibraryTab", "Parameters"),
           QT_TRANSLATE_NOOP("LibraryTab", "Quantization"),
           QT_TRANSLATE_NOOP("LibraryTab", "Context"),
           QT_TRANSLATE_NOOP("LibraryTab", "Chat template"),
           QT_TRANSLATE_NOOP("LibraryTab", "MTP heads"), QT_TRANSLATE_NOOP("LibraryTab", "Size"))
ENTRY_ROLE = Qt.ItemDataRole.UserRole
RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
GGUF_FILTER = QT_TRANSLATE_NOOP("LibraryTab", "GGUF models (*.gguf);;All files (*)")


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
        self.import_button = QPushButton(self.tr("Import GGUF…"))
        self.import_button.setToolTip(self.tr("Copy GGUF files into the models folder"))
        self.add_folder_button = QPushButton(self.tr("Add folder…"))
        self.add_folder_button.setToolTip(self.tr("List the GGUF files of another folder too "
                                                  "(nothing is copied)"))
        self.remove_folder_button = QPushButton(self.tr("Remove folder"))
        self.remove_folder_button.setToolTip(self.tr("Stop listing the selected model's folder "
                                                     "(nothing is deleted)"))
        self.refresh_button = QPushButton(self.tr("Refresh"))
        top = QHBoxLayout()
        for b in (self.import_button, self.add_folder_button, self.remove_folder_button):
            top.addWidget(b)
        top.addStretch(1)
        top.addWidget(self.refresh_button)
        self.folders_label = plain_label(selectable=True)
        self.status = plain_label()

        self.table = QTreeWidget()
        self.table.setHeaderLabels([self.tr(c) for c in COLUMNS])
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
        self.target_button = QPushButton(self.tr("Use as target"))
        self.draft_button = QPushButton(self.tr("Use as draft"))
        self.reveal_button = QPushButton(self.tr("Reveal in file manager"))
        self.delete_button = QPushButton(self.tr("Delete…"))
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
        self.status.setText(self.tr("Reading the library…"))
        self._tasks.run(self.library.entries, on_result=lambda e: self._on_scanned(serial, e),
                        on_error=lambda exc: self.status.setText(
                            self.tr("Could not read the library: {error}").format(
                                error=error_text(exc))))

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
        self.status.setText(self.tr("Importing {names}…").format(names=names))
        self.import_button.setEnabled(False)

        def done(entries: list[LibraryEntry]) -> None:
            self.import_button.setEnabled(True)
            self.refresh(entries[-1].path if entries else None)

        def failed(exc: Exception) -> None:
            self.import_button.setEnabled(True)
            self._notice = self.tr("Import failed: {error}").format(error=error_text(exc))
            self.refresh()  # the files before the failing one did arrive

        self._tasks.run(_import_all, self.library, [Path(p) for p in paths],
                        on_result=done, on_error=failed)

    def add_folder(self, folder: str) -> None:
        try:
            self.library.add_folder(Path(folder))
        except Exception as exc:
            self.status.setText(error_text(exc))
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
            self.status.setText(self.tr("Could not start {command} to show {name}.").format(
                command=command[0], name=entry.path.name))

    @Slot()
    def delete_selected(self) -> None:
        entry = self.selected()
        if entry is None:
            return
        size = f" ({human_size(entry.inspection.file_size)})" if entry.inspection else ""
        parts = entry.inspection.n_parts if entry.inspection else 1
        question = (self.tr("Delete all {parts} parts of {name}{size} from disk?\n\n{path}\n\n"
                            "This cannot be undone.") if parts > 1
                    else self.tr("Delete {name}{size} from disk?\n\n{path}\n\nThis cannot be "
                                 "undone."))
        if not self.confirm(self, self.tr("Delete model"), question.format(
                parts=parts, name=entry.path.name, size=size, path=entry.path)):
            return
        self.status.setText(self.tr("Deleting {name}…").format(name=entry.path.name))
        self._tasks.run(self.library.delete, entry.path,
                        on_result=lambda _: self.refresh(),
                        on_error=lambda exc: self.status.setText(
                            self.tr("Could not delete: {error}").format(error=error_text(exc))))

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
        good = len(entries) - broken
        text = (self.tr("{n} model") if good == 1 else self.tr("{n} models")).format(n=good)
        if broken:
            text += (self.tr(", {n} file that cannot be used") if broken == 1
                     else self.tr(", {n} files that cannot be used")).format(n=broken)
        if not entries:
            text = self.tr("No models yet: download one on the Search tab, import a GGUF file, "
                           "or add a folder that holds some.")
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
            error = _error_words(entry) or self.tr("unknown error")
            item = QTreeWidgetItem([self.tr("{name} — cannot be used: {error}").format(
                name=entry.path.name, error=error)])
            item.setForeground(0, QBrush(QColor(colours.rejected_fg)))
        else:
            name = entry.path.name
            if info.n_parts > 1:
                name += self.tr("  ({n} parts)").format(n=info.n_parts)
            item = QTreeWidgetItem([
                name,
                self._architecture(info.architecture, bool(info.eagle3)),
                parameters(info.parameter_count),
                info.quantization,
                f"{info.context_length:,}" if info.context_length else self.tr("not given"),
                self.tr("yes") if info.has_chat_template else self.tr("no"),
                str(info.n_mtp_heads) if info.n_mtp_heads else self.tr("none"),
                human_size(info.file_size),
            ])
            for column in (2, 4, 6, 7):
                item.setTextAlignment(column, RIGHT)
        item.setData(0, ENTRY_ROLE, entry)
        item.setToolTip(0, plain_tooltip(str(entry.path) if info else
                                         f"{entry.path}\n\n{reason_text(entry.error) or ''}"))
        return item

    @Slot(QTreeWidgetItem, QTreeWidgetItem)
    def _on_selected(self, item: QTreeWidgetItem | None, _previous) -> None:
        entry: LibraryEntry | None = item.data(0, ENTRY_ROLE) if item is not None else None
        ok = entry is not None and entry.ok
        head = entry.inspection.eagle3 if ok and entry.inspection else None
        # a head or an assistant only drafts
        self.target_button.setEnabled(ok and head is None and entry is not None
                                      and entry.inspection is not None
                                      and not is_head_file(entry.inspection))
        self.draft_button.setEnabled(ok)
        self.reveal_button.setEnabled(entry is not None)
        self.delete_button.setEnabled(entry is not None)
        self.remove_folder_button.setEnabled(
            entry is not None and entry.folder != self.library.models_dir)
        if entry is None:
            self.details.setText("")
        elif entry.inspection is None:
            self.details.setText(self.tr("{path}\nCannot be used: {error}").format(
                path=entry.path, error=reason_text(entry.error)))
        else:
            info = entry.inspection
            facts = [info.name,
                     self.tr("{n}-token {kind} vocabulary").format(
                         n=number(info.vocab.n_tokens), kind=info.vocab.vocab_type.upper()),
                     self.tr("{n} layers").format(n=info.n_layers) if info.n_layers else "",
                     self.tr("EAGLE-3 head {words}").format(words=words_text(describe_head(head)))
                     if head else "",
                     self._head_facts(info.architecture, info.n_embd)]
            self.details.setText(f"{entry.path}\n" + " · ".join(f for f in facts if f))
        models = [e.inspection for e in self._entries if e.inspection is not None]
        self.pairing.show_target(entry.inspection if ok else None, models)

    def _architecture(self, architecture: str, eagle3: bool) -> str:
        if eagle3:
            return self.tr("{architecture} (EAGLE-3 head)").format(architecture=architecture)
        if architecture == DFLASH:
            return self.tr("{architecture} (DFlash head)").format(architecture=architecture)
        if architecture == GEMMA4_ASSISTANT:
            return self.tr("{architecture} (Gemma 4 assistant)").format(
                architecture=architecture)
        return architecture

    def _head_facts(self, architecture: str, n_embd: int) -> str:
        """What the header read by the scan says of a DFlash head or a Gemma 4 assistant: the
        target it reads (its block size and layers are read when it loads, not here)."""
        if architecture == DFLASH:
            return (self.tr("DFlash head: fills a block of draft tokens in one pass from the "
                            "hidden states of a target of hidden size {n}").format(n=n_embd)
                    if n_embd else self.tr("DFlash head: fills a block of draft tokens in one "
                                           "pass from its target's hidden states"))
        if architecture == GEMMA4_ASSISTANT:
            return self.tr("Gemma 4 assistant: drafts token by token for a Gemma 4 model, from "
                           "that model's own cache")
        return ""

    # Dialogs -----------------------------------------------------------------------------

    @Slot()
    def _on_import_dialog(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, self.tr("Import GGUF models"),
                                                str(Path.home()), self.tr(GGUF_FILTER))
        self.import_files(paths)

    @Slot()
    def _on_add_folder_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Add a folder of GGUF models"),
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
        lines = [self.tr("Models folder: {folder}").format(folder=folders[0])]
        lines += [self.tr("Also listed: {folder}").format(folder=f) for f in folders[1:]]
        self.folders_label.setText("\n".join(lines))

    def _emit_path(self, signal) -> None:
        entry = self.selected()
        if entry is not None and entry.ok:
            signal.emit(str(entry.path))


def _error_words(entry: LibraryEntry) -> str:
    """What is wrong with a broken entry, in the window's language, without the file's name
    in front (the row names it already); "" when nothing is said."""
    said = entry.error
    if said is None:
        return ""
    values = dict(said.values)
    inner = values.get("error")
    if said.template == IN_FILE and values.get("name") == entry.path.name and inner:
        return words_text(inner) if isinstance(inner, Words) else str(inner)
    return words_text(said)


def _import_all(library: Library, paths: list[Path]) -> list[LibraryEntry]:
    return [library.import_file(p) for p in paths]
