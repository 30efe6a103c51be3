"""Export… under an answer: the save dialog, and the answer handed to the exporter
(app/transcript/answer_export.py) with what it was made with (app/chat/made_with.py) —
never the panel as it stands by then, which may have changed since.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Slot
from PySide6.QtWidgets import QFileDialog, QWidget

from app.chat.answer_flow import AnswerFlow
from app.chat.made_with import request_made_with
from app.transcript.answer_export import AnswerExporter, export_filter, export_format
from app.transcript.message_widgets import AnswerWidget
from backend import spec_types
from backend.settings import GenerationSettings


class AnswerExportAction(QObject):
    def __init__(self, dialog_parent: QWidget, flow: AnswerFlow,
                 fallback: Callable[[], GenerationSettings]) -> None:
        super().__init__(dialog_parent)
        self._parent = dialog_parent
        self._flow = flow
        self._fallback = fallback  # for an answer with no record of its settings
        self.exporter = AnswerExporter(self)
        flow.transcript.export_requested.connect(self.ask)

    @Slot(object)
    def ask(self, widget: AnswerWidget) -> None:
        proposed = self.exporter.proposed_path(self._flow.conversation.title)
        path, chosen = QFileDialog.getSaveFileName(self._parent, self.tr("Export the answer"),
                                                   proposed, export_filter())
        if path:
            self.export_answer(widget, path, chosen)

    def export_answer(self, widget: AnswerWidget, path: str, selected_filter: str = "") -> None:
        """Write a finished answer as an HTML page, a PNG of its widget or a JSON trace (the
        format from the extension, else the dialog's filter), off the GUI thread;
        `exporter.exported` or `exporter.failed` says how it went."""
        answer = widget.answer
        if not answer.done:
            self.exporter.failed.emit(self.tr("The answer is still being written: export it "
                                              "once it has finished."))
            return
        made = request_made_with(self._flow.conversation, answer, self._fallback())
        if made is None:
            self.exporter.failed.emit(self.tr("This answer's conversation is not known here."))
            return
        fmt, path = export_format(path, selected_filter)
        # File names, never folders; the loaded models' only when they made this answer.
        models = self._flow.models
        target, draft = models.target, models.draft
        ours = target is not None and target.name == answer.model_name
        spec = spec_types.get(answer.spec_type)
        uses_draft = ours and draft is not None and spec is not None and (
            spec.needs in spec_types.DRAFT_NEEDS)  # a draft model or an EAGLE-3 head
        self.exporter.export(
            fmt, path, widget, answer, made[0],
            target_model=Path(target.path).name if ours and target else answer.model_name,
            draft_model=Path(draft.path).name if uses_draft and draft else "")
