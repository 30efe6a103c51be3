"""Light and dark themes, and the Okabe–Ito colours every view draws tokens with.

Okabe & Ito's palette stays distinguishable under the common colour-vision deficiencies; each
token kind also has a non-colour cue (underline, strike-through, underline style per MTP head),
so nothing depends on colour alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QWidget

# Okabe–Ito (2008), "Color Universal Design".
ORANGE = "#E69F00"
SKY_BLUE = "#56B4E9"
BLUISH_GREEN = "#009E73"
YELLOW = "#F0E442"
BLUE = "#0072B2"
VERMILLION = "#D55E00"
REDDISH_PURPLE = "#CC79A7"


@dataclass(frozen=True)
class TokenColours:
    """Foreground and background tint per token kind for one theme."""

    accepted_fg: str
    accepted_bg: str
    rejected_fg: str
    rejected_bg: str
    head_fg: tuple[str, ...]  # MTP head i uses head_fg[i % len]
    head_bg: str
    chart_bar: str
    chart_full: str  # a step where every drafted token was accepted


LIGHT = TokenColours(
    accepted_fg=BLUE,
    accepted_bg="#E1EFF8",
    rejected_fg="#B34E00",  # vermillion darkened a little for 4.5:1 on its tint
    rejected_bg="#FBE6D8",
    head_fg=(BLUE, "#007A5A", "#A8457F", "#A86F00", "#2B7FB0"),
    head_bg="#EDEDED",
    chart_bar=BLUE,
    chart_full=BLUISH_GREEN,
)

DARK = TokenColours(
    accepted_fg=SKY_BLUE,
    accepted_bg="#14303F",
    rejected_fg="#FF8A4C",  # vermillion lightened for contrast on a dark background
    rejected_bg="#3D2314",
    head_fg=(SKY_BLUE, "#2FD0A0", REDDISH_PURPLE, ORANGE, YELLOW),
    head_bg="#2A2A2A",
    chart_bar=SKY_BLUE,
    chart_full=BLUISH_GREEN,
)


def is_dark(widget: QWidget | None = None) -> bool:
    palette = widget.palette() if widget is not None else QApplication.palette()
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


def token_colours(widget: QWidget | None = None) -> TokenColours:
    return DARK if is_dark(widget) else LIGHT


def apply_theme(app: QApplication, mode: str) -> None:
    """"system" keeps the platform's look; "light"/"dark" force Fusion with a fixed palette,
    so both can be checked (and screenshotted) anywhere."""
    if mode not in ("light", "dark"):
        return
    app.setStyle("Fusion")
    app.setPalette(_dark_palette() if mode == "dark" else _light_palette())


def _light_palette() -> QPalette:
    p = QPalette()
    _set(p, window="#F3F3F3", base="#FFFFFF", alt="#F7F7F7", text="#1A1A1A",
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
