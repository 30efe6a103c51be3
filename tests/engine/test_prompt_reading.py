"""A draft model reads the prompt while the prompt is processed, when the answer's first step
drafts (backend/engine/drafters/base.py, PromptReader): its pass over the prompt is prompt
time, as in llama.cpp's tools, not time of the answer's tokens/s."""

from __future__ import annotations

import time

from backend.engine.drafters.draft_model import DraftModelDrafter
from backend.engine.events import (
    GenerationFinished,
    GenerationStarted,
    PromptProcessed,
    StepVerified,
)
from backend.engine.request import GenerationRequest, Message
from engine.runner import loaded_engine

QUESTION = (Message("user", "count with me, from one to twenty, and then back again"),)


def _draft_tokens_when_prompt_processed(engine, request: GenerationRequest) -> tuple[int, int]:
    """(the prompt's length, the tokens the draft model's cache held when the engine said the
    prompt was processed)."""
    engine.reset_cache()
    n_prompt = held = -1
    for ev in engine.generate(request):
        if isinstance(ev, GenerationStarted):
            n_prompt = ev.n_prompt_tokens
        elif isinstance(ev, PromptProcessed):
            held = len(engine._drafters["draft"].ctx.tokens)
    return n_prompt, held


def test_a_draft_model_has_read_the_prompt_when_the_prompt_is_processed(count_engine):
    for k in (4, 0):  # a fixed K, and K auto (whose first step drafts on a fresh controller)
        n_prompt, held = _draft_tokens_when_prompt_processed(count_engine, GenerationRequest(
            messages=QUESTION, max_tokens=24, spec_type="draft", n_draft_max=k))
        assert n_prompt > 8
        assert held == n_prompt - 1  # all but the last token, which the first draft decodes


def test_a_first_step_that_drafts_nothing_leaves_the_prompt_unread(count_engine):
    # one token to make: the first step has no room to draft, so nothing is read ahead
    n_prompt, held = _draft_tokens_when_prompt_processed(count_engine, GenerationRequest(
        messages=QUESTION, max_tokens=1, spec_type="draft", n_draft_max=4))
    assert n_prompt > 8 and held == 0


def test_the_first_step_no_longer_pays_for_the_prompt_but_k_auto_still_weighs_it(
        test_models, monkeypatch):
    """The reading is made to take 60 ms at least. It is over when the prompt is reported
    processed, before any step's clock starts (no upper bound on a step's time, which a busy
    machine could break), while K auto, which must weigh catching up on the next prompt
    before it drafts (adaptive_k's HORIZON), counts it in that step's catching up."""
    read = DraftModelDrafter.read_prompt
    reads: list[int] = []

    def slow_read(self, history):
        time.sleep(0.06)
        read(self, history)
        reads.append(len(history))

    monkeypatch.setattr(DraftModelDrafter, "read_prompt", slow_read)
    events, reads_when_processed, first_catch_up = [], None, None
    with loaded_engine(test_models / "count-target.gguf", test_models / "count-draft.gguf",
                       n_ctx=512, n_threads=1) as engine:
        for ev in engine.generate(GenerationRequest(
                messages=QUESTION, max_tokens=24, spec_type="draft", n_draft_max=0)):
            if isinstance(ev, PromptProcessed):
                reads_when_processed = list(reads)
            if isinstance(ev, StepVerified) and first_catch_up is None:
                # as the first step left it (a later probe may check the costs and forget it)
                first_catch_up = engine._adaptive["draft"]._prompt_catch_up
            events.append(ev)
    prompt_ms = next(ev.ms for ev in events if isinstance(ev, PromptProcessed))
    first = next(ev for ev in events if isinstance(ev, StepVerified))
    assert first.drafted  # a fresh controller drafts at once
    # read once, all of it, before the prompt was reported processed: in its time
    assert reads_when_processed == reads == [events[0].n_prompt_tokens]
    assert prompt_ms >= 60
    assert isinstance(events[-1], GenerationFinished)
    catch_up_ms, behind = first_catch_up
    assert catch_up_ms >= 60 and behind == events[0].n_prompt_tokens
