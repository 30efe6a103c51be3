"""Presentation mode and slow motion, for a stage or a classroom.

Presentation mode: large type, black on white with deeper token colours (backend/palette.py
PROJECTOR), the window full screen and the chat list and the settings panel folded away so
the answer, the legend and its live numbers fill the screen; F5 or Esc leaves it as it was
(maximized, or at its former place and size); while an answer is being written, Esc stops
the answer first, as it does outside presentation mode, and a second Esc leaves. Slow motion
shows a live answer's steps at most one per chosen delay (app/teaching/slow_motion.py), labelled in
the status bar as display-only: the engine runs and measures at full speed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QObject, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence, QShortcut
from PySide6.QtWidgets import QLabel

from app.i18n import translate
from app.shell.chrome import PROJECTOR_CHROME
from app.shell.style import font_points, style_sheet
from app.shell.theme import PRESENTATION_PROPERTY, high_contrast_palette
from app.teaching.slow_motion import STEP_DELAYS_S

if TYPE_CHECKING:
    from collections.abc import Callable

    from PySide6.QtWidgets import QMainWindow, QMenu, QWidget

    from app.chat.answer_flow import AnswerFlow
    from app.transcript.transcript_view import TranscriptView

FONT_SCALE = 1.6  # readable from the back of a classroom at 1080p
LEGEND_SCALE = 1.25  # the legend a little larger again: it is what the room looks up to


def slow_motion_words(seconds: float) -> str:
    return translate("Presentation", "Slow motion: {seconds:g} s per step (display only: the "
                     "engine runs and measures at full speed)").format(
        seconds=seconds) if seconds > 0 else ""


def presentation_style(pt: float) -> str:
    """The application's look in the projector colours at `pt`, then what the room reads
    from afar: the legend larger again, the numbers at full size, bold and black."""
    return (f"QWidget {{ font-size: {pt:.1f}pt; }} "
            + style_sheet(PROJECTOR_CHROME, pt)
            + f"#legend {{ font-size: {pt * LEGEND_SCALE:.1f}pt; font-weight: bold; }} "
            f"#statsLabel {{ font-size: {pt:.1f}pt; font-weight: bold; "
            f"color: {PROJECTOR_CHROME.text}; }}")


class Presentation(QObject):
    """Presentation mode over `window`: `side` are the widgets folded away on stage, the
    transcript and the legend are redrawn in the projector colours, and the flow's Esc
    (stop the answer) goes before leaving."""

    def __init__(self, window: QMainWindow, menu: QMenu, flow: AnswerFlow,
                 side: Callable[[], tuple[QWidget, ...]], transcript: TranscriptView,
                 legend: QWidget) -> None:
        super().__init__(window)
        self.window = window
        self._flow = flow
        self._side = side
        self._transcript = transcript
        self._legend = legend
        self.action = QAction(self.tr("&Presentation mode"), window, checkable=True,
                              shortcut=QKeySequence("F5"))
        self.action.setToolTip(self.tr("Large type and high contrast for a projector; the answer, "
                                       "the legend and the numbers fill the window"))
        self.action.toggled.connect(self.set_enabled)
        menu.addAction(self.action)
        self._leave = QShortcut(QKeySequence("Esc"), window)
        self._leave.setEnabled(False)
        self._leave.activated.connect(self._on_escape)

        slow = menu.addMenu(self.tr("&Slow motion"))
        self.delay_group = QActionGroup(window)
        for seconds in STEP_DELAYS_S:
            a = slow.addAction(self.tr("Off") if not seconds
                               else self.tr("{seconds:g} s per step").format(seconds=seconds))
            a.setCheckable(True)
            a.setData(seconds)
            a.setChecked(not seconds)
            self.delay_group.addAction(a)
        self.delay_group.triggered.connect(lambda a: self.set_step_delay(a.data()))
        self.slow_label = QLabel()
        self.slow_label.setObjectName("slowMotionLabel")
        self.slow_label.hide()
        window.statusBar().addPermanentWidget(self.slow_label)
        self.step_delay_s = 0.0
        self._saved: dict = {}

    @property
    def enabled(self) -> bool:
        return self.action.isChecked()

    def _on_escape(self) -> None:
        # The shortcut takes Esc before the window sees it: the answer's stop goes first.
        if not self._flow.stop_on_escape():
            self.action.setChecked(False)

    def set_step_delay(self, seconds: float) -> None:
        self.step_delay_s = float(seconds)
        self._flow.models.client.set_step_delay(self.step_delay_s)
        for a in self.delay_group.actions():
            a.setChecked(a.data() == seconds)
        self.slow_label.setText(slow_motion_words(self.step_delay_s))
        self.slow_label.setVisible(self.step_delay_s > 0)

    def set_enabled(self, on: bool) -> None:
        if self.action.isChecked() != on:
            self.action.setChecked(on)  # comes back here through `toggled`
            return
        w = self.window
        if on == bool(self._saved):
            return
        # the inspector too: at this size it would squeeze the answer (View menu brings it)
        side = self._side()
        if on:
            self._saved = {"style": w.styleSheet(), "palette": w.palette(),
                           "visible": [x.isVisible() for x in side],
                           "state": w.windowState(), "geometry": w.saveGeometry()}
            w.setProperty(PRESENTATION_PROPERTY, True)
            pt = font_points(w.font()) * FONT_SCALE
            # A style sheet rather than setFont: the application's style sheet sizes the
            # messages and labels itself (app/shell/style.py), which setFont would not override;
            # this also reaches answers added later.
            w.setStyleSheet(self._saved["style"] + presentation_style(pt))
            w.setPalette(high_contrast_palette())  # answers redraw in the projector colours
            for x in side:
                x.hide()
            w.showFullScreen()  # the whole screen is the stage
        else:
            saved, self._saved = self._saved, {}
            w.setProperty(PRESENTATION_PROPERTY, False)
            w.setStyleSheet(saved["style"])
            w.setPalette(saved["palette"])
            for x, visible in zip(side, saved["visible"], strict=True):
                x.setVisible(visible)
            self._restore_window(saved["state"], saved["geometry"])
        self._transcript.recolour()
        self._legend.setPalette(w.palette())  # the legend redraws its samples on a palette change
        self._leave.setEnabled(on)

    def dress(self, tool: QWidget, on: bool) -> None:
        """A teaching tool's own window (a replay, a race, the charts) in the stage's look
        while presentation mode is on, or back in its own: a window of its own does not take
        the main window's style sheet, palette or token colours (app/shell/theme.py reads them
        from the window a widget is in)."""
        tool.setProperty(PRESENTATION_PROPERTY, on)
        if on:
            pt = font_points(self.window.font()) * FONT_SCALE
            tool.setStyleSheet(presentation_style(pt))
            tool.setPalette(high_contrast_palette())
        else:
            tool.setStyleSheet("")
            tool.setPalette(self.window.palette())
        redraw = getattr(tool, "redraw", None)
        if callable(redraw):
            redraw()  # token colours are drawn into its text, not read at paint time

    def _restore_window(self, state: Qt.WindowState, geometry: QByteArray) -> None:
        """The window as it was before presentation mode: maximized, full screen, or its
        normal place and size."""
        w = self.window
        if state & Qt.WindowState.WindowFullScreen:
            w.showFullScreen()
        elif state & Qt.WindowState.WindowMaximized:
            w.showMaximized()
        else:
            w.showNormal()
            w.restoreGeometry(geometry)
