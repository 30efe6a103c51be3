"""The clean view of an answer: Markdown prose, with code blocks rendered by us in monospace
with a copy button. Built from the answer's text only (rejected drafts never appear here)."""

from __future__ import annotations

from PySide6.QtCore import Qt, QUrl, Slot
from PySide6.QtGui import QFontDatabase, QGuiApplication, QTextDocument
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from app.auto_height_text import AutoHeightTextEdit
from app.markdown_blocks import protect_prose, split_blocks

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
        self.copy_button = QToolButton(text="Copy")
        self.copy_button.setToolTip("Copy this code block")
        self.copy_button.clicked.connect(self._on_copy)
        header.addWidget(self.copy_button)
        self.view = AutoHeightTextEdit()
        self.view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.view.setLineWrapMode(self.view.LineWrapMode.WidgetWidth)
        self.view.setPlainText(code)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(header)
        layout.addWidget(self.view)
        self.setStyleSheet("#codeBlock { border: 1px solid palette(mid); border-radius: 4px; }")

    @Slot()
    def _on_copy(self) -> None:
        QGuiApplication.clipboard().setText(self.code)


class MarkdownView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._text: str | None = None
        self._code_blocks: list[CodeBlock] = []

    def set_text(self, text: str) -> None:
        if text == self._text:
            return
        self._text = text
        self._code_blocks = []
        while (item := self._layout.takeAt(0)) is not None:
            if item.widget():
                item.widget().deleteLater()
        for block in split_blocks(text):
            if block.kind == "code":
                code_block = CodeBlock(block.text, block.language)
                self._code_blocks.append(code_block)
                self._layout.addWidget(code_block)
            else:
                view = AutoHeightTextEdit()
                doc = _InertDocument(view)
                doc.setMarkdown(protect_prose(block.text), _FEATURES)
                view.setDocument(doc)
                self._layout.addWidget(view)

    def code_blocks(self) -> list[CodeBlock]:
        return list(self._code_blocks)
