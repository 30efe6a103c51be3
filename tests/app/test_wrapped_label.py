"""A wrapped label answers the height QLabel would, laying its text out once per width."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel

from app.transcript.message_widgets import plain_label
from app.widgets.wrapped_label import WrappedLabel

TEXT = "accepted 87 % · 3.4 tokens a step · 912 tok/s · ×1.31 against plain decoding " * 3


def twin(label: QLabel) -> QLabel:
    """A plain QLabel set up as `label` is: what the height must equal."""
    other = QLabel()
    other.setWordWrap(label.wordWrap())
    other.setText(label.text())
    other.setFont(label.font())
    other.setContentsMargins(label.contentsMargins())
    return other


@pytest.mark.parametrize("selectable", [False, True])
def test_heights_follow_text_width_font_wrap_and_margins(qtbot, selectable):
    label = plain_label(TEXT, selectable=selectable)
    qtbot.addWidget(label)
    assert isinstance(label, WrappedLabel)

    def check(width: int) -> None:
        assert label.heightForWidth(width) == twin(label).heightForWidth(width)

    for width in (120, 300, 120, 900):
        check(width)
    short = label.heightForWidth(200)
    label.setText(TEXT * 2)
    assert label.heightForWidth(200) > short  # a new text is laid out again
    check(200)
    font = label.font()
    font.setPointSizeF(font.pointSizeF() * 2)
    label.setFont(font)
    check(200)
    label.setContentsMargins(0, 10, 0, 30)
    check(200)
    label.setWordWrap(False)
    check(200)


def test_the_text_is_laid_out_once_per_width(qtbot, monkeypatch):
    label = plain_label(TEXT)
    qtbot.addWidget(label)
    calls = []
    layout = QLabel.heightForWidth

    def counted(self, width):
        calls.append(width)
        return layout(self, width)

    monkeypatch.setattr(QLabel, "heightForWidth", counted)
    heights = {label.heightForWidth(w) for w in (250, 250, 250, 400, 250, 400)}
    assert len(heights) == 2
    assert sorted(calls) == [250, 400]
