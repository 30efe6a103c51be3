"""resources/: the icon module finds every size, the PNGs are the SVG rendered, and the wheel
and the window carry them."""

from __future__ import annotations

import fnmatch
import sys
import tomllib
from pathlib import Path

import pytest
from PySide6.QtCore import QSize
from PySide6.QtGui import QImage

from app import resources
from app.shell.qt_app import app_icon

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))


def test_the_icon_module_finds_every_size():
    files = resources.icon_files()
    assert sorted(files) == sorted(resources.ICON_SIZES)
    assert min(files) == 16 and max(files) == 512
    for size, path in files.items():
        image = QImage(str(path))
        assert not image.isNull(), path
        assert (image.width(), image.height()) == (size, size), path
        assert image.hasAlphaChannel()
    assert resources.icon_svg().read_text().startswith("<svg")
    assert "[Desktop Entry]" in resources.desktop_template()


def test_a_missing_resource_or_size_is_named():
    with pytest.raises(FileNotFoundError, match=r"nope\.png"):
        resources.resource_path("nope.png")
    with pytest.raises(ValueError, match="17 px"):
        resources.icon_png(17)


def test_the_pngs_are_the_svg_rendered(qapp):
    """Change the SVG without running scripts/make_icons.py and this fails."""
    import make_icons

    for size in (16, 64, 512):
        fresh = make_icons.render(resources.icon_svg(), size)
        stored = QImage(str(resources.icon_png(size))).convertToFormat(fresh.format())
        diff = max(abs(fresh.pixelColor(x, y).red() - stored.pixelColor(x, y).red())
                   + abs(fresh.pixelColor(x, y).alpha() - stored.pixelColor(x, y).alpha())
                   for x in range(0, size, max(1, size // 32))
                   for y in range(0, size, max(1, size // 32)))
        assert diff <= 8, f"{size} px differs from the SVG by {diff}"


def test_the_window_icon_has_every_size(qapp):
    sizes = {(s.width(), s.height()) for s in app_icon().availableSizes()}
    assert {(s, s) for s in resources.ICON_SIZES} <= sizes
    assert not app_icon().pixmap(QSize(48, 48)).isNull()


def test_the_wheel_carries_every_resource():
    """Every file in resources/ matches the package data declared for it, and setup.py maps
    the folder to the package app/resources.py reads."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"][resources.PACKAGE]
    for path in (ROOT / "resources").rglob("*"):
        if path.is_dir() or path.name == "__init__.py" or "__pycache__" in path.parts:
            continue
        name = path.relative_to(ROOT / "resources").as_posix()  # translations/… in a folder
        assert any(fnmatch.fnmatch(name, p) for p in patterns), name
    setup = (ROOT / "setup.py").read_text()
    assert f'"{resources.PACKAGE}": "resources"' in setup
    assert "app*" in setup and "backend*" in setup


def test_app_code_reads_resources_only_through_the_module():
    for path in (ROOT / "app").rglob("*.py"):
        if path.name == "resources.py":
            continue
        text = path.read_text()
        assert "draftlight.svg" not in text and "importlib.resources" not in text, path
