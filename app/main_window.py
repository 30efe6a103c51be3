"""The main window: conversations, the transcript, the message box and the generation panel,
wired to the engine's worker thread through an EngineClient.

The window holds no engine object at all: it sends requests and renders the events that come
back, so nothing here can block on llama.cpp.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QByteArray, QPoint, Qt, Signal, Slot
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.answer import Answer
from app.chat_session import ChatSession
from app.conversation import Conversation, Turn
from app.draft_compatibility import DraftCompatibility
from app.engine_client import EngineClient
from app.generation_panel import GenerationPanel
from app.legend import TokenLegend
from app.message_box import MessageBox
from app.message_widgets import AnswerWidget, plain_label
from app.transcript_view import TranscriptView
from app.worker import default_engine_factory
from backend.engine.events import GenerationFailed, GenerationFinished
from backend.engine.request import GenerationRequest, SamplingSettings
from backend.models.demo_pair import demo_pair
from backend.settings import Settings, load_settings, save_settings

log = logging.getLogger(__name__)

GGUF_FILTER = "GGUF models (*.gguf);;All files (*)"


class MainWindow(QMainWindow):
    models_changed = Signal(object, object)  # target, draft ModelInfo (or None), after loads
    load_failed = Signal(str, str)  # role, message
    answer_finished = Signal(object)  # AnswerWidget, once its answer is done and fully drawn

    def __init__(
        self,
        *,
        settings_path: Path | None = None,
        engine_factory: Callable[[], object] = default_engine_factory,
        persist: bool = True,
        chats_path: Path | None = None,
    ) -> None:
        super().__init__()
        self._settings_path = settings_path
        self._persist = persist
        self.settings: Settings = load_settings(settings_path)
        # Saved chats; nothing is kept when the window must not persist (screenshots).
        self.chat_session = ChatSession.open(chats_path, persist=persist, parent=self)
        self.chats = self.chat_session.store
        self.client = EngineClient(engine_factory, self)
        self.compatibility = DraftCompatibility(self)
        self._target = None
        self._draft = None
        self._pending_loads = 0
        self._loading_path = ""
        self._active: tuple[int, Answer] | None = None  # the streaming request
        self._answering: tuple[Conversation, Turn] | None = None  # where its answer goes
        self._send_after_load = False
        self._failed_drafts: set[str] = set()
        self._conversations: list[Conversation] = []
        self._closed = False
        self.models_window = None  # the model manager, while it is open

        self._build()
        self._connect()
        self._restore()
        self._list_saved_chats()
        self.new_chat()
        self._update_actions()
        self.chat_session.failed.connect(self.show_error)
        problems = [*self.settings.problems, self.chats.problem]  # nothing changed silently
        if any(problems):
            self.show_error(" ".join(p for p in problems if p))

    # Construction ------------------------------------------------------------------------

    def _build(self) -> None:
        self.setWindowTitle("Draftlight")
        self.resize(1280, 820)

        self.new_chat_button = QPushButton("New chat")
        self.conversation_list = QListWidget()
        self.conversation_list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.conversation_list.setHorizontalScrollBarPolicy(
            Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.conversation_list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.delete_chat_action = QAction("&Delete chat", self)
        self.delete_chat_action.setToolTip("Delete the selected chat and its saved messages")
        left = QWidget()
        lay = QVBoxLayout(left)
        lay.setContentsMargins(6, 6, 0, 6)
        lay.addWidget(self.new_chat_button)
        lay.addWidget(self.conversation_list, 1)

        self.banner = plain_label(selectable=True)
        self.banner.setObjectName("banner")
        self.banner_close = QToolButton(text="✕")
        self.banner_close.setToolTip("Dismiss")
        banner_row = QWidget()
        banner_row.setObjectName("bannerRow")
        b = QHBoxLayout(banner_row)
        b.setContentsMargins(8, 4, 4, 4)
        b.addWidget(self.banner, 1)
        b.addWidget(self.banner_close, 0, Qt.AlignmentFlag.AlignTop)
        self.banner_row = banner_row
        self.banner_row.hide()

        self.legend = TokenLegend()
        self.transcript = TranscriptView()
        self.message_box = MessageBox()
        self.send_button = QPushButton("Send")
        self.send_button.setDefault(True)
        self.stop_button = QPushButton("Stop")
        self.regenerate_button = QPushButton("Regenerate")
        self.regenerate_button.setToolTip("Answer the last message again, with the current "
                                          "settings")
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.regenerate_button)
        buttons.addWidget(self.stop_button)
        buttons.addWidget(self.send_button)
        center = QWidget()
        lay = QVBoxLayout(center)
        lay.setContentsMargins(0, 6, 0, 6)
        lay.addWidget(self.banner_row)
        lay.addWidget(self.legend)
        lay.addWidget(self.transcript, 1)
        lay.addWidget(self.message_box)
        lay.addLayout(buttons)

        self.panel = GenerationPanel()
        panel_scroll = QScrollArea()
        panel_scroll.setWidgetResizable(True)
        panel_scroll.setWidget(self.panel)
        panel_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        panel_scroll.setMinimumWidth(self.panel.minimumSizeHint().width() + 20)

        self.splitter = QSplitter()
        self.splitter.addWidget(left)
        self.splitter.addWidget(center)
        self.splitter.addWidget(panel_scroll)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([180, 740, 360])
        self.setCentralWidget(self.splitter)

        self.load_label = plain_label()
        self.load_bar = QProgressBar()
        self.load_bar.setRange(0, 1000)
        self.load_bar.setMaximumWidth(220)
        self.load_cancel = QPushButton("Cancel")
        self.load_cancel.setToolTip("Stop loading this model")
        for w in (self.load_label, self.load_bar, self.load_cancel):
            self.statusBar().addPermanentWidget(w)
            w.hide()

        menu = self.menuBar().addMenu("&File")
        self.open_action = QAction("&Open GGUF…", self, shortcut=QKeySequence.StandardKey.Open)
        self.open_draft_action = QAction("Open &draft GGUF…", self)
        self.new_chat_action = QAction("&New chat", self, shortcut=QKeySequence.StandardKey.New)
        self.models_action = QAction("&Models…", self, shortcut=QKeySequence("Ctrl+M"))
        self.models_action.setToolTip("Find, download and manage GGUF models")
        quit_action = QAction("&Quit", self, shortcut=QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        for a in (self.open_action, self.open_draft_action, self.new_chat_action,
                  self.delete_chat_action):
            menu.addAction(a)
        self.recent_menu = menu.addMenu("Open &recent")
        menu.addAction(self.models_action)
        menu.addSeparator()
        menu.addAction(quit_action)
        self.setStyleSheet(
            "#bannerRow { background: palette(alternate-base); border: 1px solid #D55E00;"
            " border-radius: 4px; }")

    def _connect(self) -> None:
        c = self.client
        c.events_emitted.connect(self._on_events)
        c.models_changed.connect(self._on_models_changed)
        c.engine_restarted.connect(self._on_engine_restarted)
        c.load_progressed.connect(self._on_load_progressed)
        c.load_failed.connect(self._on_load_failed)
        c.load_cancelled.connect(self._on_load_cancelled)
        self.compatibility.checked.connect(self._on_compatibility_checked)
        self.transcript.answer_rendered.connect(self.answer_finished)

        self.send_button.clicked.connect(self._on_send_clicked)
        self.message_box.submitted.connect(self._on_send_clicked)
        self.stop_button.clicked.connect(self.stop)
        self.regenerate_button.clicked.connect(self.regenerate)
        self.new_chat_button.clicked.connect(self.new_chat)
        self.new_chat_action.triggered.connect(self.new_chat)
        self.conversation_list.currentRowChanged.connect(self._on_conversation_selected)
        self.conversation_list.customContextMenuRequested.connect(self._on_chat_menu)
        self.delete_chat_action.triggered.connect(self._on_delete_chat)
        self.banner_close.clicked.connect(self.banner_row.hide)
        self.load_cancel.clicked.connect(self.client.cancel_load)
        self.open_action.triggered.connect(self._on_open_target_dialog)
        self.open_draft_action.triggered.connect(self._on_open_draft_dialog)
        self.recent_menu.aboutToShow.connect(self._on_recent_menu)
        self.models_action.triggered.connect(self.open_model_manager)
        self.panel.n_ctx.valueChanged.connect(self._update_model_manager)

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
        self.panel.set_recent(s.models.recent)

    def collect_settings(self) -> Settings:
        """The window's state folded into the settings it was opened with."""
        s = self.settings
        s.window.geometry = bytes(self.saveGeometry().toBase64()).decode()
        s.window.splitter = bytes(self.splitter.saveState().toBase64()).decode()
        s.generation = self.panel.preferred_settings()
        s.models.n_ctx = self.panel.n_ctx.value()
        s.models.n_threads = self.panel.n_threads.value()
        return s

    def save_settings(self) -> None:
        if self._persist:
            try:
                save_settings(self.collect_settings(), self._settings_path)
            except OSError as exc:
                log.error("Could not save settings: %s", exc)

    # Models ------------------------------------------------------------------------------

    @property
    def target(self):
        return self._target

    @property
    def draft(self):
        return self._draft

    @property
    def loading(self) -> bool:
        return self._pending_loads > 0

    @property
    def generating(self) -> bool:
        return self._active is not None

    @Slot(str)
    def open_target(self, path: str) -> None:
        if self.generating:
            self.stop()
        self.settings.remember_model(path)
        self.settings.models.target = path
        self.panel.set_recent(self.settings.models.recent)
        self._begin_load(path)
        self.client.load_target(path, self.panel.n_ctx.value(), self.panel.n_threads.value())

    def open_demo(self, spec: str = "draft") -> None:
        """First run: the shipped model as an F32 target with its Q8_0 copy drafting, spec
        type "draft" — speculative decoding to watch without downloading anything."""
        target, draft = (str(p) for p in demo_pair())
        self.settings.models.target = target
        self.settings.models.draft = draft
        self.settings.remember_model(target)
        self.settings.remember_model(draft)
        self.panel.set_recent(self.settings.models.recent)
        gs = self.panel.preferred_settings()
        gs.spec_type = spec
        self.panel.set_generation_settings(gs)
        self._begin_load(target)
        self.load_label.setText("Preparing the demo models (first run only)…")
        self.client.load_demo(self.panel.n_ctx.value(), self.panel.n_threads.value())

    @Slot(str)
    def open_draft(self, path: str) -> None:
        """Load `path` as the draft model; "" unloads the draft."""
        self.settings.models.draft = path
        if not path:
            self._pending_loads += 1
            self.client.unload_draft()
            self._update_actions()
            return
        self._failed_drafts.discard(path)
        self.settings.remember_model(path)
        self.panel.set_recent(self.settings.models.recent)
        self._begin_load(path)
        self.client.load_draft(path)

    def _begin_load(self, path: str) -> None:
        self._pending_loads += 1
        self._loading_path = path
        self.load_label.setText(f"Loading {Path(path).name}…")
        self.load_bar.setValue(0)
        for w in (self.load_label, self.load_bar, self.load_cancel):
            w.show()
        self._update_actions()

    @Slot(str, float)
    def _on_load_progressed(self, _role: str, fraction: float) -> None:
        self.load_bar.setValue(int(fraction * 1000))

    @Slot(str, str)
    def _on_load_failed(self, role: str, message: str) -> None:
        if role == "draft":
            path = self.settings.models.draft
            if path:
                self._failed_drafts.add(path)
                self.panel.set_draft_reason(path, message)
            self.settings.models.draft = ""
        else:
            self._send_after_load = False
            # nothing is loaded now (a load releases the previous target first), and a file
            # that just failed, or crashed the engine, is not opened again at the next start
            self.settings.models.target = ""
        self.show_error(message)
        self.load_failed.emit(role, message)

    @Slot(str)
    def _on_load_cancelled(self, role: str) -> None:
        if role == "draft":
            self.settings.models.draft = ""
        self._send_after_load = False
        self.statusBar().showMessage("Loading cancelled.", 5000)

    @Slot(object, object)
    def _on_models_changed(self, target, draft) -> None:
        self._pending_loads = max(0, self._pending_loads - 1)
        target_changed = (target.path if target else None) != (
            self._target.path if self._target else None)
        self._target, self._draft = target, draft
        if not self.loading:
            for w in (self.load_label, self.load_bar, self.load_cancel):
                w.hide()
        self.panel.set_models(target, draft)
        self.legend.set_mtp_heads(target.n_mtp_heads if target else 0)
        self.setWindowTitle(f"Draftlight — {target.name}" if target else "Draftlight")
        if target is not None and target_changed:
            self.panel.clear_draft_reasons()
            self._failed_drafts.clear()  # refusals were about the previous target
            self.compatibility.check(target.path, self.panel.draft_candidates())
        wanted = self.settings.models.draft
        if (target is not None and draft is None and wanted and not self.loading
                and wanted != target.path and wanted not in self._failed_drafts):
            self.open_draft(wanted)  # the target's load released the draft: bring it back
        self._update_actions()
        self._update_model_manager()
        if not self.loading:
            self.models_changed.emit(target, draft)
            if self._send_after_load and target is not None:
                self._send_after_load = False
                self._start_answer()

    @Slot(object, object)
    def _on_engine_restarted(self, target, draft) -> None:
        """The engine process was restarted after a crash with these models (those it left
        out came as failed loads): the same as a load, without a load of ours to count."""
        self._pending_loads += 1
        self._on_models_changed(target, draft)

    @Slot(str, str, object)
    def _on_compatibility_checked(self, target: str, draft: str, reason) -> None:
        if self._target is not None and self._target.path == target:
            self.panel.set_draft_reason(draft, reason)

    @Slot()
    def _on_apply_context(self) -> None:
        if self.settings.models.target:
            self.open_target(self.settings.models.target)

    @Slot()
    def _on_open_target_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open a GGUF model", self._dialog_dir(),
                                              GGUF_FILTER)
        if path:
            self.open_target(path)

    @Slot()
    def _on_open_draft_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open a draft model", self._dialog_dir(),
                                              GGUF_FILTER)
        if path:
            self.open_draft(path)

    def _dialog_dir(self) -> str:
        recent = self.settings.models.recent
        return str(Path(recent[0]).parent) if recent else str(Path.home())

    @Slot()
    def _on_recent_menu(self) -> None:
        self.recent_menu.clear()
        for path in self.settings.models.recent:
            action = self.recent_menu.addAction(Path(path).name)
            action.setToolTip(path)
            action.triggered.connect(lambda _=False, p=path: self.open_target(p))
        self.recent_menu.setEnabled(not self.loading and not self.generating)

    @Slot()
    def open_model_manager(self) -> None:
        """Show the model manager; its "Use as target/draft" open models like File → Open."""
        if self.models_window is None:
            from app.model_manager import ModelManagerWindow

            w = ModelManagerWindow(extra_folders=self.settings.models.library_folders, parent=self)
            w.use_as_target.connect(self.open_target)
            w.use_as_draft.connect(self.open_draft)
            w.folders_changed.connect(self._on_library_folders_changed)
            w.closed.connect(self._on_model_manager_closed)
            self.models_window = w
        self._update_model_manager()
        self.models_window.show()
        self.models_window.raise_()
        self.models_window.activateWindow()

    @Slot()
    def _update_model_manager(self) -> None:
        if self.models_window is not None:
            self.models_window.set_runtime(self.panel.n_ctx.value(),
                                           self._target.path if self._target else "",
                                           self._draft.path if self._draft else "")

    @Slot(list)
    def _on_library_folders_changed(self, folders: list) -> None:
        self.settings.models.library_folders = list(folders)
        self.save_settings()

    @Slot()
    def _on_model_manager_closed(self) -> None:
        if self.models_window is not None:
            self.models_window.deleteLater()
            self.models_window = None

    # Conversations -----------------------------------------------------------------------

    @property
    def conversation(self) -> Conversation:
        return self._conversations[self.conversation_list.currentRow()]

    @Slot()
    def new_chat(self) -> None:
        if self.generating:
            return
        self._conversations.insert(0, Conversation())
        self.conversation_list.insertItem(0, QListWidgetItem("New chat"))
        self.conversation_list.setCurrentRow(0)

    def _list_saved_chats(self) -> None:
        for conv in self.chat_session.saved_conversations():
            self._conversations.append(conv)
            self.conversation_list.addItem(QListWidgetItem(conv.title))

    @Slot(QPoint)
    def _on_chat_menu(self, pos: QPoint) -> None:
        item = self.conversation_list.itemAt(pos)
        if item is None or not self.conversation_list.isEnabled():
            return
        self.conversation_list.setCurrentItem(item)  # the action applies to the chat clicked
        menu = QMenu(self)
        menu.addAction(self.delete_chat_action)
        menu.exec(self.conversation_list.viewport().mapToGlobal(pos))
        menu.deleteLater()

    @Slot()
    def _on_delete_chat(self) -> None:
        row = self.conversation_list.currentRow()
        if row < 0 or self.generating:
            return
        answer = QMessageBox.question(
            self, "Delete chat", f"Delete “{self._conversations[row].title}” and its messages?")
        if answer == QMessageBox.StandardButton.Yes:
            self.delete_chat(row)

    def delete_chat(self, row: int) -> None:
        """Remove a conversation from the list and from the store."""
        if self.generating or not 0 <= row < len(self._conversations):
            return
        conv = self._conversations[row]
        self.chat_session.delete_chat(conv)
        lst = self.conversation_list
        lst.blockSignals(True)  # the row signals of a removal would index the old list
        lst.takeItem(row)
        lst.blockSignals(False)
        del self._conversations[row]
        if not self._conversations:
            self.new_chat()
            return
        lst.setCurrentRow(min(row, lst.count() - 1))
        self._on_conversation_selected(lst.currentRow())

    @Slot(int)
    def _on_conversation_selected(self, row: int) -> None:
        if row < 0:
            return
        conv = self._conversations[row]
        self.chat_session.load(conv)
        self.transcript.clear()
        for turn in conv.turns:
            if turn.role == "user":
                self.transcript.add_user(turn.text)
            elif turn.answer is not None:
                self.transcript.add_answer(turn.answer)
        self.client.reset_cache()  # another history: the cached prefix is of no use
        self._update_actions()

    # Generation --------------------------------------------------------------------------

    @Slot()
    def _on_send_clicked(self) -> None:
        text = self.message_box.toPlainText().strip()
        if text and self.send(text):
            self.message_box.clear()

    def send(self, text: str) -> bool:
        """Add a user message and answer it; False when nothing can answer now."""
        if self.generating:
            return False
        if self._target is None and not self.loading:
            self.show_error("Load a model first: File → Open GGUF… or the Target list.")
            return False
        conv = self.conversation
        self.chat_session.save_user(conv, conv.add_user(text))
        self.conversation_list.currentItem().setText(conv.title)
        self.transcript.add_user(text)
        if self.loading:  # answer as soon as the model is ready
            self._send_after_load = True
            self.statusBar().showMessage("The answer starts when the model has loaded.")
            self._update_actions()
            return True
        self._start_answer()
        return True

    @Slot()
    def regenerate(self) -> None:
        if self.generating or self._target is None:
            return
        conv = self.conversation
        dropped = conv.turns[-1] if conv.turns else None
        if conv.drop_last_answer():
            self.transcript.remove_trailing(1)
            self.chat_session.delete_message(dropped)  # the new answer replaces it
        if self.conversation.turns and self.conversation.turns[-1].role == "user":
            self._start_answer()

    @Slot()
    def stop(self) -> None:
        if self.generating:
            self.client.stop()
        self._send_after_load = False

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
        answer = Answer(model_name=self._target.name if self._target else "",
                        spec_type=request.spec_type, n_draft_max=request.n_draft_max)
        turn = self.conversation.add_answer(answer)
        self.transcript.start_answer(answer)
        self._active = (self.client.generate(request), answer)
        self._answering = (self.conversation, turn)
        self.statusBar().clearMessage()
        self._update_actions()

    @Slot(int, object)
    def _on_events(self, request_id: int, events: list) -> None:
        if self._active is None or self._active[0] != request_id:
            return  # a stopped request's last events
        last = events[-1]
        ended = isinstance(last, GenerationFinished | GenerationFailed)
        if ended:  # before feeding: feed() may draw the end and announce it at once
            self._active = None
        self.transcript.feed(events)
        conv, turn = self._answering
        if not ended:
            self.chat_session.save_answer(conv, turn, partial=True)  # kept if anything dies
            return
        self._answering = None
        if turn.answer.tokens or isinstance(last, GenerationFinished):
            # finished, stopped, or interrupted with what was written: all of it is kept
            self.chat_session.save_answer(conv, turn)
        if isinstance(last, GenerationFailed):
            self.show_error(last.message)
        self._update_actions()

    # State -------------------------------------------------------------------------------

    def show_error(self, message: str) -> None:
        self.banner.setText(message)
        self.banner_row.show()

    def _update_actions(self) -> None:
        generating, loading = self.generating, self.loading
        has_target = self._target is not None
        waiting = self._send_after_load
        self.send_button.setEnabled(not generating and not waiting and (has_target or loading))
        self.stop_button.setEnabled(generating or waiting)
        turns = self.conversation.turns if self._conversations else []
        self.regenerate_button.setEnabled(
            not generating and not loading and has_target and bool(turns)
            and turns[-1].role == "assistant")
        self.new_chat_button.setEnabled(not generating and not waiting)
        self.new_chat_action.setEnabled(not generating and not waiting)
        self.conversation_list.setEnabled(not generating and not waiting)
        self.delete_chat_action.setEnabled(not generating and not waiting
                                           and bool(self._conversations))
        self.open_action.setEnabled(not loading)
        self.open_draft_action.setEnabled(not loading and has_target and not generating)
        self.panel.set_busy(loading, generating)

    def answer_widgets(self) -> list[AnswerWidget]:
        return self.transcript.answer_widgets()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._closed:
            self._closed = True
            if self.models_window is not None:
                self.models_window.close()  # pauses its downloads, stops its threads
            self.save_settings()
            self.transcript.clear()
            if not self.client.shutdown():
                log.error("The engine thread is still running at exit.")
            self.compatibility.wait()
            self.chat_session.close()  # waits for the last writes
        super().closeEvent(event)
