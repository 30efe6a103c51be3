"""Creating the QApplication: one place for the app's names, theme and language, used by main()
and tests."""

from __future__ import annotations

import sys

from PySide6.QtCore import QSize
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from app.i18n import install_translators
from app.panel import wheel_guard
from app.resources import icon_files
from app.shell.theme import apply_theme
from backend import APP_NAME, APP_TITLE, __version__


def ensure_application(argv: list[str] | None = None, *, theme: str = "system",
                       language: str = "system") -> QApplication:
    """The running QApplication, created (named, themed, translated, the mouse wheel kept to
    what it is aimed at) on first use. `language` is a settings choice ("system", "en", "it",
    "fr"); English installs no translator."""
    app = QApplication.instance()
    if app is None:
        app = QApplication(argv if argv is not None else sys.argv[:1])
    app.setApplicationName(APP_TITLE)
    app.setOrganizationName(APP_NAME)
    app.setApplicationVersion(__version__)
    app.setDesktopFileName(APP_NAME)
    app.setWindowIcon(app_icon())
    apply_theme(app, theme)
    install_translators(app, language)
    wheel_guard.install(app)
    return app


def app_icon() -> QIcon:
    """The application icon from the rendered PNGs, 16–512 px (crisp at every size a
    desktop asks for; Qt scales between them)."""
    icon = QIcon()
    for size, path in icon_files().items():
        icon.addFile(str(path), QSize(size, size))
    return icon
