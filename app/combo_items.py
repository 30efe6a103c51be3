"""Combo-box entries that can be greyed out with the reason in their tooltip."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import QComboBox


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
