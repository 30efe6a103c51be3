"""`draftlight --install-desktop` / `--uninstall-desktop`: the freedesktop menu entry and the
hicolor icons of the current user (Linux and other XDG desktops), under $XDG_DATA_HOME.

No Qt here: it runs before Qt is imported, without a display. The entry starts the very
launcher that installed it (a virtual environment's `draftlight`, or a bundle's executable),
so `scripts/run.sh` and a bundle use the same code.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from app.resources import ICON_SIZES, desktop_template, icon_png, icon_svg
from backend import APP_NAME

# Characters that make an Exec argument need quoting (Desktop Entry Specification, "The Exec
# key"), and those that must then be escaped with a backslash inside the quotes.
_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")
_ESCAPED_IN_QUOTES = set('"`$\\')


@dataclass(frozen=True)
class DesktopFiles:
    """Where the entry and the icons go under one XDG data folder."""

    data_home: Path

    @property
    def entry(self) -> Path:
        return self.data_home / "applications" / f"{APP_NAME}.desktop"

    @property
    def hicolor(self) -> Path:
        return self.data_home / "icons" / "hicolor"

    def png(self, size: int) -> Path:
        return self.hicolor / f"{size}x{size}" / "apps" / f"{APP_NAME}.png"

    @property
    def svg(self) -> Path:
        return self.hicolor / "scalable" / "apps" / f"{APP_NAME}.svg"

    def all(self) -> list[Path]:
        return [self.entry, *(self.png(s) for s in ICON_SIZES), self.svg]


def data_home() -> Path:
    value = os.environ.get("XDG_DATA_HOME", "")
    # The specification: a relative path is invalid and must be ignored.
    return Path(value) if value and os.path.isabs(value) else Path.home() / ".local" / "share"


def launcher_command() -> list[str]:
    """The command that starts this installation's window."""
    if getattr(sys, "frozen", False):  # a PyInstaller bundle: its executable
        return [str(Path(sys.executable).resolve())]
    scripts = Path(sys.executable).parent  # a venv's bin/ (or Scripts\\), where pip put it
    for name in (APP_NAME, f"{APP_NAME}.exe"):
        candidate = scripts / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return [str(candidate.absolute())]
    return [str(Path(sys.executable).absolute()), "-m", "app.shell.main"]


def exec_value(command: list[str]) -> str:
    """`command` as an Exec value: arguments quoted where the specification says so, then
    escaped as a desktop-entry string (a backslash written twice)."""
    parts = []
    for arg in command:
        if arg and not (set(arg) & _RESERVED):
            parts.append(arg)
            continue
        inner = "".join(f"\\{c}" if c in _ESCAPED_IN_QUOTES else c for c in arg)
        parts.append(f'"{inner}"')
    return " ".join(parts).replace("\\", "\\\\")


def entry_text(command: list[str]) -> str:
    """The template in resources/ with Exec pointing at `command`."""
    lines = []
    for line in desktop_template().splitlines():
        if line.startswith("Exec="):
            line = "Exec=" + exec_value(command)
        lines.append(line)
    return "\n".join(lines) + "\n"


def install(home: Path | None = None, command: list[str] | None = None) -> list[Path]:
    """Write the entry and every icon; the files written."""
    files = DesktopFiles(home or data_home())
    written = []
    for size in ICON_SIZES:
        written.append(_copy(icon_png(size), files.png(size)))
    written.append(_copy(icon_svg(), files.svg))
    files.entry.parent.mkdir(parents=True, exist_ok=True)
    tmp = files.entry.with_suffix(".desktop.tmp")
    tmp.write_text(entry_text(command or launcher_command()), encoding="utf-8")
    tmp.replace(files.entry)  # never a half-written entry in the menu
    written.append(files.entry)
    _refresh(files)
    return written


def uninstall(home: Path | None = None) -> list[Path]:
    """Remove the entry and the icons `install` writes; the files removed."""
    files = DesktopFiles(home or data_home())
    removed = []
    for path in files.all():
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
            removed.append(path)
    _refresh(files)
    return removed


def _copy(source: Path, target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    return target


def _refresh(files: DesktopFiles) -> None:
    """Tell menus and icon caches that something changed, where the tools exist; a desktop
    without them rereads the folders anyway."""
    if files.hicolor.is_dir():
        with contextlib.suppress(OSError):
            os.utime(files.hicolor)  # icon caches compare the theme folder's time
    tool = shutil.which("update-desktop-database")
    if tool and files.entry.parent.is_dir():
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            subprocess.run([tool, "-q", str(files.entry.parent)], timeout=30, check=False,
                           capture_output=True)


def main(action: str) -> int:
    """The command line's `--install-desktop` / `--uninstall-desktop`."""
    try:
        if action == "install":
            written = install()
            entry = written[-1]
            print(f"Installed {entry} (starts: {exec_value(launcher_command())}) and "
                  f"{len(written) - 1} icons under {DesktopFiles(data_home()).hicolor}")
        else:
            removed = uninstall()
            print(f"Removed {len(removed)} files" if removed else "Nothing to remove")
            for path in removed:
                print(f"  {path}")
    except OSError as exc:
        print(f"draftlight: could not {action} the desktop entry: {exc}", file=sys.stderr)
        return 1
    return 0
