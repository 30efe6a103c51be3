"""The chevrons of combo boxes and spin boxes, drawn in a theme's own colours.

A style sheet that gives these inputs rounded borders takes over their arrows too, and Qt
then draws none; its own arrow images are black, invisible on the dark theme. So the arrows
are painted here once per colour into a scratch folder (1x and @2x, which Qt picks by the
screen's scale) and the style sheet points at them.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QPolygonF

SIZE = 10  # px at 1x: the chevron's box
_folder: Path | None = None


def arrow_image(direction: str, colour: str) -> str:
    """The path, with forward slashes for the style sheet, of a `direction` ("up" or
    "down") chevron in `colour`, drawn on first use."""
    path = _scratch() / f"arrow-{direction}-{colour.lstrip('#').lower()}.png"
    if not path.exists():
        for scale, name in ((1, path), (2, path.with_name(f"{path.stem}@2x.png"))):
            _draw(direction, QColor(colour), SIZE * scale).save(str(name))
    return path.as_posix()


def _draw(direction: str, colour: QColor, size: int) -> QImage:
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(QPen(colour, size / 7, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                        Qt.PenJoinStyle.RoundJoin))
    top, bottom = size * 0.32, size * 0.68
    tip, base = (bottom, top) if direction == "down" else (top, bottom)
    painter.drawPolyline(QPolygonF([QPointF(size * 0.18, base), QPointF(size * 0.5, tip),
                                    QPointF(size * 0.82, base)]))
    painter.end()
    return image


def _scratch() -> Path:
    global _folder
    if _folder is None:
        _folder = Path(tempfile.mkdtemp(prefix="draftlight-arrows-"))
        atexit.register(shutil.rmtree, _folder, ignore_errors=True)
    return _folder
