"""The replay window: a finished answer's draft–verify loop, one frame at a time (next,
previous, play at a chosen speed), drawn from the recorded token log (app/teaching/replay.py).

Each frame redraws only the current step: the steps before it stay in the document, so
playing a long answer costs the same per frame at its end as at its start.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFontDatabase, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from app.shell.theme import token_colours
from app.teaching.replay import ReplayScript
from app.teaching.tree_drawing import tree_lines
from app.transcript.answer import Answer
from app.transcript.token_formats import TokenFormats
from app.transcript.token_view import TokenView

# Seconds per frame the speed box offers; the default lets a class read each caption.
SPEEDS = (0.25, 0.5, 1.0, 2.0, 3.0)
DEFAULT_SPEED = 1.0
JUMP_STEPS = 10  # PageDown / PageUp: this many verification steps on or back


class ReplayWindow(QDialog):
    def __init__(self, answer: Answer, title: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Replay — {title}").format(title=title) if title
                            else self.tr("Replay"))
        self.resize(820, 520)
        self.script = ReplayScript(answer.tokens, answer.spec_type, answer.trees)
        self.frame = -1
        self._committed = 0  # steps drawn whole, in their final colours

        self.caption = QLabel()
        self.caption.setObjectName("replayCaption")
        self.caption.setTextFormat(Qt.TextFormat.PlainText)
        self.caption.setWordWrap(True)
        font = self.caption.font()
        font.setPointSizeF(font.pointSizeF() * 1.4)
        font.setBold(True)
        self.caption.setFont(font)
        self.view = TokenView()
        font = self.view.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        self.view.setFont(font)
        page = QWidget()
        page.setObjectName("replayPage")
        page_layout = QVBoxLayout(page)
        page_layout.addWidget(self.view)
        page_layout.addStretch(1)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setWidget(page)
        self.legend = QLabel(self.tr("dotted italics: proposed, not yet verified · blue "
                                     "underlined: accepted · orange struck out: rejected · plain: "
                                     "the target's own"))
        self.legend.setObjectName("replayLegend")
        self.legend.setWordWrap(True)
        self.previous_button = QPushButton(self.tr("◀ Previous"))
        self.play_button = QPushButton(self.tr("▶ Play"))
        self.play_button.setCheckable(True)
        self.next_button = QPushButton(self.tr("Next ▶"))
        self.speed = QComboBox()
        for seconds in SPEEDS:
            self.speed.addItem(self.tr("{seconds:g} s per frame").format(seconds=seconds),
                               seconds)
        self.speed.setCurrentIndex(SPEEDS.index(DEFAULT_SPEED))
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, max(0, len(self.script) - 1))
        self.position = QLabel()
        controls = QHBoxLayout()
        for w in (self.previous_button, self.play_button, self.next_button, self.speed):
            controls.addWidget(w)
        controls.addWidget(self.slider, 1)
        controls.addWidget(self.position)
        note = QLabel(self.tr("A replay of the recorded steps: the drafter's proposal, the "
                              "target's verdict on each token, then the target's own token. "
                              "Keys: → ← next and previous frame, Page Down / Page Up {n} "
                              "steps on or back, Home and End the first and last frame, Space "
                              "plays or pauses, Esc closes.").format(n=JUMP_STEPS))
        note.setWordWrap(True)
        note.setObjectName("replayNote")
        # a tree step's tree: as proposed, then with the target's verdicts (tree_drawing.py)
        self.tree_view = QLabel()
        self.tree_view.setObjectName("replayTree")
        self.tree_view.setTextFormat(Qt.TextFormat.PlainText)
        self.tree_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        # scrolled: a tree of 64 nodes, or one in the projector's type, is taller than a window
        self.tree_scroll = QScrollArea()
        self.tree_scroll.setWidgetResizable(True)
        self.tree_scroll.setWidget(self.tree_view)
        self.tree_scroll.hide()
        layout = QVBoxLayout(self)
        layout.addWidget(self.caption)
        layout.addWidget(self.legend)
        layout.addWidget(self.scroll, 1)
        layout.addWidget(self.tree_scroll, 2)
        layout.addLayout(controls)
        layout.addWidget(note)

        self.timer = QTimer(self)
        self.timer.timeout.connect(self._on_tick)
        self.previous_button.clicked.connect(self.previous)
        self.next_button.clicked.connect(self.next)
        self.play_button.toggled.connect(self._on_play)
        self.speed.currentIndexChanged.connect(self._on_speed)
        self.slider.valueChanged.connect(self.show_frame)
        self._keys()
        if len(self.script):
            self.show_frame(0)
        else:
            self.caption.setText(self.tr("This answer has no recorded steps to replay."))
            for w in (self.previous_button, self.play_button, self.next_button, self.slider):
                w.setEnabled(False)

    def _keys(self) -> None:
        """The replay's keys, wherever the focus is in the window: shortcuts, so that a
        focused button, slider or speed box does not take the arrows or Space for itself."""
        for key, slot in (
            (Qt.Key.Key_Right, self.next), (Qt.Key.Key_Left, self.previous),
            (Qt.Key.Key_PageDown, lambda: self.jump(JUMP_STEPS)),
            (Qt.Key.Key_PageUp, lambda: self.jump(-JUMP_STEPS)),
            (Qt.Key.Key_Home, lambda: self.show_frame(0)), (Qt.Key.Key_End, self.show_end),
            (Qt.Key.Key_Space, self._on_space),
        ):
            QShortcut(QKeySequence(key), self).activated.connect(slot)

    # Navigation --------------------------------------------------------------------------

    def next(self) -> None:
        if self.frame + 1 < len(self.script):
            self.show_frame(self.frame + 1)

    def previous(self) -> None:
        if self.frame > 0:
            self.show_frame(self.frame - 1)

    def jump(self, steps: int) -> None:
        """To the first frame of the verification step `steps` on (back when negative); past
        either end, to the first or last frame."""
        if not len(self.script):
            return
        step = self.script.step_of_frame(max(self.frame, 0)) + steps
        if step >= len(self.script.steps):
            self.show_end()
        else:
            self.show_frame(self.script.frame_of_step(max(step, 0)))

    def show_frame(self, frame: int) -> None:
        if not 0 <= frame < len(self.script) or frame == self.frame:
            return
        self.frame = frame
        f = self.script.frames[frame]
        steps, log = self.script.steps, self.script.log
        span = steps[f.step]
        if self._committed > f.step:
            self.view.remove_from(span.start)
            self._committed = f.step
        elif self._committed < f.step:
            first = steps[self._committed]
            self.view.remove_from(first.start)  # the earlier step's partial drawing
            self.view.append_tokens(log, first.start, steps[f.step - 1].end)
            self._committed = f.step
        self.view.remove_from(span.start)
        if f.phase == "propose":
            self.view.append_tokens(log, span.start, span.drafts_end, proposed=True)
        elif f.phase == "verdict":
            self.view.append_tokens(log, span.start, span.drafts_end)
        else:
            self.view.append_tokens(log, span.start, span.end)
        self.caption.setText(self.script.caption(frame))
        tree = self.script.trees.get(span.number, ())
        self.tree_view.setText("\n".join(tree_lines(tree, verdicts=f.phase != "propose")))
        self.tree_scroll.setVisible(bool(tree))
        self.position.setText(self.tr("frame {frame} / {n}").format(frame=frame + 1,
                                                                    n=len(self.script)))
        self.slider.blockSignals(True)
        self.slider.setValue(frame)
        self.slider.blockSignals(False)
        self.previous_button.setEnabled(frame > 0)
        self.next_button.setEnabled(frame + 1 < len(self.script))
        self._follow_end()

    def _follow_end(self) -> None:
        """Keep the step being shown in sight (the view is as tall as its text; the scroll
        area around it scrolls)."""
        rect = self.view.end_rect()
        self.scroll.ensureVisible(0, self.view.y() + rect.bottom(), 0, 40)

    def show_end(self) -> None:
        self.show_frame(len(self.script) - 1)

    def redraw(self) -> None:
        """Draw the frame shown again in the window's token colours (presentation mode in or
        out: app/teaching/presentation.py)."""
        self.view.formats = TokenFormats(token_colours(self.view))
        self.view.clear_tokens()
        self._committed = 0
        frame, self.frame = self.frame, -1
        if frame >= 0:
            self.show_frame(frame)

    # Playing -----------------------------------------------------------------------------

    def _on_space(self) -> None:
        if self.play_button.isEnabled():
            self.play_button.toggle()

    def _on_play(self, playing: bool) -> None:
        self.play_button.setText(self.tr("❚❚ Pause") if playing else self.tr("▶ Play"))
        if playing:
            if self.frame + 1 >= len(self.script):
                self.show_frame(0)  # play again from the start
            self._on_speed()
            self.timer.start()
        else:
            self.timer.stop()

    def _on_speed(self) -> None:
        self.timer.setInterval(int(1000 * self.speed.currentData()))

    def _on_tick(self) -> None:
        if self.frame + 1 >= len(self.script):
            self.play_button.setChecked(False)
            return
        self.next()
