"""The terminal gets text, not commands: what a model, a server or a GGUF file says is printed
with its control characters escaped and long values cut with their length said, the answer
whole; `generate --json` carries any text, a lone surrogate included, to its end."""

from __future__ import annotations

import json
import re

import pytest
from gguf_corpus import base_kvs, build, kv_str, s

from backend.cli import generate
from backend.cli.main import main
from backend.engine.events import (
    GenerationFailed,
    GenerationFinished,
    GenerationStarted,
    Stats,
    StepVerified,
    Token,
)
from tests.serving.fakeserver import FakeServer, Script

# What a terminal would obey: C0 but newline and tab, DEL, C1, bidi overrides and isolates.
OBEYED = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
HOSTILE = "\x1b]0;owned\x07\x1b[2J\x00\x9b31m\x7f\u202eevil\u2066\r"


def obeyed(text: str) -> list[str]:
    return OBEYED.findall(text)


def chunks(pieces: list[str], finish: str = "stop") -> list[dict]:
    def chunk(delta: dict, finish_reason: str | None = None) -> dict:
        return {"id": "c", "object": "chat.completion.chunk", "model": "model",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]}

    return ([chunk({"role": "assistant", "content": ""})]
            + [chunk({"content": p}) for p in pieces] + [chunk({}, finish)])


def test_models_inspect_shows_a_hostile_name_escaped_and_cut(tmp_path, capsys):
    name = HOSTILE + "n" * 10_000_000
    kvs = [kv for kv in base_kvs() if not kv.startswith(s("general.name"))]
    path = tmp_path / "evil.gguf"
    path.write_bytes(build(kvs=[*kvs, kv_str("general.name", name)]))
    assert main(["models", "inspect", str(path)]) == 0
    out = capsys.readouterr().out
    assert obeyed(out) == []
    line = next(x for x in out.splitlines() if x.lstrip().startswith("name"))
    assert r"\x1b]0;owned\x07\x1b[2J\x00\x9b31m\x7f\u202eevil\u2066\r" in line
    assert f"… ({len(name):,} characters)" in line and len(line) < 1000
    assert "architecture    llama" in out  # the rest is shown as before
    # --json keeps the whole name (JSON escapes it): nothing is lost for a script
    assert main(["models", "inspect", str(path), "--json"]) == 0
    out = capsys.readouterr().out
    assert obeyed(out) == [] and json.loads(out)["name"] == name


def test_models_list_escapes_a_hostile_file_name(tmp_path, capsys, test_models):
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "a\x1b[2Jb\u202e.gguf").write_bytes((test_models / "count-draft.gguf").read_bytes())
    assert main(["models", "list", "--models-dir", str(lib)]) == 0
    out = capsys.readouterr().out
    assert obeyed(out) == [] and r"a\x1b[2Jb\u202e.gguf" in out


def test_generate_writes_a_server_answer_as_text_lines_and_tabs_kept(capsys):
    pieces = ["Line one\n", "\tindented ", HOSTILE, " end"]
    with FakeServer(Script(chunks=chunks(pieces))) as server:
        assert main(["generate", "--server", server.url, "--model", "model", "--no-color",
                     "hi"]) == 0
    out, err = capsys.readouterr()
    assert obeyed(out) == [] and obeyed(err) == []
    assert out.startswith("Line one\n\tindented ")  # the answer's own lines and tabs
    assert r"\x1b]0;owned\x07\x1b[2J\x00\x9b31m\x7f\u202eevil\u2066\r end" in out


class FakeEngine:
    """The local engine's interface, replaying events (the real one needs model files)."""

    def __init__(self, events: list) -> None:
        self.events = events

    def load_target(self, path, *, n_ctx, n_threads=None, progress=None):
        return None

    def load_draft(self, path, *, progress=None):
        return None

    def generate(self, request):
        yield from self.events

    def close(self) -> None:
        pass


def engine_saying(monkeypatch, events: list) -> None:
    monkeypatch.setattr(generate, "EngineProcess", lambda runtime: FakeEngine(events))


def events_with(text: str, rejected: str, *, failed: str | None = None) -> list:
    step = StepVerified(0, (Token(1, text, "draft", True), Token(2, rejected, "draft", False)),
                        1, (Token(1, text, "draft", True), Token(3, "!", "target", True)), 1, 1)
    end = (GenerationFailed(failed) if failed is not None
           else GenerationFinished("eos\x1b[2J", text + "!", Stats(n_generated=2)))
    return [GenerationStarted(1, "draft", 4, 3), step, end]


@pytest.mark.parametrize("color", [True, False])
def test_generate_escapes_model_text_coloured_or_not(monkeypatch, capsys, color):
    engine_saying(monkeypatch, events_with("ok\n" + HOSTILE, "no\x1b]2;x\x07"))
    argv = ["generate", "--model", "m.gguf", "hi"] + ([] if color else ["--no-color"])
    assert main(argv) == 0
    out, err = capsys.readouterr()
    ours = (generate.ACCEPTED, generate.REJECTED, generate.TARGET, generate.RESET)
    for code in ours:
        out = out.replace(code, "")
    assert obeyed(out) == [] and obeyed(err) == []
    assert "ok\n" + r"\x1b]0;owned\x07" in out
    assert r"[eos\x1b[2J]" in err


def test_generate_says_a_failure_escaped_and_cut(monkeypatch, capsys):
    message = "The server said \x1b[2J" + "x" * 100_000
    engine_saying(monkeypatch, events_with("ok", "no", failed=message))
    assert main(["generate", "--model", "m.gguf", "--no-color", "hi"]) == 1
    err = capsys.readouterr().err
    assert obeyed(err) == [] and r"said \x1b[2J" in err
    assert f"({len(message):,} characters)" in err and len(err) < 1000


def test_generate_json_carries_a_lone_surrogate_to_the_end(monkeypatch, capsys):
    # half an emoji: what a draft cut inside a character decodes to
    text, rejected = "a\ud83d", "\udc4d" + HOSTILE
    engine_saying(monkeypatch, events_with(text, rejected))
    assert main(["generate", "--model", "m.gguf", "--json", "hi"]) == 0
    out = capsys.readouterr().out
    assert obeyed(out) == []
    events = [json.loads(line) for line in out.splitlines()]
    assert [e["event"] for e in events] == ["started", "step", "finished"]
    assert events[-1]["text"] == text + "!"  # nothing lost: the same code points come back
    assert events[1]["drafted"][1]["text"] == rejected
    # without --json the same answer is printed, the halves shown as escapes
    assert main(["generate", "--model", "m.gguf", "--no-color", "hi"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(r"a\ud83d!")
