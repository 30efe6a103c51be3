"""`draftlight --install-desktop` / `--uninstall-desktop`: the menu entry and icons of the
current user under $XDG_DATA_HOME, accepted by desktop-file-validate, and removed again."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from app.resources import ICON_SIZES
from app.shell import desktop_install

ROOT = Path(__file__).resolve().parents[2]


def run_main(*args: str, data_home: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["XDG_DATA_HOME"] = str(data_home)
    code = ("import sys; from app.shell.main import main; rc = main(sys.argv[1:]); "
            "assert 'PySide6' not in sys.modules, 'Qt imported'; sys.exit(rc)")
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=60, cwd=ROOT, env=env)


def validate(entry: Path) -> None:
    tool = shutil.which("desktop-file-validate")
    assert tool, "desktop-file-validate is missing: scripts/setup.sh installs desktop-file-utils"
    r = subprocess.run([tool, str(entry)], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0 and not r.stdout.strip() and not r.stderr.strip(), (
        r.stdout + r.stderr)


def test_install_writes_a_valid_entry_and_every_icon_without_qt(tmp_path):
    home = tmp_path / "data"
    r = run_main("--install-desktop", data_home=home)
    assert r.returncode == 0, r.stderr
    entry = home / "applications" / "draftlight.desktop"
    assert str(entry) in r.stdout
    validate(entry)
    text = entry.read_text()
    assert "Icon=draftlight\n" in text and "Type=Application\n" in text
    exec_line = next(line for line in text.splitlines() if line.startswith("Exec="))
    command = shlex.split(exec_line.removeprefix("Exec="))
    assert Path(command[0]).is_file()  # this environment's launcher
    for size in ICON_SIZES:
        assert (home / f"icons/hicolor/{size}x{size}/apps/draftlight.png").is_file()
    assert (home / "icons/hicolor/scalable/apps/draftlight.svg").is_file()

    r = run_main("--uninstall-desktop", data_home=home)
    assert r.returncode == 0, r.stderr
    assert not entry.exists()
    left = [p for p in home.rglob("*") if p.is_file() and "draftlight" in p.name]
    assert left == []


def test_the_installed_command_starts_the_app(tmp_path):
    desktop_install.install(tmp_path)
    text = (tmp_path / "applications" / "draftlight.desktop").read_text()
    exec_line = next(line for line in text.splitlines() if line.startswith("Exec="))
    command = shlex.split(exec_line.removeprefix("Exec="))
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    r = subprocess.run([*command, "--version"], capture_output=True, text=True, timeout=60,
                       env=env)
    assert r.returncode == 0 and r.stdout.startswith("draftlight "), r.stderr


def test_a_path_with_spaces_and_quotes_is_quoted_as_the_spec_says(tmp_path):
    odd = ['/opt/My Apps/draft"light$', "--x"]
    value = desktop_install.exec_value(odd)
    assert value == '"/opt/My Apps/draft\\\\"light\\\\$" --x'
    desktop_install.install(tmp_path, command=odd)
    validate(tmp_path / "applications" / "draftlight.desktop")


def test_install_twice_then_uninstall_twice(tmp_path):
    first = desktop_install.install(tmp_path)
    assert desktop_install.install(tmp_path) == first
    assert sorted(desktop_install.uninstall(tmp_path)) == sorted(first)
    assert desktop_install.uninstall(tmp_path) == []


def test_run_sh_uses_the_same_code():
    run_sh = (ROOT / "scripts" / "run.sh").read_text()
    assert "draftlight --install-desktop" in run_sh
    assert not (ROOT / "packaging" / "install-desktop.sh").exists()
