"""Teaching mode's place in the window: the inspector dock and the View menu (replay, race,
charts, presentation mode), wired to the transcript. It is handed the answer flow (the
sessions, the transcript, the conversation shown) and the main window only as the
QMainWindow its dock and menu go in; each tool lives in its own module and this one only
connects them.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QDockWidget, QMainWindow, QScrollArea, QWidget

from app.chat.made_with import request_made_with
from app.teaching.charts_window import ChartsWindow
from app.teaching.inspection import inspect_token
from app.teaching.inspector import InspectorPanel
from app.teaching.presentation import Presentation
from app.teaching.race_window import RaceWindow
from app.teaching.replay_window import ReplayWindow
from app.transcript.answer import Answer
from backend import spec_types
from backend.engine.request import GenerationRequest
from backend.settings import GenerationSettings

if TYPE_CHECKING:
    from app.chat.answer_flow import AnswerFlow
    from app.transcript.message_widgets import AnswerWidget


INSPECTOR_SHARE = 0.4  # the most of the window the inspector opens to
INSPECTOR_COLUMNS = 64  # what the inspector opens wide enough for: a tree's line of 3 levels


class TeachingTools(QObject):
    problem = Signal(str)  # why a tool cannot open now, for the banner

    def __init__(self, window: QMainWindow, flow: AnswerFlow,
                 settings: Callable[[], GenerationSettings], legend: QWidget,
                 side: Callable[[], tuple[QWidget, ...]]) -> None:
        super().__init__(window)
        self.window = window
        self.flow = flow
        self._settings = settings
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
        self.presentation = Presentation(
            window, self.menu, flow,
            lambda: (*side(), self.inspector_dock),  # at that size it would squeeze the answer
            flow.transcript, legend)
        self.presentation.action.toggled.connect(self._dress_tools)
        flow.transcript.inspect.connect(self.inspect)
        flow.transcript.teach.connect(self.open_tool)
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
            window = RaceWindow(self.flow.models.client, request, widget.answer.model_name,
                                self.window)
            window.start()
        elif tool == "charts":
            window = ChartsWindow(widget.answer, self.chat_answers, title, self.window)
        else:
            raise ValueError(f"unknown teaching tool {tool!r}")
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        window.destroyed.connect(self._forget_closed)
        self.tool_windows.append(window)
        if self.presentation.enabled:
            self.presentation.dress(window, True)
        window.show()
        return window

    def _dress_tools(self, on: bool) -> None:
        """Open tool windows follow presentation mode in and out."""
        self._forget_closed()
        for tool in self.tool_windows:
            self.presentation.dress(tool, on)

    def chat_answers(self) -> list[Answer]:
        """The current chat's answers, for the charts' "whole chat" view."""
        return [t.answer for t in self.flow.conversation.turns if t.answer is not None]

    def race_request(self, widget: AnswerWidget) -> GenerationRequest | None:
        """The answer's own request (its conversation and settings) with a spec type to race:
        its own, or the panel's when the answer was plain; None, said in the banner, when the
        race cannot run now."""
        flow, models = self.flow, self.flow.models
        answer = widget.answer
        if flow.generating or models.loading:
            self.problem.emit(self.tr("The race needs the engine to itself: start it when the "
                                      "answer being written has finished."))
            return None
        target = models.target
        if target is None or (answer.model_name and answer.model_name != target.name):
            self.problem.emit(self.tr("Load the model that wrote this answer first: the race "
                                      "answers its question again, plainly and speculatively."))
            return None
        made = request_made_with(flow.conversation, answer, self._settings())
        if made is None or not made[0].messages:
            self.problem.emit(self.tr("This answer's conversation is not known here."))
            return None
        request = made[0]
        if request.spec_type == spec_types.PLAIN:
            current = flow.build_request()
            request = dataclasses.replace(request, spec_type=current.spec_type,
                                          n_draft_max=current.n_draft_max)
        if request.spec_type == spec_types.PLAIN:
            self.problem.emit(self.tr("Choose a spec type in the panel to race against plain "
                                      "decoding."))
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
        tree = answer.trees.get(answer.tokens.step[index], ())
        ins = inspect_token(answer.tokens, index, answer.n_prompt or answer.stats().n_prompt,
                            tree)
        self.inspector.show_inspection(ins, tree)
        if self._marked is not None and self._marked is not widget:
            with contextlib.suppress(RuntimeError):  # that answer's widget is gone
                self._marked.token_view.mark(None)
        widget.token_view.mark(index, ins.copied_from)
        self._marked = widget
        opening = self.inspector_dock.isHidden()
        self.inspector_dock.show()
        self.inspector_dock.raise_()
        if opening and not self.inspector_dock.isFloating():
            self._fit_inspector()

    def _fit_inspector(self) -> None:
        """Open the docked inspector wide enough for a tree's lines and the top-five table (a
        scroll area's own size hint is a thumbnail), up to a share of the window."""
        tree_font = self.inspector.tree_view.fontMetrics()
        wanted = tree_font.horizontalAdvance("x" * INSPECTOR_COLUMNS)
        width = min(max(wanted, self.inspector_dock.width()),
                    int(self.window.width() * INSPECTOR_SHARE))
        self.window.resizeDocks([self.inspector_dock], [width], Qt.Orientation.Horizontal)
