"""Streaming text grows its view ahead of itself at a fast rate, and fits it exactly after.

A frame that resizes the answer's text view moves its card and scrolls the transcript, which
repaints everything visible; at a GPU's rate that was every frame. With room kept for what
arrives in GROW_AHEAD_S the view resizes a few times a second, and at a reading rate it keeps
MIN_ROOM_LINES below the text and grows a few lines at a time. Driven by a stand-in clock:
frames and lines, not this machine's speed.
"""

from __future__ import annotations

from itertools import pairwise

import pytest
from PySide6.QtGui import QTextCursor

from app.widgets import auto_height_text
from app.widgets.auto_height_text import (
    GROW_AHEAD_S,
    MAX_ROOM_LINES,
    MIN_ROOM_LINES,
    AutoHeightTextEdit,
)

FRAME_S = 0.033


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def perf_counter(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(auto_height_text, "time", clock)
    return clock


def stream(view: AutoHeightTextEdit, clock: Clock, frames: int, lines_per_frame: float):
    """Append text frame by frame; returns the view's (height, text height) after each."""
    cursor = QTextCursor(view.document())
    seen, owed = [], 0.0
    for _ in range(frames):
        clock.now += FRAME_S
        owed += lines_per_frame
        while owed >= 1:
            cursor.insertText("a line of streamed words\n")
            owed -= 1
        view.document().documentLayout().documentSize()  # laid out, as a painted frame is
        seen.append((view.height(), view._needed(view.document().size())))
    return seen


def make_view(qtbot) -> AutoHeightTextEdit:
    view = AutoHeightTextEdit()
    qtbot.addWidget(view)
    view.resize(400, 50)
    view.show()
    return view


def test_a_fast_stream_resizes_a_few_times_a_second(qtbot, clock):
    view = make_view(qtbot)
    view.keep_room(True)
    # ~3 s at 30 lines/s (a GPU's rate): a room of ~7 lines, under the cap whatever the
    # font's line height
    seen = stream(view, clock, frames=90, lines_per_frame=1)
    assert all(height >= needed for height, needed in seen)  # the text is never cut
    resizes = sum(1 for a, b in pairwise(seen) if a[0] != b[0])
    seconds = 90 * FRAME_S
    # every frame grew the text; the view grew about once every GROW_AHEAD_S
    assert resizes <= 2 * seconds / GROW_AHEAD_S + 2, resizes
    line = view.fontMetrics().lineSpacing()
    assert max(h - n for h, n in seen) <= MAX_ROOM_LINES * line + line
    view.keep_room(False)
    assert view.height() == view._needed(view.document().size())  # fits once it has ended


def test_a_reading_rate_grows_a_few_lines_at_a_time(qtbot, clock):
    view = make_view(qtbot)
    view.keep_room(True)
    seen = stream(view, clock, frames=150, lines_per_frame=0.1)  # a line every ~0.3 s
    line = view.fontMetrics().lineSpacing()
    # never cut, and never more room than MIN_ROOM_LINES below the text
    assert all(0 <= h - n <= MIN_ROOM_LINES * line for h, n in seen), seen
    grew = sum(1 for a, b in pairwise(seen) if b[1] != a[1])
    resizes = sum(1 for a, b in pairwise(seen) if a[0] != b[0])
    # the room filled, then grown again: a repaint of everything visible every
    # MIN_ROOM_LINES + 1 lines, not at each line
    assert grew >= 12 and grew // (MIN_ROOM_LINES + 1) - 1 <= resizes
    assert resizes <= grew // (MIN_ROOM_LINES + 1) + 1, (resizes, grew)


def test_without_room_the_view_fits_its_text(qtbot, clock):
    view = make_view(qtbot)
    seen = stream(view, clock, frames=20, lines_per_frame=3)
    assert all(h == n for h, n in seen)
