"""Render resources/draftlight.svg to the PNG sizes a desktop asks for (16–512 px).

Run after changing the SVG: `.venv/bin/python scripts/make_icons.py`. The PNGs are committed,
so installing the desktop entry and building a bundle need no Qt rendering step (and
tests/app/test_resources.py fails when a PNG no longer matches the SVG).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QImage, QPainter  # noqa: E402
from PySide6.QtSvg import QSvgRenderer  # noqa: E402

from app.resources import ICON_SIZES, png_name  # noqa: E402


def render(svg: Path, size: int) -> QImage:
    """The SVG drawn at size×size, antialiased, on a transparent background."""
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"{svg} is not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    return image.convertToFormat(QImage.Format.Format_ARGB32)


def main(folder: Path = ROOT / "resources") -> int:
    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    svg = folder / "draftlight.svg"
    for size in ICON_SIZES:
        out = folder / png_name(size)
        if not render(svg, size).save(str(out), "PNG"):
            raise SystemExit(f"could not write {out}")
        print(f"wrote {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
