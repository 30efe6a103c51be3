"""What an engine process's exit status means, in words a person can act on.

`multiprocessing.Process.exitcode` is the negative signal number when a signal ended the
process; native faults (SIGSEGV, SIGILL, SIGBUS, SIGFPE, SIGABRT from a GGML_ASSERT) are the
model's or the build's doing, while SIGKILL and SIGTERM come from outside (the OOM killer, a
person). The restart policy treats the two kinds differently, so both are told apart here.
"""

from __future__ import annotations

import signal

from backend.words import Words, words

SEGV = "llama.cpp crashed (segmentation fault)"
ABORT = "llama.cpp stopped itself (abort: one of its internal checks failed)"
ILL = "llama.cpp crashed (illegal instruction: the build uses an instruction this CPU rejects)"
BUS = "llama.cpp crashed (bus error: the model file may have changed or shrunk while open)"
FPE = "llama.cpp crashed (arithmetic fault)"
KILLED = "llama.cpp was killed (SIGKILL: by the system running out of memory, or by hand)"
TERMINATED = "llama.cpp was terminated (SIGTERM)"
SIGNALLED = "llama.cpp was ended by signal {signal}"
NOT_ANSWERING = "The engine process stopped answering"
EXITED = "The engine process exited unexpectedly (exit code {code})"

_WORDS = {
    signal.SIGSEGV: words(SEGV),
    signal.SIGABRT: words(ABORT),
    signal.SIGILL: words(ILL),
    signal.SIGBUS: words(BUS),
    signal.SIGFPE: words(FPE),
    signal.SIGKILL: words(KILLED),
    signal.SIGTERM: words(TERMINATED),
}
# Signals sent from outside the process: nothing a model did.
EXTERNAL = frozenset({signal.SIGKILL, signal.SIGTERM, signal.SIGINT, signal.SIGHUP})


def describe(exitcode: int | None) -> str:
    """'llama.cpp crashed (segmentation fault)', … for `exitcode`: a signal is llama.cpp's
    doing (native code is what faults), an exit code the engine process's."""
    return str(describe_words(exitcode))


def describe_words(exitcode: int | None) -> Words:
    """The same as Words, for a window that translates it."""
    if exitcode is None:
        return words(NOT_ANSWERING)
    if exitcode < 0:
        try:
            sig = signal.Signals(-exitcode)
        except ValueError:
            return words(SIGNALLED, signal=-exitcode)
        return _WORDS.get(sig, words(SIGNALLED, signal=sig.name))
    return words(EXITED, code=exitcode)


def is_fault(exitcode: int | None) -> bool:
    """True when the process ended by its own fault rather than being killed from outside."""
    if exitcode is None or exitcode >= 0:
        return exitcode not in (None, 0)
    try:
        return signal.Signals(-exitcode) not in EXTERNAL
    except ValueError:
        return True
