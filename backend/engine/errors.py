"""Errors the engine raises, each with a message meant for the user.

A message is `Words` (backend/words.py): `str(exc)` is the English sentence, `words_of(exc)`
its template and values for a window that translates it. The templates of engine.py's own
errors are declared here, so that its decoding loop keeps to decoding."""

from __future__ import annotations

from backend.words import Words

NO_TARGET_FOR_DRAFT = "Load a target model before choosing a draft model."
UNKNOWN_SPEC_TYPE = "Unknown spec type {name!r}."
GENERATION_FAILED = "Generation failed unexpectedly."
NO_MODEL = "No model is loaded."
PROMPT_TOO_LONG = "The prompt has {n} tokens, more than the context of {n_ctx}."


class EngineError(Exception):
    """Something the user can act on: a bad file, an incompatible draft, a full context. Its one
    argument is the message, as Words (or plain English text)."""

    def __init__(self, message: Words | str) -> None:
        super().__init__(message)


class LoadCancelled(EngineError):
    """The user cancelled a model load through its progress callback."""


class EngineCrashed(EngineError):
    """The engine process died (a native fault, an abort, a kill) while doing something; the
    message says what happened, in words, and with which files."""

    def __init__(self, message: Words | str, *, exitcode: int | None, detail: str = "") -> None:
        super().__init__(message)
        self.exitcode = exitcode
        self.detail = detail
