"""The window's colours: a light, a dark and a projector set, and the theme that follows the
system's colour scheme. The token colours they carry are declared in backend/palette.py
(Qt-free, so the exported HTML page uses the very same ones); app/shell/style.py turns a set into
the application's style sheet.

Every theme runs on Fusion with these palettes, "system" included: the window looks the same
on every platform, and each set's contrast is checked (tests/app/test_look.py) instead of
trusting whatever a desktop theme hands us.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QWidget

from app.shell.style import font_points, style_sheet
from backend.palette import (
    BLUE,
    DARK,
    LIGHT,
    LIGHT_BASE,
    LIGHT_TEXT,
    PROJECTOR,
    SKY_BLUE,
    TokenColours,
)

__all__ = ["DARK", "LIGHT", "PROJECTOR", "Chrome", "TokenColours", "apply_theme"]


@dataclass(frozen=True)
class Chrome:
    """One theme's colours for everything but the tokens. Text colours keep 4.5:1 (WCAG AA)
    on both backgrounds they are drawn on."""

    name: str
    canvas: str  # behind the cards: the window, the transcript, the side panel
    surface: str  # cards and inputs (QPalette.Base)
    raised: str  # the user's card, hovered rows (QPalette.AlternateBase)
    text: str
    muted: str  # secondary text: numbers, help, captions
    border: str
    accent: str  # the primary button, selection, a focused field's border
    on_accent: str  # text on the accent
    focus: str  # the keyboard focus ring: 3:1 (WCAG non-text) on canvas, surface and raised
    button: str
    disabled: str
    link: str
    tokens: TokenColours


LIGHT_CHROME = Chrome(
    name="light", canvas="#F3F4F6", surface=LIGHT_BASE, raised="#EAF1F8", text=LIGHT_TEXT,
    muted="#555B63", border="#D5D9DE", accent=BLUE, on_accent="#FFFFFF", focus=BLUE,
    button="#FFFFFF", disabled="#8C9096", link=BLUE, tokens=LIGHT,
)
DARK_CHROME = Chrome(
    name="dark", canvas="#141517", surface="#1E1F23", raised="#27313D", text="#E8E8E8",
    muted="#A7ABB2", border="#363A40", accent="#2F6E99", on_accent="#FFFFFF", focus=SKY_BLUE,
    button="#2A2C31", disabled="#7A7E85", link=SKY_BLUE, tokens=DARK,
)
# Presentation mode: black on white; projectors wash out pale fills and thin lines, so cards
# are told apart by darker borders rather than by tints.
PROJECTOR_CHROME = Chrome(
    name="projector", canvas="#FFFFFF", surface="#FFFFFF", raised="#F2F2F2", text="#000000",
    muted="#333333", border="#6E6E6E", accent="#005A8C", on_accent="#FFFFFF", focus="#005A8C",
    button="#F0F0F0", disabled="#5E5E5E", link="#005A8C", tokens=PROJECTOR,
)


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
        self.app.setStyle("Fusion")  # (style().name() is "" under a style sheet: set it anyway)
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
