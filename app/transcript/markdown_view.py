"""The clean view of an answer: Markdown prose, with code blocks rendered by us in monospace
with a copy button. Built from the answer's text only (rejected drafts never appear here)."""

from __future__ import annotations

from PySide6.QtCore import Qt, QUrl, Slot
from PySide6.QtGui import QFontDatabase, QTextDocument
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from app.transcript.markdown_blocks import Block, cut_runs, protect_prose, split_blocks
from app.transcript.token_view import MAX_TOKEN_CHARS, cut_text
from app.widgets.auto_height_text import AutoHeightTextEdit
from app.widgets.copy_feedback import copy_text

# Longer runs without a space are drawn cut, their length said (app/markdown_blocks.cut_runs);
# the answer and a code block's Copy keep them whole.
MAX_RUN_CHARS = MAX_TOKEN_CHARS

_FEATURES = (
    QTextDocument.MarkdownFeature.MarkdownDialectGitHub
    | QTextDocument.MarkdownFeature.MarkdownNoHTML  # model text must never become markup
)


class _InertDocument(QTextDocument):
    """Loads no resources: an image link in an answer must not make us read a local file."""

    def loadResource(self, kind: int, name: QUrl):
        return None


class CodeBlock(QWidget):
    def __init__(self, code: str, language: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.code = code
        self.setObjectName("codeBlock")
        header = QHBoxLayout()
        header.setContentsMargins(6, 2, 2, 0)
        lang = QLabel(language or "code")
        lang.setTextFormat(Qt.TextFormat.PlainText)
        header.addWidget(lang)
        header.addStretch(1)
        self.copy_button = QToolButton(text=self.tr("Copy"))
        self.copy_button.setToolTip(self.tr("Copy this code block"))
        self.copy_button.clicked.connect(self._on_copy)
        header.addWidget(self.copy_button)
        self.view = AutoHeightTextEdit()
        self.view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.view.setLineWrapMode(self.view.LineWrapMode.WidgetWidth)
        self.view.setPlainText(cut_runs(code, MAX_RUN_CHARS, cut_text))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(header)
        layout.addWidget(self.view)
        self.setStyleSheet("#codeBlock { border: 1px solid palette(mid); border-radius: 4px; }")

    @Slot()
    def _on_copy(self) -> None:
        copy_text(self.copy_button, self.code)


class MarkdownView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._text: str | None = None
        self._blocks: list[Block] = []  # as shown, one widget each, in order

    def set_text(self, text: str) -> None:
        """Show `text`, built anew."""
        if text == self._text:
            return
        self._text = ""
        self._remove_from(0)
        self.append(text)

    def append(self, more: str) -> None:
        """Show `more` after what is shown, as an answer streams. Only the last block (which
        `more` may continue) and the new ones are built again: the cost follows what
        arrived, not the length of the answer."""
        if not more:
            return
        start = self._blocks[-1].start if self._blocks else 0
        self._remove_from(len(self._blocks) - 1 if self._blocks else 0)
        self._text = (self._text or "") + more
        for block in split_blocks(self._text[start:]):
            block = Block(block.kind, block.text, block.language, start + block.start)
            self._blocks.append(block)
            if block.kind == "code":
                widget: QWidget = CodeBlock(block.text, block.language)
            else:
                widget = AutoHeightTextEdit()
                doc = _InertDocument(widget)
                doc.setMarkdown(protect_prose(cut_runs(block.text, MAX_RUN_CHARS, cut_text)),
                                _FEATURES)
                widget.setDocument(doc)
            self._layout.addWidget(widget)

    def _remove_from(self, index: int) -> None:
        """Drop the blocks from `index` on, and their widgets."""
        del self._blocks[index:]
        while self._layout.count() > index:
            item = self._layout.takeAt(index)
            if item.widget():
                item.widget().deleteLater()

    def code_blocks(self) -> list[CodeBlock]:
        widgets = (self._layout.itemAt(i).widget() for i in range(self._layout.count()))
        return [w for w in widgets if isinstance(w, CodeBlock)]
