"""Against a real OpenAI-compatible server (llama-cpp-python's own, on 127.0.0.1, serving the
counting test model): streaming chat end to end from the command line and the engine; a
refused key; a server stopped in the middle of an answer keeps the partial answer, says so
in one sentence, and the next request to a live server works."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from backend.engine.events import GenerationFailed, GenerationFinished, StepVerified
from backend.engine.request import GenerationRequest, Message
from backend.serving.client import ServerError
from backend.serving.engine import ServerEngine
from tests.serving.realserver import MODEL, free_port, llama_cpp_server

COUNT = " zero one two three four five"


@pytest.fixture(scope="module")
def server(test_models):
    with llama_cpp_server(test_models / "count-target.gguf") as url:
        yield url


def _cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "backend.cli.main", "generate", *args],
                          capture_output=True, text=True, env=env)


def test_cli_streams_a_chat_answer_as_json_lines(server):
    out = _cli("--server", server, "--model", MODEL, "--max-tokens", "6", "--json", "Count!")
    assert out.returncode == 0, out.stderr
    events = [json.loads(line) for line in out.stdout.splitlines()]
    assert [e["event"] for e in events[:2]] == ["started", "prompt"]
    steps = [e for e in events if e["event"] == "step"]
    assert "".join(t["text"] for s in steps for t in s["emitted"]) == COUNT
    assert all(t["origin"] == "target" and not s["drafted"] for s in steps for t in s["emitted"])
    finished = next(e for e in events if e["event"] == "finished")
    assert finished["text"] == COUNT and finished["stop_reason"] == "length"
    assert finished["stats"]["n_drafted"] == 0
    report = events[-1]
    assert report["event"] == "server_report" and report["n_drafted"] is None
    assert "Per-token colours need the local engine" in report["words"]


def test_cli_plain_text_and_its_errors_in_one_line(server):
    out = _cli("--server", server, "--model", MODEL, "--max-tokens", "3", "--no-color", "Count!")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "zero one two"
    assert "reported no speculation numbers" in out.stderr
    bad = _cli("--server", f"http://127.0.0.1:{free_port()}", "--model", MODEL, "hi")
    assert bad.returncode == 1
    assert bad.stderr.startswith("draftlight: Cannot reach http://127.0.0.1:")
    assert len(bad.stderr.strip().splitlines()) == 1


def test_refused_key_against_a_real_server(test_models):
    with llama_cpp_server(test_models / "count-target.gguf", api_key="s3cret") as url:
        env = {**os.environ, "DRAFTLIGHT_API_KEY": "wrong"}
        out = _cli("--server", url, "--model", MODEL, "--max-tokens", "2", "hi", env=env)
        assert out.returncode == 1
        assert "refused the API key (HTTP 401)" in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1
        ok = _cli("--server", url, "--api-key", "s3cret", "--model", MODEL, "--max-tokens",
                  "2", "--no-color", "hi", env=env)  # the flag wins over the environment
        assert ok.returncode == 0 and ok.stdout.strip() == "zero one", ok.stderr


def test_a_server_stopped_mid_answer_keeps_the_partial_answer(test_models, server):
    request = GenerationRequest(messages=(Message("user", "Count!"),), max_tokens=3000)
    port = free_port()
    model = test_models / "count-target.gguf"
    with llama_cpp_server(model, port=port) as url:
        engine = ServerEngine(url)
        try:
            engine.load_target(MODEL, n_ctx=0)
            events = []
            for event in engine.generate(request):
                events.append(event)
                if isinstance(event, StepVerified) and len(events) == 5:
                    url.kill()  # the server dies in the middle of the answer
        finally:
            engine.close()
    failed = events[-1]
    assert isinstance(failed, GenerationFailed), failed
    assert failed.message in (
        "The server closed the connection in the middle of the answer; what had arrived is "
        "kept.",
        "The server ended the stream before the answer was finished; what had arrived is kept.")
    text = "".join(t.text for e in events if isinstance(e, StepVerified) for t in e.emitted)
    assert text.startswith(" zero one two") and len(text.split()) < 3000
    # the same engine's next request, once a server listens there again, answers
    with llama_cpp_server(model, port=port):
        engine = ServerEngine(url)
        try:
            engine.load_target(MODEL, n_ctx=0)
            again = list(engine.generate(GenerationRequest(
                messages=(Message("user", "Count!"),), max_tokens=6)))
        finally:
            engine.close()
    assert isinstance(again[-1], GenerationFinished) and again[-1].text == COUNT
    # and the module's server, which never stopped, answers too
    live = ServerEngine(server)
    try:
        live.load_target(MODEL, n_ctx=0)
        short = GenerationRequest(messages=(Message("user", "Count!"),), max_tokens=6)
        last = list(live.generate(short))[-1]
        assert isinstance(last, GenerationFinished) and last.text == COUNT
    finally:
        live.close()


def test_unknown_model_is_refused_before_answering(server):
    engine = ServerEngine(server)
    try:
        with pytest.raises(ServerError, match=r"does not serve a model called 'gpt-17'; it "
                                              r"serves count\."):
            engine.load_target("gpt-17", n_ctx=0)
    finally:
        engine.close()
