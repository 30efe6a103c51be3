"""Teaching mode's place in the window: the inspector dock and the View menu (replay, race,
charts, presentation mode), wired to the transcript. The window makes one and hands it
itself; each tool lives in its own module and this one only connects them.
"""

from __future__ import annotations

import contextlib
import dataclasses
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QDockWidget, QScrollArea, QWidget

from app.teaching.charts_window import ChartsWindow
from app.teaching.inspection import inspect_token
from app.teaching.inspector import InspectorPanel
from app.teaching.lossless_check import history_of
from app.teaching.presentation import Presentation
from app.teaching.race_window import RaceWindow
from app.teaching.replay_window import ReplayWindow
from app.transcript.answer import Answer
from backend import spec_types
from backend.engine.request import GenerationRequest

if TYPE_CHECKING:
    from app.shell.main_window import MainWindow
    from app.transcript.message_widgets import AnswerWidget


class TeachingTools(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.inspector = InspectorPanel()
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.inspector)
        self.inspector_dock = QDockWidget(self.tr("Inspector"), window)
        self.inspector_dock.setObjectName("inspectorDock")
        self.inspector_dock.setWidget(scroll)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.inspector_dock)
        self.inspector_dock.hide()  # until a token is clicked
        # Esc closes it, docked or floating in a window of its own, as it closes every window
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self.inspector_dock, self.inspector_dock.close,
                  context=Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self._marked: AnswerWidget | None = None
        self.menu = window.menuBar().addMenu(self.tr("&View"))
        self.menu.addAction(self.inspector_dock.toggleViewAction())
        self.menu.addSeparator()
        self.presentation = Presentation(window, self.menu)
        window.transcript.inspect.connect(self.inspect)
        window.transcript.teach.connect(self.open_tool)
        self.tool_windows: list[QWidget] = []  # open replays, races and charts

    def open_tool(self, widget: AnswerWidget, tool: str) -> QWidget | None:
        """Open one of an answer's teaching tools in its own window (non-modal: several can
        be compared side by side); returns it."""
        title = widget.title.text()
        if tool == "replay":
            window: QWidget = ReplayWindow(widget.answer, title, self.window)
        elif tool == "race":
            request = self.race_request(widget)
            if request is None:
                return None
            window = RaceWindow(self.window.client, request, widget.answer.model_name,
                                self.window)
            window.start()
        elif tool == "charts":
            window = ChartsWindow(widget.answer, self.chat_answers, title, self.window)
        else:
            raise ValueError(f"unknown teaching tool {tool!r}")
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        window.destroyed.connect(self._forget_closed)
        self.tool_windows.append(window)
        window.show()
        return window

    def chat_answers(self) -> list[Answer]:
        """The current chat's answers, for the charts' "whole chat" view."""
        return [t.answer for t in self.window.conversation.turns if t.answer is not None]

    def race_request(self, widget: AnswerWidget) -> GenerationRequest | None:
        """The answer's own request (its conversation and settings) with a spec type to race:
        its own, or the panel's when the answer was plain; None, said in the banner, when the
        race cannot run now."""
        w = self.window
        answer = widget.answer
        if w.generating or w.loading:
            w.show_error(self.tr("The race needs the engine to itself: start it when the answer "
                                 "being written has finished."))
            return None
        if w.target is None or (answer.model_name and answer.model_name != w.target.name):
            w.show_error(self.tr("Load the model that wrote this answer first: the race answers "
                                 "its question again, plainly and speculatively."))
            return None
        request = w.lossless.request_for(answer)
        if request is None:
            history = history_of(w.conversation, answer)
            if history is None or not history.messages():
                w.show_error(self.tr("This answer's conversation is not known here."))
                return None
            request = dataclasses.replace(w.build_request(), messages=history.messages())
        if request.spec_type == spec_types.PLAIN:
            current = w.build_request()
            request = dataclasses.replace(request, spec_type=current.spec_type,
                                          n_draft_max=current.n_draft_max)
        if request.spec_type == spec_types.PLAIN:
            w.show_error(self.tr("Choose a spec type in the panel to race against plain decoding."))
            return None
        return request

    def _forget_closed(self, *_args) -> None:
        self.tool_windows = [w for w in self.tool_windows if shiboken6.isValid(w)]

    def inspect(self, widget: AnswerWidget, index: int) -> None:
        """Pin the inspector on token `index` of an answer, and mark it (and, for an n-gram
        draft copied from the same answer, its source) in the answer's view."""
        answer = widget.answer
        if not 0 <= index < len(answer.tokens):
            return
        ins = inspect_token(answer.tokens, index, answer.n_prompt or answer.stats().n_prompt)
        self.inspector.show_inspection(ins)
        if self._marked is not None and self._marked is not widget:
            with contextlib.suppress(RuntimeError):  # that answer's widget is gone
                self._marked.token_view.mark(None)
        widget.token_view.mark(index, ins.copied_from)
        self._marked = widget
        self.inspector_dock.show()
        self.inspector_dock.raise_()
