"""A group of the side panel that folds: a header button with an arrow, a line or two of plain
help under the title, and a body that hides when folded (LM Studio's sidebar sections, in
Qt). Each group has a stable key, so the groups a person folded stay folded next time
(`WindowSettings.folded`)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QFormLayout,
    QFrame,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.shell.style import SPACE_M, SPACE_S, SPACE_XS
from app.transcript.message_widgets import plain_label

OPEN_ARROW, FOLDED_ARROW = "▾", "▸"


class CollapsibleSection(QFrame):
    toggled = Signal(bool)  # True: unfolded

    def __init__(self, key: str, title: str, help_text: str = "",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.key = key
        self.setObjectName("section")
        self._title = title
        self.header = QPushButton()
        self.header.setObjectName("sectionHeader")
        self.header.setCheckable(True)
        self.header.setChecked(True)
        self.header.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.header.setFlat(True)
        self.header.toggled.connect(self._on_toggled)
        self.help_label = plain_label(help_text)  # the panel's own words, never model text
        self.help_label.setObjectName("sectionHelp")
        self.help_label.setVisible(bool(help_text))
        self.body = QWidget()
        self.body.setObjectName("sectionBody")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(SPACE_M, SPACE_M, SPACE_M, SPACE_M)  # a narrow column
        layout.setSpacing(SPACE_S)
        layout.addWidget(self.header)
        layout.addWidget(self.help_label)
        layout.addWidget(self.body)
        self._show_title()

    def form(self) -> QFormLayout:
        """The body's layout: label and input rows, spaced by the scale."""
        form = QFormLayout(self.body)
        form.setContentsMargins(0, SPACE_XS, 0, 0)
        form.setHorizontalSpacing(SPACE_S)
        form.setVerticalSpacing(SPACE_S)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        return form

    def title(self) -> str:
        return self._title

    def setTitle(self, title: str) -> None:  # QGroupBox's name: the server panel was one
        self._title = title
        self._show_title()

    def is_open(self) -> bool:
        return self.header.isChecked()

    def set_open(self, open_: bool) -> None:
        self.header.setChecked(open_)  # comes back through `toggled`

    @Slot(bool)
    def _on_toggled(self, open_: bool) -> None:
        self.body.setVisible(open_)
        self.help_label.setVisible(open_ and bool(self.help_label.text()))
        self._show_title()
        self.toggled.emit(open_)

    def _show_title(self) -> None:
        arrow = OPEN_ARROW if self.is_open() else FOLDED_ARROW
        self.header.setText(f"{arrow}  {self._title}")
        self.header.setToolTip(self.tr("Click to fold this group") if self.is_open()
                               else self.tr("Click to unfold this group"))


def folded_sections(root: QWidget) -> list[str]:
    """The keys of the folded groups under `root`, sorted (the settings file's order)."""
    return sorted(s.key for s in root.findChildren(CollapsibleSection) if not s.is_open())


def fold_sections(root: QWidget, folded: list[str]) -> None:
    """Fold exactly the groups under `root` whose keys are in `folded`."""
    for section in root.findChildren(CollapsibleSection):
        section.set_open(section.key not in folded)
