"""packaging/: the PyInstaller spec and the scripts that build and prove the bundle. Building
takes minutes, so it is not run here (packaging/README.md says how); these checks are cheap
and catch a spec or script broken by a move or a rename."""

from __future__ import annotations

import ast
import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGING = ROOT / "packaging"


def test_the_spec_is_python_and_names_files_that_exist():
    source = (PACKAGING / "draftlight.spec").read_text()
    ast.parse(source)
    for needed in ('"packaging" / "draftlight_main.py"', 'ROOT / "resources"',
                   '"draftlight_resources"', 'collect_submodules("backend")',
                   'collect_dynamic_libs("llama_cpp")', 'name="draftlight"'):
        assert needed in source, needed
    assert (PACKAGING / "draftlight_main.py").is_file()
    assert (ROOT / "resources" / "draftlight-256.png").is_file()


def test_the_entry_script_freezes_support_before_importing_the_app():
    tree = ast.parse((PACKAGING / "draftlight_main.py").read_text())
    main_block = next(n for n in tree.body if isinstance(n, ast.If))
    first = main_block.body[0]
    assert isinstance(first, ast.Expr) and ast.unparse(first) == (
        "multiprocessing.freeze_support()")
    top_imports = [ast.unparse(n) for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    assert not any("app" in i for i in top_imports), top_imports


def test_the_bundle_scripts_are_valid_shell_and_executable():
    for name in ("build_bundle.sh", "check_bundle.sh"):
        script = PACKAGING / name
        assert os.access(script, os.X_OK), name
        r = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    check = (PACKAGING / "check_bundle.sh").read_text()
    assert "dist/draftlight/draftlight" in check and "--screenshot" in check
    assert "--prompt hi" in check and "offscreen" in check


def test_the_readme_says_how_to_build_and_check_the_bundle():
    readme = (ROOT / "README.md").read_text()
    assert "bash packaging/build_bundle.sh" in readme
    assert "bash packaging/check_bundle.sh" in readme
