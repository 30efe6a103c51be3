"""The type checker really guards backend/: mypy passes on the tree as it is, and a type error
planted in a copy of it makes mypy fail (the same configuration, from pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _mypy(tree: Path, cache: Path) -> subprocess.CompletedProcess:
    # no arguments: what to check comes from [tool.mypy] in the tree's pyproject.toml, as in
    # scripts/test.sh
    return subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(cache)], cwd=tree,
                          capture_output=True, text=True)


def _copy_tree(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "backend", tree / "backend",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    return tree


def test_mypy_passes_on_the_real_tree():
    result = _mypy(ROOT, ROOT / ".mypy_cache")
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_planted_type_error_fails_mypy(tmp_path):
    tree = _copy_tree(tmp_path)
    victim = tree / "backend" / "settings_schema.py"
    victim.write_text(victim.read_text() + '\n\ndef _planted() -> int:\n    return "text"\n')
    result = _mypy(tree, tmp_path / "cache")
    assert result.returncode != 0
    assert "settings_schema.py" in result.stdout and "return-value" in result.stdout
