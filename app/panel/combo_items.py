"""Combo boxes of the side panel: entries that can be greyed out with the reason in their
tooltip, and boxes that shorten a long entry in the middle, not at its end."""

from __future__ import annotations

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QPaintEvent, QPalette, QStandardItemModel
from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox, QStylePainter, QWidget


def set_item_enabled(combo: QComboBox, index: int, reason: str | None) -> None:
    """Enable entry `index`, or grey it out with `reason` as its tooltip."""
    model = combo.model()
    assert isinstance(model, QStandardItemModel)
    item = model.item(index)
    item.setEnabled(reason is None)
    item.setToolTip(reason or "")


def item_enabled(combo: QComboBox, index: int) -> bool:
    model = combo.model()
    assert isinstance(model, QStandardItemModel)
    return model.item(index).isEnabled()


def item_reason(combo: QComboBox, index: int) -> str:
    return combo.itemData(index, Qt.ItemDataRole.ToolTipRole) or ""


class MiddleElidedCombo(QComboBox):
    """Entries shown in full where there is room, else shortened in the middle, in the box
    and in its list alike: both ends of a long entry say what it is (a chain's first and last
    drafter, a model file's name and its "…-Q4_K_M.gguf"), where Qt's own box cuts the end
    off without a mark."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view().setTextElideMode(Qt.TextElideMode.ElideMiddle)

    def shown_text(self) -> str:
        """What the box shows now: the chosen name, shortened to the room it has."""
        return self._label_option().currentText

    def showPopup(self) -> None:
        # the list as wide as its longest name needs, up to the screen's width
        view = self.view()
        screen = self.screen().availableGeometry().width() if self.screen() else 1600
        view.setMinimumWidth(min(view.sizeHintForColumn(0) + 2 * view.frameWidth() + 24,
                                 screen - 40))
        super().showPopup()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QStylePainter(self)
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, opt)
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, self._label_option())

    def _label_option(self) -> QStyleOptionComboBox:
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        if self.currentIndex() < 0 and self.placeholderText():
            opt.palette.setBrush(QPalette.ColorRole.ButtonText,
                                 opt.palette.placeholderText())
            opt.currentText = self.placeholderText()
        field = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, opt,
                                            QStyle.SubControl.SC_ComboBoxEditField, self)
        opt.currentText = self.fontMetrics().elidedText(
            opt.currentText, Qt.TextElideMode.ElideMiddle, max(0, field.width() - 2))
        return opt


class FileCombo(MiddleElidedCombo):
    """Entries named by their file; the chosen entry's full path (its item data) is the box's
    tooltip, each entry's in the list."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.currentIndexChanged.connect(self._on_current_changed)

    @Slot(int)
    def _on_current_changed(self, index: int) -> None:
        path = self.itemData(index) if index >= 0 else None
        self.setToolTip(path if isinstance(path, str) and path else "")
