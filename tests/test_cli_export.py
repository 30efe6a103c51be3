"""`draftlight generate --html/--trace`: both files written after the answer, also when it
fails, and the trace reads back into the events the page shows."""

from __future__ import annotations

import os
import subprocess
import sys

from test_export_html import TokenPage, expected_tokens

from backend.engine.events import GenerationFailed, GenerationFinished, GenerationStarted
from backend.traces import read_trace


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "backend.cli.main", *args],
                          capture_output=True, text=True, timeout=300)


def test_generate_writes_the_page_and_the_trace(tmp_path, test_models):
    page, trace_file = tmp_path / "answer.html", tmp_path / "answer.json"
    r = _cli("generate", "--model", str(test_models / "count-target.gguf"),
             "--draft", str(test_models / "count-draft.gguf"), "--n-draft", "4", "--raw",
             "--max-tokens", "12", "--threads", "1", "--no-color",
             "--html", str(page), "--trace", str(trace_file), " zero one")
    assert r.returncode == 0, r.stderr
    trace = read_trace(trace_file)
    assert (trace.target_model, trace.draft_model) == ("count-target.gguf", "count-draft.gguf")
    assert trace.request.prompt == " zero one" and trace.request.n_draft_max == 4
    assert isinstance(trace.events[0], GenerationStarted)
    final = trace.events[-1]
    assert isinstance(final, GenerationFinished) and final.stats.n_generated == 12
    assert r.stdout.startswith(final.text)  # what the terminal showed
    tokens = [(k, t) for k, t, _ in TokenPage(page.read_text(encoding="utf-8")).tokens]
    assert tokens == expected_tokens(trace.events)
    assert {k for k, _ in tokens} == {"accepted", "rejected", "target"}


def test_a_failed_answer_still_writes_both(tmp_path, test_models):
    from backend.engine import crash_hook

    hook = tmp_path / "crash.json"
    crash_hook.arm(hook, at="step", n=2)
    page, trace_file = tmp_path / "answer.html", tmp_path / "answer.json"
    r = subprocess.run(
        [sys.executable, "-m", "backend.cli.main", "generate", "--model",
         str(test_models / "count-target.gguf"), "--raw", "--threads", "1", "--no-color",
         "--max-tokens", "8", "--html", str(page), "--trace", str(trace_file), " zero"],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, crash_hook.ENV: str(hook)},
    )
    assert r.returncode == 1
    trace = read_trace(trace_file)
    assert isinstance(trace.events[-1], GenerationFailed) and trace.events[-1].crashed
    assert "Failed after" in page.read_text(encoding="utf-8")


def test_an_unwritable_folder_is_refused_before_the_answer(tmp_path, test_models):
    r = _cli("generate", "--model", str(test_models / "count-target.gguf"), "--raw",
             "--max-tokens", "2", "--trace", str(tmp_path / "no" / "such" / "t.json"), " zero")
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.strip().splitlines() == [
        f"draftlight: Cannot write {tmp_path / 'no' / 'such' / 't.json'}: the folder "
        f"{tmp_path / 'no' / 'such'} does not exist."]

