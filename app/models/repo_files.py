"""The lower half of the Search tab: one Hub repository's GGUF models grouped by quantization,
each with its size, whether it fits this machine alone and with the chosen draft, and a
Download button.

Its words keep the Search tab's translation context ("SearchTab"), where they are listed."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QHeaderView, QPushButton, QTreeWidget, QTreeWidgetItem, QWidget

from app.formatting import fit_text, fit_tooltip, human_size, plain_tooltip
from app.i18n import translate
from app.models.repo_listing import RepoListing, Sizing
from app.models.runtime import RuntimeChoice
from backend.models.hub import HubModel, by_quantization, memory_fit
from backend.models.memory import Fit

FILE, SIZE, FIT, FIT_DRAFT, ACTION = range(5)
MODEL_ROLE = Qt.ItemDataRole.UserRole
RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


class RepoFilesTree(QTreeWidget):
    download_requested = Signal(object)  # HubModel

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHeaderLabels([translate("SearchTab", "File"), translate("SearchTab", "Size"),
                              translate("SearchTab", "Alone"),
                              translate("SearchTab", "With the draft"), ""])
        self.headerItem().setToolTip(FIT, translate(
            "SearchTab", "Whether the model fits this machine's memory with the main window's "
            "context size"))
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # keep the quantization
        self.setAlternatingRowColors(True)
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(FILE, QHeaderView.ResizeMode.Stretch)
        for column in (SIZE, FIT, FIT_DRAFT, ACTION):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.setColumnHidden(FIT_DRAFT, True)

    def show_draft_column(self, runtime: RuntimeChoice) -> None:
        """The "With draft" column, named for the draft, only while a draft is chosen."""
        self.setColumnHidden(FIT_DRAFT, runtime.draft_bytes is None)
        if runtime.draft_bytes is not None:
            self.headerItem().setText(FIT_DRAFT, translate(
                "SearchTab", "With draft {name}").format(name=runtime.draft_name))

    def groups(self) -> dict[str, list[QTreeWidgetItem]]:
        """The file rows under each quantization heading (for tests)."""
        return {
            self.topLevelItem(i).data(FILE, MODEL_ROLE): [
                self.topLevelItem(i).child(j)
                for j in range(self.topLevelItem(i).childCount())
            ]
            for i in range(self.topLevelItemCount())
        }

    def download_button(self, model_name: str) -> QPushButton:
        for items in self.groups().values():
            for item in items:
                if item.data(FILE, MODEL_ROLE).name == model_name:
                    return self.itemWidget(item, ACTION)
        raise KeyError(model_name)

    def show_listing(self, listing: RepoListing | None) -> None:
        self.clear()
        if listing is None:
            return
        for quant, models in by_quantization(listing.models).items():
            count = (translate("SearchTab", "{quant}  ({n} model)") if len(models) == 1
                     else translate("SearchTab", "{quant}  ({n} models)"))
            group = QTreeWidgetItem([count.format(quant=quant, n=len(models))])
            group.setData(FILE, MODEL_ROLE, quant)
            font = group.font(FILE)
            font.setBold(True)
            group.setFont(FILE, font)
            self.addTopLevelItem(group)
            for model in models:
                self._add_file(group, model, model.name in listing.downloaded)
            group.setExpanded(True)

    def _add_file(self, group: QTreeWidgetItem, model: HubModel, downloaded: bool) -> None:
        name = model.name
        if len(model.parts) > 1:
            name = translate("SearchTab", "{name}  ({n} parts)").format(name=name,
                                                                        n=len(model.parts))
        item = QTreeWidgetItem(group, [name, human_size(model.size),
                                       translate("SearchTab", "checking…"),
                                       translate("SearchTab", "checking…")])
        item.setData(FILE, MODEL_ROLE, model)
        parts = "\n".join(p.path for p in model.parts)
        item.setToolTip(FILE, plain_tooltip(parts))
        item.setTextAlignment(SIZE, RIGHT)
        button = QPushButton(translate("SearchTab", "Downloaded") if downloaded
                             else translate("SearchTab", "Download"))
        button.setEnabled(not downloaded)
        button.setToolTip(translate("SearchTab", "Already in the library") if downloaded else
                          translate("SearchTab", "Download {size} into the library").format(
                              size=human_size(model.size)))
        button.clicked.connect(lambda _=False, m=model: self._on_download(m))
        item.setSizeHint(ACTION, button.sizeHint())
        self.setItemWidget(item, ACTION, button)

    def _on_download(self, model: HubModel) -> None:
        button = self.download_button(model.name)
        button.setEnabled(False)
        button.setText(translate("SearchTab", "Queued"))
        self.download_requested.emit(model)

    def show_fits(self, sizing: Sizing | None, runtime: RuntimeChoice, colours) -> None:
        """Whether each model fits, alone and with the draft, once `sizing` is known."""
        for items in self.groups().values():
            for item in items:
                model: HubModel = item.data(FILE, MODEL_ROLE)
                if sizing is None:
                    continue
                alone = memory_fit(model, sizing.kv_bytes_per_token, runtime.n_ctx,
                                   memory=sizing.memory)
                self._set_fit(item, FIT, alone, translate("SearchTab", "{name} alone").format(
                    name=model.name), colours)
                if runtime.draft_bytes is not None:
                    paired = memory_fit(model, sizing.kv_bytes_per_token, runtime.n_ctx,
                                        companion=runtime.draft_bytes, memory=sizing.memory)
                    self._set_fit(item, FIT_DRAFT, paired,
                                  translate("SearchTab", "{name} with {draft}").format(
                                      name=model.name, draft=runtime.draft_name), colours)

    @staticmethod
    def _set_fit(item: QTreeWidgetItem, column: int, estimate, what: str, colours) -> None:
        item.setText(column, fit_text(estimate))
        item.setToolTip(column, plain_tooltip(fit_tooltip(estimate, what)))
        item.setData(column, MODEL_ROLE, estimate)
        if estimate.fit == Fit.FITS:
            item.setForeground(column, item.foreground(FILE))
        else:
            item.setForeground(column, QBrush(QColor(colours.rejected_fg)))
