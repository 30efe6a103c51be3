"""Conversations as the window keeps them in memory, and their form in the chat store
(backend/chats). Qt-free."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from app.i18n import translate
from app.transcript.answer import Answer
from backend import spec_types
from backend.chats import TOKEN_FIELDS, TREE_FIELD, StoredMessage
from backend.engine.events import Stats
from backend.engine.request import Message
from backend.engine.token_log import TokenLog
from backend.stop_reasons import INTERRUPTED
from backend.tree_json import tree_column, trees_of

# The stored columns the TokenLog holds as they are; the trees are the Answer's, by step.
LOG_FIELDS = tuple(name for name in TOKEN_FIELDS if name != TREE_FIELD)


@dataclass(eq=False)
class Turn:
    """One message. Turns form a tree: an edited question or a regenerated answer is a
    sibling of the one it replaces (its versions), and `chosen` is the child shown."""

    role: str  # "user" | "assistant" ("root": a conversation's invisible start)
    text: str = ""
    answer: Answer | None = None  # for assistant turns: the stream it came from
    message_id: int | None = None  # its row in the chat store, once saved
    saved_tokens: int = 0  # how many of its answer's tokens the chat store has
    settings: dict[str, Any] | None = None  # an answer's generation settings, when known
    parent: Turn | None = field(default=None, repr=False)
    children: list[Turn] = field(default_factory=list, repr=False)
    chosen: Turn | None = field(default=None, repr=False)

    @property
    def content(self) -> str:
        return self.answer.text if self.answer is not None else self.text

    @property
    def versions(self) -> list[Turn]:
        """This turn and the others in its place, oldest first."""
        return self.parent.children if self.parent is not None else [self]

    def version(self) -> tuple[int, int]:
        """(1-based number of this version, how many there are)."""
        versions = self.versions
        return versions.index(self) + 1, len(versions)

    def shown_child(self) -> Turn | None:
        return self.chosen if self.chosen is not None else (
            self.children[-1] if self.children else None)


@dataclass(eq=False)
class Conversation:
    title: str = field(default_factory=lambda: translate("Conversation", "New chat"))
    turns: list[Turn] = field(default_factory=list)  # the versions shown, in order
    chat_id: int | None = None  # its row in the chat store, once its first message is saved
    loaded: bool = True  # False: listed from the store, turns not read yet
    pinned: bool = False
    renamed: bool = False  # the title is the person's, not the first question's
    system_prompt: str = ""
    dropped_turns: int = 0  # the oldest shown turns left out of what the model is sent
    updated_at: float = 0.0
    root: Turn = field(default_factory=lambda: Turn("root"), repr=False)

    def __post_init__(self) -> None:
        # Turns given as a plain list (a history): link them one after another, unless they
        # belong to another conversation's tree already.
        if self.turns and not self.root.children and all(t.parent is None for t in self.turns):
            given, self.turns = self.turns, []
            for turn in given:
                self._append(turn)

    def messages(self) -> tuple[Message, ...]:
        """The history sent to the model: the system prompt, then the turns shown, less the
        oldest ones dropped to fit the context; answers that failed before producing
        anything are left out, so a retry does not see them; an interrupted answer's text is
        kept, as it is in the transcript."""
        system = (Message("system", self.system_prompt),) if self.system_prompt.strip() else ()
        return system + tuple(
            Message(t.role, t.content)
            for t in self.turns[min(self.dropped_turns, len(self.turns)):]
            if t.role == "user" or (t.answer is not None and t.answer.text)
        )

    def _append(self, turn: Turn) -> Turn:
        parent = self.turns[-1] if self.turns else self.root
        turn.parent = parent
        parent.children.append(turn)
        parent.chosen = turn
        self.turns.append(turn)
        return turn

    def add_user(self, text: str) -> Turn:
        if not any(t.role == "user" for t in self.turns) and not self.renamed:
            self.title = _title(text)
        return self._append(Turn("user", text))

    def add_answer(self, answer: Answer, settings: dict[str, Any] | None = None) -> Turn:
        return self._append(Turn("assistant", answer=answer, settings=settings))

    def cut_after(self, turn: Turn) -> None:
        """Show nothing after `turn` (what followed stays in the tree as a version)."""
        self.turns = self.turns[: self.turns.index(turn) + 1]

    def edit_user(self, turn: Turn, text: str) -> Turn:
        """A new version of a question, shown in its place with nothing after it yet."""
        first = next(t for t in self.turns if t.role == "user") is turn
        self.turns = self.turns[: self.turns.index(turn)]
        new = self._append(Turn("user", text))
        if first and not self.renamed:
            self.title = _title(text)
        return new

    def choose(self, turn: Turn) -> None:
        """Show `turn` in its place, and after it the versions last shown there."""
        assert turn.parent is not None
        turn.parent.chosen = turn
        where = next((i for i, t in enumerate(self.turns) if t.parent is turn.parent),
                     len(self.turns))
        self.turns = self.turns[:where]
        node: Turn | None = turn
        while node is not None:
            self.turns.append(node)
            node = node.shown_child()

    def drop_last_answer(self) -> bool:
        """Remove the last assistant turn from the conversation altogether (an answer that
        failed before writing anything); False when there is none."""
        if self.turns and self.turns[-1].role == "assistant":
            turn = self.turns.pop()
            if turn.parent is not None:
                turn.parent.children.remove(turn)
                turn.parent.chosen = None
            return True
        return False

    def load_messages(self, messages: Sequence[StoredMessage]) -> None:
        """The store's messages, every version (`ChatStore.load(all_versions=True)`), as this
        conversation's tree and the path shown."""
        self.root = Turn("root")
        self.turns = []
        by_id: dict[int, Turn] = {}
        for m in messages:
            turn = turn_from_message(m)
            parent = by_id.get(m.parent_id, self.root) if m.parent_id is not None else self.root
            turn.parent = parent
            parent.children.append(turn)
            if m.chosen:
                parent.chosen = turn
            by_id[m.id] = turn
        node = self.root.shown_child()
        while node is not None:
            self.turns.append(node)
            node = node.shown_child()
        self.loaded = True


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
    redraw it coloured, and its tree steps' trees. Safe to call from another thread while the
    answer still streams: the GUI thread extends the token columns one after another, `text`
    last, so the columns cut at `text`'s length are whole tokens, and it files a step's tree
    before its tokens (`Answer._add_steps`), so their trees are in."""
    log = answer.tokens
    n = len(log.text)
    tokens = {name: getattr(log, name)[start:n] for name in LOG_FIELDS}
    tokens[TREE_FIELD] = tree_column(log.step, answer.trees, start, n)
    return tokens


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
        for name in LOG_FIELDS:
            getattr(log, name).extend(message.tokens[name])
        # decoded and checked here, on the store's thread (ChatSession.load), not the GUI's
        answer.trees = trees_of(log.step, message.tokens.get(TREE_FIELD) or (),
                                f"message {message.id}")
        log.mark_branches(answer.trees)
        answer.accepted_lengths, answer.drafted_lengths = _step_lengths(log)
        answer.n_steps = len(answer.accepted_lengths)
    return Turn("assistant", answer=answer, message_id=message.id,
                saved_tokens=len(answer.tokens), settings=message.settings)


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
