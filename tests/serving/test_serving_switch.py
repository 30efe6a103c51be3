"""Stop reaches a server's answer even while it waits on the network; the window's engine
switches between the local engine and a server; the key file is the user's alone."""

from __future__ import annotations

import stat
import threading

from backend.engine.events import GenerationFinished, GenerationStarted, StepVerified
from backend.engine.model_info import ModelInfo
from backend.engine.protocol import EngineLike
from backend.engine.request import GenerationRequest, Message
from backend.serving.engine import ServerEngine
from backend.serving.switch import BackendSwitch
from backend.serving.target import ServerTarget, key_for, remember_key
from backend.settings import load_settings, save_settings
from tests.serving.fakeserver import FakeServer, recording

REQUEST = GenerationRequest(messages=(Message("user", "Why is the sky blue?"),), max_tokens=64)


def test_stop_ends_an_answer_that_waits_on_a_silent_server():
    script = recording("nothing")
    script.hold_after = 3
    with FakeServer(script) as server:
        # No read timeout to fall back on: a Stop that did not reach the blocked read would
        # hang here, never pass.
        engine = ServerEngine(server.url, read_timeout_s=24 * 3600)
        stopper = threading.Thread(target=lambda: (server.holding.wait(), engine.cancel()))
        try:
            engine.load_target("model", n_ctx=0)
            stopper.start()
            events = list(engine.generate(REQUEST))
        finally:
            stopper.join()
            engine.close()
            server.release.set()
    last = events[-1]
    assert isinstance(last, GenerationFinished) and last.stop_reason == "cancelled"
    assert " The sky".startswith(last.text)  # what had been read when Stop came


class FakeLocal:
    """A local engine that only says what it was asked."""

    def __init__(self) -> None:
        self.target: ModelInfo | None = None
        self.draft = None
        self.closed = False

    def load_target(self, path, *, n_ctx, n_threads=None, progress=None):
        self.target = ModelInfo(str(path), "local.gguf", "llama", 1, 1, 1, 1, 0)
        return self.target

    def load_demo(self, *, n_ctx, n_threads=None, progress=None):
        return ("", "")

    def load_draft(self, path, *, progress=None):
        return None

    def unload_draft(self):
        pass

    def reset_cache(self):
        pass

    def generate(self, request):
        yield GenerationStarted(request.request_id, "none", 0, 0)
        yield GenerationFinished("eos", "local", )

    def cancel(self):
        pass

    def close(self):
        self.closed = True


def test_the_switch_goes_from_local_to_a_server_and_back():
    made: list[FakeLocal] = []
    switch = BackendSwitch(lambda: made.append(FakeLocal()) or made[-1])
    assert isinstance(switch, EngineLike) and isinstance(ServerEngine("h:1"), EngineLike)
    switch.load_target("/models/a.gguf", n_ctx=512)
    assert switch.target is not None and switch.target.name == "local.gguf"
    with FakeServer(recording("nothing")) as server:
        remember_key(server.url, "")
        target = ServerTarget(server.url, "model")
        assert switch.load_target(target.path, n_ctx=512).path == target.path  # type: ignore[union-attr]
        assert made[0].closed  # the local engine's memory is freed
        assert switch.server is not None
        groups = list(switch.generate_batches(REQUEST))
        assert all(len(g) == 1 for g in groups)
        assert sum(isinstance(g[0], StepVerified) for g in groups) == 9
        assert switch.last_report is not None and not switch.last_report.has_numbers
        switch.load_target("/models/a.gguf", n_ctx=512)
        assert switch.server is None and len(made) == 2
        assert switch.last_report is None
    switch.close()
    assert made[1].closed


def test_a_failed_server_load_keeps_what_was_loaded():
    made: list[FakeLocal] = []
    switch = BackendSwitch(lambda: made.append(FakeLocal()) or made[-1])
    switch.load_target("/models/a.gguf", n_ctx=512)
    with FakeServer(recording("nothing")) as server:
        try:
            switch.load_target(ServerTarget(server.url, "absent").path, n_ctx=512)
        except Exception as exc:
            assert "does not serve a model called 'absent'" in str(exc)
        else:
            raise AssertionError("an unknown model was loaded")
    assert switch.target is not None and switch.target.name == "local.gguf"
    assert not made[0].closed
    switch.close()


def test_keys_are_kept_per_server_and_the_settings_file_is_the_users_alone(tmp_path):
    remember_key("127.0.0.1:9/v1", "k1")
    assert key_for("http://127.0.0.1:9") == "k1"
    remember_key("127.0.0.1:9", "")
    settings = load_settings(tmp_path / "s.json")
    settings.server.api_key = "sk-secret"
    save_settings(settings, tmp_path / "s.json")
    mode = stat.S_IMODE((tmp_path / "s.json").stat().st_mode)
    assert mode & 0o077 == 0, oct(mode)
    assert load_settings(tmp_path / "s.json").server.api_key == "sk-secret"
    assert ServerTarget("h:1", "m").path == "server+http://h:1/v1#m"  # the key never in it
