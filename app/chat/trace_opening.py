"""Opening a recorded trace (backend/traces.py) as a conversation in the window.

The file is read and its events folded into an `Answer` on a pool thread (`Background`): a
long trace is megabytes of JSON, and the GUI thread never waits on a file. The answer is built
by `Answer.add` from the recorded events, steps folded into `StepBatch`es as the worker folds
the live stream, so the window draws it exactly as it drew the live answer: same colours, hover,
numbers and chart. Nothing is sent to the engine; the model name carries REPLAY_MARK so a
replay is never taken for a live run.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, Signal

from app.backend_text import error_text
from app.background import Background
from app.chat.chat_list import ChatList
from app.chat.chat_session import ChatSession
from app.chat.conversation import Conversation
from app.i18n import translate
from app.transcript.answer import Answer
from backend import spec_types
from backend.engine.events import Event, Stats, StepVerified, Token
from backend.engine.token_log import fold_steps
from backend.traces import Trace, TraceError, read_trace

REPLAY_MARK = QT_TRANSLATE_NOOP("TraceOpener", "(replayed from a trace)")  # shown translated


def trace_filter() -> str:
    """The open dialog's filters, in the window's language."""
    return translate("TraceOpener", "Draftlight traces (*.json);;All files (*)")


def answer_from_events(events: tuple[Event, ...] | list[Event], model_name: str = "") -> Answer:
    """The recorded events through `Answer.add`, as the live stream goes: runs of steps
    folded into one StepBatch each (fold_steps, the worker's own fold; one batch per run keeps
    a long trace's fold cheap, and gives the same tokens, texts and per-step lengths)."""
    answer = Answer(model_name=model_name)
    for item in fold_steps(events):
        answer.add(item)
    return answer


def conversation_from_trace(trace: Trace, file_name: str) -> Conversation:
    """The trace's messages, then its answer. The Conversation has no system turns, so a system
    message is left out (it is in the trace file); an earlier assistant message has no recorded
    tokens and is shown as one plain token of the target's."""
    conv = Conversation()
    if trace.request.prompt is not None:
        conv.add_user(trace.request.prompt)
    for message in trace.request.messages:
        if message.role == "user":
            conv.add_user(message.content)
        elif message.role == "assistant":
            conv.add_answer(_earlier_answer(message.content))
    if not any(t.role == "user" for t in conv.turns):
        conv.title = translate("TraceOpener", "Trace: {name}").format(name=file_name)
    name = " ".join(p for p in (trace.target_model, translate("TraceOpener", REPLAY_MARK)) if p)
    conv.add_answer(answer_from_events(trace.events, name))
    return conv


def _earlier_answer(text: str) -> Answer:
    answer = Answer(model_name=translate("TraceOpener", "earlier answer {mark}").format(
                        mark=translate("TraceOpener", REPLAY_MARK)), spec_type=spec_types.PLAIN,
                    final_text=text, stop_reason="eos", final_stats=Stats())
    # One token of the target's (id unknown), drawn in the target's colour as a plain answer
    # would be; added as a step is, so that every token column has it and the chat store,
    # which refuses columns of different lengths, saves this answer like any other.
    answer.tokens.add_step(StepVerified(0, (), 0, (Token(-1, text, "target", True),), 0.0, 0.0))
    answer.parts.append(text)
    return answer


def read_replay(path: str) -> Conversation:
    """Runs on a pool thread: the file read, checked and folded (TraceError when refused)."""
    return conversation_from_trace(read_trace(path), Path(path).name)


class TraceOpener(QObject):
    """Reads traces off the GUI thread and adds each as a new chat, saved; `opened` gives the
    Conversation, `failed` the reason in one sentence (TraceError's own words)."""

    opened = Signal(object)  # Conversation
    failed = Signal(str)

    def __init__(self, chat_list: ChatList, chats: ChatSession,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._chat_list = chat_list
        self._chats = chats
        self._reads = Background(self, name="trace reading")

    def open(self, path: str) -> None:
        path = str(path)
        self._reads.run(read_replay, path, on_result=self._add,
                        on_error=lambda exc: self._on_error(path, exc))

    def _add(self, conv: Conversation) -> None:
        if not self._chat_list.add_conversation(conv):  # selecting it draws it
            self.failed.emit(self.tr("Stop the answer first, then open the trace again."))
            return
        for turn in conv.turns:  # saved as a chat, its answer's model name marked as replayed
            if turn.role == "user":
                self._chats.save_user(conv, turn)
            else:
                self._chats.save_answer(conv, turn)
        self.opened.emit(conv)

    def _on_error(self, path: str, exc: Exception) -> None:
        # TraceError says why in one sentence; anything else is a bug, still said in words
        self.failed.emit(error_text(exc) if isinstance(exc, TraceError)
                         else self.tr("Could not open the trace {name}: {error}").format(
                             name=Path(path).name, error=error_text(exc)))

    def stop(self) -> None:
        self._reads.stop()
