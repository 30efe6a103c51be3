"""The window with the "OpenAI-compatible server" backend: the model list comes off the GUI
thread, a real server (llama-cpp-python's own, on 127.0.0.1) answers in the same chat
window; recorded vLLM numbers show in the stats line and the panel's note, never as token
colours; a cut stream keeps its partial answer, marked, and says why in the banner."""

from __future__ import annotations

import pytest

from app.engine_link.worker import default_engine_factory
from app.panel.spec_reasons import SERVER_SPECULATES
from app.teaching.lossless_check import SERVER_TEXT
from app.transcript.answer import format_stats
from backend.serving.report import NO_COLOURS
from backend.serving.switch import BackendSwitch
from backend.traces import read_trace
from tests.serving.fakeserver import FakeServer, recording
from tests.serving.realserver import MODEL, free_port, llama_cpp_server


def server_window(make_window):
    window = make_window(engine_factory=lambda: BackendSwitch(default_engine_factory))
    window.panel.max_tokens.setValue(6)
    return window


def connect(window, qtbot, url: str) -> list[str]:
    panel = window.server_panel
    panel.choose("server")
    panel.url_edit.setText(url)
    with qtbot.waitSignal(panel.models_listed) as listed:
        panel.list_button.click()
    with qtbot.waitSignal(window.models_changed):
        panel.connect_button.click()
    return listed.args[0]


def answer(window, qtbot, text: str):
    with qtbot.waitSignal(window.answer_finished) as done:
        assert window.send(text)
    return done.args[0].answer


@pytest.fixture(scope="module")
def real_server(test_models):
    with llama_cpp_server(test_models / "count-target.gguf") as url:
        yield url


def test_a_real_server_answers_in_the_chat_window(make_window, qtbot, real_server,
                                                  test_models):
    window = server_window(make_window)
    assert connect(window, qtbot, real_server) == [MODEL]
    assert window.target.name == f"{MODEL} @ {real_server.split('/')[2]}"
    assert "Connected" in window.server_panel.status.text()
    panel = window.panel  # what only the local engine can do is greyed out, with the reason
    assert panel.target_combo.currentText() == window.target.name
    assert panel.spec_reason("draft") == panel.spec_reason("ngram") == SERVER_SPECULATES
    assert panel.spec_type() == "none"
    a = answer(window, qtbot, "Count!")
    assert a.text == " zero one two three four five"
    assert a.stop_reason == "length" and a.error is None
    assert set(a.tokens.origin) == {"target"}  # nothing coloured as a draft
    assert "drafted" not in format_stats(a)
    assert window.server_panel.note.text().startswith(
        "The server reported no speculation numbers")
    assert NO_COLOURS in window.server_panel.note.text()
    second = answer(window, qtbot, "Again!")  # the history goes to the server too
    assert second.text == " zero one two three four five"
    assert [t.role for t in window.conversation.turns] == ["user", "assistant"] * 2
    s = window.settings.server
    assert (s.kind, s.base_url, s.model) == ("server", real_server, MODEL)
    # back to the local engine: the remembered GGUF is loaded again, in the engine process
    window.settings.models.target = str(test_models / "count-target.gguf")
    with qtbot.waitSignal(window.models_changed, timeout=60_000):
        window.server_panel.choose("local")
    assert window.target.path == window.settings.models.target
    assert window.panel.spec_reason("ngram") is None
    local = answer(window, qtbot, "Count!")
    assert local.text == " zero one two three four five"
    assert window.settings.server.kind == "local"


def test_recorded_vllm_numbers_show_in_the_stats_and_the_note(make_window, qtbot, tmp_path):
    script = recording("vllm_detailed")
    with FakeServer(script) as server:
        window = server_window(make_window)
        connect(window, qtbot, server.url)
        a = answer(window, qtbot, "Why is the sky blue?")
        assert set(a.tokens.origin) == {"target"}
        assert "drafted 12 / accepted 5" in format_stats(a)
        assert "acceptance 41.7 %" in format_stats(a)
        note = window.server_panel.note.text()
        assert "Accepted per step: 3 0 1 1." in note and NO_COLOURS in note
        # the per-step report reaches the chart, as the local engine's steps do
        assert a.accepted_lengths == [3, 0, 1, 1]
        assert not window.answer_widgets()[-1].chart.isHidden()
        # the teaching views that need token verdicts say why they cannot work here
        widget = window.answer_widgets()[-1]
        with qtbot.waitSignal(window.flow.lossless.finished) as result:
            widget.check_button.click()
        assert result.args[1] == SERVER_TEXT
        # exported like any answer: its trace reads back with the server's stats
        path = tmp_path / "answer.json"
        with qtbot.waitSignal(window.exports.exporter.exported):
            window.exports.export_answer(widget, str(path))
        trace = read_trace(path)
        assert trace.events[-1].stats.n_drafted == 12
        assert trace.events[-1].stats.accepted_per_step == (3, 0, 1, 1)
        assert trace.events[-1].text == a.text
        window.close()


def test_a_cut_stream_keeps_the_partial_answer_marked(make_window, qtbot):
    script = recording("nothing")
    script.cut_after = 5
    with FakeServer(script) as server:
        window = server_window(make_window)
        connect(window, qtbot, server.url)
        a = answer(window, qtbot, "Why is the sky blue?")
        assert a.text == " The sky is blue"
        assert a.stop_reason == "interrupted"
        assert window.banner.text() == ("The server closed the connection in the middle of the "
                                        "answer; what had arrived is kept.")
        server.script.cut_after = None
        again = answer(window, qtbot, "And now?")
        assert again.text == " The sky is blue because of Rayleigh scattering."
        assert again.stop_reason == "eos"
        window.close()


def test_an_unreachable_server_is_said_in_the_panel(make_window, qtbot):
    window = server_window(make_window)
    panel = window.server_panel
    panel.choose("server")
    panel.url_edit.setText(f"http://127.0.0.1:{free_port()}/v1")
    with qtbot.waitSignal(panel.models_failed) as failed:
        panel.list_button.click()
    assert failed.args[0].startswith("Cannot reach http://127.0.0.1:")
    assert panel.status.text() == failed.args[0]
    assert window.target is None


def test_stop_ends_a_server_answer_that_waits_on_the_network(make_window, qtbot):
    script = recording("nothing")
    script.hold_after = 3
    with FakeServer(script) as server:
        window = server_window(make_window)
        connect(window, qtbot, server.url)
        with qtbot.waitSignal(window.answer_finished) as done:
            assert window.send("Why is the sky blue?")
            qtbot.waitUntil(server.holding.is_set)
            window.flow.stop()
        a = done.args[0].answer
        assert a.stop_reason == "cancelled" and " The sky".startswith(a.text)
        assert not window.generating
        server.release.set()
        window.close()


def test_the_server_chosen_last_time_is_shown_and_connects(make_window, qtbot, settings_path):
    from backend.settings import load_settings, save_settings

    with FakeServer(recording("nothing")) as server:
        settings = load_settings(settings_path)
        settings.server.kind, settings.server.base_url = "server", server.url
        settings.server.model, settings.server.api_key = "model", "k"
        save_settings(settings, settings_path)
        window = make_window(engine_factory=lambda: BackendSwitch(default_engine_factory))
        panel = window.server_panel
        assert (panel.kind, panel.base_url, panel.model, panel.api_key) == (
            "server", server.url, "model", "k")
        assert not panel.url_edit.isHidden() and "plain text" in panel.key_note.text()
        with qtbot.waitSignal(window.models_changed):
            panel.request_connect()  # what `draftlight` does at start with these settings
        assert window.target.name.startswith("model @ 127.0.0.1:")
        window.close()
    assert load_settings(settings_path).server.api_key == "k"
