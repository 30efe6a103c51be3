"""Light and dark themes for the window; the token colours they carry are declared in
backend/palette.py (Qt-free, so the exported HTML page uses the very same ones)."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QWidget

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


def is_dark(widget: QWidget | None = None) -> bool:
    palette = widget.palette() if widget is not None else QApplication.palette()
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


# A window property: set on the main window in presentation mode (app/presentation.py).
PRESENTATION_PROPERTY = "presentation"


def token_colours(widget: QWidget | None = None) -> TokenColours:
    if widget is not None and widget.window().property(PRESENTATION_PROPERTY):
        return PROJECTOR
    return DARK if is_dark(widget) else LIGHT


def high_contrast_palette() -> QPalette:
    """Black on white, for a projector (presentation mode)."""
    p = QPalette()
    _set(p, window="#FFFFFF", base="#FFFFFF", alt="#F4F4F4", text="#000000",
         button="#EDEDED", highlight=BLUE, link=BLUE, mid="#9A9A9A", disabled="#6A6A6A")
    return p


def apply_theme(app: QApplication, mode: str) -> None:
    """"system" keeps the platform's look; "light"/"dark" force Fusion with a fixed palette,
    so both can be checked (and screenshotted) anywhere."""
    if mode not in ("light", "dark"):
        return
    app.setStyle("Fusion")
    app.setPalette(_dark_palette() if mode == "dark" else _light_palette())


def _light_palette() -> QPalette:
    p = QPalette()
    _set(p, window="#F3F3F3", base=LIGHT_BASE, alt="#F7F7F7", text=LIGHT_TEXT,
         button="#E9E9E9", highlight=BLUE, link=BLUE, mid="#C8C8C8", disabled="#8A8A8A")
    return p


def _dark_palette() -> QPalette:
    p = QPalette()
    _set(p, window="#252526", base="#1B1B1C", alt="#232324", text="#E6E6E6",
         button="#333335", highlight="#2F6E99", link=SKY_BLUE, mid="#4A4A4A",
         disabled="#7C7C7C")
    return p


def _set(p: QPalette, *, window: str, base: str, alt: str, text: str, button: str,
         highlight: str, link: str, mid: str, disabled: str) -> None:
    R = QPalette.ColorRole
    for role, colour in (
        (R.Window, window), (R.Base, base), (R.AlternateBase, alt), (R.Text, text),
        (R.WindowText, text), (R.Button, button), (R.ButtonText, text),
        (R.ToolTipBase, base), (R.ToolTipText, text), (R.Highlight, highlight),
        (R.HighlightedText, "#FFFFFF"), (R.Link, link), (R.Mid, mid),
        (R.PlaceholderText, disabled),
    ):
        p.setColor(role, QColor(colour))
    G = QPalette.ColorGroup.Disabled
    for role in (R.Text, R.WindowText, R.ButtonText):
        p.setColor(G, role, QColor(disabled))
