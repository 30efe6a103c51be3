"""Turning a request into prompt tokens: the model's own chat template, or raw text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from llama_cpp.llama_chat_format import Jinja2ChatFormatter

from backend.engine.errors import EngineError
from backend.engine.model import LoadedModel
from backend.engine.request import GenerationRequest, Message
from backend.words import words

TEMPLATE_FAILED = "The model's chat template failed: {error}"
EMPTY_PROMPT = "The prompt is empty."

# For a model without a chat template: a plain transcript that small base models follow.
_FALLBACK_STOPS = ("\nUser:",)


def format_chat(
    model: LoadedModel, messages: Sequence[Message]
) -> tuple[str, tuple[str, ...], bool]:
    """(prompt text, stop strings the template implies, whether the text already holds the
    special tokens a tokenizer would add)."""
    dicts = [{"role": m.role, "content": m.content} for m in messages]
    template = model.meta("tokenizer.chat_template")
    if not template:
        text = "".join(f"{m['role'].capitalize()}: {m['content']}\n" for m in dicts)
        return text + "Assistant:", _FALLBACK_STOPS, False
    formatter = Jinja2ChatFormatter(
        template=template,
        eos_token=model.piece(model.eos_id).decode("utf-8", "replace"),
        bos_token=model.piece(model.bos_id).decode("utf-8", "replace"),
    )
    try:
        # llama-cpp-python types each role's message as its own TypedDict; ours are plain
        result = formatter(messages=cast("list[Any]", dicts))
    except Exception as exc:  # a template is code from a file: it can fail in any way
        raise EngineError(words(TEMPLATE_FAILED, error=exc)) from exc
    stops = result.stop if isinstance(result.stop, list) else [result.stop] if result.stop else []
    return result.prompt, tuple(s for s in stops if s), bool(result.added_special)


def build_prompt(model: LoadedModel, req: GenerationRequest) -> tuple[list[int], tuple[str, ...]]:
    """(tokens, extra stop strings the template implies)."""
    if req.prompt is not None:
        tokens = model.tokenize(req.prompt, add_special=True)
        if not tokens:
            raise EngineError(words(EMPTY_PROMPT))
        return tokens, ()
    text, stops, added_special = format_chat(model, req.messages)
    tokens = model.tokenize(text, add_special=not added_special)
    if req.continue_text:  # the assistant's turn is open: its words so far, then the model's
        # its text is data: a "<|im_end|>" written in it stays text, never a special token
        tokens += model.tokenize(req.continue_text, add_special=False, parse_special=False)
    return tokens, stops
