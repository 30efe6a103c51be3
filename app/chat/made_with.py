"""What an answer was made with, recorded once when it starts: the generation settings, the
target's name and file, the context size, and what framed the conversation it was sent (the
chat's system prompt, the oldest turns dropped), saved beside the answer as `Turn.settings`.

Everything that later needs them reads this record, never the panel as it stands by then:
the export and its trace, the lossless check, the race, "Use these settings" and the
advisor's line. An answer read from an older chat, or opened from a trace, may have no
record; the callers then say so or fall back, each in its own words. Qt-free.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.chat.conversation import Conversation, Turn
from app.transcript.answer import Answer
from backend import settings_schema as schema
from backend.engine.request import GenerationRequest, Message
from backend.generation_settings import GenerationSettings, generation_request


def record(gs: GenerationSettings, model_name: str, model_path: str, n_ctx: int,
           conv: Conversation) -> dict[str, Any]:
    """The record saved beside a new answer of `conv`."""
    return {**gs.to_dict(), "model_name": model_name, "model_path": model_path,
            "n_ctx": n_ctx, "system_prompt": conv.system_prompt,
            "dropped_turns": conv.dropped_turns}


def settings_of(turn: Turn) -> GenerationSettings | None:
    """The generation settings an answer was made with, or None when it has no record.
    Keys the record lacks take their defaults (a record saved before a setting existed);
    keys it has that are no longer settings are left out."""
    if not turn.settings:
        return None
    return GenerationSettings.from_dict(turn.settings)


def request_for(gs: GenerationSettings, messages: Sequence[Message]) -> GenerationRequest:
    """The request that answers `messages` with `gs`."""
    return generation_request(gs, messages=messages, prompt=None if messages else "")


def messages_sent(conv: Conversation, turn: Turn) -> tuple[Message, ...]:
    """The conversation as it was sent for `turn`'s answer: the turns before it, framed as
    the record says (the system prompt and dropped turns of that moment; the chat's own for
    an answer without them), and left out as `Conversation.messages` leaves them."""
    rec = turn.settings or {}
    system, dropped = rec.get("system_prompt"), rec.get("dropped_turns")
    if not isinstance(system, str):
        system = conv.system_prompt
    if not isinstance(dropped, int) or isinstance(dropped, bool) or dropped < 0:
        dropped = conv.dropped_turns
    before = conv.turns[:conv.turns.index(turn)]
    return Conversation(title="", turns=before, system_prompt=system,
                        dropped_turns=dropped).messages()


def request_made_with(conv: Conversation, answer: Answer,
                      fallback: GenerationSettings) -> tuple[GenerationRequest, bool] | None:
    """The request `answer` was made with, and whether its sampler settings are its own
    (False: the record is missing and `fallback`'s stand in); None when `answer` is not one
    of `conv`'s. The spec type and K are always the answer's own, as the engine reported
    them when it started (an Answer keeps them)."""
    turn = next((t for t in conv.turns if t.answer is answer), None)
    if turn is None:
        return None
    gs = settings_of(turn)
    own = gs is not None
    k = answer.n_draft_max
    base = gs if gs is not None else fallback
    gs = base.replace(
        spec_type=answer.spec_type,
        n_draft=k if schema.N_DRAFT.problem(k) is None else base.n_draft)
    return request_for(gs, messages_sent(conv, turn)), own
