"""The main window: the chat list, the transcript, the message box and the side panel, laid
out and wired to the objects that do the work.

It is handed its models, as napari's `QtViewer(viewer)` is: a `ModelSession` (what the engine
holds and the loads on their way) and a `ChatSession` (the conversations and their store),
built with the settings in one place (`app.shell.startup.build_window`). The answer flow
(send, stop, regenerate, continue, what is saved when) is its own object (app/chat/answer_flow.py),
and so are the chat's actions, teaching mode, the File menu and Export…; the window holds no
engine object, only lays out and wires, and derives its buttons from their state in one place
(`_update_actions`).
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QCloseEvent, QKeyEvent
from PySide6.QtWidgets import (
    QMainWindow,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.backend_text import reason_text
from app.chat.answer_export_action import AnswerExportAction
from app.chat.answer_flow import AnswerFlow
from app.chat.chat_actions import ChatActions
from app.chat.chat_list import ChatList
from app.chat.chat_session import ChatSession
from app.chat.composer import Composer
from app.chat.conversation import Conversation
from app.chat.message_box import MessageBox
from app.chat.trace_opening import TraceOpener
from app.chat.welcome import Welcome
from app.models.launcher import ModelManagerLauncher
from app.models.model_controls import ModelControls
from app.models.model_names import shown_name
from app.models.model_session import ModelSession
from app.panel.generation_panel import GenerationPanel
from app.shell.about import attach_help_menu
from app.shell.file_menu import FileMenu
from app.shell.language_menu import attach_language_menu
from app.shell.status_widgets import ANSWER, LOAD, SAVE, Banner, LoadProgress
from app.shell.style import SPACE_S
from app.shell.theme_menu import attach_theme_menu
from app.shell.window_state import collect_window, restore_window
from app.teaching.legend import TokenLegend
from app.teaching.teaching_mode import TeachingTools
from app.transcript.message_widgets import AnswerWidget
from app.transcript.transcript_view import TranscriptView
from backend import APP_TITLE
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
        self._closed = False

        self.chat_list = ChatList(chats)
        self.transcript = TranscriptView()
        self.panel = GenerationPanel()
        self.message_box = MessageBox()
        self.flow = AnswerFlow(models, chats, self.chat_list, self.transcript,
                               self.panel.generation_settings, self.panel.n_ctx.value, self)
        # Versions, edits, settings, system prompt and context: app/chat/chat_actions.py
        self.chat_actions = ChatActions(self.flow, self.message_box, self.panel, self.statusBar())
        self.flow.decorations = self.chat_actions
        self._build()
        self.file_menu = FileMenu(self, self.chat_list, settings.models)
        self.trace_opener = TraceOpener(self.chat_list, chats, self)
        self.exports = AnswerExportAction(self, self.flow, self.panel.generation_settings)
        self.model_controls = ModelControls(models, self.panel, settings, self.load_progress,
                                            self.flow, self)
        self.model_manager = ModelManagerLauncher(self, settings, self.model_controls.runtime)
        self.teaching = TeachingTools(self, self.flow, self.panel.generation_settings,
                                      self.legend, lambda: (self.chat_list, self.panel_scroll))
        self._connect()
        restore_window(self, self.splitter, self.panel, settings)
        self.welcome = Welcome(self.flow, self.panel, self)  # over an empty chat
        self.welcome.view.find_models.connect(self.model_manager.open)
        self.welcome.view.open_file.connect(self.file_menu.ask_target)
        self.welcome.view.problem.connect(self.show_error)
        self.welcome.view.measure_fastest.connect(self.model_controls.measure_fastest)
        # the legend shows the shades of the lookups the chosen spec type drafts with, and a
        # token tree's mark while the draft model drafts trees
        def legend_follows(*_args) -> None:
            self.legend.set_spec_type(self.panel.spec_type() or "",
                                      tree_nodes=self.panel.tree_nodes.value())
        self.panel.spec_combo.currentIndexChanged.connect(legend_follows)
        self.panel.tree_nodes.valueChanged.connect(legend_follows)
        legend_follows()
        self.model_controls.fastest_known.connect(self.welcome.view.set_fastest)
        self.help_menu = attach_help_menu(self)  # About, Open log folder
        self.language_menu = attach_language_menu(self, self.teaching.menu)  # View → Language
        self.theme_menu = attach_theme_menu(self, self.teaching.menu)  # View → Theme
        self._on_chat_selected(self.chat_list.current)
        problems = [*settings.problems, chats.store.problem]  # nothing changed silently
        if any(problems):
            self.show_error(" ".join(reason_text(p) if isinstance(p, Words) else p
                                     for p in problems if p))
        self.message_box.setFocus()  # typing goes there once the window shows

    def _build(self) -> None:
        self.setWindowTitle(APP_TITLE)
        self.resize(1280, 820)
        self.banner_row = Banner()
        self.banner = self.banner_row.label
        self.legend = TokenLegend()
        self.composer = Composer(self.flow, self.message_box, self.chat_actions.context_label)
        c = self.composer
        self.send_button, self.stop_button = c.send_button, c.stop_button
        self.regenerate_button = c.regenerate_button
        center = QWidget()
        lay = QVBoxLayout(center)
        lay.setContentsMargins(0, SPACE_S, 0, SPACE_S)  # the splitter's handles part the columns
        lay.setSpacing(SPACE_S)
        for w in (self.banner_row, self.legend, self.chat_actions.system_prompt_row):
            lay.addWidget(w)
        lay.addWidget(self.transcript, 1)
        lay.addWidget(self.chat_actions.notice)
        lay.addWidget(self.composer)

        self.panel_scroll = QScrollArea()
        self.panel_scroll.setWidgetResizable(True)
        self.panel_scroll.setWidget(self.panel)
        self.panel_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scrollbar = self.panel_scroll.verticalScrollBar().sizeHint().width()
        self.panel_scroll.setMinimumWidth(self.panel.minimumSizeHint().width() + scrollbar)
        self.splitter = QSplitter()
        for w in (self.chat_list, center, self.panel_scroll):
            self.splitter.addWidget(w)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([180, 740, 360])
        self.setCentralWidget(self.splitter)
        self.load_progress = LoadProgress(self.statusBar())

    def _connect(self) -> None:
        m, flow, actions, panel = self.models, self.flow, self.chat_actions, self.panel
        # the context line moves while an answer streams, with the answer's own numbers
        flow.transcript.numbers_shown.connect(actions.update_context)
        m.load_started.connect(self._update_actions)
        m.load_failed.connect(lambda role, words: (self.show_error(words, LOAD),
                                                   self.load_failed.emit(role, words)))
        m.load_cancelled.connect(lambda _role: self.statusBar().showMessage(
            self.tr("Loading cancelled."), 5000))
        m.models_updated.connect(self._on_models_updated)
        m.models_ready.connect(self.models_changed)
        m.models_ready.connect(self._update_actions)
        self.model_controls.target_loaded.connect(lambda: self.banner_row.clear(LOAD))

        flow.state_changed.connect(self._update_actions)
        flow.problem.connect(lambda words, topics: self.show_error(words, *topics))
        flow.answers_work.connect(lambda: self.banner_row.clear(ANSWER))
        flow.info.connect(self.statusBar().showMessage)
        flow.info_cleared.connect(self.statusBar().clearMessage)
        actions.answer_requested.connect(flow.start_answer)
        actions.send_requested.connect(self.composer.send_text)
        actions.regenerate_requested.connect(flow.regenerate)
        actions.continue_requested.connect(flow.continue_answer)
        actions.open_model.connect(self.open_target)
        self.chats.failed.connect(lambda words: self.show_error(words, SAVE))
        self.chats.saved_again.connect(lambda: self.banner_row.clear(SAVE))
        self.chat_list.selected.connect(self._on_chat_selected)
        self.chat_list.chosen.connect(self.message_box.setFocus)  # clicked, Enter, New chat
        self.chat_list.info.connect(lambda words: self.statusBar().showMessage(words, 8000))
        self.transcript.answer_rendered.connect(self.answer_finished)
        self.transcript.use_k.connect(panel.n_draft.setValue)
        self.exports.exporter.exported.connect(lambda path: self.statusBar().showMessage(
            self.tr("Exported to {path}").format(path=path), 8000))
        self.exports.exporter.failed.connect(self.show_error)
        self.teaching.problem.connect(self.show_error)

        files = self.file_menu
        files.target_chosen.connect(self.open_target)
        files.draft_chosen.connect(self.open_draft)
        files.trace_chosen.connect(self.open_trace)
        files.models_action.triggered.connect(self.model_manager.open)
        self.trace_opener.failed.connect(self.show_error)
        self.model_manager.serve(self.model_controls)
        self.model_manager.folders_changed.connect(self.save_settings)
        panel.n_ctx.valueChanged.connect(self.model_manager.update)
        panel.n_ctx.valueChanged.connect(actions.update_context)
        panel.open_target_clicked.connect(files.ask_target)
        panel.open_draft_clicked.connect(files.ask_draft)

    def collect_settings(self) -> Settings:
        """The window's state folded into the settings it was opened with."""
        return collect_window(self, self.splitter, self.panel, self.chat_list, self.settings)

    def save_settings(self) -> None:
        if self._persist:
            try:
                save_settings(self.collect_settings(), self._settings_path)
            except OSError as exc:
                log.error("Could not save settings: %s", exc)

    # What the window shows, for its parts and for tests ----------------------------------

    client = property(lambda self: self.models.client)
    target = property(lambda self: self.models.target)
    draft = property(lambda self: self.models.draft)
    loading = property(lambda self: self.models.loading)
    generating = property(lambda self: self.flow.generating)
    conversation = property(lambda self: self.chat_list.current)
    conversation_list = property(lambda self: self.chat_list.list)

    def send(self, text: str, *, check_context: bool = True) -> bool:
        return self.flow.send(text, check_context=check_context)

    def answer_widgets(self) -> list[AnswerWidget]:
        return self.transcript.answer_widgets()

    # Models ------------------------------------------------------------------------------

    @Slot(str)
    def open_target(self, path: str) -> None:
        self.model_controls.open_target(path)

    def open_demo(self, spec: str = "draft") -> None:
        self.model_controls.open_demo(spec)

    @Slot(str)
    def open_draft(self, path: str) -> None:
        self.model_controls.open_draft(path)

    @Slot(object, object)
    def _on_models_updated(self, target, _draft) -> None:
        self.legend.set_mtp_heads(target.n_mtp_heads if target else 0)
        self.setWindowTitle(f"{APP_TITLE} — {shown_name(target)}" if target else APP_TITLE)
        self._update_actions()
        self.model_manager.update()

    # Conversations -----------------------------------------------------------------------

    @Slot(object)
    def _on_chat_selected(self, conv: Conversation) -> None:
        self.chat_actions.show(conv)  # its messages once read (ChatList selects it again)
        self.models.client.reset_cache()  # another history: the cached prefix is of no use
        self._update_actions()

    def open_trace(self, path: str) -> None:
        """Show a recorded answer as a new chat, read off the GUI thread (app.chat.trace_opening);
        a refused file is said in the banner and changes nothing."""
        self.trace_opener.open(path)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # Esc reaches the window when the focused widget had no use for it (an open menu,
        # popup, editor or dialog keeps its own Esc).
        if event.key() == Qt.Key.Key_Escape and self.flow.stop_on_escape():
            return
        super().keyPressEvent(event)

    # State -------------------------------------------------------------------------------

    def show_error(self, message: str, *topics: str) -> None:
        """Say a problem in the banner; `topics` (LOAD, ANSWER) say what it is about, so
        that it goes once that works again."""
        self.banner_row.show_message(message, *topics)

    def _update_actions(self) -> None:
        """Every button and action from the flow's and the models' state: the one place."""
        generating, waiting, loading = self.generating, self.flow.waiting, self.loading
        has_target = self.target is not None
        self.send_button.setEnabled(not generating and not waiting and (has_target or loading))
        self.stop_button.setEnabled(generating or waiting)
        turns = self.conversation.turns if self.chat_list.count() else []
        self.regenerate_button.setEnabled(
            not generating and not loading and has_target and bool(turns)
            and turns[-1].role == "assistant")
        self.chat_list.set_busy(generating or waiting)
        self.chat_actions.set_busy(generating or waiting or loading)
        self.file_menu.set_busy(loading, generating, has_target)
        self.panel.set_busy(loading, generating)

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._closed:
            self._closed = True
            self.trace_opener.stop()
            self.exports.exporter.stop()
            self.model_manager.close()  # pauses its downloads, stops its threads
            self.model_controls.close()  # the draft finder's and the fastest way's threads
            self.save_settings()
            self.transcript.clear()
            if not self.models.shutdown():
                log.error("The engine thread is still running at exit.")
            self.chats.close()  # waits for the last writes
        super().closeEvent(event)
