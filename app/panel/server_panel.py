"""The backend choice in the side panel: the local engine, or an OpenAI-compatible server
(llama-server, vLLM, SGLang…) with its address, API key and model.

The model list comes from the server's `/v1/models` on a `Background` thread, never on the GUI
thread; connecting is a load like any other (`ModelSession.open_server`), so the window's
state machine, history, stats line and exports work unchanged. After each answer the panel
says what the server reported of its speculation (`backend.serving.report`) — and that
per-token colours need the local engine, since a server reports numbers, not verdicts.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, QObject, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from app.backend_text import backend_text, error_text, option_label, option_tooltip
from app.background import Background
from app.i18n import translate
from app.panel.collapsible import CollapsibleSection
from backend import settings_schema as schema
from backend.serving.report import NO_COLOURS, SpecReport
from backend.serving.target import is_server_path
from backend.settings import ServerSettings

_SHORT_COMBO = QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
KIND_LABELS = {"local": QT_TRANSLATE_NOOP("ServerPanel", "Local engine"),
               "server": QT_TRANSLATE_NOOP("ServerPanel", "OpenAI-compatible server")}
KEY_WARNING = QT_TRANSLATE_NOOP("ServerPanel", "The key is kept in plain text in the settings "
                                "file (readable by your user only).")


def fetch_models(base_url: str, api_key: str) -> list[str]:
    """The server's model ids (runs on a pool thread)."""
    # imported here: the HTTP client costs a tenth of the window's start, for a choice few make
    from backend.serving.client import ServerClient

    client = ServerClient(base_url, api_key)
    try:
        return client.list_models()
    finally:
        client.close()


class ServerPanel(CollapsibleSection):
    connect_requested = Signal(str, str, str)  # base URL, API key, model
    local_requested = Signal()
    models_listed = Signal(list)  # the model ids the server listed
    models_failed = Signal(str)  # why it could not list them, in one sentence

    def __init__(self, settings: ServerSettings, parent: QWidget | None = None) -> None:
        super().__init__("backend", option_label(schema.BACKEND_KIND), translate(
            "ServerPanel", "The local engine colours every token by where it came from; an "
            "OpenAI-compatible server answers with its own speculation and reports only "
            "numbers."), parent)
        self._work = Background(self, name="server models")
        self.model_combo = QComboBox()
        self.kind_combo = QComboBox()
        # Long names must not widen the side panel (nor the window's minimum size).
        for combo in (self.kind_combo, self.model_combo):
            combo.setSizeAdjustPolicy(_SHORT_COMBO)
            combo.setMinimumContentsLength(10)
        self.kind_combo.setToolTip(option_tooltip(schema.BACKEND_KIND))
        for kind in schema.BACKEND_KINDS:
            self.kind_combo.addItem(self.tr(KIND_LABELS[kind]), kind)
        self.url_edit = QLineEdit(settings.base_url)
        self.url_edit.setToolTip(option_tooltip(schema.SERVER_URL))
        self.url_edit.setPlaceholderText(schema.SERVER_URL.default)
        self.key_edit = QLineEdit(settings.api_key)
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_edit.setPlaceholderText(self.tr("none"))
        self.key_edit.setToolTip(f"{option_tooltip(schema.SERVER_API_KEY)}. {self.tr(KEY_WARNING)}")
        self.model_combo.setEditable(True)  # a name can be typed before the list comes
        self.model_combo.setToolTip(option_tooltip(schema.SERVER_MODEL))
        if settings.model:
            self.model_combo.addItem(settings.model)
        self.list_button = QPushButton(self.tr("List models"))
        self.list_button.setToolTip(self.tr("Ask the server for its models (/v1/models)"))
        self.connect_button = QPushButton(self.tr("Connect"))
        self.connect_button.setToolTip(self.tr("Answer with this server's model from now on"))
        self.status = _note()
        self.note = _note()
        self.note.setText(backend_text(NO_COLOURS))

        form = self.form()
        form.addRow(self.kind_combo)  # the group's title names it
        form.addRow(option_label(schema.SERVER_URL), self.url_edit)
        form.addRow(option_label(schema.SERVER_API_KEY), self.key_edit)
        self.key_note = _note()
        self.key_note.setText(self.tr(KEY_WARNING))
        form.addRow("", self.key_note)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.model_combo, 1)
        row.addWidget(self.list_button)
        form.addRow(option_label(schema.SERVER_MODEL), row)
        form.addRow("", self.connect_button)
        form.addRow("", self.status)
        form.addRow("", self.note)
        # whole rows, labels included, shown only for a server
        self._form = form
        self._server_rows = (self.url_edit, self.key_edit, self.key_note, row,
                             self.connect_button, self.status, self.note)

        self.kind_combo.setCurrentIndex(max(0, self.kind_combo.findData(settings.kind)))
        self.kind_combo.activated.connect(self._on_kind_activated)
        self.list_button.clicked.connect(self.list_models)
        self.connect_button.clicked.connect(self._on_connect_clicked)
        self._show_kind()

    # Reading -----------------------------------------------------------------------------

    @property
    def kind(self) -> str:
        return self.kind_combo.currentData()

    @property
    def base_url(self) -> str:
        return self.url_edit.text().strip()

    @property
    def api_key(self) -> str:
        return self.key_edit.text().strip()

    @property
    def model(self) -> str:
        return self.model_combo.currentText().strip()

    def apply_to(self, settings: ServerSettings) -> None:
        settings.kind, settings.base_url = self.kind, self.base_url
        settings.api_key, settings.model = self.api_key, self.model

    # Acting ------------------------------------------------------------------------------

    def list_models(self) -> None:
        """Ask the server for its models off the GUI thread; `models_listed` or
        `models_failed` tells how it went."""
        self.status.setText(self.tr("Asking {url} for its models…").format(url=self.base_url))
        self.list_button.setEnabled(False)
        self._work.run(fetch_models, self.base_url, self.api_key,
                       on_result=self._on_models, on_error=self._on_models_error)

    def choose(self, kind: str) -> None:
        """Pick the backend kind as the user would."""
        self.kind_combo.setCurrentIndex(self.kind_combo.findData(kind))
        self._on_kind_activated(self.kind_combo.currentIndex())

    def request_connect(self) -> None:
        self._on_connect_clicked()

    def show_target(self, target) -> None:
        """The loaded target (ModelInfo or None): say which server answers, if one does."""
        if target is not None and is_server_path(target.path):
            self.status.setText(self.tr("Connected: {name}.").format(name=target.name))

    def show_report(self, report: SpecReport | None) -> None:
        """What the server said about its last answer's speculation (None: the local
        engine answered)."""
        if report is not None:
            self.note.setText(report.words(backend_text))

    def show_problem(self, message: str) -> None:
        self.status.setText(message)

    def stop(self) -> None:
        self._work.stop()

    # Slots -------------------------------------------------------------------------------

    @Slot(int)
    def _on_kind_activated(self, _index: int) -> None:
        self._show_kind()
        if self.kind == "local":
            self.local_requested.emit()

    def _show_kind(self) -> None:
        for row in self._server_rows:
            self._form.setRowVisible(row, self.kind == "server")

    @Slot()
    def _on_connect_clicked(self) -> None:
        if not self.model:
            self.status.setText(self.tr("Choose a model first: List models asks the server for "
                                        "them."))
            return
        self.connect_requested.emit(self.base_url, self.api_key, self.model)

    def _on_models(self, models: list[str]) -> None:
        self.list_button.setEnabled(True)
        current = self.model
        self.model_combo.clear()
        self.model_combo.addItems(models)
        if current in models:
            self.model_combo.setCurrentText(current)
        if not models:
            words = self.tr("{url} lists no model.")
        elif len(models) == 1:
            words = self.tr("{n} model on {url}.")
        else:
            words = self.tr("{n} models on {url}.")
        self.status.setText(words.format(n=len(models), url=self.base_url))
        self.models_listed.emit(models)

    def _on_models_error(self, exc: Exception) -> None:
        self.list_button.setEnabled(True)
        self.status.setText(error_text(exc))
        self.models_failed.emit(error_text(exc))


def _note() -> QLabel:
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)  # server replies and errors are data
    label.setWordWrap(True)
    label.setObjectName("modelInfo")
    return label


class _CloseWatcher(QObject):
    """Stops the panel's background work when its window closes (no thread outlives it)."""

    def __init__(self, panel: ServerPanel) -> None:
        super().__init__(panel)
        self._panel = panel

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Close:
            self._panel.stop()
        return False


def attach_server_panel(window, last_report: Callable[[], SpecReport | None]) -> ServerPanel:
    """Put the backend choice at the top of the window's side panel and wire it to the
    window's models: connect to a server, go back to the last local GGUF, say what each
    server answer reported."""
    panel = ServerPanel(window.settings.server)
    layout = window.panel.layout()
    layout.insertWidget(0, panel)
    watcher = _CloseWatcher(panel)
    window.installEventFilter(watcher)

    def connect(base_url: str, api_key: str, model: str) -> None:
        if window.generating:
            window.flow.stop()
        panel.apply_to(window.settings.server)
        panel.status.setText(translate("ServerPanel", "Connecting to {url}…").format(
            url=base_url))
        window.models.open_server(base_url, api_key, model)

    def go_local() -> None:
        panel.apply_to(window.settings.server)
        target = window.target
        if target is not None and not is_server_path(target.path):
            return
        path = window.settings.models.target
        if path:
            window.open_target(path)
        else:
            window.show_error(translate("ServerPanel", "Open a GGUF file to answer with the local "
                                                       "engine: File → Open GGUF…."))

    def on_failed(role: str, message: str) -> None:
        if panel.kind == "server" and role == "target":
            panel.show_problem(message)

    panel.connect_requested.connect(connect)
    panel.local_requested.connect(go_local)
    window.models.models_updated.connect(lambda target, _draft: panel.show_target(target))
    window.models.load_failed.connect(on_failed)
    window.answer_finished.connect(lambda _widget: panel.show_report(last_report()))
    return panel
