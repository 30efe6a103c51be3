"""What K auto measured, kept from one engine process to the next.

K auto learns each pair's acceptance by draft position and its costs on this machine over an
answer's first steps, and carries them from answer to answer within one engine process. Every
launch of the window, every `draftlight generate`, every restart after a crash or a change of
kernels starts a new process, and without this its first answer learnt from nothing: on a pair
where drafting loses (an F16 target with a Q4_1 draft, every fixed K at 0.72 of plain decoding
on an AMD Zen 5) that first answer drafted at 0.73-0.87 of plain decoding while it learnt so
(docs/BENCHMARKS.md). Now the controller is saved after each answer and the next process's
first answer starts where the last one ended, as a second answer in the same process would.

Saved to one small JSON file per key, under the user's cache folder: a key is everything that
shapes the measurements (the model files, byte size and modification time, the spec type, the
threads, GPU layers, llama.cpp's version and build features, the CPU, this controller's code),
so a machine that updates its build, a re-downloaded model or another thread count starts
afresh rather than from figures that no longer hold. The costs it keeps may date from a
busier or quieter moment: the first drafting choice measures a plain step again, and when the
remembered plain step is more than 10% from the one this engine measured as it loaded, the
first drafting step is set beside the drafting costs, which are forgotten when it is more than
25% away from them (`restore`; a first answer given while a compiler ran had measured a drafted
token at 5 times its cost, and kept every later launch plain). Where they say plain decoding,
that step is a probe made in the first answer whatever they say. And after four plain answers
in a row, the costs are checked so in any case (adaptive_k.RETRY_ANSWERS): the memory is a
starting point, never a verdict.

JSON, not pickle: a file in a cache folder is data. A file that cannot be read, is another
format or does not fit the controller is ignored (the controller starts fresh); one that cannot
be written (a full disk, a read-only folder) costs only the memory. Neither ever fails an
answer.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import hashlib
import json
import logging
import os
import platform
import tempfile
from collections import deque
from pathlib import Path
from typing import Any

import platformdirs

from backend import APP_NAME
from backend.engine import acceptance, adaptive_k, verify_costs
from backend.engine.adaptive_k import SINGLE_MAX_AGE, AdaptiveK, DraftStep
from backend.engine.verify_costs import SHIFT_HELD, SIZE_SAMPLES

log = logging.getLogger(__name__)

# Bumped when a saved field changes meaning in a way the code digest below would not show.
FORMAT = 1
# Files kept: the most recently used; each is a few kB.
KEEP_FILES = 64
# The remembered drafting costs are taken as they are when the remembered plain step is
# within this share of the new engine's (measured as it loads the target); else the first
# drafting step checks them (adaptive_k.COST_SURPRISE). A steady load moves every cost alike,
# and a plain step measured beside them shows it.
SAME_SPEED = 0.10
# A folder of one's own instead of the cache folder's (the tests give each test its own).
DIR_ENV = "DRAFTLIGHT_K_AUTO_DIR"


def default_dir() -> Path:
    folder = os.environ.get(DIR_ENV)
    if folder:
        return Path(folder)
    return platformdirs.user_cache_path(APP_NAME, appauthor=False) / "k-auto"


def file_facts(path: str | os.PathLike) -> list[Any]:
    """A model file as the key sees it: where it is, its size and when it was written."""
    p = Path(path).resolve()
    try:
        st = p.stat()
    except OSError:
        return [str(p)]
    return [str(p), st.st_size, st.st_mtime_ns]


def _cpu_name() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text(errors="replace").splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    return platform.processor()


def _controller_digest() -> str:
    """This controller's code: a change to how it measures starts every memory afresh."""
    try:
        digest = hashlib.sha256()
        for part in (adaptive_k, acceptance, verify_costs):  # the controller and its bases
            digest.update(Path(str(part.__file__)).read_bytes())
        return digest.hexdigest()[:16]
    except OSError:  # a frozen bundle may hold no source: its own version says as much
        from importlib.metadata import PackageNotFoundError, version
        try:
            return version(APP_NAME)
        except PackageNotFoundError:
            return "unknown"


def memory_key(*, spec_type: str, target: str | os.PathLike, draft: str | os.PathLike | None,
               n_threads: int, n_gpu_layers: int, build: dict[str, Any]) -> dict[str, Any]:
    """Everything that shapes what K auto measures, as one JSON-able dict (`build`: the
    llama.cpp build's version, features and library file)."""
    return {
        "format": FORMAT,
        "controller": _controller_digest(),
        "spec_type": spec_type,
        "target": file_facts(target),
        "draft": file_facts(draft) if draft is not None else None,
        "n_threads": n_threads,
        "n_gpu_layers": n_gpu_layers,
        "build": build,
        "cpu": [platform.machine(), _cpu_name(), os.cpu_count()],
    }


# -- the controller as JSON --------------------------------------------------------------------
def state_of(controller: AdaptiveK) -> dict[str, Any]:
    """Every field of the controller, JSON-able."""
    return {f.name: _plain(getattr(controller, f.name)) for f in dataclasses.fields(controller)}


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, deque)):  # a DraftStep is a tuple too
        return [_plain(v) for v in value]
    return value


def _like(template: Any, value: Any) -> Any:
    """`value` read from JSON in the shape of `template`, the fresh controller's field;
    raises ValueError or TypeError when it does not fit."""
    if isinstance(template, bool):
        return bool(value)
    if isinstance(template, (int, float)):
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise TypeError(f"not a number: {value!r}")
        return type(template)(value)
    if isinstance(template, deque):
        return deque((float(v) for v in value), maxlen=template.maxlen)
    if isinstance(template, tuple):
        if len(value) != len(template):
            raise ValueError("another shape")
        return tuple(_like(t, v) for t, v in zip(template, value, strict=True))
    if isinstance(template, list):
        if len(value) != len(template):  # per position or band: another cap
            raise ValueError("another length")
        return [float(v) for v in value]
    raise TypeError(f"no reading for {type(template).__name__}")


# Fields whose fresh value says too little of their shape (empty, or None).
_READERS = {
    "draft_steps": lambda v: deque((DraftStep(*row) for row in v),
                                   maxlen=adaptive_k.DRAFT_COST_STEPS),
    "_by_size": lambda v: {int(n): deque(((float(ms), int(at)) for ms, at in steps),
                                         maxlen=SIZE_SAMPLES)
                           for n, steps in v.items()},
    "draft_overheads": lambda v: deque(((int(k), float(ms)) for k, ms in v),
                                       maxlen=adaptive_k.DRAFT_COST_STEPS),
    "_surprises": lambda v: deque(((int(n), float(ms), float(r)) for n, ms, r in v),
                                  maxlen=SHIFT_HELD),
    "_prompt_catch_up": lambda v: None if v is None else (float(v[0]), int(v[1])),
    "_why_plain": lambda v: None if v is None else (float(v[0]), float(v[1]), int(v[2])),
}


def restore(controller: AdaptiveK, state: dict[str, Any], plain_step_ms: float = 0.0) -> None:
    """Fill a fresh controller from `state_of`'s dict (raises ValueError, TypeError or
    KeyError, leaving it unusable, when the state does not fit). Its times may date from a
    moment of load: the first drafting choice measures a plain step again, and the first
    drafting step checks the drafting costs (adaptive_k.COST_SURPRISE), a probe if need be;
    `plain_step_ms`, this engine's plain step (0 when unknown), is only logged beside them."""
    for f in dataclasses.fields(controller):
        value = state[f.name]
        reader = _READERS.get(f.name)
        setattr(controller, f.name, reader(value) if reader else
                _like(getattr(controller, f.name), value))
    controller._since_single = max(controller._since_single, SINGLE_MAX_AGE)
    then = controller.single_ms()
    # A prior, never a verdict: the first drafting step, or the first answer's first probe
    # when the memory says plain, is set beside the remembered costs, which are forgotten
    # if they do not hold. (Kept unchecked where the plain step agreed within SAME_SPEED, a
    # launch after a busy answer stayed plain for its first answers.)
    controller._costs_unchecked = True
    controller._unchecked_faster = False  # a check owed to the memory is made in any case
    controller._plain_answers = 0
    log.info("K auto's memory: a plain step took %.2f ms then, %.2f now (%s): costs to "
             "check", then, plain_step_ms,
             "about the same" if then > 0 and plain_step_ms > 0
             and abs(then / plain_step_ms - 1) <= SAME_SPEED else "different")


# -- the folder --------------------------------------------------------------------------------
class KAutoMemory:
    """One JSON file per key in `folder`."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else default_dir()
        self._save_failed = False

    def _path(self, key: dict[str, Any]) -> Path:
        digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:24]
        return self.folder / f"{digest}.json"

    def load(self, key: dict[str, Any], fresh: AdaptiveK, plain_step_ms: float = 0.0
             ) -> AdaptiveK | None:
        """A copy of the `fresh` controller filled with the one saved under this key; None
        when there is none or it does not fit. `plain_step_ms`: this engine's plain step, to
        judge the remembered costs by (see restore)."""
        path = self._path(key)
        try:
            saved = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            log.warning("K auto's saved measurements in %s are unreadable: %s", path, exc)
            return None
        if not isinstance(saved, dict) or saved.get("key") != key:
            return None
        controller = copy.deepcopy(fresh)
        try:
            restore(controller, saved["state"], plain_step_ms)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            log.warning("K auto's saved measurements in %s do not fit: %s", path, exc)
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used: kept by the pruning below
        return controller

    def save(self, key: dict[str, Any], controller: AdaptiveK) -> None:
        """Write the controller for this key, atomically (a crash mid-write leaves the old
        file); a failure is logged, never raised."""
        path = self._path(key)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            text = json.dumps({"key": key, "state": state_of(controller)})
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".k-auto-", suffix=".tmp")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as out:
                    out.write(text)
                os.replace(tmp, path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
            self._prune()
        except (OSError, ValueError) as exc:
            if not self._save_failed:  # once: a read-only folder fails at every answer
                log.warning("K auto's measurements could not be saved in %s: %s", self.folder,
                            exc)
            self._save_failed = True

    def _prune(self) -> None:
        files = sorted(self.folder.glob("*.json"), key=lambda p: p.stat().st_mtime_ns,
                       reverse=True)
        for old in files[KEEP_FILES:]:
            with contextlib.suppress(OSError):
                old.unlink()
