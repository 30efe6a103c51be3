"""The small pieces the chat's actions put under messages: their buttons, the ‹ 2 / 3 ›
switch between an answer's versions, and the "Made with …" line of an answer's settings.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtWidgets import QHBoxLayout, QToolButton, QWidget

from app.backend_text import option_label
from app.chat.conversation import Turn
from app.i18n import translate
from app.transcript.message_widgets import plain_label
from backend import settings_schema as schema
from backend import spec_types

ACTION = "chatAction"  # object name of the buttons greyed while an answer streams
SETTING_WORDS = (
    ("temperature", QT_TRANSLATE_NOOP("ChatActions", "temperature")),
    ("top_k", "top-k"), ("top_p", "top-p"), ("min_p", "min-p"),
    ("repeat_penalty", QT_TRANSLATE_NOOP("ChatActions", "repeat penalty")),
    ("seed", QT_TRANSLATE_NOOP("ChatActions", "seed")),
    ("max_tokens", QT_TRANSLATE_NOOP("ChatActions", "max tokens")))
SPECULATION = (schema.SPEC_TYPE.name, schema.N_DRAFT.name, schema.P_MIN.name)


def settings_words(settings: dict[str, Any]) -> str:
    """The "Made with …" line: the sampler's settings in short words, then any other declared
    generation setting (one registered later) by its panel label; the spec type and K are in
    the answer's title already."""
    named = dict(SETTING_WORDS)
    shown = [f"{translate('ChatActions', words)} {settings[name]}"
             for name, words in SETTING_WORDS if name in settings]
    # a drafter's own settings (a lookup's) only where that drafter drafted the answer
    drafters = spec_types.drafters_of(str(settings.get("spec_type", "")))
    shown += [f"{option_label(o)} {settings[o.name]}" for o in schema.section("generation")
              if o.name in settings and o.name not in named and o.name not in SPECULATION
              and o.read_by(drafters)]
    return " · ".join(shown)


def action_button(text: str, tip: str) -> QToolButton:
    b = QToolButton(text=text)
    b.setObjectName(ACTION)
    b.setToolTip(tip)
    return b


class VersionSwitch(QWidget):
    """‹ 2 / 3 › beside a message that has versions."""

    def __init__(self, turn: Turn, flip, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        n, total = turn.version()
        self.previous = action_button("‹", self.tr("The earlier version"))
        self.next = action_button("›", self.tr("The later version"))
        self.label = plain_label(f"{n} / {total}")
        self.label.setObjectName("versionLabel")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.previous)
        lay.addWidget(self.label)
        lay.addWidget(self.next)
        self.previous.setEnabled(n > 1)
        self.next.setEnabled(n < total)
        self.previous.setProperty("limit", n <= 1)
        self.next.setProperty("limit", n >= total)
        self.previous.clicked.connect(lambda: flip(turn, -1))
        self.next.clicked.connect(lambda: flip(turn, +1))
