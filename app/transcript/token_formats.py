"""One shared QTextCharFormat per token kind, tagged with its kind so tests and tools can read
the document back.

Sharing one format per kind (instead of a format per token) keeps a long answer's document
small and fast to append to (4-5x less memory than a format per token, measured with
bench/ui_bench.py); per-token details live in a side table.
"""

from __future__ import annotations

from PySide6.QtGui import QBrush, QColor, QTextCharFormat, QTextFormat

from app.shell.theme import TokenColours
from backend.palette import lookup_shade

# Custom format properties: the token kind ("accepted", "rejected", "target") and, for MTP
# drafts, the head index, for a lookup's, its spec type, for a tree's kept alternative, a mark.
# Everything inserted into a token view carries KIND_PROPERTY.
KIND_PROPERTY = QTextFormat.Property.UserProperty.value + 1
HEAD_PROPERTY = QTextFormat.Property.UserProperty.value + 2
ORIGIN_PROPERTY = QTextFormat.Property.UserProperty.value + 3
BRANCH_PROPERTY = QTextFormat.Property.UserProperty.value + 4  # a tree's kept alternative

ACCEPTED = "accepted"
REJECTED = "rejected"
TARGET = "target"
PROPOSED = "proposed"  # a draft the target has not judged yet (the replay's first phase)

U = QTextCharFormat.UnderlineStyle
# A second cue for MTP heads besides colour: the underline style.
HEAD_UNDERLINES = (U.SingleUnderline, U.DashUnderline, U.DotLine, U.DashDotLine, U.WaveUnderline)
# A lookup's accepted copy: dashed, where a model's guess is underlined whole.
LOOKUP_UNDERLINE = U.DashUnderline


class TokenFormats:
    """The formats for one theme; rebuild when the palette changes."""

    def __init__(self, colours: TokenColours) -> None:
        self.colours = colours
        self.target = _format(TARGET)
        self.accepted = _format(ACCEPTED, colours.accepted_fg, colours.accepted_bg)
        self.accepted.setFontUnderline(True)
        self.rejected = _format(REJECTED, colours.rejected_fg, colours.rejected_bg)
        self.rejected.setFontStrikeOut(True)
        # no verdict yet: no colour, a dotted underline and italics (the colours mean a verdict)
        self.proposed = _format(PROPOSED)
        self.proposed.setFontItalic(True)
        self.proposed.setUnderlineStyle(U.DotLine)
        # a draft a token tree kept where the drafter's first choice was wrong: accepted, with
        # a wavy underline (backend/engine/tree)
        self.branch = _format(ACCEPTED, colours.accepted_fg, colours.accepted_bg)
        self.branch.setUnderlineStyle(U.WaveUnderline)
        self.branch.setProperty(BRANCH_PROPERTY, True)
        self._heads: dict[int, QTextCharFormat] = {}
        # by drafter, looked up once: asked for every accepted draft a stream draws
        self._drafted: dict[str, QTextCharFormat] = {}

    def drafted(self, origin: str) -> QTextCharFormat:
        """An accepted draft's format by its drafter: a lookup's in its own shade, dashed
        (backend/palette.py's LOOKUP_KINDS), a model's the accepted one."""
        fmt = self._drafted.get(origin)
        if fmt is None:
            shade = lookup_shade(origin)
            if shade is None:
                fmt = self.accepted
            else:
                fg = self.colours.lookup_fg[shade % len(self.colours.lookup_fg)]
                fmt = _format(ACCEPTED, fg, self.colours.accepted_bg)
                fmt.setUnderlineStyle(LOOKUP_UNDERLINE)
                fmt.setUnderlineColor(QColor(fg))
                fmt.setProperty(ORIGIN_PROPERTY, origin)
            self._drafted[origin] = fmt
        return fmt

    def head(self, index: int) -> QTextCharFormat:
        fmt = self._heads.get(index)
        if fmt is None:
            fg = self.colours.head_fg[index % len(self.colours.head_fg)]
            fmt = _format(ACCEPTED, fg, self.colours.head_bg)
            fmt.setUnderlineStyle(HEAD_UNDERLINES[index % len(HEAD_UNDERLINES)])
            fmt.setUnderlineColor(QColor(fg))
            fmt.setProperty(HEAD_PROPERTY, index)
            self._heads[index] = fmt
        return fmt


def _format(kind: str, fg: str | None = None, bg: str | None = None) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setProperty(KIND_PROPERTY, kind)
    if fg:
        fmt.setForeground(QBrush(QColor(fg)))
    if bg:
        fmt.setBackground(QBrush(QColor(bg)))
    return fmt
