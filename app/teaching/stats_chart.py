"""A small per-answer bar chart, drawn with QPainter: accepted draft tokens per step.

With more steps than pixels, neighbouring steps share a column (its mean). Running sums,
extended by the steps that arrived since the last paint, give each column's mean and whether
all its drafts were accepted in constant time, so a paint costs the same at step 100,000 as at
step 300: nothing the GUI thread does grows with the answer. The bars are one image made in
numpy (`bar_image`), pixel by pixel as the raster engine fills them: hundreds of rectangles
built and drawn from Python took 1.3-1.6 ms a redraw, four times a second while an answer
streams. The drawing is kept as a pixmap until the data, size or look change: while an answer
streams, the text growing above moves the chart down at every frame, and each move repainted
it (with 150 columns, a sixth of the GUI thread's time at a GPU's token rates), where its data
changes four times a second.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QPainter,
    QPaintEvent,
    QPalette,
    QPixmap,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

from app.shell.style import font_points
from app.shell.theme import token_colours

MAX_BAR_WIDTH = 6.0


class AcceptChart(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFixedHeight(self._height())
        self._accepted: list[int] = []
        self._drafted: list[int] = []
        self._k = 0
        self._sums = [0]  # accepted drafts in steps [0, i)
        self._dsums = [0]  # drafted tokens in steps [0, i): K auto varies it step by step
        self._fulls = [0]  # steps in [0, i) whose every draft was accepted
        self._top = 0  # the most accepted in one step
        self._drawn: QPixmap | None = None  # the last paint, until data, size or look change
        self.setToolTip(self.tr("Draft tokens accepted at each verification step (green: every "
                                "drafted token accepted; the pale bar behind: how many were "
                                "drafted)"))

    def set_data(self, accepted: list[int], drafted: list[int], k: int) -> None:
        """Keeps references to the answer's own lists: call update() as they grow."""
        if accepted is not self._accepted:
            self._sums, self._dsums, self._fulls, self._top = [0], [0], [0], 0
        self._accepted, self._drafted, self._k = accepted, drafted, k
        self._drawn = None
        self.update()

    def _catch_up(self) -> int:
        """Extend the running sums over the steps added since the last paint; the count."""
        n = min(len(self._accepted), len(self._drafted))
        sums, dsums, fulls = self._sums, self._dsums, self._fulls
        for i in range(len(sums) - 1, n):
            a, d = self._accepted[i], self._drafted[i]
            sums.append(sums[-1] + a)
            dsums.append(dsums[-1] + d)
            fulls.append(fulls[-1] + (a == d and d > 0))
            self._top = max(self._top, d)
        return n

    def has_drafts(self) -> bool:
        """Whether any step so far drafted: read off the running sums, never by walking the
        answer's steps (a plain answer's are all nothing, and it may be long)."""
        self._catch_up()
        return self._top > 0

    def drafted_means(self, columns: int) -> list[float]:
        """Per column: the mean drafted per step (the K each step used)."""
        return self._columns(columns)[2].tolist()

    def column_values(self, columns: int) -> list[tuple[float, bool]]:
        """Per column: the mean accepted per step of the steps it covers, and whether every
        draft of them was accepted."""
        means, full, _ = self._columns(columns)
        return list(zip(means.tolist(), full.tolist(), strict=True))

    def _columns(self, columns: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per column of at most `columns` (each one step or more, in order): the mean
        accepted, whether every draft was accepted, the mean drafted."""
        n = self._catch_up()
        columns = min(n, columns)
        c = np.arange(columns + 1, dtype=np.float64)
        bounds = (c * (n / columns) if columns else c).astype(np.int64)
        lo = bounds[:-1]
        hi = np.maximum(bounds[1:], lo + 1)
        ends = np.concatenate((lo, hi)).tolist()  # the running sums read at both ends
        sums, dsums, fulls = (np.array([run[i] for i in ends], dtype=np.int64).reshape(2, -1)
                              for run in (self._sums, self._dsums, self._fulls))
        steps = hi - lo
        return ((sums[1] - sums[0]) / steps, fulls[1] - fulls[0] == steps,
                (dsums[1] - dsums[0]) / steps)

    def sizeHint(self) -> QSize:
        return QSize(300, self._height())

    def _caption_font(self) -> QFont:
        font = QFont(self.font())
        font.setPointSizeF(max(6.0, font_points(font) * 0.75))
        return font

    def _height(self) -> int:
        """The plot's 34 px and a caption line in the chart's own type, which presentation
        mode enlarges: the caption must not be cut."""
        return max(52, 38 + math.ceil(QFontMetricsF(self._caption_font()).height()))

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        self._drawn = None  # palette, font, style, language: drawn again
        if event.type() == QEvent.Type.FontChange:
            self.setFixedHeight(self._height())

    def paintEvent(self, event: QPaintEvent) -> None:
        ratio = self.devicePixelRatioF()
        size = QSize(math.ceil(self.width() * ratio), math.ceil(self.height() * ratio))
        if self._drawn is None or self._drawn.size() != size:
            self._drawn = QPixmap(size)
            self._drawn.setDevicePixelRatio(ratio)
            self._drawn.fill(Qt.GlobalColor.transparent)
            self._draw(self._drawn)
        p = QPainter(self)
        try:
            p.drawPixmap(0, 0, self._drawn)
        finally:
            p.end()  # explicitly: a painter left to the garbage collector outlives the paint

    def _draw(self, pixmap: QPixmap) -> None:
        p = QPainter(pixmap)
        try:
            self._paint(p)
        finally:
            p.end()

    def _paint(self, p: QPainter) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        pal = self.palette()
        text_colour = pal.color(QPalette.ColorRole.PlaceholderText)
        font = self._caption_font()
        metrics = QFontMetricsF(font)
        line = metrics.height()
        n = self._catch_up()
        top = max(self._k, self._top, 1)
        # as wide as the top's label in this type (presentation mode enlarges it)
        label_w = max(30.0, metrics.horizontalAdvance(str(top)) + 8)
        plot = QRectF(label_w, 4, self.width() - label_w - 4, self.height() - line - 4)
        p.setPen(pal.color(QPalette.ColorRole.Mid))
        p.drawLine(plot.bottomLeft(), plot.bottomRight())
        p.setPen(text_colour)
        p.setFont(font)
        p.drawText(QRectF(0, plot.top() - 4, label_w - 4, line), Qt.AlignmentFlag.AlignRight,
                   str(top))
        p.drawText(QRectF(0, plot.bottom() - line * 0.7, label_w - 4, line),
                   Qt.AlignmentFlag.AlignRight, "0")
        caption = (self.tr("accepted per step · {n} steps").format(n=n) if n
                   else self.tr("accepted per step"))
        p.drawText(QRectF(plot.left(), plot.bottom() + 1, plot.width(), line),
                   Qt.AlignmentFlag.AlignLeft, caption)
        if not n:
            return
        colours = token_colours(self)
        columns = min(n, max(1, int(plot.width() / 2)))
        width = min(MAX_BAR_WIDTH, plot.width() / columns)
        means, full, drafted = self._columns(columns)
        ratio = p.device().devicePixelRatioF() if p.device() is not None else 1.0
        image, at = bar_image(means, full, drafted, plot=plot, width=width,
                              scale=plot.height() / top, ratio=ratio,
                              bar=QColor(colours.chart_bar), full=QColor(colours.chart_full))
        p.drawImage(at, image)


def _premultiplied(colour: QColor, alpha: int | None = None) -> int:
    """`colour` (with `alpha` instead of its own) as a Format_ARGB32_Premultiplied pixel."""
    a = colour.alpha() if alpha is None else alpha
    r, g, b = ((v * a + 127) // 255 for v in (colour.red(), colour.green(), colour.blue()))
    return (a << 24) | (r << 16) | (g << 8) | b


def bar_image(means: np.ndarray, all_accepted: np.ndarray, drafted: np.ndarray, *,
              plot: QRectF, width: float, scale: float, ratio: float, bar: QColor,
              full: QColor) -> tuple[QImage, QPointF]:
    """The bars as one image of `plot` and where it goes (logical coordinates): column c
    covers [plot.left() + c·width, + max(1, width - 1)) across, the drafted mean pale behind
    the accepted mean, in `full` where every draft was accepted (`all_accepted`), each up
    from plot.bottom() by value · scale. A pixel is a bar's where its centre lies inside the
    bar, as the raster engine fills an aliased rectangle: the same pixels at whole device
    pixel ratios (tests/app/test_stats_chart.py)."""
    columns = len(means)
    bar_w = max(1.0, width - 1)
    left, bottom = plot.left(), plot.bottom()
    x0, x1 = math.floor(left * ratio), math.ceil((left + columns * width) * ratio)
    y0, y1 = math.floor(plot.top() * ratio), math.ceil(bottom * ratio)
    xs = (np.arange(x0, x1) + 0.5) / ratio - left  # pixel centres, right of `left`
    col = (xs // width).astype(np.int64)
    inside = (col < columns) & (xs - col * width < bar_w)
    col = np.where(inside, col, 0)
    ys = bottom - (np.arange(y0, y1) + 0.5) / ratio  # pixel centres, above the axis
    ys = np.where(ys > 0, ys, np.inf)[:, None]  # below it: no bar's
    solid = np.where(inside, means[col] * scale, -1.0)
    pale = np.where(inside, drafted[col] * scale, -1.0)
    shade = np.where(all_accepted[col], np.uint32(_premultiplied(full)),
                     np.uint32(_premultiplied(bar)))
    pixels = np.where(ys <= solid, shade,
                      np.where(ys <= pale, np.uint32(_premultiplied(bar, 60)), np.uint32(0)))
    image = QImage(pixels.tobytes(), pixels.shape[1], pixels.shape[0], 4 * pixels.shape[1],
                   QImage.Format.Format_ARGB32_Premultiplied).copy()  # owns its pixels
    image.setDevicePixelRatio(ratio)
    return image, QPointF(x0 / ratio, y0 / ratio)
