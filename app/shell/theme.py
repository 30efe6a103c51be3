"""The window's colours: a light, a dark and a projector set, and the theme that follows the
system's colour scheme. The token colours they carry are declared in backend/palette.py
(Qt-free, so the exported HTML page uses the very same ones); app/shell/style.py turns a set into
the application's style sheet.

Every theme runs on Fusion with these palettes, "system" included: the window looks the same
on every platform, and each set's contrast is checked (tests/app/test_look.py) instead of
trusting whatever a desktop theme hands us.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QWidget

from app.panel import wheel_guard
from app.shell.chrome import DARK_CHROME, LIGHT_CHROME, PROJECTOR_CHROME, Chrome
from app.shell.style import font_points, style_sheet
from backend.palette import DARK, LIGHT, PROJECTOR, TokenColours

__all__ = ["DARK", "LIGHT", "PROJECTOR", "Chrome", "TokenColours", "apply_theme"]


def is_dark(widget: QWidget | None = None) -> bool:
    palette = widget.palette() if widget is not None else QApplication.palette()
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


# A window property: set on the main window in presentation mode (app/teaching/presentation.py).
PRESENTATION_PROPERTY = "presentation"


def token_colours(widget: QWidget | None = None) -> TokenColours:
    if widget is not None and widget.window().property(PRESENTATION_PROPERTY):
        return PROJECTOR
    return DARK if is_dark(widget) else LIGHT


def chrome_for(mode: str, scheme: Qt.ColorScheme) -> Chrome:
    """"light" and "dark" force one; anything else follows the system's scheme, light when
    the platform does not say (Qt.ColorScheme.Unknown, e.g. offscreen)."""
    if mode == "dark" or (mode not in ("light", "dark") and scheme == Qt.ColorScheme.Dark):
        return DARK_CHROME
    return LIGHT_CHROME


def palette_for(chrome: Chrome) -> QPalette:
    p = QPalette()
    R = QPalette.ColorRole
    for role, colour in (
        (R.Window, chrome.canvas), (R.Base, chrome.surface), (R.AlternateBase, chrome.raised),
        (R.Text, chrome.text), (R.WindowText, chrome.text), (R.Button, chrome.button),
        (R.ButtonText, chrome.text), (R.ToolTipBase, chrome.surface),
        (R.ToolTipText, chrome.text), (R.Highlight, chrome.accent),
        (R.HighlightedText, chrome.on_accent), (R.Link, chrome.link), (R.Mid, chrome.border),
        (R.PlaceholderText, chrome.muted), (R.BrightText, chrome.on_accent),
    ):
        p.setColor(role, QColor(colour))
    G = QPalette.ColorGroup.Disabled
    for role in (R.Text, R.WindowText, R.ButtonText):
        p.setColor(G, role, QColor(chrome.disabled))
    return p


def high_contrast_palette() -> QPalette:
    """Black on white, for a projector (presentation mode)."""
    return palette_for(PROJECTOR_CHROME)


class ThemeFollower(QObject):
    """Keeps the application in its theme: applies it now, and again whenever the desktop
    switches between light and dark while the theme is "system"."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self.setObjectName("themeFollower")
        self.app = app
        self.mode = "system"
        self.chrome = LIGHT_CHROME
        QGuiApplication.styleHints().colorSchemeChanged.connect(self._on_scheme_changed)

    def set_mode(self, mode: str) -> None:
        self.mode = mode
        self._apply(QGuiApplication.styleHints().colorScheme())

    @Slot(Qt.ColorScheme)
    def _on_scheme_changed(self, scheme: Qt.ColorScheme) -> None:
        if self.mode not in ("light", "dark"):
            self._apply(scheme)

    def _apply(self, scheme: Qt.ColorScheme) -> None:
        self.chrome = chrome_for(self.mode, scheme)
        # Fusion, keeping the mouse wheel to what it is aimed at (style().name() is "" under a
        # style sheet: set it anyway)
        wheel_guard.install(self.app)
        self.app.setPalette(palette_for(self.chrome))
        self.app.setStyleSheet(style_sheet(self.chrome, font_points(self.app.font())))


def theme_follower(app: QApplication) -> ThemeFollower:
    """The application's one follower, made on first use."""
    follower = app.findChild(ThemeFollower, "themeFollower")
    return follower if follower is not None else ThemeFollower(app)


def apply_theme(app: QApplication, mode: str) -> None:
    """Fusion with Draftlight's palette and style sheet: "light" or "dark" forced, anything
    else ("system") following the desktop's colour scheme, live."""
    theme_follower(app).set_mode(mode)


def current_chrome(app: QApplication | None = None) -> Chrome:
    """The colours the application is drawn in now (light when no theme was applied)."""
    app = app or QApplication.instance()
    follower = app.findChild(ThemeFollower, "themeFollower") if app is not None else None
    return follower.chrome if follower is not None else LIGHT_CHROME
