"""Each way a server can fail is one sentence, and what had arrived is kept: unreachable,
refused key, unknown model, a silent server (timeout), a cut stream; the next request to a
live server works."""

from __future__ import annotations

import socket

import pytest

from backend.engine.events import GenerationFailed, GenerationFinished, StepVerified
from backend.engine.request import GenerationRequest, Message
from backend.serving.client import ServerClient, ServerError
from backend.serving.engine import ServerEngine
from tests.serving.fakeserver import FakeServer, Script, recording

REQUEST = GenerationRequest(messages=(Message("user", "Why is the sky blue?"),), max_tokens=64)


def one_sentence(text: str) -> None:
    assert text and text[0].isupper() and text.endswith((".", "?", ")")), text
    assert "Traceback" not in text and "\n" not in text


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_server_is_one_sentence():
    engine = ServerEngine(f"http://127.0.0.1:{free_port()}/v1")
    try:
        with pytest.raises(ServerError) as err:
            engine.load_target("model", n_ctx=0)
    finally:
        engine.close()
    assert err.value.kind == "unreachable"
    assert "Cannot reach" in str(err.value)
    one_sentence(str(err.value))


def test_refused_key_is_one_sentence_and_the_right_key_works():
    script = recording("nothing")
    script.api_key = "secret"
    with FakeServer(script) as server:
        for key in ("", "wrong"):
            client = ServerClient(server.url, key)
            try:
                with pytest.raises(ServerError) as err:
                    client.list_models()
            finally:
                client.close()
            assert err.value.kind == "key" and "refused the API key (HTTP 401)" in str(err.value)
            one_sentence(str(err.value))
        engine = ServerEngine(server.url, "secret")
        try:
            engine.load_target("model", n_ctx=0)
            assert isinstance(list(engine.generate(REQUEST))[-1], GenerationFinished)
        finally:
            engine.close()


def test_unknown_model_is_one_sentence():
    with FakeServer(recording("nothing")) as server:
        engine = ServerEngine(server.url)
        try:
            with pytest.raises(ServerError) as err:
                engine.load_target("gpt-17", n_ctx=0)
            assert err.value.kind == "model"
            assert "does not serve a model called 'gpt-17'; it serves model." in str(err.value)
            # a model that went away between the list and the answer: the server's 404
            engine.load_target("model", n_ctx=0)
            server.script.models = ["other"]
            failed = list(engine.generate(REQUEST))[-1]
        finally:
            engine.close()
    assert isinstance(failed, GenerationFailed)
    assert "does not serve a model called 'model'" in failed.message
    one_sentence(failed.message)


def _partial(events) -> str:
    return "".join(t.text for e in events if isinstance(e, StepVerified) for t in e.emitted)


def test_a_silent_server_times_out_and_keeps_the_partial_answer():
    script = recording("nothing")
    script.hold_after = 4
    with FakeServer(script) as server:
        engine = ServerEngine(server.url, read_timeout_s=0.5)
        try:
            engine.load_target("model", n_ctx=0)
            events = list(engine.generate(REQUEST))
        finally:
            engine.close()
            server.release.set()
    failed = events[-1]
    assert isinstance(failed, GenerationFailed) and "(timeout)" in failed.message
    one_sentence(failed.message)
    assert _partial(events) == " The sky is"


def test_a_cut_stream_keeps_the_partial_answer_and_the_next_request_works():
    script = recording("nothing")
    script.cut_after = 5
    with FakeServer(script) as server:
        engine = ServerEngine(server.url)
        try:
            engine.load_target("model", n_ctx=0)
            events = list(engine.generate(REQUEST))
            failed = events[-1]
            assert isinstance(failed, GenerationFailed)
            assert failed.message == ("The server closed the connection in the middle of the "
                                      "answer; what had arrived is kept.")
            assert _partial(events) == " The sky is blue"
            server.script.cut_after = None
            again = list(engine.generate(REQUEST))
        finally:
            engine.close()
    assert isinstance(again[-1], GenerationFinished)
    assert again[-1].text == " The sky is blue because of Rayleigh scattering."


def test_a_stream_that_ends_without_finishing_is_interrupted():
    script = recording("nothing")
    script.chunks = script.chunks[:4]  # ends cleanly ([DONE]) but no finish_reason came
    with FakeServer(script) as server:
        engine = ServerEngine(server.url)
        try:
            engine.load_target("model", n_ctx=0)
            events = list(engine.generate(REQUEST))
        finally:
            engine.close()
    assert isinstance(events[-1], GenerationFailed)
    assert "before the answer was finished" in events[-1].message
    assert _partial(events) == " The sky is"


def test_an_address_without_v1_or_scheme_is_completed():
    with FakeServer(Script(models=["a", "b"])) as server:
        host = server.url.removeprefix("http://").removesuffix("/v1")
        client = ServerClient(host)
        try:
            assert client.base_url == server.url
            assert client.list_models() == ["a", "b"]
        finally:
            client.close()


def test_a_server_that_does_not_stream_is_one_sentence():
    script = recording("nothing")
    script.not_a_stream = True
    with FakeServer(script) as server:
        engine = ServerEngine(server.url)
        try:
            engine.load_target("model", n_ctx=0)
            events = list(engine.generate(REQUEST))
        finally:
            engine.close()
    failed = events[-1]
    assert isinstance(failed, GenerationFailed)
    assert "answered with application/json instead of a stream" in failed.message
    one_sentence(failed.message)
