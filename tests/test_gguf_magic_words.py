"""A file that is not GGUF is refused in words that say what it is instead, never with its
bytes (`b'\\xe7\\x13…'` means nothing to a person): random bytes, text, an empty file, a Git LFS
pointer, a safetensors model, a key that is not UTF-8."""

from __future__ import annotations

import random
import struct

import pytest

from backend.models.inspection import ModelFileError, inspect_model

LFS_POINTER = (b"version https://git-lfs.github.com/spec/v1\n"
               b"oid sha256:4d7a2146b2d2a6b0f3a0e5c4a1f0b6c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7\n"
               b"size 270898368\n")


def refusal(path) -> str:
    with pytest.raises(ModelFileError) as refused:
        inspect_model(path)
    message = str(refused.value)
    assert "b'" not in message and 'b"' not in message and "\\x" not in message, message
    return message


def test_random_bytes_are_said_not_to_be_gguf_in_words(tmp_path):
    path = tmp_path / "random.gguf"
    path.write_bytes(random.Random(44).randbytes(100_000))
    assert refusal(path) == ("random.gguf: This is not a GGUF file (it does not begin with "
                             "the letters GGUF).")


@pytest.mark.parametrize("text", ["Entry not found", "<!DOCTYPE html><html><body>404</body>",
                                  "Ünïcödé text, cut in the middle of a character: é" * 20,
                                  "hi"])
def test_a_text_file_is_said_to_be_text(tmp_path, text):
    path = tmp_path / "model.gguf"
    path.write_bytes(text.encode("utf-8")[:511])  # a character cut at the end still reads
    message = refusal(path)
    assert message.startswith("model.gguf: This is not a GGUF file but text;"), message


def test_an_empty_file_is_said_to_be_empty(tmp_path):
    path = tmp_path / "empty.gguf"
    path.write_bytes(b"")
    assert refusal(path) == "empty.gguf: The file is empty (0 bytes)."


def test_a_git_lfs_pointer_says_the_model_was_not_downloaded(tmp_path):
    path = tmp_path / "pointer.gguf"
    path.write_bytes(LFS_POINTER)
    assert "Git LFS pointer" in refusal(path)


def test_a_safetensors_file_says_what_it_is(tmp_path):
    header = b'{"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}'
    path = tmp_path / "model.safetensors"
    path.write_bytes(struct.pack("<Q", len(header)) + header + b"\0" * 8)
    assert "safetensors model" in refusal(path)


def test_a_key_that_is_not_utf8_is_said_without_its_bytes(tmp_path):
    from gguf_corpus import CORPUS

    path = tmp_path / "bad-key.gguf"
    path.write_bytes(CORPUS["key not UTF-8"][0]())
    assert "is not UTF-8 text" in refusal(path)
