"""Loading models from the window: the target, the draft and the demo pair as the panel, the
File menu, the model manager and "Use these settings" ask for them, with the panel's context
size and threads, and what a load shows while it runs (the status bar's progress, the recent
files, the panel's model lists).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal, Slot

from app.chat.answer_flow import AnswerFlow
from app.models.model_session import ModelSession
from app.panel.generation_panel import GenerationPanel
from app.shell.status_widgets import LoadProgress
from backend.settings import Settings


class ModelControls(QObject):
    target_loaded = Signal()  # a target load went through: an earlier failure is over

    def __init__(self, models: ModelSession, panel: GenerationPanel, settings: Settings,
                 progress: LoadProgress, flow: AnswerFlow, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._models, self._panel, self._settings = models, panel, settings
        self._progress, self._flow = progress, flow
        models.load_started.connect(progress.start)
        models.load_progressed.connect(progress.set_fraction)
        progress.cancel_clicked.connect(models.cancel_load)
        models.models_updated.connect(self._on_models_updated)
        models.target_changed.connect(panel.clear_draft_reasons)
        models.draft_checked.connect(panel.set_draft_reason)
        panel.target_selected.connect(self.open_target)
        panel.draft_selected.connect(self.open_draft)
        panel.apply_context_clicked.connect(self.apply_runtime)

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
        type "draft" — speculative decoding to watch without downloading anything."""
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

    @Slot(object, object)
    def _on_models_updated(self, target, draft) -> None:
        if not self._models.loading:
            self._progress.finish()
        self._panel.set_recent(self._settings.models.recent)  # a file is listed once it loaded
        if self._panel.set_models(target, draft) and target is not None:
            self.target_loaded.emit()
