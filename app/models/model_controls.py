"""Loading models from the window: the target, the draft and the demo pair as the panel, the
File menu, the model manager and "Use these settings" ask for them, with the panel's context
size and threads, and what a load shows while it runs (the status bar's progress, the recent
files, the panel's model lists). The panel's "Which draft?" opens the draft finder for the
loaded target; what it picks is loaded here, as the Draft box would. The fastest way measured
for the loaded target is looked up as it loads (fastest_way.py); the first-run demo, and a
measurement asked for from the welcome view, speculate with it.
"""

from __future__ import annotations

from PySide6.QtCore import QMetaMethod, QObject, Signal, Slot

from app.chat.answer_flow import AnswerFlow
from app.engine_link.engine_runtime import engine_process_factory
from app.models.fastest_way import FastestWay, FastestWays
from app.models.find_draft import settings_models
from app.models.find_draft_window import FindDraftWindow
from app.models.model_session import ModelSession
from app.panel.generation_panel import GenerationPanel
from app.shell.status_widgets import LoadProgress
from backend.serving.target import is_server_path
from backend.settings import Settings


class ModelControls(QObject):
    target_loaded = Signal()  # a target load went through: an earlier failure is over
    fastest_known = Signal(object)  # FastestWay | None: measured for the loaded target
    download_requested = Signal(object)  # a HubModel the draft finder picked: for the downloads

    def __init__(self, models: ModelSession, panel: GenerationPanel, settings: Settings,
                 progress: LoadProgress, flow: AnswerFlow, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._models, self._panel, self._settings = models, panel, settings
        self._progress, self._flow = progress, flow
        self.finder: FindDraftWindow | None = None  # made on first use
        self.fastest = FastestWays(lambda: settings_models(settings),
                                   engine_process_factory(settings),
                                   lambda: settings.models.n_threads or None, self)
        self.fastest.known.connect(self._on_fastest)
        self._apply_fastest = False  # the demo's first load, or a measurement asked for
        self._looked_up = ""  # the target file whose fastest way was looked up
        models.load_started.connect(progress.start)
        models.load_progressed.connect(progress.set_fraction)
        progress.cancel_clicked.connect(models.cancel_load)
        models.models_updated.connect(self._on_models_updated)
        models.target_changed.connect(panel.clear_draft_reasons)
        models.draft_checked.connect(panel.set_draft_reason)
        panel.target_selected.connect(self.open_target)
        panel.draft_selected.connect(self.open_draft)
        panel.apply_context_clicked.connect(self.apply_runtime)
        panel.find_draft_clicked.connect(self.find_draft)
        models.target_changed.connect(self._on_target_changed)

    def runtime(self) -> tuple[int, str, str]:
        """The model manager's view: context size, target and draft paths."""
        t, d = self._models.target, self._models.draft
        return self._panel.n_ctx.value(), t.path if t else "", d.path if d else ""

    @Slot(str)
    def open_target(self, path: str) -> None:
        if self._flow.generating:  # a message waiting for a model keeps waiting for this one
            self._flow.stop()
        self._models.open_target(path, self._panel.n_ctx.value(), self._panel.n_threads.value())
        self._panel.set_recent(self._settings.models.recent)

    def open_demo(self, spec: str = "draft") -> None:
        """First run: the shipped model as an F32 target with its Q8_0 copy drafting, spec
        type "draft" — speculative decoding to watch without downloading anything; or, once
        measured on this computer, the fastest way."""
        self._apply_fastest = True
        self._models.open_demo(self._panel.n_ctx.value(), self._panel.n_threads.value())
        self._panel.set_recent(self._settings.models.recent)
        gs = self._panel.preferred_settings()
        gs.spec_type = spec
        self._panel.set_generation_settings(gs)

    @Slot(str)
    def open_draft(self, path: str) -> None:
        """Load `path` as the draft model; "" unloads the draft."""
        self._models.open_draft(path)
        self._panel.set_recent(self._settings.models.recent)

    @Slot()
    def measure_fastest(self) -> None:
        """Measure every way for the loaded target in the draft finder, then speculate with
        the fastest. Only what is on this computer can be measured: the Hub is not searched."""
        self.find_draft(hub=False)
        if self.finder is None:
            return
        view = self.finder.view
        self._apply_fastest = True

        def measure() -> None:
            view.search_finished.disconnect(measure)
            view.measure()
        view.search_finished.connect(measure)

    @Slot()
    def find_draft(self, hub: bool = True) -> None:
        """Show every way to speculate for the loaded target (a file: a server speculates on
        its own)."""
        target = self._models.target
        if target is None or is_server_path(target.path):
            return
        if self.finder is None:
            self.finder = FindDraftWindow(self._settings, parent=self._panel)
            self.finder.view.set_measure_check(self._measure_check)
            view = self.finder.view
            view.measuring.measured.connect(
                lambda measured, _recalled: view.finding is not None
                and self.fastest.measured(view.finding, measured))
            self.finder.view.use_requested.connect(self.use_candidate)
            self.finder.view.download_requested.connect(self.download_requested)
        signal = QMetaMethod.fromSignal(self.download_requested)
        self.finder.view.set_download_note(None if self.isSignalConnected(signal) else self.tr(
            "Download it from the model manager (File → Models…)."))
        self.finder.show_target(target.path, hub=hub)

    def _measure_check(self) -> str | None:
        if self._flow.generating:
            return self.tr("Wait for the answer to end: measuring beside it would slow both "
                           "and measure neither.")
        return None

    @Slot()
    def _on_target_changed(self) -> None:
        # The finder's candidates were for the previous target: find those of the new one.
        if self.finder is not None and self.finder.isVisible():
            target = self._models.target
            if target is None or is_server_path(target.path):
                self.finder.close()
            else:
                self.find_draft()

    @Slot(str, str, int)
    def use_candidate(self, spec: str, draft: str, k: int = -1) -> None:
        """Speculate with `spec` at K = `k` (0: K auto; -1: the panel's K stays), loading
        `draft` first when it names a file (a draft model or an EAGLE-3 head) that is not the
        loaded draft. The spec type is the preferred one, so the panel selects it as soon as
        the draft it needs has loaded."""
        if draft and (self._models.draft is None or self._models.draft.path != draft):
            if self._flow.generating:  # as a new target does, a new draft ends the answer
                self._flow.stop()
            self.open_draft(draft)
        gs = self._panel.preferred_settings()
        gs.spec_type = spec
        if k >= 0:
            gs.n_draft = k
        self._panel.set_generation_settings(gs)

    def close(self) -> None:
        """The window closes: the finder's search and measurement stop, unwaited, and the
        fastest way's look-up is waited for (bounded)."""
        if self.finder is not None:
            self.finder.close()
        self.fastest.stop()

    @Slot()
    def apply_runtime(self) -> None:
        """The panel's context size, kernels and GPU layers applied: the target loaded again,
        in a new engine process when the llama.cpp build or the GPU split changed."""
        runtime = self._panel.runtime()
        m = self._settings.models
        if (m.kernels, m.gpu_layers) != (runtime.kernels, runtime.n_gpu_layers):
            m.kernels, m.gpu_layers = runtime.kernels, runtime.n_gpu_layers
            self._models.client.restart_engine()
        if m.target:
            self.open_target(m.target)

    @Slot(object)
    def _on_fastest(self, found: FastestWay | None) -> None:
        self.fastest_known.emit(found)
        if not self._apply_fastest or self.fastest.pending:
            return
        self._apply_fastest = False
        if found is not None:
            way = found.way
            self.use_candidate(way.spec_type, found.draft_path,
                               way.k if way.k is not None else -1)

    @Slot(object, object)
    def _on_models_updated(self, target, draft) -> None:
        if not self._models.loading:
            self._progress.finish()
        self._panel.set_recent(self._settings.models.recent)  # a file is listed once it loaded
        if self._panel.set_models(target, draft) and target is not None:
            self.target_loaded.emit()
        path = target.path if target is not None and not is_server_path(target.path) else ""
        if path != self._looked_up and not self._models.loading:
            self._looked_up = path
            self.fastest.look_up(path)
