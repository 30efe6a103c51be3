"""A saved conversation as a file: JSON with everything the store keeps (every version of every
message, each answer's tokens with their origin, verdict and probabilities, its stats and
settings), which `import_json` turns back into the same conversation; or Markdown of the
versions shown, to read. Qt-free.

An import is read whole before anything is stored (`read_chat`): the file is a regular file
of at most MAX_CHAT_BYTES, and its JSON is checked against `ChatFile`, the one declaration of
the format (backend/typed_json.py walks it): every value of its type, numbers finite and in
range (a count is never negative, a setting within its declared range), texts and lists
bounded, token columns of equal lengths, inspection records and draft trees that decode,
stats whose counts agree, each message after the one it follows. Fields this version does
not know are ignored (a later version adds fields without changing VERSION). An answer's
text must be its emitted tokens' texts put together, as the window saves it: an answer whose
coloured tokens say one thing and whose text (copied, exported, sent back to the model)
another is refused, not imported (backend/traces.py refuses such a trace for the same
reason). A refusal is one sentence, as Words, and nothing is stored.
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from backend import settings_schema as schema
from backend import spec_types
from backend.chats.store import ChatStore, StoredMessage
from backend.engine.events import Stats
from backend.settings_schema import Option
from backend.traces import (
    ENGINE_CHECKS,
    ENGINE_FIELDS,
    INSPECTION,
    NAME,
    PROBABILITY,
    TOKEN_ID,
    TOKEN_TEXT,
    start_without_tokens,
    text_problem,
)
from backend.tree_json import TREE_TEXT, tree_from_json
from backend.typed_json import Bounds, Schema, SchemaError, parse_json, read_file
from backend.words import Words, words, words_of

FORMAT = "draftlight-chat"
VERSION = 1
ANSWER_FIELDS = ("model_name", "spec_type", "n_draft_max", "stop_reason", "stats", "settings")
MAX_CHAT_BYTES = 256 << 20
MAX_MESSAGES = 1 << 16
MAX_ANSWER_TOKENS = 1 << 23  # a long answer's tokens, rejected drafts included
MAX_MESSAGE_TEXT = 1 << 25  # characters
MAX_LABEL = 4096  # characters of a title's, a model's name or a model file's path


# Why a file is refused as a conversation, as templates (backend/words.py).
CANNOT_READ = "Cannot read {name}: {error}."
NOT_JSON = "{name} is not a conversation exported by Draftlight: it is not JSON."
NOT_JSON_AT = ("{name} is not a conversation exported by Draftlight: it is not JSON (line "
               "{line}, column {column}: {error}).")
NOT_A_CONVERSATION = "This file is not a conversation exported by Draftlight."
OTHER_VERSION = ("This conversation file has version {version}; this Draftlight reads version "
                 "{ours}.")
PARENT_NOT_BEFORE = "Message {n} follows a message that is not before it."
TOKENS_NOT_WHOLE = "The tokens of message {n} are not whole."
NO_CHAT = "There is no chat {id}."


class ChatImportError(ValueError):
    """A file that is not a conversation exported by Draftlight; the message says why: its one
    argument, as Words (backend/words.py; `str(exc)` is the English sentence)."""

    def __init__(self, message: Words | str) -> None:
        super().__init__(message)


# The format, declared once ------------------------------------------------------------------

Label = Annotated[str, Bounds(most=MAX_LABEL)]
MANY = Bounds(most=MAX_ANSWER_TOKENS)  # a token column's length


@dataclass(frozen=True)
class TokenColumns:
    """An answer's tokens as the store keeps them (store.TOKEN_FIELDS): one list per column,
    all of one length. Columns added after the first version may be missing: stored empty."""

    text: Annotated[tuple[TOKEN_TEXT, ...], MANY]
    id: Annotated[tuple[TOKEN_ID, ...], MANY]
    origin: Annotated[tuple[NAME, ...], MANY]
    accepted: Annotated[tuple[bool, ...], MANY]
    step: Annotated[tuple[int, ...], MANY]
    p_target: Annotated[tuple[PROBABILITY | None, ...], MANY] | None = None
    p_draft: Annotated[tuple[PROBABILITY | None, ...], MANY] | None = None
    head: Annotated[tuple[int | None, ...], MANY] | None = None
    inspection: Annotated[tuple[INSPECTION, ...], MANY] | None = None
    # a tree step's draft tree on its first token (backend/tree_json.py), checked in read_chat
    tree: Annotated[tuple[TREE_TEXT | None, ...], MANY] | None = None

    def columns(self) -> dict[str, list]:
        n = len(self.text)
        return {f.name: list(getattr(self, f.name) or [None] * n)
                for f in dataclasses.fields(self)}

    def emitted_texts(self) -> list[str]:
        """The texts of the tokens that joined the answer: the target's and accepted drafts."""
        return [t for t, origin, ok in zip(self.text, self.origin, self.accepted, strict=True)
                if origin == "target" or ok]


def _within(option: Option) -> Any:
    """A setting's value as its declaration bounds it (backend/settings_schema.py)."""
    if option.kind is str:
        return Label | None
    return Annotated[option.kind, Bounds(option.minval, option.maxval)] | None


def answer_settings_type() -> type:
    """What an answer was made with (app/chat/made_with.py): the generation settings, each
    within its declared range, the model, and the system prompt and dropped turns it was sent
    with. Built from the settings declared now, so a setting registered after this module
    was imported is read too; one this version does not know is dropped."""
    return dataclasses.make_dataclass(
        "AnswerSettings",
        [(o.name, _within(o), dataclasses.field(default=None))
         for o in schema.OPTIONS.values() if o.section == "generation"]
        + [("model_name", Label | None, dataclasses.field(default=None)),
           ("model_path", Label | None, dataclasses.field(default=None)),
           ("n_ctx", _within(schema.N_CTX), dataclasses.field(default=None)),
           ("system_prompt", Annotated[str, Bounds(most=MAX_MESSAGE_TEXT)] | None,
            dataclasses.field(default=None)),
           ("dropped_turns", Annotated[int, Bounds(0, MAX_MESSAGES)] | None,
            dataclasses.field(default=None))],
        frozen=True)


@dataclass(frozen=True)
class MessageEntry:
    """One message, every version of it; `parent`: the index of the message it follows."""

    role: Literal["user", "assistant"]
    text: Annotated[str, Bounds(most=MAX_MESSAGE_TEXT)] = ""
    created_at: float = 0.0
    parent: Annotated[int, Bounds(0, MAX_MESSAGES)] | None = None
    chosen: bool = True
    # an answer's (ignored on a question)
    model_name: Label = ""
    spec_type: NAME = ""
    n_draft_max: int = 0
    stop_reason: NAME | None = None
    stats: Stats | None = None
    settings: Any = None  # answer_settings_type() | None, as the settings are declared when read
    tokens: TokenColumns | None = None


@dataclass(frozen=True)
class ChatFile:
    format: str
    version: int
    messages: Annotated[tuple[MessageEntry, ...], Bounds(most=MAX_MESSAGES)]
    title: Label = ""
    renamed: bool = False
    pinned: bool = False
    system_prompt: Annotated[str, Bounds(most=MAX_MESSAGE_TEXT)] = ""
    dropped_turns: Annotated[int, Bounds(0, MAX_MESSAGES)] = 0


def _schema() -> Schema:
    return Schema(unknown_fields="ignore", checks=ENGINE_CHECKS, fields={
        **ENGINE_FIELDS, (MessageEntry, "settings"): answer_settings_type() | None})


# Export and import --------------------------------------------------------------------------

def export_json(store: ChatStore, chat_id: int) -> dict[str, Any]:
    chat = store.chat(chat_id)
    if chat is None:
        raise ValueError(words(NO_CHAT, id=chat_id))
    messages = store.load(chat_id, all_versions=True)
    index = {m.id: i for i, m in enumerate(messages)}
    out = []
    for m in messages:
        entry: dict[str, Any] = {
            "parent": index[m.parent_id] if m.parent_id is not None else None,
            "chosen": m.chosen, "role": m.role, "text": m.text, "created_at": m.created_at}
        if m.role == "assistant":
            entry.update({name: getattr(m, name) for name in ANSWER_FIELDS})
            entry["tokens"] = _whole_answer_tokens(m.text, m.tokens)
        out.append(entry)
    return {"format": FORMAT, "version": VERSION, "title": chat.title,
            "renamed": chat.renamed, "pinned": chat.pinned, "system_prompt": chat.system_prompt,
            "dropped_turns": chat.dropped_turns, "messages": out}


def _whole_answer_tokens(text: str, tokens: dict[str, list] | None) -> dict[str, list] | None:
    """Tokens whose texts make the answer's text, as an import requires. An answer continued
    from one saved without tokens has tokens for its end only: its beginning becomes one
    token of the target's (id unknown), as an earlier answer opened from a trace is. Tokens
    that make another text (a damaged store) are left out: the text is the answer."""
    if tokens is None:
        return None
    emitted = "".join(t for t, origin, ok in zip(tokens["text"], tokens["origin"],
                                                  tokens["accepted"], strict=True)
                      if origin == "target" or ok)
    missing = start_without_tokens(text, emitted)
    if not missing:
        return tokens if missing == "" else None
    first = {"id": -1, "text": missing, "origin": "target",
             "accepted": True, "step": tokens["step"][0] if tokens["step"] else 0}
    return {name: [first.get(name), *column] for name, column in tokens.items()}


def read_chat_file(path: str | os.PathLike[str]) -> object:
    """The JSON of a conversation file, read for `import_json`: a regular file of at most
    MAX_CHAT_BYTES (a FIFO or a device is refused, never waited on nor read from), else
    ChatImportError in words."""
    path = Path(path)
    try:
        raw = read_file(path, MAX_CHAT_BYTES)
    except OSError as exc:
        raise ChatImportError(words(CANNOT_READ, name=path.name,
                                    error=exc.strerror or exc)) from exc
    except SchemaError as exc:
        raise ChatImportError(words_of(exc)) from None
    try:
        return parse_json(raw)
    except json.JSONDecodeError as exc:
        raise ChatImportError(words(NOT_JSON_AT, name=path.name, line=exc.lineno,
                                    column=exc.colno, error=exc.msg)) from None
    except UnicodeDecodeError:
        raise ChatImportError(words(NOT_JSON, name=path.name)) from None
    except SchemaError as exc:
        raise ChatImportError(words_of(exc)) from None


def import_json(store: ChatStore, doc: Any) -> int:
    """Add the conversation of an `export_json` document as a new chat; returns its id.
    The document is read whole first (`read_chat`): nothing is added when it is refused."""
    chat = read_chat(doc)
    messages = _messages(chat)
    chat_id = store.create(chat.title or "Imported chat", system_prompt=chat.system_prompt)
    try:
        if chat.renamed:
            store.rename(chat_id, chat.title)
        if chat.pinned:
            store.set_pinned(chat_id, True)
        if chat.dropped_turns:
            store.set_dropped_turns(chat_id, chat.dropped_turns)
        store.import_messages(chat_id, messages)
    except BaseException:
        store.remove(chat_id)
        raise
    return chat_id


def read_chat(doc: object) -> ChatFile:
    """The document as a ChatFile, every value checked; ChatImportError says why not."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ChatImportError(words(NOT_A_CONVERSATION))
    if doc.get("version") != VERSION:
        raise ChatImportError(words(OTHER_VERSION, version=repr(doc.get("version"))[:40],
                                    ours=VERSION))
    try:
        chat: ChatFile = _schema().decode(ChatFile, doc, "the conversation")
    except SchemaError as exc:
        raise ChatImportError(words_of(exc)) from None
    for i, m in enumerate(chat.messages):
        if m.parent is not None and m.parent >= i:
            raise ChatImportError(words(PARENT_NOT_BEFORE, n=i + 1))
        if m.role == "assistant" and m.tokens is not None:
            columns = m.tokens.columns()
            if len({len(v) for v in columns.values()}) != 1:
                raise ChatImportError(words(TOKENS_NOT_WHOLE, n=i + 1))
            said = text_problem(m.text, m.tokens.emitted_texts(), f"message {i + 1}")
            if said is not None:
                raise ChatImportError(said)
            _check_trees(m.tokens, i)
    return chat


def _check_trees(tokens: TokenColumns, i: int) -> None:
    """Refuses the file when a tree record of message `i` is damaged, as any other value: an
    import is read whole or not at all."""
    for j, record in enumerate(tokens.tree or ()):
        if record is not None:
            try:
                tree_from_json(record, f"message {i + 1}: tokens: tree[{j}]")
            except SchemaError as exc:
                raise ChatImportError(words_of(exc)) from None


def _messages(chat: ChatFile) -> list[StoredMessage]:
    out = []
    for i, m in enumerate(chat.messages):
        extra: dict[str, Any] = {}
        if m.role == "assistant":
            extra = dict(
                model_name=m.model_name, spec_type=m.spec_type, n_draft_max=m.n_draft_max,
                stop_reason=m.stop_reason,
                stats=dataclasses.asdict(m.stats) if m.stats is not None else None,
                settings=({k: v for k, v in dataclasses.asdict(m.settings).items()
                           if v is not None} if m.settings is not None else None),
                tokens=m.tokens.columns() if m.tokens is not None else None)
        out.append(StoredMessage(id=i, role=m.role, text=m.text, created_at=m.created_at,
                                 parent_id=m.parent, chosen=m.chosen, **extra))
    return out


def export_markdown(store: ChatStore, chat_id: int) -> str:
    """The versions shown, as a Markdown document (the answers' words; their colours and
    numbers are in the JSON export)."""
    chat = store.chat(chat_id)
    if chat is None:
        raise ValueError(words(NO_CHAT, id=chat_id))
    lines = [f"# {chat.title}", ""]
    if chat.system_prompt:
        lines += ["**System prompt:**", "", _quote(chat.system_prompt), ""]
    for m in store.load(chat_id):
        if m.role == "user":
            lines += ["## You", "", m.text, ""]
            continue
        k = spec_types.draft_length_words(m.spec_type or spec_types.PLAIN, m.n_draft_max or 0)
        made = " · ".join(p for p in (m.model_name, m.spec_type, k) if p)
        lines += [f"## Assistant{' · ' + made if made else ''}", "", m.text, ""]
        stats = m.stats or {}
        numbers = [f"{stats[k]} {label}" for k, label in (
            ("n_generated", "tokens"), ("n_drafted", "drafted"), ("n_accepted", "accepted"))
            if stats.get(k)]
        if m.stop_reason and m.stop_reason != "eos":
            numbers.append(f"ended: {m.stop_reason}")
        if numbers:
            lines += [f"*{', '.join(numbers)}*", ""]
    return "\n".join(lines).rstrip() + "\n"


def _quote(text: str) -> str:
    return "\n".join("> " + line for line in text.splitlines())
