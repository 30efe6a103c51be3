"""The per-step chart: its columns from running sums equal the plain mean of each column's
steps, also while the answer's lists keep growing between paints; its bars, one image made in
numpy, are the pixels of the rectangles they stand for."""

from __future__ import annotations

import random

import numpy as np
import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter

from app.teaching.stats_chart import AcceptChart, bar_image


def naive(accepted, drafted, columns):
    n = len(accepted)
    columns = min(n, columns)
    per = n / columns
    out = []
    for c in range(columns):
        lo, hi = int(c * per), max(int((c + 1) * per), int(c * per) + 1)
        acc, dr = accepted[lo:hi], drafted[lo:hi]
        out.append((sum(acc) / len(acc), all(a == d and d > 0
                                                  for a, d in zip(acc, dr, strict=True))))
    return out


def test_columns_follow_a_growing_answer(qtbot):
    chart = AcceptChart()
    qtbot.addWidget(chart)
    rng = random.Random(1)
    accepted, drafted = [], []
    chart.set_data(accepted, drafted, 8)
    for _ in range(40):  # the answer grows between paints, as it streams
        for _ in range(rng.randrange(1, 400)):
            d = rng.choice((0, 8, 8, 8))
            drafted.append(d)
            accepted.append(d if rng.random() < 0.3 else rng.randrange(0, d + 1))
        for columns in (7, 150, 400):
            assert chart.column_values(columns) == naive(accepted, drafted, columns)
            assert chart.drafted_means(columns) == [
                mean for mean, _ in naive(drafted, drafted, columns)]
    chart.grab()  # and it paints


def test_a_new_answer_starts_over(qtbot):
    chart = AcceptChart()
    qtbot.addWidget(chart)
    chart.set_data([8, 8], [8, 8], 8)
    assert chart.column_values(10) == [(8.0, True), (8.0, True)]
    chart.set_data([1], [4], 4)
    assert chart.column_values(10) == [(1.0, False)]


def test_a_repaint_with_nothing_new_draws_nothing_again(qtbot, monkeypatch):
    """While an answer streams, the text above moves the chart at every frame; its data
    changes only when it is given again (set_data)."""
    chart = AcceptChart()
    qtbot.addWidget(chart)
    chart.resize(300, chart.height())
    drawn = []
    paint = AcceptChart._paint
    monkeypatch.setattr(AcceptChart, "_paint", lambda self, p: (drawn.append(1), paint(self, p)))
    accepted, drafted = [4, 2], [4, 4]
    chart.set_data(accepted, drafted, 4)
    first = chart.grab().toImage()
    chart.grab()
    chart.grab()
    assert len(drawn) == 1  # moved or exposed: the same picture
    accepted.append(1)
    drafted.append(4)
    chart.set_data(accepted, drafted, 4)  # new steps: drawn again
    assert chart.grab().toImage() != first and len(drawn) == 2
    chart.resize(200, chart.height())  # a new size: drawn again
    chart.grab()
    assert len(drawn) == 3


def test_whether_any_step_drafted_follows_the_growing_answer(qtbot):
    """What the answer's card asks to show the chart at all: told from the running sums, as
    the lists grow, and anew for a new answer."""
    chart = AcceptChart()
    qtbot.addWidget(chart)
    accepted, drafted = [0] * 500, [0] * 500  # a plain answer's steps
    chart.set_data(accepted, drafted, 0)
    assert not chart.has_drafts()
    drafted.append(3)
    accepted.append(1)
    assert chart.has_drafts()
    chart.set_data([0, 0], [0, 0], 0)
    assert not chart.has_drafts()


def _rects_drawn(means, all_accepted, drafted, plot, width, scale, ratio, bar, full):
    """The bars as QPainter fills them, rectangle by rectangle: what bar_image must equal."""
    image = QImage(round((plot.right() + 4) * ratio), round((plot.bottom() + 4) * ratio),
                   QImage.Format.Format_ARGB32_Premultiplied)
    image.setDevicePixelRatio(ratio)
    image.fill(Qt.GlobalColor.transparent)
    p = QPainter(image)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
    p.setPen(Qt.PenStyle.NoPen)
    bar_w, pale = max(1.0, width - 1), QColor(bar)
    pale.setAlpha(60)
    for values, colours in ((drafted, [pale] * len(drafted)),
                            (means, [full if a else bar for a in all_accepted])):
        for c, (value, colour) in enumerate(zip(values, colours, strict=True)):
            p.fillRect(QRectF(plot.left() + c * width, plot.bottom() - value * scale, bar_w,
                              value * scale), colour)
    p.end()
    return image


def _bars(means, all_accepted, drafted, plot, width, scale, ratio, bar, full):
    image = QImage(round((plot.right() + 4) * ratio), round((plot.bottom() + 4) * ratio),
                   QImage.Format.Format_ARGB32_Premultiplied)
    image.setDevicePixelRatio(ratio)
    image.fill(Qt.GlobalColor.transparent)
    bars, at = bar_image(np.array(means, dtype=float), np.array(all_accepted),
                         np.array(drafted, dtype=float), plot=plot, width=width, scale=scale,
                         ratio=ratio, bar=bar, full=full)
    p = QPainter(image)
    p.drawImage(at, bars)
    p.end()
    return image


@pytest.mark.parametrize("ratio", [1.0, 2.0])
@pytest.mark.parametrize("columns", [3, 40, 150])
def test_the_bars_image_holds_the_pixels_of_the_bars_rectangles(ratio, columns):
    """One image made in numpy instead of a rectangle a column: the same pixels, wide bars and
    bars a pixel wide, a pale drafted bar behind each, green where every draft stood."""
    rng = random.Random(columns)
    drafted = [rng.choice((0, 2, 4, 4)) for _ in range(columns)]
    means = [rng.uniform(0, d) if rng.random() < 0.6 else d for d in drafted]
    all_accepted = [m == d and d > 0 for m, d in zip(means, drafted, strict=True)]
    plot = QRectF(30, 4, 300, 34)
    width = min(6.0, plot.width() / columns)
    bar, full = QColor("#5b8def"), QColor("#2e9e5b")
    args = (means, all_accepted, drafted, plot, width, 34 / 4, ratio, bar, full)
    expected = _rects_drawn(*args)
    assert _bars(*args) == expected
    assert expected.pixelColor(0, 0).alpha() == 0  # and the reference is no blank image
    painted = {expected.pixel(x, y) for x in range(expected.width())
               for y in range(expected.height())}
    assert {bar.rgba(), full.rgba()} <= painted
