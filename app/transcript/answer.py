"""One assistant answer as the UI keeps it: the engine's events folded into text, live numbers
and the per-step accepted lengths the chart draws. Qt-free, so it is tested without widgets."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import islice

from app.backend_text import backend_text, stop_reason_words, words_text
from app.i18n import translate
from backend import spec_types
from backend.engine.events import (
    Event,
    GenerationFailed,
    GenerationFinished,
    GenerationStarted,
    PromptProcessed,
    Stats,
    StepVerified,
    TreeNode,
)
from backend.engine.plain_yardstick import PlainYardstick, speedup_words
from backend.engine.token_log import StepBatch, TokenLog
from backend.stop_reasons import INTERRUPTED
from backend.words import Words


@dataclass
class Answer:
    model_name: str = ""
    spec_type: str = spec_types.PLAIN
    n_draft_max: int = 0
    tokens: TokenLog = field(default_factory=TokenLog)  # display order, to (re)draw colours
    n_steps: int = 0
    parts: list[str] = field(default_factory=list)  # emitted token texts: the answer itself
    accepted_lengths: list[int] = field(default_factory=list)  # per step, for the chart
    drafted_lengths: list[int] = field(default_factory=list)
    # Per step, for the advisor (app/teaching/answer_advice.py); empty for an answer loaded from the
    # store, which keeps no timings.
    target_accepted: list[int] = field(default_factory=list)
    draft_ms: list[float] = field(default_factory=list)
    verify_ms: list[float] = field(default_factory=list)
    n_prompt: int = 0
    n_cached: int = 0
    prompt_ms: float = 0.0
    generation_ms: float = 0.0
    first_token_ms: float | None = None
    n_generated: int = 0
    n_drafted: int = 0
    n_accepted: int = 0
    n_draft_steps: int = 0
    # a tree step's tree by its step number (the chat store keeps them with the tokens)
    trees: dict[int, tuple[TreeNode, ...]] = field(default_factory=dict)
    # plain decoding's speed, measured by this answer's own plain steps as they stream
    plain: PlainYardstick = field(default_factory=PlainYardstick)
    final_stats: Stats | None = None
    final_text: str | None = None
    note: Words | None = None  # why K auto decoded it plainly, when it did
    stop_reason: str | None = None
    error: str | None = None  # in English, as saved; error_words translates it (error_shown)
    error_detail: str = ""
    error_words: Words | None = None
    # Continue: the answer as it stood when it was continued (its text and numbers), and the
    # steps it already had, so the new steps number on from them.
    continued_from: str | None = None
    _base_stats: Stats | None = None
    _step_offset: int | None = None  # set by the continuation's first steps
    _last_step: int = 0
    _parts_base: int = 0

    @property
    def done(self) -> bool:
        return self.stop_reason is not None or self.error is not None

    @property
    def text(self) -> str:
        if self.final_text is not None:
            return self.final_text
        if self.continued_from is not None:
            return self.continued_from + "".join(self.parts[self._parts_base:])
        return "".join(self.parts)

    @property
    def wrote_anything(self) -> bool:
        """Whether `text` is not empty, read without joining the pieces of an answer still
        streaming (the context line asks while it streams)."""
        if self.final_text is not None:
            return bool(self.final_text)
        if self.continued_from is not None:
            return bool(self.continued_from) or any(islice(self.parts, self._parts_base, None))
        return any(self.parts)

    def begin_continuation(self) -> None:
        """The answer goes on from where it stopped: new events extend it, its text and its
        numbers (a Continue after Stop or a crash)."""
        self.continued_from = self.text
        self._base_stats = self.stats()
        self._last_step = max(self.tokens.step, default=0)
        self._step_offset = None
        self._parts_base = len(self.parts)
        self.final_stats = self.final_text = self.stop_reason = self.error = None
        self.error_detail, self.error_words = "", None

    def add(self, event: Event | StepBatch) -> None:
        if isinstance(event, StepBatch):
            self._add_steps(event)
        elif isinstance(event, StepVerified):
            batch = StepBatch()
            batch.add(event)
            self._add_steps(batch)
        elif isinstance(event, GenerationStarted):
            if self.continued_from is not None:
                return  # the answer's own start stands; the continuation only adds steps
            self.spec_type = event.spec_type
            self.n_draft_max = event.n_draft_max
            self.n_prompt = event.n_prompt_tokens
        elif isinstance(event, PromptProcessed):
            if self.continued_from is not None:
                return
            self.n_prompt, self.n_cached, self.prompt_ms = event.n_tokens, event.n_cached, event.ms
        elif isinstance(event, GenerationFinished):
            self.final_stats = event.stats
            self.final_text = event.text
            self.note = event.note
            self.stop_reason = event.stop_reason
            if self.continued_from is not None and self._base_stats is not None:
                self.final_text = self.continued_from + event.text
                self.final_stats = _joined(self._base_stats, event.stats)
            if event.stats.accepted_per_step and not any(self.drafted_lengths):
                # a server's per-step report: the chart shows it (no token colours: the server
                # said how many drafts each step kept, not which tokens they were)
                self.accepted_lengths = list(event.stats.accepted_per_step)
                drafted = event.stats.drafted_per_step
                self.drafted_lengths = (list(drafted) if len(drafted) == len(
                    self.accepted_lengths) else list(self.accepted_lengths))
        elif isinstance(event, GenerationFailed):
            self.error, self.error_detail = event.message, event.detail
            self.error_words = event.words
            if self.tokens:  # what was written before the failure is kept, marked
                self.stop_reason = INTERRUPTED

    def _add_steps(self, batch: StepBatch) -> None:
        if self.continued_from is not None and batch.tokens.step:
            # a continuation's steps number on from the answer's
            if self._step_offset is None:
                self._step_offset = self._last_step + 1 - batch.tokens.step[0]
            offset = self._step_offset
            batch.tokens.step[:] = [s + offset for s in batch.tokens.step]
        # trees first: a save on the store's thread takes the tokens there are and expects
        # their trees in (app/chat/conversation.py new_tokens)
        for number, tree in batch.trees:
            self.trees[number + (self._step_offset or 0)] = tree
        self.tokens.extend(batch.tokens)
        self.parts.extend(batch.parts)
        self.accepted_lengths.extend(batch.accepted)
        self.drafted_lengths.extend(batch.drafted)
        self.target_accepted.extend(batch.target_accepted)
        self.draft_ms.extend(batch.draft_ms)
        self.verify_ms.extend(batch.verify_ms)
        self.n_steps += len(batch)
        self.n_generated += batch.n_emitted
        self.n_drafted += sum(batch.drafted)
        self.n_accepted += sum(batch.accepted)
        self.n_draft_steps += sum(1 for d in batch.drafted if d)
        if self.first_token_ms is None and batch.ms_to_first_emit is not None:
            self.first_token_ms = self.prompt_ms + self.generation_ms + batch.ms_to_first_emit
        self.generation_ms += batch.ms
        for number, ms in batch.plain_ms:
            self.plain.step(number, 0, ms)

    def stats(self) -> Stats:
        """The engine's final numbers once finished; until then, the same numbers counted from
        the steps so far (engine-side times, so they do not depend on how fast we render)."""
        if self.final_stats is not None:
            return self.final_stats
        return Stats(
            n_prompt=self.n_prompt,
            n_cached=self.n_cached,
            n_generated=self.n_generated,
            n_steps=self.n_steps,
            n_draft_steps=self.n_draft_steps,
            n_drafted=self.n_drafted,
            n_accepted=self.n_accepted,
            prompt_ms=self.prompt_ms,
            generation_ms=self.generation_ms,
            ttft_ms=self.first_token_ms or 0.0,
            plain_tokens_per_second=self.plain.tokens_per_second,
            plain_steps=self.plain.n,
            plain_spread=self.plain.spread,
        )




def _joined(a: Stats, b: Stats) -> Stats:
    """An answer's numbers and its continuation's, as one answer's: counts and decoding times
    add up; the prompt and first token stay the first run's."""
    return replace(
        a, n_generated=a.n_generated + b.n_generated, n_steps=a.n_steps + b.n_steps,
        n_draft_steps=a.n_draft_steps + b.n_draft_steps, n_drafted=a.n_drafted + b.n_drafted,
        n_accepted=a.n_accepted + b.n_accepted, generation_ms=a.generation_ms + b.generation_ms,
        draft_ms=a.draft_ms + b.draft_ms, verify_ms=a.verify_ms + b.verify_ms,
        # plain decoding as the continuation measured it: the moment of its own steps
        plain_tokens_per_second=b.plain_tokens_per_second, plain_steps=b.plain_steps,
        plain_spread=b.plain_spread)


def error_shown(answer: Answer) -> str:
    """Why the answer failed, in the window's language: the engine's Words when it sent them,
    else the saved English sentence (translated when it is a declared one)."""
    if answer.error_words is not None:
        return words_text(answer.error_words)
    return backend_text(answer.error or "")


def format_stats(answer: Answer) -> str:
    s = answer.stats()
    parts = []
    parts.append(f"{s.tokens_per_second:.1f} tok/s" if s.generation_ms > 0 else "— tok/s")
    if answer.spec_type != spec_types.PLAIN and s.generation_ms > 0:
        said = speedup_words(s)
        if said is not None:
            parts.append(words_text(said))
    if s.ttft_ms:
        parts.append(translate("Stats", "first token {ms:.0f} ms").format(ms=s.ttft_ms))
    parts.append(translate("Stats", "{n} tokens").format(n=s.n_generated))
    if answer.spec_type != spec_types.PLAIN or s.n_drafted:
        parts.append(translate("Stats", "drafted {drafted} / accepted {accepted}").format(
            drafted=s.n_drafted, accepted=s.n_accepted))
        parts.append(translate("Stats", "acceptance {percent:.1f} %").format(
            percent=100 * s.acceptance_rate))
        parts.append(translate("Stats", "{mean:.2f} accepted/step").format(
            mean=s.mean_accepted_per_step))
        if answer.n_draft_max == 0 and s.n_draft_steps:  # K auto: what it chose on average
            parts.append(translate("Stats", "K auto, mean {k:.1f}").format(
                k=s.n_drafted / s.n_draft_steps))
    if answer.stop_reason:
        parts.append(stop_reason_words(answer.stop_reason))
    return "  ·  ".join(parts)
