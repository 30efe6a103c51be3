"""The widgets of one transcript entry: a user message, an assistant answer, an error."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, Qt, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.backend_text import draft_length_words, spec_caption, words_text
from app.formatting import plain_tooltip
from app.shell.style import CARD_MARGINS, CARD_SPACING, RADIUS_CARD, SPACE_XS
from app.shell.theme import token_colours
from app.teaching.answer_advice import advice_line, advice_text
from app.teaching.stats_chart import AcceptChart
from app.transcript.answer import Answer, error_shown, format_stats
from app.transcript.markdown_view import MarkdownView
from app.transcript.token_formats import TokenFormats
from app.transcript.token_view import TokenView, cut_text
from app.widgets.copy_feedback import copy_text
from app.widgets.wrapped_label import WrappedLabel
from backend import spec_types
from backend.advisor import Advice
from backend.repetition import repeats_itself


def plain_label(text: str = "", *, selectable: bool = False) -> QLabel:
    """A QLabel that can never interpret model text as rich text (word-wrapped, laid out
    once per width: wrapped_label.py)."""
    label = WrappedLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setText(text)
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


# Text from a model, a file or a server is quoted in a tooltip up to this many characters.
TOOLTIP_CHARS = 2000


def text_tooltip(text: str) -> str:
    """A tooltip showing `text` from a model, a file or a server literally, cut to
    TOOLTIP_CHARS: Qt takes a tooltip that looks like markup for rich text, and would load
    whatever an <img> in it names (a local file, /dev/zero). "" (no tooltip) for ""."""
    return plain_tooltip(cut_text(text, TOOLTIP_CHARS)) if text else ""


class UserMessageWidget(QFrame):
    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("userMessage")  # a card (app/shell/style.py)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(*CARD_MARGINS)
        layout.setSpacing(CARD_SPACING)
        role = plain_label(self.tr("You"))
        role.setObjectName("roleLabel")
        # The row the chat's actions (versions, edit, copy: app/chat/chat_actions.py) join.
        self.header = QHBoxLayout()
        self.header.setContentsMargins(0, 0, 0, 0)
        self.header.addWidget(role, 1)
        layout.addLayout(self.header)
        self.text_label = plain_label(text, selectable=True)
        self.text_label.setObjectName("messageText")
        layout.addWidget(self.text_label)


class ErrorWidget(QFrame):
    def __init__(self, message: str, detail: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("errorMessage")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(*CARD_MARGINS)
        self.message_label = plain_label(message, selectable=True)
        layout.addWidget(self.message_label)
        if detail:
            self.message_label.setToolTip(text_tooltip(detail))
        colours = token_colours(self)
        self.setStyleSheet(f"#errorMessage {{ border: 1px solid {colours.rejected_fg}; "
                           f"border-radius: {RADIUS_CARD}px; }}")


# The answer's "Teach" menu: (tool, label); app/teaching/teaching_mode.py opens each tool.
TEACHING_TOOLS = (
    ("replay", QT_TRANSLATE_NOOP("AnswerWidget", "Replay step by step…")),
    ("race", QT_TRANSLATE_NOOP("AnswerWidget", "Race against plain decoding…")),
    ("charts", QT_TRANSLATE_NOOP("AnswerWidget", "Charts…")),
)


class AnswerWidget(QFrame):
    """An assistant answer: coloured tokens or Markdown, its numbers and its chart."""

    view_toggled = Signal(bool)  # True: Markdown view
    use_k = Signal(int)  # the advisor's "Use K = n": the draft length for the next answers
    check_lossless = Signal(object)  # "Check lossless" (app/teaching/lossless_check.py)
    export_requested = Signal(object)  # this widget: "Export…" (HTML, PNG or JSON trace)
    model_file = ""  # its model's file name, when known (app/chat/chat_actions.py): shown instead
    inspect = Signal(object, int)  # this widget, a clicked token's index in its TokenLog
    teach = Signal(object, str)  # this widget and a teaching tool: "replay", "race", "charts"

    def __init__(self, answer: Answer, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.answer = answer
        self.setObjectName("answer")  # a card (app/shell/style.py)
        self._rendered = 0

        self.title = plain_label()
        self.title.setObjectName("roleLabel")
        self.markdown_button = QToolButton(text=self.tr("Markdown"))
        self.markdown_button.setCheckable(True)
        self.markdown_button.setToolTip(self.tr("Switch between the coloured tokens and clean "
                                                "Markdown"))
        self.markdown_button.toggled.connect(self._on_markdown_toggled)
        self.copy_button = QToolButton(text=self.tr("Copy"))
        self.copy_button.setToolTip(self.tr("Copy the answer's text"))
        self.copy_button.clicked.connect(self._on_copy)
        self.export_button = QToolButton(text=self.tr("Export…"))
        self.export_button.setToolTip(self.tr("Save this answer as an HTML page, a PNG image or a "
                                              "JSON trace that Draftlight opens again"))
        self.export_button.clicked.connect(self._on_export)
        self.export_button.hide()  # shown once the answer has finished
        header = QHBoxLayout()
        self.header = header  # app/chat/chat_actions.py adds the versions switch here
        header.setContentsMargins(0, 0, 0, 0)
        header.addWidget(self.title, 1)
        # The answer's actions in a row under it (as Jan and LM Studio put them), so the
        # header keeps its width for the model's name and the spec type.
        actions = QHBoxLayout()
        actions.setContentsMargins(0, 0, 0, 0)
        actions.setSpacing(SPACE_XS)
        actions.addWidget(self.markdown_button)
        actions.addWidget(self.copy_button)
        self.check_button = QToolButton(text=self.tr("Check lossless"))
        self.check_button.setToolTip(self.tr("Decode the same conversation plainly and greedily "
                                             "and compare the tokens with this answer's"))
        self.check_button.clicked.connect(self._on_check_lossless)
        actions.addWidget(self.check_button)
        actions.addWidget(self.export_button)
        self.teach_button = QToolButton(text=self.tr("Teach"))
        self.teach_button.setToolTip(self.tr("Replay this answer step by step, race it against "
                                             "plain decoding, or chart its numbers"))
        self.teach_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        teach_menu = QMenu(self.teach_button)
        for tool, label in TEACHING_TOOLS:
            teach_menu.addAction(self.tr(label)).setData(tool)
        teach_menu.triggered.connect(self._on_teach)
        self.teach_button.setMenu(teach_menu)
        self.teach_button.hide()  # shown once the answer has finished
        actions.addWidget(self.teach_button)
        actions.addStretch(1)

        self.token_view = TokenView()
        self.token_view.token_clicked.connect(self._on_token_clicked)
        self.markdown_view: MarkdownView | None = None
        self._markdown_parts = 0  # the answer's parts the Markdown view shows
        self.stats_label = plain_label()
        self.stats_label.setObjectName("statsLabel")
        self.stats_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.chart = AcceptChart()
        self.chart.set_data(answer.accepted_lengths, answer.drafted_lengths, answer.n_draft_max)
        self.error_label = plain_label(selectable=True)
        self.error_label.setObjectName("answerError")
        self.error_label.hide()
        # Why Regenerate would write the same loop again (backend/repetition.py)
        self.loop_label = plain_label()
        self.loop_label.setObjectName("loopNote")
        self.loop_label.setWordWrap(True)
        self.loop_label.hide()
        # Why K auto decoded the answer plainly (adaptive_k.DID_NOT_PAY)
        self.plain_note = plain_label()
        self.plain_note.setObjectName("kAutoNote")
        self.plain_note.setWordWrap(True)
        self.plain_note.hide()
        # The advisor's line, shown once the window has advice for the finished answer.
        self.advice_label = plain_label()
        self.advice_label.setObjectName("adviceLabel")
        self.use_k_button = QToolButton()
        self.use_k_button.setToolTip(self.tr("Draft this many tokens per step from the next answer "
                                             "on"))
        self.use_k_button.clicked.connect(self._on_use_k)
        self.advice_row = QWidget()
        advice = QHBoxLayout(self.advice_row)
        advice.setContentsMargins(0, 0, 0, 0)
        advice.addWidget(self.advice_label, 1)
        advice.addWidget(self.use_k_button)
        self.advice_row.hide()
        self.advice: Advice | None = None

        layout = QVBoxLayout(self)
        layout.setContentsMargins(*CARD_MARGINS)
        layout.setSpacing(CARD_SPACING)
        layout.addLayout(header)
        layout.addWidget(self.token_view)
        layout.addWidget(self.error_label)
        layout.addWidget(self.loop_label)
        layout.addWidget(self.plain_note)
        layout.addWidget(self.stats_label)
        layout.addWidget(self.chart)
        layout.addWidget(self.advice_row)
        layout.addLayout(actions)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.refresh()

    # Rendering ---------------------------------------------------------------------------

    def pending_tokens(self) -> int:
        return len(self.answer.tokens) - self._rendered

    def render_pending(self, max_tokens: int | None = None) -> int:
        """Draw up to `max_tokens` stored tokens not yet shown (all when None); returns how
        many were drawn. The tokens stay on the Answer, so this also redraws from scratch."""
        log = self.answer.tokens
        start = self._rendered
        end = len(log) if max_tokens is None else min(len(log), start + max_tokens)
        self.token_view.append_tokens(log, start, end)
        self._rendered = end
        return end - start

    def recolour(self) -> None:
        """Redraw if the window's token colours changed (nothing to do otherwise)."""
        if token_colours(self) is not self.token_view.formats.colours:
            self.rerender()

    def rerender(self) -> None:
        """Draw everything again (new theme colours)."""
        self.token_view.formats = TokenFormats(token_colours(self))
        self.token_view.clear_tokens()
        self._rendered = 0
        self.render_pending()
        self.refresh()

    def refresh(self, numbers: bool = True) -> None:
        """The header, numbers and chart from the Answer as it stands; `numbers=False` leaves
        the numbers and chart for a later call (they are throttled while streaming)."""
        a = self.answer
        if not numbers and not a.done:
            return
        self.export_button.setVisible(a.done)
        self.teach_button.setVisible(a.done and len(a.tokens) > 0)
        title = self.tr("Assistant")
        if self.model_file or a.model_name:
            title += f" · {self.model_file or a.model_name}"
        spec = spec_types.get(a.spec_type)
        title += f" · {spec_caption(a.spec_type)}"
        if spec is not None and spec.drafts:
            title += f", {draft_length_words(a.spec_type, a.n_draft_max)}"
        self.title.setText(title)
        self.stats_label.setText(format_stats(a))
        self.chart.set_data(a.accepted_lengths, a.drafted_lengths, a.n_draft_max)
        # a server answer is "plain" here but may report its steps' drafts (Stats.*_per_step)
        self.chart.setVisible(a.spec_type != spec_types.PLAIN or self.chart.has_drafts())
        self.check_button.setVisible(a.done)
        if a.error:
            self.error_label.setText(error_shown(a))
            self.error_label.setToolTip(text_tooltip(a.error_detail))
            self.error_label.show()
        if a.done and self.loop_label.isHidden() and a.stop_reason == "length" and (
                repeats_itself(a.text)):
            self.loop_label.setText(self.tr(
                "This answer went round in a loop until the token limit. The same settings "
                "write the same words again: raise Repeat penalty or Temperature (Sampling) "
                "before Regenerate."))
            self.loop_label.show()
        if a.note is not None and self.plain_note.isHidden():
            self.plain_note.setText(words_text(a.note))
            self.plain_note.show()
        if self.markdown_view is not None and self.markdown_button.isChecked():
            self._markdown_catch_up()

    def show_advice(self, advice: Advice) -> None:
        """The advisor's line; "Use K" only when speculation is expected to pay (under the
        warning the advice is plain decoding, which no K gives) and the answer drafted chains
        (a tree answer's line weighs its trees against its chains, not K)."""
        self.advice = advice
        self.advice_label.setText(advice_line(advice))
        # the whole reasoning, notes included (they may name a model)
        self.advice_label.setToolTip(text_tooltip(advice_text(advice)))
        # The warning in the rejected drafts' colour, so that "slower" is not read past.
        self.advice_label.setStyleSheet(
            f"color: {token_colours(self).rejected_fg};"
            if advice.warning and advice.trees is None else "")
        offer = (advice.best_k is not None and advice.warning is None
                 and advice.trees is None)
        if offer:
            self.use_k_button.setText(self.tr("Use K = {k}").format(k=advice.best_k))
        self.use_k_button.setVisible(offer)
        self.advice_row.show()

    # Slots -------------------------------------------------------------------------------

    @Slot()
    def _on_use_k(self) -> None:
        if self.advice is not None and self.advice.best_k is not None:
            self.use_k.emit(self.advice.best_k)

    @Slot(bool)
    def _on_markdown_toggled(self, markdown: bool) -> None:
        if markdown and self.markdown_view is None:
            self.markdown_view = MarkdownView()
            self.layout().insertWidget(2, self.markdown_view)
        if self.markdown_view is not None:
            if markdown:
                self.markdown_view.set_text(self.answer.text)  # once, on the person's click
                self._markdown_parts = len(self.answer.parts)
            self.markdown_view.setVisible(markdown)
        self.token_view.setVisible(not markdown)
        self.view_toggled.emit(markdown)

    def _markdown_catch_up(self) -> None:
        """Add what streamed in since the Markdown view last looked (the text of a streaming
        answer is its parts), never the whole answer again."""
        assert self.markdown_view is not None
        parts = self.answer.parts
        if len(parts) > self._markdown_parts:
            self.markdown_view.append("".join(parts[self._markdown_parts:]))
            self._markdown_parts = len(parts)

    @Slot()
    def _on_teach(self, action: QAction) -> None:
        self.teach.emit(self, action.data())

    def _on_token_clicked(self, index: int) -> None:
        self.inspect.emit(self, index)

    def _on_copy(self) -> None:
        copy_text(self.copy_button, self.answer.text)

    @Slot()
    def _on_check_lossless(self) -> None:
        self.check_lossless.emit(self)

    @Slot()
    def _on_export(self) -> None:
        self.export_requested.emit(self)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and (
            token_colours(self) is not self.token_view.formats.colours
        ):
            self.rerender()
