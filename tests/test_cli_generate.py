"""`draftlight generate`: JSON events for scripts, one clear line for failures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def _cli(*args: str, k_auto_dir: Path | None = None) -> subprocess.CompletedProcess:
    """`draftlight` with these arguments; `k_auto_dir`, a K auto memory of its own (each
    command is an engine process, and the next one starts from what the last one measured:
    backend/engine/k_auto_memory.py)."""
    env = None if k_auto_dir is None else {**os.environ, "DRAFTLIGHT_K_AUTO_DIR": str(k_auto_dir)}
    return subprocess.run([sys.executable, "-m", "backend.cli.main", *args],
                          capture_output=True, text=True, timeout=300, env=env)


def test_json_lines_describe_every_step(test_models):
    r = _cli("generate", "--model", str(test_models / "count-target.gguf"),
             "--draft", str(test_models / "count-draft.gguf"), "--n-draft", "4", "--raw",
             "--max-tokens", "10", "--json", "--threads", "1", " zero one")
    assert r.returncode == 0, r.stderr
    events = [json.loads(line) for line in r.stdout.splitlines()]
    kinds = [e["event"] for e in events]
    assert kinds[0] == "started" and kinds[1] == "prompt" and kinds[-1] == "finished"
    step = next(e for e in events if e["event"] == "step")
    assert {"step", "drafted", "emitted", "n_accepted"} <= step.keys()
    assert {"id", "text", "origin", "accepted", "p_target", "p_draft"} <= step["drafted"][0].keys()
    stats = events[-1]["stats"]
    for key in ("n_generated", "n_drafted", "n_accepted", "acceptance_rate", "tokens_per_second"):
        assert key in stats
    assert stats["n_generated"] == 10
    assert events[-1]["text"] == "".join(t["text"] for e in events if e["event"] == "step"
                                         for t in e["emitted"])


def test_coloured_text_marks_rejected_drafts(test_models):
    r = _cli("generate", "--model", str(test_models / "count-target.gguf"),
             "--draft", str(test_models / "count-draft.gguf"), "--n-draft", "4", "--raw",
             "--max-tokens", "6", "--threads", "1", " zero one")
    assert r.returncode == 0
    assert "\033[9;" in r.stdout  # strike-through on the rejected " five"
    assert "tok/s" in r.stderr


def test_bad_model_path_is_one_line_and_non_zero(tmp_path):
    r = _cli("generate", "--model", str(tmp_path / "nope.gguf"), "hello")
    assert r.returncode != 0
    assert "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_broken_file_is_one_line_and_non_zero(tmp_path, test_models):
    broken = tmp_path / "broken.gguf"
    broken.write_bytes((test_models / "count-target.gguf").read_bytes()[:4096])
    r = _cli("generate", "--model", str(broken), "hello")
    assert r.returncode != 0
    assert "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_a_gguf_that_aborts_llama_cpp_is_one_line_and_non_zero(tmp_path, test_models):
    from abort_models import ABORT_TARGET, write_eagle3_two_blocks

    bad = write_eagle3_two_blocks(tmp_path / "eagle3-two-blocks.gguf")
    r = _cli("generate", "--model", str(test_models / ABORT_TARGET), "--draft", str(bad),
             "--spec", "eagle3", "hello")
    assert r.returncode == 1  # an exit, not a signal: the abort ended the engine process
    assert r.stderr.strip().splitlines() == [
        "draftlight: llama.cpp stopped itself (abort: one of its internal checks failed) "
        "while loading eagle3-two-blocks.gguf as the draft: GGML_ASSERT(n_layer == 1) failed."]
    assert r.stdout == ""


def test_a_crash_while_answering_is_one_line_and_non_zero(tmp_path, test_models):
    from backend.engine import crash_hook

    hook = tmp_path / "crash.json"
    crash_hook.arm(hook, at="step", n=2)
    r = subprocess.run(
        [sys.executable, "-m", "backend.cli.main", "generate", "--model",
         str(test_models / "count-target.gguf"), "--raw", "--threads", "1", "--no-color",
         "--max-tokens", "8", " zero"],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, crash_hook.ENV: str(hook)})
    assert r.returncode == 1
    assert r.stdout.startswith(" one two")  # what was written before the crash
    assert r.stderr.strip().splitlines() == [
        "draftlight: llama.cpp crashed (segmentation fault) while answering with "
        "count-target.gguf."]


def test_n_draft_auto_is_the_default_and_can_be_named(test_models, tmp_path):
    base = ("generate", "--model", str(test_models / "count-target.gguf"),
            "--draft", str(test_models / "count-draft.gguf"), "--raw", "--max-tokens", "30",
            "--json", "--threads", "1")
    runs = {}
    for i, extra in enumerate(((), ("--n-draft", "auto"), ("--n-draft", "3"))):
        # each a first answer: on this pair a later one may rightly decode plainly
        r = _cli(*base, *extra, " zero one", k_auto_dir=tmp_path / f"k-auto-{i}")
        assert r.returncode == 0, r.stderr
        events = [json.loads(line) for line in r.stdout.splitlines()]
        runs[extra] = events
    for extra in ((), ("--n-draft", "auto")):
        assert runs[extra][0]["n_draft_max"] == 0  # K auto
        lengths = {len(e["drafted"]) for e in runs[extra] if e["event"] == "step"}
        assert len(lengths) > 1  # chosen step by step
    assert runs[("--n-draft", "3")][0]["n_draft_max"] == 3
    texts = {events[-1]["text"] for events in runs.values()}
    assert len(texts) == 1  # greedy: the same answer whatever K
    bad = _cli(*base, "--n-draft", "often", " zero")
    assert bad.returncode != 0 and "'often' is not a whole number" in bad.stderr


def test_a_model_gpu_layers_auto_put_on_the_cpu_is_said(monkeypatch, capsys, test_models):
    """The engine loads a model the GPU cannot hold on the CPU (tests/engine/test_runtime.py);
    the command says so, so that its speed is not taken for the GPU's."""
    from dataclasses import replace

    from backend.cli import generate
    from backend.cli.main import main
    from backend.engine.model_info import ModelInfo

    class OneEngine:  # loads the way a GPU too small for the target would leave it
        def __init__(self, runtime):
            self.runtime = runtime

        def load_target(self, path, **_):
            info = ModelInfo(str(path), "count-target", "llama", 1, 1, 1, 1, 0)
            return replace(info, gpu_fallback=True)

        def generate(self, request):
            return iter(())

        def close(self):
            pass

    monkeypatch.setattr(generate, "EngineProcess", OneEngine)
    assert main(["generate", "--model", str(test_models / "count-target.gguf"), "--raw",
                 "--max-tokens", "2", " zero one"]) == 0
    assert generate.fell_back("count-target") in capsys.readouterr().err


def test_a_draft_file_of_another_spec_type_is_named_before_its_fit(test_models):
    """A DFlash head given to --spec draft: what it drafts with, not the layers it would read
    of a target it was not made for (which loading it checks)."""
    r = _cli("generate", "--model", str(test_models / "count-target.gguf"),
             "--spec", "draft", "--draft", str(test_models / "dflash-count.gguf"), "--raw",
             "--max-tokens", "4", "--threads", "1", " zero one")
    assert r.returncode != 0
    assert r.stderr.strip().splitlines()[-1] == (
        "draftlight: dflash-count.gguf (dflash) drafts with spec type DFlash, not draft model.")


def test_an_unreadable_draft_file_is_not_named_a_draft_model(test_models, tmp_path):
    """--spec dflash with a file whose header cannot be read: what is wrong with the file, not
    what a draft model of an unknown architecture would draft with."""
    broken = tmp_path / "broken.gguf"
    broken.write_text("not a gguf at all")
    r = _cli("generate", "--model", str(test_models / "count-target3.gguf"),
             "--spec", "dflash", "--draft", str(broken), "--raw",
             "--max-tokens", "4", "--threads", "1", " zero one")
    assert r.returncode != 0
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("draftlight: broken.gguf: This is not a GGUF file")
    assert "drafts" not in last
