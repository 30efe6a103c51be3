"""The window's colour sets, Qt-free: a light, a dark and a projector set of colours for
everything but the tokens (whose colours backend/palette.py declares). app/shell/style.py turns
a set into the style sheet and app/shell/theme.py into a palette; both read them here.
"""

from __future__ import annotations

from dataclasses import dataclass

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
