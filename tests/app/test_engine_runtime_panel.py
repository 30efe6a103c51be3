"""Kernels and GPU layers in the panel: fast greyed out with the reason when it is not built,
and Apply with another choice starts a new engine and loads the model again."""

from __future__ import annotations

from scripted_engine import ScriptedEngine

from app.panel.combo_items import item_enabled, item_reason
from backend.engine import runtime

TARGET = "/models/fake-target.gguf"


def test_fast_is_greyed_out_with_the_reason_when_not_built(make_window, monkeypatch):
    monkeypatch.delenv(runtime.FAST_BUILD_ENV, raising=False)
    monkeypatch.setattr(runtime, "_record", lambda prefix=None: {})
    w = make_window(ScriptedEngine())
    combo = w.panel.kernels
    fast = combo.findData("fast")
    assert not item_enabled(combo, fast)
    assert "scripts/fast-kernels.sh" in item_reason(combo, fast)
    assert combo.currentData() == "exact"


def test_apply_with_other_gpu_layers_restarts_the_engine(make_window, qtbot):
    engines: list[ScriptedEngine] = []

    def factory():
        engines.append(ScriptedEngine())
        return engines[-1]

    w = make_window(engine_factory=factory)
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_target(TARGET)
    assert len(engines) == 1
    w.panel.gpu_layers.setValue(12)
    with qtbot.waitSignal(w.models_changed, check_params_cb=lambda t, d: t is not None,
                          timeout=5000):
        w.panel.apply_context_button.click()
    assert len(engines) == 2 and engines[0].closed
    assert engines[1].load_calls == [("target", TARGET)]
    assert w.settings.models.gpu_layers == 12
    assert w.collect_settings().models.gpu_layers == 12
    # the same choice again: the engine stays, only the context is made again
    with qtbot.waitSignal(w.models_changed, check_params_cb=lambda t, d: t is not None,
                          timeout=5000):
        w.panel.apply_context_button.click()
    assert len(engines) == 2


def test_the_model_line_says_where_the_model_runs():
    """On the GPU, or on the CPU because GPU layers auto found the GPU too small (the engine's
    fallback, tests/engine/test_runtime.py): a user who chose auto must see which it was."""
    from dataclasses import replace

    from scripted_engine import FakeModelInfo

    from app.panel.model_description import describe_model

    info = FakeModelInfo("/m/t.gguf", "t")
    assert "GPU" not in describe_model(info)
    assert "on the GPU" in describe_model(replace(info, on_gpu=True))
    assert "on the CPU: the GPU could not hold it" in describe_model(
        replace(info, gpu_fallback=True))
