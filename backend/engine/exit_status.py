"""What an engine process's exit status means, in words a person can act on.

`multiprocessing.Process.exitcode` is the negative signal number when a signal ended the
process; native faults (SIGSEGV, SIGILL, SIGBUS, SIGFPE, SIGABRT from a GGML_ASSERT) are the
model's or the build's doing, while SIGKILL and SIGTERM come from outside (the OOM killer, a
person). The restart policy treats the two kinds differently, so both are told apart here.
"""

from __future__ import annotations

import signal

_WORDS = {
    signal.SIGSEGV: "crashed (segmentation fault)",
    signal.SIGABRT: "stopped itself (abort: one of its internal checks failed)",
    signal.SIGILL: "crashed (illegal instruction: the build uses an instruction this CPU "
                   "rejects)",
    signal.SIGBUS: "crashed (bus error: the model file may have changed or shrunk while open)",
    signal.SIGFPE: "crashed (arithmetic fault)",
    signal.SIGKILL: "was killed (SIGKILL: by the system running out of memory, or by hand)",
    signal.SIGTERM: "was terminated (SIGTERM)",
}
# Signals sent from outside the process: nothing a model did.
EXTERNAL = frozenset({signal.SIGKILL, signal.SIGTERM, signal.SIGINT, signal.SIGHUP})


def describe(exitcode: int | None) -> str:
    """'llama.cpp crashed (segmentation fault)', … for `exitcode`: a signal is llama.cpp's
    doing (native code is what faults), an exit code the engine process's."""
    if exitcode is None:
        return "The engine process stopped answering"
    if exitcode < 0:
        try:
            sig = signal.Signals(-exitcode)
        except ValueError:
            return f"llama.cpp was ended by signal {-exitcode}"
        return "llama.cpp " + _WORDS.get(sig, f"was ended by signal {sig.name}")
    return f"The engine process exited unexpectedly (exit code {exitcode})"


def is_fault(exitcode: int | None) -> bool:
    """True when the process ended by its own fault rather than being killed from outside."""
    if exitcode is None or exitcode >= 0:
        return exitcode not in (None, 0)
    try:
        return signal.Signals(-exitcode) not in EXTERNAL
    except ValueError:
        return True
