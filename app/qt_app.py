"""Creating the QApplication: one place for the app's names and theme, used by main() and tests."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from app.theme import apply_theme
from backend import __version__

# Python hands the GIL between threads every 5 ms by default. PySide releases the GIL around
# Qt calls, so while the worker runs Python code (folding steps into batches) every Qt call of
# the GUI thread could wait up to 5 ms to get it back: a convoy measured at 340 ms stalls with a
# fast stream (bench/ui_bench.py). 0.2 ms keeps the longest stall under 40 ms at the same
# throughput; the engine's own work runs in llama.cpp with the GIL released either way.
GUI_SWITCH_INTERVAL_S = 0.0002


def ensure_application(argv: list[str] | None = None, *, theme: str = "system") -> QApplication:
    """The running QApplication, created (named, themed) on first use."""
    sys.setswitchinterval(GUI_SWITCH_INTERVAL_S)
    app = QApplication.instance()
    if app is None:
        app = QApplication(argv if argv is not None else sys.argv[:1])
    app.setApplicationName("Draftlight")
    app.setOrganizationName("draftlight")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName("draftlight")
    app.setWindowIcon(QIcon(str(Path(__file__).with_name("draftlight.svg"))))
    apply_theme(app, theme)
    return app
