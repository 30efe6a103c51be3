"""How an answer ended, in the words the window's stats line and the exported page use."""

from __future__ import annotations

# The stop reason of an answer the engine never finished (it failed or died while writing it;
# also what an answer saved while streaming is, until it is saved again when it ends).
INTERRUPTED = "interrupted"

STOP_REASON_WORDS = {
    "eos": "end of answer",
    "length": "max tokens reached",
    "stop_string": "stop string",
    "cancelled": "stopped",
    "context_full": "context full",
    INTERRUPTED: "interrupted: the engine stopped before the answer was finished",
}
