"""Every accepted candidate of a finding measured on this machine, or read back when kept,
and every way to speculate ranked: the one run `draftlight pairs --measure` and the window's
Find a draft make.

The candidates are measured one after another in an engine process of their own (the
window's chat keeps its model), started only when something is to be measured or a kept
measurement is to be looked up. `cancel` from any thread stops the answer running; what was
measured before it is kept and ranked. `recall` only reads back what was kept, so that a
second look at a target shows its table at once and measures nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from backend.engine.protocol import EngineLike
from backend.models.draft_finder import HUB, PairCandidate, PairFinding
from backend.models.pair_measure import PairBench, Progress, measurable
from backend.models.pair_results import PairMeasurement, RankedWay, rank
from backend.models.pair_store import PairStore, engine_build, measurement_key
from backend.words import Words, words

TARGET_NOT_HERE = ("{target} is on the Hub, not on this machine: download it to measure how "
                   "fast each way to speculate runs here.")

EngineFactory = Callable[[], EngineLike]
Each = Callable[["Measured"], None]  # what is measured so far, after each candidate


@dataclass(frozen=True)
class Measured:
    tokens: int
    measurements: tuple[tuple[PairMeasurement, bool], ...]  # and whether it was kept
    ranking: tuple[RankedWay, ...]
    not_downloaded: tuple[str, ...]  # accepted Hub candidates
    notes: tuple[Words, ...] = ()  # kept files that were damaged, ignored
    refused: Words | None = None  # why nothing was measured: the target is not here
    cancelled: bool = False
    not_measured: tuple[str, ...] = ()  # measurable candidates left (cancelled, or recall)


def process_engine() -> EngineLike:
    """An engine process with the default runtime (the command line's)."""
    from backend.engine.remote import EngineProcess
    from backend.engine.runtime import EngineRuntime

    return EngineProcess(EngineRuntime())


class PairRun:
    """One run over `finding`'s measurable candidates, on an engine `engine_factory` makes."""

    def __init__(self, finding: PairFinding, tokens: int, *,
                 engine_factory: EngineFactory = process_engine, n_threads: int | None = None,
                 store: PairStore | None = None) -> None:
        self.finding, self.tokens, self.n_threads = finding, tokens, n_threads
        self._make_engine = engine_factory
        self.store = store if store is not None else PairStore()
        self._cancelled = threading.Event()
        self._lock = threading.Lock()
        self._bench: PairBench | None = None

    def cancel(self) -> None:
        self._cancelled.set()
        with self._lock:
            bench = self._bench
        if bench is not None:
            bench.cancel()

    def measure(self, progress: Progress | None = None, each: Each | None = None) -> Measured:
        """Each measurable candidate read back or measured now, ranked; `each` is told the
        ranking so far as every candidate is done (the window ranks them as they come)."""
        return self._run(progress, recall=False, each=each)

    def recall(self) -> Measured:
        """Only what was kept: no model is loaded, and without kept files no engine starts."""
        return self._run(None, recall=True)

    def _run(self, progress: Progress | None, *, recall: bool,
             each: Each | None = None) -> Measured:
        finding = self.finding
        hub = tuple(c.name for c in finding.accepted if c.source == HUB)
        local = [c for c in finding.accepted if measurable(c)]
        if finding.target_bytes_read is not None:  # a target read from the Hub
            said = words(TARGET_NOT_HERE, target=finding.target.path.as_posix())
            return Measured(self.tokens, (), (), hub, refused=said)
        if not local or (recall and not self.store.has_any()):
            return Measured(self.tokens, (), rank(()), hub,
                            not_measured=tuple(_name(c) for c in local))
        made: list[tuple[PairMeasurement, bool]] = []
        notes: list[Words] = []
        left = [_name(c) for c in local]
        engine = self._make_engine()
        try:
            bench = PairBench(engine, finding.target.path, tokens=self.tokens,
                              n_threads=self.n_threads)
            with self._lock:
                self._bench = bench
            build = engine_build(engine)
            for i, c in enumerate(local):
                if self._cancelled.is_set():
                    break
                if recall:
                    kept, note = self.store.load(measurement_key(bench, c, build),
                                                 c.name or c.label)
                    got = kept
                else:
                    share = _share(progress, i, len(local))
                    recalled = self.store.recall_or_measure(bench, c, progress=share, build=build)
                    got, note = recalled.measurement, recalled.note
                    kept = got if recalled.kept else None
                notes += [note] if note is not None else []
                if got is not None:
                    made.append((got, got is kept))
                    left.remove(_name(c))
                    if each is not None:
                        each(self._measured(made, notes, left))
        finally:
            with self._lock:
                self._bench = None
            engine.close()
        return self._measured(made, notes, left)

    def _measured(self, made: list[tuple[PairMeasurement, bool]], notes: list[Words],
                  left: list[str]) -> Measured:
        hub = tuple(c.name for c in self.finding.accepted if c.source == HUB)
        return Measured(self.tokens, tuple(made), rank(m for m, _ in made), hub, tuple(notes),
                        cancelled=self._cancelled.is_set(), not_measured=tuple(left))


def _name(c: PairCandidate) -> str:
    return c.name or c.spec_type


def _share(progress: Progress | None, i: int, n: int) -> Progress | None:
    """`progress` for the i-th of n candidates: its fraction of the whole run."""
    if progress is None:
        return None
    return lambda fraction, said: progress((i + fraction) / n, said)
