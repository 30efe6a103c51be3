"""`draftlight pairs TARGET --measure`: the candidates measured in an engine process, ranked
with plain decoding, and kept so that a second look measures nothing."""

from __future__ import annotations

import json
import shutil

import pytest
from fakehub import gguf_repo, serving

from backend.cli.main import main
from backend.models.draft_finder import lookup_types
from backend.models.pair_store import DIR_ENV


@pytest.fixture
def library(test_models, tmp_path):
    folder = tmp_path / "lib"
    folder.mkdir()
    shutil.copyfile(test_models / "count-draft.gguf", folder / "count-draft.gguf")
    return folder


@pytest.fixture(autouse=True)
def kept(tmp_path, monkeypatch):
    folder = tmp_path / "kept"
    monkeypatch.setenv(DIR_ENV, str(folder))
    return folder


def test_measure_json_ranks_every_way_and_a_second_look_reads_it_back(test_models, library,
                                                                      kept, capsys):
    argv = ["pairs", str(test_models / "count-target.gguf"), "--no-hub", "--measure",
            "--tokens", "8", "--json", "--models-dir", str(library)]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    lookups = list(lookup_types())
    assert [c["spec_type"] for c in out["candidates"] if c["accepted"]] == ["draft", *lookups]
    measured = out["measured"]
    assert measured["tokens"] == 8 and measured["not_downloaded"] == []
    ranking = measured["ranking"]
    assert sorted((w["spec_type"], w["candidate"]) for w in ranking) == sorted([
        ("draft", "count-draft.gguf"), *((name, "") for name in lookups), ("none", "")])
    assert [w["rank"] for w in ranking] == list(range(1, len(lookups) + 3))
    speedups = [w["speedup"] for w in ranking]
    assert speedups == sorted(speedups, reverse=True)
    for w in ranking:
        if w["spec_type"] == "none":
            assert (w["k"], w["speedup"], w["measured_on"]) == (None, 1.0, None)
        else:
            assert w["k"] in (0, 2, 4, 8) and w["measured_on"]
            assert (w["note"] is not None) == (w["speedup"] < 1)
    by_spec = {m["spec_type"]: m for m in measured["measurements"]}
    assert not any(m["kept"] for m in by_spec.values())
    rows = by_spec["draft"]["rows"]
    assert [(r["spec_type"], r["k"]) for r in rows] == [
        ("none", 0), ("draft", 2), ("draft", 4), ("draft", 8), ("draft", 0)]
    assert all(r["n_tokens"] == 3 * 8 for r in rows)
    assert by_spec["draft"]["alphas"][0]["n_accepted"] > 0
    assert len(list(kept.glob("*.json"))) == 1 + len(lookups)
    assert main(argv) == 0  # again: read back, not measured
    again = json.loads(capsys.readouterr().out)["measured"]
    assert all(m["kept"] for m in again["measurements"])
    assert again["ranking"] == ranking


def test_the_table_says_the_ranking_and_the_date(test_models, library, capsys):
    argv = ["pairs", str(test_models / "count-target.gguf"), "--no-hub", "--measure",
            "--tokens", "4", "--models-dir", str(library)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    ranked = out.split("Measured on this machine", 1)[1].splitlines()
    assert "4 tokens each" in ranked[0] and "SPEEDUP" in ranked[1]
    assert any("plain decoding" in line and "1.00×" in line for line in ranked)
    line = next(x for x in ranked if "count-draft.gguf" in x and "α by position" in x)
    assert "measured 20" in line


def test_a_hub_target_is_not_measured_and_says_so(monkeypatch, test_models, library, capsys):
    repo = gguf_repo("acme/Count3-GGUF", {"count3-Q8_0.gguf": test_models / "count-target3.gguf"})
    with serving(monkeypatch, [repo]):
        code = main(["pairs", "acme/Count3-GGUF:Q8_0", "--measure", "--json", "--models-dir",
                     str(library)])
    assert code == 1
    captured = capsys.readouterr()
    measured = json.loads(captured.out)["measured"]
    assert measured["ranking"] == [] and "download it" in measured["refused"]
    assert captured.err.count("\n") == 1 and "not on this machine" in captured.err
