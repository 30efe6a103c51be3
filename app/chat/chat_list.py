"""The list of conversations beside the transcript, handed a ChatSession.

Titles only at start: pinned chats first, then the most recently active, under a caption per
day ("Today", "Yesterday", a date), with a fresh unsaved "New chat" on top. A chat's messages
are read off the GUI thread when it is selected (`selected` is emitted again once they are
in). Rename by double-click or F2, pin, delete with an Undo, export to Markdown or JSON and
import JSON from the context menu or the File menu; the search field finds chats by title and
by any word of any message (the store's full-text index)."""

from __future__ import annotations

import time
from datetime import date, datetime, timedelta
from pathlib import Path

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QDate,
    QLocale,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QRect,
    QSize,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import QAction, QFont, QKeySequence, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from app.chat.chat_session import ChatSession
from app.chat.chat_titles import TwinMarks, mark_option
from app.chat.conversation import Conversation
from app.i18n import translate
from app.transcript.message_widgets import text_tooltip
from app.widgets.elided_label import ElidedLabel
from backend.chats import SearchHit

CONV_ROLE = Qt.ItemDataRole.UserRole
GROUP_ROLE = Qt.ItemDataRole.UserRole + 1
UNDO_MS = 10_000  # how long "Undo" is offered after a delete
SEARCH_DELAY_MS = 200  # typing pauses this long before the store is searched
PINNED = QT_TRANSLATE_NOOP("ChatList", "Pinned")  # English, as tests compare; shown translated
JSON_FILTER = QT_TRANSLATE_NOOP("ChatList", "Draftlight chat (*.json)")
MARKDOWN_FILTER = QT_TRANSLATE_NOOP("ChatList", "Markdown (*.md)")


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


class _GroupDelegate(QStyledItemDelegate):
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


def is_blank(conv: Conversation) -> bool:
    """A chat nothing was done with yet: what New chat shows again instead of another."""
    return (conv.loaded and not conv.turns and not conv.pinned and not conv.renamed
            and not conv.system_prompt.strip())


class ChatList(QWidget):
    selected = Signal(object)  # the Conversation now shown (again once its turns are read)
    chosen = Signal()  # the person picked a chat (clicked, Enter, New chat): time to type
    info = Signal(str)  # a short message for the status bar (exported, imported)

    def __init__(self, session: ChatSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.search_field = QLineEdit()
        self.search_field.setPlaceholderText(self.tr("Search all chats"))
        self.search_field.setClearButtonEnabled(True)
        self.new_chat_button = QPushButton(self.tr("New chat"))
        self.list = QListWidget()
        self.list.setObjectName("chatList")  # styled in app/shell/style.py
        self.list.setItemDelegate(_GroupDelegate(self.list))
        self.twins = TwinMarks(self.list)  # chats of the same title told apart
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                  | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.undo_label = ElidedLabel()  # one line, whatever the title's length
        self.undo_button = QPushButton(self.tr("Undo"))
        self.undo_bar = QWidget()
        undo = QHBoxLayout(self.undo_bar)
        undo.setContentsMargins(0, 0, 0, 0)
        undo.addWidget(self.undo_label, 1)
        undo.addWidget(self.undo_button)
        self.undo_bar.hide()
        self._undo_timer = QTimer(self, singleShot=True, interval=UNDO_MS)
        self._search_timer = QTimer(self, singleShot=True, interval=SEARCH_DELAY_MS)
        self._deleted: Conversation | None = None
        self._search_text = ""
        self._last_hits: dict[int, str] | None = None  # chat id -> snippet; None: no search

        self.new_chat_action = QAction(self.tr("&New "
                                               "chat"), self, shortcut=QKeySequence.StandardKey.New)
        # F2 anywhere in the window: a chat clicked gives the message box the focus
        self.rename_action = QAction(self.tr("&Rename chat"), self, shortcut=QKeySequence("F2"))
        self.pin_action = QAction(self.tr("&Pin chat"), self)
        self.delete_chat_action = QAction(self.tr("&Delete chat"), self,
                                          shortcut=QKeySequence.StandardKey.Delete)
        self.delete_chat_action.setShortcutContext(
            Qt.ShortcutContext.WidgetWithChildrenShortcut)  # the list's, not the message box's
        self.delete_chat_action.setToolTip(self.tr("Delete "
                                                   "the selected chat (Undo brings it back)"))
        self.export_markdown_action = QAction(self.tr("Export chat as &Markdown…"), self)
        self.export_json_action = QAction(self.tr("Export chat as &JSON…"), self)
        self.export_json_action.setToolTip(self.tr("Every version of every message, with each "
                                                   "answer's tokens, colours and numbers: imports "
                                                   "back whole"))
        self.import_action = QAction(self.tr("&Import chat…"), self)
        self.list.addAction(self.rename_action)
        self.list.addAction(self.delete_chat_action)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 0, 6)
        lay.addWidget(self.new_chat_button)
        lay.addWidget(self.search_field)
        lay.addWidget(self.list, 1)
        lay.addWidget(self.undo_bar)

        for conv in session.saved_conversations():
            self.list.addItem(self._item(conv))
        self.list.currentRowChanged.connect(self._on_row_changed)
        self.list.customContextMenuRequested.connect(self._on_menu)
        self.list.itemChanged.connect(self._on_item_changed)
        self.session.loaded.connect(self._on_loaded)
        self.new_chat_button.clicked.connect(self._on_new_chat)
        self.new_chat_action.triggered.connect(self._on_new_chat)
        self.list.itemClicked.connect(self._on_item_chosen)
        self.list.itemActivated.connect(self._on_item_chosen)  # Enter on a chat
        self.rename_action.triggered.connect(self._on_rename)
        self.pin_action.triggered.connect(self._on_pin)
        self.delete_chat_action.triggered.connect(self._on_delete_chat)
        self.export_markdown_action.triggered.connect(lambda: self._on_export("markdown"))
        self.export_json_action.triggered.connect(lambda: self._on_export("json"))
        self.import_action.triggered.connect(self._on_import)
        self.undo_button.clicked.connect(self.undo_delete)
        self._undo_timer.timeout.connect(self._on_undo_expired)
        self.search_field.textChanged.connect(self._on_search_typed)
        self._search_timer.timeout.connect(self._run_search)
        self.new_chat()

    # Items ---------------------------------------------------------------------------------

    def _item(self, conv: Conversation) -> QListWidgetItem:
        item = QListWidgetItem(conv.title)
        item.setData(CONV_ROLE, conv)
        item.setData(GROUP_ROLE, day_group(conv))
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
        return item

    def _conv(self, row: int) -> Conversation:
        return self.list.item(row).data(CONV_ROLE)

    def conversations(self) -> list[Conversation]:
        return [self._conv(row) for row in range(self.list.count())]

    def row_of(self, conv: Conversation) -> int:
        return next((r for r in range(self.list.count()) if self._conv(r) is conv), -1)

    @property
    def current(self) -> Conversation:
        return self._conv(self.list.currentRow())

    def count(self) -> int:
        return self.list.count()

    def set_busy(self, busy: bool) -> None:
        """While an answer streams (or waits for its model) the shown chat stays."""
        for w in (self.new_chat_button, self.new_chat_action, self.list, self.import_action,
                  self.search_field):
            w.setEnabled(not busy)
        for a in (self.delete_chat_action, self.rename_action, self.pin_action):
            a.setEnabled(not busy and self.list.count() > 0)

    def update_title(self) -> None:
        """The current chat's title and place after a message (it is now the newest)."""
        conv = self.current
        conv.updated_at = time.time()
        item = self.list.currentItem()
        self.list.blockSignals(True)
        item.setText(conv.title)
        self.list.blockSignals(False)
        self._resort()

    def _resort(self) -> None:
        """Put the chats in order again and refresh their captions, the current one kept."""
        current = self.current if self.list.currentRow() >= 0 else None
        convs = sorted(self.conversations(), key=sort_key)
        self.list.blockSignals(True)
        if [id(c) for c in convs] != [id(c) for c in self.conversations()]:
            self.list.clear()
            for conv in convs:
                self.list.addItem(self._item(conv))
        else:
            for row, conv in enumerate(convs):
                self.list.item(row).setData(GROUP_ROLE, day_group(conv))
        if current is not None:
            self.list.setCurrentRow(self.row_of(current))
        self.list.blockSignals(False)
        self._apply_filter(self._last_hits)
        self.list.doItemsLayout()

    # New, rename, pin, delete ----------------------------------------------------------------

    @Slot()
    def new_chat(self) -> None:
        """Show a blank chat: the current one if it is blank, else one already listed, else a
        new one, so that New chat never piles up empty chats."""
        if not self.list.isEnabled():
            return
        self.search_field.clear()
        current = self.current if self.list.currentRow() >= 0 else None
        blank = current if current is not None and is_blank(current) else next(
            (c for c in self.conversations() if is_blank(c)), None)
        if blank is None:
            self._insert(Conversation(updated_at=time.time()))
            return
        blank.updated_at = time.time()  # at the top, as a new one would be
        self._resort()
        self._select(self.row_of(blank))

    @Slot()
    def _on_new_chat(self) -> None:
        self.new_chat()
        self.chosen.emit()

    @Slot(QListWidgetItem)
    def _on_item_chosen(self, item: QListWidgetItem) -> None:
        if self.list.state() != QAbstractItemView.State.EditingState:
            self.chosen.emit()

    def _insert(self, conv: Conversation) -> None:
        self.list.blockSignals(True)
        self.list.insertItem(0, self._item(conv))
        self.list.blockSignals(False)
        self._resort()
        self._select(self.row_of(conv))

    def _select(self, row: int) -> None:
        """Make `row` current and show it, once (whether or not the row number changed)."""
        self.list.blockSignals(True)
        self.list.setCurrentRow(row)
        self.list.blockSignals(False)
        self._on_row_changed(self.list.currentRow())

    def add_conversation(self, conv: Conversation) -> bool:
        """Show a conversation made elsewhere (an opened trace, an import) at the top,
        selected; False while an answer streams, as for New chat."""
        if not self.list.isEnabled():
            return False
        if not conv.updated_at:
            conv.updated_at = time.time()
        self._insert(conv)
        return True

    def rename(self, conv: Conversation, title: str) -> None:
        """The person's title for a chat: kept from now on, whatever its first question."""
        title = " ".join(title.split())
        if not title or title == conv.title:
            return
        conv.title, conv.renamed = title, True
        row = self.row_of(conv)
        if row >= 0:
            self.list.blockSignals(True)
            self.list.item(row).setText(title)
            self.list.blockSignals(False)
        self.session.update_chat(conv, title=True)

    def set_pinned(self, conv: Conversation, pinned: bool) -> None:
        conv.pinned = pinned
        self.session.update_chat(conv, pinned=True)
        self._resort()

    def delete_chat(self, row: int) -> None:
        """Remove a conversation from the list and the store, with Undo offered a while."""
        if not self.list.isEnabled() or not 0 <= row < self.list.count():
            return
        conv = self._conv(row)
        self._on_undo_expired()  # one delete can be undone at a time
        self.session.delete_chat(conv)
        self.list.blockSignals(True)  # the row signals of a removal would show a half state
        self.list.takeItem(row)
        self.list.blockSignals(False)
        if conv.chat_id is not None or conv.turns:
            self._deleted = conv
            # a few words that fit beside Undo in the narrow list; the title in the tooltip
            self.undo_label.set_full_text(self.tr("Chat deleted."))
            self.undo_label.setToolTip(text_tooltip(
                self.tr("Deleted “{title}”.").format(title=conv.title)))
            self.undo_bar.show()
            self._undo_timer.start()
        if not self.list.count():
            self.new_chat()
            return
        self._select(min(row, self.list.count() - 1))

    @Slot()
    def undo_delete(self) -> None:
        conv, self._deleted = self._deleted, None
        self._undo_timer.stop()
        self.undo_bar.hide()
        if conv is not None:
            self.session.restore_chat(conv)
            self._insert(conv)

    @Slot()
    def _on_undo_expired(self) -> None:
        self._deleted = None
        self.undo_bar.hide()

    @Slot()
    def _on_rename(self) -> None:
        item = self.list.currentItem()
        if item is not None and self.list.isEnabled():
            self.list.editItem(item)

    @Slot(QListWidgetItem)
    def _on_item_changed(self, item: QListWidgetItem) -> None:
        conv = item.data(CONV_ROLE)
        if conv is not None and item.text() != conv.title:
            if item.text().strip():
                self.rename(conv, item.text())
            else:  # an empty title is not a title
                self.list.blockSignals(True)
                item.setText(conv.title)
                self.list.blockSignals(False)

    @Slot()
    def _on_pin(self) -> None:
        if self.list.currentRow() >= 0 and self.list.isEnabled():
            self.set_pinned(self.current, not self.current.pinned)

    @Slot()
    def _on_delete_chat(self) -> None:
        self.delete_chat(self.list.currentRow())

    # Selecting -----------------------------------------------------------------------------

    @Slot(int)
    def _on_row_changed(self, row: int) -> None:
        if row < 0:
            return
        conv = self._conv(row)
        self.session.load(conv)  # off the GUI thread; `selected` again when it is in
        self.selected.emit(conv)

    @Slot(object)
    def _on_loaded(self, conv: Conversation) -> None:
        if self.list.currentRow() >= 0 and self.current is conv:
            self.selected.emit(conv)

    @Slot(QPoint)
    def _on_menu(self, pos: QPoint) -> None:
        item = self.list.itemAt(pos)
        if item is None or not self.list.isEnabled():
            return
        self.list.setCurrentItem(item)  # the action applies to the chat clicked
        self.pin_action.setText(self.tr("Un&pin "
                                        "chat") if self.current.pinned else self.tr("&Pin chat"))
        menu = QMenu(self)
        for action in (self.rename_action, self.pin_action, self.delete_chat_action):
            menu.addAction(action)
        menu.addSeparator()
        for action in (self.export_markdown_action, self.export_json_action):
            menu.addAction(action)
        menu.exec(self.list.viewport().mapToGlobal(pos))
        menu.deleteLater()

    # Search --------------------------------------------------------------------------------

    @Slot(str)
    def _on_search_typed(self, text: str) -> None:
        self._search_text = text.strip()
        if not self._search_text:
            self._search_timer.stop()
            self._last_hits = None
            self._apply_filter(None)
            return
        self._search_timer.start()

    @Slot()
    def _run_search(self) -> None:
        text = self._search_text

        def found(hits: list[SearchHit]) -> None:
            if text != self._search_text:
                return  # typed on meanwhile
            self._last_hits = {h.chat_id: h.snippet for h in hits}
            self._apply_filter(self._last_hits)

        self.session.search(text, found)

    def search(self, text: str) -> None:
        """Search now (the field's text), as typing does after a pause."""
        self.search_field.setText(text)
        self._search_timer.stop()
        self._run_search()

    def _apply_filter(self, hits: dict[int, str] | None) -> None:
        words = self._search_text.casefold().split()
        for row in range(self.list.count()):
            item = self.list.item(row)
            conv: Conversation = item.data(CONV_ROLE)
            if hits is None:
                item.setHidden(False)
                item.setToolTip("")
                continue
            in_title = all(w in conv.title.casefold() for w in words)
            snippet = hits.get(conv.chat_id) if conv.chat_id is not None else None
            item.setHidden(not (in_title or snippet is not None))
            item.setToolTip(text_tooltip(snippet or ""))
        self.list.doItemsLayout()

    def visible_titles(self) -> list[str]:
        return [self.list.item(r).text() for r in range(self.list.count())
                if not self.list.item(r).isHidden()]

    # Export and import -----------------------------------------------------------------------

    def _on_export(self, fmt: str) -> None:
        if self.list.currentRow() < 0:
            return
        conv = self.current
        suffix, filt = ((".json", self.tr(JSON_FILTER)) if fmt == "json"
                        else (".md", self.tr(MARKDOWN_FILTER)))
        name = "".join(c if c.isalnum() or c in " -_" else "_" for c in conv.title)[:60]
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export the chat"),
                                              str(Path.home() / f"{name}{suffix}"), filt)
        if path:
            self.export(conv, path, fmt)

    def export(self, conv: Conversation, path: str, fmt: str) -> None:
        """Write a chat as JSON (`fmt` "json") or Markdown, off the GUI thread."""
        self.session.export(conv, path, fmt, lambda p: self.info.emit(
            self.tr("Exported to {path}").format(path=p)))

    @Slot()
    def _on_import(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Import a chat"), str(Path.home()),
                                              self.tr("{json};;All files (*)").format(
                                                  json=self.tr(JSON_FILTER)))
        if path:
            self.import_chat(path)

    def import_chat(self, path: str) -> None:
        """Read a chat exported as JSON off the GUI thread, then list and show it."""
        def done(conv: Conversation) -> None:
            if not self.add_conversation(conv):
                self.list.blockSignals(True)  # listed, not shown, while an answer streams
                self.list.addItem(self._item(conv))
                self.list.blockSignals(False)
                self._resort()
            self.info.emit(self.tr("Imported “{title}”").format(title=conv.title))
        self.session.import_file(path, done)
