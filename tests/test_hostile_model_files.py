"""A "model" that is a pipe or a device is refused in one sentence, at once: reading a FIFO
would wait for a writer forever and /dev/zero never runs out. Met through `draftlight models
inspect` and the engine's own check before llama.cpp sees the file (what the window's load and
`generate` go through)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from backend.engine.errors import EngineError
from backend.engine.model import inspect_file

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")


@pytest.fixture
def odd_files(tmp_path) -> list[Path]:
    fifo = tmp_path / "pipe.gguf"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.gguf"
    zero.symlink_to("/dev/zero")
    return [fifo, zero, Path("/dev/zero")]


def test_models_inspect_refuses_a_pipe_or_a_device_at_once(odd_files):
    for path in odd_files:
        done = subprocess.run([sys.executable, "-m", "backend.cli.main", "models", "inspect",
                               str(path)], capture_output=True, text=True, timeout=60)
        assert done.returncode != 0
        said = done.stderr.strip().splitlines()
        assert said == [f"draftlight: {path} is not a model file but a device, a pipe or a "
                        "socket."], said


def test_the_engine_refuses_a_pipe_or_a_device_before_llama_cpp(odd_files):
    for path in odd_files:
        with pytest.raises(EngineError) as refused:
            inspect_file(path)
        assert "not a model file but a device, a pipe or a socket" in str(refused.value)
