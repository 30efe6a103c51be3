"""`draftlight generate`: JSON events for scripts, one clear line for failures."""

from __future__ import annotations

import json
import os
import re
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


def test_the_coloured_answer_shows_every_step_as_its_events_tell_it(capsys):
    """Printed text asks the engine process for folded runs of steps (no step's own event):
    the same tokens in the same order and styles as the steps themselves. JSON lines and
    exports ask for the steps."""
    from backend.cli.generate import ACCEPTED, REJECTED, TARGET, _print_events
    from backend.engine.events import GenerationFinished, Stats, StepVerified, Token
    from backend.engine.request import GenerationRequest, Message
    from backend.engine.token_log import fold_steps

    def step(s: int, n_ok: int, k: int) -> StepVerified:
        drafted = tuple(Token(i, f" d{s}.{i}", "draft", i < n_ok) for i in range(k))
        return StepVerified(s, drafted, n_ok, (*drafted[:n_ok], Token(9, f" t{s}", "target",
                                                                     True)), 0.0, 0.0)

    events = [step(s, s % 4, 3) for s in range(12)]
    finished = GenerationFinished("length", "", Stats(n_generated=30, n_steps=12))

    class Engine:  # the engine process's groups: three steps a message
        def __init__(self) -> None:
            self.asked: list[bool] = []

        def generate_batches(self, request, *, folded=False):
            self.asked.append(folded)
            for i in range(0, len(events), 3):
                group = events[i:i + 3]
                yield fold_steps(group) if folded else group
            yield [finished]

    request = GenerationRequest(messages=(Message("user", "hi"),))
    engine = Engine()
    assert _print_events(engine, request, None, as_json=False, color=True) == 0
    printed = capsys.readouterr().out
    kept: list = []
    assert _print_events(engine, request, kept, as_json=True, color=True) == 0
    assert engine.asked == [True, False]  # folded for text only
    assert kept == [*events, finished]
    expected = []
    for e in events:
        expected += [(ACCEPTED, t.text) for t in e.emitted if t.origin != "target"]
        expected += [(REJECTED, t.text) for t in e.drafted if not t.accepted]
        expected += [(TARGET, t.text) for t in e.emitted if t.origin == "target"]
    shown, style = [], None
    for piece in re.split(r"(\033\[[0-9;]*m)", printed):
        if piece.startswith("\033["):
            style = piece
        elif piece:
            shown.append((style, piece))
    # a style is written where it changes (and reset, which is TARGET's, after each run of
    # steps): compared as runs of one style
    assert runs(shown) == runs([*expected, (TARGET, "\n")])  # the answer, its line ended


def runs(pieces: list[tuple[str | None, str]]) -> list[tuple[str | None, str]]:
    merged: list[tuple[str | None, str]] = []
    for style, text in pieces:
        if merged and merged[-1][0] == style:
            merged[-1] = (style, merged[-1][1] + text)
        else:
            merged.append((style, text))
    return merged
