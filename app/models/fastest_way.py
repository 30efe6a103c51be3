"""The fastest way to speculate for the loaded target, as measured on this computer: what the
welcome view says, and what the first-run demo speculates with.

When a target file loads, what Find a draft measured for it before is read back off the GUI
thread (backend/models/pair_run.py's recall: no model loaded, no process started when
nothing is kept). The demo's first load, and a measurement the person asked for from the
welcome view, then set the panel to the fastest way: its spec type and K, and its draft file
when it is another one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from app.background import Background
from app.models.find_draft import FinderTarget, find_local
from backend.models.draft_finder import PairFinding
from backend.models.hub import HubClient
from backend.models.inspection import ModelInspection
from backend.models.pair_measure import DEFAULT_TOKENS, DRAFT_FILE_SPECS
from backend.models.pair_results import RankedWay
from backend.models.pair_run import EngineFactory, Measured, PairRun


@dataclass(frozen=True)
class FastestWay:
    """The fastest way measured for `target`: `way` (plain decoding when nothing beats it),
    and the draft file it loads ("" when none)."""

    target: str
    way: RankedWay
    draft_path: str = ""
    measured_on: str = ""  # the latest of the measurements' dates


def fastest(finding: PairFinding, measured: Measured) -> FastestWay | None:
    """The first of `measured`'s ranking, with the path of its file; None when nothing was
    measured."""
    if not measured.measurements or not measured.ranking:
        return None
    way = measured.ranking[0]
    path = next((str(c.path) for c in finding.candidates
                 if (c.spec_type, c.name) == (way.spec_type, way.candidate)
                 and c.path is not None and c.spec_type in DRAFT_FILE_SPECS), "")
    latest = max(m.measured_on for m, _ in measured.measurements)
    return FastestWay(finding.target.path.as_posix(), way, path, latest)


def recall_fastest(target: str, library_models: Callable[[], list[ModelInspection]],
                   engine_factory: EngineFactory, n_threads: int | None) -> FastestWay | None:
    """Run off the GUI thread: `target`'s candidates, and the fastest kept measurement."""
    local = find_local(FinderTarget(path=target), library_models, HubClient(),
                       threading.Event())
    if local.finding.refusal is not None:
        return None
    run = PairRun(local.finding, DEFAULT_TOKENS, engine_factory=engine_factory,
                  n_threads=n_threads)
    return fastest(local.finding, run.recall())


class FastestWays(QObject):
    """Looks up the fastest measured way for each target loaded; `known` says it (None: none
    measured), once per target, stale answers dropped."""

    known = Signal(object)  # FastestWay | None, for the loaded target

    def __init__(self, library_models: Callable[[], list[ModelInspection]],
                 engine_factory: EngineFactory, n_threads: Callable[[], int | None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._library_models, self._make_engine = library_models, engine_factory
        self._n_threads = n_threads
        self.pending = False  # a look-up is running: `current` is not known yet
        self._tasks = Background(self, name="fastest way")
        self._target = ""
        self.current: FastestWay | None = None

    def look_up(self, target: str) -> None:
        self._target, self.current, self.pending = target, None, bool(target)
        self.known.emit(None)
        if not target:
            return
        self._tasks.run(recall_fastest, target, self._library_models, self._make_engine,
                        self._n_threads(),
                        on_result=lambda found: self._found(target, found),
                        on_error=lambda _exc: self._found(target, None))  # unreadable

    def measured(self, finding: PairFinding, measured: Measured) -> FastestWay | None:
        """A measurement just made (Find a draft's): what it says of the loaded target."""
        found = fastest(finding, measured)
        if found is not None and _same(found.target, self._target):
            self._found(self._target, found)
        return found

    def _found(self, target: str, found: FastestWay | None) -> None:
        if target != self._target:
            return  # another target loaded since
        self.current, self.pending = found, False
        self.known.emit(found)

    def stop(self) -> None:
        self._tasks.stop()


def _same(a: str, b: str) -> bool:
    return bool(a and b) and Path(a).resolve() == Path(b).resolve()
