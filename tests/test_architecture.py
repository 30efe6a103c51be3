"""The import contracts really guard the layers: a Qt import in backend/, or a llama.cpp import
reachable from app/, fails lint-imports."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _lint(tree: Path) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).with_name("lint-imports")
    return subprocess.run([str(exe)], cwd=tree, capture_output=True, text=True,
                          env={"PATH": str(exe.parent), "PYTHONPATH": str(tree)})


def _copy_tree(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    for name in ("backend", "app"):
        shutil.copytree(ROOT / name, tree / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    return tree


def test_contract_holds_on_the_real_tree(tmp_path):
    result = _lint(_copy_tree(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr


def test_contract_fails_when_backend_imports_pyside(tmp_path):
    tree = _copy_tree(tmp_path)
    victim = tree / "backend" / "engine" / "sampling.py"
    victim.write_text("import PySide6  # noqa\n" + victim.read_text())
    result = _lint(tree)
    assert result.returncode != 0
    assert "PySide6" in result.stdout


def test_contract_fails_when_backend_imports_app(tmp_path):
    tree = _copy_tree(tmp_path)
    victim = tree / "backend" / "models" / "vocab.py"
    victim.write_text("import app  # noqa\n" + victim.read_text())
    assert _lint(tree).returncode != 0


def test_contract_fails_when_the_app_reaches_llama_cpp_through_the_backend(tmp_path):
    tree = _copy_tree(tmp_path)
    victim = tree / "app" / "chat" / "conversation.py"  # the window's module, the engine's import
    victim.write_text("import backend.engine.engine  # noqa\n" + victim.read_text())
    result = _lint(tree)
    assert result.returncode != 0
    assert "llama_cpp" in result.stdout
