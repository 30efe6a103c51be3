"""Conversations as the window keeps them in memory, and their form in the chat store
(backend/chats). Qt-free."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from app.answer import Answer
from app.token_log import TokenLog
from backend import spec_types
from backend.chats import TOKEN_FIELDS, StoredMessage
from backend.engine.events import Stats
from backend.engine.request import Message
from backend.stop_reasons import INTERRUPTED


@dataclass
class Turn:
    role: str  # "user" | "assistant"
    text: str = ""
    answer: Answer | None = None  # for assistant turns: the stream it came from
    message_id: int | None = None  # its row in the chat store, once saved
    saved_tokens: int = 0  # how many of its answer's tokens the chat store has

    @property
    def content(self) -> str:
        return self.answer.text if self.answer is not None else self.text


@dataclass
class Conversation:
    title: str = "New chat"
    turns: list[Turn] = field(default_factory=list)
    chat_id: int | None = None  # its row in the chat store, once its first message is saved
    loaded: bool = True  # False: listed from the store, turns not read yet

    def messages(self) -> tuple[Message, ...]:
        """The history sent to the model: answers that failed before producing anything are
        left out, so a retry does not see them; an interrupted answer's text is kept, as it is
        in the transcript."""
        return tuple(
            Message(t.role, t.content)
            for t in self.turns
            if t.role == "user" or (t.answer is not None and t.answer.text)
        )

    def add_user(self, text: str) -> Turn:
        if not any(t.role == "user" for t in self.turns):
            self.title = _title(text)
        turn = Turn("user", text)
        self.turns.append(turn)
        return turn

    def add_answer(self, answer: Answer) -> Turn:
        turn = Turn("assistant", answer=answer)
        self.turns.append(turn)
        return turn

    def drop_last_answer(self) -> bool:
        """Remove the last assistant turn (to regenerate it); False when there is none."""
        if self.turns and self.turns[-1].role == "assistant":
            self.turns.pop()
            return True
        return False


def _title(text: str, limit: int = 40) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def answer_record(answer: Answer) -> dict[str, Any]:
    """An answer's fields as ChatStore.save_answer's keyword arguments (its tokens are saved
    apart, by `new_tokens`). An answer still streaming, or one that ended without finishing,
    is recorded as interrupted, which is what it is if nothing else is ever saved for it."""
    return {
        "text": answer.final_text if answer.final_text is not None else "".join(answer.parts[:]),
        "model_name": answer.model_name,
        "spec_type": answer.spec_type,
        "n_draft_max": answer.n_draft_max,
        "stop_reason": answer.stop_reason or INTERRUPTED,
        "stats": dataclasses.asdict(answer.stats()),
    }


def new_tokens(answer: Answer, start: int) -> dict[str, list]:
    """The answer's tokens from `start` on, as ChatStore.append_tokens takes them: enough to
    redraw it coloured. Safe to call from another thread while the answer still streams: the
    GUI thread extends the token columns one after another, `text` last, so the columns cut at
    `text`'s length are whole tokens."""
    log = answer.tokens
    n = len(log.text)
    return {name: getattr(log, name)[start:n] for name in TOKEN_FIELDS}


def turn_from_message(message: StoredMessage) -> Turn:
    if message.role == "user":
        return Turn("user", message.text, message_id=message.id)
    answer = Answer(model_name=message.model_name, spec_type=message.spec_type or spec_types.PLAIN,
                    n_draft_max=message.n_draft_max, final_text=message.text,
                    stop_reason=message.stop_reason or "eos")
    known = {f.name for f in dataclasses.fields(Stats)}
    answer.final_stats = Stats(**{k: v for k, v in (message.stats or {}).items()
                                  if k in known})
    if message.tokens:
        log = answer.tokens
        for name in TOKEN_FIELDS:
            getattr(log, name).extend(message.tokens[name])
        answer.accepted_lengths, answer.drafted_lengths = _step_lengths(log)
        answer.n_steps = len(answer.accepted_lengths)
    return Turn("assistant", answer=answer, message_id=message.id,
                saved_tokens=len(answer.tokens))


def _step_lengths(log: TokenLog) -> tuple[list[int], list[int]]:
    """Accepted and drafted counts per step (the chart), counted back from the tokens."""
    accepted: list[int] = []
    drafted: list[int] = []
    last = None
    for step, origin, ok in zip(log.step, log.origin, log.accepted, strict=True):
        if step != last:
            accepted.append(0)
            drafted.append(0)
            last = step
        if origin != "target":
            drafted[-1] += 1
            accepted[-1] += bool(ok)
    return accepted, drafted
