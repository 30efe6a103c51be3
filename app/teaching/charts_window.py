"""The charts window: acceptance by draft position, drafts kept per step, and tokens/s over
time, for one answer or for its whole chat (app/teaching/charts.py has the numbers). Drawn with
QPainter in large type and thick marks, to be read from the back of a room.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QRadioButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.shell.theme import token_colours
from app.teaching.charts import SHARE_TICKS, ChartData, axis_ticks, chart_data
from app.transcript.answer import Answer

FONT_SCALE = 1.15
GAP = 6.0  # between a label and what it labels
MIN_VALUE_FONT = 0.7  # bar values shrink to this share of the type before they are left out


class Chart(QWidget):
    """Title, axes and a plot area; subclasses draw into the plot. The y axis is ticked at
    `ticks` (from 0 to the top), and its margin is as wide as its widest label, so no label
    is cut. Every label drawn is kept in `labels` with the rectangle it was given and the
    one its text needs (tests check that neither spills out)."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = title
        self.empty = ""  # shown instead of the plot when there is nothing to draw
        self.ticks: list[float] = [0.0, 1.0]
        self.y_format: Callable[[float], str] = lambda v: f"{v:g}"
        self.labels: list[tuple[str, QRectF, QRectF]] = []
        self.setMinimumSize(320, 240)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    @property
    def top(self) -> float:
        return self.ticks[-1] or 1.0

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        try:
            self.labels = []
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            font = p.font()
            font.setPointSizeF(font.pointSizeF() * FONT_SCALE)
            p.setFont(font)
            pal = self.palette()
            p.setPen(pal.color(QPalette.ColorRole.WindowText))
            metrics = p.fontMetrics()
            line = metrics.height()
            bold = p.font()
            bold.setBold(True)
            p.setFont(bold)
            self.label(p, QRectF(0, 0, self.width(), line + 4), Qt.AlignmentFlag.AlignLeft,
                       p.fontMetrics().elidedText(self.title, Qt.TextElideMode.ElideRight,
                                                  self.width()))
            p.setFont(font)
            margin = max((metrics.horizontalAdvance(self.y_format(t)) for t in self.ticks),
                         default=0) + 2 * GAP
            plot = QRectF(margin, line + 12, self.width() - margin - GAP - 2,
                          self.height() - 3 * line - 20)
            if self.empty:
                p.drawText(plot, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                           self.empty)
                return
            self._y_axis(p, plot, line)
            p.setPen(QPen(pal.color(QPalette.ColorRole.Mid), 1.5))
            p.drawLine(plot.bottomLeft(), plot.bottomRight())
            p.drawLine(plot.bottomLeft(), plot.topLeft())
            self.draw(p, plot, line)
        finally:
            p.end()

    def draw(self, p: QPainter, plot: QRectF, line: int) -> None:
        raise NotImplementedError

    def label(self, p: QPainter, rect: QRectF, flags: Qt.AlignmentFlag, text: str) -> None:
        p.drawText(rect, flags, text)
        self.labels.append((text, rect, p.boundingRect(rect, flags, text)))

    def y_at(self, plot: QRectF, value: float) -> float:
        return plot.bottom() - plot.height() * value / self.top

    def _y_axis(self, p: QPainter, plot: QRectF, line: int) -> None:
        """Each tick's value beside the axis and a faint line across the plot."""
        grid = QColor(self.palette().color(QPalette.ColorRole.Mid))
        grid.setAlpha(70)
        text = self.palette().color(QPalette.ColorRole.WindowText)
        for tick in self.ticks:
            y = self.y_at(plot, tick)
            if tick:
                p.setPen(QPen(grid, 1))
                p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
            p.setPen(text)
            self.label(p, QRectF(0, y - line / 2, plot.left() - GAP, line),
                       Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                       self.y_format(tick))


class BarChart(Chart):
    def __init__(self, title: str, x_caption: str, parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.x_caption = x_caption
        self.bars: list[tuple[str, float, str]] = []  # label under, height, value over

    def draw(self, p: QPainter, plot: QRectF, line: int) -> None:
        n = len(self.bars)
        slot = plot.width() / max(n, 1)
        colour = QColor(token_colours(self).chart_bar)
        text = self.palette().color(QPalette.ColorRole.WindowText)
        metrics = p.fontMetrics()
        # Labels under the bars: every one, or every second, third… when they would touch.
        widest = max((metrics.horizontalAdvance(b[0]) for b in self.bars), default=0) + GAP
        every = max(1, math.ceil(widest / slot))
        base_font = QFont(p.font())
        value_font = self._value_font(base_font, slot)
        for i, (name, value, shown) in enumerate(self.bars):
            h = plot.height() * min(value / self.top, 1.0)
            x = plot.left() + i * slot
            p.fillRect(QRectF(x + slot * 0.15, plot.bottom() - h, slot * 0.7, h), colour)
            p.setPen(text)
            if i % every == 0:
                self.label(p, QRectF(x, plot.bottom() + 2, slot, line),
                           Qt.AlignmentFlag.AlignHCenter, name)
            if shown and value_font is not None:
                p.setFont(value_font)
                vline = p.fontMetrics().height()
                # above the bar, or just inside its top when the bar reaches the top
                inside = h + vline + 2 > plot.height()
                y = plot.bottom() - h + 2 if inside else plot.bottom() - h - vline - 2
                p.setPen(QColor("#FFFFFF") if inside else text)
                self.label(p, QRectF(x, y, slot, vline), Qt.AlignmentFlag.AlignHCenter, shown)
                p.setFont(base_font)
                p.setPen(text)
        self.label(p, QRectF(plot.left(), plot.bottom() + line + 2, plot.width(), line),
                   Qt.AlignmentFlag.AlignHCenter, self.x_caption)

    def _value_font(self, base: QFont, slot: float) -> QFont | None:
        """The bars' values in the chart's type, smaller when the widest would not fit over
        its bar; None when even the smallest would not (the y axis still reads them)."""
        font = QFont(base)
        widest = max((QFontMetricsF(font).horizontalAdvance(b[2]) for b in self.bars),
                     default=0.0)
        if widest <= slot - 2:
            return font
        scale = (slot - 2) / widest
        if scale < MIN_VALUE_FONT:
            return None
        font.setPointSizeF(font.pointSizeF() * scale)
        return font


class LineChart(Chart):
    def __init__(self, title: str, x_caption: str, parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.x_caption = x_caption
        self.points: list[tuple[float, float]] = []
        self.y_format = lambda v: f"{v:.0f}"

    def draw(self, p: QPainter, plot: QRectF, line: int) -> None:
        right = max((x for x, _ in self.points), default=1.0) or 1.0
        pen = QPen(QColor(token_colours(self).chart_bar), 3)
        p.setPen(pen)
        pts = [QPointF(plot.left() + plot.width() * x / right, self.y_at(plot, y))
               for x, y in self.points]
        p.drawPolyline(pts)
        p.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        self.label(p, QRectF(plot.left(), plot.bottom() + 2, plot.width(), line),
                   Qt.AlignmentFlag.AlignLeft, "0 s")
        self.label(p, QRectF(plot.left(), plot.bottom() + 2, plot.width(), line),
                   Qt.AlignmentFlag.AlignRight, f"{right:.1f} s")
        self.label(p, QRectF(plot.left(), plot.bottom() + line + 2, plot.width(), line),
                   Qt.AlignmentFlag.AlignHCenter, self.x_caption)


class ChartsWindow(QDialog):
    def __init__(self, answer: Answer, chat_answers: Callable[[], list[Answer]], title: str = "",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Charts — {title}").format(title=title) if title
                            else self.tr("Charts"))
        self.resize(1200, 520)
        self._answer = answer
        self._chat_answers = chat_answers
        self.this_answer = QRadioButton(self.tr("This answer"))
        self.this_chat = QRadioButton(self.tr("The whole chat"))
        self.this_answer.setChecked(True)
        scope = QButtonGroup(self)
        scope.addButton(self.this_answer)
        scope.addButton(self.this_chat)
        scope.buttonToggled.connect(lambda *_: self.refresh())
        self.summary = QLabel()
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        top = QHBoxLayout()
        top.addWidget(self.this_answer)
        top.addWidget(self.this_chat)
        top.addStretch(1)
        top.addWidget(self.summary)
        self.acceptance = BarChart(self.tr("Acceptance by draft position"),
                                   self.tr("draft position"))
        self.acceptance.ticks = list(SHARE_TICKS)
        self.acceptance.y_format = lambda v: f"{100 * v:.0f} %"
        self.kept = BarChart(self.tr("Drafts kept per step"), self.tr("drafts kept in a step"))
        self.rate = LineChart(self.tr("Tokens per second over time"), self.tr("decoding time"))
        grid = QGridLayout()
        for i, chart in enumerate((self.acceptance, self.kept, self.rate)):
            grid.addWidget(chart, 0, i)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(grid, 1)
        self.data = ChartData()
        self.refresh()

    def refresh(self) -> None:
        answers = self._chat_answers() if self.this_chat.isChecked() else [self._answer]
        self.data = d = chart_data(answers)
        rates = d.acceptance_at()
        self.acceptance.bars = [(str(i + 1), r, f"{100 * r:.0f}%") for i, r in enumerate(rates)]
        self.acceptance.empty = "" if rates else self.tr("Nothing was drafted.")
        self.kept.ticks = axis_ticks(max(d.kept_per_step, default=0), whole=True)
        self.kept.bars = [(str(i), float(c), str(c)) for i, c in enumerate(d.kept_per_step)]
        self.kept.empty = "" if d.kept_per_step else self.tr("Nothing was drafted.")
        self.rate.points = d.rate
        self.rate.ticks = axis_ticks(max((r for _, r in d.rate), default=0.0), whole=True)
        self.rate.empty = "" if d.rate else (
            self.tr("Step timings are kept for this session's answers only (not in the chat "
                    "store).")
            if not d.timed else self.tr("Too few steps to draw a rate."))
        steps = sum(d.kept_per_step)
        answers_words = (self.tr("{n} answer") if d.n_answers == 1
                         else self.tr("{n} answers")).format(n=d.n_answers)
        self.summary.setText(self.tr("{answers} · {steps} steps with a draft").format(
            answers=answers_words, steps=steps))
        for chart in (self.acceptance, self.kept, self.rate):
            chart.update()
