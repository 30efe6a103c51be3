"""What a person does with the messages of a chat, handed over by the main window: versions
of a message ("2 / 3") to flip between, edit a question and answer it again, copy, continue or
regenerate an answer that stopped, the settings an answer was made with (shown, restorable
with one click), the chat's system prompt, and the context: how much is used, and the notice
with its choice before a message would not fit.

It draws the transcript of a conversation (each version with its own coloured tokens and
numbers, kept on its Answer) and asks the window, by signals, to answer or send; it never
talks to the engine."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractButton,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QStatusBar,
    QWidget,
)

from app.chat.action_widgets import ACTION, VersionSwitch, action_button, settings_words
from app.chat.context_budget import context_use, turns_to_drop
from app.chat.context_notice import DROP, NEW_CHAT, SUMMARISE, ContextNotice
from app.chat.conversation import Conversation, Turn
from app.chat.made_with import settings_of
from app.chat.message_box import MessageEditBox
from app.models.model_names import answer_model_file
from app.shell.theme import token_colours
from app.transcript.message_widgets import AnswerWidget, UserMessageWidget, plain_label
from app.widgets.copy_feedback import copy_text
from app.widgets.status_line import StatusLine
from backend.stop_reasons import INTERRUPTED

if TYPE_CHECKING:
    from app.chat.answer_flow import AnswerFlow
    from app.chat.message_box import MessageBox
    from app.panel.generation_panel import GenerationPanel

STOPPED = (INTERRUPTED, "cancelled", "length", "context_full")
DROPPED = "droppedLabel"  # a message's mark: the model is no longer sent it
SUMMARY_PROMPT = ("Summarise our conversation so far in one short paragraph, keeping every "
                  "name, number and decision, so that we can go on from the summary alone.")
class ChatActions(QObject):
    answer_requested = Signal()  # answer the conversation's last message now
    send_requested = Signal(str)  # send this text as the person would
    regenerate_requested = Signal()
    continue_requested = Signal(object)  # the Turn whose stopped answer goes on
    open_model = Signal(str)  # load this target (restoring an answer's settings)

    def __init__(self, flow: AnswerFlow, message_box: MessageBox, panel: GenerationPanel,
                 status: QStatusBar) -> None:
        super().__init__(flow)
        self.flow = flow
        self._message_box = message_box
        self._panel = panel
        self._status = status
        self._busy = False
        self._pending: str | None = None  # the message the context notice held back
        self._summary: Turn | None = None  # the summary answer asked for by the notice
        self.system_prompt_field = QLineEdit()
        self.system_prompt_field.setPlaceholderText(self.tr("System prompt for this chat "
                                                            "(optional)"))
        self.system_prompt_field.setToolTip(self.tr("Sent before the conversation with every "
                                                    "answer in this chat"))
        self.system_prompt_row = QWidget()  # what the window lays out above the transcript
        row = QHBoxLayout(self.system_prompt_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(plain_label(self.tr("System prompt")))
        row.addWidget(self.system_prompt_field, 1)
        self.context_label = StatusLine()  # its changes lay nothing out again
        self.context_label.setObjectName("statsLabel")
        self.notice = ContextNotice()
        self.system_prompt_field.editingFinished.connect(self._on_system_prompt)
        self.notice.chosen.connect(self._on_notice_choice)

    @property
    def conversation(self) -> Conversation:
        return self.flow.conversation

    # Drawing -------------------------------------------------------------------------------

    def show(self, conv: Conversation, start: int = 0) -> None:
        """Draw the versions shown of a conversation, each message with its actions; from
        message `start` on only (the ones before it are drawn already)."""
        transcript = self.flow.transcript
        if start == 0:
            transcript.clear()
        else:
            transcript.remove_trailing(len(transcript.entries()) - start)
        for turn in conv.turns[start:]:
            if turn.role == "user":
                self.decorate_user(transcript.add_user(turn.text), turn)
            elif turn.answer is not None:
                self.decorate_answer(transcript.add_answer(turn.answer), turn)
        status = self._status
        if not conv.loaded:  # shown again once its messages are read
            status.showMessage(self.tr("Reading the chat…"), 3000)
        elif status.currentMessage() == self.tr("Reading the chat…"):
            status.clearMessage()
        self.system_prompt_field.setText(conv.system_prompt)
        self.notice.hide()
        self.mark_dropped()
        self.update_context()
        self.set_busy(self._busy)

    def decorate_user(self, widget: UserMessageWidget, turn: Turn) -> None:
        for entry in self.flow.transcript.entries():  # only the last answer offers to go on
            for row in entry.findChildren(QWidget, "stoppedRow"):
                row.hide()
        header = widget.header
        if len(turn.versions) > 1:
            header.addWidget(VersionSwitch(turn, self.flip))
        edit = action_button(self.tr("Edit"), self.tr(
            "Change this message and answer it again (the earlier answers stay as versions)"))
        copy = action_button(self.tr("Copy"), self.tr("Copy this message's text"))
        copy.setObjectName("copyButton")  # copying is fine while an answer streams
        header.addWidget(edit)
        header.addWidget(copy)
        edit.clicked.connect(lambda: self._open_editor(widget, turn))
        copy.clicked.connect(lambda: copy_text(copy, turn.text))

    def decorate_answer(self, widget: AnswerWidget, turn: Turn) -> None:
        widget.model_file = answer_model_file(turn.settings)  # as the window names models
        widget.refresh()
        if len(turn.versions) > 1:
            widget.header.insertWidget(1, VersionSwitch(turn, self.flip))
        if turn.settings:
            row = QWidget()
            row.setObjectName("settingsRow")
            lay = QHBoxLayout(row)
            lay.setContentsMargins(0, 0, 0, 0)
            label = plain_label(self.tr("Made with {settings}").format(
                settings=settings_words(turn.settings)))
            label.setObjectName("statsLabel")
            use = action_button(self.tr("Use these settings"),
                          self.tr("Set the generation panel to these settings and load this "
                                  "model") if turn.settings.get("model_path")
                          else self.tr("Set the generation panel to these settings"))
            lay.addWidget(label, 1)
            lay.addWidget(use)
            use.clicked.connect(lambda: self.restore_settings(turn))
            widget.layout().addWidget(row)
        self._offer_continue(widget, turn)

    def _offer_continue(self, widget: AnswerWidget, turn: Turn) -> None:
        """Continue and Regenerate under the last answer when it stopped before its end."""
        answer = turn.answer
        if answer is not None and answer.stop_reason in STOPPED and answer.text and (
                self.conversation.turns[-1:] == [turn]) and widget.findChild(
                QWidget, "stoppedRow") is None:
            row = QWidget()
            row.setObjectName("stoppedRow")
            lay = QHBoxLayout(row)
            lay.setContentsMargins(0, 0, 0, 0)
            cont = action_button(self.tr("Continue"),
                           self.tr("Ask the model to go on from where this answer stopped"))
            again = action_button(self.tr("Regenerate"), self.tr("Answer the question again (this "
                                                           "answer stays as a version)"))
            lay.addWidget(plain_label(self.tr("This answer stopped before its end.")), 1)
            lay.addWidget(cont)
            lay.addWidget(again)
            cont.clicked.connect(lambda: self.continue_requested.emit(turn))
            again.clicked.connect(self.regenerate_requested)
            widget.layout().addWidget(row)

    def set_busy(self, busy: bool) -> None:
        """Grey the actions that change the conversation while an answer streams."""
        self._busy = busy
        self.system_prompt_field.setEnabled(not busy)
        for entry in self.flow.transcript.entries():
            for b in entry.findChildren(QAbstractButton, ACTION):
                b.setEnabled(not busy and not b.property("limit"))

    def mark_dropped(self) -> None:
        """Dim the messages left out of what the model is sent, and say why on hover."""
        conv = self.conversation
        entries = self.flow.transcript.entries()
        if len(entries) != len(conv.turns):
            return
        for i, entry in enumerate(entries):
            dropped = i < conv.dropped_turns
            label = entry.findChild(QLabel, DROPPED)
            if dropped and label is None and isinstance(entry, AnswerWidget | UserMessageWidget):
                label = plain_label(self.tr("left out of the context"))
                label.setObjectName(DROPPED)
                label.setWordWrap(False)
                label.setStyleSheet(f"color: {token_colours(entry).rejected_fg};")
                label.setToolTip(self.tr("The model is no longer sent this message, so that the "
                                         "chat fits in its context"))
                entry.header.insertWidget(1, label)
            elif not dropped and label is not None:
                label.deleteLater()

    def update_context(self) -> None:
        conv = self.conversation
        gs = self._panel.generation_settings()
        use = context_use(conv, self._panel.n_ctx.value(), gs.max_tokens)
        words = use.words()
        if conv.dropped_turns:
            words += self.tr(" · the {n} oldest messages are left out").format(
                n=conv.dropped_turns)
        self.context_label.setText(words)
        self.context_label.setToolTip(self.tr("What this chat sends the model, out of the context "
                                              "it is loaded with"))

    # Versions and edits ----------------------------------------------------------------------

    def flip(self, turn: Turn, step: int) -> None:
        """Show the previous (-1) or next (+1) version of a message."""
        versions = turn.versions
        i = versions.index(turn) + step
        if self._busy or not 0 <= i < len(versions):
            return
        conv = self.conversation
        where = conv.turns.index(turn)
        conv.choose(versions[i])
        self.flow.chats.choose(versions[i])
        self.show(conv, self._drawn_before(conv, where))

    def _open_editor(self, widget: UserMessageWidget, turn: Turn) -> None:
        if self._busy or widget.findChild(MessageEditBox, "editor") is not None:
            return
        editor = MessageEditBox(turn.text)
        editor.setToolTip(self.tr("Enter sends the new version, Shift+Enter adds a line, Esc "
                                  "cancels"))
        send = QPushButton(self.tr("Send"))
        cancel = QPushButton(self.tr("Cancel"))
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(cancel)
        row.addWidget(send)
        layout = widget.layout()
        layout.addWidget(editor)
        layout.addLayout(row)
        widget.text_label.hide()
        editor.show()  # now, not on the next turn of the event loop: a hidden box takes no focus
        editor.setFocus()
        send.clicked.connect(lambda: self.edit(turn, editor.toPlainText()))
        editor.submitted.connect(lambda: self.edit(turn, editor.toPlainText()))
        cancel.clicked.connect(self._cancel_edit)
        editor.cancelled.connect(self._cancel_edit)

    @Slot()
    def _cancel_edit(self) -> None:
        self.show(self.conversation)  # the message as it was, its editor gone
        self._message_box.setFocus()

    def edit(self, turn: Turn, text: str) -> bool:
        """Ask a new version of a question and answer it; the earlier question and its
        answers stay reachable as versions. False when it cannot be done now."""
        text = text.strip()
        conv = self.conversation
        if self._busy or not text or turn not in conv.turns or turn.role != "user":
            return False
        title = conv.title
        where = conv.turns.index(turn)
        new = conv.edit_user(turn, text)
        self.flow.chats.save_user(conv, new)
        if conv.title != title:
            self.flow.chats.update_chat(conv, title=True)
        self.flow.chat_list.update_title()
        self.show(conv, self._drawn_before(conv, where))
        self._message_box.setFocus()  # the editor is gone; the next message goes there
        self.answer_requested.emit()
        return True

    def _drawn_before(self, conv: Conversation, index: int) -> int:
        """How many transcript entries stand for `conv.turns[:index]` (one a turn, when the
        transcript is this conversation's; else 0: draw it all)."""
        drawn = len(self.flow.transcript.entries())
        shown = [t for t in conv.turns if t.role == "user" or t.answer is not None]
        return index if index <= drawn and len(shown) == len(conv.turns) else 0

    def restore_settings(self, turn: Turn) -> None:
        """Set the panel to what an answer was made with, and load its model if another is."""
        gs = settings_of(turn)
        if gs is None:
            return
        self._panel.set_generation_settings(gs)
        s = turn.settings or {}
        path = s.get("model_path") or ""
        target = self.flow.models.target
        if path and (target is None or target.path != path) and Path(path).is_file():
            self.open_model.emit(path)
        self._status.showMessage(self.tr("The answer's settings are back in the "
                                                "panel."), 5000)

    # System prompt ---------------------------------------------------------------------------

    @Slot()
    def _on_system_prompt(self) -> None:
        self.set_system_prompt(self.system_prompt_field.text())

    def set_system_prompt(self, text: str) -> None:
        conv = self.conversation
        if text == conv.system_prompt:
            return
        conv.system_prompt = text
        if self.system_prompt_field.text() != text:
            self.system_prompt_field.setText(text)
        if conv.chat_id is not None or conv.turns:  # a new chat saves it with its first message
            self.flow.chats.update_chat(conv, system_prompt=True)
        self.update_context()

    # Context ---------------------------------------------------------------------------------

    def fits(self, text: str) -> bool:
        """Whether `text` and its answer fit in the context; if not, the notice says so and
        offers the choice (the message waits in the box)."""
        conv = self.conversation
        gs = self._panel.generation_settings()
        n_ctx = self._panel.n_ctx.value()
        use = context_use(conv, n_ctx, gs.max_tokens, text)
        if use.fits:
            self.notice.hide()
            return True
        self._pending = text
        self.notice.offer(use, turns_to_drop(conv, n_ctx, gs.max_tokens, text),
                          len(conv.turns))
        return False

    @Slot(str)
    def _on_notice_choice(self, choice: str) -> None:
        text, self._pending = self._pending, None
        if text is None or self._busy:
            return
        conv = self.conversation
        if choice == NEW_CHAT:
            system_prompt = conv.system_prompt
            self.flow.chat_list.new_chat()
            self.set_system_prompt(system_prompt)  # the new chat keeps the instructions
            self.send_requested.emit(text)
        elif choice == DROP:
            gs = self._panel.generation_settings()
            n = turns_to_drop(conv, self._panel.n_ctx.value(), gs.max_tokens, text)
            if n is None:
                return
            conv.dropped_turns = n
            self.flow.chats.update_chat(conv, dropped_turns=True)
            self.mark_dropped()
            self.update_context()
            self.send_requested.emit(text)
        elif choice == SUMMARISE:
            self._pending_after_summary = text
            if self.flow.send(SUMMARY_PROMPT, check_context=False):
                self._summary = conv.turns[-1]

    def answer_ended(self, turn: Turn) -> None:
        """An answer ended: the numbers, and after a summary the message that waited for it,
        sent with the turns before the summary left out."""
        self.update_context()
        self._message_box.claim_focus()  # where the person types the next message
        for widget in self.flow.transcript.answer_widgets()[-1:]:
            if widget.answer is turn.answer:
                self._offer_continue(widget, turn)
                self.set_busy(self._busy)
        if self._summary is None or turn is not self._summary:
            return
        self._summary = None
        conv = self.conversation
        text = self._pending_after_summary
        if turn in conv.turns and turn.answer is not None and turn.answer.text:
            conv.dropped_turns = conv.turns.index(turn) - 1  # from the summary request on
            self.flow.chats.update_chat(conv, dropped_turns=True)
            self.mark_dropped()
            self.update_context()
            self.send_requested.emit(text)

    _pending_after_summary = ""
