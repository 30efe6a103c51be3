"""Copying text with a visible confirmation: the button that copied reads "Copied" for a
moment, so a person knows the click did something (the clipboard itself shows nothing)."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractButton

from app.i18n import translate

CONFIRM_MS = 1500
_TIMER = "copyFeedbackTimer"


def copy_text(button: QAbstractButton, text: str) -> None:
    """Put `text` on the clipboard and let `button` say so for CONFIRM_MS."""
    QGuiApplication.clipboard().setText(text)
    timer = button.findChild(QTimer, _TIMER)
    if timer is None:  # the first copy: remember the button's own words, once
        label = button.text()
        # as wide as the longer of its two words, so the row around it does not shift
        button.setMinimumWidth(button.sizeHint().width())
        timer = QTimer(button, singleShot=True, interval=CONFIRM_MS)
        timer.setObjectName(_TIMER)
        timer.timeout.connect(lambda: button.setText(label))
    button.setText(translate("CopyFeedback", "Copied"))
    button.setMinimumWidth(max(button.minimumWidth(), button.sizeHint().width()))
    timer.start()  # a second click starts the moment again
