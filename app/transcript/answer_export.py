"""Exporting a finished answer from the window: an HTML page (backend/export_html.py), a PNG
image of its widget, or its JSON trace (backend/traces.py) that Draftlight opens again.

The page and the trace are made from events rebuilt from the Answer
(app/transcript/answer_events.py): the window keeps no StepVerified events. The widget is
grabbed on the GUI thread (a pixmap belongs to it); everything else — rebuilding the events,
the HTML, the JSON, the writes — runs on a pool thread (`Background`), so a long answer's
export never stalls the window.
"""

from __future__ import annotations

import os
import re
from datetime import date
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, QStandardPaths, Signal
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QWidget

from app.backend_text import error_text
from app.background import Background
from app.i18n import translate
from app.transcript.answer import Answer
from app.transcript.answer_events import answer_trace
from backend.engine.request import GenerationRequest
from backend.export_html import write_html
from backend.traces import write_trace

HTML, PNG, JSON = "html", "png", "json"
# (format, the dialog's filter, the extensions that choose it; the first is added if none)
FORMATS = (
    (HTML, QT_TRANSLATE_NOOP("AnswerExporter", "HTML page (*.html *.htm)"), (".html", ".htm")),
    (PNG, QT_TRANSLATE_NOOP("AnswerExporter", "PNG image (*.png)"), (".png",)),
    (JSON, QT_TRANSLATE_NOOP("AnswerExporter", "JSON trace, opens in Draftlight (*.json)"),
     (".json",)),
)


def _filter_name(name: str) -> str:
    return translate("AnswerExporter", name)


def export_filter() -> str:
    """The save dialog's filters, in the window's language."""
    return ";;".join(_filter_name(f) for _, f, _ in FORMATS)


def export_format(path: str, selected_filter: str = "") -> tuple[str, str]:
    """(format, path): the format the file name's extension says, else the chosen filter's
    (its extension then added to the name); HTML when neither says."""
    suffix = Path(path).suffix.lower()
    for fmt, _, suffixes in FORMATS:
        if suffix in suffixes:
            return fmt, path
    for fmt, name, suffixes in FORMATS:
        if selected_filter in (name, _filter_name(name)):
            return fmt, path + suffixes[0]
    return HTML, path + FORMATS[0][2][0]


# Characters no file name may hold on one system or another, and control characters.
_UNSAFE = re.compile(r'[<>:"/\\|?*\x00-\x1f\x7f]+')
NAME_WORDS = 40  # at most this many characters of the title


def export_name(title: str, day: date, extension: str = ".html") -> str:
    """A file name for an answer of the chat `title`: its first words, made safe for any file
    system, and the day."""
    words = " ".join(_UNSAFE.sub(" ", title).split())[:NAME_WORDS].strip(" .…")
    return f"{words or 'answer'} {day.isoformat()}{extension}"


def default_folder() -> Path:
    """Where a first export goes: the Documents folder, else home."""
    documents = QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(documents) if documents and Path(documents).is_dir() else Path.home()


class ImageNotSaved(OSError):
    """QImage.save failed; its message is the whole sentence."""


def _write_png(path: str, image: QImage) -> str:
    tmp = path + ".tmp"
    if not image.save(tmp, "PNG"):
        raise ImageNotSaved(translate("AnswerExporter", "Cannot write {name}: the image could not "
                                                        "be saved "
                                                        "there.").format(name=Path(path).name))
    os.replace(tmp, path)
    return path


def _write_text(path: str, fmt: str, answer: Answer, request: GenerationRequest,
                target_model: str, draft_model: str) -> str:
    trace = answer_trace(answer, request, target_model=target_model, draft_model=draft_model)
    (write_html if fmt == HTML else write_trace)(path, trace)
    return path


class AnswerExporter(QObject):
    """Writes exports off the GUI thread; `exported` gives the path written, `failed` why not,
    in one sentence."""

    exported = Signal(str)
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._writes = Background(self, name="export")
        self.last_folder: Path | None = None  # where the person exported last

    def proposed_path(self, title: str, day: date | None = None) -> str:
        """The save dialog's proposal: the last export's folder (else Documents or home) and
        a name from the chat's title and the day, as an HTML page (the dialog's first
        format)."""
        folder = self.last_folder if self.last_folder and self.last_folder.is_dir() \
            else default_folder()
        return str(folder / export_name(title, day or date.today(), FORMATS[0][2][0]))

    def export(self, fmt: str, path: str, widget: QWidget, answer: Answer,
               request: GenerationRequest, *, target_model: str = "",
               draft_model: str = "") -> None:
        self.last_folder = Path(path).parent
        def on_error(exc: Exception) -> None:
            if isinstance(exc, OSError) and not isinstance(exc, ImageNotSaved):
                self.failed.emit(self.tr("Cannot write {name}: {reason}.").format(
                    name=Path(path).name, reason=exc.strerror or exc))
            else:
                self.failed.emit(error_text(exc))

        if fmt == PNG:
            image = widget.grab().toImage()  # on the GUI thread; saving it is not
            self._writes.run(_write_png, path, image, on_result=self.exported.emit,
                             on_error=on_error)
        else:
            self._writes.run(_write_text, path, fmt, answer, request, target_model,
                             draft_model, on_result=self.exported.emit, on_error=on_error)

    def stop(self) -> None:
        self._writes.stop()
