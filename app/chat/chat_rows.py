"""The chat list's rows: what each row carries, the day it is listed under, the order of the
rows, and the delegate that draws a day's caption above the first chat of that day.

Pinned chats come first, then the most recently active; the captions are "Pinned", "Today",
"Yesterday" or a date in the window's language. The captions are drawn, not rows of their
own, so that each row is one chat."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QDate,
    QLocale,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
)
from PySide6.QtGui import QFont, QPainter
from PySide6.QtWidgets import (
    QListWidget,
    QListWidgetItem,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from app.chat.chat_titles import CONV_ROLE, mark_option
from app.chat.conversation import Conversation
from app.i18n import translate

GROUP_ROLE = Qt.ItemDataRole.UserRole + 1
PINNED = QT_TRANSLATE_NOOP("ChatList", "Pinned")  # English, as tests compare; shown translated


def day_group(conv: Conversation, today: date | None = None) -> str:
    """The caption a conversation is listed under."""
    if conv.pinned:
        return translate("ChatList", PINNED)
    today = today or date.today()
    day = datetime.fromtimestamp(conv.updated_at).date() if conv.updated_at else today
    if day == today:
        return translate("ChatList", "Today")
    if day == today - timedelta(days=1):
        return translate("ChatList", "Yesterday")
    # the day and month names of the window's language
    return QLocale().toString(QDate(day.year, day.month, day.day), "ddd d MMM yyyy")


def sort_key(conv: Conversation) -> tuple[bool, float]:
    return (not conv.pinned, -conv.updated_at)


def is_blank(conv: Conversation) -> bool:
    """A chat nothing was done with yet: what New chat shows again instead of another."""
    return (conv.loaded and not conv.turns and not conv.pinned and not conv.renamed
            and not conv.system_prompt.strip())


def chat_item(conv: Conversation) -> QListWidgetItem:
    """A row for `conv`: its title (editable, to rename it) under its day's caption."""
    item = QListWidgetItem(conv.title)
    item.setData(CONV_ROLE, conv)
    item.setData(GROUP_ROLE, day_group(conv))
    item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
    return item


class GroupDelegate(QStyledItemDelegate):
    """Draws a day's caption above the first chat of that day (rows stay one per chat)."""

    def __init__(self, view: QListWidget) -> None:
        super().__init__(view)
        self._view = view

    def _header(self, index: QModelIndex | QPersistentModelIndex) -> str | None:
        group = index.data(GROUP_ROLE)
        row = index.row() - 1
        while row >= 0 and self._view.isRowHidden(row):
            row -= 1
        if row >= 0 and self._view.item(row).data(GROUP_ROLE) == group:
            return None
        return group

    def _header_height(self, option: QStyleOptionViewItem) -> int:
        return option.fontMetrics.height() + 8

    def sizeHint(self, option: QStyleOptionViewItem,
                 index: QModelIndex | QPersistentModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        if self._header(index) is not None:
            size.setHeight(size.height() + self._header_height(option))
        return size

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        header = self._header(index)
        if header is None:
            super().paint(painter, option, index)
            return
        h = self._header_height(option)
        painter.save()
        font = QFont(option.font)
        font.setBold(True)
        font.setPointSizeF(max(6.0, font.pointSizeF() * 0.85))
        painter.setFont(font)
        painter.setPen(option.palette.placeholderText().color())
        painter.drawText(QRect(option.rect.x() + 4, option.rect.y() + 4, option.rect.width() - 8,
                               h - 4), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         header)
        painter.restore()
        item_option = QStyleOptionViewItem(option)
        item_option.rect = option.rect.adjusted(0, h, 0, 0)
        super().paint(painter, item_option, index)

    def initStyleOption(self, option: QStyleOptionViewItem,
                        index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        mark_option(option, index)  # a title another chat has too: app/chat/chat_titles.py

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem,
                             index: QModelIndex | QPersistentModelIndex) -> None:
        """The rename field over the chat's row, under its caption, at least as tall as the
        field needs for its text (its frame and padding), centred on the row."""
        super().updateEditorGeometry(editor, option, index)
        rect = editor.geometry()
        if self._header(index) is not None:
            rect.setTop(rect.top() + self._header_height(option))
        height = max(rect.height(), editor.sizeHint().height())
        rect.setTop(rect.center().y() - height // 2)
        rect.setHeight(height)
        editor.setGeometry(rect)
