"""Which library models can draft for the selected target, and why the others cannot
(llama.cpp's vocabulary rule, the one the engine applies on load). "Find a draft…" asks for
every way to speculate for it, the Hub's drafts included (find_draft_view.py)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.backend_text import error_text, reason_text
from app.background import Background
from app.formatting import human_size, plain_tooltip
from app.shell.theme import token_colours
from app.transcript.message_widgets import plain_label
from backend.models.inspection import ModelInspection
from backend.models.pairing import DraftCandidate, draft_candidates, draft_search_query

MODEL, SIZE, VERDICT, WHY = range(4)
PATH_ROLE = Qt.ItemDataRole.UserRole
RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


class PairingPanel(QGroupBox):
    search_family = Signal(str)  # a Hub query for smaller models of the target's family
    use_as_draft = Signal(str)  # path
    find_draft = Signal(str)  # the target's path: every way to speculate for it

    def __init__(self, tasks: Background, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Draft models for the selected model"))
        self._tasks = tasks
        self._target: ModelInspection | None = None
        self.summary = plain_label(self.tr("Select a model in the library to see which models can "
                                           "draft for it."))
        self.table = QTreeWidget()
        self.table.setHeaderLabels([self.tr("Library model"), self.tr("Size"),
                                    self.tr("Can draft?"), self.tr("Why")])
        self.table.setRootIsDecorated(False)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(True)
        header = self.table.header()
        header.setStretchLastSection(True)
        for column in (MODEL, SIZE, VERDICT):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.use_button = QPushButton(self.tr("Use selected as draft"))
        self.use_button.setEnabled(False)
        self.search_button = QPushButton(self.tr("Search "
                                                 "the Hub for a smaller model of this family"))
        self.search_button.setEnabled(False)
        self.find_button = QPushButton(self.tr("Find a draft…"))
        self.find_button.setToolTip(self.tr("Every way to speculate for this model: its MTP heads, "
                                            "EAGLE-3 heads, draft models here and on the Hub, "
                                            "n-gram lookup"))
        self.find_button.setEnabled(False)
        buttons = QHBoxLayout()
        buttons.addWidget(self.use_button)
        buttons.addStretch(1)
        buttons.addWidget(self.find_button)
        buttons.addWidget(self.search_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)

        self.search_button.clicked.connect(self._on_search)
        self.find_button.clicked.connect(self._on_find)
        self.use_button.clicked.connect(self._on_use)
        self.table.currentItemChanged.connect(self._update_buttons)

    def show_target(self, target: ModelInspection | None, library: list[ModelInspection]) -> None:
        """Work out the drafts for `target` (vocabularies are read off the GUI thread)."""
        self._target = target
        self.table.clear()
        self.search_button.setEnabled(target is not None)
        self.find_button.setEnabled(target is not None)
        self._update_buttons()
        if target is None:
            self.setTitle(self.tr("Draft models for the selected model"))
            self.summary.setText(self.tr("Select a working model in the library to see which "
                                         "models can draft for it."))
            return
        self.setTitle(self.tr("Draft models for {name}").format(name=target.path.name))
        self.summary.setText(self.tr("Comparing vocabularies…"))
        self._tasks.run(draft_candidates, target, list(library),
                        on_result=lambda rows, t=target: self._on_candidates(t, rows),
                        on_error=lambda exc: self.summary.setText(
                            self.tr("Could not compare the vocabularies: {error}").format(
                                error=error_text(exc))))

    def rows(self) -> dict[str, tuple[str, str]]:
        """File name → (verdict, reason), as shown (for tests)."""
        return {
            self.table.topLevelItem(i).text(MODEL): (self.table.topLevelItem(i).text(VERDICT),
                                                     self.table.topLevelItem(i).text(WHY))
            for i in range(self.table.topLevelItemCount())
        }

    def _on_candidates(self, target: ModelInspection, rows: list[DraftCandidate]) -> None:
        if target is not self._target:
            return
        colours = token_colours(self)
        good = sum(r.compatible for r in rows)
        if not rows:
            self.summary.setText(self.tr("The library has no other model to compare with."))
        else:
            self.summary.setText(self.tr(
                "{good} of {n} other library models can draft for {name}: a draft must share the "
                "target's vocabulary, and is worth it only when it is much smaller.").format(
                good=good, n=len(rows), name=target.path.name))
        for row in rows:
            model = row.model
            head = row.kind == "EAGLE-3 head"
            verdict = (self.tr("Yes, as its EAGLE-3 head") if row.compatible and head else
                       self.tr("Yes, but no faster") if row.compatible and row.reason else
                       self.tr("Yes") if row.compatible else self.tr("No"))
            same = self.tr("Same vocabulary, and smaller.")
            why = reason_text(row.reason) or same
            item = QTreeWidgetItem([model.path.name, human_size(model.file_size), verdict, why])
            item.setData(MODEL, PATH_ROLE, str(model.path))
            item.setToolTip(MODEL, plain_tooltip(str(model.path)))
            item.setToolTip(WHY, plain_tooltip(why))
            item.setTextAlignment(SIZE, RIGHT)
            if not row.compatible:
                item.setForeground(VERDICT, QBrush(QColor(colours.rejected_fg)))
            elif not row.reason or head:
                item.setForeground(VERDICT, QBrush(QColor(colours.accepted_fg)))
            self.table.addTopLevelItem(item)

    def _update_buttons(self, *_args) -> None:
        item = self.table.currentItem()
        self.use_button.setEnabled(item is not None and item.text(VERDICT).startswith("Yes"))

    def _on_search(self) -> None:
        if self._target is not None:
            self.search_family.emit(draft_search_query(self._target))

    def _on_find(self) -> None:
        if self._target is not None:
            self.find_draft.emit(str(self._target.path))

    def _on_use(self) -> None:
        item = self.table.currentItem()
        if item is not None:
            self.use_as_draft.emit(item.data(MODEL, PATH_ROLE))
