"""Server adapters implement one protocol (`backend.serving.adapter.ServerAdapter`), and the
server backend reads them only through it: a server Draftlight was not written for is one
module, registered, and its numbers reach the answer's report and stats."""

from __future__ import annotations

import pytest

from backend.engine.events import GenerationFinished
from backend.engine.request import GenerationRequest, Message
from backend.serving import llama_server, servers, sglang, vllm
from backend.serving.adapter import ServerAdapter
from tests.serving import made_up_server
from tests.serving.fakeserver import Script, answered

REQUEST = GenerationRequest(messages=(Message("user", "Hello"),), max_tokens=16)


def _chunk(text: str = "", finish: str | None = None, **extra) -> dict:
    choice = {"index": 0, "delta": {"content": text}, "finish_reason": finish}
    return {"object": "chat.completion.chunk", "choices": [choice], **extra}


def _answer(chunks: list[dict]) -> tuple[GenerationFinished, object]:
    events, report, _ = answered(Script(chunks=chunks), REQUEST)
    assert isinstance(events[-1], GenerationFinished), events[-1]
    return events[-1], report


@pytest.fixture
def made_up():
    servers.register(made_up_server)
    yield made_up_server
    servers.unregister(made_up_server.NAME)


def test_the_known_servers_implement_the_protocol_in_their_order():
    assert servers.all_servers() == (llama_server, vllm, sglang)
    assert all(isinstance(s, ServerAdapter) for s in servers.all_servers())
    assert isinstance(made_up_server, ServerAdapter)
    assert servers.fields() == ("timings", "metrics", "meta_info")


def test_a_new_server_is_one_module(made_up):
    chunks = [_chunk(" Hi"), _chunk(" there", "stop"),
              _chunk(made_up={"proposed": 9, "kept": 6, "rounds": 4, "decode_ms": 12.5})]
    done, report = _answer(chunks)
    assert (report.source, report.n_drafted, report.n_accepted) == (made_up.SOURCE, 9, 6)
    stats = done.stats
    assert (stats.n_drafted, stats.n_accepted, stats.n_steps) == (9, 6, 4)
    assert stats.generation_ms == 12.5
    # the same field inside the choice, as some servers send theirs
    inside = _chunk(" there", "stop")
    inside["choices"][0]["made_up"] = {"proposed": 3, "kept": 1}
    _, report = _answer([_chunk(" Hi"), inside])
    assert (report.n_drafted, report.n_accepted) == (3, 1)


def test_without_its_module_the_field_is_not_read():
    chunks = [_chunk(" Hi", "stop", made_up={"proposed": 9, "kept": 6})]
    done, report = _answer(chunks)
    assert not report.has_numbers and done.stats.n_drafted == 0


def test_a_server_is_registered_once(made_up):
    with pytest.raises(ValueError, match="already registered"):
        servers.register(made_up)
    servers.unregister(made_up.NAME)
    assert made_up not in servers.all_servers()
    servers.register(made_up)  # the fixture removes it again
