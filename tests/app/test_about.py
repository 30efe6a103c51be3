"""Help → About: the version, llama.cpp's version and build features (asked of a child
process: this one never loads llama.cpp), the bundled model's licence and the libraries'."""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
from pathlib import Path

from scripted_engine import ScriptedEngine

from app.shell.about import BUNDLED_MODEL, LIBRARIES, about_text, build_words
from backend import __version__
from backend.build_info import LlamaBuild

ROOT = Path(__file__).resolve().parents[2]


def test_about_shows_version_engine_build_and_licences(make_window, qtbot):
    w = make_window(ScriptedEngine())
    assert w.help_menu.about_action in w.help_menu.menu.actions()
    dialog = w.help_menu.show_about()
    assert dialog.isVisible()
    qtbot.waitUntil(lambda: dialog.build_info is not None, timeout=60_000)
    text = dialog.text.toPlainText()
    build = dialog.build_info
    assert f"Draftlight {__version__}" in text
    assert f"llama-cpp-python {importlib.metadata.version('llama-cpp-python')}" in text
    assert build.llama_version and build.llama_version in text
    assert "CPU" in build.system_info and build.features()
    assert ", ".join(build.features()) in text
    assert "SmolLM2" in text and "Apache-2.0" in text
    for lib in LIBRARIES:
        assert f"{lib.distribution} " in text and lib.licence in text
    dialog.close()


def test_every_runtime_dependency_has_its_licence_listed():
    listed = {lib.distribution.lower() for lib in LIBRARIES}
    for requirement in importlib.metadata.requires("draftlight") or []:
        if "extra ==" in requirement:
            continue
        name = re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0].lower()
        assert name in listed, f"{name} is a dependency but About does not list its licence"
    assert "Apache-2.0" in BUNDLED_MODEL


def test_the_build_probe_never_loads_llama_cpp_here():
    code = ("import sys\nfrom backend.build_info import probe\nb = probe()\n"
            "assert 'llama_cpp' not in sys.modules, 'llama_cpp loaded in the caller'\n"
            "print(b.llama_version, b.features())")
    env = dict(os.environ)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120, cwd=ROOT, env=env)
    assert r.returncode == 0, r.stderr
    assert "AVX" in r.stdout or "NEON" in r.stdout or "CPU" in r.stdout


def test_build_words_and_features():
    build = LlamaBuild("0.3.36", "b1234", "CPU : SSE3 = 1 | AVX = 1 | AVX512 = 0 | OPENMP = 1 | ",
                       gpu_offload=False)
    assert build.features() == ["SSE3", "AVX", "OPENMP"]
    words = build_words(build)
    assert "llama.cpp b1234" in words and "CPU only" in words and "AVX512" not in words
    assert "asking" in about_text("asking llama.cpp…")
