"""Turning a request into prompt tokens: the model's own chat template, or raw text."""

from __future__ import annotations

from llama_cpp.llama_chat_format import Jinja2ChatFormatter

from backend.engine.errors import EngineError
from backend.engine.model import LoadedModel
from backend.engine.request import GenerationRequest

# For a model without a chat template: a plain transcript that small base models follow.
_FALLBACK_STOPS = ("\nUser:",)


def build_prompt(model: LoadedModel, req: GenerationRequest) -> tuple[list[int], tuple[str, ...]]:
    """(tokens, extra stop strings the template implies)."""
    if req.prompt is not None:
        tokens = model.tokenize(req.prompt, add_special=True)
        if not tokens:
            raise EngineError("The prompt is empty.")
        return tokens, ()
    messages = [{"role": m.role, "content": m.content} for m in req.messages]
    template = model.meta("tokenizer.chat_template")
    if not template:
        text = "".join(f"{m['role'].capitalize()}: {m['content']}\n" for m in messages)
        return model.tokenize(text + "Assistant:", add_special=True), _FALLBACK_STOPS
    formatter = Jinja2ChatFormatter(
        template=template,
        eos_token=model.piece(model.eos_id).decode("utf-8", "replace"),
        bos_token=model.piece(model.bos_id).decode("utf-8", "replace"),
    )
    try:
        result = formatter(messages=messages)
    except Exception as exc:  # a template is code from a file: it can fail in any way
        raise EngineError(f"The model's chat template failed: {exc}") from exc
    stops = result.stop if isinstance(result.stop, list) else [result.stop] if result.stop else []
    tokens = model.tokenize(result.prompt, add_special=not result.added_special)
    return tokens, tuple(s for s in stops if s)
