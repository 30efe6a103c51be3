"""Errors the engine raises, each with a message meant for the user."""


class EngineError(Exception):
    """Something the user can act on: a bad file, an incompatible draft, a full context."""


class LoadCancelled(EngineError):
    """The user cancelled a model load through its progress callback."""


class EngineCrashed(EngineError):
    """The engine process died (a native fault, an abort, a kill) while doing something; the
    message says what happened, in words, and with which files."""

    def __init__(self, message: str, *, exitcode: int | None, detail: str = "") -> None:
        super().__init__(message)
        self.exitcode = exitcode
        self.detail = detail
