"""Creating the QApplication: one place for the app's names and theme, used by main() and tests."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from app.theme import apply_theme
from backend import APP_NAME, APP_TITLE, __version__


def ensure_application(argv: list[str] | None = None, *, theme: str = "system") -> QApplication:
    """The running QApplication, created (named, themed) on first use."""
    app = QApplication.instance()
    if app is None:
        app = QApplication(argv if argv is not None else sys.argv[:1])
    app.setApplicationName(APP_TITLE)
    app.setOrganizationName(APP_NAME)
    app.setApplicationVersion(__version__)
    app.setDesktopFileName(APP_NAME)
    app.setWindowIcon(QIcon(str(Path(__file__).with_name("draftlight.svg"))))
    apply_theme(app, theme)
    return app
