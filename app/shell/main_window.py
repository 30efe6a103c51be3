"""The main window: the chat list, the transcript, the message box and the generation panel,
laid out and wired to the sessions it is handed.

It is handed its models, as napari's `QtViewer(viewer)` is: a `ModelSession` (what the engine
holds and the loads on their way) and a `ChatSession` (the conversations and their store),
built with the settings in one place (`app.shell.startup.build_window`). It holds no engine object:
it sends requests and renders the events that come back, so nothing here can block on
llama.cpp, and the answer flow (send, stop, regenerate, what is saved when) is its own job.
"""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

from PySide6.QtCore import QByteArray, Qt, Signal, Slot
from PySide6.QtGui import QAction, QCloseEvent, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QMainWindow,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.backend_text import failure_text, reason_text
from app.chat.chat_actions import ChatActions, answer_settings
from app.chat.chat_list import ChatList
from app.chat.chat_session import ChatSession
from app.chat.context_meter import LiveContext
from app.chat.conversation import Conversation, Turn
from app.chat.message_box import MessageBox
from app.chat.trace_opening import TraceOpener, trace_filter
from app.chat.welcome import attach_welcome
from app.formatting import plain_tooltip
from app.models.launcher import ModelManagerLauncher
from app.models.model_names import shown_name
from app.models.model_session import ModelSession
from app.panel.collapsible import folded_sections
from app.panel.generation_panel import GenerationPanel
from app.shell.about import attach_help_menu
from app.shell.language_menu import attach_language_menu
from app.shell.status_widgets import ANSWER, LOAD, Banner, LoadProgress, failure_topics
from app.shell.style import PRIMARY, SPACE_S
from app.shell.theme_menu import attach_theme_menu
from app.teaching.legend import TokenLegend
from app.teaching.lossless_check import FAST_KERNELS, GPU, LosslessCheck
from app.teaching.teaching_mode import TeachingTools
from app.transcript.answer import Answer
from app.transcript.answer_events import answer_request, messages_before
from app.transcript.answer_export import AnswerExporter, export_filter, export_format
from app.transcript.message_widgets import AnswerWidget
from app.transcript.transcript_view import TranscriptView
from backend import APP_TITLE, spec_types
from backend.engine.events import GenerationFailed, GenerationFinished
from backend.engine.request import GenerationRequest, SamplingSettings
from backend.settings import Settings, save_settings
from backend.words import Words

log = logging.getLogger(__name__)



class MainWindow(QMainWindow):
    models_changed = Signal(object, object)  # target, draft ModelInfo (or None), after loads
    load_failed = Signal(str, str)  # role, message
    answer_finished = Signal(object)  # AnswerWidget, once its answer is done and fully drawn

    def __init__(self, settings: Settings, models: ModelSession, chats: ChatSession, *,
                 settings_path: Path | None = None, persist: bool = True) -> None:
        super().__init__()
        self.settings = settings
        self.models = models
        self.chats = chats
        models.setParent(self)
        chats.setParent(self)
        self._settings_path = settings_path
        self._persist = persist
        self._answering: tuple[int, Conversation, Turn] | None = None  # request id, where to
        self._send_after_load = False
        self._closed = False

        self._build()
        self.model_manager = ModelManagerLauncher(self, settings, self._runtime)
        self.lossless = LosslessCheck(models.client, self)  # answers' "Check lossless"
        self._connect()
        self._restore()
        self.welcome = attach_welcome(self)  # over the transcript while the chat is empty
        self.help_menu = attach_help_menu(self)  # About, Open log folder
        self.language_menu = attach_language_menu(self, self.teaching.menu)  # View → Language
        self.theme_menu = attach_theme_menu(self, self.teaching.menu)  # View → Theme
        self._on_chat_selected(self.chat_list.current)
        problem = chats.store.problem
        problems = [*settings.problems,  # nothing changed silently
                    reason_text(problem) if isinstance(problem, Words) else problem]
        if any(problems):
            self.show_error(" ".join(p for p in problems if p))
        self.message_box.setFocus()  # typing goes there once the window shows

    # Construction ------------------------------------------------------------------------

    def _build(self) -> None:
        self.setWindowTitle("Draftlight")
        self.resize(1280, 820)
        self.chat_list = ChatList(self.chats)

        self.banner_row = Banner()
        self.banner = self.banner_row.label

        self.legend = TokenLegend()
        self.transcript = TranscriptView()
        self.message_box = MessageBox()
        self.send_button = QPushButton(self.tr("Send"))
        self.send_button.setDefault(True)
        self.send_button.setProperty(PRIMARY, True)  # the accent button (app/shell/style.py)
        self.stop_button = QPushButton(self.tr("Stop"))
        self.regenerate_button = QPushButton(self.tr("Regenerate"))
        self.regenerate_button.setToolTip(self.tr("Answer the last message again, with the "
                                                  "current settings"))
        # Versions, edits, settings, system prompt and context: app/chat/chat_actions.py
        self.chat_actions = ChatActions(self)
        buttons = QHBoxLayout()
        buttons.addWidget(self.chat_actions.context_label)
        buttons.addStretch(1)
        buttons.addWidget(self.regenerate_button)
        buttons.addWidget(self.stop_button)
        buttons.addWidget(self.send_button)
        center = QWidget()
        lay = QVBoxLayout(center)
        lay.setContentsMargins(0, SPACE_S, 0, SPACE_S)  # the splitter's handles part the columns
        lay.setSpacing(SPACE_S)
        lay.addWidget(self.banner_row)
        lay.addWidget(self.legend)
        lay.addWidget(self.chat_actions.system_prompt_row)
        lay.addWidget(self.transcript, 1)
        lay.addWidget(self.chat_actions.notice)
        lay.addWidget(self.message_box)
        lay.addLayout(buttons)

        self.panel = GenerationPanel()
        panel_scroll = QScrollArea()
        panel_scroll.setWidgetResizable(True)
        panel_scroll.setWidget(self.panel)
        panel_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        panel_scroll.setMinimumWidth(self.panel.minimumSizeHint().width()
                                     + panel_scroll.verticalScrollBar().sizeHint().width())

        self.splitter = QSplitter()
        self.splitter.addWidget(self.chat_list)
        self.splitter.addWidget(center)
        self.splitter.addWidget(panel_scroll)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([180, 740, 360])
        self.setCentralWidget(self.splitter)

        self.load_progress = LoadProgress(self.statusBar())

        menu = self.menuBar().addMenu(self.tr("&File"))
        self.open_action = QAction(self.tr("&Open GGUF…"), self,
                                   shortcut=QKeySequence.StandardKey.Open)
        self.open_draft_action = QAction(self.tr("Open &draft GGUF…"), self)
        self.open_trace_action = QAction(self.tr("Open &trace…"), self)
        self.open_trace_action.setToolTip(self.tr("Show a recorded answer (a JSON trace) as a new "
                                                  "chat"))
        self.trace_opener = TraceOpener(self)
        self.answer_exporter = AnswerExporter(self)
        self.models_action = QAction(self.tr("&Models…"), self, shortcut=QKeySequence("Ctrl+M"))
        self.models_action.setToolTip(self.tr("Find, download and manage GGUF models"))
        quit_action = QAction(self.tr("&Quit"), self, shortcut=QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        for a in (self.open_action, self.open_draft_action, self.open_trace_action,
                  self.chat_list.new_chat_action, self.chat_list.rename_action,
                  self.chat_list.pin_action, self.chat_list.delete_chat_action,
                  self.chat_list.export_markdown_action, self.chat_list.export_json_action,
                  self.chat_list.import_action):
            menu.addAction(a)
        self.recent_menu = menu.addMenu(self.tr("Open &recent"))
        menu.addAction(self.models_action)
        menu.addSeparator()
        menu.addAction(quit_action)
        self.teaching = TeachingTools(self)  # the inspector and the View menu

    def _connect(self) -> None:
        m = self.models
        m.client.events_emitted.connect(self._on_events)
        # the context line moves while an answer streams, a few times a second at most
        self.live_context = LiveContext(self.chat_actions.update_context, self)
        m.client.events_emitted.connect(self.live_context.poke)
        m.load_started.connect(self._on_load_started)
        m.load_progressed.connect(self.load_progress.set_fraction)
        m.load_failed.connect(self._on_load_failed)
        m.load_cancelled.connect(self._on_load_cancelled)
        m.models_updated.connect(self._on_models_updated)
        m.models_ready.connect(self._on_models_ready)
        m.target_changed.connect(self.panel.clear_draft_reasons)
        m.draft_checked.connect(self.panel.set_draft_reason)
        self.chats.failed.connect(self.show_error)
        self.chat_list.selected.connect(self._on_chat_selected)
        self.chat_list.chosen.connect(self.message_box.setFocus)  # clicked, Enter, New chat
        self.chat_list.info.connect(lambda words: self.statusBar().showMessage(words, 8000))
        self.chat_actions.answer_requested.connect(self._start_answer)
        self.chat_actions.send_requested.connect(self._send_text)
        self.chat_actions.regenerate_requested.connect(self.regenerate)
        self.chat_actions.continue_requested.connect(self.continue_answer)
        self.chat_actions.open_model.connect(self.open_target)
        self.panel.n_ctx.valueChanged.connect(self.chat_actions.update_context)
        self.transcript.answer_rendered.connect(self.answer_finished)
        self.transcript.use_k.connect(self.panel.n_draft.setValue)
        self.transcript.check_lossless.connect(self._on_check_lossless)
        self.transcript.export_requested.connect(self._on_export_dialog)
        self.answer_exporter.exported.connect(self._on_exported)
        self.answer_exporter.failed.connect(self.show_error)

        self.send_button.clicked.connect(self._on_send_clicked)
        self.message_box.submitted.connect(self._on_send_clicked)
        self.stop_button.clicked.connect(self.stop)
        self.regenerate_button.clicked.connect(self.regenerate)
        self.load_progress.cancel_clicked.connect(m.cancel_load)
        self.open_action.triggered.connect(self._on_open_target_dialog)
        self.open_draft_action.triggered.connect(self._on_open_draft_dialog)
        self.open_trace_action.triggered.connect(self._on_open_trace_dialog)
        self.trace_opener.opened.connect(self._on_trace_opened)
        self.trace_opener.failed.connect(self.show_error)
        self.recent_menu.aboutToShow.connect(self._on_recent_menu)
        self.models_action.triggered.connect(self.model_manager.open)
        self.model_manager.use_as_target.connect(self.open_target)
        self.model_manager.use_as_draft.connect(self.open_draft)
        self.model_manager.folders_changed.connect(self.save_settings)
        self.panel.n_ctx.valueChanged.connect(self.model_manager.update)

        p = self.panel
        p.open_target_clicked.connect(self._on_open_target_dialog)
        p.open_draft_clicked.connect(self._on_open_draft_dialog)
        p.target_selected.connect(self.open_target)
        p.draft_selected.connect(self.open_draft)
        p.apply_context_clicked.connect(self._on_apply_context)

    def _restore(self) -> None:
        s = self.settings
        if s.window.geometry:
            self.restoreGeometry(QByteArray.fromBase64(s.window.geometry.encode()))
        if s.window.splitter:
            self.splitter.restoreState(QByteArray.fromBase64(s.window.splitter.encode()))
        self.panel.set_generation_settings(s.generation)
        self.panel.n_ctx.setValue(s.models.n_ctx)
        self.panel.n_threads.setValue(s.models.n_threads)
        self.panel.set_runtime(s.models.kernels, s.models.gpu_layers)
        self.panel.set_recent(s.models.recent)

    def collect_settings(self) -> Settings:
        """The window's state folded into the settings it was opened with."""
        s = self.settings
        s.window.geometry = bytes(self.saveGeometry().toBase64()).decode()
        s.window.splitter = bytes(self.splitter.saveState().toBase64()).decode()
        s.window.folded = folded_sections(self.panel)
        s.window.last_chat = (self.conversation.chat_id or 0) if self.chat_list.count() else 0
        s.generation = self.panel.preferred_settings()
        s.models.n_ctx = self.panel.n_ctx.value()
        s.models.n_threads = self.panel.n_threads.value()
        runtime = self.panel.runtime()
        s.models.kernels, s.models.gpu_layers = runtime.kernels, runtime.n_gpu_layers
        return s

    def save_settings(self) -> None:
        if self._persist:
            try:
                save_settings(self.collect_settings(), self._settings_path)
            except OSError as exc:
                log.error("Could not save settings: %s", exc)

    # Models ------------------------------------------------------------------------------

    @property
    def client(self):
        return self.models.client

    @property
    def target(self):
        return self.models.target

    @property
    def draft(self):
        return self.models.draft

    @property
    def loading(self) -> bool:
        return self.models.loading

    @property
    def generating(self) -> bool:
        return self._answering is not None

    def _runtime(self) -> tuple[int, str, str]:
        """The model manager's view of this window: context size, target and draft paths."""
        t, d = self.models.target, self.models.draft
        return self.panel.n_ctx.value(), t.path if t else "", d.path if d else ""

    @Slot(str)
    def open_target(self, path: str) -> None:
        if self.generating:
            self.stop()
        self.models.open_target(path, self.panel.n_ctx.value(), self.panel.n_threads.value())
        self.panel.set_recent(self.settings.models.recent)

    def open_demo(self, spec: str = "draft") -> None:
        """First run: the shipped model as an F32 target with its Q8_0 copy drafting, spec
        type "draft" — speculative decoding to watch without downloading anything."""
        self.models.open_demo(self.panel.n_ctx.value(), self.panel.n_threads.value())
        self.panel.set_recent(self.settings.models.recent)
        gs = self.panel.preferred_settings()
        gs.spec_type = spec
        self.panel.set_generation_settings(gs)

    @Slot(str)
    def open_draft(self, path: str) -> None:
        """Load `path` as the draft model; "" unloads the draft."""
        self.models.open_draft(path)
        self.panel.set_recent(self.settings.models.recent)
        self._update_actions()

    @Slot(str)
    def _on_load_started(self, words: str) -> None:
        self.load_progress.start(words)
        self._update_actions()

    @Slot(str, str)
    def _on_load_failed(self, role: str, message: str) -> None:
        if role == "target":
            self._send_after_load = False
        self.show_error(message, LOAD)
        self.load_failed.emit(role, message)

    @Slot(str)
    def _on_load_cancelled(self, _role: str) -> None:
        self._send_after_load = False
        self.statusBar().showMessage(self.tr("Loading cancelled."), 5000)

    @Slot(object, object)
    def _on_models_updated(self, target, draft) -> None:
        if not self.loading:
            self.load_progress.finish()
        self.panel.set_recent(self.settings.models.recent)  # a file is listed once it loaded
        if self.panel.set_models(target, draft) and target is not None:
            self.banner_row.clear(LOAD)  # a load went through: its earlier failure is over
        self.legend.set_mtp_heads(target.n_mtp_heads if target else 0)
        self.setWindowTitle(f"{APP_TITLE} — {shown_name(target)}" if target else APP_TITLE)
        self._update_actions()
        self.model_manager.update()

    @Slot(object, object)
    def _on_models_ready(self, target, draft) -> None:
        self.models_changed.emit(target, draft)
        if self._send_after_load and target is not None:
            self._send_after_load = False
            self._start_answer()
        self._update_actions()

    @Slot()
    def _on_apply_context(self) -> None:
        runtime = self.panel.runtime()
        m = self.settings.models
        if (m.kernels, m.gpu_layers) != (runtime.kernels, runtime.n_gpu_layers):
            # another llama.cpp build or GPU split: a new engine process, models loaded again
            m.kernels, m.gpu_layers = runtime.kernels, runtime.n_gpu_layers
            self.client.restart_engine()
        if self.settings.models.target:
            self.open_target(self.settings.models.target)

    @Slot()
    def _on_open_target_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a GGUF model"),
                                              self._dialog_dir(), self._gguf_filter())
        if path:
            self.open_target(path)

    @Slot()
    def _on_open_draft_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a draft model"),
                                              self._dialog_dir(), self._gguf_filter())
        if path:
            self.open_draft(path)

    def _gguf_filter(self) -> str:
        return self.tr("GGUF models (*.gguf);;All files (*)")

    def _dialog_dir(self) -> str:
        recent = self.settings.models.recent
        return str(Path(recent[0]).parent) if recent else str(Path.home())

    @Slot()
    def _on_recent_menu(self) -> None:
        self.recent_menu.clear()
        for path in self.settings.models.recent:
            action = self.recent_menu.addAction(Path(path).name)
            action.setToolTip(plain_tooltip(path))
            action.triggered.connect(lambda _=False, p=path: self.open_target(p))
        self.recent_menu.setEnabled(not self.loading and not self.generating)

    # Conversations -----------------------------------------------------------------------

    @property
    def conversation(self) -> Conversation:
        return self.chat_list.current

    @property
    def conversation_list(self):
        return self.chat_list.list

    def new_chat(self) -> None:
        self.chat_list.new_chat()

    def delete_chat(self, row: int) -> None:
        self.chat_list.delete_chat(row)

    @Slot(object)
    def _on_chat_selected(self, conv: Conversation) -> None:
        self.chat_actions.show(conv)  # its messages once read (ChatList selects it again)
        self.models.client.reset_cache()  # another history: the cached prefix is of no use
        self._update_actions()

    @Slot()
    def _on_open_trace_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a trace"), str(Path.home()),
                                              trace_filter())
        if path:
            self.open_trace(path)

    def open_trace(self, path: str) -> None:
        """Show a recorded answer as a new chat, read off the GUI thread (app.chat.trace_opening);
        a refused file is said in the banner and changes nothing."""
        self.trace_opener.open(path)

    @Slot(object)
    def _on_trace_opened(self, conv: Conversation) -> None:
        if not self.chat_list.add_conversation(conv):  # selecting it draws it
            self.show_error(self.tr("Stop the answer first, then open the trace again."))
            return
        for turn in conv.turns:  # saved as a chat, its answer's model name marked as replayed
            if turn.role == "user":
                self.chats.save_user(conv, turn)
            else:
                self.chats.save_answer(conv, turn)

    # Export ------------------------------------------------------------------------------

    @Slot(object)
    def _on_export_dialog(self, widget: AnswerWidget) -> None:
        proposed = self.answer_exporter.proposed_path(self.conversation.title)
        path, chosen = QFileDialog.getSaveFileName(self, self.tr("Export the answer"),
                                                   proposed, export_filter())
        if path:
            self.export_answer(widget, path, chosen)

    def export_answer(self, widget: AnswerWidget, path: str, selected_filter: str = "") -> None:
        """Write a finished answer as an HTML page, a PNG of its widget or a JSON trace (the
        format from the extension, else the dialog's filter), off the GUI thread
        (app.transcript.answer_export); `answer_exporter.exported` or a banner says how it went."""
        answer = widget.answer
        if not answer.done:
            self.show_error(self.tr("The answer is still being written: export it once it has "
                                    "finished."))
            return
        fmt, path = export_format(path, selected_filter)
        # The Answer keeps its spec type and K; the sampler, p_min and max tokens are not kept
        # per answer, so the trace's request has the panel's current ones.
        gs = self.panel.generation_settings()
        request = answer_request(
            answer, messages_before(self.conversation.turns, answer), p_min=gs.p_min,
            sampling=SamplingSettings(temperature=gs.temperature, top_k=gs.top_k, top_p=gs.top_p,
                                      min_p=gs.min_p, repeat_penalty=gs.repeat_penalty,
                                      seed=gs.seed),
            max_tokens=gs.max_tokens, n_draft_fallback=gs.n_draft)
        # File names, never folders; the loaded models' only when they made this answer.
        target, draft = self.target, self.draft
        ours = target is not None and target.name == answer.model_name
        spec = spec_types.get(answer.spec_type)
        uses_draft = ours and draft is not None and spec is not None and (
            spec.needs in spec_types.DRAFT_NEEDS)  # a draft model or an EAGLE-3 head
        self.answer_exporter.export(
            fmt, path, widget, answer, request,
            target_model=Path(target.path).name if ours and target else answer.model_name,
            draft_model=Path(draft.path).name if uses_draft and draft else "")

    @Slot(str)
    def _on_exported(self, path: str) -> None:
        self.statusBar().showMessage(self.tr("Exported to {path}").format(path=path), 8000)

    # Generation --------------------------------------------------------------------------

    @Slot()
    def _on_send_clicked(self) -> None:
        text = self.message_box.toPlainText().strip()
        if text and self.send(text):
            self.message_box.clear()
            self.message_box.setFocus()  # not the Send button, greyed while the answer streams

    @Slot(str)
    def _send_text(self, text: str) -> None:
        """Send a message on the chat's behalf (after the context notice, Continue)."""
        if self.send(text) and self.message_box.toPlainText().strip() == text.strip():
            self.message_box.clear()

    def send(self, text: str, *, check_context: bool = True) -> bool:
        """Add a user message and answer it; False when nothing can answer now, or when it
        would not fit in the context (the notice then offers what to do)."""
        if self.generating:
            return False
        if self.target is None and not self.loading:
            self.show_error(self.tr("Load a model first: File → Open GGUF… or the Target list."),
                            LOAD)
            return False
        conv = self.conversation
        if not conv.loaded:
            self.statusBar().showMessage(self.tr("The chat is still being read; send again."),
                                         5000)
            return False
        if check_context and not self.chat_actions.fits(text):
            return False
        turn = conv.add_user(text)
        self.chats.save_user(conv, turn)
        self.chat_list.update_title()
        self.chat_actions.decorate_user(self.transcript.add_user(text), turn)
        if self.loading:  # answer as soon as the model is ready
            self._send_after_load = True
            self.statusBar().showMessage(self.tr("The answer starts when the model has loaded."))
            self._update_actions()
            return True
        self._start_answer()
        return True

    @Slot()
    def regenerate(self) -> None:
        if self.generating or self.target is None:
            return
        conv = self.conversation
        last = conv.turns[-1] if conv.turns else None
        if last is not None and last.role == "assistant":
            if last.answer is not None and last.answer.text:
                conv.turns.pop()  # kept as a version of the answer (‹ 1 / 2 ›)
            else:  # it failed before writing anything: nothing to keep
                conv.drop_last_answer()
                self.chats.delete_message(last)
            self.transcript.remove_trailing(1)  # the new answer shows its versions
        if conv.turns and conv.turns[-1].role == "user":
            self._start_answer()

    def continue_answer(self, turn: Turn) -> None:
        """Go on with a stopped or interrupted answer in place: the model is sent the
        conversation with the answer's words as its own so far, and what it writes extends
        the same answer (its tokens, numbers and saved message)."""
        conv = self.conversation
        answer = turn.answer
        if self.generating or self.target is None or answer is None or (
                conv.turns[-1:] != [turn]):
            return
        widget = next((w for w in self.transcript.answer_widgets() if w.answer is answer), None)
        if widget is None:
            return
        messages = conv.messages()
        if messages and messages[-1].role == "assistant":
            messages = messages[:-1]  # the answer goes in as the open turn, not a message
        request = dataclasses.replace(self.build_request(), messages=messages,
                                      continue_text=answer.text)
        answer.begin_continuation()
        for row in widget.findChildren(QWidget, "stoppedRow"):
            row.hide()  # Continue/Regenerate come back if it stops again
            row.setObjectName("")
            row.deleteLater()
        self.transcript.resume_answer(widget)
        self._answering = (self.models.client.generate(request), conv, turn)
        self.statusBar().clearMessage()
        self._update_actions()

    @Slot()
    def stop(self) -> None:
        if self.generating:
            self.models.client.stop()
        self._send_after_load = False
        self._update_actions()

    def stop_on_escape(self) -> bool:
        """Esc: stop the answer being written (or waiting for its model); False when there is
        none, so that Esc can mean something else (presentation mode's,
        app/teaching/presentation.py)."""
        if not (self.generating or self._send_after_load):
            return False
        self.stop()
        return True

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # Esc reaches the window when the focused widget had no use for it (an open menu,
        # popup, editor or dialog keeps its own Esc).
        if event.key() == Qt.Key.Key_Escape and self.stop_on_escape():
            return
        super().keyPressEvent(event)

    def build_request(self) -> GenerationRequest:
        gs = self.panel.generation_settings()
        return GenerationRequest(
            messages=self.conversation.messages(),
            spec_type=gs.spec_type,
            n_draft_max=gs.n_draft,
            p_min=gs.p_min,
            sampling=SamplingSettings(temperature=gs.temperature, top_k=gs.top_k,
                                      top_p=gs.top_p, min_p=gs.min_p,
                                      repeat_penalty=gs.repeat_penalty, seed=gs.seed),
            max_tokens=gs.max_tokens,
        )

    def _start_answer(self) -> None:
        request = self.build_request()
        answer = Answer(model_name=self.target.name if self.target else "",
                        spec_type=request.spec_type, n_draft_max=request.n_draft_max)
        conv = self.conversation
        target = self.target
        turn = conv.add_answer(answer, answer_settings(
            self.panel.generation_settings(), target.name if target else "",
            target.path if target else "", self.panel.n_ctx.value()))
        self.lossless.remember(answer, request)
        self.chat_actions.decorate_answer(self.transcript.start_answer(answer), turn)
        self._answering = (self.models.client.generate(request), conv, turn)
        self.statusBar().clearMessage()
        self._update_actions()

    @Slot(object)
    def _on_check_lossless(self, widget: AnswerWidget) -> None:
        """Decode the answer's conversation again plainly and greedily and compare (never
        saved in the chat; refused while an answer is being written)."""
        busy = self.generating or self._send_after_load or self.loading
        self.lossless.check(widget, self.conversation, self.build_request(), busy=busy,
                            target_name=self.target.name if self.target else None,
                            reordered_by=self._reordered_by())

    def _reordered_by(self) -> str:
        """Why this engine's verification batches may sum in another order than one token
        (the lossless check's explanation), or ""."""
        if self.settings.models.kernels == "fast":
            return FAST_KERNELS
        return GPU if self.target is not None and self.target.on_gpu else ""

    @Slot(int, object)
    def _on_events(self, request_id: int, events: list) -> None:
        if self.lossless.feed(request_id, events):
            return  # a lossless check's plain run
        if self._answering is None or self._answering[0] != request_id:
            return  # a stopped request's last events
        _, conv, turn = self._answering
        last = events[-1]
        ended = isinstance(last, GenerationFinished | GenerationFailed)
        if ended:  # before feeding: feed() may draw the end and announce it at once
            self._answering = None
        self.transcript.feed(events)
        if not ended:
            self.chats.save_answer(conv, turn, partial=True)  # kept if anything dies
            return
        if turn.answer.tokens or isinstance(last, GenerationFinished):
            # finished, stopped, or interrupted with what was written: all of it is kept
            self.chats.save_answer(conv, turn)
        if isinstance(last, GenerationFailed):
            self.show_error(failure_text(last), *failure_topics(last))
        else:
            self.banner_row.clear(ANSWER)  # answers work again
        self._update_actions()
        self.chat_actions.answer_ended(turn)

    # State -------------------------------------------------------------------------------

    def show_error(self, message: str, *topics: str) -> None:
        """Say a problem in the banner; `topics` (LOAD, ANSWER) say what it is about, so
        that it goes once that works again."""
        self.banner_row.show_message(message, *topics)

    def _update_actions(self) -> None:
        generating, loading = self.generating, self.loading
        has_target = self.target is not None
        waiting = self._send_after_load
        self.send_button.setEnabled(not generating and not waiting and (has_target or loading))
        self.stop_button.setEnabled(generating or waiting)
        turns = self.conversation.turns if self.chat_list.count() else []
        self.regenerate_button.setEnabled(
            not generating and not loading and has_target and bool(turns)
            and turns[-1].role == "assistant")
        self.chat_list.set_busy(generating or waiting)
        self.chat_actions.set_busy(generating or waiting or loading)
        self.open_action.setEnabled(not loading and not generating)  # as the panel's Open
        self.open_draft_action.setEnabled(not loading and has_target and not generating)
        self.panel.set_busy(loading, generating)

    def answer_widgets(self) -> list[AnswerWidget]:
        return self.transcript.answer_widgets()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._closed:
            self._closed = True
            self.trace_opener.stop()
            self.answer_exporter.stop()
            self.model_manager.close()  # pauses its downloads, stops its threads
            self.save_settings()
            self.transcript.clear()
            if not self.models.shutdown():
                log.error("The engine thread is still running at exit.")
            self.chats.close()  # waits for the last writes
        super().closeEvent(event)
