"""Where each lookup's copy was found, as the inspector shows it: every n-gram kind gives a
drafted token its place in the conversation (`Verification.match_at`, the very token there);
ngram-mod and ngram-cache, whose tables are kept across the chats with the target, give a
token they learnt in an earlier chat none (the inspector's "an earlier chat",
tests/app/test_lookup_inspection.py)."""

from __future__ import annotations

import pytest
from build import CYCLE_WORDS

from backend.engine.events import GenerationStarted, StepVerified
from backend.engine.request import (
    GenerationRequest,
    NgramMapSettings,
    NgramModSettings,
    NgramSettings,
)
from backend.palette import LOOKUP_KINDS

WORDS = list(CYCLE_WORDS)
# copies right and wrong for every lookup (tests/engine/test_ngram_family_lossless.py)
COUNT_PROMPT = " " + " ".join(WORDS + (WORDS[:5] + WORDS[7:]) * 3 + WORDS[:3])
# short keys, so that every lookup finds the count's earlier turns in so short an answer
SMALL = dict(ngram=NgramSettings(size_n=2, size_m=8, min_hits=1),
             ngram_map_k=NgramMapSettings(size_n=2, size_m=8, min_hits=1),
             ngram_map_k4v=NgramMapSettings(size_n=2, size_m=4, min_hits=1),
             ngram_mod=NgramModSettings(n_match=2, n_min=1, n_max=8))


def _request(prompt: str, spec: str) -> GenerationRequest:
    return GenerationRequest(prompt=prompt, spec_type=spec, n_draft_max=8, max_tokens=40,
                             measure_plain=False, **SMALL)


def _answer(engine, request):
    events = list(engine.generate(request))
    started = next(e for e in events if isinstance(e, GenerationStarted))
    return started, [e for e in events if isinstance(e, StepVerified)]


def _checked(engine, prompt: str, started, steps) -> list:
    """The drafted tokens verification examined, each checked against the history it was
    drafted from: its source holds that very token."""
    prompt_ids = engine._target.tokenize(prompt, add_special=True)
    if len(prompt_ids) != started.n_prompt_tokens:
        prompt_ids = engine._target.tokenize(prompt, add_special=False)
    assert len(prompt_ids) == started.n_prompt_tokens
    history = list(prompt_ids)
    examined = []
    for step in steps:
        for token in step.drafted:
            v = token.verification
            if v is None:
                continue  # after the first rejection: never examined
            examined.append(token)
            if v.match_at is not None:
                assert v.match_at < len(history)
                assert history[v.match_at] == token.id, (token.origin, v.match_at)
        history += [t.id for t in step.emitted]
    return examined


@pytest.mark.parametrize("kind", LOOKUP_KINDS)
def test_every_lookup_says_where_in_the_conversation_it_copied(count_engine, kind):
    started, steps = _answer(count_engine, _request(COUNT_PROMPT, kind))
    examined = _checked(count_engine, COUNT_PROMPT, started, steps)
    assert examined, f"{kind} drafted nothing"
    found = [t for t in examined if t.verification.match_at is not None]
    assert found, f"{kind} gave no token its place"
    if kind not in ("ngram-mod", "ngram-cache"):  # the others only copy this conversation
        assert len(found) == len(examined)
    with_text = [t for t in found if t.verification.match_text]
    assert with_text, "no text leading up to the copy"


@pytest.mark.parametrize("kind", ["ngram-mod", "ngram-cache"])
def test_a_table_kept_across_chats_drafts_from_an_earlier_chat(count_engine, kind):
    _answer(count_engine, _request(COUNT_PROMPT, kind))  # an earlier chat teaches it the count
    # a new chat that has seen only the count's first words
    started, steps = _answer(count_engine, _request(" zero one", kind))
    examined = _checked(count_engine, " zero one", started, steps)
    assert examined and {t.origin for t in examined} == {kind}
    # nothing in this chat to copy yet: its first draft came from the earlier one
    assert examined[0].verification.match_at is None
