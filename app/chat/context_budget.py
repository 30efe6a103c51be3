"""How much of the model's context a conversation uses, and what to drop so the next message
and its answer fit. Qt-free.

The window has no tokenizer (the model lives in the engine process), so the count is what the
engine reported for the last answer (its prompt plus what it wrote: exact), plus an estimate
for what came after it; with no answer to go by, an estimate of every message. The estimate
is deliberately generous (a token per three characters, and a few for each message's
template), so the notice comes a little early rather than too late."""

from __future__ import annotations

from dataclasses import dataclass

from app.chat.conversation import Conversation, Turn
from app.i18n import number, translate

CHARS_PER_TOKEN = 3
TOKENS_PER_MESSAGE = 8  # the chat template's role markers around each message
ANSWER_ROOM_SHARE = 4  # an answer needs room: at most a quarter of the context is kept for it


def estimate_tokens(text: str) -> int:
    return TOKENS_PER_MESSAGE + -(-len(text) // CHARS_PER_TOKEN)


@dataclass(frozen=True)
class ContextUse:
    used: int  # tokens the conversation sent to the model takes now
    exact: bool  # `used` is the engine's count, not an estimate
    n_ctx: int
    next_needs: int  # the next message's estimate, plus room for its answer

    @property
    def fits(self) -> bool:
        return self.used + self.next_needs <= self.n_ctx

    def words(self) -> str:
        if self.exact:
            words = translate("ContextUse", "Context: {used} of {n_ctx} tokens")
        else:
            words = translate("ContextUse", "Context: about {used} of {n_ctx} tokens")
        return words.format(used=number(self.used), n_ctx=number(self.n_ctx))


def _answer_tokens(turn: Turn) -> tuple[int, int]:
    """(prompt tokens, generated tokens) the engine reported for an answer (0, 0: none)."""
    a = turn.answer
    if a is None:
        return 0, 0
    stats = a.final_stats
    n_prompt = stats.n_prompt if stats is not None and stats.n_prompt else a.n_prompt
    n_gen = stats.n_generated if stats is not None and stats.n_generated else a.n_generated
    return n_prompt, n_gen


def sent_turns(conv: Conversation) -> list[Turn]:
    return [t for t in conv.turns[min(conv.dropped_turns, len(conv.turns)):]
            if t.role == "user" or (t.answer is not None and t.answer.wrote_anything)]


def context_use(conv: Conversation, n_ctx: int, max_tokens: int, next_text: str = "") -> ContextUse:
    turns = sent_turns(conv)
    used, exact, start = 0, False, 0
    if conv.dropped_turns == 0:  # the last answer's own prompt counted what came before
        for i in range(len(turns) - 1, -1, -1):
            n_prompt, n_gen = _answer_tokens(turns[i])
            if n_prompt:
                used, exact, start = n_prompt + n_gen, i == len(turns) - 1, i + 1
                break
    if start == 0:
        used = estimate_tokens(conv.system_prompt) if conv.system_prompt.strip() else 0
    for t in turns[start:]:
        used += estimate_tokens(t.content)
    room = min(max_tokens, max(1, n_ctx // ANSWER_ROOM_SHARE))
    needs = (estimate_tokens(next_text) if next_text else 0) + room
    return ContextUse(used, exact and not next_text, n_ctx, needs)


def turns_to_drop(conv: Conversation, n_ctx: int, max_tokens: int, next_text: str) -> int | None:
    """The fewest oldest turns (whole exchanges: a drop ends before a question) to leave out so
    that the next message and its answer fit; None when even leaving out every earlier turn
    is not enough."""
    original = conv.dropped_turns
    try:
        for n in range(original, len(conv.turns) + 1):
            if n < len(conv.turns) and conv.turns[n].role != "user":
                continue
            conv.dropped_turns = n
            if context_use(conv, n_ctx, max_tokens, next_text).fits:
                return n
        return None
    finally:
        conv.dropped_turns = original
