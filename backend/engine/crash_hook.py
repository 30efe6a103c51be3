"""A test-only way to crash the engine process on purpose, the way llama.cpp would.

Honoured only when the environment variable `DRAFTLIGHT_TEST_CRASH` names a JSON file, which
only the tests set: `{"at": "step", "n": 3, "signal": "SIGSEGV"}` crashes at the third step of
an answer, `{"at": "load", "match": "q8_0"}` when loading a file whose path contains "q8_0".
The file is deleted as the crash fires, so it fires once: the restarted engine runs normally,
as it would after a real one-off crash. The file is read when a point is reached, so a test
can arm it while an engine process is already running.
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

ENV = "DRAFTLIGHT_TEST_CRASH"


def due(at: str, value: range | str) -> Path | None:
    """The armed hook file if the engine should crash at this point, else None: at "step",
    `value` holds the numbers of the steps just sent; at "load", the file's path."""
    name = os.environ.get(ENV)
    if not name or not value:
        return None
    path = Path(name)
    try:
        spec = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if spec.get("at") != at:
        return None
    hit = spec.get("n") in value if at == "step" else spec.get("match", "") in str(value)
    return path if hit else None


def fire(path: Path) -> None:
    """Crash this process with the hook's signal, disarming the hook first."""
    sig = signal.Signals[json.loads(path.read_text()).get("signal", "SIGSEGV")]
    path.unlink(missing_ok=True)
    os.kill(os.getpid(), sig)


def arm(path: Path, *, at: str, n: int = 0, match: str = "", sig: str = "SIGSEGV") -> None:
    """Write the hook file (for tests): the next engine process to reach that point crashes."""
    path.write_text(json.dumps({"at": at, "n": n, "match": match, "signal": sig}))
