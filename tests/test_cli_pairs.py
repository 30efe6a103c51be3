"""`draftlight pairs TARGET` end to end: offline, with an unreachable hub, and with a fake hub."""

from __future__ import annotations

import json
import shutil

import pytest
from fakehub import gguf_repo, serving
from huggingface_hub import constants

from backend.cli.main import main
from backend.models.draft_finder import lookup_types


@pytest.fixture
def library(test_models, tmp_path):
    folder = tmp_path / "lib"
    folder.mkdir()
    for name in ("count-draft.gguf", "eagle3-count.gguf", "eagle3-bad-layers.gguf"):
        shutil.copyfile(test_models / name, folder / name)
    return folder


def test_json_offline_lists_the_local_candidates(test_models, library, capsys):
    target = test_models / "count-target3.gguf"
    assert main(["pairs", str(target), "--no-hub", "--json", "--models-dir", str(library)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["target"]["name"] == "count-target3" and out["hub_error"] is None
    rows = [(c["spec_type"], c["name"], c["accepted"]) for c in out["candidates"]]
    assert rows == [("eagle3", "eagle3-count.gguf", True), ("draft", "count-draft.gguf", True),
                    *((name, "", True) for name in lookup_types()),
                    ("mtp", "count-target3.gguf", False),
                    ("eagle3", "eagle3-bad-layers.gguf", False)]
    refused = out["candidates"][-1]
    assert "reads layer 4" in refused["reason"] and refused["reason_words"]["template"]
    assert all(c["bytes_read"] is None for c in out["candidates"])


def test_the_table_says_each_verdict_and_reason(test_models, library, capsys):
    target = test_models / "count-target3.gguf"
    assert main(["pairs", str(target), "--no-hub", "--models-dir", str(library)]) == 0
    out = capsys.readouterr().out
    assert "count-target3" in out.splitlines()[0]
    line = next(x for x in out.splitlines() if "eagle3-bad-layers.gguf" in x)
    assert "refused" in line and "reads layer 4" in line


def test_an_unreachable_hub_is_one_sentence_after_the_local_table(monkeypatch, test_models,
                                                                  library, capsys):
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:1")
    target = test_models / "count-target3.gguf"
    assert main(["pairs", str(target), "--models-dir", str(library)]) == 1
    captured = capsys.readouterr()
    assert "count-draft.gguf" in captured.out  # the local candidates, still ranked
    assert captured.err.count("\n") == 1 and "cannot be reached" in captured.err


def test_offline_mode_is_said_too(test_models, library, capsys):
    target = test_models / "count-target3.gguf"  # conftest sets HF_HUB_OFFLINE=1
    assert main(["pairs", str(target), "--json", "--models-dir", str(library)]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["hub_error"] and "offline" in captured.err.lower()


def test_a_hub_target_is_read_without_downloading_it(monkeypatch, test_models, library, capsys):
    repo = gguf_repo("acme/Count3-GGUF", {"count3-Q8_0.gguf": test_models / "count-target3.gguf",
                                          "eagle3-count.gguf": test_models / "eagle3-count.gguf"})
    with serving(monkeypatch, [repo]):
        code = main(["pairs", "acme/Count3-GGUF:Q8_0", "--json", "--models-dir", str(library)])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["target"]["path"] == "acme/Count3-GGUF/count3-Q8_0.gguf"
    assert 0 < out["target"]["bytes_read"] < 14_519_264 // 3
    hub = [c for c in out["candidates"] if c["source"] == "hub"]
    assert [(c["name"], c["accepted"]) for c in hub] == [
        ("acme/Count3-GGUF/eagle3-count.gguf", True)]
    assert 0 < hub[0]["bytes_read"] <= 1_823_648  # the head's file is smaller than one read


def test_a_hub_target_without_the_hub_is_refused_in_one_line(capsys, library):
    assert main(["pairs", "acme/Count3-GGUF", "--no-hub", "--models-dir", str(library)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--hub" in err


def test_a_missing_file_is_one_line(tmp_path, library, capsys):
    missing = tmp_path / "nothing.gguf"
    assert main(["pairs", str(missing), "--no-hub", "--models-dir", str(library)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not exist" in err
