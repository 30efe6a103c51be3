"""Two chats with the same title told apart in the chat list: each of them shows when it was
last active after its title ("Tell me a story · 14:32"), and the later ones a number too if
that is the same ("· 14:32 (2)"), so a person can tell them apart at a glance. A title that is not
shared shows as it is. The mark is drawn by the list's delegate, never stored in the title:
renaming edits the title alone."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime

from PySide6.QtCore import (
    QDate,
    QLocale,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTime,
    QTimer,
    Slot,
)
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QListWidget, QStyleOptionViewItem

from app.chat.conversation import Conversation

TWIN_ROLE = Qt.ItemDataRole.UserRole + 7  # the mark after a shared title ("" for none)
TEXT_MARGIN = 12  # what the style keeps around an item's text, about

CONV_ROLE = Qt.ItemDataRole.UserRole  # a chat list row's Conversation


def when(conv: Conversation, today: date | None = None) -> str:
    """When a chat was last active, as short as tells it apart: the time today, else the day
    and the time, in the window's language."""
    moment = datetime.fromtimestamp(conv.updated_at) if conv.updated_at else datetime.now()
    locale = QLocale()
    time = locale.toString(QTime(moment.hour, moment.minute),
                           QLocale.FormatType.ShortFormat)
    if moment.date() == (today or date.today()):
        return time
    day = locale.toString(QDate(moment.year, moment.month, moment.day), "d MMM")
    return f"{day} {time}"


def twin_marks(titles: list[str], convs: list[Conversation],
               today: date | None = None) -> list[str]:
    """For each row (its shown title and chat), the mark that tells it from the others of the
    same title ("" when no other has it)."""
    same: dict[str, list[int]] = defaultdict(list)
    for row, title in enumerate(titles):
        same[" ".join(title.split()).casefold()].append(row)
    marks = [""] * len(titles)
    for rows in same.values():
        if len(rows) < 2:
            continue
        by_mark: dict[str, list[int]] = defaultdict(list)
        for row in rows:
            by_mark[when(convs[row], today)].append(row)
        for mark, tied in by_mark.items():
            # still the same: numbered in the order the chats were made (a new one last)
            tied.sort(key=lambda r: (convs[r].chat_id is None, convs[r].chat_id or 0))
            for n, row in enumerate(tied, 1):
                marks[row] = mark if n == 1 else f"{mark} ({n})"
    return marks


def marked_text(title: str, mark: str, metrics: QFontMetrics, width: int) -> str:
    """The title shortened to leave room for its mark, then the mark: never cut off."""
    if not mark:
        return title
    tail = f" · {mark}"
    room = width - TEXT_MARGIN - metrics.horizontalAdvance(tail)
    if width <= 0 or room <= 0:
        return title + tail
    return metrics.elidedText(title, Qt.TextElideMode.ElideRight, room) + tail


def mark_option(option: QStyleOptionViewItem,
                index: QModelIndex | QPersistentModelIndex) -> None:
    """A delegate's initStyleOption step: the row's text with its mark, if it has one."""
    mark = index.data(TWIN_ROLE)
    if mark:
        option.text = marked_text(option.text, mark, option.fontMetrics, option.rect.width())


class TwinMarks(QObject):
    """Keeps every row's mark (TWIN_ROLE) up to date as chats are added, renamed, answered
    and removed: once per turn of the event loop however many rows changed in it."""

    def __init__(self, view: QListWidget) -> None:
        super().__init__(view)
        self._view = view
        self._timer = QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self.update)
        model = view.model()
        for signal in (model.rowsInserted, model.rowsRemoved, model.modelReset,
                       model.layoutChanged):
            signal.connect(self._timer.start)
        model.dataChanged.connect(self._on_data_changed)

    def _on_data_changed(self, _top: QModelIndex, _bottom: QModelIndex,
                         roles: list[int]) -> None:
        if list(roles) != [TWIN_ROLE]:  # not our own writes
            self._timer.start()

    @Slot()
    def update(self) -> None:
        view = self._view
        items = [view.item(row) for row in range(view.count())]
        convs = [item.data(CONV_ROLE) for item in items]
        marks = twin_marks([item.text() for item in items], convs)
        for item, mark in zip(items, marks, strict=True):
            if (item.data(TWIN_ROLE) or "") != mark:
                item.setData(TWIN_ROLE, mark)
