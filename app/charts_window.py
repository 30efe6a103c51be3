"""The charts window: acceptance by draft position, drafts kept per step, and tokens/s over
time, for one answer or for its whole chat (app/charts.py has the numbers). Drawn with
QPainter in large type and thick marks, to be read from the back of a room.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette, QPen
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

from app.answer import Answer
from app.charts import ChartData, chart_data
from app.theme import token_colours

FONT_SCALE = 1.15


class Chart(QWidget):
    """Title, axes and a plot area; subclasses draw into the plot."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = title
        self.empty = ""  # shown instead of the plot when there is nothing to draw
        self.setMinimumSize(320, 240)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        try:
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            font = p.font()
            font.setPointSizeF(font.pointSizeF() * FONT_SCALE)
            p.setFont(font)
            pal = self.palette()
            p.setPen(pal.color(QPalette.ColorRole.WindowText))
            line = p.fontMetrics().height()
            bold = p.font()
            bold.setBold(True)
            p.setFont(bold)
            p.drawText(QRectF(0, 0, self.width(), line + 4), Qt.AlignmentFlag.AlignLeft,
                       self.title)
            p.setFont(font)
            plot = QRectF(3.2 * line, line + 12, self.width() - 3.2 * line - 8,
                          self.height() - 3 * line - 20)
            if self.empty:
                p.drawText(plot, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                           self.empty)
                return
            p.setPen(QPen(pal.color(QPalette.ColorRole.Mid), 1.5))
            p.drawLine(plot.bottomLeft(), plot.bottomRight())
            p.drawLine(plot.bottomLeft(), plot.topLeft())
            self.draw(p, plot, line)
        finally:
            p.end()

    def draw(self, p: QPainter, plot: QRectF, line: int) -> None:
        raise NotImplementedError

    def _y_labels(self, p: QPainter, plot: QRectF, line: int, top: float,
                  fmt: Callable[[float], str]) -> None:
        p.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        for frac in (0.0, 0.5, 1.0):
            y = plot.bottom() - frac * plot.height()
            p.drawText(QRectF(0, y - line / 2, plot.left() - 6, line),
                       Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                       fmt(top * frac))


class BarChart(Chart):
    def __init__(self, title: str, x_caption: str, parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.x_caption = x_caption
        self.bars: list[tuple[str, float, str]] = []  # label under, height, value over
        self.top = 1.0
        self.y_format: Callable[[float], str] = lambda v: f"{v:g}"

    def draw(self, p: QPainter, plot: QRectF, line: int) -> None:
        self._y_labels(p, plot, line, self.top, self.y_format)
        n = len(self.bars)
        slot = plot.width() / max(n, 1)
        colour = QColor(token_colours(self).chart_bar)
        text = self.palette().color(QPalette.ColorRole.WindowText)
        for i, (label, value, shown) in enumerate(self.bars):
            h = plot.height() * (value / self.top if self.top else 0)
            x = plot.left() + i * slot + slot * 0.15
            p.fillRect(QRectF(x, plot.bottom() - h, slot * 0.7, h), colour)
            p.setPen(text)
            p.drawText(QRectF(x - slot * 0.15, plot.bottom() + 2, slot, line),
                       Qt.AlignmentFlag.AlignHCenter, label)
            if shown:
                # above the bar, or just inside its top when the bar reaches the top
                inside = h + line + 2 > plot.height()
                y = plot.bottom() - h + 2 if inside else plot.bottom() - h - line - 2
                p.setPen(QColor("#FFFFFF") if inside else text)
                p.drawText(QRectF(x - slot * 0.15, y, slot, line),
                           Qt.AlignmentFlag.AlignHCenter, shown)
                p.setPen(text)
        p.drawText(QRectF(plot.left(), plot.bottom() + line + 2, plot.width(), line),
                   Qt.AlignmentFlag.AlignHCenter, self.x_caption)


class LineChart(Chart):
    def __init__(self, title: str, x_caption: str, parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.x_caption = x_caption
        self.points: list[tuple[float, float]] = []

    def draw(self, p: QPainter, plot: QRectF, line: int) -> None:
        xs = [x for x, _ in self.points]
        top = max((y for _, y in self.points), default=1.0) * 1.1 or 1.0
        right = max(xs, default=1.0) or 1.0
        self._y_labels(p, plot, line, top, lambda v: f"{v:.0f}")
        pen = QPen(QColor(token_colours(self).chart_bar), 3)
        p.setPen(pen)
        pts = [QPointF(plot.left() + plot.width() * x / right,
                       plot.bottom() - plot.height() * y / top) for x, y in self.points]
        p.drawPolyline(pts)
        p.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        p.drawText(QRectF(plot.left(), plot.bottom() + 2, plot.width(), line),
                   Qt.AlignmentFlag.AlignRight, f"{right:.1f} s")
        p.drawText(QRectF(plot.left(), plot.bottom() + line + 2, plot.width(), line),
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
        self.acceptance.top = 1.0
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
        peak = max(d.kept_per_step, default=0)
        self.kept.top = float(max(peak, 1))
        self.kept.bars = [(str(i), float(c), str(c)) for i, c in enumerate(d.kept_per_step)]
        self.kept.empty = "" if d.kept_per_step else self.tr("Nothing was drafted.")
        self.rate.points = d.rate
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
