"""Broken GGUF files are refused with a sentence that says what is wrong, never a crash."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import gguf
import pytest
from gguf_corpus import CORPUS, build, write_corpus

from backend.models.inspection import ModelFileError, inspect_model, validate_gguf

ROOT = Path(__file__).resolve().parents[1]


def test_the_corpus_base_file_is_valid_and_gguf_agrees(tmp_path):
    path = tmp_path / "tiny.gguf"
    path.write_bytes(build())
    info = inspect_model(path)
    assert (info.architecture, info.quantization, info.context_length) == ("llama", "F32", 64)
    assert info.vocab.n_tokens == 8 and info.vocab.tokens[2] == "a"
    reader = gguf.GGUFReader(path)  # the reference parser reads the same file the same way
    assert [t.name for t in reader.tensors] == ["token_embd.weight", "output_norm.weight"]


def test_the_corpus_has_at_least_twenty_cases():
    assert len(CORPUS) >= 20


@pytest.mark.parametrize("case", list(CORPUS))
def test_each_broken_file_gets_a_clear_error(case, tmp_path):
    make, phrase = CORPUS[case]
    path = tmp_path / "broken.gguf"
    path.write_bytes(make())
    with pytest.raises(ModelFileError) as caught:
        validate_gguf(path)
    message = str(caught.value)
    assert phrase.lower() in message.lower(), message
    assert "\n" not in message and message.startswith("broken.gguf")


def test_the_corpus_never_crashes_a_process(tmp_path):
    """Inspect every case in a subprocess with a memory cap: an absurd count that made the
    reader allocate, or a crash in native code, would show up as a dead process."""
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}

    def cap_memory() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (4 * 2**30, 4 * 2**30))

    result = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "gguf_corpus.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        preexec_fn=cap_memory if sys.platform != "win32" else None,
    )
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["case"] for line in lines] == list(CORPUS)
    for line in lines:
        assert line["error"] and CORPUS[line["case"]][1].lower() in line["error"].lower()


def test_write_corpus_names_every_case(tmp_path):
    assert set(write_corpus(tmp_path)) == set(CORPUS)
