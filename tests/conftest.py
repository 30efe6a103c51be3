"""Shared test set-up: keep every test off the user's real directories, fail tests that leak
threads, and build the test models once per session."""

from __future__ import annotations

import atexit
import hashlib
import os
import re
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# platformdirs reads these on every call, so pointing them at a scratch folder before any test
# runs keeps settings, chats, the model library and caches away from the user's own.
_SANDBOX = Path(tempfile.mkdtemp(prefix="draftlight-tests-"))
atexit.register(shutil.rmtree, _SANDBOX, ignore_errors=True)
for _var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
    os.environ[_var] = str(_SANDBOX / _var.lower())
os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a test that wants the fake hub says so itself
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The window follows the system's language (app/i18n.py): tests read its English source text
# whatever the machine's locale (a test that wants Italian or French installs it itself).
os.environ["LANG"] = "C.UTF-8"
for _var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_var, None)
# The suite checks what the exact kernels promise on the CPU: greedy output token for token.
# A CUDA build would put every layer on the GPU (GPU layers: auto), whose batch kernels may
# part from plain decoding at near-ties, so the GPU is hidden from llama.cpp here and in the
# engine processes the tests start; bench/gpu_check.sh runs the GPU's own checks with
# DRAFTLIGHT_TEST_GPU=1.
if os.environ.get("DRAFTLIGHT_TEST_GPU") != "1":
    os.environ["CUDA_VISIBLE_DEVICES"] = ""

sys.path.insert(0, str(ROOT / "tests" / "models"))


def _os_thread_running(native_id: int | None) -> bool:
    """Whether the OS thread behind a `threading._DummyThread` still exists. Qt's threads show
    up as dummy threads once they run Python code and are never removed from Python's list, so
    the OS is asked instead (Linux: /proc; elsewhere such a thread is assumed to have ended)."""
    task_dir = Path("/proc/self/task")
    return native_id is not None and task_dir.is_dir() and (task_dir / str(native_id)).exists()


@pytest.fixture(autouse=True)
def _no_leaked_threads():
    """Fail a test that leaves a thread running (a worker that was never stopped)."""
    before = set(threading.enumerate())
    yield
    leaked = []
    for t in set(threading.enumerate()) - before:
        if isinstance(t, threading._DummyThread):
            # A QThread (or a QThreadPool thread) cannot be joined from Python: wait a grace
            # period for its OS thread to end.
            deadline = time.monotonic() + 5
            while _os_thread_running(t.native_id) and time.monotonic() < deadline:
                time.sleep(0.05)
            if _os_thread_running(t.native_id):
                leaked.append(f"{t.name} (a Qt thread)")
            continue
        t.join(timeout=5)
        if t.is_alive():
            leaked.append(t.name)
    if leaked:
        pytest.fail(f"test left threads running: {', '.join(sorted(leaked))}")


@pytest.fixture(autouse=True)
def _own_k_auto_memory(tmp_path_factory, monkeypatch):
    """Each test's engine processes keep K auto's measurements, and its pair measurements, in
    folders of the test's own (backend/engine/k_auto_memory.py, backend/models/pair_store.py):
    one test's answers must not decide how another's first answer drafts, nor what its draft
    finder shows as measured."""
    monkeypatch.setenv("DRAFTLIGHT_K_AUTO_DIR", str(tmp_path_factory.mktemp("k-auto")))
    monkeypatch.setenv("DRAFTLIGHT_PAIR_MEASURE_DIR", str(tmp_path_factory.mktemp("pairs")))


def _models_cache_dir() -> Path:
    """Test models are rebuilt only when the builder changes: keyed by the hash of every
    source file under tests/models/."""
    h = hashlib.sha256()
    for source in sorted((ROOT / "tests" / "models").glob("*.py")):
        h.update(source.name.encode() + b"\0" + source.read_bytes())
    digest = h.hexdigest()
    base = Path(os.environ.get("DRAFTLIGHT_TEST_MODELS", ROOT / ".cache" / "test-models"))
    return base / digest[:12]


@pytest.fixture(scope="session")
def test_models() -> Path:
    """The folder holding every file `tests/models/build.py` writes."""
    import build as model_builder

    folder = _models_cache_dir()
    if not all((folder / name).is_file() for name in model_builder.ALL_FILES):
        model_builder.build(folder)
        # models of earlier builder versions take ~900 MB each: keep only the current ones
        for old in folder.parent.iterdir():
            if old != folder and old.is_dir() and re.fullmatch(r"[0-9a-f]{12}", old.name):
                shutil.rmtree(old, ignore_errors=True)
    return folder
