"""The typed settings file: round trip, bad files, and a window that comes back as it was."""

from __future__ import annotations

import json

from scripted_engine import ScriptedEngine

from backend.settings import (
    SCHEMA_VERSION,
    Settings,
    default_settings_path,
    load_settings,
    save_settings,
)


def test_round_trip(tmp_path):
    path = tmp_path / "s.json"
    s = Settings()
    s.generation.spec_type = "ngram"
    s.generation.n_draft = 12
    s.generation.temperature = 0.8
    s.remember_model("/m/a.gguf")
    s.remember_model("/m/b.gguf")
    s.remember_model("/m/a.gguf")
    save_settings(s, path)
    raw = json.loads(path.read_text())
    assert raw["schema_version"] == SCHEMA_VERSION
    back = load_settings(path)
    assert back == s
    assert back.models.recent == ["/m/a.gguf", "/m/b.gguf"]


def test_default_path_is_under_the_config_dir():
    path = default_settings_path()
    assert path.name == "settings.json" and "draftlight" in str(path)


def test_bad_files_give_defaults_value_by_value(tmp_path):
    path = tmp_path / "s.json"
    path.write_text("{not json")
    assert load_settings(path) == Settings()
    path.write_text("[1, 2]")
    assert load_settings(path) == Settings()
    path.write_text(json.dumps({
        "schema_version": 1,
        "generation": {"n_draft": 99, "temperature": "hot", "top_k": 7, "spec_type": "magic",
                       "seed": True},
        "models": {"recent": ["/a.gguf", 3], "n_ctx": 2048},
        "unknown": {"x": 1},
    }))
    s = load_settings(path)
    assert len(s.problems) == 4  # n_draft, temperature, spec_type, seed: each said in words
    assert s.generation.n_draft == Settings().generation.n_draft
    assert s.generation.temperature == 0.0
    assert s.generation.spec_type == "none"
    assert s.generation.seed == 0
    assert s.generation.top_k == 7
    assert s.models.recent == ["/a.gguf"]
    assert s.models.n_ctx == 2048
    assert load_settings(tmp_path / "missing.json") == Settings()
    assert load_settings(tmp_path / "missing.json").problems == []  # no file is no problem


def test_settings_written_window_recreated_settings_restored(make_window, qtbot,
                                                             settings_path):
    engine = ScriptedEngine()
    w = make_window(engine)
    w.show()
    qtbot.waitExposed(w)
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_target("/models/first.gguf")
    assert w.panel.set_spec_type("ngram")
    w.panel.n_draft.setValue(11)
    w.panel.temperature.setValue(0.55)
    w.panel.top_p.setValue(0.8)
    w.panel.top_k.setValue(17)
    w.panel.min_p.setValue(0.1)
    w.panel.repeat_penalty.setValue(1.15)
    w.panel.seed.setValue(1234)
    w.panel.max_tokens.setValue(640)
    w.panel.n_ctx.setValue(2048)
    w.resize(760, 560)  # within the offscreen screen (800x600): restoring clamps to it
    w.close()
    assert settings_path.is_file()

    w2 = make_window(ScriptedEngine())
    w2.show()
    qtbot.waitExposed(w2)
    gs = w2.panel.generation_settings()
    assert (gs.spec_type, gs.n_draft, gs.temperature, gs.top_p, gs.top_k, gs.min_p,
            gs.repeat_penalty, gs.seed, gs.max_tokens) == ("ngram", 11, 0.55, 0.8, 17, 0.1,
                                                           1.15, 1234, 640)
    w2.conversation.add_user("hello")
    request = w2.flow.build_request()  # what the panel shows is what the engine is asked for
    assert (request.sampling.min_p, request.sampling.repeat_penalty) == (0.1, 1.15)
    assert w2.panel.n_ctx.value() == 2048
    assert w2.settings.models.target == "/models/first.gguf"
    assert w2.settings.models.recent[0] == "/models/first.gguf"
    assert (w2.size().width(), w2.size().height()) == (760, 560)


def test_a_draft_remembered_but_unavailable_keeps_the_preference(make_window, qtbot,
                                                                 settings_path):
    s = Settings()
    s.generation.spec_type = "draft"
    save_settings(s, settings_path)
    w = make_window(ScriptedEngine())
    assert w.panel.spec_type() == "none"  # no draft loaded yet: greyed, not chosen
    assert w.panel.preferred_settings().spec_type == "draft"
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_target("/models/t.gguf")
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_draft("/models/d.gguf")
    assert w.panel.spec_type() == "draft"  # chosen again as soon as it is usable
