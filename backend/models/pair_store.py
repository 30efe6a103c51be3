"""Pair measurements kept, so that a second look at a target's table costs nothing.

One JSON file per key under the user's data folder. A key is what K auto's memory keys its
measurements by (backend/engine/k_auto_memory.py: the target's and the draft's files with
their size and modification time, the spec type, threads, GPU layers, llama.cpp's build, the
CPU) plus what this benchmark asked (its prompts, token budget and K): a re-downloaded model,
another build or another machine is measured afresh, never shown figures that no longer hold.
A kept file is data from disk: read back checked (backend/typed_json.py), and one that is
damaged is ignored in words and measured again; one that cannot be written costs only the
keeping. Neither ever fails a measurement.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import logging
import math
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import platformdirs

from backend import APP_NAME, spec_types
from backend.engine.k_auto_memory import file_facts, memory_key
from backend.engine.protocol import EngineLike
from backend.models.draft_finder import PairCandidate
from backend.models.pair_measure import DRAFT_FILE_SPECS, PROMPTS, PairBench, Progress
from backend.models.pair_results import PairMeasurement
from backend.typed_json import Bounds, Schema, SchemaError, parse_json, read_file
from backend.words import Words, words, words_of

log = logging.getLogger(__name__)

FORMAT = 1  # bumped when a kept field changes meaning
KEEP_FILES = 256  # the most recently used; each is a few kB
MAX_FILE = 1 << 20
DIR_ENV = "DRAFTLIGHT_PAIR_MEASURE_DIR"  # a folder of one's own (the tests give each their own)

DAMAGED = "The kept measurement of {name} was ignored and is made again: {error}"
CANNOT_READ = "it cannot be read ({error})."
NOT_JSON = "it is not JSON."
ROWS_MISSING = "it lacks plain decoding, a fixed K or K auto."
NOT_OURS = "it is not a measurement of this pair on this machine."


def default_dir() -> Path:
    folder = os.environ.get(DIR_ENV)
    if folder:
        return Path(folder)
    return platformdirs.user_data_path(APP_NAME, appauthor=False) / "pair-measurements"


def engine_build(engine: EngineLike) -> dict[str, Any]:
    """The llama.cpp build `engine` runs, as its engine process says it (EngineProcess's
    `build_info`), with the library files beside its module. An engine that cannot say (one
    in this process, a test's) is keyed by its kind alone: this module must not load
    llama.cpp, as the window imports it."""
    ask = getattr(engine, "build_info", None)
    if not callable(ask):
        return {"engine": type(engine).__name__}
    info = dict(ask())
    module = Path(str(info.get("module", "")))
    library = module.parent / "lib"
    info["library"] = ([file_facts(p) for p in sorted(library.iterdir()) if p.is_file()]
                       if library.is_dir() else [file_facts(module)])
    return info


def _gpu_layers(engine: EngineLike) -> int:
    """The engine's GPU layers setting (an EngineProcess's runtime, or an Engine's own)."""
    owner = getattr(engine, "runtime", engine)
    value = getattr(owner, "n_gpu_layers", -1)
    return value if isinstance(value, int) else -1


def measurement_key(bench: PairBench, candidate: PairCandidate,
                    build: dict[str, Any]) -> dict[str, Any]:
    """Everything that shapes what `bench` measures of `candidate`, as one JSON-able dict."""
    draft = candidate.path if candidate.spec_type in DRAFT_FILE_SPECS else None
    key = memory_key(spec_type=candidate.spec_type, target=bench.target, draft=draft,
                     n_threads=bench.n_threads or 0, n_gpu_layers=_gpu_layers(bench.engine),
                     build=build)
    asked = hashlib.sha256("\0".join(PROMPTS).encode()).hexdigest()[:16]
    key["pair_measure"] = [FORMAT, asked, bench.tokens, list(bench.ks)]
    return json.loads(json.dumps(key))  # as it reads back: lists, not tuples


def _whole(m: PairMeasurement) -> Words | None:
    rows = m.rows
    ok = (len(rows) >= 3 and rows[0].spec_type == spec_types.PLAIN and rows[-1].k == 0
          and all(r.k for r in rows[1:-1]))
    return None if ok else words(ROWS_MISSING)


# a fitted line's intercept may be below zero; every other number is a time, rate or count
_SCHEMA = Schema(checks={PairMeasurement: _whole}, fields={
    (PairMeasurement, "verify_ms_intercept"): Annotated[float, Bounds(-math.inf)] | None})


@dataclass(frozen=True)
class Recalled:
    measurement: PairMeasurement | None  # None: cancelled, nothing kept
    kept: bool  # read back from an earlier look, not measured now
    note: Words | None = None  # a kept file that was damaged and ignored


class PairStore:
    """One JSON file per key in `folder`."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else default_dir()

    def has_any(self) -> bool:
        """Whether anything is kept at all (a first look needs no engine to find nothing)."""
        try:
            return any(self.folder.glob("*.json"))
        except OSError:
            return False

    def path_for(self, key: dict[str, Any]) -> Path:
        digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:24]
        return self.folder / f"{digest}.json"

    def load(self, key: dict[str, Any], name: str
             ) -> tuple[PairMeasurement | None, Words | None]:
        """The measurement kept under `key`, or None and, for a damaged file, why."""
        path = self.path_for(key)
        try:
            doc = parse_json(read_file(path, MAX_FILE))
        except FileNotFoundError:
            return None, None
        except OSError as exc:
            return None, words(DAMAGED, name=name,
                               error=words(CANNOT_READ, error=exc.strerror or exc))
        except (ValueError, SchemaError) as exc:  # JSON's and UTF-8's errors are ValueErrors
            said = words_of(exc) if isinstance(exc, SchemaError) else words(NOT_JSON)
            return None, words(DAMAGED, name=name, error=said)
        if not isinstance(doc, dict) or doc.get("key") != key:  # a digest's 96 bits never collide
            return None, words(DAMAGED, name=name, error=words(NOT_OURS))
        try:
            found = _SCHEMA.decode(PairMeasurement, doc.get("measurement"), "the measurement")
        except SchemaError as exc:
            return None, words(DAMAGED, name=name, error=words_of(exc))
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used: kept by the pruning
        return found, None

    def save(self, key: dict[str, Any], measurement: PairMeasurement) -> None:
        """Write atomically; a failure is logged, never raised."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            text = json.dumps({"key": key, "measurement": dataclasses.asdict(measurement)},
                              allow_nan=False)
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".pair-", suffix=".tmp")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as out:
                    out.write(text)
                os.replace(tmp, self.path_for(key))
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
            files = sorted(self.folder.glob("*.json"), key=lambda p: p.stat().st_mtime_ns,
                           reverse=True)
            for old in files[KEEP_FILES:]:
                with contextlib.suppress(OSError):
                    old.unlink()
        except (OSError, ValueError) as exc:
            log.warning("A pair measurement could not be kept in %s: %s", self.folder, exc)

    def recall_or_measure(self, bench: PairBench, candidate: PairCandidate, *,
                          progress: Progress | None = None,
                          build: dict[str, Any] | None = None) -> Recalled:
        """The kept measurement of `candidate` if there is one for this key, else one made
        now with `bench` and kept (a cancelled one is not). `build`: the engine's llama.cpp
        build (engine_build), asked of the engine when not given."""
        key = measurement_key(bench, candidate, build if build is not None
                              else engine_build(bench.engine))
        kept, note = self.load(key, candidate.name or candidate.label)
        if note is not None:
            log.warning("%s", note)
        if kept is not None:
            return Recalled(kept, True)
        made = bench.measure(candidate, progress)
        if made is not None:
            self.save(key, made)
        return Recalled(made, False, note)
