"""The "Find a draft" view: every way to speculate for one target (its MTP heads, EAGLE-3
heads and draft models in the library and on the Hub, n-gram lookup), each accepted or refused
with the reason in words, accepted first.

The candidates are found off the GUI thread (find_draft.py): those on this computer first,
shown at once, then the Hub's, with a busy bar and Cancel meanwhile. Cancel and a new target
never wait for the search: its late answer is dropped. "Use this" and "Download" are signals
its host connects to the window's own load path and to the downloads. Names and reasons come
from files and servers: they are shown as plain text only.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from app.backend_text import error_text, reason_text, words_text
from app.background import Background
from app.formatting import human_size, plain_tooltip
from app.models.find_draft import (
    FinderTarget,
    HubFinding,
    LocalFinding,
    find_hub,
    find_local,
)
from app.models.find_draft_table import KIND, WHERE, WHY, CandidateTable
from app.models.pair_measuring import PairMeasuring
from app.transcript.message_widgets import plain_label
from app.widgets.busy_row import BusyRow
from backend import spec_types
from backend.models.draft_finder import HUB, PairCandidate, PairFinding
from backend.models.hub import HubClient, HubModel, HubUnreachable
from backend.models.inspection import ModelInspection
from backend.models.pair_measure import DRAFT_FILE_SPECS, PROMPTS
from backend.models.pair_results import PairMeasurement, RankedWay
from backend.models.pair_run import EngineFactory, Measured, process_engine
from backend.models.pairing import draft_search_query
from backend.words import Words

KEEP_K = -1  # "Use this" of a way not measured: the panel's K stays as it is
PROGRESS_STEPS = 1000


class FindDraftView(QWidget):
    use_requested = Signal(str, str, int)  # spec type, the draft's path ("" for none), K
    download_requested = Signal(object)  # HubModel
    search_finished = Signal()  # the search ended: answered, failed or cancelled

    def __init__(self, tasks: Background, client: HubClient,
                 library_models: Callable[[], list[ModelInspection]],
                 parent: QWidget | None = None, *,
                 engine_factory: EngineFactory = process_engine,
                 n_threads: Callable[[], int | None] = lambda: None) -> None:
        super().__init__(parent)
        self._tasks = tasks
        self._client = client
        self._library_models = library_models  # called on a pool thread
        self._serial = 0
        self._cancelled = threading.Event()
        self._busy = False
        self.target: FinderTarget | None = None
        self.finding: PairFinding | None = None
        self.measured: Measured | None = None
        self._hub_models: dict[str, HubModel] = {}
        self._download_note: str | None = None  # why Download is unavailable here
        self._measure_note: Callable[[], str | None] = lambda: None
        self.measuring = PairMeasuring(tasks, engine_factory, n_threads, self)
        self._build()

    def _build(self) -> None:
        self.title = plain_label(self.tr("Find a draft"))
        self.title.setObjectName("sectionTitle")
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.summary = plain_label(self.tr(
            "Choose a target: “Find a draft…” under a library model, or on a repository of "
            "the Search tab."))
        self.hub_line = plain_label()
        self.hub_line.hide()
        self.measure_line = plain_label()
        self.measure_line.hide()
        self.wait_row = BusyRow(self.tr("Stop searching; what was found so far stays"))
        self.wait_bar, self.cancel_button = self.wait_row.bar, self.wait_row.cancel_button
        self.table = CandidateTable()
        self.details = plain_label(selectable=True)

        self.use_button = QPushButton(self.tr("Use this"))
        self.download_button = QPushButton(self.tr("Download"))
        self.measure_button = QPushButton(self.tr("Measure on this computer"))
        self.note = plain_label()
        buttons = QHBoxLayout()
        buttons.addWidget(self.use_button)
        buttons.addWidget(self.download_button)
        buttons.addWidget(self.measure_button)
        buttons.addWidget(self.note, 1)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.summary)
        layout.addWidget(self.hub_line)
        layout.addWidget(self.measure_line)
        layout.addWidget(self.wait_row)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.details)
        layout.addLayout(buttons)

        self.cancel_button.clicked.connect(self.cancel)
        self.use_button.clicked.connect(self._on_use)
        self.download_button.clicked.connect(self._on_download)
        self.measure_button.clicked.connect(self.measure)
        self.table.currentItemChanged.connect(self._update_buttons)
        self.table.itemDoubleClicked.connect(lambda *_: self._on_use())
        self.measuring.progressed.connect(self._on_progress)
        self.measuring.measured.connect(self._on_measured)
        self.measuring.partial.connect(self._on_partial)
        self.measuring.failed.connect(self._on_measure_failed)
        self._update_buttons()

    # Public ------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self._busy

    def show_target(self, target: FinderTarget, *, hub: bool = True) -> None:
        """Find every candidate for `target`; with `hub`, the Hub's drafts of its family too."""
        self._stop_search()
        self.measuring.cancel()
        self._serial += 1
        serial, cancelled = self._serial, threading.Event()
        self._cancelled = cancelled
        self.target, self.finding, self.measured, self._hub_models = target, None, None, {}
        self.table.clear()
        self.title.setText(self.tr("Ways to speculate for {name}").format(name=target.name))
        self.title.setToolTip(plain_tooltip(target.path or target.name))
        self.summary.setText(
            self.tr("Reading the header of {name} on the Hub…").format(name=target.name)
            if target.on_hub else self.tr("Reading the headers of {name} and the library…").format(
                name=target.name))
        self._hub("")
        self._measure_words("")
        self._set_busy(True)
        self._tasks.run(find_local, target, self._library_models, self._client, cancelled,
                        on_result=lambda local: self._on_local(serial, local, hub),
                        on_error=lambda exc: self._on_failed(serial, exc))

    @Slot()
    def measure(self) -> None:
        """Measure every accepted candidate on this computer (kept ones are read back)."""
        if self.finding is None or self._measure_reason() is not None:
            return
        self.measuring.measure(self.finding)
        self._measure_words(self.tr("Starting an engine to measure…"))
        self.wait_bar.setRange(0, PROGRESS_STEPS)
        self.wait_bar.setValue(0)
        self.cancel_button.setToolTip(self.tr(
            "Stop measuring; the ways measured so far are kept and ranked"))
        self._set_busy(True)

    @Slot()
    def cancel(self) -> None:
        """Stop searching or measuring at once; the search's thread stops at its next Hub
        request and its answer is dropped; a measurement keeps what it finished."""
        if not self._busy:
            return
        if self.measuring.measuring:
            self.measuring.stop()  # its answer, with what it finished, comes back
            self._measure_words(self.tr("Stopping…"))
            return
        self._stop_search()
        self._serial += 1
        if self.finding is None:
            self.summary.setText(self.tr("The search was cancelled."))
        else:
            self._hub(self.tr("The Hub search was cancelled; the candidates on this computer "
                              "are listed."))
        self._set_busy(False)

    def close_down(self) -> None:
        """The view goes away: nothing it started waits or answers."""
        self._stop_search()
        self._serial += 1
        self.measuring.cancel()
        self._set_busy(False)

    def set_download_note(self, note: str | None) -> None:
        """Why a Hub candidate cannot be downloaded from here (None: it can)."""
        self._download_note = note
        self._update_buttons()

    def set_measure_check(self, check: Callable[[], str | None]) -> None:
        """Asked before measuring: why not now (an answer being written would share the
        processor with the measurement and slow both), or None."""
        self._measure_note = check
        self._update_buttons()

    def rows(self) -> list[tuple[str, str, str, str, str]]:
        """(spec type, name, where, verdict, why) as shown, in order (for tests)."""
        return self.table.rows()

    def select(self, spec_type: str, name: str = "") -> None:
        self.table.select(spec_type, name)

    # Results -----------------------------------------------------------------------------

    def _on_local(self, serial: int, local: LocalFinding, hub: bool) -> None:
        if serial != self._serial:
            return  # another target, or cancelled
        self._show(local.finding)
        if local.finding.refusal is None and local.finding.target_bytes_read is None:
            self.measuring.recall(local.finding)  # what was measured before shows at once
        if local.finding.refusal is not None or not hub:
            self._set_busy(False)
            return
        self._hub(self.tr(
            "Searching the Hub for smaller models of the “{family}” family (a few MB of header "
            "each, never the weights)…").format(family=draft_search_query(local.inspection)))
        self._tasks.run(find_hub, local, self._client, self._cancelled,
                        on_result=lambda found: self._on_hub(serial, found),
                        on_error=lambda exc: self._on_failed(serial, exc))

    def _on_hub(self, serial: int, found: HubFinding) -> None:
        if serial != self._serial:
            return
        self._hub_models = found.hub_models
        self._show(found.finding)
        error = found.finding.hub_error
        n = len(found.hub_models)
        if error is not None:
            self._hub(words_text(error) + " " + self.tr(
                "The candidates on this computer are listed."))
        elif n:
            self._hub(self.tr(
                "Hub files of the family checked from their headers: {n} ({size} read).").format(
                n=n, size=human_size(found.bytes_read)))
        else:
            self._hub(self.tr("The Hub has no smaller GGUF model of this family."))
        self._set_busy(False)

    def _on_failed(self, serial: int, exc: Exception) -> None:
        if serial != self._serial:
            return  # a cancelled search's Cancelled among them
        text = error_text(exc)
        if isinstance(exc, HubUnreachable):
            text += " " + self.tr("Check the network connection or the proxy settings, then try "
                                  "again.")
        if self.finding is None:
            self.summary.setText(text)
        else:
            self._hub(text)
        self._set_busy(False)

    @Slot(float, object)
    def _on_progress(self, fraction: float, said: Words) -> None:
        if self.measuring.measuring:
            self.wait_bar.setValue(round(fraction * PROGRESS_STEPS))
            self._measure_words(words_text(said))

    @Slot(object, bool)
    def _on_measured(self, measured: Measured, recalled: bool) -> None:
        if recalled and not measured.measurements:
            self._update_buttons()
            return  # nothing kept: nothing to say until Measure
        self.measured = measured
        if self.finding is not None:
            self._show(self.finding)
        text = self._measured_words(measured, recalled)
        for note in measured.notes:
            text += " " + words_text(note)
        self._measure_words(text)
        if not recalled:
            self._set_busy(False)

    @Slot(object)
    def _on_partial(self, so_far: Measured) -> None:
        """A candidate is measured: the table ranks what is measured so far."""
        if self.measuring.measuring and self.finding is not None:
            self.measured = so_far
            self._show(self.finding)

    @Slot(object)
    def _on_measure_failed(self, exc: Exception) -> None:
        self._measure_words(self.tr("Measuring failed: {error}").format(error=error_text(exc)))
        self._set_busy(False)

    def _measured_words(self, measured: Measured, recalled: bool) -> str:
        if measured.refused is not None:
            return words_text(measured.refused)
        dates = sorted({m.measured_on for m, _ in measured.measurements})
        text = self.tr("Measured on this computer ({dates}): {prompts} prompts (code, prose, a "
                       "rewrite), {tokens} tokens each, greedy; speed-ups over plain decoding "
                       "measured beside each.").format(
            dates=", ".join(dates), prompts=len(PROMPTS), tokens=measured.tokens)
        left = len(measured.not_measured)
        if measured.cancelled and left:
            text += " " + self.tr("Stopped: {n} not measured.").format(n=left)
        elif recalled and left:
            text += " " + self.tr("{n} not measured yet: Measure on this computer.").format(
                n=left)
        return text

    # Drawing -----------------------------------------------------------------------------

    def _show(self, finding: PairFinding) -> None:
        self.finding = finding
        self.table.show_finding(finding, self.measured.ranking if self.measured else ())
        name = self.target.name if self.target else ""
        if finding.refusal is not None:
            self.summary.setText(reason_text(finding.refusal) or "")
        else:
            text = self.tr("{good} of {n} ways can speculate for {name}.").format(
                good=len(finding.accepted), n=len(finding.candidates), name=name)
            if finding.target_bytes_read is not None:
                text += " " + self.tr("Its header was read from the Hub ({size}); it is not on "
                                      "this computer yet.").format(
                    size=human_size(finding.target_bytes_read))
            self.summary.setText(text)
        self._update_buttons()

    def _hub(self, text: str) -> None:
        self.hub_line.setText(text)
        self.hub_line.setVisible(bool(text))

    def _measure_words(self, text: str) -> None:
        self.measure_line.setText(text)
        self.measure_line.setVisible(bool(text))

    def _set_busy(self, busy: bool) -> None:
        was = self._busy
        self._busy = busy
        self.wait_row.setVisible(busy)
        if not busy:
            self.wait_bar.setRange(0, 0)  # the next wait, a search's, has no known length
            self.cancel_button.setToolTip(self.tr("Stop searching; what was found so far "
                                                  "stays"))
        if was and not busy:
            self.search_finished.emit()
        self._update_buttons()

    def _stop_search(self) -> None:
        self._cancelled.set()  # the running search stops at its next Hub request

    # Actions -----------------------------------------------------------------------------

    def _use_reason(self, c: PairCandidate | None) -> str | None:
        """Why "Use this" cannot take `c`, or None."""
        if c is None:
            return self.tr("Select an accepted candidate.")
        if not c.accepted:
            return self.tr("It cannot draft for this target: the table says why.")
        if self.target is None or self.target.on_hub:
            return self.tr("The target is on the Hub: download it first.")
        if c.source == HUB:
            return self.tr("It is on the Hub: download it first.")
        return None

    def _download_reason(self, c: PairCandidate | None) -> str | None:
        if c is None or c.source != HUB:
            return self.tr("Select an accepted candidate from the Hub.")
        if not c.accepted or c.name not in self._hub_models:
            return self.tr("It cannot draft for this target: the table says why.")
        return self._download_note

    def _measure_reason(self) -> str | None:
        finding = self.finding
        if self._busy:
            return self.tr("Wait for the search to end.")
        if finding is None or finding.refusal is not None:
            return self.tr("Choose a target first.")
        if finding.target_bytes_read is not None:
            return self.tr("The target is on the Hub: download it first.")
        if not any(c.accepted and c.source != HUB for c in finding.candidates):
            return self.tr("Nothing on this computer can draft for this target.")
        return self._measure_note()

    @Slot()
    def _update_buttons(self, *_args) -> None:
        c = self.table.current()
        self.details.setText(self._details(c) if c is not None else "")
        self.details.setVisible(c is not None)
        way = self.table.current_way()
        for button, reason, tip in (
                (self.use_button, self._use_reason(c), self.tr(
                    "Speculate this way in the main window (its target is loaded too when it "
                    "is not the loaded one), with the K measured fastest")
                 if way is not None else self.tr(
                    "Speculate this way in the main window (its target is loaded too when it "
                    "is not the loaded one)")),
                (self.download_button, self._download_reason(c), self.tr(
                    "Download it on the Downloads tab; it joins the library when done")),
                (self.measure_button, self._measure_reason(), self.tr(
                    "Answer three short prompts with each way, plain decoding beside it, in an "
                    "engine of its own; a few minutes for a large model. Kept: a second look "
                    "costs nothing."))):
            button.setEnabled(reason is None)
            button.setToolTip(reason or tip)
        self.note.setText("" if self.measured is not None else self.tr(
            "Accepted ones can draft for this target; which is fastest here is measured, not "
            "guessed."))

    def _details(self, c: PairCandidate) -> str:
        item = self.table.currentItem()
        if c.spec_type == spec_types.PLAIN:
            return item.text(WHY)
        text = self.tr("{kind} {name} ({where}): {why}").format(
            kind=item.text(KIND), name=c.name, where=item.text(WHERE),
            why=item.text(WHY)) if c.name else f"{item.text(KIND)}: {item.text(WHY)}"
        if c.bytes_read is not None:
            text += " " + self.tr("Decided from its header: {read} read from the Hub, not the "
                                  "whole file.").format(read=human_size(c.bytes_read))
        way = self.table.current_way()
        if way is not None:
            text += " " + self._way_words(way)
        return text

    def _way_words(self, way: RankedWay) -> str:
        k = self.tr("K auto") if way.k == 0 else f"K = {way.k}"
        text = self.tr("Measured {speedup:.2f}× plain decoding at {k} on {date}.").format(
            speedup=way.speedup, k=k, date=way.measured_on)
        if way.predicted:
            text += " " + self.tr("The advisor predicted {p:.2f}× from the same steps.").format(
                p=way.predicted)
        m = next((m for m, _ in self.measured.measurements
                  if (m.spec_type, m.candidate) == (way.spec_type, way.candidate)), None) \
            if self.measured is not None else None
        return text if m is None else text + " " + self._measurement_words(m)

    def _measurement_words(self, m: PairMeasurement) -> str:
        """What the speed-up is made of: acceptance by draft position, the costs, K auto's."""
        alphas = " ".join(f"{a.alpha:.2f}" for a in m.alphas if a.alpha is not None)
        text = self.tr("Acceptance by draft position: {alphas}.").format(alphas=alphas or "—")
        if m.draft_ms_per_token is not None and m.cost_ratio is not None:
            text += " " + self.tr("Drafting costs {ms:.2f} ms a token (c = {c:.2f} of a plain "
                                  "step).").format(ms=m.draft_ms_per_token, c=m.cost_ratio)
        if m.verify_cost is not None:
            text += " " + self.tr("Each token more in the verification batch costs β = {b:.2f} "
                                  "of a plain step.").format(b=m.verify_cost)
        best = m.best_fixed
        text += " " + self.tr("K auto {auto:.2f}×; the best fixed K, {k}, {fixed:.2f}×.").format(
            auto=m.speedup(m.auto), k=best.k, fixed=m.speedup(best))
        return text

    def _on_use(self) -> None:
        c = self.table.current()
        if c is None or self._use_reason(c) is not None:
            return
        path = str(c.path) if c.spec_type in DRAFT_FILE_SPECS and c.path is not None else ""
        way = self.table.current_way()
        k = way.k if way is not None and way.k is not None else KEEP_K
        self.use_requested.emit(c.spec_type, path, k)

    def _on_download(self) -> None:
        c = self.table.current()
        if c is not None and self._download_reason(c) is None:
            self.download_requested.emit(self._hub_models[c.name])
