"""The answer flow: send a message, answer it, regenerate, continue, stop, and save each answer
as it streams, handed the model session, the chat session, the chat list, the transcript and
the settings' source; it talks back by signals and owns no widget of its own.

One answer at a time: `generating` while the engine writes one, `waiting` while a message
waits for its model to load. The window derives every button from these two and the model
session (`MainWindow._update_actions`), so no state is set by hand in two places.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QCoreApplication, QObject, Signal, Slot
from PySide6.QtWidgets import QWidget

from app.backend_text import failure_text
from app.chat.chat_list import ChatList
from app.chat.chat_session import ChatSession
from app.chat.conversation import Conversation, Turn
from app.chat.made_with import record, request_for
from app.models.model_session import ModelSession
from app.shell.status_widgets import LOAD, failure_topics
from app.teaching.lossless_check import FAST_KERNELS, GPU, LosslessCheck
from app.transcript.answer import Answer
from app.transcript.message_widgets import AnswerWidget, UserMessageWidget
from app.transcript.transcript_view import TranscriptView
from backend.engine.events import GenerationFailed, GenerationFinished
from backend.engine.request import GenerationRequest
from backend.settings import GenerationSettings


class ChatDecorations(Protocol):
    """What the chat's actions (app/chat/chat_actions.py) add around the flow's messages."""

    def fits(self, text: str) -> bool: ...
    def decorate_user(self, widget: UserMessageWidget, turn: Turn) -> None: ...
    def decorate_answer(self, widget: AnswerWidget, turn: Turn) -> None: ...
    def answer_ended(self, turn: Turn) -> None: ...


def _tr(text: str) -> str:
    return QCoreApplication.translate("AnswerFlow", text)


class AnswerFlow(QObject):
    state_changed = Signal()  # generating or waiting changed
    problem = Signal(str, object)  # a sentence for the banner and its topics (a tuple)
    answers_work = Signal()  # an answer finished well: an earlier answer's failure is over
    info = Signal(str, int)  # a status-bar message and its time in ms (0: until replaced)
    info_cleared = Signal()

    def __init__(self, models: ModelSession, chats: ChatSession, chat_list: ChatList,
                 transcript: TranscriptView, settings: Callable[[], GenerationSettings],
                 n_ctx: Callable[[], int], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.models = models
        self.chats = chats
        self.chat_list = chat_list
        self.transcript = transcript
        self._settings = settings
        self._n_ctx = n_ctx
        self.decorations: ChatDecorations | None = None
        self.lossless = LosslessCheck(models.client, self)
        self._answering: tuple[int, Conversation, Turn] | None = None  # request id, where to
        self._waiting = False  # a sent message waits for its model to load
        transcript.check_lossless.connect(self.check_lossless)
        models.client.events_emitted.connect(self._on_events)
        models.models_ready.connect(self._on_models_ready)
        models.load_failed.connect(self._on_load_failed)
        models.load_cancelled.connect(self._on_load_cancelled)

    @property
    def generating(self) -> bool:
        return self._answering is not None

    @property
    def waiting(self) -> bool:
        return self._waiting

    @property
    def conversation(self) -> Conversation:
        return self.chat_list.current

    def build_request(self) -> GenerationRequest:
        """The request for the shown conversation as the settings stand now."""
        return request_for(self._settings(), self.conversation.messages())

    # Sending -------------------------------------------------------------------------------

    def send(self, text: str, *, check_context: bool = True) -> bool:
        """Add a user message and answer it; False when nothing can answer now, or when it
        would not fit in the context (the notice then offers what to do)."""
        models = self.models
        if self.generating:
            return False
        if models.target is None and not models.loading:
            self.problem.emit(_tr("Load a model first: File → Open GGUF… or the Target list."),
                              (LOAD,))
            return False
        conv = self.conversation
        if not conv.loaded:
            self.info.emit(_tr("The chat is still being read; send again."), 5000)
            return False
        decorations = self.decorations
        if check_context and decorations is not None and not decorations.fits(text):
            return False
        turn = conv.add_user(text)
        self.chats.save_user(conv, turn)
        self.chat_list.update_title()
        widget = self.transcript.add_user(text)
        if decorations is not None:
            decorations.decorate_user(widget, turn)
        if models.loading:  # answer as soon as the model is ready
            self._set_waiting(True)
            self.info.emit(_tr("The answer starts when the model has loaded."), 0)
            return True
        self.start_answer()
        return True

    @Slot()
    def start_answer(self) -> None:
        """Answer the conversation's last message with the settings as they stand."""
        gs = self._settings()
        conv = self.conversation
        target = self.models.target
        request = request_for(gs, conv.messages())
        answer = Answer(model_name=target.name if target else "",
                        spec_type=request.spec_type, n_draft_max=request.n_draft_max)
        turn = conv.add_answer(answer, record(gs, target.name if target else "",
                                              target.path if target else "", self._n_ctx(),
                                              conv))
        widget = self.transcript.start_answer(answer)
        if self.decorations is not None:
            self.decorations.decorate_answer(widget, turn)
        self._begin(request, conv, turn)

    @Slot()
    def regenerate(self) -> None:
        if self.generating or self.models.target is None:
            return
        conv = self.conversation
        last = conv.turns[-1] if conv.turns else None
        if last is not None and last.role == "assistant":
            if last.answer is not None and last.answer.text:
                conv.turns.pop()  # kept as a version of the answer (‹ 1 / 2 ›)
            else:  # it failed before writing anything: nothing to keep
                conv.drop_last_answer()
                self.chats.delete_message(last)
            self.transcript.remove_trailing(1)  # the new answer shows its versions
        if conv.turns and conv.turns[-1].role == "user":
            self.start_answer()

    @Slot(object)
    def continue_answer(self, turn: Turn) -> None:
        """Go on with a stopped or interrupted answer in place: the model is sent the
        conversation with the answer's words as its own so far, and what it writes extends
        the same answer (its tokens, numbers and saved message)."""
        conv = self.conversation
        answer = turn.answer
        if self.generating or self.models.target is None or answer is None or (
                conv.turns[-1:] != [turn]):
            return
        widget = next((w for w in self.transcript.answer_widgets() if w.answer is answer), None)
        if widget is None:
            return
        messages = conv.messages()
        if messages and messages[-1].role == "assistant":
            messages = messages[:-1]  # the answer goes in as the open turn, not a message
        request = dataclasses.replace(self.build_request(), messages=messages,
                                      continue_text=answer.text)
        answer.begin_continuation()
        for row in widget.findChildren(QWidget, "stoppedRow"):
            row.hide()  # Continue/Regenerate come back if it stops again
            row.setObjectName("")
            row.deleteLater()
        self.transcript.resume_answer(widget)
        self._begin(request, conv, turn)

    def _begin(self, request: GenerationRequest, conv: Conversation, turn: Turn) -> None:
        self._answering = (self.models.client.generate(request), conv, turn)
        self.info_cleared.emit()
        self.state_changed.emit()

    @Slot()
    def stop(self) -> None:
        if self.generating:
            self.models.client.stop()
        self._set_waiting(False)
        self.state_changed.emit()

    def stop_on_escape(self) -> bool:
        """Esc: stop the answer being written (or waiting for its model); False when there is
        none, so that Esc can mean something else (app/teaching/presentation.py)."""
        if not (self.generating or self._waiting):
            return False
        self.stop()
        return True

    def _set_waiting(self, waiting: bool) -> None:
        if waiting != self._waiting:
            self._waiting = waiting
            self.state_changed.emit()

    @Slot(object)
    def check_lossless(self, widget: AnswerWidget) -> None:
        """Decode the answer's conversation again plainly and greedily and compare (never
        saved in the chat; refused while an answer is being written)."""
        models = self.models
        target = models.target
        reordered_by = FAST_KERNELS if models.settings.models.kernels == "fast" else (
            GPU if target is not None and target.on_gpu else "")
        self.lossless.check(widget, self.conversation, self._settings(),
                            busy=self.generating or self._waiting or models.loading,
                            target_name=target.name if target else None,
                            reordered_by=reordered_by)

    # The engine's side ---------------------------------------------------------------------

    @Slot(object, object)
    def _on_models_ready(self, target, _draft) -> None:
        if self._waiting and target is not None:
            self._set_waiting(False)
            self.start_answer()

    @Slot(str, str)
    def _on_load_failed(self, role: str, _message: str) -> None:
        if role == "target":
            self._set_waiting(False)

    @Slot(str)
    def _on_load_cancelled(self, _role: str) -> None:
        self._set_waiting(False)

    @Slot(int, object)
    def _on_events(self, request_id: int, events: list) -> None:
        if self.lossless.feed(request_id, events):
            return  # a lossless check's plain run
        if self._answering is None or self._answering[0] != request_id:
            return  # a stopped request's last events
        _, conv, turn = self._answering
        last = events[-1]
        ended = isinstance(last, GenerationFinished | GenerationFailed)
        if ended:  # before feeding: feed() may draw the end and announce it at once
            self._answering = None
        self.transcript.feed(events)
        if not ended:
            self.chats.save_answer(conv, turn, partial=True)  # kept if anything dies
            return
        if (turn.answer is not None and turn.answer.tokens) or isinstance(last, GenerationFinished):
            # finished, stopped, or interrupted with what was written: all of it is kept
            self.chats.save_answer(conv, turn)
        if isinstance(last, GenerationFailed):
            self.problem.emit(failure_text(last), failure_topics(last))
        else:
            self.answers_work.emit()
        self.state_changed.emit()
        if self.decorations is not None:
            self.decorations.answer_ended(turn)

