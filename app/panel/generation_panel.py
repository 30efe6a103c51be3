"""The side panel: which models answer, how they speculate, and how they sample.

Sampling, spec type and K are read when the next answer is requested, so changing them never
reloads a model. Options the loaded models cannot use are greyed out with the reason. Every
input's range, step, label and tooltip come from `backend.settings_schema`, and the spec types
from `backend.spec_types`: the panel declares none of them itself.

The reasons a spec type is greyed out are in spec_reasons.py, the line describing each model
in model_description.py, the spin boxes and rows the forms are made of in form_widgets.py.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.backend_text import (
    backend_text,
    option_label,
    option_tooltip,
    reason_text,
    spec_label,
)
from app.models.model_names import shown_name
from app.panel.chain_choice import ChainChoice
from app.panel.collapsible import CollapsibleSection
from app.panel.combo_items import FileCombo, MiddleElidedCombo, item_enabled, set_item_enabled
from app.panel.form_widgets import caption, open_button, option_input, widget_row
from app.panel.model_description import describe_model, server_target
from app.panel.spec_reasons import SERVER_SPECULATES, spec_reason
from app.shell.style import SPACE_M, SPACE_S
from app.transcript.message_widgets import plain_label
from backend import settings_schema as schema
from backend import spec_types
from backend.engine.runtime import EngineRuntime, fast_unavailable_reason
from backend.models.pairing import remembered_drafts
from backend.serving.target import is_server_path
from backend.settings import GenerationSettings
from backend.settings_schema import Option

NO_DRAFT = ""  # item data of the "(none)" draft entry
# Long file names must not widen the panel: they are shortened in the middle (FileCombo), the
# full path in the tooltips.
_SHORT_COMBO = QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon


class GenerationPanel(QWidget):
    target_selected = Signal(str)  # a path chosen from the recent list
    draft_selected = Signal(str)  # a path, or "" for no draft
    open_target_clicked = Signal()
    open_draft_clicked = Signal()
    find_draft_clicked = Signal()  # "Which draft?" for the loaded target
    apply_context_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._target = None
        self._draft = None
        self._draft_reasons: dict[str, str] = {}  # path -> why it cannot draft
        self._recent: list[str] = []  # remembered model files, most recent first
        # what the user chose, restored when it becomes usable
        self._preferred_spec = spec_types.PLAIN
        self._updating = False

        # Models ------------------------------------------------------------------------
        self.target_combo = FileCombo()
        self.target_combo.setPlaceholderText(self.tr("No model loaded"))
        self.target_combo.setSizeAdjustPolicy(_SHORT_COMBO)
        self.target_combo.setMinimumContentsLength(10)
        self.target_combo.activated.connect(self._on_target_activated)
        # Browse buttons, a folder each, so that the boxes keep the width a file name needs
        self.open_target_button = open_button(self.tr("Open GGUF…"),
                                              self.tr("Open a GGUF file as the target model"))
        self.open_target_button.clicked.connect(self.open_target_clicked)
        self.target_info = plain_label()
        self.target_info.setObjectName("modelInfo")

        self.draft_combo = FileCombo()
        self.draft_combo.setSizeAdjustPolicy(_SHORT_COMBO)
        self.draft_combo.setMinimumContentsLength(10)
        self.draft_combo.activated.connect(self._on_draft_activated)
        self.open_draft_button = open_button(self.tr("Open…"),
                                             self.tr("Open a GGUF to use as the draft model"))
        self.open_draft_button.clicked.connect(self.open_draft_clicked)
        self.find_draft_button = QPushButton(self.tr("Which draft?"))
        self.find_draft_button.setToolTip(self.tr(
            "Every way to speculate for the loaded target: its MTP heads, EAGLE-3 heads and "
            "draft models in the library and on the Hub, n-gram lookup; each with why it can "
            "or cannot draft"))
        self.find_draft_button.clicked.connect(self.find_draft_clicked)
        self.draft_info = plain_label()
        self.draft_info.setObjectName("modelInfo")

        self.n_ctx = option_input(schema.N_CTX)
        self.n_threads = option_input(schema.N_THREADS)
        # Which llama.cpp build and how many GPU layers: a new engine process on Apply.
        self.kernels = QComboBox()
        self.kernels.setToolTip(option_tooltip(schema.KERNELS))
        for name in schema.KERNEL_CHOICES:
            self.kernels.addItem(name, name)
        set_item_enabled(self.kernels, self.kernels.findData("fast"),
                         reason_text(fast_unavailable_reason()))
        self.gpu_layers = option_input(schema.GPU_LAYERS)
        self.apply_context_button = QPushButton(self.tr("Apply"))
        self.apply_context_button.setToolTip(self.tr("Re-create the model's context with this size "
                                                     "and thread count"))
        self.apply_context_button.clicked.connect(self.apply_context_clicked)

        models = CollapsibleSection("models", self.tr("Models"), self.tr(
            "The target model writes the answer; a draft model, if chosen, guesses ahead for "
            "it. Context, threads, build and GPU layers take effect with Apply."))
        form = models.form()
        # Each model over the panel's whole width, under its caption: room for a file's name
        for text, combo, button, info in (
                (self.tr("Target"), self.target_combo, self.open_target_button,
                 self.target_info),
                (self.tr("Draft"), self.draft_combo,
                 widget_row(self.find_draft_button, self.open_draft_button), self.draft_info)):
            form.addRow(caption(text, combo, button))
            form.addRow(combo)
            form.addRow("", info)  # a field, not across the form: Qt wraps those to fit
        form.addRow(option_label(schema.N_CTX), self.n_ctx)
        form.addRow(option_label(schema.N_THREADS), self.n_threads)
        form.addRow(option_label(schema.KERNELS), self.kernels)
        form.addRow(option_label(schema.GPU_LAYERS),
                    widget_row(self.gpu_layers, self.apply_context_button))

        # Speculation -------------------------------------------------------------------
        self.spec_combo = MiddleElidedCombo()
        self.spec_combo.setToolTip(option_tooltip(schema.SPEC_TYPE))
        for st in spec_types.all_spec_types():
            self.spec_combo.addItem(backend_text(st.label), st.name)
        self.spec_combo.activated.connect(self._on_spec_activated)
        self.chain_choice = ChainChoice()  # what drafts after a lookup that finds nothing
        self.chain_choice.chosen.connect(self._on_chain_chosen)
        # the generation settings' numeric inputs, by GenerationSettings field name
        self._inputs: dict[str, QSpinBox | QDoubleSpinBox] = {}
        self.n_draft = self._generation_input(schema.N_DRAFT)
        self.p_min = self._generation_input(schema.P_MIN)
        spec = CollapsibleSection("speculation", self.tr("Speculative decoding"), self.tr(
            "A cheap drafter proposes up to K tokens; the target checks them all in one batch "
            "and keeps only what it would have written itself, so the answer is the target's "
            "own, only faster."))
        form = spec.form()
        form.addRow(option_label(schema.SPEC_TYPE), self.spec_combo)
        self._chain_row = self.chain_choice.row()
        form.addRow(self._chain_row)
        form.addRow(option_label(schema.N_DRAFT), self.n_draft)
        form.addRow(option_label(schema.P_MIN), self.p_min)
        # A drafter's own settings (the lookups'), shown while its type is chosen
        self._spec_form = form
        self._own_settings = [o for o in schema.section("generation") if o.specs]
        for option in self._own_settings:  # each as `self.<its name>`, as the others are
            setattr(self, option.name, self._generation_input(option))
            form.addRow(option_label(option), self._inputs[option.name])

        # Sampling ----------------------------------------------------------------------
        # Every other generation setting the schema declares, in its order: one declared
        # later (registered) gets its input here with no change to the panel.
        placed = {schema.SPEC_TYPE.name, schema.N_DRAFT.name, schema.P_MIN.name,
                  *(o.name for o in self._own_settings)}
        sampling = CollapsibleSection("sampling", self.tr("Sampling"), self.tr(
            "How the target picks each token. Temperature 0 is greedy: the same answer every "
            "time, token for token."))
        form = sampling.form()
        for option in schema.section("generation"):
            if option.name not in placed:
                form.addRow(option_label(option), self._generation_input(option))
        self.temperature, self.top_p, self.top_k, self.min_p, self.repeat_penalty, \
            self.seed, self.max_tokens = (self._inputs[o.name] for o in (
                schema.TEMPERATURE, schema.TOP_P, schema.TOP_K, schema.MIN_P,
                schema.REPEAT_PENALTY, schema.SEED, schema.MAX_TOKENS))

        self.setObjectName("sidePanel")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)  # paint the sheet's canvas
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, SPACE_S, SPACE_S, SPACE_S)  # the splitter's handle is left
        layout.setSpacing(SPACE_M)
        layout.addWidget(models)
        layout.addWidget(spec)
        layout.addWidget(sampling)
        layout.addStretch(1)
        self._update_models()

    # Settings ----------------------------------------------------------------------------

    def _generation_input(self, option: Option) -> QSpinBox | QDoubleSpinBox:
        w = self._inputs[option.name] = option_input(option)
        return w

    def generation_settings(self) -> GenerationSettings:
        return GenerationSettings(spec_type=self.spec_type(),
                                  **{name: w.value() for name, w in self._inputs.items()})

    def preferred_settings(self) -> GenerationSettings:
        """What to save: the spec type the user chose, even while it is unavailable."""
        gs = self.generation_settings()
        gs.spec_type = self._preferred_spec
        return gs

    def set_generation_settings(self, gs: GenerationSettings) -> None:
        self._updating = True
        try:
            for name, w in self._inputs.items():
                w.setValue(getattr(gs, name))
            self._preferred_spec = self._offer_chain(gs.spec_type)
            self._update_spec_items()
        finally:
            self._updating = False

    def spec_type(self) -> str:
        return self.spec_combo.currentData()

    def runtime(self) -> EngineRuntime:
        """The engine process's build and GPU layers as the panel stands."""
        return EngineRuntime(self.kernels.currentData(), self.gpu_layers.value())

    def set_runtime(self, kernels: str, gpu_layers: int) -> None:
        i = self.kernels.findData(kernels)
        if i >= 0 and item_enabled(self.kernels, i):
            self.kernels.setCurrentIndex(i)
        self.gpu_layers.setValue(gpu_layers)

    def set_spec_type(self, spec: str) -> bool:
        """Choose a spec type as the user would; False when it is unavailable."""
        spec = self._offer_chain(spec)
        i = self.spec_combo.findData(spec)
        if i < 0 or not item_enabled(self.spec_combo, i):
            return False
        self._preferred_spec = spec
        self._update_spec_items()  # selects it, and enables K and p_min as it uses them
        return True

    def _offer_chain(self, name: str) -> str:
        """A chain of spec types (given on the command line, saved, or made with the chain
        choice) joins the choices under its own spelling (llama.cpp's order) until another
        is preferred; the name to choose it by."""
        spec = spec_types.get(name)
        if spec is None or not spec.members:
            return name
        if self.spec_combo.findData(spec.name) < 0:
            self.spec_combo.addItem(spec_label(spec.name), spec.name)
        return spec.name

    # Models ------------------------------------------------------------------------------

    def set_recent(self, paths: list[str]) -> None:
        self._recent = list(paths)
        self._update_models()

    def set_models(self, target, draft) -> bool:
        """The engine's loaded models (ModelInfo or None); True when they are other files than
        the panel showed (a load went through), False when the same came back (after a
        failed load, the models the engine kept)."""
        before = [m.path if m else None for m in (self._target, self._draft)]
        self._target, self._draft = target, draft
        self._update_models()
        return [m.path if m else None for m in (target, draft)] != before

    def set_draft_reason(self, path: str, reason: str | None) -> None:
        """Mark a draft candidate as unusable with this target (None: usable)."""
        if reason:
            self._draft_reasons[path] = reason
        else:
            self._draft_reasons.pop(path, None)
        self._update_models()

    def clear_draft_reasons(self) -> None:
        self._draft_reasons.clear()
        self._update_models()

    def draft_candidates(self) -> list[str]:
        return remembered_drafts(self._recent, self._target, self._draft)

    def _update_models(self) -> None:
        self._updating = True
        try:
            recent = list(self._recent)
            target = self._target.path if self._target else None
            if target and target not in recent:
                recent.insert(0, target)
            self.target_combo.clear()
            for path in recent:
                self.target_combo.addItem(shown_name(self._target) if server_target(
                    path, self._target) else Path(path).name, path)
                self.target_combo.setItemData(self.target_combo.count() - 1, path,
                                              Qt.ItemDataRole.ToolTipRole)
            self.target_combo.setCurrentIndex(self.target_combo.findData(target) if target
                                              else -1)
            # the box names the file; the line under it says what is in it
            self.target_info.setText(describe_model(self._target) if self._target
                                     else self.tr("Open a GGUF model to start."))

            self.draft_combo.clear()
            self.draft_combo.addItem(self.tr("(none)"), NO_DRAFT)
            for path in self.draft_candidates():
                self.draft_combo.addItem(Path(path).name, path)
                i = self.draft_combo.count() - 1
                if target is None:
                    set_item_enabled(self.draft_combo, i, self.tr("Load a target model first."))
                elif is_server_path(target):
                    set_item_enabled(self.draft_combo, i, self.tr(SERVER_SPECULATES))
                else:
                    set_item_enabled(self.draft_combo, i, self._draft_reasons.get(path))
                if item_enabled(self.draft_combo, i):  # else the tooltip says why not
                    self.draft_combo.setItemData(i, path, Qt.ItemDataRole.ToolTipRole)
            current = self._draft.path if self._draft else NO_DRAFT
            self.draft_combo.setCurrentIndex(max(0, self.draft_combo.findData(current)))
            self.draft_combo.setEnabled(target is not None)
            self.open_draft_button.setEnabled(target is not None)
            self.find_draft_button.setEnabled(target is not None and not is_server_path(target))
            draft_text = describe_model(self._draft) if self._draft else ""
            if self._draft and self._target and self._draft.name == self._target.name:
                # e.g. the demo pair: honest about where its speed-up comes from
                draft_text += self.tr(" · the target model itself, at another precision")
            self.draft_info.setText(draft_text)
            self.draft_info.setVisible(self._draft is not None)
            self._update_spec_items()
        finally:
            self._updating = False

    def spec_reason(self, spec: str) -> str | None:
        """Why `spec` cannot be used with the loaded models, or None."""
        return spec_reason(spec, self._target, self._draft)

    def _update_spec_items(self) -> None:
        for i in reversed(range(self.spec_combo.count())):  # one chain offered at a time
            name = self.spec_combo.itemData(i)
            if spec_types.CHAIN_SEPARATOR in name and name != self._preferred_spec:
                self.spec_combo.removeItem(i)
        for i in range(self.spec_combo.count()):
            set_item_enabled(self.spec_combo, i, self.spec_reason(self.spec_combo.itemData(i)))
        want = (self._preferred_spec if self.spec_reason(self._preferred_spec) is None
                else spec_types.PLAIN)
        self.spec_combo.setCurrentIndex(self.spec_combo.findData(want))
        current = spec_types.get(self.spec_type())
        self.n_draft.setEnabled(current is not None and current.drafts)
        self.p_min.setEnabled(current is not None and current.uses_p_min)
        self._spec_form.setRowVisible(
            self._chain_row, self.chain_choice.show_for(self.spec_type(), self.spec_reason))
        chosen = spec_types.drafters_of(self.spec_type())
        for option in self._own_settings:
            self._spec_form.setRowVisible(self._inputs[option.name], option.read_by(chosen))

    def set_busy(self, loading: bool, generating: bool) -> None:
        """Model choices wait while a model loads or an answer streams; sampling does not."""
        for w in (self.target_combo, self.open_target_button, self.apply_context_button):
            w.setEnabled(not loading and not generating)
        has_target = self._target is not None
        for w in (self.draft_combo, self.open_draft_button):
            w.setEnabled(has_target and not loading and not generating)

    # Slots -------------------------------------------------------------------------------

    @Slot(int)
    def _on_target_activated(self, index: int) -> None:
        path = self.target_combo.itemData(index)
        if path and (self._target is None or path != self._target.path):
            self.target_selected.emit(path)

    @Slot(int)
    def _on_draft_activated(self, index: int) -> None:
        path = self.draft_combo.itemData(index)
        current = self._draft.path if self._draft else NO_DRAFT
        if path != current:
            self.draft_selected.emit(path)

    @Slot(int)
    def _on_spec_activated(self, index: int) -> None:
        self._preferred_spec = self.spec_combo.itemData(index)
        self._update_spec_items()

    @Slot(str)
    def _on_chain_chosen(self, name: str) -> None:
        self._preferred_spec = self._offer_chain(name)
        self._update_spec_items()
