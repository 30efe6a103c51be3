"""Errors the engine raises, each with a message meant for the user."""


class EngineError(Exception):
    """Something the user can act on: a bad file, an incompatible draft, a full context."""


class LoadCancelled(EngineError):
    """The user cancelled a model load through its progress callback."""
