"""Conversations as the window keeps them in memory (storing them is another issue). Qt-free."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.answer import Answer
from backend.engine.request import Message


@dataclass
class Turn:
    role: str  # "user" | "assistant"
    text: str = ""
    answer: Answer | None = None  # for assistant turns: the stream it came from

    @property
    def content(self) -> str:
        return self.answer.text if self.answer is not None else self.text


@dataclass
class Conversation:
    title: str = "New chat"
    turns: list[Turn] = field(default_factory=list)

    def messages(self) -> tuple[Message, ...]:
        """The history sent to the model: answers that failed or produced nothing are left
        out, so a retry does not see them."""
        return tuple(
            Message(t.role, t.content)
            for t in self.turns
            if t.role == "user" or (t.answer is not None and t.answer.text and not t.answer.error)
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
