"""`draftlight models …` end to end, against the fake hub and the test models."""

from __future__ import annotations

import json

import pytest
from fakehub import gguf_repo, serving

from backend.cli.main import main


@pytest.fixture
def repo(test_models):
    return gguf_repo(
        "acme/Count-GGUF", {"count-Q8_0.gguf": (test_models / "count-draft.gguf").read_bytes()}
    )


def test_search_files_download_list_and_inspect(monkeypatch, repo, tmp_path, capsys):
    lib = str(tmp_path / "lib")
    with serving(monkeypatch, [repo]):
        assert main(["models", "search", "count", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)[0]["repo_id"] == "acme/Count-GGUF"
        assert main(["models", "files", "acme/Count-GGUF"]) == 0
        out = capsys.readouterr().out
        assert "Q8_0" in out and "count-Q8_0.gguf" in out and "needs about" in out
        assert main(["models", "download", "acme/Count-GGUF", "Q8_0", "--models-dir", lib]) == 0
        assert "Downloaded and verified" in capsys.readouterr().out
    assert main(["models", "list", "--models-dir", lib, "--json"]) == 0
    (listed,) = json.loads(capsys.readouterr().out)
    assert listed["error"] is None and listed["quantization"] == "F32"
    assert main(["models", "inspect", listed["path"]]) == 0
    assert "architecture    llama" in capsys.readouterr().out


def test_failures_are_one_line_and_non_zero(monkeypatch, repo, tmp_path, capsys):
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF\x01\x00\x00\x00" + b"\0" * 40)
    assert main(["models", "inspect", str(broken)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "version 1" in err
    with serving(monkeypatch, [repo]):
        assert main(["models", "download", "acme/Count-GGUF", "Q2_K"]) == 1
        err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no GGUF model 'Q2_K'" in err


def test_offline_mode_is_a_clear_error(capsys):
    assert main(["models", "search", "anything"]) == 1  # conftest sets HF_HUB_OFFLINE=1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "offline" in err.lower()
