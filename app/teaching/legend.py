"""The key to the token colours, drawn from the same formats the transcript uses."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent
from PySide6.QtGui import QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QWidget

from app.backend_text import spec_label
from app.shell.theme import token_colours
from app.transcript.token_formats import TokenFormats
from app.widgets.auto_height_text import AutoHeightTextEdit
from backend import spec_types
from backend.palette import lookup_shade

# How the drafters differ, where the key to their tokens is read (README.md says the same).
EAGLE3_DIFFERENCE = QT_TRANSLATE_NOOP(
    "TokenLegend",
    "An EAGLE-3 head is a separate file like a draft model, but no model of its own: one layer "
    "trained for one target that drafts from the target's own hidden states at three of its "
    "layers, so it is far cheaper than a draft model and useless with any other target. "
    "Unlike MTP heads, which are built into the target's own file and read only its last "
    "hidden state, it can be added to a target that was trained without any."
)
LEGEND_HINT = QT_TRANSLATE_NOOP(
    "TokenLegend", "Hover a token in an answer for its step, origin and probabilities.")
LEGEND_TIP = f"{LEGEND_HINT}\n\n{EAGLE3_DIFFERENCE}"  # English; the legend shows it translated


class TokenLegend(AutoHeightTextEdit):
    """Sample words in the real token formats, so the key can never drift from the view."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("legend")
        self._mtp_heads = 0
        self._lookups: tuple[str, ...] = ()
        self._trees = False
        self.setToolTip(f"{self.tr(LEGEND_HINT)}\n\n{self.tr(EAGLE3_DIFFERENCE)}")
        self._build()

    def set_mtp_heads(self, n: int) -> None:
        if n != self._mtp_heads:
            self._mtp_heads = n
            self._build()

    def set_spec_type(self, name: str, *, tree_nodes: int = 0) -> None:
        """Show the shade of each lookup the spec type drafts with (each member of a chain),
        and a token tree's mark where its drafter drafts trees (`tree_nodes` ≠ 0)."""
        lookups = tuple(n for n in spec_types.drafters_of(name) if lookup_shade(n) is not None)
        spec = spec_types.get(name)
        trees = bool(tree_nodes) and spec is not None and spec.trees
        if (lookups, trees) != (self._lookups, self._trees):
            self._lookups, self._trees = lookups, trees
            self._build()

    def _build(self) -> None:
        formats = TokenFormats(token_colours(self))
        self.document().clear()
        cursor = QTextCursor(self.document())
        plain = QTextCharFormat()
        entries = [
            (formats.accepted, self.tr("accepted draft"), self.tr("underlined")),
            (formats.rejected, self.tr("rejected draft"), self.tr("struck out")),
            (formats.target, self.tr("target's own token"), self.tr("plain")),
        ]
        entries += [(formats.head(i), self.tr("MTP head {n}").format(n=i + 1), "")
                    for i in range(self._mtp_heads)]
        entries += [(formats.drafted(name), spec_label(name), self.tr("dashed: a copy"))
                    for name in self._lookups]
        if self._trees:
            entries.append((formats.branch, self.tr("second choice kept"),
                            self.tr("wavy: a tree's other branch")))
        for i, (fmt, sample, cue) in enumerate(entries):
            if i:
                cursor.insertText("     ", plain)
            cursor.insertText(sample, fmt)
            if cue:
                cursor.insertText(f" ({cue})", plain)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._build()
