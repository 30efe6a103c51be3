"""An answer's engine events rebuilt from what the window keeps of it, for export. Qt-free.

The window keeps no StepVerified events (backend/engine/token_log.py says why): an `Answer`
holds its tokens flat, in display order, per step the accepted drafts, the rejected drafts, then the
target's own token. That order is enough to rebuild each step: `drafted` is the step's
tokens that are not the target's, in order (accepted first, as the engine lists them),
`emitted` the accepted drafts then the target's token. So a trace or a page made here says
what the live events said, token for token, with two things the window never kept:

- a draft the target accepted past the answer's end (the last step, cut by EOS, a stop string
  or max tokens) was never emitted nor drawn, so it is not in the rebuilt `drafted`;
- an accepted draft is kept once, in its emitted form, so its drafted copy has the emitted
  text (they differ only where a character or a held-back stop string spans tokens).

A tree step's tree is the one the Answer kept by its step number (`Answer.trees`). Step
times are the ones the Answer kept per step (0 for an answer read from the chat store,
which keeps none); the request id and whether a failed engine process crashed are not kept.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from app.transcript.answer import Answer
from backend.engine.events import (
    Event,
    GenerationFailed,
    GenerationFinished,
    GenerationStarted,
    PromptProcessed,
    StepVerified,
    StopReason,
    Token,
)
from backend.engine.request import GenerationRequest
from backend.traces import Trace, start_without_tokens

_STOP_REASONS: tuple[str, ...] = StopReason.__args__  # type: ignore[attr-defined]


def answer_steps(answer: Answer) -> Iterator[StepVerified]:
    """One StepVerified per step of the answer's TokenLog (consecutive tokens of one step)."""
    log = answer.tokens
    n = len(log.text)  # `text` is extended last: tokens up to its length are whole
    i = index = 0
    while i < n:
        step = log.step[i]
        j = i
        while j < n and log.step[j] == step:
            j += 1
        tokens = [log.token(t) for t in range(i, j)]
        drafted = tuple(t for t in tokens if t.origin != "target")
        own = tuple(t for t in tokens if t.origin == "target")
        accepted = tuple(t for t in drafted if t.accepted)
        yield StepVerified(step, drafted, len(accepted), (*accepted, *own),
                           _at(answer.draft_ms, index), _at(answer.verify_ms, index),
                           tree=answer.trees.get(step, ()))
        i = j
        index += 1


def _at(values: Sequence[float], i: int) -> float:
    return values[i] if i < len(values) else 0.0


def _whole(answer: Answer, steps: list[StepVerified]) -> list[StepVerified]:
    """The steps, with the answer's beginning as one target token (id unknown) first when they
    make only its end: an answer continued from one saved without tokens. A trace's tokens
    must make its text (backend/traces.py), as an export's do (backend/chats/export.py)."""
    missing = start_without_tokens(answer.text,
                                   "".join(t.text for step in steps for t in step.emitted))
    if not missing:
        return steps
    start = Token(-1, missing, "target", True)
    return [StepVerified(steps[0].step if steps else 0, (), 0, (start,), 0.0, 0.0), *steps]


def answer_events(answer: Answer, request_id: int = 0) -> tuple[Event, ...]:
    """GenerationStarted, PromptProcessed, the steps and the ending of a finished answer:
    GenerationFinished with its stats and text, or GenerationFailed for an answer that failed
    or was interrupted (its stop reason is none the engine gives)."""
    if not answer.done:
        raise ValueError("The answer is still being written: export it once it has finished.")
    stats = answer.stats()
    events: list[Event] = [
        GenerationStarted(request_id, answer.spec_type, answer.n_draft_max, answer.n_prompt),
        PromptProcessed(answer.n_prompt, answer.n_cached, answer.prompt_ms),
        *_whole(answer, list(answer_steps(answer))),
    ]
    if answer.error is not None:
        events.append(GenerationFailed(answer.error, answer.error_detail))
    elif answer.stop_reason in _STOP_REASONS:
        events.append(GenerationFinished(answer.stop_reason,  # type: ignore[arg-type]
                                         answer.text, stats, answer.note))
    else:
        events.append(GenerationFailed(
            "The answer was interrupted: the engine stopped before it was finished."))
    return tuple(events)


def answer_trace(answer: Answer, request: GenerationRequest, *, target_model: str = "",
                 draft_model: str = "") -> Trace:
    """The whole trace (walks every token: run it off the GUI thread for a long answer; a
    finished answer's lists no longer change, so a pool thread may read them)."""
    return Trace(request, answer_events(answer, request.request_id),
                 target_model=target_model, draft_model=draft_model)

