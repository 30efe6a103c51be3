"""A saved conversation as a file: JSON with everything the store keeps (every version of every
message, each answer's tokens with their origin, verdict and probabilities, its stats and
settings), which `import_json` turns back into the same conversation; or Markdown of the
versions shown, to read. Qt-free."""

from __future__ import annotations

from typing import Any

from backend import spec_types
from backend.chats.store import TOKEN_FIELDS, ChatStore, StoredMessage
from backend.words import Words, words

FORMAT = "draftlight-chat"
VERSION = 1
ANSWER_FIELDS = ("model_name", "spec_type", "n_draft_max", "stop_reason", "stats", "settings")


# Why a file is refused as a conversation, as templates (backend/words.py).
NOT_A_CONVERSATION = "This file is not a conversation exported by Draftlight."
OTHER_VERSION = ("This conversation file has version {version}; this Draftlight reads version "
                 "{ours}.")
NO_MESSAGES = "The file has no list of messages."
NOT_A_MESSAGE = "Message {n} is not a user or assistant message."
PARENT_NOT_BEFORE = "Message {n} follows a message that is not before it."
TOKENS_NOT_WHOLE = "The tokens of message {n} are not whole."
NO_CHAT = "There is no chat {id}."


class ChatImportError(ValueError):
    """A file that is not a conversation exported by Draftlight; the message says why: its one
    argument, as Words (backend/words.py; `str(exc)` is the English sentence)."""

    def __init__(self, message: Words | str) -> None:
        super().__init__(message)


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
            entry["tokens"] = m.tokens
        out.append(entry)
    return {"format": FORMAT, "version": VERSION, "title": chat.title,
            "renamed": chat.renamed, "pinned": chat.pinned, "system_prompt": chat.system_prompt,
            "dropped_turns": chat.dropped_turns, "messages": out}


def import_json(store: ChatStore, doc: Any) -> int:
    """Add the conversation of an `export_json` document as a new chat; returns its id.
    Nothing is added when the document is refused."""
    messages = _messages(doc)
    chat_id = store.create(str(doc.get("title") or "Imported chat"),
                           system_prompt=str(doc.get("system_prompt") or ""))
    try:
        if doc.get("renamed"):
            store.rename(chat_id, str(doc["title"]))
        if doc.get("pinned"):
            store.set_pinned(chat_id, True)
        if doc.get("dropped_turns"):
            store.set_dropped_turns(chat_id, int(doc["dropped_turns"]))
        store.import_messages(chat_id, messages)
    except BaseException:
        store.remove(chat_id)
        raise
    return chat_id


def _messages(doc: Any) -> list[StoredMessage]:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ChatImportError(words(NOT_A_CONVERSATION))
    if doc.get("version") != VERSION:
        raise ChatImportError(words(OTHER_VERSION, version=repr(doc.get("version")), ours=VERSION))
    entries = doc.get("messages")
    if not isinstance(entries, list):
        raise ChatImportError(words(NO_MESSAGES))
    out = []
    for i, e in enumerate(entries):
        if not isinstance(e, dict) or e.get("role") not in ("user", "assistant"):
            raise ChatImportError(words(NOT_A_MESSAGE, n=i + 1))
        parent = e.get("parent")
        if parent is not None and not (isinstance(parent, int) and 0 <= parent < i):
            raise ChatImportError(words(PARENT_NOT_BEFORE, n=i + 1))
        tokens = e.get("tokens")
        if tokens is not None and not _whole_tokens(tokens):
            raise ChatImportError(words(TOKENS_NOT_WHOLE, n=i + 1))
        extra: dict[str, Any] = {}
        if e["role"] == "assistant":
            extra = {name: e.get(name) for name in ANSWER_FIELDS}
            extra["model_name"] = str(extra["model_name"] or "")
            extra["spec_type"] = str(extra["spec_type"] or "")
            extra["n_draft_max"] = int(extra["n_draft_max"] or 0)
        out.append(StoredMessage(
            id=i, role=e["role"], text=str(e.get("text", "")),
            created_at=float(e.get("created_at") or 0.0), tokens=tokens, parent_id=parent,
            chosen=bool(e.get("chosen", True)), **extra))
    return out


def _whole_tokens(tokens: Any) -> bool:
    """Token columns of equal lengths, `text` among them (a column this version does not
    know is ignored, one it misses is stored empty)."""
    return isinstance(tokens, dict) and "text" in tokens and len(
        {len(v) if isinstance(v, list) else -1 for k, v in tokens.items()
         if k in TOKEN_FIELDS}) == 1


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
