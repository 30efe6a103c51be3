"""What an answer was made with, recorded once when it starts: the generation settings, the
target's name and file and the context size, saved beside the answer as `Turn.settings`.

Everything that later needs them reads this record, never the panel as it stands by then:
the export and its trace, the lossless check, the race, "Use these settings" and the
advisor's line. An answer read from an older chat, or opened from a trace, may have no
record; the callers then say so or fall back, each in its own words. Qt-free.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.chat.conversation import Turn
from app.transcript.answer import Answer
from backend import settings_schema as schema
from backend.engine.request import GenerationRequest, Message
from backend.generation_settings import GenerationSettings, generation_request


def record(gs: GenerationSettings, model_name: str, model_path: str,
           n_ctx: int) -> dict[str, Any]:
    """The record saved beside a new answer."""
    return {**gs.to_dict(), "model_name": model_name, "model_path": model_path,
            "n_ctx": n_ctx}


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


def messages_before(turns: Sequence[Turn], turn: Turn) -> tuple[Message, ...]:
    """The conversation as it was sent for `turn`'s answer: the turns before it, left out as
    Conversation.messages leaves them (answers that failed before writing anything)."""
    index = next((i for i, t in enumerate(turns) if t is turn), len(turns))
    return tuple(Message(t.role, t.content) for t in turns[:index]
                 if t.role == "user" or (t.answer is not None and t.answer.text))


def request_made_with(turns: Sequence[Turn], answer: Answer,
                      fallback: GenerationSettings) -> tuple[GenerationRequest, bool] | None:
    """The request `answer` was made with, and whether its sampler settings are its own
    (False: the record is missing and `fallback`'s stand in); None when `answer` is not one
    of `turns`. The spec type and K are always the answer's own, as the engine reported
    them when it started (an Answer keeps them)."""
    turn = next((t for t in turns if t.answer is answer), None)
    if turn is None:
        return None
    gs = settings_of(turn)
    own = gs is not None
    k = answer.n_draft_max
    base = gs if gs is not None else fallback
    gs = base.replace(
        spec_type=answer.spec_type,
        n_draft=k if schema.N_DRAFT.problem(k) is None else base.n_draft)
    return request_for(gs, messages_before(turns, turn)), own
