"""The colours every view draws tokens with, declared once and Qt-free: the window's themes
(app/shell/theme.py) and the exported HTML page (backend/export_html.py) read them here.

Okabe & Ito's palette stays distinguishable under the common colour-vision deficiencies; each
token kind also has a non-colour cue (underline, strike-through, underline style per MTP head,
a dashed underline for a lookup's copy), so nothing depends on colour alone.
"""

from __future__ import annotations

from dataclasses import dataclass

# Okabe–Ito (2008), "Color Universal Design".
ORANGE = "#E69F00"
SKY_BLUE = "#56B4E9"
BLUISH_GREEN = "#009E73"
YELLOW = "#F0E442"
BLUE = "#0072B2"
VERMILLION = "#D55E00"
REDDISH_PURPLE = "#CC79A7"


# The lookups by spec type name (backend/spec_types.py): an accepted draft of each is drawn
# in its own shade (`TokenColours.lookup_fg`, in this order) on the accepted tint, so that in
# a chain ("ngram-mod,draft") a copy is told from the draft model's guess, and one lookup's
# copy from another's. The drafters that predict (draft model, EAGLE-3) keep accepted_fg.
LOOKUP_KINDS = ("ngram", "ngram-map-k", "ngram-map-k4v", "ngram-mod", "ngram-cache")


def lookup_shade(origin: str) -> int | None:
    """The index of a token origin's shade in `lookup_fg`; None when it is no lookup."""
    return LOOKUP_KINDS.index(origin) if origin in LOOKUP_KINDS else None


@dataclass(frozen=True)
class TokenColours:
    """Foreground and background tint per token kind for one theme."""

    accepted_fg: str
    accepted_bg: str
    rejected_fg: str
    rejected_bg: str
    head_fg: tuple[str, ...]  # MTP head i uses head_fg[i % len]
    head_bg: str
    lookup_fg: tuple[str, ...]  # by LOOKUP_KINDS, drawn on accepted_bg
    chart_bar: str
    chart_full: str  # a step where every drafted token was accepted


LIGHT = TokenColours(
    accepted_fg=BLUE,
    accepted_bg="#E8F3FA",
    rejected_fg="#A84A00",  # vermillion darkened a little for 4.5:1 on its tint
    rejected_bg="#FBE6D8",
    head_fg=(BLUE, "#007A5A", "#A8457F", "#8F5C00", "#1F6E9C"),
    head_bg="#F0F0F0",
    lookup_fg=("#007A5A", "#A8457F", "#6A4C9C", "#00707D", "#6B6100"),
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
    lookup_fg=("#2FD0A0", "#D68AB5", "#B9A3E8", "#5FD3E0", YELLOW),
    chart_bar=SKY_BLUE,
    chart_full=BLUISH_GREEN,
)

# Presentation mode: projectors wash out pale tints and thin lines, so the fills are deeper
# and the text darker (each kind keeps its non-colour cue too).
PROJECTOR = TokenColours(
    accepted_fg="#003F66",
    accepted_bg="#B8DDF5",
    rejected_fg="#8A2E00",
    rejected_bg="#FFC9A3",
    head_fg=("#003F66", "#00573F", "#7A2559", "#7A5000", "#14527A"),
    head_bg="#DADADA",
    lookup_fg=("#00573F", "#7A2559", "#4A2F7A", "#00525C", "#4D4600"),
    chart_bar=BLUE,
    chart_full=BLUISH_GREEN,
)

# The light theme's text on its base (app/shell/theme.py's light palette; the HTML page's too).
LIGHT_TEXT = "#1A1A1A"
LIGHT_BASE = "#FFFFFF"
