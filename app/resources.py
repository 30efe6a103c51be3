"""The one way into `resources/` (the package `draftlight_resources` once installed): the
application icon in SVG and PNG, the desktop entry's template and the translations.

Read through `importlib.resources`, so the same call finds them in a checkout's editable
install, in a wheel and in a PyInstaller bundle. No Qt here: `draftlight --install-desktop`
uses it without a display.
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

PACKAGE = "draftlight_resources"
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)  # the hicolor sizes a desktop asks for
ICON_SVG = "draftlight.svg"
DESKTOP_TEMPLATE = "draftlight.desktop"
TRANSLATIONS = "translations"  # draftlight_<lang>.ts (sources) and .qm (compiled, committed)


def png_name(size: int) -> str:
    return f"draftlight-{size}.png"


def resource(name: str) -> Traversable:
    """A file in resources/; FileNotFoundError, naming it, when it is not there."""
    item = files(PACKAGE).joinpath(*name.split("/"))
    if not item.is_file():
        raise FileNotFoundError(f"resource {name!r} is missing from {PACKAGE}")
    return item


def resource_path(name: str) -> Path:
    """A resource as a file on disk (Qt and the desktop install want paths). Wheels are
    installed unzipped and a bundle keeps its data as files, so this is always a real path."""
    item = resource(name)
    path = Path(str(item))
    if not path.is_file():
        raise FileNotFoundError(f"resource {name!r} is not a file on disk ({item})")
    return path


def icon_svg() -> Path:
    return resource_path(ICON_SVG)


def icon_png(size: int) -> Path:
    if size not in ICON_SIZES:
        raise ValueError(f"no {size} px icon; sizes: {', '.join(map(str, ICON_SIZES))}")
    return resource_path(png_name(size))


def icon_files() -> dict[int, Path]:
    """Every PNG size with its file, for a QIcon and for the hicolor theme."""
    return {size: icon_png(size) for size in ICON_SIZES}


def desktop_template() -> str:
    return resource(DESKTOP_TEMPLATE).read_text(encoding="utf-8")


def translation_path(language: str) -> Path:
    """The compiled translation (.qm) of `language` ("it", "fr")."""
    return resource_path(f"{TRANSLATIONS}/draftlight_{language}.qm")
