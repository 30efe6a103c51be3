"""backend/words.py: what backend/ says at run time, as templates a window can translate."""

from __future__ import annotations

import json
import pickle
import string

import pytest

from backend.engine.errors import PROMPT_TOO_LONG, EngineCrashed, EngineError
from backend.engine.events import GenerationFailed, event_to_dict
from backend.words import Words, declared_templates, template_uses, words, words_of


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("use", template_uses(), ids=lambda u: u.where)
def test_every_template_is_declared_and_given_exactly_its_values(use):
    """A `words(…)` call names a constant (or literal) template, and passes a value for each
    placeholder and none besides: a lost or misspelt value fails here, not in a window."""
    assert use.template is not None, f"{use.where}: the template is not a string constant"
    assert use.all_values, f"{use.where}: values passed as **mapping cannot be checked"
    assert placeholders(use.template) == use.names, use.where


def test_every_template_is_collected_for_the_translators():
    templates = declared_templates()
    assert PROMPT_TOO_LONG in templates
    assert len(templates) == len(set(templates)) > 100


def test_an_error_is_its_english_sentence_and_keeps_its_words():
    said = words(PROMPT_TOO_LONG, n=812, n_ctx=512)
    exc = EngineError(said)
    assert str(exc) == "The prompt has 812 tokens, more than the context of 512."
    assert words_of(exc) is said
    assert words_of(ValueError("{not a template}")) == Words("{not a template}")
    assert str(words_of(ValueError("{x}"))) == "{x}"  # text without values is never formatted
    back = pickle.loads(pickle.dumps(exc))
    assert (str(back), words_of(back)) == (str(exc), said)
    crashed = EngineCrashed(said, exitcode=-11, detail="tail")
    assert (str(crashed), words_of(crashed)) == (str(exc), said)


def test_values_stay_plain_and_nested_words_are_words():
    from pathlib import Path

    import numpy as np

    inner = words("id {id}", id=np.int64(3))
    outer = words("{name}: {error}", name=Path("/m/a.gguf"), error=EngineError(inner))
    assert outer.values == (("name", "/m/a.gguf"), ("error", inner))
    assert type(inner.values[0][1]) is int
    assert str(outer) == "/m/a.gguf: id 3"


def test_a_failure_event_carries_its_words_into_a_trace_and_back():
    from backend.engine.request import GenerationRequest
    from backend.traces import Trace, trace_from_dict, trace_to_dict

    said = words(PROMPT_TOO_LONG, n=812, n_ctx=512)
    failed = GenerationFailed(str(said), words=said)
    assert pickle.loads(pickle.dumps(failed)) == failed  # crosses the engine process's pipe
    assert "words" not in event_to_dict(GenerationFailed("plain"))  # as before
    trace = Trace(GenerationRequest(prompt="x"), (failed,))
    back = trace_from_dict(json.loads(json.dumps(trace_to_dict(trace))))
    assert back.events == (failed,)
