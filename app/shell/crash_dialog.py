"""An uncaught exception in the window's process: logged with its traceback and shown in a
dialog (what happened, where the log is, the traceback under Details) instead of the window
vanishing or a traceback on a terminal nobody sees.

The window goes on running: the exception ended one slot, not the app, and chats are saved
by the store as they change, so nothing is closed or rolled back here. A slot that fails on
every repaint would raise again and again: one dialog is shown at a time, the rest go to the
log only.
"""

from __future__ import annotations

import logging
import sys
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

log = logging.getLogger("draftlight.crash")

ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None]

class CrashReporter(QObject):
    """Owns `sys.excepthook` (and `threading.excepthook`) while installed."""

    shown = Signal(object)  # the QMessageBox just shown
    _report = Signal(str, str)  # summary, traceback: queued from any thread to the GUI one

    def __init__(self, log_path: Path | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.log_path = log_path
        self.dialog: QMessageBox | None = None
        self.count = 0  # exceptions seen, shown or not
        self._parent_widget = parent
        self._previous: tuple[Callable, Callable] | None = None
        self._report.connect(self._on_report, Qt.ConnectionType.QueuedConnection)

    def install(self) -> None:
        if self._previous is None:
            self._previous = (sys.excepthook, threading.excepthook)
            sys.excepthook = self.excepthook
            threading.excepthook = self._thread_hook

    def uninstall(self) -> None:
        if self._previous is not None:
            sys.excepthook, threading.excepthook = self._previous
            self._previous = None

    def excepthook(self, exc_type: type[BaseException], exc: BaseException,
                   tb: TracebackType | None) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            sys.__excepthook__(exc_type, exc, tb)
            return
        self.count += 1
        log.critical("Uncaught exception", exc_info=(exc_type, exc, tb))
        summary = "".join(traceback.format_exception_only(exc_type, exc)).strip()
        detail = "".join(traceback.format_exception(exc_type, exc, tb))
        self._report.emit(summary, detail)

    def _thread_hook(self, args: threading.ExceptHookArgs) -> None:
        if args.exc_value is None:
            return
        self.excepthook(args.exc_type, args.exc_value, args.exc_traceback)

    def message(self, summary: str) -> str:
        where = (self.tr("The details are in the log: {path}").format(path=self.log_path)
                 if self.log_path
                 else self.tr("No log file could be written; the details are below."))
        return self.tr("Something went wrong inside Draftlight, and what you were doing was "
                       "interrupted. Your chats are saved as you go and are untouched; you can "
                       "go on working, or save and restart if the window misbehaves.\n\n"
                       "What happened: {summary}\n\n{where}").format(summary=summary,
                                                                      where=where)

    @Slot(str, str)
    def _on_report(self, summary: str, detail: str) -> None:
        if self.dialog is not None and self.dialog.isVisible():
            return  # one at a time: a slot failing on every repaint would bury the window
        parent = self._parent_widget if self._parent_widget is not None else (
            QApplication.activeWindow())
        box = QMessageBox(parent)
        box.setIcon(QMessageBox.Icon.Critical)
        box.setWindowTitle(self.tr("Draftlight: unexpected error"))
        box.setTextFormat(Qt.TextFormat.PlainText)  # the message quotes arbitrary text
        box.setText(self.message(summary))
        box.setDetailedText(detail)
        box.setStandardButtons(QMessageBox.StandardButton.Close)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.setWindowModality(Qt.WindowModality.NonModal)  # never a nested event loop here
        self.dialog = box
        box.finished.connect(self._on_closed)
        box.show()
        self.shown.emit(box)

    @Slot()
    def _on_closed(self) -> None:
        self.dialog = None
